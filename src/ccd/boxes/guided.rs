//! The float-guided box sweep: the same question as [`super::sgm`]'s exact sweep,
//! answered with certified floating point wherever a sign is clear and exact
//! arithmetic only where it is not.
//!
//! 1. **Integer construction.** Box b in box a's unit-cube frame (C, G_k, w) and the
//!    73 members the 30 constraints are signed sums of ([`super::sgm::M_C`]) are
//!    built in `i128` polynomial arithmetic with overflow checks, on one common
//!    scale (no rational numbers, no gcds): M(t) = M_b(t)·M_a(t)⁻¹ followed by the
//!    map that sends box a to [−1, 1]³, reduced only if the mod-p certificate
//!    cannot prove its 13 entries coprime. The result is the exact path's (C, G, w)
//!    up to a positive constant, so every constraint is the exact path's up to a
//!    positive constant: same signs, same roots.
//! 2. **Certified floats.** Each member is rounded to doubles once
//!    ([`super::fpoly::FPoly`], with a certified error bound). Signs at a point,
//!    enclosures on short intervals and Bernstein forms on long ones decide
//!    everything that is not close to zero.
//! 3. **Sweep.** The bounding-sphere polynomial culls the start of the range. The
//!    roots of the 18 sign-pattern polynomials (G_k[j], N_k[j]) are isolated in
//!    tight brackets; between brackets (*cores*) the 30 constraints are fixed
//!    polynomials, inside brackets (*clusters*, a few ulps wide) they are bounded
//!    term by term (F = −σ·s₀ + Σ|a_i|). Entry: from the start of a core, while some
//!    constraint is negative at the cursor, one of them (the one whose Bernstein
//!    control polygon stays negative longest) is proven negative up to its first
//!    root, which is isolated; the cursor jumps there. Exit: from the entry, each
//!    constraint's first root is isolated (most are proven positive on the whole
//!    core by one Bernstein form), the earliest is the exit.
//! 4. **Certificates.** Only the constraint that vanishes at t_enter (and at t_exit)
//!    is summed exactly; its primitive square-free integer polynomial and the
//!    canonical isolating interval ([`super::canonical_time`]) are computed with a
//!    handful of exact evaluations at dyadic points.
//!
//! Whatever floating point cannot decide — a constraint near zero where another
//! vanishes (face contacts), an entry or exit inside a cluster or at the ends of the
//! range, a double root (grazing), an `i128` overflow — returns [`Fallback`], and
//! the caller runs the exact sweep. When this path answers, the answer is the exact
//! path's (the same time, the same plane, the same canonical certificate); the tests
//! check that on generated motions.

use super::fpoly::{Bracket, FPoly, Undecided};
use super::sgm::{layout, PlaneTerms, MEMBERS, M_G, M_VF};
use crate::ccd::{CcdAnswer, CcdQuery, ContactTime, Motion, TimeKind};
use crate::num::sign::Sign;
use crate::poly::zx;
use num_bigint::BigInt;
use num_rational::BigRational;
use num_traits::One;
use smallvec::SmallVec;
use std::cmp::Ordering;

/// Why the float-guided path handed a query to the exact sweep.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Fallback(pub &'static str);

impl From<Undecided> for Fallback {
    fn from(_: Undecided) -> Self {
        Fallback("a float sign could not be certified")
    }
}

type R<T> = Result<T, Fallback>;

const OVF: Fallback = Fallback("integer construction overflows i128");
const LONG: Fallback = Fallback("degree beyond the fast path's polynomial size");

// ---- i128 polynomials of bounded length --------------------------------------------
//
// Inline, fixed capacity (no allocation), with the bit length of the largest
// coefficient kept up to date: each operation bounds its result's size from its
// operands' first; below 2¹²⁶ the plain operations cannot overflow (and operands below
// 2⁶³ use the one-instruction widening product), above it they are checked. An
// overflow, or a polynomial longer than the capacity, hands the query to the exact
// path.

/// Capacity: polynomials of degree < 16 (degree-1 quaternion curves for both boxes,
/// degree 2 for one of them, fit).
const L: usize = 12;

#[derive(Clone, Copy)]
struct P {
    c: [i128; L],
    n: usize,
    bits: u32,
}

impl std::fmt::Debug for P {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.as_slice().fmt(f)
    }
}

impl PartialEq for P {
    fn eq(&self, o: &P) -> bool {
        self.as_slice() == o.as_slice()
    }
}

fn bitlen(x: i128) -> u32 {
    128 - x.unsigned_abs().leading_zeros()
}

/// ⌈log₂ n⌉.
fn clog2(n: usize) -> u32 {
    usize::BITS - (n.max(1) - 1).leading_zeros()
}

impl P {
    const ZERO: P = P {
        c: [0; L],
        n: 0,
        bits: 0,
    };

    fn constant(k: i128) -> P {
        let mut p = P::ZERO;
        p.c[0] = k;
        p.n = 1;
        p.fix();
        p
    }

    fn from_slice(s: &[i128]) -> R<P> {
        if s.len() > L {
            return Err(LONG);
        }
        let mut p = P::ZERO;
        p.c[..s.len()].copy_from_slice(s);
        p.n = s.len();
        p.fix();
        Ok(p)
    }

    fn as_slice(&self) -> &[i128] {
        &self.c[..self.n]
    }

    fn is_empty(&self) -> bool {
        self.n == 0
    }

    fn len(&self) -> usize {
        self.n
    }

    /// Drops trailing zeros and recomputes the bit length.
    fn fix(&mut self) {
        while self.n > 0 && self.c[self.n - 1] == 0 {
            self.n -= 1;
        }
        let m = self.c[..self.n]
            .iter()
            .fold(0u128, |m, x| m | x.unsigned_abs());
        self.bits = 128 - m.leading_zeros();
    }

    /// self += s·a.
    fn add_scaled(&mut self, a: &P, s: i128) -> R<()> {
        if a.n == 0 || s == 0 {
            return Ok(());
        }
        if self.n < a.n {
            self.n = a.n;
        }
        if self.bits.max(a.bits + bitlen(s)) < 126 {
            for (o, &x) in self.c[..a.n].iter_mut().zip(&a.c[..a.n]) {
                *o += s * x;
            }
        } else {
            for (o, &x) in self.c[..a.n].iter_mut().zip(&a.c[..a.n]) {
                *o = o.checked_add(x.checked_mul(s).ok_or(OVF)?).ok_or(OVF)?;
            }
        }
        self.fix();
        Ok(())
    }

    /// self += s·a·b, s = ±1.
    fn mac(&mut self, a: &P, b: &P, s: i128) -> R<()> {
        if a.n == 0 || b.n == 0 {
            return Ok(());
        }
        let n = a.n + b.n - 1;
        if n > L {
            return Err(LONG);
        }
        if self.n < n {
            self.n = n;
        }
        let (a, b) = if a.n <= b.n { (a, b) } else { (b, a) };
        if (a.bits + b.bits + clog2(a.n)).max(self.bits) < 126 {
            if a.bits < 63 && b.bits < 63 {
                for i in 0..a.n {
                    let x = (s * a.c[i]) as i64;
                    if x == 0 {
                        continue;
                    }
                    let x = i128::from(x);
                    for (o, &y) in self.c[i..i + b.n].iter_mut().zip(&b.c[..b.n]) {
                        *o += x * i128::from(y as i64);
                    }
                }
            } else {
                for i in 0..a.n {
                    let x = s * a.c[i];
                    for (o, &y) in self.c[i..i + b.n].iter_mut().zip(&b.c[..b.n]) {
                        *o += x * y;
                    }
                }
            }
        } else {
            for i in 0..a.n {
                let x = s * a.c[i];
                for (o, &y) in self.c[i..i + b.n].iter_mut().zip(&b.c[..b.n]) {
                    *o = o.checked_add(x.checked_mul(y).ok_or(OVF)?).ok_or(OVF)?;
                }
            }
        }
        self.fix();
        Ok(())
    }

