//! The protocol's two number forms, read exactly, and exact values written back.
//!
//! - A JSON number is the double nearest to its decimal text (Rust's correctly
//!   rounded `str::parse::<f64>`), and the input is that double's exact value.
//! - A JSON string is an exact rational: `"-12"`, `"0.1"` (= 1/10), `"1.5e-3"`,
//!   `"3/7"`. Exponents beyond ±10000 and strings over 10000 characters are errors.

use crate::num::scalar::{rational_to_f64, Scalar};
use num_bigint::BigInt;
use num_rational::BigRational;
use num_traits::{One, Zero};
use serde_json::Value;

/// The longest exact string accepted.
pub const MAX_EXACT_LEN: usize = 10_000;
/// The largest exponent magnitude accepted in an exact string.
pub const MAX_EXPONENT: i64 = 10_000;

/// Parse the protocol's exact-string grammar.
///
/// ```
/// use exact_collision::protocol::number::parse_exact;
/// assert_eq!(parse_exact("0.1").unwrap().to_string(), "1/10");
/// assert_eq!(parse_exact("1.5e-3").unwrap().to_string(), "3/2000");
/// assert_eq!(parse_exact("-6/4").unwrap().to_string(), "-3/2");
/// assert!(parse_exact("1/0").is_err());
/// ```
pub fn parse_exact(s: &str) -> Result<BigRational, String> {
    if s.len() > MAX_EXACT_LEN {
        return Err(format!(
            "exact number longer than {MAX_EXACT_LEN} characters"
        ));
    }
    if let Some(v) = small_integer_or_fraction(s.as_bytes()) {
        return Ok(v);
    }
    let bad = || {
        format!(
            "not a number: {:?} (expected an integer, decimal, scientific or p/q string)",
            short(s)
        )
    };
    let (neg, body) = match s.as_bytes().first() {
        Some(b'-') => (true, &s[1..]),
        Some(b'+') => (false, &s[1..]),
        _ => (false, s),
    };
    let digits = |t: &str| !t.is_empty() && t.bytes().all(|c| c.is_ascii_digit());
    let value = if let Some((p, q)) = body.split_once('/') {
        if !digits(p) || !digits(q) {
            return Err(bad());
        }
        if let Some(v) = small_fraction(p, q) {
            v.ok_or_else(|| format!("zero denominator in {:?}", short(s)))?
        } else {
            let q: BigInt = q.parse().map_err(|_| bad())?;
            if q.is_zero() {
                return Err(format!("zero denominator in {:?}", short(s)));
            }
            BigRational::new(p.parse().map_err(|_| bad())?, q)
        }
    } else {
        let (mant, exp) = match body.find(['e', 'E']) {
            Some(i) => (&body[..i], Some(&body[i + 1..])),
            None => (body, None),
        };
        let (int, frac) = mant.split_once('.').unwrap_or((mant, ""));
        let ok_part = |t: &str| t.bytes().all(|c| c.is_ascii_digit());
        if !ok_part(int) || !ok_part(frac) || int.len() + frac.len() == 0 {
            return Err(bad());
        }
        let mut e: i64 = 0;
        if let Some(x) = exp {
            let xd = x.strip_prefix(['+', '-']).unwrap_or(x);
            if !digits(xd) {
                return Err(bad());
            }
            // Leading zeros do not make an exponent large ("1e0000001" is 10).
            if xd.trim_start_matches('0').len() > 6 {
                return Err(format!("exponent beyond ±{MAX_EXPONENT} in {:?}", short(s)));
            }
            e = xd.trim_start_matches('0').parse().unwrap_or(0);
            if x.starts_with('-') {
                e = -e;
            }
            if e.abs() > MAX_EXPONENT {
                return Err(format!("exponent beyond ±{MAX_EXPONENT} in {:?}", short(s)));
            }
        }
        let e = e - frac.len() as i64;
        if let Some(v) = small_decimal(int, frac, e) {
            v
        } else {
            let all = format!("{int}{frac}");
            let m: BigInt = all.parse().map_err(|_| bad())?;
            let ten = BigInt::from(10);
            if e >= 0 {
                BigRational::from_integer(m * num_traits::pow(ten, e as usize))
            } else {
                BigRational::new(m, num_traits::pow(ten, (-e) as usize))
            }
        }
    };
    // Bounded work per line (crate::protocol::limits): a line's exact strings share one budget.
    crate::protocol::limits::charge(value.numer().bits() + value.denom().bits())?;
    Ok(if neg { -value } else { value })
}

/// The most decimal digits that always fit a `u128` (10³⁸ < 2¹²⁸).
const U128_DIGITS: usize = 38;

/// `p/q` in lowest terms when both fit a `u128` (the common case: a double
/// written as a fraction), without big-integer gcds; `Some(None)` for a zero
/// denominator, `None` when they do not fit (the caller takes the general
/// path). `p`, `q` are nonempty digit strings.
fn small_fraction(p: &str, q: &str) -> Option<Option<BigRational>> {
    if p.len() > U128_DIGITS || q.len() > U128_DIGITS {
        return None;
    }
    let (n, d) = (digit_run(p.as_bytes(), 0)?.0, digit_run(q.as_bytes(), 0)?.0);
    Some((d != 0).then(|| lowest_terms(n, d)))
}

