//! Rounded shapes (spheres, capsules, and triangles, boxes, prisms and cubes
//! grown by a ball): `intersect` and `distance`, exactly.
//!
//! With `R = r_a + r_b` and `q` the exact squared distance of the cores
//! ([`crate::shape::Core`]), the shapes meet iff `q ≤ R²`, and their
//! distance is `max(0, √q − R)`: exact, though not rational in general. It is
//! answered in closed form, [`SqrtOffset`] (`√q − R` with `q` and `R`
//! rationals in lowest terms), compared exactly, and rounded to the nearest
//! double by exact comparisons, not by evaluating `√` in floats.
//!
//! The cores' closest pair comes, for two points or segments (spheres,
//! capsules), from the closed segments' closest pair in rationals, and
//! otherwise from the polytope paths ([`crate::query::distance_exact`]; a
//! point or a segment is the degenerate triangle it is), with their own
//! certificates: a closest pair `(p_a, p_b)`
//! of two disjoint convex sets is proved by the slab between the planes
//! through `p_a` and `p_b` orthogonal to `p_b − p_a`.
//!
//! **Certificates.** Meeting shapes: a rational witness in both,
//! `p_a + (r_a/R)(p_b − p_a)` (`|w − p_a| = (r_a/R)√q ≤ r_a` and likewise for
//! b), or the cores' common point when `q = 0`. Apart shapes: the cores'
//! closest pair and `q > R²`.
//!
//! **Closest points** of apart shapes are `p_a + (r_a/√q)(p_b − p_a)` and
//! `p_b − (r_b/√q)(p_b − p_a)`: exact rationals when `q` is the square of a
//! rational ([`RoundedClosest::exact_points`]), otherwise given by the cores'
//! points and the exact direction `p_b − p_a`.
//!
//! ```
//! use exact_collision::query::rounded;
//! use exact_collision::shape::Rounded;
//! use exact_collision::Vec3;
//! let v = |x: f64, y: f64, z: f64| Vec3::new(x, y, z);
//! let a = Rounded::sphere(v(0.0, 0.0, 0.0), 1.0).unwrap();
//! let b = Rounded::sphere(v(1.0, 1.0, 0.0), 0.0).unwrap();
//! let c = rounded::distance_exact(&a, &b).unwrap();
//! assert!(!c.intersects());
//! assert_eq!(c.distance().to_string(), "√(2) − 1");
//! assert_eq!(c.distance_f64(), 0.41421356237309503); // the double nearest √2 − 1
//! ```

pub mod contact;
mod hull_fast;
mod point_box;
mod radius_step;
mod segment_fast;

use super::polytope::Polytope;
use super::{Closest, QueryError};
use crate::num::dyadic::Dyadic;
use crate::num::gcd::ratio;
use crate::num::scalar::Scalar;
use crate::num::sign::Sign;
use crate::num::sqrt_affine::AffineSqrt;
use crate::num::sqrt_offset::SqrtOffset;
use crate::shape::{Core, Cube, Obb, Prism, Rounded, Shape, Triangle};
use crate::vector::{Vec2, Vec3};
use num_bigint::BigInt;
use num_rational::BigRational;
use num_traits::{Signed, Zero};

type Q = BigRational;

/// The exact distance answer of two rounded shapes.
#[derive(Clone, Debug, PartialEq)]
pub struct RoundedClosest {
    /// The cores' exact closest pair; `q = core.distance_squared`.
    pub core: Closest<Q>,
    /// `R = r_a + r_b`.
    pub radius: Q,
}

impl RoundedClosest {
    /// Whether the shapes meet: `q ≤ R²`, exactly.
    pub fn intersects(&self) -> bool {
        // q ≤ R² as n_q·d_R² ≤ n_R²·d_q (positive denominators): integer
        // products, no reduction of R².
        let (q, r) = (&self.core.distance_squared, &self.radius);
        let rn = r.numer() * r.numer();
        let rd = r.denom() * r.denom();
        q.numer() * rd <= rn * q.denom()
    }

