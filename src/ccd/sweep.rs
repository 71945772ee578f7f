//! The certified time sweep shared by both CCD methods.
//!
//! The time range is cut at *breakpoints* (roots of given polynomials) into pieces.
//! On each closed piece the caller gives a list of constraint polynomials F_i with
//!
//! ```text
//! contact at t   ⟺   F_i(t) ≥ 0 for every i          (t in the closed piece)
//! ```
//!
//! The roots of all F_i inside the piece cut it into cells: points (breakpoints and
//! roots) and open intervals between them, on which no F_i changes sign. Every
//! cell's status is decided exactly — open cells at a rational sample, points by
//! the exact sign of F_i at the algebraic number — and the first run of contact
//! cells is the first contact period. The contact set is closed (the F_i are
//! continuous), so that run starts and ends at point cells.

use crate::poly::{isolate_roots, Poly, RealRoot};
use num_rational::BigRational;
use std::cmp::Ordering;

/// When the first contact period starts or ends.
#[derive(Clone, Debug)]
pub enum Event<T> {
    /// At the start of the range.
    Start,
    /// Still in contact at the end of the range.
    End,
    /// At this time; `zero` lists the constraints that vanish there.
    At {
        /// The time.
        t: RealRoot,
        /// The constraints equal to zero at `t`.
        zero: Vec<T>,
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
        if a.hi() < b.lo() {
            return (a.hi() + b.lo()) / BigRational::from_integer(2.into());
        }
        if a.width() >= b.width() {
            a.refine_step();
        } else {
            b.refine_step();
        }
    }
}

/// Sorted, pairwise distinct roots of `polys` strictly between `lo` and `hi`.
fn roots_inside(polys: &[&Poly], lo: &RealRoot, hi: &RealRoot) -> Vec<RealRoot> {
    let mut out: Vec<RealRoot> = Vec::new();
    for p in polys {
        if p.degree().unwrap_or(0) == 0 {
            continue;
        }
        for r in isolate_roots(p, lo.lo(), hi.hi()).isolated() {
            let mut v = r.value.clone();
            if v.compare(&mut lo.clone()) == Ordering::Greater
                && v.compare(&mut hi.clone()) == Ordering::Less
            {
                out.push(v);
            }
        }
    }
    out.sort_by(|a, b| a.cmp_exact(b));
    out.dedup_by(|a, b| a.cmp_exact(b) == Ordering::Equal);
    out
}

/// Exact signs of the constraints at a point: `Some(zero list)` if all are ≥ 0.
fn contact_at_point<T: Clone>(cons: &[(Poly, T)], x: &mut RealRoot) -> Option<Vec<T>> {
    let mut zero = Vec::new();
    for (p, tag) in cons {
        match x.sign_of(p) {
            Ordering::Less => return None,
            Ordering::Equal => zero.push(tag.clone()),
            Ordering::Greater => {}
        }
    }
    Some(zero)
}

fn contact_at_rational<T>(cons: &[(Poly, T)], x: &BigRational) -> bool {
    cons.iter().all(|(p, _)| p.sign_at(x) != Ordering::Less)
}

enum State<T> {
    Before,
    In(Event<T>),
}

struct Machine<T> {
    state: State<T>,
    last_point: Option<(RealRoot, Vec<T>)>,
    done: Option<Period<T>>,
}

impl<T: Clone> Machine<T> {
    fn point(&mut self, x: RealRoot, in_s: Option<Vec<T>>, is_start: bool) {
        if self.done.is_some() {
            return;
        }
        match (&self.state, in_s) {
            (State::Before, Some(zero)) => {
                let ev = if is_start {
                    Event::Start
                } else {
                    Event::At {
                        t: x.clone(),
                        zero: zero.clone(),
                    }
                };
                self.state = State::In(ev);
                self.last_point = Some((x, zero));
            }
            (State::In(_), Some(zero)) => self.last_point = Some((x, zero)),
            (State::In(_), None) => self.close(),
            (State::Before, None) => {}
        }
    }

