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

use crate::num::interval::Interval;
use crate::num::ring::Ring;
use crate::num::scalar::Scalar;
use crate::query::{Closest, Intersection};
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
    let (amin, amax) = extent_unreduced(a, l);
    let (bmin, bmax) = extent_unreduced(b, l);
    frac_lt(&amax, &bmin) || frac_lt(&bmax, &amin)
}

/// A fraction n/d, d > 0, not reduced.
type Frac = (num_bigint::BigInt, num_bigint::BigInt);

/// n1/d1 < n2/d2 (d1, d2 > 0), by cross multiplication.
fn frac_lt(a: &Frac, b: &Frac) -> bool {
    &a.0 * &b.1 < &b.0 * &a.1
}

/// [`Polytope::extent`] without reducing anything: the axis scaled to
/// integers (a positive factor: the order of the projections is kept), each
/// projection one fraction over the product of the vertex's denominators, the
/// min and max chosen by cross multiplication. Reducing every product and sum
/// to lowest terms (a gcd each) was almost all the time of separating-axis
/// tests on wide exact inputs (docs/limits.md).
fn extent_unreduced(p: &Polytope, l: &Vec3<Q>) -> (Frac, Frac) {
    let (lx, ly, lz) = (l.x.denom(), l.y.denom(), l.z.denom());
    let li = [
        l.x.numer() * ly * lz,
        l.y.numer() * lx * lz,
        l.z.numer() * lx * ly,
    ];
    let proj = |v: &Vec3<Q>| -> Frac {
        let (dx, dy, dz) = (v.x.denom(), v.y.denom(), v.z.denom());
        let n = v.x.numer() * &li[0] * dy * dz
            + v.y.numer() * &li[1] * dx * dz
            + v.z.numer() * &li[2] * dx * dy;
        (n, dx * dy * dz)
    };
    let mut it = p.vertices.iter().map(proj);
    let first = it.next().expect("a polytope has a vertex");
    it.fold((first.clone(), first), |(lo, hi), v| {
        if frac_lt(&v, &lo) {
            (v, hi)
        } else if frac_lt(&hi, &v) {
            (lo, v)
        } else {
            (lo, hi)
        }
    })
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

/// The closest pair of two polytopes by the full exact enumeration of every
/// feature pair: the reference (oracle) that [`closest_pair`] must equal,
/// distance and points alike. Assumed disjoint or touching.
pub fn closest_pair_reference(a: &Polytope, b: &Polytope) -> Closest<Q> {
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

type I3 = [Interval; 3];

fn iv3(v: &Vec3<Q>) -> I3 {
    [v.x.to_interval(), v.y.to_interval(), v.z.to_interval()]
}

fn isub(a: &I3, b: &I3) -> I3 {
    std::array::from_fn(|k| a[k].sub_ref(&b[k]))
}

fn idot(a: &I3, b: &I3) -> Interval {
    a[0].mul_ref(&b[0])
        .add_ref(&a[1].mul_ref(&b[1]))
        .add_ref(&a[2].mul_ref(&b[2]))
}

fn icross(u: &I3, v: &I3) -> I3 {
    [
        u[1].mul_ref(&v[2]).sub_ref(&u[2].mul_ref(&v[1])),
        u[2].mul_ref(&v[0]).sub_ref(&u[0].mul_ref(&v[2])),
        u[0].mul_ref(&v[1]).sub_ref(&u[1].mul_ref(&v[0])),
    ]
}

/// `x²`, known to be nonnegative.
fn isq(x: &Interval) -> Interval {
    let a = x.abs_ref();
    let p = a.mul_ref(&a);
    Interval {
        lo: p.lo.max(0.0),
        hi: p.hi,
    }
}

fn inorm2(v: &I3) -> Interval {
    let s = isq(&v[0]).add_ref(&isq(&v[1])).add_ref(&isq(&v[2]));
    Interval {
        lo: s.lo.max(0.0),
        hi: s.hi,
    }
}

/// `n / d` for `n ≥ 0`, `d > 0`, rounded outward; `[0, ∞]` when `d` may be 0.
fn idiv(n: &Interval, d: &Interval) -> Interval {
    if d.lo.is_nan() || d.lo <= 0.0 {
        return Interval {
            lo: 0.0,
            hi: f64::INFINITY,
        };
    }
    let lo = (n.lo.max(0.0) / d.hi).next_down().max(0.0);
    let hi = (n.hi / d.lo).next_up();
    Interval {
        lo: if lo.is_nan() { 0.0 } else { lo },
        hi: if hi.is_nan() { f64::INFINITY } else { hi },
    }
}

/// A polytope's coordinates as outward-rounded intervals, with outward face
/// normals where the orientation is certain (solid shapes only).
struct Enclosure {
    vertices: Vec<I3>,
    faces: Vec<(I3, I3)>,
    /// Per face, the outward normal and a point, if certainly oriented.
    outward: Option<Vec<Option<(I3, I3)>>>,
}

impl Enclosure {
    fn new(p: &Polytope) -> Enclosure {
        let vertices: Vec<I3> = p.vertices.iter().map(iv3).collect();
        let faces: Vec<(I3, I3)> = p
            .faces
            .iter()
            .map(|f| (iv3(&f.normal), iv3(&f.point)))
            .collect();
        let outward = (p.flat.is_none() && !faces.is_empty()).then(|| {
            faces
                .iter()
                .map(|(n, q)| {
                    // Every vertex is on the inner side or on the plane, at
                    // least one strictly: the sum's sign is the inward one.
                    let s = vertices.iter().fold(Interval::point(0.0), |s, v| {
                        s.add_ref(&idot(n, &isub(v, q)))
                    });
                    if s.hi < 0.0 {
                        Some((*n, *q))
                    } else if s.lo > 0.0 {
                        Some((n.map(|c| c.neg_ref()), *q))
                    } else {
                        None
                    }
                })
                .collect()
        });
        Enclosure {
            vertices,
            faces,
            outward,
        }
    }
}

/// A feature pair of the enumeration, in the order of [`closest_pair_reference`].
#[derive(Clone, Copy, Debug)]
enum Pair {
    /// Vertex of a, vertex of b.
    VertexVertex(usize, usize),
    /// (swapped, vertex of p, edge of q): p = a unless swapped.
    VertexEdge(bool, usize, usize),
    /// (swapped, vertex of p, face of q).
    VertexFace(bool, usize, usize),
    /// Edge of a, edge of b.
    EdgeEdge(usize, usize),
}

/// What the interval filter knows of a pair: an enclosure of its value (when
/// it is a candidate) and whether it certainly is one.
struct Bound {
    lo: f64,
    hi: f64,
    certain: bool,
}

fn bound_vertex_edge(v: &I3, s: &I3, e: &I3) -> Option<Bound> {
    let u = isub(e, s);
    let w = isub(v, s);
    let t = idot(&w, &u);
    let uu = inorm2(&u);
    if t.hi <= 0.0 || t.lo >= uu.hi {
        return None; // certainly not 0 < t < |u|²
    }
    let d = idiv(&inorm2(&icross(&w, &u)), &uu);
    Some(Bound {
        lo: d.lo,
        hi: d.hi,
        certain: t.lo > 0.0 && t.hi < uu.lo,
    })
}

fn bound_vertex_face(v: &I3, f: usize, q: &Enclosure) -> Option<Bound> {
    let (n, pt) = &q.faces[f];
    let h = idot(n, &isub(v, pt));
    let nn = inorm2(n);
    let d = idiv(&isq(&h), &nn);
    // y = v − n·h/|n|² lies in q iff, for every other outward face (g, r),
    // |n|²·g·(v − r) − (g·n)·h ≤ 0 (multiplied through by |n|² > 0).
    let certain = q.outward.as_ref().is_some_and(|o| {
        o.iter().enumerate().all(|(k, g)| {
            k == f
                || g.as_ref().is_some_and(|(g, r)| {
                    nn.mul_ref(&idot(g, &isub(v, r)))
                        .sub_ref(&idot(g, n).mul_ref(&h))
                        .hi
                        <= 0.0
                })
        })
    });
    Some(Bound {
        lo: d.lo,
        hi: d.hi,
        certain,
    })
}

fn bound_edge_edge(p: &I3, pe: &I3, r: &I3, re: &I3) -> Option<Bound> {
    let (u, v) = (isub(pe, p), isub(re, r));
    let n = icross(&u, &v);
    if n.iter().all(|c| c.lo == 0.0 && c.hi == 0.0) {
        return None; // exactly parallel: skipped by the enumeration too
    }
    let den = inorm2(&n); // = |u|²|v|² − (u·v)² (Lagrange)
    let w = isub(p, r);
    let (uu, uv, vv) = (inorm2(&u), idot(&u, &v), inorm2(&v));
    let (d, e) = (idot(&u, &w), idot(&v, &w));
    let s = uv.mul_ref(&e).sub_ref(&vv.mul_ref(&d));
    let t = uu.mul_ref(&e).sub_ref(&uv.mul_ref(&d));
    if s.hi < 0.0 || s.lo > den.hi || t.hi < 0.0 || t.lo > den.hi {
        return None;
    }
    let dist = idiv(&isq(&idot(&w, &n)), &den);
    Some(Bound {
        lo: dist.lo,
        hi: dist.hi,
        certain: s.lo >= 0.0 && s.hi <= den.lo && t.lo >= 0.0 && t.hi <= den.lo,
    })
}

/// The exact value of a feature pair, if it is a candidate (division-free tests).
fn exact_value(a: &Polytope, b: &Polytope, pair: Pair, best: Option<&Q>) -> Option<Q> {
    let pick = |swap: bool| if swap { (b, a) } else { (a, b) };
    match pair {
        Pair::VertexVertex(i, j) => Some(a.vertices[i].sub(&b.vertices[j]).norm_squared()),
        Pair::VertexEdge(swap, vi, ei) => {
            let (p, q) = pick(swap);
            let (i, j) = q.edges[ei];
            let s = &q.vertices[i];
            let u = q.vertices[j].sub(s);
            let w = p.vertices[vi].sub(s);
            let t = w.dot(&u);
            let uu = u.norm_squared();
            (t.is_positive() && t < uu).then(|| w.cross(&u).norm_squared() / uu)
        }
        Pair::VertexFace(swap, vi, fi) => {
            let (p, q) = pick(swap);
            let (v, f) = (&p.vertices[vi], &q.faces[fi]);
            let h = f.normal.dot(&v.sub(&f.point));
            let nn = f.normal.norm_squared();
            let d2 = h.square() / &nn;
            if best.is_some_and(|x| *x <= d2) {
                return None; // cannot win: skip the containment test
            }
            let y = v.sub(&f.normal.scale(&(h / nn)));
            q.shape.contains(&y).then_some(d2)
        }
        Pair::EdgeEdge(ea, eb) => {
            let ((i, j), (k, m)) = (a.edges[ea], b.edges[eb]);
            let (p, u) = (&a.vertices[i], a.vertices[j].sub(&a.vertices[i]));
            let (r, v) = (&b.vertices[k], b.vertices[m].sub(&b.vertices[k]));
            let (uu, uv, vv) = (u.norm_squared(), u.dot(&v), v.norm_squared());
            let den = uu.mul_ref(&vv).sub_ref(&uv.square());
            if den.is_zero() {
                return None;
            }
            let w = p.sub(r);
            let (d, e) = (u.dot(&w), v.dot(&w));
            let s = uv.mul_ref(&e).sub_ref(&vv.mul_ref(&d));
            let t = uu.mul_ref(&e).sub_ref(&uv.mul_ref(&d));
            let unit = |x: &Q| !x.is_negative() && *x <= den;
            (unit(&s) && unit(&t)).then(|| w.dot(&u.cross(&v)).square() / den)
        }
    }
}

/// The closest points of a feature pair known to be a candidate, computed as
/// [`closest_pair_reference`] computes them.
fn exact_points(a: &Polytope, b: &Polytope, pair: Pair) -> (Vec3<Q>, Vec3<Q>) {
    let order = |swap: bool, x: Vec3<Q>, y: Vec3<Q>| if swap { (y, x) } else { (x, y) };
    let pick = |swap: bool| if swap { (b, a) } else { (a, b) };
    match pair {
        Pair::VertexVertex(i, j) => (a.vertices[i].clone(), b.vertices[j].clone()),
        Pair::VertexEdge(swap, vi, ei) => {
            let (p, q) = pick(swap);
            let (i, j) = q.edges[ei];
            let (s, u) = (&q.vertices[i], q.vertices[j].sub(&q.vertices[i]));
            let v = &p.vertices[vi];
            let t = v.sub(s).dot(&u) / u.norm_squared();
            order(swap, v.clone(), s.add(&u.scale(&t)))
        }
        Pair::VertexFace(swap, vi, fi) => {
            let (p, q) = pick(swap);
            let (v, f) = (&p.vertices[vi], &q.faces[fi]);
            let h = f.normal.dot(&v.sub(&f.point)) / f.normal.norm_squared();
            order(swap, v.clone(), v.sub(&f.normal.scale(&h)))
        }
        Pair::EdgeEdge(ea, eb) => {
            let ((i, j), (k, m)) = (a.edges[ea], b.edges[eb]);
            let (p, u) = (&a.vertices[i], a.vertices[j].sub(&a.vertices[i]));
            let (r, v) = (&b.vertices[k], b.vertices[m].sub(&b.vertices[k]));
            let (uu, uv, vv) = (u.norm_squared(), u.dot(&v), v.norm_squared());
            let den = uu.mul_ref(&vv).sub_ref(&uv.square());
            let w = p.sub(r);
            let (d, e) = (u.dot(&w), v.dot(&w));
            let s = uv.mul_ref(&e).sub_ref(&vv.mul_ref(&d)) / &den;
            let t = uu.mul_ref(&e).sub_ref(&uv.mul_ref(&d)) / &den;
            (p.add(&u.scale(&s)), r.add(&v.scale(&t)))
        }
    }
}

/// The closest pair of two polytopes, assumed disjoint or touching (an
/// overlapping pair gives a pair of boundary points, not distance 0).
///
/// The same enumeration as [`closest_pair_reference`], with the same answer
/// (distance and points), filtered by interval arithmetic first:
///
/// ```text
/// 1. every feature pair gets an outward-rounded enclosure [lo, hi] of its
///    value (|p−q|², |w×u|²/|u|², h²/|n|², (w·(u×v))²/|u×v|²) and a
///    certified verdict on its validity (the foot of the perpendicular lies in
///    the feature): certainly not, certainly, or unknown;
/// 2. U = min hi over the certainly valid pairs (vertex–vertex pairs always
///    are): the distance is at most U;
/// 3. a pair with lo > U, or certainly invalid, cannot be (or tie) the
///    minimum; the rest are evaluated exactly, in enumeration order, so the
///    first minimal pair wins as in the reference.
/// ```
pub fn closest_pair(a: &Polytope, b: &Polytope) -> Closest<Q> {
    let (ea, eb) = (Enclosure::new(a), Enclosure::new(b));
    let mut upper = f64::INFINITY;
    let mut cands: Vec<(Pair, f64)> = Vec::new();
    let mut take = |pair: Pair, bd: Option<Bound>, upper: &mut f64| {
        if let Some(bd) = bd {
            if bd.lo <= *upper {
                if bd.certain {
                    *upper = upper.min(bd.hi);
                }
                cands.push((pair, bd.lo));
            }
        }
    };
    for (i, p) in ea.vertices.iter().enumerate() {
        for (j, q) in eb.vertices.iter().enumerate() {
            let d = inorm2(&isub(p, q));
            let bd = Bound {
                lo: d.lo,
                hi: d.hi,
                certain: true,
            };
            take(Pair::VertexVertex(i, j), Some(bd), &mut upper);
        }
    }
    for (swap, (p, pe), (q, qe)) in [(false, (a, &ea), (b, &eb)), (true, (b, &eb), (a, &ea))] {
        let _ = p;
        for (vi, v) in pe.vertices.iter().enumerate() {
            for (ei, &(i, j)) in q.edges.iter().enumerate() {
                let bd = bound_vertex_edge(v, &qe.vertices[i], &qe.vertices[j]);
                take(Pair::VertexEdge(swap, vi, ei), bd, &mut upper);
            }
            for fi in 0..qe.faces.len() {
                let bd = bound_vertex_face(v, fi, qe);
                take(Pair::VertexFace(swap, vi, fi), bd, &mut upper);
            }
        }
    }
    for (ia, &(i, j)) in a.edges.iter().enumerate() {
        for (ib, &(k, m)) in b.edges.iter().enumerate() {
            let bd = bound_edge_edge(
                &ea.vertices[i],
                &ea.vertices[j],
                &eb.vertices[k],
                &eb.vertices[m],
            );
            take(Pair::EdgeEdge(ia, ib), bd, &mut upper);
        }
    }
    let mut best: Option<(Q, Pair)> = None;
    for &(pair, lo) in &cands {
        if lo > upper {
            continue;
        }
        if let Some(d2) = exact_value(a, b, pair, best.as_ref().map(|x| &x.0)) {
            if best.as_ref().is_none_or(|x| d2 < x.0) {
                best = Some((d2, pair));
            }
        }
    }
    let (d2, pair) = best.expect("a vertex pair survives");
    let (pa, pb) = exact_points(a, b, pair);
    Closest {
        distance_squared: d2,
        a: pa,
        b: pb,
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
