//! The certificates of triangle–triangle `intersect` from float inputs, in
//! integers: the separating axis, the crossing witness and contact segment,
//! the coplanar contact polygon.
//!
//! Every quantity is an exact integer built from the aligned coordinates
//! ([`super::ints::align`]: each coordinate is `X·2^e0` with `|X| < 2⁶¹`); every
//! choice the exact path makes (which candidate axis separates first, which
//! cut point is lower, which side of a line a point is on) is decided by a
//! float evaluation with a running error bound ([`Ef`]) and, when the bound
//! cannot decide, by the same quantity in fixed-width integers
//! ([`crate::num::fixed::Int`]). The points are kept unreduced (`X / w`) until the
//! answer is written: reduced once for the exact answer ([`IPoint::to_q`]),
//! rounded directly for the f32/f64 answer ([`IPoint::round`]).
//!
//! The choices are the exact path's (`triangle_triangle::separating_axis`,
//! `contact_of`, `clip`, `shape_of`), so the answers are equal, bit for bit
//! after reduction; `docs/triangle.md` has the derivations.

use super::ints::{align, cross, f, idot, int, sub, Ef, IAxis, IContact, IPoint, Q, V, W};
use crate::num::bounded::U;
use crate::num::fixed::Int;
use crate::vector::Vec3;

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
    #[cfg(test)]
    SEP_EXACT.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
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
        crate::stats::ORD_EXACT.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
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

// ---------------------------------------------------------------------------
// The coplanar contact polygon: the exact path's Sutherland–Hodgman clip of a
// by b, replayed on symbolic points.
// ---------------------------------------------------------------------------

/// A point of the clip, by the lines it lies on: a vertex of a, a vertex of
/// b, or the meeting point of the line of a's edge `i` (`aᵢ → aᵢ₊₁`) and the
/// line of b's edge `e`.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Sym {
    A(usize),
    B(usize),
    X(usize, usize),
}

/// The line of an edge of a or of b.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Line {
    A(usize),
    B(usize),
}

type P2 = [i64; 2];

fn sub2(p: &P2, q: &P2) -> P2 {
    [p[0] - q[0], p[1] - q[1]]
}

/// The 2-D cross product (exact: factors below 2⁶², products below 2¹²⁴).
fn c2(p: &P2, q: &P2) -> i128 {
    p[0] as i128 * q[1] as i128 - p[1] as i128 * q[0] as i128
}

/// `sign(x·y + z·w)` of exact `i128`s: in f64 with the [`super::ints::sdot`]
/// bound, else in integers.
fn sign_sum2(x: i128, y: i128, z: i128, w: i128) -> i32 {
    let (v, e) = super::ints::sdot([f(x), f(z), 0.0], [f(y), f(w), 0.0]);
    if v > e {
        1
    } else if v < -e {
        -1
    } else {
        int(x).mul(&int(y)).add(&int(z).mul(&int(w))).signum()
    }
}

/// An `Int` as f64 within 4u relative (the top 126 bits converted within
/// 3u, the bits below dropped: less than 2⁻¹²⁵ relative). Values here are
/// below 2⁶⁴⁰: no overflow.
fn int_f64(x: &Int) -> f64 {
    let m = x.mag();
    let b = m.bits();
    let sh = b.saturating_sub(126);
    let top = m.shr(sh).to_u128().expect("126 bits") as i128;
    let v = f(top) * 2f64.powi(sh as i32);
    if x.is_neg() {
        -v
    } else {
        v
    }
}

/// The coplanar pair projected on the coordinate plane `(i, j)` where b's
/// normal has its largest component `k` (nonzero: b is not degenerate), with
/// coordinates relative to a₀. For points of the common plane,
/// `h_e(x) = ((v − u) × n_b)·(x − u) = n_b·((x − u) × (v − u))`, and
/// `(x − u) × (v − u)` is parallel to `n_b`, so the sign of the exact path's
/// clip function is `sign(c₂(x − u, v − u))·sign(n_b,k)`, with `c₂` the 2-D
/// cross product (the `k`-th component of the 3-D one).
struct Plane {
    /// 3-D coordinates relative to a₀ (a then b).
    r: [V; 6],
    /// Their projections.
    p: [P2; 6],
    sigma: i32,
}

