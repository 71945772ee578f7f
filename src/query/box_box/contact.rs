//! Box–box contact on the float-guided path (docs/contact.md): the same
//! answer as the exact reference ([`crate::query::polytope::contact`]) for
//! two boxes of doubles, with the optimal normals found in floats and proved
//! exactly.
//!
//! The reference evaluates, for each of the 15 candidate axes `n = u × v`
//! (`box_box::axis_pair`: the face normals of a, of b, then `a_i × b_j`; a
//! zero cross product is no candidate, parallel candidates count once) and
//! both signs, the overlap `o(±n) = ±n·(c_a − c_b) + S(n)` with
//! `S(n) = Σ_i |n·a_i| + Σ_j |n·b_j|` (the support values of the boxes), and
//! keeps every direction with the least `o²/|n|²`. The better sign of a
//! candidate has `o(n) = S(n) − |n·(c_a − c_b)|`, a polynomial of degree 3
//! in the input doubles (with absolute values); the worse sign is larger by
//! `2|n·(c_a − c_b)|`, so it ties only when that is 0.
//!
//! Here:
//! 1. the zero candidates are found exactly (each product of two doubles as
//!    an odd integer times a power of two);
//! 2. `o` and `|n|²` of every candidate are evaluated in `num::bounded::Fx` (a double
//!    with a proven error bound), and the guess `m` is the least `o²/|n|²`
//!    in doubles;
//! 3. for every other candidate c the sign of
//!    `o_c²·|n_m|² − o_m²·|n_c|²` (degree 10) is taken from its `Fx` value
//!    when the bound decides it, else evaluated exactly ([`sign_exact`],
//!    dyadic integers): positive — not optimal; zero — a tie; negative —
//!    the guess was wrong and the reference answers (counted as a fallback
//!    in [`crate::stats::BOX_CONTACT`]);
//! 4. only the optimal candidates are built exactly: their primitive
//!    integer normals in the reference's canonical sign, the sign of
//!    `n·(c_a − c_b)` choosing the direction(s), repeats dropped in
//!    candidate order — the reference's `normals`, in its order;
//! 5. for the first normal, δ², the translation and the region, in
//!    integers (the inputs as integer multiples of one power of two, the
//!    region in a frame scaled by |n|²): the supporting features (a's
//!    vertices where `n·x` is largest, chosen by the signs of `n·a_i`; b's
//!    where `n·y` is least, moved), projected and met by the reference's
//!    plane steps (monotone-chain hulls, vertices inside the other hull,
//!    edge crossings, here in homogeneous integers), lifted, and each output
//!    number reduced to lowest terms once.
//!
//! Every decision is exact, so the answer equals the reference's: the same
//! δ², the same normals in the same order, the same translation and region.

use super::{axis_pair, overlaps};
use crate::num::bounded::Fx;
use crate::num::gcd::{gcd_lehmer, ratio};
use crate::num::ring::Ring;
use crate::num::sign::Sign;
use crate::predicates::{sign_exact, Expr};
use crate::query::polytope::contact::{penetration_of_meeting, Penetration};
use crate::query::polytope::Polytope;
use crate::query::triangle_triangle::Contact as Region;
use crate::query::{distance_exact_unreduced, ContactAnswer, QueryError, UnreducedClosest};
use crate::shape::{Obb, Shape};
use crate::stats;
use crate::vector::Vec3;
use num_bigint::BigInt;
use num_rational::BigRational;
use num_traits::{One, Signed, Zero};

type Q = BigRational;
type Z = BigInt;

/// A box's center and half-axes in a ring.
struct Lifted<R> {
    c: Vec3<R>,
    h: [Vec3<R>; 3],
}

fn lift<R: Ring, L: Fn(&f64) -> R>(b: &Obb<f64>, l: &L) -> Lifted<R> {
    let h = &b.half_axes;
    Lifted {
        c: b.center.map(l),
        h: [h[0].map(l), h[1].map(l), h[2].map(l)],
    }
}

