//! `intersect` and `distance` on exact rational shapes, with non-dyadic
//! inputs scaled to integers first.
//!
//! A box by pose with a quaternion of doubles has coordinates with the
//! denominator |q|² (not a power of two), and so do inputs like `"1/3"`. On
//! such shapes every `BigRational` operation of the exhaustive path reduces
//! a fraction with a wide denominator (a gcd each time). Both queries commute
//! with scaling the whole scene by a positive k: the shapes meet exactly when
//! the scaled ones do, a separating direction of the scaled pair separates
//! the originals, a witness or closest point scales by k and the squared
//! distance by k². So the pair is scaled by the least common multiple L of
//! every input denominator, answered on integer-valued rationals (whose
//! reductions are trivial), and the constructions divided by L (once, in
//! lowest terms). A separating axis, an integer vector there, is written as
//! its primitive multiple (divided by the gcd of its components). Dyadic
//! inputs (L a power of two) keep the direct path: their answers are
//! unchanged.
//!
//! Measured (callgrind, 20 `intersect` lines of two boxes by pose with unit
//! quaternions of random doubles): 39.4 M instructions per line directly,
//! 3.9 M scaled.

use crate::num::gcd::gcd_lehmer;
use crate::query::box_box::pose::{PoseBox, PoseRotation};
use crate::query::polytope::contact::{penetration_of_meeting, Penetration};
use crate::query::polytope::Polytope;
use crate::query::triangle_triangle::{self, Contact};
use crate::query::{self, Closest, Intersection, QueryError};
use crate::shape::{Obb, Prism, Shape, Triangle};
use crate::vector::{Vec2, Vec3};
use num_bigint::BigInt;
use num_integer::Integer;
use num_rational::BigRational;
use num_traits::{One, Signed, Zero};

/// Every number that defines `s`.
fn numbers(s: &Shape<BigRational>) -> Vec<&BigRational> {
    fn p3(v: &Vec3<BigRational>) -> [&BigRational; 3] {
        [&v.x, &v.y, &v.z]
    }
    let mut out = Vec::new();
    match s {
        Shape::Triangle(t) => t.v.iter().for_each(|v| out.extend(p3(v))),
        Shape::Box(b) => {
            out.extend(p3(&b.center));
            b.half_axes.iter().for_each(|h| out.extend(p3(h)));
        }
        Shape::Prism(p) => {
            p.base.iter().for_each(|v| out.extend([&v.x, &v.y]));
            out.extend([&p.zmin, &p.zmax]);
        }
        Shape::Cube(c) => {
            let b = c.obb();
            out.extend(p3(&b.center));
            b.half_axes.iter().for_each(|h| out.extend(p3(h)));
        }
    }
    out
}

/// The lcm of every denominator of `a` and `b`, when it is not a power of two.
fn scale_of(a: &Shape<BigRational>, b: &Shape<BigRational>) -> Option<BigInt> {
    let mut l = BigInt::one();
    for x in numbers(a).into_iter().chain(numbers(b)) {
        if !x.denom().is_one() {
            l = l.lcm(x.denom());
        }
    }
    let odd = &l >> l.trailing_zeros().unwrap_or(0);
    (!odd.is_one()).then_some(l)
}

/// `x · l` for `l` a multiple of x's denominator: an integer, no gcd.
fn times(x: &BigRational, l: &BigInt) -> BigRational {
    BigRational::from_integer(x.numer() * (l / x.denom()))
}

/// `s` scaled by `l`, a multiple of every denominator of `s` (a cube as its
/// box: the queries answer a cube as its box).
fn scaled(s: &Shape<BigRational>, l: &BigInt) -> Shape<BigRational> {
    let k = l;
    let v3 = |v: &Vec3<BigRational>| Vec3::new(times(&v.x, k), times(&v.y, k), times(&v.z, k));
    match s {
        Shape::Triangle(t) => Shape::Triangle(Triangle::new(t.v.clone().map(|v| v3(&v)))),
        Shape::Box(b) => Shape::Box(Obb {
            center: v3(&b.center),
            half_axes: b.half_axes.clone().map(|h| v3(&h)),
        }),
        Shape::Cube(c) => Shape::Box(Obb {
            center: v3(&c.obb().center),
            half_axes: c.obb().half_axes.clone().map(|h| v3(&h)),
        }),
        // Scaling by k > 0 keeps the base's anti-clockwise order and zmin ≤ zmax.
        Shape::Prism(p) => Shape::Prism(Prism {
            base: p
                .base
                .clone()
                .map(|v| Vec2::new(times(&v.x, k), times(&v.y, k))),
            zmin: times(&p.zmin, k),
            zmax: times(&p.zmax, k),
        }),
    }
}

