//! `ccd_vf` / `ccd_ee` with a minimum separation δ (`min_distance`), checked
//! against an independent exact distance: the squared distance between the
//! vertex and the closed triangle (between the two closed segments) at a
//! rational time, by enumerating candidate closest points in rationals (the
//! vertices, each edge's clamped projection, the face's projection when its
//! barycentric coordinates, solved from the Gram system, are in the triangle;
//! for segments the four end-point projections and the interior pair of the
//! two lines when both parameters are in [0, 1]). Each candidate is a point of
//! the primitive, and the closest point is one of them, so the least is the
//! distance; nothing of the method under test (its pieces, its polynomials)
//! is used.
//!
//! For every answer: a `start` has distance ≤ δ at 0; an exact time has
//! distance ≤ δ there; a root time's certificate verifies, the distance is > δ
//! at the interval's lower end and ≤ δ at the upper end of its enclosure
//! refined to 2⁻⁸⁰ (transversal crossings: the condition holds just after the
//! time); at many rational times before the time the distance is > δ; for a
//! miss at 257 rational times of [0, 1]. The float filter's proof of a miss is
//! checked by the same samples, and its answers are compared with the exact
//! method alone. A larger δ never gives a later time nor turns a hit into a
//! miss.

use exact_collision::ccd::points::{
    exact_min_distance, filter_min_distance, first_contact, first_contact_f64,
    first_contact_min_distance, first_contact_min_distance_f64, Kind, MinSepFilter,
};
use exact_collision::ccd::step::cmp_time;
use exact_collision::ccd::{PointCcd, PointCcdAnswer, TimeKind};
use exact_collision::poly::RealRoot;
use exact_collision::Vec3;
use num_bigint::BigInt;
use num_rational::BigRational;
use num_traits::{One, Signed, ToPrimitive, Zero};
use std::cmp::Ordering;

type Q = BigRational;
type P = [Q; 3];

fn q(n: i64, d: i64) -> Q {
    Q::new(n.into(), d.into())
}

fn sub(a: &P, b: &P) -> P {
    [&a[0] - &b[0], &a[1] - &b[1], &a[2] - &b[2]]
}

fn add_scaled(a: &P, s: &Q, e: &P) -> P {
    [&a[0] + s * &e[0], &a[1] + s * &e[1], &a[2] + s * &e[2]]
}

fn dot(a: &P, b: &P) -> Q {
    &a[0] * &b[0] + &a[1] * &b[1] + &a[2] * &b[2]
}

fn d2(a: &P, b: &P) -> Q {
    let d = sub(a, b);
    dot(&d, &d)
}

/// Squared distance from x to the closed segment ab.
fn point_segment(x: &P, a: &P, b: &P) -> Q {
    let e = sub(b, a);
    let ee = dot(&e, &e);
    if ee.is_zero() {
        return d2(x, a);
    }
    let s = dot(&sub(x, a), &e) / &ee;
    let s = s.clamp(Q::zero(), Q::one());
    d2(x, &add_scaled(a, &s, &e))
}

/// Solves [[g11, g12], [g12, g22]]·(u, v) = (r1, r2); `None` if singular.
fn solve2(g11: &Q, g12: &Q, g22: &Q, r1: &Q, r2: &Q) -> Option<(Q, Q)> {
    let det = g11 * g22 - g12 * g12;
    if det.is_zero() {
        return None;
    }
    Some(((r1 * g22 - g12 * r2) / &det, (g11 * r2 - g12 * r1) / &det))
}

/// Squared distance from x to the closed triangle abc.
fn point_triangle(x: &P, a: &P, b: &P, c: &P) -> Q {
    let mut best = point_segment(x, a, b)
        .min(point_segment(x, b, c))
        .min(point_segment(x, c, a));
    let (e1, e2, w) = (sub(b, a), sub(c, a), sub(x, a));
    if let Some((u, v)) = solve2(
        &dot(&e1, &e1),
        &dot(&e1, &e2),
        &dot(&e2, &e2),
        &dot(&w, &e1),
        &dot(&w, &e2),
    ) {
        if !u.is_negative() && !v.is_negative() && &u + &v <= Q::one() {
            let p = add_scaled(&add_scaled(a, &u, &e1), &v, &e2);
            best = best.min(d2(x, &p));
        }
    }
    best
}

