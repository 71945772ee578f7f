//! The closest pair of two disjoint shapes: a feature pair guessed in floats
//! ([`super::gjk`]), proved optimal and unique with exact signs, then
//! constructed exactly in integers and reduced once.
//!
//! **Proof.** For a feature pair (F_A, F_B) of one of the kinds vertex–vertex,
//! vertex–edge, vertex–face (either way round) or edge–edge, the candidate
//! points are the exact projections (pa, pb), and `d̂` a positive multiple of
//! `pb − pa` written as a polynomial (for edge–edge `−(w·n)·n`, for
//! vertex–face `−h·n`, …), orthogonal to both features by construction. The
//! pair is accepted when, exactly,
//!
//! 1. pa ∈ F_A and pb ∈ F_B (edge parameters in [0, 1], the foot of the
//!    perpendicular inside the face, edges not parallel);
//! 2. `d̂·(x − a₀) < 0` for every vertex x of A not in F_A and `d̂·(y − b₀) > 0`
//!    for every vertex y of B not in F_B (a₀ ∈ F_A, b₀ ∈ F_B).
//!
//! Then the slab between the planes through pa and pb orthogonal to d̂
//! separates A from B, so |pb − pa| is the distance; A's supporting face in
//! direction d̂ is exactly F_A and B's is F_B (strict inequalities), and for
//! these kinds of pair `F_A ∩ (F_B − (pb − pa))` is one point: the closest pair
//! is unique, and so equal to the one the exhaustive enumeration reports.
//! A pair that fails any test (or a guess of another kind: parallel
//! edge–face, face–face) is not accepted.

use super::side::{Ctx, Exact, Kind, Side, View};
use crate::num::bounded::{decide, Fx};
use crate::num::fixed::Int;
use crate::num::ring::Ring;
use crate::num::sign::Sign;
use crate::num::wide::{cross, dot, w2, Wide, V};
use crate::query::unreduced::{IntPoint, Ints, D2};
use crate::vector::Vec3;

/// A feature of one side.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Feat {
    V(usize),
    /// Edge number (into the side's edge list).
    E(usize),
    F(usize),
}

/// The feature of side `s` spanned by the vertex mask `m`.
pub(crate) fn feature<V: View>(s: &V, m: u8) -> Option<Feat> {
    let k = m.count_ones();
    if k == 1 {
        return Some(Feat::V(m.trailing_zeros() as usize));
    }
    if k == 2 {
        if let Some(e) = s
            .edges()
            .iter()
            .position(|&(i, j)| m == (1 << i) | (1 << j))
        {
            return Some(Feat::E(e));
        }
    }
    (0..s.nfaces())
        .find(|&f| {
            let cm = s.face_cycle(f).iter().fold(0u8, |x, &i| x | 1 << i);
            cm & m == m
        })
        .map(Feat::F)
}

/// An accepted pair of features.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Pair {
    pub fa: Feat,
    pub fb: Feat,
}

/// The mask of a feature's vertices.
pub(crate) fn feature_mask<V: View>(s: &V, f: Feat) -> u8 {
    verts(s, f).0
}

/// The mask of a feature's vertices and one of them.
fn verts<V: View>(s: &V, f: Feat) -> (u8, usize) {
    match f {
        Feat::V(i) => (1 << i, i),
        Feat::E(e) => {
            let (i, j) = s.edges()[e];
            ((1 << i) | (1 << j), i)
        }
        Feat::F(f) => {
            let c = s.face_cycle(f);
            (c.iter().fold(0, |x, &i| x | 1 << i), c[0])
        }
    }
}

/// An edge as (start, direction).
fn edge<V: View>(s: &V, e: usize) -> (Vec3<V::R>, Vec3<V::R>) {
    s.edge_vectors(e)
}

/// Edge ea of a against edge eb of b: the edges `p0 + u·σ`, `r0 + v·τ`,
/// `w = p0 − r0`, `den = |u|²|v|² − (u·v)² = |u × v|²` and the parameters of
/// the closest points of the two lines times `den`.
struct EdgeEdge<R> {
    u: Vec3<R>,
    v: Vec3<R>,
    w: Vec3<R>,
    den: R,
    s: R,
    t: R,
}