    fn mul(a: &P, b: &P) -> R<P> {
        let mut c = P::ZERO;
        c.mac(a, b, 1)?;
        Ok(c)
    }

    fn scaled(&self, k: i128) -> R<P> {
        let mut c = P::ZERO;
        c.add_scaled(self, k)?;
        Ok(c)
    }

    fn neg(&self) -> P {
        // |coefficients| < 2¹²⁷ (bits ≤ 127 always holds for i128 except MIN).
        let mut c = *self;
        for x in &mut c.c[..c.n] {
            *x = x.wrapping_neg();
        }
        c
    }

    /// `self / b` if b divides self exactly in ℤ[x] (`Ok(None)` if not).
    fn div_exact(&self, b: &P) -> R<Option<P>> {
        if self.n == 0 {
            return Ok(Some(P::ZERO));
        }
        if b.n == 0 || self.n < b.n {
            return Ok(None);
        }
        let lb = b.c[b.n - 1];
        let mut r = *self;
        let mut q = P::ZERO;
        q.n = self.n - b.n + 1;
        for k in (0..q.n).rev() {
            let lead = r.c[k + b.n - 1];
            let Some(qk) = div_digit(lead, lb)? else {
                return Ok(None);
            };
            q.c[k] = qk;
            if qk == 0 {
                continue;
            }
            let rows = &mut r.c[k..k + b.n];
            let rb = rows.iter().fold(0u128, |m, x| m | x.unsigned_abs());
            if bitlen(qk) + b.bits < 125 && 128 - rb.leading_zeros() < 125 {
                for (x, &bj) in rows.iter_mut().zip(&b.c[..b.n]) {
                    *x -= qk * bj;
                }
            } else {
                for (x, &bj) in rows.iter_mut().zip(&b.c[..b.n]) {
                    *x = x.checked_sub(qk.checked_mul(bj).ok_or(OVF)?).ok_or(OVF)?;
                }
            }
        }
        if r.c[..b.n - 1].iter().any(|&x| x != 0) {
            return Ok(None);
        }
        q.fix();
        Ok(Some(q))
    }

    /// The gcd of the coefficients (0 for the zero polynomial).
    fn content(&self) -> i128 {
        self.as_slice().iter().fold(0, |g, &x| gcd_i128(g, x))
    }
}

/// `x / d` if d divides x exactly (d ≠ 0): one word division when both fit in 64 bits.
#[inline]
fn div_digit(x: i128, d: i128) -> R<Option<i128>> {
    if let (Ok(x64), Ok(d64)) = (i64::try_from(x), i64::try_from(d)) {
        let Some(q) = x64.checked_div(d64) else {
            return Err(OVF);
        };
        return Ok((q * d64 == x64).then_some(i128::from(q)));
    }
    let q = x.checked_div(d).ok_or(OVF)?;
    Ok((q.checked_mul(d) == Some(x)).then_some(q))
}

fn gcd_i128(a: i128, b: i128) -> i128 {
    let (mut a, mut b) = (a.unsigned_abs(), b.unsigned_abs());
    if a < (1 << 64) && b < (1 << 64) {
        let (mut a, mut b) = (a as u64, b as u64);
        while b != 0 {
            (a, b) = (b, a % b);
        }
        return i128::from(a);
    }
    while b != 0 {
        (a, b) = (b, a % b);
    }
    a as i128
}

type V3 = [P; 3];
type M3 = [V3; 3];

fn dot(u: &V3, v: &V3) -> R<P> {
    let mut c = P::ZERO;
    for i in 0..3 {
        c.mac(&u[i], &v[i], 1)?;
    }
    Ok(c)
}

fn cross(u: &V3, v: &V3) -> R<V3> {
    let comp = |i: usize, j: usize| -> R<P> {
        let mut c = P::ZERO;
        c.mac(&u[i], &v[j], 1)?;
        c.mac(&u[j], &v[i], -1)?;
        Ok(c)
    };
    Ok([comp(1, 2)?, comp(2, 0)?, comp(0, 1)?])
}

/// Row vector times matrix: (v·m)[j] = Σ_k v[k]·m[k][j].
fn vecmat(v: &V3, m: &M3) -> R<V3> {
    let mut out = [P::ZERO; 3];
    for (j, o) in out.iter_mut().enumerate() {
        for k in 0..3 {
            o.mac(&v[k], &m[k][j], 1)?;
        }
    }
    Ok(out)
}

fn v3_scale(v: &V3, k: &P) -> R<V3> {
    Ok([P::mul(&v[0], k)?, P::mul(&v[1], k)?, P::mul(&v[2], k)?])
}

fn v3_neg(v: &V3) -> V3 {
    [v[0].neg(), v[1].neg(), v[2].neg()]
}

fn m3_scale(m: &M3, k: &P) -> R<M3> {
    Ok([
        v3_scale(&m[0], k)?,
        v3_scale(&m[1], k)?,
        v3_scale(&m[2], k)?,
    ])
}

/// adj(m) with m·adj = det(m)·I (rows r_i; adj's columns are r1×r2, r2×r0, r0×r1).
fn adjugate(m: &M3) -> R<(M3, P)> {
    let cols = [
        cross(&m[1], &m[2])?,
        cross(&m[2], &m[0])?,
        cross(&m[0], &m[1])?,
    ];
    let det = dot(&m[0], &cols[0])?;
    let adj = [0, 1, 2].map(|i| [0, 1, 2].map(|j| cols[j][i]));
    Ok((adj, det))
}

// ---- exact inputs as integers -----------------------------------------------

fn to_i128(x: &BigInt) -> R<i128> {
    i128::try_from(x).map_err(|_| OVF)
}

/// A rational's numerator and denominator as machine integers (both within i64,
/// so products of two stay far inside i128).
fn small(x: &BigRational) -> Option<(i128, i128)> {
    Some((
        i128::from(i64::try_from(x.numer()).ok()?),
        i128::from(i64::try_from(x.denom()).ok()?),
    ))
}

/// The lcm of the denominators (within i128).
fn lcm<'a>(xs: impl IntoIterator<Item = &'a BigRational>) -> R<i128> {
    let mut l: i128 = 1;
    for x in xs {
        let d = match small(x) {
            Some((_, d)) => d,
            None => to_i128(x.denom())?,
        };
        if d != 1 && l % d != 0 {
            l = (l / gcd_i128(l, d)).checked_mul(d).ok_or(OVF)?;
        }
    }
    Ok(l)
}

/// `p·l` as integers (`l` a multiple of every denominator).
fn scaled(p: &[BigRational], l: i128) -> R<P> {
    if p.len() > L {
        return Err(LONG);
    }
    let mut out = P::ZERO;
    for (o, x) in out.c.iter_mut().zip(p) {
        *o = match small(x) {
            Some((n, d)) => n.checked_mul(l / d).ok_or(OVF)?,
            None => to_i128(&(x.numer() * (BigInt::from(l) / x.denom())))?,
        };
    }
    out.n = p.len();
    out.fix();
    Ok(out)
}

fn vec3_scaled(v: &crate::Vec3<BigRational>, l: i128) -> R<V3> {
    Ok([
        scaled(std::slice::from_ref(&v.x), l)?,
        scaled(std::slice::from_ref(&v.y), l)?,
        scaled(std::slice::from_ref(&v.z), l)?,
    ])
}

/// x ↦ (x·l + t)/d (row vectors), integer entries.
#[derive(Clone, Debug)]
struct Aff {
    l: M3,
    t: V3,
    d: P,
}

impl Aff {
    fn identity() -> Aff {
        let one = P::constant(1);
        let z = P::ZERO;
        Aff {
            l: [[one, z, z], [z, one, z], [z, z, one]],
            t: [z; 3],
            d: one,
        }
    }

