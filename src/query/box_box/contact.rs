//! Box–box contact on the float-guided path (docs/contact.md): the same
//! answer as the exact reference ([`crate::query::polytope::contact`]) for
//! two boxes of doubles, with the optimal normals found in floats and proved
//! exactly.
//!
//! The reference evaluates, for each of the 15 candidate axes `n = u × v`
//! (`box_box::axis_pair`: the face normals of a, of b, then `a_i × b_j`; a
//! zero cross product is no candidate, parallel candidates count once) and
//! both signs, the overlap `o(±n) = ±n·(c_a − c_b) + S(n)` with
//! `S(n) = Σ_i |n·a_i| + Σ_j |n·b_j|` (the support values of the boxes), and
//! keeps every direction with the least `o²/|n|²`. The better sign of a
//! candidate has `o(n) = S(n) − |n·(c_a − c_b)|`, a polynomial of degree 3
//! in the input doubles (with absolute values); the worse sign is larger by
//! `2|n·(c_a − c_b)|`, so it ties only when that is 0.
//!
//! Here:
//! 1. `o` and `|n|²` of every candidate are evaluated in `num::bounded::Fx`
//!    (a double with a proven error bound), the dot products the candidates
//!    share formed once ([`candidates`]);
//! 2. a candidate whose `|n|²` the bound does not prove positive is tested
//!    for zero exactly (each product of two doubles as an odd integer times
//!    a power of two); the guess `m` is the least `o²/|n|²` in doubles;
//! 3. for every other candidate c the sign of
//!    `o_c²·|n_m|² − o_m²·|n_c|²` (degree 10) is taken from its `Fx` value
//!    when the bound decides it, else evaluated exactly ([`sign_exact`],
//!    dyadic integers): positive — not optimal; zero — a tie; negative —
//!    the guess was wrong and the reference answers (counted as a fallback
//!    in [`crate::stats::BOX_CONTACT`]);
//! 4. only the optimal candidates are built exactly: their primitive
//!    integer normals in the reference's canonical sign, the sign of
//!    `n·(c_a − c_b)` choosing the direction(s), repeats dropped in
//!    candidate order — the reference's `normals`, in its order;
//! 5. for the first normal, δ², the translation and the region, in
//!    integers (the inputs as integer multiples of one power of two, the
//!    region in a frame scaled by |n|²): the supporting features (a's
//!    vertices where `n·x` is largest, chosen by the signs of `n·a_i`; b's
//!    where `n·y` is least, moved), projected and met by the reference's
//!    plane steps (monotone-chain hulls, vertices inside the other hull,
//!    edge crossings, here in homogeneous integers), each crossing placed
//!    in space on a's edge. All of it in the 768-bit stack `num::fixed::Int`
//!    when the inputs span at most 72 bits (else `BigInt`, counted in
//!    [`crate::stats::BOX_CONTACT_FIXED`]);
//! 6. each output number reduced to lowest terms once, the gcds of the
//!    values sharing a denominator through one gcd (`num::fixed::Over`).
//!
//! Every decision is exact, so the answer equals the reference's: the same
//! δ², the same normals in the same order, the same translation and region.

use super::{axis_pair, overlaps};
use crate::num::bounded::Fx;
use crate::num::fixed::{self, Int, Nat};
use crate::num::gcd::{gcd_lehmer, ratio};
use crate::num::ring::Ring;
use crate::num::sign::Sign;
use crate::predicates::{sign_exact, Expr};
use crate::query::polytope::contact::{penetration_of_meeting, Penetration};
use crate::query::polytope::Polytope;
use crate::query::triangle_triangle::Contact as Region;
use crate::query::{distance_exact_unreduced, ContactAnswer, QueryError, UnreducedClosest};
use crate::shape::{Obb, Shape};
use crate::stats;
use crate::vector::Vec3;
use num_bigint::BigInt;
use num_rational::BigRational;
use num_traits::{One, Zero};
use smallvec::SmallVec;
use std::cmp::Ordering;

type Q = BigRational;
type Z = BigInt;

/// A box's center and half-axes in a ring.
struct Lifted<R> {
    c: Vec3<R>,
    h: [Vec3<R>; 3],
}

fn lift<R: Ring, L: Fn(&f64) -> R>(b: &Obb<f64>, l: &L) -> Lifted<R> {
    let h = &b.half_axes;
    Lifted {
        c: b.center.map(l),
        h: [h[0].map(l), h[1].map(l), h[2].map(l)],
    }
}

/// Candidate `k`: the axis `n = u × v` and the overlap of its better sign,
/// `S(n) − |n·(c_a − c_b)|`.
fn candidate<R: Ring>(a: &Lifted<R>, b: &Lifted<R>, k: usize) -> (Vec3<R>, R) {
    let (u, v) = axis_pair(&a.h, &b.h, k);
    let n = u.cross(v);
    let mut o = n.dot(&a.c.sub(&b.c)).abs_ref().neg_ref();
    for h in a.h.iter().chain(b.h.iter()) {
        o = o.add_ref(&n.dot(h).abs_ref());
    }
    (n, o)
}

/// Every candidate's overlap and `|n|²` (`[candidate]`'s `o` and
/// `n.norm_squared()`, candidate order), with the dot products the
/// candidates share formed once: about half the operations of 15 calls of
/// [`candidate`], which matters in the float filter of [`optimal`].
///
/// With `A_l = a_{l+1} × a_{l+2}`, `B_l = b_{l+1} × b_{l+2}` (indices mod 3,
/// the face candidates 0–5) the triple products give, exactly:
/// - face `A_l`: `A_l·a_l = det(a)` for every `l`, `A_l·a_k = 0` for `k ≠ l`,
///   and `A_l·b_j` (likewise `B_l` with `det(b)` and `B_l·a_i`);
/// - edge `n = a_i × b_j`: `n·a_i = n·b_j = 0`,
///   `|n·a_k| = |b_j·(a_k × a_i)| = |A_l·b_j|` and
///   `|n·b_k| = |a_i·(b_j × b_k)| = |B_l·a_i|` with `l` the third index.
///
/// So `S(n)` needs no dot product of its own: the 18 values `A_l·b_j`,
/// `B_l·a_i` and the two determinants serve all 15 candidates. In an exact
/// ring the values equal [`candidate`]'s (a test checks it); in `Fx` each
/// bound holds for the exact value whatever the formula, so the filter's
/// decisions stay proofs.
fn candidates<R: Ring>(a: &Lifted<R>, b: &Lifted<R>) -> [(R, R); 15] {
    let d = a.c.sub(&b.c);
    let face = |h: &[Vec3<R>; 3]| -> [Vec3<R>; 3] {
        std::array::from_fn(|l| h[(l + 1) % 3].cross(&h[(l + 2) % 3]))
    };
    let (fa, fb) = (face(&a.h), face(&b.h));
    // p[l][j] = |A_l·b_j|, q[l][i] = |B_l·a_i|.
    let p: [[R; 3]; 3] =
        std::array::from_fn(|l| std::array::from_fn(|j| fa[l].dot(&b.h[j]).abs_ref()));
    let q: [[R; 3]; 3] =
        std::array::from_fn(|l| std::array::from_fn(|i| fb[l].dot(&a.h[i]).abs_ref()));
    let (det_a, det_b) = (fa[0].dot(&a.h[0]).abs_ref(), fb[0].dot(&b.h[0]).abs_ref());
    let sum3 = |s: R, x: &[R; 3]| x.iter().fold(s, |s, v| s.add_ref(v));
    std::array::from_fn(|k| match k {
        0..=2 => (
            sum3(det_a.clone(), &p[k]).sub_ref(&fa[k].dot(&d).abs_ref()),
            fa[k].norm_squared(),
        ),
        3..=5 => (
            sum3(det_b.clone(), &q[k - 3]).sub_ref(&fb[k - 3].dot(&d).abs_ref()),
            fb[k - 3].norm_squared(),
        ),
        _ => {
            let (i, j) = ((k - 6) / 3, (k - 6) % 3);
            let n = a.h[i].cross(&b.h[j]);
            // The third index of {i, i + 1} is i + 2, and so on.
            let (i1, i2) = ((i + 1) % 3, (i + 2) % 3);
            let (j1, j2) = ((j + 1) % 3, (j + 2) % 3);
            let s = p[i2][j]
                .add_ref(&p[i1][j])
                .add_ref(&q[j2][i])
                .add_ref(&q[j1][i]);
            (s.sub_ref(&n.dot(&d).abs_ref()), n.norm_squared())
        }
    })
}

