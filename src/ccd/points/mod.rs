//! `ccd_vf` and `ccd_ee`: points under linear motion, first time of contact.
//!
//! Every point moves as p(t) = p₀ + t·(p₁ − p₀). Contact needs coplanarity of the
//! four points, the cubic
//!
//! ```text
//! vf:  c(t) = det(f1 − f0, f2 − f0, v − f0)        ee:  c(t) = det(a1 − a0, b0 − a0, b1 − a0)
//! ```
//!
//! At each root of c in [0, 1], in order, an exact inside test decides: for
//! `ccd_vf` the vertex is in the closed triangle iff the three edge cross products
//! have non-negative dot products with the normal n = (f1 − f0) × (f2 − f0); for
//! `ccd_ee` the closed segments meet iff each segment's end points are on opposite
//! sides (or on) the other's line, measured along n = (a1 − a0) × (b1 − b0). All of
//! these are polynomials in t whose signs at the algebraic root are exact.
//!
//! Degenerate configurations are answered exactly too. The contact condition is
//! written as one Boolean combination of polynomial sign conditions that is right
//! in every configuration:
//!
//! ```text
//! vf:  c = 0 ∧ [ (|n|² > 0 ∧ the three edge tests ≥ 0)
//!                ∨ v on closed segment f0f1 ∨ v on f1f2 ∨ v on f2f0 ]
//! ee:  c = 0 ∧ [ (|n|² > 0 ∧ the two side tests ≥ 0)
//!                ∨ a0 on b0b1 ∨ a1 on b0b1 ∨ b0 on a0a1 ∨ b1 on a0a1 ]
//! x on closed segment pq:  (p − x) × (q − x) = 0 ∧ (p − x)·(q − x) ≤ 0
//! ```
//!
//! When n = 0 the triangle has collapsed onto a segment or a point (its hull is
//! the union of its three edge segments), or the two edges are parallel or
//! collapsed (closed segments on parallel lines meet iff an end point of one lies
//! on the other); the segment tests then carry the answer, and when n ≠ 0 they are
//! implied by the first clause, so the formula is exact everywhere.
//!
//! If c is not identically zero, contact can only happen at its roots, which are
//! tried in order. If c ≡ 0 (the points stay coplanar) the contact set is still
//! closed, and the truth of the formula can only change where one of its
//! polynomials changes sign; so the first contact time is 0 or a root of one of
//! them, and those points are tried in exact increasing order. Nothing is
//! approximated and nothing is left unanswered.
//!
//! # Two methods, one answer
//!
//! A query whose coordinates are all doubles (at most 2¹⁰⁰ in magnitude) first
//! goes through the float filter (`points/filter.rs`): Bernstein bounds of c with
//! a proven rounding-error bound prove most misses in a few hundred flops, and
//! certified float root isolation with an interval-arithmetic contact test
//! answers most hits. What it cannot prove goes to the exact method: the
//! polynomials are built in integers on the common dyadic scale of the
//! coordinates (no gcds), the roots of c are isolated exactly (Descartes), and
//! the condition is decided by exact signs at each root. `stats::CCD_POINTS`
//! counts the two (fast / fallback).
//!
//! # The reported time
//!
//! The first contact ρ is reported canonically, the same whichever method found
//! it: ρ = 0 as `start`; otherwise with f the square-free factor of c (or, when
//! c ≡ 0, of the condition's polynomial) that vanishes at ρ, primitive with a
//! positive leading coefficient: if f is linear, or ρ = k·2⁻ᵐ, exactly
//! (lo = hi = ρ); else the dyadic cell (k·2⁻ᵐ, (k + 1)·2⁻ᵐ) that contains ρ and no
//! other root of f, where m is the least level ≥ m₀ at which that cell isolates ρ
//! and 2⁻ᵐ⁰ is the largest power of two not above the tolerance. `f64` is the
//! double nearest to ρ (ties to even).
//!
//! ```
//! use exact_collision::ccd::points::{first_contact_f64, Kind};
//! use exact_collision::ccd::PointCcdAnswer;
//! use num_rational::BigRational;
//! // A vertex falling through the triangle z = 0 from z = 1 to z = −1: contact at 1/2.
//! let pts = [
//!     [0.25, 0.25, 1.0], [0.0, 0.0, 0.0], [1.0, 0.0, 0.0], [0.0, 1.0, 0.0],
//!     [0.25, 0.25, -1.0], [0.0, 0.0, 0.0], [1.0, 0.0, 0.0], [0.0, 1.0, 0.0],
//! ];
//! let tol = BigRational::new(1.into(), 1_000_000.into());
//! let PointCcdAnswer::Hit(t) = first_contact_f64(Kind::VertexFace, &pts, &tol).unwrap() else {
//!     panic!()
//! };
//! assert_eq!((t.lo, t.f64), (BigRational::new(1.into(), 2.into()), 0.5));
//! ```

mod filter;
mod formula;
mod fp;
mod min_sep;
mod wide;

use super::PointCcd;
use super::{ContactTime, PointCcdAnswer, TimeKind};
use crate::num::dyadic::exact_f64;
use crate::num::fixed::Int;
use crate::poly::zx;
use crate::poly::{isolate_roots, Factored, IsolatingInterval, Poly, RealRoot, Roots};
use crate::query::QueryError;
use crate::stats::CCD_POINTS;
use filter::{Filter, Outcome};
pub use formula::Kind;
use formula::{cross, dot, Arith, Contact, Part, Term, V3};
pub use min_sep::{
    exact_min_distance, filter_min_distance, first_contact_min_distance,
    first_contact_min_distance_f64, MinSepFilter,
};
use num_bigint::BigInt;
use num_integer::Integer;
use num_rational::BigRational;
use num_traits::{One, Signed, ToPrimitive, Zero};
use std::cell::OnceCell;
use std::cmp::Ordering;
use wide::W;

/// Vertex–face: vertex `t0[0]` against the triangle `t0[1..4]`.
pub fn vf(q: &PointCcd) -> Result<PointCcdAnswer, QueryError> {
    first_contact(Kind::VertexFace, q)
}

/// Edge–edge: segment `t0[0]t0[1]` against `t0[2]t0[3]`.
pub fn ee(q: &PointCcd) -> Result<PointCcdAnswer, QueryError> {
    first_contact(Kind::EdgeEdge, q)
}

/// The first contact in [0, 1]: the float filter when every coordinate is a
/// double, the exact method otherwise or when the filter cannot decide.
///
/// Errors: a tolerance that is not positive.
pub fn first_contact(kind: Kind, q: &PointCcd) -> Result<PointCcdAnswer, QueryError> {
    let m = level(&q.tolerance)?;
    if let Some(p) = as_f64(q) {
        return Ok(answer_f64(kind, &p, m));
    }
    CCD_POINTS.fallback();
    Ok(exact_answer(kind, &coords_rational(q), m, None))
}

/// [`first_contact`] for points given as doubles: the rows `t0` (four points in
/// the order of [`Kind`]) then `t1`, as the CCD benchmark stores them.
///
/// Errors: a coordinate that is not finite, a tolerance that is not positive.
pub fn first_contact_f64(
    kind: Kind,
    points: &[[f64; 3]; 8],
    tolerance: &BigRational,
) -> Result<PointCcdAnswer, QueryError> {
    let m = level(tolerance)?;
    if !points.iter().flatten().all(|x| x.is_finite()) {
        return Err(QueryError::Unsupported(
            "ccd points: a coordinate is not finite".into(),
        ));
    }
    Ok(answer_f64(kind, points, m))
}

/// The exact method alone (no filter): the reference the filter is tested
/// against. Same answers as [`first_contact`], slower.
pub fn exact(kind: Kind, q: &PointCcd) -> Result<PointCcdAnswer, QueryError> {
    let m = level(&q.tolerance)?;
    Ok(exact_answer(kind, &coords_rational(q), m, None))
}

/// The float filter alone: `Some` answer when it decides (then equal to
/// [`exact`]'s, time included), `None` when it cannot. Counts nothing.
///
/// ```
/// use exact_collision::ccd::points::{exact, filter, Kind};
/// use exact_collision::ccd::{PointCcd, PointCcdAnswer};
/// use exact_collision::Vec3;
/// use num_rational::BigRational;
/// // Edge a0a1 on the x axis; edge b0b1 parallel to y, passing over it at z = 1 − 2t.
/// let pts = [
///     [0.0, 0.0, 0.0], [1.0, 0.0, 0.0], [0.5, -1.0, 1.0], [0.5, 1.0, 1.0],
///     [0.0, 0.0, 0.0], [1.0, 0.0, 0.0], [0.5, -1.0, -1.0], [0.5, 1.0, -1.0],
/// ];
/// let tol = BigRational::new(1.into(), 1024.into());
/// let v = |p: [f64; 3]| Vec3::new(p[0], p[1], p[2]).to_rational();
/// let q = PointCcd { t0: [0, 1, 2, 3].map(|i| v(pts[i])), t1: [4, 5, 6, 7].map(|i| v(pts[i])), tolerance: tol.clone() };
/// let reference = exact(Kind::EdgeEdge, &q).unwrap();
/// assert!(matches!(&reference, PointCcdAnswer::Hit(t) if t.lo == BigRational::new(1.into(), 2.into())));
/// if let Some(a) = filter(Kind::EdgeEdge, &pts, &tol) {
///     assert_eq!(a, reference);
/// }
/// ```
pub fn filter(
    kind: Kind,
    points: &[[f64; 3]; 8],
    tolerance: &BigRational,
) -> Option<PointCcdAnswer> {
    let m = level(tolerance).ok()?;
    if !points.iter().flatten().all(|x| x.is_finite()) {
        return None;
    }
    filtered(kind, points, m)
}

