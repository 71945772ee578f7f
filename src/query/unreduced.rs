//! Exact closest pairs held as integers over one common denominator, reduced
//! to lowest terms only when asked: [`UnreducedClosest`], the answer of
//! [`distance_exact_unreduced`](super::distance_exact_unreduced).
//!
//! Inputs that are doubles are dyadic rationals, and the closest points of a
//! feature pair are polynomials in them over one denominator (`|u|²` for a
//! vertex against an edge, `|n|²` against a face, `|u × v|²` for two edges,
//! the crossing's `w` for a witness). The fast path computes those integers
//! exactly, in fixed width, with no gcd; what costs is the reduction to
//! lowest terms (one gcd of the denominator's size, then a `BigInt`
//! numerator and denominator per value). A caller that compares, rounds or
//! stores the answer does not need lowest terms, and one that does pays for
//! them once, in [`UnreducedClosest::reduce`]: the same values, bit for bit,
//! as [`distance_exact`](super::distance_exact).

use super::Closest;
use crate::num::fixed::{int_pow2_point, int_pow2_rational, ratio_f64};
use crate::num::fixed::{Int, Nat, Over};
use crate::num::wide::{Wide, V};
use crate::vector::Vec3;
use num_rational::BigRational;
use num_traits::Zero;

/// The squared distance's numerator over the shared denominator `den`: `n`,
/// or `s²` (kept as `s`: its gcd with `den` follows from `s`'s).
#[derive(Clone, Debug)]
pub(crate) enum D2 {
    Over(Wide<8>),
    Square(Wide<6>),
}

/// One point: `n·2^e0`, or `n/den·2^e0` when `over`; bit `k` of `whole`
/// marks a coordinate whose numerator is a multiple of `den` by
/// construction (`x·den + d·t` with `d·t = 0`: no factor of the product
/// describes its gcd with `den`, which is all of `den`).
#[derive(Clone, Debug)]
pub(crate) struct IntPoint {
    pub n: [Wide<10>; 3],
    pub over: bool,
    pub whole: u8,
}

/// A closest pair (or a common point: `a == b`, squared distance 0) as
/// integers over one denominator `den > 0`, before any reduction: the squared
/// distance is `d2/den·2^(2·e0)`, a point's coordinates `n/den·2^e0` (or
/// `n·2^e0`). The nonzero ones among the scalars `fs` and the components of
/// the vectors `vs` are factors whose product every numerator's common
/// factor with `den` divides (each numerator is such a divisor, or congruent
/// to one modulo `den`), as [`Over`] needs; zeros stand for no factor.
#[derive(Clone, Debug)]
pub(crate) struct Ints {
    pub den: Wide<8>,
    pub a: IntPoint,
    pub b: IntPoint,
    pub d2: D2,
    pub fs: [Wide<8>; 3],
    pub vs: [V<4>; 2],
    pub e0: i64,
}

impl Ints {
    /// The squared distance's numerator, whole (`s²` multiplied out).
    fn d2_int(&self) -> Int {
        match &self.d2 {
            D2::Over(n) => n.to_int(),
            D2::Square(s) => s.mul::<6, 12>(s).to_int(),
        }
    }

    /// The [`Over`] of the shared denominator and the factors.
    fn over(&self) -> Over {
        let mut fs = [Nat::ZERO; 9];
        let scalars = self.fs.iter().map(|f| f.mag_nat());
        let comps = self.vs.iter().flatten().map(|c| c.mag_nat());
        for (f, x) in fs.iter_mut().zip(scalars.chain(comps)) {
            *f = x;
        }
        Over::new(&self.den.mag_nat(), &fs)
    }

    /// The values in lowest terms: one gcd of full size for the shared
    /// denominator's odd part ([`Over`]), powers of two by shifts.
    pub(crate) fn reduce(&self) -> Closest<BigRational> {
        let e0 = self.e0;
        let dyadic_pt = |p: &IntPoint| {
            let n = p.n.each_ref().map(|c| c.to_int());
            int_pow2_point(&Vec3::new(n[0], n[1], n[2]), e0)
        };
        if self.den.0 == Wide::<8>::from_i128(1).0 {
            // Dyadic values: no denominator but a power of two.
            let a = dyadic_pt(&self.a);
            if self.is_zero() {
                return same_point(a);
            }
            return Closest {
                distance_squared: int_pow2_rational(&self.d2_int(), 2 * e0),
                a,
                b: dyadic_pt(&self.b),
            };
        }
        let mut over = self.over();
        let mut point = |p: &IntPoint| {
            if !p.over {
                return dyadic_pt(p);
            }
            // gcd(n, den) = gcd(d·t, den) for n = x·den + d·t: n itself is a
            // valid `r` for `Over::value` (congruent to d·t, a divisor of
            // the product), but for d·t = 0, where the gcd is den itself
            // (`r = 0`).
            let mut c = |k: usize| {
                let x = p.n[k].to_int();
                if p.whole >> k & 1 == 1 {
                    over.value(&x, &Nat::ZERO, e0)
                } else {
                    over.value(&x, x.mag(), e0)
                }
            };
            let (x, y) = (c(0), c(1));
            Vec3::new(x, y, c(2))
        };
        let a = point(&self.a);
        if self.is_zero() {
            return same_point(a);
        }
        let b = point(&self.b);
        let distance_squared = match &self.d2 {
            D2::Over(n) => {
                let n = n.to_int();
                over.value(&n, n.mag(), 2 * e0)
            }
            D2::Square(s) => over.square(&s.to_int(), 2 * e0),
        };
        Closest {
            distance_squared,
            a,
            b,
        }
    }

