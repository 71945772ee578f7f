//! The separating-axis search of [`polytope::separating_axis`] on the fast
//! path: the same candidate axes in the same order (face normals of a, of b,
//! a flat shape's in-plane edge normals, then the cross products of edge
//! directions), the same exact decision, so the same first separating axis.
//!
//! For each axis `L` (computed in [`Fx`]) the extents `L·v` over both vertex
//! sets are computed in plain doubles with one bound for all of them:
//!
//! ```text
//! |fl(L̃·ṽ) − L·v| ≤ 3·(Lm·ev + Vm·eL + eL·ev) + 12u·Lm·Vm + η
//! ```
//!
//! with `Lm`, `Vm` the largest computed coordinates of the axis and of the
//! vertices, `eL`, `ev` their error bounds (`|Σ L̃ₖṽₖ − Σ Lₖvₖ| ≤ Σ(|L̃ₖ|ev +
//! |ṽₖ|eL + eL·ev)` and the three-term dot product in floats is within
//! `γ₃·Σ|L̃ₖṽₖ|` plus underflow). An axis the bound cannot decide is decided on
//! the exact integers.
//!
//! [`polytope::separating_axis`]: crate::query::polytope::separating_axis

use super::side::{Ctx, Exact, Kind, Side, View};
use crate::num::bounded::{Fx, K_MUL_PUB, U};
use crate::num::fixed::Int;
use crate::vector::Vec3;

/// A candidate axis, as `Polytope` lists them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Axis {
    /// The normal of face `f` of side `s`.
    Face(usize, usize),
    /// A flat side `s`'s normal × its direction number `k`.
    Flat(usize, usize),
    /// Direction number `i` of a × direction number `j` of b.
    Cross(usize, usize),
}

/// The axes in `Polytope` order, with a face normal listed twice in a row
/// (a box's opposite faces, a prism's bottom and top) kept once: the same
/// vector gives the same answer.
pub(crate) fn axes(ctx: &Ctx) -> ([Axis; 40], usize) {
    let mut out = [Axis::Face(0, 0); 40];
    let mut n = 0;
    for s in 0..2 {
        let sd = ctx.side(s);
        match sd.kind {
            Kind::Tri => {
                out[n] = Axis::Face(s, 0);
                n += 1;
                for k in 0..sd.nd {
                    out[n] = Axis::Flat(s, k);
                    n += 1;
                }
            }
            Kind::Box => {
                for f in [0, 2, 4] {
                    out[n] = Axis::Face(s, f);
                    n += 1;
                }
            }
            Kind::Prism => {
                for f in 0..5 {
                    out[n] = Axis::Face(s, f);
                    n += 1;
                }
            }
        }
    }
    for i in 0..ctx.a.nd {
        for j in 0..ctx.b.nd {
            out[n] = Axis::Cross(i, j);
            n += 1;
        }
    }
    (out, n)
}

/// The axis vector and its degree in the coordinates.
pub(crate) fn axis_vec<V: View>(a: &V, b: &V, ax: Axis) -> (Vec3<V::R>, i64) {
    let side = |s: usize| if s == 0 { a } else { b };
    match ax {
        Axis::Face(s, f) => side(s).face_normal(f),
        Axis::Flat(s, k) => {
            let sd = side(s);
            let n = sd.face_normal(0).0;
            (n.cross(&sd.dir(sd.dir_ids()[k])), 3)
        }
        Axis::Cross(i, j) => (a.dir(a.dir_ids()[i]).cross(&b.dir(b.dir_ids()[j])), 2),
    }
}

/// Plain-double vertex coordinates of a side, the largest magnitude and the
/// largest error bound.
pub(crate) struct Plain {
    pub v: [[f64; 3]; 8],
    pub n: usize,
    pub vmax: f64,
    pub err: f64,
}

