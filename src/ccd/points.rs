//! `ccd_vf` and `ccd_ee`: points under linear motion, first time of contact.
//!
//! Every point moves as p(t) = p₀ + t·(p₁ − p₀). Contact needs coplanarity of the
//! four points, the cubic
//!
//! ```text
//! vf:  c(t) = det(f1 − f0, f2 − f0, v − f0)        ee:  c(t) = det(a1 − a0, b0 − a0, b1 − a0)
//! ```
//!
//! At each root of c in [0, 1], in order, an exact inside test decides: for
//! `ccd_vf` the vertex is in the closed triangle iff the three edge cross products
//! have non-negative dot products with the normal n = (f1 − f0) × (f2 − f0); for
//! `ccd_ee` the closed segments meet iff each segment's end points are on opposite
//! sides (or on) the other's line, measured along n = (a1 − a0) × (b1 − b0). All of
//! these are polynomials in t whose signs at the algebraic root are exact.
//!
//! Not answered (honest `NotImplemented`): c ≡ 0 (the points stay coplanar, a 2-D
//! problem), and a root where n = 0 (degenerate triangle, parallel edges).

use super::motion::{cross, dot, PVec};
use super::{ContactTime, PointCcdAnswer, TimeKind};
use crate::poly::{isolate_roots, Poly, Roots};
use crate::protocol::PointCcd;
use crate::query::QueryError;
use num_rational::BigRational;
use std::cmp::Ordering;

fn moving(q: &PointCcd, i: usize) -> PVec {
    let (a, b) = (&q.t0[i], &q.t1[i]);
    [0, 1, 2].map(|k| Poly::new(vec![a.get(k).clone(), b.get(k) - a.get(k)]))
}

fn sub(u: &PVec, v: &PVec) -> PVec {
    [&u[0] - &v[0], &u[1] - &v[1], &u[2] - &v[2]]
}

fn first(
    q: &PointCcd,
    coplanar: Poly,
    normal: PVec,
    inside: Vec<Poly>,
    what: &str,
) -> Result<PointCcdAnswer, QueryError> {
    let (t0, t1) = (
        BigRational::from_integer(0.into()),
        BigRational::from_integer(1.into()),
    );
    let roots = match isolate_roots(&coplanar, &t0, &t1) {
        Roots::Everywhere => {
            return Err(QueryError::NotImplemented(format!(
                "{what}: the points stay coplanar (a 2-D problem)"
            )))
        }
        Roots::Isolated(r) => r,
    };
    for root in roots {
        let mut x = root.value;
        if normal.iter().all(|p| x.sign_of(p) == Ordering::Equal) {
            return Err(QueryError::NotImplemented(format!(
                "{what}: degenerate normal at a coplanarity time"
            )));
        }
        if inside.iter().all(|p| x.sign_of(p) != Ordering::Less) {
            let t = if x.as_exact() == Some(&t0) {
                ContactTime {
                    kind: TimeKind::Start,
                    lo: t0.clone(),
                    hi: t0.clone(),
                    poly: Vec::new(),
                    f64: 0.0,
                }
            } else {
                ContactTime::root(x, &q.tolerance)
            };
            return Ok(PointCcdAnswer::Hit(t));
        }
    }
    Ok(PointCcdAnswer::Miss)
}

/// Vertex–face: vertex `t0[0]` against the triangle `t0[1..4]`.
pub fn vf(q: &PointCcd) -> Result<PointCcdAnswer, QueryError> {
    let [v, f0, f1, f2] = [0, 1, 2, 3].map(|i| moving(q, i));
    let (e0, e1) = (sub(&f1, &f0), sub(&f2, &f0));
    let n = cross(&e0, &e1);
    let c = dot(&n, &sub(&v, &f0));
    let inside = [(&f0, &f1), (&f1, &f2), (&f2, &f0)]
        .iter()
        .map(|(a, b)| dot(&cross(&sub(b, a), &sub(&v, a)), &n))
        .collect();
    first(q, c, n, inside, "ccd_vf")
}

/// Edge–edge: segment `t0[0]t0[1]` against `t0[2]t0[3]`.
pub fn ee(q: &PointCcd) -> Result<PointCcdAnswer, QueryError> {
    let [a0, a1, b0, b1] = [0, 1, 2, 3].map(|i| moving(q, i));
    let (da, db) = (sub(&a1, &a0), sub(&b1, &b0));
    let n = cross(&da, &db);
    let c = dot(&cross(&da, &sub(&b0, &a0)), &sub(&b1, &a0));
    // Side of b0, b1 w.r.t. line a (along n): s(p) = ((a1 − a0) × (p − a0))·n.
    let side_a = |p: &PVec| dot(&cross(&da, &sub(p, &a0)), &n);
    let side_b = |p: &PVec| dot(&cross(&db, &sub(p, &b0)), &n);
    // Opposite sides or on the line: −s(p)·s(p′) ≥ 0.
    let inside = vec![
        -&(&side_a(&b0) * &side_a(&b1)),
        -&(&side_b(&a0) * &side_b(&a1)),
    ];
    first(q, c, n, inside, "ccd_ee")
}
