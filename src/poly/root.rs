//! Real algebraic numbers given by an isolating interval: refinement, exact sign of another
//! polynomial at the root, exact comparison.

use std::cmp::Ordering;
use std::sync::Arc;

use num_bigint::BigInt;
use num_rational::BigRational;
use num_traits::{One, Signed, ToPrimitive};

use super::dense::Poly;
use super::zx;

/// An open interval `(lo, hi)` with rational endpoints that contains exactly one real root of
/// a square-free integer polynomial, and no root at either endpoint.
///
/// Invariants (established by [`isolate_roots`](super::isolate_roots) or checked by
/// [`IsolatingInterval::verify`]; the fields are private so nothing else can build one):
///
/// ```text
/// poly  primitive, square-free, positive leading coefficient, integer coefficients
/// lo < hi,  poly(lo) ≠ 0,  poly(hi) ≠ 0,  sign poly(lo) = −sign poly(hi)
/// exactly one root α of poly with lo < α < hi
/// ```
#[derive(Clone, Debug)]
pub struct IsolatingInterval {
    poly: Arc<[BigInt]>,
    lo: BigRational,
    hi: BigRational,
    sign_lo: Ordering,
    /// Quadratic interval refinement state: the next step tries a subinterval of width
    /// `(hi − lo) / 2^qir_log`.
    qir_log: u32,
    /// Whether the float-guided step ([`IsolatingInterval::float_jump`]) was tried.
    float_tried: bool,
}

/// A real root: either a rational number known exactly, or an algebraic number given by an
/// isolating interval of its square-free defining polynomial.
#[derive(Clone, Debug)]
pub enum RealRoot {
    /// The root is exactly this rational number.
    Exact(BigRational),
    /// The root is the unique root of the interval's polynomial inside the interval.
    Interval(IsolatingInterval),
}

/// A real root together with its multiplicity as a root of the input polynomial
/// (2 for a double root: a tangential contact).
#[derive(Clone, Debug)]
pub struct Root {
    /// The root.
    pub value: RealRoot,
    /// Multiplicity in the polynomial that was isolated (≥ 1).
    pub multiplicity: u32,
}

/// Exact order of two rationals by cross-multiplication (denominators are positive):
/// two products instead of num-rational's division-based comparison.
pub fn qcmp(a: &BigRational, b: &BigRational) -> Ordering {
    if a.denom() == b.denom() {
        return a.numer().cmp(b.numer());
    }
    (a.numer() * b.denom()).cmp(&(b.numer() * a.denom()))
}

/// `num / den` (den > 0) against a rational, by cross-multiplication.
fn cmp_frac(num: &BigInt, den: &BigInt, b: &BigRational) -> Ordering {
    (num * b.denom()).cmp(&(b.numer() * den))
}

/// The exact value of a finite double, in lowest terms (a power-of-two denominator).
fn f64_to_rational(x: f64) -> Option<BigRational> {
    use num_traits::float::FloatCore;
    if !x.is_finite() {
        return None;
    }
    let (m, e, sign) = FloatCore::integer_decode(x);
    if m == 0 {
        return Some(BigRational::from_integer(BigInt::from(0)));
    }
    let tz = m.trailing_zeros();
    let (m, e) = (m >> tz, i32::from(e) + tz as i32);
    let n = if sign < 0 {
        -BigInt::from(m)
    } else {
        BigInt::from(m)
    };
    Some(if e >= 0 {
        BigRational::from_integer(n << e as u32)
    } else {
        BigRational::new_raw(n, BigInt::one() << (-e) as u32)
    })
}

/// The exact midpoint of two finite doubles, as `(numerator, denominator = 2^k)`.
pub(crate) fn f64_midpoint(d: f64, n: f64) -> (BigInt, BigInt) {
    use num_traits::float::FloatCore;
    let (md, ed, sd) = FloatCore::integer_decode(d);
    let (mn, en, sn) = FloatCore::integer_decode(n);
    let e0 = i32::from(ed.min(en));
    let part = |m: u64, e: i16, s: i8| {
        let v = BigInt::from(m) << (i32::from(e) - e0) as u32;
        if s < 0 {
            -v
        } else {
            v
        }
    };
    let sum = part(md, ed, sd) + part(mn, en, sn);
    // (d + n)/2 = sum · 2^(e0 − 1)
    let k = e0 - 1;
    if k >= 0 {
        (sum << k as u32, BigInt::one())
    } else {
        (sum, BigInt::one() << (-k) as u32)
    }
}

/// `(n, e)` with `x = n / 2^e` if x's denominator is a power of two.
fn dyadic(x: &BigRational) -> Option<(BigInt, u64)> {
    let d = x.denom();
    let z = d.trailing_zeros()?;
    (d.bits() == z + 1).then(|| (x.numer().clone(), z))
}

/// `n / 2^e` in lowest terms (the common powers of two shifted out).
fn from_dyadic(n: BigInt, e: u64) -> BigRational {
    let z = n.trailing_zeros().unwrap_or(e).min(e);
    BigRational::new_raw(n >> z, BigInt::one() << (e - z))
}

/// The ends of an interval with power-of-two denominators on one scale:
/// `(a, b, e)` with `lo = a / 2^e`, `hi = b / 2^e`.
fn dyadic_pair(lo: &BigRational, hi: &BigRational) -> Option<(BigInt, BigInt, u64)> {
    let ((a, ea), (b, eb)) = (dyadic(lo)?, dyadic(hi)?);
    let e = ea.max(eb);
    Some((a << (e - ea), b << (e - eb), e))
}

