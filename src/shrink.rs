//! Shrinking a failing query: make it smaller while it still fails.
//!
//! A query that another engine gets wrong is easier to read, report and debug
//! when its numbers are short. [`shrink_numbers`] reduces a list of exact
//! numbers one at a time, trying in turn 0, the nearest integers, simple
//! dyadic fractions k/2ʲ (j ≤ 8) and the value rounded to fewer significant
//! bits (1, 2, 4, …, 48), keeping a candidate only when the caller's predicate
//! says the query *still fails* and the number is no longer as text and has no
//! more significant bits (one of the two strictly fewer): so the result is
//! never larger than the input, and every step is checked by the predicate (no
//! step is assumed to preserve the failure). Passes repeat until nothing
//! changes (at most [`MAX_PASSES`]).
//!
//! [`shrink_query`] applies it to a protocol line: structural steps first (a
//! box replaced by an axis-aligned one with the same extents along its
//! largest components, a pose's rotation dropped), then the numbers of the
//! shapes, motions and points. The predicate is the *claim function*: for a
//! plain protocol line, [`claim_disagrees`] (the line's own claim, kept fixed,
//! stays wrong against the exact answer); an engine adapter passes its own
//! (the engine's answer on the shrunk input disagrees with the exact one).
//!
//! This is greedy delta debugging (A. Zeller and R. Hildebrandt, "Simplifying
//! and Isolating Failure-Inducing Input", IEEE TSE 28(2), 2002) on the numbers,
//! in the manner of property-testing shrinkers (QuickCheck, Hypothesis): it
//! finds a local minimum, not the smallest failing query.

use crate::num::scalar::rational_to_f64;
use crate::protocol::number::{exact_string, read_number};
use crate::protocol::{answer_value_with, parse_shape, Tolerances};
use crate::shape::Shape;
use crate::vector::Vec3;
use num_bigint::BigInt;
use num_rational::BigRational;
use num_traits::{One, Signed, ToPrimitive, Zero};
use serde_json::{Map, Value};

/// The most passes over the numbers.
pub const MAX_PASSES: usize = 4;

/// How a number is written: a JSON number (a double) or an exact string.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Form {
    /// A JSON number: only doubles can be written.
    Double,
    /// An exact string.
    Exact,
}

/// The text of `x` in `form`, or `None` when a JSON number cannot hold it
/// exactly (not a double).
pub fn number_text(x: &BigRational, form: Form) -> Option<String> {
    match form {
        Form::Exact => Some(format!("\"{}\"", exact_string(x))),
        Form::Double => {
            if x.is_integer() {
                if let Some(i) = x.numer().to_i64() {
                    if i.unsigned_abs() <= 1 << 53 {
                        return Some(i.to_string());
                    }
                }
            }
            let f = rational_to_f64(x);
            (f.is_finite() && BigRational::from_float(f).as_ref() == Some(x))
                .then(|| serde_json::Number::from_f64(f).map(|n| n.to_string()))
                .flatten()
        }
    }
}

/// The JSON value of `x` in `form` (`x` must be writable in it).
fn number_value(x: &BigRational, form: Form) -> Value {
    let text = number_text(x, form).unwrap_or_else(|| format!("\"{}\"", exact_string(x)));
    serde_json::from_str(&text).unwrap_or(Value::Null)
}

/// Significant bits of an exact number (numerator and denominator).
pub fn bits(x: &BigRational) -> u64 {
    let strip = |n: &BigInt| {
        let z = n.trailing_zeros().unwrap_or(0);
        (n >> z).bits()
    };
    strip(x.numer()) + strip(x.denom())
}

fn pow2(k: i64) -> BigRational {
    let p = BigRational::from_integer(num_traits::pow(BigInt::from(2), k.unsigned_abs() as usize));
    if k >= 0 {
        p
    } else {
        p.recip()
    }
}

/// `x` rounded to the nearest multiple of `unit` (ties away from zero).
fn round_to(x: &BigRational, unit: &BigRational) -> BigRational {
    (x / unit).round() * unit
}

/// The candidates for `x`, simplest first.
fn candidates(x: &BigRational) -> Vec<BigRational> {
    let mut c = vec![BigRational::zero(), x.round(), x.trunc()];
    if x.abs() < BigRational::one() {
        c.push(if x.is_negative() {
            -BigRational::one()
        } else {
            BigRational::one()
        });
    }
    for j in 1..=8 {
        c.push(round_to(x, &pow2(-j)));
    }
    if !x.is_zero() {
        // Fewer significant bits: x rounded to b bits at its own scale.
        let e = x.numer().bits() as i64 - x.denom().bits() as i64;
        for b in [1, 2, 4, 8, 12, 16, 24, 32, 40, 48] {
            c.push(round_to(x, &pow2(e - b)));
        }
    }
    c
}

