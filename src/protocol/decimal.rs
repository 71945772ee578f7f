//! Integers in decimal, written straight into an output buffer.
//!
//! Written by hand: num-bigint's `to_str_radix` (and so `Display`) divides
//! through a heap vector of digits, a reversal and a `String` for every
//! integer, and `itoa` stops at 128 bits. Exact answers write a dozen
//! integers of a few hundred bits per line, and that conversion was a fifth of
//! a line's cost.
//!
//! The method: the magnitude's 64-bit limbs are copied to the stack (up to
//! 1024 bits; larger ones to one heap vector) and divided in place by 10¹⁹,
//! one two-limb-by-one division per limb and chunk. 10¹⁹ lies in
//! [2⁶³, 2⁶⁴), so it is already a normalised divisor, and each division is a
//! multiplication by its precomputed reciprocal with at most two corrections
//! (Möller and Granlund, "Improved division by invariant integers", IEEE
//! Trans. Computers 60(2), 2011, Algorithm 4) instead of a hardware 128-bit
//! division. Each 19-digit remainder is turned into ASCII eight digits at a
//! time inside one `u64` (two multiplications by reciprocals of 100 and 10
//! that cannot carry between digit lanes) and placed right to left in a stack
//! buffer, which goes to the output in one copy, the top chunk without its
//! leading zeros. Every step is integer arithmetic: the text is the
//! integer's exact decimal expansion. Magnitudes of at most 128 bits go to
//! `itoa`, which writes only the digits there are.

use num_bigint::{BigInt, BigUint, Sign};
use num_rational::BigRational;
use num_traits::One;

/// 10¹⁹, the largest power of ten below 2⁶⁴.
const TEN19: u64 = 10_000_000_000_000_000_000;

/// The reciprocal of [`TEN19`]: ⌊(2¹²⁸ − 1) / 10¹⁹⌋ − 2⁶⁴ (it fits in 64
/// bits because 10¹⁹ ≥ 2⁶³).
const TEN19_INV: u64 = (u128::MAX / TEN19 as u128 - (1u128 << 64)) as u64;

/// Limbs converted on the stack: 1024 bits, at most 309 digits, 17 chunks.
const STACK_LIMBS: usize = 16;

/// (⌊u / 10¹⁹⌋, u mod 10¹⁹) for u = u1·2⁶⁴ + u0 with u1 < 10¹⁹ (so the
/// quotient fits in 64 bits).
///
/// Möller–Granlund's 2-by-1 division with a precomputed reciprocal v: the
/// candidate quotient ⌊(v + 2⁶⁴)·u1 / 2⁶⁴⌋ + u1 + 1 (from the product's high
/// limb) is at most one too large or one too small, and the remainder taken
/// modulo 2⁶⁴ tells which; the paper proves both corrections suffice.
#[inline]
fn div_ten19(u1: u64, u0: u64) -> (u64, u64) {
    debug_assert!(u1 < TEN19);
    // v·u1 + u1·2⁶⁴ + u0 < 2¹²⁸ since (v + 2⁶⁴)·u1 ≤ (2¹²⁸/d)·(d − 1)
    // = 2¹²⁸ − 2¹²⁸/d and 2¹²⁸/d > 2⁶⁴ > u0.
    let p = TEN19_INV as u128 * u1 as u128 + ((u1 as u128) << 64 | u0 as u128);
    let mut q = ((p >> 64) as u64).wrapping_add(1);
    let low = p as u64;
    let mut r = u0.wrapping_sub(q.wrapping_mul(TEN19));
    if r > low {
        q = q.wrapping_sub(1);
        r = r.wrapping_add(TEN19);
    }
    if r >= TEN19 {
        // Rare (the paper's second correction): a branch, not a select.
        return one_more(q, r);
    }
    (q, r)
}

/// The second correction of [`div_ten19`].
#[cold]
#[inline(never)]
fn one_more(q: u64, r: u64) -> (u64, u64) {
    (q + 1, r - TEN19)
}

