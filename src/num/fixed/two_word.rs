//! Odd moduli of one, two and four words, without `Nat` temporaries: the
//! gcd of two-word numbers, residues modulo a word with its inverse given
//! and modulo four words, Montgomery products modulo two words, exact
//! division by a known odd divisor of one or two words, and products with a
//! two-word number. The lowest-terms reductions of the pose distance
//! (`Lowest`) run on these: a vertex pair's factors' odd parts are below
//! 2¹²⁶ (an edge pair's W parts below 2²⁵³), and the common parts h with
//! the numerators are mostly 1 or a product of a few small primes.

use super::{gcd_u64, mul_two, neg_inv_word, Nat, L};

/// `gcd(a, b)` for odd `a` and any `b` (`gcd(a, 0) = a`): Stein's binary
/// method in `u128` while either number has two words, then [`gcd_u64`].
///
/// With both odd, `gcd(x, y) = gcd(min, |x − y|/2^k)` (the difference is
/// even and the gcd odd, so the halvings keep it), and the larger of the
/// pair falls strictly (to `min`, or to at most `(max − min)/2`): the loop
/// ends, at `x = y` (the gcd) or with both below 2⁶⁴.
pub(crate) fn gcd_two(a: u128, b: u128) -> u128 {
    debug_assert!(a & 1 == 1);
    if b == 0 {
        return a;
    }
    let (mut x, mut y) = (a, b >> b.trailing_zeros());
    while (x | y) >> 64 != 0 {
        let d = x.abs_diff(y);
        if d == 0 {
            return x;
        }
        x = x.min(y);
        y = d >> d.trailing_zeros();
    }
    gcd_u64(x as u64, y as u64) as u128
}

/// `m⁻¹ mod 2¹²⁸` for odd `m`: the word inverse ([`neg_inv_word`]) lifted
/// by one Newton step (`i ← i·(2 − m·i)` doubles the correct low bits,
/// 64 → 128).
pub(crate) fn inv_two(m: u128) -> u128 {
    debug_assert!(m & 1 == 1);
    let i = neg_inv_word(m as u64).wrapping_neg() as u128;
    i.wrapping_mul(2u128.wrapping_sub(m.wrapping_mul(i)))
}

/// `x / g` for an odd `g` that divides `x`: `x·g⁻¹ mod 2¹²⁸` (the
/// quotient is below 2¹²⁸, and the only number below 2¹²⁸ that g times is
/// x modulo 2¹²⁸, g being a unit there).
pub(crate) fn div_exact_two(x: u128, g: u128) -> u128 {
    debug_assert!(g & 1 == 1 && x % g == 0);
    x.wrapping_mul(inv_two(g))
}

/// `r < m` with `r ≡ x·2^(−64n) (mod m)` for the words `x` (`n` of them),
/// an odd `m > 1` and `minv = −m⁻¹ mod 2⁶⁴` (computed once by the caller;
/// [`Nat::residue_odd`] is this with its own): Montgomery's reduction one
/// word at a time from the lowest (`r ← (r + xᵢ + q·m)/2⁶⁴` with `q`
/// making the low word vanish; P. L. Montgomery, Math. Comp. 44, 1985).
/// `T = r + xᵢ` is below 2⁶⁵ and `(T + q·m)/2⁶⁴ < m + 2`: one conditional
/// subtraction keeps `r < m`.
#[inline]
pub(crate) fn residue_word(x: &[u64], m: u64, minv: u64) -> u64 {
    debug_assert!(m & 1 == 1 && m > 1 && m.wrapping_mul(minv) == u64::MAX);
    let mut r = 0u64;
    for &xi in x {
        let (t, c) = r.overflowing_add(xi);
        let q = t.wrapping_mul(minv);
        let hi = ((q as u128 * m as u128) >> 64) as u64;
        // t + lo(q·m) is 0 or 2⁶⁴ (the low words cancel).
        let u = c as u128 + hi as u128 + (t != 0) as u128;
        r = if u >= m as u128 {
            (u - m as u128) as u64
        } else {
            u as u64
        };
    }
    r
}