    fn open(&mut self, in_s: bool) {
        if self.done.is_some() {
            return;
        }
        match (&self.state, in_s) {
            (State::In(_), false) => self.close(),
            (State::Before, true) => {
                // Cannot happen for continuous constraints (the contact set is
                // closed, so the left end point was in contact); be safe.
                if let Some((x, z)) = self.last_point.clone() {
                    self.state = State::In(Event::At { t: x, zero: z });
                }
            }
            _ => {}
        }
    }

    fn close(&mut self) {
        let State::In(enter) = std::mem::replace(&mut self.state, State::Before) else {
            return;
        };
        let (t, zero) = self.last_point.clone().expect("a contact point precedes");
        self.done = Some(Period {
            enter,
            exit: Event::At { t, zero },
        });
    }
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
    let nonzero = |v: Vec<(Poly, T)>| -> Vec<(Poly, T)> {
        v.into_iter().filter(|(p, _)| !p.is_zero()).collect()
    };
    if t0 == t1 {
        let cons = nonzero(piece(t0));
        return contact_at_rational(&cons, t0).then_some(Period {
            enter: Event::Start,
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
    let mut m = Machine {
        state: State::Before,
        last_point: None,
        done: None,
    };
    let n = pts.len() - 1;
    for i in 0..n {
        let (left, right) = pts.split_at_mut(i + 1);
        let (lo, hi) = (&mut left[i], &mut right[0]);
        let sample = between(lo, hi);
        let cons = nonzero(piece(&sample));
        let culled = cull.is_some_and(|s| s.sign_at(&sample) == Ordering::Greater);
        let is_start = i == 0;
        let last = i + 1 == n;
        if culled {
            let in_s = if cull.is_some_and(|s| lo.sign_of(s) == Ordering::Greater) {
                None
            } else {
                contact_at_point(&cons, lo)
            };
            m.point(lo.clone(), in_s, is_start);
            m.open(false);
        } else if let Some(sep) = cons
            .iter()
            .find(|(p, _)| p.sign_at(&sample) == Ordering::Less)
        {
            // Fast path: one constraint negative at the sample with no root in
            // the closed piece (hull) separates the whole closed piece.
            if isolate_roots(&sep.0, lo.lo(), hi.hi())
                .isolated()
                .is_empty()
            {
                m.point(lo.clone(), None, is_start);
                m.open(false);
                if last {
                    m.point(hi.clone(), None, false);
                }
                if m.done.is_some() {
                    break;
                }
                continue;
            }
            full_piece(&mut m, &cons, lo, hi, is_start);
        } else {
            full_piece(&mut m, &cons, lo, hi, is_start);
        }
        if last {
            let in_s = contact_at_point(&cons, hi);
            m.point(hi.clone(), in_s, false);
        }
        if m.done.is_some() {
            break;
        }
    }
    if let Some(p) = m.done {
        return Some(p);
    }
    match m.state {
        State::Before => None,
        State::In(enter) => Some(Period {
            enter,
            exit: Event::End,
        }),
    }
}

fn full_piece<T: Clone>(
    m: &mut Machine<T>,
    cons: &[(Poly, T)],
    lo: &mut RealRoot,
    hi: &mut RealRoot,
    is_start: bool,
) {
    let ps: Vec<&Poly> = cons.iter().map(|(p, _)| p).collect();
    let mut inner = roots_inside(&ps, lo, hi);
    let in_s = contact_at_point(cons, lo);
    m.point(lo.clone(), in_s, is_start);
    let mut prev = lo.clone();
    for r in inner.iter_mut() {
        let s = between(&mut prev, r);
        m.open(contact_at_rational(cons, &s));
        let in_s = contact_at_point(cons, r);
        m.point(r.clone(), in_s, false);
        if m.done.is_some() {
            return;
        }
        prev = r.clone();
    }
    let s = between(&mut prev, hi);
    m.open(contact_at_rational(cons, &s));
}
