//! Box–box (parallelepiped–parallelepiped): the exact 15-axis separating-axis
//! test, with a semi-static float filter.
//!
//! A box is `{ c + s0·h0 + s1·h1 + s2·h2 : |si| ≤ 1 }`; the half-axes need not be
//! unit or orthogonal. Its face normals are the cross products `h1×h2`, `h2×h0`,
//! `h0×h1`, so the candidate axes of two boxes a, b are the 15 vectors
//!
//! ```text
//! L ∈ { a1×a2, a2×a0, a0×a1,  b1×b2, b2×b0, b0×b1,  ai×bj (i, j = 0..2) }
//! ```
//!
//! and L separates exactly when (Gottschalk, Lin, Manocha 1996, "the basic
//! formula" rather than Eberly's simplified table)
//!
//! ```text
//! f(L) = |L·T| − Σi |L·ai| − Σj |L·bj|  > 0,      T = cb − ca.
//! ```
//!
//! f is a polynomial of degree 3 in the inputs (with absolute values), so its
//! sign is an exact predicate. It is symmetric in a ↔ b (T → −T, and
//! `bj×ai = −ai×bj` under absolute values), so `intersect(a, b)` and
//! `intersect(b, a)` make the same decision on every input: commutative by
//! construction. A zero axis (parallel edges: `ai×bj = 0`) gives f = 0, which
//! separates nothing — decided exactly, with no epsilon cut-off.
//!
//! The float filter (f32/f64 inputs): f is evaluated in plain f64 together with
//! a bound on its rounding error (see [`FILTER`] for the derivation); when the
//! bound cannot decide the sign, the exact predicate decides
//! (`predicates::sign_of`, interval then exact dyadic arithmetic).
//!
//! ```
//! use exact_collision::query::box_box;
//! use exact_collision::{Obb, Vec3};
//! let v = |x: f64, y: f64, z: f64| Vec3::new(x, y, z);
//! let a = Obb::new(v(0., 0., 0.), [v(1., 0., 0.), v(0., 1., 0.), v(0., 0., 1.)]).unwrap();
//! let b = Obb::new(v(2., 0., 0.), [v(0., 1., 0.), v(-1., 0., 0.), v(0., 0., 1.)]).unwrap();
//! assert!(box_box::overlaps(&a, &b)); // touching faces: closed sets intersect
//! let c = Obb::new(v(2.0f64.next_up(), 0., 0.), b.half_axes.clone()).unwrap();
//! assert!(!box_box::overlaps(&a, &c)); // one ulp apart
//! ```

pub mod contact;
pub(crate) mod fast;
pub mod pose;

use super::polytope::{self, to_rational_obb, Polytope};
use super::{Closest, Intersection};
use crate::num::ring::Ring;
use crate::num::scalar::Scalar;
use crate::num::sign::Sign;
use crate::predicates::{in_shewchuk_range, sign_of, Expr};
use crate::shape::{Obb, Shape};
use crate::vector::Vec3;

use crate::stats::FILTER_FAILURES;

/// How many box–box axis tests so far the float filter could not decide (and
/// went to the exact predicate), process-wide. Benchmarks read it before and
/// after a run to report the exact-fallback rate.
pub fn filter_failures() -> u64 {
    FILTER_FAILURES.get()
}

/// Axis `k` of the 15 as the pair (u, v) with L = u × v: 0..3 faces of a,
/// 3..6 faces of b, 6..15 `a[i] × b[j]` with k = 6 + 3i + j.
pub(crate) fn axis_pair<'a, T>(a: &'a [T; 3], b: &'a [T; 3], k: usize) -> (&'a T, &'a T) {
    match k {
        0..=2 => (&a[(k + 1) % 3], &a[(k + 2) % 3]),
        3..=5 => (&b[(k - 2) % 3], &b[(k - 1) % 3]),
        _ => (&a[(k - 6) / 3], &b[(k - 6) % 3]),
    }
}

/// `f(L) = |L·T| − Σ|L·ai| − Σ|L·bj|` with `L = u × v`, `T = cb − ca`.
struct AxisGap<'a, S> {
    u: &'a Vec3<S>,
    v: &'a Vec3<S>,
    a: &'a Obb<S>,
    b: &'a Obb<S>,
}

impl<S> Expr<S> for AxisGap<'_, S> {
    fn eval<R: Ring, L: Fn(&S) -> R>(&self, l: &L) -> R {
        let axis = self.u.map(l).cross(&self.v.map(l));
        let t = self.b.center.map(l).sub(&self.a.center.map(l));
        let mut f = axis.dot(&t).abs_ref();
        for h in self.a.half_axes.iter().chain(self.b.half_axes.iter()) {
            f = f.sub_ref(&axis.dot(&h.map(l)).abs_ref());
        }
        f
    }
}