/// Squared distance between the closed segments a0a1 and b0b1.
fn segment_segment(a0: &P, a1: &P, b0: &P, b1: &P) -> Q {
    let mut best = point_segment(a0, b0, b1)
        .min(point_segment(a1, b0, b1))
        .min(point_segment(b0, a0, a1))
        .min(point_segment(b1, a0, a1));
    let (u, v, w) = (sub(a1, a0), sub(b1, b0), sub(b0, a0));
    // a0 + s·u − (b0 + t·v) ⟂ u, v: [u·u, −u·v; u·v, −v·v](s, t) = (w·u, w·v).
    let uu = dot(&u, &u);
    let uv = dot(&u, &v);
    let vv = dot(&v, &v);
    let (wu, wv) = (dot(&w, &u), dot(&w, &v));
    // With t' = −t the system is symmetric: [uu, uv; uv, vv](s, t') = (wu, wv).
    if let Some((s, tn)) = solve2(&uu, &uv, &vv, &wu, &wv) {
        let t = -tn;
        let unit = |x: &Q| !x.is_negative() && *x <= Q::one();
        if unit(&s) && unit(&t) {
            best = best.min(d2(&add_scaled(a0, &s, &u), &add_scaled(b0, &t, &v)));
        }
    }
    best
}

/// The squared distance of the query's primitives at the rational time t.
fn dist2_at(kind: Kind, pts: &[P; 8], t: &Q) -> Q {
    let at = |k: usize| {
        let d = sub(&pts[4 + k], &pts[k]);
        add_scaled(&pts[k], t, &d)
    };
    match kind {
        Kind::VertexFace => point_triangle(&at(0), &at(1), &at(2), &at(3)),
        Kind::EdgeEdge => segment_segment(&at(0), &at(1), &at(2), &at(3)),
    }
}

fn points_of(qy: &PointCcd) -> [P; 8] {
    std::array::from_fn(|k| {
        let v = if k < 4 { &qy.t0[k] } else { &qy.t1[k - 4] };
        [0, 1, 2].map(|i| v.get(i).clone())
    })
}

fn query(p: &[[Q; 3]; 8]) -> PointCcd {
    let v = |k: usize| Vec3::new(p[k][0].clone(), p[k][1].clone(), p[k][2].clone());
    PointCcd {
        t0: [v(0), v(1), v(2), v(3)],
        t1: [v(4), v(5), v(6), v(7)],
        tolerance: q(1, 1_000_000_000),
    }
}

fn int_query(p: [[i64; 3]; 8]) -> PointCcd {
    query(&p.map(|r| r.map(|c| q(c, 1))))
}

/// The independent checks of one answer (module docs); returns the time as a
/// real root (`None` for a miss).
fn check(kind: Kind, qy: &PointCcd, delta: &Q, a: &PointCcdAnswer, what: &str) -> Option<RealRoot> {
    let pts = points_of(qy);
    let dd = delta * delta;
    let before = |t: &Q, what: &str| {
        // 64 rational times of [0, t), and t itself when it is before the time.
        for k in 0..64 {
            let s = t * q(k, 64);
            assert!(
                dist2_at(kind, &pts, &s) > dd,
                "{what}: within δ at {s} before the time"
            );
        }
    };
    match a {
        PointCcdAnswer::Miss => {
            for k in 0..=256 {
                let s = q(k, 256);
                assert!(
                    dist2_at(kind, &pts, &s) > dd,
                    "{what}: miss, but within δ at {s}"
                );
            }
            None
        }
        PointCcdAnswer::Hit(t) => {
            let x = t
                .to_real_root()
                .unwrap_or_else(|| panic!("{what}: certificate"));
            assert!(t.hi.clone() - t.lo.clone() <= qy.tolerance, "{what}: width");
            match t.kind {
                TimeKind::Start => {
                    assert!(t.lo.is_zero());
                    assert!(dist2_at(kind, &pts, &Q::zero()) <= dd, "{what}: start");
                }
                _ if t.lo == t.hi => {
                    assert!(
                        dist2_at(kind, &pts, &t.lo) <= dd,
                        "{what}: exact time {}",
                        t.lo
                    );
                    before(&t.lo, what);
                }
                _ => {
                    assert!(dist2_at(kind, &pts, &t.lo) > dd, "{what}: within δ at lo");
                    before(&t.lo, what);
                    let mut r = x.clone();
                    r.refine_to_width(&Q::new(BigInt::one(), BigInt::one() << 80u32));
                    let hi = r.hi().clone();
                    assert!(
                        dist2_at(kind, &pts, &hi) <= dd,
                        "{what}: not within δ just after the root"
                    );
                }
            }
            Some(x)
        }
    }
}

fn splitmix(s: &mut u64) -> u64 {
    *s = s.wrapping_add(0x9e3779b97f4a7c15);
    let mut z = *s;
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58476d1ce4e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d049bb133111eb);
    z ^ (z >> 31)
}

