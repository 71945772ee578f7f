//! Kernels on integer polynomials: coefficients `Vec<BigInt>` in ascending powers, no trailing
//! zeros. This is the representation the isolation hot path works in; every transform here is
//! exact and changes a polynomial by a *positive* constant factor only, so signs are preserved.

use std::cmp::Ordering;

use num_bigint::{BigInt, Sign};
use num_integer::Integer;
use num_rational::BigRational;
use num_traits::{One, Signed, Zero};

/// Removes trailing zero coefficients.
pub(crate) fn trim(a: &mut Vec<BigInt>) {
    while a.last().is_some_and(Zero::is_zero) {
        a.pop();
    }
}

/// The sign of an integer as an [`Ordering`] against zero.
pub(crate) fn ord_of(x: &BigInt) -> Ordering {
    match x.sign() {
        Sign::Minus => Ordering::Less,
        Sign::NoSign => Ordering::Equal,
        Sign::Plus => Ordering::Greater,
    }
}

use crate::num::fixed::gcd_u64;

/// `|c| mod m` for a machine word `m > 0`.
fn rem_u64(c: &BigInt, m: u64) -> u64 {
    let mut r: u128 = 0;
    for d in c.iter_u64_digits().rev() {
        r = ((r << 64) | u128::from(d)) % u128::from(m);
    }
    r as u64
}

/// `a(x) mod m` (in `0..m`) for `x = ±1` and a word modulus `m > 0`.
pub(crate) fn value_mod(a: &[BigInt], x: i32, m: u64) -> u64 {
    let mut s: u128 = 0;
    let m128 = u128::from(m);
    for (i, c) in a.iter().enumerate() {
        let r = u128::from(rem_u64(c, m));
        let neg = c.is_negative() != (x < 0 && i % 2 == 1);
        s = (s + if neg { (m128 - r) % m128 } else { r }) % m128;
    }
    s as u64
}

/// Nonnegative gcd of the coefficients (zero for the zero polynomial). Once the running gcd
/// fits a machine word, the rest is word arithmetic.
pub(crate) fn content(a: &[BigInt]) -> BigInt {
    let mut g = BigInt::zero();
    let mut word: Option<u64> = None;
    for c in a {
        if c.is_zero() {
            continue;
        }
        match word {
            Some(1) => break,
            Some(w) => word = Some(gcd_u64(w, rem_u64(c, w))),
            None => {
                g = big_gcd(&g, c);
                word = u64::try_from(&g).ok();
            }
        }
    }
    match word {
        Some(w) => BigInt::from(w),
        None => g,
    }
}

/// gcd(|a|, |b|): the fixed-width gcd ([`crate::num::fixed::gcd`], a few word
/// operations per 30 bits) when both fit it, Lehmer's method above
/// (`num::gcd::gcd_lehmer`) instead of num-bigint's
/// bitwise gcd.
fn big_gcd(a: &BigInt, b: &BigInt) -> BigInt {
    if a.is_zero() || b.is_zero() {
        return a.gcd(b);
    }
    BigInt::from(crate::num::gcd::gcd_lehmer(a.magnitude(), b.magnitude()))
}

/// Divides by the (positive) content, keeping the sign of the polynomial.
pub(crate) fn divide_content(a: &mut [BigInt]) {
    let g = content(a);
    if !g.is_zero() && !g.is_one() {
        for c in a.iter_mut() {
            *c /= &g;
        }
    }
}

/// Primitive part with a positive leading coefficient.
pub(crate) fn primitive(a: &mut [BigInt]) {
    divide_content(a);
    if a.last().is_some_and(Signed::is_negative) {
        for c in a.iter_mut() {
            *c = -std::mem::take(c);
        }
    }
}

/// Divides out the largest power of two dividing every coefficient.
pub(crate) fn remove_pow2_content(a: &mut [BigInt]) {
    let mut tz = u64::MAX;
    for c in a.iter() {
        if let Some(t) = c.trailing_zeros() {
            tz = tz.min(t);
            if tz == 0 {
                return;
            }
        }
    }
    if tz != u64::MAX {
        for c in a.iter_mut() {
            *c >>= tz;
        }
    }
}

/// In place `a(x) ← a(x + 1)`: the classical O(n²) additions-only Taylor shift.
pub(crate) fn taylor_shift_one(a: &mut [BigInt]) {
    let n = a.len();
    for i in 0..n.saturating_sub(1) {
        for j in (i..n - 1).rev() {
            let (l, r) = a.split_at_mut(j + 1);
            l[j] += &r[0];
        }
    }
}

