//! The coplanarity cubic's exact coefficients for narrow coordinates: every
//! aligned coordinate at most [`NARROW_BITS`] wide (all of the CCD benchmark's
//! queries), in `i128` differences and 384-bit two's-complement sums, on the
//! stack.
//!
//! [`crate::fixed::Int`] holds 768 bits in every value, and copying and
//! clearing them dominated the cubic's cost (≈ 21k instructions a query);
//! here a difference is one `i128` and a product of three lives in six words.
//! The bounds: a coordinate below 2¹²⁰ gives differences (and differences of
//! differences) below 2¹²², a cross product component below 2²⁴⁵, a product of
//! three below 2³⁶⁷ and a sum of nine such products below 2³⁷¹ < 2³⁸³.

use num_bigint::{BigInt, BigUint, Sign};

/// The widest aligned coordinate (bits) this path takes.
pub(crate) const NARROW_BITS: i64 = 120;

/// A signed integer below 2³⁸³ in magnitude, two's complement, little-endian words.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct W([u64; 6]);

impl W {
    fn is_neg(&self) -> bool {
        (self.0[5] as i64) < 0
    }

    pub(crate) fn add(&self, o: &W) -> W {
        let mut r = [0u64; 6];
        let mut carry = false;
        for (i, r) in r.iter_mut().enumerate() {
            let (s, c1) = self.0[i].overflowing_add(o.0[i]);
            let (s, c2) = s.overflowing_add(carry as u64);
            *r = s;
            carry = c1 || c2;
        }
        W(r)
    }

    fn neg(&self) -> W {
        let mut r = [0u64; 6];
        for (r, x) in r.iter_mut().zip(self.0) {
            *r = !x;
        }
        W(r).add(&W([1, 0, 0, 0, 0, 0]))
    }

    pub(crate) fn sub(&self, o: &W) -> W {
        self.add(&o.neg())
    }

    /// The magnitude's words and the sign.
    fn magnitude(&self) -> ([u64; 6], bool) {
        if self.is_neg() {
            (self.neg().0, true)
        } else {
            (self.0, false)
        }
    }

    /// ±(the product of the magnitudes `a` (words) and `b` (two words)).
    fn from_product(a: &[u64], b: u128, neg: bool) -> W {
        let bw = [b as u64, (b >> 64) as u64];
        let mut r = [0u64; 6];
        for (i, &x) in a.iter().enumerate() {
            let mut carry = 0u128;
            for (j, &y) in bw.iter().enumerate() {
                let t = u128::from(x) * u128::from(y) + u128::from(r[i + j]) + carry;
                r[i + j] = t as u64;
                carry = t >> 64;
            }
            r[i + 2] = carry as u64;
        }
        let w = W(r);
        if neg {
            w.neg()
        } else {
            w
        }
    }

    /// a·b exactly.
    pub(crate) fn mul_i128(a: i128, b: i128) -> W {
        let ua = a.unsigned_abs();
        W::from_product(
            &[ua as u64, (ua >> 64) as u64],
            b.unsigned_abs(),
            (a < 0) != (b < 0),
        )
    }

    /// self·b exactly, for |self| < 2²⁵⁶ (a product of two `i128`s or a sum of two).
    pub(crate) fn mul(&self, b: i128) -> W {
        let (m, neg) = self.magnitude();
        debug_assert!(m[4] == 0 && m[5] == 0, "operand beyond 256 bits");
        W::from_product(&m[..4], b.unsigned_abs(), neg != (b < 0))
    }

    pub(crate) fn to_bigint(self) -> BigInt {
        let (m, neg) = self.magnitude();
        let digits: Vec<u32> = m
            .iter()
            .flat_map(|&w| [w as u32, (w >> 32) as u32])
            .collect();
        let mag = BigUint::new(digits);
        BigInt::from_biguint(if neg { Sign::Minus } else { Sign::Plus }, mag)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Products and sums agree with `BigInt` arithmetic on values at the
    /// bounds (±(2¹²² − 1), powers of two, mixed signs).
    #[test]
    fn products_and_sums_match_bigint() {
        let mut s = 0x1234_5678_9abc_def0u64;
        let mut next = || {
            s ^= s << 13;
            s ^= s >> 7;
            s ^= s << 17;
            s
        };
        let big = |x: i128| BigInt::from(x);
        for k in 0..2000 {
            let mut v = |k: u64| -> i128 {
                let raw = (i128::from(next()) << 64 | i128::from(next())) >> (6 + k % 120);
                match k % 7 {
                    0 => (1i128 << 122) - 1,
                    1 => -((1i128 << 122) - 1),
                    2 => 1i128 << (k % 122),
                    _ => raw,
                }
            };
            let (a, b, c, d) = (v(k), v(k / 3), v(k / 5), v(k / 7));
            let ab = W::mul_i128(a, b);
            assert_eq!(ab.to_bigint(), big(a) * big(b));
            let x = ab.sub(&W::mul_i128(c, d));
            assert_eq!(x.to_bigint(), big(a) * big(b) - big(c) * big(d));
            let y = x.mul(a).add(&x.mul(c)).add(&x.mul(-b));
            let xb = big(a) * big(b) - big(c) * big(d);
            assert_eq!(y.to_bigint(), &xb * big(a) + &xb * big(c) - &xb * big(b));
        }
        assert_eq!(W::mul_i128(0, -5).to_bigint(), BigInt::from(0));
    }
}
