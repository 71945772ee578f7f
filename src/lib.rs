//! # exact-collision
//!
//! Collision queries answered **exactly**: static overlap and distance for
//! triangles, boxes (parallelepipeds), z-rotated prisms and cubes, and continuous
//! collision of boxes under rational motion — each answer with a certificate that
//! anyone can check with a few exact dot products.
//!
//! Every *decision* (intersect or not, which feature, which root comes first) is
//! the exact sign of a polynomial in the inputs ([`predicates`]): filtered in
//! interval arithmetic, decided in exact arithmetic when the filter cannot. Every
//! *construction* (a distance, a witness point) is exact on the `BigRational` path
//! and rounded, with the decisions still exact, on the f32/f64 paths. No epsilon
//! decides anything.
//!
//! ```
//! use exact_collision::{predicates::orient3d, Sign, Vec3};
//! // Four points that a float determinant calls coplanar, or not, depending on
//! // evaluation order — here decided exactly.
//! let p = |x: f64, y: f64, z: f64| Vec3::new(x, y, z);
//! let s = orient3d(&p(0.1, 0.2, 0.3), &p(0.4, 0.5, 0.6), &p(0.7, 0.8, 0.9), &p(1.0, 1.1, 1.2));
//! assert_ne!(s, Sign::Zero); // 0.1, 0.2, … are not exactly collinear as doubles
//! ```
//!
//! The JSON Lines protocol is in [`protocol`]; the program `exact-collision`
//! speaks it.

pub mod audit;
pub mod cases;
pub mod ccd;
pub mod demo;
pub mod engines;
mod ergonomics;
pub mod hull;
pub mod mesh;
pub mod num;
pub mod poly;
pub mod predicates;
pub mod protocol;
pub mod query;
pub mod report;
pub mod shape;
pub mod shrink;
pub mod stats;
pub mod vector;

// The number types the API exposes (`BigRational` coordinates, `BigInt`
// polynomial coefficients), re-exported so that callers use the same versions.
pub use num_bigint;
pub use num_rational;

pub use num::dyadic::Dyadic;
pub use num::interval::Interval;
pub use num::ring::Ring;
pub use num::scalar::{ExactRing, Scalar};
pub use num::sign::Sign;
pub use shape::{Cube, Obb, Prism, Rotation, Shape, ShapeError, Triangle};
pub use vector::{Vec2, Vec3};
