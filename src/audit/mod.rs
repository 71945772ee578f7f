//! Published float algorithms **as written** (Nathan's cuboid and triangle
//! tests, the "Cube intersection algorithm" listing, Eberly's OBB table): plain
//! floats and their ε, transcribed faithfully and kept only to measure them
//! against the exact crate (`tests/box_audit.rs` and `tests/triangle_catalogue.rs`
//! count their disagreements on fixed samples; [`run`] audits them on the
//! hard-case generators for `exact-collision audit`). Nothing else in the crate
//! calls them; never use them for answers.

pub mod run;
pub mod seed000;
pub mod seed002;
pub mod seed003;
pub mod seed004;
