//! Dense univariate polynomials with exact rational coefficients.

use std::cmp::Ordering;
use std::ops::{Add, Mul, Neg, Sub};

use num_bigint::BigInt;
use num_integer::Integer;
use num_rational::BigRational;
use num_traits::{One, Signed, Zero};

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
        // Any positive multiple has the same sign: no content removal needed.
        let (z, _) = self.integer_parts();
        zx::sign_at(&z, x)
    }

    /// `true` if every coefficient is an integer.
    pub fn is_integral(&self) -> bool {
        self.coeffs.iter().all(|c| c.denom().is_one())
    }

    /// `(z, l)` with `self = z / l`: `l > 0` the lcm of the coefficient denominators,
    /// `z` integer (not made primitive).
    pub(crate) fn integer_parts(&self) -> (Vec<BigInt>, BigInt) {
        let mut l = BigInt::one();
        for c in &self.coeffs {
            if !c.denom().is_one() && !(&l % c.denom()).is_zero() {
                l = l.lcm(c.denom());
            }
        }
        let z = if l.is_one() {
            self.coeffs.iter().map(|c| c.numer().clone()).collect()
        } else {
            self.coeffs
                .iter()
                .map(|c| c.numer() * (&l / c.denom()))
                .collect()
        };
        (z, l)
    }

    /// The polynomial `z / l` (`l > 0`); no gcds when `l = 1`.
    pub(crate) fn from_integer_parts(z: Vec<BigInt>, l: &BigInt) -> Poly {
        if l.is_one() {
            Poly::new(z.into_iter().map(BigRational::from_integer).collect())
        } else {
            Poly::new(
                z.into_iter()
                    .map(|c| BigRational::new(c, l.clone()))
                    .collect(),
            )
        }
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
        zx::square_free_factors(&self.to_integer_scaled())
            .into_iter()
            .map(|(f, m)| (Poly::from_bigints(&f).monic(), m))
            .collect()
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
        if c.denom().is_one() && self.is_integral() {
            let k = c.numer();
            return Poly::new(
                self.coeffs
                    .iter()
                    .map(|x| BigRational::from_integer(x.numer() * k))
                    .collect(),
            );
        }
        Poly::new(self.coeffs.iter().map(|x| x * c).collect())
    }

    /// A positive rational multiple of `self` with coprime integer coefficients (signs kept).
    pub(crate) fn to_integer_scaled(&self) -> Vec<BigInt> {
        let mut l = BigInt::one();
        for c in &self.coeffs {
            if !c.denom().is_one() {
                l = l.lcm(c.denom());
            }
        }
        let mut v: Vec<BigInt> = if l.is_one() {
            self.coeffs.iter().map(|c| c.numer().clone()).collect()
        } else {
            self.coeffs
                .iter()
                .map(|c| c.numer() * (&l / c.denom()))
                .collect()
        };
        zx::divide_content(&mut v);
        v
    }

    /// The primitive integer polynomial with positive leading coefficient that is a rational
    /// multiple of `self` (multiplicities kept). Empty for the zero polynomial.
    pub fn primitive_integer(&self) -> Vec<BigInt> {
        let mut v = self.to_integer_scaled();
        if v.last().is_some_and(Signed::is_negative) {
            for c in v.iter_mut() {
                *c = -std::mem::take(c);
            }
        }
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
        if self.is_integral() && rhs.is_integral() {
            return int_combine(self, rhs, false);
        }
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
        if self.is_integral() && rhs.is_integral() {
            return int_combine(self, rhs, true);
        }
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
        // Over a common denominator: integer products, one reduction per coefficient
        // (none when both are integral) instead of a gcd per term.
        let (a, la) = self.integer_parts();
        let (b, lb) = rhs.integer_parts();
        let c = super::zx::mul(&a, &b);
        Poly::from_integer_parts(c, &(la * lb))
    }
}

