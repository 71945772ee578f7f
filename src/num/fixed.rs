//! Fixed-width exact integers on the stack (up to 768 bits) and a binary gcd
//! on them: the allocation-free exact arithmetic of the triangle-distance fast
//! path.
//!
//! Every operation is exact or panics (an overflow of the 768 bits is a bug of
//! the caller's size bound, never a silently wrong value).

use num_bigint::BigUint;
use num_bigint::{BigInt, Sign as BSign};
use std::cmp::Ordering;

mod convert;
mod ratio;
mod two_word;
pub(crate) use convert::{
    int_pow2_point, int_pow2_rational, int_sign, ldexp, ratio_f64, to_bigint,
};
pub(crate) use ratio::{ExactValue, FixedRational};
pub(crate) use two_word::{
    div_exact_two, four_word_modulus, gcd_two, mul_four, mul_redc_two, residue_four, residue_word,
};

#[cfg(test)]
use crate::stats::ADDBACK;

/// Limbs of a [`Nat`].
pub(crate) const L: usize = 12;

/// A natural number below 2^768, little-endian 64-bit limbs; `n` limbs are
/// significant (`d[n - 1] != 0`, and `n == 0` for zero).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Nat {
    d: [u64; L],
    n: usize,
}

impl PartialEq for Nat {
    fn eq(&self, o: &Self) -> bool {
        self.n == o.n && self.d[..self.n] == o.d[..o.n]
    }
}
impl Eq for Nat {}

impl Nat {
    pub(crate) const ZERO: Nat = Nat { d: [0; L], n: 0 };

    fn trim(mut self) -> Nat {
        while self.n > 0 && self.d[self.n - 1] == 0 {
            self.n -= 1;
        }
        self
    }

    pub(crate) fn from_u128(v: u128) -> Nat {
        let mut r = Nat::ZERO;
        r.d[0] = v as u64;
        r.d[1] = (v >> 64) as u64;
        r.n = 2;
        r.trim()
    }

    /// The lowest word.
    pub(crate) fn low_word(&self) -> u64 {
        self.d[0]
    }

    pub(crate) fn is_zero(&self) -> bool {
        self.n == 0
    }

    pub(crate) fn is_one(&self) -> bool {
        self.n == 1 && self.d[0] == 1
    }

    /// The value if it fits a `u64`.
    pub(crate) fn to_u64(self) -> Option<u64> {
        match self.n {
            0 => Some(0),
            1 => Some(self.d[0]),
            _ => None,
        }
    }

    /// The value if it fits a `u128`.
    pub(crate) fn to_u128(self) -> Option<u128> {
        match self.n {
            0..=2 => Some(self.d[0] as u128 | (self.d[1] as u128) << 64),
            _ => None,
        }
    }

    pub(crate) fn bits(&self) -> u64 {
        if self.n == 0 {
            0
        } else {
            64 * self.n as u64 - self.d[self.n - 1].leading_zeros() as u64
        }
    }

    pub(crate) fn trailing_zeros(&self) -> u64 {
        for i in 0..self.n {
            if self.d[i] != 0 {
                return 64 * i as u64 + self.d[i].trailing_zeros() as u64;
            }
        }
        0
    }

    pub(crate) fn cmp(&self, o: &Nat) -> Ordering {
        if self.n != o.n {
            return self.n.cmp(&o.n);
        }
        for i in (0..self.n).rev() {
            if self.d[i] != o.d[i] {
                return self.d[i].cmp(&o.d[i]);
            }
        }
        Ordering::Equal
    }

    pub(crate) fn add(&self, o: &Nat) -> Nat {
        let m = self.n.max(o.n);
        let mut r = Nat::ZERO;
        let mut c = 0u64;
        for i in 0..m {
            let (s, c1) = self.d[i].overflowing_add(o.d[i]);
            let (s, c2) = s.overflowing_add(c);
            r.d[i] = s;
            c = (c1 | c2) as u64;
        }
        if c != 0 {
            assert!(m < L, "Nat overflow");
            r.d[m] = c;
            r.n = m + 1;
        } else {
            r.n = m;
        }
        r.trim()
    }

    /// `self − o`, for `self ≥ o`.
    pub(crate) fn sub(&self, o: &Nat) -> Nat {
        let mut r = Nat::ZERO;
        let mut b = 0u64;
        for i in 0..self.n {
            let (s, b1) = self.d[i].overflowing_sub(o.d[i]);
            let (s, b2) = s.overflowing_sub(b);
            r.d[i] = s;
            b = (b1 | b2) as u64;
        }
        assert!(b == 0 && o.n <= self.n, "Nat underflow");
        r.n = self.n;
        r.trim()
    }

    pub(crate) fn mul(&self, o: &Nat) -> Nat {
        if self.n == 0 || o.n == 0 {
            return Nat::ZERO;
        }
        if self.n <= 2 && o.n <= 2 {
            // 128 × 128 bits: four word products.
            let mut r = Nat::ZERO;
            let (a0, a1, b0, b1) = (
                self.d[0] as u128,
                self.d[1] as u128,
                o.d[0] as u128,
                o.d[1] as u128,
            );
            let (p00, p01, p10, p11) = (a0 * b0, a0 * b1, a1 * b0, a1 * b1);
            let lo = |x: u128| x as u64 as u128;
            let t1 = (p00 >> 64) + lo(p01) + lo(p10);
            let t2 = (t1 >> 64) + (p01 >> 64) + (p10 >> 64) + lo(p11);
            let t3 = (t2 >> 64) + (p11 >> 64);
            r.d[0] = p00 as u64;
            r.d[1] = t1 as u64;
            r.d[2] = t2 as u64;
            r.d[3] = t3 as u64;
            r.n = 4;
            return r.trim();
        }
        if self.n == 1 || o.n == 1 {
            let (w, x) = if self.n == 1 {
                (self.d[0], o)
            } else {
                (o.d[0], self)
            };
            return x.mul_word(w);
        }
        // Schoolbook into a double-length buffer (the bounds are then
        // evident to the compiler), checked against the 768 bits at the end.
        let (an, bn) = (self.n.min(L), o.n.min(L));
        if an + bn <= L {
            // The product fits the limbs: accumulate in place (the result's
            // limbs start at zero), no double-length buffer to clear and copy.
            let mut r = Nat::ZERO;
            for (i, &x) in self.d[..an].iter().enumerate() {
                let x = x as u128;
                let mut c = 0u128;
                for (rj, &y) in r.d[i..i + bn].iter_mut().zip(&o.d[..bn]) {
                    let v = x * y as u128 + *rj as u128 + c;
                    *rj = v as u64;
                    c = v >> 64;
                }
                r.d[i + bn] = c as u64;
            }
            r.n = an + bn;
            return r.trim();
        }
        let mut t = [0u64; 2 * L];
        for (i, &x) in self.d[..an].iter().enumerate() {
            let x = x as u128;
            let mut c = 0u128;
            for (j, &y) in o.d[..bn].iter().enumerate() {
                let v = x * y as u128 + t[i + j] as u128 + c;
                t[i + j] = v as u64;
                c = v >> 64;
            }
            t[i + bn] = c as u64;
        }
        let mut n = an + bn;
        while n > 0 && t[n - 1] == 0 {
            n -= 1;
        }
        assert!(n <= L, "Nat overflow");
        let mut r = Nat::ZERO;
        r.d[..n].copy_from_slice(&t[..n]);
        r.n = n;
        r
    }

    /// `self · w` for a word `w`.
    #[inline]
    pub(crate) fn mul_word(&self, w: u64) -> Nat {
        if w == 0 {
            return Nat::ZERO;
        }
        let mut r = Nat::ZERO;
        let mut c = 0u64;
        let n = self.n.min(L);
        for (ri, &x) in r.d[..n].iter_mut().zip(&self.d[..n]) {
            let v = x as u128 * w as u128 + c as u128;
            *ri = v as u64;
            c = (v >> 64) as u64;
        }
        r.n = n;
        if c != 0 {
            assert!(n < L, "Nat overflow");
            r.d[n] = c;
            r.n = n + 1;
        }
        r
    }

    /// A number `r < 2^(64·m.n)` with `r ≡ self·2^(−64s) (mod m)` for some
    /// `s ≥ 0`, and that `s`, for odd `m > 1` and `minv = −m⁻¹ mod 2⁶⁴`
    /// ([`neg_inv_word`]): Montgomery's reduction one word at a time (P. L.
    /// Montgomery, *Modular multiplication without trial division*, Math.
    /// Comp. 44, 1985): `t ← (t + q·m)/2⁶⁴` with `q = t₀·minv mod 2⁶⁴`, which
    /// makes the low word vanish, until `t` has no more words than `m`.
    /// Multiplications only, no division. For gcds with an odd `m` the
    /// factor `2^(−64s)` is a unit and does not matter.
    pub(crate) fn shrink_mod(&self, m: &Nat, minv: u64) -> (Nat, u64) {
        debug_assert!(m.n >= 1 && m.d[0] & 1 == 1);
        let mn = m.n.min(L);
        // The value is t[o..o + len], everything above it zero; each step
        // drops the vanished low word by moving `o` (no shifted copy). The
        // value stays below 2^(64(len₀ − k) + 1) after k steps, so the sums
        // reach at most index len₀ ≤ L.
        let mut t = [0u64; L + 2];
        let mut len = self.n.min(L);
        t[..len].copy_from_slice(&self.d[..len]);
        let mut o = 0;
        let mut s = 0;
        while len > mn {
            let q = t[o].wrapping_mul(minv);
            let mut c = 0u128;
            for (ti, &mi) in t[o..o + mn].iter_mut().zip(&m.d[..mn]) {
                let v = q as u128 * mi as u128 + *ti as u128 + c;
                *ti = v as u64;
                c = v >> 64;
            }
            let mut i = o + mn;
            while c != 0 {
                let v = t[i] as u128 + c;
                t[i] = v as u64;
                c = v >> 64;
                i += 1;
            }
            len = len.max(i - o);
            // t[o] is now 0: drop it.
            o += 1;
            len -= 1;
            while len > 0 && t[o + len - 1] == 0 {
                len -= 1;
            }
            s += 1;
        }
        let mut r = Nat::ZERO;
        r.d[..len].copy_from_slice(&t[o..o + len]);
        r.n = len;
        (r, s)
    }

    /// `r < m` with `r ≡ self·2^(−64n) (mod m)`, `n` the limb count, for odd
    /// `m > 1`: Montgomery's reduction of the limbs ([`residue_word`]), two
    /// multiplications per limb instead of a 128-by-64-bit division. As `2`
    /// is a unit modulo odd `m`, `gcd(m, r) = gcd(m, self)`.
    pub(crate) fn residue_odd(&self, m: u64) -> u64 {
        residue_word(&self.d[..self.n.min(L)], m, neg_inv_word(m))
    }

