//! Double-word numbers (an unevaluated sum `h + l` of two doubles) with a
//! running bound on their distance to the exact value, and the correct
//! rounding of `√s/d − R` they certify.
//!
//! [`Dx`] is [`Fx`](crate::num::bounded::Fx) with about twice the precision:
//! every operation is computed with the error-free transformations TwoSum
//! (O. Møller, "Quasi double-precision in floating point addition", BIT 5,
//! 1965; D. E. Knuth, *The Art of Computer Programming*, vol. 2) and Dekker's
//! product (T. J. Dekker, "A floating-point technique for extending the
//! available precision", Numerische Mathematik 18, 1971; here as one fused
//! multiply-add, `f64::mul_add`), and the few
//! roundings that are not error-free are bounded at run time, each by
//! `u·|computed|` (plus `η` for underflow), as in running error analysis
//! (N. J. Higham, *Accuracy and Stability of Numerical Algorithms*, SIAM
//! 2002, §3.3). The bound is an upper bound on `|h + l − x|` for the exact
//! `x`; an overflow makes a part infinite or NaN and then nothing is decided.
//!
//! ```text
//! a + b:  (s, σ) = TwoSum(a_h, b_h); t₁ = σ + a_l; t = t₁ + b_l; (h, l) = TwoSum(s, t)
//!         e = (e_a + e_b + u(|t₁| + |t|) + 2η)·K
//! a · b:  (p, π) = TwoProd(a_h, b_h); m₁ = a_h b_l; m₂ = a_l b_h; c₁ = m₁ + m₂; c = c₁ + π;
//!         (h, l) = TwoSum(p, c)
//!         e = (|ã|e_b + |b̃|e_a + e_a e_b + |a_l||b_l| + u(|m₁| + |m₂| + |c₁| + |c|) + 8η)·K
//! ```
//!
//! with `|ã| ≤ |a_h| + |a_l|` and `K = 1 + 32u` covering the roundings of
//! the bound's own nonnegative terms.

use crate::num::bounded::{Fx, ETA, U};
use crate::num::ring::Ring;
use crate::num::sign::Sign;
use crate::stats::SQRT_RATIO_ZIV;

const K: f64 = 1.0 + 32.0 * U;

#[inline(always)]
fn two_sum(a: f64, b: f64) -> (f64, f64) {
    let s = a + b;
    let bb = s - a;
    (s, (a - (s - bb)) + (b - bb))
}

/// `a·b = p + π` exactly, barring overflow and underflow (a few 2⁻¹⁰⁷⁵
/// then, inside the `η` terms): `π = fma(a, b, −p)`, the fused multiply-add
/// rounding `a·b − p` once, which is a double.
#[inline(always)]
fn two_prod(a: f64, b: f64) -> (f64, f64) {
    let p = a * b;
    (p, a.mul_add(b, -p))
}

/// A double-word value `h + l` and a bound `e ≥ |h + l − x|` on its distance
/// to the exact value `x`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Dx {
    /// The leading part.
    pub h: f64,
    /// The trailing part.
    pub l: f64,
    /// The bound on the error of `h + l`.
    pub e: f64,
}

impl Dx {
    /// An exactly known double.
    #[inline(always)]
    pub(crate) fn exact(v: f64) -> Dx {
        Dx {
            h: v,
            l: 0.0,
            e: 0.0,
        }
    }

    /// The product of two doubles, exactly (`TwoProd`), barring underflow
    /// (`π` then off by at most 2⁻¹⁰⁷⁵) and overflow (a part infinite or NaN).
    #[inline(always)]
    pub(crate) fn prod(a: f64, b: f64) -> Dx {
        let (h, l) = two_prod(a, b);
        Dx { h, l, e: 8.0 * ETA }
    }

    /// `self · b` for an exactly known double `b`: [`Ring::mul_ref`] with
    /// `b_l = e_b = 0`, whose terms `m₁ = a_h·0` and `c₁ = m₁ + m₂ = m₂` are
    /// exact; the roundings left are `m₂ = a_l·b` and `c = m₂ + π`:
    /// `e = (|b|·e_a + u(|m₂| + |c|) + 8η)·K`.
    #[inline(always)]
    pub(crate) fn mul_f64(&self, b: f64) -> Dx {
        let (p, pi) = two_prod(self.h, b);
        let m2 = self.l * b;
        let c = m2 + pi;
        let (h, l) = two_sum(p, c);
        Dx {
            h,
            l,
            e: (b.abs() * self.e + U * (m2.abs() + c.abs()) + 8.0 * ETA) * K,
        }
    }

    /// `self²`: [`Ring::mul_ref`] of `self` by itself, whose two middle
    /// products are one (`m₁ = m₂ = a_h·a_l`, rounded once, `c₁ = 2m₁`
    /// exact): `e = (2|ã|e + e² + a_l² + u(2|m₁| + |c|) + 8η)·K`.
    #[inline(always)]
    pub(crate) fn sq(&self) -> Dx {
        let (p, pi) = two_prod(self.h, self.h);
        let m1 = self.h * self.l;
        let c = (m1 + m1) + pi;
        let (h, l) = two_sum(p, c);
        let ma = self.h.abs() + self.l.abs();
        Dx {
            h,
            l,
            e: (2.0 * ma * self.e
                + self.e * self.e
                + self.l * self.l
                + U * (2.0 * m1.abs() + c.abs())
                + 8.0 * ETA)
                * K,
        }
    }

    /// The value as a double with a bound: `|h − x| ≤ |l| + e`, the sum
    /// rounded up by the factor (exact when it is subnormal, then the
    /// product rounds to at least it).
    #[inline(always)]
    pub(crate) fn to_fx(self) -> Fx {
        Fx {
            v: self.h,
            e: (self.l.abs() + self.e) * (1.0 + 8.0 * U),
        }
    }

    /// The exact sign when the bound decides it.
    pub(crate) fn sign(self) -> Option<Sign> {
        // h + l − e ≥ h − w > 0 with w ≥ |l| + e (the product covers the two
        // roundings of w); the sign of fl(h − w) is the sign of h − w.
        let w = (self.l.abs() + self.e) * (1.0 + 8.0 * U);
        if !w.is_finite() || !self.h.is_finite() {
            return None;
        }
        if self.h > w {
            Some(Sign::Positive)
        } else if self.h < -w {
            Some(Sign::Negative)
        } else if self.h == 0.0 && self.l == 0.0 && self.e == 0.0 {
            Some(Sign::Zero)
        } else {
            None
        }
    }
}

