//! The exact convex hull of a finite point set in 3-D.
//!
//! [`convex_hull`] returns the hull of 1 or more points as what it is: a point,
//! a segment, a flat convex polygon or a polytope ([`ConvexHull::dim`] 0 to 3).
//! Every hull vertex is one of the input points (of repeated points, the first
//! copy's index); every decision — which side of a plane a point lies
//! on, whether three points are collinear — is an exact sign from
//! [`crate::predicates`] (`orient3d`, `orient2d`: Shewchuk's filter and `robust`'s
//! adaptive stages for doubles in their safe range, interval filter and exact
//! fallback otherwise). No epsilon and no float hull library decides anything.
//!
//! # Algorithm
//!
//! Quickhull (Barber, Dobkin, Huhdanpaa 1996) over a triangulated boundary,
//! with exact predicates:
//!
//! 1. The lexicographic minimum and maximum, then a point off their line, then
//!    a point off their plane (each found by a float estimate and proved by an
//!    exact predicate, with an exact scan when the estimate is wrong). When
//!    there is none the hull has dimension 0, 1 or 2; a flat hull is Andrew's
//!    monotone chain on a coordinate projection, with exact `orient2d`.
//! 2. Otherwise the tetrahedron's faces each keep an *outside set*: the points
//!    strictly above the face (`orient3d > 0`), each point in one set. A face's
//!    farthest point (by a float estimate: the choice only affects speed) is
//!    inserted: the faces that see it strictly are found by a walk over face
//!    neighbours, their boundary (the horizon) is coned to the point, and their
//!    outside points are tested against the new faces only. A point strictly
//!    above a removed face and above no new face is inside the new hull (the
//!    cone of the new faces at the apex holds it on the segment from the apex),
//!    so it is dropped.
//! 3. Points on a face's plane are never "above": no triangle is ever degenerate,
//!    and coplanar triangles sharing an edge (an exact `orient3d = 0`) are merged
//!    into one convex polygon; boundary vertices collinear with their two
//!    neighbours (exact) are removed, so every reported vertex is a strict
//!    vertex of the hull.
//!
//! Expected cost O(n log n) predicate calls on usual inputs (uniform in a cube
//! or ball, points on a sphere), O(n·h) in the worst case for h hull vertices
//! (the worst case of quickhull; no randomisation bound is claimed).
//!
//! # Output
//!
//! Faces are convex polygons with their vertices counter-clockwise seen from
//! outside, and an exact [`Plane`]: a primitive integer outward normal `n` and
//! a rational offset `d`, with `n·x ≤ d` for every point of the hull and
//! equality on the face.
//!
//! ```
//! use exact_collision::hull::convex_hull;
//! use exact_collision::Vec3;
//! let p = |x: f64, y: f64, z: f64| Vec3::new(x, y, z);
//! // A unit tetrahedron and a point inside it.
//! let pts = [p(0., 0., 0.), p(1., 0., 0.), p(0., 1., 0.), p(0., 0., 1.), p(0.1, 0.1, 0.1)];
//! let h = convex_hull(&pts).unwrap();
//! assert_eq!(h.dim(), 3);
//! assert_eq!(h.vertices(), &[0, 1, 2, 3]);
//! assert_eq!(h.faces().len(), 4);
//! // The face x + y + z = 1 has outward normal (1, 1, 1).
//! assert!(h.faces().iter().any(|f| f.plane.normal == Vec3::new(1.into(), 1.into(), 1.into())));
//! assert_eq!(h.support(&p(1., 2., 3.)), 3);
//! ```
//!
//! References: C. B. Barber, D. P. Dobkin, H. Huhdanpaa, "The Quickhull
//! algorithm for convex hulls", ACM Transactions on Mathematical Software
//! 22(4):469–483, 1996. K. L. Clarkson, P. W. Shor, "Applications of random
//! sampling in computational geometry, II", Discrete & Computational Geometry
//! 4:387–421, 1989. A. M. Andrew, "Another efficient algorithm for convex hulls
//! in two dimensions", Information Processing Letters 9(5):216–219, 1979.

use crate::num::fixed::{self, Int};
use crate::num::ring::Ring;
use crate::num::scalar::Scalar;
use crate::num::sign::Sign;
use crate::predicates::{orient2d, orient3d, sign_of, Expr};
use crate::vector::{Vec2, Vec3};
use num_bigint::{BigInt, BigUint};
use num_integer::Integer;
use num_rational::BigRational;
use num_traits::{One, Signed, ToPrimitive, Zero};
use std::cmp::Ordering;
use std::fmt;

/// Why a hull could not be computed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum HullError {
    /// No points.
    Empty,
    /// A coordinate is NaN or infinite.
    NonFinite {
        /// The index of the first such point.
        index: usize,
    },
    /// An internal consistency check failed (a bug: please report the input).
    Internal(&'static str),
}

impl fmt::Display for HullError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            HullError::Empty => write!(f, "convex hull of no points"),
            HullError::NonFinite { index } => {
                write!(f, "point {index} has a NaN or infinite coordinate")
            }
            HullError::Internal(what) => write!(f, "convex hull: internal error: {what}"),
        }
    }
}

impl std::error::Error for HullError {}

/// A plane `{x : normal·x = offset}`, exact.
///
/// `normal` is a primitive integer vector (its components have no common
/// factor), so a plane has one representation for each orientation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Plane {
    /// The normal: outward for a polytope face; for a flat hull, the side from
    /// which its polygon is counter-clockwise (first nonzero component positive).
    pub normal: Vec3<BigInt>,
    /// `normal · x` for every point `x` of the plane.
    pub offset: BigRational,
}