    /// `√q − R` in closed form (negative when the shapes overlap; the
    /// distance is its maximum with 0).
    pub fn distance(&self) -> SqrtOffset {
        SqrtOffset::new(self.core.distance_squared.clone(), self.radius.clone())
            .expect("a squared distance and a sum of radii are nonnegative")
    }

    /// The double nearest to the distance `max(0, √q − R)`, decided exactly.
    pub fn distance_f64(&self) -> f64 {
        self.distance().clamped_nearest_f64()
    }

    /// [`distance_f64`](Self::distance_f64) when the radii are the doubles
    /// `r_a`, `r_b` (`R = r_a + r_b`, which the caller guarantees): the same
    /// double, decided in double-word arithmetic with a proven error bound
    /// (`radius_step.rs`), and exactly where the bound does not decide.
    pub fn distance_f64_with_radii(&self, ra: f64, rb: f64) -> f64 {
        debug_assert_eq!(self.radius, ra.to_rational() + rb.to_rational());
        radius_step::distance_f64(self, ra, rb)
    }

    /// [`intersects`](Self::intersects) when the radii are the doubles
    /// `r_a`, `r_b` (`R = r_a + r_b`): the sign of `q − R²` in double-word
    /// arithmetic with a proven error bound, exactly where it does not decide.
    pub fn intersects_with_radii(&self, ra: f64, rb: f64) -> bool {
        debug_assert_eq!(self.radius, ra.to_rational() + rb.to_rational());
        radius_step::intersects(self, ra, rb)
    }

    /// A common point of meeting shapes, exact: the cores' common point when
    /// `q = 0`, else `p_a + (r_a/R)(p_b − p_a)`. `None` when they are apart.
    pub fn witness(&self, ra: &Q) -> Option<Vec3<Q>> {
        self.intersects().then(|| self.witness_of_meeting(ra))
    }

    /// [`witness`](Self::witness) of shapes known to meet.
    pub(crate) fn witness_of_meeting(&self, ra: &Q) -> Vec3<Q> {
        let (pa, pb) = (&self.core.a, &self.core.b);
        if self.core.distance_squared.is_zero() || self.radius.is_zero() {
            return pa.clone();
        }
        // t = r_a/R = t_n/t_d (not reduced), and each coordinate
        // x/y + t·(u/v − x/y) = (x·v·(t_d − t_n) + t_n·u·y)/(t_d·y·v) built in
        // integers and reduced once.
        let tn = ra.numer() * self.radius.denom();
        let td = ra.denom() * self.radius.numer();
        let rest = &td - &tn;
        let at = |p: &Q, q: &Q| {
            let (x, y, u, v) = (p.numer(), p.denom(), q.numer(), q.denom());
            ratio(x * v * &rest + &tn * u * y, &td * y * v)
        };
        Vec3::new(at(&pa.x, &pb.x), at(&pa.y, &pb.y), at(&pa.z, &pb.z))
    }

    /// The closest points of apart shapes when `√q` is rational (then they
    /// are rational): `p_a + (r_a/√q)(p_b − p_a)`, `p_b − (r_b/√q)(p_b − p_a)`.
    /// `None` when the shapes meet or `√q` is irrational.
    pub fn exact_points(&self, ra: &Q, rb: &Q) -> Option<(Vec3<Q>, Vec3<Q>)> {
        if self.intersects() {
            return None;
        }
        self.exact_points_of_apart(ra, rb)
    }

    /// [`exact_points`](Self::exact_points) of shapes known to be apart.
    pub(crate) fn exact_points_of_apart(&self, ra: &Q, rb: &Q) -> Option<(Vec3<Q>, Vec3<Q>)> {
        let s = rational_sqrt(&self.core.distance_squared)?;
        let (pa, pb) = (&self.core.a, &self.core.b);
        let d = Vec3::new(&pb.x - &pa.x, &pb.y - &pa.y, &pb.z - &pa.z);
        let (ta, tb) = (ra / &s, rb / &s);
        let at = |p: &Vec3<Q>, t: &Q, sign: i32| {
            let t = if sign < 0 { -t } else { t.clone() };
            Vec3::new(&p.x + &t * &d.x, &p.y + &t * &d.y, &p.z + &t * &d.z)
        };
        Some((at(pa, &ta, 1), at(pb, &tb, -1)))
    }
}

