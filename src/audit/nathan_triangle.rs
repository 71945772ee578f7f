//! P. Nathan, "Triangle – Triangle Collision Detection Strategy",
//! 2015, as published: f64, ε comparisons, bounding-sphere cull, no coplanar
//! case. For comparison with [`crate::query::triangle_triangle`] only.
//!
//! Transcription notes (where the document leaves a choice):
//! - ε is a parameter ([`EPS`] by default, an absolute tolerance: the document
//!   gives no value).
//! - The sphere cull's margin `d` is 0 (the document's `d` is unspecified).
//! - "ε can be added to the denominator" of the edge–plane parameter: it is.
//! - The edge–edge parallel test is the document's `H1 × H2 = 0`, compared
//!   exactly with 0.0.
//! - Step 2's collision point is the first edge–plane point found inside the
//!   other triangle.

/// The default ε (absolute), where the document says "ε".
pub const EPS: f64 = 1e-9;

type V = [f64; 3];

fn sub(a: V, b: V) -> V {
    [a[0] - b[0], a[1] - b[1], a[2] - b[2]]
}
fn add(a: V, b: V) -> V {
    [a[0] + b[0], a[1] + b[1], a[2] + b[2]]
}
fn mul(a: V, k: f64) -> V {
    [a[0] * k, a[1] * k, a[2] * k]
}
fn dot(a: V, b: V) -> f64 {
    a[0] * b[0] + a[1] * b[1] + a[2] * b[2]
}
fn cross(a: V, b: V) -> V {
    [
        a[1] * b[2] - a[2] * b[1],
        a[2] * b[0] - a[0] * b[2],
        a[0] * b[1] - a[1] * b[0],
    ]
}
fn norm(a: V) -> f64 {
    dot(a, a).sqrt()
}

/// The document's pre-processed triangle: vertices, edges, unit normal, edge
/// unit normals, bounding sphere.
#[derive(Clone, Debug)]
pub struct PreTriangle {
    /// Vertices V0, V1, V2 (anti-clockwise about `n`).
    pub v: [V; 3],
    /// Edges E0 = V1 − V0, E1 = V2 − V1, E2 = V0 − V2.
    pub e: [V; 3],
    /// Unit normal.
    pub n: V,
    /// Edge unit normals (E_i/|E_i|) × n, pointing out of the triangle.
    pub ne: [V; 3],
    /// Bounding sphere: centroid and the largest centroid–vertex distance.
    pub center: V,
    /// Bounding sphere radius.
    pub radius: f64,
}

impl PreTriangle {
    /// Pre-process a triangle as the document does.
    pub fn new(v: [V; 3]) -> Self {
        let e = [sub(v[1], v[0]), sub(v[2], v[1]), sub(v[0], v[2])];
        let nn = cross(e[0], sub(v[2], v[0]));
        let n = mul(nn, 1.0 / norm(nn));
        let ne = e.map(|ei| cross(mul(ei, 1.0 / norm(ei)), n));
        let center = mul(add(add(v[0], v[1]), v[2]), 1.0 / 3.0);
        let radius = v.iter().map(|p| norm(sub(*p, center))).fold(0.0, f64::max);
        PreTriangle {
            v,
            e,
            n,
            ne,
            center,
            radius,
        }
    }

    /// Step 2.2: the point-in-triangle test, `n_Ei · (P − V_i) < ε` for all i.
    pub fn contains(&self, p: V, eps: f64) -> bool {
        (0..3).all(|i| dot(self.ne[i], sub(p, self.v[i])) < eps)
    }
}

/// What the published algorithm answers.
#[derive(Clone, Debug, PartialEq)]
pub struct Published {
    /// Step 1 + 2: collision.
    pub collide: bool,
    /// The collision point (step 2), when colliding.
    pub point: Option<V>,
    /// Step 3: the minimum separation distance (0 when colliding).
    pub distance: f64,
    /// The distance vector, from triangle 2 to triangle 1.
    pub vector: V,
}

/// Step 2: edges of `t1` against the plane of `t2`, point-in-triangle.
fn edges_against(t1: &PreTriangle, t2: &PreTriangle, eps: f64) -> Option<V> {
    for i in 0..3 {
        let den = dot(t2.n, t1.e[i]) + eps;
        let s = dot(t2.n, sub(t2.v[0], t1.v[i])) / den;
        if s > -eps && s < 1.0 + eps {
            let p = add(t1.v[i], mul(t1.e[i], s));
            if t2.contains(p, eps) {
                return Some(p);
            }
        }
    }
    None
}

