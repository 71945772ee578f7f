//! `a + s/√q` for exact rationals `a`, `s` and `q > 0`: its exact comparisons
//! with dyadic numbers and its nearest double, decided exactly.
//!
//! This is a coordinate of a closest point of two apart rounded shapes:
//! `p_a + (r_a/√q)(p_b − p_a)` has the coordinates `a + s/√q` with `a` a
//! coordinate of `p_a` and `s = r_a·(p_b − p_a)ᵢ` (and `p_b − (r_b/√q)(p_b −
//! p_a)` likewise with `s = −r_b·(p_b − p_a)ᵢ`), irrational in general.
//!
//! # Comparisons
//!
//! With `u = a − t` for a rational `t`, `sign(a + s/√q − t) = sign(u·√q + s)`
//! (multiplied by `√q > 0`). When `u` and `s` do not have opposite signs it is
//! their common sign (0 when both are 0); otherwise
//!
//! ```text
//! u > 0 > s:  sign(u²·q − s²)        u < 0 < s:  sign(s² − u²·q)
//! ```
//!
//! (both sides of `|u|·√q ≷ |s|` are nonnegative, so squaring keeps the
//! order). With `a = a_n/a_d`, `s = s_n/s_d`, `q = q_n/q_d` (positive
//! denominators) and `t = M·2^E`, `u = u_n/(a_d·2^k)` with `k = max(0, −E)`
//! and `u²q ≷ s²` is the integer comparison
//! `u_n²·(q_n·s_d²) ≷ (s_n²·q_d·a_d²)·2^(2k)`: no gcd, no rational reduction.
//!
//! Both signs (of `u_n` and of that difference) are first taken in
//! double-word arithmetic ([`Dx`]: error-free TwoSum and Dekker's product,
//! T. J. Dekker, "A floating-point technique for extending the available
//! precision", Numerische Mathematik 18, 1971, with the other roundings
//! bounded at run time): every integer enters as its top 128 bits, two
//! doubles and a bound, times a power of two kept apart (no overflow at any
//! scale). A sign the bound decides is the exact sign; the others (a zero,
//! that is an exact tie, or a value within about 2⁻¹⁰⁰ relative of a
//! midpoint) are decided by the integer products above. No float decides
//! anything unproved.
//!
//! # The nearest double
//!
//! [`AffineSqrt::nearest_f64`]: the sign of `x = a + s/√q` first (the
//! comparison with 0), then `|x|` rounded like
//! [`SqrtOffset::nearest_f64`](super::sqrt_offset::SqrtOffset::nearest_f64):
//! a float guess, proved by the exact comparisons with the midpoints to its
//! neighbours, a step to a neighbour when a comparison fails (up to eight),
//! then bisection on the doubles' bit patterns (counted in
//! [`crate::stats::ROUNDED_CLOSEST_F64`]). The result is correctly rounded:
//! the nearest double, ties to even (`±∞` past `f64::MAX + ulp/2`).
//!
//! The guess is computed with a separate 64-bit exponent (no overflow at
//! 2^±1000). Where `a` and `s/√q` have opposite signs and magnitudes within a
//! factor 2 of each other (cancellation), it uses
//! `|x| = |a²q − s²| / (|a|·q + |s|·√q)` with the numerator an exact integer
//! and a denominator of two nonnegative terms, so the guess keeps its relative
//! precision even when `x` is far smaller than `a`.
//!
//! Ties are possible only when `x` is rational (`s = 0`, or `√q` rational).
//!
//! ```
//! use exact_collision::num::sqrt_affine::AffineSqrt;
//! use num_rational::BigRational;
//! let r = |n: i64, d: i64| BigRational::new(n.into(), d.into());
//! // 0 + 1/√2: the closest point (1/√2, 1/√2, 0) of the unit ball to (1, 1, 0).
//! let x = AffineSqrt::new(&r(0, 1), &r(1, 1), &r(2, 1)).unwrap();
//! assert_eq!(x.nearest_f64(), 0.7071067811865476);
//! // 1 − 1/√2 = 0.2928932188134524756…
//! let y = AffineSqrt::new(&r(1, 1), &r(-1, 1), &r(2, 1)).unwrap();
//! assert_eq!(y.nearest_f64(), 0.2928932188134525);
//! ```

