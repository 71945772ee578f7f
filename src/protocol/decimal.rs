//! Integers in decimal, written straight into an output buffer.
//!
//! Written by hand: num-bigint's `to_str_radix` (and so `Display`) divides
//! through a heap vector of digits, a reversal and a `String` for every
//! integer, and `itoa` stops at 128 bits. Exact answers write a dozen
//! integers of a few hundred bits per line, and that conversion was a fifth of
//! a line's cost.
//!
//! The method: the magnitude's 64-bit limbs are copied to the stack (up to
//! 1024 bits; larger ones to one heap vector) and turned into base-10¹⁹
//! digits ("chunks") by dividing them in place by 10¹⁹, twice per sweep over
//! the limbs (the second division works on the first one's quotient limbs as
//! they come out), one two-limb-by-one division per limb and chunk. 10¹⁹ lies
//! in [2⁶³, 2⁶⁴), so it is already a normalised divisor, and each division
//! is a multiplication by its precomputed reciprocal with at most two
//! corrections (Möller and Granlund, "Improved division by invariant
//! integers", IEEE Trans. Computers 60(2), 2011, Algorithm 4) instead of a
//! hardware 128-bit division. The top chunk goes out through `itoa` (only
//! the digits there are); every other chunk is written as 19 digits, the top
//! three from a table and the other sixteen by multiplications by
//! reciprocals of 10⁴, 100 and 10 in SSE2 vector lanes (on x86-64; two
//! `u64` lanes elsewhere). Every step is integer arithmetic: the text is the
//! integer's exact decimal expansion. Magnitudes of at most 128 bits go to
//! `itoa`.

use crate::num::fixed::{FixedRational, Nat, L};
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
    // The sum in two limbs (u128 additions compile to worse code here).
    let vu = TEN19_INV as u128 * u1 as u128;
    let (low, carry) = (vu as u64).overflowing_add(u0);
    let high = (vu >> 64) as u64 + u1 + carry as u64;
    let mut q = high.wrapping_add(1);
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
#[cfg_attr(all(target_arch = "x86_64", target_feature = "sse2"), allow(dead_code))]
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

/// The 16 decimal digits of x < 10¹⁶, leading zeros included, with SSE2
/// (part of every x86-64 processor): the SWAR steps of [`eight_digits`] on
/// both halves at once, in vector lanes.
///
/// x = h·10⁸ + l, and h and l sit in the two 64-bit lanes. In each a
/// multiplication by ⌈2⁴⁵/10⁴⌉ = 0xd1b71759 and a shift give the top four
/// digits ⌊y/10⁴⌋ (exact for y < 10⁸: the excess y·(0xd1b71759/2⁴⁵ − 1/10⁴)
/// < 10⁸·3.4·10⁻¹⁵ is below the distance 10⁻⁴ from a non-integer y/10⁴ up to
/// the next integer), and the subtraction leaves the bottom four; the four
/// groups g < 10⁴ go to 32-bit lanes, most significant first in memory
/// order. Each group splits into ⌊g/100⌋ and g mod 100 in 16-bit lanes:
/// ⌊⌊g·5243/2¹⁶⌋/2³⌋ = ⌊g·5243/2¹⁹⌋ = ⌊g/100⌋ (excess < 10⁴·2.3·10⁻⁷ =
/// 0.0023 < 0.01). Each pair p < 100 splits into ⌊p/10⌋ and p mod 10 in
/// bytes: ⌊p·6554/2¹⁶⌋ = ⌊p/10⌋ (excess < 100·6.2·10⁻⁶ < 0.1). The quotient
/// is the lower, leading, half of each lane and the remainder times 2¹⁶ or
/// 2⁸ lands in the upper half, which was zero (values < 2¹⁶, < 2⁸). Every
/// lane operation is an exact integer operation: the tests check all
/// 10⁴ values in each group (`sixteen_digits_every_group`).
#[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
#[inline]
fn sixteen_digits(x: u64) -> [u8; 16] {
    // SAFETY: the intrinsics need SSE2, which this build targets (the cfg
    // above); they read and write no memory.
    unsafe { sixteen_digits_sse2(x) }
}