/// `o_c²·|n_m|² − o_m²·|n_c|²`: positive when candidate c needs more than m.
fn gap<R: Ring>(oc: &R, nnc: &R, om: &R, nnm: &R) -> R {
    oc.square().mul_ref(nnm).sub_ref(&om.square().mul_ref(nnc))
}

/// [`gap`] of candidates `c` and `m`, for the exact evaluation.
struct Gap<'a> {
    a: &'a Obb<f64>,
    b: &'a Obb<f64>,
    c: usize,
    m: usize,
}

impl Expr<f64> for Gap<'_> {
    fn eval<R: Ring, L: Fn(&f64) -> R>(&self, l: &L) -> R {
        let (a, b) = (lift(self.a, l), lift(self.b, l));
        let (nc, oc) = candidate(&a, &b, self.c);
        let (nm, om) = candidate(&a, &b, self.m);
        gap(&oc, &nc.norm_squared(), &om, &nm.norm_squared())
    }
}

/// The exact product of two doubles as (odd integer, exponent), (0, 0) for 0:
/// equal products have equal pairs.
fn product(p: f64, q: f64) -> (i128, i64) {
    let ((mp, ep), (mq, eq)) = (
        crate::num::dyadic::f64_parts(p),
        crate::num::dyadic::f64_parts(q),
    );
    if mp == 0 || mq == 0 {
        return (0, 0);
    }
    (mp as i128 * mq as i128, ep + eq)
}

/// Whether candidate `k`'s cross product is exactly zero (parallel edges).
fn axis_is_zero(a: &Obb<f64>, b: &Obb<f64>, k: usize) -> bool {
    let (u, v) = axis_pair(&a.half_axes, &b.half_axes, k);
    let (u, v) = ([u.x, u.y, u.z], [v.x, v.y, v.z]);
    (0..3).all(|i| {
        let (j, l) = ((i + 1) % 3, (i + 2) % 3);
        product(u[j], v[l]) == product(u[l], v[j])
    })
}

/// The penetration of two boxes of doubles known to meet, on the
/// float-guided path alone: the reference's answer, or `None` when the float
/// guess of the least candidate was wrong ([`contact`] then asks the
/// reference).
pub fn penetration(a: &Obb<f64>, b: &Obb<f64>) -> Option<Penetration> {
    match fast(a, b)? {
        Fast::Fixed(e0, p) => Some(p.reduce(e0)),
        Fast::Big(e0, p) => Some(p.unreduced(e0).reduce()),
    }
}

/// [`penetration`] before any reduction to lowest terms: the same values as
/// integers over common denominators ([`PenetrationUnreduced`]).
pub fn penetration_unreduced(a: &Obb<f64>, b: &Obb<f64>) -> Option<PenetrationUnreduced> {
    match fast(a, b)? {
        Fast::Fixed(e0, p) => Some(p.unreduced(e0)),
        Fast::Big(e0, p) => Some(p.unreduced(e0)),
    }
}

/// The float-guided answer, built in the fixed-width [`Int`] when the
/// inputs' bit bound allows ([`FIXED_BITS`]), else in `BigInt` (counted in
/// [`stats::BOX_CONTACT_FIXED`]).
enum Fast {
    Fixed(i64, Built<Int>),
    Big(i64, Built<Z>),
}

fn fast(a: &Obb<f64>, b: &Obb<f64>) -> Option<Fast> {
    let tied = optimal(a, b)?;
    let (e0, bits) = units(a, b)?;
    if bits <= FIXED_BITS {
        let f = Frame::<Int>::new(a, b, e0);
        let p = f.build(f.normals(&tied)?)?;
        stats::BOX_CONTACT_FIXED.fast();
        Some(Fast::Fixed(e0, p))
    } else {
        let f = Frame::<Z>::new(a, b, e0);
        let p = f.build(f.normals(&tied)?)?;
        stats::BOX_CONTACT_FIXED.fallback();
        Some(Fast::Big(e0, p))
    }
}

/// The penetration of two boxes of doubles as integers, before any
/// reduction to lowest terms: every input double is an integer multiple of
/// `2^e0`, and every value here is an integer in those units, over its
/// stated denominator. [`PenetrationUnreduced::reduce`] gives the
/// reference's [`Penetration`] (each number in lowest terms), the same
/// values.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PenetrationUnreduced {
    /// The unit exponent: the values below are in units of `2^e0`.
    pub e0: i64,
    /// Every optimal normal, primitive integer vectors pointing from a to b
    /// (already in lowest terms), the first reported.
    pub normals: Vec<Vec3<Z>>,
    /// The overlap `o` along the first normal `n` (units `2^e0`): b must
    /// move by `o/|n|` along it, so δ² = `o²/|n|²·2^(2·e0)` and the
    /// translation is `o·n/|n|²·2^e0`.
    pub overlap: Z,
    /// `|n|²` of the first normal.
    pub norm_squared: Z,
    /// The contact region's vertices (one: a point, two: a segment, more: a
    /// convex polygon, in the reference's order) in homogeneous integers
    /// `[x, y, z, w]`, `w > 0`: the vertex `(x/w, y/w, z/w)·2^e0`.
    pub region: Vec<[Z; 4]>,
}

impl PenetrationUnreduced {
    /// A value `v·2^(p·e0)/den` as a rational in lowest terms.
    fn out(&self, v: Z, den: &Z, p: i64) -> Q {
        let s = p * self.e0;
        if s >= 0 {
            ratio(v << s as usize, den.clone())
        } else {
            ratio(v, den << (-s) as usize)
        }
    }

    /// δ², in lowest terms.
    pub fn depth_squared(&self) -> Q {
        self.out(&self.overlap * &self.overlap, &self.norm_squared, 2)
    }

    /// The answer with every number in lowest terms: the reference's
    /// [`Penetration`], the same values.
    pub fn reduce(&self) -> Penetration {
        let n = &self.normals[0];
        let o = &self.overlap;
        let translation = n.map(|c| self.out(c * o, &self.norm_squared, 1));
        let point = |p: &[Z; 4]| {
            Vec3::new(
                self.out(p[0].clone(), &p[3], 1),
                self.out(p[1].clone(), &p[3], 1),
                self.out(p[2].clone(), &p[3], 1),
            )
        };
        let r = &self.region;
        let region = match r.len() {
            1 => Region::Point(point(&r[0])),
            2 => Region::Segment(point(&r[0]), point(&r[1])),
            _ => Region::Polygon(r.iter().map(point).collect()),
        };
        Penetration {
            depth_squared: self.depth_squared(),
            normals: self.normals.iter().map(integers).collect(),
            translation,
            region,
        }
    }
}