/// In place `a(x) ← a(x + s)`.
pub(crate) fn taylor_shift(a: &mut [BigInt], s: &BigInt) {
    if s.is_zero() {
        return;
    }
    if s.is_one() {
        return taylor_shift_one(a);
    }
    let n = a.len();
    for i in 0..n.saturating_sub(1) {
        for j in (i..n - 1).rev() {
            let (l, r) = a.split_at_mut(j + 1);
            l[j] += s * &r[0];
        }
    }
}

/// In place `a(x) ← den^d · a(num/den · x)`, i.e. `a_i ← a_i · num^i · den^(d−i)`; `den > 0`.
pub(crate) fn scale(a: &mut [BigInt], num: &BigInt, den: &BigInt) {
    let n = a.len();
    if n == 0 {
        return;
    }
    if !num.is_one() {
        let mut p = num.clone();
        for c in a.iter_mut().skip(1) {
            *c *= &p;
            p *= num;
        }
    }
    if !den.is_one() {
        let mut p = den.clone();
        for c in a.iter_mut().rev().skip(1) {
            *c *= &p;
            p *= den;
        }
    }
}

/// `den^d · a(num/den)` for `den > 0`: homogeneous Horner, same sign as `a(num/den)`.
pub(crate) fn eval_hom(a: &[BigInt], num: &BigInt, den: &BigInt) -> BigInt {
    let Some((last, rest)) = a.split_last() else {
        return BigInt::zero();
    };
    let mut acc = last.clone();
    if let Some(e) = den
        .trailing_zeros()
        .filter(|&z| z > 0 && den.bits() == z + 1)
    {
        // den = 2^e (dyadic points, the usual case): the powers of den are shifts.
        for (k, c) in rest.iter().rev().enumerate() {
            acc *= num;
            if !c.is_zero() {
                acc += c << (e * (k as u64 + 1));
            }
        }
        return acc;
    }
    if den.is_one() {
        for c in rest.iter().rev() {
            acc *= num;
            acc += c;
        }
    } else {
        let mut dp = BigInt::one();
        for c in rest.iter().rev() {
            dp *= den;
            acc *= num;
            acc += c * &dp;
        }
    }
    acc
}

/// Exact sign of `a(x)`.
pub(crate) fn sign_at(a: &[BigInt], x: &BigRational) -> Ordering {
    ord_of(&eval_hom(a, x.numer(), x.denom()))
}

/// Exact value of `a(x)`.
pub(crate) fn value_at(a: &[BigInt], x: &BigRational) -> BigRational {
    let d = a.len().saturating_sub(1);
    let den = num_traits::pow(x.denom().clone(), d);
    BigRational::new(eval_hom(a, x.numer(), x.denom()), den)
}

/// Sum of the coefficients, `a(1)`.
pub(crate) fn value_at_one(a: &[BigInt]) -> BigInt {
    let mut s = BigInt::zero();
    for c in a {
        s += c;
    }
    s
}

/// Number of sign variations in a coefficient sequence (zeros skipped).
pub(crate) fn variations(a: &[BigInt]) -> u32 {
    let mut last = Sign::NoSign;
    let mut v = 0;
    for c in a {
        let s = c.sign();
        if s != Sign::NoSign {
            if last != Sign::NoSign && s != last {
                v += 1;
            }
            last = s;
        }
    }
    v
}

/// Exact division by `x − 1` (synthetic division); the caller guarantees `a(1) = 0`.
pub(crate) fn deflate_one(a: &mut Vec<BigInt>) {
    let n = a.len();
    // a = (x − 1) q  ⇒  q_{n−2} = a_{n−1}, q_{i−1} = a_i + q_i.
    for i in (1..n - 1).rev() {
        let (l, r) = a.split_at_mut(i + 1);
        l[i] += &r[0];
    }
    a.remove(0);
}

/// Descartes' bound for the roots of `a` in the open interval (0, 1), capped at 2.
///
/// The bound is the number of sign variations of `(x+1)^d · a(1/(x+1))`: it is ≥ the number of
/// roots in (0, 1) and has the same parity; 0 and 1 are exact counts. `buf` is scratch space.
pub(crate) fn descartes_unit(a: &[BigInt], buf: &mut Vec<BigInt>) -> u32 {
    // Strip roots at 0 (they are outside the open interval).
    let z = a.iter().take_while(|c| c.is_zero()).count();
    let a = &a[z..];
    if a.len() < 2 {
        return 0;
    }
    // Cheap exits: the variations of `a` itself bound the positive roots.
    let v = variations(a);
    if v == 0 {
        return 0;
    }
    if v == 1 {
        // Exactly one positive root; it lies in (0, 1) iff a(0)·a(1) < 0.
        let s1 = ord_of(&value_at_one(a));
        let s0 = ord_of(&a[0]);
        return u32::from(s1 != Ordering::Equal && s1 != s0);
    }
    let n = a.len();
    buf.resize(n, BigInt::zero());
    for (dst, src) in buf.iter_mut().zip(a.iter().rev()) {
        dst.clone_from(src);
    }
    // Taylor shift by one; after pass i, buf[..=i] are final, so count as we go.
    let mut count = 0;
    let mut last = Sign::NoSign;
    for i in 0..n - 1 {
        for j in (i..n - 1).rev() {
            let (l, r) = buf.split_at_mut(j + 1);
            l[j] += &r[0];
        }
        let s = buf[i].sign();
        if s != Sign::NoSign {
            if last != Sign::NoSign && s != last {
                count += 1;
                if count >= 2 {
                    return 2;
                }
            }
            last = s;
        }
    }
    let s = buf[n - 1].sign();
    if last != Sign::NoSign && s != Sign::NoSign && s != last {
        count += 1;
    }
    count.min(2)
}