fn edge_edge<V: View>(a: &V, b: &V, ea: usize, eb: usize) -> EdgeEdge<V::R> {
    let (p0, u) = edge(a, ea);
    let (r0, v) = edge(b, eb);
    let (uu, uv, vv) = (u.norm_squared(), u.dot(&v), v.norm_squared());
    let den = uu.mul_ref(&vv).sub_ref(&uv.mul_ref(&uv));
    let w = p0.sub(&r0);
    let (d, e) = (u.dot(&w), v.dot(&w));
    let s = uv.mul_ref(&e).sub_ref(&vv.mul_ref(&d));
    let t = uu.mul_ref(&e).sub_ref(&uv.mul_ref(&d));
    EdgeEdge { u, v, w, den, s, t }
}

/// `d̂`, a positive multiple of `pb − pa` (see the module docs).
fn direction<V: View>(a: &V, b: &V, p: Pair) -> Vec3<V::R> {
    match (p.fa, p.fb) {
        (Feat::V(i), Feat::V(j)) => b.v(j).sub(&a.v(i)),
        (Feat::V(i), Feat::E(e)) => {
            let (s, u) = edge(b, e);
            let x = &a.v(i);
            let t = x.sub(&s).dot(&u);
            s.sub(x).scale(&u.norm_squared()).add(&u.scale(&t))
        }
        (Feat::E(e), Feat::V(j)) => {
            let (s, u) = edge(a, e);
            let y = &b.v(j);
            let t = y.sub(&s).dot(&u);
            y.sub(&s).scale(&u.norm_squared()).sub(&u.scale(&t))
        }
        (Feat::V(i), Feat::F(f)) => {
            let n = b.face_normal(f).0;
            let h = n.dot(&a.v(i).sub(&b.v(b.face_cycle(f)[0])));
            n.scale(&h.neg_ref())
        }
        (Feat::F(f), Feat::V(j)) => {
            let n = a.face_normal(f).0;
            let h = n.dot(&b.v(j).sub(&a.v(a.face_cycle(f)[0])));
            n.scale(&h)
        }
        (Feat::E(ea), Feat::E(eb)) => {
            let (p0, u) = edge(a, ea);
            let (r0, v) = (edge(b, eb).0, edge(b, eb).1);
            let n = u.cross(&v);
            let wn = p0.sub(&r0).dot(&n);
            n.scale(&wn.neg_ref())
        }
        _ => unreachable!("pair kinds are checked before"),
    }
}

/// A validity condition: `x ≥ 0`, `x > 0`, or `x` zero or of the sign of `r`
/// (`r ≠ 0`).
enum Cond<R> {
    NonNeg(R),
    Pos(R),
    Agree(R, R),
}

/// At most five conditions (a face has four edges; edge–edge has five).
struct Conds<R> {
    c: [Option<Cond<R>>; 5],
    n: usize,
}

impl<R> Conds<R> {
    fn new() -> Self {
        Conds {
            c: std::array::from_fn(|_| None),
            n: 0,
        }
    }
    fn push(&mut self, c: Cond<R>) {
        self.c[self.n] = Some(c);
        self.n += 1;
    }
    fn iter(&self) -> impl Iterator<Item = &Cond<R>> {
        self.c[..self.n].iter().flatten()
    }
}

/// The validity conditions of a pair: edge parameters in range, the foot of a
/// perpendicular inside its face (`m·(x − p)` zero or of the sign of
/// `m·(r − p)`, for each edge p → q of the face, `m = n × (q − p)` its
/// in-plane normal and r a vertex of the face off that edge), edges not
/// parallel.
fn validity<V: View>(a: &V, b: &V, p: Pair, out: &mut Conds<V::R>) {
    let ve = |x: &Vec3<V::R>, t: &V, e: usize, out: &mut Conds<V::R>| {
        let (s, u) = edge(t, e);
        let d = x.sub(&s).dot(&u);
        out.push(Cond::NonNeg(u.norm_squared().sub_ref(&d)));
        out.push(Cond::NonNeg(d));
    };
    let vf = |x: &Vec3<V::R>, t: &V, f: usize, out: &mut Conds<V::R>| in_face(x, t, f, out);
    match (p.fa, p.fb) {
        (Feat::V(_), Feat::V(_)) => {}
        (Feat::V(i), Feat::E(e)) => ve(&a.v(i), b, e, out),
        (Feat::E(e), Feat::V(j)) => ve(&b.v(j), a, e, out),
        (Feat::V(i), Feat::F(f)) => vf(&a.v(i), b, f, out),
        (Feat::F(f), Feat::V(j)) => vf(&b.v(j), a, f, out),
        (Feat::E(ea), Feat::E(eb)) => {
            let EdgeEdge { den, s, t, .. } = edge_edge(a, b, ea, eb);
            out.push(Cond::NonNeg(den.sub_ref(&s)));
            out.push(Cond::NonNeg(den.sub_ref(&t)));
            out.push(Cond::NonNeg(s));
            out.push(Cond::NonNeg(t));
            out.push(Cond::Pos(den));
        }
        _ => unreachable!(),
    }
}

