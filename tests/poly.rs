//! Property tests for `poly`: planted roots (rational, irrational, clustered 1e-12 apart, at
//! the interval ends, multiple), checked against an independent Sturm-sequence count written
//! here over plain rational vectors.
//!
//! Case counts are modest by default; set `EXACT_HEAVY=1` for long runs.

use std::cmp::Ordering;

use exact_collision::poly::planted::{self, Planted, PlantedRoot};
use exact_collision::poly::{
    first_root_in, isolate_roots, sign_of_poly_at, IsolatingInterval, Poly, RealRoot, Roots,
};
use num_bigint::BigInt;
use num_rational::BigRational;
use num_traits::{One, Signed, Zero};
use proptest::prelude::*;

fn r(n: i64, d: i64) -> BigRational {
    BigRational::new(n.into(), d.into())
}

fn cases(light: u32) -> ProptestConfig {
    let heavy = std::env::var("EXACT_HEAVY").is_ok_and(|v| v == "1");
    ProptestConfig::with_cases(if heavy { light * 30 } else { light })
}

// --- independent reference: Horner and Sturm sequences over Vec<BigRational> ---------------

fn eval(p: &[BigRational], x: &BigRational) -> BigRational {
    p.iter().rev().fold(BigRational::zero(), |acc, c| acc * x + c)
}

fn trim(mut v: Vec<BigRational>) -> Vec<BigRational> {
    while v.last().is_some_and(Zero::is_zero) {
        v.pop();
    }
    v
}

fn rem(a: &[BigRational], b: &[BigRational]) -> Vec<BigRational> {
    let mut r = a.to_vec();
    let db = b.len() - 1;
    while r.len() > db && !r.is_empty() {
        let f = r.last().unwrap() / b.last().unwrap();
        let off = r.len() - 1 - db;
        for (i, bc) in b.iter().enumerate() {
            r[off + i] -= &f * bc;
        }
        r = trim(r);
    }
    r
}

fn sturm_sequence(p: &[BigRational]) -> Vec<Vec<BigRational>> {
    let d: Vec<BigRational> = p
        .iter()
        .enumerate()
        .skip(1)
        .map(|(i, c)| c * BigRational::from_integer(i.into()))
        .collect();
    let mut seq = vec![p.to_vec(), trim(d)];
    while !seq.last().unwrap().is_empty() {
        let n = seq.len();
        let r: Vec<BigRational> = rem(&seq[n - 2], &seq[n - 1])
            .into_iter()
            .map(|c| -c)
            .collect();
        seq.push(r);
    }
    seq.pop();
    seq
}

fn sign_changes(seq: &[Vec<BigRational>], x: &BigRational) -> usize {
    let signs: Vec<bool> = seq
        .iter()
        .map(|p| eval(p, x))
        .filter(|v| !v.is_zero())
        .map(|v| v.is_positive())
        .collect();
    signs.windows(2).filter(|w| w[0] != w[1]).count()
}

/// Exact quotient `a / b`.
fn quo(a: &[BigRational], b: &[BigRational]) -> Vec<BigRational> {
    let mut r = a.to_vec();
    let db = b.len() - 1;
    let mut q = vec![BigRational::zero(); (a.len() + 1).saturating_sub(b.len())];
    for k in (0..q.len()).rev() {
        let f = &r[k + db] / b.last().unwrap();
        for (i, bc) in b.iter().enumerate() {
            r[k + i] -= &f * bc;
        }
        q[k] = f;
    }
    assert!(r.iter().all(Zero::is_zero), "inexact division");
    q
}

/// Number of distinct real roots of `p` in the half-open interval (a, b] (Sturm's theorem
/// on the square-free part p / gcd(p, p′), the last element of p's Sturm sequence).
fn sturm_count(p: &Poly, a: &BigRational, b: &BigRational) -> usize {
    let g = sturm_sequence(p.coeffs()).pop().unwrap();
    let seq = sturm_sequence(&quo(p.coeffs(), &g));
    sign_changes(&seq, a) - sign_changes(&seq, b)
}

/// Distinct roots of `p` in the closed interval [a, b].
fn sturm_count_closed(p: &Poly, a: &BigRational, b: &BigRational) -> usize {
    let at_a = usize::from(eval(p.coeffs(), a).is_zero());
    sturm_count(p, a, b) + at_a
}

// --- reference arithmetic on planted roots ---------------------------------------------------

/// Sign of α relative to the rational x, for a planted root α.
fn planted_cmp(a: &PlantedRoot, x: &BigRational) -> Ordering {
    match a {
        PlantedRoot::Rational(q) => q.cmp(x),
        // √c vs x: greater iff x < 0 or x² < c.
        PlantedRoot::Sqrt(c) => {
            if x.is_negative() {
                Ordering::Greater
            } else {
                c.cmp(&(x * x))
            }
        }
        PlantedRoot::NegSqrt(c) => {
            if x.is_positive() {
                Ordering::Less
            } else {
                (x * x).cmp(c)
            }
        }
    }
}

