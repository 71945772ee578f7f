//! Checking an answer's certificate with exact arithmetic, without trusting the
//! algorithm that produced it.

use super::{Closest, Intersection};
use crate::num::scalar::Scalar;
use crate::shape::Shape;
use crate::vector::Vec3;
use num_rational::BigRational;
use num_traits::Zero;

/// Why a certificate does not prove its answer.
pub type Defect = String;

/// Check an `intersect` answer exactly: the witness lies in both shapes, or the
/// axis is nonzero and strictly separates the shapes' vertex sets (in either order).
pub fn check_intersection<S: Scalar>(
    a: &Shape<S>,
    b: &Shape<S>,
    ans: &Intersection<S>,
) -> Result<(), Defect> {
    let (a, b) = (a.to_rational(), b.to_rational());
    match ans {
        Intersection::Overlap { witness } => {
            let w = witness.to_rational();
            if !a.contains(&w) {
                return Err("witness is not in shape a".into());
            }
            if !b.contains(&w) {
                return Err("witness is not in shape b".into());
            }
            Ok(())
        }
        Intersection::Separated { axis } => {
            let l = axis.to_rational();
            if l.norm_squared().is_zero() {
                return Err("separating axis is zero".into());
            }
            let (amin, amax) = extent(&a, &l);
            let (bmin, bmax) = extent(&b, &l);
            if amax < bmin || bmax < amin {
                Ok(())
            } else {
                Err("axis does not separate the shapes".into())
            }
        }
    }
}

/// Check a `distance` answer's consistency exactly: pa in a, pb in b, and
/// |pa − pb|² equals the reported value. (Minimality is not checked here.)
pub fn check_closest<S: Scalar>(
    a: &Shape<S>,
    b: &Shape<S>,
    ans: &Closest<S>,
) -> Result<(), Defect> {
    let (ra, rb) = (a.to_rational(), b.to_rational());
    let (pa, pb) = (ans.a.to_rational(), ans.b.to_rational());
    if !ra.contains(&pa) {
        return Err("closest point a is not in shape a".into());
    }
    if !rb.contains(&pb) {
        return Err("closest point b is not in shape b".into());
    }
    if S::IS_EXACT && pa.sub(&pb).norm_squared() != ans.distance_squared.to_rational() {
        return Err("|pa − pb|² differs from distance_squared".into());
    }
    Ok(())
}

/// min and max of `l·p` over the shape's vertices.
pub fn extent(s: &Shape<BigRational>, l: &Vec3<BigRational>) -> (BigRational, BigRational) {
    let vals: Vec<BigRational> = s.vertices().iter().map(|p| p.dot(l)).collect();
    let min = vals.iter().min().cloned().unwrap_or_else(BigRational::zero);
    let max = vals.iter().max().cloned().unwrap_or_else(BigRational::zero);
    (min, max)
}
