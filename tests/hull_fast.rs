//! The float-guided path of rounded shapes with a convex hull core
//! (`query/rounded/hull_fast.rs`): `rounded::distance_exact_f64` must answer
//! exactly what the exact path `rounded::distance_exact` answers (the same
//! squared distance and the same closest pair, ties included), on random
//! clouds, flat and collinear hulls, touching hulls, hulls one ulp apart,
//! nested hulls, hulls against points, segments and triangles, and at the
//! scales 2^±40; and the double hull must be the exact hull of the same
//! points as rationals. Expected distances of the hand-made cases are worked
//! by hand.

use exact_collision::hull::convex_hull;
use exact_collision::query::rounded::{distance_exact, distance_exact_f64};
use exact_collision::shape::Rounded;
use exact_collision::{stats, Scalar, Shape, Triangle, Vec3};
use num_rational::BigRational;
use num_traits::Zero;
use proptest::prelude::*;

type Q = BigRational;

fn v(x: f64, y: f64, z: f64) -> Vec3<f64> {
    Vec3::new(x, y, z)
}

/// The fast path's answer equals the exact path's, field by field.
fn same(a: &Rounded<f64>, b: &Rounded<f64>) -> Q {
    let fast = distance_exact_f64(a, b).unwrap();
    let exact = distance_exact(a, b).unwrap();
    assert_eq!(fast, exact);
    fast.core.distance_squared
}

fn convex(p: &[Vec3<f64>]) -> Rounded<f64> {
    Rounded::convex(p, 0.0).unwrap()
}

fn cube(lo: [f64; 3], s: f64) -> Vec<Vec3<f64>> {
    let mut out = Vec::new();
    for i in 0..8 {
        let c = |k: usize| lo[k] + if i >> k & 1 == 1 { s } else { 0.0 };
        out.push(v(c(0), c(1), c(2)));
    }
    out
}

fn scaled(p: &[Vec3<f64>], s: f64) -> Vec<Vec3<f64>> {
    p.iter().map(|q| v(q.x * s, q.y * s, q.z * s)).collect()
}

fn q(x: f64) -> Q {
    x.to_rational()
}

/// A deterministic generator (splitmix64).
struct Rng(u64);
impl Rng {
    fn f(&mut self) -> f64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^= z >> 31;
        (z >> 11) as f64 / (1u64 << 53) as f64 * 2.0 - 1.0
    }
    fn cloud(&mut self, n: usize, c: [f64; 3]) -> Vec<Vec3<f64>> {
        (0..n)
            .map(|_| v(c[0] + self.f(), c[1] + self.f(), c[2] + self.f()))
            .collect()
    }
}

/// Random 16-point clouds, apart, near and overlapping: the same answers,
/// and most apart pairs proved on the fast path.
#[test]
fn random_clouds_match_the_exact_path() {
    let mut r = Rng(21);
    let before = stats::HULL.get();
    for i in 0..150 {
        let s = [0.5, 2.0, 4.0][i % 3];
        let c = [s * r.f(), s * r.f(), s * r.f()];
        let a = convex(&r.cloud(16, [0.0; 3]));
        let b = convex(&r.cloud(16, c));
        same(&a, &b);
        same(&b, &a);
    }
    let after = stats::HULL.get();
    let (fast, fallback) = (after.0 - before.0, after.1 - before.1);
    assert!(fast >= 250, "fast {fast}, fallback {fallback}");
}

/// Face to face at distance 1 (a tie: every point of the facing squares),
/// edge to edge, vertex to face, all worked by hand.
#[test]
fn cubes_apart_by_hand() {
    let a = convex(&cube([0.0; 3], 1.0));
    // Face to face: x from 1 to 2.
    assert_eq!(same(&a, &convex(&cube([2.0, 0.0, 0.0], 1.0))), q(1.0));
    // Face to face, offset: only part of the faces overlap.
    assert_eq!(same(&a, &convex(&cube([2.0, 0.5, 0.25], 1.0))), q(1.0));
    // Edge to edge (parallel edges along z): gap (1, 1) → 2.
    assert_eq!(same(&a, &convex(&cube([2.0, 2.0, 0.0], 1.0))), q(2.0));
    // Vertex to vertex: (1, 1, 1) to (2, 2, 2) → 3.
    assert_eq!(same(&a, &convex(&cube([2.0, 2.0, 2.0], 1.0))), q(3.0));
    // A tetrahedron's vertex (0.5, 0.5, 1.5) above the top face → 0.25.
    let t = convex(&[
        v(0.5, 0.5, 1.5),
        v(0.0, 0.0, 3.0),
        v(1.0, 0.0, 3.0),
        v(0.0, 1.0, 3.0),
    ]);
    assert_eq!(same(&a, &t), q(0.25));
}