/// The foot of the perpendicular from `x` to face f of `t` lies in the face
/// exactly when, for each edge p → q of the face (`m = n × (q − p)` its
/// in-plane normal, r a face vertex off the edge), `m·(x − p)` is zero or
/// of the sign of `m·(r − p)` (`m ⟂ n`: the foot and x give the same value).
fn in_face<V: View>(x: &Vec3<V::R>, t: &V, f: usize, out: &mut Conds<V::R>) {
    let n = t.face_normal(f).0;
    let c = t.face_cycle(f);
    for k in 0..c.len() {
        let (p, q, r) = (
            t.v(c[k]),
            t.v(c[(k + 1) % c.len()]),
            t.v(c[(k + 2) % c.len()]),
        );
        let m = n.cross(&q.sub(&p));
        out.push(Cond::Agree(m.dot(&x.sub(&p)), m.dot(&r.sub(&p))));
    }
}

/// Whether the pair kind is one the proof handles.
fn handled(p: Pair) -> bool {
    matches!(
        (p.fa, p.fb),
        (Feat::V(_), _) | (_, Feat::V(_)) | (Feat::E(_), Feat::E(_))
    )
}

/// The exact proof (see the module docs): the pair is the unique closest
/// pair.
#[cfg(test)]
pub(crate) fn prove(ctx: &Ctx, p: Pair) -> bool {
    support(ctx, p) == Some(masks(ctx, p))
}

/// The vertex masks of a pair's two features.
pub(crate) fn masks(ctx: &Ctx, p: Pair) -> (u8, u8) {
    (verts(&ctx.a, p.fa).0, verts(&ctx.b, p.fb).0)
}

/// The proof without uniqueness: `Some((sa, sb))` when the pair's points are
/// a closest pair (validity, and `d̂·(x − a₀) ≤ 0`, `d̂·(y − b₀) ≥ 0` for every
/// vertex), with `sa`, `sb` the exact vertex sets of the two supporting faces
/// (the features' vertices and every vertex with a zero test). Equal to the
/// features' masks exactly when the pair is the unique closest pair.
pub(crate) fn support(ctx: &Ctx, p: Pair) -> Option<(u8, u8)> {
    support_by(ctx, p, true)
}

