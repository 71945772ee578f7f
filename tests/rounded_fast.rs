//! The float-guided path for spheres and capsules (point and segment cores)
//! against points, segments, triangles and boxes (`query/rounded/segment_fast.rs`)
//! against the exact reference [`rounded::distance_exact`] on the same shapes:
//! the same cores' closest pair, the same `q` and `R`, and `distance_f64` /
//! `intersects_f64` equal to the reference's `clamped_nearest_f64` and sign,
//! on random and hard cases (exactly touching, one ulp apart and overlapping,
//! parallel and collinear axes, a = b capsules, radius 0, a center inside a
//! box, 2^±40 scales).

use exact_collision::query::rounded;
use exact_collision::shape::Rounded;
use exact_collision::stats;
use exact_collision::{Obb, Shape, Triangle, Vec3};
use proptest::prelude::*;

fn v(x: f64, y: f64, z: f64) -> Vec3<f64> {
    Vec3::new(x, y, z)
}
fn sc(p: Vec3<f64>, s: f64) -> Vec3<f64> {
    Vec3::new(p.x * s, p.y * s, p.z * s)
}

/// The float-guided answers equal the exact reference's, in both orders.
fn same(a: &Rounded<f64>, b: &Rounded<f64>) -> Result<(), TestCaseError> {
    for (x, y) in [(a, b), (b, a)] {
        let exact = rounded::distance_exact(x, y).unwrap();
        let fast = rounded::distance_exact_f64(x, y).unwrap();
        prop_assert_eq!(&fast, &exact, "{:?} {:?}", x, y);
        let want = exact.distance().clamped_nearest_f64();
        let got = rounded::distance_f64(x, y).unwrap();
        prop_assert_eq!(got.to_bits(), want.to_bits(), "{:?} {:?}", x, y);
        prop_assert_eq!(
            rounded::intersects_f64(x, y).unwrap(),
            rounded::intersects(x, y).unwrap()
        );
    }
    Ok(())
}

fn coord() -> impl Strategy<Value = f64> {
    prop_oneof![(-8i32..=8).prop_map(|i| i as f64 * 0.5), -4.0f64..4.0,]
}
fn point() -> impl Strategy<Value = Vec3<f64>> {
    (coord(), coord(), coord()).prop_map(|(x, y, z)| v(x, y, z))
}
fn radius() -> impl Strategy<Value = f64> {
    prop_oneof![
        Just(0.0),
        (0i32..=6).prop_map(|i| i as f64 * 0.25),
        0.0f64..2.0
    ]
}
fn small() -> impl Strategy<Value = Rounded<f64>> {
    prop_oneof![
        (point(), radius()).prop_map(|(c, r)| Rounded::sphere(c, r).unwrap()),
        (point(), point(), radius()).prop_map(|(a, b, r)| Rounded::capsule(a, b, r).unwrap()),
        // a = b capsules
        (point(), radius()).prop_map(|(a, r)| Rounded::capsule(a.clone(), a, r).unwrap()),
    ]
}
/// A box with half-axes from a rotation by an integer quaternion (exact
/// integer half-axes times a power of two), or a random parallelepiped.
fn boxed() -> impl Strategy<Value = Shape<f64>> {
    let rot = (
        -3i64..=3,
        -3i64..=3,
        -3i64..=3,
        -3i64..=3,
        1i64..=3,
        1i64..=3,
        1i64..=3,
        point(),
    )
        .prop_filter_map("zero quaternion", |(w, x, y, z, e0, e1, e2, c)| {
            let n = w * w + x * x + y * y + z * z;
            if n == 0 {
                return None;
            }
            // Columns of n·R for the quaternion (w, x, y, z), divided by 2^⌈log2 n⌉.
            let r = [
                [
                    w * w + x * x - y * y - z * z,
                    2 * (x * y + w * z),
                    2 * (x * z - w * y),
                ],
                [
                    2 * (x * y - w * z),
                    w * w - x * x + y * y - z * z,
                    2 * (y * z + w * x),
                ],
                [
                    2 * (x * z + w * y),
                    2 * (y * z - w * x),
                    w * w - x * x - y * y + z * z,
                ],
            ];
            let s = 1.0 / (n as f64).log2().ceil().exp2();
            let e = [e0, e1, e2];
            let h: [Vec3<f64>; 3] = std::array::from_fn(|i| {
                v(
                    (r[i][0] * e[i]) as f64 * s,
                    (r[i][1] * e[i]) as f64 * s,
                    (r[i][2] * e[i]) as f64 * s,
                )
            });
            Obb::new(c, h).ok().map(Shape::Box)
        });
    let skew = (point(), point(), point(), point()).prop_filter_map("flat", |(c, a, b, d)| {
        Obb::new(c, [a, b, d]).ok().map(Shape::Box)
    });
    prop_oneof![rot, skew]
}
fn other() -> impl Strategy<Value = Rounded<f64>> {
    prop_oneof![
        small(),
        (point(), point(), point(), radius()).prop_map(|(a, b, c, r)| {
            Rounded::new(Shape::Triangle(Triangle::new([a, b, c])), r).unwrap()
        }),
        (boxed(), radius()).prop_map(|(s, r)| Rounded::new(s, r).unwrap()),
    ]
}

