//! The certified time sweep shared by both CCD methods.
//!
//! The time range is cut at *breakpoints* (roots of given polynomials) into pieces.
//! On each closed piece the caller gives a list of constraint polynomials F_i with
//!
//! ```text
//! contact at t   ⟺   F_i(t) ≥ 0 for every i          (t in the closed piece)
//! ```
//!
//! The search is lazy. **Entry**: at the cursor τ (start of the piece) the exact
//! signs of all F_i are computed; if none is negative, τ is the first contact.
//! Otherwise every F_i negative at τ stays negative up to its first root after τ,
//! so no contact happens before the latest of those first roots; the cursor jumps
//! there (each jump passes at least one root, so this terminates), and if one of
//! them has no root left in the piece, the piece has no contact. **Exit**: from a
//! contact time x, each F_i leaves the contact set at its first root r ≥ x after
//! which it is negative (read at a rational sample between r and its next root);
//! the exit is the smallest such r, and only roots below the best so far are
//! examined. The contact set is closed (the F_i are continuous), so entry and exit
//! are points where some F_i is zero, or the ends of the range.
//!
//! Signs go through a certified float filter first: the polynomial is evaluated in
//! outward-rounded interval arithmetic ([`crate::Interval`]) on an enclosure of the
//! point (an isolating interval, refined a few steps if needed); only when that
//! interval contains 0 is the sign computed exactly (a gcd decides zero at an
//! algebraic point).

use crate::num::interval::Interval;
use crate::num::ring::Ring;
use crate::num::sign::Sign;
use crate::poly::{isolate_roots, isolate_roots_limited, Poly, RealRoot};
use num_bigint::BigInt;
use num_integer::Integer;
use num_rational::BigRational;
use num_traits::ToPrimitive;
use num_traits::{One, Zero};
use std::cmp::Ordering;

/// When the first contact period starts or ends.
#[derive(Clone, Debug)]
pub enum Event<T> {
    /// At the start of the range; `zero` lists the constraints that vanish there
    /// (empty when the boxes overlap, or when it was not computed).
    Start(Vec<T>),
    /// Still in contact at the end of the range.
    End,
    /// At this time; `zero` lists the constraints that vanish there.
    At {
        /// The time.
        t: RealRoot,
        /// The constraints equal to zero at `t`.
        zero: Vec<T>,
        /// The polynomial of the first of them (the certificate's source).
        cert: Option<Poly>,
    },
}

/// The first contact period.
#[derive(Clone, Debug)]
pub struct Period<T> {
    /// First touch.
    pub enter: Event<T>,
    /// Last time of the first contact period.
    pub exit: Event<T>,
}

/// A rational strictly between two distinct real roots `a < b`, refining them.
pub fn between(a: &mut RealRoot, b: &mut RealRoot) -> BigRational {
    loop {
        if crate::poly::qcmp(a.hi(), b.lo()).is_lt() {
            return short_dyadic_between(a.hi(), b.lo());
        }
        if a.width() >= b.width() {
            a.refine_step();
        } else {
            b.refine_step();
        }
    }
}

/// A dyadic rational c/2^k strictly between `lo < hi` with k small (tried 0, 8, 16, 32, …):
/// short samples keep the later exact evaluations at them cheap. Integer arithmetic only.
fn short_dyadic_between(lo: &BigRational, hi: &BigRational) -> BigRational {
    let mut k = 0u32;
    loop {
        // c = floor(lo·2^k) + 1 is the smallest multiple of 2^-k above lo.
        let c = (lo.numer() << k).div_floor(lo.denom()) + 1u32;
        // c/2^k < hi ⟺ c·den(hi) < num(hi)·2^k
        if (&c * hi.denom()) < (hi.numer() << k) {
            let Some(tz) = c.trailing_zeros() else {
                return <BigRational as Zero>::zero();
            };
            let tz = tz.min(u64::from(k));
            let c = c >> tz;
            let d = BigInt::one() << (u64::from(k) - tz);
            return BigRational::new_raw(c, d);
        }
        k = if k == 0 { 8 } else { k * 2 };
    }
}