    /// `self / m` for a word `m > 0` that divides `self` (checked in test
    /// builds): the powers of two by a shift, the odd part by multiplying with
    /// its inverse modulo 2⁶⁴ word by word (exact division, as in T. Jebelean,
    /// *An algorithm for exact division*, J. Symbolic Computation 15, 1993),
    /// no division instruction.
    pub(crate) fn divexact_small(&self, m: u64) -> Nat {
        debug_assert!(m != 0);
        let z = m.trailing_zeros();
        let x = if z > 0 { self.shr(z as u64) } else { *self };
        let m = m >> z;
        if m == 1 {
            return x;
        }
        // Newton's iteration for m⁻¹ mod 2⁶⁴: m·m ≡ 1 (mod 8) for odd m,
        // and each step doubles the correct low bits (3 → 96).
        let mut inv = m;
        for _ in 0..5 {
            inv = inv.wrapping_mul(2u64.wrapping_sub(m.wrapping_mul(inv)));
        }
        let mut q = Nat::ZERO;
        let mut borrow = 0u64;
        for i in 0..x.n {
            let (t, b) = x.d[i].overflowing_sub(borrow);
            let qi = t.wrapping_mul(inv);
            q.d[i] = qi;
            borrow = ((qi as u128 * m as u128) >> 64) as u64 + b as u64;
        }
        #[cfg(test)]
        assert_eq!(borrow, 0, "divexact_small: not a divisor");
        q.n = x.n;
        q.trim()
    }

    #[cfg(test)]
    pub(crate) fn mul_small(&self, m: u64) -> Nat {
        let mut r = Nat::ZERO;
        let mut c = 0u128;
        for i in 0..self.n {
            let t = self.d[i] as u128 * m as u128 + c;
            r.d[i] = t as u64;
            c = t >> 64;
        }
        r.n = self.n;
        if c != 0 {
            assert!(self.n < L, "Nat overflow");
            r.d[self.n] = c as u64;
            r.n += 1;
        }
        r.trim()
    }

    /// `(self / m, self mod m)` for `m > 0`.
    pub(crate) fn divrem_small(&self, m: u64) -> (Nat, u64) {
        let mut q = Nat::ZERO;
        let mut rem = 0u128;
        for i in (0..self.n).rev() {
            let cur = (rem << 64) | self.d[i] as u128;
            q.d[i] = (cur / m as u128) as u64;
            rem = cur % m as u128;
        }
        q.n = self.n;
        (q.trim(), rem as u64)
    }

    pub(crate) fn shr(&self, s: u64) -> Nat {
        let (w, b) = ((s / 64) as usize, (s % 64) as u32);
        if w >= self.n {
            return Nat::ZERO;
        }
        if s == 0 {
            return *self;
        }
        // Limbs above the length are zero, so the next limb can always be
        // read (as 0 past the array); the high part is masked off for b = 0.
        let mut r = Nat::ZERO;
        let mask = ((b != 0) as u64).wrapping_neg();
        let up = (64 - b) & 63;
        for i in 0..self.n - w {
            let next = self.d.get(i + w + 1).copied().unwrap_or(0);
            r.d[i] = (self.d[i + w] >> b) | ((next << up) & mask);
        }
        r.n = self.n - w;
        r.trim()
    }

    /// `self · 2^s` (panics beyond the 768 bits).
    pub(crate) fn shl(&self, s: u64) -> Nat {
        if s == 0 || self.n == 0 {
            return *self;
        }
        assert!(self.bits() + s <= 64 * L as u64, "Nat overflow");
        let (w, b) = ((s / 64) as usize, (s % 64) as u32);
        let mut r = Nat::ZERO;
        for i in 0..self.n {
            r.d[i + w] |= self.d[i] << b;
            if b > 0 && i + w + 1 < L {
                r.d[i + w + 1] = self.d[i] >> (64 - b);
            }
        }
        r.n = (self.n + w + 1).min(L);
        r.trim()
    }

    /// `self · 2^s` as a `BigUint` (any `s`).
    pub(crate) fn shl_big(&self, s: u64) -> BigUint {
        if self.bits() + s <= 64 * L as u64 {
            self.shl(s).to_biguint()
        } else {
            self.to_biguint() << s
        }
    }

    pub(crate) fn to_biguint(self) -> BigUint {
        if self.n <= 2 {
            return BigUint::from(self.d[0] as u128 | (self.d[1] as u128) << 64);
        }
        let mut w = [0u32; 2 * L];
        for i in 0..self.n {
            w[2 * i] = self.d[i] as u32;
            w[2 * i + 1] = (self.d[i] >> 32) as u32;
        }
        BigUint::from_slice(&w[..2 * self.n])
    }

    pub(crate) fn from_biguint(x: &BigUint) -> Nat {
        let digits = x.to_u64_digits();
        assert!(digits.len() <= L, "Nat overflow");
        let mut r = Nat::ZERO;
        r.d[..digits.len()].copy_from_slice(&digits);
        r.n = digits.len();
        r.trim()
    }
}

#[cfg(test)]
use crate::stats::GCD_FALLBACK;

/// gcd(a, b) by the binary method on 64-bit approximations, two rounds of
/// 30 halvings per pass over the numbers.
///
/// Common powers of two are taken out and both numbers made odd (lengths of
/// different limb counts first take one division step). Then, with `m` the
/// bit length of the larger number, a *round* runs the steps of the binary
/// gcd (J. Stein, *Computational problems associated with Racah algebra*,
/// J. Comput. Phys. 1, 1967: `b` odd; if `a < b` swap; `a ← a − b`; shift
/// out the trailing zeros of `a`) on the approximations
/// `x̂ = (x mod 2³⁰) + 2³⁰·⌊x/2^(m−34)⌋`, 30 halvings in all, tracking rows
/// with `x̂·2^i = f·x̂a₀ + g·x̂b₀` (T. Pornin, *Optimized Binary GCD for
/// Modular Inversion*, IACR ePrint 2020/972, 2020). A *pass* runs two
/// rounds: the second round's approximations are formed without touching
/// the full numbers (their top bits from the first round's matrix applied to
/// 63-bit windows, their exact low bits from the lowest words), and the
/// product matrix, entries below 2⁶⁰, is applied once:
/// `a ← |F₀a + G₀b|/2⁶⁰`, `b ← |F₁a + G₁b|/2⁶⁰` — Lehmer's idea of
/// collecting many steps in a small matrix (D. H. Lehmer, *Euclid's
/// algorithm for large numbers*, Amer. Math. Monthly 45, 1938).
///
/// Why the result is exact whatever the approximations: each round's matrix
/// is an integer matrix of determinant ±2³⁰ built from parity decisions on
/// the low 30 bits, which agree with the true numbers' (the approximations
/// are congruent to them modulo 2³⁰), so the divisions are exact; and since
/// `(a, b) = ±adj(M)·(a′, b′)` and the gcd is odd, `gcd(a′, b′) = gcd(a, b)`.
/// The comparisons, made on approximations, only choose *which* such matrix,
/// so they affect progress, not the value; and `|F| + |G| ≤ 2⁶⁰` keeps the
/// new numbers at most the larger old one, so nothing overflows. A pass
/// that does not shorten the pair (the sum of the two bit lengths; never
/// observed) hands over to [`gcd_big`], which also bounds the passes.
///
/// The numbers live in limb arrays of a fixed length `N` (2 to 8 limbs, or
/// 11, the shortest that holds them, shorter as they shrink), so that every
/// loop has a constant trip count; one word finishes with [`gcd_u64`].
/// An odd part 1 (a power of two) skips the passes: the gcd is then the
/// common power of two.
pub(crate) fn gcd(a: &Nat, b: &Nat) -> Nat {
    if a.is_zero() {
        return *b;
    }
    if b.is_zero() {
        return *a;
    }
    if a.n.max(b.n) >= L {
        return gcd_big(a, b);
    }
    // Unbalanced lengths: one division step first.
    let (a, b) = if a.cmp(b) == Ordering::Less {
        (b, a)
    } else {
        (a, b)
    };
    if b.n == 1 {
        let m = b.d[0];
        let r = if a.n == 1 {
            a.d[0] % m
        } else {
            a.divrem_small(m).1
        };
        return Nat::from_u128(gcd_u64(m, r) as u128);
    }
    let r;
    let (a, b) = if a.n > b.n {
        r = a.rem(b);
        if r.is_zero() {
            return *b;
        }
        (b, &r)
    } else {
        (a, b)
    };
    let (za, zb) = (a.trailing_zeros(), b.trailing_zeros());
    let k = za.min(zb);
    // Shifted copies only when there are powers of two to take out.
    let (sa, sb);
    let a = if za == 0 {
        a
    } else {
        sa = a.shr(za);
        &sa
    };
    let b = if zb == 0 {
        b
    } else {
        sb = b.shr(zb);
        &sb
    };
    let g = if a.is_one() || b.is_one() {
        Nat::from_u128(1)
    } else {
        gcd_odd(a, b)
    };
    if k == 0 {
        g
    } else {
        g.shl(k)
    }
}

/// `gcd(x, w)` for nonzero `x` and a nonzero word `w`: with `w = 2^t·o`
/// (`o` odd), the power `2^min(t, tz(x))` times `gcd(o, x mod o)`, the
/// residue by Montgomery's reduction ([`Nat::residue_odd`], multiplications
/// only; the factor `2^(−64n)` it leaves is a unit modulo odd `o`) when `x`
/// has more than one limb, so no 128-by-64-bit division even for even `w`.
fn gcd_word(x: &Nat, w: u64) -> u64 {
    debug_assert!(w != 0);
    if x.n <= 1 {
        return gcd_u64(w, x.low_word() % w);
    }
    let t = w.trailing_zeros();
    let o = w >> t;
    let odd = if o == 1 {
        1
    } else {
        gcd_u64(o, x.residue_odd(o))
    };
    odd << t.min(x.trailing_zeros() as u32)
}

/// Halvings per round of [`gcd`], and the mask of the approximations' exact
/// low bits.
const ROUND: u32 = 30;
const LOW: u64 = (1 << ROUND) - 1;

/// [`gcd`] of odd `a`, `b` of at most `L − 1` limbs: passes on limb arrays of
/// the length that holds the larger number, down to one word.
fn gcd_odd(a: &Nat, b: &Nat) -> Nat {
    let (mut x, mut y) = (a.d, b.d);
    let mut n = a.n.max(b.n);
    loop {
        let r = match n {
            0 | 1 => return Nat::from_u128(gcd_u64(x[0], y[0]) as u128),
            // Each tier runs until the numbers fit the next shorter one.
            2 => passes::<2>(&mut x, &mut y, 1),
            3 => passes::<3>(&mut x, &mut y, 2),
            4 => passes::<4>(&mut x, &mut y, 3),
            5 => passes::<5>(&mut x, &mut y, 4),
            6 => passes::<6>(&mut x, &mut y, 5),
            7 => passes::<7>(&mut x, &mut y, 6),
            8 => passes::<8>(&mut x, &mut y, 7),
            _ => passes::<{ L - 1 }>(&mut x, &mut y, 8),
        };
        match r {
            Ok(limbs) => n = limbs,
            Err(g) => return g,
        }
    }
}

