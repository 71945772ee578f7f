//! The dedicated float-guided path for `distance_f64` of a point core (a
//! sphere) against a box core (a box or a cube, possibly rounded; its
//! half-axes need not be orthogonal): the closest feature guessed from the
//! point's box coordinates, proved with filtered exact signs, and the nearest
//! double to `max(0, √q − R)` certified without building an exact number.
//! Answers `None` where a sign is undecided; the caller then takes the
//! generic float-guided path (`segment_fast.rs`), and the exact one behind it
//! ([`crate::stats::ROUNDED_POINT_BOX`] counts both).
//!
//! # The guess
//!
//! The point's box coordinates `t = H⁻¹(p − c)` in doubles (Cramer's rule:
//! `tᵢ = (p − c)·nᵢ/det` with `nᵢ = hᵢ₊₁ × hᵢ₊₂`, `det = h₀·n₀`), clamped to
//! `[−1, 1]`: a region `s ∈ {−1, 0, 1}³`, whose feature is
//! `o + Σ_{sᵢ = 0} tᵢhᵢ` with `o = c + Σ_{sᵢ ≠ 0} sᵢhᵢ` and the `k` free
//! parameters in `[−1, 1]` (a vertex, an edge, a face, or the solid box when
//! `k = 3`).
//!
//! # The proof
//!
//! With `w = o − p` (each coordinate a sum of five doubles, summed in
//! double-word by error-free transformations, [`sum`], and read as a double
//! with a bound) and `d = p_b − p` for the feature's closest point `p_b` to
//! `p`, every sign below is decided in [`Fx`] (doubles with a proven bound)
//! or the guess is refused:
//!
//! - a vertex (`k = 0`): `d = w`, and `sᵢ·(w·hᵢ) < 0` on all three axes;
//! - an edge along `u` (`k = 1`): with `D = |u|² > 0` the parameter is
//!   `−(u·w)/D`, so `−D ≤ u·w ≤ D`; `D·d = D·w − (u·w)·u`, and
//!   `sᵢ·(D·(w·hᵢ) − (u·w)(u·hᵢ)) < 0` on the two fixed axes;
//! - a face spanned by `u₀, u₁` (`k = 2`, fixed axis `i`): with
//!   `n = u₀ × u₁` and `D = |n|² > 0`, `d = ((n·w)/D)·n` (the point's offset
//!   to the plane), the parameters are `−w·(u₁ × n)/D` and `−w·(n × u₀)/D`,
//!   both in `[−1, 1]`, and `sᵢ·(n·w)(n·hᵢ) < 0` (two signs);
//! - the solid box (`k = 3`): `|det Hᵢ| ≤ |det H|` for each `i`, `Hᵢ` the
//!   half-axes with column `i` replaced by `p − c`: the point is in the box,
//!   `q = 0`, the answer 0.
//!
//! For `k < 3` the fixed-axis signs put the box's eight vertices `c ± h₀ ±
//! h₁ ± h₂` beyond the plane through `p_b` orthogonal to `d` (the fixed
//! axes' terms point away, the free ones are orthogonal to `d`), so `p_b` is
//! the box's closest point to `p` (and `d ≠ 0`): the generic path's proof
//! for this pair of features, with the same polynomials in the forms of
//! Lagrange's identity.
//!
//! # The answer
//!
//! `q = A/B` with `A = |w|², B = 1` (vertex), `A = |u × w|², B = |u|²`
//! (edge), `A = (n·w)², B = |n|²` (face), each evaluated in double-word
//! arithmetic ([`Dx`]), and the nearest double to `√(A/B) − R` certified by
//! [`nearest_sqrt_ratio_minus`] (the signs of `A − B(m + R)²` at the
//! rounding midpoints `m` around the guess). A certified answer `g` has the
//! value above the midpoint below `g`, which is positive: the shapes are
//! apart. Otherwise the sign of `A − R²B` in [`Dx`] decides: meeting shapes
//! answer 0, and apart ones whose rounding is undecided (a value within
//! about 2⁻¹⁰⁰ relative of a midpoint, or almost touching shapes where
//! `√q − R` cancels) go to the generic path, which rounds exactly.
//!
//! On x86-64 CPUs with FMA the whole path is compiled a second time with the
//! `fma` target feature and chosen at run time, so that the double-word
//! products' fused multiply-adds are instructions rather than library calls.