/// [`support`], with `box_signs` choosing [`box_support`] (three signs) or
/// the vertex loop for box sides (the tests compare the two).
pub(crate) fn support_by(ctx: &Ctx, p: Pair, box_signs: bool) -> Option<(u8, u8)> {
    if !handled(p) {
        return None;
    }
    // 1. Validity.
    let mut conds: Conds<Fx> = Conds::new();
    validity(&ctx.a, &ctx.b, p, &mut conds);
    let mut exact: Option<Conds<Int>> = None;
    let mut ex = |k: usize, second: bool| -> Int {
        let e = exact.get_or_insert_with(|| {
            let x = ctx.exact();
            let mut v = Conds::new();
            validity(&x[0], &x[1], p, &mut v);
            v
        });
        match (e.iter().nth(k).expect("same conditions"), second) {
            (Cond::NonNeg(x) | Cond::Pos(x) | Cond::Agree(x, _), false) => *x,
            (Cond::Agree(_, r), true) => *r,
            _ => unreachable!(),
        }
    };
    for (k, c) in conds.iter().enumerate() {
        let ok = match c {
            Cond::NonNeg(x) => decide(*x, || ex(k, false)) != Sign::Negative,
            Cond::Pos(x) => decide(*x, || ex(k, false)) == Sign::Positive,
            Cond::Agree(x, r) => {
                let s1 = decide(*x, || ex(k, false));
                s1 == Sign::Zero || s1 == decide(*r, || ex(k, true))
            }
        };
        if !ok {
            return None;
        }
    }
    // 2. Optimality; strict off the features for a unique pair.
    let d = direction(&ctx.a, &ctx.b, p);
    let mut dex: Option<Vec3<Int>> = None;
    let mut out = [0u8; 2];
    for (s, feat, want) in [(0usize, p.fa, Sign::Negative), (1, p.fb, Sign::Positive)] {
        let sd = ctx.side(s);
        let (mask, base) = verts(sd, feat);
        if box_signs && sd.kind == Kind::Box {
            let mut ex = || {
                let e = ctx.exact();
                dex.get_or_insert_with(|| direction(&e[0], &e[1], p))
                    .clone()
            };
            out[s] = box_support(sd, s, &d, (mask, base), want, ctx, &mut ex)?;
            continue;
        }
        out[s] = mask;
        for x in 0..sd.nv {
            if mask >> x & 1 == 1 {
                continue;
            }
            let f = d.dot(&sd.v(x).sub(&sd.v(base)));
            let sg = decide(f, || {
                let e = ctx.exact();
                let dx = dex.get_or_insert_with(|| direction(&e[0], &e[1], p));
                dx.dot(&e[s].v(x).sub(&e[s].v(base)))
            });
            if sg == Sign::Zero {
                out[s] |= 1 << x;
            } else if sg != want {
                return None;
            }
        }
    }
    // d̂ = 0 (touching) makes every test zero: not a separating direction.
    if out[0].count_ones() as usize == ctx.a.nv && out[1].count_ones() as usize == ctx.b.nv {
        return None;
    }
    Some((out[0], out[1]))
}

/// The optimality test of [`support`] on a box side, from three signs
/// instead of seven vertex tests: vertex `i` is `c + Σₖ ±hₖ` (`+` when bit
/// `k` of `i` is set), so `d̂·(x − base) = Σₖ (bitₖ(x) − bitₖ(base))·2·d̂·hₖ`.
/// Every vertex is on the `want` side of (or on) the plane through `base`
/// exactly when, for each `k` with `d̂·hₖ ≠ 0`, `base` has the bit that
/// extremizes `d̂·x`; the vertices with a zero test are then those that
/// agree with `base` on every such bit. `None` when a vertex is on the wrong
/// side, as the vertex loop would answer: a vertex that differs from `base`
/// only in a bit `k` with `d̂·hₖ ≠ 0` is not in the feature, since `d̂` is
/// exactly orthogonal to the feature's edges (`mask`, with the vertex
/// `base`), which also makes `d̂·hₖ = 0` for the bits that vary in it.
fn box_support(
    sd: &Side<Fx>,
    s: usize,
    d: &Vec3<Fx>,
    (mask, base): (u8, usize),
    want: Sign,
    ctx: &Ctx,
    dex: &mut impl FnMut() -> Vec3<Int>,
) -> Option<u8> {
    let (_, h) = sd.box_parts();
    // The bits that vary within the feature: d̂·hₖ = 0 exactly there (d̂ is
    // orthogonal to the feature's edges by construction), no test needed.
    let span = (0..8)
        .filter(|i| mask >> i & 1 == 1)
        .fold(0usize, |m, i| m | (i ^ base));
    // Bits that must agree with base.
    let mut fixed = 0usize;
    for (k, hk) in h.iter().enumerate() {
        if span >> k & 1 == 1 {
            continue;
        }
        let sg = decide(d.dot(hk), || {
            let (_, he) = ctx.exact_side(s).box_parts();
            dex().dot(&he[k])
        });
        if sg == Sign::Zero {
            continue;
        }
        // want Negative (side a): base maximizes d̂·x, so bit k is set
        // exactly when d̂·hₖ > 0; want Positive (side b): the reverse.
        let set = (sg == Sign::Positive) == (want == Sign::Negative);
        if (base >> k & 1 == 1) != set {
            return None;
        }
        fixed |= 1 << k;
    }
    Some(
        (0..8)
            .filter(|i| (i ^ base) & fixed == 0)
            .fold(0u8, |m, i| m | 1 << i),
    )
}

