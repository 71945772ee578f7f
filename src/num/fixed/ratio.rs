//! Exact rationals in lowest terms held in the fixed width, and what the
//! protocol needs of them computed on the limbs: the `BigRational`, the
//! nearest double, and the nearest double to the square root.
//!
//! A [`FixedRational`] is `±m·2^e / o` with m odd (or zero) and o odd and
//! prime to m: the numerator is `m·2^e` and the denominator o when e ≥ 0,
//! else m and `o·2^(−e)`, the same pair as num-rational's lowest terms.
//! The conversions to doubles decide every rounding exactly, with no
//! division and no allocation: the nearest double from the quotient q (one
//! word) and remainder of |r| at its last bit's exponent, one product of a
//! word by o (or o shifted) and a subtraction; the square root by
//! comparisons of `m·2^e` with `o·M²·2^(2E)` for the squares of midpoints'
//! mantissas M, one product of o by two words and a comparison of the limbs
//! aligned on the fly. Their answers are those of [`crate::num::scalar::rational_to_f64`] and
//! [`crate::num::sqrt::sqrt_nearest_f64`] on the same value: both are
//! functions of the value alone (the correctly rounded double, and the
//! double nearest the square root with the same start and steps), and where
//! o leaves too little room for the products the value goes to them.

use super::{big, ldexp, Nat, L};
use crate::num::scalar::rational_to_f64;
use crate::num::sqrt::{cmp_square, sqrt_nearest_by, sqrt_nearest_f64};
use num_bigint::{BigInt, Sign};
use num_rational::BigRational;
use num_traits::Zero;
use std::cmp::Ordering;

/// The most bits o may have for [`FixedRational::to_f64`] in the fixed
/// width: o times a quotient guess of at most 55 bits stays below
/// 2⁷⁵⁵ < 2⁷⁶⁸ (the method's other bounds there).
const ROUND_DEN_BITS: u64 = 700;

/// The most bits o may have for [`FixedRational::sqrt_f64`] in the fixed
/// width: o times the square of a midpoint's mantissa (below 2⁵⁵, so the
/// square below 2¹¹⁰) stays below 2⁷⁵⁰ < 2⁷⁶⁸.
const SQRT_DEN_BITS: u64 = 640;

/// `±m·2^e / o` in lowest terms (module docs): m odd, o odd, positive and
/// prime to m; zero as m = 0, e = 0, o = 1.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct FixedRational {
    neg: bool,
    m: Nat,
    e: i64,
    o: Nat,
}

impl FixedRational {
    pub(crate) const ZERO: FixedRational = FixedRational {
        neg: false,
        m: Nat::ZERO,
        e: 0,
        o: Nat {
            d: {
                let mut d = [0; L];
                d[0] = 1;
                d
            },
            n: 1,
        },
    };

    /// `±mag·2^p / (den·2^twos)` for an odd den > 0 prime to mag: the odd
    /// part of mag and the power of two that is left, in one exponent.
    pub(crate) fn new(neg: bool, mag: &Nat, den: &Nat, twos: u64, p: i64) -> FixedRational {
        if mag.is_zero() {
            return FixedRational::ZERO;
        }
        debug_assert!(den.low_word() & 1 == 1);
        let t = mag.trailing_zeros();
        FixedRational {
            neg,
            m: mag.shr(t),
            e: p - twos as i64 + t as i64,
            o: *den,
        }
    }

    pub(crate) fn is_neg(&self) -> bool {
        self.neg
    }

    /// The numerator's magnitude as `x·2^s`.
    pub(crate) fn numer(&self) -> (&Nat, u64) {
        (&self.m, self.e.max(0) as u64)
    }

    /// The denominator as `x·2^s` (1 exactly when x = 1 and s = 0).
    pub(crate) fn denom(&self) -> (&Nat, u64) {
        (&self.o, (-self.e).max(0) as u64)
    }

