//! Exact signs in ℚ(√A, √B): numbers `a + b·√A + c·√B + d·√(AB)` with
//! rational coefficients and rational A, B ≥ 0.
//!
//! What `verify` needs to judge claims about rounded shapes, where the
//! penetration depth (`√p + R` or `R − √q`) and a direction's overlap
//! (`s/√N + R`, N = |n|²) are irrational: every comparison of such values
//! is the sign of an element of one such field, decided by squaring with the
//! signs tracked (no float is involved).
//!
//! The sign of `X + Y·√B` (X, Y in ℚ(√A)): the common sign when X and Y agree
//! (or one is 0), otherwise `sign(X)·sign(X² − Y²·B)`, and `X² − Y²·B` is in
//! ℚ(√A), whose signs are decided the same way one level down.

use num_rational::BigRational;
use num_traits::{Signed, Zero};

type Q = BigRational;

/// `a + b·√A + c·√B + d·√(AB)` for the A, B of its [`Field`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Biquad {
    /// The rational part.
    pub a: Q,
    /// The coefficient of √A.
    pub b: Q,
    /// The coefficient of √B.
    pub c: Q,
    /// The coefficient of √(AB).
    pub d: Q,
}

impl Biquad {
    /// The rational `a`.
    pub fn rational(a: Q) -> Biquad {
        Biquad {
            a,
            b: Q::zero(),
            c: Q::zero(),
            d: Q::zero(),
        }
    }

    /// `self + o`.
    pub fn add(&self, o: &Biquad) -> Biquad {
        Biquad {
            a: &self.a + &o.a,
            b: &self.b + &o.b,
            c: &self.c + &o.c,
            d: &self.d + &o.d,
        }
    }

    /// `self − o`.
    pub fn sub(&self, o: &Biquad) -> Biquad {
        Biquad {
            a: &self.a - &o.a,
            b: &self.b - &o.b,
            c: &self.c - &o.c,
            d: &self.d - &o.d,
        }
    }

    /// `k·self` for a rational k.
    pub fn scale(&self, k: &Q) -> Biquad {
        Biquad {
            a: &self.a * k,
            b: &self.b * k,
            c: &self.c * k,
            d: &self.d * k,
        }
    }
}

/// The field ℚ(√A, √B), A, B ≥ 0.
#[derive(Clone, Debug)]
pub struct Field {
    /// A (≥ 0).
    pub a: Q,
    /// B (≥ 0).
    pub b: Q,
}

fn sgn(x: &Q) -> i8 {
    if x.is_positive() {
        1
    } else if x.is_negative() {
        -1
    } else {
        0
    }
}

/// The sign of `a + b·√r` (r ≥ 0), exactly.
fn sign1(a: &Q, b: &Q, r: &Q) -> i8 {
    let sa = sgn(a);
    let sb = if r.is_zero() { 0 } else { sgn(b) };
    if sb == 0 {
        return sa;
    }
    if sa == 0 || sa == sb {
        return sb;
    }
    // Opposite signs: |a| against |b|·√r, squared.
    sa * sgn(&(a * a - b * b * r))
}

impl Field {
    /// x·y.
    pub fn mul(&self, x: &Biquad, y: &Biquad) -> Biquad {
        let (ra, rb) = (&self.a, &self.b);
        let rab = ra * rb;
        Biquad {
            a: &x.a * &y.a + &x.b * &y.b * ra + &x.c * &y.c * rb + &x.d * &y.d * &rab,
            b: &x.a * &y.b + &x.b * &y.a + (&x.c * &y.d + &x.d * &y.c) * rb,
            c: &x.a * &y.c + &x.c * &y.a + (&x.b * &y.d + &x.d * &y.b) * ra,
            d: &x.a * &y.d + &x.d * &y.a + &x.b * &y.c + &x.c * &y.b,
        }
    }

    /// The sign of x (−1, 0 or 1), exactly.
    pub fn sign(&self, x: &Biquad) -> i8 {
        // x = X + Y·√B with X = a + b√A, Y = c + d√A.
        let sx = sign1(&x.a, &x.b, &self.a);
        let sy = if self.b.is_zero() {
            0
        } else {
            sign1(&x.c, &x.d, &self.a)
        };
        if sy == 0 {
            return sx;
        }
        if sx == 0 || sx == sy {
            return sy;
        }
        // X² − Y²·B = (a² + b²A − B(c² + d²A)) + 2(ab − Bcd)·√A.
        let (ra, rb) = (&self.a, &self.b);
        let r = &x.a * &x.a + &x.b * &x.b * ra - rb * (&x.c * &x.c + &x.d * &x.d * ra);
        let s = (&x.a * &x.b - rb * &x.c * &x.d) * Q::from_integer(2.into());
        sx * sign1(&r, &s, ra)
    }