fn answer_f64(kind: Kind, p: &[[f64; 3]; 8], m: u32) -> PointCcdAnswer {
    if let Some(a) = filtered(kind, p, m) {
        CCD_POINTS.fast();
        return a;
    }
    CCD_POINTS.fallback();
    exact_answer(kind, &coords_f64(p), m, Some(p))
}

fn filtered(kind: Kind, p: &[[f64; 3]; 8], m: u32) -> Option<PointCcdAnswer> {
    let filter = Filter::new(kind, p)?;
    match filter.run(m) {
        Outcome::Miss => Some(PointCcdAnswer::Miss),
        Outcome::Start => Some(PointCcdAnswer::Hit(ContactTime::at_start())),
        Outcome::End => Some(PointCcdAnswer::Hit(exact_time(&BigRational::one()))),
        Outcome::Unknown => None,
        Outcome::Hit { k, m, nearest } => {
            // The filter proved that the first contact is the only root of c in
            // the cell (k, k + 1)·2⁻ᵐ and that neither end is a root; the time
            // needs c's exact coefficients.
            let mut c = filter.exact_c().to_vec();
            primitive(&mut c);
            match c.len() {
                2 => Some(PointCcdAnswer::Hit(exact_time(&BigRational::new(
                    -c[0].clone(),
                    c[1].clone(),
                )))),
                n if n > 2 && zx::square_free_mod_p(&c) => {
                    let den = BigInt::one() << m;
                    let lo = BigRational::new(BigInt::from(k), den.clone());
                    let hi = BigRational::new(BigInt::from(k + 1), den);
                    let f64 = nearest.unwrap_or_else(|| {
                        let s_lo = zx::sign_at(&c, &lo);
                        let i = IsolatingInterval::new_unchecked(
                            c.clone().into(),
                            lo.clone(),
                            hi.clone(),
                            s_lo,
                        );
                        RealRoot::Interval(i).to_f64()
                    });
                    Some(PointCcdAnswer::Hit(ContactTime {
                        kind: TimeKind::Root,
                        lo,
                        hi,
                        poly: c,
                        f64,
                    }))
                }
                // Not proven square-free: the exact method finds c's factors.
                _ => None,
            }
        }
    }
}

/// m₀: the least m ≥ 0 with 2⁻ᵐ ≤ tolerance.
fn level(tol: &BigRational) -> Result<u32, QueryError> {
    if !tol.is_positive() {
        return Err(QueryError::Unsupported(
            "tolerance: must be positive".into(),
        ));
    }
    let (n, d) = (tol.numer(), tol.denom());
    if let (Some(n), Some(d)) = (n.to_u64(), d.to_u64()) {
        // In machine integers (the usual tolerances): n·2ᵐ ≥ d in u128.
        let mut m = (d.ilog2().saturating_sub(n.ilog2())).saturating_sub(1);
        while u128::from(n) << m < u128::from(d) {
            m += 1;
        }
        return Ok(m);
    }
    let mut m = (d.bits().saturating_sub(n.bits())).saturating_sub(1);
    while (n << m) < *d {
        m += 1;
    }
    u32::try_from(m).map_err(|_| QueryError::Unsupported("tolerance: too small".into()))
}

/// The coordinates as doubles, if every one is exactly a double.
fn as_f64(q: &PointCcd) -> Option<[[f64; 3]; 8]> {
    let mut out = [[0.0; 3]; 8];
    for (o, v) in out.iter_mut().zip(q.t0.iter().chain(&q.t1)) {
        for (i, c) in o.iter_mut().enumerate() {
            *c = exact_f64(v.get(i))?;
        }
    }
    Some(out)
}

/// The 24 coordinates as integers on one dyadic scale (the common factor 2^e₀
/// dropped: a positive factor changes no sign and no root).
fn coords_f64(p: &[[f64; 3]; 8]) -> [[BigInt; 3]; 8] {
    let parts = p.map(|r| r.map(|x| (x != 0.0).then(|| crate::num::dyadic::f64_parts(x))));
    let e0 = parts
        .iter()
        .flatten()
        .flatten()
        .map(|&(_, e)| e)
        .min()
        .unwrap_or(0);
    parts.map(|r| {
        r.map(|x| x.map_or_else(BigInt::zero, |(m, e)| BigInt::from(m) << (e - e0) as u64))
    })
}

/// The 24 coordinates as integers times one positive rational: over the common
/// denominator (a shift when every denominator is a power of two).
fn coords_rational(q: &PointCcd) -> [[BigInt; 3]; 8] {
    let all: Vec<&BigRational> =
        q.t0.iter()
            .chain(&q.t1)
            .flat_map(|v| [0, 1, 2].map(|i| v.get(i)))
            .collect();
    let pow2 = |d: &BigInt| d.trailing_zeros().is_some_and(|z| d.bits() == z + 1);
    let l = if all.iter().all(|x| pow2(x.denom())) {
        all.iter()
            .map(|x| x.denom())
            .max()
            .cloned()
            .unwrap_or_else(BigInt::one)
    } else {
        all.iter().fold(BigInt::one(), |l, x| l.lcm(x.denom()))
    };
    let mut out: [[BigInt; 3]; 8] = Default::default();
    for (k, x) in all.iter().enumerate() {
        out[k / 3][k % 3] = x.numer() * (&l / x.denom());
    }
    out
}

/// An integer polynomial in t (ascending powers, no trailing zeros).
#[derive(Clone, Debug, Default)]
struct Zp(Vec<BigInt>);

impl Arith for Zp {
    fn add(&self, o: &Self) -> Self {
        let (long, short) = if self.0.len() >= o.0.len() {
            (&self.0, &o.0)
        } else {
            (&o.0, &self.0)
        };
        let mut v = long.clone();
        for (x, y) in v.iter_mut().zip(short) {
            *x += y;
        }
        zx::trim(&mut v);
        Zp(v)
    }
    fn sub(&self, o: &Self) -> Self {
        let mut v = self.0.clone();
        if v.len() < o.0.len() {
            v.resize(o.0.len(), BigInt::zero());
        }
        for (x, y) in v.iter_mut().zip(&o.0) {
            *x -= y;
        }
        zx::trim(&mut v);
        Zp(v)
    }
    fn mul(&self, o: &Self) -> Self {
        Zp(zx::mul(&self.0, &o.0))
    }
    fn neg(&self) -> Self {
        Zp(self.0.iter().map(|c| -c).collect())
    }
}

/// The frame A, B, C (`formula.rs`) as linear polynomials in t, and c.
fn coplanarity(kind: Kind, x: &[[BigInt; 3]; 8]) -> ([V3<Zp>; 3], Vec<BigInt>) {
    let frame = frame_polys(kind, x);
    let c = dot(&cross(&frame[0], &frame[1]), &frame[2]).0;
    (frame, c)
}

/// The frame A, B, C (`formula.rs`) as linear polynomials in t.
fn frame_polys(kind: Kind, x: &[[BigInt; 3]; 8]) -> [V3<Zp>; 3] {
    let (base, idx) = kind.frame();
    idx.map(|j| {
        [0, 1, 2].map(|i| {
            let r0 = &x[j][i] - &x[base][i];
            let r1 = &x[4 + j][i] - &x[4 + base][i];
            let d = r1 - &r0;
            let mut v = vec![r0, d];
            zx::trim(&mut v);
            Zp(v)
        })
    })
}

impl Arith for Int {
    fn add(&self, o: &Self) -> Self {
        Int::add(self, o)
    }
    fn sub(&self, o: &Self) -> Self {
        Int::sub(self, o)
    }
    fn mul(&self, o: &Self) -> Self {
        Int::mul(self, o)
    }
    fn neg(&self) -> Self {
        Int::neg(self)
    }
}

/// The widest aligned coordinate (bits) for which c is built in fixed-width
/// integers: c's coefficients then stay below 3·(240 + 2) + 5 < 768 bits.
const FIXED_BITS: i64 = 240;

/// The doubles' parts (mantissa, exponent; `None` for zero), the least
/// exponent e₀ and the widest coordinate (bits) on the scale 2^e₀.
type Aligned = ([[Option<(i64, i64)>; 3]; 8], i64, i64);

