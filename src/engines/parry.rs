//! Checking parry3d (f32) and parry3d-f64 against the exact answers
//! (`exact-collision check-parry`, cargo feature `parry`).
//!
//! Every case is given to parry as parry holds it — triangles by vertices,
//! boxes as a `Cuboid` at a pose (translation + unit quaternion), every number
//! rounded to the engine's precision, the quaternion normalized in it — and
//! the exact side answers **the very shapes those numbers define**: a box at
//! a pose is center = translation, half-axis i = half_extent[i] · column i of
//! R(q)/|q|², with q the engine's float quaternion taken exactly (so the
//! rotation is the one its float components define, not the float matrix
//! parry computes from them; that difference is parry's rounding, and is part
//! of what is measured). Parry's answers become a claim on a protocol line,
//! judged as `exact-collision verify` judges it:
//!
//! - static pairs (triangles, boxes, and the rounded shapes: `Ball`,
//!   `Capsule`, `ConvexPolyhedron::from_convex_hull` of the points,
//!   `RoundCuboid` — answered exactly by [`crate::query::rounded`]):
//!   `intersection_test` → `intersect`, `distance` → `distance_f64`; a
//!   case parry refuses (no hull) or panics on (caught) is skipped with the
//!   reason;
//! - contact (box pairs, and every pair with a `Ball`, `Capsule`,
//!   `ConvexPolyhedron` or `RoundCuboid`): `query::contact` with prediction
//!   0 → `depth_f64` (max(−dist, 0): parry's `dist` is negative when
//!   penetrating), `normal` (`normal1`, from a toward b, the protocol's
//!   direction) and `contact` points (`point1` on a, `point2` on b), against
//!   the exact `contact` query; `DefaultQueryDispatcher::contact_manifolds`
//!   with prediction 0 → the same fields from the manifold's normal (a's
//!   local `local_n1` turned into world space), its deepest point's depth,
//!   and every point pair of the manifold (`local_p1`, `local_p2` placed by
//!   a's and b's poses) as contact points, each judged;
//! - linear time of impact (boxes): b starts one offset away and moves back
//!   linearly over t ∈ [0, 1] to its generated, nearly touching, place;
//!   `cast_shapes` → `hit` and `t_enter_f64`, against the exact `ccd` query;
//! - nonlinear time of impact (a spinning box, [`crate::cases::spinning`]):
//!   `cast_shapes_nonlinear` cannot be answered exactly as such (parry's
//!   rotation is the exponential map, not a rational motion), so it is
//!   checked against parry's *own* poses: b is placed with
//!   `NonlinearRigidMotion::position_at_time` at 513 sample times, and each
//!   pose is tested exactly. A reported miss (or a first impact later than a
//!   sample) while the exact test finds the boxes in contact at that sample
//!   is a certified miss; its line is the static `intersect` query at that
//!   sample, with parry's implied claim `"intersect": false`.
//!
//! Default tolerances (`--abs`/`--rel` replace them): f64 — distances rel
//! 1e-9, times abs 1e-9; f32 — abs and rel 1e-5 for both (about 100 ulps of a
//! float at 1). Disagreements are shrunk under parry itself: a smaller case
//! is kept only if parry still gives the same decision and gets the same
//! fields wrong (so the exact decision is the same too); a convex shape's
//! points are dropped first, and no core loses a dimension.

use crate::cases::rounded::generate_rounded_all;
use crate::cases::{generate_all, spinning, Case, Geom, PoseBox, Rng, Spin};
use crate::num::scalar::rational_to_f64;
use crate::protocol::number::float_value;
use crate::protocol::{answer_value_with, Tolerances, Verdict};
use crate::shrink::{line_len, shrink_numbers, Form};
use num_rational::BigRational;
use serde_json::{json, Value};
use std::collections::BTreeMap;

/// What parry is asked.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Check {
    /// `intersection_test` and `distance`.
    Static,
    /// `cast_shapes` (linear motion).
    LinearToi,
    /// `cast_shapes_nonlinear` (rotation).
    NonlinearToi,
    /// `query::contact` (box pairs and pairs with a rounded shape): depth,
    /// normal and points.
    Contact,
    /// `contact_manifolds` with prediction 0 (the same pairs): the
    /// manifold's normal, its deepest point's depth and every point pair.
    Manifolds,
}

impl Check {
    /// The report's name.
    pub fn name(self) -> &'static str {
        match self {
            Check::Static => "intersect+distance",
            Check::LinearToi => "linear_toi",
            Check::NonlinearToi => "nonlinear_toi",
            Check::Contact => "contact",
            Check::Manifolds => "contact_manifolds",
        }
    }
}

/// One disagreement, with its protocol line and the line shrunk.
#[derive(Clone, Debug)]
pub struct Finding {
    /// `parry3d-f32` or `parry3d-f64`.
    pub engine: &'static str,
    /// What was asked.
    pub check: Check,
    /// The case family.
    pub family: String,
    /// The verdict's detail.
    pub detail: String,
    /// The query with parry's answer as its claim.
    pub line: Value,
    /// The same, shrunk under parry.
    pub shrunk: Value,
}

/// Counts for one (engine, check, family).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Row {
    /// Cases asked.
    pub cases: usize,
    /// Cases where parry disagrees with the exact answer.
    pub disagree: usize,
    /// Cases parry does not support or that could not be answered.
    pub skipped: usize,
    /// `contact_manifolds` only: the manifold points judged (each a pair,
    /// `local_p1` on a and `local_p2` on b).
    pub points: usize,
    /// `contact_manifolds` only: the points of which either point lies
    /// outside the tolerance of the contact region.
    pub points_off: usize,
}

