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

use crate::sign::Sign;
use smallvec::SmallVec;

/// Coefficient storage: inline up to degree 11 (no allocation on the usual sizes).
pub(crate) type Coefs = SmallVec<[f64; 12]>;

const U: f64 = f64::EPSILON / 2.0;

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
#[derive(Clone, Debug, Default)]
pub(crate) struct FPoly {
    /// Coefficients, ascending powers (empty: the zero polynomial, exactly).
    pub c: Coefs,
    /// Magnitudes: m_k ≥ |c_k|.
    pub m: Coefs,
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
    /// Correctly rounded copies of exact integers (|p_k − c_k| ≤ u·|p_k|). `None` if one is
    /// beyond the double range.
    pub fn from_i128(z: &[i128]) -> Option<FPoly> {
        // One-word conversion when it fits (both round to nearest).
        let conv = |x: i128| match i64::try_from(x) {
            Ok(y) => y as f64,
            Err(_) => x as f64,
        };
        FPoly::from_rounded(z.iter().map(|&x| conv(x)).collect())
    }

    /// Correctly rounded copies of exact big integers.
    pub fn from_bigint(z: &[num_bigint::BigInt]) -> Option<FPoly> {
        use num_traits::ToPrimitive;
        let c: Option<Coefs> = z.iter().map(|x| x.to_f64()).collect();
        FPoly::from_rounded(c?)
    }

    fn from_rounded(mut c: Coefs) -> Option<FPoly> {
        if c.iter().any(|x| !x.is_finite()) {
            return None;
        }
        while c.last() == Some(&0.0) {
            c.pop();
        }
        let m = c.iter().map(|x| x.abs()).collect();
        // |p − c| ≤ u·|p| ≤ u(1 + u)·|c|.
        Some(FPoly { c, m, kappa: 2.0 })
    }

    /// Whether the polynomial is exactly zero.
    pub fn is_zero(&self) -> bool {
        self.c.is_empty() && self.m.is_empty()
    }

    /// Degree of the stored coefficient list (0 for constants and zero).
    pub fn degree(&self) -> usize {
        self.c.len().saturating_sub(1)
    }