fn aligned(p: &[[f64; 3]; 8]) -> Aligned {
    let parts = p.map(|r| r.map(|x| (x != 0.0).then(|| crate::num::dyadic::f64_parts(x))));
    let flat = parts.iter().flatten().flatten();
    let e0 = flat.clone().map(|&(_, e)| e).min().unwrap_or(0);
    let width = flat
        .map(|&(m, e)| 64 - m.unsigned_abs().leading_zeros() as i64 + e - e0)
        .max()
        .unwrap_or(0);
    (parts, e0, width)
}

/// The coordinates on the scale 2^e₀ in fixed-width integers (at most
/// [`FIXED_BITS`] wide).
fn fixed_coords(parts: &[[Option<(i64, i64)>; 3]; 8], e0: i64) -> [[Int; 3]; 8] {
    parts.map(|r| {
        r.map(|v| {
            v.map_or(Int::ZERO, |(m, e)| {
                Int::from_i128(m.into()).shl((e - e0) as u64)
            })
        })
    })
}

/// c with integer coefficients (a positive multiple) for double coordinates:
/// on the stack ([`crate::num::fixed::Int`]) when the aligned coordinates are at
/// most [`FIXED_BITS`] wide, else in `BigInt`. With A(t) = A₀ + t·dA etc.,
/// c = Σ cᵢtⁱ by blossoming: c₀ = D(A₀, B₀, C₀), c₁ = D(dA, B₀, C₀) +
/// D(A₀, dB, C₀) + D(A₀, B₀, dC), c₂ = D(A₀, dB, dC) + D(dA, B₀, dC) +
/// D(dA, dB, C₀), c₃ = D(dA, dB, dC), D(X, Y, Z) = (X × Y)·Z.
fn exact_coplanarity(kind: Kind, p: &[[f64; 3]; 8]) -> Vec<BigInt> {
    let (parts, e0, width) = aligned(p);
    if width > FIXED_BITS {
        return coplanarity(kind, &coords_f64(p)).1;
    }
    if width <= wide::NARROW_BITS {
        return narrow_coplanarity(kind, &parts, e0);
    }
    blossom(kind, &fixed_coords(&parts, e0))
}

/// [`exact_coplanarity`] for aligned coordinates at most
/// [`wide::NARROW_BITS`] wide: the same blossom formula, the differences in
/// `i128`, the products in [`wide::W`].
fn narrow_coplanarity(kind: Kind, parts: &[[Option<(i64, i64)>; 3]; 8], e0: i64) -> Vec<BigInt> {
    let x = parts.map(|r| r.map(|v| v.map_or(0i128, |(m, e)| i128::from(m) << (e - e0))));
    blossom(kind, &x)
}

/// The integer arithmetic of the blossom formula for c: coordinates and
/// their differences of type `Self`, products of two and of three of type
/// `Self::P` (wide enough for the caller's coordinate bound).
trait Blossom: Copy {
    type P;
    fn dif(self, o: Self) -> Self;
    fn prod(self, o: Self) -> Self::P;
    fn psub(x: &Self::P, y: &Self::P) -> Self::P;
    fn padd(x: &Self::P, y: &Self::P) -> Self::P;
    fn pmul(x: &Self::P, y: Self) -> Self::P;
    fn big(x: &Self::P) -> BigInt;
}

/// Differences in `i128`, products in [`wide::W`].
impl Blossom for i128 {
    type P = W;
    fn dif(self, o: Self) -> Self {
        self - o
    }
    fn prod(self, o: Self) -> W {
        W::mul_i128(self, o)
    }
    fn psub(x: &W, y: &W) -> W {
        x.sub(y)
    }
    fn padd(x: &W, y: &W) -> W {
        x.add(y)
    }
    fn pmul(x: &W, y: i128) -> W {
        x.mul_by_i128(y)
    }
    fn big(x: &W) -> BigInt {
        x.to_bigint()
    }
}

/// Everything in [`crate::num::fixed::Int`].
impl Blossom for Int {
    type P = Int;
    fn dif(self, o: Self) -> Self {
        Int::sub(&self, &o)
    }
    fn prod(self, o: Self) -> Int {
        Int::mul(&self, &o)
    }
    fn psub(x: &Int, y: &Int) -> Int {
        x.sub(y)
    }
    fn padd(x: &Int, y: &Int) -> Int {
        x.add(y)
    }
    fn pmul(x: &Int, y: Int) -> Int {
        x.mul(&y)
    }
    fn big(x: &Int) -> BigInt {
        x.to_bigint()
    }
}

/// c's coefficients from the coordinates on one scale (`x[k][i]`: point k,
/// coordinate i; points 4..8 at t = 1) by the blossom formula
/// ([`exact_coplanarity`]).
fn blossom<X: Blossom>(kind: Kind, x: &[[X; 3]; 8]) -> Vec<BigInt> {
    let (base, idx) = kind.frame();
    let r0: [[X; 3]; 3] = idx.map(|j| [0, 1, 2].map(|i| x[j][i].dif(x[base][i])));
    let d: [[X; 3]; 3] =
        [0, 1, 2].map(|j| [0, 1, 2].map(|i| x[4 + idx[j]][i].dif(x[4 + base][i]).dif(r0[j][i])));
    let cross = |u: &[X; 3], v: &[X; 3]| {
        [0, 1, 2].map(|k| {
            let (a, b) = ((k + 1) % 3, (k + 2) % 3);
            X::psub(&u[a].prod(v[b]), &u[b].prod(v[a]))
        })
    };
    let dot = |u: &[X::P; 3], v: &[X; 3]| {
        X::padd(
            &X::padd(&X::pmul(&u[0], v[0]), &X::pmul(&u[1], v[1])),
            &X::pmul(&u[2], v[2]),
        )
    };
    let ([a0, b0, c0], [da, db, dc]) = (&r0, &d);
    let (x00, x01, x10, x11) = (cross(a0, b0), cross(a0, db), cross(da, b0), cross(da, db));
    let c = [
        dot(&x00, c0),
        X::padd(&X::padd(&dot(&x10, c0), &dot(&x01, c0)), &dot(&x00, dc)),
        X::padd(&X::padd(&dot(&x01, dc), &dot(&x10, dc)), &dot(&x11, c0)),
        dot(&x11, dc),
    ];
    let mut v: Vec<BigInt> = c.iter().map(X::big).collect();
    zx::trim(&mut v);
    v
}

/// `c` divided by its content, leading coefficient positive (as
/// `zx::primitive`), the content by the fixed-width binary gcd
/// ([`crate::num::fixed::gcd`]) when the coefficients fit it.
fn primitive(c: &mut [BigInt]) {
    const FIT: u64 = 64 * (crate::num::fixed::L as u64 - 1);
    if c.iter().any(|x| x.bits() > FIT) {
        return zx::primitive(c);
    }
    let g = c
        .iter()
        .filter(|x| !x.is_zero())
        .map(|x| crate::num::fixed::Nat::from_biguint(x.magnitude()))
        .reduce(|a, b| crate::num::fixed::gcd(&a, &b));
    let Some(g) = g else {
        return;
    };
    let neg = c.last().is_some_and(|x| x.is_negative());
    let g = BigInt::from(g.to_biguint());
    let g = if neg { -g } else { g };
    if !g.is_one() {
        for x in c.iter_mut() {
            *x = &*x / &g;
        }
    }
}

/// The contact condition decided exactly at the root ρ of c that `t` encloses
/// (the filter proved it is c's only root between the doubles, neither a root);
/// `None` if c is not proven square-free.
fn exact_contact_at(kind: Kind, p: &[[f64; 3]; 8], c: &[BigInt], t: filter::Tight) -> Option<bool> {
    let mut f = c.to_vec();
    primitive(&mut f);
    if f.len() < 2 || !(f.len() == 2 || zx::square_free_mod_p(&f)) {
        return None;
    }
    let mut x = match t {
        filter::Tight::At(x) => RealRoot::Exact(filter::rational(x)),
        filter::Tight::Between(lo, hi) => {
            let (lo, hi) = (filter::rational(lo), filter::rational(hi));
            let s_lo = zx::sign_at(&f, &lo);
            RealRoot::Interval(IsolatingInterval::new_unchecked(
                f.clone().into(),
                lo,
                hi,
                s_lo,
            ))
        }
    };
    // Each term's sign: interval arithmetic between the doubles around ρ, else
    // its integer polynomial (built only then) at ρ.
    let (lo, hi) = match t {
        filter::Tight::At(x) => (x, x),
        filter::Tight::Between(lo, hi) => (lo, hi),
    };
    let iv = filter::interval_frame(kind, p, lo, hi);
    let quick = Contact::new(kind, &iv[0], &iv[1], &iv[2]);
    if let Some(frame) = fixed_frame(kind, p) {
        return holds_at(kind, &quick, &frame, &mut x, &f, |g| g.coeffs().into());
    }
    let frame = frame_polys(kind, &coords_f64(p));
    holds_at(kind, &quick, &frame, &mut x, &f, |g: &Zp| {
        g.0.as_slice().into()
    })
}