/// Random queries in quarters of [−4, 4], with the moving primitive sent
/// across the other so that many come close.
fn random_query(s: &mut u64) -> [[f64; 3]; 8] {
    let mut c = || (splitmix(s) % 33) as f64 / 4.0 - 4.0;
    let mut p = [[0.0; 3]; 8];
    for row in p.iter_mut().take(4) {
        *row = [c(), c(), c()];
    }
    for k in 0..4 {
        p[4 + k] = [
            p[k][0] + c() / 2.0,
            p[k][1] + c() / 2.0,
            p[k][2] + c() / 2.0,
        ];
    }
    // The first point (the vertex, or edge a) crosses to the other side.
    let flip = splitmix(s) % 2 == 0;
    if flip {
        for k in 0..2 {
            p[4 + k][2] = -p[k][2];
        }
    }
    p
}

fn to_rational(p: &[[f64; 3]; 8]) -> [[Q; 3]; 8] {
    p.map(|r| r.map(|x| Q::from_float(x).unwrap()))
}

fn deltas() -> Vec<Q> {
    // δ below, around and (100) far above the primitives' size.
    vec![q(1, 64), q(1, 8), q(1, 2), q(3, 2), q(100, 1)]
}

/// The times for increasing δ never increase, and a hit stays a hit.
fn check_monotone(times: &[Option<exact_collision::ccd::ContactTime>], what: &str) {
    for w in times.windows(2) {
        match (&w[0], &w[1]) {
            (Some(_), None) => panic!("{what}: a larger δ turned a hit into a miss"),
            (Some(a), Some(b)) => assert_ne!(
                cmp_time(b, a),
                Some(Ordering::Greater),
                "{what}: a larger δ gave a later time"
            ),
            _ => {}
        }
    }
}

fn hit_time(a: &PointCcdAnswer) -> Option<exact_collision::ccd::ContactTime> {
    match a {
        PointCcdAnswer::Hit(t) => Some(t.clone()),
        PointCcdAnswer::Miss => None,
    }
}

#[test]
fn random_queries_against_the_independent_distance() {
    let mut s = 0x5eed_0001u64;
    let (mut hits, mut misses, mut roots, mut filter_misses) = (0, 0, 0, 0);
    for i in 0..70 {
        let p = random_query(&mut s);
        let qy = query(&to_rational(&p));
        for kind in [Kind::VertexFace, Kind::EdgeEdge] {
            let mut times = Vec::new();
            for delta in deltas() {
                let what = format!("#{i} {kind:?} δ = {delta}");
                let a = first_contact_min_distance_f64(kind, &p, &qy.tolerance, &delta).unwrap();
                // The rational path, the exact method alone: the same answer.
                assert_eq!(
                    a,
                    first_contact_min_distance(kind, &qy, &delta).unwrap(),
                    "{what}"
                );
                assert_eq!(a, exact_min_distance(kind, &qy, &delta).unwrap(), "{what}");
                if let Some(MinSepFilter::Miss) = filter_min_distance(kind, &p, &delta) {
                    filter_misses += 1;
                    assert_eq!(a, PointCcdAnswer::Miss, "{what}: the filter's miss");
                }
                match check(kind, &qy, &delta, &a, &what) {
                    Some(RealRoot::Interval(_)) => {
                        hits += 1;
                        roots += 1
                    }
                    Some(_) => hits += 1,
                    None => misses += 1,
                }
                times.push(hit_time(&a));
            }
            check_monotone(&times, &format!("#{i} {kind:?}"));
        }
    }
    // The sample exercises every branch.
    eprintln!("hits {hits}, misses {misses}, roots {roots}, filter misses {filter_misses}");
    assert!(
        hits > 60 && misses > 60 && roots > 25 && filter_misses > 25,
        "hits {hits}, misses {misses}, roots {roots}, filter misses {filter_misses}"
    );
}

/// δ = 0 is today's method, answer for answer.
#[test]
fn zero_is_the_plain_method() {
    let mut s = 7u64;
    let zero = Q::zero();
    for _ in 0..200 {
        let p = random_query(&mut s);
        let qy = query(&to_rational(&p));
        for kind in [Kind::VertexFace, Kind::EdgeEdge] {
            assert_eq!(
                first_contact_min_distance_f64(kind, &p, &qy.tolerance, &zero).unwrap(),
                first_contact_f64(kind, &p, &qy.tolerance).unwrap()
            );
            assert_eq!(
                first_contact_min_distance(kind, &qy, &zero).unwrap(),
                first_contact(kind, &qy).unwrap()
            );
        }
    }
}

