//! The fast path of `intersect` and `distance` for float inputs, for every
//! pair of shape kinds but triangle–triangle: a float guess, an exact proof,
//! an exact construction in fixed-width integers reduced once.
//!
//! * **Intersect.** The box pair's filtered 15-axis test decides, and its
//!   first separating axis is the certificate; the other pairs run the
//!   exhaustive path's candidate axes in its order ([`sat`]) and its witness
//!   search in its order ([`witness`]), every decision an exact sign (a
//!   double with a proven error bound, [`Fx`](crate::num::bounded::Fx), then the integers when the
//!   bound cannot decide), so the certificate is the exhaustive path's own.
//!   A GJK guess ([`gjk`]) only chooses which of the two searches runs first.
//! * **Distance.** GJK guesses the closest features, [`closest::prove`] proves
//!   them optimal and the closest pair unique with exact signs, and
//!   [`closest::construct_ints`] computes the points and the squared
//!   distance as integers over one denominator
//!   ([`UnreducedClosest`]), reduced with one full-size gcd when the caller
//!   asks for lowest terms. A pair that overlaps gets distance 0 and the
//!   intersect witness.
//! * Anything else (the proof fails, parallel features, inputs whose bits
//!   span more than [`side::BITS`], a flat prism, a degenerate triangle, the
//!   exhaustive witness search's edge–edge stage) answers `None`, and the
//!   caller runs the exhaustive path and counts it (`stats`).
//!
//! `docs/polytope.md` has the algorithm, the bounds and the measurements.

pub(crate) mod closest;
pub(crate) mod gjk;
pub(crate) mod sat;
pub(crate) mod side;
pub(crate) mod witness;

use crate::num::fixed::Int;
use crate::num::scalar::Scalar;
use crate::query::unreduced::{Ints, UnreducedClosest};
use crate::query::{Closest, Intersection};
use crate::shape::Shape;
use crate::vector::Vec3;
use closest::{Feat, Pair};
use num_rational::BigRational;
use side::{Ctx, Kind, Raw, View};
use witness::{Found, Search, Witness};

type Q = BigRational;

/// The certificate of an intersect answer before it is rendered (exactly or
/// rounded).
enum Cert {
    Axis(sat::Axis),
    Witness(Found),
}

/// The answer of a pair that is not two boxes, or two boxes that overlap.
fn intersect_cert<'a>(ctx: &'a Ctx, w: &mut Option<Witness<'a>>) -> Option<Cert> {
    if ctx.a.kind == Kind::Box && ctx.b.kind == Kind::Box {
        return box_witness(w.get_or_insert_with(|| Witness::new(ctx))).map(Cert::Witness);
    }
    let pa = sat::Plain::new(&ctx.a);
    let pb = sat::Plain::new(&ctx.b);
    let apart = matches!(
        gjk::gjk(pa.hull(&ctx.a), pb.hull(&ctx.b)),
        gjk::Guess::Apart(..)
    );
    // Either order gives the exhaustive path's answer: a common point means no
    // axis separates, and a separating axis means no common point. The guess
    // only picks the search likely to end first.
    if apart {
        if let Some(ax) = sat::first_separating(ctx) {
            return Some(Cert::Axis(ax));
        }
        found(w.get_or_insert_with(|| Witness::new(ctx))).map(Cert::Witness)
    } else {
        if let Some(f) = found(w.get_or_insert_with(|| Witness::new(ctx))) {
            return Some(Cert::Witness(f));
        }
        sat::first_separating(ctx).map(Cert::Axis)
    }
}