/// A clip point with its 2-D homogeneous coordinates `X / w` (`w > 0`;
/// vertices `w = 1`) and a float approximation of `X / w` with a bound.
#[derive(Clone, Copy)]
struct CP {
    sym: Sym,
    /// The parameter on a's edge line (`X(i, e)` only): `num / den`, `den > 0`.
    num: i128,
    den: i128,
    approx: [f64; 2],
    err: [f64; 2],
}

impl Plane {
    fn new(x: &[V; 6]) -> Plane {
        let o = x[0];
        let r = x.map(|p| sub(&p, &o));
        let nb = cross(&sub(&r[4], &r[3]), &sub(&r[5], &r[3]));
        let k = (0..3).max_by_key(|&k| nb[k].unsigned_abs()).expect("3");
        let (i, j) = ((k + 1) % 3, (k + 2) % 3);
        Plane {
            r,
            p: r.map(|v| [v[i], v[j]]),
            sigma: nb[k].signum() as i32,
        }
    }
    fn a(&self, i: usize) -> &P2 {
        &self.p[i % 3]
    }
    fn b(&self, j: usize) -> &P2 {
        &self.p[3 + j % 3]
    }
    fn da(&self, i: usize) -> P2 {
        sub2(self.a(i + 1), self.a(i))
    }
    fn db(&self, e: usize) -> P2 {
        sub2(self.b(e + 1), self.b(e))
    }

    /// The point for `sym`, with its parameter and float approximation.
    fn point(&self, sym: Sym) -> CP {
        let exact = |v: &P2| {
            let a = [v[0] as f64, v[1] as f64];
            (a, [U * a[0].abs(), U * a[1].abs()])
        };
        let (num, den, (approx, err)) = match sym {
            Sym::A(i) => (0, 1, exact(self.a(i))),
            Sym::B(j) => (0, 1, exact(self.b(j))),
            Sym::X(i, e) => {
                // aᵢ + s·daᵢ = b_e + t·db_e: s = c₂(b_e − aᵢ, db_e) / c₂(daᵢ, db_e).
                let (da, db) = (self.da(i), self.db(e));
                let (mut num, mut den) = (c2(&sub2(self.b(e), self.a(i)), &db), c2(&da, &db));
                if den < 0 {
                    (num, den) = (-num, -den);
                }
                // f(num)/f(den) within 7.1u; times daᵢ (within u) and plus
                // aᵢ (within u): within 12u of |aᵢ| + |daᵢ·s|.
                let s = f(num) / f(den);
                let ai = self.a(i);
                let c = |k: usize| {
                    let t = da[k] as f64 * s;
                    let v = ai[k] as f64 + t;
                    (v, 12.0 * U * ((ai[k] as f64).abs() + t.abs()))
                };
                let (c0, c1) = (c(0), c(1));
                (num, den, ([c0.0, c1.0], [c0.1, c1.1]))
            }
        };
        CP {
            sym,
            num,
            den,
            approx,
            err,
        }
    }

    /// The exact path's `sign(h_e(x))` (≤ 0 inside the closed half-plane of
    /// b's edge `e`).
    fn side(&self, q: &CP, e: usize) -> i32 {
        let (u, d) = (self.b(e), self.db(e));
        let raw = match q.sym {
            Sym::A(i) => c2(&sub2(self.a(i), u), &d).signum() as i32,
            Sym::B(j) if j == e || j == (e + 1) % 3 => 0,
            Sym::B(j) => c2(&sub2(self.b(j), u), &d).signum() as i32,
            Sym::X(_, f) if f == e => 0,
            Sym::X(i, _) => {
                // c₂(aᵢ + daᵢ·num/den − u, d)·den = c₂(aᵢ − u, d)·den + c₂(daᵢ, d)·num.
                let (c1, c2v) = (c2(&sub2(self.a(i), u), &d), c2(&self.da(i), &d));
                sign_sum2(c1, q.den, c2v, q.num)
            }
        };
        raw * self.sigma
    }

    /// 2-D homogeneous coordinates, exactly.
    fn hom2(&self, q: &CP) -> ([Int; 2], Int) {
        match q.sym {
            Sym::A(_) | Sym::B(_) => {
                let v = match q.sym {
                    Sym::A(i) => self.a(i),
                    Sym::B(j) => self.b(j),
                    _ => unreachable!(),
                };
                (v.map(|c| int(c as i128)), int(1))
            }
            Sym::X(i, _) => {
                let (a, da) = (self.a(i), self.da(i));
                let (num, den) = (int(q.num), int(q.den));
                (
                    [0, 1].map(|k| {
                        int(a[k] as i128)
                            .mul(&den)
                            .add(&int(da[k] as i128).mul(&num))
                    }),
                    den,
                )
            }
        }
    }