impl Ring for Dx {
    fn zero() -> Self {
        Dx::exact(0.0)
    }
    fn one() -> Self {
        Dx::exact(1.0)
    }
    fn from_i32(v: i32) -> Self {
        Dx::exact(v as f64)
    }
    #[inline(always)]
    fn add_ref(&self, o: &Self) -> Self {
        let (s, sig) = two_sum(self.h, o.h);
        let t1 = sig + self.l;
        let t = t1 + o.l;
        let (h, l) = two_sum(s, t);
        Dx {
            h,
            l,
            e: (self.e + o.e + U * (t1.abs() + t.abs()) + 2.0 * ETA) * K,
        }
    }
    #[inline(always)]
    fn sub_ref(&self, o: &Self) -> Self {
        self.add_ref(&o.neg_ref())
    }
    #[inline(always)]
    fn mul_ref(&self, o: &Self) -> Self {
        let (p, pi) = two_prod(self.h, o.h);
        let m1 = self.h * o.l;
        let m2 = self.l * o.h;
        let c1 = m1 + m2;
        let c = c1 + pi;
        let (h, l) = two_sum(p, c);
        let (ma, mb) = (self.h.abs() + self.l.abs(), o.h.abs() + o.l.abs());
        Dx {
            h,
            l,
            e: (ma * o.e
                + mb * self.e
                + self.e * o.e
                + self.l.abs() * o.l.abs()
                + U * (m1.abs() + m2.abs() + c1.abs() + c.abs())
                + 8.0 * ETA)
                * K,
        }
    }
    #[inline(always)]
    fn neg_ref(&self) -> Self {
        Dx {
            h: -self.h,
            l: -self.l,
            e: self.e,
        }
    }
    #[inline(always)]
    fn abs_ref(&self) -> Self {
        if self.h < 0.0 || (self.h == 0.0 && self.l < 0.0) {
            self.neg_ref()
        } else {
            *self
        }
    }
}

/// The double nearest to `x = √s/d − (r_a + r_b)` for exact `s ≥ 0`,
/// `d > 0` enclosed by `s`, `d`, and radii `r_a, r_b ≥ 0`, when the caller
/// knows `x > 0`.
///
/// A guess `g₀` in doubles; `f(m) = s − d²(m + R)²` has the sign of `x − m`
/// for `m > 0` (both sides nonnegative), and is evaluated once, at `g₀`, in
/// double-word arithmetic. Everywhere else it follows from the identity
///
/// ```text
/// f(m) = f(g₀) − d²·(m − g₀)·(m + g₀ + 2R)
/// ```
///
/// whose correction term is small when `m` is near `g₀`, so that [`Fx`]
/// (a double with a proven bound) carries it: `g₀` is improved by one Newton
/// step on `f`, then certified by the signs of `f` at the midpoints `m`
/// between `g` and its neighbours, each decided by the bound; a few steps to
/// a neighbour when a midpoint is passed. `None` when a sign is undecided
/// (the value is too close to a midpoint, or the guess too far off), or `g`
/// is not a normal double well inside the range: the caller decides exactly
/// then.
pub(crate) fn nearest_sqrt_quot_minus(s: Dx, d: Dx, ra: f64, rb: f64) -> Option<f64> {
    let rf = ra + rb;
    let inside = |g: f64| g.is_finite() && g > f64::MIN_POSITIVE * 1e10 && g < f64::MAX / 1e10;
    let g0 = (s.h + s.l).sqrt() / d.h - rf;
    if !inside(g0) {
        return None;
    }
    let r = Dx::exact(ra).add_ref(&Dx::exact(rb));
    let f0 = s.sub_ref(&d.mul_ref(&Dx::exact(g0).add_ref(&r)).square());
    // The double-word values as doubles with a bound: |fl(h + l) − x| ≤
    // |fl(h + l) − (h + l)| + e.
    let fx = |x: Dx| Fx::exact(x.h).add_ref(&Fx { v: x.l, e: x.e });
    let f0x = fx(f0);
    let d2 = fx(d).square();
    let rx = Fx::exact(ra).add_ref(&Fx::exact(rb));
    let g0x = Fx::exact(g0);
    // Newton on f, f' = −2d²(g + R).
    let mut g = g0 + (f0.h + f0.l) / (2.0 * d.h * d.h * (g0 + rf));
    // f at the midpoint between g and its neighbour n: m = g + δ with
    // δ = (n − g)/2 exact (n − g is one unit in the last place, a power of
    // two above 2⁻¹⁰⁷⁴ in the range `inside` allows).
    let at = |g: f64, n: f64| {
        let delta = Fx::exact((n - g) * 0.5);
        let gx = Fx::exact(g);
        let m_minus = gx.sub_ref(&g0x).add_ref(&delta);
        let m_plus = gx.add_ref(&delta).add_ref(&g0x).add_ref(&rx).add_ref(&rx);
        f0x.sub_ref(&d2.mul_ref(&m_minus.mul_ref(&m_plus)))
    };
    for _ in 0..4 {
        if !inside(g) {
            return None;
        }
        let (up, dn) = (g.next_up(), g.next_down());
        match at(g, dn).sign()? {
            Sign::Negative => {
                g = dn;
                continue;
            }
            Sign::Zero => return None,
            Sign::Positive => {}
        }
        match at(g, up).sign()? {
            Sign::Negative => return Some(g),
            Sign::Zero => return None,
            Sign::Positive => g = up,
        }
    }
    None
}

/// The double nearest to `x = √(A/B) − (r_a + r_b)` for exact `A ≥ 0` and
/// `B > 0` enclosed by `a` and `b` (`None`: `B = 1` exactly), and radii
/// `r_a, r_b ≥ 0`; `None` when the rounding is not certified here (then the
/// caller decides exactly). A certified answer `g` comes with `x > 0`.
///
/// `f(m) = A − B(m + R)²` has the sign of `x − m` for `m > 0`
/// (`√(A/B) > m + R ⟺ A > B(m + R)²`); it is evaluated once, at the guess
/// `g₀ = √(a_h/b_h) − R`, in double-word arithmetic, and one Newton step
/// gives `g₀ + δ̃`. Ziv's test ([`ziv`]) decides the rounding from that value
/// and its proven error bound when it is not within the bound of a rounding
/// midpoint (almost always); otherwise ([`crate::stats::SQRT_RATIO_ZIV`]
/// counts both) the signs of `f` at the midpoints around the guess decide,
/// each by the bound of [`Fx`], with `f` elsewhere than `g₀` from the
/// identity
///
/// ```text
/// f(m) = f(g₀) − B·(m − g₀)·(m + g₀ + 2R)
/// ```
///
/// and a few steps to a neighbour when a midpoint is passed. `None` when a
/// sign is undecided or the guess leaves the normal range.
#[inline(always)]
pub(crate) fn nearest_sqrt_ratio_minus(a: Dx, b: Option<Dx>, ra: f64, rb: f64) -> Option<f64> {
    let n = Newton::new(a, b, ra, rb)?;
    if let Some(x) = ziv(&n, b) {
        SQRT_RATIO_ZIV.fast();
        return Some(x);
    }
    SQRT_RATIO_ZIV.fallback();
    by_midpoints(&n, b, ra, rb)
}

