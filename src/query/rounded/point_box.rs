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
//! rounding midpoints `m` around the guess); a vertex's by
//! [`nearest_norm_minus`], which takes `|w|² − T²` in one pass from `w` with
//! one a-priori bound, and builds `A` in [`Dx`] only where the rounding is
//! not certified. A certified answer `g` has the
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
use crate::num::bounded::{Fx, ETA, K_MUL_PUB, U};
use crate::num::double_word::{nearest_norm_minus, nearest_sqrt_ratio_minus, sum, Dx};
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
/// compared without dividing. `Err(Outcome::Undecided)` when `det` is 0 or
/// not finite, or `p − c` overflows; `Err(Outcome::NotFinite)` when an input
/// is infinite or NaN.
///
/// The inputs' finiteness is read off `w = p − c` and `det` (one test,
/// `Σ(x − x) = 0` exactly when every `x` is finite): a non-finite `pⱼ` or
/// `cⱼ` makes `wⱼ` infinite or NaN, and a non-finite half-axis coordinate
/// makes `det` infinite or NaN (it enters `n₀ = h₁ × h₂` or `det = h₀·n₀`
/// multiplied by a zero, giving NaN, or by a nonzero, giving an infinity,
/// and NaN and infinities never cancel to a finite value). Only when the
/// test fails are the inputs checked one by one, to tell the two apart.
#[inline(always)]
fn region(p: &P, c: &P, h: &[P; 3]) -> Result<[i8; 3], Outcome> {
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
    // `x − x` is 0 for a finite `x` and NaN otherwise.
    #[allow(clippy::eq_op)]
    let finite = (w[0] - w[0]) + (w[1] - w[1]) + (w[2] - w[2]) + (det - det) == 0.0;
    if !(finite && det != 0.0) {
        let all = |v: &P| v.iter().all(|x| x.is_finite());
        return Err(if all(p) && all(c) && h.iter().all(all) {
            Outcome::Undecided
        } else {
            Outcome::NotFinite
        });
    }
    let mut s = [0i8; 3];
    for (si, ni) in s.iter_mut().zip(&n) {
        let y = d3(&w, ni);
        if y.abs() > det.abs() {
            *si = if (y > 0.0) == (det > 0.0) { 1 } else { -1 };
        }
    }
    Ok(s)
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

/// The five doubles whose sum is `wⱼ = oⱼ − pⱼ`, with `sf` the region's
/// signs as doubles (`sᵢhᵢⱼ` is exact: a product by ±1 or 0 of a finite
/// double; a zero term may be −0, which changes no sum's value).
#[inline(always)]
fn terms(p: &P, c: &P, h: &[P; 3], sf: &[f64; 3], j: usize) -> [f64; 5] {
    [
        c[j],
        sf[0] * h[0][j],
        sf[1] * h[1][j],
        sf[2] * h[2][j],
        -p[j],
    ]
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

/// `sᵢ·(w·hᵢ) < 0` on the three axes of a vertex, proved: first by a
/// semi-static filter (one bound for the three signs), then, where it
/// cannot decide, in [`Fx`] as [`away`], so that a sign it leaves open is
/// decided as without it.
///
/// The filter evaluates `ỹᵢ = fl(w̃·hᵢ)` in plain doubles from the centres
/// `w̃ⱼ` of `wx` (`|w̃ⱼ − wⱼ| ≤ eⱼ`). Three products and two sums: the
/// rounding error is at most `γ₃ Σⱼ|w̃ⱼ||hᵢⱼ|` (Higham, §3.1;
/// `γ₃ = 3u/(1 − 3u) < 4u`) plus at most 2⁻¹⁰⁷⁵ for each of the five
/// roundings that underflows; the centres' errors add `Σⱼ eⱼ|hᵢⱼ|`. With
/// `V = Σⱼ|w̃ⱼ|`, `E = Σⱼ eⱼ` and `M = maxᵢⱼ |hᵢⱼ|`, for each axis
///
/// ```text
/// |ỹᵢ − w·hᵢ| ≤ 4u·V·M + E·M + 5·2⁻¹⁰⁷⁵ ≤ b = ((V·M)·4u + E·M)·(1 + 16u) + 2η
/// ```
///
/// with `b` computed in doubles: its roundings of nonnegative terms (at
/// most eight) lose at most a factor `(1 − u)⁸`, which `1 + 16u` makes up,
/// and the at most five that underflow lose at most 2⁻¹⁰⁷⁵ each, none of
/// them multiplied afterwards by more than `1 + 16u`; with the five above
/// they are below `2η = 2⁻¹⁰⁵⁹`. An overflow in `ỹᵢ` leaves it infinite or
/// NaN (an infinite intermediate never becomes finite again), and an
/// infinite or NaN `b` decides nothing: the filter answers only for a
/// finite `ỹᵢ` with `sᵢ·ỹᵢ < −b`.
#[inline(always)]
fn vertex_away(s: &[i8; 3], wx: &[Fx; 3], h: &[P; 3]) -> bool {
    let b = vertex_bound(wx, h);
    for i in 0..3 {
        if !vertex_decides(s[i], wx, &h[i], b) && !away(s[i], dot_xf(wx, &h[i])) {
            return false;
        }
    }
    true
}

/// [`vertex_away`]'s filter bound `b`.
#[inline(always)]
fn vertex_bound(wx: &[Fx; 3], h: &[P; 3]) -> f64 {
    let max = |a: f64, b: f64| if a > b { a } else { b };
    let m = h
        .iter()
        .map(|hi| max(max(hi[0].abs(), hi[1].abs()), hi[2].abs()))
        .fold(0.0, max);
    let v = wx[0].v.abs() + wx[1].v.abs() + wx[2].v.abs();
    let e = wx[0].e + wx[1].e + wx[2].e;
    ((v * m) * (4.0 * U) + e * m) * K_MUL_PUB + 2.0 * ETA
}

/// Whether [`vertex_away`]'s filter proves `sᵢ·(w·hᵢ) < 0` with the bound
/// `b` (`false`: not decided here).
#[inline(always)]
fn vertex_decides(si: i8, wx: &[Fx; 3], hi: &P, b: f64) -> bool {
    let y = wx[0].v * hi[0] + wx[1].v * hi[1] + wx[2].v * hi[2];
    y.is_finite() && if si > 0 { y < -b } else { y > b }
}

/// The filter alone, axis by axis.
#[cfg(test)]
fn vertex_filter(s: &[i8; 3], wx: &[Fx; 3], h: &[P; 3]) -> [bool; 3] {
    let b = vertex_bound(wx, h);
    [0, 1, 2].map(|i| vertex_decides(s[i], wx, &h[i], b))
}

#[cfg(test)]
mod tests {
    use super::*;
    use num_rational::BigRational;
    use num_traits::{Signed, Zero};

    fn q(x: f64) -> BigRational {
        BigRational::from_float(x).unwrap()
    }

    /// The exact sign of `w·h` for `w` of rationals.
    fn exact_sign(w: &[BigRational; 3], h: &P) -> i8 {
        let y = (0..3).fold(<BigRational as Zero>::zero(), |acc, j| {
            acc + &w[j] * q(h[j])
        });
        if y.is_positive() {
            1
        } else if y.is_negative() {
            -1
        } else {
            0
        }
    }

    /// The semi-static filter of [`vertex_away`] against the exact sign, for
    /// every sign pattern `s`: each sign it decides is the sign of `w·hᵢ`
    /// for every `w` within the centres' bounds (checked at the corners of
    /// the bound box), on random and hostile inputs (scales 2^±300, sheared
    /// boxes, `w·hᵢ` exactly zero or one unit off, nonzero centre errors);
    /// with an infinite error it decides nothing; and [`vertex_away`] as a
    /// whole agrees with the exact signs.
    #[test]
    fn vertex_filter_matches_exact_signs() {
        let mut state = 0x9e37_79b9_7f4a_7c15u64 ^ u64::from(std::process::id());
        let mut next = move || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        let mut decided = 0;
        for case in 0..2_500 {
            let scale = match next() % 4 {
                0 => 1.0,
                1 => 2f64.powi(300),
                2 => 2f64.powi(-300),
                _ => 2f64.powi((next() % 200) as i32 - 100),
            };
            let mut unit = || ((next() >> 11) as f64 / (1u64 << 53) as f64) * 2.0 - 1.0;
            let mut h: [P; 3] = [[0.0; 3]; 3];
            for hi in h.iter_mut() {
                for x in hi.iter_mut() {
                    *x = unit() * scale;
                }
            }
            let extra = [unit(), unit(), unit(), unit(), unit(), unit()];
            let (wexp, ecase) = (next() % 40, next() % 60);
            if case % 5 == 1 {
                // Sheared: h₂ almost h₀ + h₁.
                for j in 0..3 {
                    h[2][j] = h[0][j] + h[1][j] + extra[j] * scale * 1e-12;
                }
            }
            let wscale = 2f64.powi(wexp as i32 - 20);
            let mut w = [extra[3] * wscale, extra[4] * wscale, extra[5] * wscale];
            if case % 7 == 2 {
                // w·h₀ = 0 exactly, or one unit of w₀ off.
                h[0] = [2.0 * scale, 3.0 * scale, 0.0];
                w = [3.0 * wscale, -2.0 * wscale, w[2]];
                if case % 14 == 9 {
                    w[0] = w[0].next_up();
                }
            }
            let e = if case % 3 == 0 {
                0.0
            } else {
                wscale * 2f64.powi(-(60 + ecase as i32))
            };
            let wx = w.map(|v| Fx { v, e });
            let open = w.map(|v| Fx {
                v,
                e: f64::INFINITY,
            });
            let corners: Vec<[BigRational; 3]> = (0..8)
                .map(|k| {
                    let d = |j: usize| if k >> j & 1 == 1 { q(e) } else { -q(e) };
                    [q(w[0]) + d(0), q(w[1]) + d(1), q(w[2]) + d(2)]
                })
                .collect();
            for pattern in 0..8 {
                let s = [0, 1, 2].map(|i| if pattern >> i & 1 == 1 { 1i8 } else { -1 });
                assert_eq!(vertex_filter(&s, &open, &h), [false; 3]);
                assert!(!vertex_away(&s, &open, &h));
                let filter = vertex_filter(&s, &wx, &h);
                for i in 0..3 {
                    if filter[i] {
                        decided += 1;
                        for wc in &corners {
                            assert_eq!(
                                exact_sign(wc, &h[i]),
                                -s[i],
                                "case {case}: w {w:?} e {e:e} h {h:?} s {s:?}"
                            );
                        }
                    }
                }
                if vertex_away(&s, &wx, &h) {
                    for wc in &corners {
                        for i in 0..3 {
                            assert_eq!(exact_sign(wc, &h[i]), -s[i], "case {case}");
                        }
                    }
                }
            }
        }
        // Half the random signs are the wanted ones, and the filter decides
        // almost all of them.
        assert!(decided > 10_000, "{decided}");
    }

    /// Non-finite inputs are told apart from undecided ones.
    #[test]
    fn region_reads_finiteness() {
        let h = [[1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]];
        let (p, c) = ([2.0, 0.0, 0.0], [0.0; 3]);
        assert_eq!(region(&p, &c, &h), Ok([1, 0, 0]));
        for bad in [f64::INFINITY, f64::NEG_INFINITY, f64::NAN] {
            for j in 0..3 {
                let mut p2 = p;
                p2[j] = bad;
                assert_eq!(region(&p2, &c, &h), Err(Outcome::NotFinite));
                assert_eq!(region(&p, &p2, &h), Err(Outcome::NotFinite));
                for i in 0..3 {
                    let mut h2 = h;
                    h2[i][j] = bad;
                    assert_eq!(region(&p, &c, &h2), Err(Outcome::NotFinite), "{h2:?}");
                }
            }
        }
        // Finite inputs whose difference or determinant overflows, and a
        // flat box: undecided.
        let big = f64::MAX;
        assert_eq!(
            region(&[big, 0.0, 0.0], &[-big, 0.0, 0.0], &h),
            Err(Outcome::Undecided)
        );
        let hb = [[big, 0.0, 0.0], [0.0, big, 0.0], [0.0, 0.0, 1.0]];
        assert_eq!(region(&p, &c, &hb), Err(Outcome::Undecided));
        let flat = [[1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [1.0, 1.0, 0.0]];
        assert_eq!(region(&p, &c, &flat), Err(Outcome::Undecided));
    }
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
    meet(a, b, ra, rb)
}

/// Where the rounding is not certified: the sign of `A − R²B` in [`Dx`],
/// meeting shapes answering 0 (`None`: apart, or undecided).
#[inline(always)]
fn meet(a: Dx, b: Option<Dx>, ra: f64, rb: f64) -> Option<f64> {
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
/// with radius `rb`: [`Outcome::Answer`], or [`Outcome::Undecided`] when a
/// sign is undecided here, or [`Outcome::NotFinite`] when a coordinate of
/// `p`, `c` or `h` is infinite or NaN.
///
/// On x86-64 with FMA (detected once and cached by the standard library) the
/// same code is compiled with the `fma` target feature, where the
/// double-word products' `f64::mul_add` is one instruction rather than a
/// library call; the values are the same (a fused multiply-add is one
/// rounding of the exact `a·b + c` either way).
pub(crate) fn distance_f64(p: &P, c: &P, h: &[P; 3], ra: f64, rb: f64) -> Outcome {
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
fn distance_f64_fma(p: &P, c: &P, h: &[P; 3], ra: f64, rb: f64) -> Outcome {
    answer(p, c, h, ra, rb)
}

/// [`distance_f64`]'s answer.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum Outcome {
    /// The nearest double to the distance.
    Answer(f64),
    /// A sign was left undecided here.
    Undecided,
    /// An input coordinate is infinite or NaN.
    NotFinite,
}

/// [`distance_f64`]'s body.
#[inline(always)]
fn answer(p: &P, c: &P, h: &[P; 3], ra: f64, rb: f64) -> Outcome {
    let s = match region(p, c, h) {
        Ok(s) => s,
        Err(o) => return o,
    };
    match proved(p, c, h, &s, ra, rb) {
        Some(x) => Outcome::Answer(x),
        None => Outcome::Undecided,
    }
}

/// The answer in the region `s`, region by region (module docs).
#[inline(always)]
fn proved(p: &P, c: &P, h: &[P; 3], s: &[i8; 3], ra: f64, rb: f64) -> Option<f64> {
    let s = *s;
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
    let sf = s.map(f64::from);
    let w = [
        sum(&terms(p, c, h, &sf, 0)),
        sum(&terms(p, c, h, &sf, 1)),
        sum(&terms(p, c, h, &sf, 2)),
    ];
    let wx = [w[0].to_fx(), w[1].to_fx(), w[2].to_fx()];
    match k {
        0 => {
            // A vertex: d = w, q = |w|².
            if !vertex_away(&s, &wx, h) {
                return None;
            }
            // The rounding from `w` directly (`|w|² − T²` in one pass);
            // `|w|²` in `Dx` only where it is not certified.
            if let Some(x) = nearest_norm_minus(&w, ra, rb) {
                return Some(x);
            }
            meet(norm2(&w), None, ra, rb)
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
