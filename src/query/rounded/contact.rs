//! Contact of rounded shapes (a core grown by a radius: sphere, capsule,
//! `convex`, any polytope shape with a `radius`), in closed form.
//!
//! With R = r_a + r_b and q the cores' exact squared distance, the shapes
//! meet iff q ≤ R² (decided as `intersect` decides it). Their Minkowski
//! difference is the cores' difference grown by R, so the penetration depth
//! is
//!
//! - `δ = R − √q` when the cores are apart (0 < q ≤ R²): the only normal is
//!   the direction `w = p_b − p_a` of the cores' closest pair, and the
//!   contact region is the set of a's core points x with x + w in b's core
//!   (every closest pair: one point, or a segment or polygon for parallel
//!   features), moved by `(r_a/√q)·w`: rational when r_a = 0 or √q is;
//! - `δ = √p + R` when the cores meet, p the cores' squared penetration
//!   depth (rational: [`crate::query::polytope::contact`] on the cores, a
//!   point or segment core as the degenerate triangle it is, a `convex` core
//!   by its hull's features): the cores' normals, and the cores' contact
//!   region moved by `r_a` along the unit normal (rational when r_a = 0 or
//!   the normal's length is rational).
//!
//! `depth_f64` is the double nearest δ in both forms, decided by exact
//! comparisons of δ with rationals.

use super::{distance_exact, rational_sqrt, RoundedClosest};
use crate::query::polytope::contact::{
    penetration_of_meeting, primitive, touching_region, Features, HullFeatures, Penetration,
};
use crate::query::polytope::Polytope;
use crate::query::triangle_triangle::Contact as Region;
use crate::query::QueryError;
use crate::shape::{Core, Rounded, Shape, Triangle};
use crate::vector::Vec3;
use num_rational::BigRational;
use num_traits::{Signed, Zero};
use std::cmp::Ordering;

type Q = BigRational;

/// The features of a core.
enum CoreFeatures {
    Polytope(Box<Polytope>),
    Hull(HullFeatures),
}

impl Features for CoreFeatures {
    fn vertices(&self) -> &[Vec3<Q>] {
        match self {
            CoreFeatures::Polytope(p) => p.vertices(),
            CoreFeatures::Hull(h) => h.vertices(),
        }
    }
    fn face_normals(&self) -> Vec<&Vec3<Q>> {
        match self {
            CoreFeatures::Polytope(p) => p.face_normals(),
            CoreFeatures::Hull(h) => h.face_normals(),
        }
    }
    fn directions(&self) -> &[Vec3<Q>] {
        match self {
            CoreFeatures::Polytope(p) => Features::directions(p.as_ref()),
            CoreFeatures::Hull(h) => h.directions(),
        }
    }
}

fn core_features(r: &Rounded<Q>) -> CoreFeatures {
    let tri = |p: &Vec3<Q>, q: &Vec3<Q>| {
        Shape::Triangle(Triangle::new([p.clone(), q.clone(), q.clone()]))
    };
    match &r.core {
        Core::Point(p) => CoreFeatures::Polytope(Box::new(Polytope::new(&tri(p, p)))),
        Core::Segment(p, q) => CoreFeatures::Polytope(Box::new(Polytope::new(&tri(p, q)))),
        Core::Shape(s) => CoreFeatures::Polytope(Box::new(Polytope::new(s))),
        Core::Hull(h) => CoreFeatures::Hull(HullFeatures::new(h.as_ref())),
    }
}

/// The contact of two meeting rounded shapes.
#[derive(Clone, Debug, PartialEq)]
pub struct RoundedPenetration {
    /// The cores' closest pair, q and R.
    pub closest: RoundedClosest,
    /// The cores' penetration when they meet (q = 0): δ = √p + R with
    /// p = `core.depth_squared`; `None` when they are apart: δ = R − √q.
    pub core: Option<Penetration>,
    /// Every optimal direction, primitive integers, from a to b (the first
    /// is the reported normal).
    pub normals: Vec<Vec3<Q>>,
    /// The contact region for the first normal, when it is rational.
    pub region: Option<Region<Q>>,
    /// b's translation by δ along the first normal, when it is rational.
    pub translation: Option<Vec3<Q>>,
}

