//! Polynomials with `f64` coefficients and a certified error bound: the float
//! filter of the float-guided box sweep ([`super::guided`]).
//!
//! An [`FPoly`] stands for an exactly known polynomial p (integer coefficients,
//! built exactly elsewhere) through doubles `c_k`, magnitudes `m_k ≥ |c_k|` and a
//! factor κ with
//!
//! ```text
//! |p_k − c_k| ≤ κ·u·m_k          u = 2⁻⁵³ (the unit roundoff)
//! ```
//!
//! Every operation below runs the same straight-line program twice: on the values
//! (round to nearest) and on the magnitudes (|a| for every input a, so no
//! cancellation). For a program of additions and multiplications of depth K, the
//! rounding error of each output is at most γ_K times the magnitude output
//! (γ_K = K·u/(1 − K·u); Higham, *Accuracy and Stability of Numerical
//! Algorithms*, 2nd ed., SIAM 2002, §3.1 and §5.1 for Horner), and the input errors
//! propagate through the linear maps as κ·u times the same magnitudes. Each
//! bound is taken with a factor 1 + 10⁻⁶ (covering γ's denominator and the
//! rounding of the bound itself) and an absolute term for underflow. A sign is
//! read only when |value| exceeds its bound: floating point never decides alone.
//!
//! On an interval [a, b] the tool is the Bernstein form: p(t) = Σ b_i·B_{i,n}(s),
//! t = a + (b − a)·s. Its coefficients enclose p on [a, b] (convex hull), b_0 = p(a),
//! b_n = p(b), and the number of roots in (a, b) is at most the number of sign
//! changes of (b_i) and has its parity (Descartes' rule in Bernstein form; see
//! Farouki, Rajan, *On the numerical condition of polynomials in Bernstein form*,
//! CAGD 4(3), 1987). So certified signs all equal prove no root, and exactly one
//! sign change proves exactly one simple root.

use crate::num::sign::Sign;
use smallvec::SmallVec;

/// The largest stored length (degree 11): longer polynomials are not represented
/// ([`FPoly::from_i128`] returns `None`; the caller takes the exact path).
pub(crate) const FN: usize = 12;

use crate::num::bounded::U;

/// The bound `k·u·mag`, widened for γ's denominator, the bound's own rounding and
/// underflow (an absolute 2⁻¹⁰²² per operation; subnormal results err by 2⁻¹⁰⁷⁵).
#[inline]
fn bound(k: f64, mag: f64) -> f64 {
    k * U * mag * 1.000_001 + k * f64::MIN_POSITIVE
}

/// The certified sign of `v` with error at most `e` (`None`: cannot tell).
#[inline]
pub(crate) fn sign_of(v: f64, e: f64) -> Option<Sign> {
    if v > e {
        Some(Sign::Positive)
    } else if v < -e {
        Some(Sign::Negative)
    } else {
        None
    }
}

/// A polynomial known exactly elsewhere, as doubles with a certified error bound.
#[derive(Clone, Copy, Debug)]
pub(crate) struct FPoly {
    /// Coefficients, ascending powers (the first `n`; n = 0: exactly zero).
    cs: [f64; FN],
    /// Magnitudes: m_k ≥ |c_k|.
    ms: [f64; FN],
    n: usize,
    /// |exact_k − c_k| ≤ κ·u·m_k.
    pub kappa: f64,
}

/// An isolated root: the only root of the polynomial in (lo, hi), simple, with the
/// polynomial's certified sign `s_lo` at `lo` and the opposite one at `hi`.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Bracket {
    pub lo: f64,
    pub hi: f64,
    pub s_lo: Sign,
}

/// Why a float decision could not be made (the caller falls back to exact arithmetic).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Undecided;

impl FPoly {
    /// The coefficients.
    pub fn c(&self) -> &[f64] {
        &self.cs[..self.n]
    }

    /// Correctly rounded copies of exact integers (|p_k − c_k| ≤ u·|p_k|). `None` if one is
    /// beyond the double range or the polynomial is longer than [`FN`].
    pub fn from_i128(z: &[i128]) -> Option<FPoly> {
        let mut n = z.len();
        while n > 0 && z[n - 1] == 0 {
            n -= 1;
        }
        if n > FN {
            return None;
        }
        let mut f = FPoly {
            cs: [0.0; FN],
            ms: [0.0; FN],
            n,
            kappa: 2.0,
        };
        for (i, &x) in z[..n].iter().enumerate() {
            // One-word conversion when it fits (both round to nearest).
            let v = match i64::try_from(x) {
                Ok(y) => y as f64,
                Err(_) => x as f64,
            };
            f.cs[i] = v;
            f.ms[i] = v.abs();
        }
        Some(f)
    }

