//! The typed inputs of continuous collision: what a Rust caller builds, and
//! what the protocol parses a `ccd`, `ccd_vf` or `ccd_ee` line into.
//!
//! ```
//! use exact_collision::ccd::{ccd, CcdAnswer, CcdQuery, Motion, MovingBox};
//! use exact_collision::{Obb, Vec3};
//! use num_rational::BigRational;
//!
//! let q = |n: i64| BigRational::from_integer(n.into());
//! let unit = || {
//!     let e = |i: usize| Vec3::new(q((i == 0) as i64), q((i == 1) as i64), q((i == 2) as i64));
//!     Obb::new(Vec3::new(q(0), q(0), q(0)), [e(0), e(1), e(2)]).unwrap()
//! };
//! // Box b slides along x from 5 to −5 (x(t) = 5 − 10t), no rotation.
//! let slide = Motion::quaternion(
//!     [vec![q(1)], vec![q(0)], vec![q(0)], vec![q(0)]],
//!     [vec![q(5), q(-10)], vec![q(0)], vec![q(0)]],
//! )
//! .unwrap();
//! let query = CcdQuery::new(MovingBox::new(unit(), Motion::Identity), MovingBox::new(unit(), slide));
//! let CcdAnswer::Hit { t_enter, .. } = ccd(&query).unwrap() else { panic!() };
//! assert_eq!(t_enter.lo, BigRational::new(3.into(), 10.into())); // x = 2 at t = 3/10
//! ```

use crate::shape::Obb;
use crate::vector::Vec3;
use num_bigint::BigInt;
use num_rational::BigRational;
use num_traits::{One, Zero};

/// A polynomial in t: coefficients in ascending powers, exact.
pub type PolyCoeffs = Vec<BigRational>;

/// Why a CCD input cannot be built: the field (as the protocol names it, relative
/// to the object being built) and what is wrong with it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct InputError {
    /// E.g. `quaternion`, `denominator`, `t_range`.
    pub field: String,
    /// What is wrong.
    pub defect: String,
}

impl std::fmt::Display for InputError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {}", self.field, self.defect)
    }
}

impl std::error::Error for InputError {}

fn input_err<T>(field: &str, defect: impl Into<String>) -> Result<T, InputError> {
    Err(InputError {
        field: field.into(),
        defect: defect.into(),
    })
}

/// Limits that keep one `ccd` query's cost bounded (see docs/ccd.md, "Limits").
///
/// The degree is the motion's as a rational map x ↦ (x·L(t) + T(t))/d(t): a
/// quaternion curve of degree k with a translation of degree m has degree 2k + m,
/// a matrix motion the largest degree of its entries and denominator. The
/// coefficient size is the bit length of the largest numerator or denominator of a
/// motion or shape coefficient. Cost grows with both (faster with the degree), so
/// their product is bounded too.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    /// Largest degree of each box's motion.
    pub max_motion_degree: usize,
    /// Largest bit length of a coefficient's numerator or denominator.
    pub max_coefficient_bits: u64,
    /// Largest product of a motion's degree and its coefficients' bit length.
    pub max_degree_bits: u64,
}

impl Default for Limits {
    /// The limits the program uses: every query within them is answered in about a
    /// second or less on the measurements of docs/ccd.md.
    fn default() -> Self {
        Limits {
            max_motion_degree: 8,
            max_coefficient_bits: 128,
            max_degree_bits: 512,
        }
    }
}

fn degree(p: &[BigRational]) -> usize {
    p.iter().rposition(|c| !c.is_zero()).unwrap_or(0)
}

fn bits(x: &BigRational) -> u64 {
    x.numer().bits().max(x.denom().bits())
}

/// A `ccd` query.
#[derive(Clone, Debug)]
pub struct CcdQuery {
    /// Box a and its motion.
    pub a: MovingBox,
    /// Box b and its motion.
    pub b: MovingBox,
    /// The closed time range [t0, t1], t0 ≤ t1.
    pub t_range: (BigRational, BigRational),
    /// The largest width of a reported isolating interval (> 0).
    pub tolerance: BigRational,
}

