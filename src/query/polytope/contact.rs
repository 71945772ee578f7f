//! Exact contact of two convex polytopes: the penetration depth δ, every
//! optimal normal, and the contact region (docs/contact.md).
//!
//! For meeting shapes the penetration depth is the distance from the origin
//! to the boundary of the Minkowski difference `D = A − B` (the shortest
//! translation of b that leaves the interiors disjoint). The origin lies in
//! `D`, so that distance is the least support value `h_D(u)` over unit
//! directions u, and the least is attained at a facet normal of `D`. The
//! facet normals of `D` are among the face normals of a and b and the cross
//! products of an edge direction of a with one of b: over that finite
//! candidate set,
//!
//! ```text
//! δ² = min over candidates n, both signs, of  overlap(n)² / |n|²,
//! overlap(n) = max over a of n·x − min over b of n·y,
//! ```
//!
//! all exact rationals. Translating b by `t = overlap(n)·n/|n|²` (rational,
//! though δ itself is in general irrational) makes the shapes touch; the
//! contact region is `a`'s face-set supporting n intersected with the moved
//! face-set of b supporting −n, computed in the common plane
//! `n·x = max over a of n·x` (a point, a segment or a convex polygon).
//!
//! A Minkowski difference of dimension below three (two flat shapes in one
//! plane, two segments, points) has no interior: δ = 0.
//!
//! ```
//! use exact_collision::query::polytope::{contact, Polytope};
//! use exact_collision::{Obb, Shape, Vec3};
//! use num_rational::BigRational;
//! let v = |x: f64, y: f64, z: f64| Vec3::new(x, y, z);
//! let unit = |c| Shape::Box(Obb::new(c, [v(0.5, 0., 0.), v(0., 0.5, 0.), v(0., 0., 0.5)]).unwrap());
//! // b overlaps a by 1/4 along x.
//! let (a, b) = (Polytope::new(&unit(v(0., 0., 0.))), Polytope::new(&unit(v(0.75, 0., 0.))));
//! let p = contact::penetration(&a, &b).unwrap();
//! assert_eq!(p.depth_squared, BigRational::new(1.into(), 16.into()));
//! assert_eq!(p.normals.len(), 1); // (1, 0, 0): b moves on along +x
//! ```

use super::exhaustive::{intersect_exact, Polytope};
use crate::query::triangle_triangle::Contact as Region;
use crate::query::QueryError;
use crate::vector::Vec3;
use num_bigint::BigInt;
use num_integer::Integer;
use num_rational::BigRational;
use num_traits::{One, Signed, Zero};
use std::cmp::Ordering;

type Q = BigRational;

/// What the contact of two convex polytopes needs of each: its vertices, the
/// normals of its two-dimensional faces (a flat shape's plane normal) and its
/// edge directions. [`Polytope`] has them; so has a convex hull
/// ([`HullFeatures`]).
pub trait Features {
    /// The vertices (at least one).
    fn vertices(&self) -> &[Vec3<Q>];
    /// The normals of the two-dimensional faces (orientation unspecified).
    fn face_normals(&self) -> Vec<&Vec3<Q>>;
    /// The edge directions (up to sign).
    fn directions(&self) -> &[Vec3<Q>];
    /// min and max of `l·p` over the vertices.
    fn extent(&self, l: &Vec3<Q>) -> (Q, Q) {
        let mut it = self.vertices().iter().map(|p| p.dot(l));
        let first = it.next().unwrap_or_else(Q::zero);
        it.fold((first.clone(), first), |(lo, hi), v| {
            if v < lo {
                (v, hi)
            } else if v > hi {
                (lo, v)
            } else {
                (lo, hi)
            }
        })
    }
}

impl Features for Polytope {
    fn vertices(&self) -> &[Vec3<Q>] {
        &self.vertices
    }
    fn face_normals(&self) -> Vec<&Vec3<Q>> {
        self.faces.iter().map(|f| &f.normal).collect()
    }
    fn directions(&self) -> &[Vec3<Q>] {
        &self.directions
    }
}

