//! Rational affine motions: the protocol's MOTION forms as one exact type, their
//! inverses and compositions.
//!
//! A motion maps a local point, written as a row vector x, to
//!
//! ```text
//! x ↦ (x·L(t) + T(t)) / d(t)        L: 3×3, T: 1×3, d: polynomials in t
//! ```
//!
//! Albocher et al.'s row-vector, post-multiplication convention (translation in the last
//! row of the 4×4 matrix). A quaternion curve q(t) = (w, x, y, z) becomes
//! L = R(q)ᵀ, T = |q|²·translation, d = |q|², with R(q) the unnormalised rotation
//! matrix (R·Rᵀ = |q|⁴·I).

use crate::ccd::CcdError;
use crate::ccd::{Motion, PolyCoeffs};
use crate::poly::zx;
use crate::poly::{isolate_roots, Poly};
use num_bigint::BigInt;
use num_integer::Integer;
use num_rational::BigRational;
use num_traits::{One, Zero};

/// A 3-vector of polynomials.
pub type PVec = [Poly; 3];

/// x ↦ (x·lin + trans) / den, every entry a polynomial in t with rational coefficients.
#[derive(Clone, Debug, PartialEq)]
pub struct RatAffine {
    /// The linear part's numerator; row i is the image of the i-th unit vector.
    pub lin: [PVec; 3],
    /// The translation's numerator.
    pub trans: PVec,
    /// The common denominator.
    pub den: Poly,
}

fn c(x: BigRational) -> Poly {
    Poly::constant(x)
}

fn zero3() -> PVec {
    [Poly::zero(), Poly::zero(), Poly::zero()]
}

/// The polynomial with these coefficients.
pub fn poly(p: &PolyCoeffs) -> Poly {
    Poly::new(p.clone())
}

/// u·v for polynomial 3-vectors.
pub fn dot(u: &PVec, v: &PVec) -> Poly {
    &(&(&u[0] * &v[0]) + &(&u[1] * &v[1])) + &(&u[2] * &v[2])
}

/// u × v for polynomial 3-vectors.
pub fn cross(u: &PVec, v: &PVec) -> PVec {
    [
        &(&u[1] * &v[2]) - &(&u[2] * &v[1]),
        &(&u[2] * &v[0]) - &(&u[0] * &v[2]),
        &(&u[0] * &v[1]) - &(&u[1] * &v[0]),
    ]
}

/// A constant rational vector as a polynomial vector.
pub fn pconst(v: &crate::Vec3<BigRational>) -> PVec {
    [c(v.x.clone()), c(v.y.clone()), c(v.z.clone())]
}

/// Row vector times matrix: v·m.
pub fn vecmat(v: &PVec, m: &[PVec; 3]) -> PVec {
    let mut out = zero3();
    for (j, o) in out.iter_mut().enumerate() {
        *o = &(&(&v[0] * &m[0][j]) + &(&v[1] * &m[1][j])) + &(&v[2] * &m[2][j]);
    }
    out
}

fn matmul(a: &[PVec; 3], b: &[PVec; 3]) -> [PVec; 3] {
    [vecmat(&a[0], b), vecmat(&a[1], b), vecmat(&a[2], b)]
}

fn add3(u: &PVec, v: &PVec) -> PVec {
    [&u[0] + &v[0], &u[1] + &v[1], &u[2] + &v[2]]
}

fn scale3(u: &PVec, k: &Poly) -> PVec {
    [&u[0] * k, &u[1] * k, &u[2] * k]
}

/// Determinant of a 3×3 polynomial matrix.
pub fn det(m: &[PVec; 3]) -> Poly {
    dot(&m[0], &cross(&m[1], &m[2]))
}

impl RatAffine {
    /// The identity motion.
    pub fn identity() -> Self {
        let one = || Poly::one();
        RatAffine {
            lin: [
                [one(), Poly::zero(), Poly::zero()],
                [Poly::zero(), one(), Poly::zero()],
                [Poly::zero(), Poly::zero(), one()],
            ],
            trans: zero3(),
            den: Poly::one(),
        }
    }

    /// The protocol's MOTION as a rational affine map.
    pub fn from_motion(m: &Motion) -> Self {
        Self::from_motion_raw(m).integral()
    }