fn mid(a: &BigRational, b: &BigRational) -> BigRational {
    (a + b) / BigRational::from_integer(2.into())
}

impl IsolatingInterval {
    /// Internal constructor: the caller (the isolation code) has established the invariants.
    pub(crate) fn new_unchecked(
        poly: Arc<[BigInt]>,
        lo: BigRational,
        hi: BigRational,
        sign_lo: Ordering,
    ) -> Self {
        debug_assert!(lo < hi);
        debug_assert_eq!(zx::sign_at(&poly, &lo), sign_lo);
        debug_assert_eq!(zx::sign_at(&poly, &hi), sign_lo.reverse());
        debug_assert_ne!(sign_lo, Ordering::Equal);
        IsolatingInterval {
            poly,
            lo,
            hi,
            sign_lo,
            qir_log: 2,
            float_tried: false,
        }
    }

    /// Checks a claimed isolating interval: `Some` iff `lo < hi`, `poly` is nonzero, neither
    /// endpoint is a root, and the square-free part of `poly` has exactly one root in
    /// `(lo, hi)`. The interval then holds [`Poly::to_primitive_integer`] of `poly`.
    ///
    /// ```
    /// use exact_collision::poly::{IsolatingInterval, Poly};
    /// use num_rational::BigRational;
    ///
    /// let p = Poly::from_ints(&[-2, 0, 1]); // x² − 2
    /// let r = |n: i64| BigRational::from_integer(n.into());
    /// assert!(IsolatingInterval::verify(&p, &r(1), &r(2)).is_some());
    /// assert!(IsolatingInterval::verify(&p, &r(-2), &r(2)).is_none()); // two roots
    /// ```
    pub fn verify(poly: &Poly, lo: &BigRational, hi: &BigRational) -> Option<Self> {
        if lo >= hi || poly.is_zero() {
            return None;
        }
        let f: Arc<[BigInt]> = poly.to_primitive_integer().into();
        let s_lo = zx::sign_at(&f, lo);
        let s_hi = zx::sign_at(&f, hi);
        if s_lo == Ordering::Equal || s_hi == Ordering::Equal || s_lo == s_hi {
            return None;
        }
        let count = match super::isolate::isolate_roots(poly, lo, hi) {
            super::isolate::Roots::Isolated(v) => v.len(),
            super::isolate::Roots::Everywhere => return None,
        };
        (count == 1).then(|| Self::new_unchecked(f, lo.clone(), hi.clone(), s_lo))
    }

    /// Lower endpoint (excluded).
    pub fn lo(&self) -> &BigRational {
        &self.lo
    }

    /// Upper endpoint (excluded).
    pub fn hi(&self) -> &BigRational {
        &self.hi
    }

    /// Width `hi − lo`.
    pub fn width(&self) -> BigRational {
        &self.hi - &self.lo
    }

    /// Sign of the polynomial at `lo` (never `Equal`).
    pub fn sign_at_lo(&self) -> Ordering {
        self.sign_lo
    }

    /// Sign of the polynomial at `hi` (never `Equal`, opposite to [`Self::sign_at_lo`]).
    pub fn sign_at_hi(&self) -> Ordering {
        self.sign_lo.reverse()
    }

    /// The defining polynomial: primitive, square-free, positive leading coefficient,
    /// integer coefficients in ascending powers.
    pub fn coeffs(&self) -> &[BigInt] {
        &self.poly
    }

    /// The defining polynomial as a [`Poly`].
    pub fn poly(&self) -> Poly {
        Poly::from_bigints(&self.poly)
    }

    pub(crate) fn shares_poly(&self, other: &Self) -> bool {
        Arc::ptr_eq(&self.poly, &other.poly) || self.poly == other.poly
    }

    /// Where the root lies relative to the rational `x`: `Less` if α < x, etc. Exact, no
    /// refinement.
    pub fn cmp_rational(&self, x: &BigRational) -> Ordering {
        if qcmp(x, &self.lo).is_le() {
            return Ordering::Greater;
        }
        if qcmp(x, &self.hi).is_ge() {
            return Ordering::Less;
        }
        match zx::sign_at(&self.poly, x) {
            Ordering::Equal => Ordering::Equal,
            // Same sign as at lo: no root in (lo, x], so α > x.
            s if s == self.sign_lo => Ordering::Greater,
            _ => Ordering::Less,
        }
    }

    /// Moves one endpoint to `m` (strictly inside), given the sign there; `Err(m)` if `m` is
    /// the root.
    fn cut(&mut self, m: BigRational, s: Ordering) -> Result<(), BigRational> {
        match s {
            Ordering::Equal => Err(m),
            s if s == self.sign_lo => {
                self.lo = m;
                Ok(())
            }
            _ => {
                self.hi = m;
                Ok(())
            }
        }
    }

    /// One bisection step. `Err(x)` if the midpoint `x` is the root.
    pub(crate) fn bisect(&mut self) -> Result<(), BigRational> {
        let m = match dyadic_pair(&self.lo, &self.hi) {
            // Dyadic ends: the midpoint without a gcd.
            Some((a, b, e)) => from_dyadic(a + b, e + 1),
            None => mid(&self.lo, &self.hi),
        };
        let s = zx::sign_at(&self.poly, &m);
        self.cut(m, s)
    }

