//! `intersect` and `distance` of two boxes by pose (quaternion or matrix,
//! doubles) on the program's path, which takes the float-guided decision and
//! closest pair of `query::box_box::pose`, against the general path's exhaustive exact answer
//! (`Obb::from_pose` in rationals, scaled): the same bytes, on rotations from
//! random double quaternions, near-identity quaternions, quaternions one ulp
//! from a quarter turn, and matrices; and the fast path really answers.

use exact_collision::protocol::{answer_bytes, answer_bytes_general};
use exact_collision::stats;
use proptest::prelude::*;

fn same(line: &str) -> String {
    let (mut lean, mut general) = (Vec::new(), Vec::new());
    let x = answer_bytes(line.as_bytes(), 1, &mut lean);
    let y = answer_bytes_general(line.as_bytes(), 1, &mut general);
    let (l, g) = (
        String::from_utf8(lean).unwrap(),
        String::from_utf8(general).unwrap(),
    );
    assert_eq!(l, g, "{line}");
    assert_eq!((x.ok, x.agrees), (y.ok, y.agrees), "{line}");
    l
}

fn fmt(x: f64) -> String {
    // Rust's shortest round-trip form, a valid JSON number for finite x.
    let s = format!("{x:?}");
    s.replace("inf", "1e999")
}

fn quat(q: [f64; 4], e: [f64; 3], c: [f64; 3]) -> String {
    let j = |v: &[f64]| v.iter().map(|x| fmt(*x)).collect::<Vec<_>>().join(",");
    format!(
        r#"{{"type":"box","half_extents":[{}],"rotation":{{"quaternion":[{}]}},"translation":[{}]}}"#,
        j(&e),
        j(&q),
        j(&c)
    )
}

fn line(op: &str, a: &str, b: &str, scalar: &str) -> String {
    format!(r#"{{"id":7,"op":"{op}"{scalar},"a":{a},"b":{b}}}"#)
}

fn ext() -> impl Strategy<Value = [f64; 3]> {
    [0.1f64..1.0, 0.1f64..1.0, 0.1f64..1.0]
}

fn center() -> impl Strategy<Value = [f64; 3]> {
    [-1.5f64..1.5, -1.5f64..1.5, -1.5f64..1.5]
}

fn random_q() -> impl Strategy<Value = [f64; 4]> {
    [-1.0f64..1.0, -1.0f64..1.0, -1.0f64..1.0, -1.0f64..1.0]
        .prop_filter("nonzero", |q| q.iter().any(|x| x.abs() > 1e-3))
}

fn near_identity() -> impl Strategy<Value = [f64; 4]> {
    let tiny = prop_oneof![Just(0.0), -1e-9f64..1e-9, -1e-200f64..1e-200];
    (tiny.clone(), tiny.clone(), tiny).prop_map(|(x, y, z)| [1.0, x, y, z])
}

fn near_quarter_turn() -> impl Strategy<Value = [f64; 4]> {
    let s = std::f64::consts::FRAC_1_SQRT_2;
    let nudge = |x: f64, n: u8| match n % 3 {
        0 => x,
        1 => x.next_up(),
        _ => x.next_down(),
    };
    (0usize..3, any::<[u8; 4]>(), any::<bool>()).prop_map(move |(axis, n, unit)| {
        let (w, v) = if unit { (s, s) } else { (1.0, 1.0) };
        let mut q = [w, 0.0, 0.0, 0.0];
        q[1 + axis] = v;
        [0, 1, 2, 3].map(|i| nudge(q[i], n[i]))
    })
}

fn any_q() -> impl Strategy<Value = [f64; 4]> {
    prop_oneof![random_q(), near_identity(), near_quarter_turn()]
}

fn scalar() -> impl Strategy<Value = &'static str> {
    prop_oneof![
        Just(""),
        Just(r#","scalar":"f64""#),
        Just(r#","scalar":"f32""#)
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(40))]

    #[test]
    fn pose_pairs_answer_as_the_exact_path(qa in any_q(), qb in any_q(), ea in ext(), eb in ext(),
                                           ca in center(), cb in center(), s in scalar()) {
        same(&line("intersect", &quat(qa, ea, ca), &quat(qb, eb, cb), s));
    }

    #[test]
    fn matrix_poses_answer_as_the_exact_path(
        m in proptest::array::uniform3([-1.0f64..1.0, -1.0f64..1.0, -1.0f64..1.0]),
        qb in any_q(), ea in ext(), eb in ext(), ca in center(), cb in center()) {
        let j = |v: &[f64]| v.iter().map(|x| fmt(*x)).collect::<Vec<_>>().join(",");
        let a = format!(
            r#"{{"type":"box","half_extents":[{}],"rotation":{{"matrix":[[{}],[{}],[{}]]}},"translation":[{}]}}"#,
            j(&ea), j(&m[0]), j(&m[1]), j(&m[2]), j(&ca)
        );
        same(&line("intersect", &a, &quat(qb, eb, cb), ""));
        same(&line("intersect", &quat(qb, eb, cb), &a, ""));
    }
}

fn far_center() -> impl Strategy<Value = [f64; 3]> {
    [-3.0f64..3.0, -3.0f64..3.0, -3.0f64..3.0]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(16))]

    #[test]
    fn pose_distances_answer_as_the_exact_path(qa in any_q(), qb in any_q(), ea in ext(),
                                               eb in ext(), ca in far_center(),
                                               cb in far_center(), s in scalar()) {
        same(&line("distance", &quat(qa, ea, ca), &quat(qb, eb, cb), s));
    }

    #[test]
    fn matrix_pose_distances_answer_as_the_exact_path(
        m in proptest::array::uniform3([-1.0f64..1.0, -1.0f64..1.0, -1.0f64..1.0]),
        qb in any_q(), ea in ext(), eb in ext(), ca in far_center(), cb in far_center()) {
        let j = |v: &[f64]| v.iter().map(|x| fmt(*x)).collect::<Vec<_>>().join(",");
        let a = format!(
            r#"{{"type":"box","half_extents":[{}],"rotation":{{"matrix":[[{}],[{}],[{}]]}},"translation":[{}]}}"#,
            j(&ea), j(&m[0]), j(&m[1]), j(&m[2]), j(&ca)
        );
        same(&line("distance", &a, &quat(qb, eb, cb), ""));
    }
}

