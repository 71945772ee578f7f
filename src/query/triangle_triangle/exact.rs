//! The exact pieces both triangle operations share: the inputs lifted to
//! rationals, the closest points of point–segment and segment–segment pairs,
//! the exhaustive closest-feature search (the reference of `distance`, and the
//! last separating-axis candidate of `intersect`), and the recognition of
//! rational inputs that are doubles (they take the float inputs' paths).

use crate::num::ring::Ring;
use crate::num::scalar::Scalar;
use crate::query::Closest;
use crate::shape::Triangle;
use crate::vector::Vec3;
use num_rational::BigRational;
use num_traits::{Signed, Zero};

type Q = BigRational;
type P = Vec3<Q>;

pub(crate) fn lift<S: Scalar>(t: &Triangle<S>) -> [P; 3] {
    [
        t.v[0].to_rational(),
        t.v[1].to_rational(),
        t.v[2].to_rational(),
    ]
}

/// The point of the closed segment `[a, b]` nearest to `x`, and the squared
/// distance (exact; `a == b` allowed).
pub(crate) fn point_segment(x: &P, a: &P, b: &P) -> (Q, P) {
    let d = b.sub(a);
    let dd = d.norm_squared();
    let y = if dd.is_zero() {
        a.clone()
    } else {
        let t = d.dot(&x.sub(a));
        if t <= <Q as Zero>::zero() {
            a.clone()
        } else if t >= dd {
            b.clone()
        } else {
            a.add(&d.scale(&(t / dd)))
        }
    };
    (x.sub(&y).norm_squared(), y)
}

/// The closest points of the closed segments `[p0, p1]` and `[q0, q1]`
/// (exact; degenerate segments allowed): `(d², on p, on q)`.
pub(crate) fn segment_segment(p0: &P, p1: &P, q0: &P, q1: &P) -> (Q, P, P) {
    let mut best: Option<(Q, P, P)> = None;
    let mut offer = |d2: Q, x: P, y: P| {
        if best.as_ref().is_none_or(|b| d2 < b.0) {
            best = Some((d2, x, y));
        }
    };
    for x in [p0, p1] {
        let (d2, y) = point_segment(x, q0, q1);
        offer(d2, x.clone(), y);
    }
    for y in [q0, q1] {
        let (d2, x) = point_segment(y, p0, p1);
        offer(d2, x, y.clone());
    }
    let (d1, d2v, r) = (p1.sub(p0), q1.sub(q0), p0.sub(q0));
    let (a, e, b) = (d1.norm_squared(), d2v.norm_squared(), d1.dot(&d2v));
    let (c, f) = (d1.dot(&r), d2v.dot(&r));
    let den = a.mul_ref(&e).sub_ref(&b.square());
    if den > <Q as Zero>::zero() {
        let s = b.mul_ref(&f).sub_ref(&c.mul_ref(&e));
        let t = a.mul_ref(&f).sub_ref(&b.mul_ref(&c));
        let inside = |v: &Q| *v > <Q as Zero>::zero() && *v < den;
        if inside(&s) && inside(&t) {
            let x = p0.add(&d1.scale(&(s / &den)));
            let y = q0.add(&d2v.scale(&(t / &den)));
            offer(x.sub(&y).norm_squared(), x, y);
        }
    }
    best.expect("four candidates")
}

fn normal(t: &[P; 3]) -> P {
    t[1].sub(&t[0]).cross(&t[2].sub(&t[0]))
}

/// The vertex–face candidate: `x`'s foot on plane(t) if it lies in `t`.
fn vertex_face(x: &P, t: &[P; 3]) -> Option<(Q, P)> {
    let n = normal(t);
    let nn = n.norm_squared();
    if nn.is_zero() {
        return None; // a degenerate face: its edges carry the distance
    }
    for e in 0..3 {
        let (u, v) = (&t[e], &t[(e + 1) % 3]);
        if v.sub(u).cross(&x.sub(u)).dot(&n) < <Q as Zero>::zero() {
            return None;
        }
    }
    let s = n.dot(&x.sub(&t[0]));
    let d2 = s.square() / &nn;
    let foot = x.sub(&n.scale(&(s / nn)));
    Some((d2, foot))
}