/// `C · a(lo + (hi − lo)·t)` with some constant `C > 0`, content removed; maps the roots of `a`
/// in (lo, hi) onto (0, 1) preserving order and signs.
pub(crate) fn affine_to_unit(a: &[BigInt], lo: &BigRational, hi: &BigRational) -> Vec<BigInt> {
    let mut r = a.to_vec();
    if lo.is_zero() && hi.is_one() {
        return r;
    }
    let (num, den) = (lo.numer(), lo.denom());
    // r(u) = den^d a(u/den), then r(u + num) = den^d a(u/den + lo).
    scale(&mut r, &BigInt::one(), den);
    taylor_shift(&mut r, num);
    // u/den = w t  ⇒  u = (den · w) t.
    let pow2 = |d: &BigInt| d.trailing_zeros().filter(|&z| d.bits() == z + 1);
    if let (Some(e), Some(f)) = (pow2(den), pow2(hi.denom())) {
        // Dyadic ends: den·w = wn / 2^(E − e) with w = wn / 2^E, in lowest terms by
        // shifting out the common powers of two (no gcd; the same m as below).
        let big = e.max(f);
        let wn = (hi.numer() << (big - f)) - (num << (big - e));
        let z = wn.trailing_zeros().unwrap_or(0).min(big - e);
        scale(&mut r, &(wn >> z), &(BigInt::one() << (big - e - z)));
    } else {
        let w = hi - lo;
        let m = BigRational::new(w.numer() * den, w.denom().clone());
        scale(&mut r, m.numer(), m.denom());
    }
    // Only the power-of-two content (shifts, no gcds): any positive factor is allowed, and
    // dyadic ranges put most of the common factor there.
    remove_pow2_content(&mut r);
    r
}

/// Descartes bound (capped at 2) for the roots of `a` in the open interval (lo, hi).
pub(crate) fn descartes_interval(a: &[BigInt], lo: &BigRational, hi: &BigRational) -> u32 {
    let r = affine_to_unit(a, lo, hi);
    descartes_unit(&r, &mut Vec::new())
}

/// Pseudo-remainder of `a` by `b` (nonzero): `lc(b)^k · a mod b` for some k ≥ 0.
pub(crate) fn prem(a: &[BigInt], b: &[BigInt]) -> Vec<BigInt> {
    prem_steps(a, b).0
}

/// [`prem`] and its k (the number of multiplications by lc(b)).
fn prem_steps(a: &[BigInt], b: &[BigInt]) -> (Vec<BigInt>, usize) {
    let mut r = a.to_vec();
    let db = b.len() - 1;
    let lb = &b[db];
    let mut k = 0;
    while r.len() > db {
        let dr = r.len() - 1;
        let lr = r[dr].clone();
        for c in r.iter_mut() {
            *c *= lb;
        }
        for (i, bc) in b.iter().enumerate() {
            r[dr - db + i] -= &lr * bc;
        }
        trim(&mut r);
        k += 1;
    }
    (r, k)
}

/// Gcd over `ℚ[x]` of two integer polynomials, returned primitive with positive leading
/// coefficient. Empty if both are zero.
///
/// The subresultant pseudo-remainder sequence (Collins; Brown and Traub, "On Euclid's
/// algorithm and the theory of subresultants", J. ACM 18, 1971; Knuth, *The Art of Computer
/// Programming* vol. 2, §4.6.1, Algorithm C): each remainder is divided exactly by a known
/// factor g·h^δ instead of by its content, which would need a gcd of its coefficients; the
/// coefficients still grow only linearly. The last nonzero remainder is made primitive once.
pub(crate) fn gcd(a: &[BigInt], b: &[BigInt]) -> Vec<BigInt> {
    let (mut a, mut b) = if a.len() >= b.len() {
        (a.to_vec(), b.to_vec())
    } else {
        (b.to_vec(), a.to_vec())
    };
    trim(&mut a);
    trim(&mut b);
    primitive(&mut a);
    primitive(&mut b);
    if b.is_empty() {
        return a;
    }
    let (mut g, mut h) = (BigInt::one(), BigInt::one());
    loop {
        let delta = (a.len() - b.len()) as u32;
        let r = prem_full(&a, &b);
        if r.is_empty() {
            primitive(&mut b);
            return b;
        }
        if r.len() == 1 {
            return vec![BigInt::one()];
        }
        a = std::mem::replace(&mut b, r);
        let div = &g * num_traits::pow(h.clone(), delta as usize);
        for c in b.iter_mut() {
            *c = &*c / &div;
        }
        g = a.last().expect("nonzero").clone();
        h = match delta {
            0 => h,
            1 => g.clone(),
            _ => {
                num_traits::pow(g.clone(), delta as usize) / num_traits::pow(h, delta as usize - 1)
            }
        };
    }
}

