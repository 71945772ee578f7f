//! Prism–prism (P. Nathan, "Notes on Cuboid-Cuboid Collision Detection", 2014):
//! z-rotated cuboids as a z range and a convex plan-view quadrilateral, answered
//! exactly.
//!
//! Two prisms intersect exactly when their z ranges overlap *and* their plan
//! views intersect. The steps follow Nathan's note, with every comparison exact:
//!
//! 1. **Z test**: `za_min ≤ zb_max and zb_min ≤ za_max` (this covers both
//!    containment directions, which the note's written test misses).
//! 2. **Bounding-circle cull**: centroid C (mean of the four vertices) and
//!    radius R (farthest vertex); the pair is rejected only when
//!    `|C_b − C_a| > R_a + R_b` is *certain*: evaluated in interval arithmetic
//!    with outward rounding, square roots rounded up. It never rejects a
//!    touching pair; an undecided cull just goes on to step 3.
//! 3. **Edge–edge** (16 pairs, `orient2d`) and **vertex containment** (both
//!    directions, `orient2d` against the four edges): two convex polygons meet
//!    exactly when an edge of one meets an edge of the other or a vertex of
//!    one lies in the other.
//!
//! Distance: the plan-view distance (0 when the plan views meet; else the
//! minimum over vertex–edge pairs, exact) combined with the z gap,
//! `d² = d_plan² + gap_z²`, with closest points.
//!
//! ```
//! use exact_collision::query::prism_prism;
//! use exact_collision::{Prism, Vec2};
//! let sq = |x: f64, y: f64, z0: f64, z1: f64| Prism::new([Vec2::new(x, y), Vec2::new(x + 1., y), Vec2::new(x + 1., y + 1.), Vec2::new(x, y + 1.)], z0, z1).unwrap();
//! // b's z range lies inside a's: the note's one-directional z test misses this.
//! assert!(prism_prism::overlaps(&sq(0., 0., 0., 10.), &sq(0.5, 0.5, 4., 5.)));
//! assert_eq!(prism_prism::distance(&sq(0., 0., 0., 1.), &sq(2., 0., 3., 4.)).distance_squared, 5.0);
//! ```

pub(crate) mod fast;

use super::polytope::to_rational_prism;
use super::{Closest, Intersection};
use crate::num::interval::Interval;
use crate::num::ring::Ring;
use crate::num::scalar::Scalar;
use crate::num::sign::Sign;
use crate::predicates::orient2d;
use crate::shape::Prism;
use crate::vector::{Vec2, Vec3};
use num_rational::BigRational;
use num_traits::{One, Signed, Zero};

type Q = BigRational;

/// Whether the z ranges overlap (closed), exactly.
pub fn z_overlap<S: Scalar>(a: &Prism<S>, b: &Prism<S>) -> bool {
    a.zmin <= b.zmax && b.zmin <= a.zmax
}

/// True only when the bounding circles are certainly disjoint (never for a
/// touching pair). Scaled by 4 to avoid the division: D = Σ b_i − Σ a_i and
/// R'² = max_i |4 p_i − Σ p|².
pub fn circles_disjoint<S: Scalar>(a: &Prism<S>, b: &Prism<S>) -> bool {
    let iv = |p: &Vec2<S>| Vec2::new(p.x.to_interval(), p.y.to_interval());
    let sum = |p: &Prism<S>| {
        let v: Vec<Vec2<Interval>> = p.base.iter().map(iv).collect();
        (v[0].add(&v[1]).add(&v[2]).add(&v[3]), v)
    };
    let (sa, va) = sum(a);
    let (sb, vb) = sum(b);
    let four = Interval::from_i32(4);
    let radius_hi = |s: &Vec2<Interval>, v: &[Vec2<Interval>]| -> f64 {
        let r2 = v
            .iter()
            .map(|p| {
                let d = Vec2::new(p.x.mul_ref(&four), p.y.mul_ref(&four)).sub(s);
                d.dot(&d).hi
            })
            .fold(0.0f64, f64::max);
        // sqrt is correctly rounded; one step up makes it an upper bound.
        r2.sqrt().next_up()
    };
    let d = sb.sub(&sa);
    let d2_lo = d.dot(&d).lo;
    let r = (radius_hi(&sa, &va) + radius_hi(&sb, &vb)).next_up();
    let r2_hi = (r * r).next_up();
    // NaN or ∞ anywhere makes this false: no rejection.
    d2_lo > r2_hi
}

pub(crate) fn on_segment<S: Scalar>(p: &Vec2<S>, q: &Vec2<S>, x: &Vec2<S>) -> bool {
    let within = |a: &S, b: &S, c: &S| (a <= c && c <= b) || (b <= c && c <= a);
    orient2d(p, q, x) == Sign::Zero && within(&p.x, &q.x, &x.x) && within(&p.y, &q.y, &x.y)
}

