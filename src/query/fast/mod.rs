//! The fast path of `intersect` and `distance` for float inputs, for every
//! pair of shape kinds but triangle–triangle: a float guess, an exact proof,
//! an exact construction in fixed-width integers reduced once.
//!
//! * **Intersect.** The box pair's filtered 15-axis test decides, and its
//!   first separating axis is the certificate; the other pairs run the
//!   exhaustive path's candidate axes in its order ([`sat`]) and its witness
//!   search in its order ([`witness`]), every decision an exact sign (a
//!   double with a proven error bound, [`num::Fx`], then the integers when the
//!   bound cannot decide), so the certificate is the exhaustive path's own.
//!   A GJK guess ([`gjk`]) only chooses which of the two searches runs first.
//! * **Distance.** GJK guesses the closest features, [`closest::prove`] proves
//!   them optimal and the closest pair unique with exact signs, and
//!   [`closest::construct`] computes the points and the squared distance as
//!   integers over one denominator, reduced with one full-size gcd. A pair
//!   that overlaps gets distance 0 and the intersect witness.
//! * Anything else (the proof fails, parallel features, inputs whose bits
//!   span more than [`side::BITS`], a flat prism, a degenerate triangle, the
//!   exhaustive witness search's edge–edge stage) answers `None`, and the
//!   caller runs the exhaustive path and counts it (`query::stats`).
//!
//! `docs/polytope.md` has the algorithm, the bounds and the measurements.

pub(crate) mod closest;
pub(crate) mod gjk;
pub(crate) mod num;
pub(crate) mod sat;
pub(crate) mod side;
pub(crate) mod witness;

use super::{Closest, Intersection};
use crate::scalar::Scalar;
use crate::shape::{Obb, Shape};
use crate::vector::Vec3;
use closest::Pair;
use num_rational::BigRational;
use side::{Ctx, Kind, Raw};
use witness::{Found, Search, Witness};

type Q = BigRational;

/// A box of either spelling (a cube is its box).
fn obb<S: Scalar>(s: &Shape<S>) -> Option<&Obb<S>> {
    match s {
        Shape::Box(b) => Some(b),
        Shape::Cube(c) => Some(c.obb()),
        _ => None,
    }
}

/// The certificate of an intersect answer before it is rendered: exact or
/// rounded.
enum Cert {
    /// Box–box axis number k (`u × v` of the half-axes).
    BoxAxis(usize),
    Axis(sat::Axis),
    Witness(Found),
}

/// The decision and the certificate, exactly.
fn intersect_cert<S: Scalar>(a: &Shape<S>, b: &Shape<S>, ctx: &Ctx, w: &mut Witness) -> Option<Cert> {
    if let (Some(x), Some(y)) = (obb(a), obb(b)) {
        if let Some(k) = super::box_box::separating_axis_index(x, y) {
            return Some(Cert::BoxAxis(k));
        }
        return box_witness(w).map(Cert::Witness);
    }
    let pa = sat::Plain::new(&ctx.a);
    let pb = sat::Plain::new(&ctx.b);
    let apart = matches!(gjk::gjk(&pa.v[..pa.n], &pb.v[..pb.n]), gjk::Guess::Apart(..));
    if apart {
        if let Some(ax) = sat::first_separating(ctx) {
            return Some(Cert::Axis(ax));
        }
        match w.search() {
            Search::Found(f) => Some(Cert::Witness(f)),
            Search::Nothing => None,
        }
    } else {
        if let Search::Found(f) = w.search() {
            return Some(Cert::Witness(f));
        }
        sat::first_separating(ctx).map(Cert::Axis)
    }
}

/// The box–box witness rule: a's center in b, b's center in a, then the
/// exhaustive search's order.
fn box_witness(w: &mut Witness) -> Option<Found> {
    for s in 0..2 {
        if w.center_inside(s) {
            return Some(Found::Center(s));
        }
    }
    match w.search() {
        Search::Found(f) => Some(f),
        Search::Nothing => None,
    }
}

fn context<S: Scalar>(a: &Shape<S>, b: &Shape<S>) -> Option<Ctx> {
    let (ra, rb) = (Raw::of(a)?, Raw::of(b)?);
    if ra.kind == Kind::Prism && rb.kind == Kind::Prism {
        return None; // prism–prism has its own path
    }
    if ra.kind == Kind::Tri && rb.kind == Kind::Tri {
        return None;
    }
    Ctx::new(&ra, &rb)
}

/// The exact box–box axis `u × v`.
fn box_axis(ctx: &Ctx, k: usize) -> (Vec3<crate::fixed::Int>, i64) {
    let ex = ctx.exact();
    let (ha, hb) = (ex[0].box_parts().1, ex[1].box_parts().1);
    let (u, v) = super::box_box::axis_pair(&ha, &hb, k);
    (u.cross(v), 2 * ctx.e0)
}