/// The common forms `[+-]d…` and `[+-]d…/d…` with at most [`U128_DIGITS`]
/// digits on each side and a nonzero denominator (how a double is written as
/// an exact fraction), in lowest terms, in one pass over the bytes with
/// machine integers. `None` for everything else: the general grammar then
/// reads it (or reports the error).
fn small_integer_or_fraction(b: &[u8]) -> Option<BigRational> {
    let (neg, start) = match b.first()? {
        b'-' => (true, 1),
        b'+' => (false, 1),
        _ => (false, 0),
    };
    let (n, i) = digit_run(b, start)?;
    let d = match b.get(i) {
        None => 1,
        Some(b'/') => {
            let (d, j) = digit_run(b, i + 1)?;
            if j != b.len() || d == 0 {
                return None;
            }
            d
        }
        Some(_) => return None,
    };
    let v = lowest_terms(n, d);
    Some(if neg { -v } else { v })
}

/// The digits of `b` from `start`: their value and where they end, when there
/// are 1 to [`U128_DIGITS`] of them (`None` otherwise). Eight digits at a time
/// where eight are there ([`eight_digits`]), then one at a time; the `u128`
/// cannot overflow (10³⁸ < 2¹²⁸).
fn digit_run(b: &[u8], start: usize) -> Option<(u128, usize)> {
    let end = (start + U128_DIGITS).min(b.len());
    let mut i = start;
    let mut m: u128 = 0;
    while i + 8 <= end {
        let Some(v) = eight_digits(b[i..i + 8].try_into().ok()?) else {
            break;
        };
        m = m * 100_000_000 + v as u128;
        i += 8;
    }
    while i < end && b[i].is_ascii_digit() {
        m = m * 10 + (b[i] - b'0') as u128;
        i += 1;
    }
    let more = b.get(i).is_some_and(u8::is_ascii_digit);
    (i > start && !more).then_some((m, i))
}

/// The value of eight ASCII digits (first digit most significant), `None` if
/// any byte is not a digit. Branch-free on one `u64` (the SWAR method of
/// D. Lemire's fast_float, "Number Parsing at a Gigabyte per Second",
/// Software: Practice and Experience 51(8), 2021): a byte is a digit iff
/// neither `byte + 0x46` nor `byte − 0x30` sets its top bit; then pairs,
/// quads and the eight are combined by three multiplications.
fn eight_digits(c: [u8; 8]) -> Option<u32> {
    let v = u64::from_le_bytes(c);
    let sub = v.wrapping_sub(0x3030_3030_3030_3030);
    if (v.wrapping_add(0x4646_4646_4646_4646) | sub) & 0x8080_8080_8080_8080 != 0 {
        return None;
    }
    let v = sub.wrapping_mul(10).wrapping_add(sub >> 8);
    let v = (v & 0x0000_00ff_0000_00ff)
        .wrapping_mul(100 + (1_000_000 << 32))
        .wrapping_add(((v >> 16) & 0x0000_00ff_0000_00ff).wrapping_mul(1 + (10_000 << 32)))
        >> 32;
    Some(v as u32)
}

/// `int.frac × 10^e` (`e` already counts the fraction's digits) in lowest
/// terms when the digits and the power of ten fit a `u128`, else `None`.
fn small_decimal(int: &str, frac: &str, e: i64) -> Option<BigRational> {
    if int.len() + frac.len() > U128_DIGITS || e.unsigned_abs() > U128_DIGITS as u64 {
        return None;
    }
    let mut m: u128 = 0;
    for c in int.bytes().chain(frac.bytes()) {
        m = m * 10 + (c - b'0') as u128;
    }
    let p = 10u128.pow(e.unsigned_abs() as u32);
    if e >= 0 {
        Some(BigRational::from_integer(BigInt::from(m.checked_mul(p)?)))
    } else {
        Some(lowest_terms(m, p))
    }
}

/// n/d (d > 0) reduced by their gcd, in machine integers.
///
/// Common powers of two come off by shifts first (a double written as a
/// fraction has a power-of-two denominator, so then no gcd is left to do); the
/// odd parts' gcd runs in `u64` when both fit.
fn lowest_terms(n: u128, d: u128) -> BigRational {
    if n == 0 {
        return BigRational::new_raw(BigInt::zero(), BigInt::one());
    }
    let z = n.trailing_zeros().min(d.trailing_zeros());
    let (n, d) = (n >> z, d >> z);
    let g = if d.is_power_of_two() || n.is_power_of_two() {
        1
    } else if let (Ok(a), Ok(b)) = (u64::try_from(n), u64::try_from(d)) {
        num_integer::Integer::gcd(&a, &b) as u128
    } else {
        num_integer::Integer::gcd(&n, &d)
    };
    BigRational::new_raw(big(n / g), big(d / g))
}

/// A `BigInt` from a `u128`, through the cheaper `u64` conversion when it fits.
fn big(v: u128) -> BigInt {
    match u64::try_from(v) {
        Ok(s) => BigInt::from(s),
        Err(_) => BigInt::from(v),
    }
}

/// A JSON number's text read as `str::parse::<f64>` reads it (the correctly
/// rounded double, ties to even); `None` when `t` is not exactly one JSON
/// number. See [`json_number`].
#[cfg(test)]
fn json_f64(t: &str) -> Option<f64> {
    let mut i = 0;
    let x = json_number(t, &mut i)?;
    (i == t.len()).then_some(x)
}

