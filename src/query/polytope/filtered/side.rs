//! The two shapes of a query as convex polytopes in the fast path's two number
//! types: vertices, edges, faces and edge directions numbered as
//! [`Polytope`](crate::query::polytope::Polytope) numbers them, so that a
//! search in that order finds what the exhaustive path finds.
//!
//! Inputs are doubles (f32 values are doubles too). Two exact copies of every
//! coordinate are kept: the double scaled by a power of two `2^s` so that the
//! largest magnitude is below 1 (exact: see [`align`]), for the filters, and
//! the integer `X` with `x = X·2^e0`, `e0` the least exponent of any input
//! bit, for the exact evaluations and the constructions.

use crate::num::bounded::Fx;
use crate::num::fixed::Int;
use crate::num::ring::Ring;
use crate::num::scalar::Scalar;
use crate::shape::Shape;
use crate::vector::Vec3;

/// The shape kinds of the fast path (a cube is its box).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Kind {
    /// A non-degenerate triangle (checked by the caller, exactly).
    Tri,
    /// A box: center, three half-axes.
    Box,
    /// A prism with zmin < zmax.
    Prism,
}

/// The input coordinates of one shape: a triangle's v0, v1, v2; a box's
/// center, h0, h1, h2; a prism's base x0, y0, …, x3, y3 (anticlockwise, as
/// stored), then zmin, zmax.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Raw {
    pub kind: Kind,
    pub c: [f64; 12],
}

impl Raw {
    /// The coordinates of a shape with float coordinates, or `None` for the
    /// shapes the fast path leaves to the exhaustive one (a flat prism).
    pub(crate) fn of<S: Scalar>(s: &Shape<S>) -> Option<Raw> {
        let mut c = [0.0; 12];
        let put = |c: &mut [f64; 12], i: usize, p: &Vec3<S>| {
            c[i] = p.x.to_f64();
            c[i + 1] = p.y.to_f64();
            c[i + 2] = p.z.to_f64();
        };
        let kind = match s {
            Shape::Triangle(t) => {
                for (k, p) in t.v.iter().enumerate() {
                    put(&mut c, 3 * k, p);
                }
                Kind::Tri
            }
            Shape::Box(_) | Shape::Cube(_) => {
                let b = match s {
                    Shape::Box(b) => b,
                    Shape::Cube(q) => q.obb(),
                    _ => unreachable!(),
                };
                put(&mut c, 0, &b.center);
                for (k, h) in b.half_axes.iter().enumerate() {
                    put(&mut c, 3 + 3 * k, h);
                }
                Kind::Box
            }
            Shape::Prism(p) => {
                if p.zmin.to_f64() == p.zmax.to_f64() {
                    return None;
                }
                for (k, q) in p.base.iter().enumerate() {
                    c[2 * k] = q.x.to_f64();
                    c[2 * k + 1] = q.y.to_f64();
                }
                c[8] = p.zmin.to_f64();
                c[9] = p.zmax.to_f64();
                Kind::Prism
            }
        };
        Some(Raw { kind, c })
    }

    /// How many of the twelve coordinates are used.
    pub(crate) fn len(&self) -> usize {
        match self.kind {
            Kind::Tri => 9,
            Kind::Box => 12,
            Kind::Prism => 10,
        }
    }
}

/// The widest aligned input allowed, in bits: every construction and exact
/// predicate evaluated in [`Int`] is a polynomial of degree at most 6 in
/// input coordinates, vertices and their differences (below 2^(BITS+3)), so
/// it stays below its 768 bits (6·119 + 8); the two of higher degree (the
/// witness search's crossing test against a triangle, degree 7, and the
/// tie-break's comparisons, degree 10) are evaluated in `BigInt`.
pub(crate) const BITS: i64 = 116;

/// Both shapes' coordinates, scaled and aligned.
pub(crate) struct Aligned {
    /// Scaled doubles `x·2^s`, all below 1 in magnitude.
    pub f: [[f64; 12]; 2],
    /// Integers `X` with `x = X·2^e0`.
    pub x: [[i128; 12]; 2],
    /// The common exponent of the integers.
    pub e0: i64,
}