    /// Float-guided refinement: locates the root by bisection on the polynomial rounded
    /// to `f64`, then proposes a narrow interval (a few ulps) around it with dyadic
    /// endpoints and keeps it only if two exact sign evaluations prove a sign change
    /// there (wider proposals are tried if not). The new interval lies inside the old one,
    /// which isolates a single root, so it isolates the same root; floating point only
    /// chooses where to look. `Ok(true)` if the interval shrank, `Err(x)` if an endpoint
    /// tried is the root.
    pub(crate) fn float_jump(&mut self) -> Result<bool, BigRational> {
        self.float_tried = true;
        let (Some(a), Some(b)) = (self.lo.to_f64(), self.hi.to_f64()) else {
            return Ok(false);
        };
        if !a.is_finite() || !b.is_finite() {
            return Ok(false);
        }
        // The coefficients scaled by one power of two (the same roots) so that the
        // largest is about 2⁵⁰⁰: coefficients beyond the double range still guide.
        let top = self.poly.iter().map(|x| x.bits()).max().unwrap_or(0);
        let shift = top.saturating_sub(500);
        let c: Vec<f64> = self
            .poly
            .iter()
            .map(|x| {
                if shift == 0 {
                    x.to_f64().unwrap_or(f64::NAN)
                } else {
                    (x >> shift).to_f64().unwrap_or(f64::NAN)
                }
            })
            .collect();
        if c.iter().any(|x| !x.is_finite()) {
            return Ok(false);
        }
        let eval = |x: f64| c.iter().rev().fold(0.0, |acc, &k| acc * x + k);
        let up = self.sign_lo == Ordering::Less;
        let (mut l, mut h) = (a, b);
        for _ in 0..100 {
            let m = 0.5 * (l + h);
            if m <= l || m >= h {
                break;
            }
            let v = eval(m);
            if v == 0.0 {
                l = m;
                h = m;
                break;
            }
            // Same sign as at lo: the root is to the right of m.
            if (v < 0.0) == up {
                l = m;
            } else {
                h = m;
            }
        }
        let r = 0.5 * (l + h);
        let ulp = r.abs().max(1e-300) * f64::EPSILON;
        for k in [4.0, 256.0, 65536.0, 16777216.0] {
            let d = ulp * k;
            let (Some(x), Some(y)) = (f64_to_rational(r - d), f64_to_rational(r + d)) else {
                return Ok(false);
            };
            let inside = |z: &BigRational| qcmp(z, &self.lo).is_gt() && qcmp(z, &self.hi).is_lt();
            let (x_in, y_in) = (inside(&x), inside(&y));
            if !x_in && !y_in {
                // The proposal covers the whole interval: no progress possible.
                return Ok(false);
            }
            let sx = if x_in {
                zx::sign_at(&self.poly, &x)
            } else {
                self.sign_lo
            };
            if sx == Ordering::Equal {
                return Err(x);
            }
            if sx != self.sign_lo {
                continue;
            }
            let sy = if y_in {
                zx::sign_at(&self.poly, &y)
            } else {
                self.sign_lo.reverse()
            };
            if sy == Ordering::Equal {
                return Err(y);
            }
            if sy == self.sign_lo {
                continue;
            }
            if x_in {
                self.lo = x;
            }
            if y_in {
                self.hi = y;
            }
            return Ok(true);
        }
        Ok(false)
    }

    /// The nearest double to the root (ties to even), if the enclosure spans only a few
    /// doubles: the rounding boundaries — the midpoints between consecutive doubles,
    /// dyadic rationals — are located against the root by exact sign evaluations.
    fn nearest_f64(&self) -> Option<f64> {
        let (a, b) = (self.lo.to_f64()?, self.hi.to_f64()?);
        if !a.is_finite() || !b.is_finite() {
            return None;
        }
        // Where the root lies relative to the rounding boundary m = (d + n)/2.
        let side = |d: f64, n: f64| {
            let (mn, md) = f64_midpoint(d, n);
            if cmp_frac(&mn, &md, &self.lo).is_le() {
                Ordering::Greater
            } else if cmp_frac(&mn, &md, &self.hi).is_ge() {
                Ordering::Less
            } else {
                match zx::ord_of(&zx::eval_hom(&self.poly, &mn, &md)) {
                    Ordering::Equal => Ordering::Equal,
                    s if s == self.sign_lo => Ordering::Greater,
                    _ => Ordering::Less,
                }
            }
        };
        let even = |d: f64, n: f64| if d.to_bits() & 1 == 0 { d } else { n };
        // Start one double below round(lo) and check that the root is above the rounding
        // boundary below it (so nothing relies on how `lo` was converted).
        let mut d = a.next_down();
        let below = d.next_down();
        if !below.is_finite() {
            return None;
        }
        match side(below, d) {
            Ordering::Greater => {}
            Ordering::Equal => return Some(even(below, d)),
            Ordering::Less => return None,
        }
        for _ in 0..16 {
            let n = d.next_up();
            if !n.is_finite() || d > b.next_up() {
                return None;
            }
            match side(d, n) {
                Ordering::Less => return Some(d),
                Ordering::Equal => return Some(even(d, n)),
                Ordering::Greater => d = n,
            }
        }
        None
    }

