//! `ccd_vf` / `ccd_ee` with a minimum separation δ > 0: the first time in
//! [0, 1] at which the Euclidean distance between the vertex and the closed
//! triangle (between the two closed segments) is at most δ.
//!
//! # The condition
//!
//! In the frame of `formula.rs` (vf: A = f1 − f0, B = f2 − f0, C = v − f0, the
//! triangle is 0, A, B and the vertex C; ee: A = a1 − a0, B = b0 − a0,
//! C = b1 − a0, the segments are 0A and BC) every quantity below is a
//! polynomial in t with integer coefficients, δ² = N/D enters as D·X − N·Y.
//! The distance is at most δ iff one *piece* holds (the closest point of the
//! triangle is a vertex, an edge's interior or the face's interior):
//!
//! ```text
//! sphere   x vs point y:        |x − y|² ≤ δ²                                  deg 2
//! cylinder x vs segment y0y1:   e = y1 − y0, w = x − y0,
//!                               |e|² > 0 ∧ 0 ≤ w·e ≤ |e|² ∧ |w × e|² ≤ δ²|e|²   deg 4
//! vf face:                      n = A × B, |n|² > 0, the three edge tests of
//!                               points.rs ≥ 0 (the vertex projects into the
//!                               triangle), (n·C)² ≤ δ²|n|²                     deg 6
//! ee interior:                  u = A, v = C − B, w = −B, n = u × v, D = |n|²,
//!                               s = (u·v)(v·w) − |v|²(u·w), r = |u|²(v·w) − (u·v)(u·w),
//!                               D > 0 ∧ 0 ≤ s ≤ D ∧ 0 ≤ r ≤ D ∧ (w·n)² ≤ δ²D    deg 6
//! ```
//!
//! vf: the three vertex spheres, the three edge cylinders and the face; ee:
//! the four end-point pairs' spheres, the four end-point–segment cylinders and
//! the interior piece. Each piece implies distance ≤ δ (it names a point of
//! the triangle or a pair of points of the segments that close); conversely
//! the closest point lies in a vertex, an edge's relative interior (a
//! cylinder) or the face's interior (then |n|² > 0 and the distance is
//! |n·C|/|n|); for segments, closest points on parallel lines can always be
//! taken with an end point, otherwise the closest points of the two lines are
//! (s/D, r/D) along u and v at distance |w·n|/|n|. A degenerate edge (e = 0)
//! or triangle (n = 0) is covered by the spheres and cylinders, which is why
//! the strict guards are there: without them a zero edge would satisfy its
//! cylinder everywhere.
//!
//! # The earliest time
//!
//! The set S = {t ∈ [0, 1] : distance ≤ δ} is closed (the distance is
//! continuous in t), so it has a least element t* if it is not empty. t* lies
//! in some piece Sᵢ and is its least element. Where none of Sᵢ's polynomials
//! vanishes its truth is locally constant, so t* is 0 (the start of the
//! searched range) or a root of one of Sᵢ's polynomials. For each piece its
//! candidates (the range's start and the real roots of its polynomials,
//! isolated exactly) are tried in exact increasing order and the first at
//! which every condition holds (exact signs at algebraic numbers, as
//! `points.rs`) is the piece's first time; every other piece's first time is
//! a point of S, hence ≥ t*, so the least over the pieces is t*. Candidates
//! not below the best time so far are not tried; on a tie the earlier piece in
//! the order above reports.
//!
//! # The filter
//!
//! For double coordinates, [0, 1] is bisected (to [`DEPTH`] levels) in
//! outward-rounded interval arithmetic over the frame on each time interval:
//! a time interval is excluded when the L∞ gap between the boxes of the two
//! primitives exceeds δ, or when every piece has a condition proven false on
//! it. If every time interval is excluded the answer is a miss without exact
//! arithmetic; if a piece is proven true at t = 0 it is `start`. Otherwise the
//! exact method runs on the time intervals left (the earliest time lies in
//! the first one that holds a point of S).
//!
//! On each of them interval arithmetic settles what it can first: a piece
//! with a condition proven false there is not searched, and a condition
//! proven true with a sign that excludes zero (its polynomial has no root
//! there, it holds at every candidate) is left out of the search; integer
//! polynomials are built only for the pieces some interval needs. A
//! condition whose interval touches zero stays, so the candidates left out
//! are exactly those that do not exist: the answer, and the polynomial that
//! reports it, are those of the search over every condition.
//!
//! # The reported time
//!
//! `start` for 0; an exact rational when the earliest time is known as one
//! (a range's start, a root at a rational evaluation point or of a linear
//! factor, a rational root of a quadratic factor: the spheres' and the
//! guards' polynomials); otherwise the isolating interval of the square-free factor of the
//! reporting piece's polynomial, narrowed to the tolerance's dyadic level as
//! `points.rs` reports (`canonical_time`).