/// Passes of [`gcd`] on the low `N` limbs of `x`, `y` (`y` odd, both below
/// 2^(64N)) until the larger fits `below < N` limbs: `Ok` with its limb
/// count, or `Err` with the gcd when it is found (`x` became zero) or left
/// to [`gcd_big`].
#[inline(always)]
fn passes<const N: usize>(x: &mut [u64; L], y: &mut [u64; L], below: u64) -> Result<usize, Nat> {
    // The passes update the numbers in place (the gcd is the same for every
    // pair on the way, so even the fallback needs no earlier pair).
    let a: &mut [u64; N] = (&mut x[..N]).try_into().expect("N ≤ L");
    let b: &mut [u64; N] = (&mut y[..N]).try_into().expect("N ≤ L");
    let (mut ba, mut bb) = (bit_len(a), bit_len(b));
    loop {
        let m = ba.max(bb);
        if m <= 64 * below {
            return Ok(m.div_ceil(64) as usize);
        }
        pass(a, b, m);
        let (ma, mb) = (bit_len(a), bit_len(b));
        if ma + mb >= ba + bb {
            // No progress: a = 0 (then b is the gcd; a pass leaves such a
            // pair unchanged), or approximations that misled a whole pass
            // (never observed). The larger number alone need not shrink in
            // a pass (x̂a = x̂b ends the first round at once, and
            // a ← (a − b)/2³⁰ leaves b the larger), so the measure is the
            // sum of the lengths, as the product a·b falls by 2 per halving
            // in the exact binary gcd.
            if ma == 0 {
                return Err(limbs_nat(b));
            }
            #[cfg(test)]
            GCD_FALLBACK.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
            return Err(gcd_big(&limbs_nat(a), &limbs_nat(b)));
        }
        (ba, bb) = (ma, mb);
    }
}

/// The bit length of `x`.
#[inline(always)]
fn bit_len<const N: usize>(x: &[u64; N]) -> u64 {
    for i in (0..N).rev() {
        let v = x[i];
        if v != 0 {
            return 64 * i as u64 + 64 - v.leading_zeros() as u64;
        }
    }
    0
}

fn limbs_nat<const N: usize>(x: &[u64; N]) -> Nat {
    let mut r = Nat::ZERO;
    r.d[..N].copy_from_slice(x);
    r.n = N;
    r.trim()
}

/// Bits `[s, s + 63)` of `x < 2^(s + 63)`: `⌊x/2^s⌋`.
#[inline(always)]
fn window<const N: usize>(x: &[u64; N], s: u64) -> u64 {
    let (w, sh) = ((s / 64) as usize, (s % 64) as u32);
    let lo = x[w] as u128;
    let hi = if w + 1 < N { x[w + 1] as u128 } else { 0 };
    ((hi << 64 | lo) >> sh) as u64
}

/// One step of [`rounds`] (a macro so that the loop can be unrolled twice:
/// the register roles then stay put, no moves between steps).
macro_rules! binary_step {
    ($xa:ident, $xb:ident, $p0:ident, $p1:ident, $rest:ident) => {{
        let lt = $xa < $xb;
        let d = $xa.abs_diff($xb);
        $xb = $xa.min($xb);
        let (pmax, pmin) = if lt { ($p1, $p0) } else { ($p0, $p1) };
        $p0 = pmax - pmin;
        $p1 = pmin;
        let z = d.trailing_zeros() as i32;
        let left = $rest - z;
        if left <= 0 {
            // The last step: only the halvings left in the round.
            return ($p0, $p1 << $rest);
        }
        $rest = left;
        $xa = d >> z;
        $p1 <<= z;
    }};
}

/// One round: binary gcd steps on the approximations `x̂a`, `x̂b` (`x̂b` odd)
/// until 30 halvings, returning the rows `(f₀, g₀)`, `(f₁, g₁)` with
/// `x̂a·2³⁰ = f₀·x̂a₀ + g₀·x̂b₀` and `x̂b·2³⁰ = f₁·x̂a₀ + g₁·x̂b₀`, packed as
/// `f + g·2³²` in one `i64`.
///
/// Each step is `(x̂a, x̂b) ← (|x̂a − x̂b|, min)` (both odd, the difference
/// even) and then `x̂a` loses all its trailing zeros at once, the `b` row
/// doubling as many times; the step that would pass 30 halvings is the last
/// and halves only up to 30 (exit on a branch, off the dependency chain).
/// Every step halves at least once, so the rows' `|f| + |g|` stay at most
/// `2^i` after `i` halvings (a subtraction adds two rows, a halving doubles
/// one), hence at most 2³⁰ and the packing is exact; and the `b` row is even
/// at the end (its last step doubled it), which keeps the next round's `b`
/// odd: `2³⁰·b′ = f₁a + g₁b = 2³⁰·x̂b + f₁(a − x̂a₀) + g₁(b − x̂b₀)` with
/// `a − x̂a₀`, `b − x̂b₀` multiples of 2³⁰ and `f₁`, `g₁` even.
#[inline(always)]
fn rounds(mut xa: u64, mut xb: u64) -> (i64, i64) {
    debug_assert_eq!(xb & 1, 1, "x̂b odd");
    let (mut p0, mut p1) = (1i64, 1i64 << 32);
    let mut rest = ROUND as i32;
    let z = xa.trailing_zeros() as i32;
    if z >= rest {
        return (p0, p1 << rest);
    }
    xa >>= z;
    p1 <<= z;
    rest -= z;
    loop {
        binary_step!(xa, xb, p0, p1, rest);
        binary_step!(xa, xb, p0, p1, rest);
    }
}

/// `(f, g)` from `f + g·2³²` (`|f|, |g| ≤ 2³⁰`).
#[inline(always)]
fn unpack(p: i64) -> (i64, i64) {
    let f = p as i32 as i64;
    (f, (p - f) >> 32)
}

/// One pass of [`gcd`] on `a`, `b < 2^m` (`b` odd, `m > 64`): two rounds,
/// their matrices applied to the full numbers once (one round when the
/// numbers would fit a word after it).
///
/// Round 1 reads `ŵ = ⌊x/2^s⌋` with `s = m − 63` (63 bits) and uses its top
/// 34 bits. Round 2's approximations of `a′ = (f₀a + g₀b)/2³⁰`, `b′`: top
/// bits from `⌊(f₀ŵa + g₀ŵb)/2³⁰⌋ ≈ a′/2^s` (off by at most 2, from the
/// dropped low bits), low 30 bits exact from
/// `(f₀·(a mod 2⁶⁴) + g₀·(b mod 2⁶⁴)) mod 2⁶⁴ = 2³⁰·a′ mod 2⁶⁴`. A negative
/// approximation stands for `−a′` (the low bits are negated too, and the row
/// with them), so the second round's exact-division argument holds for
/// whichever sign was chosen.
#[inline(always)]
fn pass<const N: usize>(a: &mut [u64; N], b: &mut [u64; N], m: u64) {
    let s = m - 63;
    let (wa, wb) = (window(a, s), window(b, s));
    let (a0, b0) = (a[0], b[0]);
    let xa = (a0 & LOW) | ((wa << 1) & !LOW);
    let xb = (b0 & LOW) | ((wb << 1) & !LOW);
    let (p0, p1) = rounds(xa, xb);
    let ((f0, g0), (f1, g1)) = (unpack(p0), unpack(p1));
    // |f| + |g| ≤ 2³⁰ and ŵ < 2⁶³: the sums are below 2⁹³, so after the
    // shift they fit an i64.
    let (wa, wb) = (wa as i64 as i128, wb as i64 as i128);
    let ta = ((f0 as i128 * wa + g0 as i128 * wb) >> ROUND) as i64;
    let tb = ((f1 as i128 * wa + g1 as i128 * wb) >> ROUND) as i64;
    let (ua, ub) = (ta.unsigned_abs(), tb.unsigned_abs());
    let lz = (ua | ub).leading_zeros() as u64;
    if s + 64 - lz <= 64 {
        apply::<N, ROUND>(a, b, (f0, g0), (f1, g1));
        return;
    }
    let low = |f: i64, g: i64, neg: bool| {
        let l = (f as u64)
            .wrapping_mul(a0)
            .wrapping_add((g as u64).wrapping_mul(b0));
        let l = if neg { l.wrapping_neg() } else { l };
        (l >> ROUND) & LOW
    };
    // Top bits aligned so that the larger has its top bit at bit 63.
    let xa = low(f0, g0, ta < 0) | ((ua << (lz & 63)) & !LOW);
    let xb = low(f1, g1, tb < 0) | ((ub << (lz & 63)) & !LOW);
    let (q0, q1) = rounds(xa, xb);
    let ((h0, k0), (h1, k1)) = (unpack(q0), unpack(q1));
    let (f0, g0) = if ta < 0 { (-f0, -g0) } else { (f0, g0) };
    let (f1, g1) = if tb < 0 { (-f1, -g1) } else { (f1, g1) };
    // The product matrix: |F| + |G| ≤ 2⁶⁰.
    apply::<N, { 2 * ROUND }>(
        a,
        b,
        (h0 * f0 + k0 * f1, h0 * g0 + k0 * g1),
        (h1 * f0 + k1 * f1, h1 * g0 + k1 * g1),
    )
}

/// `(a, b) ← (|F₀a + G₀b|, |F₁a + G₁b|) / 2^K` for rows with
/// `|F| + |G| ≤ 2^K` (`K ≤ 60`) and sums divisible by `2^K`: both rows in
/// one pass over the limbs, in place (limb `i − 1` is written once limb `i`
/// is read), the shift folded in. The results are at most `max(a, b)`, so
/// they fit the `N` limbs; a negative sum is negated at the end.
#[inline(always)]
fn apply<const N: usize, const K: u32>(
    a: &mut [u64; N],
    b: &mut [u64; N],
    (f0, g0): (i64, i64),
    (f1, g1): (i64, i64),
) {
    // Signed carries: |F·x + G·y| < 2^124, so the sums stay far inside i128.
    let (mut ca, mut cb) = (0i128, 0i128);
    let (mut la, mut lb) = (0u64, 0u64);
    for i in 0..N {
        let (x, y) = (a[i] as i128, b[i] as i128);
        let ta = f0 as i128 * x + g0 as i128 * y + ca;
        let tb = f1 as i128 * x + g1 as i128 * y + cb;
        ca = ta >> 64;
        cb = tb >> 64;
        if i > 0 {
            a[i - 1] = (la >> K) | ((ta as u64) << (64 - K));
            b[i - 1] = (lb >> K) | ((tb as u64) << (64 - K));
        }
        la = ta as u64;
        lb = tb as u64;
    }
    // The sums are below 2^(64N + K) in magnitude: the carries' low K bits
    // complete the top limb; their signs are the sums' signs.
    a[N - 1] = (la >> K) | ((ca as u64) << (64 - K));
    b[N - 1] = (lb >> K) | ((cb as u64) << (64 - K));
    if ca < 0 {
        negate(a);
    }
    if cb < 0 {
        negate(b);
    }
}

/// `2^(64N) − x` (two's complement negation) for `0 < x < 2^(64N)`.
#[inline(always)]
fn negate<const N: usize>(x: &mut [u64; N]) {
    let mut c = 1u64;
    for v in x.iter_mut() {
        let (s, o) = (!*v).overflowing_add(c);
        *v = s;
        c = o as u64;
    }
}