/// The JSON number that starts at byte `*i` of `s`
/// (`-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?`, the longest such
/// text), read as `str::parse::<f64>` reads its text: the correctly rounded
/// double (±∞ past the range), the same bit for bit (tests below compare the
/// two on random and edge-case texts). `*i` moves past it; `None` (and `*i`
/// unspecified) where no number starts.
///
/// One pass checks the grammar and gathers the digits (eight at a time
/// where eight are there); when they number at most 19, integer arithmetic
/// gives the double ([`decimal_to_f64`]), and `str::parse` reads the rest
/// (more digits, exponents that path does not cover). Why by hand: the program
/// reads about 24 numbers per query line, and a separate grammar check plus
/// `str::parse`'s general digit scan cost ~450 instructions a number.
pub(crate) fn json_number(s: &str, i: &mut usize) -> Option<f64> {
    let b = s.as_bytes();
    let start = *i;
    let neg = b.get(*i) == Some(&b'-');
    if neg {
        *i += 1;
    }
    // Every digit goes into w (leading zeros too: they leave the value
    // alone); `digits` counts them, and w is exact while it is at most 19.
    let (mut w, mut e) = (0u64, 0i32);
    let mut digits = match b.get(*i)? {
        b'0' => {
            *i += 1;
            0
        }
        b'1'..=b'9' => take_digits(b, i, &mut w),
        _ => return None,
    };
    if b.get(*i) == Some(&b'.') {
        *i += 1;
        // After a 0 integer part, the fraction's leading zeros only move
        // the exponent (0.000123 has three digits).
        let mut zeros = 0;
        if w == 0 {
            while b.get(*i + zeros) == Some(&b'0') {
                zeros += 1;
            }
            *i += zeros;
        }
        let n = take_digits(b, i, &mut w);
        if n + zeros == 0 {
            return None;
        }
        digits += n;
        e -= (n + zeros) as i32;
    }
    if let Some(b'e' | b'E') = b.get(*i) {
        *i += 1;
        let eneg = match b.get(*i) {
            Some(b'-') => {
                *i += 1;
                true
            }
            Some(b'+') => {
                *i += 1;
                false
            }
            _ => false,
        };
        let s0 = *i;
        let mut x: i32 = 0;
        while let Some(&c) = b.get(*i) {
            if !c.is_ascii_digit() {
                break;
            }
            // Past six digits the value no longer matters here: the text
            // is parsed instead.
            if *i - s0 < 6 {
                x = x * 10 + (c - b'0') as i32;
            } else {
                digits = usize::MAX;
            }
            *i += 1;
        }
        if *i == s0 {
            return None;
        }
        e += if eneg { -x } else { x };
    }
    if digits <= 19 {
        if let Some(x) = decimal_to_f64(w, e) {
            return Some(if neg { -x } else { x });
        }
    }
    s[start..*i].parse().ok()
}

/// The digits at `b[*i..]`, taken and accumulated into `w` (w·10ⁿ + their
/// value, wrapping: exact while the text's digits number at most 19, all
/// the caller uses). Returns how many digits were taken (n). Eight at a time
/// while eight digits are there ([`eight_digits`]), then one at a time.
#[inline(always)]
fn take_digits(b: &[u8], i: &mut usize, w: &mut u64) -> usize {
    let s = *i;
    while let Some(c) = b.get(*i..*i + 8) {
        let Some(v) = eight_digits(c.try_into().expect("eight bytes")) else {
            break;
        };
        *w = w.wrapping_mul(100_000_000).wrapping_add(v as u64);
        *i += 8;
    }
    while let Some(&c) = b.get(*i) {
        let d = c.wrapping_sub(b'0');
        if d >= 10 {
            break;
        }
        *w = w.wrapping_mul(10).wrapping_add(d as u64);
        *i += 1;
    }
    *i - s
}

/// Powers of ten that are doubles exactly (10²² < 2⁵³·2²²).
const POW10: [f64; 23] = [
    1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16,
    1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
];

/// The double nearest w·10ᵉ (ties to even) where integer arithmetic gives it
/// exactly; `None` elsewhere (the caller parses the text).
///
/// - w ≤ 2⁵³ and |e| ≤ 22: w and 10^|e| are doubles, and one IEEE
///   multiplication or division rounds their exact product or quotient
///   correctly (W. D. Clinger, "How to Read Floating Point Numbers
///   Accurately", PLDI 1990).
/// - e ≥ 0 and w·10ᵉ < 2¹²⁸: an integer, and Rust's `u128 as f64` rounds to
///   nearest, ties to even.
/// - −27 ≤ e < 0: w·10ᵉ = (w/5ᵏ)·2⁻ᵏ with k = −e, 5ᵏ < 2⁶³; the quotient
///   of w·2ˢ by 5ᵏ (s filling 127 bits) has at least 64 bits, and is rounded
///   to 53 with its remainder as the sticky bit.
fn decimal_to_f64(w: u64, e: i32) -> Option<f64> {
    if w == 0 {
        return Some(0.0);
    }
    if w <= 1 << 53 && (-22..=22).contains(&e) {
        let m = w as f64;
        return Some(if e < 0 {
            m / POW10[(-e) as usize]
        } else {
            m * POW10[e as usize]
        });
    }
    if e >= 0 {
        let n = (w as u128).checked_mul(10u128.checked_pow(e as u32)?)?;
        return Some(n as f64);
    }
    let k = e.unsigned_abs();
    if k > 27 {
        return None;
    }
    let d = 5u64.pow(k) as u128;
    let s = 127 - (64 - w.leading_zeros());
    let n = (w as u128) << s;
    let (q, r) = (n / d, n % d);
    // q ≥ 2¹²⁶/2⁶³: at least 64 bits; keep 53.
    let extra = 75 - q.leading_zeros();
    let mut m = (q >> extra) as u64;
    let rest = q & ((1u128 << extra) - 1);
    let half = 1u128 << (extra - 1);
    if rest > half || (rest == half && (r != 0 || m & 1 == 1)) {
        m += 1;
    }
    // value = m·2^(extra − s − k); m in [2⁵², 2⁵³] (2⁵³ after rounding up).
    let mut exp = extra as i32 - s as i32 - k as i32 + 52;
    if m == 1 << 53 {
        m >>= 1;
        exp += 1;
    }
    if !(-1022..=1023).contains(&exp) {
        return None;
    }
    Some(f64::from_bits(
        ((exp + 1023) as u64) << 52 | (m & ((1 << 52) - 1)),
    ))
}

