//! The bottom of the triangle pair's float-guided paths: the aligned
//! integer coordinates, error-bounded floats, and the unreduced integer
//! points, axes and contact sets with their exact and rounded forms.
//!
//! Float inputs are aligned ([`align`]): each coordinate is an integer
//! `X·2^e0` with `|X| < 2⁶¹`, so differences fit `i64` ([`V`]) and their
//! products and sums fit `i128` ([`W`]) exactly. Quantities of higher degree
//! are guessed in f64 with a running error bound ([`Ef`], [`sdot`]) and built
//! in fixed-width integers ([`crate::num::fixed`]) when the bound cannot
//! decide. Points ([`IPoint`]) stay unreduced (`X / w`) until the answer is
//! written: reduced once for the exact answer, rounded directly from the
//! quotient for the f32/f64 answer ([`round_q`]). `fast_intersect.rs` and
//! `fast_distance.rs` build on these.

use crate::num::bounded::U;
use crate::num::fixed::{finish, nonzero_product, Int, Nat, Over};
use crate::num::scalar::Scalar;
use crate::vector::Vec3;
use num_bigint::{BigInt, Sign as BSign};
use num_rational::BigRational;
use num_traits::Zero;

pub(super) type Q = BigRational;
pub(super) type V = [i64; 3];
pub(super) type W = [i128; 3];

/// The 18 coordinates as integers times `2^e0`, if all are below 2^61.
pub(crate) fn align(c: &[[f64; 3]; 6]) -> Option<([[i64; 3]; 6], i64)> {
    let mut m = [[0i64; 3]; 6];
    let mut e = [[0i64; 3]; 6];
    let mut e0 = i64::MAX;
    for k in 0..6 {
        for i in 0..3 {
            let v = c[k][i];
            if !v.is_finite() {
                return None;
            }
            if v == 0.0 {
                continue;
            }
            let (mm, ex) = crate::num::dyadic::f64_parts(v);
            m[k][i] = mm;
            e[k][i] = ex;
            e0 = e0.min(ex);
        }
    }
    if e0 == i64::MAX {
        e0 = 0;
    }
    let mut x = [[0i64; 3]; 6];
    for k in 0..6 {
        for i in 0..3 {
            if m[k][i] == 0 {
                continue;
            }
            let sh = e[k][i] - e0;
            let len = 64 - m[k][i].unsigned_abs().leading_zeros() as i64;
            if sh + len > 61 {
                return None;
            }
            x[k][i] = m[k][i] << sh;
        }
    }
    Some((x, e0))
}

pub(super) fn sub(a: &V, b: &V) -> V {
    [a[0] - b[0], a[1] - b[1], a[2] - b[2]]
}

pub(super) fn cross(a: &V, b: &V) -> W {
    let m = |x: i64, y: i64| x as i128 * y as i128;
    [
        m(a[1], b[2]) - m(a[2], b[1]),
        m(a[2], b[0]) - m(a[0], b[2]),
        m(a[0], b[1]) - m(a[1], b[0]),
    ]
}

/// An `i128` below 2¹²⁶ in magnitude as f64 within 3u relative, without a
/// branch (the signs and sizes are unpredictable): `|v| = h·2⁶⁴ + l` with
/// `h < 2⁶²` converted once, `l = l₁·2¹¹ + l₀` with `l₁ < 2⁵³` and `l₀ < 2¹¹`
/// converted exactly and added (one rounding), then `h·2⁶⁴ + l` (one rounding):
/// three roundings of nonnegative terms, no cancellation; the sign is copied.
#[inline]
pub(super) fn f(v: i128) -> f64 {
    let u = v.unsigned_abs();
    let (h, l) = ((u >> 64) as u64, u as u64);
    let lf = ((l >> 11) as i64 as f64) * 2048.0 + (l & 2047) as i64 as f64;
    let m = (h as i64 as f64) * 18446744073709551616.0 + lf;
    f64::from_bits(m.to_bits() | (((v >> 127) as u64) << 63))
}

/// A signed sum of products of values each within 3u relative, in f64, and
/// its error bound 16u·Σ|terms| (each term within 7u, two additions).
pub(super) fn sdot(x: [f64; 3], y: [f64; 3]) -> (f64, f64) {
    let t = [x[0] * y[0], x[1] * y[1], x[2] * y[2]];
    let v = t[0] + t[1] + t[2];
    let a = t[0].abs() + t[1].abs() + t[2].abs();
    (v, 16.0 * U * a)
}