/// A certified enclosure of a rational (the conversions are within one ulp, so one
/// step outward on each side suffices).
pub(crate) fn rat_interval(x: &BigRational) -> Interval {
    // Integers: num-bigint's conversion keeps the top 64 bits rounded to odd (sticky bit),
    // then rounds to nearest: correctly rounded, without num-rational's division.
    let f = if x.denom().is_one() {
        x.numer().to_f64()
    } else {
        x.to_f64()
    };
    match f {
        Some(f) if f.is_finite() => {
            if f == 0.0 && num_traits::Zero::is_zero(x) {
                Interval::point(0.0)
            } else {
                Interval {
                    lo: f.next_down(),
                    hi: f.next_up(),
                }
            }
        }
        _ => Interval::WHOLE,
    }
}

fn hull(lo: &BigRational, hi: &BigRational) -> Interval {
    Interval {
        lo: rat_interval(lo).lo,
        hi: rat_interval(hi).hi,
    }
}

fn ord(s: Sign) -> Ordering {
    match s {
        Sign::Negative => Ordering::Less,
        Sign::Zero => Ordering::Equal,
        Sign::Positive => Ordering::Greater,
    }
}

/// Constraints of one piece with certified float enclosures of their coefficients.
struct Cons<T> {
    items: Vec<(Poly, T)>,
    iv: Vec<Vec<Interval>>,
}

impl<T: Clone> Cons<T> {
    fn new(items: Vec<(Poly, T)>) -> Self {
        let items: Vec<(Poly, T)> = items.into_iter().filter(|(p, _)| !p.is_zero()).collect();
        let iv = items
            .iter()
            .map(|(p, _)| p.coeffs().iter().map(rat_interval).collect())
            .collect();
        Cons { items, iv }
    }

    fn len(&self) -> usize {
        self.items.len()
    }

    fn poly(&self, i: usize) -> &Poly {
        &self.items[i].0
    }

    /// Interval Horner evaluation over `x`.
    fn eval(&self, i: usize, x: Interval) -> Interval {
        let mut acc = Interval::point(0.0);
        for c in self.iv[i].iter().rev() {
            acc = acc.mul_ref(&x).add_ref(c);
        }
        acc
    }

    /// Exact sign at a rational.
    fn sign_rat(&self, i: usize, x: &BigRational) -> Ordering {
        match self.eval(i, rat_interval(x)).sign() {
            Some(s) => ord(s),
            None => self.poly(i).sign_at(x),
        }
    }

    /// Exact sign at an algebraic point (refines `x` a little if that helps the filter).
    fn sign_root(&self, i: usize, x: &mut RealRoot) -> Ordering {
        for _ in 0..6 {
            if let RealRoot::Exact(r) = x {
                return self.sign_rat(i, r);
            }
            let e = hull(x.lo(), x.hi());
            if let Some(s) = self.eval(i, e).sign() {
                return ord(s);
            }
            if e.hi - e.lo <= 1e-14 * e.lo.abs().max(e.hi.abs()) {
                break;
            }
            x.refine_step();
        }
        x.sign_of(self.poly(i))
    }

    /// `Some(zero list, first zero polynomial)` if every constraint is ≥ 0 at `x`.
    fn contact_at(&self, x: &mut RealRoot) -> Option<(Vec<T>, Option<Poly>)> {
        let mut zero = Vec::new();
        let mut cert = None;
        for i in 0..self.len() {
            match self.sign_root(i, x) {
                Ordering::Less => return None,
                Ordering::Equal => {
                    zero.push(self.items[i].1.clone());
                    cert.get_or_insert_with(|| self.poly(i).clone());
                }
                Ordering::Greater => {}
            }
        }
        Some((zero, cert))
    }

