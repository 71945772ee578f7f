//! The float-guided path for rounded shapes whose cores are points or
//! segments (spheres, capsules) against points, segments, triangles and boxes
//! (a cube is its box): the closest features guessed in doubles, proved with
//! filtered exact signs, the exact closest pair built from the proved
//! features. Answers `None` where it does not apply or its proof fails (the
//! caller then takes the exact path; [`crate::stats::ROUNDED`] counts both).
//!
//! # The features
//!
//! Core A (a point or a segment) has its end points and its edge; core B its
//! vertices, edges and faces (a box's features are `c + Σ sᵢhᵢ` with each
//! `sᵢ` fixed at ±1 or free in `[−1, 1]`; all three free is the solid box).
//! A feature is an origin `o`, directions and a range of its parameters
//! (`[0, 1]` on an edge, `t₁, t₂ ≥ 0, t₁ + t₂ ≤ 1` on a triangle,
//! `[−1, 1]` on a box).
//!
//! # The guess
//!
//! For a pair of features `(f_a, f_b)` with `k` directions in all, the closest
//! pair of their affine hulls solves the `k × k` Gram system `Gx = −Wᵀw`
//! (`W` the directions, `A`'s negated, `w = o_b − o_a`); by Cramer's rule
//! `x = N/D` with `D = det G` and every `Nᵢ` a polynomial in the inputs, and
//! `D·d = D·w + Σ NᵢWᵢ` for the difference `d = p_b − p_a`. In doubles, the
//! pairs whose parameters lie (nearly) in range are ordered by `|d|²`; a
//! sphere against a box first tries the feature its center's box
//! coordinates, clamped, name.
//!
//! # The proof (filtered exact signs, [`Fx`])
//!
//! The same polynomials in [`Fx`] (doubles with a proven error bound), and
//! every sign below decided by the bound or the guess is refused:
//!
//! - `D > 0`: the directions are independent, so the affine hulls have one
//!   closest pair;
//! - the parameters in range (`0 ≤ Nᵢ ≤ D`, …): `p_a ∈ f_a`, `p_b ∈ f_b`;
//! - for `k ≤ 2`, `|D·d|² > 0` and the slab: every vertex `v` of A off `f_a`
//!   has `d·(v − o_a) < 0`, every vertex of B off `f_b` has `d·(v − o_b) > 0`
//!   (on a box: `sᵢ·(d·hᵢ) < 0` on each fixed axis, which is the same for its
//!   eight vertices). Then A and B lie on either side of the slab between
//!   the planes through `p_a` and `p_b` orthogonal to `d`, so `(p_a, p_b)` is
//!   a closest pair; the faces the slab's planes cut out are exactly `f_a`
//!   and `f_b` (strict signs), whose closest pair is unique (`D > 0`), so the
//!   closest pair is unique and is the exact path's answer;
//! - for `k = 3` (a point against the solid box, a segment crossing a
//!   triangle's plane) `d = 0`: the common point is in both, and unique (a
//!   point is one point; a segment not parallel to a plane meets it once).
//!
//! Everything else (a core touching or crossing B in more than one point,
//! parallel features at the least distance, an undecided sign, an overflow)
//! is refused, and the exact path answers.
//!
//! # The construction
//!
//! From the proved features, the same polynomials in exact dyadic integers
//! over the one denominator `D`: `p_a = (D·o_a + Σ Nᵢ Uᵢ)/D`, likewise
//! `p_b`, and `q = ((D·d)·w)/D` (`d` is orthogonal to the directions, so
//! `|d|² = d·w`). They are built in stack integers ([`Fd`]) when the inputs
//! span at most [`SPREAD`] bits, in [`Dyadic`] otherwise, and reduced to
//! lowest terms once, all seven together ([`Exact::over_den`]).
//!
//! # The rounded distance
//!
//! For `distance_f64`, the sign of `q − R²` is the filter's
//! (`|D·d|² − D²R²` in [`Fx`]), and for apart shapes the double nearest to
//! `√q − R = |D·d|/D − R` is certified in double-word arithmetic
//! ([`Dx`], [`nearest_sqrt_quot_minus`]): no exact number is built unless a
//! sign is undecided.

use crate::num::bounded::Fx;
use crate::num::double_word::{nearest_sqrt_quot_minus, Dx};
use crate::num::dyadic::Dyadic;
use crate::num::fixed::{int_pow2_rational, Int, Nat, Over};
use crate::num::gcd::ratio;
use crate::num::ring::Ring;
use crate::num::sign::Sign;
use crate::query::Closest;
use crate::shape::{Core, Rounded, Shape};
use crate::stats::ROUNDED;
use crate::vector::Vec3;
use num_bigint::BigInt;
use num_rational::BigRational;
use num_traits::{Signed, Zero};

type P = [f64; 3];

/// A core this path handles, as its input doubles.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Piece {
    /// A point.
    Point(P),
    /// A segment with distinct end points.
    Segment(P, P),
    /// A triangle (possibly degenerate: the proof does not assume otherwise).
    Triangle([P; 3]),
    /// A box: center and half-axes (independent, checked when it was built).
    Box(P, [P; 3]),
}

impl Piece {
    /// The core of `r` as a piece, when this path handles it.
    pub(crate) fn of(r: &Rounded<f64>) -> Option<Piece> {
        let p = |v: &Vec3<f64>| [v.x, v.y, v.z];
        let piece = match &r.core {
            Core::Point(c) => Piece::Point(p(c)),
            Core::Segment(a, b) if a == b => Piece::Point(p(a)),
            Core::Segment(a, b) => Piece::Segment(p(a), p(b)),
            Core::Shape(Shape::Triangle(t)) => {
                Piece::Triangle([p(&t.v[0]), p(&t.v[1]), p(&t.v[2])])
            }
            Core::Shape(s) => {
                let b = s.as_box()?;
                Piece::Box(p(&b.center), b.half_axes.each_ref().map(p))
            }
            Core::Hull(h) if h.dim() == 0 => Piece::Point(p(&h.vertex_points()[0])),
            Core::Hull(h) if h.dim() == 1 => {
                let v = h.vertex_points();
                Piece::Segment(p(&v[0]), p(&v[1]))
            }
            Core::Hull(_) => return None,
        };
        let ok = match &piece {
            Piece::Point(a) => fin(&[*a]),
            Piece::Segment(a, b) => fin(&[*a, *b]),
            Piece::Triangle(v) => fin(v),
            Piece::Box(c, h) => fin(&[*c, h[0], h[1], h[2]]),
        };
        ok.then_some(piece)
    }

    fn is_small(&self) -> bool {
        matches!(self, Piece::Point(_) | Piece::Segment(..))
    }