impl RoundedClosest {
    /// The closest points of apart shapes, `p_a + (r_a/√q)(p_b − p_a)` and
    /// `p_b − (r_b/√q)(p_b − p_a)`, each coordinate the nearest double (ties
    /// to even), decided exactly ([`AffineSqrt`]: a float guess proved by
    /// comparisons of integers, no square root evaluated in floats). Rational
    /// or not. `None` when the shapes meet.
    ///
    /// ```
    /// use exact_collision::query::rounded;
    /// use exact_collision::shape::Rounded;
    /// use exact_collision::num::scalar::Scalar;
    /// use exact_collision::Vec3;
    /// let v = |x: f64, y: f64, z: f64| Vec3::new(x, y, z);
    /// let a = Rounded::sphere(v(0.0, 0.0, 0.0), 1.0).unwrap();
    /// let b = Rounded::sphere(v(1.0, 1.0, 0.0), 0.0).unwrap();
    /// let c = rounded::distance_exact(&a, &b).unwrap();
    /// let (ra, rb) = (a.radius.to_rational(), b.radius.to_rational());
    /// assert!(c.exact_points(&ra, &rb).is_none()); // (1/√2, 1/√2, 0): irrational
    /// let s = 0.7071067811865476; // the double nearest 1/√2
    /// assert_eq!(c.points_f64(&ra, &rb), Some([[s, s, 0.0], [1.0, 1.0, 0.0]]));
    /// ```
    pub fn points_f64(&self, ra: &Q, rb: &Q) -> Option<[[f64; 3]; 2]> {
        if self.intersects() {
            return None;
        }
        Some(self.points_f64_of_apart(ra, rb))
    }

    /// [`points_f64`](Self::points_f64) of shapes known to be apart.
    pub(crate) fn points_f64_of_apart(&self, ra: &Q, rb: &Q) -> [[f64; 3]; 2] {
        // Integer numerators over positive denominators, unreduced: the
        // comparisons need no lowest terms (and no gcd is taken).
        let q = &self.core.distance_squared;
        let (pa, pb) = (&self.core.a, &self.core.b);
        let (ca, cb) = ([&pa.x, &pa.y, &pa.z], [&pb.x, &pb.y, &pb.z]);
        let nd = |x: &Q| [x.numer().clone(), x.denom().clone()];
        let mut out = [[0.0; 3]; 2];
        for i in 0..3 {
            // d = cb − ca = dn / dd.
            let (a, b) = (ca[i], cb[i]);
            let dn = b.numer() * a.denom() - a.numer() * b.denom();
            let dd = a.denom() * b.denom();
            // s = r_a·d on a's side, −r_b·d on b's.
            let sa = [ra.numer() * &dn, ra.denom() * &dd];
            let sb = [-(rb.numer() * &dn), rb.denom() * &dd];
            for (k, (base, s)) in [(a, sa), (b, sb)].into_iter().enumerate() {
                out[k][i] = AffineSqrt::from_integers(nd(base), s, nd(q))
                    .expect("apart shapes have q > R² ≥ 0")
                    .nearest_f64();
            }
        }
        out
    }
}

/// `√x` when it is rational (numerator and denominator perfect squares).
fn rational_sqrt(x: &Q) -> Option<Q> {
    if x.is_negative() {
        return None;
    }
    let root = |n: &BigInt| {
        // A square's power of two is even and its odd part is 1 modulo 8:
        // most non-squares fail this before any root is taken.
        if let Some(z) = n.trailing_zeros() {
            let m = n.magnitude();
            if z % 2 == 1 || m.bit(z + 1) || m.bit(z + 2) {
                return None;
            }
        }
        let r = n.sqrt();
        (&r * &r == *n).then_some(r)
    };
    Some(Q::new(root(x.numer())?, root(x.denom())?))
}

