//! Judging a claimed `normal` and claimed `contact` points on a `contact`
//! query of rounded shapes (docs/verify.md, "Contact claims"), and a claimed
//! closest pair (`closest`, `closest_f64`) on their `distance` and
//! `intersect` queries ([`judge_closest`]).
//!
//! With R = r_a + r_b, the depth δ is `√p + R` (cores meeting, p the cores'
//! squared depth) or `R − √q` (cores apart, q their squared distance), and
//! the overlap of the shapes along a direction n is `s/|n| + R` with
//! `s = max over a's core of n·x − min over b's core of n·y`. Every
//! comparison below is the sign of an element of ℚ(√|n|², √p) or
//! ℚ(√|n|², √q), decided exactly ([`crate::num::biquadratic`]).
//!
//! - `normal` n agrees when `o ≤ δ + abs` or `o ≤ (1 + rel)·δ` (o ≥ δ holds
//!   for every direction).
//! - `contact` points agree when, for one optimal normal n (unit u), every
//!   point lies within max(abs, rel·δ) of the swept region
//!   `S = R₀ + [r_a − δ, r_a]·u`: R₀ is the cores' touching region for n (on
//!   a's core, in the plane `n·x = h₀`), R₀ + r_a·u the contact region on a's
//!   surface, R₀ + (r_a − δ)·u where b's touching feature is now. R₀ lies in
//!   a plane orthogonal to u, so the squared distance of a point P to S is
//!   `dist²(P′, R₀) + dist²(τ, [r_a − δ, r_a])` with P′ = P projected onto
//!   that plane (rational) and τ = (n·P − h₀)/|n| its height over it.

use super::claim::{
    all_strings, claimed, double_error, fmt_err, outside_words, point, q, verdict, Claimed,
};
use crate::num::biquadratic::{Biquad, Field};
use crate::num::scalar::rational_to_f64;
use crate::protocol::FieldVerdict;
use crate::query::rounded::contact::{
    contact, core_gap, core_regions, RoundedContact, RoundedPenetration,
};
use crate::query::rounded::{distance_exact, distance_exact_any, RoundedClosest};
use crate::query::triangle_triangle::Contact as Region;
use crate::shape::Rounded;
use crate::vector::Vec3;
use num_rational::BigRational;
use num_traits::{One, Zero};
use serde_json::Value;

type Q = BigRational;

/// The field ℚ(√N, √B) the depth lives in, with δ in it: B = p and
/// δ = R + √p when the cores meet, B = q and δ = R − √q when they are apart.
fn depth_in(p: &RoundedPenetration, nn: &Q) -> (Field, Biquad) {
    let r = p.closest.radius.clone();
    let (b, c) = match &p.core {
        Some(core) => (core.depth_squared.clone(), Q::one()),
        None => (p.closest.core.distance_squared.clone(), -Q::one()),
    };
    (
        Field { a: nn.clone(), b },
        Biquad {
            a: r,
            b: Q::zero(),
            c,
            d: Q::zero(),
        },
    )
}

/// x ≤ δ + abs or x ≤ (1 + rel)·δ, exactly (x, δ in `f`).
fn within_above(f: &Field, x: &Biquad, delta: &Biquad, (abs, rel): &(Q, Q)) -> bool {
    f.sign(&x.sub(delta).sub(&Biquad::rational(abs.clone()))) <= 0
        || f.sign(&x.sub(&delta.scale(&(Q::one() + rel)))) <= 0
}

/// Judge a claimed `normal` or `contact` on a rounded `contact` query; `None`
/// (not judged) for other fields and for shapes that are apart.
pub(super) fn judge(
    k: &str,
    c: &Value,
    a: &Rounded<Q>,
    b: &Rounded<Q>,
    tol: &(Q, Q),
) -> Option<FieldVerdict> {
    if k != "normal" && k != "contact" {
        return None;
    }
    let p = match contact(a, b) {
        Ok(RoundedContact::Meeting(p)) => p,
        Ok(RoundedContact::Apart(_)) => return None,
        Err(e) => return Some(verdict(k, false, format!("{k}: no exact contact ({e})"))),
    };
    Some(if k == "normal" {
        judge_normal(k, c, a, b, &p, tol)
    } else {
        judge_points(k, c, a, b, &p, tol)
    })
}