/// The text `[+-]digits` or `[+-]digits/digits` that starts at `b[i]` (at
/// most [`U128_DIGITS`] digits each side, running as far as this grammar
/// does) whose value is exactly a double with a power-of-two
/// denominator as written: that double (+0 for zero) and where the text
/// ends (the caller checks what follows). `None` for every other string:
/// [`parse_exact`] then reads it. Like [`parse_exact`] on these
/// forms, it charges no line budget.
///
/// Such a value is p·2⁻ᵏ with p < 2¹²⁸ and k < 128: always in the normal
/// range, and a double iff p's odd part has at most 53 bits. No big integer,
/// no gcd: this is how every coordinate of the CCD benchmark's files is
/// written. The denominator is not even read as a number: it is compared
/// with the decimal text of the one power of two of its length and first
/// digit ([`POW2_DEC`]).
pub(crate) fn exact_double_at(b: &[u8], i: usize) -> Option<(f64, usize)> {
    let (neg, mut i) = match b.get(i)? {
        b'-' => (true, i + 1),
        b'+' => (false, i + 1),
        _ => (false, i),
    };
    let mut w = 0u64;
    let n = take_digits(b, &mut i, &mut w);
    // p's odd part and its power of two (in u64 when p has at most 19 digits).
    let (odd, zp) = match n {
        0 => return None,
        1..=19 => {
            let z = w.trailing_zeros() % 64;
            (w >> z, z)
        }
        _ => {
            let mut j = i - n;
            let p = digits128(b, &mut j)?;
            let z = p.trailing_zeros() % 128;
            (u64::try_from(p >> z).ok()?, z)
        }
    };
    let k = if b.get(i) == Some(&b'/') {
        let end = digits_end(b, i + 1);
        let k = pow2_exponent(&b[i + 1..end])?;
        i = end;
        k
    } else {
        0
    };
    if odd == 0 {
        return Some((0.0, i));
    }
    if odd >> 53 != 0 {
        return None;
    }
    // odd·2^(zp − k), both factors doubles, the product exact (|zp − k| < 128).
    let pow = f64::from_bits(((1023 + zp as i64 - k as i64) as u64) << 52);
    let x = odd as f64 * pow;
    Some((if neg { -x } else { x }, i))
}

/// Where the run of ASCII digits that starts at `b[i]` ends. Eight bytes at
/// a time: a byte is a digit iff neither `byte + 0x46` nor `byte − 0x30` sets
/// its top bit, and the lowest flagged byte is exact (a carry or borrow only
/// comes from a lower byte that is flagged itself).
fn digits_end(b: &[u8], mut i: usize) -> usize {
    while let Some(c) = b.get(i..i + 8) {
        let v = u64::from_le_bytes(c.try_into().expect("eight bytes"));
        let bad = (v.wrapping_add(0x4646_4646_4646_4646) | v.wrapping_sub(0x3030_3030_3030_3030))
            & 0x8080_8080_8080_8080;
        if bad != 0 {
            return i + (bad.trailing_zeros() / 8) as usize;
        }
        i += 8;
    }
    while b.get(i).is_some_and(u8::is_ascii_digit) {
        i += 1;
    }
    i
}

/// k when `q` is the decimal text of 2ᵏ (at most [`U128_DIGITS`] digits, no
/// leading zeros), else
/// `None`. Powers of two with the same number of digits have different first
/// digits (each is twice the one before), so length and first digit name the
/// only candidate.
fn pow2_exponent(q: &[u8]) -> Option<u32> {
    let len = q.len();
    // (Longer denominators, 2¹²⁷ has 39 digits, are for `parse_exact`: it
    // charges the line budget for them.)
    if len > U128_DIGITS {
        return None;
    }
    let mut k = *POW2_FIRST.get(len)? as usize;
    while k < 128 && POW2_DEC[k].1 as usize == len {
        let (digits, _) = &POW2_DEC[k];
        if digits[39 - len] == q[0] {
            return same_bytes(&digits[39 - len..], q).then_some(k as u32);
        }
        k += 1;
    }
    None
}

/// Whether `a` and `b` (of equal length) hold the same bytes: eight at a
/// time, inline (the library's `bcmp` call costs more on these short texts).
fn same_bytes(a: &[u8], b: &[u8]) -> bool {
    debug_assert_eq!(a.len(), b.len());
    let (mut ca, mut cb) = (a.chunks_exact(8), b.chunks_exact(8));
    for (x, y) in (&mut ca).zip(&mut cb) {
        if u64::from_le_bytes(x.try_into().expect("eight bytes"))
            != u64::from_le_bytes(y.try_into().expect("eight bytes"))
        {
            return false;
        }
    }
    ca.remainder()
        .iter()
        .zip(cb.remainder())
        .all(|(x, y)| x == y)
}

/// 2ᵏ in decimal for k < 128: the digits right-aligned in 39 bytes, and
/// their count.
static POW2_DEC: [([u8; 39], u8); 128] = pow2_dec();

/// The least k with 2ᵏ of each digit count (0 and 40: none, past the table).
static POW2_FIRST: [u8; 40] = pow2_first();

const fn pow2_dec() -> [([u8; 39], u8); 128] {
    let mut t = [([b'0'; 39], 0u8); 128];
    let mut k = 0;
    while k < 128 {
        let mut v = 1u128 << k;
        let mut j = 39;
        while v > 0 {
            j -= 1;
            t[k].0[j] = b'0' + (v % 10) as u8;
            v /= 10;
        }
        t[k].1 = (39 - j) as u8;
        k += 1;
    }
    t
}

