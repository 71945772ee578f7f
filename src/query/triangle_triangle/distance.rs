//! Triangle–triangle `distance`, exactly, with closest points.
//!
//! # The idea
//!
//! Nathan's decomposition ("Triangle – Triangle Collision Detection
//! Strategy", 2015), made exact and complete. If the triangles meet
//! (decided by [`intersects`](super::triangle_triangle::intersects)) the distance
//! is 0 and both closest points are a common point. Otherwise the closest pair
//! of two disjoint convex polytopes is realised by a vertex and a face, or by
//! two edges, so the squared distance is the least of
//!
//! ```text
//! vertex–face (6):  (n·(v − p0))² / |n|²   if v projects into the face
//! edge–edge  (9):   min over the closed segments (interior critical point when
//!                   both parameters are in (0, 1), else an end point against
//!                   the other segment, clamped: this covers vertex–edge and
//!                   vertex–vertex, and the parallel case, where the interior
//!                   system is singular)
//! ```
//!
//! Every candidate is the distance of an actual pair of points of the two
//! triangles, so the least valid candidate is the distance. All arithmetic is
//! in exact rationals: Nathan's strategy clamps each edge parameter
//! independently, which is not the segment distance in general; here the end-point candidates are
//! always taken as well.
//!
//! The vector `a − b` of the answer points from triangle b to triangle a, the
//! convention of P. Nathan's "Triangle – Triangle Collision Detection
//! Strategy" (2015): "from triangle 2 to triangle 1".
//!
//! # Float paths
//!
//! [`distance`] on `f32`/`f64` returns the exact answer **correctly rounded**:
//! the squared distance and each closest-point coordinate are the nearest value
//! of the type to the exact value (error ≤ ½ ulp, relative error ≤ 2⁻⁵³ for f64,
//! 2⁻²⁴ for f32, unless the value underflows), rounded straight from the
//! exact integer form (no reduction to lowest terms). Rounded closest points
//! may lie a rounding error outside the triangles. [`distance_exact`] keeps
//! the exact answer for float inputs.

use super::exact::{as_doubles, closest_features, lift};
use super::intersect::{distance_int, intersect_reference, witness_exact, FastDistance};
use super::ints::and;
use crate::num::dyadic::Dyadic;
use crate::num::ring::Ring;
use crate::num::scalar::ExactRing;
use crate::num::scalar::Scalar;
use crate::num::sign::Sign;
use crate::query::Intersection;
use crate::query::{Closest, QueryError};
use crate::shape::Triangle;
use crate::stats;
use crate::vector::Vec3;
use num_rational::BigRational;
use num_traits::Zero;

use crate::num::gcd::div_q;
type Q = BigRational;
type P = Vec3<Q>;

/// The exact squared distance between two triangles and a closest pair, rounded
/// to `S` (correctly rounded on the float paths; see the module docs).
///
/// ```
/// use exact_collision::query::triangle_triangle::distance;
/// use exact_collision::{Triangle, Vec3};
/// let t = |p: [[f64; 3]; 3]| Triangle::new(p.map(|[x, y, z]| Vec3::new(x, y, z)));
/// let a = t([[0., 0., 1.], [1., 0., 1.], [0., 1., 1.]]);
/// let b = t([[0., 0., 0.], [1., 0., 0.], [0., 1., 0.]]);
/// let c = distance(&a, &b).unwrap();
/// assert_eq!(c.distance_squared, 1.0);
/// assert_eq!(c.a.z - c.b.z, 1.0); // points from b to a
/// ```
pub fn distance<S: Scalar>(a: &Triangle<S>, b: &Triangle<S>) -> Result<Closest<S>, QueryError> {
    if !S::IS_EXACT {
        // Float inputs: rounded straight from the integer form.
        if let Some((al, d)) = distance_int(a, b) {
            stats::DISTANCE.fast();
            return Ok(match d {
                FastDistance::Meet(p) => {
                    let w = p.round(&al.v, al.e0);
                    Closest {
                        distance_squared: S::zero(),
                        a: w.clone(),
                        b: w,
                    }
                }
                FastDistance::Apart(c) => c.round(&al.v, al.e0),
            });
        }
        stats::DISTANCE.fallback();
        return Ok(round_closest(general(a, b)?));
    }
    Ok(round_closest(distance_exact(a, b)?))
}

