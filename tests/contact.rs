//! Exact contact (penetration depth, normals, contact region): hand-derived
//! cases, the protocol op, claims, and an independent check of δ² by the
//! exact convex hull of the vertex differences (the Minkowski difference).

use exact_collision::hull::convex_hull;
use exact_collision::protocol::answer_line;
use exact_collision::query::polytope::contact::{candidates, overlap_along, Penetration};
use exact_collision::query::polytope::Polytope;
use exact_collision::query::triangle_triangle::Contact as Region;
use exact_collision::query::{contact, intersect_exact, ContactAnswer};
use exact_collision::{Obb, Prism, Scalar, Shape, Triangle, Vec2, Vec3};
use num_bigint::BigInt;
use num_rational::BigRational;
use num_traits::{One, Zero};
use proptest::prelude::*;
use serde_json::Value;

type Q = BigRational;

fn r(n: i64, d: i64) -> Q {
    Q::new(n.into(), d.into())
}
fn i(n: i64) -> Q {
    Q::from_integer(n.into())
}
fn v(x: Q, y: Q, z: Q) -> Vec3<Q> {
    Vec3::new(x, y, z)
}
fn vi(x: i64, y: i64, z: i64) -> Vec3<Q> {
    v(i(x), i(y), i(z))
}
fn boxq(c: Vec3<Q>, h: [Vec3<Q>; 3]) -> Shape<Q> {
    Shape::Box(Obb::new(c, h).unwrap())
}
/// The axis-aligned box with half extents (hx, hy, hz).
fn aabb(c: Vec3<Q>, hx: Q, hy: Q, hz: Q) -> Shape<Q> {
    let z = Q::zero;
    boxq(c, [v(hx, z(), z()), v(z(), hy, z()), v(z(), z(), hz)])
}

fn meeting(a: &Shape<Q>, b: &Shape<Q>) -> Penetration {
    match contact(a, b).unwrap() {
        ContactAnswer::Meeting(p) => *p,
        ContactAnswer::Apart(_) => panic!("expected the shapes to meet"),
    }
}

fn translated(s: &Shape<Q>, t: &Vec3<Q>) -> Shape<Q> {
    match s {
        Shape::Box(b) => Shape::Box(Obb::new(b.center.add(t), b.half_axes.clone()).unwrap()),
        Shape::Triangle(tr) => Shape::Triangle(Triangle::new(tr.v.clone().map(|p| p.add(t)))),
        Shape::Prism(p) => Shape::Prism(
            Prism::new(
                p.base.clone().map(|q| Vec2::new(&q.x + &t.x, &q.y + &t.y)),
                &p.zmin + &t.z,
                &p.zmax + &t.z,
            )
            .unwrap(),
        ),
        Shape::Cube(c) => translated(&Shape::Box(c.obb().clone()), t),
    }
}

/// The consistency of a penetration answer: |t|² = δ²; t is parallel to the
/// normal and points along it; b moved by t touches a (they meet, and the
/// overlap along the normal is 0); no candidate direction needs less than δ;
/// every region vertex lies in a and in the moved b.
fn check_consistent(a: &Shape<Q>, b: &Shape<Q>, p: &Penetration) {
    let t = &p.translation;
    assert_eq!(t.norm_squared(), p.depth_squared, "|t|² = δ²");
    let n = p.normal();
    assert!(t.cross(n).norm_squared().is_zero(), "t ∥ n");
    assert!(t.dot(n) >= Q::zero(), "t along n");
    let moved = translated(b, t);
    assert!(
        intersect_exact(a, &moved).unwrap().intersects(),
        "b + t touches a"
    );
    let (pa, pm, pb) = (Polytope::new(a), Polytope::new(&moved), Polytope::new(b));
    for m in &p.normals {
        // Every reported normal needs exactly δ.
        let (pos, o2) = overlap_along(&pa, &pb, m);
        assert!(pos);
        assert_eq!(o2, p.depth_squared);
    }
    let (pos, o2) = overlap_along(&pa, &pm, n);
    assert!(
        pos && o2.is_zero(),
        "after the move the overlap along n is 0"
    );
    for c in candidates(&pa, &pb) {
        for d in [c.clone(), c.neg()] {
            let (pos, o2) = overlap_along(&pa, &pb, &d);
            assert!(pos, "meeting shapes overlap along every direction");
            assert!(o2 >= p.depth_squared, "no candidate needs less than δ");
        }
    }
    for x in p.region.points() {
        assert!(a.contains(&x), "region vertex {x:?} in a");
        assert!(moved.contains(&x), "region vertex {x:?} in b + t");
    }
}

