//! Prism–prism on the fast path: the exhaustive path's 2.5-D rules
//! ([`crate::query::prism_prism`]) with the same decisions, every one exact
//! (z comparisons of doubles, `orient2d`, and signs in [`Fx`] with the
//! integers behind), and the constructions in integers reduced once.

use crate::num::bounded::{decide, Fx, U};
use crate::num::fixed::{finish, nonzero_product, Int, Nat, Reducer};
use crate::num::fixed::{int_pow2_rational, ratio_f64};
use crate::num::ring::Ring;
use crate::num::scalar::Scalar;
use crate::num::sign::Sign;
use crate::query::polytope::filtered::side::{align, Kind, Raw};
use crate::query::prism_prism::{plan_witness_choice, PlanPoint};
use crate::query::{Closest, Intersection};
use crate::shape::Prism;
use crate::vector::{Vec2, Vec3};
use num_rational::BigRational;

type Q = BigRational;

/// Both prisms' coordinates: scaled doubles (exact) and aligned integers.
struct Pp {
    f: [[f64; 12]; 2],
    x: [[i128; 12]; 2],
    e0: i64,
}

impl Pp {
    fn new<S: Scalar>(a: &Prism<S>, b: &Prism<S>) -> Option<Pp> {
        let raw = |p: &Prism<S>| {
            let mut c = [0.0; 12];
            for (k, q) in p.base.iter().enumerate() {
                c[2 * k] = q.x.to_f64();
                c[2 * k + 1] = q.y.to_f64();
            }
            c[8] = p.zmin.to_f64();
            c[9] = p.zmax.to_f64();
            Raw {
                kind: Kind::Prism,
                c,
            }
        };
        let al = align([&raw(a), &raw(b)])?;
        Some(Pp {
            f: al.f,
            x: al.x,
            e0: al.e0,
        })
    }
    fn pf(&self, s: usize, i: usize) -> Vec2<Fx> {
        let i = i % 4;
        Vec2::new(Fx::exact(self.f[s][2 * i]), Fx::exact(self.f[s][2 * i + 1]))
    }
    fn px(&self, s: usize, i: usize) -> Vec2<Int> {
        let i = i % 4;
        Vec2::new(
            Int::from_i128(self.x[s][2 * i]),
            Int::from_i128(self.x[s][2 * i + 1]),
        )
    }
    fn zx(&self, s: usize, top: bool) -> Int {
        Int::from_i128(self.x[s][8 + top as usize])
    }
}

/// The z of the closest points (and of the witness): the facing ends of the
/// z ranges when apart, else the higher bottom — as the exhaustive path.
fn z_pair<S: Scalar>(a: &Prism<S>, b: &Prism<S>) -> ((usize, bool), (usize, bool)) {
    if a.zmax < b.zmin {
        ((0, true), (1, false))
    } else if b.zmax < a.zmin {
        ((0, false), (1, true))
    } else {
        let s = if a.zmin > b.zmin { 0 } else { 1 };
        ((s, false), (s, false))
    }
}

/// The first edge normal (a's edges, then b's) whose extents separate the
/// plan views, decided exactly: `(quad, edge)`.
fn plan_axis(pp: &Pp) -> Option<(usize, usize)> {
    for s in 0..2 {
        for i in 0..4 {
            let nf = |pp: &Pp| {
                let e = pp.pf(s, i + 1).sub(&pp.pf(s, i));
                Vec2::new(e.y, e.x.neg_ref())
            };
            let nx = |pp: &Pp| {
                let e = pp.px(s, i + 1).sub(&pp.px(s, i));
                Vec2::new(e.y, e.x.neg_ref())
            };
            let n = nf(pp);
            // amax < bmin (or bmax < amin): every (q − p)·n of one sign.
            let below = |lo: usize, hi: usize| {
                (0..4).all(|p| {
                    (0..4).all(|q| {
                        let v = pp.pf(hi, q).sub(&pp.pf(lo, p)).dot(&n);
                        decide(v, || pp.px(hi, q).sub(&pp.px(lo, p)).dot(&nx(pp))) == Sign::Positive
                    })
                })
            };
            if below(0, 1) || below(1, 0) {
                return Some((s, i));
            }
        }
    }
    None
}

