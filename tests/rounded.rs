//! Rounded shapes (spheres, capsules, shapes grown by a radius) against
//! values worked by hand and an independent reference: the cores' squared
//! distance by closed formulas (point–point, point–axis-aligned box by
//! clamping, point–segment by projection), the distance's nearest double from
//! a 400-bit integer square root rounded at both ends of its error interval.

use exact_collision::num::scalar::rational_to_f64;
use exact_collision::query::rounded::{distance_exact, intersects};
use exact_collision::shape::Rounded;
use exact_collision::{Obb, Shape, Vec3};
use num_bigint::BigInt;
use num_rational::BigRational;
use num_traits::{One, Zero};

type Q = BigRational;

fn q(x: f64) -> Q {
    Q::from_float(x).unwrap()
}
fn v(x: f64, y: f64, z: f64) -> Vec3<f64> {
    Vec3::new(x, y, z)
}
fn aabb(c: Vec3<f64>, h: [f64; 3]) -> Shape<f64> {
    Shape::Box(Obb::new(c, [v(h[0], 0.0, 0.0), v(0.0, h[1], 0.0), v(0.0, 0.0, h[2])]).unwrap())
}

/// The double nearest to max(0, √x − r), from ⌊√(x·4^k)⌋ with k = 400 bits:
/// √x lies in [s, s + 2^-400]; both ends must round to the same double (they
/// do unless √x − r is within 2^-400 of a rounding midpoint, which an
/// irrational value never is); when x·4^k·d is a perfect square, √x is the
/// rational lo itself.
fn nearest_reference(x: &Q, r: &Q) -> f64 {
    let k = 400u32;
    let scale = BigInt::one() << (2 * k);
    let n = x.numer() * &scale;
    // √(n/d) = √(n·d)/d
    let nd = &n * x.denom();
    let s = nd.sqrt();
    let exact = &s * &s == nd;
    let lo = Q::new(s.clone(), x.denom() * (BigInt::one() << k));
    let hi = Q::new(s + 1, x.denom() * (BigInt::one() << k));
    let f = |t: Q| {
        let d = t - r;
        if d <= Q::zero() {
            0.0
        } else {
            rational_to_f64(&d)
        }
    };
    if exact {
        // √x = lo exactly: a rational distance, rounded once (ties to even).
        return f(lo);
    }
    let (a, b) = (f(lo), f(hi));
    assert_eq!(a, b, "the reference interval straddles a rounding boundary");
    a
}

#[test]
fn spheres_worked_by_hand() {
    // Centers 3 apart, radii 1 and 1: q = 9, R = 2, distance 1, closest (1,0,0), (2,0,0).
    let a = Rounded::sphere(v(0.0, 0.0, 0.0), 1.0).unwrap();
    let b = Rounded::sphere(v(3.0, 0.0, 0.0), 1.0).unwrap();
    let c = distance_exact(&a, &b).unwrap();
    assert_eq!(c.core.distance_squared, q(9.0));
    assert_eq!(c.radius, q(2.0));
    assert!(!c.intersects());
    assert_eq!(c.distance_f64(), 1.0);
    let (pa, pb) = c.exact_points(&q(1.0), &q(1.0)).unwrap();
    assert_eq!(pa, Vec3::new(q(1.0), q(0.0), q(0.0)));
    assert_eq!(pb, Vec3::new(q(2.0), q(0.0), q(0.0)));
    assert_eq!(c.witness(&q(1.0)), None);

    // Touching: centers 2 apart, radii 1 and 1: q = R² = 4, distance 0, witness (1,0,0).
    let b = Rounded::sphere(v(2.0, 0.0, 0.0), 1.0).unwrap();
    let c = distance_exact(&a, &b).unwrap();
    assert!(c.intersects());
    assert!(intersects(&a, &b).unwrap());
    assert_eq!(c.distance_f64(), 0.0);
    assert_eq!(c.witness(&q(1.0)), Some(Vec3::new(q(1.0), q(0.0), q(0.0))));

    // Radii 3 and 1 with centers 2 apart overlap; the witness p_a + (3/4)(p_b − p_a)
    // = (3/2, 0, 0) is within 3 of a's center and 1/2 ≤ 1 of b's.
    let a3 = Rounded::sphere(v(0.0, 0.0, 0.0), 3.0).unwrap();
    let c = distance_exact(&a3, &b).unwrap();
    assert_eq!(c.witness(&q(3.0)), Some(Vec3::new(q(1.5), q(0.0), q(0.0))));
}