use crate::num::bounded::U;
use crate::num::double_word::Dx;
use crate::num::ring::Ring;
use crate::num::sign::Sign;
use crate::num::sqrt_offset::{ef_add, ef_div, ef_sqrt, ldexp, normal, round_nonneg, Ef};
use crate::stats::ROUNDED_CLOSEST_F64;
use num_bigint::{BigInt, BigUint, Sign as BigSign};
use num_rational::BigRational;
use num_traits::{Signed, Zero};
use std::cell::{Cell, OnceCell};
use std::cmp::Ordering;

/// The exact real number `a + s/√q` (`q > 0`), held as integers.
#[derive(Clone, Debug)]
pub struct AffineSqrt {
    an: BigInt,
    ad: BigInt,
    sn: BigInt,
    sd: BigInt,
    qn: BigInt,
    qd: BigInt,
    /// Double-word enclosures of `|s_n|`, `s_d`, `q_n`, `q_d`, `a_d` with
    /// their scales (`|n| ∈ 2^k·(x ± e)`).
    dsn: (Dx, i64),
    dsd: (Dx, i64),
    dqn: (Dx, i64),
    dqd: (Dx, i64),
    dad: (Dx, i64),
    /// `a_n` (signed) likewise.
    da: (Dx, i64),
    /// `q_n·s_d²` and `s_n²·q_d·a_d²` likewise (each below 2^384 and
    /// 2^640 in its scale, and at least 1/2).
    dqs: (Dx, i64),
    drb: (Dx, i64),
    /// `(q_n·s_d², s_n²·q_d·a_d²)`, exactly, built on first need.
    exact: OnceCell<(BigInt, BigInt)>,
    /// Whether a comparison needed the exact products.
    used_exact: Cell<bool>,
}

impl AffineSqrt {
    /// `a + s/√q`; `None` when `q ≤ 0`.
    pub fn new(a: &BigRational, s: &BigRational, q: &BigRational) -> Option<AffineSqrt> {
        Self::from_integers(
            [a.numer().clone(), a.denom().clone()],
            [s.numer().clone(), s.denom().clone()],
            [q.numer().clone(), q.denom().clone()],
        )
    }

    /// `a + s/√q` from `[numerator, denominator]` pairs, not necessarily in
    /// lowest terms (no gcd is taken); `None` when a denominator is not
    /// positive or `q ≤ 0`.
    pub fn from_integers(a: [BigInt; 2], s: [BigInt; 2], q: [BigInt; 2]) -> Option<AffineSqrt> {
        let [an, ad] = a;
        let [sn, sd] = s;
        let [qn, qd] = q;
        if !(ad.is_positive() && sd.is_positive() && qd.is_positive() && qn.is_positive()) {
            return None;
        }
        let dsn = dx_mag(sn.magnitude());
        let dsd = dx_mag(sd.magnitude());
        let dqn = dx_mag(qn.magnitude());
        let dqd = dx_mag(qd.magnitude());
        let dad = dx_mag(ad.magnitude());
        let mut da = dx_mag(an.magnitude());
        if an.is_negative() {
            da.0 = da.0.neg_ref();
        }
        let dqs = (dqn.0.mul_ref(&dsd.0.sq()), dqn.1 + 2 * dsd.1);
        let drb = (
            dsn.0.sq().mul_ref(&dqd.0).mul_ref(&dad.0.sq()),
            2 * dsn.1 + dqd.1 + 2 * dad.1,
        );
        Some(AffineSqrt {
            da,
            dsn,
            dsd,
            dqn,
            dqd,
            dad,
            dqs,
            drb,
            an,
            ad,
            sn,
            sd,
            qn,
            qd,
            exact: OnceCell::new(),
            used_exact: Cell::new(false),
        })
    }

    /// `(q_n·s_d², s_n²·q_d·a_d²)`.
    fn exact(&self) -> &(BigInt, BigInt) {
        self.exact.get_or_init(|| {
            (
                &self.qn * &self.sd * &self.sd,
                &self.sn * &self.sn * &self.qd * &self.ad * &self.ad,
            )
        })
    }

    /// `a + s/√q` compared with `M·2^E`, exactly (see the module docs):
    /// first with double-word values and their bounds (no big integer
    /// arithmetic), exactly where the bounds do not decide.
    pub fn cmp_dyadic(&self, m: &BigInt, e: i64) -> Ordering {
        let k = (-e).max(0) as usize;
        if let Some(o) = self.cmp_filtered(m, e, k) {
            return o;
        }
        self.used_exact.set(true);
        self.cmp_exact(m, e, k)
    }

