//! The generic exact convex-polytope path: `intersect` and `distance` for every
//! pair of shape kinds, and the independent cross-check of the specialised paths.
//!
//! Every shape of the crate is a convex polytope given by its vertices, edges and
//! faces ([`Polytope`]). All arithmetic here is on `BigRational`: float inputs
//! are converted exactly first, so every decision is exact and every construction
//! is exact before it is rounded back to the caller's scalar.
//!
//! **Intersect** runs three stages:
//!
//! 1. *Separating axes*: the face normals of both shapes, the cross products of
//!    their edge directions, and for flat shapes (a triangle, a flat prism) the
//!    in-plane edge normals `n × e`. An axis L separates when
//!    `max over A of L·p < min over B of L·q` (or the reverse); a zero axis
//!    separates nothing and is skipped.
//! 2. *Witness search*: a vertex of one shape in the other; an edge of one
//!    crossing a face plane of the other at a point of that shape; two coplanar
//!    edges crossing. If A ∩ B is not empty, one of its extreme points is found
//!    this way: at an extreme point v, with v in the relative interiors of faces
//!    F_A and F_B, aff F_A ∩ aff F_B = {v}, which leaves exactly the dimension
//!    pairs (0, ·), (·, 0), (1, 2), (2, 1) and (1, 1).
//! 3. If neither stage decides (only possible for degenerate triangles, whose
//!    candidate axes are incomplete), the closest pair decides: the vector
//!    between the closest points of disjoint convex sets separates them.
//!
//! **Distance** enumerates the feature pairs that contain a closest pair of two
//! disjoint polytopes — vertex–vertex, vertex–edge, vertex–face and edge–edge —
//! each solved exactly; the minimum is the distance. (A closest pair with p in the
//! relative interior of a face of dimension dA and q of dimension dB can be slid
//! along a common direction of both faces until dA + dB ≤ 2.)
//!
//! ```
//! use exact_collision::query::polytope;
//! use exact_collision::{Obb, Shape, Triangle, Vec3};
//! let v = |x: f64, y: f64, z: f64| Vec3::new(x, y, z);
//! let bx = Shape::Box(Obb::new(v(0., 0., 0.), [v(1., 0., 0.), v(0., 1., 0.), v(0., 0., 1.)]).unwrap());
//! let tri = Shape::Triangle(Triangle::new([v(2., 0., 0.), v(3., 0., 0.), v(2., 1., 0.)]));
//! assert!(!polytope::intersect(&bx, &tri).intersects());
//! assert_eq!(polytope::distance(&bx, &tri).distance_squared, 1.0);
//! ```

use super::{Closest, Intersection};
use crate::ring::Ring;
use crate::scalar::Scalar;
use crate::shape::{Obb, Prism, Shape, Triangle};
use crate::vector::Vec3;
use num_rational::BigRational;
use num_traits::{One, Signed, Zero};

type Q = BigRational;

/// A face: a plane through `point` with normal `normal` (orientation unspecified).
#[derive(Clone, Debug)]
pub struct Face {
    /// A normal of the face's plane (not normalised).
    pub normal: Vec3<Q>,
    /// A point of the face.
    pub point: Vec3<Q>,
}

/// A shape as an exact convex polytope: vertices, edges, faces.
#[derive(Clone, Debug)]
pub struct Polytope {
    /// The shape itself (for exact membership tests).
    pub shape: Shape<Q>,
    /// Distinct vertices.
    pub vertices: Vec<Vec3<Q>>,
    /// Edges as index pairs into `vertices` (nonzero length).
    pub edges: Vec<(usize, usize)>,
    /// Two-dimensional faces.
    pub faces: Vec<Face>,
    /// Distinct edge directions (up to sign; for the edge×edge axes).
    pub directions: Vec<Vec3<Q>>,
    /// The plane normal of a flat (two-dimensional) shape.
    pub flat: Option<Vec3<Q>>,
}

fn is_zero(v: &Vec3<Q>) -> bool {
    v.x.is_zero() && v.y.is_zero() && v.z.is_zero()
}

fn parallel(u: &Vec3<Q>, v: &Vec3<Q>) -> bool {
    is_zero(&u.cross(v))
}

impl Polytope {
    /// The polytope of a shape (a cube becomes its box), converted exactly.
    pub fn new<S: Scalar>(s: &Shape<S>) -> Polytope {
        match s {
            Shape::Triangle(t) => {
                Self::triangle(&Triangle::new(t.v.clone().map(|p| p.to_rational())))
            }
            Shape::Box(b) => Self::obb(&to_rational_obb(b)),
            Shape::Cube(c) => Self::obb(&to_rational_obb(c.obb())),
            Shape::Prism(p) => Self::prism(&to_rational_prism(p)),
        }
    }