fn found(w: &mut Witness) -> Option<Found> {
    match w.search() {
        Search::Found(f) => Some(f),
        Search::Nothing => None,
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
    found(w)
}

/// Both shapes on the fast path, or `None` for what it leaves to the
/// exhaustive one.
#[inline(always)]
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

/// The certificate of an intersect query, rendered by `coord` (an exact
/// integer times a power of two) and `point` (a witness).
fn intersect_any<S: Scalar, T>(
    a: &Shape<S>,
    b: &Shape<S>,
    coord: impl Fn(&Int, i64) -> T,
    point: impl Fn(&Witness, Found) -> Vec3<T>,
) -> Option<Intersection<T>> {
    if let (Some(x), Some(y)) = (a.as_box(), b.as_box()) {
        if let Some(k) = crate::query::box_box::separating_axis_index(x, y) {
            let [l0, l1, l2] = crate::query::box_box::fast::axis_exact(a, b, k)?;
            return Some(Intersection::Separated {
                axis: Vec3::new(coord(&l0.0, l0.1), coord(&l1.0, l1.1), coord(&l2.0, l2.1)),
            });
        }
    }
    let ctx = context(a, b)?;
    let mut w = None;
    Some(match intersect_cert(&ctx, &mut w)? {
        Cert::Axis(ax) => {
            let (l, p) = sat::axis_exact(&ctx, ax);
            Intersection::Separated {
                axis: l.map(|c| coord(c, p)),
            }
        }
        Cert::Witness(f) => Intersection::Overlap {
            witness: point(w.as_ref().expect("the search ran"), f),
        },
    })
}

/// `intersect` for float inputs with an exact certificate, or `None`: the
/// caller's exhaustive path answers.
pub(crate) fn intersect<S: Scalar>(a: &Shape<S>, b: &Shape<S>) -> Option<Intersection<Q>> {
    if let (Shape::Prism(x), Shape::Prism(y)) = (a, b) {
        return crate::query::prism_prism::fast::intersect(x, y);
    }
    intersect_any(a, b, crate::num::fixed::int_pow2_rational, |w, f| {
        w.point(f)
    })
}

/// [`intersect`] with the certificate rounded to doubles (from the exact
/// integers, not reduced).
pub(crate) fn intersect_f64<S: Scalar>(a: &Shape<S>, b: &Shape<S>) -> Option<Intersection<f64>> {
    if let (Shape::Prism(x), Shape::Prism(y)) = (a, b) {
        return crate::query::prism_prism::fast::intersect_f64(x, y);
    }
    let one = crate::num::fixed::Nat::from_u128(1);
    intersect_any(
        a,
        b,
        |c, p| crate::num::fixed::ratio_f64(c, &one, p),
        |w, f| w.point_f64(f),
    )
}

/// The outcome of the distance decision.
enum Dist {
    Overlap(Found),
    Apart(Pair),
}

fn distance_cert<'a, S: Scalar>(
    a: &Shape<S>,
    b: &Shape<S>,
    ctx: &'a Ctx,
    w: &mut Option<Witness<'a>>,
) -> Option<Dist> {
    if a.as_box().is_some() && b.as_box().is_some() {
        // GJK first, no axis test: a proved pair is apart (the proof refuses
        // d̂ = 0), and otherwise the witness search decides, since it finds a
        // common point exactly when two boxes overlap (a vertex of one in the
        // other, or an edge of one through a face of the other). The answer
        // is the one the 15-axis test's order gave: apart pairs get the same
        // proved pair, overlapping ones the same witness, and a pair neither
        // settles goes to the exhaustive path as before.
        if let Guess::Proved(p) = guess(ctx) {
            return Some(Dist::Apart(p));
        }
        return box_witness(w.insert(Witness::new(ctx))).map(Dist::Overlap);
    }
    match guess(ctx) {
        Guess::Proved(p) => return Some(Dist::Apart(p)),
        Guess::Near => {
            // A common point proves the overlap; no need for the axes.
            if let Some(f) = found(w.insert(Witness::new(ctx))) {
                return Some(Dist::Overlap(f));
            }
            return None;
        }
        Guess::Unproved => {}
    }
    // Touching (or a guess that failed its proof): overlap means no axis
    // separates and the witness search finds the point.
    if sat::first_separating(ctx).is_some() {
        return None;
    }
    found(w.insert(Witness::new(ctx))).map(Dist::Overlap)
}

