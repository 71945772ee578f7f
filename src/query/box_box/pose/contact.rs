//! `contact` of two meeting boxes by pose on the float-guided path
//! (docs/contact.md): the same answer as the exact reference
//! (`polytope::contact::penetration_of_meeting` on the exact boxes), built
//! in integers and reduced once.
//!
//! The exact box of a pose has half-axes hₖ = Eₖ·mₖ/d (mₖ column k of the
//! integer matrix M, d = |Q|² for a quaternion brought to integers Q, a
//! power of two for a matrix; Eₖ the half-extent) and center C, all with
//! lengths in units 2^z. Contact commutes with scaling the scene by a
//! positive k: the same normals (directions), δ² times k², the translation
//! and the region times k. With k = d_a·d_b·2^(−z) both boxes have integer
//! centers (d_a·d_b·C) and half-axes (Eₖ·d_other·mₖ), and the box contact's
//! machinery (`box_box::contact`: its 15 candidates, the exact normals, the
//! region by the reference's plane steps, in integers) answers on them;
//! each output number is divided by k and put in lowest terms once.
//!
//! 1. **Meeting and the optimal candidates, filtered.** The scene scaled by
//!    Q_a·Q_b (Q = |q|² of the doubles) is a polynomial in the input
//!    doubles: a's half-axes Hₖ·Q_b, b's Hₖ·Q_a, the centers times Q_a·Q_b
//!    (`pose::scaled`, whose ring keeps exact zeros exact). Every
//!    candidate's overlap `o`, `|n|²` and the comparisons
//!    `o_c²·|n_m|² − o_m²·|n_c|²` are evaluated there with a proven error
//!    bound. The pair meets when every nonzero candidate has `o ≥ 0`
//!    (the 15-axis test); it is decided here only when each `o` is proved
//!    positive and each `|n|²` proved positive or exactly zero.
//! 2. **Exactly, where the bound does not decide** (touching pairs, ties,
//!    parallel edges that are not exactly parallel in the filter): the same
//!    values in exact rationals on the integer boxes (integers: no
//!    reduction does any work).
//! 3. **The build** (`contact::penetration_of_integers`): the primitive
//!    normals, the overlap, |n|² and the region as integers over common
//!    denominators, then divided by k and reduced factor by factor (the
//!    remainder modulo each factor of the denominator, d_a, d_b and the
//!    build's own, and one gcd of that factor's size).
//!
//! Every decision is exact, so the answer equals the reference's. A pair
//! the build gives up on (none the reference answers is known) is left to
//! the reference, counted as a fallback in [`crate::stats::POSE_CONTACT`].

use super::{int_rotation, scaled, PoseBox, PoseRotation, Z as Fz};
use crate::num::dyadic::f64_parts;
use crate::num::gcd::gcd_lehmer;
use crate::num::ring::Ring;
use crate::num::sign::Sign;
use crate::query::box_box::contact::{
    candidates_of, gap_of, penetration_of_integers, Axes, PenetrationUnreduced,
};
use crate::query::polytope::contact::Penetration;
use crate::query::triangle_triangle::Contact as Region;
use crate::vector::Vec3;
use num_bigint::{BigInt, BigUint};
use num_integer::Integer;
use num_rational::BigRational;
use num_traits::{One, Signed, Zero};

type Q = BigRational;

/// What the pose contact path found for a pair of boxes by pose.
#[derive(Clone, Debug, PartialEq)]
pub enum PoseContact {
    /// The boxes meet: the exact penetration (the reference's answer).
    Meeting(Box<Penetration>),
    /// The boxes are apart (proved exactly): the caller answers the
    /// distance.
    Apart,
    /// Not answered here (an invalid pose, or a build this path does not
    /// take): the caller asks the reference.
    Undecided,
}