    /// The features this path pairs: every vertex, edge and face; the solid
    /// box when `solid`. A fixed array and its length (no allocation).
    fn features(&self, solid: bool) -> ([Feat; 27], usize) {
        let mut out = [Feat::V(0); 27];
        let list: &[Feat] = match self {
            Piece::Point(_) => &[Feat::V(0)],
            Piece::Segment(..) => &[Feat::V(0), Feat::V(1), Feat::E(0, 1)],
            Piece::Triangle(_) => &[
                Feat::V(0),
                Feat::V(1),
                Feat::V(2),
                Feat::E(0, 1),
                Feat::E(1, 2),
                Feat::E(2, 0),
                Feat::F,
            ],
            Piece::Box(..) => {
                let mut n = 0;
                for code in 0..27u8 {
                    let s = [code % 3, code / 3 % 3, code / 9].map(|x| x as i8 - 1);
                    if solid || s != [0, 0, 0] {
                        out[n] = Feat::B(s);
                        n += 1;
                    }
                }
                return (out, n);
            }
        };
        out[..list.len()].copy_from_slice(list);
        (out, list.len())
    }

    fn vertex(&self, i: u8) -> P {
        match self {
            Piece::Point(a) => *a,
            Piece::Segment(a, b) => [*a, *b][i as usize],
            Piece::Triangle(v) => v[i as usize],
            Piece::Box(..) => unreachable!("box vertices are box features"),
        }
    }
}

fn fin(ps: &[P]) -> bool {
    ps.iter().flatten().all(|x| x.is_finite())
}

/// A feature of a piece.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Feat {
    /// Vertex `i`.
    V(u8),
    /// The edge from vertex `i` to vertex `j`, `t ∈ [0, 1]`.
    E(u8, u8),
    /// The triangle's face, `v₀ + t₁(v₁ − v₀) + t₂(v₂ − v₀)`.
    F,
    /// A box's feature: `c + Σ sᵢhᵢ`, `sᵢ = ±1` fixed, 0 free in `[−1, 1]`.
    B([i8; 3]),
}

impl Feat {
    fn dim(self) -> usize {
        match self {
            Feat::V(_) => 0,
            Feat::E(..) => 1,
            Feat::F => 2,
            Feat::B(s) => s.iter().filter(|&&x| x == 0).count(),
        }
    }
}

/// The parameter range of a feature.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Range {
    /// Each in `[0, 1]`.
    Unit,
    /// Each in `[−1, 1]`.
    Sym,
    /// `t₁, t₂ ≥ 0`, `t₁ + t₂ ≤ 1`.
    Simplex,
}

/// A feature in a ring: origin, directions (`k` of them) and range.
struct Aff<R> {
    o: [R; 3],
    d: [[R; 3]; 3],
    k: usize,
    range: Range,
}

#[inline(always)]
pub(super) fn sub<R: Ring>(a: &[R; 3], b: &[R; 3]) -> [R; 3] {
    [
        a[0].sub_ref(&b[0]),
        a[1].sub_ref(&b[1]),
        a[2].sub_ref(&b[2]),
    ]
}
#[inline(always)]
pub(super) fn add<R: Ring>(a: &[R; 3], b: &[R; 3]) -> [R; 3] {
    [
        a[0].add_ref(&b[0]),
        a[1].add_ref(&b[1]),
        a[2].add_ref(&b[2]),
    ]
}
#[inline(always)]
pub(super) fn scale<R: Ring>(s: &R, a: &[R; 3]) -> [R; 3] {
    [s.mul_ref(&a[0]), s.mul_ref(&a[1]), s.mul_ref(&a[2])]
}
#[inline(always)]
pub(super) fn dot<R: Ring>(a: &[R; 3], b: &[R; 3]) -> R {
    a[0].mul_ref(&b[0])
        .add_ref(&a[1].mul_ref(&b[1]))
        .add_ref(&a[2].mul_ref(&b[2]))
}
#[inline(always)]
pub(super) fn neg<R: Ring>(a: &[R; 3]) -> [R; 3] {
    [a[0].neg_ref(), a[1].neg_ref(), a[2].neg_ref()]
}
#[inline(always)]
pub(super) fn det3<R: Ring>(a: &[R; 3], b: &[R; 3], c: &[R; 3]) -> R {
    let cross = [
        b[1].mul_ref(&c[2]).sub_ref(&b[2].mul_ref(&c[1])),
        b[2].mul_ref(&c[0]).sub_ref(&b[0].mul_ref(&c[2])),
        b[0].mul_ref(&c[1]).sub_ref(&b[1].mul_ref(&c[0])),
    ];
    dot(a, &cross)
}

/// The number types the path evaluates in: doubles (the guess), [`Fx`] (the
/// proof) and [`Dyadic`] (the construction).
pub(super) trait Num: Ring {
    fn of(x: f64) -> Self;
}
impl Num for f64 {
    #[inline(always)]
    fn of(x: f64) -> Self {
        x
    }
}
impl Num for Fx {
    #[inline(always)]
    fn of(x: f64) -> Self {
        Fx::exact(x)
    }
}
impl Num for Dx {
    #[inline(always)]
    fn of(x: f64) -> Self {
        Dx::exact(x)
    }
}
impl Num for Dyadic {
    fn of(x: f64) -> Self {
        Dyadic::from_f64(x)
    }
}

/// A dyadic `m·2^e` with a fixed-width integer mantissa ([`Int`], on the
/// stack): the construction's number type when the inputs' bit spread is
/// at most [`SPREAD`] (checked by [`fits_fixed`] first), where every value
/// the construction forms stays far inside the fixed width.
#[derive(Clone, Copy, Debug)]
pub(super) struct Fd {
    m: Int,
    e: i64,
}

impl Fd {
    /// Both mantissas over the smaller exponent (a left shift of the other).
    #[inline(always)]
    fn aligned(&self, o: &Fd) -> (Int, Int, i64) {
        if self.m.signum() == 0 {
            return (Int::ZERO, o.m, o.e);
        }
        if o.m.signum() == 0 {
            return (self.m, Int::ZERO, self.e);
        }
        match self.e.cmp(&o.e) {
            std::cmp::Ordering::Equal => (self.m, o.m, self.e),
            std::cmp::Ordering::Greater => (self.m.shl((self.e - o.e) as u64), o.m, o.e),
            std::cmp::Ordering::Less => (self.m, o.m.shl((o.e - self.e) as u64), self.e),
        }
    }
}

impl Ring for Fd {
    fn zero() -> Self {
        Fd { m: Int::ZERO, e: 0 }
    }
    fn one() -> Self {
        Fd::from_i32(1)
    }
    fn from_i32(v: i32) -> Self {
        Fd {
            m: Int::from_i128(i128::from(v)),
            e: 0,
        }
    }
    fn add_ref(&self, o: &Self) -> Self {
        let (a, b, e) = self.aligned(o);
        Fd { m: a.add(&b), e }
    }
    fn sub_ref(&self, o: &Self) -> Self {
        let (a, b, e) = self.aligned(o);
        Fd { m: a.sub(&b), e }
    }
    fn mul_ref(&self, o: &Self) -> Self {
        Fd {
            m: self.m.mul(&o.m),
            e: self.e + o.e,
        }
    }
    fn neg_ref(&self) -> Self {
        Fd {
            m: self.m.neg(),
            e: self.e,
        }
    }
    fn abs_ref(&self) -> Self {
        Fd {
            m: Int::from_nat(false, *self.m.mag()),
            e: self.e,
        }
    }
}

