//! The float filter of `ccd_vf` / `ccd_ee`: most queries are decided in
//! floating point with a proven error bound, without building a polynomial.
//!
//! # Error-bounded doubles
//!
//! [`Fe`] carries a computed value ṽ, a computed magnitude ã and a count k:
//! the expression is a polynomial in the exact input doubles (and in the
//! differences of two inputs, each rounded once), evaluated by a tree of
//! `+ − ×`. Expanding the tree, every monomial of the computed value is the exact
//! monomial times at most k factors (1 + δ), |δ| ≤ u = 2⁻⁵³ (k adds one per
//! rounding on the path: `max(k₁, k₂) + 1` for a sum, `k₁ + k₂ + 1` for a
//! product; a rounded difference of two inputs counts 1). So
//! |ṽ − v| ≤ γ_k · Σ|monomials| with γ_k = ku/(1 − ku) (Higham, *Accuracy and
//! Stability of Numerical Algorithms*, §3.1), and the same tree on magnitudes
//! (every operation a sum or product of non-negative numbers) computes
//! ã ≥ (1 − u)^k · Σ|monomials|. Hence |ṽ − v| ≤ γ_k/(1 − u)^k · ã < (k + 1)·u·ã
//! for k < 2²⁰, and the sign of v is certain when |ṽ| > (k + 1)·u·ã + Θ; the
//! bound is computed in two roundings, which the slack of (k + 1) over k covers.
//!
//! Θ = 2⁻⁸⁰⁰ covers underflow: a product below 2⁻¹⁰²² has an absolute error of
//! at most 2⁻¹⁰⁷⁵ instead of a relative one (sums of doubles are exact there).
//! The filter only runs when every coordinate is at most [`MAX_COORD`] = 2¹⁰⁰ in
//! magnitude, so such an error is multiplied by at most two more factors below
//! 2¹⁰³ (a coplanarity value has degree 3), and the sum of all of them stays
//! below 2⁻⁸⁰⁰; no value overflows. Every decision is a certain sign or
//! "unknown"; unknown hands the query to the exact method.
//!
//! # What the filter decides
//!
//! c(t) = (A(t) × B(t))·C(t) is a product of three vectors that are linear in t,
//! so its Bernstein coefficients on any interval [α, β] are symmetric sums of
//! triple products of the vectors at α and β (blossoming):
//!
//! ```text
//! b₀ = D(A_α, B_α, C_α)                 3b₁ = D(A_β, B_α, C_α) + D(A_α, B_β, C_α) + D(A_α, B_α, C_β)
//! b₃ = D(A_β, B_β, C_β)                 3b₂ = D(A_α, B_β, C_β) + D(A_β, B_α, C_β) + D(A_β, B_β, C_α)
//! ```
//!
//! (D(X, Y, Z) = (X × Y)·Z). The number of real roots of c in (α, β), with
//! multiplicity, is at most the number of sign changes of b₀…b₃ and has its
//! parity (Descartes' rule in the Bernstein basis). On [0, 1]:
//!
//! 1. no sign change, all four signs certain: no root, a **miss** (most queries);
//! 2. otherwise the interval is bisected (at most [`MAX_DEPTH`] levels, every
//!    split point with a certain sign of c) until each piece has no sign change
//!    or exactly one (one simple root), and the roots are visited in increasing
//!    order;
//! 3. at each root ρ: its grid cell [k·2⁻ᵐ, (k + 1)·2⁻ᵐ] (the time the answer
//!    reports, see `points.rs`) is found by the signs of c at grid points
//!    (probing a float guess, galloping, bisecting); the root lies in it (a
//!    certain sign change of c, clipped to the piece, whose only root ρ is) and
//!    is the cell's only root (the Bernstein coefficients of c′ on the cell,
//!    3(b₁ − b₀), 3(b₂ − b₁), 3(b₃ − b₂), share one certain sign, or Descartes'
//!    rule on the exact c gives one);
//! 4. the contact condition is evaluated on the whole cell in outward-rounded
//!    interval arithmetic ([`crate::Interval`]; differences of inputs that
//!    are exact in floating point stay points, so exact zeros are seen): certainly
//!    true there is a **hit** at ρ, certainly false moves on to the next root;
//!    undecided, it is tried on the two doubles around ρ, then decided exactly
//!    at ρ (`points.rs`: the condition's integer polynomials reduced modulo c,
//!    a zero decided by a gcd, the sign of a remainder of degree ≤ 2 in closed
//!    form, of a higher one by refinement);
//! 5. the reported `f64`: ρ between adjacent doubles by bisection on their bit
//!    patterns, then the exact sign of c at their midpoint.
//!
//! # Coefficients
//!
//! When a bound above is too weak (slow motions: c varies by less than its
//! rounding error over a cell), c's coefficients are computed exactly as
//! integers on the coordinates' common dyadic scale (`points.rs`), scaled by a
//! power of two so that the largest is about 2⁵⁰⁰, and rounded (top 64 bits
//! truncated, then rounded to 53: relative error ≤ 2u each). Horner's rule on
//! them at t ∈ [0, 1] errs by at most (γ₆ + 2.01u)/(1 − u)⁶ · Σ|c̃ᵢ|tⁱ < 9u·Σ|c̃ᵢ|tⁱ
//! (Higham, Eq. 5.3), so the sign is certain beyond 12u·Σ|c̃ᵢ|tⁱ + 2⁻⁹⁰⁰ (the
//! slack covers coefficients dropped below 2⁻⁹⁵⁸ and underflow); below that the
//! sign is the exact integer evaluation's. A sign of c at a dyadic time is thus
//! always known: first in floats, last exactly.
//!
//! # The ends and always-coplanar points
//!
//! c(0) = 0: contact at t = 0 (interval test on the exact start positions) is a
//! hit at `start`; otherwise the scan starts right of 0 with the sign of c's
//! lowest nonzero coefficient. c(1) = 0: the scan ends left of 1 with the sign
//! of the first nonzero Taylor coefficient at 1, and t = 1 is the last
//! candidate. c ≡ 0: a miss when interval arithmetic proves the condition false
//! on every piece of [0, 1] bisected [`NOWHERE_DEPTH`] levels deep.
//!
//! Anything still uncertain (a root on the grid, a double root, two roots in
//! one cell, coplanar points that do touch) returns [`Outcome::Unknown`] and
//! the exhaustive exact method answers.

