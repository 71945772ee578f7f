//! The certificates of triangle–triangle `intersect` from float inputs, in
//! integers: the separating axis, the crossing witness and contact segment,
//! the coplanar contact polygon.
//!
//! Every quantity is an exact integer built from the aligned coordinates
//! ([`super::align`]: each coordinate is `X·2^e0` with `|X| < 2⁶¹`); every
//! choice the exact path makes (which candidate axis separates first, which
//! cut point is lower, which side of a line a point is on) is decided by a
//! float evaluation with a running error bound ([`Ef`]) and, when the bound
//! cannot decide, by the same quantity in fixed-width integers
//! ([`crate::fixed::Int`]). The points are kept unreduced (`X / w`) until the
//! answer is written: reduced once for the exact answer ([`IPoint::to_q`]),
//! rounded directly for the f32/f64 answer ([`IPoint::round`]).
//!
//! The choices are the exact path's (`triangle_triangle::separating_axis`,
//! `contact_of`, `clip`, `shape_of`), so the answers are equal, bit for bit
//! after reduction; `docs/triangle.md` has the derivations.

use super::{
    along, cross, finish, idot, int, nonzero_product, sub, vertex, Ef, Reducer, Q, U, V, W,
};
use crate::fixed::{Int, Nat};
use crate::scalar::Scalar;
use crate::vector::Vec3;
use num_bigint::{BigInt, Sign as BSign};

/// A point of a certificate, exact and unreduced: a vertex (`0..3` of a,
/// `3..6` of b), or `(t0·w + d·s) / w · 2^e0` with `w > 0`.
#[derive(Clone, Debug)]
pub(crate) enum IPoint {
    Vertex(usize),
    Along { t0: V, d: [Int; 3], s: Int, w: Int },
}

/// A separating axis `l · 2^p` (integer components).
#[derive(Clone, Debug)]
pub(crate) struct IAxis {
    pub(crate) l: [Int; 3],
    pub(crate) p: i64,
}

/// The contact set, as the exact path's `Contact`, with integer points.
#[derive(Clone, Debug)]
pub(crate) enum IContact {
    Point(IPoint),
    Segment(IPoint, IPoint),
    Polygon(Vec<IPoint>),
}

/// `n / d · 2^p` as an unreduced `BigRational` (`d > 0`): only to be
/// rounded, never compared or printed.
pub(crate) fn unreduced(n: &Int, d: &Nat, p: i64) -> Q {
    let s = if n.is_neg() { BSign::Minus } else { BSign::Plus };
    let (sn, sd) = if p >= 0 { (p as u64, 0) } else { (0, (-p) as u64) };
    Q::new_raw(
        BigInt::from_biguint(s, n.mag().shl_big(sn)),
        BigInt::from_biguint(BSign::Plus, d.shl_big(sd)),
    )
}

impl IPoint {
    /// The exact point in lowest terms (one full-size gcd, [`Reducer`]).
    pub(crate) fn to_q(&self, x: &[V; 6], e0: i64) -> Vec3<Q> {
        match self {
            IPoint::Vertex(k) => vertex(&x[*k], e0),
            IPoint::Along { t0, d, s, w } => {
                let red = Reducer::new(w.mag(), &[*s.mag(), nonzero_product(d)]);
                along(t0, d, s, w, &red, e0)
            }
        }
    }

    /// [`IPoint::to_q`] with a reducer built for this point's denominator and
    /// factors (shared by the points of one answer).
    pub(super) fn to_q_with(&self, x: &[V; 6], e0: i64, red: &Reducer) -> Vec3<Q> {
        match self {
            IPoint::Vertex(k) => vertex(&x[*k], e0),
            IPoint::Along { t0, d, s, w } => along(t0, d, s, w, red, e0),
        }
    }