/// Align both shapes' coordinates: `None` when a coordinate is not finite or
/// when the bits of the inputs span more than [`BITS`] (then the exhaustive
/// path answers).
///
/// With `top` the exponent just above the largest magnitude and `e0` the least
/// exponent of any nonzero bit, `top − e0 ≤ BITS`, the scale `2^(−top)` moves
/// every lowest bit to at least `2^(−BITS)`: every scaled double is exact.
pub(crate) fn align(raw: [&Raw; 2]) -> Option<Aligned> {
    // Per coordinate: the odd integer m and exponent e of its lowest bit
    // (x = m·2^e), and the exponent just above its magnitude.
    #[inline(always)]
    fn parts(v: f64) -> (i64, i64, i64) {
        let (m, e) = crate::num::dyadic::f64_parts(v);
        (m, e, e + 64 - m.unsigned_abs().leading_zeros() as i64)
    }
    let (mut e0, mut top) = (i64::MAX, i64::MIN);
    let mut me = [[(0i64, 0i64); 12]; 2];
    for (r, me) in raw.iter().zip(&mut me) {
        for (&v, me) in r.c[..r.len()].iter().zip(me) {
            if !v.is_finite() {
                return None;
            }
            if v != 0.0 {
                let (m, e, t) = parts(v);
                *me = (m, e);
                e0 = e0.min(e);
                top = top.max(t);
            }
        }
    }
    if e0 == i64::MAX || top - e0 > BITS {
        return None; // all zero (no valid pair of shapes), or too wide
    }
    let mut f = [[0.0; 12]; 2];
    let mut x = [[0i128; 12]; 2];
    let scale = -top;
    // One exact power of two when it is a normal double (else in steps).
    let one_step = (-1022..=1023).contains(&scale);
    let k = crate::num::fixed::ldexp(1.0, if one_step { scale } else { 0 });
    for s in 0..2 {
        let n = raw[s].len();
        for (((&v, &(m, e)), xi), fi) in raw[s].c[..n]
            .iter()
            .zip(&me[s])
            .zip(&mut x[s])
            .zip(&mut f[s])
        {
            if m == 0 {
                continue; // a zero coordinate
            }
            *xi = (m as i128) << (e - e0);
            *fi = if one_step {
                v * k
            } else {
                crate::num::fixed::ldexp(v, scale)
            };
        }
    }
    Some(Aligned { f, x, e0 })
}

/// Edges as vertex index pairs, in `Polytope` order.
pub(crate) const BOX_EDGES: [(usize, usize); 12] = [
    (0, 1),
    (2, 3),
    (4, 5),
    (6, 7),
    (0, 2),
    (1, 3),
    (4, 6),
    (5, 7),
    (0, 4),
    (1, 5),
    (2, 6),
    (3, 7),
];
const TRI_EDGES: [(usize, usize); 3] = [(0, 1), (0, 2), (1, 2)];
const PRISM_EDGES: [(usize, usize); 12] = [
    (0, 1),
    (1, 2),
    (2, 3),
    (3, 0),
    (4, 5),
    (5, 6),
    (6, 7),
    (7, 4),
    (0, 4),
    (1, 5),
    (2, 6),
    (3, 7),
];

/// Face vertex cycles (each face's boundary in order), in `Polytope` face
/// order: a box's faces (k, +), (k, −) for k = 0, 1, 2 (the + face holds the
/// vertices with bit k set); the triangle; a prism's four sides, bottom, top.
const BOX_FACES: [[usize; 4]; 6] = [
    [1, 3, 7, 5],
    [0, 2, 6, 4],
    [2, 6, 7, 3],
    [0, 4, 5, 1],
    [4, 5, 7, 6],
    [0, 1, 3, 2],
];
const PRISM_FACES: [[usize; 4]; 6] = [
    [0, 1, 5, 4],
    [1, 2, 6, 5],
    [2, 3, 7, 6],
    [3, 0, 4, 7],
    [0, 1, 2, 3],
    [4, 5, 6, 7],
];