/// The exact distance answer of two rounded shapes: the cores' closest pair
/// and the sum of the radii.
pub fn distance_exact<S: Scalar>(
    a: &Rounded<S>,
    b: &Rounded<S>,
) -> Result<RoundedClosest, QueryError> {
    let core = core_distance(a, b)?;
    Ok(RoundedClosest {
        core,
        radius: a.radius.to_rational() + b.radius.to_rational(),
    })
}

/// [`distance_exact`] for double inputs: the float-guided paths
/// (`segment_fast.rs` for point and segment cores, `hull_fast.rs` for hull
/// cores) with exact proof first, the exact path where they do not apply or
/// cannot prove their guess. The same answer as [`distance_exact`].
pub fn distance_exact_f64(
    a: &Rounded<f64>,
    b: &Rounded<f64>,
) -> Result<RoundedClosest, QueryError> {
    distance_exact_guessed(a, b, None)
}

/// [`distance_exact_f64`] with GJK's result on the hull cores when
/// [`hull_fast::proved_dw`] already ran it (not run twice).
fn distance_exact_guessed(
    a: &Rounded<f64>,
    b: &Rounded<f64>,
    guess: Option<crate::query::polytope::filtered::gjk::Found>,
) -> Result<RoundedClosest, QueryError> {
    let core = match segment_fast::core_distance(a, b)
        .or_else(|| hull_fast::core_distance_guessed(a, b, guess))
    {
        Some(c) => c,
        None => core_distance(a, b)?,
    };
    Ok(RoundedClosest {
        core,
        radius: radius_f64(a.radius, b.radius),
    })
}

/// `R = r_a + r_b` of two doubles, exactly: the dyadic sum, whose lowest
/// terms need no gcd (an odd numerator over a power of two).
fn radius_f64(ra: f64, rb: f64) -> Q {
    use crate::num::ring::Ring;
    Dyadic::from_f64(ra)
        .add_ref(&Dyadic::from_f64(rb))
        .to_rational()
}

/// The distance of two rounded shapes of double inputs, as the double
/// nearest to `max(0, √q − R)` (ties to even), decided exactly: what
/// [`RoundedClosest::distance_f64`] of [`distance_exact`] answers, and what
/// parry's `distance` returns in floats.
///
/// For point and segment cores (spheres, capsules) against points, segments,
/// triangles and boxes, the cores' closest features are guessed in doubles
/// and proved with filtered exact signs (`segment_fast.rs`); then the sign of
/// `q − R²` is taken from the same filter, and meeting shapes answer `0`
/// without any exact arithmetic; apart shapes get the nearest double to
/// `√q − R` certified in double-word arithmetic with a proven error bound
/// (the signs of `√q − R − m` at the rounding midpoints `m` around the
/// guess). Where a sign is undecided, `√q − R` is rounded exactly
/// ([`SqrtOffset::clamped_nearest_f64`]) from `q` built from the proved
/// features. A point core against a box core first takes a dedicated path
/// (`point_box.rs`: the one region its box coordinates name, proved the same
/// way). With a convex hull core, the closest pair of the guessed features
/// and its slab certificate are evaluated in double-word arithmetic with
/// proven error bounds (`hull_fast.rs`, no big integers) and the sign of
/// `q − R²` and the rounding certified the same way, and meeting cores are
/// proved from GJK's final tetrahedron around the origin, four points of the
/// cores' difference (the answer 0; counted in [`crate::stats::HULL_F64`]). Other pairs, and guesses the filters cannot
/// prove, take [`distance_exact_f64`].
///
/// ```
/// use exact_collision::query::rounded;
/// use exact_collision::shape::Rounded;
/// use exact_collision::Vec3;
/// let v = |x: f64, y: f64, z: f64| Vec3::new(x, y, z);
/// let a = Rounded::capsule(v(0.0, 0.0, 0.0), v(2.0, 0.0, 0.0), 0.5).unwrap();
/// let b = Rounded::sphere(v(3.0, 1.0, 0.0), 0.5).unwrap();
/// // Cores √2 apart: √2 − 1.
/// assert_eq!(rounded::distance_f64(&a, &b).unwrap(), 0.41421356237309503);
/// let c = Rounded::sphere(v(1.0, 0.75, 0.0), 0.25).unwrap();
/// assert_eq!(rounded::distance_f64(&a, &c).unwrap(), 0.0); // touching
/// assert!(rounded::intersects_f64(&a, &c).unwrap());
/// ```
pub fn distance_f64(a: &Rounded<f64>, b: &Rounded<f64>) -> Result<f64, QueryError> {
    if let Some(x) = point_box_f64(a, b) {
        return Ok(x);
    }
    if let Some(p) = segment_fast::proved(a, b) {
        crate::stats::ROUNDED.fast();
        let exact = || {
            SqrtOffset::new(p.q_exact(), radius_f64(a.radius, b.radius))
                .expect("a squared distance and a sum of radii are nonnegative")
                .clamped_nearest_f64()
        };
        return Ok(match p.meet_sign(a.radius, b.radius) {
            Some(Sign::Negative | Sign::Zero) => 0.0,
            Some(Sign::Positive) => match p.nearest_apart(a.radius, b.radius) {
                Some(x) => {
                    crate::stats::ROUNDED_ROUNDING.fast();
                    x
                }
                None => {
                    crate::stats::ROUNDED_ROUNDING.fallback();
                    exact()
                }
            },
            None => SqrtOffset::new(p.q_exact(), radius_f64(a.radius, b.radius))
                .expect("a squared distance and a sum of radii are nonnegative")
                .clamped_nearest_f64(),
        });
    }
    let mut guess = None;
    if let Some(p) = hull_fast::proved_dw(a, b, &mut guess) {
        let x = match p {
            hull_fast::Dw::Meet => Some(0.0),
            hull_fast::Dw::Apart(p) => match p.meet_sign() {
                Some(Sign::Negative | Sign::Zero) => Some(0.0),
                Some(Sign::Positive) => p.nearest_apart(),
                None => None,
            },
        };
        if let Some(x) = x {
            crate::stats::HULL_F64.fast();
            return Ok(x);
        }
    }
    if hull_core(a, b) {
        crate::stats::HULL_F64.fallback();
    }
    Ok(distance_exact_guessed(a, b, guess)?.distance_f64_with_radii(a.radius, b.radius))
}

