//! `Scalar`: the number types an algorithm is generic over (f32, f64, `BigRational`).
//!
//! Every f32/f64 is a dyadic rational, so every scalar converts to `BigRational`
//! without rounding ([`Scalar::to_rational`]); the way back ([`Scalar::from_rational`])
//! rounds to nearest, ties to even, for the float types and is the identity for
//! `BigRational`. Decisions never use the scalar's own arithmetic: they go through
//! [`crate::predicates`], which filters with [`Interval`] and falls back to
//! [`Scalar::Exact`].

use crate::num::dyadic::Dyadic;
use crate::num::interval::Interval;
use crate::num::ring::Ring;
use crate::num::sign::Sign;
use num_bigint::BigInt;
use num_integer::Integer;
use num_rational::BigRational;
use num_traits::{One, Signed, Zero};

/// An exact ring: its sign is always known.
pub trait ExactRing: Ring {
    /// The exact sign.
    fn sign(&self) -> Sign;
}

impl ExactRing for Dyadic {
    fn sign(&self) -> Sign {
        Dyadic::sign(self)
    }
}

impl ExactRing for BigRational {
    fn sign(&self) -> Sign {
        if self.is_zero() {
            Sign::Zero
        } else if self.is_negative() {
            Sign::Negative
        } else {
            Sign::Positive
        }
    }
}

/// A coordinate type: a field whose every value has a known exact rational value.
///
/// ```
/// use exact_collision::Scalar;
/// use num_rational::BigRational;
/// let x = 0.1f64.to_rational();
/// assert_eq!(x.to_string(), "3602879701896397/36028797018963968");
/// assert_eq!(f64::from_rational(&x), 0.1);
/// ```
pub trait Scalar: Ring + PartialOrd + Send + Sync + 'static {
    /// "f32", "f64" or "exact", as the protocol's `scalar` field names it.
    const NAME: &'static str;
    /// Whether the type's own arithmetic is exact.
    const IS_EXACT: bool;
    /// The exact ring predicates fall back to: `Dyadic` for floats (no gcds),
    /// `BigRational` for rationals.
    type Exact: ExactRing;
    /// An interval that contains the exact value.
    fn to_interval(&self) -> Interval;
    /// The exact value in the fallback ring.
    fn to_exact(&self) -> Self::Exact;
    /// The exact value as a rational.
    fn to_rational(&self) -> BigRational;
    /// The nearest value of this type (ties to even); exact for `BigRational`.
    /// Overflow gives ±∞ for the float types.
    fn from_rational(r: &BigRational) -> Self;
    /// `self / o` (rounded for the float types). Division by zero panics for
    /// `BigRational`; callers divide only by quantities a predicate proved nonzero.
    fn div_ref(&self, o: &Self) -> Self;
    /// The nearest double.
    fn to_f64(&self) -> f64;
    /// False for NaN and ±∞.
    fn is_finite(&self) -> bool;
    /// The sign of this stored value (exact: a float's value is a rational).
    fn sign(&self) -> Sign;
}

macro_rules! float_scalar {
    ($t:ty, $name:expr, $p:expr, $lsb:expr, $maxe:expr) => {
        impl Scalar for $t {
            const NAME: &'static str = $name;
            const IS_EXACT: bool = false;
            type Exact = Dyadic;
            #[inline]
            fn to_interval(&self) -> Interval {
                Interval::point(*self as f64)
            }
            fn to_exact(&self) -> Dyadic {
                Dyadic::from_f64(*self as f64)
            }
            fn to_rational(&self) -> BigRational {
                Dyadic::from_f64(*self as f64).to_rational()
            }
            fn from_rational(r: &BigRational) -> Self {
                round_rational(r, $p, $lsb, $maxe).0 as $t
            }
            #[inline]
            fn div_ref(&self, o: &Self) -> Self {
                self / o
            }
            #[inline]
            fn to_f64(&self) -> f64 {
                *self as f64
            }
            #[inline]
            fn is_finite(&self) -> bool {
                <$t>::is_finite(*self)
            }
            #[inline]
            fn sign(&self) -> Sign {
                if *self > 0.0 {
                    Sign::Positive
                } else if *self < 0.0 {
                    Sign::Negative
                } else {
                    Sign::Zero
                }
            }
        }
    };
}
float_scalar!(f32, "f32", 24, -149, 127);
float_scalar!(f64, "f64", 53, -1074, 1023);

impl Scalar for BigRational {
    const NAME: &'static str = "exact";
    const IS_EXACT: bool = true;
    type Exact = BigRational;
    fn to_interval(&self) -> Interval {
        let (v, exact) = round_rational(self, 53, -1074, 1023);
        if exact {
            Interval::point(v)
        } else {
            Interval {
                lo: v.next_down(),
                hi: v.next_up(),
            }
        }
    }
    fn to_exact(&self) -> BigRational {
        self.clone()
    }
    fn to_rational(&self) -> BigRational {
        self.clone()
    }
    fn from_rational(r: &BigRational) -> Self {
        r.clone()
    }
    fn div_ref(&self, o: &Self) -> Self {
        self / o
    }
    fn to_f64(&self) -> f64 {
        rational_to_f64(self)
    }
    fn is_finite(&self) -> bool {
        true
    }
    fn sign(&self) -> Sign {
        ExactRing::sign(self)
    }
}

