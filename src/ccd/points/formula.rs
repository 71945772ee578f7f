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

use std::cell::OnceCell;
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

/// Component j of u × v alone.
pub(crate) fn cross_component<T: Arith>(u: &V3<T>, v: &V3<T>, j: usize) -> T {
    let (a, b) = ((j + 1) % 3, (j + 2) % 3);
    u[a].mul(&v[b]).sub(&u[b].mul(&v[a]))
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

/// One polynomial of the contact condition (module docs of `points.rs`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Term {
    /// |n|².
    Normal2,
    /// Inside test i (vf: the edge tests, ee: −s(p)·s(p′) for each segment).
    Inside(usize),
    /// Component j of (p − x) × (q − x) of point-on-segment test i.
    SegmentCross(usize, usize),
    /// (p − x)·(q − x) of point-on-segment test i.
    SegmentDot(usize),
}

/// A value whose sign [`Contact::term_sign`] asks for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Part {
    /// A term whole.
    Whole(Term),
    /// Component j of the normal n.
    Normal(usize),
    /// ee: side k of inside test i.
    Side(usize, usize),
}

/// The contact condition apart from c = 0:
///
/// ```text
/// (|n|² > 0 ∧ every inside test ≥ 0) ∨ some point-on-segment test holds
/// x on the closed segment pq:  (p − x) × (q − x) = 0 ∧ (p − x)·(q − x) ≤ 0
/// ```
///
/// built from the frame A, B, C; each polynomial is computed when first asked
/// for (`term`), the shared normal once.
pub(crate) struct Contact<'a, T> {
    kind: Kind,
    a: &'a V3<T>,
    b: &'a V3<T>,
    c: &'a V3<T>,
    n: OnceCell<V3<T>>,
    /// The point-on-segment vectors (u, w), each built when first asked for.
    segs: [OnceCell<(V3<T>, V3<T>)>; 4],
}

impl<'a, T: Arith> Contact<'a, T> {
    /// The condition on the frame A, B, C (module docs).
    pub(crate) fn new(kind: Kind, a: &'a V3<T>, b: &'a V3<T>, c: &'a V3<T>) -> Self {
        Contact {
            kind,
            a,
            b,
            c,
            n: OnceCell::new(),
            segs: Default::default(),
        }
    }

    /// vf: (f1 − f0) × (f2 − f0); ee: (a1 − a0) × (b1 − b0).
    fn normal(&self) -> &V3<T> {
        self.n.get_or_init(|| match self.kind {
            Kind::VertexFace => cross(self.a, self.b),
            Kind::EdgeEdge => cross(self.a, &sub3(self.c, self.b)),
        })
    }

    /// The number of inside tests and of point-on-segment tests.
    fn counts(&self) -> (usize, usize) {
        match self.kind {
            Kind::VertexFace => (3, 3),
            Kind::EdgeEdge => (2, 4),
        }
    }

    /// (u, w) = (p − x, q − x) of point-on-segment test i.
    fn segment(&self, i: usize) -> &(V3<T>, V3<T>) {
        self.segs[i].get_or_init(|| self.build_segment(i))
    }

    fn build_segment(&self, i: usize) -> (V3<T>, V3<T>) {
        let (a, b, c) = (self.a, self.b, self.c);
        match (self.kind, i) {
            // vf: v on f0f1, f1f2, f2f0.
            (Kind::VertexFace, 0) => (neg3(c), sub3(a, c)),
            (Kind::VertexFace, 1) => (sub3(a, c), sub3(b, c)),
            (Kind::VertexFace, _) => (sub3(b, c), neg3(c)),
            // ee: a0 on b0b1, a1 on b0b1, b0 on a0a1, b1 on a0a1.
            (Kind::EdgeEdge, 0) => (b.clone(), c.clone()),
            (Kind::EdgeEdge, 1) => (sub3(b, a), sub3(c, a)),
            (Kind::EdgeEdge, 2) => (neg3(b), sub3(a, b)),
            (Kind::EdgeEdge, _) => (neg3(c), sub3(a, c)),
        }
    }