    /// [`cmp_dyadic`](Self::cmp_dyadic) in integers: `u = a − M·2^E =
    /// u_n / (a_d·2^k)`, then the sign rules of the module docs.
    fn cmp_exact(&self, m: &BigInt, e: i64, k: usize) -> Ordering {
        let mt = if e > 0 {
            (&self.ad * m) << e as usize
        } else {
            &self.ad * m
        };
        let mut un = if k > 0 {
            &self.an << k
        } else {
            self.an.clone()
        };
        un -= mt;
        use BigSign::{Minus, NoSign, Plus};
        // u > 0 > s: sign(u²q − s²); u < 0 < s: its opposite.
        let flip = match (un.sign(), self.sn.sign()) {
            (NoSign, NoSign) => return Ordering::Equal,
            (Plus | NoSign, Plus | NoSign) => return Ordering::Greater,
            (Minus | NoSign, Minus | NoSign) => return Ordering::Less,
            (Plus, Minus) => false,
            (Minus, Plus) => true,
        };
        // sign(u²q − s²) = sign(u_n²·q_n·s_d² − s_n²·q_d·a_d²·4^k).
        let (qs, rb) = self.exact();
        let x = (&un * &un * qs).cmp(&(rb << (2 * k)));
        if flip {
            x.reverse()
        } else {
            x
        }
    }

    /// [`cmp_dyadic`](Self::cmp_dyadic) from the double-word enclosures:
    /// `u_n = a_n·2^k − a_d·M·2^max(0, E)` with its bound, its sign, then the
    /// sign of `u_n²·q_n·s_d² − s_n²·q_d·a_d²·4^k`; `None` where a bound
    /// leaves a sign open (a zero `u_n` or a tie among them).
    fn cmp_filtered(&self, m: &BigInt, e: i64, k: usize) -> Option<Ordering> {
        let u = if m.is_zero() {
            (self.da.0, self.da.1 + k as i64)
        } else {
            let mut dm = dx_mag(m.magnitude());
            if m.is_negative() {
                dm.0 = dm.0.neg_ref();
            }
            let t2 = self.dad.0.mul_ref(&dm.0);
            sub_scaled(
                (self.da.0, self.da.1 + k as i64),
                (t2, self.dad.1 + dm.1 + e.max(0)),
            )
        };
        let su = u.0.sign()?;
        let ss = Sign::from_ordering(self.sn.sign().cmp(&BigSign::NoSign));
        use Sign::{Negative, Positive, Zero};
        let flip = match (su, ss) {
            (Zero, Zero) => return Some(Ordering::Equal),
            (Positive | Zero, Positive | Zero) => return Some(Ordering::Greater),
            (Negative | Zero, Negative | Zero) => return Some(Ordering::Less),
            (Positive, Negative) => false,
            (Negative, Positive) => true,
        };
        let x = self.diff((u.0.abs_ref(), u.1), k).0.sign()?.to_ordering();
        Some(if flip { x.reverse() } else { x })
    }

    /// `u_n²·q_n·s_d² − s_n²·q_d·a_d²·4^k` as `2^scale·(h + l ± e)`, from
    /// `|u_n| ∈ 2^scale·(h + l ± e)`.
    fn diff(&self, u: (Dx, i64), k: usize) -> (Dx, i64) {
        let x = u.0.sq().mul_ref(&self.dqs.0);
        let ex = 2 * u.1 + self.dqs.1;
        sub_scaled((x, ex), (self.drb.0, self.drb.1 + 2 * k as i64))
    }

    /// The exact sign of `a + s/√q`.
    pub fn sign(&self) -> Sign {
        Sign::from_ordering(self.cmp_dyadic(&BigInt::zero(), 0))
    }