    fn finish(
        shape: Shape<Q>,
        vertices: Vec<Vec3<Q>>,
        edges: Vec<(usize, usize)>,
        faces: Vec<Face>,
        flat: Option<Vec3<Q>>,
    ) -> Polytope {
        let mut directions: Vec<Vec3<Q>> = Vec::new();
        for &(i, j) in &edges {
            let d = vertices[j].sub(&vertices[i]);
            if !directions.iter().any(|e| parallel(e, &d)) {
                directions.push(d);
            }
        }
        Polytope {
            shape,
            vertices,
            edges,
            faces,
            directions,
            flat,
        }
    }

    fn triangle(t: &Triangle<Q>) -> Polytope {
        let mut vertices: Vec<Vec3<Q>> = Vec::new();
        for p in &t.v {
            if !vertices.contains(p) {
                vertices.push(p.clone());
            }
        }
        let shape = Shape::Triangle(t.clone());
        let n = vertices.len();
        let mut edges = Vec::new();
        for i in 0..n {
            for j in i + 1..n {
                edges.push((i, j));
            }
        }
        if n == 3 {
            let normal = vertices[1]
                .sub(&vertices[0])
                .cross(&vertices[2].sub(&vertices[0]));
            if !is_zero(&normal) {
                let face = Face {
                    normal: normal.clone(),
                    point: vertices[0].clone(),
                };
                return Self::finish(shape, vertices, edges, vec![face], Some(normal));
            }
        }
        // Degenerate: a segment or a point; no face.
        Self::finish(shape, vertices, edges, Vec::new(), None)
    }

    fn obb(b: &Obb<Q>) -> Polytope {
        let vertices: Vec<Vec3<Q>> = b.vertices().to_vec();
        let mut edges = Vec::new();
        for k in 0..3 {
            for i in 0..8usize {
                if i >> k & 1 == 0 {
                    edges.push((i, i | 1 << k));
                }
            }
        }
        let h = &b.half_axes;
        let mut faces = Vec::new();
        for k in 0..3 {
            let normal = h[(k + 1) % 3].cross(&h[(k + 2) % 3]);
            faces.push(Face {
                normal: normal.clone(),
                point: b.center.add(&h[k]),
            });
            faces.push(Face {
                normal,
                point: b.center.sub(&h[k]),
            });
        }
        Self::finish(Shape::Box(b.clone()), vertices, edges, faces, None)
    }

    fn prism(p: &Prism<Q>) -> Polytope {
        let shape = Shape::Prism(p.clone());
        let up = Vec3::new(<Q as Zero>::zero(), <Q as Zero>::zero(), <Q as One>::one());
        let side = |i: usize| {
            let (a, b) = (&p.base[i], &p.base[(i + 1) % 4]);
            Face {
                normal: Vec3::new(b.y.sub_ref(&a.y), a.x.sub_ref(&b.x), <Q as Zero>::zero()),
                point: Vec3::new(a.x.clone(), a.y.clone(), p.zmin.clone()),
            }
        };
        let all = p.vertices().to_vec();
        if p.zmin == p.zmax {
            let vertices = all[..4].to_vec();
            let edges = (0..4).map(|i| (i, (i + 1) % 4)).collect();
            let face = Face {
                normal: up.clone(),
                point: vertices[0].clone(),
            };
            return Self::finish(shape, vertices, edges, vec![face], Some(up));
        }
        let mut edges: Vec<(usize, usize)> = (0..4).map(|i| (i, (i + 1) % 4)).collect();
        edges.extend((0..4).map(|i| (4 + i, 4 + (i + 1) % 4)));
        edges.extend((0..4).map(|i| (i, i + 4)));
        let mut faces: Vec<Face> = (0..4).map(side).collect();
        faces.push(Face {
            normal: up.clone(),
            point: all[0].clone(),
        });
        faces.push(Face {
            normal: up,
            point: all[4].clone(),
        });
        Self::finish(shape, all, edges, faces, None)
    }

