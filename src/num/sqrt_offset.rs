//! `√q − R` for exact rationals `q, R ≥ 0`: its exact sign, exact comparisons
//! with rationals, and its nearest double, decided exactly.
//!
//! This is the distance of two rounded shapes (`q` the squared distance of
//! their cores, `R` the sum of their radii): irrational in general, so it is
//! kept as the pair `(q, R)` ([`SqrtOffset`]) and every question about it is
//! answered by comparing rationals.
//!
//! # Comparisons
//!
//! ```text
//! sign(√q − R)  = sign(q − R²)                         (both sides ≥ 0)
//! √q − R ≷ t    ⟺  √q ≷ t + R
//!               ⟺  q ≷ (t + R)²        when t + R ≥ 0
//!               and √q − R > t          when t + R < 0
//! ```
//!
//! # The nearest double
//!
//! [`SqrtOffset::nearest_f64`] never evaluates a square root in floats to
//! decide anything. It guesses `|x| ≈ |q − R²| / (√q + R)` (no cancellation:
//! the numerator is exact, the denominator a sum of nonnegative terms) in a
//! float with a separate 64-bit exponent, so that neither 2^±1000 inputs nor
//! subnormal results overflow the guess. Then it *proves* the rounding: `|x|`
//! is compared exactly with the midpoints between the guess `g` and its two
//! neighbours; between them (a midpoint itself goes to the neighbour with the
//! even significand) `g` is the answer, otherwise the guess steps to that
//! neighbour and is checked again. After eight steps it bisects on the bit
//! patterns of the doubles instead (at most 64 comparisons; counted by
//! [`bisection_fallbacks`]). Past `f64::MAX + ulp/2` the answer is `∞`. The result
//! has the sign of `x` (`−0.0` for a negative `x` below half the smallest
//! subnormal). Every comparison is between integers: with `q = a/b`,
//! `R = c/d` in lowest terms and `t = M·2^E`, `√q ≷ t + R` is
//! `a·D² ≷ b·N²` for `t + R = N/D` — no gcd, no rational reduction.
//!
//! Ties are possible only when `√q` is rational (then `x` is a rational that
//! may be a midpoint of two doubles); they round to even, as IEEE 754 does.
//!
//! ```
//! use exact_collision::num::sqrt_offset::SqrtOffset;
//! use exact_collision::Sign;
//! use num_rational::BigRational;
//! let r = |n: i64, d: i64| BigRational::new(n.into(), d.into());
//! let x = SqrtOffset::new(r(2, 1), r(1, 1)).unwrap(); // √2 − 1
//! assert_eq!(x.sign(), Sign::Positive);
//! assert_eq!(x.nearest_f64(), 0.41421356237309503); // nearest double to 0.414213562373095048…
//! assert_eq!(x.to_string(), "√(2) − 1");
//! // Touching: √(9/4) − 3/2 = 0.
//! assert_eq!(SqrtOffset::new(r(9, 4), r(3, 2)).unwrap().sign(), Sign::Zero);
//! ```

use crate::num::sign::Sign;
use num_bigint::{BigInt, Sign as BigSign};
use num_rational::BigRational;
use num_traits::{Signed, ToPrimitive};
use std::cmp::Ordering;
use std::fmt;

use crate::stats::SQRT_OFFSET_BISECTIONS as BISECTIONS;

/// How many [`SqrtOffset::nearest_f64`] calls so far (process-wide) found the
/// float guess more than eight ulps off and bisected instead of stepping.
pub fn bisection_fallbacks() -> u64 {
    BISECTIONS.get()
}

/// Why a [`SqrtOffset`] could not be built.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SqrtOffsetError {
    /// The radicand `q` is negative.
    NegativeRadicand,
    /// The offset `R` is negative.
    NegativeOffset,
}

impl fmt::Display for SqrtOffsetError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SqrtOffsetError::NegativeRadicand => write!(f, "√q − R: q is negative"),
            SqrtOffsetError::NegativeOffset => write!(f, "√q − R: R is negative"),
        }
    }
}

impl std::error::Error for SqrtOffsetError {}

/// The exact real number `√q − R`, with `q ≥ 0` and `R ≥ 0` rationals (kept in
/// lowest terms, as `BigRational` always is).
///
/// `Display` writes `√(q) − R` with both in lowest terms (`√(2) − 1/3`,
/// `√(0) − 0`); the protocol's form for such values is decided elsewhere.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SqrtOffset {
    q: BigRational,
    r: BigRational,
}

impl fmt::Display for SqrtOffset {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "√({}) − {}", self.q, self.r)
    }
}