/// `(o, −o⁻¹ mod 2⁶⁴)` as four little-endian words when `m` is odd with
/// 2¹²⁷ ≤ m < 2²⁵⁵ (the moduli of [`residue_four`] that
/// `fixed::two_word_modulus` leaves), else `None`.
pub(crate) fn four_word_modulus(m: &Nat) -> Option<([u64; 4], u64)> {
    let ok = m.n >= 2 && m.n <= 4 && m.d[0] & 1 == 1 && m.bits() >= 128 && m.bits() <= 255;
    ok.then(|| ([m.d[0], m.d[1], m.d[2], m.d[3]], neg_inv_word(m.d[0])))
}

/// `r < o` with `r ≡ x·2^(−64n) (mod o)` for the words `x` (`n` of them)
/// and an odd `o < 2²⁵⁵` of four words with `minv = −o⁻¹ mod 2⁶⁴`
/// ([`four_word_modulus`]): Montgomery's reduction one word at a time from
/// the lowest, as `fixed::residue_two` with a four-word modulus.
///
/// The running r stays at most o (not below it: no subtraction per step).
/// Each step takes `T = r + xᵢ ≤ o + 2⁶⁴ − 1` (below 2²⁵⁶: four words)
/// and `q = T₀·minv mod 2⁶⁴`, so that 2⁶⁴ divides `T + q·o`, which is at
/// most `o + 2⁶⁴ − 1 + (2⁶⁴ − 1)·o = 2⁶⁴·(o + 1) − 1` (five words): the
/// quotient by 2⁶⁴ is at most o again. An r = o at the end is 0. Each step
/// multiplies by 2^(−64) modulo o, a unit: `r = 0` exactly when o divides
/// x, and `gcd(o, r) = gcd(o, x)`.
pub(crate) fn residue_four(x: &[u64], o: &[u64; 4], minv: u64) -> [u64; 4] {
    debug_assert!(o[0] & 1 == 1 && o[3] >> 63 == 0);
    let mut r = [0u64; 4];
    for &xi in x {
        // T = r + xᵢ, in four words (T < 2²⁵⁶).
        let mut t = [0u64; 5];
        let mut c = xi as u128;
        for (tj, &rj) in t.iter_mut().zip(&r) {
            let s = rj as u128 + c;
            *tj = s as u64;
            c = s >> 64;
        }
        // T + q·o: each step q·oⱼ + tⱼ + c ≤ (2⁶⁴ − 1)² + 2(2⁶⁴ − 1) < 2¹²⁸.
        let q = t[0].wrapping_mul(minv);
        let mut c = 0u128;
        for (tj, &oj) in t.iter_mut().zip(o) {
            let s = q as u128 * oj as u128 + *tj as u128 + c;
            *tj = s as u64;
            c = s >> 64;
        }
        t[4] = c as u64;
        r = [t[1], t[2], t[3], t[4]];
    }
    if r == *o {
        [0; 4]
    } else {
        r
    }
}