    /// One step of Abbott's quadratic interval refinement: guess the root's position among
    /// `N = 2^qir_log` equal subintervals by the secant through the endpoint values, and test
    /// the guessed subinterval with at most two sign evaluations. On success the width shrinks
    /// by the factor N and N is squared; on failure the step bisects and N is square-rooted.
    /// `Err(x)` if an evaluation point `x` is the root.
    pub(crate) fn qir_step(&mut self) -> Result<(), BigRational> {
        if self.qir_log <= 1 {
            self.qir_log = 2;
            return self.bisect();
        }
        if let Some((a, b, e)) = dyadic_pair(&self.lo, &self.hi) {
            return self.qir_step_dyadic(a, b, e);
        }
        self.qir_step_rational()
    }

    /// [`Self::qir_step`] in rationals (any ends).
    fn qir_step_rational(&mut self) -> Result<(), BigRational> {
        let fa = zx::value_at(&self.poly, &self.lo);
        let fb = zx::value_at(&self.poly, &self.hi);
        let n = BigInt::one() << self.qir_log;
        let big_n = BigRational::from_integer(n.clone());
        // λ ∈ (0, 1) because fa and fb have opposite signs.
        let lambda = &fa / (&fa - &fb);
        let k = (lambda * &big_n + BigRational::new(1.into(), 2.into())).floor();
        let k = k.to_integer().clamp(BigInt::one(), &n - 1u32);
        let w = self.width() / &big_n;
        let m = &self.lo + &w * BigRational::from_integer(k);
        let s = zx::sign_at(&self.poly, &m);
        let (a, b) = match s {
            Ordering::Equal => return Err(m),
            s if s == self.sign_lo => {
                let b = &m + &w;
                let sb = zx::sign_at(&self.poly, &b);
                if sb == Ordering::Equal {
                    return Err(b);
                }
                if sb == s {
                    (None, Some((m, b)))
                } else {
                    (Some((m, b)), None)
                }
            }
            _ => {
                let a = &m - &w;
                let sa = zx::sign_at(&self.poly, &a);
                if sa == Ordering::Equal {
                    return Err(a);
                }
                if sa == s {
                    (None, Some((a, m)))
                } else {
                    (Some((a, m)), None)
                }
            }
        };
        if let Some((a, b)) = a {
            self.lo = a;
            self.hi = b;
            self.qir_log = self.qir_log.saturating_mul(2).min(1 << 20);
            return Ok(());
        }
        // Failure: the secant guess missed; keep what the evaluations proved and bisect.
        let (x, y) = b.expect("one branch");
        // The root lies outside [x, y] but the sign at x and y is known: shrink to one side.
        let sx = zx::sign_at(&self.poly, &x);
        if sx == self.sign_lo {
            self.lo = y;
        } else {
            self.hi = x;
        }
        self.qir_log /= 2;
        self.bisect()
    }
}

impl IsolatingInterval {
    /// [`Self::qir_step`] for ends with power-of-two denominators, `lo = a / 2^e`,
    /// `hi = b / 2^e`: the same steps (the same guess k, the same points, the same
    /// new interval) in integers on one dyadic scale, without gcds. The values
    /// `2^(e·d)·f(x)` at both ends share one positive factor, so their ratio is
    /// the secant's λ; the N subintervals have the ends `(a·N + (b − a)·j) / 2^(e + log N)`.
    fn qir_step_dyadic(&mut self, a: BigInt, b: BigInt, e: u64) -> Result<(), BigRational> {
        use num_integer::Integer;
        let log = self.qir_log as u64;
        let den = BigInt::one() << e;
        let fa = zx::eval_hom(&self.poly, &a, &den);
        let fb = zx::eval_hom(&self.poly, &b, &den);
        let n = BigInt::one() << log;
        // k = ⌊λ·N + 1/2⌋ = ⌊(2·fa·N + (fa − fb)) / (2·(fa − fb))⌋, λ = fa / (fa − fb).
        let d = &fa - &fb;
        let k = ((&fa << (log + 1)) + &d).div_floor(&(&d << 1u32));
        let k = k.clamp(BigInt::one(), &n - 1u32);
        let big_e = e + log;
        let den_e = BigInt::one() << big_e;
        let w = &b - &a;
        let m = (&a << log) + &w * &k;
        let sign = |x: &BigInt| zx::ord_of(&zx::eval_hom(&self.poly, x, &den_e));
        let s = sign(&m);
        let (a2, b2) = match s {
            Ordering::Equal => return Err(from_dyadic(m, big_e)),
            s if s == self.sign_lo => {
                let b2 = &m + &w;
                let sb = sign(&b2);
                if sb == Ordering::Equal {
                    return Err(from_dyadic(b2, big_e));
                }
                if sb == s {
                    (None, Some((m, b2)))
                } else {
                    (Some((m, b2)), None)
                }
            }
            _ => {
                let a2 = &m - &w;
                let sa = sign(&a2);
                if sa == Ordering::Equal {
                    return Err(from_dyadic(a2, big_e));
                }
                if sa == s {
                    (None, Some((a2, m)))
                } else {
                    (Some((a2, m)), None)
                }
            }
        };
        if let Some((x, y)) = a2 {
            self.lo = from_dyadic(x, big_e);
            self.hi = from_dyadic(y, big_e);
            self.qir_log = self.qir_log.saturating_mul(2).min(1 << 20);
            return Ok(());
        }
        // Failure: keep what the evaluations proved and bisect (as `qir_step`).
        let (x, y) = b2.expect("one branch");
        if sign(&x) == self.sign_lo {
            self.lo = from_dyadic(y, big_e);
        } else {
            self.hi = from_dyadic(x, big_e);
        }
        self.qir_log /= 2;
        self.bisect()
    }
}