/// `axis` as its primitive integer multiple when it is an integer vector.
fn primitive(axis: Vec3<BigRational>) -> Vec3<BigRational> {
    let cs = [&axis.x, &axis.y, &axis.z];
    if cs.iter().any(|c| !c.is_integer()) {
        return axis;
    }
    let g = cs
        .iter()
        .fold(BigInt::zero(), |g, c| g.gcd(c.numer()))
        .abs();
    if g.is_zero() || g.is_one() {
        return axis;
    }
    axis.map(|c| BigRational::from_integer(c.numer() / &g))
}

/// Whether two shapes share a point, with the certificate and, for two
/// triangles that meet, their intersection set.
pub(super) fn intersect(
    a: &Shape<BigRational>,
    b: &Shape<BigRational>,
) -> Result<(Intersection<BigRational>, Option<Contact<BigRational>>), QueryError> {
    let answer = |a: &Shape<BigRational>, b: &Shape<BigRational>| {
        let r = query::intersect(a, b)?;
        let contact = match (&r, a, b) {
            (Intersection::Overlap { .. }, Shape::Triangle(x), Shape::Triangle(y)) => {
                triangle_triangle::intersection_set(x, y)?
            }
            _ => None,
        };
        Ok((r, contact))
    };
    let Some(l) = scale_of(a, b) else {
        return answer(a, b);
    };
    let (r, contact) = answer(&scaled(a, &l), &scaled(b, &l))?;
    let k = BigRational::from_integer(l);
    let back = |p: Vec3<BigRational>| p.map(|c| c / &k);
    let r = match r {
        Intersection::Overlap { witness } => Intersection::Overlap {
            witness: back(witness),
        },
        Intersection::Separated { axis } => Intersection::Separated {
            axis: primitive(axis),
        },
    };
    let contact = contact.map(|c| match c {
        Contact::Point(p) => Contact::Point(back(p)),
        Contact::Segment(p, q) => Contact::Segment(back(p), back(q)),
        Contact::Polygon(ps) => Contact::Polygon(ps.into_iter().map(back).collect()),
    });
    Ok((r, contact))
}

/// The separating axis [`intersect`] answers for two boxes when axis `k` of
/// the 15 (numbered as `box_box::axis_pair`) is their first separating one:
/// `u × v` of the half-axes, or, where the pair is scaled, its primitive
/// integer multiple (the scaled cross product is a positive multiple).
pub(super) fn box_axis(a: &Obb<BigRational>, b: &Obb<BigRational>, k: usize) -> Vec3<BigRational> {
    let (u, v) = query::box_box::axis_pair(&a.half_axes, &b.half_axes, k);
    let Some(l) = scale_of(&Shape::Box(a.clone()), &Shape::Box(b.clone())) else {
        return u.cross(v);
    };
    let v3 = |w: &Vec3<BigRational>| w.map(|c| times(c, &l));
    primitive(v3(u).cross(&v3(v)))
}