use super::{canonical_time, exact_time, filter, frame_polys, level, sign_at_root, Zp};
use crate::ccd::{ContactTime, PointCcd, PointCcdAnswer};
use crate::poly::{isolate_roots, Poly, RealRoot, Roots};
use crate::query::QueryError;
use crate::stats::CCD_POINTS;
use crate::Interval;
use num_bigint::BigInt;
use num_integer::Integer;
use num_rational::BigRational;
use num_traits::{One, Signed, ToPrimitive, Zero};
use std::cmp::Ordering;

use super::formula::{cross, dot, sub3, Arith, Kind, V3};

/// Levels of bisection of [0, 1] in the filter (at most 2^DEPTH time
/// intervals).
pub const DEPTH: u32 = 6;

/// A sign condition on one polynomial.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Cond {
    /// ≤ 0.
    Le,
    /// ≥ 0.
    Ge,
    /// > 0.
    Gt,
}

impl Cond {
    fn holds(self, s: Ordering) -> bool {
        match self {
            Cond::Le => s != Ordering::Greater,
            Cond::Ge => s != Ordering::Less,
            Cond::Gt => s == Ordering::Greater,
        }
    }

    /// `Some(b)` when the condition is `b` at every value of `x`.
    fn on_interval(self, x: &Interval) -> Option<bool> {
        let (lo, hi) = (x.lo, x.hi);
        if lo.is_nan() || hi.is_nan() {
            return None;
        }
        match self {
            Cond::Le if hi <= 0.0 => Some(true),
            Cond::Le if lo > 0.0 => Some(false),
            Cond::Ge if lo >= 0.0 => Some(true),
            Cond::Ge if hi < 0.0 => Some(false),
            Cond::Gt if lo > 0.0 => Some(true),
            Cond::Gt if hi <= 0.0 => Some(false),
            _ => None,
        }
    }
}

/// One piece: a conjunction of sign conditions.
type Piece<T> = Vec<(T, Cond)>;

fn norm2<T: Arith>(u: &V3<T>) -> T {
    dot(u, u)
}

fn neg3<T: Arith>(u: &V3<T>) -> V3<T> {
    [u[0].neg(), u[1].neg(), u[2].neg()]
}

/// den·x − num·y: "x ≤ δ²·y" as a sign condition, δ² = num/den.
fn scaled<T: Arith>(x: &T, y: &T, num: &T, den: &T) -> T {
    den.mul(x).sub(&num.mul(y))
}

fn sphere<T: Arith>(w: &V3<T>, num: &T, den: &T) -> Piece<T> {
    vec![(den.mul(&norm2(w)).sub(num), Cond::Le)]
}

/// The point y0 + w (w = x − y0) against the segment y0 → y0 + e.
fn cylinder<T: Arith>(w: &V3<T>, e: &V3<T>, num: &T, den: &T) -> Piece<T> {
    let ee = norm2(e);
    let we = dot(w, e);
    let far = we.sub(&ee);
    let c = scaled(&norm2(&cross(w, e)), &ee, num, den);
    vec![
        (ee, Cond::Gt),
        (we, Cond::Ge),
        (far, Cond::Le),
        (c, Cond::Le),
    ]
}

/// The number of pieces of each kind.
fn piece_count(kind: Kind) -> usize {
    match kind {
        Kind::VertexFace => 7,
        Kind::EdgeEdge => 9,
    }
}