impl RealRoot {
    /// Lower end of the enclosure (the value itself if exact).
    pub fn lo(&self) -> &BigRational {
        match self {
            RealRoot::Exact(x) => x,
            RealRoot::Interval(i) => &i.lo,
        }
    }

    /// Upper end of the enclosure (the value itself if exact).
    pub fn hi(&self) -> &BigRational {
        match self {
            RealRoot::Exact(x) => x,
            RealRoot::Interval(i) => &i.hi,
        }
    }

    /// `Some(x)` if the root is known to be the rational `x`.
    pub fn as_exact(&self) -> Option<&BigRational> {
        match self {
            RealRoot::Exact(x) => Some(x),
            RealRoot::Interval(_) => None,
        }
    }

    /// Width of the enclosure (zero if exact).
    pub fn width(&self) -> BigRational {
        self.hi() - self.lo()
    }

    /// One refinement step (quadratic interval refinement, falling back to bisection); may
    /// turn the root into [`RealRoot::Exact`] if an evaluation point hits it.
    pub fn refine_step(&mut self) {
        if let RealRoot::Interval(i) = self {
            if !i.float_tried {
                match i.float_jump() {
                    Ok(true) => return,
                    Ok(false) => {}
                    Err(x) => {
                        *self = RealRoot::Exact(x);
                        return;
                    }
                }
            }
            let RealRoot::Interval(i) = self else {
                unreachable!()
            };
            if let Err(x) = i.qir_step() {
                *self = RealRoot::Exact(x);
            }
        }
    }

    fn bisect(&mut self) {
        if let RealRoot::Interval(i) = self {
            if let Err(x) = i.bisect() {
                *self = RealRoot::Exact(x);
            }
        }
    }

    /// Refines until the enclosure is at most `w` wide (`w > 0`), using Abbott's quadratic
    /// interval refinement (quadratic convergence once close, bisection otherwise).
    ///
    /// ```
    /// use exact_collision::poly::{isolate_roots, Poly, Roots};
    /// use num_rational::BigRational;
    ///
    /// let p = Poly::from_ints(&[-2, 0, 1]); // x² − 2
    /// let r = |n: i64, d: i64| BigRational::new(n.into(), d.into());
    /// let Roots::Isolated(mut roots) = isolate_roots(&p, &r(0, 1), &r(2, 1)) else { panic!() };
    /// let root = &mut roots[0].value;
    /// root.refine_to_width(&r(1, 1_000_000_000));
    /// assert!(root.width() <= r(1, 1_000_000_000));
    /// assert!(root.lo() < &r(14142136, 10_000_000) && root.hi() > &r(14142135, 10_000_000));
    /// ```
    ///
    /// # Panics
    /// If `w ≤ 0`.
    pub fn refine_to_width(&mut self, w: &BigRational) {
        assert!(w.is_positive(), "refinement width must be positive");
        while let RealRoot::Interval(i) = self {
            if &i.width() <= w {
                break;
            }
            self.refine_step();
        }
    }

    /// The nearest `f64` to the root (round to nearest, ties to even): once the enclosure
    /// spans a few doubles, the rounding boundaries between them are compared with the root
    /// exactly; otherwise refines until both endpoints round to the same double. If the
    /// root is a tie point itself this would not terminate, so after the enclosure is
    /// 2⁻¹²⁰ relative wide the rounded midpoint is returned (then within one ulp).
    pub fn to_f64(&self) -> f64 {
        let r = |x: &BigRational| x.to_f64().unwrap_or(f64::NAN);
        let mut s = self.clone();
        loop {
            match &s {
                RealRoot::Exact(x) => return r(x),
                RealRoot::Interval(i) => {
                    if let Some(v) = i.nearest_f64() {
                        return v;
                    }
                    let (a, b) = (r(&i.lo), r(&i.hi));
                    if a == b {
                        return a;
                    }
                    let m = mid(&i.lo, &i.hi);
                    let scale = m
                        .abs()
                        .max(BigRational::new(1.into(), BigInt::one() << 1100));
                    if i.width() * (BigRational::from_integer(BigInt::one() << 120)) < scale {
                        return r(&m);
                    }
                }
            }
            s.refine_step();
        }
    }

    /// Decides whether the root is rational; if so turns it into [`RealRoot::Exact`] and
    /// returns `true`. Isolation reports rational roots exactly only when it happens to
    /// evaluate them (interval ends, bisection midpoints, linear factors); this finds the rest.
    ///
    /// Method: a rational root u/v (lowest terms) of the primitive f has v | lc(f) (rational
    /// root theorem), and two fractions with denominators ≤ L = |lc(f)| differ by ≥ 1/L². The
    /// interval is refined below 1/(2L²) wide; then the only candidate is the simplest
    /// rational in it (continued fractions), which is tested exactly.
    ///
    /// ```
    /// use exact_collision::poly::{isolate_roots, Poly, RealRoot};
    /// use num_rational::BigRational;
    ///
    /// let p = Poly::from_ints(&[-1, 3]); // 3x − 1, but pretend we got it as a cubic:
    /// let p = &p * &Poly::from_ints(&[-2, 0, 1]);
    /// let r = |n: i64, d: i64| BigRational::new(n.into(), d.into());
    /// let mut roots: Vec<RealRoot> =
    ///     isolate_roots(&p, &r(0, 1), &r(1, 1)).isolated().iter().map(|x| x.value.clone()).collect();
    /// assert!(roots[0].make_exact_if_rational());
    /// assert_eq!(roots[0].as_exact(), Some(&r(1, 3)));
    /// ```
    pub fn make_exact_if_rational(&mut self) -> bool {
        let lc = match self {
            RealRoot::Exact(_) => return true,
            RealRoot::Interval(i) => i.poly.last().expect("nonzero").abs(),
        };
        let w = BigRational::new(BigInt::one(), &lc * &lc * 2u32);
        self.refine_to_width(&w);
        let candidate = match self {
            RealRoot::Exact(_) => return true,
            RealRoot::Interval(i) => {
                let c = simplest_between(&i.lo, &i.hi);
                if zx::sign_at(&i.poly, &c) != Ordering::Equal {
                    return false;
                }
                c
            }
        };
        *self = RealRoot::Exact(candidate);
        true
    }

