//! Two boxes under rational motion: the Minkowski-sum method of Albocher et
//! al. (ICRA 2006) swept over t, its float-guided form, and an independent
//! second method.
//!
//! | module | what it holds |
//! |---|---|
//! | [`motion`] | rational affine motions (matrix over a denominator, quaternion curve plus translation) as one exact type |
//! | [`sgm`] | the exact method: the Minkowski sum's planes through the boxes' spherical Gauss maps, each a polynomial in t |
//! | [`sweep`] | the certified time sweep shared by both methods: first contact and end of contact as isolating intervals |
//! | [`guided`] | the float-guided sweep: the same answer from certified float signs, the exact sweep where they do not suffice |
//! | `fpoly` | polynomials with f64 coefficients and a certified error bound (the guided sweep's numbers) |
//! | [`float`] | the plain f64 pipeline (`ccd_f64`), for comparison with float engines |
//! | [`sat`] | the separating-axis test over time in world coordinates: the independent second method of the tests |
//! | [`plot`] | an SVG drawing of the constraint functions over t (`ccd --plot`) |
//!
//! The entry points, [`crate::ccd::ccd`] and [`crate::ccd::ccd_with_limits`],
//! are in [`crate::ccd`]; `docs/ccd.md` has the method.

pub mod float;
pub(crate) mod fpoly;
pub mod guided;
pub mod motion;
pub mod plot;
pub mod sat;
pub mod sgm;
pub mod sweep;
