//! Boxes by pose (double half-extents, a double quaternion or 3×3 matrix, a
//! double translation): the box pair's float-guided intersect decision with
//! an exact proof, on the exact box the pose defines.
//!
//! The exact box of a quaternion pose q = (w, x, y, z) has half-axes
//! hᵢ = eᵢ·(column i of M(q))/Q, with Q = |q|² and M(q) the unnormalised
//! rotation matrix (entries quadratic forms of the components): Q is not a
//! power of two in general, so hᵢ is not dyadic and no double holds it. A
//! matrix pose has hᵢ = eᵢ·(column i of R), exact products of doubles, with
//! Q = 1. Write Hᵢ = eᵢ·(column i of M) (so hᵢ = Hᵢ/Q, Hᵢ a polynomial in the
//! doubles) and T = c_b − c_a.
//!
//! **Separating axes without division.** Every candidate axis of the 15-axis
//! test ([`super`]) is a cross product L = u × v of two half-axes; with U, V
//! the matching H's, L = (U × V)/(Q_u·Q_v), a positive multiple of L' = U × V,
//! which separates exactly when L does. Its gap, multiplied by Q_a·Q_b > 0,
//!
//! ```text
//! g = Q_a·Q_b·|L'·T| − Q_b·Σ|L'·Hᵃₖ| − Q_a·Σ|L'·Hᵇₖ|
//! ```
//!
//! has the sign of `f(L)` of the module docs, and is a polynomial in the
//! input doubles. It is evaluated in [`Fx`] (doubles with a running error
//! bound, `num::bounded`): where the bound decides its sign, the sign is
//! exact; axes are tried in the exact path's order, so the first one proven
//! to separate is the exact path's first separating axis. An axis whose L'
//! is exactly zero (every product of its cross product has an exactly zero
//! factor) has g = 0 and separates nothing.
//!
//! **The witness without division.** When no axis separates, the exact path
//! answers the center of a when b contains it, else the center of b when a
//! contains it, else a polytope witness. With Δ = det(Hᵇ₀, Hᵇ₁, Hᵇ₂) and Δᵢ
//! the same with Hᵇᵢ replaced by p − c_b, p lies in b exactly when
//! Q_b·|Δᵢ| ≤ |Δ| for i = 0, 1, 2 (Cramer's rule on hᵢ = Hᵢ/Q_b:
//! det(h) = Δ/Q_b³ and the replaced determinants are Δᵢ/Q_b²), each
//! decided by the same filter. Then the exact path's polytope witness
//! begins with the first vertex of a that b contains, then of b in a: vertex
//! i of a is c_a + Σ sₖHₖ/Q_a, so Q_a·(vertex − c_b) = Q_a·(c_a − c_b) + Σ sₖHₖ
//! and the test is Q_b·|Δᵢ| ≤ Q_a·|Δ| on that vector, the same filter again.
//! A pair with none of these is [`PoseDecision::Crossing`]: its witness is
//! the first edge–face crossing of the exhaustive search, found on the exact
//! boxes in integers ([`crossing_witness`]).
//!
//! Anything the bounds do not decide (a touching pair, a center on a face,
//! overflow, a degenerate matrix) returns `None`, and the caller answers on
//! the exhaustive exact path (`Obb::from_pose` in rationals). No decision is
//! ever taken from a float alone.

use crate::num::bounded::Fx;
use crate::num::ring::Ring;
use crate::num::scalar::Scalar;
use crate::num::sign::Sign;
use crate::shape::{Obb, Rotation, ShapeError};
use crate::vector::Vec3;
use num_rational::BigRational;

/// A pose's rotation, in doubles exactly as given.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum PoseRotation {
    /// (w, x, y, z), nonzero: R = R(q)/|q|².
    Quaternion([f64; 4]),
    /// The rows of R (column-vector convention), exactly as given.
    Matrix([[f64; 3]; 3]),
}

/// A box by pose in doubles: center `translation`, half-axis i
/// `half_extents[i]`·(column i of R).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PoseBox {
    /// Positive half-extents.
    pub half_extents: [f64; 3],
    /// The rotation.
    pub rotation: PoseRotation,
    /// The center.
    pub translation: [f64; 3],
}

impl PoseBox {
    /// The rotation in exact rationals (the doubles' own values).
    pub fn rotation_exact(&self) -> Rotation {
        let q = |x: &f64| x.to_rational();
        match &self.rotation {
            PoseRotation::Quaternion(c) => Rotation::Quaternion(c.each_ref().map(q)),
            PoseRotation::Matrix(m) => Rotation::Matrix(m.each_ref().map(|r| r.each_ref().map(q))),
        }
    }