    /// The double nearest to `a + s/√q` (ties to even; `±∞` past the double
    /// range), decided exactly (see the [module docs](self)). Zero is `+0.0`;
    /// a negative value that rounds to zero is `−0.0`.
    ///
    /// Counted in [`ROUNDED_CLOSEST_F64`]: `fast` when every comparison was
    /// decided by the double-word bound and the stepping from the guess,
    /// `fallback` when one needed exact products or the bisection.
    pub fn nearest_f64(&self) -> f64 {
        self.used_exact.set(false);
        let neg = match self.sign() {
            Sign::Zero => {
                ROUNDED_CLOSEST_F64.fast();
                return 0.0;
            }
            Sign::Negative => true,
            Sign::Positive => false,
        };
        // |x| compared with M·2^E (M ≥ 0): x itself, or −x as the reversed
        // comparison of x with −M·2^E.
        let cmp = |m: &BigInt, e: i64| {
            if neg {
                self.cmp_dyadic(&-m, e).reverse()
            } else {
                self.cmp_dyadic(m, e)
            }
        };
        let (v, bisected) = round_nonneg(cmp, self.guess());
        if bisected || self.used_exact.get() {
            ROUNDED_CLOSEST_F64.fallback();
        } else {
            ROUNDED_CLOSEST_F64.fast();
        }
        if neg {
            -v
        } else {
            v
        }
    }

    /// A float guess of `|x|` (finite, ≥ 0).
    fn guess(&self) -> f64 {
        let ef = |d: &(Dx, i64)| normal((d.0.h + d.0.l, d.1));
        let da = (self.da.0.abs_ref(), self.da.1);
        let a = ef_div(ef(&da), ef(&self.dad));
        let sabs = ef_div(ef(&self.dsn), ef(&self.dsd));
        let q = ef_div(ef(&self.dqn), ef(&self.dqd));
        let rq = ef_sqrt(q);
        let t = ef_div(sabs, rq);
        let (sa, ss) = (self.an.sign(), self.sn.sign());
        let g = if sa == BigSign::NoSign || ss == BigSign::NoSign || sa == ss {
            ef_add(a, t)
        } else if ef_cmp(a, ef_add(t, t)) == Ordering::Greater {
            ef_sub(a, t)
        } else if ef_cmp(t, ef_add(a, a)) == Ordering::Greater {
            ef_sub(t, a)
        } else {
            // Cancellation: |x| = |a²q − s²| / (|a|·q + |s|·√q) with
            // a²q − s² = (a_n²·q_n·s_d² − s_n²·q_d·a_d²) / (a_d²·q_d·s_d²),
            // the numerator in double-word arithmetic (no cancellation of
            // leading digits left in the guess).
            let (nd, kn) = self.diff((self.da.0.abs_ref(), self.da.1), 0);
            let n = normal(((nd.h + nd.l).abs(), kn));
            let den = ef_mul(
                ef_mul(ef_mul(ef(&self.dad), ef(&self.dad)), ef(&self.dqd)),
                {
                    let sd = ef(&self.dsd);
                    ef_mul(sd, sd)
                },
            );
            let d = ef_add(ef_mul(a, q), ef_mul(sabs, rq));
            ef_div(ef_div(n, den), d)
        };
        let v = ldexp(g.0, g.1);
        if v.is_finite() {
            v
        } else {
            f64::MAX
        }
    }
}

/// `|n| ∈ 2^k·(h + l ± e)`: `t`, the top 128 bits of `n` (truncated when
/// `n` is longer, an error below 1 in units of `2^k`), split into `h`, its
/// leading 53 bits (exact), and `l`, the `b` bits below them rounded to a
/// double (an error of at most 2^(b−54)); exact for `n` below 2^106.
pub(crate) fn dx_mag(n: &BigUint) -> (Dx, i64) {
    let bits = n.bits();
    if bits <= 53 {
        let v = n.iter_u64_digits().next().unwrap_or(0);
        return (Dx::exact(v as f64), 0);
    }
    let (t, tb, k, trunc): (u128, u64, i64, f64) = if bits <= 128 {
        let mut it = n.iter_u64_digits();
        let lo = it.next().unwrap_or(0) as u128;
        let hi = it.next().unwrap_or(0) as u128;
        ((hi << 64) | lo, bits, 0, 0.0)
    } else {
        let mut it = n.iter_u64_digits().rev();
        let (d2, d1, d0) = (
            it.next().unwrap_or(0),
            it.next().unwrap_or(0),
            it.next().unwrap_or(0),
        );
        let lz = d2.leading_zeros();
        let low = if lz > 0 { (d0 >> (64 - lz)) as u128 } else { 0 };
        let t = ((d2 as u128) << (64 + lz)) | ((d1 as u128) << lz) | low;
        (t, 128, bits as i64 - 128, 1.0)
    };
    let b = (tb - 53) as i64;
    let h = ((t >> b) as u64 as f64) * ldexp(1.0, b);
    let l = (t & ((1u128 << b) - 1)) as f64;
    let round = if b > 53 { ldexp(1.0, b - 53) } else { 0.0 };
    (
        Dx {
            h,
            l,
            e: round + trunc,
        },
        k,
    )
}