fn near_center() -> impl Strategy<Value = [f64; 3]> {
    [-0.6f64..0.6, -0.6f64..0.6, -0.6f64..0.6]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]

    /// `contact` of boxes by pose, most of them meeting (the pose contact
    /// path, `box_box::pose::contact`), answers as the general path's
    /// exhaustive reference on the exact boxes, byte for byte.
    #[test]
    fn pose_contacts_answer_as_the_exact_path(qa in any_q(), qb in any_q(), ea in ext(),
                                              eb in ext(), ca in near_center(),
                                              cb in near_center()) {
        same(&line("contact", &quat(qa, ea, ca), &quat(qb, eb, cb), ""));
    }

    #[test]
    fn matrix_pose_contacts_answer_as_the_exact_path(
        m in proptest::array::uniform3([-1.0f64..1.0, -1.0f64..1.0, -1.0f64..1.0]),
        qb in any_q(), ea in ext(), eb in ext(), ca in near_center(), cb in near_center()) {
        let j = |v: &[f64]| v.iter().map(|x| fmt(*x)).collect::<Vec<_>>().join(",");
        let a = format!(
            r#"{{"type":"box","half_extents":[{}],"rotation":{{"matrix":[[{}],[{}],[{}]]}},"translation":[{}]}}"#,
            j(&ea), j(&m[0]), j(&m[1]), j(&m[2]), j(&ca)
        );
        same(&line("contact", &a, &quat(qb, eb, cb), ""));
    }
}

/// Meeting boxes by pose are answered by the pose contact path: concentric
/// cubes, one of them turned a quarter about z by q = (1, 0, 0, 1) (the same
/// cube), need a move of 2 (six normals, worked by hand); a deep random pair
/// too; both as the reference answers them.
#[test]
fn pose_contacts_take_the_pose_path() {
    let before = stats::POSE_CONTACT.get();
    let turned = quat([1.0, 0.0, 0.0, 1.0], [1.0; 3], [0.25; 3]);
    let still = quat([3.0, 0.0, 0.0, 0.0], [1.0; 3], [0.25; 3]);
    let v: serde_json::Value =
        serde_json::from_str(&same(&line("contact", &still, &turned, ""))).unwrap();
    assert_eq!(v["depth_squared"], "4", "{v}");
    assert_eq!(v["normals"].as_array().map(|n| n.len()), Some(6), "{v}");
    let q = quat([0.3, -0.7, 0.2, 0.5], [0.5, 0.25, 0.75], [0.1, 0.0, -0.1]);
    same(&line("contact", &q, &turned, ""));
    assert!(stats::POSE_CONTACT.get().0 >= before.0 + 2);
}