use super::formula::{cross, dot, Arith, Contact, Kind, V3};
use crate::poly::zx;
use crate::Interval;
use num_bigint::BigInt;
use num_rational::BigRational;
#[cfg(test)]
use num_traits::Signed;
use num_traits::{One, ToPrimitive, Zero};
use std::cell::OnceCell;
use std::cmp::Ordering;

use crate::num::bounded::U;
/// 2¹⁰⁰: the filter runs only when every coordinate is at most this in magnitude.
pub(crate) const MAX_COORD: f64 = 1267650600228229401496703205376.0;
/// 2⁻⁸⁰⁰: the absolute slack that covers underflow (module docs).
const THETA: f64 = f64::from_bits((1023 - 800) << 52);
/// The absolute slack of the coefficient filter (`Coefficients::sign`).
const THETA_HORNER: f64 = f64::from_bits((1023 - 900) << 52);
/// Bisection levels of the exact method's always-coplanar search.
const UNDECIDED_DEPTH: u32 = 8;
/// Bisection levels of the always-coplanar miss test.
const NOWHERE_DEPTH: u32 = 5;
/// The finest grid level used: k·2⁻⁵² is a double for every k ≤ 2⁵².
const FINEST: u32 = 52;
/// Levels of bisection before the filter gives up.
pub(crate) const MAX_DEPTH: u32 = 10;

/// A double with an error bound (module docs): |v − exact| < (k + 1)·u·a + Θ.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Fe {
    v: f64,
    a: f64,
    k: u32,
}

impl Fe {
    /// An exact input.
    fn exact(x: f64) -> Fe {
        Fe {
            v: x,
            a: x.abs(),
            k: 0,
        }
    }

    /// The difference of two exact inputs (one rounding).
    fn diff(x: f64, y: f64) -> Fe {
        let v = x - y;
        Fe {
            v,
            a: v.abs(),
            k: 1,
        }
    }

    /// The certain sign, if the bound excludes zero.
    pub(crate) fn sign(self) -> Option<Ordering> {
        let bound = (self.k as f64 + 1.0) * U * self.a + THETA;
        if self.v > bound {
            Some(Ordering::Greater)
        } else if -self.v > bound {
            Some(Ordering::Less)
        } else {
            None
        }
    }

    fn times3(self) -> Fe {
        Fe::exact(3.0).mul(&self)
    }
}

impl Arith for Fe {
    #[inline]
    fn add(&self, o: &Self) -> Self {
        Fe {
            v: self.v + o.v,
            a: self.a + o.a,
            k: self.k.max(o.k) + 1,
        }
    }
    #[inline]
    fn sub(&self, o: &Self) -> Self {
        Fe {
            v: self.v - o.v,
            a: self.a + o.a,
            k: self.k.max(o.k) + 1,
        }
    }
    #[inline]
    fn mul(&self, o: &Self) -> Self {
        Fe {
            v: self.v * o.v,
            a: self.a * o.a,
            k: self.k + o.k + 1,
        }
    }
    #[inline]
    fn neg(&self) -> Self {
        Fe {
            v: -self.v,
            a: self.a,
            k: self.k,
        }
    }
}

/// The three difference vectors A, B, C (`formula.rs`) at one time.
type Frame<T> = [V3<T>; 3];