/// Piece `i` of the condition on the frame `f` (module docs), δ² = num/den.
fn piece<T: Arith>(kind: Kind, f: &[V3<T>; 3], num: &T, den: &T, i: usize) -> Piece<T> {
    let [a, b, c] = f;
    match (kind, i) {
        // vf: the vertex C against the triangle 0, A, B.
        (Kind::VertexFace, 0) => sphere(c, num, den),
        (Kind::VertexFace, 1) => sphere(&sub3(c, a), num, den),
        (Kind::VertexFace, 2) => sphere(&sub3(c, b), num, den),
        (Kind::VertexFace, 3) => cylinder(c, a, num, den),
        (Kind::VertexFace, 4) => cylinder(&sub3(c, a), &sub3(b, a), num, den),
        (Kind::VertexFace, 5) => cylinder(&sub3(c, b), &neg3(b), num, den),
        (Kind::VertexFace, _) => {
            let n = cross(a, b);
            let n2 = norm2(&n);
            let d = dot(&n, c);
            let e0 = dot(&cross(a, c), &n);
            let e1 = dot(&cross(&sub3(b, a), &sub3(c, a)), &n);
            let e2 = dot(&cross(c, b), &n);
            let slab = scaled(&d.mul(&d), &n2, num, den);
            vec![
                (n2, Cond::Gt),
                (e0, Cond::Ge),
                (e1, Cond::Ge),
                (e2, Cond::Ge),
                (slab, Cond::Le),
            ]
        }
        // ee: segments 0A (a0a1) and BC (b0b1).
        (Kind::EdgeEdge, 0) => sphere(b, num, den),
        (Kind::EdgeEdge, 1) => sphere(c, num, den),
        (Kind::EdgeEdge, 2) => sphere(&sub3(b, a), num, den),
        (Kind::EdgeEdge, 3) => sphere(&sub3(c, a), num, den),
        (Kind::EdgeEdge, 4) => cylinder(&neg3(b), &sub3(c, b), num, den),
        (Kind::EdgeEdge, 5) => cylinder(&sub3(a, b), &sub3(c, b), num, den),
        (Kind::EdgeEdge, 6) => cylinder(b, a, num, den),
        (Kind::EdgeEdge, 7) => cylinder(c, a, num, den),
        (Kind::EdgeEdge, _) => {
            let u = a;
            let v = sub3(c, b);
            let w = neg3(b);
            let n = cross(u, &v);
            let dd = norm2(&n);
            let (uu, uv, vv) = (norm2(u), dot(u, &v), norm2(&v));
            let (uw, vw) = (dot(u, &w), dot(&v, &w));
            let s = uv.mul(&vw).sub(&vv.mul(&uw));
            let r = uu.mul(&vw).sub(&uv.mul(&uw));
            let wn = dot(&w, &n);
            let slab = scaled(&wn.mul(&wn), &dd, num, den);
            vec![
                (dd.sub(&s), Cond::Ge),
                (dd.sub(&r), Cond::Ge),
                (s, Cond::Ge),
                (r, Cond::Ge),
                (slab, Cond::Le),
                (dd, Cond::Gt),
            ]
        }
    }
}

/// Checks δ: ≥ 0 (the callers route δ = 0 to the plain method).
fn check_delta(delta: &BigRational) -> Result<(), QueryError> {
    if delta.is_negative() {
        return Err(QueryError::Unsupported(
            "min_distance: must be at least 0".into(),
        ));
    }
    Ok(())
}

/// The first time in [0, 1] at which the distance is at most `min_distance`
/// (module docs); δ = 0 is [`super::first_contact`] itself.
///
/// Errors: a negative δ, a tolerance that is not positive.
///
/// ```
/// use exact_collision::ccd::points::{first_contact_min_distance, Kind};
/// use exact_collision::ccd::{PointCcd, PointCcdAnswer};
/// use exact_collision::Vec3;
/// use num_rational::BigRational;
/// let p = |x: i64, y: i64, z: i64| Vec3::new(x, y, z).map(|&v| BigRational::from_integer(v.into()));
/// // A vertex falling onto the triangle z = 0 from z = 4 to z = −4: within 1 at t = 3/8.
/// let tri = [p(0, 0, 0), p(4, 0, 0), p(0, 4, 0)];
/// let q = PointCcd::vertex_face(
///     [p(1, 1, 4), tri[0].clone(), tri[1].clone(), tri[2].clone()],
///     [p(1, 1, -4), tri[0].clone(), tri[1].clone(), tri[2].clone()],
/// );
/// let one = BigRational::from_integer(1.into());
/// let PointCcdAnswer::Hit(t) = first_contact_min_distance(Kind::VertexFace, &q, &one).unwrap() else {
///     panic!()
/// };
/// assert_eq!(t.lo, BigRational::new(3.into(), 8.into()));
/// ```
pub fn first_contact_min_distance(
    kind: Kind,
    q: &PointCcd,
    min_distance: &BigRational,
) -> Result<PointCcdAnswer, QueryError> {
    check_delta(min_distance)?;
    if min_distance.is_zero() {
        return super::first_contact(kind, q);
    }
    let m = level(&q.tolerance)?;
    if let Some(p) = super::as_f64(q) {
        return Ok(answer_f64(kind, &p, m, min_distance));
    }
    CCD_POINTS.fallback();
    let full = [(BigRational::zero(), BigRational::one(), None)];
    Ok(exact_ranges(
        kind,
        &rational_points(q),
        min_distance,
        m,
        &full,
        None,
    ))
}

/// [`first_contact_min_distance`] for points given as doubles (rows `t0`
/// then `t1`); δ = 0 is [`super::first_contact_f64`] itself.
///
/// Errors: a coordinate that is not finite, a tolerance that is not positive,
/// a negative δ.
pub fn first_contact_min_distance_f64(
    kind: Kind,
    points: &[[f64; 3]; 8],
    tolerance: &BigRational,
    min_distance: &BigRational,
) -> Result<PointCcdAnswer, QueryError> {
    check_delta(min_distance)?;
    if min_distance.is_zero() {
        return super::first_contact_f64(kind, points, tolerance);
    }
    let m = level(tolerance)?;
    if !points.iter().flatten().all(|x| x.is_finite()) {
        return Err(QueryError::Unsupported(
            "ccd points: a coordinate is not finite".into(),
        ));
    }
    Ok(answer_f64(kind, points, m, min_distance))
}

