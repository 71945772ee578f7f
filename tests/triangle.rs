//! Triangle–triangle intersect and distance: property tests on the hard cases.
//!
//! Every answer is checked by an independent method: the certificate checker
//! (`query::certificate`, exact), an exact 24-axis separating-axis oracle written
//! here, and a minimality check of the closest pair (the plane through the
//! closest points, normal to their difference, separates the triangles).

use exact_collision::query::certificate::{check_closest, check_intersection, extent};
use exact_collision::query::triangle_triangle::{distance, distance_exact};
use exact_collision::query::triangle_triangle::{intersect, intersection_set, intersects};
use exact_collision::query::{self, Closest};
use exact_collision::{Scalar, Shape, Triangle, Vec3};
use num_rational::BigRational;
use num_traits::Zero;
use proptest::prelude::*;

type Q = BigRational;
type Tri = [[i64; 3]; 3];

fn cases() -> u32 {
    if std::env::var("EXACT_HEAVY").is_ok_and(|v| v == "1") {
        5000
    } else {
        160
    }
}

fn q(v: i64) -> Q {
    Q::from_integer(v.into())
}

fn tq(t: &Tri) -> Triangle<Q> {
    Triangle::new(t.map(|[x, y, z]| Vec3::new(q(x), q(y), q(z))))
}

/// The triangle scaled by 2^k, as doubles (exact: small integers times a power of two).
fn tf(t: &Tri, k: i32) -> Triangle<f64> {
    let s = 2f64.powi(k);
    Triangle::new(t.map(|[x, y, z]| Vec3::new(x as f64 * s, y as f64 * s, z as f64 * s)))
}

fn tf32(t: &Tri) -> Triangle<f32> {
    Triangle::new(t.map(|[x, y, z]| Vec3::new(x as f32, y as f32, z as f32)))
}

fn is_degenerate(t: &Tri) -> bool {
    tq(t).is_degenerate()
}

/// Independent oracle for non-degenerate triangles: exact separating-axis test
/// on the 24 axes of the two flattened prisms (face normals, in-plane edge
/// normals, and crosses of all edge directions including the normals).
fn sat_disjoint(a: &Triangle<Q>, b: &Triangle<Q>) -> bool {
    let n = |t: &Triangle<Q>| t.v[1].sub(&t.v[0]).cross(&t.v[2].sub(&t.v[0]));
    let e = |t: &Triangle<Q>| {
        let mut v: Vec<Vec3<Q>> = (0..3).map(|i| t.v[(i + 1) % 3].sub(&t.v[i])).collect();
        v.push(n(t));
        v
    };
    let (na, nb) = (n(a), n(b));
    let mut axes = vec![na.clone(), nb.clone()];
    for x in &e(a)[..3] {
        axes.push(na.cross(x));
    }
    for y in &e(b)[..3] {
        axes.push(nb.cross(y));
    }
    for x in e(a) {
        for y in e(b) {
            axes.push(x.cross(&y));
        }
    }
    let (sa, sb) = (Shape::Triangle(a.clone()), Shape::Triangle(b.clone()));
    axes.iter().filter(|l| **l != Vec3::zero()).any(|l| {
        let ((alo, ahi), (blo, bhi)) = (extent(&sa, l), extent(&sb, l));
        ahi < blo || bhi < alo
    })
}

/// The closest pair is optimal: with w = pa − pb, every point x of a has
/// w·x ≥ w·pa and every point y of b has w·y ≤ w·pb, so |x − y| ≥ |w|.
fn check_minimal(a: &Triangle<Q>, b: &Triangle<Q>, c: &Closest<Q>) -> Result<(), String> {
    let w = c.a.sub(&c.b);
    if w == Vec3::zero() {
        return if c.distance_squared.is_zero() {
            Ok(())
        } else {
            Err("w = 0 but d² ≠ 0".into())
        };
    }
    let (sa, sb) = (Shape::Triangle(a.clone()), Shape::Triangle(b.clone()));
    let (amin, _) = extent(&sa, &w);
    let (_, bmax) = extent(&sb, &w);
    if amin == w.dot(&c.a) && bmax == w.dot(&c.b) {
        Ok(())
    } else {
        Err("closest pair is not minimal".into())
    }
}