/// The Bernstein coefficients of c on [α, β] as (b₀, 3b₁, 3b₂, b₃), from the
/// frames at α and β (module docs).
fn bernstein(lo: &Frame<Fe>, hi: &Frame<Fe>) -> [Fe; 4] {
    let (a0, b0, c0) = (&lo[0], &lo[1], &lo[2]);
    let (a1, b1, c1) = (&hi[0], &hi[1], &hi[2]);
    let x00 = cross(a0, b0);
    let x01 = cross(a0, b1);
    let x10 = cross(a1, b0);
    let x11 = cross(a1, b1);
    [
        dot(&x00, c0),
        dot(&x10, c0).add(&dot(&x01, c0)).add(&dot(&x00, c1)),
        dot(&x01, c1).add(&dot(&x10, c1)).add(&dot(&x11, c0)),
        dot(&x11, c1),
    ]
}

/// The result of the filter.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Outcome {
    /// No contact in [0, 1], proven.
    Miss,
    /// The first contact is the only root of c in the cell
    /// [k·2⁻ᵐ, (k + 1)·2⁻ᵐ], neither end a root; `nearest` is the double
    /// nearest to it (ties to even), when found.
    Hit {
        k: u64,
        m: u32,
        nearest: Option<f64>,
    },
    /// Contact at t = 0.
    Start,
    /// The first contact is at t = 1 (a root of c).
    End,
    /// Not decided: the exact method answers.
    Unknown,
}

/// Where a root ρ of c is, as tightly as doubles tell.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Tight {
    /// ρ is this double.
    At(f64),
    /// lo < ρ < hi, adjacent doubles, c nonzero at both.
    Between(f64, f64),
}

/// A piece [lo, hi] of the time range: its frames, the Bernstein coefficients
/// of c and the (certain, nonzero) signs of c at its ends.
#[derive(Clone)]
struct Piece {
    lo: f64,
    hi: f64,
    flo: Frame<Fe>,
    fhi: Frame<Fe>,
    b: [Fe; 4],
    s_lo: Ordering,
    s_hi: Ordering,
    depth: u32,
}

/// The filter for one query.
pub(crate) struct Filter<'a> {
    kind: Kind,
    pts: &'a [[f64; 3]; 8],
    f0: Frame<Fe>,
    f1: Frame<Fe>,
    /// c with integer coefficients (a positive multiple), built when a float
    /// bound is too weak.
    exact: OnceCell<Coefficients>,
    /// c(0) = 0, c(1) = 0: a cell or bracket must not end there (that end is a
    /// root of the reported polynomial).
    zero_ends: std::cell::Cell<(bool, bool)>,
}

/// c's exact integer coefficients, and their scaled float approximations for a
/// second, sharper filter (module docs, "Coefficients").
struct Coefficients {
    z: Vec<BigInt>,
    f: [f64; 4],
}

impl Coefficients {
    fn new(z: Vec<BigInt>) -> Self {
        // Scale by 2⁻ˢ so that the largest coefficient is about 2⁵⁰⁰.
        let top = z.iter().map(|c| c.bits()).max().unwrap_or(0) as i64;
        let s = top - 500;
        let mut f = [0.0; 4];
        for (fi, c) in f.iter_mut().zip(&z) {
            *fi = scaled_f64(c, s);
        }
        Coefficients { z, f }
    }

    /// The sign of c at the double t ∈ [0, 1] by Horner's rule on the scaled
    /// approximations, if the error bound excludes zero.
    fn sign(&self, t: f64) -> Option<Ordering> {
        let (mut v, mut a) = (0.0f64, 0.0f64);
        for &c in self.f.iter().rev() {
            v = v * t + c;
            a = a * t + c.abs();
        }
        let bound = 12.0 * U * a + THETA_HORNER;
        if v > bound {
            Some(Ordering::Greater)
        } else if -v > bound {
            Some(Ordering::Less)
        } else {
            None
        }
    }
}

/// Whether coordinate i of all three vectors of an end frame is zero. The
/// end frames hold the inputs' differences x − y rounded once, which is 0
/// exactly when x = y (gradual underflow), so this is exact.
fn zero_axis(f: &Frame<Fe>, i: usize) -> bool {
    f.iter().all(|v| v[i].v == 0.0)
}

/// 2^e for −1022 ≤ e ≤ 1023.
fn pow2(e: i64) -> f64 {
    f64::from_bits(((1023 + e) as u64) << 52)
}

/// z·2⁻ˢ within a relative error of 2u (the top 64 bits, truncated, then
/// rounded to 53), or 0 when it is below 2⁻⁹⁵⁸ (an absolute error that
/// [`THETA_HORNER`] covers).
fn scaled_f64(z: &BigInt, s: i64) -> f64 {
    let b = z.bits() as i64;
    if b == 0 || b - s < -958 {
        return 0.0;
    }
    let shift = (b - 64).max(0);
    let top = (z.magnitude() >> shift as u64).to_u64().expect("64 bits") as f64;
    let (e1, e2) = ((shift - s) / 2, (shift - s) - (shift - s) / 2);
    let v = top * pow2(e1) * pow2(e2);
    if z.sign() == num_bigint::Sign::Minus {
        -v
    } else {
        v
    }
}