    /// `self` followed by `next`.
    fn then(&self, next: &Aff) -> R<Aff> {
        let l = [
            vecmat(&self.l[0], &next.l)?,
            vecmat(&self.l[1], &next.l)?,
            vecmat(&self.l[2], &next.l)?,
        ];
        let mut t = vecmat(&self.t, &next.l)?;
        for (tj, nj) in t.iter_mut().zip(&next.t) {
            tj.mac(nj, &self.d, 1)?;
        }
        Ok(Aff {
            l,
            t,
            d: P::mul(&self.d, &next.d)?,
        })
    }
}

/// A motion as integer maps: forward, inverse (`None` for the identity), and the
/// polynomials that must not vanish on the range (denominator, determinant).
struct MotionZ {
    fwd: Aff,
    inv: Option<Aff>,
    checks: Vec<P>,
}

fn motion_z(m: &Motion) -> R<MotionZ> {
    match m {
        Motion::Identity => Ok(MotionZ {
            fwd: Aff::identity(),
            inv: None,
            checks: Vec::new(),
        }),
        Motion::Quaternion { q, translation } => {
            let lq = lcm(q.iter().flatten())?;
            let lt = lcm(translation.iter().flatten())?;
            let (w, x, y, z) = (
                scaled(&q[0], lq)?,
                scaled(&q[1], lq)?,
                scaled(&q[2], lq)?,
                scaled(&q[3], lq)?,
            );
            let tz = [
                scaled(&translation[0], lt)?,
                scaled(&translation[1], lt)?,
                scaled(&translation[2], lt)?,
            ];
            // Column-convention R(q) (unnormalised): R·v = q·v·q̄ (as in `motion.rs`):
            // each entry a signed sum of products of two components.
            let e = |terms: &[(&P, &P, i128)]| -> R<P> {
                let mut o = P::ZERO;
                for &(a, b, s) in terms {
                    o.mac(a, b, s)?;
                }
                Ok(o)
            };
            let n2 = e(&[(&w, &w, 1), (&x, &x, 1), (&y, &y, 1), (&z, &z, 1)])?;
            let two = |p: P| p.scaled(2);
            let r: M3 = [
                [
                    e(&[(&w, &w, 1), (&x, &x, 1), (&y, &y, -1), (&z, &z, -1)])?,
                    two(e(&[(&x, &y, 1), (&w, &z, -1)])?)?,
                    two(e(&[(&x, &z, 1), (&w, &y, 1)])?)?,
                ],
                [
                    two(e(&[(&x, &y, 1), (&w, &z, 1)])?)?,
                    e(&[(&w, &w, 1), (&x, &x, -1), (&y, &y, 1), (&z, &z, -1)])?,
                    two(e(&[(&y, &z, 1), (&w, &x, -1)])?)?,
                ],
                [
                    two(e(&[(&x, &z, 1), (&w, &y, -1)])?)?,
                    two(e(&[(&y, &z, 1), (&w, &x, 1)])?)?,
                    e(&[(&w, &w, 1), (&x, &x, -1), (&y, &y, -1), (&z, &z, 1)])?,
                ],
            ];
            let lt = P::constant(lt);
            let rt: M3 = [0, 1, 2].map(|i| [0, 1, 2].map(|j| r[j][i]));
            let d = P::mul(&n2, &lt)?;
            // x ↦ (x·Rᵀ + |q|²·tr)/|q|², tr = tz/lt; inverse y ↦ (y − tr)·R/|q|².
            let fwd = Aff {
                l: m3_scale(&rt, &lt)?,
                t: v3_scale(&tz, &n2)?,
                d,
            };
            let inv = Aff {
                l: m3_scale(&r, &lt)?,
                t: v3_neg(&vecmat(&tz, &r)?),
                d,
            };
            Ok(MotionZ {
                fwd,
                inv: Some(inv),
                checks: vec![n2],
            })
        }
        Motion::Matrix { rows, denominator } => {
            let l = lcm(rows.iter().flatten().flatten().chain(denominator.iter()))?;
            let e = |i: usize, j: usize| scaled(&rows[i][j], l);
            let m: M3 = [
                [e(0, 0)?, e(0, 1)?, e(0, 2)?],
                [e(1, 0)?, e(1, 1)?, e(1, 2)?],
                [e(2, 0)?, e(2, 1)?, e(2, 2)?],
            ];
            let t = [e(3, 0)?, e(3, 1)?, e(3, 2)?];
            let d = scaled(denominator, l)?;
            let (adj, det) = adjugate(&m)?;
            // Inverse: y ↦ (y·d − t)·adj/det.
            let inv = Aff {
                l: m3_scale(&adj, &d)?,
                t: v3_neg(&vecmat(&t, &adj)?),
                d: det,
            };
            Ok(MotionZ {
                fwd: Aff { l: m, t, d },
                inv: Some(inv),
                checks: vec![d, det],
            })
        }
    }
}

/// Divides the 13 entries by their polynomial gcd unless the mod-p certificate proves
/// them coprime (as `RatAffine::reduced` does: the reduced map is unique up to a
/// constant, so this is the exact path's map up to a constant).
fn reduce(m: Aff) -> R<Aff> {
    if m.d.len() <= 1 {
        return Ok(m);
    }
    let mut refs: Vec<&[i128]> = vec![m.d.as_slice()];
    refs.extend(
        m.l.iter()
            .flatten()
            .chain(m.t.iter())
            .filter(|p| !p.is_empty())
            .map(P::as_slice),
    );
    if zx::coprime_mod_p_i128(&refs) {
        return Ok(m);
    }
    let big = |p: &P| -> Vec<BigInt> { p.as_slice().iter().map(|&c| BigInt::from(c)).collect() };
    let den = big(&m.d);
    let mut g = zx::gcd(&den, &den);
    for p in
        m.l.iter()
            .flatten()
            .chain(m.t.iter())
            .filter(|p| !p.is_empty())
    {
        if g.len() <= 1 {
            return Ok(m);
        }
        g = zx::gcd(&g, &big(p));
    }
    if g.len() <= 1 {
        return Ok(m);
    }
    let div = |p: &P| -> R<P> {
        if p.is_empty() {
            return Ok(P::ZERO);
        }
        let q = zx::div_exact(&big(p), &g).ok_or(Fallback("gcd division"))?;
        let q: Vec<i128> = q.iter().map(to_i128).collect::<R<_>>()?;
        P::from_slice(&q)
    };
    let mut out = m;
    for p in out.l.iter_mut().flatten().chain(out.t.iter_mut()) {
        *p = div(p)?;
    }
    out.d = div(&out.d)?;
    Ok(out)
}

/// `r·w^e`.
fn mulpow(r: &P, w: &P, e: u32) -> R<P> {
    let mut out = *r;
    for _ in 0..e {
        out = P::mul(&out, w)?;
    }
    Ok(out)
}

/// `p` as `(k, r)` with `p = wᵏ·r` and w ∤ r (w primitive, non-constant).
fn split_power(p: &P, w: &P) -> R<(u32, P)> {
    let mut r = *p;
    let mut k = 0;
    if w.len() >= 2 && !r.is_empty() {
        while let Some(q) = r.div_exact(w)? {
            r = q;
            k += 1;
        }
    }
    Ok((k, r))
}

/// A group of members, each given as `(k, r)` = wᵏ·r, divided by the largest power of
/// w dividing all of them (as `sgm::strip`: the same power, so the same polynomials).
/// Only the members that reach the lowest known power are tried further, so most
/// of the divisions the full products would need are never done.
fn strip_group(g: &mut [(u32, P)], w: &P) -> R<()> {
    let lowest = |g: &[(u32, P)]| g.iter().filter(|m| !m.1.is_empty()).map(|m| m.0).min();
    if w.len() >= 2 {
        'outer: while let Some(e) = lowest(g) {
            for m in g.iter_mut().filter(|m| !m.1.is_empty() && m.0 == e) {
                match m.1.div_exact(w)? {
                    Some(q) => {
                        m.1 = q;
                        m.0 += 1;
                    }
                    None => break 'outer,
                }
            }
        }
    }
    let e = if w.len() >= 2 {
        lowest(g).unwrap_or(0)
    } else {
        0
    };
    for m in g.iter_mut() {
        if !m.1.is_empty() {
            m.1 = mulpow(&m.1, w, m.0 - e)?;
        }
        m.0 = 0;
    }
    Ok(())
}

