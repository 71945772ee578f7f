//! The float-guided path for rounded shapes of which one at least has a
//! convex hull core (the other a hull, a point, a segment or a triangle):
//! the closest features guessed in doubles (GJK on the vertices), the
//! closest pair built exactly from them and proved with filtered exact signs.
//! Answers `None` where it does not apply or its proof fails (the caller then
//! takes the exact path; both counted in [`crate::stats::HULL`]).
//!
//! * **Guess.** GJK ([`crate::query::polytope::filtered::gjk`]) on the two
//!   vertex sets, scaled by one power of two (exact) to magnitude about 1,
//!   gives the 1 to 3 vertices of each core spanning the closest features.
//! * **Construction.** The exact closest pair `(p_a, p_b)` of the two
//!   features (points, segments or triangles, in rationals): the least of
//!   the vertex–feature and edge–edge candidates, each a pair of points of
//!   the features, so `p_a` is in a and `p_b` in b whatever the guess.
//! * **Proof (slab certificate).** With `d = p_b − p_a ≠ 0`: every vertex
//!   `v` of core a has `d·(v − p_a) ≤ 0` and every vertex `w` of core b has
//!   `d·(w − p_b) ≥ 0`. Then the slab between the two planes separates the
//!   cores and `(p_a, p_b)` is a closest pair, `q = |d|²`. Each sign is a
//!   double with a proven error bound ([`Fx`]) and exact rationals when the
//!   bound cannot decide.
//! * **Which closest pair.** Every closest pair of two disjoint convex sets
//!   has the same difference `d`, so its point on a lies in a's face on the
//!   plane `d·x = d·p_a` (the hull of a's vertices with sign 0) and its
//!   point on b in b's face on `d·x = d·p_b`. When either face is one point
//!   the closest pair is unique, and it is the exact path's answer. Otherwise
//!   (parallel edges or faces) the exact path's own choice is reproduced:
//!   the first piece pair in its order whose exact distance is `q`, piece
//!   pairs whose bounding boxes are provably farther than `√q` skipped.
//! * **Meeting cores** (GJK finds them near, or `q = 0`): the exact path's
//!   own answer again, its first piece pair at distance 0 (pairs with
//!   disjoint bounding boxes skipped, an exact comparison of doubles) or its
//!   interior-point test; `None` when neither finds a common point.

use super::segment;
use crate::hull::{gcd_euclid, lsb_exp, over, to_int};
use crate::num::bounded::{Fx, ETA, U};
use crate::num::double_word::Dx;
use crate::num::fixed::ldexp;
use crate::num::ring::Ring;
use crate::num::scalar::rational_to_f64;
use crate::num::sign::Sign;
use crate::query::polytope::filtered::gjk;
use crate::query::triangle_triangle::{point_segment, segment_segment};
use crate::query::Closest;
use crate::shape::{Core, Rounded, Shape};
use crate::stats;
use crate::vector::Vec3;
use num_bigint::BigInt;
use num_rational::BigRational;
use num_traits::{One, Signed, ToPrimitive, Zero};
use smallvec::SmallVec;
use std::borrow::Cow;

type Q = BigRational;

/// The cores' exact closest pair, float-guided; `None` where this path does
/// not apply or cannot prove its guess. `guess` is GJK's result on these
/// cores when the caller has it ([`proved_dw`] records it): the same vertices
/// scaled by the same power of two, exactly, so the same guess, not computed
/// twice.
pub(crate) fn core_distance_guessed(
    a: &Rounded<f64>,
    b: &Rounded<f64>,
    guess: Option<gjk::Found>,
) -> Option<Closest<Q>> {
    let (va, vb) = (vertices(a)?, vertices(b)?);
    let hull = |r: &Rounded<f64>| matches!(r.core, Core::Hull(_));
    if !(hull(a) || hull(b)) || (segment(a).is_some() && segment(b).is_some()) {
        return None;
    }
    let r = attempt(a, b, &va, &vb, guess);
    if r.is_some() {
        stats::HULL.fast();
    } else {
        stats::HULL.fallback();
    }
    r
}

/// The core's vertices, exact doubles; `None` for a polytope shape other
/// than a triangle (its vertices are not all doubles).
fn vertices(r: &Rounded<f64>) -> Option<Cow<'_, [Vec3<f64>]>> {
    Some(match &r.core {
        Core::Point(p) => Cow::Owned(vec![p.clone()]),
        Core::Segment(p, q) => Cow::Owned(vec![p.clone(), q.clone()]),
        Core::Shape(Shape::Triangle(t)) => Cow::Owned(t.v.to_vec()),
        Core::Shape(_) => return None,
        Core::Hull(h) => Cow::Borrowed(h.vertex_points()),
    })
}

fn attempt(
    a: &Rounded<f64>,
    b: &Rounded<f64>,
    va: &[Vec3<f64>],
    vb: &[Vec3<f64>],
    guess: Option<gjk::Found>,
) -> Option<Closest<Q>> {
    let found = guess.unwrap_or_else(|| {
        let (fa, fb) = scaled(va, vb);
        gjk::run(gjk::Hull { v: &fa, h: None }, gjk::Hull { v: &fb, h: None })
    });
    let gjk::Found::Apart(s, n) = found else {
        return first_minimum(a, b, None);
    };
    let ia = distinct(s[..n].iter().map(|p| p.0));
    let ib = distinct(s[..n].iter().map(|p| p.1));
    // Integers first (the usual, unique configurations), rationals else.
    let e = va
        .iter()
        .chain(vb)
        .flat_map(|p| [p.x, p.y, p.z])
        .filter_map(lsb_exp)
        .min()
        .unwrap_or(0);
    let int = |v: &[Vec3<f64>], idx: &[usize]| -> Vec<I3> {
        idx.iter()
            .map(|&i| [to_int(v[i].x, e), to_int(v[i].y, e), to_int(v[i].z, e)])
            .collect()
    };
    if let Some((pa, pb)) = construct_int(&int(va, &ia), &int(vb, &ib)) {
        let meet = (0..3).all(|k| &pa.p[k] * &pb.w == &pb.p[k] * &pa.w);
        if meet {
            return first_minimum(a, b, None);
        }
        return match certify_int(va, vb, e, &pa, &pb)? {
            true => Some(output(&pa, &pb, e)),
            false => first_minimum(a, b, Some(&output(&pa, &pb, e).distance_squared)),
        };
    }
    let q = |v: &[Vec3<f64>], idx: &[usize]| -> Vec<P> {
        idx.iter().map(|&i| v[i].to_rational()).collect()
    };
    let c = closest_of_features(&q(va, &ia), &q(vb, &ib));
    if c.distance_squared.is_zero() {
        return first_minimum(a, b, None);
    }
    match certify(va, vb, &c)? {
        true => Some(c),
        false => first_minimum(a, b, Some(&c.distance_squared)),
    }
}

