//! Generators of polynomials with planted roots, for property tests and benchmarks.
//!
//! A [`Planted`] polynomial is a product of known factors, so the expected roots in any
//! interval are known exactly: rational roots `(x − r)^m` and irrational pairs
//! `(x² − c)^m` with `c = k·s²`, `k ∈ {2, 3, 5, 6, 7}` squarefree, so `±√c` is irrational.

use num_bigint::BigInt;
use num_rational::BigRational;
use num_traits::{Signed, Zero};

use super::dense::Poly;

/// A polynomial built from known factors, with the list of those factors.
#[derive(Clone, Debug, Default)]
pub struct Planted {
    /// Distinct rational roots with multiplicities.
    pub rational: Vec<(BigRational, u32)>,
    /// Distinct `c > 0` (never a rational square) of the factors `(x² − c)^m`, with `m`.
    pub quadratic: Vec<(BigRational, u32)>,
    /// Constant factor (nonzero).
    pub scale: BigRational,
}

impl Planted {
    /// The empty product with constant factor `scale` (nonzero).
    pub fn new(scale: BigRational) -> Self {
        assert!(!scale.is_zero());
        Planted {
            scale,
            ..Planted::default()
        }
    }

    /// Adds the factor `(x − r)^m` (multiplicities of equal roots add up).
    pub fn add_rational(&mut self, r: BigRational, m: u32) {
        match self.rational.iter_mut().find(|(x, _)| *x == r) {
            Some((_, k)) => *k += m,
            None => self.rational.push((r, m)),
        }
    }

    /// Adds the factor `(x² − k·s²)^m`; `k` must be one of 2, 3, 5, 6, 7 and `s ≠ 0`.
    pub fn add_sqrt(&mut self, k: u32, s: BigRational, m: u32) {
        assert!([2, 3, 5, 6, 7].contains(&k) && !s.is_zero());
        let c = &s * &s * BigRational::from_integer(k.into());
        match self.quadratic.iter_mut().find(|(x, _)| *x == c) {
            Some((_, j)) => *j += m,
            None => self.quadratic.push((c, m)),
        }
    }

    /// The polynomial `scale · ∏ (x − r)^m · ∏ (x² − c)^m`.
    pub fn poly(&self) -> Poly {
        let mut p = Poly::constant(self.scale.clone());
        for (r, m) in &self.rational {
            let f = Poly::linear_root(r);
            for _ in 0..*m {
                p = &p * &f;
            }
        }
        for (c, m) in &self.quadratic {
            let f = Poly::new(vec![-c.clone(), BigRational::zero(), BigRational::from_integer(1.into())]);
            for _ in 0..*m {
                p = &p * &f;
            }
        }
        p
    }

    /// The planted roots in `[lo, hi]` as `(kind, multiplicity)`, sorted by value is not
    /// guaranteed; the count is what tests compare.
    pub fn roots_in(&self, lo: &BigRational, hi: &BigRational) -> Vec<(PlantedRoot, u32)> {
        let mut v = Vec::new();
        for (r, m) in &self.rational {
            if lo <= r && r <= hi {
                v.push((PlantedRoot::Rational(r.clone()), *m));
            }
        }
        for (c, m) in &self.quadratic {
            // √c ∈ [lo, hi]  ⇔  (lo ≤ 0 ∨ lo² ≤ c) ∧ (hi ≥ 0 ∧ c ≤ hi²); never equality (c is
            // not a rational square).
            let ge = |x: &BigRational| !x.is_positive() || x * x < *c; // √c > x
            let le = |x: &BigRational| !x.is_negative() && x * x > *c; // √c < x
            if ge(lo) && le(hi) {
                v.push((PlantedRoot::Sqrt(c.clone()), *m));
            }
            // −√c ∈ [lo, hi]  ⇔  √c ∈ [−hi, −lo]
            if ge(&-hi) && le(&-lo) {
                v.push((PlantedRoot::NegSqrt(c.clone()), *m));
            }
        }
        v
    }
}

/// A planted root, known exactly.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PlantedRoot {
    /// The rational number itself.
    Rational(BigRational),
    /// `+√c`.
    Sqrt(BigRational),
    /// `−√c`.
    NegSqrt(BigRational),
}

/// SplitMix64: a tiny deterministic generator so benchmarks need no `rand` dependency.
pub fn splitmix64(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// A random integer polynomial of the given degree whose coefficients are uniform signed
/// `bits`-bit integers (|c| < 2^(bits−1)... up to `bits` ≤ 64 magnitude bits minus one for
/// the sign), leading coefficient nonzero. `bits = 64` gives the benchmark's "63-bit"
/// coefficients: uniform `i64` values.
pub fn random_integer_poly(state: &mut u64, degree: usize, bits: u32) -> Poly {
    assert!((1..=64).contains(&bits));
    let mut c: Vec<BigInt> = Vec::with_capacity(degree + 1);
    for i in 0..=degree {
        loop {
            let x = splitmix64(state) as i64 >> (64 - bits);
            if x != 0 || i < degree {
                c.push(x.into());
                break;
            }
        }
    }
    Poly::from_bigints(&c)
}