    /// Exact sign of `q` at this root, as an [`Ordering`] against zero, refining `self` as
    /// needed (the refinement is kept).
    ///
    /// Zero is decided exactly: `q(α) = 0` iff `gcd(f, q)` changes sign on the isolating
    /// interval of the square-free `f`. Otherwise the interval is refined until Descartes'
    /// rule proves `q` has no root in it, and the sign is read at its midpoint.
    pub fn sign_of(&mut self, q: &Poly) -> Ordering {
        self.sign_of_integer(&q.to_integer_scaled())
    }

    /// Exact sign of the integer polynomial `qz` (ascending powers, no trailing zero
    /// coefficients) at this root, as [`RealRoot::sign_of`] (the refinement is kept).
    ///
    /// ```
    /// use exact_collision::poly::{isolate_roots, Poly, Roots};
    /// use num_bigint::BigInt;
    /// use num_rational::BigRational;
    /// use std::cmp::Ordering;
    ///
    /// let r = |n: i64| BigRational::from_integer(n.into());
    /// let Roots::Isolated(roots) = isolate_roots(&Poly::from_ints(&[-2, 0, 1]), &r(0), &r(2))
    /// else { panic!() };
    /// let mut sqrt2 = roots[0].value.clone();
    /// let q: Vec<BigInt> = [-3, 2].map(BigInt::from).to_vec(); // 2x − 3
    /// assert_eq!(sqrt2.sign_of_integer(&q), Ordering::Less);
    /// ```
    pub fn sign_of_integer(&mut self, qz: &[BigInt]) -> Ordering {
        if qz.is_empty() {
            return Ordering::Equal;
        }
        if let RealRoot::Interval(i) = self {
            let g = zx::gcd(&i.poly, qz);
            if g.len() > 1 && zx::sign_at(&g, &i.lo) != zx::sign_at(&g, &i.hi) {
                return Ordering::Equal;
            }
        }
        loop {
            match self {
                RealRoot::Exact(x) => return zx::sign_at(qz, x),
                RealRoot::Interval(i) => {
                    let s_lo = zx::sign_at(qz, &i.lo);
                    if s_lo != Ordering::Equal
                        && s_lo == zx::sign_at(qz, &i.hi)
                        && zx::descartes_interval(qz, &i.lo, &i.hi) == 0
                    {
                        return s_lo;
                    }
                }
            }
            self.bisect();
        }
    }

    /// Exact comparison of two real algebraic numbers, refining both as needed (the
    /// refinements are kept). Equality is decided by a gcd, never by refinement.
    pub fn compare(&mut self, other: &mut RealRoot) -> Ordering {
        loop {
            let (a, b) = match (&*self, &*other) {
                (RealRoot::Exact(x), RealRoot::Exact(y)) => return x.cmp(y),
                (RealRoot::Interval(i), RealRoot::Exact(y)) => return i.cmp_rational(y),
                (RealRoot::Exact(x), RealRoot::Interval(j)) => return j.cmp_rational(x).reverse(),
                (RealRoot::Interval(i), RealRoot::Interval(j)) => (i, j),
            };
            if qcmp(&a.hi, &b.lo).is_le() {
                return Ordering::Less;
            }
            if qcmp(&b.hi, &a.lo).is_le() {
                return Ordering::Greater;
            }
            if equal_overlapping(a, b) {
                return Ordering::Equal;
            }
            // Distinct roots: refining the wider interval eventually separates them.
            if a.width() >= b.width() {
                self.refine_step();
            } else {
                other.refine_step();
            }
        }
    }

    /// Refines `self < other` (distinct roots, in this order) until their enclosures are
    /// disjoint: `self.hi() ≤ other.lo()` (open intervals may share an endpoint).
    pub(crate) fn separate_from(&mut self, other: &mut RealRoot) {
        while qcmp(self.hi(), other.lo()).is_gt() {
            if self.width() >= other.width() {
                self.refine_step();
            } else {
                other.refine_step();
            }
        }
    }

    /// Exact comparison without keeping refinements (clones the enclosures).
    pub fn cmp_exact(&self, other: &RealRoot) -> Ordering {
        self.clone().compare(&mut other.clone())
    }
}

/// The rational with the smallest denominator in the open interval (lo, hi), lo < hi.
fn simplest_between(lo: &BigRational, hi: &BigRational) -> BigRational {
    if lo.is_negative() && hi.is_positive() {
        return BigRational::from_integer(BigInt::from(0));
    }
    if !hi.is_positive() {
        return -simplest_between(&-hi, &-lo);
    }
    simplest_above(lo, Some(hi))
}

