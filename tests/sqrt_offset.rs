//! `√q − R` correctly rounded, against an independent method: the integer
//! square root of `q·4^k` (num-bigint's `sqrt`) brackets `√q` within `2^−k`,
//! and the crate's rational rounding (`rational_to_f64`, tested against Rust's
//! correctly rounded `str::parse`) rounds both ends of the bracket; when they
//! agree, that is the nearest double. Rational `√q` (a and b perfect squares)
//! is computed exactly, which covers the exact ties.

mod common;

use common::{cases, q as qf, scale2};
use exact_collision::num::scalar::rational_to_f64;
use exact_collision::num::sqrt_offset::SqrtOffset;
use exact_collision::Sign;
use num_bigint::BigInt;
use num_rational::BigRational;
use num_traits::{One, Signed, Zero};
use proptest::prelude::*;
use std::cmp::Ordering;

type Q = BigRational;

fn r(n: i64, d: i64) -> Q {
    Q::new(n.into(), d.into())
}
fn pow2(e: i64) -> Q {
    if e >= 0 {
        Q::from_integer(BigInt::one() << e as usize)
    } else {
        Q::new(BigInt::one(), BigInt::one() << (-e) as usize)
    }
}

/// The nearest double to √q − R, by the bracketing method above.
fn reference(q: &Q, rr: &Q) -> f64 {
    let (a, b) = (q.numer(), q.denom());
    let (sa, sb) = (a.sqrt(), b.sqrt());
    if &(&sa * &sa) == a && &(&sb * &sb) == b {
        return rational_to_f64(&(Q::new(sa, sb) - rr));
    }
    let mut k = 128usize;
    loop {
        // s = floor(√(a·4^k / b)) = floor(√q · 2^k)
        let s = ((a << (2 * k)) / b).sqrt();
        let lo = Q::new(s.clone(), BigInt::one() << k) - rr;
        let hi = Q::new(s + 1, BigInt::one() << k) - rr;
        let (x, y) = (rational_to_f64(&lo), rational_to_f64(&hi));
        if x.to_bits() == y.to_bits() {
            return x;
        }
        // The bracket straddles a rounding boundary (or zero): refine.
        assert!(k < 1 << 16, "no convergence for {q} {rr}");
        k *= 2;
    }
}

fn check(q: &Q, rr: &Q) {
    let x = SqrtOffset::new(q.clone(), rr.clone()).unwrap();
    let want = reference(q, rr);
    let got = x.nearest_f64();
    assert_eq!(
        got.to_bits(),
        want.to_bits(),
        "√({q}) − {rr}: {got:e} vs {want:e}"
    );
    // The sign agrees with q − R², computed here directly.
    let s = (q - rr * rr).cmp(&Q::zero());
    assert_eq!(x.sign().to_ordering(), s);
    // R − √q and max(0, √q − R).
    let neg = x.neg_nearest_f64();
    if s == Ordering::Equal {
        assert_eq!(neg.to_bits(), 0f64.to_bits());
    } else {
        assert_eq!(neg.to_bits(), (-want).to_bits());
    }
    let cl = x.clamped_nearest_f64();
    let cl_want = if s == Ordering::Greater { want } else { 0.0 };
    assert_eq!(cl.to_bits(), cl_want.to_bits());
}

#[test]
fn zero_and_exact_cases() {
    check(&r(0, 1), &r(0, 1));
    check(&r(0, 1), &r(3, 7)); // −3/7
    check(&r(2, 1), &r(0, 1)); // √2
    check(&r(9, 4), &r(3, 2)); // exactly 0
    check(&r(9, 4), &r(1, 2)); // 1
    check(&r(1, 9), &r(1, 1)); // −2/3
    assert_eq!(
        SqrtOffset::new(r(9, 4), r(3, 2))
            .unwrap()
            .nearest_f64()
            .to_bits(),
        0
    );
    // √2 − 1 from its published digits, rounded by Rust's correctly rounded
    // parser (the float expression 2f64.sqrt() − 1.0 is 2 ulps off).
    let digits = "0.41421356237309504880168872420969807856967187537694";
    let x = SqrtOffset::new(r(2, 1), r(1, 1)).unwrap();
    assert_eq!(x.nearest_f64(), digits.parse::<f64>().unwrap());
    assert_ne!(x.nearest_f64(), 2f64.sqrt() - 1.0);
}

/// √q − R exactly halfway between two doubles: ties to even.
#[test]
fn exact_ties_round_to_even() {
    let third = r(1, 3);
    for (x, want) in [
        // 1 + 2^-53: between 1 (even) and 1 + 2^-52 (odd) → 1
        (Q::one() + pow2(-53), 1.0),
        // 1 + 3·2^-53: between 1 + 2^-52 (odd) and 1 + 2^-51 (even) → 1 + 2^-51
        (Q::one() + r(3, 1) * pow2(-53), 1.0 + 2f64.powi(-51)),
        // half the smallest subnormal: → 0; 3/2 of it → 2^-1073 (even)
        (pow2(-1075), 0.0),
        (r(3, 1) * pow2(-1075), 2f64.powi(-1073)),
        // f64::MAX + half an ulp: → ∞
        (qf(f64::MAX) + pow2(970), f64::INFINITY),
    ] {
        let s = &x + &third;
        let q = &s * &s;
        let got = SqrtOffset::new(q.clone(), third.clone())
            .unwrap()
            .nearest_f64();
        assert_eq!(got, want, "{x}");
        check(&q, &third);
    }
}