    fn from_motion_raw(m: &Motion) -> Self {
        match m {
            Motion::Identity => Self::identity(),
            Motion::Matrix { rows, denominator } => RatAffine {
                lin: [0, 1, 2].map(|i| [0, 1, 2].map(|j| poly(&rows[i][j]))),
                trans: [0, 1, 2].map(|j| poly(&rows[3][j])),
                den: poly(denominator),
            },
            Motion::Quaternion { q, translation } => {
                let [w, x, y, z] = [0, 1, 2, 3].map(|i| poly(&q[i]));
                let sq = |p: &Poly| p * p;
                let two = |p: Poly| p.scale(&BigRational::from_integer(2.into()));
                let (ww, xx, yy, zz) = (sq(&w), sq(&x), sq(&y), sq(&z));
                let n2 = &(&ww + &xx) + &(&yy + &zz);
                // Column-convention R(q) (unnormalised): R·v = q·v·q̄.
                let r = [
                    [
                        &(&ww + &xx) - &(&yy + &zz),
                        two(&(&x * &y) - &(&w * &z)),
                        two(&(&x * &z) + &(&w * &y)),
                    ],
                    [
                        two(&(&x * &y) + &(&w * &z)),
                        &(&ww - &xx) + &(&yy - &zz),
                        two(&(&y * &z) - &(&w * &x)),
                    ],
                    [
                        two(&(&x * &z) - &(&w * &y)),
                        two(&(&y * &z) + &(&w * &x)),
                        &(&ww - &xx) - &(&yy - &zz),
                    ],
                ];
                // Row-vector convention: the 3×3 block is Rᵀ.
                let lin = [0, 1, 2].map(|i| [0, 1, 2].map(|j| r[j][i].clone()));
                let t = [0, 1, 2].map(|j| poly(&translation[j]));
                RatAffine {
                    lin,
                    trans: scale3(&t, &n2),
                    den: n2,
                }
            }
        }
    }

    /// The constant affine map x ↦ (x − origin)·m.
    pub fn constant(m: &[crate::Vec3<BigRational>; 3], origin: &crate::Vec3<BigRational>) -> Self {
        let lin = [pconst(&m[0]), pconst(&m[1]), pconst(&m[2])];
        let o = pconst(origin);
        let t = vecmat(&o, &lin);
        RatAffine {
            lin,
            trans: [-&t[0], -&t[1], -&t[2]],
            den: Poly::one(),
        }
        .integral()
    }

    fn entries(&self) -> impl Iterator<Item = &Poly> {
        self.lin
            .iter()
            .flatten()
            .chain(self.trans.iter())
            .chain([&self.den])
    }

    /// The same map with integer coefficients: all 13 entries multiplied by one positive
    /// rational (the lcm of the denominators over the gcd of the numerators), so the
    /// later polynomial products need no rational arithmetic.
    pub fn integral(self) -> RatAffine {
        let mut l = BigInt::one();
        for p in self.entries() {
            for x in p.coeffs() {
                if !x.denom().is_one() && !(&l % x.denom()).is_zero() {
                    l = l.lcm(x.denom());
                }
            }
        }
        let conv = |p: &Poly| -> Vec<BigInt> {
            if l.is_one() {
                p.coeffs().iter().map(|x| x.numer().clone()).collect()
            } else {
                p.coeffs()
                    .iter()
                    .map(|x| x.numer() * (&l / x.denom()))
                    .collect()
            }
        };
        let mut z: Vec<Vec<BigInt>> = self.entries().map(conv).collect();
        let mut g = BigInt::zero();
        for p in &z {
            if g.is_one() {
                break;
            }
            let c = zx::content(p);
            g = g.gcd(&c);
        }
        let divide = g > BigInt::one();
        if l.is_one() && !divide {
            return self;
        }
        if divide {
            for c in z.iter_mut().flatten() {
                *c /= &g;
            }
        }
        let mut it = z.into_iter().map(|v| Poly::from_bigints(&v));
        let mut next = || it.next().expect("13 entries");
        let lin = [0, 1, 2].map(|_| [0, 1, 2].map(|_| next()));
        let trans = [0, 1, 2].map(|_| next());
        let den = next();
        RatAffine { lin, trans, den }
    }

    /// `self` followed by `next` (row vectors: x·self·next).
    pub fn then(&self, next: &RatAffine) -> RatAffine {
        let lin = matmul(&self.lin, &next.lin);
        let trans = add3(
            &vecmat(&self.trans, &next.lin),
            &scale3(&next.trans, &self.den),
        );
        RatAffine {
            lin,
            trans,
            den: &self.den * &next.den,
        }
        .reduced()
    }