/// Touching hulls (q = 0): face on face, edge on face, vertex on vertex.
#[test]
fn touching_hulls() {
    let a = convex(&cube([0.0; 3], 1.0));
    for lo in [
        [1.0, 0.0, 0.0],
        [1.0, 0.5, 0.5],
        [1.0, 1.0, 0.0],
        [1.0, 1.0, 1.0],
    ] {
        assert!(same(&a, &convex(&cube(lo, 1.0))).is_zero());
    }
    // Overlapping.
    assert!(same(&a, &convex(&cube([0.5, 0.5, 0.5], 1.0))).is_zero());
}

/// One ulp apart and one ulp overlapping, face to face and vertex to face.
#[test]
fn one_ulp() {
    let a = convex(&cube([0.0; 3], 1.0));
    let up = f64::from_bits(1.0f64.to_bits() + 1);
    let down = f64::from_bits(1.0f64.to_bits() - 1);
    let gap = q(up) - q(1.0);
    let b = convex(&cube([up, 0.0, 0.0], 1.0));
    assert_eq!(same(&a, &b), &gap * &gap);
    assert!(same(&a, &convex(&cube([down, 0.0, 0.0], 1.0))).is_zero());
    // A vertex one ulp above the top face.
    let t = convex(&[
        v(0.5, 0.5, up),
        v(0.0, 0.0, 2.0),
        v(1.0, 0.0, 2.0),
        v(0.0, 1.0, 2.0),
    ]);
    assert_eq!(same(&a, &t), &gap * &gap);
}

/// A hull inside another (no surfaces meet): distance 0.
#[test]
fn nested_hulls() {
    let big = convex(&cube([-4.0; 3], 8.0));
    let mut r = Rng(5);
    let small = convex(&r.cloud(12, [0.0; 3]));
    assert!(same(&big, &small).is_zero());
    assert!(same(&small, &big).is_zero());
    let point = Rounded::sphere(v(0.25, 0.5, -0.75), 0.5).unwrap();
    assert!(same(&big, &point).is_zero());
}

/// Flat (coplanar) and collinear hulls against hulls, and hulls against
/// points, segments and triangles.
#[test]
fn flat_collinear_and_other_cores() {
    let a = convex(&cube([0.0; 3], 1.0));
    let flat = convex(&[
        v(2.0, 0.0, 0.0),
        v(3.0, 0.5, 0.0),
        v(2.5, 2.0, 0.0),
        v(2.2, 0.3, 0.0),
    ]);
    assert_eq!(same(&a, &flat), q(1.0));
    // Parallel to the face x = 1, at x = 3: tie.
    let flat_x = convex(&[v(3.0, 0.2, 0.2), v(3.0, 0.8, 0.3), v(3.0, 0.5, 0.9)]);
    assert_eq!(same(&a, &flat_x), q(4.0));
    let line = convex(&[v(2.0, 2.0, -1.0), v(2.0, 2.0, 0.5), v(2.0, 2.0, 3.0)]);
    assert_eq!(same(&a, &line), q(2.0));
    assert_eq!(same(&line, &a), q(2.0));
    let point = Rounded::sphere(v(3.0, 0.5, 0.5), 0.25).unwrap();
    assert_eq!(same(&a, &point), q(4.0));
    let seg = Rounded::capsule(v(3.0, 3.0, 0.5), v(3.0, 3.0, 0.75), 0.0).unwrap();
    assert_eq!(same(&seg, &a), q(8.0));
    let tri = Rounded::new(
        Shape::Triangle(Triangle::new([
            v(0.5, 0.5, 2.0),
            v(5.0, 0.0, 4.0),
            v(0.0, 5.0, 4.0),
        ])),
        0.0,
    )
    .unwrap();
    assert_eq!(same(&a, &tri), q(1.0));
    let mut r = Rng(9);
    for _ in 0..40 {
        let flat_pts: Vec<Vec3<f64>> = (0..10).map(|_| v(r.f(), r.f(), 1.5)).collect();
        let line_pts: Vec<Vec3<f64>> = (0..5)
            .map(|_| {
                let t = r.f();
                v(0.5 + t, 2.0 * t, 1.25)
            })
            .collect();
        let c = [r.f(), r.f(), -1.5 + r.f()];
        let cloud = convex(&r.cloud(16, c));
        same(&cloud, &convex(&flat_pts));
        same(&convex(&line_pts), &cloud);
    }
}