#[test]
fn irrational_distance_is_the_nearest_double() {
    // √2 − 1 = 0.41421356237309504880…: the nearest double is 0.41421356237309503
    // (its neighbours 0.414213562373095…04 and …98 are farther, checked by the reference).
    let a = Rounded::sphere(v(0.0, 0.0, 0.0), 1.0).unwrap();
    let b = Rounded::sphere(v(1.0, 1.0, 0.0), 0.0).unwrap();
    let c = distance_exact(&a, &b).unwrap();
    assert_eq!(c.distance().to_string(), "√(2) − 1");
    assert_eq!(c.distance_f64(), nearest_reference(&q(2.0), &q(1.0)));
    assert_eq!(c.exact_points(&q(1.0), &q(0.0)), None);
}

#[test]
fn one_ulp_apart_and_overlapping() {
    let e = f64::EPSILON * 2.0; // one ulp of 2
    let a = Rounded::sphere(v(0.0, 0.0, 0.0), 1.0).unwrap();
    let apart = Rounded::sphere(v(2.0 + e, 0.0, 0.0), 1.0).unwrap();
    let c = distance_exact(&a, &apart).unwrap();
    assert!(!c.intersects());
    assert_eq!(c.distance_f64(), e); // √q − R = (2 + e) − 2 exactly
    let over = Rounded::sphere(v(2.0 - e / 2.0, 0.0, 0.0), 1.0).unwrap(); // one ulp below 2
    assert!(intersects(&a, &over).unwrap());
    assert_eq!(distance_exact(&a, &over).unwrap().distance_f64(), 0.0);
}

#[test]
fn capsules_parallel_collinear_and_degenerate() {
    // Parallel axes one apart, radii 1/2 and 1/4: distance 1/4.
    let a = Rounded::capsule(v(0.0, 0.0, 0.0), v(1.0, 0.0, 0.0), 0.5).unwrap();
    let b = Rounded::capsule(v(0.0, 1.0, 0.0), v(1.0, 1.0, 0.0), 0.25).unwrap();
    let c = distance_exact(&a, &b).unwrap();
    assert_eq!(c.core.distance_squared, q(1.0));
    assert_eq!(c.distance_f64(), 0.25);
    // Collinear axes with a gap of 1: [0,1] and [2,3] on x, radii 1/2 each: touching.
    let b = Rounded::capsule(v(2.0, 0.0, 0.0), v(3.0, 0.0, 0.0), 0.5).unwrap();
    let c = distance_exact(&a, &b).unwrap();
    assert!(c.intersects());
    assert_eq!(c.witness(&q(0.5)), Some(Vec3::new(q(1.5), q(0.0), q(0.0))));
    // A degenerate capsule (a = b) is the sphere.
    let s = Rounded::sphere(v(2.0, 2.0, 0.0), 0.5).unwrap();
    let d = Rounded::capsule(v(2.0, 2.0, 0.0), v(2.0, 2.0, 0.0), 0.5).unwrap();
    assert_eq!(
        distance_exact(&a, &s).unwrap(),
        distance_exact(&a, &d).unwrap()
    );
    // Point (1,2,0) to segment [0,1]×{0}: q = 1 + 4 = 5; radii 1/2 + 1/2: √5 − 1.
    assert_eq!(
        distance_exact(&a, &s).unwrap().distance_f64(),
        nearest_reference(&q(5.0), &q(1.0))
    );
}