/// The gcd through `BigUint` (Stein's binary method of `num-integer`): the
/// fallback of [`gcd`] beyond the fixed width and for a round without
/// progress.
fn gcd_big(a: &Nat, b: &Nat) -> Nat {
    use num_integer::Integer;
    Nat::from_biguint(&a.to_biguint().gcd(&b.to_biguint()))
}

/// `−m⁻¹ mod 2⁶⁴` for odd `m` (Newton's iteration: `m·m ≡ 1 (mod 8)`, and
/// each step doubles the correct low bits, 3 → 96).
pub(crate) fn neg_inv_word(m: u64) -> u64 {
    debug_assert!(m & 1 == 1);
    let mut inv = m;
    for _ in 0..5 {
        inv = inv.wrapping_mul(2u64.wrapping_sub(m.wrapping_mul(inv)));
    }
    inv.wrapping_neg()
}

/// Binary gcd of two words (Stein): shifts and subtractions, no division.
pub(crate) fn gcd_u64(mut x: u64, mut y: u64) -> u64 {
    if x == 0 || y == 0 {
        return x | y;
    }
    let k = (x | y).trailing_zeros();
    x >>= x.trailing_zeros();
    loop {
        y >>= y.trailing_zeros();
        (x, y) = (x.min(y), x.abs_diff(y));
        if y == 0 {
            return x << k;
        }
    }
}

impl Nat {
    /// `self mod v` for `v` of at least two limbs: schoolbook long division
    /// (Knuth, TAOCP vol. 2, §4.3.1, Algorithm D), the divisor normalised so
    /// that its top bit is set, each quotient digit estimated from the top two
    /// limbs and corrected at most twice, plus one rare add-back.
    pub(crate) fn rem(&self, v: &Nat) -> Nat {
        let n = v.n;
        assert!(n >= 2, "Nat::rem by a one-limb divisor");
        if self.cmp(v) == Ordering::Less {
            return *self;
        }
        let m = self.n;
        let s = v.d[n - 1].leading_zeros();
        let mut vn = [0u64; L];
        let mut un = [0u64; L + 1];
        for i in (1..n).rev() {
            vn[i] = (v.d[i] << s) | if s > 0 { v.d[i - 1] >> (64 - s) } else { 0 };
        }
        vn[0] = v.d[0] << s;
        un[m] = if s > 0 { self.d[m - 1] >> (64 - s) } else { 0 };
        for i in (1..m).rev() {
            un[i] = (self.d[i] << s) | if s > 0 { self.d[i - 1] >> (64 - s) } else { 0 };
        }
        un[0] = self.d[0] << s;
        const B: u128 = 1 << 64;
        for j in (0..=m - n).rev() {
            let top = ((un[j + n] as u128) << 64) | un[j + n - 1] as u128;
            let mut qhat = top / vn[n - 1] as u128;
            let mut rhat = top - qhat * vn[n - 1] as u128;
            while qhat >= B || qhat * vn[n - 2] as u128 > ((rhat << 64) | un[j + n - 2] as u128) {
                qhat -= 1;
                rhat += vn[n - 1] as u128;
                if rhat >= B {
                    break;
                }
            }
            let mut borrow = 0i128;
            let mut carry = 0u128;
            for i in 0..n {
                let p = qhat * vn[i] as u128 + carry;
                carry = p >> 64;
                let t = un[i + j] as i128 - (p as u64) as i128 + borrow;
                un[i + j] = t as u64;
                borrow = t >> 64;
            }
            let t = un[j + n] as i128 - carry as i128 + borrow;
            un[j + n] = t as u64;
            if t < 0 {
                #[cfg(test)]
                ADDBACK.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                let mut c = 0u128;
                for i in 0..n {
                    let x = un[i + j] as u128 + vn[i] as u128 + c;
                    un[i + j] = x as u64;
                    c = x >> 64;
                }
                un[j + n] = un[j + n].wrapping_add(c as u64);
            }
        }
        let mut r = Nat::ZERO;
        for i in 0..n {
            r.d[i] = (un[i] >> s) | if s > 0 { un[i + 1] << (64 - s) } else { 0 };
        }
        r.n = n;
        r.trim()
    }
}

/// A signed fixed-width integer: sign and magnitude.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Int {
    neg: bool,
    mag: Nat,
}

impl Int {
    pub(crate) const ZERO: Int = Int {
        neg: false,
        mag: Nat::ZERO,
    };
    pub(crate) fn from_i128(v: i128) -> Int {
        Int {
            neg: v < 0,
            mag: Nat::from_u128(v.unsigned_abs()),
        }
    }
    /// `±mag` (`neg`: negative; zero is never negative).
    pub(crate) fn from_nat(neg: bool, mag: Nat) -> Int {
        Int::norm(neg, mag)
    }
    fn norm(neg: bool, mag: Nat) -> Int {
        Int {
            neg: neg && !mag.is_zero(),
            mag,
        }
    }
    pub(crate) fn mag(&self) -> &Nat {
        &self.mag
    }
    pub(crate) fn is_neg(&self) -> bool {
        self.neg
    }
    /// −1, 0 or 1.
    pub(crate) fn signum(&self) -> i32 {
        if self.mag.is_zero() {
            0
        } else if self.neg {
            -1
        } else {
            1
        }
    }
    pub(crate) fn neg(&self) -> Int {
        Int::norm(!self.neg, self.mag)
    }
    pub(crate) fn add(&self, o: &Int) -> Int {
        if self.neg == o.neg {
            return Int::norm(self.neg, self.mag.add(&o.mag));
        }
        match self.mag.cmp(&o.mag) {
            Ordering::Less => Int::norm(o.neg, o.mag.sub(&self.mag)),
            _ => Int::norm(self.neg, self.mag.sub(&o.mag)),
        }
    }
    pub(crate) fn sub(&self, o: &Int) -> Int {
        self.add(&o.neg())
    }
    pub(crate) fn mul(&self, o: &Int) -> Int {
        Int::norm(self.neg != o.neg, self.mag.mul(&o.mag))
    }
    /// `self · 2^s` (panics beyond the 768 bits).
    pub(crate) fn shl(&self, s: u64) -> Int {
        Int::norm(self.neg, self.mag.shl(s))
    }
    pub(crate) fn to_bigint(self) -> BigInt {
        let s = if self.neg { BSign::Minus } else { BSign::Plus };
        BigInt::from_biguint(s, self.mag.to_biguint())
    }
    /// The magnitude's significant little-endian words.
    pub(crate) fn mag_words(&self) -> &[u64] {
        &self.mag.d[..self.mag.n]
    }
    /// `±m` from the magnitude's little-endian words (at most [`L`] of
    /// them; zero is never negative).
    pub(crate) fn from_words(neg: bool, m: &[u64]) -> Int {
        assert!(m.len() <= L, "Int overflow");
        let mut mag = Nat::ZERO;
        mag.d[..m.len()].copy_from_slice(m);
        mag.n = m.len();
        Int::norm(neg, mag.trim())
    }
}

// ---------------------------------------------------------------------------
// Lowest terms from a common denominator (the polytope fast path; the same
// method as the triangle-distance fast path's, shared here).
// ---------------------------------------------------------------------------

/// `x / g` for a divisor `g` of `x`.
pub(crate) fn div_exact(x: &Nat, g: &Nat) -> Nat {
    if g.is_one() {
        return *x;
    }
    // The power of two by a shift (gcds of integers in units of a power of
    // two carry many), the rest by a word when it fits one.
    let z = g.trailing_zeros();
    let (xs, gs);
    let (x, g) = if z > 0 {
        (xs, gs) = (x.shr(z), g.shr(z));
        (&xs, &gs)
    } else {
        (x, g)
    };
    if g.is_one() {
        *x
    } else if let Some(s) = g.to_u64() {
        x.divexact_small(s)
    } else {
        divexact_odd(x, g)
    }
}

/// `x / g` for an odd divisor `g` of `x` of two words or more, by Hensel
/// (right-to-left) exact division: each quotient word is the low word of
/// the remainder times `g⁻¹ mod 2⁶⁴`, and subtracting that multiple of `g`
/// clears the word (T. Jebelean, "An algorithm for exact division", J.
/// Symbolic Computation 15, 1993). No trial quotients, no `BigUint`.
fn divexact_odd(x: &Nat, g: &Nat) -> Nat {
    debug_assert!(g.d[0] & 1 == 1 && g.n >= 2);
    if x.n < g.n {
        return Nat::ZERO; // g divides x < g: x = 0
    }
    let inv = neg_inv_word(g.d[0]).wrapping_neg();
    let (xn, gn) = (x.n.min(L), g.n.min(L));
    let qn = xn - gn + 1;
    let mut r = x.d;
    let mut q = Nat::ZERO;
    for i in 0..qn {
        let qi = r[i].wrapping_mul(inv);
        q.d[i] = qi;
        if qi == 0 {
            continue;
        }
        // r −= qi·g·2^(64i); the words below i are zero already.
        let mut carry = 0u64;
        for j in 0..gn.min(xn - i) {
            let p = u128::from(qi) * u128::from(g.d[j]) + u128::from(carry);
            let (s, b) = r[i + j].overflowing_sub(p as u64);
            r[i + j] = s;
            carry = ((p >> 64) as u64) + u64::from(b);
        }
        let mut k = i + gn;
        while carry != 0 && k < xn {
            let (s, b) = r[k].overflowing_sub(carry);
            r[k] = s;
            carry = u64::from(b);
            k += 1;
        }
    }
    q.n = qn;
    q.trim()
}

/// The product of the nonzero magnitudes among `d` (1 if none).
pub(crate) fn nonzero_product(d: &[Int]) -> Nat {
    d.iter()
        .filter(|x| x.signum() != 0)
        .fold(Nat::from_u128(1), |p, x| p.mul(x.mag()))
}

/// All the gcds with one denominator through one gcd of full size.
///
/// Built from `den` and nonzero factors `xs`: `h = gcd(den, Π xs)`, the
/// product reduced modulo the odd part of `den` by Montgomery steps as it is
/// formed (no division). For any `x` that divides `Π xs` (or is congruent to
/// such a number modulo `den`), `gcd(x, den)` divides `h` and `h` divides
/// `den`, so `gcd(x, den) = gcd(x, h)`, and `h` is small for all but special
/// inputs (often 1).
pub(crate) struct Reducer {
    den: Nat,
    h: Nat,
}

impl Reducer {
    pub(crate) fn new(den: &Nat, xs: &[Nat]) -> Reducer {
        // den = 2^z·m with m odd: gcd(den, P) = 2^min(z, tz(P))·gcd(m, P).
        let z = den.trailing_zeros();
        let m = den.shr(z);
        let odd = odd_gcd(&m, xs);
        let tz: u64 = xs
            .iter()
            .filter(|x| !x.is_zero())
            .map(|x| x.trailing_zeros())
            .sum();
        Reducer {
            den: *den,
            h: odd.shl(z.min(tz)),
        }
    }

    /// `gcd(x, den)` for `x` dividing the product (`den` itself for `x = 0`).
    pub(crate) fn gcd(&self, x: &Nat) -> Nat {
        if x.is_zero() {
            return self.den;
        }
        gcd_with(&self.h, x)
    }
}