impl SqrtOffset {
    /// `√q − r`; errors when `q < 0` or `r < 0`.
    pub fn new(q: BigRational, r: BigRational) -> Result<SqrtOffset, SqrtOffsetError> {
        if q.is_negative() {
            return Err(SqrtOffsetError::NegativeRadicand);
        }
        if r.is_negative() {
            return Err(SqrtOffsetError::NegativeOffset);
        }
        Ok(SqrtOffset { q, r })
    }

    /// The radicand `q`.
    pub fn q(&self) -> &BigRational {
        &self.q
    }

    /// The offset `R`.
    pub fn r(&self) -> &BigRational {
        &self.r
    }

    /// The exact sign of `√q − R`, that is of `q − R²`.
    pub fn sign(&self) -> Sign {
        let (a, b, c, d) = self.parts();
        // q − R² = (a·d² − b·c²) / (b·d²)
        Sign::from_ordering((a * d * d).cmp(&(b * c * c)))
    }

    /// `√q − R` compared with the rational `t`, exactly.
    pub fn cmp_rational(&self, t: &BigRational) -> Ordering {
        let s = t + &self.r;
        if s.is_negative() {
            return Ordering::Greater;
        }
        self.q.cmp(&(&s * &s))
    }

    /// The double nearest to `√q − R` (ties to even; `±∞` past the double
    /// range), decided exactly (see the [module docs](self)).
    pub fn nearest_f64(&self) -> f64 {
        let sign = self.sign();
        if sign == Sign::Zero {
            return 0.0;
        }
        let v = Abs::new(self, sign).nearest();
        if sign == Sign::Negative {
            -v
        } else {
            v
        }
    }

    /// The double nearest to `R − √q` (a penetration depth): exactly the
    /// negation of [`nearest_f64`](Self::nearest_f64), since rounding to nearest
    /// even is symmetric (`+0.0` when `√q = R`).
    pub fn neg_nearest_f64(&self) -> f64 {
        let v = self.nearest_f64();
        if v == 0.0 && self.sign() == Sign::Zero {
            0.0
        } else {
            -v
        }
    }

    /// The double nearest to `max(0, √q − R)` (a distance that is 0 when the
    /// shapes meet; never `−0.0`).
    pub fn clamped_nearest_f64(&self) -> f64 {
        if self.sign() == Sign::Positive {
            self.nearest_f64()
        } else {
            0.0
        }
    }

    /// `(a, b, c, d)` with `q = a/b`, `R = c/d`.
    fn parts(&self) -> (&BigInt, &BigInt, &BigInt, &BigInt) {
        (
            self.q.numer(),
            self.q.denom(),
            self.r.numer(),
            self.r.denom(),
        )
    }
}

/// `|√q − R|` for a nonzero `√q − R` of known sign, compared with dyadics.
struct Abs<'a> {
    a: &'a BigInt,
    b: &'a BigInt,
    c: &'a BigInt,
    d: &'a BigInt,
    positive: bool,
}

/// A nonnegative double as `(M, E)` with value `M·2^E`, `M` its full
/// significand and `2^E` its ulp.
pub(crate) fn parts(v: f64) -> (u64, i64) {
    let bits = v.to_bits();
    let ef = ((bits >> 52) & 0x7ff) as i64;
    let frac = bits & ((1u64 << 52) - 1);
    if ef == 0 {
        (frac, -1074)
    } else {
        (frac | (1u64 << 52), ef - 1075)
    }
}

impl<'a> Abs<'a> {
    fn new(x: &'a SqrtOffset, sign: Sign) -> Self {
        let (a, b, c, d) = x.parts();
        Abs {
            a,
            b,
            c,
            d,
            positive: sign == Sign::Positive,
        }
    }

    /// `|x|` compared with `M·2^E` (`M ≥ 0`).
    fn cmp(&self, m: &BigInt, e: i64) -> Ordering {
        // t + R or R − t as N / D with D = d·2^max(0, −E).
        let (tn, cn, den) = if e >= 0 {
            ((m << e as usize) * self.d, self.c.clone(), self.d.clone())
        } else {
            let s = (-e) as usize;
            (m * self.d, self.c << s, self.d << s)
        };
        let den2 = &den * &den;
        if self.positive {
            // |x| ≷ t ⟺ √(a/b) ≷ (tn + cn)/den ⟺ a·den² ≷ b·(tn + cn)²
            let n = tn + cn;
            (self.a * den2).cmp(&(self.b * &n * &n))
        } else {
            // |x| = R − √q ≷ t ⟺ (cn − tn)/den ≷ √(a/b)
            let n = cn - tn;
            if n.is_negative() {
                return Ordering::Less;
            }
            (self.b * &n * &n).cmp(&(self.a * den2))
        }
    }