fn pt() -> impl Strategy<Value = [i64; 3]> {
    [-4i64..=4, -4i64..=4, -4i64..=4]
}

fn tri() -> impl Strategy<Value = Tri> {
    [pt(), pt(), pt()]
}

/// Pairs that make the hard cases likely: shared edges and vertices, a vertex
/// on the other's edge or face, coplanar overlapping and touching, as well as
/// uniform small-grid triangles (which are full of coincidences themselves).
fn pair() -> impl Strategy<Value = (Tri, Tri)> {
    let scale = |t: Tri, k: i64| t.map(|p| p.map(|c| c * k));
    prop_oneof![
        (tri(), tri()),
        (tri(), pt()).prop_map(|(a, p)| (a, [a[1], a[0], p])), // shared edge
        (tri(), pt(), pt()).prop_map(|(a, p, r)| (a, [a[2], p, r])), // shared vertex
        (tri(), pt(), pt(), 0usize..3).prop_map(move |(a, p, r, e)| {
            // a vertex of b at the midpoint of an edge of a
            let a = scale(a, 2);
            let m = [0, 1, 2].map(|i| (a[e][i] + a[(e + 1) % 3][i]) / 2);
            (a, [m, p, r])
        }),
        (tri(), pt(), pt()).prop_map(move |(a, p, r)| {
            // a vertex of b at the centroid of a
            let a = scale(a, 3);
            let c = [0, 1, 2].map(|i| (a[0][i] + a[1][i] + a[2][i]) / 3);
            (a, [c, p, r])
        }),
        (tri(), tri()).prop_map(|(a, b)| {
            // coplanar in z = 0
            let f = |t: Tri| t.map(|[x, y, _]| [x, y, 0]);
            (f(a), f(b))
        }),
        ([pt(), pt(), pt()], [-2i64..=2, -2i64..=2], tri(), tri()).prop_map(
            |([o, u, v], _, a, b)| {
                // coplanar in a tilted plane: o + i·u + j·v, integer i, j
                let m = |t: Tri| t.map(|[i, j, _]| [0, 1, 2].map(|k| o[k] + i * u[k] + j * v[k]));
                (m(a), m(b))
            }
        ),
    ]
}

fn check_pair(a: &Tri, b: &Tri) -> Result<(), TestCaseError> {
    let (qa, qb) = (tq(a), tq(b));
    let exact = intersects(&qa, &qb);
    // Certificates verify exactly.
    let ans = intersect(&qa, &qb).map_err(|e| TestCaseError::fail(e.to_string()))?;
    prop_assert_eq!(ans.intersects(), exact);
    let (sa, sb) = (Shape::Triangle(qa.clone()), Shape::Triangle(qb.clone()));
    if let Err(e) = check_intersection(&sa, &sb, &ans) {
        return Err(TestCaseError::fail(format!("certificate: {e}")));
    }
    // Independent oracle on non-degenerate pairs.
    if !is_degenerate(a) && !is_degenerate(b) {
        prop_assert_eq!(exact, !sat_disjoint(&qa, &qb), "SAT oracle disagrees");
    }
    // Symmetry.
    prop_assert_eq!(intersects(&qb, &qa), exact);
    // Vertex order (all six permutations of b, reversal of a).
    for perm in [
        [0, 1, 2],
        [0, 2, 1],
        [1, 0, 2],
        [1, 2, 0],
        [2, 0, 1],
        [2, 1, 0],
    ] {
        let pb = Triangle::new(perm.map(|i| qb.v[i].clone()));
        let ra = Triangle::new([qa.v[2].clone(), qa.v[1].clone(), qa.v[0].clone()]);
        prop_assert_eq!(intersects(&ra, &pb), exact);
    }
    // Exact translation.
    let sh =
        |t: &Triangle<Q>| Triangle::new(t.v.clone().map(|p| p.add(&Vec3::new(q(7), q(-3), q(11)))));
    prop_assert_eq!(intersects(&sh(&qa), &sh(&qb)), exact);
    // f64 and f32 decisions equal the exact one, at every scale.
    for k in [0, 997, -1000, 60, -60] {
        prop_assert_eq!(intersects(&tf(a, k), &tf(b, k)), exact, "f64 at 2^{}", k);
    }
    prop_assert_eq!(intersects(&tf32(a), &tf32(b)), exact, "f32");
    // The intersection set: every listed point lies in both triangles.
    let set = intersection_set(&qa, &qb).map_err(|e| TestCaseError::fail(e.to_string()))?;
    prop_assert_eq!(set.is_some(), exact);
    if let Some(set) = set {
        for p in set.points() {
            prop_assert!(qa.contains(&p) && qb.contains(&p), "set point outside");
        }
    }
    Ok(())
}

