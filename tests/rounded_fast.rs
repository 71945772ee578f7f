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

/// A sphere against a box with rotated (in doubles not exactly orthogonal)
/// half-axes: the center near a face, an edge, a vertex region's boundary.
fn rotated_box(c: Vec3<f64>, angle: f64, e: [f64; 3]) -> Rounded<f64> {
    let (s, k) = angle.sin_cos();
    let h = [
        v(k * e[0], s * e[0], 0.0),
        v(-s * e[1], k * e[1], 0.0),
        v(0.0, 0.0, e[2]),
    ];
    Rounded::new(Shape::Box(Obb::new(c, h).unwrap()), 0.0).unwrap()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    /// The dedicated point–box path (`distance_f64`) against the exact
    /// reference: random centers and radii, rotated boxes, 2^±40.
    #[test]
    fn sphere_rotated_box_matches_the_reference(
        c in point(), r in radius(), bc in point(), angle in 0.0f64..6.3,
        e in (0.1f64..2.0, 0.1f64..2.0, 0.1f64..2.0), rb in radius(),
        k in prop_oneof![Just(0), Just(40), Just(-40)],
    ) {
        let bx = rotated_box(bc, angle, [e.0, e.1, e.2]);
        let bx = Rounded { core: bx.core, radius: rb };
        same(&scaled(&Rounded::sphere(c, r).unwrap(), k), &scaled(&bx, k))?;
    }

    /// Centers on a face, edge and vertex region's boundary of the unit
    /// box (box coordinate exactly ±1 on one, two, three axes), one ulp to
    /// either side, and inside; radii touching exactly and one ulp off.
    #[test]
    fn sphere_on_region_boundaries(
        a in -3i32..=3, b in -3i32..=3, d in 1i32..=4, which in 0usize..8,
        k in prop_oneof![Just(0), Just(40), Just(-40)],
    ) {
        let s = 2f64.powi(k);
        let bx = Rounded::new(
            Shape::Box(Obb::new(v(0.0, 0.0, 0.0), [v(s, 0.0, 0.0), v(0.0, s, 0.0), v(0.0, 0.0, s)]).unwrap()),
            0.0,
        )
        .unwrap();
        let (a, b, d) = (a as f64 * 0.5, b as f64 * 0.5, d as f64);
        // Coordinates: 1 (on the boundary plane x = 1 of the face region),
        // 1 + d (in the region), a, b (anywhere).
        let base = [
            [1.0 + d, a, b],      // face region, x beyond
            [1.0, a, b],          // on the face
            [1.0 + d, 1.0, b],    // face/edge region boundary
            [1.0 + d, 1.0 + d, b],// edge region (or vertex)
            [1.0 + d, 1.0 + d, 1.0],  // edge/vertex boundary
            [1.0 + d, 1.0 + d, 1.0 + d], // vertex region
            [a * 0.5, b * 0.5, 0.25], // inside
            [1.0, 1.0, 1.0],      // the vertex itself
        ][which];
        for step in [0, 1, -1] {
            let mut p = base.map(|x| x * s);
            let i = which % 3;
            p[i] = match step {
                1 => p[i].next_up(),
                -1 => p[i].next_down(),
                _ => p[i],
            };
            // The distance from the unit box, when it is a double: d, d√2 or
            // d√3 (only d is exact); radii d·s and its neighbours.
            for r in [d * s, (d * s).next_up(), (d * s).next_down(), 0.0] {
                same(&Rounded::sphere(v(p[0], p[1], p[2]), r).unwrap(), &bx)?;
            }
        }
    }
}