    /// The point rounded to `S` (f32/f64), each coordinate correctly rounded
    /// from the unreduced quotient (no gcd); `v` are the input vertices.
    pub(crate) fn round<S: Scalar>(&self, v: &[&Vec3<S>; 6], e0: i64) -> Vec3<S> {
        debug_assert!(!S::IS_EXACT);
        match self {
            IPoint::Vertex(k) => v[*k].clone(),
            IPoint::Along { t0, d, s, w } => {
                let c = |k: usize| {
                    let n = int(t0[k] as i128).mul(w).add(&d[k].mul(s));
                    S::from_rational(&unreduced(&n, w.mag(), e0))
                };
                Vec3::new(c(0), c(1), c(2))
            }
        }
    }
}

impl IAxis {
    /// The exact axis (powers of two cancelled; no gcd needed).
    pub(crate) fn to_q(&self) -> Vec3<Q> {
        let one = Nat::from_u128(1);
        let c = |k: usize| {
            let l = &self.l[k];
            match l.mag().to_u128() {
                Some(m) if m < 1 << 127 => {
                    let v = m as i128;
                    super::dyadic_q(if l.is_neg() { -v } else { v }, self.p)
                }
                _ => finish(l, &one, &one, self.p),
            }
        };
        Vec3::new(c(0), c(1), c(2))
    }
}

impl IContact {
    /// The first point (the witness).
    pub(crate) fn first(&self) -> &IPoint {
        match self {
            IContact::Point(p) | IContact::Segment(p, _) => p,
            IContact::Polygon(v) => &v[0],
        }
    }
}

/// `Σ l_k·v_k` for float components with error bounds and exact `v`.
fn edot(l: &[Ef; 3], v: &V) -> Ef {
    l[0].mul(Ef::small(v[0]))
        .add(l[1].mul(Ef::small(v[1])))
        .add(l[2].mul(Ef::small(v[2])))
}

/// The sign of the exact value of `x` when its bound decides it (an error
/// bound of 0 means `x.v` is exact).
fn esign(x: Ef) -> Option<i32> {
    if x.v > x.e {
        Some(1)
    } else if x.v < -x.e {
        Some(-1)
    } else if x.e == 0.0 {
        Some(0)
    } else {
        None
    }
}

/// A candidate axis of the exact path, as the product that forms it.
#[derive(Clone, Copy)]
enum Cand {
    /// A degree-2 vector, exact in `i128` (a normal, or an edge × edge).
    W(W),
    /// `n × e` (degree 3).
    NE(W, V),
    /// `e × n` (degree 3).
    EN(V, W),
    /// `n × m` (degree 4).
    NN(W, W),
}

fn ecross_we(n: &W, e: &V) -> [Ef; 3] {
    let (w, s) = (Ef::wide, Ef::small);
    [0, 1, 2].map(|i| {
        let (y, z) = ((i + 1) % 3, (i + 2) % 3);
        w(n[y]).mul(s(e[z])).add(w(n[z]).mul(s(e[y])).neg())
    })
}

fn icross(x: &[Int; 3], y: &[Int; 3]) -> [Int; 3] {
    [0, 1, 2].map(|i| {
        let (j, k) = ((i + 1) % 3, (i + 2) % 3);
        x[j].mul(&y[k]).sub(&x[k].mul(&y[j]))
    })
}

