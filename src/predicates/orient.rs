//! orient2d and orient3d: which side of a line / plane a point lies on.

use super::{count_adaptive, in_shewchuk_range, sign_of, Expr};
use crate::num::ring::Ring;
use crate::num::scalar::Scalar;
use crate::num::sign::Sign;
use crate::vector::{Vec2, Vec3};

/// `(b − a) × (c − a)`: positive when a, b, c turn counter-clockwise.
pub struct Orient2d<'a, S>(pub &'a Vec2<S>, pub &'a Vec2<S>, pub &'a Vec2<S>);

impl<S> Expr<S> for Orient2d<'_, S> {
    fn eval<R: Ring, L: Fn(&S) -> R>(&self, l: &L) -> R {
        let (a, b, c) = (self.0.map(l), self.1.map(l), self.2.map(l));
        b.sub(&a).cross(&c.sub(&a))
    }
}

/// `((b − a) × (c − a)) · (d − a)`: positive when d lies on the side of the plane
/// abc that (b − a) × (c − a) points to.
pub struct Orient3d<'a, S>(
    pub &'a Vec3<S>,
    pub &'a Vec3<S>,
    pub &'a Vec3<S>,
    pub &'a Vec3<S>,
);

impl<S> Expr<S> for Orient3d<'_, S> {
    fn eval<R: Ring, L: Fn(&S) -> R>(&self, l: &L) -> R {
        let a = self.0.map(l);
        let (b, c, d) = (
            self.1.map(l).sub(&a),
            self.2.map(l).sub(&a),
            self.3.map(l).sub(&a),
        );
        b.cross(&c).dot(&d)
    }
}

use crate::num::bounded::U as EPS;
/// Shewchuk (1997), stage A of orient2d: (3 + 16ε)ε.
const CCW_ERRBOUND_A: f64 = (3.0 + 16.0 * EPS) * EPS;
/// Shewchuk (1997), stage A of orient3d: (7 + 56ε)ε.
const O3D_ERRBOUND_A: f64 = (7.0 + 56.0 * EPS) * EPS;

/// The exact sign of `(b − a) × (c − a)`: positive when a, b, c turn
/// counter-clockwise, zero when collinear.
///
/// ```
/// use exact_collision::{predicates::orient2d, Sign, Vec2};
/// let (a, b) = (Vec2::new(0.0, 0.0), Vec2::new(1.0, 1.0));
/// assert_eq!(orient2d(&a, &b, &Vec2::new(0.0, 1.0)), Sign::Positive);
/// assert_eq!(orient2d(&a, &b, &Vec2::new(0.5, 0.5)), Sign::Zero);
/// ```
pub fn orient2d<S: Scalar>(a: &Vec2<S>, b: &Vec2<S>, c: &Vec2<S>) -> Sign {
    if !S::IS_EXACT {
        let (ax, ay, bx, by, cx, cy) = (
            a.x.to_f64(),
            a.y.to_f64(),
            b.x.to_f64(),
            b.y.to_f64(),
            c.x.to_f64(),
            c.y.to_f64(),
        );
        if in_shewchuk_range(&[ax, ay, bx, by, cx, cy]) {
            // Shewchuk's orient2d(a, b, c) has the same sign convention.
            let detleft = (ax - cx) * (by - cy);
            let detright = (ay - cy) * (bx - cx);
            let det = detleft - detright;
            let detsum = detleft.abs() + detright.abs();
            if det.abs() > CCW_ERRBOUND_A * detsum || (detleft == 0.0 && detright == 0.0) {
                return f_sign(det);
            }
            count_adaptive();
            let p = |x, y| robust::Coord { x, y };
            return f_sign(robust::orient2d(p(ax, ay), p(bx, by), p(cx, cy)));
        }
    }
    sign_of(&Orient2d(a, b, c))
}

/// The exact sign of `((b − a) × (c − a)) · (d − a)`: positive when d is on the
/// side of plane abc that the right-handed normal (b − a) × (c − a) points to,
/// zero when the four points are coplanar. (This is the opposite sign of
/// Shewchuk's `orient3d`.)
///
/// ```
/// use exact_collision::{predicates::orient3d, Sign, Vec3};
/// let o = Vec3::new(0.0, 0.0, 0.0);
/// let (x, y) = (Vec3::new(1.0, 0.0, 0.0), Vec3::new(0.0, 1.0, 0.0));
/// assert_eq!(orient3d(&o, &x, &y, &Vec3::new(0.3, 0.3, 1e-300)), Sign::Positive);
/// assert_eq!(orient3d(&o, &x, &y, &Vec3::new(0.3, 0.3, 0.0)), Sign::Zero);
/// ```
pub fn orient3d<S: Scalar>(a: &Vec3<S>, b: &Vec3<S>, c: &Vec3<S>, d: &Vec3<S>) -> Sign {
    if !S::IS_EXACT {
        let v = |p: &Vec3<S>| [p.x.to_f64(), p.y.to_f64(), p.z.to_f64()];
        let (pa, pb, pc, pd) = (v(a), v(b), v(c), v(d));
        let all = [
            pa[0], pa[1], pa[2], pb[0], pb[1], pb[2], pc[0], pc[1], pc[2], pd[0], pd[1], pd[2],
        ];
        if in_shewchuk_range(&all) {
            let s = orient3d_shewchuk(pa, pb, pc, pd);
            return s.flip();
        }
    }
    sign_of(&Orient3d(a, b, c, d))
}

/// Shewchuk's orient3d sign (positive when d is below plane abc as seen with
/// abc counter-clockwise), with the stage-A filter inlined so that the calls
/// that need the adaptive stages can be counted.
fn orient3d_shewchuk(a: [f64; 3], b: [f64; 3], c: [f64; 3], d: [f64; 3]) -> Sign {
    let (adx, ady, adz) = (a[0] - d[0], a[1] - d[1], a[2] - d[2]);
    let (bdx, bdy, bdz) = (b[0] - d[0], b[1] - d[1], b[2] - d[2]);
    let (cdx, cdy, cdz) = (c[0] - d[0], c[1] - d[1], c[2] - d[2]);
    let bdxcdy = bdx * cdy;
    let cdxbdy = cdx * bdy;
    let cdxady = cdx * ady;
    let adxcdy = adx * cdy;
    let adxbdy = adx * bdy;
    let bdxady = bdx * ady;
    let det = adz * (bdxcdy - cdxbdy) + bdz * (cdxady - adxcdy) + cdz * (adxbdy - bdxady);
    let permanent = (bdxcdy.abs() + cdxbdy.abs()) * adz.abs()
        + (cdxady.abs() + adxcdy.abs()) * bdz.abs()
        + (adxbdy.abs() + bdxady.abs()) * cdz.abs();
    if det.abs() > O3D_ERRBOUND_A * permanent || permanent == 0.0 {
        return f_sign(det);
    }
    count_adaptive();
    let p = |q: [f64; 3]| robust::Coord3D {
        x: q[0],
        y: q[1],
        z: q[2],
    };
    f_sign(robust::orient3d(p(a), p(b), p(c), p(d)))
}

#[inline]
fn f_sign(v: f64) -> Sign {
    if v > 0.0 {
        Sign::Positive
    } else if v < 0.0 {
        Sign::Negative
    } else {
        Sign::Zero
    }
}