/// The exact value of a finite double.
pub(crate) fn rational(t: f64) -> BigRational {
    if t == 0.0 {
        return BigRational::zero();
    }
    let (m, e) = crate::num::dyadic::f64_parts(t);
    if e >= 0 {
        BigRational::from_integer(BigInt::from(m) << e as u64)
    } else {
        BigRational::new_raw(BigInt::from(m), BigInt::one() << (-e) as u64)
    }
}

impl<'a> Filter<'a> {
    /// `None` if a coordinate is not finite or above [`MAX_COORD`].
    pub(crate) fn new(kind: Kind, pts: &'a [[f64; 3]; 8]) -> Option<Self> {
        if !pts.iter().flatten().all(|x| x.abs() <= MAX_COORD) {
            return None;
        }
        let (base, idx) = kind.frame();
        let frame =
            |s: usize| idx.map(|j| [0, 1, 2].map(|i| Fe::diff(pts[s + j][i], pts[s + base][i])));
        let (f0, f1) = (frame(0), frame(4));
        let exact = OnceCell::new();
        if (0..3).any(|i| zero_axis(&f0, i) && zero_axis(&f1, i)) {
            // The four points share one coordinate at t = 0 and one at t = 1:
            // they stay in a plane x_i = const(t), so c ≡ 0 exactly.
            let _ = exact.set(Coefficients::new(Vec::new()));
        }
        Some(Filter {
            kind,
            pts,
            f0,
            f1,
            exact,
            zero_ends: std::cell::Cell::new((false, false)),
        })
    }

    /// c with exact integer coefficients (a positive multiple of it).
    pub(crate) fn exact_c(&self) -> &[BigInt] {
        &self.coefficients().z
    }

    fn coefficients(&self) -> &Coefficients {
        self.exact
            .get_or_init(|| Coefficients::new(super::exact_coplanarity(self.kind, self.pts)))
    }

    /// The frame at the double t ∈ [0, 1]: A(t) = A₀ + t·(A₁ − A₀), etc.
    fn frame_at(&self, t: f64) -> Frame<Fe> {
        if t == 0.0 {
            return self.f0;
        }
        if t == 1.0 {
            return self.f1;
        }
        let t = Fe::exact(t);
        [0, 1, 2].map(|j| {
            [0, 1, 2].map(|i| self.f0[j][i].add(&t.mul(&self.f1[j][i].sub(&self.f0[j][i]))))
        })
    }

    /// The sign of c at the double t (frame `f`): the float bound on the
    /// frames, else on the coefficients, else exact.
    fn sign_c(&self, t: f64, f: &Frame<Fe>) -> Ordering {
        if let Some(s) = dot(&cross(&f[0], &f[1]), &f[2]).sign() {
            return s;
        }
        if (t == 0.0 || t == 1.0) && (0..3).any(|i| zero_axis(f, i)) {
            // The frame at an end is the exact differences: one coordinate
            // zero in all three vectors makes the determinant exactly 0.
            return Ordering::Equal;
        }
        let c = self.coefficients();
        c.sign(t).unwrap_or_else(|| zx::sign_at(&c.z, &rational(t)))
    }

    /// A piece, if c does not vanish at its ends.
    fn piece(&self, lo: f64, hi: f64, flo: Frame<Fe>, fhi: Frame<Fe>, depth: u32) -> Option<Piece> {
        let b = bernstein(&flo, &fhi);
        let s_lo = b[0].sign().unwrap_or_else(|| self.sign_c(lo, &flo));
        let s_hi = b[3].sign().unwrap_or_else(|| self.sign_c(hi, &fhi));
        if s_lo == Ordering::Equal || s_hi == Ordering::Equal {
            return None;
        }
        Some(Piece {
            lo,
            hi,
            flo,
            fhi,
            b,
            s_lo,
            s_hi,
            depth,
        })
    }

    /// How many roots c has in the piece: `Some(0)` or `Some(1)` when that is
    /// proven, `None` when the piece must be split. The Bernstein signs when
    /// the float bounds are certain, else Descartes' rule on the exact c.
    fn count(&self, p: &Piece) -> Option<u32> {
        let (s1, s2) = (p.b[1].sign(), p.b[2].sign());
        let n = match (s1, s2) {
            (Some(s1), Some(s2)) => {
                (p.s_lo != s1) as u32 + (s1 != s2) as u32 + (s2 != p.s_hi) as u32
            }
            _ => zx::descartes_interval(self.exact_c(), &rational(p.lo), &rational(p.hi)),
        };
        (n <= 1).then_some(n)
    }

