//! A named catalogue of triangle pairs, each answer checked against a value
//! worked out by hand (in the comment beside it), its certificate checked
//! exactly, then the full protocol answer pinned as an insta snapshot.
//! Also: how often Nathan's triangle strategy as published disagrees with the exact answer on a
//! fixed sample.

use exact_collision::audit::nathan_triangle;
use exact_collision::protocol::answer_line;
use exact_collision::query::certificate::{check_closest, check_intersection};
use exact_collision::query::triangle_triangle::distance;
use exact_collision::query::triangle_triangle::{intersect, intersect_exact, intersects};
use exact_collision::{Scalar, Shape, Triangle, Vec3};
use num_rational::BigRational;
use serde_json::{json, Value};

type Q = BigRational;

/// (name, a, b, intersect?, distance² by hand). Coordinates are exact strings.
fn catalogue() -> Vec<(&'static str, Value, Value, bool, &'static str)> {
    let t0 = json!([[0, 0, 0], [4, 0, 0], [0, 4, 0]]);
    vec![
        // b is t0 lifted by 1: parallel planes, distance 1.
        (
            "parallel_above",
            t0.clone(),
            json!([[0, 0, 1], [4, 0, 1], [0, 4, 1]]),
            false,
            "1",
        ),
        // b meets z = 0 in the segment (1,1)–(5,5), which enters t0 (x + y ≤ 4).
        (
            "piercing",
            t0.clone(),
            json!([[1, 1, -1], [1, 1, 1], [5, 5, 0]]),
            true,
            "0",
        ),
        (
            "shared_edge_coplanar",
            t0.clone(),
            json!([[4, 0, 0], [0, 4, 0], [4, 4, 0]]),
            true,
            "0",
        ),
        (
            "shared_edge_folded",
            t0.clone(),
            json!([[4, 0, 0], [0, 4, 0], [2, 2, 3]]),
            true,
            "0",
        ),
        // Only (4,0,0) is common: b's other points have x = 6 > 4.
        (
            "shared_vertex",
            t0.clone(),
            json!([[4, 0, 0], [6, 0, 1], [6, 1, -1]]),
            true,
            "0",
        ),
        // (2,0,0) lies on t0's edge y = 0; b's other points have y = −2.
        (
            "vertex_on_edge",
            t0.clone(),
            json!([[2, 0, 0], [2, -2, 1], [2, -2, -1]]),
            true,
            "0",
        ),
        // (1,1,0) is inside t0; b's other points have z = 2.
        (
            "vertex_on_face",
            t0.clone(),
            json!([[1, 1, 0], [1, 1, 2], [2, 1, 2]]),
            true,
            "0",
        ),
        // (1,1,1) is 1 above t0's interior point (1,1,0); everything else is higher.
        (
            "vertex_above_face",
            t0.clone(),
            json!([[1, 1, 1], [1, 1, 2], [2, 1, 2]]),
            false,
            "1",
        ),
        (
            "coplanar_overlap",
            t0.clone(),
            json!([[1, 1, 0], [5, 1, 0], [1, 5, 0]]),
            true,
            "0",
        ),
        // (3,3) is |3 + 3 − 4|/√2 from the edge x + y = 4, foot (2,2) on the edge: d² = 2.
        (
            "coplanar_disjoint",
            t0.clone(),
            json!([[3, 3, 0], [6, 3, 0], [3, 6, 0]]),
            false,
            "2",
        ),
        // (2,2) is on t0's hypotenuse; b goes only towards x + y > 4.
        (
            "coplanar_vertex_on_edge",
            t0.clone(),
            json!([[2, 2, 0], [5, 5, 0], [2, 6, 0]]),
            true,
            "0",
        ),
        (
            "coplanar_contained",
            t0.clone(),
            json!([[1, 1, 0], [2, 1, 0], [1, 2, 0]]),
            true,
            "0",
        ),
        // b has x ≥ 4 and y ≤ 0; t0 has x + y ≤ 4 and y ≥ 0: only (4,0,0).
        (
            "coplanar_vertex_vertex",
            t0.clone(),
            json!([[4, 0, 0], [6, 0, 0], [5, -2, 0]]),
            true,
            "0",
        ),
        // b has y ≤ 0; its edge (1,0)–(3,0) lies on t0's edge y = 0.
        (
            "coplanar_edge_overlap",
            t0.clone(),
            json!([[1, 0, 0], [3, 0, 0], [2, -3, 0]]),
            true,
            "0",
        ),
        // Hexagram: no vertex of one inside the other, yet they overlap.
        (
            "coplanar_hexagram",
            json!([[0, 0, 0], [6, 0, 0], [3, 6, 0]]),
            json!([[0, 4, 0], [6, 4, 0], [3, -2, 0]]),
            true,
            "0",
        ),
        // Edge y = 0 (z = 0) of a under the edge y ∈ [−1, 1] (x = 1, z = 3) of b: d² = 9.
        (
            "skew_edges",
            json!([[0, 0, 0], [2, 0, 0], [1, -2, 0]]),
            json!([[1, -1, 3], [1, 1, 3], [1, 0, 5]]),
            false,
            "9",
        ),
        // b crosses z = 0 in (5,5)–(6,6), outside t0; b's points all have x = y ≥ 5,
        // t0's nearest point to (5,5,0) is (2,2,0): d² = 9 + 9.
        (
            "planes_cross_outside",
            t0.clone(),
            json!([[5, 5, -1], [5, 5, 1], [6, 6, 0]]),
            false,
            "18",
        ),
        ("identical", t0.clone(), t0.clone(), true, "0"),
        (
            "identical_reversed",
            t0.clone(),
            json!([[0, 4, 0], [4, 0, 0], [0, 0, 0]]),
            true,
            "0",
        ),
        // Degenerate b: the segment x = y = 1, z ∈ [−1, 1] pierces t0 at (1,1,0).
        (
            "degenerate_segment_piercing",
            t0.clone(),
            json!([[1, 1, -1], [1, 1, 1], [1, 1, 0]]),
            true,
            "0",
        ),
        (
            "degenerate_point_on_face",
            t0.clone(),
            json!([[1, 1, 0], [1, 1, 0], [1, 1, 0]]),
            true,
            "0",
        ),
        // The point (1,1,2) is 2 above t0's interior: d² = 4.
        (
            "degenerate_point_above",
            t0.clone(),
            json!([[1, 1, 2], [1, 1, 2], [1, 1, 2]]),
            false,
            "4",
        ),
        (
            "degenerate_segment_coplanar",
            t0.clone(),
            json!([[-1, 1, 0], [5, 1, 0], [2, 1, 0]]),
            true,
            "0",
        ),
        // Two segments: y = z = 0, x ∈ [0,2] and x = 1, z = 1, y ∈ [−1,1]: d² = 1.
        (
            "degenerate_both_skew",
            json!([[0, 0, 0], [2, 0, 0], [1, 0, 0]]),
            json!([[1, -1, 1], [1, 1, 1], [1, 0, 1]]),
            false,
            "1",
        ),
        // (1,1,10⁻⁶) is 10⁻⁶ above t0's interior: d² = 10⁻¹².
        (
            "near_miss_rational",
            t0.clone(),
            json!([[1, 1, "1/1000000"], [2, 1, 1], [1, 2, 1]]),
            false,
            "1/1000000000000",
        ),
        // z = 1 and the next double up, 1 + 2⁻⁵²: d² = 2⁻¹⁰⁴.
        (
            "one_ulp_gap",
            json!([
                [0, 0, 1.0000000000000002],
                [1, 0, 1.0000000000000002],
                [0, 1, 1.0000000000000002]
            ]),
            json!([[0, 0, 1], [1, 0, 1], [0, 1, 1]]),
            false,
            "1/20282409603651670423947251286016",
        ),
        // Vertex (1,1,1) of b on the plane x + y + z = 3 of a, inside a.
        (
            "tilted_vertex_on_face",
            json!([[3, 0, 0], [0, 3, 0], [0, 0, 3]]),
            json!([[1, 1, 1], [2, 2, 2], [2, 2, 3]]),
            true,
            "0",
        ),
    ]
}

