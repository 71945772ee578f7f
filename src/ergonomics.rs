//! Conveniences for library users, kept in one place: `Display` on the public
//! value types, `std::error::Error` on the error types, conversions from
//! arrays, and (with the `serde` cargo feature) `Serialize`/`Deserialize`.
//!
//! ```
//! use exact_collision::{Obb, Shape, Triangle, Vec3};
//! let v: Vec3<f64> = [1.0, 2.0, 0.5].into();
//! assert_eq!(v.to_string(), "(1, 2, 0.5)");
//! let t = Triangle::new([[0.0, 0.0, 0.0].into(), [1.0, 0.0, 0.0].into(), [0.0, 1.0, 0.0].into()]);
//! assert_eq!(Shape::Triangle(t).to_string(), "triangle (0, 0, 0), (1, 0, 0), (0, 1, 0)");
//! // Every error type is a `std::error::Error`.
//! let e: Box<dyn std::error::Error> = Box::new(
//!     Obb::new([0.0; 3].into(), [[1.0, 0.0, 0.0].into(), [0.0; 3].into(), [0.0, 0.0, 1.0].into()])
//!         .unwrap_err(),
//! );
//! assert!(e.to_string().starts_with("half_axes[1]: zero half-axis"));
//! ```

use crate::ccd::{CcdError, ContactTime, TimeKind};
use crate::num::dyadic::Dyadic;
use crate::num::interval::Interval;
use crate::num::sign::Sign;
use crate::protocol::ScalarKind;
use crate::query::{Closest, Intersection, QueryError};
use crate::shape::{Cube, Obb, Prism, Shape, ShapeError, Triangle};
use crate::vector::{Vec2, Vec3};
use std::fmt::{Display, Formatter, Result};

impl<T> From<[T; 3]> for Vec3<T> {
    fn from([x, y, z]: [T; 3]) -> Self {
        Vec3::new(x, y, z)
    }
}

impl<T> From<Vec3<T>> for [T; 3] {
    fn from(v: Vec3<T>) -> Self {
        [v.x, v.y, v.z]
    }
}

impl<T> From<[T; 2]> for Vec2<T> {
    fn from([x, y]: [T; 2]) -> Self {
        Vec2::new(x, y)
    }
}

impl<T> From<Vec2<T>> for [T; 2] {
    fn from(v: Vec2<T>) -> Self {
        [v.x, v.y]
    }
}

impl<T: Display> Display for Vec3<T> {
    fn fmt(&self, f: &mut Formatter<'_>) -> Result {
        write!(f, "({}, {}, {})", self.x, self.y, self.z)
    }
}

impl<T: Display> Display for Vec2<T> {
    fn fmt(&self, f: &mut Formatter<'_>) -> Result {
        write!(f, "({}, {})", self.x, self.y)
    }
}

impl<S: Display> Display for Triangle<S> {
    fn fmt(&self, f: &mut Formatter<'_>) -> Result {
        write!(f, "triangle {}, {}, {}", self.v[0], self.v[1], self.v[2])
    }
}

impl<S: Display> Display for Obb<S> {
    fn fmt(&self, f: &mut Formatter<'_>) -> Result {
        let h = &self.half_axes;
        write!(
            f,
            "box center {} half-axes {}, {}, {}",
            self.center, h[0], h[1], h[2]
        )
    }
}

impl<S: Display> Display for Prism<S> {
    fn fmt(&self, f: &mut Formatter<'_>) -> Result {
        let b = &self.base;
        write!(
            f,
            "prism base {}, {}, {}, {} z [{}, {}]",
            b[0], b[1], b[2], b[3], self.zmin, self.zmax
        )
    }
}

impl<S: Display> Display for Cube<S> {
    fn fmt(&self, f: &mut Formatter<'_>) -> Result {
        write!(f, "cube")?;
        for (i, v) in self.vertices.iter().enumerate() {
            write!(f, "{}{v}", if i == 0 { " " } else { ", " })?;
        }
        Ok(())
    }
}

impl<S: Display> Display for Shape<S> {
    fn fmt(&self, f: &mut Formatter<'_>) -> Result {
        match self {
            Shape::Triangle(t) => t.fmt(f),
            Shape::Box(b) => b.fmt(f),
            Shape::Prism(p) => p.fmt(f),
            Shape::Cube(c) => c.fmt(f),
        }
    }
}

impl<S: Display> Display for Intersection<S> {
    fn fmt(&self, f: &mut Formatter<'_>) -> Result {
        match self {
            Intersection::Overlap { witness } => write!(f, "intersect at {witness}"),
            Intersection::Separated { axis } => write!(f, "separated along {axis}"),
        }
    }
}

impl<S: Display> Display for Closest<S> {
    fn fmt(&self, f: &mut Formatter<'_>) -> Result {
        write!(
            f,
            "distance² {} between {} and {}",
            self.distance_squared, self.a, self.b
        )
    }
}