/// Eight decimal digits of x < 10⁸, as the ASCII bytes of a little-endian
/// `u64` (the first digit in the lowest byte).
///
/// x splits into two four-digit halves in 32-bit lanes, each half into two
/// two-digit quarters in 16-bit lanes, each quarter into two digits in bytes.
/// The lane quotients are multiplications by reciprocals: for y < 10⁴,
/// ⌊y·10486 / 2²⁰⌋ = ⌊y/100⌋ (the excess y·(10486/2²⁰ − 1/100) < 0.0023 is
/// below the smallest distance 0.01 from y/100 up to the next integer), and
/// for z < 100, ⌊z·103 / 2¹⁰⌋ = ⌊z/10⌋ (excess < 0.059 < 0.1). The products
/// stay inside their lane (y·10486 < 2²⁷, z·103 < 2¹⁴), and the masks keep
/// the quotient's bits (< 2⁷, < 2⁴) clear of the next lane's shifted bits
/// (which start at bit 12 and 6).
#[inline]
fn eight_digits(x: u32) -> u64 {
    debug_assert!(x < 100_000_000);
    let v = (x / 10_000) as u64 | ((x % 10_000) as u64) << 32;
    let hundreds = ((v * 10_486) >> 20) & 0x0000_007f_0000_007f;
    let quarters = hundreds | (v - hundreds * 100) << 16;
    let tens = ((quarters * 103) >> 10) & 0x000f_000f_000f_000f;
    let digits = tens | (quarters - tens * 10) << 8;
    digits | 0x3030_3030_3030_3030
}

/// The 19 decimal digits of c < 10¹⁹, leading zeros included.
#[inline]
fn nineteen_digits(c: u64) -> [u8; 19] {
    debug_assert!(c < TEN19);
    const TEN8: u64 = 100_000_000;
    let top = (c / (TEN8 * TEN8)) as u32; // < 1000
    let low = c % (TEN8 * TEN8);
    let mut b = [0u8; 19];
    b[0] = b'0' + (top / 100) as u8;
    b[1] = b'0' + (top / 10 % 10) as u8;
    b[2] = b'0' + (top % 10) as u8;
    b[3..11].copy_from_slice(&eight_digits((low / TEN8) as u32).to_le_bytes());
    b[11..].copy_from_slice(&eight_digits((low % TEN8) as u32).to_le_bytes());
    b
}

/// The decimal digits of the number in `limbs` (least significant first, the
/// top one nonzero), written at the end of `text`; returns where they start.
///
/// The limbs are divided by 10¹⁹ until nothing is left, each remainder
/// written as 19 digits right to left; the top one's leading zeros are then
/// left out. `text` must hold all the chunks (19 bytes each).
fn digits_into(limbs: &mut [u64], text: &mut [u8]) -> usize {
    let mut len = limbs.len();
    let mut end = text.len();
    loop {
        let mut rem = 0u64;
        for limb in limbs[..len].iter_mut().rev() {
            let (q, r) = div_ten19(rem, *limb);
            *limb = q;
            rem = r;
        }
        end -= 19;
        text[end..end + 19].copy_from_slice(&nineteen_digits(rem));
        // Dividing by 10¹⁹ < 2⁶⁴ shortens the number by at most one limb.
        if limbs[len - 1] == 0 {
            len -= 1;
            if len == 0 {
                // The last remainder is the whole (nonzero) value left.
                let lead = rem.checked_ilog10().map_or(1, |l| l as usize + 1);
                return end + 19 - lead;
            }
        }
    }
}

