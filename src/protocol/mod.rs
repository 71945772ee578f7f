//! The JSON Lines protocol (`../shared/protocol.md`): parse a line, answer it.
//!
//! [`answer_line`] is the whole contract for one line: it never panics on input,
//! and every defect becomes an `{"error": …}` answer naming the field.

mod claim;
mod parse;

pub use parse::{
    parse_motion, parse_poly, parse_query, parse_shape, trim, CcdQuery, Motion, MovingBox, Op,
    ParseError, PointCcd, PolyCoeffs, Query, ScalarKind,
};

use crate::ccd::{self, CcdAnswer, ContactTime, PointCcdAnswer, TimeKind};
use crate::number::{exact_string, f64_companion, float_value, scalar_value};
use crate::query::triangle_triangle::{self, Contact};
use crate::query::{self, Intersection, QueryError};
use crate::scalar::Scalar;
use crate::shape::Shape;
use crate::sqrt::sqrt_nearest_f64;
use crate::vector::Vec3;
use num_rational::BigRational;
use serde_json::{json, Map, Value};

/// One answer line and whether it is a success (no `error` field).
#[derive(Clone, Debug, PartialEq)]
pub struct Answer {
    /// The JSON object to print.
    pub value: Value,
    /// False when the answer is an error.
    pub ok: bool,
    /// The claim's verdict, when the query carried a claim and was answered.
    pub agrees: Option<bool>,
}

/// Answer one input line (`line_no` counts from 1). Every line gets exactly one
/// answer, as the protocol says: an empty or white-space line is not a JSON
/// object and is answered `{"line": N, "error": …}` like malformed JSON, and so
/// is a line that is valid JSON but not an object.
///
/// ```
/// use exact_collision::protocol::answer_line;
/// let a = answer_line(r#"{"id":7,"op":"frobnicate"}"#, 1);
/// assert!(!a.ok);
/// assert_eq!(a.value["id"], 7);
/// assert!(a.value["error"].as_str().unwrap().contains("unknown op"));
/// let bad = answer_line("{not json", 2);
/// assert_eq!(bad.value["line"], 2);
/// assert_eq!(answer_line("", 3).value["line"], 3);
/// ```
pub fn answer_line(line: &str, line_no: usize) -> Answer {
    let line_error = |e: String| Answer {
        value: json!({"line": line_no, "error": e}),
        ok: false,
        agrees: None,
    };
    // A byte-order mark is not part of the JSON text.
    let line = line.strip_prefix('\u{feff}').unwrap_or(line);
    if line.trim().is_empty() {
        return line_error("malformed JSON: empty line (expected a query object)".into());
    }
    match serde_json::from_str::<Value>(line) {
        Ok(v) if v.is_object() => answer_value(&v),
        Ok(v) => line_error(format!(
            "malformed query: expected a JSON object, got {}",
            crate::number::kind(&v)
        )),
        Err(e) => line_error(format!("malformed JSON: {e}")),
    }
}

/// Answer an input line that is not valid UTF-8 (so not JSON).
pub fn answer_invalid_utf8(line_no: usize) -> Answer {
    Answer {
        value: json!({"line": line_no, "error": "malformed JSON: the line is not valid UTF-8"}),
        ok: false,
        agrees: None,
    }
}