/// The frame A, B, C as linear polynomials in t with fixed-width
/// coefficients ([`fp::Fp`]), the differences in `i128` when the aligned
/// coordinates are at most [`wide::NARROW_BITS`] wide; `None` past
/// [`fp::FP_BITS`].
fn fixed_frame(kind: Kind, p: &[[f64; 3]; 8]) -> Option<[V3<fp::Fp>; 3]> {
    let (parts, e0, width) = aligned(p);
    let (base, idx) = kind.frame();
    if width <= wide::NARROW_BITS {
        // Differences (and their changes) in i128: below 2^(NARROW_BITS + 2).
        let y = parts.map(|r| r.map(|v| v.map_or(0i128, |(m, e)| i128::from(m) << (e - e0))));
        return Some(fp::frame(|j, i| {
            let r0 = y[idx[j]][i] - y[base][i];
            let d = y[4 + idx[j]][i] - y[4 + base][i] - r0;
            (Int::from_i128(r0), Int::from_i128(d))
        }));
    }
    if width > fp::FP_BITS {
        return None;
    }
    let y = fixed_coords(&parts, e0);
    Some(fp::frame(|j, i| {
        let r0 = y[idx[j]][i].sub(&y[base][i]);
        (r0, y[4 + idx[j]][i].sub(&y[4 + base][i]).sub(&r0))
    }))
}

/// The contact condition at the root x of f: each term's sign by interval
/// arithmetic (`quick`) if it decides, else exactly from its integer
/// polynomial on the frame (`coeffs`: its coefficients), built only then.
fn holds_at<T: Arith>(
    kind: Kind,
    quick: &Contact<crate::Interval>,
    frame: &[V3<T>; 3],
    x: &mut RealRoot,
    f: &[BigInt],
    coeffs: impl Fn(&T) -> std::borrow::Cow<'_, [BigInt]>,
) -> Option<bool> {
    let contact = Contact::new(kind, &frame[0], &frame[1], &frame[2]);
    contact.holds(&mut |term| {
        filter::interval_sign(&quick.term(term)).or_else(|| {
            // A part's interval sign where it decides (a term whole was
            // just tried), else its exact sign at the root.
            Some(contact.term_sign(term, &mut |p| {
                let q = match p {
                    Part::Whole(_) => None,
                    _ => filter::interval_sign(&quick.part(p)),
                };
                q.unwrap_or_else(|| sign_at_root(x, f, &coeffs(&contact.part(p))))
            }))
        })
    })
}

/// The exact sign of `g` at the root `x` of the primitive square-free `f`
/// (positive leading coefficient), by [`sign_at_isolated`] on x's enclosure.
fn sign_at_root(x: &mut RealRoot, f: &[BigInt], g: &[BigInt]) -> Ordering {
    match x {
        RealRoot::Exact(q) => zx::sign_at(g, q),
        RealRoot::Interval(i) => sign_at_isolated(f, i.lo(), i.hi(), i.sign_at_lo(), g),
    }
}

/// `Some(k)` if `d = 2ᵏ`.
fn pow2_exp(d: &BigInt) -> Option<u64> {
    let z = d.trailing_zeros()?;
    (d.bits() == z + 1).then_some(z)
}

/// The exact sign of `g` at ρ, the only root of the square-free `f` (positive
/// leading coefficient) in (lo, hi), f(lo) of sign `s_lo` ≠ 0. `g` is reduced
/// modulo f first (lc(f)ᵏ·g = q·f + r: the same sign at ρ, and deg r < deg f);
/// r(ρ) = 0 iff gcd(f, r) changes sign over (lo, hi) (it divides f, whose only
/// root there is ρ); otherwise a remainder of degree 1 or 2 gets its sign in
/// closed form ([`sign_low_degree`]), and a higher one by bisecting (lo, hi)
/// around ρ, in integers over powers of two (no gcd), until r keeps one sign on
/// it (ends of one sign and no root inside: Descartes' rule).
fn sign_at_isolated(
    f: &[BigInt],
    lo: &BigRational,
    hi: &BigRational,
    s_lo: Ordering,
    g: &[BigInt],
) -> Ordering {
    let r = if g.len() >= f.len() && f.len() > 1 {
        zx::prem(g, f)
    } else {
        g.to_vec()
    };
    match r.len() {
        0 => return Ordering::Equal,
        1 => return zx::ord_of(&r[0]),
        _ => {}
    }
    // For a quadratic r, prem(f, ±r) with the leading coefficient made
    // positive: both tests below use it (its roots, and its sign).
    let s2 = (r.len() == 3).then(|| {
        let rp: Vec<BigInt> = if r[2].is_negative() {
            r.iter().map(|c| -c).collect()
        } else {
            r.clone()
        };
        zx::prem(f, &rp)
    });
    if vanishes_at_root(f, lo, hi, &r, s2.as_deref()) {
        return Ordering::Equal;
    }
    if let Some(s) = sign_low_degree(f, lo, hi, s_lo, &r, s2.as_deref()) {
        return s;
    }
    let (Some(kl), Some(kh)) = (pow2_exp(lo.denom()), pow2_exp(hi.denom())) else {
        let i = IsolatingInterval::new_unchecked(f.to_vec().into(), lo.clone(), hi.clone(), s_lo);
        return RealRoot::Interval(i).sign_of_integer(&r);
    };
    let mut k = kl.max(kh);
    let (mut a, mut b) = (lo.numer() << (k - kl), hi.numer() << (k - kh));
    loop {
        let den = BigInt::one() << k;
        let sa = zx::ord_of(&zx::eval_hom(&r, &a, &den));
        let sb = zx::ord_of(&zx::eval_hom(&r, &b, &den));
        if sa == sb && sa != Ordering::Equal && no_root_between(&r, &a, &b, k, sa) {
            return sa;
        }
        // Bisect at the next level: a/2ᵏ = 2a/2ᵏ⁺¹, the midpoint is (a + b)/2ᵏ⁺¹.
        let mid = &a + &b;
        a <<= 1u32;
        b <<= 1u32;
        k += 1;
        let den = BigInt::one() << k;
        match zx::ord_of(&zx::eval_hom(f, &mid, &den)) {
            Ordering::Equal => return zx::ord_of(&zx::eval_hom(&r, &mid, &den)),
            s if s == s_lo => a = mid,
            _ => b = mid,
        }
    }
}

/// A rational point num/den (den > 0), unreduced.
type Frac = (BigInt, BigInt);

/// The sign of num/den − x.
fn cmp_frac_q((num, den): &Frac, x: &BigRational) -> Ordering {
    (num * x.denom()).cmp(&(x.numer() * den))
}

/// The sign of p at num/den (den > 0).
fn sign_frac(p: &[BigInt], (num, den): &Frac) -> Ordering {
    zx::ord_of(&zx::eval_hom(p, num, den))
}