    #[cfg(test)]
    fn cmp_f64(&self, v: f64) -> Ordering {
        let (m, e) = parts(v);
        self.cmp(&BigInt::from(m), e)
    }

    /// The float guess `|q − R²| / (√q + R)`, finite and ≥ 0.
    fn guess(&self) -> f64 {
        let (a, b, c, d) = (self.a, self.b, self.c, self.d);
        let num = (a * d * d - b * c * c).abs();
        let den = b * d * d;
        let sq = ef_sqrt(ef_div(ef(a), ef(b)));
        let r = ef_div(ef(c), ef(d));
        let s = ef_add(sq, r);
        let g = ef_div(ef_div(ef(&num), ef(&den)), s);
        let v = ldexp(g.0, g.1);
        if v.is_finite() {
            v
        } else {
            f64::MAX
        }
    }

    fn nearest(&self) -> f64 {
        let (v, bisected) = round_nonneg(|m, e| self.cmp(m, e), self.guess());
        if bisected {
            BISECTIONS.add();
        }
        v
    }

    /// The nearest double by bisection alone (the fallback; tested against
    /// the stepping path).
    #[cfg(test)]
    fn nearest_by_bisection(&self) -> f64 {
        nearest_by_bisection(|m, e| self.cmp(m, e))
    }

    /// The largest nonnegative finite double ≤ |x| (bisection).
    #[cfg(test)]
    fn floor_by_bisection(&self) -> f64 {
        floor_by_bisection(|m, e| self.cmp(m, e))
    }
}

/// The double nearest to a nonnegative real `x` (ties to even, `∞` past
/// `f64::MAX + ulp/2`), given `cmp(M, E)`, the exact comparison of `x` with
/// `M·2^E` (`M ≥ 0`), and a finite nonnegative float guess.
///
/// Proves that `x` lies in the guess's rounding interval by two comparisons
/// with the midpoints to its neighbours; steps to a neighbour when one fails
/// (up to eight times), then bisects on the bit patterns (at most 64
/// comparisons). The flag says whether it bisected.
pub(crate) fn round_nonneg(cmp: impl Fn(&BigInt, i64) -> Ordering, guess: f64) -> (f64, bool) {
    let mut g = guess;
    for _ in 0..8 {
        let (m, e) = parts(g);
        let odd = m % 2 == 1;
        // Above the midpoint to next_up(g) (2^1024 past f64::MAX)?
        match cmp(&BigInt::from(2 * m + 1), e - 1) {
            Ordering::Greater => {
                if g == f64::MAX {
                    return (f64::INFINITY, false);
                }
                g = g.next_up();
                continue;
            }
            Ordering::Equal if odd => return (up(g), false),
            Ordering::Equal => return (g, false),
            Ordering::Less => {}
        }
        if g == 0.0 {
            return (0.0, false);
        }
        let p = g.next_down();
        let (mp, ep) = parts(p);
        match cmp(&BigInt::from(2 * mp + 1), ep - 1) {
            Ordering::Less => g = p,
            Ordering::Equal if odd => return (p, false),
            _ => return (g, false),
        }
    }
    (nearest_by_bisection(cmp), true)
}

/// [`round_nonneg`] by bisection alone.
fn nearest_by_bisection(cmp: impl Fn(&BigInt, i64) -> Ordering) -> f64 {
    let lo = floor_by_bisection(&cmp);
    let (m, e) = parts(lo);
    match cmp(&BigInt::from(2 * m + 1), e - 1) {
        Ordering::Less => lo,
        Ordering::Greater => up(lo),
        Ordering::Equal if m % 2 == 0 => lo,
        Ordering::Equal => up(lo),
    }
}

/// The largest nonnegative finite double ≤ x, by bisection on bit patterns
/// (ordered like the values for nonnegative doubles).
fn floor_by_bisection(cmp: impl Fn(&BigInt, i64) -> Ordering) -> f64 {
    let (mut lo, mut hi) = (0u64, f64::MAX.to_bits() + 1);
    // Invariant: value(lo) ≤ x; hi is past the range or value(hi) > x.
    while hi - lo > 1 {
        let mid = lo + (hi - lo) / 2;
        let (m, e) = parts(f64::from_bits(mid));
        if cmp(&BigInt::from(m), e) == Ordering::Less {
            hi = mid;
        } else {
            lo = mid;
        }
    }
    f64::from_bits(lo)
}

/// The next double up, `∞` after `f64::MAX`.
fn up(v: f64) -> f64 {
    if v == f64::MAX {
        f64::INFINITY
    } else {
        v.next_up()
    }
}

/// A positive number as `(v, k)`, value about `v·2^k`, `v` a double in [1, 2^64).
pub(crate) type Ef = (f64, i64);

