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
use super::side::{Ctx, Kind, Side};
use crate::fixed::{nonzero_product, Int, Reducer};
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

/// The constraints of a side, one per face in face order (a triangle: the
/// plane, then its edges 01, 12, 20); `box_sign` is the sign of a box's
/// determinant (orienting its face normals outward).
pub(crate) fn constraints<R: Ring>(s: &Side<R>, box_sign: Sign) -> ([Lin<R>; 6], usize) {
    let zero = || Lin {
        n: Vec3::new(R::zero(), R::zero(), R::zero()),
        k: R::zero(),
    };
    let mut out: [Lin<R>; 6] = std::array::from_fn(|_| zero());
    let n = match s.kind {
        Kind::Box => {
            let (c, _) = s.box_parts();
            for f in 0..6 {
                let nj = s.face_normal(f).0;
                // Face (j, +) holds c + h_j, where σ·n_j·(x − c) = |D|: its
                // constraint is −σ·n_j·(x − c) + |D| ≥ 0; face (j, −) the mirror.
                let inward = (f % 2 == 0) == (box_sign == Sign::Positive);
                let nn = if inward { nj.neg() } else { nj };
                let h = s.box_parts().1[f / 2].clone();
                // |D| = |n_j·h_j|; as (σ n_j)·h_j.
                let abs_d = {
                    let d = s.face_normal(f).0.dot(&h);
                    if box_sign == Sign::Negative {
                        d.neg_ref()
                    } else {
                        d
                    }
                };
                let k = nn.dot(&c).sub_ref(&abs_d);
                out[f] = Lin { n: nn, k };
            }
            6
        }
        Kind::Prism => {
            for i in 0..4 {
                let (p, q) = (&s.v[i], &s.v[(i + 1) % 4]);
                let nn = Vec3::new(p.y.sub_ref(&q.y), q.x.sub_ref(&p.x), R::zero());
                let k = nn.x.mul_ref(&p.x).add_ref(&nn.y.mul_ref(&p.y));
                out[i] = Lin { n: nn, k };
            }
            out[4] = Lin {
                n: Vec3::new(R::zero(), R::zero(), R::one()),
                k: s.c[8].clone(),
            };
            out[5] = Lin {
                n: Vec3::new(R::zero(), R::zero(), R::one().neg_ref()),
                k: s.c[9].neg_ref(),
            };
            6
        }
        Kind::Tri => {
            let nrm = s.face_normal(0).0;
            out[0] = Lin {
                k: nrm.dot(&s.v[0]),
                n: nrm.clone(),
            };
            for e in 0..3 {
                let (p, q) = (&s.v[e], &s.v[(e + 1) % 3]);
                let m = nrm.cross(&q.sub(p));
                out[1 + e] = Lin { k: m.dot(p), n: m };
            }
            4
        }
    };
    (out, n)
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
    lin: [([Lin<Fx>; 6], usize); 2],
    exact_lin: std::cell::OnceCell<[([Lin<Int>; 6], usize); 2]>,
    /// vals[s][j][i]: constraint j of side s at vertex i of the other side.
    vals: [[[Fx; 8]; 6]; 2],
    /// Decided signs of vals (None: not yet decided).
    signs: [[[Option<Sign>; 8]; 6]; 2],
}