/// The contact of two boxes by pose (module docs): [`PoseContact::Meeting`]
/// with the reference's exact penetration, [`PoseContact::Apart`] when the
/// exact 15-axis test separates them, else [`PoseContact::Undecided`].
///
/// ```
/// use exact_collision::query::box_box::pose::{contact::{penetration, PoseContact}, PoseBox, PoseRotation};
/// use num_rational::BigRational;
/// let pose = |t: [f64; 3]| PoseBox {
///     half_extents: [0.5; 3],
///     rotation: PoseRotation::Quaternion([2.0, 0.0, 0.0, 0.0]),
///     translation: t,
/// };
/// let PoseContact::Meeting(p) = penetration(&pose([0.0; 3]), &pose([0.0, 0.0, 0.75])) else {
///     unreachable!()
/// };
/// assert_eq!(p.depth_squared, BigRational::new(1.into(), 16.into()));
/// ```
pub fn penetration(a: &PoseBox, b: &PoseBox) -> PoseContact {
    let Some((za, zb, k, z)) = integer_boxes(a, b) else {
        return PoseContact::Undecided;
    };
    let tied = match filtered(a, b) {
        Some(t) => t,
        None => match exact(&za, &zb) {
            Some(t) => t,
            None => return PoseContact::Apart,
        },
    };
    match penetration_of_integers(za, zb, &tied) {
        Some((p, w)) => PoseContact::Meeting(Box::new(reduce(&p, &w, (&k.0, &k.1), z))),
        None => PoseContact::Undecided,
    }
}

/// The optimal candidates (in candidate order) of two boxes proved to meet
/// by the float filter; `None` where a bound does not decide, the float
/// guess of the least candidate was wrong, or a candidate separates.
fn filtered(a: &PoseBox, b: &PoseBox) -> Option<Vec<usize>> {
    let (sa, sb) = (scaled(a)?, scaled(b)?);
    let qq = sa.q.mul_ref(&sb.q);
    let lift = |c: &[Fz; 3], h: &[[Fz; 3]; 3], s: &Fz| -> Axes<Fz> {
        let v = |x: &[Fz; 3], f: &Fz| Vec3::new(x[0].mul_ref(f), x[1].mul_ref(f), x[2].mul_ref(f));
        (v(c, &qq), [v(&h[0], s), v(&h[1], s), v(&h[2], s)])
    };
    let all = candidates_of(lift(&sa.c, &sa.h, &sb.q), lift(&sb.c, &sb.h, &sa.q));
    let mut kept: Vec<usize> = Vec::with_capacity(15);
    let (mut m, mut best) = (None, f64::INFINITY);
    for (k, (o, nn)) in all.iter().enumerate() {
        match nn.sign()? {
            Sign::Zero => continue, // an exactly zero axis: no candidate
            Sign::Negative => return None,
            Sign::Positive => {}
        }
        // Meeting needs o ≥ 0; the filter takes only o proved positive.
        if o.sign()? != Sign::Positive {
            return None;
        }
        let g = o.0.v * o.0.v / nn.0.v;
        if !g.is_finite() {
            return None;
        }
        if g < best {
            (best, m) = (g, Some(k));
        }
        kept.push(k);
    }
    let m = m?;
    let (om, nnm) = &all[m];
    let mut tied = Vec::with_capacity(2);
    for &c in &kept {
        if c == m {
            tied.push(c);
            continue;
        }
        let (oc, nnc) = &all[c];
        match gap_of(oc, nnc, om, nnm).sign()? {
            Sign::Positive => {}
            Sign::Zero => tied.push(c),
            Sign::Negative => return None,
        }
    }
    Some(tied)
}