    /// Runs the filter; `m` is the grid level of the reported time (`points.rs`).
    pub(crate) fn run(&self, m: u32) -> Outcome {
        let whole = bernstein(&self.f0, &self.f1);
        if let [Some(s0), Some(s1), Some(s2), Some(s3)] = whole.map(Fe::sign) {
            if s0 == s1 && s1 == s2 && s2 == s3 && s0 != Ordering::Equal {
                return Outcome::Miss;
            }
        }
        let (s0, s1) = (self.sign_c(0.0, &self.f0), self.sign_c(1.0, &self.f1));
        let (mut s_lo, mut s_hi) = (s0, s1);
        self.zero_ends
            .set((s0 == Ordering::Equal, s1 == Ordering::Equal));
        if s0 == Ordering::Equal || s1 == Ordering::Equal {
            if s0 == Ordering::Equal {
                // Touching at t = 0 is the first contact whatever happens later.
                match self.contact_on(0.0, 0.0) {
                    Some(true) => return Outcome::Start,
                    Some(false) => {}
                    None => {
                        return Outcome::Unknown;
                    }
                }
            }
            // With c(0) = 0, c′(0) = 3b₁ (the sign just after 0); with c(1) = 0,
            // −c′(1) = 3b₂ (the sign just before 1): certain float signs of
            // them decide without c's exact coefficients.
            let quick = |zero: bool, b: &Fe| match (zero, b.sign()) {
                (false, _) => Some(None),
                (true, Some(s)) if s.is_ne() => Some(Some(s)),
                _ => None,
            };
            if let (Some(lo), Some(hi)) = (
                quick(s0 == Ordering::Equal, &whole[1]),
                quick(s1 == Ordering::Equal, &whole[2]),
            ) {
                s_lo = lo.unwrap_or(s_lo);
                s_hi = hi.unwrap_or(s_hi);
                return self.scan(s_lo, s_hi, s1, whole, m);
            }
            let z = self.exact_c();
            if z.is_empty() {
                // c ≡ 0: the points stay coplanar. A miss if the condition is
                // certainly false all along; otherwise the exact method.
                if self.nowhere(0.0, 1.0, 0) {
                    return Outcome::Miss;
                }
                return Outcome::Unknown;
            }
            if s0 == Ordering::Equal {
                // The sign of c just after 0: its lowest nonzero coefficient's.
                s_lo = z.iter().map(zx::ord_of).find(|s| s.is_ne()).expect("c ≢ 0");
            }
            if s1 == Ordering::Equal {
                // The sign of c just before 1: c(1 − s) = Σ dⱼ(−s)ʲ with dⱼ the
                // Taylor coefficients at 1; the first nonzero one decides.
                let mut d = z.to_vec();
                zx::taylor_shift_one(&mut d);
                let (j, s) = d
                    .iter()
                    .map(zx::ord_of)
                    .enumerate()
                    .find(|(_, s)| s.is_ne())
                    .expect("c ≢ 0");
                s_hi = if j % 2 == 0 { s } else { s.reverse() };
            }
        }
        self.scan(s_lo, s_hi, s1, whole, m)
    }

    /// The scan of [0, 1] for the first root of c that is a contact, given the
    /// signs of c just inside the ends and the Bernstein coefficients on [0, 1].
    fn scan(
        &self,
        s_lo: Ordering,
        s_hi: Ordering,
        s1: Ordering,
        whole: [Fe; 4],
        m: u32,
    ) -> Outcome {
        let whole = Piece {
            lo: 0.0,
            hi: 1.0,
            flo: self.f0,
            fhi: self.f1,
            b: whole,
            s_lo,
            s_hi,
            depth: 0,
        };
        let mut stack = vec![whole];
        while let Some(p) = stack.pop() {
            match self.count(&p) {
                Some(0) => continue,
                Some(_) => match self.at_root(&p, m) {
                    Some(Some(hit)) => return hit,
                    Some(None) => continue,
                    None => {
                        return Outcome::Unknown;
                    }
                },
                None => {}
            }
            if p.depth >= MAX_DEPTH {
                return Outcome::Unknown;
            }
            // Split where c does not vanish.
            let Some((left, right)) = [0.5, 0.375, 0.625].iter().find_map(|&w| {
                let mid = p.lo + w * (p.hi - p.lo);
                let f = self.frame_at(mid);
                let l = self.piece(p.lo, mid, p.flo, f, p.depth + 1)?;
                let r = self.piece(mid, p.hi, f, p.fhi, p.depth + 1)?;
                Some((l, r))
            }) else {
                return Outcome::Unknown;
            };
            stack.push(right);
            stack.push(left);
        }
        if s1 == Ordering::Equal {
            // The last candidate: c(1) = 0.
            return match self.contact_on(1.0, 1.0) {
                Some(true) => Outcome::End,
                Some(false) => Outcome::Miss,
                None => Outcome::Unknown,
            };
        }
        Outcome::Miss
    }