impl Num for Fd {
    fn of(x: f64) -> Self {
        let (m, e) = crate::num::dyadic::f64_parts(x);
        Fd {
            m: Int::from_i128(i128::from(m)),
            e,
        }
    }
}

/// The largest spread, in bits, of the inputs a construction in [`Fd`]
/// takes: from the lowest set bit of any input double to the highest.
///
/// Each coordinate the construction forms from the inputs (a box vertex
/// `c ± h₀ ± h₁ ± h₂`, a difference of two such) is an integer multiple of
/// `2^e_min` below `5·2^e_top`, so at most `SPREAD + 3` bits over that
/// unit; every value built is a polynomial of degree at most 7 in them
/// (`k = 3`: `D·o + Σ Nᵢ Uᵢ` with `D = det²`, `Nᵢ = det·detᵢ`), with at
/// most 6·6·6 = 216 monomials per term (`2⁸`), and the additions by which
/// it is formed align to exponents no lower than the monomials' own (a sum
/// of monomials of degree `j` is a multiple of `2^(j·e_min)`): at most
/// `7·(80 + 3) + 8 + 8 = 597` bits, within [`Int`]'s 768 and below the
/// [`FIXED_BITS`] of the reduction.
const SPREAD: i64 = 80;

/// Whether the pieces' input doubles span at most [`SPREAD`] bits
/// (zeros, which add no bit, excepted).
fn fits_fixed(pieces: &[&Piece]) -> bool {
    let (mut lo, mut hi) = (i64::MAX, i64::MIN);
    let mut see = |p: &P| {
        for &x in p {
            let (m, e) = crate::num::dyadic::f64_parts(x);
            if m != 0 {
                lo = lo.min(e);
                hi = hi.max(e + i64::from(64 - m.unsigned_abs().leading_zeros()));
            }
        }
    };
    for piece in pieces {
        match piece {
            Piece::Point(a) => see(a),
            Piece::Segment(a, b) => {
                see(a);
                see(b);
            }
            Piece::Triangle(v) => v.iter().for_each(&mut see),
            Piece::Box(c, h) => {
                see(c);
                h.iter().for_each(&mut see);
            }
        }
    }
    lo > hi || hi - lo <= SPREAD
}

#[inline(always)]
pub(super) fn pt<R: Num>(p: &P) -> [R; 3] {
    [R::of(p[0]), R::of(p[1]), R::of(p[2])]
}

fn aff<R: Num>(piece: &Piece, f: Feat) -> Aff<R> {
    let z = || [R::zero(), R::zero(), R::zero()];
    let mut d = [z(), z(), z()];
    match f {
        Feat::V(i) => Aff {
            o: pt(&piece.vertex(i)),
            d,
            k: 0,
            range: Range::Unit,
        },
        Feat::E(i, j) => {
            let o = pt(&piece.vertex(i));
            d[0] = sub(&pt(&piece.vertex(j)), &o);
            Aff {
                o,
                d,
                k: 1,
                range: Range::Unit,
            }
        }
        Feat::F => {
            let o = pt(&piece.vertex(0));
            d[0] = sub(&pt(&piece.vertex(1)), &o);
            d[1] = sub(&pt(&piece.vertex(2)), &o);
            Aff {
                o,
                d,
                k: 2,
                range: Range::Simplex,
            }
        }
        Feat::B(s) => {
            let Piece::Box(c, h) = piece else {
                unreachable!("box features belong to boxes")
            };
            let mut o = pt::<R>(c);
            let mut k = 0;
            for (si, hi) in s.iter().zip(h) {
                let hv = pt::<R>(hi);
                match si {
                    1 => o = add(&o, &hv),
                    -1 => o = sub(&o, &hv),
                    _ => {
                        d[k] = hv;
                        k += 1;
                    }
                }
            }
            Aff {
                o,
                d,
                k,
                range: Range::Sym,
            }
        }
    }
}

/// The closest pair of two features' affine hulls over a common
/// denominator: `D`, the numerators `N` of A's then B's parameters, and
/// `D·d` (zero when `k = 3`).
struct Sol<R> {
    den: R,
    n: [R; 3],
    dd: [R; 3],
    k: usize,
}

fn solve<R: Ring>(a: &Aff<R>, b: &Aff<R>) -> Sol<R> {
    let w = sub(&b.o, &a.o);
    let k = a.k + b.k;
    let z = || [R::zero(), R::zero(), R::zero()];
    let mut cols = [z(), z(), z()];
    for (c, u) in cols.iter_mut().zip(&a.d[..a.k]) {
        *c = neg(u);
    }
    for j in 0..b.k {
        cols[a.k + j] = b.d[j].clone();
    }
    let mut n = [R::zero(), R::zero(), R::zero()];
    let (den, dd) = match k {
        0 => (R::one(), w),
        1 => {
            let den = dot(&cols[0], &cols[0]);
            n[0] = dot(&cols[0], &w).neg_ref();
            let dd = add(&scale(&den, &w), &scale(&n[0], &cols[0]));
            (den, dd)
        }
        2 => {
            let g11 = dot(&cols[0], &cols[0]);
            let g12 = dot(&cols[0], &cols[1]);
            let g22 = dot(&cols[1], &cols[1]);
            let r1 = dot(&cols[0], &w).neg_ref();
            let r2 = dot(&cols[1], &w).neg_ref();
            let den = g11.mul_ref(&g22).sub_ref(&g12.square());
            n[0] = r1.mul_ref(&g22).sub_ref(&g12.mul_ref(&r2));
            n[1] = g11.mul_ref(&r2).sub_ref(&g12.mul_ref(&r1));
            let dd = add(
                &add(&scale(&den, &w), &scale(&n[0], &cols[0])),
                &scale(&n[1], &cols[1]),
            );
            (den, dd)
        }
        _ => {
            // W x = −w: x = det(W with column i replaced by −w) / det W;
            // over det W² so that the denominator is positive.
            let det = det3(&cols[0], &cols[1], &cols[2]);
            let mw = neg(&w);
            n[0] = det3(&mw, &cols[1], &cols[2]).mul_ref(&det);
            n[1] = det3(&cols[0], &mw, &cols[2]).mul_ref(&det);
            n[2] = det3(&cols[0], &cols[1], &mw).mul_ref(&det);
            (det.square(), z())
        }
    };
    Sol { den, n, dd, k }
}

/// The quantities that are `≥ 0` exactly when a feature's parameters
/// (`n`, over `den`) are in its range.
fn range_terms<R: Ring>(f: &Aff<R>, n: &[R], den: &R, out: &mut impl FnMut(R)) {
    match f.range {
        Range::Unit => {
            for x in &n[..f.k] {
                out(x.clone());
                out(den.sub_ref(x));
            }
        }
        Range::Sym => {
            for x in &n[..f.k] {
                out(den.add_ref(x));
                out(den.sub_ref(x));
            }
        }
        Range::Simplex => {
            out(n[0].clone());
            out(n[1].clone());
            out(den.sub_ref(&n[0]).sub_ref(&n[1]));
        }
    }
}

