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
//! [`polytope::witness`]: crate::query::polytope::witness

use super::num::{decide, Fx};
use super::side::{Ctx, Kind, View};
use crate::fixed::{nonzero_product, Int, Over};
use crate::ring::Ring;
use crate::sign::Sign;
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
/// the other side's vertices.
pub(crate) struct Witness<'a> {
    ctx: &'a Ctx,
    box_sign: [Sign; 2],
    /// A box side's frame (filtered), for its constraints.
    frames: [Option<Frame<Fx>>; 2],
    /// The constraints in both number types, computed on first use.
    lin: [[Option<Lin<Fx>>; 6]; 2],
    exact_lin: [[std::cell::OnceCell<Box<Lin<Int>>>; 6]; 2],
    nlin: [usize; 2],
    /// vals[s][j][i]: constraint j of side s at vertex i of the other side.
    vals: [[[Fx; 8]; 6]; 2],
    /// Which entries of vals are computed (bit i of have[s][j]).
    have: [[u8; 6]; 2],
    /// Decided signs of vals (None: not yet decided).
    signs: [[[Option<Sign>; 8]; 6]; 2],
}

impl<'a> Witness<'a> {
    pub(crate) fn new(ctx: &'a Ctx) -> Witness<'a> {
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
            ctx,
            frames,
            box_sign,
            lin: Default::default(),
            exact_lin: Default::default(),
            nlin: [count(ctx.a.kind), count(ctx.b.kind)],
            vals: [[[Fx::exact(0.0); 8]; 6]; 2],
            have: [[0; 6]; 2],
            signs: [[[None; 8]; 6]; 2],
        }
    }

    /// Constraint j of side s at vertex i of the other side, filtered
    /// (computed on first use).
    fn val(&mut self, s: usize, j: usize, i: usize) -> Fx {
        if self.have[s][j] >> i & 1 == 0 {
            let (ctx, sign) = (self.ctx, self.box_sign[s]);
            let fr = &self.frames[s];
            let l = self.lin[s][j].get_or_insert_with(|| match fr {
                Some(fr) => fr.constraint(sign, j),
                None => constraint(ctx.side(s), sign, j),
            });
            self.vals[s][j][i] = l.at(&ctx.side(1 - s).v(i));
            self.have[s][j] |= 1 << i;
        }
        self.vals[s][j][i]
    }

    /// Constraint j of side s, exactly.
    fn exact_lin(&self, s: usize, j: usize) -> &Lin<Int> {
        self.exact_lin[s][j]
            .get_or_init(|| Box::new(constraint(&self.ctx.exact_side(s), self.box_sign[s], j)))
    }

    /// Constraint j of side s at vertex i of the other side, exactly.
    fn exact_val(&self, s: usize, j: usize, i: usize) -> Int {
        self.exact_lin(s, j).at(&self.ctx.vertex_int(1 - s, i))
    }

    /// The sign of constraint j of side s at vertex i of the other side.
    fn sign(&mut self, s: usize, j: usize, i: usize) -> Sign {
        if let Some(x) = self.signs[s][j][i] {
            return x;
        }
        let v = self.val(s, j, i);
        let x = decide(v, || self.exact_val(s, j, i));
        self.signs[s][j][i] = Some(x);
        x
    }

    /// Box side `s`'s center in the other side?
    pub(crate) fn center_inside(&mut self, s: usize) -> bool {
        let o = 1 - s;
        let c = self.ctx.side(s).box_parts().0;
        let kind = self.ctx.side(o).kind;
        (0..self.nlin[o]).all(|j| {
            let (ctx, sign) = (self.ctx, self.box_sign[o]);
            let fr = &self.frames[o];
            let l = self.lin[o][j].get_or_insert_with(|| match fr {
                Some(fr) => fr.constraint(sign, j),
                None => constraint(ctx.side(o), sign, j),
            });
            let v = l.at(&c);
            let x = decide(v, || self.exact_lin(o, j).at(&self.ctx.center_int(s)));
            if is_plane(kind, j) {
                x == Sign::Zero
            } else {
                x != Sign::Negative
            }
        })
    }

    /// The search, in `Polytope` order.
    pub(crate) fn search(&mut self) -> Search {
        for p in 0..2 {
            for i in 0..self.ctx.side(p).nv {
                if self.check(Found::Vertex(p, i)) {
                    return Search::Found(Found::Vertex(p, i));
                }
            }
        }
        for p in 0..2 {
            let nq = self.ctx.side(1 - p).nfaces();
            for ei in 0..self.ctx.side(p).edges().len() {
                for f in 0..nq {
                    if self.check(Found::Crossing(p, ei, f)) {
                        return Search::Found(Found::Crossing(p, ei, f));
                    }
                }
            }
        }
        Search::Nothing
    }