/// Candidate `k`: the axis `n = u × v` and the overlap of its better sign,
/// `S(n) − |n·(c_a − c_b)|`.
fn candidate<R: Ring>(a: &Lifted<R>, b: &Lifted<R>, k: usize) -> (Vec3<R>, R) {
    let (u, v) = axis_pair(&a.h, &b.h, k);
    let n = u.cross(v);
    let mut o = n.dot(&a.c.sub(&b.c)).abs_ref().neg_ref();
    for h in a.h.iter().chain(b.h.iter()) {
        o = o.add_ref(&n.dot(h).abs_ref());
    }
    (n, o)
}

/// `o_c²·|n_m|² − o_m²·|n_c|²`: positive when candidate c needs more than m.
fn gap<R: Ring>(oc: &R, nnc: &R, om: &R, nnm: &R) -> R {
    oc.square().mul_ref(nnm).sub_ref(&om.square().mul_ref(nnc))
}

/// [`gap`] of candidates `c` and `m`, for the exact evaluation.
struct Gap<'a> {
    a: &'a Obb<f64>,
    b: &'a Obb<f64>,
    c: usize,
    m: usize,
}

impl Expr<f64> for Gap<'_> {
    fn eval<R: Ring, L: Fn(&f64) -> R>(&self, l: &L) -> R {
        let (a, b) = (lift(self.a, l), lift(self.b, l));
        let (nc, oc) = candidate(&a, &b, self.c);
        let (nm, om) = candidate(&a, &b, self.m);
        gap(&oc, &nc.norm_squared(), &om, &nm.norm_squared())
    }
}

/// The exact product of two doubles as (odd integer, exponent), (0, 0) for 0:
/// equal products have equal pairs.
fn product(p: f64, q: f64) -> (i128, i64) {
    let ((mp, ep), (mq, eq)) = (
        crate::num::dyadic::f64_parts(p),
        crate::num::dyadic::f64_parts(q),
    );
    if mp == 0 || mq == 0 {
        return (0, 0);
    }
    (mp as i128 * mq as i128, ep + eq)
}

/// Whether candidate `k`'s cross product is exactly zero (parallel edges).
fn axis_is_zero(a: &Obb<f64>, b: &Obb<f64>, k: usize) -> bool {
    let (u, v) = axis_pair(&a.half_axes, &b.half_axes, k);
    let (u, v) = ([u.x, u.y, u.z], [v.x, v.y, v.z]);
    (0..3).all(|i| {
        let (j, l) = ((i + 1) % 3, (i + 2) % 3);
        product(u[j], v[l]) == product(u[l], v[j])
    })
}

/// The penetration of two boxes of doubles known to meet, on the
/// float-guided path alone: the reference's answer, or `None` when the float
/// guess of the least candidate was wrong ([`contact`] then asks the
/// reference).
pub fn penetration(a: &Obb<f64>, b: &Obb<f64>) -> Option<Penetration> {
    penetration_unreduced(a, b).map(|p| p.reduce())
}

/// [`penetration`] before any reduction to lowest terms: the same values as
/// integers over common denominators ([`PenetrationUnreduced`]).
pub fn penetration_unreduced(a: &Obb<f64>, b: &Obb<f64>) -> Option<PenetrationUnreduced> {
    let tied = optimal(a, b)?;
    let f = Frame::new(a, b)?;
    f.build(f.normals(&tied)?)
}

