//! The JSON Lines protocol (the contract: docs/protocol.md): parse a line, answer it.
//!
//! [`answer_line`] is the whole contract for one line: it never panics on input,
//! and every defect becomes an `{"error": …}` answer naming the field.

mod claim;
mod claim_rounded;
mod decimal;
mod error;
mod fields;
mod lean;
pub mod limits;
pub mod number;
mod parse;
mod scale;

pub use claim::{FieldVerdict, Tolerances, Verdict};
pub use parse::{
    parse_motion, parse_poly, parse_query, parse_shape, trim, Op, ParseError, Query, ScalarKind,
};

use crate::ccd::{self, CcdAnswer, ContactTime, PointCcdAnswer, TimeKind};
use crate::num::scalar::Scalar;
use crate::num::sqrt::sqrt_nearest_f64;
use crate::protocol::number::{
    exact_string, f64_companion, float_value, parse_exact, scalar_value,
};
use crate::query::polytope::contact::Penetration;
use crate::query::rounded::contact::{RoundedContact, RoundedPenetration};
use crate::query::triangle_triangle::Contact;
use crate::query::{box_box, ContactAnswer, Intersection, QueryError};
use crate::vector::Vec3;
use num_rational::BigRational;
use num_traits::{One, Signed, Zero};
use serde_json::{json, Map, Value};
use std::cmp::Ordering;

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

pub use crate::stats::LINES;

/// What an answered line was: a success or an error, and the claim's verdict.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LineOutcome {
    /// False when the answer is an error.
    pub ok: bool,
    /// The claim's verdict, when the query carried a claim and was answered.
    pub agrees: Option<bool>,
    /// Whether the lean line path answered (else the general path did).
    pub lean: bool,
}

/// Answer one raw input line: its bytes without the `\n` (a final `\r` is
/// dropped, so CRLF files read as LF files), `line_no` counting from 1. The
/// answer and a `\n` are appended to `out`.
///
/// This is the program's path: `intersect` and `distance` lines are read by a
/// lean typed parser and written straight from the exact integers; any other
/// line (and any line the lean parser does not take, errors included) is
/// answered by [`answer_line`], the general path. Both give the same bytes for
/// the same line: [`answer_bytes_general`] is the general path alone, and the
/// tests compare the two.
///
/// ```
/// use exact_collision::protocol::{answer_bytes, answer_bytes_general};
/// let line = br#"{"id":1,"op":"distance","a":{"type":"triangle","v":[[0,0,0],[1,0,0],[0,1,0]]},"b":{"type":"triangle","v":[[0,0,2],[1,0,2],[0,1,2]]}}"#;
/// let (mut lean, mut general) = (Vec::new(), Vec::new());
/// assert!(answer_bytes(line, 1, &mut lean).ok);
/// answer_bytes_general(line, 1, &mut general);
/// assert_eq!(lean, general);
/// assert!(lean.starts_with(br#"{"id":1,"distance_squared":"4","#));
/// ```
pub fn answer_bytes(raw: &[u8], line_no: usize, out: &mut Vec<u8>) -> LineOutcome {
    let line = raw.strip_suffix(b"\r").unwrap_or(raw);
    if let Ok(text) = std::str::from_utf8(line) {
        let text = text.strip_prefix('\u{feff}').unwrap_or(text);
        // One budget for the line's exact numbers (crate::protocol::limits).
        if let Some(ok) = crate::protocol::limits::with_line_budget(|| lean::answer_line(text, out))
        {
            out.push(b'\n');
            return LineOutcome {
                ok,
                agrees: None,
                lean: true,
            };
        }
    }
    LINES.fallback();
    // The general path drops the one final `\r` itself (not a second one).
    answer_bytes_general(raw, line_no, out)
}

