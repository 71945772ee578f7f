//! Judging another engine's claimed answer against the exact one.
//!
//! Every decision below is exact: the claimed value (a JSON number is its
//! double's exact dyadic value; a string an exact rational) is compared with
//! the exact answer in rational arithmetic, never in floats.
//!
//! **Tolerances.** A numeric claim agrees when
//! |claim − exact| ≤ max(abs, rel·|exact|). `abs` and `rel` come from the
//! claim's `abs_tol` / `rel_tol` (non-negative numbers or exact strings), else
//! from the caller's [`Tolerances`] (`verify --abs/--rel`), else from the
//! defaults: distances (`distance_f64`, `distance_squared`,
//! `distance_squared_f64`, numeric `closest`) abs 0, rel 1e-9; times
//! (`t_enter`, `t_exit`, `toi` and their `_f64`) abs 1e-9, rel 0.
//!
//! - A boolean claim (`intersect`, `hit`) agrees when it is equal.
//! - An exact-string claim of `distance_squared` agrees when it is the same
//!   rational.
//! - A float claim about a distance agrees by the tolerance rule, or when it is
//!   the correctly rounded double of the exact value (the answer's own `_f64`
//!   field: this covers subnormal distances and 0 where the value underflows).
//!   `distance_f64` is compared with the exact √(distance²) by squaring
//!   exactly, with the signs taken care of (no float square root decides).
//! - `intersect` claimed on a `distance` query is judged by the exact squared
//!   distance (the shapes meet exactly when it is 0).
//! - A float claim about a time (`t_enter_f64`, `t_exit_f64`, `toi_f64`) is
//!   judged against the exact root: the certified interval [lo, hi] is split
//!   exactly at the points where the tolerance rule changes truth (c ± abs,
//!   c/(1 ± rel)), using the sign of the root's polynomial, until the rule is
//!   constant on the piece that holds the root.
//! - A certificate claim is checked exactly against the query's shapes: a
//!   `witness` agrees when it lies in both shapes; a `separating_axis` when it
//!   separates them (max over a of L·p < min over b of L·p, or the same with a
//!   and b swapped); `closest` `[[pa], [pb]]` when, given as exact strings, pa is
//!   in a, pb in b and |pa − pb|² is the exact squared distance — given as
//!   numbers, when |pa − pb|² agrees with it by the distance tolerance rule
//!   (rounded points need not lie exactly in the shapes). On rounded shapes
//!   `closest` and `closest_f64` are judged by containment (the point's
//!   squared distance to its core against r², or (r + abs)² for numbers) and
//!   |pa − pb| against max(0, √q − R) in ℚ(√c₂, √q), or as the correctly
//!   rounded doubles of the exact pair (`claim_rounded::judge_closest`).
//! - A time object (`t_enter`, `t_exit`, `toi`, as this crate writes them) agrees
//!   when its `kind` is `start`/`end` and so is the exact one, or when its `f64`
//!   (else the midpoint of its `lo`, `hi`) agrees as a time.
//! - `feature` agrees when kind and both names are equal; it is not judged when
//!   several planes are zero at t_enter (the protocol allows any of them).
//! - `"inf"` / `"-inf"` claims agree with values that overflow a double.
//! - On a `contact` query: `depth_f64`, `depth_squared` as distances against
//!   δ (0 for apart shapes); a `normal` by the exact overlap of the shapes
//!   along it (it agrees when that overlap is within the tolerances of δ); a
//!   `contact` (`{"points":[…]}` or a list of points) when every point is
//!   within max(abs, rel·δ) of the exact region swept back along b's
//!   translation (docs/verify.md); the points outside are named
//!   ([`FieldVerdict::outside`]).
//!   On rounded shapes `depth_f64` is judged against the irrational δ
//!   (√p + R or R − √q) by exact comparisons with rationals, `depth_squared`
//!   against δ² by exact signs in ℚ(√p) or ℚ(√q), and `normal`
//!   and `contact` by the same rules with the overlap s/|n| + R and the
//!   region swept from a's surface to b's, decided in ℚ(√|n|², √p or √q)
//!   (`claim_rounded`).
//! - Fields that are not judged (`contact` but on a `contact` query, `degenerate`, `id`, anything unknown)
//!   are listed in the detail and do not change the verdict.
//!
//! Errors (the line is answered `{"error": …}`, not "disagree"): a tolerance
//! that is not a non-negative number (naming `claim.abs_tol` / `claim.rel_tol`),
//! and a claim with no field to judge.
//!
//! The detail of a numeric field gives the absolute error and the error in
//! units in the last place of the claimed double.

use super::parse::{Op, Query};
use crate::num::scalar::rational_to_f64;
use crate::num::sqrt::sqrt_nearest_f64;
use crate::num::sqrt_offset::SqrtOffset;
use crate::protocol::number::{exact_string, read_number};
use crate::query::rounded::contact::{RoundedContact, RoundedPenetration};
use crate::query::triangle_triangle::Contact as Region;
use crate::shape::{Rounded, Shape};
use crate::vector::Vec3;
use num_bigint::BigInt;
use num_rational::BigRational;
use num_traits::{One, Signed, Zero};
use serde_json::{Map, Value};
use std::cmp::Ordering;