/// Whether one core is a convex hull (the pairs `hull_fast.rs` takes).
fn hull_core(a: &Rounded<f64>, b: &Rounded<f64>) -> bool {
    matches!(a.core, Core::Hull(_)) || matches!(b.core, Core::Hull(_))
}

/// A point core against a box core: the dedicated path (`point_box.rs`),
/// counted in [`crate::stats::ROUNDED_POINT_BOX`]; `None` for other pairs
/// and where it leaves the answer to the generic path.
fn point_box_f64(a: &Rounded<f64>, b: &Rounded<f64>) -> Option<f64> {
    use segment_fast::Piece;
    let arr = |v: &Vec3<f64>| [v.x, v.y, v.z];
    // A sphere and a box or cube directly; other cores that are points
    // (a segment of length 0, a hull of one point) through `Piece`.
    let direct = match (&a.core, &b.core) {
        (Core::Point(p), Core::Shape(s)) | (Core::Shape(s), Core::Point(p)) => s
            .as_box()
            .map(|o| (arr(p), arr(&o.center), o.half_axes.each_ref().map(arr))),
        _ => None,
    };
    // The direct inputs are checked for finiteness on the point–box path
    // itself (one test on values it computes anyway).
    let checked = direct.is_some();
    let (p, c, h) = match direct {
        Some(d) => d,
        None => match (Piece::of(a)?, Piece::of(b)?) {
            (Piece::Point(p), Piece::Box(c, h)) | (Piece::Box(c, h), Piece::Point(p)) => (p, c, h),
            _ => return None,
        },
    };
    match point_box::distance_f64(&p, &c, &h, a.radius, b.radius) {
        point_box::Outcome::Answer(x) => {
            crate::stats::ROUNDED_POINT_BOX.fast();
            Some(x)
        }
        point_box::Outcome::NotFinite if checked => None,
        point_box::Outcome::Undecided | point_box::Outcome::NotFinite => {
            crate::stats::ROUNDED_POINT_BOX.fallback();
            None
        }
    }
}