/// The exact sign of r at ρ, the only root of the square-free f in (lo, hi)
/// (f(lo) of sign `s_lo` ≠ 0), for r of degree 1 or 2 with r(ρ) ≠ 0, in a
/// bounded number of rational evaluations instead of bisection; `None` for
/// other degrees (or if an assumption is found false).
///
/// With r's leading coefficient made positive: a linear r has its root
/// x₀ = −r₀/r₁, and r(ρ) has the sign of ρ − x₀, which the sign of f at x₀
/// decides (f keeps the sign s_lo left of ρ in (lo, hi), the other right of
/// it). A quadratic r is monotone on each side of its vertex v; the sign of
/// f at v says on which side ρ is, leaving a piece (a, b) ∋ ρ where r is
/// monotone. If r does not change sign over it, that is the sign; otherwise r
/// has one root x* there and r(ρ) has r(b)'s sign if x* < ρ, r(a)'s if
/// x* > ρ, i.e. by the sign of f(x*). With s = prem(f, r) = lc(r)ᵏ·f mod r
/// (deg s ≤ 1, lc(r) > 0), f(x*) has the sign of s(x*); for a linear s that
/// is the side of x* relative to σ = −s₀/s₁, which the sign of r at σ
/// decides (r monotone on (a, b)). `prem_f_r`: that s, if already computed.
fn sign_low_degree(
    f: &[BigInt],
    lo: &BigRational,
    hi: &BigRational,
    s_lo: Ordering,
    r: &[BigInt],
    prem_f_r: Option<&[BigInt]>,
) -> Option<Ordering> {
    if !(2..=3).contains(&r.len()) {
        return None;
    }
    // r with a positive leading coefficient; `flip` restores the sign.
    let flip = r.last()?.is_negative();
    let r: Vec<BigInt> = if flip {
        r.iter().map(|c| -c).collect()
    } else {
        r.to_vec()
    };
    let back = |s: Ordering| if flip { s.reverse() } else { s };
    let lo_f: Frac = (lo.numer().clone(), lo.denom().clone());
    let hi_f: Frac = (hi.numer().clone(), hi.denom().clone());
    // Where ρ is relative to the point p in (lo, hi): the sign of ρ − p.
    let side_of = |p: &Frac| match sign_frac(f, p) {
        Ordering::Equal => Ordering::Equal,
        s if s == s_lo => Ordering::Greater,
        _ => Ordering::Less,
    };
    // Whether num/den is strictly inside (lo, hi).
    let inside = |p: &Frac| cmp_frac_q(p, lo).is_gt() && cmp_frac_q(p, hi).is_lt();
    if r.len() == 2 {
        let x0: Frac = (-r[0].clone(), r[1].clone());
        let s = if cmp_frac_q(&x0, lo).is_le() {
            Ordering::Greater
        } else if cmp_frac_q(&x0, hi).is_ge() {
            Ordering::Less
        } else {
            side_of(&x0)
        };
        return (s != Ordering::Equal).then(|| back(s));
    }
    // The monotone piece (a, b) of r that holds ρ.
    let v: Frac = (-r[1].clone(), &r[2] << 1u32);
    let (mut a, mut b) = (lo_f, hi_f);
    if inside(&v) {
        match side_of(&v) {
            Ordering::Equal => return None,
            Ordering::Greater => a = v,
            Ordering::Less => b = v,
        }
    }
    let (ra, rb) = (sign_frac(&r, &a), sign_frac(&r, &b));
    if ra == rb {
        return (ra != Ordering::Equal).then(|| back(ra));
    }
    if ra == Ordering::Equal {
        return Some(back(rb));
    }
    if rb == Ordering::Equal {
        return Some(back(ra));
    }
    // One root x* of r in (a, b): the sign of f(x*) from s = prem(f, r).
    let mut s = prem_f_r.map_or_else(|| zx::prem(f, &r), <[BigInt]>::to_vec);
    let fx = match s.len() {
        0 => return None,
        1 => zx::ord_of(&s[0]),
        2 => {
            let sflip = s[1].is_negative();
            if sflip {
                s.iter_mut().for_each(|c| *c = -std::mem::take(c));
            }
            let sigma: Frac = (-s[0].clone(), s[1].clone());
            let cmp_ab = |p: &Frac, q: &Frac| (&p.0 * &q.1).cmp(&(&q.0 * &p.1));
            // The sign of x* − σ.
            let x_vs_sigma = if cmp_ab(&sigma, &a).is_le() {
                Ordering::Greater
            } else if cmp_ab(&sigma, &b).is_ge() {
                Ordering::Less
            } else {
                match sign_frac(&r, &sigma) {
                    Ordering::Equal => return None,
                    s if s == ra => Ordering::Greater,
                    _ => Ordering::Less,
                }
            };
            if sflip {
                x_vs_sigma.reverse()
            } else {
                x_vs_sigma
            }
        }
        _ => return None,
    };
    match fx {
        Ordering::Equal => None,
        // f(x*) of the sign left of ρ: x* < ρ, so r(ρ) has r(b)'s sign.
        s if s == s_lo => Some(back(rb)),
        _ => Some(back(ra)),
    }
}

/// Whether r(ρ) = 0 for ρ the only root of the square-free f in (lo, hi),
/// deg r ≥ 1, deg r < deg f. Without a gcd of big polynomials where the degree
/// is small: for a linear r the candidate −r₀/r₁ is tested in f; for a quadratic
/// r, a common root of f and r is one of s = prem(f, r) (deg s ≤ 1): s ≡ 0 means
/// r divides f, so r vanishes at ρ iff it has a root in (lo, hi); a constant s
/// means no common root; a linear s has the only candidate −s₀/s₁.
/// `prem_f_r`: prem(f, ±r) (leading coefficient made positive), if already
/// computed.
fn vanishes_at_root(
    f: &[BigInt],
    lo: &BigRational,
    hi: &BigRational,
    r: &[BigInt],
    prem_f_r: Option<&[BigInt]>,
) -> bool {
    // Whether the root −p₀/p₁ of a linear p is in (lo, hi) and a root of q
    // (cross-multiplied, unreduced: no gcd).
    let root_of = |p: &[BigInt], q: &[BigInt]| -> bool {
        let (mut num, mut den) = (-p[0].clone(), p[1].clone());
        if den.is_negative() {
            num = -num;
            den = -den;
        }
        &num * lo.denom() > lo.numer() * &den
            && &num * hi.denom() < hi.numer() * &den
            && zx::eval_hom(q, &num, &den).is_zero()
    };
    match r.len() {
        2 => root_of(r, f),
        3 => {
            let s = prem_f_r.map_or_else(|| zx::prem(f, r), <[BigInt]>::to_vec);
            match s.len() {
                0 => {
                    let (a, b) = (zx::sign_at(r, lo), zx::sign_at(r, hi));
                    a != b || a == Ordering::Equal || {
                        // One sign at both ends: two roots inside or none.
                        let v = BigRational::new(-r[1].clone(), &r[2] * 2u32);
                        &v > lo && &v < hi && zx::sign_at(r, &v) != a
                    }
                }
                1 => false,
                _ => root_of(&s, r),
            }
        }
        _ => {
            let gg = zx::gcd(f, r);
            gg.len() > 1 && zx::sign_at(&gg, lo) != zx::sign_at(&gg, hi)
        }
    }
}

/// Whether `r` (degree ≥ 1, of sign `s` ≠ 0 at both ends) has no root in
/// (a/2ᵏ, b/2ᵏ).
fn no_root_between(r: &[BigInt], a: &BigInt, b: &BigInt, k: u64, s: Ordering) -> bool {
    match r.len() {
        2 => true,
        3 => {
            // The vertex v = −r₁/(2r₂): outside the interval r is monotone there;
            // inside, r(v) = (4r₀r₂ − r₁²)/(4r₂) must have the ends' sign.
            let (mut num, mut den) = (-(&r[1] << k), &r[2] << 1u32);
            if den.is_negative() {
                num = -num;
                den = -den;
            }
            if !(a * &den < num && num < b * &den) {
                return true;
            }
            let disc = &r[0] * &r[2] * 4u32 - &r[1] * &r[1];
            let sv = zx::ord_of(&disc);
            let sv = if r[2].is_negative() { sv.reverse() } else { sv };
            sv == s
        }
        _ => {
            let den = BigInt::one() << k;
            zx::descartes_interval(
                r,
                &BigRational::new_raw(a.clone(), den.clone()),
                &BigRational::new_raw(b.clone(), den),
            ) == 0
        }
    }
}

/// A candidate time: a root of the polynomial `of`.
struct Candidate<'a> {
    x: RealRoot,
    of: &'a [BigInt],
}

/// The roots of `p` in [lo, hi] appended to `out`; `false` if p ≡ 0.
fn roots_in<'a>(
    p: &'a [BigInt],
    lo: &BigRational,
    hi: &BigRational,
    out: &mut Vec<Candidate<'a>>,
) -> bool {
    match isolate_roots(&Poly::from_bigints(p), lo, hi) {
        Roots::Isolated(r) => {
            out.extend(r.into_iter().map(|r| Candidate { x: r.value, of: p }));
            true
        }
        Roots::Everywhere => false,
    }
}

