//! Strict fields (unknown, misplaced, conflicting and duplicate keys), `meta`
//! and `category`, and shapes given by pose: every line through the program's
//! path and the general path alike (the same bytes), and through the program
//! itself for the neighbouring lines.

use exact_collision::protocol::{answer_bytes, answer_bytes_general};
use num_bigint::BigInt;
use num_rational::BigRational;
use serde_json::Value;
use std::io::Write;
use std::process::{Command, Stdio};

const UNIT_BOX: &str = r#"{"type":"box","center":[0,0,0],"half_axes":[[1,0,0],[0,1,0],[0,0,1]]}"#;

/// The answer to `line` on the program's path, checked equal (bytes and
/// outcome) to the general path's.
fn answer(line: &str) -> Value {
    let (mut lean, mut general) = (Vec::new(), Vec::new());
    let x = answer_bytes(line.as_bytes(), 1, &mut lean);
    let y = answer_bytes_general(line.as_bytes(), 1, &mut general);
    assert_eq!(
        String::from_utf8_lossy(&lean),
        String::from_utf8_lossy(&general),
        "{line}"
    );
    assert_eq!((x.ok, x.agrees), (y.ok, y.agrees), "{line}");
    serde_json::from_slice(&lean).unwrap()
}

fn error_of(line: &str) -> String {
    let v = answer(line);
    v.get("error")
        .and_then(Value::as_str)
        .unwrap_or_else(|| panic!("expected an error for {line}, got {v}"))
        .to_string()
}

/// `exact-collision query` on `input`: (status, answers).
fn run_query(input: &str) -> (i32, Vec<Value>) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_exact-collision"))
        .arg("query")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary runs");
    child
        .stdin
        .take()
        .unwrap()
        .write_all(input.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    let answers = String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    (out.status.code().unwrap_or(-1), answers)
}

fn ccd_line(id: i64, a_extra: &str, motion_b: &str, extra: &str) -> String {
    format!(
        r#"{{"id":{id},"op":"ccd"{extra},"a":{{"shape":{UNIT_BOX}{a_extra}}},"b":{{"shape":{UNIT_BOX},"motion":{motion_b}}}}}"#
    )
}