/// Answer one query already read as JSON.
pub fn answer_value(v: &Value) -> Answer {
    let id = v.as_object().and_then(|o| o.get("id")).cloned();
    let mut out = Map::new();
    if let Some(id) = &id {
        out.insert("id".into(), id.clone());
    }
    let result = parse_query(v).map_err(|e| e.to_string()).and_then(|q| {
        let fields = match q.scalar {
            ScalarKind::Exact => run::<BigRational>(&q),
            ScalarKind::F64 => run::<f64>(&q),
            ScalarKind::F32 => run::<f32>(&q),
        }?;
        Ok((q, fields))
    });
    match result {
        Ok((q, fields)) => {
            out.extend(fields);
            let mut agrees = None;
            if let Some(c) = &q.claim {
                let (ok, detail) = claim::judge(c, &out);
                out.insert(
                    "verdict".into(),
                    Value::String(if ok { "agree" } else { "disagree" }.into()),
                );
                out.insert("detail".into(), Value::String(detail));
                agrees = Some(ok);
            }
            Answer {
                value: Value::Object(out),
                ok: true,
                agrees,
            }
        }
        Err(e) => {
            out.insert("error".into(), Value::String(e));
            Answer {
                value: Value::Object(out),
                ok: false,
                agrees: None,
            }
        }
    }
}

fn point<S: Scalar>(p: &Vec3<S>) -> Value {
    Value::Array(vec![
        scalar_value(&p.x),
        scalar_value(&p.y),
        scalar_value(&p.z),
    ])
}

fn convert<S: Scalar>(s: &Shape<BigRational>, field: &str) -> Result<Shape<S>, String> {
    s.convert::<S>().map_err(|e| {
        let what = if S::IS_EXACT {
            String::new()
        } else {
            format!(" (after rounding to {})", S::NAME)
        };
        if e.field.is_empty() {
            format!("{field}: {}{what}", e.defect)
        } else {
            format!("{field}.{}: {}{what}", e.field, e.defect)
        }
    })
}

fn query_err(e: QueryError) -> String {
    e.to_string()
}