// ---- the setup ------------------------------------------------------------------

/// The exact members and their float copies, the sign-pattern polynomials, the sphere.
struct Setup {
    t0: f64,
    t1: f64,
    members: Vec<P>,
    fm: Vec<FPoly>,
    /// G_k[j] at 3k + j, then N_k[j] (divided by w's powers) at 9 + 3k + j.
    signs: Vec<FPoly>,
    /// For each sign-pattern polynomial, the first one proportional to it (same roots).
    rep: [usize; 18],
    sd: i8,
    sphere: FPoly,
}

fn fpoly(z: &P) -> R<FPoly> {
    FPoly::from_i128(z.as_slice()).ok_or(OVF)
}

/// Exactly representable as a double?
fn exact_f64(x: &BigRational) -> Option<f64> {
    use num_traits::ToPrimitive;
    let f = x.to_f64()?;
    (f.is_finite() && rat_f64(f) == *x).then_some(f)
}

/// A point near `x` (towards `dir`) where `p` has a certified sign: the end of a short
/// bracket around a root of `p` at or next to `x`.
fn clear_of_root(p: &FPoly, x: f64, dir: f64) -> R<f64> {
    let mut d = x.abs().max(1.0) * 2f64.powi(-40);
    for _ in 0..20 {
        let y = x + dir * d;
        if p.sign_at(y).is_some() {
            return Ok(y);
        }
        d *= 4.0;
    }
    Err(Fallback("a sign-pattern polynomial near zero"))
}

/// Nonvanishing on [t0, t1], certified in floating point.
fn nonvanishing(p: &FPoly, t0: f64, t1: f64) -> R<()> {
    match p.sign_at(t0) {
        Some(Sign::Positive | Sign::Negative)
            if p.first_root(t0, t1)
                .map_err(|_| Fallback("nonvanishing undecided"))?
                .is_none() =>
        {
            Ok(())
        }
        _ => Err(Fallback(
            "a motion's denominator or determinant is not proven nonzero",
        )),
    }
}

impl Setup {
    fn new(q: &CcdQuery) -> R<Setup> {
        let t0 = exact_f64(&q.t_range.0).ok_or(Fallback("t_range start is not a double"))?;
        let t1 = exact_f64(&q.t_range.1).ok_or(Fallback("t_range end is not a double"))?;
        if t0 >= t1 {
            return Err(Fallback("a single-instant range"));
        }
        let ma = motion_z(&q.a.motion)?;
        let mb = motion_z(&q.b.motion)?;
        for p in ma.checks.iter().chain(&mb.checks) {
            nonvanishing(&fpoly(p)?, t0, t1)?;
        }
        // The map sending box a to [−1, 1]³: x ↦ (x − c)·H⁻¹, H⁻¹ = lh·adj(Hz)/det(Hz).
        let a = &q.a.shape;
        let lh = lcm([&a.center]
            .into_iter()
            .chain(a.half_axes.iter())
            .flat_map(|v| [&v.x, &v.y, &v.z]))?;
        let hz = [
            vec3_scaled(&a.half_axes[0], lh)?,
            vec3_scaled(&a.half_axes[1], lh)?,
            vec3_scaled(&a.half_axes[2], lh)?,
        ];
        let cz = vec3_scaled(&a.center, lh)?;
        let (adj, det) = adjugate(&hz)?;
        let canon = Aff {
            l: m3_scale(&adj, &P::constant(lh))?,
            t: v3_neg(&vecmat(&cz, &adj)?),
            d: det,
        };
        // Composition is associative (4×4 homogeneous matrix products): the constant
        // map is folded into a's inverse first, where the entries are short.
        let rel = match &ma.inv {
            None => mb.fwd.then(&canon)?,
            Some(inv) => mb.fwd.then(&inv.then(&canon)?)?,
        };
        let rel = reduce(rel)?;
        // Box b: C = c·L + T, G_k = h_k·L, w = d (all over one denominator lb).
        let b = &q.b.shape;
        let lb = lcm([&b.center]
            .into_iter()
            .chain(b.half_axes.iter())
            .flat_map(|v| [&v.x, &v.y, &v.z]))?;
        let lbz = P::constant(lb);
        let mut c = vecmat(&vec3_scaled(&b.center, lb)?, &rel.l)?;
        for (cj, tj) in c.iter_mut().zip(&rel.t) {
            cj.mac(tj, &lbz, 1)?;
        }
        let mut g = [
            vecmat(&vec3_scaled(&b.half_axes[0], lb)?, &rel.l)?,
            vecmat(&vec3_scaled(&b.half_axes[1], lb)?, &rel.l)?,
            vecmat(&vec3_scaled(&b.half_axes[2], lb)?, &rel.l)?,
        ];
        let mut w = P::mul(&rel.d, &lbz)?;
        match fpoly(&w)?.sign_at(t0) {
            Some(Sign::Positive) => {}
            Some(Sign::Negative) => {
                c = v3_neg(&c);
                g = [v3_neg(&g[0]), v3_neg(&g[1]), v3_neg(&g[2])];
                w = w.neg();
            }
            _ => return Err(Fallback("sign of w at t0")),
        }
        Self::from_relative(t0, t1, &c, &g, &w)
    }