/// [`sixteen_digits`] with SSE2 enabled for the intrinsics.
#[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
#[target_feature(enable = "sse2")]
fn sixteen_digits_sse2(x: u64) -> [u8; 16] {
    use core::arch::x86_64::*;
    debug_assert!(x < 10_000_000_000_000_000);
    const TEN8: u64 = 100_000_000;
    // 32-bit lanes [h, 0, l, 0].
    let v = _mm_set_epi64x((x % TEN8) as i64, (x / TEN8) as i64);
    let top = _mm_srli_epi64(_mm_mul_epu32(v, _mm_set1_epi32(0xd1b7_1759u32 as i32)), 45);
    let bottom = _mm_sub_epi32(v, _mm_mul_epu32(top, _mm_set1_epi32(10_000)));
    // 32-bit lanes [⌊h/10⁴⌋, h mod 10⁴, ⌊l/10⁴⌋, l mod 10⁴].
    let groups = _mm_or_si128(top, _mm_slli_epi64(bottom, 32));
    let hundreds = _mm_srli_epi16(_mm_mulhi_epu16(groups, _mm_set1_epi16(5243)), 3);
    let rest = _mm_sub_epi16(groups, _mm_mullo_epi16(hundreds, _mm_set1_epi16(100)));
    let pairs = _mm_or_si128(hundreds, _mm_slli_epi32(rest, 16));
    let tens = _mm_mulhi_epu16(pairs, _mm_set1_epi16(6554));
    let ones = _mm_sub_epi16(pairs, _mm_mullo_epi16(tens, _mm_set1_epi16(10)));
    let digits = _mm_or_si128(tens, _mm_slli_epi16(ones, 8));
    let text = _mm_add_epi8(digits, _mm_set1_epi8(b'0' as i8));
    let first = _mm_cvtsi128_si64(text) as u64;
    let second = _mm_cvtsi128_si64(_mm_unpackhi_epi64(text, text)) as u64;
    let mut b = [0u8; 16];
    b[..8].copy_from_slice(&first.to_le_bytes());
    b[8..].copy_from_slice(&second.to_le_bytes());
    b
}

/// The 16 decimal digits of x < 10¹⁶, leading zeros included, without SSE2.
#[cfg(not(all(target_arch = "x86_64", target_feature = "sse2")))]
#[inline]
fn sixteen_digits(x: u64) -> [u8; 16] {
    sixteen_digits_swar(x)
}

/// The 16 decimal digits of x < 10¹⁶ as two [`eight_digits`] (the method
/// where SSE2 is missing; compiled everywhere so that the tests check it).
#[cfg_attr(all(target_arch = "x86_64", target_feature = "sse2"), allow(dead_code))]
#[inline]
fn sixteen_digits_swar(x: u64) -> [u8; 16] {
    const TEN8: u64 = 100_000_000;
    let mut b = [0u8; 16];
    b[..8].copy_from_slice(&eight_digits((x / TEN8) as u32).to_le_bytes());
    b[8..].copy_from_slice(&eight_digits((x % TEN8) as u32).to_le_bytes());
    b
}

/// The three decimal digits of every t < 1000, leading zeros included
/// (worked out at compile time by division).
static THREE_DIGITS: [[u8; 3]; 1000] = {
    let mut t = [[0u8; 3]; 1000];
    let mut i = 0;
    while i < 1000 {
        t[i] = [
            b'0' + (i / 100) as u8,
            b'0' + (i / 10 % 10) as u8,
            b'0' + (i % 10) as u8,
        ];
        i += 1;
    }
    t
};

/// The 19 decimal digits of c < 10¹⁹, leading zeros included.
#[inline]
fn nineteen_digits(c: u64) -> [u8; 19] {
    debug_assert!(c < TEN19);
    const TEN16: u64 = 10_000_000_000_000_000;
    let mut b = [0u8; 19];
    // c < 10¹⁹, so c / 10¹⁶ < 1000.
    b[..3].copy_from_slice(&THREE_DIGITS[(c / TEN16) as usize]);
    b[3..].copy_from_slice(&sixteen_digits(c % TEN16));
    b
}