/// Do the rounded shapes of double inputs meet? Decided exactly (`q ≤ R²`):
/// the float-guided path's filter decides the sign where it proves the
/// cores' closest features, the exact comparison otherwise.
pub fn intersects_f64(a: &Rounded<f64>, b: &Rounded<f64>) -> Result<bool, QueryError> {
    if let Some(p) = segment_fast::proved(a, b) {
        crate::stats::ROUNDED.fast();
        let s = match p.meet_sign(a.radius, b.radius) {
            Some(s) => s,
            None => SqrtOffset::new(p.q_exact(), radius_f64(a.radius, b.radius))
                .expect("a squared distance and a sum of radii are nonnegative")
                .sign(),
        };
        return Ok(s != Sign::Positive);
    }
    let mut guess = None;
    let meet = hull_fast::proved_dw(a, b, &mut guess).and_then(|p| match p {
        hull_fast::Dw::Meet => Some(true),
        hull_fast::Dw::Apart(p) => p.meet_sign().map(|s| s != Sign::Positive),
    });
    if let Some(m) = meet {
        crate::stats::HULL_F64.fast();
        return Ok(m);
    }
    if hull_core(a, b) {
        crate::stats::HULL_F64.fallback();
    }
    Ok(distance_exact_guessed(a, b, guess)?.intersects_with_radii(a.radius, b.radius))
}

/// The same rounded shape with double coordinates and radius, when every
/// number of `r` is exactly a double in the normal range (or zero): a
/// point, a segment, a triangle, a box, a prism, a cube, a convex hull
/// core; `None` otherwise. The values are the same, so
/// the answers are the same.
pub fn exact_f64(r: &Rounded<Q>) -> Option<Rounded<f64>> {
    let x = crate::num::dyadic::exact_f64;
    let p = |v: &Vec3<Q>| Some(Vec3::new(x(&v.x)?, x(&v.y)?, x(&v.z)?));
    let radius = x(&r.radius)?;
    let core = match &r.core {
        Core::Point(c) => Core::Point(p(c)?),
        Core::Segment(a, b) => Core::Segment(p(a)?, p(b)?),
        Core::Shape(Shape::Triangle(t)) => Core::Shape(Shape::Triangle(Triangle::new([
            p(&t.v[0])?,
            p(&t.v[1])?,
            p(&t.v[2])?,
        ]))),
        Core::Shape(Shape::Box(b)) => {
            let h = &b.half_axes;
            Core::Shape(Shape::Box(
                Obb::new(p(&b.center)?, [p(&h[0])?, p(&h[1])?, p(&h[2])?]).ok()?,
            ))
        }
        Core::Shape(Shape::Cube(c)) => {
            let v = &c.vertices;
            let mut out = Vec::with_capacity(8);
            for q in v {
                out.push(p(q)?);
            }
            Core::Shape(Shape::Cube(Cube::new(out.try_into().ok()?).ok()?))
        }
        Core::Shape(Shape::Prism(pr)) => {
            let v = |w: &Vec2<Q>| Some(Vec2::new(x(&w.x)?, x(&w.y)?));
            let b = &pr.base;
            // The base is already in the prism's order: the same values,
            // not re-sorted by `Prism::new`.
            Core::Shape(Shape::Prism(Prism {
                base: [v(&b[0])?, v(&b[1])?, v(&b[2])?, v(&b[3])?],
                zmin: x(&pr.zmin)?,
                zmax: x(&pr.zmax)?,
            }))
        }
        Core::Hull(h) => Core::Hull(Box::new(h.exact_f64()?)),
    };
    Some(Rounded { core, radius })
}

