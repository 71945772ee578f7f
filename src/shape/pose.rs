//! Shapes given by pose, as engines hold them: a rotation and a translation
//! applied exactly.
//!
//! A [`Rotation`] is a quaternion q = (w, x, y, z), any nonzero one, meaning
//! exactly R = R(q)/|q|² (v ↦ q·v·q̄/|q|², column-vector convention; a rational
//! map of the components, no square root, so a quaternion of doubles means
//! exactly the rotation its double values define), or a 3×3 matrix taken as
//! given (not orthogonal: a box becomes a parallelepiped). The matrix of a
//! non-unit quaternion has denominator |q|², which is not a power of two in
//! general: the results are exact rationals, not doubles, and queries on
//! them take the exact path (but `intersect` of two boxes by pose in doubles:
//! `query::box_box::pose` decides it on the exact box without forming it).
//!
//! ```
//! use exact_collision::shape::{Obb, Rotation};
//! use exact_collision::Vec3;
//! use num_rational::BigRational;
//! let q = |n: i64, d: i64| BigRational::new(n.into(), d.into());
//! // q = (1, 2, 0, 0): a rotation about x with cos = −3/5, sin = 4/5 (|q|² = 5).
//! let r = Rotation::Quaternion([q(1, 1), q(2, 1), q(0, 1), q(0, 1)]);
//! let m = r.matrix().unwrap();
//! assert_eq!(m[1], [q(0, 1), q(-3, 5), q(-4, 5)]);
//! let b = Obb::from_pose(
//!     [q(1, 1), q(1, 1), q(1, 1)],
//!     &r,
//!     Vec3::new(q(0, 1), q(0, 1), q(0, 1)),
//! )
//! .unwrap();
//! // half_axes[i] = half_extents[i] · (column i of R).
//! assert_eq!(b.half_axes[1], Vec3::new(q(0, 1), q(-3, 5), q(4, 5)));
//! ```

use super::{Obb, ShapeError, Triangle};
use crate::vector::Vec3;
use num_bigint::BigInt;
use num_integer::Integer;
use num_rational::BigRational;
use num_traits::{One, Signed, Zero};

/// A rotation (or, for a matrix, any linear map) applied to a shape's local
/// coordinates: v ↦ R·v.
// Built once per shape: boxing the matrix would only add indirection.
#[allow(clippy::large_enum_variant)]
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Rotation {
    /// (w, x, y, z), nonzero, not necessarily unit: R = R(q)/|q|².
    Quaternion([BigRational; 4]),
    /// The rows of R (column-vector convention: v ↦ R·v), exactly as given.
    Matrix([[BigRational; 3]; 3]),
}

impl Rotation {
    /// The identity.
    pub fn identity() -> Self {
        let (o, z) = (BigRational::from_integer(1.into()), BigRational::zero());
        Rotation::Matrix([
            [o.clone(), z.clone(), z.clone()],
            [z.clone(), o.clone(), z.clone()],
            [z.clone(), z, o],
        ])
    }

    /// The exact matrix R (rows, column-vector convention); an error naming
    /// `quaternion` when every component of a quaternion is zero.
    pub fn matrix(&self) -> Result<[[BigRational; 3]; 3], ShapeError> {
        let (m, d) = self.integer_matrix()?;
        Ok(m.map(|row| row.map(|e| BigRational::new(e, d.clone()))))
    }

    /// R as an integer matrix over one positive denominator, (M, d) with
    /// R = M/d: built in integers, so that each entry is reduced once, by
    /// the caller. A quaternion is first scaled to integers Q = q·D (R(q)/|q|²
    /// is homogeneous of degree 0: R(q)/|q|² = R(Q)/|Q|²), M = R(Q), d = |Q|².
    pub fn integer_matrix(&self) -> Result<([[BigInt; 3]; 3], BigInt), ShapeError> {
        match self {
            Rotation::Matrix(m) => {
                let d = m
                    .iter()
                    .flatten()
                    .fold(BigInt::one(), |l, x| l.lcm(x.denom()));
                let m = m
                    .clone()
                    .map(|row| row.map(|x| x.numer() * (&d / x.denom())));
                Ok((m, d))
            }
            Rotation::Quaternion(q) => {
                let l = q.iter().fold(BigInt::one(), |l, x| l.lcm(x.denom()));
                let [w, x, y, z] = q.clone().map(|c| c.numer() * (&l / c.denom()));
                let (ww, xx, yy, zz) = (&w * &w, &x * &x, &y * &y, &z * &z);
                let n = &ww + &xx + &yy + &zz;
                if n.is_zero() {
                    return Err(ShapeError::new(
                        "quaternion",
                        "all components zero (a rotation needs a nonzero quaternion)",
                    ));
                }
                let t = |a: BigInt| a * 2;
                // The column-convention R(q) of q·v·q̄ (as the ccd quaternion
                // motion builds it), over |q|².
                Ok((
                    [
                        [
                            &ww + &xx - &yy - &zz,
                            t(&x * &y - &w * &z),
                            t(&x * &z + &w * &y),
                        ],
                        [
                            t(&x * &y + &w * &z),
                            &ww - &xx + &yy - &zz,
                            t(&y * &z - &w * &x),
                        ],
                        [
                            t(&x * &z - &w * &y),
                            t(&y * &z + &w * &x),
                            &ww - &xx - &yy + &zz,
                        ],
                    ],
                    n,
                ))
            }
        }
    }
}