/// Three-valued (Kleene) conjunction of filter outcomes: `None` is "undecided".
pub(crate) fn and(x: Option<bool>, y: Option<bool>) -> Option<bool> {
    match (x, y) {
        (Some(false), _) | (_, Some(false)) => Some(false),
        (Some(true), Some(true)) => Some(true),
        _ => None,
    }
}

pub(super) fn int(v: i128) -> Int {
    Int::from_i128(v)
}

pub(super) fn idot(x: &[Int; 3], y: &[Int; 3]) -> Int {
    x[0].mul(&y[0]).add(&x[1].mul(&y[1])).add(&x[2].mul(&y[2]))
}

/// `v · 2^p` in lowest terms: an odd integer over a power of two, or an
/// integer.
pub(crate) fn dyadic_q(v: i128, p: i64) -> Q {
    if v == 0 {
        return <Q as Zero>::zero();
    }
    let tz = v.trailing_zeros();
    let (m, p) = (BigInt::from(v >> tz), p + tz as i64);
    if p >= 0 {
        Q::new_raw(m << p as u64, BigInt::from(1))
    } else {
        Q::new_raw(m, BigInt::from(1) << (-p) as u64)
    }
}

/// A vertex as exact rationals.
pub(super) fn vertex(x: &V, e0: i64) -> Vec3<Q> {
    let c = |v: i64| dyadic_q(v as i128, e0);
    Vec3::new(c(x[0]), c(x[1]), c(x[2]))
}

/// `(x·den + d·s) / den`, coordinate-wise (`den > 0`), in lowest terms:
/// `gcd(x·den + d·s, den) = gcd(d·s, den)`, from `red` (built with `s` and the
/// entries of `d` among its factors).
pub(super) fn along(x: &V, d: &[Int; 3], s: &Int, den: &Int, red: &mut Over, e0: i64) -> Vec3<Q> {
    debug_assert!(red.is_over(den.mag()));
    let mut c = |k: usize| {
        let ds = d[k].mul(s);
        let num = int(x[k] as i128).mul(den).add(&ds);
        red.value(&num, ds.mag(), e0)
    };
    let (c0, c1) = (c(0), c(1));
    Vec3::new(c0, c1, c(2))
}

/// A float with a bound on its distance to an exact value: `|v − x| ≤ e`
/// (running error analysis; each bound is inflated to cover the roundings made
/// while computing it). Values here are integers or 0, far from underflow and
/// overflow.
#[derive(Clone, Copy)]
pub(super) struct Ef {
    pub(super) v: f64,
    pub(super) e: f64,
}

impl Ef {
    pub(super) fn small(x: i64) -> Ef {
        let v = x as f64;
        Ef { v, e: U * v.abs() }
    }
    pub(super) fn add(self, o: Ef) -> Ef {
        let v = self.v + o.v;
        Ef {
            v,
            e: (self.e + o.e + U * v.abs()) * (1.0 + 8.0 * U),
        }
    }
    pub(super) fn mul(self, o: Ef) -> Ef {
        let v = self.v * o.v;
        Ef {
            v,
            e: (self.v.abs() * o.e + o.v.abs() * self.e + self.e * o.e + U * v.abs())
                * (1.0 + 16.0 * U),
        }
    }
}

impl Ef {
    /// An `i128` below 2¹²⁶ in magnitude (within 3u relative: [`f`]).
    pub(super) fn wide(x: i128) -> Ef {
        let v = f(x);
        Ef {
            v,
            e: 4.0 * U * v.abs(),
        }
    }
    pub(super) fn neg(self) -> Ef {
        Ef {
            v: -self.v,
            e: self.e,
        }
    }
    /// `Σ xₖ·yₖ` for exact `i128` and `i64` factors.
    pub(super) fn dot(x: &W, y: &V) -> Ef {
        (0..3)
            .map(|k| Ef::wide(x[k]).mul(Ef::small(y[k])))
            .fold(Ef { v: 0.0, e: 0.0 }, Ef::add)
    }
}

