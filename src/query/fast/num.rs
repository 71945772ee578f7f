//! The two number types of the fast path: [`Fx`], a double with a proven bound
//! on its distance to the exact value (the filter), and the fixed-width exact
//! integer [`Int`] (the fallback and the constructions), both as [`Ring`]s so
//! that every predicate and construction is written once.

use crate::fixed::{Int, Nat};
use crate::ring::Ring;
use crate::sign::Sign;
use crate::vector::Vec3;
use num_bigint::{BigInt, BigUint, Sign as BSign};
use num_rational::BigRational;
use num_traits::Zero;

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

impl Ring for Int {
    fn zero() -> Self {
        Int::from_i128(0)
    }
    fn one() -> Self {
        Int::from_i128(1)
    }
    fn from_i32(v: i32) -> Self {
        Int::from_i128(v as i128)
    }
    #[inline]
    fn add_ref(&self, o: &Self) -> Self {
        self.add(o)
    }
    #[inline]
    fn sub_ref(&self, o: &Self) -> Self {
        self.sub(o)
    }
    #[inline]
    fn mul_ref(&self, o: &Self) -> Self {
        self.mul(o)
    }
    #[inline]
    fn neg_ref(&self) -> Self {
        self.neg()
    }
    #[inline]
    fn abs_ref(&self) -> Self {
        if self.is_neg() {
            self.neg()
        } else {
            *self
        }
    }
}

/// An exact integer as a `BigInt`.
pub(crate) fn big(x: &Int) -> BigInt {
    let s = if x.is_neg() {
        BSign::Minus
    } else {
        BSign::Plus
    };
    BigInt::from_biguint(s, x.mag().to_biguint())
}

/// The sign of an exact integer.
#[inline]
pub(crate) fn int_sign(x: &Int) -> Sign {
    Sign::from_i32(x.signum())
}

/// `(m, e)` with `|x| ≈ m·2^e`, `m` the top 64 bits of `|x|` (truncated:
/// relative error below 2⁻⁶³), `m = 0` for zero.
fn top_bits(x: &Nat) -> (u64, i64) {
    let b = x.bits();
    if b <= 64 {
        (x.to_u64().unwrap_or(0), 0)
    } else {
        let s = b - 64;
        (x.shr(s).to_u64().unwrap_or(0), s as i64)
    }
}

/// `2^e` for `−1022 ≤ e ≤ 1023`, from its bits.
#[inline]
fn exp2(e: i64) -> f64 {
    f64::from_bits(((e + 1023) as u64) << 52)
}

/// `x·2^e`, applied in steps so that no step overflows or underflows before
/// the last (each step a multiplication by an exact power of two).
pub(crate) fn ldexp(mut x: f64, mut e: i64) -> f64 {
    if (-1000..=1000).contains(&e) {
        return x * exp2(e);
    }
    while e > 1000 {
        x *= exp2(1000);
        e -= 1000;
    }
    while e < -1000 {
        x *= exp2(-1000);
        e += 1000;
    }
    x * exp2(e)
}

/// `n / d · 2^p` rounded to a double (within 3 ulps in the normal range; the
/// last rounding to a subnormal adds at most half the subnormal spacing).
pub(crate) fn ratio_f64(n: &Int, d: &Nat, p: i64) -> f64 {
    let (mn, en) = top_bits(n.mag());
    if mn == 0 {
        return 0.0;
    }
    let (md, ed) = top_bits(d);
    let q = mn as f64 / md as f64;
    let r = ldexp(q, en - ed + p);
    if n.is_neg() {
        -r
    } else {
        r
    }
}