/// The double nearest to `r` (ties to even), ±∞ past the double range, ±0 below
/// half the smallest subnormal.
///
/// ```
/// use exact_collision::num::scalar::rational_to_f64;
/// use num_rational::BigRational;
/// let third = BigRational::new(1.into(), 3.into());
/// assert_eq!(rational_to_f64(&third), 1.0 / 3.0);
/// ```
pub fn rational_to_f64(r: &BigRational) -> f64 {
    round_rational(r, 53, -1074, 1023).0
}

/// Round `r` to a binary float with `p` significant bits, least significant bit
/// exponent at least `lsb_min` (subnormals), largest exponent `max_exp`.
/// Returns the value as an f64 (exactly representable in the target type) and
/// whether the rounding was exact.
fn round_rational(r: &BigRational, p: u32, lsb_min: i64, max_exp: i64) -> (f64, bool) {
    if r.is_zero() {
        return (0.0, true);
    }
    let neg = r.is_negative();
    let n = r.numer().abs();
    let d = r.denom().clone();
    let k = n.bits() as i64 - d.bits() as i64;
    // r is in (2^(k-1), 2^(k+1)): find the exponent of its leading bit.
    let ge = |e: i64| -> bool {
        if e >= 0 {
            n >= (&d << (e as usize))
        } else {
            (&n << ((-e) as usize)) >= d
        }
    };
    let top = if ge(k) { k } else { k - 1 };
    let signed = |v: f64| if neg { -v } else { v };
    if top > max_exp {
        return (signed(f64::INFINITY), false);
    }
    let l = (top - (p as i64 - 1)).max(lsb_min);
    let (q, rem, div) = if l >= 0 {
        let div = &d << (l as usize);
        let (q, rem) = n.div_rem(&div);
        (q, rem, div)
    } else {
        let (q, rem) = (&n << ((-l) as usize)).div_rem(&d);
        (q, rem, d.clone())
    };
    let exact = rem.is_zero();
    let twice: BigInt = rem << 1usize;
    let mut q = q;
    if twice > div || (twice == div && q.is_odd()) {
        q += BigInt::one();
    }
    let mut l = l;
    if q.bits() > p as u64 {
        q >>= 1usize;
        l += 1;
    }
    if q.is_zero() {
        return (signed(0.0), false);
    }
    if l + p as i64 - 1 > max_exp {
        return (signed(f64::INFINITY), false);
    }
    let mut v = u64::try_from(&q).expect("at most 53 bits") as f64;
    let mut e = l;
    while e != 0 {
        let step = e.clamp(-1000, 1000);
        v *= 2f64.powi(step as i32);
        e -= step;
    }
    (signed(v), exact)
}

/// A double as the float scalar `S` (f64 itself; f32 rounded to nearest
/// from the double).
pub(crate) fn cast<S: Scalar>(x: f64) -> S {
    use std::any::Any;
    if let Some(v) = (&x as &dyn Any).downcast_ref::<S>() {
        return v.clone();
    }
    let y = x as f32;
    if let Some(v) = (&y as &dyn Any).downcast_ref::<S>() {
        return v.clone();
    }
    S::from_rational(&BigRational::from_float(x).unwrap_or_default())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn float_round_trip_is_identity() {
        for v in [
            0.1,
            -3.5,
            5e-324,
            1e300,
            -2.2250738585072014e-308,
            f64::MAX,
            1.0,
            123456.789,
        ] {
            assert_eq!(f64::from_rational(&v.to_rational()), v);
        }
        for v in [0.1f32, -3.5, 1e-45, 3e38, 1.0] {
            assert_eq!(f32::from_rational(&v.to_rational()), v);
        }
    }

    #[test]
    fn rounding_matches_std_parse() {
        // Rust's str::parse is correctly rounded: compare on decimal strings.
        for s in [
            "0.1",
            "1e-310",
            "3.141592653589793238462643",
            "9007199254740993",
            "1e308",
            "2.5e-324",
            "7e-324",
        ] {
            let r = crate::protocol::number::parse_exact(s).unwrap();
            assert_eq!(f64::from_rational(&r), s.parse::<f64>().unwrap(), "{s}");
            assert_eq!(f32::from_rational(&r), s.parse::<f32>().unwrap(), "{s}");
        }
    }

    #[test]
    fn overflow_and_underflow() {
        let big = crate::protocol::number::parse_exact("1e400").unwrap();
        assert_eq!(f64::from_rational(&big), f64::INFINITY);
        let tiny = crate::protocol::number::parse_exact("-1e-400").unwrap();
        assert_eq!(f64::from_rational(&tiny), 0.0);
        assert!(f64::from_rational(&tiny).is_sign_negative());
    }

    #[test]
    fn interval_of_rational_encloses_it() {
        let third = BigRational::new(1.into(), 3.into());
        let iv = third.to_interval();
        assert!(BigRational::from_float(iv.lo).unwrap() < third);
        assert!(BigRational::from_float(iv.hi).unwrap() > third);
    }
}