use super::segment_fast::dot;
use crate::num::bounded::Fx;
use crate::num::double_word::{nearest_sqrt_ratio_minus, sum, Dx};
use crate::num::ring::Ring;
use crate::num::sign::Sign;

type P = [f64; 3];

/// The number types the proof ([`Fx`]) and the rounding ([`Dx`]) evaluate
/// in, with their products by exactly known doubles.
trait Num: Ring + Copy {
    fn prod(a: f64, b: f64) -> Self;
    fn mul_f64(&self, b: f64) -> Self;
    fn sq(&self) -> Self {
        self.square()
    }
}
impl Num for Fx {
    #[inline(always)]
    fn prod(a: f64, b: f64) -> Self {
        Fx::prod(a, b)
    }
    #[inline(always)]
    fn mul_f64(&self, b: f64) -> Self {
        Fx::mul_f64(self, b)
    }
}
impl Num for Dx {
    #[inline(always)]
    fn prod(a: f64, b: f64) -> Self {
        Dx::prod(a, b)
    }
    #[inline(always)]
    fn mul_f64(&self, b: f64) -> Self {
        Dx::mul_f64(self, b)
    }
    #[inline(always)]
    fn sq(&self) -> Self {
        Dx::sq(self)
    }
}

/// `|a|²`.
#[inline(always)]
fn norm2<R: Num>(a: &[R; 3]) -> R {
    a[0].sq().add_ref(&a[1].sq()).add_ref(&a[2].sq())
}

/// The region `s ∈ {−1, 0, 1}³` the point's box coordinates name, in
/// doubles (a guess, proved afterwards): `tᵢ = (p − c)·nᵢ/det` with
/// `nᵢ = hᵢ₊₁ × hᵢ₊₂` and `det = h₀·n₀` (Cramer's rule), clamped at ±1,
/// compared without dividing. `None` when `det` is 0 or not finite.
#[inline(always)]
fn region(p: &P, c: &P, h: &[P; 3]) -> Option<[i8; 3]> {
    let w = [p[0] - c[0], p[1] - c[1], p[2] - c[2]];
    let cr = |a: &P, b: &P| {
        [
            a[1] * b[2] - a[2] * b[1],
            a[2] * b[0] - a[0] * b[2],
            a[0] * b[1] - a[1] * b[0],
        ]
    };
    let d3 = |a: &P, b: &P| a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
    let n = [cr(&h[1], &h[2]), cr(&h[2], &h[0]), cr(&h[0], &h[1])];
    let det = d3(&h[0], &n[0]);
    if !(det != 0.0 && det.is_finite()) {
        return None;
    }
    let mut s = [0i8; 3];
    for (si, ni) in s.iter_mut().zip(&n) {
        let y = d3(&w, ni);
        if y.abs() > det.abs() {
            *si = if (y > 0.0) == (det > 0.0) { 1 } else { -1 };
        }
    }
    Some(s)
}

/// `a·b` of two vectors of doubles.
#[inline(always)]
fn dot_ff<R: Num>(a: &P, b: &P) -> R {
    R::prod(a[0], b[0])
        .add_ref(&R::prod(a[1], b[1]))
        .add_ref(&R::prod(a[2], b[2]))
}
/// `a·b` with `b` of doubles.
#[inline(always)]
fn dot_xf<R: Num>(a: &[R; 3], b: &P) -> R {
    a[0].mul_f64(b[0])
        .add_ref(&a[1].mul_f64(b[1]))
        .add_ref(&a[2].mul_f64(b[2]))
}
/// `a × b` of two vectors of doubles.
#[inline(always)]
fn cross_ff<R: Num>(a: &P, b: &P) -> [R; 3] {
    [
        R::prod(a[1], b[2]).sub_ref(&R::prod(a[2], b[1])),
        R::prod(a[2], b[0]).sub_ref(&R::prod(a[0], b[2])),
        R::prod(a[0], b[1]).sub_ref(&R::prod(a[1], b[0])),
    ]
}
/// `a × b` with `a` of doubles.
#[inline(always)]
fn cross_fx<R: Num>(a: &P, b: &[R; 3]) -> [R; 3] {
    [
        b[2].mul_f64(a[1]).sub_ref(&b[1].mul_f64(a[2])),
        b[0].mul_f64(a[2]).sub_ref(&b[2].mul_f64(a[0])),
        b[1].mul_f64(a[0]).sub_ref(&b[0].mul_f64(a[1])),
    ]
}