/// Checks one reported root against a planted one: the interval contains it (or equals it).
fn matches_planted(root: &RealRoot, a: &PlantedRoot) -> bool {
    match root {
        RealRoot::Exact(x) => planted_cmp(a, x) == Ordering::Equal,
        RealRoot::Interval(i) => {
            planted_cmp(a, i.lo()) == Ordering::Greater && planted_cmp(a, i.hi()) == Ordering::Less
        }
    }
}

/// Full check of an isolation result against the planted roots and the Sturm reference.
fn check_isolation(pl: &Planted, lo: &BigRational, hi: &BigRational) -> Vec<RealRoot> {
    let p = pl.poly();
    let Roots::Isolated(roots) = isolate_roots(&p, lo, hi) else {
        panic!("nonzero polynomial reported Everywhere")
    };
    let expected = pl.roots_in(lo, hi);
    assert_eq!(roots.len(), expected.len(), "count, planted {expected:?}");
    assert_eq!(roots.len(), sturm_count_closed(&p, lo, hi), "Sturm count");
    for w in roots.windows(2) {
        assert!(w[0].value.hi() <= w[1].value.lo(), "sorted and disjoint");
        let both_exact = w[0].value.as_exact().is_some() && w[1].value.as_exact().is_some();
        assert!(!both_exact || w[0].value.hi() < w[1].value.lo(), "distinct");
    }
    for root in &roots {
        assert!(lo <= root.value.lo() && root.value.hi() <= hi, "inside [lo, hi]");
        let (a, m) = expected
            .iter()
            .find(|(a, _)| matches_planted(&root.value, a))
            .unwrap_or_else(|| panic!("{root:?} matches no planted root"));
        assert_eq!(root.multiplicity, *m, "multiplicity of {a:?}");
        match &root.value {
            RealRoot::Exact(x) => assert!(eval(p.coeffs(), x).is_zero()),
            RealRoot::Interval(i) => {
                let f = i.poly();
                let (sa, sb) = (eval(f.coeffs(), i.lo()), eval(f.coeffs(), i.hi()));
                assert!(!sa.is_zero() && !sb.is_zero());
                assert_ne!(sa.is_positive(), sb.is_positive(), "endpoint signs");
                assert_eq!(sa.is_positive(), i.sign_at_lo() == Ordering::Greater);
                assert_eq!(sturm_count(&f, i.lo(), i.hi()), 1, "exactly one root");
                let at_hi = usize::from(eval(p.coeffs(), i.hi()).is_zero());
                assert_eq!(sturm_count(&p, i.lo(), i.hi()) - at_hi, 1, "open interval");
                assert!(p.div_exact(&f).is_some(), "f divides p");
            }
        }
    }
    roots.into_iter().map(|x| x.value).collect()
}

// --- generators ------------------------------------------------------------------------------

fn small_rational() -> impl Strategy<Value = BigRational> {
    (-40i64..=40, 1i64..=12).prop_map(|(n, d)| r(n, d))
}

prop_compose! {
    fn planted_poly()(
        rats in prop::collection::vec((small_rational(), 1u32..=3), 0..5),
        sqrts in prop::collection::vec((prop::sample::select(vec![2u32, 3, 5, 6, 7]), 1i64..=9, 1i64..=5, 1u32..=2), 0..3),
        scale in (1i64..=7, prop::bool::ANY),
    ) -> Planted {
        let mut pl = Planted::new(r(if scale.1 { scale.0 } else { -scale.0 }, 3));
        for (x, m) in rats {
            pl.add_rational(x, m);
        }
        for (k, n, d, m) in sqrts {
            pl.add_sqrt(k, r(n, d), m);
        }
        pl
    }
}

/// An interval whose ends are often planted rational roots.
fn interval_for(pl: &Planted, a: BigRational, b: BigRational, pick: (usize, usize)) -> (BigRational, BigRational) {
    let mut ends = vec![a, b];
    if !pl.rational.is_empty() {
        ends.push(pl.rational[pick.0 % pl.rational.len()].0.clone());
        ends.push(pl.rational[pick.1 % pl.rational.len()].0.clone());
    }
    let x = ends[pick.0 % ends.len()].clone();
    let y = ends[(pick.1 / 7) % ends.len()].clone();
    if x <= y {
        (x, y)
    } else {
        (y, x)
    }
}