/// `r < o` with `r ≡ a·b·2^(−128) (mod o)` for `a, b < o`, an odd o with
/// 2⁶⁴ < o < 2¹²⁷ and `minv = −o⁻¹ mod 2⁶⁴` (`fixed::two_word_modulus`):
/// Montgomery's multiplication, the four-word product reduced by two steps
/// (P. L. Montgomery, Math. Comp. 44, 1985) instead of `fixed::residue_two`'s
/// four.
///
/// `T = a·b < o² < 2²⁵⁴`; each step adds `q·o` with `q = T₀·minv mod 2⁶⁴`,
/// which clears the low word (`T₀ + lo(q·o₀)` is 0 for T₀ = 0, q = 0, else
/// exactly 2⁶⁴: a carry `[T₀ ≠ 0]`), and drops it. After both,
/// `R = (T + Q·o)/2¹²⁸` with `Q < 2¹²⁸`, so `R < o²/2¹²⁸ + o < 2o` (as
/// o < 2¹²⁷): one conditional subtraction. Each word sum below is at most
/// three words' worth (below 2⁶⁶) in a `u128`.
pub(crate) fn mul_redc_two(a: u128, b: u128, o: u128, minv: u64) -> u128 {
    debug_assert!(o & 1 == 1 && o > u64::MAX as u128 && o >> 127 == 0 && a < o && b < o);
    let (o0, o1) = (o as u64 as u128, o >> 64);
    let [t0, t1, t2, t3] = mul_two(a, b);
    // Step 1: (T + q·o)/2⁶⁴ as three words [w0, w1, w2] (below 2¹⁹¹).
    let q = t0.wrapping_mul(minv) as u128;
    let (qo0, qo1) = (q * o0, q * o1);
    let s1 = t1 as u128 + (qo0 >> 64) + (qo1 as u64 as u128) + (t0 != 0) as u128;
    let s2 = t2 as u128 + (qo1 >> 64) + (s1 >> 64);
    let (w0, w1, w2) = (s1 as u64, s2 as u64, t3 as u128 + (s2 >> 64));
    // Step 2: the same on [w0, w1, w2]; the result R below 2o < 2¹²⁸.
    let q = w0.wrapping_mul(minv) as u128;
    let (qo0, qo1) = (q * o0, q * o1);
    let s1 = w1 as u128 + (qo0 >> 64) + (qo1 as u64 as u128) + (w0 != 0) as u128;
    let s2 = w2 + (qo1 >> 64) + (s1 >> 64);
    let r = (s1 as u64 as u128) | s2 << 64;
    if r >= o {
        r - o
    } else {
        r
    }
}

/// `a·b` as eight little-endian words.
pub(crate) fn mul_four(a: &[u64; 4], b: &[u64; 4]) -> [u64; 8] {
    let mut r = [0u64; 8];
    for (i, &x) in a.iter().enumerate() {
        let mut c = 0u128;
        for (j, &y) in b.iter().enumerate() {
            // At most (2⁶⁴ − 1)² + 2(2⁶⁴ − 1) < 2¹²⁸.
            let s = x as u128 * y as u128 + r[i + j] as u128 + c;
            r[i + j] = s as u64;
            c = s >> 64;
        }
        r[i + 4] = c as u64;
    }
    r
}

impl Nat {
    /// Four little-endian words as a number.
    pub(crate) fn from_four(w: [u64; 4]) -> Nat {
        let mut r = Nat::ZERO;
        r.d[..4].copy_from_slice(&w);
        r.n = 4;
        r.trim()
    }

    /// The significant words.
    pub(crate) fn words(&self) -> &[u64] {
        &self.d[..self.n.min(L)]
    }

    /// [`residue_word`] of this number's words.
    pub(crate) fn residue_word(&self, m: u64, minv: u64) -> u64 {
        residue_word(self.words(), m, minv)
    }

    /// `self / g` for an odd word `g > 1` that divides `self` and
    /// `inv = g⁻¹ mod 2⁶⁴`: Hensel's exact division word by word from the
    /// lowest, as [`Nat::divexact_small`] with the inverse given.
    pub(crate) fn div_exact_word(&self, g: u64, inv: u64) -> Nat {
        debug_assert!(g & 1 == 1 && g.wrapping_mul(inv) == 1);
        let mut q = Nat::ZERO;
        let mut borrow = 0u64;
        for i in 0..self.n.min(L) {
            let (t, b) = self.d[i].overflowing_sub(borrow);
            let qi = t.wrapping_mul(inv);
            q.d[i] = qi;
            borrow = ((qi as u128 * g as u128) >> 64) as u64 + b as u64;
        }
        debug_assert_eq!(borrow, 0, "div_exact_word: not a divisor");
        q.n = self.n;
        q.trim()
    }