/// δ² by a second method: the exact convex hull of the vertex differences
/// a_i − b_j (the Minkowski difference a − b) and the least squared distance
/// from the origin to its facet planes; 0 when the hull is not solid.
fn depth_squared_by_hull(a: &Shape<Q>, b: &Shape<Q>) -> Q {
    let (va, vb) = (a.vertices(), b.vertices());
    let mut diffs = Vec::new();
    for x in &va {
        for y in &vb {
            diffs.push(x.sub(y));
        }
    }
    let h = convex_hull(&diffs).unwrap();
    if h.dim() < 3 {
        return Q::zero();
    }
    h.face_planes()
        .map(|pl| {
            let n = pl.normal.clone().map(|c| Q::from_integer(c.clone()));
            // The origin is inside: its value n·0 − offset ≤ 0.
            let o = pl.offset.clone();
            assert!(o >= Q::zero(), "the origin is in the difference");
            &o * &o / n.norm_squared()
        })
        .min()
        .unwrap()
}

fn region_points(p: &Penetration) -> Vec<Vec3<Q>> {
    let mut pts = p.region.points();
    pts.sort_by(|a, b| (&a.x, &a.y, &a.z).cmp(&(&b.x, &b.y, &b.z)));
    pts
}

#[test]
fn resting_boxes_with_a_tiny_overlap() {
    // a = [−1, 1]³; b = a moved up by 2 − ε: they overlap by ε = 2⁻³⁰ along z.
    let eps = r(1, 1 << 30);
    let a = aabb(vi(0, 0, 0), i(1), i(1), i(1));
    let b = aabb(v(i(0), i(0), i(2) - &eps), i(1), i(1), i(1));
    let p = meeting(&a, &b);
    assert_eq!(p.depth_squared, &eps * &eps);
    assert_eq!(p.normals, vec![vi(0, 0, 1)]);
    assert_eq!(p.translation, v(i(0), i(0), eps.clone()));
    // The region: a's whole top face (b's bottom face moved onto it).
    match &p.region {
        Region::Polygon(vs) => assert_eq!(vs.len(), 4),
        other => panic!("expected the top square, got {other:?}"),
    }
    let mut want = vec![vi(-1, -1, 1), vi(-1, 1, 1), vi(1, -1, 1), vi(1, 1, 1)];
    want.sort_by(|a, b| (&a.x, &a.y, &a.z).cmp(&(&b.x, &b.y, &b.z)));
    assert_eq!(region_points(&p), want);
    check_consistent(&a, &b, &p);
}

#[test]
fn fcl_cube_turned_about_y_exact_rotation() {
    // A unit cube turned about y by θ with cos θ = 20/29, sin θ = 21/29 (near
    // 45°), its centre on the top face z = 0 of a 20 × 20 × 10 box. Its lowest
    // edge is at z = −(cos θ + sin θ)/2 = −41/58, at x = (cos θ − sin θ)/2 = −1/58:
    // δ = 41/58, normal +z, region that edge lifted onto z = 0.
    let (c, s) = (r(20, 29), r(21, 29));
    let half = r(1, 2);
    let a = aabb(vi(0, 0, -5), i(10), i(10), i(5));
    let b = boxq(
        vi(0, 0, 0),
        [
            v(&c * &half, i(0), -(&s * &half)),
            v(i(0), half.clone(), i(0)),
            v(&s * &half, i(0), &c * &half),
        ],
    );
    let p = meeting(&a, &b);
    assert_eq!(p.depth_squared, r(41 * 41, 58 * 58));
    assert_eq!(p.normals, vec![vi(0, 0, 1)]);
    match &p.region {
        Region::Segment(x, y) => {
            let mut e = [x.clone(), y.clone()];
            e.sort_by(|a, b| a.y.cmp(&b.y));
            assert_eq!(e[0], v(r(-1, 58), r(-1, 2), i(0)));
            assert_eq!(e[1], v(r(-1, 58), r(1, 2), i(0)));
        }
        other => panic!("expected a segment, got {other:?}"),
    }
    check_consistent(&a, &b, &p);
    assert_eq!(p.depth_squared, depth_squared_by_hull(&a, &b));
}

fn answer(line: &str) -> Value {
    answer_line(line, 1).value
}

fn exact(v: &Value) -> Q {
    let s = v.as_str().unwrap();
    match s.split_once('/') {
        Some((n, d)) => Q::new(n.parse::<BigInt>().unwrap(), d.parse::<BigInt>().unwrap()),
        None => Q::from_integer(s.parse::<BigInt>().unwrap()),
    }
}