/// `a ± b` for integral polynomials, without rational arithmetic.
fn int_combine(a: &Poly, b: &Poly, sub: bool) -> Poly {
    let n = a.coeffs.len().max(b.coeffs.len());
    let mut c: Vec<BigInt> = Vec::with_capacity(n);
    for i in 0..n {
        let x = a.coeffs.get(i).map(|r| r.numer());
        let y = b.coeffs.get(i).map(|r| r.numer());
        c.push(match (x, y, sub) {
            (Some(x), Some(y), false) => x + y,
            (Some(x), Some(y), true) => x - y,
            (Some(x), None, _) => x.clone(),
            (None, Some(y), false) => y.clone(),
            (None, Some(y), true) => -y,
            (None, None, _) => BigInt::zero(),
        });
    }
    Poly::from_integer_parts(c, &BigInt::one())
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
            vec![
                (Poly::from_ints(&[-1, 1]), 2),
                (Poly::from_ints(&[2, 1]), 3)
            ]
        );
        assert_eq!(
            f.to_primitive_integer(),
            Poly::from_ints(&[-2, 1, 1]).primitive_integer()
        );
        let g = f.gcd(&Poly::from_ints(&[-1, 0, 1]));
        assert_eq!(g, Poly::from_ints(&[-1, 1]));
    }

    #[test]
    fn shift_and_compose() {
        let p = Poly::from_ints(&[0, 0, 1]);
        assert_eq!(
            p.taylor_shift(&q(1, 2)),
            Poly::new(vec![q(1, 4), q(1, 1), q(1, 1)])
        );
        // p(1 + 2x) = 1 + 4x + 4x²
        assert_eq!(
            p.compose_affine(&q(1, 1), &q(2, 1)),
            Poly::from_ints(&[1, 4, 4])
        );
        assert_eq!(p.sign_at(&q(-1, 3)), Ordering::Greater);
        assert_eq!(p.sign_at(&q(0, 3)), Ordering::Equal);
    }

    #[test]
    fn fast_arithmetic_matches_rational_reference() {
        let mut s = 31u64;
        let rnd = |s: &mut u64| {
            let n = (crate::poly::planted::splitmix64(s) % 4) as usize;
            let den = |s: &mut u64| {
                if crate::poly::planted::splitmix64(s) % 2 == 0 {
                    1
                } else {
                    1 + (crate::poly::planted::splitmix64(s) % 12) as i64
                }
            };
            let c: Vec<BigRational> = (0..=n)
                .map(|_| {
                    let num = (crate::poly::planted::splitmix64(s) % 41) as i64 - 20;
                    q(num, den(s))
                })
                .collect();
            Poly::new(c)
        };
        for _ in 0..300 {
            let (a, b) = (rnd(&mut s), rnd(&mut s));
            let n = a.coeffs.len().max(b.coeffs.len());
            let get = |p: &Poly, i: usize| p.coeffs.get(i).cloned().unwrap_or_default();
            let sum = Poly::new((0..n).map(|i| get(&a, i) + get(&b, i)).collect());
            let dif = Poly::new((0..n).map(|i| get(&a, i) - get(&b, i)).collect());
            let mut prod = vec![BigRational::zero(); (a.coeffs.len() + b.coeffs.len()).max(1)];
            for (i, x) in a.coeffs.iter().enumerate() {
                for (j, y) in b.coeffs.iter().enumerate() {
                    prod[i + j] += x * y;
                }
            }
            assert_eq!(&a + &b, sum);
            assert_eq!(&a - &b, dif);
            assert_eq!(&a * &b, Poly::new(prod));
            let k = q(-3, 1);
            assert_eq!(
                a.scale(&k),
                Poly::new(a.coeffs.iter().map(|x| x * &k).collect())
            );
            for t in [q(-7, 3), q(0, 1), q(5, 2)] {
                let v = a.eval(&t);
                assert_eq!(a.sign_at(&t), v.cmp(&BigRational::zero()));
            }
        }
    }

    #[test]
    fn rational_to_integer() {
        let p = Poly::new(vec![q(-1, 2), q(0, 1), q(-3, 4)]);
        assert_eq!(
            p.to_integer_scaled(),
            vec![BigInt::from(-2), 0.into(), (-3).into()]
        );
        assert_eq!(
            p.primitive_integer(),
            vec![BigInt::from(2), 0.into(), 3.into()]
        );
    }
}