/// The pseudo-remainder `lc(b)^(deg a − deg b + 1) · a mod b` (the exact power, which the
/// subresultant sequence needs; `deg a ≥ deg b`, `b` nonzero).
fn prem_full(a: &[BigInt], b: &[BigInt]) -> Vec<BigInt> {
    let (mut r, k) = prem_steps(a, b);
    let e = a.len() - b.len() + 1 - k;
    if e > 0 && !r.is_empty() {
        let f = num_traits::pow(b[b.len() - 1].clone(), e);
        for c in r.iter_mut() {
            *c *= &f;
        }
    }
    r
}

/// The primitive pseudo-remainder sequence gcd (content removed at every step): the
/// reference the subresultant [`gcd`] is tested against.
#[cfg(test)]
fn gcd_primitive_prs(a: &[BigInt], b: &[BigInt]) -> Vec<BigInt> {
    let (mut a, mut b) = if a.len() >= b.len() {
        (a.to_vec(), b.to_vec())
    } else {
        (b.to_vec(), a.to_vec())
    };
    primitive(&mut a);
    primitive(&mut b);
    while !b.is_empty() {
        let mut r = prem(&a, &b);
        primitive(&mut r);
        a = b;
        b = r;
    }
    a
}

/// Exact quotient `a / b` in `ℤ[x]` (`b` nonzero); `None` if `b` does not divide `a` with an
/// integer quotient. For a primitive `b` that divides `a` over ℚ the quotient is integral
/// (Gauss's lemma), so this is exact division over ℚ without rationals.
pub(crate) fn div_exact(a: &[BigInt], b: &[BigInt]) -> Option<Vec<BigInt>> {
    if b.is_empty() {
        return None;
    }
    if a.is_empty() {
        return Some(Vec::new());
    }
    if a.len() < b.len() {
        return None;
    }
    let db = b.len() - 1;
    let lb = &b[db];
    let mut r = a.to_vec();
    let mut q = vec![BigInt::zero(); a.len() - db];
    for k in (0..q.len()).rev() {
        let (f, rem) = r[k + db].div_rem(lb);
        if !rem.is_zero() {
            return None;
        }
        if !f.is_zero() {
            for (i, bc) in b.iter().enumerate() {
                r[k + i] -= &f * bc;
            }
        }
        q[k] = f;
    }
    if r[..db].iter().any(|c| !c.is_zero()) {
        return None;
    }
    trim(&mut q);
    Some(q)
}

/// `a − b`.
fn sub_poly(a: &[BigInt], b: &[BigInt]) -> Vec<BigInt> {
    let n = a.len().max(b.len());
    let mut c: Vec<BigInt> = (0..n)
        .map(|i| match (a.get(i), b.get(i)) {
            (Some(x), Some(y)) => x - y,
            (Some(x), None) => x.clone(),
            (None, Some(y)) => -y,
            (None, None) => BigInt::zero(),
        })
        .collect();
    trim(&mut c);
    c
}

/// Yun's square-free factorization over ℤ: primitive, pairwise coprime, non-constant `fᵢ`
/// (positive leading coefficients) with `f = c · ∏ fᵢ^mᵢ`, as `(fᵢ, mᵢ)` with increasing `mᵢ`.
/// Every division is exact in `ℤ[x]` (primitive divisors, Gauss's lemma); Yun's recurrence
/// only needs `b` and `c` divided by the same polynomial at each step, whatever its scale.
pub(crate) fn square_free_factors(f: &[BigInt]) -> Vec<(Vec<BigInt>, u32)> {
    let mut f = f.to_vec();
    trim(&mut f);
    if f.len() < 2 {
        return Vec::new();
    }
    primitive(&mut f);
    let df = derivative(&f);
    let a0 = gcd(&f, &df);
    let mut b = div_exact(&f, &a0).expect("gcd divides");
    let c = div_exact(&df, &a0).expect("gcd divides");
    let mut d = sub_poly(&c, &derivative(&b));
    let mut out = Vec::new();
    let mut i = 1;
    while b.len() > 1 {
        let a = gcd(&b, &d);
        b = div_exact(&b, &a).expect("gcd divides");
        let c = div_exact(&d, &a).expect("gcd divides");
        if a.len() > 1 {
            out.push((a, i));
        }
        i += 1;
        d = sub_poly(&c, &derivative(&b));
    }
    out
}

