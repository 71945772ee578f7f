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
//! `u_n²·(q_n·s_d²) ≷ (s_n²·q_d·a_d²)·2^(2k)`: no gcd, no rational reduction,
//! and no float decides anything.
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

use crate::num::sign::Sign;
use crate::num::sqrt_offset::{
    ef, ef_add, ef_div, ef_sqrt, ldexp, normal, round_nonneg, Ef,
};
use crate::stats::ROUNDED_CLOSEST_F64;
use num_bigint::{BigInt, Sign as BigSign};
use num_rational::BigRational;
use num_traits::{Signed, Zero};
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
    /// `q_n·s_d²`.
    qs: BigInt,
    /// `s_n²·q_d·a_d²`.
    rb: BigInt,
}

impl AffineSqrt {
    /// `a + s/√q`; `None` when `q ≤ 0`.
    pub fn new(a: &BigRational, s: &BigRational, q: &BigRational) -> Option<AffineSqrt> {
        if !q.is_positive() {
            return None;
        }
        let (an, ad) = (a.numer().clone(), a.denom().clone());
        let (sn, sd) = (s.numer().clone(), s.denom().clone());
        let (qn, qd) = (q.numer().clone(), q.denom().clone());
        let qs = &qn * &sd * &sd;
        let rb = &sn * &sn * &qd * &ad * &ad;
        Some(AffineSqrt {
            an,
            ad,
            sn,
            sd,
            qn,
            qd,
            qs,
            rb,
        })
    }

    /// `a + s/√q` compared with `M·2^E`, exactly (see the module docs).
    pub fn cmp_dyadic(&self, m: &BigInt, e: i64) -> Ordering {
        // u = a − M·2^E = u_n / (a_d·2^k).
        let k = (-e).max(0) as usize;
        let mt = if e > 0 {
            (&self.ad * m) << e as usize
        } else {
            &self.ad * m
        };
        let un = if k > 0 { &self.an << k } else { self.an.clone() } - mt;
        let (su, ss) = (un.sign(), self.sn.sign());
        use BigSign::{Minus, NoSign, Plus};
        match (su, ss) {
            (NoSign, NoSign) => Ordering::Equal,
            (Plus | NoSign, Plus | NoSign) => Ordering::Greater,
            (Minus | NoSign, Minus | NoSign) => Ordering::Less,
            (Plus, Minus) => (&un * &un * &self.qs).cmp(&(&self.rb << (2 * k))),
            (Minus, Plus) => (&self.rb << (2 * k)).cmp(&(&un * &un * &self.qs)),
        }
    }

    /// The exact sign of `a + s/√q`.
    pub fn sign(&self) -> Sign {
        Sign::from_ordering(self.cmp_dyadic(&BigInt::zero(), 0))
    }

    /// The double nearest to `a + s/√q` (ties to even; `±∞` past the double
    /// range), decided exactly (see the [module docs](self)). Zero is `+0.0`;
    /// a negative value that rounds to zero is `−0.0`.
    pub fn nearest_f64(&self) -> f64 {
        let neg = match self.sign() {
            Sign::Zero => return 0.0,
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
        if bisected {
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
        let a = ef_div(ef(&self.an), ef(&self.ad));
        let sabs = ef_div(ef(&self.sn), ef(&self.sd));
        let q = ef_div(ef(&self.qn), ef(&self.qd));
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
            // Cancellation: |x| = |a²q − s²| / (|a|·q + |s|·√q), the
            // numerator exact: (a_n²·q_n·s_d² − s_n²·q_d·a_d²) / (a_d²·q_d·s_d²).
            let num = (&self.an * &self.an * &self.qs - &self.rb).abs();
            let den = &self.ad * &self.ad * &self.qd * &self.sd * &self.sd;
            let n = ef_div(ef(&num), ef(&den));
            let d = ef_add(ef_mul(a, q), ef_mul(sabs, rq));
            ef_div(n, d)
        };
        let v = ldexp(g.0, g.1);
        if v.is_finite() {
            v
        } else {
            f64::MAX
        }
    }
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

    #[test]
    fn nonpositive_q_is_none() {
        assert!(AffineSqrt::new(&r(1, 1), &r(1, 1), &r(0, 1)).is_none());
        assert!(AffineSqrt::new(&r(1, 1), &r(1, 1), &r(-1, 1)).is_none());
    }

    /// Signs worked by hand: 1 − 1/√2 > 0, 1 − 2/√2 = 1 − √2 < 0,
    /// 1 − 2/√4 = 0, −3 + 3/√1 = 0.
    #[test]
    fn signs() {
        let x = |a, s, q| AffineSqrt::new(&r(a, 1), &r(s, 1), &r(q, 1)).unwrap().sign();
        assert_eq!(x(1, -1, 2), Sign::Positive);
        assert_eq!(x(1, -2, 2), Sign::Negative);
        assert_eq!(x(1, -2, 4), Sign::Zero);
        assert_eq!(x(-3, 3, 1), Sign::Zero);
        assert_eq!(x(0, 0, 5), Sign::Zero);
        assert_eq!(x(-1, 0, 5), Sign::Negative);
    }
}
