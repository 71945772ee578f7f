//! The nearest double to the square root of an exact rational.

use crate::num::dyadic::f64_parts;
use num_bigint::BigUint;
use num_rational::BigRational;
use num_traits::{Signed, Zero};
use std::cmp::Ordering;

/// The double nearest to √r (ties to even), decided exactly: start from the
/// float square root of the rounded value (within a few ulps) and step to the
/// neighbour whose rounding interval contains √r, comparing r with squared
/// midpoints in exact arithmetic. `r < 0` gives NaN.
///
/// ```
/// use exact_collision::num::sqrt::sqrt_nearest_f64;
/// use num_rational::BigRational;
/// assert_eq!(sqrt_nearest_f64(&BigRational::new(9.into(), 4.into())), 1.5);
/// assert_eq!(sqrt_nearest_f64(&BigRational::new(2.into(), 1.into())), 2f64.sqrt());
/// ```
pub fn sqrt_nearest_f64(r: &BigRational) -> f64 {
    if r.is_negative() {
        return f64::NAN;
    }
    if r.is_zero() {
        return 0.0;
    }
    // r = p/q in lowest terms, q > 0. Every comparison below is between
    // integers (no gcd): r ≷ m² with m = M·2^E dyadic is p·2^(−2E) ≷ q·M².
    let (p, q) = (r.numer().magnitude(), r.denom().magnitude());
    let e = p.bits() as i64 - q.bits() as i64;
    sqrt_nearest_by(e, lead(p), lead(q), |m| cmp_square(p, q, m))
}

/// [`sqrt_nearest_f64`] of r = p/q > 0 (lowest terms) given by
/// e = bits(p) − bits(q), the leading bits of p and q as `lead` gives them,
/// and `above(M, E)`: r compared with (M·2^E)². The answer depends only on
/// these, so a caller holding p and q in another form (the fixed-width
/// [`crate::num::fixed`] rationals) gets the same double.
pub(crate) fn sqrt_nearest_by(
    e: i64,
    (pv, pa): (f64, i64),
    (qv, qa): (f64, i64),
    above: impl Fn(&(u128, i64)) -> Ordering,
) -> f64 {
    // Start from √(r / 4^k) · 2^k with r / 4^k in [1/4, 4): the rounded value of
    // r itself may overflow or underflow (r can be far outside the double range
    // while √r is inside it). The start is within a few ulps.
    let k = e.div_euclid(2);
    let scaled = ldexp(pv / qv, pa - qa - 2 * k);
    let mut x = ldexp(scaled.sqrt(), k);
    if x.is_infinite() {
        // √r ≥ the midpoint of f64::MAX and 2^1024 rounds to infinity.
        if above(&mid(f64::MAX, None)) != Ordering::Less {
            return f64::INFINITY;
        }
        x = f64::MAX;
    }
    if x == 0.0 {
        x = f64::from_bits(1);
    }
    let odd = |x: f64| x.to_bits() & 1 == 1;
    for _ in 0..64 {
        let up = x.next_up();
        if up.is_finite() {
            match above(&mid(x, Some(up))) {
                Ordering::Greater => {
                    x = up;
                    continue;
                }
                Ordering::Equal if odd(x) => {
                    x = up;
                    continue;
                }
                _ => {}
            }
        }
        let down = x.next_down();
        let c = above(&mid(down.max(0.0), Some(x)));
        if down == 0.0 {
            // between 0 and the smallest subnormal
            if c == Ordering::Less {
                return 0.0;
            }
        } else if c == Ordering::Less || (c == Ordering::Equal && odd(x)) {
            x = down;
            continue;
        }
        break;
    }
    x
}

/// `n ≈ v·2^a` with `v` its leading (at most 64) bits as a double.
fn lead(n: &BigUint) -> (f64, i64) {
    let a = (n.bits() as i64 - 64).max(0);
    let v: u64 = (n >> a as usize).try_into().expect("at most 64 bits");
    (v as f64, a)
}

/// The midpoint of the doubles `a < b` (both ≥ 0 and finite), or of `f64::MAX`
/// and 2¹⁰²⁴ for `b = None`, as `(M, E)` with value `M·2^E`.
fn mid(a: f64, b: Option<f64>) -> (u128, i64) {
    let parts = |x: f64| -> (u128, i64) {
        if x == 0.0 {
            return (0, 0);
        }
        let (m, e) = f64_parts(x);
        (m as u128, e)
    };
    let (ma, ea) = parts(a);
    let (mb, eb) = match b {
        Some(b) => parts(b),
        None => (1, 1024),
    };
    let e = match (ma, mb) {
        (0, _) => eb,
        (_, 0) => ea,
        _ => ea.min(eb),
    };
    // Both mantissas are below 2⁵³ and exponents of neighbours differ by at
    // most 53 after f64_parts strips trailing zeros (a zero operand is 0).
    let m = (ma << (ea - e).min(127) as u32) + (mb << (eb - e).min(127) as u32);
    (m, e - 1)
}

/// `p/q` compared with `(M·2^E)²`.
pub(crate) fn cmp_square(p: &BigUint, q: &BigUint, m: &(u128, i64)) -> Ordering {
    let (mm, e) = *m;
    let m2 = BigUint::from(mm) * BigUint::from(mm);
    let rhs = q * m2;
    if e >= 0 {
        p.cmp(&(rhs << (2 * e) as usize))
    } else {
        (p << (-2 * e) as usize).cmp(&rhs)
    }
}

