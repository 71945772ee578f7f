//! Doubles with a proven bound on their distance to the exact value: the
//! float filters of the fast paths, and the unit roundoff they are built on.
//!
//! [`Fx`] carries a running error bound (each operation adds its own
//! rounding, N. J. Higham, *Accuracy and Stability of Numerical Algorithms*,
//! SIAM 2002, §3.3): it is a [`Ring`], so the predicates and constructions
//! of the polytope fast path are written once for it and for the exact
//! integers (`num::fixed::Int`), and [`decide`] takes its sign when the bound
//! allows and the integers' otherwise. Two hot loops keep a cheaper
//! a-priori bound of their own, built on the same [`U`]: the point CCD
//! filter's `Fe` (a magnitude and an operation count, Higham's γₖ, §3.1) and
//! the triangle distance's `Ef` (small-integer inputs, no underflow term).

use crate::num::fixed::{int_sign, Int};
use crate::num::ring::Ring;
use crate::num::sign::Sign;

/// The unit round-off of f64, 2⁻⁵³.
pub(crate) const U: f64 = f64::EPSILON / 2.0;
/// An absolute term for underflow: every rounding of a product (or of the
/// bound's own terms) that underflows is off by at most 2⁻¹⁰⁷⁵; 2⁻¹⁰⁶⁰ covers
/// the few of them in one operation.
pub(crate) const ETA: f64 = f64::MIN_POSITIVE / 274_877_906_944.0; // 2^-1022 / 2^38
/// Inflation of a computed bound for the roundings made while computing it.
const K_ADD: f64 = 1.0 + 8.0 * U;
const K_MUL: f64 = 1.0 + 16.0 * U;
/// [`K_MUL`] for the hand-derived bounds of the hot loops.
pub(crate) const K_MUL_PUB: f64 = K_MUL;

/// A double `v` and a bound `e` with `|v − x| ≤ e` for the exact value `x`
/// (running error analysis, N. J. Higham, *Accuracy and Stability of Numerical
/// Algorithms*, SIAM 2002, §3.3).
///
/// Each operation adds its own rounding to the bound: for round to nearest,
/// `|fl(x) − x| ≤ u·|fl(x)|` (normal range) and `≤ 2⁻¹⁰⁷⁵` (underflow), so
///
/// ```text
/// a ± b:  e = (ea + eb + u·|v| + η)·(1 + 8u)
/// a · b:  e = (|ã|·eb + |b̃|·ea + ea·eb + u·|v| + η)·(1 + 16u)
/// ```
///
/// (`ãb̃ − ab = ã(b̃ − b) + (ã − a)b̃ − (ã − a)(b̃ − b)`), with η = 2⁻¹⁰⁶⁰ and
/// the factor covering the roundings of the bound's own few nonnegative terms
/// (`(1 − u)^k·(1 + 2ku) ≥ 1`). An overflow makes `v` or `e` infinite or NaN,
/// and then [`Fx::sign`] decides nothing.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Fx {
    /// The computed value.
    pub v: f64,
    /// The bound on its error.
    pub e: f64,
}

impl Fx {
    /// An exactly known double.
    #[inline]
    pub(crate) fn exact(v: f64) -> Fx {
        Fx { v, e: 0.0 }
    }

    /// The exact sign when the bound decides it.
    #[inline]
    pub(crate) fn sign(self) -> Option<Sign> {
        if self.v > self.e {
            Some(Sign::Positive)
        } else if self.v < -self.e {
            Some(Sign::Negative)
        } else if self.v == 0.0 && self.e == 0.0 {
            Some(Sign::Zero)
        } else {
            None
        }
    }

    /// The product of two exactly known doubles: [`Ring::mul_ref`] of
    /// `Fx::exact(a)` and `Fx::exact(b)` with its zero terms dropped (one
    /// rounding, `u·|v| + η`).
    #[inline(always)]
    pub(crate) fn prod(a: f64, b: f64) -> Fx {
        let v = a * b;
        Fx {
            v,
            e: (U * v.abs() + ETA) * K_MUL,
        }
    }

    /// `self · b` for an exactly known double `b`: [`Ring::mul_ref`]'s bound
    /// with `e_b = 0`.
    #[inline(always)]
    pub(crate) fn mul_f64(&self, b: f64) -> Fx {
        let v = self.v * b;
        Fx {
            v,
            e: (b.abs() * self.e + (U * v.abs() + ETA)) * K_MUL,
        }
    }
}