/// Tolerances given by the caller (`verify --abs/--rel`): they replace the
/// defaults; a claim's own `abs_tol` / `rel_tol` replace them in turn.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Tolerances {
    /// The absolute tolerance, if given.
    pub abs: Option<BigRational>,
    /// The relative tolerance, if given.
    pub rel: Option<BigRational>,
}

/// The verdict on one claimed field.
#[derive(Clone, Debug, PartialEq)]
pub struct FieldVerdict {
    /// The claimed field's name (`distance_f64`, `intersect`, …).
    pub field: String,
    /// Whether the claim agrees with the exact answer.
    pub agrees: bool,
    /// By how much, in words.
    pub detail: String,
    /// |claim − exact| (nearest double; for irrational exact values, within a
    /// few ulps), for numeric fields.
    pub abs_error: Option<f64>,
    /// `abs_error` in units in the last place of the claimed double.
    pub ulps: Option<f64>,
    /// For a `contact` claim: the indices (from 0, in the claim's order) of
    /// the claimed points farther than the tolerance from the region they
    /// were judged against; empty for other fields.
    pub outside: Vec<usize>,
}

impl FieldVerdict {
    /// How bad a disagreement is, for ranking: the error in ulps of the claim,
    /// infinite for a wrong decision or certificate.
    pub fn badness(&self) -> f64 {
        self.ulps.unwrap_or(f64::INFINITY)
    }
}

/// The verdict on a whole claim.
#[derive(Clone, Debug, PartialEq)]
pub struct Verdict {
    /// Every judged field agrees.
    pub agrees: bool,
    /// The judged fields, in claim order.
    pub fields: Vec<FieldVerdict>,
    /// Fields of the claim that are not judged.
    pub not_judged: Vec<String>,
}

impl Verdict {
    /// The answer's `detail` text: each field's detail, then the fields not judged.
    pub fn detail(&self) -> String {
        let mut d: Vec<String> = self.fields.iter().map(|f| f.detail.clone()).collect();
        if !self.not_judged.is_empty() {
            d.push(format!("not judged: {}", self.not_judged.join(", ")));
        }
        d.join("; ")
    }
}

fn exact_of(v: &Value) -> Option<BigRational> {
    read_number(v).ok()
}

pub(super) fn q(x: f64) -> BigRational {
    BigRational::from_float(x).unwrap_or_else(BigRational::zero)
}

/// The unit in the last place of the double `c` (2⁻¹⁰⁷⁴ at 0 and for subnormals).
pub(super) fn ulp(c: f64) -> BigRational {
    let bits = c.abs().to_bits();
    let e = ((bits >> 52) & 0x7ff) as i64;
    let k = if e == 0 { -1074 } else { e - 1075 };
    let two = BigInt::from(2);
    if k >= 0 {
        BigRational::from_integer(num_traits::pow(two, k as usize))
    } else {
        BigRational::new(BigInt::one(), num_traits::pow(two, (-k) as usize))
    }
}

/// `err` (exact) and its size in ulps of the claimed double `c`.
fn error_of(err: &BigRational, c: f64) -> (f64, f64) {
    (rational_to_f64(err), rational_to_f64(&(err / ulp(c))))
}

/// The distance between a claimed double and the exact value's double, and its
/// size in ulps of the claim (0 and 0 when they are equal); for reading only.
pub(super) fn double_error(claimed_f: f64, exact_f: f64) -> (f64, f64) {
    let abs_err = (claimed_f - exact_f).abs();
    let ulps = if abs_err == 0.0 {
        0.0
    } else {
        rational_to_f64(&(q(abs_err) / ulp(claimed_f)))
    };
    (abs_err, ulps)
}

pub(super) fn fmt_err(abs: f64, ulps: f64) -> String {
    if ulps.is_finite() {
        format!("abs error {abs:.3e} ({ulps:.3e} ulps of the claim)")
    } else {
        // Past f64::MAX ulps (a claimed 0 has ulp 2⁻¹⁰⁷⁴, so any error of 2⁻⁵¹
        // or more): say so instead of printing "inf".
        format!(
            "abs error {abs:.3e} (more than {:.3e} ulps of the claim)",
            f64::MAX
        )
    }
}

/// A claimed value that may be the protocol's `"inf"`/`"-inf"` overflow form.
pub(super) enum Claimed {
    Value(BigRational),
    Inf(bool),
}

pub(super) fn claimed(v: &Value) -> Option<Claimed> {
    match v.as_str() {
        Some("inf") => Some(Claimed::Inf(true)),
        Some("-inf") => Some(Claimed::Inf(false)),
        _ => exact_of(v).map(Claimed::Value),
    }
}

pub(super) fn point(v: &Value) -> Option<Vec3<BigRational>> {
    match v.as_array().map(Vec::as_slice) {
        Some([x, y, z]) => Some(Vec3::new(exact_of(x)?, exact_of(y)?, exact_of(z)?)),
        _ => None,
    }
}