/// Derivative of an integer polynomial.
pub(crate) fn derivative(a: &[BigInt]) -> Vec<BigInt> {
    a.iter()
        .enumerate()
        .skip(1)
        .map(|(i, c)| c * BigInt::from(i))
        .collect()
}

// --- modular square-free test ---------------------------------------------------------------

/// The Mersenne prime 2^61 − 1: reduction is two shifts and adds.
const P61: u64 = (1 << 61) - 1;

fn mulmod(a: u64, b: u64) -> u64 {
    let x = u128::from(a) * u128::from(b);
    let r = (x as u64 & P61) + (x >> 61) as u64;
    let r = (r & P61) + (r >> 61);
    if r >= P61 {
        r - P61
    } else {
        r
    }
}

fn submod(a: u64, b: u64) -> u64 {
    if a >= b {
        a - b
    } else {
        a + (P61 - b)
    }
}

fn reduce(c: &BigInt) -> u64 {
    let mut r: u64 = 0;
    for d in c.iter_u64_digits().rev() {
        // r·2^64 + d, with 2^64 ≡ 8 (mod 2^61 − 1).
        let hi = mulmod(r, 8);
        let lo = (d & P61) + (d >> 61);
        r = (hi + lo) % P61;
    }
    if c.is_negative() && r != 0 {
        P61 - r
    } else {
        r
    }
}

/// Degree of gcd(a, b) over 𝔽_p, p = 2^61 − 1.
fn gcd_degree_mod(a: Vec<u64>, b: Vec<u64>) -> usize {
    gcd_mod(a, b).len().saturating_sub(1)
}

/// gcd(a, b) over 𝔽_p, p = 2^61 − 1, up to a unit, by division-free pseudo-remainders
/// (`a ← lc(b)·a − lc(a)·x^k·b` keeps the gcd up to a unit).
fn gcd_mod(mut a: Vec<u64>, mut b: Vec<u64>) -> Vec<u64> {
    let trim_mod = |v: &mut Vec<u64>| {
        while v.last() == Some(&0) {
            v.pop();
        }
    };
    trim_mod(&mut a);
    trim_mod(&mut b);
    while !b.is_empty() {
        let db = b.len() - 1;
        let lb = b[db];
        while a.len() > db {
            let da = a.len() - 1;
            let la = a[da];
            for x in a.iter_mut() {
                *x = mulmod(*x, lb);
            }
            for (i, &bc) in b.iter().enumerate() {
                let x = &mut a[da - db + i];
                *x = submod(*x, mulmod(la, bc));
            }
            trim_mod(&mut a);
        }
        std::mem::swap(&mut a, &mut b);
    }
    a
}

/// `true` if the polynomials are proven to have no common non-constant factor over ℚ:
/// their gcd modulo p = 2^61 − 1 is a nonzero constant, where p does not divide the leading
/// coefficient of `polys[0]`. `false` means "not proven". Sound: the gcd G over ℚ (primitive)
/// divides `polys[0]`, so p ∤ lc(G), so G mod p keeps its degree and divides every reduced
/// polynomial, hence deg G ≤ the degree of their gcd modulo p.
pub(crate) fn coprime_mod_p(polys: &[&[BigInt]]) -> bool {
    let Some((first, rest)) = polys.split_first() else {
        return false;
    };
    let mut g: Vec<u64> = first.iter().map(reduce).collect();
    if g.last().is_none_or(|&c| c == 0) {
        return false;
    }
    if g.len() == 1 {
        return true;
    }
    for p in rest {
        let pm: Vec<u64> = p.iter().map(reduce).collect();
        g = gcd_mod(g, pm);
        if g.len() == 1 {
            return true;
        }
    }
    false
}

/// `c mod (2^61 − 1)` for a machine integer (no division).
fn reduce_i128(c: i128) -> u64 {
    let m = c.unsigned_abs();
    let (hi, lo) = ((m >> 64) as u64, m as u64);
    // m = hi·2^64 + lo, 2^64 ≡ 8.
    let h = mulmod((hi & P61) + (hi >> 61), 8);
    let l = (lo & P61) + (lo >> 61);
    let r = (h + l) % P61;
    if c < 0 && r != 0 {
        P61 - r
    } else {
        r
    }
}