/// The penetration of two boxes of doubles as integers, before any
/// reduction to lowest terms: every input double is an integer multiple of
/// `2^e0`, and every value here is an integer in those units, over its
/// stated denominator. [`PenetrationUnreduced::reduce`] gives the
/// reference's [`Penetration`] (each number in lowest terms), the same
/// values.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PenetrationUnreduced {
    /// The unit exponent: the values below are in units of `2^e0`.
    pub e0: i64,
    /// Every optimal normal, primitive integer vectors pointing from a to b
    /// (already in lowest terms), the first reported.
    pub normals: Vec<Vec3<Z>>,
    /// The overlap `o` along the first normal `n` (units `2^e0`): b must
    /// move by `o/|n|` along it, so δ² = `o²/|n|²·2^(2·e0)` and the
    /// translation is `o·n/|n|²·2^e0`.
    pub overlap: Z,
    /// `|n|²` of the first normal.
    pub norm_squared: Z,
    /// The contact region's vertices (one: a point, two: a segment, more: a
    /// convex polygon, in the reference's order) in homogeneous integers
    /// `[x, y, z, w]`, `w > 0`: the vertex `(x/w, y/w, z/w)·2^e0`.
    pub region: Vec<[Z; 4]>,
}

impl PenetrationUnreduced {
    /// A value `v·2^(p·e0)/den` as a rational in lowest terms.
    fn out(&self, v: Z, den: &Z, p: i64) -> Q {
        let s = p * self.e0;
        if s >= 0 {
            ratio(v << s as usize, den.clone())
        } else {
            ratio(v, den << (-s) as usize)
        }
    }

    /// δ², in lowest terms.
    pub fn depth_squared(&self) -> Q {
        self.out(&self.overlap * &self.overlap, &self.norm_squared, 2)
    }

    /// The answer with every number in lowest terms: the reference's
    /// [`Penetration`], the same values.
    pub fn reduce(&self) -> Penetration {
        let n = &self.normals[0];
        let o = &self.overlap;
        let translation = n.map(|c| self.out(c * o, &self.norm_squared, 1));
        let point = |p: &[Z; 4]| {
            Vec3::new(
                self.out(p[0].clone(), &p[3], 1),
                self.out(p[1].clone(), &p[3], 1),
                self.out(p[2].clone(), &p[3], 1),
            )
        };
        let r = &self.region;
        let region = match r.len() {
            1 => Region::Point(point(&r[0])),
            2 => Region::Segment(point(&r[0]), point(&r[1])),
            _ => Region::Polygon(r.iter().map(point).collect()),
        };
        Penetration {
            depth_squared: self.depth_squared(),
            normals: self.normals.iter().map(integers).collect(),
            translation,
            region,
        }
    }
}

/// The exact contact of two boxes of doubles before any reduction to lowest
/// terms ([`contact_unreduced`]); [`ContactUnreduced::reduce`] gives
/// [`contact`]'s answer.
#[derive(Clone, Debug)]
pub enum ContactUnreduced {
    /// Apart: the exact distance over one denominator.
    Apart(UnreducedClosest),
    /// Meeting, proved on the float-guided path.
    Meeting(PenetrationUnreduced),
    /// Meeting, answered by the exact reference (the float guess failed):
    /// already in lowest terms.
    Reference(Box<Penetration>),
}

impl ContactUnreduced {
    /// The answer with every number in lowest terms: [`contact`]'s.
    pub fn reduce(&self) -> ContactAnswer {
        match self {
            ContactUnreduced::Apart(c) => ContactAnswer::Apart(Box::new(c.reduce())),
            ContactUnreduced::Meeting(p) => ContactAnswer::Meeting(Box::new(p.reduce())),
            ContactUnreduced::Reference(p) => ContactAnswer::Meeting(p.clone()),
        }
    }

    /// [`ContactUnreduced::reduce`], consuming the answer.
    pub fn into_reduced(self) -> ContactAnswer {
        match self {
            ContactUnreduced::Apart(c) => ContactAnswer::Apart(Box::new(c.into_reduced())),
            ContactUnreduced::Meeting(p) => ContactAnswer::Meeting(Box::new(p.reduce())),
            ContactUnreduced::Reference(p) => ContactAnswer::Meeting(p),
        }
    }
}

