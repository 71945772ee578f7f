//! Worked examples from the algorithms' source documents (Nathan's cuboid and
//! triangle notes, the "Cube intersection algorithm" article, the OBB
//! separating-axis test, Albocher et al.'s box CCD), answered through the
//! protocol.
//!
//! `exact-collision demo` (and `cargo run --release` with no arguments) prints
//! them as a table. Each example is a protocol query, so what the demo shows is
//! exactly what `exact-collision query` answers.

use crate::protocol::answer_value;
use serde_json::Value;

/// One worked example.
pub struct Example {
    /// Where it comes from.
    pub source: &'static str,
    /// What it shows.
    pub title: &'static str,
    /// The query (one JSON object).
    pub query: &'static str,
    /// What the source document says the answer is.
    pub expected: &'static str,
}

const UNIT_CUBE: &str = r#"{"type":"cube","vertices":[[0,0,0],[1,0,0],[1,1,0],[0,1,0],[0,0,1],[1,0,1],[1,1,1],[0,1,1]]}"#;

/// The examples: the number convention, then the source documents' examples.
pub fn examples() -> Vec<Example> {
    vec![
        Example {
            source: "protocol",
            title: "the JSON number 0.1 is a double, the string \"0.1\" is 1/10",
            query: r#"{"op":"distance","a":{"type":"triangle","v":[[0.1,0,0],[0.1,1,0],[0.1,0,1]]},"b":{"type":"triangle","v":[["0.1",0,0],["0.1",1,0],["0.1",0,1]]}}"#,
            expected: "distance² = (0.1 − 1/10)² > 0",
        },
        Example {
            source: "cube intersection article",
            title: "unit cube vs the same cube moved by (−0.9, −0.9, −0.9)",
            query: const_format_cube(0),
            expected: "intersect",
        },
        Example {
            source: "cube intersection article",
            title: "unit cube vs the same cube moved by (−1.1, −1.1, −1.1)",
            query: const_format_cube(1),
            expected: "no intersection",
        },
        Example {
            source: "OBB separating axes",
            title: "two unit boxes touching face to face (closed sets: touching intersects)",
            query: r#"{"op":"intersect","a":{"type":"box","center":[0,0,0],"half_axes":[[1,0,0],[0,1,0],[0,0,1]]},"b":{"type":"box","center":[2,0,0],"half_axes":[[0,1,0],[-1,0,0],[0,0,1]]}}"#,
            expected: "intersect (touching)",
        },
        Example {
            source: "Nathan 2014, cuboids",
            title: "two z-rotated prisms, plan views 1/10 apart",
            query: r#"{"op":"distance","a":{"type":"prism","base":[[0,0],[1,0],[1,1],[0,1]],"z":[0,1]},"b":{"type":"prism","base":[["1.1",0],["2.1",1],["2.1",0],["1.1",1]],"z":["0.5",2]}}"#,
            expected: "distance² = 1/100",
        },
        Example {
            source: "Nathan 2015, triangles",
            title: "coplanar triangles sharing one vertex (the case Nathan's strategy skips)",
            query: r#"{"op":"intersect","a":{"type":"triangle","v":[[0,0,0],[1,0,0],[0,1,0]]},"b":{"type":"triangle","v":[[1,0,0],[2,0,0],[2,1,0]]}}"#,
            expected: "intersect at (1, 0, 0)",
        },
    ]
    .into_iter()
    .chain(box_ccd_examples())
    .collect()
}

// ---- Albocher et al. (continuous collision of boxes) --------------------------
//
// D. Albocher, U. Sarel, Y.-K. Choi, G. Elber, W. Wang, "Efficient Continuous
// Collision Detection for Bounding Boxes under Rational Motion", IEEE
// International Conference on Robotics and Automation (ICRA), 2006, and its
// three worked examples.

/// Box CCD under the linear motion of Albocher et al.'s Eq. (6). The paper does
/// not give the box sizes; here box a is the static cube of half-size 5 and box b has half-sizes
/// (2, 2, 2.58), chosen so that the FV constraint is close to the paper's
/// 28.68 − 60.68·t (t ≈ 0.47).
pub const CCD_LINEAR_EQ6: &str = r#"{"op":"ccd","a":{"shape":{"type":"box","center":[0,0,0],"half_axes":[[5,0,0],[0,5,0],[0,0,5]]}},"b":{"shape":{"type":"box","center":[0,0,0],"half_axes":[[2,0,0],[0,2,0],[0,0,"2.58"]]},"motion":{"matrix":[["-0.88","-0.16","-0.46",0],["0.07","-0.90","-0.43",0],["0.48","0.41","-0.78",0],[["-28.35","45.11"],["-36.86","60.69"],0,1]]}},"t_range":["0","1"],"tolerance":"1e-12"}"#;

/// Box CCD with an entry and an exit time: a rotational motion of degree 2 (a
/// degree-1 quaternion curve) with linear translation, passing through the
/// static box.
pub const CCD_DEGREE2_ENTRY_EXIT: &str = r#"{"op":"ccd","a":{"shape":{"type":"box","center":[0,0,0],"half_axes":[[1,0,0],[0,1,0],[0,0,1]]}},"b":{"shape":{"type":"box","center":[0,0,0],"half_axes":[["1.5",0,0],[0,"0.5",0],[0,0,"0.25"]]},"motion":{"quaternion":[1,[0,2],[0,1],0],"translation":[["-5","10"],["0.5"],["0.3","-0.6"]]}},"t_range":["0","1"],"tolerance":"1e-12"}"#;

