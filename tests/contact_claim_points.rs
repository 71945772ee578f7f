//! Every claimed contact point is judged, and the ones outside the
//! tolerance are named (`FieldVerdict::outside`): the rule an engine's
//! multi-point contact manifold is judged by (docs/verify.md, "Contact
//! claims"; docs/check-parry.md, "Contact manifolds").

use exact_collision::protocol::{answer_value_with, Tolerances};
use serde_json::{json, Value};

const CUBE: &str = r#"{"type":"box","center":[0,0,0],"half_axes":[[0.5,0,0],[0,0.5,0],[0,0,0.5]]}"#;

/// The `contact` field's verdict on `points` claimed for the unit cube a at
/// the origin and the unit cube b centred at `b_center`.
fn judge(b_center: [f64; 3], points: Value) -> (bool, Vec<usize>, String) {
    let line: Value = serde_json::from_str(&format!(
        r#"{{"op":"contact","a":{CUBE},"b":{{"type":"box","center":{},"half_axes":[[0.5,0,0],[0,0.5,0],[0,0,0.5]]}}}}"#,
        json!(b_center)
    ))
    .unwrap();
    let mut line = line;
    line["claim"] = json!({ "contact": { "points": points } });
    let (_, v) = answer_value_with(&line, &Tolerances::default());
    let v = v.expect("a verdict");
    let f = v.fields.iter().find(|f| f.field == "contact").unwrap();
    (f.agrees, f.outside.clone(), f.detail.clone())
}

/// Two unit cubes resting face to face, b at (1/4, 0, 3/4): they overlap by
/// 1/4 along z (and by 3/4 along x), so δ = 1/4, normal +z, translation
/// (0, 0, 1/4), and the contact region R (on a's top face z = 1/2) is
/// a's top face ∩ b's bottom face moved up: x ∈ [−1/4, 1/2], y ∈ [−1/2, 1/2].
/// The swept region is S = R × [1/4, 1/2] (b's bottom face is now at
/// z = 1/4). A 4-point manifold (as parry gives: the corners of R on a,
/// the same corners on b's face) claims 8 points, all in S.
#[test]
fn resting_cubes_four_point_manifold() {
    let manifold = |moved: Option<(usize, [f64; 3])>| {
        let mut pts = Vec::new();
        for (x, y) in [(-0.25, -0.5), (0.5, -0.5), (0.5, 0.5), (-0.25, 0.5)] {
            pts.push([x, y, 0.5]);
            pts.push([x, y, 0.25]);
        }
        if let Some((i, p)) = moved {
            pts[i] = p;
        }
        json!(pts)
    };
    let c = [0.25, 0.0, 0.75];
    let (ok, out, detail) = judge(c, manifold(None));
    assert!(ok, "{detail}");
    assert!(out.is_empty());
    // Point 5 (the third pair's point on b, (1/2, 1/2, 1/4)) moved to b's
    // own bottom corner (3/4, 1/2, 1/4), past a's side: 1/4 from S in x.
    let (ok, out, detail) = judge(c, manifold(Some((5, [0.75, 0.5, 0.25]))));
    assert!(!ok, "{detail}");
    assert_eq!(out, vec![5], "{detail}");
    assert!(detail.contains("1 outside the tolerance (#5"), "{detail}");
    // Point 0 moved 0.1 below b's face (z = 0.15 < 1/4) and point 7 0.1
    // above a's (z = 0.6): both named.
    let mut pts = manifold(None);
    pts[0] = json!([-0.25, -0.5, 0.15]);
    pts[7] = json!([-0.25, 0.5, 0.6]);
    let (ok, out, _) = judge(c, pts);
    assert!(!ok);
    assert_eq!(out, vec![0, 7]);
    // Within the default relative tolerance 1e-9·δ = 2.5e-10: a point
    // 1e-10 below b's face agrees, 1e-9 below does not.
    let (ok, _, d) = judge(c, manifold(Some((1, [-0.25, -0.5, 0.25 - 1e-10]))));
    assert!(ok, "{d}");
    let (ok, out, _) = judge(c, manifold(Some((1, [-0.25, -0.5, 0.25 - 1e-9]))));
    assert!(!ok);
    assert_eq!(out, vec![1]);
}

/// Concentric unit cubes: six optimal normals (δ = 1 along each axis), each
/// with its own region (the whole face) and translation. Points agree when
/// all lie in one normal's swept region: the face z = 1/2 swept down to
/// z = −1/2 for +z is the whole cube, so any points of the cube agree; a
/// point outside the cube is named whichever region is taken.
#[test]
fn concentric_cubes_points_against_one_normal() {
    let c = [0.0, 0.0, 0.0];
    let (ok, out, d) = judge(c, json!([[0.5, 0.5, 0.5], [0, 0, -0.5], [0.1, -0.2, 0.3]]));
    assert!(ok, "{d}");
    assert!(out.is_empty());
    let (ok, out, d) = judge(c, json!([[0.5, 0.5, 0.5], [0, 0, 0.75]]));
    assert!(!ok, "{d}");
    assert_eq!(out, vec![1], "{d}");
}