/// The normal range [`nearest_sqrt_ratio_minus`] answers in.
#[inline(always)]
fn in_range(g: f64) -> bool {
    g.is_finite() && g > f64::MIN_POSITIVE * 1e10 && g < f64::MAX / 1e10
}

/// [`nearest_sqrt_ratio_minus`]'s guess and Newton step.
#[derive(Clone, Copy, Debug)]
struct Newton {
    /// Encloses `F = A − BT²`, `T = g₀ + r_a + r_b` exactly.
    f0: Dx,
    /// `g₀ = fl(√(a_h/b_h) − fl(r_a + r_b))`, in the normal range.
    g0: f64,
    /// `t = fl(g₀ + fl(r_a + r_b))`.
    t: f64,
    /// `den = fl(fl(2b_h)·t)`.
    den: f64,
    /// `δ̃ = fl(fl(f0.h + f0.l)/den)`.
    delta: f64,
}

impl Newton {
    /// `None` when `g₀` leaves the normal range.
    #[inline(always)]
    fn new(a: Dx, b: Option<Dx>, ra: f64, rb: f64) -> Option<Newton> {
        let rf = ra + rb;
        let bh = b.map_or(1.0, |b| b.h);
        let g0 = (a.h / bh).sqrt() - rf;
        if !in_range(g0) {
            return None;
        }
        let r = Dx::exact(ra).add_ref(&Dx::exact(rb));
        let t2 = Dx::exact(g0).add_ref(&r).sq();
        let f0 = a.sub_ref(&match b {
            Some(b) => b.mul_ref(&t2),
            None => t2,
        });
        // Newton on f, f' = −2B(g + R).
        let t = g0 + rf;
        let den = 2.0 * bh * t;
        let delta = (f0.h + f0.l) / den;
        Some(Newton {
            f0,
            g0,
            t,
            den,
            delta,
        })
    }
}

/// The double nearest to `x = |w| − (r_a + r_b)` for `w` enclosed by three
/// double-word values (`|wⱼ.h + wⱼ.l − wⱼ| ≤ wⱼ.e`, normalised: `|wⱼ.l| ≤
/// u|wⱼ.h|`, as [`sum`] leaves them) and radii `r_a, r_b ≥ 0`: what
/// [`nearest_sqrt_ratio_minus`] answers for `A = |w|²` and `B = 1`, with
/// `F = |w|² − T²` (`T = g₀ + r_a + r_b`) evaluated in one pass
/// ([`Newton::of_norm`]) rather than as `|w|²` and `T²` in [`Dx`] with a
/// running bound on each operation. `None` when the rounding is not
/// certified here (then the caller decides exactly); a certified answer
/// comes with `x > 0`.
#[inline(always)]
pub(crate) fn nearest_norm_minus(w: &[Dx; 3], ra: f64, rb: f64) -> Option<f64> {
    let n = Newton::of_norm(w, ra, rb)?;
    if let Some(x) = ziv(&n, None) {
        SQRT_RATIO_ZIV.fast();
        return Some(x);
    }
    SQRT_RATIO_ZIV.fallback();
    by_midpoints(&n, None, ra, rb)
}

impl Newton {
    /// [`Newton::new`] for `A = |w|²`, `B = 1` ([`nearest_norm_minus`]'s
    /// inputs); `None` when `g₀` leaves the normal range.
    ///
    /// # Why the bound holds
    ///
    /// With `w̃ⱼ = hⱼ + lⱼ`, `(Pⱼ, qⱼ) = TwoProd(hⱼ, hⱼ)`, `(ρ₀, ρ) =
    /// TwoSum(r_a, r_b)`, `(t, τ) = TwoSum(g₀, ρ₀)` (so `T = t + τ + ρ`
    /// exactly) and `(P_T, q_T) = TwoProd(t, t)`:
    ///
    /// ```text
    /// Σw̃ⱼ² − T² = (P₀ + P₁ + P₂ − P_T + S) + Σlⱼ² − (τ + ρ)²
    /// S = q₀ + q₁ + q₂ − q_T + 2Σhⱼlⱼ − 2t(τ + ρ)
    /// ```
    ///
    /// `S` is computed in doubles as `small`, and the five doubles
    /// `P₀, P₁, P₂, −P_T, small` are summed by [`sum`] (its bound `s.e`).
    /// With `M = P₀ + P₁ + P₂ + P_T` (nonnegative) and `u = 2⁻⁵³`: `|qⱼ| ≤
    /// uPⱼ`, `|q_T| ≤ uP_T`; `|lⱼ| ≤ u|hⱼ|` gives `|Σhⱼlⱼ| ≤ u(1 + u)ΣPⱼ`;
    /// `0 ≤ ρ₀ ≤ t` (`g₀ > 0`, rounding monotone) gives `|τ|, |ρ| ≤ ut`, so
    /// `|t(τ + ρ)| ≤ 2u(1 + u)P_T`. The roundings of `small` (the doubling
    /// is exact): `Σhⱼlⱼ`'s three products and two sums err by at most
    /// `γ₃Σ|hⱼlⱼ| ≤ 3.02u²ΣPⱼ`, `t·(τ + ρ)`'s two roundings by
    /// `γ₂·2ut² ≤ 4.04u²P_T`, their difference by
    /// `u(1.01uΣPⱼ + 2.01uP_T)`, all three doubled (`≤ 12.1u²M`); the sums
    /// of the `q`s by `u²(P₀ + P₁)`, `u²(P₂ + P_T)` and `1.01u²M`, the last
    /// sum by `5.1u²M`: `|small − S| ≤ 20u²M`. The dropped terms:
    /// `Σlⱼ² ≤ 1.01u²ΣPⱼ` and `(τ + ρ)² ≤ 4u²t² ≤ 4.01u²P_T`. The
    /// enclosures of `w` add `Σ|wⱼ² − w̃ⱼ²| ≤ Σeⱼ(2|w̃ⱼ| + eⱼ) ≤
    /// Σeⱼ(2(1 + u)|hⱼ| + eⱼ)`. So
    ///
    /// ```text
    /// |F − (s.h + s.l)| ≤ s.e + 24u²M + Σeⱼ(2(1 + u)|hⱼ| + eⱼ) (+ underflow)
    /// f0.e = (s.e + 64u²·fl(fl(P₀ + P₁) + fl(P₂ + P_T)) + Σeⱼ(2|hⱼ| + eⱼ) + 32η)·K
    /// ```
    ///
    /// computed from nonnegative terms: fewer than twenty roundings of them
    /// (and the factor `1 + u`) are covered by `K = 1 + 32u` and the margin
    /// of 64 over 24. Underflow: each of the at most thirty roundings above
    /// that underflows (the TwoProds' `q`, the products in `small` and in
    /// the bound) loses at most 2⁻¹⁰⁷⁵, far below `32η = 2⁻¹⁰⁵⁵`. An
    /// infinite or NaN part makes `f0` infinite or NaN, and nothing is
    /// certified from it ([`ziv`], [`by_midpoints`]).
    #[inline(always)]
    fn of_norm(w: &[Dx; 3], ra: f64, rb: f64) -> Option<Newton> {
        let rf = ra + rb;
        let (p0, q0) = two_prod(w[0].h, w[0].h);
        let (p1, q1) = two_prod(w[1].h, w[1].h);
        let (p2, q2) = two_prod(w[2].h, w[2].h);
        let g0 = ((p0 + p1) + p2).sqrt() - rf;
        if !in_range(g0) {
            return None;
        }
        let (r0, rho) = two_sum(ra, rb);
        let (t, tau) = two_sum(g0, r0);
        let (pt, qt) = two_prod(t, t);
        let hl = w[0].h * w[0].l + w[1].h * w[1].l + w[2].h * w[2].l;
        let small = ((q0 + q1) + (q2 - qt)) + 2.0 * (hl - t * (tau + rho));
        let s = sum(&[p0, p1, p2, -pt, small]);
        let m = (p0 + p1) + (p2 + pt);
        let ein = w[0].e * (2.0 * w[0].h.abs() + w[0].e)
            + w[1].e * (2.0 * w[1].h.abs() + w[1].e)
            + w[2].e * (2.0 * w[2].h.abs() + w[2].e);
        let f0 = Dx {
            h: s.h,
            l: s.l,
            e: (s.e + 64.0 * U * U * m + ein + 32.0 * ETA) * K,
        };
        // Newton on f, f' = −2(g + R).
        let den = 2.0 * t;
        let delta = (f0.h + f0.l) / den;
        Some(Newton {
            f0,
            g0,
            t,
            den,
            delta,
        })
    }
}

