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
//! Degenerate configurations are answered exactly too. The contact condition is
//! written as one Boolean combination of polynomial sign conditions that is right
//! in every configuration:
//!
//! ```text
//! vf:  c = 0 ∧ [ (|n|² > 0 ∧ the three edge tests ≥ 0)
//!                ∨ v on closed segment f0f1 ∨ v on f1f2 ∨ v on f2f0 ]
//! ee:  c = 0 ∧ [ (|n|² > 0 ∧ the two side tests ≥ 0)
//!                ∨ a0 on b0b1 ∨ a1 on b0b1 ∨ b0 on a0a1 ∨ b1 on a0a1 ]
//! x on closed segment pq:  |(p − x) × (q − x)|² = 0 ∧ (p − x)·(q − x) ≤ 0
//! ```
//!
//! When n = 0 the triangle has collapsed onto a segment or a point (its hull is
//! the union of its three edge segments), or the two edges are parallel or
//! collapsed (closed segments on parallel lines meet iff an end point of one lies
//! on the other); the segment tests then carry the answer, and when n ≠ 0 they are
//! implied by the first clause, so the formula is exact everywhere.
//!
//! If c is not identically zero, contact can only happen at its roots, which are
//! tried in order. If c ≡ 0 (the points stay coplanar) the contact set is still
//! closed, and the truth of the formula can only change where one of its
//! polynomials changes sign; so the first contact time is 0 or a root of one of
//! them, and those points are tried in exact increasing order. Nothing is
//! approximated and nothing is left unanswered.

use super::motion::{cross, dot, PVec};
use super::PointCcd;
use super::{ContactTime, PointCcdAnswer, TimeKind};
use crate::poly::{isolate_roots, Poly, RealRoot, Roots};
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

/// `x` on the closed segment `pq` (all moving): |(p − x) × (q − x)|² = 0 and
/// (p − x)·(q − x) ≤ 0. Also right for p = q (then it says x = p).
fn on_segment(x: &PVec, p: &PVec, q: &PVec) -> (Poly, Poly) {
    let (u, v) = (sub(p, x), sub(q, x));
    let w = cross(&u, &v);
    (dot(&w, &w), dot(&u, &v))
}

/// The contact condition of the module docs, apart from `c = 0`.
struct Contact {
    /// |n|², and the tests that must be ≥ 0 when it is positive.
    normal2: Poly,
    inside: Vec<Poly>,
    /// Point-on-segment tests: (squared cross product, dot product).
    segments: Vec<(Poly, Poly)>,
}

impl Contact {
    fn new(n: &PVec, inside: Vec<Poly>, segments: Vec<(Poly, Poly)>) -> Self {
        Contact {
            normal2: dot(n, n),
            inside,
            segments,
        }
    }

    /// Whether the condition holds at a point where `c = 0`, given the exact sign
    /// of any polynomial there.
    fn holds(&self, sign: &mut impl FnMut(&Poly) -> Ordering) -> bool {
        (sign(&self.normal2) == Ordering::Greater
            && self.inside.iter().all(|p| sign(p) != Ordering::Less))
            || self
                .segments
                .iter()
                .any(|(w2, d)| sign(w2) == Ordering::Equal && sign(d) != Ordering::Greater)
    }

    fn polys(&self) -> impl Iterator<Item = &Poly> {
        std::iter::once(&self.normal2)
            .chain(&self.inside)
            .chain(self.segments.iter().flat_map(|(a, b)| [a, b]))
    }
}

