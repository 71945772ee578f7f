//! The independent second method: the separating-axis test over time, in the world
//! frame, with no relative motion and no inverse.
//!
//! With world centers P_a/d_a, P_b/d_b and world half-axes (h·L_a)/d_a, (h·L_b)/d_b,
//! the closed boxes touch at t iff for each of the 15 axes L(t) — the face normals
//! of each box (cross products of its world half-axes) and the 9 cross products of
//! one half-axis of each —
//!
//! ```text
//! |L·Δ| ≤ Σ_k |L·A_k| + Σ_k |L·B_k|,   Δ = P_b·d_a − P_a·d_b,
//!                                      A_k = (h_ak·L_a)·d_b,  B_k = (h_bk·L_b)·d_a
//! ```
//!
//! (everything multiplied by |d_a·d_b| > 0). A zero axis is vacuous. The absolute
//! values are resolved by cutting time at every root of every L·A_k, L·B_k, L·Δ:
//! on each piece f_L = Σ ±L·A_k + Σ ±L·B_k ∓ L·Δ is one polynomial and contact is
//! f_L ≥ 0 for all 15 axes, swept with the same certified cells as Albocher et al.'s method.

use super::motion::{cross, dot, PVec, RatAffine};
use super::sweep::{first_contact, Period};
use crate::ccd::CcdQuery;
use crate::poly::Poly;
use num_rational::BigRational;
use std::cmp::Ordering;

/// The precomputed polynomials: per axis, the 7 absolute-value arguments.
pub struct Sat {
    /// Per axis: the six half-axis projections (A_0..A_2, B_0..B_2) and L·Δ.
    terms: Vec<[Poly; 7]>,
}

fn scale3(v: &PVec, k: &Poly) -> PVec {
    [&v[0] * k, &v[1] * k, &v[2] * k]
}

impl Sat {
    /// Build from the query (motions already validated by the caller).
    pub fn new(q: &CcdQuery) -> Self {
        let ma = RatAffine::from_motion(&q.a.motion);
        let mb = RatAffine::from_motion(&q.b.motion);
        let ha = q.a.shape.half_axes.clone().map(|h| ma.vector(&h));
        let hb = q.b.shape.half_axes.clone().map(|h| mb.vector(&h));
        let pa = ma.point(&q.a.shape.center);
        let pb = mb.point(&q.b.shape.center);
        let delta = [0, 1, 2].map(|j| &(&pb[j] * &ma.den) - &(&pa[j] * &mb.den));
        let a_k = ha.clone().map(|h| scale3(&h, &mb.den));
        let b_k = hb.clone().map(|h| scale3(&h, &ma.den));
        let mut axes: Vec<PVec> = vec![
            cross(&ha[1], &ha[2]),
            cross(&ha[2], &ha[0]),
            cross(&ha[0], &ha[1]),
            cross(&hb[1], &hb[2]),
            cross(&hb[2], &hb[0]),
            cross(&hb[0], &hb[1]),
        ];
        for x in &ha {
            for y in &hb {
                axes.push(cross(x, y));
            }
        }
        let terms = axes
            .iter()
            .filter(|l| l.iter().any(|p| !p.is_zero()))
            .map(|l| {
                [
                    dot(l, &a_k[0]),
                    dot(l, &a_k[1]),
                    dot(l, &a_k[2]),
                    dot(l, &b_k[0]),
                    dot(l, &b_k[1]),
                    dot(l, &b_k[2]),
                    dot(l, &delta),
                ]
            })
            .collect();
        Sat { terms }
    }

    /// Every absolute-value argument: their roots cut time into pieces.
    pub fn breakpoints(&self) -> Vec<Poly> {
        self.terms
            .iter()
            .flatten()
            .filter(|p| p.degree().unwrap_or(0) > 0)
            .cloned()
            .collect()
    }

    /// f_L for each axis on the piece containing `t` (tag: the axis index).
    pub fn constraints(&self, t: &BigRational) -> Vec<(Poly, usize)> {
        self.terms
            .iter()
            .enumerate()
            .map(|(i, tm)| {
                let mut f = Poly::zero();
                for (k, p) in tm.iter().enumerate() {
                    let s = p.sign_at(t);
                    let neg = (k == 6) == (s == Ordering::Greater);
                    if s != Ordering::Equal {
                        f = if neg { &f - p } else { &f + p };
                    }
                }
                (f, i)
            })
            .collect()
    }

    /// The first contact period in `[t0, t1]`.
    pub fn first_contact(&self, t0: &BigRational, t1: &BigRational) -> Option<Period<usize>> {
        first_contact(t0, t1, &self.breakpoints(), None, |t| self.constraints(t))
    }
}
