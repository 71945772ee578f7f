//! Signed integers of a fixed number of 64-bit words, two's complement, on
//! the stack: the constructions of the fast paths in exactly the width their
//! degree needs.
//!
//! [`crate::num::fixed::Int`] keeps 768 bits and a length in every value, so a
//! product of two 120-bit differences costs a 104-byte clear, a general
//! multiplication and a copy. The closest points of two aligned shapes are
//! polynomials of known degree in coordinates of known width (below 2¹²⁰ for
//! the fast path's inputs): a value of degree `k` fits `⌈(120k + 3)/64⌉`
//! words, and [`Wide<N>`] holds exactly that, with no length to track.
//!
//! Every operation is exact as long as the caller's bound holds (the
//! result's magnitude below `2^(64N − 1)`); the bounds are stated where the
//! values are built, and debug builds check every operation for overflow.
//! Written by hand because the products here mix widths
//! (`Wide<2> × Wide<8> → Wide<10>`): a crate of const-generic fixed-width
//! integers (`bnum`'s `BInt<N>`) multiplies two values of one width, so each
//! product would be cast up to the result's width first and cost `K²` word
//! products instead of `N·M`.

use crate::num::fixed::Int;

/// A signed integer in `N` little-endian 64-bit words, two's complement
/// (magnitude below `2^(64N − 1)`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Wide<const N: usize>(pub(crate) [u64; N]);

impl<const N: usize> Wide<N> {
    pub(crate) const ZERO: Wide<N> = Wide([0; N]);

    /// `v`, sign-extended (`N ≥ 2`).
    #[inline]
    pub(crate) fn from_i128(v: i128) -> Self {
        let mut r = [if v < 0 { u64::MAX } else { 0 }; N];
        r[0] = v as u64;
        r[1] = (v >> 64) as u64;
        Wide(r)
    }

    #[inline]
    pub(crate) fn is_neg(&self) -> bool {
        (self.0[N - 1] as i64) < 0
    }

    #[inline]
    pub(crate) fn is_zero(&self) -> bool {
        self.0.iter().all(|&w| w == 0)
    }

    #[inline]
    pub(crate) fn add(&self, o: &Self) -> Self {
        let mut r = [0u64; N];
        let mut c = false;
        for ((r, &x), &y) in r.iter_mut().zip(&self.0).zip(&o.0) {
            let (s, c1) = x.overflowing_add(y);
            let (s, c2) = s.overflowing_add(c as u64);
            *r = s;
            c = c1 | c2;
        }
        let r = Wide(r);
        debug_assert!(
            self.is_neg() != o.is_neg() || r.is_neg() == self.is_neg(),
            "Wide<{N}> overflow"
        );
        r
    }

    #[inline]
    pub(crate) fn neg(&self) -> Self {
        let mut r = [0u64; N];
        let mut c = true;
        for (r, &x) in r.iter_mut().zip(&self.0) {
            let (s, c1) = (!x).overflowing_add(c as u64);
            *r = s;
            c = c1;
        }
        Wide(r)
    }

    #[inline]
    pub(crate) fn sub(&self, o: &Self) -> Self {
        self.add(&o.neg())
    }

    /// The magnitude's words and whether the value is negative.
    #[inline]
    fn magnitude(&self) -> ([u64; N], bool) {
        if self.is_neg() {
            (self.neg().0, true)
        } else {
            (self.0, false)
        }
    }

    /// ±(the product of the magnitudes `a` (words) and `b` (two words)),
    /// for `a.len() + 2 ≤ N`.
    fn from_product(a: &[u64], b: u128, neg: bool) -> Self {
        let bw = [b as u64, (b >> 64) as u64];
        let mut r = [0u64; N];
        for (i, &x) in a.iter().enumerate() {
            let mut carry = 0u128;
            for (j, &y) in bw.iter().enumerate() {
                let t = u128::from(x) * u128::from(y) + u128::from(r[i + j]) + carry;
                r[i + j] = t as u64;
                carry = t >> 64;
            }
            r[i + 2] = carry as u64;
        }
        let w = Wide(r);
        if neg {
            w.neg()
        } else {
            w
        }
    }

    /// `a·b` exactly (`N ≥ 4`).
    pub(crate) fn mul_i128(a: i128, b: i128) -> Self {
        let ua = a.unsigned_abs();
        Self::from_product(
            &[ua as u64, (ua >> 64) as u64],
            b.unsigned_abs(),
            (a < 0) != (b < 0),
        )
    }

    /// `self·b` exactly, for `|self| < 2²⁵⁶` and `N ≥ 6` (a product of two
    /// `i128`s, or a sum of two, times a third).
    pub(crate) fn mul_by_i128(&self, b: i128) -> Self {
        let (m, neg) = self.magnitude();
        debug_assert!(m[4..].iter().all(|&w| w == 0), "operand beyond 256 bits");
        Self::from_product(&m[..4], b.unsigned_abs(), neg != (b < 0))
    }

