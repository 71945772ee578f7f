//! The contact condition of `ccd_vf` / `ccd_ee`, written once over any
//! arithmetic: outward-rounded intervals (the filter, at a time interval),
//! integer polynomials in t (the exact method).
//!
//! All quantities are taken relative to one point (f0 for vertex–face, a0 for
//! edge–edge), from the three difference vectors
//!
//! ```text
//! vf:  A = f1 − f0,  B = f2 − f0,  C = v − f0        ee:  A = a1 − a0,  B = b0 − a0,  C = b1 − a0
//! ```
//!
//! so that the coplanarity polynomial is c = (A × B)·C for both.

use std::cmp::Ordering;

/// Ring operations on borrowed operands: what the contact formula needs.
pub(crate) trait Arith: Clone {
    fn add(&self, o: &Self) -> Self;
    fn sub(&self, o: &Self) -> Self;
    fn mul(&self, o: &Self) -> Self;
    fn neg(&self) -> Self;
}

impl Arith for crate::Interval {
    fn add(&self, o: &Self) -> Self {
        crate::Ring::add_ref(self, o)
    }
    fn sub(&self, o: &Self) -> Self {
        crate::Ring::sub_ref(self, o)
    }
    fn mul(&self, o: &Self) -> Self {
        crate::Ring::mul_ref(self, o)
    }
    fn neg(&self) -> Self {
        crate::Ring::neg_ref(self)
    }
}

/// A vector of three values.
pub(crate) type V3<T> = [T; 3];

pub(crate) fn sub3<T: Arith>(u: &V3<T>, v: &V3<T>) -> V3<T> {
    [u[0].sub(&v[0]), u[1].sub(&v[1]), u[2].sub(&v[2])]
}

pub(crate) fn neg3<T: Arith>(u: &V3<T>) -> V3<T> {
    [u[0].neg(), u[1].neg(), u[2].neg()]
}

pub(crate) fn cross<T: Arith>(u: &V3<T>, v: &V3<T>) -> V3<T> {
    [
        u[1].mul(&v[2]).sub(&u[2].mul(&v[1])),
        u[2].mul(&v[0]).sub(&u[0].mul(&v[2])),
        u[0].mul(&v[1]).sub(&u[1].mul(&v[0])),
    ]
}

pub(crate) fn dot<T: Arith>(u: &V3<T>, v: &V3<T>) -> T {
    u[0].mul(&v[0]).add(&u[1].mul(&v[1])).add(&u[2].mul(&v[2]))
}

/// Vertex–face or edge–edge.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// `ccd_vf`: the vertex `v` against the triangle `(f0, f1, f2)`; points in the
    /// order `v, f0, f1, f2`.
    VertexFace,
    /// `ccd_ee`: the segment `a0a1` against the segment `b0b1`; points in the order
    /// `a0, a1, b0, b1`.
    EdgeEdge,
}

impl Kind {
    /// Indices (into `v, f0, f1, f2` or `a0, a1, b0, b1`) of the base point and of
    /// the three points whose differences from it are A, B, C.
    pub(crate) fn frame(self) -> (usize, [usize; 3]) {
        match self {
            Kind::VertexFace => (1, [2, 3, 0]),
            Kind::EdgeEdge => (0, [1, 2, 3]),
        }
    }
}

/// "x on the closed segment pq", given u = p − x and w = q − x:
/// u × w = 0 and u·w ≤ 0. Also right for p = q (then it says x = p).
pub(crate) struct OnSegment<T> {
    /// u × w, all three components must vanish.
    pub cross: V3<T>,
    /// u·w, must be ≤ 0.
    pub dot: T,
}

fn on_segment<T: Arith>(u: &V3<T>, w: &V3<T>) -> OnSegment<T> {
    OnSegment {
        cross: cross(u, w),
        dot: dot(u, w),
    }
}

/// The contact condition apart from c = 0 (see `points.rs`):
///
/// ```text
/// (|n|² > 0 ∧ every inside test ≥ 0) ∨ some point-on-segment test holds
/// ```
pub(crate) struct Contact<T> {
    /// |n|².
    pub normal2: T,
    /// The tests that must be ≥ 0 when |n|² > 0.
    pub inside: Vec<T>,
    /// The point-on-closed-segment tests.
    pub segments: Vec<OnSegment<T>>,
}

