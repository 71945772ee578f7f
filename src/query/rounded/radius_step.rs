//! The radius step from a proved cores' closest pair, in double-word
//! arithmetic with a proven error bound: the sign of `q − R²` and the double
//! nearest to `√q − R`, for `q` a rational (the cores' exact squared
//! distance, in lowest terms) and `R = r_a + r_b` a sum of two doubles.
//!
//! This is the step after every path that builds the cores' closest pair in
//! rationals (triangle, box, prism and cube cores on the polytope paths, and
//! any pair whose `RoundedClosest` is at hand): the exact step
//! ([`SqrtOffset`](crate::num::sqrt_offset::SqrtOffset)) compares `q` with
//! squares of rationals in big integers, several times per answer; here one
//! double-word evaluation decides almost every case.
//!
//! **Enclosure.** With `q = A/B`, each of `A`, `B` is held as its top 128
//! bits split into two doubles with a bound (`sqrt_affine::dx_mag`: the
//! truncation and the rounding of the low part, relative 2⁻¹⁰⁵), both
//! multiplied by one power of two `2⁻ˢ` that brings `B` into [1, 2)
//! (`sqrt_affine::scale`: exact but for underflow, which its bound covers).
//! The common factor leaves `A/B` and the sign of `A − B·R²` unchanged.
//!
//! **Meeting.** `sign(q − R²) = sign(A − B·R²)`, with `R = r_a + r_b`
//! formed by TwoSum and the product and difference in [`Dx`], each rounding
//! bounded; the sign is the exact one when the bound decides it.
//!
//! **Rounding.** For apart shapes, `nearest_sqrt_ratio_minus` (Ziv's test on
//! a Newton step, then the signs of `A − B(m + R)²` at the rounding
//! midpoints `m`), the same code as the point–box path's.
//!
//! Where a sign is undecided (touching shapes, where `q = R²`; a value
//! within about 2⁻¹⁰⁰ relative of a rounding midpoint; `q` or the result
//! outside the doubles' normal range), the exact step answers; both are
//! counted in [`crate::stats::ROUNDED_RADIUS_STEP`].

use super::RoundedClosest;
use crate::num::double_word::{nearest_sqrt_ratio_minus, Dx};
use crate::num::ring::Ring;
use crate::num::sign::Sign;
use crate::num::sqrt_affine::{dx_mag, expo, scale};
use crate::stats::ROUNDED_RADIUS_STEP;
use num_rational::BigRational;
use num_traits::Zero;

/// `q = A/B` as double-word enclosures of `A·2⁻ˢ` and `B·2⁻ˢ`.
#[derive(Clone, Copy, Debug)]
struct Quot {
    a: Dx,
    b: Dx,
}

impl Quot {
    /// The enclosure of `q > 0` (lowest terms or not: only `A/B` matters).
    fn of(q: &BigRational) -> Quot {
        let (a, ka) = dx_mag(q.numer().magnitude());
        let (b, kb) = dx_mag(q.denom().magnitude());
        // 2^(kb + expo(b.h)) ≤ B < 2^(kb + expo(b.h) + 1).
        let s = kb + expo(b.h);
        Quot {
            a: scale(a, ka - s),
            b: scale(b, kb - s),
        }
    }

    /// The sign of `A − B·(r_a + r_b)²`, when the bound decides it.
    fn meet_sign(&self, ra: f64, rb: f64) -> Option<Sign> {
        let r = Dx::exact(ra).add_ref(&Dx::exact(rb));
        self.a.sub_ref(&self.b.mul_ref(&r.sq())).sign()
    }
}

/// What the filtered step decided.
enum Step {
    /// `q ≤ R²`.
    Meet,
    /// `q > R²`, and the nearest double to `√q − R` when it was certified.
    Apart(Option<f64>),
}

/// The filtered step; `None` when the sign of `q − R²` is undecided.
fn step(q: &BigRational, ra: f64, rb: f64, round: bool) -> Option<Step> {
    if q.is_zero() {
        return Some(Step::Meet);
    }
    let e = Quot::of(q);
    match e.meet_sign(ra, rb)? {
        Sign::Negative | Sign::Zero => Some(Step::Meet),
        Sign::Positive => Some(Step::Apart(if round {
            nearest_sqrt_ratio_minus(e.a, Some(e.b), ra, rb)
        } else {
            None
        })),
    }
}

/// [`RoundedClosest::intersects`] for `radius = r_a + r_b`, filtered.
pub(super) fn intersects(c: &RoundedClosest, ra: f64, rb: f64) -> bool {
    match step(&c.core.distance_squared, ra, rb, false) {
        Some(s) => {
            ROUNDED_RADIUS_STEP.fast();
            matches!(s, Step::Meet)
        }
        None => {
            ROUNDED_RADIUS_STEP.fallback();
            c.intersects()
        }
    }
}

/// [`RoundedClosest::distance_f64`] for `radius = r_a + r_b`, filtered.
pub(super) fn distance_f64(c: &RoundedClosest, ra: f64, rb: f64) -> f64 {
    match step(&c.core.distance_squared, ra, rb, true) {
        Some(Step::Meet) => {
            ROUNDED_RADIUS_STEP.fast();
            0.0
        }
        Some(Step::Apart(Some(x))) => {
            ROUNDED_RADIUS_STEP.fast();
            x
        }
        // Apart, the rounding undecided: the exact rounding (its own sign
        // test agrees, q > R²).
        Some(Step::Apart(None)) | None => {
            ROUNDED_RADIUS_STEP.fallback();
            c.distance_f64()
        }
    }
}