impl Cand {
    /// The degree (the axis is the integer vector times `2^(deg·e0)`).
    fn degree(&self) -> i64 {
        match self {
            Cand::W(_) => 2,
            Cand::NE(..) | Cand::EN(..) => 3,
            Cand::NN(..) => 4,
        }
    }
    fn float(&self) -> [Ef; 3] {
        match self {
            Cand::W(w) => w.map(Ef::wide),
            Cand::NE(n, e) => ecross_we(n, e),
            Cand::EN(e, n) => ecross_we(n, e).map(Ef::neg),
            Cand::NN(n, m) => [0, 1, 2].map(|i| {
                let (y, z) = ((i + 1) % 3, (i + 2) % 3);
                let w = Ef::wide;
                w(n[y]).mul(w(m[z])).add(w(n[z]).mul(w(m[y])).neg())
            }),
        }
    }
    fn exact(&self) -> [Int; 3] {
        let iw = |w: &W| w.map(int);
        let iv = |v: &V| v.map(|c| int(c as i128));
        match self {
            Cand::W(w) => iw(w),
            Cand::NE(n, e) => icross(&iw(n), &iv(e)),
            Cand::EN(e, n) => icross(&iv(e), &iw(n)),
            Cand::NN(n, m) => icross(&iw(n), &iw(m)),
        }
    }
}

/// The normal `(t₁ − t₀) × (t₂ − t₀)` of a triangle as an axis (degree 2).
pub(crate) fn normal_axis(t: &[V], e0: i64) -> IAxis {
    IAxis {
        l: cross(&sub(&t[1], &t[0]), &sub(&t[2], &t[0])).map(int),
        p: 2 * e0,
    }
}

/// Which candidates of the exact path's list are known not to separate.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum Skip {
    /// Neither plane separates (the crossing configuration): the two
    /// normals are skipped.
    Planes,
    /// Coplanar triangles: the normals and the nine edge × edge axes (all
    /// along the common normal) give projections that are all equal.
    Coplanar,
}

/// The exact path's separating axis (`triangle_triangle::separating_axis`):
/// the first of its 24 candidates that separates the vertex sets, in its
/// order, each separation decided exactly. `None` if none of them separates
/// (then the exact path's last resort, the closest-point difference, is
/// needed: the caller hands over).
///
/// The candidates: `n_a`, `n_b`, the nine `e_a × e_b`, then for each edge
/// `x` of a `n_a × x` and `x × n_b`, for each edge `y` of b `n_b × y` and
/// `n_a × y`, and `n_a × n_b`, with `e₀ = t₁ − t₀`, `e₁ = t₂ − t₁`,
/// `e₂ = t₀ − t₂` and `n = (t₁ − t₀) × (t₂ − t₀)`. `l` separates when every
/// `δᵢⱼ = l·(bⱼ − aᵢ)` is > 0, or every one is < 0.
pub(crate) fn separating_axis(x: &[V; 6], e0: i64, skip: Skip) -> Option<IAxis> {
    // Relative to a₀ (|X| < 2⁶¹, so every difference is below 2⁶² and every
    // product of two differences below 2¹²⁴).
    let o = x[0];
    let r: [V; 6] = x.map(|p| sub(&p, &o));
    let (a, b) = ([r[0], r[1], r[2]], [r[3], r[4], r[5]]);
    let ea = [0, 1, 2].map(|i| sub(&a[(i + 1) % 3], &a[i]));
    let eb = [0, 1, 2].map(|i| sub(&b[(i + 1) % 3], &b[i]));
    let na = cross(&sub(&a[1], &a[0]), &sub(&a[2], &a[0]));
    let nb = cross(&sub(&b[1], &b[0]), &sub(&b[2], &b[0]));
    let mut cands = [Cand::W(na); 24];
    cands[1] = Cand::W(nb);
    for i in 0..3 {
        for j in 0..3 {
            cands[2 + 3 * i + j] = Cand::W(cross(&ea[i], &eb[j]));
        }
        cands[11 + 2 * i] = Cand::NE(na, ea[i]);
        cands[12 + 2 * i] = Cand::EN(ea[i], nb);
        cands[17 + 2 * i] = Cand::NE(nb, eb[i]);
        cands[18 + 2 * i] = Cand::NE(na, eb[i]);
    }
    cands[23] = Cand::NN(na, nb);
    let first = match skip {
        Skip::Planes => 2,
        Skip::Coplanar => 11,
    };
    for c in &cands[first..] {
        if separates(c, &a, &b) {
            return Some(IAxis {
                l: c.exact(),
                p: c.degree() * e0,
            });
        }
    }
    None
}

