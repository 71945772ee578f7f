//! The witness search of [`polytope::witness`] on the fast path: the same
//! candidates in the same order (a vertex of a in b, of b in a; an edge of a
//! through a face of b, then of b through a face of a), decided exactly, so
//! the same first common point.
//!
//! Each shape is the set `{x : gⱼ(x) ≥ 0}` of linear constraints `gⱼ(x) =
//! Nⱼ·x − kⱼ`, one per face (a triangle: its plane, `= 0`, and three in-plane
//! edge constraints), which decide membership as the shapes' own `contains`
//! does (a box's `|Dⱼ| ≤ |D|` is its two faces' constraints). The values
//! `gⱼ(v)` at every vertex of the other shape are computed once; for the point
//! where edge `s → e` crosses face `f` (`d_s = g_f(s)`, `d_e = g_f(e)` of
//! opposite signs), `x = s + (e − s)·d_s/(d_s − d_e)`, and
//!
//! ```text
//! gⱼ(x)·(d_s − d_e) = d_s·gⱼ(e) − d_e·gⱼ(s),
//! ```
//!
//! a 2×2 determinant of values already known; `g_f(x) = 0` exactly by
//! construction, so face f's own constraint is not tested.
//!
//! Two boxes take a shorter road to the same signs ([`Boxes`]): a box's
//! constraints at the other box's center and vertices are signed sums of
//! four dot products per axis, filtered with one proven bound per axis.
//!
//! [`polytope::witness`]: crate::query::polytope::witness

use super::side::{Ctx, Kind, View, BOX_EDGES};
use crate::num::bounded::{decide, Fx};
use crate::num::fixed::{nonzero_product, Int, Over};
use crate::num::ring::Ring;
use crate::num::sign::Sign;
use crate::num::wide::{from_ints, Wide};
use crate::query::unreduced::{IntPoint, Ints, D2};
use crate::vector::Vec3;
use num_rational::BigRational;

/// A linear constraint `N·x − k ≥ 0` (`= 0` for a triangle's plane).
#[derive(Clone, Debug)]
pub(crate) struct Lin<R> {
    pub n: Vec3<R>,
    pub k: R,
}

impl<R: Ring> Lin<R> {
    #[inline]
    pub(crate) fn at(&self, x: &Vec3<R>) -> R {
        self.n.dot(x).sub_ref(&self.k)
    }
}

/// How many constraints a side has (one per face; a triangle: its plane and
/// three edges).
pub(crate) fn count(kind: Kind) -> usize {
    match kind {
        Kind::Tri => 4,
        _ => 6,
    }
}

/// Constraint `j` of a side, in face order (a triangle: the plane, then its
/// edges 01, 12, 20); `box_sign` is the sign of a box's determinant
/// (orienting its face normals outward).
pub(crate) fn constraint<V: View>(s: &V, box_sign: Sign, j: usize) -> Lin<V::R> {
    match s.kind() {
        Kind::Box => {
            // One face normal, not the whole frame.
            let (c, h) = s.box_parts();
            let n = s.face_normal(j).0;
            let (nc, d) = (n.dot(&c), n.dot(&h[j / 2]));
            box_lin(n, nc, &d, box_sign, j)
        }
        Kind::Prism => match j {
            0..=3 => {
                let (p, q) = (s.v(j), s.v((j + 1) % 4));
                let nn = Vec3::new(p.y.sub_ref(&q.y), q.x.sub_ref(&p.x), V::R::zero());
                let k = nn.x.mul_ref(&p.x).add_ref(&nn.y.mul_ref(&p.y));
                Lin { n: nn, k }
            }
            4 => Lin {
                n: Vec3::new(V::R::zero(), V::R::zero(), V::R::one()),
                k: s.c(8),
            },
            _ => Lin {
                n: Vec3::new(V::R::zero(), V::R::zero(), V::R::one().neg_ref()),
                k: s.c(9).neg_ref(),
            },
        },
        Kind::Tri => {
            let nrm = s.face_normal(0).0;
            if j == 0 {
                return Lin {
                    k: nrm.dot(&s.v(0)),
                    n: nrm,
                };
            }
            let (p, q) = (s.v(j - 1), s.v(j % 3));
            let m = nrm.cross(&q.sub(&p));
            Lin { k: m.dot(&p), n: m }
        }
    }
}

/// A box's face normals `n_k = h_(k+1) × h_(k+2)`, `n_k·c` and `|D|`
/// (`D = n_k·h_k`, the same for every k), from which its six constraints
/// follow.
pub(crate) struct Frame<R> {
    n: [Vec3<R>; 3],
    nc: [R; 3],
    /// D = det(h0, h1, h2).
    pub d: R,
}

impl<R: Ring> Frame<R> {
    pub(crate) fn of<V: View<R = R>>(s: &V) -> Frame<R> {
        let (c, h) = s.box_parts();
        let n = [0, 2, 4].map(|f| s.face_normal(f).0);
        Frame {
            nc: [0, 1, 2].map(|k| n[k].dot(&c)),
            d: n[0].dot(&h[0]),
            n,
        }
    }

    pub(crate) fn constraint(&self, box_sign: Sign, j: usize) -> Lin<R> {
        let k = j / 2;
        box_lin(self.n[k].clone(), self.nc[k].clone(), &self.d, box_sign, j)
    }
}

/// A box's constraint j from its face normal `n = n_k` (k = j/2), `n·c` and
/// `D`: face (k, +) holds c + h_k, where σ·n_k·(x − c) = |D| (σ the sign of
/// D), so its constraint is −σ·n_k·(x − c) + |D| ≥ 0; face (k, −) the mirror.
fn box_lin<R: Ring>(n: Vec3<R>, nc: R, d: &R, box_sign: Sign, j: usize) -> Lin<R> {
    let flip = (j % 2 == 0) == (box_sign == Sign::Positive);
    let (n, nc) = if flip {
        (n.neg(), nc.neg_ref())
    } else {
        (n, nc)
    };
    let abs_d = if box_sign == Sign::Negative {
        d.neg_ref()
    } else {
        d.clone()
    };
    Lin {
        n,
        k: nc.sub_ref(&abs_d),
    }
}