pub(crate) fn ef(n: &BigInt) -> Ef {
    let bits = n.bits() as i64;
    let k = (bits - 64).max(0);
    let top = n.magnitude() >> k as usize;
    let v = top.to_u64().map_or(1.0, |t| t as f64);
    if n.sign() == BigSign::NoSign {
        (0.0, 0)
    } else {
        (v, k)
    }
}

pub(crate) fn normal(x: Ef) -> Ef {
    if x.0 == 0.0 || !x.0.is_finite() {
        return x;
    }
    // The exponent from the bits for a normal double (log2 for the others).
    let bits = x.0.abs().to_bits();
    let ef = (bits >> 52) as i64;
    let e = if ef > 0 {
        ef - 1023
    } else {
        x.0.abs().log2().floor() as i64
    };
    (ldexp(x.0, -e), x.1 + e)
}

pub(crate) fn ef_div(x: Ef, y: Ef) -> Ef {
    if y.0 == 0.0 {
        return (f64::INFINITY, 0);
    }
    normal((x.0 / y.0, x.1 - y.1))
}

pub(crate) fn ef_sqrt(x: Ef) -> Ef {
    let x = normal(x);
    if x.1 % 2 == 0 {
        (x.0.sqrt(), x.1 / 2)
    } else {
        ((2.0 * x.0).sqrt(), (x.1 - 1) / 2)
    }
}

pub(crate) fn ef_add(x: Ef, y: Ef) -> Ef {
    let (x, y) = (normal(x), normal(y));
    if x.0 == 0.0 {
        return y;
    }
    if y.0 == 0.0 {
        return x;
    }
    let (big, small) = if x.1 >= y.1 { (x, y) } else { (y, x) };
    let shift = small.1 - big.1;
    if shift < -1100 {
        return big;
    }
    normal((big.0 + ldexp(small.0, shift), big.1))
}

/// `x · 2^k` without intermediate overflow (one more rounding in the subnormal
/// range at most; the exact comparisons correct it).
pub(crate) fn ldexp(mut x: f64, mut k: i64) -> f64 {
    k = k.clamp(-5000, 5000);
    while k > 1000 {
        x *= pow2(1000);
        k -= 1000;
    }
    while k < -1000 {
        x *= pow2(-1000);
        k += 1000;
    }
    x * pow2(k)
}

/// `2^k` for `−1022 ≤ k ≤ 1023`, from its bits (exact).
fn pow2(k: i64) -> f64 {
    f64::from_bits(((k + 1023) as u64) << 52)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn r(n: i64, d: i64) -> BigRational {
        BigRational::new(n.into(), d.into())
    }

    #[test]
    fn negative_inputs_are_errors() {
        assert_eq!(
            SqrtOffset::new(r(-1, 2), r(1, 1)),
            Err(SqrtOffsetError::NegativeRadicand)
        );
        assert_eq!(
            SqrtOffset::new(r(1, 2), r(-1, 1)),
            Err(SqrtOffsetError::NegativeOffset)
        );
    }

    /// The bisection fallback gives the same double as the stepping path, on
    /// ordinary values, exact ties, subnormal and overflowing results.
    #[test]
    fn bisection_agrees_with_stepping() {
        let p2 = |e: i32| {
            if e >= 0 {
                BigRational::from_integer(BigInt::from(1) << e as usize)
            } else {
                BigRational::new(1.into(), BigInt::from(1) << (-e) as usize)
            }
        };
        let third = r(1, 3);
        let tie = |x: BigRational| {
            let s = &x + &third;
            (&s * &s, third.clone())
        };
        let cases = [
            (r(2, 1), r(1, 1)),
            (r(1, 3), r(5, 7)),
            (r(7, 1), r(0, 1)),
            (r(0, 1), r(5, 7)),
            tie(BigRational::from_integer(1.into()) + p2(-53)),
            tie(BigRational::from_integer(1.into()) + r(3, 1) * p2(-53)),
            tie(p2(-1075)),
            tie(r(3, 1) * p2(-1075)),
            (p2(-2100), r(0, 1)),
            (p2(2100), r(0, 1)),
            (p2(2046) * r(4, 1), r(0, 1)),
        ];
        for (q, rr) in cases {
            let x = SqrtOffset::new(q, rr).unwrap();
            let a = Abs::new(&x, x.sign());
            let lo = a.floor_by_bisection();
            assert_ne!(a.cmp_f64(lo), Ordering::Less);
            assert!(lo == f64::MAX || a.cmp_f64(lo.next_up()) == Ordering::Less);
            assert_eq!(a.nearest_by_bisection(), a.nearest(), "{x}");
        }
    }
}