/// A lighter answer for two boxes of doubles known to meet: δ² (exact, in
/// lowest terms) and every optimal normal (the reference's `normals`), without
/// the translation and the region; `None` where [`penetration`] gives up.
pub fn depth_and_normals(a: &Obb<f64>, b: &Obb<f64>) -> Option<(Q, Vec<Vec3<Q>>)> {
    let tied = optimal(a, b)?;
    let f = Frame::new(a, b)?;
    let normals = f.normals(&tied)?;
    let n = normals.first()?;
    let (o, n2) = f.overlap(n);
    let depth_squared = f.out(&o * &o, &n2, 2);
    Some((depth_squared, normals.iter().map(integers).collect()))
}

fn integers(v: &Vec3<Z>) -> Vec3<Q> {
    v.map(|c| Q::from_integer(c.clone()))
}

/// The optimal candidates, in candidate order, proved; `None` when the
/// float guess was wrong or a value overflowed.
fn optimal(a: &Obb<f64>, b: &Obb<f64>) -> Option<Vec<usize>> {
    let fx = |x: &f64| Fx::exact(*x);
    let (la, lb) = (lift(a, &fx), lift(b, &fx));
    let mut cand: [Option<(Fx, Fx)>; 15] = [None; 15];
    let (mut m, mut best) = (None, f64::INFINITY);
    for (k, slot) in cand.iter_mut().enumerate() {
        if axis_is_zero(a, b, k) {
            continue;
        }
        let (n, o) = candidate(&la, &lb, k);
        let nn = n.norm_squared();
        let g = o.v * o.v / nn.v;
        if !g.is_finite() {
            return None;
        }
        if g < best {
            (best, m) = (g, Some(k));
        }
        *slot = Some((o, nn));
    }
    let m = m?;
    let (om, nnm) = cand[m]?;
    // The optimal candidates, in candidate order.
    let mut tied: Vec<usize> = Vec::with_capacity(4);
    for (c, slot) in cand.iter().enumerate() {
        let Some((oc, nnc)) = slot else { continue };
        if c == m {
            tied.push(c);
            continue;
        }
        let s = gap(oc, nnc, &om, &nnm)
            .sign()
            .unwrap_or_else(|| sign_exact(&Gap { a, b, c, m }));
        match s {
            Sign::Positive => {}
            Sign::Zero => tied.push(c),
            Sign::Negative => return None,
        }
    }
    Some(tied)
}

/// The boxes in integers: every input double is an integer multiple of
/// 2^e0 (e0 the least exponent of them), so the boxes are integer vectors
/// in units of 2^e0, and every value below is an integer until the one
/// reduction of each output number.
struct Frame {
    e0: i64,
    za: Lifted<Z>,
    zb: Lifted<Z>,
}

impl Frame {
    fn new(a: &Obb<f64>, b: &Obb<f64>) -> Option<Frame> {
        let all = || {
            [a, b].into_iter().flat_map(|o| {
                std::iter::once(&o.center)
                    .chain(o.half_axes.iter())
                    .flat_map(|v| [v.x, v.y, v.z])
            })
        };
        let e0 = all()
            .map(crate::num::dyadic::f64_parts)
            .filter(|&(m, _)| m != 0)
            .map(|(_, e)| e)
            .min()?;
        let int = |x: &f64| -> Z {
            let (m, e) = crate::num::dyadic::f64_parts(*x);
            if m == 0 {
                Z::zero()
            } else {
                Z::from(m) << (e - e0) as usize
            }
        };
        let zlift = |o: &Obb<f64>| {
            let h = &o.half_axes;
            Lifted {
                c: o.center.map(int),
                h: [h[0].map(int), h[1].map(int), h[2].map(int)],
            }
        };
        Some(Frame {
            e0,
            za: zlift(a),
            zb: zlift(b),
        })
    }