/// The exact method alone on [0, 1] (no filter), δ > 0: the reference the
/// filter is tested against. Same answers as [`first_contact_min_distance`].
///
/// Errors: δ not positive, a tolerance that is not positive.
pub fn exact_min_distance(
    kind: Kind,
    q: &PointCcd,
    min_distance: &BigRational,
) -> Result<PointCcdAnswer, QueryError> {
    if !min_distance.is_positive() {
        return Err(QueryError::Unsupported(
            "min_distance: the exact method alone needs δ > 0".into(),
        ));
    }
    let m = level(&q.tolerance)?;
    let full = [(BigRational::zero(), BigRational::one(), None)];
    Ok(exact_ranges(
        kind,
        &rational_points(q),
        min_distance,
        m,
        &full,
        None,
    ))
}

/// What the float filter decides for δ > 0.
#[derive(Clone, Debug, PartialEq)]
pub enum MinSepFilter {
    /// Proven: the distance exceeds δ at every time of [0, 1].
    Miss,
    /// Proven: the distance is at most δ at t = 0.
    Start,
    /// Not decided: the time intervals (ends as doubles) where the earliest
    /// time can be, in order.
    Undecided(Vec<(f64, f64)>),
}

/// The float filter alone (δ > 0; `None` for δ ≤ 0, a coordinate that is not
/// finite or above 2¹⁰⁰): what interval arithmetic proves. Counts nothing.
pub fn filter_min_distance(
    kind: Kind,
    points: &[[f64; 3]; 8],
    min_distance: &BigRational,
) -> Option<MinSepFilter> {
    if !min_distance.is_positive() {
        return None;
    }
    let f = FloatDelta::new(min_distance);
    run_filter(kind, points, &f)
}

/// δ and δ² as outward-rounded intervals.
struct FloatDelta {
    d: Interval,
    d2: Interval,
}

impl FloatDelta {
    fn new(delta: &BigRational) -> FloatDelta {
        // Numerator and denominator exact as doubles: one rounding in the
        // quotient, two ulps each way cover it; δ² from it in intervals.
        let (n, dn) = (delta.numer().to_u64(), delta.denom().to_u64());
        if let (Some(n), Some(dn)) = (n, dn) {
            if n < 1 << 53 && dn < 1 << 53 {
                let v = n as f64 / dn as f64;
                let d = Interval {
                    lo: v.next_down().next_down().max(0.0),
                    hi: v.next_up().next_up(),
                };
                return FloatDelta { d, d2: d.mul(&d) };
            }
        }
        // A dyadic δ = n/2ᵏ with n < 2⁶⁴ (a double's exact value): n and n²
        // rounded once to doubles (u128 → f64 rounds to nearest), scaled by
        // 2⁻ᵏ and 2⁻²ᵏ exactly while the results are normal; two ulps each
        // way cover the rounding.
        if let (Some(n), Some(k)) = (delta.numer().to_u64(), super::pow2_exp(delta.denom())) {
            let widen = |v: f64| Interval {
                lo: v.next_down().next_down().max(0.0),
                hi: v.next_up().next_up(),
            };
            if n > 0 && k <= 500 {
                let scale = f64::from_bits((1023 - k) << 52); // 2⁻ᵏ, normal for k ≤ 1022
                let v = n as f64 * scale;
                let v2 = (u128::from(n) * u128::from(n)) as f64 * scale * scale;
                if v.is_normal() && v2.is_normal() {
                    return FloatDelta {
                        d: widen(v),
                        d2: widen(v2),
                    };
                }
            }
        }
        let around = |x: &BigRational| {
            let v = x.to_f64().unwrap_or(f64::NAN);
            if v.is_nan() {
                return Interval::WHOLE;
            }
            // Two ulps each way: more than the conversion's rounding.
            let lo = v.next_down().next_down().max(0.0);
            let hi = v.next_up().next_up();
            Interval { lo, hi }
        };
        // δ in lowest terms squared is in lowest terms: no gcd needed.
        let d2 = BigRational::new_raw(delta.numer() * delta.numer(), delta.denom() * delta.denom());
        FloatDelta {
            d: around(delta),
            d2: around(&d2),
        }
    }
}

fn run_filter(kind: Kind, p: &[[f64; 3]; 8], f: &FloatDelta) -> Option<MinSepFilter> {
    if !p.iter().flatten().all(|x| x.abs() <= filter::MAX_COORD) {
        return None;
    }
    if holds_interval(kind, p, f, 0.0, 0.0) == Some(true) {
        return Some(MinSepFilter::Start);
    }
    let mut out = Vec::new();
    undecided(kind, p, f, 0.0, 1.0, 0, &mut out);
    if out.is_empty() {
        Some(MinSepFilter::Miss)
    } else {
        Some(MinSepFilter::Undecided(out))
    }
}

