//! `verify` on claimed closest pairs (`closest`, `closest_f64`) of rounded
//! shapes (docs/verify.md, "Closest points of rounded shapes"): each point
//! in its shape (its squared distance to the core against r², or (r + abs)²
//! for numbers), and |pa − pb| against D = max(0, √q − R) (equal for exact
//! strings, by the distance tolerance rule for numbers), or the claim the
//! correctly rounded doubles of the exact pair. Every verdict is worked by
//! hand beside its case.

use exact_collision::protocol::answer_line;

fn verdict(op: &str, a: &str, b: &str, claim: &str) -> (String, String) {
    let v = answer_line(
        &format!(r#"{{"op":"{op}","a":{a},"b":{b},"claim":{claim}}}"#),
        1,
    )
    .value;
    (
        v["verdict"].as_str().unwrap_or("none").to_string(),
        v["detail"].as_str().unwrap_or("").to_string(),
    )
}

fn check(a: &str, b: &str, claim: &str, want: &str) -> String {
    let (got, detail) = verdict("distance", a, b, claim);
    assert_eq!(got, want, "claim {claim}: {detail}");
    assert!(!detail.contains("not judged"), "claim {claim}: {detail}");
    detail
}

const UNIT_SPHERE_0: &str = r#"{"type":"sphere","center":[0,0,0],"radius":1}"#;
const POINT_110: &str = r#"{"type":"sphere","center":[1,1,0],"radius":0}"#;

/// The unit ball and the point (1,1,0): q = 2, R = 1, D = √2 − 1
/// ≈ 0.41421356237309505; the exact closest pair (1/√2, 1/√2, 0), (1,1,0).
/// 1/√2 = 0.70710678118654752440…; its nearest double 0.7071067811865476
/// is 0.70710678118654757274… (above: the point is outside the ball by
/// about 7e-17), the double below, 0.7071067811865475, is
/// 0.70710678118654746172… (inside).
#[test]
fn irrational_pair() {
    let (a, b) = (UNIT_SPHERE_0, POINT_110);
    // The correctly rounded pair: outside a by 7e-17, so not in a with
    // abs 0, but the nearest doubles of the exact pair agree.
    let d = check(
        a,
        b,
        r#"{"closest_f64":[[0.7071067811865476,0.7071067811865476,0],[1,1,0]]}"#,
        "agree",
    );
    assert!(d.contains("pa in a false"), "{d}");
    assert!(d.contains("correctly rounded"), "{d}");
    // The pair one ulp inside: in both; |pa − pb| = √2·(1 − 0.70710678118654746…)
    // = D + √2·6.27e-17 ≈ D + 8.9e-17, relative 2.1e-16 ≤ 1e-9.
    check(
        a,
        b,
        r#"{"closest_f64":[[0.7071067811865475,0.7071067811865475,0],[1,1,0]]}"#,
        "agree",
    );
    // … but not with no tolerance: |pa − pb| ≠ D.
    check(
        a,
        b,
        r#"{"closest_f64":[[0.7071067811865475,0.7071067811865475,0],[1,1,0]],"abs_tol":0,"rel_tol":0}"#,
        "disagree",
    );
    // The same claim under the name `closest` (numbers): the same rule.
    check(
        a,
        b,
        r#"{"closest":[[0.7071067811865475,0.7071067811865475,0],[1,1,0]]}"#,
        "agree",
    );
    // (1,0,0) is on a's surface, but |pa − pb| = 1, not ≈ 0.414.
    check(a, b, r#"{"closest_f64":[[1,0,0],[1,1,0]]}"#, "disagree");
    // (0.8,0.8,0): |pa|² = 1.28 > 1, outside a (and |pa − pb| = 0.2√2
    // ≈ 0.283 ≠ D).
    check(a, b, r#"{"closest_f64":[[0.8,0.8,0],[1,1,0]]}"#, "disagree");
    // A point on the wrong shape: pb = (0,0,0) is not the point (1,1,0).
    check(
        a,
        b,
        r#"{"closest_f64":[[0.7071067811865475,0.7071067811865475,0],[0,0,0]]}"#,
        "disagree",
    );
}

/// Unit spheres at (0,0,0) and (3,0,0): q = 9, R = 2, D = 1, the exact pair
/// (1,0,0), (2,0,0).
#[test]
fn rational_pair() {
    let a = UNIT_SPHERE_0;
    let b = r#"{"type":"sphere","center":[3,0,0],"radius":1}"#;
    check(
        a,
        b,
        r#"{"closest":[["1","0","0"],["2","0","0"]]}"#,
        "agree",
    );
    check(a, b, r#"{"closest":[[1,0,0],[2,0,0]]}"#, "agree");
    // pb = (2, 1/1000, 0): |pb − (3,0,0)|² = 1 + 10⁻⁶ > 1, outside b.
    check(
        a,
        b,
        r#"{"closest":[["1","0","0"],["2","1/1000","0"]]}"#,
        "disagree",
    );
    // In both, but |pa − pb| = 2 ≠ 1.
    check(
        a,
        b,
        r#"{"closest":[["1/2","0","0"],["5/2","0","0"]]}"#,
        "disagree",
    );
}

/// Touching unit spheres at (0,0,0) and (2,0,0): q = 4 = R², D = 0; the
/// pair must be one common point: (1,0,0) is the only one.
#[test]
fn touching() {
    let a = UNIT_SPHERE_0;
    let b = r#"{"type":"sphere","center":[2,0,0],"radius":1}"#;
    check(
        a,
        b,
        r#"{"closest":[["1","0","0"],["1","0","0"]]}"#,
        "agree",
    );
    // pa in a, pb = (3/2,0,0) in b, but |pa − pb| = 1/2 ≠ 0.
    check(
        a,
        b,
        r#"{"closest":[["1","0","0"],["3/2","0","0"]]}"#,
        "disagree",
    );
    // pb = (1, 10⁻¹⁰, 0): |pa − pb| = 10⁻¹⁰ > 0 = D, and rel·D = 0; pb is
    // outside b by √(1 + 10⁻²⁰) − 1 ≈ 5e-21.
    let claim = r#"[[1,0,0],[1,1e-10,0]]"#;
    check(a, b, &format!(r#"{{"closest_f64":{claim}}}"#), "disagree");
    // With abs 1e-9: 10⁻¹⁰ ≤ 10⁻⁹, and 5e-21 outside is within abs.
    check(
        a,
        b,
        &format!(r#"{{"closest_f64":{claim},"abs_tol":1e-9}}"#),
        "agree",
    );
    // The same claim on an `intersect` query is judged the same way.
    let (got, _) = verdict(
        "intersect",
        a,
        b,
        r#"{"closest":[["1","0","0"],["1","0","0"]]}"#,
    );
    assert_eq!(got, "agree");
}

/// Radius 0 on both sides: the box [−1/2, 1/2]³ (`"radius":0`) and the
/// point (2,0,0): D = 3/2, the exact pair (1/2,0,0), (2,0,0).
#[test]
fn radius_zero() {
    let a =
        r#"{"type":"box","center":[0,0,0],"half_axes":[[0.5,0,0],[0,0.5,0],[0,0,0.5]],"radius":0}"#;
    let b = r#"{"type":"sphere","center":[2,0,0],"radius":0}"#;
    check(
        a,
        b,
        r#"{"closest":[["1/2","0","0"],["2","0","0"]]}"#,
        "agree",
    );
    // The corner (1/2,1/2,1/2) is in a, but |pa − pb|² = 9/4 + 1/2 ≠ 9/4.
    check(
        a,
        b,
        r#"{"closest":[["1/2","1/2","1/2"],["2","0","0"]]}"#,
        "disagree",
    );
    // 0.5000000001: 1e-10 outside a box of radius 0 (abs 0), though the
    // distance 1.4999999999 is within rel 1e-9 (6.7e-11 relative).
    check(
        a,
        b,
        r#"{"closest_f64":[[0.5000000001,0,0],[2,0,0]]}"#,
        "disagree",
    );
    // abs 1e-9 lets it be 1e-10 outside.
    check(
        a,
        b,
        r#"{"closest_f64":[[0.5000000001,0,0],[2,0,0]],"abs_tol":1e-9}"#,
        "agree",
    );
}

/// A rounded box: [−1/2, 1/2]³ grown by 1/4, and a sphere of radius 1/4 at
/// (2,0,0): q = 9/4, R = 1/2, D = 1, the exact pair (3/4,0,0), (7/4,0,0).
#[test]
fn rounded_box() {
    let a = r#"{"type":"box","center":[0,0,0],"half_axes":[[0.5,0,0],[0,0.5,0],[0,0,0.5]],"radius":0.25}"#;
    let b = r#"{"type":"sphere","center":[2,0,0],"radius":0.25}"#;
    check(
        a,
        b,
        r#"{"closest":[["3/4","0","0"],["7/4","0","0"]]}"#,
        "agree",
    );
    // (3/4, 1/2, 0) is on a's rounded edge region: its distance to the box
    // is 1/4, in a; but |pa − pb|² = 1 + 1/4 ≠ 1.
    check(
        a,
        b,
        r#"{"closest":[["3/4","1/2","0"],["7/4","0","0"]]}"#,
        "disagree",
    );
    // (3/4, 3/4, 0): 1/4 from the face x = 1/2 and 1/4 from y = 1/2, so
    // √(1/8) ≈ 0.354 from the box's edge: outside a (r = 1/4).
    check(
        a,
        b,
        r#"{"closest":[["3/4","3/4","0"],["7/4","3/4","0"]]}"#,
        "disagree",
    );
}