    /// The members, sign polynomials and sphere from C, G, w (the polynomials of
    /// `Sgm::new`, built from the N_k[j] with their powers of w divided out first).
    // The indices are axis labels shared by several arrays (G_k[j], N_k[j], C[j]).
    #[allow(clippy::needless_range_loop)]
    fn from_relative(t0: f64, t1: f64, c: &V3, g: &[V3; 3], w: &P) -> R<Setup> {
        let cw = w.content();
        let wp = w.scaled(1)?;
        let wp = {
            let mut x = wp;
            if cw > 1 {
                for v in &mut x.c[..x.n] {
                    *v /= cw;
                }
                x.fix();
            }
            x
        };
        let cwz = P::constant(cw);
        // N_k[j] = wp^a·ñ: the sign polynomials, and the factors of the VF/EE members.
        let n = [
            cross(&g[1], &g[2])?,
            cross(&g[2], &g[0])?,
            cross(&g[0], &g[1])?,
        ];
        let mut nt: Vec<(u32, P)> = Vec::with_capacity(9);
        for p in n.iter().flatten() {
            nt.push(split_power(p, &wp)?);
        }
        let ns = |k: usize, j: usize| &nt[3 * k + j];
        let mut members: Vec<P> = Vec::with_capacity(MEMBERS);
        members.extend(c.iter().copied());
        members.push(*w);
        members.extend(g.iter().flatten().copied());
        for k in 0..3 {
            // N_k·C = wp^a·X and det = G_k·N_k = wp^a·D, a = min_j a_kj.
            let a = (0..3)
                .filter(|&j| !ns(k, j).1.is_empty())
                .map(|j| ns(k, j).0)
                .min()
                .unwrap_or(0);
            let (mut x, mut d) = (P::ZERO, P::ZERO);
            for j in 0..3 {
                let (e, r) = ns(k, j);
                if r.is_empty() {
                    continue;
                }
                let r = mulpow(r, &wp, e - a)?;
                x.mac(&r, &c[j], 1)?;
                d.mac(&r, &g[k][j], 1)?;
            }
            let mut grp = [
                (a, x),
                (a, d),
                (ns(k, 0).0 + 1, P::mul(&ns(k, 0).1, &cwz)?),
                (ns(k, 1).0 + 1, P::mul(&ns(k, 1).1, &cwz)?),
                (ns(k, 2).0 + 1, P::mul(&ns(k, 2).1, &cwz)?),
            ];
            strip_group(&mut grp, &wp)?;
            members.extend(grp.iter().map(|m| m.1));
        }
        for i in 0..3 {
            let (i1, i2) = ((i + 1) % 3, (i + 2) % 3);
            for m in 0..3 {
                let (m1, m2) = ((m + 1) % 3, (m + 2) % 3);
                // (G_m × C)_i = G_m[i+1]·C[i+2] − G_m[i+2]·C[i+1].
                let mut gxc = P::ZERO;
                gxc.mac(&g[m][i1], &c[i2], 1)?;
                gxc.mac(&g[m][i2], &c[i1], -1)?;
                let mut grp = [
                    (0, gxc),
                    *ns(m1, i),
                    *ns(m2, i),
                    (1, P::mul(&g[m][i1], &cwz)?),
                    (1, P::mul(&g[m][i2], &cwz)?),
                ];
                strip_group(&mut grp, &wp)?;
                members.extend(grp.iter().map(|m| m.1));
            }
        }
        debug_assert_eq!(members.len(), MEMBERS);
        let fm = members.iter().map(fpoly).collect::<R<Vec<_>>>()?;
        let sign_z: Vec<&P> = g.iter().flatten().chain(nt.iter().map(|m| &m.1)).collect();
        // The G_k[j] are members already converted.
        let mut signs: Vec<FPoly> = fm[M_G..M_G + 9].to_vec();
        for p in &nt {
            signs.push(fpoly(&p.1)?);
        }
        // Proportional sign polynomials have the same roots: one root list for them
        // (a·lc(b) = b·lc(a) coefficientwise, compared exactly in 256 bits).
        let mut rep = [0usize; 18];
        for i in 0..18 {
            // A cheap float test of the direction first, then the exact one.
            let dir = |p: &P| -> f64 {
                let lead = p.c[p.n.max(1) - 1] as f64;
                p.c[0] as f64 / lead
            };
            rep[i] = (0..i)
                .find(|&k| {
                    sign_z[i].len() == sign_z[k].len()
                        && sign_z[i].len() >= 2
                        && (dir(sign_z[i]) - dir(sign_z[k])).abs()
                            <= 1e-9 * dir(sign_z[i]).abs().max(1e-300)
                        && proportional(sign_z[i], sign_z[k])
                })
                .unwrap_or(i);
        }
        let sd = match fm[M_VF + 1].sign_at(t0) {
            Some(Sign::Positive) => 1,
            Some(Sign::Negative) => -1,
            _ => return Err(Fallback("sign of det")),
        };
        let sphere = {
            // |C|² − 4·(3w² + Σ|G_k|²)
            let mut s = P::ZERO;
            for cj in c {
                s.mac(cj, cj, 1)?;
            }
            let mut rhs = P::mul(w, w)?.scaled(3)?;
            for gk in g {
                rhs.add_scaled(&dot(gk, gk)?, 1)?;
            }
            s.add_scaled(&rhs, -4)?;
            let mut z = [(0, s)];
            strip_group(&mut z, &wp)?;
            fpoly(&z[0].1)?
        };
        Ok(Setup {
            t0,
            t1,
            members,
            fm,
            signs,
            rep,
            sd,
            sphere,
        })
    }
}

/// Whether a and b (non-constant) are proportional: same length and
/// a_i·lc(b) = b_i·lc(a) for all i (exact 256-bit products).
fn proportional(a: &P, b: &P) -> bool {
    if a.len() < 2 || a.len() != b.len() {
        return false;
    }
    let (la, lb) = (a.c[a.n - 1], b.c[b.n - 1]);
    let wide = |x: i128, y: i128| -> (bool, u128, u128) {
        // Sign and the 256-bit magnitude of x·y as (hi, lo).
        let (ux, uy) = (x.unsigned_abs(), y.unsigned_abs());
        let (x1, x0) = (ux >> 64, ux & u128::from(u64::MAX));
        let (y1, y0) = (uy >> 64, uy & u128::from(u64::MAX));
        let (p00, p01, p10, p11) = (x0 * y0, x0 * y1, x1 * y0, x1 * y1);
        let mid = (p00 >> 64) + (p01 & u128::from(u64::MAX)) + (p10 & u128::from(u64::MAX));
        let lo = (p00 & u128::from(u64::MAX)) | (mid << 64);
        let hi = p11 + (p01 >> 64) + (p10 >> 64) + (mid >> 64);
        ((x < 0) != (y < 0) && (ux != 0 && uy != 0), hi, lo)
    };
    a.as_slice()
        .iter()
        .zip(b.as_slice())
        .all(|(&x, &y)| wide(x, lb) == wide(y, la))
}

// ---- the sweep --------------------------------------------------------------------
//
// Each constraint is F_j = −σ·s₀ + Σ|a_i| over its members. Its *form* at a point,
// P_j = −σ·s₀ + Σ sign_i·a_i with the signs its members have there, is a polynomial
// with P_j ≤ F_j everywhere and P_j = F_j until one of its own members changes sign
// (a root of one of its sign-pattern polynomials). So:
//   * F_j < 0 from x up to the first root of P_j or of its members (entry);
//   * P_j > 0 up to t1 proves F_j > 0 up to t1, whatever the later signs (exit);
//   * a root of P_j before its members' next root is a root of F_j.
// No global breakpoints are needed: only the member roots of the constraint being
// followed are isolated, lazily.

/// A cursor: a double, or the root of plane `j`'s form in a bracket.
#[derive(Clone, Copy)]
enum At {
    Point(f64),
    Root(Bracket, usize),
}

impl At {
    fn span(&self) -> (f64, f64) {
        match *self {
            At::Point(x) => (x, x),
            At::Root(b, _) => (b.lo, b.hi),
        }
    }
}

/// The roots of one sign-pattern polynomial found so far, in order, and how far the
/// search went.
#[derive(Clone, Default)]
struct RootList {
    roots: SmallVec<[(f64, f64); 4]>,
    to: f64,
    done: bool,
}

/// The sphere as a pseudo-constraint in the entry search.
const SPHERE: usize = 30;

/// A certified (value, error) summed over signed terms.
fn span_sum(lo: f64, hi: f64, mag: f64) -> (f64, f64) {
    let r = 16.0 * f64::EPSILON * mag;
    (lo - r, hi + r)
}

struct Sweep<'s> {
    s: &'s Setup,
    /// Roots of each distinct sign-pattern polynomial (by representative).
    roots: Vec<RootList>,
    /// The structure of the 30 planes (member ids; coefficients unused).
    shape: SmallVec<[PlaneTerms; 30]>,
    /// Planes all of whose members are zero polynomials (never constraints).
    skip: [bool; 30],
}

// Built once per query; boxing the float polynomial would only add an allocation.
#[allow(clippy::large_enum_variant)]
enum Entry {
    /// Touching at the start of the range.
    Start,
    /// The first root of the form `pt` (in bracket `b`), all others positive there.
    Root(Bracket, PlaneTerms, FPoly),
}

/// One constraint's progress in the exit search.
#[allow(clippy::large_enum_variant)]
enum Step {
    /// Positive to the end of the range.
    Done,
    /// A root of F itself: the constraint turns negative there.
    Exit(Bracket, PlaneTerms, FPoly),
    /// Positive up to `proven`; to be continued from `from` with a new form.
    Open { proven: f64, from: f64 },
}

impl<'s> Sweep<'s> {
    fn new(s: &'s Setup) -> Self {
        let z = [[1i8; 3]; 3];
        let shape = layout(&z, &z, &1);
        let mut skip = [false; 30];
        for (j, pt) in shape.iter().enumerate() {
            skip[j] = pt.terms().iter().all(|&(id, _)| s.fm[id].is_zero());
        }
        Sweep {
            s,
            roots: vec![
                RootList {
                    roots: SmallVec::new(),
                    to: s.t0,
                    done: false,
                };
                18
            ],
            shape,
            skip,
        }
    }