    /// The exact box ([`Obb::from_pose`], and its errors).
    pub fn to_obb(&self) -> Result<Obb<BigRational>, ShapeError> {
        let q = |x: &f64| x.to_rational();
        let [x, y, z] = self.translation.each_ref().map(q);
        Obb::from_pose(
            self.half_extents.each_ref().map(q),
            &self.rotation_exact(),
            Vec3::new(x, y, z),
        )
    }
}

/// What the filter proved about a pair of pose boxes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PoseDecision {
    /// Axis `k` of the 15 (numbered as [`super::axis_pair`]) is the first
    /// that separates the exact boxes.
    Separated(usize),
    /// No axis separates, and the exact path's witness is the center of `a`
    /// (`true`: b contains it) or of `b` (`false`: b does not contain a's
    /// center, a contains b's).
    CenterOf(bool),
    /// No axis separates, neither center lies in the other box, and the
    /// exact path's witness is vertex `i` ([`Obb::vertex`] order) of `a`
    /// (`true`: the first of a's vertices that b contains) or of `b`
    /// (`false`: no vertex of a lies in b, and this is the first of b's
    /// vertices that a contains).
    VertexOf(bool, usize),
    /// No axis separates, neither center lies in the other box, no vertex
    /// of either lies in the other: the exact path's witness is an edge–face
    /// crossing ([`crossing_witness`]) or, for touching boxes, a later stage.
    Crossing,
}

/// [`Fx`] that keeps exact values exact: a product with an exactly zero
/// factor, a sum with an exactly zero term, and a sum or product of two
/// exact doubles whose result is a double (checked by its exact error) add
/// no rounding term, so the zero entries of near-identity, axis-aligned and
/// quarter-turn poses keep zero bounds and their parallel axes stay exactly
/// zero.
#[derive(Clone, Copy, Debug)]
struct Z(Fx);

/// 2⁻⁹⁰⁰: a product of doubles at least this large has its lowest possible
/// bit above 2⁻¹⁰⁷⁴, so its rounding error a·b − fl(a·b) is a double and the
/// FMA computes it exactly (zero only when the product is exact).
const TINY: f64 = f64::from_bits((1023 - 900) << 52);

impl Z {
    /// a + b for exact doubles: exact when the TwoSum error (Knuth; exact
    /// in binary floating point without overflow, subnormals included) is
    /// zero, else with its rounding bound.
    fn exact_sum(a: f64, b: f64) -> Z {
        let s = a + b;
        let bb = s - a;
        let err = (a - (s - bb)) + (b - bb);
        if s.is_finite() && err == 0.0 {
            Z(Fx::exact(s))
        } else {
            Z(Fx::exact(a).add_ref(&Fx::exact(b)))
        }
    }

    fn is_exact_zero(&self) -> bool {
        self.0.v == 0.0 && self.0.e == 0.0
    }
    fn sign(self) -> Option<Sign> {
        self.0.sign()
    }
}

impl Ring for Z {
    fn zero() -> Self {
        Z(Fx::exact(0.0))
    }
    fn one() -> Self {
        Z(Fx::exact(1.0))
    }
    fn from_i32(v: i32) -> Self {
        Z(Fx::exact(v as f64))
    }
    #[inline(always)]
    fn add_ref(&self, o: &Self) -> Self {
        if o.is_exact_zero() {
            *self
        } else if self.is_exact_zero() {
            *o
        } else if self.0.e == 0.0 && o.0.e == 0.0 {
            Z::exact_sum(self.0.v, o.0.v)
        } else {
            Z(self.0.add_ref(&o.0))
        }
    }
    #[inline(always)]
    fn sub_ref(&self, o: &Self) -> Self {
        if o.is_exact_zero() {
            *self
        } else if self.is_exact_zero() {
            Z(o.0.neg_ref())
        } else if self.0.e == 0.0 && o.0.e == 0.0 {
            Z::exact_sum(self.0.v, -o.0.v)
        } else {
            Z(self.0.sub_ref(&o.0))
        }
    }
    #[inline(always)]
    fn mul_ref(&self, o: &Self) -> Self {
        if self.is_exact_zero() || o.is_exact_zero() {
            Z::zero()
        } else if self.0.e == 0.0 && o.0.e == 0.0 {
            // Two exact doubles: exact when the FMA residual a·b − fl(a·b) is
            // zero, which it computes exactly when fl(a·b) is far from
            // underflow (|p| ≥ 2⁻⁹⁰⁰: the residual is then a double).
            let (a, b) = (self.0.v, o.0.v);
            let p = a * b;
            // The odd parts of the two significands have `odd_bits` bits
            // each; their product has at least their sum less one, and a
            // double holds at most 53: past that the product is inexact
            // and the FMA test is skipped.
            if odd_bits(a) + odd_bits(b) <= 54
                && p.is_finite()
                && p.abs() >= TINY
                && a.mul_add(b, -p) == 0.0
            {
                Z(Fx::exact(p))
            } else {
                Z(self.0.mul_ref(&o.0))
            }
        } else {
            Z(self.0.mul_ref(&o.0))
        }
    }
    fn neg_ref(&self) -> Self {
        Z(self.0.neg_ref())
    }
    fn abs_ref(&self) -> Self {
        Z(self.0.abs_ref())
    }
}