    /// Whether the polynomial is exactly zero.
    pub fn is_zero(&self) -> bool {
        self.n == 0
    }

    /// Σ s_i·p_i for signs s_i ∈ {−1, 0, 1} (zero terms skipped), summed in order.
    pub fn signed_sum<'a>(terms: impl Iterator<Item = (&'a FPoly, i8)>) -> FPoly {
        let mut f = FPoly {
            cs: [0.0; FN],
            ms: [0.0; FN],
            n: 0,
            kappa: 0.0,
        };
        let mut k = 0.0;
        for (p, s) in terms {
            if s == 0 || p.n == 0 {
                continue;
            }
            k += 1.0;
            f.kappa = f.kappa.max(p.kappa);
            f.n = f.n.max(p.n);
            let sf = f64::from(s);
            for i in 0..p.n {
                f.cs[i] += sf * p.cs[i];
                f.ms[i] += p.ms[i];
            }
        }
        // Inputs err by ≤ κ_max·u·Σm_i; a k-term sum adds γ_{k−1}·Σ|c_i|.
        f.kappa += k + 2.0;
        if f.cs[..f.n].iter().all(|&x| x == 0.0) && f.ms[..f.n].iter().all(|&x| x == 0.0) {
            f.n = 0;
        }
        f
    }

    /// The value at the double `x` and a bound on its error against the exact p(x).
    pub fn eval(&self, x: f64) -> (f64, f64) {
        let ax = x.abs();
        let mut v = 0.0;
        let mut mag = 0.0;
        for i in (0..self.n).rev() {
            v = v * x + self.cs[i];
            mag = mag * ax + self.ms[i];
        }
        let n = self.n as f64;
        (v, bound(self.kappa + 2.0 * n + 2.0, mag))
    }

    /// The certified sign at the double `x`.
    pub fn sign_at(&self, x: f64) -> Option<Sign> {
        if self.n == 0 {
            return Some(Sign::Zero);
        }
        let (v, e) = self.eval(x);
        sign_of(v, e)
    }

    /// A certified enclosure [lower, upper] of p over [lo, hi] (meant for short
    /// intervals): the value at a midpoint plus max|p′|·(hi − lo).
    pub fn enclose(&self, lo: f64, hi: f64) -> (f64, f64) {
        if self.n == 0 {
            return (0.0, 0.0);
        }
        let mid = lo + 0.5 * (hi - lo);
        let (v, e) = self.eval(mid);
        let x = lo.abs().max(hi.abs());
        // max |p′| on [lo, hi] ≤ Σ k·|p_k|·X^(k−1), |p_k| ≤ (1 + κu)·m_k.
        let mut d = 0.0;
        for k in (1..self.n).rev() {
            d = d * x + k as f64 * self.ms[k];
        }
        let n = self.n as f64;
        let d = d * (1.0 + (self.kappa + 2.0 * n + 2.0) * U) * 1.000_001;
        let r = e + d * (hi - lo) * 1.000_001;
        (v - r, v + r)
    }

    /// The certified sign of p on all of [lo, hi] from [`FPoly::enclose`].
    pub fn sign_on_short(&self, lo: f64, hi: f64) -> Option<Sign> {
        if self.n == 0 {
            return Some(Sign::Zero);
        }
        let (l, h) = self.enclose(lo, hi);
        if l > 0.0 {
            Some(Sign::Positive)
        } else if h < 0.0 {
            Some(Sign::Negative)
        } else {
            None
        }
    }

    /// The Bernstein coefficients of p on [a, b] (a < b doubles) and their error bounds.
    pub fn bernstein(&self, a: f64, b: f64) -> ([f64; FN], [f64; FN], usize) {
        let mut v = [0.0; FN];
        let mut e = [0.0; FN];
        let n = self.bernstein_into(a, b, &mut v, &mut e);
        (v, e, n)
    }

    /// [`FPoly::bernstein`] into `v` and `e` (of length ≥ max(1, len)); returns the count.
    pub fn bernstein_into(&self, a: f64, b: f64, d: &mut [f64], dm: &mut [f64]) -> usize {
        let len = self.n;
        if len == 0 {
            d[0] = 0.0;
            dm[0] = 0.0;
            return 1;
        }
        let n = len - 1;
        let (d, dm) = (&mut d[..len], &mut dm[..len]);
        d.copy_from_slice(&self.cs[..len]);
        dm.copy_from_slice(&self.ms[..len]);
        let aa = a.abs();
        // Taylor shift to a: d_j = Σ_k C(k, j)·a^(k−j)·c_k.
        if a != 0.0 {
            for i in 0..n {
                for k in (i..n).rev() {
                    d[k] += a * d[k + 1];
                    dm[k] += aa * dm[k + 1];
                }
            }
        }
        // Scale to [0, 1]: q_j = d_j·h^j / C(n, j) (h rounded: relative error u per
        // power; the binomials are exact integers below 2⁵³ for n < 50).
        let h = b - a;
        let (mut hp, mut binom) = (1.0, 1.0);
        for j in 1..=n {
            hp *= h;
            binom = binom * (n + 1 - j) as f64 / j as f64;
            let f = hp / binom;
            d[j] *= f;
            dm[j] *= f;
        }
        // Power → Bernstein: b_i = Σ_j C(i, j)·q_j / C(n, j).
        for p in 1..=n {
            for j in (p..=n).rev() {
                d[j] += d[j - 1];
                dm[j] += dm[j - 1];
            }
        }
        let k = self.kappa + 5.0 * n as f64 + 8.0;
        for m in dm.iter_mut() {
            *m = bound(k, *m);
        }
        len
    }

    /// The certified sign of p on all of [a, b] from one Bernstein form.
    #[cfg(test)]
    pub fn sign_on(&self, a: f64, b: f64) -> Option<Sign> {
        if self.n == 0 {
            return Some(Sign::Zero);
        }
        let (v, e, n) = self.bernstein(a, b);
        let mut s = None;
        for (&v, &e) in v[..n].iter().zip(&e[..n]) {
            let t = sign_of(v, e)?;
            if s.is_some_and(|s| s != t) {
                return None;
            }
            s = Some(t);
        }
        s
    }

    /// The first root of p in (a, b], isolated, when p(a) ≠ 0: `Ok(None)` if p has no
    /// root in [a, b], `Ok(Some(bracket))` with the only root in the bracket simple
    /// and every point of [a, bracket.lo] free of roots, `Err` if floating point
    /// cannot tell (a multiple or clustered root, or a root at a subdivision point).
    pub fn first_root(&self, a: f64, b: f64) -> Result<Option<Bracket>, Undecided> {
        if self.n == 0 || a >= b {
            return Err(Undecided);
        }
        let mut stack: SmallVec<[(f64, f64, u32); 32]> = smallvec::smallvec![(a, b, 0u32)];
        let mut vb = [0.0; FN];
        let mut eb = [0.0; FN];
        while let Some((x, y, depth)) = stack.pop() {
            let cnt = self.bernstein_into(x, y, &mut vb, &mut eb);
            let (v, e) = (&vb[..cnt], &eb[..cnt]);
            let mut signs: SmallVec<[Sign; 16]> = SmallVec::new();
            let mut unknown = false;
            let last = v.len() - 1;
            for (i, (&v, &e)) in v.iter().zip(e).enumerate() {
                // The end coefficients are the values at the ends: a point evaluation
                // has a tighter bound than the transform (it matters next to a root).
                let s = match sign_of(v, e) {
                    None if i == 0 => self.sign_at(x),
                    None if i == last => self.sign_at(y),
                    s => s,
                };
                match s {
                    Some(s) => signs.push(s),
                    None => unknown = true,
                }
            }
            if !unknown {
                let changes = signs.windows(2).filter(|w| w[0] != w[1]).count();
                if changes == 0 {
                    continue;
                }
                if changes == 1 {
                    let br = Bracket {
                        lo: x,
                        hi: y,
                        s_lo: signs[0],
                    };
                    return Ok(Some(self.refine(br)));
                }
            }
            let w = y - x;
            if depth >= 48 || w.is_nan() || w <= 1e-12 * x.abs().max(y.abs()).max(1e-300) {
                return Err(Undecided);
            }
            // A split point where p is certified nonzero (so neither half ends on a root).
            let mut split = None;
            for f in [0.5, 0.4375, 0.5625, 0.375, 0.625] {
                let m = x + f * w;
                if m > x && m < y && self.sign_at(m).is_some_and(|s| s != Sign::Zero) {
                    split = Some(m);
                    break;
                }
            }
            let m = split.ok_or(Undecided)?;
            stack.push((m, y, depth + 1));
            stack.push((x, m, depth + 1));
        }
        Ok(None)
    }

    /// The derivative (k·c_k is one rounding: κ grows by one).
    pub fn derivative(&self) -> FPoly {
        let mut f = FPoly {
            cs: [0.0; FN],
            ms: [0.0; FN],
            n: self.n.saturating_sub(1),
            kappa: self.kappa + 1.0,
        };
        for k in 1..self.n {
            f.cs[k - 1] = k as f64 * self.cs[k];
            f.ms[k - 1] = k as f64 * self.ms[k];
        }
        f
    }

    /// Plain floating-point value and derivative (for guessing only).
    pub fn value_and_slope(&self, x: f64) -> (f64, f64) {
        let mut v = 0.0;
        let mut d = 0.0;
        for &c in self.cs[..self.n].iter().rev() {
            d = d * x + v;
            v = v * x + c;
        }
        (v, d)
    }

    /// Narrows an isolating bracket with certified signs (Newton guesses, clamped,
    /// with bisection as the fallback), until it is about 10⁻¹³ relative wide or the
    /// signs near the root can no longer be certified.
    pub fn refine(&self, mut br: Bracket) -> Bracket {
        for _ in 0..64 {
            let w = br.hi - br.lo;
            let scale = br.lo.abs().max(br.hi.abs()).max(1e-300);
            if w <= 1e-13 * scale {
                break;
            }
            let mid = br.lo + 0.5 * w;
            let (v, d) = self.value_and_slope(mid);
            let mut z = if d != 0.0 && (v / d).is_finite() {
                mid - v / d
            } else {
                mid
            };
            let margin = w / 64.0;
            z = z.clamp(br.lo + margin, br.hi - margin);
            match self.sign_at(z) {
                Some(s) if s == br.s_lo => br.lo = z,
                Some(Sign::Zero) | None => {
                    // Within the float noise of the root: bracket z as tightly as the
                    // certified signs allow, then stop.
                    let mut r = (w / 4096.0).max(scale * 1e-15);
                    for _ in 0..40 {
                        let (l, h) = ((z - r).max(br.lo), (z + r).min(br.hi));
                        let sl = if l == br.lo {
                            Some(br.s_lo)
                        } else {
                            self.sign_at(l)
                        };
                        let sh = if h == br.hi {
                            Some(br.s_lo.flip())
                        } else {
                            self.sign_at(h)
                        };
                        if sl == Some(br.s_lo) && sh == Some(br.s_lo.flip()) {
                            br.lo = l;
                            br.hi = h;
                            break;
                        }
                        if l == br.lo && h == br.hi {
                            break;
                        }
                        r *= 4.0;
                    }
                    break;
                }
                Some(_) => br.hi = z,
            }
        }
        br
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(z: &[i128]) -> FPoly {
        FPoly::from_i128(z).unwrap()
    }

    #[test]
    fn bernstein_ends_are_values_and_hull_encloses() {
        // (t − 1/3)(t − 3/4)·12 = 12t² − 13t + 3
        let f = p(&[3, -13, 12]);
        let (v, e, n) = f.bernstein(0.0, 1.0);
        assert_eq!(n, 3);
        assert!((v[0] - 3.0).abs() <= e[0] && (v[2] - 2.0).abs() <= e[2]);
        // Middle coefficient 3 − 13/2 = −3.5.
        assert!((v[1] + 3.5).abs() <= e[1] + 1e-12);
        assert_eq!(f.sign_on(0.0, 0.25), Some(Sign::Positive));
        assert_eq!(f.sign_on(0.4, 0.7), Some(Sign::Negative));
        assert_eq!(f.sign_on(0.0, 1.0), None);
    }

    #[test]
    fn first_root_isolates_the_leftmost() {
        let f = p(&[3, -13, 12]);
        let br = f.first_root(0.0, 1.0).unwrap().unwrap();
        assert!(br.lo < 1.0 / 3.0 && 1.0 / 3.0 < br.hi);
        assert!(br.hi - br.lo < 1e-12);
        assert_eq!(br.s_lo, Sign::Positive);
        let br = f.first_root(0.5, 1.0).unwrap().unwrap();
        assert!(br.lo < 0.75 && 0.75 < br.hi);
        assert_eq!(br.s_lo, Sign::Negative);
        assert!(f.first_root(0.8, 1.0).unwrap().is_none());
        // A double root cannot be isolated by sign changes: undecided, never wrong.
        let g = p(&[1, -4, 4]); // (2t − 1)²
        assert!(g.first_root(0.0, 1.0).is_err());
    }

    #[test]
    fn signed_sums_and_enclosures_are_certified() {
        // Huge cancellation: (2^60 + 1) − 2^60 evaluated through rounded coefficients.
        let a = p(&[(1i128 << 60) + 1, 1]);
        let b = p(&[1i128 << 60]);
        let s = FPoly::signed_sum([(&a, 1), (&b, -1)].into_iter());
        let (v, e) = s.eval(0.0);
        // The exact value 1 lies within the bound.
        assert!((v - 1.0).abs() <= e);
        let (l, h) = s.enclose(0.5, 0.5 + 1e-9);
        assert!(l <= 1.5 && 1.5 + 1e-9 <= h);
    }
}