/// The least feature-pair distance (exact). Equals the distance when the
/// triangles are disjoint; an upper bound of 0… otherwise (callers decide
/// intersection first).
pub(crate) fn closest_features(a: &[P; 3], b: &[P; 3]) -> Closest<Q> {
    let mut best: Option<Closest<Q>> = None;
    let mut offer = |d2: Q, pa: P, pb: P| {
        if best.as_ref().is_none_or(|c| d2 < c.distance_squared) {
            best = Some(Closest {
                distance_squared: d2,
                a: pa,
                b: pb,
            });
        }
    };
    for x in a {
        if let Some((d2, foot)) = vertex_face(x, b) {
            offer(d2, x.clone(), foot);
        }
    }
    for y in b {
        if let Some((d2, foot)) = vertex_face(y, a) {
            offer(d2, foot, y.clone());
        }
    }
    for e in 0..3 {
        for f in 0..3 {
            let (d2, x, y) = segment_segment(&a[e], &a[(e + 1) % 3], &b[f], &b[(f + 1) % 3]);
            offer(d2, x, y);
        }
    }
    best.expect("nine edge pairs")
}

/// The pair as f64 triangles when `S` is exact and every coordinate is a
/// double (a rational `m·2^e` with `|m| < 2⁵³` in the range of doubles): the
/// same values, so the float inputs' integer path gives the same answer.
pub(crate) fn as_doubles<S: Scalar>(
    a: &Triangle<S>,
    b: &Triangle<S>,
) -> Option<(Triangle<f64>, Triangle<f64>)> {
    if !S::IS_EXACT {
        return None;
    }
    let f = |t: &Triangle<S>| -> Option<Triangle<f64>> {
        let t = (t as &dyn std::any::Any).downcast_ref::<Triangle<Q>>()?;
        let p = |p: &P| {
            Some(Vec3::new(
                exact_f64(&p.x)?,
                exact_f64(&p.y)?,
                exact_f64(&p.z)?,
            ))
        };
        Some(Triangle::new([p(&t.v[0])?, p(&t.v[1])?, p(&t.v[2])?]))
    };
    Some((f(a)?, f(b)?))
}

/// The double equal to `r`, if there is one.
fn exact_f64(r: &Q) -> Option<f64> {
    let (n, d) = (r.numer(), r.denom());
    let Some(tz) = n.trailing_zeros() else {
        return Some(0.0);
    };
    let k = d.trailing_zeros()?;
    let span = n.bits() - tz;
    if d.bits() != k + 1 || span > 53 {
        return None; // not dyadic, or more than 53 significant bits
    }
    // r = m·2^e with m odd, |m| < 2^53.
    let e = tz as i64 - k as i64;
    if e < -1074 || e + span as i64 - 1 > 1023 {
        return None;
    }
    // The odd part, from the (at most two) 64-bit digits it spans.
    let mut w = n.magnitude().iter_u64_digits().skip((tz / 64) as usize);
    let (lo, hi) = (w.next().unwrap_or(0), w.next().unwrap_or(0));
    let sh = tz % 64;
    let m = if sh == 0 {
        lo
    } else {
        lo >> sh | hi << (64 - sh)
    };
    let m = if n.is_negative() {
        -(m as f64)
    } else {
        m as f64
    };
    let pow2 = |e: i64| f64::from_bits(((e + 1023) as u64) << 52);
    // Exact: the product is representable (subnormals in two steps).
    Some(if e >= -1022 {
        m * pow2(e)
    } else {
        m * pow2(e + 200) * pow2(-200)
    })
}
