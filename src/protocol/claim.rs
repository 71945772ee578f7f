//! Judging another engine's claimed answer against the exact one.
//!
//! - A boolean claim (`intersect`, `hit`) agrees when it is equal.
//! - An exact-string claim (`distance_squared`) agrees when it is the same rational.
//! - A float claim about a distance (`distance_f64`, `distance_squared_f64`, or a
//!   number for `distance_squared`) agrees when its relative error against the
//!   exact value is at most `claim.rel_tol` (default 1e-9), or when it is the
//!   correctly rounded double of the exact value (the answer's own `_f64` field:
//!   this covers subnormal distances and 0 where the value underflows); zero
//!   against a nonzero distance agrees only in that underflow case. The detail
//!   gives the relative error against the exact value.
//! - `intersect` claimed on a `distance` query is judged by the exact squared
//!   distance (the shapes meet exactly when it is 0).
//! - A float claim about a time (`t_enter_f64`, `t_exit_f64`, `toi_f64`) agrees
//!   when it lies within `claim.abs_tol` (default 1e-9) of the certified
//!   interval.
//!
//! - A certificate claim is checked exactly against the query's shapes: a
//!   `witness` agrees when it lies in both shapes; a `separating_axis` when it
//!   separates them (max over a of L·p < min over b of L·p, or the same with a
//!   and b swapped); `closest` `[[pa], [pb]]` when, given as exact strings, pa is
//!   in a, pb in b and |pa − pb|² is the exact squared distance — given as
//!   numbers, when |pa − pb|² is within `rel_tol` of it (rounded points need not
//!   lie exactly in the shapes).
//! - A time object (`t_enter`, `t_exit`, `toi`, as this crate writes them) agrees
//!   when its `kind` is `start`/`end` and so is the exact one, or when its `f64`
//!   (else the midpoint of its `lo`, `hi`) is within `abs_tol` of the interval.
//! - `feature` agrees when kind and both names are equal; it is not judged when
//!   several planes are zero at t_enter (the protocol allows any of them).
//! - `"inf"` / `"-inf"` claims agree with values that overflow a double.
//! - Fields that are not judged (`contact`, `degenerate`, `id`, anything unknown)
//!   are listed in the detail and do not change the verdict; a claim with no
//!   judged field disagrees.
//!
//! The `detail` says by how much the claim is off.

use super::parse::{Op, Query};
use crate::number::{exact_string, read_number};
use crate::scalar::rational_to_f64;
use crate::shape::Shape;
use crate::vector::Vec3;
use num_rational::BigRational;
use num_traits::{Signed, Zero};
use serde_json::{Map, Value};

const DEFAULT_REL_TOL: f64 = 1e-9;
const DEFAULT_ABS_TOL: f64 = 1e-9;

fn exact_of(v: &Value) -> Option<BigRational> {
    read_number(v).ok()
}

/// A claimed value that may be the protocol's `"inf"`/`"-inf"` overflow form.
enum Claimed {
    Value(BigRational),
    Inf(bool),
}

fn claimed(v: &Value) -> Option<Claimed> {
    match v.as_str() {
        Some("inf") => Some(Claimed::Inf(true)),
        Some("-inf") => Some(Claimed::Inf(false)),
        _ => exact_of(v).map(Claimed::Value),
    }
}

fn point(v: &Value) -> Option<Vec3<BigRational>> {
    match v.as_array().map(Vec::as_slice) {
        Some([x, y, z]) => Some(Vec3::new(exact_of(x)?, exact_of(y)?, exact_of(z)?)),
        _ => None,
    }
}

fn all_strings(v: &Value) -> bool {
    match v {
        Value::String(_) => true,
        Value::Array(a) => a.iter().all(all_strings),
        _ => false,
    }
}

/// Whether the nonzero `l` separates the shapes (strictly), either way round.
fn separates(l: &Vec3<BigRational>, a: &Shape<BigRational>, b: &Shape<BigRational>) -> bool {
    if l.x.is_zero() && l.y.is_zero() && l.z.is_zero() {
        return false;
    }
    let range = |s: &Shape<BigRational>| {
        let ds: Vec<BigRational> = s.vertices().iter().map(|p| p.dot(l)).collect();
        let lo = ds.iter().min().cloned().unwrap_or_default();
        let hi = ds.iter().max().cloned().unwrap_or_default();
        (lo, hi)
    };
    let ((alo, ahi), (blo, bhi)) = (range(a), range(b));
    ahi < blo || bhi < alo
}