/// `gcd(h, x)` for nonzero `x`, cheaply when `h` is 1 or one word.
fn gcd_with(h: &Nat, x: &Nat) -> Nat {
    if h.is_one() {
        return *h;
    }
    match h.to_u64() {
        Some(h) => Nat::from_u128(gcd_word(x, h) as u128),
        None => gcd(h, x),
    }
}

/// `gcd(m, Π xs)` for odd `m`: the product reduced modulo `m` by Montgomery
/// steps as it is formed (no division), then one gcd of `m`'s size.
fn odd_gcd(m: &Nat, xs: &[Nat]) -> Nat {
    if m.is_one() {
        return *m;
    }
    let minv = neg_inv_word(m.low_word());
    const WIDTH: u64 = 64 * (L as u64 - 1);
    let mut p = Nat::from_u128(1);
    for x in xs.iter().filter(|x| !x.is_zero()) {
        if p.bits() + x.bits() > WIDTH {
            p = p.shrink_mod(m, minv).0;
        }
        p = if p.bits() + x.bits() > WIDTH {
            p.mul(&x.shrink_mod(m, minv).0)
        } else {
            p.mul(x)
        };
    }
    gcd(m, &p.shrink_mod(m, minv).0)
}

/// Values `x/den · 2^p` in lowest terms for integers `x` sharing one
/// denominator `den = 2^z·m` (`m` odd): [`Reducer`]'s one gcd taken on the
/// odd part `m` only (`h = gcd(m, Π xs)`), every power of two cancelled by
/// shifts (no gcd), and each reduced denominator converted to a `BigInt`
/// once for the values that share it (the last few are kept).
///
/// The result equals [`finish`]'s: `g = gcd(x, m)` is odd, so
/// `x/den·2^p = (x/g)/(m/g)·2^(p − z)`; with `t` the trailing zeros of
/// `x/g`, the odd `(x/g)/2^t` over the odd `m/g` is in lowest terms and the
/// power `2^(p − z + t)` goes to the numerator or the denominator.
pub(crate) struct Over {
    m: Nat,
    z: u64,
    h: Nat,
    /// The last few denominators `(m/g)·2^shift` as (g, shift, value).
    seen: [Option<(Nat, u64, BigInt)>; SEEN],
    next: usize,
}

/// How many denominators [`Over`] keeps (a point's coordinates whose
/// numerators have the same trailing zeros share one).
const SEEN: usize = 4;

impl Over {
    /// For `den > 0` and the factors `xs` of [`Reducer::new`] (zero ones are
    /// skipped in the product).
    pub(crate) fn new(den: &Nat, xs: &[Nat]) -> Over {
        let z = den.trailing_zeros();
        let m = den.shr(z);
        Over {
            h: odd_gcd(&m, xs),
            m,
            z,
            seen: Default::default(),
            next: 0,
        }
    }

    /// Whether `d` is the denominator this was built for.
    pub(crate) fn is_over(&self, d: &Nat) -> bool {
        self.m.shl(self.z) == *d
    }

    /// `gcd(r, m)` for `r` dividing `Π xs` (or congruent to such a number
    /// modulo `m`); `m` for `r = 0`.
    fn gcd(&self, r: &Nat) -> Nat {
        if r.is_zero() {
            return self.m;
        }
        gcd_with(&self.h, r)
    }

    /// `x/den · 2^p` in lowest terms, where `gcd(x, m) = gcd(r, m)` and `r`
    /// is as in [`Over::gcd`] (`r = x` when `x` itself divides the product).
    pub(crate) fn value(&mut self, x: &Int, r: &Nat, p: i64) -> num_rational::BigRational {
        if x.signum() == 0 {
            return num_rational::BigRational::new_raw(BigInt::from(0), BigInt::from(1));
        }
        let g = self.gcd(r);
        self.reduced(x, &g, p)
    }

    /// `s²/den · 2^p` in lowest terms, `s` as `r` in [`Over::gcd`]:
    /// `gcd(s², m) = g·gcd(g, m/g)` with `g = gcd(s, m)`.
    pub(crate) fn square(&mut self, s: &Int, p: i64) -> num_rational::BigRational {
        if s.signum() == 0 {
            return num_rational::BigRational::new_raw(BigInt::from(0), BigInt::from(1));
        }
        let g = self.gcd(s.mag());
        let g = if g.is_one() {
            g
        } else {
            g.mul(&gcd(&g, &div_exact(&self.m, &g)))
        };
        self.reduced(&s.mul(s), &g, p)
    }

    /// `x/den · 2^p` given `g = gcd(x, m)` (`x ≠ 0`).
    fn reduced(&mut self, x: &Int, g: &Nat, p: i64) -> num_rational::BigRational {
        // No copy for g = 1 (the common case).
        let quotient;
        let n = if g.is_one() {
            x.mag()
        } else {
            quotient = div_exact(x.mag(), g);
            &quotient
        };
        let t = n.trailing_zeros();
        let q = p - self.z as i64 + t as i64;
        // (n/2^t)·2^q, or n/2^t over a further 2^−q.
        let (num, shift) = if q >= 0 {
            (big(n, q - t as i64), 0)
        } else {
            (big(n, -(t as i64)), (-q) as u64)
        };
        let hit = self
            .seen
            .iter()
            .flatten()
            .find(|(lg, ls, _)| *ls == shift && lg == g);
        let d = match hit {
            Some((_, _, d)) => d.clone(),
            None => {
                let d = if g.is_one() {
                    big(&self.m, shift as i64)
                } else {
                    big(&div_exact(&self.m, g), shift as i64)
                };
                let d = BigInt::from(d);
                self.seen[self.next % SEEN] = Some((*g, shift, d.clone()));
                self.next += 1;
                d
            }
        };
        let s = if x.is_neg() {
            BSign::Minus
        } else {
            BSign::Plus
        };
        num_rational::BigRational::new_raw(BigInt::from_biguint(s, num), d)
    }
}

/// `n / d · 2^p` in lowest terms, given `g = gcd(|n|, d)` (`d > 0`).
pub(crate) fn finish(n: &Int, d: &Nat, g: &Nat, p: i64) -> num_rational::BigRational {
    use num_bigint::{BigInt, Sign as S};
    if n.signum() == 0 {
        return num_rational::BigRational::new_raw(BigInt::from(0), BigInt::from(1));
    }
    let quotients;
    let (nm, dm) = if g.is_one() {
        (n.mag(), d)
    } else {
        quotients = (div_exact(n.mag(), g), div_exact(d, g));
        (&quotients.0, &quotients.1)
    };
    // nm / dm is in lowest terms: at most one of them is even; the power of
    // two moves to the odd side after cancelling with the even one.
    let (sn, sd) = if p >= 0 {
        let t = (p as u64).min(dm.trailing_zeros());
        (p as u64 - t, t)
    } else {
        let t = ((-p) as u64).min(nm.trailing_zeros());
        (t, (-p) as u64 - t)
    };
    let (sn, sd) = (sn as i64, sd as i64);
    let (nb, db) = if p >= 0 {
        (big(nm, sn), big(dm, -sd))
    } else {
        (big(nm, -sn), big(dm, sd))
    };
    let s = if n.is_neg() { S::Minus } else { S::Plus };
    num_rational::BigRational::new_raw(BigInt::from_biguint(s, nb), BigInt::from(db))
}

/// `s² / d · 2^p` in lowest terms (`d > 0`), given `g = gcd(s, d)` (not of
/// `s²`): `s/g` and `d/g` are coprime, so `gcd(s², d) = g·gcd(g, d/g)`.
#[cfg(test)]
pub(crate) fn square_over(s: &Int, d: &Nat, g: &Nat, p: i64) -> num_rational::BigRational {
    let g = if g.is_one() {
        *g
    } else {
        g.mul(&gcd(g, &div_exact(d, g)))
    };
    finish(&s.mul(s), d, &g, p)
}

/// `x · 2^s` as a `BigUint`, for a shift of either sign (`s < 0`: `x` is
/// divisible by `2^−s`, the division exact).
///
/// One word conversion when a left-shifted value fits 128 bits; else the
/// shifted limbs, split into 32-bit digits of exactly the needed length, go
/// to `BigUint::from_slice` once (one allocation of the exact size). That is
/// the cheapest public route of num-bigint 0.4 to a value of several 64-bit
/// digits: `from_bytes_le` folds byte by byte (about 1.3 times the
/// instructions here), and `From<u128>` with shifts or ors allocates more
/// than once. A right shift here saves the caller's shifted copy.
pub(crate) fn big(x: &Nat, s: i64) -> BigUint {
    /// Limbs of the result written on the stack (larger shifts: `shl_big`).
    const W: usize = L + 4;
    let (d, n) = (&x.d, x.n.min(L));
    let mut out = [0u32; 2 * W];
    let len = if s >= 0 {
        let s = s as u64;
        if let Some(v) = x.to_u128() {
            if x.bits() + s <= 128 {
                // s ≤ 127 unless x = 0 (then s may be 128; 0 either way).
                return BigUint::from(v << (s % 128));
            }
        }
        let (w, b) = ((s / 64) as usize, (s % 64) as u32);
        if w + n + 1 > W {
            return x.shl_big(s);
        }
        let mut carry = 0u64;
        for (i, &v) in d[..n].iter().enumerate() {
            let o = (v << b) | carry;
            carry = if b == 0 { 0 } else { v >> (64 - b) };
            out[2 * (w + i)] = o as u32;
            out[2 * (w + i) + 1] = (o >> 32) as u32;
        }
        out[2 * (w + n)] = carry as u32;
        out[2 * (w + n) + 1] = (carry >> 32) as u32;
        w + n + (carry != 0) as usize
    } else {
        let r = s.unsigned_abs();
        #[cfg(test)]
        assert!(x.is_zero() || x.trailing_zeros() >= r, "big: inexact shift");
        let (w, b) = ((r / 64) as usize, (r % 64) as u32);
        if w >= n {
            return BigUint::ZERO;
        }
        let m = n - w;
        for i in 0..m {
            let next = d.get(i + w + 1).copied().unwrap_or(0);
            let o = (d[i + w] >> b) | if b == 0 { 0 } else { next << (64 - b) };
            out[2 * i] = o as u32;
            out[2 * i + 1] = (o >> 32) as u32;
        }
        // Only the top limb can have become zero.
        m - (out[2 * m - 1] == 0 && out[2 * m - 2] == 0) as usize
    };
    BigUint::from_slice(&out[..2 * len])
}

#[cfg(test)]
mod reduce_tests {
    use super::*;
    use num_integer::Integer;
    use num_rational::BigRational;