/// The vertices as doubles scaled by one power of two, the largest
/// magnitude in [1/2, 1) (for the guess only).
fn scaled(va: &[Vec3<f64>], vb: &[Vec3<f64>]) -> (Vec<[f64; 3]>, Vec<[f64; 3]>) {
    let max = va
        .iter()
        .chain(vb)
        .flat_map(|p| [p.x.abs(), p.y.abs(), p.z.abs()])
        .fold(0.0f64, f64::max);
    let e = if max > 0.0 {
        max.log2().floor() as i32 + 1
    } else {
        0
    };
    let scale = |x: f64| {
        let mut x = x;
        let mut e = -e;
        while e != 0 {
            let s = e.clamp(-1000, 1000);
            x *= 2f64.powi(s);
            e -= s;
        }
        x
    };
    let f = |v: &[Vec3<f64>]| -> Vec<[f64; 3]> {
        v.iter()
            .map(|p| [scale(p.x), scale(p.y), scale(p.z)])
            .collect()
    };
    (f(va), f(vb))
}

/// The distinct listed vertex numbers (1 to 3).
fn distinct(idx: impl Iterator<Item = u32>) -> SmallVec<[usize; 3]> {
    let mut k = SmallVec::new();
    for i in idx {
        if !k.contains(&(i as usize)) {
            k.push(i as usize);
        }
    }
    k
}

type P = Vec3<Q>;

/// A closest pair of the hulls of the features `ka`, `kb` (each a point, a
/// segment or a triangle, exact) when they are disjoint: the first least of
/// the vertex–feature and edge–edge candidates, each a pair of points of the
/// features (so `a ∈ ka`, `b ∈ kb` whatever the features; the certificate
/// then proves the pair closest or fails).
fn closest_of_features(ka: &[P], kb: &[P]) -> Closest<Q> {
    let mut best: Option<(Q, P, P)> = None;
    let mut offer = |c: (Q, P, P)| {
        if best.as_ref().is_none_or(|b| c.0 < b.0) {
            best = Some(c);
        }
    };
    let last = |k: &[P]| k.len() - 1;
    if ka.len() <= 2 && kb.len() <= 2 {
        offer(segment_segment(
            &ka[0],
            &ka[last(ka)],
            &kb[0],
            &kb[last(kb)],
        ));
    } else {
        for x in ka {
            let (d2, y) = point_feature(x, kb);
            offer((d2, x.clone(), y));
        }
        for y in kb {
            let (d2, x) = point_feature(y, ka);
            offer((d2, x, y.clone()));
        }
        for ea in edges(ka) {
            for eb in edges(kb) {
                offer(segment_segment(ea.0, ea.1, eb.0, eb.1));
            }
        }
    }
    let (distance_squared, a, b) = best.expect("features have vertices");
    Closest {
        distance_squared,
        a,
        b,
    }
}

/// The edges of a segment or a triangle (none for a point).
fn edges(k: &[P]) -> Vec<(&P, &P)> {
    match k.len() {
        1 => vec![],
        2 => vec![(&k[0], &k[1])],
        _ => vec![(&k[0], &k[1]), (&k[1], &k[2]), (&k[2], &k[0])],
    }
}

/// The point of the feature `k` nearest to `x`, and the squared distance.
fn point_feature(x: &P, k: &[P]) -> (Q, P) {
    match k.len() {
        1 => (x.sub(&k[0]).norm_squared(), k[0].clone()),
        2 => point_segment(x, &k[0], &k[1]),
        _ => {
            let (a, b, c) = (&k[0], &k[1], &k[2]);
            let n = b.sub(a).cross(&c.sub(a));
            let nn = n.norm_squared();
            // Inside the closed triangle's prism: x projects into it.
            let inside = !nn.is_zero()
                && [(a, b), (b, c), (c, a)]
                    .iter()
                    .all(|(u, w)| n.dot(&w.sub(u).cross(&x.sub(u))) >= <Q as Zero>::zero());
            if inside {
                let t = n.dot(&x.sub(a)) / &nn;
                let y = x.sub(&n.scale(&t));
                return (&t * &t * &nn, y);
            }
            let mut best = point_segment(x, a, b);
            for (u, w) in [(b, c), (c, a)] {
                let s = point_segment(x, u, w);
                if s.0 < best.0 {
                    best = s;
                }
            }
            best
        }
    }
}

/// `x` as a double with a bound on its distance to `x`.
fn fx(x: &Q) -> Fx {
    let v = rational_to_f64(x);
    Fx {
        v,
        e: (v.abs() * U + ETA) * (1.0 + 4.0 * U),
    }
}

/// The slab certificate of `c` (`d = c.b − c.a ≠ 0`): `None` when it fails,
/// else whether the closest pair is unique (a's or b's face on its plane
/// is one point).
fn certify(va: &[Vec3<f64>], vb: &[Vec3<f64>], c: &Closest<Q>) -> Option<bool> {
    let (pa, pb) = (&c.a, &c.b);
    let d = Vec3::new(&pb.x - &pa.x, &pb.y - &pa.y, &pb.z - &pa.z);
    let df = [fx(&d.x), fx(&d.y), fx(&d.z)];
    // The sign of d·(v − p), filtered, exact when the bound cannot decide.
    let side = |v: &Vec3<f64>, p: &Vec3<Q>, pf: &[Fx; 3]| -> Sign {
        let t = |k: usize, vk: f64| df[k].mul_ref(&Fx::exact(vk).sub_ref(&pf[k]));
        let s = t(0, v.x).add_ref(&t(1, v.y)).add_ref(&t(2, v.z));
        if let Some(s) = s.sign() {
            return s;
        }
        crate::num::bounded::count_exact_sign();
        let e = d.dot(&v.to_rational().sub(p));
        Sign::from_ordering(e.cmp(&<Q as Zero>::zero()))
    };
    let on_plane = |vs: &[Vec3<f64>], p: &Vec3<Q>, bad: Sign| -> Option<Vec<Vec3<f64>>> {
        let pf = [fx(&p.x), fx(&p.y), fx(&p.z)];
        let mut zero = Vec::new();
        for v in vs {
            match side(v, p, &pf) {
                Sign::Zero => zero.push(v.clone()),
                s if s == bad => return None,
                _ => {}
            }
        }
        Some(zero)
    };
    let za = on_plane(va, pa, Sign::Positive)?;
    let zb = on_plane(vb, pb, Sign::Negative)?;
    let one_point = |z: &[Vec3<f64>]| z.iter().all(|v| *v == z[0]);
    Some(one_point(&za) || one_point(&zb))
}