/// One shape stored in number type `R` (the filter's [`Fx`], the aligned
/// integers as [`Small`]).
#[derive(Clone, Debug)]
pub(crate) struct Side<R> {
    pub kind: Kind,
    /// The input coordinates (layout of [`Raw`]).
    pub c: [R; 12],
    /// The vertices (`nv` of them), in `Polytope` order.
    pub v: [Vec3<R>; 8],
    pub nv: usize,
    /// The edge directions in `Polytope` order (a prism's opposite base edges
    /// that are exactly parallel appear once), as direction ids.
    pub dirs: [usize; 5],
    pub nd: usize,
}

fn p3<R: Ring>(c: &[R; 12], i: usize) -> Vec3<R> {
    Vec3::new(c[i].clone(), c[i + 1].clone(), c[i + 2].clone())
}

impl<R: Ring> Side<R> {
    /// The shape from its coordinates and its direction list ([`directions`]).
    pub(crate) fn new(kind: Kind, c: [R; 12], dirs: ([usize; 5], usize)) -> Side<R> {
        let zero = || Vec3::new(R::zero(), R::zero(), R::zero());
        let mut v: [Vec3<R>; 8] = std::array::from_fn(|_| zero());
        let nv = match kind {
            Kind::Tri => {
                for (k, p) in v.iter_mut().take(3).enumerate() {
                    *p = p3(&c, 3 * k);
                }
                3
            }
            Kind::Box => {
                let (ctr, h) = (p3(&c, 0), [p3(&c, 3), p3(&c, 6), p3(&c, 9)]);
                for (i, p) in v.iter_mut().enumerate() {
                    let mut q = ctr.clone();
                    for (k, hk) in h.iter().enumerate() {
                        q = if i >> k & 1 == 1 {
                            q.add(hk)
                        } else {
                            q.sub(hk)
                        };
                    }
                    *p = q;
                }
                8
            }
            Kind::Prism => {
                for (i, p) in v.iter_mut().enumerate() {
                    let z = if i < 4 { &c[8] } else { &c[9] };
                    *p = Vec3::new(
                        c[2 * (i % 4)].clone(),
                        c[2 * (i % 4) + 1].clone(),
                        z.clone(),
                    );
                }
                8
            }
        };
        Side {
            kind,
            c,
            v,
            nv,
            dirs: dirs.0,
            nd: dirs.1,
        }
    }
}

/// A shape as read by the predicates and constructions, in its ring `R`:
/// the stored [`Side<Fx>`] for the filter, and [`Exact`] (the stored `i128`
/// values widened to [`Int`] as they are read) for the exact evaluations, so
/// that every geometric quantity is written once.
pub(crate) trait View {
    type R: Ring;
    fn kind(&self) -> Kind;
    /// Input coordinate `i` (layout of [`Raw`]).
    fn c(&self, i: usize) -> Self::R;
    /// Vertex `i`.
    fn v(&self, i: usize) -> Vec3<Self::R>;
    fn nv(&self) -> usize;
    /// The direction ids (see [`Side::dirs`]).
    fn dir_ids(&self) -> &[usize];

    fn p3(&self, i: usize) -> Vec3<Self::R> {
        Vec3::new(self.c(i), self.c(i + 1), self.c(i + 2))
    }