/// What GJK and the proof made of a pair.
enum Guess {
    /// Apart, with a proved feature pair.
    Proved(Pair),
    /// GJK found the shapes (nearly) touching or overlapping.
    Near,
    /// GJK found them apart but the proof refused its features.
    Unproved,
}

fn guess(ctx: &Ctx) -> Guess {
    let pa = sat::Plain::new(&ctx.a);
    let pb = sat::Plain::new(&ctx.b);
    let gjk::Guess::Apart(ma, mb) = gjk::gjk(pa.hull(&ctx.a), pb.hull(&ctx.b)) else {
        return Guess::Near;
    };
    let (Some(fa), Some(fb)) = (closest::feature(&ctx.a, ma), closest::feature(&ctx.b, mb)) else {
        return Guess::Unproved;
    };
    // GJK's features, or (parallel features: edge–face, face–face) the
    // vertex–feature and edge–edge pairs inside them, until one proves to be
    // a closest pair.
    let sub = |s: &side::Side<crate::num::bounded::Fx>, f: Feat| -> ([Feat; 9], usize) {
        let mask = closest::feature_mask(s, f);
        let mut out = [f; 9];
        let mut n = 1;
        if !matches!(f, Feat::V(_)) {
            for i in (0..s.nv).filter(|i| mask >> i & 1 == 1) {
                out[n] = Feat::V(i);
                n += 1;
            }
            for (e, &(i, j)) in s.edges().iter().enumerate() {
                if Feat::E(e) != f && mask >> i & 1 == 1 && mask >> j & 1 == 1 && n < 9 {
                    out[n] = Feat::E(e);
                    n += 1;
                }
            }
        }
        (out, n)
    };
    let ((xa, na), (xb, nb)) = (sub(&ctx.a, fa), sub(&ctx.b, fb));
    for &x in &xa[..na] {
        for &y in &xb[..nb] {
            let p = Pair { fa: x, fb: y };
            if let Some(s) = closest::support(ctx, p) {
                if s == closest::masks(ctx, p) {
                    return Guess::Proved(p);
                }
                return match closest::tie_break(ctx, p, s) {
                    Some(w) => Guess::Proved(w),
                    None => Guess::Unproved,
                };
            }
        }
    }
    Guess::Unproved
}

/// `distance` for float inputs (not two prisms), exact, as integers over one
/// denominator, or `None`: the caller's exhaustive path answers.
pub(crate) fn distance_ints<S: Scalar>(a: &Shape<S>, b: &Shape<S>) -> Option<Ints> {
    let ctx = context(a, b)?;
    let mut w = None;
    Some(match distance_cert(a, b, &ctx, &mut w)? {
        Dist::Overlap(f) => w.expect("the search ran").ints(f),
        Dist::Apart(pair) => closest::construct_ints(&ctx, pair),
    })
}

/// `distance` for float inputs, exact and not yet reduced, or `None`: the
/// caller's exhaustive path answers.
pub(crate) fn distance<S: Scalar>(a: &Shape<S>, b: &Shape<S>) -> Option<UnreducedClosest> {
    if let (Shape::Prism(x), Shape::Prism(y)) = (a, b) {
        return crate::query::prism_prism::fast::distance(x, y).map(UnreducedClosest::reduced);
    }
    distance_ints(a, b).map(UnreducedClosest::ints)
}

/// [`distance`] rounded to doubles (from the exact integers, not reduced).
pub(crate) fn distance_f64<S: Scalar>(a: &Shape<S>, b: &Shape<S>) -> Option<Closest<f64>> {
    if let (Shape::Prism(x), Shape::Prism(y)) = (a, b) {
        return crate::query::prism_prism::fast::distance_f64(x, y);
    }
    distance_ints(a, b).map(|i| i.to_f64())
}

#[cfg(test)]
mod tests;