    /// finish and square_over against BigRational's own reduction, with
    /// planted common factors and powers of two on either side.
    #[test]
    fn lowest_terms_equal_bigrational() {
        let mut s = 99u64;
        let mut next = || crate::poly::planted::splitmix64(&mut s);
        for round in 0..3000u64 {
            let common = (next() % 1000 + 1) as i128 * if round % 3 == 0 { 1 << 20 } else { 1 };
            let n =
                (next() >> (next() % 60)) as i128 * common * if round % 2 == 0 { -1 } else { 1 };
            let d = ((next() >> (next() % 60)) | 1) as i128 * common;
            let p = (next() % 200) as i64 - 100;
            let (ni, dn) = (Int::from_i128(n), Nat::from_u128(d.unsigned_abs()));
            let red = Reducer::new(&dn, &[*ni.mag()]);
            let g = red.gcd(ni.mag());
            let two = |p: i64| {
                if p >= 0 {
                    BigRational::from_integer(num_bigint::BigInt::from(1) << p as usize)
                } else {
                    BigRational::new(1.into(), num_bigint::BigInt::from(1) << (-p) as usize)
                }
            };
            let want = BigRational::new(n.into(), d.into()) * two(p);
            let got = finish(&ni, &dn, &g, p);
            assert_eq!((got.numer(), got.denom()), (want.numer(), want.denom()));
            assert_eq!(
                g.to_biguint(),
                num_bigint::BigUint::from(n.unsigned_abs())
                    .gcd(&num_bigint::BigUint::from(d as u128))
            );
            let sq = square_over(&ni, &dn, &g, p);
            let want = BigRational::new(num_bigint::BigInt::from(n) * n, d.into()) * two(p);
            assert_eq!((sq.numer(), sq.denom()), (want.numer(), want.denom()));
        }
    }
}

#[cfg(test)]
mod over_tests {
    use super::*;
    use num_rational::BigRational;

    fn two(p: i64) -> BigRational {
        if p >= 0 {
            BigRational::from_integer(BigInt::from(1) << p as usize)
        } else {
            BigRational::new(1.into(), BigInt::from(1) << (-p) as usize)
        }
    }

    /// `Over::value` and `Over::square` against BigRational's own reduction
    /// (numerator and denominator, so lowest terms bit for bit), with
    /// planted odd and even common factors, several values per denominator
    /// (the cached denominator reused and replaced), zero numerators, and
    /// numerators given through a residue `r ≡ x (mod den)`.
    #[test]
    fn over_equals_bigrational() {
        let mut s = 4242u64;
        let mut next = || crate::poly::planted::splitmix64(&mut s);
        for round in 0..2000u64 {
            let common = (next() % 97 + 1) as i128 * (1i128 << (next() % 12));
            let d = (((next() >> (next() % 50)) | 1) as i128 * common) << (next() % 5);
            let dn = Nat::from_u128(d as u128);
            let xs: Vec<i128> = (0..4)
                .map(|k| {
                    let v = (next() >> (next() % 60 + 4)) as i128 * common;
                    if (round + k) % 7 == 0 {
                        0
                    } else if next() % 2 == 0 {
                        -v
                    } else {
                        v
                    }
                })
                .collect();
            let factors: Vec<Nat> = xs
                .iter()
                .filter(|&&v| v != 0)
                .map(|&v| Nat::from_u128(v.unsigned_abs()))
                .collect();
            let mut over = Over::new(&dn, &factors);
            for &x in &xs {
                let p = (next() % 300) as i64 - 150;
                let xi = Int::from_i128(x);
                let want = BigRational::new(x.into(), d.into()) * two(p);
                let got = over.value(&xi, xi.mag(), p);
                assert_eq!((got.numer(), got.denom()), (want.numer(), want.denom()));
                // The same value from x + k·d through the residue x.
                let k = (next() % 1000) as i128 - 500;
                let shifted = Int::from_i128(x + k * d);
                let want = BigRational::new((x + k * d).into(), d.into()) * two(p);
                let got = over.value(&shifted, xi.mag(), p);
                assert_eq!((got.numer(), got.denom()), (want.numer(), want.denom()));
                let want = BigRational::new(BigInt::from(x) * x, d.into()) * two(p);
                let got = over.square(&xi, p);
                assert_eq!((got.numer(), got.denom()), (want.numer(), want.denom()));
            }
        }
    }

    /// A random number of `words` words (0 to 2^(64·words) − 1).
    fn words(next: &mut impl FnMut() -> u64, words: usize) -> BigInt {
        (0..words).fold(BigInt::from(0), |v, _| (v << 64) + next())
    }

    /// One nonzero factor: `value` and `square` against BigRational on
    /// numerators of up to 9 words over denominators of up to 7, with
    /// planted common factors of up to 4 words, powers of two, zero factors
    /// beside the nonzero one, and values given through `x + k·den`.
    #[test]
    fn over_single_factor_equals_bigrational() {
        let mut s = 777u64;
        let mut next = || crate::poly::planted::splitmix64(&mut s);
        for round in 0..600usize {
            let g = words(&mut next, round % 5) | BigInt::from(1);
            let g = g << (next() % 70) as usize;
            let d = (words(&mut next, 1 + round % 3) | BigInt::from(1)) * &g;
            let x = words(&mut next, 1 + (round / 5) % 5) * &g;
            let x = if x == BigInt::from(0) { g.clone() } else { x };
            let x = if round % 2 == 0 { -x } else { x };
            if d.bits() > 7 * 64 || x.bits() > 9 * 64 {
                continue;
            }
            let (dn, xi) = (Nat::from_biguint(d.magnitude()), to_int(&x));
            let factors = match round % 3 {
                0 => vec![*xi.mag()],
                1 => vec![Nat::ZERO, *xi.mag()],
                _ => vec![*xi.mag(), Nat::ZERO, Nat::ZERO],
            };
            let mut over = Over::new(&dn, &factors);
            let p = (next() % 300) as i64 - 150;
            let want = BigRational::new(x.clone(), d.clone()) * two(p);
            let got = over.value(&xi, xi.mag(), p);
            assert_eq!((got.numer(), got.denom()), (want.numer(), want.denom()));
            let k = BigInt::from(next() % 1000) - 500;
            let shifted: BigInt = &x + &k * &d;
            if shifted.bits() <= 11 * 64 {
                let want = BigRational::new(shifted.clone(), d.clone()) * two(p);
                let got = over.value(&to_int(&shifted), xi.mag(), p);
                assert_eq!((got.numer(), got.denom()), (want.numer(), want.denom()));
            }
            if 2 * x.bits() <= 11 * 64 {
                let want = BigRational::new(&x * &x, d.clone()) * two(p);
                let got = over.square(&xi, p);
                assert_eq!((got.numer(), got.denom()), (want.numer(), want.denom()));
            }
        }
    }

    fn to_int(x: &BigInt) -> Int {
        let neg = x.sign() == BSign::Minus;
        Int::from_nat(neg, Nat::from_biguint(x.magnitude()))
    }
}

// ---------------------------------------------------------------------------
// Residues modulo an odd number of two words (Montgomery, no division).
// ---------------------------------------------------------------------------

/// `(o, −o⁻¹ mod 2⁶⁴)` when `m` is odd with 2⁶⁴ < m < 2¹²⁷ (the moduli of
/// [`residue_two`]), else `None`.
pub(crate) fn two_word_modulus(m: &Nat) -> Option<(u128, u64)> {
    let o = m.to_u128()?;
    (o & 1 == 1 && o > u64::MAX as u128 && o >> 127 == 0).then(|| (o, neg_inv_word(o as u64)))
}

/// `r < o` with `r ≡ x·2^(−64n) (mod o)` for the little-endian words `x`
/// (`n` of them) and an odd `o`, 2⁶⁴ < o < 2¹²⁷, with `minv = −o⁻¹ mod 2⁶⁴`
/// ([`two_word_modulus`]): Montgomery's reduction one word at a time from
/// the lowest (P. L. Montgomery, Math. Comp. 44, 1985), as
/// [`Nat::residue_odd`] with a modulus of two words, in `u128`.
///
/// The running r stays at most o (not below it: no subtraction per step).
/// Each step takes `T = r + xᵢ ≤ o + 2⁶⁴ − 1` (below 2¹²⁸) and
/// `q = T₀·minv mod 2⁶⁴`, so that `T + q·o ≡ 0 (mod 2⁶⁴)`; with
/// `q·o = a + b·2⁶⁴` (`a = q·o₀`, `b = q·o₁`) the low word `T₀ + lo(a)` is 0
/// (T₀ = 0, then q = 0) or exactly 2⁶⁴, so `(T + q·o)/2⁶⁴ =
/// T₁ + hi(a) + b + [T₀ ≠ 0]`, at most
/// `(o + 2⁶⁴ − 1 + (2⁶⁴ − 1)·o)/2⁶⁴ < o + 1` (no overflow): r ≤ o again,
/// and an r = o at the end is 0. Each step multiplies by 2^(−64) modulo o,
/// hence the factor; `r = 0` exactly when o divides x, and as 2 is a unit
/// modulo odd o, `gcd(o, r) = gcd(o, x)`.
pub(crate) fn residue_two(x: &[u64], o: u128, minv: u64) -> u128 {
    debug_assert!(o & 1 == 1 && o > u64::MAX as u128 && o >> 127 == 0);
    let (o0, o1) = (o as u64 as u128, o >> 64);
    let mut r = 0u128;
    for &xi in x {
        let t = r + xi as u128;
        let t0 = t as u64;
        let q = t0.wrapping_mul(minv) as u128;
        let a = q * o0;
        r = (t >> 64) + (a >> 64) + q * o1 + (t0 != 0) as u128;
    }
    if r == o {
        0
    } else {
        r
    }
}

/// `a·b` as four little-endian words.
pub(crate) fn mul_two(a: u128, b: u128) -> [u64; 4] {
    let (a0, a1, b0, b1) = (a as u64 as u128, a >> 64, b as u64 as u128, b >> 64);
    let (p00, p01, p10, p11) = (a0 * b0, a0 * b1, a1 * b0, a1 * b1);
    let mid = (p00 >> 64) + (p01 as u64 as u128) + (p10 as u64 as u128);
    let hi = p11 + (p01 >> 64) + (p10 >> 64) + (mid >> 64);
    [p00 as u64, mid as u64, hi as u64, (hi >> 64) as u64]
}

impl Nat {
    /// [`residue_two`] of this number's words.
    pub(crate) fn residue_two(&self, o: u128, minv: u64) -> u128 {
        residue_two(&self.d[..self.n.min(L)], o, minv)
    }
}

/// [`residue_two`] and [`mul_two`] against `BigUint`: the residue is below
/// the modulus and times 2^(64n) congruent to the number, on random odd
/// moduli of 65 to 127 bits (and the extremes 2⁶⁴ + 1, 2¹²⁷ − 1), numbers
/// of 0 to 12 words, multiples of the modulus (residue 0) and all-ones
/// words; the product of two words pairs is exact up to (2¹²⁸ − 1)².
#[cfg(test)]
mod two_word_tests {
    use super::*;

    fn xorshift(seed: &mut u64) -> u64 {
        *seed ^= *seed << 13;
        *seed ^= *seed >> 7;
        *seed ^= *seed << 17;
        *seed
    }