pub(super) fn all_strings(v: &Value) -> bool {
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

/// A claim's own tolerance field: a non-negative number or exact string.
fn tolerance_field(claim: &Map<String, Value>, k: &str) -> Result<Option<BigRational>, String> {
    match claim.get(k) {
        None => Ok(None),
        Some(v) => match read_number(v) {
            Ok(t) if t.is_negative() => Err(format!(
                "claim.{k}: a tolerance must be non-negative, got {}",
                exact_string(&t)
            )),
            Ok(t) => Ok(Some(t)),
            Err(e) => Err(format!(
                "claim.{k}: expected a non-negative number, got {v} ({e})"
            )),
        },
    }
}

/// The two kinds of numeric field, with their default tolerances.
#[derive(Clone, Copy)]
enum Kind {
    Distance,
    Time,
}

/// The tolerances in force for one claim.
struct Tol {
    abs: Option<BigRational>,
    rel: Option<BigRational>,
}

impl Tol {
    /// (abs, rel) for a field of `kind`.
    fn get(&self, kind: Kind) -> (BigRational, BigRational) {
        let (abs, rel) = match kind {
            Kind::Distance => (BigRational::zero(), q(1e-9)),
            Kind::Time => (q(1e-9), BigRational::zero()),
        };
        (
            self.abs.clone().unwrap_or(abs),
            self.rel.clone().unwrap_or(rel),
        )
    }
}

/// |c − e| ≤ max(abs, rel·|e|), exactly.
fn within(c: &BigRational, e: &BigRational, (abs, rel): &(BigRational, BigRational)) -> bool {
    let d = (c - e).abs();
    &d <= abs || d <= rel * e.abs()
}

/// The sign of a·√d2 − c (d2 ≥ 0), exactly.
fn cmp_scaled_sqrt(a: &BigRational, d2: &BigRational, c: &BigRational) -> Ordering {
    let ls = if d2.is_zero() { 0 } else { sign(a) };
    let cs = sign(c);
    if ls != cs {
        return ls.cmp(&cs);
    }
    if ls == 0 {
        return Ordering::Equal;
    }
    let m = (a * a * d2).cmp(&(c * c));
    if ls > 0 {
        m
    } else {
        m.reverse()
    }
}

fn sign(x: &BigRational) -> i8 {
    if x.is_positive() {
        1
    } else if x.is_negative() {
        -1
    } else {
        0
    }
}

/// |c − √d2| ≤ max(abs, rel·√d2), exactly.
fn within_sqrt(c: &BigRational, d2: &BigRational, (abs, rel): &(BigRational, BigRational)) -> bool {
    let one = BigRational::one();
    // c − abs ≤ √d2 ≤ c + abs
    let by_abs = cmp_scaled_sqrt(&one, d2, &(c - abs)) != Ordering::Less
        && cmp_scaled_sqrt(&one, d2, &(c + abs)) != Ordering::Greater;
    // (1 − rel)·√d2 ≤ c ≤ (1 + rel)·√d2
    let by_rel = cmp_scaled_sqrt(&(&one - rel), d2, c) != Ordering::Greater
        && cmp_scaled_sqrt(&(&one + rel), d2, c) != Ordering::Less;
    by_abs || by_rel
}

fn horner(p: &[BigInt], x: &BigRational) -> BigRational {
    p.iter().rev().fold(BigRational::zero(), |acc, c| {
        acc * x + BigRational::from_integer(c.clone())
    })
}

/// Whether the exact time t (the root of `poly` isolated by [lo, hi], or lo
/// itself when lo = hi or there is no polynomial) satisfies
/// |c − t| ≤ max(abs, rel·|t|); `None` when the interval does not isolate a
/// sign change (not a certified root).
fn time_within(
    c: &BigRational,
    lo: &BigRational,
    hi: &BigRational,
    poly: &[BigInt],
    tol: &(BigRational, BigRational),
) -> Option<bool> {
    let holds = |t: &BigRational| within(c, t, tol);
    if lo == hi || poly.is_empty() {
        return (lo == hi).then(|| holds(lo));
    }
    let (plo, phi) = (horner(poly, lo), horner(poly, hi));
    if plo.is_zero() {
        return Some(holds(lo));
    }
    if phi.is_zero() {
        return Some(holds(hi));
    }
    if sign(&plo) == sign(&phi) {
        return None;
    }
    // The rule changes truth only where |c − t| = abs or |c − t| = rel·|t|.
    let (abs, rel) = tol;
    let one = BigRational::one();
    let mut cuts = vec![c - abs, c + abs, c / (&one + rel)];
    if rel != &one {
        cuts.push(c / (&one - rel));
    }
    let (mut l, mut h) = (lo.clone(), hi.clone());
    for x in cuts {
        if x <= l || x >= h {
            continue;
        }
        let px = horner(poly, &x);
        if px.is_zero() {
            return Some(holds(&x));
        }
        if sign(&px) == sign(&plo) {
            l = x; // the sign change (the root) is above x
        } else {
            h = x;
        }
    }
    // No cut inside (l, h): the rule is constant there; t is inside.
    Some(holds(&((l + h) / BigRational::from_integer(2.into()))))
}

/// Judge `claim` against the exact `answer` to `q`, with the caller's default
/// tolerances `tol`. An error (a bad tolerance, nothing to judge) names the field.
pub fn judge(
    claim: &Map<String, Value>,
    answer: &Map<String, Value>,
    q: &Query,
    tol: &Tolerances,
) -> Result<Verdict, String> {
    let t = Tol {
        abs: tolerance_field(claim, "abs_tol")?.or_else(|| tol.abs.clone()),
        rel: tolerance_field(claim, "rel_tol")?.or_else(|| tol.rel.clone()),
    };
    let mut fields = Vec::new();
    let mut not_judged = Vec::new();
    for (k, c) in claim {
        if k == "rel_tol" || k == "abs_tol" {
            continue;
        }
        match judge_field(k, c, answer, q, &t) {
            Some(v) => fields.push(v),
            None => not_judged.push(k.clone()),
        }
    }
    if fields.is_empty() {
        return Err(if not_judged.is_empty() {
            "claim: no field to judge (the claim is empty)".into()
        } else {
            format!(
                "claim: no field to judge (not judged: {})",
                not_judged.join(", ")
            )
        });
    }
    Ok(Verdict {
        agrees: fields.iter().all(|f| f.agrees),
        fields,
        not_judged,
    })
}

/// The shapes of a query on rounded shapes.
fn rounded_pair(q: &Query) -> Option<(&Rounded<BigRational>, &Rounded<BigRational>)> {
    match &q.op {
        Op::IntersectRounded { a, b } | Op::DistanceRounded { a, b } => Some((a, b)),
        _ => None,
    }
}

/// `max(0, √q − R)` compared with the rational `t`, exactly.
fn cmp_clamped(d: &SqrtOffset, t: &BigRational) -> Ordering {
    if t.is_negative() {
        return Ordering::Greater;
    }
    if d.sign() != crate::num::sign::Sign::Positive {
        return BigRational::zero().cmp(t);
    }
    d.cmp_rational(t)
}

/// A claimed `distance_f64` of rounded shapes against the exact distance
/// `e = max(0, √q − R)`: it agrees when it is the double nearest to e, or
/// when |c − e| ≤ max(abs, rel·e), decided by exact comparisons of e with
/// rationals (e is irrational in general; no square root is evaluated).
fn judge_rounded_distance(k: &str, c: &Value, d: &SqrtOffset, tol: &Tol) -> FieldVerdict {
    let exact_f = d.clamped_nearest_f64();
    let cv = match claimed(c) {
        None => return verdict(k, false, format!("{k}: claim is not a number")),
        Some(Claimed::Inf(_)) => {
            return verdict(k, false, format!("{k}: claimed {c}, exact {exact_f:e}"))
        }
        Some(Claimed::Value(v)) => v,
    };
    let claimed_f = rational_to_f64(&cv);
    let (abs, rel) = tol.get(Kind::Distance);
    let nearest = !c.is_string() && claimed_f == exact_f;
    // |c − e| ≤ abs  ⟺  c − abs ≤ e ≤ c + abs.
    let in_abs = cmp_clamped(d, &(&cv - &abs)) != Ordering::Less
        && cmp_clamped(d, &(&cv + &abs)) != Ordering::Greater;
    // |c − e| ≤ rel·e  ⟺  c/(1 + rel) ≤ e and (rel ≥ 1 or e ≤ c/(1 − rel)).
    let one = BigRational::one();
    let in_rel = !cv.is_negative()
        && cmp_clamped(d, &(&cv / (&one + &rel))) != Ordering::Less
        && (rel >= one || cmp_clamped(d, &(&cv / (&one - &rel))) != Ordering::Greater);
    let ok = nearest || in_abs || in_rel;
    let (abs_err, ulps) = double_error(claimed_f, exact_f);
    let mut detail = format!(
        "{k}: claimed {claimed_f:e}, exact {} ≈ {exact_f:e}, {}",
        d,
        fmt_err(abs_err, ulps)
    );
    if nearest {
        detail.push_str(" (the correctly rounded double of the exact value)");
    }
    FieldVerdict {
        field: k.to_string(),
        agrees: ok,
        detail,
        abs_error: Some(abs_err),
        ulps: Some(ulps),
        outside: Vec::new(),
    }
}

/// A claimed `depth_f64` of rounded shapes against the exact depth δ
/// (√p + R or R − √q): it agrees when it is the double nearest δ, or when
/// |c − δ| ≤ max(abs, rel·δ), decided by exact comparisons of δ with
/// rationals (no square root is evaluated).
fn judge_rounded_depth(k: &str, c: &Value, p: &RoundedPenetration, tol: &Tol) -> FieldVerdict {
    let exact_f = p.depth_f64();
    let cv = match claimed(c) {
        None => return verdict(k, false, format!("{k}: claim is not a number")),
        Some(Claimed::Inf(_)) => {
            return verdict(k, false, format!("{k}: claimed {c}, exact {exact_f:e}"))
        }
        Some(Claimed::Value(v)) => v,
    };
    let claimed_f = rational_to_f64(&cv);
    let (abs, rel) = tol.get(Kind::Distance);
    let nearest = !c.is_string() && claimed_f == exact_f;
    let in_abs = p.cmp_depth(&(&cv - &abs)) != Ordering::Less
        && p.cmp_depth(&(&cv + &abs)) != Ordering::Greater;
    let one = BigRational::one();
    let in_rel = !cv.is_negative()
        && p.cmp_depth(&(&cv / (&one + &rel))) != Ordering::Less
        && (rel >= one || p.cmp_depth(&(&cv / (&one - &rel))) != Ordering::Greater);
    let ok = nearest || in_abs || in_rel;
    let (abs_err, ulps) = double_error(claimed_f, exact_f);
    let mut detail = format!(
        "{k}: claimed {claimed_f:e}, exact ≈ {exact_f:e}, {}",
        fmt_err(abs_err, ulps)
    );
    if nearest {
        detail.push_str(" (the correctly rounded double of the exact value)");
    }
    FieldVerdict {
        field: k.to_string(),
        agrees: ok,
        detail,
        abs_error: Some(abs_err),
        ulps: Some(ulps),
        outside: Vec::new(),
    }
}

/// The shapes of a `contact` query on polytopes.
fn contact_pair(q: &Query) -> Option<(&Shape<BigRational>, &Shape<BigRational>)> {
    match &q.op {
        Op::Contact { a, b } => Some((a, b)),
        _ => None,
    }
}

/// √x ≤ √d2 + abs, or √x ≤ (1 + rel)·√d2 (x, d2 ≥ 0), exactly: the first is
/// x − d2 − abs² ≤ 2·abs·√d2, squared when its left side is positive.
fn root_within_above(
    x: &BigRational,
    d2: &BigRational,
    (abs, rel): &(BigRational, BigRational),
) -> bool {
    let one = BigRational::one();
    let by_rel = x <= &(d2 * (&one + rel) * (&one + rel));
    let lhs = x - d2 - abs * abs;
    let by_abs = !lhs.is_positive() || {
        let two_abs = abs + abs;
        &lhs * &lhs <= &two_abs * &two_abs * d2
    };
    by_rel || by_abs
}

/// The claims of a `contact` query: `depth_f64` and `depth_squared` as
/// distances against the exact δ²; a `normal` by the exact overlap of the
/// shapes along it; `contact` points by their distance to the exact region
/// swept back along b's translation (docs/verify.md). `None` (not judged):
/// a normal or contact points claimed for shapes that are apart.
fn judge_contact(
    k: &str,
    c: &Value,
    answer: &Map<String, Value>,
    q: &Query,
    tol: &Tol,
) -> Option<FieldVerdict> {
    let (a, b) = contact_pair(q)?;
    // Apart: the depth is 0.
    let d2 = answer
        .get("depth_squared")
        .and_then(exact_of)
        .unwrap_or_else(BigRational::zero);
    let relabel = |mut f: FieldVerdict, from: &str| {
        f.field = k.to_string();
        f.detail = f.detail.replacen(from, k, 1);
        f
    };
    Some(match k {
        "depth_f64" => relabel(judge_distance("distance_f64", c, &d2, tol), "distance_f64"),
        "depth_squared" => relabel(
            judge_distance("distance_squared", c, &d2, tol),
            "distance_squared",
        ),
        "normal" => {
            answer.get("depth_squared")?;
            let Some(n) = point(c).filter(|n| !n.norm_squared().is_zero()) else {
                return Some(verdict(
                    k,
                    false,
                    format!("{k}: claim is not a nonzero vector"),
                ));
            };
            let range = |s: &Shape<BigRational>| {
                let ds: Vec<BigRational> = s.vertices().iter().map(|p| p.dot(&n)).collect();
                let lo = ds.iter().min().cloned().unwrap_or_default();
                let hi = ds.iter().max().cloned().unwrap_or_default();
                (lo, hi)
            };
            let ((_, amax), (bmin, _)) = (range(a), range(b));
            // b moved by s/|n| along n/|n| touches a: its overlap along n.
            let o = &amax - &bmin;
            let x = &o * &o / n.norm_squared();
            let ok = !o.is_negative() && root_within_above(&x, &d2, &tol.get(Kind::Distance));
            let (xf, df) = (sqrt_nearest_f64(&x), sqrt_nearest_f64(&d2));
            verdict(
                k,
                ok,
                format!(
                    "{k}: overlap along it {}{xf:e} against the depth {df:e} (decided exactly)",
                    if o.is_negative() { "-" } else { "" }
                ),
            )
        }
        "contact" => {
            answer.get("depth_squared")?;
            let pts = c.get("points").unwrap_or(c).as_array();
            let claimed: Option<Vec<Vec3<BigRational>>> =
                pts.and_then(|ps| ps.iter().map(point).collect());
            let Some(claimed) = claimed.filter(|v| !v.is_empty()) else {
                return Some(verdict(
                    k,
                    false,
                    format!("{k}: claim is not a list of points"),
                ));
            };
            let (abs, rel) = tol.get(Kind::Distance);
            let limit = std::cmp::max(&abs * &abs, &rel * &rel * &d2);
            // Each claimed point's squared distance from the region swept
            // back along t (the convex hull of its points p − t and p).
            let distances = |region: Vec<Vec3<BigRational>>, t: &Vec3<BigRational>| {
                let mut swept: Vec<Vec3<BigRational>> = Vec::new();
                for p in region {
                    swept.push(p.sub(t));
                    swept.push(p);
                }
                let set = Rounded::convex(&swept, BigRational::zero()).ok()?;
                claimed
                    .iter()
                    .map(|p| {
                        let dot = Rounded::sphere(p.clone(), BigRational::zero()).ok()?;
                        crate::query::rounded::distance_exact(&dot, &set)
                            .ok()
                            .map(|d| d.core.distance_squared)
                    })
                    .collect::<Option<Vec<BigRational>>>()
            };
            let t = answer.get("translation").and_then(point)?;
            let region: Option<Vec<_>> = answer
                .get("contact")?
                .get("points")?
                .as_array()?
                .iter()
                .map(point)
                .collect();
            let mut best = distances(region?, &t)?;
            // Each other optimal normal has its own translation and region;
            // points in the swept region of any one of them agree. Of several
            // regions the one with the fewest points outside is reported
            // (then the nearest farthest point).
            let others: Vec<Vec3<BigRational>> = answer
                .get("normals")
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
                .skip(1)
                .filter_map(point)
                .collect();
            if best.iter().any(|d| d > &limit) && !others.is_empty() {
                use crate::query::polytope::contact::touching_region;
                let (pa, pb) = (
                    crate::query::polytope::Polytope::new(a),
                    crate::query::polytope::Polytope::new(b),
                );
                for n in &others {
                    let ((_, amax), (bmin, _)) = (pa.extent(n), pb.extent(n));
                    let t = n.scale(&((&amax - &bmin) / n.norm_squared()));
                    let pts = match touching_region(&pa, &pb, n, &t) {
                        Some(Region::Point(p)) => vec![p],
                        Some(Region::Segment(p, q)) => vec![p, q],
                        Some(Region::Polygon(v)) => v,
                        None => continue,
                    };
                    if let Some(d) = distances(pts, &t) {
                        if points_score(&d, &limit) < points_score(&best, &limit) {
                            best = d;
                        }
                    }
                }
            }
            let outside: Vec<usize> = (0..best.len()).filter(|&i| best[i] > limit).collect();
            let worst = best.iter().max().cloned().unwrap_or_default();
            FieldVerdict {
                outside: outside.clone(),
                ..verdict(
                    k,
                    outside.is_empty(),
                    format!(
                        "{k}: {} points, the farthest {:e} from the contact region swept along b's translation, for the nearest optimal normal's (decided exactly){}",
                        claimed.len(),
                        sqrt_nearest_f64(&worst),
                        outside_words(&outside)
                    ),
                )
            }
        }
        _ => return None,
    })
}

/// How far a set of claimed points is from a region, for choosing among
/// several optimal normals' regions: the number of points outside the
/// limit, then the farthest squared distance.
fn points_score(d: &[BigRational], limit: &BigRational) -> (usize, BigRational) {
    (
        d.iter().filter(|x| *x > limit).count(),
        d.iter().max().cloned().unwrap_or_default(),
    )
}

/// ", 2 outside the tolerance (#1, #3, counted from 0)" for the points
/// outside; "" when none.
pub(super) fn outside_words(outside: &[usize]) -> String {
    if outside.is_empty() {
        return String::new();
    }
    let list: Vec<String> = outside.iter().map(|i| format!("#{i}")).collect();
    format!(
        ", {} outside the tolerance ({}, counted from 0)",
        outside.len(),
        list.join(", ")
    )
}

/// The shapes of a static query.
fn shapes(q: &Query) -> Option<(&Shape<BigRational>, &Shape<BigRational>)> {
    match &q.op {
        Op::Intersect { a, b } | Op::Distance { a, b } | Op::Contact { a, b } => Some((a, b)),
        _ => None,
    }
}

pub(super) fn verdict(k: &str, agrees: bool, detail: String) -> FieldVerdict {
    FieldVerdict {
        field: k.to_string(),
        agrees,
        detail,
        abs_error: None,
        ulps: None,
        outside: Vec::new(),
    }
}

/// Certificates, time objects and features; `None` for fields not judged.
fn judge_structured(
    k: &str,
    c: &Value,
    answer: &Map<String, Value>,
    q: &Query,
    tol: &Tol,
) -> Option<FieldVerdict> {
    Some(match k {
        "witness" => {
            let (a, b) = shapes(q)?;
            match point(c) {
                None => verdict(k, false, format!("{k}: claim is not a point")),
                Some(p) => {
                    let (ina, inb) = (a.contains(&p), b.contains(&p));
                    verdict(
                        k,
                        ina && inb,
                        format!("{k}: in a {ina}, in b {inb} (decided exactly)"),
                    )
                }
            }
        }
        "separating_axis" => {
            let (a, b) = shapes(q)?;
            match point(c) {
                None => verdict(k, false, format!("{k}: claim is not a vector")),
                Some(l) => {
                    let ok = separates(&l, a, b);
                    verdict(
                        k,
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
                return Some(verdict(
                    k,
                    false,
                    format!("{k}: claim is not a pair of points"),
                ));
            };
            let diff = pa.sub(&pb);
            let c2 = diff.dot(&diff);
            if all_strings(c) {
                let (ina, inb) = (a.contains(&pa), b.contains(&pb));
                let ok = ina && inb && c2 == d2;
                verdict(
                    k,
                    ok,
                    format!(
                        "{k}: pa in a {ina}, pb in b {inb}, |pa − pb|² {} the exact distance² (decided exactly)",
                        if c2 == d2 { "equals" } else { "differs from" }
                    ),
                )
            } else {
                let ok = within(&c2, &d2, &tol.get(Kind::Distance));
                verdict(
                    k,
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
                return Some(verdict(
                    k,
                    false,
                    format!("{k}: claim is not a time object"),
                ));
            };
            let Some(ours) = answer.get(k).and_then(Value::as_object) else {
                return Some(verdict(
                    k,
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
                return Some(verdict(
                    k,
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
                None => verdict(k, false, format!("{k}: no f64 or lo/hi in the claim")),
                Some(v) => {
                    let mut f = judge_field(&format!("{k}_f64"), &v, answer, q, tol)?;
                    f.field = k.to_string();
                    f
                }
            }
        }
        "feature" => {
            let ours = answer.get("feature")?;
            if ours.get("degenerate") == Some(&Value::Bool(true)) {
                return None;
            }
            let same = ["kind", "a", "b"].iter().all(|f| c.get(f) == ours.get(f));
            verdict(
                k,
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

/// A claimed distance-like number against the exact squared distance `d2`.
fn judge_distance(k: &str, c: &Value, d2: &BigRational, tol: &Tol) -> FieldVerdict {
    let is_root = k == "distance_f64";
    let cv = match claimed(c) {
        None => return verdict(k, false, format!("{k}: claim is not a number")),
        Some(Claimed::Inf(pos)) => {
            // Agrees when the exact value is past the double range.
            let exact_f = if is_root {
                sqrt_nearest_f64(d2)
            } else {
                rational_to_f64(d2)
            };
            let ok = pos && exact_f.is_infinite();
            return verdict(k, ok, format!("{k}: claimed {c}, exact {exact_f:e}"));
        }
        Some(Claimed::Value(v)) => v,
    };
    if k == "distance_squared" && c.is_string() {
        return if &cv == d2 {
            verdict(k, true, format!("{k}: exactly {}", exact_string(d2)))
        } else {
            let err = (&cv - d2).abs();
            FieldVerdict {
                abs_error: Some(rational_to_f64(&err)),
                ..verdict(
                    k,
                    false,
                    format!(
                        "{k}: claimed {}, exact {}, off by {}",
                        exact_string(&cv),
                        exact_string(d2),
                        exact_string(&(&cv - d2))
                    ),
                )
            }
        };
    }
    let claimed_f = rational_to_f64(&cv);
    let exact_f = if is_root {
        sqrt_nearest_f64(d2)
    } else {
        rational_to_f64(d2)
    };
    let t = tol.get(Kind::Distance);
    // A number equal to the correctly rounded double of the exact value (the
    // answer's own `_f64` field, 0 where that underflows) always agrees.
    let nearest = !c.is_string() && claimed_f == exact_f;
    let ok = nearest
        || if is_root {
            within_sqrt(&cv, d2, &t)
        } else {
            within(&cv, d2, &t)
        };
    // The errors, for reading: exact where the exact value is rational; for
    // √d2, |c − √d2| = |c² − d2| / (c + √d2) with the root rounded.
    // The relative error is 0 for 0 against 0 and infinite against 0.
    let relative = |f: &dyn Fn() -> f64| match (d2.is_zero(), cv.is_zero()) {
        (true, true) => 0.0,
        (true, false) => f64::INFINITY,
        _ => f(),
    };
    let (abs_err, rel) = if is_root {
        let c2 = &cv * &cv;
        let num = rational_to_f64(&(&c2 - d2).abs());
        let den = (claimed_f + exact_f).abs();
        let abs_err = if num == 0.0 { 0.0 } else { num / den };
        // |c − √d²|/√d² = (|c² − d²|/d²) / (c/√d² + 1).
        let rel = relative(&|| {
            let qv = rational_to_f64(&((&c2 - d2).abs() / d2));
            let s = rational_to_f64(&(&c2 / d2)).sqrt();
            qv / (s + 1.0)
        });
        (abs_err, rel)
    } else {
        let rel = relative(&|| rational_to_f64(&((&cv - d2).abs() / d2)));
        (rational_to_f64(&(&cv - d2).abs()), rel)
    };
    let ulps = if is_root {
        rational_to_f64(&(q(abs_err) / ulp(claimed_f)))
    } else {
        error_of(&(&cv - d2).abs(), claimed_f).1
    };
    let mut detail = format!(
        "{k}: claimed {claimed_f:e}, exact ≈ {exact_f:e}, relative error {}, {}",
        if rel == 0.0 {
            "0".to_string()
        } else {
            format!("{rel:.3e}")
        },
        fmt_err(abs_err, ulps)
    );
    if nearest && rel != 0.0 {
        detail.push_str(" (the correctly rounded double of the exact value)");
    }
    FieldVerdict {
        field: k.to_string(),
        agrees: ok,
        detail,
        abs_error: Some(abs_err),
        ulps: Some(ulps),
        outside: Vec::new(),
    }
}

/// A claimed time against the exact one (the answer's certified interval).
fn judge_time(k: &str, c: &Value, answer: &Map<String, Value>, tol: &Tol) -> FieldVerdict {
    let field = k.trim_end_matches("_f64");
    let Some(cv) = exact_of(c) else {
        return verdict(k, false, format!("{k}: claim is not a number"));
    };
    let Some(t) = answer.get(field).and_then(Value::as_object) else {
        return verdict(
            k,
            false,
            format!("{k}: the exact answer has no {field} (no contact)"),
        );
    };
    let (Some(lo), Some(hi)) = (
        t.get("lo").and_then(exact_of),
        t.get("hi").and_then(exact_of),
    ) else {
        return verdict(k, false, format!("{k}: no interval in the answer"));
    };
    let poly: Vec<BigInt> = t
        .get("poly")
        .and_then(Value::as_array)
        .map(|p| {
            p.iter()
                .filter_map(|c| c.as_str().and_then(|s| s.parse().ok()))
                .collect()
        })
        .unwrap_or_default();
    let Some(ok) = time_within(&cv, &lo, &hi, &poly, &tol.get(Kind::Time)) else {
        return verdict(
            k,
            false,
            format!("{k}: the answer's interval isolates no root"),
        );
    };
    // The error, for reading: against the exact time's nearest double.
    let claimed_f = rational_to_f64(&cv);
    let exact_f = t
        .get("f64")
        .and_then(Value::as_f64)
        .unwrap_or_else(|| rational_to_f64(&((&lo + &hi) / BigRational::from_integer(2.into()))));
    let (abs_err, ulps) = error_of(&(&cv - q(exact_f)).abs(), claimed_f);
    FieldVerdict {
        field: k.to_string(),
        agrees: ok,
        detail: format!(
            "{k}: claimed {claimed_f}, exact in [{}, {}], {} (decided exactly)",
            rational_to_f64(&lo),
            rational_to_f64(&hi),
            fmt_err(abs_err, ulps)
        ),
        abs_error: Some(abs_err),
        ulps: Some(ulps),
        outside: Vec::new(),
    }
}

fn judge_field(
    k: &str,
    c: &Value,
    answer: &Map<String, Value>,
    q: &Query,
    tol: &Tol,
) -> Option<FieldVerdict> {
    Some(match k {
        // A distance answer settles `intersect` too: the shapes meet exactly
        // when the squared distance is 0.
        "intersect" if !answer.contains_key(k) && answer.contains_key("distance_squared") => {
            let meet = answer
                .get("distance_squared")
                .and_then(exact_of)
                .map(|d2| d2.is_zero());
            match (c.as_bool(), meet) {
                (Some(cb), Some(ab)) if cb == ab => verdict(
                    k,
                    true,
                    format!("{k}: {ab} as claimed (from the exact distance)"),
                ),
                (Some(cb), Some(ab)) => verdict(
                    k,
                    false,
                    format!("{k}: claimed {cb}, exact answer {ab} (from the exact distance)"),
                ),
                (None, _) => verdict(k, false, format!("{k}: claim is not a boolean")),
                (Some(_), None) => verdict(k, false, format!("{k}: this answer has no distance")),
            }
        }
        "intersect" | "hit" => match (c.as_bool(), answer.get(k).and_then(Value::as_bool)) {
            (Some(cb), Some(ab)) if cb == ab => verdict(k, true, format!("{k}: {ab} as claimed")),
            (Some(cb), Some(ab)) => {
                verdict(k, false, format!("{k}: claimed {cb}, exact answer {ab}"))
            }
            (None, _) => verdict(k, false, format!("{k}: claim is not a boolean")),
            (Some(_), None) => verdict(k, false, format!("{k}: not part of this answer")),
        },
        "closest" | "closest_f64" if rounded_pair(q).is_some() => {
            let (a, b) = rounded_pair(q).expect("checked");
            super::claim_rounded::judge_closest(k, c, a, b, &tol.get(Kind::Distance))
        }
        "distance_f64" if rounded_pair(q).is_some() => {
            let (a, b) = rounded_pair(q).expect("checked");
            match crate::query::rounded::distance_exact(a, b) {
                Ok(r) => judge_rounded_distance(k, c, &r.distance(), tol),
                Err(e) => verdict(k, false, format!("{k}: no exact distance ({e})")),
            }
        }
        "distance_squared" | "distance_squared_f64" | "distance_f64" => {
            match answer.get("distance_squared").and_then(exact_of) {
                Some(d2) => judge_distance(k, c, &d2, tol),
                None => verdict(k, false, format!("{k}: this answer has no distance")),
            }
        }
        "t_enter_f64" | "t_exit_f64" | "toi_f64" => judge_time(k, c, answer, tol),
        "depth_f64" if matches!(q.op, Op::ContactRounded { .. }) => {
            let Op::ContactRounded { a, b } = &q.op else {
                return None;
            };
            match crate::query::rounded::contact::contact(a, b) {
                Ok(RoundedContact::Meeting(p)) => judge_rounded_depth(k, c, &p, tol),
                Ok(RoundedContact::Apart(_)) => {
                    let mut f = judge_distance("distance_f64", c, &BigRational::zero(), tol);
                    f.field = k.to_string();
                    f.detail = f.detail.replacen("distance_f64", k, 1);
                    f
                }
                Err(e) => verdict(k, false, format!("{k}: no exact depth ({e})")),
            }
        }
        "depth_squared" if matches!(q.op, Op::ContactRounded { .. }) => {
            let Op::ContactRounded { a, b } = &q.op else {
                return None;
            };
            match crate::query::rounded::contact::contact(a, b) {
                Ok(RoundedContact::Meeting(p)) => {
                    super::claim_rounded::judge_depth_squared(k, c, &p, &tol.get(Kind::Distance))
                }
                Ok(RoundedContact::Apart(_)) => {
                    let mut f = judge_distance("distance_squared", c, &BigRational::zero(), tol);
                    f.field = k.to_string();
                    f.detail = f.detail.replacen("distance_squared", k, 1);
                    f
                }
                Err(e) => verdict(k, false, format!("{k}: no exact depth ({e})")),
            }
        }
        "normal" | "contact" if matches!(q.op, Op::ContactRounded { .. }) => {
            let Op::ContactRounded { a, b } = &q.op else {
                return None;
            };
            return super::claim_rounded::judge(k, c, a, b, &tol.get(Kind::Distance));
        }
        "depth_f64" | "depth_squared" | "normal" | "contact" if contact_pair(q).is_some() => {
            return judge_contact(k, c, answer, q, tol)
        }
        _ => return judge_structured(k, c, answer, q, tol),
    })
}