    /// The inverse map, y ↦ (y·d − T)·adj(L) / det(L), reduced.
    pub fn inverse(&self) -> RatAffine {
        let l = &self.lin;
        // Rigid (quaternion) motions: L·Lᵀ = d²·I and T = d·t, so the inverse is
        // y ↦ (y − t)·Lᵀ / d, already reduced (no gcds needed).
        let lt = [0, 1, 2].map(|i| [0, 1, 2].map(|j| l[j][i].clone()));
        let d2 = &self.den * &self.den;
        let orthogonal = (0..3).all(|i| {
            (0..3).all(|j| {
                let e = dot(&l[i], &l[j]);
                if i == j {
                    e == d2
                } else {
                    e.is_zero()
                }
            })
        });
        if orthogonal {
            let t: Option<Vec<Poly>> = self.trans.iter().map(|p| p.div_exact(&self.den)).collect();
            if let Some(t) = t {
                let t = [t[0].clone(), t[1].clone(), t[2].clone()];
                let tl = vecmat(&t, &lt);
                return RatAffine {
                    lin: lt,
                    trans: [-&tl[0], -&tl[1], -&tl[2]],
                    den: self.den.clone(),
                }
                .integral();
            }
        }
        // adj(L) = transpose of the cofactor matrix; for rows r0, r1, r2 its
        // columns are r1×r2, r2×r0, r0×r1.
        let cols = [
            cross(&l[1], &l[2]),
            cross(&l[2], &l[0]),
            cross(&l[0], &l[1]),
        ];
        let adj = [0, 1, 2].map(|i| [0, 1, 2].map(|j| cols[j][i].clone()));
        let lin = [0, 1, 2].map(|i| scale3(&adj[i], &self.den));
        let t = vecmat(&self.trans, &adj);
        RatAffine {
            lin,
            trans: [-&t[0], -&t[1], -&t[2]],
            den: det(l),
        }
        .reduced()
    }

    /// The determinant of the linear part's numerator.
    pub fn det(&self) -> Poly {
        det(&self.lin)
    }

    /// Divides every entry by their common polynomial gcd (the map is unchanged).
    pub fn reduced(self) -> RatAffine {
        let mut m = self.integral();
        // Cheap certificate of coprimality (the usual case): gcd modulo a prime.
        let z: Vec<Vec<BigInt>> = m
            .entries()
            .filter(|p| !p.is_zero())
            .map(|p| p.integer_parts().0)
            .collect();
        let den = m.den.integer_parts().0;
        let mut refs: Vec<&[BigInt]> = vec![&den];
        refs.extend(z.iter().map(Vec::as_slice));
        if den.len() <= 1 || zx::coprime_mod_p(&refs) {
            return m;
        }
        // Otherwise the exact gcd over ℤ (primitive), and exact integer division.
        let mut g = zx::gcd(&den, &den);
        for p in &z {
            if g.len() <= 1 {
                return m;
            }
            g = zx::gcd(&g, p);
        }
        if g.len() <= 1 {
            return m;
        }
        let div = |p: &Poly| {
            let q = zx::div_exact(&p.integer_parts().0, &g).expect("gcd divides");
            Poly::from_bigints(&q)
        };
        for p in m.lin.iter_mut().flatten().chain(m.trans.iter_mut()) {
            *p = div(p);
        }
        m.den = div(&m.den);
        m.integral()
    }

    /// The former gcd reduction over ℚ, kept as the reference for the tests.
    pub fn reduced_reference(mut self) -> RatAffine {
        let mut g = self.den.clone();
        for p in self.lin.iter().flatten().chain(self.trans.iter()) {
            if g.degree() == Some(0) {
                return self;
            }
            if !p.is_zero() {
                g = g.gcd(p);
            }
        }
        if g.degree().unwrap_or(0) == 0 {
            return self;
        }
        let div = |p: &Poly| p.div_exact(&g).expect("gcd divides");
        for p in self.lin.iter_mut().flatten().chain(self.trans.iter_mut()) {
            *p = div(p);
        }
        self.den = div(&self.den);
        self
    }

    /// The image of a local point, as (numerator, denominator).
    pub fn point(&self, p: &crate::Vec3<BigRational>) -> PVec {
        add3(&vecmat(&pconst(p), &self.lin), &self.trans)
    }

    /// The image of a local vector (numerator over `den`).
    pub fn vector(&self, v: &crate::Vec3<BigRational>) -> PVec {
        vecmat(&pconst(v), &self.lin)
    }