/// A bounding box of a piece (a triangle): exact doubles.
fn bbox(s: &Shape<f64>) -> Option<[[f64; 3]; 2]> {
    let Shape::Triangle(t) = s else {
        return None;
    };
    let mut lo = [f64::INFINITY; 3];
    let mut hi = [f64::NEG_INFINITY; 3];
    for v in &t.v {
        for k in 0..3 {
            lo[k] = lo[k].min(*v.get(k));
            hi[k] = hi[k].max(*v.get(k));
        }
    }
    Some([lo, hi])
}

/// Whether the boxes are provably farther apart than `√q` (`q = None`: than
/// 0, decided by exact comparisons of doubles).
fn farther(x: &[[f64; 3]; 2], y: &[[f64; 3]; 2], q: Option<(f64, &Q)>) -> bool {
    let gap = |k: usize| (y[0][k] - x[1][k]).max(x[0][k] - y[1][k]).max(0.0);
    match q {
        None => (0..3).any(|k| x[1][k] < y[0][k] || y[1][k] < x[0][k]),
        Some((qf, _)) => {
            // Each gap is rounded by at most u relative (a difference of
            // doubles does not underflow), the squares and sums by a few
            // more: (1 − 8u) covers them, 10⁻³⁰⁰ the underflow of the
            // squares; q's double is within u of q. An overflow skips
            // nothing.
            let g = [gap(0), gap(1), gap(2)];
            let lb = (g[0] * g[0] + g[1] * g[1] + g[2] * g[2]) * (1.0 - 8.0 * U) - 1e-300;
            let qhi = qf * (1.0 + 4.0 * U) + 1e-300;
            lb.is_finite() && qhi.is_finite() && lb > qhi
        }
    }
}

/// The exact path's own answer ([`super::core_distance`]), its piece pairs
/// in its order, those that cannot be its answer skipped: with `q = None`,
/// its first piece pair at distance 0 or its interior point, `None` when
/// the cores do not meet; with `Some(q)`, `q` the proven distance squared
/// (positive), its first piece pair at squared distance `q`.
fn first_minimum(a: &Rounded<f64>, b: &Rounded<f64>, q: Option<&Q>) -> Option<Closest<Q>> {
    let (pa, pb) = (a.core_pieces(), b.core_pieces());
    let ba: Vec<[[f64; 3]; 2]> = pa.iter().map(bbox).collect::<Option<_>>()?;
    let bb: Vec<[[f64; 3]; 2]> = pb.iter().map(bbox).collect::<Option<_>>()?;
    let qf = q.map(|q| (rational_to_f64(q), q));
    for (x, bx) in pa.iter().zip(&ba) {
        for (y, by) in pb.iter().zip(&bb) {
            if farther(bx, by, qf) {
                continue;
            }
            let c = crate::query::distance_exact(x, y).ok()?;
            match q {
                None if c.distance_squared.is_zero() => return Some(c),
                Some(q) if c.distance_squared == *q => return Some(c),
                Some(q) if c.distance_squared < *q => return None,
                _ => {}
            }
        }
    }
    if q.is_some() {
        return None;
    }
    super::interior_point(a, b, &pa, &pb)
}

// ---- The closest pair in integers: every coordinate of both cores is an
// integer times 2^e (e the least exponent of a coordinate's lowest set bit),
// so the constructions and the certificate's exact signs are integer
// polynomials, with one reduction to lowest terms on output.

/// An integer as a double with a bound on its distance to it: the top 64
/// bits (truncated: relative error below 2⁻⁶³), rounded to a double
/// (relative u); 2u covers both.
fn fx_int(x: &BigInt) -> Fx {
    let bits = x.bits();
    let (top, shift) = if bits <= 64 {
        (x.magnitude().to_u64().unwrap_or(0), 0)
    } else {
        let t = x.magnitude() >> (bits - 64) as usize;
        (t.to_u64().unwrap_or(0), (bits - 64) as i64)
    };
    let v = crate::num::fixed::ldexp(top as f64, shift);
    let v = if x.is_negative() { -v } else { v };
    Fx {
        v,
        e: v.abs() * (2.0 * U) * (1.0 + 4.0 * U),
    }
}

type I3 = [BigInt; 3];

/// A point `p / w` with integer coordinates `p` and `w > 0` (on the lattice).
struct H {
    p: I3,
    w: BigInt,
}

fn isub(a: &I3, b: &I3) -> I3 {
    [&a[0] - &b[0], &a[1] - &b[1], &a[2] - &b[2]]
}
fn idot(a: &I3, b: &I3) -> BigInt {
    &a[0] * &b[0] + &a[1] * &b[1] + &a[2] * &b[2]
}
fn icross(a: &I3, b: &I3) -> I3 {
    [
        &a[1] * &b[2] - &a[2] * &b[1],
        &a[2] * &b[0] - &a[0] * &b[2],
        &a[0] * &b[1] - &a[1] * &b[0],
    ]
}
/// `a·s + d·t` (a point `a` at weight `s`, moved by `d·t`).
fn iaxpy(a: &I3, s: &BigInt, d: &I3, t: &BigInt) -> I3 {
    [
        &a[0] * s + &d[0] * t,
        &a[1] * s + &d[1] * t,
        &a[2] * s + &d[2] * t,
    ]
}

fn vertex(p: &I3) -> H {
    H {
        p: p.clone(),
        w: BigInt::one(),
    }
}

/// The point of the closed segment `[a, b]` nearest to `x`.
fn near_on_segment(x: &I3, a: &I3, b: &I3) -> H {
    let e = isub(b, a);
    let ee = idot(&e, &e);
    let t = idot(&e, &isub(x, a));
    if !t.is_positive() || ee.is_zero() {
        vertex(a)
    } else if t >= ee {
        vertex(b)
    } else {
        H {
            p: iaxpy(a, &ee, &e, &t),
            w: ee,
        }
    }
}

/// The projection of `x` into the triangle `abc` when it falls inside
/// (closed), `None` otherwise or when the triangle is degenerate.
fn near_on_face(x: &I3, a: &I3, b: &I3, c: &I3) -> Option<H> {
    let n = icross(&isub(b, a), &isub(c, a));
    let nn = idot(&n, &n);
    if nn.is_zero() {
        return None;
    }
    for (u, w) in [(a, b), (b, c), (c, a)] {
        if idot(&n, &icross(&isub(w, u), &isub(x, u))).is_negative() {
            return None;
        }
    }
    let t = idot(&n, &isub(x, a));
    Some(H {
        p: iaxpy(x, &nn, &n, &-t),
        w: nn,
    })
}