/// `x · 2^k` without intermediate overflow (the result may round once more in
/// the subnormal range; the caller corrects by exact comparisons).
fn ldexp(mut x: f64, mut k: i64) -> f64 {
    while k > 1000 {
        x *= 2f64.powi(1000);
        k -= 1000;
    }
    while k < -1000 {
        x *= 2f64.powi(-1000);
        k += 1000;
    }
    x * 2f64.powi(k as i32)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::num::scalar::Scalar;
    use num_bigint::BigInt;

    /// √(x²) = x for doubles across the whole range, where x² overflows or
    /// underflows a double (the exact square is a rational, not a double).
    #[test]
    fn square_roots_outside_the_double_range_of_the_square() {
        for x in [
            1e300,
            1e155,
            1e-300,
            1e-161,
            f64::MAX,
            f64::MIN_POSITIVE,
            f64::from_bits(1),
            f64::from_bits(12345),
            3.0f64.sqrt() * 1e200,
            0.1,
        ] {
            let r = x.to_rational();
            assert_eq!(sqrt_nearest_f64(&(&r * &r)), x, "{x:e}");
        }
        // Beyond the double range: 10^400 squared, and a square just below the
        // rounding threshold of f64::MAX.
        let big = BigRational::from_integer(BigInt::from(10).pow(800));
        assert_eq!(sqrt_nearest_f64(&big), f64::INFINITY);
        let m = f64::MAX.to_rational();
        assert_eq!(sqrt_nearest_f64(&(&m * &m)), f64::MAX);
        // Far below the smallest subnormal: rounds to 0.
        let tiny = BigRational::new(1.into(), BigInt::from(10).pow(800));
        assert_eq!(sqrt_nearest_f64(&tiny), 0.0);
    }
    /// The previous implementation (rational arithmetic, checked by the test
    /// above in its time), as an independent reference.
    fn reference(r: &BigRational) -> f64 {
        if r.is_negative() {
            return f64::NAN;
        }
        if r.is_zero() {
            return 0.0;
        }
        let mid = |a: f64, b: f64| -> BigRational {
            (a.to_rational() + b.to_rational()) / BigRational::from_integer(2.into())
        };
        // Start from √(r / 4^k) · 2^k with r / 4^k in [1/4, 4): the rounded value of
        // r itself may overflow or underflow (r can be far outside the double range
        // while √r is inside it).
        let e = r.numer().bits() as i64 - r.denom().bits() as i64;
        let k = e.div_euclid(2);
        let scaled = if k >= 0 {
            BigRational::new(r.numer().clone(), r.denom() << (2 * k) as usize)
        } else {
            BigRational::new(r.numer() << (-2 * k) as usize, r.denom().clone())
        };
        let mut x = ldexp(crate::num::scalar::rational_to_f64(&scaled).sqrt(), k);
        if x.is_infinite() {
            // √r ≥ the midpoint of f64::MAX and 2^1024 rounds to infinity.
            let m = f64::MAX.to_rational()
                + BigRational::from_integer(num_bigint::BigInt::from(1) << 970usize);
            if *r >= &m * &m {
                return f64::INFINITY;
            }
            x = f64::MAX;
        }
        if x == 0.0 {
            x = f64::from_bits(1);
        }
        for _ in 0..64 {
            let up = x.next_up();
            if up.is_finite() {
                let m = mid(x, up);
                let m2 = &m * &m;
                if *r > m2 || (*r == m2 && x.to_bits() & 1 == 1) {
                    x = up;
                    continue;
                }
            }
            let down = x.next_down();
            if down > 0.0 {
                let m = mid(down, x);
                let m2 = &m * &m;
                if *r < m2 || (*r == m2 && x.to_bits() & 1 == 1) {
                    x = down;
                    continue;
                }
            } else if down == 0.0 {
                // between 0 and the smallest subnormal
                let m = mid(0.0, x);
                if *r < &m * &m {
                    return 0.0;
                }
            }
            break;
        }
        x
    }

    /// The integer comparisons agree with the rational reference on random
    /// rationals of many sizes, on squares of doubles and on exact ties
    /// (squared midpoints of neighbouring doubles, which round to even).
    #[test]
    fn agrees_with_the_rational_reference() {
        let mut s = 7u64;
        let mut next = || crate::poly::planted::splitmix64(&mut s);
        let big = |w: u64, n: &mut dyn FnMut() -> u64| {
            let mut x = BigInt::from(n() | 1);
            for _ in 0..w {
                x = (x << 64usize) + BigInt::from(n());
            }
            x
        };
        for i in 0..3000 {
            let (wp, wq) = (next() % 5, next() % 5);
            let r = match i % 3 {
                0 => BigRational::new(big(wp, &mut next), big(wq, &mut next)),
                1 => {
                    let x = f64::from_bits(next() % 0x7fe0_0000_0000_0000);
                    let r = x.to_rational();
                    &r * &r
                }
                _ => {
                    let x = f64::from_bits(next() % 0x7fe0_0000_0000_0000);
                    let m = (x.to_rational() + x.next_up().to_rational())
                        / BigRational::from_integer(2.into());
                    &m * &m
                }
            };
            assert_eq!(sqrt_nearest_f64(&r), reference(&r), "{r}");
        }
    }
}