/// A candidate's exact squared distance `(n, d)` (`d > 0`); with `check`,
/// under the exhaustive enumeration's own validity rules (vertex–edge: the
/// foot strictly inside the edge; vertex–face: the foot in the closed face;
/// edge–edge: both parameters in [0, 1]), `None` when not a candidate.
/// Parallel edges are never a candidate.
fn candidate_value(ctx: &Ctx, p: Pair, check: bool) -> Option<(Int, Int)> {
    let ex = ctx.exact();
    let (a, b) = (&ex[0], &ex[1]);
    let one = Int::from_i128(1);
    let ve = |x: &Vec3<Int>, t: &Exact, e: usize| {
        let (s, u) = edge(t, e);
        let w = x.sub(&s);
        let tt = w.dot(&u);
        let uu = u.norm_squared();
        (!check || tt.signum() > 0 && uu.sub(&tt).signum() > 0)
            .then(|| (w.cross(&u).norm_squared(), uu))
    };
    let vf = |x: &Vec3<Int>, t: &Exact, f: usize| {
        let mut conds = Conds::new();
        in_face(x, t, f, &mut conds);
        let c = t.face_cycle(f);
        let n = t.face_normal(f).0;
        let inside = !check
            || conds.iter().all(|c| match c {
                Cond::Agree(x, r) => x.signum() == 0 || x.signum() == r.signum(),
                _ => unreachable!(),
            });
        inside.then(|| {
            let h = n.dot(&x.sub(&t.v(c[0])));
            (h.mul(&h), n.norm_squared())
        })
    };
    match (p.fa, p.fb) {
        (Feat::V(i), Feat::V(j)) => Some((a.v(i).sub(&b.v(j)).norm_squared(), one)),
        (Feat::V(i), Feat::E(e)) => ve(&a.v(i), b, e),
        (Feat::E(e), Feat::V(j)) => ve(&b.v(j), a, e),
        (Feat::V(i), Feat::F(f)) => vf(&a.v(i), b, f),
        (Feat::F(f), Feat::V(j)) => vf(&b.v(j), a, f),
        (Feat::E(ea), Feat::E(eb)) => {
            let EdgeEdge {
                u, v, w, den, s, t, ..
            } = edge_edge(a, b, ea, eb);
            if den.signum() == 0 {
                return None;
            }
            let unit = |x: &Int| x.signum() >= 0 && den.sub(x).signum() >= 0;
            (!check || unit(&s) && unit(&t)).then(|| {
                let sg = w.dot(&u.cross(&v));
                (sg.mul(&sg), den)
            })
        }
        _ => None,
    }
}