    /// The reference's `normals` from the optimal candidates `tied` (in
    /// candidate order): primitive, canonical sign, the direction(s) with the
    /// least overlap, repeats dropped.
    fn normals(&self, tied: &[usize]) -> Option<Vec<Vec3<Z>>> {
        let (za, zb) = (&self.za, &self.zb);
        let d = z::sub(&za.c, &zb.c);
        let mut normals: Vec<Vec3<Z>> = Vec::with_capacity(2);
        for &k in tied {
            let (u, v) = axis_pair(&za.h, &zb.h, k);
            let w = z::cross(u, v);
            let g = gcd_lehmer(w.x.magnitude(), w.y.magnitude());
            let g = Z::from(gcd_lehmer(&g, w.z.magnitude()));
            if g.is_zero() {
                return None;
            }
            let n = w.map(|c| c / &g);
            // The reference's canonical sign: the first nonzero component positive.
            let first = [&n.x, &n.y, &n.z].into_iter().find(|c| !c.is_zero())?;
            let n = if first.is_negative() { z::neg(&n) } else { n };
            let back = z::neg(&n);
            if normals.contains(&n) || normals.contains(&back) {
                continue; // parallel to an earlier candidate: one candidate
            }
            // o(+n) = n·(c_a − c_b) + S(n): the sign with the smaller overlap.
            match z::dot(&n, &d).sign() {
                num_bigint::Sign::Minus => normals.push(n),
                num_bigint::Sign::Plus => normals.push(back),
                num_bigint::Sign::NoSign => normals.extend([n, back]),
            }
        }
        Some(normals)
    }

    /// `n·x` over a's vertices at most, and over b's at least.
    fn extremes(&self, n: &Vec3<Z>) -> ([Z; 3], [Z; 3], Z, Z) {
        let (za, zb) = (&self.za, &self.zb);
        let da = za.h.each_ref().map(|h| z::dot(n, h));
        let db = zb.h.each_ref().map(|h| z::dot(n, h));
        let amax = da.iter().fold(z::dot(n, &za.c), |s, x| s + x.abs());
        let bmin = db.iter().fold(z::dot(n, &zb.c), |s, x| s - x.abs());
        (da, db, amax, bmin)
    }

    /// The overlap along `n` (units 2^e0) and |n|².
    fn overlap(&self, n: &Vec3<Z>) -> (Z, Z) {
        let (_, _, amax, bmin) = self.extremes(n);
        (amax - bmin, z::dot(n, n))
    }

    /// A value v·2^(p·e0)/den as a rational in lowest terms.
    fn out(&self, v: Z, den: &Z, p: i64) -> Q {
        let s = p * self.e0;
        if s >= 0 {
            ratio(v << s as usize, den.clone())
        } else {
            ratio(v, den << (-s) as usize)
        }
    }

    /// The exact answer for the normals (the first is reported): δ², the
    /// translation and the region.
    fn build(&self, normals: Vec<Vec3<Z>>) -> Option<PenetrationUnreduced> {
        let (za, zb) = (&self.za, &self.zb);
        let n = normals.first()?.clone();
        let (da, db, amax, bmin) = self.extremes(&n);
        let o = &amax - &bmin;
        let n2 = z::dot(&n, &n);
        // Vertex i (Obb::vertex order) lies on the supporting plane when each
        // of its signs agrees with a nonzero n·h_k (+ for the largest n·x).
        let on = |dots: &[Z; 3], i: usize, up: bool| {
            (0..3).all(|k| dots[k].is_zero() || (i >> k & 1 == 1) == (dots[k].is_positive() == up))
        };
        let vertex = |l: &Lifted<Z>, i: usize| {
            (0..3).fold(l.c.clone(), |p, k| {
                if i >> k & 1 == 1 {
                    z::add(&p, &l.h[k])
                } else {
                    z::sub(&p, &l.h[k])
                }
            })
        };
        // The region in the frame scaled by |n|² (units 2^e0/|n|²), where b's
        // moved vertices n2·y + o·n are integers too.
        let shift = n.map(|c| c * &o);
        let fa: Vec<Vec3<Z>> = (0..8)
            .filter(|&i| on(&da, i, true))
            .map(|i| vertex(za, i).map(|c| c * &n2))
            .collect();
        let fb: Vec<Vec3<Z>> = (0..8)
            .filter(|&i| on(&db, i, false))
            .map(|i| z::add(&vertex(zb, i).map(|c| c * &n2), &shift))
            .collect();
        let af = &amax * &n2;
        let c = [&n.x, &n.y, &n.z];
        // The reference's projection: drop the last coordinate of largest |n_k|.
        let k = (0..3).max_by(|&i, &j| c[i].abs().cmp(&c[j].abs()))?;
        let (i, j) = ((k + 1) % 3, (k + 2) % 3);
        let to2 = |p: &Vec3<Z>| {
            let q = [&p.x, &p.y, &p.z];
            H {
                x: q[i].clone(),
                y: q[j].clone(),
                w: Z::one(),
            }
        };
        let m = plane::meet(
            &plane::hull(fa.iter().map(to2).collect()),
            &plane::hull(fb.iter().map(to2).collect()),
            &n2,
        );
        // Lifted: x_k = (af − c_i·x_i − c_j·x_j)/c_k over the plane point's
        // w·|n|²; the common denominator w·|n|²·|c_k| > 0.
        let ck = c[k].abs();
        let flip = c[k].is_negative();
        let lift3 = |p: &H| {
            let mut q: [Z; 4] = Default::default();
            q[i] = &p.x * &ck;
            q[j] = &p.y * &ck;
            let xk = &af * &p.w - c[i] * &p.x - c[j] * &p.y;
            q[k] = if flip { -xk } else { xk };
            q[3] = &p.w * &n2 * &ck;
            q
        };
        if m.is_empty() {
            return None;
        }
        let region = m.iter().map(lift3).collect();
        Some(PenetrationUnreduced {
            e0: self.e0,
            normals,
            overlap: o,
            norm_squared: n2,
            region,
        })
    }
}