/// The features of a convex hull (a point, segment, flat polygon or
/// polytope), exact.
#[derive(Clone, Debug)]
pub struct HullFeatures {
    vertices: Vec<Vec3<Q>>,
    normals: Vec<Vec3<Q>>,
    directions: Vec<Vec3<Q>>,
}

impl HullFeatures {
    /// The features of `h`: its vertices, its face normals (a flat hull's
    /// plane normal) and the directions of its edges.
    pub fn new<S: crate::num::scalar::Scalar>(h: &crate::hull::ConvexHull<S>) -> HullFeatures {
        let vertices: Vec<Vec3<Q>> = h.vertex_points().iter().map(|p| p.to_rational()).collect();
        let int = |n: &Vec3<BigInt>| n.map(|c| Q::from_integer(c.clone()));
        let mut normals: Vec<Vec3<Q>> = h.face_planes().map(|pl| int(&pl.normal)).collect();
        if let Some(pl) = h.plane() {
            normals.push(int(&pl.normal));
        }
        // Edges: around each face (input indices mapped to vertex positions),
        // or around the flat polygon, or the segment.
        let pos = |i: usize| h.vertices().iter().position(|&v| v == i);
        let mut loops: Vec<Vec<usize>> = h
            .faces()
            .iter()
            .map(|f| f.vertices.iter().filter_map(|&i| pos(i)).collect())
            .collect();
        if h.dim() < 3 {
            loops.push((0..vertices.len()).collect());
        }
        let mut directions: Vec<Vec3<Q>> = Vec::new();
        for l in &loops {
            for k in 0..l.len() {
                let d = vertices[l[(k + 1) % l.len()]].sub(&vertices[l[k]]);
                if !is_zero(&d) && !directions.iter().any(|e| is_zero(&e.cross(&d))) {
                    directions.push(d);
                }
            }
        }
        HullFeatures {
            vertices,
            normals,
            directions,
        }
    }
}

impl Features for HullFeatures {
    fn vertices(&self) -> &[Vec3<Q>] {
        &self.vertices
    }
    fn face_normals(&self) -> Vec<&Vec3<Q>> {
        self.normals.iter().collect()
    }
    fn directions(&self) -> &[Vec3<Q>] {
        &self.directions
    }
}

/// The contact of two meeting polytopes, exactly.
#[derive(Clone, Debug, PartialEq)]
pub struct Penetration {
    /// δ², in lowest terms.
    pub depth_squared: Q,
    /// Every optimal direction, as primitive integer vectors pointing from a
    /// to b (moving b by δ along any of them makes the shapes touch); the
    /// first is the reported normal.
    pub normals: Vec<Vec3<Q>>,
    /// The translation of b by δ along the reported normal:
    /// `overlap·n/|n|²`, exact (|translation|² = δ²).
    pub translation: Vec3<Q>,
    /// The contact region for the reported normal: where a and b touch once b
    /// is moved by `translation`.
    pub region: Region<Q>,
}

impl Penetration {
    /// The reported normal (the first of [`Penetration::normals`]).
    pub fn normal(&self) -> &Vec3<Q> {
        &self.normals[0]
    }
}

fn is_zero(v: &Vec3<Q>) -> bool {
    v.x.is_zero() && v.y.is_zero() && v.z.is_zero()
}

/// The primitive integer vector with the direction of `v` (nonzero).
pub fn primitive(v: &Vec3<Q>) -> Vec3<Q> {
    let c = [&v.x, &v.y, &v.z];
    let l = c.iter().fold(BigInt::one(), |l, x| l.lcm(x.denom()));
    let ints: Vec<BigInt> = c.iter().map(|x| x.numer() * (&l / x.denom())).collect();
    let g = ints.iter().fold(BigInt::zero(), |g, x| g.gcd(x));
    let g = if g.is_zero() { BigInt::one() } else { g };
    let q = |x: &BigInt| Q::from_integer(x / &g);
    Vec3::new(q(&ints[0]), q(&ints[1]), q(&ints[2]))
}