    fn edges(&self) -> &'static [(usize, usize)] {
        match self.kind() {
            Kind::Tri => &TRI_EDGES,
            Kind::Box => &BOX_EDGES,
            Kind::Prism => &PRISM_EDGES,
        }
    }

    fn nfaces(&self) -> usize {
        match self.kind() {
            Kind::Tri => 1,
            _ => 6,
        }
    }

    /// The vertex cycle of face `f`.
    fn face_cycle(&self, f: usize) -> &'static [usize] {
        match self.kind() {
            Kind::Tri => &[0, 1, 2],
            Kind::Box => &BOX_FACES[f],
            Kind::Prism => &PRISM_FACES[f],
        }
    }

    /// Face `f`'s normal as `Polytope` computes it, and its degree in the
    /// coordinates.
    fn face_normal(&self, f: usize) -> (Vec3<Self::R>, i64) {
        match self.kind() {
            Kind::Tri => {
                let v0 = self.v(0);
                let n = self.v(1).sub(&v0).cross(&self.v(2).sub(&v0));
                (n, 2)
            }
            Kind::Box => {
                let k = f / 2;
                let n = self
                    .p3(3 + 3 * ((k + 1) % 3))
                    .cross(&self.p3(3 + 3 * ((k + 2) % 3)));
                (n, 2)
            }
            Kind::Prism => {
                if f < 4 {
                    let (a, b) = (2 * f, 2 * ((f + 1) % 4));
                    let n = Vec3::new(
                        self.c(b + 1).sub_ref(&self.c(a + 1)),
                        self.c(a).sub_ref(&self.c(b)),
                        Self::R::zero(),
                    );
                    (n, 1)
                } else {
                    (
                        Vec3::new(Self::R::zero(), Self::R::zero(), Self::R::one()),
                        0,
                    )
                }
            }
        }
    }

    /// Direction id `d` as the vector `Polytope` keeps (degree 1).
    fn dir(&self, d: usize) -> Vec3<Self::R> {
        match self.kind() {
            Kind::Tri => {
                let (i, j) = TRI_EDGES[d];
                self.v(j).sub(&self.v(i))
            }
            Kind::Box => {
                let h = self.p3(3 + 3 * d);
                h.add(&h)
            }
            Kind::Prism => {
                if d < 4 {
                    let (a, b) = (2 * d, 2 * ((d + 1) % 4));
                    Vec3::new(
                        self.c(b).sub_ref(&self.c(a)),
                        self.c(b + 1).sub_ref(&self.c(a + 1)),
                        Self::R::zero(),
                    )
                } else {
                    Vec3::new(
                        Self::R::zero(),
                        Self::R::zero(),
                        self.c(9).sub_ref(&self.c(8)),
                    )
                }
            }
        }
    }

    /// Edge `e` as (start, end − start).
    fn edge_vectors(&self, e: usize) -> (Vec3<Self::R>, Vec3<Self::R>) {
        let (i, j) = self.edges()[e];
        let s = self.v(i);
        let d = self.v(j).sub(&s);
        (s, d)
    }

    /// A box's center and half-axes.
    fn box_parts(&self) -> (Vec3<Self::R>, [Vec3<Self::R>; 3]) {
        (self.p3(0), [self.p3(3), self.p3(6), self.p3(9)])
    }
}

impl View for Side<Fx> {
    type R = Fx;
    #[inline]
    fn kind(&self) -> Kind {
        self.kind
    }
    #[inline]
    fn c(&self, i: usize) -> Fx {
        self.c[i]
    }
    #[inline]
    fn v(&self, i: usize) -> Vec3<Fx> {
        self.v[i].clone()
    }
    #[inline]
    fn nv(&self) -> usize {
        self.nv
    }
    #[inline]
    fn dir_ids(&self) -> &[usize] {
        &self.dirs[..self.nd]
    }
}

/// The exact view of a side: its aligned `i128` inputs, vertices summed in
/// `i128` (below 2^119: no overflow under [`BITS`]) and widened to [`Int`] as
/// they are read.
#[derive(Clone, Copy)]
pub(crate) struct Exact<'a> {
    kind: Kind,
    x: &'a [i128; 12],
    dirs: &'a [usize],
}

impl Exact<'_> {
    /// Vertex `i` in `i128` (below 2¹¹⁹ under [`BITS`]).
    pub(crate) fn vertex_small(&self, i: usize) -> [i128; 3] {
        let x = self.x;
        match self.kind {
            Kind::Tri => [x[3 * i], x[3 * i + 1], x[3 * i + 2]],
            Kind::Box => std::array::from_fn(|k| {
                let mut q = x[k];
                for j in 0..3 {
                    let h = x[3 + 3 * j + k];
                    q = if i >> j & 1 == 1 { q + h } else { q - h };
                }
                q
            }),
            Kind::Prism => {
                let b = i % 4;
                [x[2 * b], x[2 * b + 1], x[8 + i / 4]]
            }
        }
    }
}

