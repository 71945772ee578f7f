//! Reduction to lowest terms of big rationals: the gcd of big integers by
//! Lehmer's method (the fixed-width binary gcd below 704 bits), and the
//! quotients built on it.

use num_bigint::{BigInt, BigUint};
use num_rational::BigRational;
use num_traits::{One, Zero};

type Q = BigRational;

/// `x / y` (`y ≠ 0`), reduced with [`gcd_lehmer`].
pub(crate) fn div_q(x: &Q, y: &Q) -> Q {
    ratio(x.numer() * y.denom(), x.denom() * y.numer())
}

/// `n / d` in lowest terms (`d ≠ 0`), with Lehmer's gcd ([`gcd_lehmer`]):
/// `num-bigint`'s binary gcd shifts bit by bit and dominated the exact
/// distance.
pub(crate) fn ratio(n: BigInt, d: BigInt) -> Q {
    let (n, d) = if d.sign() == num_bigint::Sign::Minus {
        (-n, -d)
    } else {
        (n, d)
    };
    if n.is_zero() {
        return <Q as Zero>::zero();
    }
    let g = gcd_lehmer(n.magnitude(), d.magnitude());
    if g.is_one() {
        return Q::new_raw(n, d);
    }
    let g = BigInt::from(g);
    Q::new_raw(n / &g, d / &g)
}

/// gcd(a, b): the fixed-width binary gcd ([`crate::num::fixed::gcd`]) when both
/// fit 704 bits, else Lehmer's method (D. E. Knuth, *The Art of Computer
/// Programming* vol. 2, 3rd ed., 1997, §4.5.2, Algorithm L): the quotient
/// sequence of the leading 63 bits is applied to the full numbers at once,
/// while Collins' condition (both cofactor quotients agree) holds; a full
/// division step otherwise. Word-sized remainders finish in `u64`.
pub(crate) fn gcd_lehmer(a: &BigUint, b: &BigUint) -> BigUint {
    // Within the fixed width: the stack-integer binary gcd.
    const FIXED: u64 = 64 * (crate::num::fixed::L as u64 - 1);
    if a.bits() <= FIXED && b.bits() <= FIXED {
        let n = crate::num::fixed::Nat::from_biguint;
        return crate::num::fixed::gcd(&n(a), &n(b)).to_biguint();
    }
    let (mut a, mut b) = if a >= b {
        (a.clone(), b.clone())
    } else {
        (b.clone(), a.clone())
    };
    while b.bits() > 64 {
        let shift = a.bits() - 63;
        let top = |x: &BigUint| -> i128 { u64::try_from(x >> shift).expect("63 bits") as i128 };
        let (mut x, mut y) = (top(&a), top(&b));
        let (mut ca, mut cb, mut cc, mut cd) = (1i128, 0i128, 0i128, 1i128);
        while y + cc != 0 && y + cd != 0 {
            let q = (x + ca) / (y + cc);
            if q != (x + cb) / (y + cd) {
                break;
            }
            (ca, cc) = (cc, ca - q * cc);
            (cb, cd) = (cd, cb - q * cd);
            (x, y) = (y, x - q * y);
        }
        if cb == 0 {
            let r = &a % &b;
            (a, b) = (b, r);
        } else {
            let (sa, sb) = (BigInt::from(a), BigInt::from(b));
            let na = BigInt::from(ca) * &sa + BigInt::from(cb) * &sb;
            let nb = BigInt::from(cc) * &sa + BigInt::from(cd) * &sb;
            a = na.into_parts().1;
            b = nb.into_parts().1;
        }
    }
    if b.is_zero() {
        return a;
    }
    let r = u64::try_from(&a % &b).expect("below b");
    let mut x = u64::try_from(&b).expect("64 bits");
    let mut y = r;
    while y != 0 {
        (x, y) = (y, x % y);
    }
    BigUint::from(x)
}

#[cfg(test)]
mod gcd_tests {
    use super::*;
    use num_integer::Integer;

    #[test]
    fn lehmer_gcd_equals_binary_gcd() {
        let mut state = 3u64;
        let mut word = || {
            state = state
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            state
        };
        for round in 0..3000 {
            let mut num = |words: usize| {
                let mut v = BigUint::zero();
                for _ in 0..words {
                    v = (v << 64usize) + BigUint::from(word() >> (word() % 64));
                }
                v
            };
            let g = num(1 + round % 4);
            // Up to 17 words: both the fixed-width gcd and the Lehmer loop.
            let (x, y) = (num(round % 14) * &g, num(round % 11) * &g);
            assert_eq!(gcd_lehmer(&x, &y), x.gcd(&y), "{x} {y}");
            let (n, d) = (
                BigInt::from(x) - BigInt::from(7),
                -BigInt::from(y) - BigInt::from(1),
            );
            if !d.is_zero() {
                assert_eq!(ratio(n.clone(), d.clone()), Q::new(n, d));
            }
        }
    }
}