/// The answer to `contact` for rounded shapes.
#[derive(Clone, Debug, PartialEq)]
pub enum RoundedContact {
    /// The shapes are apart: the distance answer.
    Apart(Box<RoundedClosest>),
    /// The shapes meet.
    Meeting(Box<RoundedPenetration>),
}

impl RoundedPenetration {
    /// δ², when it is rational: p with R = 0 and meeting cores; (R − √q)²
    /// when √q is rational; `None` otherwise.
    pub fn depth_squared(&self) -> Option<Q> {
        let r = &self.closest.radius;
        match &self.core {
            Some(c) if r.is_zero() => Some(c.depth_squared.clone()),
            Some(c) => rational_sqrt(&c.depth_squared).map(|s| (&s + r) * (&s + r)),
            None => rational_sqrt(&self.closest.core.distance_squared).map(|s| (r - &s) * (r - &s)),
        }
    }

    /// δ compared with the rational t, exactly: √p + R ≥ t ⟺ t − R < 0 or
    /// p ≥ (t − R)²; R − √q ≥ t ⟺ R − t ≥ 0 and q ≤ (R − t)².
    pub fn cmp_depth(&self, t: &Q) -> Ordering {
        let r = &self.closest.radius;
        match &self.core {
            Some(c) => {
                let s = t - r;
                if s.is_negative() {
                    Ordering::Greater
                } else {
                    c.depth_squared.cmp(&(&s * &s))
                }
            }
            None => {
                let s = r - t;
                if s.is_negative() {
                    Ordering::Less
                } else {
                    (&s * &s).cmp(&self.closest.core.distance_squared)
                }
            }
        }
    }

    /// The double nearest δ, decided exactly.
    pub fn depth_f64(&self) -> f64 {
        let r = &self.closest.radius;
        match &self.core {
            // √p + R against t: t − R < 0, or p against (t − R)².
            Some(c) => {
                let p = &c.depth_squared;
                let guess =
                    crate::num::sqrt::sqrt_nearest_f64(p) + crate::num::scalar::rational_to_f64(r);
                nearest_by(guess, |t| {
                    let s = t - r;
                    if s.is_negative() {
                        Ordering::Greater
                    } else {
                        p.cmp(&(&s * &s))
                    }
                })
            }
            None => self.closest.distance().neg_nearest_f64(),
        }
    }
}

/// The double nearest the non-negative real x, given a guess within a few
/// ulps and `cmp(t)` = the exact order of x and the rational t (ties to even).
fn nearest_by(guess: f64, cmp: impl Fn(&Q) -> Ordering) -> f64 {
    let mut g = guess.max(0.0);
    if !g.is_finite() {
        return g;
    }
    let mid = |u: f64, v: f64| {
        (Q::from_float(u).unwrap_or_default() + Q::from_float(v).unwrap_or_default())
            / Q::from_integer(2.into())
    };
    let even = |u: f64, v: f64| if u.to_bits() & 1 == 0 { u } else { v };
    for _ in 0..10_000 {
        let lo = g.next_down();
        let hi = g.next_up();
        if g > 0.0 {
            match cmp(&mid(lo, g)) {
                Ordering::Less => {
                    g = lo;
                    continue;
                }
                Ordering::Equal => return even(lo, g),
                Ordering::Greater => {}
            }
        }
        if !hi.is_finite() {
            return g;
        }
        return match cmp(&mid(g, hi)) {
            Ordering::Greater => {
                g = hi;
                continue;
            }
            Ordering::Equal => even(g, hi),
            Ordering::Less => g,
        };
    }
    g
}

trait Translated {
    fn translated(&self, o: &Vec3<Q>) -> Self;
}

impl Translated for Region<Q> {
    fn translated(&self, o: &Vec3<Q>) -> Self {
        match self {
            Region::Point(x) => Region::Point(x.add(o)),
            Region::Segment(x, y) => Region::Segment(x.add(o), y.add(o)),
            Region::Polygon(v) => Region::Polygon(v.iter().map(|x| x.add(o)).collect()),
        }
    }
}

fn scale(v: &Vec3<Q>, k: &Q) -> Vec3<Q> {
    v.scale(k)
}