fn round_closest<S: Scalar>(c: Closest<Q>) -> Closest<S> {
    Closest {
        distance_squared: S::from_rational(&c.distance_squared),
        a: Vec3::from_rational(&c.a),
        b: Vec3::from_rational(&c.b),
    }
}

/// The exact squared distance and closest pair, from inputs of any scalar type
/// (the exact values of float inputs).
///
/// On f32/f64 inputs (and rational inputs whose coordinates are all doubles)
/// whose 18 coordinates align to integers below 2⁶¹ after scaling by a common
/// power of two (coordinates of similar magnitude), the answer is computed in
/// fixed-width integers on the stack: a common point of meeting triangles
/// (as [`intersect_exact`](super::triangle_triangle::intersect_exact)'s
/// witness), else an f64 filter with explicit error bounds picks the unique
/// closest feature pair, or the few contenders it cannot separate, which are
/// compared exactly (an exact tie settled by the reference's order of the
/// features); only those are evaluated exactly, and the fractions are
/// reduced with one full-size gcd. Degenerate meeting pairs, inputs that do
/// not align and the rare pairs with many contenders take the general
/// path (interval filter, `Dyadic` candidates), counted as fallbacks in
/// [`stats::DISTANCE`](super::stats::DISTANCE); both give the same
/// answer, [`distance_reference`]'s: the one of the exhaustive exact search
/// over all feature pairs (in a tie between different closest pairs, the
/// first in its order: vertices of `a` against `b`'s face, of `b` against
/// `a`'s face, then the nine edge pairs).
///
/// ```
/// use exact_collision::query::triangle_triangle::distance_exact;
/// use exact_collision::{Triangle, Vec3};
/// let t = |p: [[f64; 3]; 3]| Triangle::new(p.map(|[x, y, z]| Vec3::new(x, y, z)));
/// let a = t([[0., 0., 0.1], [1., 0., 0.1], [0., 1., 0.1]]);
/// let b = t([[0., 0., 0.], [1., 0., 0.], [0., 1., 0.]]);
/// let c = distance_exact(&a, &b).unwrap();
/// // The double 0.1, squared, exactly (not the double nearest 0.01):
/// use exact_collision::Scalar;
/// assert_eq!(c.distance_squared, 0.1f64.to_rational() * 0.1f64.to_rational());
/// ```
pub fn distance_exact<S: Scalar>(
    a: &Triangle<S>,
    b: &Triangle<S>,
) -> Result<Closest<Q>, QueryError> {
    if let Some((fa, fb)) = as_doubles(a, b) {
        return distance_exact(&fa, &fb);
    }
    if !S::IS_EXACT {
        if let Some((al, d)) = distance_int(a, b) {
            stats::DISTANCE.fast();
            return Ok(match d {
                FastDistance::Meet(p) => {
                    let w = p.to_q(&al.x, al.e0);
                    Closest {
                        distance_squared: <Q as Zero>::zero(),
                        a: w.clone(),
                        b: w,
                    }
                }
                FastDistance::Apart(c) => c.to_q(&al.x, al.e0),
            });
        }
        stats::DISTANCE.fallback();
    }
    general(a, b)
}

/// The reference for [`distance_exact`]: a common point from
/// [`intersect_reference`] when the triangles meet, else the exhaustive exact
/// search over all the
/// feature pairs, in exact rationals (the first closest pair in its order:
/// vertices of `a` against `b`'s face, of `b` against `a`'s face, then the
/// nine edge pairs). Slow; the fast paths must equal it bit for bit.
///
/// ```
/// use exact_collision::query::triangle_triangle::{distance_exact, distance_reference};
/// use exact_collision::{Triangle, Vec3};
/// let t = |p: [[f64; 3]; 3]| Triangle::new(p.map(|[x, y, z]| Vec3::new(x, y, z)));
/// let a = t([[0., 0., 0.1], [1., 0., 0.3], [0., 1., 0.1]]);
/// let b = t([[0., 0., 0.], [1., 0., 0.], [0., 1., 0.]]);
/// assert_eq!(distance_reference(&a, &b).unwrap(), distance_exact(&a, &b).unwrap());
/// ```
pub fn distance_reference<S: Scalar>(
    a: &Triangle<S>,
    b: &Triangle<S>,
) -> Result<Closest<Q>, QueryError> {
    Ok(match intersect_reference(a, b)?.0 {
        Intersection::Overlap { witness } => Closest {
            distance_squared: <Q as Zero>::zero(),
            a: witness.clone(),
            b: witness,
        },
        Intersection::Separated { .. } => closest_features(&lift(a), &lift(b)),
    })
}