    /// 3-D homogeneous coordinates (relative to a₀), exactly.
    fn hom3(&self, q: &CP) -> ([Int; 3], Int) {
        let iv = |v: &V| v.map(|c| int(c as i128));
        match q.sym {
            Sym::A(i) => (iv(&self.r[i]), int(1)),
            Sym::B(j) => (iv(&self.r[3 + j]), int(1)),
            Sym::X(i, _) => {
                let (a, da) = (&self.r[i], sub(&self.r[(i + 1) % 3], &self.r[i]));
                let (num, den) = (int(q.num), int(q.den));
                (
                    [0, 1, 2].map(|k| {
                        int(a[k] as i128)
                            .mul(&den)
                            .add(&int(da[k] as i128).mul(&num))
                    }),
                    den,
                )
            }
        }
    }

    /// Whether two clip points are the same point, exactly.
    fn same(&self, p: &CP, q: &CP) -> bool {
        if p.sym == q.sym {
            return true;
        }
        for k in 0..2 {
            if (p.approx[k] - q.approx[k]).abs() > (p.err[k] + q.err[k]) * (1.0 + 4.0 * U) {
                return false;
            }
        }
        let ((xp, wp), (xq, wq)) = (self.hom2(p), self.hom2(q));
        (0..2).all(|k| xp[k].mul(&wq).sub(&xq[k].mul(&wp)).signum() == 0)
    }

    /// The output point.
    fn ipoint(&self, x: &[V; 6], q: &CP) -> IPoint {
        match q.sym {
            Sym::A(i) => IPoint::Vertex(i),
            Sym::B(j) => IPoint::Vertex(3 + j),
            Sym::X(i, _) => IPoint::Along {
                t0: x[i],
                d: sub(&x[(i + 1) % 3], &x[i]).map(|c| int(c as i128)),
                s: int(q.num),
                w: int(q.den),
            },
        }
    }
}