#[test]
fn fcl_cube_turned_45_degrees_by_a_quaternion_of_doubles() {
    // The rotation by 45° about y as the quaternion (cos 22.5°, 0, sin 22.5°, 0)
    // in doubles: exactly the rotation by θ with cos θ = (w² − y²)/(w² + y²),
    // sin θ = 2wy/(w² + y²), so δ = (cos θ + sin θ)/2 exactly (as above).
    let (w, y) = (
        std::f64::consts::FRAC_PI_8.cos(),
        std::f64::consts::FRAC_PI_8.sin(),
    );
    let line = format!(
        r#"{{"op":"contact","a":{{"type":"box","center":[0,0,-5],"half_axes":[[10,0,0],[0,10,0],[0,0,5]]}},"b":{{"type":"box","half_extents":[0.5,0.5,0.5],"rotation":{{"quaternion":[{w:?},0,{y:?},0]}},"translation":[0,0,0]}}}}"#
    );
    let ans = answer(&line);
    assert_eq!(ans["intersect"], Value::Bool(true), "{ans}");
    let (wq, yq) = (w.to_rational(), y.to_rational());
    let n2 = &wq * &wq + &yq * &yq;
    let depth = (&wq * &wq - &yq * &yq + i(2) * &wq * &yq) / (i(2) * &n2);
    assert_eq!(exact(&ans["depth_squared"]), &depth * &depth);
    let d = ans["depth_f64"].as_f64().unwrap();
    let want = std::f64::consts::FRAC_1_SQRT_2;
    assert!(
        (d - want).abs() <= 2.0 * f64::EPSILON * want,
        "depth {d} against √2/2 = {want}"
    );
    assert_eq!(ans["normal"], serde_json::json!(["0", "0", "1"]));
    assert_eq!(ans["contact"]["kind"], "segment");
}

#[test]
fn concentric_equal_cubes_have_six_normals() {
    let a = aabb(vi(0, 0, 0), r(1, 2), r(1, 2), r(1, 2));
    let p = meeting(&a, &a);
    assert_eq!(p.depth_squared, i(1));
    let mut ns = p.normals.clone();
    ns.sort_by(|a, b| (&a.x, &a.y, &a.z).cmp(&(&b.x, &b.y, &b.z)));
    let mut want = vec![
        vi(1, 0, 0),
        vi(-1, 0, 0),
        vi(0, 1, 0),
        vi(0, -1, 0),
        vi(0, 0, 1),
        vi(0, 0, -1),
    ];
    want.sort_by(|a, b| (&a.x, &a.y, &a.z).cmp(&(&b.x, &b.y, &b.z)));
    assert_eq!(ns, want);
    match &p.region {
        Region::Polygon(vs) => assert_eq!(vs.len(), 4),
        other => panic!("expected a square, got {other:?}"),
    }
    check_consistent(&a, &a, &p);
}

#[test]
fn edge_edge_crossing_normal_is_the_edge_cross_product() {
    // a: ridge on top along x (half-axes (4,0,0), (0,1,1), (0,−1,1)): top edge
    // z = 2, y = 0. b: ridge underneath along y (half-axes (1,0,1), (−1,0,1),
    // (0,4,0)) centred at z = 7/2: bottom edge z = 3/2, x = 0. Every face
    // direction needs ≥ 9/(2√2) > 1/2; the edge cross product (4,0,0) × (0,4,0)
    // ∥ (0,0,1) needs 2 − 3/2 = 1/2. The region: the edges' crossing (0,0,2).
    let a = boxq(vi(0, 0, 0), [vi(4, 0, 0), vi(0, 1, 1), vi(0, -1, 1)]);
    let b = boxq(
        v(i(0), i(0), r(7, 2)),
        [vi(1, 0, 1), vi(-1, 0, 1), vi(0, 4, 0)],
    );
    let p = meeting(&a, &b);
    assert_eq!(p.depth_squared, r(1, 4));
    assert_eq!(p.normals, vec![vi(0, 0, 1)]);
    assert_eq!(p.region, Region::Point(vi(0, 0, 2)));
    check_consistent(&a, &b, &p);
    assert_eq!(p.depth_squared, depth_squared_by_hull(&a, &b));
}

#[test]
fn touching_faces_have_depth_zero() {
    let a = aabb(v(r(1, 2), r(1, 2), r(1, 2)), r(1, 2), r(1, 2), r(1, 2));
    let b = aabb(v(r(3, 2), r(1, 2), r(1, 2)), r(1, 2), r(1, 2), r(1, 2));
    let p = meeting(&a, &b);
    assert!(p.depth_squared.is_zero());
    assert_eq!(p.normals, vec![vi(1, 0, 0)]);
    let mut want = vec![vi(1, 0, 0), vi(1, 0, 1), vi(1, 1, 0), vi(1, 1, 1)];
    want.sort_by(|a, b| (&a.x, &a.y, &a.z).cmp(&(&b.x, &b.y, &b.z)));
    assert_eq!(region_points(&p), want);
    check_consistent(&a, &b, &p);
}