#[test]
fn sphere_and_rounded_box() {
    let unit = aabb(v(0.0, 0.0, 0.0), [1.0, 1.0, 1.0]);
    // Center inside the box: the cores meet, distance 0.
    let inside = Rounded::sphere(v(0.25, -0.5, 0.0), 0.1).unwrap();
    let rb = Rounded::new(unit.clone(), 0.0).unwrap();
    let c = distance_exact(&inside, &rb).unwrap();
    assert!(c.core.distance_squared.is_zero());
    assert_eq!(
        c.witness(&q(0.1)),
        Some(Vec3::new(q(0.25), q(-0.5), q(0.0)))
    );
    // A box rounded by 1/2 and a sphere of radius 1/2 at (3, 3, 0): the cores' gap is
    // (2, 2, 0), q = 8, distance √8 − 1.
    let rb = Rounded::new(unit, 0.5).unwrap();
    let s = Rounded::sphere(v(3.0, 3.0, 0.0), 0.5).unwrap();
    let c = distance_exact(&s, &rb).unwrap();
    assert_eq!(c.core.distance_squared, q(8.0));
    assert_eq!(c.distance_f64(), nearest_reference(&q(8.0), &q(1.0)));
}

#[test]
fn radius_errors_name_the_field() {
    let e = Rounded::sphere(v(0.0, 0.0, 0.0), -0.5).unwrap_err();
    assert_eq!(
        (e.field.as_str(), e.defect.as_str()),
        ("radius", "negative radius")
    );
    let e = Rounded::capsule(v(0.0, 0.0, 0.0), v(1.0, 0.0, 0.0), f64::NAN).unwrap_err();
    assert_eq!(e.field, "radius");
    assert!(Rounded::sphere(v(0.0, 0.0, 0.0), f64::INFINITY).is_err());
    assert!(Rounded::sphere(v(0.0, 0.0, 0.0), 0.0).is_ok());
}

/// Point cores against axis-aligned boxes and other points, at scales 2^±40,
/// against the clamping formula: the same q, the same decision, the nearest double.
#[test]
fn random_spheres_and_boxes_against_closed_formulas() {
    let mut s = 0x9e37_79b9_7f4a_7c15u64;
    let mut next = move || {
        s ^= s << 13;
        s ^= s >> 7;
        s ^= s << 17;
        (s >> 11) as f64 / (1u64 << 53) as f64
    };
    for i in 0..300 {
        let scale = [1.0, 2f64.powi(40), 2f64.powi(-40)][i % 3];
        let g = |x: f64| (x - 0.5) * 6.0 * scale;
        let c = v(g(next()), g(next()), g(next()));
        let h = [next() * scale, next() * scale, next() * scale];
        let p = v(g(next()), g(next()), g(next()));
        let (ra, rb) = (next() * scale, next() * scale);
        let sphere = Rounded::sphere(p.clone(), ra).unwrap();
        let rbox = Rounded::new(aabb(c.clone(), h), rb).unwrap();
        // Independent: the clamped difference per axis.
        let mut want = Q::zero();
        for (pk, ck, hk) in [(p.x, c.x, h[0]), (p.y, c.y, h[1]), (p.z, c.z, h[2])] {
            let d = q(pk) - q(ck);
            let out = if d > q(hk) {
                d - q(hk)
            } else if d < -q(hk) {
                d + q(hk)
            } else {
                Q::zero()
            };
            want += &out * &out;
        }
        let r = q(ra) + q(rb);
        let got = distance_exact(&sphere, &rbox).unwrap();
        assert_eq!(got.core.distance_squared, want, "case {i}");
        assert_eq!(got.intersects(), want <= &r * &r, "case {i}");
        assert_eq!(got.distance_f64(), nearest_reference(&want, &r), "case {i}");
        // Two spheres: q = |p − c|².
        let other = Rounded::sphere(c.clone(), rb).unwrap();
        let d2 = [(p.x, c.x), (p.y, c.y), (p.z, c.z)]
            .iter()
            .map(|&(a, b)| (q(a) - q(b)) * (q(a) - q(b)))
            .fold(Q::zero(), |s, t| s + t);
        let got = distance_exact(&sphere, &other).unwrap();
        assert_eq!(got.core.distance_squared, d2, "case {i}");
        assert_eq!(got.distance_f64(), nearest_reference(&d2, &r), "case {i}");
    }
}

