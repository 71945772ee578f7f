//! The float path (S = f64): Albocher et al.'s pipeline with `f64` coefficients and a
//! fast root finder.
//!
//! The relative motion, homogeneous intervals and constraint polynomials are the
//! exact ones (built once, cheaply, by [`super::sgm`]); they are rounded to `f64`
//! and everything after that — breakpoints, roots of the 30 constraints, signs at
//! samples — is floating point. Roots come from a derivative-recursion finder:
//! the real roots of p′ split [a, b] into monotone pieces, and each piece with a
//! sign change holds one root, found by the Illinois variant of regula falsi.
//! Contact is read on the open cells between consecutive roots (all constraints
//! ≥ 0 at the cell's midpoint); `t_enter` is the left end of the first contact
//! cell, `t_exit` the right end of its run. Nothing here is certified: a contact
//! that exists only at a single instant (a tangential, grazing contact, where a
//! constraint touches zero without crossing) has no contact cell and is reported
//! as a miss, and a time is only as accurate as the rounding allows.
//! `tests/ccd.rs` measures the agreement with the exact path.

use super::sgm::Sgm;
use crate::poly::Poly;
use num_rational::BigRational;
use num_traits::ToPrimitive;

/// The float path's answer.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum FloatAnswer {
    /// No contact cell in the range.
    Miss,
    /// First contact period, as doubles (`t_exit = t1` if still touching at the end).
    Hit {
        /// First touch.
        t_enter: f64,
        /// End of the first contact period.
        t_exit: f64,
        /// Already touching at the start of the range.
        start: bool,
    },
}

fn to_f(p: &Poly) -> Vec<f64> {
    p.coeffs()
        .iter()
        .map(|c| c.to_f64().unwrap_or(f64::NAN))
        .collect()
}

fn eval(p: &[f64], x: f64) -> f64 {
    p.iter().rev().fold(0.0, |acc, c| acc * x + c)
}

fn derivative(p: &[f64]) -> Vec<f64> {
    p.iter()
        .enumerate()
        .skip(1)
        .map(|(i, c)| c * i as f64)
        .collect()
}

fn trim(p: &[f64]) -> &[f64] {
    let mut n = p.len();
    while n > 0 && p[n - 1] == 0.0 {
        n -= 1;
    }
    &p[..n]
}

/// One root of p in [a, b], given p(a)·p(b) < 0 (Illinois regula falsi).
pub(crate) fn bracket(p: &[f64], mut a: f64, mut b: f64) -> f64 {
    let (mut fa, mut fb) = (eval(p, a), eval(p, b));
    let mut side = 0;
    for _ in 0..200 {
        let m = if fa != fb {
            (a * fb - b * fa) / (fb - fa)
        } else {
            0.5 * (a + b)
        };
        let m = if m > a && m < b { m } else { 0.5 * (a + b) };
        if m <= a || m >= b {
            break;
        }
        let fm = eval(p, m);
        if fm == 0.0 {
            return m;
        }
        if (fm < 0.0) == (fa < 0.0) {
            a = m;
            fa = fm;
            if side == -1 {
                fb *= 0.5;
            }
            side = -1;
        } else {
            b = m;
            fb = fm;
            if side == 1 {
                fa *= 0.5;
            }
            side = 1;
        }
        if b - a <= 4.0 * f64::EPSILON * a.abs().max(b.abs()).max(1e-300) {
            break;
        }
    }
    0.5 * (a + b)
}

/// The real roots of p in [a, b], ascending (roots of even multiplicity are
/// found only where the float evaluation happens to hit zero).
pub fn roots_f64(p: &[f64], a: f64, b: f64) -> Vec<f64> {
    let p = trim(p);
    let mut out = Vec::new();
    match p.len() {
        0 | 1 => return out,
        2 => {
            let x = -p[0] / p[1];
            if x >= a && x <= b {
                out.push(x);
            }
            return out;
        }
        _ => {}
    }
    let mut pts = vec![a];
    pts.extend(roots_f64(&derivative(p), a, b));
    pts.push(b);
    let mut prev = eval(p, a);
    if prev == 0.0 {
        out.push(a);
    }
    for w in pts.windows(2) {
        let fy = eval(p, w[1]);
        if fy == 0.0 {
            if out.last() != Some(&w[1]) {
                out.push(w[1]);
            }
        } else if prev != 0.0 && (prev < 0.0) != (fy < 0.0) {
            out.push(bracket(p, w[0], w[1]));
        }
        prev = fy;
    }
    out
}

/// Continuous collision of two boxes on the float path.
pub fn first_contact_f64(sgm: &Sgm, t0: &BigRational, t1: &BigRational) -> FloatAnswer {
    let (a, b) = (t0.to_f64().unwrap_or(0.0), t1.to_f64().unwrap_or(1.0));
    let mut cuts = vec![a];
    for p in sgm.breakpoints().iter().chain([&sgm.sphere()]) {
        cuts.extend(roots_f64(&to_f(p), a, b));
    }
    cuts.push(b);
    cuts.sort_by(f64::total_cmp);
    cuts.dedup();
    let sphere = to_f(&sgm.sphere());
    let mut enter: Option<(f64, bool)> = None;
    for w in cuts.windows(2) {
        let (lo, hi) = (w[0], w[1]);
        if hi <= lo {
            continue;
        }
        let mid = 0.5 * (lo + hi);
        if enter.is_none() && eval(&sphere, mid) > 0.0 {
            continue;
        }
        let sample = BigRational::from_float(mid).expect("finite");
        let cons: Vec<Vec<f64>> = sgm
            .constraints(&sample)
            .iter()
            .map(|(p, _)| to_f(p))
            .collect();
        let mut pts = vec![lo];
        for c in &cons {
            pts.extend(roots_f64(c, lo, hi));
        }
        pts.push(hi);
        pts.sort_by(f64::total_cmp);
        pts.dedup();
        for cell in pts.windows(2) {
            if cell[1] <= cell[0] {
                continue;
            }
            let m = 0.5 * (cell[0] + cell[1]);
            let inside = cons.iter().all(|c| eval(c, m) >= 0.0);
            match (enter, inside) {
                (None, true) => enter = Some((cell[0], cell[0] == a)),
                (Some((t, start)), false) => {
                    return FloatAnswer::Hit {
                        t_enter: t,
                        t_exit: cell[0],
                        start,
                    }
                }
                _ => {}
            }
        }
    }
    match enter {
        None => FloatAnswer::Miss,
        Some((t, start)) => FloatAnswer::Hit {
            t_enter: t,
            t_exit: b,
            start,
        },
    }
}
