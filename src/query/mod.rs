//! Static queries, `intersect` and `distance`, for every pair of shape kinds.
//!
//! One home per pair: `query/<shape>_<shape>/` holds a pair's entry points,
//! its exact reference and its float-guided path; [`polytope`] holds the
//! generic path that answers every pair without an algorithm of its own, as
//! an exhaustive exact reference ([`polytope::exhaustive`]) and a filtered
//! float-guided path (`polytope/filtered/`) that makes the same decisions.
//! A cube is answered as the box it is. The dispatch below is an exhaustive
//! `match` on the pair of kinds, so a missing pair is a compile error.
//!
//! Which function answers a pair (the float-guided path takes double and f32
//! inputs; what its proof refuses goes to the exact path, counted in
//! [`crate::stats`]):
//!
//! | pair | exact inputs | double inputs (float-guided, exact proof) |
//! |---|---|---|
//! | triangle–triangle | [`triangle_triangle::intersect`], [`triangle_triangle::distance`] (Guigue–Devillers; feature pairs) | `triangle_triangle/fast_intersect.rs`, `triangle_triangle/fast_distance.rs` |
//! | box–box (and cube) | [`box_box::intersect`], [`box_box::distance`] (15-axis SAT; the polytope enumeration) | `box_box/fast.rs` (filtered SAT, exact axis), then `polytope/filtered/` (box witness road, GJK with box supports) |
//! | prism–prism | [`prism_prism::intersect`], [`prism_prism::distance`] (Nathan's 2.5-D test) | `prism_prism/fast.rs` |
//! | triangle–box, triangle–prism, box–prism (either order) | [`polytope::intersect`], [`polytope::distance`] | `polytope/filtered/` |
//! | sphere or capsule (point or segment core) – sphere, capsule, triangle, box, cube (grown or not) | [`rounded::distance_exact`], [`rounded::intersects`]: the closed segments' closest pair in rationals, or the polytope paths on the core as a degenerate triangle; then `√q − R` in closed form | [`rounded::distance_exact_f64`], [`rounded::distance_f64`], [`rounded::intersects_f64`] (and the protocol's lines whose numbers are doubles, [`rounded::distance_exact_any`]): `rounded/segment_fast.rs` (feature guess, filtered slab proof, exact construction; the sign of `q − R²` filtered, `√q − R` rounded in double-word arithmetic) |
//! | other rounded pairs (prism, hull cores, triangle and box pairs grown by a radius) | [`rounded::distance_exact`], [`rounded::intersects`]: the cores' pair above (a hull as its faces' triangles), then `√q − R` in closed form | [`rounded::distance_exact_f64`]: `rounded/hull_fast.rs` for hull cores, otherwise the cores' exact pair from the polytope paths on the double shapes (their own float-guided paths); the protocol's lines of doubles take the same route ([`rounded::distance_exact_any`]); then the radius step in double-word arithmetic with a proven bound (`rounded/radius_step.rs`, the exact step where it does not decide) |
//!
//! `contact` (penetration depth, normals, contact region) is answered for
//! every polytope pair by the exact reference [`polytope::contact`] through
//! [`contact`] (two boxes of doubles on the float-guided path
//! [`box_box::contact`], the same answer, counted in
//! [`stats::BOX_CONTACT`]), and for rounded shapes in closed form by
//! [`rounded::contact`].
//!
//! The answers and their certificates: [`Intersection`], [`Closest`],
//! [`UnreducedClosest`] (the exact distance over one denominator);
//! [`certificate`] checks them independently.

pub mod box_box;
pub mod certificate;
pub mod polytope;
pub mod prism_prism;
pub mod rounded;
pub mod triangle_triangle;
pub mod unreduced;

use crate::num::scalar::Scalar;
use crate::shape::{Obb, Prism, Shape, Triangle};
use crate::stats;
use crate::vector::Vec3;
use num_rational::BigRational;
use polytope::filtered as fast;
pub use unreduced::UnreducedClosest;

/// The answer to `intersect`, with its certificate.
#[derive(Clone, Debug, PartialEq)]
pub enum Intersection<S> {
    /// The shapes share a point: `witness` lies in both.
    Overlap {
        /// A common point.
        witness: Vec3<S>,
    },
    /// The shapes are disjoint: `max over a of axis·p < min over b of axis·p`, or
    /// the same with a and b swapped.
    Separated {
        /// A separating direction (not normalised).
        axis: Vec3<S>,
    },
}

impl<S: Scalar> Intersection<S> {
    /// Whether the shapes intersect.
    pub fn intersects(&self) -> bool {
        matches!(self, Intersection::Overlap { .. })
    }
}