/// Issue 13, row 6: each misspelling (and `translation` beside `matrix`) was
/// silently ignored; now each is an error naming the field and the known
/// name it was probably meant to be, and the lines around it are answered.
#[test]
fn misspelt_fields_are_named_with_a_suggestion_and_neighbours_answered() {
    let slide = r#"{"matrix":[[1,0,0],[0,1,0],[0,0,1],[["4","-4"],0,0]]}"#;
    let good = ccd_line(0, "", slide, "");
    let cases = [
        (
            ccd_line(1, r#","motoin":{"quaternion":[1,0,0,0]}"#, slide, ""),
            "a.motoin: unknown field; did you mean \"motion\"?",
        ),
        (
            ccd_line(2, "", slide, r#","t-range":[0,1]"#),
            "t-range: unknown field; did you mean \"t_range\"?",
        ),
        (
            ccd_line(3, "", slide, r#","tolerence":"1e-6""#),
            "tolerence: unknown field; did you mean \"tolerance\"?",
        ),
        (
            ccd_line(
                4,
                "",
                r#"{"matrix":[[1,0,0],[0,1,0],[0,0,1],[["4","-4"],0,0]],"denominater":1}"#,
                "",
            ),
            "b.motion.denominater: unknown field; did you mean \"denominator\"?",
        ),
        (
            format!(r#"{{"id":5,"op":"distance","scaler":"f64","a":{UNIT_BOX},"b":{UNIT_BOX}}}"#),
            "scaler: unknown field; did you mean \"scalar\"?",
        ),
        (
            ccd_line(
                6,
                "",
                r#"{"matrix":[[1,0,0],[0,1,0],[0,0,1],[0,0,0]],"translation":[["4","-4"],0,0]}"#,
                "",
            ),
            "b.motion.translation: not allowed with matrix",
        ),
    ];
    let mut input = String::new();
    for (line, _) in &cases {
        input.push_str(&good);
        input.push('\n');
        input.push_str(line);
        input.push('\n');
    }
    input.push_str(&good);
    input.push('\n');
    let (status, answers) = run_query(&input);
    assert_eq!(status, 1, "failed lines make the exit status 1");
    assert_eq!(answers.len(), 2 * cases.len() + 1);
    // The good line: b slides from x = 4 to x = 0 and touches a at t = 1/2.
    let lo = answers[0]["t_enter"]["lo"].as_str().unwrap();
    assert_eq!((answers[0]["hit"].as_bool(), lo), (Some(true), "1/2"));
    for (i, (line, want)) in cases.iter().enumerate() {
        let before = &answers[2 * i];
        let bad = &answers[2 * i + 1];
        let after = &answers[2 * i + 2];
        for n in [before, after] {
            assert_eq!(n, &answers[0], "the neighbours of {line} are answered");
        }
        let e = bad["error"].as_str().unwrap_or_default();
        assert!(e.starts_with(want), "{line}\n  -> {bad}");
        assert_eq!(bad["id"], i as i64 + 1);
        assert_eq!(error_of(line), e);
    }
}

/// Fields of another op or another shape type, unknown fields with no close
/// name, and conflicting forms: each an error naming the field.
#[test]
fn misplaced_and_conflicting_fields_are_named() {
    let tri = r#"{"type":"triangle","v":[[0,0,0],[1,0,0],[0,1,0]]}"#;
    let cases = [
        (
            format!(r#"{{"op":"intersect","t_range":[0,1],"a":{tri},"b":{tri}}}"#),
            "t_range: not a field of an intersect query",
        ),
        (
            r#"{"op":"ccd_vf","a":1,"t0":[[0,0,1],[0,0,0],[1,0,0],[0,1,0]],"t1":[[0,0,-1],[0,0,0],[1,0,0],[0,1,0]]}"#.to_string(),
            "a: not a field of a ccd_vf query",
        ),
        (
            format!(r#"{{"op":"intersect","note":"x","a":{tri},"b":{tri}}}"#),
            "note: unknown field (the fields of an intersect query: id, op, scalar, claim, meta, category, a, b; free-form data goes in \"meta\")",
        ),
        (
            format!(r#"{{"op":"intersect","a":{tri},"b":{}}}"#, tri.replace("\"v\"", "\"center\":[0,0,0],\"v\"")),
            "b.center: not a field of a triangle (its fields: type, v, rotation, translation)",
        ),
        (
            format!(r#"{{"op":"intersect","a":{tri},"b":{}}}"#, tri.replace("\"v\"", "\"motion\":null,\"v\"")),
            "b.motion: not a field of a triangle",
        ),
        (
            format!(r#"{{"op":"intersect","a":{tri},"b":{}}}"#, tri.replace("\"v\"", "\"vv\"")),
            "b.vv: unknown field; did you mean \"v\"?",
        ),
        (
            format!(r#"{{"op":"intersect","a":{tri},"b":{}}}"#, UNIT_BOX.replace("\"center\"", "\"centre\"")),
            "b.centre: unknown field; did you mean \"center\"?",
        ),
        (
            format!(r#"{{"op":"intersect","a":{tri},"b":{}}}"#, UNIT_BOX.replace("\"center\"", "\"axes\":[[1,0,0],[0,1,0],[0,0,1]],\"center\"")),
            "b.axes: not allowed with half_axes",
        ),
        (
            format!(r#"{{"op":"intersect","a":{tri},"b":{{"type":"box","center":[0,0,0],"half_extents":[1,1,1]}}}}"#),
            "b.axes: missing (center + half_extents needs axes",
        ),
        (
            format!(r#"{{"op":"intersect","a":{tri},"b":{{"type":"box","center":[0,0,0]}}}}"#),
            "b.half_axes: missing",
        ),
        (
            format!(r#"{{"op":"intersect","a":{tri},"b":{tri},"claim":{{"intersect":true,"tolerence":1}}}}"#),
            "claim.tolerence: unknown field",
        ),
        (
            format!(r#"{{"op":"intersect","a":{tri},"b":{tri},"claim":{{"intersect":true,"distanse_f64":1}}}}"#),
            "claim.distanse_f64: unknown field; did you mean \"distance_f64\"?",
        ),
        (
            format!(r#"{{"op":"intersect","a":{tri},"b":{tri},"claim":{{"intersect":true,"contact":{{"kind":"point","point":[]}}}}}}"#),
            "claim.contact.point: unknown field; did you mean \"points\"?",
        ),
        (
            ccd_line(1, "", r#"{"quaternion":[1,0,0,0]}"#, r#","claim":{"t_enter":{"f46":0.5}}"#),
            "claim.t_enter.f46: unknown field; did you mean \"f64\"?",
        ),
        (
            ccd_line(1, "", r#"{"quaternion":[1,0,0,0]}"#, r#","claim":{"feature":{"kind":"FV","face":"face +x"}}"#),
            "claim.feature.face: unknown field (the fields of a feature: kind, a, b, degenerate)",
        ),
        (
            ccd_line(1, "", r#"{"quaternion":[1,0,0,0],"denominator":2}"#, ""),
            "b.motion.denominator: not allowed with quaternion",
        ),
        (
            ccd_line(1, r#","speed":2"#, r#"{"quaternion":[1,0,0,0]}"#, ""),
            "a.speed: unknown field (the fields of a moving box: shape, motion)",
        ),
        (
            format!(r#"{{"op":"intersect","a":{tri},"b":{tri},"category":["x"]}}"#),
            "category: expected a string, got an array",
        ),
        (
            format!(r#"{{"op":"intersect","a":{tri},"b":{tri},"odd key":1}}"#),
            "\"odd key\": unknown field",
        ),
        (
            format!(r#"{{"Op":"intersect","a":{tri},"b":{tri}}}"#),
            "Op: unknown field; did you mean \"op\"?",
        ),
    ];
    for (line, want) in cases {
        let e = error_of(&line);
        assert!(e.starts_with(want), "{line}\n  -> {e}");
    }
}

/// Duplicate keys, anywhere in a line: an error naming the key's path (a
/// `Value` would keep the last one silently); the line number is given, as
/// for malformed JSON.
#[test]
fn duplicate_keys_are_errors() {
    let tri = r#"{"type":"triangle","v":[[0,0,0],[1,0,0],[0,1,0]]}"#;
    for (line, want) in [
        (
            format!(r#"{{"op":"distance","op":"intersect","a":{tri},"b":{tri}}}"#),
            "op: duplicate key",
        ),
        (
            format!(
                r#"{{"op":"intersect","a":{tri},"b":{},"id":1}}"#,
                tri.replace("\"v\"", "\"type\":\"triangle\",\"v\"")
            ),
            "b.type: duplicate key",
        ),
        (
            format!(r#"{{"id":[0,{{"k":1,"k":2}}],"op":"intersect","a":{tri},"b":{tri}}}"#),
            "id[1].k: duplicate key",
        ),
        (
            format!(r#"{{"op":"intersect","a":{tri},"b":{tri},"meta":{{"x":1,"x":1}}}}"#),
            "meta.x: duplicate key",
        ),
        (
            format!(
                r#"{{"op":"intersect","a":{tri},"b":{tri},"claim":{{"intersect":true,"intersect":false}}}}"#
            ),
            "claim.intersect: duplicate key",
        ),
    ] {
        let (mut out, mut general) = (Vec::new(), Vec::new());
        let o = answer_bytes(line.as_bytes(), 9, &mut out);
        answer_bytes_general(line.as_bytes(), 9, &mut general);
        assert_eq!(out, general);
        assert!(!o.ok);
        let v: Value = serde_json::from_slice(&out).unwrap();
        assert_eq!(v["line"], 9, "{v}");
        assert_eq!(v["error"], want, "{line}");
    }
    // The same keys in different objects are fine.
    let v = answer(&format!(
        r#"{{"op":"intersect","a":{tri},"b":{tri},"meta":{{"op":1,"a":{{"op":2}}}}}}"#
    ));
    assert_eq!(v["intersect"], true, "{v}");
}

/// `meta` (any JSON value) and `category` (a string) are echoed after the
/// id, on answers and errors, and otherwise change nothing.
#[test]
fn meta_and_category_are_echoed() {
    let tri = |z: &str| format!(r#"{{"type":"triangle","v":[[0,0,{z}],[1,0,{z}],[0,1,{z}]]}}"#);
    let plain = answer(&format!(
        r#"{{"id":1,"op":"distance","a":{},"b":{}}}"#,
        tri("0"),
        tri("2")
    ));
    assert_eq!(plain["distance_squared"], "4");
    for meta in [r#"{"run":[1,"x"],"k":null}"#, "null", r#""note""#, "[1,2]"] {
        let v = answer(&format!(
            r#"{{"id":1,"category":"parallel","meta":{meta},"op":"distance","a":{},"b":{}}}"#,
            tri("0"),
            tri("2")
        ));
        let m: Value = serde_json::from_str(meta).unwrap();
        assert_eq!(v["meta"], m);
        assert_eq!(v["category"], "parallel");
        let mut rest = v.as_object().unwrap().clone();
        rest.remove("meta");
        rest.remove("category");
        assert_eq!(Value::Object(rest), plain, "nothing else changes");
        let keys: Vec<&String> = v.as_object().unwrap().keys().collect();
        assert_eq!(keys[..3], ["id", "category", "meta"]);
    }
    // On an error and on a verdict too.
    let v = answer(r#"{"id":2,"meta":{"k":1},"category":"c","op":"nope"}"#);
    assert_eq!(
        (v["meta"]["k"].as_i64(), v["category"].as_str()),
        (Some(1), Some("c"))
    );
    assert!(v["error"].as_str().unwrap().contains("unknown op"));
    let v = answer(&format!(
        r#"{{"meta":7,"category":"c","op":"intersect","a":{},"b":{},"claim":{{"intersect":false}}}}"#,
        tri("0"),
        tri("0")
    ));
    assert_eq!(
        (v["meta"].as_i64(), v["verdict"].as_str()),
        (Some(7), Some("disagree"))
    );
}

// ---- poses ----

fn q(n: i64, d: i64) -> BigRational {
    BigRational::new(BigInt::from(n), BigInt::from(d))
}

/// The exact value of a JSON number as the protocol reads it (the double).
fn dbl(x: f64) -> BigRational {
    BigRational::from_float(x).unwrap()
}

/// The Hamilton product of quaternions (w, x, y, z).
fn qmul(a: &[BigRational; 4], b: &[BigRational; 4]) -> [BigRational; 4] {
    let [aw, ax, ay, az] = a;
    let [bw, bx, by, bz] = b;
    [
        aw * bw - ax * bx - ay * by - az * bz,
        aw * bx + ax * bw + ay * bz - az * by,
        aw * by - ax * bz + ay * bw + az * bx,
        aw * bz + ax * by - ay * bx + az * bw,
    ]
}

/// q·(0, v)·q̄ / |q|², by quaternion products (independent of the crate's
/// matrix formula).
fn rotate(qq: &[BigRational; 4], v: [BigRational; 3]) -> [BigRational; 3] {
    let n = qq.iter().map(|c| c * c).sum::<BigRational>();
    let conj = [
        qq[0].clone(),
        -qq[1].clone(),
        -qq[2].clone(),
        -qq[3].clone(),
    ];
    let [v0, v1, v2] = v;
    let p = [q(0, 1), v0, v1, v2];
    let r = qmul(&qmul(qq, &p), &conj);
    assert_eq!(r[0], q(0, 1));
    [&r[1] / &n, &r[2] / &n, &r[3] / &n]
}

fn s(x: &BigRational) -> String {
    format!("\"{x}\"")
}

fn vec_text(v: &[BigRational; 3]) -> String {
    format!("[{},{},{}]", s(&v[0]), s(&v[1]), s(&v[2]))
}

/// The box `center` + `half_axes` in the half-axes form, exact strings.
fn half_axes_box(center: &[BigRational; 3], h: &[[BigRational; 3]; 3]) -> String {
    format!(
        r#"{{"type":"box","center":{},"half_axes":[{},{},{}]}}"#,
        vec_text(center),
        vec_text(&h[0]),
        vec_text(&h[1]),
        vec_text(&h[2])
    )
}

/// Other shapes near the origin to query a box against: every answer of the
/// pose form must be the half-axes form's, byte for byte.
fn probes() -> Vec<String> {
    vec![
        UNIT_BOX.to_string(),
        r#"{"type":"box","center":[2.5,0.25,0],"half_axes":[[0.5,0,0],[0,0.5,0],[0,0,0.5]]}"#
            .to_string(),
        r#"{"type":"triangle","v":[[3,0,0],[0,3,0.5],[-1,-1,3]]}"#.to_string(),
        r#"{"type":"triangle","v":[[2,2,2],[3,2,2],[2,3,2.5]]}"#.to_string(),
        r#"{"type":"prism","base":[[1.5,-1],[3,-1],[3,1],[1.5,1]],"z":[-0.5,0.5]}"#.to_string(),
    ]
}

/// The same answers for `pose` and `reference` against every probe, both
/// ways round, intersect and distance.
fn same_answers(pose: &str, reference: &str) {
    for p in probes() {
        for op in ["intersect", "distance"] {
            let (x, y) = (pose, reference);
            let a = answer(&format!(r#"{{"op":"{op}","a":{x},"b":{p}}}"#));
            let b = answer(&format!(r#"{{"op":"{op}","a":{y},"b":{p}}}"#));
            assert!(a.get("error").is_none(), "{a}");
            assert_eq!(a, b, "{op} {x} against {p}");
            let a = answer(&format!(r#"{{"op":"{op}","a":{p},"b":{x}}}"#));
            let b = answer(&format!(r#"{{"op":"{op}","a":{p},"b":{y}}}"#));
            assert_eq!(a, b, "{op} {p} against {x}");
        }
    }
}

/// A box by pose (unit and non-unit quaternions, quaternions of rounded
/// doubles) is exactly the box whose half-axes are half_extents[i] times the
/// rotated unit vector e_i, rotated here by quaternion products, not by the
/// crate's matrix.
#[test]
fn box_by_quaternion_pose_equals_the_half_axes_box() {
    let c = std::f64::consts::FRAC_PI_8;
    let quats: Vec<(&str, [BigRational; 4])> = vec![
        ("[1,0,0,0]", [q(1, 1), q(0, 1), q(0, 1), q(0, 1)]),
        ("[0.5,0.5,0.5,0.5]", [q(1, 2), q(1, 2), q(1, 2), q(1, 2)]),
        // Not unit: |q|² = 5.
        ("[1,2,0,0]", [q(1, 1), q(2, 1), q(0, 1), q(0, 1)]),
        (r#"[1,2,"1/3",-0.5]"#, [q(1, 1), q(2, 1), q(1, 3), q(-1, 2)]),
        // A unit quaternion as doubles: not exactly unit, so R = R(q)/|q|²
        // has denominators that are no power of two.
        (
            &*Box::leak(format!("[{:?},0,0,{:?}]", c.cos(), c.sin()).into_boxed_str()),
            [dbl(c.cos()), q(0, 1), q(0, 1), dbl(c.sin())],
        ),
        (
            &*Box::leak(format!("[{:?},{:?},{:?},0.1]", 0.3, -0.7, 0.2).into_boxed_str()),
            [dbl(0.3), dbl(-0.7), dbl(0.2), dbl(0.1)],
        ),
    ];
    let he = [q(1, 1), q(1, 2), q(3, 4)];
    let t = [q(1, 2), q(-1, 4), q(0, 1)];
    for (text, qq) in quats {
        let e = |i: usize| {
            let mut v = [q(0, 1), q(0, 1), q(0, 1)];
            v[i] = q(1, 1);
            v
        };
        let h = [0, 1, 2].map(|i| rotate(&qq, e(i)).map(|x| x * &he[i]));
        let reference = half_axes_box(&t, &h);
        let pose = format!(
            r#"{{"type":"box","half_extents":[1,0.5,0.75],"rotation":{{"quaternion":{text}}},"translation":[0.5,-0.25,0]}}"#
        );
        same_answers(&pose, &reference);
    }
}

/// Hand-computed rotations: q = (1/2, 1/2, 1/2, 1/2) is the turn by 120°
/// about (1, 1, 1), x → y → z → x; q = (1, 2, 0, 0) (|q|² = 5) the turn
/// about x with cos = (1 − 4)/5 = −3/5, sin = 2·1·2/5 = 4/5.
#[test]
fn hand_computed_quaternion_poses() {
    let pose = r#"{"type":"box","half_extents":[1,2,3],"rotation":{"quaternion":[0.5,0.5,0.5,0.5]},"translation":[1,2,3]}"#;
    let reference = r#"{"type":"box","center":[1,2,3],"half_axes":[[0,1,0],[0,0,2],[3,0,0]]}"#;
    same_answers(pose, reference);
    let pose = r#"{"type":"box","half_extents":[1,1,1],"rotation":{"quaternion":[1,2,0,0]}}"#;
    let reference = r#"{"type":"box","center":[0,0,0],"half_axes":[[1,0,0],[0,"-3/5","4/5"],[0,"-4/5","-3/5"]]}"#;
    same_answers(pose, reference);
    // That box moved to x = 5 spans x in [4, 6] (its first half-axis is e_x,
    // the others have no x part), facing the unit box's face x = 1: the
    // distance is 3.
    let v = answer(&format!(
        r#"{{"op":"distance","a":{},"b":{UNIT_BOX}}}"#,
        pose.replace("}}", r#"},"translation":[5,0,0]}"#)
    ));
    assert_eq!(v["distance_squared"], "9", "{v}");
    // A triangle: v ↦ R·v + t with the 120° turn.
    let tri = r#"{"type":"triangle","v":[[1,0,0],[0,2,0],[0,0,3]],"rotation":{"quaternion":[0.5,0.5,0.5,0.5]},"translation":[1,2,3]}"#;
    let moved = r#"{"type":"triangle","v":[[1,3,3],[1,2,5],[4,2,3]]}"#;
    same_answers(tri, moved);
    // The identity defaults: no rotation, no translation.
    same_answers(r#"{"type":"box","half_extents":[1,1,1]}"#, UNIT_BOX);
    same_answers(
        r#"{"type":"triangle","v":[[0,0,0],[1,0,0],[0,1,0]],"translation":[0,0,0]}"#,
        r#"{"type":"triangle","v":[[0,0,0],[1,0,0],[0,1,0]]}"#,
    );
}

/// A matrix is taken as given, rows in the column-vector convention
/// (v ↦ R·v), half_axes[i] = half_extents[i] · column i: a non-orthogonal one
/// gives a parallelepiped.
#[test]
fn box_by_matrix_pose_equals_the_half_axes_box() {
    // Columns of R: (1, 0, 0), (2, 1, 0), (0, 0, 3); half-extents 1, 2, 1/2.
    let pose = r#"{"type":"box","half_extents":[1,2,0.5],"rotation":{"matrix":[[1,2,0],[0,1,0],[0,0,3]]},"translation":[0,"1/3",0]}"#;
    let reference =
        r#"{"type":"box","center":[0,"1/3",0],"half_axes":[[1,0,0],[4,2,0],[0,0,1.5]]}"#;
    same_answers(pose, reference);
    // A rotation by 90° about z as a matrix, and as the quaternion
    // (1, 0, 0, 1) (|q|² = 2).
    let m = r#"{"type":"box","half_extents":[1,0.5,0.25],"rotation":{"matrix":[[0,-1,0],[1,0,0],[0,0,1]]}}"#;
    let qz = r#"{"type":"box","half_extents":[1,0.5,0.25],"rotation":{"quaternion":[1,0,0,1]}}"#;
    let reference =
        r#"{"type":"box","center":[0,0,0],"half_axes":[[0,1,0],[-0.5,0,0],[0,0,0.25]]}"#;
    same_answers(m, reference);
    same_answers(qz, reference);
    // A triangle under a shear.
    let tri = r#"{"type":"triangle","v":[[1,0,0],[0,1,0],[0,0,1]],"rotation":{"matrix":[[1,2,0],[0,1,0],[0,0,3]]},"translation":[1,0,0]}"#;
    let moved = r#"{"type":"triangle","v":[[2,0,0],[3,1,0],[1,0,3]]}"#;
    same_answers(tri, moved);
}

/// A box by pose in a `ccd` query is the same box as its half-axes form.
#[test]
fn ccd_takes_boxes_by_pose() {
    let slide = r#"{"matrix":[[1,0,0],[0,1,0],[0,0,1],[["4","-4"],0,0]]}"#;
    let pose = r#"{"type":"box","half_extents":[1,1,1],"rotation":{"quaternion":[1,2,0,0]}}"#;
    let reference = r#"{"type":"box","center":[0,0,0],"half_axes":[[1,0,0],[0,"-3/5","4/5"],[0,"-4/5","-3/5"]]}"#;
    let line = |b: &str| {
        format!(r#"{{"op":"ccd","a":{{"shape":{UNIT_BOX}}},"b":{{"shape":{b},"motion":{slide}}}}}"#)
    };
    let (x, y) = (answer(&line(pose)), answer(&line(reference)));
    assert_eq!(x, y);
    // b's x-extent is [−1, 1] in its own frame, slid to 4 − 4t: touching
    // a's face x = 1 when 3 − 4t = 1.
    assert_eq!(x["t_enter"]["lo"], "1/2", "{x}");
}

/// Every pose error names its field.
#[test]
fn pose_errors_name_the_field() {
    let tri = r#"{"type":"triangle","v":[[0,0,0],[1,0,0],[0,1,0]]}"#;
    let bx =
        |fields: &str| format!(r#"{{"op":"intersect","a":{{"type":"box",{fields}}},"b":{tri}}}"#);
    let t = |fields: &str| {
        format!(
            r#"{{"op":"intersect","a":{{"type":"triangle","v":[[0,0,0],[1,0,0],[0,1,0]],{fields}}},"b":{tri}}}"#
        )
    };
    let he = r#""half_extents":[1,1,1]"#;
    let cases = [
        (
            bx(&format!(r#"{he},"rotation":{{"quaternion":[0,0,0,0]}}"#)),
            "a.rotation.quaternion: all components zero",
        ),
        (
            bx(&format!(
                r#"{he},"rotation":{{"quaternion":[0,"0",-0.0,"0/5"]}}"#
            )),
            "a.rotation.quaternion: all components zero",
        ),
        (
            t(r#""rotation":{"quaternion":[0,0,0,0]}"#),
            "a.rotation.quaternion: all components zero",
        ),
        (
            bx(&format!(r#"{he},"rotation":{{"quaternion":[1,0,0]}}"#)),
            "a.rotation.quaternion: expected 4 numbers (w, x, y, z), got 3",
        ),
        (
            bx(&format!(r#"{he},"rotation":{{"quaternion":[1,0,"x",0]}}"#)),
            "a.rotation.quaternion[2]:",
        ),
        (
            bx(&format!(
                r#"{he},"rotation":{{"quaternion":[1,0,1e400,0]}}"#
            )),
            "a.rotation.quaternion[2]:",
        ),
        (
            bx(&format!(
                r#"{he},"rotation":{{"matrix":[[1,0,0],[0,1,0]]}}"#
            )),
            "a.rotation.matrix: expected 3 rows, got 2",
        ),
        (
            bx(&format!(
                r#"{he},"rotation":{{"matrix":[[1,0,0],[0,1],[0,0,1]]}}"#
            )),
            "a.rotation.matrix[1]: expected 3 numbers, got 2",
        ),
        (
            bx(&format!(
                r#"{he},"rotation":{{"matrix":[[1,0,0],[0,1,0],[0,0,null]]}}"#
            )),
            "a.rotation.matrix[2][2]:",
        ),
        (
            bx(&format!(
                r#"{he},"rotation":{{"matrix":[[1,2,0],[2,4,0],[0,0,1]]}}"#
            )),
            "a.rotation.matrix: singular",
        ),
        (
            bx(&format!(
                r#"{he},"rotation":{{"matrix":[[1,0,0],[0,1,0],[0,0,1]],"quaternion":[1,0,0,0]}}"#
            )),
            "a.rotation: give either quaternion or matrix, not both",
        ),
        (
            bx(&format!(r#"{he},"rotation":{{}}"#)),
            "a.rotation: expected {\"quaternion\"",
        ),
        (
            bx(&format!(r#"{he},"rotation":[1,0,0,0]"#)),
            "a.rotation: expected an object, got an array",
        ),
        (
            bx(&format!(r#"{he},"rotation":{{"quaternoin":[1,0,0,0]}}"#)),
            "a.rotation.quaternoin: unknown field; did you mean \"quaternion\"?",
        ),
        (
            bx(&format!(r#"{he},"translation":[1,0]"#)),
            "a.translation: expected 3 numbers, got 2",
        ),
        (t(r#""translation":[1,0,"1/0"]"#), "a.translation[2]:"),
        (
            bx(r#""half_extents":[1,-1,1],"translation":[0,0,0]"#),
            "a.half_extents[1]: negative half-extent",
        ),
        (
            bx(r#""half_extents":[1,1,0],"rotation":{"quaternion":[1,2,3,4]}"#),
            "a.half_extents[2]: zero half-extent",
        ),
        (
            bx(r#""half_extents":[1,1],"translation":[0,0,0]"#),
            "a.half_extents: expected 3 numbers, got 2",
        ),
        (
            bx(r#""rotation":{"quaternion":[1,0,0,0]}"#),
            "a.half_extents: missing",
        ),
        (
            bx(&format!(r#"{he},"center":[0,0,0],"translation":[0,0,0]"#)),
            "a.center: not allowed with rotation and translation",
        ),
        (
            bx(
                r#""center":[0,0,0],"half_axes":[[1,0,0],[0,1,0],[0,0,1]],"rotation":{"quaternion":[1,0,0,0]}"#,
            ),
            "a.rotation: not allowed with half_axes",
        ),
        (
            bx(
                r#""center":[0,0,0],"axes":[[1,0,0],[0,1,0],[0,0,1]],"half_extents":[1,1,1],"translation":[0,0,0]"#,
            ),
            "a.translation: not allowed with axes",
        ),
    ];
    for (line, want) in cases {
        let e = error_of(&line);
        assert!(e.starts_with(want) || e.contains(want), "{line}\n  -> {e}");
    }
    // Under "f32" every input number is rounded to f32, the rotation's too.
    let e = error_of(&format!(
        r#"{{"scalar":"f32","op":"intersect","a":{{"type":"box",{he},"rotation":{{"quaternion":[1,"1e300",0,0]}}}},"b":{tri}}}"#
    ));
    assert!(
        e.starts_with("a.rotation.quaternion[1]:") && e.contains("f32"),
        "{e}"
    );
}

/// Boxes by pose with quaternions of doubles (denominator |q|², no power of
/// two) are answered on integers scaled by the common denominator: the
/// answers are checked here independently of that path. The certificates go
/// back in as claims (judged exactly against the shapes), and the squared
/// distance is the library's direct, unscaled `query::distance` on the same
/// shapes.
#[test]
fn scaled_pose_answers_are_certified() {
    use exact_collision::query;
    use exact_collision::shape::Rotation;
    use exact_collision::{Obb, Shape, Vec3};
    let quats = [
        [0.9238795325112867, 0.0, 0.0, 0.3826834323650898],
        [0.3, -0.7, 0.2, 0.1],
        [0.5, 0.5, 0.5, 0.5000000000000001],
        [-0.1, 0.9, 0.3, -0.25],
    ];
    let mut kinds = [0, 0];
    for (i, qa) in quats.iter().enumerate() {
        let qb = quats[(i + 1) % quats.len()];
        for gap in [1.2, 1.6, 2.5, 3.0] {
            let text = |qq: &[f64; 4], x: f64| {
                format!(
                    r#"{{"type":"box","half_extents":[0.5,0.75,1],"rotation":{{"quaternion":[{:?},{:?},{:?},{:?}]}},"translation":[{x:?},0.25,0]}}"#,
                    qq[0], qq[1], qq[2], qq[3]
                )
            };
            let (a, b) = (text(qa, 0.0), text(&qb, gap));
            let shape = |qq: &[f64; 4], x: f64| {
                let r = Rotation::Quaternion(qq.map(dbl));
                Shape::Box(
                    Obb::from_pose(
                        [q(1, 2), q(3, 4), q(1, 1)],
                        &r,
                        Vec3::new(dbl(x), q(1, 4), q(0, 1)),
                    )
                    .unwrap(),
                )
            };
            let v = answer(&format!(r#"{{"op":"intersect","a":{a},"b":{b}}}"#));
            kinds[usize::from(v["intersect"] == true)] += 1;
            let (field, cert) = if v["intersect"] == true {
                ("witness", v["witness"].clone())
            } else {
                ("separating_axis", v["separating_axis"].clone())
            };
            let claim = answer(&format!(
                r#"{{"op":"intersect","a":{a},"b":{b},"claim":{{"{field}":{cert}}}}}"#
            ));
            assert_eq!(claim["verdict"], "agree", "{claim}");
            let d = answer(&format!(r#"{{"op":"distance","a":{a},"b":{b}}}"#));
            let direct = query::distance(&shape(qa, 0.0), &shape(&qb, gap)).unwrap();
            assert_eq!(
                d["distance_squared"],
                direct.distance_squared.to_string(),
                "{a} {b}"
            );
            assert_eq!(v["intersect"], d["distance_squared"] == "0");
            let claim = answer(&format!(
                r#"{{"op":"distance","a":{a},"b":{b},"claim":{{"closest":{}}}}}"#,
                d["closest"]
            ));
            assert_eq!(claim["verdict"], "agree", "{claim}");
        }
    }
    assert!(
        kinds[0] > 0 && kinds[1] > 0,
        "both answers occur: {kinds:?}"
    );
}