/// Whether closed segments pq and rs meet, decided with orient2d.
pub fn segments_meet<S: Scalar>(p: &Vec2<S>, q: &Vec2<S>, r: &Vec2<S>, s: &Vec2<S>) -> bool {
    let (o1, o2) = (orient2d(p, q, r), orient2d(p, q, s));
    let (o3, o4) = (orient2d(r, s, p), orient2d(r, s, q));
    if o1 == Sign::Zero && o2 == Sign::Zero {
        return on_segment(p, q, r)
            || on_segment(p, q, s)
            || on_segment(r, s, p)
            || on_segment(r, s, q);
    }
    o1.times(o2) != Sign::Positive && o3.times(o4) != Sign::Positive
}

pub(crate) fn in_quad<S: Scalar>(quad: &[Vec2<S>; 4], x: &Vec2<S>) -> bool {
    (0..4).all(|i| orient2d(&quad[i], &quad[(i + 1) % 4], x) != Sign::Negative)
}

/// Whether the plan views (closed convex quadrilaterals) meet.
pub fn plans_meet<S: Scalar>(a: &[Vec2<S>; 4], b: &[Vec2<S>; 4]) -> bool {
    for i in 0..4 {
        for j in 0..4 {
            if segments_meet(&a[i], &a[(i + 1) % 4], &b[j], &b[(j + 1) % 4]) {
                return true;
            }
        }
    }
    a.iter().any(|p| in_quad(b, p)) || b.iter().any(|p| in_quad(a, p))
}

/// Whether the closed prisms share a point, decided exactly (Nathan's
/// strategy, steps 1–3).
pub fn overlaps<S: Scalar>(a: &Prism<S>, b: &Prism<S>) -> bool {
    z_overlap(a, b) && !circles_disjoint(a, b) && plans_meet(&a.base, &b.base)
}

/// Which common plan-view point the witness rule picks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum PlanPoint {
    /// Vertex i of a (in b).
    A(usize),
    /// Vertex j of b (in a).
    B(usize),
    /// Edge i of a crosses edge j of b (not parallel).
    Cross(usize, usize),
    /// Edges i of a and j of b are collinear and overlap; end point k of
    /// (a_i, a_i+1, b_j, b_j+1) lies on both.
    End(usize, usize, usize),
}

/// The witness rule, decided exactly on any scalar: the first vertex of a in
/// b, the first of b in a, then the first meeting pair of edges (a's edge
/// order, then b's): their crossing point, or for collinear edges the first
/// of the four end points on both.
pub(crate) fn plan_witness_choice<S: Scalar>(
    a: &[Vec2<S>; 4],
    b: &[Vec2<S>; 4],
) -> Option<PlanPoint> {
    if let Some(i) = a.iter().position(|p| in_quad(b, p)) {
        return Some(PlanPoint::A(i));
    }
    if let Some(j) = b.iter().position(|p| in_quad(a, p)) {
        return Some(PlanPoint::B(j));
    }
    for i in 0..4 {
        let (p, q) = (&a[i], &a[(i + 1) % 4]);
        for j in 0..4 {
            let (r, s) = (&b[j], &b[(j + 1) % 4]);
            if !segments_meet(p, q, r, s) {
                continue;
            }
            // Meeting segments are parallel (u × v = 0, the crossing has no
            // denominator) exactly when r and s are both on line pq.
            if orient2d(p, q, r) == Sign::Zero && orient2d(p, q, s) == Sign::Zero {
                for (k, x) in [p, q, r, s].into_iter().enumerate() {
                    if on_segment(p, q, x) && on_segment(r, s, x) {
                        return Some(PlanPoint::End(i, j, k));
                    }
                }
                continue;
            }
            return Some(PlanPoint::Cross(i, j));
        }
    }
    None
}

/// A common plan-view point, exact, or `None`.
fn plan_witness(a: &[Vec2<Q>; 4], b: &[Vec2<Q>; 4]) -> Option<Vec2<Q>> {
    Some(match plan_witness_choice(a, b)? {
        PlanPoint::A(i) => a[i].clone(),
        PlanPoint::B(j) => b[j].clone(),
        PlanPoint::End(i, j, k) => [&a[i], &a[(i + 1) % 4], &b[j], &b[(j + 1) % 4]][k].clone(),
        PlanPoint::Cross(i, j) => {
            let (p, q) = (&a[i], &a[(i + 1) % 4]);
            let (r, s) = (&b[j], &b[(j + 1) % 4]);
            let (u, v) = (q.sub(p), s.sub(r));
            let t = r.sub(p).cross(&v) / u.cross(&v);
            Vec2::new(&p.x + &u.x * &t, &p.y + &u.y * &t)
        }
    })
}