/// `x·2^j` (exact scaling of the parts; `2^−1000` added to the bound for
/// any underflow of a part, and the bound rounded up).
pub(crate) fn scale(x: Dx, j: i64) -> Dx {
    if x.h == 0.0 && x.l == 0.0 && x.e == 0.0 {
        return x;
    }
    let f = ldexp(1.0, j);
    Dx {
        h: x.h * f,
        l: x.l * f,
        // Rounded up: the sum's own rounding is covered by the factor.
        e: (x.e * f + ldexp(1.0, -1000)) * (1.0 + 4.0 * U),
    }
}

/// `x·2^i − y·2^j` as `2^b·(h + l ± e)`: both scaled exactly so that the
/// larger leading part is below 2 (the smaller may underflow; [`scale`]'s
/// bound covers it), then subtracted with the double-word bound.
fn sub_scaled(x: (Dx, i64), y: (Dx, i64)) -> (Dx, i64) {
    let b = (x.1 + expo(x.0.h)).max(y.1 + expo(y.0.h));
    (scale(x.0, x.1 - b).sub_ref(&scale(y.0, y.1 - b)), b)
}

/// The exponent of a double's leading bit (`−1023` for zero and subnormals).
pub(crate) fn expo(v: f64) -> i64 {
    ((v.to_bits() >> 52) & 0x7ff) as i64 - 1023
}

/// `x·y` of two nonnegative [`Ef`]s.
fn ef_mul(x: Ef, y: Ef) -> Ef {
    let (x, y) = (normal(x), normal(y));
    normal((x.0 * y.0, x.1 + y.1))
}

/// `x − y` of nonnegative [`Ef`]s with `x ≥ 2y` (no cancellation).
fn ef_sub(x: Ef, y: Ef) -> Ef {
    let (x, y) = (normal(x), normal(y));
    if y.0 == 0.0 {
        return x;
    }
    let shift = y.1 - x.1;
    if shift < -1100 {
        return x;
    }
    normal((x.0 - ldexp(y.0, shift), x.1))
}