fn judge_normal(
    k: &str,
    c: &Value,
    a: &Rounded<Q>,
    b: &Rounded<Q>,
    p: &RoundedPenetration,
    tol: &(Q, Q),
) -> FieldVerdict {
    let Some(n) = point(c).filter(|n| !n.norm_squared().is_zero()) else {
        return verdict(k, false, format!("{k}: claim is not a nonzero vector"));
    };
    let nn = n.norm_squared();
    let (f, delta) = depth_in(p, &nn);
    // o = s/√N + R = (s/N)·√N + R.
    let o = Biquad {
        a: p.closest.radius.clone(),
        b: core_gap(a, b, &n) / &nn,
        c: Q::zero(),
        d: Q::zero(),
    };
    let ok = within_above(&f, &o, &delta, tol);
    verdict(
        k,
        ok,
        format!(
            "{k}: overlap along it ≈ {:e} against the depth ≈ {:e} (decided exactly)",
            f.floor_f64(&o),
            f.floor_f64(&delta)
        ),
    )
}

fn region_points(r: &Region<Q>) -> Vec<Vec3<Q>> {
    match r {
        Region::Point(x) => vec![x.clone()],
        Region::Segment(x, y) => vec![x.clone(), y.clone()],
        Region::Polygon(v) => v.clone(),
    }
}

fn judge_points(
    k: &str,
    c: &Value,
    a: &Rounded<Q>,
    b: &Rounded<Q>,
    p: &RoundedPenetration,
    tol: &(Q, Q),
) -> FieldVerdict {
    let pts = c.get("points").unwrap_or(c).as_array();
    let claimed: Option<Vec<Vec3<Q>>> = pts.and_then(|ps| ps.iter().map(point).collect());
    let Some(claimed) = claimed.filter(|v| !v.is_empty()) else {
        return verdict(k, false, format!("{k}: claim is not a list of points"));
    };
    let (abs, rel) = tol;
    let ra = Biquad::rational(a.radius.clone());
    // For each optimal normal: the points outside the limit and the
    // farthest point's squared distance (a double, for reading). The normal
    // with the fewest points outside is reported (then the nearest).
    let mut best: Option<(Vec<usize>, f64)> = None;
    for (n, r0) in core_regions(a, b, p) {
        let nn = n.norm_squared();
        let (f, delta) = depth_in(p, &nn);
        let pts0 = region_points(&r0);
        let h0 = n.dot(&pts0[0]);
        let Ok(set) = Rounded::convex(&pts0, Q::zero()) else {
            continue;
        };
        let (lo, hi) = (ra.sub(&delta), ra.clone());
        let limit_rel = f.mul(&delta, &delta).scale(&(rel * rel));
        let limit_abs = Biquad::rational(abs * abs);
        let mut outside = Vec::new();
        let mut worst = 0.0f64;
        for (i, x) in claimed.iter().enumerate() {
            let m = n.dot(x) - &h0;
            let k_ = &m / &nn;
            let proj = x.sub(&n.scale(&k_));
            let Some(d_plane) = Rounded::sphere(proj, Q::zero())
                .ok()
                .and_then(|dot| distance_exact(&dot, &set).ok())
                .map(|d| d.core.distance_squared)
            else {
                outside.push(i);
                continue;
            };
            // τ = m/√N = (m/N)·√N.
            let tau = Biquad {
                a: Q::zero(),
                b: k_,
                c: Q::zero(),
                d: Q::zero(),
            };
            let below = lo.sub(&tau);
            let above = tau.sub(&hi);
            let axial = if f.sign(&below) > 0 {
                below
            } else if f.sign(&above) > 0 {
                above
            } else {
                Biquad::rational(Q::zero())
            };
            let d2 = f.mul(&axial, &axial).add(&Biquad::rational(d_plane));
            let ok = f.sign(&d2.sub(&limit_abs)) <= 0 || f.sign(&d2.sub(&limit_rel)) <= 0;
            if !ok {
                outside.push(i);
            }
            worst = worst.max(f.floor_f64(&d2));
        }
        let better = match &best {
            None => true,
            Some((o0, w0)) => (outside.len(), worst) < (o0.len(), *w0),
        };
        if better {
            best = Some((outside, worst));
        }
    }
    let Some((outside, worst)) = best else {
        return verdict(
            k,
            false,
            format!("{k}: the exact contact region could not be formed"),
        );
    };
    FieldVerdict {
        outside: outside.clone(),
        ..verdict(
            k,
            outside.is_empty(),
            format!(
                "{k}: {} points, the farthest ≈ {:e} from the contact region swept along b's translation, for the nearest optimal normal's (decided exactly){}",
                claimed.len(),
                worst.max(0.0).sqrt(),
                outside_words(&outside)
            ),
        )
    }
}