/// The five doubles whose sum is `wⱼ = oⱼ − pⱼ`.
#[inline(always)]
fn terms(p: &P, c: &P, h: &[P; 3], s: &[i8; 3], j: usize) -> [f64; 5] {
    let f = |i: usize| match s[i] {
        1 => h[i][j],
        -1 => -h[i][j],
        _ => 0.0,
    };
    [c[j], f(0), f(1), f(2), -p[j]]
}

/// `x ≥ 0`, proved.
#[inline(always)]
fn nonneg(x: Fx) -> bool {
    matches!(x.sign(), Some(Sign::Positive | Sign::Zero))
}

/// `sᵢ·x < 0`, proved (the box's vertices beyond the slab's plane on the
/// fixed axis `i`).
#[inline(always)]
fn away(si: i8, x: Fx) -> bool {
    let want = if si > 0 {
        Sign::Negative
    } else {
        Sign::Positive
    };
    x.sign() == Some(want)
}

/// The point in the solid box, proved: `|det Hᵢ| ≤ |det H|` for each `i`,
/// `Hᵢ` the half-axes with column `i` replaced by `p − c`.
#[inline(always)]
fn inside(p: &P, c: &P, h: &[P; 3]) -> bool {
    let d = |j: usize| Fx::exact(p[j]).sub_ref(&Fx::exact(c[j]));
    let pc = [d(0), d(1), d(2)];
    let n: [[Fx; 3]; 3] = [
        cross_ff(&h[1], &h[2]),
        cross_ff(&h[2], &h[0]),
        cross_ff(&h[0], &h[1]),
    ];
    let det = dot_xf(&n[0], &h[0]);
    let negative = match det.sign() {
        Some(Sign::Positive) => false,
        Some(Sign::Negative) => true,
        _ => return false,
    };
    for ni in &n {
        let di = dot(&pc, ni);
        let (mut lo, mut hi) = (det.sub_ref(&di), det.add_ref(&di));
        if negative {
            (lo, hi) = (lo.neg_ref(), hi.neg_ref());
        }
        if !(nonneg(lo) && nonneg(hi)) {
            return false;
        }
    }
    true
}

/// The rounding of `√(A/B) − R` ([`nearest_sqrt_ratio_minus`]); where it is
/// not certified, the sign of `A − R²B` in [`Dx`]: meeting shapes answer 0.
/// A certified rounding `g` has `f > 0` at the midpoint below it, which is
/// positive: the shapes are apart, and no sign of `A − R²B` is needed.
#[inline(always)]
fn finish(a: Dx, b: Option<Dx>, ra: f64, rb: f64) -> Option<f64> {
    if let Some(x) = nearest_sqrt_ratio_minus(a, b, ra, rb) {
        return Some(x);
    }
    let rr = Dx::exact(ra).add_ref(&Dx::exact(rb)).square();
    let m = a.sub_ref(&match b {
        Some(b) => b.mul_ref(&rr),
        None => rr,
    });
    match m.sign()? {
        Sign::Positive => None,
        Sign::Negative | Sign::Zero => Some(0.0),
    }
}