impl Ring for Fx {
    fn zero() -> Self {
        Fx::exact(0.0)
    }
    fn one() -> Self {
        Fx::exact(1.0)
    }
    fn from_i32(v: i32) -> Self {
        Fx::exact(v as f64)
    }
    #[inline(always)]
    fn add_ref(&self, o: &Self) -> Self {
        let v = self.v + o.v;
        Fx {
            v,
            e: (self.e + o.e + (U * v.abs() + ETA)) * K_ADD,
        }
    }
    #[inline(always)]
    fn sub_ref(&self, o: &Self) -> Self {
        let v = self.v - o.v;
        Fx {
            v,
            e: (self.e + o.e + (U * v.abs() + ETA)) * K_ADD,
        }
    }
    #[inline(always)]
    fn mul_ref(&self, o: &Self) -> Self {
        let v = self.v * o.v;
        Fx {
            v,
            e: (self.v.abs() * o.e + o.v.abs() * self.e + self.e * o.e + (U * v.abs() + ETA))
                * K_MUL,
        }
    }
    #[inline(always)]
    fn neg_ref(&self) -> Self {
        Fx {
            v: -self.v,
            e: self.e,
        }
    }
    #[inline(always)]
    fn abs_ref(&self) -> Self {
        Fx {
            v: self.v.abs(),
            e: self.e,
        }
    }
}

use crate::stats::EXACT_SIGNS;

/// [`EXACT_SIGNS`] so far.
#[allow(dead_code)]
pub(crate) fn exact_signs() -> u64 {
    EXACT_SIGNS.get()
}

/// Count one sign decided on the integers.
pub(crate) fn count_exact_sign() {
    EXACT_SIGNS.add();
}

/// The exact sign of a quantity: the filter's when its bound decides, else
/// `exact()` evaluated on the integers.
#[inline]
pub(crate) fn decide(x: Fx, exact: impl FnOnce() -> Int) -> Sign {
    match x.sign() {
        Some(s) => s,
        None => {
            count_exact_sign();
            int_sign(&exact())
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use num_rational::BigRational;
    use num_traits::Signed;
    use num_traits::Zero;

    fn q(x: f64) -> BigRational {
        BigRational::from_float(x).unwrap()
    }

    /// Random expressions in Fx against exact rationals: the bound holds,
    /// including products that underflow and sums that cancel.
    #[test]
    fn bound_holds_on_random_expressions() {
        let mut s = 12345u64;
        let mut next = || crate::poly::planted::splitmix64(&mut s);
        for round in 0..20000 {
            let scale = [0, -500, 500, -1000, -1070][round % 5];
            let mut vals: Vec<(Fx, BigRational)> = (0..6)
                .map(|_| {
                    let m = (next() >> 11) as f64 / (1u64 << 53) as f64 - 0.5;
                    let x = crate::num::fixed::ldexp(m, scale / 2 - (next() % 8) as i64);
                    (Fx::exact(x), q(x))
                })
                .collect();
            for _ in 0..8 {
                let i = (next() % vals.len() as u64) as usize;
                let j = (next() % vals.len() as u64) as usize;
                let (a, b) = (vals[i].clone(), vals[j].clone());
                if !(a.0.v.is_finite() && b.0.v.is_finite()) {
                    continue;
                }
                let r = match next() % 5 {
                    0 => (a.0.add_ref(&b.0), &a.1 + &b.1),
                    1 => (a.0.sub_ref(&b.0), &a.1 - &b.1),
                    // The products by exactly known doubles.
                    2 => (a.0.mul_f64(b.0.v), &a.1 * q(b.0.v)),
                    3 => (Fx::prod(a.0.v, b.0.v), q(a.0.v) * q(b.0.v)),
                    _ => (a.0.mul_ref(&b.0), &a.1 * &b.1),
                };
                if r.0.v.is_finite() && r.0.e.is_finite() {
                    let err = (q(r.0.v) - &r.1).abs();
                    assert!(err <= q(r.0.e), "{r:?}");
                    if let Some(sg) = r.0.sign() {
                        let exact = Sign::from_ordering(r.1.cmp(&<BigRational as Zero>::zero()));
                        assert_eq!(sg, exact);
                    }
                }
                vals.push(r);
            }
        }
    }
}