/// The optimal candidates (in candidate order) of two boxes in integers,
/// exactly; `None` when a candidate separates them (`o < 0`: apart).
fn exact(za: &Axes<BigInt>, zb: &Axes<BigInt>) -> Option<Vec<usize>> {
    let q = |(c, h): &Axes<BigInt>| -> Axes<Q> {
        let v = |x: &Vec3<BigInt>| x.map(|c| Q::from_integer(c.clone()));
        (v(c), [v(&h[0]), v(&h[1]), v(&h[2])])
    };
    let all = candidates_of(q(za), q(zb));
    let mut best: Option<usize> = None;
    for (k, (o, nn)) in all.iter().enumerate() {
        if nn.is_zero() {
            continue;
        }
        if o.is_negative() {
            return None;
        }
        let better = match best {
            None => true,
            Some(m) => gap_of(o, nn, &all[m].0, &all[m].1).is_negative(),
        };
        if better {
            best = Some(k);
        }
    }
    let m = best?;
    let (om, nnm) = &all[m];
    Some(
        (0..15)
            .filter(|&c| !all[c].1.is_zero() && gap_of(&all[c].0, &all[c].1, om, nnm).is_zero())
            .collect(),
    )
}

/// `x/2^z` as an integer (x a multiple of 2^z).
fn int_at(x: f64, z: i64) -> BigInt {
    let (m, f) = f64_parts(x);
    if m == 0 {
        BigInt::zero()
    } else {
        BigInt::from(m) << (f - z) as usize
    }
}

/// The exact boxes scaled by k = d_a·d_b·2^(−z) (module docs), as integer
/// centers and half-axes, with (d_a, d_b) and z; `None` for a pose that is no
/// box (a zero quaternion, a singular matrix, a half-extent that is not
/// positive and finite, a translation that is not finite).
#[allow(clippy::type_complexity)]
fn integer_boxes(
    a: &PoseBox,
    b: &PoseBox,
) -> Option<(Axes<BigInt>, Axes<BigInt>, (BigInt, BigInt), i64)> {
    for p in [a, b] {
        let lengths_ok = p.half_extents.iter().all(|e| e.is_finite() && *e > 0.0)
            && p.translation.iter().all(|t| t.is_finite())
            && match &p.rotation {
                PoseRotation::Quaternion(q) => q.iter().all(|x| x.is_finite()),
                PoseRotation::Matrix(m) => m.iter().flatten().all(|x| x.is_finite()),
            };
        if !lengths_ok {
            return None;
        }
    }
    let ((ma, da), (mb, db)) = (int_rotation(&a.rotation)?, int_rotation(&b.rotation)?);
    let lengths = a.half_extents.iter().chain(&a.translation);
    let z = lengths
        .chain(&b.half_extents)
        .chain(&b.translation)
        .filter(|x| **x != 0.0)
        .map(|x| f64_parts(*x).1)
        .min()
        .unwrap_or(0);
    let dd = &da * &db;
    let side = |p: &PoseBox, m: &[[BigInt; 3]; 3], other: &BigInt| -> Option<Axes<BigInt>> {
        let [x, y, w] = p.translation.map(|t| int_at(t, z) * &dd);
        let h = [0, 1, 2].map(|k| {
            let e = int_at(p.half_extents[k], z) * other;
            Vec3::new(&e * &m[0][k], &e * &m[1][k], &e * &m[2][k])
        });
        // A nondegenerate box: det(h) ≠ 0 (a quaternion's M has det
        // |Q|⁶ > 0, and the half-extents are positive).
        if matches!(p.rotation, PoseRotation::Quaternion(_)) {
            return Some((Vec3::new(x, y, w), h));
        }
        let det = h[0].y.clone() * &h[1].z * &h[2].x - h[0].z.clone() * &h[1].y * &h[2].x
            + h[0].z.clone() * &h[1].x * &h[2].y
            - h[0].x.clone() * &h[1].z * &h[2].y
            + h[0].x.clone() * &h[1].y * &h[2].z
            - h[0].y.clone() * &h[1].x * &h[2].z;
        (!det.is_zero()).then_some((Vec3::new(x, y, w), h))
    };
    let (xa, xb) = (side(a, &ma, &db)?, side(b, &mb, &da)?);
    Some((xa, xb, (da, db), z))
}

