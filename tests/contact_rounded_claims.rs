//! `verify` on claimed normals and contact points of rounded `contact`
//! queries (docs/verify.md, "Contact claims"). Every expected verdict is
//! worked by hand below each case: the depth δ, the overlap along the
//! claimed normal, and the swept region S the points are measured against.

use exact_collision::protocol::answer_line;

fn verdict(a: &str, b: &str, claim: &str) -> (String, String) {
    let v = answer_line(
        &format!(r#"{{"op":"contact","a":{a},"b":{b},"claim":{claim}}}"#),
        1,
    )
    .value;
    (
        v["verdict"].as_str().unwrap_or("none").to_string(),
        v["detail"].as_str().unwrap_or("").to_string(),
    )
}

fn check(a: &str, b: &str, claim: &str, want: &str) {
    let (got, detail) = verdict(a, b, claim);
    assert_eq!(got, want, "claim {claim}: {detail}");
    assert!(!detail.contains("not judged"), "claim {claim}: {detail}");
}

const UNIT_SPHERE_0: &str = r#"{"type":"sphere","center":[0,0,0],"radius":1}"#;
const UNIT_SPHERE_110: &str = r#"{"type":"sphere","center":[1,1,0],"radius":1}"#;
const CUBE: &str = r#"{"type":"box","center":[0,0,0],"half_axes":[[0.5,0,0],[0,0.5,0],[0,0,0.5]]}"#;

/// Two unit spheres, centres (0,0,0) and (1,1,0): q = 2, R = 2,
/// δ = 2 − √2 ≈ 0.5858, the only normal (1,1,0); u = (1,1,0)/√2.
#[test]
fn sphere_sphere_normal() {
    let (a, b) = (UNIT_SPHERE_0, UNIT_SPHERE_110);
    // n = (1,1,0): s = max_a n·x − min_b n·y = 0 − 2, o = −2/√2 + 2 = δ.
    check(a, b, r#"{"normal":[1,1,0]}"#, "agree");
    check(a, b, r#"{"normal":[3,3,0]}"#, "agree");
    // n = (1,0,0): s = 0 − 1, o = 1 > δ (by 0.41).
    check(a, b, r#"{"normal":[1,0,0]}"#, "disagree");
    // n = −(1,1,0): o = 2/√2 + 2 = 2 + √2.
    check(a, b, r#"{"normal":[-1,-1,0]}"#, "disagree");
    // n = (1, 1 + e, 0), e = 1e-6: o − δ ≈ √2·e²/8 ≈ 1.8e-13, relative
    // 3e-13: within the default rel 1e-9, but o > δ strictly (one normal).
    check(a, b, r#"{"normal":[1,1.000001,0]}"#, "agree");
    check(
        a,
        b,
        r#"{"normal":[1,1.000001,0],"rel_tol":0,"abs_tol":0}"#,
        "disagree",
    );
    // A unit normal of doubles, 1/√2 rounded: a tiny relative error.
    check(
        a,
        b,
        r#"{"normal":[0.7071067811865476,0.7071067811865476,0]}"#,
        "agree",
    );
}

/// The same spheres: a's core region R₀ = {0}, r_a = 1, so
/// S = {λu : λ ∈ [1 − δ, 1]} = {λu : λ ∈ [√2 − 1, 1]}.
#[test]
fn sphere_sphere_points() {
    let (a, b) = (UNIT_SPHERE_0, UNIT_SPHERE_110);
    // a's surface point u (λ = 1) and b's deepest point (1,1,0) − u
    // (λ = √2 − 1), both as rounded doubles; the midpoint (1/2,1/2,0)
    // (λ = √2/2).
    check(
        a,
        b,
        r#"{"contact":{"points":[[0.7071067811865476,0.7071067811865476,0],[0.2928932188134524,0.2928932188134524,0],[0.5,0.5,0]]}}"#,
        "agree",
    );
    // (0.8,0.8,0): λ = 0.8√2 ≈ 1.131 > 1, 0.131 from S.
    check(a, b, r#"{"contact":[[0.8,0.8,0]]}"#, "disagree");
    // (1/2,1/2,1/10): 1/10 off the axis: exactly at abs_tol 1/10 (d² = 1/100 =
    // abs²) agrees, just under it disagrees.
    check(
        a,
        b,
        r#"{"contact":[["1/2","1/2","1/10"]],"abs_tol":"1/10"}"#,
        "agree",
    );
    check(
        a,
        b,
        r#"{"contact":[["1/2","1/2","1/10"]],"abs_tol":"99/1000"}"#,
        "disagree",
    );
    // (1/5,1/5,0): λ = √2/5 ≈ 0.283 < √2 − 1 ≈ 0.414: 0.131 below S.
    check(a, b, r#"{"contact":[["1/5","1/5","0"]]}"#, "disagree");
}

/// The unit cube and a sphere of radius 1/2 over its top face, centre
/// (0,0,3/4): cores apart, q = 1/16, R = 1/2, δ = 1/4, normal (0,0,1);
/// R₀ = {(0,0,1/2)}, r_a = 0, S = the segment z ∈ [1/4, 1/2] on the axis.
#[test]
fn sphere_box_face() {
    let (a, b) = (
        CUBE,
        r#"{"type":"sphere","center":[0,0,0.75],"radius":0.5}"#,
    );
    // n = (0,0,1): s = 1/2 − 3/4, o = −1/4 + 1/2 = δ.
    check(a, b, r#"{"normal":[0,0,1]}"#, "agree");
    // n = (0,0.001,1): s = 0.0005 + 1/2 − 3/4 = −0.2495,
    // o = −0.2495/√1.000001 + 1/2 ≈ 0.2505: 0.2% over δ.
    check(a, b, r#"{"normal":[0,0.001,1]}"#, "disagree");
    check(a, b, r#"{"normal":[0,0.001,1],"rel_tol":0.01}"#, "agree");
    // a's face point and b's lowest point, and one between.
    check(
        a,
        b,
        r#"{"contact":{"points":[[0,0,0.5],[0,0,0.25],[0,0,0.3]]}}"#,
        "agree",
    );
    // 0.1 beside the axis; 0.05 below b's lowest point.
    check(a, b, r#"{"contact":[[0.1,0,0.5]]}"#, "disagree");
    check(a, b, r#"{"contact":[[0,0,0.2]]}"#, "disagree");
    check(a, b, r#"{"contact":[[0,0,0.2]],"abs_tol":0.05}"#, "agree");
}

/// The unit cube and a sphere of radius 1/2 centred (3/4,0,3/4), over the
/// edge x = z = 1/2: w = (1/4,0,1/4), q = 1/8, δ = 1/2 − √2/4 ≈ 0.1464,
/// normal (1,0,1); R₀ = {(1/2,0,1/2)}, r_a = 0, S = (1/2,0,1/2) − [0,δ]·u.
#[test]
fn sphere_box_edge() {
    let (a, b) = (
        CUBE,
        r#"{"type":"sphere","center":[0.75,0,0.75],"radius":0.5}"#,
    );
    // n = (1,0,1): s = 1 − 3/2, o = −(1/2)/√2 + 1/2 = δ exactly (an
    // irrational equality, decided in ℚ(√2)).
    check(
        a,
        b,
        r#"{"normal":[1,0,1],"rel_tol":0,"abs_tol":0}"#,
        "agree",
    );
    // n = (0,0,1): o = 1/2 − 3/4 + 1/2 = 1/4 > δ.
    check(a, b, r#"{"normal":[0,0,1]}"#, "disagree");
    // The edge point, and b's deepest point (3/4,0,3/4) − u/2 with
    // 3/4 − 1/(2√2) = 0.39644660940672627… (as a double).
    check(
        a,
        b,
        r#"{"contact":[[0.5,0,0.5],[0.39644660940672627,0,0.39644660940672627]]}"#,
        "agree",
    );
    // (0.3257,0,0.3257) is on the axis, (0.39645 − 0.3257)·√2 ≈ 0.1 past b's
    // deepest point: 0.1 beyond S.
    check(a, b, r#"{"contact":[[0.3257,0,0.3257]]}"#, "disagree");
    // 0.1 along the edge (y) from it: off S.
    check(a, b, r#"{"contact":[[0.5,0.1,0.5]]}"#, "disagree");
}

/// Parallel capsules of radius 1/2, axes (0,0,0)–(2,0,0) and
/// (1,0,3/4)–(3,0,3/4): q = 9/16, R = 1, δ = 1/4, normal (0,0,1);
/// R₀ = the core points x with x + (0,0,3/4) in b's core: the segment
/// x ∈ [1,2] on a's axis; r_a = 1/2, so S = [1,2] × {0} × [1/4, 1/2].
#[test]
fn capsule_capsule_parallel() {
    let (a, b) = (
        r#"{"type":"capsule","a":[0,0,0],"b":[2,0,0],"radius":0.5}"#,
        r#"{"type":"capsule","a":[1,0,0.75],"b":[3,0,0.75],"radius":0.5}"#,
    );
    check(a, b, r#"{"normal":[0,0,1]}"#, "agree");
    // n = (0,0,−1): o = 3/4 + 1 = 7/4; n = (1,0,0): o = (2 − 1) + 1 = 2.
    check(a, b, r#"{"normal":[0,0,-1]}"#, "disagree");
    check(a, b, r#"{"normal":[1,0,0]}"#, "disagree");
    // The corners of S and its middle.
    check(
        a,
        b,
        r#"{"contact":[[1,0,0.5],[2,0,0.25],[1.5,0,0.375],[2,0,0.5],[1,0,0.25]]}"#,
        "agree",
    );
    // On a's surface (z = 1/2) but where b does not reach: 1/2 from S.
    check(a, b, r#"{"contact":[[0.5,0,0.5]]}"#, "disagree");
    // Over the region: 0.1 above a's surface.
    check(a, b, r#"{"contact":[[1.5,0,0.6]]}"#, "disagree");
    // A manifold-like list: the points off S are named, counted from 0
    // (#1 is 1/2 from S in x, #3 0.1 above it; #0 and #2 are in S).
    let (got, detail) = verdict(
        a,
        b,
        r#"{"contact":[[1,0,0.5],[0.5,0,0.5],[2,0,0.25],[1.5,0,0.6]]}"#,
    );
    assert_eq!(got, "disagree", "{detail}");
    assert!(
        detail.contains("2 outside the tolerance (#1, #3, counted from 0)"),
        "{detail}"
    );
}

/// A sphere of radius 1/8 centred (0,0,1/4) inside the unit cube: the cores
/// meet (a point in the box), p = (1/2 − 1/4)² = 1/16, δ = 1/4 + 1/8 = 3/8,
/// normal (0,0,1); R₀ = {(0,0,1/2)} (the centre moved up by 1/4), r_a = 0,
/// so S = the axis z ∈ [1/8, 1/2].
#[test]
fn sphere_inside_a_box() {
    let (a, b) = (
        CUBE,
        r#"{"type":"sphere","center":[0,0,0.25],"radius":0.125}"#,
    );
    // n = (0,0,1): s = 1/2 − 1/4, o = 1/4 + 1/8 = δ.
    check(a, b, r#"{"normal":[0,0,1]}"#, "agree");
    // n = (1,0,0): o = 1/2 + 1/8 = 5/8.
    check(a, b, r#"{"normal":[1,0,0]}"#, "disagree");
    check(a, b, r#"{"contact":[[0,0,0.5],[0,0,0.125]]}"#, "agree");
    check(a, b, r#"{"contact":[[0,0,0.1]]}"#, "disagree");
}

/// Claimed normals and points on apart rounded shapes are not judged; a
/// malformed normal disagrees.
#[test]
fn apart_and_malformed() {
    let far = r#"{"type":"sphere","center":[5,0,0],"radius":1}"#;
    let (v, d) = verdict(UNIT_SPHERE_0, far, r#"{"depth_f64":0,"normal":[1,0,0]}"#);
    assert_eq!(v, "agree", "{d}");
    assert!(d.contains("not judged: normal"), "{d}");
    check(
        UNIT_SPHERE_0,
        UNIT_SPHERE_110,
        r#"{"normal":[0,0,0]}"#,
        "disagree",
    );
    check(
        UNIT_SPHERE_0,
        UNIT_SPHERE_110,
        r#"{"contact":{"points":[]}}"#,
        "disagree",
    );
}

/// `depth_squared` on rounded shapes, judged exactly against δ² in ℚ(√q)
/// or ℚ(√p).
///
/// Unit spheres at (0,0,0) and (1,1,0): cores apart, q = 2, R = 2,
/// δ = 2 − √2, δ² = (2 − √2)² = 6 − 4√2 = 0.343145750507619804793…; the
/// nearest double is 0.3431457505076198 (worked with 60-digit decimals).
#[test]
fn depth_squared_of_spheres_cores_apart() {
    let (a, b) = (UNIT_SPHERE_0, UNIT_SPHERE_110);
    check(a, b, r#"{"depth_squared":0.3431457505076198}"#, "agree");
    // 0.3431457: relative error 1.47e-7 > 1e-9 by default, < 1e-6.
    check(a, b, r#"{"depth_squared":0.3431457}"#, "disagree");
    check(
        a,
        b,
        r#"{"depth_squared":0.3431457,"rel_tol":1e-6}"#,
        "agree",
    );
    // abs: |0.3431457 − δ²| ≈ 5.05e-8: agrees with abs 6e-8, not 5e-8.
    check(
        a,
        b,
        r#"{"depth_squared":0.3431457,"rel_tol":0,"abs_tol":6e-8}"#,
        "agree",
    );
    check(
        a,
        b,
        r#"{"depth_squared":0.3431457,"rel_tol":0,"abs_tol":5e-8}"#,
        "disagree",
    );
    // An exact string must equal δ², which is irrational here.
    check(
        a,
        b,
        r#"{"depth_squared":"3431457505076198/10000000000000000"}"#,
        "disagree",
    );
    // δ itself claimed as δ² (0.5858 against 0.3431): disagree.
    check(a, b, r#"{"depth_squared":0.5857864376269049}"#, "disagree");
}

/// Unit spheres at (0,0,0) and (1,0,0): q = 1, δ = 2 − 1 = 1 and δ² = 1
/// exactly (a rational δ²: the exact string "1" agrees, "1.0000001" not).
#[test]
fn depth_squared_rational_when_the_root_is() {
    let a = UNIT_SPHERE_0;
    let b = r#"{"type":"sphere","center":[1,0,0],"radius":1}"#;
    check(a, b, r#"{"depth_squared":"1"}"#, "agree");
    check(a, b, r#"{"depth_squared":1}"#, "agree");
    check(a, b, r#"{"depth_squared":"10000001/10000000"}"#, "disagree");
    check(a, b, r#"{"depth_squared":1.0000001}"#, "disagree");
    // Apart spheres (centres 3 apart, radii 1): δ = 0, δ² = 0.
    let far = r#"{"type":"sphere","center":[3,0,0],"radius":1}"#;
    check(a, far, r#"{"depth_squared":0}"#, "agree");
    check(a, far, r#"{"depth_squared":0.1}"#, "disagree");
}

/// Cores meeting: a box turned 45° about z (half-axes (1,1,0), (−1,1,0),
/// (0,0,3): half extents √2, √2, 3) and a unit sphere at its centre. The
/// sphere's core, the point 0, is √2 from the four side faces and 3 from
/// the ends, so p = 2, R = 0 + 1, δ = √2 + 1 and
/// δ² = 3 + 2√2 = 5.828427124746190097…; nearest double 5.82842712474619.
#[test]
fn depth_squared_with_meeting_cores() {
    let a = r#"{"type":"box","center":[0,0,0],"half_axes":[[1,1,0],[-1,1,0],[0,0,3]]}"#;
    let b = r#"{"type":"sphere","center":[0,0,0],"radius":1}"#;
    check(a, b, r#"{"depth_squared":5.82842712474619}"#, "agree");
    // 5.8284271: relative error 4.2e-9 (> 1e-9, < 1e-8).
    check(a, b, r#"{"depth_squared":5.8284271}"#, "disagree");
    check(
        a,
        b,
        r#"{"depth_squared":5.8284271,"rel_tol":1e-8}"#,
        "agree",
    );
    // (√2 + 1)² read wrongly as 2 + 1 = 3 (p + R², the cross term lost).
    check(a, b, r#"{"depth_squared":3}"#, "disagree");
    // And depth_f64 on the same pair: δ = 2.414213562373095…
    check(a, b, r#"{"depth_f64":2.414213562373095}"#, "agree");
}