impl Plane {
    /// The plane through `a`, `b`, `c` (not collinear) with normal along
    /// `(b − a) × (c − a)`, scaled to a primitive integer vector. Computed in
    /// integers: the nine coordinates over their least common denominator,
    /// the cross product, one gcd; no rational arithmetic (no gcd per step).
    fn through<S: Scalar>(a: &Vec3<S>, b: &Vec3<S>, c: &Vec3<S>) -> Plane {
        if !S::IS_EXACT {
            return Self::through_doubles(a, b, c);
        }
        let r = [a, b, c].map(|p| p.to_rational());
        let mut den = BigInt::one();
        for p in &r {
            for k in 0..3 {
                let d = p.get(k).denom();
                if !(&den % d).is_zero() {
                    den = den.lcm(d);
                }
            }
        }
        let int = |p: &Vec3<BigRational>| p.map(|x| x.numer() * (&den / x.denom()));
        let [ia, ib, ic] = [&r[0], &r[1], &r[2]].map(int);
        let (u, w) = (sub_int(&ib, &ia), sub_int(&ic, &ia));
        let n = [
            &u.y * &w.z - &u.z * &w.y,
            &u.z * &w.x - &u.x * &w.z,
            &u.x * &w.y - &u.y * &w.x,
        ];
        let g = gcd3(&n);
        let normal = Vec3::new(&n[0] / &g, &n[1] / &g, &n[2] / &g);
        let num = &normal.x * &ia.x + &normal.y * &ia.y + &normal.z * &ia.z;
        let offset = over(num, den);
        Plane { normal, offset }
    }

    /// [`Plane::through`] for float scalars (their `to_f64` is exact): the
    /// nine coordinates as integers over the common power of two `2^-e`
    /// ([`lsb_exp`], [`to_int`]), no rationals. The same plane: scaling the
    /// points by a positive constant does not change the primitive normal.
    fn through_doubles<S: Scalar>(a: &Vec3<S>, b: &Vec3<S>, c: &Vec3<S>) -> Plane {
        let f = [a, b, c].map(|p| [p.x.to_f64(), p.y.to_f64(), p.z.to_f64()]);
        let e = least_exp(&f);
        if let Some(plane) = through_fixed(&f, e) {
            return plane;
        }
        Self::through_big(&f, e)
    }

    /// [`Plane::through_doubles`] in heap integers (any exponent spread).
    fn through_big(f: &[[f64; 3]; 3], e: i64) -> Plane {
        let [ia, ib, ic] = f.map(|p| Vec3::new(to_int(p[0], e), to_int(p[1], e), to_int(p[2], e)));
        let (u, w) = (sub_int(&ib, &ia), sub_int(&ic, &ia));
        let n = [
            &u.y * &w.z - &u.z * &w.y,
            &u.z * &w.x - &u.x * &w.z,
            &u.x * &w.y - &u.y * &w.x,
        ];
        let g = gcd3(&n);
        let normal = Vec3::new(&n[0] / &g, &n[1] / &g, &n[2] / &g);
        let num = &normal.x * &ia.x + &normal.y * &ia.y + &normal.z * &ia.z;
        let offset = if e >= 0 {
            BigRational::from_integer(num << e as usize)
        } else {
            over(num, BigInt::one() << (-e) as usize)
        };
        Plane { normal, offset }
    }

    /// `normal · p − offset`, exactly: positive above (outside, for a face).
    pub fn eval(&self, p: &Vec3<BigRational>) -> BigRational {
        dot_int(&self.normal, p) - &self.offset
    }

    /// The exact side of `p`: `Positive` above (outside, for a face), `Zero` on it.
    pub fn side<S: Scalar>(&self, p: &Vec3<S>) -> Sign {
        let v = self.eval(&p.to_rational());
        if v.is_zero() {
            Sign::Zero
        } else if v.is_positive() {
            Sign::Positive
        } else {
            Sign::Negative
        }
    }
}

/// `x / 2^e` as a stack integer when it has at most `bits` bits (`e` at most
/// [`lsb_exp`]`(x)`), `None` when wider.
fn to_fixed(x: f64, e: i64, bits: i64) -> Option<Int> {
    if x == 0.0 {
        return Some(Int::ZERO);
    }
    let (m, ex) = mantissa(x);
    let tz = m.trailing_zeros();
    let (odd, shift) = (m >> tz, ex + i64::from(tz) - e);
    if shift + 64 - i64::from(odd.leading_zeros()) > bits {
        return None;
    }
    let v = Int::from_i128(i128::from(odd)).shl(shift as u64);
    Some(if x < 0.0 { v.neg() } else { v })
}

/// The exponent of the least significant bit among the nine coordinates
/// (0 when all are zero): the common power of two that brings them to
/// integers.
fn least_exp(f: &[[f64; 3]; 3]) -> i64 {
    f.iter()
        .flatten()
        .filter_map(|&x| lsb_exp(x))
        .min()
        .unwrap_or(0)
}

/// The plane [`Plane::through_doubles`] builds, computed in stack integers
/// ([`crate::num::fixed`], 768 bits): the same integers over `2^e`, the same
/// cross product, gcd and shifts, only without heap numbers until the
/// result. Every coordinate below 2^250 over `2^e` keeps every intermediate
/// below 2^768 (differences 2^251, the cross product 2^503, `n·a` 2^755);
/// `None` for wider coordinates (or three collinear points), which take the
/// heap path.
fn through_fixed(f: &[[f64; 3]; 3], e: i64) -> Option<Plane> {
    let mut ints = [[Int::ZERO; 3]; 3];
    for (p, q) in f.iter().zip(ints.iter_mut()) {
        for k in 0..3 {
            q[k] = to_fixed(p[k], e, 250)?;
        }
    }
    let [ia, ib, ic] = ints;
    let sub = |x: &[Int; 3], y: &[Int; 3]| [x[0].sub(&y[0]), x[1].sub(&y[1]), x[2].sub(&y[2])];
    let (u, w) = (sub(&ib, &ia), sub(&ic, &ia));
    let n = [
        u[1].mul(&w[2]).sub(&u[2].mul(&w[1])),
        u[2].mul(&w[0]).sub(&u[0].mul(&w[2])),
        u[0].mul(&w[1]).sub(&u[1].mul(&w[0])),
    ];
    let g = fixed::gcd(&fixed::gcd(n[0].mag(), n[1].mag()), n[2].mag());
    if g.is_zero() {
        return None;
    }
    let normal = n.map(|c| Int::from_nat(c.is_neg(), fixed::div_exact(c.mag(), &g)));
    let num = normal[0]
        .mul(&ia[0])
        .add(&normal[1].mul(&ia[1]))
        .add(&normal[2].mul(&ia[2]));
    Some(Plane {
        normal: Vec3::new(
            normal[0].to_bigint(),
            normal[1].to_bigint(),
            normal[2].to_bigint(),
        ),
        offset: fixed::int_pow2_rational(&num, e),
    })
}