/// [`box_axis`] for two boxes by pose in doubles, built in integers without
/// the rational boxes, when the pair is scaled: then the answer is the
/// primitive integer multiple of any positive multiple of `u × v`. With the
/// integer rotation (M, d) (hᵢ = nᵢ·(column i of M)·2^k/d for the
/// half-extent eᵢ = nᵢ·2^k, nᵢ > 0), `hᵢ × hⱼ` is a positive multiple of
/// Mᵢ × Mⱼ (columns), and for a quaternion, whose M = R(Q) has orthogonal
/// columns with M₁ × M₂ = |Q|²·M₀ (cyclically), a face axis
/// `h_{k+1} × h_{k+2}` is a positive multiple of column k itself.
/// `None` when every coordinate of both boxes is dyadic (the pair is not
/// scaled; [`box_axis`] answers), or an input is no valid pose.
pub(super) fn pose_box_axis(a: &PoseBox, b: &PoseBox, k: usize) -> Option<Vec3<BigRational>> {
    if let Some(answer) = pose_box_axis_fixed(a, b, k) {
        return answer;
    }
    // The integer rotation, and whether every half-axis coordinate
    // eᵢ·M[j][i]/d is dyadic: the odd part of d divides nᵢ·M[j][i].
    let rot = |p: &PoseBox| -> Option<([[BigInt; 3]; 3], bool)> {
        let (m, d) = integer_rotation(p)?;
        let odd = &d >> d.trailing_zeros().unwrap_or(0);
        let dyadic = odd.is_one()
            || (0..3).all(|i| {
                let n = BigInt::from(crate::num::dyadic::f64_parts(p.half_extents[i]).0);
                (0..3).all(|j| (&m[j][i] * &n % &odd).is_zero())
            });
        Some((m, dyadic))
    };
    if a.half_extents
        .iter()
        .chain(&b.half_extents)
        .any(|e| e.partial_cmp(&0.0) != Some(std::cmp::Ordering::Greater))
    {
        return None;
    }
    let ((ma, ya), (mb, yb)) = (rot(a)?, rot(b)?);
    if ya && yb {
        return None;
    }
    let col = |m: &[[BigInt; 3]; 3], i: usize| {
        Vec3::new(m[0][i].clone(), m[1][i].clone(), m[2][i].clone())
    };
    let face = |p: &PoseBox, m: &[[BigInt; 3]; 3], i: usize| match p.rotation {
        PoseRotation::Quaternion(_) => col(m, i),
        PoseRotation::Matrix(_) => {
            let (u, v) = (col(m, (i + 1) % 3), col(m, (i + 2) % 3));
            cross_int(&u, &v)
        }
    };
    let w = match k {
        0..=2 => face(a, &ma, k),
        3..=5 => face(b, &mb, k - 3),
        _ => cross_int(&col(&ma, (k - 6) / 3), &col(&mb, (k - 6) % 3)),
    };
    let g = gcd_lehmer(w.x.magnitude(), w.y.magnitude());
    let g = BigInt::from(gcd_lehmer(&g, w.z.magnitude()));
    if g.is_zero() {
        return None;
    }
    Some(w.map(|c| BigRational::from_integer(c / &g)))
}

