//! `check-parry` (feature `parry`): the fixed-seed table is a snapshot, and
//! the three parry errors the project knows of are found and kept by
//! shrinking. Each asserted finding is a disagreement with an exact answer
//! that the test re-derives from the finding's own protocol line.
#![cfg(feature = "parry")]

use exact_collision::cases::{generate, spinning, Case, Geom, PoseBox, Rng};
use exact_collision::engines::parry::{check, check_random, Check, Options, Report};
use exact_collision::protocol::{answer_value_with, Tolerances};
use exact_collision::shrink::line_len;
use serde_json::Value;

/// The exact answer to a line (its claim judged with default tolerances).
fn exact(line: &Value) -> Value {
    answer_value_with(line, &Tolerances::default()).0.value
}

/// A check run's options: every disagreement shrunk.
fn shrinking() -> Options {
    Options {
        shrink: true,
        ..Default::default()
    }
}

/// A check run's options: every judged line kept, agreeing ones too.
fn keeping_lines() -> Options {
    Options {
        keep_lines: true,
        ..Default::default()
    }
}

/// A hand-worked pair of shapes.
fn hand(a: Geom, b: Geom) -> Case {
    Case {
        family: "hand",
        a,
        b,
    }
}

/// An axis-aligned box of half extent `h` about `t` (identity quaternion).
fn aabb(t: [f64; 3], h: f64) -> Geom {
    Geom::Box(PoseBox {
        he: [h; 3],
        q: [1.0, 0.0, 0.0, 0.0],
        t,
    })
}

/// A ball of radius `r` about `c`.
fn ball(c: [f64; 3], r: f64) -> Geom {
    Geom::Ball { c, r }
}

/// A capsule of radius `r` about the segment `a`–`b`.
fn capsule(a: [f64; 3], b: [f64; 3], r: f64) -> Geom {
    Geom::Capsule { a, b, r }
}

#[test]
fn fixed_seed_table() {
    let r = check_random(48, 7, &Options::default());
    insta::with_settings!({snapshot_path => "../snapshots", prepend_module_to_snapshot => false}, {
        insta::assert_snapshot!("check_parry_table", r.table());
    });
    // Every finding's line disagrees when rerun through the protocol (its
    // claim is parry's answer) — except nonlinear ones, whose claim is the
    // implied "no contact at t" and which disagree too.
    for f in &r.findings {
        assert_eq!(exact(&f.line)["verdict"], "disagree", "{}", f.line);
    }
}

#[test]
fn parry_f64_calls_parallel_triangles_1e_15_apart_touching() {
    // Triangles in z = 0 and z = 1e-15 (the double), overlapping in plan.
    let mut rng = Rng(3);
    let cases: Vec<Case> = (0..40)
        .map(|_| generate("tri_parallel", &mut rng))
        .collect();
    let r = check(&cases, &[], &shrinking());
    let hit = r.findings.iter().find(|f| {
        f.engine == "parry3d-f64"
            && f.shrunk["claim"]["intersect"] == true
            && f.shrunk["claim"]["distance_f64"] == 0.0
    });
    let f = hit.expect("parry3d-f64 says intersecting at distance 0 on a parallel pair");
    for line in [&f.line, &f.shrunk] {
        let a = exact(line);
        assert_eq!(a["verdict"], "disagree");
        let d = a["distance_f64"].as_f64().unwrap();
        assert!(d > 0.0 && d < 1e-11, "a gap of 1e-15 or so: {a}");
    }
    assert!(line_len(&f.shrunk) <= line_len(&f.line));
}