fn first(q: &PointCcd, coplanar: Poly, contact: Contact) -> Result<PointCcdAnswer, QueryError> {
    let (t0, t1) = (
        BigRational::from_integer(0.into()),
        BigRational::from_integer(1.into()),
    );
    let start = ContactTime {
        kind: TimeKind::Start,
        lo: t0.clone(),
        hi: t0.clone(),
        poly: Vec::new(),
        f64: 0.0,
    };
    let candidates: Vec<RealRoot> = match isolate_roots(&coplanar, &t0, &t1) {
        Roots::Isolated(r) => r.into_iter().map(|r| r.value).collect(),
        Roots::Everywhere => {
            // Always coplanar: 0, then every root of every polynomial of the
            // condition, in exact increasing order.
            if contact.holds(&mut |p| p.sign_at(&t0)) {
                return Ok(PointCcdAnswer::Hit(start));
            }
            let mut all: Vec<RealRoot> = contact
                .polys()
                .flat_map(|p| match isolate_roots(p, &t0, &t1) {
                    Roots::Isolated(r) => r.into_iter().map(|r| r.value).collect(),
                    Roots::Everywhere => Vec::new(),
                })
                .collect();
            all.sort_by(|x, y| x.cmp_exact(y));
            all
        }
    };
    for mut x in candidates {
        if contact.holds(&mut |p| x.sign_of(p)) {
            if x.as_exact() == Some(&t0) {
                return Ok(PointCcdAnswer::Hit(start));
            }
            return Ok(PointCcdAnswer::Hit(ContactTime::root(x, &q.tolerance)));
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
    let segments = vec![
        on_segment(&v, &f0, &f1),
        on_segment(&v, &f1, &f2),
        on_segment(&v, &f2, &f0),
    ];
    first(q, c, Contact::new(&n, inside, segments))
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
    let segments = vec![
        on_segment(&a0, &b0, &b1),
        on_segment(&a1, &b0, &b1),
        on_segment(&b0, &a0, &a1),
        on_segment(&b1, &a0, &a1),
    ];
    first(q, c, Contact::new(&n, inside, segments))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Vec3;

    fn q(t0: [[i64; 3]; 4], t1: [[i64; 3]; 4]) -> PointCcd {
        // Coordinates in quarters, so 1/4-steps are exact.
        let v = |p: [i64; 3]| p.map(|c| BigRational::new(c.into(), 4.into()));
        let v3 = |p: [i64; 3]| {
            let [x, y, z] = v(p);
            Vec3::new(x, y, z)
        };
        PointCcd {
            t0: t0.map(v3),
            t1: t1.map(v3),
            tolerance: BigRational::new(1.into(), 1000.into()),
        }
    }

    fn time(a: PointCcdAnswer) -> Option<(TimeKind, BigRational)> {
        match a {
            PointCcdAnswer::Miss => None,
            PointCcdAnswer::Hit(c) => {
                // The exact time, whether reported as a point or an isolating
                // interval of its polynomial.
                let mut x = c.to_real_root().expect("certificate verifies");
                assert!(x.make_exact_if_rational(), "these times are rational");
                Some((c.kind, x.as_exact().unwrap().clone()))
            }
        }
    }

    fn r(n: i64, d: i64) -> BigRational {
        BigRational::new(n.into(), d.into())
    }

    /// Hand-checked answers in the configurations the cubic c(t) cannot decide.
    #[test]
    fn degenerate_configurations() {
        // ee, always coplanar (z = 0): b = x-offset vertical segment moving from
        // x = 2 to x = 0 hits a's end (1, 0) when 2 − 2t = 1, t = 1/2.
        let a = q(
            [[0, 0, 0], [4, 0, 0], [8, -4, 0], [8, 4, 0]],
            [[0, 0, 0], [4, 0, 0], [0, -4, 0], [0, 4, 0]],
        );
        assert_eq!(time(ee(&a).unwrap()), Some((TimeKind::Root, r(1, 2))));
        // ee, collinear and parallel all along: b0 at x = 3 − 3t reaches a1 at x = 1
        // when t = 2/3.
        let b = q(
            [[0, 0, 0], [4, 0, 0], [12, 0, 0], [16, 0, 0]],
            [[0, 0, 0], [4, 0, 0], [0, 0, 0], [4, 0, 0]],
        );
        assert_eq!(time(ee(&b).unwrap()), Some((TimeKind::Root, r(2, 3))));
        // ee, parallel lines one unit apart in z, never meeting: a miss.
        let c = q(
            [[0, 0, 0], [4, 0, 0], [-8, 0, 4], [8, 0, 4]],
            [[0, 0, 0], [4, 0, 0], [-8, 4, 4], [8, 4, 4]],
        );
        assert!(time(ee(&c).unwrap()).is_none());
        // vf, always coplanar: v slides along y = 1/4 from x = −1 to x = 1 and
        // enters the unit right triangle at x = 0, t = 1/2.
        let d = q(
            [[-4, 1, 0], [0, 0, 0], [4, 0, 0], [0, 4, 0]],
            [[4, 1, 0], [0, 0, 0], [4, 0, 0], [0, 4, 0]],
        );
        assert_eq!(time(vf(&d).unwrap()), Some((TimeKind::Root, r(1, 2))));
        // vf, always coplanar, passing at y = 2 above the triangle: a miss.
        let e = q(
            [[-4, 8, 0], [0, 0, 0], [4, 0, 0], [0, 4, 0]],
            [[4, 8, 0], [0, 0, 0], [4, 0, 0], [0, 4, 0]],
        );
        assert!(time(vf(&e).unwrap()).is_none());
        // vf, always coplanar and inside at t = 0: start.
        let f = q(
            [[1, 1, 0], [0, 0, 0], [4, 0, 0], [0, 4, 0]],
            [[8, 8, 0], [0, 0, 0], [4, 0, 0], [0, 4, 0]],
        );
        assert_eq!(time(vf(&f).unwrap()), Some((TimeKind::Start, r(0, 1))));
        // vf, the face collapses onto the segment f0f1 at t = 1/2 (f2 = (0, 1 − 2t, 0))
        // just as v = (1/2, 0, 1 − 2t) crosses it: c = (1 − 2t)², n = 0 at the root,
        // and v is on the collapsed face.
        let g = q(
            [[2, 0, 4], [0, 0, 0], [4, 0, 0], [0, 4, 0]],
            [[2, 0, -4], [0, 0, 0], [4, 0, 0], [0, -4, 0]],
        );
        assert_eq!(time(vf(&g).unwrap()), Some((TimeKind::Root, r(1, 2))));
        // The same collapse with v crossing at x = 2, beyond the collapsed face
        // [0, 1] on the x axis: a miss.
        let h = q(
            [[8, 0, 4], [0, 0, 0], [4, 0, 0], [0, 4, 0]],
            [[8, 0, -4], [0, 0, 0], [4, 0, 0], [0, -4, 0]],
        );
        assert!(time(vf(&h).unwrap()).is_none());
    }
}