/// The answer to `distance`: the squared distance and a closest pair.
#[derive(Clone, Debug, PartialEq)]
pub struct Closest<S> {
    /// |a − b|² (exact on the exact path, rounded on the float paths).
    pub distance_squared: S,
    /// The closest point of shape a.
    pub a: Vec3<S>,
    /// The closest point of shape b.
    pub b: Vec3<S>,
}

impl<S: Scalar> Closest<S> {
    /// The same answer for the swapped pair.
    pub fn swapped(self) -> Self {
        Closest {
            distance_squared: self.distance_squared,
            a: self.b,
            b: self.a,
        }
    }
}

/// Why a query has no answer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum QueryError {
    /// The algorithm for this pair has not landed yet.
    NotImplemented(String),
    /// The input is valid for the protocol but outside what the algorithm can
    /// answer exactly (a degenerate triangle, say); the message says why.
    Unsupported(String),
}

impl std::fmt::Display for QueryError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            QueryError::NotImplemented(what) => write!(f, "{what} not implemented yet"),
            QueryError::Unsupported(why) => write!(f, "{why}"),
        }
    }
}

fn both_triangles<S>(a: &Shape<S>, b: &Shape<S>) -> bool {
    matches!((a, b), (Shape::Triangle(_), Shape::Triangle(_)))
}