/// The exponent of the lowest set bit of a nonzero finite double (`None`
/// for zero): every double is an integer times `2^lsb_exp`.
pub(crate) fn lsb_exp(x: f64) -> Option<i64> {
    if x == 0.0 {
        return None;
    }
    let (m, e) = mantissa(x);
    Some(e + i64::from(m.trailing_zeros()))
}

/// `|x| = m·2^e` with `m` the 53-bit significand (fewer bits below the
/// normal range).
fn mantissa(x: f64) -> (u64, i64) {
    let bits = x.to_bits();
    let exp = ((bits >> 52) & 0x7ff) as i64;
    let man = bits & ((1u64 << 52) - 1);
    if exp == 0 {
        (man, -1074)
    } else {
        (man | (1u64 << 52), exp - 1075)
    }
}

/// `x / 2^e` as an integer, exactly (`e` at most [`lsb_exp`]`(x)`).
pub(crate) fn to_int(x: f64, e: i64) -> BigInt {
    if x == 0.0 {
        return BigInt::zero();
    }
    let (m, ex) = mantissa(x);
    let tz = m.trailing_zeros();
    let v = BigInt::from(m >> tz) << (ex + i64::from(tz) - e) as usize;
    if x < 0.0 {
        -v
    } else {
        v
    }
}

/// `num / den` in lowest terms (`den > 0`); a power-of-two `den` (every float
/// input) is reduced by shifts instead of a gcd.
pub(crate) fn over(num: BigInt, den: BigInt) -> BigRational {
    let k = den.trailing_zeros().unwrap_or(0);
    if den.bits() == k + 1 {
        let t = num.trailing_zeros().unwrap_or(k).min(k);
        return BigRational::new_raw(num >> t as usize, den >> t as usize);
    }
    BigRational::new(num, den)
}

fn sub_int(a: &Vec3<BigInt>, b: &Vec3<BigInt>) -> Vec3<BigInt> {
    Vec3::new(&a.x - &b.x, &a.y - &b.y, &a.z - &b.z)
}

/// The gcd of three integers, not all zero (1 if all are zero): the common
/// power of two first (float inputs make it large), then the odd parts.
fn gcd3(n: &[BigInt; 3]) -> BigInt {
    let tz = n.iter().filter_map(|x| x.trailing_zeros()).min();
    let Some(tz) = tz else {
        return BigInt::one();
    };
    let odd: Vec<BigInt> = n
        .iter()
        .filter(|x| !x.is_zero())
        .map(|x| x >> tz as usize)
        .collect();
    let mut g = odd[0].magnitude().clone();
    for x in &odd[1..] {
        if g.is_one() {
            break;
        }
        g = gcd_euclid(g, x.magnitude().clone());
    }
    BigInt::from(g) << tz as usize
}

/// gcd by Euclid's remainders while an operand is wider than 128 bits, then
/// binary gcd in `u128` (num-bigint's binary gcd shifts big numbers bit by bit).
pub(crate) fn gcd_euclid(mut a: BigUint, mut b: BigUint) -> BigUint {
    if a < b {
        std::mem::swap(&mut a, &mut b);
    }
    while a.bits() > 128 || b.bits() > 128 {
        if b.is_zero() {
            return a;
        }
        if !lehmer_step(&mut a, &mut b) {
            let r = &a % &b;
            a = b;
            b = r;
        }
    }
    let (Some(mut x), Some(mut y)) = (a.to_u128(), b.to_u128()) else {
        return a.gcd(&b);
    };
    if x == 0 || y == 0 {
        return BigUint::from(x | y);
    }
    let shift = (x | y).trailing_zeros();
    x >>= x.trailing_zeros();
    while y != 0 {
        y >>= y.trailing_zeros();
        if x > y {
            std::mem::swap(&mut x, &mut y);
        }
        y -= x;
    }
    BigUint::from(x << shift)
}

/// One step of Lehmer's gcd (D. E. Knuth, *The Art of Computer Programming*,
/// vol. 2, Algorithm 4.5.2 L): the Euclidean quotients of the leading 63 bits
/// of `a ≥ b`, kept while they are provably those of `a` and `b` themselves
/// (the quotients of both ends of the leading bits' error interval agree),
/// then applied to `a` and `b` at once. `false` when no quotient was proved
/// (the caller then takes one remainder step); `a ≥ b` again after.
fn lehmer_step(a: &mut BigUint, b: &mut BigUint) -> bool {
    let shift = a.bits().saturating_sub(63) as usize;
    let (Some(mut x), Some(mut y)) = ((&*a >> shift).to_i128(), (&*b >> shift).to_i128()) else {
        return false;
    };
    let (mut p, mut q, mut r, mut s) = (1i128, 0i128, 0i128, 1i128);
    while y + r != 0 && y + s != 0 {
        let q1 = (x + p) / (y + r);
        let q2 = (x + q) / (y + s);
        if q1 != q2 {
            break;
        }
        (p, r) = (r, p - q1 * r);
        (q, s) = (s, q - q1 * s);
        (x, y) = (y, x - q1 * y);
    }
    if q == 0 {
        return false;
    }
    let (ai, bi) = (BigInt::from(a.clone()), BigInt::from(b.clone()));
    let na = &ai * p + &bi * q;
    let nb = &ai * r + &bi * s;
    match (na.to_biguint(), nb.to_biguint()) {
        (Some(na), Some(nb)) => {
            *a = na;
            *b = nb;
            if *a < *b {
                std::mem::swap(a, b);
            }
            true
        }
        _ => false,
    }
}