/// Whether `c` separates, decided exactly: the nine `δᵢⱼ` in floats with
/// error bounds, the undecided ones in integers.
fn separates(c: &Cand, a: &[V; 3], b: &[V; 3]) -> bool {
    let l = c.float();
    let pa = a.each_ref().map(|v| edot(&l, v));
    let pb = b.each_ref().map(|v| edot(&l, v));
    let mut s = [[None; 3]; 3];
    let (mut pos, mut neg, mut open) = (false, false, false);
    for i in 0..3 {
        for j in 0..3 {
            let d = esign(pb[j].add(pa[i].neg()));
            match d {
                Some(0) => return false,
                Some(1) => pos = true,
                Some(_) => neg = true,
                None => open = true,
            }
            if pos && neg {
                return false;
            }
            s[i][j] = d;
        }
    }
    if !open {
        return true; // all nonzero, and all of one sign
    }
    let l = c.exact();
    let iv = |v: &V| v.map(|c| int(c as i128));
    for i in 0..3 {
        for j in 0..3 {
            if s[i][j].is_none() {
                match idot(&l, &iv(&sub(&b[j], &a[i]))).signum() {
                    0 => return false,
                    1 => pos = true,
                    _ => neg = true,
                }
                if pos && neg {
                    return false;
                }
            }
        }
    }
    true
}

/// The crossing configuration's contact: the low end of the overlap of the
/// two triangles on `L = plane(a) ∩ plane(b)`, and (when `need_hi`) the high
/// end, `None` when it is the same point.
pub(crate) struct CrossingSet {
    pub(crate) lo: IPoint,
    pub(crate) hi: Option<IPoint>,
}