impl Display for Sign {
    fn fmt(&self, f: &mut Formatter<'_>) -> Result {
        f.write_str(match self {
            Sign::Negative => "negative",
            Sign::Zero => "zero",
            Sign::Positive => "positive",
        })
    }
}

impl Display for Interval {
    fn fmt(&self, f: &mut Formatter<'_>) -> Result {
        write!(f, "[{:e}, {:e}]", self.lo, self.hi)
    }
}

impl Display for Dyadic {
    /// The exact value in lowest terms (`-3/8`).
    fn fmt(&self, f: &mut Formatter<'_>) -> Result {
        write!(f, "{}", self.to_rational())
    }
}

impl Display for ScalarKind {
    fn fmt(&self, f: &mut Formatter<'_>) -> Result {
        f.write_str(self.name())
    }
}

impl Display for ContactTime {
    fn fmt(&self, f: &mut Formatter<'_>) -> Result {
        match self.kind {
            TimeKind::Root => write!(f, "t in [{}, {}] (≈ {:e})", self.lo, self.hi, self.f64),
            TimeKind::Start => write!(f, "t = {} (the start of the range)", self.lo),
            TimeKind::End => write!(f, "t = {} (the end of the range)", self.hi),
        }
    }
}

impl Display for CcdError {
    fn fmt(&self, f: &mut Formatter<'_>) -> Result {
        match self {
            CcdError::Vanishes(w) => write!(f, "{w} vanishes on t_range"),
        }
    }
}

impl std::error::Error for ShapeError {}
impl std::error::Error for QueryError {}
impl std::error::Error for CcdError {}

#[cfg(feature = "serde")]
mod serde_impls {
    //! `Serialize`/`Deserialize` for the public value types. Points are
    //! `[x, y, z]`; shapes are the protocol's objects (`{"type":"triangle",
    //! "v":[…]}`, a box in the half-axes form); deserializing a shape runs its
    //! validating constructor, so an invalid one is an error, never a value.
    //! Numbers take their own type's form (for `BigRational`, num-rational's).

    use super::*;
    use serde::de::Error as _;
    use serde::{Deserialize, Deserializer, Serialize, Serializer};

    impl<T: Serialize> Serialize for Vec3<T> {
        fn serialize<S: Serializer>(&self, s: S) -> std::result::Result<S::Ok, S::Error> {
            (&self.x, &self.y, &self.z).serialize(s)
        }
    }