/// `v` or `−v`, whichever has its first nonzero component positive.
fn canonical(v: Vec3<Q>) -> Vec3<Q> {
    let first = [&v.x, &v.y, &v.z]
        .into_iter()
        .find(|x| !x.is_zero())
        .cloned()
        .unwrap_or_else(Q::zero);
    if first.is_negative() {
        v.neg()
    } else {
        v
    }
}

/// The candidate directions, up to sign, primitive and without repeats: the
/// face normals of a, then of b, then the edge × edge cross products.
pub fn candidates(a: &impl Features, b: &impl Features) -> Vec<Vec3<Q>> {
    let mut out: Vec<Vec3<Q>> = Vec::new();
    let mut push = |n: Vec3<Q>| {
        if !is_zero(&n) {
            let n = canonical(primitive(&n));
            if !out.contains(&n) {
                out.push(n);
            }
        }
    };
    for f in a.face_normals().into_iter().chain(b.face_normals()) {
        push(f.clone());
    }
    for u in a.directions() {
        for v in b.directions() {
            push(u.cross(v));
        }
    }
    out
}

/// The dimension of the Minkowski difference `a − b`: the rank of the edge
/// directions of both.
pub fn difference_dimension(a: &impl Features, b: &impl Features) -> usize {
    let dirs: Vec<&Vec3<Q>> = a.directions().iter().chain(b.directions()).collect();
    let Some(e1) = dirs.first() else { return 0 };
    let Some(e2) = dirs.iter().find(|d| !is_zero(&e1.cross(d))) else {
        return 1;
    };
    let n = e1.cross(e2);
    if dirs.iter().any(|d| !n.dot(d).is_zero()) {
        3
    } else {
        2
    }
}

/// A nonzero direction orthogonal to every edge direction of a and b (for a
/// Minkowski difference of dimension below three).
fn orthogonal(a: &impl Features, b: &impl Features) -> Vec3<Q> {
    let dirs: Vec<&Vec3<Q>> = a.directions().iter().chain(b.directions()).collect();
    let axis = |k: usize| {
        let c = |i: usize| if i == k { Q::one() } else { Q::zero() };
        Vec3::new(c(0), c(1), c(2))
    };
    let Some(e1) = dirs.first() else {
        return axis(2);
    };
    if let Some(e2) = dirs.iter().find(|d| !is_zero(&e1.cross(d))) {
        return e1.cross(e2);
    }
    (0..3)
        .map(|k| e1.cross(&axis(k)))
        .find(|n| !is_zero(n))
        .unwrap_or_else(|| axis(2))
}

/// overlap(n) = max over a of n·x − min over b of n·y, and those two values.
fn overlap(a: &impl Features, b: &impl Features, n: &Vec3<Q>) -> (Q, Q, Q) {
    let (_, amax) = a.extent(n);
    let (bmin, _) = b.extent(n);
    (&amax - &bmin, amax, bmin)
}

/// The exact contact of two polytopes that meet (an error when they are apart).
pub fn penetration(a: &Polytope, b: &Polytope) -> Result<Penetration, QueryError> {
    if !intersect_exact(a, b).intersects() {
        return Err(QueryError::Unsupported(
            "contact: the shapes are apart (no penetration)".into(),
        ));
    }
    penetration_of_meeting(a, b)
}