    /// Evaluate at a rational time: (L, T, d).
    pub fn eval_point(
        &self,
        p: &crate::Vec3<BigRational>,
        t: &BigRational,
    ) -> crate::Vec3<BigRational> {
        let n = self.point(p);
        let d = self.den.eval(t);
        crate::Vec3::new(n[0].eval(t) / &d, n[1].eval(t) / &d, n[2].eval(t) / &d)
    }

    /// The image of a local vector at a rational time.
    pub fn eval_vector(
        &self,
        v: &crate::Vec3<BigRational>,
        t: &BigRational,
    ) -> crate::Vec3<BigRational> {
        let n = self.vector(v);
        let d = self.den.eval(t);
        crate::Vec3::new(n[0].eval(t) / &d, n[1].eval(t) / &d, n[2].eval(t) / &d)
    }
}

/// `Ok` if `p` has no root in the closed range, else an error naming `what`.
pub fn nonvanishing(
    p: &Poly,
    t0: &BigRational,
    t1: &BigRational,
    what: &str,
) -> Result<(), CcdError> {
    if p.is_zero() || !isolate_roots(p, t0, t1).isolated().is_empty() {
        return Err(CcdError::Vanishes(what.to_string()));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::poly::planted::{random_integer_poly, splitmix64};

    fn heavy() -> bool {
        std::env::var("EXACT_HEAVY").is_ok_and(|v| v == "1")
    }

    /// Same map: every entry over its denominator agrees (cross-multiplied).
    fn same_map(a: &RatAffine, b: &RatAffine) -> bool {
        let ea = a.lin.iter().flatten().chain(a.trans.iter());
        let eb = b.lin.iter().flatten().chain(b.trans.iter());
        ea.zip(eb).all(|(p, q)| p * &b.den == q * &a.den)
    }

    /// A random map with small entries; with `plant`, a common factor of degree 1–2
    /// (and a rational scale) is multiplied into all 13 entries.
    fn random_map(s: &mut u64, plant: bool) -> RatAffine {
        let p = |s: &mut u64| {
            let d = (splitmix64(s) % 3) as usize;
            random_integer_poly(s, d, 3)
        };
        let mut m = RatAffine {
            lin: [0, 1, 2].map(|_| [0, 1, 2].map(|_| p(s))),
            trans: [0, 1, 2].map(|_| p(s)),
            den: p(s),
        };
        if plant {
            let d = 1 + (splitmix64(s) % 2) as usize;
            let f = random_integer_poly(s, d, 3).scale(&BigRational::new(3.into(), 7.into()));
            for e in m.lin.iter_mut().flatten().chain(m.trans.iter_mut()) {
                *e = &*e * &f;
            }
            m.den = &m.den * &f;
        }
        m
    }

    #[test]
    fn reduced_fast_path_matches_gcd_reference() {
        let mut s = 2024u64;
        let n = if heavy() { 3000 } else { 300 };
        let mut planted_reduced = 0;
        for i in 0..n {
            let m = random_map(&mut s, i % 2 == 0);
            let fast = m.clone().reduced();
            let slow = m.clone().reduced_reference();
            assert!(same_map(&fast, &m), "reduced changed the map");
            assert!(same_map(&fast, &slow));
            // Both fully reduced: the same denominator degree.
            assert_eq!(fast.den.degree(), slow.den.degree(), "case {i}");
            assert!(fast.entries().all(Poly::is_integral));
            if fast.den.degree() < m.den.degree() {
                planted_reduced += 1;
            }
        }
        // The planted factors were found (at least in most planted cases).
        assert!(planted_reduced >= n / 4, "{planted_reduced}");
    }

    #[test]
    fn integral_keeps_the_map() {
        let q = |n: i64, d: i64| Poly::constant(BigRational::new(n.into(), d.into()));
        let x = Poly::x();
        let m = RatAffine {
            lin: [
                [q(3, 2), q(0, 1), &x * &q(3, 4)],
                [q(0, 1), q(6, 5), q(0, 1)],
                [q(0, 1), q(0, 1), q(9, 10)],
            ],
            trans: [q(3, 2), &x * &q(-3, 8), q(0, 1)],
            den: &(&x * &q(3, 4)) + &q(3, 2),
        };
        let z = m.clone().integral();
        assert!(same_map(&z, &m));
        assert!(z.entries().all(Poly::is_integral));
        // ×40 (lcm of the denominators 2, 4, 5, 10, 8) gives 60, 30x, 48, 36, 60, −15x,
        // 30x + 60: content 3, divided out.
        assert_eq!(z.den, Poly::from_ints(&[20, 10]));
    }
}