/// The bit length of the odd part of a finite nonzero double's significand
/// (of its bits, for anything else: only a bound is needed).
fn odd_bits(x: f64) -> u32 {
    let bits = x.to_bits();
    let frac = bits & ((1u64 << 52) - 1);
    let m = if (bits >> 52) & 0x7ff == 0 {
        frac
    } else {
        frac | (1u64 << 52)
    };
    if m == 0 {
        return 0;
    }
    64 - m.leading_zeros() - m.trailing_zeros()
}

type V3 = [Z; 3];

/// The exact box as (Q, [H₀, H₁, H₂], center): hᵢ = Hᵢ/Q.
struct Scaled {
    q: Z,
    h: [V3; 3],
    c: V3,
}

fn ex(v: f64) -> Z {
    Z(Fx::exact(v))
}

fn scaled(p: &PoseBox) -> Option<Scaled> {
    if p.half_extents
        .iter()
        .any(|e| e.partial_cmp(&0.0) != Some(std::cmp::Ordering::Greater))
    {
        return None;
    }
    let (q, m) = match p.rotation {
        PoseRotation::Quaternion(c) => {
            if c.iter().all(|x| *x == 0.0) {
                return None;
            }
            if let Some(qm) = quaternion_matrix_inexact(c) {
                qm
            } else {
                quaternion_matrix(c)
            }
        }
        PoseRotation::Matrix(r) => (ex(1.0), r.map(|row| row.map(ex))),
    };
    let h = [0, 1, 2].map(|i| {
        let e = ex(p.half_extents[i]);
        [0, 1, 2].map(|j| e.mul_ref(&m[j][i]))
    });
    Some(Scaled {
        q,
        h,
        c: p.translation.map(ex),
    })
}

/// (|q|², R(q)) when no product of two components of `q` is a double: each
/// component's odd part has at least 28 bits, so every product's has more
/// than 53 ([`Z::mul_ref`]'s test) and none of the ten is exact; then no
/// entry is exact in [`quaternion_matrix`] either, and one bound a priori
/// serves them all instead of a running bound per operation.
///
/// Each entry and |q|² is a signed sum of four products (a diagonal entry,
/// |q|², as (a ± b) ± (c ± d)) or twice a difference of two, and the sum of
/// the absolute values of its exact terms is at most S = |q|² (2|xy| ≤ x² +
/// y²). With at most three roundings on any path (the product and two
/// additions; doubling is exact), the error is at most γ₃·S plus the
/// products' underflow, 2⁻¹⁰⁷⁵ each and at most eight in all (additions
/// whose result is subnormal are exact), far below η = 2⁻¹⁰⁶⁰ (Higham §3.1,
/// γₖ = ku/(1 − ku)). The computed S̃ has the same error, so S ≤ (S̃ +
/// η)/(1 − γ₃) and the error is below 3.0001u·(S̃ + η) + η; the bound
/// 4u·S̃ + 2η, computed (4u·S̃ loses at most 2⁻¹⁰⁷⁵ to underflow, the sum
/// at most a factor 1 − u), is larger. An overflow leaves an infinite or
/// NaN value, whose sign no bound decides.
fn quaternion_matrix_inexact(c: [f64; 4]) -> Option<(Z, [[Z; 3]; 3])> {
    use crate::num::bounded::{ETA, U};
    if c.iter().any(|x| odd_bits(*x) < 28) {
        return None;
    }
    let [w, x, y, z] = c;
    let (ww, xx, yy, zz) = (w * w, x * x, y * y, z * z);
    let (xy, xz, yz) = (x * y, x * z, y * z);
    let (wx, wy, wz) = (w * x, w * y, w * z);
    let q = (ww + xx) + (yy + zz);
    let e = 4.0 * U * q + 2.0 * ETA;
    let z = |v: f64| Z(Fx { v, e });
    let m = [
        [
            z((ww + xx) - (yy + zz)),
            z(2.0 * (xy - wz)),
            z(2.0 * (xz + wy)),
        ],
        [
            z(2.0 * (xy + wz)),
            z((ww - xx) + (yy - zz)),
            z(2.0 * (yz - wx)),
        ],
        [
            z(2.0 * (xz - wy)),
            z(2.0 * (yz + wx)),
            z((ww - xx) - (yy - zz)),
        ],
    ];
    Some((z(q), m))
}