/// The quantities that are `> 0` exactly when the slab separates strictly
/// off the features (`k ≤ 2`): `|D·d|²`, then one per vertex of A off `f_a`,
/// per vertex of B off `f_b` (per fixed axis on a box).
fn slab_terms<R: Num>(
    pa: &Piece,
    fa: Feat,
    pb: &Piece,
    fb: Feat,
    dd: &[R; 3],
    out: &mut impl FnMut(R),
) {
    out(dot(dd, dd));
    // A: d·(v − o_a) < 0 for the other end point of a segment at a vertex.
    if let (Piece::Segment(..), Feat::V(i)) = (pa, fa) {
        let e = sub(&pt::<R>(&pa.vertex(1 - i)), &pt(&pa.vertex(i)));
        out(dot(dd, &e).neg_ref());
    }
    match (pb, fb) {
        (Piece::Box(_, h), Feat::B(s)) => {
            for (si, hi) in s.iter().zip(h) {
                if *si != 0 {
                    let x = dot(dd, &pt::<R>(hi));
                    out(if *si > 0 { x.neg_ref() } else { x });
                }
            }
        }
        (Piece::Point(_), _) => {}
        (Piece::Segment(..), Feat::V(i)) => {
            let e = sub(&pt::<R>(&pb.vertex(1 - i)), &pt(&pb.vertex(i)));
            out(dot(dd, &e));
        }
        (Piece::Triangle(_), _) => {
            let (o, on): (u8, &[u8]) = match fb {
                Feat::V(i) => (i, &[i][..]),
                Feat::E(i, j) => (i, &[i, j][..]),
                _ => (0, &[0, 1, 2][..]),
            };
            let o = pt::<R>(&pb.vertex(o));
            for m in 0..3u8 {
                if !on.contains(&m) {
                    out(dot(dd, &sub(&pt::<R>(&pb.vertex(m)), &o)));
                }
            }
        }
        _ => {}
    }
}

/// Whether the pair of features may be the closest pair's (dimension at most
/// 2, or 3 for a point in the solid box and a segment through a triangle).
fn allowed(pb: &Piece, fa: Feat, fb: Feat) -> bool {
    match fa.dim() + fb.dim() {
        0..=2 => !matches!(fb, Feat::B([0, 0, 0])),
        3 => matches!(
            (pb, fa, fb),
            (Piece::Box(..), Feat::V(_), Feat::B([0, 0, 0]))
                | (Piece::Triangle(_), Feat::E(..), Feat::F)
        ),
        _ => false,
    }
}

/// The guess for one pair of features, in doubles: `Some(|d|²)` when the
/// parameters are in range up to a small tolerance.
fn guess(pa: &Piece, fa: Feat, pb: &Piece, fb: Feat) -> Option<f64> {
    let (a, b) = (aff::<f64>(pa, fa), aff::<f64>(pb, fb));
    let s = solve(&a, &b);
    if s.den.is_nan() || s.den <= 0.0 {
        return None;
    }
    let tol = -1e-9 * s.den;
    let mut ok = true;
    let mut check = |t: f64| ok &= t >= tol;
    range_terms(&a, &s.n[..a.k], &s.den, &mut check);
    range_terms(&b, &s.n[a.k..], &s.den, &mut check);
    if !ok {
        return None;
    }
    if s.k == 3 {
        return Some(0.0);
    }
    Some(dot(&s.dd, &s.dd) / (s.den * s.den))
}

/// The proof of one pair of features, in [`Fx`]: every sign decided.
fn prove(pa: &Piece, fa: Feat, pb: &Piece, fb: Feat) -> Option<Sol<Fx>> {
    let (a, b) = (aff::<Fx>(pa, fa), aff::<Fx>(pb, fb));
    let s = solve(&a, &b);
    if s.den.sign() != Some(Sign::Positive) {
        return None;
    }
    let mut ok = true;
    let mut nonneg = |t: Fx| ok &= matches!(t.sign(), Some(Sign::Positive | Sign::Zero));
    range_terms(&a, &s.n[..a.k], &s.den, &mut nonneg);
    range_terms(&b, &s.n[a.k..], &s.den, &mut nonneg);
    if s.k < 3 {
        let mut pos = |t: Fx| ok &= t.sign() == Some(Sign::Positive);
        slab_terms(pa, fa, pb, fb, &s.dd, &mut pos);
    }
    if !ok {
        return None;
    }
    Some(s)
}

/// A proved closest pair of features: the pieces (the point or segment
/// first), the features, whether the query's shapes were swapped, and the
/// proof's enclosures.
pub(crate) struct Proved {
    pa: Piece,
    fa: Feat,
    pb: Piece,
    fb: Feat,
    swapped: bool,
    sol: Sol<Fx>,
}

/// The cores as pieces this path handles, the point or segment first.
fn pieces(a: &Rounded<f64>, b: &Rounded<f64>) -> Option<(Piece, Piece, bool)> {
    let (pa, pb) = (Piece::of(a)?, Piece::of(b)?);
    if pa.is_small() {
        Some((pa, pb, false))
    } else if pb.is_small() {
        Some((pb, pa, true))
    } else {
        None
    }
}

/// The sphere-against-box guess: the center's box coordinates `t = H⁻¹(p −
/// c)`, clamped to `[−1, 1]`, name a feature (the closest one when the
/// half-axes are orthogonal).
fn box_guess(p: &P, c: &P, h: &[P; 3]) -> Option<Feat> {
    box_region(p, c, h).map(Feat::B)
}

/// The center's box coordinates `t = H⁻¹(p − c)` in doubles (Cramer),
/// clamped to `[−1, 1]`, as signs: `±1` past a face, `0` between.
pub(super) fn box_region(p: &P, c: &P, h: &[P; 3]) -> Option<[i8; 3]> {
    let w = [p[0] - c[0], p[1] - c[1], p[2] - c[2]];
    let det = det3(&h[0], &h[1], &h[2]);
    if !(det != 0.0 && det.is_finite()) {
        return None;
    }
    let t = [
        det3(&w, &h[1], &h[2]) / det,
        det3(&h[0], &w, &h[2]) / det,
        det3(&h[0], &h[1], &w) / det,
    ];
    Some(t.map(|x| {
        if x > 1.0 {
            1
        } else if x < -1.0 {
            -1
        } else {
            0
        }
    }))
}

/// How many candidate feature pairs the proof tries.
const TRIES: usize = 6;