impl Exact<'_> {
    /// Edge `e` as (start, end − start) in `i128` (the difference below
    /// 2¹²⁰).
    pub(crate) fn edge_small(&self, e: usize) -> ([i128; 3], [i128; 3]) {
        let (i, j) = self.edges()[e];
        let (p, q) = (self.vertex_small(i), self.vertex_small(j));
        (p, crate::num::wide::diff(&q, &p))
    }

    /// [`View::face_normal`]'s vector (the same integers) in four words
    /// (components below 2²⁴¹).
    pub(crate) fn face_normal_wide(&self, f: usize) -> crate::num::wide::V<4> {
        use crate::num::wide::{cross, Wide};
        let x = self.x;
        let p3 = |i: usize| [x[i], x[i + 1], x[i + 2]];
        match self.kind {
            Kind::Tri => {
                let v0 = self.vertex_small(0);
                let e1 = crate::num::wide::diff(&self.vertex_small(1), &v0);
                let e2 = crate::num::wide::diff(&self.vertex_small(2), &v0);
                cross(&e1, &e2)
            }
            Kind::Box => {
                let k = f / 2;
                cross(&p3(3 + 3 * ((k + 1) % 3)), &p3(3 + 3 * ((k + 2) % 3)))
            }
            Kind::Prism => {
                if f < 4 {
                    let (a, b) = (2 * f, 2 * ((f + 1) % 4));
                    [x[b + 1] - x[a + 1], x[a] - x[b], 0].map(Wide::from_i128)
                } else {
                    [0, 0, 1].map(Wide::from_i128)
                }
            }
        }
    }
}

impl View for Exact<'_> {
    type R = Int;
    fn kind(&self) -> Kind {
        self.kind
    }
    fn c(&self, i: usize) -> Int {
        Int::from_i128(self.x[i])
    }
    fn v(&self, i: usize) -> Vec3<Int> {
        let p = self.vertex_small(i);
        Vec3::new(
            Int::from_i128(p[0]),
            Int::from_i128(p[1]),
            Int::from_i128(p[2]),
        )
    }
    fn nv(&self) -> usize {
        if self.kind == Kind::Tri {
            3
        } else {
            8
        }
    }
    fn dir_ids(&self) -> &[usize] {
        self.dirs
    }
    /// In `i128` (vertices below 2^119, their differences below 2^120),
    /// widened once.
    fn edge_vectors(&self, e: usize) -> (Vec3<Int>, Vec3<Int>) {
        let (i, j) = self.edges()[e];
        let (p, q) = (self.vertex_small(i), self.vertex_small(j));
        let w = |x: [i128; 3]| {
            Vec3::new(
                Int::from_i128(x[0]),
                Int::from_i128(x[1]),
                Int::from_i128(x[2]),
            )
        };
        (w(p), w([q[0] - p[0], q[1] - p[1], q[2] - p[2]]))
    }
}

/// The decided parallel pairs of a prism's base edges, as the direction list
/// `Polytope` builds (first occurrence of each direction, up to sign): d0, d1,
/// d2 unless parallel to d0, d3 unless parallel to d1, then the vertical one.
/// Adjacent edges of a strictly convex quadrilateral are never parallel.
pub(crate) fn directions(kind: Kind, par02: bool, par13: bool) -> ([usize; 5], usize) {
    match kind {
        Kind::Tri | Kind::Box => ([0, 1, 2, 0, 0], 3),
        Kind::Prism => {
            let mut d = [0, 1, 0, 0, 0];
            let mut n = 2;
            if !par02 {
                d[n] = 2;
                n += 1;
            }
            if !par13 {
                d[n] = 3;
                n += 1;
            }
            d[n] = 4;
            (d, n + 1)
        }
    }
}

/// A side in [`Fx`] from its scaled (exact) doubles. A box's vertices
/// `c ± h0 ± h1 ± h2` are summed in plain doubles, each coordinate k within
/// `γ₃·S_k` of the exact sum (`S_k = |c_k| + Σ|h_jk|`, recursive summation,
/// Higham 2002 §4.2), bounded by `4u·S̃_k` (the computed `S̃_k` is at least
/// `S_k(1 − 3u)`); additions cannot underflow.
#[inline(always)]
fn filter_side(kind: Kind, f: &[f64; 12], dirs: ([usize; 5], usize)) -> Side<Fx> {
    if kind != Kind::Box {
        return Side::new(kind, f.map(Fx::exact), dirs);
    }
    let mut p = [[Fx::exact(0.0); 3]; 8];
    for k in 0..3 {
        let e = 4.0
            * crate::num::bounded::U
            * (f[k].abs() + f[3 + k].abs() + f[6 + k].abs() + f[9 + k].abs());
        // ((c ± h0) ± h1) ± h2, the prefixes shared.
        let (c, h0, h1, h2) = (f[k], f[3 + k], f[6 + k], f[9 + k]);
        let s1 = [c - h0, c + h0];
        for (i, pi) in p.iter_mut().enumerate() {
            let q = s1[i & 1];
            let q = if i >> 1 & 1 == 1 { q + h1 } else { q - h1 };
            let q = if i >> 2 & 1 == 1 { q + h2 } else { q - h2 };
            pi[k] = Fx { v: q, e };
        }
    }
    Side {
        kind,
        c: f.map(Fx::exact),
        v: p.map(|[x, y, z]| Vec3::new(x, y, z)),
        nv: 8,
        dirs: dirs.0,
        nd: dirs.1,
    }
}