fn dot_int(n: &Vec3<BigInt>, p: &Vec3<BigRational>) -> BigRational {
    let t = |k: &BigInt, c: &BigRational| c * BigRational::from_integer(k.clone());
    t(&n.x, &p.x) + t(&n.y, &p.y) + t(&n.z, &p.z)
}

/// A face of a 3-dimensional hull: a convex polygon of input points.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Face {
    /// Indices into the input, counter-clockwise seen from outside, starting
    /// at the smallest; no three consecutive ones collinear.
    pub vertices: Vec<usize>,
    /// The face's plane, normal outward.
    pub plane: Plane,
}

/// The exact convex hull of a point set; see the [module docs](self).
#[derive(Clone, Debug)]
pub struct ConvexHull<S> {
    dim: usize,
    vertices: Vec<usize>,
    points: Vec<Vec3<S>>,
    faces: Vec<Face>,
    plane: Option<Plane>,
}

/// [`convex_hull`] of exact rational points: computed on the doubles when
/// every coordinate is exactly a double in the normal range or zero
/// (filtered exact predicates instead of rational ones; every orientation is
/// decided exactly either way, so the hull is the same: vertices, faces,
/// planes), on the rationals otherwise.
pub fn convex_hull_rational(
    points: &[Vec3<BigRational>],
) -> Result<ConvexHull<BigRational>, HullError> {
    let x = crate::num::dyadic::exact_f64;
    let doubles: Option<Vec<Vec3<f64>>> = points
        .iter()
        .map(|p| Some(Vec3::new(x(&p.x)?, x(&p.y)?, x(&p.z)?)))
        .collect();
    match doubles {
        Some(d) => convex_hull(&d).map(|h| ConvexHull {
            dim: h.dim,
            vertices: h.vertices,
            points: h
                .points
                .iter()
                .map(|p| p.map(|c| c.to_rational()))
                .collect(),
            faces: h.faces,
            plane: h.plane,
        }),
        None => convex_hull(points),
    }
}

impl ConvexHull<BigRational> {
    /// The same hull with double coordinates, when every vertex coordinate is
    /// exactly a double in the normal range or zero: the same vertices, faces
    /// and planes (no orientation is decided again), so every answer on it is
    /// the same. `None` otherwise.
    pub fn exact_f64(&self) -> Option<ConvexHull<f64>> {
        let x = crate::num::dyadic::exact_f64;
        let mut points = Vec::with_capacity(self.points.len());
        for p in &self.points {
            points.push(Vec3::new(x(&p.x)?, x(&p.y)?, x(&p.z)?));
        }
        Some(ConvexHull {
            dim: self.dim,
            vertices: self.vertices.clone(),
            points,
            faces: self.faces.clone(),
            plane: self.plane.clone(),
        })
    }
}

impl<S: Scalar> ConvexHull<S> {
    /// 0 (a point), 1 (a segment), 2 (a flat convex polygon) or 3 (a polytope).
    pub fn dim(&self) -> usize {
        self.dim
    }

    /// The hull's vertices as indices into the input: `[i]` for a point; the
    /// two end points (lexicographically smaller first) for a segment; the
    /// polygon counter-clockwise seen from [`plane`](Self::plane)'s normal,
    /// starting at the smallest index, for a flat hull; ascending for a
    /// polytope.
    pub fn vertices(&self) -> &[usize] {
        &self.vertices
    }

    /// The coordinates of [`vertices`](Self::vertices), in the same order.
    pub fn vertex_points(&self) -> &[Vec3<S>] {
        &self.points
    }

    /// A polytope's faces (empty below dimension 3).
    pub fn faces(&self) -> &[Face] {
        &self.faces
    }

    /// A flat hull's plane (`None` unless the dimension is 2).
    pub fn plane(&self) -> Option<&Plane> {
        self.plane.as_ref()
    }

    /// The planes of a polytope's faces, in the order of [`faces`](Self::faces).
    pub fn face_planes(&self) -> impl Iterator<Item = &Plane> {
        self.faces.iter().map(|f| &f.plane)
    }

    /// The input index of a vertex `v` maximising `dir · v`, decided exactly
    /// (ties: the first in [`vertices`](Self::vertices) order).
    pub fn support(&self, dir: &Vec3<S>) -> usize {
        let mut best = 0;
        for k in 1..self.points.len() {
            let e = DotDiff(dir, &self.points[k], &self.points[best]);
            if sign_of(&e) == Sign::Positive {
                best = k;
            }
        }
        self.vertices[best]
    }

    /// [`support`](Self::support) for an exact rational direction.
    pub fn support_rational(&self, dir: &Vec3<BigRational>) -> usize {
        let mut best = 0;
        let mut best_val: Option<BigRational> = None;
        for (k, p) in self.points.iter().enumerate() {
            let v = dir.dot(&p.to_rational());
            if best_val.as_ref().is_none_or(|b| v > *b) {
                best = k;
                best_val = Some(v);
            }
        }
        self.vertices[best]
    }
}

/// `d · (v − w)`.
struct DotDiff<'a, S>(&'a Vec3<S>, &'a Vec3<S>, &'a Vec3<S>);

impl<S> Expr<S> for DotDiff<'_, S> {
    fn eval<R: Ring, L: Fn(&S) -> R>(&self, l: &L) -> R {
        self.0.map(l).dot(&self.1.map(l).sub(&self.2.map(l)))
    }
}

fn lex<S: Scalar>(a: &Vec3<S>, b: &Vec3<S>) -> Ordering {
    let c = |x: &S, y: &S| x.partial_cmp(y).unwrap_or(Ordering::Equal);
    c(&a.x, &b.x)
        .then_with(|| c(&a.y, &b.y))
        .then_with(|| c(&a.z, &b.z))
}