/// Shrink the numbers `xs` (written in `forms`) while `fails` holds; `fails`
/// is never asked about a list it was not asked to keep. Returns the smallest
/// list found (the input itself if no step keeps the failure).
///
/// ```
/// use exact_collision::shrink::{shrink_numbers, Form};
/// use num_rational::BigRational;
/// let q = |x: f64| BigRational::from_float(x).unwrap();
/// // "Fails" while the sum stays above 10.
/// let xs = vec![q(3.14159), q(7.3890561)];
/// let out = shrink_numbers(&xs, &[Form::Double; 2], &mut |v: &[BigRational]| {
///     v.iter().sum::<BigRational>() > q(10.0)
/// });
/// assert!(out.iter().sum::<BigRational>() > q(10.0));
/// // 3.14159 → 3 (0 fails the test); 7.3890561 → 7.5 (0 and 7 fail), then
/// // in the second pass 7.5 → 8 (its nearest integer, rounding half away).
/// assert_eq!(out, vec![q(3.0), q(8.0)]);
/// ```
pub fn shrink_numbers(
    xs: &[BigRational],
    forms: &[Form],
    fails: &mut dyn FnMut(&[BigRational]) -> bool,
) -> Vec<BigRational> {
    let mut cur = xs.to_vec();
    for _ in 0..MAX_PASSES {
        let mut changed = false;
        for i in 0..cur.len() {
            let form = forms.get(i).copied().unwrap_or(Form::Exact);
            let Some(old_text) = number_text(&cur[i], form) else {
                continue;
            };
            let old_bits = bits(&cur[i]);
            let mut seen = Vec::new();
            for cand in candidates(&cur[i]) {
                if cand == cur[i] || seen.contains(&cand) {
                    continue;
                }
                seen.push(cand.clone());
                let Some(text) = number_text(&cand, form) else {
                    continue;
                };
                let nb = bits(&cand);
                let smaller = text.len() <= old_text.len()
                    && nb <= old_bits
                    && (text.len() < old_text.len() || nb < old_bits);
                if !smaller {
                    continue;
                }
                let keep = std::mem::replace(&mut cur[i], cand);
                if fails(&cur) {
                    changed = true;
                    break;
                }
                cur[i] = keep;
            }
        }
        if !changed {
            break;
        }
    }
    cur
}

/// Keys whose values hold the numbers of a query (shapes, motions, points).
const NUMERIC_KEYS: [&str; 5] = ["a", "b", "t0", "t1", "t_range"];

/// Paths (object keys and array indices) to every number of `v`, skipping
/// `type` fields.
fn leaves(v: &Value, path: &mut Vec<PathStep>, out: &mut Vec<(Vec<PathStep>, BigRational, Form)>) {
    match v {
        Value::Number(_) => {
            if let Ok(x) = read_number(v) {
                out.push((path.clone(), x, Form::Double));
            }
        }
        Value::String(_) => {
            if let Ok(x) = read_number(v) {
                out.push((path.clone(), x, Form::Exact));
            }
        }
        Value::Array(a) => {
            for (i, e) in a.iter().enumerate() {
                path.push(PathStep::Index(i));
                leaves(e, path, out);
                path.pop();
            }
        }
        Value::Object(o) => {
            for (k, e) in o {
                if k == "type" {
                    continue;
                }
                path.push(PathStep::Key(k.clone()));
                leaves(e, path, out);
                path.pop();
            }
        }
        _ => {}
    }
}

#[derive(Clone, Debug)]
enum PathStep {
    Key(String),
    Index(usize),
}

fn at<'a>(v: &'a mut Value, path: &[PathStep]) -> Option<&'a mut Value> {
    path.iter().try_fold(v, |v, s| match s {
        PathStep::Key(k) => v.get_mut(k.as_str()),
        PathStep::Index(i) => v.get_mut(*i),
    })
}

/// The numbers of a query's shapes, motions and points, with where they are.
fn query_numbers(q: &Value) -> Vec<(Vec<PathStep>, BigRational, Form)> {
    let mut out = Vec::new();
    if let Some(o) = q.as_object() {
        for k in NUMERIC_KEYS {
            if let Some(v) = o.get(k) {
                let mut path = vec![PathStep::Key(k.into())];
                leaves(v, &mut path, &mut out);
            }
        }
    }
    out
}