/// δ² of meeting rounded shapes in ℚ(√B): `(R + √p)² = R² + p + 2R·√p`
/// (cores meeting) or `(R − √q)² = R² + q − 2R·√q` (cores apart), as an
/// element of the field ℚ(√0, √B) (the first root vanishes).
fn depth_squared_in(p: &RoundedPenetration) -> (Field, Biquad) {
    let (f, delta) = depth_in(p, &Q::zero());
    let d2 = f.mul(&delta, &delta);
    (f, d2)
}

/// The double nearest x ≥ 0 (ties to even), from the largest double at
/// most x and one exact sign at the midpoint.
fn nearest_f64(f: &Field, x: &Biquad) -> f64 {
    let lo = f.floor_f64(x);
    if !lo.is_finite() {
        return lo;
    }
    let at = |d: f64| f.sign(&x.sub(&Biquad::rational(q(d))));
    if at(lo) == 0 {
        return lo;
    }
    // lo < x < ∞ (x past the largest double has lo = ∞): hi is finite.
    let hi = lo.next_up();
    let mid = (q(lo) + q(hi)) / Q::from_integer(2.into());
    match f.sign(&x.sub(&Biquad::rational(mid))) {
        s if s < 0 => lo,
        s if s > 0 => hi,
        _ if lo.to_bits() & 1 == 0 => lo,
        _ => hi,
    }
}

/// Judge a claimed `depth_squared` of meeting rounded shapes against
/// δ² = (R + √p)² or (R − √q)², exactly in ℚ(√p) or ℚ(√q): an exact string
/// agrees when it equals δ² (possible only where δ² is rational); a number
/// when it is the double nearest δ² or when |c − δ²| ≤ max(abs, rel·δ²),
/// i.e. `c − abs ≤ δ² ≤ c + abs` or `(1 − rel)·δ² ≤ c ≤ (1 + rel)·δ²`, each
/// side one exact sign.
pub(super) fn judge_depth_squared(
    k: &str,
    c: &Value,
    p: &RoundedPenetration,
    (abs, rel): &(Q, Q),
) -> FieldVerdict {
    let (f, d2) = depth_squared_in(p);
    let exact_f = nearest_f64(&f, &d2);
    let form = {
        let r = &p.closest.radius;
        match &p.core {
            Some(core) => format!(
                "(R + √p)² with R = {}, p = {}",
                crate::protocol::number::exact_string(r),
                crate::protocol::number::exact_string(&core.depth_squared)
            ),
            None => format!(
                "(R − √q)² with R = {}, q = {}",
                crate::protocol::number::exact_string(r),
                crate::protocol::number::exact_string(&p.closest.core.distance_squared)
            ),
        }
    };
    let cv = match claimed(c) {
        None => return verdict(k, false, format!("{k}: claim is not a number")),
        Some(Claimed::Inf(pos)) => {
            let ok = pos && exact_f.is_infinite();
            return verdict(
                k,
                ok,
                format!("{k}: claimed {c}, exact {form} ≈ {exact_f:e}"),
            );
        }
        Some(Claimed::Value(v)) => v,
    };
    // sign(δ² − t) for a rational t.
    let cmp = |t: &Q| f.sign(&d2.sub(&Biquad::rational(t.clone())));
    let claimed_f = rational_to_f64(&cv);
    let ok = if c.is_string() {
        cmp(&cv) == 0
    } else {
        let one = Q::one();
        let nearest = claimed_f == exact_f;
        let in_abs = cmp(&(&cv - abs)) >= 0 && cmp(&(&cv + abs)) <= 0;
        // (1 − rel)·δ² ≤ c ≤ (1 + rel)·δ².
        let in_rel = f.sign(&Biquad::rational(cv.clone()).sub(&d2.scale(&(&one - rel)))) >= 0
            && f.sign(&d2.scale(&(&one + rel)).sub(&Biquad::rational(cv.clone()))) >= 0;
        nearest || in_abs || in_rel
    };
    let (abs_err, ulps) = double_error(claimed_f, exact_f);
    let mut detail = format!(
        "{k}: claimed {claimed_f:e}, exact {form} ≈ {exact_f:e}, {} (decided exactly)",
        fmt_err(abs_err, ulps)
    );
    if !c.is_string() && claimed_f == exact_f && cmp(&cv) != 0 {
        detail.push_str(" (the correctly rounded double of the exact value)");
    }
    FieldVerdict {
        abs_error: Some(abs_err),
        ulps: Some(ulps),
        ..verdict(k, ok, detail)
    }
}