/// R·v.
fn apply(m: &[[BigRational; 3]; 3], v: &Vec3<BigRational>) -> Vec3<BigRational> {
    let row = |r: &[BigRational; 3]| &r[0] * &v.x + &r[1] * &v.y + &r[2] * &v.z;
    Vec3::new(row(&m[0]), row(&m[1]), row(&m[2]))
}

impl Obb<BigRational> {
    /// The box by pose: center = `translation`, half_axes[i] =
    /// `half_extents[i]` · (column i of R). A negative half-extent is an error
    /// naming `half_extents[i]`; a zero one, or a singular matrix, the
    /// degenerate-box error of [`Obb::new`] (renamed to the pose's fields).
    pub fn from_pose(
        half_extents: [BigRational; 3],
        rotation: &Rotation,
        translation: Vec3<BigRational>,
    ) -> Result<Self, ShapeError> {
        if let Some(i) = half_extents.iter().position(|e| e.is_negative()) {
            return Err(ShapeError::new(
                format!("half_extents[{i}]"),
                "negative half-extent",
            ));
        }
        let (m, d) = rotation
            .integer_matrix()
            .map_err(|e| ShapeError::new(format!("rotation.{}", e.field), e.defect))?;
        // half_extents[i] · M[j][i] / d, each reduced once.
        let half_axes = [0, 1, 2].map(|i| {
            let e = &half_extents[i];
            let den = e.denom() * &d;
            let c = |j: usize| BigRational::new(e.numer() * &m[j][i], den.clone());
            Vec3::new(c(0), c(1), c(2))
        });
        Obb::new(translation, half_axes).map_err(|mut e| {
            if let Some(i) = (0..3).find(|&i| e.field == format!("half_axes[{i}]")) {
                if half_extents[i].is_zero() {
                    e.field = format!("half_extents[{i}]");
                    e.defect = "zero half-extent (the box has no volume; degenerate boxes are not supported)".into();
                    return e;
                }
            }
            if e.field.starts_with("half_axes") {
                e.field = "rotation.matrix".into();
                e.defect = "singular (the box has no volume; degenerate boxes are not supported)"
                    .into();
            }
            e
        })
    }
}

impl Triangle<BigRational> {
    /// The triangle with every vertex moved to R·v + `translation`, exactly.
    /// An all-zero quaternion is an error naming `rotation.quaternion`.
    ///
    /// ```
    /// use exact_collision::shape::{Rotation, Triangle};
    /// use exact_collision::Vec3;
    /// use num_rational::BigRational;
    /// let q = |n: i64| BigRational::from_integer(n.into());
    /// let v = |x: i64, y: i64, z: i64| Vec3::new(q(x), q(y), q(z));
    /// let t = Triangle::new([v(1, 0, 0), v(0, 2, 0), v(0, 0, 3)]);
    /// // (1/2, 1/2, 1/2, 1/2) turns x → y → z → x; then move by (1, 2, 3).
    /// let half = BigRational::new(1.into(), 2.into());
    /// let r = Rotation::Quaternion([half.clone(), half.clone(), half.clone(), half]);
    /// let moved = t.posed(&r, &v(1, 2, 3)).unwrap();
    /// assert_eq!(moved.v, [v(1, 3, 3), v(1, 2, 5), v(4, 2, 3)]);
    /// ```
    pub fn posed(
        &self,
        rotation: &Rotation,
        translation: &Vec3<BigRational>,
    ) -> Result<Self, ShapeError> {
        let r = rotation
            .matrix()
            .map_err(|e| ShapeError::new(format!("rotation.{}", e.field), e.defect))?;
        Ok(Triangle::new(
            self.v.clone().map(|p| apply(&r, &p).add(translation)),
        ))
    }
}

impl std::fmt::Display for Rotation {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Rotation::Quaternion([w, x, y, z]) => write!(f, "quaternion({w}, {x}, {y}, {z})"),
            Rotation::Matrix(m) => write!(
                f,
                "matrix[[{}, {}, {}], [{}, {}, {}], [{}, {}, {}]]",
                m[0][0], m[0][1], m[0][2], m[1][0], m[1][1], m[1][2], m[2][0], m[2][1], m[2][2]
            ),
        }
    }
}