proptest! {
    #![proptest_config(cases(48))]

    #[test]
    fn planted_roots_are_isolated(pl in planted_poly(), a in small_rational(), b in small_rational(), pick in (0usize..100, 0usize..100)) {
        let (lo, hi) = interval_for(&pl, a, b, pick);
        check_isolation(&pl, &lo, &hi);
        // A wide interval holding every planted root.
        check_isolation(&pl, &r(-100, 1), &r(100, 1));
    }

    #[test]
    fn clustered_roots_1e12_apart(c in small_rational(), k in 1i64..=4, extra in small_rational()) {
        // c, c + k·10⁻¹², and an irrational √2·(c-ish) next to its own rational approximant.
        let eps = BigRational::new(BigInt::from(k), BigInt::from(10).pow(12));
        let mut pl = Planted::new(BigRational::one());
        pl.add_rational(c.clone(), 1);
        pl.add_rational(&c + &eps, 1);
        pl.add_rational(extra, 2);
        // 1.414213562373 is within 1e-12 of √2.
        pl.add_sqrt(2, BigRational::one(), 1);
        pl.add_rational(r(1_414_213_562_373, 1_000_000_000_000), 1);
        check_isolation(&pl, &r(-10, 1), &r(10, 1));
        check_isolation(&pl, &c, &(&c + &eps));
    }

    #[test]
    fn refinement_converges(pl in planted_poly(), e in 8u32..80) {
        let p = pl.poly();
        let w = BigRational::new(BigInt::one(), BigInt::one() << e);
        for mut root in isolate_roots(&p, &r(-50, 1), &r(50, 1)).isolated().iter().map(|x| x.value.clone()) {
            let before = root.clone();
            root.refine_to_width(&w);
            prop_assert!(root.width() <= w);
            prop_assert!(before.lo() <= root.lo() && root.hi() <= before.hi());
            prop_assert_eq!(before.cmp_exact(&root), Ordering::Equal);
            if let RealRoot::Interval(i) = &root {
                prop_assert_eq!(sturm_count(&i.poly(), i.lo(), i.hi()), 1);
            } else {
                prop_assert!(p.eval(root.lo()).is_zero());
            }
        }
    }

    #[test]
    fn comparison_and_signs_match_planted(p1 in planted_poly(), p2 in planted_poly()) {
        let (lo, hi) = (r(-50, 1), r(50, 1));
        let a = check_isolation(&p1, &lo, &hi);
        let b = check_isolation(&p2, &lo, &hi);
        let pa = p1.roots_in(&lo, &hi);
        let pb = p2.roots_in(&lo, &hi);
        let q2 = p2.poly();
        for x in &a {
            let ax = &pa.iter().find(|(k, _)| matches_planted(x, k)).unwrap().0;
            // Sign of p2 at x: product of factor signs, computed from the planted factors.
            let mut expect = if p2.scale.is_positive() { Ordering::Greater } else { Ordering::Less };
            for (q, m) in &p2.rational {
                let s = planted_cmp(ax, q);
                expect = mul_sign(expect, pow_sign(s, *m));
            }
            for (c, m) in &p2.quadratic {
                let sq = planted_square(ax);
                expect = mul_sign(expect, pow_sign(sq.cmp(c), *m));
            }
            prop_assert_eq!(sign_of_poly_at(&q2, x), expect);
            for y in &b {
                let by = &pb.iter().find(|(k, _)| matches_planted(y, k)).unwrap().0;
                prop_assert_eq!(x.cmp_exact(y), planted_order(ax, by));
            }
        }
    }

    #[test]
    fn random_63_bit_polys_match_sturm(seed in any::<u64>(), deg in 1usize..=12) {
        let mut s = seed;
        let p = planted::random_integer_poly(&mut s, deg, 64);
        let (lo, hi) = (r(0, 1), r(1, 1));
        let roots = isolate_roots(&p, &lo, &hi);
        prop_assert_eq!(roots.isolated().len(), sturm_count_closed(&p, &lo, &hi));
        for root in roots.isolated() {
            if let RealRoot::Interval(i) = &root.value {
                prop_assert_eq!(sturm_count(&p, i.lo(), i.hi()), 1);
            }
        }
        let first = first_root_in(&p, &lo, &hi);
        prop_assert_eq!(first.isolated().len(), roots.isolated().len().min(1));
        if let (Some(f), Some(g)) = (first.isolated().first(), roots.isolated().first()) {
            prop_assert_eq!(f.value.cmp_exact(&g.value), Ordering::Equal);
        }
    }
}

fn mul_sign(a: Ordering, b: Ordering) -> Ordering {
    match (a, b) {
        (Ordering::Equal, _) | (_, Ordering::Equal) => Ordering::Equal,
        _ if a == b => Ordering::Greater,
        _ => Ordering::Less,
    }
}