/// [`pose_box_axis`] on the stack: the same steps with the integer rotations
/// in `i128` ([`crate::query::box_box::pose::int_rotation_small`]) and the
/// axis, its gcd and the divisions in the fixed-width integers of
/// [`crate::num::fixed`] (products of two entries below 2²⁵⁴), so that no
/// step allocates but the answer's own three integers. `None` when a
/// rotation does not fit (the `BigInt` steps then answer); `Some(answer)`
/// is [`pose_box_axis`]'s answer.
#[allow(clippy::option_option)]
fn pose_box_axis_fixed(a: &PoseBox, b: &PoseBox, k: usize) -> Option<Option<Vec3<BigRational>>> {
    use crate::num::fixed::{div_exact, gcd, Int, Nat};
    use crate::query::box_box::pose::int_rotation_small;
    if a.half_extents
        .iter()
        .chain(&b.half_extents)
        .any(|e| e.partial_cmp(&0.0) != Some(std::cmp::Ordering::Greater))
    {
        return Some(None);
    }
    // The integer rotation, and whether every half-axis coordinate
    // eᵢ·M[j][i]/d is dyadic: the odd part of d divides nᵢ·M[j][i].
    let dyadic_a = std::cell::Cell::new(true);
    let rot = |p: &PoseBox, first: bool| -> Option<Option<([[i128; 3]; 3], bool)>> {
        let (m, d) = int_rotation_small(&p.rotation)?;
        if d <= 0 {
            return Some(None);
        }
        let d = d as u128;
        let odd = d >> d.trailing_zeros();
        let divides = |x: i128, n: u64| {
            let p = Nat::from_u128(x.unsigned_abs()).mul_word(n);
            if odd >> 64 == 0 {
                p.divrem_small(odd as u64).1 == 0
            } else {
                p.rem(&Nat::from_u128(odd)).is_zero()
            }
        };
        let dyadic = odd == 1
            || (first || dyadic_a.get())
                && (0..3).all(|i| {
                    let n = crate::num::dyadic::f64_parts(p.half_extents[i]).0 as u64;
                    (0..3).all(|j| divides(m[j][i], n))
                });
        if first {
            dyadic_a.set(dyadic);
        }
        Some(Some((m, dyadic)))
    };
    // b's dyadic test only matters when a's box is dyadic.
    let (Some((ma, ya)), Some((mb, yb))) = (rot(a, true)?, rot(b, false)?) else {
        return Some(None);
    };
    if ya && yb {
        return Some(None);
    }
    let col = |m: &[[i128; 3]; 3], i: usize| [0, 1, 2].map(|j| Int::from_i128(m[j][i]));
    let cross = |u: [Int; 3], v: [Int; 3]| {
        [(1, 2), (2, 0), (0, 1)].map(|(i, j)| u[i].mul(&v[j]).sub(&u[j].mul(&v[i])))
    };
    let face = |p: &PoseBox, m: &[[i128; 3]; 3], i: usize| match p.rotation {
        PoseRotation::Quaternion(_) => col(m, i),
        PoseRotation::Matrix(_) => cross(col(m, (i + 1) % 3), col(m, (i + 2) % 3)),
    };
    let w = match k {
        0..=2 => face(a, &ma, k),
        3..=5 => face(b, &mb, k - 3),
        _ => cross(col(&ma, (k - 6) / 3), col(&mb, (k - 6) % 3)),
    };
    let g = gcd(&gcd(w[0].mag(), w[1].mag()), w[2].mag());
    if g.is_zero() {
        return Some(None);
    }
    let [x, y, z] = w.map(|c| {
        let sign = if c.is_neg() {
            num_bigint::Sign::Minus
        } else {
            num_bigint::Sign::Plus
        };
        let q = div_exact(c.mag(), &g).to_biguint();
        BigRational::from_integer(BigInt::from_biguint(sign, q))
    });
    Some(Some(Vec3::new(x, y, z)))
}

/// u × v in integers.
fn cross_int(u: &Vec3<BigInt>, v: &Vec3<BigInt>) -> Vec3<BigInt> {
    Vec3::new(
        &u.y * &v.z - &u.z * &v.y,
        &u.z * &v.x - &u.x * &v.z,
        &u.x * &v.y - &u.y * &v.x,
    )
}

/// Vertex `i` (`Obb::vertex` order) of the exact box of `p`, in lowest
/// terms: with the half-extents eₖ and the center c_j brought to integers by
/// one power of two 2^z (ēₖ, c̄ⱼ) and (M, d) the integer rotation, coordinate
/// j is (c̄ⱼ·d + Σ sₖ·ēₖ·M[j][k])·2^z / d, reduced once.
pub(super) fn pose_vertex(p: &PoseBox, i: usize) -> Option<Vec3<BigRational>> {
    let (m, d) = integer_rotation(p)?;
    let parts: Vec<(i64, i64)> = p
        .half_extents
        .iter()
        .chain(&p.translation)
        .map(|x| parts(*x))
        .collect();
    let z = parts
        .iter()
        .filter(|(m, _)| *m != 0)
        .map(|(_, e)| *e)
        .min()
        .unwrap_or(0);
    let int = |(m, e): (i64, i64)| {
        if m == 0 {
            BigInt::zero()
        } else {
            BigInt::from(m) << (e - z) as usize
        }
    };
    let (e, c) = (
        [0, 1, 2].map(|k| int(parts[k])),
        [0, 1, 2].map(|j| int(parts[3 + j])),
    );
    let coord = |j: usize| {
        let mut n = &c[j] * &d;
        for k in 0..3 {
            let t = &e[k] * &m[j][k];
            if i >> k & 1 == 1 {
                n += t;
            } else {
                n -= t;
            }
        }
        if z >= 0 {
            crate::num::gcd::ratio(n << z as usize, d.clone())
        } else {
            crate::num::gcd::ratio(n, &d << (-z) as usize)
        }
    };
    Some(Vec3::new(coord(0), coord(1), coord(2)))
}