/// [`distance_exact`] of shapes read as exact rationals: when both shapes
/// are exactly doubles ([`exact_f64`]), [`distance_exact_f64`] on the
/// doubles (the float-guided paths: `segment_fast.rs` for point and segment
/// cores, `hull_fast.rs` for hull cores, the polytope paths' own
/// float-guided paths for triangle, box, prism and cube cores, with the
/// exact paths where they refuse); [`distance_exact`] on the rationals
/// otherwise. The same values, so the same answer as [`distance_exact`].
pub fn distance_exact_any(a: &Rounded<Q>, b: &Rounded<Q>) -> Result<RoundedClosest, QueryError> {
    match (exact_f64(a), exact_f64(b)) {
        (Some(x), Some(y)) => distance_exact_f64(&x, &y),
        _ => distance_exact(a, b),
    }
}

/// The cores' exact closest pair. A point, a segment or a polytope shape is
/// one piece; a hull is the union of its faces' triangles (its surface; a flat
/// hull its polygon), so the closest pair of two disjoint cores is the
/// closest over the pairs of pieces. When the minimum is positive the cores
/// may still meet with one inside a 3-dimensional hull without touching its
/// surface: then any point of the other core is inside the hull (a connected
/// set that meets the hull but not its boundary lies in its interior), which
/// one exact point-in-polytope test decides, and that point is the common
/// point.
fn core_distance<S: Scalar>(a: &Rounded<S>, b: &Rounded<S>) -> Result<Closest<Q>, QueryError> {
    // Points and segments (spheres, capsules): the closed segments' closest
    // pair in rationals, directly (a point is a segment of length 0).
    if let (Some((a0, a1)), Some((b0, b1))) = (segment(a), segment(b)) {
        let (d2, pa, pb) = super::triangle_triangle::segment_segment(&a0, &a1, &b0, &b1);
        return Ok(Closest {
            distance_squared: d2,
            a: pa,
            b: pb,
        });
    }
    let (pa, pb) = (a.core_pieces(), b.core_pieces());
    let mut best: Option<Closest<Q>> = None;
    for x in &pa {
        for y in &pb {
            let c = super::distance_exact(x, y)?;
            if best
                .as_ref()
                .is_none_or(|b| c.distance_squared < b.distance_squared)
            {
                let zero = c.distance_squared.is_zero();
                best = Some(c);
                if zero {
                    return Ok(best.expect("set"));
                }
            }
        }
    }
    let best = best.expect("every core has a piece");
    Ok(interior_point(a, b, &pa, &pb).unwrap_or(best))
}

/// A common point of cores no two pieces of which meet, when one is inside a
/// 3-dimensional hull: the first vertex of the other core's first piece, if
/// it is inside the hull (exact plane tests; a's hull first).
fn interior_point<S: Scalar>(
    a: &Rounded<S>,
    b: &Rounded<S>,
    pa: &[Shape<S>],
    pb: &[Shape<S>],
) -> Option<Closest<Q>> {
    for (hull_side, other) in [(a, pb), (b, pa)] {
        if let Core::Hull(h) = &hull_side.core {
            if h.dim() == 3 {
                let p = Polytope::new(&other[0]).vertices[0].clone();
                if h.face_planes().all(|f| f.eval(&p) <= Q::zero()) {
                    return Some(Closest {
                        distance_squared: Q::zero(),
                        a: p.clone(),
                        b: p,
                    });
                }
            }
        }
    }
    None
}

/// A point or segment core as a closed segment, exactly.
fn segment<S: Scalar>(r: &Rounded<S>) -> Option<(Vec3<Q>, Vec3<Q>)> {
    let q = |p: &Vec3<S>| p.map(|x| x.to_rational());
    match &r.core {
        Core::Point(p) => Some((q(p), q(p))),
        Core::Segment(a, b) => Some((q(a), q(b))),
        Core::Hull(h) if h.dim() == 0 => Some((q(&h.vertex_points()[0]), q(&h.vertex_points()[0]))),
        Core::Hull(h) if h.dim() == 1 => Some((q(&h.vertex_points()[0]), q(&h.vertex_points()[1]))),
        _ => None,
    }
}

/// Do the rounded shapes meet? Decided exactly (`q ≤ R²`).
pub fn intersects<S: Scalar>(a: &Rounded<S>, b: &Rounded<S>) -> Result<bool, QueryError> {
    let c = distance_exact(a, b)?;
    Ok(c.distance().sign() != Sign::Positive)
}