    /// `self / g` for an odd `g` of two words (2⁶⁴ < g < 2¹²⁸) that
    /// divides `self`: Hensel's exact division from the lowest word, as
    /// `fixed::divexact_odd` with the divisor's two words held in registers
    /// (each quotient word `qᵢ = rᵢ·g₀⁻¹ mod 2⁶⁴` clears word i of the
    /// remainder, `qᵢ·g` is subtracted from words i, i + 1, i + 2…).
    pub(crate) fn div_exact_by_two(&self, g: u128) -> Nat {
        debug_assert!(g & 1 == 1 && g >> 64 != 0);
        let n = self.n.min(L);
        if n < 2 {
            return Nat::ZERO; // g divides x < 2⁶⁴ < g: x = 0
        }
        let (g0, g1) = (g as u64, (g >> 64) as u64);
        let inv = neg_inv_word(g0).wrapping_neg();
        let mut r = self.d;
        let mut q = Nat::ZERO;
        // The quotient has n − 1 words (x < 2^(64n), g > 2⁶⁴).
        for i in 0..n - 1 {
            let qi = r[i].wrapping_mul(inv);
            q.d[i] = qi;
            // r −= qi·g·2^(64i). Word i: rᵢ − lo(qi·g₀) = 0 exactly (the
            // choice of qi), hi(qi·g₀) carried up. Word i + 1 takes
            // p₁ = qi·g₁ + hi(qi·g₀) ≤ (2⁶⁴ − 1)² + 2⁶⁴ − 1 < 2¹²⁸; the
            // borrow into word i + 2, hi(p₁) + [lo(p₁) > rᵢ₊₁], stays a
            // word (hi(p₁) = 2⁶⁴ − 1 only for p₁ = 2¹²⁸ − 2⁶⁴, whose low
            // word 0 borrows nothing); then a borrow of 0 or 1 upwards.
            let p0 = qi as u128 * g0 as u128;
            let p1 = qi as u128 * g1 as u128 + (p0 >> 64);
            let (s, b1) = r[i + 1].overflowing_sub(p1 as u64);
            r[i + 1] = s;
            let mut borrow = (p1 >> 64) as u64 + b1 as u64;
            let mut k = i + 2;
            while borrow != 0 && k < n {
                let (s, b) = r[k].overflowing_sub(borrow);
                r[k] = s;
                borrow = b as u64;
                k += 1;
            }
        }
        q.n = n - 1;
        q.trim()
    }

    /// `self · v`; the product must fit the 768 bits (else a panic, as
    /// [`Nat::mul`]).
    pub(crate) fn mul_u128(&self, v: u128) -> Nat {
        let n = self.n.min(L);
        if n <= 2 {
            return Nat::from_four(mul_two(self.d[0] as u128 | (self.d[1] as u128) << 64, v));
        }
        if n + 2 > L {
            return self.mul(&Nat::from_u128(v));
        }
        // Schoolbook in place, one row per word of v (the limbs start at
        // zero; n + 2 of them hold the product): each step x·w + r + c is
        // at most (2⁶⁴ − 1)² + 2·(2⁶⁴ − 1) = 2¹²⁸ − 1.
        let mut r = Nat::ZERO;
        for (j, w) in [v as u64, (v >> 64) as u64].into_iter().enumerate() {
            let mut c = 0u128;
            for (i, &x) in self.d[..n].iter().enumerate() {
                let s = x as u128 * w as u128 + r.d[i + j] as u128 + c;
                r.d[i + j] = s as u64;
                c = s >> 64;
            }
            r.d[n + j] = c as u64;
        }
        r.n = n + 2;
        r.trim()
    }
}