/// `((b − a) × (c − a))_k` exactly: `orient2d` of the projection onto the
/// coordinates `(k+1, k+2) mod 3`.
fn cross_sign<S: Scalar>(a: &Vec3<S>, b: &Vec3<S>, c: &Vec3<S>, k: usize) -> Sign {
    let p = |v: &Vec3<S>| Vec2::new(v.get((k + 1) % 3).clone(), v.get((k + 2) % 3).clone());
    orient2d(&p(a), &p(b), &p(c))
}

fn collinear<S: Scalar>(a: &Vec3<S>, b: &Vec3<S>, c: &Vec3<S>) -> bool {
    (0..3).all(|k| cross_sign(a, b, c, k) == Sign::Zero)
}

/// Float copies of the points scaled by a power of two so that the largest
/// magnitude is about 1 (for estimates only: nothing is decided with them).
fn float_copies<S: Scalar>(points: &[Vec3<S>]) -> Vec<[f64; 3]> {
    let raw: Vec<[f64; 3]> = points
        .iter()
        .map(|p| [p.x.to_f64(), p.y.to_f64(), p.z.to_f64()])
        .collect();
    let max = raw
        .iter()
        .flatten()
        .filter(|v| v.is_finite())
        .fold(0.0f64, |m, v| m.max(v.abs()));
    if max == 0.0 || !max.is_finite() {
        return raw;
    }
    let e = max.log2().floor() as i32;
    let scale = |v: f64| {
        let mut v = v;
        let mut e = -e;
        while e != 0 {
            let s = e.clamp(-1000, 1000);
            v *= 2f64.powi(s);
            e -= s;
        }
        v
    };
    raw.iter().map(|p| p.map(scale)).collect()
}

fn fsub(a: &[f64; 3], b: &[f64; 3]) -> [f64; 3] {
    [a[0] - b[0], a[1] - b[1], a[2] - b[2]]
}
fn fcross(a: &[f64; 3], b: &[f64; 3]) -> [f64; 3] {
    [
        a[1] * b[2] - a[2] * b[1],
        a[2] * b[0] - a[0] * b[2],
        a[0] * b[1] - a[1] * b[0],
    ]
}
fn fdot(a: &[f64; 3], b: &[f64; 3]) -> f64 {
    a[0] * b[0] + a[1] * b[1] + a[2] * b[2]
}
/// NaN as −∞, so that a broken estimate is never preferred.
fn finite_or_low(v: f64) -> f64 {
    if v.is_nan() {
        f64::NEG_INFINITY
    } else {
        v
    }
}

/// The point maximising `score` among those `ok` accepts (exactly), trying
/// the best score first and scanning all points if that one fails.
fn pick(n: usize, score: impl Fn(usize) -> f64, ok: impl Fn(usize) -> bool) -> Option<usize> {
    // Ties go to the smaller index (so a repeated point is its first copy).
    let best = (0..n).max_by(|&i, &j| {
        finite_or_low(score(i))
            .partial_cmp(&finite_or_low(score(j)))
            .unwrap_or(Ordering::Equal)
            .then(j.cmp(&i))
    })?;
    if ok(best) {
        return Some(best);
    }
    (0..n).find(|&i| ok(i))
}

/// The exact convex hull of `points` (see the [module docs](self)).
///
/// Errors on an empty input or a non-finite coordinate; never panics.
pub fn convex_hull<S: Scalar>(points: &[Vec3<S>]) -> Result<ConvexHull<S>, HullError> {
    if points.is_empty() {
        return Err(HullError::Empty);
    }
    if let Some(index) = points
        .iter()
        .position(|p| !(p.x.is_finite() && p.y.is_finite() && p.z.is_finite()))
    {
        return Err(HullError::NonFinite { index });
    }
    let n = points.len();
    // First occurrences win ties, so repeated points report their first index.
    let mut i0 = 0;
    let mut i1 = 0;
    for i in 1..n {
        if lex(&points[i], &points[i0]) == Ordering::Less {
            i0 = i;
        }
        if lex(&points[i], &points[i1]) == Ordering::Greater {
            i1 = i;
        }
    }
    let done = |dim: usize, vertices: Vec<usize>, faces: Vec<Face>, plane: Option<Plane>| {
        let pts = vertices.iter().map(|&i| points[i].clone()).collect();
        Ok(ConvexHull {
            dim,
            vertices,
            points: pts,
            faces,
            plane,
        })
    };
    if lex(&points[i0], &points[i1]) == Ordering::Equal {
        return done(0, vec![i0], vec![], None);
    }
    let f = float_copies(points);
    let d01 = fsub(&f[i1], &f[i0]);
    let i2 = pick(
        n,
        |i| {
            let c = fcross(&d01, &fsub(&f[i], &f[i0]));
            fdot(&c, &c)
        },
        |i| !collinear(&points[i0], &points[i1], &points[i]),
    );
    let Some(i2) = i2 else {
        return done(1, vec![i0, i1], vec![], None);
    };
    let nf = fcross(&d01, &fsub(&f[i2], &f[i0]));
    let i3 = pick(
        n,
        |i| fdot(&nf, &fsub(&f[i], &f[i0])).abs(),
        |i| orient3d(&points[i0], &points[i1], &points[i2], &points[i]) != Sign::Zero,
    );
    let Some(i3) = i3 else {
        let (vertices, plane) = flat_hull(points, [i0, i1, i2]);
        return done(2, vertices, vec![], Some(plane));
    };
    let (vertices, faces) = Quickhull::new(points, &f, [i0, i1, i2, i3]).run()?;
    done(3, vertices, faces, None)
}