/// The L∞ boxes of the two primitives over the time interval are more than δ
/// apart along some axis (then so is every pair of their points).
fn boxes_apart(kind: Kind, f: &[V3<Interval>; 3], d: &Interval) -> bool {
    let [a, b, c] = f;
    // The points of each primitive in the frame, and whether the base point
    // (0) is one of them: vf the vertex C and the triangle 0, A, B; ee the
    // segments 0A and BC.
    let (first, zero_first, second, zero_second): (&[&V3<Interval>], bool, &[&V3<Interval>], bool) =
        match kind {
            Kind::VertexFace => (&[c], false, &[a, b], true),
            Kind::EdgeEdge => (&[a], true, &[b, c], false),
        };
    (0..3).any(|i| {
        let span = |v: &[&V3<Interval>], z: bool| {
            let init = if z {
                (0.0, 0.0)
            } else {
                (f64::INFINITY, f64::NEG_INFINITY)
            };
            v.iter()
                .fold(init, |(lo, hi), x| (x[i].lo.min(lo), x[i].hi.max(hi)))
        };
        let (l1, h1) = span(first, zero_first);
        let (l2, h2) = span(second, zero_second);
        let gap = |x: f64, y: f64| Interval::point(x).sub(&Interval::point(y)).sub(d);
        Cond::Gt.on_interval(&gap(l2, h1)) == Some(true)
            || Cond::Gt.on_interval(&gap(l1, h2)) == Some(true)
    })
}

/// The condition over the time interval [l, h]: `Some(b)` when it is `b` at
/// every time of it (`Some(true)`: some piece holds throughout).
fn holds_interval(kind: Kind, p: &[[f64; 3]; 8], f: &FloatDelta, l: f64, h: f64) -> Option<bool> {
    let fr = filter::interval_frame(kind, p, l, h);
    if boxes_apart(kind, &fr, &f.d) {
        return Some(false);
    }
    let one = Interval::point(1.0);
    let mut all_false = true;
    for i in 0..piece_count(kind) {
        let pc = piece(kind, &fr, &f.d2, &one, i);
        let mut all_true = true;
        let mut false_somewhere = false;
        for (x, c) in &pc {
            match c.on_interval(x) {
                Some(false) => {
                    false_somewhere = true;
                    break;
                }
                Some(true) => {}
                None => all_true = false,
            }
        }
        if !false_somewhere && all_true {
            return Some(true);
        }
        all_false &= false_somewhere;
    }
    all_false.then_some(false)
}

/// The pieces of [lo, hi] not proven free of contact, bisected to [`DEPTH`]
/// levels, adjacent ones merged, appended to `out`; stops (returns `true`) at
/// the first on which the condition is proven to hold throughout.
fn undecided(
    kind: Kind,
    p: &[[f64; 3]; 8],
    f: &FloatDelta,
    lo: f64,
    hi: f64,
    depth: u32,
    out: &mut Vec<(f64, f64)>,
) -> bool {
    let push = |out: &mut Vec<(f64, f64)>| match out.last_mut() {
        Some(last) if last.1 == lo => last.1 = hi,
        _ => out.push((lo, hi)),
    };
    match holds_interval(kind, p, f, lo, hi) {
        Some(false) => false,
        Some(true) => {
            push(out);
            true
        }
        None if depth >= DEPTH => {
            push(out);
            false
        }
        None => {
            let mid = 0.5 * (lo + hi);
            undecided(kind, p, f, lo, mid, depth + 1, out)
                || undecided(kind, p, f, mid, hi, depth + 1, out)
        }
    }
}

fn answer_f64(kind: Kind, p: &[[f64; 3]; 8], m: u32, delta: &BigRational) -> PointCcdAnswer {
    let f = FloatDelta::new(delta);
    let ranges: Vec<Range> = match run_filter(kind, p, &f) {
        Some(MinSepFilter::Miss) => {
            CCD_POINTS.fast();
            return PointCcdAnswer::Miss;
        }
        Some(MinSepFilter::Start) => {
            CCD_POINTS.fast();
            return PointCcdAnswer::Hit(ContactTime::at_start());
        }
        Some(MinSepFilter::Undecided(v)) => v
            .iter()
            .map(|&(a, b)| (filter::rational(a), filter::rational(b), Some((a, b))))
            .collect(),
        None => vec![(BigRational::zero(), BigRational::one(), None)],
    };
    CCD_POINTS.fallback();
    let pts = p.map(|r| r.map(filter::rational));
    exact_ranges(kind, &pts, delta, m, &ranges, Some((p, &f)))
}

fn rational_points(q: &PointCcd) -> [[BigRational; 3]; 8] {
    std::array::from_fn(|k| {
        let v = if k < 4 { &q.t0[k] } else { &q.t1[k - 4] };
        [0, 1, 2].map(|i| v.get(i).clone())
    })
}