/// `distance` lines: a unique closest pair (vertex against vertex, worked by
/// hand) and overlapping pairs (a center, a vertex, an edge–face crossing)
/// are answered without the exhaustive path; parallel faces (many closest
/// pairs) and touching faces by it; the same bytes either way, and errors
/// stay the general path's.
#[test]
fn hand_made_distances() {
    let id = [1.0, 0.0, 0.0, 0.0];
    let unit = |c: [f64; 3]| quat(id, [1.0; 3], c);
    let turned = quat([1.0, 0.0, 0.0, 1.0], [1.0; 3], [0.0; 3]);
    let before = stats::DISTANCE.get();
    let v: serde_json::Value =
        serde_json::from_str(&same(&line("distance", &turned, &unit([3.0; 3]), ""))).unwrap();
    // The quarter-turned cube is [−1, 1]³: (1, 1, 1) to (2, 2, 2).
    assert_eq!(v["distance_squared"], "3", "{v}");
    assert_eq!(
        v["closest"],
        serde_json::json!([["1", "1", "1"], ["2", "2", "2"]]),
        "{v}"
    );
    assert!(stats::DISTANCE.get().0 > before.0);
    for b in [
        [3.0, 0.0, 0.0],
        [2.0, 0.0, 0.0],
        [0.5, 0.0, 0.0],
        [1.5, 1.5, 1.5],
    ] {
        same(&line("distance", &turned, &unit(b), ""));
    }
    // Overlapping, no center or vertex of either inside the other: b turned
    // by about 45° about z with half-extents (1, 1, 2) at x = 1.9; its
    // vertical edge nearest a crosses a's faces z = ±1 inside a.
    let (c, s) = (
        (std::f64::consts::PI / 8.0).cos(),
        (std::f64::consts::PI / 8.0).sin(),
    );
    let diamond = quat([c, 0.0, 0.0, s], [1.0, 1.0, 2.0], [1.9, 0.0, 0.0]);
    for op in ["distance", "intersect"] {
        same(&line(op, &unit([0.0; 3]), &diamond, ""));
        same(&line(op, &diamond, &unit([0.0; 3]), ""));
    }
    let bad = quat([0.0; 4], [1.0; 3], [0.0; 3]);
    let v: serde_json::Value =
        serde_json::from_str(&same(&line("distance", &bad, &unit([0.0; 3]), ""))).unwrap();
    assert!(v.get("error").is_some(), "{v}");
}

/// Apart pairs are answered by the filter (hand-made: a quarter turn about z
/// by q = (1, 0, 0, 1), |q|² = 2, turns the box [−1, 1]×[−2, 2]×[−1, 1] into
/// [−2, 2]×[−1, 1]×[−1, 1]; a unit box at x = 3.5 is 0.5 away, the first
/// separating axis is a's second face normal, h2 × h0 = (−2, 0, 0)·(…) whose
/// primitive multiple the answer is, here unscaled: every coordinate is
/// dyadic); touching and overlapping ones as the exact path answers them;
/// invalid poses keep the general path's errors.
#[test]
fn hand_made_pairs() {
    let turned = quat([1.0, 0.0, 0.0, 1.0], [1.0, 2.0, 1.0], [0.0; 3]);
    let unit = |x: f64| quat([1.0, 0.0, 0.0, 0.0], [1.0; 3], [x, 0.0, 0.0]);
    let before = stats::INTERSECT.get();
    let v: serde_json::Value =
        serde_json::from_str(&same(&line("intersect", &turned, &unit(3.5), ""))).unwrap();
    assert_eq!(v["intersect"], false, "{v}");
    // h0 = (0, 1, 0), h2 = (0, 0, 1): h2 × h0 = (−1, 0, 0)·… as rationals.
    let axis: Vec<f64> = v["separating_axis"]
        .as_array()
        .unwrap()
        .iter()
        .map(|x| x.as_str().unwrap().parse::<f64>().unwrap())
        .collect();
    assert!(axis[0] < 0.0 && axis[1] == 0.0 && axis[2] == 0.0, "{v}");
    assert!(stats::INTERSECT.get().0 > before.0);
    // Touching faces (x = 3): intersect, by the exact path.
    let v: serde_json::Value =
        serde_json::from_str(&same(&line("intersect", &turned, &unit(3.0), ""))).unwrap();
    assert_eq!(v["intersect"], true, "{v}");
    // Overlapping, a's center strictly inside b: the witness is a's center.
    let v: serde_json::Value =
        serde_json::from_str(&same(&line("intersect", &turned, &unit(0.5), ""))).unwrap();
    assert_eq!(v["witness"], serde_json::json!(["0", "0", "0"]), "{v}");
    // b's center strictly inside a, a's outside b: b's center.
    let v: serde_json::Value =
        serde_json::from_str(&same(&line("intersect", &turned, &unit(1.5), ""))).unwrap();
    assert_eq!(v["witness"], serde_json::json!(["3/2", "0", "0"]), "{v}");
    // Neither center inside the other: the first vertex of a inside b,
    // (1, 1, 1).
    let v: serde_json::Value = serde_json::from_str(&same(&line(
        "intersect",
        &quat([1.0, 0.0, 0.0, 0.0], [1.0; 3], [0.0; 3]),
        &quat([1.0, 0.0, 0.0, 0.0], [1.0; 3], [1.5, 1.5, 1.5]),
        "",
    )))
    .unwrap();
    assert_eq!(v["witness"], serde_json::json!(["1", "1", "1"]), "{v}");
    // Errors stay the general path's.
    for bad in [
        quat([0.0; 4], [1.0; 3], [0.0; 3]),
        quat([1.0, 0.0, 0.0, 0.0], [0.0, 1.0, 1.0], [0.0; 3]),
        quat([1.0, 0.0, 0.0, 0.0], [-1.0, 1.0, 1.0], [0.0; 3]),
        r#"{"type":"box","half_extents":[1,1,1],"rotation":{"matrix":[[1,0,0],[0,1,0],[0,0,0]]}}"#
            .to_string(),
        r#"{"type":"box","half_extents":[1,1,1],"rotation":{"quaternion":[1,0,0,0],"matrix":[[1,0,0],[0,1,0],[0,0,1]]}}"#.to_string(),
        r#"{"type":"box","half_extents":[1,1,1],"center":[0,0,0],"translation":[0,0,0]}"#.to_string(),
    ] {
        let v: serde_json::Value =
            serde_json::from_str(&same(&line("intersect", &bad, &unit(0.0), ""))).unwrap();
        assert!(v.get("error").is_some(), "{v}");
    }
    // A pose with the default rotation and translation, and exact strings.
    same(&line(
        "intersect",
        r#"{"type":"box","half_extents":[1,1,1]}"#,
        &unit(2.5),
        "",
    ));
    same(&line(
        "intersect",
        r#"{"type":"box","half_extents":["1/3",1,1],"rotation":{"quaternion":[1,2,0,0]}}"#,
        &unit(2.5),
        "",
    ));
}

