//! Judging another engine's claimed answer against the exact one.
//!
//! - A boolean claim (`intersect`, `hit`) agrees when it is equal.
//! - An exact-string claim (`distance_squared`) agrees when it is the same rational.
//! - A float claim about a distance (`distance_f64`, `distance_squared_f64`, or a
//!   number for `distance_squared`) agrees when its relative error against the
//!   exact value is at most `claim.rel_tol` (default 1e-9); zero against a nonzero
//!   distance never agrees.
//! - A float claim about a time (`t_enter_f64`, `t_exit_f64`, `toi_f64`) agrees
//!   when it lies within `claim.abs_tol` (default 1e-9) of the certified
//!   interval.
//!
//! The `detail` says by how much the claim is off.

use crate::number::{exact_string, read_number};
use crate::scalar::rational_to_f64;
use num_rational::BigRational;
use num_traits::{Signed, Zero};
use serde_json::{Map, Value};

const DEFAULT_REL_TOL: f64 = 1e-9;
const DEFAULT_ABS_TOL: f64 = 1e-9;

fn exact_of(v: &Value) -> Option<BigRational> {
    read_number(v).ok()
}

/// Judge `claim` against `answer`: (agrees, detail).
pub fn judge(claim: &Map<String, Value>, answer: &Map<String, Value>) -> (bool, String) {
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
    let mut judged = 0;
    for (k, c) in claim {
        if k == "rel_tol" || k == "abs_tol" {
            continue;
        }
        judged += 1;
        let (ok, d) = judge_field(k, c, answer, rel_tol, abs_tol);
        all &= ok;
        details.push(d);
    }
    if judged == 0 {
        return (false, "the claim has no field to judge".into());
    }
    (all, details.join("; "))
}

fn judge_field(
    k: &str,
    c: &Value,
    answer: &Map<String, Value>,
    rel_tol: f64,
    abs_tol: f64,
) -> (bool, String) {
    match k {
        "intersect" | "hit" => match (c.as_bool(), answer.get(k).and_then(Value::as_bool)) {
            (Some(cb), Some(ab)) if cb == ab => (true, format!("{k}: {ab} as claimed")),
            (Some(cb), Some(ab)) => (false, format!("{k}: claimed {cb}, exact answer {ab}")),
            (None, _) => (false, format!("{k}: claim is not a boolean")),
            (Some(_), None) => (false, format!("{k}: not part of this answer")),
        },
        "distance_squared" | "distance_squared_f64" | "distance_f64" => {
            let Some(d2) = answer.get("distance_squared").and_then(exact_of) else {
                return (false, format!("{k}: this answer has no distance"));
            };
            let Some(cv) = exact_of(c) else {
                return (false, format!("{k}: claim is not a number"));
            };
            if k == "distance_squared" && c.is_string() {
                return if cv == d2 {
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
                };
            }
            let (claimed, exact_f) = if k == "distance_f64" {
                (rational_to_f64(&cv), crate::sqrt::sqrt_nearest_f64(&d2))
            } else {
                (rational_to_f64(&cv), rational_to_f64(&d2))
            };
            // Relative error, computed exactly on the squared quantity where it can be.
            let ok = if k == "distance_f64" {
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
            let rel = if exact_f != 0.0 {
                ((claimed - exact_f) / exact_f).abs()
            } else {
                f64::INFINITY
            };
            let detail = format!(
                "{k}: claimed {claimed:e}, exact {exact_f:e}, relative error {}",
                if claimed == exact_f {
                    "0".to_string()
                } else {
                    format!("{rel:.3e}")
                }
            );
            (ok, detail)
        }
        "t_enter_f64" | "t_exit_f64" | "toi_f64" => {
            let field = k.trim_end_matches("_f64");
            let Some(cv) = exact_of(c) else {
                return (false, format!("{k}: claim is not a number"));
            };
            let Some(t) = answer.get(field).and_then(Value::as_object) else {
                return (
                    false,
                    format!("{k}: the exact answer has no {field} (no contact)"),
                );
            };
            let (Some(lo), Some(hi)) = (
                t.get("lo").and_then(exact_of),
                t.get("hi").and_then(exact_of),
            ) else {
                return (false, format!("{k}: no interval in the answer"));
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
        other => (false, format!("{other}: not a field this crate can judge")),
    }
}