    /// min and max of `l·p` over the vertices.
    pub fn extent(&self, l: &Vec3<Q>) -> (Q, Q) {
        let mut it = self.vertices.iter().map(|p| p.dot(l));
        let first = it.next().expect("a polytope has a vertex");
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

    /// The candidate separating axes of this shape alone: face normals, and
    /// for a flat shape its in-plane edge normals.
    fn own_axes(&self) -> Vec<Vec3<Q>> {
        let mut axes: Vec<Vec3<Q>> = self.faces.iter().map(|f| f.normal.clone()).collect();
        if let Some(n) = &self.flat {
            axes.extend(self.directions.iter().map(|d| n.cross(d)));
        }
        axes
    }
}

pub(crate) fn to_rational_obb<S: Scalar>(b: &Obb<S>) -> Obb<Q> {
    Obb {
        center: b.center.to_rational(),
        half_axes: b.half_axes.clone().map(|h| h.to_rational()),
    }
}

pub(crate) fn to_rational_prism<S: Scalar>(p: &Prism<S>) -> Prism<Q> {
    Prism {
        base: p.base.clone().map(|q| q.to_rational()),
        zmin: p.zmin.to_rational(),
        zmax: p.zmax.to_rational(),
    }
}

/// Whether `l` strictly separates a and b (in either order).
pub fn separates(a: &Polytope, b: &Polytope, l: &Vec3<Q>) -> bool {
    if is_zero(l) {
        return false;
    }
    let (amin, amax) = a.extent(l);
    let (bmin, bmax) = b.extent(l);
    amax < bmin || bmax < amin
}

/// A separating axis from the candidate set, if one separates.
pub fn separating_axis(a: &Polytope, b: &Polytope) -> Option<Vec3<Q>> {
    let mut axes = a.own_axes();
    axes.extend(b.own_axes());
    for u in &a.directions {
        for v in &b.directions {
            axes.push(u.cross(v));
        }
    }
    axes.into_iter().find(|l| separates(a, b, l))
}

/// A common point of a and b, if they intersect (complete: see the module docs).
pub fn witness(a: &Polytope, b: &Polytope) -> Option<Vec3<Q>> {
    for (p, q) in [(a, b), (b, a)] {
        if let Some(v) = p.vertices.iter().find(|v| q.shape.contains(v)) {
            return Some(v.clone());
        }
    }
    for (p, q) in [(a, b), (b, a)] {
        for &(i, j) in &p.edges {
            let (s, e) = (&p.vertices[i], &p.vertices[j]);
            for f in &q.faces {
                let ds = f.normal.dot(&s.sub(&f.point));
                let de = f.normal.dot(&e.sub(&f.point));
                if ds.is_zero() && de.is_zero() {
                    continue; // coplanar: the edge–edge stage covers it
                }
                if ds.is_positive() == de.is_positive() && !ds.is_zero() && !de.is_zero() {
                    continue; // both ends strictly on one side
                }
                let t = &ds / (&ds - &de);
                let x = s.add(&e.sub(s).scale(&t));
                if q.shape.contains(&x) {
                    return Some(x);
                }
            }
        }
    }
    for &(i, j) in &a.edges {
        let (p, u) = (&a.vertices[i], a.vertices[j].sub(&a.vertices[i]));
        for &(k, m) in &b.edges {
            let (r, v) = (&b.vertices[k], b.vertices[m].sub(&b.vertices[k]));
            let n = u.cross(&v);
            if is_zero(&n) {
                continue; // parallel: a shared point is then an end point
            }
            let w = r.sub(p);
            if !w.dot(&n).is_zero() {
                continue; // skew lines
            }
            let nn = n.norm_squared();
            let s = w.cross(&v).dot(&n) / &nn;
            let t = w.cross(&u).dot(&n) / &nn;
            let unit = |x: &Q| !x.is_negative() && *x <= <Q as One>::one();
            if unit(&s) && unit(&t) {
                return Some(p.add(&u.scale(&s)));
            }
        }
    }
    None
}

struct Best {
    d2: Option<Q>,
    a: Vec3<Q>,
    b: Vec3<Q>,
}

impl Best {
    fn offer(&mut self, a: Vec3<Q>, b: Vec3<Q>) {
        let d2 = a.sub(&b).norm_squared();
        if self.d2.as_ref().is_none_or(|x| d2 < *x) {
            *self = Best { d2: Some(d2), a, b };
        }
    }
    fn beats(&self, d2: &Q) -> bool {
        self.d2.as_ref().is_some_and(|x| x <= d2)
    }
}

/// The closest pair of two polytopes, assumed disjoint or touching (an
/// overlapping pair gives a pair of boundary points, not distance 0).
pub fn closest_pair(a: &Polytope, b: &Polytope) -> Closest<Q> {
    let mut best = Best {
        d2: None,
        a: a.vertices[0].clone(),
        b: b.vertices[0].clone(),
    };
    for p in &a.vertices {
        for q in &b.vertices {
            best.offer(p.clone(), q.clone());
        }
    }
    // (order, p, q): order says whether p is in shape a.
    for (swap, p, q) in [(false, a, b), (true, b, a)] {
        let offer = |best: &mut Best, x: Vec3<Q>, y: Vec3<Q>| {
            if swap {
                best.offer(y, x)
            } else {
                best.offer(x, y)
            }
        };
        for v in &p.vertices {
            for &(i, j) in &q.edges {
                let (s, u) = (&q.vertices[i], q.vertices[j].sub(&q.vertices[i]));
                let t = v.sub(s).dot(&u);
                let uu = u.norm_squared();
                if t.is_positive() && t < uu {
                    let y = s.add(&u.scale(&(t / uu)));
                    offer(&mut best, v.clone(), y);
                }
            }
            for f in &q.faces {
                let h = f.normal.dot(&v.sub(&f.point));
                let nn = f.normal.norm_squared();
                let plane_d2 = h.square() / &nn;
                if best.beats(&plane_d2) {
                    continue;
                }
                let y = v.sub(&f.normal.scale(&(h / nn)));
                if q.shape.contains(&y) {
                    offer(&mut best, v.clone(), y);
                }
            }
        }
    }
    for &(i, j) in &a.edges {
        let (p, u) = (&a.vertices[i], a.vertices[j].sub(&a.vertices[i]));
        for &(k, m) in &b.edges {
            let (r, v) = (&b.vertices[k], b.vertices[m].sub(&b.vertices[k]));
            let (uu, uv, vv) = (u.norm_squared(), u.dot(&v), v.norm_squared());
            let den = uu.mul_ref(&vv).sub_ref(&uv.square());
            if den.is_zero() {
                continue; // parallel: vertex–edge pairs cover it
            }
            let w = p.sub(r);
            let (d, e) = (u.dot(&w), v.dot(&w));
            let s = uv.mul_ref(&e).sub_ref(&vv.mul_ref(&d)) / &den;
            let t = uu.mul_ref(&e).sub_ref(&uv.mul_ref(&d)) / &den;
            let unit = |x: &Q| !x.is_negative() && *x <= <Q as One>::one();
            if unit(&s) && unit(&t) {
                best.offer(p.add(&u.scale(&s)), r.add(&v.scale(&t)));
            }
        }
    }
    Closest {
        distance_squared: best.d2.expect("at least one vertex pair"),
        a: best.a,
        b: best.b,
    }
}

/// Exact intersect of two polytopes, with a certificate.
pub fn intersect_exact(a: &Polytope, b: &Polytope) -> Intersection<Q> {
    if let Some(axis) = separating_axis(a, b) {
        return Intersection::Separated { axis };
    }
    if let Some(witness) = witness(a, b) {
        return Intersection::Overlap { witness };
    }
    let c = closest_pair(a, b);
    if c.distance_squared.is_zero() {
        Intersection::Overlap { witness: c.a }
    } else {
        Intersection::Separated {
            axis: c.b.sub(&c.a),
        }
    }
}

/// Exact distance of two polytopes, with a closest pair.
pub fn distance_exact(a: &Polytope, b: &Polytope) -> Closest<Q> {
    if separating_axis(a, b).is_none() {
        if let Some(w) = witness(a, b) {
            return Closest {
                distance_squared: <Q as Zero>::zero(),
                a: w.clone(),
                b: w,
            };
        }
    }
    closest_pair(a, b)
}

/// `intersect` for any pair of shapes by the generic path: decided exactly;
/// the certificate is exact for `BigRational` and rounded for floats.
pub fn intersect<S: Scalar>(a: &Shape<S>, b: &Shape<S>) -> Intersection<S> {
    round_intersection(intersect_exact(&Polytope::new(a), &Polytope::new(b)))
}

/// `distance` for any pair of shapes by the generic path: exact for
/// `BigRational`, the exact answer rounded to nearest for floats.
pub fn distance<S: Scalar>(a: &Shape<S>, b: &Shape<S>) -> Closest<S> {
    round_closest(distance_exact(&Polytope::new(a), &Polytope::new(b)))
}

/// Round an exact intersect answer to `S` (identity for `BigRational`).
pub fn round_intersection<S: Scalar>(i: Intersection<Q>) -> Intersection<S> {
    match i {
        Intersection::Overlap { witness } => Intersection::Overlap {
            witness: Vec3::from_rational(&witness),
        },
        Intersection::Separated { axis } => Intersection::Separated {
            axis: Vec3::from_rational(&axis),
        },
    }
}

/// Round an exact distance answer to `S` (identity for `BigRational`).
pub fn round_closest<S: Scalar>(c: Closest<Q>) -> Closest<S> {
    Closest {
        distance_squared: S::from_rational(&c.distance_squared),
        a: Vec3::from_rational(&c.a),
        b: Vec3::from_rational(&c.b),
    }
}
