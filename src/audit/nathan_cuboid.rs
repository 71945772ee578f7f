//! P. Nathan, "Notes on Cuboid-Cuboid Collision Detection", 2014, as
//! published: f64, comparisons widened by ε = single-precision machine epsilon
//! (`A ≤ x ≤ B` as `A − ε < x < B + ε`), the one-directional z test, the
//! bounding circle with R = |P0 − C|, 16 edge–edge tests, the vertex–edge
//! signed-distance tests. Known weak spots: the z test misses one containment
//! direction; ε decides.
//!
//! ```
//! use exact_collision::audit::nathan_cuboid::{intersect, Cuboid};
//! let a = Cuboid { p: [[0., 0.], [1., 0.], [1., 1.], [0., 1.]], zmin: 0., zmax: 10. };
//! let b = Cuboid { p: [[0.2, 0.2], [0.8, 0.2], [0.8, 0.8], [0.2, 0.8]], zmin: 4., zmax: 5. };
//! assert!(intersect(&b, &a));
//! assert!(!intersect(&a, &b)); // the published z test misses a's range containing b's
//! ```

/// Single-precision machine epsilon, as the note suggests.
pub const EPS: f64 = f32::EPSILON as f64;

/// A cuboid: four plan-view vertices (anti-clockwise) and a z range.
#[derive(Clone, Debug)]
pub struct Cuboid {
    /// Plan-view vertices P0..P3.
    pub p: [[f64; 2]; 4],
    /// Bottom.
    pub zmin: f64,
    /// Top.
    pub zmax: f64,
}

fn le3(a: f64, x: f64, b: f64) -> bool {
    a - EPS < x && x < b + EPS
}

fn cross(a: [f64; 2], b: [f64; 2]) -> f64 {
    a[0] * b[1] - a[1] * b[0]
}

fn sub(a: [f64; 2], b: [f64; 2]) -> [f64; 2] {
    [a[0] - b[0], a[1] - b[1]]
}

fn dot(a: [f64; 2], b: [f64; 2]) -> f64 {
    a[0] * b[0] + a[1] * b[1]
}

fn centroid(c: &Cuboid) -> [f64; 2] {
    let s =
        c.p.iter()
            .fold([0.0, 0.0], |s, p| [s[0] + p[0], s[1] + p[1]]);
    [s[0] / 4.0, s[1] / 4.0]
}

fn edges_meet(p01: [f64; 2], v1: [f64; 2], p02: [f64; 2], v2: [f64; 2]) -> bool {
    let den = cross(v1, v2);
    let w = sub(p02, p01);
    if le3(0.0, den, 0.0) {
        if !le3(0.0, cross(w, v2), 0.0) {
            return false;
        }
        return le3(0.0, dot(w, v1), dot(v1, v1)) || le3(0.0, dot(w, v2), dot(v2, v2));
    }
    let s1 = cross(w, v2) / den;
    let s2 = cross(w, v1) / den;
    le3(0.0, s1, 1.0) && le3(0.0, s2, 1.0)
}

fn vertex_inside(v: [f64; 2], c: &Cuboid) -> bool {
    // step i: the projection must fall on some edge, else step ii is omitted
    let on_some = (0..4).any(|j| {
        let e = sub(c.p[(j + 1) % 4], c.p[j]);
        le3(0.0, dot(sub(v, c.p[j]), e), dot(e, e))
    });
    if !on_some {
        return false;
    }
    // step ii: outward unit normal V × z = (Vy, −Vx)
    (0..4).all(|j| {
        let e = sub(c.p[(j + 1) % 4], c.p[j]);
        let len = dot(e, e).sqrt();
        let n = [e[1] / len, -e[0] / len];
        dot(n, sub(v, c.p[j])) < 0.0 + EPS
    })
}

/// Do the cuboids collide, as published (steps 1–3, d = 0).
pub fn intersect(c1: &Cuboid, c2: &Cuboid) -> bool {
    // 1. z test, one direction as written
    if !(le3(c2.zmin, c1.zmin, c2.zmax) || le3(c2.zmin, c1.zmax, c2.zmax)) {
        return false;
    }
    // 2. bounding circles
    let (k1, k2) = (centroid(c1), centroid(c2));
    let r1 = dot(sub(c1.p[0], k1), sub(c1.p[0], k1)).sqrt();
    let r2 = dot(sub(c2.p[0], k2), sub(c2.p[0], k2)).sqrt();
    let d = sub(k2, k1);
    if dot(d, d) > (r1 + r2) * (r1 + r2) {
        return false;
    }
    // 3a. edge–edge
    for i in 0..4 {
        for j in 0..4 {
            let v1 = sub(c1.p[(i + 1) % 4], c1.p[i]);
            let v2 = sub(c2.p[(j + 1) % 4], c2.p[j]);
            if edges_meet(c1.p[i], v1, c2.p[j], v2) {
                return true;
            }
        }
    }
    // 3b. vertex containment, both ways
    c1.p.iter().any(|v| vertex_inside(*v, c2)) || c2.p.iter().any(|v| vertex_inside(*v, c1))
}
