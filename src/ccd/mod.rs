//! Continuous collision detection: boxes under rational motion (seed 001) and
//! points under linear motion (`ccd_vf`, `ccd_ee`).
//!
//! The algorithms have not landed yet: every entry point answers
//! [`QueryError::NotImplemented`].

use crate::protocol::{CcdQuery, PointCcd};
use crate::query::QueryError;
use num_bigint::BigInt;
use num_rational::BigRational;

/// How a contact time was found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TimeKind {
    /// A root of `poly`, isolated in [lo, hi].
    Root,
    /// The start of the range: already touching there.
    Start,
    /// The end of the range: still touching there.
    End,
}

/// A certified time: the unique root of `poly` in [lo, hi] (or lo = hi exactly).
#[derive(Clone, Debug, PartialEq)]
pub struct ContactTime {
    /// Root, start or end.
    pub kind: TimeKind,
    /// Lower end of the isolating interval.
    pub lo: BigRational,
    /// Upper end (hi − lo ≤ tolerance).
    pub hi: BigRational,
    /// The square-free primitive integer polynomial (ascending powers) whose
    /// root it is; empty for `Start`/`End`.
    pub poly: Vec<BigInt>,
    /// The nearest double (an approximation, for reading).
    pub f64: f64,
}

/// Which Minkowski-sum plane is zero at the contact (seed 001's terms).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Feature {
    /// "FV", "VF" or "EE".
    pub kind: String,
    /// Feature of box a, e.g. "face +x".
    pub a: String,
    /// Feature of box b, e.g. "vertex (+,-,+)".
    pub b: String,
    /// Several planes were zero at once.
    pub degenerate: bool,
}

/// The answer to a `ccd` query.
#[derive(Clone, Debug, PartialEq)]
pub enum CcdAnswer {
    /// No contact in the range.
    Miss,
    /// First contact period.
    Hit {
        /// First touch.
        t_enter: ContactTime,
        /// End of the first contact period.
        t_exit: ContactTime,
        /// The feature pair at t_enter (absent when contact is at the start).
        feature: Option<Feature>,
    },
}

/// The answer to `ccd_vf` / `ccd_ee`: the first time of contact, if any.
#[derive(Clone, Debug, PartialEq)]
pub enum PointCcdAnswer {
    /// No contact in [0, 1].
    Miss,
    /// First contact.
    Hit(ContactTime),
}

/// Continuous collision of two moving boxes.
pub fn ccd(_q: &CcdQuery) -> Result<CcdAnswer, QueryError> {
    Err(QueryError::NotImplemented("ccd".into()))
}

/// Vertex–face continuous collision under linear motion.
pub fn ccd_vf(_q: &PointCcd) -> Result<PointCcdAnswer, QueryError> {
    Err(QueryError::NotImplemented("ccd_vf".into()))
}

/// Edge–edge continuous collision under linear motion.
pub fn ccd_ee(_q: &PointCcd) -> Result<PointCcdAnswer, QueryError> {
    Err(QueryError::NotImplemented("ccd_ee".into()))
}