/// The base-10¹⁹ digits ("chunks") of the number in `limbs` (least
/// significant first, the top one nonzero), least significant first, into
/// `chunks`; returns how many there are. `limbs` is used up.
///
/// Each sweep over the limbs, from the top down, divides by 10¹⁹ twice: the
/// number N by 10¹⁹ (quotient q, remainder r₁), and, as each limb of q comes
/// out, q by 10¹⁹ (quotient q′, remainder r₂), one two-by-one division each
/// per limb. Then N = q′·10³⁸ + r₂·10¹⁹ + r₁: r₁ and r₂ are the next two
/// chunks and q′ is left in the limbs.
///
/// A top limb t needs no division: 2⁶⁴ < 2·10¹⁹, so ⌊t/10¹⁹⌋ is 0 or 1.
/// Below 10¹⁹, t is the remainder going into the next limb and the quotient
/// is one limb shorter; otherwise the quotient's top limb is 1 and the
/// remainder t − 10¹⁹. The invariant is that the top limb is nonzero: a top
/// limb at least 10¹⁹ has quotient 1; one taken as the remainder (≥ 1)
/// makes the next limb's quotient ⌊(rem·2⁶⁴ + limb)/10¹⁹⌋ ≥ ⌊2⁶⁴/10¹⁹⌋ = 1.
/// So q and q′ have nonzero top limbs or are empty (zero); when q is zero,
/// r₁ is the last chunk, and when q′ is zero, r₂ = q ≥ 1 is. The last chunk
/// is nonzero. Every chunk written is one of the number's (two are written
/// only when q is not zero), so `chunks` needs room for the number's chunks
/// and no more: a number of at most 19·k digits has at most k.
fn chunks_of(limbs: &mut [u64], chunks: &mut [u64]) -> usize {
    let mut len = limbs.len();
    let mut k = 0;
    while len > 0 {
        // N = limbs[..len], q has `n` limbs, q′ `m`; limbs[..i] are still to
        // be divided at both levels.
        let top = limbs[len - 1];
        let (mut r1, mut r2, n, m, i);
        if top >= TEN19 {
            // q's top limb is 1, below 10¹⁹: the remainder r₂ starts at 1.
            (r1, r2, n, m, i) = (top - TEN19, 1, len, len - 1, len - 1);
        } else if len == 1 {
            chunks[k] = top;
            return k + 1;
        } else {
            n = len - 1;
            let (q, r) = div_ten19(top, limbs[n - 1]);
            r1 = r;
            i = n - 1;
            if q >= TEN19 {
                (r2, m) = (q - TEN19, n);
                limbs[n - 1] = 1;
            } else {
                (r2, m) = (q, n - 1);
            }
        }
        for limb in limbs[..i].iter_mut().rev() {
            let (q, r) = div_ten19(r1, *limb);
            r1 = r;
            let (q2, r) = div_ten19(r2, q);
            r2 = r;
            *limb = q2;
        }
        chunks[k] = r1;
        chunks[k + 1] = r2;
        k += 2;
        debug_assert!(m <= n && n <= len);
        len = m;
    }
    k
}

/// The number whose base-10¹⁹ digits are `chunks` (least significant first,
/// the last one nonzero), in decimal: the top chunk without leading zeros,
/// every other one as 19 digits.
fn write_chunks(out: &mut Vec<u8>, chunks: &[u64]) {
    let Some((&top, rest)) = chunks.split_last() else {
        return;
    };
    out.reserve(19 * chunks.len());
    out.extend_from_slice(itoa::Buffer::new().format(top).as_bytes());
    for &c in rest.iter().rev() {
        out.extend_from_slice(&nineteen_digits(c));
    }
}

/// A number of at most `N` limbs, whose chunks fit in `C`, converted in
/// arrays on the stack.
#[inline(always)]
fn write_on_stack<const N: usize, const C: usize>(
    out: &mut Vec<u8>,
    digits: impl ExactSizeIterator<Item = u64>,
) {
    let len = digits.len();
    let mut limbs = [0u64; N];
    for (l, d) in limbs.iter_mut().zip(digits) {
        *l = d;
    }
    let mut chunks = [0u64; C];
    let k = chunks_of(&mut limbs[..len], &mut chunks);
    write_chunks(out, &chunks[..k]);
}

/// A natural number in decimal, as `Display` writes it.
pub(crate) fn write_nat(out: &mut Vec<u8>, m: &BigUint) {
    write_limbs(out, m.iter_u64_digits());
}