/// An outward edge normal of either quad that separates the plan views, exact.
fn plan_axis(a: &[Vec2<Q>; 4], b: &[Vec2<Q>; 4]) -> Option<Vec2<Q>> {
    let ext = |quad: &[Vec2<Q>; 4], n: &Vec2<Q>| {
        let vals: Vec<Q> = quad.iter().map(|p| p.dot(n)).collect();
        (
            vals.iter().min().cloned().expect("four"),
            vals.iter().max().cloned().expect("four"),
        )
    };
    for quad in [a, b] {
        for i in 0..4 {
            let e = quad[(i + 1) % 4].sub(&quad[i]);
            let n = Vec2::new(e.y.clone(), -e.x.clone());
            let ((amin, amax), (bmin, bmax)) = (ext(a, &n), ext(b, &n));
            if amax < bmin || bmax < amin {
                return Some(n);
            }
        }
    }
    None
}

fn lift(p: &Vec2<Q>, z: &Q) -> Vec3<Q> {
    Vec3::new(p.x.clone(), p.y.clone(), z.clone())
}

/// Prism–prism intersect with a certificate: a common point, or the axis
/// (0, 0, ±1) for a z gap, or a plan-view edge normal (x, y, 0).
pub fn intersect<S: Scalar>(a: &Prism<S>, b: &Prism<S>) -> Intersection<S> {
    let (ra, rb) = (to_rational_prism(a), to_rational_prism(b));
    let round = |v: Vec3<Q>| Vec3::<S>::from_rational(&v);
    if !z_overlap(a, b) {
        return Intersection::Separated {
            axis: round(Vec3::new(
                <Q as Zero>::zero(),
                <Q as Zero>::zero(),
                <Q as One>::one(),
            )),
        };
    }
    if overlaps(a, b) {
        let z = if ra.zmin > rb.zmin {
            &ra.zmin
        } else {
            &rb.zmin
        };
        let w = plan_witness(&ra.base, &rb.base).expect("plan views meet");
        return Intersection::Overlap {
            witness: round(lift(&w, z)),
        };
    }
    let n = plan_axis(&ra.base, &rb.base)
        .expect("disjoint convex polygons have a separating edge normal");
    Intersection::Separated {
        axis: round(Vec3::new(n.x, n.y, <Q as Zero>::zero())),
    }
}

/// The closest pair of a point and a closed segment (2-D, exact).
fn point_segment(x: &Vec2<Q>, p: &Vec2<Q>, q: &Vec2<Q>) -> Vec2<Q> {
    let u = q.sub(p);
    let t = x.sub(p).dot(&u);
    let uu = u.dot(&u);
    if !t.is_positive() {
        p.clone()
    } else if t >= uu {
        q.clone()
    } else {
        let t = t / uu;
        Vec2::new(&p.x + &u.x * &t, &p.y + &u.y * &t)
    }
}

/// The exact closest pair of the plan views (a point of a, a point of b).
fn plan_closest(a: &[Vec2<Q>; 4], b: &[Vec2<Q>; 4]) -> (Vec2<Q>, Vec2<Q>) {
    if let Some(w) = plan_witness(a, b) {
        return (w.clone(), w);
    }
    let mut best: Option<(Q, Vec2<Q>, Vec2<Q>)> = None;
    let mut offer = |pa: Vec2<Q>, pb: Vec2<Q>| {
        let d = pa.sub(&pb);
        let d2 = d.dot(&d);
        if best.as_ref().is_none_or(|(x, _, _)| d2 < *x) {
            best = Some((d2, pa, pb));
        }
    };
    for x in a {
        for j in 0..4 {
            offer(x.clone(), point_segment(x, &b[j], &b[(j + 1) % 4]));
        }
    }
    for x in b {
        for j in 0..4 {
            offer(point_segment(x, &a[j], &a[(j + 1) % 4]), x.clone());
        }
    }
    let (_, pa, pb) = best.expect("sixteen candidates");
    (pa, pb)
}

/// Exact prism–prism distance with closest points (rounded for floats):
/// `d² = d_plan² + gap_z²`.
pub fn distance<S: Scalar>(a: &Prism<S>, b: &Prism<S>) -> Closest<S> {
    let (ra, rb) = (to_rational_prism(a), to_rational_prism(b));
    let (pa, pb) = plan_closest(&ra.base, &rb.base);
    let (za, zb) = if ra.zmax < rb.zmin {
        (ra.zmax.clone(), rb.zmin.clone())
    } else if rb.zmax < ra.zmin {
        (ra.zmin.clone(), rb.zmax.clone())
    } else {
        let z = if ra.zmin > rb.zmin {
            &ra.zmin
        } else {
            &rb.zmin
        };
        (z.clone(), z.clone())
    };
    let (qa, qb) = (lift(&pa, &za), lift(&pb, &zb));
    let d2 = qa.sub(&qb).norm_squared();
    Closest {
        distance_squared: S::from_rational(&d2),
        a: Vec3::from_rational(&qa),
        b: Vec3::from_rational(&qb),
    }
}