/// Structural simplifications of one shape (each a whole replacement).
fn shape_steps(s: &Map<String, Value>) -> Vec<Map<String, Value>> {
    let mut steps = Vec::new();
    if s.get("type").and_then(Value::as_str) != Some("box") {
        if s.contains_key("rotation") {
            let mut t = s.clone();
            t.remove("rotation");
            steps.push(t);
        }
        return steps;
    }
    if let Some(Value::Array(h)) = s.get("half_axes") {
        // Axis-aligned, with each half-axis's largest component as its extent.
        let ext: Option<Vec<BigRational>> = h
            .iter()
            .map(|v| {
                let cs = v.as_array()?;
                cs.iter()
                    .map(|c| read_number(c).ok().map(|x| x.abs()))
                    .try_fold(BigRational::zero(), |m, c| c.map(|c| m.max(c)))
            })
            .collect();
        if let Some(ext) = ext.filter(|e| e.len() == 3) {
            let mut t = s.clone();
            let rows: Vec<Value> = (0..3)
                .map(|i| {
                    Value::Array(
                        (0..3)
                            .map(|j| {
                                let x = if i == j {
                                    ext[i].clone()
                                } else {
                                    BigRational::zero()
                                };
                                let form = if number_text(&x, Form::Double).is_some() {
                                    Form::Double
                                } else {
                                    Form::Exact
                                };
                                number_value(&x, form)
                            })
                            .collect(),
                    )
                })
                .collect();
            t.insert("half_axes".into(), Value::Array(rows));
            steps.push(t);
        }
    }
    if s.contains_key("axes") {
        let mut t = s.clone();
        t.insert(
            "axes".into(),
            serde_json::json!([[1, 0, 0], [0, 1, 0], [0, 0, 1]]),
        );
        steps.push(t);
    }
    if s.contains_key("rotation") {
        let mut t = s.clone();
        t.remove("rotation");
        steps.push(t);
    }
    steps
}

/// Shrink a protocol query while `fails` holds: structural steps on its shapes
/// (boxes made axis-aligned, rotations dropped, an optional `radius` dropped,
/// a convex shape's points dropped one at a time), then its numbers. `fails`
/// is only asked about queries that differ from the input by one step; the
/// result is the input itself when no step keeps the failure, and never
/// longer.
pub fn shrink_query(query: &Value, fails: &mut dyn FnMut(&Value) -> bool) -> Value {
    // A step may not lower the dimension of a shape's core: a proper
    // triangle made degenerate, a capsule's segment made a point, a convex
    // hull made flatter (a point or a segment is another failure, not a
    // smaller one).
    let dims_of = core_dims(query);
    let fails = &mut |q: &Value| {
        core_dims(q)
            .iter()
            .zip(&dims_of)
            .all(|(now, was)| was.is_none_or(|w| now.is_some_and(|n| n >= w)))
            && fails(q)
    };
    let mut cur = query.clone();
    // Fewer points of a convex shape: each dropped in turn, kept dropped
    // while the query still fails; an optional radius (not a sphere's or a
    // capsule's) dropped, i.e. made 0.
    for side in ["a", "b"] {
        let optional_radius = cur.get(side).is_some_and(|s| {
            s.get("radius").is_some()
                && !matches!(
                    s.get("type").and_then(Value::as_str),
                    Some("sphere" | "capsule")
                )
        });
        if optional_radius {
            let mut cand = cur.clone();
            if let Some(Value::Object(o)) = cand.get_mut(side) {
                o.remove("radius");
            }
            if fails(&cand) {
                cur = cand;
            }
        }
        let mut i = 0;
        let n_points = |q: &Value| {
            q.get(side)
                .filter(|s| s.get("type").and_then(Value::as_str) == Some("convex"))
                .and_then(|s| s.get("points"))
                .and_then(Value::as_array)
                .map_or(0, Vec::len)
        };
        while i < n_points(&cur) && n_points(&cur) > 1 {
            let mut cand = cur.clone();
            if let Some(Value::Array(p)) = cand.get_mut(side).and_then(|s| s.get_mut("points")) {
                p.remove(i);
            }
            if fails(&cand) {
                cur = cand;
            } else {
                i += 1;
            }
        }
    }
    for side in ["a", "b"] {
        // The shape itself, or a moving box's `shape`.
        for inner in [false, true] {
            let get = |v: &Value| -> Option<Map<String, Value>> {
                let s = v.get(side)?;
                let s = if inner { s.get("shape")? } else { s };
                s.as_object().cloned()
            };
            let Some(shape) = get(&cur) else { continue };
            for step in shape_steps(&shape) {
                let mut cand = cur.clone();
                let slot = if inner {
                    cand.get_mut(side).and_then(|s| s.get_mut("shape"))
                } else {
                    cand.get_mut(side)
                };
                if let Some(slot) = slot {
                    *slot = Value::Object(step);
                }
                if line_len(&cand) <= line_len(&cur) && fails(&cand) {
                    cur = cand;
                    break;
                }
            }
        }
    }
    let nums = query_numbers(&cur);
    let xs: Vec<BigRational> = nums.iter().map(|n| n.1.clone()).collect();
    let forms: Vec<Form> = nums.iter().map(|n| n.2).collect();
    let base = cur.clone();
    // Only the numbers that changed are rewritten (an unchanged "2.000001"
    // keeps its text, not "2000001/1000000"), and a step is kept only when
    // the whole line is no longer: a candidate's text is compared with the
    // number's canonical text, which can be longer than the input's.
    let build = |xs: &[BigRational]| {
        let mut q = base.clone();
        for ((path, old, form), x) in nums.iter().zip(xs) {
            if x != old {
                if let Some(slot) = at(&mut q, path) {
                    *slot = number_value(x, *form);
                }
            }
        }
        q
    };
    let mut len = line_len(&cur);
    let out = shrink_numbers(&xs, &forms, &mut |xs| {
        let q = build(xs);
        let l = line_len(&q);
        let keep = l <= len && fails(&q);
        if keep {
            len = l;
        }
        keep
    });
    build(&out)
}

