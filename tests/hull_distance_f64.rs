//! `rounded::distance_f64` and `intersects_f64` with a convex hull core (the
//! double-word path of `query/rounded/hull_fast.rs`): bit for bit the double
//! the exact path rounds (`distance_exact(a, b).distance_f64()`, rounded
//! from exact rationals by exact comparisons), and the same meeting
//! decision, on random clouds with radii, touching, one ulp apart, nested,
//! flat and collinear hulls, and at the scales 2^±40.

use exact_collision::query::rounded::{distance_exact, distance_f64, intersects_f64};
use exact_collision::shape::Rounded;
use exact_collision::{stats, Vec3};
use proptest::prelude::*;

fn v(x: f64, y: f64, z: f64) -> Vec3<f64> {
    Vec3::new(x, y, z)
}

fn convex(p: &[Vec3<f64>], r: f64) -> Rounded<f64> {
    Rounded::convex(p, r).unwrap()
}

/// The double-word answers equal the exact path's, bit for bit; returns
/// the distance.
fn same(a: &Rounded<f64>, b: &Rounded<f64>) -> f64 {
    let exact = distance_exact(a, b).unwrap();
    let d = distance_f64(a, b).unwrap();
    assert_eq!(d.to_bits(), exact.distance_f64().to_bits(), "{d}");
    assert_eq!(intersects_f64(a, b).unwrap(), exact.intersects());
    let d2 = distance_f64(b, a).unwrap();
    assert_eq!(d2.to_bits(), d.to_bits());
    assert_eq!(intersects_f64(b, a).unwrap(), exact.intersects());
    d
}

fn cube(lo: [f64; 3], s: f64) -> Vec<Vec3<f64>> {
    (0..8)
        .map(|i| {
            let c = |k: usize| lo[k] + if i >> k & 1 == 1 { s } else { 0.0 };
            v(c(0), c(1), c(2))
        })
        .collect()
}

fn scaled(p: &[Vec3<f64>], s: f64) -> Vec<Vec3<f64>> {
    p.iter().map(|q| v(q.x * s, q.y * s, q.z * s)).collect()
}

/// A deterministic generator (splitmix64), values in [-1, 1).
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

/// Worked by hand: the cube [0,1]³ and the cube [2,3]×[3,4]×[3,4] are
/// closest at the vertices (1,1,1), (2,3,3), 3 apart; radii 0.5 and 0.25
/// leave 2.25. Unique closest pair: answered on the double-word path.
#[test]
fn vertex_to_vertex_by_hand() {
    let a = convex(&cube([0.0; 3], 1.0), 0.5);
    let b = convex(&cube([2.0, 3.0, 3.0], 1.0), 0.25);
    let before = stats::HULL_F64.get();
    assert_eq!(same(&a, &b), 2.25);
    let after = stats::HULL_F64.get();
    assert!(after.0 >= before.0 + 4, "{before:?} {after:?}");
    // Radii summing to 3 exactly: touching, distance 0, meeting.
    let c = convex(&cube([2.0, 3.0, 3.0], 1.0), 2.5);
    assert_eq!(same(&a, &c), 0.0);
    assert!(intersects_f64(&a, &c).unwrap());
}

/// Random 16-point clouds with random radii, apart, near and overlapping;
/// most apart pairs answered without big integers.
#[test]
fn random_clouds() {
    let mut r = Rng(21);
    let before = stats::HULL_F64.get();
    for i in 0..150 {
        let s = [0.5, 2.0, 4.0][i % 3];
        let c = [s * r.f(), s * r.f(), s * r.f()];
        let a = convex(&r.cloud(16, [0.0; 3]), 0.25 * (r.f() + 1.0));
        let b = convex(&r.cloud(16, c), 0.125 * (r.f() + 1.0));
        same(&a, &b);
    }
    let after = stats::HULL_F64.get();
    let (fast, fallback) = (after.0 - before.0, after.1 - before.1);
    assert!(fast >= 300, "fast {fast}, fallback {fallback}");
}

/// Touching and overlapping cores, and radii that make apart cores touch.
#[test]
fn touching() {
    let a = convex(&cube([0.0; 3], 1.0), 0.0);
    for lo in [
        [1.0, 0.0, 0.0],
        [1.0, 0.5, 0.5],
        [1.0, 1.0, 0.0],
        [1.0, 1.0, 1.0],
        [0.5, 0.5, 0.5],
    ] {
        assert_eq!(same(&a, &convex(&cube(lo, 1.0), 0.0)), 0.0);
    }
    // Edge to edge √2 apart: radii 0.5 + 0.5 do not reach, 0.75 + 0.75 do.
    let b = convex(&cube([2.0, 2.0, 0.0], 1.0), 0.5);
    assert!(same(&convex(&cube([0.0; 3], 1.0), 0.5), &b) > 0.0);
    let c = convex(&cube([2.0, 2.0, 0.0], 1.0), 0.75);
    assert_eq!(same(&convex(&cube([0.0; 3], 1.0), 0.75), &c), 0.0);
}