    /// The event at `x` (for an exit point, where all are ≥ 0): the zero list and the
    /// first zero polynomial.
    fn event_at(&self, x: &mut RealRoot) -> Event<T> {
        let idx: Vec<usize> = (0..self.len())
            .filter(|&i| self.sign_root(i, x) == Ordering::Equal)
            .collect();
        Event::At {
            t: x.clone(),
            zero: idx.iter().map(|&i| self.items[i].1.clone()).collect(),
            cert: idx.first().map(|&i| self.poly(i).clone()),
        }
    }
}

/// A rational ≤ x (`up`: ≥ x) on the 2⁻⁴⁸ grid when x's denominator is long: isolating
/// over a slightly wider range with short endpoints keeps the change of variable cheap,
/// and the callers discard the extra roots by exact comparison.
fn round_out(x: &BigRational, up: bool) -> BigRational {
    if x.denom().bits() <= 64 {
        return x.clone();
    }
    let k = BigInt::one() << 48u32;
    let (q, r) = (x.numer() * &k).div_mod_floor(x.denom());
    let q = if up && !r.is_zero() { q + 1u32 } else { q };
    BigRational::new(q, k)
}

/// The first root `r` of `p` with `x < r ≤ hi`.
fn next_root_after(p: &Poly, x: &mut RealRoot, hi: &mut RealRoot) -> Option<RealRoot> {
    let mut limit = 2;
    let (lo_r, hi_r) = (round_out(x.lo(), false), round_out(hi.hi(), true));
    loop {
        let roots = isolate_roots_limited(p, &lo_r, &hi_r, limit);
        let v = roots.isolated();
        for r in v {
            let mut rv = r.value.clone();
            if rv.compare(x) == Ordering::Greater {
                return (rv.compare(hi) != Ordering::Greater).then_some(rv);
            }
        }
        if v.len() < limit {
            return None;
        }
        limit = usize::MAX;
    }
}

/// Sorted, pairwise distinct roots of `polys` strictly between `lo` and `hi`.
fn roots_inside(polys: &[&Poly], lo: &RealRoot, hi: &RealRoot) -> Vec<RealRoot> {
    let (mut lo, mut hi) = (lo.clone(), hi.clone());
    let mut out: Vec<RealRoot> = Vec::new();
    let mut seen: Vec<Vec<num_bigint::BigInt>> = Vec::new();
    for p in polys {
        if p.degree().unwrap_or(0) == 0 {
            continue;
        }
        // Proportional polynomials have the same roots: isolate them once.
        let mut z = p.primitive_integer();
        if z.last()
            .is_some_and(|c| c.sign() == num_bigint::Sign::Minus)
        {
            z.iter_mut().for_each(|c| *c = -&*c);
        }
        if seen.contains(&z) {
            continue;
        }
        seen.push(z);
        for r in isolate_roots(p, lo.lo(), hi.hi()).isolated() {
            let mut v = r.value.clone();
            if v.compare(&mut lo) != Ordering::Greater || v.compare(&mut hi) != Ordering::Less {
                continue;
            }
            let (mut a, mut b) = (0, out.len());
            let mut dup = false;
            while a < b {
                let m = (a + b) / 2;
                match v.compare(&mut out[m]) {
                    Ordering::Less => b = m,
                    Ordering::Greater => a = m + 1,
                    Ordering::Equal => {
                        dup = true;
                        break;
                    }
                }
            }
            if !dup {
                out.insert(a, v);
            }
        }
    }
    out
}