/// The coplanar contact set of `triangle_triangle::contact_of` (a clipped by
/// the three closed half-planes of b, in the exact path's order, then
/// `shape_of`: duplicates removed in order, a collinear set reduced to its
/// two extreme points), on symbolic points: every clip point lies on the
/// line of an edge of a or of b, every new point is the meeting point of the
/// current polygon edge's line with the clip line (a vertex of b when both
/// are b's lines), so every sign and comparison is a low-degree integer
/// expression decided in f64 with a bound and, when needed, in integers.
/// `None` (hand over) when the farthest point from the first one (the exact
/// path's choice of direction for a collinear set) is not certified by the
/// float bounds, or the clip comes out empty.
pub(crate) fn coplanar_contact(x: &[V; 6]) -> Option<IContact> {
    let pl = Plane::new(x);
    // (point, the line of its outgoing edge).
    let mut poly: Vec<(CP, Line)> = (0..3).map(|i| (pl.point(Sym::A(i)), Line::A(i))).collect();
    for e in 0..3 {
        let h: Vec<i32> = poly.iter().map(|(p, _)| pl.side(p, e)).collect();
        // (point, its side, the line of the input edge that emitted it).
        let mut out: Vec<(CP, i32, Line)> = Vec::with_capacity(poly.len() + 1);
        for idx in 0..poly.len() {
            let nxt = (idx + 1) % poly.len();
            let ((p, line), (hp, hq)) = (poly[idx], (h[idx], h[nxt]));
            if hp <= 0 {
                out.push((p, hp, line));
            }
            if (hp < 0 && hq > 0) || (hp > 0 && hq < 0) {
                let sym = match line {
                    Line::A(i) => Sym::X(i, e),
                    // Two lines of b meet at their common vertex.
                    Line::B(f) if f == (e + 1) % 3 => Sym::B((e + 1) % 3),
                    Line::B(_) => Sym::B(e),
                };
                out.push((pl.point(sym), 0, line));
            }
        }
        // An output edge lies on the clip line when both ends are on it,
        // else on the line of the input edge that emitted its first end.
        poly = (0..out.len())
            .map(|m| {
                let (p, hp, line) = out[m];
                let hq = out[(m + 1) % out.len()].1;
                (p, if hp == 0 && hq == 0 { Line::B(e) } else { line })
            })
            .collect();
        if poly.is_empty() {
            break;
        }
    }
    // shape_of: duplicates removed, in order.
    let mut uniq: Vec<CP> = Vec::with_capacity(poly.len());
    for (p, _) in &poly {
        if !uniq.iter().any(|u| pl.same(u, p)) {
            uniq.push(*p);
        }
    }
    let pt = |q: &CP| pl.ipoint(x, q);
    match uniq.len() {
        0 => return None,
        1 => return Some(IContact::Point(pt(&uniq[0]))),
        _ => {}
    }
    // The farthest point from o = uniq[0] (3-D distance; the last one among
    // equals): |p − o|² = |X_p·w_o − X_o·w_p|² / (w_p·w_o)², each within
    // 30u relative in f64; certified when unique by the bounds.
    let (xo, wo) = pl.hom3(&uniq[0]);
    let diff = |q: &CP| {
        let (xp, wp) = pl.hom3(q);
        [0, 1, 2].map(|k| xp[k].mul(&wo).sub(&xo[k].mul(&wp)))
    };
    let far_f: Vec<f64> = uniq
        .iter()
        .map(|q| {
            let d = diff(q).map(|c| int_f64(&c));
            let w = f(q.den) * f(uniq[0].den);
            (d[0] * d[0] + d[1] * d[1] + d[2] * d[2]) / (w * w)
        })
        .collect();
    const LO: f64 = 1.0 - 64.0 * U;
    const HI: f64 = 1.0 + 64.0 * U;
    let far = (1..uniq.len()).max_by(|&i, &j| far_f[i].total_cmp(&far_f[j]))?;
    if (1..uniq.len()).any(|j| j != far && far_f[j] * HI >= far_f[far] * LO) {
        return None;
    }
    // Collinear iff every c₂(F − O, P − O) is 0 (the projection keeps
    // collinearity), with F − O = (F·w_o − O·w_f)/(w_f·w_o) in 2-D.
    let (o2, wo2) = pl.hom2(&uniq[0]);
    let d2 = |q: &CP| {
        let (p2, wp) = pl.hom2(q);
        [0, 1].map(|k| p2[k].mul(&wo2).sub(&o2[k].mul(&wp)))
    };
    let df = d2(&uniq[far]);
    let dff = df.each_ref().map(int_f64);
    let collinear = uniq.iter().skip(1).all(|q| {
        let dq = d2(q);
        let dqf = dq.each_ref().map(int_f64);
        let (v, e) = super::ints::sdot([dff[0], -dff[1], 0.0], [dqf[1], dqf[0], 0.0]);
        if v.abs() > e {
            return false;
        }
        df[0].mul(&dq[1]).sub(&df[1].mul(&dq[0])).signum() == 0
    });
    if !collinear {
        return Some(IContact::Polygon(uniq.iter().map(pt).collect()));
    }
    // Collinear: the extreme points along F − O, by the coordinate where
    // F − O is largest (the order along the line is the order of that
    // coordinate, reversed when its component is negative).
    let c = if df[0].mag().cmp(df[1].mag()).is_ge() {
        0
    } else {
        1
    };
    let dir = if df[c].is_neg() { -1 } else { 1 };
    let hom: Vec<([Int; 2], Int)> = uniq.iter().map(|q| pl.hom2(q)).collect();
    // sign(key(p) − key(q)).
    let cmp = |p: usize, q: usize| {
        let ((xp, wp), (xq, wq)) = (&hom[p], &hom[q]);
        xp[c].mul(wq).sub(&xq[c].mul(wp)).signum() * dir
    };
    let (mut lo, mut hi) = (0, 0);
    for q in 1..uniq.len() {
        if cmp(q, lo) < 0 {
            lo = q;
        }
        if cmp(q, hi) >= 0 {
            hi = q;
        }
    }
    Some(IContact::Segment(pt(&uniq[lo]), pt(&uniq[hi])))
}

/// The crossing witness of [`super::intersect`] (the low end of the
/// overlap of the two triangles on the line `plane(a) ∩ plane(b)`) in
/// fixed-width integers, reduced ([`crossing`]); `None` when the
/// coordinates do not align.
pub(crate) fn crossing_witness(
    c: &[[f64; 3]; 6],
    ia: [usize; 3],
    ib: [usize; 3],
) -> Option<Vec3<Q>> {
    let al = align(c)?;
    let set = crossing(&al.0, ia, ib, false)?;
    Some(set.lo.to_q(&al.0, al.1))
}