/// The general path: a common point, else the filtered selection over the
/// feature candidates in `Dyadic` (float inputs) or rationals.
fn general<S: Scalar>(a: &Triangle<S>, b: &Triangle<S>) -> Result<Closest<Q>, QueryError> {
    match witness_exact(a, b)? {
        Some(w) => Ok(Closest {
            distance_squared: <Q as Zero>::zero(),
            a: w.clone(),
            b: w,
        }),
        None => Ok(closest_filtered(a, b)),
    }
}

// ---------------------------------------------------------------------------
// The filtered selection: which feature pair is closest, decided in interval
// arithmetic (outward rounding), then only the contenders evaluated exactly.
// ---------------------------------------------------------------------------

use crate::num::interval::Interval;

type I3 = Vec3<Interval>;

/// A feature pair whose distance is a candidate.
#[derive(Clone, Copy, Debug)]
enum Feature {
    /// Vertex i of a, vertex j of b.
    VertexVertex(usize, usize),
    /// A vertex of one triangle against the interior of an edge of the other;
    /// `a_vertex` says whose vertex.
    VertexEdge { a_vertex: bool, v: usize, e: usize },
    /// Interior of edge i of a against interior of edge j of b.
    EdgeEdge(usize, usize),
    /// A vertex against the other's face.
    VertexFace { a_vertex: bool, v: usize },
}

/// `n / d` for `n ≥ 0`, `d > 0` (else `[0, ∞]`), rounded outward: each bound
/// is one round-to-nearest division moved one step outward.
fn idiv(n: Interval, d: Interval) -> Interval {
    if d.lo <= 0.0 || n.lo.is_nan() || n.hi.is_nan() || !d.hi.is_finite() {
        return Interval {
            lo: 0.0,
            hi: f64::INFINITY,
        };
    }
    let lo = (n.lo.max(0.0) / d.hi).next_down().max(0.0);
    let hi = (n.hi / d.lo).next_up();
    Interval { lo, hi }
}

fn nonneg(x: Interval) -> Interval {
    Interval {
        lo: x.lo.max(0.0),
        hi: x.hi,
    }
}

/// The sign of `x` if the interval decides it: Some(true) for > 0 (or ≥ 0 when
/// `closed`), Some(false) for the opposite, None when it cannot tell.
fn positive(x: Interval, closed: bool) -> Option<bool> {
    if x.lo > 0.0 || (closed && x.lo >= 0.0) {
        Some(true)
    } else if x.hi < 0.0 || (!closed && x.hi <= 0.0) {
        Some(false)
    } else {
        None
    }
}

/// Interval value and validity of one candidate.
fn enclose(f: Feature, a: &[I3; 3], b: &[I3; 3]) -> (Interval, Option<bool>) {
    match f {
        Feature::VertexVertex(i, j) => (nonneg(a[i].sub(&b[j]).norm_squared()), Some(true)),
        Feature::VertexEdge { a_vertex, v, e } => {
            let (x, t) = if a_vertex { (&a[v], b) } else { (&b[v], a) };
            let (u, w) = (&t[e], &t[(e + 1) % 3]);
            let d = w.sub(u);
            let r = x.sub(u);
            let dd = nonneg(d.norm_squared());
            let s = r.dot(&d);
            // Interior projection: 0 < s < |d|².
            let valid = and(positive(s, false), positive(dd.sub_ref(&s), false));
            (idiv(nonneg(r.cross(&d).norm_squared()), dd), valid)
        }
        Feature::EdgeEdge(i, j) => {
            let (p0, p1, q0, q1) = (&a[i], &a[(i + 1) % 3], &b[j], &b[(j + 1) % 3]);
            let (d1, d2, r) = (p1.sub(p0), q1.sub(q0), p0.sub(q0));
            let (aa, e, bb) = (d1.norm_squared(), d2.norm_squared(), d1.dot(&d2));
            let (c, f) = (d1.dot(&r), d2.dot(&r));
            let den = aa.mul_ref(&e).sub_ref(&bb.square());
            let s = bb.mul_ref(&f).sub_ref(&c.mul_ref(&e));
            let t = aa.mul_ref(&f).sub_ref(&bb.mul_ref(&c));
            let valid = and(
                and(positive(s, false), positive(den.sub_ref(&s), false)),
                and(positive(t, false), positive(den.sub_ref(&t), false)),
            );
            let n = d1.cross(&d2);
            (
                idiv(nonneg(r.dot(&n).square()), nonneg(n.norm_squared())),
                valid,
            )
        }
        Feature::VertexFace { a_vertex, v } => {
            let (x, t) = if a_vertex { (&a[v], b) } else { (&b[v], a) };
            let n = t[1].sub(&t[0]).cross(&t[2].sub(&t[0]));
            let mut valid = Some(true);
            for k in 0..3 {
                let (u, w) = (&t[k], &t[(k + 1) % 3]);
                valid = and(valid, positive(w.sub(u).cross(&x.sub(u)).dot(&n), true));
            }
            let s = n.dot(&x.sub(&t[0]));
            (idiv(nonneg(s.square()), nonneg(n.norm_squared())), valid)
        }
    }
}