/// One ulp apart and one ulp overlapping; a vertex one ulp above a face;
/// radii one ulp short of and exactly reaching a gap of 1.
#[test]
fn one_ulp() {
    let a = convex(&cube([0.0; 3], 1.0), 0.0);
    let up = f64::from_bits(1.0f64.to_bits() + 1);
    let down = f64::from_bits(1.0f64.to_bits() - 1);
    assert_eq!(same(&a, &convex(&cube([up, 0.0, 0.0], 1.0), 0.0)), up - 1.0);
    assert_eq!(same(&a, &convex(&cube([down, 0.0, 0.0], 1.0), 0.0)), 0.0);
    let t = [
        v(0.5, 0.5, up),
        v(0.0, 0.0, 2.0),
        v(1.0, 0.0, 2.0),
        v(0.0, 1.0, 2.0),
    ];
    assert_eq!(same(&a, &convex(&t, 0.0)), up - 1.0);
    // A vertex at height 2 above the top face (gap 1): radius 1 touches,
    // one ulp less does not.
    let t2 = [
        v(0.5, 0.25, 2.0),
        v(0.0, 0.0, 3.0),
        v(1.0, 0.0, 3.0),
        v(0.0, 1.0, 3.0),
    ];
    assert_eq!(same(&a, &convex(&t2, 1.0)), 0.0);
    let d = same(&a, &convex(&t2, down));
    assert_eq!(d, 1.0 - down);
}

/// Nested hulls (no surfaces meet): distance 0.
#[test]
fn nested() {
    let big = convex(&cube([-4.0; 3], 8.0), 0.0);
    let mut r = Rng(5);
    let small = convex(&r.cloud(12, [0.0; 3]), 0.5);
    assert_eq!(same(&big, &small), 0.0);
    let point = Rounded::sphere(v(0.25, 0.5, -0.75), 0.5).unwrap();
    assert_eq!(same(&big, &point), 0.0);
}

/// Flat and collinear hulls, and hulls against spheres and capsules.
#[test]
fn flat_collinear_and_other_cores() {
    let mut r = Rng(9);
    for _ in 0..40 {
        let flat: Vec<Vec3<f64>> = (0..10).map(|_| v(r.f(), r.f(), 1.5)).collect();
        let line: Vec<Vec3<f64>> = (0..5)
            .map(|_| {
                let t = r.f();
                v(0.5 + t, 2.0 * t, 1.25)
            })
            .collect();
        let c = [r.f(), r.f(), -1.5 + r.f()];
        let cloud = convex(&r.cloud(16, c), 0.125);
        same(&cloud, &convex(&flat, 0.0625));
        same(&convex(&line, 0.25), &cloud);
        let p = Rounded::sphere(v(r.f(), r.f(), 2.0 + r.f()), 0.5).unwrap();
        same(&cloud, &p);
        let s = Rounded::capsule(v(r.f(), r.f(), 2.5), v(r.f(), r.f(), 3.0), 0.25).unwrap();
        same(&s, &cloud);
    }
}