/// Judge `claim` against the exact `answer` to `q`: (agrees, detail).
pub fn judge(claim: &Map<String, Value>, answer: &Map<String, Value>, q: &Query) -> (bool, String) {
    let rel_tol = claim
        .get("rel_tol")
        .and_then(Value::as_f64)
        .unwrap_or(DEFAULT_REL_TOL);
    let abs_tol = claim
        .get("abs_tol")
        .and_then(Value::as_f64)
        .unwrap_or(DEFAULT_ABS_TOL);
    let mut all = true;
    let mut details = Vec::new();
    let mut skipped = Vec::new();
    let mut judged = 0;
    for (k, c) in claim {
        if k == "rel_tol" || k == "abs_tol" {
            continue;
        }
        match judge_field(k, c, answer, q, rel_tol, abs_tol) {
            Some((ok, d)) => {
                judged += 1;
                all &= ok;
                details.push(d);
            }
            None => skipped.push(k.as_str()),
        }
    }
    if !skipped.is_empty() {
        details.push(format!("not judged: {}", skipped.join(", ")));
    }
    if judged == 0 {
        details.insert(0, "the claim has no field to judge".into());
        return (false, details.join("; "));
    }
    (all, details.join("; "))
}

/// The shapes of a static query.
fn shapes(q: &Query) -> Option<(&Shape<BigRational>, &Shape<BigRational>)> {
    match &q.op {
        Op::Intersect { a, b } | Op::Distance { a, b } => Some((a, b)),
        _ => None,
    }
}

/// Certificates, time objects and features; `None` for fields not judged.
fn judge_structured(
    k: &str,
    c: &Value,
    answer: &Map<String, Value>,
    q: &Query,
    rel_tol: f64,
    abs_tol: f64,
) -> Option<(bool, String)> {
    Some(match k {
        "witness" => {
            let (a, b) = shapes(q)?;
            match point(c) {
                None => (false, format!("{k}: claim is not a point")),
                Some(p) => {
                    let (ina, inb) = (a.contains(&p), b.contains(&p));
                    (
                        ina && inb,
                        format!("{k}: in a {ina}, in b {inb} (decided exactly)"),
                    )
                }
            }
        }
        "separating_axis" => {
            let (a, b) = shapes(q)?;
            match point(c) {
                None => (false, format!("{k}: claim is not a vector")),
                Some(l) => {
                    let ok = separates(&l, a, b);
                    (
                        ok,
                        format!(
                            "{k}: {} (decided exactly)",
                            if ok { "separates" } else { "does not separate" }
                        ),
                    )
                }
            }
        }
        "closest" => {
            let (a, b) = shapes(q)?;
            let d2 = answer.get("distance_squared").and_then(exact_of)?;
            let pts = c.as_array().filter(|v| v.len() == 2);
            let Some((pa, pb)) = pts.and_then(|v| Some((point(&v[0])?, point(&v[1])?))) else {
                return Some((false, format!("{k}: claim is not a pair of points")));
            };
            let diff = pa.sub(&pb);
            let c2 = diff.dot(&diff);
            if all_strings(c) {
                let (ina, inb) = (a.contains(&pa), b.contains(&pb));
                let ok = ina && inb && c2 == d2;
                (
                    ok,
                    format!(
                        "{k}: pa in a {ina}, pb in b {inb}, |pa − pb|² {} the exact distance² (decided exactly)",
                        if c2 == d2 { "equals" } else { "differs from" }
                    ),
                )
            } else {
                let tol = BigRational::from_float(rel_tol).unwrap_or_else(BigRational::zero);
                let ok = (&c2 - &d2).abs() <= &tol * &d2;
                (
                    ok,
                    format!(
                        "{k}: |pa − pb|² = {:e} against the exact {:e} (numbers: containment not judged)",
                        rational_to_f64(&c2),
                        rational_to_f64(&d2)
                    ),
                )
            }
        }
        "t_enter" | "t_exit" | "toi" => {
            let Some(t) = c.as_object() else {
                return Some((false, format!("{k}: claim is not a time object")));
            };
            let Some(ours) = answer.get(k).and_then(Value::as_object) else {
                return Some((
                    false,
                    format!("{k}: the exact answer has no {k} (no contact)"),
                ));
            };
            let kind = t.get("kind").and_then(Value::as_str);
            let our_kind = ours.get("kind").and_then(Value::as_str);
            if kind.is_some()
                && (matches!(kind, Some("start" | "end"))
                    || matches!(our_kind, Some("start" | "end")))
            {
                return Some((
                    kind == our_kind,
                    format!("{k}: kind {kind:?}, exact {our_kind:?}"),
                ));
            }
            let value = t.get("f64").cloned().or_else(|| {
                let lo = t.get("lo").and_then(exact_of)?;
                let hi = t.get("hi").and_then(exact_of)?;
                Some(Value::String(exact_string(
                    &((lo + hi) / BigRational::from_integer(2.into())),
                )))
            });
            match value {
                None => (false, format!("{k}: no f64 or lo/hi in the claim")),
                Some(v) => {
                    return judge_field(&format!("{k}_f64"), &v, answer, q, rel_tol, abs_tol)
                }
            }
        }
        "feature" => {
            let ours = answer.get("feature")?;
            if ours.get("degenerate") == Some(&Value::Bool(true)) {
                return None;
            }
            let same = ["kind", "a", "b"].iter().all(|f| c.get(f) == ours.get(f));
            (
                same,
                format!(
                    "{k}: {}",
                    if same {
                        "the same plane"
                    } else {
                        "a different plane"
                    }
                ),
            )
        }
        _ => return None,
    })
}