    /// The first root of sign-pattern polynomial `i` whose bracket ends after `x`.
    fn next_root(&mut self, i: usize, x: f64) -> R<Option<(f64, f64)>> {
        let i = self.s.rep[i];
        let p = &self.s.signs[i];
        if p.c().len() < 2 {
            return Ok(None);
        }
        let t1 = self.s.t1;
        let list = &mut self.roots[i];
        loop {
            if let Some(&r) = list.roots.iter().find(|r| r.1 > x) {
                return Ok(Some(r));
            }
            if list.done {
                return Ok(None);
            }
            let from = list.to.max(x);
            if from >= t1 {
                list.done = true;
                return Ok(None);
            }
            // A root at (or within float noise of) t1: a short bracket there.
            let mut t1 = t1;
            if p.sign_at(t1).is_none() {
                let y = clear_of_root(p, t1, -1.0)?;
                if from >= y {
                    list.roots.push((y.min(from), self.s.t1));
                    list.done = true;
                    continue;
                }
                t1 = y;
            }
            let from = if p.sign_at(from).is_none() {
                // Next to a root of the polynomial: a short bracket around it.
                let y = clear_of_root(p, from, 1.0)?;
                list.roots.push((from, y));
                y
            } else {
                from
            };
            match p
                .first_root(from, t1)
                .map_err(|_| Fallback("member root isolation"))?
            {
                None if t1 < self.s.t1 => {
                    list.roots.push((t1, self.s.t1));
                    list.done = true;
                }
                None => list.done = true,
                Some(b) => {
                    list.roots.push((b.lo, b.hi));
                    list.to = b.hi;
                }
            }
        }
    }

    /// The first root after `x` of the sign-pattern polynomials of plane `pt`.
    fn member_root(&mut self, pt: &PlaneTerms, x: f64) -> R<Option<(f64, f64)>> {
        let mut best: Option<(f64, f64)> = None;
        let src: SmallVec<[usize; 6]> = pt.sources().collect();
        for i in src {
            if let Some(r) = self.next_root(i, x)? {
                if best.is_none_or(|b| r.0 < b.0) {
                    best = Some(r);
                }
            }
        }
        Ok(best)
    }

    /// Members' enclosures on [lo, hi] (a point if lo = hi).
    fn enclosures(&self, lo: f64, hi: f64) -> [(f64, f64); MEMBERS] {
        let mut out = [(0.0, 0.0); MEMBERS];
        for (o, p) in out.iter_mut().zip(&self.s.fm) {
            *o = if lo == hi {
                let (v, e) = p.eval(lo);
                (v - e, v + e)
            } else {
                p.enclose(lo, hi)
            };
        }
        out
    }

    /// Certified bounds of F_j = −σ·s₀ + Σ|a_i| from the members' enclosures.
    fn range(&self, j: usize, enc: &[(f64, f64)]) -> (f64, f64) {
        let t = self.shape[j].terms();
        let (s0, sig) = t[0];
        let (a, b) = enc[s0];
        let (mut lo, mut hi) = if sig > 0 { (a, b) } else { (-b, -a) };
        let mut mag = lo.abs().max(hi.abs());
        for &(id, _) in &t[1..] {
            let (a, b) = enc[id];
            let big = a.abs().max(b.abs());
            lo += if a > 0.0 {
                a
            } else if b < 0.0 {
                -b
            } else {
                0.0
            };
            hi += big;
            mag += big;
        }
        span_sum(lo, hi, mag)
    }

    /// No contact anywhere on [lo, hi]: some constraint (or the sphere) is negative.
    fn apart_on(&self, lo: f64, hi: f64, first: Option<usize>) -> bool {
        if self.s.sphere.sign_on_short(lo, hi) == Some(Sign::Positive) {
            return true;
        }
        let enc = self.enclosures(lo, hi);
        first
            .into_iter()
            .chain(0..30)
            .filter(|&j| j < 30 && !self.skip[j])
            .any(|j| self.range(j, &enc).1 < 0.0)
    }

    /// The sign pattern on [lo, hi] and the forms of the 30 planes there, with
    /// whether each form is known (all its signs certified).
    fn forms(&self, lo: f64, hi: f64) -> (SmallVec<[PlaneTerms; 30]>, [bool; 30]) {
        let mut s = [[0i8; 3]; 6];
        let mut known = [true; 18];
        for (i, p) in self.s.signs.iter().enumerate() {
            let sg = if lo == hi {
                p.sign_at(lo)
            } else {
                p.sign_on_short(lo, hi)
            };
            s[i / 3][i % 3] = match sg {
                Some(Sign::Positive) => 1,
                Some(Sign::Negative) => -1,
                Some(Sign::Zero) => 0,
                None => {
                    known[i] = false;
                    1
                }
            };
        }
        let planes = layout(&[s[0], s[1], s[2]], &[s[3], s[4], s[5]], &self.s.sd);
        let mut ok = [true; 30];
        for (j, pt) in planes.iter().enumerate() {
            ok[j] = pt.sources().all(|i| known[i]);
        }
        (planes, ok)
    }

    fn form_poly(&self, pt: &PlaneTerms) -> FPoly {
        FPoly::signed_sum(pt.terms().iter().map(|&(id, s)| (&self.s.fm[id], s)))
    }

    /// The first contact from `start`, if any.
    fn entry(&mut self, start: f64) -> R<Option<Entry>> {
        let (t0, t1) = (self.s.t0, self.s.t1);
        let mut cur = At::Point(start);
        let mut cur_form: Option<(PlaneTerms, FPoly)> = None;
        for _ in 0..400 {
            let (lo, hi) = cur.span();
            let enc = self.enclosures(lo, hi);
            let mut neg: SmallVec<[usize; 32]> = SmallVec::new();
            let mut unsure = false;
            for j in 0..30 {
                if self.skip[j] || matches!(cur, At::Root(_, jr) if jr == j) {
                    continue;
                }
                let (l, h) = self.range(j, &enc);
                if h < 0.0 {
                    neg.push(j);
                } else if l.is_nan() || l <= 0.0 {
                    unsure = true;
                }
            }
            if neg.is_empty() {
                if unsure {
                    // Several constraints at zero (a face contact, say): exact work.
                    return Err(Fallback("a constraint near zero at a contact"));
                }
                return match (cur, cur_form) {
                    (At::Point(x), _) if x == t0 => Ok(Some(Entry::Start)),
                    (At::Root(b, _), Some((pt, f))) => Ok(Some(Entry::Root(b, pt, f))),
                    _ => Err(Fallback("contact where no form vanishes")),
                };
            }
            if self.s.sphere.sign_on_short(lo, hi) == Some(Sign::Positive) {
                neg.push(SPHERE);
            }
            let from = hi;
            if from >= t1 {
                return Err(Fallback("cursor at the end of the range"));
            }
            // The negative constraint whose form's control polygon (cut at its
            // members' next root) reaches furthest.
            let (planes, known) = self.forms(lo, hi);
            let mut cands: SmallVec<[(f64, usize); 32]> = SmallVec::new();
            for &j in &neg {
                let form;
                let f = if j == SPHERE {
                    &self.s.sphere
                } else if known[j] {
                    form = self.form_poly(&planes[j]);
                    &form
                } else {
                    continue;
                };
                let (v, _, vn) = f.bernstein(from, t1);
                let v = &v[..vn];
                let n = (v.len() - 1).max(1) as f64;
                let mut est = 1.0;
                for i in 1..v.len() {
                    if v[i] >= 0.0 {
                        let c = v[i - 1] / (v[i - 1] - v[i]);
                        est = ((i - 1) as f64 + c) / n;
                        break;
                    }
                }
                let mut reach = from + est * (t1 - from);
                if j != SPHERE {
                    if let Some(m) = self.member_root(&planes[j], from)? {
                        reach = reach.min(m.0);
                    }
                }
                cands.push((reach, j));
            }
            if cands.is_empty() {
                // Every negative constraint's form is ambiguous here (its members
                // vanish at the cursor): step just past them.
                let At::Point(x) = cur else {
                    return Err(Fallback("no usable negative constraint"));
                };
                let y = self.clear_point(x)?;
                if y >= t1 || !self.apart_on(x, y, neg.first().copied()) {
                    return Err(Fallback("no usable negative constraint"));
                }
                cur = At::Point(y);
                continue;
            }
            cands.sort_by(|a, b| b.0.total_cmp(&a.0));
            let mut moved = false;
            for (_, j) in cands {
                let f = if j == SPHERE {
                    self.s.sphere
                } else {
                    self.form_poly(&planes[j])
                };
                let r = f
                    .first_root(from, t1)
                    .map_err(|_| Fallback("entry isolation"))?;
                if j == SPHERE {
                    // The sphere bounds nothing past its root, and its bracket must be
                    // short to step over (its monomial form can be ill-conditioned).
                    let Some(r) = r else {
                        return Ok(None);
                    };
                    if r.hi >= t1
                        || r.hi - r.lo > 1e-9 * r.hi.abs().max(1.0)
                        || !self.apart_on(r.lo, r.hi, neg.first().copied())
                    {
                        continue;
                    }
                    cur = At::Point(r.hi);
                    cur_form = None;
                    moved = true;
                    break;
                }
                let m = self.member_root(&planes[j], from)?;
                match (r, m) {
                    (None, None) => return Ok(None),
                    (Some(r), m) if m.is_none_or(|m| r.hi < m.0) => {
                        cur = At::Root(r, j);
                        cur_form = Some((planes[j], f));
                    }
                    (r, Some(m)) if r.is_none_or(|r| m.1 < r.lo) => {
                        // F_j < 0 up to its member's root; step over that bracket.
                        let end = m.1.min(t1);
                        if !self.apart_on(m.0, end, Some(j)) {
                            continue;
                        }
                        if end >= t1 {
                            return Ok(None);
                        }
                        cur = At::Point(end);
                        cur_form = None;
                    }
                    _ => continue,
                }
                moved = true;
                break;
            }
            if !moved {
                return Err(Fallback("no negative constraint could be followed"));
            }
        }
        Err(Fallback("too many jumps"))
    }

