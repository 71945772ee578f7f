//! Real-root isolation by Descartes' rule of signs with Vincent–Collins–Akritas bisection.

use std::cmp::Ordering;
use std::sync::Arc;

use num_bigint::BigInt;
use num_rational::BigRational;
use num_traits::{One, Zero};

use super::dense::Poly;
use super::root::{IsolatingInterval, RealRoot, Root};
use super::zx;

/// All real roots of a polynomial in a closed interval.
#[derive(Clone, Debug)]
pub enum Roots {
    /// Finitely many roots, sorted ascending, pairwise distinct, each with its multiplicity.
    Isolated(Vec<Root>),
    /// The polynomial is identically zero: every point is a root.
    Everywhere,
}

impl Roots {
    /// The isolated roots (empty for [`Roots::Everywhere`]).
    pub fn isolated(&self) -> &[Root] {
        match self {
            Roots::Isolated(v) => v,
            Roots::Everywhere => &[],
        }
    }
}

/// Isolates every real root of `p` in the closed interval `[lo, hi]`.
///
/// Returns the distinct roots in ascending order, each with its multiplicity. A root found at
/// a rational point the algorithm evaluates — `lo`, `hi`, a bisection midpoint, the root of a
/// linear square-free factor — is reported as [`RealRoot::Exact`]; every other root comes as an
/// [`IsolatingInterval`] of the square-free factor it belongs to, disjoint from the others.
/// `lo > hi` gives no roots; `lo = hi` checks that single point; the zero polynomial gives
/// [`Roots::Everywhere`].
///
/// Method: the input is made primitive over ℤ and square-free (a gcd(p, p′) test modulo
/// 2⁶¹ − 1 proves most inputs square-free; otherwise Yun's decomposition gives each
/// multiplicity its own factor), mapped onto (0, 1), and isolated by Descartes' rule of signs
/// with Vincent–Collins–Akritas bisection on integer coefficients.
///
/// ```
/// use exact_collision::poly::{isolate_roots, Poly, RealRoot, Roots};
/// use num_rational::BigRational;
///
/// // (x − 1/2)² (x² − 2) on [0, 2]
/// let p = &(&Poly::from_ints(&[1, -4, 4]) * &Poly::from_ints(&[-2, 0, 1])) * &Poly::one();
/// let r = |n: i64| BigRational::from_integer(n.into());
/// let Roots::Isolated(roots) = isolate_roots(&p, &r(0), &r(2)) else { panic!() };
/// assert_eq!(roots.len(), 2);
/// assert!(matches!(&roots[0].value, RealRoot::Exact(x) if *x == BigRational::new(1.into(), 2.into())));
/// assert_eq!(roots[0].multiplicity, 2);
/// assert!(matches!(roots[1].value, RealRoot::Interval(_)));
/// ```
pub fn isolate_roots(p: &Poly, lo: &BigRational, hi: &BigRational) -> Roots {
    isolate_limited(p, lo, hi, usize::MAX)
}

/// The smallest root of `p` in `[lo, hi]` (roots at `lo` count), as `Roots` holding at most
/// one root; [`Roots::Everywhere`] for the zero polynomial. Stops the search as soon as the
/// leftmost root is isolated, so it is cheaper than [`isolate_roots`] when there are many.
///
/// ```
/// use exact_collision::poly::{first_root_in, Poly, Roots};
/// use num_rational::BigRational;
///
/// let p = Poly::from_ints(&[6, -5, 1]); // (x − 2)(x − 3)
/// let r = |n: i64| BigRational::from_integer(n.into());
/// let Roots::Isolated(first) = first_root_in(&p, &r(0), &r(10)) else { panic!() };
/// let mut root = first[0].value.clone(); // an isolating interval around 2
/// assert!(root.make_exact_if_rational());
/// assert_eq!(root.as_exact(), Some(&r(2)));
/// ```
pub fn first_root_in(p: &Poly, lo: &BigRational, hi: &BigRational) -> Roots {
    isolate_limited(p, lo, hi, 1)
}

/// The `limit` smallest roots of `p` in `[lo, hi]` (all of them if there are fewer), sorted,
/// as [`isolate_roots`] would report them; [`Roots::Everywhere`] for the zero polynomial.
pub fn isolate_roots_limited(p: &Poly, lo: &BigRational, hi: &BigRational, limit: usize) -> Roots {
    isolate_limited(p, lo, hi, limit.max(1))
}

fn isolate_limited(p: &Poly, lo: &BigRational, hi: &BigRational, limit: usize) -> Roots {
    if p.is_zero() {
        return Roots::Everywhere;
    }
    if lo > hi || p.degree() == Some(0) {
        return Roots::Isolated(Vec::new());
    }
    Factored::from_primitive(p.primitive_integer()).roots_limited(lo, hi, limit)
}