#[test]
fn coplanar_flat_triangles_have_depth_zero() {
    let a = Shape::Triangle(Triangle::new([vi(0, 0, 0), vi(4, 0, 0), vi(0, 4, 0)]));
    let b = Shape::Triangle(Triangle::new([vi(1, 1, 0), vi(5, 1, 0), vi(1, 5, 0)]));
    let p = meeting(&a, &b);
    assert!(p.depth_squared.is_zero());
    // The plane normal, both ways; the region the overlap triangle
    // (1,1), (3,1), (1,3).
    assert!(p.normals.contains(&vi(0, 0, 1)) && p.normals.contains(&vi(0, 0, -1)));
    let mut want = vec![vi(1, 1, 0), vi(1, 3, 0), vi(3, 1, 0)];
    want.sort_by(|a, b| (&a.x, &a.y, &a.z).cmp(&(&b.x, &b.y, &b.z)));
    assert_eq!(region_points(&p), want);
}

#[test]
fn one_ulp_of_overlap() {
    // b's centre at the double below 1: the unit cubes overlap by 2⁻⁵³ along x.
    let x = 1.0f64.next_down();
    let line = format!(
        r#"{{"op":"contact","a":{{"type":"box","center":[0,0,0],"half_axes":[[0.5,0,0],[0,0.5,0],[0,0,0.5]]}},"b":{{"type":"box","center":[{x:?},0,0],"half_axes":[[0.5,0,0],[0,0.5,0],[0,0,0.5]]}}}}"#
    );
    let ans = answer(&line);
    let ulp = Q::new(BigInt::one(), BigInt::one() << 53);
    assert_eq!(exact(&ans["depth_squared"]), &ulp * &ulp, "{ans}");
    assert_eq!(ans["depth_f64"].as_f64().unwrap(), 2f64.powi(-53));
    assert_eq!(ans["normal"], serde_json::json!(["1", "0", "0"]));
    assert_eq!(ans["normals"].as_array().unwrap().len(), 1);
    assert_eq!(ans["contact"]["kind"], "polygon");
    assert_eq!(ans["contact_f64"]["points"][0][0].as_f64().unwrap(), 0.5);
}

