//! Rounded shapes: a core grown by a ball, `{x : dist(x, core) ≤ r}`.
//!
//! A sphere is a point grown by its radius, a capsule a segment grown by its
//! radius, and a rounded triangle, box, prism or cube (parry's `RoundShape`,
//! an IPC offset surface, Jolt's convex radius) the shape itself grown. The
//! queries of two rounded shapes reduce exactly to their cores: with
//! `R = r_a + r_b` and `q` the cores' squared distance, they meet iff
//! `q ≤ R²` and their distance is `max(0, √q − R)`
//! ([`crate::query::rounded`]).

use super::{Shape, ShapeError, Triangle};
use crate::num::scalar::Scalar;
use crate::num::sign::Sign;
use crate::vector::Vec3;

/// The core of a rounded shape.
#[derive(Clone, Debug, PartialEq)]
pub enum Core<S> {
    /// A point (a sphere's center).
    Point(Vec3<S>),
    /// A closed segment (a capsule's axis; equal end points are a point).
    Segment(Vec3<S>, Vec3<S>),
    /// One of the polytope shapes.
    Shape(Shape<S>),
}

/// A core grown by a ball of radius `radius ≥ 0` (0 is the core itself).
#[derive(Clone, Debug, PartialEq)]
pub struct Rounded<S> {
    /// The shape that is grown.
    pub core: Core<S>,
    /// The radius of the ball it is grown by.
    pub radius: S,
}

fn check_radius<S: Scalar>(r: &S) -> Result<(), ShapeError> {
    if !r.is_finite() {
        return Err(ShapeError::new("radius", "not a finite number"));
    }
    if r.sign() == Sign::Negative {
        return Err(ShapeError::new("radius", "negative radius"));
    }
    Ok(())
}

impl<S: Scalar> Rounded<S> {
    /// The ball of `radius` around `center`; an error naming `radius` when it
    /// is negative or not finite.
    ///
    /// ```
    /// use exact_collision::shape::Rounded;
    /// use exact_collision::Vec3;
    /// assert!(Rounded::sphere(Vec3::new(0.0, 0.0, 0.0), 1.0).is_ok());
    /// assert_eq!(Rounded::sphere(Vec3::new(0.0, 0.0, 0.0), -1.0).unwrap_err().field, "radius");
    /// ```
    pub fn sphere(center: Vec3<S>, radius: S) -> Result<Self, ShapeError> {
        check_radius(&radius)?;
        Ok(Rounded {
            core: Core::Point(center),
            radius,
        })
    }

    /// The segment `[a, b]` grown by `radius` (`a = b` is a sphere).
    pub fn capsule(a: Vec3<S>, b: Vec3<S>, radius: S) -> Result<Self, ShapeError> {
        check_radius(&radius)?;
        Ok(Rounded {
            core: Core::Segment(a, b),
            radius,
        })
    }

    /// `shape` grown by `radius`.
    pub fn new(shape: Shape<S>, radius: S) -> Result<Self, ShapeError> {
        check_radius(&radius)?;
        Ok(Rounded {
            core: Core::Shape(shape),
            radius,
        })
    }

    /// The core as a polytope shape: a point or a segment as the degenerate
    /// triangle it is (the triangle paths answer degenerate triangles exactly).
    pub fn core_shape(&self) -> Shape<S> {
        match &self.core {
            Core::Point(p) => Shape::Triangle(Triangle::new([p.clone(), p.clone(), p.clone()])),
            Core::Segment(a, b) => {
                Shape::Triangle(Triangle::new([a.clone(), b.clone(), b.clone()]))
            }
            Core::Shape(s) => s.clone(),
        }
    }
}