    #[test]
    fn residue_two_is_a_montgomery_residue() {
        let mut seed = 0x7f4a_7c15_9e37_79b9u64;
        let mut checked = 0;
        for k in 0..3000u32 {
            let o: u128 = match k % 50 {
                0 => (1u128 << 64) + 1,
                1 => (1u128 << 127) - 1,
                _ => {
                    let bits = 65 + k % 63;
                    let r = (xorshift(&mut seed) as u128) << 64 | xorshift(&mut seed) as u128;
                    (r >> (128 - bits)) | 1 | (1u128 << (bits - 1))
                }
            };
            assert!(two_word_modulus(&Nat::from_u128(o)).is_some());
            let (o2, minv) = two_word_modulus(&Nat::from_u128(o)).unwrap();
            assert_eq!(o2, o);
            let n = (k % 13) as usize;
            let mut words: Vec<u64> = (0..n)
                .map(|_| {
                    if k % 7 == 0 {
                        u64::MAX
                    } else {
                        xorshift(&mut seed)
                    }
                })
                .collect();
            let ob = BigUint::from(o);
            if k % 5 == 0 && n >= 3 {
                // A multiple of o: the words of o times a random number.
                let m = BigUint::from_slice(
                    &words[..n - 2]
                        .iter()
                        .flat_map(|w| [*w as u32, (*w >> 32) as u32])
                        .collect::<Vec<_>>(),
                ) * &ob;
                let mut digits = m.to_u64_digits();
                digits.resize(n, 0);
                words = digits;
            }
            let x = words
                .iter()
                .rev()
                .fold(BigUint::ZERO, |acc, w| (acc << 64u32) + BigUint::from(*w));
            let r = residue_two(&words, o, minv);
            assert!(r < o, "{r} {o}");
            let back = (BigUint::from(r) << (64 * n)) % &ob;
            assert_eq!(back, &x % &ob, "{words:?} {o}");
            if k % 5 == 0 && n >= 3 {
                assert_eq!(r, 0);
            }
            checked += 1;
        }
        assert_eq!(checked, 3000);
        // Two words pair products.
        for k in 0..2000u32 {
            let mut r = || (xorshift(&mut seed) as u128) << 64 | xorshift(&mut seed) as u128;
            let (a, b) = match k % 10 {
                0 => (u128::MAX, u128::MAX),
                1 => (u128::MAX, 1),
                _ => (r() >> (k % 128), r() >> (k % 97)),
            };
            let w = mul_two(a, b);
            let got = w
                .iter()
                .rev()
                .fold(BigUint::ZERO, |acc, v| (acc << 64u32) + BigUint::from(*v));
            assert_eq!(got, BigUint::from(a) * BigUint::from(b), "{a} {b}");
        }
        // Outside the two-word odd range: none.
        for m in [3u128, u64::MAX as u128, 1u128 << 100, (1u128 << 127) + 1] {
            assert!(two_word_modulus(&Nat::from_u128(m)).is_none(), "{m}");
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `div_exact` (shifts, one word, Hensel division) against `BigUint` on
    /// products of random numbers of every length, even and odd divisors.
    #[test]
    fn div_exact_matches_biguint() {
        let mut s = 0x2545_f491_4f6c_dd1du64;
        let mut next = move || {
            s ^= s << 13;
            s ^= s >> 7;
            s ^= s << 17;
            s
        };
        for k in 0..3000u64 {
            let (ga, qa) = (1 + (k % 6) as usize, (k / 6 % 5) as usize);
            let mut num = |words: usize| {
                let mut v = num_bigint::BigUint::from(0u32);
                for _ in 0..words {
                    v = (v << 64usize) + num_bigint::BigUint::from(next() >> (next() % 64));
                }
                v
            };
            let g = num(ga) + 1u32;
            let g = g << (k % 70) as usize;
            let q = num(qa);
            let x = &g * &q;
            let got = div_exact(&Nat::from_biguint(&x), &Nat::from_biguint(&g));
            assert_eq!(got.to_biguint(), q, "{x} / {g}");
        }
    }
    use num_integer::Integer;
    use num_traits::{One, Zero};

    fn rng(state: &mut u64) -> u64 {
        *state = state
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        let z = *state ^ (*state >> 29);
        z.wrapping_mul(0xBF58476D1CE4E5B9) ^ (z >> 32)
    }

    fn num(state: &mut u64, words: usize) -> BigUint {
        let mut v = BigUint::zero();
        for _ in 0..words {
            let w = rng(state);
            v = (v << 64usize) + BigUint::from(w >> (rng(state) % 64));
        }
        v
    }

    #[test]
    fn arithmetic_matches_biguint() {
        let mut s = 7u64;
        for round in 0..2000 {
            let (x, y) = (num(&mut s, round % 6), num(&mut s, round % 5));
            let (nx, ny) = (Nat::from_biguint(&x), Nat::from_biguint(&y));
            assert_eq!(nx.to_biguint(), x);
            assert_eq!(nx.add(&ny).to_biguint(), &x + &y);
            assert_eq!(nx.mul(&ny).to_biguint(), &x * &y);
            if x >= y {
                assert_eq!(nx.sub(&ny).to_biguint(), &x - &y);
            }
            assert_eq!(nx.cmp(&ny), x.cmp(&y));
            let m = (rng(&mut s) >> (round % 64)) | 1;
            let (q, r) = nx.divrem_small(m);
            assert_eq!((q.to_biguint(), r), (&x / m, (&x % m).try_into().unwrap()));
            assert_eq!(nx.mul_small(m).to_biguint(), &x * m);
            if ny.n >= 2 {
                assert_eq!(nx.rem(&ny).to_biguint(), &x % &y, "{x} % {y}");
                let z = &x * &y + &y - 1u32;
                if z.bits() <= 64 * L as u64 {
                    assert_eq!(Nat::from_biguint(&z).rem(&ny).to_biguint(), &z % &y);
                }
            }
            let sh = rng(&mut s) % 300;
            assert_eq!(nx.shr(sh).to_biguint(), &x >> sh);
            assert_eq!(nx.shl_big(sh), &x << sh);
            assert_eq!(big(&nx, sh as i64), &x << sh);
            let far = sh + 64 * (round as u64 % 30);
            assert_eq!(big(&nx, far as i64), &x << far);
            // Exact right shifts: of x·2^k by up to k bits.
            let k = rng(&mut s) % 200;
            if x.bits() + k <= 64 * L as u64 {
                let xk = Nat::from_biguint(&(&x << k));
                let r = rng(&mut s) % (k + 1);
                assert_eq!(big(&xk, -(r as i64)), &x << (k - r));
                assert_eq!(big(&xk, -(k as i64)), x);
            }
            if x.bits() + sh <= 64 * L as u64 {
                assert_eq!(nx.shl(sh).to_biguint(), &x << sh);
            }
            let w = rng(&mut s) >> (round % 64);
            if x.bits() + 64 <= 64 * L as u64 {
                assert_eq!(nx.mul_word(w).to_biguint(), &x * w);
            }
            assert_eq!(nx.shl_big(sh + 900), &x << (sh + 900));
            assert_eq!(nx.bits(), x.bits());
            if !x.is_zero() {
                assert_eq!(nx.trailing_zeros(), x.trailing_zeros().unwrap());
            }
            let (ix, iy) = (
                Int::from_i128(rng(&mut s) as i128 - (1i128 << 63)),
                Int::from_i128(-((rng(&mut s) as i128) << 40)),
            );
            let (bx, by) = (ix.to_bigint(), iy.to_bigint());
            assert_eq!(ix.add(&iy).to_bigint(), &bx + &by);
            assert_eq!(ix.sub(&iy).to_bigint(), &bx - &by);
            assert_eq!(ix.mul(&iy).mul(&ix).to_bigint(), &bx * &by * &bx);
        }
    }

    /// Long division on limb patterns that stress the quotient estimate
    /// (its corrections and the add-back step).
    #[test]
    fn remainder_on_extreme_limbs() {
        let vals = [0u64, 1, 1 << 61, (1 << 63) - 1, 1 << 63, u64::MAX];
        let nat = |d: &[u64]| {
            let mut r = Nat::ZERO;
            r.d[..d.len()].copy_from_slice(d);
            r.n = d.len();
            r.trim()
        };
        let mut k = 0;
        for x in 0..6usize.pow(4) {
            let u: Vec<u64> = (0..4).map(|i| vals[x / 6usize.pow(i) % 6]).collect();
            for y in 0..6usize.pow(3) {
                let v: Vec<u64> = (0..3).map(|i| vals[y / 6usize.pow(i) % 6]).collect();
                for len in [2, 3] {
                    let (nu, nv) = (nat(&u), nat(&v[..len]));
                    if nv.n < 2 {
                        continue;
                    }
                    let r = nu.rem(&nv).to_biguint();
                    assert_eq!(r, nu.to_biguint() % nv.to_biguint(), "{u:?} {v:?}");
                    k += 1;
                }
            }
        }
        assert!(k > 50_000);
        // The add-back step ran (counted in test builds only).
        assert!(ADDBACK.load(std::sync::atomic::Ordering::Relaxed) > 0);
    }

    #[test]
    fn division_by_a_word_on_extreme_values() {
        let ones = Nat::from_biguint(&((BigUint::from(1u32) << (64 * L)) - 1u32));
        let top = Nat::from_biguint(&(BigUint::from(1u32) << (64 * L - 1)));
        for x in [
            ones,
            top,
            Nat::from_u128(u128::MAX),
            Nat::from_u128(1),
            Nat::ZERO,
        ] {
            for m in [
                1,
                2,
                3,
                1 << 32,
                (1 << 63) - 1,
                1 << 63,
                (1 << 63) + 1,
                u64::MAX - 1,
                u64::MAX,
            ] {
                let (q, r) = x.divrem_small(m);
                let xb = x.to_biguint();
                assert_eq!(
                    (q.to_biguint(), r),
                    (&xb / m, (&xb % m).try_into().unwrap())
                );
            }
        }
    }

    #[test]
    fn montgomery_shrink_is_congruent() {
        let mut s = 17u64;
        for round in 0..3000 {
            let m = num(&mut s, 1 + round % 5) | BigUint::from(1u32);
            let x = num(&mut s, round % 12);
            if m.bits() < 2 || x.bits() > 64 * L as u64 || m.bits() > 64 * (L as u64 - 1) {
                continue;
            }
            let nm = Nat::from_biguint(&m);
            let minv = neg_inv_word(nm.d[0]);
            assert_eq!(nm.d[0].wrapping_mul(minv), u64::MAX, "−m⁻¹");
            let (r, k) = Nat::from_biguint(&x).shrink_mod(&nm, minv);
            assert!(r.n <= nm.n);
            let r = r.to_biguint();
            assert_eq!((r << (64 * k)) % &m, &x % &m, "{x} mod {m}");
        }
    }

    /// The Montgomery residue modulo an odd word: `r·2^(64n) ≡ x`, `r < m`,
    /// and through it gcd_with against BigUint (odd and even words).
    #[test]
    fn odd_word_residue_and_gcd_with() {
        let mut s = 23u64;
        for round in 0..4000 {
            let x = num(&mut s, 1 + round % 11);
            if x.is_zero() {
                continue;
            }
            let m = match round % 4 {
                0 => rng(&mut s) | 1,
                1 => (rng(&mut s) >> (rng(&mut s) % 63)) | 1,
                2 => u64::MAX - 2 * (rng(&mut s) % 4),
                _ => rng(&mut s) >> (rng(&mut s) % 64),
            }
            .max(2);
            let nx = Nat::from_biguint(&x);
            if m & 1 == 1 {
                let r = nx.residue_odd(m);
                assert!(r < m);
                let n = nx.n as u64;
                assert_eq!((BigUint::from(r) << (64 * n)) % m, &x % m, "{x} mod {m}");
            }
            let h = Nat::from_u128(m as u128);
            assert_eq!(gcd_with(&h, &nx).to_biguint(), x.gcd(&BigUint::from(m)));
        }
    }

    /// [`gcd_word`] against BigUint: words `2^t·o` (`t` from 0 to 63, `o`
    /// odd, 1 included) and numbers of 1 to 11 limbs that share a planted
    /// power of two and all, part or none of `o` (zero limbs and powers of
    /// two among them).
    #[test]
    fn word_gcd_with_planted_factors() {
        let mut s = 99u64;
        for round in 0..6000u64 {
            let t = rng(&mut s) % 64;
            let o = match round % 3 {
                0 => 1,
                _ => (rng(&mut s) >> (t + rng(&mut s) % (64 - t))) | 1,
            };
            let w = o << t;
            let share = match round % 4 {
                0 => BigUint::one(),
                1 => BigUint::from(o),
                2 => BigUint::from(o / gcd_u64(o, 3 + 2 * (rng(&mut s) % 50))),
                _ => BigUint::from(o) * 3u32,
            };
            let x = match round % 5 {
                0 => BigUint::one() << (rng(&mut s) % 600),
                _ => num(&mut s, 1 + (round as usize / 5) % 10) * share,
            } << (rng(&mut s) % 70);
            if x.is_zero() || x.bits() > 64 * L as u64 {
                continue;
            }
            let got = gcd_word(&Nat::from_biguint(&x), w);
            assert_eq!(BigUint::from(got), x.gcd(&BigUint::from(w)), "{x} {w}");
        }
    }

    #[test]
    fn exact_division_by_a_word() {
        let mut s = 11u64;
        for round in 0..4000 {
            let q = num(&mut s, 1 + round % 8);
            let m = match round % 4 {
                0 => rng(&mut s) | 1,
                1 => rng(&mut s) >> (rng(&mut s) % 64),
                2 => 1u64 << (rng(&mut s) % 64),
                _ => u64::MAX - (rng(&mut s) % 3),
            }
            .max(1);
            let x = &q * BigUint::from(m);
            if x.bits() > 64 * L as u64 {
                continue;
            }
            let got = Nat::from_biguint(&x).divexact_small(m);
            assert_eq!(got.to_biguint(), q, "{x} / {m}");
        }
    }

    #[test]
    fn gcd_equals_biguint_gcd() {
        let mut s = 3u64;
        for round in 0..3000 {
            let g = num(&mut s, 1 + round % 3);
            let (x, y) = (num(&mut s, round % 5) * &g, num(&mut s, round % 4) * &g);
            if x.bits() > 64 * L as u64 || y.bits() > 64 * L as u64 {
                continue;
            }
            let (nx, ny) = (Nat::from_biguint(&x), Nat::from_biguint(&y));
            assert_eq!(gcd(&nx, &ny).to_biguint(), x.gcd(&y), "{x} {y}");
        }
        // Shared powers of two and one-word cofactors.
        for round in 0..3000u64 {
            let g = num(&mut s, 1 + (round % 2) as usize) << (round % 130);
            let (x, y) = (num(&mut s, (round % 4) as usize) * &g, num(&mut s, 1) * &g);
            if x.bits() > 64 * (L as u64 - 1) || y.bits() > 64 * (L as u64 - 1) {
                continue;
            }
            let (nx, ny) = (Nat::from_biguint(&x), Nat::from_biguint(&y));
            assert_eq!(gcd(&nx, &ny).to_biguint(), x.gcd(&y), "{x} {y}");
            assert_eq!(gcd(&ny, &nx).to_biguint(), x.gcd(&y), "{x} {y}");
        }
        assert_eq!(GCD_FALLBACK.load(std::sync::atomic::Ordering::Relaxed), 0);
        // Odd cofactors of two to four words sharing a factor of one to
        // three words: the rounds end in the two-word steps.
        for round in 0..3000u64 {
            let g = num(&mut s, 1 + (round % 3) as usize) | BigUint::from(1u32);
            let x = (num(&mut s, 1 + (round % 3) as usize) | BigUint::from(1u32)) * &g;
            let y = (num(&mut s, 1 + (round % 2) as usize) | BigUint::from(1u32)) * &g;
            let (nx, ny) = (Nat::from_biguint(&x), Nat::from_biguint(&y));
            assert_eq!(gcd(&nx, &ny).to_biguint(), x.gcd(&y), "{x} {y}");
        }
        let g = |x: u128, y: u128| gcd(&Nat::from_u128(x), &Nat::from_u128(y)).to_u128();
        assert_eq!(g(3 << 100 | 1, 3 << 100 | 1), Some(3 << 100 | 1));
        assert_eq!(g(u128::MAX, 3), Some(3));
        // Consecutive Fibonacci numbers: all quotients 1, the longest run.
        let (mut f0, mut f1) = (BigUint::from(1u32), BigUint::from(1u32));
        for _ in 0..500 {
            (f0, f1) = (f1.clone(), f0 + f1);
        }
        let got = gcd(&Nat::from_biguint(&f0), &Nat::from_biguint(&f1));
        assert!(got.is_one());
    }
}

/// [`gcd`] against `num-integer`'s gcd on `BigUint`: random inputs of 1 to
/// 11 limbs of several shapes, with planted odd and even, one- and
/// multi-word common factors, equal inputs, multiples, zeros, pairs whose
/// approximations coincide, and numbers at the limb tiers' edges.
#[cfg(test)]
mod gcd_props {
    use super::*;
    use num_integer::Integer;
    use num_traits::{One, Zero};
    use proptest::prelude::*;

    fn cases() -> u32 {
        if std::env::var("EXACT_HEAVY").is_ok_and(|v| v == "1") {
            50_000
        } else {
            2_000
        }
    }

    fn next(s: &mut u64) -> u64 {
        crate::poly::planted::splitmix64(s)
    }

    /// A number of at most `limbs` words: 0 random, 1 random with a random
    /// length, 2 all ones, 3 sparse, 4 limbs from {0, 1, 2⁶³, 2⁶⁴ − 1},
    /// 5 just below or at 2^(64·limbs − 2), 6 a power of two.
    fn shaped(s: &mut u64, limbs: usize, shape: u8) -> BigUint {
        let top = 64 * limbs;
        match shape {
            0 => (0..limbs).fold(BigUint::zero(), |v, _| (v << 64u32) + next(s)),
            1 => shaped(s, limbs, 0) >> (next(s) % top as u64),
            2 => (BigUint::one() << top) - 1u32,
            3 => (0..1 + next(s) % 4).fold(BigUint::zero(), |v, _| {
                v | BigUint::one() << (next(s) % top as u64)
            }),
            4 => (0..limbs).fold(BigUint::zero(), |v, _| {
                let w = [0, 1, 1 << 63, u64::MAX][(next(s) % 4) as usize];
                (v << 64u32) + w
            }),
            6 => BigUint::one() << (next(s) % top as u64),
            _ => {
                let edge = BigUint::one() << (top - 2);
                let d = BigUint::from(next(s) % 1000);
                if next(s) % 2 == 0 && edge > d {
                    edge - d
                } else {
                    edge + d
                }
            }
        }
    }

    fn check(a: &BigUint, b: &BigUint) -> Result<(), TestCaseError> {
        if a.bits() > 64 * L as u64 || b.bits() > 64 * L as u64 {
            return Ok(());
        }
        let want = a.gcd(b);
        let (na, nb) = (Nat::from_biguint(a), Nat::from_biguint(b));
        prop_assert_eq!(gcd(&na, &nb).to_biguint(), want.clone(), "{} {}", a, b);
        prop_assert_eq!(gcd(&nb, &na).to_biguint(), want, "{} {}", b, a);
        Ok(())
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(cases()))]

        /// Cofactors times a planted factor (odd or shifted, 1 to 3 words,
        /// or none), and the degenerate relatives of each pair.
        #[test]
        fn gcd_matches_biguint(
            seed in any::<u64>(),
            (la, lb, lg) in (1usize..=11, 1usize..=11, 0usize..=3),
            (sa, sb, sg) in (0u8..7, 0u8..7, 0u8..7),
            shift in 0u64..200,
        ) {
            let mut s = seed;
            let g = if lg == 0 {
                BigUint::one()
            } else {
                let g = shaped(&mut s, lg, sg) | BigUint::one();
                if shift % 3 == 0 { g << shift } else { g }
            };
            // Cofactors short enough that most products stay within 11 limbs.
            let short = |l: usize| l.saturating_sub(lg).max(1);
            let a = shaped(&mut s, short(la), sa) * &g;
            let b = shaped(&mut s, short(lb), sb) * &g;
            check(&a, &b)?;
            check(&a, &a)?;
            check(&a, &BigUint::zero())?;
            check(&(&a * (next(&mut s) >> (next(&mut s) % 64))), &a)?;
            check(&(&a * &b), &b)?;
            // Equal low words and equal tops: the first round's
            // approximations coincide (x̂a = x̂b).
            let k = BigUint::from(next(&mut s) % 1000 + 1);
            check(&(&b + (k << 64u32)), &b)?;
        }
    }