/// [`penetration`] for shapes already known to meet.
pub(crate) fn penetration_of_meeting(
    a: &impl Features,
    b: &impl Features,
) -> Result<Penetration, QueryError> {
    let mut best: Option<Q> = None;
    let mut normals: Vec<Vec3<Q>> = Vec::new();
    let mut offer = |n: Vec3<Q>, value: Q| match best.as_ref().map(|b| value.cmp(b)) {
        Some(Ordering::Greater) => {}
        Some(Ordering::Equal) => {
            if !normals.contains(&n) {
                normals.push(n)
            }
        }
        _ => {
            best = Some(value);
            normals = vec![n];
        }
    };
    for n in candidates(a, b) {
        let n2 = n.norm_squared();
        for dir in [n.clone(), n.neg()] {
            let (o, _, _) = overlap(a, b, &dir);
            if o.is_negative() {
                return Err(QueryError::Unsupported(
                    "contact: the shapes meet but a candidate axis separates them".into(),
                ));
            }
            offer(dir, &o * &o / &n2);
        }
    }
    let flat = difference_dimension(a, b) < 3;
    if flat && best.as_ref().is_none_or(|b| !b.is_zero()) {
        // No interior: δ = 0; the directions orthogonal to the difference.
        let n = canonical(primitive(&orthogonal(a, b)));
        best = Some(Q::zero());
        normals = vec![n.clone(), n.neg()];
    }
    let depth_squared = best.unwrap_or_else(Q::zero);
    if normals.is_empty() {
        return Err(QueryError::Unsupported(
            "contact: no candidate direction".into(),
        ));
    }
    let n = normals[0].clone();
    let (o, amax, _) = overlap(a, b, &n);
    let translation = n.scale(&(&o / n.norm_squared()));
    let region = region(a, b, &n, &amax, &translation).ok_or_else(|| {
        QueryError::Unsupported("contact: the supporting features do not meet".into())
    })?;
    Ok(Penetration {
        depth_squared,
        normals,
        translation,
        region,
    })
}

type P2 = (Q, Q);

fn cross2(o: &P2, p: &P2, q: &P2) -> Q {
    (&p.0 - &o.0) * (&q.1 - &o.1) - (&p.1 - &o.1) * (&q.0 - &o.0)
}

/// The convex hull of points in the plane, counter-clockwise, without
/// collinear points (Andrew's monotone chain): 0, 1, 2 or ≥ 3 points.
fn hull2(mut pts: Vec<P2>) -> Vec<P2> {
    pts.sort();
    pts.dedup();
    if pts.len() < 3 {
        return pts;
    }
    let mut lower: Vec<P2> = Vec::new();
    for p in &pts {
        while lower.len() >= 2
            && cross2(&lower[lower.len() - 2], &lower[lower.len() - 1], p) <= Q::zero()
        {
            lower.pop();
        }
        lower.push(p.clone());
    }
    let mut upper: Vec<P2> = Vec::new();
    for p in pts.iter().rev() {
        while upper.len() >= 2
            && cross2(&upper[upper.len() - 2], &upper[upper.len() - 1], p) <= Q::zero()
        {
            upper.pop();
        }
        upper.push(p.clone());
    }
    lower.pop();
    upper.pop();
    lower.extend(upper);
    lower
}

/// Whether `p` lies in the convex set spanned by `h` (a hull from [`hull2`]).
fn inside2(p: &P2, h: &[P2]) -> bool {
    match h.len() {
        0 => false,
        1 => *p == h[0],
        2 => {
            cross2(&h[0], &h[1], p).is_zero() && {
                let d = (&h[1].0 - &h[0].0, &h[1].1 - &h[0].1);
                let t = (&p.0 - &h[0].0) * &d.0 + (&p.1 - &h[0].1) * &d.1;
                !t.is_negative() && t <= &d.0 * &d.0 + &d.1 * &d.1
            }
        }
        n => (0..n).all(|i| !cross2(&h[i], &h[(i + 1) % n], p).is_negative()),
    }
}

fn edges2(h: &[P2]) -> Vec<(&P2, &P2)> {
    match h.len() {
        0 | 1 => Vec::new(),
        2 => vec![(&h[0], &h[1])],
        n => (0..n).map(|i| (&h[i], &h[(i + 1) % n])).collect(),
    }
}

/// The crossing point of two segments that are not parallel, if they meet.
fn crossing2(p: (&P2, &P2), q: (&P2, &P2)) -> Option<P2> {
    let r = (&p.1 .0 - &p.0 .0, &p.1 .1 - &p.0 .1);
    let s = (&q.1 .0 - &q.0 .0, &q.1 .1 - &q.0 .1);
    let den = &r.0 * &s.1 - &r.1 * &s.0;
    if den.is_zero() {
        return None; // parallel: an overlap's ends are end points in the other
    }
    let w = (&q.0 .0 - &p.0 .0, &q.0 .1 - &p.0 .1);
    let t = (&w.0 * &s.1 - &w.1 * &s.0) / &den;
    let u = (&w.0 * &r.1 - &w.1 * &r.0) / &den;
    let unit = |x: &Q| !x.is_negative() && *x <= Q::one();
    (unit(&t) && unit(&u)).then(|| (&p.0 .0 + &t * &r.0, &p.0 .1 + &t * &r.1))
}