/// Random clouds and a hand-worked pair at 2^40 and 2^-40.
#[test]
fn scales() {
    for e in [40, -40] {
        let s = 2f64.powi(e);
        let a = convex(&scaled(&cube([0.0; 3], 1.0), s), 0.5 * s);
        let b = convex(&scaled(&cube([2.0, 3.0, 3.0], 1.0), s), 0.25 * s);
        assert_eq!(same(&a, &b), 2.25 * s);
        let mut r = Rng(77);
        for _ in 0..30 {
            let c = convex(&scaled(&r.cloud(16, [0.0; 3]), s), 0.125 * s);
            let o = [3.0 * r.f(), 3.0 * r.f(), 3.0];
            let d = convex(&scaled(&r.cloud(16, o), s), 0.0);
            same(&c, &d);
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// Random clouds on small integer grids (coplanar and tied features) or
    /// jittered, at random offsets, with random radii.
    #[test]
    fn clouds_match(
        pa in prop::collection::vec((-8i32..8, -8i32..8, -8i32..8), 4..20),
        pb in prop::collection::vec((-8i32..8, -8i32..8, -8i32..8), 4..20),
        off in (-20i32..20, -20i32..20, -20i32..20),
        fine in any::<bool>(),
        jitter in prop::collection::vec(-1.0f64..1.0, 60),
        ra in 0.0f64..3.0,
        rb in 0.0f64..3.0,
    ) {
        let mk = |p: &[(i32, i32, i32)], o: (i32, i32, i32), j0: usize| -> Vec<Vec3<f64>> {
            p.iter().enumerate().map(|(i, &(x, y, z))| {
                let j = |k: usize| if fine { jitter[(j0 + 3 * i + k) % 60] } else { 0.0 };
                v((x + o.0) as f64 + j(0), (y + o.1) as f64 + j(1), (z + o.2) as f64 + j(2))
            }).collect()
        };
        let a = convex(&mk(&pa, (0, 0, 0), 0), ra);
        let b = convex(&mk(&pb, off, 7), rb);
        let exact = distance_exact(&a, &b).unwrap();
        prop_assert_eq!(distance_f64(&a, &b).unwrap().to_bits(), exact.distance_f64().to_bits());
        prop_assert_eq!(intersects_f64(&a, &b).unwrap(), exact.intersects());
    }
}

/// Deeply overlapping clouds are answered on the double-word path (the
/// meeting proof: the origin inside four points of the cores' difference),
/// not by the exact path's piece loop; the answer is the exact path's 0.
#[test]
fn overlapping_clouds_on_the_fast_path() {
    let mut r = Rng(33);
    let before = stats::HULL_F64.get();
    for i in 0..60 {
        let s = [1.0, 2f64.powi(-300), 2f64.powi(300)][i % 3];
        let a = convex(&scaled(&r.cloud(16, [0.0; 3]), s), 0.0);
        let b = convex(&scaled(&r.cloud(16, [0.1, -0.1, 0.05]), s), 0.25 * s);
        assert_eq!(same(&a, &b), 0.0);
    }
    let after = stats::HULL_F64.get();
    // `same` asks distance_f64 and intersects_f64 both ways: 4 per pair.
    assert!(after.0 - before.0 >= 4 * 57, "{before:?} {after:?}");
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    /// Overlapping and touching hulls against the exact path: random clouds
    /// around nearby centres (often overlapping), flat or collinear hulls,
    /// hulls sharing one vertex, on integer grids (touching, coplanar) or
    /// jittered, at scales 2^-600 to 2^600.
    #[test]
    fn meeting_matches_exact(
        pa in prop::collection::vec((-4i32..4, -4i32..4, -4i32..4), 4..14),
        pb in prop::collection::vec((-4i32..4, -4i32..4, -4i32..4), 4..14),
        off in (-4i32..4, -4i32..4, -4i32..4),
        kind in 0usize..4,
        fine in any::<bool>(),
        jitter in prop::collection::vec(-0.5f64..0.5, 42),
        e in prop::sample::select(vec![-600i32, -40, 0, 40, 600]),
        ra in prop::sample::select(vec![0.0f64, 0.25, 1.0]),
    ) {
        let s = 2f64.powi(e);
        let j = |i: usize| if fine { jitter[i % 42] } else { 0.0 };
        let mut a: Vec<Vec3<f64>> = pa.iter().enumerate().map(|(i, &(x, y, z))| {
            let (x, y, z) = (x as f64 + j(3 * i), y as f64 + j(3 * i + 1), z as f64 + j(3 * i + 2));
            match kind {
                1 => v(x, y, 0.5),          // flat
                2 => v(x, 2.0 * x, 4.0 * x), // collinear
                _ => v(x, y, z),
            }
        }).collect();
        let mut b: Vec<Vec3<f64>> = pb.iter().enumerate().map(|(i, &(x, y, z))| {
            v((x + off.0) as f64 + j(3 * i + 5), (y + off.1) as f64 + j(3 * i + 6), (z + off.2) as f64)
        }).collect();
        if kind == 3 {
            // One shared vertex: b's cloud moved (about) onto a's first
            // point, and its first point that point exactly.
            let d = a[0].sub(&b[0]);
            b = b.iter().map(|p| p.add(&d)).collect();
            b[0] = a[0].clone();
        }
        a = scaled(&a, s);
        b = scaled(&b, s);
        let (Ok(ca), Ok(cb)) = (Rounded::convex(&a, ra * s), Rounded::convex(&b, 0.0)) else {
            return Ok(());
        };
        let exact = distance_exact(&ca, &cb).unwrap();
        prop_assert_eq!(distance_f64(&ca, &cb).unwrap().to_bits(), exact.distance_f64().to_bits());
        prop_assert_eq!(distance_f64(&cb, &ca).unwrap().to_bits(), exact.distance_f64().to_bits());
        prop_assert_eq!(intersects_f64(&ca, &cb).unwrap(), exact.intersects());
        prop_assert_eq!(intersects_f64(&cb, &ca).unwrap(), exact.intersects());
    }
}