/// The hull of coplanar points (not all collinear; `t` spans the plane).
fn flat_hull<S: Scalar>(points: &[Vec3<S>], t: [usize; 3]) -> (Vec<usize>, Plane) {
    let (a, b, c) = (&points[t[0]], &points[t[1]], &points[t[2]]);
    // Project along an axis k where the plane's normal has a nonzero
    // component: orient2d of the projection has the sign of that component
    // times the orientation seen from the normal's side.
    let (k, sk) = (0..3)
        .map(|k| (k, cross_sign(a, b, c, k)))
        .find(|(_, s)| *s != Sign::Zero)
        .unwrap_or((2, Sign::Positive));
    let proj = |i: usize| {
        let v = &points[i];
        Vec2::new(v.get((k + 1) % 3).clone(), v.get((k + 2) % 3).clone())
    };
    let pr: Vec<Vec2<S>> = (0..points.len()).map(proj).collect();
    let cmp2 = |i: &usize, j: &usize| {
        let c = |x: &S, y: &S| x.partial_cmp(y).unwrap_or(Ordering::Equal);
        c(&pr[*i].x, &pr[*j].x)
            .then_with(|| c(&pr[*i].y, &pr[*j].y))
            .then(i.cmp(j))
    };
    let mut idx: Vec<usize> = (0..points.len()).collect();
    idx.sort_by(cmp2);
    idx.dedup_by(|j, i| pr[*i] == pr[*j]);
    // Andrew's monotone chain: counter-clockwise in the projection, strict
    // turns only (collinear points dropped).
    let mut hull: Vec<usize> = Vec::with_capacity(idx.len() + 1);
    for pass in 0..2 {
        let start = hull.len();
        let seq: Box<dyn Iterator<Item = &usize>> = if pass == 0 {
            Box::new(idx.iter())
        } else {
            Box::new(idx.iter().rev())
        };
        for &i in seq {
            while hull.len() >= start + 2 {
                let (p, q) = (hull[hull.len() - 2], hull[hull.len() - 1]);
                if orient2d(&pr[p], &pr[q], &pr[i]) == Sign::Positive {
                    break;
                }
                hull.pop();
            }
            hull.push(i);
        }
        hull.pop(); // the last point starts the other chain
    }
    let mut plane = Plane::through(&points[t[0]], &points[t[1]], &points[t[2]]);
    // Counter-clockwise in the projection is counter-clockwise seen from the
    // side of (b − a) × (c − a) when its k-th component is positive.
    if sk == Sign::Negative {
        hull.reverse();
    }
    // Canonical normal: first nonzero component positive.
    let first = [&plane.normal.x, &plane.normal.y, &plane.normal.z]
        .into_iter()
        .find(|c| !c.is_zero())
        .cloned()
        .unwrap_or_else(BigInt::one);
    if first.is_negative() {
        plane.normal = plane.normal.map(|c| -c);
        plane.offset = -plane.offset;
        hull.reverse();
    }
    rotate_to_min(&mut hull);
    (hull, plane)
}

fn rotate_to_min(v: &mut [usize]) {
    if let Some(m) = (0..v.len()).min_by_key(|&i| v[i]) {
        v.rotate_left(m);
    }
}

const NONE: u32 = u32::MAX;

/// A triangle of the hull's boundary, counter-clockwise seen from outside;
/// `nb[s]` is the triangle across the edge `v[s] → v[s+1]`.
struct Tri {
    v: [u32; 3],
    nb: [u32; 3],
    alive: bool,
    outside: Vec<u32>,
    /// Float estimate of the outward normal (unnormalised) and offset.
    nf: [f64; 3],
    df: f64,
}

struct Quickhull<'a, S> {
    p: &'a [Vec3<S>],
    f: &'a [[f64; 3]],
    tris: Vec<Tri>,
    /// Per face: the insertion round in which it was classified, and whether
    /// it saw the point then.
    seen: Vec<(u32, bool)>,
    round: u32,
    /// Per point: the new triangle whose horizon edge starts / ends there
    /// (valid when tagged with the current round).
    by_start: Vec<(u32, u32)>,
    by_end: Vec<(u32, u32)>,
}

impl<'a, S: Scalar> Quickhull<'a, S> {
    fn new(p: &'a [Vec3<S>], f: &'a [[f64; 3]], t: [usize; 4]) -> Self {
        Quickhull {
            p,
            f,
            tris: Vec::new(),
            seen: Vec::new(),
            round: 0,
            by_start: vec![(NONE, 0); p.len()],
            by_end: vec![(NONE, 0); p.len()],
        }
        .start(t)
    }

    fn above(&self, t: u32, i: u32) -> bool {
        let v = self.tris[t as usize].v;
        let q = |k: u32| &self.p[k as usize];
        orient3d(q(v[0]), q(v[1]), q(v[2]), q(i)) == Sign::Positive
    }

    fn push_tri(&mut self, v: [u32; 3]) -> u32 {
        let g = |k: u32| &self.f[k as usize];
        let nf = fcross(&fsub(g(v[1]), g(v[0])), &fsub(g(v[2]), g(v[0])));
        let df = fdot(&nf, g(v[0]));
        self.tris.push(Tri {
            v,
            nb: [NONE; 3],
            alive: true,
            outside: Vec::new(),
            nf,
            df,
        });
        self.seen.push((0, false));
        (self.tris.len() - 1) as u32
    }

    fn start(mut self, t: [usize; 4]) -> Self {
        let t = t.map(|i| i as u32);
        // The four faces, each oriented away from the opposite vertex.
        for skip in 0..4 {
            let mut v: Vec<u32> = (0..4).filter(|&k| k != skip).map(|k| t[k]).collect();
            let q = |k: u32| &self.p[k as usize];
            if orient3d(q(v[0]), q(v[1]), q(v[2]), q(t[skip])) == Sign::Positive {
                v.swap(1, 2);
            }
            self.push_tri([v[0], v[1], v[2]]);
        }
        // Neighbours: the face holding the reversed edge.
        for a in 0..4 {
            for s in 0..3 {
                let (u, w) = (self.tris[a].v[s], self.tris[a].v[(s + 1) % 3]);
                for b in 0..4 {
                    if b != a
                        && (0..3)
                            .any(|r| self.tris[b].v[r] == w && self.tris[b].v[(r + 1) % 3] == u)
                    {
                        self.tris[a].nb[s] = b as u32;
                    }
                }
            }
        }
        for i in 0..self.p.len() as u32 {
            if t.contains(&i) {
                continue;
            }
            if let Some(k) = (0..4u32).find(|&k| self.above(k, i)) {
                self.tris[k as usize].outside.push(i);
            }
        }
        self
    }