/// Integer vectors.
mod z {
    use super::Z;
    use crate::vector::Vec3;

    pub(super) fn add(a: &Vec3<Z>, b: &Vec3<Z>) -> Vec3<Z> {
        Vec3::new(&a.x + &b.x, &a.y + &b.y, &a.z + &b.z)
    }
    pub(super) fn sub(a: &Vec3<Z>, b: &Vec3<Z>) -> Vec3<Z> {
        Vec3::new(&a.x - &b.x, &a.y - &b.y, &a.z - &b.z)
    }
    pub(super) fn neg(a: &Vec3<Z>) -> Vec3<Z> {
        a.map(|c| -c)
    }
    pub(super) fn dot(a: &Vec3<Z>, b: &Vec3<Z>) -> Z {
        &a.x * &b.x + &a.y * &b.y + &a.z * &b.z
    }
    pub(super) fn cross(a: &Vec3<Z>, b: &Vec3<Z>) -> Vec3<Z> {
        Vec3::new(
            &a.y * &b.z - &a.z * &b.y,
            &a.z * &b.x - &a.x * &b.z,
            &a.x * &b.y - &a.y * &b.x,
        )
    }
}

/// A point of the plane in homogeneous integers: (x/w, y/w), w > 0.
#[derive(Clone, Debug, PartialEq)]
struct H {
    x: Z,
    y: Z,
    w: Z,
}

/// The reference's plane steps (`polytope::contact`: monotone-chain hull,
/// convex intersection) on integer points and their edges' crossings, in
/// homogeneous integers: the same point sets, so the same hulls in the
/// same order (counter-clockwise from the lexicographically least point,
/// without collinear points).
mod plane {
    use super::{H, Z};
    use num_traits::{One, Signed, Zero};
    use std::cmp::Ordering;

    fn cmp(p: &H, q: &H) -> Ordering {
        (&p.x * &q.w)
            .cmp(&(&q.x * &p.w))
            .then_with(|| (&p.y * &q.w).cmp(&(&q.y * &p.w)))
    }

    /// The sign of the reference's `cross2(o, p, q)`: det[[o],[p],[q]]
    /// (each row x, y, w) is it times o.w·p.w·q.w > 0.
    fn cross(o: &H, p: &H, q: &H) -> Z {
        if o.w.is_one() && p.w.is_one() && q.w.is_one() {
            // Integer points: (p − o) × (q − o).
            return (&p.x - &o.x) * (&q.y - &o.y) - (&p.y - &o.y) * (&q.x - &o.x);
        }
        &o.x * (&p.y * &q.w - &q.y * &p.w) - &o.y * (&p.x * &q.w - &q.x * &p.w)
            + &o.w * (&p.x * &q.y - &q.x * &p.y)
    }