/// Distances worked by hand, answered on the dedicated point–box path: the
/// box [−1, 1]³ (half-axes of lengths 1, 2 and 0.5 after scaling, in any
/// order of the arguments).
#[test]
fn point_box_path_answers_by_hand() {
    let bx = Rounded::new(
        Shape::Box(
            Obb::new(
                v(1.0, 2.0, 3.0),
                [v(0.0, 2.0, 0.0), v(1.0, 0.0, 0.0), v(0.0, 0.0, 0.5)],
            )
            .unwrap(),
        ),
        0.25,
    )
    .unwrap();
    // Box: x ∈ [0, 2], y ∈ [0, 4], z ∈ [2.5, 3.5], grown by 0.25.
    let cases = [
        // Vertex region: closest (2, 4, 3.5), d = (3, 4, 0)·… = 5; 5 − 1.25.
        (v(5.0, 8.0, 3.5), 1.0, 3.75),
        // Vertex region in 3D: d = (2, 3, 6), |d| = 7; 7 − 0.5 − 0.25.
        (v(4.0, 7.0, 9.5), 0.5, 6.25),
        // Edge region: closest (2, y, 3.5), d = (6, 0, 8), 10 − 0.25.
        (v(8.0, 1.0, 11.5), 0.0, 9.75),
        // Face region: 1.5 below y = 0, minus 0.25 + 0.25.
        (v(1.0, -1.5, 3.0), 0.25, 1.0),
        // Inside: 0.
        (v(1.0, 2.0, 3.0), 0.0, 0.0),
        // Touching: 1 from the face, radii 0.75 + 0.25.
        (v(3.0, 2.0, 3.0), 0.75, 0.0),
        // Vertex region, irrational: √2 − 0.25 with d = (1, 1, 0).
        (v(3.0, 5.0, 3.0), 0.0, std::f64::consts::SQRT_2 - 0.25),
    ];
    let (f0, _) = stats::ROUNDED_POINT_BOX.get();
    for (c, r, want) in cases.clone() {
        let s = Rounded::sphere(c, r).unwrap();
        assert_eq!(rounded::distance_f64(&s, &bx).unwrap(), want, "{s:?}");
        assert_eq!(rounded::distance_f64(&bx, &s).unwrap(), want, "{s:?}");
    }
    let (f1, _) = stats::ROUNDED_POINT_BOX.get();
    // The touching case and the center on a region's boundary plane
    // (z = 3.5: a parameter exactly at its end) are left to the generic
    // path: the bound never decides a zero sign.
    assert!(
        f1 - f0 >= 2 * (cases.len() as u64 - 2),
        "{} of {}",
        f1 - f0,
        2 * cases.len()
    );
}

/// A box with independent, not orthogonal half-axes (sheared), or `None`
/// when the three are (nearly) dependent.
fn sheared_box(c: Vec3<f64>, h: [(f64, f64, f64); 3]) -> Option<Rounded<f64>> {
    let h = h.map(|(x, y, z)| v(x, y, z));
    let det = h[0].x * (h[1].y * h[2].z - h[1].z * h[2].y)
        - h[0].y * (h[1].x * h[2].z - h[1].z * h[2].x)
        + h[0].z * (h[1].x * h[2].y - h[1].y * h[2].x);
    if det.abs() < 0.05 {
        return None;
    }
    Some(Rounded::new(Shape::Box(Obb::new(c, h).ok()?), 0.0).unwrap())
}

fn axis() -> impl Strategy<Value = (f64, f64, f64)> {
    (-2.0f64..2.0, -2.0f64..2.0, -2.0f64..2.0)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    /// The point–box path on sheared boxes (the regions of the box
    /// coordinates are not the Voronoi regions: the proof refuses a wrong
    /// guess), centers near and far, at 2^0, 2^±40 and 2^±300, against the
    /// exact reference.
    #[test]
    fn sphere_sheared_box_matches_the_reference(
        c in point(), r in radius(), bc in point(), h in (axis(), axis(), axis()),
        far in prop_oneof![Just(1.0), Just(8.0), Just(1e6)], rb in radius(),
        k in prop_oneof![Just(0), Just(40), Just(-40), Just(300), Just(-300)],
    ) {
        if let Some(bx) = sheared_box(bc, [h.0, h.1, h.2]) {
            let bx = Rounded { core: bx.core, radius: rb };
            let s = Rounded::sphere(sc(c, far), r).unwrap();
            same(&scaled(&s, k), &scaled(&bx, k))?;
        }
    }

    /// Touching and one ulp off on sheared boxes: the radius is the
    /// distance of the center to the box as the exact reference rounds it,
    /// and its neighbours (the sum of radii then lies within an ulp of
    /// `√q`, where `√q − R` cancels).
    #[test]
    fn sphere_sheared_box_touching(
        c in point(), bc in point(), h in (axis(), axis(), axis()),
        k in prop_oneof![Just(0), Just(40), Just(-40)],
    ) {
        if let Some(bx) = sheared_box(bc, [h.0, h.1, h.2]) {
            let bx = scaled(&bx, k);
            let probe = scaled(&Rounded::sphere(sc(c, 2.0), 0.0).unwrap(), k);
            let d = rounded::distance_exact(&probe, &bx).unwrap().distance_f64();
            for r in [d, d.next_up(), d.next_down(), d * 0.5, (d * 0.5).next_up()] {
                if r >= 0.0 {
                    let s = Rounded { core: probe.core.clone(), radius: r };
                    same(&s, &bx)?;
                }
            }
        }
    }
}