/// The exact method on integer coordinates. With `doubles` (the same points as
/// doubles), the contact condition at a root is first tried in interval
/// arithmetic on a narrow enclosure of the root, and computed exactly only when
/// that does not decide.
fn exact_answer(
    kind: Kind,
    x: &[[BigInt; 3]; 8],
    m: u32,
    doubles: Option<&[[f64; 3]; 8]>,
) -> PointCcdAnswer {
    let (frame, c) = coplanarity(kind, x);
    let mut candidates = Vec::new();
    let (zero, one) = (BigRational::zero(), BigRational::one());
    let always_coplanar = !roots_in(&c, &zero, &one, &mut candidates);
    if !always_coplanar && candidates.is_empty() {
        return PointCcdAnswer::Miss;
    }
    let contact = Contact::new(kind, &frame[0], &frame[1], &frame[2]);
    let mut terms = Terms::default();
    if !always_coplanar {
        return first_of(kind, candidates, doubles, m, &contact, &mut terms);
    }
    // Always coplanar: 0, then every root of every polynomial of the condition,
    // in exact increasing order. With doubles, only in the pieces of [0, 1]
    // where interval arithmetic does not prove the condition false (the first
    // contact is in one of them, at 0 or a root).
    // At t = 0: interval arithmetic on the exact start positions first (with
    // doubles), the exact signs of the polynomials when it does not decide.
    let at_start = doubles
        .and_then(|p| filter::contact_interval(kind, p, 0.0, 0.0))
        .or_else(|| contact.holds(&mut |t| Some(zx::sign_at(&terms.get(&contact, t).0, &zero))));
    if at_start == Some(true) {
        return PointCcdAnswer::Hit(ContactTime::at_start());
    }
    // Each range exactly, and as doubles when the coordinates are doubles.
    type Range = (BigRational, BigRational, Option<(f64, f64)>);
    let ranges: Vec<Range> = match doubles {
        Some(p) => {
            let mut v = Vec::new();
            filter::undecided(kind, p, 0.0, 1.0, 0, &mut v);
            v.iter()
                .map(|&(a, b)| (filter::rational(a), filter::rational(b), Some((a, b))))
                .collect()
        }
        None => vec![(zero, one, None)],
    };
    // Each polynomial factored once (square-free factors), when first needed,
    // its roots isolated in every range.
    let polys: Vec<(Term, OnceCell<Zp>, OnceCell<Option<Factored>>)> = contact
        .terms()
        .map(|t| (t, OnceCell::new(), OnceCell::new()))
        .collect();
    for (lo, hi, range) in &ranges {
        // With doubles, a polynomial whose interval value over the range has a
        // certain sign has no root there (and is not factored for it).
        let iv = range
            .zip(doubles)
            .map(|((a, b), p)| filter::interval_frame(kind, p, a, b));
        let quick = iv.as_ref().map(|v| Contact::new(kind, &v[0], &v[1], &v[2]));
        let mut candidates = Vec::new();
        for (t, p, f) in &polys {
            let rootless = quick
                .as_ref()
                .and_then(|q| filter::interval_sign(&q.term(*t)))
                .is_some_and(Ordering::is_ne);
            if rootless {
                continue;
            }
            let p = p.get_or_init(|| terms.get(&contact, *t).clone());
            if let Some(f) = f.get_or_init(|| Factored::new(&p.0)) {
                candidates.extend(f.roots(lo, hi).into_iter().map(|r| Candidate {
                    x: r.value,
                    of: &p.0,
                }));
            }
        }
        candidates.sort_by(|a, b| a.x.cmp_exact(&b.x));
        let hit = first_of(kind, candidates, doubles, m, &contact, &mut terms);
        if let PointCcdAnswer::Hit(_) = hit {
            return hit;
        }
    }
    PointCcdAnswer::Miss
}

/// The condition's integer polynomials, each built once, when first needed.
#[derive(Default)]
struct Terms(Vec<(Term, Zp)>);

impl Terms {
    fn get(&mut self, contact: &Contact<Zp>, t: Term) -> &Zp {
        let i = match self.0.iter().position(|(u, _)| *u == t) {
            Some(i) => i,
            None => {
                self.0.push((t, contact.term(t)));
                self.0.len() - 1
            }
        };
        &self.0[i].1
    }
}

/// The first candidate, in the given (increasing) order, at which the contact
/// condition holds: interval arithmetic on a narrow enclosure first (with
/// doubles), exact signs when that does not decide.
fn first_of(
    kind: Kind,
    candidates: Vec<Candidate>,
    doubles: Option<&[[f64; 3]; 8]>,
    m: u32,
    contact: &Contact<Zp>,
    terms: &mut Terms,
) -> PointCcdAnswer {
    for Candidate { mut x, of } in candidates {
        let quick = doubles.and_then(|p| {
            // Doubles around the root: its enclosure, refined, rounded outward.
            x.refine_to_width(&BigRational::new(BigInt::one(), BigInt::one() << 48u32));
            let (lo, hi) = (x.lo().to_f64()?.next_down(), x.hi().to_f64()?.next_up());
            let (lo, hi) = (lo.max(0.0), hi.min(1.0));
            let (lo, hi) = match x.as_exact() {
                Some(q) if q.is_zero() => (0.0, 0.0),
                Some(q) if q.is_one() => (1.0, 1.0),
                _ => (lo, hi),
            };
            filter::contact_interval(kind, p, lo, hi)
        });
        let holds = quick.unwrap_or_else(|| {
            let f: Vec<BigInt> = match &x {
                RealRoot::Interval(i) => i.coeffs().to_vec(),
                RealRoot::Exact(_) => Vec::new(),
            };
            contact.holds(&mut |t| Some(sign_at_root(&mut x, &f, &terms.get(contact, t).0)))
                == Some(true)
        });
        if holds {
            if x.as_exact().is_some_and(Zero::is_zero) {
                return PointCcdAnswer::Hit(ContactTime::at_start());
            }
            return PointCcdAnswer::Hit(canonical_time(of, x, m));
        }
    }
    PointCcdAnswer::Miss
}

impl ContactTime {
    fn at_start() -> Self {
        ContactTime {
            kind: TimeKind::Start,
            lo: BigRational::zero(),
            hi: BigRational::zero(),
            poly: Vec::new(),
            f64: 0.0,
        }
    }
}

/// An exactly known rational time: the linear polynomial den·t − num.
fn exact_time(x: &BigRational) -> ContactTime {
    ContactTime {
        kind: TimeKind::Root,
        lo: x.clone(),
        hi: x.clone(),
        poly: vec![-x.numer().clone(), x.denom().clone()],
        f64: RealRoot::Exact(x.clone()).to_f64(),
    }
}

/// The square-free factor of `p` (primitive, positive leading coefficient) that
/// vanishes at the rational `q`.
fn factor_at(p: &[BigInt], q: &BigRational) -> Vec<BigInt> {
    let mut f = p.to_vec();
    zx::primitive(&mut f);
    if f.len() <= 2 || zx::square_free_mod_p(&f) {
        return f;
    }
    zx::square_free_factors(&f)
        .into_iter()
        .map(|(g, _)| g)
        .find(|g| zx::sign_at(g, q) == Ordering::Equal)
        .expect("q is a root of p")
}

/// The canonical report of the root `x` of `of` (module docs, "The reported time").
fn canonical_time(of: &[BigInt], mut x: RealRoot, m0: u32) -> ContactTime {
    let f: Vec<BigInt> = match &x {
        RealRoot::Interval(i) => i.coeffs().to_vec(),
        RealRoot::Exact(q) => factor_at(of, q),
    };
    if f.len() == 2 {
        return exact_time(&BigRational::new(-f[0].clone(), f[1].clone()));
    }
    let mut m = m0;
    loop {
        let den = BigInt::one() << m;
        x.refine_to_width(&BigRational::new(BigInt::one(), den.clone()));
        // The cell [k, k + 1]·2⁻ᵐ around the root, or the root itself on the grid.
        let k = match &x {
            RealRoot::Exact(q) => {
                let scaled = q.numer() * &den;
                if scaled.is_multiple_of(q.denom()) {
                    return exact_time(q);
                }
                scaled.div_floor(q.denom())
            }
            RealRoot::Interval(i) => {
                let g = (i.lo().numer() * &den).div_ceil(i.lo().denom());
                let gq = BigRational::new(g.clone(), den.clone());
                if &gq < i.hi() {
                    match i.cmp_rational(&gq) {
                        Ordering::Equal => return exact_time(&gq),
                        Ordering::Less => g - 1,
                        Ordering::Greater => g,
                    }
                } else {
                    g - 1
                }
            }
        };
        let lo = BigRational::new(k.clone(), den.clone());
        let hi = BigRational::new(k + 1, den);
        let (s_lo, s_hi) = (zx::sign_at(&f, &lo), zx::sign_at(&f, &hi));
        if s_lo != Ordering::Equal && s_hi == s_lo.reverse() && single_root(&f, &lo, &hi) {
            // x is refined inside the cell: the same root.
            let f64 = x.to_f64();
            return ContactTime {
                kind: TimeKind::Root,
                lo,
                hi,
                poly: f,
                f64,
            };
        }
        m += 1;
    }
}