    /// The same value as a `BigRational` (lowest terms, as num-rational
    /// keeps them).
    pub(crate) fn to_big(&self) -> BigRational {
        if self.m.is_zero() {
            return BigRational::zero();
        }
        let (m, sm) = self.numer();
        let (o, so) = self.denom();
        let sign = if self.neg { Sign::Minus } else { Sign::Plus };
        BigRational::new_raw(
            BigInt::from_biguint(sign, big(m, sm as i64)),
            BigInt::from(big(o, so as i64)),
        )
    }

    /// The nearest double (ties to even; ±∞ past the range, subnormals
    /// below it), [`rational_to_f64`]'s answer.
    ///
    /// For |r| = m·2^e/o: a guess t of the exponent T of its leading bit
    /// (from the top 64 bits of m and o: off by at most one), the last
    /// bit's exponent l = max(t − 52, −1074), and |r|/2^l = X/Y with
    /// X = m·2^max(e−l, 0) and Y = o·2^max(l−e, 0). The quotient q comes
    /// from a float estimate corrected until the remainder R = X − q·Y is
    /// in [0, Y); a q outside [2⁵², 2⁵³) with l above −1074 shows t wrong,
    /// and t moves by one. Then q goes up when 2R > Y, or 2R = Y and q is
    /// odd; a q that reaches 2⁵³ is 2⁵² at the next exponent.
    ///
    /// Widths: t ≥ T − 1 makes q < 2^(T+1−l) ≤ 2⁵⁴, so X < 2⁵⁴·Y: for
    /// X = m·2^(e−l) below 2^(700+54) (o within [`ROUND_DEN_BITS`]), for
    /// Y = o·2^(l−e) X = m itself. A Y past X·2 (q = 0 and R < Y/2, the
    /// value rounds to 0) is not built; the products q·Y stay below 2X + Y
    /// and 2R below 2Y, checked against the width before each is formed
    /// (a guess that breaks them takes the `BigRational` route).
    pub(crate) fn to_f64(&self) -> f64 {
        if self.m.is_zero() {
            return 0.0;
        }
        let (m, o, e) = (&self.m, &self.o, self.e);
        const WIDTH: u64 = 64 * L as u64;
        if o.bits() > ROUND_DEN_BITS || m.bits() > WIDTH - 8 {
            return rational_to_f64(&self.to_big());
        }
        let signed = |v: f64| if self.neg { -v } else { v };
        let (mm, em) = lead(m);
        let (mo, eo) = lead(o);
        let f = mm as f64 / mo as f64;
        // f in (2⁻⁶⁴, 2⁶⁴): a normal double, its exponent from the bits.
        let mut t = ((f.to_bits() >> 52) & 0x7ff) as i64 - 1023 + em - eo + e;
        for _ in 0..3 {
            let l = (t - 52).max(-1074);
            let (x, y) = if e >= l {
                (m.shl((e - l) as u64), *o)
            } else {
                let b = (l - e) as u64;
                if o.bits() + b >= m.bits() + 2 {
                    // Y ≥ 2^(bits(m)+1) > 2X: |r|/2^l < 1/2.
                    if l == -1074 {
                        return signed(0.0);
                    }
                    t -= 1;
                    continue;
                }
                (*m, o.shl(b))
            };
            let est = ldexp(f, em - eo + e - l).floor();
            let mut q = if est >= 1.0 {
                est.min((1u64 << 54) as f64) as u64
            } else {
                0
            };
            if y.bits() + 64 - q.leading_zeros() as u64 >= WIDTH {
                break;
            }
            let mut yq = y.mul_word(q);
            while yq.cmp(&x) == Ordering::Greater {
                q -= 1;
                yq = yq.sub(&y);
            }
            let mut rem = x.sub(&yq);
            while rem.cmp(&y) != Ordering::Less {
                q += 1;
                rem = rem.sub(&y);
            }
            if q >> 53 != 0 {
                t += 1;
                continue;
            }
            if q >> 52 == 0 && l > -1074 {
                t -= 1;
                continue;
            }
            // 2R against Y (R < Y < 2^(WIDTH − 1)).
            let half = rem.shl(1).cmp(&y);
            let mut l = l;
            if half == Ordering::Greater || (half == Ordering::Equal && q & 1 == 1) {
                q += 1;
            }
            if q >> 53 != 0 {
                q >>= 1;
                l += 1;
            }
            if q == 0 {
                return signed(0.0);
            }
            if l + 52 > 1023 {
                return signed(f64::INFINITY);
            }
            let mut v = q as f64;
            let mut k = l;
            while k != 0 {
                let step = k.clamp(-1000, 1000);
                v *= 2f64.powi(step as i32);
                k -= step;
            }
            return signed(v);
        }
        // Never for a guess within one of T (above); exact all the same.
        rational_to_f64(&self.to_big())
    }