/// The proved closest features of the cores, or `None` (not handled, or no
/// guess proved).
fn proved_pieces(pa: Piece, pb: Piece, swapped: bool) -> Option<Proved> {
    let done = |fa, fb, sol| Proved {
        pa,
        fa,
        pb,
        fb,
        swapped,
        sol,
    };
    if let (Piece::Point(p), Piece::Box(c, h)) = (&pa, &pb) {
        if let Some(fb) = box_guess(p, c, h) {
            if let Some(sol) = prove(&pa, Feat::V(0), &pb, fb) {
                return Some(done(Feat::V(0), fb, sol));
            }
        }
    }
    let solid = matches!(pa, Piece::Point(_));
    let mut cands = [(0.0, 0, Feat::V(0), Feat::V(0)); 81];
    let mut len = 0;
    let ((fas, na), (fbs, nb)) = (pa.features(false), pb.features(solid));
    for &fa in &fas[..na] {
        for &fb in &fbs[..nb] {
            if allowed(&pb, fa, fb) {
                if let Some(d2) = guess(&pa, fa, &pb, fb) {
                    cands[len] = (d2, fa.dim() + fb.dim(), fa, fb);
                    len += 1;
                }
            }
        }
    }
    let cands = &mut cands[..len];
    cands.sort_unstable_by(|x, y| x.0.total_cmp(&y.0).then(x.1.cmp(&y.1)));
    for &(_, _, fa, fb) in cands.iter().take(TRIES) {
        if let Some(sol) = prove(&pa, fa, &pb, fb) {
            return Some(done(fa, fb, sol));
        }
    }
    None
}

/// The proved closest features of two rounded shapes' cores; `None` where
/// the path does not apply or its proof fails.
pub(crate) fn proved(a: &Rounded<f64>, b: &Rounded<f64>) -> Option<Proved> {
    let (pa, pb, swapped) = pieces(a, b)?;
    proved_pieces(pa, pb, swapped)
}

/// The widths up to which [`Exact::over_den`] reduces in fixed width
/// ([`Over`]): numerators of at most [`FIXED_BITS`] (the bound of
/// [`crate::num::gcd::gcd_lehmer`]'s fixed-width gcd), and a denominator
/// whose odd part has at most [`OVER_BITS`], half the width, so that
/// [`Over`]'s product of two residues modulo it stays within the width.
const FIXED_BITS: u64 = 64 * (crate::num::fixed::L as u64 - 1);
const OVER_BITS: u64 = 64 * (crate::num::fixed::L as u64 / 2);

/// `(m·2^e)/(d·2^f)` in lowest terms by one gcd ([`ratio`]): the
/// reduction beyond [`Over`]'s widths.
fn by_ratio(m: &BigInt, e: i64, d: &BigInt, f: i64) -> BigRational {
    let p = e - f;
    if p >= 0 {
        ratio(m << (p as usize), d.clone())
    } else {
        ratio(m.clone(), d << ((-p) as usize))
    }
}

/// The values `xᵢ/D` of dyadic numerators `xᵢ` over one dyadic denominator
/// `D > 0`, each in lowest terms: the integers over their common
/// denominator reduced once, not a rational built and reduced per step.
///
/// With `D = m·2^e` and `xᵢ = mᵢ·2^(eᵢ)`, `xᵢ/D = (mᵢ/m)·2^(eᵢ − e)`: when
/// `m` is a power of two every value is dyadic (no gcd); otherwise one gcd
/// of `m`'s odd part with the product of the `mᵢ` ([`Over`]: `gcd(mᵢ, m)`
/// divides it), after which each value's gcd is one of that small factor,
/// and powers of two cancel by shifts. Integers wider than the fixed width
/// take Lehmer's gcd per value ([`ratio`]). Lowest terms are unique, so
/// every way gives the same values.
pub(super) trait Exact: Sized {
    fn over_den<const N: usize>(den: &Self, xs: &[Self; N]) -> [BigRational; N];
}

impl Exact for Dyadic {
    fn over_den<const N: usize>(den: &Dyadic, xs: &[Dyadic; N]) -> [BigRational; N] {
        let (dm, de) = den.parts();
        debug_assert!(dm.is_positive(), "a positive denominator");
        let tz = dm.trailing_zeros().unwrap_or(0);
        if dm.bits() == tz + 1 {
            // D = 2^(e + tz): dyadic values.
            let shift = de + tz as i64;
            return xs.each_ref().map(|x| {
                let (m, e) = x.parts();
                Dyadic::from_parts(m.clone(), e - shift).to_rational()
            });
        }
        let fits =
            dm.bits() - tz <= OVER_BITS && xs.iter().all(|x| x.parts().0.bits() <= FIXED_BITS);
        if fits {
            let nat = |m: &BigInt| Nat::from_biguint(m.magnitude());
            let ms = xs.each_ref().map(|x| {
                let (m, e) = x.parts();
                Fd {
                    m: Int::from_nat(m.is_negative(), nat(m)),
                    e,
                }
            });
            let d = Fd {
                m: Int::from_nat(false, nat(dm)),
                e: de,
            };
            return Fd::over_den(&d, &ms);
        }
        xs.each_ref().map(|x| {
            let (m, e) = x.parts();
            by_ratio(m, e, dm, de)
        })
    }
}

impl Exact for Fd {
    fn over_den<const N: usize>(den: &Fd, xs: &[Fd; N]) -> [BigRational; N] {
        let dm = den.m.mag();
        debug_assert!(den.m.signum() > 0, "a positive denominator");
        let tz = dm.trailing_zeros();
        if dm.bits() == tz + 1 {
            // D = 2^(e + tz): dyadic values.
            let shift = den.e + tz as i64;
            return xs.each_ref().map(|x| int_pow2_rational(&x.m, x.e - shift));
        }
        if dm.bits() - tz > OVER_BITS || xs.iter().any(|x| x.m.mag().bits() > FIXED_BITS) {
            let d = den.m.to_bigint();
            return xs
                .each_ref()
                .map(|x| by_ratio(&x.m.to_bigint(), x.e, &d, den.e));
        }
        let ns = xs.each_ref().map(|x| *x.m.mag());
        let mut over = Over::new(dm, &ns);
        // gcd(mᵢ, m) is found from mᵢ itself, a divisor of the product.
        std::array::from_fn(|i| over.value(&xs[i].m, &ns[i], xs[i].e - den.e))
    }
}

/// [`Proved::integers`]: `D`, A's point's numerators, and B's with `q`'s
/// numerator unless `q = 0`.
type Integers<R> = (R, [R; 3], Option<([R; 3], R)>);

impl Proved {
    /// The exact closest pair's integers over the common denominator `D`:
    /// `D`, the points' numerators `D·o + Σ Nᵢ Uᵢ` (A's then B's) and `q`'s
    /// numerator over `D` (`None` for `q = 0`, where `p_b = p_a`).
    ///
    /// `q = |d|² = d·w`: `d = w + Σ xᵢWᵢ` is orthogonal to every direction
    /// `Wᵢ` (the Gram system `Gx = −Wᵀw`, solved exactly, says so), so
    /// `|d|² = d·(w + Σ xᵢWᵢ) = d·w`, and `q = ((D·d)·w)/D`: a numerator of
    /// lower degree than `|D·d|²/D²`, over the points' denominator.
    fn integers<R: Num>(&self) -> Integers<R> {
        let (a, b) = (aff::<R>(&self.pa, self.fa), aff::<R>(&self.pb, self.fb));
        let s = solve(&a, &b);
        let num = |f: &Aff<R>, n: &[R]| -> [R; 3] {
            let mut num = scale(&s.den, &f.o);
            for (x, u) in n.iter().zip(&f.d[..f.k]) {
                num = add(&num, &scale(x, u));
            }
            num
        };
        let xa = num(&a, &s.n[..a.k]);
        let rest = (s.k < 3).then(|| {
            let w = sub(&b.o, &a.o);
            (num(&b, &s.n[a.k..s.k]), dot(&s.dd, &w))
        });
        (s.den, xa, rest)
    }

