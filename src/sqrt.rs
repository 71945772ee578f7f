//! The nearest double to the square root of an exact rational.

use crate::scalar::{rational_to_f64, Scalar};
use num_rational::BigRational;
use num_traits::{Signed, Zero};

/// The double nearest to √r (ties to even), decided exactly: start from the
/// float square root of the rounded value (within a few ulps) and step to the
/// neighbour whose rounding interval contains √r, comparing r with squared
/// midpoints in exact arithmetic. `r < 0` gives NaN.
///
/// ```
/// use exact_collision::sqrt::sqrt_nearest_f64;
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
    let mut x = ldexp(rational_to_f64(&scaled).sqrt(), k);
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
}