    /// The double nearest √r (ties to even), [`sqrt_nearest_f64`]'s
    /// answer: its start and steps (`sqrt_nearest_by`) with the
    /// comparisons of r with a squared midpoint (M·2^E)² made as
    /// m·2^e ≷ o·M²·2^(2E) in the fixed width.
    pub(crate) fn sqrt_f64(&self) -> f64 {
        if self.neg {
            return f64::NAN;
        }
        if self.m.is_zero() {
            return 0.0;
        }
        if self.o.bits() > SQRT_DEN_BITS {
            return sqrt_nearest_f64(&self.to_big());
        }
        let (m, sm) = self.numer();
        let (o, so) = self.denom();
        let e = (m.bits() + sm) as i64 - (o.bits() + so) as i64;
        let above = |&(mid, x): &(u128, i64)| -> Ordering {
            match mid.checked_mul(mid) {
                // Below 2¹¹⁰ (SQRT_DEN_BITS' bound) in the fixed width.
                Some(sq) if 128 - sq.leading_zeros() <= 110 => {
                    // o has at most 10 limbs, o·M² at most 12.
                    let mut p = [0u64; L];
                    let n = mul_u128(&self.o.d[..self.o.n], sq, &mut p);
                    cmp_limbs(&self.m.d[..self.m.n], self.e, &p[..n], 2 * x)
                }
                // Never for the midpoints of doubles (below 2⁵⁵); exact
                // all the same.
                _ => {
                    let r = self.to_big();
                    cmp_square(r.numer().magnitude(), r.denom().magnitude(), &(mid, x))
                }
            }
        };
        sqrt_nearest_by(e, lead_shifted(m, sm), lead_shifted(o, so), above)
    }
}

/// `(v, a)` with x ≈ v·2^a, v the top (at most) 64 bits of x > 0, for
/// the quotient estimate of [`FixedRational::to_f64`].
fn lead(x: &Nat) -> (u64, i64) {
    let b = x.bits();
    let s = b.saturating_sub(64);
    (x.shr(s).to_u64().unwrap_or(0), s as i64)
}

/// The leading bits of x·2^s as `num::sqrt`'s `lead` takes them from the
/// `BigUint` x·2^s: a = max(bits − 64, 0) and v = ⌊x·2^s / 2^a⌋ (at most
/// 64 bits), as a double.
fn lead_shifted(x: &Nat, s: u64) -> (f64, i64) {
    let bits = x.bits() + s;
    let a = bits.saturating_sub(64);
    let v = if a >= s {
        x.shr(a - s).to_u64().unwrap_or(0)
    } else {
        // a < s: bits − a ≤ 64 (a = 0 and bits ≤ 64, or a = bits − 64),
        // so x·2^(s−a) has at most 64 bits.
        x.to_u64().unwrap_or(0) << (s - a)
    };
    (v as f64, a as i64)
}