fn shape(v: &Value) -> Value {
    json!({"type": "triangle", "v": v})
}

#[test]
fn catalogue_answers() {
    let cat = catalogue();
    assert!(cat.len() >= 25);
    let mut lines = Vec::new();
    for (name, a, b, hit, d2) in &cat {
        let mut out = json!({"name": name});
        for op in ["intersect", "distance"] {
            let q = json!({"id": name, "op": op, "a": shape(a), "b": shape(b)});
            let ans = answer_line(&q.to_string(), 1);
            assert!(ans.ok, "{name} {op}: {}", ans.value);
            match op {
                "intersect" => assert_eq!(ans.value["intersect"], *hit, "{name}"),
                _ => assert_eq!(ans.value["distance_squared"], *d2, "{name}"),
            }
            out[op] = ans.value;
        }
        // Certificates, checked exactly on the typed answers.
        let ta = tri(a);
        let tb = tri(b);
        let (sa, sb) = (Shape::Triangle(ta.clone()), Shape::Triangle(tb.clone()));
        check_intersection(&sa, &sb, &intersect(&ta, &tb).unwrap())
            .unwrap_or_else(|e| panic!("{name}: {e}"));
        check_closest(&sa, &sb, &distance(&ta, &tb).unwrap())
            .unwrap_or_else(|e| panic!("{name}: {e}"));
        lines.push(out.to_string());
    }
    insta::with_settings!({snapshot_path => "../snapshots", prepend_module_to_snapshot => false}, {
        insta::assert_snapshot!("triangle_catalogue", lines.join("\n"));
    });
}