/// [`coprime_mod_p`] for polynomials with `i128` coefficients (same certificate).
pub(crate) fn coprime_mod_p_i128(polys: &[&[i128]]) -> bool {
    let Some((first, rest)) = polys.split_first() else {
        return false;
    };
    let mut g: Vec<u64> = first.iter().map(|&c| reduce_i128(c)).collect();
    if g.last().is_none_or(|&c| c == 0) {
        return false;
    }
    if g.len() == 1 {
        return true;
    }
    for p in rest {
        let pm: Vec<u64> = p.iter().map(|&c| reduce_i128(c)).collect();
        g = gcd_mod(g, pm);
        if g.len() == 1 {
            return true;
        }
    }
    false
}

/// `true` if `a` (degree ≥ 1) is proven square-free by gcd(a, a′) = 1 modulo the prime
/// p = 2^61 − 1, when p divides neither the leading coefficient nor the degree. `false` means
/// "not proven" (the caller then runs the exact square-free decomposition). Sound: for such a
/// prime, deg gcd(ā, ā′) over 𝔽_p ≥ deg gcd(a, a′) over ℚ.
pub(crate) fn square_free_mod_p(a: &[BigInt]) -> bool {
    let d = a.len() - 1;
    let am: Vec<u64> = a.iter().map(reduce).collect();
    if am[d] == 0 || (d as u64) % P61 == 0 {
        return false;
    }
    let dm: Vec<u64> = am
        .iter()
        .enumerate()
        .skip(1)
        .map(|(i, &c)| mulmod(c, i as u64))
        .collect();
    gcd_degree_mod(am, dm) == 0
}

