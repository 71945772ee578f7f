//! The number types: what every decision and construction is computed in.
//!
//! | module | what it holds |
//! |---|---|
//! | [`ring`] | [`Ring`](ring::Ring): the operations a predicate or construction is written against, once for every number type |
//! | [`scalar`] | [`Scalar`](scalar::Scalar): the input coordinate types (f32, f64, `BigRational`) and their exact values |
//! | [`sign`] | [`Sign`](sign::Sign): the result of every exact decision |
//! | [`interval`] | [`Interval`](interval::Interval): outward-rounded interval arithmetic, the filters of the generic predicates |
//! | [`biquadratic`] | exact signs in ℚ(√A, √B): comparisons of irrational depths and overlaps (verify's rounded contact claims) |
//! | [`bounded`] | doubles with a proven error bound (the float filters of the fast paths) and the unit roundoff |
//! | `double_word` | double-word numbers (a double plus a smaller one) with a proven error bound, and the correct rounding of `√s/d − R` they certify |
//! | [`dyadic`] | [`Dyadic`](dyadic::Dyadic): exact m·2^e values, a double's integer and exponent, and [`exact_f64`](dyadic::exact_f64): a rational's double when it is one exactly |
//! | [`sqrt`] | the double nearest to the square root of an exact rational, decided exactly |
//! | `fixed` | fixed-width integers on the stack (up to 768 bits) and their binary gcd: the exact fallback and the constructions of the fast paths |
//! | `wide` | two's-complement integers of exactly N words, one width per degree of a construction |
//! | `gcd` | the gcd of big integers (Lehmer's algorithm) for reductions to lowest terms |

pub mod biquadratic;
pub mod bounded;
pub(crate) mod double_word;
pub mod dyadic;
pub(crate) mod fixed;
pub(crate) mod gcd;
pub mod interval;
pub mod ring;
pub mod scalar;
pub mod sign;
pub mod sqrt;
pub mod sqrt_affine;
pub mod sqrt_offset;
pub(crate) mod wide;