/// The protocol's forms (docs/protocol.md, "sphere", "capsule", "radius"),
/// answers worked by hand.
#[test]
fn protocol_lines() {
    use exact_collision::protocol::answer_bytes;
    let ans = |line: &str| {
        let mut out = Vec::new();
        answer_bytes(line.as_bytes(), 1, &mut out);
        let v: serde_json::Value = serde_json::from_slice(&out).unwrap();
        v
    };
    // √2 − 1: cores (0,0,0) and (1,1,0), radii 1 and 0.
    let v = ans(
        r#"{"op":"distance","a":{"type":"sphere","center":[0,0,0],"radius":1},"b":{"type":"sphere","center":[1,1,0],"radius":0}}"#,
    );
    assert_eq!(v["distance"], serde_json::json!({"sqrt":"2","minus":"1"}));
    assert_eq!(v["intersect"], false);
    assert_eq!(
        v["core_closest"],
        serde_json::json!([["0", "0", "0"], ["1", "1", "0"]])
    );
    assert!(v.get("closest").is_none()); // irrational closest points
                                         // A capsule [0,1]×{0} of radius 1/2 and a box [3,5]×[−1,1]² rounded by 1/2: q = 4,
                                         // distance 1, closest points (3/2, 0, 0) and (5/2, 0, 0).
    let v = ans(
        r#"{"op":"distance","a":{"type":"capsule","a":[0,0,0],"b":[1,0,0],"radius":0.5},"b":{"type":"box","center":[4,0,0],"half_axes":[[1,0,0],[0,1,0],[0,0,1]],"radius":"1/2"}}"#,
    );
    assert_eq!(v["distance_f64"], 1.0);
    assert_eq!(
        v["closest"],
        serde_json::json!([["3/2", "0", "0"], ["5/2", "0", "0"]])
    );
    // Touching: the box moved to [2,4]: witness (3/2, 0, 0).
    let v = ans(
        r#"{"op":"intersect","a":{"type":"capsule","a":[0,0,0],"b":[1,0,0],"radius":0.5},"b":{"type":"box","center":[3,0,0],"half_axes":[[1,0,0],[0,1,0],[0,0,1]],"radius":"1/2"}}"#,
    );
    assert_eq!(v["intersect"], true);
    assert_eq!(v["witness"], serde_json::json!(["3/2", "0", "0"]));
    // A triangle with a radius against a plain triangle 1 above: 1 − 1/4.
    let v = ans(
        r#"{"op":"distance","a":{"type":"triangle","v":[[0,0,0],[1,0,0],[0,1,0]],"radius":"1/4"},"b":{"type":"triangle","v":[[0,0,1],[1,0,1],[0,1,1]]}}"#,
    );
    assert_eq!(v["distance_f64"], 0.75);
    // Errors name the field.
    let v = ans(
        r#"{"op":"distance","a":{"type":"sphere","center":[0,0,0],"radius":-1},"b":{"type":"sphere","center":[1,1,0],"radius":0}}"#,
    );
    assert_eq!(v["error"], "a.radius: negative radius");
    let v = ans(
        r#"{"op":"intersect","a":{"type":"capsule","a":[0,0,0],"radius":1},"b":{"type":"sphere","center":[1,1,0],"radius":0}}"#,
    );
    assert_eq!(v["error"], "a.b: missing");
    // Claims: the nearest double agrees; 1e-7 off disagrees under the default 1e-9.
    let v = ans(
        r#"{"op":"distance","a":{"type":"sphere","center":[0,0,0],"radius":1},"b":{"type":"sphere","center":[1,1,0],"radius":0},"claim":{"distance_f64":0.41421356237309503,"intersect":false}}"#,
    );
    assert_eq!(v["verdict"], "agree");
    let v = ans(
        r#"{"op":"distance","a":{"type":"sphere","center":[0,0,0],"radius":1},"b":{"type":"sphere","center":[1,1,0],"radius":0},"claim":{"distance_f64":0.4142136}}"#,
    );
    assert_eq!(v["verdict"], "disagree");
    // Within an absolute tolerance of 1e-6 it agrees (0.4142136 − (√2 − 1) ≈ 3.8e-8).
    let v = ans(
        r#"{"op":"distance","a":{"type":"sphere","center":[0,0,0],"radius":1},"b":{"type":"sphere","center":[1,1,0],"radius":0},"claim":{"distance_f64":0.4142136,"abs_tol":1e-6}}"#,
    );
    assert_eq!(v["verdict"], "agree");
}