#[cfg(test)]
use crate::stats::SEP_EXACT;

#[cfg(test)]
mod tests {
    use super::*;
    use num_bigint::BigInt;

    use crate::query::triangle_triangle::ints::tests::Rng;

    /// `l` separates `a` and `b` (every `l·(bⱼ − aᵢ)` of one strict sign),
    /// in `BigInt`: the oracle.
    fn oracle(l: &[BigInt; 3], a: &[V; 3], b: &[V; 3]) -> bool {
        let mut signs = Vec::new();
        for p in a {
            for q in b {
                let d: BigInt = (0..3).map(|k| &l[k] * BigInt::from(q[k] - p[k])).sum();
                signs.push(d.sign());
            }
        }
        signs.iter().all(|s| *s == num_bigint::Sign::Plus)
            || signs.iter().all(|s| *s == num_bigint::Sign::Minus)
    }

    /// The separation proof rejects every axis that does not separate, and
    /// accepts exactly the ones that do: the exact path's 24 candidates,
    /// random axes (mostly wrong guesses), and axes made wrong on purpose (b
    /// moved onto a's supporting plane along the axis, so that one
    /// `l·(bⱼ − aᵢ)` is exactly 0, or one unit past it); with coordinates up
    /// to 2⁶⁰ the float bounds cannot decide and the integers do.
    #[test]
    fn separation_proof_rejects_wrong_axes() {
        let mut r = Rng(11);
        let (mut rejected, mut accepted, mut planted) = (0, 0, 0);
        for round in 0..3000 {
            let bits = [4, 20, 40, 61][round % 4];
            let mut x = [[0i64; 3]; 6].map(|_| [0; 3].map(|_| r.int(bits) / 2));
            let o = x[0];
            x = x.map(|p| sub(&p, &o));
            let a = [x[0], x[1], x[2]];
            let mut b = [x[3], x[4], x[5]];
            let ea = [0, 1, 2].map(|i| sub(&a[(i + 1) % 3], &a[i]));
            let eb = [0, 1, 2].map(|i| sub(&b[(i + 1) % 3], &b[i]));
            let mut axes: Vec<Cand> = vec![Cand::W(cross(&ea[0], &ea[1]))];
            for x in &ea {
                for y in &eb {
                    axes.push(Cand::W(cross(x, y)));
                }
            }
            for y in &eb {
                axes.push(Cand::NE(cross(&ea[0], &ea[1]), *y));
            }
            let small = |r: &mut Rng| [0; 3].map(|_| r.int(8) as i128);
            axes.push(Cand::W(small(&mut r)));
            // A wrong guess on purpose: a small axis l, and b's first
            // vertex moved to a's highest vertex along l, plus a vector
            // orthogonal to l (l × u), plus 0 or ±1 unit along a coordinate:
            // touching, or just across.
            let l = small(&mut r);
            let top = (0..3)
                .max_by_key(|&i| (0..3).map(|k| l[k] * a[i][k] as i128).sum::<i128>())
                .unwrap();
            let u = small(&mut r);
            let lu = [
                l[1] * u[2] - l[2] * u[1],
                l[2] * u[0] - l[0] * u[2],
                l[0] * u[1] - l[1] * u[0],
            ];
            if bits <= 40 {
                let nudge = r.below(3) as i64 - 1;
                b[0] = [0, 1, 2].map(|k| a[top][k] + lu[k] as i64 + (k == 0) as i64 * nudge);
                axes.push(Cand::W(l));
                planted += 1;
            }
            for c in &axes {
                let want = oracle(&c.exact().map(|v| v.to_bigint()), &a, &b);
                assert_eq!(separates(c, &a, &b), want, "{a:?} {b:?}");
                if want {
                    accepted += 1;
                } else {
                    rejected += 1;
                }
            }
        }
        let exact = SEP_EXACT.load(std::sync::atomic::Ordering::Relaxed);
        assert!(
            rejected > 10_000 && accepted > 1000,
            "{rejected} {accepted}"
        );
        assert!(planted > 1000 && exact > 100, "{planted} {exact}");
    }
}