/// The closest points of the segments `[p0, p1]`, `[q0, q1]` when both are
/// interior points (`None` for parallel segments or an end point).
fn near_edges(p0: &I3, p1: &I3, q0: &I3, q1: &I3) -> Option<(H, H)> {
    let (d1, d2, r) = (isub(p1, p0), isub(q1, q0), isub(p0, q0));
    let (a, b, e) = (idot(&d1, &d1), idot(&d1, &d2), idot(&d2, &d2));
    let (c, f) = (idot(&d1, &r), idot(&d2, &r));
    let den = &a * &e - &b * &b;
    if !den.is_positive() {
        return None;
    }
    let s = &b * &f - &c * &e;
    let t = &a * &f - &b * &c;
    if s.is_negative() || t.is_negative() || s > den || t > den {
        return None;
    }
    Some((
        H {
            p: iaxpy(p0, &den, &d1, &s),
            w: den.clone(),
        },
        H {
            p: iaxpy(q0, &den, &d2, &t),
            w: den,
        },
    ))
}

/// The closest pair of the features (1 to 3 lattice points each) in
/// integers, for the configurations a GJK guess names when the pair is
/// unique (vertex–vertex, vertex–edge, edge–edge, vertex–face); `None`
/// otherwise (the rational construction then takes over). Every answer is
/// a pair of points of the features.
fn construct_int(ka: &[I3], kb: &[I3]) -> Option<(H, H)> {
    Some(match (ka.len(), kb.len()) {
        (1, 1) => (vertex(&ka[0]), vertex(&kb[0])),
        (1, 2) => (vertex(&ka[0]), near_on_segment(&ka[0], &kb[0], &kb[1])),
        (2, 1) => (near_on_segment(&kb[0], &ka[0], &ka[1]), vertex(&kb[0])),
        (2, 2) => near_edges(&ka[0], &ka[1], &kb[0], &kb[1])?,
        (1, 3) => (
            vertex(&ka[0]),
            near_on_face(&ka[0], &kb[0], &kb[1], &kb[2])?,
        ),
        (3, 1) => (
            near_on_face(&kb[0], &ka[0], &ka[1], &ka[2])?,
            vertex(&kb[0]),
        ),
        _ => return None,
    })
}

/// The slab certificate in integers: `D = p_b·w_a − p_a·w_b` (a positive
/// multiple of `d`); every vertex `V` of a has `D·(V·w_a − p_a) ≤ 0`, every
/// vertex `W` of b `D·(W·w_b − p_b) ≥ 0`. `None` when it fails (or `D = 0`),
/// else whether the closest pair is unique.
fn certify_int(va: &[Vec3<f64>], vb: &[Vec3<f64>], e: i64, pa: &H, pb: &H) -> Option<bool> {
    let dd = isub(
        &[&pb.p[0] * &pa.w, &pb.p[1] * &pa.w, &pb.p[2] * &pa.w],
        &[&pa.p[0] * &pb.w, &pa.p[1] * &pb.w, &pa.p[2] * &pb.w],
    );
    if dd.iter().all(|x| x.is_zero()) {
        return None;
    }
    let df = [fx_int(&dd[0]), fx_int(&dd[1]), fx_int(&dd[2])];
    let on_plane = |vs: &[Vec3<f64>], h: &H, bad: Sign| -> Option<Vec<Vec3<f64>>> {
        let wf = fx_int(&h.w);
        let pf = [fx_int(&h.p[0]), fx_int(&h.p[1]), fx_int(&h.p[2])];
        let mut zero = Vec::new();
        for v in vs {
            let c = [v.x, v.y, v.z];
            let t = |k: usize| {
                let vk = Fx::exact(crate::num::fixed::ldexp(c[k], -e));
                df[k].mul_ref(&vk.mul_ref(&wf).sub_ref(&pf[k]))
            };
            let s = match t(0).add_ref(&t(1)).add_ref(&t(2)).sign() {
                Some(s) => s,
                None => {
                    crate::num::bounded::count_exact_sign();
                    let vi = [to_int(c[0], e), to_int(c[1], e), to_int(c[2], e)];
                    let x = idot(
                        &dd,
                        &isub(&[&vi[0] * &h.w, &vi[1] * &h.w, &vi[2] * &h.w], &h.p),
                    );
                    Sign::from_ordering(x.sign().cmp(&num_bigint::Sign::NoSign))
                }
            };
            match s {
                Sign::Zero => zero.push(v.clone()),
                s if s == bad => return None,
                _ => {}
            }
        }
        Some(zero)
    };
    let za = on_plane(va, pa, Sign::Positive)?;
    let zb = on_plane(vb, pb, Sign::Negative)?;
    let one_point = |z: &[Vec3<f64>]| z.iter().all(|v| *v == z[0]);
    Some(one_point(&za) || one_point(&zb))
}

/// `n·2^e / d` in lowest terms (`d > 0`).
fn lowest(n: &BigInt, d: &BigInt, e: i64) -> Q {
    let (n, d) = if e >= 0 {
        (n << e as usize, d.clone())
    } else {
        (n.clone(), d << (-e) as usize)
    };
    if n.is_zero() {
        return <Q as Zero>::zero();
    }
    if d.bits() == d.trailing_zeros().unwrap_or(0) + 1 {
        // A power of two (every vertex): shifts, no gcd.
        return over(n, d);
    }
    let g = BigInt::from(gcd_euclid(n.magnitude().clone(), d.magnitude().clone()));
    Q::new_raw(n / &g, d / &g)
}

/// The pair as exact rationals in lowest terms, with its squared distance.
fn output(pa: &H, pb: &H, e: i64) -> Closest<Q> {
    let pt = |h: &H| {
        Vec3::new(
            lowest(&h.p[0], &h.w, e),
            lowest(&h.p[1], &h.w, e),
            lowest(&h.p[2], &h.w, e),
        )
    };
    let (a, b) = (pt(pa), pt(pb));
    // d = dd / w over the smallest common weight the constructions give
    // (one weight is 1, or both are equal), so that q's gcd is small.
    let scale = |p: &I3, k: &BigInt| [&p[0] * k, &p[1] * k, &p[2] * k];
    let (dd, w) = if pa.w.is_one() {
        (isub(&pb.p, &scale(&pa.p, &pb.w)), pb.w.clone())
    } else if pb.w.is_one() {
        (isub(&scale(&pb.p, &pa.w), &pa.p), pa.w.clone())
    } else if pa.w == pb.w {
        (isub(&pb.p, &pa.p), pa.w.clone())
    } else {
        (
            isub(&scale(&pb.p, &pa.w), &scale(&pa.p, &pb.w)),
            &pa.w * &pb.w,
        )
    };
    let distance_squared = lowest(&idot(&dd, &dd), &(&w * &w), 2 * e);
    Closest {
        distance_squared,
        a,
        b,
    }
}

