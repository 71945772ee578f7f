//! `Ring`: the arithmetic every number type of the crate shares.
//!
//! Predicates are written once over `R: Ring` and evaluated three ways: with the
//! input's own type (a construction), with [`Interval`](crate::Interval) (a certified
//! filter) and with an exact type ([`Dyadic`](crate::Dyadic) or `BigRational`).
//! All operations borrow their operands: exact code never clones a big number to
//! multiply it.

use num_bigint::BigInt;
use num_integer::Integer;
use num_rational::BigRational;
use num_traits::{One, Signed, Zero};
use std::fmt::Debug;

/// A commutative ring with borrowed operations.
///
/// ```
/// use exact_collision::Ring;
/// let a = 3.0f64;
/// assert_eq!(a.mul_ref(&a).sub_ref(&1.0), 8.0);
/// ```
pub trait Ring: Clone + Debug {
    /// The additive identity.
    fn zero() -> Self;
    /// The multiplicative identity.
    fn one() -> Self;
    /// A small integer (exact in every implementation for |v| ≤ 2^24).
    fn from_i32(v: i32) -> Self;
    /// `self + o`.
    fn add_ref(&self, o: &Self) -> Self;
    /// `self - o`.
    fn sub_ref(&self, o: &Self) -> Self;
    /// `self * o`.
    fn mul_ref(&self, o: &Self) -> Self;
    /// `-self`.
    fn neg_ref(&self) -> Self;
    /// `|self|`.
    fn abs_ref(&self) -> Self;
    /// `self * self`.
    fn square(&self) -> Self {
        self.mul_ref(self)
    }
}

macro_rules! float_ring {
    ($t:ty) => {
        impl Ring for $t {
            #[inline]
            fn zero() -> Self {
                0.0
            }
            #[inline]
            fn one() -> Self {
                1.0
            }
            #[inline]
            fn from_i32(v: i32) -> Self {
                v as $t
            }
            #[inline]
            fn add_ref(&self, o: &Self) -> Self {
                self + o
            }
            #[inline]
            fn sub_ref(&self, o: &Self) -> Self {
                self - o
            }
            #[inline]
            fn mul_ref(&self, o: &Self) -> Self {
                self * o
            }
            #[inline]
            fn neg_ref(&self) -> Self {
                -self
            }
            #[inline]
            fn abs_ref(&self) -> Self {
                self.abs()
            }
        }
    };
}
float_ring!(f32);
float_ring!(f64);

impl Ring for BigRational {
    fn zero() -> Self {
        <BigRational as Zero>::zero()
    }
    fn one() -> Self {
        <BigRational as One>::one()
    }
    fn from_i32(v: i32) -> Self {
        BigRational::from_integer(BigInt::from(v))
    }
    fn add_ref(&self, o: &Self) -> Self {
        rat_add(self, o, false)
    }
    fn sub_ref(&self, o: &Self) -> Self {
        rat_add(self, o, true)
    }
    fn mul_ref(&self, o: &Self) -> Self {
        rat_mul(self, o)
    }
    fn neg_ref(&self) -> Self {
        BigRational::new_raw(-self.numer(), self.denom().clone())
    }
    fn abs_ref(&self) -> Self {
        if self.is_negative() {
            self.neg_ref()
        } else {
            self.clone()
        }
    }
}

/// a/b · c/d with the cross gcds (Knuth, TAOCP vol. 2, 4.5.1): the result is in lowest
/// terms without a final gcd, and no operand is cloned.
fn rat_mul(a: &BigRational, b: &BigRational) -> BigRational {
    if a.is_zero() || b.is_zero() {
        return <BigRational as Zero>::zero();
    }
    let (an, ad, bn, bd) = (a.numer(), a.denom(), b.numer(), b.denom());
    if ad.is_one() && bd.is_one() {
        return BigRational::new_raw(an * bn, BigInt::one());
    }
    let g1 = an.gcd(bd);
    let g2 = bn.gcd(ad);
    let n = if g1.is_one() { an.clone() } else { an / &g1 }
        * if g2.is_one() { bn.clone() } else { bn / &g2 };
    let d = if g2.is_one() { ad.clone() } else { ad / &g2 }
        * if g1.is_one() { bd.clone() } else { bd / &g1 };
    BigRational::new_raw(n, d)
}

/// a/b ± c/d by Henrici's method (Knuth, TAOCP vol. 2, 4.5.1): one gcd of the
/// denominators, one small gcd after, the result in lowest terms.
fn rat_add(a: &BigRational, b: &BigRational, subtract: bool) -> BigRational {
    let (an, ad, bn, bd) = (a.numer(), a.denom(), b.numer(), b.denom());
    let comb = |x: BigInt, y: BigInt| if subtract { x - y } else { x + y };
    if ad.is_one() && bd.is_one() {
        return BigRational::new_raw(comb(an.clone(), bn.clone()), BigInt::one());
    }
    let g = ad.gcd(bd);
    if g.is_one() {
        let n = comb(an * bd, bn * ad);
        return BigRational::new_raw(n, ad * bd);
    }
    let t = comb(an * (bd / &g), bn * (ad / &g));
    if t.is_zero() {
        return <BigRational as Zero>::zero();
    }
    let g2 = t.gcd(&g);
    if g2.is_one() {
        BigRational::new_raw(t, (ad / &g) * bd)
    } else {
        BigRational::new_raw(t / &g2, (ad / &g) * (bd / &g2))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn r(n: i64, d: i64) -> BigRational {
        BigRational::new(n.into(), d.into())
    }

    #[test]
    fn rational_ops_match_num_rational() {
        let vals = [
            r(3, 4),
            r(-5, 6),
            r(7, 1),
            r(0, 1),
            r(-9, 10),
            r(12, 8),
            r(1, 3),
        ];
        for a in &vals {
            for b in &vals {
                let s = a.add_ref(b);
                assert_eq!(s, a + b);
                assert_eq!(s.denom(), (a + b).denom(), "lowest terms");
                assert_eq!(a.sub_ref(b), a - b);
                assert_eq!(a.mul_ref(b), a * b);
                assert_eq!(a.mul_ref(b).denom(), (a * b).denom());
            }
        }
    }
}