/// Simplest rational in (lo, hi) for lo ≥ 0 (`None` = +∞), by continued fractions.
fn simplest_above(lo: &BigRational, hi: Option<&BigRational>) -> BigRational {
    let n = lo.floor() + BigRational::one();
    if hi.is_none_or(|h| &n < h) {
        return n;
    }
    let hi = hi.expect("checked");
    // lo, hi ∈ [fl, fl + 1]: x = fl + 1/y with y ∈ (1/(hi − fl), 1/(lo − fl)).
    let fl = n - BigRational::one();
    let ylo = (hi - &fl).recip();
    let y = if lo == &fl {
        simplest_above(&ylo, None)
    } else {
        simplest_above(&ylo, Some(&(lo - &fl).recip()))
    };
    fl + y.recip()
}

/// For overlapping isolating intervals: α = β iff g = gcd(f, h) has a root in J = I ∩ J′.
/// J ⊂ I holds at most one root of g (g | f), g is nonzero at J's endpoints (they are endpoints
/// of I or I′, where f resp. h do not vanish), and the root is simple, so a sign change of g
/// over J decides.
fn equal_overlapping(a: &IsolatingInterval, b: &IsolatingInterval) -> bool {
    let lo = (&a.lo).max(&b.lo);
    let hi = (&a.hi).min(&b.hi);
    if a.shares_poly(b) {
        return zx::sign_at(&a.poly, lo) != zx::sign_at(&a.poly, hi);
    }
    let g = zx::gcd(&a.poly, &b.poly);
    g.len() > 1 && zx::sign_at(&g, lo) != zx::sign_at(&g, hi)
}

impl PartialEq for RealRoot {
    fn eq(&self, other: &Self) -> bool {
        self.cmp_exact(other) == Ordering::Equal
    }
}

impl Eq for RealRoot {}