    /// Just past `x`: where every sign-pattern polynomial has a certified sign.
    fn clear_point(&self, x: f64) -> R<f64> {
        let mut y = x;
        for p in &self.s.signs {
            if p.sign_at(x).is_none() {
                y = y.max(clear_of_root(p, x, 1.0)?);
            }
        }
        Ok(y)
    }

    /// Contact everywhere on [lo, hi]: every constraint's lower bound is positive.
    fn touching_on(&self, lo: f64, hi: f64) -> bool {
        let enc = self.enclosures(lo, hi);
        (0..30).all(|j| self.skip[j] || self.range(j, &enc).0 > 0.0)
    }

    /// One step of constraint `j` in the exit search, from `x` (F_j(x) > 0), with the
    /// forms at [lo, hi] ∋ x.
    fn exit_step(&mut self, pt: PlaneTerms, x: f64) -> R<Step> {
        let t1 = self.s.t1;
        let f = self.form_poly(&pt);
        if f.is_zero() {
            return Ok(Step::Done);
        }
        if f.sign_at(x) != Some(Sign::Positive) {
            return Err(Fallback("a form not positive where its constraint is"));
        }
        let r = if f.sign_at(t1).is_some() {
            f.first_root(x, t1)
        } else {
            // The form vanishes at (or next to) t1, as it does when the boxes are
            // left touching there. At t1 = 1, exactly: P = (t − 1)·Q, and P's roots
            // before 1 are Q's (with the opposite signs).
            let z = self.s.exact_sum(&pt)?;
            if t1 != 1.0
                || z.as_slice()
                    .iter()
                    .try_fold(0i128, |a, &c| a.checked_add(c))
                    != Some(0)
            {
                return Err(Fallback("a form vanishing next to the end"));
            }
            let q = z
                .div_exact(&P::from_slice(&[-1, 1])?)?
                .ok_or(Fallback("deflation"))?;
            let fq = fpoly(&q)?;
            if fq.sign_at(t1).is_none() {
                return Err(Fallback("a double root at the end"));
            }
            fq.first_root(x, t1).map(|b| {
                b.map(|b| Bracket {
                    s_lo: b.s_lo.flip(),
                    ..b
                })
            })
        };
        let r = r.map_err(|_| Fallback("exit isolation"))?;
        let Some(r) = r else {
            return Ok(Step::Done);
        };
        match self.member_root(&pt, x)? {
            None => Ok(Step::Exit(r, pt, f)),
            Some(m) if r.hi < m.0 => Ok(Step::Exit(r, pt, f)),
            Some(m) if m.1 < r.lo => Ok(Step::Open {
                proven: r.lo,
                from: m.1,
            }),
            Some(_) => Err(Fallback("an exit next to a member root")),
        }
    }

    /// The end of the contact period that starts at [lo, from] (all constraints
    /// positive at `from`; `lo` = `from` for a start at t0).
    fn exit(&mut self, lo: f64, from: f64) -> R<Option<(Bracket, PlaneTerms, FPoly)>> {
        let (mut planes, mut known) = self.forms(lo, from);
        let mut from = from;
        if !known.iter().zip(&self.skip).all(|(&k, &s)| k || s) {
            // A sign-pattern polynomial vanishes at the contact: follow from just past
            // it (in contact all the way there).
            let y = self.clear_point(from)?;
            if y >= self.s.t1 || !self.touching_on(from, y) {
                return Err(Fallback("a sign-pattern root at the contact"));
            }
            from = y;
            (planes, known) = self.forms(y, y);
        }
        let mut best: Option<(Bracket, PlaneTerms, FPoly)> = None;
        let mut open: Vec<(f64, f64, usize)> = Vec::new();
        let handle = |step: Step,
                      j: usize,
                      best: &mut Option<(Bracket, PlaneTerms, FPoly)>,
                      open: &mut Vec<(f64, f64, usize)>|
         -> R<()> {
            match step {
                Step::Done => {}
                Step::Open { proven, from } => open.push((proven, from, j)),
                Step::Exit(b, pt, f) => match best {
                    Some((o, _, _)) if b.lo >= o.hi => {}
                    Some((o, _, _)) if b.hi > o.lo => {
                        return Err(Fallback("two exits too close"));
                    }
                    _ => *best = Some((b, pt, f)),
                },
            }
            Ok(())
        };
        for j in 0..30 {
            if self.skip[j] {
                continue;
            }
            if !known[j] {
                return Err(Fallback("a sign-pattern root at the contact"));
            }
            let st = self.exit_step(planes[j], from)?;
            handle(st, j, &mut best, &mut open)?;
        }
        // Follow the constraints proven only part of the way, nearest first.
        while let Some(k) = (0..open.len()).min_by(|&a, &b| open[a].0.total_cmp(&open[b].0)) {
            let (proven, x, j) = open[k];
            if let Some((b, _, _)) = &best {
                if proven > b.hi {
                    break;
                }
            }
            open.swap_remove(k);
            let (planes, known) = self.forms(x, x);
            if !known[j] {
                return Err(Fallback("a sign-pattern root while following an exit"));
            }
            let st = self.exit_step(planes[j], x)?;
            handle(st, j, &mut best, &mut open)?;
        }
        Ok(best)
    }
}

impl Setup {
    fn exact_sum(&self, pt: &PlaneTerms) -> R<P> {
        let mut f = P::ZERO;
        for &(id, s) in pt.terms() {
            f.add_scaled(&self.members[id], i128::from(s))?;
        }
        Ok(f)
    }