/// The first contact time in the closed piece `[lo, hi]` (and the constraints zero
/// there), and whether it is `lo` itself.
fn entry<T: Clone>(
    cons: &Cons<T>,
    lo: &RealRoot,
    hi: &mut RealRoot,
) -> Option<(RealRoot, Vec<T>, Option<Poly>, bool)> {
    let mut cur = lo.clone();
    let mut at_lo = true;
    loop {
        let mut neg = Vec::new();
        let mut zero = Vec::new();
        let mut cert = None;
        for i in 0..cons.len() {
            match cons.sign_root(i, &mut cur) {
                Ordering::Less => neg.push(i),
                Ordering::Equal => {
                    zero.push(cons.items[i].1.clone());
                    cert.get_or_insert_with(|| cons.poly(i).clone());
                }
                Ordering::Greater => {}
            }
        }
        if neg.is_empty() {
            return Some((cur, zero, cert, at_lo));
        }
        // A constraint bounded below zero on the rest of the piece rules it out.
        let rest = hull(cur.lo(), hi.hi());
        if neg.iter().any(|&i| cons.eval(i, rest).hi < 0.0) {
            return None;
        }
        let mut next: Option<RealRoot> = None;
        for &i in &neg {
            let mut r = next_root_after(cons.poly(i), &mut cur, hi)?;
            next = match next {
                Some(mut n) => {
                    if n.compare(&mut r) == Ordering::Less {
                        Some(r)
                    } else {
                        Some(n)
                    }
                }
                None => Some(r),
            };
        }
        cur = next.expect("at least one negative constraint");
        at_lo = false;
    }
}

/// The end of the contact period through `x` (in contact) inside the piece: the
/// smallest `r` with `x ≤ r < hi` after which some constraint is negative.
fn exit<T: Clone>(cons: &Cons<T>, x: &mut RealRoot, hi: &mut RealRoot) -> Option<RealRoot> {
    let mut best: Option<RealRoot> = None;
    for i in 0..cons.len() {
        let bound = match &best {
            Some(b) => b.hi().clone(),
            None => hi.hi().clone(),
        };
        if cons.eval(i, hull(x.lo(), &bound)).lo > 0.0 {
            continue;
        }
        let p = cons.poly(i);
        // Every root of p in [x, bound], ascending (so each one's successor is known).
        let mut rs: Vec<RealRoot> = Vec::new();
        let mut end = RealRoot::Exact(bound.clone());
        for r in isolate_roots(p, &round_out(x.lo(), false), &round_out(&bound, true)).isolated() {
            let mut v = r.value.clone();
            if v.compare(x) != Ordering::Less && v.compare(&mut end) != Ordering::Greater {
                rs.push(v);
            }
        }
        rs.push(RealRoot::Exact(bound));
        for j in 0..rs.len() - 1 {
            let (l, r) = rs.split_at_mut(j + 1);
            let (cand, next) = (&mut l[j], &mut r[0]);
            if cand.compare(hi) != Ordering::Less {
                break;
            }
            if let Some(b) = best.as_mut() {
                if cand.compare(b) != Ordering::Less {
                    break;
                }
            }
            let s = between(cand, next);
            if cons.sign_rat(i, &s) == Ordering::Less {
                best = Some(cand.clone());
                break;
            }
        }
    }
    best
}