#[test]
fn negative_delta_is_an_error_naming_the_field() {
    let qy = int_query([[0; 3]; 8]);
    let e = first_contact_min_distance(Kind::VertexFace, &qy, &q(-1, 2)).unwrap_err();
    assert!(e.to_string().contains("min_distance"), "{e}");
}

fn exact_time(a: &PointCcdAnswer) -> Q {
    match a {
        PointCcdAnswer::Hit(t) if t.lo == t.hi => t.lo.clone(),
        other => panic!("expected an exact time, got {other:?}"),
    }
}

/// Hand-worked configurations, δ equal to the attained minimum among them.
#[test]
fn hand_worked_times() {
    let tri = [[0, 0, 0], [4, 0, 0], [0, 4, 0]];
    let vf = |v0: [i64; 3], v1: [i64; 3]| {
        int_query([v0, tri[0], tri[1], tri[2], v1, tri[0], tri[1], tri[2]])
    };
    let k = Kind::VertexFace;
    // Falling onto the face: z = 4 − 8t reaches 1 at t = 3/8.
    let a = vf([1, 1, 4], [1, 1, -4]);
    assert_eq!(
        exact_time(&first_contact_min_distance(k, &a, &q(1, 1)).unwrap()),
        q(3, 8)
    );
    // Sliding at height 1 from x = −4 to 4 (y = 1): the distance is
    // √(x² + 1) while x < 0 (to the edge x = 0) and 1 over the face: exactly
    // δ = 1 first at x = 0, t = 1/2; never within 1 − 1/1000.
    let b = vf([-4, 1, 1], [4, 1, 1]);
    assert_eq!(
        exact_time(&first_contact_min_distance(k, &b, &q(1, 1)).unwrap()),
        q(1, 2)
    );
    let a2 = first_contact_min_distance(k, &b, &q(999, 1000)).unwrap();
    assert_eq!(a2, PointCcdAnswer::Miss);
    check(k, &b, &q(999, 1000), &a2, "sliding, δ below");
    // Passing the vertex f0 = 0 at (−3, y, −4), y = −4 + 8t: distance² is
    // 25 + y² for y < 0, 25 to the edge x = 0 for y ∈ [0, 4]: δ = 5 exactly
    // at t = 1/2 (a double root of the sphere); δ = 501/100 at
    // y = −√1001/100, t = (4 − √1001/100)/8, irrational.
    let c = vf([-3, -4, -4], [-3, 4, -4]);
    assert_eq!(
        exact_time(&first_contact_min_distance(k, &c, &q(5, 1)).unwrap()),
        q(1, 2)
    );
    assert_eq!(
        first_contact_min_distance(k, &c, &q(4999, 1000)).unwrap(),
        PointCcdAnswer::Miss
    );
    let d = first_contact_min_distance(k, &c, &q(501, 100)).unwrap();
    let PointCcdAnswer::Hit(t) = &d else { panic!() };
    assert_eq!(t.kind, TimeKind::Root);
    let want = (4.0 - 1001f64.sqrt() / 100.0) / 8.0;
    assert!((t.f64 - want).abs() < 1e-15, "{} vs {want}", t.f64);
    check(k, &c, &q(501, 100), &d, "passing the vertex");
    // δ far above the primitives: from (1000, 0, 0) to the origin, the
    // closest point is the vertex (4, 0, 0) until inside: x − 4 = 100 at
    // x = 104, t = 896/1000.
    let e = vf([1000, 0, 0], [0, 0, 0]);
    assert_eq!(
        exact_time(&first_contact_min_distance(k, &e, &q(100, 1)).unwrap()),
        q(112, 125)
    );
    // Already within δ at the start.
    let f = first_contact_min_distance(k, &a, &q(5, 1)).unwrap();
    assert!(matches!(f, PointCcdAnswer::Hit(ref t) if t.kind == TimeKind::Start));

    let k = Kind::EdgeEdge;
    let seg = [[0, 0, 0], [4, 0, 0]];
    let ee = |b0: [i64; 3], b1: [i64; 3], c0: [i64; 3], c1: [i64; 3]| {
        int_query([seg[0], seg[1], b0, b1, seg[0], seg[1], c0, c1])
    };
    // Edge b over edge a at z = 3 − 4t: within 1 at t = 1/2.
    let g = ee([2, -2, 3], [2, 2, 3], [2, -2, -1], [2, 2, -1]);
    assert_eq!(
        exact_time(&first_contact_min_distance(k, &g, &q(1, 1)).unwrap()),
        q(1, 2)
    );
    // Edge b at height 1 sliding in x from −4 to 4: √(x² + 1) to a0 while
    // x < 0, then 1: δ = 1 exactly at t = 1/2; a miss just below.
    let h = ee([-4, -2, 1], [-4, 2, 1], [4, -2, 1], [4, 2, 1]);
    assert_eq!(
        exact_time(&first_contact_min_distance(k, &h, &q(1, 1)).unwrap()),
        q(1, 2)
    );
    assert_eq!(
        first_contact_min_distance(k, &h, &q(999, 1000)).unwrap(),
        PointCcdAnswer::Miss
    );
    // Parallel edges (b along x, 2 above, shifted from x ∈ [8, 12] to
    // [−8, −4]): the gap x-wise is 8 − 16t − 4 = 4 − 16t until they overlap
    // at t = 1/4; distance² = 4 + (4 − 16t)²; δ = √5·… take δ = 5/2:
    // (4 − 16t)² = 9/4, t = 5/32.
    let j = ee([8, 0, 2], [12, 0, 2], [-8, 0, 2], [-4, 0, 2]);
    assert_eq!(
        exact_time(&first_contact_min_distance(k, &j, &q(5, 2)).unwrap()),
        q(5, 32)
    );
    // δ far above the primitives: segments 1000 apart in y approaching to 0.
    let l = ee([0, 1000, 1], [4, 1000, 1], [0, 0, 1], [4, 0, 1]);
    // distance² = y² + 1 = 100² at y = √9999: irrational time.
    let m = first_contact_min_distance(k, &l, &q(100, 1)).unwrap();
    let PointCcdAnswer::Hit(t) = &m else { panic!() };
    assert!((t.f64 - (1000.0 - 9999f64.sqrt()) / 1000.0).abs() < 1e-15);
    check(k, &l, &q(100, 1), &m, "far segments");
}

