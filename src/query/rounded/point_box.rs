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
//! The point's box coordinates `t = H⁻¹(p − c)` in doubles (Cramer's rule,
//! one determinant), clamped to `[−1, 1]`: a region `s ∈ {−1, 0, 1}³`, whose
//! feature is `o + Σ_{sᵢ = 0} tᵢhᵢ` with `o = c + Σ_{sᵢ ≠ 0} sᵢhᵢ` and the
//! `k` free parameters in `[−1, 1]` (a vertex, an edge, a face, or the solid
//! box when `k = 3`).
//!
//! # The proof
//!
//! With `w = o − p` and `U` the free half-axes, the point's closest point on
//! the feature's affine hull solves the `k × k` Gram system `UᵀU·x = −Uᵀw`;
//! by Cramer's rule `x = N/D`, `D = det UᵀU`, and `D·d = D·w + Σ NᵢUᵢ` for
//! `d = p_b − p`. In [`Fx`] (doubles with a proven bound), every sign decided
//! by the bound or the guess is refused:
//!
//! - `D > 0` and `−D ≤ Nᵢ ≤ D`: the closest point lies on the feature;
//! - for `k < 3`, on each fixed axis `sᵢ·(D·d·hᵢ) < 0`: the box lies beyond
//!   the plane through `p_b` orthogonal to `d` (its eight vertices `c ± h₀ ±
//!   h₁ ± h₂` do: the fixed axes' terms point away, the free ones are
//!   orthogonal to `d`), so `p_b` is the box's closest point to `p` (and
//!   `d ≠ 0`); the same proof as the generic path's for this pair of
//!   features;
//! - for `k = 3`, `−det² ≤ det·det(H with column i replaced by p − c) ≤
//!   det²`: the point is in the solid box, `q = 0`.
//!
//! # The answer
//!
//! The sign of `q − R² = (|D·d|² − D²R²)/D²` in [`Fx`]: meeting shapes answer
//! `0`. Apart ones get `√q − R = |D·d|/D − R` rounded to the nearest double by
//! [`nearest_sqrt_quot_minus`], from `|D·d|²` and `D` in double-word
//! arithmetic ([`Dx`]); `w`'s coordinates, sums of five doubles, are summed
//! in double-word by error-free transformations ([`sum`]).

use super::segment_fast::{add, det3, dot, neg, pt, scale, Num};
use crate::num::bounded::Fx;
use crate::num::double_word::{nearest_sqrt_quot_minus, sum, Dx};
use crate::num::ring::Ring;
use crate::num::sign::Sign;

type P = [f64; 3];

/// The point's closest point on the region's affine hull over a common
/// denominator: `D`, the free parameters' numerators `N`, and `D·d` (zero
/// when `k = 3`).
struct Sol<R> {
    den: R,
    n: [R; 3],
    dd: [R; 3],
    k: usize,
}

/// The free half-axes of region `s`, in order.
#[inline(always)]
fn free<R: Num>(h: &[P; 3], s: &[i8; 3]) -> ([[R; 3]; 3], usize) {
    let z = || [R::zero(), R::zero(), R::zero()];
    let mut u = [z(), z(), z()];
    let mut k = 0;
    for (hi, si) in h.iter().zip(s) {
        if *si == 0 {
            u[k] = pt(hi);
            k += 1;
        }
    }
    (u, k)
}

#[inline(always)]
fn solve<R: Num>(w: [R; 3], h: &[P; 3], s: &[i8; 3]) -> Sol<R> {
    let (u, k) = free::<R>(h, s);
    let mut n = [R::zero(), R::zero(), R::zero()];
    let (den, dd) = match k {
        0 => (R::one(), w),
        1 => {
            let den = dot(&u[0], &u[0]);
            n[0] = dot(&u[0], &w).neg_ref();
            let dd = add(&scale(&den, &w), &scale(&n[0], &u[0]));
            (den, dd)
        }
        2 => {
            let g11 = dot(&u[0], &u[0]);
            let g12 = dot(&u[0], &u[1]);
            let g22 = dot(&u[1], &u[1]);
            let r1 = dot(&u[0], &w).neg_ref();
            let r2 = dot(&u[1], &w).neg_ref();
            let den = g11.mul_ref(&g22).sub_ref(&g12.square());
            n[0] = r1.mul_ref(&g22).sub_ref(&g12.mul_ref(&r2));
            n[1] = g11.mul_ref(&r2).sub_ref(&g12.mul_ref(&r1));
            let dd = add(
                &add(&scale(&den, &w), &scale(&n[0], &u[0])),
                &scale(&n[1], &u[1]),
            );
            (den, dd)
        }
        _ => {
            // H x = −w: over det² so that the denominator is positive.
            let det = det3(&u[0], &u[1], &u[2]);
            let mw = neg(&w);
            n[0] = det3(&mw, &u[1], &u[2]).mul_ref(&det);
            n[1] = det3(&u[0], &mw, &u[2]).mul_ref(&det);
            n[2] = det3(&u[0], &u[1], &mw).mul_ref(&det);
            let z = R::zero();
            (det.square(), [z.clone(), z.clone(), z])
        }
    };
    Sol { den, n, dd, k }
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

/// The proof in [`Fx`]: `Some` when every sign is decided as required.
fn prove(p: &P, c: &P, h: &[P; 3], s: &[i8; 3]) -> Option<Sol<Fx>> {
    let wj = |j| {
        let t = terms(p, c, h, s, j);
        let mut x = Fx::exact(t[0]);
        for v in &t[1..] {
            if *v != 0.0 {
                x = x.add_ref(&Fx::exact(*v));
            }
        }
        x
    };
    let sol = solve::<Fx>([wj(0), wj(1), wj(2)], h, s);
    if sol.den.sign() != Some(Sign::Positive) {
        return None;
    }
    let nonneg = |t: Fx| matches!(t.sign(), Some(Sign::Positive | Sign::Zero));
    for x in &sol.n[..sol.k] {
        if !(nonneg(sol.den.add_ref(x)) && nonneg(sol.den.sub_ref(x))) {
            return None;
        }
    }
    if sol.k < 3 {
        for (hi, si) in h.iter().zip(s) {
            if *si != 0 {
                let x = dot(&sol.dd, &pt::<Fx>(hi));
                let away = if *si > 0 { x.neg_ref() } else { x };
                if away.sign() != Some(Sign::Positive) {
                    return None;
                }
            }
        }
    }
    Some(sol)
}

/// The double nearest to the distance `max(0, √q − R)` of a point core `p`
/// with radius `ra` and a box core (center `c`, half-axes `h`, independent)
/// with radius `rb`, all finite; `None` when a sign is undecided here.
pub(crate) fn distance_f64(p: &P, c: &P, h: &[P; 3], ra: f64, rb: f64) -> Option<f64> {
    let s = super::segment_fast::box_region(p, c, h)?;
    let sol = prove(p, c, h, &s)?;
    if sol.k == 3 {
        return Some(0.0);
    }
    let r = Fx::exact(ra).add_ref(&Fx::exact(rb));
    let meet = dot(&sol.dd, &sol.dd)
        .sub_ref(&sol.den.mul_ref(&r).square())
        .sign()?;
    if meet != Sign::Positive {
        return Some(0.0);
    }
    let w = [
        sum(&terms(p, c, h, &s, 0)),
        sum(&terms(p, c, h, &s, 1)),
        sum(&terms(p, c, h, &s, 2)),
    ];
    let sol = solve::<Dx>(w, h, &s);
    nearest_sqrt_quot_minus(dot(&sol.dd, &sol.dd), sol.den, ra, rb)
}