/// A double as (m, e) with x = m·2^e (m = 0 for zero).
fn parts(x: f64) -> (i64, i64) {
    if x == 0.0 {
        (0, 0)
    } else {
        crate::num::dyadic::f64_parts(x)
    }
}

/// The rotation as an integer matrix over a positive integer denominator,
/// (M, d) with R = M/d ([`crate::query::box_box::pose::int_rotation`]: a
/// quaternion's components brought to integers Q by one power of two, M =
/// R(Q), d = |Q|²; a matrix's entries by one power of two). `None` for the
/// zero quaternion.
fn integer_rotation(p: &PoseBox) -> Option<([[BigInt; 3]; 3], BigInt)> {
    crate::query::box_box::pose::int_rotation(&p.rotation)
}

/// The exact squared distance and a closest pair.
pub(super) fn distance(
    a: &Shape<BigRational>,
    b: &Shape<BigRational>,
) -> Result<Closest<BigRational>, QueryError> {
    let Some(l) = scale_of(a, b) else {
        return query::distance(a, b);
    };
    let c = query::distance(&scaled(a, &l), &scaled(b, &l))?;
    let k = BigRational::from_integer(l);
    let k2 = &k * &k;
    Ok(Closest {
        distance_squared: c.distance_squared / k2,
        a: c.a.map(|x| x / &k),
        b: c.b.map(|x| x / &k),
    })
}

/// `q` as a double when it is one exactly (a reduced fraction whose
/// denominator is a power of two and whose odd part has at most 53 bits,
/// within the doubles' range): the value a JSON number was read from.
fn exact_f64(q: &BigRational) -> Option<f64> {
    if q.is_zero() {
        return Some(0.0);
    }
    let (n, d) = (q.numer(), q.denom());
    let dz = d.trailing_zeros()?;
    if d.bits() != dz + 1 {
        return None; // not a power of two
    }
    let nz = n.trailing_zeros()?;
    let m = n.magnitude() >> nz;
    if m.bits() > 53 {
        return None;
    }
    let m = *m.to_u64_digits().first()? as i64;
    let e = nz as i64 - dz as i64;
    let f = crate::num::fixed::ldexp(m as f64, e);
    let f = if n.is_negative() { -f } else { f };
    // Exact when the double's odd part and exponent are these.
    (f.is_finite() && crate::num::dyadic::f64_parts(f.abs()) == (m, e)).then_some(f)
}

/// Both shapes as boxes of doubles (a cube as its box), when every number
/// of both is a double.
pub(super) fn double_boxes(
    a: &Shape<BigRational>,
    b: &Shape<BigRational>,
) -> Option<(Obb<f64>, Obb<f64>)> {
    let f = |s: &Shape<BigRational>| -> Option<Obb<f64>> {
        let o = s.as_box()?;
        let v = |p: &Vec3<BigRational>| {
            Some(Vec3::new(
                exact_f64(&p.x)?,
                exact_f64(&p.y)?,
                exact_f64(&p.z)?,
            ))
        };
        let h = &o.half_axes;
        Some(Obb {
            center: v(&o.center)?,
            half_axes: [v(&h[0])?, v(&h[1])?, v(&h[2])?],
        })
    };
    Some((f(a)?, f(b)?))
}

/// The penetration of meeting shapes (`None` when they are apart): δ²
/// scales by k², the translation and the region by k, the normals
/// (directions) not at all.
pub(super) fn contact(
    a: &Shape<BigRational>,
    b: &Shape<BigRational>,
) -> Result<Option<Penetration>, QueryError> {
    contact_with(a, b, false)
}