/// The filter's error constant, `16ε` with ε = 2⁻⁵³ (the unit round-off).
///
/// Derivation. Inputs are doubles; write γn = nε/(1 − nε), P = |u| ⊗ |v| (the
/// cross product with every − turned into + and every factor in absolute value,
/// so |L_k| ≤ P_k), and for a vector w, M_w = Σk P_k·|w_k|.
///
/// ```text
/// T̃_k = fl(cb_k − ca_k) = T_k(1 + θ),                       |θ| ≤ ε
/// L̃_k = fl(fl(u·v) − fl(u·v)):     |L̃_k − L_k| ≤ γ2·P_k
/// d̃_w = fl(Σk L̃_k w_k):            |d̃_w − L·w| ≤ (γ2 + γ3(1 + γ2))·M_w ≤ 5ε·M_w (+O(ε²))
/// d̃_T (with T̃ for T):              |d̃_T − L·T| ≤ 6ε·M_T̃ (+O(ε²))
/// f̃ = fl(|d̃_T| − fl(Σ |d̃_w|)), six terms: summation error ≤ γ6·(|d̃_T| + Σ|d̃_w|)
///                                                       ≤ 6ε·(M_T̃ + Σ M_w) (+O(ε²))
/// total: |f̃ − f| ≤ 12ε·M + O(ε²)·M,   M = M_T̃ + Σw M_w = Σk P_k·(|T̃_k| + Σw |w_k|)
/// ```
///
/// M̃, computed in floats from nonnegative terms (about 12 roundings), is at
/// least M(1 − γ12), so `|f̃ − f| ≤ 13ε·M̃` with room for every O(ε²) term; 16ε
/// (a power of two, so `FILTER·M̃` is one exact scaling) leaves more. If
/// `f̃ > FILTER·M̃`, f > 0; if `f̃ < −FILTER·M̃`, f < 0; else the exact predicate
/// decides.
///
/// The model assumes no overflow and no underflow. It holds when every input
/// coordinate is 0 or of magnitude in [2⁻²⁵⁰, 2²⁵⁰) ([`in_shewchuk_range`]): every
/// nonzero intermediate is then a multiple of 2⁻⁹⁰⁶ (degree 3 in numbers whose
/// lowest bit is at least 2⁻³⁰²) and below 2⁷⁶⁰, all normal doubles. Other inputs
/// skip the filter and use the interval + exact predicate.
pub const FILTER: f64 = 16.0 * crate::num::bounded::U;

type F3 = [f64; 3];

#[inline(always)]
fn cross(u: &F3, v: &F3) -> F3 {
    [
        u[1] * v[2] - u[2] * v[1],
        u[2] * v[0] - u[0] * v[2],
        u[0] * v[1] - u[1] * v[0],
    ]
}

#[inline(always)]
fn abs_cross(u: &F3, v: &F3) -> F3 {
    [
        (u[1] * v[2]).abs() + (u[2] * v[1]).abs(),
        (u[2] * v[0]).abs() + (u[0] * v[2]).abs(),
        (u[0] * v[1]).abs() + (u[1] * v[0]).abs(),
    ]
}

#[inline(always)]
fn dot(u: &F3, v: &F3) -> f64 {
    u[0] * v[0] + u[1] * v[1] + u[2] * v[2]
}

/// The filtered decision on f64 data (`x`: ca, cb, a0..a2, b0..b2, all
/// exactly the inputs): `Some(k)` for the first separating axis.
fn sat_f64<S: Scalar>(a: &Obb<S>, b: &Obb<S>, x: &[F3; 8]) -> Option<usize> {
    let (ca, cb) = (&x[0], &x[1]);
    let ha = [x[2], x[3], x[4]];
    let hb = [x[5], x[6], x[7]];
    let t = [cb[0] - ca[0], cb[1] - ca[1], cb[2] - ca[2]];
    // Σ|w_k| over T̃ and the six half-axes, per coordinate (shared by all axes).
    let mut s = [t[0].abs(), t[1].abs(), t[2].abs()];
    for h in ha.iter().chain(hb.iter()) {
        for k in 0..3 {
            s[k] += h[k].abs();
        }
    }
    for k in 0..15 {
        let (u, v) = axis_pair(&ha, &hb, k);
        let p = abs_cross(u, v);
        if p == [0.0; 3] {
            continue; // every product is exactly zero: L = 0 exactly
        }
        let l = cross(u, v);
        let mut g = dot(&l, &t).abs();
        for h in ha.iter().chain(hb.iter()) {
            g -= dot(&l, h).abs();
        }
        let bound = FILTER * dot(&p, &s);
        if g > bound {
            return Some(k);
        }
        if g >= -bound {
            FILTER_FAILURES.add();
            let (u, v) = axis_pair(&a.half_axes, &b.half_axes, k);
            if sign_of(&AxisGap { u, v, a, b }) == Sign::Positive {
                return Some(k);
            }
        }
    }
    None
}