fn judge_field(
    k: &str,
    c: &Value,
    answer: &Map<String, Value>,
    q: &Query,
    rel_tol: f64,
    abs_tol: f64,
) -> Option<(bool, String)> {
    Some(match k {
        // A distance answer settles `intersect` too: the shapes meet exactly
        // when the squared distance is 0.
        "intersect" if !answer.contains_key(k) && answer.contains_key("distance_squared") => {
            let meet = answer
                .get("distance_squared")
                .and_then(exact_of)
                .map(|d2| d2.is_zero());
            match (c.as_bool(), meet) {
                (Some(cb), Some(ab)) if cb == ab => (
                    true,
                    format!("{k}: {ab} as claimed (from the exact distance)"),
                ),
                (Some(cb), Some(ab)) => (
                    false,
                    format!("{k}: claimed {cb}, exact answer {ab} (from the exact distance)"),
                ),
                (None, _) => (false, format!("{k}: claim is not a boolean")),
                (Some(_), None) => (false, format!("{k}: this answer has no distance")),
            }
        }
        "intersect" | "hit" => match (c.as_bool(), answer.get(k).and_then(Value::as_bool)) {
            (Some(cb), Some(ab)) if cb == ab => (true, format!("{k}: {ab} as claimed")),
            (Some(cb), Some(ab)) => (false, format!("{k}: claimed {cb}, exact answer {ab}")),
            (None, _) => (false, format!("{k}: claim is not a boolean")),
            (Some(_), None) => (false, format!("{k}: not part of this answer")),
        },
        "distance_squared" | "distance_squared_f64" | "distance_f64" => {
            let Some(d2) = answer.get("distance_squared").and_then(exact_of) else {
                return Some((false, format!("{k}: this answer has no distance")));
            };
            let cv = match claimed(c) {
                None => return Some((false, format!("{k}: claim is not a number"))),
                Some(Claimed::Inf(pos)) => {
                    // Agrees when the exact value is past the double range.
                    let exact_f = if k == "distance_f64" {
                        crate::sqrt::sqrt_nearest_f64(&d2)
                    } else {
                        rational_to_f64(&d2)
                    };
                    let ok = pos && exact_f.is_infinite();
                    return Some((ok, format!("{k}: claimed {c}, exact {exact_f:e}")));
                }
                Some(Claimed::Value(v)) => v,
            };
            if k == "distance_squared" && c.is_string() {
                return Some(if cv == d2 {
                    (true, format!("{k}: exactly {}", exact_string(&d2)))
                } else {
                    (
                        false,
                        format!(
                            "{k}: claimed {}, exact {}, off by {}",
                            exact_string(&cv),
                            exact_string(&d2),
                            exact_string(&(&cv - &d2))
                        ),
                    )
                });
            }
            let (claimed, exact_f) = if k == "distance_f64" {
                (rational_to_f64(&cv), crate::sqrt::sqrt_nearest_f64(&d2))
            } else {
                (rational_to_f64(&cv), rational_to_f64(&d2))
            };
            // Relative error, computed exactly on the squared quantity where it can be.
            // A number equal to the correctly rounded double of the exact value (the
            // answer's own `_f64` field, 0 where that underflows) always agrees.
            let nearest = !c.is_string() && claimed == exact_f;
            let ok = nearest
                || if k == "distance_f64" {
                    // |c − d| ≤ tol·d  ⇔  (1−tol)²·d² ≤ c² ≤ (1+tol)²·d², c ≥ 0.
                    let c2 = &cv * &cv;
                    let tol = BigRational::from_float(rel_tol).unwrap_or_else(BigRational::zero);
                    let one = BigRational::from_integer(1.into());
                    let lo = (&one - &tol) * (&one - &tol) * &d2;
                    let hi = (&one + &tol) * (&one + &tol) * &d2;
                    !cv.is_negative() && lo <= c2 && c2 <= hi
                } else {
                    let tol = BigRational::from_float(rel_tol).unwrap_or_else(BigRational::zero);
                    (&cv - &d2).abs() <= &tol * &d2
                };
            // The relative error of the claimed value against the exact one (not
            // against its rounding): exact rationals, then one conversion.
            let rel = if d2.is_zero() {
                if cv.is_zero() {
                    0.0
                } else {
                    f64::INFINITY
                }
            } else if k == "distance_f64" {
                // |c − √d²|/√d² = (|c² − d²|/d²) / (c/√d² + 1).
                let c2 = &cv * &cv;
                let q = rational_to_f64(&((&c2 - &d2).abs() / &d2));
                let s = rational_to_f64(&(&c2 / &d2)).sqrt();
                q / (s + 1.0)
            } else {
                rational_to_f64(&((&cv - &d2).abs() / &d2))
            };
            let mut detail = format!(
                "{k}: claimed {claimed:e}, exact ≈ {exact_f:e}, relative error {}",
                if rel == 0.0 {
                    "0".to_string()
                } else {
                    format!("{rel:.3e}")
                }
            );
            if nearest && rel != 0.0 {
                detail.push_str(" (the correctly rounded double of the exact value)");
            }
            (ok, detail)
        }
        "t_enter_f64" | "t_exit_f64" | "toi_f64" => {
            let field = k.trim_end_matches("_f64");
            let Some(cv) = exact_of(c) else {
                return Some((false, format!("{k}: claim is not a number")));
            };
            let Some(t) = answer.get(field).and_then(Value::as_object) else {
                return Some((
                    false,
                    format!("{k}: the exact answer has no {field} (no contact)"),
                ));
            };
            let (Some(lo), Some(hi)) = (
                t.get("lo").and_then(exact_of),
                t.get("hi").and_then(exact_of),
            ) else {
                return Some((false, format!("{k}: no interval in the answer")));
            };
            let off = if cv < lo {
                &lo - &cv
            } else if cv > hi {
                &cv - &hi
            } else {
                BigRational::zero()
            };
            let tol = BigRational::from_float(abs_tol).unwrap_or_else(BigRational::zero);
            let offf = rational_to_f64(&off);
            (
                off <= tol,
                format!(
                    "{k}: claimed {}, exact in [{}, {}], off by {offf:.3e}",
                    rational_to_f64(&cv),
                    rational_to_f64(&lo),
                    rational_to_f64(&hi)
                ),
            )
        }
        _ => return judge_structured(k, c, answer, q, rel_tol, abs_tol),
    })
}