    fn run(mut self) -> Result<(Vec<usize>, Vec<Face>), HullError> {
        let mut stack: Vec<u32> = (0..self.tris.len() as u32).collect();
        while let Some(t) = stack.pop() {
            let tri = &self.tris[t as usize];
            if !tri.alive || tri.outside.is_empty() {
                continue;
            }
            // The farthest outside point by the float estimate (speed only);
            // ties to the smaller index, so that of repeated points (equal
            // estimates, always in the same outside set) the first is inserted.
            let (nf, df) = (tri.nf, tri.df);
            let apex = *tri
                .outside
                .iter()
                .max_by(|&&i, &&j| {
                    let d = |k: u32| finite_or_low(fdot(&nf, &self.f[k as usize]) - df);
                    d(i).partial_cmp(&d(j))
                        .unwrap_or(Ordering::Equal)
                        .then(j.cmp(&i))
                })
                .unwrap_or(&tri.outside[0]);
            let new = self.insert(t, apex)?;
            stack.extend(
                new.into_iter()
                    .filter(|&k| !self.tris[k as usize].outside.is_empty()),
            );
        }
        self.finish()
    }

    /// Insert `apex` (strictly above triangle `t`); returns the new triangles.
    fn insert(&mut self, t: u32, apex: u32) -> Result<Vec<u32>, HullError> {
        self.round += 1;
        let round = self.round;
        self.seen[t as usize] = (round, true);
        let mut visible = vec![t];
        // (u, v, neighbour, its slot): horizon edges u → v of visible triangles.
        let mut horizon: Vec<(u32, u32, u32, usize)> = Vec::new();
        let mut k = 0;
        while k < visible.len() {
            let g = visible[k];
            k += 1;
            for s in 0..3 {
                let h = self.tris[g as usize].nb[s];
                let (seen_round, vis) = self.seen[h as usize];
                let vis = if seen_round == round {
                    vis
                } else {
                    let vis = self.above(h, apex);
                    self.seen[h as usize] = (round, vis);
                    if vis {
                        visible.push(h);
                    }
                    vis
                };
                if !vis {
                    let gv = self.tris[g as usize].v;
                    let (u, w) = (gv[s], gv[(s + 1) % 3]);
                    let hv = self.tris[h as usize].v;
                    let hs = (0..3)
                        .find(|&r| hv[r] == w && hv[(r + 1) % 3] == u)
                        .ok_or(HullError::Internal("neighbour without the shared edge"))?;
                    horizon.push((u, w, h, hs));
                }
            }
        }
        let mut orphans: Vec<u32> = Vec::new();
        for &g in &visible {
            let tri = &mut self.tris[g as usize];
            tri.alive = false;
            orphans.append(&mut tri.outside);
        }
        let mut new = Vec::with_capacity(horizon.len());
        for &(u, w, h, hs) in &horizon {
            let n = self.push_tri([u, w, apex]);
            self.tris[n as usize].nb[0] = h;
            self.tris[h as usize].nb[hs] = n;
            if self.by_start[u as usize].1 == round || self.by_end[w as usize].1 == round {
                return Err(HullError::Internal("horizon is not a simple cycle"));
            }
            self.by_start[u as usize] = (n, round);
            self.by_end[w as usize] = (n, round);
            new.push(n);
        }
        for &n in &new {
            let [u, w, _] = self.tris[n as usize].v;
            let (a, ra) = self.by_start[w as usize];
            let (b, rb) = self.by_end[u as usize];
            if ra != round || rb != round {
                return Err(HullError::Internal("horizon is not closed"));
            }
            self.tris[n as usize].nb[1] = a;
            self.tris[n as usize].nb[2] = b;
        }
        for q in orphans {
            if q == apex {
                continue;
            }
            if let Some(&n) = new.iter().find(|&&n| self.above(n, q)) {
                self.tris[n as usize].outside.push(q);
            }
        }
        Ok(new)
    }