/// An exact ring the candidates are evaluated in: [`Dyadic`] for float inputs
/// (no gcd at all), `BigRational` for rational inputs.
trait Homog: ExactRing {
    fn to_q(&self) -> Q;
    fn of_f64(v: f64) -> Self;
}

impl Homog for Dyadic {
    fn to_q(&self) -> Q {
        self.to_rational()
    }
    fn of_f64(v: f64) -> Self {
        Dyadic::from_f64(v)
    }
}

impl Homog for Q {
    fn to_q(&self) -> Q {
        self.clone()
    }
    fn of_f64(v: f64) -> Self {
        Q::from_float(v).unwrap_or_else(<Q as Zero>::zero)
    }
}

/// A point `X / w` in homogeneous form (`w > 0`).
struct Hp<E> {
    x: Vec3<E>,
    w: E,
}

impl<E: Homog> Hp<E> {
    fn affine(p: &Vec3<E>) -> Self {
        Hp {
            x: p.clone(),
            w: E::one(),
        }
    }
    /// `p + d·(s/w)` as `(p·w + d·s) / w`.
    fn along(p: &Vec3<E>, d: &Vec3<E>, s: &E, w: &E) -> Self {
        Hp {
            x: p.scale(w).add(&d.scale(s)),
            w: w.clone(),
        }
    }
    /// The point as exact rationals (one gcd per coordinate).
    fn to_q(&self) -> P {
        if self.w.sign() == Sign::Positive && self.w.sub_ref(&E::one()).sign() == Sign::Zero {
            return self.x.map(|c| c.to_q());
        }
        let w = self.w.to_q();
        self.x.map(|c| div_q(&c.to_q(), &w))
    }
}

/// `X/w = Y/v`, by cross-multiplication.
fn same_point<E: Homog>(p: &Hp<E>, q: &Hp<E>) -> bool {
    let eq = |x: &E, y: &E| x.mul_ref(&q.w).sub_ref(&y.mul_ref(&p.w)).sign() == Sign::Zero;
    eq(&p.x.x, &q.x.x) && eq(&p.x.y, &q.x.y) && eq(&p.x.z, &q.x.z)
}

/// An exact candidate: squared distance `num / den` (`den > 0`) and the pair.
struct Cand<E> {
    num: E,
    den: E,
    pa: Hp<E>,
    pb: Hp<E>,
}

impl<E: Homog> Cand<E> {
    /// `self.d² < o.d²`, by cross-multiplication.
    fn less(&self, o: &Cand<E>) -> bool {
        self.num
            .mul_ref(&o.den)
            .sub_ref(&o.num.mul_ref(&self.den))
            .sign()
            == Sign::Negative
    }
    fn to_closest(&self) -> Closest<Q> {
        Closest {
            distance_squared: div_q(&self.num.to_q(), &self.den.to_q()),
            a: self.pa.to_q(),
            b: self.pb.to_q(),
        }
    }
}

fn pos<E: ExactRing>(x: &E) -> bool {
    x.sign() == Sign::Positive
}