    /// The value as a `BigInt`.
    pub(crate) fn to_bigint(self) -> num_bigint::BigInt {
        let (m, neg) = self.magnitude();
        let digits: Vec<u32> = m
            .iter()
            .flat_map(|&w| [w as u32, (w >> 32) as u32])
            .collect();
        let mag = num_bigint::BigUint::new(digits);
        let sign = if neg {
            num_bigint::Sign::Minus
        } else {
            num_bigint::Sign::Plus
        };
        num_bigint::BigInt::from_biguint(sign, mag)
    }

    /// The same value in `M ≥ N` words.
    #[inline]
    pub(crate) fn widen<const M: usize>(&self) -> Wide<M> {
        debug_assert!(M >= N);
        let mut r = [if self.is_neg() { u64::MAX } else { 0 }; M];
        r[..N].copy_from_slice(&self.0);
        Wide(r)
    }

    /// `self · o` in `K` words; the caller's bound keeps the product below
    /// `2^(64K − 1)` (checked in debug builds).
    #[inline]
    pub(crate) fn mul<const M: usize, const K: usize>(&self, o: &Wide<M>) -> Wide<K> {
        let (a, na) = self.magnitude();
        let (b, nb) = o.magnitude();
        // Schoolbook on the magnitudes, the words beyond K dropped (zero
        // under the bound).
        let mut r = [0u64; K];
        for (i, &x) in a.iter().enumerate() {
            if x == 0 || i >= K {
                continue;
            }
            let mut c = 0u128;
            for (j, &y) in b.iter().enumerate() {
                if i + j >= K {
                    debug_assert!(y == 0 && c == 0, "Wide<{K}> product overflow");
                    break;
                }
                let t = u128::from(x) * u128::from(y) + u128::from(r[i + j]) + c;
                r[i + j] = t as u64;
                c = t >> 64;
            }
            if i + M < K {
                r[i + M] = c as u64;
            } else {
                debug_assert!(c == 0, "Wide<{K}> product overflow");
            }
        }
        let r = Wide(r);
        debug_assert!(!r.is_neg(), "Wide<{K}> product overflow");
        if na != nb {
            r.neg()
        } else {
            r
        }
    }

    /// An [`Int`] whose magnitude is below `2^(64N − 1)` (panics otherwise:
    /// a caller's bound is wrong).
    pub(crate) fn from_int(x: &Int) -> Self {
        let w = x.mag_words();
        assert!(
            w.len() < N || w.len() == N && (w[N - 1] as i64) >= 0,
            "Wide<{N}> overflow"
        );
        let mut r = [0u64; N];
        r[..w.len()].copy_from_slice(w);
        let r = Wide(r);
        if x.is_neg() {
            r.neg()
        } else {
            r
        }
    }

    /// The value as the 768-bit [`Int`] (`N ≤ 12`).
    pub(crate) fn to_int(self) -> Int {
        let (m, neg) = self.magnitude();
        Int::from_words(neg, &m)
    }

    /// The magnitude as the 768-bit [`Nat`](crate::num::fixed::Nat).
    pub(crate) fn mag_nat(self) -> crate::num::fixed::Nat {
        *self.to_int().mag()
    }
}

/// A vector of three [`Wide`]s.
pub(crate) type V<const N: usize> = [Wide<N>; 3];

/// `a × b` for `i128` vectors with components below 2¹²⁰ in magnitude
/// (each component below 2²⁴¹).
#[inline]
pub(crate) fn cross(a: &[i128; 3], b: &[i128; 3]) -> V<4> {
    let m = |x: i128, y: i128| Wide::<2>::from_i128(x).mul::<2, 4>(&Wide::from_i128(y));
    [
        m(a[1], b[2]).sub(&m(a[2], b[1])),
        m(a[2], b[0]).sub(&m(a[0], b[2])),
        m(a[0], b[1]).sub(&m(a[1], b[0])),
    ]
}

/// `a · b` in `K` words (the caller's bound).
#[inline]
pub(crate) fn dot<const N: usize, const M: usize, const K: usize>(a: &V<N>, b: &V<M>) -> Wide<K> {
    a[0].mul::<M, K>(&b[0])
        .add(&a[1].mul::<M, K>(&b[1]))
        .add(&a[2].mul::<M, K>(&b[2]))
}

/// An [`Int`] vector as [`Wide`]s (each component's bound is the caller's).
pub(crate) fn from_ints<const N: usize>(v: &crate::vector::Vec3<Int>) -> V<N> {
    [
        Wide::from_int(&v.x),
        Wide::from_int(&v.y),
        Wide::from_int(&v.z),
    ]
}

