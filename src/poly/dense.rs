//! Dense univariate polynomials with exact rational coefficients.

use std::cmp::Ordering;
use std::ops::{Add, Mul, Neg, Sub};

use num_bigint::BigInt;
use num_integer::Integer;
use num_rational::BigRational;
use num_traits::{One, Zero};

use super::zx;

/// A dense univariate polynomial with exact rational coefficients.
///
/// Coefficients are stored in ascending powers, `c[0] + c[1]·x + … + c[d]·x^d`, and kept
/// normalized: no trailing zero coefficients, so the zero polynomial has no coefficients and
/// [`Poly::degree`] is `None` for it.
///
/// ```
/// use exact_collision::poly::Poly;
/// use num_rational::BigRational;
///
/// let p = Poly::from_ints(&[-2, 0, 1]); // x² − 2
/// assert_eq!(p.degree(), Some(2));
/// let x = BigRational::from_integer(3.into());
/// assert_eq!(p.eval(&x), BigRational::from_integer(7.into()));
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash, Default)]
pub struct Poly {
    coeffs: Vec<BigRational>,
}

impl Poly {
    /// The polynomial with the given coefficients (ascending powers); trailing zeros dropped.
    pub fn new(mut coeffs: Vec<BigRational>) -> Self {
        while coeffs.last().is_some_and(Zero::is_zero) {
            coeffs.pop();
        }
        Poly { coeffs }
    }

    /// The polynomial with the given machine-integer coefficients (ascending powers).
    pub fn from_ints(coeffs: &[i64]) -> Self {
        Self::new(
            coeffs
                .iter()
                .map(|&c| BigRational::from_integer(c.into()))
                .collect(),
        )
    }

    /// The polynomial with the given big-integer coefficients (ascending powers).
    pub fn from_bigints(coeffs: &[BigInt]) -> Self {
        Self::new(
            coeffs
                .iter()
                .map(|c| BigRational::from_integer(c.clone()))
                .collect(),
        )
    }

    /// The zero polynomial.
    pub fn zero() -> Self {
        Poly { coeffs: Vec::new() }
    }

    /// The constant polynomial 1.
    pub fn one() -> Self {
        Poly {
            coeffs: vec![BigRational::one()],
        }
    }

    /// The polynomial `x`.
    pub fn x() -> Self {
        Self::from_ints(&[0, 1])
    }

    /// The constant polynomial `c`.
    pub fn constant(c: BigRational) -> Self {
        Self::new(vec![c])
    }

    /// The monic linear polynomial `x − r`.
    pub fn linear_root(r: &BigRational) -> Self {
        Self::new(vec![-r.clone(), BigRational::one()])
    }

    /// Coefficients in ascending powers (empty for the zero polynomial).
    pub fn coeffs(&self) -> &[BigRational] {
        &self.coeffs
    }

    /// Degree, or `None` for the zero polynomial.
    pub fn degree(&self) -> Option<usize> {
        self.coeffs.len().checked_sub(1)
    }

    /// `true` for the zero polynomial.
    pub fn is_zero(&self) -> bool {
        self.coeffs.is_empty()
    }

    /// Leading coefficient, or `None` for the zero polynomial.
    pub fn leading_coeff(&self) -> Option<&BigRational> {
        self.coeffs.last()
    }

    /// Exact value at `x` (Horner).
    pub fn eval(&self, x: &BigRational) -> BigRational {
        let mut acc = BigRational::zero();
        for c in self.coeffs.iter().rev() {
            acc *= x;
            acc += c;
        }
        acc
    }

    /// Exact sign of the value at `x`, as an [`Ordering`] against zero.
    pub fn sign_at(&self, x: &BigRational) -> Ordering {
        zx::sign_at(&self.to_integer_scaled(), x)
    }

    /// The derivative.
    pub fn derivative(&self) -> Poly {
        Self::new(
            self.coeffs
                .iter()
                .enumerate()
                .skip(1)
                .map(|(i, c)| c * BigRational::from_integer(i.into()))
                .collect(),
        )
    }

    /// Euclidean division: `(q, r)` with `self = q·d + r` and `deg r < deg d`.
    ///
    /// # Panics
    /// If `d` is the zero polynomial.
    pub fn div_rem(&self, d: &Poly) -> (Poly, Poly) {
        let dl = d.leading_coeff().expect("division by the zero polynomial");
        let dd = d.coeffs.len() - 1;
        let mut r = self.coeffs.clone();
        if r.len() <= dd {
            return (Poly::zero(), self.clone());
        }
        let mut q = vec![BigRational::zero(); r.len() - dd];
        for k in (0..q.len()).rev() {
            let f = &r[k + dd] / dl;
            if !f.is_zero() {
                for (i, dc) in d.coeffs.iter().enumerate() {
                    r[k + i] -= &f * dc;
                }
            }
            q[k] = f;
        }
        r.truncate(dd);
        (Poly::new(q), Poly::new(r))
    }