    impl<'de, T: Deserialize<'de>> Deserialize<'de> for Vec3<T> {
        fn deserialize<D: Deserializer<'de>>(d: D) -> std::result::Result<Self, D::Error> {
            let (x, y, z) = <(T, T, T)>::deserialize(d)?;
            Ok(Vec3::new(x, y, z))
        }
    }

    impl<T: Serialize> Serialize for Vec2<T> {
        fn serialize<S: Serializer>(&self, s: S) -> std::result::Result<S::Ok, S::Error> {
            (&self.x, &self.y).serialize(s)
        }
    }

    impl<'de, T: Deserialize<'de>> Deserialize<'de> for Vec2<T> {
        fn deserialize<D: Deserializer<'de>>(d: D) -> std::result::Result<Self, D::Error> {
            let (x, y) = <(T, T)>::deserialize(d)?;
            Ok(Vec2::new(x, y))
        }
    }

    /// The protocol's shape objects (the box in its half-axes form).
    #[derive(Serialize, Deserialize)]
    #[serde(tag = "type", rename_all = "lowercase", deny_unknown_fields)]
    enum ShapeForm<S> {
        Triangle {
            v: [Vec3<S>; 3],
        },
        Box {
            center: Vec3<S>,
            half_axes: [Vec3<S>; 3],
        },
        Prism {
            base: [Vec2<S>; 4],
            z: [S; 2],
        },
        Cube {
            vertices: [Vec3<S>; 8],
        },
    }

    impl<S: crate::Scalar + Serialize> Serialize for Shape<S> {
        fn serialize<Z: Serializer>(&self, s: Z) -> std::result::Result<Z::Ok, Z::Error> {
            let form = match self.clone() {
                Shape::Triangle(t) => ShapeForm::Triangle { v: t.v },
                Shape::Box(b) => ShapeForm::Box {
                    center: b.center,
                    half_axes: b.half_axes,
                },
                Shape::Prism(p) => ShapeForm::Prism {
                    base: p.base,
                    z: [p.zmin, p.zmax],
                },
                Shape::Cube(c) => ShapeForm::Cube {
                    vertices: c.vertices,
                },
            };
            form.serialize(s)
        }
    }

    impl<'de, S: crate::Scalar + Deserialize<'de>> Deserialize<'de> for Shape<S> {
        fn deserialize<D: Deserializer<'de>>(d: D) -> std::result::Result<Self, D::Error> {
            let e = |e: ShapeError| D::Error::custom(e);
            Ok(match ShapeForm::<S>::deserialize(d)? {
                ShapeForm::Triangle { v } => Shape::Triangle(Triangle::new(v)),
                ShapeForm::Box { center, half_axes } => {
                    Shape::Box(Obb::new(center, half_axes).map_err(e)?)
                }
                ShapeForm::Prism {
                    base,
                    z: [zmin, zmax],
                } => Shape::Prism(Prism::new(base, zmin, zmax).map_err(e)?),
                ShapeForm::Cube { vertices } => Shape::Cube(Cube::new(vertices).map_err(e)?),
            })
        }
    }

    /// An answer's serialized form.
    #[derive(Serialize, Deserialize)]
    #[serde(rename_all = "lowercase")]
    enum IntersectionForm<S> {
        Overlap { witness: Vec3<S> },
        Separated { axis: Vec3<S> },
    }

    impl<S: Serialize + Clone> Serialize for Intersection<S> {
        fn serialize<Z: Serializer>(&self, s: Z) -> std::result::Result<Z::Ok, Z::Error> {
            match self.clone() {
                Intersection::Overlap { witness } => IntersectionForm::Overlap { witness },
                Intersection::Separated { axis } => IntersectionForm::Separated { axis },
            }
            .serialize(s)
        }
    }

    impl<'de, S: Deserialize<'de>> Deserialize<'de> for Intersection<S> {
        fn deserialize<D: Deserializer<'de>>(d: D) -> std::result::Result<Self, D::Error> {
            Ok(match IntersectionForm::deserialize(d)? {
                IntersectionForm::Overlap { witness } => Intersection::Overlap { witness },
                IntersectionForm::Separated { axis } => Intersection::Separated { axis },
            })
        }
    }

    #[derive(Serialize, Deserialize)]
    struct ClosestForm<S> {
        distance_squared: S,
        a: Vec3<S>,
        b: Vec3<S>,
    }

    impl<S: Serialize + Clone> Serialize for Closest<S> {
        fn serialize<Z: Serializer>(&self, s: Z) -> std::result::Result<Z::Ok, Z::Error> {
            ClosestForm {
                distance_squared: self.distance_squared.clone(),
                a: self.a.clone(),
                b: self.b.clone(),
            }
            .serialize(s)
        }
    }

    impl<'de, S: Deserialize<'de>> Deserialize<'de> for Closest<S> {
        fn deserialize<D: Deserializer<'de>>(d: D) -> std::result::Result<Self, D::Error> {
            let c = ClosestForm::deserialize(d)?;
            Ok(Closest {
                distance_squared: c.distance_squared,
                a: c.a,
                b: c.b,
            })
        }
    }

    impl Serialize for Sign {
        fn serialize<Z: Serializer>(&self, s: Z) -> std::result::Result<Z::Ok, Z::Error> {
            s.serialize_i8(match self {
                Sign::Negative => -1,
                Sign::Zero => 0,
                Sign::Positive => 1,
            })
        }
    }

    impl<'de> Deserialize<'de> for Sign {
        fn deserialize<D: Deserializer<'de>>(d: D) -> std::result::Result<Self, D::Error> {
            match i8::deserialize(d)? {
                -1 => Ok(Sign::Negative),
                0 => Ok(Sign::Zero),
                1 => Ok(Sign::Positive),
                n => Err(D::Error::custom(format!("a sign is -1, 0 or 1, got {n}"))),
            }
        }
    }

    #[cfg(test)]
    mod tests {
        use crate::{Obb, Shape, Vec3};
        use num_rational::BigRational;

        #[test]
        fn shapes_round_trip_and_are_validated() {
            let q = |n: i64| BigRational::from_integer(n.into());
            let b = Shape::Box(
                Obb::new(
                    Vec3::new(q(0), q(1), q(2)),
                    [
                        Vec3::new(q(1), q(0), q(0)),
                        Vec3::new(q(0), q(1), q(0)),
                        Vec3::new(q(0), q(0), q(3)),
                    ],
                )
                .unwrap(),
            );
            let text = serde_json::to_string(&b).unwrap();
            assert!(text.starts_with(r#"{"type":"box","center":"#), "{text}");
            let back: Shape<BigRational> = serde_json::from_str(&text).unwrap();
            assert_eq!(back, b);
            let flat = r#"{"type":"box","center":[0,0,0],"half_axes":[[1,0,0],[0,1,0],[2,2,0]]}"#;
            let e = serde_json::from_str::<Shape<f64>>(flat).unwrap_err();
            assert!(e.to_string().contains("linearly dependent"), "{e}");
            let t: Shape<f64> =
                serde_json::from_str(r#"{"type":"triangle","v":[[0,0,0],[1,0,0],[0,1,0]]}"#)
                    .unwrap();
            assert_eq!(t.to_string(), "triangle (0, 0, 0), (1, 0, 0), (0, 1, 0)");
        }
    }
}