/// A point of a certificate, exact and unreduced: a vertex (`0..3` of a,
/// `3..6` of b), or `(t0·w + d·s) / w · 2^e0` with `w > 0`.
// Fixed-width integers on the stack on purpose (no allocation until the
// answer is written): the size difference is the design.
#[allow(clippy::large_enum_variant)]
#[derive(Clone, Debug)]
pub(crate) enum IPoint {
    Vertex(usize),
    Along { t0: V, d: [Int; 3], s: Int, w: Int },
}

/// A separating axis `l · 2^p` (integer components).
#[derive(Clone, Debug)]
pub(crate) struct IAxis {
    pub(crate) l: [Int; 3],
    pub(crate) p: i64,
}

/// The contact set, as the exact path's `Contact`, with integer points.
#[allow(clippy::large_enum_variant)] // as `IPoint`
#[derive(Clone, Debug)]
pub(crate) enum IContact {
    Point(IPoint),
    Segment(IPoint, IPoint),
    Polygon(Vec<IPoint>),
}

/// `n / d · 2^p` as an unreduced `BigRational` (`d > 0`): only to be
/// rounded, never compared or printed.
pub(crate) fn unreduced(n: &Int, d: &Nat, p: i64) -> Q {
    let s = if n.is_neg() {
        BSign::Minus
    } else {
        BSign::Plus
    };
    let (sn, sd) = if p >= 0 {
        (p as u64, 0)
    } else {
        (0, (-p) as u64)
    };
    Q::new_raw(
        BigInt::from_biguint(s, n.mag().shl_big(sn)),
        BigInt::from_biguint(BSign::Plus, d.shl_big(sd)),
    )
}

/// The float format of `S`: significant bits, exponent of the least
/// subnormal bit, largest exponent (`None` for the exact type).
fn format<S: Scalar>() -> Option<(u64, i64, i64)> {
    match S::NAME {
        "f64" => Some((53, -1074, 1023)),
        "f32" => Some((24, -149, 127)),
        _ => None,
    }
}

/// `n / d · 2^e` (`d > 0`) correctly rounded to `S` (f32/f64: nearest, ties
/// to even), without a gcd: a 64-bit quotient of the leading bits decides
/// the rounding ([`round_fast`]); an exact value within a few units of the
/// quotient's last bit from a midpoint, or a result near the ends of the
/// format's range, is rounded by [`Scalar::from_rational`] on the unreduced
/// quotient.
pub(crate) fn round_q<S: Scalar>(n: &Int, d: &Nat, e: i64) -> S {
    if n.signum() == 0 {
        return S::zero();
    }
    round_fast(n, d, e).unwrap_or_else(|| S::from_rational(&unreduced(n, d, e)))
}

/// The fast case of [`round_q`]. With `N₁ ∈ [2¹²⁵, 2¹²⁶)` the leading bits
/// of `|n|` and `D₁ ∈ [2⁶², 2⁶³)` those of `d` (truncated: `|n| = (N₁ + εₙ)·2^a`,
/// `d = (D₁ + ε_d)·2^b`, `0 ≤ ε < 1`), `q = ⌊N₁/D₁⌋ ∈ [2⁶², 2⁶⁴)` and the
/// exact `X = |n|/d·2^(b−a)` satisfy `|X − q| < 1 + 2⁻⁶² + q/D₁ < 6`. The
/// rounding keeps `q`'s bits above position `t` (the format's precision,
/// or the subnormal limit); it is decided when the dropped bits are more
/// than 8 units away from the midpoint `2^(t−1)`: every value within 6 units
/// of `q` then rounds to the same float (near a power of two too: the value
/// is within 6 units of a representable number, far below half a spacing).
fn round_fast<S: Scalar>(n: &Int, d: &Nat, e: i64) -> Option<S> {
    let (p, lsb_min, max_exp) = format::<S>()?;
    let (bn, bd) = (n.mag().bits(), d.bits());
    let lead = |x: &Nat, b: u64, w: u64| {
        if b > w {
            x.shr(b - w)
        } else {
            x.shl(w - b)
        }
    };
    let n1 = lead(n.mag(), bn, 126).to_u128()?;
    let d1 = lead(d, bd, 63).to_u128()?;
    let q = n1 / d1;
    // The value is about q·2^ex.
    let ex = (bn as i64 - 126) - (bd as i64 - 63) + e;
    let bq = 128 - q.leading_zeros() as i64;
    let lsb = (ex + bq - p as i64).max(lsb_min);
    let t = lsb - ex;
    if !(5..=63).contains(&t) {
        return None;
    }
    let (r, k, half) = (q & ((1 << t) - 1), q >> t, 1u128 << (t - 1));
    if r.abs_diff(half) <= 8 {
        return None;
    }
    let m = k + (r > half) as u128;
    if lsb + (128 - m.leading_zeros() as i64) - 1 > max_exp {
        return None;
    }
    let pow2 = |e: i64| f64::from_bits(((e + 1023) as u64) << 52);
    // Exact: m has at most p + 1 bits and the result is representable.
    let v = if lsb >= -1022 {
        m as f64 * pow2(lsb)
    } else {
        m as f64 * pow2(lsb + 200) * pow2(-200)
    };
    let v = if n.is_neg() { -v } else { v };
    let any: &dyn std::any::Any = &v;
    match any.downcast_ref::<S>() {
        Some(x) => Some(x.clone()),
        None => {
            let w = v as f32;
            (&w as &dyn std::any::Any).downcast_ref::<S>().cloned()
        }
    }
}

