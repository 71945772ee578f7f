//! `verify`'s claim rule at the tolerance edges, for every op and claimed
//! field: |claim − exact| ≤ max(abs, rel·|exact|), decided exactly. Every
//! expected verdict below is worked out by hand (powers of two) or with Python
//! `fractions` (quoted where used).

use exact_collision::protocol::{answer_value_with, Tolerances};
use num_rational::BigRational;
use serde_json::Value;

/// Triangles in the planes z = 0 and z = `h`: exact distance h.
fn planes(h: &str) -> String {
    format!(
        r#""a":{{"type":"triangle","v":[[0,0,0],[1,0,0],[0,1,0]]}},"b":{{"type":"triangle","v":[[0,0,{h}],[1,0,{h}],[0,1,{h}]]}}"#
    )
}

fn answer_tol(line: &str, tol: &Tolerances) -> Value {
    let v: Value = serde_json::from_str(line).unwrap();
    answer_value_with(&v, tol).0.value
}

fn answer(line: &str) -> Value {
    answer_tol(line, &Tolerances::default())
}

/// The verdict of `claim` on `op` between `shapes`.
fn verdict(op: &str, shapes: &str, claim: &str) -> String {
    let a = answer(&format!(r#"{{"op":"{op}",{shapes},"claim":{claim}}}"#));
    match a.get("verdict") {
        Some(v) => v.as_str().unwrap().to_string(),
        None => format!("error: {}", a["error"]),
    }
}

const P40: f64 = 1.0 / (1u64 << 40) as f64;
const P41: f64 = 1.0 / (1u64 << 41) as f64;

#[test]
fn distance_f64_at_the_absolute_edge() {
    // Exact distance 1; the claim 1 + 2⁻⁴⁰ is off by exactly 2⁻⁴⁰.
    let s = planes("1");
    let c = 1.0 + P40;
    let v = |abs: f64| {
        verdict(
            "distance",
            &s,
            &format!(r#"{{"distance_f64":{c:?},"abs_tol":{abs:?},"rel_tol":0}}"#),
        )
    };
    assert_eq!(v(P40), "agree");
    assert_eq!(v(P41), "disagree");
    // Below the exact value too: 1 − 2⁻⁴⁰.
    let c = 1.0 - P40;
    let v = |abs: f64| {
        verdict(
            "distance",
            &s,
            &format!(r#"{{"distance_f64":{c:?},"abs_tol":{abs:?},"rel_tol":0}}"#),
        )
    };
    assert_eq!(v(P40), "agree");
    assert_eq!(v(P41), "disagree");
}

#[test]
fn distance_f64_at_the_relative_edge() {
    // Exact distance 2 (planes 2 apart); claim 2 + 2⁻³⁹: |c − d| = 2⁻³⁹ =
    // 2⁻⁴⁰·d exactly, so rel 2⁻⁴⁰ agrees and rel 2⁻⁴¹ does not.
    let s = planes("2");
    let c = 2.0 + 2.0 * P40;
    let v = |rel: f64| {
        verdict(
            "distance",
            &s,
            &format!(r#"{{"distance_f64":{c:?},"rel_tol":{rel:?}}}"#),
        )
    };
    assert_eq!(v(P40), "agree");
    assert_eq!(v(P41), "disagree");
}

#[test]
fn distance_f64_against_an_irrational_distance() {
    // Boxes [−1, 1]³ and [2, 4]×[2, 4]×[−1, 1]: closest points (1, 1, z) and
    // (2, 2, z), distance √2. The double 1.4142135623730954 (one ulp above
    // the correctly rounded √2) exceeds √2 by 3.1871753805956043845…e-16
    // (Python: Decimal(Fraction(c)) − Decimal(2).sqrt() at 50 digits).
    let s = r#""a":{"type":"box","center":[0,0,0],"half_axes":[[1,0,0],[0,1,0],[0,0,1]]},"b":{"type":"box","center":[3,3,0],"half_axes":[[1,0,0],[0,1,0],[0,0,1]]}"#;
    let v = |c: &str, abs: &str| {
        verdict(
            "distance",
            s,
            &format!(r#"{{"distance_f64":{c},"abs_tol":"{abs}","rel_tol":0}}"#),
        )
    };
    assert_eq!(v("1.4142135623730954", "3.18717538059560439e-16"), "agree");
    assert_eq!(
        v("1.4142135623730954", "3.18717538059560438e-16"),
        "disagree"
    );
    // The correctly rounded double always agrees, even with no tolerance.
    assert_eq!(v("1.4142135623730951", "0"), "agree");
    // Below √2: 1.4142135623730949 is 1.2537...e-16 under it.
    assert_eq!(v("1.4142135623730949", "1.2e-16"), "disagree");
    assert_eq!(v("1.4142135623730949", "1.3e-16"), "agree");
}

#[test]
fn squared_distance_fields_at_both_edges() {
    let s = planes("1"); // distance² = 1
    let c = 1.0 + P40;
    for field in ["distance_squared_f64", "distance_squared"] {
        let v = |tol: &str| verdict("distance", &s, &format!(r#"{{"{field}":{c:?},{tol}}}"#));
        assert_eq!(v(&format!(r#""abs_tol":{P40:?},"rel_tol":0"#)), "agree");
        assert_eq!(v(&format!(r#""abs_tol":{P41:?},"rel_tol":0"#)), "disagree");
        assert_eq!(v(&format!(r#""rel_tol":{P40:?}"#)), "agree");
        assert_eq!(v(&format!(r#""rel_tol":{P41:?}"#)), "disagree");
    }
    // An exact string is judged as the exact rational it is.
    assert_eq!(
        verdict("distance", &s, r#"{"distance_squared":"1"}"#),
        "agree"
    );
    assert_eq!(
        verdict(
            "distance",
            &s,
            r#"{"distance_squared":"1000000001/1000000000"}"#
        ),
        "disagree"
    );
}

#[test]
fn claimed_zero_against_a_tiny_distance_is_judged_by_abs() {
    // Planes 2⁻⁵² ≈ 2.2e-16 apart; an engine says 0.
    let s = planes("2.220446049250313e-16");
    let v = |tol: &str| verdict("distance", &s, &format!(r#"{{"distance_f64":0{tol}}}"#));
    assert_eq!(v(""), "disagree", "no absolute tolerance by default");
    assert_eq!(v(r#","abs_tol":2.220446049250313e-16"#), "agree");
    assert_eq!(v(r#","abs_tol":1.1102230246251565e-16"#), "disagree");
    let a = answer(&format!(
        r#"{{"op":"distance",{s},"claim":{{"distance_f64":0}}}}"#
    ));
    let d = a["detail"].as_str().unwrap();
    // The error is 2⁻⁵² and the claim's ulp is the smallest subnormal 2⁻¹⁰⁷⁴:
    // 2¹⁰²² ≈ 4.494e307 ulps.
    assert!(
        d.contains("abs error 2.220e-16") && d.contains("4.494e307 ulps"),
        "{d}"
    );
}

#[test]
fn command_line_tolerances_and_the_line_s_own() {
    let line = format!(
        r#"{{"op":"distance",{},"claim":{{"distance_f64":{:?}}}}}"#,
        planes("1"),
        1.0 + P40
    );
    let q = |x: f64| Some(BigRational::from_float(x).unwrap());
    let tol = |abs, rel| Tolerances { abs, rel };
    let v = |t: &Tolerances| answer_tol(&line, t)["verdict"].clone();
    assert_eq!(v(&tol(q(P40), q(0.0))), "agree");
    assert_eq!(v(&tol(q(P41), q(0.0))), "disagree");
    // The default rel 1e-9 covers 2⁻⁴⁰ ≈ 9.1e-13.
    assert_eq!(v(&tol(q(P41), None)), "agree");
    // The line's own tolerance wins over the command line's.
    let own = line.replace("}}", r#","abs_tol":0,"rel_tol":0}}"#);
    assert_eq!(
        answer_tol(&own, &tol(q(1.0), q(1.0)))["verdict"],
        "disagree"
    );
}

#[test]
fn bad_tolerances_and_empty_claims_are_errors() {
    let s = planes("1");
    let e = verdict("distance", &s, r#"{"distance_f64":1,"rel_tol":"abc"}"#);
    assert!(e.starts_with("error") && e.contains("claim.rel_tol"), "{e}");
    let e = verdict("distance", &s, r#"{"distance_f64":1,"abs_tol":-1e-9}"#);
    assert!(
        e.contains("claim.abs_tol") && e.contains("non-negative"),
        "{e}"
    );
    let e = verdict("distance", &s, r#"{"distance_f64":1,"abs_tol":true}"#);
    assert!(e.contains("claim.abs_tol"), "{e}");
    let e = verdict("distance", &s, r#"{"contact":1}"#);
    assert!(e.contains("no field to judge"), "{e}");
    let e = verdict("distance", &s, r#"{}"#);
    assert!(e.contains("no field to judge"), "{e}");
}

#[test]
fn decisions_on_every_op() {
    let s = planes("1");
    assert_eq!(verdict("intersect", &s, r#"{"intersect":false}"#), "agree");
    assert_eq!(
        verdict("intersect", &s, r#"{"intersect":true}"#),
        "disagree"
    );
    // On a distance query, intersect is judged by the exact distance.
    assert_eq!(verdict("distance", &s, r#"{"intersect":false}"#), "agree");
    let touch = planes("0");
    assert_eq!(
        verdict("distance", &touch, r#"{"intersect":true}"#),
        "agree"
    );
    // ccd_vf: v goes from z = 1 to z = −1 through the triangle: toi = 1/2.
    let vf = r#""t0":[[0.25,0.25,1],[0,0,0],[1,0,0],[0,1,0]],"t1":[[0.25,0.25,-1],[0,0,0],[1,0,0],[0,1,0]]"#;
    assert_eq!(verdict("ccd_vf", vf, r#"{"hit":true}"#), "agree");
    assert_eq!(verdict("ccd_vf", vf, r#"{"hit":false}"#), "disagree");
    // ccd_ee: the moving edge reaches the fixed one at t = 2/3 (answer's poly
    // 3t − 2).
    let ee = r#""t0":[[0,0,1],[1,0,1],[0.5,-1,0],[0.5,1,0]],"t1":[[0,0,-1],[1,1,0],[0.5,-1,0],[0.5,1,0]]"#;
    assert_eq!(verdict("ccd_ee", ee, r#"{"hit":true}"#), "agree");
    assert_eq!(verdict("ccd_ee", ee, r#"{"hit":false}"#), "disagree");
}

#[test]
fn times_at_the_edges() {
    // toi = 1/2 exactly; the claim 1/2 + 2⁻⁴⁰ is off by 2⁻⁴⁰.
    let vf = r#""t0":[[0.25,0.25,1],[0,0,0],[1,0,0],[0,1,0]],"t1":[[0.25,0.25,-1],[0,0,0],[1,0,0],[0,1,0]]"#;
    let c = 0.5 + P40;
    let v = |tol: &str| verdict("ccd_vf", vf, &format!(r#"{{"toi_f64":{c:?}{tol}}}"#));
    assert_eq!(v(&format!(r#","abs_tol":{P40:?}"#)), "agree");
    assert_eq!(v(&format!(r#","abs_tol":{P41:?}"#)), "disagree");
    // rel: 2⁻⁴⁰ = 2⁻³⁹·(1/2).
    assert_eq!(
        v(&format!(r#","abs_tol":0,"rel_tol":{:?}"#, 2.0 * P40)),
        "agree"
    );
    assert_eq!(v(&format!(r#","abs_tol":0,"rel_tol":{P40:?}"#)), "disagree");
    // Default abs 1e-9 covers 2⁻⁴⁰.
    assert_eq!(v(""), "agree");
    // The time object form is judged the same way.
    assert_eq!(
        verdict(
            "ccd_vf",
            vf,
            &format!(r#"{{"toi":{{"f64":{c:?}}},"abs_tol":{P41:?}}}"#)
        ),
        "disagree"
    );
}

#[test]
fn an_irrational_time_is_decided_inside_its_interval() {
    // b turns (quaternion (1, 0, 0, t)) and slides from x = 3 by −2t: first
    // contact at the root r of 2t³ − 3t² + 4t − 1 (the answer's poly), r =
    // 0.30585427949762773220668503…; with c = 0.3 (the double
    // 0.29999999999999998889…), r − c = 0.0058542794976277433089152768…
    // (Python fractions, 200 bisections). The tolerances below differ from
    // it by 1e-20, far inside the answer's isolating interval (width ~1e-16):
    // the interval alone cannot decide, the polynomial's sign does.
    let ccd = r#""a":{"shape":{"type":"box","center":[0,0,0],"half_axes":[[1,0,0],[0,1,0],[0,0,1]]}},"b":{"shape":{"type":"box","center":[0,0,0],"half_axes":[[1,0,0],[0,1,0],[0,0,1]]},"motion":{"quaternion":[[1],[0],[0],[0,1]],"translation":[[3,-2],[0],[0]]}}"#;
    let v = |abs: &str| {
        verdict(
            "ccd",
            ccd,
            &format!(r#"{{"t_enter_f64":0.3,"abs_tol":"{abs}"}}"#),
        )
    };
    assert_eq!(v("0.00585427949762774331"), "agree");
    assert_eq!(v("0.00585427949762774330"), "disagree");
    assert_eq!(verdict("ccd", ccd, r#"{"hit":true}"#), "agree");
    // t_exit is the range's end: kind "end".
    assert_eq!(verdict("ccd", ccd, r#"{"t_exit":{"kind":"end"}}"#), "agree");
    assert_eq!(verdict("ccd", ccd, r#"{"t_exit_f64":1}"#), "agree");
    assert_eq!(
        verdict("ccd", ccd, r#"{"t_exit_f64":0.999,"abs_tol":0.0009}"#),
        "disagree"
    );
}

#[test]
fn the_detail_gives_absolute_error_and_ulps() {
    let a = answer(&format!(
        r#"{{"op":"distance",{},"claim":{{"distance_f64":{:?},"rel_tol":0}}}}"#,
        planes("1"),
        1.0 + P40
    ));
    // |c − 1| = 2⁻⁴⁰ ≈ 9.095e-13; the ulp of 1 + 2⁻⁴⁰ is 2⁻⁵²: 2¹² = 4096 ulps.
    let d = a["detail"].as_str().unwrap();
    assert!(d.contains("abs error 9.095e-13 (4.096e3 ulps"), "{d}");
}

#[test]
fn a_claimed_zero_far_off_gives_a_finite_ulp_bound_not_inf() {
    // Exact distance 1 and a claimed 0: the error 1 is 2¹⁰⁷⁴ ulps of 0, past
    // f64::MAX ≈ 1.798e308, so the detail says "more than" that, not "inf".
    let a = answer(&format!(
        r#"{{"op":"distance",{},"claim":{{"distance_f64":0}}}}"#,
        planes("1")
    ));
    let d = a["detail"].as_str().unwrap();
    assert!(
        d.contains("abs error 1.000e0 (more than 1.798e308 ulps of the claim)"),
        "{d}"
    );
    assert!(!d.contains("inf"), "{d}");
}

// ---- the command: the summary table, --failures, --summary-json, shrinking

fn run(args: &[&str]) -> (i32, String, String) {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_exact-collision"))
        .args(args)
        .output()
        .expect("the binary runs");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    )
}

const SAMPLE: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/tests/data/verify_sample.jsonl"
);

/// tests/data/verify_sample.jsonl, worked out by hand: a1 touching boxes
/// claimed touching (agree); a2 a 1e-6 gap claimed touching (disagree); d1
/// distance 1 claimed 1.0000001 (relative error 1e-7 > 1e-9: disagree; the
/// double 1.0000001 is 1 + 1.00000000058e-7, its ulp 2⁻⁵²: 4.504e8 ulps); d2
/// 1.0 and d3 "1" agree; `bad` has rel_tol "abc" (failed); t1 toi 1/2
/// claimed 0.5001 (off by 1e-4, ulp of 0.5001 is 2⁻⁵³: 9.007e11 ulps;
/// disagree); n has no claim; the last line is not JSON (failed). Worst
/// first: the wrong decision (line 2), then t1 (9.0e11 ulps), then d1.
#[test]
fn summary_table_and_failures_on_a_fixed_file() {
    let tmp = tempfile::Builder::new()
        .prefix("exact-collision-verify-cli-")
        .tempdir()
        .unwrap();
    let failures = tmp.path().join("failures.jsonl");
    let (code, out, err) = run(&["verify", SAMPLE, "--failures", failures.to_str().unwrap()]);
    assert_eq!(code, 1);
    assert_eq!(out.lines().count(), 9, "one answer per line");
    insta::with_settings!({snapshot_path => "../snapshots", prepend_module_to_snapshot => false}, {
        insta::assert_snapshot!("verify_summary_table", err);
    });
    // --failures: lines 2, 3 and 7, byte for byte.
    let input = std::fs::read_to_string(SAMPLE).unwrap();
    let want: Vec<&str> = input
        .lines()
        .enumerate()
        .filter(|(i, _)| [1, 2, 6].contains(i))
        .map(|(_, l)| l)
        .collect();
    let got = std::fs::read_to_string(&failures).unwrap();
    assert_eq!(got, format!("{}\n", want.join("\n")));
    // Rerun: every line of the failures file disagrees.
    let (code, _, err) = run(&["verify", failures.to_str().unwrap()]);
    assert_eq!(code, 1);
    assert!(
        err.starts_with("summary: 3 queries, 0 agree, 3 disagree"),
        "{err}"
    );
    // --summary-json: the same counts, for machines.
    let (_, _, err) = run(&["verify", SAMPLE, "--summary-json"]);
    let j: Value = serde_json::from_str(err.trim()).unwrap();
    assert_eq!(
        (
            j["queries"].as_u64(),
            j["agree"].as_u64(),
            j["disagree"].as_u64(),
            j["failed"].as_u64(),
            j["without_claim"].as_u64()
        ),
        (Some(9), Some(3), Some(3), Some(2), Some(1))
    );
    assert_eq!(j["worst"][0]["line"], 2);
    assert_eq!(j["worst"][1]["id"], "t1");
    // --abs (exact decimal strings): t1 is off by the double 0.5001 minus 1/2
    // = 9.999999999998899e-5 (Python: Fraction(0.5001) − Fraction(1, 2)),
    // d1 by 1.00000000058e-7. With 9.9e-5 t1 still disagrees and d1 agrees;
    // with 1e-4 t1 agrees too.
    let (_, out, _) = run(&["verify", SAMPLE, "--abs", "9.9e-5"]);
    let v: Vec<Value> = out
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(v[2]["verdict"], "agree");
    assert_eq!(v[6]["verdict"], "disagree");
    let (_, out, _) = run(&["verify", SAMPLE, "--abs", "1e-4"]);
    let v: Vec<Value> = out
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(v[6]["verdict"], "agree");
    let (code, _, err) = run(&["verify", SAMPLE, "--rel=-1"]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("non-negative"), "{err}");
}

#[test]
fn shrunk_lines_still_disagree_and_are_no_larger() {
    use exact_collision::shrink::{claim_disagrees, line_len};
    let lines = [
        // Parallel triangles 2⁻⁵⁰ apart, claimed touching at distance 0.
        r#"{"op":"distance","a":{"type":"triangle","v":[[0.1234567,0.3,0.7],[1.3,0.2,0.7],[0.2,1.1,0.7]]},"b":{"type":"triangle","v":[[0.11,0.3,0.7000000000000009],[1.3,0.2,0.7000000000000009],[0.2,1.1,0.7000000000000009]]},"claim":{"intersect":true,"distance_f64":0}}"#,
        // A rotated box (3-4-5 axes) one step of 2⁻⁴⁰ past touching, claimed touching.
        r#"{"op":"intersect","a":{"type":"box","center":[0.1,0.2,0.3],"half_axes":[[0.6,0.8,0],[-0.8,0.6,0],[0,0,1]]},"b":{"type":"box","center":[2.1,0.2,0.3],"half_axes":[[1,0,0],[0,1,0],[0,0,1]]},"claim":{"intersect":false}}"#,
        // A time off by 1e-4.
        r#"{"op":"ccd_vf","t0":[[0.25,0.25,1],[0,0,0],[1,0,0],[0,1,0]],"t1":[[0.25,0.25,-1],[0,0,0],[1,0,0],[0,1,0]],"claim":{"toi_f64":0.5001}}"#,
    ];
    for line in lines {
        let (code, out, err) = run(&["shrink", line]);
        assert_eq!(code, 0, "{err}");
        let small: Value = serde_json::from_str(out.trim()).unwrap();
        let q: Value = serde_json::from_str(line).unwrap();
        assert!(claim_disagrees(&small, &Tolerances::default()), "{small}");
        assert!(line_len(&small) <= line_len(&q), "{small}");
        assert_eq!(small["claim"], q["claim"], "the claim is kept");
    }
    // A claim that agrees has nothing to shrink.
    let (code, _, err) = run(&[
        "shrink",
        r#"{"op":"ccd_vf","t0":[[0.25,0.25,1],[0,0,0],[1,0,0],[0,1,0]],"t1":[[0.25,0.25,-1],[0,0,0],[1,0,0],[0,1,0]],"claim":{"toi_f64":0.5}}"#,
    ]);
    assert_eq!(code, 1);
    assert!(err.contains("nothing to shrink"), "{err}");
    // verify --shrink adds the shrunk query to each disagreeing answer.
    let (_, out, _) = run(&["verify", SAMPLE, "--shrink"]);
    let v: Vec<Value> = out
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    for i in [1, 2, 6] {
        let s = &v[i]["shrunk"];
        assert!(claim_disagrees(s, &Tolerances::default()), "{s}");
    }
    assert!(v[0].get("shrunk").is_none());
}