/// A lower bound of the exact value (0 at least; a squared quantity).
fn low(x: Fx) -> f64 {
    ((x.v - x.e) * (1.0 - 4.0 * U)).max(0.0)
}

/// An upper bound of the exact value.
fn high(x: Fx) -> f64 {
    (x.v + x.e) * (1.0 + 4.0 * U)
}

/// A closest-pair candidate: vertex `v` of quad `s` against edge `e` of the
/// other quad, its foot (`None`: interior, else the end 0 or 1) and exact
/// squared distance `n / d` (in aligned units).
#[derive(Clone, Copy)]
struct Cand {
    s: usize,
    v: usize,
    e: usize,
    end: Option<usize>,
}

/// The exhaustive path's plan closest pair (the first strict minimum over
/// a's vertices against b's edges, then b's vertices against a's edges),
/// the clamps and the comparisons exact.
fn plan_closest(pp: &Pp) -> Cand {
    let mut cands = [Cand {
        s: 0,
        v: 0,
        e: 0,
        end: None,
    }; 32];
    let mut lo = [0.0f64; 32];
    let mut hi = [0.0f64; 32];
    let mut k = 0;
    for s in 0..2 {
        let o = 1 - s;
        for v in 0..4 {
            for e in 0..4 {
                let (x, p, q) = (pp.pf(s, v), pp.pf(o, e), pp.pf(o, e + 1));
                let u = q.sub(&p);
                let w = x.sub(&p);
                let t = w.dot(&u);
                let uu = u.dot(&u);
                let ex = |pp: &Pp| {
                    let (x, p, q) = (pp.px(s, v), pp.px(o, e), pp.px(o, e + 1));
                    let u = q.sub(&p);
                    (x.sub(&p).dot(&u), u.dot(&u))
                };
                let end = if decide(t, || ex(pp).0) != Sign::Positive {
                    Some(0)
                } else if decide(uu.sub_ref(&t), || {
                    let (t, uu) = ex(pp);
                    uu.sub(&t)
                }) != Sign::Positive
                {
                    Some(1)
                } else {
                    None
                };
                let (l, h) = match end {
                    Some(j) => {
                        let d = x.sub(&if j == 0 { p } else { q });
                        let n = d.dot(&d);
                        (low(n), high(n))
                    }
                    None => {
                        let c = w.cross(&u);
                        let n = c.mul_ref(&c);
                        // Each quotient is within half an ulp: the factors
                        // move it past the roundings.
                        let (dl, dh) = (low(uu), high(uu));
                        let l = low(n) / dh * (1.0 - 4.0 * U);
                        let h = if dl > 0.0 {
                            high(n) / dl * (1.0 + 4.0 * U)
                        } else {
                            f64::INFINITY
                        };
                        (l, h)
                    }
                };
                cands[k] = Cand { s, v, e, end };
                (lo[k], hi[k]) = (l, if h.is_nan() { f64::INFINITY } else { h });
                k += 1;
            }
        }
    }
    let upper = hi.iter().fold(f64::INFINITY, |m, &h| m.min(h));
    let mut best: Option<(usize, (Int, Int))> = None;
    for k in 0..32 {
        if lo[k] > upper {
            continue;
        }
        let val = exact_value(pp, cands[k]);
        let better = best.as_ref().is_none_or(|(_, (bn, bd))| {
            // n/d < bn/bd ⟺ n·bd < bn·d (denominators positive)
            val.0.mul(bd).sub(&bn.mul(&val.1)).is_neg()
        });
        if better {
            best = Some((k, val));
        }
    }
    cands[best.expect("a candidate").0]
}

/// A candidate's exact squared distance as (numerator, denominator).
fn exact_value(pp: &Pp, c: Cand) -> (Int, Int) {
    let o = 1 - c.s;
    let (x, p, q) = (pp.px(c.s, c.v), pp.px(o, c.e), pp.px(o, c.e + 1));
    match c.end {
        Some(j) => {
            let d = x.sub(&if j == 0 { p } else { q });
            (d.dot(&d), Int::from_i128(1))
        }
        None => {
            let u = q.sub(&p);
            let cr = x.sub(&p).cross(&u);
            (cr.mul(&cr), u.dot(&u))
        }
    }
}