    /// Whether the contact condition (apart from c = 0) is certainly false at
    /// every time of [lo, hi]: interval arithmetic, bisecting up to
    /// [`NOWHERE_DEPTH`] levels.
    fn nowhere(&self, lo: f64, hi: f64, depth: u32) -> bool {
        match self.contact_on(lo, hi) {
            Some(false) => true,
            Some(true) => false,
            None => {
                let mid = 0.5 * (lo + hi);
                depth < NOWHERE_DEPTH
                    && self.nowhere(lo, mid, depth + 1)
                    && self.nowhere(mid, hi, depth + 1)
            }
        }
    }

    /// Whether [l, h] ends at 0 or 1 where c vanishes.
    fn ends_root(&self, l: f64, h: f64) -> bool {
        let (z0, z1) = self.zero_ends.get();
        (l == 0.0 && z0) || (h == 1.0 && z1)
    }

    /// The piece `p` holds exactly one root ρ of c: `Some(Some(hit))` if it is a
    /// contact, `Some(None)` if it is not, `None` if not decided.
    fn at_root(&self, p: &Piece, m: u32) -> Option<Option<Outcome>> {
        if m > FINEST {
            return None;
        }
        let approx = p.lo + approx_root(p.b.map(|x| x.v)) * (p.hi - p.lo);
        let k = self.bracket(p, m, approx)?;
        let scale = (1u64 << m) as f64;
        let (l, h) = (k as f64 / scale, (k + 1) as f64 / scale);
        if self.ends_root(l, h) {
            return None;
        }
        // ρ is in the cell; it is c's only root there if c is monotone on the
        // cell (float bounds) or by Descartes' rule on the exact c.
        let cell = bernstein(&self.frame_at(l), &self.frame_at(h));
        let d = [
            cell[1].sub(&cell[0].times3()).sign(),
            cell[2].sub(&cell[1]).sign(),
            cell[3].times3().sub(&cell[2]).sign(),
        ];
        let monotone = d[0].is_some() && d[0] == d[1] && d[1] == d[2];
        if !monotone && zx::descartes_interval(self.exact_c(), &rational(l), &rational(h)) != 1 {
            return None;
        }
        let mut hit = self.contact_on(l, h);
        // ρ is the piece's only root and lies in the cell: the finer searches
        // (`tight`) look in the cell's part of the piece only (the same bracket
        // of ρ, found with fewer signs of c).
        let p = &Piece {
            lo: p.lo.max(l),
            hi: p.hi.min(h),
            ..p.clone()
        };
        let mut tight = None;
        if hit.is_none() {
            // A narrower enclosure of ρ: between adjacent doubles.
            let t = self.tight(p, approx)?;
            hit = match t {
                Tight::At(x) => self.contact_on(x, x),
                Tight::Between(lo, hi) => self.contact_on(lo, hi),
            };
            if hit.is_none() {
                // The condition is balanced at ρ: decide it exactly there.
                hit = super::exact_contact_at(self.kind, self.pts, self.exact_c(), t);
            }
            tight = Some(t);
        }
        if !hit? {
            return Some(None);
        }
        let nearest = match tight {
            Some(t) => Some(self.nearest(p, t)),
            None => self.tight(p, approx).map(|t| self.nearest(p, t)),
        };
        Some(Some(Outcome::Hit { k, m, nearest }))
    }

    /// The only root ρ of c in the piece, between adjacent doubles (or equal to a
    /// double): bracketed at the finest grid level, then by bisection on the bit
    /// patterns (positive doubles are ordered as their bits). `None` if a grid
    /// point is a root.
    fn tight(&self, p: &Piece, approx: f64) -> Option<Tight> {
        let a = self.bracket(p, FINEST, approx)?;
        let fine = (1u64 << FINEST) as f64;
        let (mut lo, mut hi) = (
            (a as f64 / fine).max(p.lo),
            ((a + 1) as f64 / fine).min(p.hi),
        );
        if self.ends_root(lo, hi) {
            return None;
        }
        while hi.to_bits() - lo.to_bits() > 1 {
            let mid = f64::from_bits(lo.to_bits() + (hi.to_bits() - lo.to_bits()) / 2);
            match self.sign_c(mid, &self.frame_at(mid)) {
                Ordering::Equal => return Some(Tight::At(mid)),
                s if s == p.s_lo => lo = mid,
                _ => hi = mid,
            }
        }
        Some(Tight::Between(lo, hi))
    }

    /// The double nearest to ρ (ties to even): ρ itself, or the end of its
    /// tight bracket on ρ's side of their midpoint (an exact sign of c).
    fn nearest(&self, p: &Piece, t: Tight) -> f64 {
        let (lo, hi) = match t {
            Tight::At(x) => return x,
            Tight::Between(lo, hi) => (lo, hi),
        };
        let (num, den) = crate::poly::f64_midpoint(lo, hi);
        match zx::ord_of(&zx::eval_hom(self.exact_c(), &num, &den)) {
            Ordering::Equal if lo.to_bits() & 1 == 0 => lo,
            Ordering::Equal => hi,
            s if s == p.s_lo => hi,
            _ => lo,
        }
    }