    fn run(&self, tol: &BigRational) -> R<CcdAnswer> {
        let (t0, t1) = (self.t0, self.t1);
        let mut start = t0;
        if self.sphere.sign_at(t0) == Some(Sign::Positive) {
            match self.sphere.first_root(t0, t1) {
                Ok(None) => return Ok(CcdAnswer::Miss),
                Ok(Some(b)) => start = b.lo,
                Err(_) => {}
            }
        }
        let mut sw = Sweep::new(self);
        let Some(en) = sw.entry(start)? else {
            return Ok(CcdAnswer::Miss);
        };
        let rat = rat_f64;
        let (t_enter, feature, lo, from) = match en {
            Entry::Start => (ContactTime::at(TimeKind::Start, &rat(t0)), None, t0, t0),
            Entry::Root(b, pt, f) => {
                let ct = certify(self.exact_sum(&pt)?.as_slice(), &f, b, tol)?;
                (ct, Some(pt.plane.feature(false)), b.lo, b.hi)
            }
        };
        let t_exit = match sw.exit(lo, from)? {
            None => ContactTime::at(TimeKind::End, &rat(t1)),
            Some((b, pt, f)) => certify(self.exact_sum(&pt)?.as_slice(), &f, b, tol)?,
        };
        Ok(CcdAnswer::Hit {
            t_enter,
            t_exit,
            feature,
        })
    }
}

/// The certified time of the root of the exact constraint `z` (float copy `f`) in the
/// bracket `br`: the canonical certificate of [`super::canonical_time`], computed
/// with float guidance and exact signs at a few dyadic points.
fn certify(z: &[i128], f: &FPoly, br: Bracket, tol: &BigRational) -> R<ContactTime> {
    // Primitive, positive leading coefficient: sign(P) = eps·sign(F).
    let eps: i128 = if z.last().is_some_and(|&x| x < 0) {
        -1
    } else {
        1
    };
    let g = z.iter().fold(0, |a, &x| gcd_i128(a, x)).max(1) * eps;
    let p: Vec<BigInt> = z.iter().map(|&c| BigInt::from(c / g)).collect();
    if p.len() == 2 {
        let x = BigRational::new(-p[0].clone(), p[1].clone());
        return Ok(ContactTime::exact_root(x));
    }
    if p.len() < 2 || !zx::square_free_mod_p(&p) {
        return Err(Fallback("certificate polynomial not proven square-free"));
    }
    let df = f.derivative();
    let mut r = br.lo + 0.5 * (br.hi - br.lo);
    for _ in 0..12 {
        let (v, d) = f.value_and_slope(r);
        let x = (r - v / d).clamp(br.lo, br.hi);
        if !x.is_finite() || x == r {
            break;
        }
        r = x;
    }
    let s_lo: i128 = if br.s_lo == Sign::Negative { -1 } else { 1 };
    let below = if eps * s_lo < 0 {
        Ordering::Less
    } else {
        Ordering::Greater
    };
    let mut ok = false;
    for _ in 0..64 {
        let (pr, nx) = (r.next_down(), r.next_up());
        if !(pr > 0.0 || nx < 0.0) {
            return Err(Fallback("root near zero"));
        }
        if !matches!(
            df.sign_on_short(pr.min(br.lo), nx.max(br.hi)),
            Some(Sign::Positive | Sign::Negative)
        ) {
            return Err(Fallback("not proven monotone near the root"));
        }
        let s_m = sign_at_mid(&p, pr, r);
        let s_p = sign_at_mid(&p, r, nx);
        if s_m == Ordering::Equal || s_p == Ordering::Equal {
            return Err(Fallback("root on a rounding boundary"));
        }
        if s_m == below && s_p != below {
            ok = true;
            break;
        }
        r = if s_m == below { nx } else { pr };
    }
    if !ok {
        return Err(Fallback("nearest double not found"));
    }
    let rat = rat_f64;
    if f.sign_at(r).is_none() && zx::sign_at(&p, &rat(r)) == Ordering::Equal {
        return Ok(ContactTime::exact_root(rat(r)));
    }
    // succ − pred is two ulps at most, exactly a double.
    if crate::poly::qcmp(&rat(r.next_up() - r.next_down()), tol).is_gt() {
        return Err(Fallback("tolerance below two ulps"));
    }
    let (lo, hi) = (rat(r.next_down()), rat(r.next_up()));
    Ok(ContactTime::isolating(lo, hi, p, r))
}

/// The exact value of a finite double, in lowest terms (the denominator a power of two
/// and the numerator odd), without num-rational's general conversion.
fn rat_f64(x: f64) -> BigRational {
    if x == 0.0 {
        return BigRational::from_integer(BigInt::from(0));
    }
    let (m, e) = crate::num::dyadic::f64_parts(x);
    if e >= 0 {
        BigRational::from_integer(BigInt::from(m) << e as u64)
    } else {
        BigRational::new_raw(BigInt::from(m), BigInt::one() << (-e) as u64)
    }
}

/// The exact sign of `p` at the midpoint of the doubles a < b (a dyadic rational,
/// evaluated homogeneously: no rational arithmetic).
fn sign_at_mid(p: &[BigInt], a: f64, b: f64) -> Ordering {
    let (ma, ea) = crate::num::dyadic::f64_parts(a);
    let (mb, eb) = crate::num::dyadic::f64_parts(b);
    let e = ea.min(eb);
    let num = (BigInt::from(ma) << (ea - e) as u64) + (BigInt::from(mb) << (eb - e) as u64);
    // (a + b)/2 = num·2^(e − 1).
    let k = e - 1;
    let (num, den) = if k >= 0 {
        (num << k as u64, BigInt::one())
    } else {
        (num, BigInt::one() << (-k) as u64)
    };
    zx::ord_of(&zx::eval_hom(p, &num, &den))
}

/// The float-guided answer, or why it could not be given.
pub fn ccd_guided(q: &CcdQuery) -> Result<CcdAnswer, Fallback> {
    Setup::new(q)?.run(&q.tolerance)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(c: &[i128]) -> P {
        P::from_slice(c).unwrap()
    }

    #[test]
    fn i128_division_and_strip() {
        // w²·(3t − 1) and 5·w, as (power, rest) members: w divides both once.
        let w = p(&[2, 1]);
        let x = P::mul(&P::mul(&w, &w).unwrap(), &p(&[-1, 3])).unwrap();
        let mut g = [(0, x), (1, p(&[5]))];
        strip_group(&mut g, &w).unwrap();
        assert_eq!(g[0].1, P::mul(&w, &p(&[-1, 3])).unwrap());
        assert_eq!(g[1].1, p(&[5]));
        assert_eq!(p(&[1, 0, 1]).div_exact(&p(&[1, 1])).unwrap(), None);
        assert_eq!(P::mul(&p(&[i128::MAX]), &p(&[2])), Err(OVF));
        assert_eq!(
            split_power(&P::mul(&w, &w).unwrap(), &w).unwrap(),
            (2, p(&[1]))
        );
        assert!(proportional(&p(&[2, -4, 6]), &p(&[-1, 2, -3])));
        assert!(!proportional(&p(&[2, -4, 6]), &p(&[1, 2, 3])));
        let big = 1i128 << 100;
        assert!(proportional(
            &p(&[big, 3 * big]),
            &p(&[big / 2, 3 * big / 2])
        ));
        assert!(!proportional(&p(&[big, 3 * big + 1]), &p(&[big, 3 * big])));
    }

    #[test]
    fn midpoint_signs_are_exact() {
        // p(t) = 2t − 1 at the midpoints around 0.5.
        let p = vec![BigInt::from(-1), BigInt::from(2)];
        let h = 0.5f64;
        assert_eq!(sign_at_mid(&p, h.next_down(), h), Ordering::Less);
        assert_eq!(sign_at_mid(&p, h, h.next_up()), Ordering::Greater);
        assert_eq!(sign_at_mid(&p, 0.25, 0.75), Ordering::Equal);
    }
}
