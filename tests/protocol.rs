//! The JSON Lines contract: every error path names the field and the defect,
//! and the good lines around a bad one are still answered.

use exact_collision::protocol::answer_line;
use serde_json::{json, Value};

fn answer(line: &str) -> Value {
    answer_line(line, 1).value
}

fn error_of(line: &str) -> String {
    let v = answer(line);
    v.get("error")
        .and_then(Value::as_str)
        .unwrap_or_else(|| panic!("expected an error for {line}, got {v}"))
        .to_string()
}

const UNIT_BOX: &str = r#"{"type":"box","center":[0,0,0],"half_axes":[[1,0,0],[0,1,0],[0,0,1]]}"#;

fn intersect_line(id: i64, a: &str, b: &str) -> String {
    format!(r#"{{"id":{id},"op":"intersect","a":{a},"b":{b}}}"#)
}

#[test]
fn malformed_json_names_the_line() {
    let v = answer_line("{\"op\": ", 17).value;
    assert_eq!(v["line"], 17);
    assert!(v["error"].as_str().unwrap().contains("malformed JSON"));
    assert!(v.get("id").is_none());
}

/// "one answer for every input line": a blank line, or JSON that is not an
/// object, is answered with an error naming its line.
#[test]
fn every_line_gets_an_answer() {
    for (text, what) in [
        ("   ", "empty line"),
        ("", "empty line"),
        ("[1]", "got an array"),
        ("5", "got a number"),
        ("null", "got null"),
    ] {
        let a = answer_line(text, 3);
        assert!(!a.ok);
        assert_eq!(a.value["line"], 3, "{text:?}");
        assert!(
            a.value["error"].as_str().unwrap().contains(what),
            "{}",
            a.value
        );
    }
    // A byte-order mark before the object is skipped.
    let a = answer_line("\u{feff}{\"id\":1,\"op\":\"nope\"}", 1);
    assert_eq!(a.value["id"], 1);
    assert!(a.value["error"].as_str().unwrap().contains("unknown op"));
}

#[test]
fn id_is_echoed_with_any_json_value() {
    let v = answer(r#"{"id":{"k":[1,"x"]},"op":"nope"}"#);
    assert_eq!(v["id"], json!({"k":[1,"x"]}));
    let v = answer(r#"{"op":"nope"}"#);
    assert!(v.get("id").is_none());
}

#[test]
fn wrong_arity_names_the_path() {
    let bad = r#"{"type":"box","center":[0,0,0],"half_axes":[[1,0,0],[0,1,0],[0,1]]}"#;
    assert_eq!(
        error_of(&intersect_line(1, bad, UNIT_BOX)),
        "a.half_axes[2]: expected 3 numbers, got 2"
    );
    let tri = r#"{"type":"triangle","v":[[0,0,0],[1,0,0]]}"#;
    assert_eq!(
        error_of(&intersect_line(1, UNIT_BOX, tri)),
        "b.v: expected 3 vertices, got 2"
    );
    let prism = r#"{"type":"prism","base":[[0,0],[1,0],[1,1]],"z":[0,1]}"#;
    assert_eq!(
        error_of(&intersect_line(1, prism, UNIT_BOX)),
        "a.base: expected 4 vertices, got 3"
    );
}

#[test]
fn unknown_op_and_shape() {
    assert!(error_of(r#"{"id":1,"op":"collide"}"#).starts_with("op: unknown op \"collide\""));
    let e = error_of(&intersect_line(1, r#"{"type":"torus","r":1}"#, UNIT_BOX));
    assert!(e.starts_with("a.type: unknown shape type \"torus\""), "{e}");
    // A sphere with a misspelt field is named, with the sphere's fields.
    let e = error_of(&intersect_line(1, r#"{"type":"sphere","r":1}"#, UNIT_BOX));
    assert!(e.starts_with("a.r: unknown field"), "{e}");
    assert_eq!(error_of(r#"{"id":1,"a":1}"#), "op: missing");
    assert_eq!(
        error_of(&format!(r#"{{"op":"distance","a":{UNIT_BOX}}}"#)),
        "b: missing"
    );
}

#[test]
fn non_finite_numbers() {
    let a = r#"{"type":"box","center":[0,1e400,0],"half_axes":[[1,0,0],[0,1,0],[0,0,1]]}"#;
    let e = error_of(&intersect_line(1, a, UNIT_BOX));
    assert!(
        e.starts_with("a.center[1]: number 1e") && e.ends_with("400 is not a finite double"),
        "{e}"
    );
    let a = r#"{"type":"box","center":[0,0,"NaN"],"half_axes":[[1,0,0],[0,1,0],[0,0,1]]}"#;
    assert!(
        error_of(&intersect_line(1, a, UNIT_BOX)).starts_with("a.center[2]: not a number: \"NaN\"")
    );
    let a = r#"{"type":"box","center":[0,0,"1/0"],"half_axes":[[1,0,0],[0,1,0],[0,0,1]]}"#;
    assert!(error_of(&intersect_line(1, a, UNIT_BOX)).starts_with("a.center[2]: zero denominator"));
}

#[test]
fn cube_that_is_not_a_parallelepiped() {
    // g should be (1,1,1); it is off by 1/1000 in z.
    let c = r#"{"type":"cube","vertices":[[0,0,0],[1,0,0],[1,1,0],[0,1,0],[0,0,1],[1,0,1],[1,1,"1.001"],[0,1,1]]}"#;
    let e = error_of(&intersect_line(1, c, UNIT_BOX));
    assert!(
        e.starts_with("a.vertices[6]: not a parallelepiped: vertex g is off"),
        "{e}"
    );
    // With JSON doubles, 1.1 is not exactly 1 + 0.1: (the double 1.1) − 1 −
    // (the double 0.1) = 3/2^55 ≠ 0 (checked with Python fractions), so this
    // "sheared cube" is rejected…
    let doubles = r#"{"type":"cube","vertices":[[0,0,0],[1,0,0],[1.1,1,0],[0.1,1,0],[0,0,1],[1,0,1],[1.1,1,1],[0.1,1,1]]}"#;
    let e = error_of(&intersect_line(1, doubles, UNIT_BOX));
    assert!(
        e.starts_with("a.vertices[2]: not a parallelepiped: vertex c is off"),
        "{e}"
    );
    // …while the exact decimal strings describe a true parallelepiped.
    let ok = r#"{"type":"cube","vertices":[[0,0,0],[1,0,0],["1.1",1,0],["0.1",1,0],[0,0,1],[1,0,1],["1.1",1,1],["0.1",1,1]]}"#;
    let v = answer(&intersect_line(1, ok, UNIT_BOX));
    assert!(
        !v["error"].as_str().unwrap_or("").contains("parallelepiped"),
        "{v}"
    );
}

#[test]
fn prism_base_that_is_not_convex() {
    let p = r#"{"type":"prism","base":[[0,0],[4,0],[1,1],[0,4]],"z":[0,1]}"#;
    let e = error_of(&intersect_line(1, UNIT_BOX, p));
    assert_eq!(
        e,
        "b.base: not a convex quadrilateral: one vertex lies inside the triangle of the other three"
    );
    let p = r#"{"type":"prism","base":[[0,0],[1,0],[2,0],[0,4]],"z":[0,1]}"#;
    assert!(error_of(&intersect_line(1, UNIT_BOX, p))
        .starts_with("b.base: not a convex quadrilateral: three vertices are collinear"));
}

#[test]
fn zmin_above_zmax() {
    let p = r#"{"type":"prism","base":[[0,0],[1,0],[1,1],[0,1]],"z":[2,1]}"#;
    assert_eq!(
        error_of(&intersect_line(1, p, UNIT_BOX)),
        "a.z: zmin > zmax"
    );
}

#[test]
fn degenerate_and_negative_boxes() {
    let flat = r#"{"type":"box","center":[0,0,0],"axes":[[1,0,0],[0,1,0],[0,0,1]],"half_extents":[1,0,1]}"#;
    assert!(error_of(&intersect_line(1, flat, UNIT_BOX))
        .starts_with("a.half_extents[1]: zero half-extent"));
    // The axes form names the fields it has: a zero axis, dependent axes.
    let zero_axis = r#"{"type":"box","center":[0,0,0],"axes":[[1,0,0],[0,0,0],[0,0,1]],"half_extents":[1,1,1]}"#;
    assert!(error_of(&intersect_line(1, zero_axis, UNIT_BOX)).starts_with("a.axes[1]: zero axis"));
    let dep_axes = r#"{"type":"box","center":[0,0,0],"axes":[[1,0,0],[0,1,0],[1,1,0]],"half_extents":[1,1,1]}"#;
    assert!(
        error_of(&intersect_line(1, dep_axes, UNIT_BOX)).starts_with("a.axes: linearly dependent")
    );
    let neg = r#"{"type":"box","center":[0,0,0],"axes":[[1,0,0],[0,1,0],[0,0,1]],"half_extents":[1,-1,1]}"#;
    assert_eq!(
        error_of(&intersect_line(1, neg, UNIT_BOX)),
        "a.half_extents[1]: negative half-extent"
    );
    let dep = r#"{"type":"box","center":[0,0,0],"half_axes":[[1,0,0],[0,1,0],[1,1,0]]}"#;
    assert!(
        error_of(&intersect_line(1, dep, UNIT_BOX)).starts_with("a.half_axes: linearly dependent")
    );
}

#[test]
fn bad_scalar_and_motion() {
    let e = error_of(&format!(
        r#"{{"op":"intersect","scalar":"f16","a":{UNIT_BOX},"b":{UNIT_BOX}}}"#
    ));
    assert!(e.starts_with("scalar: expected"), "{e}");
    let m = format!(
        r#"{{"op":"ccd","a":{{"shape":{UNIT_BOX},"motion":{{"matrix":[[1,0,0],[0,1,0],[0,0,1]]}}}},"b":{{"shape":{UNIT_BOX}}}}}"#
    );
    assert_eq!(error_of(&m), "a.motion.matrix: expected 4 rows, got 3");
    let m = format!(
        r#"{{"op":"ccd","a":{{"shape":{UNIT_BOX},"motion":{{"matrix":[[1,0,0,1],[0,1,0,0],[0,0,1,0],[0,0,0,1]]}}}},"b":{{"shape":{UNIT_BOX}}}}}"#
    );
    assert!(error_of(&m).starts_with("a.motion.matrix[0][3]: the fourth column must be"));
    let m = format!(
        r#"{{"op":"ccd","a":{{"shape":{UNIT_BOX},"motion":{{"quaternion":[0,0,0,0]}}}},"b":{{"shape":{UNIT_BOX}}}}}"#
    );
    assert_eq!(error_of(&m), "a.motion.quaternion: the zero quaternion");
    let m = format!(
        r#"{{"op":"ccd","a":{{"shape":{UNIT_BOX}}},"b":{{"shape":{UNIT_BOX}}},"t_range":[1,0]}}"#
    );
    assert_eq!(error_of(&m), "t_range: start after end");
}

#[test]
fn triangle_pairs_carry_their_intersection_set() {
    // Coplanar: A = (0,0),(2,0),(0,2); B = (1,0),(3,0),(3,2), all at z = 0. B's edge
    // y = x − 1 meets A's hypotenuse x + y = 2 at (3/2, 1/2): the overlap is the
    // triangle (1,0), (2,0), (3/2,1/2) (by hand).
    let v = answer(
        r#"{"id":1,"op":"intersect","a":{"type":"triangle","v":[[0,0,0],[2,0,0],[0,2,0]]},"b":{"type":"triangle","v":[[1,0,0],[3,0,0],[3,2,0]]}}"#,
    );
    assert_eq!(v["intersect"], true);
    assert_eq!(v["contact"]["kind"], "polygon");
    let pts: Vec<Value> = v["contact"]["points"].as_array().unwrap().clone();
    assert_eq!(pts.len(), 3);
    for want in [
        json!(["1", "0", "0"]),
        json!(["2", "0", "0"]),
        json!(["3/2", "1/2", "0"]),
    ] {
        assert!(pts.contains(&want), "{want} missing from {pts:?}");
    }
    // Crossing: B's edges from (0,0,−1) to (1,1,1) and to (0,1,1) cross z = 0 at
    // their midpoints (1/2,1/2,0) and (0,1/2,0), both inside A.
    let v = answer(
        r#"{"id":2,"op":"intersect","a":{"type":"triangle","v":[[0,0,0],[2,0,0],[0,2,0]]},"b":{"type":"triangle","v":[[0,0,-1],[1,1,1],[0,1,1]]}}"#,
    );
    assert_eq!(v["contact"]["kind"], "segment");
    let pts = v["contact"]["points"].as_array().unwrap();
    assert!(
        pts.contains(&json!(["1/2", "1/2", "0"])) && pts.contains(&json!(["0", "1/2", "0"])),
        "{v}"
    );
}

#[test]
fn readme_example_is_what_the_program_answers() {
    // b's lowest point (0,0,1/3) lies above a's vertex (0,0,0), and every point of
    // b has z ≥ 1/3 while a lies in z = 0: distance 1/3, squared 1/9 (by hand).
    let v = answer(
        r#"{"id":1,"op":"distance","a":{"type":"triangle","v":[[0,0,0],[1,0,0],[0,1,0]]},"b":{"type":"triangle","v":[[0,0,"1/3"],[1,0,1],[0,1,1]]}}"#,
    );
    assert_eq!(
        v.to_string(),
        r#"{"id":1,"distance_squared":"1/9","distance_squared_f64":0.1111111111111111,"distance_f64":0.3333333333333333,"closest":[["0","0","0"],["0","0","1/3"]]}"#
    );
}

/// `"scalar":"f32"/"f64"`: inputs are rounded to the type, an input that is not
/// finite after rounding is an error on its own field (and the run goes on).
#[test]
fn float_paths_reject_inputs_that_overflow_the_type() {
    let t = |z: &str| format!(r#"{{"type":"triangle","v":[[0,0,{z}],[1,0,{z}],[0,1,{z}]]}}"#);
    let line = |scalar: &str, z: &str| {
        format!(
            r#"{{"id":1,"op":"intersect","scalar":"{scalar}","a":{},"b":{}}}"#,
            t("0"),
            t(z)
        )
    };
    let e = error_of(&line("f32", r#""1e300""#));
    assert!(
        e.starts_with("b.v[0][2]: 1e300 is not finite as f32"),
        "{e}"
    );
    let e = error_of(&line("f64", r#""1e400""#));
    assert!(
        e.starts_with("b.v[0][2]: a value beyond the double range is not finite as f64"),
        "{e}"
    );
    // 1e38 is a finite f32: answered (the planes are 1e38 apart).
    assert_eq!(answer(&line("f32", "1e38"))["intersect"], false);
}

/// Decisions on the float paths are exact on the rounded inputs, also for a box
/// given as axes + half_extents, whose half-axes (products) need not be
/// representable. The triangle's vertex (0.4, −3.7, −1.5) has box coordinate
/// s0 = (0.6·(0.4 − 1.8) + 0.8·(−3.7 + 1))/3 ≈ −1 − 2e-16 in exact arithmetic on
/// these doubles (computed independently with Python fractions), just outside:
/// rounding the products first made the old f64 path answer true.
#[test]
fn float_path_decides_axes_form_boxes_exactly() {
    let body = r#""op":"intersect","a":{"type":"box","center":[1.8,-1.0,0.0],"axes":[[0.6,0.8,0.0],[-0.8,0.6,0.0],[0.0,0.0,1.0]],"half_extents":[3.0,1.0,3.0]},"b":{"type":"triangle","v":[[2.5,-9.7,-2.5],[0.4,-3.7,-1.5],[1.5,-4.7,2.5]]}"#;
    for scalar in ["exact", "f64"] {
        let v = answer(&format!(r#"{{"scalar":"{scalar}",{body}}}"#));
        assert_eq!(v["intersect"], false, "{scalar}: {v}");
    }
    // The f64 axis is a JSON number triple, scaled so its largest component is
    // in [1, 2) before rounding.
    let v = answer(&format!(r#"{{"scalar":"f64",{body}}}"#));
    let axis: Vec<f64> = v["separating_axis"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c.as_f64().unwrap())
        .collect();
    let big = axis.iter().fold(0f64, |m, c| m.max(c.abs()));
    assert!((1.0..2.0).contains(&big), "{v}");
}

/// ccd on the f64 path: exact decisions (a touching contact is found), times as
/// numbers rounded outward, with the polynomial and the feature kept.
#[test]
fn float_path_ccd_finds_touching_contacts() {
    // b's face x = −1 moves as 3 − 2t and meets a's face x = 1 at t = 1 (by hand).
    let q = r#"{"id":"end","op":"ccd","scalar":"f64","a":{"shape":{"type":"box","center":[0,0,0],"half_axes":[[1,0,0],[0,1,0],[0,0,1]]}},"b":{"shape":{"type":"box","center":[0,0,0],"half_axes":[[1,0,0],[0,1,0],[0,0,1]]},"motion":{"matrix":[[1,0,0],[0,1,0],[0,0,1],[["4","-2"],0,0]]}}}"#;
    let v = answer(q);
    assert_eq!(v["hit"], true, "{v}");
    assert_eq!(v["t_enter"]["lo"], 1.0);
    assert_eq!(v["t_enter"]["hi"], 1.0);
    assert_eq!(v["t_enter"]["poly"], json!(["-1", "1"]));
    assert_eq!(v["t_exit"]["kind"], "end");
    assert_eq!(v["feature"]["a"], "face +x", "{v}");
}

/// ccd_vf on the f32 path: the vertex z = 1 − 3t crosses the triangle's plane
/// at t = 1/3 (by hand); the f32 interval encloses it, outward.
#[test]
fn float_path_points_ccd_rounds_times_outward() {
    let q = r#"{"op":"ccd_vf","scalar":"f32","t0":[[0.25,0.25,1],[0,0,0],[1,0,0],[0,1,0]],"t1":[[0.25,0.25,-2],[0,0,0],[1,0,0],[0,1,0]]}"#;
    let v = answer(q);
    assert_eq!(v["hit"], true, "{v}");
    let (lo, hi) = (
        v["toi"]["lo"].as_f64().unwrap(),
        v["toi"]["hi"].as_f64().unwrap(),
    );
    assert!(
        (lo as f32) as f64 == lo && (hi as f32) as f64 == hi,
        "f32 values"
    );
    // lo < 1/3 < hi: 3·lo < 1 < 3·hi exactly (3x is exact for these f32 values in f64).
    assert!(3.0 * lo < 1.0 && 3.0 * hi > 1.0, "{v}");
    assert_eq!(v["toi"]["poly"], json!(["-1", "3"]));
}

/// distance_f64 is the double nearest the exact distance, also where the
/// squared distance leaves the double range (planes 1e300 and 1e-300 apart).
#[test]
fn distance_f64_where_the_square_overflows_or_underflows() {
    let t = |z: &str| format!(r#"{{"type":"triangle","v":[[0,0,{z}],[1,0,{z}],[0,1,{z}]]}}"#);
    for (z, d) in [("1e300", 1e300), ("1e-300", 1e-300), ("1e155", 1e155)] {
        let v = answer(&format!(
            r#"{{"op":"distance","a":{},"b":{}}}"#,
            t("0"),
            t(z)
        ));
        assert_eq!(v["distance_f64"].as_f64(), Some(d), "{v}");
    }
}

/// Claims of certificates are checked exactly against the shapes; fields that
/// are not judged are listed and do not decide the verdict.
#[test]
fn certificate_claims_are_checked() {
    let apart = r#""op":"intersect","a":{"type":"box","center":[0,0,0],"half_axes":[[1,0,0],[0,1,0],[0,0,1]]},"b":{"type":"box","center":[3,0,0],"half_axes":[[1,0,0],[0,1,0],[0,0,1]]}"#;
    let judge = |claim: &str| {
        let v = answer(&format!(r#"{{{apart},"claim":{claim}}}"#));
        (
            v["verdict"] == "agree",
            v["detail"].as_str().unwrap().to_string(),
        )
    };
    // The boxes span x ∈ [−1, 1] and [2, 4]: x separates, y does not.
    assert!(judge(r#"{"separating_axis":[1,0,0]}"#).0);
    assert!(judge(r#"{"separating_axis":["-1/2","0","0"]}"#).0);
    assert!(!judge(r#"{"separating_axis":[0,1,0]}"#).0);
    let (ok, d) = judge(r#"{"intersect":false,"contact":1}"#);
    assert!(ok && d.contains("not judged: contact"), "{d}");
    assert!(!judge(r#"{"witness":[1,0,0]}"#).0);
    // Closest points between the faces x = 1 and x = 2: distance² 1.
    let dist = apart.replace("intersect", "distance");
    let v = answer(&format!(
        r#"{{{dist},"claim":{{"closest":[["1","1/2","0"],["2","1/2","0"]]}}}}"#
    ));
    assert_eq!(v["verdict"], "agree", "{v}");
    let v = answer(&format!(
        r#"{{{dist},"claim":{{"closest":[["1","1/2","0"],["2","1","0"]]}}}}"#
    ));
    assert_eq!(v["verdict"], "disagree", "|pa − pb|² = 5/4: {v}");
    let v = answer(&format!(
        r#"{{{dist},"claim":{{"distance_squared_f64":"inf"}}}}"#
    ));
    assert_eq!(v["verdict"], "disagree", "{v}");
}

/// A claimed double equal to the correctly rounded exact value agrees even
/// where that rounding is coarser than `rel_tol` (subnormals) or underflows to
/// 0; the detail gives the relative error against the exact value. Found by
/// an audit: `distance_f64` 1e-316 was judged "disagree" with "relative error 0".
#[test]
fn rounded_doubles_of_tiny_distances_agree() {
    // Two boxes 1e-316 apart along x: d = 1/10^316, d² = 1/10^632.
    let q = r#""op":"distance","a":{"type":"box","center":[0,0,0],"half_axes":[["1e-316",0,0],[0,1,0],[0,0,1]]},"b":{"type":"box","center":["3e-316",0,0],"half_axes":[["1e-316",0,0],[0,1,0],[0,0,1]]}"#;
    let judge = |claim: &str| answer(&format!(r#"{{{q},"claim":{claim}}}"#));
    let v = judge(r#"{"distance_f64":1e-316}"#);
    assert_eq!(v["verdict"], "agree", "{v}");
    // The double nearest 1e-316 is 1e-316·(1 + 1.634…e-8) (Python fractions:
    // Fraction(1e-316) * 10**316 − 1 = 1.6340…e-8).
    let d = v["detail"].as_str().unwrap();
    assert!(d.contains("relative error 1.634e-8"), "{d}");
    let v = judge(r#"{"distance_squared_f64":0.0}"#);
    assert_eq!(v["verdict"], "agree", "underflows to 0: {v}");
    assert!(
        v["detail"]
            .as_str()
            .unwrap()
            .contains("relative error 1.000e0"),
        "{v}"
    );
    // A neighbouring double is neither the rounding nor within 1e-9.
    let v = judge(r#"{"distance_f64":1.00001e-316}"#);
    assert_eq!(v["verdict"], "disagree", "{v}");
    let v = judge(r#"{"distance_squared_f64":5e-324}"#);
    assert_eq!(v["verdict"], "disagree", "{v}");
}

/// `intersect` claimed on a distance query is judged by the exact distance.
#[test]
fn intersect_claim_on_a_distance_query() {
    let apart = r#""op":"distance","a":{"type":"box","center":[0,0,0],"half_axes":[[1,0,0],[0,1,0],[0,0,1]]},"b":{"type":"box","center":[3,0,0],"half_axes":[[1,0,0],[0,1,0],[0,0,1]]}"#;
    let touching = apart.replace("[3,0,0]", "[2,0,0]");
    let judge =
        |q: &str, claim: &str| answer(&format!(r#"{{{q},"claim":{claim}}}"#))["verdict"].clone();
    assert_eq!(
        judge(apart, r#"{"intersect":false,"distance_f64":1.0}"#),
        "agree"
    );
    assert_eq!(judge(apart, r#"{"intersect":true}"#), "disagree");
    assert_eq!(
        judge(&touching, r#"{"intersect":true,"distance_f64":0.0}"#),
        "agree"
    );
    assert_eq!(judge(&touching, r#"{"intersect":false}"#), "disagree");
}

/// "an error names the first vertex that is off", in the protocol's order
/// c, f, h, g: with both g and h off, h is named.
#[test]
fn cube_error_names_the_first_vertex_in_the_protocols_order() {
    let c = r#"{"type":"cube","vertices":[[0,0,0],[1,0,0],[1,1,0],[0,1,0],[0,0,1],[1,0,1],[1,1,2],[0,1,2]]}"#;
    let e = error_of(&intersect_line(1, c, UNIT_BOX));
    assert!(
        e.starts_with("a.vertices[7]: not a parallelepiped: vertex h is off"),
        "{e}"
    );
}

mod mixed_lines;

use exact_collision::protocol::{answer_bytes, answer_bytes_general, LineOutcome};

/// The program's path (lean where it can) and the general path give the same
/// bytes and the same outcome for `line`.
fn same_on_both_paths(line: &[u8], n: usize) -> LineOutcome {
    let (mut lean, mut general) = (Vec::new(), Vec::new());
    let x = answer_bytes(line, n, &mut lean);
    let y = answer_bytes_general(line, n, &mut general);
    assert_eq!(
        String::from_utf8_lossy(&lean),
        String::from_utf8_lossy(&general),
        "line {n}: {}",
        String::from_utf8_lossy(line)
    );
    assert_eq!((x.ok, x.agrees), (y.ok, y.agrees), "line {n}");
    x
}

/// Generated lines of every op, both number forms, every `scalar`, ids of
/// every JSON kind, and spoiled lines of many sorts: byte for byte the same
/// answers on both paths, and the lean path answers most good lines (so the
/// comparison is not vacuous).
#[test]
fn lean_path_answers_generated_lines_as_the_general_path() {
    let n = if std::env::var_os("EXACT_HEAVY").is_some() {
        30_000
    } else {
        1_500
    };
    let lines = mixed_lines::mixed_lines(1, n);
    let (mut lean, mut lean_errors, mut general) = (0, 0, 0);
    for (i, l) in lines.iter().enumerate() {
        let o = same_on_both_paths(l, i + 1);
        match (o.lean, o.ok) {
            (true, true) => lean += 1,
            (true, false) => lean_errors += 1,
            (false, _) => general += 1,
        }
    }
    if lean <= n / 3 {
        for seed in 0..40 {
            let l = mixed_lines::good_line(seed);
            let mut out = Vec::new();
            if !answer_bytes(l.as_bytes(), 1, &mut out).lean {
                eprintln!("general: {l}\n  -> {}", String::from_utf8_lossy(&out));
            }
        }
    }
    assert!(lean > n / 3, "{lean} lean answers, {general} general");
    assert!(general > n / 5, "{lean} lean answers, {general} general");
    // Query errors found after reading (a degenerate triangle) are answered
    // on the lean path too; whether the generator made one is not asserted.
    let _ = lean_errors;
}

/// Generated `contact` lines (boxes of every form, cubes, prisms,
/// triangles; meeting and apart; every `scalar`, ids of every JSON kind)
/// and spoiled ones: byte for byte the same answers on both paths, and the
/// lean path answers most of them.
#[test]
fn lean_path_answers_contact_lines_as_the_general_path() {
    let n = if std::env::var_os("EXACT_HEAVY").is_some() {
        6_000
    } else {
        400
    };
    let lines = mixed_lines::contact_lines(3, n);
    let (mut lean, mut general, mut meeting, mut apart) = (0, 0, 0, 0);
    for (i, l) in lines.iter().enumerate() {
        let o = same_on_both_paths(l, i + 1);
        if o.lean {
            lean += 1;
        } else {
            general += 1;
        }
        let mut out = Vec::new();
        answer_bytes(l, 1, &mut out);
        let text = String::from_utf8_lossy(&out);
        meeting += text.contains(r#""intersect":true,"depth_squared""#) as usize;
        apart += text.contains(r#""intersect":false,"distance_squared""#) as usize;
    }
    assert!(lean > n / 4, "{lean} lean answers, {general} general");
    assert!(general > n / 20, "{lean} lean answers, {general} general");
    assert!(
        meeting > n / 10 && apart > n / 10,
        "{meeting} meeting, {apart} apart"
    );
}

/// The forms engines send, and the rarer ones the lean path still reads
/// (`intersect`, `distance`, `ccd_vf`, `ccd_ee`): all answered on the lean
/// path, as the general path answers them.
#[test]
fn lean_path_takes_every_number_form_scalar_and_plain_id() {
    let tri = |z: &str| format!(r#"{{"type":"triangle","v":[[0,0,{z}],[1,0,{z}],[0,1,{z}]]}}"#);
    let tilted = r#"{"type":"triangle","v":[[0.25,0.25,-1],[0.25,0.25,1],[2,2,0]]}"#;
    let boxed = |c: &str| {
        format!(
            r#"{{"type":"box","center":[{c},0,0],"half_axes":[[0.5,0,0],[0,0.5,0],[0,0,0.5]]}}"#
        )
    };
    let axes_box = r#"{"type":"box","center":[0,0,0],"axes":[[1,1,0],[-1,1,0],[0,0,1]],"half_extents":["1/3",0.1,2]}"#;
    let prism = r#"{"type":"prism","base":[[0,0],[1,0],[1,1],[0,1]],"z":[-1,"1/2"]}"#;
    let cube = r#"{"type":"cube","vertices":[[0,0,0],[1,0,0],[1,1,0],[0,1,0],[0,0,1],[1,0,1],[1,1,1],[0,1,1]]}"#;
    let pose = r#"{"type":"box","half_extents":[0.5,0.25,1],"rotation":{"quaternion":[0.9238795325112867,0,0,0.3826834323650898]},"translation":[0.25,0,0.5]}"#;
    let mut lines = Vec::new();
    for id in [
        "",
        r#""id":7,"#,
        r#""id":-0,"#,
        r#""id":1E5,"#,
        r#""id":1e400,"#,
        r#""id":12345678901234567890123,"#,
        r#""id":"caf\u00e9 \"q\"","#,
        r#""id":"日本","#,
        r#""id":null,"#,
        r#""id":true,"#,
    ] {
        for scalar in [
            "",
            r#""scalar":"exact","#,
            r#""scalar":"f64","#,
            r#""scalar":"f32","#,
        ] {
            for (op, a, b) in [
                ("intersect", tri("0"), tri("0.1")),
                ("intersect", tri("0"), tilted.to_string()),
                ("distance", tri("\"1/3\""), tri("1e-3")),
                ("intersect", boxed("0"), boxed("0.9")),
                ("intersect", boxed("\"0.5\""), boxed("1.1")),
                ("intersect", axes_box.to_string(), boxed("2")),
                ("intersect", prism.to_string(), cube.to_string()),
                ("distance", tri("5"), tri("0.5")),
                ("contact", boxed("0"), boxed("0.75")),
                ("contact", boxed("\"1/3\""), boxed("0.5")),
                ("contact", boxed("0"), boxed("3")),
                ("contact", axes_box.to_string(), boxed("1")),
                ("contact", pose.to_string(), boxed("0.5")),
                (
                    "contact",
                    pose.to_string(),
                    pose.replace("[0.25,0,0.5]", "[3,0,0.5]"),
                ),
                ("contact", cube.to_string(), boxed("1.25")),
                ("contact", prism.to_string(), cube.to_string()),
                ("contact", tri("0"), tilted.to_string()),
            ] {
                lines.push(format!(r#"{{{id}{scalar}"op":"{op}","a":{a},"b":{b}}}"#));
            }
        }
    }
    // The points ccd ops: both number forms, every scalar, tolerances.
    for scalar in ["", r#""scalar":"f64","#, r#""scalar":"f32","#] {
        for tol in ["", r#""tolerance":"1/1000","#, r#""tolerance":1e-3,"#] {
            for z in ["-2", "\"-1/3\"", "0.5", "1e-300"] {
                lines.push(format!(
                    r#"{{"id":"vf",{scalar}{tol}"op":"ccd_vf","t0":[[0.25,0.25,1],[0,0,0],[1,0,0],[0,1,0]],"t1":[[0.25,0.25,{z}],[0,0,0],[1,0,0],[0,1,0]]}}"#
                ));
                lines.push(format!(
                    r#"{{{scalar}{tol}"op":"ccd_ee","t0":[[0,0,1],[1,0,1],[0.5,-1,0],[0.5,1,0]],"t1":[[0,0,{z}],[1,0,-1],[0.5,-1,0],[0.5,1,0]]}}"#
                ));
            }
        }
    }
    // The boxes ccd op: both motion forms, a cube, a null motion, time ranges.
    let cube = r#"{"type":"cube","vertices":[[0,0,0],[2,0,0],[2,2,0],[0,2,0],[0,0,2],[2,0,2],[2,2,2],[0,2,2]]}"#;
    for scalar in ["", r#""scalar":"f64","#, r#""scalar":"f32","#] {
        for motion in [
            r#""motion":{"matrix":[[1,0,0],[0,1,0],[0,0,1],[["4","-2"],0,0]]}"#.to_string(),
            r#""motion":{"matrix":[[1,0,0,0],[0,1,0,0],[0,0,1,0],[["4","-2"],0,0,[2]]],"denominator":[2]}"#.to_string(),
            r#""motion":{"quaternion":[["4","3"],["4","-2"],["-3","3"],["2","5"]],"translation":[[1,"-6"],0.5,"0"]}"#.to_string(),
            r#""motion":{"quaternion":[1,0,0,0],"translation":[["3","-3"],0,0]}"#.to_string(),
            r#""motion":null"#.to_string(),
        ] {
            for extra in ["", r#""t_range":["1/4",1],"tolerance":"1e-6","#] {
                lines.push(format!(
                    r#"{{"id":"box",{scalar}{extra}"op":"ccd","a":{{"shape":{UNIT_BOX}}},"b":{{"shape":{cube},{motion}}}}}"#
                ));
            }
        }
    }
    // White space around every token.
    lines.push(format!(
        " {{ \"op\" :\t\"distance\" , \"a\" : {} , \"b\" : {} }} ",
        tri("0").replace(',', " , "),
        tri("1")
    ));
    // A degenerate triangle: a query error, answered on the lean path too.
    lines.push(format!(
        r#"{{"id":3,"op":"intersect","a":{{"type":"triangle","v":[[0,0,0],[1,1,1],[2,2,2]]}},"b":{}}}"#,
        tri("0")
    ));
    for (i, l) in lines.iter().enumerate() {
        let o = same_on_both_paths(l.as_bytes(), i + 1);
        assert!(o.lean, "the lean path should answer {l}");
    }
}

/// Lines the lean path leaves to the general path (it cannot tell them apart
/// from the general path's reading without it): still the same answers.
#[test]
fn lean_path_leaves_the_rest_to_the_general_path() {
    let t = r#"{"type":"triangle","v":[[0,0,0],[1,0,0],[0,1,0]]}"#;
    for l in [
        format!(r#"{{"id":[1,{{"a":2}}],"op":"intersect","a":{t},"b":{t}}}"#),
        format!(r#"{{"id":{{"k":1,"k":2}},"op":"intersect","a":{t},"b":{t}}}"#),
        format!(r#"{{"op":"intersect","a":{t},"b":{t},"note":1}}"#),
        format!(r#"{{"op":"intersect","a":{t},"b":{t},"a":{t}}}"#),
        format!(r#"{{"op":"intersect","a":{t},"b":{t},"claim":{{"intersect":true}}}}"#),
        format!(r#"{{"op":"intersect","a":{t},"b":[{t}]}}"#),
        format!(r#"{{"op":"intersect","a":{t},"b":null}}"#),
        format!(r#"[{{"op":"intersect","a":{t},"b":{t}}}]"#),
        format!(r#"{{"op":"intersect","scalar":null,"a":{t},"b":{t}}}"#),
        format!(r#"{{"op":"intersect","a":{t},"b":{}}}"#, t.replace("[0,1,0]", r#"[0,"\u0031",0]"#)),
        format!(r#"{{"op":"intersect","a":{t},"b":{}}}"#, t.replace("[0,1,0]", "[0,1e400,0]")),
        format!(r#"{{"op":"intersect","a":{t},"b":{}}}"#, t.replace("[0,1,0]", r#"[0,"1/0",0]"#)),
        format!(r#"{{"op":"intersect","a":{t},"b":{}}}"#, t.replace("[0,1,0]", "[0,1]")),
        format!(r#"{{"op":"distance","deep":{}0{},"a":{t},"b":{t}}}"#, "[".repeat(127), "]".repeat(127)),
        // Nested past serde_json's limit where a number goes, in a field the
        // op does not read: the general path refuses the line for its depth.
        format!(r#"{{"op":"distance","tolerance":{}0{},"a":{t},"b":{t}}}"#, "[".repeat(130), "]".repeat(130)),
        format!(
            r#"{{"op":"distance","a":{},"b":{t}}}"#,
            t.replace("\"v\"", &format!(r#""center":[{}0{},0,0],"v""#, "[".repeat(130), "]".repeat(130)))
        ),
        r#"{"op":"ccd_vf","t0":[[0,0,1],[0,0,0],[1,0,0],[0,1,0]],"t1":[[0,0,-1],[0,0,0],[1,0,0],[0,1,0]],"tolerance":0}"#.to_string(),
        r#"{"op":"ccd_ee","t0":[[0,0,1],[0,0,0],[1,0,0],[0,1,0]],"t1":[[0,0,-1],[0,0,0],[1,0,0],[0,1,0]],"note":[0,1]}"#.to_string(),
        format!(r#"{{"op":"ccd","a":{{"shape":{t}}},"b":{{"shape":{UNIT_BOX}}}}}"#),
        format!(r#"{{"op":"ccd","t_range":[1,0],"a":{{"shape":{UNIT_BOX}}},"b":{{"shape":{UNIT_BOX}}}}}"#),
        format!(r#"{{"op":"ccd","a":{{"shape":{UNIT_BOX},"motion":{{"quaternion":[0,0,[0,0],0]}}}},"b":{{"shape":{UNIT_BOX}}}}}"#),
        format!(r#"{{"op":"ccd","a":{{"shape":{UNIT_BOX},"motion":{{"matrix":[[1,0,0,1],[0,1,0],[0,0,1],[0,0,0]]}}}},"b":{{"shape":{UNIT_BOX}}}}}"#),
        format!(r#"{{"op":"ccd","a":{{"shape":{UNIT_BOX},"motion":{{"matrix":[[1,0,0],[0,1,0],[0,0,1],[0,0,0]],"quaternion":[1,0,0,0]}}}},"b":{{"shape":{UNIT_BOX}}}}}"#),
        format!(r#"{{"op":"ccd","a":{{"shape":{UNIT_BOX},"motion":{{"quaternion":[[],0,0,0]}}}},"b":{{"shape":{UNIT_BOX}}}}}"#),
        format!(r#"{{"op":"ccd","a":{{"shape":{UNIT_BOX},"motion":{{"quaternion":[[[1]],0,0,0]}}}},"b":{{"shape":{UNIT_BOX}}}}}"#),
        format!(r#"{{"op":"ccd","a":{{"shape":{UNIT_BOX},"motion":{{"quaternion":[1,0,0,0],"translation":[{}1{},0,0]}}}},"b":{{"shape":{UNIT_BOX}}}}}"#, "[".repeat(130), "]".repeat(130)),
        r#"{"op":"intersect","a":{"type":"box","center":[0,0,0],"half_axes":[[1,0,0],[0,1,0],[0,0,0]]},"b":{"type":"box","center":[0,0,0],"half_axes":[[1,0,0],[0,1,0],[0,0,1]]}}"#.to_string(),
        r#"{"op":"contact","a":{"type":"box","center":[0,0,0],"half_axes":[[1,0,0],[0,1,0],[0,0,0]]},"b":{"type":"box","center":[0,0,0],"half_axes":[[1,0,0],[0,1,0],[0,0,1]]}}"#.to_string(),
        format!(r#"{{"op":"contact","a":{t},"b":{t},"claim":{{"depth_f64":0}}}}"#),
        format!(r#"{{"op":"contact","tolerance":1,"a":{UNIT_BOX},"b":{UNIT_BOX}}}"#),
        format!(r#"{{"op":"contact","a":{{"type":"box","half_extents":[1,1,1],"rotation":{{"quaternion":[1,"1/3",0,0]}}}},"b":{UNIT_BOX}}}"#),
        format!(r#"{{"op":"contact","a":{{"type":"box","half_extents":[1,1,1],"rotation":{{"quaternion":[0,0,0,0]}}}},"b":{UNIT_BOX}}}"#),
        r#"{"op":"intersect","a":{"type":"box","center":[0,0,0],"axes":[[1,0,0],[0,1,0],[0,0,1]],"half_extents":[1,-1,1]},"b":{"type":"box","center":[0,0,0],"half_axes":[[1,0,0],[0,1,0],[0,0,1]]}}"#.to_string(),
    ] {
        let o = same_on_both_paths(l.as_bytes(), 1);
        assert!(!o.lean, "the general path should answer {l}");
    }
}

/// The throughput corpus (../shared/throughput, beside the repository): the
/// first lines of each file (every line with EXACT_HEAVY=1), byte for byte the
/// same on both paths.
#[test]
fn lean_path_answers_the_throughput_files_as_the_general_path() {
    // shared/ is beside the repository (or beside a folder of work trees).
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .ancestors()
        .map(|d| d.join("shared/throughput"))
        .find(|d| d.is_dir())
        .expect("shared/throughput beside the repository");
    let heavy = std::env::var_os("EXACT_HEAVY").is_some();
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "jsonl"))
        .collect();
    files.sort();
    assert!(files.len() >= 6, "{files:?}");
    for f in files {
        let text = std::fs::read(&f).unwrap();
        let take = if heavy { usize::MAX } else { 3 };
        for (i, l) in text.split(|&c| c == b'\n').take(take).enumerate() {
            same_on_both_paths(l, i + 1);
        }
    }
}

/// The lean scanner against the general path on lines spoiled one byte at a
/// time: every line of every op cut short, with a byte deleted, or with a
/// byte put in (JSON white space and non-JSON white space, digits, signs,
/// `.`, `e`, quotes, backslashes, brackets, a control character, a
/// multi-byte character) at every position (every 7th without EXACT_HEAVY),
/// and with numbers written in forms JSON refuses (leading zeros, `+`, bare
/// `.`). Byte for byte the same answers on both paths, whichever takes them.
#[test]
fn lean_scanner_agrees_on_spoiled_lines() {
    let heavy = std::env::var_os("EXACT_HEAVY").is_some();
    let step = if heavy { 1 } else { 7 };
    let lines = [
        r#"{"id":1,"op":"intersect","a":{"type":"box","center":[0.5,-2.75,1e-3],"half_axes":[[0.25,0,0],[0,0.5,0],[0,0,1.5]]},"b":{"type":"triangle","v":[[0,0,0],[1,0,0],[0,1,0]]}}"#.to_string(),
        r#"{"id":"a b","op":"distance","scalar":"f64","a":{"type":"prism","base":[[0,0],[1,0],[1,1],[0,1]],"z":[-1,"1/2"]},"b":{"type":"cube","vertices":[[0,0,2],[1,0,2],[1,1,2],[0,1,2],[0,0,3],[1,0,3],[1,1,3],[0,1,3]]}}"#.to_string(),
        r#"{"op":"ccd_vf","t0":[["1/4","1/4","1/1"],["0/1","0/1","0/1"],["1","0","0"],["0","1","0"]],"t1":[["1/4","1/4","-3/2"],[0,0,0],[1,0,0],[0,1,0]],"tolerance":"1/1024"}"#.to_string(),
        r#"{"id":-7,"op":"ccd_ee","t0":[[0,0,1],[1,0,1],[0.5,-1,0],[0.5,1,0]],"t1":[[0,0,-1],[1,0,-1],[0.5,-1,0],[0.5,1,0]]}"#.to_string(),
        format!(r#"{{"op":"ccd","t_range":[0,"1/2"],"a":{{"shape":{UNIT_BOX}}},"b":{{"shape":{UNIT_BOX},"motion":{{"quaternion":[1,0,0,["0","1"]],"translation":[[3,-6],0,0]}}}}}}"#),
        r#"{"id":2,"op":"contact","scalar":"f64","a":{"type":"box","center":[0.5,-0.25,1e-3],"half_axes":[[0.5,0.5,0],[-0.5,0.5,0],[0,0,0.75]]},"b":{"type":"box","half_extents":[0.5,1,"1/4"],"rotation":{"quaternion":[1,0,0,0]},"translation":[1,0,0.5]}}"#.to_string(),
        r#"{"op":"contact","a":{"type":"cube","vertices":[[0,0,0],[1,0,0],[1,1,0],[0,1,0],[0,0,1],[1,0,1],[1,1,1],[0,1,1]]},"b":{"type":"box","center":[0.5,0.5,1.25],"axes":[[1,1,0],[-1,1,0],[0,0,1]],"half_extents":[0.5,"1/4",0.5]}}"#.to_string(),
    ];
    let inserts: [&[u8]; 22] = [
        b" ",
        b"\t",
        b"\r",
        b"\x0b",
        b"\x0c",
        "\u{a0}".as_bytes(),
        b"0",
        b"7",
        b"-",
        b"+",
        b".",
        b"e",
        b"\"",
        b"\\",
        b",",
        b":",
        b"[",
        b"]",
        b"{",
        b"}",
        b"\x01",
        "é".as_bytes(),
    ];
    let mut n = 0;
    for l in &lines {
        let b = l.as_bytes();
        assert!(
            same_on_both_paths(b, 1).lean,
            "the lean path should answer {l}"
        );
        for i in (0..=b.len()).step_by(step) {
            let mut variants = vec![b[..i].to_vec()];
            if i < b.len() {
                variants.push([&b[..i], &b[i + 1..]].concat());
            }
            for ins in inserts {
                variants.push([&b[..i], ins, &b[i..]].concat());
            }
            for v in variants {
                same_on_both_paths(&v, 1);
                n += 1;
            }
        }
        for (from, to) in [
            ("0.5", "00.5"),
            ("0.5", "+0.5"),
            ("0.5", ".5"),
            ("0.5", "0.5e"),
            ("0.5", "5e-1"),
            ("0.5", "0.50000000000000000000001"),
            ("0,", "-0,"),
            ("0,", "0.0E+0,"),
            ("1/", "01/"),
            ("1/", "+1/"),
            ("/4", "/04"),
            ("/4", "/3"),
            ("\"op\"", "\"o\\u0070\""),
            ("\"op\"", "\"op\":\"x\",\"op\""),
        ] {
            same_on_both_paths(l.replacen(from, to, 1).as_bytes(), 1);
        }
    }
    assert!(n > 1000, "{n} spoiled lines");
}