/// Degenerate primitives: a triangle collapsed to a segment, to a point and
/// with collinear vertices; segments collapsed to a point and through
/// another's end point; every δ checked independently.
#[test]
fn degenerate_primitives() {
    let mut s = 99u64;
    for i in 0..60 {
        let mut p = random_query(&mut s);
        match i % 3 {
            0 => {
                // f2 = f1 all along (vf) / b1 = b0 (ee).
                p[3] = p[2];
                p[7] = p[6];
            }
            1 => {
                // f0 = f1 = f2 (vf) / b0 = b1 = a1 (ee).
                p[2] = p[1];
                p[3] = p[1];
                p[6] = p[5];
                p[7] = p[5];
            }
            _ => {
                // f2 on the line f0f1 (vf) / b's line through a1 (ee).
                for k in [0usize, 4] {
                    p[k + 3] = std::array::from_fn(|c| 2.0 * p[k + 2][c] - p[k + 1][c]);
                }
            }
        }
        let qy = query(&to_rational(&p));
        for kind in [Kind::VertexFace, Kind::EdgeEdge] {
            for delta in deltas() {
                let what = format!("degenerate #{i} {kind:?} δ = {delta}");
                let a = first_contact_min_distance_f64(kind, &p, &qy.tolerance, &delta).unwrap();
                assert_eq!(a, exact_min_distance(kind, &qy, &delta).unwrap(), "{what}");
                check(kind, &qy, &delta, &a, &what);
            }
        }
    }
}

/// Queries of the CCD benchmark's copy in tests/data (exact rational
/// coordinates), δ a fraction of each query's scale.
#[test]
fn benchmark_queries() {
    let mut n = 0;
    for (dir, kind) in [
        (
            "tests/data/ccd-benchmark/unit-tests/vertex-face",
            Kind::VertexFace,
        ),
        (
            "tests/data/ccd-benchmark/unit-tests/edge-edge",
            Kind::EdgeEdge,
        ),
        (
            "tests/data/ccd-benchmark/erleben-sliding-spike/vertex-face",
            Kind::VertexFace,
        ),
        (
            "tests/data/ccd-benchmark/erleben-sliding-spike/edge-edge",
            Kind::EdgeEdge,
        ),
    ] {
        let path = format!("{dir}/data_0_0.csv");
        let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
        let rows = exact_collision::ccd::bench_csv::read_rows(text.as_bytes()).unwrap();
        for (i, ch) in rows.chunks(8).enumerate().step_by(7).take(12) {
            let p: [[Q; 3]; 8] = std::array::from_fn(|k| ch[k].0.clone());
            let qy = query(&p);
            let scale = p
                .iter()
                .flatten()
                .map(|x| x.abs())
                .max()
                .unwrap_or_else(Q::one)
                .max(q(1, 1_000_000));
            let mut times = Vec::new();
            for f in [q(1, 10_000), q(1, 1000), q(1, 10), q(10, 1)] {
                let delta = &scale * &f;
                let what = format!("{path}#{i} δ = {delta}");
                let a = first_contact_min_distance(kind, &qy, &delta).unwrap();
                assert_eq!(a, exact_min_distance(kind, &qy, &delta).unwrap(), "{what}");
                check(kind, &qy, &delta, &a, &what);
                times.push(hit_time(&a));
                n += 1;
            }
            check_monotone(&times, &path);
        }
    }
    assert!(n >= 100, "{n}");
}

