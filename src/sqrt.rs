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
    let mut x = rational_to_f64(r).sqrt();
    if x.is_infinite() {
        x = f64::MAX;
    }
    if x == 0.0 {
        x = f64::from_bits(1);
    }
    let mid = |a: f64, b: f64| -> BigRational {
        (a.to_rational() + b.to_rational()) / BigRational::from_integer(2.into())
    };
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