/// Which constraint is an equality (a triangle's plane).
fn is_plane(kind: Kind, j: usize) -> bool {
    kind == Kind::Tri && j == 0
}

/// The constraint that face `f` lies on.
fn face_constraint(_kind: Kind, f: usize) -> usize {
    f
}

/// A common point, as the search found it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Found {
    /// The center of box side `s`.
    Center(usize),
    /// Vertex `i` of side `s`.
    Vertex(usize, usize),
    /// Edge `e` of side `s` through face `f` of the other side.
    Crossing(usize, usize, usize),
}

/// The outcome of the witness search.
pub(crate) enum Search {
    Found(Found),
    /// Nothing in the vertex and edge–face stages: the shapes are disjoint,
    /// or the exhaustive search's edge–edge stage is needed.
    Nothing,
}

/// Both sides' constraints (filtered and exact on demand) and their values at
/// the other side's vertices: the generic state, or for two boxes the
/// box–box state ([`Boxes`]).
pub(crate) struct Witness<'a> {
    ex: Exacts<'a>,
    state: State,
}

/// The shapes, the boxes' determinant signs, and the constraints exactly,
/// computed on first use (the exact fallbacks and the crossing point's
/// construction).
struct Exacts<'a> {
    ctx: &'a Ctx,
    box_sign: [Sign; 2],
    lin: [[std::cell::OnceCell<Box<Lin<Int>>>; 6]; 2],
}

impl Exacts<'_> {
    /// Constraint j of side s, exactly.
    fn lin(&self, s: usize, j: usize) -> &Lin<Int> {
        self.lin[s][j]
            .get_or_init(|| Box::new(constraint(&self.ctx.exact_side(s), self.box_sign[s], j)))
    }

    /// Constraint j of side s at vertex i of the other side, exactly.
    fn val(&self, s: usize, j: usize, i: usize) -> Int {
        self.lin(s, j).at(&self.ctx.vertex_int(1 - s, i))
    }
}

// Not boxed: a 3 KB allocation per query costs more than the move (measured
// on the triangle–box distance bench: +0.4M instructions per 1024 queries).
#[allow(clippy::large_enum_variant)]
enum State {
    /// Any pair but two boxes.
    Gen(Gen),
    Boxes(Boxes),
}

/// The generic state: each constraint at each vertex, filtered, on first use.
struct Gen {
    /// A box side's frame (filtered), for its constraints.
    frames: [Option<Frame<Fx>>; 2],
    /// The constraints, computed on first use.
    lin: [[Option<Lin<Fx>>; 6]; 2],
    nlin: [usize; 2],
    /// vals[s][j][i]: constraint j of side s at vertex i of the other side.
    vals: [[[Fx; 8]; 6]; 2],
    /// Which entries of vals are computed (bit i of have[s][j]).
    have: [[u8; 6]; 2],
    /// Decided signs of vals (None: not yet decided).
    signs: [[[Option<Sign>; 8]; 6]; 2],
}

/// The box–box state. Box q's constraints pair up by axis k: with `n_k` its
/// face normal, `D` its determinant and `t_k(x) = n_k·(x − c_q)`,
/// `g_2k = |D| − σ·t_k` and `g_2k+1 = |D| + σ·t_k` ([`box_lin`]; σ = +1 when
/// D > 0, −1 otherwise). At box p's point `x = c_p + Σ_m ±h_pm` (its center,
/// or vertex i with the signs of i's bits),
///
/// ```text
/// t_k(x) = a_k ± b_k0 ± b_k1 ± b_k2,   a_k = n_k·(c_p − c_q),  b_km = n_k·h_pm,
/// ```
///
/// so the 48 values of one direction are sums of 13 dot products, not 48
/// constraints evaluated at 8 vertices.
///
/// **The filter.** Inputs are the scaled doubles (exact, below 1). Every
/// value is one expression tree of roundings `fl(x ∘ y) = (x ∘ y)(1 + ε)`,
/// `|ε| ≤ u`; expanded into monomials of the inputs, each monomial carries
/// one factor `(1 + ε)` per rounding it passes through (a product's monomial
/// those of both operands, plus its own), at most 10 here: `δ = c_p − c_q` 1,
/// a normal's coordinate `y·z' − z·y'` 2 more, the product by `δ` 1, the
/// dot's two sums 2, then `±b_k0 ± b_k1 ± b_k2` and `|D| ∓ σt` 4. So the
/// computed value is within `γ₁₀·P` of the exact one (Higham 2002, Lemma
/// 3.1: a product of n factors `1 + ε` is `1 + θ_n`, `|θ_n| ≤ γ_n`), `P` the
/// sum of the monomials' magnitudes. `P̃`, the same tree on absolute values
/// computed in doubles (nonnegative terms, at most 10 roundings, `|δ̃|` for
/// `|δ|`, where `|δ| ≤ |δ̃|(1 + γ₁)`), is at least `P(1 − u)^10/(1 + γ₁)`, so
/// `γ₁₀·P ≤ 11u·P̃`, and the bound used is `16u·P̃ + η` (the product exact:
/// a power of two; η = 2⁻¹⁰⁶⁰ covers underflow, though with the aligned
/// inputs, multiples of 2⁻¹¹⁶, no nonzero value here comes near it). One
/// bound per axis covers all its values (the largest P: D, a_k and the three
/// b_km), the center's too. A value the bound does not decide is evaluated
/// exactly on the integers, as the generic state does.
struct Boxes {
    /// Per side: its face normals `n_k` (rows) in doubles, and their
    /// permanents (`|y·z'| + |z·y'|` per coordinate).
    n: [[[f64; 3]; 3]; 2],
    pn: [[[f64; 3]; 3]; 2],
    /// Per side: `|D|` (the computed D, negated when D < 0) and its
    /// permanent.
    abs_d: [f64; 2],
    pd: [f64; 2],
    /// Per side: σ (±1).
    sig: [f64; 2],
    /// Per direction q (q's constraints at p = 1 − q): a_k and its
    /// permanent.
    a: [[f64; 3]; 2],
    pa: [[f64; 3]; 2],
    /// Per direction: `t_k` at vertex i of p, and each axis's bound.
    t: [[[f64; 8]; 3]; 2],
    e: [[f64; 3]; 2],
    /// Per direction: the exact signs of constraint j at p's vertices (bit
    /// i set: positive, negative; neither: zero).
    pos: [[u8; 6]; 2],
    neg: [[u8; 6]; 2],
    /// Per direction: bit 0, `a` computed; bit 1, the vertex values.
    have: [u8; 2],
}