    /// `hull2`: the convex hull, counter-clockwise, without collinear points.
    pub(super) fn hull(mut pts: Vec<H>) -> Vec<H> {
        pts.sort_by(cmp);
        pts.dedup_by(|p, q| cmp(p, q) == Ordering::Equal);
        if pts.len() < 3 {
            return pts;
        }
        let chain = |it: &mut dyn Iterator<Item = &H>| {
            let mut out: Vec<H> = Vec::new();
            for p in it {
                while out.len() >= 2
                    && !cross(&out[out.len() - 2], &out[out.len() - 1], p).is_positive()
                {
                    out.pop();
                }
                out.push(p.clone());
            }
            out.pop();
            out
        };
        let mut lower = chain(&mut pts.iter());
        lower.extend(chain(&mut pts.iter().rev()));
        lower
    }

    /// `inside2` for an integer point and a hull of integer points.
    fn inside(p: &H, h: &[H]) -> bool {
        match h.len() {
            0 => false,
            1 => cmp(p, &h[0]) == Ordering::Equal,
            2 => {
                cross(&h[0], &h[1], p).is_zero() && {
                    let (dx, dy) = (&h[1].x - &h[0].x, &h[1].y - &h[0].y);
                    let t = (&p.x - &h[0].x) * &dx + (&p.y - &h[0].y) * &dy;
                    !t.is_negative() && t <= &dx * &dx + &dy * &dy
                }
            }
            n => (0..n).all(|i| !cross(&h[i], &h[(i + 1) % n], p).is_negative()),
        }
    }

    fn edges(h: &[H]) -> Vec<(&H, &H)> {
        match h.len() {
            0 | 1 => Vec::new(),
            2 => vec![(&h[0], &h[1])],
            n => (0..n).map(|i| (&h[i], &h[(i + 1) % n])).collect(),
        }
    }

    /// `crossing2` of two segments with integer end points, each segment's
    /// direction a multiple of `scale` > 0 (the frame's |n|²: the crossing
    /// is found from the directions divided by it, smaller integers for the
    /// same point).
    fn crossing(p: (&H, &H), q: (&H, &H), scale: &Z) -> Option<H> {
        let r = ((&p.1.x - &p.0.x) / scale, (&p.1.y - &p.0.y) / scale);
        let s = ((&q.1.x - &q.0.x) / scale, (&q.1.y - &q.0.y) / scale);
        let den = &r.0 * &s.1 - &r.1 * &s.0;
        if den.is_zero() {
            return None;
        }
        let w = (&q.0.x - &p.0.x, &q.0.y - &p.0.y);
        // The parameters along p and q are t/(scale·den) and u/(scale·den).
        let t = &w.0 * &s.1 - &w.1 * &s.0;
        let u = &w.0 * &r.1 - &w.1 * &r.0;
        let full = scale * &den;
        let unit = |x: &Z| {
            if full.is_positive() {
                !x.is_negative() && *x <= full
            } else {
                !x.is_positive() && *x >= full
            }
        };
        if !(unit(&t) && unit(&u)) {
            return None;
        }
        // p.0 + t/(scale·den)·(scale·r) = (p.0·den + t·r)/den.
        let h = H {
            x: &p.0.x * &den + &t * &r.0,
            y: &p.0.y * &den + &t * &r.1,
            w: den,
        };
        Some(if h.w.is_negative() {
            H {
                x: -h.x,
                y: -h.y,
                w: -h.w,
            }
        } else {
            h
        })
    }