/// A natural number in decimal, as `Display` writes it.
pub(crate) fn write_nat(out: &mut Vec<u8>, m: &BigUint) {
    let mut digits = m.iter_u64_digits();
    let len = digits.len();
    if len <= 2 {
        // Up to 128 bits `itoa`'s u128 path is the cheaper one: it writes
        // only the digits there are (about 900 fewer instructions per line
        // than 19-digit chunks on `tri_tri_intersect`, whose
        // numbers are short).
        let lo = digits.next().unwrap_or(0) as u128;
        let hi = digits.next().unwrap_or(0) as u128;
        out.extend_from_slice(itoa::Buffer::new().format(hi << 64 | lo).as_bytes());
    } else if len <= STACK_LIMBS {
        let mut limbs = [0u64; STACK_LIMBS];
        for (l, d) in limbs.iter_mut().zip(digits) {
            *l = d;
        }
        // At most 17 chunks: 2¹⁰²⁴ has 309 digits.
        let mut text = [0u8; 19 * (STACK_LIMBS + 1)];
        let start = digits_into(&mut limbs[..len], &mut text);
        out.extend_from_slice(&text[start..]);
    } else {
        let mut limbs: Vec<u64> = digits.collect();
        // len limbs have at most ⌊64·len·log₁₀2⌋ + 1 < 19.27·len + 1 digits,
        // fewer than len + len/32 + 2 chunks.
        let mut text = vec![0u8; 19 * (len + len / 32 + 2)];
        let start = digits_into(&mut limbs, &mut text);
        out.extend_from_slice(&text[start..]);
    }
}

/// An integer in decimal, as `Display` writes it.
pub(crate) fn write_int(out: &mut Vec<u8>, n: &BigInt) {
    if n.sign() == Sign::Minus {
        out.push(b'-');
    }
    write_nat(out, n.magnitude());
}

/// An integer's decimal text, as `to_string` makes it.
pub(crate) fn int_string(n: &BigInt) -> String {
    let mut out = Vec::new();
    write_int(&mut out, n);
    // Only ASCII digits and '-' were written.
    String::from_utf8(out).unwrap_or_default()
}

