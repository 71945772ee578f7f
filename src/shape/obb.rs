use super::{Det3, ShapeError};
use crate::num::ring::Ring;
use crate::num::scalar::Scalar;
use crate::num::sign::Sign;
use crate::predicates::{in_shewchuk_range, sign_of, Expr};
use crate::vector::Vec3;

/// A box: `{ center + s0·h0 + s1·h1 + s2·h2 : |si| ≤ 1 }`.
///
/// The half-axes need not be unit or orthogonal (the set is then a
/// parallelepiped); they must be linearly independent (a box with volume).
///
/// ```
/// use exact_collision::{Obb, Vec3};
/// let unit = Obb::new(Vec3::new(0.0, 0.0, 0.0), [Vec3::new(0.5, 0.0, 0.0), Vec3::new(0.0, 0.5, 0.0), Vec3::new(0.0, 0.0, 0.5)]).unwrap();
/// assert!(unit.contains(&Vec3::new(0.5, -0.5, 0.25)));
/// assert!(!unit.contains(&Vec3::new(0.5, -0.5, 0.5000001)));
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct Obb<S> {
    /// The center.
    pub center: Vec3<S>,
    /// The half-axes h0, h1, h2 (the protocol's x, y, z of the box's own frame).
    pub half_axes: [Vec3<S>; 3],
}

impl<S: Scalar> Obb<S> {
    /// A box from its center and half-axes; an error if the half-axes are linearly
    /// dependent (decided exactly).
    pub fn new(center: Vec3<S>, half_axes: [Vec3<S>; 3]) -> Result<Self, ShapeError> {
        for (i, h) in half_axes.iter().enumerate() {
            if [&h.x, &h.y, &h.z].iter().all(|c| c.sign() == Sign::Zero) {
                return Err(ShapeError::new(
                    format!("half_axes[{i}]"),
                    "zero half-axis (the box has no volume; degenerate boxes are not supported)",
                ));
            }
        }
        if det_sign(&half_axes) == Sign::Zero {
            return Err(ShapeError::new(
                "half_axes",
                "linearly dependent half-axes (the box has no volume; degenerate boxes are not supported)",
            ));
        }
        Ok(Obb { center, half_axes })
    }

    /// Vertex `i` (0..8): `center + s0·h0 + s1·h1 + s2·h2` with `sk = +1` when bit k
    /// of `i` is set. Rounded for float scalars.
    pub fn vertex(&self, i: usize) -> Vec3<S> {
        let mut p = self.center.clone();
        for (k, h) in self.half_axes.iter().enumerate() {
            p = if i >> k & 1 == 1 { p.add(h) } else { p.sub(h) };
        }
        p
    }

    /// The eight vertices, in [`Obb::vertex`] order.
    pub fn vertices(&self) -> [Vec3<S>; 8] {
        std::array::from_fn(|i| self.vertex(i))
    }

    /// Whether `q` lies in the closed box, decided exactly: with D = det(h0, h1, h2)
    /// and Di the same with hi replaced by q − center, q is inside iff |Di| ≤ |D|
    /// for every i (Cramer's rule, with no division).
    pub fn contains(&self, q: &Vec3<S>) -> bool {
        (0..3).all(|i| sign_of(&InsideSlab { b: self, q, i }) != Sign::Negative)
    }
}

/// The exact sign of `det(h0, h1, h2)`. Float inputs first try a static
/// filter: the determinant `h0·(h1 × h2)` in doubles is within `5u·M` of the
/// exact value (`M = Σk Pk·|h0k|`, `P = |h1| ⊗ |h2|` the cross product with
/// absolute values: the derivation of `box_box::FILTER` with `T = 0`), and
/// `8u·M̃` covers the rounding of `M̃` itself; it holds when no product
/// underflows or overflows, which [`in_shewchuk_range`] guarantees. An
/// undecided filter goes to [`sign_of`].
fn det_sign<S: Scalar>(h: &[Vec3<S>; 3]) -> Sign {
    if !S::IS_EXACT {
        let f = |v: &Vec3<S>| [v.x.to_f64(), v.y.to_f64(), v.z.to_f64()];
        let (a, b, c) = (f(&h[0]), f(&h[1]), f(&h[2]));
        if in_shewchuk_range(&[a, b, c].concat()) {
            let cr = [
                b[1] * c[2] - b[2] * c[1],
                b[2] * c[0] - b[0] * c[2],
                b[0] * c[1] - b[1] * c[0],
            ];
            let p = [
                (b[1] * c[2]).abs() + (b[2] * c[1]).abs(),
                (b[2] * c[0]).abs() + (b[0] * c[2]).abs(),
                (b[0] * c[1]).abs() + (b[1] * c[0]).abs(),
            ];
            let d = a[0] * cr[0] + a[1] * cr[1] + a[2] * cr[2];
            let m = p[0] * a[0].abs() + p[1] * a[1].abs() + p[2] * a[2].abs();
            let bound = 8.0 * crate::num::bounded::U * m;
            if d > bound {
                return Sign::Positive;
            }
            if d < -bound {
                return Sign::Negative;
            }
        }
    }
    sign_of(&Det3(&h[0], &h[1], &h[2]))
}

/// |D| − |Di| (see [`Obb::contains`]).
struct InsideSlab<'a, S> {
    b: &'a Obb<S>,
    q: &'a Vec3<S>,
    i: usize,
}

impl<S> Expr<S> for InsideSlab<'_, S> {
    fn eval<R: Ring, L: Fn(&S) -> R>(&self, l: &L) -> R {
        let h = [
            self.b.half_axes[0].map(l),
            self.b.half_axes[1].map(l),
            self.b.half_axes[2].map(l),
        ];
        let d = self.q.map(l).sub(&self.b.center.map(l));
        let det = h[0].cross(&h[1]).dot(&h[2]);
        let mut hi = h.clone();
        hi[self.i] = d;
        let det_i = hi[0].cross(&hi[1]).dot(&hi[2]);
        det.abs_ref().sub_ref(&det_i.abs_ref())
    }
}