/// Every coordinate and radius times 2^k.
fn scaled(r: &Rounded<f64>, k: i32) -> Rounded<f64> {
    let s = 2f64.powi(k);
    let core = match &r.core {
        exact_collision::shape::Core::Point(p) => {
            exact_collision::shape::Core::Point(sc(p.clone(), s))
        }
        exact_collision::shape::Core::Segment(a, b) => {
            exact_collision::shape::Core::Segment(sc(a.clone(), s), sc(b.clone(), s))
        }
        exact_collision::shape::Core::Shape(Shape::Triangle(t)) => {
            exact_collision::shape::Core::Shape(Shape::Triangle(Triangle::new(
                t.v.clone().map(|p| sc(p, s)),
            )))
        }
        exact_collision::shape::Core::Shape(Shape::Box(b)) => {
            exact_collision::shape::Core::Shape(Shape::Box(
                Obb::new(
                    sc(b.center.clone(), s),
                    b.half_axes.clone().map(|p| sc(p, s)),
                )
                .unwrap(),
            ))
        }
        _ => unreachable!("only the shapes generated here"),
    };
    Rounded {
        core,
        radius: r.radius * s,
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    #[test]
    fn random_pairs_match_the_reference(a in small(), b in other(), k in prop_oneof![Just(0), Just(40), Just(-40)]) {
        same(&scaled(&a, k), &scaled(&b, k))?;
    }

    /// Two spheres whose radii sum to their centers' distance exactly (a
    /// Pythagorean triple), and the sum one ulp above and below.
    #[test]
    fn touching_spheres_and_one_ulp(i in 1i32..20, j in 1i32..20, split in 0u32..=8, k in prop_oneof![Just(0), Just(40), Just(-40)]) {
        let (m, n) = (i.max(j) + 1, i.min(j));
        let (x, y, z) = ((m * m - n * n) as f64, (2 * m * n) as f64, (m * m + n * n) as f64);
        let ra = z * split as f64 / 8.0;
        let rb = z - ra;
        let s = 2f64.powi(k);
        for rb in [rb, rb.next_up(), rb.next_down().max(0.0)] {
            let a = Rounded::sphere(v(0.0, 0.0, 0.0), ra * s).unwrap();
            let b = Rounded::sphere(v(x * s, y * s, 0.0), rb * s).unwrap();
            same(&a, &b)?;
        }
    }

    /// A capsule end touching a box face, an edge, a vertex; tangent
    /// capsules; parallel and collinear axes; each one ulp off too.
    #[test]
    fn touching_capsules_and_boxes(t in -4i32..=4, u in 1i32..=4, k in prop_oneof![Just(0), Just(40), Just(-40)]) {
        let s = 2f64.powi(k);
        let bx = Rounded::new(
            Shape::Box(Obb::new(v(0.0, 0.0, 0.0), [v(s, 0.0, 0.0), v(0.0, s, 0.0), v(0.0, 0.0, s)]).unwrap()),
            0.0,
        )
        .unwrap();
        let t = t as f64 * 0.25;
        let u = u as f64;
        for r in [u * s, (u * s).next_up(), (u * s).next_down()] {
            // End point above the face y = 1 at distance u (vertex–face).
            let a = Rounded::capsule(v(t * s, (1.0 + u) * s, 0.0), v((t + 1.0) * s, (2.0 + u) * s, 0.5 * s), r).unwrap();
            same(&a, &bx)?;
            // Axis parallel to the face (many closest pairs).
            let b = Rounded::capsule(v(t * s, (1.0 + u) * s, 0.0), v((t + 0.5) * s, (1.0 + u) * s, 0.0), r).unwrap();
            same(&b, &bx)?;
            // Over an edge and a vertex.
            let c = Rounded::capsule(v((1.0 + u) * s, (1.0 + u) * s, t * 0.1 * s), v((2.0 + u) * s, (2.0 + u) * s, 0.0), r * std::f64::consts::SQRT_2).unwrap();
            same(&c, &bx)?;
            // Parallel, collinear and crossing capsules.
            let d = Rounded::capsule(v(0.0, 0.0, 0.0), v(2.0 * s, 0.0, 0.0), r).unwrap();
            let e = Rounded::capsule(v(t * s, 2.0 * u * s, 0.0), v((t + 3.0) * s, 2.0 * u * s, 0.0), r).unwrap();
            same(&d, &e)?;
            let f = Rounded::capsule(v((2.0 + 2.0 * u) * s, 0.0, 0.0), v((5.0 + u) * s, 0.0, 0.0), r).unwrap();
            same(&d, &f)?;
            let g = Rounded::capsule(v(1.0 * s, -s, 2.0 * u * s), v(1.0 * s, s, 2.0 * u * s), r).unwrap();
            same(&d, &g)?;
            // A center inside the box, on its face, at its vertex.
            for p in [v(t * 0.2 * s, 0.5 * s, 0.0), v(t * 0.2 * s, s, 0.0), v(s, s, s)] {
                same(&Rounded::sphere(p, r).unwrap(), &bx)?;
            }
        }
    }
}

/// The float-guided path answers the common cases itself: spheres outside
/// and inside boxes, capsule pairs in general position, capsules against
/// triangles (other tests only add to the process-wide count).
#[test]
fn fast_path_answers_general_position() {
    let mut s = 0x9e37_79b9_7f4a_7c15u64;
    let mut next = || {
        s ^= s << 13;
        s ^= s >> 7;
        s ^= s << 17;
        (s >> 11) as f64 / (1u64 << 53) as f64 * 6.0 - 3.0
    };
    let mut p = || v(next(), next(), next());
    let before = stats::ROUNDED.get().0;
    let n = 300;
    for _ in 0..n {
        let sphere = Rounded::sphere(p(), 0.5).unwrap();
        let bx = Rounded::new(
            Shape::Box(
                Obb::new(p(), [v(1.0, 0.0, 0.0), v(0.0, 0.5, 0.0), v(0.0, 0.0, 0.25)]).unwrap(),
            ),
            0.0,
        )
        .unwrap();
        let c1 = Rounded::capsule(p(), p(), 0.25).unwrap();
        let c2 = Rounded::capsule(p(), p(), 0.25).unwrap();
        let tri = Rounded::new(Shape::Triangle(Triangle::new([p(), p(), p()])), 0.0).unwrap();
        for (a, b) in [(&sphere, &bx), (&c1, &c2), (&c1, &tri)] {
            let exact = rounded::distance_exact(a, b).unwrap();
            assert_eq!(rounded::distance_exact_f64(a, b).unwrap(), exact);
        }
    }
    let fast = stats::ROUNDED.get().0 - before;
    assert!(
        fast >= 3 * n - 3,
        "{fast} of {} answered on the fast path",
        3 * n
    );
}