/// A plan point as `(X, t, d, den)`: `(X·den + d·t)/den` per coordinate.
struct PlanPt {
    x: Vec2<Int>,
    d: Vec2<Int>,
    t: Int,
    den: Int,
}

impl PlanPt {
    fn at(x: Vec2<Int>) -> PlanPt {
        PlanPt {
            x,
            d: Vec2::new(Int::from_i128(0), Int::from_i128(0)),
            t: Int::from_i128(0),
            den: Int::from_i128(1),
        }
    }
}

fn witness_point(pp: &Pp, w: PlanPoint) -> PlanPt {
    match w {
        PlanPoint::A(i) => PlanPt::at(pp.px(0, i)),
        PlanPoint::B(j) => PlanPt::at(pp.px(1, j)),
        PlanPoint::End(i, j, k) => PlanPt::at(match k {
            0 => pp.px(0, i),
            1 => pp.px(0, i + 1),
            2 => pp.px(1, j),
            _ => pp.px(1, j + 1),
        }),
        PlanPoint::Cross(i, j) => {
            let (p, q) = (pp.px(0, i), pp.px(0, i + 1));
            let (r, s) = (pp.px(1, j), pp.px(1, j + 1));
            let (u, v) = (q.sub(&p), s.sub(&r));
            let (mut t, mut den) = (r.sub(&p).cross(&v), u.cross(&v));
            if den.is_neg() {
                (t, den) = (t.neg(), den.neg());
            }
            PlanPt { x: p, d: u, t, den }
        }
    }
}

/// The foot of a candidate on its edge, and the vertex.
fn cand_points(pp: &Pp, c: Cand) -> (PlanPt, PlanPt) {
    let o = 1 - c.s;
    let (x, p, q) = (pp.px(c.s, c.v), pp.px(o, c.e), pp.px(o, c.e + 1));
    let foot = match c.end {
        Some(0) => PlanPt::at(p),
        Some(_) => PlanPt::at(q),
        None => {
            let u = q.sub(&p);
            let t = x.sub(&p).dot(&u);
            PlanPt {
                den: u.dot(&u),
                x: p,
                d: u,
                t,
            }
        }
    };
    (PlanPt::at(x), foot)
}

/// How the answer is rendered: exactly (reduced) or rounded to doubles.
trait Render {
    type T: Clone;
    fn point(pp: &Pp, p: &PlanPt, z: &Int) -> Vec3<Self::T>;
    fn dyadic(x: &Int, p: i64) -> Self::T;
    /// `n/d·2^p` with `n` sharing its gcd with `d` through `factors`.
    fn ratio(n: &Int, d: &Int, factors: &[Nat], p: i64) -> Self::T;
}

struct Exact;
impl Render for Exact {
    type T = Q;
    fn point(pp: &Pp, p: &PlanPt, z: &Int) -> Vec3<Q> {
        let red = Reducer::new(p.den.mag(), &[*p.t.mag(), nonzero_product(&[p.d.x, p.d.y])]);
        let c = |xk: &Int, dk: &Int| {
            let dt = dk.mul(&p.t);
            finish(
                &xk.mul(&p.den).add(&dt),
                p.den.mag(),
                &red.gcd(dt.mag()),
                pp.e0,
            )
        };
        Vec3::new(
            c(&p.x.x, &p.d.x),
            c(&p.x.y, &p.d.y),
            int_pow2_rational(z, pp.e0),
        )
    }
    fn dyadic(x: &Int, p: i64) -> Q {
        int_pow2_rational(x, p)
    }
    fn ratio(n: &Int, d: &Int, factors: &[Nat], p: i64) -> Q {
        let red = Reducer::new(d.mag(), factors);
        finish(n, d.mag(), &red.gcd(n.mag()), p)
    }
}