impl<T: Arith> Contact<T> {
    /// The condition's values from A, B, C (module docs).
    pub(crate) fn new(kind: Kind, a: &V3<T>, b: &V3<T>, c: &V3<T>) -> Self {
        match kind {
            Kind::VertexFace => {
                // n = (f1 − f0) × (f2 − f0); the edge tests ((q − p) × (v − p))·n.
                let n = cross(a, b);
                let (ca, cb) = (sub3(c, a), sub3(c, b));
                let inside = vec![
                    dot(&cross(a, c), &n),
                    dot(&cross(&sub3(b, a), &ca), &n),
                    dot(&cross(&neg3(b), &cb), &n),
                ];
                // v on f0f1, f1f2, f2f0: u = p − v, w = q − v.
                let (f0v, f1v, f2v) = (neg3(c), neg3(&ca), neg3(&cb));
                let segments = vec![
                    on_segment(&f0v, &f1v),
                    on_segment(&f1v, &f2v),
                    on_segment(&f2v, &f0v),
                ];
                Contact {
                    normal2: dot(&n, &n),
                    inside,
                    segments,
                }
            }
            Kind::EdgeEdge => {
                // n = (a1 − a0) × (b1 − b0); side of p w.r.t. line a along n:
                // ((a1 − a0) × (p − a0))·n, w.r.t. line b: ((b1 − b0) × (p − b0))·n.
                let db = sub3(c, b);
                let n = cross(a, &db);
                let (sa0, sa1) = (dot(&cross(a, b), &n), dot(&cross(a, c), &n));
                let (sb0, sb1) = (
                    dot(&cross(&db, &neg3(b)), &n),
                    dot(&cross(&db, &sub3(a, b)), &n),
                );
                // Opposite sides or on the line: −s(p)·s(p′) ≥ 0.
                let inside = vec![sa0.mul(&sa1).neg(), sb0.mul(&sb1).neg()];
                let (ab, ac) = (sub3(b, a), sub3(c, a));
                let segments = vec![
                    // a0 on b0b1, a1 on b0b1, b0 on a0a1, b1 on a0a1.
                    on_segment(b, c),
                    on_segment(&ab, &ac),
                    on_segment(&neg3(b), &neg3(&ab)),
                    on_segment(&neg3(c), &neg3(&ac)),
                ];
                Contact {
                    normal2: dot(&n, &n),
                    inside,
                    segments,
                }
            }
        }
    }
}

/// Kleene conjunction: `Some(false)` as soon as one term is false.
fn and(acc: &mut Option<bool>, term: Option<bool>) -> bool {
    match term {
        Some(false) => {
            *acc = Some(false);
            return false;
        }
        Some(true) => {}
        None => *acc = None,
    }
    true
}

impl<T> Contact<T> {
    /// Whether the condition holds, given a sign oracle (`None`: unknown). Terms
    /// are evaluated lazily, left to right. With an exact oracle the answer is
    /// always `Some`.
    pub(crate) fn holds(&self, sign: &mut impl FnMut(&T) -> Option<Ordering>) -> Option<bool> {
        let mut face = Some(true);
        if and(&mut face, sign(&self.normal2).map(|s| s == Ordering::Greater)) {
            for p in &self.inside {
                if !and(&mut face, sign(p).map(|s| s != Ordering::Less)) {
                    break;
                }
            }
        }
        if face == Some(true) {
            return Some(true);
        }
        let mut known = face.is_some();
        for s in &self.segments {
            let mut on = Some(true);
            let mut go = true;
            for w in &s.cross {
                go = and(&mut on, sign(w).map(|x| x == Ordering::Equal));
                if !go {
                    break;
                }
            }
            if go {
                and(&mut on, sign(&s.dot).map(|x| x != Ordering::Greater));
            }
            match on {
                Some(true) => return Some(true),
                Some(false) => {}
                None => known = false,
            }
        }
        known.then_some(false)
    }

    /// Every polynomial of the condition.
    pub(crate) fn values(&self) -> impl Iterator<Item = &T> {
        std::iter::once(&self.normal2)
            .chain(&self.inside)
            .chain(
                self.segments
                    .iter()
                    .flat_map(|s| s.cross.iter().chain(std::iter::once(&s.dot))),
            )
    }
}