fn tri(v: &Value) -> Triangle<Q> {
    let n = |x: &Value| match x {
        Value::String(s) => exact_collision::protocol::number::parse_exact(s).unwrap(),
        Value::Number(n) => n.as_f64().unwrap().to_rational(),
        _ => panic!(),
    };
    let p = |i: usize| Vec3::new(n(&v[i][0]), n(&v[i][1]), n(&v[i][2]));
    Triangle::new([p(0), p(1), p(2)])
}

/// A small deterministic generator (SplitMix64).
struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        exact_collision::poly::planted::splitmix64(&mut self.0)
    }
    fn coord(&mut self) -> f64 {
        (self.next() % 9) as f64 - 4.0
    }
    fn pt(&mut self) -> [f64; 3] {
        [self.coord(), self.coord(), self.coord()]
    }
}

/// Nathan's triangle strategy as published versus the exact answer, on a fixed sample of 2000
/// pairs of four kinds (500 each): uniform grid triangles, shared vertex,
/// shared edge, coplanar. Pinned counts; each disagreement is a real one,
/// because the exact answer is checked by its certificate here too.
#[test]
fn nathan_triangle_disagreements_on_fixed_sample() {
    let mut rng = Rng(4);
    let mut rows = Vec::new();
    for kind in ["uniform", "shared_vertex", "shared_edge", "coplanar"] {
        let (mut n, mut decision, mut dist) = (0, 0, 0);
        while n < 500 {
            let a = [rng.pt(), rng.pt(), rng.pt()];
            let mut b = [rng.pt(), rng.pt(), rng.pt()];
            match kind {
                "shared_vertex" => b[0] = a[1],
                "shared_edge" => (b[0], b[1]) = (a[1], a[0]),
                "coplanar" => {
                    for p in &mut b {
                        p[2] = 0.0;
                    }
                }
                _ => {}
            }
            let mut a = a;
            if kind == "coplanar" {
                for p in &mut a {
                    p[2] = 0.0;
                }
            }
            let ta = Triangle::new(a.map(|[x, y, z]| Vec3::new(x, y, z)));
            let tb = Triangle::new(b.map(|[x, y, z]| Vec3::new(x, y, z)));
            if ta.is_degenerate() || tb.is_degenerate() {
                continue; // the published algorithm divides by zero on them
            }
            n += 1;
            let exact = intersects(&ta, &tb);
            // The exact certificate (the f64 answer's witness is rounded).
            let (sa, sb) = (
                Shape::Triangle(ta.clone()).to_rational(),
                Shape::Triangle(tb.clone()).to_rational(),
            );
            check_intersection(&sa, &sb, &intersect_exact(&ta, &tb).unwrap()).unwrap();
            let p = nathan_triangle::triangle_triangle(a, b, nathan_triangle::EPS);
            if p.collide != exact {
                decision += 1;
            }
            let d = distance(&ta, &tb).unwrap().distance_squared.sqrt();
            if (p.distance - d).abs() > 1e-9 * d.max(1.0) {
                dist += 1;
            }
        }
        rows.push(format!(
            "{kind}: {n} pairs, {decision} wrong decisions, {dist} distances off by more than 1e-9"
        ));
    }
    insta::with_settings!({snapshot_path => "../snapshots", prepend_module_to_snapshot => false}, {
        insta::assert_snapshot!("triangle_nathan_audit", rows.join("\n"));
    });
}
