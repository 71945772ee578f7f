//! Interval arithmetic with outward rounding: the certified filter of the predicates.
//!
//! Rust gives no control of the rounding mode, so every bound computed in
//! round-to-nearest is moved one ulp outward with `next_down` / `next_up`.
//! Round-to-nearest is off by at most half an ulp of the result (the half-ulp of the
//! binade below when the result is a power of two, which is also at most one step
//! of `next_down`), so the widened bound is on the safe side of the true value; a
//! bound that overflows to ±∞ stays a valid bound, and any NaN (∞ − ∞, 0 · ∞) widens
//! the interval to the whole line. An operand that is exactly zero gives an exact
//! zero product and is not widened, so `[0, 0]` means exactly zero.

use crate::num::ring::Ring;
use crate::num::sign::Sign;

/// A closed interval `[lo, hi]` of reals known to contain the true value.
///
/// ```
/// use exact_collision::{Interval, Ring, Sign};
/// let x = Interval::point(0.1);
/// let y = x.mul_ref(&x).sub_ref(&Interval::point(0.01));
/// // 0.1 is not 1/10, so the true value is not 0; the interval says which side it
/// // is on, or that it cannot tell:
/// assert!(y.sign().is_none() || y.sign() == Some(Sign::Positive));
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Interval {
    /// Lower bound.
    pub lo: f64,
    /// Upper bound.
    pub hi: f64,
}

impl Interval {
    /// The interval `[v, v]` for an exactly known double.
    #[inline]
    pub fn point(v: f64) -> Interval {
        Interval { lo: v, hi: v }
    }

    /// The whole real line: nothing is known.
    pub const WHOLE: Interval = Interval {
        lo: f64::NEG_INFINITY,
        hi: f64::INFINITY,
    };

    /// The sign of every value in the interval, if they share one.
    #[inline]
    pub fn sign(&self) -> Option<Sign> {
        if self.lo > 0.0 {
            Some(Sign::Positive)
        } else if self.hi < 0.0 {
            Some(Sign::Negative)
        } else if self.lo == 0.0 && self.hi == 0.0 {
            Some(Sign::Zero)
        } else {
            None
        }
    }

    #[inline]
    fn widen(lo: f64, hi: f64) -> Interval {
        if lo.is_nan() || hi.is_nan() {
            return Interval::WHOLE;
        }
        Interval {
            lo: lo.next_down(),
            hi: hi.next_up(),
        }
    }
}

impl Ring for Interval {
    fn zero() -> Self {
        Interval::point(0.0)
    }
    fn one() -> Self {
        Interval::point(1.0)
    }
    fn from_i32(v: i32) -> Self {
        Interval::point(v as f64)
    }
    #[inline]
    fn add_ref(&self, o: &Self) -> Self {
        let lo = self.lo + o.lo;
        let hi = self.hi + o.hi;
        if self.lo == self.hi && o.lo == o.hi && (self.lo == 0.0 || o.lo == 0.0) {
            return Interval { lo, hi };
        }
        Interval::widen(lo, hi)
    }
    #[inline]
    fn sub_ref(&self, o: &Self) -> Self {
        self.add_ref(&o.neg_ref())
    }
    #[inline]
    fn mul_ref(&self, o: &Self) -> Self {
        let (a, b) = (self, o);
        if (a.lo == 0.0 && a.hi == 0.0) || (b.lo == 0.0 && b.hi == 0.0) {
            return Interval::point(0.0);
        }
        let (lo, hi) = if a.lo >= 0.0 {
            if b.lo >= 0.0 {
                (a.lo * b.lo, a.hi * b.hi)
            } else if b.hi <= 0.0 {
                (a.hi * b.lo, a.lo * b.hi)
            } else {
                (a.hi * b.lo, a.hi * b.hi)
            }
        } else if a.hi <= 0.0 {
            if b.lo >= 0.0 {
                (a.lo * b.hi, a.hi * b.lo)
            } else if b.hi <= 0.0 {
                (a.hi * b.hi, a.lo * b.lo)
            } else {
                (a.lo * b.hi, a.lo * b.lo)
            }
        } else if b.lo >= 0.0 {
            (a.lo * b.hi, a.hi * b.hi)
        } else if b.hi <= 0.0 {
            (a.hi * b.lo, a.lo * b.lo)
        } else {
            let l1 = a.lo * b.hi;
            let l2 = a.hi * b.lo;
            let h1 = a.lo * b.lo;
            let h2 = a.hi * b.hi;
            (l1.min(l2), h1.max(h2))
        };
        Interval::widen(lo, hi)
    }
    #[inline]
    fn neg_ref(&self) -> Self {
        Interval {
            lo: -self.hi,
            hi: -self.lo,
        }
    }
    #[inline]
    fn abs_ref(&self) -> Self {
        if self.lo >= 0.0 {
            *self
        } else if self.hi <= 0.0 {
            self.neg_ref()
        } else {
            Interval {
                lo: 0.0,
                hi: (-self.lo).max(self.hi),
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use num_rational::BigRational;

    fn contains(iv: &Interval, x: &BigRational) -> bool {
        let lo = BigRational::from_float(iv.lo);
        let hi = BigRational::from_float(iv.hi);
        lo.is_none_or(|l| &l <= x) && hi.is_none_or(|h| x <= &h)
    }

    #[test]
    fn products_and_sums_enclose_the_exact_value() {
        let vals = [0.1, -3.7, 1e-300, -1e300, 5e-324, 2.0, -0.0, 1.0 / 3.0];
        for &a in &vals {
            for &b in &vals {
                let (ia, ib) = (Interval::point(a), Interval::point(b));
                let ea = BigRational::from_float(a).unwrap();
                let eb = BigRational::from_float(b).unwrap();
                assert!(contains(&ia.mul_ref(&ib), &(&ea * &eb)), "{a} * {b}");
                assert!(contains(&ia.add_ref(&ib), &(&ea + &eb)), "{a} + {b}");
                assert!(contains(&ia.sub_ref(&ib), &(&ea - &eb)), "{a} - {b}");
            }
        }
    }

    #[test]
    fn underflowing_product_is_not_zero() {
        // The float product underflows to 0; the interval must not claim zero
        // (it may only say "cannot tell", and the exact fallback decides).
        let p = Interval::point(1e-200).mul_ref(&Interval::point(1e-200));
        assert!(p.lo < 0.0 && p.hi > 0.0);
        assert_eq!(p.sign(), None);
        let q = Interval::point(1e-200).mul_ref(&Interval::point(-1e-200));
        assert_eq!(q.sign(), None);
    }

    #[test]
    fn overflow_and_nan_stay_safe() {
        let big = Interval::point(1e300);
        let p = big.mul_ref(&big);
        assert_eq!(p.sign(), Some(Sign::Positive));
        let d = p.sub_ref(&p);
        assert_eq!(d.sign(), None);
    }
}