// ---- `distance_f64` without big integers: the closest pair of the guessed
// features in homogeneous coordinates `P / w` (integer polynomials in the
// vertex coordinates, no division) evaluated in double-word arithmetic with
// proven error bounds ([`Dx`]), the slab certificate's signs decided by the
// bounds, `q = |D|²/W²` and the rounding of `√q − R` certified in
// double-word. Any undecided sign answers `None`.

type D3 = [Dx; 3];
/// A core's vertices, scaled (on the stack up to 32 of them).
type Pts = SmallVec<[[f64; 3]; 32]>;

fn dsub(a: &D3, b: &D3) -> D3 {
    [
        a[0].sub_ref(&b[0]),
        a[1].sub_ref(&b[1]),
        a[2].sub_ref(&b[2]),
    ]
}
fn ddot(a: &D3, b: &D3) -> Dx {
    a[0].mul_ref(&b[0])
        .add_ref(&a[1].mul_ref(&b[1]))
        .add_ref(&a[2].mul_ref(&b[2]))
}
fn dcross(a: &D3, b: &D3) -> D3 {
    [
        a[1].mul_ref(&b[2]).sub_ref(&a[2].mul_ref(&b[1])),
        a[2].mul_ref(&b[0]).sub_ref(&a[0].mul_ref(&b[2])),
        a[0].mul_ref(&b[1]).sub_ref(&a[1].mul_ref(&b[0])),
    ]
}
fn dscale(a: &D3, s: &Dx) -> D3 {
    [a[0].mul_ref(s), a[1].mul_ref(s), a[2].mul_ref(s)]
}
/// `a·s + d·t`.
fn daxpy(a: &D3, s: &Dx, d: &D3, t: &Dx) -> D3 {
    let (x, y) = (dscale(a, s), dscale(d, t));
    [
        x[0].add_ref(&y[0]),
        x[1].add_ref(&y[1]),
        x[2].add_ref(&y[2]),
    ]
}
/// Whether the bound proves `x > 0`.
fn positive(x: &Dx) -> bool {
    x.sign() == Some(Sign::Positive)
}

/// A homogeneous point `p / w` (`w` proved positive).
struct Hd {
    p: D3,
    w: Dx,
}

fn dvertex(p: &D3) -> Hd {
    Hd {
        p: *p,
        w: Dx::exact(1.0),
    }
}

/// The interior point of `[a, b]` nearest to `x`, when the bounds prove it
/// interior (`0 < t < e·e`).
fn dnear_on_segment(x: &D3, a: &D3, b: &D3) -> Option<Hd> {
    let e = dsub(b, a);
    let ee = ddot(&e, &e);
    let t = ddot(&e, &dsub(x, a));
    (positive(&t) && positive(&ee.sub_ref(&t))).then(|| Hd {
        p: daxpy(a, &ee, &e, &t),
        w: ee,
    })
}

/// The projection of `x` into the triangle `abc`, when the bounds prove it
/// strictly inside.
fn dnear_on_face(x: &D3, a: &D3, b: &D3, c: &D3) -> Option<Hd> {
    let n = dcross(&dsub(b, a), &dsub(c, a));
    let nn = ddot(&n, &n);
    if !positive(&nn) {
        return None;
    }
    for (u, w) in [(a, b), (b, c), (c, a)] {
        if !positive(&ddot(&n, &dcross(&dsub(w, u), &dsub(x, u)))) {
            return None;
        }
    }
    let t = ddot(&n, &dsub(x, a));
    Some(Hd {
        p: daxpy(x, &nn, &n, &t.neg_ref()),
        w: nn,
    })
}

/// The interior closest points of the segments `[p0, p1]`, `[q0, q1]`, when
/// the bounds prove both interior (`0 < s, t < den`, `den > 0`).
fn dnear_edges(p0: &D3, p1: &D3, q0: &D3, q1: &D3) -> Option<(Hd, Hd)> {
    let (d1, d2, r) = (dsub(p1, p0), dsub(q1, q0), dsub(p0, q0));
    let (a, b, e) = (ddot(&d1, &d1), ddot(&d1, &d2), ddot(&d2, &d2));
    let (c, f) = (ddot(&d1, &r), ddot(&d2, &r));
    let den = a.mul_ref(&e).sub_ref(&b.mul_ref(&b));
    let s = b.mul_ref(&f).sub_ref(&c.mul_ref(&e));
    let t = a.mul_ref(&f).sub_ref(&b.mul_ref(&c));
    let inside = |x: &Dx| positive(x) && positive(&den.sub_ref(x));
    if !(positive(&den) && inside(&s) && inside(&t)) {
        return None;
    }
    Some((
        Hd {
            p: daxpy(p0, &den, &d1, &s),
            w: den,
        },
        Hd {
            p: daxpy(q0, &den, &d2, &t),
            w: den,
        },
    ))
}

/// The closest pair of the features for the configurations whose closest
/// points are interior to both features (vertex–vertex, vertex–edge,
/// edge–edge, vertex–face), proved so by the bounds. Then `d = p_b − p_a`
/// is orthogonal to both features (the normal equations of the
/// construction), so every vertex of each feature is on its slab plane
/// exactly, by identity.
fn dconstruct(ka: &[D3], kb: &[D3]) -> Option<(Hd, Hd)> {
    Some(match (ka.len(), kb.len()) {
        (1, 1) => (dvertex(&ka[0]), dvertex(&kb[0])),
        (1, 2) => (dvertex(&ka[0]), dnear_on_segment(&ka[0], &kb[0], &kb[1])?),
        (2, 1) => (dnear_on_segment(&kb[0], &ka[0], &ka[1])?, dvertex(&kb[0])),
        (2, 2) => dnear_edges(&ka[0], &ka[1], &kb[0], &kb[1])?,
        (1, 3) => (
            dvertex(&ka[0]),
            dnear_on_face(&ka[0], &kb[0], &kb[1], &kb[2])?,
        ),
        (3, 1) => (
            dnear_on_face(&kb[0], &ka[0], &ka[1], &ka[2])?,
            dvertex(&kb[0]),
        ),
        _ => return None,
    })
}

/// What [`proved_dw`] proved.
pub(crate) enum Dw {
    /// Disjoint cores, their squared distance in double-word.
    Apart(ApartDw),
    /// Meeting cores (`q = 0`): the origin in the hull of four points of the
    /// cores' difference ([`holds_origin`]).
    Meet,
}

/// Disjoint cores proved in double-word arithmetic: `q = s / w²` (all scaled
/// by `2^-k`, exactly), and the radii scaled alike.
pub(crate) struct ApartDw {
    s: Dx,
    w: Dx,
    ra: f64,
    rb: f64,
    k: i64,
}

impl ApartDw {
    /// The sign of `q − R²` when the bounds decide it.
    pub(crate) fn meet_sign(&self) -> Option<Sign> {
        let r = Dx::exact(self.ra).add_ref(&Dx::exact(self.rb));
        let wr = self.w.mul_ref(&r);
        self.s.sub_ref(&wr.mul_ref(&wr)).sign()
    }