/// The exact contact of two boxes of doubles before any reduction to lowest
/// terms ([`contact_unreduced`]); [`ContactUnreduced::reduce`] gives
/// [`contact`]'s answer.
#[derive(Clone, Debug)]
pub enum ContactUnreduced {
    /// Apart: the exact distance over one denominator.
    Apart(UnreducedClosest),
    /// Meeting, proved on the float-guided path.
    Meeting(PenetrationUnreduced),
    /// Meeting, answered by the exact reference (the float guess failed):
    /// already in lowest terms.
    Reference(Box<Penetration>),
}

impl ContactUnreduced {
    /// The answer with every number in lowest terms: [`contact`]'s.
    pub fn reduce(&self) -> ContactAnswer {
        match self {
            ContactUnreduced::Apart(c) => ContactAnswer::Apart(Box::new(c.reduce())),
            ContactUnreduced::Meeting(p) => ContactAnswer::Meeting(Box::new(p.reduce())),
            ContactUnreduced::Reference(p) => ContactAnswer::Meeting(p.clone()),
        }
    }

    /// [`ContactUnreduced::reduce`], consuming the answer.
    pub fn into_reduced(self) -> ContactAnswer {
        match self {
            ContactUnreduced::Apart(c) => ContactAnswer::Apart(Box::new(c.into_reduced())),
            ContactUnreduced::Meeting(p) => ContactAnswer::Meeting(Box::new(p.reduce())),
            ContactUnreduced::Reference(p) => ContactAnswer::Meeting(p),
        }
    }
}

/// A lighter answer for two boxes of doubles known to meet: δ² (exact, in
/// lowest terms) and every optimal normal (the reference's `normals`), without
/// the translation and the region; `None` where [`penetration`] gives up.
pub fn depth_and_normals(a: &Obb<f64>, b: &Obb<f64>) -> Option<(Q, Vec<Vec3<Q>>)> {
    let tied = optimal(a, b)?;
    let (e0, bits) = units(a, b)?;
    if bits <= FIXED_BITS {
        let f = Frame::<Int>::new(a, b, e0);
        let normals = f.normals(&tied)?;
        let (o, n2) = f.overlap(normals.first()?);
        let integers = |v: &Vec3<Int>| v.map(|c| Q::from_integer(c.to_bigint()));
        Some((
            lowest(&o.mul(&o), &n2, 2 * e0),
            normals.iter().map(integers).collect(),
        ))
    } else {
        let f = Frame::<Z>::new(a, b, e0);
        let normals = f.normals(&tied)?;
        let (o, n2) = f.overlap(normals.first()?);
        let p = PenetrationUnreduced {
            e0,
            normals: Vec::new(),
            overlap: o,
            norm_squared: n2,
            region: Vec::new(),
        };
        Some((p.depth_squared(), normals.iter().map(integers).collect()))
    }
}

fn integers(v: &Vec3<Z>) -> Vec3<Q> {
    v.map(|c| Q::from_integer(c.clone()))
}

/// The optimal candidates, in candidate order, proved; `None` when the
/// float guess was wrong or a value overflowed.
fn optimal(a: &Obb<f64>, b: &Obb<f64>) -> Option<SmallVec<[usize; 8]>> {
    let fx = |x: &f64| Fx::exact(*x);
    let (la, lb) = (lift(a, &fx), lift(b, &fx));
    let all = candidates(&la, &lb);
    let mut cand: [Option<(Fx, Fx)>; 15] = [None; 15];
    let (mut m, mut best) = (None, f64::INFINITY);
    for (k, (slot, &(o, nn))) in cand.iter_mut().zip(&all).enumerate() {
        // A filtered |n|² > 0 proves the axis nonzero; only the rest (near
        // parallel edges) need the exact test.
        if nn.sign() != Some(Sign::Positive) && axis_is_zero(a, b, k) {
            continue;
        }
        let g = o.v * o.v / nn.v;
        if !g.is_finite() {
            return None;
        }
        if g < best {
            (best, m) = (g, Some(k));
        }
        *slot = Some((o, nn));
    }
    let m = m?;
    let (om, nnm) = cand[m]?;
    // The optimal candidates, in candidate order.
    let mut tied: SmallVec<[usize; 8]> = SmallVec::new();
    for (c, slot) in cand.iter().enumerate() {
        let Some((oc, nnc)) = slot else { continue };
        if c == m {
            tied.push(c);
            continue;
        }
        let s = gap(oc, nnc, &om, &nnm)
            .sign()
            .unwrap_or_else(|| sign_exact(&Gap { a, b, c, m }));
        match s {
            Sign::Positive => {}
            Sign::Zero => tied.push(c),
            Sign::Negative => return None,
        }
    }
    Some(tied)
}

/// The bit bound of the fixed-width build: when every input, as an integer
/// in units of 2^e0, is below 2^72 in magnitude (B ≤ 72 bits), every value
/// the build forms fits the 768-bit [`Int`]. With inputs below 2^B: the
/// normals below 2^(2B+1), their dot products below 2^(3B+3), the overlap
/// below 2^(3B+6), |n|² below 2^(4B+4), the scaled plane points below
/// 2^(5B+8), the cross products of three of them below 2^(10B+19) (the
/// largest value: 739 bits for B = 72), a crossing's parameters below
/// 2^(6B+11), its plane coordinates below 2^(7B+13) over a denominator below
/// 2^(2B+3) (compared crosswise: below 2^(9B+16)), its space coordinates
/// below 2^(7B+14). Only the orientation of three points of which one is a
/// crossing would need more (degree 16): that hull runs in `BigInt`. Wider
/// inputs (exponents more than about 2^19 apart) build in `BigInt`
/// throughout (counted as fallbacks in [`stats::BOX_CONTACT_FIXED`]).
const FIXED_BITS: i64 = 72;

/// The integers the build runs in: the 768-bit stack [`Int`] (within
/// [`FIXED_BITS`]) or `BigInt` (any size). Method names carry a `z` so that
/// they do not meet `BigInt`'s operator traits.
trait Zi: Clone + PartialEq + std::fmt::Debug {
    /// Whether values are bounded (see [`FIXED_BITS`]).
    const FIXED: bool;
    fn z0() -> Self;
    fn z1() -> Self;
    /// `m·2^s`.
    fn shifted(m: i64, s: u64) -> Self;
    fn zadd(&self, o: &Self) -> Self;
    fn zsub(&self, o: &Self) -> Self;
    fn zmul(&self, o: &Self) -> Self;
    fn zneg(&self) -> Self;
    fn zsign(&self) -> i32;
    fn zcmp(&self, o: &Self) -> Ordering;
    /// `self / d` for a divisor `d ≠ 0` of `self`.
    fn zdiv(&self, d: &Self) -> Self;
    /// The gcd of the magnitudes.
    fn zgcd(&self, o: &Self) -> Self;
    /// The gcd of three magnitudes.
    fn zgcd3(x: &Self, y: &Self, z: &Self) -> Self {
        x.zgcd(y).zgcd(z)
    }
    /// The value as an `i128`, when it fits one.
    fn small(&self) -> Option<i128>;
    fn from_small(v: i128) -> Self;
    fn big(&self) -> Z;
    fn zabs(&self) -> Self {
        if self.zsign() < 0 {
            self.zneg()
        } else {
            self.clone()
        }
    }
    fn is_zero_(&self) -> bool {
        self.zsign() == 0
    }
}