fn convex(points: &[[f64; 3]], r: f64) -> Rounded<f64> {
    let p: Vec<Vec3<f64>> = points.iter().map(|c| v(c[0], c[1], c[2])).collect();
    Rounded::convex(&p, r).unwrap()
}

#[test]
fn convex_hulls_worked_by_hand() {
    // The unit cube's corners plus interior and repeated points, against the box
    // [2.5, 3.5] × [0, 1]²: gap 3/2 along x.
    let mut pts: Vec<[f64; 3]> = (0..8)
        .map(|i| [(i & 1) as f64, (i >> 1 & 1) as f64, (i >> 2 & 1) as f64])
        .collect();
    pts.extend([
        [0.5, 0.5, 0.5],
        [0.25, 0.75, 0.5],
        [1.0, 1.0, 1.0],
        [0.5, 0.5, 1.0],
    ]);
    let cube = convex(&pts, 0.0);
    let bx = Rounded::new(aabb(v(3.0, 0.5, 0.5), [0.5, 0.5, 0.5]), 0.0).unwrap();
    let c = distance_exact(&cube, &bx).unwrap();
    assert_eq!(c.core.distance_squared, q(2.25));
    assert_eq!(c.distance_f64(), 1.5);
    // A sphere well inside a large hull: no face is near it, still they meet.
    let big = convex(
        &(0..8)
            .map(|i| {
                [
                    4.0 * (i & 1) as f64 - 2.0,
                    4.0 * (i >> 1 & 1) as f64 - 2.0,
                    4.0 * (i >> 2 & 1) as f64 - 2.0,
                ]
            })
            .collect::<Vec<_>>(),
        0.0,
    );
    let s = Rounded::sphere(v(0.1, 0.2, 0.3), 0.1).unwrap();
    let c = distance_exact(&big, &s).unwrap();
    assert!(c.intersects());
    assert!(c.core.distance_squared.is_zero());
    // Coplanar input is a flat polygon: the unit square at z = 0, a point above its
    // middle at height 1, and one beside it at (2, 0.5, 0) (gap 1 in the plane).
    let square = convex(
        &[
            [0.0, 0.0, 0.0],
            [1.0, 0.0, 0.0],
            [1.0, 1.0, 0.0],
            [0.0, 1.0, 0.0],
            [0.5, 0.5, 0.0],
        ],
        0.0,
    );
    let above = Rounded::sphere(v(0.5, 0.5, 1.0), 0.0).unwrap();
    assert_eq!(
        distance_exact(&square, &above)
            .unwrap()
            .core
            .distance_squared,
        q(1.0)
    );
    let beside = Rounded::sphere(v(2.0, 0.5, 0.0), 0.25).unwrap();
    assert_eq!(
        distance_exact(&square, &beside).unwrap().distance_f64(),
        0.75
    );
    // Collinear input is a segment: [0, 2] on x; the point (1, 1, 0) is 1 away.
    let seg = convex(&[[0.0, 0.0, 0.0], [2.0, 0.0, 0.0], [1.0, 0.0, 0.0]], 0.0);
    let p = Rounded::sphere(v(1.0, 1.0, 0.0), 0.0).unwrap();
    assert_eq!(
        distance_exact(&seg, &p).unwrap().core.distance_squared,
        q(1.0)
    );
    // Two tetrahedra: the unit corner tetrahedron and its copy shifted by 3 along x:
    // the closest pair is (1,0,0)–(3,0,0), distance 2; with radii 1/2 each, 1.
    let t = [
        [0.0, 0.0, 0.0],
        [1.0, 0.0, 0.0],
        [0.0, 1.0, 0.0],
        [0.0, 0.0, 1.0],
    ];
    let t2: Vec<[f64; 3]> = t.iter().map(|p| [p[0] + 3.0, p[1], p[2]]).collect();
    let c = distance_exact(&convex(&t, 0.5), &convex(&t2, 0.5)).unwrap();
    assert_eq!(c.core.distance_squared, q(4.0));
    assert_eq!(c.distance_f64(), 1.0);
    // Too many points, no points, a negative radius: errors naming the field.
    let many = vec![v(0.0, 0.0, 0.0); 10_001];
    assert_eq!(Rounded::convex(&many, 0.0).unwrap_err().field, "points");
    assert_eq!(
        Rounded::convex(&[] as &[Vec3<f64>], 0.0).unwrap_err().field,
        "points"
    );
    assert_eq!(
        Rounded::convex(&[v(0.0, 0.0, 0.0)], -1.0)
            .unwrap_err()
            .field,
        "radius"
    );
}

