//! Every pair of convex polytopes (triangle, box, prism, cube) that has no
//! specialised algorithm of its own, and the generic machinery the pairs share.
//!
//! | module | what it holds |
//! |---|---|
//! | [`contact`] | the exact contact of meeting polytopes: penetration depth² over the candidate directions, every optimal normal, the contact region |
//! | [`exhaustive`] | the exact reference: every candidate separating axis and every witness candidate enumerated in rationals; the distance by enumeration of feature pairs |
//! | `filtered` | the float-guided path for double inputs: GJK guesses, exact proofs by filtered signs ([`crate::num::bounded`]), constructions in fixed-width integers over one denominator |
//!
//! The filtered path makes the exhaustive path's decisions (the same first
//! separating axis, the same first witness, the same closest pair), so its
//! answers are the reference's, bit for bit; what it cannot prove is handed
//! back and answered by [`exhaustive`], counted in [`crate::stats`].
//! `docs/polytope.md` has the algorithms and their bounds.

pub mod contact;
pub mod exhaustive;
pub(crate) mod filtered;

pub use exhaustive::*;
