//! Exact predicates: the sign of a polynomial in the input coordinates.
//!
//! Every decision of the crate is the sign of such a polynomial. A predicate is
//! written once, as an [`Expr`] over any [`Ring`], and [`sign_of`] evaluates it in
//! two stages:
//!
//! 1. **Filter**: in [`Interval`] arithmetic with outward rounding. If the
//!    interval excludes zero (or is exactly `[0, 0]`), its sign is the exact sign.
//! 2. **Exact**: otherwise in the scalar's exact ring ([`Dyadic`](crate::Dyadic)
//!    for f32/f64 inputs, `BigRational` for rational inputs), and the fallback
//!    counter [`exact_evaluations`] is incremented.
//!
//! `orient2d` and `orient3d` on float inputs take a faster road: Shewchuk's
//! stage-A static filter, then the adaptive predicates of the `robust` crate —
//! but only where Shewchuk's no-overflow/no-underflow assumption provably holds
//! (every nonzero coordinate between 2^-250 and 2^250 in magnitude; see
//! [`in_shewchuk_range`]). Outside that range `robust` 1.2 was measured to return
//! 0 or NaN (orient3d past about 1e±100, orient2d on subnormals), so those
//! inputs go to the generic interval + exact path instead.
//!
//! References: J. R. Shewchuk, "Adaptive Precision Floating-Point Arithmetic and
//! Fast Robust Geometric Predicates", Discrete & Computational Geometry 18(3),
//! 1997. H. Brönnimann, C. Burnikel, S. Pion, "Interval arithmetic yields efficient
//! dynamic filters for computational geometry", Discrete Applied Mathematics 109,
//! 2001.

mod orient;

pub use orient::{orient2d, orient3d, Orient2d, Orient3d};

use crate::num::interval::Interval;
use crate::num::ring::Ring;
use crate::num::scalar::{ExactRing, Scalar};
use crate::num::sign::Sign;

use crate::stats::ADAPTIVE_EVALS;
use crate::stats::EXACT_EVALS;

/// How many predicate evaluations so far needed the exact big-number fallback
/// (process-wide, all threads). Benchmarks read it before and after a run.
pub fn exact_evaluations() -> u64 {
    EXACT_EVALS.get()
}

/// How many float orient2d/orient3d calls so far were not decided by Shewchuk's
/// stage-A filter and went on to `robust`'s adaptive stages (exact, no big numbers).
pub fn adaptive_evaluations() -> u64 {
    ADAPTIVE_EVALS.get()
}

pub(crate) fn count_exact() {
    EXACT_EVALS.add();
}

pub(crate) fn count_adaptive() {
    ADAPTIVE_EVALS.add();
}

/// A polynomial expression in inputs of type `S`, written once over any ring.
///
/// `eval` must compute the same polynomial whatever the ring: the inputs are
/// brought into the ring with `lift`, and only ring operations follow (no
/// division, no comparison of intermediate values). Absolute values
/// ([`Ring::abs_ref`]) are allowed: the sign of |p| is exact in every ring.
///
/// ```
/// use exact_collision::predicates::{sign_of, Expr};
/// use exact_collision::{Ring, Sign};
/// /// x·y − 1
/// struct XyMinusOne(f64, f64);
/// impl Expr<f64> for XyMinusOne {
///     fn eval<R: Ring, L: Fn(&f64) -> R>(&self, lift: &L) -> R {
///         lift(&self.0).mul_ref(&lift(&self.1)).sub_ref(&R::one())
///     }
/// }
/// assert_eq!(sign_of(&XyMinusOne(3.0, 1.0 / 3.0)), Sign::Negative); // 1/3 rounds down
/// assert_eq!(sign_of(&XyMinusOne(0.5, 2.0)), Sign::Zero);
/// ```
pub trait Expr<S> {
    /// Evaluate the expression in ring `R`.
    fn eval<R: Ring, L: Fn(&S) -> R>(&self, lift: &L) -> R;
}

/// The exact sign of `e`: interval filter first, exact evaluation when needed.
pub fn sign_of<S: Scalar, E: Expr<S> + ?Sized>(e: &E) -> Sign {
    let iv: Interval = e.eval(&|s: &S| s.to_interval());
    if let Some(sign) = iv.sign() {
        return sign;
    }
    count_exact();
    let exact: S::Exact = e.eval(&|s: &S| s.to_exact());
    exact.sign()
}

/// The exact sign of `e`, skipping the filter (for tests and for callers that
/// know the filter would fail).
pub fn sign_exact<S: Scalar, E: Expr<S> + ?Sized>(e: &E) -> Sign {
    let exact: S::Exact = e.eval(&|s: &S| s.to_exact());
    exact.sign()
}

/// Whether every coordinate is 0 or has magnitude in [2^-250, 2^250).
///
/// Inside this range Shewchuk's expansion arithmetic for orient2d/orient3d can
/// neither overflow nor underflow: every input is a multiple of 2^-302 (its
/// lowest bit), so every exact product of three differences is a multiple of
/// 2^-906, far above the subnormal range (2^-1022), and every magnitude stays
/// below 2^(3·251+8), far below 2^1024.
#[inline]
pub fn in_shewchuk_range(coords: &[f64]) -> bool {
    coords.iter().all(|c| {
        let e = ((c.to_bits() >> 52) & 0x7ff) as i32;
        *c == 0.0 || (1023 - 250..1023 + 250).contains(&e)
    })
}
