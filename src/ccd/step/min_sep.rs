//! A whole step with a minimum separation δ > 0: every vertex–face and
//! edge–edge pair whose distance drops to δ or below during the step, with
//! its certified first time ([`super::super::points::first_contact_min_distance_f64`]),
//! and the earliest of them ([`super::earliest`]).
//!
//! The broad phase here is its own: each element's box over the whole step
//! (the min/max of its vertices' coordinates at t = 0 and t = 1: a linearly
//! moving point stays in the box of its end positions, a point of an element
//! in the union of its vertices' boxes), and a pair is dropped only when, on
//! some axis, the gap between the two boxes exceeds δ. The gap is computed in
//! round-to-nearest, which is monotone: a true gap at most δ ≤ δ⁺ (δ rounded
//! up to a double) is computed as at most δ⁺, so no pair within δ is dropped.
//! Pairs that share a vertex are skipped, as in [`super::broad_phase`]. Sort
//! and sweep along x, then the y and z tests.

use super::{earliest, Candidates, StepAnswer, StepMesh};
use crate::ccd::points::first_contact_min_distance_f64;
use crate::query::QueryError;
use num_rational::BigRational;
use num_traits::{Signed, ToPrimitive};
use rayon::prelude::*;

/// An element's box over the step.
#[derive(Clone, Copy, Debug)]
struct Span {
    lo: [f64; 3],
    hi: [f64; 3],
}

fn span_of(m: &StepMesh, ids: &[u32]) -> Span {
    let mut s = Span {
        lo: [f64::INFINITY; 3],
        hi: [f64::NEG_INFINITY; 3],
    };
    for &v in ids {
        for p in [m.t0[v as usize], m.t1[v as usize]] {
            for (k, x) in p.into_iter().enumerate() {
                s.lo[k] = s.lo[k].min(x);
                s.hi[k] = s.hi[k].max(x);
            }
        }
    }
    s
}

/// Whether the boxes may be within δ⁺ (never false for boxes within δ).
fn near(a: &Span, b: &Span, d: f64) -> bool {
    (0..3).all(|k| b.lo[k] - a.hi[k] <= d && a.lo[k] - b.hi[k] <= d)
}

/// δ rounded up to a double (∞ beyond the range).
fn round_up(delta: &BigRational) -> f64 {
    let v = delta.to_f64().unwrap_or(f64::INFINITY);
    if v.is_nan() {
        return f64::INFINITY;
    }
    // Two ulps: more than the conversion's rounding.
    v.next_up().next_up()
}

/// The pairs (i of `a`, j of `b`) whose boxes may be within `d`, `keep`
/// deciding the rest (shared vertices, order), sorted.
fn sweep(
    a: &[Span],
    b: &[Span],
    d: f64,
    keep: &(dyn Fn(u32, u32) -> bool + Sync),
) -> Vec<(u32, u32)> {
    let mut order: Vec<u32> = (0..b.len() as u32).collect();
    order.sort_by(|&i, &j| b[i as usize].lo[0].total_cmp(&b[j as usize].lo[0]));
    let los: Vec<f64> = order.iter().map(|&i| b[i as usize].lo[0]).collect();
    let width = b.iter().map(|s| s.hi[0] - s.lo[0]).fold(0.0, f64::max);
    let mut out: Vec<(u32, u32)> = a
        .par_iter()
        .enumerate()
        .flat_map_iter(|(i, s)| {
            // b's with lo ≤ s.hi + d, from below s.lo − d − width: the start
            // is an under-estimate (twice the width and a relative margin of
            // 10⁻⁹, far above the rounding); `near` decides.
            let mag = s.lo[0].abs() + d + width;
            let from = los.partition_point(|&l| l < s.lo[0] - d - 2.0 * width - 1e-9 * mag);
            let mut v = Vec::new();
            for k in from..los.len() {
                if los[k] - s.hi[0] > d {
                    break;
                }
                let j = order[k];
                if near(s, &b[j as usize], d) && keep(i as u32, j) {
                    v.push((i as u32, j));
                }
            }
            v.into_iter()
        })
        .collect();
    out.par_sort_unstable();
    out
}

/// The broad phase for δ > 0 (module docs).
pub fn broad_phase_min_distance(m: &StepMesh, min_distance: &BigRational) -> Candidates {
    let d = round_up(min_distance);
    let verts: Vec<Span> = (0..m.vertex_count() as u32)
        .map(|v| span_of(m, &[v]))
        .collect();
    let faces: Vec<Span> = m.faces.iter().map(|f| span_of(m, f)).collect();
    let edges: Vec<Span> = m.edges.iter().map(|e| span_of(m, e)).collect();
    let vf = sweep(&verts, &faces, d, &|v, f| !m.faces[f as usize].contains(&v));
    let ee = sweep(&edges, &edges, d, &|i, j| {
        let (a, b) = (m.edges[i as usize], m.edges[j as usize]);
        i < j && !a.iter().any(|x| b.contains(x))
    });
    Candidates { vf, ee }
}

/// The whole step with minimum separation δ (`min_distance` > 0; 0 is
/// [`super::step`]): the broad phase above, every candidate through
/// [`first_contact_min_distance_f64`], the earliest by [`earliest`].
///
/// Errors: a tolerance that is not positive, a negative δ.
pub fn step_min_distance(
    m: &StepMesh,
    tolerance: &BigRational,
    min_distance: &BigRational,
    progress: &(dyn Fn(u64) + Sync),
) -> Result<StepAnswer, QueryError> {
    if min_distance.is_negative() {
        return Err(QueryError::Unsupported(
            "min_distance: must be at least 0".into(),
        ));
    }
    if !min_distance.is_positive() {
        return super::step(m, tolerance, progress);
    }
    let c = broad_phase_min_distance(m, min_distance);
    let collisions = super::narrow_phase_by(
        m,
        &c,
        progress,
        &|k, p| first_contact_min_distance_f64(k, p, tolerance, min_distance),
        &mut super::PhaseTimes::default(),
    )?;
    let first = earliest(&collisions)?.map(|e| (e.kind, e.a, e.b));
    let earliest = first.and_then(|key| collisions.iter().position(|c| (c.kind, c.a, c.b) == key));
    Ok(StepAnswer {
        candidates_vf: c.vf.len(),
        candidates_ee: c.ee.len(),
        collisions,
        earliest,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every pair within δ at some sampled time is a candidate: brute force
    /// over all pairs with the exact-free box test at the end positions.
    #[test]
    fn sweep_keeps_every_near_pair() {
        let mut s = 0x9e3779b97f4a7c15u64;
        let mut next = || {
            s ^= s << 13;
            s ^= s >> 7;
            s ^= s << 17;
            (s % 1000) as f64 / 100.0
        };
        let spans: Vec<Span> = (0..200)
            .map(|_| {
                let (x, y, z) = (next(), next(), next());
                let w = next() / 10.0;
                Span {
                    lo: [x, y, z],
                    hi: [x + w, y + w, z + w],
                }
            })
            .collect();
        let d = 0.5;
        let got = sweep(&spans, &spans, d, &|i, j| i < j);
        let mut want = Vec::new();
        for i in 0..spans.len() {
            for j in i + 1..spans.len() {
                if near(&spans[i], &spans[j], d) {
                    want.push((i as u32, j as u32));
                }
            }
        }
        assert_eq!(got, want);
        assert!(!want.is_empty());
    }
}