/// A nonconstant polynomial's primitive square-free factors with their multiplicities,
/// computed once, for isolating its roots in several intervals (each call of
/// [`isolate_roots`] factors its input again).
pub(crate) struct Factored {
    factors: Vec<(Arc<[BigInt]>, u32)>,
}

impl Factored {
    /// The factors of an integer polynomial; `None` if it is constant (no roots, or
    /// every point a root).
    pub(crate) fn new(z: &[BigInt]) -> Option<Factored> {
        let mut z = z.to_vec();
        zx::trim(&mut z);
        if z.len() < 2 {
            return None;
        }
        zx::primitive(&mut z);
        Some(Factored::from_primitive(z))
    }

    /// The factors of a primitive nonconstant `z` (positive leading coefficient).
    fn from_primitive(z: Vec<BigInt>) -> Factored {
        let factors = if z.len() <= 2 || zx::square_free_mod_p(&z) {
            vec![(z.into(), 1)]
        } else {
            zx::square_free_factors(&z)
                .into_iter()
                .map(|(f, m)| (f.into(), m))
                .collect()
        };
        Factored { factors }
    }

    /// The roots in `[lo, hi]`, as [`isolate_roots`] reports them.
    pub(crate) fn roots(&self, lo: &BigRational, hi: &BigRational) -> Vec<Root> {
        match self.roots_limited(lo, hi, usize::MAX) {
            Roots::Isolated(v) => v,
            Roots::Everywhere => unreachable!("nonconstant"),
        }
    }

    fn roots_limited(&self, lo: &BigRational, hi: &BigRational, limit: usize) -> Roots {
        let mut out = Vec::new();
        if lo > hi {
            return Roots::Isolated(out);
        }
        let single = self.factors.len() == 1;
        for (f, m) in &self.factors {
            isolate_square_free(f.clone(), *m, lo, hi, limit, &mut out);
        }
        if !single {
            // Roots of coprime factors are distinct, so this exact sort terminates.
            out.sort_by(|a, b| a.value.cmp_exact(&b.value));
            out.truncate(limit);
            // Intervals of different factors may overlap: refine neighbours apart.
            for i in 1..out.len() {
                let (l, r) = out.split_at_mut(i);
                l[i - 1].value.separate_from(&mut r[0].value);
            }
        }
        Roots::Isolated(out)
    }
}

/// One node of the bisection tree: `poly(t) = C · q((c + t) / 2^k)`, C > 0, covering
/// `(c/2^k, (c+1)/2^k)` of the unit interval. `poly` has no root at t = 0 or t = 1; the flags
/// say whether the node's endpoints are roots of `q` that were divided out.
struct Node {
    k: u32,
    c: BigInt,
    poly: Vec<BigInt>,
    left_is_root: bool,
    right_is_root: bool,
}

enum Task {
    Node(Node),
    Exact(u32, BigInt),
}

