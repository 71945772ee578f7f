//! Continuous collision detection: boxes under rational motion (Albocher et al.) and
//! points under linear motion (`ccd_vf`, `ccd_ee`).
//!
//! # The idea
//!
//! Two boxes move under rational motions (a 4×4 polynomial matrix over a
//! polynomial denominator, or a polynomial quaternion curve plus a translation).
//! Every quantity that decides contact is a polynomial in t with exact rational
//! coefficients, so the first contact time is an algebraic number, and it is
//! reported as an isolating interval of a square-free integer polynomial: a
//! certificate anyone can check with exact sign evaluations.
//!
//! [`ccd`] follows Albocher, Sarel, Choi, Elber, Wang (*Efficient
//! Continuous Collision Detection for Bounding Boxes under Rational Motion*, ICRA
//! 2006): relative motion into box a's frame, homogeneous intervals from the signs
//! of box b's normal and edge components, the 30 Minkowski-sum planes per interval
//! ([`sgm`]), the bounding-sphere cull, and an exact sweep over the cells cut by
//! the planes' roots ([`sweep`]). [`ccd_sat`] is an independent second method
//! (separating axes in the world frame, [`sat`]) used by the tests.
//!
//! ```
//! use exact_collision::ccd::{ccd, CcdAnswer, CcdQuery, Motion, MovingBox};
//! use exact_collision::{Obb, Vec3};
//! use num_rational::BigRational;
//!
//! let q = |n: i64| BigRational::from_integer(n.into());
//! let v = |x: i64, y: i64, z: i64| Vec3::new(q(x), q(y), q(z));
//! let unit = || Obb::new(v(0, 0, 0), [v(1, 0, 0), v(0, 1, 0), v(0, 0, 1)]).unwrap();
//! // A unit box moving along x from 5 to −5 towards a unit box at the origin:
//! // centre x(t) = 5 − 10t, touching when x = 2, at t = 3/10, leaving at x = −2.
//! let slide = Motion::quaternion(
//!     [vec![q(1)], vec![q(0)], vec![q(0)], vec![q(0)]],
//!     [vec![q(5), q(-10)], vec![q(0)], vec![q(0)]],
//! )
//! .unwrap();
//! let query = CcdQuery::new(
//!     MovingBox::new(unit(), Motion::Identity),
//!     MovingBox::new(unit(), slide),
//! );
//! let CcdAnswer::Hit { t_enter, t_exit, .. } = ccd(&query).unwrap() else { panic!() };
//! assert_eq!(t_enter.lo, BigRational::new(3.into(), 10.into()));
//! assert_eq!(t_exit.lo, BigRational::new(7.into(), 10.into()));
//! ```

pub mod bench_csv;
pub mod boxes;
mod input;
pub mod points;
pub mod step;

use crate::poly::{IsolatingInterval, Poly, RealRoot};
use crate::query::QueryError;
use boxes::motion::{self, RatAffine};
use boxes::sweep::{Event, Period};
use boxes::{float, guided, sat, sgm};
pub use input::{
    default_tolerance, CcdQuery, InputError, Limits, Motion, MovingBox, PointCcd, PolyCoeffs,
};
use num_bigint::BigInt;
use num_rational::BigRational;
use num_traits::One;

/// Why a `ccd` query cannot be answered.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CcdError {
    /// A polynomial that must not vanish on the range does (named).
    Vanishes(String),
}

impl From<CcdError> for QueryError {
    fn from(e: CcdError) -> Self {
        match e {
            CcdError::Vanishes(w) => QueryError::Unsupported(format!("{w} vanishes on t_range")),
        }
    }
}

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

/// Which Minkowski-sum plane is zero at the contact (Albocher et al.'s terms).
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
// Answers are built once per query; boxing the times would only add indirection.
#[allow(clippy::large_enum_variant)]
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
        /// The feature pair at t_enter: the plane that vanishes there. Absent when
        /// the boxes already overlap (no plane is zero) at the start.
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

impl ContactTime {
    /// The time as an exact real algebraic number (checks the certificate).
    ///
    /// Returns `None` if [lo, hi] does not isolate a root of `poly`.
    pub fn to_real_root(&self) -> Option<RealRoot> {
        if self.lo == self.hi {
            let p = Poly::from_bigints(&self.poly);
            return (self.kind != TimeKind::Root
                || p.eval(&self.lo) == BigRational::from_integer(0.into()))
            .then(|| RealRoot::Exact(self.lo.clone()));
        }
        IsolatingInterval::verify(&Poly::from_bigints(&self.poly), &self.lo, &self.hi)
            .map(RealRoot::Interval)
    }