/// Against `BigUint`/num-integer on random and structured inputs: the
/// gcd, the inverse and exact division, the word residue (times 2^(64n)
/// congruent, below m), exact division by a word and the product with two
/// words.
#[cfg(test)]
mod tests {
    use super::*;
    use num_bigint::BigUint;
    use num_integer::Integer;

    fn xorshift(seed: &mut u64) -> u64 {
        *seed ^= *seed << 13;
        *seed ^= *seed >> 7;
        *seed ^= *seed << 17;
        *seed
    }

    /// Small odd factors, all-ones words and powers: the structured cases.
    const SMALL: [u128; 12] = [1, 3, 5, 7, 9, 15, 25, 27, 45, 105, 243, 3125];

    fn rand_two(seed: &mut u64, bits: u32) -> u128 {
        let r = (xorshift(seed) as u128) << 64 | xorshift(seed) as u128;
        if bits == 0 {
            0
        } else {
            r >> (128 - bits)
        }
    }

    #[test]
    fn gcd_two_is_the_gcd() {
        let mut seed = 0x9e37_79b9_7f4a_7c15u64;
        for k in 0..20000u32 {
            let common = SMALL[(k % 12) as usize] * SMALL[(k / 12 % 12) as usize];
            let a = match k % 97 {
                0 => u128::MAX,
                1 => 1,
                2 => (1u128 << 127) - 1,
                3 => u64::MAX as u128,
                _ => rand_two(&mut seed, 1 + k % 128) | 1,
            };
            let b = match k % 89 {
                0 => 0,
                1 => u128::MAX,
                2 => a,
                3 => u64::MAX as u128,
                _ => rand_two(&mut seed, k % 129),
            };
            // Multiples of a common odd factor (when they fit).
            let (a, b) = if k % 3 == 0 {
                match (a.checked_mul(common), b.checked_mul(common)) {
                    (Some(x), Some(y)) => (x, y),
                    _ => (a, b),
                }
            } else {
                (a, b)
            };
            let want = BigUint::from(a).gcd(&BigUint::from(b));
            assert_eq!(BigUint::from(gcd_two(a, b)), want, "{a} {b}");
        }
    }

    #[test]
    fn exact_division_by_two_words() {
        let mut seed = 0x1357_9bdf_2468_ace0u64;
        for k in 0..5000u32 {
            let g = match k % 50 {
                0 => u128::MAX,
                1 => 1,
                _ => rand_two(&mut seed, 1 + k % 128) | 1,
            };
            let g = if k % 4 == 0 {
                SMALL[(k / 4 % 12) as usize]
            } else {
                g
            };
            assert_eq!(g.wrapping_mul(inv_two(g)), 1);
            let q = rand_two(&mut seed, 128 - (128 - g.leading_zeros()).min(127));
            let x = g * q;
            assert_eq!(div_exact_two(x, g), q, "{x} {g}");
        }
    }

    fn nat(x: &BigUint) -> Nat {
        Nat::from_biguint(x)
    }

    fn rand_nat(seed: &mut u64, words: usize, ones: bool) -> BigUint {
        (0..words).fold(BigUint::from(0u32), |n, _| {
            (n << 64) + BigUint::from(if ones { u64::MAX } else { xorshift(seed) })
        })
    }

    #[test]
    fn residue_word_is_a_montgomery_residue() {
        let mut seed = 0x0f1e_2d3c_4b5a_6978u64;
        for k in 0..6000u32 {
            let m = match k % 40 {
                0 => u64::MAX,
                1 => 3,
                _ if k % 3 == 0 => SMALL[(k / 3 % 11 + 1) as usize] as u64,
                _ => (xorshift(&mut seed) >> (k % 62)) | 1,
            };
            let m = if m == 1 { 3 } else { m };
            let minv = neg_inv_word(m);
            let words = (k % 13) as usize;
            let mut x = rand_nat(&mut seed, words, k % 7 == 0);
            if k % 5 == 0 && words < 12 {
                x = (x >> 64u32) * BigUint::from(m);
            }
            let r = nat(&x).residue_word(m, minv);
            assert!(r < m);
            let n = nat(&x).words().len();
            let back = (BigUint::from(r) << (64 * n)) % BigUint::from(m);
            assert_eq!(back, &x % BigUint::from(m), "{x} {m}");
        }
    }