    /// Exact division: `Some(q)` with `self = q·d` if `d` divides `self`, `None` otherwise
    /// (also `None` for `d = 0`).
    pub fn div_exact(&self, d: &Poly) -> Option<Poly> {
        if d.is_zero() {
            return None;
        }
        let (q, r) = self.div_rem(d);
        r.is_zero().then_some(q)
    }

    /// Monic greatest common divisor; the zero polynomial if both are zero.
    pub fn gcd(&self, other: &Poly) -> Poly {
        let g = zx::gcd(&self.to_integer_scaled(), &other.to_integer_scaled());
        Poly::from_bigints(&g).monic()
    }

    /// The polynomial divided by its leading coefficient (zero stays zero).
    pub fn monic(&self) -> Poly {
        match self.leading_coeff() {
            Some(l) if !l.is_one() => {
                Poly::new(self.coeffs.iter().map(|c| c / l).collect::<Vec<_>>())
            }
            _ => self.clone(),
        }
    }

    /// Monic square-free part `p / gcd(p, p′)`: same roots, each simple. Zero stays zero.
    pub fn square_free(&self) -> Poly {
        if self.is_zero() {
            return Poly::zero();
        }
        Poly::from_bigints(&self.to_primitive_integer()).monic()
    }

    /// Square-free factorization (Yun's algorithm): monic, pairwise coprime, non-constant `fᵢ`
    /// with `self = c · ∏ fᵢ^mᵢ`, returned as `(fᵢ, mᵢ)` with increasing `mᵢ`. Empty for
    /// constants (including zero).
    pub fn square_free_factors(&self) -> Vec<(Poly, u32)> {
        if self.degree().unwrap_or(0) == 0 {
            return Vec::new();
        }
        let f = self.monic();
        let df = f.derivative();
        let a0 = f.gcd(&df);
        let mut b = f.div_exact(&a0).expect("gcd divides");
        let c = df.div_exact(&a0).expect("gcd divides");
        let mut d = &c - &b.derivative();
        let mut out = Vec::new();
        let mut i = 1;
        while b.degree().unwrap_or(0) > 0 {
            let a = b.gcd(&d);
            b = b.div_exact(&a).expect("gcd divides");
            let c = d.div_exact(&a).expect("gcd divides");
            if a.degree().unwrap_or(0) > 0 {
                out.push((a, i));
            }
            i += 1;
            d = &c - &b.derivative();
        }
        out
    }

    /// Taylor shift `p(x + s)`.
    pub fn taylor_shift(&self, s: &BigRational) -> Poly {
        let mut a = self.coeffs.clone();
        let n = a.len();
        for i in 0..n.saturating_sub(1) {
            for j in (i..n - 1).rev() {
                let t = s * &a[j + 1];
                a[j] += t;
            }
        }
        Poly::new(a)
    }

    /// Composition with a rational affine map: `p(a + b·x)`.
    pub fn compose_affine(&self, a: &BigRational, b: &BigRational) -> Poly {
        let shifted = self.taylor_shift(a);
        let mut p = BigRational::one();
        let mut out = Vec::with_capacity(shifted.coeffs.len());
        for c in shifted.coeffs {
            out.push(c * &p);
            p *= b;
        }
        Poly::new(out)
    }

    /// `c · p`.
    pub fn scale(&self, c: &BigRational) -> Poly {
        Poly::new(self.coeffs.iter().map(|x| x * c).collect())
    }

    /// A positive rational multiple of `self` with coprime integer coefficients (signs kept).
    pub(crate) fn to_integer_scaled(&self) -> Vec<BigInt> {
        let l = self
            .coeffs
            .iter()
            .fold(BigInt::one(), |l, c| l.lcm(c.denom()));
        let mut v: Vec<BigInt> = self
            .coeffs
            .iter()
            .map(|c| {
                if c.denom().is_one() {
                    c.numer() * &l
                } else {
                    c.numer() * (&l / c.denom())
                }
            })
            .collect();
        zx::divide_content(&mut v);
        v
    }

    /// The primitive integer polynomial with positive leading coefficient that is a rational
    /// multiple of `self` (multiplicities kept). Empty for the zero polynomial.
    pub fn primitive_integer(&self) -> Vec<BigInt> {
        let mut v = self.to_integer_scaled();
        zx::primitive(&mut v);
        v
    }

    /// The square-free part as a primitive integer polynomial with positive leading coefficient
    /// (ascending powers): the canonical integer form of the set of roots, the form the protocol
    /// prints. Empty for the zero polynomial, `[1]` for nonzero constants.
    pub fn to_primitive_integer(&self) -> Vec<BigInt> {
        let v = self.primitive_integer();
        if v.len() <= 2 || zx::square_free_mod_p(&v) {
            return v;
        }
        let g = zx::gcd(&v, &zx::derivative(&v));
        if g.len() <= 1 {
            return v;
        }
        let q = Poly::from_bigints(&v)
            .div_exact(&Poly::from_bigints(&g))
            .expect("gcd divides");
        q.primitive_integer()
    }
}