/// The first of the 15 axes (see the module docs for the numbering) that
/// separates the boxes, decided exactly; `None` when the boxes intersect.
pub fn separating_axis_index<S: Scalar>(a: &Obb<S>, b: &Obb<S>) -> Option<usize> {
    if !S::IS_EXACT {
        let f = |p: &Vec3<S>| [p.x.to_f64(), p.y.to_f64(), p.z.to_f64()];
        let (ha, hb) = (&a.half_axes, &b.half_axes);
        let x = [
            f(&a.center),
            f(&b.center),
            f(&ha[0]),
            f(&ha[1]),
            f(&ha[2]),
            f(&hb[0]),
            f(&hb[1]),
            f(&hb[2]),
        ];
        if in_shewchuk_range(x.as_flattened()) {
            return sat_f64(a, b, &x);
        }
    }
    (0..15).find(|&k| {
        let (u, v) = axis_pair(&a.half_axes, &b.half_axes, k);
        sign_of(&AxisGap { u, v, a, b }) == Sign::Positive
    })
}

/// Whether the closed boxes share a point, decided exactly.
pub fn overlaps<S: Scalar>(a: &Obb<S>, b: &Obb<S>) -> bool {
    separating_axis_index(a, b).is_none()
}

/// A common point of two boxes known to intersect (exact).
fn witness<S: Scalar>(a: &Obb<S>, b: &Obb<S>) -> Vec3<num_rational::BigRational> {
    let (ra, rb) = (to_rational_obb(a), to_rational_obb(b));
    if rb.contains(&ra.center) {
        return ra.center;
    }
    if ra.contains(&rb.center) {
        return rb.center;
    }
    let (pa, pb) = (
        Polytope::new(&Shape::Box(ra)),
        Polytope::new(&Shape::Box(rb)),
    );
    polytope::witness(&pa, &pb).unwrap_or_else(|| polytope::closest_pair(&pa, &pb).a)
}

/// Box–box intersect with a certificate: the separating axis `u × v` (computed
/// exactly, rounded for floats), or a common point (exact, rounded for floats).
///
/// ```
/// use exact_collision::query::{box_box, certificate::check_intersection};
/// use exact_collision::{Obb, Shape, Vec3};
/// use num_rational::BigRational;
/// let q = |n: i64, d: i64| BigRational::new(n.into(), d.into());
/// let v = |x, y, z| Vec3::new(q(x, 1), q(y, 1), q(z, 1));
/// let a = Obb::new(v(0, 0, 0), [v(1, 0, 0), v(0, 1, 0), v(0, 0, 1)]).unwrap();
/// // b is a diamond in plan view whose edge x + y = 2 touches a's vertical edge at (1, 1).
/// let b = Obb::new(v(2, 2, 0), [v(1, 1, 0), v(-1, 1, 0), v(0, 0, 1)]).unwrap();
/// let ans = box_box::intersect(&a, &b);
/// assert!(ans.intersects());
/// check_intersection(&Shape::Box(a.clone()), &Shape::Box(b), &ans).unwrap();
/// // Moved by 1/1000 along x, they are apart, and the axis proves it.
/// let c = Obb::new(Vec3::new(q(2001, 1000), q(2, 1), q(0, 1)), [v(1, 1, 0), v(-1, 1, 0), v(0, 0, 1)]).unwrap();
/// let ans = box_box::intersect(&a, &c);
/// assert!(!ans.intersects());
/// check_intersection(&Shape::Box(a), &Shape::Box(c), &ans).unwrap();
/// ```
pub fn intersect<S: Scalar>(a: &Obb<S>, b: &Obb<S>) -> Intersection<S> {
    match separating_axis_index(a, b) {
        Some(k) => {
            let (u, v) = axis_pair(&a.half_axes, &b.half_axes, k);
            Intersection::Separated {
                axis: Vec3::from_rational(&u.to_rational().cross(&v.to_rational())),
            }
        }
        None => Intersection::Overlap {
            witness: Vec3::from_rational(&witness(a, b)),
        },
    }
}

/// Box–box distance: exact squared distance and closest points (the exact
/// answer rounded to nearest for floats). The decision comes from the filtered
/// SAT; the construction from the exact feature-pair search of
/// [`polytope::closest_pair`].
pub fn distance<S: Scalar>(a: &Obb<S>, b: &Obb<S>) -> Closest<S> {
    if overlaps(a, b) {
        let w = Vec3::<S>::from_rational(&witness(a, b));
        let zero = S::zero();
        return Closest {
            distance_squared: zero,
            a: w.clone(),
            b: w,
        };
    }
    let pa = Polytope::new(&Shape::Box(to_rational_obb(a)));
    let pb = Polytope::new(&Shape::Box(to_rational_obb(b)));
    polytope::round_closest(polytope::closest_pair(&pa, &pb))
}