#[test]
fn parry_f32_distance_on_coplanar_triangles_sharing_a_vertex() {
    let mut rng = Rng(11);
    let cases: Vec<Case> = (0..60)
        .map(|_| generate("tri_coplanar", &mut rng))
        .collect();
    let r = check(&cases, &[], &shrinking());
    let found: Vec<_> = r
        .findings
        .iter()
        .filter(|f| {
            f.engine == "parry3d-f32"
                && f.line["claim"]["intersect"] == true
                && f.line["claim"]["distance_f64"].as_f64().unwrap() > 1e-4
        })
        .collect();
    assert!(!found.is_empty(), "{}", r.table());
    for f in found {
        // The triangles share a vertex: exact distance 0, parry's own
        // intersection test agrees, its distance is ≥ 1e-4.
        let a = exact(&f.line);
        assert_eq!(a["distance_squared"], "0", "{a}");
        let (va, vb) = (&f.line["a"]["v"], &f.line["b"]["v"]);
        assert!(va
            .as_array()
            .unwrap()
            .iter()
            .any(|p| vb.as_array().unwrap().contains(p)));
        // Shrunk, it is the same failure: intersecting as claimed, distance
        // wrong, and no larger.
        let s = exact(&f.shrunk);
        assert_eq!(s["distance_squared"], "0", "{s}");
        assert_eq!(f.shrunk["claim"]["intersect"], true);
        assert!(f.shrunk["claim"]["distance_f64"].as_f64().unwrap() > 1e-5);
        assert!(line_len(&f.shrunk) <= line_len(&f.line));
    }
}

#[test]
fn parry_nonlinear_toi_misses_rotating_cuboids() {
    let mut rng = Rng(5);
    let spins: Vec<_> = (0..12).map(|_| spinning(&mut rng)).collect();
    let r = check(&[], &spins, &shrinking());
    for engine in ["parry3d-f32", "parry3d-f64"] {
        let misses: Vec<_> = r
            .findings
            .iter()
            .filter(|f| f.engine == engine && f.check == Check::NonlinearToi)
            .collect();
        assert!(!misses.is_empty(), "{engine}: {}", r.table());
        for f in misses {
            // The line: the boxes at parry's own pose at t, claimed apart;
            // exactly they intersect (a certificate: the witness).
            for line in [&f.line, &f.shrunk] {
                let a = exact(line);
                assert_eq!(a["intersect"], true, "{a}");
                assert_eq!(a["verdict"], "disagree");
            }
        }
    }
}

#[test]
fn shrink_per_family_shrinks_only_the_first_k() {
    // The same disagreements are found; only the first of each (engine,
    // check, family) is shrunk, the others are reported as found (null).
    let mut rng = Rng(5);
    let spins: Vec<_> = (0..12).map(|_| spinning(&mut rng)).collect();
    let all = check(&[], &spins, &Options::default());
    let r = check(
        &[],
        &spins,
        &Options {
            shrink: true,
            shrink_per_family: Some(1),
            ..Default::default()
        },
    );
    assert_eq!(r.findings.len(), all.findings.len());
    assert!(r.findings.len() >= 2, "{}", r.table());
    let mut seen = std::collections::BTreeSet::new();
    for f in &r.findings {
        let first = seen.insert((f.engine, f.check, f.family.clone()));
        if !first {
            assert!(f.shrunk.is_null(), "{}", f.shrunk);
        }
    }
    assert!(
        seen.len() < r.findings.len(),
        "some family has a second finding"
    );
}