/// a·2^sa compared with b·2^sb for numbers given by their limbs (least
/// significant first, the top one nonzero; none for zero): by the leading
/// bit's place, and when that is the same, limb by limb from the top,
/// the one with the larger exponent shifted on the fly to the other's
/// limbs (it then has as many).
fn cmp_limbs(a: &[u64], sa: i64, b: &[u64], sb: i64) -> Ordering {
    match (a.is_empty(), b.is_empty()) {
        (true, true) => return Ordering::Equal,
        (true, false) => return Ordering::Less,
        (false, true) => return Ordering::Greater,
        _ => {}
    }
    let bits = |x: &[u64]| (64 * x.len() as u64 - x[x.len() - 1].leading_zeros() as u64) as i64;
    let (la, lb) = (bits(a) + sa, bits(b) + sb);
    if la != lb {
        return la.cmp(&lb);
    }
    let (x, y, s, flip) = if sa >= sb {
        (a, b, (sa - sb) as u64, false)
    } else {
        (b, a, (sb - sa) as u64, true)
    };
    let (w, r) = ((s / 64) as usize, (s % 64) as u32);
    // Limb i of x·2^s (zero past x's limbs).
    let limb = |i: usize| -> u64 {
        let at = |j: usize| {
            if j >= w {
                x.get(j - w).copied().unwrap_or(0)
            } else {
                0
            }
        };
        let hi = at(i) << r;
        if r == 0 || i == 0 {
            hi
        } else {
            hi | at(i - 1) >> (64 - r)
        }
    };
    for i in (0..y.len()).rev() {
        let xi = limb(i);
        if xi != y[i] {
            let o = xi.cmp(&y[i]);
            return if flip { o.reverse() } else { o };
        }
    }
    Ordering::Equal
}

/// The limbs of b·c into `out` (b's limbs, at most L − 2 of them), their
/// count (the top one nonzero): one pass per word of c.
fn mul_u128(b: &[u64], c: u128, out: &mut [u64; L]) -> usize {
    let n = b.len();
    out[..n + 2].fill(0);
    for (k, ck) in [c as u64, (c >> 64) as u64].into_iter().enumerate() {
        let mut carry = 0u128;
        for (i, &x) in b.iter().enumerate() {
            let v = x as u128 * ck as u128 + out[i + k] as u128 + carry;
            out[i + k] = v as u64;
            carry = v >> 64;
        }
        out[n + k] = carry as u64;
    }
    let mut len = n + 2;
    while len > 0 && out[len - 1] == 0 {
        len -= 1;
    }
    len
}

impl Nat {
    /// The significant limbs, least significant first (none for zero).
    pub(crate) fn limbs(&self) -> &[u64] {
        &self.d[..self.n]
    }

    /// The limbs of `self·2^s` into `out` (least significant first, the
    /// top one nonzero; none for zero), their count; `None` when they pass
    /// its 2·L limbs.
    pub(crate) fn shl_limbs(&self, s: u64, out: &mut [u64; 2 * L]) -> Option<usize> {
        if self.n == 0 {
            return Some(0);
        }
        let bits = self.bits() + s;
        if bits > 64 * 2 * L as u64 {
            return None;
        }
        let (w, b) = ((s / 64) as usize, (s % 64) as u32);
        let n = bits.div_ceil(64) as usize;
        out[..n].fill(0);
        for i in 0..self.n {
            out[i + w] |= self.d[i] << b;
            if b > 0 && i + w + 1 < n {
                out[i + w + 1] = self.d[i] >> (64 - b);
            }
        }
        Some(n)
    }
}

/// An exact value of the lean pose answers: in the fixed width, or a
/// `BigRational` where a value passes it.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum ExactValue {
    Fixed(FixedRational),
    Big(BigRational),
}

impl ExactValue {
    pub(crate) fn into_big(self) -> BigRational {
        match self {
            ExactValue::Fixed(x) => x.to_big(),
            ExactValue::Big(x) => x,
        }
    }

    /// [`rational_to_f64`] of the value.
    pub(crate) fn to_f64(&self) -> f64 {
        match self {
            ExactValue::Fixed(x) => x.to_f64(),
            ExactValue::Big(x) => rational_to_f64(x),
        }
    }