    /// The grid cell [k, k + 1]·2⁻ᵐ (m ≤ [`FINEST`]) that contains the only root
    /// ρ of c in the piece `p`: the sign of c at grid points, clipped to the piece
    /// (s_lo left of ρ, s_hi right of it), probed at the guess, galloping away
    /// from it, then bisecting. `None` if a grid point is a root of c.
    fn bracket(&self, p: &Piece, m: u32, guess: f64) -> Option<u64> {
        let scale = (1u64 << m) as f64;
        let sign_at = |j: u64| -> Option<Ordering> {
            let t = j as f64 / scale;
            if t <= p.lo {
                return Some(p.s_lo);
            }
            if t >= p.hi {
                return Some(p.s_hi);
            }
            let s = self.sign_c(t, &self.frame_at(t));
            (s != Ordering::Equal).then_some(s)
        };
        let (first, last) = ((p.lo * scale).floor() as u64, (p.hi * scale).ceil() as u64);
        let mut j = ((guess * scale).floor().max(0.0) as u64).clamp(first, last - 1);
        let (mut a, mut b) = (first, last);
        let mut step = 1;
        loop {
            let left = sign_at(j)? == p.s_lo;
            if left {
                a = a.max(j);
            } else {
                b = b.min(j);
            }
            if b - a <= step {
                break;
            }
            j = if left {
                (j + step).min(b - 1)
            } else {
                j.saturating_sub(step).max(a + 1)
            };
            step *= 2;
        }
        while b - a > 1 {
            let mid = a + (b - a) / 2;
            if sign_at(mid)? == p.s_lo {
                a = mid;
            } else {
                b = mid;
            }
        }
        Some(a)
    }

    fn contact_on(&self, l: f64, h: f64) -> Option<bool> {
        contact_interval(self.kind, self.pts, l, h)
    }
}

/// x − y as an interval: the point itself when the rounded difference is exact
/// (Knuth's TwoSum error term is zero), else outward rounded.
fn diff(x: f64, y: f64) -> Interval {
    let s = x - y;
    let bb = s - x;
    let err = (x - (s - bb)) + (-y - bb);
    if err == 0.0 && s.is_finite() {
        Interval::point(s)
    } else {
        Interval::point(x).sub(&Interval::point(y))
    }
}

/// The frame A, B, C at every time of [l, h] ⊂ [0, 1] (a point when l = h), in
/// outward-rounded interval arithmetic.
pub(crate) fn interval_frame(kind: Kind, pts: &[[f64; 3]; 8], l: f64, h: f64) -> [V3<Interval>; 3] {
    let (base, idx) = kind.frame();
    let t = Interval { lo: l, hi: h };
    idx.map(|j| {
        [0, 1, 2].map(|i| {
            let r0 = diff(pts[j][i], pts[base][i]);
            let r1 = diff(pts[4 + j][i], pts[4 + base][i]);
            match (l, h) {
                (0.0, 0.0) => r0,
                (1.0, 1.0) => r1,
                _ => r0.add(&t.mul(&r1.sub(&r0))),
            }
        })
    })
}

/// The certain sign of an interval, if any.
pub(crate) fn interval_sign(x: &Interval) -> Option<Ordering> {
    x.sign().map(|s| match s {
        crate::Sign::Positive => Ordering::Greater,
        crate::Sign::Negative => Ordering::Less,
        crate::Sign::Zero => Ordering::Equal,
    })
}

/// The contact condition at every time of [l, h] ⊂ [0, 1] (a point when l = h),
/// in outward-rounded interval arithmetic: `Some(b)` when it is certainly `b`
/// on the whole interval.
pub(crate) fn contact_interval(kind: Kind, pts: &[[f64; 3]; 8], l: f64, h: f64) -> Option<bool> {
    let v = interval_frame(kind, pts, l, h);
    let contact = Contact::new(kind, &v[0], &v[1], &v[2]);
    contact.holds(&mut |t| interval_sign(&contact.term(t)))
}

/// The pieces of [lo, hi] (in order, adjacent ones merged), bisected down to
/// [`UNDECIDED_DEPTH`] levels, on which interval arithmetic does not prove the
/// contact condition false; appended to `out`. The search stops at the first
/// piece on which the condition certainly holds (appended whole; `true` is
/// returned): the first contact is then at most its start, so nothing after it
/// is needed.
pub(crate) fn undecided(
    kind: Kind,
    pts: &[[f64; 3]; 8],
    lo: f64,
    hi: f64,
    depth: u32,
    out: &mut Vec<(f64, f64)>,
) -> bool {
    let push = |out: &mut Vec<(f64, f64)>| match out.last_mut() {
        Some(last) if last.1 == lo => last.1 = hi,
        _ => out.push((lo, hi)),
    };
    match contact_interval(kind, pts, lo, hi) {
        Some(false) => false,
        Some(true) => {
            push(out);
            true
        }
        None if depth < UNDECIDED_DEPTH => {
            let mid = 0.5 * (lo + hi);
            undecided(kind, pts, lo, mid, depth + 1, out)
                || undecided(kind, pts, mid, hi, depth + 1, out)
        }
        None => {
            push(out);
            false
        }
    }
}