const fn pow2_first() -> [u8; 40] {
    let t = pow2_dec();
    let mut f = [128u8; 40];
    let mut k = 128;
    while k > 0 {
        k -= 1;
        f[t[k].1 as usize] = k as u8;
    }
    f
}

/// The digits at `b[*i..]`, taken, as a `u128`: `None` for none or more than
/// [`U128_DIGITS`] of them. Eight at a time while eight digits are there.
#[inline(always)]
fn digits128(b: &[u8], i: &mut usize) -> Option<u128> {
    let s = *i;
    let mut m: u128 = 0;
    while let Some(c) = b.get(*i..*i + 8) {
        let Some(v) = eight_digits(c.try_into().expect("eight bytes")) else {
            break;
        };
        m = m.wrapping_mul(100_000_000).wrapping_add(v as u128);
        *i += 8;
    }
    while let Some(&c) = b.get(*i) {
        let d = c.wrapping_sub(b'0');
        if d >= 10 {
            break;
        }
        m = m.wrapping_mul(10).wrapping_add(d as u128);
        *i += 1;
    }
    (*i > s && *i - s <= U128_DIGITS).then_some(m)
}

fn short(s: &str) -> String {
    if s.len() > 40 {
        format!(
            "{}…",
            &s[..s.char_indices().nth(40).map_or(s.len(), |c| c.0)]
        )
    } else {
        s.to_string()
    }
}

/// Read a protocol number: a JSON number (its double's exact value) or an exact
/// string. Errors say what is wrong, without the field path (the caller adds it).
///
/// ```
/// use exact_collision::protocol::number::read_number;
/// let v: serde_json::Value = serde_json::from_str("0.1").unwrap();
/// assert_eq!(read_number(&v).unwrap().to_string(), "3602879701896397/36028797018963968");
/// ```
pub fn read_number(v: &Value) -> Result<BigRational, String> {
    match v {
        Value::Number(n) => {
            let text = n.to_string();
            let f: f64 = text
                .parse()
                .map_err(|_| format!("unreadable number {text}"))?;
            if !f.is_finite() {
                return Err(format!("number {text} is not a finite double"));
            }
            Ok(f.to_rational())
        }
        Value::String(s) => parse_exact(s),
        other => Err(format!("expected a number, got {}", kind(other))),
    }
}