/// Random hulls against points: the reported closest pair satisfies the
/// optimality conditions, checked exactly and independently of how it was
/// found: p_a is in the hull (every face plane), and every input point x has
/// (x − p_a)·(p_b − p_a) ≤ 0 (the plane through p_a orthogonal to p_b − p_a
/// supports the hull), so |p_b − p_a| is the distance.
#[test]
fn random_hull_point_pairs_satisfy_the_optimality_conditions() {
    let mut s = 0x2545_f491_4f6c_dd1du64;
    let mut next = move || {
        s ^= s << 13;
        s ^= s >> 7;
        s ^= s << 17;
        (s >> 11) as f64 / (1u64 << 53) as f64
    };
    for i in 0..60 {
        let n = 4 + i % 13;
        let pts: Vec<Vec3<f64>> = (0..n)
            .map(|_| v(next() * 2.0 - 1.0, next() * 2.0 - 1.0, next() * 2.0 - 1.0))
            .collect();
        let hull = Rounded::convex(&pts, 0.0).unwrap();
        let p = v(next() * 6.0 - 3.0, next() * 6.0 - 3.0, next() * 6.0 - 3.0);
        let c = distance_exact(&hull, &Rounded::sphere(p.clone(), 0.0).unwrap()).unwrap();
        let (pa, pb) = (&c.core.a, &c.core.b);
        assert_eq!(*pb, Vec3::new(q(p.x), q(p.y), q(p.z)), "case {i}");
        let d = Vec3::new(&pb.x - &pa.x, &pb.y - &pa.y, &pb.z - &pa.z);
        let dot = |x: &Vec3<Q>, y: &Vec3<Q>| &x.x * &y.x + &x.y * &y.y + &x.z * &y.z;
        assert_eq!(dot(&d, &d), c.core.distance_squared, "case {i}");
        let h = exact_collision::hull::convex_hull(&pts).unwrap();
        if c.core.distance_squared.is_zero() {
            assert!(h.face_planes().all(|f| f.eval(pb) <= Q::zero()), "case {i}");
            continue;
        }
        assert!(
            h.face_planes().all(|f| f.eval(pa) <= Q::zero()),
            "case {i}: p_a outside"
        );
        for x in &pts {
            let xq = Vec3::new(q(x.x), q(x.y), q(x.z));
            let rel = Vec3::new(&xq.x - &pa.x, &xq.y - &pa.y, &xq.z - &pa.z);
            assert!(
                dot(&rel, &d) <= Q::zero(),
                "case {i}: not a supporting plane"
            );
        }
    }
}
