//! Triangle–triangle: `intersect` (with the whole intersection set) and
//! `distance`.
//!
//! The files are layered: each uses only the files in the rows above it
//! (tests aside, which also call the public entry points).
//!
//! | file | what it holds |
//! |---|---|
//! | `ints.rs` | the bottom of the float-guided paths: the 18 coordinates aligned to integers (`align`, `V`/`W`), the integer helpers (`sub`, `cross`, `idot`, `vertex`, `along`, `dyadic_q`), the error-bounded float `Ef`, `f` and `sdot`, the three-valued `and` of filter outcomes, and the unreduced integer points, axes and contact sets (`IPoint`, `IAxis`, `IContact`) with their exact (`to_q`) and correctly rounded (`round_q`) forms; uses no sibling |
//! | `exact.rs` | the exact pieces both operations share: `lift` to rationals, `point_segment`, `segment_segment`, the exhaustive closest-feature search `closest_features` (the distance reference; the last separating-axis candidate of `intersect`), and `as_doubles`, which recognises rational inputs that are doubles; uses no sibling |
//! | `fast_intersect.rs` | the float-guided `intersect` certificates for double inputs: separating axes, crossing witnesses (`crossing_witness`, also the distance path's common point) and coplanar contact sets built in fixed-width integers; uses `ints` |
//! | `fast_distance.rs` | the float-guided closest pair for double inputs: feature selection by proven float bounds, the pair built in integers over one denominator and reduced once; uses `ints` |
//! | `intersect.rs` | the entry points of `intersect`; Guigue–Devillers' orientation tests, exact on every input; the intersection set (point, segment, polygon); the exact separating axis; the dispatch of double inputs to the integer paths by configuration, for both operations (`fast_cert`; `distance_int`/`FastDistance`, and the exact common point `witness_exact`); uses `ints`, `exact`, `fast_intersect`, `fast_distance` |
//! | `distance.rs` | the entry points of `distance`; the exact reference (a common point from `intersect` when the triangles meet, else every feature pair in rationals) and the interval-filtered closest-feature selection; uses `ints`, `exact`, `intersect` |
//!
//! Double inputs (and rational inputs that are doubles, `exact.rs`'s
//! `as_doubles`) take the float-guided paths; what their proofs refuse goes
//! to the exact reference, counted in [`crate::stats`]. `docs/triangle.md`
//! has the algorithms.

mod distance;
mod exact;
mod fast_distance;
mod fast_intersect;
mod intersect;
mod ints;

pub use distance::{distance, distance_exact, distance_reference};
pub(crate) use exact::{point_segment, segment_segment};
pub use intersect::{
    intersect, intersect_exact, intersect_reference, intersect_with_contact_exact,
    intersection_set, intersection_set_exact, intersects, Contact,
};