    fn at(kind: TimeKind, x: &BigRational) -> Self {
        ContactTime {
            kind,
            lo: x.clone(),
            hi: x.clone(),
            poly: Vec::new(),
            f64: num_traits::ToPrimitive::to_f64(x).unwrap_or(f64::NAN),
        }
    }

    /// A root, refined to `tol`.
    pub fn root(mut r: RealRoot, tol: &BigRational) -> Self {
        r.refine_to_width(tol);
        let f = r.to_f64();
        match r {
            RealRoot::Exact(x) => {
                // The linear polynomial den·t − num.
                let poly = vec![-x.numer().clone(), x.denom().clone()];
                ContactTime {
                    kind: TimeKind::Root,
                    lo: x.clone(),
                    hi: x,
                    poly,
                    f64: f,
                }
            }
            RealRoot::Interval(i) => ContactTime {
                kind: TimeKind::Root,
                lo: i.lo().clone(),
                hi: i.hi().clone(),
                poly: i.coeffs().to_vec(),
                f64: f,
            },
        }
    }
}

impl ContactTime {
    /// A root of `poly` isolated in [lo, hi], `f64` the nearest double.
    fn isolating(lo: BigRational, hi: BigRational, poly: Vec<BigInt>, f64: f64) -> Self {
        ContactTime {
            kind: TimeKind::Root,
            lo,
            hi,
            poly,
            f64,
        }
    }

    /// The root x, exactly (lo = hi = x, the linear polynomial den·t − num).
    fn exact_root(x: BigRational) -> Self {
        let poly = vec![-x.numer().clone(), x.denom().clone()];
        ContactTime {
            kind: TimeKind::Root,
            f64: num_traits::ToPrimitive::to_f64(&x).unwrap_or(f64::NAN),
            lo: x.clone(),
            hi: x,
            poly,
        }
    }
}

/// Whether P (square-free) vanishes at neither end and has exactly one root in (lo, hi).
fn isolates(p: &Poly, lo: &BigRational, hi: &BigRational) -> bool {
    use std::cmp::Ordering::Equal;
    p.sign_at(lo) != Equal
        && p.sign_at(hi) != Equal
        && crate::poly::isolate_roots(p, lo, hi).isolated().len() == 1
}

/// The box CCD's certificate of a contact time α, a root of the constraint
/// polynomial `cert`: a function of (α, `cert`, `tol`) only, so the float-guided and
/// the exact sweep report the same one.
///
/// P is the square-free factor of `cert`'s primitive integer form that vanishes at α
/// (`cert` itself when it is square-free), primitive with a positive leading
/// coefficient; r is the double nearest to α (ties to even). Then:
///
/// ```text
/// deg P = 1, or α = r       lo = hi = α, poly = den·t − num
/// else, if succ(r) − pred(r) ≤ tol and P has exactly one root in (pred(r), succ(r))
///                           lo = pred(r), hi = succ(r), poly = P
/// else                      the dyadic interval [m/2^k, (m+1)/2^k] ∋ α for the least
///                           k with 2^-k ≤ tol that isolates α (lo = hi = α if α is one
///                           of its ends)
/// ```
pub fn canonical_time(cert: &Poly, mut t: RealRoot, tol: &BigRational) -> ContactTime {
    use crate::poly::zx;
    use std::cmp::Ordering;
    let z = cert.primitive_integer();
    let factors: Vec<Vec<BigInt>> = if z.len() <= 2 || zx::square_free_mod_p(&z) {
        vec![z]
    } else {
        zx::square_free_factors(&z)
            .into_iter()
            .map(|(f, _)| f)
            .collect()
    };
    let Some(p) = factors
        .into_iter()
        .find(|f| t.sign_of(&Poly::from_bigints(f)) == Ordering::Equal)
    else {
        // Not a root of `cert` (a caller's bug): report the root as it is.
        return ContactTime::root(t, tol);
    };
    if p.len() == 2 {
        return ContactTime::exact_root(BigRational::new(-p[0].clone(), p[1].clone()));
    }
    let pp = Poly::from_bigints(&p);
    let r = t.to_f64();
    let rat = |x: f64| BigRational::from_float(x).expect("a finite root");
    if pp.sign_at(&rat(r)) == Ordering::Equal {
        return ContactTime::exact_root(rat(r));
    }
    let (lo, hi) = (rat(r.next_down()), rat(r.next_up()));
    if &(&hi - &lo) <= tol && isolates(&pp, &lo, &hi) {
        return ContactTime::isolating(lo, hi, p, r);
    }
    // The dyadic grid 2^-k, k from the least one with 2^-k ≤ tol.
    let mut k: u64 = 0;
    while BigRational::new(BigInt::one(), BigInt::one() << k) > *tol {
        k += 1;
    }
    loop {
        let den = BigInt::one() << k;
        let at = |m: &BigInt| BigRational::new(m.clone(), den.clone());
        let mut m = (rat(r) * BigRational::from_integer(den.clone()))
            .floor()
            .to_integer();
        while t.compare(&mut RealRoot::Exact(at(&m))) == Ordering::Less {
            m -= 1;
        }
        while t.compare(&mut RealRoot::Exact(at(&(&m + 1)))) != Ordering::Less {
            m += 1;
        }
        if t.compare(&mut RealRoot::Exact(at(&m))) == Ordering::Equal {
            return ContactTime::exact_root(at(&m));
        }
        let (lo, hi) = (at(&m), at(&(&m + 1)));
        if isolates(&pp, &lo, &hi) {
            return ContactTime::isolating(lo, hi, p, r);
        }
        k += 1;
    }
}