/// A hit's time agrees with the root of the distance condition found
/// another way: the f64 approximation of the time lies where the independent
/// distance crosses δ (bisection on rationals).
#[test]
fn times_agree_with_bisection_of_the_distance() {
    let mut s = 4242u64;
    let mut checked = 0;
    for _ in 0..80 {
        let p = random_query(&mut s);
        let qy = query(&to_rational(&p));
        let pts = points_of(&qy);
        for kind in [Kind::VertexFace, Kind::EdgeEdge] {
            let delta = q(1, 2);
            let a = first_contact_min_distance(kind, &qy, &delta).unwrap();
            let PointCcdAnswer::Hit(t) = a else { continue };
            if t.kind == TimeKind::Start {
                continue;
            }
            // The first sample time within δ, on a 1/4096 grid, brackets it.
            let dd = &delta * &delta;
            let first = (0..=4096).find(|&k| dist2_at(kind, &pts, &q(k, 4096)) <= dd);
            let Some(k) = first else {
                panic!("hit, but no grid time within δ (a touch shorter than the grid?)")
            };
            let lo = q(k - 1, 4096);
            let hi = q(k, 4096);
            let x = t.lo.to_f64().unwrap();
            assert!(
                lo <= t.hi && t.lo <= hi,
                "time {x} outside the grid bracket [{lo}, {hi}]"
            );
            checked += 1;
        }
    }
    assert!(checked > 20, "{checked}");
}