/// The rounding by the signs of `f` at the midpoints around the Newton
/// value ([`nearest_sqrt_ratio_minus`], the fallback of Ziv's test).
#[inline(always)]
fn by_midpoints(n: &Newton, b: Option<Dx>, ra: f64, rb: f64) -> Option<f64> {
    let rx = Fx::exact(ra).add_ref(&Fx::exact(rb));
    let mid = Midpoints {
        f0: n.f0.to_fx(),
        b: b.map(Dx::to_fx),
        g0: Fx::exact(n.g0),
        g0_2r: Fx::exact(n.g0).add_ref(&rx).add_ref(&rx),
    };
    let mut g = n.g0 + n.delta;
    for _ in 0..4 {
        if !in_range(g) {
            return None;
        }
        let (up, dn) = (g.next_up(), g.next_down());
        match mid.at(g, dn).sign()? {
            Sign::Negative => {
                g = dn;
                continue;
            }
            Sign::Zero => return None,
            Sign::Positive => {}
        }
        match mid.at(g, up).sign()? {
            Sign::Negative => return Some(g),
            Sign::Zero => return None,
            Sign::Positive => g = up,
        }
    }
    None
}

/// Ziv's rounding test for [`nearest_sqrt_ratio_minus`]: the nearest double
/// to `x = √(A/B) − R` when the Newton value `g₀ + δ̃` is provably closer to
/// `x` than to either rounding midpoint around `g = fl(g₀ + δ̃)`; `None`
/// otherwise (the caller then decides by the midpoint signs). The idea of
/// deciding a correct rounding from an approximation with a proven error
/// bound, and falling back to a more precise method only when the bound
/// straddles a midpoint, is A. Ziv's ("Fast evaluation of elementary
/// mathematical functions with correctly rounded last bit", ACM TOMS 17(3),
/// 1991).
///
/// Inputs ([`Newton`]): `f0` encloses `F = A − BT²`
/// (`|f0.h + f0.l − F| ≤ f0.e`) with `T = g₀ + r_a + r_b` exact; `b`
/// encloses `B > 0` (`None`: `B = 1` exactly); `g₀ > 0` a normal double (the
/// range test); `t = fl(g₀ + fl(r_a + r_b))`, `den = fl(fl(2b_h)·t)` and
/// `δ̃ = fl(fl(f0.h + f0.l)/den)`.
///
/// # Why it is exact
///
/// With `S = √(A/B) = x + R ≥ 0` and `δ = S − T = x − g₀`,
/// `F = B(S² − T²) = Bδ(2T + δ)`, so the exact Newton step
/// `δ_N = F/(2BT)` (`T ≥ g₀ > 0`) is
///
/// ```text
/// δ_N = δ + δ²/(2T),   so   0 ≤ δ_N − δ = δ²/(2T) ≤ 2δ_N²/T
/// ```
///
/// the last since `|δ| ≤ 2|δ_N|` (for `δ ≥ 0`, `δ ≤ δ_N`; for `δ < 0`,
/// `δ ≥ −T` as `S ≥ 0`, so `δ_N = δ(1 + δ/(2T))` with
/// `1 + δ/(2T) ≥ 1/2`). The floating-point `δ̃` is then compared with
/// `δ_N`, operation by operation (`u = 2⁻⁵³`; each rounding `ρ` is
/// `fl(z) = z(1 + θ)`, `|θ| ≤ u`, plus at most 2⁻¹⁰⁷⁵ when `z` is
/// subnormal; sums never round in the subnormal range):
///
/// - `n = fl(f0.h + f0.l)`: `|n − F| ≤ f0.e + u|n|/(1 − u) ≤ Φ = f0.e + 2u|n| + η`
///   (`η = 2⁻¹⁰⁶⁰`; added so that an underflow of `2u|n|`, 2⁻¹⁰⁷⁵ at most,
///   is a relative error of the computed `Φ`, not an absolute one that the
///   division by `den` could magnify).
/// - `b_h = B(1 + β)`: the test `fl(|b_l| + e_b)·2⁴⁵ ≤ b_h` (the scaling
///   exact, an overflow failing it) gives `|b_h − B| ≤ |b_l| + e_b ≤
///   2⁻⁴⁵b_h/(1 − u)`, so `|β| < 2⁻⁴⁴` (`β = 0` for `B = 1`).
/// - `t = fl(g₀ + fl(r_a + r_b)) = T(1 + θ₅)`, `|θ₅| ≤ 2u + u²`: the inner
///   sum is `R(1 + θ₄)`, so `g₀ + R(1 + θ₄) = T(1 + θ₄R/T)` with
///   `R/T ≤ 1` (`g₀ > 0`).
/// - `den = fl(2b_h·t) = 2BT·P` (`2b_h` exact; `den` required normal and
///   finite, so its rounding is relative) with `P = (1 + β)(1 + θ₅)(1 + θ₂)`,
///   `|P − 1| < 2⁻⁴⁴ + 4u < 2⁻⁴³`.
/// - `δ̃ = fl(n/den) = (δ_N + φ/(2BT))(1 + θ₁)/P + τ`, `|φ| ≤ Φ`,
///   `|τ| ≤ 2⁻¹⁰⁷⁵`, with `|(1 + θ₁)/P − 1| < 2⁻⁴²` and
///   `|φ|/(2BT) = |φ|P/den ≤ (1 + 2⁻⁴³)Φ/den`. Hence
///   `|δ̃ − δ_N| ≤ 2⁻⁴²|δ_N| + (1 + 2⁻⁴¹)Φ/den + 2⁻¹⁰⁷⁵`, and solving for
///   `|δ_N|`:
///
/// ```text
/// |δ_N| ≤ Δ = 2(|δ̃| + Φ/den) + 2⁻¹⁰⁷²
/// |δ̃ − δ_N| ≤ 2⁻⁴⁰|δ̃| + 2Φ/den + 2⁻¹⁰⁷⁴
/// |x − (g₀ + δ̃)| ≤ |δ̃ − δ_N| + δ_N − δ
///               ≤ 2⁻⁴⁰|δ̃| + 2Φ/den + 2⁻¹⁰⁷⁴ + 2Δ²(1 + 3u)/t  ≤  E
/// E = 2⁻⁴⁰|δ̃| + 2·(Φ/den) + 4·Δ·(Δ/t) + 64η          (in doubles)
/// ```
///
/// (`T ≥ t/(1 + 3u)`). `E` is computed from nonnegative terms, each with a
/// factor to spare (2⁻⁴⁰ for 2⁻⁴¹·⁹, 2 for `1 + 2⁻⁴⁰`, 4 for `2(1 + 3u)`)
/// that covers its few roundings (`(1 − u)⁻⁶`). The absolute errors of
/// underflows are covered by `64η = 2⁻¹⁰⁵⁴`: fewer than eight roundings
/// below 2⁻¹⁰²² lose 2⁻¹⁰⁷⁵ each, and `Δ/t` underflows only when
/// `Δ < 2⁻¹⁰²²t < 2²`, so its loss times `4Δ` is below 2⁻¹⁰⁷¹. An
/// infinite or NaN part makes `E` infinite or NaN, and the test below
/// fails.
///
/// # The rounding
///
/// `(g, l) = TwoSum(g₀, δ̃)` is exact: `g + l = g₀ + δ̃`, `g = fl(g₀ + δ̃)`.
/// For a normal `g > 0` with `2ᵏ ≤ g < 2ᵏ⁺¹` (`g` positive and finite, so
/// its sign bit is 0 and `g`'s bits with the significand cleared are `2ᵏ`),
/// the midpoints to its neighbours are `2ᵏ⁻⁵³` away, except the one below a
/// power of two `g = 2ᵏ` (significand bits all 0), which is `2ᵏ⁻⁵⁴` away;
/// `h` is the smaller of the two distances (`2ᵏ⁻⁵⁴` for a power of two,
/// `2ᵏ⁻⁵³` otherwise), a double (`k ≥ −989` in the caller's range), computed
/// exactly (a product of powers of two in the range). If `fl(|l| + E) < h`,
/// then `|l| + E < h` (rounding is monotone and `h` is a double), so `x`
/// lies strictly between the two midpoints: `g` is the nearest double to
/// `x`, no tie is possible, and `x > 0`.
#[inline(always)]
fn ziv(nw: &Newton, b: Option<Dx>) -> Option<f64> {
    const TWO_M40: f64 = 1.0 / 1_099_511_627_776.0; // 2⁻⁴⁰
    const TWO_45: f64 = 35_184_372_088_832.0; // 2⁴⁵
    const TWO_M53: f64 = 1.0 / 9_007_199_254_740_992.0; // 2⁻⁵³
    const TWO_M54: f64 = TWO_M53 / 2.0; // 2⁻⁵⁴
    const EXP: u64 = 0x7ff0_0000_0000_0000;
    if let Some(b) = b {
        // False for a NaN or infinite side too.
        let close = (b.l.abs() + b.e) * TWO_45 <= b.h;
        if !close {
            return None;
        }
    }
    let Newton {
        f0,
        g0,
        t,
        den,
        delta,
    } = *nw;
    if !(f64::MIN_POSITIVE..=f64::MAX).contains(&den) {
        return None;
    }
    let (g, l) = two_sum(g0, delta);
    if !in_range(g) {
        return None;
    }
    let n = f0.h + f0.l;
    let phi = (f0.e + 2.0 * U * n.abs() + ETA) / den;
    let big = 2.0 * (delta.abs() + phi) + 4.0 * f64::from_bits(1); // Δ ≥ … + 2⁻¹⁰⁷²
    let e = TWO_M40 * delta.abs() + 2.0 * phi + 4.0 * (big * (big / t)) + 64.0 * ETA;
    let bits = g.to_bits();
    let half = if bits & !EXP == 0 { TWO_M54 } else { TWO_M53 };
    let h = f64::from_bits(bits & EXP) * half;
    (l.abs() + e < h).then_some(g)
}