/// Nathan's strategy, steps 1–3, as published, with tolerance `eps`.
///
/// ```
/// use exact_collision::audit::nathan_triangle::{triangle_triangle, EPS};
/// let a = [[0., 0., 0.], [1., 0., 0.], [0., 1., 0.]];
/// let b = [[0.2, 0.2, -1.], [0.2, 0.2, 1.], [1., 1., 0.]];
/// assert!(triangle_triangle(a, b, EPS).collide);
/// // Coplanar overlap with no vertex of one inside the other (a hexagram):
/// // skipped on purpose by the document, so missed.
/// let (p, q) = ([[0., 0., 0.], [6., 0., 0.], [3., 6., 0.]], [[0., 4., 0.], [6., 4., 0.], [3., -2., 0.]]);
/// assert!(!triangle_triangle(p, q, EPS).collide);
/// ```
pub fn triangle_triangle(a: [V; 3], b: [V; 3], eps: f64) -> Published {
    let (t1, t2) = (PreTriangle::new(a), PreTriangle::new(b));
    // Step 1: bounding spheres (d = 0).
    let dc = sub(t2.center, t1.center);
    let sphere = dot(dc, dc) <= (t1.radius + t2.radius).powi(2);
    if sphere {
        // Step 2.
        if let Some(p) = edges_against(&t1, &t2, eps).or_else(|| edges_against(&t2, &t1, eps)) {
            return Published {
                collide: true,
                point: Some(p),
                distance: 0.0,
                vector: [0.0; 3],
            };
        }
    }
    let (distance, vector) = min_distance(&t1, &t2, eps);
    Published {
        collide: false,
        point: None,
        distance,
        vector,
    }
}

/// Step 3: the minimum over vertex–plane (inside), edge–edge and vertex–vertex.
fn min_distance(t1: &PreTriangle, t2: &PreTriangle, eps: f64) -> (f64, V) {
    let mut best = (f64::INFINITY, [0.0; 3]);
    let mut offer = |v: V| {
        let d = norm(v);
        if d < best.0 {
            best = (d, v);
        }
    };
    // 3.1 vertex – plane, both triangles; vector from triangle 2 to triangle 1.
    for (ta, tb, sign) in [(t1, t2, 1.0), (t2, t1, -1.0)] {
        for x in ta.v {
            let d = dot(tb.n, sub(x, tb.v[0]));
            let p = sub(x, mul(tb.n, d));
            if tb.contains(p, eps) {
                offer(mul(sub(x, p), sign));
            }
        }
    }
    // 3.2 edge – edge.
    for i in 0..3 {
        for j in 0..3 {
            if let Some(v) = edge_edge(t1.v[i], t1.e[i], t2.v[j], t2.e[j]) {
                offer(v);
            }
        }
    }
    // 3.3 vertex – vertex.
    for x in t1.v {
        for y in t2.v {
            offer(sub(x, y));
        }
    }
    best
}

/// The document's edge–edge distance vector (from edge 2 to edge 1), or `None`
/// when its parallel case finds no valid projection.
fn edge_edge(a: V, e1: V, b: V, e2: V) -> Option<V> {
    let q = sub(a, b);
    let (h1, h2) = ([dot(e1, e1), -dot(e1, e2)], [-dot(e1, e2), dot(e2, e2)]);
    let k = [-dot(e1, q), dot(e2, q)];
    let c2 = |x: [f64; 2], y: [f64; 2]| x[0] * y[1] - x[1] * y[0];
    let det = c2(h1, h2);
    if det == 0.0 {
        let e22 = dot(e2, e2);
        let nvec = sub(q, mul(e2, dot(q, e2) / e22));
        let e11 = dot(e1, e1);
        let on = |p: V, o: V, e: V, ee: f64| {
            let t = dot(sub(p, o), e);
            (0.0..=ee).contains(&t)
        };
        let a1 = add(a, e1);
        let b1 = add(b, e2);
        let ok = on(sub(a, nvec), b, e2, e22)
            || on(sub(a1, nvec), b, e2, e22)
            || on(add(b, nvec), a, e1, e11)
            || on(add(b1, nvec), a, e1, e11);
        return ok.then_some(nvec);
    }
    let s1 = (c2(k, h2) / det).clamp(0.0, 1.0);
    let s2 = (c2(h1, k) / det).clamp(0.0, 1.0);
    let p1 = add(a, mul(e1, s1));
    let p2 = add(b, mul(e2, s2));
    Some(sub(p1, p2))
}
