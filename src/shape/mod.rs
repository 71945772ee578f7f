//! Shapes: validated constructors, generic over the scalar.
//!
//! Every shape is a closed convex point set; touching counts as intersecting.
//! Constructors check their input with exact predicates and say what is wrong;
//! nothing is ever silently repaired except the prism's vertex order, which
//! P. Nathan's "Notes on Cuboid-Cuboid Collision Detection" (2014) asks for.

mod cube;
mod obb;
mod pose;
mod prism;
mod rounded;
mod triangle;

pub use cube::Cube;
pub use obb::Obb;
pub use pose::Rotation;
pub use prism::Prism;
pub use rounded::{Core, Rounded, MAX_CONVEX_POINTS};
pub use triangle::Triangle;

use crate::num::ring::Ring;
use crate::num::scalar::Scalar;
use crate::predicates::Expr;
use crate::vector::Vec3;
use num_rational::BigRational;

/// A shape the queries accept.
#[derive(Clone, Debug, PartialEq)]
pub enum Shape<S> {
    /// Three vertices.
    Triangle(Triangle<S>),
    /// A parallelepiped: center + three half-axes.
    Box(Obb<S>),
    /// A z-extruded convex quadrilateral (Nathan's z-rotated cuboid, generalised).
    Prism(Prism<S>),
    /// Eight labelled vertices (a parallelepiped), as in the "Cube intersection
    /// algorithm" article.
    Cube(Cube<S>),
}

/// A defect of a shape's input, named for the user.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ShapeError {
    /// The sub-field at fault, relative to the shape (`"base"`, `"vertices[6]"`), or empty.
    pub field: String,
    /// What is wrong.
    pub defect: String,
}

impl ShapeError {
    pub(crate) fn new(field: impl Into<String>, defect: impl Into<String>) -> Self {
        ShapeError {
            field: field.into(),
            defect: defect.into(),
        }
    }
}

impl std::fmt::Display for ShapeError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.field.is_empty() {
            write!(f, "{}", self.defect)
        } else {
            write!(f, "{}: {}", self.field, self.defect)
        }
    }
}

impl<S: Scalar> Shape<S> {
    /// The box of a box or a cube (a cube is its box); `None` for the other
    /// kinds.
    pub fn as_box(&self) -> Option<&Obb<S>> {
        match self {
            Shape::Box(b) => Some(b),
            Shape::Cube(c) => Some(c.obb()),
            _ => None,
        }
    }

    /// The protocol's name of the shape kind.
    pub fn kind(&self) -> &'static str {
        match self {
            Shape::Triangle(_) => "triangle",
            Shape::Box(_) => "box",
            Shape::Prism(_) => "prism",
            Shape::Cube(_) => "cube",
        }
    }

    /// The vertices of the shape's convex hull (with repetitions for degenerate
    /// input). Support functions and certificate checks use them.
    pub fn vertices(&self) -> Vec<Vec3<S>> {
        match self {
            Shape::Triangle(t) => t.v.to_vec(),
            Shape::Box(b) => b.vertices().to_vec(),
            Shape::Prism(p) => p.vertices().to_vec(),
            Shape::Cube(c) => c.vertices.to_vec(),
        }
    }

    /// The same shape with every coordinate rounded to `T` (exact for `T` =
    /// `BigRational`), validated again in `T`: rounding can make a valid shape
    /// invalid, and that is an error, not a silent repair.
    pub fn convert<T: Scalar>(&self) -> Result<Shape<T>, ShapeError> {
        let p = |v: &Vec3<S>| Vec3::<T>::from_rational(&v.to_rational());
        let s = |x: &S| T::from_rational(&x.to_rational());
        Ok(match self {
            Shape::Triangle(t) => {
                Shape::Triangle(Triangle::new([p(&t.v[0]), p(&t.v[1]), p(&t.v[2])]))
            }
            Shape::Box(b) => Shape::Box(Obb::new(
                p(&b.center),
                [p(&b.half_axes[0]), p(&b.half_axes[1]), p(&b.half_axes[2])],
            )?),
            Shape::Prism(pr) => Shape::Prism(Prism::new(
                pr.base.clone().map(|q| crate::Vec2::new(s(&q.x), s(&q.y))),
                s(&pr.zmin),
                s(&pr.zmax),
            )?),
            Shape::Cube(c) => Shape::Cube(Cube::new(c.vertices.clone().map(|v| p(&v)))?),
        })
    }

    /// Whether `q` lies in the closed shape, decided exactly.
    pub fn contains(&self, q: &Vec3<S>) -> bool {
        match self {
            Shape::Triangle(t) => t.contains(q),
            Shape::Box(b) => b.contains(q),
            Shape::Prism(p) => p.contains(q),
            Shape::Cube(c) => c.obb().contains(q),
        }
    }

    /// The exact value of every coordinate.
    pub fn to_rational(&self) -> Shape<BigRational> {
        self.convert::<BigRational>()
            .expect("an exact copy of a valid shape is valid")
    }
}

/// `a − b − c + d`, coordinate `i`: zero exactly when `a − b = c − d` there.
pub(crate) struct ParallelogramDefect<'a, S>(pub [&'a Vec3<S>; 4], pub usize);

impl<S> Expr<S> for ParallelogramDefect<'_, S> {
    fn eval<R: Ring, L: Fn(&S) -> R>(&self, l: &L) -> R {
        let [a, b, c, d] = self.0;
        let i = self.1;
        l(a.get(i))
            .sub_ref(&l(b.get(i)))
            .sub_ref(&l(c.get(i)))
            .add_ref(&l(d.get(i)))
    }
}

/// `det[u, v, w]`, the triple product.
pub(crate) struct Det3<'a, S>(pub &'a Vec3<S>, pub &'a Vec3<S>, pub &'a Vec3<S>);

impl<S> Expr<S> for Det3<'_, S> {
    fn eval<R: Ring, L: Fn(&S) -> R>(&self, l: &L) -> R {
        self.0.map(l).cross(&self.1.map(l)).dot(&self.2.map(l))
    }
}