/// Validates the motions and returns them as rational affine maps.
fn motions(q: &CcdQuery) -> Result<(RatAffine, RatAffine), CcdError> {
    let (t0, t1) = (&q.t_range.0, &q.t_range.1);
    let ma = RatAffine::from_motion(&q.a.motion);
    let mb = RatAffine::from_motion(&q.b.motion);
    motion::nonvanishing(&ma.den, t0, t1, "a.motion: the denominator (or |q|²)")?;
    motion::nonvanishing(&mb.den, t0, t1, "b.motion: the denominator (or |q|²)")?;
    for (m, what) in [
        (&ma, "a.motion: the determinant of the linear part"),
        (&mb, "b.motion: the determinant of the linear part"),
    ] {
        // A rotation's det(L) is d³ (d checked above): skip the second isolation.
        let det = m.det();
        if det != &(&m.den * &m.den) * &m.den {
            motion::nonvanishing(&det, t0, t1, what)?;
        }
    }
    Ok((ma, mb))
}

/// Box b in box a's unit-cube frame: M(t) = M_b(t)·M_a(t)⁻¹ followed by the
/// constant map that sends box a to [−1, 1]³.
pub fn relative(q: &CcdQuery) -> Result<sgm::Relative, CcdError> {
    let (ma, mb) = motions(q)?;
    let a = &q.a.shape;
    let h = &a.half_axes;
    // Hinv: rows r_i with h_i·Hinv = e_i; columns of adj are r1×r2, r2×r0, r0×r1.
    let cols = [h[1].cross(&h[2]), h[2].cross(&h[0]), h[0].cross(&h[1])];
    let det = h[0].dot(&cols[0]);
    let hinv = [0, 1, 2].map(|i| {
        crate::Vec3::new(
            cols[0].get(i) / &det,
            cols[1].get(i) / &det,
            cols[2].get(i) / &det,
        )
    });
    let canon = RatAffine::constant(&hinv, &a.center);
    // A static box a (identity motion) needs no inverse and no composition with it.
    let rel = if matches!(q.a.motion, Motion::Identity) {
        mb.then(&canon)
    } else {
        mb.then(&ma.inverse()).then(&canon)
    };
    let b = &q.b.shape;
    let mut c = rel.point(&b.center);
    let mut g = b.half_axes.clone().map(|hk| rel.vector(&hk));
    let mut w = rel.den;
    if w.sign_at(&q.t_range.0) == std::cmp::Ordering::Less {
        w = -&w;
        c = c.map(|p| -&p);
        g = g.map(|gk| gk.map(|p| -&p));
    }
    Ok(sgm::Relative { c, g, w })
}

fn certified(cert: Option<Poly>, t: RealRoot, tol: &BigRational) -> ContactTime {
    match cert {
        Some(c) => canonical_time(&c, t, tol),
        None => ContactTime::root(t, tol),
    }
}

