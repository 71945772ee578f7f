//! The coplanarity cubic's exact coefficients for narrow coordinates: every
//! aligned coordinate at most [`NARROW_BITS`] wide (all of the CCD benchmark's
//! queries), in `i128` differences and 384-bit two's-complement sums, on the
//! stack.
//!
//! [`crate::num::fixed::Int`] holds 768 bits in every value, and copying and
//! clearing them dominated the cubic's cost (≈ 21k instructions a query);
//! here a difference is one `i128` and a product of three lives in six words.
//! The bounds: a coordinate below 2¹²⁰ gives differences (and differences of
//! differences) below 2¹²², a cross product component below 2²⁴⁵, a product of
//! three below 2³⁶⁷ and a sum of nine such products below 2³⁷¹ < 2³⁸³.

/// The widest aligned coordinate (bits) this path takes.
pub(crate) const NARROW_BITS: i64 = 120;

/// A signed integer below 2³⁸³ in magnitude: six words hold a product of
/// three differences and a sum of nine of them.
pub(crate) type W = crate::num::wide::Wide<6>;

#[cfg(test)]
mod tests {
    use super::*;
    use num_bigint::BigInt;

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
            let y = x
                .mul_by_i128(a)
                .add(&x.mul_by_i128(c))
                .add(&x.mul_by_i128(-b));
            let xb = big(a) * big(b) - big(c) * big(d);
            assert_eq!(y.to_bigint(), &xb * big(a) + &xb * big(c) - &xb * big(b));
        }
        assert_eq!(W::mul_i128(0, -5).to_bigint(), BigInt::from(0));
    }
}
