//! `Dyadic`: exact arithmetic on m·2^e, the exact fallback for float inputs.
//!
//! Every finite f32/f64 is a dyadic rational, and dyadic rationals are closed under
//! +, −, ×, so a predicate on float inputs can be evaluated exactly without a single
//! gcd: products multiply mantissas and add exponents, sums shift the operand with
//! the larger exponent left before adding.
//!
//! The way back, [`exact_f64`], is the test every float-guided path of rational
//! inputs starts with: a rational is taken as a double only when it is one.

use crate::num::ring::Ring;
use crate::num::sign::Sign;
use num_bigint::BigInt;
use num_rational::BigRational;
use num_traits::{One, Signed, ToPrimitive, Zero};

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

/// `x` as a double if it is one exactly (a power-of-two denominator and a
/// numerator of at most 53 significant bits) in the normal range (or zero).
///
/// ```
/// use exact_collision::num::dyadic::exact_f64;
/// use num_rational::BigRational;
/// assert_eq!(exact_f64(&BigRational::new(3.into(), 8.into())), Some(0.375));
/// assert_eq!(exact_f64(&BigRational::new(1.into(), 10.into())), None);
/// ```
pub fn exact_f64(x: &BigRational) -> Option<f64> {
    let (n, d) = (x.numer(), x.denom());
    if n.is_zero() {
        return Some(0.0);
    }
    if let (Some(v), Some(dv)) = (n.to_i64(), d.to_u128()) {
        // Machine integers (most inputs): v/2ᵏ with k ≤ 127 is a normal double
        // iff v's odd part has at most 53 bits; the product is then exact.
        if !dv.is_power_of_two() {
            return None;
        }
        let odd = v >> v.trailing_zeros();
        if 64 - odd.unsigned_abs().leading_zeros() > 53 {
            return None;
        }
        let k = i64::from(dv.trailing_zeros());
        return Some(v as f64 * f64::from_bits(((1023 - k) as u64) << 52));
    }
    let dz = d.trailing_zeros()?;
    if d.bits() != dz + 1 {
        return None;
    }
    // The numerator's odd part and its power of two; in machine integers when
    // it fits an i64 (the usual case), which saves a big shift.
    let (nz, odd, bits) = match n.to_i64() {
        Some(v) => {
            let z = v.trailing_zeros();
            let odd = v >> z;
            (
                z as u64,
                odd,
                (64 - odd.unsigned_abs().leading_zeros()) as u64,
            )
        }
        None => {
            let nz = n.trailing_zeros()?;
            let odd = n >> nz;
            if odd.bits() > 53 {
                return None;
            }
            (nz, odd.to_i64()?, odd.bits())
        }
    };
    if bits > 53 {
        return None;
    }
    let e = nz as i64 - dz as i64;
    if !(-1022..=1023).contains(&(e + bits as i64 - 1)) {
        return None;
    }
    let m = odd as f64; // exact: at most 53 bits
                        // m·2^e with e split in two steps, each an exact power of two.
    let (e1, e2) = (e / 2, e - e / 2);
    let pow = |k: i64| f64::from_bits(((1023 + k) as u64) << 52);
    Some(m * pow(e1) * pow(e2))
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

    /// The mantissa and the exponent: the value is `mantissa · 2^exp` (the
    /// mantissa need not be odd).
    pub(crate) fn parts(&self) -> (&BigInt, i64) {
        (&self.mantissa, self.exp)
    }

    /// `mantissa · 2^exp`.
    pub(crate) fn from_parts(mantissa: BigInt, exp: i64) -> Dyadic {
        Dyadic { mantissa, exp }
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

    /// `exact_f64` returns a double's own value for every normal double built
    /// from its bits (extreme exponents, numerators that fit an i64 and ones
    /// that do not), `None` for subnormals (outside its documented range) and
    /// for rationals no double equals.
    #[test]
    fn exact_f64_recovers_doubles_and_rejects_the_rest() {
        use crate::Scalar;
        let mut seed = 0x853c49e6748fea9bu64;
        for k in 0..4000 {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            let x = match k % 4 {
                0 => f64::from_bits(seed),
                1 => f64::from_bits(seed & 0x800f_ffff_ffff_ffff), // subnormal or zero
                2 => f64::from_bits(seed & 0xc3ff_ffff_ffff_ffff), // |x| < 2^64 or tiny
                _ => (seed as i64 >> (seed % 64)) as f64,
            };
            if !x.is_finite() {
                continue;
            }
            let r = x.to_rational();
            // Doubles of the normal range (and zero) come back; subnormals are
            // outside what `exact_f64` accepts.
            let want = (x == 0.0 || x.is_normal()).then_some((x + 0.0).to_bits());
            assert_eq!(exact_f64(&r).map(f64::to_bits), want, "{x:e}");
            // x = m·2^e; x + 2^(e-60) = (m·2^60 + 1)·2^(e-60) has an odd
            // numerator of more than 53 bits: no double.
            if x != 0.0 {
                let (_, e) = f64_parts(x);
                let k = e - 60;
                let one = BigInt::from(1);
                let tiny = if k >= 0 {
                    BigRational::from_integer(one << k as u64)
                } else {
                    BigRational::new(one.clone(), one << (-k) as u64)
                };
                assert_eq!(exact_f64(&(r + tiny)), None, "{x:e} + tiny");
            }
        }
        let two = BigRational::from_integer(2.into());
        assert_eq!(exact_f64(&num_traits::pow(two.clone(), 1024)), None);
        assert_eq!(exact_f64(&num_traits::pow(two.recip(), 1075)), None);
        assert_eq!(exact_f64(&num_traits::pow(two.recip(), 1074)), None);
        assert_eq!(
            exact_f64(&num_traits::pow(two.recip(), 1022)),
            Some(f64::MIN_POSITIVE)
        );
        assert_eq!(
            exact_f64(&BigRational::from_integer(((1i64 << 53) + 1).into())),
            None
        );
        assert_eq!(
            exact_f64(&BigRational::from_integer(i64::MIN.into())),
            Some(-(2f64.powi(63)))
        );
    }

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