    /// Whether the construction runs in fixed width ([`Fd`]).
    fn fixed(&self) -> bool {
        fits_fixed(&[&self.pa, &self.pb])
    }

    /// The cores' exact closest pair, in the query's order: integers over
    /// one denominator, reduced once ([`over_den`]).
    pub(crate) fn closest(&self) -> Closest<BigRational> {
        if self.fixed() {
            self.closest_in::<Fd>()
        } else {
            self.closest_in::<Dyadic>()
        }
    }

    /// [`closest`](Self::closest) built in `R`.
    fn closest_in<R: Num + Exact>(&self) -> Closest<BigRational> {
        let (den, xa, rest) = self.integers::<R>();
        let v3 = |v: [BigRational; 3]| {
            let [x, y, z] = v;
            Vec3::new(x, y, z)
        };
        let (p_a, p_b, d2) = match rest {
            None => {
                let p = v3(R::over_den(&den, &xa));
                (p.clone(), p, <BigRational as Zero>::zero())
            }
            Some((xb, nq)) => {
                let [a0, a1, a2] = xa;
                let [b0, b1, b2] = xb;
                let [a0, a1, a2, b0, b1, b2, q] = R::over_den(&den, &[a0, a1, a2, b0, b1, b2, nq]);
                (Vec3::new(a0, a1, a2), Vec3::new(b0, b1, b2), q)
            }
        };
        if self.swapped {
            Closest {
                distance_squared: d2,
                a: p_b,
                b: p_a,
            }
        } else {
            Closest {
                distance_squared: d2,
                a: p_a,
                b: p_b,
            }
        }
    }

    /// The sign of `q − R²` for `R = r_a + r_b` (radii nonnegative), when
    /// the filter decides it.
    pub(crate) fn meet_sign(&self, ra: f64, rb: f64) -> Option<Sign> {
        if self.sol.k == 3 {
            // q = 0: −R², zero only when both radii are.
            return Some(if ra == 0.0 && rb == 0.0 {
                Sign::Zero
            } else {
                Sign::Negative
            });
        }
        let r = Fx::exact(ra).add_ref(&Fx::exact(rb));
        let s = &self.sol;
        dot(&s.dd, &s.dd)
            .sub_ref(&s.den.mul_ref(&r).square())
            .sign()
    }

    /// The double nearest to `√q − R` for apart shapes (`q > R²`, which the
    /// caller has decided), from `|D·d|²` and `D` in double-word arithmetic
    /// with a proven bound ([`nearest_sqrt_quot_minus`]); `None` when that
    /// cannot certify the rounding.
    pub(crate) fn nearest_apart(&self, ra: f64, rb: f64) -> Option<f64> {
        if self.sol.k == 3 {
            return None;
        }
        let (a, b) = (aff::<Dx>(&self.pa, self.fa), aff::<Dx>(&self.pb, self.fb));
        let s = solve(&a, &b);
        nearest_sqrt_quot_minus(dot(&s.dd, &s.dd), s.den, ra, rb)
    }

    /// `q`, the cores' squared distance, exactly (reduced once).
    pub(crate) fn q_exact(&self) -> BigRational {
        if self.sol.k == 3 {
            return <BigRational as Zero>::zero();
        }
        if self.fixed() {
            self.q_in::<Fd>()
        } else {
            self.q_in::<Dyadic>()
        }
    }

    /// [`q_exact`](Self::q_exact) of `q > 0`, built in `R`.
    fn q_in<R: Num + Exact>(&self) -> BigRational {
        let (den, _, rest) = self.integers::<R>();
        let (_, nq) = rest.expect("k < 3");
        let [q] = R::over_den(&den, &[nq]);
        q
    }
}