/// The tolerance the protocol uses when a query gives none: 10⁻¹².
pub fn default_tolerance() -> BigRational {
    BigRational::new(BigInt::one(), num_traits::pow(BigInt::from(10), 12))
}

impl CcdQuery {
    /// Boxes a and b over t ∈ [0, 1], times reported to 10⁻¹² (the protocol's defaults).
    pub fn new(a: MovingBox, b: MovingBox) -> CcdQuery {
        CcdQuery {
            a,
            b,
            t_range: (BigRational::zero(), BigRational::one()),
            tolerance: default_tolerance(),
        }
    }

    /// The same query over [t0, t1]; an error if t0 > t1.
    pub fn with_t_range(mut self, t0: BigRational, t1: BigRational) -> Result<Self, InputError> {
        if t0 > t1 {
            return input_err("t_range", "start after end");
        }
        self.t_range = (t0, t1);
        Ok(self)
    }

    /// The same query with another tolerance; an error unless it is positive.
    pub fn with_tolerance(mut self, tolerance: BigRational) -> Result<Self, InputError> {
        if tolerance <= BigRational::zero() {
            return input_err("tolerance", "must be positive");
        }
        self.tolerance = tolerance;
        Ok(self)
    }

    /// Checks the query against `limits`, naming the first field over a limit.
    pub fn check(&self, limits: &Limits) -> Result<(), InputError> {
        for (name, m) in [("a", &self.a), ("b", &self.b)] {
            m.motion.check(limits).map_err(|e| InputError {
                field: format!("{name}.motion.{}", e.field),
                defect: e.defect,
            })?;
            let s = &m.shape;
            let big = [&s.center]
                .into_iter()
                .chain(s.half_axes.iter())
                .flat_map(|v| [&v.x, &v.y, &v.z])
                .map(bits)
                .max()
                .unwrap_or(0);
            if big > limits.max_coefficient_bits {
                return input_err(
                    &format!("{name}.shape"),
                    format!(
                        "a coordinate of {big} bits exceeds the limit of {} bits (ccd::Limits::max_coefficient_bits, raised with --max-coefficient-bits)",
                        limits.max_coefficient_bits
                    ),
                );
            }
        }
        Ok(())
    }
}

/// A box in its local frame and the motion that maps it to the world.
#[derive(Clone, Debug)]
pub struct MovingBox {
    /// The box (a cube is given as its box).
    pub shape: Obb<BigRational>,
    /// Local → world at time t.
    pub motion: Motion,
}

impl MovingBox {
    /// A box under a motion.
    pub fn new(shape: Obb<BigRational>, motion: Motion) -> MovingBox {
        MovingBox { shape, motion }
    }
}

/// The protocol's MOTION forms.
#[derive(Clone, Debug, PartialEq)]
pub enum Motion {
    /// No motion.
    Identity,
    /// Row-vector convention: world = ([x y z 1]·M(t))[0..3] / denominator(t).
    /// `rows[i][j]` is M's entry (i, j) for j < 3; the fourth column is
    /// implicitly (0, 0, 0, denominator).
    Matrix {
        /// Four rows of three polynomials.
        rows: [[PolyCoeffs; 3]; 4],
        /// The common denominator.
        denominator: PolyCoeffs,
    },
    /// v ↦ q·v·q̄/|q|² + translation(t).
    Quaternion {
        /// (w, x, y, z), polynomials in t.
        q: [PolyCoeffs; 4],
        /// Added after the rotation.
        translation: [PolyCoeffs; 3],
    },
}

