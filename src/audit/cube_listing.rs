//! The "Cube intersection algorithm" article's Python listing as published,
//! in f64, transcribing what it means: `edge_face_intersect` uses the undefined
//! `r` where it means the edge parameter `t2`, and takes the edge's end point
//! `b` where it means the direction `b − a`. The sphere shortcuts (circumscribed:
//! too far; inscribed: intersect) and the "only 9 tests" optimisation (the
//! three apex edges of cube 1 nearest cube 2's center against the three apex
//! faces of cube 2 nearest cube 1's center, in that direction only) are kept.
//!
//! ```
//! use exact_collision::audit::cube_listing::{intersect, unit_cube_shifted};
//! let r = unit_cube_shifted(0.0);
//! assert!(intersect(&r, &unit_cube_shifted(-0.9)));
//! assert!(!intersect(&r, &unit_cube_shifted(-1.1)));
//! ```

type P = [f64; 3];

fn sub(a: P, b: P) -> P {
    [a[0] - b[0], a[1] - b[1], a[2] - b[2]]
}
fn add(a: P, b: P) -> P {
    [a[0] + b[0], a[1] + b[1], a[2] + b[2]]
}
fn mul(k: f64, a: P) -> P {
    [k * a[0], k * a[1], k * a[2]]
}
fn dot(a: P, b: P) -> f64 {
    a[0] * b[0] + a[1] * b[1] + a[2] * b[2]
}
fn cross(a: P, b: P) -> P {
    [
        a[1] * b[2] - a[2] * b[1],
        a[2] * b[0] - a[0] * b[2],
        a[0] * b[1] - a[1] * b[0],
    ]
}
fn norm(a: P) -> f64 {
    dot(a, a).sqrt()
}

/// The article's unit cube (a..h) moved by (s, s, s), as in its `start()`.
pub fn unit_cube_shifted(s: f64) -> [P; 8] {
    [
        [0., 0., 0.],
        [1., 0., 0.],
        [1., 1., 0.],
        [0., 1., 0.],
        [0., 0., 1.],
        [1., 0., 1.],
        [1., 1., 1.],
        [0., 1., 1.],
    ]
    .map(|p| [p[0] + s, p[1] + s, p[2] + s])
}

/// `edge_face_intersect` with the intended meaning: edge from `u` with
/// direction `v`, face at `x` spanned by `y`, `z`.
fn edge_face(u: P, v: P, x: P, y: P, z: P) -> bool {
    let c = cross(y, z);
    let t1 = dot(v, c);
    if t1 == 0.0 {
        return false;
    }
    let t2 = dot(sub(x, u), c) / t1;
    if !(0.0..=1.0).contains(&t2) {
        return false;
    }
    let i = add(u, mul(t2, v));
    let ix = sub(i, x);
    let n2 = dot(c, c);
    let t3 = dot(cross(z, c), ix);
    if t3 < 0.0 || t3 > n2 {
        return false;
    }
    let t4 = dot(cross(c, y), ix);
    !(t4 < 0.0 || t4 > n2)
}

fn center(r: &[P; 8]) -> P {
    add(r[0], mul(0.5, sub(r[6], r[0])))
}

/// Index of the vertex of `r` closest to `p` (the listing's `apex`).
fn apex(r: &[P; 8], p: P) -> usize {
    let x = sub(p, center(r));
    let t1 = dot(sub(r[1], r[0]), x) >= 0.0;
    let t2 = dot(sub(r[3], r[0]), x) >= 0.0;
    let t3 = dot(sub(r[4], r[0]), x) >= 0.0;
    // a b c d e f g h = 0..7
    match (t1, t2, t3) {
        (true, true, true) => 6,
        (true, true, false) => 2,
        (true, false, true) => 5,
        (true, false, false) => 1,
        (false, true, true) => 7,
        (false, true, false) => 3,
        (false, false, true) => 4,
        (false, false, false) => 0,
    }
}

/// The listing's `neighbors`.
fn neighbors(v: usize) -> [usize; 3] {
    match v {
        0 => [1, 3, 4],
        1 => [2, 0, 5],
        2 => [6, 3, 1],
        3 => [7, 0, 2],
        4 => [5, 0, 7],
        5 => [6, 1, 4],
        6 => [7, 2, 5],
        _ => [4, 3, 6],
    }
}

/// The listing's `intersect(r, s)`, as published (with the two fixes above).
pub fn intersect(r: &[P; 8], s: &[P; 8]) -> bool {
    let (c1, c2) = (center(r), center(s));
    let d = norm(sub(c1, c2));
    let t = (norm(sub(r[0], r[1])) + norm(sub(s[0], s[1]))) / 2.0;
    if d > 3f64.sqrt() * t {
        return false;
    }
    if d <= t {
        return true;
    }
    let a = apex(r, c2);
    let edges = neighbors(a).map(|n| (r[a], sub(r[n], r[a])));
    let b = apex(s, c1);
    let f = neighbors(b);
    let faces = [(f[0], f[1]), (f[0], f[2]), (f[1], f[2])]
        .map(|(p, q)| (s[b], sub(s[p], s[b]), sub(s[q], s[b])));
    edges
        .iter()
        .any(|&(u, v)| faces.iter().any(|&(x, y, z)| edge_face(u, v, x, y, z)))
}