/// The exhaustive enumeration's choice among tied closest pairs: given a
/// proved (not unique) pair and the exact supporting vertex sets, the first
/// candidate in the enumeration's order (vertex–vertex; then for a's
/// vertices, then b's: vertex–edge and vertex–face per vertex; then
/// edge–edge) whose squared distance is the minimum. Only candidates with
/// both features in the supporting faces can reach the minimum (a closest
/// pair lies in both), so only those are evaluated, exactly.
pub(crate) fn tie_break(ctx: &Ctx, proved: Pair, (sa, sb): (u8, u8)) -> Option<Pair> {
    // Values are squared distances of degree up to 6 over degree 4: their
    // cross products can pass the 768 bits of Int, so compared in BigInt
    // (this path runs only for tied pairs).
    let big = crate::num::fixed::to_bigint;
    // The proved pair's own value (its points are a closest pair, feet at an
    // end of an edge included).
    let (n0, d0) = candidate_value(ctx, proved, false)?;
    let (n0, d0) = (big(&n0), big(&d0));
    let hits = |p: Pair| {
        candidate_value(ctx, p, true).is_some_and(|(n, d)| big(&n) * &d0 == &n0 * big(&d))
    };
    let (a, b) = (&ctx.a, &ctx.b);
    let inside = |s: &Side<Fx>, mask: u8, f: Feat| verts(s, f).0 & !mask == 0;
    for i in (0..a.nv).filter(|i| sa >> i & 1 == 1) {
        for j in (0..b.nv).filter(|j| sb >> j & 1 == 1) {
            let p = Pair {
                fa: Feat::V(i),
                fb: Feat::V(j),
            };
            if hits(p) {
                return Some(p);
            }
        }
    }
    for (swap, pp, qq, sp, sq) in [(false, a, b, sa, sb), (true, b, a, sb, sa)] {
        let pair = |x: Feat, y: Feat| {
            if swap {
                Pair { fa: y, fb: x }
            } else {
                Pair { fa: x, fb: y }
            }
        };
        for v in (0..pp.nv).filter(|v| sp >> v & 1 == 1) {
            for e in 0..qq.edges().len() {
                if inside(qq, sq, Feat::E(e)) && hits(pair(Feat::V(v), Feat::E(e))) {
                    return Some(pair(Feat::V(v), Feat::E(e)));
                }
            }
            for f in 0..qq.nfaces() {
                if inside(qq, sq, Feat::F(f)) && hits(pair(Feat::V(v), Feat::F(f))) {
                    return Some(pair(Feat::V(v), Feat::F(f)));
                }
            }
        }
    }
    for ea in (0..a.edges().len()).filter(|&e| inside(a, sa, Feat::E(e))) {
        for eb in (0..b.edges().len()).filter(|&e| inside(b, sb, Feat::E(e))) {
            let p = Pair {
                fa: Feat::E(ea),
                fb: Feat::E(eb),
            };
            if hits(p) {
                return Some(p);
            }
        }
    }
    None
}