    /// The double nearest to `√q − R` (known positive: `meet_sign` said
    /// so), certified in double-word; `None` when undecided or outside the
    /// normal range.
    pub(crate) fn nearest_apart(&self) -> Option<f64> {
        let g = crate::num::double_word::nearest_sqrt_quot_minus(self.s, self.w, self.ra, self.rb)?;
        // Scaling a normal result by a power of two scales the rounding
        // grid with it.
        let x = ldexp(g, self.k);
        (x.is_finite() && x >= f64::MIN_POSITIVE && ldexp(x, -self.k) == g).then_some(x)
    }
}

/// The cores' closest pair proved disjoint in double-word arithmetic, for
/// the configurations [`dconstruct`] takes, or the cores proved to meet when
/// GJK ends on a tetrahedron around the origin ([`holds_origin`]); `None`
/// where this path does not apply (no hull core, both cores points or
/// segments, cores GJK finds touching or nearly, another configuration, a
/// coordinate that does not scale exactly) or a sign is undecided. GJK's
/// result, when it ran, goes to `found` (for [`core_distance_guessed`]: the
/// vertices scaled here are [`scaled`]'s, exactly).
pub(crate) fn proved_dw(
    a: &Rounded<f64>,
    b: &Rounded<f64>,
    found: &mut Option<gjk::Found>,
) -> Option<Dw> {
    let (va, vb) = (vertices(a)?, vertices(b)?);
    let hull = |r: &Rounded<f64>| matches!(r.core, Core::Hull(_));
    if !(hull(a) || hull(b)) || (segment(a).is_some() && segment(b).is_some()) {
        return None;
    }
    // Scale by 2^-k, the largest magnitude into [1/2, 1): exact when no
    // nonzero coordinate lands below the normal range (a product by a power
    // of two is exact there, and nothing overflows), else checked one by one.
    let (mut max, mut min) = (0.0f64, f64::INFINITY);
    for p in va.iter().chain(vb.iter()) {
        for x in [p.x.abs(), p.y.abs(), p.z.abs()] {
            max = max.max(x);
            if x > 0.0 {
                min = min.min(x);
            }
        }
    }
    if !(max > 0.0 && max.is_finite()) {
        return None;
    }
    let k = max.log2().floor() as i64 + 1;
    let sc = |x: f64| -> Option<f64> {
        let y = ldexp(x, -k);
        (ldexp(y, k) == x).then_some(y)
    };
    // `min·2^-k` rounded above the least normal: its exact value is too.
    let whole = (-1000..=1000).contains(&k) && ldexp(min, -k) > f64::MIN_POSITIVE;
    let conv = |v: &[Vec3<f64>]| -> Option<Pts> {
        let mut out = Pts::with_capacity(v.len());
        if whole {
            let f = ldexp(1.0, -k);
            out.extend(v.iter().map(|p| [p.x * f, p.y * f, p.z * f]));
        } else {
            for p in v {
                out.push([sc(p.x)?, sc(p.y)?, sc(p.z)?]);
            }
        }
        Some(out)
    };
    let (fa, fb) = (conv(&va)?, conv(&vb)?);
    let (ra, rb) = (sc(a.radius)?, sc(b.radius)?);
    let guess = gjk::run(gjk::Hull { v: &fa, h: None }, gjk::Hull { v: &fb, h: None });
    *found = Some(guess);
    let (s, n) = match guess {
        gjk::Found::Apart(s, n) => (s, n),
        gjk::Found::Tetrahedron(t) => return holds_origin(&fa, &fb, &t).then_some(Dw::Meet),
        gjk::Found::Near => return None,
    };
    let ia = distinct(s[..n].iter().map(|p| p.0));
    let ib = distinct(s[..n].iter().map(|p| p.1));
    let d3 = |p: &[f64; 3]| [Dx::exact(p[0]), Dx::exact(p[1]), Dx::exact(p[2])];
    let feat = |v: &[[f64; 3]], idx: &[usize]| -> SmallVec<[D3; 3]> {
        idx.iter().map(|&i| d3(&v[i])).collect()
    };
    let (pa, pb) = dconstruct(&feat(&fa, &ia), &feat(&fb, &ib))?;
    // D = P_b·w_a − P_a·w_b = w_a·w_b·d.
    let dd = dsub(&dscale(&pb.p, &pa.w), &dscale(&pa.p, &pb.w));
    let s = ddot(&dd, &dd);
    if !positive(&s) {
        return None;
    }
    // The slab: D·(V·w_a − P_a) ≤ 0 for every vertex V of a, and
    // D·(V·w_b − P_b) ≥ 0 for every vertex of b; the features' own vertices
    // are on the planes by identity.
    // As w·(D·v) − D·P, with D·P once per core: first in doubles with one
    // a-priori bound per core ([`SlabFilter`]), in double-word where that
    // bound does not decide.
    let slab = |v: &[[f64; 3]], idx: &[usize], h: &Hd, bad: Sign| {
        let c = ddot(&dd, &h.p);
        let f = SlabFilter::new(&dd, &h.w, &c);
        v.iter().enumerate().all(|(i, p)| {
            idx.contains(&i)
                || match f.sign(p) {
                    Some(sg) => sg != bad,
                    None => matches!(
                        h.w.mul_ref(&ddot(&dd, &d3(p))).sub_ref(&c).sign(),
                        Some(sg) if sg != bad
                    ),
                }
        })
    };
    if !(slab(&fa, &ia, &pa, Sign::Positive) && slab(&fb, &ib, &pb, Sign::Negative)) {
        return None;
    }
    Some(Dw::Apart(ApartDw {
        s,
        w: pa.w.mul_ref(&pb.w),
        ra,
        rb,
        k,
    }))
}

/// The sign of `s(v) = w·(D·v) − c` for vertices `v` with every coordinate
/// in [−1, 1], from doubles: `D`, `w`, `c` (double-word values with bounds)
/// taken as their leading doubles `D̃`, `w̃`, `c̃`, within `e_D`, `e_w`, `e_c`
/// (`|l| + e` each), and `r = fl(fl(w̃·fl(D̃·v)) − c̃)` with the dot product
/// summed left to right. With `S = Σ|D̃_k|`, `E = Σ e_D,k` and
/// `γ₃ = 3u/(1 − 3u) ≤ 3u(1 + 4u)` (N. J. Higham, *Accuracy and Stability
/// of Numerical Algorithms*, SIAM 2002, §3.1):
///
/// ```text
/// |fl(D̃·v) − D·v| ≤ γ₃S + E = e_t,    |fl(D̃·v)| ≤ (1 + γ₃)S,   P = |w̃|(1 + γ₃)S
/// |fl(w̃·t) − w·D·v| ≤ |w̃|e_t + (S + E)e_w + uP
/// |r − s(v)| ≤ |w̃|e_t + (S + E)e_w + uP + e_c + u(P(1 + u) + |c̃|) = B
/// ```
///
/// (`w̃t − w·D·v = w̃(t − D·v) + (w̃ − w)·D·v`). `B` is computed once, its
/// few roundings (relative, nonnegative terms) covered by `1 + 64u`, and
/// the underflows (of the products in `r`, 2⁻¹⁰⁷⁵ each, at most `|w̃| + 1`
/// times over, and of the bound's own terms) by `(|w̃| + 1)·10⁻³⁰⁰`. `r`
/// beyond `±B` decides; an overflow or a NaN decides nothing.
struct SlabFilter {
    d: [f64; 3],
    w: f64,
    c: f64,
    b: f64,
}

