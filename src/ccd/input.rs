//! The typed inputs of continuous collision: what a Rust caller builds, and
//! what the protocol parses a `ccd`, `ccd_vf` or `ccd_ee` line into.

use crate::shape::Obb;
use crate::vector::Vec3;
use num_rational::BigRational;

/// A polynomial in t: coefficients in ascending powers, exact.
pub type PolyCoeffs = Vec<BigRational>;

/// A `ccd` query.
#[derive(Clone, Debug)]
pub struct CcdQuery {
    /// Box a and its motion.
    pub a: MovingBox,
    /// Box b and its motion.
    pub b: MovingBox,
    /// The closed time range [t0, t1], t0 ≤ t1.
    pub t_range: (BigRational, BigRational),
    /// The largest width of a reported isolating interval (> 0).
    pub tolerance: BigRational,
}

/// A box in its local frame and the motion that maps it to the world.
#[derive(Clone, Debug)]
pub struct MovingBox {
    /// The box (a cube is given as its box).
    pub shape: Obb<BigRational>,
    /// Local → world at time t.
    pub motion: Motion,
}

/// The protocol's MOTION forms.
#[derive(Clone, Debug, PartialEq)]
pub enum Motion {
    /// No motion.
    Identity,
    /// Row-vector convention: world = ([x y z 1]·M(t))[0..3] / denominator(t).
    /// `rows[i][j]` is M's entry (i, j) for j < 3; the fourth column is
    /// implicitly (0, 0, 0, denominator).
    Matrix {
        /// Four rows of three polynomials.
        rows: [[PolyCoeffs; 3]; 4],
        /// The common denominator.
        denominator: PolyCoeffs,
    },
    /// v ↦ q·v·q̄/|q|² + translation(t).
    Quaternion {
        /// (w, x, y, z), polynomials in t.
        q: [PolyCoeffs; 4],
        /// Added after the rotation.
        translation: [PolyCoeffs; 3],
    },
}

/// A `ccd_vf` / `ccd_ee` query: four points at t = 0 and at t = 1.
#[derive(Clone, Debug)]
pub struct PointCcd {
    /// Positions at t = 0.
    pub t0: [Vec3<BigRational>; 4],
    /// Positions at t = 1.
    pub t1: [Vec3<BigRational>; 4],
    /// The largest width of the reported interval.
    pub tolerance: BigRational,
}