/// The shapes after a cube has become its box.
enum Kind<'a, S> {
    Triangle(&'a Triangle<S>),
    Box(&'a Obb<S>),
    Prism(&'a Prism<S>),
}

fn kind<S: Scalar>(s: &Shape<S>) -> Kind<'_, S> {
    match s {
        Shape::Triangle(t) => Kind::Triangle(t),
        Shape::Box(b) => Kind::Box(b),
        Shape::Prism(p) => Kind::Prism(p),
        Shape::Cube(c) => Kind::Box(c.obb()),
    }
}

/// Do `a` and `b` share a point? Decided exactly, with a certificate.
///
/// For f32/f64 shapes (but two triangles) the certificate is the exact one
/// computed in integers and rounded to the scalar without reducing it
/// (within a few ulps; the decision is exact).
///
/// ```
/// use exact_collision::query::intersect;
/// use exact_collision::{Obb, Shape, Vec3};
/// let v = |x: f64, y: f64, z: f64| Vec3::new(x, y, z);
/// let unit = |c| Shape::Box(Obb::new(c, [v(0.5, 0., 0.), v(0., 0.5, 0.), v(0., 0., 0.5)]).unwrap());
/// // Faces touching at x = 1/2: closed sets, so they intersect.
/// assert!(intersect(&unit(v(0., 0., 0.)), &unit(v(1., 0., 0.))).unwrap().intersects());
/// ```
pub fn intersect<S: Scalar>(a: &Shape<S>, b: &Shape<S>) -> Result<Intersection<S>, QueryError> {
    use Kind as K;
    if !S::IS_EXACT && !both_triangles(a, b) {
        // Float inputs: exact decisions, the certificate rounded from the
        // exact integers (no reduction to lowest terms).
        if let Some(i) = fast::intersect_f64(a, b) {
            stats::INTERSECT.fast();
            return Ok(match i {
                Intersection::Overlap { witness } => Intersection::Overlap {
                    witness: witness.map(|x| crate::num::scalar::cast(*x)),
                },
                Intersection::Separated { axis } => Intersection::Separated {
                    axis: axis.map(|x| crate::num::scalar::cast(*x)),
                },
            });
        }
        stats::INTERSECT.fallback();
    }
    match (kind(a), kind(b)) {
        (K::Triangle(a), K::Triangle(b)) => triangle_triangle::intersect(a, b),
        (K::Triangle(_), K::Box(_)) => Ok(polytope::intersect(a, b)),
        (K::Triangle(_), K::Prism(_)) => Ok(polytope::intersect(a, b)),
        (K::Box(_), K::Triangle(_)) => Ok(polytope::intersect(a, b)),
        (K::Box(x), K::Box(y)) => Ok(box_box::intersect(x, y)),
        (K::Box(_), K::Prism(_)) => Ok(polytope::intersect(a, b)),
        (K::Prism(_), K::Triangle(_)) => Ok(polytope::intersect(a, b)),
        (K::Prism(_), K::Box(_)) => Ok(polytope::intersect(a, b)),
        (K::Prism(x), K::Prism(y)) => Ok(prism_prism::intersect(x, y)),
    }
}

/// The exact squared distance between `a` and `b`, with a closest pair.
///
/// For f32/f64 shapes (but two triangles) the feature pair is decided
/// exactly and the values are the exact integers rounded without reducing
/// them (within a few ulps; distance 0 exactly when the shapes meet).
pub fn distance<S: Scalar>(a: &Shape<S>, b: &Shape<S>) -> Result<Closest<S>, QueryError> {
    use Kind as K;
    if !S::IS_EXACT && !both_triangles(a, b) {
        if let Some(c) = fast::distance_f64(a, b) {
            stats::DISTANCE.fast();
            let p = |v: Vec3<f64>| v.map(|x| crate::num::scalar::cast(*x));
            return Ok(Closest {
                distance_squared: crate::num::scalar::cast(c.distance_squared),
                a: p(c.a),
                b: p(c.b),
            });
        }
        stats::DISTANCE.fallback();
    }
    match (kind(a), kind(b)) {
        (K::Triangle(a), K::Triangle(b)) => triangle_triangle::distance(a, b),
        (K::Triangle(_), K::Box(_)) => Ok(polytope::distance(a, b)),
        (K::Triangle(_), K::Prism(_)) => Ok(polytope::distance(a, b)),
        (K::Box(_), K::Triangle(_)) => Ok(polytope::distance(a, b)),
        (K::Box(x), K::Box(y)) => Ok(box_box::distance(x, y)),
        (K::Box(_), K::Prism(_)) => Ok(polytope::distance(a, b)),
        (K::Prism(_), K::Triangle(_)) => Ok(polytope::distance(a, b)),
        (K::Prism(_), K::Box(_)) => Ok(polytope::distance(a, b)),
        (K::Prism(x), K::Prism(y)) => Ok(prism_prism::distance(x, y)),
    }
}

/// The answer to `contact`: the distance answer of apart shapes, or the
/// penetration of meeting ones.
#[derive(Clone, Debug, PartialEq)]
pub enum ContactAnswer {
    /// The shapes are disjoint: [`distance_exact`]'s answer.
    Apart(Box<Closest<BigRational>>),
    /// The shapes meet: depth², normals, translation, region.
    Meeting(Box<polytope::contact::Penetration>),
}

/// The exact contact of two shapes (docs/contact.md): whether they meet
/// (decided as [`intersect_exact`] decides it); apart, the exact distance
/// answer; meeting, the penetration depth δ (δ² rational), every optimal
/// normal (primitive integers, from a to b) and the contact region for the
/// first normal, exact. Two boxes of f32/f64 take the float-guided path
/// ([`box_box::contact::contact`], the same answer); every other pair the
/// exact reference ([`polytope::contact`]).
///
/// ```
/// use exact_collision::query::{contact, ContactAnswer};
/// use exact_collision::{Obb, Shape, Vec3};
/// use num_rational::BigRational;
/// let v = |x: f64, y: f64, z: f64| Vec3::new(x, y, z);
/// let unit = |c| Shape::Box(Obb::new(c, [v(0.5, 0., 0.), v(0., 0.5, 0.), v(0., 0., 0.5)]).unwrap());
/// match contact(&unit(v(0., 0., 0.)), &unit(v(0., 0., 0.5))).unwrap() {
///     ContactAnswer::Meeting(p) => {
///         assert_eq!(p.depth_squared, BigRational::new(1.into(), 4.into()));
///         assert_eq!(p.normal().z, BigRational::from_integer(1.into()));
///     }
///     ContactAnswer::Apart(_) => unreachable!(),
/// }
/// ```
pub fn contact<S: Scalar>(a: &Shape<S>, b: &Shape<S>) -> Result<ContactAnswer, QueryError> {
    if !S::IS_EXACT {
        if let (Some(x), Some(y)) = (a.as_box(), b.as_box()) {
            // Two boxes of doubles (f32 values are doubles): the float-guided path.
            let f = |o: &Obb<S>| Obb {
                center: o.center.map(|c| c.to_f64()),
                half_axes: o.half_axes.clone().map(|h| h.map(|c| c.to_f64())),
            };
            return box_box::contact::contact(&f(x), &f(y));
        }
    }
    if intersect_exact(a, b)?.intersects() {
        let (pa, pb) = (polytope::Polytope::new(a), polytope::Polytope::new(b));
        polytope::contact::penetration_of_meeting(&pa, &pb)
            .map(|p| ContactAnswer::Meeting(Box::new(p)))
    } else {
        distance_exact(a, b).map(|c| ContactAnswer::Apart(Box::new(c)))
    }
}

/// [`intersect`] with the certificate exact whatever the input scalar: for
/// float inputs, the exact values of the doubles (the protocol's default path
/// for JSON numbers).
///
/// Float inputs of every pair but triangle–triangle take the fast path
/// (`docs/polytope.md`): the same decision and the same certificate as the
/// exhaustive path, decided with filtered exact signs and built in
/// fixed-width integers; what it cannot prove goes to the exhaustive path,
/// counted in [`stats::INTERSECT`].
///
/// ```
/// use exact_collision::query::{intersect_exact, Intersection};
/// use exact_collision::{Scalar, Shape, Triangle, Vec3};
/// let t = |z: f64| Shape::Triangle(Triangle::new([Vec3::new(0., 0., z), Vec3::new(1., 0., z), Vec3::new(0., 1., z)]));
/// match intersect_exact(&t(0.1), &t(0.1)).unwrap() {
///     Intersection::Overlap { witness } => assert_eq!(witness.z, 0.1f64.to_rational()),
///     _ => unreachable!(),
/// }
/// ```
pub fn intersect_exact<S: Scalar>(
    a: &Shape<S>,
    b: &Shape<S>,
) -> Result<Intersection<BigRational>, QueryError> {
    if let (Shape::Triangle(x), Shape::Triangle(y)) = (a, b) {
        return triangle_triangle::intersect_exact(x, y);
    }
    if !S::IS_EXACT {
        if let Some(i) = fast::intersect(a, b) {
            stats::INTERSECT.fast();
            return Ok(i);
        }
        stats::INTERSECT.fallback();
    }
    intersect(&a.to_rational(), &b.to_rational())
}

/// [`distance`] with the squared distance and the points exact whatever the
/// input scalar.
///
/// Float inputs of every pair but triangle–triangle take the fast path: a
/// GJK guess of the closest features, an exact proof that their closest
/// points are closest (and, for tied pairs, the exhaustive enumeration's
/// choice), the points built in integers and reduced once; counted in
/// [`stats::DISTANCE`]. [`distance_exact_unreduced`] is the same answer
/// before the reduction to lowest terms.
///
/// ```
/// use exact_collision::query::distance_exact;
/// use exact_collision::{Obb, Scalar, Shape, Vec3};
/// let v = |x: f64, y: f64, z: f64| Vec3::new(x, y, z);
/// let unit = |c| Shape::Box(Obb::new(c, [v(0.5, 0., 0.), v(0., 0.5, 0.), v(0., 0., 0.5)]).unwrap());
/// let c = distance_exact(&unit(v(0., 0., 0.)), &unit(v(1.1, 0., 0.))).unwrap();
/// let gap = 1.1f64.to_rational() - 1.0f64.to_rational();
/// assert_eq!(c.distance_squared, &gap * &gap);
/// ```
pub fn distance_exact<S: Scalar>(
    a: &Shape<S>,
    b: &Shape<S>,
) -> Result<Closest<BigRational>, QueryError> {
    distance_exact_unreduced(a, b).map(UnreducedClosest::into_reduced)
}

/// [`distance_exact`]'s answer, exact, but held as integers over one common
/// denominator: lowest terms (one gcd of the denominator's size and a
/// `BigInt` per value) only when asked, with [`UnreducedClosest::reduce`].
///
/// For float inputs on the fast path (every pair but triangle–triangle and
/// prism–prism) this skips the reduction's cost, which is most of an exact
/// distance's; other answers come already reduced.
///
/// ```
/// use exact_collision::query::distance_exact_unreduced;
/// use exact_collision::{Obb, Scalar, Shape, Vec3};
/// let v = |x: f64, y: f64, z: f64| Vec3::new(x, y, z);
/// let unit = |c| Shape::Box(Obb::new(c, [v(0.5, 0., 0.), v(0., 0.5, 0.), v(0., 0., 0.5)]).unwrap());
/// let u = distance_exact_unreduced(&unit(v(0., 0., 0.)), &unit(v(1.1, 0., 0.))).unwrap();
/// let gap = 1.1f64.to_rational() - 1.0f64.to_rational();
/// assert_eq!(u.distance_squared(), &gap * &gap);
/// ```
pub fn distance_exact_unreduced<S: Scalar>(
    a: &Shape<S>,
    b: &Shape<S>,
) -> Result<UnreducedClosest, QueryError> {
    if let (Shape::Triangle(x), Shape::Triangle(y)) = (a, b) {
        return triangle_triangle::distance_exact(x, y).map(UnreducedClosest::reduced);
    }
    if !S::IS_EXACT {
        if let Some(c) = fast::distance(a, b) {
            stats::DISTANCE.fast();
            return Ok(c);
        }
        stats::DISTANCE.fallback();
    }
    distance(&a.to_rational(), &b.to_rational()).map(UnreducedClosest::reduced)
}