fn pow_sign(s: Ordering, m: u32) -> Ordering {
    if m % 2 == 0 && s != Ordering::Equal {
        Ordering::Greater
    } else {
        s
    }
}

fn planted_square(a: &PlantedRoot) -> BigRational {
    match a {
        PlantedRoot::Rational(q) => q * q,
        PlantedRoot::Sqrt(c) | PlantedRoot::NegSqrt(c) => c.clone(),
    }
}

/// Exact order of two planted roots.
fn planted_order(a: &PlantedRoot, b: &PlantedRoot) -> Ordering {
    match (a, b) {
        (_, PlantedRoot::Rational(y)) => planted_cmp(a, y),
        (PlantedRoot::Rational(x), _) => planted_cmp(b, x).reverse(),
        (PlantedRoot::Sqrt(c), PlantedRoot::Sqrt(d)) => c.cmp(d),
        (PlantedRoot::NegSqrt(c), PlantedRoot::NegSqrt(d)) => d.cmp(c),
        (PlantedRoot::Sqrt(_), PlantedRoot::NegSqrt(_)) => Ordering::Greater,
        (PlantedRoot::NegSqrt(_), PlantedRoot::Sqrt(_)) => Ordering::Less,
    }
}

// --- named regression cases ------------------------------------------------------------------

#[test]
fn zero_polynomial_is_everywhere() {
    assert!(matches!(
        isolate_roots(&Poly::zero(), &r(0, 1), &r(1, 1)),
        Roots::Everywhere
    ));
    assert!(matches!(
        first_root_in(&Poly::zero(), &r(0, 1), &r(1, 1)),
        Roots::Everywhere
    ));
}

#[test]
fn double_root_at_both_ends_reported_once_each() {
    // (x − 0)² (x − 1)² (x − 1/2)³ on [0, 1]
    let mut pl = Planted::new(BigRational::one());
    pl.add_rational(r(0, 1), 2);
    pl.add_rational(r(1, 1), 2);
    pl.add_rational(r(1, 2), 3);
    let roots = check_isolation(&pl, &r(0, 1), &r(1, 1));
    let exact: Vec<_> = roots.iter().map(|x| x.as_exact().cloned()).collect();
    assert_eq!(exact, vec![Some(r(0, 1)), Some(r(1, 2)), Some(r(1, 1))]);
}

#[test]
fn verify_rejects_bad_intervals() {
    let p = Poly::from_ints(&[-2, 0, 1]);
    assert!(IsolatingInterval::verify(&p, &r(1, 1), &r(2, 1)).is_some());
    assert!(IsolatingInterval::verify(&p, &r(2, 1), &r(1, 1)).is_none());
    assert!(IsolatingInterval::verify(&p, &r(2, 1), &r(3, 1)).is_none());
    assert!(IsolatingInterval::verify(&p, &r(-2, 1), &r(2, 1)).is_none());
    // Endpoint is a root.
    let q = Poly::from_ints(&[-1, 0, 1]);
    assert!(IsolatingInterval::verify(&q, &r(1, 1), &r(2, 1)).is_none());
}

#[test]
fn to_f64_is_nearest_double() {
    let p = Poly::from_ints(&[-2, 0, 1]);
    let roots = isolate_roots(&p, &r(-2, 1), &r(2, 1));
    let v: Vec<f64> = roots.isolated().iter().map(|x| x.value.to_f64()).collect();
    assert_eq!(v, vec![-std::f64::consts::SQRT_2, std::f64::consts::SQRT_2]);
    let third = isolate_roots(&Poly::from_ints(&[-1, 0, 3]), &r(0, 1), &r(1, 1));
    assert_eq!(
        third.isolated()[0].value.to_f64(),
        (1.0f64 / 3.0).sqrt(),
        "√(1/3)"
    );
}

#[test]
fn to_primitive_integer_is_canonical() {
    // −(x − 1/2)² (2x + 4) → square-free primitive 2x² + 3x − 2 = (2x − 1)(x + 2)
    let p = &(&Poly::from_ints(&[1, -4, 4]) * &Poly::from_ints(&[4, 2])) * &Poly::from_ints(&[-1]);
    let z: Vec<BigInt> = vec![(-2).into(), 3.into(), 2.into()];
    assert_eq!(p.to_primitive_integer(), z);
}

#[test]
fn wilkinson_like_cluster() {
    // ∏_{i=1}^{12} (x − i/13), plus a double root 1/2: many roots close together.
    let mut pl = Planted::new(BigRational::one());
    for i in 1..=12 {
        pl.add_rational(r(i, 13), 1);
    }
    pl.add_rational(r(1, 2), 2);
    check_isolation(&pl, &r(0, 1), &r(1, 1));
}