/// For shapes `a` and `b`: the dimension of the core, decided exactly, for
/// triangles (2, or 1 when degenerate), capsules (1, or 0 when a = b) and
/// convex shapes (the hull's); `None` for other shapes and unreadable ones.
fn core_dims(q: &Value) -> [Option<usize>; 2] {
    ["a", "b"].map(|k| {
        let s = q.get(k)?.as_object()?;
        let point = |v: &Value| -> Option<Vec3<BigRational>> {
            let c = v.as_array()?;
            (c.len() == 3).then_some(())?;
            let n = |i: usize| read_number(&c[i]).ok();
            Some(Vec3::new(n(0)?, n(1)?, n(2)?))
        };
        match s.get("type")?.as_str()? {
            "triangle" => {
                let mut core = s.clone();
                core.remove("radius");
                match parse_shape(&Value::Object(core), k) {
                    Ok(Shape::Triangle(t)) => Some(if t.is_degenerate() { 1 } else { 2 }),
                    _ => None,
                }
            }
            "capsule" => Some(usize::from(point(s.get("a")?)? != point(s.get("b")?)?)),
            "convex" => {
                let pts = s
                    .get("points")?
                    .as_array()?
                    .iter()
                    .map(point)
                    .collect::<Option<Vec<_>>>()?;
                crate::hull::convex_hull(&pts).ok().map(|h| h.dim())
            }
            _ => None,
        }
    })
}

/// The length of a query's one-line JSON text.
pub fn line_len(q: &Value) -> usize {
    serde_json::to_string(q).map_or(usize::MAX, |s| s.len())
}

/// The plain protocol claim function: the query carries a claim and it
/// disagrees with the exact answer (the claim kept as it is).
pub fn claim_disagrees(query: &Value, tol: &Tolerances) -> bool {
    let (a, verdict) = answer_value_with(query, tol);
    a.ok && verdict.is_some_and(|v| !v.agrees)
}

/// Shrink a query whose claim disagrees, keeping the claim fixed; `None` when
/// the claim does not disagree to begin with.
///
/// ```
/// use exact_collision::protocol::Tolerances;
/// use exact_collision::shrink::{claim_disagrees, line_len, shrink_claim};
/// // Two unit boxes 0.1 + 2⁻⁵⁰ apart, claimed to touch.
/// let line = r#"{"op":"intersect","a":{"type":"box","center":[0.125,-0.3,0.7],"half_axes":[[1,0,0],[0,1,0],[0,0,1]]},"b":{"type":"box","center":[2.2250000000000008,-0.3,0.7],"half_axes":[[1,0,0],[0,1,0],[0,0,1]]},"claim":{"intersect":true}}"#;
/// let q: serde_json::Value = serde_json::from_str(line).unwrap();
/// let tol = Tolerances::default();
/// let small = shrink_claim(&q, &tol).unwrap();
/// assert!(claim_disagrees(&small, &tol));
/// assert!(line_len(&small) < line_len(&q));
/// ```
pub fn shrink_claim(query: &Value, tol: &Tolerances) -> Option<Value> {
    if !claim_disagrees(query, tol) {
        return None;
    }
    Some(shrink_query(query, &mut |q| claim_disagrees(q, tol)))
}
