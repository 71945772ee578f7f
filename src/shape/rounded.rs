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
use crate::hull::{convex_hull, ConvexHull};
use crate::num::scalar::Scalar;
use crate::num::sign::Sign;
use crate::vector::Vec3;
use num_rational::BigRational;

/// The core of a rounded shape.
#[derive(Clone, Debug)]
pub enum Core<S> {
    /// A point (a sphere's center).
    Point(Vec3<S>),
    /// A closed segment (a capsule's axis; equal end points are a point).
    Segment(Vec3<S>, Vec3<S>),
    /// One of the polytope shapes.
    Shape(Shape<S>),
    /// The convex hull of a point set (a point, a segment, a flat polygon or
    /// a polytope), computed exactly ([`crate::hull`]).
    Hull(Box<ConvexHull<S>>),
}

/// A core grown by a ball of radius `radius ≥ 0` (0 is the core itself).
#[derive(Clone, Debug)]
pub struct Rounded<S> {
    /// The shape that is grown.
    pub core: Core<S>,
    /// The radius of the ball it is grown by.
    pub radius: S,
}

/// The most points of a `convex` shape.
pub const MAX_CONVEX_POINTS: usize = 10_000;

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

    /// The convex hull of `points` (1 to 10,000 of them; interior and repeated
    /// points allowed) grown by `radius`; the hull is computed exactly.
    pub fn convex(points: &[Vec3<S>], radius: S) -> Result<Self, ShapeError> {
        check_radius(&radius)?;
        if points.len() > MAX_CONVEX_POINTS {
            return Err(ShapeError::new(
                "points",
                format!("{} points (at most {MAX_CONVEX_POINTS})", points.len()),
            ));
        }
        let hull = convex_hull(points).map_err(|e| ShapeError::new("points", e.to_string()))?;
        Ok(Rounded {
            core: Core::Hull(Box::new(hull)),
            radius,
        })
    }

    /// The core as polytope shapes whose union it is: a point or a segment as
    /// the degenerate triangle it is (the triangle paths answer degenerate
    /// triangles exactly), a hull as its faces fanned into triangles (a flat
    /// hull as its polygon fanned), any other shape itself.
    pub fn core_pieces(&self) -> Vec<Shape<S>> {
        let tri = |a: &Vec3<S>, b: &Vec3<S>, c: &Vec3<S>| {
            Shape::Triangle(Triangle::new([a.clone(), b.clone(), c.clone()]))
        };
        match &self.core {
            Core::Point(p) => vec![tri(p, p, p)],
            Core::Segment(a, b) => vec![tri(a, b, b)],
            Core::Shape(s) => vec![s.clone()],
            Core::Hull(h) => {
                let pts = h.vertex_points();
                match h.dim() {
                    0 => vec![tri(&pts[0], &pts[0], &pts[0])],
                    1 => vec![tri(&pts[0], &pts[1], &pts[1])],
                    2 => (1..pts.len() - 1)
                        .map(|i| tri(&pts[0], &pts[i], &pts[i + 1]))
                        .collect(),
                    _ => {
                        let at = |input: usize| {
                            let k = h
                                .vertices()
                                .binary_search(&input)
                                .expect("a face vertex is a hull vertex");
                            &pts[k]
                        };
                        let mut out = Vec::new();
                        for f in h.faces() {
                            let v = &f.vertices;
                            for i in 1..v.len() - 1 {
                                out.push(tri(at(v[0]), at(v[i]), at(v[i + 1])));
                            }
                        }
                        out
                    }
                }
            }
        }
    }
}

impl Rounded<BigRational> {
    /// [`Rounded::convex`] of exact rational points, the hull computed on the
    /// doubles when every coordinate is exactly one
    /// ([`crate::hull::convex_hull_rational`]: the same hull, faster).
    pub fn convex_rational(
        points: &[Vec3<BigRational>],
        radius: BigRational,
    ) -> Result<Self, ShapeError> {
        check_radius(&radius)?;
        if points.len() > MAX_CONVEX_POINTS {
            return Err(ShapeError::new(
                "points",
                format!("{} points (at most {MAX_CONVEX_POINTS})", points.len()),
            ));
        }
        let hull = crate::hull::convex_hull_rational(points)
            .map_err(|e| ShapeError::new("points", e.to_string()))?;
        Ok(Rounded {
            core: Core::Hull(Box::new(hull)),
            radius,
        })
    }
}