impl PartialOrd for RealRoot {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

/// Exact order of real algebraic numbers (see [`RealRoot::compare`]).
impl Ord for RealRoot {
    fn cmp(&self, other: &Self) -> Ordering {
        self.cmp_exact(other)
    }
}

/// Exact sign of `q` at `root` without keeping the refinement (see [`RealRoot::sign_of`]).
///
/// ```
/// use exact_collision::poly::{isolate_roots, sign_of_poly_at, Poly, Roots};
/// use num_rational::BigRational;
/// use std::cmp::Ordering;
///
/// let r = |n: i64| BigRational::from_integer(n.into());
/// let Roots::Isolated(roots) = isolate_roots(&Poly::from_ints(&[-2, 0, 1]), &r(0), &r(2))
/// else { panic!() };
/// let sqrt2 = &roots[0].value;
/// assert_eq!(sign_of_poly_at(&Poly::from_ints(&[-4, 0, 2]), sqrt2), Ordering::Equal);
/// assert_eq!(sign_of_poly_at(&Poly::from_ints(&[-3, 2]), sqrt2), Ordering::Less); // 2√2 < 3
/// ```
pub fn sign_of_poly_at(q: &Poly, root: &RealRoot) -> Ordering {
    root.clone().sign_of(q)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn r(n: i64, d: i64) -> BigRational {
        BigRational::new(n.into(), d.into())
    }

    fn sqrt2() -> RealRoot {
        let p = Poly::from_ints(&[-2, 0, 1]);
        RealRoot::Interval(IsolatingInterval::verify(&p, &r(1, 1), &r(2, 1)).unwrap())
    }

    /// The dyadic QIR step takes exactly the rational step's path: the same
    /// enclosures, step sizes and exact hits, on polynomials with irrational and
    /// rational roots.
    #[test]
    fn dyadic_qir_steps_equal_rational_ones() {
        let polys = [
            Poly::from_ints(&[-2, 0, 1]),
            Poly::from_ints(&[-3, 0, 0, 8]),
            &Poly::from_ints(&[-1, 3]) * &Poly::from_ints(&[-2, 0, 1]),
            &Poly::from_ints(&[-5, 8]) * &Poly::from_ints(&[1, 0, 1]),
            Poly::from_ints(&[-7, 1, 5, 0, 3]),
        ];
        let mut steps = 0;
        for p in &polys {
            let crate::poly::Roots::Isolated(roots) =
                crate::poly::isolate_roots(p, &r(0, 1), &r(2, 1))
            else {
                panic!()
            };
            for root in roots {
                let RealRoot::Interval(start) = root.value else {
                    continue;
                };
                let (mut x, mut y) = (start.clone(), start);
                for _ in 0..12 {
                    let (a, b, e) = dyadic_pair(&x.lo, &x.hi).expect("dyadic ends");
                    let sx = if x.qir_log <= 1 {
                        x.qir_step()
                    } else {
                        x.qir_step_dyadic(a, b, e)
                    };
                    let sy = if y.qir_log <= 1 {
                        y.qir_step()
                    } else {
                        y.qir_step_rational()
                    };
                    assert_eq!(sx, sy);
                    steps += 1;
                    if sx.is_err() {
                        break;
                    }
                    assert_eq!((&x.lo, &x.hi, x.qir_log), (&y.lo, &y.hi, y.qir_log));
                }
            }
        }
        assert!(steps > 40, "{steps}");
    }

    #[test]
    fn refine_converges_and_qir_is_fast() {
        let mut a = sqrt2();
        let w = BigRational::new(1.into(), BigInt::one() << 200);
        let mut steps = 0;
        while a.width() > w {
            a.refine_step();
            steps += 1;
        }
        assert!(steps < 60, "QIR took {steps} steps");
        assert_eq!(a.to_f64(), std::f64::consts::SQRT_2);
        assert!(a.lo() * a.lo() < r(2, 1) && a.hi() * a.hi() > r(2, 1));
    }

    /// The nearest double by plain bisection (no float guidance): refine until both ends
    /// round to the same double.
    fn nearest_by_bisection(mut x: RealRoot) -> f64 {
        loop {
            match &x {
                RealRoot::Exact(v) => return v.to_f64().unwrap(),
                RealRoot::Interval(i) => {
                    let (a, b) = (i.lo.to_f64().unwrap(), i.hi.to_f64().unwrap());
                    if a == b {
                        return a;
                    }
                }
            }
            x.bisect();
        }
    }

    #[test]
    fn float_guided_refinement_isolates_the_same_root_and_rounds_correctly() {
        let mut s = 4242u64;
        let n = if std::env::var("EXACT_HEAVY").is_ok_and(|v| v == "1") {
            400
        } else {
            60
        };
        let mut roots = 0;
        for case in 0..n {
            let d = 2 + (crate::poly::planted::splitmix64(&mut s) % 7) as usize;
            let p = crate::poly::planted::random_integer_poly(&mut s, d, 24);
            let isolated = crate::poly::isolate_roots(&p, &r(-4, 1), &r(4, 1));
            for root in isolated.isolated() {
                let x = root.value.clone();
                let mut y = x.clone();
                y.refine_step();
                // Still an isolating interval of the same polynomial, inside the old one.
                if let (RealRoot::Interval(a), RealRoot::Interval(b)) = (&x, &y) {
                    assert!(b.lo >= a.lo && b.hi <= a.hi, "case {case}");
                    assert!(IsolatingInterval::verify(&b.poly(), &b.lo, &b.hi).is_some());
                }
                assert_eq!(x.cmp_exact(&y), Ordering::Equal);
                assert_eq!(x.to_f64(), nearest_by_bisection(x.clone()), "case {case}");
                roots += 1;
            }
        }
        assert!(roots >= n / 2);
    }

    #[test]
    fn f64_to_rational_is_exact_and_reduced() {
        for x in [
            0.0,
            -0.0,
            1.0,
            -2.5,
            0.1,
            1e300,
            -3e-310,
            6.02e23,
            f64::MIN_POSITIVE,
        ] {
            let q = f64_to_rational(x).unwrap();
            assert_eq!(q, BigRational::from_float(x).unwrap());
            assert_eq!(&BigRational::new(q.numer().clone(), q.denom().clone()), &q);
            assert_eq!(q.denom(), BigRational::from_float(x).unwrap().denom());
        }
        assert!(f64_to_rational(f64::NAN).is_none());
    }

    #[test]
    fn nearest_f64_ties_to_even() {
        let two53 = BigInt::one() << 53u32;
        // Roots exactly halfway between two doubles: 1 + 2⁻⁵³ (between 1 and 1 + 2⁻⁵²,
        // even: 1) and 1 + 3·2⁻⁵³ (between 1 + 2⁻⁵² and 1 + 2⁻⁵¹, even: 1 + 2⁻⁵¹).
        for (k, want) in [(1u32, 1.0), (3, 1.0 + f64::EPSILON * 2.0)] {
            let lin = Poly::from_bigints(&[-(&two53 + k), two53.clone()]);
            let p = &lin * &Poly::from_ints(&[5, 1]);
            let hi = BigRational::new(&two53 + 16u32, two53.clone());
            let i = IsolatingInterval::verify(&p, &r(1, 1), &hi).unwrap();
            assert_eq!(RealRoot::Interval(i).to_f64(), want);
        }
    }

    #[test]
    fn simplest_rationals() {
        assert_eq!(simplest_between(&r(1, 4), &r(1, 2)), r(1, 3));
        assert_eq!(simplest_between(&r(-1, 2), &r(1, 2)), r(0, 1));
        assert_eq!(simplest_between(&r(-7, 3), &r(-2, 1)), r(-9, 4));
        assert_eq!(simplest_between(&r(2, 1), &r(3, 1)), r(5, 2));
        assert_eq!(simplest_between(&r(314, 100), &r(315, 100)), r(22, 7));
    }

    #[test]
    fn irrational_stays_interval() {
        let mut a = sqrt2();
        assert!(!a.make_exact_if_rational());
        assert!(matches!(a, RealRoot::Interval(_)));
    }

    #[test]
    fn compare_equal_different_polys() {
        let a = sqrt2();
        // 2x² − 4 scaled times (x − 5): same root √2.
        let p = &Poly::from_ints(&[-2, 0, 1]) * &Poly::from_ints(&[-5, 1]);
        let b = RealRoot::Interval(IsolatingInterval::verify(&p, &r(13, 10), &r(3, 2)).unwrap());
        assert_eq!(a.cmp_exact(&b), Ordering::Equal);
        let c = RealRoot::Exact(r(141421, 100000));
        assert_eq!(a.cmp_exact(&c), Ordering::Greater);
        let p3 = Poly::from_ints(&[-3, 0, 1]);
        let d = RealRoot::Interval(IsolatingInterval::verify(&p3, &r(1, 1), &r(2, 1)).unwrap());
        assert_eq!(a.cmp_exact(&d), Ordering::Less);
        assert!(a < d);
    }
}