/// The exact value of one candidate, `None` if it is not valid (exactly),
/// division-free: every quotient is kept as numerator and denominator.
fn exact<E: Homog>(f: Feature, a: &[Vec3<E>; 3], b: &[Vec3<E>; 3]) -> Option<Cand<E>> {
    let swap = |c: Cand<E>, a_first: bool| {
        if a_first {
            c
        } else {
            Cand {
                pa: c.pb,
                pb: c.pa,
                ..c
            }
        }
    };
    match f {
        Feature::VertexVertex(i, j) => Some(Cand {
            num: a[i].sub(&b[j]).norm_squared(),
            den: E::one(),
            pa: Hp::affine(&a[i]),
            pb: Hp::affine(&b[j]),
        }),
        Feature::VertexEdge { a_vertex, v, e } => {
            let (x, t) = if a_vertex { (&a[v], b) } else { (&b[v], a) };
            let (u, w) = (&t[e], &t[(e + 1) % 3]);
            let d = w.sub(u);
            let dd = d.norm_squared();
            let r = x.sub(u);
            let s = r.dot(&d);
            if !pos(&s) || !pos(&dd.sub_ref(&s)) {
                return None;
            }
            // |x − (u + d s/dd)|² = (|r|²·dd − s²) / dd
            let c = Cand {
                num: r.norm_squared().mul_ref(&dd).sub_ref(&s.square()),
                den: dd.clone(),
                pa: Hp::affine(x),
                pb: Hp::along(u, &d, &s, &dd),
            };
            Some(swap(c, a_vertex))
        }
        Feature::EdgeEdge(i, j) => {
            let (p0, p1, q0, q1) = (&a[i], &a[(i + 1) % 3], &b[j], &b[(j + 1) % 3]);
            let (d1, d2, r) = (p1.sub(p0), q1.sub(q0), p0.sub(q0));
            let (aa, e, bb) = (d1.norm_squared(), d2.norm_squared(), d1.dot(&d2));
            let (c, f) = (d1.dot(&r), d2.dot(&r));
            let den = aa.mul_ref(&e).sub_ref(&bb.square());
            let s = bb.mul_ref(&f).sub_ref(&c.mul_ref(&e));
            let t = aa.mul_ref(&f).sub_ref(&bb.mul_ref(&c));
            let inside = |v: &E| pos(v) && pos(&den.sub_ref(v));
            if !pos(&den) || !inside(&s) || !inside(&t) {
                return None;
            }
            let (x, y) = (Hp::along(p0, &d1, &s, &den), Hp::along(q0, &d2, &t, &den));
            Some(Cand {
                num: x.x.sub(&y.x).norm_squared(),
                den: den.square(),
                pa: x,
                pb: y,
            })
        }
        Feature::VertexFace { a_vertex, v } => {
            let (x, t) = if a_vertex { (&a[v], b) } else { (&b[v], a) };
            let n = t[1].sub(&t[0]).cross(&t[2].sub(&t[0]));
            let nn = n.norm_squared();
            if !pos(&nn) {
                return None;
            }
            for k in 0..3 {
                let (u, w) = (&t[k], &t[(k + 1) % 3]);
                if w.sub(u).cross(&x.sub(u)).dot(&n).sign() == Sign::Negative {
                    return None;
                }
            }
            let s = n.dot(&x.sub(&t[0]));
            let c = Cand {
                num: s.square(),
                pa: Hp::affine(x),
                pb: Hp::along(x, &n.neg(), &s, &nn),
                den: nn,
            };
            Some(swap(c, a_vertex))
        }
    }
}

fn features() -> Vec<Feature> {
    let mut v = Vec::with_capacity(42);
    for i in 0..3 {
        for j in 0..3 {
            v.push(Feature::VertexVertex(i, j));
            v.push(Feature::EdgeEdge(i, j));
            v.push(Feature::VertexEdge {
                a_vertex: true,
                v: i,
                e: j,
            });
            v.push(Feature::VertexEdge {
                a_vertex: false,
                v: i,
                e: j,
            });
        }
        v.push(Feature::VertexFace {
            a_vertex: true,
            v: i,
        });
        v.push(Feature::VertexFace {
            a_vertex: false,
            v: i,
        });
    }
    v
}

