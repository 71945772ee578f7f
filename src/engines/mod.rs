//! Adapters to other collision engines: each gives a float engine the very
//! shapes the exact side answers, turns the engine's answers into claims on
//! protocol lines, and judges them as `exact-collision verify` does. One
//! module per engine, each behind the cargo feature that brings the engine in
//! (they stay out of the default build).
//!
//! | module | engine | feature | command |
//! |---|---|---|---|
//! | `parry` | parry3d (f32) and parry3d-f64 | `parry` | `exact-collision check-parry` |

#[cfg(feature = "parry")]
pub mod parry;