    /// Whether a candidate is a common point, exactly: a box's center in the
    /// other shape; a vertex in the other shape; an edge that meets face f's
    /// plane in one point (not in the plane, not strictly on one side) at a
    /// point of the other shape. The search takes the first candidate this
    /// accepts, in the exhaustive path's order.
    pub(crate) fn check(&mut self, found: Found) -> bool {
        match found {
            Found::Center(s) => self.center_inside(s),
            Found::Vertex(p, i) => {
                let q = 1 - p;
                let kind = self.ctx.side(q).kind;
                (0..self.nlin[q]).all(|j| {
                    let x = self.sign(q, j, i);
                    if is_plane(kind, j) {
                        x == Sign::Zero
                    } else {
                        x != Sign::Negative
                    }
                })
            }
            Found::Crossing(p, ei, f) => {
                let q = 1 - p;
                let (s, e) = self.ctx.side(p).edges()[ei];
                let fc = face_constraint(self.ctx.side(q).kind, f);
                let (ds, de) = (self.sign(q, fc, s), self.sign(q, fc, e));
                if ds == Sign::Zero && de == Sign::Zero {
                    return false; // in the plane: the edge–edge stage covers it
                }
                if ds == de {
                    return false; // strictly on one side
                }
                // sign(d_s − d_e): d_s and d_e differ in sign or one is 0.
                let w = if ds != Sign::Zero { ds } else { de.flip() };
                let kind = self.ctx.side(q).kind;
                let (fs, fe) = (self.val(q, fc, s), self.val(q, fc, e));
                // Every other constraint at the crossing point, one at a time
                // (values computed as needed).
                for j in (0..self.nlin[q]).filter(|&j| j != fc) {
                    let (js, je) = (self.val(q, j, s), self.val(q, j, e));
                    let f = fs.mul_ref(&je).sub_ref(&fe.mul_ref(&js));
                    // Exactly: a triangle's plane value (degree 3) times an
                    // in-plane edge value (degree 4) can pass the 768 bits
                    // of Int, so the product is taken in BigInt.
                    let mut x = f.sign().unwrap_or_else(|| {
                        super::num::count_exact_sign();
                        let g = |jj: usize, ii: usize| super::num::big(&self.exact_val(q, jj, ii));
                        let v = g(fc, s) * g(j, e) - g(fc, e) * g(j, s);
                        Sign::from_ordering(v.cmp(&num_bigint::BigInt::from(0)))
                    });
                    if w == Sign::Negative {
                        x = x.flip();
                    }
                    let ok = if is_plane(kind, j) {
                        x == Sign::Zero
                    } else {
                        x != Sign::Negative
                    };
                    if !ok {
                        return false;
                    }
                }
                true
            }
        }
    }

    /// The exact found point.
    pub(crate) fn point(&self, found: Found) -> Vec3<BigRational> {
        let ctx = self.ctx;
        match found {
            Found::Center(s) => super::num::dyadic_point(&ctx.center_int(s), ctx.e0),
            Found::Vertex(s, i) => super::num::dyadic_point(&ctx.vertex_int(s, i), ctx.e0),
            Found::Crossing(p, ei, f) => {
                let (x, d, ds, w) = self.crossing(p, ei, f);
                along(&x, &d, &ds, &w, ctx.e0)
            }
        }
    }

    /// The found point rounded to doubles (the float paths).
    pub(crate) fn point_f64(&self, found: Found) -> Vec3<f64> {
        let ctx = self.ctx;
        let r = |x: &Int, d: &crate::fixed::Nat| super::num::ratio_f64(x, d, ctx.e0);
        let one = crate::fixed::Nat::from_u128(1);
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
        let (s, e) = self.ctx.side(p).edges()[ei];
        let fc = face_constraint(self.ctx.side(q).kind, f);
        let (mut ds, de) = (self.exact_val(q, fc, s), self.exact_val(q, fc, e));
        let mut w = ds.sub(&de);
        if w.is_neg() {
            w = w.neg();
            ds = ds.neg();
        }
        let x = self.ctx.vertex_int(p, s);
        let d = self.ctx.vertex_int(p, e).sub(&x);
        (x, d, ds, w)
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