fn run<S: Scalar>(q: &Query) -> Result<Map<String, Value>, String> {
    let mut m = Map::new();
    match &q.op {
        Op::Intersect { a, b } => {
            let (a, b) = (convert::<S>(a, "a")?, convert::<S>(b, "b")?);
            match query::intersect(&a, &b).map_err(query_err)? {
                Intersection::Overlap { witness } => {
                    m.insert("intersect".into(), Value::Bool(true));
                    m.insert("witness".into(), point(&witness));
                    if let (Shape::Triangle(ta), Shape::Triangle(tb)) = (&a, &b) {
                        // Seed 004's "collision point": the whole intersection set.
                        if let Some(c) =
                            triangle_triangle::intersection_set(ta, tb).map_err(query_err)?
                        {
                            m.insert("contact".into(), contact_value(&c));
                        }
                    }
                }
                Intersection::Separated { axis } => {
                    m.insert("intersect".into(), Value::Bool(false));
                    m.insert("separating_axis".into(), point(&axis));
                }
            }
        }
        Op::Distance { a, b } => {
            let (a, b) = (convert::<S>(a, "a")?, convert::<S>(b, "b")?);
            let c = query::distance(&a, &b).map_err(query_err)?;
            m.insert("distance_squared".into(), scalar_value(&c.distance_squared));
            if S::IS_EXACT {
                let d2 = c.distance_squared.to_rational();
                m.insert("distance_squared_f64".into(), f64_companion(&d2));
                m.insert("distance_f64".into(), float_value(sqrt_nearest_f64(&d2)));
            } else {
                let d2 = c.distance_squared.to_f64();
                m.insert("distance_squared_f64".into(), float_value(d2));
                m.insert("distance_f64".into(), float_value(d2.sqrt()));
            }
            m.insert(
                "closest".into(),
                Value::Array(vec![point(&c.a), point(&c.b)]),
            );
        }
        Op::Ccd(cq) => {
            if !S::IS_EXACT {
                // The float path: times are numbers (lo = hi = f64), no certificate.
                let num = |t: f64, kind: &str| {
                    let mut tm = Map::new();
                    tm.insert("lo".into(), float_value(t));
                    tm.insert("hi".into(), float_value(t));
                    tm.insert("f64".into(), float_value(t));
                    tm.insert("kind".into(), Value::String(kind.into()));
                    Value::Object(tm)
                };
                match ccd::ccd_f64(cq).map_err(query_err)? {
                    ccd::float::FloatAnswer::Miss => {
                        m.insert("hit".into(), Value::Bool(false));
                    }
                    ccd::float::FloatAnswer::Hit {
                        t_enter,
                        t_exit,
                        start,
                    } => {
                        let t1 = num_traits::ToPrimitive::to_f64(&cq.t_range.1).unwrap_or(f64::NAN);
                        m.insert("hit".into(), Value::Bool(true));
                        m.insert(
                            "t_enter".into(),
                            num(t_enter, if start { "start" } else { "root" }),
                        );
                        m.insert(
                            "t_exit".into(),
                            num(t_exit, if t_exit == t1 { "end" } else { "root" }),
                        );
                    }
                }
                return Ok(m);
            }
            match ccd::ccd(cq).map_err(query_err)? {
                CcdAnswer::Miss => {
                    m.insert("hit".into(), Value::Bool(false));
                }
                CcdAnswer::Hit {
                    t_enter,
                    t_exit,
                    feature,
                } => {
                    m.insert("hit".into(), Value::Bool(true));
                    m.insert("t_enter".into(), time_value(&t_enter));
                    m.insert("t_exit".into(), time_value(&t_exit));
                    if let Some(f) = feature {
                        let mut fm = Map::new();
                        fm.insert("kind".into(), Value::String(f.kind));
                        fm.insert("a".into(), Value::String(f.a));
                        fm.insert("b".into(), Value::String(f.b));
                        if f.degenerate {
                            fm.insert("degenerate".into(), Value::Bool(true));
                        }
                        m.insert("feature".into(), Value::Object(fm));
                    }
                }
            }
        }
        Op::CcdVf(p) | Op::CcdEe(p) => {
            if !S::IS_EXACT {
                return Err(format!(
                    "scalar: ccd_vf/ccd_ee are answered on the exact path only; the {} path is not implemented yet",
                    S::NAME
                ));
            }
            let ans = if matches!(q.op, Op::CcdVf(_)) {
                ccd::ccd_vf(p)
            } else {
                ccd::ccd_ee(p)
            };
            match ans.map_err(query_err)? {
                PointCcdAnswer::Miss => {
                    m.insert("hit".into(), Value::Bool(false));
                }
                PointCcdAnswer::Hit(t) => {
                    m.insert("hit".into(), Value::Bool(true));
                    m.insert("toi".into(), time_value(&t));
                }
            }
        }
    }
    Ok(m)
}

/// A triangle pair's intersection set: `{"kind": "point" | "segment" | "polygon",
/// "points": [...]}` (polygon vertices in order around it).
fn contact_value<S: Scalar>(c: &Contact<S>) -> Value {
    let (kind, pts): (&str, Vec<&Vec3<S>>) = match c {
        Contact::Point(p) => ("point", vec![p]),
        Contact::Segment(p, q) => ("segment", vec![p, q]),
        Contact::Polygon(v) => ("polygon", v.iter().collect()),
    };
    json!({"kind": kind, "points": pts.into_iter().map(point).collect::<Vec<_>>()})
}

/// A certified time as the protocol writes it.
pub fn time_value(t: &ContactTime) -> Value {
    let mut m = Map::new();
    m.insert("lo".into(), Value::String(exact_string(&t.lo)));
    m.insert("hi".into(), Value::String(exact_string(&t.hi)));
    m.insert("f64".into(), float_value(t.f64));
    if t.kind == TimeKind::Root {
        m.insert(
            "poly".into(),
            Value::Array(
                t.poly
                    .iter()
                    .map(|c| Value::String(c.to_string()))
                    .collect(),
            ),
        );
    }
    let kind = match t.kind {
        TimeKind::Root => "root",
        TimeKind::Start => "start",
        TimeKind::End => "end",
    };
    m.insert("kind".into(), Value::String(kind.into()));
    Value::Object(m)
}