fn check_distance(a: &Tri, b: &Tri) -> Result<(), TestCaseError> {
    let (qa, qb) = (tq(a), tq(b));
    let c = distance(&qa, &qb).map_err(|e| TestCaseError::fail(e.to_string()))?;
    let (sa, sb) = (Shape::Triangle(qa.clone()), Shape::Triangle(qb.clone()));
    if let Err(e) = check_closest(&sa, &sb, &c) {
        return Err(TestCaseError::fail(format!("closest: {e}")));
    }
    if let Err(e) = check_minimal(&qa, &qb, &c) {
        return Err(TestCaseError::fail(e));
    }
    prop_assert_eq!(c.distance_squared.is_zero(), intersects(&qa, &qb));
    // Symmetric, with the closest points swapped (same distance).
    let r = distance(&qb, &qa).map_err(|e| TestCaseError::fail(e.to_string()))?;
    prop_assert_eq!(&r.distance_squared, &c.distance_squared);
    // Invariant under translation and vertex order.
    let sh =
        |t: &Triangle<Q>| Triangle::new(t.v.clone().map(|p| p.add(&Vec3::new(q(5), q(1), q(-9)))));
    let rb = Triangle::new([qb.v[1].clone(), qb.v[2].clone(), qb.v[0].clone()]);
    prop_assert_eq!(
        &distance(&sh(&qa), &sh(&rb)).unwrap().distance_squared,
        &c.distance_squared
    );
    // The f64 path is the exact value correctly rounded; the exact answer from
    // float inputs equals the rational one.
    let (fa, fb) = (tf(a, 0), tf(b, 0));
    let fe = distance_exact(&fa, &fb).unwrap();
    prop_assert_eq!(&fe.distance_squared, &c.distance_squared);
    let f = distance(&fa, &fb).unwrap();
    prop_assert_eq!(f.distance_squared, f64::from_rational(&c.distance_squared));
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(cases()))]

    #[test]
    fn intersect_decisions_and_certificates((a, b) in pair()) {
        check_pair(&a, &b)?;
    }

    #[test]
    fn distance_is_exact_minimal_and_symmetric((a, b) in pair()) {
        check_distance(&a, &b)?;
    }
}

/// Two parallel planes one ulp apart: never intersecting, at the exact distance.
#[test]
fn parallel_planes_one_ulp_apart() {
    let z0 = 1.0f64;
    let z1 = z0.next_up();
    let t = |z: f64, o: f64| {
        Triangle::new([
            Vec3::new(o, 0.0, z),
            Vec3::new(o + 1.0, 0.0, z),
            Vec3::new(o, 1.0, z),
        ])
    };
    let (a, b) = (t(z1, 0.25), t(z0, 0.0));
    assert!(!intersects(&a, &b));
    let c = distance_exact(&a, &b).unwrap();
    let ulp = (z1 - z0).to_rational();
    assert_eq!(c.distance_squared, &ulp * &ulp);
    assert!(c.a.z > c.b.z, "vector points from b to a");
    // The same one ulp below: still disjoint; at the same z: coplanar overlap.
    assert!(!intersects(&t(z0.next_down(), 0.25), &b));
    assert!(intersects(&t(z0, 0.25), &b));
}