/// An accepted pair's exact closest points and squared distance as integers
/// over one denominator, before any reduction (the exact projections, the
/// same points as the exhaustive enumeration's `exact_points`): vertex–edge
/// `s + u·t/uu` with `t = (x − s)·u`, vertex–face `x − n·h/nn` with
/// `h = n·(x − f₀)`, edge–edge `p + u·s/den`, `r + v·t/den` with
/// `den = |u|²|v|² − (u·v)²`; with the factors whose product holds every
/// numerator's common factors with `den` (for [`Over`](crate::num::fixed::Over)).
///
/// Computed in [`Wide`] integers of the width each degree needs. The bounds,
/// from vertices below 2¹¹⁹ ([`side::BITS`](super::side::BITS)), so
/// differences and edge vectors below 2¹²⁰: degree 2 (dot and cross
/// products) below 2²⁴² (4 words), degree 3 (`h`, `u·w`, `w·(u × v)`)
/// below 2³⁶³ (6 words), degree 4 (`den`, `s`, `t`, `|n|²`, `|w × u|²`)
/// below 2⁴⁸⁶ (8 words), the numerators of degree 5 below 2⁶⁰⁷ (10 words).
/// The factors stay unmultiplied (scalars and vector components).
///
/// The edge–edge quantities repeat [`edge_edge`]'s formulas in these
/// integers (`Wide` is not a [`Ring`]: its products change width).
pub(crate) fn construct_ints(ctx: &Ctx, p: Pair) -> Ints {
    let ex = ctx.exact();
    let (a, b) = (&ex[0], &ex[1]);
    let zero4 = [Wide::ZERO; 3];
    let vertex = |x: &[i128; 3]| IntPoint {
        n: x.map(Wide::from_i128),
        over: false,
        whole: 0,
    };
    // `x·den + d·t`, coordinate-wise (over `den`).
    fn along<const D: usize, const T: usize>(
        x: &[i128; 3],
        d: &V<D>,
        t: &Wide<T>,
        den: &Wide<8>,
    ) -> IntPoint {
        let mut whole = 0;
        let mut c = |k: usize| {
            let xd: Wide<10> = Wide::<2>::from_i128(x[k]).mul(den);
            let dt: Wide<10> = d[k].mul(t);
            whole |= (dt.is_zero() as u8) << k;
            xd.add(&dt)
        };
        IntPoint {
            n: [c(0), c(1), c(2)],
            over: true,
            whole,
        }
    }
    // Vertex x against edge e of t: (the vertex, the foot, den, d2, factors).
    let vertex_edge = |x: [i128; 3], t: &Exact, e: usize| {
        let (s, u) = t.edge_small(e);
        let w = crate::num::wide::diff(&x, &s);
        let u2 = w2(&u);
        let tt: Wide<4> = dot(&w2(&w), &u2);
        let c = cross(&w, &u);
        let n: Wide<8> = dot(&c, &c);
        let uu: Wide<8> = dot::<2, 2, 4>(&u2, &u2).widen();
        let foot = along(&s, &u2, &tt, &uu);
        let fs = [n, tt.widen(), Wide::ZERO];
        let vs = [u2.map(|c| c.widen()), zero4];
        (vertex(&x), foot, uu, D2::Over(n), fs, vs)
    };
    let vertex_face = |x: [i128; 3], t: &Exact, f: usize| {
        let n = t.face_normal_wide(f);
        let f0 = t.vertex_small(t.face_cycle(f)[0]);
        let h: Wide<6> = dot(&n, &w2(&crate::num::wide::diff(&x, &f0)));
        let nn: Wide<8> = dot(&n, &n);
        let foot = along(&x, &n.map(|c| c.neg()), &h, &nn);
        let fs = [h.widen(), Wide::ZERO, Wide::ZERO];
        (vertex(&x), foot, nn, D2::Square(h), fs, [n, zero4])
    };
    type Built = (IntPoint, IntPoint, Wide<8>, D2, [Wide<8>; 3], [V<4>; 2]);
    let swap = |(x, foot, den, d2, fs, vs): Built| (foot, x, den, d2, fs, vs);
    let (pa, pb, den, d2, fs, vs): Built = match (p.fa, p.fb) {
        (Feat::V(i), Feat::V(j)) => {
            let (x, y) = (a.vertex_small(i), b.vertex_small(j));
            let d = w2(&crate::num::wide::diff(&x, &y));
            let n: Wide<4> = dot(&d, &d);
            (
                vertex(&x),
                vertex(&y),
                Wide::from_i128(1),
                D2::Over(n.widen()),
                [Wide::ZERO; 3],
                [zero4; 2],
            )
        }
        (Feat::V(i), Feat::E(e)) => vertex_edge(a.vertex_small(i), b, e),
        (Feat::E(e), Feat::V(j)) => swap(vertex_edge(b.vertex_small(j), a, e)),
        (Feat::V(i), Feat::F(f)) => vertex_face(a.vertex_small(i), b, f),
        (Feat::F(f), Feat::V(j)) => swap(vertex_face(b.vertex_small(j), a, f)),
        (Feat::E(ea), Feat::E(eb)) => {
            let ((p0, u), (r0, v)) = (a.edge_small(ea), b.edge_small(eb));
            let (u2, v2, w) = (w2(&u), w2(&v), w2(&crate::num::wide::diff(&p0, &r0)));
            let (uu, uv, vv): (Wide<4>, Wide<4>, Wide<4>) =
                (dot(&u2, &u2), dot(&u2, &v2), dot(&v2, &v2));
            let den: Wide<8> = uu.mul::<4, 8>(&vv).sub(&uv.mul(&uv));
            let (d, e): (Wide<4>, Wide<4>) = (dot(&u2, &w), dot(&v2, &w));
            let s: Wide<8> = uv.mul::<4, 8>(&e).sub(&vv.mul(&d));
            let t: Wide<8> = uu.mul::<4, 8>(&e).sub(&uv.mul(&d));
            let sg: Wide<6> = dot(&w, &cross(&u, &v));
            let (pa, pb) = (along(&p0, &u2, &s, &den), along(&r0, &v2, &t, &den));
            let vs = [u2.map(|c| c.widen()), v2.map(|c| c.widen())];
            (pa, pb, den, D2::Square(sg), [sg.widen(), s, t], vs)
        }
        _ => unreachable!("pair kinds are checked before"),
    };
    Ints {
        den,
        a: pa,
        b: pb,
        d2,
        fs,
        vs,
        e0: ctx.e0,
    }
}

/// The closest pair of an accepted feature pair in lowest terms (the tests'
/// view of [`construct_ints`]).
#[cfg(test)]
pub(crate) fn construct(ctx: &Ctx, p: Pair) -> crate::query::Closest<num_rational::BigRational> {
    construct_ints(ctx, p).reduce()
}