    /// `residue_four` against `BigUint` on random odd moduli of 128 to 255
    /// bits (and 2¹²⁷ + 1, 2²⁵⁵ − 1, moduli with small odd factors),
    /// numbers of 0 to 12 words (all-ones words, multiples of the modulus:
    /// residue 0); `mul_four` is the `BigUint` product.
    #[test]
    fn residue_four_is_a_montgomery_residue() {
        let mut seed = 0x2545_f491_4f6c_dd1du64;
        for k in 0..4000u32 {
            let m: BigUint = match k % 50 {
                0 => (BigUint::from(1u32) << 127u32) + 1u32,
                1 => (BigUint::from(1u32) << 255u32) - 1u32,
                _ => {
                    let bits = 128 + k % 128;
                    let r = rand_nat(&mut seed, 4, false) >> (256 - bits) as usize;
                    let m = r | (BigUint::from(1u32) << (bits - 1) as usize) | BigUint::from(1u32);
                    if k % 7 == 0 {
                        // A small odd factor in common with some numbers.
                        let f = BigUint::from(SMALL[(k / 7 % 11 + 1) as usize]);
                        let m2 = &m * &f;
                        if m2.bits() <= 255 {
                            m2
                        } else {
                            m
                        }
                    } else {
                        m
                    }
                }
            };
            let (o, minv) = four_word_modulus(&nat(&m)).expect("four words");
            let words = (k % 13) as usize;
            let mut x = rand_nat(&mut seed, words, k % 9 == 0);
            if k % 5 == 0 && words >= 5 {
                x = (x >> 256u32) * &m;
            }
            let xs = nat(&x);
            let r = residue_four(xs.words(), &o, minv);
            let rb = Nat::from_four(r).to_biguint();
            assert!(rb < m);
            let back = (rb << (64 * xs.words().len())) % &m;
            assert_eq!(back, &x % &m, "{x} {m}");
            let a = nat(&rand_nat(&mut seed, 4, k % 11 == 0));
            let b = nat(&rand_nat(&mut seed, 4, k % 13 == 0));
            let (a4, b4) = (
                [a.d[0], a.d[1], a.d[2], a.d[3]],
                [b.d[0], b.d[1], b.d[2], b.d[3]],
            );
            let p = mul_four(&a4, &b4);
            let pb = p
                .iter()
                .rev()
                .fold(BigUint::from(0u32), |n, &w| (n << 64u32) + w);
            assert_eq!(pb, a.to_biguint() * b.to_biguint());
        }
        // Outside the range: below 2¹²⁷, even, 2²⁵⁵ and above.
        assert!(four_word_modulus(&Nat::from_u128((1u128 << 127) - 1)).is_none());
        assert!(four_word_modulus(&Nat::from_u128(1u128 << 127 | 1)).is_some());
        let even = (BigUint::from(1u32) << 200u32) + 2u32;
        assert!(four_word_modulus(&nat(&even)).is_none());
        let big = (BigUint::from(1u32) << 255u32) + 1u32;
        assert!(four_word_modulus(&nat(&big)).is_none());
    }