impl Zi for Z {
    const FIXED: bool = false;
    fn z0() -> Self {
        <Z as Zero>::zero()
    }
    fn z1() -> Self {
        <Z as One>::one()
    }
    fn shifted(m: i64, s: u64) -> Self {
        Z::from(m) << s as usize
    }
    fn zadd(&self, o: &Self) -> Self {
        self + o
    }
    fn zsub(&self, o: &Self) -> Self {
        self - o
    }
    fn zmul(&self, o: &Self) -> Self {
        self * o
    }
    fn zneg(&self) -> Self {
        -self
    }
    fn zsign(&self) -> i32 {
        match self.sign() {
            num_bigint::Sign::Minus => -1,
            num_bigint::Sign::NoSign => 0,
            num_bigint::Sign::Plus => 1,
        }
    }
    fn zcmp(&self, o: &Self) -> Ordering {
        self.cmp(o)
    }
    fn zdiv(&self, d: &Self) -> Self {
        self / d
    }
    fn zgcd(&self, o: &Self) -> Self {
        Z::from(gcd_lehmer(self.magnitude(), o.magnitude()))
    }
    fn small(&self) -> Option<i128> {
        num_traits::ToPrimitive::to_i128(self)
    }
    fn from_small(v: i128) -> Self {
        Z::from(v)
    }
    fn big(&self) -> Z {
        self.clone()
    }
}

impl Zi for Int {
    const FIXED: bool = true;
    fn z0() -> Self {
        Int::ZERO
    }
    fn z1() -> Self {
        Int::from_i128(1)
    }
    fn shifted(m: i64, s: u64) -> Self {
        // In an i128 when it fits (|m|·2^s < 2^127): no shift of 12 limbs.
        if s <= 63 + u64::from(m.unsigned_abs().leading_zeros()) {
            Int::from_i128((m as i128) << s)
        } else {
            Int::from_i128(m as i128).shl(s)
        }
    }
    fn zadd(&self, o: &Self) -> Self {
        self.add(o)
    }
    fn zsub(&self, o: &Self) -> Self {
        self.sub(o)
    }
    fn zmul(&self, o: &Self) -> Self {
        self.mul(o)
    }
    fn zneg(&self) -> Self {
        self.neg()
    }
    fn zsign(&self) -> i32 {
        self.signum()
    }
    fn zcmp(&self, o: &Self) -> Ordering {
        // Zero is never negative.
        match (self.is_neg(), o.is_neg()) {
            (false, true) => Ordering::Greater,
            (true, false) => Ordering::Less,
            (false, false) => self.mag().cmp(o.mag()),
            (true, true) => o.mag().cmp(self.mag()),
        }
    }
    fn zdiv(&self, d: &Self) -> Self {
        Int::from_nat(
            self.is_neg() != d.is_neg(),
            fixed::div_exact(self.mag(), d.mag()),
        )
    }
    fn zgcd(&self, o: &Self) -> Self {
        Int::from_nat(false, fixed::gcd(self.mag(), o.mag()))
    }
    fn zgcd3(x: &Self, y: &Self, z: &Self) -> Self {
        let g = fixed::gcd(x.mag(), y.mag());
        // g = 2^s (the inputs in units of a power of two often share only
        // powers of two): gcd(g, z) = 2^min(s, tz(z)), g itself for z = 0.
        let s = g.trailing_zeros();
        if !g.is_zero() && g.bits() == s + 1 {
            if z.mag().is_zero() {
                return Int::from_nat(false, g);
            }
            return Int::from_nat(
                false,
                Nat::from_u128(1).shl(s.min(z.mag().trailing_zeros())),
            );
        }
        Int::from_nat(false, fixed::gcd(&g, z.mag()))
    }
    fn small(&self) -> Option<i128> {
        let m = i128::try_from(self.mag().to_u128()?).ok()?;
        Some(if self.is_neg() { -m } else { m })
    }
    fn from_small(v: i128) -> Self {
        Int::from_i128(v)
    }
    fn big(&self) -> Z {
        self.to_bigint()
    }
}

/// Integer vectors.
fn vadd<T: Zi>(a: &Vec3<T>, b: &Vec3<T>) -> Vec3<T> {
    Vec3::new(a.x.zadd(&b.x), a.y.zadd(&b.y), a.z.zadd(&b.z))
}
fn vsub<T: Zi>(a: &Vec3<T>, b: &Vec3<T>) -> Vec3<T> {
    Vec3::new(a.x.zsub(&b.x), a.y.zsub(&b.y), a.z.zsub(&b.z))
}
fn vneg<T: Zi>(a: &Vec3<T>) -> Vec3<T> {
    a.map(|c| c.zneg())
}
fn vdot<T: Zi>(a: &Vec3<T>, b: &Vec3<T>) -> T {
    a.x.zmul(&b.x).zadd(&a.y.zmul(&b.y)).zadd(&a.z.zmul(&b.z))
}
fn vcross<T: Zi>(a: &Vec3<T>, b: &Vec3<T>) -> Vec3<T> {
    Vec3::new(
        a.y.zmul(&b.z).zsub(&a.z.zmul(&b.y)),
        a.z.zmul(&b.x).zsub(&a.x.zmul(&b.z)),
        a.x.zmul(&b.y).zsub(&a.y.zmul(&b.x)),
    )
}

/// The unit exponent e0 (the least exponent of the inputs' odd-mantissa
/// forms: every input double is an integer multiple of 2^e0) and the bit
/// bound B: every input is below 2^B in units of 2^e0. `None` when every
/// input is 0.
fn units(a: &Obb<f64>, b: &Obb<f64>) -> Option<(i64, i64)> {
    // Plain arrays, no iterator adapters: this runs once per pair.
    let (ha, hb) = (&a.half_axes, &b.half_axes);
    let vs = [
        &a.center, &ha[0], &ha[1], &ha[2], &b.center, &hb[0], &hb[1], &hb[2],
    ];
    let (mut e0, mut top) = (i64::MAX, i64::MIN);
    for v in vs {
        for x in [v.x, v.y, v.z] {
            let (m, e) = crate::num::dyadic::f64_parts(x);
            if m != 0 {
                e0 = e0.min(e);
                top = top.max(e + (64 - m.unsigned_abs().leading_zeros()) as i64);
            }
        }
    }
    (e0 != i64::MAX).then_some((e0, top - e0))
}

/// The boxes in integers: every input double is an integer multiple of
/// 2^e0 (e0 the least exponent of them), so the boxes are integer vectors
/// in units of 2^e0, and every value below is an integer until the one
/// reduction of each output number.
struct Frame<T> {
    za: Lifted<T>,
    zb: Lifted<T>,
}

/// The exact answer for the first normal, as integers in units of 2^e0
/// ([`PenetrationUnreduced`]'s fields in the build's integers).
struct Built<T> {
    normals: Vec<Vec3<T>>,
    overlap: T,
    norm_squared: T,
    /// Homogeneous `[x, y, z, w]`, `w > 0`, and where each came from.
    region: Vec<Vertex<T>>,
}

/// Where a region vertex came from, for the reduction: a vertex of a
/// (`w = 1`), a moved vertex of b (`w = |n|²`, each numerator ≡ o·n_c modulo
/// it), or a crossing on a's edge `a0 → a1`, `Cross(μ, a1 − a0, |γ|)`
/// (`w = |γ|·|n|²`, each numerator ≡ ±μ·(a1 − a0)_c modulo it; see
/// `plane::crossing`).
#[derive(Clone, Debug, PartialEq)]
enum Src<T> {
    A,
    B,
    Cross(T, [T; 3], T),
}

/// A region vertex in space (homogeneous, `w > 0`) and where it came from.
type Vertex<T> = ([T; 4], Src<T>);