/// The exact distance of two **disjoint** triangles: the 42 feature candidates
/// (vertex–vertex, vertex–edge interior, edge–edge interior, vertex–face) are
/// enclosed in intervals; U, the least upper end over the candidates known to
/// be valid, bounds the distance from above; only the candidates that are not
/// known invalid and whose lower end is ≤ U are evaluated exactly, in order of
/// lower end, until the next lower end exceeds the best exact value.
///
/// Every valid candidate is the distance of a pair of actual points, and the
/// least valid one is the distance (the feature decomposition of the module
/// docs, with the closed-segment distance split into its interior and
/// end-point parts), so the answer equals [`closest_features`]'s.
pub(crate) fn closest_filtered<S: Scalar>(ta: &Triangle<S>, tb: &Triangle<S>) -> Closest<Q> {
    let iv = |t: &Triangle<S>| t.v.clone().map(|p| p.map(|c| c.to_interval()));
    let (ia, ib) = (iv(ta), iv(tb));
    let mut cands: Vec<(Feature, Interval)> = Vec::with_capacity(42);
    let mut upper = f64::INFINITY;
    for f in features() {
        let (val, valid) = enclose(f, &ia, &ib);
        match valid {
            Some(false) => {}
            Some(true) => {
                upper = upper.min(val.hi);
                cands.push((f, val));
            }
            None => cands.push((f, val)),
        }
    }
    cands.retain(|(_, v)| v.lo <= upper);
    cands.sort_by(|x, y| x.1.lo.total_cmp(&y.1.lo));
    if S::IS_EXACT {
        let (a, b) = (lift(ta), lift(tb));
        pick(&cands, &a, &b).unwrap_or_else(|| closest_features(&a, &b))
    } else {
        // Float inputs are dyadic: evaluate without a single gcd.
        let d = |t: &Triangle<S>| {
            t.v.each_ref()
                .map(|p| p.map(|c| Dyadic::from_f64(c.to_f64())))
        };
        pick(&cands, &d(ta), &d(tb)).unwrap_or_else(|| closest_features(&lift(ta), &lift(tb)))
    }
}

/// The least exact candidate among `cands` (sorted by lower end), stopping at
/// the first lower end above the best exact value.
fn pick<E: Homog>(
    cands: &[(Feature, Interval)],
    a: &[Vec3<E>; 3],
    b: &[Vec3<E>; 3],
) -> Option<Closest<Q>> {
    let mut best: Option<Cand<E>> = None;
    // An exact tie of the best value with a different closest pair: the
    // reference search decides which pair is reported (its order of features).
    let mut tie = false;
    for (f, val) in cands {
        if let Some(c) = &best {
            // lo > num/den ⇔ lo·den − num > 0
            let lo = if val.lo.is_finite() { val.lo } else { 0.0 };
            if pos(&E::of_f64(lo).mul_ref(&c.den).sub_ref(&c.num)) {
                break;
            }
        }
        if let Some(c) = exact(*f, a, b) {
            match &best {
                Some(b) if !c.less(b) => {
                    let same = same_point(&b.pa, &c.pa) && same_point(&b.pb, &c.pb);
                    if !b.less(&c) && !same {
                        tie = true;
                    }
                }
                _ => {
                    best = Some(c);
                    tie = false;
                }
            }
        }
    }
    if tie {
        return None;
    }
    // Vertex–vertex candidates are always valid, so `best` is set unless an
    // interval overflowed everywhere (or on a tie, above); then the caller
    // runs the full search.
    best.map(|c| c.to_closest())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::query::triangle_triangle::intersects;

    /// The filtered selection equals the full exact search, on small-grid
    /// pairs (full of ties: parallel edges, equal vertex distances) and on
    /// f64 pairs near 1e300 and 1e-300.
    #[test]
    fn filtered_equals_full_search() {
        let mut state = 12345u64;
        let mut next = || {
            state = state
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            ((state >> 33) % 7) as f64 - 3.0
        };
        let mut checked = 0;
        for round in 0..600 {
            let scale = [1.0, 1e300, 1e-300, 0.1][round % 4];
            let mut t = || {
                Triangle::new(
                    [0, 1, 2].map(|_| Vec3::new(next() * scale, next() * scale, next() * scale)),
                )
            };
            let (a, b) = (t(), t());
            if intersects(&a, &b) {
                continue;
            }
            let full = closest_features(&lift(&a), &lift(&b));
            let fast = closest_filtered(&a, &b);
            assert_eq!(full.distance_squared, fast.distance_squared, "{a:?} {b:?}");
            checked += 1;
        }
        assert!(checked > 200);
    }
}