/// The protocol field: answered, its errors named, 0 the plain query byte
/// for byte (the lean path answers the line without the field).
#[test]
fn protocol_field() {
    use exact_collision::protocol::{answer_bytes, answer_line};
    let pts = r#""t0":[[1,1,4],[0,0,0],[4,0,0],[0,4,0]],"t1":[[1,1,-4],[0,0,0],[4,0,0],[0,4,0]]"#;
    let line = |extra: &str| format!(r#"{{"id":1,"op":"ccd_vf",{pts}{extra}}}"#);
    // z = 4 − 8t reaches 1 at t = 3/8, and 1/2 at t = 7/16.
    let a = answer_line(&line(r#","min_distance":1"#), 1);
    assert_eq!(a.value["toi"]["lo"], "3/8", "{}", a.value);
    let a = answer_line(&line(r#","min_distance":"1/2""#), 1);
    assert_eq!(a.value["toi"]["hi"], "7/16", "{}", a.value);
    for bad in [
        r#","min_distance":-0.5"#,
        r#","min_distance":"x""#,
        r#","min_distance":[1]"#,
    ] {
        let a = answer_line(&line(bad), 1);
        assert!(!a.ok);
        assert!(
            a.value["error"]
                .as_str()
                .unwrap()
                .starts_with("min_distance"),
            "{}",
            a.value
        );
    }
    for (zero, plain) in [
        (line(r#","min_distance":0"#), line("")),
        (line(r#","min_distance":"0/7""#), line("")),
    ] {
        let (mut z, mut p) = (Vec::new(), Vec::new());
        answer_bytes(zero.as_bytes(), 1, &mut z);
        answer_bytes(plain.as_bytes(), 1, &mut p);
        assert_eq!(String::from_utf8(z).unwrap(), String::from_utf8(p).unwrap());
    }
}

/// `step` with δ: a vertex falling onto a triangle (z = 1 − 2t) is within
/// 1/4 at t = 3/8; on a random triangle soup the step's colliding pairs are
/// exactly the pairs (not sharing a vertex) whose own query hits, so the
/// broad phase drops none, and its earliest is the least of their times.
#[test]
fn step_with_min_distance() {
    use exact_collision::ccd::step::{pair_points, step_min_distance, PairKind, StepMesh};
    let a = vec![
        [0.0, 0.0, 0.0],
        [1.0, 0.0, 0.0],
        [0.0, 1.0, 0.0],
        [0.25, 0.25, 1.0],
    ];
    let mut b = a.clone();
    b[3][2] = -1.0;
    let m = StepMesh::new(a, b, vec![[0, 1, 2]]).unwrap();
    let tol = q(1, 1_000_000);
    let ans = step_min_distance(&m, &tol, &q(1, 4), &|_| {}).unwrap();
    let e = ans.earliest().unwrap();
    assert_eq!((e.kind, e.a, e.b), (PairKind::VertexFace, 3, 0));
    assert_eq!(e.toi.lo, q(3, 8));

    let mut s = 31u64;
    for round in 0..3 {
        let n = 8;
        let mut c = || (splitmix(&mut s) % 41) as f64 / 8.0;
        let t0: Vec<[f64; 3]> = (0..3 * n).map(|_| [c(), c(), c()]).collect();
        let t1: Vec<[f64; 3]> = t0
            .iter()
            .map(|p| [p[0] + c() / 4.0 - 2.5 / 4.0, p[1], p[2] - c() / 4.0])
            .collect();
        let faces: Vec<[u32; 3]> = (0..n as u32)
            .map(|i| [3 * i, 3 * i + 1, 3 * i + 2])
            .collect();
        let m = StepMesh::new(t0, t1, faces).unwrap();
        let delta = q(1, 4);
        let ans = step_min_distance(&m, &tol, &delta, &|_| {}).unwrap();
        let mut want = Vec::new();
        for v in 0..m.vertex_count() as u32 {
            for (f, face) in m.faces.iter().enumerate() {
                if face.contains(&v) {
                    continue;
                }
                let p = pair_points(&m, PairKind::VertexFace, v, f as u32);
                if let PointCcdAnswer::Hit(_) =
                    first_contact_min_distance_f64(Kind::VertexFace, &p, &tol, &delta).unwrap()
                {
                    want.push((PairKind::VertexFace, v, f as u32));
                }
            }
        }
        for i in 0..m.edges.len() as u32 {
            for j in i + 1..m.edges.len() as u32 {
                let (ea, eb) = (m.edges[i as usize], m.edges[j as usize]);
                if ea.iter().any(|x| eb.contains(x)) {
                    continue;
                }
                let p = pair_points(&m, PairKind::EdgeEdge, i, j);
                if let PointCcdAnswer::Hit(_) =
                    first_contact_min_distance_f64(Kind::EdgeEdge, &p, &tol, &delta).unwrap()
                {
                    want.push((PairKind::EdgeEdge, i, j));
                }
            }
        }
        let got: Vec<_> = ans.collisions.iter().map(|c| (c.kind, c.a, c.b)).collect();
        assert_eq!(got, want, "round {round}");
        assert!(!want.is_empty(), "round {round}: no collision to check");
        let e = ans.earliest().unwrap();
        for c in &ans.collisions {
            assert_ne!(cmp_time(&c.toi, &e.toi), Some(Ordering::Less));
        }
    }
}

/// `ccd-csv --min-distance`: every query answered, no false negative against
/// the file's ground truth (a hit at δ = 0 is a hit at every δ), at least as
/// many hits as without; a negative δ is refused naming the option.
#[test]
fn ccd_csv_option() {
    let bin = env!("CARGO_BIN_EXE_exact-collision");
    let file = "tests/data/ccd-benchmark/unit-tests/vertex-face/data_0_0.csv";
    let summary = |args: &[&str]| -> serde_json::Value {
        let out = std::process::Command::new(bin)
            .args(["ccd-csv", "--summary-only"])
            .args(args)
            .arg(file)
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        serde_json::from_slice(&out.stdout).unwrap()
    };
    let plain = summary(&[]);
    let sep = summary(&["--min-distance", "1e-3"]);
    assert_eq!(sep["errors"], 0);
    assert_eq!(sep["truth"]["false_negatives"], 0);
    assert!(sep["hits"].as_u64() >= plain["hits"].as_u64());
    let out = std::process::Command::new(bin)
        .args(["ccd-csv", "--min-distance", "-1", file])
        .output()
        .unwrap();
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("--min-distance"));
}

/// The diagonal of the box of every point of the queries (t = 0 and t = 1),
/// in doubles: a scene's scale.
fn scale_f64(queries: &[[[f64; 3]; 8]]) -> f64 {
    let mut lo = [f64::INFINITY; 3];
    let mut hi = [f64::NEG_INFINITY; 3];
    for p in queries.iter().flatten() {
        for i in 0..3 {
            lo[i] = lo[i].min(p[i]);
            hi[i] = hi[i].max(p[i]);
        }
    }
    (0..3).map(|i| (hi[i] - lo[i]).powi(2)).sum::<f64>().sqrt()
}

/// The simulation step's vertex–face queries (slow motions, nearly all close)
/// at δ = 10⁻⁴ and 10⁻³ of the scene's scale, δ the exact value of a double
/// (numerator and denominator beyond 2⁵³): the filter path (its ranges, the
/// pieces and conditions interval arithmetic settles on a range left out, the
/// candidates ordered on narrowed enclosures) gives the exact method's answer
/// on all of [0, 1], and the independent distance confirms it.
#[test]
fn simulation_queries_with_double_deltas() {
    let path = "tests/data/ccd-simulation/cloth-funnel/vertex-face/227vf.csv";
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let rows = exact_collision::ccd::bench_csv::read_rows(text.as_bytes()).unwrap();
    let pts: Vec<[[f64; 3]; 8]> = rows
        .chunks(8)
        .map(|ch| std::array::from_fn(|k| std::array::from_fn(|i| ch[k].0[i].to_f64().unwrap())))
        .collect();
    // The file's values are doubles: the f64 queries are the file's queries.
    for (ch, p) in rows.chunks(8).zip(&pts) {
        let exact: [[Q; 3]; 8] = std::array::from_fn(|k| ch[k].0.clone());
        assert_eq!(to_rational(p), exact);
    }
    let scale = scale_f64(&pts);
    let (mut hits, mut roots, mut starts) = (0, 0, 0);
    for frac in [1e-4, 1e-3] {
        let delta = Q::from_float(frac * scale).unwrap();
        assert!(
            delta.denom().bits() > 53,
            "δ = {delta}: not a small fraction"
        );
        for (i, p) in pts.iter().enumerate() {
            let qy = query(&to_rational(p));
            let what = format!("{path}#{i} δ = {frac} × scale");
            let kind = Kind::VertexFace;
            let a = first_contact_min_distance_f64(kind, p, &qy.tolerance, &delta).unwrap();
            assert_eq!(a, exact_min_distance(kind, &qy, &delta).unwrap(), "{what}");
            match check(kind, &qy, &delta, &a, &what) {
                Some(RealRoot::Interval(_)) => {
                    hits += 1;
                    roots += 1;
                }
                Some(_) => hits += 1,
                None => {}
            }
            if let PointCcdAnswer::Hit(t) = &a {
                starts += usize::from(t.kind == TimeKind::Start);
            }
        }
    }
    // Every query of the step is a hit (its ground truth at δ = 0 is); some
    // at a later root time, not at the start.
    assert_eq!(hits, 2 * pts.len(), "hits {hits}");
    assert!(
        roots >= 20 && starts >= 100,
        "roots {roots}, starts {starts}"
    );
}

/// δ the exact value of a double that is not a small fraction, on random
/// queries from a random seed (printed on failure): the filter path, the
/// rational path, the exact method alone and the independent distance agree.
#[test]
fn random_queries_double_deltas_random_seed() {
    let seed = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_nanos() as u64;
    let mut s = seed;
    let (mut hits, mut roots) = (0, 0);
    // Until the sample holds 20 hits, 10 of them at root times (a few dozen
    // queries; at most 200).
    for i in 0..200 {
        if hits >= 20 && roots >= 10 {
            break;
        }
        let p = random_query(&mut s);
        let qy = query(&to_rational(&p));
        for kind in [Kind::VertexFace, Kind::EdgeEdge] {
            let mut times = Vec::new();
            for frac in [1e-4, 1e-3, 0.1, 0.3, 1.7] {
                let delta = Q::from_float(frac * 1.1).unwrap();
                let what = format!("seed {seed:#x} #{i} {kind:?} δ = {delta}");
                let a = first_contact_min_distance_f64(kind, &p, &qy.tolerance, &delta).unwrap();
                assert_eq!(
                    a,
                    first_contact_min_distance(kind, &qy, &delta).unwrap(),
                    "{what}"
                );
                assert_eq!(a, exact_min_distance(kind, &qy, &delta).unwrap(), "{what}");
                match filter_min_distance(kind, &p, &delta) {
                    Some(MinSepFilter::Miss) => assert_eq!(a, PointCcdAnswer::Miss, "{what}"),
                    Some(MinSepFilter::Start) => {
                        assert_eq!(
                            hit_time(&a).map(|t| t.kind),
                            Some(TimeKind::Start),
                            "{what}"
                        )
                    }
                    _ => {}
                }
                match check(kind, &qy, &delta, &a, &what) {
                    Some(RealRoot::Interval(_)) => {
                        hits += 1;
                        roots += 1;
                    }
                    Some(_) => hits += 1,
                    None => {}
                }
                times.push(hit_time(&a));
            }
            check_monotone(&times, &format!("seed {seed:#x} #{i} {kind:?}"));
        }
    }
    assert!(
        hits >= 20 && roots >= 10,
        "seed {seed:#x}: hits {hits}, roots {roots}"
    );
}