impl<T: Zi> Frame<T> {
    fn new(a: &Obb<f64>, b: &Obb<f64>, e0: i64) -> Frame<T> {
        let int = |x: &f64| -> T {
            let (m, e) = crate::num::dyadic::f64_parts(*x);
            if m == 0 {
                T::z0()
            } else {
                T::shifted(m, (e - e0) as u64)
            }
        };
        let zlift = |o: &Obb<f64>| {
            let h = &o.half_axes;
            Lifted {
                c: o.center.map(int),
                h: [h[0].map(int), h[1].map(int), h[2].map(int)],
            }
        };
        Frame {
            za: zlift(a),
            zb: zlift(b),
        }
    }

    /// The reference's `normals` from the optimal candidates `tied` (in
    /// candidate order): primitive, canonical sign, the direction(s) with the
    /// least overlap, repeats dropped.
    fn normals(&self, tied: &[usize]) -> Option<Vec<Vec3<T>>> {
        let (za, zb) = (&self.za, &self.zb);
        let d = vsub(&za.c, &zb.c);
        let mut normals: Vec<Vec3<T>> = Vec::with_capacity(2);
        for &k in tied {
            let (u, v) = axis_pair(&za.h, &zb.h, k);
            let w = vcross(u, v);
            let g = T::zgcd3(&w.x, &w.y, &w.z);
            if g.is_zero_() {
                return None;
            }
            let n = if g == T::z1() {
                w
            } else {
                w.map(|c| c.zdiv(&g))
            };
            // The reference's canonical sign: the first nonzero component positive.
            let first = [&n.x, &n.y, &n.z].into_iter().find(|c| !c.is_zero_())?;
            let n = if first.zsign() < 0 { vneg(&n) } else { n };
            let back = vneg(&n);
            if normals.contains(&n) || normals.contains(&back) {
                continue; // parallel to an earlier candidate: one candidate
            }
            // o(+n) = n·(c_a − c_b) + S(n): the sign with the smaller overlap.
            match vdot(&n, &d).zsign() {
                -1 => normals.push(n),
                1 => normals.push(back),
                _ => normals.extend([n, back]),
            }
        }
        Some(normals)
    }

    /// `n·x` over a's vertices at most, and over b's at least.
    fn extremes(&self, n: &Vec3<T>) -> ([T; 3], [T; 3], T, T) {
        let (za, zb) = (&self.za, &self.zb);
        let da = za.h.each_ref().map(|h| vdot(n, h));
        let db = zb.h.each_ref().map(|h| vdot(n, h));
        let amax = da.iter().fold(vdot(n, &za.c), |s, x| s.zadd(&x.zabs()));
        let bmin = db.iter().fold(vdot(n, &zb.c), |s, x| s.zsub(&x.zabs()));
        (da, db, amax, bmin)
    }

    /// The overlap along `n` (units 2^e0) and |n|².
    fn overlap(&self, n: &Vec3<T>) -> (T, T) {
        let (_, _, amax, bmin) = self.extremes(n);
        (amax.zsub(&bmin), vdot(n, n))
    }

    /// The exact answer for the normals (the first is reported): the
    /// overlap, |n|² and the region.
    fn build(&self, normals: Vec<Vec3<T>>) -> Option<Built<T>> {
        let (za, zb) = (&self.za, &self.zb);
        let n = normals.first()?.clone();
        let (da, db, amax, bmin) = self.extremes(&n);
        let o = amax.zsub(&bmin);
        let n2 = vdot(&n, &n);
        // Vertex i (Obb::vertex order) lies on the supporting plane when each
        // of its signs agrees with a nonzero n·h_k (+ for the largest n·x).
        let on = |dots: &[T; 3], i: usize, up: bool| {
            (0..3).all(|k| dots[k].is_zero_() || (i >> k & 1 == 1) == ((dots[k].zsign() > 0) == up))
        };
        let vertex = |l: &Lifted<T>, i: usize| {
            // c ± h_0 ± h_1 ± h_2, in an i128 when the terms fit one (the
            // fixed-width build's inputs are below 2^72).
            let coord = |g: fn(&Vec3<T>) -> &T| -> T {
                let mut acc = g(&l.c).small();
                for (k, h) in l.h.iter().enumerate() {
                    acc = acc.and_then(|s| {
                        let h = g(h).small()?;
                        if i >> k & 1 == 1 {
                            s.checked_add(h)
                        } else {
                            s.checked_sub(h)
                        }
                    });
                }
                match acc {
                    Some(v) => T::from_small(v),
                    None => (0..3).fold(g(&l.c).clone(), |p, k| {
                        if i >> k & 1 == 1 {
                            p.zadd(g(&l.h[k]))
                        } else {
                            p.zsub(g(&l.h[k]))
                        }
                    }),
                }
            };
            Vec3::new(coord(|v| &v.x), coord(|v| &v.y), coord(|v| &v.z))
        };
        let c = [&n.x, &n.y, &n.z];
        // The reference's projection: drop the last coordinate of largest |n_k|.
        let k = (0..3).max_by(|&i, &j| c[i].zabs().zcmp(&c[j].zabs()))?;
        let (i, j) = ((k + 1) % 3, (k + 2) % 3);
        let to2 = |p: &Vec3<T>| {
            let q = [&p.x, &p.y, &p.z];
            H {
                x: q[i].clone(),
                y: q[j].clone(),
                w: T::z1(),
            }
        };
        // The supporting features, unscaled (b's not moved), and their hulls
        // (a positive scale and a translation keep the plane steps' orders
        // and orientations, so the same hulls as the scaled points').
        let va: SmallVec<[Vec3<T>; 4]> = (0..8)
            .filter(|&i| on(&da, i, true))
            .map(|i| vertex(za, i))
            .collect();
        let vb: SmallVec<[Vec3<T>; 4]> = (0..8)
            .filter(|&i| on(&db, i, false))
            .map(|i| vertex(zb, i))
            .collect();
        let (pa, pb) = (
            va.iter().map(to2).collect::<SmallVec<[H<T>; 4]>>(),
            vb.iter().map(to2).collect::<SmallVec<[H<T>; 4]>>(),
        );
        let (ha, hb) = (plane::hull_order(&pa), plane::hull_order(&pb));
        // The region in the frame scaled by |n|² (units 2^e0/|n|²), where b's
        // moved vertices n2·y + o·n are integers too.
        let shift = n.map(|c| c.zmul(&o));
        let fa = plane::Feature {
            at: ha
                .iter()
                .map(|&x| H {
                    x: pa[x].x.zmul(&n2),
                    y: pa[x].y.zmul(&n2),
                    w: T::z1(),
                })
                .collect(),
            dir: ha.iter().map(|&x| pa[x].clone()).collect(),
            space: ha
                .iter()
                .map(|&x| {
                    let p = &va[x];
                    ([p.x.clone(), p.y.clone(), p.z.clone(), T::z1()], Src::A)
                })
                .collect(),
        };
        let moved: SmallVec<[Vec3<T>; 4]> = hb
            .iter()
            .map(|&x| vadd(&vb[x].map(|c| c.zmul(&n2)), &shift))
            .collect();
        let fb = plane::Feature {
            at: moved.iter().map(to2).collect(),
            dir: hb.iter().map(|&x| pb[x].clone()).collect(),
            space: moved
                .into_iter()
                .map(|p| ([p.x, p.y, p.z, n2.clone()], Src::B))
                .collect(),
        };
        let region = plane::meet(&fa, &fb, &n2, c[k]);
        if region.is_empty() {
            return None;
        }
        Some(Built {
            normals,
            overlap: o,
            norm_squared: n2,
            region,
        })
    }
}

impl<T: Zi> Built<T> {
    fn unreduced(&self, e0: i64) -> PenetrationUnreduced {
        PenetrationUnreduced {
            e0,
            normals: self.normals.iter().map(|v| v.map(Zi::big)).collect(),
            overlap: self.overlap.big(),
            norm_squared: self.norm_squared.big(),
            region: self
                .region
                .iter()
                .map(|(p, _)| p.each_ref().map(Zi::big))
                .collect(),
        }
    }
}