/// `16u` (2⁻⁴⁹), the box–box filter's coefficient (see [`Boxes`]).
const BOX_K: f64 = 16.0 * crate::num::bounded::U;

/// `x·y` and its permanent `|x|·|y|`, summed over three coordinates in
/// order.
#[inline(always)]
fn dot_perm(x: &[f64; 3], px: &[f64; 3], y: &[f64; 3]) -> (f64, f64) {
    (
        x[0] * y[0] + x[1] * y[1] + x[2] * y[2],
        px[0] * y[0].abs() + px[1] * y[1].abs() + px[2] * y[2].abs(),
    )
}

impl Boxes {
    /// Both boxes' normals and determinants, and the determinants' exact
    /// signs.
    fn new(ctx: &Ctx) -> (Boxes, [Sign; 2]) {
        let mut b = Boxes {
            n: [[[0.0; 3]; 3]; 2],
            pn: [[[0.0; 3]; 3]; 2],
            abs_d: [0.0; 2],
            pd: [0.0; 2],
            sig: [1.0; 2],
            a: [[0.0; 3]; 2],
            pa: [[0.0; 3]; 2],
            t: [[[0.0; 8]; 3]; 2],
            e: [[0.0; 3]; 2],
            pos: [[0; 6]; 2],
            neg: [[0; 6]; 2],
            have: [0; 2],
        };
        let mut signs = [Sign::Positive; 2];
        for (q, sign) in signs.iter_mut().enumerate() {
            let h = half_axes(ctx, q);
            for k in 0..3 {
                // n_k = h_(k+1) × h_(k+2), as `face_normal` (Vec3::cross).
                let (u, w) = (&h[(k + 1) % 3], &h[(k + 2) % 3]);
                let c = |i: usize, j: usize| {
                    (
                        u[i] * w[j] - u[j] * w[i],
                        (u[i] * w[j]).abs() + (u[j] * w[i]).abs(),
                    )
                };
                let (x, y, z) = (c(1, 2), c(2, 0), c(0, 1));
                b.n[q][k] = [x.0, y.0, z.0];
                b.pn[q][k] = [x.1, y.1, z.1];
            }
            let (d, pd) = dot_perm(&b.n[q][0], &b.pn[q][0], &h[0]);
            // D within 5 roundings (`γ₅·P ≤ 16u·P̃`).
            let sd = Fx {
                v: d,
                e: BOX_K * pd + crate::num::bounded::ETA,
            };
            *sign = decide(sd, || {
                let (_, h) = ctx.exact_side(q).box_parts();
                h[0].dot(&h[1].cross(&h[2]))
            });
            let neg = *sign != Sign::Positive;
            b.sig[q] = if neg { -1.0 } else { 1.0 };
            b.abs_d[q] = if *sign == Sign::Negative { -d } else { d };
            b.pd[q] = pd;
        }
        (b, signs)
    }
}

/// A box side's half-axes as doubles (the scaled inputs).
#[inline(always)]
fn half_axes(ctx: &Ctx, s: usize) -> [[f64; 3]; 3] {
    let c = &ctx.side(s).c;
    [
        [c[3].v, c[4].v, c[5].v],
        [c[6].v, c[7].v, c[8].v],
        [c[9].v, c[10].v, c[11].v],
    ]
}

/// Whether a sign passes constraint j of a side of this kind.
#[inline(always)]
fn passes(kind: Kind, j: usize, x: Sign) -> bool {
    if is_plane(kind, j) {
        x == Sign::Zero
    } else {
        x != Sign::Negative
    }
}