/// The cores' exact closest pair, float-guided; `None` where this path does
/// not apply or cannot prove its guess. Counts [`ROUNDED`] where it applies.
pub(crate) fn core_distance(a: &Rounded<f64>, b: &Rounded<f64>) -> Option<Closest<BigRational>> {
    let (pa, pb, swapped) = pieces(a, b)?;
    match proved_pieces(pa, pb, swapped) {
        Some(p) => {
            ROUNDED.fast();
            Some(p.closest())
        }
        None => {
            ROUNDED.fallback();
            None
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::shape::{Obb, Triangle};
    use num_traits::One;

    type Q = BigRational;

    struct Rng(u64);
    impl Rng {
        fn next(&mut self) -> u64 {
            self.0 ^= self.0 << 13;
            self.0 ^= self.0 >> 7;
            self.0 ^= self.0 << 17;
            self.0
        }
        /// Uniform in [−s, s].
        fn unit(&mut self, s: f64) -> f64 {
            ((self.next() >> 11) as f64 / (1u64 << 53) as f64 * 2.0 - 1.0) * s
        }
        fn v(&mut self, s: f64) -> Vec3<f64> {
            Vec3::new(self.unit(s), self.unit(s), self.unit(s))
        }
    }

    /// The closest pair built the way it was before the integer
    /// construction: every coordinate a `BigRational` quotient of two
    /// rationals, reduced by `num-rational` (`q = |D·d|²/D²`).
    fn closest_by_quotients(p: &Proved) -> Closest<Q> {
        let (a, b) = (aff::<Dyadic>(&p.pa, p.fa), aff::<Dyadic>(&p.pb, p.fb));
        let s = solve(&a, &b);
        let quot = |n: &Dyadic, d: &Dyadic| n.to_rational() / d.to_rational();
        let at = |f: &Aff<Dyadic>, n: &[Dyadic]| {
            let mut num = scale(&s.den, &f.o);
            for (x, u) in n.iter().zip(&f.d[..f.k]) {
                num = add(&num, &scale(x, u));
            }
            Vec3::new(
                quot(&num[0], &s.den),
                quot(&num[1], &s.den),
                quot(&num[2], &s.den),
            )
        };
        let pa = at(&a, &s.n[..a.k]);
        let (pb, d2) = if s.k == 3 {
            (pa.clone(), <Q as Zero>::zero())
        } else {
            (
                at(&b, &s.n[a.k..s.k]),
                quot(&dot(&s.dd, &s.dd), &s.den.square()),
            )
        };
        if p.swapped {
            Closest {
                distance_squared: d2,
                a: pb,
                b: pa,
            }
        } else {
            Closest {
                distance_squared: d2,
                a: pa,
                b: pb,
            }
        }
    }

    /// Whether every coordinate is in lowest terms with a positive
    /// denominator (what `BigRational::new` gives).
    fn lowest(c: &Closest<Q>) -> bool {
        let ok = |x: &Q| {
            x.denom().is_positive() && num_integer::Integer::gcd(x.numer(), x.denom()).is_one()
        };
        let (a, b) = (&c.a, &c.b);
        [&a.x, &a.y, &a.z, &b.x, &b.y, &b.z, &c.distance_squared]
            .into_iter()
            .all(ok)
    }

    /// One pair: when the float-guided path proves its features, the
    /// integer construction (fixed width where it applies, big integers
    /// always) equals the construction by reduced quotients and the exact
    /// path's closest pair (an independent algorithm: the closed segments'
    /// closest pair, or the polytope path), in lowest terms, and `q_exact`
    /// is its squared distance. Returns whether the path proved it.
    fn check(a: &Rounded<f64>, b: &Rounded<f64>) -> bool {
        let exact = super::super::core_distance(a, b).unwrap();
        let Some(p) = proved(a, b) else {
            return false;
        };
        let c = p.closest();
        assert_eq!(c, closest_by_quotients(&p), "{a:?} {b:?}");
        assert_eq!(c, p.closest_in::<Dyadic>(), "{a:?} {b:?}");
        if p.fixed() {
            assert_eq!(c, p.closest_in::<Fd>(), "{a:?} {b:?}");
        }
        assert_eq!(c, exact, "{a:?} {b:?}");
        assert_eq!(p.q_exact(), c.distance_squared);
        assert!(lowest(&c));
        true
    }

    fn sphere(c: Vec3<f64>, r: f64) -> Rounded<f64> {
        Rounded::sphere(c, r).unwrap()
    }
    fn capsule(a: Vec3<f64>, b: Vec3<f64>, r: f64) -> Rounded<f64> {
        Rounded::capsule(a, b, r).unwrap()
    }
    fn boxed(c: Vec3<f64>, h: [Vec3<f64>; 3], r: f64) -> Rounded<f64> {
        Rounded::new(Shape::Box(Obb::new(c, h).unwrap()), r).unwrap()
    }
    fn tri(v: [Vec3<f64>; 3], r: f64) -> Rounded<f64> {
        Rounded::new(Shape::Triangle(Triangle::new(v)), r).unwrap()
    }

    /// Random spheres and capsules against boxes, triangles, capsules and
    /// spheres, at several scales (and in both orders).
    #[test]
    fn integer_construction_matches_rationals_on_random_pairs() {
        let mut rng = Rng(0x2545_f491_4f6c_dd1d);
        let mut proved = 0;
        for i in 0..600 {
            let s = [1.0, 3.0, 1e-6, 1e6][i % 4];
            let small = if i % 3 == 0 {
                sphere(rng.v(3.0 * s), 0.5 * s)
            } else {
                let c = rng.v(3.0 * s);
                capsule(c.add(&rng.v(s)), c.add(&rng.v(s)), 0.25 * s)
            };
            let other = match i % 4 {
                0 => boxed(rng.v(3.0 * s), [rng.v(s), rng.v(s), rng.v(s)], 0.0),
                1 => {
                    let c = rng.v(3.0 * s);
                    tri(
                        [c.add(&rng.v(s)), c.add(&rng.v(s)), c.add(&rng.v(s))],
                        0.1 * s,
                    )
                }
                2 => {
                    let c = rng.v(3.0 * s);
                    capsule(c.add(&rng.v(s)), c.add(&rng.v(s)), 0.25 * s)
                }
                _ => sphere(rng.v(3.0 * s), s),
            };
            let (x, y) = if i % 2 == 0 {
                (&small, &other)
            } else {
                (&other, &small)
            };
            proved += usize::from(check(x, y));
        }
        assert!(proved > 500, "{proved}");
    }

    /// A point inside the box, on a face, on an edge and at a vertex of a
    /// rotated box whose half-axes are exact (and near each), a segment
    /// through a triangle and one touching it, parallel capsules (the path
    /// refuses: then the exact path's answer stands) and crossing ones.
    #[test]
    fn integer_construction_matches_rationals_on_degenerate_pairs() {
        let v = Vec3::new;
        let c = v(0.5, -0.25, 2.0);
        let h = [v(1.0, 1.0, 0.0), v(-0.5, 0.5, 0.0), v(0.0, 0.0, 0.75)];
        let b = boxed(c.clone(), h.clone(), 0.125);
        let at = |t: [f64; 3]| {
            let mut p = c.clone();
            for (ti, hi) in t.iter().zip(&h) {
                p = p.add(&hi.scale(ti));
            }
            p
        };
        let mut proved = 0;
        for t in [
            [0.0, 0.0, 0.0],   // the center
            [0.5, -0.25, 0.5], // inside
            [1.0, 0.5, -0.25], // on a face
            [1.0, -1.0, 0.5],  // on an edge
            [1.0, 1.0, -1.0],  // a vertex
            [1.5, 0.25, 0.0],  // off a face
            [1.5, -1.5, 0.5],  // off an edge
            [1.5, 2.0, -1.25], // off a vertex
        ] {
            let p = at(t);
            for r in [0.0, 0.5] {
                proved += usize::from(check(&sphere(p.clone(), r), &b));
                proved += usize::from(check(&b, &sphere(p.clone(), r)));
                // Just off, by one unit in the last place.
                let q = v(p.x.next_up(), p.y, p.z.next_down());
                proved += usize::from(check(&sphere(q, r), &b));
            }
        }
        assert!(proved >= 30, "{proved}");
        // A segment through a triangle, one ending on it, one in its plane.
        let t = tri([v(0.0, 0.0, 0.0), v(4.0, 0.0, 0.0), v(0.0, 4.0, 0.0)], 0.0);
        assert!(check(
            &capsule(v(1.0, 1.0, -1.0), v(1.0, 1.5, 1.0), 0.5),
            &t
        ));
        check(&capsule(v(1.0, 1.0, 0.0), v(1.0, 1.5, 1.0), 0.5), &t);
        check(&capsule(v(1.0, 1.0, 0.0), v(2.0, 1.5, 0.0), 0.5), &t);
        // Parallel capsules: overlapping, end to end, side by side.
        let p = capsule(v(0.0, 0.0, 0.0), v(2.0, 2.0, 0.0), 0.25);
        for (x, y) in [
            (v(1.0, 1.0, 1.0), v(3.0, 3.0, 1.0)),
            (v(3.0, 3.0, 0.0), v(4.0, 4.0, 0.0)),
            (v(0.0, 1.0, 0.0), v(2.0, 3.0, 0.0)),
            (v(-1.0, -1.0, 0.0), v(0.5, 0.5, 0.0)),
        ] {
            let q = capsule(x, y, 0.5);
            check(&p, &q);
            let f = crate::query::rounded::distance_exact_f64(&p, &q).unwrap();
            assert_eq!(f, crate::query::rounded::distance_exact(&p, &q).unwrap());
        }
        // Crossing capsules (a common point) and skew ones.
        check(&p, &capsule(v(2.0, 0.0, 0.0), v(0.0, 2.0, 0.0), 0.5));
        assert!(check(&p, &capsule(v(2.0, 0.0, 1.0), v(0.0, 2.0, 1.0), 0.5)));
    }

    /// Inputs spread over exactly [`SPREAD`] bits take the fixed width
    /// (every case of the construction, `k` from 0 to 3, without an
    /// overflow), one bit more the big integers; both give the quotients'
    /// values.
    #[test]
    fn fixed_width_bound_holds_at_the_spread() {
        let v = Vec3::new;
        // 1 + 2⁻⁵² spans bits −52..0; with 2^(SPREAD − 53)·(1 + 2⁻⁵²)... the
        // top at SPREAD − 52, the bottom at −52: SPREAD bits.
        let big = 2f64.powi(SPREAD as i32 - 53) * (1.0 + f64::EPSILON);
        let tiny = 1.0 + f64::EPSILON;
        let lo = 2f64.powi(-52);
        for (far, expect) in [(big, true), (2.0 * big, false)] {
            // Half-axes a quarter of the farthest coordinate.
            let top = far / 4.0;
            let h = [v(top, tiny, 0.0), v(-tiny, top, lo), v(lo, 0.0, top)];
            // The center at the farthest coordinate: every input pair
            // spans the bits under test.
            let b = boxed(v(tiny, -tiny, far), h, 0.0);
            let mut any = 0;
            for p in [
                v(0.5, 0.25, far),         // inside (k = 3)
                v(far, 0.5, 0.25),         // off a face
                v(far, far, 0.25),         // off an edge
                v(far, far, far),          // off a vertex
                v(-far, tiny, -far / 2.0), // off an edge
            ] {
                let a = sphere(p.clone(), 0.0);
                if let Some(pr) = proved(&a, &b) {
                    assert_eq!(pr.fixed(), expect);
                    any += 1;
                }
                check(&a, &b);
                let s = capsule(p.clone(), v(-p.x, p.y + tiny, -p.z), 0.0);
                if let Some(pr) = proved(&s, &b) {
                    assert_eq!(pr.fixed(), expect);
                    any += 1;
                }
                check(&s, &b);
            }
            assert!(any >= 5, "{any}");
        }
        // A segment through a triangle (k = 3) at the spread.
        let t = tri(
            [v(-big, -big, lo), v(big, -tiny, 0.0), v(0.0, big, -lo)],
            0.0,
        );
        let s = capsule(v(lo, tiny, -big), v(-lo, 0.5, big), 0.0);
        let pr = proved(&s, &t).expect("a segment through the triangle");
        assert!(pr.fixed());
        assert!(check(&s, &t));
    }

    /// The witness of meeting shapes, built in integers and reduced once
    /// per coordinate, equals `p_a + (r_a/R)(p_b − p_a)` in `num-rational`'s
    /// arithmetic, and `R` the sum of the radii as rationals; on random
    /// meeting pairs (cores apart, touching or crossing, zero radii).
    #[test]
    fn witness_matches_rationals() {
        use crate::num::scalar::Scalar;
        let mut rng = Rng(0x1234_5678_9abc_def1);
        let mut met = 0;
        for i in 0..400 {
            let s = [1.0, 1e-5][i % 2];
            let c = rng.v(s);
            let a = capsule(
                c.add(&rng.v(s)),
                c.add(&rng.v(s)),
                [0.0, 0.75 * s][i % 3 % 2],
            );
            let b = if i % 2 == 0 {
                boxed(rng.v(s), [rng.v(s), rng.v(s), rng.v(s)], 0.25 * s)
            } else {
                sphere(rng.v(s), 1.5 * s)
            };
            let r = crate::query::rounded::distance_exact_f64(&a, &b).unwrap();
            let (ra, rb) = (a.radius.to_rational(), b.radius.to_rational());
            assert_eq!(r.radius, &ra + &rb);
            let Some(w) = r.witness(&ra) else {
                continue;
            };
            met += 1;
            let (pa, pb) = (&r.core.a, &r.core.b);
            let want = if r.core.distance_squared.is_zero() || r.radius.is_zero() {
                pa.clone()
            } else {
                let t = &ra / &r.radius;
                Vec3::new(
                    &pa.x + &t * (&pb.x - &pa.x),
                    &pa.y + &t * (&pb.y - &pa.y),
                    &pa.z + &t * (&pb.z - &pa.z),
                )
            };
            assert_eq!(w, want);
        }
        assert!(met > 100, "{met}");
    }

    /// `rational_sqrt` (with its filter of squares modulo 8 and by their
    /// power of two) against squares found by search: every `n/d` with
    /// small `n`, `d`, and big squares and their neighbours.
    #[test]
    fn rational_sqrt_finds_exactly_the_squares() {
        let sq = super::super::rational_sqrt;
        let is_sq = |n: i64| (0..=n).take_while(|r| r * r <= n).any(|r| r * r == n);
        for n in 0..400i64 {
            for d in 1..40i64 {
                let x = Q::new(n.into(), d.into());
                let want =
                    is_sq(*x.numer().magnitude().to_u64_digits().first().unwrap_or(&0) as i64)
                        && is_sq(
                            *x.denom().magnitude().to_u64_digits().first().unwrap_or(&0) as i64
                        );
                match sq(&x) {
                    Some(r) => assert!(want && &r * &r == x, "{x}"),
                    None => assert!(!want, "{x}"),
                }
            }
        }
        let mut rng = Rng(77);
        for k in 0..200u64 {
            let r = (BigInt::from(rng.next()) << (k % 90)) + BigInt::from(rng.next() | 1);
            let d = BigInt::from(rng.next() | 1) << (2 * (k % 7));
            let x = Q::new(&r * &r, &d * &d);
            assert_eq!(sq(&x).map(|s| &s * &s), Some(x.clone()));
            for off in [1, 2, 4, 8] {
                let y = Q::new(&r * &r + BigInt::from(off), &d * &d);
                assert_eq!(sq(&y), None, "{y}");
            }
        }
    }

    /// [`Exact::over_den`] against `num-rational`'s quotients: random
    /// dyadics (zeros, signs, power-of-two denominators, and mantissas past
    /// the fixed width, which take the big-integer gcd).
    #[test]
    fn over_den_matches_quotients() {
        let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
        let dy = |rng: &mut Rng, words: u64| {
            let mut m = BigInt::zero();
            for _ in 0..words {
                m = (m << 64) + BigInt::from(rng.next());
            }
            let e = (rng.next() % 200) as i64 - 100;
            Dyadic::from_parts(m, e)
        };
        for i in 0..400 {
            let words = [1, 2, 5, 11, 13][i % 5];
            let mut den = dy(&mut rng, words);
            if i % 7 == 0 {
                den = Dyadic::from_parts(BigInt::one() << (rng.next() % 90), den.parts().1);
            }
            if den.sign() != Sign::Positive {
                den = den.abs_ref();
            }
            if den.sign() == Sign::Zero {
                continue;
            }
            // Numerators sharing factors with the denominator.
            let f = dy(&mut rng, 1).abs_ref();
            if i % 2 == 0 && f.sign() == Sign::Positive {
                den = den.mul_ref(&f);
            }
            let xs: [Dyadic; 4] = std::array::from_fn(|k| {
                let x = dy(&mut rng, words);
                match k {
                    0 => Dyadic::zero(),
                    1 => x.mul_ref(&den).neg_ref(),
                    2 => x.mul_ref(&f),
                    _ => x,
                }
            });
            let want = xs.each_ref().map(|x| x.to_rational() / den.to_rational());
            assert_eq!(Dyadic::over_den(&den, &xs), want);
        }
    }
}