/// [`nearest_sqrt_ratio_minus`]'s `f` at the midpoints: `f(g₀)`, `B`
/// (`None`: 1), `g₀` and `g₀ + 2R`, as doubles with a bound.
struct Midpoints {
    f0: Fx,
    b: Option<Fx>,
    g0: Fx,
    g0_2r: Fx,
}

impl Midpoints {
    /// `f` at the midpoint `m = g + δ` between `g` and its neighbour `n`,
    /// `δ = (n − g)/2` exact (one unit in the last place, a power of two
    /// above 2⁻¹⁰⁷⁴ in the range the caller allows).
    #[inline(always)]
    fn at(&self, g: f64, n: f64) -> Fx {
        let delta = Fx::exact((n - g) * 0.5);
        let gx = Fx::exact(g);
        let m_minus = gx.sub_ref(&self.g0).add_ref(&delta);
        let m_plus = gx.add_ref(&delta).add_ref(&self.g0_2r);
        let c = m_minus.mul_ref(&m_plus);
        self.f0.sub_ref(&match self.b {
            Some(b) => b.mul_ref(&c),
            None => c,
        })
    }
}

/// The sum of a few doubles in double-word, with a proven bound: each
/// `TwoSum` is exact, `Σxᵢ = s + Σσᵢ`, and only the accumulation
/// `t ← fl(t + σᵢ)` of the `σᵢ` rounds, each time by at most `u·|t|` for the
/// new `t` (sums are exact in the subnormal range), so the error is at most
/// `u·Σ|t|` over the `n − 1` accumulations (`n` the number of doubles).
/// That sum is accumulated (`a ← fl(a + |t|)`) and scaled once:
/// `(u·a + n·η)·K` covers the at most `n` roundings of nonnegative values
/// on the way (`n − 2` in `a`, the sum with `n·η`, the product by `K`; `u·a`
/// is exact but for underflow), a factor `(1 − u)^{−n}` below
/// `K = 1 + 32u` for `n ≤ 31`, and an underflow of `u·a` (2⁻¹⁰⁷⁵, far below
/// the `n·η` added, which nothing else needs).
#[inline(always)]
pub(crate) fn sum<const N: usize>(xs: &[f64; N]) -> Dx {
    debug_assert!((1..=31).contains(&N));
    let mut s = xs[0];
    let mut t = 0.0f64;
    let mut a = 0.0f64;
    for &x in &xs[1..] {
        let (h, sig) = two_sum(s, x);
        s = h;
        t += sig;
        a += t.abs();
    }
    let (h, l) = two_sum(s, t);
    Dx {
        h,
        l,
        e: (U * a + N as f64 * ETA) * K,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use num_rational::BigRational;
    use num_traits::Signed;
    use num_traits::Zero;

    fn q(x: f64) -> BigRational {
        BigRational::from_float(x).unwrap()
    }

    /// Random expressions in Dx against exact rationals: the bound holds,
    /// including cancellations, underflow and 2^±500 scales; a decided sign
    /// is the exact sign.
    #[test]
    fn bound_holds_on_random_expressions() {
        let mut s = 987_654_321u64;
        let mut next = || crate::poly::planted::splitmix64(&mut s);
        for round in 0..20000 {
            let scale = [0, -500, 500, -1000, -1070][round % 5];
            let mut vals: Vec<(Dx, BigRational)> = (0..6)
                .map(|_| {
                    let m = (next() >> 11) as f64 / (1u64 << 53) as f64 - 0.5;
                    let x = crate::num::fixed::ldexp(m, scale / 2 - (next() % 8) as i64);
                    (Dx::exact(x), q(x))
                })
                .collect();
            for _ in 0..8 {
                let i = (next() % vals.len() as u64) as usize;
                let j = (next() % vals.len() as u64) as usize;
                let (a, b) = (vals[i].clone(), vals[j].clone());
                let r = match next() % 3 {
                    0 => (a.0.add_ref(&b.0), &a.1 + &b.1),
                    1 => (a.0.sub_ref(&b.0), &a.1 - &b.1),
                    _ => (a.0.mul_ref(&b.0), &a.1 * &b.1),
                };
                if r.0.h.is_finite() && r.0.l.is_finite() && r.0.e.is_finite() {
                    let err = (q(r.0.h) + q(r.0.l) - &r.1).abs();
                    assert!(err <= q(r.0.e), "{r:?}");
                    if let Some(sg) = r.0.sign() {
                        let exact = Sign::from_ordering(r.1.cmp(&<BigRational as Zero>::zero()));
                        assert_eq!(sg, exact);
                    }
                }
                vals.push(r);
            }
        }
    }

    /// `prod`, `mul_f64`, `sq` and `to_fx` against exact rationals, mixed
    /// with the ring operations: the bound holds (including cancellation,
    /// underflow and 2^±500 scales), and a decided sign is the exact sign.
    #[test]
    fn specialised_products_bound_holds() {
        let mut s = 24_681_357u64;
        let mut next = || crate::poly::planted::splitmix64(&mut s);
        for round in 0..20000 {
            let scale = [0, -500, 500, -1000, -1070][round % 5];
            let mut vals: Vec<(Dx, BigRational)> = (0..6)
                .map(|_| {
                    let m = (next() >> 11) as f64 / (1u64 << 53) as f64 - 0.5;
                    let x = crate::num::fixed::ldexp(m, scale / 2 - (next() % 8) as i64);
                    (Dx::exact(x), q(x))
                })
                .collect();
            for _ in 0..8 {
                let i = (next() % vals.len() as u64) as usize;
                let j = (next() % vals.len() as u64) as usize;
                let (a, b) = (vals[i].clone(), vals[j].clone());
                if !(a.0.h.is_finite() && b.0.h.is_finite()) {
                    continue;
                }
                let r = match next() % 5 {
                    0 => (a.0.sq(), &a.1 * &a.1),
                    1 => (a.0.mul_f64(b.0.h), &a.1 * q(b.0.h)),
                    2 => (Dx::prod(a.0.h, b.0.h), q(a.0.h) * q(b.0.h)),
                    3 => (a.0.sub_ref(&b.0), &a.1 - &b.1),
                    _ => (a.0.mul_ref(&b.0), &a.1 * &b.1),
                };
                if r.0.h.is_finite() && r.0.l.is_finite() && r.0.e.is_finite() {
                    let err = (q(r.0.h) + q(r.0.l) - &r.1).abs();
                    assert!(err <= q(r.0.e), "{r:?}");
                    let f = r.0.to_fx();
                    if f.e.is_finite() {
                        assert!((q(f.v) - &r.1).abs() <= q(f.e), "{r:?} {f:?}");
                    }
                    if let Some(sg) = r.0.sign() {
                        let exact = Sign::from_ordering(r.1.cmp(&<BigRational as Zero>::zero()));
                        assert_eq!(sg, exact);
                    }
                }
                vals.push(r);
            }
        }
    }

    /// A rational as a double-word enclosure: `h`, `l` its leading doubles
    /// and `e` the exact remainder, rounded up.
    fn enclose(x: &BigRational) -> Dx {
        use num_traits::ToPrimitive;
        let h = x.to_f64().unwrap();
        let l = (x - q(h)).to_f64().unwrap();
        let rest = (x - q(h) - q(l)).abs();
        let mut e = rest.to_f64().unwrap();
        while q(e) < rest {
            e = e.next_up();
        }
        Dx { h, l, e }
    }

    /// `nearest_sqrt_ratio_minus` against the exact rounding of
    /// `SqrtOffset` (`√(A/B) − R`, ties to even): random `A`, `B` and radii
    /// at several scales, and values planted exactly on a rounding midpoint
    /// `m` (`A = B(m + R)²`) and a tiny step off it; an answer, when given,
    /// is the exact one, and most random ones are answered.
    #[test]
    fn sqrt_ratio_rounding_matches_the_exact_one() {
        use crate::num::sqrt_offset::SqrtOffset;
        let mut s = 1_357_924_680u64;
        let mut next = || crate::poly::planted::splitmix64(&mut s);
        let mut unit = move || (next() >> 11) as f64 / (1u64 << 53) as f64;
        let mut answered = 0;
        for round in 0..3000 {
            let k = [0, 30, -30, 200, -200][round % 5];
            let sc = crate::num::fixed::ldexp(1.0, k);
            let b = q(unit() + 0.01) * q(unit() + 0.5);
            let ra = unit() * sc;
            let rb = if round % 3 == 0 { 0.0 } else { unit() * sc };
            let r = q(ra) + q(rb);
            let a = match round % 4 {
                // Random: √(A/B) in about [R, R + 4·2^k].
                0 | 1 => {
                    let t = &r + q(unit() * 4.0 * sc + f64::MIN_POSITIVE);
                    &b * &t * &t + q(unit() * sc * sc)
                }
                // On a midpoint m between g and its successor, or 2⁻¹²⁰
                // relative off it.
                _ => {
                    let g = (unit() * 4.0 + 0.01) * sc;
                    let m = (q(g) + q(g.next_up())) / BigRational::from_integer(2.into());
                    let m = if round % 4 == 3 {
                        &m * (q(1.0) + q(crate::num::fixed::ldexp(1.0, -120)))
                    } else {
                        m
                    };
                    let t = &m + &r;
                    &b * &t * &t
                }
            };
            let want = SqrtOffset::new(&a / &b, r.clone())
                .unwrap()
                .clamped_nearest_f64();
            let bb = enclose(&b);
            let got = if b == q(1.0) {
                nearest_sqrt_ratio_minus(enclose(&a), None, ra, rb)
            } else {
                nearest_sqrt_ratio_minus(enclose(&a), Some(bb), ra, rb)
            };
            if let Some(g) = got {
                assert_eq!(g.to_bits(), want.to_bits(), "{a} {b} {ra} {rb}");
                answered += 1;
            }
            // B = 1 exactly takes the `None` branch.
            let a1 = &a / &b;
            if let Some(g) = nearest_sqrt_ratio_minus(enclose(&a1), None, ra, rb) {
                assert_eq!(g.to_bits(), want.to_bits(), "{a1} {ra} {rb}");
            }
        }
        assert!(answered > 1000, "{answered} of 3000");
    }

    /// Ziv's test alone against the exact rounding of `SqrtOffset`: random
    /// `√(A/B) − R` at 2^0, 2^±30 and 2^±200 (with `B = 1` exactly and
    /// not) are decided by it, each answer the exact rounding; values planted
    /// exactly on a rounding midpoint are never decided by it (the fallback
    /// branch), and those 2⁻¹⁰⁰ relative off a midpoint (inside its error
    /// bound, about 2⁻⁹³ relative) are left to the midpoint signs, which
    /// decide some of them (their bound is about 2⁻¹⁰⁴ relative), exactly.
    #[test]
    fn ziv_test_decides_or_defers_to_the_midpoints() {
        use crate::num::sqrt_offset::SqrtOffset;
        let mut s = 2_468_013_579u64;
        let mut next = || crate::poly::planted::splitmix64(&mut s);
        let mut unit = move || (next() >> 11) as f64 / (1u64 << 53) as f64;
        let (mut random, mut random_decided) = (0, 0);
        let (mut off, mut off_deferred, mut off_by_midpoints) = (0, 0, 0);
        for round in 0..4000 {
            let k = [0, 30, -30, 200, -200][round % 5];
            let sc = crate::num::fixed::ldexp(1.0, k);
            let exact_one = round % 8 < 4;
            let b = if exact_one {
                q(1.0)
            } else {
                q(unit() + 0.01) * q(unit() + 0.5)
            };
            let ra = unit() * sc;
            let rb = if round % 3 == 0 { 0.0 } else { unit() * sc };
            let r = q(ra) + q(rb);
            let kind = round % 4;
            let a = if kind < 2 {
                let t = &r + q(unit() * 4.0 * sc + f64::MIN_POSITIVE);
                &b * &t * &t + q(unit() * sc * sc)
            } else {
                let g = (unit() * 4.0 + 0.01) * sc;
                let m = (q(g) + q(g.next_up())) / BigRational::from_integer(2.into());
                let m = if kind == 3 {
                    &m * (q(1.0) + q(crate::num::fixed::ldexp(1.0, -100)))
                } else {
                    m
                };
                let t = &m + &r;
                &b * &t * &t
            };
            let want = SqrtOffset::new(&a / &b, r.clone())
                .unwrap()
                .clamped_nearest_f64();
            let bx = (!exact_one).then(|| enclose(&b));
            let Some(n) = Newton::new(enclose(&a), bx, ra, rb) else {
                continue;
            };
            let got = ziv(&n, bx);
            if let Some(g) = got {
                assert_eq!(g.to_bits(), want.to_bits(), "{a} {b} {ra} {rb}");
            }
            match kind {
                0 | 1 => {
                    random += 1;
                    random_decided += usize::from(got.is_some());
                }
                2 => assert_eq!(got, None, "on a midpoint: {a} {b} {ra} {rb}"),
                _ => {
                    off += 1;
                    if got.is_none() {
                        off_deferred += 1;
                        if let Some(g) = by_midpoints(&n, bx, ra, rb) {
                            assert_eq!(g.to_bits(), want.to_bits(), "{a} {b} {ra} {rb}");
                            off_by_midpoints += 1;
                        }
                    }
                }
            }
        }
        assert!(random > 1500, "{random}");
        assert!(
            random_decided * 1000 >= random * 999,
            "{random_decided} of {random}"
        );
        assert!(off_deferred * 10 >= off * 9, "{off_deferred} of {off}");
        assert!(off_by_midpoints > 0, "{off_by_midpoints} of {off_deferred}");
    }

    /// `nearest_norm_minus` (the one-pass `F = |w|² − T²`) against the
    /// exact rounding of `SqrtOffset` (`√(Σwⱼ²) − R`, ties to even), with
    /// `w` the double-word sums of five random doubles ([`sum`], whose
    /// bound is nonzero) at scales 2^0, 2^±30, 2^±200, heavy cancellation,
    /// and `w` planted with `|w| − R` exactly on a rounding midpoint (then
    /// never certified): every answer is the exact rounding, and the
    /// enclosure `f0` of `F` holds against the exact rational `F`.
    #[test]
    fn norm_rounding_matches_the_exact_one() {
        use crate::num::sqrt_offset::SqrtOffset;
        let mut s = 975_318_642u64;
        let mut next = || crate::poly::planted::splitmix64(&mut s);
        let mut unit = move || (next() >> 11) as f64 / (1u64 << 53) as f64;
        let (mut answered, mut planted) = (0, 0);
        for round in 0..6000 {
            let k = [0, 30, -30, 200, -200][round % 5];
            let sc = crate::num::fixed::ldexp(1.0, k);
            // Small radii where `w` cancels, so that the shapes are apart.
            let rs = if round % 4 == 1 { sc * 1e-12 } else { sc };
            let ra = unit() * rs;
            let rb = if round % 3 == 0 { 0.0 } else { unit() * rs };
            let r = q(ra) + q(rb);
            let (w, wq): (Vec<Dx>, Vec<BigRational>) = if round % 4 == 3 {
                // |w| = m + R on the midpoint m between g and its successor:
                // w = (m + R, 0, 0) exactly, as a normalised double-word.
                let g = (unit() * 4.0 + 0.01) * sc;
                let m = (q(g) + q(g.next_up())) / BigRational::from_integer(2.into());
                let x = &m + &r;
                let z = Dx::exact(0.0);
                (vec![enclose(&x), z, z], vec![x, q(0.0), q(0.0)])
            } else {
                (0..3)
                    .map(|_| {
                        let mut xs = [0.0f64; 5];
                        for x in xs.iter_mut() {
                            *x = (unit() - 0.5) * 4.0 * sc;
                        }
                        if round % 4 == 1 {
                            xs[4] = -(xs[0] + xs[1] + xs[2]) + xs[3] * 1e-9;
                        }
                        let exact = xs.iter().fold(q(0.0), |acc, x| acc + q(*x));
                        (sum(&xs), exact)
                    })
                    .unzip()
            };
            let w: [Dx; 3] = [w[0], w[1], w[2]];
            let a = &wq[0] * &wq[0] + &wq[1] * &wq[1] + &wq[2] * &wq[2];
            if let Some(n) = Newton::of_norm(&w, ra, rb) {
                let t = q(n.g0) + &r;
                let f = &a - &t * &t;
                let err = (q(n.f0.h) + q(n.f0.l) - f).abs();
                assert!(err <= q(n.f0.e), "{w:?} {ra} {rb}");
            }
            let want = SqrtOffset::new(a.clone(), r.clone())
                .unwrap()
                .clamped_nearest_f64();
            let got = nearest_norm_minus(&w, ra, rb);
            if round % 4 == 3 {
                if let Some(n) = Newton::of_norm(&w, ra, rb) {
                    assert_eq!(ziv(&n, None), None, "on a midpoint: {w:?} {ra} {rb}");
                }
                planted += 1;
            }
            if let Some(g) = got {
                assert_eq!(g.to_bits(), want.to_bits(), "{w:?} {ra} {rb}");
                answered += 1;
            }
        }
        assert!(planted > 1000, "{planted}");
        assert!(answered > 3000, "{answered} of 6000");
    }

    /// Ziv's test on values worked by hand: `√25 = 5`, `√2 − 1` (nearest
    /// double 0.41421356237309503, `√2 − 1 = 0.414213562373095048…`) with
    /// `B = 1` and as `√(6/3) − 1`, are decided by it; `c = √(c²)` with
    /// `c = 9007199628830175` (odd, in (2⁵³, 2⁵⁴): a midpoint between the
    /// doubles `c ± 1`) is not, and neither is `c − 2⁻⁶⁰`, within its error
    /// bound (about 2⁻⁵² here) of that midpoint.
    #[test]
    fn ziv_test_by_hand() {
        let ex = |x: f64| Dx::exact(x);
        let n = Newton::new(ex(25.0), None, 0.0, 0.0).unwrap();
        assert_eq!(ziv(&n, None), Some(5.0));
        let n = Newton::new(ex(2.0), None, 0.5, 0.5).unwrap();
        assert_eq!(ziv(&n, None), Some(0.414_213_562_373_095_03));
        let n = Newton::new(ex(6.0), Some(ex(3.0)), 1.0, 0.0).unwrap();
        assert_eq!(ziv(&n, Some(ex(3.0))), Some(0.414_213_562_373_095_03));
        let c: i128 = 9_007_199_628_830_175;
        let a = enclose(&BigRational::from_integer((c * c).into()));
        let n = Newton::new(a, None, 0.0, 0.0).unwrap();
        assert_eq!(ziv(&n, None), None);
        assert_eq!(by_midpoints(&n, None, 0.0, 0.0), None);
        let tiny = crate::num::fixed::ldexp(1.0, -60);
        let n = Newton::new(a, None, tiny, 0.0).unwrap();
        assert_eq!(ziv(&n, None), None);
    }

    /// `sum` of five doubles against exact rationals: the bound holds on
    /// random signs and scales (2^±500, subnormal, heavy cancellation).
    #[test]
    fn sum_bound_holds() {
        let mut s = 13_579_246u64;
        let mut next = || crate::poly::planted::splitmix64(&mut s);
        for round in 0..20000 {
            let scale = [0, -500, 500, -1070, 60][round % 5];
            let mut xs = [0.0f64; 5];
            for x in xs.iter_mut() {
                let m = (next() >> 11) as f64 / (1u64 << 53) as f64 - 0.5;
                *x = crate::num::fixed::ldexp(m, scale - (next() % 60) as i64);
            }
            if round % 3 == 0 {
                // Cancellation: the last term undoes most of the others.
                xs[4] = -(xs[0] + xs[1] + xs[2] + xs[3]);
            }
            let d = sum(&xs);
            let exact = xs.iter().fold(q(0.0), |acc, x| acc + q(*x));
            let err = (q(d.h) + q(d.l) - &exact).abs();
            assert!(err <= q(d.e), "{xs:?} {d:?}");
        }
    }

    /// The bound is tight enough to matter: a product of sums of doubles
    /// near 1 is known to about 2⁻¹⁰⁰.
    #[test]
    fn about_twice_the_precision() {
        let a = Dx::exact(1.0).add_ref(&Dx::exact(f64::EPSILON / 3.0));
        let b = a.mul_ref(&a).mul_ref(&a);
        assert!(b.e < 1e-29, "{b:?}");
    }
}