/// A rational as `Display` writes a reduced `BigRational`: `n`, or `n/d`
/// when the denominator is not 1 (no quotes).
pub(crate) fn write_exact_digits(out: &mut Vec<u8>, r: &BigRational) {
    write_int(out, r.numer());
    if !r.denom().is_one() {
        out.push(b'/');
        write_int(out, r.denom());
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use num_traits::{Pow, Zero};
    use proptest::prelude::*;

    fn text(n: &BigInt) -> String {
        let mut out = b"x".to_vec();
        write_int(&mut out, n);
        assert_eq!(out[0], b'x', "writes after what is there");
        String::from_utf8(out[1..].to_vec()).unwrap()
    }

    /// The reciprocal division equals `u128` division, on the extremes of
    /// both limbs and on a pseudo-random sweep.
    #[test]
    fn div_ten19_is_division() {
        let check = |u1: u64, u0: u64| {
            let u = (u1 as u128) << 64 | u0 as u128;
            let want = ((u / TEN19 as u128) as u64, (u % TEN19 as u128) as u64);
            assert_eq!(div_ten19(u1, u0), want, "{u1} {u0}");
        };
        let edges = [0, 1, 2, TEN19 / 2, TEN19 - 2, TEN19 - 1];
        let lows = [0, 1, TEN19 - 1, TEN19, TEN19 + 1, u64::MAX - 1, u64::MAX];
        for &u1 in &edges {
            for &u0 in &lows {
                check(u1, u0);
            }
        }
        // Inputs that take the second correction (`one_more`; found by
        // running the algorithm on random inputs outside the program, about
        // one in 19,000).
        check(9_443_391_404_544_877_980, 18_434_464_838_440_772_485);
        check(9_996_495_421_046_545_653, 18_150_718_620_628_027_899);
        check(9_878_688_000_699_061_400, 18_163_098_614_498_518_574);
        let mut s = 0x9e37_79b9_7f4a_7c15u64;
        for _ in 0..200_000 {
            s ^= s << 13;
            s ^= s >> 7;
            s ^= s << 17;
            let u1 = s % TEN19;
            s ^= s << 13;
            s ^= s >> 7;
            s ^= s << 17;
            check(u1, s);
            // Exact multiples of 10¹⁹ and their neighbours.
            let m = u1 as u128 * TEN19 as u128;
            let hi = |x: u128| ((x >> 64) as u64, x as u64);
            for x in [m, m + 1, m.wrapping_sub(1), m + TEN19 as u128 - 1] {
                let (a, b) = hi(x);
                if a < TEN19 {
                    check(a, b);
                }
            }
        }
    }

    /// Every four-digit value in each lane of `eight_digits` comes out as
    /// its digits (worked by `format!`), with the other lane varying.
    #[test]
    fn eight_digits_every_lane_value() {
        for y in 0..10_000u32 {
            let z = y * 7919 % 10_000;
            for x in [y * 10_000 + z, z * 10_000 + y, y * 10_000 + 9999, y] {
                let got = eight_digits(x).to_le_bytes();
                assert_eq!(std::str::from_utf8(&got).unwrap(), format!("{x:08}"));
            }
        }
    }

    #[test]
    fn u64_values() {
        for x in [0, 1, 9, 10, 99, 100, TEN19 - 1, TEN19, TEN19 + 1, u64::MAX] {
            let mut out = Vec::new();
            write_nat(&mut out, &BigUint::from(x));
            assert_eq!(String::from_utf8(out).unwrap(), x.to_string());
        }
        for k in 0..20u32 {
            let p = 10u64.pow(k);
            for x in [p - 1, p, p + 1] {
                let mut out = Vec::new();
                write_nat(&mut out, &BigUint::from(x));
                assert_eq!(String::from_utf8(out).unwrap(), x.to_string());
            }
        }
    }

    /// 0, ±1, 10ᵏ − 1, 10ᵏ, 10ᵏ + 1, 2⁶⁴ᵏ and 2⁶⁴ᵏ ± 1 up to past the stack
    /// limit, and all-ones magnitudes, against num-bigint's `Display`.
    #[test]
    fn boundaries_are_display() {
        let mut cases = vec![BigInt::zero(), BigInt::one(), -BigInt::one()];
        let ten = BigInt::from(10);
        for k in 0..=700u32 {
            let p: BigInt = Pow::pow(&ten, k);
            cases.extend([&p - 1, p.clone(), &p + 1]);
        }
        for k in 1..=40usize {
            let p = BigInt::one() << (64 * k);
            cases.extend([&p - 1, p.clone(), &p + 1]);
        }
        for bits in [1000usize, 1023, 1024, 1025, 2048, 5000] {
            cases.push((BigInt::one() << bits) - 1);
        }
        for n in cases {
            assert_eq!(text(&n), n.to_string());
            assert_eq!(text(&-&n), (-&n).to_string());
            assert_eq!(int_string(&n), n.to_string());
        }
    }

    /// An integer of any size from 0 to 80 random 64-bit limbs (so on both
    /// the stack and the heap path), either sign.
    fn any_int() -> impl Strategy<Value = BigInt> {
        (
            any::<bool>(),
            prop::collection::vec(any::<u64>(), 0..80),
            0u32..64,
        )
            .prop_map(|(neg, limbs, shift)| {
                let mag = BigUint::from_slice(
                    &limbs
                        .iter()
                        .flat_map(|&l| [l as u32, (l >> 32) as u32])
                        .collect::<Vec<_>>(),
                ) >> shift;
                let n = BigInt::from(mag);
                if neg {
                    -n
                } else {
                    n
                }
            })
    }

    /// Rationals as `BigRational`'s `Display` writes them (integers without
    /// "/1", negative numerators).
    #[test]
    fn rationals_are_display() {
        let big = BigInt::from(TEN19) * BigInt::from(u64::MAX) + 17;
        for (n, d) in [(0, 1), (3, 1), (-3, 1), (1, 3), (-7, 12), (6, 4)] {
            let r = BigRational::new(BigInt::from(n), BigInt::from(d));
            for r in [r.clone(), r.clone() * &big, r / &big] {
                let mut out = Vec::new();
                write_exact_digits(&mut out, &r);
                assert_eq!(String::from_utf8(out).unwrap(), r.to_string());
            }
        }
    }

    proptest! {
        #[test]
        fn write_int_is_display(n in any_int()) {
            prop_assert_eq!(text(&n), n.to_string());
        }

        /// Values near a power of ten, where chunks are all zeros or all
        /// nines.
        #[test]
        fn near_powers_of_ten(k in 0u32..400, d in -1000i64..1000) {
            let n: BigInt = Pow::pow(&BigInt::from(10), k) + d;
            prop_assert_eq!(text(&n), n.to_string());
        }
    }
}