/// The product of two integer coefficient vectors (ascending powers); empty if
/// either is.
pub(crate) fn mul(a: &[BigInt], b: &[BigInt]) -> Vec<BigInt> {
    if a.is_empty() || b.is_empty() {
        return Vec::new();
    }
    let mut c = vec![BigInt::zero(); a.len() + b.len() - 1];
    for (i, x) in a.iter().enumerate() {
        if x.is_zero() {
            continue;
        }
        for (j, y) in b.iter().enumerate() {
            if !y.is_zero() {
                c[i + j] += x * y;
            }
        }
    }
    c
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Marsaglia's xorshift64 from `s`: the tests' deterministic bits.
    fn xorshift(mut s: u64) -> impl FnMut() -> u64 {
        move || {
            s ^= s << 13;
            s ^= s >> 7;
            s ^= s << 17;
            s
        }
    }

    fn z(v: &[i64]) -> Vec<BigInt> {
        v.iter().map(|&c| BigInt::from(c)).collect()
    }

    #[test]
    /// Lehmer's reduction keeps the gcd: the fixed-width-plus-Lehmer gcd
    /// equals num-bigint's on numbers up to 3,000 bits, with and without a
    /// large common factor, of equal and of very different sizes.
    fn big_gcd_matches_num_bigint_above_fixed_width() {
        let mut next = xorshift(0x2545f4914f6cdd1du64);
        let mut big = |bits: u64| -> BigInt {
            let mut x = BigInt::from(next() | 1);
            while x.bits() < bits {
                x = (x << 64u32) + BigInt::from(next());
            }
            let drop = x.bits() - bits.max(1);
            x >> drop
        };
        for k in 0..300u64 {
            let common = big(1 + (k * 53) % 1500);
            let a = &common * big(1 + (k * 37) % 1500);
            let b = &common * big(1 + (k * 91) % 1500);
            let b = if k % 3 == 0 { -b } else { b };
            assert_eq!(big_gcd(&a, &b), a.gcd(&b), "{k}");
            // Equal numbers and a multiple.
            assert_eq!(big_gcd(&a, &a), a.gcd(&a));
            let m = &a * big(20);
            assert_eq!(big_gcd(&m, &a), m.gcd(&a));
        }
    }

    #[test]
    /// The dyadic shortcut of `affine_to_unit` gives the rational formula's
    /// polynomial (computed here with `BigRational` arithmetic).
    fn affine_to_unit_dyadic_matches_rational() {
        let q = |n: i64, d: u32| BigRational::new(n.into(), BigInt::one() << d);
        let a = z(&[3, -7, 0, 11, -2]);
        for (lo, hi) in [
            (q(0, 0), q(1, 0)),
            (q(1, 2), q(3, 2)),
            (q(-5, 3), q(7, 10)),
            (q(1, 52), q(3, 60)),
            (q(5, 0), q(21, 2)),
        ] {
            let got = affine_to_unit(&a, &lo, &hi);
            // Reference: den^d·a(lo + w·t) has the coefficients of the same
            // polynomial up to a positive factor; compare after making both
            // primitive.
            let w = &hi - &lo;
            let mut want: Vec<BigRational> = vec![BigRational::zero(); a.len()];
            // Horner in rationals: p(t) = Σ a_i (lo + w t)^i.
            let mut pw: Vec<BigRational> = vec![BigRational::one()];
            for c in &a {
                for (k, x) in pw.iter().enumerate() {
                    want[k] += x * BigRational::from_integer(c.clone());
                }
                let mut next = vec![BigRational::zero(); pw.len() + 1];
                for (k, x) in pw.iter().enumerate() {
                    next[k] += x * &lo;
                    next[k + 1] += x * &w;
                }
                pw = next;
            }
            let l = want.iter().fold(BigInt::one(), |l, x| l.lcm(x.denom()));
            let mut want: Vec<BigInt> = want.iter().map(|x| x.numer() * (&l / x.denom())).collect();
            let mut got = got;
            primitive(&mut want);
            primitive(&mut got);
            assert_eq!(got, want, "{lo} {hi}");
        }
    }

    /// The subresultant gcd equals the primitive-sequence gcd on products of
    /// random factors (common factors of several degrees, repeated factors,
    /// coprime pairs, large coefficients).
    #[test]
    fn subresultant_gcd_matches_primitive_sequence() {
        let mut next = xorshift(0x243f6a8885a308d3u64);
        let mut poly = |deg: u64, bits: u32| -> Vec<BigInt> {
            let mut p: Vec<BigInt> = (0..=deg)
                .map(|_| {
                    (BigInt::from(next() as i64) << (next() % u64::from(bits.max(1)))) >> 20u32
                })
                .collect();
            if p.last().is_some_and(|c| c.is_zero()) {
                *p.last_mut().unwrap() = BigInt::one();
            }
            p
        };
        for k in 0..300u64 {
            let common = poly(k % 4, 200);
            let mut a = mul(&common, &poly(1 + k % 5, 64));
            let mut b = mul(&common, &poly(k % 3, 300));
            if k % 5 == 0 {
                a = mul(&a, &common);
            }
            if k % 7 == 0 {
                b = mul(&b, &b);
            }
            trim(&mut a);
            trim(&mut b);
            assert_eq!(gcd(&a, &b), gcd_primitive_prs(&a, &b), "{k}");
            assert_eq!(gcd(&b, &a), gcd_primitive_prs(&b, &a), "{k}");
            let d = derivative(&a);
            assert_eq!(gcd(&a, &d), gcd_primitive_prs(&a, &d), "{k}");
        }
    }

    /// The shift path of `eval_hom` (power-of-two denominators) gives
    /// den^d·a(num/den), checked against rational evaluation.
    #[test]
    fn eval_hom_dyadic_matches_rational_value() {
        let a = z(&[5, -3, 0, 7, -11, 2]);
        for (num, e) in [
            (3i64, 1u32),
            (-7, 4),
            (1, 60),
            (123456789, 40),
            (0, 3),
            (-1, 0),
        ] {
            let den = BigInt::one() << e;
            let x = BigRational::new(num.into(), den.clone());
            // Σ aᵢ·xⁱ in rationals, independently of eval_hom.
            let value = a.iter().rev().fold(BigRational::zero(), |acc, c| {
                acc * &x + BigRational::from_integer(c.clone())
            });
            let want = value * BigRational::from_integer(num_traits::pow(den.clone(), 5));
            assert_eq!(
                BigRational::from_integer(eval_hom(&a, &num.into(), &den)),
                want
            );
        }
    }

    /// `content` equals the gcd `num-bigint` computes (folded over the
    /// nonzero coefficients) for coefficients sharing a planted common factor,
    /// of 1 to 900 bits (across the fixed-width limit), with signs and zeros.
    #[test]
    fn content_matches_num_bigint_gcd() {
        let mut next = xorshift(0x9e3779b97f4a7c15u64);
        for k in 0..400 {
            let mut big = |bits: u64| -> BigInt {
                let mut x = BigInt::from(next() | 1);
                while x.bits() < bits {
                    x = (x << 64u32) + BigInt::from(next());
                }
                let drop = x.bits() - bits.max(1);
                x >> drop
            };
            let common = big(1 + k % 300);
            let a: Vec<BigInt> = (0..1 + k % 5)
                .map(|i| {
                    if (k + i) % 7 == 3 {
                        BigInt::zero()
                    } else {
                        let c = &common * big(1 + (k * 37 + i * 101) % 600);
                        if (k + i) % 2 == 0 {
                            -c
                        } else {
                            c
                        }
                    }
                })
                .collect();
            let want = a
                .iter()
                .filter(|c| !c.is_zero())
                .fold(BigInt::zero(), |g, c| g.gcd(c));
            assert_eq!(content(&a), want, "{a:?}");
        }
    }

    #[test]
    fn taylor_shift_matches_binomial() {
        // x^3 at x+1 = 1 + 3x + 3x^2 + x^3
        let mut a = z(&[0, 0, 0, 1]);
        taylor_shift_one(&mut a);
        assert_eq!(a, z(&[1, 3, 3, 1]));
        let mut b = z(&[0, 0, 1]);
        taylor_shift(&mut b, &BigInt::from(-2));
        assert_eq!(b, z(&[4, -4, 1]));
    }

    #[test]
    fn gcd_of_products() {
        // (x−1)(x−2) and (x−1)(x+3)
        let g = gcd(&z(&[2, -3, 1]), &z(&[-3, 2, 1]));
        assert_eq!(g, z(&[-1, 1]));
    }

    #[test]
    fn modular_square_free() {
        assert!(square_free_mod_p(&z(&[2, -3, 1])));
        assert!(!square_free_mod_p(&z(&[1, -2, 1])));
    }

    #[test]
    fn deflate_by_x_minus_one() {
        let mut a = z(&[2, -3, 1]);
        deflate_one(&mut a);
        assert_eq!(a, z(&[-2, 1]));
    }

    #[test]
    fn yun_over_z_reconstructs_the_polynomial() {
        let mut s = 99u64;
        for case in 0..300 {
            let mut r = |m: u64| crate::poly::planted::splitmix64(&mut s) % m;
            let mut f = z(&[r(5) as i64 + 1]);
            for _ in 0..1 + r(3) {
                let g: Vec<BigInt> = (0..2 + r(2))
                    .map(|_| BigInt::from(r(9) as i64 - 4))
                    .collect();
                let mut g = g;
                trim(&mut g);
                if g.len() < 2 {
                    continue;
                }
                for _ in 0..1 + r(3) {
                    f = mul(&f, &g);
                }
            }
            let fac = square_free_factors(&f);
            let mut prod = z(&[1]);
            let mut last = 0;
            for (p, m) in &fac {
                assert!(*m > last, "case {case}: multiplicities increase");
                last = *m;
                assert!(p.len() >= 2 && p.last().unwrap().is_positive());
                assert_eq!(gcd(p, &derivative(p)).len(), 1, "case {case}: square-free");
                for _ in 0..*m {
                    prod = mul(&prod, p);
                }
            }
            for (i, (p, _)) in fac.iter().enumerate() {
                for (q, _) in &fac[i + 1..] {
                    assert_eq!(gcd(p, q).len(), 1, "case {case}: coprime");
                }
            }
            let mut fp = f.clone();
            primitive(&mut fp);
            if fp.len() >= 2 {
                assert_eq!(prod, fp, "case {case}");
            } else {
                assert!(fac.is_empty());
            }
        }
    }

    #[test]
    fn exact_division_and_coprimality() {
        let a = z(&[2, -3, 1]); // (x−1)(x−2)
        assert_eq!(div_exact(&a, &z(&[-1, 1])), Some(z(&[-2, 1])));
        assert_eq!(div_exact(&a, &z(&[1, 1])), None);
        assert_eq!(div_exact(&z(&[2, 4]), &z(&[2, 1])), None); // (2x+2)/(x+2)
        let cp =
            |v: &[Vec<BigInt>]| coprime_mod_p(&v.iter().map(Vec::as_slice).collect::<Vec<_>>());
        assert!(cp(&[a.clone(), z(&[-3, 1])]));
        assert!(!cp(&[a.clone(), z(&[-2, 1])]));
        assert!(!cp(&[a.clone(), z(&[0, 1, -1])])); // shares x − 1
        assert!(cp(&[a.clone(), z(&[0, 1, -1]), z(&[-2, 0, 1])]));
        let cpi = |v: &[&[i128]]| coprime_mod_p_i128(v);
        assert!(cpi(&[&[2, -3, 1], &[-3, 1]]));
        assert!(!cpi(&[&[2, -3, 1], &[0, 1, -1]]));
        assert!(cpi(&[&[2, -3, 1], &[0, 1, -1], &[-2, 0, 1]]));
        assert_eq!(reduce_i128(-1), P61 - 1);
        assert_eq!(reduce_i128(i128::from(P61) * 5 + 7), 7);
        assert_eq!(
            reduce_i128(1i128 << 100),
            reduce(&(BigInt::one() << 100u32))
        );
        // A leading coefficient divisible by p proves nothing.
        let p61 = BigInt::from(P61);
        assert!(!cp(&[vec![BigInt::one(), p61], z(&[3, 1])]));
    }

    #[test]
    fn descartes_counts() {
        let mut buf = Vec::new();
        // (2x−1)(4x−3): two roots in (0,1)
        assert_eq!(descartes_unit(&z(&[3, -10, 8]), &mut buf), 2);
        // (2x−1)(x+1): one
        assert_eq!(descartes_unit(&z(&[-1, 1, 2]), &mut buf), 1);
        // x^2 + 1: none
        assert_eq!(descartes_unit(&z(&[1, 0, 1]), &mut buf), 0);
    }
}
