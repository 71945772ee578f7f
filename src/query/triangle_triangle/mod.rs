//! Triangle–triangle: `intersect` (with the whole intersection set) and
//! `distance`.
//!
//! | file | what it holds |
//! |---|---|
//! | `intersect.rs` | the entry points of `intersect`; Guigue–Devillers' orientation tests, exact on every input; the intersection set (point, segment, polygon); the exact reference pieces shared with `distance` (segment–segment, the separating axis) |
//! | `fast_intersect.rs` | the float-guided `intersect` certificates for double inputs: separating axes, crossing witnesses and coplanar contact sets built in fixed-width integers |
//! | `distance.rs` | the entry points of `distance`; the exact reference (every feature pair in rationals) and the interval-filtered closest-feature selection |
//! | `fast_distance.rs` | the float-guided closest pair for double inputs: feature selection by proven float bounds, the pair built in integers over one denominator and reduced once |
//!
//! Double inputs are recognised in `intersect.rs` (`as_doubles`) and take the
//! float-guided paths; what their proofs refuse goes to the exact reference,
//! counted in [`crate::stats`]. `docs/triangle.md` has the algorithms.

mod distance;
mod fast_distance;
mod fast_intersect;
mod intersect;

pub use distance::{distance, distance_exact, distance_reference};
pub use intersect::{
    intersect, intersect_exact, intersect_reference, intersect_with_contact_exact,
    intersection_set, intersection_set_exact, intersects, Contact,
};