    /// The squared distance alone in lowest terms.
    pub(crate) fn distance_squared(&self) -> BigRational {
        let e0 = self.e0;
        if self.is_zero() {
            return BigRational::zero();
        }
        if self.den.0 == Wide::<8>::from_i128(1).0 {
            return int_pow2_rational(&self.d2_int(), 2 * e0);
        }
        match &self.d2 {
            D2::Over(n) => {
                let n = n.to_int();
                self.over().value(&n, n.mag(), 2 * e0)
            }
            D2::Square(s) => self.over().square(&s.to_int(), 2 * e0),
        }
    }

    /// The values rounded to doubles from the integers, without reducing
    /// them (within a few ulps, see [`ratio_f64`]).
    pub(crate) fn to_f64(&self) -> Closest<f64> {
        let (one, den) = (Nat::from_u128(1), self.den.mag_nat());
        let e0 = self.e0;
        let point = |p: &IntPoint| {
            let d = if p.over { &den } else { &one };
            let c = |k: usize| ratio_f64(&p.n[k].to_int(), d, e0);
            Vec3::new(c(0), c(1), c(2))
        };
        Closest {
            distance_squared: ratio_f64(&self.d2_int(), &den, 2 * e0),
            a: point(&self.a),
            b: point(&self.b),
        }
    }

    /// Whether the squared distance is zero.
    fn is_zero(&self) -> bool {
        match &self.d2 {
            D2::Over(n) => n.is_zero(),
            D2::Square(s) => s.is_zero(),
        }
    }
}

/// A common point (squared distance 0: the two points are one).
fn same_point(p: Vec3<BigRational>) -> Closest<BigRational> {
    Closest {
        distance_squared: BigRational::zero(),
        a: p.clone(),
        b: p,
    }
}

/// The exact squared distance and a closest pair, as
/// [`distance_exact`](super::distance_exact) answers them, but held as
/// integers over one common denominator and put in lowest terms only when
/// asked ([`reduce`](Self::reduce), [`distance_squared`](Self::distance_squared)).
///
/// Nothing in it is rounded: the values are exact; only their spelling is not
/// yet the canonical one. Answers that the fast path does not build (two
/// triangles, two prisms, the exhaustive path) are held already reduced.
///
/// ```
/// use exact_collision::query::{distance_exact, distance_exact_unreduced};
/// use exact_collision::{Obb, Shape, Vec3};
/// let v = |x: f64, y: f64, z: f64| Vec3::new(x, y, z);
/// let b = |c, h: [Vec3<f64>; 3]| Shape::Box(Obb::new(c, h).unwrap());
/// let a = b(v(0., 0., 0.), [v(0.5, 0., 0.), v(0., 0.5, 0.), v(0., 0., 0.5)]);
/// let c = b(v(2., 0.3, 0.1), [v(0.6, 0.8, 0.), v(-0.8, 0.6, 0.), v(0., 0., 1.)]);
/// let u = distance_exact_unreduced(&a, &c).unwrap();
/// assert!(!u.is_zero());
/// assert_eq!(u.reduce(), distance_exact(&a, &c).unwrap());
/// assert_eq!(u.distance_squared(), distance_exact(&a, &c).unwrap().distance_squared);
/// ```
#[derive(Clone, Debug)]
pub struct UnreducedClosest {
    repr: Repr,
}

#[derive(Clone, Debug)]
enum Repr {
    Ints(Box<Ints>),
    Reduced(Box<Closest<BigRational>>),
}

impl UnreducedClosest {
    pub(crate) fn ints(i: Ints) -> Self {
        UnreducedClosest {
            repr: Repr::Ints(Box::new(i)),
        }
    }

    pub(crate) fn reduced(c: Closest<BigRational>) -> Self {
        UnreducedClosest {
            repr: Repr::Reduced(Box::new(c)),
        }
    }

    /// The answer in lowest terms: equal, value for value, to what
    /// [`distance_exact`](super::distance_exact) returns for the same pair.
    pub fn reduce(&self) -> Closest<BigRational> {
        match &self.repr {
            Repr::Ints(i) => i.reduce(),
            Repr::Reduced(c) => (**c).clone(),
        }
    }

    /// [`reduce`](Self::reduce), consuming the answer.
    pub fn into_reduced(self) -> Closest<BigRational> {
        match self.repr {
            Repr::Ints(i) => i.reduce(),
            Repr::Reduced(c) => *c,
        }
    }

    /// The exact squared distance in lowest terms (the points are not
    /// reduced).
    pub fn distance_squared(&self) -> BigRational {
        match &self.repr {
            Repr::Ints(i) => i.distance_squared(),
            Repr::Reduced(c) => c.distance_squared.clone(),
        }
    }

    /// Whether the squared distance is exactly zero (the shapes meet).
    pub fn is_zero(&self) -> bool {
        match &self.repr {
            Repr::Ints(i) => i.is_zero(),
            Repr::Reduced(c) => c.distance_squared.is_zero(),
        }
    }

    /// The values as doubles: rounded from the exact integers without
    /// reducing them, within a few ulps and not always the nearest double
    /// (what [`distance`](super::distance) answers for `f64` shapes on the
    /// fast path; a zero distance is exactly 0), or, for an answer held
    /// reduced, the nearest doubles.
    pub fn to_f64(&self) -> Closest<f64> {
        use crate::num::scalar::Scalar;
        match &self.repr {
            Repr::Ints(i) => i.to_f64(),
            Repr::Reduced(c) => Closest {
                distance_squared: f64::from_rational(&c.distance_squared),
                a: c.a.map(f64::from_rational),
                b: c.b.map(f64::from_rational),
            },
        }
    }
}