/// The exact contact of two rounded shapes.
pub fn contact(a: &Rounded<Q>, b: &Rounded<Q>) -> Result<RoundedContact, QueryError> {
    let closest = distance_exact(a, b)?;
    if !closest.intersects() {
        return Ok(RoundedContact::Apart(Box::new(closest)));
    }
    let (ra, r) = (&a.radius, &closest.radius);
    let q = &closest.core.distance_squared;
    let p = if q.is_zero() {
        let (fa, fb) = (core_features(a), core_features(b));
        Some(penetration_of_meeting(&fa, &fb)?)
    } else {
        None
    };
    let (normals, region, translation) = match &p {
        None => {
            // Cores apart: u = w/√q, w = p_b − p_a. Once b is moved by
            // δ·u the cores are R apart along u, and the shapes touch at
            // x + r_a·u for x in a's core with x + w in b's core: the cores'
            // touching region after b's core moves by −w, moved by r_a·u.
            let w = closest.core.b.sub(&closest.core.a);
            let s = rational_sqrt(q);
            let (fa, fb) = (core_features(a), core_features(b));
            let shift = if ra.is_zero() {
                Some(Vec3::new(Q::zero(), Q::zero(), Q::zero()))
            } else {
                s.as_ref().map(|s| scale(&w, &(ra / s)))
            };
            let region = match shift {
                Some(o) => Some(
                    touching_region(&fa, &fb, &w, &w.neg())
                        .ok_or_else(|| {
                            QueryError::Unsupported(
                                "contact: the cores' closest features do not meet".into(),
                            )
                        })?
                        .translated(&o),
                ),
                None => None,
            };
            let translation = s.map(|s| scale(&w, &((r - &s) / &s)));
            (vec![primitive(&w)], region, translation)
        }
        Some(c) => {
            let n = c.normal();
            let len = rational_sqrt(&n.norm_squared());
            let shift = |k: &Q| -> Option<Vec3<Q>> {
                if k.is_zero() {
                    Some(Vec3::new(Q::zero(), Q::zero(), Q::zero()))
                } else {
                    len.as_ref().map(|l| scale(n, &(k / l)))
                }
            };
            let region = shift(ra).map(|o| c.region.translated(&o));
            let translation = shift(r).map(|o| c.translation.add(&o));
            (c.normals.clone(), region, translation)
        }
    };
    Ok(RoundedContact::Meeting(Box::new(RoundedPenetration {
        closest,
        core: p,
        normals,
        region,
        translation,
    })))
}

/// `max over a's core of n·x − min over b's core of n·y`: how far b's core
/// must move along n (times |n|) to touch a's core; the shapes' overlap
/// along n is this over |n|, plus R.
pub fn core_gap(a: &Rounded<Q>, b: &Rounded<Q>, n: &Vec3<Q>) -> Q {
    let (fa, fb) = (core_features(a), core_features(b));
    let (_, amax) = fa.extent(n);
    let (bmin, _) = fb.extent(n);
    amax - bmin
}

/// For each optimal normal n of the meeting pair `p` (of `a` and `b`), the
/// cores' touching region for it: the points of a's core, all in the plane
/// `n·x = max over a's core of n·x`, where the cores touch once b's core
/// is moved along n onto a's (cores apart: by −w, w the cores' closest
/// direction; cores meeting: by the cores' translation for n). The shapes'
/// contact region is this region moved by r_a·n/|n|. A normal whose region
/// cannot be formed (it always can for a true optimal normal) is left out.
pub fn core_regions(
    a: &Rounded<Q>,
    b: &Rounded<Q>,
    p: &RoundedPenetration,
) -> Vec<(Vec3<Q>, Region<Q>)> {
    let (fa, fb) = (core_features(a), core_features(b));
    match &p.core {
        None => {
            let w = p.closest.core.b.sub(&p.closest.core.a);
            touching_region(&fa, &fb, &w, &w.neg())
                .map(|r| (p.normals[0].clone(), r))
                .into_iter()
                .collect()
        }
        Some(_) => p
            .normals
            .iter()
            .filter_map(|n| {
                let (_, amax) = fa.extent(n);
                let (bmin, _) = fb.extent(n);
                let t = n.scale(&((amax - bmin) / n.norm_squared()));
                touching_region(&fa, &fb, n, &t).map(|r| (n.clone(), r))
            })
            .collect(),
    }
}
