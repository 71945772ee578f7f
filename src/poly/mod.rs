//! Exact univariate polynomials and certified real-root isolation.
//!
//! # The idea
//!
//! A contact time is a root of a polynomial whose coefficients are exact rationals. Deciding
//! "which contact comes first" or "does this root satisfy that inequality" must never depend
//! on rounding, so roots are represented exactly:
//!
//! ```text
//! α  =  the unique root of f in (lo, hi)      f ∈ ℤ[x] square-free, lo, hi ∈ ℚ
//! ```
//!
//! an [`IsolatingInterval`]. Everything about α is decided with exact integer arithmetic:
//! refining (lo, hi) by sign evaluations, the sign of another polynomial g at α (zero iff
//! gcd(f, g) vanishes there), the order of two such numbers. Roots at rational points the
//! algorithm touches are reported as [`RealRoot::Exact`].
//!
//! Isolation uses Descartes' rule of signs with Vincent–Collins–Akritas bisection on integer
//! coefficients (FLINT's method); see `docs/poly.md` for the algorithm and references.
//!
//! Signs are [`std::cmp::Ordering`] against zero (`Less` = negative).
//!
//! ```
//! use exact_collision::poly::{isolate_roots, Poly, Roots};
//! use num_rational::BigRational;
//!
//! let p = Poly::from_ints(&[-1, 0, 0, 1]); // x³ − 1
//! let zero = BigRational::from_integer(0.into());
//! let two = BigRational::from_integer(2.into());
//! let Roots::Isolated(roots) = isolate_roots(&p, &zero, &two) else { unreachable!() };
//! assert_eq!(roots.len(), 1);
//! assert_eq!(roots[0].value.to_f64(), 1.0);
//! ```

#![warn(missing_docs)]

mod dense;
mod isolate;
pub mod planted;
mod root;
pub(crate) mod zx;

pub use dense::Poly;
pub(crate) use isolate::Factored;
pub use isolate::{first_root_in, isolate_roots, isolate_roots_limited, Roots};
pub(crate) use root::f64_midpoint;
pub use root::{qcmp, sign_of_poly_at, IsolatingInterval, RealRoot, Root};