/// Whether the square-free `f`, with a sign change over (lo, hi), has no other
/// root there.
fn single_root(f: &[BigInt], lo: &BigRational, hi: &BigRational) -> bool {
    zx::descartes_interval(f, lo, hi) == 1
        || isolate_roots(&Poly::from_bigints(f), lo, hi)
            .isolated()
            .len()
            == 1
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Vec3;

    fn q(t0: [[i64; 3]; 4], t1: [[i64; 3]; 4]) -> PointCcd {
        // Coordinates in quarters, so 1/4-steps are exact.
        let v = |p: [i64; 3]| p.map(|c| BigRational::new(c.into(), 4.into()));
        let v3 = |p: [i64; 3]| {
            let [x, y, z] = v(p);
            Vec3::new(x, y, z)
        };
        PointCcd {
            t0: t0.map(v3),
            t1: t1.map(v3),
            tolerance: BigRational::new(1.into(), 1000.into()),
        }
    }

    fn time(a: PointCcdAnswer) -> Option<(TimeKind, BigRational)> {
        match a {
            PointCcdAnswer::Miss => None,
            PointCcdAnswer::Hit(c) => {
                // The exact time, whether reported as a point or an isolating
                // interval of its polynomial.
                let mut x = c.to_real_root().expect("certificate verifies");
                assert!(x.make_exact_if_rational(), "these times are rational");
                Some((c.kind, x.as_exact().unwrap().clone()))
            }
        }
    }

    fn r(n: i64, d: i64) -> BigRational {
        BigRational::new(n.into(), d.into())
    }

    /// Hand-checked answers in the configurations the cubic c(t) cannot decide.
    #[test]
    fn degenerate_configurations() {
        // ee, always coplanar (z = 0): b = x-offset vertical segment moving from
        // x = 2 to x = 0 hits a's end (1, 0) when 2 − 2t = 1, t = 1/2.
        let a = q(
            [[0, 0, 0], [4, 0, 0], [8, -4, 0], [8, 4, 0]],
            [[0, 0, 0], [4, 0, 0], [0, -4, 0], [0, 4, 0]],
        );
        assert_eq!(time(ee(&a).unwrap()), Some((TimeKind::Root, r(1, 2))));
        // ee, collinear and parallel all along: b0 at x = 3 − 3t reaches a1 at x = 1
        // when t = 2/3.
        let b = q(
            [[0, 0, 0], [4, 0, 0], [12, 0, 0], [16, 0, 0]],
            [[0, 0, 0], [4, 0, 0], [0, 0, 0], [4, 0, 0]],
        );
        assert_eq!(time(ee(&b).unwrap()), Some((TimeKind::Root, r(2, 3))));
        // ee, parallel lines one unit apart in z, never meeting: a miss.
        let c = q(
            [[0, 0, 0], [4, 0, 0], [-8, 0, 4], [8, 0, 4]],
            [[0, 0, 0], [4, 0, 0], [-8, 4, 4], [8, 4, 4]],
        );
        assert!(time(ee(&c).unwrap()).is_none());
        // vf, always coplanar: v slides along y = 1/4 from x = −1 to x = 1 and
        // enters the unit right triangle at x = 0, t = 1/2.
        let d = q(
            [[-4, 1, 0], [0, 0, 0], [4, 0, 0], [0, 4, 0]],
            [[4, 1, 0], [0, 0, 0], [4, 0, 0], [0, 4, 0]],
        );
        assert_eq!(time(vf(&d).unwrap()), Some((TimeKind::Root, r(1, 2))));
        // vf, always coplanar, passing at y = 2 above the triangle: a miss.
        let e = q(
            [[-4, 8, 0], [0, 0, 0], [4, 0, 0], [0, 4, 0]],
            [[4, 8, 0], [0, 0, 0], [4, 0, 0], [0, 4, 0]],
        );
        assert!(time(vf(&e).unwrap()).is_none());
        // vf, always coplanar and inside at t = 0: start.
        let f = q(
            [[1, 1, 0], [0, 0, 0], [4, 0, 0], [0, 4, 0]],
            [[8, 8, 0], [0, 0, 0], [4, 0, 0], [0, 4, 0]],
        );
        assert_eq!(time(vf(&f).unwrap()), Some((TimeKind::Start, r(0, 1))));
        // vf, the face collapses onto the segment f0f1 at t = 1/2 (f2 = (0, 1 − 2t, 0))
        // just as v = (1/2, 0, 1 − 2t) crosses it: c = (1 − 2t)², n = 0 at the root,
        // and v is on the collapsed face.
        let g = q(
            [[2, 0, 4], [0, 0, 0], [4, 0, 0], [0, 4, 0]],
            [[2, 0, -4], [0, 0, 0], [4, 0, 0], [0, -4, 0]],
        );
        assert_eq!(time(vf(&g).unwrap()), Some((TimeKind::Root, r(1, 2))));
        // The same collapse with v crossing at x = 2, beyond the collapsed face
        // [0, 1] on the x axis: a miss.
        let h = q(
            [[8, 0, 4], [0, 0, 0], [4, 0, 0], [0, 4, 0]],
            [[8, 0, -4], [0, 0, 0], [4, 0, 0], [0, -4, 0]],
        );
        assert!(time(vf(&h).unwrap()).is_none());
    }

    fn splitmix(s: &mut u64) -> u64 {
        crate::poly::planted::splitmix64(s)
    }

    /// Doubles of mixed magnitudes: grid values, uniform ones, tiny ones.
    fn random_points(s: &mut u64) -> [[f64; 3]; 8] {
        std::array::from_fn(|_| {
            std::array::from_fn(|_| match splitmix(s) % 4 {
                0 => (splitmix(s) % 33) as f64 / 8.0 - 2.0,
                1 => (splitmix(s) >> 11) as f64 / (1u64 << 53) as f64 - 0.5,
                2 => ((splitmix(s) >> 11) as f64 / (1u64 << 53) as f64 - 0.5) * 1e-17,
                _ => 0.0,
            })
        })
    }

    /// The fixed-width blossom formula for c gives the same integer polynomial
    /// as multiplying out the linear polynomials in `BigInt`.
    #[test]
    fn fixed_width_cubic_matches_bigint_product() {
        let mut s = 99u64;
        for case in 0..300 {
            let p = random_points(&mut s);
            for kind in [Kind::VertexFace, Kind::EdgeEdge] {
                let (_, c) = coplanarity(kind, &coords_f64(&p));
                assert_eq!(exact_coplanarity(kind, &p), c, "case {case}");
            }
        }
    }

    /// The narrow (i128 / 384-bit) cubic equals the `BigInt` product on
    /// coordinates of at most 120 aligned bits, including ones at the bound.
    #[test]
    fn narrow_cubic_matches_bigint_product() {
        let mut s = 77u64;
        let mut tested = 0;
        for case in 0..600 {
            let mut p = random_points(&mut s);
            if case % 3 == 0 {
                // Spread 2¹¹⁹ .. 2⁻¹ (with 53-bit mantissas): at the bound.
                p[(case / 3) % 8][case % 3] = 2f64.powi(66) * (1.0 - f64::EPSILON);
            }
            let parts = p.map(|r| r.map(|x| (x != 0.0).then(|| crate::num::dyadic::f64_parts(x))));
            let flat = parts.iter().flatten().flatten();
            let e0 = flat.clone().map(|&(_, e)| e).min().unwrap_or(0);
            let width = flat
                .map(|&(m, e)| 64 - m.unsigned_abs().leading_zeros() as i64 + e - e0)
                .max()
                .unwrap_or(0);
            if width > wide::NARROW_BITS {
                continue;
            }
            for kind in [Kind::VertexFace, Kind::EdgeEdge] {
                let (_, c) = coplanarity(kind, &coords_f64(&p));
                assert_eq!(narrow_coplanarity(kind, &parts, e0), c, "case {case}");
                tested += 1;
            }
        }
        assert!(tested > 300, "{tested}");
    }

    /// The condition's polynomials built in fixed width (`fp.rs`, both the
    /// i128 and the 768-bit frame) equal those built in `BigInt`, part by
    /// part, on narrow, wide (past 120 bits) and degenerate frames; past
    /// `FP_BITS` there is no fixed-width frame.
    #[test]
    fn fixed_width_terms_match_bigint() {
        let mut s = 11u64;
        let (mut narrow, mut wide) = (0, 0);
        for case in 0..300 {
            let mut p = random_points(&mut s);
            match case % 3 {
                // Spread the exponents: aligned widths past 120 bits.
                1 => p[case % 8][case % 3] *= (2.0f64).powi(-40 - (case % 30) as i32),
                2 => p[case % 8] = p[(case + 1) % 8],
                _ => {}
            }
            let width = aligned(&p).2;
            for kind in [Kind::VertexFace, Kind::EdgeEdge] {
                let Some(fixed) = fixed_frame(kind, &p) else {
                    assert!(width > fp::FP_BITS, "case {case}");
                    continue;
                };
                if width <= wide::NARROW_BITS {
                    narrow += 1;
                } else {
                    wide += 1;
                }
                let big = frame_polys(kind, &coords_f64(&p));
                let cb = Contact::new(kind, &big[0], &big[1], &big[2]);
                let cf = Contact::new(kind, &fixed[0], &fixed[1], &fixed[2]);
                let parts = cb
                    .terms()
                    .filter(|t| !(kind == Kind::EdgeEdge && matches!(t, Term::Inside(_))))
                    .map(Part::Whole)
                    .chain((0..3).map(Part::Normal))
                    .chain((0..4).map(|k| Part::Side(k / 2, k % 2)));
                for q in parts {
                    if kind == Kind::VertexFace && matches!(q, Part::Side(..)) {
                        continue;
                    }
                    assert_eq!(
                        cf.part(q).coeffs(),
                        cb.part(q).0,
                        "case {case} {kind:?} {q:?}"
                    );
                }
            }
        }
        assert!(narrow > 100 && wide > 20, "{narrow} {wide}");
    }

    /// A term's sign from its parts (`Contact::term_sign`) equals the sign of
    /// the whole term polynomial, at rational times, on random and degenerate
    /// (shared-coordinate, collinear) frames.
    #[test]
    fn term_sign_by_parts_matches_whole_terms() {
        let mut s = 5u64;
        let mut checked = 0;
        for case in 0..200 {
            let mut p = random_points(&mut s);
            if case % 4 == 0 {
                // Coplanar all along (z = 0) and an edge collinear with a point.
                p.iter_mut().for_each(|q| q[2] = 0.0);
                p[2] = p[0];
            }
            for kind in [Kind::VertexFace, Kind::EdgeEdge] {
                let frame = frame_polys(kind, &coords_f64(&p));
                let contact = Contact::new(kind, &frame[0], &frame[1], &frame[2]);
                for t in [r(0, 1), r(1, 3), r(1, 2), r(7, 8), r(1, 1)] {
                    for term in contact.terms() {
                        let want = zx::sign_at(&contact.term(term).0, &t);
                        let got =
                            contact.term_sign(term, &mut |q| zx::sign_at(&contact.part(q).0, &t));
                        assert_eq!(got, want, "case {case} {kind:?} {term:?}");
                        checked += 1;
                    }
                }
            }
        }
        assert!(checked > 10000, "{checked}");
    }

    /// The fixed-width content division gives zx::primitive's result.
    #[test]
    fn primitive_matches_zx() {
        let mut s = 3u64;
        for _ in 0..300 {
            let p = random_points(&mut s);
            let mut a = exact_coplanarity(Kind::EdgeEdge, &p);
            // A common factor and a sign, to have something to divide out.
            let k = BigInt::from((splitmix(&mut s) % 1000) as i64 - 500);
            a.iter_mut().for_each(|x| *x *= &k);
            zx::trim(&mut a);
            let mut b = a.clone();
            primitive(&mut a);
            zx::primitive(&mut b);
            assert_eq!(a, b);
        }
    }

    /// m₀ is the least m with 2⁻ᵐ ≤ tolerance, in machine integers and in
    /// big ones alike (checked against the definition directly).
    #[test]
    fn level_is_the_least_power_of_two_below_the_tolerance() {
        let mut s = 17u64;
        for k in 0..3000 {
            let (n, d) = match k % 3 {
                0 => (
                    1 + splitmix(&mut s) % 1000,
                    1 + splitmix(&mut s) % (1 << 50),
                ),
                1 => (1 + splitmix(&mut s), 1 + splitmix(&mut s)),
                _ => (1 + splitmix(&mut s) % 7, 1u64 << (splitmix(&mut s) % 63)),
            };
            let tol = BigRational::new(n.into(), d.into());
            let m = level(&tol).unwrap();
            let p = |m: u32| BigRational::new(BigInt::one(), BigInt::one() << m);
            assert!(p(m) <= tol, "{n}/{d}: {m}");
            assert!(m == 0 || p(m - 1) > tol, "{n}/{d}: {m}");
            // The same value with a numerator and denominator beyond u64
            // (unreduced): the big-integer path.
            let big = BigInt::one() << 70u32;
            let tol2 = BigRational::new_raw(BigInt::from(n) * &big, BigInt::from(d) * &big);
            assert_eq!(level(&tol2).unwrap(), m);
        }
    }

    /// Two roots 2⁻⁴⁵ apart share a level-40 cell: the reported cell is finer,
    /// still no wider than the tolerance, and a valid certificate; a root on
    /// the grid is reported exactly.
    #[test]
    fn canonical_time_escalates_and_reports_grid_roots_exactly() {
        let two45 = BigInt::one() << 45u32;
        // (3x − 1)·(3·2⁴⁵·x − (2⁴⁵ + 3)): roots 1/3 and 1/3 + 2⁻⁴⁵.
        let a = [BigInt::from(-1), BigInt::from(3)];
        let b = [-(&two45 + 3u32), &two45 * 3u32];
        let f: Vec<BigInt> = zx::mul(&a, &b);
        let roots = isolate_roots(
            &Poly::from_bigints(&f),
            &BigRational::zero(),
            &BigRational::one(),
        );
        let first = roots.isolated()[0].value.clone();
        let t = canonical_time(&f, first, 40);
        let w = &t.hi - &t.lo;
        assert!(w > BigRational::zero() && w < BigRational::new(1.into(), BigInt::one() << 40u32));
        let x = t.to_real_root().expect("certificate");
        assert_eq!(x.cmp_exact(&RealRoot::Exact(r(1, 3))), Ordering::Equal);
        // (2x − 1)(x² + 1): the only real root 1/2 is on the grid.
        let g = zx::mul(
            &[BigInt::from(-1), BigInt::from(2)],
            &[1, 0, 1].map(BigInt::from),
        );
        let i = IsolatingInterval::verify(&Poly::from_bigints(&g), &r(1, 4), &r(3, 5)).unwrap();
        let t = canonical_time(&g, RealRoot::Interval(i), 40);
        assert_eq!((t.lo.clone(), t.hi.clone(), t.f64), (r(1, 2), r(1, 2), 0.5));
    }

    /// The closed-form sign of a linear or quadratic polynomial at an
    /// irrational root agrees with refining the root until the polynomial has
    /// no root left in the enclosure (`RealRoot::sign_of_integer`, an
    /// independent method): random quadratics, and ones whose roots are
    /// rationals just below and above the root (a few bits to 60 bits close).
    #[test]
    fn low_degree_sign_matches_refinement_at_irrational_roots() {
        let mut st = 11u64;
        // Cubics with one irrational root in (0, 1): 8x³ − k for k = 1..7 but 8,
        // and (x² − 2)-like factors scaled into (0, 1).
        let cubics: Vec<Vec<BigInt>> = vec![
            [-3, 0, 0, 8].map(BigInt::from).to_vec(),
            [-5, 0, 0, 8].map(BigInt::from).to_vec(),
            [-1, 0, 0, 3].map(BigInt::from).to_vec(),
            zx::mul(&[-1, 0, 2].map(BigInt::from), &[3, 1].map(BigInt::from)),
            zx::mul(&[-2, 0, 9].map(BigInt::from), &[-5, 1].map(BigInt::from)),
        ];
        let mut tested = 0;
        for f in &cubics {
            let Roots::Isolated(roots) = isolate_roots(&Poly::from_bigints(f), &r(0, 1), &r(1, 1))
            else {
                panic!()
            };
            let RealRoot::Interval(i) = &roots[0].value else {
                panic!("irrational root expected")
            };
            let (lo, hi, s_lo) = (i.lo().clone(), i.hi().clone(), i.sign_at_lo());
            let mut fine = roots[0].value.clone();
            for bits in [3u32, 10, 25, 40, 60] {
                fine.refine_to_width(&BigRational::new(1.into(), BigInt::one() << bits));
                let (a, b) = (fine.lo().clone(), fine.hi().clone());
                for _ in 0..30 {
                    let k = |st: &mut u64| BigInt::from((splitmix(st) % 9) as i64 - 4);
                    let g: Vec<BigInt> = match splitmix(&mut st) % 4 {
                        // Random linear and quadratic polynomials.
                        0 => vec![k(&mut st), k(&mut st)],
                        1 => vec![k(&mut st), k(&mut st), k(&mut st)],
                        // Roots at the refined ends: (den·x − num)(…), either sign.
                        2 => {
                            let lin = |x: &BigRational| vec![-x.numer().clone(), x.denom().clone()];
                            let p = zx::mul(&lin(&a), &lin(&b));
                            if splitmix(&mut st) % 2 == 0 {
                                p.iter().map(|c| -c).collect()
                            } else {
                                p
                            }
                        }
                        _ => vec![-a.numer().clone(), a.denom().clone()],
                    };
                    let mut g = g;
                    zx::trim(&mut g);
                    if g.len() < 2 {
                        continue;
                    }
                    let mut x = roots[0].value.clone();
                    let want = x.sign_of_integer(&g);
                    assert_eq!(sign_at_isolated(f, &lo, &hi, s_lo, &g), want, "{f:?} {g:?}");
                    tested += 1;
                }
            }
        }
        assert!(tested > 500, "{tested}");
    }

    /// The exact sign at an isolated root agrees with the sign at the root's
    /// exact value (rational roots, so a direct evaluation is the reference).
    #[test]
    fn sign_at_isolated_matches_direct_evaluation() {
        // f = (4x − 1)(x² − 2)·…: root 1/4 in (0, 1/2).
        let f = zx::mul(
            &[BigInt::from(-1), BigInt::from(4)],
            &[-2, 0, 1].map(BigInt::from),
        );
        let (lo, hi) = (r(0, 1), r(1, 2));
        let s_lo = zx::sign_at(&f, &lo);
        let mut st = 5u64;
        for _ in 0..200 {
            let g: Vec<BigInt> = (0..1 + splitmix(&mut st) % 6)
                .map(|_| BigInt::from((splitmix(&mut st) % 17) as i64 - 8))
                .collect();
            let mut g = g;
            zx::trim(&mut g);
            let want = zx::sign_at(&g, &r(1, 4));
            assert_eq!(sign_at_isolated(&f, &lo, &hi, s_lo, &g), want, "{g:?}");
            // g vanishing at 1/4 by construction.
            let h = zx::mul(&g, &[BigInt::from(-1), BigInt::from(4)]);
            if !h.is_empty() {
                assert_eq!(sign_at_isolated(&f, &lo, &hi, s_lo, &h), Ordering::Equal);
            }
        }
    }
}