/// gcd(|n|, f) for f > 0: the remainder of `n` modulo f, then one gcd of
/// f's size (in `u128`, `num_integer`'s binary gcd, when f fits).
fn gcd_with(n: &BigInt, f: &BigUint) -> BigUint {
    let r = n.magnitude() % f;
    if r.is_zero() {
        return f.clone();
    }
    match (u128::try_from(f), u128::try_from(&r)) {
        (Ok(x), Ok(y)) => BigUint::from(x.gcd(&y)),
        _ => gcd_lehmer(f, &r),
    }
}

/// `n/d` (in lowest terms, d > 0) times 2^z, in lowest terms: the twos
/// cancel against the other side's.
fn with_twos(mut n: BigInt, mut d: BigInt, z: i64) -> Q {
    if n.is_zero() {
        return <Q as Zero>::zero();
    }
    if z >= 0 {
        let t = d.magnitude().trailing_zeros().unwrap_or(0).min(z as u64);
        d >>= t as usize;
        n <<= (z as u64 - t) as usize;
    } else {
        let t = n.magnitude().trailing_zeros().unwrap_or(0).min((-z) as u64);
        n >>= t as usize;
        d <<= ((-z) as u64 - t) as usize;
    }
    Q::new_raw(n, d)
}

/// `n/(Π factors)` in lowest terms as (numerator, denominator), every factor
/// positive, reduced factor by factor: one [`gcd_with`] of the factor's
/// size, `n` divided by it before the next factor. The result is in lowest
/// terms: after a factor f with g = gcd(n, f), `n/g` and `f/g` share no
/// prime (a prime's exponent is zero in one of them), and later numerators
/// divide `n/g`.
fn lowest(mut n: BigInt, factors: &[&BigInt]) -> (BigInt, BigInt) {
    let mut den = BigInt::from(1);
    if n.is_zero() {
        return (n, den);
    }
    for f in factors {
        if f.is_one() {
            continue;
        }
        let g = gcd_with(&n, f.magnitude());
        if g.is_one() {
            den *= *f;
        } else {
            let g = BigInt::from(g);
            n /= &g;
            den *= *f / &g;
        }
    }
    (n, den)
}

