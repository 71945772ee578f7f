//! Conversions of the fixed-width integers: to `BigInt`, to signs, to
//! doubles (`n/d·2^p` rounded) and to exact rationals `x·2^p`; and `Ring` for
//! [`Int`], so that the predicates and constructions written against `Ring`
//! run on the exact integers.

use super::{Int, Nat};
use crate::num::ring::Ring;
use crate::num::sign::Sign;
use crate::vector::Vec3;
use num_bigint::{BigInt, BigUint, Sign as BSign};
use num_rational::BigRational;
use num_traits::Zero;

impl Ring for Int {
    fn zero() -> Self {
        Int::from_i128(0)
    }
    fn one() -> Self {
        Int::from_i128(1)
    }
    fn from_i32(v: i32) -> Self {
        Int::from_i128(v as i128)
    }
    #[inline]
    fn add_ref(&self, o: &Self) -> Self {
        self.add(o)
    }
    #[inline]
    fn sub_ref(&self, o: &Self) -> Self {
        self.sub(o)
    }
    #[inline]
    fn mul_ref(&self, o: &Self) -> Self {
        self.mul(o)
    }
    #[inline]
    fn neg_ref(&self) -> Self {
        self.neg()
    }
    #[inline]
    fn abs_ref(&self) -> Self {
        if self.is_neg() {
            self.neg()
        } else {
            *self
        }
    }
}

/// An exact integer as a `BigInt`.
pub(crate) fn to_bigint(x: &Int) -> BigInt {
    let s = if x.is_neg() {
        BSign::Minus
    } else {
        BSign::Plus
    };
    BigInt::from_biguint(s, x.mag().to_biguint())
}

/// The sign of an exact integer.
#[inline]
pub(crate) fn int_sign(x: &Int) -> Sign {
    Sign::from_i32(x.signum())
}

/// `(m, e)` with `|x| ≈ m·2^e`, `m` the top 64 bits of `|x|` (truncated:
/// relative error below 2⁻⁶³), `m = 0` for zero.
fn top_bits(x: &Nat) -> (u64, i64) {
    let b = x.bits();
    if b <= 64 {
        (x.to_u64().unwrap_or(0), 0)
    } else {
        let s = b - 64;
        (x.shr(s).to_u64().unwrap_or(0), s as i64)
    }
}

/// `2^e` for `−1022 ≤ e ≤ 1023`, from its bits.
#[inline]
fn exp2(e: i64) -> f64 {
    f64::from_bits(((e + 1023) as u64) << 52)
}

/// `x·2^e`, applied in steps so that no step overflows or underflows before
/// the last (each step a multiplication by an exact power of two).
pub(crate) fn ldexp(mut x: f64, mut e: i64) -> f64 {
    if (-1000..=1000).contains(&e) {
        return x * exp2(e);
    }
    while e > 1000 {
        x *= exp2(1000);
        e -= 1000;
    }
    while e < -1000 {
        x *= exp2(-1000);
        e += 1000;
    }
    x * exp2(e)
}

/// `n / d · 2^p` rounded to a double (within 3 ulps in the normal range; the
/// last rounding to a subnormal adds at most half the subnormal spacing).
pub(crate) fn ratio_f64(n: &Int, d: &Nat, p: i64) -> f64 {
    let (mn, en) = top_bits(n.mag());
    if mn == 0 {
        return 0.0;
    }
    let (md, ed) = top_bits(d);
    let q = mn as f64 / md as f64;
    let r = ldexp(q, en - ed + p);
    if n.is_neg() {
        -r
    } else {
        r
    }
}

/// The dyadic `x·2^p` in lowest terms (trailing zeros only: no gcd).
pub(crate) fn int_pow2_rational(x: &Int, p: i64) -> BigRational {
    if x.signum() == 0 {
        return <BigRational as Zero>::zero();
    }
    let m = x.mag();
    let t = m.trailing_zeros();
    let e = p + t as i64;
    let s = if x.is_neg() {
        BSign::Minus
    } else {
        BSign::Plus
    };
    if let (Some(v), true) = (m.to_u128(), e <= 0) {
        // The usual case (a vertex): the odd part and the power of two
        // straight from machine words.
        let odd = v >> t;
        let odd = match u64::try_from(odd) {
            Ok(w) => BigUint::from(w),
            Err(_) => BigUint::from(odd),
        };
        return BigRational::new_raw(
            BigInt::from_biguint(s, odd),
            BigInt::from_biguint(BSign::Plus, pow2((-e) as u64)),
        );
    }
    let odd = m.shr(t);
    if e >= 0 {
        BigRational::from_integer(BigInt::from_biguint(s, odd.shl_big(e as u64)))
    } else {
        BigRational::new_raw(
            BigInt::from_biguint(s, odd.to_biguint()),
            BigInt::from_biguint(BSign::Plus, Nat::from_u128(1).shl_big((-e) as u64)),
        )
    }
}

/// `2^k` (one word without a shift of a big number when it fits).
fn pow2(k: u64) -> BigUint {
    if k < 64 {
        BigUint::from(1u64 << k)
    } else if k < 128 {
        BigUint::from(1u128 << k)
    } else {
        BigUint::from(1u32) << k
    }
}

/// A dyadic point `X·2^p`.
pub(crate) fn int_pow2_point(x: &Vec3<Int>, p: i64) -> Vec3<BigRational> {
    Vec3::new(
        int_pow2_rational(&x.x, p),
        int_pow2_rational(&x.y, p),
        int_pow2_rational(&x.z, p),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn int_pow2_and_ratio_conversions() {
        let x = Int::from_i128(-12);
        assert_eq!(
            int_pow2_rational(&x, -3),
            BigRational::new((-3).into(), 2.into())
        );
        assert_eq!(
            int_pow2_rational(&x, 2),
            BigRational::from_integer((-48).into())
        );
        assert_eq!(
            int_pow2_rational(&Int::from_i128(0), 5),
            <BigRational as Zero>::zero()
        );
        let n = Int::from_i128(-(1i128 << 100) - 12345);
        let d = Nat::from_u128(3);
        let got = ratio_f64(&n, &d, -7);
        let want = -((2f64.powi(100) + 12345.0) / 3.0) / 128.0;
        assert!((got - want).abs() <= 4.0 * f64::EPSILON * want.abs());
    }
}