/// The same configurations at the scales 2^40 and 2^-40 (distances scale by
/// 2^±80).
#[test]
fn scales() {
    for e in [40, -40] {
        let s = 2f64.powi(e);
        let a = convex(&scaled(&cube([0.0; 3], 1.0), s));
        let b = convex(&scaled(&cube([2.0, 2.0, 0.0], 1.0), s));
        assert_eq!(same(&a, &b), q(2.0) * q(s) * q(s));
        let mut r = Rng(77);
        for _ in 0..30 {
            let c = convex(&scaled(&r.cloud(16, [0.0; 3]), s));
            let o = [3.0 * r.f(), 3.0 * r.f(), 3.0];
            let d = convex(&scaled(&r.cloud(16, o), s));
            same(&c, &d);
        }
    }
}

/// The hull of doubles is the exact hull of the same points as rationals
/// (same vertices, faces in the same order and orientation, same planes).
#[test]
fn double_hull_is_the_rational_hull() {
    let mut r = Rng(3);
    for n in [4, 8, 16, 50, 200] {
        let mut pts = r.cloud(n, [0.0; 3]);
        // Coplanar and repeated points too.
        pts.push(v(0.0, 0.0, 1.0));
        pts.push(v(0.0, 1.0, 1.0));
        pts.push(v(1.0, 0.0, 1.0));
        pts.push(pts[0].clone());
        let hf = convex_hull(&pts).unwrap();
        let rat: Vec<Vec3<Q>> = pts.iter().map(|p| p.to_rational()).collect();
        let hq = convex_hull(&rat).unwrap();
        assert_eq!(hf.dim(), hq.dim());
        assert_eq!(hf.vertices(), hq.vertices());
        assert_eq!(hf.faces(), hq.faces());
    }
}

/// `x·2^k` (exact: no overflow or underflow at these scales).
fn pow2(x: f64, k: i32) -> f64 {
    x * 2f64.powi(k)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(96))]

    /// The double hull is the hull of the same points as rationals (the
    /// rational construction: rational predicates and planes from a common
    /// denominator, an independent path from the doubles' stack-integer and
    /// heap-integer planes), on 1 to 40 points: small integer grids
    /// (coplanar, collinear and repeated points), random doubles, and
    /// each point scaled by its own power of two up to 2^±`spread` (a wide
    /// spread takes the heap-integer planes), at a common scale 2^±40.
    #[test]
    fn double_hull_matches_rational_hull(
        pts in prop::collection::vec((-3i32..3, -3i32..3, -3i32..3, -1.0f64..1.0, 0u32..64), 1..40),
        spread in prop::sample::select(vec![0i32, 8, 60, 200, 400]),
        fine in any::<bool>(),
        scale in prop::sample::select(vec![0i32, 40, -40]),
    ) {
        let p: Vec<Vec3<f64>> = pts
            .iter()
            .map(|&(x, y, z, j, e)| {
                let k = if spread == 0 { 0 } else { (e as i32 % (2 * spread + 1)) - spread };
                let c = |t: i32, u: f64| pow2(t as f64 + if fine { u } else { 0.0 }, k + scale);
                v(c(x, j), c(y, j * 0.5), c(z, -j))
            })
            .collect();
        let hf = convex_hull(&p).unwrap();
        let rat: Vec<Vec3<Q>> = p.iter().map(|x| x.to_rational()).collect();
        let hq = convex_hull(&rat).unwrap();
        prop_assert_eq!(hf.dim(), hq.dim());
        prop_assert_eq!(hf.vertices(), hq.vertices());
        prop_assert_eq!(hf.faces(), hq.faces());
        prop_assert_eq!(hf.plane(), hq.plane());
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// Random clouds (4 to 20 points, small integer grids for coplanar
    /// and tied features, or doubles) at random offsets.
    #[test]
    fn clouds_match(
        pa in prop::collection::vec((-8i32..8, -8i32..8, -8i32..8), 4..20),
        pb in prop::collection::vec((-8i32..8, -8i32..8, -8i32..8), 4..20),
        off in (-20i32..20, -20i32..20, -20i32..20),
        fine in any::<bool>(),
        jitter in prop::collection::vec(-1.0f64..1.0, 60),
    ) {
        let mk = |p: &[(i32, i32, i32)], o: (i32, i32, i32), j0: usize| -> Vec<Vec3<f64>> {
            p.iter().enumerate().map(|(i, &(x, y, z))| {
                let j = |k: usize| if fine { jitter[(j0 + 3 * i + k) % 60] } else { 0.0 };
                v((x + o.0) as f64 + j(0), (y + o.1) as f64 + j(1), (z + o.2) as f64 + j(2))
            }).collect()
        };
        let a = convex(&mk(&pa, (0, 0, 0), 0));
        let b = convex(&mk(&pb, off, 7));
        let fast = distance_exact_f64(&a, &b).unwrap();
        let exact = distance_exact(&a, &b).unwrap();
        prop_assert_eq!(fast, exact);
    }
}