impl Plain {
    /// The side as GJK reads it (a box with its half-axes, from the exact
    /// scaled inputs).
    pub(crate) fn hull<'a>(&'a self, s: &Side<Fx>) -> super::gjk::Hull<'a> {
        let h = (s.kind == super::side::Kind::Box)
            .then(|| [3, 6, 9].map(|i| [s.c[i].v, s.c[i + 1].v, s.c[i + 2].v]));
        super::gjk::Hull {
            v: &self.v[..self.n],
            h,
        }
    }

    pub(crate) fn new(s: &Side<Fx>) -> Plain {
        let mut p = Plain {
            v: [[0.0; 3]; 8],
            n: s.nv,
            vmax: 0.0,
            err: 0.0,
        };
        for i in 0..s.nv {
            for k in 0..3 {
                let c = s.v[i].get(k);
                p.v[i][k] = c.v;
                p.vmax = p.vmax.max(c.v.abs());
                p.err = p.err.max(c.e);
            }
        }
        p
    }
}

#[inline(always)]
fn dot(l: &[f64; 3], v: &[f64; 3]) -> f64 {
    l[0] * v[0] + l[1] * v[1] + l[2] * v[2]
}

/// Whether `ax` strictly separates the vertex sets, exactly.
pub(crate) fn separates(ctx: &Ctx, pa: &Plain, pb: &Plain, ax: Axis) -> bool {
    let (l, _) = axis_vec(&ctx.a, &ctx.b, ax);
    let lf = [l.x.v, l.y.v, l.z.v];
    let lm = lf[0].abs().max(lf[1].abs()).max(lf[2].abs());
    let el = l.x.e.max(l.y.e).max(l.z.e);
    let (vm, ev) = (pa.vmax.max(pb.vmax), pa.err.max(pb.err));
    let e =
        (3.0 * (lm * ev + vm * el + el * ev) + 12.0 * U * lm * vm + f64::MIN_POSITIVE) * K_MUL_PUB;
    // Twice the bound, and room for the rounding of the differences below.
    let e2 = 2.0 * e * (1.0 + 4.0 * U);
    let ext = |p: &Plain| {
        let mut lo = f64::INFINITY;
        let mut hi = f64::NEG_INFINITY;
        for v in &p.v[..p.n] {
            let x = dot(&lf, v);
            lo = lo.min(x);
            hi = hi.max(x);
        }
        (lo, hi)
    };
    let ((amin, amax), (bmin, bmax)) = (ext(pa), ext(pb));
    // Some(true): certainly separates in that order; Some(false): certainly not.
    let order = |gap: f64| {
        if gap > e2 {
            Some(true)
        } else if -gap >= e2 {
            Some(false)
        } else {
            None
        }
    };
    match (order(bmin - amax), order(amin - bmax)) {
        (Some(true), _) | (_, Some(true)) => true,
        (Some(false), Some(false)) => false,
        _ => separates_exact(ctx, ax),
    }
}

/// The exact decision on the integers.
fn separates_exact(ctx: &Ctx, ax: Axis) -> bool {
    crate::num::bounded::count_exact_sign();
    let ex = ctx.exact();
    let (l, _) = axis_vec(&ex[0], &ex[1], ax);
    if [&l.x, &l.y, &l.z].iter().all(|c| c.signum() == 0) {
        return false;
    }
    let ext = |s: &Exact| {
        let mut it = (0..s.nv()).map(|i| l.dot(&s.v(i)));
        let first = it.next().expect("a vertex");
        it.fold((first, first), |(lo, hi), x| {
            let lo = if x.sub(&lo).is_neg() { x } else { lo };
            let hi = if hi.sub(&x).is_neg() { x } else { hi };
            (lo, hi)
        })
    };
    let ((amin, amax), (bmin, bmax)) = (ext(&ex[0]), ext(&ex[1]));
    amax.sub(&bmin).is_neg() || bmax.sub(&amin).is_neg()
}

/// The first separating axis in `Polytope` order, decided exactly.
pub(crate) fn first_separating(ctx: &Ctx) -> Option<Axis> {
    let (pa, pb) = (Plain::new(&ctx.a), Plain::new(&ctx.b));
    let (list, n) = axes(ctx);
    list[..n]
        .iter()
        .copied()
        .find(|&ax| separates(ctx, &pa, &pb, ax))
}

/// The exact axis vector as integers and the power of two it is scaled by.
pub(crate) fn axis_exact(ctx: &Ctx, ax: Axis) -> (Vec3<Int>, i64) {
    let ex = ctx.exact();
    let (l, deg) = axis_vec(&ex[0], &ex[1], ax);
    (l, deg * ctx.e0)
}