    /// The edges of the limb tiers (2 to 8 and 11 limbs) and of the
    /// old 2^(64N − 2) headroom, with planted factors, against BigUint; and
    /// no pass ever failed to make progress.
    #[test]
    fn gcd_at_tier_edges() {
        let mut s = 2024u64;
        let mut n = 0;
        for limbs in 1..=11usize {
            let top = 64 * limbs as u64;
            let edges = [
                (BigUint::one() << top) - 1u32,
                (BigUint::one() << (top - 1)) + 1u32,
                (BigUint::one() << (top - 2)) + 1u32,
                (BigUint::one() << (top - 2)) - 1u32,
                (BigUint::one() << (top - 3)) + 3u32,
            ];
            for x in &edges {
                for y in &edges {
                    for g in [
                        BigUint::one(),
                        BigUint::from(3u32),
                        BigUint::from(next(&mut s) | 1),
                    ] {
                        let (x, y) = (x * &g, y * &g);
                        let r = (next(&mut s) | 1) % (&x | BigUint::one());
                        for (p, q) in [(&x, &y), (&x, &r), (&y, &r)] {
                            if p.bits() <= 64 * L as u64 && q.bits() <= 64 * L as u64 {
                                let (np, nq) = (Nat::from_biguint(p), Nat::from_biguint(q));
                                assert_eq!(gcd(&np, &nq).to_biguint(), p.gcd(q), "{p} {q}");
                                n += 1;
                            }
                        }
                    }
                }
            }
        }
        assert!(n > 2000);
        assert_eq!(GCD_FALLBACK.load(std::sync::atomic::Ordering::Relaxed), 0);
    }
}