impl SlabFilter {
    fn new(d: &D3, w: &Dx, c: &Dx) -> SlabFilter {
        let err = |x: &Dx| x.l.abs() + x.e;
        let s = d[0].h.abs() + d[1].h.abs() + d[2].h.abs();
        let e = err(&d[0]) + err(&d[1]) + err(&d[2]);
        let g3 = 3.0 * U * (1.0 + 4.0 * U);
        let et = g3 * s + e;
        let wa = w.h.abs();
        let p = wa * (1.0 + g3) * s;
        let b = wa * et + (s + e) * err(w) + U * p + err(c) + U * (p * (1.0 + U) + c.h.abs());
        SlabFilter {
            d: [d[0].h, d[1].h, d[2].h],
            w: w.h,
            c: c.h,
            b: b * (1.0 + 64.0 * U) + (wa + 1.0) * 1e-300,
        }
    }

    #[inline(always)]
    fn sign(&self, v: &[f64; 3]) -> Option<Sign> {
        let t = self.d[0] * v[0] + self.d[1] * v[1] + self.d[2] * v[2];
        let r = self.w * t - self.c;
        if r > self.b {
            Some(Sign::Positive)
        } else if r < -self.b {
            Some(Sign::Negative)
        } else {
            None
        }
    }
}

/// Whether the origin is proved inside the tetrahedron of the points
/// `w_k = a_i − b_j` of the cores' difference named by `t` (vertices scaled
/// alike, exactly): then `0 ∈ A − B` and the cores meet.
///
/// With `T_k` the determinant of the three points other than `w_k` (in
/// order) and `M_k = (−1)^(k+1)·T_k`, the identities `Σ M_k·w_k = 0` and
/// `Σ M_k = det[w_1 − w_0, w_2 − w_0, w_3 − w_0]` (the cofactor expansion
/// of the 4 × 4 determinant with rows `(w_k, 1)`) give the origin as the
/// combination with weights `M_k / Σ M_j`: when the `M_k` share one sign
/// (zeros allowed, not all zero) the weights are nonnegative and sum to 1.
/// Each sign from a double with a proven bound ([`Fx`]), then double-word
/// ([`Dx`]) when that bound does not decide; `false` when neither does.
fn holds_origin(fa: &[[f64; 3]], fb: &[[f64; 3]], t: &[(u32, u32); 4]) -> bool {
    fn decide<R: Ring + Copy>(w: &[[R; 3]; 4], sign: impl Fn(R) -> Option<Sign>) -> Option<bool> {
        let det = |a: &[R; 3], b: &[R; 3], c: &[R; 3]| {
            let x = b[1].mul_ref(&c[2]).sub_ref(&b[2].mul_ref(&c[1]));
            let y = b[2].mul_ref(&c[0]).sub_ref(&b[0].mul_ref(&c[2]));
            let z = b[0].mul_ref(&c[1]).sub_ref(&b[1].mul_ref(&c[0]));
            a[0].mul_ref(&x)
                .add_ref(&a[1].mul_ref(&y))
                .add_ref(&a[2].mul_ref(&z))
        };
        let m = [
            det(&w[1], &w[2], &w[3]).neg_ref(),
            det(&w[0], &w[2], &w[3]),
            det(&w[0], &w[1], &w[3]).neg_ref(),
            det(&w[0], &w[1], &w[2]),
        ];
        let (mut pos, mut neg) = (false, false);
        for x in m {
            match sign(x)? {
                Sign::Positive => pos = true,
                Sign::Negative => neg = true,
                Sign::Zero => {}
            }
        }
        Some(pos != neg)
    }
    let pt = |k: usize| (&fa[t[k].0 as usize], &fb[t[k].1 as usize]);
    let fx: [[Fx; 3]; 4] = std::array::from_fn(|k| {
        let (p, q) = pt(k);
        std::array::from_fn(|c| Fx::exact(p[c]).sub_ref(&Fx::exact(q[c])))
    });
    if let Some(r) = decide(&fx, Fx::sign) {
        return r;
    }
    let dx: [[Dx; 3]; 4] = std::array::from_fn(|k| {
        let (p, q) = pt(k);
        std::array::from_fn(|c| Dx::exact(p[c]).sub_ref(&Dx::exact(q[c])))
    });
    decide(&dx, Dx::sign) == Some(true)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::poly::planted::splitmix64;

    fn q(x: f64) -> Q {
        Q::from_float(x).unwrap()
    }

    /// A double-word value `h + l` with bound `e`, and an exact value at
    /// distance `e` (either side) or none from it.
    fn dx(h: f64, l: f64, e: f64, side: i64) -> (Dx, Q) {
        let x = q(h) + q(l) + q(e) * Q::from_integer(side.into());
        (Dx { h, l, e }, x)
    }

    /// A double `m·2^scale`, `m` uniform in [−1, 1).
    fn f(st: &mut u64, scale: i64) -> f64 {
        let m = (splitmix64(st) >> 11) as f64 / (1u64 << 53) as f64 * 2.0 - 1.0;
        ldexp(m, scale)
    }

    /// −1, 0 or 1.
    fn side(st: &mut u64) -> i64 {
        (splitmix64(st) % 3) as i64 - 1
    }

    /// The filter's decided signs are the exact signs of `w·(D·v) − c`, with
    /// the exact `D`, `w`, `c` anywhere within their bounds, `c` chosen
    /// next to `w·(D·v)` so that `s(v)` is tiny, and products that underflow.
    #[test]
    fn slab_filter_sign_is_exact() {
        let mut st = 7u64;
        let (mut decided, mut undecided) = (0, 0);
        for round in 0..20000 {
            let sd = [0, -3, -200, -540, -1060][round % 5];
            let d: Vec<(Dx, Q)> = (0..3)
                .map(|_| {
                    let h = f(&mut st, sd);
                    let l = h * f(&mut st, -53).abs() * 0.5;
                    let e = h.abs() * f(&mut st, -60).abs();
                    let sd = side(&mut st);
                    dx(h, l, e, sd)
                })
                .collect();
            let wh = f(&mut st, 0).abs() * 100.0 + 0.5;
            let sw = side(&mut st);
            let (w, wq) = dx(wh, wh * 1e-17, wh * 1e-30, sw);
            let v: [f64; 3] = std::array::from_fn(|k| match splitmix64(&mut st) % 5 {
                0 => 1.0,
                1 => -1.0,
                _ => {
                    let e = (splitmix64(&mut st) % 3) as i64 * 2 + k as i64;
                    f(&mut st, -e)
                }
            });
            let t = d[0].0.h * v[0] + d[1].0.h * v[1] + d[2].0.h * v[2];
            let off = (splitmix64(&mut st) % 64) as i64;
            let ch = w.h * t + t * f(&mut st, -off);
            let cl = ch * f(&mut st, -54);
            let sc = side(&mut st);
            let (c, cq) = dx(ch, cl, ch.abs() * 1e-31, sc);
            let dd = [d[0].0, d[1].0, d[2].0];
            let filter = SlabFilter::new(&dd, &w, &c);
            let exact = &wq * (&d[0].1 * q(v[0]) + &d[1].1 * q(v[1]) + &d[2].1 * q(v[2])) - &cq;
            match filter.sign(&v) {
                Some(s) => {
                    decided += 1;
                    let e = Sign::from_ordering(exact.cmp(&<Q as Zero>::zero()));
                    assert_eq!(s, e, "round {round}: {dd:?} {w:?} {c:?} {v:?}");
                }
                None => undecided += 1,
            }
        }
        // Both branches exercised.
        assert!(decided > 1000 && undecided > 100, "{decided} {undecided}");
    }

    fn run(fa: &[[f64; 3]], fb: &[[f64; 3]], t: [(u32, u32); 4]) -> bool {
        holds_origin(fa, fb, &t)
    }

    /// Worked by hand: the tetrahedron `(½,0,0), (0,½,0), (0,0,½),
    /// (−¼,−¼,−¼)` minus a point `p` holds the origin iff it holds `p`:
    /// `p = 0` has weights (⅕, ⅕, ⅕, ⅖), `p = (0.2, 0, 0)` has (0.52,
    /// 0.12, 0.12, 0.24), `p = (0.6, 0, 0)` is beyond the vertex `(½,0,0)`,
    /// and `p = (¼, ¼, 0)` is on an edge (weights 0: not provable by a
    /// bound; answered `false`, the exact path decides).
    #[test]
    fn holds_origin_by_hand() {
        let a = [
            [0.5, 0.0, 0.0],
            [0.0, 0.5, 0.0],
            [0.0, 0.0, 0.5],
            [-0.25, -0.25, -0.25],
        ];
        let t = [(0, 0), (1, 0), (2, 0), (3, 0)];
        assert!(run(&a, &[[0.0; 3]], t));
        assert!(run(&a, &[[0.2, 0.0, 0.0]], t));
        assert!(!run(&a, &[[0.6, 0.0, 0.0]], t));
        assert!(!run(&a, &[[0.0, 0.0, -0.3]], t));
        assert!(!run(&a, &[[0.25, 0.25, 0.0]], t));
        // The order of the four points does not matter.
        let t2 = [(3, 0), (0, 0), (2, 0), (1, 0)];
        assert!(run(&a, &[[0.2, 0.0, 0.0]], t2));
        assert!(!run(&a, &[[0.6, 0.0, 0.0]], t2));
        // Flat (four coplanar points): never proved.
        let flat = [
            [0.5, 0.0, 0.0],
            [0.0, 0.5, 0.0],
            [-0.5, 0.0, 0.0],
            [0.0, -0.5, 0.0],
        ];
        assert!(!run(&flat, &[[0.0; 3]], t));
        // The differences need not be doubles: b's point 2^-60 off.
        let tiny = 2f64.powi(-60);
        assert!(run(&a, &[[tiny, tiny, -tiny]], t));
        // 2^-60 beyond the face x + y + z = ½ is outside.
        let b = [[0.25 + tiny, 0.25, 0.0]];
        let t3 = [(0, 0), (1, 0), (2, 0), (3, 0)];
        assert!(!run(&a, &b, t3));
    }

    fn cloud(st: &mut u64, n: usize, c: [f64; 3], s: f64) -> Vec<Vec3<f64>> {
        let mut f = || (splitmix64(st) >> 11) as f64 / (1u64 << 53) as f64 * 2.0 - 1.0;
        (0..n)
            .map(|_| Vec3::new(c[0] + s * f(), c[1] + s * f(), c[2] + s * f()))
            .collect()
    }

    /// Deeply overlapping clouds (nearby centres, at several scales) are
    /// proved to meet without the exact path; touching cubes (a shared face,
    /// edge, vertex) never are, and overlapping cubes are never proved apart.
    #[test]
    fn meeting_proved() {
        let mut st = 3u64;
        let mut meet = 0;
        for i in 0..200 {
            let s = [1.0, 2f64.powi(-500), 2f64.powi(500), 3.0][i % 4];
            let a = Rounded::convex(&cloud(&mut st, 16, [0.0; 3], s), 0.0).unwrap();
            let b = Rounded::convex(&cloud(&mut st, 16, [0.1 * s; 3], s), 0.0).unwrap();
            if let Some(Dw::Meet) = proved_dw(&a, &b, &mut None) {
                meet += 1;
            }
        }
        assert!(meet >= 190, "{meet}");
        let cube = |lo: [f64; 3]| -> Rounded<f64> {
            let p: Vec<Vec3<f64>> = (0..8)
                .map(|i| {
                    let c = |k: usize| lo[k] + if i >> k & 1 == 1 { 1.0 } else { 0.0 };
                    Vec3::new(c(0), c(1), c(2))
                })
                .collect();
            Rounded::convex(&p, 0.0).unwrap()
        };
        let a = cube([0.0; 3]);
        for lo in [
            [1.0, 0.0, 0.0],
            [1.0, 1.0, 0.0],
            [1.0, 1.0, 1.0],
            [1.0, 0.5, 0.25],
        ] {
            assert!(
                !matches!(proved_dw(&a, &cube(lo), &mut None), Some(Dw::Meet)),
                "{lo:?}"
            );
        }
        // Overlapping by about half a cube: never "apart" (GJK on the cubes'
        // tied supports may end on a flat simplex, left to the exact path).
        for lo in [[0.3, 0.45, 0.6], [0.5, 0.5, 0.5], [-0.25, 0.125, 0.0]] {
            assert!(
                !matches!(proved_dw(&a, &cube(lo), &mut None), Some(Dw::Apart(_))),
                "{lo:?}"
            );
        }
    }
}