/// `x/d·2^p` in lowest terms (`d > 0`), one fixed-width gcd.
fn lowest(x: &Int, d: &Int, p: i64) -> Q {
    let g = if d.mag().is_one() {
        *d.mag()
    } else {
        fixed::gcd(x.mag(), d.mag())
    };
    fixed::finish(x, d.mag(), &g, p)
}

/// [`fixed::Over`] for the denominator `d > 0` and the factors `xs` (the
/// product skips the zero ones), on the stack.
fn over(d: &Int, xs: [&Int; 4]) -> fixed::Over {
    fixed::Over::new(d.mag(), &xs.map(|x| *x.mag()))
}

impl Built<Int> {
    /// The answer with every number in lowest terms (the reference's
    /// [`Penetration`]). The values over |n|² (δ², the translation, b's
    /// moved vertices) have numerators dividing `o·n_x·n_y·n_z` or
    /// congruent to such modulo |n|², so one gcd of |n|² with that product
    /// ([`fixed::Over`]) serves them all. A crossing is over `|γ|·|n|²`
    /// with numerators ≡ ±μ·(a1 − a0)_c modulo it (`plane::crossing`): when
    /// |γ| is a power of two (the common case) its odd part is |n|²'s, so
    /// its factors join that one gcd; otherwise its three coordinates share
    /// one gcd of their own. a's vertices are dyadic (`w = 1`).
    fn reduce(&self, e0: i64) -> Penetration {
        let (o, n2) = (&self.overlap, &self.norm_squared);
        let n = &self.normals[0];
        // n_c·o: the translation's numerators, and b's moved vertices' modulo |n|².
        let on = [n.x.mul(o), n.y.mul(o), n.z.mul(o)];
        let pow2 = |g: &Int| g.mag().bits() == g.mag().trailing_zeros() + 1;
        let mut xs: SmallVec<[Nat; 8]> = SmallVec::new();
        xs.extend([*o.mag(), *n.x.mag(), *n.y.mag(), *n.z.mag()]);
        for (_, src) in &self.region {
            if let Src::Cross(mu, d, g) = src {
                if pow2(g) {
                    xs.extend([*mu.mag(), *d[0].mag(), *d[1].mag(), *d[2].mag()]);
                }
            }
        }
        let mut on_n2 = fixed::Over::new(n2.mag(), &xs);
        let translation = Vec3::new(
            on_n2.value(&on[0], on[0].mag(), e0),
            on_n2.value(&on[1], on[1].mag(), e0),
            on_n2.value(&on[2], on[2].mag(), e0),
        );
        let one = Nat::from_u128(1);
        let mut point = |(p, src): &Vertex<Int>| -> Vec3<Q> {
            match src {
                Src::A => {
                    let f = |x: &Int| fixed::finish(x, &one, &one, e0);
                    Vec3::new(f(&p[0]), f(&p[1]), f(&p[2]))
                }
                Src::B => {
                    let mut f = |c: usize| on_n2.value(&p[c], on[c].mag(), e0);
                    Vec3::new(f(0), f(1), f(2))
                }
                Src::Cross(mu, d, g) if pow2(g) => {
                    // p/(2^s·|n|²)·2^e0 = p/|n|²·2^(e0 − s).
                    let s = e0 - g.mag().trailing_zeros() as i64;
                    let mut f = |c: usize| on_n2.value(&p[c], mu.mul(&d[c]).mag(), s);
                    Vec3::new(f(0), f(1), f(2))
                }
                Src::Cross(mu, d, _) => {
                    let mut ov = over(&p[3], [mu, &d[0], &d[1], &d[2]]);
                    let mut f = |c: usize| ov.value(&p[c], mu.mul(&d[c]).mag(), e0);
                    Vec3::new(f(0), f(1), f(2))
                }
            }
        };
        let r = &self.region;
        let region = match r.len() {
            1 => Region::Point(point(&r[0])),
            2 => Region::Segment(point(&r[0]), point(&r[1])),
            _ => Region::Polygon(r.iter().map(point).collect()),
        };
        Penetration {
            depth_squared: on_n2.square(o, 2 * e0),
            normals: self
                .normals
                .iter()
                .map(|v| v.map(|c| Q::from_integer(c.to_bigint())))
                .collect(),
            translation,
            region,
        }
    }
}

/// A point of the plane in homogeneous integers: (x/w, y/w), w > 0.
#[derive(Clone, Debug, PartialEq)]
struct H<T> {
    x: T,
    y: T,
    w: T,
}

/// The reference's plane steps (`polytope::contact`: monotone-chain hull,
/// convex intersection) on integer points and their edges' crossings, in
/// homogeneous integers: the same point sets, so the same hulls in the
/// same order (counter-clockwise from the lexicographically least point,
/// without collinear points).
mod plane {
    use super::{Src, Vertex, Zi, H, Z};
    use smallvec::SmallVec;
    use std::cmp::Ordering;

    fn cmp<T: Zi>(p: &H<T>, q: &H<T>) -> Ordering {
        if p.w == q.w {
            // One positive denominator (the features' points all have w = 1):
            // the numerators compare as the points do, no products.
            return p.x.zcmp(&q.x).then_with(|| p.y.zcmp(&q.y));
        }
        p.x.zmul(&q.w)
            .zcmp(&q.x.zmul(&p.w))
            .then_with(|| p.y.zmul(&q.w).zcmp(&q.y.zmul(&p.w)))
    }

    /// `(p − o) × (q − o)` of three points.
    fn cross<T: Zi>(o: &H<T>, p: &H<T>, q: &H<T>) -> T {
        if o.w == T::z1() && p.w == T::z1() && q.w == T::z1() {
            return p
                .x
                .zsub(&o.x)
                .zmul(&q.y.zsub(&o.y))
                .zsub(&p.y.zsub(&o.y).zmul(&q.x.zsub(&o.x)));
        }
        // det[[o],[p],[q]] (each row x, y, w) is the cross product times
        // o.w·p.w·q.w > 0: the same sign.
        let t1 = p.y.zmul(&q.w).zsub(&q.y.zmul(&p.w));
        let t2 = p.x.zmul(&q.w).zsub(&q.x.zmul(&p.w));
        let t3 = p.x.zmul(&q.y).zsub(&q.x.zmul(&p.y));
        o.x.zmul(&t1).zsub(&o.y.zmul(&t2)).zadd(&o.w.zmul(&t3))
    }

    /// `hull2`: the convex hull, counter-clockwise, without collinear
    /// points, as indices into `pts`.
    pub(super) fn hull_order<T: Zi>(pts: &[H<T>]) -> SmallVec<[usize; 8]> {
        let mut idx: SmallVec<[usize; 8]> = (0..pts.len()).collect();
        idx.sort_by(|&i, &j| cmp(&pts[i], &pts[j]));
        idx.dedup_by(|i, j| cmp(&pts[*i], &pts[*j]) == Ordering::Equal);
        if idx.len() < 3 {
            return idx;
        }
        let chain = |it: &mut dyn Iterator<Item = &usize>| {
            let mut out: SmallVec<[usize; 8]> = SmallVec::new();
            for &p in it {
                while out.len() >= 2
                    && cross(&pts[out[out.len() - 2]], &pts[out[out.len() - 1]], &pts[p]).zsign()
                        <= 0
                {
                    out.pop();
                }
                out.push(p);
            }
            out.pop();
            out
        };
        let mut lower = chain(&mut idx.iter());
        lower.extend(chain(&mut idx.iter().rev()));
        lower
    }