impl Motion {
    /// v ↦ q(t)·v·q̄(t)/|q(t)|² + translation(t), q = (w, x, y, z). An error if q is the
    /// zero polynomial, or if the motion is over the default [`Limits`] (a query
    /// checks its motions against the limits it is answered with:
    /// [`crate::ccd::ccd_with_limits`]).
    ///
    /// ```
    /// use exact_collision::ccd::Motion;
    /// use num_rational::BigRational;
    /// let q = |n: i64| BigRational::from_integer(n.into());
    /// // A half turn about z over [0, 1]: q(t) = (1 − t, 0, 0, t).
    /// let m = Motion::quaternion(
    ///     [vec![q(1), q(-1)], vec![], vec![], vec![q(0), q(1)]],
    ///     [vec![], vec![], vec![]],
    /// );
    /// assert!(m.is_ok());
    /// let zero = Motion::quaternion([vec![], vec![], vec![], vec![q(0)]], [vec![], vec![], vec![]]);
    /// assert_eq!(zero.unwrap_err().defect, "the zero quaternion");
    /// ```
    pub fn quaternion(
        q: [PolyCoeffs; 4],
        translation: [PolyCoeffs; 3],
    ) -> Result<Motion, InputError> {
        let m = Motion::Quaternion {
            q: q.map(nonempty),
            translation: translation.map(nonempty),
        };
        m.check(&Limits::default())?;
        Ok(m)
    }

    /// x ↦ ([x 1]·M(t))/denominator(t) with `rows` the four rows of M's first three
    /// columns (row-vector convention; the fourth row is the translation). An error if
    /// the denominator is the zero polynomial, or if the motion is over the
    /// default [`Limits`] (see [`Motion::quaternion`]).
    ///
    /// ```
    /// use exact_collision::ccd::Motion;
    /// use num_rational::BigRational;
    /// let q = |n: i64| BigRational::from_integer(n.into());
    /// let id = || [vec![q(1)], vec![], vec![]];
    /// let rows = [id(), [vec![], vec![q(1)], vec![]], [vec![], vec![], vec![q(1)]], [vec![q(0), q(3)], vec![], vec![]]];
    /// assert!(Motion::matrix(rows.clone(), vec![q(1)]).is_ok()); // x moves by 3t
    /// assert_eq!(Motion::matrix(rows, vec![]).unwrap_err().field, "denominator");
    /// ```
    pub fn matrix(
        rows: [[PolyCoeffs; 3]; 4],
        denominator: PolyCoeffs,
    ) -> Result<Motion, InputError> {
        let m = Motion::Matrix {
            rows: rows.map(|r| r.map(nonempty)),
            denominator: nonempty(denominator),
        };
        m.check(&Limits::default())?;
        Ok(m)
    }

    /// The motion's degree as a rational map (see [`Limits`]).
    pub fn degree(&self) -> usize {
        match self {
            Motion::Identity => 0,
            Motion::Quaternion { q, translation } => {
                let dq = q.iter().map(|p| degree(p)).max().unwrap_or(0);
                let dt = translation.iter().map(|p| degree(p)).max().unwrap_or(0);
                2 * dq + dt
            }
            Motion::Matrix { rows, denominator } => rows
                .iter()
                .flatten()
                .chain([denominator])
                .map(|p| degree(p))
                .max()
                .unwrap_or(0),
        }
    }