impl IPoint {
    /// The exact point in lowest terms (one full-size gcd, [`Over`]).
    pub(crate) fn to_q(&self, x: &[V; 6], e0: i64) -> Vec3<Q> {
        match self {
            IPoint::Vertex(k) => vertex(&x[*k], e0),
            IPoint::Along { t0, d, s, w } => {
                let mut red = Over::new(w.mag(), &[*s.mag(), nonzero_product(d)]);
                along(t0, d, s, w, &mut red, e0)
            }
        }
    }

    /// [`IPoint::to_q`] with a reducer built for this point's denominator and
    /// factors (shared by the points of one answer).
    pub(super) fn to_q_with(&self, x: &[V; 6], e0: i64, red: &mut Over) -> Vec3<Q> {
        match self {
            IPoint::Vertex(k) => vertex(&x[*k], e0),
            IPoint::Along { t0, d, s, w } => along(t0, d, s, w, red, e0),
        }
    }

    /// The point rounded to `S` (f32/f64), each coordinate correctly rounded
    /// from the unreduced quotient (no gcd); `v` are the input vertices.
    pub(crate) fn round<S: Scalar>(&self, v: &[&Vec3<S>; 6], e0: i64) -> Vec3<S> {
        debug_assert!(!S::IS_EXACT);
        match self {
            IPoint::Vertex(k) => v[*k].clone(),
            IPoint::Along { t0, d, s, w } => {
                let c = |k: usize| {
                    let n = int(t0[k] as i128).mul(w).add(&d[k].mul(s));
                    round_q(&n, w.mag(), e0)
                };
                Vec3::new(c(0), c(1), c(2))
            }
        }
    }
}

impl IAxis {
    /// The exact axis (powers of two cancelled; no gcd needed).
    pub(crate) fn to_q(&self) -> Vec3<Q> {
        let one = Nat::from_u128(1);
        let c = |k: usize| {
            let l = &self.l[k];
            match l.mag().to_u128() {
                Some(m) if m < 1 << 127 => {
                    let v = m as i128;
                    dyadic_q(if l.is_neg() { -v } else { v }, self.p)
                }
                _ => finish(l, &one, &one, self.p),
            }
        };
        Vec3::new(c(0), c(1), c(2))
    }
}

impl IAxis {
    /// The axis rounded to `S` (each component correctly rounded).
    pub(crate) fn round<S: Scalar>(&self) -> Vec3<S> {
        let one = Nat::from_u128(1);
        let c = |k: usize| round_q(&self.l[k], &one, self.p);
        Vec3::new(c(0), c(1), c(2))
    }
}

impl IContact {
    /// The first point (the witness).
    pub(crate) fn first(&self) -> &IPoint {
        match self {
            IContact::Point(p) | IContact::Segment(p, _) => p,
            IContact::Polygon(v) => &v[0],
        }
    }
}

#[cfg(test)]
pub(super) mod tests {
    use super::*;