fn answer<T>(
    q: &CcdQuery,
    period: Option<Period<T>>,
    feature: impl Fn(&T, bool) -> Feature,
) -> CcdAnswer {
    let Some(p) = period else {
        return CcdAnswer::Miss;
    };
    let (t0, t1) = (&q.t_range.0, &q.t_range.1);
    let mut feat = None;
    let t_enter = match p.enter {
        Event::Start(zero) => {
            // Touching at the start: the plane(s) that vanish there.
            feat = zero.first().map(|z| feature(z, zero.len() > 1));
            ContactTime::at(TimeKind::Start, t0)
        }
        Event::End => ContactTime::at(TimeKind::Start, t0),
        Event::At { t, zero, cert } => {
            feat = zero.first().map(|z| feature(z, zero.len() > 1));
            certified(cert, t, &q.tolerance)
        }
    };
    let t_exit = match p.exit {
        Event::At { t, cert, .. } if t.cmp_exact(&RealRoot::Exact(t1.clone())).is_lt() => {
            certified(cert, t, &q.tolerance)
        }
        _ => ContactTime::at(TimeKind::End, t1),
    };
    CcdAnswer::Hit {
        t_enter,
        t_exit,
        feature: feat,
    }
}

/// Continuous collision of two moving boxes (the Minkowski-sum planes of Albocher et
/// al., ICRA 2006, swept over t): first contact, end of that contact period and the
/// feature, each time certified.
///
/// The float-guided sweep ([`guided`]) answers when its certified float signs
/// suffice; otherwise the exhaustive exact sweep ([`ccd_exact`]) does. Both give the
/// same answer; [`crate::stats::CCD_BOXES`] counts which one did.
///
/// Errors: a motion whose denominator (|q|²) or linear-part determinant vanishes
/// somewhere on `t_range`; a motion or coefficient over the default [`Limits`]
/// ([`ccd_with_limits`] takes others).
pub fn ccd(q: &CcdQuery) -> Result<CcdAnswer, QueryError> {
    ccd_with_limits(q, &Limits::default())
}

/// [`ccd`] with other [`Limits`] than the default ones: an error naming the limit
/// when a motion's degree or a coefficient's size is over it.
pub fn ccd_with_limits(q: &CcdQuery, limits: &Limits) -> Result<CcdAnswer, QueryError> {
    use crate::stats::CCD_BOXES;
    q.check(limits)
        .map_err(|e| QueryError::Unsupported(e.to_string()))?;
    if let Ok(a) = guided::ccd_guided(q) {
        CCD_BOXES.fast();
        return Ok(a);
    }
    CCD_BOXES.fallback();
    ccd_exact(q)
}

/// [`ccd`] by the exhaustive exact sweep alone (the float-guided path's fallback,
/// and its reference in the tests): the same answer, more slowly.
pub fn ccd_exact(q: &CcdQuery) -> Result<CcdAnswer, QueryError> {
    let rel = relative(q)?;
    let sgm = sgm::Sgm::new(rel);
    let period = sgm.first_contact(&q.t_range.0, &q.t_range.1);
    Ok(answer(q, period, |p, d| p.feature(d)))
}

/// Continuous collision of two moving boxes on the float path (S = f64): the
/// same pipeline with `f64` constraint coefficients and a fast, uncertified root
/// finder ([`float`]). May differ from [`ccd`] at tangential contacts.
pub fn ccd_f64(q: &CcdQuery) -> Result<float::FloatAnswer, QueryError> {
    let rel = relative(q)?;
    let sgm = sgm::Sgm::new(rel);
    Ok(float::first_contact_f64(&sgm, &q.t_range.0, &q.t_range.1))
}

/// The same question answered by the independent separating-axis method
/// ([`sat`]); the feature names the separating-axis index only
/// (`kind` "axis"). For cross-checking [`ccd`].
pub fn ccd_sat(q: &CcdQuery) -> Result<CcdAnswer, QueryError> {
    motions(q)?;
    let sat = sat::Sat::new(q);
    let period = sat.first_contact(&q.t_range.0, &q.t_range.1);
    Ok(answer(q, period, |i, d| Feature {
        kind: "axis".into(),
        a: i.to_string(),
        b: String::new(),
        degenerate: d,
    }))
}

/// Vertex–face continuous collision under linear motion.
pub fn ccd_vf(q: &PointCcd) -> Result<PointCcdAnswer, QueryError> {
    points::vf(q)
}

/// Edge–edge continuous collision under linear motion.
pub fn ccd_ee(q: &PointCcd) -> Result<PointCcdAnswer, QueryError> {
    points::ee(q)
}
