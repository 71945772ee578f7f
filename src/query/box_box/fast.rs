//! The box pair's own steps on the float-guided path (the rest is the
//! polytope path's, [`crate::query::polytope`]): the filtered 15-axis test
//! ([`super::separating_axis_index`]) decides apart pairs and names the first
//! separating axis, built here exactly from the doubles; overlapping pairs
//! take the polytope path's witness search with the box rule (a center
//! inside the other box first) and its box–box road (13 dot products per
//! direction, `polytope/filtered/witness.rs`); distance runs GJK with a box's
//! support from three signs (`polytope/filtered/closest.rs`).

use crate::num::fixed::Int;
use crate::num::scalar::Scalar;
use crate::query::polytope::filtered::side::{align, Raw};
use crate::shape::Shape;
use crate::vector::Vec3;

/// The exact box–box axis `u × v`, each coordinate as an integer times its
/// own power of two: `u₁v₂ − u₂v₁` from the two exact products of doubles
/// (`m·2^e`, `|m| < 2¹⁰⁶`) brought to the smaller exponent in `i128` when
/// that fits, else through the aligned inputs.
pub(crate) fn axis_exact<S: Scalar>(
    a: &Shape<S>,
    b: &Shape<S>,
    k: usize,
) -> Option<[(Int, i64); 3]> {
    let (x, y) = (a.as_box()?, b.as_box()?);
    let (u, v) = crate::query::box_box::axis_pair(&x.half_axes, &y.half_axes, k);
    let f = |p: &Vec3<S>| [p.x.to_f64(), p.y.to_f64(), p.z.to_f64()];
    let (u, v) = (f(u), f(v));
    let prod = |p: f64, q: f64| -> (i128, i64) {
        if p == 0.0 || q == 0.0 {
            return (0, 0);
        }
        let ((mp, ep), (mq, eq)) = (
            crate::num::dyadic::f64_parts(p),
            crate::num::dyadic::f64_parts(q),
        );
        (mp as i128 * mq as i128, ep + eq)
    };
    let diff = |(m1, e1): (i128, i64), (m2, e2): (i128, i64)| -> Option<(Int, i64)> {
        if m2 == 0 {
            return Some((Int::from_i128(m1), e1));
        }
        if m1 == 0 {
            return Some((Int::from_i128(-m2), e2));
        }
        let e = e1.min(e2);
        // |m| < 2^106: a shift by at most 20 stays below 2^126.
        let (s1, s2) = (e1 - e, e2 - e);
        if s1.max(s2) > 20 {
            return None;
        }
        Some((Int::from_i128((m1 << s1) - (m2 << s2)), e))
    };
    let c = |i: usize, j: usize| diff(prod(u[i], v[j]), prod(u[j], v[i]));
    let direct = (|| Some([c(1, 2)?, c(2, 0)?, c(0, 1)?]))();
    direct.or_else(|| {
        let (ra, rb) = (Raw::of(a)?, Raw::of(b)?);
        let al = align([&ra, &rb])?;
        let h = |s: usize, i: usize| {
            let x = &al.x[s];
            Vec3::new(x[3 + 3 * i], x[4 + 3 * i], x[5 + 3 * i]).map(|c| Int::from_i128(*c))
        };
        let (ha, hb) = ([0, 1, 2].map(|i| h(0, i)), [0, 1, 2].map(|i| h(1, i)));
        let (u, v) = crate::query::box_box::axis_pair(&ha, &hb, k);
        let l = u.cross(v);
        Some([(l.x, 2 * al.e0), (l.y, 2 * al.e0), (l.z, 2 * al.e0)])
    })
}