/// The query's two shapes in the filter's numbers and as aligned integers.
pub(crate) struct Ctx {
    pub a: Side<Fx>,
    pub b: Side<Fx>,
    /// The aligned inputs.
    x: [[i128; 12]; 2],
    pub e0: i64,
}

impl Ctx {
    /// Both shapes; `None` when the fast path does not apply (see [`align`],
    /// [`Raw::of`]) or for a degenerate triangle.
    #[inline(always)]
    pub(crate) fn new(ra: &Raw, rb: &Raw) -> Option<Ctx> {
        let al = align([ra, rb])?;
        let plain = ([0usize, 1, 2, 0, 0], 3);
        let mut ctx = Ctx {
            a: filter_side(ra.kind, &al.f[0], plain),
            b: filter_side(rb.kind, &al.f[1], plain),
            x: al.x,
            e0: al.e0,
        };
        for s in 0..2 {
            if ctx.side(s).kind == Kind::Tri {
                // A degenerate triangle (zero normal) is left to the
                // exhaustive path.
                let nonzero = (0..3).any(|k| {
                    let f = ctx.side(s).face_normal(0).0;
                    crate::num::bounded::decide(*f.get(k), || {
                        *ctx.exact_side(s).face_normal(0).0.get(k)
                    }) != crate::num::sign::Sign::Zero
                });
                if !nonzero {
                    return None;
                }
            }
            if ctx.side(s).kind == Kind::Prism {
                // d_i × d_j = 0 exactly? (2-D cross product of base edges.)
                fn cross2<V: View>(sd: &V, i: usize, j: usize) -> V::R {
                    let (u, w) = (sd.dir(i), sd.dir(j));
                    u.x.mul_ref(&w.y).sub_ref(&u.y.mul_ref(&w.x))
                }
                let par = |ctx: &Ctx, i: usize, j: usize| {
                    crate::num::bounded::decide(cross2(ctx.side(s), i, j), || {
                        cross2(&ctx.exact_side(s), i, j)
                    }) == crate::num::sign::Sign::Zero
                };
                let d = directions(Kind::Prism, par(&ctx, 0, 2), par(&ctx, 1, 3));
                let sd = if s == 0 { &mut ctx.a } else { &mut ctx.b };
                sd.dirs = d.0;
                sd.nd = d.1;
            }
        }
        Some(ctx)
    }

    pub(crate) fn side(&self, s: usize) -> &Side<Fx> {
        if s == 0 {
            &self.a
        } else {
            &self.b
        }
    }

    /// The exact view of side `s`.
    pub(crate) fn exact_side(&self, s: usize) -> Exact<'_> {
        let sd = self.side(s);
        Exact {
            kind: sd.kind,
            x: &self.x[s],
            dirs: &sd.dirs[..sd.nd],
        }
    }

    /// The exact views of both sides.
    pub(crate) fn exact(&self) -> [Exact<'_>; 2] {
        [self.exact_side(0), self.exact_side(1)]
    }

    /// Vertex `i` of side `s` as an exact integer point.
    pub(crate) fn vertex_int(&self, s: usize, i: usize) -> Vec3<Int> {
        self.exact_side(s).v(i)
    }

    /// A box side's center as an exact integer point.
    pub(crate) fn center_int(&self, s: usize) -> Vec3<Int> {
        self.exact_side(s).p3(0)
    }
}