/// [`answer_bytes`] on the general path alone: the line read into a
/// `serde_json::Value`, answered by [`answer_line`] and serialized. The
/// reference the lean path is tested against.
pub fn answer_bytes_general(line: &[u8], line_no: usize, out: &mut Vec<u8>) -> LineOutcome {
    let line = line.strip_suffix(b"\r").unwrap_or(line);
    let a = match std::str::from_utf8(line) {
        Ok(text) => answer_line(text, line_no),
        Err(_) => answer_invalid_utf8(line_no),
    };
    // Writing to a Vec cannot fail.
    let _ = serde_json::to_writer(&mut *out, &a.value);
    out.push(b'\n');
    LineOutcome {
        ok: a.ok,
        agrees: a.agrees,
        lean: false,
    }
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
        Ok(v) if v.is_object() => match fields::duplicate_key(line) {
            // A `Value` keeps the last of two equal keys: the line is
            // ambiguous, answered like malformed JSON.
            Some(d) => line_error(d),
            None => answer_value(&v),
        },
        Ok(v) => line_error(format!(
            "malformed query: expected a JSON object, got {}",
            crate::protocol::number::kind(&v)
        )),
        Err(e) => line_error(format!("malformed JSON: {e}")),
    }
}

/// Answer an input line longer than `limit` bytes (the line itself was not
/// kept; docs/limits.md).
///
/// ```
/// use exact_collision::protocol::answer_overlong;
/// let a = answer_overlong(4, 1 << 20);
/// assert_eq!(a.value["line"], 4);
/// assert!(a.value["error"].as_str().unwrap().contains("--max-line-bytes"));
/// ```
pub fn answer_overlong(line_no: usize, limit: u64) -> Answer {
    let e = format!(
        "line longer than the limit of {limit} bytes, not read (raise it with --max-line-bytes; docs/limits.md)"
    );
    Answer {
        value: json!({"line": line_no, "error": e}),
        ok: false,
        agrees: None,
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

/// Answer one query already read as JSON. Its exact strings share one budget
/// of [`crate::protocol::limits::max_input_bits`].
pub fn answer_value(v: &Value) -> Answer {
    answer_value_with(v, &Tolerances::default()).0
}

/// Answer one query already read as JSON, judging its claim (if any) with the
/// caller's default tolerances `tol` (a claim's own `abs_tol`/`rel_tol` win);
/// the claim's verdict comes back too. A claim that cannot be judged (a bad
/// tolerance, no field to judge) makes the answer an error.
///
/// ```
/// use exact_collision::protocol::{answer_value_with, Tolerances};
/// use num_rational::BigRational;
/// let v: serde_json::Value = serde_json::from_str(r#"{"op":"distance",
///   "a":{"type":"triangle","v":[[0,0,0],[1,0,0],[0,1,0]]},
///   "b":{"type":"triangle","v":[[0,0,1],[1,0,1],[0,1,1]]},
///   "claim":{"distance_f64":1.001}}"#).unwrap();
/// let (a, verdict) = answer_value_with(&v, &Tolerances::default());
/// assert_eq!(a.value["verdict"], "disagree");
/// let loose = Tolerances { abs: Some(BigRational::new(1.into(), 100.into())), rel: None };
/// let (a, verdict) = answer_value_with(&v, &loose);
/// assert_eq!(a.value["verdict"], "agree");
/// assert!(verdict.unwrap().fields[0].ulps.unwrap() > 4.0e12);
/// ```
pub fn answer_value_with(v: &Value, tol: &Tolerances) -> (Answer, Option<Verdict>) {
    crate::protocol::limits::with_line_budget(|| answer_value_within_budget(v, tol))
}

fn answer_value_within_budget(v: &Value, tol: &Tolerances) -> (Answer, Option<Verdict>) {
    let id = v.as_object().and_then(|o| o.get("id")).cloned();
    let mut out = Map::new();
    if let Some(id) = &id {
        out.insert("id".into(), id.clone());
    }
    fields::echo(v, &mut out);
    // The inputs were rounded to the query's scalar type while parsing; every
    // query is then answered exactly (so decisions are exact on every path), and
    // the f64/f32 paths round the computed values at the end. The claim is
    // judged against the exact values, before any rounding.
    let result = parse_query(v)
        .map_err(|e| e.to_string())
        .and_then(|q| Ok((run(&q)?, q)))
        .and_then(|(fields, q)| {
            let verdict = match &q.claim {
                Some(c) => Some(claim::judge(c, &fields, &q, tol)?),
                None => None,
            };
            Ok((fields, q, verdict))
        });
    match result {
        Ok((fields, q, verdict)) => {
            out.extend(fields);
            if q.scalar != ScalarKind::Exact {
                round_answer(&mut out, q.scalar);
            }
            if let Some(v) = &verdict {
                out.insert(
                    "verdict".into(),
                    Value::String(if v.agrees { "agree" } else { "disagree" }.into()),
                );
                out.insert("detail".into(), Value::String(v.detail()));
            }
            let agrees = verdict.as_ref().map(|v| v.agrees);
            (
                Answer {
                    value: Value::Object(out),
                    ok: true,
                    agrees,
                },
                verdict,
            )
        }
        Err(e) => {
            out.insert("error".into(), Value::String(e));
            (
                Answer {
                    value: Value::Object(out),
                    ok: false,
                    agrees: None,
                },
                None,
            )
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

/// The cores' closest pair of a rounded answer, its squared distance and
/// the sum of the radii (the certificate of apart shapes: q > R²).
fn rounded_core(m: &mut Map<String, Value>, c: &crate::query::rounded::RoundedClosest) {
    m.insert(
        "core_distance_squared".into(),
        scalar_value(&c.core.distance_squared),
    );
    m.insert("radius".into(), scalar_value(&c.radius));
    m.insert(
        "core_closest".into(),
        Value::Array(vec![point(&c.core.a), point(&c.core.b)]),
    );
}

fn query_err(e: QueryError) -> String {
    e.to_string()
}

/// The exact answer's fields.
fn run(q: &Query) -> Result<Map<String, Value>, String> {
    let mut m = Map::new();
    match &q.op {
        Op::Intersect { a, b } => match scale::intersect(a, b).map_err(query_err)? {
            (Intersection::Overlap { witness }, contact) => {
                m.insert("intersect".into(), Value::Bool(true));
                m.insert("witness".into(), point(&witness));
                // Two triangles: the whole intersection set (Guigue–Devillers'
                // "collision point").
                if let Some(c) = contact {
                    m.insert("contact".into(), contact_value(&c));
                }
            }
            (Intersection::Separated { axis }, _) => {
                m.insert("intersect".into(), Value::Bool(false));
                m.insert("separating_axis".into(), point(&axis));
            }
        },
        Op::Distance { a, b } => distance_fields(&mut m, a, b)?,
        Op::Contact { a, b } => match scale::double_boxes(a, b) {
            // Two boxes of doubles: the float-guided path, the same answer.
            Some((x, y)) => match box_box::contact::contact(&x, &y).map_err(query_err)? {
                ContactAnswer::Meeting(p) => {
                    m.insert("intersect".into(), Value::Bool(true));
                    contact_fields(&mut m, &p);
                }
                ContactAnswer::Apart(c) => {
                    m.insert("intersect".into(), Value::Bool(false));
                    closest_fields(&mut m, &c);
                }
            },
            None => match scale::contact(a, b).map_err(query_err)? {
                Some(p) => {
                    m.insert("intersect".into(), Value::Bool(true));
                    contact_fields(&mut m, &p);
                }
                None => {
                    m.insert("intersect".into(), Value::Bool(false));
                    distance_fields(&mut m, a, b)?;
                }
            },
        },
        Op::ContactRounded { a, b } => {
            match crate::query::rounded::contact::contact(a, b).map_err(query_err)? {
                RoundedContact::Apart(_) => rounded_distance_fields(&mut m, a, b)?,
                RoundedContact::Meeting(p) => rounded_contact_fields(&mut m, &p),
            }
        }
        Op::IntersectRounded { a, b } => {
            let c = crate::query::rounded::distance_exact_any(a, b).map_err(query_err)?;
            let meet = rounded_meet(&c, a, b);
            m.insert("intersect".into(), Value::Bool(meet));
            if meet {
                m.insert("witness".into(), point(&c.witness_of_meeting(&a.radius)));
            } else {
                rounded_core(&mut m, &c);
            }
        }
        Op::DistanceRounded { a, b } => rounded_distance_fields(&mut m, a, b)?,
        Op::Ccd(cq) => match ccd::ccd_with_limits(cq, &limits::ccd_limits()).map_err(query_err)? {
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
        },
        Op::CcdVf(p) | Op::CcdEe(p) => {
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
        Op::CcdMinDistance {
            vf,
            q: p,
            min_distance,
        } => {
            use crate::ccd::points::{first_contact_min_distance, Kind};
            let k = if *vf {
                Kind::VertexFace
            } else {
                Kind::EdgeEdge
            };
            match first_contact_min_distance(k, p, min_distance).map_err(query_err)? {
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

/// The `distance` answer's fields.
fn distance_fields(
    m: &mut Map<String, Value>,
    a: &crate::shape::Shape<BigRational>,
    b: &crate::shape::Shape<BigRational>,
) -> Result<(), String> {
    let c = scale::distance(a, b).map_err(query_err)?;
    closest_fields(m, &c);
    Ok(())
}

/// The `distance` answer's fields from the exact answer.
fn closest_fields(m: &mut Map<String, Value>, c: &crate::query::Closest<BigRational>) {
    let d2 = &c.distance_squared;
    m.insert("distance_squared".into(), scalar_value(d2));
    m.insert("distance_squared_f64".into(), f64_companion(d2));
    m.insert("distance_f64".into(), float_value(sqrt_nearest_f64(d2)));
    m.insert(
        "closest".into(),
        Value::Array(vec![point(&c.a), point(&c.b)]),
    );
}

/// The `distance` answer's fields for rounded shapes.
fn rounded_distance_fields(
    m: &mut Map<String, Value>,
    a: &crate::shape::Rounded<BigRational>,
    b: &crate::shape::Rounded<BigRational>,
) -> Result<(), String> {
    let c = crate::query::rounded::distance_exact_any(a, b).map_err(query_err)?;
    let mut dm = Map::new();
    dm.insert("sqrt".into(), scalar_value(&c.core.distance_squared));
    dm.insert("minus".into(), scalar_value(&c.radius));
    m.insert("distance".into(), Value::Object(dm));
    let meet = rounded_meet(&c, a, b);
    let d64 = match radii_f64(a, b) {
        _ if meet => 0.0,
        Some((ra, rb)) => c.distance_f64_with_radii(ra, rb),
        None => c.distance_f64(),
    };
    m.insert("distance_f64".into(), float_value(d64));
    if c.radius.is_zero() {
        // No radius (convex hulls): the distance is √q, and q is rational.
        let d2 = &c.core.distance_squared;
        m.insert("distance_squared".into(), scalar_value(d2));
        m.insert("distance_squared_f64".into(), f64_companion(d2));
    }
    m.insert("intersect".into(), Value::Bool(meet));
    let points = if meet {
        let w = c.witness_of_meeting(&a.radius);
        Some((w.clone(), w))
    } else {
        c.exact_points_of_apart(&a.radius, &b.radius)
    };
    match points {
        Some((pa, pb)) => {
            m.insert("closest".into(), Value::Array(vec![point(&pa), point(&pb)]));
        }
        // Irrational closest points: their nearest doubles, decided exactly.
        None => {
            let ps = c.points_f64_of_apart(&a.radius, &b.radius);
            let p = |v: [f64; 3]| Value::Array(v.into_iter().map(float_value).collect());
            m.insert("closest_f64".into(), Value::Array(vec![p(ps[0]), p(ps[1])]));
        }
    }
    rounded_core(m, &c);
    Ok(())
}

/// Both radii as doubles, when they are exactly doubles (the protocol reads
/// every number as a rational).
fn radii_f64(
    a: &crate::shape::Rounded<BigRational>,
    b: &crate::shape::Rounded<BigRational>,
) -> Option<(f64, f64)> {
    let x = crate::num::dyadic::exact_f64;
    Some((x(&a.radius)?, x(&b.radius)?))
}

/// Whether rounded shapes meet (`q ≤ R²`), decided once per answer: the
/// filtered radius step when the radii are doubles, exactly otherwise.
fn rounded_meet(
    c: &crate::query::rounded::RoundedClosest,
    a: &crate::shape::Rounded<BigRational>,
    b: &crate::shape::Rounded<BigRational>,
) -> bool {
    match radii_f64(a, b) {
        Some((ra, rb)) => c.intersects_with_radii(ra, rb),
        None => c.intersects(),
    }
}

/// A `contact` answer's fields for meeting rounded shapes: δ in closed form
/// (`{"sqrt":p,"plus":R}` = √p + R with meeting cores, `{"minus_sqrt":q,
/// "plus":R}` = R − √q with apart ones), δ² where rational, `depth_f64`,
/// the normals, and the translation and region where rational.
fn rounded_contact_fields(m: &mut Map<String, Value>, p: &RoundedPenetration) {
    m.insert("intersect".into(), Value::Bool(true));
    let mut dm = Map::new();
    match &p.core {
        Some(c) => {
            dm.insert("sqrt".into(), scalar_value(&c.depth_squared));
        }
        None => {
            dm.insert(
                "minus_sqrt".into(),
                scalar_value(&p.closest.core.distance_squared),
            );
        }
    }
    dm.insert("plus".into(), scalar_value(&p.closest.radius));
    m.insert("depth".into(), Value::Object(dm));
    if let Some(d2) = p.depth_squared() {
        m.insert("depth_squared".into(), scalar_value(&d2));
    }
    m.insert("depth_f64".into(), float_value(p.depth_f64()));
    m.insert("normal".into(), point(&p.normals[0]));
    m.insert(
        "normals".into(),
        Value::Array(p.normals.iter().map(point).collect()),
    );
    if let Some(t) = &p.translation {
        m.insert("translation".into(), point(t));
    }
    if let Some(r) = &p.region {
        region_fields(m, r);
    }
    rounded_core(m, &p.closest);
}

/// A `contact` answer's fields for meeting shapes: δ² and its correctly
/// rounded root, the normals (primitive integers), b's translation and the
/// contact region (exact and as doubles).
fn contact_fields(m: &mut Map<String, Value>, p: &Penetration) {
    let d2 = &p.depth_squared;
    m.insert("depth_squared".into(), scalar_value(d2));
    m.insert("depth_f64".into(), float_value(sqrt_nearest_f64(d2)));
    m.insert("normal".into(), point(p.normal()));
    m.insert(
        "normals".into(),
        Value::Array(p.normals.iter().map(point).collect()),
    );
    m.insert("translation".into(), point(&p.translation));
    region_fields(m, &p.region);
}

/// `contact` (exact points) and `contact_f64` (the nearest doubles).
fn region_fields(m: &mut Map<String, Value>, region: &Contact<BigRational>) {
    m.insert("contact".into(), contact_value(region));
    let f = |x: &Vec3<BigRational>| Vec3::<f64>::from_rational(x);
    let f64s: Contact<f64> = match region {
        Contact::Point(x) => Contact::Point(f(x)),
        Contact::Segment(x, y) => Contact::Segment(f(x), f(y)),
        Contact::Polygon(v) => Contact::Polygon(v.iter().map(f).collect()),
    };
    m.insert("contact_f64".into(), contact_value(&f64s));
}

/// The value of an exact-string field, if it is one.
/// The exact value of an answer's own exact string (read outside the line's
/// input budget: an answer's long rationals are output, not input, and every
/// one of them is rounded).
fn exact_of(v: &Value) -> Option<BigRational> {
    v.as_str()
        .and_then(|s| crate::protocol::limits::outside_line(|| parse_exact(s).ok()))
}

/// `x` rounded to `kind`: to nearest, or outward (`Some(true)` up, `Some(false)`
/// down), as a JSON number (`"inf"` strings past the range).
fn rounded(x: &BigRational, kind: ScalarKind, up: Option<bool>) -> Value {
    float_value(rounded_f64(x, kind, up))
}

/// `x` rounded to `kind` (f32 values widened to f64, exactly): to nearest, or
/// outward (`Some(true)` up, `Some(false)` down); ±∞ past the range.
fn rounded_f64(x: &BigRational, kind: ScalarKind, up: Option<bool>) -> f64 {
    match kind {
        ScalarKind::F32 => {
            let mut f = f32::from_rational(x);
            if !f.is_finite() {
                return f as f64;
            }
            match (up, f.to_rational().cmp(x)) {
                (Some(true), Ordering::Less) => f = f.next_up(),
                (Some(false), Ordering::Greater) => f = f.next_down(),
                _ => {}
            }
            f as f64
        }
        _ => {
            let mut f = f64::from_rational(x);
            if !f.is_finite() {
                return f;
            }
            match (up, f.to_rational().cmp(x)) {
                (Some(true), Ordering::Less) => f = f.next_up(),
                (Some(false), Ordering::Greater) => f = f.next_down(),
                _ => {}
            }
            f
        }
    }
}

/// The power of two that brings the largest component of a separating axis
/// into [1, 2), so that rounding it to a float type cannot flush it to zero
/// (its direction is all that matters).
fn axis_scale(xs: &[BigRational]) -> BigRational {
    let big = xs.iter().map(|x| x.abs()).max().unwrap_or_default();
    let e = if big.is_zero() {
        0
    } else {
        big.numer().bits() as i64 - big.denom().bits() as i64
    };
    let two = BigRational::from_integer(2.into());
    if e >= 0 {
        BigRational::one() / num_traits::pow(two, e as usize)
    } else {
        num_traits::pow(two, (-e) as usize)
    }
}

/// The f64/f32 form of an exact answer: the computed values (distances, points,
/// axes, times) as JSON numbers of that type. Times are rounded outward, so
/// [lo, hi] still encloses the root; a separating axis is first scaled by a power
/// of two (its direction is all that matters) so that rounding cannot flush it
/// to zero. `_f64` companions, polynomials and names are kept as they are.
fn round_answer(m: &mut Map<String, Value>, kind: ScalarKind) {
    let near = |v: &mut Value| {
        if let Some(x) = exact_of(v) {
            *v = rounded(&x, kind, None);
        }
    };
    let point = |v: &mut Value| {
        if let Value::Array(cs) = v {
            cs.iter_mut().for_each(near);
        }
    };
    for key in ["distance_squared", "depth_squared"] {
        if let Some(v) = m.get_mut(key) {
            near(v);
        }
    }
    if let Some(v) = m.get_mut("translation") {
        point(v);
    }
    if let Some(v) = m.get_mut("witness") {
        point(v);
    }
    if let Some(Value::Array(ps)) = m.get_mut("closest") {
        ps.iter_mut().for_each(point);
    }
    if let Some(Value::Array(ps)) = m.get_mut("contact").and_then(|c| c.get_mut("points")) {
        ps.iter_mut().for_each(point);
    }
    if let Some(Value::Array(cs)) = m.get_mut("separating_axis") {
        let xs: Vec<BigRational> = cs.iter().filter_map(exact_of).collect();
        if xs.len() == 3 {
            let scale = axis_scale(&xs);
            for (c, x) in cs.iter_mut().zip(&xs) {
                *c = rounded(&(x * &scale), kind, None);
            }
        }
    }
    for key in ["t_enter", "t_exit", "toi"] {
        if let Some(Value::Object(t)) = m.get_mut(key) {
            for (end, up) in [("lo", false), ("hi", true)] {
                if let Some(v) = t.get_mut(end) {
                    if let Some(x) = exact_of(v) {
                        *v = rounded(&x, kind, Some(up));
                    }
                }
            }
        }
    }
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
                    .map(|c| Value::String(decimal::int_string(c)))
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