struct Rounded;
impl Render for Rounded {
    type T = f64;
    fn point(pp: &Pp, p: &PlanPt, z: &Int) -> Vec3<f64> {
        let c =
            |xk: &Int, dk: &Int| ratio_f64(&xk.mul(&p.den).add(&dk.mul(&p.t)), p.den.mag(), pp.e0);
        let one = Nat::from_u128(1);
        Vec3::new(
            c(&p.x.x, &p.d.x),
            c(&p.x.y, &p.d.y),
            ratio_f64(z, &one, pp.e0),
        )
    }
    fn dyadic(x: &Int, p: i64) -> f64 {
        ratio_f64(x, &Nat::from_u128(1), p)
    }
    fn ratio(n: &Int, d: &Int, _: &[Nat], p: i64) -> f64 {
        ratio_f64(n, d.mag(), p)
    }
}

fn intersect_with<S: Scalar, R: Render>(a: &Prism<S>, b: &Prism<S>) -> Option<Intersection<R::T>> {
    let pp = Pp::new(a, b)?;
    let zero = Int::from_i128(0);
    if !crate::query::prism_prism::z_overlap(a, b) {
        let one = Int::from_i128(1);
        return Some(Intersection::Separated {
            axis: Vec3::new(R::dyadic(&zero, 0), R::dyadic(&zero, 0), R::dyadic(&one, 0)),
        });
    }
    if let Some(w) = plan_witness_choice(&a.base, &b.base) {
        let (zs, _) = z_pair(a, b);
        let z = pp.zx(zs.0, zs.1);
        return Some(Intersection::Overlap {
            witness: R::point(&pp, &witness_point(&pp, w), &z),
        });
    }
    let (s, i) = plan_axis(&pp)?;
    let e = pp.px(s, i + 1).sub(&pp.px(s, i));
    Some(Intersection::Separated {
        axis: Vec3::new(
            R::dyadic(&e.y, pp.e0),
            R::dyadic(&e.x.neg(), pp.e0),
            R::dyadic(&zero, 0),
        ),
    })
}

fn distance_with<S: Scalar, R: Render>(a: &Prism<S>, b: &Prism<S>) -> Option<Closest<R::T>> {
    let pp = Pp::new(a, b)?;
    let ((sa, ta), (sb, tb)) = z_pair(a, b);
    let (za, zb) = (pp.zx(sa, ta), pp.zx(sb, tb));
    let dz = za.sub(&zb);
    let dz2 = dz.mul(&dz);
    if let Some(w) = plan_witness_choice(&a.base, &b.base) {
        let p = witness_point(&pp, w);
        return Some(Closest {
            distance_squared: R::dyadic(&dz2, 2 * pp.e0),
            a: R::point(&pp, &p, &za),
            b: R::point(&pp, &p, &zb),
        });
    }
    let c = plan_closest(&pp);
    let (vertex, foot) = cand_points(&pp, c);
    let (n, d) = exact_value(&pp, c);
    // |qa − qb|² = n/d + dz² = (n + dz²·d)/d.
    let num = n.add(&dz2.mul(&d));
    let d2 = R::ratio(&num, &d, &[*n.mag(), *dz2.mag()], 2 * pp.e0);
    let (pa, pb) = if c.s == 0 {
        (vertex, foot)
    } else {
        (foot, vertex)
    };
    Some(Closest {
        distance_squared: d2,
        a: R::point(&pp, &pa, &za),
        b: R::point(&pp, &pb, &zb),
    })
}

/// Prism–prism `intersect` from float inputs, exact.
pub(crate) fn intersect<S: Scalar>(a: &Prism<S>, b: &Prism<S>) -> Option<Intersection<Q>> {
    intersect_with::<S, Exact>(a, b)
}

/// Prism–prism `intersect`, the certificate rounded to doubles.
pub(crate) fn intersect_f64<S: Scalar>(a: &Prism<S>, b: &Prism<S>) -> Option<Intersection<f64>> {
    intersect_with::<S, Rounded>(a, b)
}

/// Prism–prism `distance` from float inputs, exact.
pub(crate) fn distance<S: Scalar>(a: &Prism<S>, b: &Prism<S>) -> Option<Closest<Q>> {
    distance_with::<S, Exact>(a, b)
}

/// Prism–prism `distance`, rounded to doubles.
pub(crate) fn distance_f64<S: Scalar>(a: &Prism<S>, b: &Prism<S>) -> Option<Closest<f64>> {
    distance_with::<S, Rounded>(a, b)
}