/// Isolates the roots of the square-free primitive `f` in `[lo, hi]`, appending at most
/// `limit` of them (the smallest) to `out` in ascending order.
fn isolate_square_free(
    f: Arc<[BigInt]>,
    mult: u32,
    lo: &BigRational,
    hi: &BigRational,
    limit: usize,
    out: &mut Vec<Root>,
) {
    let start = out.len();
    let full = |out: &Vec<Root>| out.len() - start >= limit;
    let exact = |x: BigRational| Root {
        value: RealRoot::Exact(x),
        multiplicity: mult,
    };
    if f.len() < 2 {
        return;
    }
    if f.len() == 2 {
        // Linear: the root −f₀/f₁ is rational.
        let x = BigRational::new(-f[0].clone(), f[1].clone());
        if lo <= &x && &x <= hi {
            out.push(exact(x));
        }
        return;
    }
    let s_lo = zx::sign_at(&f, lo);
    if s_lo == Ordering::Equal {
        out.push(exact(lo.clone()));
        if full(out) {
            return;
        }
    }
    if lo == hi {
        return;
    }
    let s_hi = zx::sign_at(&f, hi);
    let q_full = zx::affine_to_unit(&f, lo, hi);
    let mut q = q_full.clone();
    if s_lo == Ordering::Equal {
        q.remove(0);
    }
    if s_hi == Ordering::Equal {
        zx::deflate_one(&mut q);
    }
    let w = hi - lo;
    // lo + w·c/2^k = (a·f·2^k + e·c·b) / (b·f·2^k) for lo = a/b, w = e/f: one reduction.
    let (wf_lo, eb) = (lo.numer() * w.denom(), w.numer() * lo.denom());
    let bf = lo.denom() * w.denom();
    let to_x =
        |k: u32, c: &BigInt| -> BigRational { BigRational::new((&wf_lo << k) + &eb * c, &bf << k) };
    let mut buf = Vec::new();
    let mut stack = vec![Task::Node(Node {
        k: 0,
        c: BigInt::zero(),
        poly: q,
        left_is_root: s_lo == Ordering::Equal,
        right_is_root: s_hi == Ordering::Equal,
    })];
    while let Some(task) = stack.pop() {
        let nd = match task {
            Task::Exact(k, c) => {
                out.push(exact(to_x(k, &c)));
                if full(out) {
                    return;
                }
                continue;
            }
            Task::Node(nd) => nd,
        };
        let v = zx::descartes_unit(&nd.poly, &mut buf);
        if v == 0 {
            continue;
        }
        if v == 1 && !nd.left_is_root && !nd.right_is_root {
            let c1 = &nd.c + 1u32;
            let sign_lo = zx::ord_of(&zx::eval_hom(&q_full, &nd.c, &(BigInt::one() << nd.k)));
            let iv = IsolatingInterval::new_unchecked(
                f.clone(),
                to_x(nd.k, &nd.c),
                to_x(nd.k, &c1),
                sign_lo,
            );
            out.push(Root {
                value: RealRoot::Interval(iv),
                multiplicity: mult,
            });
            if full(out) {
                return;
            }
            continue;
        }
        // Bisect: left(t) = 2^d · poly(t/2), right(t) = left(t + 1).
        let d = nd.poly.len() - 1;
        let mut left = nd.poly;
        for (i, c) in left.iter_mut().enumerate() {
            *c <<= d - i;
        }
        zx::remove_pow2_content(&mut left);
        let mut right = left.clone();
        zx::taylor_shift_one(&mut right);
        let mid_is_root = right[0].is_zero();
        if mid_is_root {
            right.remove(0);
            zx::deflate_one(&mut left);
        }
        let k = nd.k + 1;
        let c2 = &nd.c << 1u32;
        let c2p1 = &c2 + 1u32;
        stack.push(Task::Node(Node {
            k,
            c: c2p1.clone(),
            poly: right,
            left_is_root: mid_is_root,
            right_is_root: nd.right_is_root,
        }));
        if mid_is_root {
            stack.push(Task::Exact(k, c2p1));
        }
        stack.push(Task::Node(Node {
            k,
            c: c2,
            poly: left,
            left_is_root: nd.left_is_root,
            right_is_root: mid_is_root,
        }));
    }
    if s_hi == Ordering::Equal && !full(out) {
        out.push(exact(hi.clone()));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn r(n: i64, d: i64) -> BigRational {
        BigRational::new(n.into(), d.into())
    }

    #[test]
    fn roots_at_ends_and_midpoints() {
        // x (x − 1/2)(x − 1)(x − 1/3)
        let p = &(&Poly::from_ints(&[0, -1, 1]) * &Poly::from_ints(&[-1, 2]))
            * &Poly::from_ints(&[-1, 3]);
        let roots = isolate_roots(&p, &r(0, 1), &r(1, 1));
        let v = roots.isolated();
        assert_eq!(v.len(), 4);
        assert_eq!(v[0].value.as_exact(), Some(&r(0, 1)));
        assert!(matches!(v[1].value, RealRoot::Interval(_)));
        assert!(v[1].value.lo() < &r(1, 3) && v[1].value.hi() > &r(1, 3));
        assert_eq!(v[2].value.as_exact(), Some(&r(1, 2)));
        assert_eq!(v[3].value.as_exact(), Some(&r(1, 1)));
    }

    #[test]
    fn degenerate_inputs() {
        assert!(matches!(
            isolate_roots(&Poly::zero(), &r(0, 1), &r(1, 1)),
            Roots::Everywhere
        ));
        assert!(isolate_roots(&Poly::from_ints(&[3]), &r(0, 1), &r(1, 1))
            .isolated()
            .is_empty());
        assert!(isolate_roots(&Poly::from_ints(&[0, 1]), &r(1, 1), &r(0, 1))
            .isolated()
            .is_empty());
        let point = isolate_roots(&Poly::from_ints(&[-1, 3]), &r(1, 3), &r(1, 3));
        assert_eq!(point.isolated().len(), 1);
    }

    #[test]
    fn multiplicities() {
        // (x − 1)³ (x² − 3)² on [−2, 2]
        let a = Poly::from_ints(&[-1, 1]);
        let b = Poly::from_ints(&[-3, 0, 1]);
        let p = &(&(&a * &a) * &a) * &(&b * &b);
        let v = isolate_roots(&p, &r(-2, 1), &r(2, 1));
        let m: Vec<u32> = v.isolated().iter().map(|x| x.multiplicity).collect();
        assert_eq!(m, vec![2, 3, 2]);
        let first = first_root_in(&p, &r(-2, 1), &r(2, 1));
        assert_eq!(first.isolated().len(), 1);
        let minus_1_7 = RealRoot::Exact(r(-17, 10));
        assert_eq!(
            first.isolated()[0].value.cmp_exact(&minus_1_7),
            Ordering::Less
        );
    }
}