/// The coordinates and δ as integers on one scale (times the common
/// denominator: a positive factor changes no comparison of distances).
fn integer_scale(pts: &[[BigRational; 3]; 8], delta: &BigRational) -> ([[BigInt; 3]; 8], BigInt) {
    let all = pts.iter().flatten().chain(std::iter::once(delta));
    let pow2 = |d: &BigInt| d.trailing_zeros().is_some_and(|z| d.bits() == z + 1);
    let l = if all.clone().all(|x| pow2(x.denom())) {
        all.map(|x| x.denom())
            .max()
            .cloned()
            .unwrap_or_else(BigInt::one)
    } else {
        all.fold(BigInt::one(), |l, x| l.lcm(x.denom()))
    };
    let int = |x: &BigRational| x.numer() * (&l / x.denom());
    (pts.clone().map(|r| r.map(|x| int(&x))), int(delta))
}

/// A time range: exact ends, and the same as doubles when they are.
type Range = (BigRational, BigRational, Option<(f64, f64)>);

/// The exact method on the time ranges (in order; the earliest time is in
/// the first that holds a point of S). With `doubles` (the points as doubles
/// and δ as intervals), a piece that interval arithmetic proves false on a
/// whole range is not searched there.
fn exact_ranges(
    kind: Kind,
    pts: &[[BigRational; 3]; 8],
    delta: &BigRational,
    m: u32,
    ranges: &[Range],
    doubles: Option<(&[[f64; 3]; 8], &FloatDelta)>,
) -> PointCcdAnswer {
    let (x, d) = integer_scale(pts, delta);
    let frame = frame_polys(kind, &x);
    let num = Zp(vec![&d * &d]);
    let den = Zp(vec![BigInt::one()]);
    // Each piece's integer polynomials, built when a range first needs them.
    let mut built: Vec<Option<Piece<Zp>>> = vec![None; piece_count(kind)];
    for (lo, hi, f) in ranges {
        // Per piece: `None` when interval arithmetic proves a condition false
        // on the whole range; else which conditions to search (one proven
        // true with a sign that excludes zero has no root on the range and
        // holds at every candidate: it is left out).
        let keep: Vec<Option<Vec<bool>>> = match (f, doubles) {
            (Some((a, b)), Some((p, fd))) => {
                let fr = filter::interval_frame(kind, p, *a, *b);
                let one = Interval::point(1.0);
                (0..piece_count(kind))
                    .map(|i| {
                        let pc = piece(kind, &fr, &fd.d2, &one, i);
                        if pc.iter().any(|(v, c)| c.on_interval(v) == Some(false)) {
                            return None;
                        }
                        Some(pc.iter().map(|(v, c)| !strictly_true(*c, v)).collect())
                    })
                    .collect()
            }
            // Every piece, every condition.
            _ => vec![Some(Vec::new()); piece_count(kind)],
        };
        let mut live: Vec<Vec<&(Zp, Cond)>> = Vec::new();
        for (i, k) in keep.iter().enumerate() {
            if k.is_some() && built[i].is_none() {
                built[i] = Some(piece(kind, &frame, &num, &den, i));
            }
        }
        for (k, pc) in keep.iter().zip(&built) {
            let (Some(k), Some(pc)) = (k, pc) else {
                continue;
            };
            live.push(
                pc.iter()
                    .enumerate()
                    .filter(|(j, _)| k.get(*j).copied().unwrap_or(true))
                    .map(|(_, x)| x)
                    .collect(),
            );
        }
        if let Some(x) = earliest(&live, lo, hi) {
            return PointCcdAnswer::Hit(report(x, m));
        }
    }
    PointCcdAnswer::Miss
}

/// The condition holds at every value of `x` and `x` excludes zero (so its
/// exact polynomial has no root where `x` encloses it).
fn strictly_true(c: Cond, x: &Interval) -> bool {
    c.on_interval(x) == Some(true) && (x.lo > 0.0 || x.hi < 0.0)
}

fn report(x: RealRoot, m: u32) -> ContactTime {
    match x {
        RealRoot::Exact(q) if q.is_zero() => ContactTime::at_start(),
        RealRoot::Exact(q) => exact_time(&q),
        RealRoot::Interval(i) => {
            let f = i.coeffs().to_vec();
            if let Some(q) = rational_quadratic_root(&f, i.lo(), i.hi()) {
                return exact_time(&q);
            }
            canonical_time(&f, RealRoot::Interval(i), m)
        }
    }
}

/// The root in (lo, hi) of the quadratic `f` (ascending), if it is rational:
/// the discriminant is a perfect square.
fn rational_quadratic_root(
    f: &[BigInt],
    lo: &BigRational,
    hi: &BigRational,
) -> Option<BigRational> {
    let [c, b, a] = f else {
        return None;
    };
    let disc: BigInt = b * b - ((a * c) << 2u32);
    if disc.is_negative() {
        return None;
    }
    let r = disc.sqrt();
    if &r * &r != disc {
        return None;
    }
    let two_a = a << 1u32;
    [-b - &r, -b + &r]
        .into_iter()
        .map(|n| BigRational::new(n, two_a.clone()))
        .find(|x| x > lo && x < hi)
}

