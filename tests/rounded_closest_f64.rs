//! `closest_f64`: the closest points of apart rounded shapes whose exact
//! points are irrational, each coordinate the nearest double (ties to even),
//! decided exactly (`num::sqrt_affine`).
//!
//! Expected values are worked by hand (below) or outside the program
//! (`tests/data/closest_f64_cases.jsonl`, written by
//! `scripts/gen_closest_f64_cases.py` with Python's `fractions` and
//! `decimal` at 150 digits).

use exact_collision::num::sqrt_affine::AffineSqrt;
use exact_collision::protocol::answer_line;
use num_rational::BigRational;
use serde_json::Value;

fn answer(line: &str) -> Value {
    let a = answer_line(line, 1);
    assert!(a.ok, "{line}: {}", a.value);
    a.value
}

/// The `closest_f64` field as two points of doubles.
fn closest_f64(v: &Value) -> Option<[[f64; 3]; 2]> {
    let ps = v.get("closest_f64")?.as_array()?;
    let p = |w: &Value| {
        let c = w.as_array().expect("a point");
        [0, 1, 2].map(|i| c[i].as_f64().expect("a number"))
    };
    Some([p(&ps[0]), p(&ps[1])])
}

fn bits(p: [[f64; 3]; 2]) -> [[u64; 3]; 2] {
    p.map(|q| q.map(f64::to_bits))
}

fn spheres(ca: &str, ra: &str, cb: &str, rb: &str) -> String {
    format!(
        r#"{{"op":"distance","a":{{"type":"sphere","center":{ca},"radius":{ra}}},"b":{{"type":"sphere","center":{cb},"radius":{rb}}}}}"#
    )
}

/// 1/√2 = 0.70710678118654752440…; its neighbouring doubles are
/// 0.70710678118654746171… and 0.70710678118654757274… (4.8e-17 away,
/// against 6.3e-17 for the lower one).
#[allow(clippy::approx_constant)] // worked by hand, not taken from std
const INV_SQRT2: f64 = 0.7071067811865476;

/// The unit ball at the origin and the point (1, 1, 0): q = 2, so the
/// closest point on the ball is (1/√2, 1/√2, 0), irrational: `closest` is
/// absent, `closest_f64` present; the point itself is exact.
#[test]
fn sphere_and_point_by_hand() {
    let line = spheres("[0,0,0]", "1", "[1,1,0]", "0");
    let v = answer(&line);
    assert!(v.get("closest").is_none());
    assert_eq!(
        closest_f64(&v),
        Some([[INV_SQRT2, INV_SQRT2, 0.0], [1.0, 1.0, 0.0]])
    );
    // The contact op of apart shapes answers the distance fields, this one
    // included.
    let c = answer(&line.replace("\"distance\"", "\"contact\""));
    assert_eq!(c.get("closest_f64"), v.get("closest_f64"));
    // b's side: a point of radius 1 at (1, 1, 0) against the origin:
    // (1 − 1/√2, 1 − 1/√2, 0) = 0.29289321881345247560…, whose nearest
    // double is 0.2928932188134525 (0.29289321881345248… is 2.2e-17 away,
    // 0.29289321881345242… 3.3e-17).
    let w = answer(&spheres("[0,0,0]", "0", "[1,1,0]", "1"));
    let t = 0.2928932188134525;
    assert_eq!(closest_f64(&w), Some([[0.0, 0.0, 0.0], [t, t, 0.0]]));
}

/// No `closest_f64` where the points are rational (√q rational, or the
/// shapes meet): those lines keep `closest`.
#[test]
fn absent_where_rational() {
    // q = 25: (3/5, 4/5, 0).
    let v = answer(&spheres("[0,0,0]", "1", "[3,4,0]", "0"));
    assert!(v.get("closest_f64").is_none());
    assert_eq!(v["closest"][0], serde_json::json!(["3/5", "4/5", "0"]));
    // Meeting: the witness twice.
    let m = answer(&spheres("[0,0,0]", "1", "[1,1,0]", "1"));
    assert!(m.get("closest_f64").is_none());
    assert!(m.get("closest").is_some());
}