/// An `f64` answer rounds every exact value, however long: the answer's own
/// exact strings are output, not input, and are read back outside the line's
/// input budget (a quaternion with components near 1e-201 gives coordinates
/// of thousands of bits, which used to be left as exact strings). Each
/// number is checked to be the nearest double of the exact answer's value by
/// exact comparisons with the midpoints to its neighbours.
#[test]
fn f64_answers_round_long_exact_values() {
    use num_bigint::BigInt;
    use num_rational::BigRational;
    let a = quat(
        [1.0, 5.59305259395559e-201, -3.354232060999833e-201, 0.0],
        [0.4422785088620251, 0.22734856084112376, 0.6410862090317279],
        [0.11166119149085625, -0.999357114803873, 2.5516043774731227],
    );
    let b = quat(
        [
            -0.44726256040372353,
            -0.7525099741037553,
            -0.48301165754421194,
            0.7649507511830679,
        ],
        [0.5013832322106981, 0.5577768595987203, 0.829722418544852],
        [0.6198994250828168, -0.3297431268679577, 1.661848072519639],
    );
    let f: serde_json::Value =
        serde_json::from_str(&same(&line("distance", &a, &b, r#","scalar":"f64""#))).unwrap();
    let x: serde_json::Value = serde_json::from_str(&same(&line("distance", &a, &b, ""))).unwrap();
    let q = |s: &str| -> BigRational {
        let mut it = s.split('/');
        let n: BigInt = it.next().unwrap().parse().unwrap();
        let d: BigInt = it.next().map_or(BigInt::from(1), |d| d.parse().unwrap());
        BigRational::new(n, d)
    };
    let r = |v: f64| BigRational::from_float(v).unwrap();
    let mut long = 0;
    for (pf, px) in f["closest"]
        .as_array()
        .unwrap()
        .iter()
        .zip(x["closest"].as_array().unwrap())
    {
        for (cf, cx) in pf.as_array().unwrap().iter().zip(px.as_array().unwrap()) {
            let v = cf.as_f64().unwrap_or_else(|| panic!("not a number: {cf}"));
            let e = q(cx.as_str().unwrap());
            long += usize::from(cx.as_str().unwrap().len() > 300);
            let two = BigRational::from_integer(2.into());
            let lo = (r(v.next_down()) + r(v)) / &two;
            let hi = (r(v) + r(v.next_up())) / &two;
            assert!(lo <= e && e <= hi, "{v} is not the nearest double of {cx}");
        }
    }
    assert!(long > 0, "the case no longer has a long exact coordinate");
}