/// Distances at and next to a rounding midpoint, worked by hand: the box
/// [−1, 1]³ with radius `r_b` and a sphere of center `(−3, 0.25, −0.5)`
/// (face region, cores 2 apart) with radius `r_a`: the distance is
/// `2 − R`. Below 2 the doubles are `2^-52` apart, so `R = 2⁻⁵³` puts it on
/// the midpoint of `2 − 2⁻⁵²` and 2, a tie that goes to the even 2;
/// `R = 2⁻⁵³ ± 2⁻¹⁰⁰` (as `r_a + r_b`, not a double) moves it just below
/// (`2 − 2⁻⁵²`) or above (2); `R = 2⁻⁵²` gives the double `2 − 2⁻⁵²`.
#[test]
fn point_box_midpoints_by_hand() {
    let below = 2.0 - 2f64.powi(-52); // the double below 2
    let cases = [
        (0.0, 0.0, 2.0),
        (2f64.powi(-53), 0.0, 2.0),
        (0.0, 2f64.powi(-53), 2.0),
        (2f64.powi(-53), 2f64.powi(-100), below),
        (2f64.powi(-54), 2f64.powi(-54) - 2f64.powi(-100), 2.0),
        (2f64.powi(-52), 0.0, below),
    ];
    for (ra, rb, want) in cases {
        let bx = Rounded::new(
            Shape::Box(
                Obb::new(
                    v(0.0, 0.0, 0.0),
                    [v(1.0, 0.0, 0.0), v(0.0, 1.0, 0.0), v(0.0, 0.0, 1.0)],
                )
                .unwrap(),
            ),
            rb,
        )
        .unwrap();
        let s = Rounded::sphere(v(-3.0, 0.25, -0.5), ra).unwrap();
        let exact = rounded::distance_exact(&s, &bx).unwrap().distance_f64();
        assert_eq!(exact, want, "exact {ra:e} {rb:e}");
        assert_eq!(
            rounded::distance_f64(&s, &bx).unwrap(),
            want,
            "{ra:e} {rb:e}"
        );
        assert_eq!(
            rounded::distance_f64(&bx, &s).unwrap(),
            want,
            "{ra:e} {rb:e}"
        );
    }
}

/// An edge distance exactly on a rounding midpoint, worked by hand, which
/// Ziv's rounding test cannot decide: the Pythagorean triple
/// `(a, b, c) = 3·(2q + 1, 2q(q + 1), 2q² + 2q + 1)` with `q = 38745321`,
/// `a = 232471929`, `b = 9007199628830172`, `c = 9007199628830175` (odd, in
/// (2⁵³, 2⁵⁴) where doubles are 2 apart: a midpoint), checked here in
/// integers. The box `c₀ ± 2` per axis with `c₀ = (a + 2, b + 2, 2)` has its
/// edge `{(a, b, z) : 0 ≤ z ≤ 4}` closest to the sphere's center at the
/// origin (which lies in the plane of the face `z = 0`: an edge region, with
/// `B = |u|² = 4`), at `(a, b, 0)`, so the distance is `c − R`. `R = 0`: a tie, to the even `c + 1`
/// (`(c + 1)/2` even); `R = 2⁻⁶⁰`: just below the midpoint, `c − 1`; `R = 2⁻¹`:
/// far from it (a quarter of the spacing), `c − 1` again.
#[test]
fn point_box_edge_on_a_midpoint_by_hand() {
    let (a, b, c): (i128, i128, i128) = (232_471_929, 9_007_199_628_830_172, 9_007_199_628_830_175);
    assert_eq!(a * a + b * b, c * c);
    assert!(c > 1 << 53 && c < 1 << 54 && c % 2 == 1 && ((c + 1) / 2) % 2 == 0);
    let (af, bf) = (a as f64, b as f64);
    assert_eq!((af as i128, bf as i128), (a, b));
    let bx = Rounded::new(
        Shape::Box(
            Obb::new(
                v(af + 2.0, bf + 2.0, 2.0),
                [v(2.0, 0.0, 0.0), v(0.0, 2.0, 0.0), v(0.0, 0.0, 2.0)],
            )
            .unwrap(),
        ),
        0.0,
    )
    .unwrap();
    let (up, down) = ((c + 1) as f64, (c - 1) as f64);
    assert_eq!(
        ((c + 1) as f64 as i128, (c - 1) as f64 as i128),
        (c + 1, c - 1)
    );
    for (ra, want) in [(0.0, up), (2f64.powi(-60), down), (0.5, down)] {
        let s = Rounded::sphere(v(0.0, 0.0, 0.0), ra).unwrap();
        let exact = rounded::distance_exact(&s, &bx).unwrap().distance_f64();
        assert_eq!(exact, want, "exact {ra:e}");
        assert_eq!(rounded::distance_f64(&s, &bx).unwrap(), want, "{ra:e}");
        assert_eq!(rounded::distance_f64(&bx, &s).unwrap(), want, "{ra:e}");
    }
}