/// `intersect` for float inputs with an exact certificate, or `None`: the
/// caller's exhaustive path answers.
pub(crate) fn intersect<S: Scalar>(a: &Shape<S>, b: &Shape<S>) -> Option<Intersection<Q>> {
    let ctx = context(a, b)?;
    let mut w = Witness::new(&ctx);
    let cert = intersect_cert(a, b, &ctx, &mut w)?;
    Some(match cert {
        Cert::BoxAxis(k) => {
            let (l, p) = box_axis(&ctx, k);
            Intersection::Separated {
                axis: num::dyadic_point(&l, p),
            }
        }
        Cert::Axis(ax) => {
            let (l, p) = sat::axis_exact(&ctx, ax);
            Intersection::Separated {
                axis: num::dyadic_point(&l, p),
            }
        }
        Cert::Witness(f) => Intersection::Overlap {
            witness: w.point(f),
        },
    })
}

/// [`intersect`] with the certificate rounded to doubles (from the exact
/// integers, not reduced).
pub(crate) fn intersect_f64<S: Scalar>(a: &Shape<S>, b: &Shape<S>) -> Option<Intersection<f64>> {
    let ctx = context(a, b)?;
    let mut w = Witness::new(&ctx);
    let cert = intersect_cert(a, b, &ctx, &mut w)?;
    let round = |(l, p): (Vec3<crate::fixed::Int>, i64)| {
        let one = crate::fixed::Nat::from_u128(1);
        l.map(|c| num::ratio_f64(c, &one, p))
    };
    Some(match cert {
        Cert::BoxAxis(k) => Intersection::Separated {
            axis: round(box_axis(&ctx, k)),
        },
        Cert::Axis(ax) => Intersection::Separated {
            axis: round(sat::axis_exact(&ctx, ax)),
        },
        Cert::Witness(f) => Intersection::Overlap {
            witness: w.point_f64(f),
        },
    })
}

/// The outcome of the distance decision.
enum Dist {
    Overlap(Found),
    Apart(Pair),
}

fn distance_cert<S: Scalar>(a: &Shape<S>, b: &Shape<S>, ctx: &Ctx, w: &mut Witness) -> Option<Dist> {
    if let (Some(x), Some(y)) = (obb(a), obb(b)) {
        if super::box_box::overlaps(x, y) {
            return box_witness(w).map(Dist::Overlap);
        }
        return guess_pair(ctx).map(Dist::Apart);
    }
    if let Some(p) = guess_pair(ctx) {
        return Some(Dist::Apart(p));
    }
    // Touching or overlapping (or a guess that failed its proof): overlap
    // means no axis separates and the witness search finds the point.
    if sat::first_separating(ctx).is_some() {
        return None;
    }
    match w.search() {
        Search::Found(f) => Some(Dist::Overlap(f)),
        Search::Nothing => None,
    }
}

/// GJK's features, if the exact proof accepts them.
fn guess_pair(ctx: &Ctx) -> Option<Pair> {
    let pa = sat::Plain::new(&ctx.a);
    let pb = sat::Plain::new(&ctx.b);
    let gjk::Guess::Apart(ma, mb) = gjk::gjk(&pa.v[..pa.n], &pb.v[..pb.n]) else {
        return None;
    };
    let pair = Pair {
        fa: closest::feature(&ctx.a, ma)?,
        fb: closest::feature(&ctx.b, mb)?,
    };
    closest::prove(ctx, pair).then_some(pair)
}

/// `distance` for float inputs, exact, or `None`: the caller's exhaustive
/// path answers.
pub(crate) fn distance<S: Scalar>(a: &Shape<S>, b: &Shape<S>) -> Option<Closest<Q>> {
    let ctx = context(a, b)?;
    let mut w = Witness::new(&ctx);
    Some(match distance_cert(a, b, &ctx, &mut w)? {
        Dist::Overlap(f) => {
            let p = w.point(f);
            Closest {
                distance_squared: BigRational::from_integer(0.into()),
                a: p.clone(),
                b: p,
            }
        }
        Dist::Apart(pair) => closest::construct(&ctx, pair),
    })
}

/// [`distance`] rounded to doubles.
pub(crate) fn distance_f64<S: Scalar>(a: &Shape<S>, b: &Shape<S>) -> Option<Closest<f64>> {
    let ctx = context(a, b)?;
    let mut w = Witness::new(&ctx);
    Some(match distance_cert(a, b, &ctx, &mut w)? {
        Dist::Overlap(f) => {
            let p = w.point_f64(f);
            Closest {
                distance_squared: 0.0,
                a: p.clone(),
                b: p,
            }
        }
        Dist::Apart(pair) => closest::construct_f64(&ctx, pair),
    })
}