impl Add<&Poly> for &Poly {
    type Output = Poly;
    fn add(self, rhs: &Poly) -> Poly {
        let (long, short) = if self.coeffs.len() >= rhs.coeffs.len() {
            (self, rhs)
        } else {
            (rhs, self)
        };
        let mut c = long.coeffs.clone();
        for (x, y) in c.iter_mut().zip(&short.coeffs) {
            *x += y;
        }
        Poly::new(c)
    }
}

impl Sub<&Poly> for &Poly {
    type Output = Poly;
    fn sub(self, rhs: &Poly) -> Poly {
        let n = self.coeffs.len().max(rhs.coeffs.len());
        let mut c = self.coeffs.clone();
        c.resize(n, BigRational::zero());
        for (x, y) in c.iter_mut().zip(&rhs.coeffs) {
            *x -= y;
        }
        Poly::new(c)
    }
}

impl Mul<&Poly> for &Poly {
    type Output = Poly;
    fn mul(self, rhs: &Poly) -> Poly {
        if self.is_zero() || rhs.is_zero() {
            return Poly::zero();
        }
        let mut c = vec![BigRational::zero(); self.coeffs.len() + rhs.coeffs.len() - 1];
        for (i, a) in self.coeffs.iter().enumerate() {
            if a.is_zero() {
                continue;
            }
            for (j, b) in rhs.coeffs.iter().enumerate() {
                c[i + j] += a * b;
            }
        }
        Poly::new(c)
    }
}

impl Neg for &Poly {
    type Output = Poly;
    fn neg(self) -> Poly {
        Poly {
            coeffs: self.coeffs.iter().map(|c| -c).collect(),
        }
    }
}

impl Neg for Poly {
    type Output = Poly;
    fn neg(mut self) -> Poly {
        for c in &mut self.coeffs {
            *c = -std::mem::take(c);
        }
        self
    }
}

#[cfg(test)]
fn q(n: i64, d: i64) -> BigRational {
    BigRational::new(n.into(), d.into())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn arithmetic_and_division() {
        let a = Poly::from_ints(&[-1, 0, 1]); // x² − 1
        let b = Poly::from_ints(&[1, 1]); // x + 1
        let (qq, r) = a.div_rem(&b);
        assert_eq!(qq, Poly::from_ints(&[-1, 1]));
        assert!(r.is_zero());
        assert_eq!(&qq * &b, a);
        assert_eq!(&(&a + &b) - &b, a);
        assert_eq!(a.div_exact(&Poly::from_ints(&[2, 1])), None);
        assert_eq!((-&a).coeffs()[0], q(1, 1));
    }

    #[test]
    fn gcd_square_free_and_yun() {
        // (x−1)²(x+2)³
        let f = &(&Poly::from_ints(&[1, -2, 1]) * &Poly::from_ints(&[8, 12, 6, 1])) * &Poly::one();
        assert_eq!(f.square_free(), Poly::from_ints(&[-2, 1, 1]));
        let fac = f.square_free_factors();
        assert_eq!(
            fac,
            vec![(Poly::from_ints(&[-1, 1]), 2), (Poly::from_ints(&[2, 1]), 3)]
        );
        assert_eq!(f.to_primitive_integer(), Poly::from_ints(&[-2, 1, 1]).primitive_integer());
        let g = f.gcd(&Poly::from_ints(&[-1, 0, 1]));
        assert_eq!(g, Poly::from_ints(&[-1, 1]));
    }

    #[test]
    fn shift_and_compose() {
        let p = Poly::from_ints(&[0, 0, 1]);
        assert_eq!(p.taylor_shift(&q(1, 2)), Poly::new(vec![q(1, 4), q(1, 1), q(1, 1)]));
        // p(1 + 2x) = 1 + 4x + 4x²
        assert_eq!(p.compose_affine(&q(1, 1), &q(2, 1)), Poly::from_ints(&[1, 4, 4]));
        assert_eq!(p.sign_at(&q(-1, 3)), Ordering::Greater);
        assert_eq!(p.sign_at(&q(0, 3)), Ordering::Equal);
    }

    #[test]
    fn rational_to_integer() {
        let p = Poly::new(vec![q(-1, 2), q(0, 1), q(-3, 4)]);
        assert_eq!(p.to_integer_scaled(), vec![BigInt::from(-2), 0.into(), (-3).into()]);
        assert_eq!(p.primitive_integer(), vec![BigInt::from(2), 0.into(), 3.into()]);
    }
}