impl<'a> Witness<'a> {
    pub(crate) fn new(ctx: &'a Ctx) -> Witness<'a> {
        if ctx.a.kind == Kind::Box && ctx.b.kind == Kind::Box {
            let (b, box_sign) = Boxes::new(ctx);
            return Witness {
                ex: Exacts {
                    ctx,
                    box_sign,
                    lin: Default::default(),
                },
                state: State::Boxes(b),
            };
        }
        Witness::generic(ctx)
    }

    /// The generic state for any pair (two boxes too: the tests compare).
    pub(crate) fn generic(ctx: &'a Ctx) -> Witness<'a> {
        let frames =
            [0, 1].map(|s| (ctx.side(s).kind == Kind::Box).then(|| Frame::of(ctx.side(s))));
        let box_sign = [0, 1].map(|s| match &frames[s] {
            None => Sign::Positive,
            Some(fr) => decide(fr.d, || {
                let (_, h) = ctx.exact_side(s).box_parts();
                h[0].dot(&h[1].cross(&h[2]))
            }),
        });
        Witness {
            ex: Exacts {
                ctx,
                box_sign,
                lin: Default::default(),
            },
            state: State::Gen(Gen {
                frames,
                lin: Default::default(),
                nlin: [count(ctx.a.kind), count(ctx.b.kind)],
                vals: [[[Fx::exact(0.0); 8]; 6]; 2],
                have: [[0; 6]; 2],
                signs: [[[None; 8]; 6]; 2],
            }),
        }
    }

    /// Constraint j of side s at vertex i of the other side, filtered
    /// (computed on first use).
    fn val(&mut self, s: usize, j: usize, i: usize) -> Fx {
        let (ctx, sign) = (self.ex.ctx, self.ex.box_sign[s]);
        match &mut self.state {
            State::Gen(g) => g.val(ctx, sign, s, j, i),
            State::Boxes(b) => b.val(s, j, i),
        }
    }

    /// The sign of constraint j of side s at vertex i of the other side.
    fn sign(&mut self, s: usize, j: usize, i: usize) -> Sign {
        let ex = &self.ex;
        match &mut self.state {
            // Every sign of the direction is decided with its values.
            State::Boxes(b) => b.sign(s, j, i),
            State::Gen(g) => {
                if let Some(x) = g.signs[s][j][i] {
                    return x;
                }
                let v = g.val(ex.ctx, ex.box_sign[s], s, j, i);
                let x = decide(v, || ex.val(s, j, i));
                g.signs[s][j][i] = Some(x);
                x
            }
        }
    }

    /// Box side `s`'s center in the other side?
    pub(crate) fn center_inside(&mut self, s: usize) -> bool {
        let o = 1 - s;
        if let State::Boxes(b) = &mut self.state {
            b.a(self.ex.ctx, o);
        }
        let ex = &self.ex;
        let exact = |j: usize| ex.lin(o, j).at(&ex.ctx.center_int(s));
        match &mut self.state {
            State::Boxes(b) => {
                (0..6).all(|j| decide(b.center_val(o, j), || exact(j)) != Sign::Negative)
            }
            State::Gen(g) => {
                let c = ex.ctx.side(s).box_parts().0;
                let kind = ex.ctx.side(o).kind;
                (0..g.nlin[o]).all(|j| {
                    let v = g.lin(ex.ctx, ex.box_sign[o], o, j).at(&c);
                    passes(kind, j, decide(v, || exact(j)))
                })
            }
        }
    }

    /// The box–box state's values and exact signs of direction q at p's
    /// vertices, on first use.
    fn box_vertices(&mut self, q: usize) {
        let ex = &self.ex;
        let ctx = ex.ctx;
        let State::Boxes(b) = &mut self.state else {
            return;
        };
        b.a(ctx, q);
        if b.have[q] & 2 == 2 {
            return;
        }
        b.have[q] |= 2;
        let p = 1 - q;
        let h = half_axes(ctx, p);
        let mut undecided = [0u8; 6];
        for k in 0..3 {
            let (n, pn) = (&b.n[q][k], &b.pn[q][k]);
            let (b0, p0) = dot_perm(n, pn, &h[0]);
            let (b1, p1) = dot_perm(n, pn, &h[1]);
            let (b2, p2) = dot_perm(n, pn, &h[2]);
            let a = b.a[q][k];
            let e = BOX_K * ((((b.pd[q] + b.pa[q][k]) + p0) + p1) + p2) + crate::num::bounded::ETA;
            b.e[q][k] = e;
            // ((a ± b0) ± b1) ± b2, vertex i taking + for its set bits.
            let s1 = [a - b0, a + b0];
            let s2 = [s1[0] - b1, s1[1] - b1, s1[0] + b1, s1[1] + b1];
            let t = [
                s2[0] - b2,
                s2[1] - b2,
                s2[2] - b2,
                s2[3] - b2,
                s2[0] + b2,
                s2[1] + b2,
                s2[2] + b2,
                s2[3] + b2,
            ];
            b.t[q][k] = t;
            let (sig, ad) = (b.sig[q], b.abs_d[q]);
            let (mut pp, mut nn) = ([0u8; 2], [0u8; 2]);
            for (i, &ti) in t.iter().enumerate() {
                let st = sig * ti;
                let (lo, hi) = (ad - st, ad + st);
                pp[0] |= ((lo > e) as u8) << i;
                nn[0] |= ((lo < -e) as u8) << i;
                pp[1] |= ((hi > e) as u8) << i;
                nn[1] |= ((hi < -e) as u8) << i;
            }
            for f in 0..2 {
                b.pos[q][2 * k + f] = pp[f];
                b.neg[q][2 * k + f] = nn[f];
                undecided[2 * k + f] = !(pp[f] | nn[f]);
            }
        }
        // The values the bound leaves undecided, exactly (rare: a vertex on,
        // or very near, a face's plane).
        for (j, &u) in undecided.iter().enumerate() {
            let mut m = u;
            while m != 0 {
                let i = m.trailing_zeros() as usize;
                m &= m - 1;
                crate::num::bounded::count_exact_sign();
                match crate::num::fixed::int_sign(&ex.val(q, j, i)) {
                    Sign::Positive => b.pos[q][j] |= 1 << i,
                    Sign::Negative => b.neg[q][j] |= 1 << i,
                    Sign::Zero => {}
                }
            }
        }
    }

    /// The search, in `Polytope` order.
    pub(crate) fn search(&mut self) -> Search {
        if let State::Boxes(_) = self.state {
            return self.box_search();
        }
        for p in 0..2 {
            for i in 0..self.ex.ctx.side(p).nv {
                if self.check(Found::Vertex(p, i)) {
                    return Search::Found(Found::Vertex(p, i));
                }
            }
        }
        for p in 0..2 {
            let nq = self.ex.ctx.side(1 - p).nfaces();
            for ei in 0..self.ex.ctx.side(p).edges().len() {
                for f in 0..nq {
                    if self.check(Found::Crossing(p, ei, f)) {
                        return Search::Found(Found::Crossing(p, ei, f));
                    }
                }
            }
        }
        Search::Nothing
    }

    /// [`Witness::search`] for two boxes: the first vertex of a in b (the
    /// lowest bit of the mask of vertices no constraint rejects), of b in a,
    /// then the crossings in order.
    fn box_search(&mut self) -> Search {
        for p in 0..2 {
            if let Some(i) = self.box_vertex_mask(p) {
                return Search::Found(Found::Vertex(p, i));
            }
        }
        for p in 0..2 {
            let q = 1 - p;
            self.box_vertices(q);
            let State::Boxes(b) = &self.state else {
                unreachable!()
            };
            for (ei, &(s, e)) in BOX_EDGES.iter().enumerate() {
                for f in 0..6 {
                    if self.box_crosses(b, q, s, e, f) {
                        return Search::Found(Found::Crossing(p, ei, f));
                    }
                }
            }
        }
        Search::Nothing
    }

    /// The first vertex of box p in box q = 1 − p, if any.
    fn box_vertex_mask(&mut self, p: usize) -> Option<usize> {
        let q = 1 - p;
        self.box_vertices(q);
        let State::Boxes(b) = &self.state else {
            unreachable!()
        };
        let inside = !b.neg[q].iter().fold(0, |m, &x| m | x);
        (inside != 0).then(|| inside.trailing_zeros() as usize)
    }

    /// Edge ei of box p through face f of box q = 1 − p at a point of q
    /// (as [`Witness::check`]). The opposite face's constraint is not
    /// tested: `g_f + g_(f^1) = 2|D|` for a box, so its value at the crossing
    /// times `d_s − d_e` is `2|D|·(d_s − d_e)`, of sign w.
    fn box_crossing(&mut self, p: usize, ei: usize, f: usize) -> bool {
        let q = 1 - p;
        self.box_vertices(q);
        let State::Boxes(b) = &self.state else {
            unreachable!()
        };
        let (s, e) = BOX_EDGES[ei];
        self.box_crosses(b, q, s, e, f)
    }

    /// [`Witness::box_crossing`] for the edge from vertex s to vertex e,
    /// direction q's values computed (`b`, this witness's box state).
    #[inline(always)]
    fn box_crosses(&self, b: &Boxes, q: usize, s: usize, e: usize, f: usize) -> bool {
        let (ds, de) = (b.sign(q, f, s), b.sign(q, f, e));
        if ds == de {
            return false; // in the plane, or strictly on one side
        }
        let w = if ds != Sign::Zero { ds } else { de.flip() };
        let (fs, fe) = (b.val(q, f, s), b.val(q, f, e));
        // The other two axes' constraints (all must hold: any order).
        let (k1, k2) = ((f / 2 + 1) % 3, (f / 2 + 2) % 3);
        for j in [2 * k1, 2 * k1 + 1, 2 * k2, 2 * k2 + 1] {
            let (js, je) = (b.val(q, j, s), b.val(q, j, e));
            let x = self.crossing_sign(q, f, j, s, e, fs.mul_ref(&je).sub_ref(&fe.mul_ref(&js)));
            if !passes(Kind::Box, j, if w == Sign::Negative { x.flip() } else { x }) {
                return false;
            }
        }
        true
    }

    /// The sign of `g_fc(s)·g_j(e) − g_fc(e)·g_j(s)` (side q's constraints at
    /// the other side's vertices s and e), filtered as `f`.
    #[inline(always)]
    fn crossing_sign(&self, q: usize, fc: usize, j: usize, s: usize, e: usize, f: Fx) -> Sign {
        match f.sign() {
            Some(x) => x,
            None => self.crossing_exact(q, fc, j, s, e),
        }
    }

    /// [`Witness::crossing_sign`] on the integers: a triangle's plane value
    /// (degree 3) times an in-plane edge value (degree 4) can pass the 768
    /// bits of Int, so the products are taken in BigInt.
    #[cold]
    fn crossing_exact(&self, q: usize, fc: usize, j: usize, s: usize, e: usize) -> Sign {
        crate::num::bounded::count_exact_sign();
        let g = |jj: usize, ii: usize| crate::num::fixed::to_bigint(&self.ex.val(q, jj, ii));
        let v = g(fc, s) * g(j, e) - g(fc, e) * g(j, s);
        Sign::from_ordering(v.cmp(&num_bigint::BigInt::from(0)))
    }

    /// Whether a candidate is a common point, exactly: a box's center in the
    /// other shape; a vertex in the other shape; an edge that meets face f's
    /// plane in one point (not in the plane, not strictly on one side) at a
    /// point of the other shape. The search takes the first candidate this
    /// accepts, in the exhaustive path's order.
    pub(crate) fn check(&mut self, found: Found) -> bool {
        if let State::Boxes(_) = self.state {
            match found {
                Found::Center(s) => return self.center_inside(s),
                Found::Vertex(p, i) => {
                    let q = 1 - p;
                    self.box_vertices(q);
                    let State::Boxes(b) = &self.state else {
                        unreachable!()
                    };
                    return b.neg[q].iter().all(|m| m >> i & 1 == 0);
                }
                Found::Crossing(p, ei, f) => return self.box_crossing(p, ei, f),
            }
        }
        match found {
            Found::Center(s) => self.center_inside(s),
            Found::Vertex(p, i) => {
                let q = 1 - p;
                let kind = self.ex.ctx.side(q).kind;
                (0..count(kind)).all(|j| passes(kind, j, self.sign(q, j, i)))
            }
            Found::Crossing(p, ei, f) => {
                let q = 1 - p;
                let (s, e) = self.ex.ctx.side(p).edges()[ei];
                let fc = face_constraint(self.ex.ctx.side(q).kind, f);
                let (ds, de) = (self.sign(q, fc, s), self.sign(q, fc, e));
                if ds == Sign::Zero && de == Sign::Zero {
                    return false; // in the plane: the edge–edge stage covers it
                }
                if ds == de {
                    return false; // strictly on one side
                }
                // sign(d_s − d_e): d_s and d_e differ in sign or one is 0.
                let w = if ds != Sign::Zero { ds } else { de.flip() };
                let kind = self.ex.ctx.side(q).kind;
                let (fs, fe) = (self.val(q, fc, s), self.val(q, fc, e));
                // Every other constraint at the crossing point, one at a time
                // (values computed as needed).
                for j in (0..count(kind)).filter(|&j| j != fc) {
                    let (js, je) = (self.val(q, j, s), self.val(q, j, e));
                    let f = fs.mul_ref(&je).sub_ref(&fe.mul_ref(&js));
                    let mut x = self.crossing_sign(q, fc, j, s, e, f);
                    if w == Sign::Negative {
                        x = x.flip();
                    }
                    if !passes(kind, j, x) {
                        return false;
                    }
                }
                true
            }
        }
    }

    /// The exact found point.
    pub(crate) fn point(&self, found: Found) -> Vec3<BigRational> {
        let ctx = self.ex.ctx;
        match found {
            Found::Center(s) => crate::num::fixed::int_pow2_point(&ctx.center_int(s), ctx.e0),
            Found::Vertex(s, i) => crate::num::fixed::int_pow2_point(&ctx.vertex_int(s, i), ctx.e0),
            Found::Crossing(p, ei, f) => {
                let (x, d, ds, w) = self.crossing(p, ei, f);
                along(&x, &d, &ds, &w, ctx.e0)
            }
        }
    }

    /// The found point as a common point of both shapes (squared distance
    /// 0), as integers over one denominator, not reduced.
    pub(crate) fn ints(&self, found: Found) -> Ints {
        let ctx = self.ex.ctx;
        let (den, n, fs, vs): (Wide<8>, [Wide<10>; 3], Wide<8>, [Wide<4>; 3]) = match found {
            Found::Center(s) => (
                Wide::from_i128(1),
                from_ints(&ctx.center_int(s)),
                Wide::ZERO,
                [Wide::ZERO; 3],
            ),
            Found::Vertex(s, i) => (
                Wide::from_i128(1),
                from_ints(&ctx.vertex_int(s, i)),
                Wide::ZERO,
                [Wide::ZERO; 3],
            ),
            Found::Crossing(p, ei, f) => {
                // (x·w + d·t)/w: t and w of degree 3 (below 2³⁶³), d an edge
                // (below 2¹²⁰), the numerators below 2⁴⁸⁴.
                let (x, d, ds, w) = self.crossing(p, ei, f);
                let n = x.scale(&w).add(&d.scale(&ds));
                (
                    Wide::from_int(&w),
                    from_ints(&n),
                    Wide::from_int(&ds),
                    from_ints(&d),
                )
            }
        };
        let over = den != Wide::from_i128(1);
        // A coordinate with d·t = 0 is x·w: a multiple of the denominator.
        let whole = (0..3).fold(0u8, |m, k| {
            m | ((vs[k].is_zero() || fs.is_zero()) as u8) << k
        });
        Ints {
            den,
            a: IntPoint { n, over, whole },
            b: IntPoint { n, over, whole },
            d2: D2::Over(Wide::ZERO),
            fs: [fs, Wide::ZERO, Wide::ZERO],
            vs: [vs, [Wide::ZERO; 3]],
            e0: ctx.e0,
        }
    }

    /// The found point rounded to doubles (the float paths).
    pub(crate) fn point_f64(&self, found: Found) -> Vec3<f64> {
        let ctx = self.ex.ctx;
        let r = |x: &Int, d: &crate::num::fixed::Nat| crate::num::fixed::ratio_f64(x, d, ctx.e0);
        let one = crate::num::fixed::Nat::from_u128(1);
        let pt = |v: &Vec3<Int>| v.map(|c| r(c, &one));
        match found {
            Found::Center(s) => pt(&ctx.center_int(s)),
            Found::Vertex(s, i) => pt(&ctx.vertex_int(s, i)),
            Found::Crossing(p, ei, f) => {
                let (x, d, ds, w) = self.crossing(p, ei, f);
                let num = x.scale(&w).add(&d.scale(&ds));
                num.map(|c| r(c, w.mag()))
            }
        }
    }

    /// Edge `ei` of side p through face f of the other side, exactly: the
    /// point is `(x·w + d·t)/w` with `w > 0`, returned as (x, d, t, w).
    fn crossing(&self, p: usize, ei: usize, f: usize) -> (Vec3<Int>, Vec3<Int>, Int, Int) {
        let q = 1 - p;
        let (s, e) = self.ex.ctx.side(p).edges()[ei];
        let fc = face_constraint(self.ex.ctx.side(q).kind, f);
        let (mut ds, de) = (self.ex.val(q, fc, s), self.ex.val(q, fc, e));
        let mut w = ds.sub(&de);
        if w.is_neg() {
            w = w.neg();
            ds = ds.neg();
        }
        let x = self.ex.ctx.vertex_int(p, s);
        let d = self.ex.ctx.vertex_int(p, e).sub(&x);
        (x, d, ds, w)
    }
}

impl Gen {
    /// Constraint j of side s, filtered (computed on first use).
    #[inline(always)]
    fn lin(&mut self, ctx: &Ctx, sign: Sign, s: usize, j: usize) -> &Lin<Fx> {
        match &mut self.lin[s][j] {
            Some(l) => l,
            slot @ None => slot.insert(match &self.frames[s] {
                Some(fr) => fr.constraint(sign, j),
                None => constraint(ctx.side(s), sign, j),
            }),
        }
    }

    /// Constraint j of side s at vertex i of the other side, filtered
    /// (computed on first use).
    #[inline(always)]
    fn val(&mut self, ctx: &Ctx, sign: Sign, s: usize, j: usize, i: usize) -> Fx {
        if self.have[s][j] >> i & 1 == 0 {
            let v = self.lin(ctx, sign, s, j).at(&ctx.side(1 - s).v(i));
            self.vals[s][j][i] = v;
            self.have[s][j] |= 1 << i;
        }
        self.vals[s][j][i]
    }
}

impl Boxes {
    /// `a_k` of direction q, on first use.
    fn a(&mut self, ctx: &Ctx, q: usize) {
        if self.have[q] & 1 == 1 {
            return;
        }
        let p = 1 - q;
        let (cp, cq) = (&ctx.side(p).c, &ctx.side(q).c);
        let delta = [cp[0].v - cq[0].v, cp[1].v - cq[1].v, cp[2].v - cq[2].v];
        for k in 0..3 {
            (self.a[q][k], self.pa[q][k]) = dot_perm(&self.n[q][k], &self.pn[q][k], &delta);
        }
        self.have[q] |= 1;
    }

    /// Constraint j of box q at vertex i of the other box, filtered (the
    /// direction's values computed).
    #[inline]
    fn val(&self, q: usize, j: usize, i: usize) -> Fx {
        let k = j / 2;
        let st = self.sig[q] * self.t[q][k][i];
        let v = if j % 2 == 0 {
            self.abs_d[q] - st
        } else {
            self.abs_d[q] + st
        };
        Fx { v, e: self.e[q][k] }
    }

    /// Constraint j of box q at the other box's center, filtered (`a`
    /// computed; within 7 roundings, so the smaller sum `|D| + a_k` of the
    /// bound's permanents suffices).
    #[inline]
    fn center_val(&self, q: usize, j: usize) -> Fx {
        let k = j / 2;
        let st = self.sig[q] * self.a[q][k];
        let v = if j % 2 == 0 {
            self.abs_d[q] - st
        } else {
            self.abs_d[q] + st
        };
        Fx {
            v,
            e: BOX_K * (self.pd[q] + self.pa[q][k]) + crate::num::bounded::ETA,
        }
    }

    /// Its exact sign (the direction's signs decided).
    #[inline]
    fn sign(&self, q: usize, j: usize, i: usize) -> Sign {
        if self.pos[q][j] >> i & 1 == 1 {
            Sign::Positive
        } else if self.neg[q][j] >> i & 1 == 1 {
            Sign::Negative
        } else {
            Sign::Zero
        }
    }
}

/// `(x·den + d·t) / den · 2^p`, coordinate-wise (`den > 0`), in lowest terms:
/// `gcd(x·den + d·t, den) = gcd(d·t, den)`.
pub(crate) fn along(x: &Vec3<Int>, d: &Vec3<Int>, t: &Int, den: &Int, p: i64) -> Vec3<BigRational> {
    let ds = [d.x, d.y, d.z];
    let mut over = Over::new(den.mag(), &[*t.mag(), nonzero_product(&ds)]);
    let mut c = |xk: &Int, dk: &Int| {
        let dt = dk.mul(t);
        let num = xk.mul(den).add(&dt);
        over.value(&num, dt.mag(), p)
    };
    let (cx, cy) = (c(&x.x, &d.x), c(&x.y, &d.y));
    Vec3::new(cx, cy, c(&x.z, &d.z))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::num::fixed::to_bigint as big;
    use crate::query::polytope::filtered::side::Raw;
    use crate::shape::{Obb, Shape};
    use num_traits::Signed;

    fn next(s: &mut u64) -> u64 {
        crate::poly::planted::splitmix64(s)
    }

    /// A double in [−1, 1) with a full mantissa.
    fn unit(s: &mut u64) -> f64 {
        (next(s) >> 11) as f64 / (1u64 << 52) as f64 - 1.0
    }

    fn bx(c: [f64; 3], h: [[f64; 3]; 3], k: f64) -> Shape<f64> {
        let v = |p: [f64; 3]| Vec3::new(p[0] * k, p[1] * k, p[2] * k);
        Shape::Box(Obb::new(v(c), h.map(v)).unwrap())
    }

    /// A random box: a random rotation, half-lengths in [0.1, 1], center
    /// within `spread`, everything times `k` (a power of two).
    fn random_box(s: &mut u64, spread: f64, k: f64) -> Shape<f64> {
        let r = crate::cases::rotation_f64([0; 4].map(|_| unit(s)));
        let e = [0; 3].map(|_| 0.55 + 0.45 * unit(s));
        let h = [0, 1, 2].map(|i| [r[0][i] * e[i], r[1][i] * e[i], r[2][i] * e[i]]);
        bx([0; 3].map(|_| spread * unit(s)), h, k)
    }

    /// A box on a coarse grid (centers in eighths; half-axes axis-aligned
    /// or the rotation by the 3-4-5 triangle about an axis, lengths in
    /// eighths), so that faces, edges and vertices of two such boxes meet
    /// exactly: values that are exactly zero, decided on the integers.
    fn grid_box(s: &mut u64, k: f64, shift: f64) -> Shape<f64> {
        let g = |s: &mut u64, n: u64| (next(s) % (2 * n + 1)) as f64 - n as f64;
        let c = [0; 3].map(|_| g(s, 8) / 8.0 + shift);
        let l = [0; 3].map(|_| (1 + next(s) % 8) as f64 / 8.0);
        let mut h = [[l[0], 0., 0.], [0., l[1], 0.], [0., 0., l[2]]];
        if next(s) % 2 == 0 {
            // Rotate about axis m by (3/5, 4/5): lengths times 5/5.
            let m = (next(s) % 3) as usize;
            let (u, w) = ((m + 1) % 3, (m + 2) % 3);
            for hi in &mut h {
                let (x, y) = (hi[u], hi[w]);
                hi[u] = (3.0 * x - 4.0 * y) / 8.0;
                hi[w] = (4.0 * x + 3.0 * y) / 8.0;
            }
        }
        if next(s) % 2 == 0 {
            h.swap(0, 1); // a left-handed frame: D < 0
        }
        bx(c, h, k)
    }

    fn ctx(a: &Shape<f64>, b: &Shape<f64>) -> Ctx {
        Ctx::new(&Raw::of(a).unwrap(), &Raw::of(b).unwrap()).expect("aligned")
    }

    /// Every candidate of the search, in its order.
    fn candidates() -> Vec<Found> {
        let mut v = vec![Found::Center(0), Found::Center(1)];
        for p in 0..2 {
            v.extend((0..8).map(|i| Found::Vertex(p, i)));
        }
        for p in 0..2 {
            for e in 0..12 {
                v.extend((0..6).map(|f| Found::Crossing(p, e, f)));
            }
        }
        v
    }

    /// The pairs of the tests: random boxes at several scales (at 2⁻¹⁰⁶⁰ the
    /// inputs are subnormal, the random ones rounded to a few bits), grid boxes that touch exactly, and grid boxes
    /// translated by 2⁴⁰ (inputs whose bits span about 50); 600 of them, or
    /// 30,000 with `EXACT_HEAVY=1`.
    fn pairs() -> Vec<(Shape<f64>, Shape<f64>)> {
        let heavy = std::env::var("EXACT_HEAVY").is_ok_and(|v| v == "1");
        let mut s = 0x5eed_b0c5u64;
        let mut out = Vec::new();
        for round in 0..if heavy { 30_000 } else { 600 } {
            let k = [
                1.0,
                2f64.powi(-300),
                2f64.powi(400),
                2f64.powi(-1000) / 2f64.powi(60),
            ][round % 4];
            out.push(match round % 3 {
                0 => (random_box(&mut s, 1.2, k), random_box(&mut s, 1.2, k)),
                1 => (grid_box(&mut s, k, 0.0), grid_box(&mut s, k, 0.0)),
                _ => {
                    let t = 2f64.powi(40);
                    (grid_box(&mut s, 1.0, t), grid_box(&mut s, 1.0, t))
                }
            });
        }
        out
    }

    /// The box–box state decides every candidate as the generic state does
    /// (the constraints of `constraint` at every vertex, one at a time), and
    /// the search finds the same candidate, on random, touching and
    /// wide-exponent pairs; the touching ones exercise the exact fallbacks.
    #[test]
    fn box_state_decides_as_the_generic_state() {
        let (mut accepted, mut zeros, mut found) = ([0usize; 3], 0, 0);
        for (a, b) in pairs() {
            let c = ctx(&a, &b);
            let (mut w, mut g) = (Witness::new(&c), Witness::generic(&c));
            assert!(matches!(w.state, State::Boxes(_)));
            for f in candidates() {
                let x = w.check(f);
                assert_eq!(x, g.check(f), "{f:?} {a:?} {b:?}");
                if x {
                    accepted[match f {
                        Found::Center(_) => 0,
                        Found::Vertex(..) => 1,
                        Found::Crossing(..) => 2,
                    }] += 1;
                }
            }
            for q in 0..2 {
                for j in 0..6 {
                    for i in 0..8 {
                        let x = w.sign(q, j, i);
                        assert_eq!(x, g.sign(q, j, i));
                        zeros += (x == Sign::Zero) as usize;
                    }
                }
            }
            match (w.search(), g.search()) {
                (Search::Found(x), Search::Found(y)) => {
                    assert_eq!(x, y);
                    assert_eq!(w.point(x), g.point(y));
                    found += 1;
                }
                (Search::Nothing, Search::Nothing) => {}
                _ => panic!("the searches differ: {a:?} {b:?}"),
            }
        }
        // Not vacuous: every kind of candidate accepted, exact zeros met.
        assert!(accepted.iter().all(|&n| n > 20), "{accepted:?}");
        assert!(zeros > 100 && found > 100, "{zeros} {found}");
    }

    /// Exactly (in rationals), every filtered value of the box–box state is
    /// within its bound of the exact value (the constraint of `constraint`
    /// at the vertex or center, on the integers), and on random pairs the
    /// bound decides every sign.
    #[test]
    fn box_filter_bound_holds() {
        let q = |x: f64| BigRational::from_float(x).unwrap();
        let (mut checked, mut random_undecided) = (0, 0);
        for (round, (a, b)) in pairs().into_iter().enumerate() {
            let c = ctx(&a, &b);
            // The float inputs are the integers times one power of two.
            let i0 = (0..12).find(|&i| c.a.c[i].v != 0.0).unwrap();
            let unit = q(c.a.c[i0].v) / BigRational::from_integer(big(&c.exact_side(0).c(i0)));
            let u3 = &unit * &unit * &unit;
            let mut w = Witness::new(&c);
            for o in 0..2 {
                w.box_vertices(o);
            }
            let State::Boxes(bs) = &w.state else {
                unreachable!()
            };
            let mut at = |v: Fx, exact: Int| {
                let x = BigRational::from_integer(big(&exact)) * &u3;
                assert!((q(v.v) - &x).abs() <= q(v.e), "{v:?} {x} {a:?} {b:?}");
                checked += 1;
                if round % 3 == 0 && v.sign().is_none() {
                    random_undecided += 1;
                }
            };
            for o in 0..2 {
                for j in 0..6 {
                    let l = constraint(&c.exact_side(o), w.ex.box_sign[o], j);
                    at(bs.center_val(o, j), l.at(&c.center_int(1 - o)));
                    for i in 0..8 {
                        at(bs.val(o, j, i), l.at(&c.vertex_int(1 - o, i)));
                    }
                }
            }
        }
        assert!(checked > 50_000);
        assert_eq!(random_undecided, 0);
    }
}