    /// The polynomial (or value) of one term.
    pub(crate) fn term(&self, t: Term) -> T {
        let (a, b, c) = (self.a, self.b, self.c);
        match t {
            Term::Normal2 => dot(self.normal(), self.normal()),
            Term::Inside(i) => match self.kind {
                // The edge tests ((q − p) × (v − p))·n for the edges f0f1, f1f2, f2f0.
                Kind::VertexFace => {
                    let e = match i {
                        0 => cross(a, c),
                        1 => cross(&sub3(b, a), &sub3(c, a)),
                        _ => cross(&neg3(b), &sub3(c, b)),
                    };
                    dot(&e, self.normal())
                }
                // Side of p w.r.t. line a along n: ((a1 − a0) × (p − a0))·n, w.r.t.
                // line b: ((b1 − b0) × (p − b0))·n; opposite sides or on the line:
                // −s(p)·s(p′) ≥ 0.
                Kind::EdgeEdge => self.side(i, 0).mul(&self.side(i, 1)).neg(),
            },
            Term::SegmentCross(i, j) => {
                let (u, w) = self.segment(i);
                cross_component(u, w, j)
            }
            Term::SegmentDot(i) => {
                let (u, w) = self.segment(i);
                dot(u, w)
            }
        }
    }

    /// ee: side k (0: s(p), 1: s(p′)) of inside test i (its term is
    /// −s(p)·s(p′)).
    fn side(&self, i: usize, k: usize) -> T {
        let (a, b, c) = (self.a, self.b, self.c);
        let n = self.normal();
        match (i, k) {
            (0, 0) => dot(&cross(a, b), n),
            (0, _) => dot(&cross(a, c), n),
            (_, 0) => dot(&cross(&sub3(c, b), &neg3(b)), n),
            _ => dot(&cross(&sub3(c, b), &sub3(a, b)), n),
        }
    }

    /// The value of one part (`term_sign`).
    pub(crate) fn part(&self, p: Part) -> T {
        match p {
            Part::Whole(t) => self.term(t),
            Part::Normal(j) => self.normal()[j].clone(),
            Part::Side(i, k) => self.side(i, k),
        }
    }

    /// The exact sign of one term from an exact sign oracle for its parts
    /// (values given by [`Contact::part`]), asked about smaller values where
    /// the term is built of them: |n|² is positive iff a component of n is
    /// nonzero, and the ee inside test −s(p)·s(p′) has the negated product of
    /// the two sides' signs (s(p′) asked for only when s(p) ≠ 0). Other terms
    /// are asked about whole.
    pub(crate) fn term_sign(&self, t: Term, sign: &mut impl FnMut(Part) -> Ordering) -> Ordering {
        match (t, self.kind) {
            (Term::Normal2, _) => {
                if (0..3).any(|j| sign(Part::Normal(j)) != Ordering::Equal) {
                    Ordering::Greater
                } else {
                    Ordering::Equal
                }
            }
            (Term::Inside(i), Kind::EdgeEdge) => match sign(Part::Side(i, 0)) {
                Ordering::Equal => Ordering::Equal,
                a => {
                    let b = sign(Part::Side(i, 1));
                    if b == Ordering::Equal {
                        Ordering::Equal
                    } else if a == b {
                        Ordering::Less
                    } else {
                        Ordering::Greater
                    }
                }
            },
            _ => sign(Part::Whole(t)),
        }
    }

    /// Every term, in the order `holds` asks for them.
    pub(crate) fn terms(&self) -> impl Iterator<Item = Term> {
        let (ni, ns) = self.counts();
        std::iter::once(Term::Normal2)
            .chain((0..ni).map(Term::Inside))
            .chain((0..ns).flat_map(|i| {
                (0..3)
                    .map(move |j| Term::SegmentCross(i, j))
                    .chain(std::iter::once(Term::SegmentDot(i)))
            }))
    }

    /// Whether the condition holds, given a sign oracle for its terms (`None`:
    /// unknown). Terms are asked for lazily, left to right. With an exact
    /// oracle the answer is always `Some`.
    pub(crate) fn holds(&self, sign: &mut impl FnMut(Term) -> Option<Ordering>) -> Option<bool> {
        let (ni, ns) = self.counts();
        let mut face = Some(true);
        if and(
            &mut face,
            sign(Term::Normal2).map(|s| s == Ordering::Greater),
        ) {
            for i in 0..ni {
                if !and(
                    &mut face,
                    sign(Term::Inside(i)).map(|s| s != Ordering::Less),
                ) {
                    break;
                }
            }
        }
        if face == Some(true) {
            return Some(true);
        }
        let mut known = face.is_some();
        for i in 0..ns {
            let mut on = Some(true);
            let mut go = true;
            for j in 0..3 {
                go = and(
                    &mut on,
                    sign(Term::SegmentCross(i, j)).map(|x| x == Ordering::Equal),
                );
                if !go {
                    break;
                }
            }
            if go {
                and(
                    &mut on,
                    sign(Term::SegmentDot(i)).map(|x| x != Ordering::Greater),
                );
            }
            match on {
                Some(true) => return Some(true),
                Some(false) => {}
                None => known = false,
            }
        }
        known.then_some(false)
    }
}

/// Kleene conjunction: `false` (stop) as soon as one term is false.
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