/// `x = √c2 − √q + R` (the claimed distance minus the exact one of apart
/// shapes) in its field ℚ(√c2, √q).
fn claimed_minus_exact(c2: &Q, q: &Q, r: &Q) -> (Field, Biquad) {
    let f = Field {
        a: c2.clone(),
        b: q.clone(),
    };
    let x = Biquad {
        a: r.clone(),
        b: Q::one(),
        c: -Q::one(),
        d: Q::zero(),
    };
    (f, x)
}

/// The tolerance rule on a rounded pair's distance `D = max(0, √q − R)`
/// for a claimed pair at squared distance `c2`: `|√c2 − D| ≤ abs` or
/// `|√c2 − D| ≤ rel·D`, exactly. Apart shapes (`d` = `(q, R)`): with
/// `x = √c2 − √q + R`, the rule is `±x ≤ abs` or `±x ≤ rel·(√q − R)` (four
/// signs). Meeting shapes (`D = 0`): `√c2 ≤ abs`, that is `c2 ≤ abs²`.
fn distance_within(c2: &Q, d: &Option<(Q, Q)>, (abs, rel): &(Q, Q)) -> bool {
    let Some((q, r)) = d else {
        return c2 <= &(abs * abs);
    };
    let (f, x) = claimed_minus_exact(c2, q, r);
    let dist = Biquad {
        a: -r.clone(),
        b: Q::zero(),
        c: Q::one(),
        d: Q::zero(),
    };
    let both = |t: &Biquad| f.sign(&x.sub(t)) <= 0 && f.sign(&x.scale(&-Q::one()).sub(t)) <= 0;
    both(&Biquad::rational(abs.clone())) || both(&dist.scale(rel))
}

/// `|pa − pb| = D` exactly (an exact-string claim): `c2 = 0` for meeting
/// shapes, `√c2 − √q + R = 0` for apart ones.
fn distance_equal(c2: &Q, d: &Option<(Q, Q)>) -> bool {
    match d {
        None => c2.is_zero(),
        Some((q, r)) => {
            let (f, x) = claimed_minus_exact(c2, q, r);
            f.sign(&x) == 0
        }
    }
}