    /// Merge coplanar neighbours into polygons, drop collinear boundary
    /// vertices, and build the exact planes.
    fn finish(self) -> Result<(Vec<usize>, Vec<Face>), HullError> {
        let alive: Vec<u32> = (0..self.tris.len() as u32)
            .filter(|&t| self.tris[t as usize].alive)
            .collect();
        let mut parent: Vec<u32> = (0..self.tris.len() as u32).collect();
        fn root(parent: &mut [u32], mut x: u32) -> u32 {
            while parent[x as usize] != x {
                parent[x as usize] = parent[parent[x as usize] as usize];
                x = parent[x as usize];
            }
            x
        }
        let q = |k: u32| &self.p[k as usize];
        for &t in &alive {
            let v = self.tris[t as usize].v;
            for s in 0..3 {
                let h = self.tris[t as usize].nb[s];
                if h < t {
                    continue;
                }
                let hv = self.tris[h as usize].v;
                let opp = hv
                    .iter()
                    .copied()
                    .find(|x| !v.contains(x))
                    .ok_or(HullError::Internal("neighbours share three vertices"))?;
                if orient3d(q(v[0]), q(v[1]), q(v[2]), q(opp)) == Sign::Zero {
                    let (a, b) = (root(&mut parent, t), root(&mut parent, h));
                    parent[a as usize] = b;
                }
            }
        }
        // Boundary edges of each group: u → v with the neighbour outside it.
        let mut groups: std::collections::BTreeMap<u32, Vec<(u32, u32)>> = Default::default();
        for &t in &alive {
            let r = root(&mut parent, t);
            for s in 0..3 {
                let h = self.tris[t as usize].nb[s];
                if root(&mut parent, h) != r {
                    let v = self.tris[t as usize].v;
                    groups.entry(r).or_default().push((v[s], v[(s + 1) % 3]));
                }
            }
        }
        let mut faces = Vec::with_capacity(groups.len());
        let mut next = std::collections::HashMap::new();
        for edges in groups.values() {
            next.clear();
            for &(u, w) in edges {
                if next.insert(u, w).is_some() {
                    return Err(HullError::Internal("face boundary is not a simple cycle"));
                }
            }
            let mut cycle = vec![edges[0].0];
            let mut cur = edges[0].1;
            while cur != edges[0].0 {
                if cycle.len() > edges.len() {
                    return Err(HullError::Internal("face boundary does not close"));
                }
                cycle.push(cur);
                cur = *next
                    .get(&cur)
                    .ok_or(HullError::Internal("face boundary is open"))?;
            }
            if cycle.len() != edges.len() {
                return Err(HullError::Internal("face boundary has several cycles"));
            }
            let m = cycle.len();
            let mut poly: Vec<usize> = (0..m)
                .filter(|&i| {
                    !collinear(
                        q(cycle[(i + m - 1) % m]),
                        q(cycle[i]),
                        q(cycle[(i + 1) % m]),
                    )
                })
                .map(|i| cycle[i] as usize)
                .collect();
            if poly.len() < 3 {
                return Err(HullError::Internal("degenerate face"));
            }
            rotate_to_min(&mut poly);
            let plane = Plane::through(&self.p[poly[0]], &self.p[poly[1]], &self.p[poly[2]]);
            faces.push(Face {
                vertices: poly,
                plane,
            });
        }
        let mut vertices: Vec<usize> = faces
            .iter()
            .flat_map(|f| f.vertices.iter().copied())
            .collect();
        vertices.sort_unstable();
        vertices.dedup();
        faces.sort_by(|a, b| a.vertices.cmp(&b.vertices));
        Ok((vertices, faces))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The stack-integer plane is the heap-integer plane (the same
    /// integers, so the same primitive normal and offset), and the plane is
    /// independently right: `n·x = d` at the three points, `n` primitive and
    /// along `(b − a) × (c − a)` (checked in rationals); on random triples at
    /// exponent spreads from 0 to 2^±600 (past the 250 bits, the heap path),
    /// with zeros, subnormals and collinear-free integer grids.
    #[test]
    fn fixed_plane_is_the_heap_plane() {
        let mut s = 11u64;
        let mut next = || crate::poly::planted::splitmix64(&mut s);
        let (mut fixed_used, mut heap_used) = (0, 0);
        for i in 0..3000 {
            let spread = [0, 3, 40, 120, 200, 600][i % 6];
            let f: [[f64; 3]; 3] = std::array::from_fn(|_| {
                std::array::from_fn(|_| {
                    let r = next();
                    let m = (r >> 11) as f64 / (1u64 << 53) as f64 * 2.0 - 1.0;
                    match r % 13 {
                        0 => 0.0,
                        1 => f64::from_bits(r >> 20), // subnormal
                        2 => (r % 9) as f64 - 4.0,
                        _ => fixed::ldexp(m, (next() % (spread + 1)) as i64 - spread as i64 / 2),
                    }
                })
            });
            let v = |p: &[f64; 3]| Vec3::new(p[0], p[1], p[2]);
            let (a, b, c) = (v(&f[0]), v(&f[1]), v(&f[2]));
            if collinear(&a, &b, &c) {
                continue;
            }
            let e = least_exp(&f);
            let heap = Plane::through_big(&f, e);
            match through_fixed(&f, e) {
                Some(p) => {
                    fixed_used += 1;
                    assert_eq!(p, heap, "{f:?}");
                }
                None => heap_used += 1,
            }
            let plane = Plane::through_doubles(&a, &b, &c);
            assert_eq!(plane, heap);
            let q = |p: &Vec3<f64>| p.to_rational();
            for p in [&a, &b, &c] {
                assert!(plane.eval(&q(p)).is_zero());
            }
            let n = q(&b).sub(&q(&a)).cross(&q(&c).sub(&q(&a)));
            let ni = plane.normal.map(|x| BigRational::from_integer(x.clone()));
            assert!(ni.cross(&n).norm_squared().is_zero() && ni.dot(&n).is_positive());
            assert!(gcd3(&[ni.x.to_integer(), ni.y.to_integer(), ni.z.to_integer()]).is_one());
        }
        assert!(
            fixed_used > 1000 && heap_used > 100,
            "{fixed_used} {heap_used}"
        );
    }

    /// The hybrid gcd and the power-of-two reduction agree with num-bigint's
    /// `gcd` and `BigRational::new` (random operands of 1 to 5 words, with
    /// planted common factors).
    #[test]
    fn gcd_and_reduction_agree_with_num() {
        let mut s = 3u64;
        let mut next = || crate::poly::planted::splitmix64(&mut s);
        for i in 0..2000 {
            let mut big = |w: u64| {
                let mut x = BigUint::from(next());
                for _ in 0..w {
                    x = (x << 64usize) + BigUint::from(next());
                }
                x
            };
            let f = big(i % 3);
            let (a, b) = (big(i % 5) * &f, big((i / 5) % 5) * &f);
            assert_eq!(gcd_euclid(a.clone(), b.clone()), a.gcd(&b));
            let num = BigInt::from(a) * BigInt::from(if i % 2 == 0 { 1 } else { -1 });
            for den in [BigInt::one() << (i % 300) as usize, BigInt::from(b) + 1u32] {
                assert_eq!(
                    over(num.clone(), den.clone()),
                    BigRational::new(num.clone(), den)
                );
            }
        }
        assert!(over(BigInt::zero(), BigInt::from(8)).is_zero());
        let n = [BigInt::from(12), BigInt::from(-18), BigInt::zero()];
        assert_eq!(gcd3(&n), BigInt::from(6));
        assert_eq!(
            gcd3(&[BigInt::zero(), BigInt::zero(), BigInt::zero()]),
            BigInt::one()
        );
    }
}