/// Coordinates near 1e300 and 1e-300: decisions are scale-free.
#[test]
fn extreme_magnitudes() {
    for s in [1e300, 1e-300, 2f64.powi(-1070)] {
        let t = |p: [[f64; 3]; 3]| Triangle::new(p.map(|[x, y, z]| Vec3::new(x * s, y * s, z * s)));
        let a = t([[0., 0., 0.], [1., 0., 0.], [0., 1., 0.]]);
        let touching = t([[1., 0., 0.], [2., 0., 1.], [2., 1., -1.]]);
        let apart = t([[1.5, 0., 0.], [2., 0., 1.], [2., 1., -1.]]);
        assert!(intersects(&a, &touching), "scale {s}");
        assert!(!intersects(&a, &apart), "scale {s}");
        let ans = intersect(&a, &touching).unwrap();
        let (sa, sb) = (
            Shape::Triangle(a.clone()),
            Shape::Triangle(touching.clone()),
        );
        check_intersection(
            &sa.to_rational(),
            &sb.to_rational(),
            &exact_witness(&a, &touching),
        )
        .unwrap();
        assert!(ans.intersects());
    }
}

fn exact_witness(a: &Triangle<f64>, b: &Triangle<f64>) -> query::Intersection<Q> {
    exact_collision::query::triangle_triangle::intersect_exact(a, b).unwrap()
}

/// The protocol answers triangle pairs end to end.
#[test]
fn protocol_answers_triangles() {
    use exact_collision::protocol::answer_line;
    let line = r#"{"id":1,"op":"distance","a":{"type":"triangle","v":[[0,0,"1/3"],[1,0,"1/3"],[0,1,"1/3"]]},"b":{"type":"triangle","v":[[0,0,0],[1,0,0],[0,1,0]]}}"#;
    let a = answer_line(line, 1);
    assert!(a.ok, "{}", a.value);
    assert_eq!(a.value["distance_squared"], "1/9");
    let line = r#"{"id":2,"op":"intersect","a":{"type":"triangle","v":[[0,0,0],[1,0,0],[0,1,0]]},"b":{"type":"triangle","v":[[1,0,0],[1,1,0],[0,1,0]]}}"#;
    let a = answer_line(line, 1);
    assert_eq!(a.value["intersect"], true, "{}", a.value);
}

/// The hard cases, one ulp off: a coordinate of b moved one ulp up or down
/// (parallel planes one ulp apart, a vertex one ulp off the other's edge or
/// face, coplanar pairs made almost coplanar). The f64 and f32 decisions equal
/// the exact decision on the same values, and the exact certificate verifies.
fn check_ulp(a: &Tri, b: &Tri, which: usize, up: bool, k: i32) -> Result<(), TestCaseError> {
    let (fa, mut fb) = (tf(a, k), tf(b, k));
    let c = match which % 3 {
        0 => &mut fb.v[which / 3 % 3].x,
        1 => &mut fb.v[which / 3 % 3].y,
        _ => &mut fb.v[which / 3 % 3].z,
    };
    *c = if up { c.next_up() } else { c.next_down() };
    let (qa, qb) = (
        Triangle::new(fa.v.clone().map(|p| p.to_rational())),
        Triangle::new(fb.v.clone().map(|p| p.to_rational())),
    );
    let exact = intersects(&qa, &qb);
    prop_assert_eq!(intersects(&fa, &fb), exact, "f64");
    prop_assert_eq!(intersects(&fb, &fa), exact, "f64 swapped");
    let ans = intersect(&qa, &qb).map_err(|e| TestCaseError::fail(e.to_string()))?;
    let (sa, sb) = (Shape::Triangle(qa.clone()), Shape::Triangle(qb.clone()));
    if let Err(e) = check_intersection(&sa, &sb, &ans) {
        return Err(TestCaseError::fail(format!("certificate: {e}")));
    }
    prop_assert_eq!(ans.intersects(), exact);
    if k == 0 {
        // The f32 path on f32 values one f32-ulp off.
        let (ga, mut gb) = (tf32(a), tf32(b));
        let c = &mut gb.v[which / 3 % 3].z;
        *c = if up { c.next_up() } else { c.next_down() };
        let (ra, rb) = (
            Triangle::new(ga.v.clone().map(|p| p.to_rational())),
            Triangle::new(gb.v.clone().map(|p| p.to_rational())),
        );
        prop_assert_eq!(intersects(&ga, &gb), intersects(&ra, &rb), "f32");
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(cases()))]

    #[test]
    fn one_ulp_perturbations_decide_like_exact(
        (a, b) in pair(), which in 0usize..9, up in any::<bool>(), k in prop_oneof![Just(0), Just(997), Just(-1000), Just(-40)]
    ) {
        check_ulp(&a, &b, which, up, k)?;
    }
}