/// The answer with every number divided by k = d_a·d_b·2^(−z) and in
/// lowest terms: `v/(den·(d_a·d_b)^p)·2^(p·z)` for a value of degree p in
/// lengths.
/// `w` holds each region vertex's denominator as factors (their product,
/// smaller gcds than one of the whole).
fn reduce(
    p: &PenetrationUnreduced,
    w: &[Vec<BigInt>],
    (da, db): (&BigInt, &BigInt),
    z: i64,
) -> Penetration {
    let (n, o, n2) = (&p.normals[0], &p.overlap, &p.norm_squared);
    // The translation n_c·o/(|n|²·d_a·d_b): o over the shared denominator
    // once, then each n_c against what is left (n_c's size): with
    // gcd(o', D') = 1 and g = gcd(n_c, D'), (n_c/g)·o' and D'/g are coprime.
    let (o1, den1) = lowest(o.clone(), &[n2, da, db]);
    let translation = n.map(|c| {
        if c.is_zero() {
            return <Q as Zero>::zero();
        }
        let g = BigInt::from(gcd_with(&den1, c.magnitude()));
        with_twos(c / &g * &o1, &den1 / &g, z)
    });
    // δ² = o²/(|n|²·(d_a·d_b)²): o/(d_a·d_b) in lowest terms squares to
    // lowest terms; then one gcd with |n|².
    let (o2, den2) = lowest(o.clone(), &[da, db]);
    let (sq, den3) = lowest(&o2 * &o2, &[n2]);
    let depth_squared = with_twos(sq, den3 * &den2 * &den2, 2 * z);
    let point = |(v, w): (&[BigInt; 4], &Vec<BigInt>)| {
        let fs: Vec<&BigInt> = w.iter().chain([da, db]).collect();
        let c = |x: &BigInt| {
            let (n, d) = lowest(x.clone(), &fs);
            with_twos(n, d, z)
        };
        Vec3::new(c(&v[0]), c(&v[1]), c(&v[2]))
    };
    let r = &p.region;
    let region = match r.len() {
        1 => Region::Point(point((&r[0], &w[0]))),
        2 => Region::Segment(point((&r[0], &w[0])), point((&r[1], &w[1]))),
        _ => Region::Polygon(r.iter().zip(w).map(point).collect()),
    };
    Penetration {
        depth_squared,
        normals: p
            .normals
            .iter()
            .map(|v| v.map(|c| Q::from_integer(c.clone())))
            .collect(),
        translation,
        region,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::poly::planted::splitmix64;
    use crate::query::intersect_exact;
    use crate::query::polytope::contact::penetration_of_meeting;
    use crate::query::polytope::Polytope;
    use crate::shape::Shape;

    fn unit(s: &mut u64) -> f64 {
        (splitmix64(s) >> 11) as f64 / (1u64 << 53) as f64 * 2.0 - 1.0
    }

    /// The exhaustive reference on the exact boxes, in rationals (no
    /// scaling): `None` when apart.
    fn reference(a: &PoseBox, b: &PoseBox) -> Option<Penetration> {
        let (x, y) = (
            Shape::Box(a.to_obb().unwrap()),
            Shape::Box(b.to_obb().unwrap()),
        );
        if !intersect_exact(&x, &y).unwrap().intersects() {
            return None;
        }
        Some(penetration_of_meeting(&Polytope::new(&x), &Polytope::new(&y)).unwrap())
    }

    /// The pose path answers what the reference answers, value for value,
    /// and the filter's optimal candidates (where it decides) are the exact
    /// ones. Returns whether the filter decided.
    fn check(a: &PoseBox, b: &PoseBox) -> bool {
        let got = penetration(a, b);
        match reference(a, b) {
            Some(p) => assert_eq!(got, PoseContact::Meeting(Box::new(p)), "{a:?} {b:?}"),
            None => assert_eq!(got, PoseContact::Apart, "{a:?} {b:?}"),
        }
        let (za, zb, _, _) = integer_boxes(a, b).unwrap();
        match filtered(a, b) {
            Some(t) => {
                assert_eq!(Some(t), exact(&za, &zb), "{a:?} {b:?}");
                true
            }
            None => false,
        }
    }

    fn pose(s: &mut u64, rotation: PoseRotation, spread: f64) -> PoseBox {
        PoseBox {
            half_extents: [0; 3].map(|_| 0.55 + 0.45 * unit(s)),
            rotation,
            translation: [0; 3].map(|_| spread * unit(s)),
        }
    }

    /// Random double quaternions, most pairs meeting, some apart.
    #[test]
    fn random_quaternions_equal_the_reference() {
        let mut s = 26u64;
        let mut decided = 0;
        for _ in 0..40 {
            let mut q = || PoseRotation::Quaternion([0; 4].map(|_| unit(&mut s)));
            let (ra, rb) = (q(), q());
            let (a, b) = (pose(&mut s, ra, 0.8), pose(&mut s, rb, 0.8));
            decided += check(&a, &b) as usize;
        }
        assert!(decided >= 20, "{decided}");
    }

    /// Near-identity quaternions, quaternions one ulp from a quarter turn,
    /// and deep pairs (the same center).
    #[test]
    fn near_identity_quarter_turns_and_deep_pairs() {
        let mut s = 90u64;
        let h = std::f64::consts::FRAC_1_SQRT_2;
        for k in 0..24 {
            let q = |s: &mut u64| match k % 3 {
                0 => PoseRotation::Quaternion([1.0, 1e-3 * unit(s), 0.0, 1e-3 * unit(s)]),
                1 => {
                    let t = if unit(s) > 0.0 {
                        h.next_up()
                    } else {
                        h.next_down()
                    };
                    PoseRotation::Quaternion([h, 0.0, t, 0.0])
                }
                _ => PoseRotation::Quaternion([0; 4].map(|_| unit(s))),
            };
            let (ra, rb) = (q(&mut s), q(&mut s));
            let spread = if k % 2 == 0 { 0.0 } else { 0.5 };
            let (a, b) = (pose(&mut s, ra, spread), pose(&mut s, rb, spread));
            check(&a, &b);
        }
    }

    /// Touching pairs (δ = 0, decided exactly) of exact turns, concentric
    /// equal cubes (six normals), and matrices of doubles.
    #[test]
    fn touching_concentric_and_matrices() {
        let quarter = PoseRotation::Quaternion([1.0, 0.0, 0.0, 1.0]);
        let still = PoseRotation::Quaternion([3.0, 0.0, 0.0, 0.0]);
        let p = |rotation, e: [f64; 3], t: [f64; 3]| PoseBox {
            half_extents: e,
            rotation,
            translation: t,
        };
        // Faces touching at x = 1/2 (b turned a quarter about z: 0.25 along x).
        let a = p(still, [0.5; 3], [0.0; 3]);
        let b = p(quarter, [0.75, 0.25, 0.5], [0.75, 0.125, 0.0]);
        assert!(!check(&a, &b));
        let PoseContact::Meeting(m) = penetration(&a, &b) else {
            panic!()
        };
        assert!(m.depth_squared.is_zero());
        // Concentric equal cubes: six normals, δ = 1 for half-extent 1/2 each.
        let c = p(quarter, [0.5; 3], [0.25; 3]);
        let PoseContact::Meeting(m) = penetration(&a.clone_at([0.25; 3]), &c) else {
            panic!()
        };
        assert_eq!(m.normals.len(), 6);
        assert_eq!(m.depth_squared, Q::from_integer(1.into()));
        check(&a.clone_at([0.25; 3]), &c);
        // Matrices: a rotation of doubles (not exactly orthogonal) and a shear.
        let mut s = 7u64;
        for _ in 0..12 {
            let (w, x, y, z) = (unit(&mut s), unit(&mut s), unit(&mut s), unit(&mut s));
            let n = (w * w + x * x + y * y + z * z).sqrt();
            let r = crate::cases::rotation_f64([w / n, x / n, y / n, z / n]);
            let a = pose(&mut s, PoseRotation::Matrix(r), 0.5);
            let shear = [[1.0, 0.25, 0.0], [0.0, 1.0, 0.0], [0.125, 0.0, 1.0]];
            let b = pose(&mut s, PoseRotation::Matrix(shear), 0.5);
            check(&a, &b);
            let q = PoseRotation::Quaternion([0; 4].map(|_| unit(&mut s)));
            check(&a, &pose(&mut s, q, 0.5));
        }
    }

    /// Invalid poses are left to the reference (its errors).
    #[test]
    fn invalid_poses_are_undecided() {
        let ok = PoseBox {
            half_extents: [1.0; 3],
            rotation: PoseRotation::Quaternion([1.0, 0.0, 0.0, 0.0]),
            translation: [0.0; 3],
        };
        let zero_q = PoseBox {
            rotation: PoseRotation::Quaternion([0.0; 4]),
            ..ok
        };
        let singular = PoseBox {
            rotation: PoseRotation::Matrix([[1.0, 0.0, 0.0], [1.0, 0.0, 0.0], [0.0, 0.0, 1.0]]),
            ..ok
        };
        let flat = PoseBox {
            half_extents: [1.0, 0.0, 1.0],
            ..ok
        };
        for bad in [zero_q, singular, flat] {
            assert_eq!(penetration(&ok, &bad), PoseContact::Undecided);
        }
    }

    impl PoseBox {
        fn clone_at(&self, t: [f64; 3]) -> PoseBox {
            PoseBox {
                translation: t,
                ..*self
            }
        }
    }
}