/// The intersection of the convex sets spanned by `p` and `q` (hulls): its
/// vertices are vertices of one inside the other and edge crossings.
fn meet2(p: &[P2], q: &[P2]) -> Vec<P2> {
    let mut pts: Vec<P2> = p.iter().filter(|x| inside2(x, q)).cloned().collect();
    pts.extend(q.iter().filter(|x| inside2(x, p)).cloned());
    for e in edges2(p) {
        for f in edges2(q) {
            pts.extend(crossing2(e, f));
        }
    }
    hull2(pts)
}

/// Where a and b touch once b is moved by `translation`, for shapes that
/// then touch with the touching plane orthogonal to `n` (pointing from a to
/// b): a's supporting feature for n met with b's moved supporting feature
/// for −n. `None` when they do not meet.
pub(crate) fn touching_region(
    a: &impl Features,
    b: &impl Features,
    n: &Vec3<Q>,
    translation: &Vec3<Q>,
) -> Option<Region<Q>> {
    let (_, amax) = a.extent(n);
    region(a, b, n, &amax, translation)
}

/// The contact region for the normal `n`: a's vertices on the plane
/// `n·x = amax`, b's vertices on its supporting plane for −n moved by
/// `translation` (onto the same plane); their hulls met in that plane.
fn region(
    a: &impl Features,
    b: &impl Features,
    n: &Vec3<Q>,
    amax: &Q,
    translation: &Vec3<Q>,
) -> Option<Region<Q>> {
    let fa: Vec<Vec3<Q>> = a
        .vertices()
        .iter()
        .filter(|x| x.dot(n) == *amax)
        .cloned()
        .collect();
    let (bmin, _) = b.extent(n);
    let fb: Vec<Vec3<Q>> = b
        .vertices()
        .iter()
        .filter(|y| y.dot(n) == bmin)
        .map(|y| y.add(translation))
        .collect();
    // Drop the coordinate k of the largest |n_k|: a bijection of the plane
    // onto a coordinate plane.
    let c = [&n.x, &n.y, &n.z];
    let k = (0..3).max_by(|&i, &j| c[i].abs().cmp(&c[j].abs()))?;
    let (i, j) = ((k + 1) % 3, (k + 2) % 3);
    let to2 = |p: &Vec3<Q>| -> P2 {
        let a = p.to_array();
        (a[i].clone(), a[j].clone())
    };
    let lift = |p: &P2| -> Vec3<Q> {
        let mut out = [Q::zero(), Q::zero(), Q::zero()];
        out[k] = (amax - c[i] * &p.0 - c[j] * &p.1) / c[k];
        out[i] = p.0.clone();
        out[j] = p.1.clone();
        let [x, y, z] = out;
        Vec3::new(x, y, z)
    };
    let ha = hull2(fa.iter().map(to2).collect());
    let hb = hull2(fb.iter().map(to2).collect());
    let m = meet2(&ha, &hb);
    Some(match m.len() {
        0 => return None,
        1 => Region::Point(lift(&m[0])),
        2 => Region::Segment(lift(&m[0]), lift(&m[1])),
        _ => Region::Polygon(m.iter().map(lift).collect()),
    })
}

/// The overlap of a and b along a direction `n` pointing from a to b:
/// `max over a of n·x − min over b of n·y`, divided by |n| — as its square
/// and sign (`(sign, overlap²/|n|²)`): the distance b must move along n to
/// touch a, negative when b is already past a along n.
pub fn overlap_along(a: &impl Features, b: &impl Features, n: &Vec3<Q>) -> (bool, Q) {
    let (o, _, _) = overlap(a, b, n);
    let v = &o * &o / n.norm_squared();
    (!o.is_negative(), v)
}