    /// The largest double at most x (±∞ past the finite range), by
    /// bisection over the ordered doubles with an exact sign at each step:
    /// within one ulp of x however much its terms cancel.
    pub fn floor_f64(&self, x: &Biquad) -> f64 {
        // Finite doubles in order ↔ integer keys (−0 and +0 share 0).
        let key = |d: f64| {
            let b = d.to_bits() as i64;
            if b < 0 {
                -(b & i64::MAX)
            } else {
                b
            }
        };
        let from_key = |k: i64| {
            if k < 0 {
                f64::from_bits(k.unsigned_abs() | (1 << 63))
            } else {
                f64::from_bits(k as u64)
            }
        };
        let at_least = |d: f64| {
            let t = Q::from_float(d).unwrap_or_else(Q::zero);
            self.sign(&x.sub(&Biquad::rational(t))) >= 0
        };
        if !at_least(-f64::MAX) {
            return f64::NEG_INFINITY;
        }
        if at_least(f64::MAX) {
            return f64::INFINITY;
        }
        let (mut lo, mut hi) = (key(-f64::MAX), key(f64::MAX));
        while (hi as i128) - (lo as i128) > 1 {
            // (lo + hi)/2 without overflow: the keys span almost 2⁶⁴.
            let mid = ((lo as i128 + hi as i128) / 2) as i64;
            if at_least(from_key(mid)) {
                lo = mid;
            } else {
                hi = mid;
            }
        }
        from_key(lo)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn r(n: i64, d: i64) -> Q {
        Q::new(n.into(), d.into())
    }

    fn bq(a: Q, b: Q, c: Q, d: Q) -> Biquad {
        Biquad { a, b, c, d }
    }

    #[test]
    fn signs_worked_by_hand() {
        // ℚ(√2, √3).
        let f = Field {
            a: r(2, 1),
            b: r(3, 1),
        };
        let z = Q::zero;
        // √2 + √3 − √6 ≈ 0.6967 > 0.
        assert_eq!(f.sign(&bq(z(), r(1, 1), r(1, 1), r(-1, 1))), 1);
        // √2 + √3 − π-ish 3.15: 3.1462… < 3.15.
        assert_eq!(f.sign(&bq(r(-315, 100), r(1, 1), r(1, 1), z())), -1);
        // (√2 + √3)² = 5 + 2√6: the difference is exactly 0.
        let s = bq(z(), r(1, 1), r(1, 1), z());
        let sq = f.mul(&s, &s);
        assert_eq!(sq, bq(r(5, 1), z(), z(), r(2, 1)));
        assert_eq!(f.sign(&sq.sub(&bq(r(5, 1), z(), z(), r(2, 1)))), 0);
        // 5 − 2√6 ≈ 0.1010 > 0; 49/485 ≈ 0.10103 against it: 5 − 2√6 = 0.101020…
        assert_eq!(f.sign(&bq(r(5, 1), z(), z(), r(-2, 1))), 1);
        assert_eq!(f.sign(&bq(r(5 * 485 - 49, 485), z(), z(), r(-2, 1))), -1);
        // √3 − √2 − 0.3178 ≈ +0.00004; − 0.3179 ≈ −0.00006.
        assert_eq!(f.sign(&bq(r(-3178, 10000), r(-1, 1), r(1, 1), z())), 1);
        assert_eq!(f.sign(&bq(r(-3179, 10000), r(-1, 1), r(1, 1), z())), -1);
        // B = 0: √B vanishes.
        // floor_f64: √2 + √3 − √6 = 0.69677462…; 5 − 2√6 = 0.10102051…
        // (cancelling terms); exact values stay exact.
        let x = f.floor_f64(&bq(z(), r(1, 1), r(1, 1), r(-1, 1)));
        assert!((x - 0.696_774_627_158_794).abs() < 1e-12, "{x}");
        let x = f.floor_f64(&bq(r(5, 1), z(), z(), r(-2, 1)));
        assert!((x - 0.101_020_514_433_644).abs() < 1e-14, "{x}");
        assert_eq!(f.floor_f64(&bq(r(-3, 8), z(), z(), z())), -0.375);
        assert_eq!(f.floor_f64(&bq(z(), z(), z(), z())), 0.0);
        let g = Field {
            a: r(2, 1),
            b: Q::zero(),
        };
        assert_eq!(g.sign(&bq(r(-1, 1), r(1, 1), r(100, 1), r(100, 1))), 1);
        assert_eq!(g.sign(&bq(r(-2, 1), r(1, 1), r(100, 1), r(100, 1))), -1);
    }
}