    /// Checks the motion: a nonzero quaternion or denominator, and `limits`.
    pub fn check(&self, limits: &Limits) -> Result<(), InputError> {
        let coefs: Vec<&BigRational> = match self {
            Motion::Identity => return Ok(()),
            Motion::Quaternion { q, translation } => {
                if q.iter().flatten().all(Zero::is_zero) {
                    return input_err("quaternion", "the zero quaternion");
                }
                q.iter().chain(translation.iter()).flatten().collect()
            }
            Motion::Matrix { rows, denominator } => {
                if denominator.iter().all(Zero::is_zero) {
                    return input_err("denominator", "the zero polynomial");
                }
                rows.iter()
                    .flatten()
                    .chain([denominator])
                    .flatten()
                    .collect()
            }
        };
        let d = self.degree();
        if d > limits.max_motion_degree {
            let what = match self {
                Motion::Quaternion { .. } => "quaternion",
                _ => "matrix",
            };
            return input_err(
                what,
                format!(
                    "motion degree {d} exceeds the limit of {} (ccd::Limits::max_motion_degree, raised with --max-motion-degree; a quaternion curve of degree k with a translation of degree m has degree 2k + m)",
                    limits.max_motion_degree
                ),
            );
        }
        let big = coefs.into_iter().map(bits).max().unwrap_or(0);
        let what = match self {
            Motion::Quaternion { .. } => "quaternion",
            _ => "matrix",
        };
        if big > limits.max_coefficient_bits {
            return input_err(
                what,
                format!(
                    "a coefficient of {big} bits exceeds the limit of {} bits (ccd::Limits::max_coefficient_bits, raised with --max-coefficient-bits)",
                    limits.max_coefficient_bits
                ),
            );
        }
        if d as u64 * big > limits.max_degree_bits {
            return input_err(
                what,
                format!(
                    "motion degree {d} with coefficients of {big} bits exceeds the limit degree × bits ≤ {} (ccd::Limits::max_degree_bits, raised with --max-degree-bits)",
                    limits.max_degree_bits
                ),
            );
        }
        Ok(())
    }
}

/// An empty coefficient list means the zero polynomial.
fn nonempty(p: PolyCoeffs) -> PolyCoeffs {
    if p.is_empty() {
        vec![BigRational::zero()]
    } else {
        p
    }
}

/// A `ccd_vf` / `ccd_ee` query: four points at t = 0 and at t = 1.
#[derive(Clone, Debug)]
pub struct PointCcd {
    /// Positions at t = 0.
    pub t0: [Vec3<BigRational>; 4],
    /// Positions at t = 1.
    pub t1: [Vec3<BigRational>; 4],
    /// The largest width of the reported interval.
    pub tolerance: BigRational,
}

impl PointCcd {
    /// A vertex–face query for [`super::ccd_vf`]: the points (v, f0, f1, f2) at t = 0
    /// and at t = 1, each moving linearly; times reported to 10⁻¹².
    ///
    /// ```
    /// use exact_collision::ccd::{ccd_vf, PointCcd, PointCcdAnswer};
    /// use exact_collision::Vec3;
    /// use num_rational::BigRational;
    /// let p = |x: i64, y: i64, z: i64| Vec3::new(x, y, z).map(|&v| BigRational::from_integer(v.into()));
    /// // A vertex falling through the triangle z = 0 from z = 1 to z = −1: hit at t = 1/2.
    /// let tri = [p(0, 0, 0), p(4, 0, 0), p(0, 4, 0)];
    /// let q = PointCcd::vertex_face(
    ///     [p(1, 1, 1), tri[0].clone(), tri[1].clone(), tri[2].clone()],
    ///     [p(1, 1, -1), tri[0].clone(), tri[1].clone(), tri[2].clone()],
    /// );
    /// let PointCcdAnswer::Hit(t) = ccd_vf(&q).unwrap() else { panic!() };
    /// assert_eq!(t.lo, BigRational::new(1.into(), 2.into()));
    /// ```
    pub fn vertex_face(t0: [Vec3<BigRational>; 4], t1: [Vec3<BigRational>; 4]) -> PointCcd {
        PointCcd {
            t0,
            t1,
            tolerance: default_tolerance(),
        }
    }

    /// An edge–edge query for [`super::ccd_ee`]: the points (a0, a1, b0, b1) at t = 0 and
    /// at t = 1, each moving linearly; times reported to 10⁻¹².
    pub fn edge_edge(t0: [Vec3<BigRational>; 4], t1: [Vec3<BigRational>; 4]) -> PointCcd {
        PointCcd {
            t0,
            t1,
            tolerance: default_tolerance(),
        }
    }

    /// The same query with another tolerance; an error unless it is positive.
    pub fn with_tolerance(mut self, tolerance: BigRational) -> Result<Self, InputError> {
        if tolerance <= BigRational::zero() {
            return input_err("tolerance", "must be positive");
        }
        self.tolerance = tolerance;
        Ok(self)
    }
}