/// The natural number of the 64-bit limbs `digits` (least significant
/// first, the top one nonzero; none for zero) in decimal, as `Display`
/// writes it.
pub(crate) fn write_limbs(out: &mut Vec<u8>, mut digits: impl ExactSizeIterator<Item = u64>) {
    let len = digits.len();
    if len <= 2 {
        // Up to 128 bits `itoa`'s u128 path is the cheaper one: it writes
        // only the digits there are (about 900 fewer instructions per line
        // than 19-digit chunks on `tri_tri_intersect`, whose
        // numbers are short).
        let lo = digits.next().unwrap_or(0) as u128;
        let hi = digits.next().unwrap_or(0) as u128;
        out.extend_from_slice(itoa::Buffer::new().format(hi << 64 | lo).as_bytes());
    } else if len <= 8 {
        // Most exact answers' integers: arrays small enough to be cleared
        // in a few stores. At most 9 chunks: 2⁵¹² has 155 digits.
        write_on_stack::<8, 9>(out, digits);
    } else if len <= STACK_LIMBS {
        // At most 17 chunks: 2¹⁰²⁴ has 309 digits.
        write_on_stack::<STACK_LIMBS, { STACK_LIMBS + 1 }>(out, digits);
    } else {
        let mut limbs: Vec<u64> = digits.collect();
        // len limbs have at most ⌊64·len·log₁₀2⌋ + 1 < 19.27·len + 1 digits,
        // fewer than len + len/32 + 2 chunks.
        let mut chunks = vec![0u64; len + len / 32 + 2];
        let k = chunks_of(&mut limbs, &mut chunks);
        write_chunks(out, &chunks[..k]);
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

/// x·2^s in decimal: x's own limbs, or the shifted ones on the stack when
/// they fit 2·L limbs.
fn write_shifted(out: &mut Vec<u8>, x: &Nat, s: u64) {
    if s == 0 {
        write_limbs(out, x.limbs().iter().copied());
        return;
    }
    let mut limbs = [0u64; 2 * L];
    match x.shl_limbs(s, &mut limbs) {
        Some(n) => write_limbs(out, limbs[..n].iter().copied()),
        // Through a vector of limbs rather than `write_nat`, which then
        // keeps its one caller (`write_int`) and is inlined there.
        None => {
            let limbs = x.shl_big(s).to_u64_digits();
            write_limbs(out, limbs.iter().copied())
        }
    }
}

/// A fixed-width rational as [`write_exact_digits`] writes the same value:
/// `n`, or `n/d` when the denominator is not 1, straight from the limbs.
pub(crate) fn write_fixed_digits(out: &mut Vec<u8>, r: &FixedRational) {
    if r.is_neg() {
        out.push(b'-');
    }
    let (m, sm) = r.numer();
    write_shifted(out, m, sm);
    let (o, so) = r.denom();
    if !(o.is_one() && so == 0) {
        out.push(b'/');
        write_shifted(out, o, so);
    }
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

    /// `write_fixed_digits` writes what `write_exact_digits` writes for the
    /// same value (`Display`'s text): random odd numerators and odd
    /// denominators of up to 768 bits, prime to each other, times powers of
    /// two that keep the text on the stack's 2·L limbs or pass them; zero.
    #[test]
    fn fixed_rationals_are_written_as_big_ones() {
        use crate::num::fixed::Nat;
        use num_integer::Integer;
        let mut s = 0x0dd_ba11u64;
        let mut next = || crate::poly::planted::splitmix64(&mut s);
        let mut cases = vec![(
            FixedRational::new(false, &Nat::ZERO, &Nat::from_u128(1), 0, 0),
            BigRational::from_integer(0.into()),
        )];
        for i in 0..3000 {
            let (wm, wo) = (next() % 12, next() % 12);
            let mut big = |words: u64| {
                let mut x = BigUint::from(next() | 1);
                for _ in 0..words {
                    let w = if i % 7 == 0 { u64::MAX } else { next() };
                    x = (x << 64usize) | BigUint::from(w);
                }
                x
            };
            let (m, o) = (big(wm), big(wo));
            // The denominator's odd part (the power of two is e's).
            let o = if i % 4 == 0 {
                BigUint::one()
            } else {
                o | BigUint::one()
            };
            let g = m.gcd(&o);
            let (m, o) = (m / &g, o / &g);
            // Up to ±1200: past the 2·L limbs (1536 bits) on the stack.
            let e = (next() % 2400) as i64 - 1200;
            let neg = next() & 1 == 1;
            let f = FixedRational::new(neg, &Nat::from_biguint(&m), &Nat::from_biguint(&o), 0, e);
            let (mut n, mut d) = (BigInt::from(m), BigInt::from(o));
            if e >= 0 {
                n <<= e as usize;
            } else {
                d <<= (-e) as usize;
            }
            cases.push((f, BigRational::new(if neg { -n } else { n }, d)));
        }
        for (f, r) in &cases {
            let (mut a, mut b) = (b"x".to_vec(), b"x".to_vec());
            write_fixed_digits(&mut a, f);
            write_exact_digits(&mut b, r);
            assert_eq!(a, b);
            assert_eq!(String::from_utf8(a).unwrap(), format!("x{r}"));
        }
    }

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

    /// Every four-digit value in each of the four groups of
    /// `sixteen_digits` (SSE2 on x86-64) and of `sixteen_digits_swar` comes
    /// out as its digits (worked by `format!`), with the other groups
    /// varying; and the extremes.
    #[test]
    fn sixteen_digits_every_group() {
        let ten4 = 10_000u64;
        for g in 0..ten4 {
            let o = g * 7919 % ten4;
            let p = (g * 4721 + 1) % ten4;
            let mut xs = [0u64; 5];
            for (i, x) in xs[..4].iter_mut().enumerate() {
                // g in group i (0 = most significant), the others o, p, 9999.
                let mut parts = [o, p, 9999, o];
                parts[i] = g;
                *x = parts.iter().fold(0, |acc, &d| acc * ten4 + d);
            }
            xs[4] = g;
            for x in xs {
                let want = format!("{x:016}");
                assert_eq!(std::str::from_utf8(&sixteen_digits(x)).unwrap(), want);
                assert_eq!(std::str::from_utf8(&sixteen_digits_swar(x)).unwrap(), want);
            }
        }
        for x in [0, 1, 99_999_999, 100_000_000, 9_999_999_999_999_999] {
            let want = format!("{x:016}");
            assert_eq!(std::str::from_utf8(&sixteen_digits(x)).unwrap(), want);
            assert_eq!(std::str::from_utf8(&sixteen_digits_swar(x)).unwrap(), want);
        }
    }

    /// The table's three digits and `nineteen_digits` on every top-three
    /// value, against `format!`.
    #[test]
    fn nineteen_digits_every_top() {
        for t in 0..1000u64 {
            assert_eq!(THREE_DIGITS[t as usize], *format!("{t:03}").as_bytes());
            let ten16 = 10_000_000_000_000_000u64;
            for low in [0, 1, t * 7_777_777_777_777 % ten16, ten16 - 1] {
                let c = t * ten16 + low;
                let got = nineteen_digits(c);
                assert_eq!(std::str::from_utf8(&got).unwrap(), format!("{c:019}"));
            }
        }
    }

    /// The chunks of numbers at the 10¹⁹ edge of the top-limb steps: top
    /// limbs 1, 10¹⁹ − 1, 10¹⁹, 10¹⁹ + 1 and 2⁶⁴ − 1 of the number itself and
    /// of its quotient by 10¹⁹ (the second division's first limb), at every
    /// length, against base-10¹⁹ digits worked with `BigUint`.
    #[test]
    fn chunks_at_the_top_limb_edge() {
        let ten19 = BigUint::from(TEN19);
        let zero = BigUint::default();
        let check = |n: &BigUint| {
            let mut want = Vec::new();
            let mut m = n.clone();
            while m > zero {
                want.push(u64::try_from(&m % &ten19).unwrap());
                m /= &ten19;
            }
            let mut limbs = n.to_u64_digits();
            let mut chunks = vec![0u64; limbs.len() + 2];
            let k = chunks_of(&mut limbs, &mut chunks);
            assert_eq!(chunks[..k], want[..], "{n}");
            let mut out = Vec::new();
            write_nat(&mut out, n);
            assert_eq!(String::from_utf8(out).unwrap(), n.to_string());
        };
        for len in 1..=20usize {
            for top in [1, TEN19 - 1, TEN19, TEN19 + 1, u64::MAX] {
                for fill in [0u64, 1, TEN19 - 1, u64::MAX] {
                    let mut limbs = vec![fill; len];
                    limbs[len - 1] = top;
                    let n = limbs
                        .iter()
                        .rev()
                        .fold(BigUint::default(), |acc, &l| (acc << 64u32) + l);
                    check(&n);
                    // n as the quotient: n·10¹⁹ + r has n's limbs as its
                    // quotient's.
                    for r in [0, 1, TEN19 - 1] {
                        check(&(&n * &ten19 + r));
                    }
                }
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
        for k in 0..=1100usize {
            let p = BigInt::one() << k;
            cases.extend([&p - 1, &p + 1]);
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

        /// Limbs drawn from edge values (0, 1, 10¹⁹ ± 1, 2⁶⁴ − 1) and random
        /// ones, 0 to 40 of them, either sign.
        #[test]
        fn edge_limbs_are_display(
            limbs in prop::collection::vec(
                prop_oneof![
                    Just(0u64),
                    Just(1u64),
                    Just(TEN19 - 1),
                    Just(TEN19),
                    Just(TEN19 + 1),
                    Just(u64::MAX),
                    any::<u64>(),
                ],
                0..40,
            ),
            neg in any::<bool>(),
        ) {
            let mag = limbs.iter().rev().fold(BigUint::default(), |acc, &l| (acc << 64u32) + l);
            let n = if neg { -BigInt::from(mag) } else { BigInt::from(mag) };
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