/// The first contact period in `[t0, t1]`, or `None`.
///
/// `breaks` are polynomials whose roots cut the range into pieces; `cull`, if
/// given, is a polynomial with `cull(t) > 0 ⇒ no contact at t`; `piece(sample)`
/// returns the constraints valid on the closed piece containing the rational
/// `sample` in its interior (or the single point, if t0 = t1).
pub fn first_contact<T: Clone>(
    t0: &BigRational,
    t1: &BigRational,
    breaks: &[Poly],
    cull: Option<&Poly>,
    mut piece: impl FnMut(&BigRational) -> Vec<(Poly, T)>,
) -> Option<Period<T>> {
    if t0 == t1 {
        // A single instant: contact when no constraint is negative there; the
        // ones that vanish name the touching feature, as at any start.
        let cons = Cons::new(piece(t0));
        return cons
            .contact_at(&mut RealRoot::Exact(t0.clone()))
            .map(|(zero, _)| Period {
                enter: Event::Start(zero),
                exit: Event::End,
            });
    }
    let (a, b) = (RealRoot::Exact(t0.clone()), RealRoot::Exact(t1.clone()));
    let mut polys: Vec<&Poly> = breaks.iter().collect();
    if let Some(s) = cull {
        polys.push(s);
    }
    let mut pts = vec![a.clone()];
    pts.extend(roots_inside(&polys, &a, &b));
    pts.push(b);
    let cull = cull.map(|s| Cons::new(vec![(s.clone(), ())]));
    let culled_at = |x: &mut RealRoot| {
        cull.as_ref()
            .is_some_and(|c| c.sign_root(0, x) == Ordering::Greater)
    };
    let mut enter: Option<Event<T>> = None;
    let n = pts.len() - 1;
    for i in 0..n {
        let (left, right) = pts.split_at_mut(i + 1);
        let (lo, hi) = (&mut left[i], &mut right[0]);
        let sample = between(lo, hi);
        let last = i + 1 == n;
        let culled = cull
            .as_ref()
            .is_some_and(|c| c.sign_rat(0, &sample) == Ordering::Greater);
        match enter.take() {
            None if culled => {
                // No contact inside; the ends are checked exactly.
                let mut cons: Option<Cons<T>> = None;
                for (x, at_lo) in [(&mut *lo, true), (&mut *hi, false)] {
                    if (!at_lo && !last) || culled_at(x) {
                        continue;
                    }
                    let c = cons.get_or_insert_with(|| Cons::new(piece(&sample)));
                    if let Some((zero, cert)) = c.contact_at(x) {
                        let ev = if at_lo && i == 0 {
                            Event::Start(zero)
                        } else {
                            Event::At {
                                t: x.clone(),
                                zero,
                                cert,
                            }
                        };
                        if !at_lo {
                            return Some(Period {
                                enter: ev,
                                exit: Event::End,
                            });
                        }
                        return Some(Period {
                            enter: ev,
                            exit: c.event_at(x),
                        });
                    }
                }
            }
            None => {
                let cons = Cons::new(piece(&sample));
                let Some((mut t, zero, cert, at_lo)) = entry(&cons, lo, hi) else {
                    continue;
                };
                if !last && t.compare(hi) == Ordering::Equal {
                    // The next piece sees it at its start, with its own constraints.
                    continue;
                }
                let ev = if at_lo && i == 0 {
                    Event::Start(zero)
                } else {
                    Event::At {
                        t: t.clone(),
                        zero,
                        cert,
                    }
                };
                if let Some(mut x) = exit(&cons, &mut t, hi) {
                    return Some(Period {
                        enter: ev,
                        exit: cons.event_at(&mut x),
                    });
                }
                enter = Some(ev);
            }
            Some(ev) => {
                let cons = Cons::new(piece(&sample));
                let found = if culled {
                    Some(lo.clone())
                } else {
                    exit(&cons, lo, hi)
                };
                if let Some(mut x) = found {
                    return Some(Period {
                        enter: ev,
                        exit: cons.event_at(&mut x),
                    });
                }
                enter = Some(ev);
            }
        }
    }
    enter.map(|ev| Period {
        enter: ev,
        exit: Event::End,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn short_dyadic_between_is_strictly_inside_and_reduced() {
        let q = |n: i64, d: i64| BigRational::new(n.into(), d.into());
        let tiny = BigRational::new(1.into(), BigInt::one() << 200u32);
        let cases = [
            (q(-1, 3), q(1, 3)),
            (q(-1, 1), q(-1, 2)),
            (q(1, 3), q(1, 3) + &tiny),
            (q(-7, 5) - &tiny, q(-7, 5)),
            (q(0, 1), tiny.clone()),
            (q(-1, 1000), q(0, 1)),
            (q(5, 1), q(6, 1)),
        ];
        for (lo, hi) in cases {
            let x = short_dyadic_between(&lo, &hi);
            assert!(lo < x && x < hi, "{lo} < {x} < {hi}");
            // Lowest terms, as BigRational::new would give.
            let r = BigRational::new(x.numer().clone(), x.denom().clone());
            assert_eq!((r.numer(), r.denom()), (x.numer(), x.denom()));
        }
        assert!(Zero::is_zero(&short_dyadic_between(&q(-1, 2), &q(1, 2))));
    }
}