/// Box CCD that misses: a motion of degree 4 (a degree-2 quaternion curve) that
/// passes the static box within the bounding spheres but never touches it.
pub const CCD_DEGREE4_MISS: &str = r#"{"op":"ccd","a":{"shape":{"type":"box","center":[0,0,0],"half_axes":[[1,0,0],[0,1,0],[0,0,1]]}},"b":{"shape":{"type":"box","center":[0,0,0],"half_axes":[[1,0,0],[0,"0.5",0],[0,0,"0.5"]]},"motion":{"quaternion":[1,[0,1],[0,0,1],0],"translation":[["-5","10"],"2.6",0]}},"t_range":["0","1"],"tolerance":"1e-12"}"#;

fn box_ccd_examples() -> Vec<Example> {
    vec![
        Example {
            source: "Albocher et al. 2006",
            title: "linear motion of Eq. (6) (box sizes not in the paper: a half 5, b half (2, 2, 2.58))",
            query: CCD_LINEAR_EQ6,
            expected: "FV contact, t_enter ≈ 0.47 (paper: root of 28.68 − 60.68t), then an FV exit",
        },
        Example {
            source: "Albocher et al. 2006",
            title: "2nd-degree rotational motion through the box",
            query: CCD_DEGREE2_ENTRY_EXIT,
            expected: "an entry and an exit time (the paper's own data, 0.654 / 0.889, is not published)",
        },
        Example {
            source: "Albocher et al. 2006",
            title: "4th-degree motion past the box, inside the bounding spheres",
            query: CCD_DEGREE4_MISS,
            expected: "no collision",
        },
    ]
}

const fn const_format_cube(i: usize) -> &'static str {
    // The article's Python: s1 = cube − 0.9, s2 = cube − 1.1 (decimal strings, exact).
    const A: &str = concat!(
        r#"{"op":"intersect","a":"#,
        r#"{"type":"cube","vertices":[[0,0,0],[1,0,0],[1,1,0],[0,1,0],[0,0,1],[1,0,1],[1,1,1],[0,1,1]]}"#,
        r#","b":{"type":"cube","vertices":[["-0.9","-0.9","-0.9"],["0.1","-0.9","-0.9"],["0.1","0.1","-0.9"],["-0.9","0.1","-0.9"],["-0.9","-0.9","0.1"],["0.1","-0.9","0.1"],["0.1","0.1","0.1"],["-0.9","0.1","0.1"]]}}"#
    );
    const B: &str = concat!(
        r#"{"op":"intersect","a":"#,
        r#"{"type":"cube","vertices":[[0,0,0],[1,0,0],[1,1,0],[0,1,0],[0,0,1],[1,0,1],[1,1,1],[0,1,1]]}"#,
        r#","b":{"type":"cube","vertices":[["-1.1","-1.1","-1.1"],["-0.1","-1.1","-1.1"],["-0.1","-0.1","-1.1"],["-1.1","-0.1","-1.1"],["-1.1","-1.1","-0.1"],["-0.1","-1.1","-0.1"],["-0.1","-0.1","-0.1"],["-1.1","-0.1","-0.1"]]}}"#
    );
    if i == 0 {
        A
    } else {
        B
    }
}

/// A one-line summary of an answer.
pub fn summarize(v: &Value) -> String {
    if let Some(e) = v.get("error").and_then(Value::as_str) {
        return format!("error: {e}");
    }
    if let Some(b) = v.get("intersect").and_then(Value::as_bool) {
        return if b {
            format!("intersect, witness {}", v["witness"])
        } else {
            format!("separate, axis {}", v["separating_axis"])
        };
    }
    if let Some(d) = v.get("distance_squared") {
        return format!(
            "distance² = {} (≈ {}), closest {}",
            d.as_str().unwrap_or(&d.to_string()),
            v["distance_squared_f64"],
            v["closest"]
        );
    }
    if let Some(h) = v.get("hit").and_then(Value::as_bool) {
        if !h {
            return "no contact".into();
        }
        let t = |k: &str| {
            v.get(k)
                .map(|t| format!("{} ∈ [{}, {}]", t["f64"], t["lo"], t["hi"]))
                .unwrap_or_default()
        };
        return format!(
            "t_enter {} t_exit {} feature {}",
            t("t_enter"),
            t("t_exit"),
            v.get("feature").cloned().unwrap_or(Value::Null)
        );
    }
    v.to_string()
}

/// The demo as text: one block per example.
pub fn render() -> String {
    let _ = UNIT_CUBE;
    let mut out = String::from(
        "exact-collision: worked examples from the algorithms' source documents, answered exactly\n\n",
    );
    for ex in examples() {
        let q: Value = serde_json::from_str(ex.query).expect("demo queries are valid JSON");
        let a = answer_value(&q);
        out.push_str(&format!(
            "[{}] {}\n    expected: {}\n    answer:   {}\n\n",
            ex.source,
            ex.title,
            ex.expected,
            summarize(&a.value)
        ));
    }
    out
}
