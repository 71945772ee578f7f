//! `exact-collision audit`: the as-published algorithms against the exact
//! answers on the hard-case generators. The fixed-seed table is a snapshot;
//! every counterexample is re-judged here, and one is worked by hand.

use exact_collision::audit::run::{audit, claim_line, failures, Failure};
use exact_collision::cases::{Case, Geom};
use exact_collision::shrink::line_len;
use serde_json::json;

#[test]
fn fixed_seed_table() {
    let r = audit(144, 1, 0);
    insta::with_settings!({snapshot_path => "../snapshots", prepend_module_to_snapshot => false}, {
        insta::assert_snapshot!("audit_table", r.table());
    });
}

#[test]
fn counterexamples_are_real_and_shrunk() {
    let r = audit(96, 2, 1);
    assert!(!r.counterexamples.is_empty());
    for c in &r.counterexamples {
        // The line as generated and the shrunk one both fail the same way
        // (the claim is the algorithm's answer, judged exactly) and the
        // shrunk one is no larger.
        for line in [&c.line, &c.shrunk] {
            let f = failures(line).expect("answerable");
            assert!(f.contains(&c.failure), "{line}");
        }
        assert!(line_len(&c.shrunk) <= line_len(&c.line), "{}", c.shrunk);
    }
}

/// Worked by hand: triangle a = (0,0,0), (0,0,1), (0,2,0) and b = (0,0,1+2⁻⁵²),
/// (0,0,3), (0,1,3), both in the plane x = 0. b lies at z ≥ 1 + 2⁻⁵² and a at
/// z ≤ 1 with its only point at z = 1 the vertex (0,0,1), so the exact
/// distance is 2⁻⁵² (vertex to vertex). Nathan's triangle test (ε = 1e-9)
/// calls it a collision at distance 0.
#[test]
fn nathan_triangle_false_positive_by_hand() {
    let u = 1.0 + f64::EPSILON; // 1 + 2⁻⁵²
    let c = Case {
        family: "tri_ulp_gap",
        a: Geom::Tri([[0.0, 0.0, 0.0], [0.0, 0.0, 1.0], [0.0, 2.0, 0.0]]),
        b: Geom::Tri([[0.0, 0.0, u], [0.0, 0.0, 3.0], [0.0, 1.0, 3.0]]),
    };
    let line = claim_line("nathan-triangle", &c).unwrap();
    assert_eq!(
        line["claim"],
        json!({"intersect": true, "distance_f64": 0.0})
    );
    let f = failures(&line).unwrap();
    assert_eq!(f, vec![Failure::FalsePositive, Failure::WrongDistance]);
    let a = exact_collision::protocol::answer_line(&line.to_string(), 1).value;
    assert_eq!(a["distance_f64"], f64::EPSILON);
    // Not applicable to the box algorithms.
    assert!(claim_line("eberly-obb", &c).is_none());
}