#[test]
fn apart_shapes_answer_the_distance_fields() {
    let a = r#"{"type":"box","center":[0,0,0],"half_axes":[[0.5,0,0],[0,0.5,0],[0,0,0.5]]}"#;
    let b = r#"{"type":"box","center":[3,0,0],"half_axes":[[0.5,0,0],[0,0.5,0],[0,0,0.5]]}"#;
    let c = answer(&format!(r#"{{"op":"contact","a":{a},"b":{b}}}"#));
    let d = answer(&format!(r#"{{"op":"distance","a":{a},"b":{b}}}"#));
    assert_eq!(c["intersect"], Value::Bool(false));
    for k in [
        "distance_squared",
        "distance_squared_f64",
        "distance_f64",
        "closest",
    ] {
        assert_eq!(c[k], d[k], "{k}");
    }
    assert_eq!(c["distance_squared"], "4");
    assert!(c.get("depth_squared").is_none());
}

fn contact_line(a: &str, b: &str) -> Value {
    answer(&format!(r#"{{"op":"contact","a":{a},"b":{b}}}"#))
}

#[test]
fn spheres_with_apart_centres_rational() {
    // Centres 1 apart, radii 1 + 1: δ = 2 − 1 = 1 along +x; b moved to
    // (2,0,0) touches a at (1,0,0).
    let c = contact_line(
        r#"{"type":"sphere","center":[0,0,0],"radius":1}"#,
        r#"{"type":"sphere","center":[1,0,0],"radius":1}"#,
    );
    assert_eq!(c["intersect"], Value::Bool(true), "{c}");
    assert_eq!(c["depth"], serde_json::json!({"minus_sqrt":"1","plus":"2"}));
    assert_eq!(c["depth_squared"], "1");
    assert_eq!(c["depth_f64"].as_f64().unwrap(), 1.0);
    assert_eq!(c["normal"], serde_json::json!(["1", "0", "0"]));
    assert_eq!(c["translation"], serde_json::json!(["1", "0", "0"]));
    assert_eq!(
        c["contact"],
        serde_json::json!({"kind":"point","points":[["1","0","0"]]})
    );
}

#[test]
fn spheres_with_an_irrational_depth() {
    // Centres √2 apart, radii 1 + 1: δ = 2 − √2, irrational: no δ², no
    // point; depth_f64 the nearest double, checked against the midpoints to
    // its neighbours: (2 − m⁺)² < 2 < (2 − m⁻)².
    let c = contact_line(
        r#"{"type":"sphere","center":[0,0,0],"radius":1}"#,
        r#"{"type":"sphere","center":[1,1,0],"radius":1}"#,
    );
    assert_eq!(
        c["depth"],
        serde_json::json!({"minus_sqrt":"2","plus":"2"}),
        "{c}"
    );
    assert!(c.get("depth_squared").is_none() && c.get("contact").is_none());
    assert_eq!(c["normal"], serde_json::json!(["1", "1", "0"]));
    let d = c["depth_f64"].as_f64().unwrap();
    let (dq, lo, hi) = (
        d.to_rational(),
        d.next_down().to_rational(),
        d.next_up().to_rational(),
    );
    let (m_lo, m_hi) = ((&lo + &dq) / i(2), (&dq + &hi) / i(2));
    let two = i(2);
    assert!((&two - &m_hi) * (&two - &m_hi) < two);
    assert!(two < (&two - &m_lo) * (&two - &m_lo));
}

#[test]
fn rounded_box_with_meeting_cores() {
    // a: the unit cube grown by 1/4; b: the unit cube at (0,0,3/4). The cores
    // overlap by 1/4 along z: δ = 1/4 + 1/4 = 1/2; the region is the cores'
    // (the square at z = 1/2) moved up by r_a = 1/4; b moves by (0,0,1/2).
    let c = contact_line(
        r#"{"type":"box","center":[0,0,0],"half_axes":[[0.5,0,0],[0,0.5,0],[0,0,0.5]],"radius":0.25}"#,
        r#"{"type":"box","center":[0,0,0.75],"half_axes":[[0.5,0,0],[0,0.5,0],[0,0,0.5]]}"#,
    );
    assert_eq!(
        c["depth"],
        serde_json::json!({"sqrt":"1/16","plus":"1/4"}),
        "{c}"
    );
    assert_eq!(c["depth_squared"], "1/4");
    assert_eq!(c["depth_f64"].as_f64().unwrap(), 0.5);
    assert_eq!(c["normal"], serde_json::json!(["0", "0", "1"]));
    assert_eq!(c["translation"], serde_json::json!(["0", "0", "1/2"]));
    assert_eq!(c["contact"]["kind"], "polygon");
    for p in c["contact"]["points"].as_array().unwrap() {
        assert_eq!(p[2], "3/4");
    }
}

#[test]
fn sphere_deep_in_a_box() {
    // MuJoCo #2206's geometry: a sphere of radius 1/4 centred at depth 1/2
    // below the top face of the box [−1, 1]³: δ = 1/2 + 1/4 = 3/4 along +z,
    // the contact point (0,0,1) on the top face.
    let c = contact_line(
        r#"{"type":"box","center":[0,0,0],"half_axes":[[1,0,0],[0,1,0],[0,0,1]]}"#,
        r#"{"type":"sphere","center":[0,0,0.5],"radius":0.25}"#,
    );
    assert_eq!(
        c["depth"],
        serde_json::json!({"sqrt":"1/4","plus":"1/4"}),
        "{c}"
    );
    assert_eq!(c["depth_squared"], "9/16");
    assert_eq!(c["depth_f64"].as_f64().unwrap(), 0.75);
    assert_eq!(c["normal"], serde_json::json!(["0", "0", "1"]));
    assert_eq!(c["translation"], serde_json::json!(["0", "0", "3/4"]));
    assert_eq!(
        c["contact"],
        serde_json::json!({"kind":"point","points":[["0","0","1"]]})
    );
}

#[test]
fn convex_hulls_answer_as_the_boxes_they_are() {
    // Two unit cubes as point sets, b shifted by 1/2 along x: δ = 1/2 along +x
    // (y and z overlap by 1), the region the square x = 1.
    // The eight corners of [x0, x0 + 1] × [0, 1]², x0 in halves.
    let cube = |x0_halves: i64| {
        let mut pts = Vec::new();
        for k in 0..8 {
            let (x, y, z) = (x0_halves + 2 * (k & 1), (k >> 1) & 1, (k >> 2) & 1);
            pts.push(format!(r#"["{x}/2",{y},{z}]"#));
        }
        format!(r#"{{"type":"convex","points":[{}]}}"#, pts.join(","))
    };
    let c = contact_line(&cube(0), &cube(1));
    assert_eq!(
        c["depth"],
        serde_json::json!({"sqrt":"1/4","plus":"0"}),
        "{c}"
    );
    assert_eq!(c["depth_squared"], "1/4");
    assert_eq!(c["normal"], serde_json::json!(["1", "0", "0"]));
    assert_eq!(c["contact"]["kind"], "polygon");
    for p in c["contact"]["points"].as_array().unwrap() {
        assert_eq!(p[0], "1");
    }
}

#[test]
fn rounded_shapes_apart_answer_the_distance_fields() {
    let (a, b) = (
        r#"{"type":"sphere","center":[0,0,0],"radius":1}"#,
        r#"{"type":"sphere","center":[3,0,0],"radius":1}"#,
    );
    let c = contact_line(a, b);
    let d = answer(&format!(r#"{{"op":"distance","a":{a},"b":{b}}}"#));
    assert_eq!(c, d);
}

#[test]
fn claims_on_depth_normal_and_contact_points() {
    // Two unit cubes overlapping by 1/4 along z: δ = 1/4, normal +z, region
    // the square [−1/2, 1/2]² at z = 1/2, translation (0, 0, 1/4).
    let q = |claim: &str| {
        answer(&format!(
            r#"{{"op":"contact","a":{{"type":"box","center":[0,0,0],"half_axes":[[0.5,0,0],[0,0.5,0],[0,0,0.5]]}},"b":{{"type":"box","center":[0,0,0.75],"half_axes":[[0.5,0,0],[0,0.5,0],[0,0,0.5]]}},"claim":{claim}}}"#
        ))
    };
    let verdict = |claim: &str| q(claim)["verdict"].as_str().unwrap().to_string();
    assert_eq!(verdict(r#"{"depth_f64":0.25}"#), "agree");
    assert_eq!(verdict(r#"{"depth_f64":0.2500001}"#), "disagree");
    assert_eq!(verdict(r#"{"depth_squared":"1/16"}"#), "agree");
    assert_eq!(verdict(r#"{"normal":[0,0,1]}"#), "agree");
    assert_eq!(verdict(r#"{"normal":[0,0,7]}"#), "agree");
    // The wrong way: b would have to move 7/4 down.
    assert_eq!(verdict(r#"{"normal":[0,0,-1]}"#), "disagree");
    // Sideways: overlap 1 along x.
    assert_eq!(verdict(r#"{"normal":[1,0,0]}"#), "disagree");
    // A slightly tilted normal (1e-3, 0, 1): overlap (1/4 + 1e-3)/|n| > 1/4·(1 + 1e-9).
    assert_eq!(verdict(r#"{"normal":[0.001,0,1]}"#), "disagree");
    // Contact points: on a's top face (z = 1/2), on b's bottom face (z = 1/4),
    // in between: all agree; off the swept region: disagree.
    assert_eq!(
        verdict(r#"{"contact":{"points":[[0.5,0.5,0.5],[-0.5,0.1,0.25],[0,0,0.375]]}}"#),
        "agree"
    );
    assert_eq!(verdict(r#"{"contact":[[0.5,0.5,0.5]]}"#), "agree");
    assert_eq!(verdict(r#"{"contact":{"points":[[0,0,0.6]]}}"#), "disagree");
    assert_eq!(
        verdict(r#"{"contact":{"points":[[0.51,0,0.5]]}}"#),
        "disagree"
    );
}

#[test]
fn contact_points_of_any_optimal_normal_agree() {
    // A cube of half extent 1/8 about (1/2, 1/2, 1/2) inside [−1, 1]³: along
    // +x, +y, +z b must move 1 − 3/8 = 5/8 (the other signs need 11/8), so
    // δ = 5/8 with three normals. For +y the translation is (0, 5/8, 0) and
    // the region the square y = 1, x, z ∈ [3/8, 5/8]: coal's kind of answer
    // (normal +y, a point on a's face and its image on b's) agrees, though
    // the answer's first normal is +x; a point for +x mixed with one for +y
    // is 3/8 from the swept region of each and disagrees.
    let q = |claim: &str| {
        answer(&format!(
            r#"{{"op":"contact","a":{{"type":"box","center":[0,0,0],"half_axes":[[1,0,0],[0,1,0],[0,0,1]]}},"b":{{"type":"box","center":[0.5,0.5,0.5],"half_axes":[[0.125,0,0],[0,0.125,0],[0,0,0.125]]}},"claim":{claim}}}"#
        ))
    };
    let verdict = |claim: &str| q(claim)["verdict"].as_str().unwrap().to_string();
    let depth = q(r#"{"depth_squared":"25/64"}"#);
    assert_eq!(depth["verdict"], "agree");
    assert_eq!(depth["normals"].as_array().unwrap().len(), 3);
    assert_eq!(
        verdict(r#"{"normal":[0,1,0],"contact":[[0.4,1,0.45],[0.4,0.375,0.45]]}"#),
        "agree"
    );
    assert_eq!(
        verdict(r#"{"contact":[[1,0.4,0.45],[0.375,0.4,0.45]]}"#),
        "agree"
    );
    assert_eq!(
        verdict(r#"{"contact":[[0.4,1,0.45],[1,0.5,0.5]]}"#),
        "disagree"
    );
}

/// Small random integer shapes: boxes (possibly sheared), triangles, prisms.
fn shape_strategy() -> impl Strategy<Value = Shape<Q>> {
    let c = || -3i64..=3;
    let pt = move || (c(), c(), c()).prop_map(|(x, y, z)| vi(x, y, z));
    let boxes = (pt(), pt(), pt(), pt()).prop_filter_map("a solid box", |(ctr, h0, h1, h2)| {
        Obb::new(ctr, [h0, h1, h2]).ok().map(Shape::Box)
    });
    let tris = (pt(), pt(), pt()).prop_map(|(a, b, c)| Shape::Triangle(Triangle::new([a, b, c])));
    let prisms = (
        0i64..=2,
        1i64..=3,
        -2i64..=2,
        0i64..=2,
        -2i64..=2,
        -2i64..=2,
    )
        .prop_filter_map("a convex prism", |(x0, w, y0, h, z0, dz)| {
            let base = [
                Vec2::new(i(x0), i(y0)),
                Vec2::new(i(x0 + w), i(y0)),
                Vec2::new(i(x0 + w), i(y0 + h + 1)),
                Vec2::new(i(x0), i(y0 + h + 1)),
            ];
            Prism::new(base, i(z0), i(z0 + dz.abs()))
                .ok()
                .map(Shape::Prism)
        });
    prop_oneof![boxes, tris, prisms]
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    #[test]
    fn depth_matches_the_minkowski_hull_and_is_consistent(
        a in shape_strategy(),
        b in shape_strategy(),
    ) {
        match contact(&a, &b).unwrap() {
            ContactAnswer::Meeting(p) => {
                prop_assert_eq!(&p.depth_squared, &depth_squared_by_hull(&a, &b));
                check_consistent(&a, &b, &p);
            }
            ContactAnswer::Apart(c) => {
                prop_assert!(!c.distance_squared.is_zero());
            }
        }
    }

    /// Degenerate pairs: b a copy of a shifted by a small integer vector
    /// (touching and face-to-face cases are common).
    #[test]
    fn depth_matches_the_hull_on_shifted_copies(
        a in shape_strategy(),
        (x, y, z) in (-2i64..=2, -2i64..=2, -2i64..=2),
    ) {
        let b = translated(&a, &vi(x, y, z));
        if let ContactAnswer::Meeting(p) = contact(&a, &b).unwrap() {
            prop_assert_eq!(&p.depth_squared, &depth_squared_by_hull(&a, &b));
            check_consistent(&a, &b, &p);
        }
    }
}

#[test]
fn shrink_shrinks_a_contact_disagreement() {
    // A depth claimed √2 too large (an FCL #545-like answer) on boxes with
    // long numbers: the shrunk line still disagrees and is shorter.
    use exact_collision::protocol::Tolerances;
    use exact_collision::shrink::{claim_disagrees, line_len, shrink_claim};
    let line = r#"{"op":"contact","a":{"type":"box","center":[0.1234567,-0.3,0.7],"half_axes":[[1,0,0],[0,1,0],[0,0,1]]},"b":{"type":"box","center":[1.8234567,-0.3,0.7],"half_axes":[[1,0,0],[0,1,0],[0,0,1]]},"claim":{"depth_f64":0.42426406871192845}}"#;
    let q: Value = serde_json::from_str(line).unwrap();
    let tol = Tolerances::default();
    assert!(claim_disagrees(&q, &tol));
    let small = shrink_claim(&q, &tol).unwrap();
    assert!(claim_disagrees(&small, &tol));
    assert!(line_len(&small) < line_len(&q), "{small}");
}

#[test]
fn capsule_resting_along_a_box_touches_along_a_segment() {
    // The capsule [0, 2] on the x axis, radius 1/2 (top line z = 1/2), under
    // the unit cube centred at (1, 0, 3/4) (bottom z = 1/4): the cores are 1/4
    // apart (q = 1/16), δ = R − √q = 1/2 − 1/4 = 1/4 along +z; every point of
    // the capsule's axis with x in [1/2, 3/2] is a closest point, so the region
    // is the segment from (1/2, 0, 1/2) to (3/2, 0, 1/2).
    let c = contact_line(
        r#"{"type":"capsule","a":[0,0,0],"b":[2,0,0],"radius":0.5}"#,
        r#"{"type":"box","center":[1,0,0.75],"half_axes":[[0.5,0,0],[0,0.5,0],[0,0,0.5]]}"#,
    );
    assert_eq!(
        c["depth"],
        serde_json::json!({"minus_sqrt":"1/16","plus":"1/2"}),
        "{c}"
    );
    assert_eq!(c["depth_squared"], "1/16");
    assert_eq!(c["normal"], serde_json::json!(["0", "0", "1"]));
    assert_eq!(c["translation"], serde_json::json!(["0", "0", "1/4"]));
    assert_eq!(c["contact"]["kind"], "segment");
    let mut xs: Vec<String> = c["contact"]["points"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| {
            assert_eq!((&p[1], &p[2]), (&Value::from("0"), &Value::from("1/2")));
            p[0].as_str().unwrap().to_string()
        })
        .collect();
    xs.sort();
    assert_eq!(xs, vec!["1/2", "3/2"]);
}

#[test]
fn claims_on_a_rounded_depth() {
    // δ = 2 − √2 = 0.58578643762690495119…
    let q = |claim: &str| {
        answer(&format!(
            r#"{{"op":"contact","a":{{"type":"sphere","center":[0,0,0],"radius":1}},"b":{{"type":"sphere","center":[1,1,0],"radius":1}},"claim":{claim}}}"#
        ))["verdict"]
            .as_str()
            .unwrap()
            .to_string()
    };
    assert_eq!(q(r#"{"depth_f64":0.585786437626905}"#), "agree");
    assert_eq!(q(r#"{"depth_f64":0.5857864}"#), "disagree");
    assert_eq!(q(r#"{"depth_f64":0.5857864,"rel_tol":1e-6}"#), "agree");
    // √2 − 2 (a negative "depth", the signed distance) is wrong.
    assert_eq!(q(r#"{"depth_f64":-0.585786437626905}"#), "disagree");
}

#[test]
fn closest_claims_on_apart_contact_queries_are_checked() {
    let q = |claim: &str| {
        answer(&format!(
            r#"{{"op":"contact","a":{{"type":"box","center":[0,0,0],"half_axes":[[0.5,0,0],[0,0.5,0],[0,0,0.5]]}},"b":{{"type":"box","center":[3,0,0],"half_axes":[[0.5,0,0],[0,0.5,0],[0,0,0.5]]}},"claim":{claim}}}"#
        ))["verdict"]
            .as_str()
            .unwrap()
            .to_string()
    };
    // The gap is 2 along x: (1/2, 0, 0) and (5/2, 0, 0) are a closest pair.
    assert_eq!(
        q(r#"{"closest":[["1/2","0","0"],["5/2","0","0"]]}"#),
        "agree"
    );
    assert_eq!(
        q(r#"{"closest":[["1/2","0","0"],["3","0","0"]]}"#),
        "disagree"
    );
    assert_eq!(q(r#"{"intersect":false,"distance_f64":2}"#), "agree");
}

#[test]
fn non_dyadic_inputs_answer_as_the_library_does() {
    // The protocol answers inputs with odd denominators scaled to integers;
    // the values must be the library's on the shapes as given.
    let line = r#"{"op":"contact","a":{"type":"box","center":["1/3",0,0],"half_axes":[["2/3",0,0],[0,"5/7",0],[0,0,1]]},"b":{"type":"box","half_extents":[0.5,0.75,"1/3"],"rotation":{"quaternion":[3,1,2,0]},"translation":[1,"1/5",0]}}"#;
    let ans = answer(line);
    let a = aabb(v(r(1, 3), i(0), i(0)), r(2, 3), r(5, 7), i(1));
    // The rotation of the quaternion (3, 1, 2, 0), |q|² = 14, as its exact matrix.
    let (w, x, y, z) = (i(3), i(1), i(2), i(0));
    let n = i(14);
    let m = [
        [
            &w * &w + &x * &x - &y * &y - &z * &z,
            i(2) * (&x * &y - &w * &z),
            i(2) * (&x * &z + &w * &y),
        ],
        [
            i(2) * (&x * &y + &w * &z),
            &w * &w - &x * &x + &y * &y - &z * &z,
            i(2) * (&y * &z - &w * &x),
        ],
        [
            i(2) * (&x * &z - &w * &y),
            i(2) * (&y * &z + &w * &x),
            &w * &w - &x * &x - &y * &y + &z * &z,
        ],
    ];
    let half = [r(1, 2), r(3, 4), r(1, 3)];
    let col = |k: usize| {
        v(
            &m[0][k] * &half[k] / &n,
            &m[1][k] * &half[k] / &n,
            &m[2][k] * &half[k] / &n,
        )
    };
    let b = boxq(v(i(1), r(1, 5), i(0)), [col(0), col(1), col(2)]);
    let p = meeting(&a, &b);
    assert_eq!(exact(&ans["depth_squared"]), p.depth_squared, "{ans}");
    let normal: Vec<Q> = ans["normal"]
        .as_array()
        .unwrap()
        .iter()
        .map(exact)
        .collect();
    assert_eq!(
        normal,
        vec![
            p.normal().x.clone(),
            p.normal().y.clone(),
            p.normal().z.clone()
        ]
    );
    let t: Vec<Q> = ans["translation"]
        .as_array()
        .unwrap()
        .iter()
        .map(exact)
        .collect();
    assert_eq!(
        t,
        vec![
            p.translation.x.clone(),
            p.translation.y.clone(),
            p.translation.z.clone()
        ]
    );
    assert_eq!(
        ans["contact"]["points"].as_array().unwrap().len(),
        p.region.points().len()
    );
    check_consistent(&a, &b, &p);
    assert_eq!(p.depth_squared, depth_squared_by_hull(&a, &b));
}