/// (|q|², R(q)) with a running bound per operation ([`Z`], exact where the
/// operations are).
fn quaternion_matrix(c: [f64; 4]) -> (Z, [[Z; 3]; 3]) {
    let [w, x, y, z] = c.map(ex);
    let (ww, xx, yy, zz) = (w.mul_ref(&w), x.mul_ref(&x), y.mul_ref(&y), z.mul_ref(&z));
    let (xy, xz, yz) = (x.mul_ref(&y), x.mul_ref(&z), y.mul_ref(&z));
    let (wx, wy, wz) = (w.mul_ref(&x), w.mul_ref(&y), w.mul_ref(&z));
    // Doubling is exact, value and bound, unless it overflows (then
    // the general product, whose bound decides nothing).
    let t = |a: Z, b: Z, plus: bool| {
        let s = if plus { a.add_ref(&b) } else { a.sub_ref(&b) };
        let d = Fx {
            v: 2.0 * s.0.v,
            e: 2.0 * s.0.e,
        };
        if d.v.is_finite() && d.e.is_finite() {
            Z(d)
        } else {
            ex(2.0).mul_ref(&s)
        }
    };
    let q = ww.add_ref(&xx).add_ref(&yy.add_ref(&zz));
    let m = [
        [
            ww.add_ref(&xx).sub_ref(&yy.add_ref(&zz)),
            t(xy, wz, false),
            t(xz, wy, true),
        ],
        [
            t(xy, wz, true),
            ww.sub_ref(&xx).add_ref(&yy.sub_ref(&zz)),
            t(yz, wx, false),
        ],
        [
            t(xz, wy, false),
            t(yz, wx, true),
            ww.sub_ref(&xx).sub_ref(&yy.sub_ref(&zz)),
        ],
    ];
    (q, m)
}

fn exact_zero(x: &Z) -> bool {
    x.is_exact_zero()
}

/// u × v, and whether it is exactly zero (every product has a zero factor).
fn cross(u: &V3, v: &V3) -> (V3, bool) {
    let z = |a: usize, b: usize| exact_zero(&u[a]) || exact_zero(&v[b]);
    let zero = (0..3).all(|k| {
        let (a, b) = ((k + 1) % 3, (k + 2) % 3);
        z(a, b) && z(b, a)
    });
    let c = |a: usize, b: usize| u[a].mul_ref(&v[b]).sub_ref(&u[b].mul_ref(&v[a]));
    ([c(1, 2), c(2, 0), c(0, 1)], zero)
}

fn dot(u: &V3, v: &V3) -> Z {
    u[0].mul_ref(&v[0])
        .add_ref(&u[1].mul_ref(&v[1]))
        .add_ref(&u[2].mul_ref(&v[2]))
}

fn sub(u: &V3, v: &V3) -> V3 {
    [0, 1, 2].map(|k| u[k].sub_ref(&v[k]))
}

/// A box's face axes `h_{i+1} × h_{i+2}` (with [`cross`]'s exact-zero flag),
/// each computed once per pair when first needed, and its determinant
/// `h₀·(h₁ × h₂)`.
struct Faces<'a> {
    h: &'a [V3; 3],
    cross: [Option<(V3, bool)>; 3],
    det: Z,
}