/// The crossing contact of `triangle_triangle::contact_of` in fixed-width
/// integers, on the aligned coordinates (`ia`, `ib`: the relabelled vertex
/// indices of the decision). The four cut points `X/w` are ordered along the
/// line by their quotients `dir·X/w` in f64 with running error bounds computed
/// from the exact `i64`/`i128` inputs; only an order the bounds cannot decide
/// is settled exactly (every point `X / w` compared by cross-multiplication,
/// at most 700 bits), and only the chosen points are computed exactly.
/// `None` if the low end comes out above the high end (not a meeting pair:
/// never for a pair the exact decision says meets).
pub(crate) fn crossing(
    x: &[V; 6],
    ia: [usize; 3],
    ib: [usize; 3],
    need_hi: bool,
) -> Option<CrossingSet> {
    let a = [x[0], x[1], x[2]];
    let b = [x[3], x[4], x[5]];
    let nrm = |t: &[V; 3]| cross(&sub(&t[1], &t[0]), &sub(&t[2], &t[0]));
    let (na, nb) = (nrm(&a), nrm(&b));
    // The cut point of the edge t0–x with the plane n·(y − o) = 0:
    // t0 + (x − t0)·sp/(sp − sx), with sp = n·(t0 − o) and sx = n·(x − o).
    #[derive(Clone, Copy)]
    struct Spec {
        t0: V,
        x: V,
        n: W,
        o: V,
    }
    // Exactly, as (t0, x − t0, sp, w = sp − sx) with w > 0 (the signs of sp
    // and w flipped together).
    let iv = |v: &V| v.map(|c| int(c as i128));
    let exact = |s: &Spec| {
        let n = s.n.map(int);
        let sp = idot(&n, &iv(&sub(&s.t0, &s.o)));
        let w = sp.sub(&idot(&n, &iv(&sub(&s.x, &s.o))));
        let d = iv(&sub(&s.x, &s.t0));
        if w.is_neg() {
            (s.t0, d, sp.neg(), w.neg())
        } else {
            (s.t0, d, sp, w)
        }
    };
    let point = |s: &Spec| {
        let (t0, d, s, w) = exact(s);
        IPoint::Along { t0, d, s, w }
    };
    let spec = |t: &[V; 3], i: [usize; 3], n: &W, o: &V, k: usize| Spec {
        t0: t[i[0]],
        x: t[i[k]],
        n: *n,
        o: *o,
    };
    let cuts = [
        spec(&a, ia, &nb, &b[0], 1),
        spec(&a, ia, &nb, &b[0], 2),
        spec(&b, ib, &na, &a[0], 1),
        spec(&b, ib, &na, &a[0], 2),
    ];
    // dir = na × nb, in f64 with error bounds.
    let dir_f = [0, 1, 2].map(|k| {
        let (i, j) = ((k + 1) % 3, (k + 2) % 3);
        Ef::wide(na[i])
            .mul(Ef::wide(nb[j]))
            .add(Ef::wide(na[j]).mul(Ef::wide(nb[i])).neg())
    });
    // dir·X/w = (dir·t0 + dir·(x − t0)·sp/w) and its error bound, or None
    // when the sign of w is not certain.
    let quotient = |s: &Spec| -> Option<(f64, f64)> {
        let sp = Ef::dot(&s.n, &sub(&s.t0, &s.o));
        let w = sp.add(Ef::dot(&s.n, &sub(&s.x, &s.o)).neg());
        if w.v.abs() <= w.e {
            return None;
        }
        let (sp, w) = if w.v < 0.0 {
            (sp.neg(), w.neg())
        } else {
            (sp, w)
        };
        let kx = edot(&dir_f, &s.t0)
            .mul(w)
            .add(edot(&dir_f, &sub(&s.x, &s.t0)).mul(sp));
        let q = kx.v / w.v;
        let e = ((kx.e + q.abs() * w.e) / (w.v - w.e) + U * q.abs()) * (1.0 + 8.0 * U);
        Some((q, e))
    };
    let qs = cuts.each_ref().map(quotient);
    // sign(dir·X/w − dir·Y/v): in f64 when the bounds decide, else exactly as
    // sign(dir·X·v − dir·Y·w).
    let ord = |x: usize, y: usize| {
        if x == y {
            return 0;
        }
        if let (Some((qx, ex)), Some((qy, ey))) = (qs[x], qs[y]) {
            let m = (ex + ey) * (1.0 + 8.0 * U);
            if qx - qy > m {
                return 1;
            } else if qy - qx > m {
                return -1;
            }
        }
        #[cfg(test)]
        super::ORD_EXACT.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let (na, nb) = (na.map(int), nb.map(int));
        let dir = icross(&na, &nb);
        // dir·X = (dir·t0)·w + (dir·(x − t0))·sp.
        let key = |c: &(V, [Int; 3], Int, Int)| {
            idot(&dir, &iv(&c.0))
                .mul(&c.3)
                .add(&idot(&dir, &c.1).mul(&c.2))
        };
        let (cx, cy) = (exact(&cuts[x]), exact(&cuts[y]));
        key(&cx).mul(&cy.3).sub(&key(&cy).mul(&cx.3)).signum()
    };
    let (lo1, hi1) = if ord(0, 1) <= 0 { (0, 1) } else { (1, 0) };
    let (lo2, hi2) = if ord(2, 3) <= 0 { (2, 3) } else { (3, 2) };
    let lo = if ord(lo1, lo2) >= 0 { lo1 } else { lo2 };
    if !need_hi {
        return Some(CrossingSet {
            lo: point(&cuts[lo]),
            hi: None,
        });
    }
    let hi = if ord(hi1, hi2) <= 0 { hi1 } else { hi2 };
    let hi = match ord(lo, hi) {
        1 => return None,
        0 => None,
        _ => Some(point(&cuts[hi])),
    };
    Some(CrossingSet {
        lo: point(&cuts[lo]),
        hi,
    })
}