/// The correctly rounded doubles of the exact answer's closest pair (the
/// witness twice for meeting shapes).
fn rounded_answer(r: &RoundedClosest, meet: bool, a: &Rounded<Q>, b: &Rounded<Q>) -> [[f64; 3]; 2] {
    let f = |p: &Vec3<Q>| [&p.x, &p.y, &p.z].map(rational_to_f64);
    if meet {
        let w = f(&r.witness_of_meeting(&a.radius));
        return [w, w];
    }
    match r.exact_points_of_apart(&a.radius, &b.radius) {
        Some((pa, pb)) => [f(&pa), f(&pb)],
        None => r.points_f64_of_apart(&a.radius, &b.radius),
    }
}

/// Judge a claimed closest pair `[pa, pb]` (`closest` or `closest_f64`) of
/// rounded shapes (docs/verify.md, "Closest points of rounded shapes").
///
/// Each point must lie in its shape: with `q_p` the exact squared distance
/// from the point to the shape's core and `r` its radius, `q_p ≤ r²` for an
/// exact-string claim and `q_p ≤ (r + abs)²` for numbers (the point at most
/// `abs` outside). Their distance must be the exact distance
/// `D = max(0, √q − R)`: equal for exact strings, within the distance
/// tolerance rule for numbers ([`distance_within`]). A numeric claim equal
/// to the correctly rounded doubles of the exact answer's own closest pair
/// agrees too (those need not lie exactly in the shapes).
pub(super) fn judge_closest(
    k: &str,
    c: &Value,
    a: &Rounded<Q>,
    b: &Rounded<Q>,
    tol: &(Q, Q),
) -> FieldVerdict {
    let pts = c.as_array().filter(|v| v.len() == 2);
    let Some((pa, pb)) = pts.and_then(|v| Some((point(&v[0])?, point(&v[1])?))) else {
        return verdict(k, false, format!("{k}: claim is not a pair of points"));
    };
    let r = match distance_exact_any(a, b) {
        Ok(r) => r,
        Err(e) => return verdict(k, false, format!("{k}: no exact distance ({e})")),
    };
    let meet = r.intersects();
    let d = (!meet).then(|| (r.core.distance_squared.clone(), r.radius.clone()));
    let exact = all_strings(c);
    let slack = if exact { Q::zero() } else { tol.0.clone() };
    // p in s within `slack`: the core distance² against (r + slack)².
    let inside = |p: &Vec3<Q>, s: &Rounded<Q>| {
        Rounded::sphere(p.clone(), Q::zero())
            .ok()
            .and_then(|dot| distance_exact(&dot, s).ok())
            .map(|x| {
                let lim = &x.radius + &slack;
                x.core.distance_squared <= &lim * &lim
            })
            .unwrap_or(false)
    };
    let (ina, inb) = (inside(&pa, a), inside(&pb, b));
    let diff = pa.sub(&pb);
    let c2 = diff.dot(&diff);
    let near = if exact {
        distance_equal(&c2, &d)
    } else {
        distance_within(&c2, &d, tol)
    };
    let claimed_f = [&pa, &pb].map(|p| [&p.x, &p.y, &p.z].map(rational_to_f64));
    let rounded = !exact
        && pa == Vec3::new(q(claimed_f[0][0]), q(claimed_f[0][1]), q(claimed_f[0][2]))
        && pb == Vec3::new(q(claimed_f[1][0]), q(claimed_f[1][1]), q(claimed_f[1][2]))
        && claimed_f == rounded_answer(&r, meet, a, b);
    let ok = (ina && inb && near) || rounded;
    let exact_d = match &d {
        None => 0.0,
        Some((q, r)) => crate::num::sqrt_offset::SqrtOffset::new(q.clone(), r.clone())
            .map(|x| x.nearest_f64())
            .unwrap_or(f64::NAN),
    };
    let how = if exact { "exactly" } else { "within abs" };
    let mut detail = format!(
        "{k}: pa in a {ina}, pb in b {inb} ({how}), |pa − pb| ≈ {:e} against the exact distance ≈ {exact_d:e}{} (decided exactly)",
        rational_to_f64(&c2).sqrt(),
        if near { "" } else { ", out of tolerance" }
    );
    if rounded {
        detail.push_str(" (the correctly rounded doubles of the exact closest pair)");
    }
    verdict(k, ok, detail)
}