impl<'a> Witness<'a> {
    pub(crate) fn new(ctx: &'a Ctx) -> Witness<'a> {
        let box_sign = [0, 1].map(|s| {
            let sd = ctx.side(s);
            if sd.kind != Kind::Box {
                return Sign::Positive;
            }
            let (_, h) = sd.box_parts();
            decide(h[0].dot(&h[1].cross(&h[2])), || {
                let (_, h) = ctx.exact()[s].box_parts();
                h[0].dot(&h[1].cross(&h[2]))
            })
        });
        let lin = [0, 1].map(|s| constraints(ctx.side(s), box_sign[s]));
        let mut vals = [[[Fx::exact(0.0); 8]; 6]; 2];
        for s in 0..2 {
            let other = ctx.side(1 - s);
            for j in 0..lin[s].1 {
                for i in 0..other.nv {
                    vals[s][j][i] = lin[s].0[j].at(&other.v[i]);
                }
            }
        }
        Witness {
            ctx,
            box_sign,
            lin,
            exact_lin: std::cell::OnceCell::new(),
            vals,
            signs: [[[None; 8]; 6]; 2],
        }
    }

    fn exact_lin(&self) -> &[([Lin<Int>; 6], usize); 2] {
        self.exact_lin.get_or_init(|| {
            let ex = self.ctx.exact();
            [0, 1].map(|s| constraints(&ex[s], self.box_sign[s]))
        })
    }

    /// Constraint j of side s at vertex i of the other side, exactly.
    fn exact_val(&self, s: usize, j: usize, i: usize) -> Int {
        let ex = self.ctx.exact();
        self.exact_lin()[s].0[j].at(&ex[1 - s].v[i])
    }

    /// The sign of constraint j of side s at vertex i of the other side.
    fn sign(&mut self, s: usize, j: usize, i: usize) -> Sign {
        if let Some(x) = self.signs[s][j][i] {
            return x;
        }
        let x = decide(self.vals[s][j][i], || self.exact_val(s, j, i));
        self.signs[s][j][i] = Some(x);
        x
    }

    /// Whether a point with constraint signs `sg(j)` lies in side s.
    fn inside(&self, s: usize, skip: Option<usize>, mut sg: impl FnMut(usize) -> Sign) -> bool {
        let (kind, n) = (self.ctx.side(s).kind, self.lin[s].1);
        (0..n).filter(|&j| Some(j) != skip).all(|j| {
            let x = sg(j);
            if is_plane(kind, j) {
                x == Sign::Zero
            } else {
                x != Sign::Negative
            }
        })
    }

    /// Box side `s`'s center in the other side?
    pub(crate) fn center_inside(&self, s: usize) -> bool {
        let o = 1 - s;
        let c = self.ctx.side(s).box_parts().0;
        let n = self.lin[o].1;
        let kind = self.ctx.side(o).kind;
        (0..n).all(|j| {
            let x = decide(self.lin[o].0[j].at(&c), || {
                let c = self.ctx.exact()[s].box_parts().0;
                self.exact_lin()[o].0[j].at(&c)
            });
            if is_plane(kind, j) {
                x == Sign::Zero
            } else {
                x != Sign::Negative
            }
        })
    }

    /// The search, in `Polytope` order.
    pub(crate) fn search(&mut self) -> Search {
        // Vertices of p in q: constraint values of q at p's vertices.
        for p in 0..2 {
            let q = 1 - p;
            for i in 0..self.ctx.side(p).nv {
                let mut signs = [Sign::Zero; 6];
                for (j, sg) in signs.iter_mut().enumerate().take(self.lin[q].1) {
                    *sg = self.sign(q, j, i);
                }
                if self.inside(q, None, |j| signs[j]) {
                    return Search::Found(Found::Vertex(p, i));
                }
            }
        }
        for p in 0..2 {
            let q = 1 - p;
            let (kind_q, nq) = (self.ctx.side(q).kind, self.ctx.side(q).nfaces());
            for (ei, &(s, e)) in self.ctx.side(p).edges().iter().enumerate() {
                for f in 0..nq {
                    let fc = face_constraint(kind_q, f);
                    let (ds, de) = (self.sign(q, fc, s), self.sign(q, fc, e));
                    if ds == Sign::Zero && de == Sign::Zero {
                        continue; // in the plane: the edge–edge stage covers it
                    }
                    if ds == de {
                        continue; // strictly on one side
                    }
                    // sign(d_s − d_e): d_s and d_e differ in sign or one is 0.
                    let w = if ds != Sign::Zero { ds } else { de.flip() };
                    let vals = &self.vals[q];
                    let inside = self.inside(q, Some(fc), |j| {
                        let f = vals[fc][s]
                            .mul_ref(&vals[j][e])
                            .sub_ref(&vals[fc][e].mul_ref(&vals[j][s]));
                        let x = decide(f, || {
                            let g = |jj: usize, ii: usize| self.exact_val(q, jj, ii);
                            g(fc, s).mul(&g(j, e)).sub(&g(fc, e).mul(&g(j, s)))
                        });
                        if w == Sign::Negative {
                            x.flip()
                        } else {
                            x
                        }
                    });
                    if inside {
                        return Search::Found(Found::Crossing(p, ei, f));
                    }
                }
            }
        }
        Search::Nothing
    }

    /// The exact found point.
    pub(crate) fn point(&self, found: Found) -> Vec3<BigRational> {
        let ctx = self.ctx;
        let ex = ctx.exact();
        match found {
            Found::Center(s) => super::num::dyadic_point(&ex[s].box_parts().0, ctx.e0),
            Found::Vertex(s, i) => super::num::dyadic_point(&ex[s].v[i], ctx.e0),
            Found::Crossing(p, ei, f) => {
                let q = 1 - p;
                let (s, e) = ex[p].edges()[ei];
                let fc = face_constraint(ex[q].kind, f);
                let (mut ds, de) = (self.exact_val(q, fc, s), self.exact_val(q, fc, e));
                let mut w = ds.sub(&de);
                if w.is_neg() {
                    w = w.neg();
                    ds = ds.neg();
                }
                along(&ex[p].v[s], &ex[p].v[e].sub(&ex[p].v[s]), &ds, &w, ctx.e0)
            }
        }
    }

    /// The found point rounded to doubles (the float paths).
    pub(crate) fn point_f64(&self, found: Found) -> Vec3<f64> {
        let ctx = self.ctx;
        let ex = ctx.exact();
        let r = |x: &Int, d: &crate::fixed::Nat, p: i64| super::num::ratio_f64(x, d, p);
        let one = crate::fixed::Nat::from_u128(1);
        let pt = |v: &Vec3<Int>| Vec3::new(r(&v.x, &one, ctx.e0), r(&v.y, &one, ctx.e0), r(&v.z, &one, ctx.e0));
        match found {
            Found::Center(s) => pt(&ex[s].box_parts().0),
            Found::Vertex(s, i) => pt(&ex[s].v[i]),
            Found::Crossing(p, ei, f) => {
                let q = 1 - p;
                let (s, e) = ex[p].edges()[ei];
                let fc = face_constraint(ex[q].kind, f);
                let (mut ds, de) = (self.exact_val(q, fc, s), self.exact_val(q, fc, e));
                let mut w = ds.sub(&de);
                if w.is_neg() {
                    w = w.neg();
                    ds = ds.neg();
                }
                let d = ex[p].v[e].sub(&ex[p].v[s]);
                let x = ex[p].v[s].scale(&w).add(&d.scale(&ds));
                Vec3::new(r(&x.x, w.mag(), ctx.e0), r(&x.y, w.mag(), ctx.e0), r(&x.z, w.mag(), ctx.e0))
            }
        }
    }
}

/// `(x·den + d·t) / den · 2^p`, coordinate-wise (`den > 0`), in lowest terms:
/// `gcd(x·den + d·t, den) = gcd(d·t, den)`.
pub(crate) fn along(x: &Vec3<Int>, d: &Vec3<Int>, t: &Int, den: &Int, p: i64) -> Vec3<BigRational> {
    let ds = [d.x, d.y, d.z];
    let red = Reducer::new(den.mag(), &[*t.mag(), nonzero_product(&ds)]);
    let c = |xk: &Int, dk: &Int| {
        let dt = dk.mul(t);
        let num = xk.mul(den).add(&dt);
        crate::fixed::finish(&num, den.mag(), &red.gcd(dt.mag()), p)
    };
    Vec3::new(c(&x.x, &d.x), c(&x.y, &d.y), c(&x.z, &d.z))
}