/// The least time of [lo, hi] at which some piece holds (module docs).
fn earliest(pieces: &[Vec<&(Zp, Cond)>], lo: &BigRational, hi: &BigRational) -> Option<RealRoot> {
    let mut best: Option<(RealRoot, RealRoot)> = None;
    for pc in pieces {
        if let Some(x) = piece_first(pc, lo, hi, best.as_ref().map(|b| &b.1)) {
            best = Some(x);
        }
    }
    best.map(|b| b.0)
}

/// The sign of `g` at `x` (a root of the primitive square-free `f` when an
/// interval).
fn sign_at(x: &mut RealRoot, f: &[BigInt], g: &[BigInt]) -> Ordering {
    match g.len() {
        0 => Ordering::Equal,
        1 => g[0].sign().into_ordering(),
        _ => sign_at_root(x, f, g),
    }
}

trait IntoOrdering {
    fn into_ordering(self) -> Ordering;
}

impl IntoOrdering for num_bigint::Sign {
    fn into_ordering(self) -> Ordering {
        match self {
            num_bigint::Sign::Minus => Ordering::Less,
            num_bigint::Sign::NoSign => Ordering::Equal,
            num_bigint::Sign::Plus => Ordering::Greater,
        }
    }
}

/// The least time of [lo, hi] below `bound` (strictly) at which the piece
/// holds: the root as isolated (what is reported) and the same root with a
/// narrower enclosure (what is compared).
///
/// The candidates are put in exact order on narrowed copies of their
/// enclosures (one refinement step each, which starts with a float-guided
/// jump): roots of different polynomials isolated on the same range have
/// overlapping enclosures, and comparing those costs a polynomial gcd per
/// comparison; narrowed ones are mostly disjoint. The order is the exact
/// order either way, and the reported root keeps its isolating enclosure.
fn piece_first(
    pc: &[&(Zp, Cond)],
    lo: &BigRational,
    hi: &BigRational,
    bound: Option<&RealRoot>,
) -> Option<(RealRoot, RealRoot)> {
    // A constant condition that fails: never.
    for (p, c) in pc {
        if p.0.len() <= 1 {
            let s =
                p.0.first()
                    .map_or(Ordering::Equal, |x| x.sign().into_ordering());
            if !c.holds(s) {
                return None;
            }
        }
    }
    let mut cands: Vec<RealRoot> = vec![RealRoot::Exact(lo.clone())];
    for (p, _) in pc {
        if p.0.len() >= 2 {
            if let Roots::Isolated(r) = isolate_roots(&Poly::from_bigints(&p.0), lo, hi) {
                cands.extend(r.into_iter().map(|r| r.value));
            }
        }
    }
    let narrow = cands
        .iter()
        .filter(|x| matches!(x, RealRoot::Interval(_)))
        .count()
        >= 2;
    let mut cands: Vec<(RealRoot, RealRoot)> = cands
        .into_iter()
        .map(|x| {
            let mut key = x.clone();
            if narrow {
                key.refine_step();
            }
            (x, key)
        })
        .collect();
    cands.sort_by(|a, b| a.1.cmp_exact(&b.1));
    for (x, mut key) in cands {
        if bound.is_some_and(|b| key.cmp_exact(b) != Ordering::Less) {
            return None;
        }
        let f: Vec<BigInt> = match &key {
            RealRoot::Interval(i) => i.coeffs().to_vec(),
            RealRoot::Exact(_) => Vec::new(),
        };
        if pc.iter().all(|(p, c)| c.holds(sign_at(&mut key, &f, &p.0))) {
            return Some((x, key));
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn r(n: i64, d: i64) -> BigRational {
        BigRational::new(n.into(), d.into())
    }

    /// Each piece's polynomials, at rational times, agree with the same
    /// quantities evaluated directly in rationals (the Zp and the rational
    /// arithmetic give one formula).
    #[test]
    fn exact_pieces_match_rational_evaluation() {
        let pts: [[i64; 3]; 8] = [
            [1, 2, 3],
            [-2, 0, 1],
            [3, -1, 0],
            [0, 4, -2],
            [2, -3, 1],
            [0, 1, 5],
            [-1, 2, 2],
            [4, 0, -3],
        ];
        let x = pts.map(|p| p.map(BigInt::from));
        for kind in [Kind::VertexFace, Kind::EdgeEdge] {
            let frame = frame_polys(kind, &x);
            let num = Zp(vec![BigInt::from(7)]);
            let den = Zp(vec![BigInt::from(3)]);
            for t in [r(0, 1), r(1, 3), r(5, 7), r(1, 1)] {
                // The frame at t in rationals, as single-coefficient polynomials
                // scaled by the denominators is awkward; compare through Q.
                let (base, idx) = kind.frame();
                let at = |k: usize, i: usize| {
                    let p0 = BigRational::from_integer(x[k][i].clone());
                    let p1 = BigRational::from_integer(x[4 + k][i].clone());
                    &p0 + &t * (&p1 - &p0)
                };
                let fq: [V3<Q>; 3] = idx.map(|j| [0, 1, 2].map(|i| Q(at(j, i) - at(base, i))));
                let nq = Q(r(7, 1));
                let dq = Q(r(3, 1));
                for i in 0..piece_count(kind) {
                    let pz = piece(kind, &frame, &num, &den, i);
                    let pq = piece(kind, &fq, &nq, &dq, i);
                    for ((z, c1), (q, c2)) in pz.iter().zip(&pq) {
                        assert_eq!(c1, c2);
                        assert_eq!(
                            crate::poly::zx::value_at(&z.0, &t),
                            q.0,
                            "{kind:?} piece {i}"
                        );
                    }
                }
            }
        }
    }

    #[derive(Clone, Debug)]
    struct Q(BigRational);

    impl Arith for Q {
        fn add(&self, o: &Self) -> Self {
            Q(&self.0 + &o.0)
        }
        fn sub(&self, o: &Self) -> Self {
            Q(&self.0 - &o.0)
        }
        fn mul(&self, o: &Self) -> Self {
            Q(&self.0 * &o.0)
        }
        fn neg(&self) -> Self {
            Q(-&self.0)
        }
    }

    /// δ and δ² as intervals enclose the exact values, for every form of δ
    /// (small fractions, doubles' exact values, other rationals), checked in
    /// rationals.
    #[test]
    fn float_delta_encloses() {
        let q = |x: f64| BigRational::from_float(x).unwrap();
        let mut ds = vec![r(1, 64), r(1, 3), r(7, 10_000), r(100, 1), r(1, 1)];
        for x in [
            1e-4,
            9.793271032591599e-06,
            0.3,
            1.7,
            2.5e-200,
            3.0e100,
            1e-300,
        ] {
            ds.push(q(x));
        }
        ds.push(BigRational::new(
            BigInt::from(u64::MAX),
            BigInt::one() << 70u32,
        ));
        ds.push(BigRational::new(BigInt::one() << 80u32, BigInt::from(3)));
        for d in ds {
            let f = FloatDelta::new(&d);
            let d2 = &d * &d;
            for (x, iv) in [(&d, f.d), (&d2, f.d2)] {
                assert!(iv.lo <= iv.hi, "{d}");
                let inside = (iv.lo == f64::NEG_INFINITY || q(iv.lo) <= *x)
                    && (iv.hi == f64::INFINITY || *x <= q(iv.hi));
                assert!(inside, "δ = {d}: {x} not in [{}, {}]", iv.lo, iv.hi);
            }
        }
    }

    /// A condition is strictly true on an interval only when it holds there
    /// and the interval excludes zero (its polynomial has no root there).
    #[test]
    fn strictly_true_conditions() {
        let iv = |lo: f64, hi: f64| Interval { lo, hi };
        assert!(strictly_true(Cond::Le, &iv(-2.0, -1e-300)));
        assert!(!strictly_true(Cond::Le, &iv(-2.0, 0.0)));
        assert!(strictly_true(Cond::Ge, &iv(1e-300, 2.0)));
        assert!(!strictly_true(Cond::Ge, &iv(0.0, 2.0)));
        assert!(!strictly_true(Cond::Ge, &iv(-1.0, 2.0)));
        assert!(strictly_true(Cond::Gt, &iv(1.0, 2.0)));
        assert!(!strictly_true(Cond::Gt, &iv(f64::NAN, 2.0)));
        assert!(!strictly_true(Cond::Le, &iv(1.0, 2.0)));
    }

    /// The interval conditions decide only when every value agrees.
    #[test]
    fn interval_conditions() {
        let iv = |lo: f64, hi: f64| Interval { lo, hi };
        assert_eq!(Cond::Le.on_interval(&iv(-1.0, 0.0)), Some(true));
        assert_eq!(Cond::Le.on_interval(&iv(-1.0, 1e-300)), None);
        assert_eq!(Cond::Le.on_interval(&iv(1e-300, 1.0)), Some(false));
        assert_eq!(Cond::Ge.on_interval(&iv(0.0, 1.0)), Some(true));
        assert_eq!(Cond::Ge.on_interval(&iv(-1.0, -1e-300)), Some(false));
        assert_eq!(Cond::Gt.on_interval(&iv(0.0, 1.0)), None);
        assert_eq!(Cond::Gt.on_interval(&iv(-1.0, 0.0)), Some(false));
        assert_eq!(Cond::Gt.on_interval(&iv(f64::NAN, 1.0)), None);
    }
}