/// The whole check.
#[derive(Clone, Debug, Default)]
pub struct Report {
    /// (engine, check, family) → counts.
    pub rows: BTreeMap<(&'static str, Check, String), Row>,
    /// Every disagreement.
    pub findings: Vec<Finding>,
    /// Why each skipped case was skipped: (engine, check, family, reason).
    pub skips: Vec<(&'static str, Check, String, String)>,
    /// With [`Options::keep_lines`]: every judged static and contact line and
    /// whether it agreed.
    pub lines: Vec<(Value, bool)>,
}

/// Options of a check run.
#[derive(Clone, Debug, Default)]
pub struct Options {
    /// Tolerances replacing the per-engine defaults.
    pub tol: Tolerances,
    /// Shrink each disagreement.
    pub shrink: bool,
    /// With [`Options::shrink`]: shrink only the first K disagreements of
    /// each (engine, check, family); the others are reported as found.
    /// `None`: every one.
    pub shrink_per_family: Option<usize>,
    /// Keep every judged static and contact line, agreeing ones too, in
    /// [`Report::lines`].
    pub keep_lines: bool,
}

impl Options {
    /// Whether the `n`-th disagreement (from 1) of a family is shrunk.
    fn shrinks(&self, n: usize) -> bool {
        self.shrink && self.shrink_per_family.is_none_or(|k| n <= k)
    }
}

/// parry's `Contact`, widened to f64 (world space).
#[derive(Clone, Copy, Debug)]
struct ParryContact {
    point1: [f64; 3],
    point2: [f64; 3],
    normal1: [f64; 3],
    dist: f64,
}

/// One of parry's contact manifolds, in world space: its normal (`local_n1`
/// turned by a's rotation) and each point's (`local_p1` placed by a's pose,
/// `local_p2` by b's, `dist`).
#[derive(Clone, Debug)]
struct ParryManifold {
    normal: [f64; 3],
    points: Vec<([f64; 3], [f64; 3], f64)>,
}

/// parry at one precision.
trait Engine {
    const NAME: &'static str;
    /// `x` rounded to the engine's precision (widened back exactly).
    fn round(x: f64) -> f64;
    /// `intersection_test`, or why parry gave no answer.
    fn intersect(a: &Geom, b: &Geom) -> Result<bool, String>;
    /// `distance`, or why parry gave no answer.
    fn distance(a: &Geom, b: &Geom) -> Result<f64, String>;
    /// `query::contact` with prediction 0: `None` when parry finds no
    /// contact, else (point1, point2, normal1, dist) in world space.
    fn contact(a: &Geom, b: &Geom) -> Result<Option<ParryContact>, String>;
    /// `DefaultQueryDispatcher::contact_manifolds` with prediction 0, in
    /// world space.
    fn manifolds(a: &Geom, b: &Geom) -> Result<Vec<ParryManifold>, String>;
    /// First impact of b moving with `vel` against a, in [0, 1].
    fn cast_linear(a: &PoseBox, b: &PoseBox, vel: [f64; 3]) -> Option<Option<f64>>;
    /// First impact of the spinning box, in [0, 1].
    fn cast_nonlinear(s: &Spin) -> Option<Option<f64>>;
    /// parry's pose of the spinning box at `t`.
    fn pose_at(s: &Spin, t: f64) -> PoseBox;
    /// The default tolerances.
    fn tolerances() -> Tolerances;
}

macro_rules! engine {
    ($name:ident, $krate:ident, $real:ty, $label:expr, $tol:expr) => {
        struct $name;
        impl $name {
            fn v(p: [f64; 3]) -> $krate::math::Vector {
                $krate::math::Vector::new(p[0] as $real, p[1] as $real, p[2] as $real)
            }
            fn pose(b: &PoseBox) -> $krate::math::Pose {
                let [w, x, y, z] = b.q.map(|c| c as $real);
                $krate::math::Pose::from_parts(
                    Self::v(b.t),
                    $krate::math::Rotation::from_xyzw(x, y, z, w),
                )
            }
            /// parry's shape and pose; `None` when parry refuses it (a
            /// convex hull it cannot build).
            fn shape(g: &Geom) -> Option<(Box<dyn $krate::shape::Shape>, $krate::math::Pose)> {
                let id = $krate::math::Pose::IDENTITY;
                Some(match g {
                    Geom::Tri(t) => (
                        Box::new($krate::shape::Triangle::new(
                            Self::v(t[0]),
                            Self::v(t[1]),
                            Self::v(t[2]),
                        )),
                        id,
                    ),
                    Geom::Box(b) => (
                        Box::new($krate::shape::Cuboid::new(Self::v(b.he))),
                        Self::pose(b),
                    ),
                    Geom::Ball { c, r } => (
                        Box::new($krate::shape::Ball::new(*r as $real)),
                        $krate::math::Pose::from_parts(
                            Self::v(*c),
                            $krate::math::Rotation::IDENTITY,
                        ),
                    ),
                    Geom::Capsule { a, b, r } => (
                        Box::new($krate::shape::Capsule::new(
                            Self::v(*a),
                            Self::v(*b),
                            *r as $real,
                        )),
                        id,
                    ),
                    Geom::Convex(p) => {
                        let pts: Vec<_> = p.iter().map(|&p| Self::v(p)).collect();
                        (
                            Box::new($krate::shape::ConvexPolyhedron::from_convex_hull(&pts)?),
                            id,
                        )
                    }
                    Geom::RoundBox(b, r) => (
                        Box::new($krate::shape::RoundCuboid {
                            inner_shape: $krate::shape::Cuboid::new(Self::v(b.he)),
                            border_radius: *r as $real,
                        }),
                        Self::pose(b),
                    ),
                })
            }
            #[allow(clippy::type_complexity)]
            fn shapes(
                a: &Geom,
                b: &Geom,
            ) -> Result<
                (
                    (Box<dyn $krate::shape::Shape>, $krate::math::Pose),
                    (Box<dyn $krate::shape::Shape>, $krate::math::Pose),
                ),
                String,
            > {
                let one = |g: &Geom| {
                    guarded(|| Self::shape(g))?.ok_or_else(|| {
                        "ConvexPolyhedron::from_convex_hull gave no hull".to_string()
                    })
                };
                Ok((one(a)?, one(b)?))
            }
            fn motion(s: &Spin) -> $krate::query::NonlinearRigidMotion {
                $krate::query::NonlinearRigidMotion::new(
                    Self::pose(&s.b),
                    $krate::math::Vector::ZERO,
                    Self::v(s.linvel),
                    Self::v(s.angvel),
                )
            }
        }
        impl Engine for $name {
            const NAME: &'static str = $label;
            fn round(x: f64) -> f64 {
                x as $real as f64
            }
            fn intersect(a: &Geom, b: &Geom) -> Result<bool, String> {
                let ((sa, pa), (sb, pb)) = Self::shapes(a, b)?;
                guarded(|| $krate::query::intersection_test(&pa, &*sa, &pb, &*sb))?
                    .map(|i| i.intersecting)
                    .map_err(|e| format!("intersection_test: {e:?}"))
            }
            fn distance(a: &Geom, b: &Geom) -> Result<f64, String> {
                let ((sa, pa), (sb, pb)) = Self::shapes(a, b)?;
                guarded(|| $krate::query::distance(&pa, &*sa, &pb, &*sb))?
                    .map(|d| d.distance as f64)
                    .map_err(|e| format!("distance: {e:?}"))
            }
            fn contact(a: &Geom, b: &Geom) -> Result<Option<ParryContact>, String> {
                let ((sa, pa), (sb, pb)) = Self::shapes(a, b)?;
                let w = |v: $krate::math::Vector| [v.x as f64, v.y as f64, v.z as f64];
                guarded(|| $krate::query::contact(&pa, &*sa, &pb, &*sb, 0.0))?
                    .map(|c| {
                        c.map(|c| ParryContact {
                            point1: w(c.point1),
                            point2: w(c.point2),
                            normal1: w(c.normal1),
                            dist: c.dist as f64,
                        })
                    })
                    .map_err(|e| format!("contact: {e:?}"))
            }
            fn manifolds(a: &Geom, b: &Geom) -> Result<Vec<ParryManifold>, String> {
                use $krate::query::PersistentQueryDispatcher;
                let ((sa, pa), (sb, pb)) = Self::shapes(a, b)?;
                let w = |v: $krate::math::Vector| [v.x as f64, v.y as f64, v.z as f64];
                let pos12 = pa.inv_mul(&pb);
                let mut ms: Vec<$krate::query::ContactManifold<(), ()>> = Vec::new();
                let mut ws = None;
                guarded(|| {
                    $krate::query::DefaultQueryDispatcher
                        .contact_manifolds(&pos12, &*sa, &*sb, 0.0, &mut ms, &mut ws)
                })?
                .map_err(|e| format!("contact_manifolds: {e:?}"))?;
                Ok(ms
                    .iter()
                    .map(|m| ParryManifold {
                        normal: w(pa.rotation * m.local_n1),
                        points: m
                            .points
                            .iter()
                            .map(|p| {
                                (
                                    w(pa.transform_point(p.local_p1)),
                                    w(pb.transform_point(p.local_p2)),
                                    p.dist as f64,
                                )
                            })
                            .collect(),
                    })
                    .collect())
            }
            fn cast_linear(a: &PoseBox, b: &PoseBox, vel: [f64; 3]) -> Option<Option<f64>> {
                let ca = $krate::shape::Cuboid::new(Self::v(a.he));
                let cb = $krate::shape::Cuboid::new(Self::v(b.he));
                let mut opts = $krate::query::ShapeCastOptions::with_max_time_of_impact(1.0);
                opts.stop_at_penetration = true;
                $krate::query::cast_shapes(
                    &Self::pose(a),
                    $krate::math::Vector::ZERO,
                    &ca,
                    &Self::pose(b),
                    Self::v(vel),
                    &cb,
                    opts,
                )
                .ok()
                .map(|h| h.map(|h| h.time_of_impact as f64))
            }
            fn cast_nonlinear(s: &Spin) -> Option<Option<f64>> {
                let ca = $krate::shape::Cuboid::new(Self::v(s.a.he));
                let cb = $krate::shape::Cuboid::new(Self::v(s.b.he));
                let ma = $krate::query::NonlinearRigidMotion::constant_position(Self::pose(&s.a));
                $krate::query::cast_shapes_nonlinear(
                    &ma,
                    &ca,
                    &Self::motion(s),
                    &cb,
                    0.0,
                    1.0,
                    true,
                )
                .ok()
                .map(|h| h.map(|h| h.time_of_impact as f64))
            }
            fn pose_at(s: &Spin, t: f64) -> PoseBox {
                let p = Self::motion(s).position_at_time(t as $real);
                let (r, tr) = (p.rotation, p.translation);
                PoseBox {
                    he: s.b.he.map(Self::round),
                    q: [r.w as f64, r.x as f64, r.y as f64, r.z as f64],
                    t: [tr.x as f64, tr.y as f64, tr.z as f64],
                }
            }
            fn tolerances() -> Tolerances {
                $tol
            }
        }
    };
}

fn q(x: f64) -> Option<BigRational> {
    BigRational::from_float(x)
}

/// `f()`, or a panic of parry's as an error (its message).
fn guarded<T>(f: impl FnOnce() -> T) -> Result<T, String> {
    std::panic::catch_unwind(std::panic::AssertUnwindSafe(f)).map_err(|p| {
        let msg = p
            .downcast_ref::<&str>()
            .map(|s| s.to_string())
            .or_else(|| p.downcast_ref::<String>().cloned())
            .unwrap_or_default();
        format!("parry panicked: {msg}")
    })
}

engine!(
    F32,
    parry3d,
    f32,
    "parry3d-f32",
    Tolerances {
        abs: q(1e-5),
        rel: q(1e-5),
    }
);
engine!(
    F64,
    parry3d_f64,
    f64,
    "parry3d-f64",
    Tolerances {
        abs: None,
        rel: None,
    }
);

/// The case as the engine holds it: every number rounded to its precision,
/// box quaternions normalized in it.
fn held<E: Engine>(c: &Case) -> Case {
    let g = |g: &Geom| match g {
        Geom::Box(b) => Geom::Box(held_box::<E>(b)),
        Geom::RoundBox(b, r) => Geom::RoundBox(held_box::<E>(b), E::round(*r)),
        _ => g.with_params(&g.params().into_iter().map(E::round).collect::<Vec<_>>()),
    };
    Case {
        family: c.family,
        a: g(&c.a),
        b: g(&c.b),
    }
}

fn held_box<E: Engine>(b: &PoseBox) -> PoseBox {
    let qn = b.q.map(E::round);
    let n = E::round(qn.iter().map(|c| c * c).sum::<f64>().sqrt());
    PoseBox {
        he: b.he.map(E::round),
        q: qn.map(|c| E::round(c / n)),
        t: b.t.map(E::round),
    }
}

/// The tolerances in force: the options' where given, else the engine's.
fn tol_for<E: Engine>(o: &Options) -> Tolerances {
    let d = E::tolerances();
    Tolerances {
        abs: o.tol.abs.clone().or(d.abs),
        rel: o.tol.rel.clone().or(d.rel),
    }
}

/// Judge a claim line: the verdict, or `None` when it cannot be answered.
fn judge(line: &Value, tol: &Tolerances) -> Option<Verdict> {
    let (a, v) = answer_value_with(line, tol);
    if a.ok {
        v
    } else {
        None
    }
}

/// What a disagreement is: the claimed decision and which fields agree (so
/// the exact decision too). Shrinking keeps it.
fn signature(line: &Value, v: &Verdict) -> (Value, Vec<(String, bool)>) {
    let c = &line["claim"];
    let decision = c.get("intersect").or_else(|| c.get("hit")).cloned();
    (
        decision.unwrap_or(Value::Null),
        v.fields
            .iter()
            .map(|f| (f.field.clone(), f.agrees))
            .collect(),
    )
}

fn with_meta(mut line: Value, engine: &str, extra: Value) -> Value {
    if let Some(o) = line.as_object_mut() {
        let mut m = json!({"engine": engine});
        if let (Some(m), Some(e)) = (m.as_object_mut(), extra.as_object()) {
            m.extend(e.clone());
        }
        o.insert("meta".into(), m);
    }
    line
}

/// The static claim line: parry's intersection test and distance (or why
/// there is none).
fn static_line<E: Engine>(c: &Case) -> Result<Value, String> {
    if !c.proper() {
        return Err("a degenerate case".into());
    }
    let it = E::intersect(&c.a, &c.b)?;
    let d = E::distance(&c.a, &c.b)?;
    let mut line = c.query("distance");
    line["claim"] = json!({"intersect": it, "distance_f64": float_value(d)});
    Ok(with_meta(line, E::NAME, json!({})))
}

/// The contact claim line: parry's `query::contact` (prediction 0) as a
/// claim on a `contact` query. parry's `dist` is negative when the shapes
/// penetrate, so the claimed depth is max(−dist, 0); its `normal1` (a unit
/// vector pointing from a toward b, the direction b moves to separate) is the
/// protocol's normal convention; `point1` (on a) and `point2` (on b, which
/// is point1 − depth·normal1) are claimed as contact points, judged against
/// the exact region swept back along b's translation. No contact from parry
/// is the claim `depth_f64: 0`.
fn contact_line<E: Engine>(c: &Case) -> Result<Value, String> {
    if !c.proper() {
        return Err("a degenerate case".into());
    }
    let ct = E::contact(&c.a, &c.b)?;
    let mut line = c.query("contact");
    let fv = |p: [f64; 3]| p.map(float_value).to_vec();
    let (claim, said) = match ct {
        None => (json!({"depth_f64": 0.0}), json!("no contact")),
        Some(k) => (
            json!({"depth_f64": float_value((-k.dist).max(0.0)),
                   "normal": fv(k.normal1),
                   "contact": {"points": [fv(k.point1), fv(k.point2)]}}),
            json!({"dist": float_value(k.dist)}),
        ),
    };
    line["claim"] = claim;
    Ok(with_meta(line, E::NAME, json!({ "parry": said })))
}

/// The manifold claim line: parry's `contact_manifolds` (prediction 0) as a
/// claim on a `contact` query, one claim for the manifold: its normal
/// (`local_n1` in world space, pointing from a toward b, the protocol's
/// convention), the depth of its deepest point (max of −`dist`, `dist`
/// negative when penetrating), and **every** point of the manifold as
/// contact points, in order: point i's `local_p1` (on a) is claimed point
/// 2i and its `local_p2` (on b) point 2i + 1, both in world space. Each is
/// judged by the contact rule (within the tolerance of the region swept
/// along b's translation); `meta` keeps each point's `dist`. Convex pairs
/// have one manifold; a pair for which parry gives several manifolds with
/// points is an error (skipped, with the reason), not a partial judgement.
/// No manifold point is the claim `depth_f64: 0`.
fn manifold_line<E: Engine>(c: &Case) -> Result<Value, String> {
    if !c.proper() {
        return Err("a degenerate case".into());
    }
    let ms = E::manifolds(&c.a, &c.b)?;
    let with_points: Vec<&ParryManifold> = ms.iter().filter(|m| !m.points.is_empty()).collect();
    if with_points.len() > 1 {
        return Err(format!(
            "contact_manifolds gave {} manifolds with points (a convex pair has one)",
            with_points.len()
        ));
    }
    let mut line = c.query("contact");
    let fv = |p: [f64; 3]| p.map(float_value).to_vec();
    let (claim, said) = match with_points.first() {
        None => (json!({"depth_f64": 0.0}), json!("no manifold point")),
        Some(m) => {
            let deepest = m
                .points
                .iter()
                .map(|p| p.2)
                .min_by(|x, y| x.total_cmp(y))
                .expect("not empty");
            let points: Vec<Value> = m
                .points
                .iter()
                .flat_map(|p| [json!(fv(p.0)), json!(fv(p.1))])
                .collect();
            (
                json!({"depth_f64": float_value((-deepest).max(0.0)),
                       "normal": fv(m.normal),
                       "contact": {"points": points}}),
                json!({"manifolds": ms.len(),
                       "points": m.points.iter().map(|p| json!({
                           "p1": fv(p.0), "p2": fv(p.1), "dist": float_value(p.2)
                       })).collect::<Vec<_>>()}),
            )
        }
    };
    line["claim"] = claim;
    Ok(with_meta(
        line,
        E::NAME,
        json!({ "parry": said, "call": "contact_manifolds" }),
    ))
}

/// The manifold points of a judged manifold line and how many are off: a
/// point (its pair `local_p1`, `local_p2`, claimed as contact points 2i and
/// 2i + 1) is off when either lies outside the tolerance.
fn manifold_points(line: &Value, v: &Verdict) -> (usize, usize) {
    let n = line["claim"]["contact"]["points"]
        .as_array()
        .map_or(0, |p| p.len() / 2);
    let off = v
        .fields
        .iter()
        .find(|f| f.field == "contact")
        .map_or(0, |f| {
            let mut pairs: Vec<usize> = f.outside.iter().map(|i| i / 2).collect();
            pairs.dedup();
            pairs.len()
        });
    (n, off)
}

/// Whether `check` is asked of the pair: linear time of impact of box pairs;
/// contact and manifolds of box pairs and of pairs with a rounded shape
/// (ball, capsule, convex polyhedron, round cuboid); intersection and
/// distance of every pair.
fn asks(check: Check, c: &Case) -> bool {
    let boxes = matches!(c.a, Geom::Box(_)) && matches!(c.b, Geom::Box(_));
    let rounded = |g: &Geom| {
        matches!(
            g,
            Geom::Ball { .. } | Geom::Capsule { .. } | Geom::Convex(_) | Geom::RoundBox(..)
        )
    };
    match check {
        Check::Static => true,
        Check::LinearToi | Check::NonlinearToi => boxes,
        Check::Contact | Check::Manifolds => boxes || rounded(&c.a) || rounded(&c.b),
    }
}

/// The moving case of a box pair: b starts at its place + d (d = b's center
/// minus a's) and moves back to it linearly over [0, 1].
fn linear_parts<E: Engine>(c: &Case) -> Option<(PoseBox, PoseBox, [f64; 3])> {
    let (Geom::Box(a), Geom::Box(b)) = (&c.a, &c.b) else {
        return None;
    };
    let d = [0, 1, 2].map(|i| E::round(b.t[i] - a.t[i]));
    let start = PoseBox {
        t: [0, 1, 2].map(|i| E::round(b.t[i] + d[i])),
        ..*b
    };
    Some((*a, start, d.map(|x| -x)))
}

fn box_local_json(b: &PoseBox) -> Value {
    Geom::Box(*b).to_json()
}

/// The linear-TOI claim line: `cast_shapes` against the exact `ccd`.
fn linear_line<E: Engine>(c: &Case) -> Option<Value> {
    if !c.proper() {
        return None;
    }
    let (a, b, vel) = linear_parts::<E>(c)?;
    let hit = E::cast_linear(&a, &b, vel)?;
    let claim = match hit {
        Some(t) => json!({"hit": true, "t_enter_f64": float_value(t)}),
        None => json!({"hit": false}),
    };
    let line = json!({
        "op": "ccd",
        "category": c.family,
        "a": {"shape": box_local_json(&a)},
        "b": {"shape": box_local_json(&b),
              "motion": {"quaternion": [1, 0, 0, 0],
                         "translation": vel.map(|v| json!([0, v]))}},
        "claim": claim,
    });
    Some(with_meta(line, E::NAME, json!({})))
}

/// Sample times of the nonlinear check.
const SAMPLES: usize = 512;

/// The nonlinear check: `Some((t, line))` when parry misses a contact that
/// its own pose at sample time t has (decided exactly); the line is the
/// static query at t with parry's implied claim.
fn nonlinear_miss<E: Engine>(s: &Spin) -> Option<Option<(f64, Value)>> {
    let toi = E::cast_nonlinear(s)?;
    let a = held_box::<E>(&s.a);
    for j in 0..=SAMPLES {
        let t = j as f64 / SAMPLES as f64;
        if toi.is_some_and(|toi| t >= toi) {
            break;
        }
        if let Some(line) = nonlinear_line::<E>(s, &a, t, toi) {
            return Some(Some((t, line)));
        }
    }
    Some(None)
}

/// The static query at `t` if the boxes are exactly in contact there.
fn nonlinear_line<E: Engine>(s: &Spin, a: &PoseBox, t: f64, toi: Option<f64>) -> Option<Value> {
    let b = E::pose_at(s, t);
    let c = Case {
        family: s.family,
        a: Geom::Box(*a),
        b: Geom::Box(b),
    };
    if !c.intersects()? {
        return None;
    }
    let mut line = c.query("intersect");
    line["claim"] = json!({"intersect": false});
    let said = match toi {
        None => "no impact in [0, 1]".to_string(),
        Some(x) => format!("first impact at {x:e}"),
    };
    Some(with_meta(
        line,
        E::NAME,
        json!({"motion": {"start": {"half_extents": s.b.he, "quaternion": s.b.q, "translation": s.b.t},
                          "linvel": s.linvel, "angvel": s.angvel},
               "parry": said, "t": t}),
    ))
}

/// Shrink a case while `fails` holds: first fewer points of a convex shape
/// (each point dropped in turn, kept dropped when the case still fails and
/// the hull keeps its dimension), then the doubles (box quaternions kept: a changed quaternion is no longer
/// unit, and parry reads only unit ones), keeping those exact in the
/// engine's precision.
fn shrink_case<E: Engine>(c: &Case, fails: &dyn Fn(&Case) -> bool) -> Case {
    // No step lowers the dimension of a core (a capsule's segment made a
    // point, a solid hull made flat): that is another case, not a smaller one.
    let dims = [c.a.core_dim(), c.b.core_dim()];
    let keeps = |c2: &Case| {
        [c2.a.core_dim(), c2.b.core_dim()]
            .iter()
            .zip(&dims)
            .all(|(now, was)| was.is_none_or(|w| now.is_some_and(|n| n >= w)))
    };
    let fails = &|c2: &Case| keeps(c2) && fails(c2);
    let mut c = c.clone();
    for side in 0..2 {
        let mut i = 0;
        loop {
            let g = if side == 0 { &c.a } else { &c.b };
            let Geom::Convex(p) = g else { break };
            if i >= p.len() || p.len() <= 1 {
                break;
            }
            let mut fewer = p.clone();
            fewer.remove(i);
            let mut cand = c.clone();
            *(if side == 0 { &mut cand.a } else { &mut cand.b }) = Geom::Convex(fewer);
            if cand.proper() && fails(&cand) {
                c = cand;
            } else {
                i += 1;
            }
        }
    }
    shrink_numbers_of::<E>(&c, fails)
}

fn shrink_numbers_of<E: Engine>(c: &Case, fails: &dyn Fn(&Case) -> bool) -> Case {
    let p = c.params();
    let quat = |i: usize| {
        let in_box = |g: &Geom, off: usize| {
            matches!(g, Geom::Box(_) | Geom::RoundBox(..)) && (off + 3..off + 7).contains(&i)
        };
        in_box(&c.a, 0) || in_box(&c.b, c.a.params().len())
    };
    let free: Vec<usize> = (0..p.len()).filter(|&i| !quat(i)).collect();
    let xs: Vec<BigRational> = free.iter().filter_map(|&i| q(p[i])).collect();
    let rebuild = |xs: &[BigRational]| -> Option<Case> {
        let mut p = p.clone();
        for (&i, x) in free.iter().zip(xs) {
            let f = rational_to_f64(x);
            if E::round(f) != f || q(f).as_ref() != Some(x) {
                return None;
            }
            p[i] = f;
        }
        Some(c.with_params(&p))
    };
    let forms = vec![Form::Double; xs.len()];
    let out = shrink_numbers(&xs, &forms, &mut |xs| {
        rebuild(xs).is_some_and(|c| c.proper() && fails(&c))
    });
    rebuild(&out).unwrap_or_else(|| c.clone())
}

fn shrink_spin<E: Engine>(s: &Spin, t: f64) -> Spin {
    let mut p: Vec<f64> =
        s.b.he
            .iter()
            .chain(&s.b.t)
            .chain(&s.linvel)
            .chain(&s.angvel)
            .copied()
            .collect();
    p.push(t);
    let xs: Vec<BigRational> = p.iter().filter_map(|&x| q(x)).collect();
    let build = |xs: &[BigRational]| -> Option<(Spin, f64)> {
        let f: Vec<f64> = xs.iter().map(rational_to_f64).collect();
        if f.iter().any(|&x| E::round(x) != x) || !(0.0..=1.0).contains(&f[12]) {
            return None;
        }
        let mut s2 = s.clone();
        s2.b.he = [f[0], f[1], f[2]];
        s2.b.t = [f[3], f[4], f[5]];
        s2.linvel = [f[6], f[7], f[8]];
        s2.angvel = [f[9], f[10], f[11]];
        Some((s2, f[12]))
    };
    let a = held_box::<E>(&s.a);
    let fails = |s2: &Spin, t: f64| {
        s2.b.he.iter().all(|&h| h > 0.0)
            && E::cast_nonlinear(s2).is_some_and(|toi| {
                toi.is_none_or(|x| t < x) && nonlinear_line::<E>(s2, &a, t, toi).is_some()
            })
    };
    let forms = vec![Form::Double; xs.len()];
    let out = shrink_numbers(&xs, &forms, &mut |xs| {
        build(xs).is_some_and(|(s2, t)| fails(&s2, t))
    });
    build(&out).map_or_else(|| s.clone(), |b| b.0)
}

fn run_engine<E: Engine>(cases: &[Case], spins: &[Spin], o: &Options, r: &mut Report) {
    let tol = tol_for::<E>(o);
    for c0 in cases {
        let c = held::<E>(c0);
        for check in [
            Check::Static,
            Check::LinearToi,
            Check::Contact,
            Check::Manifolds,
        ] {
            let make = |c: &Case| match check {
                Check::Static => static_line::<E>(c),
                Check::Contact => contact_line::<E>(c),
                Check::Manifolds => manifold_line::<E>(c),
                _ => linear_line::<E>(c).ok_or_else(|| {
                    "parry answered nothing (unsupported pair or degenerate case)".to_string()
                }),
            };
            if !asks(check, &c) {
                continue;
            }
            let key = (E::NAME, check, c.family.to_string());
            let line = make(&c);
            let verdict = line.as_ref().ok().and_then(|l| judge(l, &tol));
            let entry = r.rows.entry(key).or_default();
            entry.cases += 1;
            let (Ok(line), Some(v)) = (line.clone(), verdict) else {
                entry.skipped += 1;
                let why = match &line {
                    Err(e) => e.clone(),
                    Ok(l) => {
                        let a = answer_value_with(l, &tol).0.value;
                        format!(
                            "the exact side: {}",
                            a["error"].as_str().unwrap_or("no verdict")
                        )
                    }
                };
                r.skips.push((E::NAME, check, c.family.to_string(), why));
                continue;
            };
            if check == Check::Manifolds {
                let (n, off) = manifold_points(&line, &v);
                entry.points += n;
                entry.points_off += off;
            }
            if o.keep_lines && check != Check::LinearToi {
                r.lines.push((line.clone(), v.agrees));
            }
            if v.agrees {
                continue;
            }
            entry.disagree += 1;
            let sig = signature(&line, &v);
            let shrunk = if o.shrinks(entry.disagree) {
                let small = shrink_case::<E>(&c, &|c2| {
                    make(c2)
                        .is_ok_and(|l| judge(&l, &tol).is_some_and(|v2| signature(&l, &v2) == sig))
                });
                // Never larger than the line as found.
                make(&small)
                    .ok()
                    .filter(|l| line_len(l) <= line_len(&line))
                    .unwrap_or_else(|| line.clone())
            } else {
                Value::Null
            };
            r.findings.push(Finding {
                engine: E::NAME,
                check,
                family: c.family.to_string(),
                detail: v.detail(),
                line,
                shrunk,
            });
        }
    }
    for s0 in spins {
        let s = Spin {
            a: held_box::<E>(&s0.a),
            b: held_box::<E>(&s0.b),
            linvel: s0.linvel.map(E::round),
            angvel: s0.angvel.map(E::round),
            ..s0.clone()
        };
        let entry = r
            .rows
            .entry((E::NAME, Check::NonlinearToi, s.family.to_string()))
            .or_default();
        entry.cases += 1;
        match nonlinear_miss::<E>(&s) {
            None => {
                entry.skipped += 1;
                r.skips.push((
                    E::NAME,
                    Check::NonlinearToi,
                    s.family.to_string(),
                    "parry answered nothing".into(),
                ));
            }
            Some(None) => {}
            Some(Some((t, line))) => {
                entry.disagree += 1;
                let shrunk = if o.shrinks(entry.disagree) {
                    let small = shrink_spin::<E>(&s, t);
                    let a = held_box::<E>(&small.a);
                    let toi = E::cast_nonlinear(&small).flatten();
                    // The shrunk motion's first certified miss.
                    (0..=SAMPLES)
                        .map(|j| j as f64 / SAMPLES as f64)
                        .take_while(|&t| toi.is_none_or(|x| t < x))
                        .find_map(|t| nonlinear_line::<E>(&small, &a, t, toi))
                        .unwrap_or(Value::Null)
                } else {
                    Value::Null
                };
                let said = line["meta"]["parry"].as_str().unwrap_or("").to_string();
                r.findings.push(Finding {
                    engine: E::NAME,
                    check: Check::NonlinearToi,
                    family: s.family.to_string(),
                    detail: format!(
                        "parry: {said}; its own pose at t = {t} puts the boxes in contact (decided exactly)"
                    ),
                    line,
                    shrunk,
                });
            }
        }
    }
}

/// Check parry (both precisions) on `cases` (static pairs, and linear time of
/// impact for box pairs) and on `spins` (nonlinear time of impact).
pub fn check(cases: &[Case], spins: &[Spin], o: &Options) -> Report {
    let mut r = Report::default();
    run_engine::<F32>(cases, spins, o, &mut r);
    run_engine::<F64>(cases, spins, o, &mut r);
    r
}

/// `n` generated cases of the polytope families ([`crate::cases::FAMILIES`]),
/// `n` of the rounded ones ([`crate::cases::rounded::ROUNDED_FAMILIES`]) and `n / 4` spinning ones,
/// from `seed`.
///
/// ```
/// use exact_collision::engines::parry::{check_random, Options};
/// let r = check_random(12, 3, &Options::default());
/// assert!(r.rows.values().map(|row| row.cases).sum::<usize>() > 0);
/// ```
pub fn check_random(n: usize, seed: u64, o: &Options) -> Report {
    let mut cases = generate_all(n, seed);
    cases.extend(generate_rounded_all(n, seed ^ 0x0b_a115));
    let mut rng = Rng(seed ^ 0x5e1f_5e1f);
    let spins: Vec<Spin> = (0..n.div_ceil(4)).map(|_| spinning(&mut rng)).collect();
    check(&cases, &spins, o)
}

/// A case from a protocol query: triangles, boxes given by `center` and
/// `half_axes` (mutually orthogonal; the pose parry holds is computed from
/// them in f64 — rotation from the normalized half-axes — and the exact side
/// answers that pose's box), such boxes with a `radius` (a `RoundCuboid`),
/// spheres, capsules and convex shapes without a radius. Numbers are read as
/// doubles (exact strings rounded to the nearest). `None` for anything else.
pub fn case_from_query(v: &Value) -> Option<Case> {
    let num = |x: &Value| {
        crate::protocol::number::read_number(x)
            .ok()
            .map(|r| rational_to_f64(&r))
    };
    let p3 = |x: &Value| -> Option<[f64; 3]> {
        let a = x.as_array()?;
        (a.len() == 3).then_some(())?;
        Some([num(&a[0])?, num(&a[1])?, num(&a[2])?])
    };
    let geom = |s: &Value| -> Option<Geom> {
        match s.get("type")?.as_str()? {
            "triangle" if s.get("radius").is_none() => {
                let v = s.get("v")?.as_array()?;
                (v.len() == 3).then_some(())?;
                Some(Geom::Tri([p3(&v[0])?, p3(&v[1])?, p3(&v[2])?]))
            }
            "box" => {
                let c = p3(s.get("center")?)?;
                let h = s.get("half_axes")?.as_array()?;
                (h.len() == 3).then_some(())?;
                let h = [p3(&h[0])?, p3(&h[1])?, p3(&h[2])?];
                let he = h.map(|v| (v[0] * v[0] + v[1] * v[1] + v[2] * v[2]).sqrt());
                let m = [0, 1, 2].map(|i| [0, 1, 2].map(|j| h[j][i] / he[j]));
                let b = PoseBox {
                    he,
                    q: quat_from_matrix(m),
                    t: c,
                };
                match s.get("radius") {
                    None => Some(Geom::Box(b)),
                    Some(r) => Some(Geom::RoundBox(b, num(r)?)),
                }
            }
            "sphere" => Some(Geom::Ball {
                c: p3(s.get("center")?)?,
                r: num(s.get("radius")?)?,
            }),
            "capsule" => Some(Geom::Capsule {
                a: p3(s.get("a")?)?,
                b: p3(s.get("b")?)?,
                r: num(s.get("radius")?)?,
            }),
            "convex" if s.get("radius").is_none() => Some(Geom::Convex(
                s.get("points")?
                    .as_array()?
                    .iter()
                    .map(p3)
                    .collect::<Option<Vec<_>>>()?,
            )),
            _ => None,
        }
    };
    Some(Case {
        family: "file",
        a: geom(v.get("a")?)?,
        b: geom(v.get("b")?)?,
    })
}

/// A unit quaternion (w, x, y, z) of the rotation matrix `m` (rows), in f64
/// (Shepperd's method).
fn quat_from_matrix(m: [[f64; 3]; 3]) -> [f64; 4] {
    let tr = m[0][0] + m[1][1] + m[2][2];
    if tr > 0.0 {
        let s = (tr + 1.0).sqrt() * 2.0;
        [
            0.25 * s,
            (m[2][1] - m[1][2]) / s,
            (m[0][2] - m[2][0]) / s,
            (m[1][0] - m[0][1]) / s,
        ]
    } else if m[0][0] > m[1][1] && m[0][0] > m[2][2] {
        let s = (1.0 + m[0][0] - m[1][1] - m[2][2]).sqrt() * 2.0;
        [
            (m[2][1] - m[1][2]) / s,
            0.25 * s,
            (m[0][1] + m[1][0]) / s,
            (m[0][2] + m[2][0]) / s,
        ]
    } else if m[1][1] > m[2][2] {
        let s = (1.0 + m[1][1] - m[0][0] - m[2][2]).sqrt() * 2.0;
        [
            (m[0][2] - m[2][0]) / s,
            (m[0][1] + m[1][0]) / s,
            0.25 * s,
            (m[1][2] + m[2][1]) / s,
        ]
    } else {
        let s = (1.0 + m[2][2] - m[0][0] - m[1][1]).sqrt() * 2.0;
        [
            (m[1][0] - m[0][1]) / s,
            (m[0][2] + m[2][0]) / s,
            (m[1][2] + m[2][1]) / s,
            0.25 * s,
        ]
    }
}

impl Report {
    /// The table: engine, check, family, cases, disagreements, skipped.
    pub fn table(&self) -> String {
        let mut t: Vec<Vec<String>> = vec![[
            "engine", "check", "family", "cases", "disagree", "skipped",
        ]
        .map(String::from)
        .to_vec()];
        for ((e, c, f), r) in &self.rows {
            t.push(vec![
                e.to_string(),
                c.name().into(),
                f.clone(),
                r.cases.to_string(),
                r.disagree.to_string(),
                r.skipped.to_string(),
            ]);
        }
        crate::report::text_table(&t, 3)
    }

    /// The manifold points per engine and family: the `contact_manifolds`
    /// lines judged, the points in them and the points off the contact
    /// region (either of the pair outside the tolerance).
    pub fn points_table(&self) -> String {
        let mut t: Vec<Vec<String>> = vec![["engine", "family", "lines", "points", "points_off"]
            .map(String::from)
            .to_vec()];
        for ((e, c, f), r) in &self.rows {
            if *c != Check::Manifolds {
                continue;
            }
            t.push(vec![
                e.to_string(),
                f.clone(),
                (r.cases - r.skipped).to_string(),
                r.points.to_string(),
                r.points_off.to_string(),
            ]);
        }
        crate::report::text_table(&t, 2)
    }
}