/// The double nearest to the distance `max(0, √q − R)` of a point core `p`
/// with radius `ra` and a box core (center `c`, half-axes `h`, independent)
/// with radius `rb`, all finite; `None` when a sign is undecided here.
///
/// On x86-64 with FMA (detected once and cached by the standard library) the
/// same code is compiled with the `fma` target feature, where the
/// double-word products' `f64::mul_add` is one instruction rather than a
/// library call; the values are the same (a fused multiply-add is one
/// rounding of the exact `a·b + c` either way).
pub(crate) fn distance_f64(p: &P, c: &P, h: &[P; 3], ra: f64, rb: f64) -> Option<f64> {
    #[cfg(target_arch = "x86_64")]
    {
        if std::arch::is_x86_feature_detected!("fma") {
            // SAFETY: the CPU has the `fma` feature, checked just above.
            return unsafe { distance_f64_fma(p, c, h, ra, rb) };
        }
    }
    answer(p, c, h, ra, rb)
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "fma")]
fn distance_f64_fma(p: &P, c: &P, h: &[P; 3], ra: f64, rb: f64) -> Option<f64> {
    answer(p, c, h, ra, rb)
}

/// [`distance_f64`]'s body, region by region (module docs).
#[inline(always)]
fn answer(p: &P, c: &P, h: &[P; 3], ra: f64, rb: f64) -> Option<f64> {
    let s = region(p, c, h)?;
    let mut free = [0usize; 3];
    let mut k = 0;
    for (i, si) in s.iter().enumerate() {
        if *si == 0 {
            free[k] = i;
            k += 1;
        }
    }
    if k == 3 {
        return inside(p, c, h).then_some(0.0);
    }
    let w = [
        sum(&terms(p, c, h, &s, 0)),
        sum(&terms(p, c, h, &s, 1)),
        sum(&terms(p, c, h, &s, 2)),
    ];
    let wx = [w[0].to_fx(), w[1].to_fx(), w[2].to_fx()];
    match k {
        0 => {
            // A vertex: d = w, q = |w|².
            for i in 0..3 {
                if !away(s[i], dot_xf(&wx, &h[i])) {
                    return None;
                }
            }
            finish(norm2(&w), None, ra, rb)
        }
        1 => {
            // An edge along u: D = |u|², x = −(u·w)/D, D·d = D·w − (u·w)·u,
            // q = |u × w|²/|u|².
            let u = &h[free[0]];
            let d: Fx = dot_ff(u, u);
            let uw = dot_xf(&wx, u);
            if d.sign() != Some(Sign::Positive)
                || !nonneg(d.sub_ref(&uw))
                || !nonneg(d.add_ref(&uw))
            {
                return None;
            }
            for (hi, si) in h.iter().zip(&s) {
                if *si != 0 {
                    let y = d
                        .mul_ref(&dot_xf(&wx, hi))
                        .sub_ref(&uw.mul_ref(&dot_ff(u, hi)));
                    if !away(*si, y) {
                        return None;
                    }
                }
            }
            let cw = cross_fx(u, &w);
            finish(norm2(&cw), Some(dot_ff(u, u)), ra, rb)
        }
        _ => {
            // A face with normal n = u₀ × u₁ (fixed axis i): D = |n|²,
            // d = ((n·w)/D)·n, the parameters −w·(u₁ × n)/D and
            // −w·(n × u₀)/D, q = (n·w)²/|n|².
            let i = 3 - free[0] - free[1];
            let (u0, u1) = (&h[free[0]], &h[free[1]]);
            let n: [Fx; 3] = cross_ff(u0, u1);
            let d = dot(&n, &n);
            if d.sign() != Some(Sign::Positive) {
                return None;
            }
            let nw = dot(&n, &wx);
            // sᵢ·(d·hᵢ) < 0 with d·hᵢ = (n·w)(n·hᵢ)/D.
            let (Some(a), Some(b)) = (nw.sign(), dot_xf(&n, &h[i]).sign()) else {
                return None;
            };
            if a == Sign::Zero || b == Sign::Zero || (a == b) != (s[i] < 0) {
                return None;
            }
            for v in [u1, u0] {
                let x = dot(&wx, &cross_fx(v, &n));
                if !(nonneg(d.sub_ref(&x)) && nonneg(d.add_ref(&x))) {
                    return None;
                }
            }
            let n: [Dx; 3] = cross_ff(u0, u1);
            let nw = dot(&n, &w);
            finish(nw.sq(), Some(norm2(&n)), ra, rb)
        }
    }
}