impl<'a> Faces<'a> {
    fn new(s: &'a Scaled) -> Faces<'a> {
        let c0 = cross(&s.h[1], &s.h[2]);
        let det = dot(&s.h[0], &c0.0);
        Faces {
            h: &s.h,
            cross: [Some(c0), None, None],
            det,
        }
    }

    fn axis(&mut self, i: usize) -> (V3, bool) {
        let h = self.h;
        *self.cross[i].get_or_insert_with(|| cross(&h[(i + 1) % 3], &h[(i + 2) % 3]))
    }
}

/// Whether the exact box `b` contains the point p with `r` = s·(p − c_b),
/// s > 0: `Some` when the filter decides (Q_b·|Δᵢ(r)| ≤ s·|Δ| for each i).
fn contains(b: &Scaled, f: &mut Faces, r: &V3, s: &Z) -> Option<bool> {
    let d = f.det.abs_ref().mul_ref(s);
    let mut all = true;
    for i in 0..3 {
        let di = dot(r, &f.axis(i).0).abs_ref();
        match d.sub_ref(&b.q.mul_ref(&di)).sign() {
            Some(Sign::Negative) => return Some(false),
            Some(_) => {}
            None => all = false,
        }
    }
    all.then_some(true)
}

/// The half-axes whose cross product is axis `k` of [`super::axis_pair`],
/// numbered 0–2 for a's and 3–5 for b's.
fn axis_sources(k: usize) -> (Option<usize>, Option<usize>) {
    match k {
        0..=2 => (Some((k + 1) % 3), Some((k + 2) % 3)),
        3..=5 => (Some(3 + (k - 2) % 3), Some(3 + (k - 1) % 3)),
        _ => (Some((k - 6) / 3), Some(3 + (k - 6) % 3)),
    }
}

/// The exact path's intersect decision for two boxes by pose, proven by
/// filtered exact signs; `None` when a bound does not decide (or an input is
/// no valid pose: a nonpositive half-extent, a zero quaternion, a matrix
/// whose box is degenerate), and the caller takes the exact path.
pub fn decide(a: &PoseBox, b: &PoseBox) -> Option<PoseDecision> {
    let (sa, sb) = (scaled(a)?, scaled(b)?);
    let (mut fa, mut fb) = (Faces::new(&sa), Faces::new(&sb));
    for f in [&fa, &fb] {
        // A quaternion's box has det = e₀e₁e₂·Q³ > 0; a matrix's may be singular.
        if matches!(f.det.sign(), None | Some(Sign::Zero)) {
            return None;
        }
    }
    let t = sub(&sb.c, &sa.c);
    let qab = sa.q.mul_ref(&sb.q);
    for k in 0..15 {
        let (l, zero) = match k {
            // The same cross products as `axis_pair`'s (u, v) for these k.
            0..=2 => fa.axis(k),
            3..=5 => fb.axis(k - 3),
            _ => {
                let (u, v) = super::axis_pair(&sa.h, &sb.h, k);
                cross(u, v)
            }
        };
        if zero {
            continue;
        }
        // L′ = u × v is exactly orthogonal to u and v: those two of the six
        // products are exactly zero and left out of the sums.
        let (iu, iv) = axis_sources(k);
        let mut pa = Z::zero();
        for (i, h) in sa.h.iter().enumerate() {
            if iu != Some(i) && iv != Some(i) {
                pa = pa.add_ref(&dot(&l, h).abs_ref());
            }
        }
        let mut pb = Z::zero();
        for (i, h) in sb.h.iter().enumerate() {
            if iu != Some(i + 3) && iv != Some(i + 3) {
                pb = pb.add_ref(&dot(&l, h).abs_ref());
            }
        }
        let g = qab
            .mul_ref(&dot(&l, &t).abs_ref())
            .sub_ref(&sb.q.mul_ref(&pa))
            .sub_ref(&sa.q.mul_ref(&pb));
        match g.sign()? {
            Sign::Positive => return Some(PoseDecision::Separated(k)),
            Sign::Negative | Sign::Zero => {}
        }
    }
    let one = Z::one();
    if contains(&sb, &mut fb, &sub(&sa.c, &sb.c), &one)? {
        return Some(PoseDecision::CenterOf(true));
    }
    if contains(&sa, &mut fa, &sub(&sb.c, &sa.c), &one)? {
        return Some(PoseDecision::CenterOf(false));
    }
    // The exact path's polytope witness: the first vertex of a in b, then
    // of b in a. Vertex i of p is c_p + Σ sₖHₖ/Q_p (sₖ = ±1 by bit k of i),
    // so Q_p·(vertex − c_q) = Q_p·(c_p − c_q) + Σ sₖHₖ.
    for (of_a, p, q, fq) in [(true, &sa, &sb, &mut fb), (false, &sb, &sa, &mut fa)] {
        let base = sub(&p.c, &q.c).map(|x| p.q.mul_ref(&x));
        for i in 0..8 {
            let mut r = base;
            for (k, h) in p.h.iter().enumerate() {
                r = if i >> k & 1 == 1 {
                    [0, 1, 2].map(|j| r[j].add_ref(&h[j]))
                } else {
                    sub(&r, h)
                };
            }
            if contains(q, fq, &r, &p.q)? {
                return Some(PoseDecision::VertexOf(of_a, i));
            }
        }
    }
    Some(PoseDecision::Crossing)
}

pub mod contact;
mod distance;
pub use distance::{closest, crossing_witness};
pub(crate) use distance::{closest_exact, int_rotation, int_rotation_small};

#[cfg(test)]
mod tests;