    /// A seeded generator (splitmix64), shared with `fast_intersect`'s tests.
    pub(in crate::query::triangle_triangle) struct Rng(pub(in crate::query::triangle_triangle) u64);

    impl Rng {
        pub(in crate::query::triangle_triangle) fn next(&mut self) -> u64 {
            crate::poly::planted::splitmix64(&mut self.0)
        }
        pub(in crate::query::triangle_triangle) fn unit(&mut self) -> f64 {
            (self.next() >> 11) as f64 / (1u64 << 53) as f64
        }
        pub(in crate::query::triangle_triangle) fn below(&mut self, n: u64) -> u64 {
            self.next() % n
        }
        /// Uniform in [−2^(bits−1), 2^(bits−1)).
        pub(in crate::query::triangle_triangle) fn int(&mut self, bits: u32) -> i64 {
            (self.next() >> (64 - bits)) as i64 - (1i64 << (bits - 1))
        }
    }

    /// `round_q` equals `from_rational` of the exact quotient (f64 and f32),
    /// on random quotients of every size, on quotients at and one unit
    /// around a midpoint between two floats (`(2m + 1)·2^k·d ± δ`), and on
    /// results that are subnormal, overflow or underflow to 0.
    #[test]
    fn rounding_equals_from_rational() {
        use num_bigint::BigUint;
        let mut r = Rng(3);
        let nat = |x: &BigUint| Nat::from_biguint(x);
        let big = |r: &mut Rng, words: u64| {
            let mut v = BigUint::from(1u32);
            for _ in 0..words {
                v = (v << 64u32) + BigUint::from(r.next() >> r.below(64));
            }
            v
        };
        let mut fast = 0;
        for round in 0..20000u64 {
            let d = big(&mut r, round % 4);
            let n = match round % 3 {
                0 => big(&mut r, 1 + round % 5),
                _ => {
                    // A midpoint of the f64 (or f32) grid times d, moved by
                    // -1, 0 or 1.
                    let m = BigUint::from((r.next() >> 10) | 1);
                    let k = r.below(60);
                    let v = (m << k) * &d;
                    match r.below(3) {
                        0 => v - 1u32,
                        1 => v,
                        _ => v + 1u32,
                    }
                }
            };
            if n.bits() > 700 || d.bits() > 700 {
                continue;
            }
            let e =
                [0, -1100, 900, -200, 3, -1080, 1000][(round % 7) as usize] - r.below(64) as i64;
            let sign = if round % 2 == 0 {
                BSign::Plus
            } else {
                BSign::Minus
            };
            let ni = Int::from_nat(sign == BSign::Minus, nat(&n));
            let q = unreduced(&ni, &nat(&d), e);
            let (got, want) = (round_q::<f64>(&ni, &nat(&d), e), f64::from_rational(&q));
            assert_eq!(got.to_bits(), want.to_bits(), "{n} / {d} · 2^{e}");
            let (got, want) = (round_q::<f32>(&ni, &nat(&d), e), f32::from_rational(&q));
            assert_eq!(got.to_bits(), want.to_bits(), "{n} / {d} · 2^{e}");
            fast += round_fast::<f64>(&ni, &nat(&d), e).is_some() as usize;
        }
        assert!(fast > 5000, "{fast}");
    }

    /// The branch-free `i128` conversion is within 3u relative, exactly
    /// checked, on values of every size up to 2¹²⁶ and both signs.
    #[test]
    fn wide_conversion_within_three_units() {
        use num_rational::BigRational;
        use num_traits::Signed;
        let mut r = Rng(9);
        let three_u = BigRational::new(3.into(), BigInt::from(1) << 53u32);
        for round in 0..20000u64 {
            let bits = round % 127;
            let v = ((r.next() as u128) << 64 | r.next() as u128) >> (127 - bits);
            let v = if round % 2 == 0 {
                v as i128
            } else {
                -(v as i128)
            };
            let exact = BigRational::from_integer(BigInt::from(v));
            let got = BigRational::from_float(f(v)).unwrap();
            assert!((&got - &exact).abs() <= &three_u * exact.abs(), "{v}");
        }
        assert_eq!(f(0), 0.0);
        assert_eq!(f(-1), -1.0);
        assert_eq!(f((1 << 126) - 1), 2f64.powi(126));
    }
}