/// [`contact`] of shapes already proved to meet (as `intersect` decides
/// it): the same answer without deciding that again.
pub(super) fn contact_of_meeting(
    a: &Shape<BigRational>,
    b: &Shape<BigRational>,
) -> Result<Option<Penetration>, QueryError> {
    contact_with(a, b, true)
}

fn contact_with(
    a: &Shape<BigRational>,
    b: &Shape<BigRational>,
    meeting: bool,
) -> Result<Option<Penetration>, QueryError> {
    let answer = |a: &Shape<BigRational>, b: &Shape<BigRational>| {
        if !meeting && !query::intersect_exact(a, b)?.intersects() {
            return Ok(None);
        }
        penetration_of_meeting(&Polytope::new(a), &Polytope::new(b)).map(Some)
    };
    let Some(l) = scale_of(a, b) else {
        return answer(a, b);
    };
    let Some(p) = answer(&scaled(a, &l), &scaled(b, &l))? else {
        return Ok(None);
    };
    let k = BigRational::from_integer(l);
    let back = |p: &Vec3<BigRational>| p.map(|c| c / &k);
    let region = match &p.region {
        Contact::Point(x) => Contact::Point(back(x)),
        Contact::Segment(x, y) => Contact::Segment(back(x), back(y)),
        Contact::Polygon(ps) => Contact::Polygon(ps.iter().map(back).collect()),
    };
    Ok(Some(Penetration {
        depth_squared: &p.depth_squared / (&k * &k),
        normals: p.normals,
        translation: back(&p.translation),
        region,
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn q(n: i64, d: i64) -> BigRational {
        BigRational::new(n.into(), d.into())
    }

    fn tri(z: BigRational) -> Shape<BigRational> {
        let v = |x: i64, y: i64| Vec3::new(q(x, 1), q(y, 1), z.clone());
        Shape::Triangle(Triangle::new([v(0, 0), v(1, 0), v(0, 1)]))
    }

    /// Two parallel triangles 1/3 apart: the scaled path gives the same
    /// exact distance and closest points as the direct one, and a separating
    /// axis that separates the originals.
    #[test]
    fn scaled_answers_are_the_direct_ones() {
        let (a, b) = (tri(q(0, 1)), tri(q(1, 3)));
        assert_eq!(scale_of(&a, &b), Some(BigInt::from(3)));
        let d = distance(&a, &b).unwrap();
        assert_eq!(d, query::distance(&a, &b).unwrap());
        assert_eq!(d.distance_squared, q(1, 9));
        let (r, contact) = intersect(&a, &b).unwrap();
        assert!(contact.is_none());
        let Intersection::Separated { axis } = r else {
            panic!("separated")
        };
        let lo = |s: &Shape<BigRational>| s.vertices().iter().map(|p| p.dot(&axis)).min();
        let hi = |s: &Shape<BigRational>| s.vertices().iter().map(|p| p.dot(&axis)).max();
        assert!(hi(&a) < lo(&b) || hi(&b) < lo(&a), "{axis:?}");
        // Dyadic inputs keep the direct path.
        assert_eq!(scale_of(&tri(q(0, 1)), &tri(q(1, 4))), None);
        // Meeting triangles: the witness and contact set lie in both.
        let c = tri(q(1, 3));
        let v = |x: BigRational, y: BigRational, z: BigRational| Vec3::new(x, y, z);
        let tilted = Shape::Triangle(Triangle::new([
            v(q(1, 5), q(1, 5), q(-1, 1)),
            v(q(1, 5), q(1, 5), q(1, 1)),
            v(q(2, 1), q(1, 7), q(0, 1)),
        ]));
        let (r, contact) = intersect(&c, &tilted).unwrap();
        let Intersection::Overlap { witness } = r else {
            panic!("they meet")
        };
        let (Shape::Triangle(x), Shape::Triangle(y)) = (&c, &tilted) else {
            unreachable!()
        };
        assert!(x.contains(&witness) && y.contains(&witness));
        let direct = triangle_triangle::intersection_set(x, y).unwrap();
        assert_eq!(contact, direct);
    }
}