    /// [`sqrt_nearest_f64`] of the value.
    pub(crate) fn sqrt_f64(&self) -> f64 {
        match self {
            ExactValue::Fixed(x) => x.sqrt_f64(),
            ExactValue::Big(x) => sqrt_nearest_f64(x),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::num::scalar::Scalar;
    use crate::poly::planted::splitmix64;
    use num_bigint::BigUint;
    use num_integer::Integer;
    use num_traits::{One, Signed};

    /// A random number of 1 to `bits` bits (its top bit set), often with
    /// runs of ones or zeros (all-ones words, single bits).
    fn rand_big(bits: u64, s: &mut u64) -> BigUint {
        let b = 1 + splitmix64(s) % bits;
        let mut x = BigUint::zero();
        for _ in 0..b.div_ceil(64) {
            let w = match splitmix64(s) % 6 {
                0 => u64::MAX,
                1 => 0,
                2 => 1u64 << (splitmix64(s) % 64),
                _ => splitmix64(s),
            };
            x = (x << 64usize) | BigUint::from(w);
        }
        let x = x & ((BigUint::one() << b as usize) - 1u32);
        x | (BigUint::one() << (b - 1) as usize)
    }

    fn odd(x: BigUint) -> BigUint {
        let t = x.trailing_zeros().unwrap_or(0);
        x >> t as usize
    }

    /// The value ±m·2^e/o as `FixedRational::new` takes it (twos = 0), and
    /// the same value as num-rational's lowest terms.
    fn both(neg: bool, m: &BigUint, o: &BigUint, e: i64) -> (FixedRational, BigRational) {
        let f = FixedRational::new(neg, &Nat::from_biguint(m), &Nat::from_biguint(o), 0, e);
        let (mut n, mut d) = (BigInt::from(m.clone()), BigInt::from(o.clone()));
        if e >= 0 {
            n <<= e as usize;
        } else {
            d <<= (-e) as usize;
        }
        let r = BigRational::new(if neg { -n } else { n }, d);
        (f, r)
    }

    /// Random values, prime numerator and denominator: the numerator up to
    /// the whole width, the denominator up to past the fixed bounds (the
    /// `BigRational` fallbacks), small odd factors 3, 5, 7, 9, 15, 25, and
    /// exponents across the double range and past it both ways.
    fn random_values(n: usize, seed: u64) -> Vec<(FixedRational, BigRational)> {
        let mut s = seed;
        let small = [1u32, 3, 5, 7, 9, 15, 25];
        (0..n)
            .map(|i| {
                let m = rand_big(760, &mut s);
                let mut o = match i % 4 {
                    0 => BigUint::one(),
                    1 => BigUint::from(small[(splitmix64(&mut s) % 7) as usize]),
                    _ => odd(rand_big(if i % 8 == 2 { 760 } else { 640 }, &mut s)),
                };
                let g = m.gcd(&o);
                o /= &g;
                let m = m / &g;
                let e = match i % 3 {
                    0 => (splitmix64(&mut s) % 200) as i64 - 100,
                    1 => (splitmix64(&mut s) % 5000) as i64 - 2500,
                    // The leading bit near the subnormal range and the top.
                    _ => {
                        let k = m.bits() as i64 - o.bits() as i64;
                        let at = [-1074, -1075, -1076, -1022, 1023, 1024, -2150, 0];
                        at[(splitmix64(&mut s) % 8) as usize] - k + (splitmix64(&mut s) % 5) as i64
                            - 2
                    }
                };
                both(splitmix64(&mut s) & 1 == 1, &m, &o, e)
            })
            .collect()
    }

    /// Values at and next to rounding midpoints (m·2^e/o = (2q + 1)·2^(l−1)
    /// ± 1/o·2^e), of doubles' squares and squared midpoints (and ± the
    /// least step), in the normal and subnormal ranges and at the ends.
    fn adversarial(seed: u64) -> Vec<(FixedRational, BigRational)> {
        let mut s = seed;
        let mut out = Vec::new();
        let doubles = |s: &mut u64| -> f64 {
            match splitmix64(s) % 5 {
                0 => f64::from_bits(splitmix64(s) % 0x7ff0_0000_0000_0000),
                1 => f64::from_bits(splitmix64(s) % (1 << 53)),
                2 => f64::from_bits(0x7fef_ffff_ffff_ffff - splitmix64(s) % 4),
                3 => f64::from_bits(1 + splitmix64(s) % 4),
                _ => (splitmix64(s) % 1000 + 1) as f64,
            }
        };
        for i in 0..3000 {
            let x = doubles(&mut s);
            let up = x.next_up();
            // Past f64::MAX the next step is 2^1024 (the rounding
            // threshold to infinity is their midpoint).
            let b = if up.is_finite() {
                up.to_rational()
            } else {
                x.to_rational() + BigRational::from_integer(BigInt::from(1) << 971usize)
            };
            let a = x.to_rational();
            let mid = (&a + &b) / BigRational::from_integer(2.into());
            // The midpoint (of the double, for `to_f64`; its square for
            // `sqrt_f64`), exactly and moved by one unit of a random odd
            // denominator.
            let target = if i % 2 == 0 { mid.clone() } else { &mid * &mid };
            let o = match i % 3 {
                0 => BigUint::one(),
                1 => BigUint::from(3u32 + 2 * (splitmix64(&mut s) % 20) as u32),
                _ => odd(rand_big(300, &mut s)),
            };
            // target = n·2^k with n odd (a dyadic: its denominator a power
            // of two).
            let n = target.numer().magnitude();
            let tn = n.trailing_zeros().unwrap_or(0);
            let k = tn as i64 - target.denom().magnitude().trailing_zeros().unwrap_or(0) as i64;
            let num = (n >> tn as usize) * &o;
            for delta in [-1i32, 0, 1] {
                let m = match delta {
                    -1 => &num - 1u32,
                    0 => num.clone(),
                    _ => &num + 1u32,
                };
                if m.is_zero() {
                    continue;
                }
                let g = m.gcd(&o);
                let (m, o) = (&m / &g, &o / &g);
                let t = m.trailing_zeros().unwrap_or(0);
                out.push(both(false, &(&m >> t as usize), &o, t as i64 + k));
            }
        }
        out
    }

    fn check_f64(cases: &[(FixedRational, BigRational)]) {
        for (f, r) in cases {
            let (got, want) = (f.to_f64(), rational_to_f64(r));
            assert_eq!(got.to_bits(), want.to_bits(), "{r} {got:e} {want:e}");
            let r = r.abs();
            let f = FixedRational {
                neg: false,
                ..f.clone()
            };
            let (got, want) = (f.sqrt_f64(), sqrt_nearest_f64(&r));
            assert_eq!(got.to_bits(), want.to_bits(), "√{r} {got:e} {want:e}");
        }
    }

    /// `to_f64` and `sqrt_f64` give `rational_to_f64`'s and
    /// `sqrt_nearest_f64`'s doubles, bit for bit, on random values.
    #[test]
    fn doubles_agree_on_random_values() {
        check_f64(&random_values(4000, 0x5eed_1234));
    }

    /// The same at and next to the rounding midpoints, at the ends of the
    /// double range and in the subnormal range (ties to even, underflow to
    /// zero, overflow to infinity).
    #[test]
    fn doubles_agree_at_midpoints() {
        let cases = adversarial(0xfeed_beef);
        assert!(cases.len() > 8000);
        check_f64(&cases);
        // Powers of two around the ends: 2^k for k near −2150, −1075,
        // −1074, 1023, 1024, 2048, with odd denominators 1 and 3.
        let mut more = Vec::new();
        for k in [
            -2151i64, -2150, -2149, -1076, -1075, -1074, -1073, 1023, 1024, 2047, 2048, 2049,
        ] {
            for (m, o) in [(1u32, 1u32), (3, 1), (1, 3), (5, 3)] {
                more.push(both(false, &BigUint::from(m), &BigUint::from(o), k));
            }
        }
        check_f64(&more);
    }

    /// `to_big` is num-rational's lowest terms of the value.
    #[test]
    fn big_agrees() {
        let mut cases = random_values(2000, 0xabcd_ef01);
        cases.push((FixedRational::ZERO, BigRational::zero()));
        let z = FixedRational::new(true, &Nat::ZERO, &Nat::from_u128(7), 3, 5);
        cases.push((z, BigRational::zero()));
        for (f, r) in &cases {
            let b = f.to_big();
            assert_eq!((b.numer(), b.denom()), (r.numer(), r.denom()));
        }
    }

    /// `shl_limbs` is the `BigUint` shift, up to the 2·L limbs and `None`
    /// past them.
    #[test]
    fn shl_limbs_is_the_shift() {
        let mut s = 99u64;
        for i in 0..3000 {
            let x = if i % 50 == 0 {
                BigUint::zero()
            } else {
                rand_big(768, &mut s)
            };
            let sh = splitmix64(&mut s) % 900;
            let mut out = [7u64; 2 * L];
            let n = Nat::from_biguint(&x);
            let want = &x << sh as usize;
            match n.shl_limbs(sh, &mut out) {
                Some(k) => {
                    assert!(k == 0 || out[k - 1] != 0);
                    assert_eq!(
                        BigUint::from_slice(&{
                            let mut w = Vec::new();
                            for l in &out[..k] {
                                w.push(*l as u32);
                                w.push((l >> 32) as u32);
                            }
                            w
                        }),
                        want
                    );
                }
                None => assert!(want.bits() > 64 * 2 * L as u64),
            }
        }
    }

    /// `mul_u128` is the `BigUint` product, for factors of up to 640 bits
    /// and words 0, 1, all ones, small odd ones and random ones.
    #[test]
    fn mul_u128_multiplies() {
        let mut s = 11u64;
        for i in 0..3000 {
            let b = if i % 40 == 0 {
                BigUint::zero()
            } else {
                rand_big(640, &mut s)
            };
            let c = match i % 6 {
                0 => 0u128,
                1 => 1,
                2 => u128::MAX,
                3 => [3u128, 5, 7, 9, 15, 25][(splitmix64(&mut s) % 6) as usize],
                4 => splitmix64(&mut s) as u128,
                _ => (splitmix64(&mut s) as u128) << 64 | splitmix64(&mut s) as u128,
            };
            let nb = Nat::from_biguint(&b);
            let mut out = [7u64; L];
            let k = mul_u128(&nb.d[..nb.n], c, &mut out);
            let got = Nat { d: out, n: k };
            assert!(k == 0 || out[k - 1] != 0);
            assert_eq!(got.to_biguint(), &b * c);
        }
    }

    /// `cmp_limbs` is the comparison of the `BigUint`s a·2^sa, b·2^sb.
    #[test]
    fn cmp_limbs_compares() {
        let mut s = 5u64;
        for i in 0..4000 {
            let a = rand_big(640, &mut s);
            let b = match i % 3 {
                0 => a.clone(),
                1 => &a + 1u32,
                _ => rand_big(700, &mut s),
            };
            let (sa, sb) = (
                (splitmix64(&mut s) % 200) as i64 - 100,
                (splitmix64(&mut s) % 200) as i64 - 100,
            );
            let sb = if i % 5 == 0 { sa } else { sb };
            // The same value, or one unit off, with the power of two moved
            // between the number and the exponent (limbs shifted by any
            // amount, equal leading bits); zero on either side.
            let (b, sb) = match i % 7 {
                3 => {
                    let k = splitmix64(&mut s) % 130;
                    let c = &a << k as usize;
                    let c = match splitmix64(&mut s) % 3 {
                        0 => c,
                        1 => c + 1u32,
                        _ => c - 1u32,
                    };
                    (c, sa - k as i64)
                }
                4 => (BigUint::zero(), sb),
                _ => (b, sb),
            };
            let a = if i % 11 == 5 { BigUint::zero() } else { a };
            let lo = sa.min(sb);
            let want = (&a << (sa - lo) as usize).cmp(&(&b << (sb - lo) as usize));
            let (na, nb) = (Nat::from_biguint(&a), Nat::from_biguint(&b));
            let got = cmp_limbs(&na.d[..na.n], sa, &nb.d[..nb.n], sb);
            assert_eq!(got, want);
        }
    }
}
