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
/// step allocates but the answer's own three integers; a quaternion's face
/// axis (a column of M) stays in `i128` ([`primitive_small`]), and needs
/// only its own box's rotation when that box is not dyadic. `None` when a
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
            if let Some(answer) = odd_divides(odd, x.unsigned_abs(), n) {
                return answer;
            }
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
    // A quaternion's face axis is a column of its M, entries below 2¹²⁶
    // (|M[j][i]| ≤ d, the columns having length d): it stays in `i128`.
    let column = |m: &[[i128; 3]; 3], i: usize| [0, 1, 2].map(|j| m[j][i]);
    let own = match (k, &a.rotation, &b.rotation) {
        (0..=2, PoseRotation::Quaternion(_), _) => Some((a, b, k)),
        (3..=5, _, PoseRotation::Quaternion(_)) => Some((b, a, k - 3)),
        _ => None,
    };
    if let Some((p, other, i)) = own {
        // When the face's own box is not dyadic the pair is scaled, and the
        // other box's rotation is not needed: only its validity (a zero
        // quaternion, d = 0, is no pose; a matrix has d = 2^z > 0).
        let Some((m, dyadic)) = rot(p, true)? else {
            return Some(None);
        };
        if !dyadic {
            if let PoseRotation::Quaternion(q) = other.rotation {
                if q.iter().all(|x| *x == 0.0) {
                    return Some(None);
                }
            }
            return Some(primitive_small(column(&m, i)));
        }
    }
    // b's dyadic test only matters when a's box is dyadic.
    let (Some((ma, ya)), Some((mb, yb))) = (rot(a, true)?, rot(b, false)?) else {
        return Some(None);
    };
    if ya && yb {
        return Some(None);
    }
    match own {
        Some((_, _, i)) if k < 3 => return Some(primitive_small(column(&ma, i))),
        Some((_, _, i)) => return Some(primitive_small(column(&mb, i))),
        None => {}
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
    // gcd(gcd(w₀, w₁), w₂), the second skipped when the first is 1.
    let g = gcd(w[0].mag(), w[1].mag());
    let g = if g.is_one() { g } else { gcd(&g, w[2].mag()) };
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

/// Whether the odd `o > 1` divides `x·n`, when a word-sized quotient
/// decides it: `None` when `x·n ≥ 2^(bits(o) + 63)` (the caller divides).
///
/// Below that bound `x·n < o·2⁶⁴` (as `o ≥ 2^(bits(o) − 1)`), so if `o`
/// divides `x·n` the quotient `k = x·n/o` is below 2⁶⁴; `o` is odd, hence
/// invertible modulo 2⁶⁴, and `k ≡ (x·n)·o⁻¹ (mod 2⁶⁴)`: the word
/// `k₀ = (x·n mod 2⁶⁴)·o⁻¹ mod 2⁶⁴` is then `k` itself. So `o` divides `x·n`
/// exactly when `k₀·o = x·n` (both sides in full, three words): one
/// inverse (Newton's iteration) and two products instead of a long
/// division.
fn odd_divides(o: u128, x: u128, n: u64) -> Option<bool> {
    debug_assert!(o & 1 == 1 && o > 1 && x >> 127 == 0);
    // x·n in three words: (x >> 64)·n < 2¹²⁷ and the carry < 2⁶⁴, so hi fits.
    let lo = (x as u64 as u128) * n as u128;
    let hi = (x >> 64) * n as u128 + (lo >> 64);
    let y = [lo as u64, hi as u64, (hi >> 64) as u64];
    let bits = if y[2] != 0 {
        192 - y[2].leading_zeros()
    } else if y[1] != 0 {
        128 - y[1].leading_zeros()
    } else {
        64 - y[0].leading_zeros()
    };
    if bits > 128 - o.leading_zeros() + 63 {
        return None;
    }
    let inv = crate::num::fixed::neg_inv_word(o as u64).wrapping_neg();
    let k = y[0].wrapping_mul(inv);
    // k·o in three words: k·(o >> 64) ≤ (2⁶⁴ − 1)², plus a carry below 2⁶⁴.
    let lo = (k as u128) * (o as u64 as u128);
    let hi = (k as u128) * (o >> 64) + (lo >> 64);
    Some([lo as u64, hi as u64, (hi >> 64) as u64] == y)
}

/// The primitive integer multiple of `w ≠ 0` (each |wᵢ| < 2¹²⁷), as
/// rationals: `w / gcd(w₀, w₁, w₂)`; `None` for the zero vector. The gcd is
/// taken of the two smallest magnitudes first (the binary gcd's work grows
/// with the lengths), and with the largest only when that is not 1.
fn primitive_small(w: [i128; 3]) -> Option<Vec3<BigRational>> {
    use crate::num::fixed::{gcd, Nat};
    let mut m = w.map(|c| c.unsigned_abs());
    m.sort_unstable();
    if m[2] == 0 {
        return None;
    }
    let g = gcd(&Nat::from_u128(m[0]), &Nat::from_u128(m[1]));
    let g = if g.is_one() {
        1
    } else {
        gcd(&g, &Nat::from_u128(m[2]))
            .to_u128()
            .expect("a divisor of a u128")
    };
    // c/g is exact (g divides every cᵢ) and truncating division keeps the sign.
    let [x, y, z] = w.map(|c| {
        let q = if g == 1 {
            c
        } else {
            (c.unsigned_abs() / g) as i128 * c.signum()
        };
        BigRational::from_integer(BigInt::from(q))
    });
    Some(Vec3::new(x, y, z))
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

    fn xorshift(seed: &mut u64) -> u64 {
        *seed ^= *seed << 13;
        *seed ^= *seed >> 7;
        *seed ^= *seed << 17;
        *seed
    }

    /// The word-quotient divisibility test agrees with `BigInt` remainders
    /// wherever it answers, on random operands, on exact multiples, and on
    /// near misses whose low word matches a multiple's; it declines when
    /// the quotient could pass a word.
    #[test]
    fn odd_divides_is_the_remainder_test() {
        let mut seed = 0x2545_f491_4f6c_dd1du64;
        let mut r = || xorshift(&mut seed);
        let reference = |o: u128, x: u128, n: u64| {
            (BigInt::from(x) * BigInt::from(n) % BigInt::from(o)).is_zero()
        };
        let (mut yes, mut no) = (0, 0);
        for round in 0..20_000 {
            let wide = |a: u64, b: u64| (a as u128) << 64 | b as u128;
            let o = (wide(r(), r()) >> (2 + round % 60)) | 1 | 1 << 64;
            let n = r() >> 11;
            let x = match round % 3 {
                // Random.
                0 => wide(r(), r()) >> 2,
                // A multiple of o (below 2¹²⁷), so o | x·n.
                1 => o.wrapping_mul((r() % 64) as u128) & (u128::MAX >> 1),
                // A multiple of o plus 2⁶⁴: the low words agree.
                _ => o.wrapping_mul((r() % 64) as u128).wrapping_add(1 << 64) & (u128::MAX >> 1),
            };
            if o <= 1 {
                continue;
            }
            match odd_divides(o, x, n) {
                Some(d) => {
                    assert_eq!(d, reference(o, x, n), "{o} {x} {n}");
                    if d {
                        yes += 1;
                    } else {
                        no += 1;
                    }
                }
                None => {
                    // Declined only past a word-sized quotient.
                    let bits = (BigInt::from(x) * BigInt::from(n)).bits();
                    assert!(bits > (128 - o.leading_zeros()) as u64 + 63, "{o} {x} {n}");
                }
            }
        }
        assert!(yes > 1000 && no > 1000, "{yes} {no}");
        // 3·o for a huge odd o divides, and 3·o + 2⁶⁴ (the same low word) does not.
        let o = (1u128 << 125) + 1;
        assert_eq!(odd_divides(o, 3 * o, 1), Some(true));
        assert_eq!(odd_divides(o, 3 * o + (1 << 64), 1), Some(false));
        assert_eq!(odd_divides(3, 7, 3), Some(true));
        assert_eq!(odd_divides(3, 7, 5), Some(false));
        assert_eq!(odd_divides(o, 0, 5), Some(true));
    }

    /// [`primitive_small`] is the vector over the gcd of its entries
    /// (`BigInt` gcds, the signs kept), on random vectors, on multiples of
    /// a common factor (small, large, a power of two), with zero entries;
    /// the zero vector has none.
    #[test]
    fn primitive_small_divides_by_the_gcd() {
        let mut seed = 0x853c_49e6_748f_ea9bu64;
        let mut r = || xorshift(&mut seed);
        for round in 0..5_000 {
            let g: i128 = match round % 4 {
                0 => 1,
                1 => (r() % 1000 + 1) as i128,
                2 => (r() >> 4) as i128,
                _ => 1 << (r() % 60),
            };
            let entry = |r: &mut dyn FnMut() -> u64| {
                let v = ((r() as i128) << 64 | r() as i128) >> (r() % 64 + 3 + 60);
                if r() % 5 == 0 {
                    0
                } else {
                    v
                }
            };
            let w = [0; 3].map(|_| entry(&mut r) * g);
            let got = primitive_small(w);
            let big = w.map(BigInt::from);
            let d = big.iter().fold(BigInt::zero(), |d, c| d.gcd(c));
            if d.is_zero() {
                assert!(got.is_none());
                continue;
            }
            let want = big.map(|c| BigRational::from_integer(c / &d));
            let [x, y, z] = want;
            assert_eq!(got, Some(Vec3::new(x, y, z)), "{w:?}");
        }
        assert_eq!(primitive_small([0, 0, 0]), None);
        let v = |x: i64, y: i64, z: i64| Some(Vec3::new(q(x, 1), q(y, 1), q(z, 1)));
        assert_eq!(primitive_small([-6, 0, 9]), v(-2, 0, 3));
        assert_eq!(primitive_small([0, 0, -8]), v(0, 0, -1));
        assert_eq!(primitive_small([4, 6, 9]), v(4, 6, 9));
    }

    /// [`pose_box_axis`] is [`box_axis`] on the exact boxes, for every one of
    /// the 15 axes: on random quaternion poses (the face shortcut), with the
    /// face's own box dyadic and the other not (the shortcut's condition
    /// false), a matrix pose, a quaternion too long for `i128`; both boxes
    /// dyadic, or the other box a zero quaternion, answer `None`.
    #[test]
    fn pose_box_axis_is_box_axis() {
        use crate::query::box_box::pose::{PoseBox, PoseRotation};
        let mut seed = 0x1234_5678_9abc_def1u64;
        let mut unit = || (xorshift(&mut seed) >> 11) as f64 / (1u64 << 53) as f64;
        let mut random = || PoseBox {
            half_extents: [0; 3].map(|_| 0.1 + unit()),
            rotation: PoseRotation::Quaternion([0; 4].map(|_| unit() * 2.0 - 1.0)),
            translation: [0; 3].map(|_| unit() * 4.0 - 2.0),
        };
        let quat = |q: [f64; 4]| PoseBox {
            half_extents: [1.0, 2.0, 1.0],
            rotation: PoseRotation::Quaternion(q),
            translation: [0.5, 0.0, 0.0],
        };
        // (1, 0, 0, 1): |q|² = 2, every coordinate dyadic.
        let dyadic = quat([1.0, 0.0, 0.0, 1.0]);
        let matrix = PoseBox {
            half_extents: [1.0, 0.5, 0.25],
            rotation: PoseRotation::Matrix([[0.0, -1.0, 0.0], [1.0, 0.0, 0.0], [0.0, 0.0, 1.0]]),
            translation: [0.0; 3],
        };
        let long = quat([1.0, 0.0, 0.0, 1e-12]);
        let mut pairs: Vec<(PoseBox, PoseBox)> = (0..20).map(|_| (random(), random())).collect();
        let (x, y) = (random(), random());
        pairs.extend([
            (dyadic, x),
            (y, dyadic),
            (x, matrix),
            (matrix, y),
            (x, long),
            (long, y),
        ]);
        for (a, b) in &pairs {
            let (oa, ob) = (a.to_obb().unwrap(), b.to_obb().unwrap());
            for k in 0..15 {
                assert_eq!(
                    pose_box_axis(a, b, k),
                    Some(box_axis(&oa, &ob, k)),
                    "{a:?} {b:?} {k}"
                );
            }
        }
        for k in 0..15 {
            assert_eq!(pose_box_axis(&dyadic, &matrix, k), None);
        }
        let zero = quat([0.0; 4]);
        for k in 0..6 {
            assert_eq!(pose_box_axis(&x, &zero, k), None);
            assert_eq!(pose_box_axis(&zero, &x, k), None);
        }
    }
}