/// √q ≈ R to 1e-30 relative and closer: the difference is tiny but exact.
#[test]
fn catastrophic_cancellation() {
    // R = a decimal approximation of √2 with 40, 100 and 300 digits.
    for digits in [40u32, 100, 300] {
        let ten = BigInt::from(10).pow(digits);
        let s2 = (BigInt::from(2) * &ten * &ten).sqrt(); // floor(√2·10^digits)
        for rr in [Q::new(s2.clone(), ten.clone()), Q::new(s2 + 1, ten.clone())] {
            check(&r(2, 1), &rr);
        }
    }
    // q = (R + δ)² with δ = 2^-100·R, R ≈ 1e30.
    let rr = Q::from_integer(BigInt::from(10).pow(30)) + r(1, 3);
    for e in [-60i64, -100, -200, -1000, -1070, -1080, -1100] {
        let s = &rr + pow2(e);
        check(&(&s * &s), &rr);
        let s = &rr - pow2(e);
        check(&(&s * &s), &rr);
        // and off by one in q's last place
        check(&(&s * &s + pow2(2 * e)), &rr);
    }
}

/// 2^±1000 inputs, results near overflow and in the subnormal range.
#[test]
fn huge_and_tiny() {
    for (q, rr) in [
        (pow2(2000), Q::zero()),              // 2^1000
        (pow2(2100), Q::zero()),              // 2^1050 → ∞
        (pow2(2000) * r(3, 1), pow2(1000)),   // (√3 − 1)·2^1000
        (pow2(-2000) * r(3, 1), pow2(-1000)), // (√3 − 1)·2^-1000: subnormal
        (pow2(-2100), Q::zero()),             // 2^-1050: subnormal
        (pow2(-2200), Q::zero()),             // 2^-1100 → 0
        (pow2(-2200), pow2(-1100) * r(1, 3)), // (2/3)·2^-1100 → 0
        (pow2(-2200) * r(7, 1), pow2(-1076)), // negative subnormal
        (qf(f64::MAX) * qf(f64::MAX), Q::zero()),
        (qf(f64::MAX) * qf(f64::MAX) * r(4, 1), qf(f64::MAX)),
        (pow2(4000), pow2(2000) - r(1, 3)), // cancellation at 2^2000
        (pow2(3000), Q::zero()),            // 2^1500 → ∞
        (Q::zero(), pow2(1100)),            // −∞
    ] {
        check(&q, &rr);
    }
}

fn big_rational() -> impl Strategy<Value = Q> {
    (any::<u64>(), any::<u64>(), 1u64.., -1100i64..1100).prop_map(|(a, b, d, e)| {
        let n = (BigInt::from(a) << 64usize) + BigInt::from(b);
        Q::new(n, BigInt::from(d)) * pow2(e)
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(cases(2000, 100_000)))]

    #[test]
    fn random_rationals(q in big_rational(), rr in big_rational()) {
        check(&q, &rr);
    }

    /// q and R with √q near R: q = (R + δ)² ± ε.
    #[test]
    fn near_touching(rr in big_rational(), de in -1200i64..40, eps_e in -3000i64..40, mode in 0u8..4) {
        let delta = &rr * pow2(de);
        let s = if mode % 2 == 0 { &rr + &delta } else { &rr - &delta };
        let mut q = &s * &s;
        if mode >= 2 {
            q += pow2(eps_e);
        }
        if !q.is_negative() {
            check(&q, &rr);
        }
    }

    /// Doubles as inputs (the usual case): q a sum of squares of doubles.
    #[test]
    fn double_inputs(x in -1e3f64..1e3, y in -1e3f64..1e3, z in -1e3f64..1e3, r1 in 0f64..2e3, e in -500i32..500) {
        let (x, y, z, r1) = (scale2(x, e), scale2(y, e), scale2(z, e), scale2(r1, e));
        let q = qf(x) * qf(x) + qf(y) * qf(y) + qf(z) * qf(z);
        check(&q, &qf(r1));
    }
}

/// √2 − 1 = 0.41421356237309504880168872420969807856967187537694… (digits of
/// √2 from the literature); compared with rationals on either side.
#[test]
fn cmp_rational_against_known_digits() {
    let x = SqrtOffset::new(r(2, 1), r(1, 1)).unwrap();
    let dec = |s: &str| exact_collision::protocol::number::parse_exact(s).unwrap();
    assert_eq!(
        x.cmp_rational(&dec("0.4142135623730950488016887")),
        Ordering::Greater
    );
    assert_eq!(
        x.cmp_rational(&dec("0.4142135623730950488016888")),
        Ordering::Less
    );
    assert_eq!(x.cmp_rational(&dec("-5")), Ordering::Greater);
    let y = SqrtOffset::new(r(2, 1), r(3, 1)).unwrap(); // −1.5857864376269049511…
    assert_eq!(
        y.cmp_rational(&dec("-1.5857864376269049512")),
        Ordering::Greater
    );
    assert_eq!(
        y.cmp_rational(&dec("-1.5857864376269049511")),
        Ordering::Less
    );
    let z = SqrtOffset::new(r(9, 4), r(3, 2)).unwrap();
    assert_eq!(z.cmp_rational(&Q::zero()), Ordering::Equal);
}

#[test]
fn display_form() {
    let x = SqrtOffset::new(r(8, 6), r(2, 6)).unwrap();
    assert_eq!(x.to_string(), "√(4/3) − 1/3");
    assert_eq!(x.sign(), Sign::Positive);
}