/// An `i128` vector as a vector of two-word [`Wide`]s.
#[inline]
pub(crate) fn w2(a: &[i128; 3]) -> V<2> {
    a.map(Wide::from_i128)
}

/// `a − b` componentwise for `i128` vectors (the caller's bound: no overflow).
#[inline]
pub(crate) fn diff(a: &[i128; 3], b: &[i128; 3]) -> [i128; 3] {
    [a[0] - b[0], a[1] - b[1], a[2] - b[2]]
}

impl<const N: usize> Wide<N> {
    /// −1, 0 or 1.
    #[inline]
    pub(crate) fn signum(&self) -> i32 {
        if self.is_neg() {
            -1
        } else if self.is_zero() {
            0
        } else {
            1
        }
    }

    /// |self|; the caller's bound keeps it below `2^(64N − 1)` (the
    /// negation of −2^(64N − 1) is the one value that would not fit).
    #[inline]
    pub(crate) fn abs(&self) -> Self {
        if self.is_neg() {
            self.neg()
        } else {
            *self
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use num_bigint::BigInt;

    fn big<const N: usize>(x: &Wide<N>) -> BigInt {
        x.to_int().to_bigint()
    }

    /// Sums, differences, negations, widenings and mixed-width products
    /// against `BigInt`, on random values of every size up to the bounds,
    /// powers of two and the extremes of each width.
    #[test]
    fn arithmetic_matches_bigint() {
        let mut s = 0x9e37_79b9_7f4a_7c15u64;
        let mut next = move || crate::poly::planted::splitmix64(&mut s);
        // A random value below 2^bits in magnitude, either sign.
        let mut val = |bits: u32, k: u64| -> (Wide<4>, BigInt) {
            let mut w = [0u64; 4];
            for x in w.iter_mut() {
                *x = next();
            }
            let mut m = BigInt::from(0);
            for (i, x) in w.iter().enumerate() {
                m += BigInt::from(*x) << (64 * i);
            }
            let m = match k % 5 {
                0 => (BigInt::from(1) << bits) - 1,
                1 => BigInt::from(1) << (k as u32 % bits),
                2 => BigInt::from(0),
                _ => m % (BigInt::from(1) << bits),
            };
            let v = if next() % 2 == 0 { -m } else { m };
            let (sign, mag) = v.to_u64_digits();
            let mut words = [0u64; 4];
            words[..mag.len()].copy_from_slice(&mag);
            let p = Wide(words);
            let w = if sign == num_bigint::Sign::Minus {
                p.neg()
            } else {
                p
            };
            (w, v)
        };
        for k in 0..4000u64 {
            let bits = 1 + (k % 250) as u32;
            let (a, ba) = val(bits, k);
            let (b, bb) = val(bits, k / 7);
            assert_eq!(big(&a), ba);
            assert_eq!(big(&a.add(&b)), &ba + &bb);
            assert_eq!(big(&a.sub(&b)), &ba - &bb);
            assert_eq!(big(&a.neg()), -&ba);
            assert_eq!(big(&a.widen::<7>()), ba);
            let p: Wide<8> = a.mul(&b);
            assert_eq!(big(&p), &ba * &bb);
            let p3: Wide<12> = p.mul(&b);
            assert_eq!(big(&p3), &ba * &bb * &bb);
            let narrow = Wide::<2>::from_i128((k as i128 - 2000) << (k % 100));
            let q: Wide<6> = narrow.mul(&a);
            assert_eq!(big(&q), BigInt::from((k as i128 - 2000) << (k % 100)) * &ba);
            assert_eq!(a.is_neg(), ba.sign() == num_bigint::Sign::Minus);
            assert_eq!(a.is_zero(), ba.sign() == num_bigint::Sign::NoSign);
        }
    }

    /// `cross`, `dot` and `diff` at the fast path's bounds: components of
    /// ±(2¹²⁰ − 1).
    #[test]
    fn vector_helpers_at_the_bounds() {
        let m = (1i128 << 120) - 1;
        let a = [m, -m, m];
        let b = [-m, -m, m];
        let c = cross(&a, &b);
        let bi = |x: i128| BigInt::from(x);
        assert_eq!(big(&c[0]), bi(-m) * bi(m) - bi(m) * bi(-m));
        assert_eq!(big(&c[1]), bi(m) * bi(-m) - bi(m) * bi(m));
        assert_eq!(big(&c[2]), bi(m) * bi(-m) - bi(-m) * bi(-m));
        let d: Wide<8> = dot(&c, &c);
        let want: BigInt = c.iter().map(|x| big(x) * big(x)).sum();
        assert_eq!(big(&d), want);
        let e: Wide<4> = dot(&w2(&a), &w2(&b));
        assert_eq!(big(&e), bi(m) * bi(-m) + bi(-m) * bi(-m) + bi(m) * bi(m));
        assert_eq!(diff(&a, &b), [2 * m, 0, 0]);
    }
}