#[test]
fn protocol_file_lines_become_parry_cases() {
    use exact_collision::engines::parry::case_from_query;
    let line: Value = serde_json::from_str(r#"{"op":"intersect","a":{"type":"triangle","v":[[0,0,0],[1,0,0],[0,1,0]]},"b":{"type":"box","center":[1,2,3],"half_axes":[[0.6,0.8,0],[-1.6,1.2,0],[0,0,3]]}}"#).unwrap();
    let c = case_from_query(&line).unwrap();
    assert_eq!(
        c.a,
        Geom::Tri([[0.0, 0.0, 0.0], [1.0, 0.0, 0.0], [0.0, 1.0, 0.0]])
    );
    let Geom::Box(b) = c.b else { panic!() };
    // Extents |h_i| = 1, 2, 3; the rotation by the angle with cos 0.6 about
    // z, as a float quaternion: its exact half-axes are within 1e-15 of the
    // given ones.
    assert_eq!((b.he, b.t), ([1.0, 2.0, 3.0], [1.0, 2.0, 3.0]));
    let h = b.half_axes().unwrap();
    let want = [[0.6, 0.8, 0.0], [-1.6, 1.2, 0.0], [0.0, 0.0, 3.0]];
    for i in 0..3 {
        for (j, x) in [&h[i].x, &h[i].y, &h[i].z].into_iter().enumerate() {
            let x = exact_collision::num::scalar::rational_to_f64(x);
            assert!((x - want[i][j]).abs() < 1e-15, "{i} {j} {x}");
        }
    }
    // Other ops and shapes are not cases.
    let other: Value = serde_json::from_str(r#"{"op":"ccd_vf","t0":[],"t1":[]}"#).unwrap();
    assert!(case_from_query(&other).is_none());
}

/// The tolerances check-parry judges an engine's line with (its defaults).
fn engine_tol(line: &Value) -> Tolerances {
    let q = |x: f64| num_rational::BigRational::from_float(x);
    if line["meta"]["engine"] == "parry3d-f32" {
        Tolerances {
            abs: q(1e-5),
            rel: q(1e-5),
        }
    } else {
        Tolerances::default()
    }
}

#[test]
fn rounded_families_run_findings_disagree_and_the_rest_agree() {
    use exact_collision::cases::rounded::{generate_rounded_all, ROUNDED_FAMILIES};
    // Two cases per family, shrunk: every family runs at both precisions.
    let cases = generate_rounded_all(2 * ROUNDED_FAMILIES.len(), 3);
    let r = check(
        &cases,
        &[],
        &Options {
            shrink: true,
            keep_lines: true,
            ..Default::default()
        },
    );
    for e in ["parry3d-f32", "parry3d-f64"] {
        for f in ROUNDED_FAMILIES {
            let row = &r.rows[&(e, Check::Static, f.to_string())];
            assert_eq!(row.cases, 2, "{e} {f}");
        }
    }
    // Every judged line is judged the same by verify's judgement (the
    // protocol, with the engine's tolerances), and every disagreement and
    // its shrunk form disagree.
    let mut judged = 0;
    for (line, agrees) in &r.lines {
        let a = answer_value_with(line, &engine_tol(line)).0.value;
        let want = if *agrees { "agree" } else { "disagree" };
        assert_eq!(a["verdict"], want, "{line}");
        judged += 1;
    }
    assert!(judged >= 2 * cases.len() - r.skips.len());
    for f in &r.findings {
        for l in [&f.line, &f.shrunk] {
            assert_eq!(exact(l)["verdict"], "disagree", "{l}");
            assert_eq!(
                answer_value_with(l, &engine_tol(l)).0.value["verdict"],
                "disagree",
                "{l}"
            );
        }
        assert!(line_len(&f.shrunk) <= line_len(&f.line));
    }
}

#[test]
fn hand_worked_rounded_pairs_and_parry_f64_capsule_distance_off() {
    // Two unit balls with centers 2 apart touch (q = 4 = R²); capsules with
    // parallel axes 3 apart and radii 1 and 1 are 1 apart (q = 9, R = 2).
    let balls = hand(ball([0.0; 3], 1.0), ball([2.0, 0.0, 0.0], 1.0));
    let caps = hand(
        capsule([0.0; 3], [4.0, 0.0, 0.0], 1.0),
        capsule([1.0, 3.0, 0.0], [6.0, 3.0, 0.0], 1.0),
    );
    assert_eq!(balls.intersects(), Some(true));
    assert_eq!(caps.intersects(), Some(false));
    let d = exact(&caps.query("distance"));
    assert_eq!(
        (d["distance_f64"].as_f64(), &d["core_distance_squared"]),
        (Some(1.0), &Value::from("9"))
    );
    let r = check(&[balls, caps], &[], &keeping_lines());
    // parry gets the balls right at both precisions, and the capsules at
    // f32 (within 1e-5); at f64 its capsule distance is 1 + 6.5e-9, far
    // outside the relative 1e-9 (GJK on the capsules' rounded support maps),
    // with the intersection test right.
    let distance_lines: Vec<_> = r
        .lines
        .iter()
        .filter(|(l, _)| l["op"] == "distance")
        .collect();
    assert_eq!(distance_lines.len(), 4);
    for (line, agrees) in distance_lines {
        let f64_capsules =
            line["a"]["type"] == "capsule" && line["meta"]["engine"] == "parry3d-f64";
        assert_eq!(*agrees, !f64_capsules, "{line}");
    }
    let static_findings: Vec<_> = r
        .findings
        .iter()
        .filter(|f| f.check == Check::Static)
        .collect();
    assert_eq!(static_findings.len(), 1);
    let f = static_findings[0];
    assert_eq!(f.line["claim"]["intersect"], false);
    let d = f.line["claim"]["distance_f64"].as_f64().unwrap();
    assert!(d != 1.0 && (d - 1.0).abs() < 1e-7, "{d}");
    assert_eq!(exact(&f.line)["verdict"], "disagree");
}

#[test]
fn check_parry_on_a_closed_pipe_ends_quietly() {
    // The reader goes away before check-parry writes: no panic (status 101),
    // no "panicked" on standard error; the program ends as line tools do.
    use std::process::{Command, Stdio};
    let mut child = Command::new(env!("CARGO_BIN_EXE_exact-collision"))
        .args(["check-parry", "--random", "2", "--no-shrink"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    drop(child.stdout.take());
    let out = child.wait_with_output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_ne!(out.status.code(), Some(101), "{err}");
    assert!(!err.contains("panicked"), "{err}");
}

#[test]
fn check_parry_out_file_is_all_disagreements_for_verify() {
    // The CLI end to end: every line check-parry writes (rounded families
    // included) is judged "disagree" by `exact-collision verify`.
    use std::process::Command;
    let exe = env!("CARGO_BIN_EXE_exact-collision");
    let out = std::env::temp_dir().join(format!("check-parry-{}.jsonl", std::process::id()));
    let run = Command::new(exe)
        .args([
            "check-parry",
            "--random",
            "18",
            "--seed",
            "2",
            "--no-shrink",
            "--out",
        ])
        .arg(&out)
        .output()
        .unwrap();
    let table = String::from_utf8_lossy(&run.stdout);
    assert!(table.contains("capsule_parallel"), "{table}");
    let text = std::fs::read_to_string(&out).unwrap();
    let n = text.lines().count();
    assert!(n > 0, "{table}");
    assert!(text
        .lines()
        .any(|l| l.contains("\"capsule\"") || l.contains("\"sphere\"")));
    let v = Command::new(exe).arg("verify").arg(&out).output().unwrap();
    let err = String::from_utf8_lossy(&v.stderr);
    assert!(
        err.contains(&format!("summary: {n} queries, 0 agree, {n} disagree")),
        "{err}"
    );
    std::fs::remove_file(&out).ok();
}

#[test]
fn parry_f64_calls_shapes_a_hair_apart_intersecting() {
    use exact_collision::engines::parry::case_from_query;
    // Two hulls a hair apart (b's third point is 0.75 + 2⁻³⁹ high; the exact
    // distance is below 2e-12, the test checks it), and a point one ulp
    // outside a ball of radius 11.25 (the offset's squared length exceeds
    // 11.25² by about 2.8e-16). Both apart, both called intersecting by
    // parry f64.
    let lines = [
        r#"{"op":"distance","a":{"type":"convex","points":[[1,0,0.75],[0,0,0],[0,0,-1],[0,-1,0]]},"b":{"type":"convex","points":[[0,0,0.75],[0,-2,0],[2,0,0.750000000001819]]}}"#,
        r#"{"op":"distance","a":{"type":"sphere","center":[2,1.375,1.25],"radius":11.25},"b":{"type":"sphere","center":[0.7499999999999999,-3.625,11.25],"radius":0}}"#,
    ];
    for l in lines {
        let c = case_from_query(&serde_json::from_str(l).unwrap()).unwrap();
        assert_eq!(c.intersects(), Some(false), "{l}");
        let r = check(std::slice::from_ref(&c), &[], &Options::default());
        let f = r
            .findings
            .iter()
            .find(|f| f.engine == "parry3d-f64")
            .unwrap_or_else(|| panic!("{l}: {}", r.table()));
        assert_eq!(f.line["claim"]["intersect"], true);
        let a = exact(&f.line);
        assert_eq!(a["intersect"], false);
        let d = a["distance_f64"].as_f64().unwrap();
        assert!(d > 0.0 && d < 2e-12, "{a}");
    }
}

#[test]
fn rounded_protocol_lines_become_parry_cases() {
    use exact_collision::engines::parry::case_from_query;
    let read = |s: &str| case_from_query(&serde_json::from_str(s).unwrap());
    let c = read(r#"{"op":"distance","a":{"type":"capsule","a":[0,0,0],"b":[1,0,0],"radius":"1/2"},"b":{"type":"box","center":[0,0,3],"half_axes":[[1,0,0],[0,1,0],[0,0,1]],"radius":0.25}}"#).unwrap();
    assert_eq!(c.a, capsule([0.0; 3], [1.0, 0.0, 0.0], 0.5));
    let Geom::RoundBox(b, r) = c.b else {
        panic!("{:?}", c.b)
    };
    assert_eq!((b.he, b.t, r), ([1.0; 3], [0.0, 0.0, 3.0], 0.25));
    // Shapes parry's adapter does not hold: a rounded triangle, a convex
    // shape with a radius.
    assert!(read(r#"{"op":"distance","a":{"type":"triangle","v":[[0,0,0],[1,0,0],[0,1,0]],"radius":1},"b":{"type":"sphere","center":[0,0,3],"radius":1}}"#).is_none());
    assert!(read(r#"{"op":"distance","a":{"type":"convex","points":[[0,0,0]],"radius":1},"b":{"type":"sphere","center":[0,0,3],"radius":1}}"#).is_none());
}

#[test]
fn parry_contact_on_hand_worked_cube_pairs() {
    // parry #315's case: unit cubes [0,1]³ and [1,2]×[0,1]² touch at x = 1:
    // δ = 0, the normal from a to b is +x (overlap along +x is 1 − 1 = 0,
    // along −x it is 0 − (−2) = 2), the contact region the square x = 1,
    // y, z ∈ [0, 1].
    let touching = hand(aabb([0.5; 3], 0.5), aabb([1.5, 0.5, 0.5], 0.5));
    // Resting cubes overlapping by 1/4 along z (docs/contact.md's worked
    // example): δ = 1/4, normal +z, region the square z = 1/2, |x|, |y| ≤ 1/2.
    let resting = hand(aabb([0.0; 3], 0.5), aabb([0.0, 0.0, 0.75], 0.5));
    let q = touching.query("contact");
    let judge = |q: &Value, claim: Value| {
        let mut l = q.clone();
        l["claim"] = claim;
        exact(&l)["verdict"].as_str().unwrap().to_string()
    };
    assert_eq!(exact(&q)["depth_squared"], "0");
    let right = serde_json::json!({"depth_f64": 0.0, "normal": [1, 0, 0],
        "contact": {"points": [[1, 0.25, 0.75], [1, 1, 0]]}});
    assert_eq!(judge(&q, right), "agree");
    for wrong in [
        serde_json::json!({"normal": [-1, 0, 0]}),
        serde_json::json!({"depth_f64": 1e-3}),
        serde_json::json!({"contact": [[1, 1.5, 0.5]]}),
    ] {
        assert_eq!(judge(&q, wrong.clone()), "disagree", "{wrong}");
    }
    let q = resting.query("contact");
    assert_eq!(exact(&q)["depth_squared"], "1/16");
    let right = serde_json::json!({"depth_f64": 0.25, "normal": [0, 0, 1],
        "contact": [[0.5, -0.5, 0.5], [0.5, -0.5, 0.25]]});
    assert_eq!(judge(&q, right), "agree");
    assert_eq!(
        judge(&q, serde_json::json!({"normal": [1, 0, 0]})),
        "disagree"
    );
    // parry (both precisions) answers both right: depth, normal and points.
    let r = check(&[touching, resting], &[], &keeping_lines());
    let contact: Vec<_> = r
        .lines
        .iter()
        .filter(|(l, _)| l["op"] == "contact" && l["meta"]["call"] != "contact_manifolds")
        .collect();
    assert_eq!(contact.len(), 4);
    // Lines per engine, in case order: touching (normal +x, depth 0), then
    // resting (normal +z, depth 1/4).
    for (i, (line, agrees)) in contact.into_iter().enumerate() {
        assert!(*agrees, "{line}");
        let c = &line["claim"];
        let n: Vec<f64> = (0..3).map(|k| c["normal"][k].as_f64().unwrap()).collect();
        let (axis, depth) = if i % 2 == 0 { (0, 0.0) } else { (2, 0.25) };
        assert!((n[axis] - 1.0).abs() < 1e-6, "{line}");
        assert!(
            (c["depth_f64"].as_f64().unwrap() - depth).abs() < 1e-6,
            "{line}"
        );
    }
    assert!(r.findings.iter().all(|f| f.check != Check::Contact));
}

#[test]
fn parry_contact_disagreements_on_box_families_are_disagreements() {
    use exact_collision::cases::generate_all;
    // Box families only (the contact check asks parry on box pairs), no
    // shrinking: every reported contact disagreement is judged "disagree"
    // again from its own line, and every box case was asked.
    let cases: Vec<Case> = generate_all(48, 11)
        .into_iter()
        .filter(|c| c.family.starts_with("box") || c.family.starts_with("cube"))
        .collect();
    let r = check(
        &cases,
        &[],
        &Options {
            shrink: false,
            ..Default::default()
        },
    );
    let asked: usize = r
        .rows
        .iter()
        .filter(|(k, _)| k.1 == Check::Contact)
        .map(|(_, row)| row.cases)
        .sum();
    assert!(asked > 0);
    for f in r.findings.iter().filter(|f| f.check == Check::Contact) {
        assert_eq!(f.line["op"], "contact");
        assert_eq!(exact(&f.line)["verdict"], "disagree", "{}", f.line);
    }
}

#[test]
fn parry_contact_and_manifolds_on_hand_worked_rounded_pairs() {
    // Unit balls at (0,0,0) and (1,1,0): δ = 2 − √2, normal (1,1,0)/√2,
    // a's contact point (1,1,0)/√2 and b's deepest point (1,1,0)(1 − 1/√2).
    let balls = hand(ball([0.0; 3], 1.0), ball([1.0, 1.0, 0.0], 1.0));
    // A ball of radius 1/2 at (0,0,3/4) over the unit cube's top face:
    // δ = 1/2 − 1/4 = 1/4, normal +z, points (0,0,1/2) and (0,0,1/4).
    let ball_box = hand(aabb([0.0; 3], 0.5), ball([0.0, 0.0, 0.75], 0.5));
    // Parallel capsules of radius 1/2 on (0,0,0)–(2,0,0) and
    // (1,0,3/4)–(3,0,3/4): δ = 1 − 3/4 = 1/4, normal +z, region
    // x ∈ [1, 2] on a's surface z = 1/2.
    let capsules = hand(
        capsule([0.0; 3], [2.0, 0.0, 0.0], 0.5),
        capsule([1.0, 0.0, 0.75], [3.0, 0.0, 0.75], 0.5),
    );
    let r = check(&[balls, ball_box, capsules], &[], &keeping_lines());
    let lines: Vec<_> = r
        .lines
        .iter()
        .filter(|(l, _)| l["op"] == "contact")
        .collect();
    // Two engines × three pairs × (contact, contact_manifolds).
    assert_eq!(lines.len(), 12);
    let s = std::f64::consts::FRAC_1_SQRT_2;
    for (line, agrees) in lines {
        let c = &line["claim"];
        let n: Vec<f64> = (0..3).map(|k| c["normal"][k].as_f64().unwrap()).collect();
        let d = c["depth_f64"].as_f64().unwrap();
        let (want_n, want_d) = if line["b"]["type"] == "sphere" && line["a"]["type"] == "sphere" {
            ([s, s, 0.0], 2.0 - std::f64::consts::SQRT_2)
        } else {
            ([0.0, 0.0, 1.0], 0.25)
        };
        // parry's `query::contact` on the parallel capsules (GJK/EPA, not the
        // dedicated manifold) tilts the normal off +z — by 2.8e-3 at f32,
        // 8.8e-8 at f64 — which moves its points off the segment y = 0 by
        // 3.5e-4 and 1.1e-8: both disagree. Everything else agrees.
        let tilted = line["a"]["type"] == "capsule" && line["meta"]["call"] != "contact_manifolds";
        let close = if tilted { 1e-2 } else { 1e-6 };
        for (x, w) in n.iter().zip(want_n) {
            assert!((x - w).abs() < close, "{line}");
        }
        assert!((d - want_d).abs() < close, "{line}");
        assert_eq!(*agrees, !tilted, "{line}");
        if tilted {
            assert!(n[1].abs() > 1e-9, "{line}");
        }
        // The verdict re-derived from the line itself (with the engine's
        // tolerances).
        assert_eq!(
            answer_value_with(line, &engine_tol(line)).0.value["verdict"],
            if *agrees { "agree" } else { "disagree" },
            "{line}"
        );
    }
    // The rows are counted per check: contact and contact_manifolds.
    for check in [Check::Contact, Check::Manifolds] {
        for e in ["parry3d-f32", "parry3d-f64"] {
            assert_eq!(r.rows[&(e, check, "hand".to_string())].cases, 3);
        }
    }
}

#[test]
fn parry_contact_disagreements_on_rounded_families_are_disagreements() {
    use exact_collision::cases::rounded::generate_rounded_all;
    // Every rounded family is asked contact and contact_manifolds; every
    // reported disagreement is judged "disagree" again from its own line.
    let cases = generate_rounded_all(36, 5);
    let r = check(&cases, &[], &Options::default());
    for check in [Check::Contact, Check::Manifolds] {
        let asked: usize = r
            .rows
            .iter()
            .filter(|(k, _)| k.1 == check)
            .map(|(_, row)| row.cases)
            .sum();
        assert_eq!(asked, 2 * cases.len(), "{check:?}");
    }
    for f in r
        .findings
        .iter()
        .filter(|f| matches!(f.check, Check::Contact | Check::Manifolds))
    {
        assert_eq!(f.line["op"], "contact");
        assert_eq!(exact(&f.line)["verdict"], "disagree", "{}", f.line);
    }
    // Shrinking one of them (read back from its line) keeps a contact line
    // that still disagrees, no larger than the line as found.
    let f = r
        .findings
        .iter()
        .find(|f| f.check == Check::Contact && f.engine == "parry3d-f64")
        .expect("parry3d-f64 gets some rounded contact wrong");
    let case = exact_collision::engines::parry::case_from_query(&f.line).expect("a parry pair");
    let r2 = check(&[case], &[], &shrinking());
    for f2 in r2.findings.iter().filter(|f| f.check == Check::Contact) {
        assert_eq!(f2.shrunk["op"], "contact", "{}", f2.shrunk);
        assert_eq!(exact(&f2.shrunk)["verdict"], "disagree", "{}", f2.shrunk);
        assert!(line_len(&f2.shrunk) <= line_len(&f2.line));
    }
}

/// The `contact_manifolds` lines of a report, in order.
fn manifold_lines(r: &Report) -> Vec<(Value, bool)> {
    r.lines
        .iter()
        .filter(|(l, _)| l["meta"]["call"] == "contact_manifolds")
        .cloned()
        .collect()
}

/// The `contact` field's verdict on a line: agrees, and the claimed points
/// outside the tolerance.
fn contact_field(line: &Value) -> (bool, Vec<usize>) {
    let (_, v) = answer_value_with(line, &engine_tol(line));
    let v = v.expect("a verdict");
    let f = v
        .fields
        .iter()
        .find(|f| f.field == "contact")
        .expect("contact judged");
    (f.agrees, f.outside.clone())
}

#[test]
fn every_manifold_point_is_judged_resting_cubes() {
    // Unit cubes resting face to face, b at (1/4, 0, 3/4): δ = 1/4, normal
    // +z, translation (0, 0, 1/4); the contact region is a's top face met
    // with b's bottom face moved up, x ∈ [−1/4, 1/2], |y| ≤ 1/2 on z = 1/2,
    // swept down to b's bottom face z = 1/4. parry's box–box manifold has
    // the four corners of that rectangle: local_p1 on a (z = 1/2), local_p2
    // on b (z = 1/4), claimed as points 2i and 2i + 1.
    let resting = hand(aabb([0.0; 3], 0.5), aabb([0.25, 0.0, 0.75], 0.5));
    let r = check(&[resting], &[], &keeping_lines());
    let lines = manifold_lines(&r);
    assert_eq!(lines.len(), 2);
    for (line, agrees) in &lines {
        assert!(*agrees, "{line}");
        let pts = line["claim"]["contact"]["points"].as_array().unwrap();
        assert_eq!(pts.len(), 8, "{line}");
        for (i, p) in pts.iter().enumerate() {
            let p: Vec<f64> = (0..3).map(|k| p[k].as_f64().unwrap()).collect();
            let z = if i % 2 == 0 { 0.5 } else { 0.25 };
            let near = |x: f64, w: &[f64]| w.iter().any(|w| (x - w).abs() < 1e-6);
            assert!(near(p[0], &[-0.25, 0.5]), "{line}");
            assert!(near(p[1], &[-0.5, 0.5]), "{line}");
            assert!((p[2] - z).abs() < 1e-6, "{line}");
        }
        assert_eq!(contact_field(line), (true, vec![]));
        // One point moved off: point 3 (the second corner's point on b)
        // moved 1/4 along +x, past a's side x = 1/2 (1/4 from the region
        // at least): the manifold disagrees, and that point is named.
        let mut moved = line.clone();
        let x = moved["claim"]["contact"]["points"][3][0].as_f64().unwrap();
        moved["claim"]["contact"]["points"][3][0] = serde_json::json!(x + 0.25);
        assert_eq!(contact_field(&moved), (false, vec![3]), "{moved}");
        assert_eq!(exact(&moved)["verdict"], "disagree");
    }
    for e in ["parry3d-f32", "parry3d-f64"] {
        let row = &r.rows[&(e, Check::Manifolds, "hand".to_string())];
        assert_eq!(
            (row.cases, row.disagree, row.points, row.points_off),
            (1, 0, 4, 0)
        );
    }
}

#[test]
fn shallow_manifold_points_of_a_tilted_cube_are_off() {
    // b, a unit cube turned about y by θ (quaternion (cos θ/2, 0, sin θ/2,
    // 0) with sin θ/2 = 1/20: sin θ ≈ 0.0999, cos θ = 0.995) at
    // (0, 0, 0.9), over a = the unit cube at the origin. b's bottom edge at
    // x ≈ +0.4476 is lowest, z = 0.9 − (sin θ + cos θ)/2 ≈ 0.3528, so
    // δ ≈ 0.1473 along +z (b's own face normal needs ≈ 0.152) and the
    // contact region is that edge on z = 1/2: a segment. Its two manifold
    // points are in the swept region. parry also gives points on the
    // shallower side (at f64 two, at f32 one), clipped to a's side
    // x = −1/2, where b's face is ≈ 0.052 deep: they are where the shapes
    // overlap, not where they touch after the shortest separating move,
    // ≈ 0.95 from the region in x — off at both precisions.
    let s = 0.05f64;
    let tilted = hand(
        aabb([0.0; 3], 0.5),
        Geom::Box(PoseBox {
            he: [0.5; 3],
            q: [(1.0 - s * s).sqrt(), 0.0, s, 0.0],
            t: [0.0, 0.0, 0.9],
        }),
    );
    let r = check(&[tilted], &[], &keeping_lines());
    let lines = manifold_lines(&r);
    assert_eq!(lines.len(), 2);
    for (line, _) in lines {
        let dists: Vec<f64> = line["meta"]["parry"]["points"]
            .as_array()
            .unwrap()
            .iter()
            .map(|p| p["dist"].as_f64().unwrap())
            .collect();
        let deepest = dists.iter().cloned().fold(f64::INFINITY, f64::min);
        assert!((deepest + 0.1473).abs() < 1e-3, "{line}");
        // The pairs whose dist is more than 0.01 above the deepest are off,
        // the deepest ones are not.
        let shallow: Vec<usize> = (0..dists.len())
            .filter(|&i| dists[i] > deepest + 0.01)
            .collect();
        assert!(!shallow.is_empty(), "{line}");
        let (agrees, outside) = contact_field(&line);
        assert!(!agrees, "{line}");
        let mut pairs: Vec<usize> = outside.iter().map(|i| i / 2).collect();
        pairs.dedup();
        assert_eq!(pairs, shallow, "{line}");
    }
}