    /// Σ s_i·p_i for signs s_i ∈ {−1, 0, 1} (zero terms skipped), summed in order.
    pub fn signed_sum<'a>(terms: impl Iterator<Item = (&'a FPoly, i8)> + Clone) -> FPoly {
        let n = terms
            .clone()
            .filter(|(_, s)| *s != 0)
            .map(|(p, _)| p.c.len())
            .max()
            .unwrap_or(0);
        let mut c: Coefs = smallvec::smallvec![0.0; n];
        let mut m: Coefs = smallvec::smallvec![0.0; n];
        let mut kappa: f64 = 0.0;
        let mut k = 0.0;
        for (p, s) in terms {
            if s == 0 || p.c.is_empty() {
                continue;
            }
            k += 1.0;
            kappa = kappa.max(p.kappa);
            let sf = f64::from(s);
            for (i, (&pc, &pm)) in p.c.iter().zip(&p.m).enumerate() {
                c[i] += sf * pc;
                m[i] += pm;
            }
        }
        // Inputs err by ≤ κ_max·u·Σm_i; a k-term sum adds γ_{k−1}·Σ|c_i|.
        FPoly {
            c,
            m,
            kappa: kappa + k + 2.0,
        }
    }

    /// The value at the double `x` and a bound on its error against the exact p(x).
    pub fn eval(&self, x: f64) -> (f64, f64) {
        let ax = x.abs();
        let mut v = 0.0;
        let mut mag = 0.0;
        for (&c, &m) in self.c.iter().zip(&self.m).rev() {
            v = v * x + c;
            mag = mag * ax + m;
        }
        let n = self.c.len() as f64;
        (v, bound(self.kappa + 2.0 * n + 2.0, mag))
    }

    /// The certified sign at the double `x`.
    pub fn sign_at(&self, x: f64) -> Option<Sign> {
        if self.c.is_empty() {
            return Some(Sign::Zero);
        }
        let (v, e) = self.eval(x);
        sign_of(v, e)
    }

    /// A certified enclosure [lower, upper] of p over [lo, hi] (meant for short
    /// intervals): the value at a midpoint plus max|p′|·(hi − lo).
    pub fn enclose(&self, lo: f64, hi: f64) -> (f64, f64) {
        if self.c.is_empty() {
            return (0.0, 0.0);
        }
        let mid = lo + 0.5 * (hi - lo);
        let (v, e) = self.eval(mid);
        let x = lo.abs().max(hi.abs());
        // max |p′| on [lo, hi] ≤ Σ k·|p_k|·X^(k−1), |p_k| ≤ (1 + κu)·m_k.
        let mut d = 0.0;
        for (k, &m) in self.m.iter().enumerate().skip(1).rev() {
            d = d * x + k as f64 * m;
        }
        let n = self.c.len() as f64;
        let d = d * (1.0 + (self.kappa + 2.0 * n + 2.0) * U) * 1.000_001;
        let r = e + d * (hi - lo) * 1.000_001;
        (v - r, v + r)
    }

    /// The certified sign of p on all of [lo, hi] from [`FPoly::enclose`].
    pub fn sign_on_short(&self, lo: f64, hi: f64) -> Option<Sign> {
        if self.c.is_empty() {
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
    pub fn bernstein(&self, a: f64, b: f64) -> (Coefs, Coefs) {
        let len = self.c.len();
        if len == 0 {
            return (smallvec::smallvec![0.0], smallvec::smallvec![0.0]);
        }
        let n = len - 1;
        let mut dv = self.c.clone();
        let mut mv = self.m.clone();
        {
            let d = &mut dv[..];
            let dm = &mut mv[..];
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
            // Scale to [0, 1]: q_j = d_j·h^j / C(n, j) (h rounded: relative error u
            // per power; the binomials are exact integers below 2⁵³ for n < 50).
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
        }
        (dv, mv)
    }

    /// The certified sign of p on all of [a, b] from one Bernstein form.
    pub fn sign_on(&self, a: f64, b: f64) -> Option<Sign> {
        if self.c.is_empty() {
            return Some(Sign::Zero);
        }
        let (v, e) = self.bernstein(a, b);
        let mut s = None;
        for (&v, &e) in v.iter().zip(&e) {
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
        if self.c.is_empty() || a >= b {
            return Err(Undecided);
        }
        let mut stack: SmallVec<[(f64, f64, u32); 32]> = smallvec::smallvec![(a, b, 0u32)];
        while let Some((x, y, depth)) = stack.pop() {
            let (v, e) = self.bernstein(x, y);
            let mut signs: SmallVec<[Sign; 16]> = SmallVec::new();
            let mut unknown = false;
            let last = v.len() - 1;
            for (i, (&v, &e)) in v.iter().zip(&e).enumerate() {
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
            if depth >= 48 || !(y - x > 1e-12 * x.abs().max(y.abs()).max(1e-300)) {
                return Err(Undecided);
            }
            // A split point where p is certified nonzero (so neither half ends on a root).
            let w = y - x;
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
        let c = self.c.iter().enumerate().skip(1).map(|(k, &c)| k as f64 * c).collect();
        let m = self.m.iter().enumerate().skip(1).map(|(k, &m)| k as f64 * m).collect();
        FPoly {
            c,
            m,
            kappa: self.kappa + 1.0,
        }
    }

    /// Plain floating-point value and derivative (for guessing only).
    pub fn value_and_slope(&self, x: f64) -> (f64, f64) {
        let mut v = 0.0;
        let mut d = 0.0;
        for &c in self.c.iter().rev() {
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
        let (v, e) = f.bernstein(0.0, 1.0);
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
