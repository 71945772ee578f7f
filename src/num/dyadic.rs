//! `Dyadic`: exact arithmetic on m·2^e, the exact fallback for float inputs.
//!
//! Every finite f32/f64 is a dyadic rational, and dyadic rationals are closed under
//! +, −, ×, so a predicate on float inputs can be evaluated exactly without a single
//! gcd: products multiply mantissas and add exponents, sums shift the operand with
//! the larger exponent left before adding.

use crate::num::ring::Ring;
use crate::num::sign::Sign;
use num_bigint::BigInt;
use num_rational::BigRational;
use num_traits::{One, Signed, Zero};

/// The exact value `mantissa · 2^exp`.
///
/// ```
/// use exact_collision::{Dyadic, Ring, Sign};
/// let x = Dyadic::from_f64(0.1);
/// let d = x.mul_ref(&Dyadic::from_i32(10)).sub_ref(&Dyadic::from_i32(1));
/// assert_eq!(d.sign(), Sign::Positive); // the double 0.1 is a little above 1/10
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Dyadic {
    mantissa: BigInt,
    exp: i64,
}

/// A finite nonzero f64 as `m·2^e` with `m` odd (sign included, |m| < 2⁵³);
/// `(0, 0)` for ±0.
pub(crate) fn f64_parts(v: f64) -> (i64, i64) {
    let bits = v.to_bits();
    let e = ((bits >> 52) & 0x7ff) as i64;
    let frac = bits & ((1u64 << 52) - 1);
    let (m, exp) = if e == 0 {
        (frac, -1074)
    } else {
        (frac | (1u64 << 52), e - 1075)
    };
    if m == 0 {
        return (0, 0);
    }
    let tz = m.trailing_zeros() as i64;
    let m = (m >> tz) as i64;
    (if bits >> 63 == 1 { -m } else { m }, exp + tz)
}

impl Dyadic {
    /// The exact value of a finite double. Panics on NaN or infinity (callers
    /// validate their inputs first).
    pub fn from_f64(v: f64) -> Dyadic {
        assert!(v.is_finite(), "Dyadic::from_f64 of a non-finite value");
        if v == 0.0 {
            return Dyadic::zero();
        }
        let (mantissa, exp) = f64_parts(v);
        Dyadic {
            mantissa: BigInt::from(mantissa),
            exp,
        }
    }

    /// The sign, exactly.
    pub fn sign(&self) -> Sign {
        if self.mantissa.is_zero() {
            Sign::Zero
        } else if self.mantissa.is_negative() {
            Sign::Negative
        } else {
            Sign::Positive
        }
    }

    /// The same value as a `BigRational`.
    pub fn to_rational(&self) -> BigRational {
        // Lowest terms without a gcd: an odd mantissa over a power of two.
        let Some(tz) = self.mantissa.trailing_zeros() else {
            return <BigRational as Zero>::zero();
        };
        let exp = self.exp + tz as i64;
        let odd = &self.mantissa >> tz; // exact: only zero bits are dropped
        if exp >= 0 {
            BigRational::from_integer(odd << (exp as usize))
        } else {
            BigRational::new_raw(odd, BigInt::one() << ((-exp) as usize))
        }
    }

    fn aligned(&self, o: &Dyadic) -> (BigInt, BigInt, i64) {
        if self.mantissa.is_zero() {
            return (BigInt::zero(), o.mantissa.clone(), o.exp);
        }
        if o.mantissa.is_zero() {
            return (self.mantissa.clone(), BigInt::zero(), self.exp);
        }
        match self.exp.cmp(&o.exp) {
            std::cmp::Ordering::Equal => (self.mantissa.clone(), o.mantissa.clone(), self.exp),
            std::cmp::Ordering::Greater => (
                &self.mantissa << ((self.exp - o.exp) as usize),
                o.mantissa.clone(),
                o.exp,
            ),
            std::cmp::Ordering::Less => (
                self.mantissa.clone(),
                &o.mantissa << ((o.exp - self.exp) as usize),
                self.exp,
            ),
        }
    }
}

impl Ring for Dyadic {
    fn zero() -> Self {
        Dyadic {
            mantissa: BigInt::zero(),
            exp: 0,
        }
    }
    fn one() -> Self {
        Dyadic::from_i32(1)
    }
    fn from_i32(v: i32) -> Self {
        Dyadic {
            mantissa: BigInt::from(v),
            exp: 0,
        }
    }
    fn add_ref(&self, o: &Self) -> Self {
        let (a, b, exp) = self.aligned(o);
        Dyadic {
            mantissa: a + b,
            exp,
        }
    }
    fn sub_ref(&self, o: &Self) -> Self {
        let (a, b, exp) = self.aligned(o);
        Dyadic {
            mantissa: a - b,
            exp,
        }
    }
    fn mul_ref(&self, o: &Self) -> Self {
        Dyadic {
            mantissa: &self.mantissa * &o.mantissa,
            exp: self.exp + o.exp,
        }
    }
    fn neg_ref(&self) -> Self {
        Dyadic {
            mantissa: -&self.mantissa,
            exp: self.exp,
        }
    }
    fn abs_ref(&self) -> Self {
        Dyadic {
            mantissa: self.mantissa.abs(),
            exp: self.exp,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parts_of_zero_and_of_odd_and_even_doubles() {
        // Worked by hand: 0 has no odd part; 6 = 3·2¹; −0.75 = −3·2⁻²; the
        // least subnormal is 1·2⁻¹⁰⁷⁴.
        assert_eq!(f64_parts(0.0), (0, 0));
        assert_eq!(f64_parts(-0.0), (0, 0));
        assert_eq!(f64_parts(6.0), (3, 1));
        assert_eq!(f64_parts(-0.75), (-3, -2));
        assert_eq!(f64_parts(5e-324), (1, -1074));
    }

    #[test]
    fn from_f64_is_exact() {
        for v in [0.1, -3.5, 5e-324, 1e300, -2.0f64.powi(-1074), f64::MAX, 1.0] {
            assert_eq!(
                Dyadic::from_f64(v).to_rational(),
                BigRational::from_float(v).unwrap()
            );
            let r = Dyadic::from_f64(v)
                .mul_ref(&Dyadic::from_i32(12))
                .to_rational();
            let twelve = BigRational::from_integer(12.into());
            let expected = BigRational::from_float(v).unwrap() * twelve;
            assert_eq!((r.numer(), r.denom()), (expected.numer(), expected.denom()));
        }
    }

    #[test]
    fn arithmetic_matches_rationals() {
        let vals = [0.1, -3.5, 5e-324, 1e300, 7.0, -1e-20];
        for &a in &vals {
            for &b in &vals {
                let (da, db) = (Dyadic::from_f64(a), Dyadic::from_f64(b));
                let (ra, rb) = (da.to_rational(), db.to_rational());
                assert_eq!(da.add_ref(&db).to_rational(), &ra + &rb);
                assert_eq!(da.sub_ref(&db).to_rational(), &ra - &rb);
                assert_eq!(da.mul_ref(&db).to_rational(), &ra * &rb);
                // In lowest terms, as `BigRational`'s own arithmetic leaves it.
                let s = da.sub_ref(&db).to_rational();
                assert_eq!(s.denom(), (&ra - &rb).denom());
            }
        }
    }
}