    /// A supporting feature's hull (in `hull_order`): its vertices in the
    /// plane scaled by |n|² (`at`, integers), unscaled (`dir`: their
    /// differences are the edges' directions divided by |n|²), and in space
    /// (homogeneous, units 2^e0).
    pub(super) struct Feature<T> {
        pub(super) at: Vec<H<T>>,
        pub(super) dir: Vec<H<T>>,
        pub(super) space: Vec<Vertex<T>>,
    }

    impl<T: Zi> Feature<T> {
        fn edges(&self) -> SmallVec<[(usize, usize); 4]> {
            match self.at.len() {
                0 | 1 => SmallVec::new(),
                2 => smallvec::smallvec![(0, 1)],
                n => (0..n).map(|i| (i, (i + 1) % n)).collect(),
            }
        }

        /// `inside2` for a scaled integer point: the orientations taken
        /// with the unscaled edge directions (the scaled ones are |n|²
        /// times them).
        fn contains(&self, p: &H<T>, n2: &T) -> bool {
            let (h, d) = (&self.at, &self.dir);
            // (p − h_i) × (d_k − d_i).
            let side = |i: usize, k: usize| {
                let (ex, ey) = (d[k].x.zsub(&d[i].x), d[k].y.zsub(&d[i].y));
                let (px, py) = (p.x.zsub(&h[i].x), p.y.zsub(&h[i].y));
                (ex.zmul(&py).zsub(&ey.zmul(&px)), ex, ey, px, py)
            };
            match h.len() {
                0 => false,
                1 => cmp(p, &h[0]) == Ordering::Equal,
                2 => {
                    let (s, ex, ey, px, py) = side(0, 1);
                    // t = (p − h0)·(h1 − h0) = |n|²·(p − h0)·e, in [0, |h1 − h0|²].
                    let t = px.zmul(&ex).zadd(&py.zmul(&ey));
                    s.is_zero_()
                        && t.zsign() >= 0
                        && t.zcmp(&n2.zmul(&ex.zmul(&ex).zadd(&ey.zmul(&ey)))) != Ordering::Greater
                }
                n => (0..n).all(|i| side(i, (i + 1) % n).0.zsign() >= 0),
            }
        }
    }

    /// `crossing2` of edge `e` of `p` (a's feature) and edge `f` of `q`:
    /// the crossing in the scaled plane and in space (on a's edge).
    fn crossing<T: Zi>(
        p: &Feature<T>,
        e: (usize, usize),
        q: &Feature<T>,
        f: (usize, usize),
        n2: &T,
        nk: &T,
    ) -> Option<(H<T>, Vertex<T>)> {
        let (dp, dq) = (&p.dir, &q.dir);
        let r = (dp[e.1].x.zsub(&dp[e.0].x), dp[e.1].y.zsub(&dp[e.0].y));
        let s = (dq[f.1].x.zsub(&dq[f.0].x), dq[f.1].y.zsub(&dq[f.0].y));
        let den = r.0.zmul(&s.1).zsub(&r.1.zmul(&s.0));
        if den.is_zero_() {
            return None;
        }
        let (p0, q0) = (&p.at[e.0], &q.at[f.0]);
        let w = (q0.x.zsub(&p0.x), q0.y.zsub(&p0.y));
        // The parameters along p and q are t/(|n|²·den) and u/(|n|²·den).
        let t = w.0.zmul(&s.1).zsub(&w.1.zmul(&s.0));
        let u = w.0.zmul(&r.1).zsub(&w.1.zmul(&r.0));
        let full = n2.zmul(&den);
        let unit = |x: &T| {
            if full.zsign() > 0 {
                x.zsign() >= 0 && x.zcmp(&full) != Ordering::Greater
            } else {
                x.zsign() <= 0 && x.zcmp(&full) != Ordering::Less
            }
        };
        if !(unit(&t) && unit(&u)) {
            return None;
        }
        // p0 + t/(|n|²·den)·(|n|²·r) = (p0·den + t·r)/den in the plane.
        let flip = den.zsign() < 0;
        let sg = |x: T| if flip { x.zneg() } else { x };
        let h = H {
            x: sg(p0.x.zmul(&den).zadd(&t.zmul(&r.0))),
            y: sg(p0.y.zmul(&den).zadd(&t.zmul(&r.1))),
            w: sg(den.clone()),
        };
        // In space the crossing is a0 + t/(|n|²·den)·d on a's edge
        // (d = a1 − a0; a's points have w = 1), over a smaller denominator:
        // both edges lie in planes normal to n (a's supporting plane and
        // b's moved one, which coincide: the scaled points differ by
        // W = q0 − p0 with n·W = 0), so d × e = γ·n and W × e = μ·n for
        // integers γ, μ (n is primitive; e is b's edge direction), and the
        // plane's cross products are their k-th components (k the dropped
        // coordinate): den = γ·n_k, t = μ·n_k with n_k ≠ 0. So
        // t/(|n|²·den) = μ/(γ·|n|²), and the crossing is
        // (a0·γ·|n|² + μ·d)/(γ·|n|²), both divisions exact.
        let (gamma, mu) = (den.zdiv(nk), t.zdiv(nk));
        debug_assert!(gamma.zmul(nk) == den && mu.zmul(nk) == t);
        let (a0, a1) = (&p.space[e.0].0, &p.space[e.1].0);
        let d = [0, 1, 2].map(|c| a1[c].zsub(&a0[c]));
        let w = gamma.zmul(n2);
        let back = gamma.zsign() < 0; // w > 0 in the answer
        let sw = |x: T| if back { x.zneg() } else { x };
        let at = |c: usize| sw(a0[c].zmul(&w).zadd(&mu.zmul(&d[c])));
        let space = [at(0), at(1), at(2), sw(w.clone())];
        Some((h, (space, Src::Cross(mu, d, gamma.zabs()))))
    }

    /// `meet2`: the intersection of two features, as points in space in
    /// the reference's order.
    pub(super) fn meet<T: Zi>(p: &Feature<T>, q: &Feature<T>, n2: &T, nk: &T) -> Vec<Vertex<T>> {
        // The points in the plane and in space, side by side.
        let mut plane: SmallVec<[H<T>; 4]> = SmallVec::new();
        let mut space: Vec<Vertex<T>> = Vec::with_capacity(4);
        for (x, s) in p.at.iter().zip(&p.space) {
            if q.contains(x, n2) {
                plane.push(x.clone());
                space.push(s.clone());
            }
        }
        for (x, s) in q.at.iter().zip(&q.space) {
            if p.contains(x, n2) {
                plane.push(x.clone());
                space.push(s.clone());
            }
        }
        let corners = plane.len();
        let qe = q.edges();
        for e in p.edges() {
            for &f in &qe {
                if let Some((h, s)) = crossing(p, e, q, f, n2, nk) {
                    plane.push(h);
                    space.push(s);
                }
            }
        }
        if plane.len() <= 1 {
            return space; // hull_order's answer for one point or none
        }
        // The orientation of three points with a crossing among them is
        // beyond the fixed width's bound: that hull runs in BigInt.
        let order = if T::FIXED && plane.len() >= 3 && plane.len() > corners {
            let big: Vec<H<Z>> = plane
                .iter()
                .map(|h| H {
                    x: h.x.big(),
                    y: h.y.big(),
                    w: h.w.big(),
                })
                .collect();
            hull_order(&big)
        } else {
            hull_order(&plane)
        };
        // Each index once: the vertices are moved out, not cloned.
        let empty = || ([T::z0(), T::z0(), T::z0(), T::z0()], Src::A);
        order
            .into_iter()
            .map(|i| std::mem::replace(&mut space[i], empty()))
            .collect()
    }
}