/// Powers of two scale the exact points and their roundings alike (normal
/// range): 2^±40 times the hand-worked case.
#[test]
fn scales_two_to_the_40() {
    for e in [40, -40] {
        let s = 2f64.powi(e);
        let line = spheres(
            "[0,0,0]",
            &format!("{s:e}"),
            &format!("[{s:e},{s:e},0]"),
            "0",
        );
        let v = answer(&line);
        assert_eq!(
            closest_f64(&v),
            Some([[INV_SQRT2 * s, INV_SQRT2 * s, 0.0], [s, s, 0.0]]),
            "2^{e}"
        );
    }
}

/// Ties: a coordinate with d_i = 0 is the core point's own coordinate,
/// exactly; at a midpoint between two doubles it rounds to the even one.
/// Near-ties: the offset (r/√q)·d_i of 2^−200 decides the side.
#[test]
fn ties_and_near_ties() {
    let m1 = "\"9007199254740993/9007199254740992\""; // 1 + 2^-53: between 1 and 1 + 2^-52
    let m3 = "\"9007199254740995/9007199254740992\""; // 1 + 3·2^-53: between 1 + 2^-52 and 1 + 2^-51
    let v = answer(&spheres(
        &format!("[{m1},0,0]"),
        "1",
        &format!("[{m1},1,1]"),
        "0",
    ));
    assert_eq!(
        closest_f64(&v),
        Some([[1.0, INV_SQRT2, INV_SQRT2], [1.0, 1.0, 1.0]])
    );
    let v = answer(&spheres(
        &format!("[{m3},0,0]"),
        "1",
        &format!("[{m3},1,1]"),
        "0",
    ));
    let up = 1.0 + 2f64.powi(-51);
    assert_eq!(
        closest_f64(&v),
        Some([[up, INV_SQRT2, INV_SQRT2], [up, 1.0, 1.0]])
    );
    // a's center at 1 + 2^-53, b's point 2^-200 to either side in x:
    // a's closest point is 1 + 2^-53 ± 2^-200/√(2 + 2^-400), just off the
    // midpoint, so it rounds up (1 + 2^-52) or down (1); b's point is the
    // exact center 1 + 2^-53 ± 2^-200, rounding the same way.
    let p200 = num_bigint::BigInt::from(1) << 200usize;
    let mid = BigRational::new(9007199254740993u64.into(), 9007199254740992u64.into());
    for (sign, want) in [(1, 1.0 + f64::EPSILON), (-1, 1.0)] {
        let bx = &mid + BigRational::new(sign.into(), p200.clone());
        let line = spheres(&format!("[{m1},0,0]"), "1", &format!("[\"{bx}\",1,1]"), "0");
        let v = answer(&line);
        let c = closest_f64(&v).expect("irrational points");
        assert_eq!(c[0][0], want, "{sign}");
        assert_eq!(c[1][0], want, "{sign}");
        assert_eq!(c[0][1], INV_SQRT2);
    }
}

fn q(s: &str) -> BigRational {
    s.parse().expect("a rational")
}

/// Against the values worked outside the program (Python `fractions` and
/// `decimal` at 150 digits, every case more than 10^-120 relative from a
/// rounding midpoint): sphere pairs at scales 1, 2^±40, 2^±300, 2^±600 through
/// the protocol, and raw `a + s/√q` (near midpoints, cancellation).
#[test]
fn against_python_decimal() {
    let text = include_str!("data/closest_f64_cases.jsonl");
    let (mut lines, mut raw) = (0, 0);
    for l in text.lines() {
        let c: Value = serde_json::from_str(l).expect("json");
        if let Some(line) = c.get("line") {
            let v = answer(&line.to_string());
            let want = closest_f64(&c).expect("expected points");
            let got = closest_f64(&v).unwrap_or_else(|| panic!("no closest_f64: {v}"));
            assert_eq!(bits(got), bits(want), "{line}");
            lines += 1;
        } else {
            let x = AffineSqrt::new(
                &q(c["a"].as_str().expect("a")),
                &q(c["s"].as_str().expect("s")),
                &q(c["q"].as_str().expect("q")),
            )
            .expect("q > 0");
            let want = c["nearest"].as_f64().expect("nearest");
            assert_eq!(x.nearest_f64().to_bits(), want.to_bits(), "{l}");
            raw += 1;
        }
    }
    assert!(lines >= 70 && raw >= 60, "{lines} lines, {raw} raw cases");
}