    /// `div_exact_by_two` against `BigUint`: quotients of 0 to 10 words
    /// (all-ones words among them) times odd divisors of 65 to 128 bits
    /// (2⁶⁴ + 1, 2¹²⁸ − 1, multiples of small odd factors).
    #[test]
    fn div_exact_by_two_is_exact() {
        let mut seed = 0xbb67_ae85_84ca_a73bu64;
        for k in 0..6000u32 {
            let g = match k % 40 {
                0 => (1u128 << 64) + 1,
                1 => u128::MAX,
                _ => {
                    let bits = 65 + k % 64;
                    let g = rand_two(&mut seed, bits) | 1 | (1u128 << (bits - 1));
                    let f = SMALL[(k % 12) as usize];
                    g.checked_mul(f).unwrap_or(g)
                }
            };
            let q = rand_nat(&mut seed, (k % 11) as usize, k % 7 == 0);
            let x = &q * BigUint::from(g);
            assert_eq!(nat(&x).div_exact_by_two(g).to_biguint(), q, "{x} {g}");
        }
    }

    /// `mul_redc_two` against `BigUint`: below o, and times 2¹²⁸ congruent
    /// to a·b, on random odd moduli of 65 to 127 bits (2⁶⁴ + 1, 2¹²⁷ − 1,
    /// multiples of small odd factors), a and b random below o, 0, 1, o − 1.
    #[test]
    fn mul_redc_two_is_a_montgomery_product() {
        let mut seed = 0x3c6e_f372_fe94_f82bu64;
        for k in 0..20000u32 {
            let o = match k % 40 {
                0 => (1u128 << 64) + 1,
                1 => (1u128 << 127) - 1,
                _ => {
                    let bits = 65 + k % 63;
                    let o = rand_two(&mut seed, bits) | 1 | (1u128 << (bits - 1));
                    let f = SMALL[(k % 12) as usize];
                    o.checked_mul(f).filter(|x| x >> 127 == 0).unwrap_or(o)
                }
            };
            let pick = |j: u32, seed: &mut u64| match j % 7 {
                0 => 0,
                1 => 1,
                2 => o - 1,
                _ => rand_two(seed, 128) % o,
            };
            let (a, b) = (pick(k, &mut seed), pick(k / 7, &mut seed));
            let r = mul_redc_two(a, b, o, neg_inv_word(o as u64));
            assert!(r < o);
            let back = (BigUint::from(r) << 128u32) % BigUint::from(o);
            assert_eq!(
                back,
                BigUint::from(a) * BigUint::from(b) % BigUint::from(o),
                "{a} {b} {o}"
            );
        }
    }

    #[test]
    fn div_exact_word_and_mul_u128_are_exact() {
        let mut seed = 0xfeed_beef_cafe_f00du64;
        for k in 0..6000u32 {
            let g = match k % 3 {
                0 => SMALL[(k / 3 % 12) as usize] as u64,
                1 => u64::MAX,
                _ => xorshift(&mut seed) | 1,
            };
            let inv = neg_inv_word(g).wrapping_neg();
            let words = (k % 11) as usize;
            let q = rand_nat(&mut seed, words, k % 7 == 0);
            let x = &q * BigUint::from(g);
            assert_eq!(nat(&x).div_exact_word(g, inv).to_biguint(), q);
            // q below 2^(64·10) times v below 2¹²⁸ fits the 768 bits.
            let v = match k % 5 {
                0 => u128::MAX,
                1 => 0,
                2 => SMALL[(k % 12) as usize],
                _ => rand_two(&mut seed, 1 + k % 128),
            };
            let want = &q * BigUint::from(v);
            assert_eq!(nat(&q).mul_u128(v).to_biguint(), want, "{q} {v}");
        }
        // A product filling the 768 bits exactly: all-ones words of 10
        // limbs times 2¹²⁸ − 1 is below 2^768.
        let q = rand_nat(&mut seed, 10, true);
        let want = &q * BigUint::from(u128::MAX);
        assert_eq!(nat(&q).mul_u128(u128::MAX).to_biguint(), want);
        // Eleven words: past the in-place rows, the general product.
        let q = rand_nat(&mut seed, 11, false);
        let want = &q * BigUint::from(3u32);
        assert_eq!(nat(&q).mul_u128(3).to_biguint(), want);
    }
}
