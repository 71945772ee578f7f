//! The contact condition's polynomials in t on the stack: coefficients in
//! [`crate::num::fixed::Int`] (768 bits), for the exact decisions at a root of c
//! (`exact_contact_at`), where building them in `BigInt` (a heap vector per
//! polynomial, a heap number per coefficient) cost most of the decision.
//!
//! The bounds: with every aligned coordinate below 2^[`FP_BITS`], a frame
//! coordinate A(t) = A₀ + t·dA has |A₀| < 2^(w+1), |dA| < 2^(w+2), and the
//! differences of frame vectors the contact terms take are below 2^(w+4) per
//! coefficient. The terms whose signs are asked for (`Contact::term_sign`) are
//! products of at most four such linear factors, summed over at most
//! 2·2·3·2⁴ = 192 < 2⁸ products: below 2^(4w+24) ≤ 2^744 < 2^768.
//! The ee inside test whole (degree 8) is never built here: `term_sign` asks
//! for its two sides instead; [`Fp::mul`] panics past degree 4 (a bug).

use super::formula::{Arith, V3};
use crate::num::fixed::Int;
use num_bigint::BigInt;

/// The widest aligned coordinate (bits) for which the polynomials are built
/// here (module docs).
pub(crate) const FP_BITS: i64 = 180;

/// Coefficients an [`Fp`] holds: degree at most 4.
const N: usize = 5;

/// An integer polynomial in t of degree at most 4, ascending powers; `n`
/// coefficients are significant (the rest zero, `n` = 0 for zero).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Fp {
    c: [Int; N],
    n: usize,
}

impl Fp {
    const ZERO: Fp = Fp {
        c: [Int::ZERO; N],
        n: 0,
    };

    fn trim(mut self) -> Fp {
        while self.n > 0 && self.c[self.n - 1].signum() == 0 {
            self.n -= 1;
        }
        self
    }

    /// The coefficients as `BigInt`s, no trailing zeros.
    pub(crate) fn coeffs(&self) -> Vec<BigInt> {
        self.c[..self.n].iter().map(|x| x.to_bigint()).collect()
    }
}

impl Arith for Fp {
    fn add(&self, o: &Self) -> Self {
        let mut r = Fp::ZERO;
        r.n = self.n.max(o.n);
        for (i, x) in r.c[..r.n].iter_mut().enumerate() {
            *x = self.c[i].add(&o.c[i]);
        }
        r.trim()
    }
    fn sub(&self, o: &Self) -> Self {
        let mut r = Fp::ZERO;
        r.n = self.n.max(o.n);
        for (i, x) in r.c[..r.n].iter_mut().enumerate() {
            *x = self.c[i].sub(&o.c[i]);
        }
        r.trim()
    }
    fn mul(&self, o: &Self) -> Self {
        if self.n == 0 || o.n == 0 {
            return Fp::ZERO;
        }
        let mut r = Fp::ZERO;
        r.n = self.n + o.n - 1;
        assert!(r.n <= N, "Fp: degree above 4");
        for (i, x) in self.c[..self.n].iter().enumerate() {
            for (j, y) in o.c[..o.n].iter().enumerate() {
                r.c[i + j] = r.c[i + j].add(&x.mul(y));
            }
        }
        r.trim()
    }
    fn neg(&self) -> Self {
        let mut r = *self;
        for x in &mut r.c[..r.n] {
            *x = x.neg();
        }
        r
    }
}

/// The frame A, B, C (`formula.rs`) as linear polynomials in t:
/// `coef(j, i)` gives coordinate i of frame point j (0..3) as its value at
/// t = 0 and its change over [0, 1], each below 2^(FP_BITS + 2).
pub(crate) fn frame(coef: impl Fn(usize, usize) -> (Int, Int)) -> [V3<Fp>; 3] {
    [0, 1, 2].map(|j| {
        [0, 1, 2].map(|i| {
            let mut p = Fp::ZERO;
            (p.c[0], p.c[1]) = coef(j, i);
            p.n = 2;
            p.trim()
        })
    })
}