    /// `meet2`: the intersection of two hulls of integer points.
    pub(super) fn meet(p: &[H], q: &[H], scale: &Z) -> Vec<H> {
        let mut pts: Vec<H> = p.iter().filter(|x| inside(x, q)).cloned().collect();
        pts.extend(q.iter().filter(|x| inside(x, p)).cloned());
        for e in edges(p) {
            for f in edges(q) {
                pts.extend(crossing(e, f, scale));
            }
        }
        hull(pts)
    }
}

/// The exact contact of two boxes of doubles (docs/contact.md), the same
/// answer as [`crate::query::contact`]'s reference: apart boxes (decided by
/// the filtered 15-axis test) get the float-guided exact distance, meeting
/// ones the penetration proved on the float-guided path, or the reference's
/// where the guess fails.
///
/// ```
/// use exact_collision::query::{box_box, ContactAnswer};
/// use exact_collision::{Obb, Vec3};
/// use num_rational::BigRational;
/// let v = |x: f64, y: f64, z: f64| Vec3::new(x, y, z);
/// let unit = |c| Obb::new(c, [v(0.5, 0., 0.), v(0., 0.5, 0.), v(0., 0., 0.5)]).unwrap();
/// match box_box::contact::contact(&unit(v(0., 0., 0.)), &unit(v(0., 0., 0.75))).unwrap() {
///     ContactAnswer::Meeting(p) => {
///         assert_eq!(p.depth_squared, BigRational::new(1.into(), 16.into()));
///         assert_eq!(p.normals.len(), 1); // (0, 0, 1)
///     }
///     ContactAnswer::Apart(_) => unreachable!(),
/// }
/// ```
pub fn contact(a: &Obb<f64>, b: &Obb<f64>) -> Result<ContactAnswer, QueryError> {
    contact_unreduced(a, b).map(ContactUnreduced::into_reduced)
}

/// [`contact`]'s answer before any reduction to lowest terms: the same
/// values as integers over common denominators, built in integers with no
/// gcd but the normals' ([`ContactUnreduced::reduce`] gives [`contact`]'s
/// answer).
///
/// ```
/// use exact_collision::query::box_box::contact::{contact, contact_unreduced, ContactUnreduced};
/// use exact_collision::{Obb, Vec3};
/// use num_bigint::BigInt;
/// let v = |x: f64, y: f64, z: f64| Vec3::new(x, y, z);
/// let unit = |c| Obb::new(c, [v(0.5, 0., 0.), v(0., 0.5, 0.), v(0., 0., 0.5)]).unwrap();
/// let (a, b) = (unit(v(0., 0., 0.)), unit(v(0., 0., 0.75)));
/// let u = contact_unreduced(&a, &b).unwrap();
/// let ContactUnreduced::Meeting(p) = &u else { unreachable!() };
/// // In units of 2^-2: o = 1 along n = (0, 0, 1), δ = 1/4.
/// assert_eq!((p.e0, &p.overlap, &p.norm_squared), (-2, &BigInt::from(1), &BigInt::from(1)));
/// assert_eq!(u.reduce(), contact(&a, &b).unwrap());
/// ```
pub fn contact_unreduced(a: &Obb<f64>, b: &Obb<f64>) -> Result<ContactUnreduced, QueryError> {
    if !overlaps(a, b) {
        return distance_exact_unreduced(&Shape::Box(a.clone()), &Shape::Box(b.clone()))
            .map(ContactUnreduced::Apart);
    }
    if let Some(p) = penetration_unreduced(a, b) {
        stats::BOX_CONTACT.fast();
        return Ok(ContactUnreduced::Meeting(p));
    }
    stats::BOX_CONTACT.fallback();
    reference_penetration(a, b).map(|p| ContactUnreduced::Reference(Box::new(p)))
}

/// The reference's penetration of two meeting boxes.
fn reference_penetration(a: &Obb<f64>, b: &Obb<f64>) -> Result<Penetration, QueryError> {
    let (pa, pb) = (
        Polytope::new(&Shape::Box(a.clone())),
        Polytope::new(&Shape::Box(b.clone())),
    );
    penetration_of_meeting(&pa, &pb)
}