/// The order of two nonnegative [`Ef`]s (approximate values).
fn ef_cmp(x: Ef, y: Ef) -> Ordering {
    let (x, y) = (normal(x), normal(y));
    match (x.0 == 0.0, y.0 == 0.0) {
        (true, true) => Ordering::Equal,
        (true, false) => Ordering::Less,
        (false, true) => Ordering::Greater,
        _ => x.1.cmp(&y.1).then(x.0.total_cmp(&y.0)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn r(n: i64, d: i64) -> BigRational {
        BigRational::new(n.into(), d.into())
    }

    fn big(rng: &mut u64, bits: u32) -> BigInt {
        let mut n = BigInt::zero();
        for _ in 0..bits.div_ceil(32) {
            *rng ^= *rng << 13;
            *rng ^= *rng >> 7;
            *rng ^= *rng << 17;
            n = (n << 32usize) + BigInt::from(*rng as u32);
        }
        if *rng % 3 == 0 {
            -n
        } else {
            n
        }
    }

    /// `dx_mag` encloses the magnitude: `| |n| − 2^k·(h + l) | ≤ 2^k·e`,
    /// checked in exact rationals.
    #[test]
    fn dx_mag_encloses() {
        let mut rng = 0x9e3779b97f4a7c15u64;
        for i in 0..400 {
            let n = big(&mut rng, 1 + (i % 300) as u32);
            let (d, k) = dx_mag(n.magnitude());
            let p2 = |k: i64| {
                if k >= 0 {
                    BigRational::from_integer(BigInt::from(1) << k as usize)
                } else {
                    BigRational::new(1.into(), BigInt::from(1) << (-k) as usize)
                }
            };
            let f = |v: f64| BigRational::from_float(v).expect("finite");
            let approx = (f(d.h) + f(d.l)) * p2(k);
            let err = (BigRational::from_integer(n.abs()) - approx).abs();
            assert!(err <= f(d.e) * p2(k), "{n}");
        }
    }

    /// The filtered comparisons agree with the exact ones wherever they
    /// decide, on random rationals and on midpoints of their nearest
    /// doubles (the comparisons `nearest_f64` makes), including offsets of
    /// 2^−60 to 2^−300 from a midpoint and coordinates with cancellation.
    #[test]
    fn filter_agrees_with_exact() {
        let mut rng = 0x2545f4914f6cdd1du64;
        let mut decided = 0;
        for i in 0..300 {
            let b = 20 + (i % 7) * 40;
            let nz = |r: &mut u64, b| {
                let n = big(r, b);
                if n.is_zero() {
                    BigInt::from(1)
                } else {
                    n
                }
            };
            let a = BigRational::new(big(&mut rng, b), nz(&mut rng, b).abs());
            let s = BigRational::new(big(&mut rng, b), nz(&mut rng, b).abs());
            let q = BigRational::new(nz(&mut rng, 2 * b).abs(), nz(&mut rng, 2 * b).abs());
            let x = AffineSqrt::new(&a, &s, &q).unwrap();
            let g = x.nearest_f64();
            let mut checks: Vec<(BigInt, i64)> = vec![(BigInt::zero(), 0)];
            for v in [g, g.next_up(), g.next_down()] {
                if v.is_finite() && v != 0.0 {
                    let (m, e) = crate::num::sqrt_offset::parts(v.abs());
                    let m = BigInt::from(2 * m + 1);
                    checks.push((if v < 0.0 { -&m } else { m.clone() }, e - 1));
                    // 2^-60·ulp above the midpoint.
                    let m2: BigInt = (m << 60usize) + BigInt::from(1);
                    checks.push((if v < 0.0 { -m2 } else { m2 }, e - 61));
                }
            }
            for (m, e) in checks {
                let k = (-e).max(0) as usize;
                let want = x.cmp_exact(&m, e, k);
                if let Some(o) = x.cmp_filtered(&m, e, k) {
                    assert_eq!(o, want, "{a} {s} {q} {m} {e}");
                    decided += 1;
                }
            }
        }
        assert!(decided > 1000, "{decided}");
    }

    /// The stepping from a bad guess (0 or `f64::MAX`: bisection) gives the
    /// same double as `nearest_f64`.
    #[test]
    fn bisection_agrees() {
        let mut rng = 0x1234_5678_9abc_def1u64;
        for _ in 0..40 {
            let a = BigRational::new(big(&mut rng, 64), BigInt::from(1) << 40usize);
            let s = BigRational::new(big(&mut rng, 64), BigInt::from(1) << 50usize);
            let q = BigRational::new(
                big(&mut rng, 90).abs() + BigInt::from(1),
                BigInt::from(1) << 60usize,
            );
            let x = AffineSqrt::new(&a, &s, &q).unwrap();
            let v = x.nearest_f64();
            let neg = x.sign() == Sign::Negative;
            let cmp = |m: &BigInt, e: i64| {
                if neg {
                    x.cmp_dyadic(&-m, e).reverse()
                } else {
                    x.cmp_dyadic(m, e)
                }
            };
            for g in [0.0, f64::MAX] {
                let (w, _) = round_nonneg(cmp, g);
                assert_eq!(if neg { -w } else { w }, v);
            }
        }
    }

    #[test]
    fn nonpositive_q_is_none() {
        assert!(AffineSqrt::new(&r(1, 1), &r(1, 1), &r(0, 1)).is_none());
        assert!(AffineSqrt::new(&r(1, 1), &r(1, 1), &r(-1, 1)).is_none());
    }

    /// Signs worked by hand: 1 − 1/√2 > 0, 1 − 2/√2 = 1 − √2 < 0,
    /// 1 − 2/√4 = 0, −3 + 3/√1 = 0.
    #[test]
    fn signs() {
        let x = |a, s, q| {
            AffineSqrt::new(&r(a, 1), &r(s, 1), &r(q, 1))
                .unwrap()
                .sign()
        };
        assert_eq!(x(1, -1, 2), Sign::Positive);
        assert_eq!(x(1, -2, 2), Sign::Negative);
        assert_eq!(x(1, -2, 4), Sign::Zero);
        assert_eq!(x(-3, 3, 1), Sign::Zero);
        assert_eq!(x(0, 0, 5), Sign::Zero);
        assert_eq!(x(-1, 0, 5), Sign::Negative);
    }
}