/// A float approximation of the root in (0, 1) of the cubic with Bernstein
/// coefficients (b₀, 3b₁, 3b₂, b₃) (b₀, b₃ of opposite signs): its monomial
/// form in s, solved by the float path's regula falsi. Only a guess: the caller
/// proves where the root is.
fn approx_root(b: [f64; 4]) -> f64 {
    let (b0, s1, s2, b3) = (b[0], b[1], b[2], b[3]);
    // Σ bᵢ·C(3, i)·sⁱ(1 − s)³⁻ⁱ = b₀ + 3(b₁ − b₀)s + 3(b₀ − 2b₁ + b₂)s² + (b₃ − 3b₂ + 3b₁ − b₀)s³.
    let p = [
        b0,
        s1 - 3.0 * b0,
        3.0 * b0 - 2.0 * s1 + s2,
        b3 - s2 + s1 - b0,
    ];
    crate::ccd::boxes::float::bracket(&p, 0.0, 1.0).clamp(0.0, 1.0)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::poly::planted::splitmix64;

    /// Near-degenerate points: a grid, coplanar at t = 1/2 in z = 0 for every
    /// second case, one coordinate a few ulps off, scaled by 2^e.
    fn points(s: &mut u64) -> [[f64; 3]; 8] {
        let e = (splitmix64(s) % 121) as i32 - 60;
        let scale = 2f64.powi(e);
        let flat = splitmix64(s) % 2 == 0;
        let mut p: [[f64; 3]; 8] = std::array::from_fn(|_| {
            std::array::from_fn(|_| (splitmix64(s) % 33) as f64 / 8.0 - 2.0)
        });
        if flat {
            // z(t) = z0 + t·(z1 − z0) = 0 at t = 1/2 for every point.
            for k in 0..4 {
                p[k + 4][2] = -p[k][2];
            }
        }
        let (k, i) = ((splitmix64(s) % 8) as usize, (splitmix64(s) % 3) as usize);
        for _ in 0..splitmix64(s) % 3 {
            p[k][i] = p[k][i].next_up();
        }
        p.map(|r| r.map(|x| x * scale))
    }

    /// Whenever a float bound (on the frames, or on the rounded coefficients)
    /// gives a sign of c at a time, it is the exact sign.
    #[test]
    fn float_signs_of_c_are_exact() {
        let mut s = 2024u64;
        let (mut frames, mut coeffs) = (0, 0);
        for _ in 0..400 {
            let p = points(&mut s);
            for kind in [Kind::VertexFace, Kind::EdgeEdge] {
                let f = Filter::new(kind, &p).unwrap();
                for t in [0.0, 1.0, 0.5, 0.25, 0.75, 0.5f64.next_up(), 0.3, 0.9] {
                    let exact = zx::sign_at(f.exact_c(), &rational(t));
                    let fr = f.frame_at(t);
                    if let Some(sign) = dot(&cross(&fr[0], &fr[1]), &fr[2]).sign() {
                        assert_eq!(sign, exact, "{kind:?} {p:?} at {t}");
                        frames += 1;
                    }
                    if let Some(sign) = f.coefficients().sign(t) {
                        assert_eq!(sign, exact, "{kind:?} {p:?} at {t} (coefficients)");
                        coeffs += 1;
                    }
                }
            }
        }
        // The bounds decide most signs, not all (exact zeros at t = 1/2).
        assert!(frames > 3000 && coeffs >= frames, "{frames} {coeffs}");
    }

    /// The rounded coefficients are within 2u of the exact ones.
    #[test]
    fn scaled_coefficients_are_within_two_ulps() {
        let mut s = 7u64;
        for _ in 0..500 {
            let bits = splitmix64(&mut s) % 700;
            let z = (BigInt::from(splitmix64(&mut s)) << bits) + BigInt::from(splitmix64(&mut s));
            let sh = (splitmix64(&mut s) % 800) as i64 - 100;
            let f = scaled_f64(&z, sh);
            let exact = BigRational::new(z.clone(), BigInt::one())
                / BigRational::from_integer(2.into()).pow(sh as i32);
            let got = BigRational::from_float(f).unwrap();
            let err = (&got - &exact).abs();
            assert!(
                err <= exact.abs() * BigRational::new(2.into(), BigInt::one() << 53u32),
                "{z} {sh}"
            );
        }
    }
}
