//! Published float algorithms **as written** (Nathan's cuboid and triangle
//! tests, the "Cube intersection algorithm" listing, Eberly's OBB table): plain
//! floats and their ε, transcribed faithfully and kept only to measure them
//! against the exact crate (`tests/box_audit.rs` and `tests/triangle_catalogue.rs`
//! count their disagreements on fixed samples; [`run`] audits them on the
//! hard-case generators for `exact-collision audit`). Nothing else in the crate
//! calls them; never use them for answers.
//!
//! One module per algorithm, named as `exact-collision audit` names it:
//!
//! | module | `audit` name | source |
//! |---|---|---|
//! | [`nathan_cuboid`] | `nathan-cuboid` | P. Nathan, "Notes on Cuboid-Cuboid Collision Detection", technical note, 2014 |
//! | [`cube_listing`] | `cube-listing` | "Cube intersection algorithm: a simple algorithm", web article with a Python listing (no author or date given) |
//! | [`eberly_obb`] | `eberly-obb` | D. Eberly, "Dynamic Collision Detection using Oriented Bounding Boxes", Geometric Tools, 1999 (the simplified table), as used by the "Overlap criterion for cubes" supporting information |
//! | [`nathan_triangle`] | `nathan-triangle` | P. Nathan, "Triangle – Triangle Collision Detection Strategy", technical note, 2015 |

pub mod cube_listing;
pub mod eberly_obb;
pub mod nathan_cuboid;
pub mod nathan_triangle;
pub mod run;