/// The exact contact of two boxes of doubles (docs/contact.md), the same
/// answer as [`crate::query::contact`]'s reference: apart boxes (decided by
/// the filtered 15-axis test) get the float-guided exact distance, meeting
/// ones the penetration proved on the float-guided path, or the reference's
/// where the guess fails.
///
/// ```
/// use exact_collision::query::{box_box, ContactAnswer};
/// use exact_collision::{Obb, Vec3};
/// use num_rational::BigRational;
/// let v = |x: f64, y: f64, z: f64| Vec3::new(x, y, z);
/// let unit = |c| Obb::new(c, [v(0.5, 0., 0.), v(0., 0.5, 0.), v(0., 0., 0.5)]).unwrap();
/// match box_box::contact::contact(&unit(v(0., 0., 0.)), &unit(v(0., 0., 0.75))).unwrap() {
///     ContactAnswer::Meeting(p) => {
///         assert_eq!(p.depth_squared, BigRational::new(1.into(), 16.into()));
///         assert_eq!(p.normals.len(), 1); // (0, 0, 1)
///     }
///     ContactAnswer::Apart(_) => unreachable!(),
/// }
/// ```
pub fn contact(a: &Obb<f64>, b: &Obb<f64>) -> Result<ContactAnswer, QueryError> {
    if !overlaps(a, b) {
        return distance_exact_unreduced(&Shape::Box(a.clone()), &Shape::Box(b.clone()))
            .map(|c| ContactAnswer::Apart(Box::new(c.into_reduced())));
    }
    if let Some(p) = penetration(a, b) {
        stats::BOX_CONTACT.fast();
        return Ok(ContactAnswer::Meeting(Box::new(p)));
    }
    stats::BOX_CONTACT.fallback();
    reference_penetration(a, b).map(|p| ContactAnswer::Meeting(Box::new(p)))
}

/// [`contact`]'s answer before any reduction to lowest terms: the same
/// values as integers over common denominators, built in integers with no
/// gcd but the normals' ([`ContactUnreduced::reduce`] gives [`contact`]'s
/// answer).
///
/// ```
/// use exact_collision::query::box_box::contact::{contact, contact_unreduced, ContactUnreduced};
/// use exact_collision::{Obb, Vec3};
/// use num_bigint::BigInt;
/// let v = |x: f64, y: f64, z: f64| Vec3::new(x, y, z);
/// let unit = |c| Obb::new(c, [v(0.5, 0., 0.), v(0., 0.5, 0.), v(0., 0., 0.5)]).unwrap();
/// let (a, b) = (unit(v(0., 0., 0.)), unit(v(0., 0., 0.75)));
/// let u = contact_unreduced(&a, &b).unwrap();
/// let ContactUnreduced::Meeting(p) = &u else { unreachable!() };
/// // In units of 2^-2: o = 1 along n = (0, 0, 1), δ = 1/4.
/// assert_eq!((p.e0, &p.overlap, &p.norm_squared), (-2, &BigInt::from(1), &BigInt::from(1)));
/// assert_eq!(u.reduce(), contact(&a, &b).unwrap());
/// ```
pub fn contact_unreduced(a: &Obb<f64>, b: &Obb<f64>) -> Result<ContactUnreduced, QueryError> {
    if !overlaps(a, b) {
        return distance_exact_unreduced(&Shape::Box(a.clone()), &Shape::Box(b.clone()))
            .map(ContactUnreduced::Apart);
    }
    if let Some(p) = penetration_unreduced(a, b) {
        stats::BOX_CONTACT.fast();
        return Ok(ContactUnreduced::Meeting(p));
    }
    stats::BOX_CONTACT.fallback();
    reference_penetration(a, b).map(|p| ContactUnreduced::Reference(Box::new(p)))
}

/// The reference's penetration of two meeting boxes.
fn reference_penetration(a: &Obb<f64>, b: &Obb<f64>) -> Result<Penetration, QueryError> {
    let (pa, pb) = (
        Polytope::new(&Shape::Box(a.clone())),
        Polytope::new(&Shape::Box(b.clone())),
    );
    penetration_of_meeting(&pa, &pb)
}

// ---- Hooks for boxes by pose (`pose/contact.rs`): the same machinery on
// boxes given as a center and half-axes in any ring (the pose path's
// filtered values) or in integers (the pose's exact box scaled to integers).

/// A box as its center and half-axes.
pub(super) type Axes<R> = (Vec3<R>, [Vec3<R>; 3]);

/// [`candidates`] of two boxes given as [`Axes`]: every candidate's overlap
/// `o` and `|n|²`, in candidate order.
pub(super) fn candidates_of<R: Ring>(a: Axes<R>, b: Axes<R>) -> [(R, R); 15] {
    let lifted = |(c, h): Axes<R>| Lifted { c, h };
    candidates(&lifted(a), &lifted(b))
}

/// [`gap`]: `o_c²·|n_m|² − o_m²·|n_c|²`.
pub(super) fn gap_of<R: Ring>(oc: &R, nnc: &R, om: &R, nnm: &R) -> R {
    gap(oc, nnc, om, nnm)
}

/// The exact build ([`Frame::normals`], [`Frame::build`]) on two meeting
/// boxes with integer centers and half-axes, for the optimal candidates
/// `tied` (in candidate order): the values in the integers' own unit
/// (`e0 = 0`), and for each region vertex the factors of its `w` (none for
/// a vertex of a, `[|n|²]` for a moved vertex of b, `[|n|², w/|n|²]` for a
/// crossing), or `None` where the build gives up.
pub(super) fn penetration_of_integers(
    a: Axes<Z>,
    b: Axes<Z>,
    tied: &[usize],
) -> Option<(PenetrationUnreduced, Vec<Vec<Z>>)> {
    let f = Frame {
        za: Lifted { c: a.0, h: a.1 },
        zb: Lifted { c: b.0, h: b.1 },
    };
    let built = f.build(f.normals(tied)?)?;
    let n2 = &built.norm_squared;
    let factors = built
        .region
        .iter()
        .map(|(p, src)| match src {
            Src::A => Vec::new(),
            Src::B => vec![n2.clone()],
            Src::Cross(..) => vec![n2.clone(), &p[3] / n2],
        })
        .collect();
    Some((built.unreduced(0), factors))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// [`candidates`]' shared dot products give every candidate's overlap
    /// and |n|² exactly as [`candidate`]'s direct formula does, on random
    /// boxes (any axes, not only orthogonal ones, so the identities are
    /// checked beyond the orthogonality that would make some terms vanish
    /// anyway), evaluated in exact rationals.
    #[test]
    fn shared_candidates_equal_direct_ones() {
        let mut s = 26u64;
        let mut next = || {
            let r = crate::poly::planted::splitmix64(&mut s);
            // Small dyadic doubles of both signs, zeros now and then.
            ((r >> 40) as i64 - (1 << 23)) as f64 / 4096.0 * ((r & 7 != 0) as u8 as f64)
        };
        let q = |x: &f64| Q::from_float(*x).unwrap();
        for _ in 0..300 {
            let mut v = || Vec3::new(next(), next(), next());
            let a = Obb {
                center: v(),
                half_axes: [v(), v(), v()],
            };
            let b = Obb {
                center: v(),
                half_axes: [v(), v(), v()],
            };
            let (la, lb) = (lift(&a, &q), lift(&b, &q));
            let shared = candidates(&la, &lb);
            for (k, (o, nn)) in shared.iter().enumerate() {
                let (n, o_direct) = candidate(&la, &lb, k);
                assert_eq!((o, nn), (&o_direct, &n.norm_squared()), "candidate {k}");
            }
        }
    }
}