/// The dyadic `x·2^p` in lowest terms (trailing zeros only: no gcd).
pub(crate) fn dyadic(x: &Int, p: i64) -> BigRational {
    if x.signum() == 0 {
        return <BigRational as Zero>::zero();
    }
    let m = x.mag();
    let t = m.trailing_zeros();
    let e = p + t as i64;
    let s = if x.is_neg() {
        BSign::Minus
    } else {
        BSign::Plus
    };
    if let (Some(v), true) = (m.to_u128(), e <= 0) {
        // The usual case (a vertex): the odd part and the power of two
        // straight from machine words.
        let odd = v >> t;
        let odd = match u64::try_from(odd) {
            Ok(w) => BigUint::from(w),
            Err(_) => BigUint::from(odd),
        };
        return BigRational::new_raw(
            BigInt::from_biguint(s, odd),
            BigInt::from_biguint(BSign::Plus, pow2((-e) as u64)),
        );
    }
    let odd = m.shr(t);
    if e >= 0 {
        BigRational::from_integer(BigInt::from_biguint(s, odd.shl_big(e as u64)))
    } else {
        BigRational::new_raw(
            BigInt::from_biguint(s, odd.to_biguint()),
            BigInt::from_biguint(BSign::Plus, Nat::from_u128(1).shl_big((-e) as u64)),
        )
    }
}

/// `2^k` (one word without a shift of a big number when it fits).
fn pow2(k: u64) -> BigUint {
    if k < 64 {
        BigUint::from(1u64 << k)
    } else if k < 128 {
        BigUint::from(1u128 << k)
    } else {
        BigUint::from(1u32) << k
    }
}

/// A dyadic point `X·2^p`.
pub(crate) fn dyadic_point(x: &Vec3<Int>, p: i64) -> Vec3<BigRational> {
    Vec3::new(dyadic(&x.x, p), dyadic(&x.y, p), dyadic(&x.z, p))
}

/// A double as the float scalar `S` (f64 itself; f32 rounded to nearest
/// from the double).
pub(crate) fn cast<S: crate::scalar::Scalar>(x: f64) -> S {
    use std::any::Any;
    if let Some(v) = (&x as &dyn Any).downcast_ref::<S>() {
        return v.clone();
    }
    let y = x as f32;
    if let Some(v) = (&y as &dyn Any).downcast_ref::<S>() {
        return v.clone();
    }
    S::from_rational(&BigRational::from_float(x).unwrap_or_default())
}

/// How many signs the filter could not decide and the integers did
/// (process-wide; a count for tests and measurements).
static EXACT_SIGNS: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);

/// [`EXACT_SIGNS`] so far.
#[allow(dead_code)]
pub(crate) fn exact_signs() -> u64 {
    EXACT_SIGNS.load(std::sync::atomic::Ordering::Relaxed)
}

/// Count one sign decided on the integers.
pub(crate) fn count_exact_sign() {
    EXACT_SIGNS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
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
    use num_traits::Signed;

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
                    let x = crate::query::fast::num::ldexp(m, scale / 2 - (next() % 8) as i64);
                    (Fx::exact(x), q(x))
                })
                .collect();
            for _ in 0..8 {
                let i = (next() % vals.len() as u64) as usize;
                let j = (next() % vals.len() as u64) as usize;
                let (a, b) = (vals[i].clone(), vals[j].clone());
                let r = match next() % 3 {
                    0 => (a.0.add_ref(&b.0), &a.1 + &b.1),
                    1 => (a.0.sub_ref(&b.0), &a.1 - &b.1),
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

    #[test]
    fn dyadic_and_ratio_conversions() {
        let x = Int::from_i128(-12);
        assert_eq!(dyadic(&x, -3), BigRational::new((-3).into(), 2.into()));
        assert_eq!(dyadic(&x, 2), BigRational::from_integer((-48).into()));
        assert_eq!(dyadic(&Int::from_i128(0), 5), <BigRational as Zero>::zero());
        let n = Int::from_i128(-(1i128 << 100) - 12345);
        let d = Nat::from_u128(3);
        let got = ratio_f64(&n, &d, -7);
        let want = -((2f64.powi(100) + 12345.0) / 3.0) / 128.0;
        assert!((got - want).abs() <= 4.0 * f64::EPSILON * want.abs());
    }
}
