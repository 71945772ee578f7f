//! The seed documents' algorithms **as published**: plain floats and their ε,
//! kept only to measure them against the exact crate (`tests/box_audit.rs`
//! counts their disagreements on a fixed sample). Nothing else in the crate
//! calls them; never use them for answers.

pub mod seed000;
pub mod seed002;
pub mod seed003;