/// A short name of a JSON value's kind, for error messages.
pub fn kind(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

/// An exact value as the protocol writes it: a lowest-terms string.
pub fn exact_string(r: &BigRational) -> String {
    // BigRational is kept reduced with a positive denominator; Display prints
    // "n" for integers and "n/d" otherwise.
    debug_assert!(r.denom() > &BigInt::zero());
    let mut out = Vec::new();
    super::decimal::write_exact_digits(&mut out, r);
    // Only ASCII digits, '-' and '/' were written.
    String::from_utf8(out).unwrap_or_default()
}

/// The `_f64` companion of an exact value: the nearest double, or the strings
/// `"inf"` / `"-inf"` past the double range.
pub fn f64_companion(r: &BigRational) -> Value {
    float_value(rational_to_f64(r))
}

/// A double as JSON: a number, or `"inf"`/`"-inf"`/`"nan"` strings (JSON has none).
pub fn float_value(f: f64) -> Value {
    if f.is_finite() {
        serde_json::Number::from_f64(f).map_or(Value::Null, Value::Number)
    } else if f.is_nan() {
        Value::String("nan".into())
    } else if f > 0.0 {
        Value::String("inf".into())
    } else {
        Value::String("-inf".into())
    }
}

/// A scalar as the protocol writes it: an exact string on the exact path, a JSON
/// number (the rounded value) on the float paths.
pub fn scalar_value<S: Scalar>(s: &S) -> Value {
    if S::IS_EXACT {
        Value::String(exact_string(&s.to_rational()))
    } else {
        float_value(s.to_f64())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn r(s: &str) -> String {
        exact_string(&parse_exact(s).unwrap())
    }

    #[test]
    fn grammar() {
        assert_eq!(r("3/7"), "3/7");
        assert_eq!(r("-12"), "-12");
        assert_eq!(r("1.5e-3"), "3/2000");
        assert_eq!(r("5."), "5");
        assert_eq!(r(".5"), "1/2");
        assert_eq!(r("+2E2"), "200");
        assert_eq!(r("-0"), "0");
        assert_eq!(r("6/4"), "3/2");
        for bad in [
            "abc", "1/0", "", ".", "-", "1e", "e5", "1.2.3", "1/2/3", "NaN", "inf", "0x10", "1 ",
            "1e+", "--1", "1/-2",
        ] {
            assert!(parse_exact(bad).is_err(), "{bad:?} should be rejected");
        }
        assert!(parse_exact("1e10001").is_err());
        assert!(parse_exact("1e-10001").is_err());
        assert!(parse_exact("1e400").is_ok());
        assert_eq!(r("1e0000001"), "10");
        assert_eq!(r("25e-000000000002"), "1/4");
        assert!(parse_exact("1e+0000010001").is_err());
        assert!(parse_exact(&"1".repeat(10_001)).is_err());
    }

    /// The machine-integer fast paths give the value the big-integer path
    /// gives (computed here independently: numerator and denominator parsed as
    /// big integers, then reduced by `BigRational::new`), in lowest terms,
    /// across the 38-digit boundary where they hand over.
    #[test]
    fn fast_paths_equal_the_big_integer_path() {
        let big = |n: &str, d: &str| {
            BigRational::new(n.parse::<BigInt>().unwrap(), d.parse::<BigInt>().unwrap())
        };
        let mut seed = 0x9e3779b97f4a7c15u64;
        let mut digits = |len: usize| -> String {
            (0..len)
                .map(|_| {
                    seed ^= seed << 13;
                    seed ^= seed >> 7;
                    seed ^= seed << 17;
                    char::from(b'0' + (seed % 10) as u8)
                })
                .collect()
        };
        for len in [1, 2, 5, 16, 17, 19, 20, 37, 38, 39, 40, 60] {
            for _ in 0..20 {
                let (p, q) = (digits(len), digits(len.max(2) - 1));
                let q = if q.bytes().all(|c| c == b'0') {
                    "7".to_string()
                } else {
                    q
                };
                let got = parse_exact(&format!("-{p}/{q}")).unwrap();
                assert_eq!(got, -big(&p, &q), "-{p}/{q}");
                assert!(got.denom() > &BigInt::zero());
                let f = digits(len / 2 + 1);
                for e in [-45i64, -39, -38, -20, -1, 0, 3, 20, 38, 45] {
                    let text = format!("{p}.{f}e{e}");
                    let ex = e - f.len() as i64;
                    let want = if ex >= 0 {
                        big(&format!("{p}{f}{}", "0".repeat(ex as usize)), "1")
                    } else {
                        big(
                            &format!("{p}{f}"),
                            &format!("1{}", "0".repeat((-ex) as usize)),
                        )
                    };
                    assert_eq!(parse_exact(&text).unwrap(), want, "{text}");
                }
            }
        }
        assert_eq!(r("0/5"), "0");
        assert_eq!(r("-0.000"), "0");
        assert_eq!(
            r("340282366920938463463374607431768211455/1"),
            "340282366920938463463374607431768211455"
        );
        assert!(parse_exact("00000000000000000000000000000000000000/0").is_err());
    }

    /// `eight_digits` against the byte-by-byte value, on every 8-byte window
    /// of digit strings with one byte possibly replaced by a non-digit
    /// neighbour of the digit range ('/', ':', and bytes with the top bit set).
    #[test]
    fn eight_digits_matches_digit_by_digit() {
        let mut seed = 0x1234_5678_9abc_def1u64;
        for k in 0..5000 {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            let mut c = seed.to_le_bytes().map(|x| b'0' + x % 10);
            if k % 3 == 0 {
                c[(seed >> 8) as usize % 8] = [b'/', b':', 0xb0, 0x00, b' '][k % 5];
            }
            let want = c
                .iter()
                .all(u8::is_ascii_digit)
                .then(|| c.iter().fold(0u32, |a, &d| a * 10 + (d - b'0') as u32));
            assert_eq!(eight_digits(c), want, "{c:?}");
        }
        assert_eq!(eight_digits(*b"99999999"), Some(99_999_999));
        assert_eq!(eight_digits(*b"00000000"), Some(0));
        assert_eq!(eight_digits(*b"12345678"), Some(12_345_678));
    }

    /// Fractions whose numerator and denominator share powers of two (the
    /// shift path) or odd factors (the gcd path), in `u64` and `u128` range:
    /// the result is in lowest terms, with the very numerator and denominator
    /// `BigRational::new` (an independent big-integer reduction) gives.
    #[test]
    fn fractions_come_out_in_lowest_terms() {
        let mut seed = 0x2545f4914f6cdd1du64;
        let mut next = || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        for _ in 0..2000 {
            let odd = |x: u64| (x | 1) as u128;
            let (a, b, c) = (next(), next(), next());
            let n = match a % 4 {
                0 => 0,
                1 => (odd(a) >> (b % 40)) << (c % 70),
                2 => (b as u128) << (a % 60),
                _ => odd(b) * (c % 1000 + 1) as u128,
            };
            let d = match c % 3 {
                0 => 1u128 << (a % 127),
                1 => (odd(c) >> (a % 50)) << (b % 60),
                _ => odd(a) * (b % 1000 + 1) as u128,
            };
            let d = d.max(1);
            let got = parse_exact(&format!("{n}/{d}")).unwrap();
            let want = BigRational::new(BigInt::from(n), BigInt::from(d));
            assert_eq!(got.numer(), want.numer(), "{n}/{d}");
            assert_eq!(got.denom(), want.denom(), "{n}/{d}");
        }
        // Signs, leading zeros and the 38/39-digit hand-over of the one-pass
        // reader, against values written out by hand.
        assert_eq!(r("+3/6"), "1/2");
        assert_eq!(r("-0/5"), "0");
        assert_eq!(r("007/014"), "1/2");
        assert_eq!(r("-0000000000000000000000000000000000000012"), "-12");
        let nines = "9".repeat(39);
        assert_eq!(r(&format!("{nines}/3")), format!("{}3", "3".repeat(38)));
        assert_eq!(r(&format!("-3/{nines}")), format!("-1/{}3", "3".repeat(38)));
        for bad in ["3/", "/3", "+-1", "1/0", "1/00", "2/3x", "1//2", "-/2"] {
            assert!(parse_exact(bad).is_err(), "{bad:?} should be rejected");
        }
    }

    /// A small deterministic generator for the tests below (xorshift64).
    struct Xs(u64);
    impl Xs {
        fn next(&mut self) -> u64 {
            self.0 ^= self.0 << 13;
            self.0 ^= self.0 >> 7;
            self.0 ^= self.0 << 17;
            self.0
        }
        fn below(&mut self, n: u64) -> u64 {
            self.next() % n
        }
        fn digits(&mut self, n: u64) -> String {
            (0..n)
                .map(|_| char::from(b'0' + self.below(10) as u8))
                .collect()
        }
    }

    /// `json_f64` gives `str::parse::<f64>`'s double bit for bit: on random
    /// doubles written every way Rust writes them (shortest round trip,
    /// scientific, fixed with 0–25 decimals), on random JSON number texts
    /// (up to 30 digits, exponents up to ±400), on exact ties between two
    /// doubles (written with a fraction, so the division path rounds them),
    /// and on the edge cases of the double range.
    /// Whether `json_number`'s integer paths (not `str::parse`) read `t`
    /// (a text without exponent).
    fn fast(t: &str) -> bool {
        let b = t.trim_start_matches('-').as_bytes();
        let (mut i, mut w) = (0, 0);
        let mut n = take_digits(b, &mut i, &mut w);
        if w == 0 {
            n = 0;
        }
        let mut e = 0;
        if b.get(i) == Some(&b'.') {
            i += 1;
            let z = if w == 0 {
                b[i..].iter().take_while(|&&c| c == b'0').count()
            } else {
                0
            };
            i += z;
            let f = take_digits(b, &mut i, &mut w);
            n += f;
            e = -((f + z) as i32);
        }
        i == b.len() && n <= 19 && decimal_to_f64(w, e).is_some()
    }

    #[test]
    fn json_f64_is_str_parse() {
        let check = |t: &str| {
            let want = t.parse::<f64>().unwrap();
            let got = json_f64(t).unwrap();
            assert_eq!(got.to_bits(), want.to_bits(), "{t}: {got:e} vs {want:e}");
        };
        for t in [
            "0",
            "-0",
            "-0.0",
            "0.0",
            "0e0",
            "0E-5",
            "-0e+7",
            "1",
            "-1",
            "0.1",
            "0.5",
            "1e22",
            "1e23",
            "9007199254740993",
            "9007199254740992",
            "9007199254740993.0",
            "18014398509481986.0",
            "18014398509481990.0",
            "18014398509481986.00",
            "1e308",
            "1.7976931348623157e308",
            "1.7976931348623158e308",
            "1.7976931348623159e308",
            "2.2250738585072014e-308",
            "2.2250738585072011e-308",
            "2.225073858507201e-308",
            "4.9e-324",
            "5e-324",
            "2.4703282292062327e-324",
            "2.4703282292062328e-324",
            "1e-320",
            "1e-400",
            "1e400",
            "123456789012345678901234567890",
            "0.000000000000000000000000001",
            "1234567890123456789",
            "12345678901234567890",
            "9999999999999999999e-27",
            "9999999999999999999e-28",
            "1.0000000000000000000",
            "0.30000000000000004",
            "-2.7750260493480905",
            "0.04461439913652132",
            "1e000001",
            "1E+22",
            "7e-27",
            "18446744073709551615",
            "18446744073709551615e-19",
            "1e38",
            "1e39",
            "340282366920938463463374607431768211455",
        ] {
            check(t);
        }
        let mut r = Xs(0x51_7cc1_b727_220a);
        let (mut ordinary, mut ties) = (0u32, 0u32);
        for _ in 0..200_000 {
            // A random finite double (all exponents, subnormals included).
            let x = f64::from_bits(r.next());
            if x.is_finite() {
                check(&format!("{x:?}"));
                check(&format!("{x:e}"));
                check(&format!("{:.*e}", r.below(20) as usize, x));
                if x.abs() < 1e30 {
                    check(&format!("{:.*}", r.below(26) as usize, x));
                }
            }
            // A double of ordinary size (the inputs engines send).
            let y = (r.next() >> 11) as f64 / (1u64 << 53) as f64 * 8.0 - 4.0;
            let y = y * [1.0, 1e-3, 1e3, 1e-12, 1e15][r.below(5) as usize];
            check(&format!("{y:?}"));
            check(&format!("{y:e}"));
            // (The fast paths, not `str::parse`, decide these: counted.)
            ordinary += fast(&format!("{y:?}")) as u32;
            check(&format!("{:.*}", r.below(26) as usize, y));
            // A random JSON number text.
            let mut t = String::new();
            if r.below(2) == 0 {
                t.push('-');
            }
            let n = r.below(21);
            if n == 0 {
                t.push('0');
            } else {
                t.push(char::from(b'1' + r.below(9) as u8));
                t += &r.digits(n - 1);
            }
            if r.below(2) == 0 {
                t.push('.');
                let f = 1 + r.below(30);
                t += &r.digits(f);
            }
            if r.below(2) == 0 {
                t.push(['e', 'E'][r.below(2) as usize]);
                t += ["", "+", "-"][r.below(3) as usize];
                let top = [30, 400][r.below(2) as usize];
                t += &format!("{}", r.below(top));
            }
            check(&t);
            // An exact tie between two doubles (and its neighbours), written
            // with a fraction: the division path's rounding.
            let bits = 54 + r.below(6);
            let n = (r.next() | 1 << 63) >> (64 - bits);
            let s = bits - 53;
            let tie = (n >> s << s) | 1 << (s - 1);
            for v in [tie - 1, tie, tie + 1] {
                check(&format!("{v}.0"));
                check(&format!("{v}0e-1"));
                ties += fast(&format!("{v}.0")) as u32;
            }
        }
        // (A fifth of them are of size 1e-12, whose 17 digits need 10⁻²⁸ and
        // up: `str::parse` reads those.)
        assert!(ordinary > 159_000, "{ordinary} of 200000 on the fast paths");
        assert!(ties > 590_000, "{ties} of 600000 on the division path");
    }

    /// `digits_end` finds the end of a digit run at every offset of random
    /// texts of digits and non-digit neighbours of the digit range
    /// (checked byte by byte).
    #[test]
    fn digits_end_matches_byte_by_byte() {
        let mut r = Xs(0x1357_9bdf_2468_ace0);
        let pool = [
            b'0', b'5', b'9', b'/', b':', b'"', 0xb0, 0xba, 0xff, 0x00, b' ',
        ];
        for _ in 0..5_000 {
            let n = r.below(40) as usize;
            let t: Vec<u8> = (0..n)
                .map(|_| {
                    if r.below(6) == 0 {
                        pool[r.below(11) as usize]
                    } else {
                        b'0' + r.below(10) as u8
                    }
                })
                .collect();
            for i in 0..=n {
                let want = i + t[i..].iter().take_while(|c| c.is_ascii_digit()).count();
                assert_eq!(digits_end(&t, i), want, "{t:?} at {i}");
            }
        }
    }

    /// `pow2_exponent` names every power of two up to 38 digits by its
    /// text (checked against `u128` arithmetic), and nothing else: not a
    /// neighbour, not a digit changed, not a leading zero, not 2¹²⁷ (39
    /// digits).
    #[test]
    fn pow2_exponent_reads_powers_of_two() {
        for k in 0..128u32 {
            let t = (1u128 << k).to_string();
            let want = (t.len() <= U128_DIGITS).then_some(k);
            assert_eq!(pow2_exponent(t.as_bytes()), want, "2^{k}");
            for other in [(1u128 << k) + 1, (1u128 << k) - 1, 3u128 << (k.min(120))] {
                if !other.is_power_of_two() {
                    assert_eq!(pow2_exponent(other.to_string().as_bytes()), None, "{other}");
                }
            }
            let mut bytes = t.clone().into_bytes();
            let last = bytes.len() - 1;
            bytes[last] = if bytes[last] == b'9' {
                b'8'
            } else {
                bytes[last] + 1
            };
            let m: u128 = std::str::from_utf8(&bytes).unwrap().parse().unwrap();
            if !m.is_power_of_two() {
                assert_eq!(pow2_exponent(&bytes), None, "{m}");
            }
            assert_eq!(pow2_exponent(format!("0{t}").as_bytes()), None);
        }
        assert_eq!(pow2_exponent(b""), None);
        assert_eq!(pow2_exponent(b"x"), None);
    }

    /// `exact_double_at` on a whole string.
    fn dyadic_test(s: &str) -> Option<f64> {
        exact_double_at(s.as_bytes(), 0).and_then(|(x, end)| (end == s.len()).then_some(x))
    }

    /// `dyadic` gives the double `parse_exact` gives for every plain
    /// integer or p/q string that is one (and nothing for the rest), and
    /// charges no line budget where `parse_exact` charges none.
    #[test]
    fn dyadic_is_parse_exact() {
        use crate::protocol::limits::{charge, max_input_bits, with_line_budget};
        let check = |t: &str| {
            let q = parse_exact(t).ok();
            let want = q.as_ref().and_then(|q| {
                let f = f64::from_rational(q);
                (f.is_finite() && f.to_rational() == *q).then_some(f + 0.0)
            });
            match dyadic_test(t) {
                Some(f) => {
                    assert_eq!(Some(f.to_bits()), want.map(f64::to_bits), "{t}");
                    // parse_exact charges nothing for it either.
                    with_line_budget(|| {
                        parse_exact(t).unwrap();
                        assert!(charge(max_input_bits()).is_ok(), "{t}");
                    });
                }
                None => {
                    // Only strings that are not plain dyadic doubles are left.
                    // (A denominator that is not a power of two as written,
                    // like 3/6, is left to `parse_exact`'s gcd.)
                    let plain = t.bytes().all(|c| c.is_ascii_digit() || b"+-/".contains(&c));
                    let q = t
                        .split_once('/')
                        .map_or(Some(1), |(_, q)| q.parse::<u128>().ok());
                    let two = q.is_some_and(u128::is_power_of_two);
                    assert!(
                        want.is_none() || !plain || !two || t.len() > 38,
                        "{t} left over"
                    );
                }
            }
        };
        for t in [
            "0",
            "-0",
            "+0",
            "0/1",
            "-0/8",
            "0/3",
            "1/0",
            "1",
            "-1",
            "+7",
            "3/8",
            "6/8",
            "-6/16",
            "1/3",
            "3/6",
            "9007199254740993",
            "9007199254740992",
            "18014398509481986/2",
            "73/2305843009213693952",
            "1/170141183460469231731687303715884105728",
            "340282366920938463463374607431768211455",
            "340282366920938463463374607431768211456",
            "3900231685776981/4503599627370496",
            "-5348868689029467/324518553658426726783156020576256",
            "007/014",
            "1/2/3",
            "1.5",
            "1e3",
            "",
            "-",
            "/2",
            "2/",
        ] {
            check(t);
        }
        let mut r = Xs(0x9e37_79b9_7f4a_7c15);
        for _ in 0..20_000 {
            let m = r.next() >> r.below(64);
            let (a, b) = (r.below(70), r.below(128));
            let p = (m as u128) << a.min(127 - (64 - m.leading_zeros()) as u64);
            let sign = ["", "-", "+"][r.below(3) as usize];
            check(&format!("{sign}{p}/{}", 1u128 << b));
            check(&format!("{sign}{p}"));
            check(&format!("{sign}{p}/{}", r.below(1000)));
        }
        assert_eq!(dyadic_test("3/4"), Some(0.75));
        assert_eq!(dyadic_test("-0/4").map(f64::to_bits), Some(0));
    }
}
