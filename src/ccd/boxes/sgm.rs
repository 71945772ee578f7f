//! Albocher et al.'s method: the Minkowski sum of the two boxes through their spherical
//! Gauss maps (Albocher, Sarel, Choi, Elber, Wang, ICRA 2006).
//!
//! Everything happens in box a's *unit-cube frame*: the affine map that sends a to
//! [−1, 1]³ (touching is invariant under affine maps). There box b is the
//! parallelepiped with center C(t)/w(t) and half-axes G_k(t)/w(t), w > 0 on the
//! range, all numerators polynomials. The Minkowski sum K = b ⊕ (−a) is a zonotope
//! with generators e_0, e_1, e_2, G_0, G_1, G_2; its 30 facets come in ± pairs with
//! normals
//!
//! ```text
//! FV   ±e_j                     face j of a  +  a vertex of b      (6)
//! VF   ±N_k,  N_k = G_k+1×G_k+2  a vertex of a  +  face k of b      (6)
//! EE   ±e_i × G_m               edge i of a  +  edge m of b        (18)
//! ```
//!
//! For a facet normal n the *constraint* is F_n = w·(max_a n·x − min_b n·x):
//!
//! ```text
//! F_n = −n·C + Σ_k |n·G_k| + w·Σ_j |n_j|          contact ⟺ F_n ≥ 0 for all 30 n
//! ```
//!
//! (this is the paper's D_i = 0 / D_j ≤ 0 test with D = −F). The absolute values are
//! resolved by the *homogeneous intervals*: they only involve the components of the
//! G_k (b's edge directions, the poles of its SGM arcs) and of the N_k (b's face
//! normals, its SGM points). While none of these 18 polynomials changes sign, every
//! point of b's SGM stays in one octant of a's, the compatible pairs stay the same,
//! and each F_n is one polynomial. Under rigid motion N_k ∥ G_k (the paper's case);
//! under affine motion (non-uniform scale) they differ, so both sets are used and
//! face normals are the cofactor cross products N_k, never M(t) applied to normals.

use super::motion::PVec;
use super::sweep::{first_contact, rat_interval, Period};
use crate::ccd::Feature;
use crate::num::interval::Interval;
use crate::num::ring::Ring;
use crate::num::sign::Sign;
use crate::poly::{zx, Poly};
use num_bigint::BigInt;
use num_integer::Integer;
use num_rational::BigRational;
use num_traits::{One, Zero};
use smallvec::SmallVec;
use std::cmp::Ordering;

/// Box b in box a's unit-cube frame: center C/w, half-axes G_k/w, w > 0 on the range.
#[derive(Clone, Debug)]
pub struct Relative {
    /// Center numerator.
    pub c: PVec,
    /// Half-axis numerators.
    pub g: [PVec; 3],
    /// Common denominator, positive on the range.
    pub w: Poly,
}

/// Which of the 30 Minkowski-sum planes a constraint is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Plane {
    /// Face ±e_j of a, a vertex of b: (σ, j, b's vertex signs).
    Fv(i8, usize, [i8; 3]),
    /// A vertex of a, face k of b: (a's vertex signs, σ of b's face, k).
    Vf([i8; 3], i8, usize),
    /// Edge along axis i of a (signs of the other two axes), edge along G_m of b.
    Ee(usize, [i8; 3], usize, [i8; 3]),
}

fn ch(s: i8) -> char {
    if s < 0 {
        '-'
    } else {
        '+'
    }
}

const AX: [char; 3] = ['x', 'y', 'z'];

fn vertex(s: [i8; 3]) -> String {
    format!("vertex ({},{},{})", ch(s[0]), ch(s[1]), ch(s[2]))
}

fn edge(axis: usize, s: [i8; 3]) -> String {
    let (j, k) = ((axis + 1) % 3, (axis + 2) % 3);
    let (j, k) = (j.min(k), j.max(k));
    format!("edge ({}{},{}{})", ch(s[j]), AX[j], ch(s[k]), AX[k])
}

impl Plane {
    /// The protocol's feature naming.
    pub fn feature(&self, degenerate: bool) -> Feature {
        let (kind, a, b) = match *self {
            Plane::Fv(s, j, v) => ("FV", format!("face {}{}", ch(s), AX[j]), vertex(v)),
            Plane::Vf(v, s, k) => ("VF", vertex(v), format!("face {}{}", ch(s), AX[k])),
            Plane::Ee(i, sa, m, sb) => ("EE", edge(i, sa), edge(m, sb)),
        };
        Feature {
            kind: kind.into(),
            a,
            b,
            degenerate,
        }
    }
}

fn sgn(o: Ordering) -> i8 {
    match o {
        Ordering::Less => -1,
        Ordering::Equal => 0,
        Ordering::Greater => 1,
    }
}

fn pos(s: i8) -> i8 {
    if s == 0 {
        1
    } else {
        s
    }
}

/// The polynomials every constraint is a signed sum of (*members*), by index:
/// `C[j]` at `M_C + j`, w at `M_W`, `G_k[j]` at `M_G + 3k + j`, the VF group of
/// plane k (N_k·C, det, w·N_k[0..3], divided by a power of w) at `M_VF + 5k + r`,
/// the EE group of planes (i, m) ((G_m × C)_i, `N_m+1[i]`, `N_m+2[i]`, `w·G_m[i+1]`,
/// `w·G_m[i+2]`, divided by a power of w) at `M_EE + 15i + 5m + r`.
pub(crate) const M_C: usize = 0;
/// Index of w among the members.
pub(crate) const M_W: usize = 3;
/// First G member.
pub(crate) const M_G: usize = 4;
/// First VF group member.
pub(crate) const M_VF: usize = 13;
/// First EE group member.
pub(crate) const M_EE: usize = 28;
/// Number of members.
pub(crate) const MEMBERS: usize = 73;

/// One of the 30 planes on a homogeneous interval: the constraint is
/// `−σ·member[s0] + Σ coef·member[id]` over `abs`, where each coef is the sign of its
/// member there (so the sum is `−σ·member[s0] + Σ |member[id]|`).
#[derive(Clone, Copy, Debug)]
pub(crate) struct PlaneTerms {
    /// The plane.
    pub plane: Plane,
    /// All terms (member, coefficient), the first one `(s0, −σ)`.
    terms: [(usize, i8); 6],
    /// For each term, the sign-pattern polynomial its coefficient is the sign of
    /// (`G_k[j]` at 3k + j, `N_k[j]` at 9 + 3k + j), or [`FIXED`] (s₀, w, det).
    src: [u8; 6],
    /// How many of `terms` are used.
    len: usize,
}

/// A term whose coefficient does not come from a sign-pattern polynomial.
pub(crate) const FIXED: u8 = u8::MAX;

impl PlaneTerms {
    /// The signed terms, `(s0, −σ)` first.
    pub fn terms(&self) -> &[(usize, i8)] {
        &self.terms[..self.len]
    }

    /// The sign-pattern polynomials this plane's coefficients come from.
    pub fn sources(&self) -> impl Iterator<Item = usize> + '_ {
        self.src[..self.len]
            .iter()
            .filter(|&&s| s != FIXED)
            .map(|&s| usize::from(s))
    }
}

/// The 30 planes in their fixed order (σ = +1 then −1; FV j, VF k, EE (i, m)) for the
/// sign pattern `sg` (signs of G_k[j]), `sn` (of N_k[j]) and `sd` (of det).
// The indices are axis labels shared by several arrays (e_j, G_k[j], N_k[j]).
#[allow(clippy::needless_range_loop)]
pub(crate) fn layout(sg: &[[i8; 3]; 3], sn: &[[i8; 3]; 3], sd: &i8) -> SmallVec<[PlaneTerms; 30]> {
    let sd = *sd;
    let mut out = SmallVec::new();
    let mut push = |plane: Plane, t: &[(usize, i8)], src: &[u8]| {
        let mut terms = [(0, 0); 6];
        terms[..t.len()].copy_from_slice(t);
        let mut s = [FIXED; 6];
        s[..src.len()].copy_from_slice(src);
        out.push(PlaneTerms {
            plane,
            terms,
            src: s,
            len: t.len(),
        });
    };
    let g = |k: usize, j: usize| (3 * k + j) as u8;
    let n = |k: usize, j: usize| (9 + 3 * k + j) as u8;
    for sigma in [1i8, -1] {
        // FV: n = σ e_j.
        for j in 0..3 {
            let v = [0, 1, 2].map(|k| -sigma * pos(sg[k][j]));
            push(
                Plane::Fv(sigma, j, v),
                &[
                    (M_C + j, -sigma),
                    (M_W, 1),
                    (M_G + j, sg[0][j]),
                    (M_G + 3 + j, sg[1][j]),
                    (M_G + 6 + j, sg[2][j]),
                ],
                &[FIXED, FIXED, g(0, j), g(1, j), g(2, j)],
            );
        }
        // VF: n = σ N_k.
        for k in 0..3 {
            let b = M_VF + 5 * k;
            let v = [0, 1, 2].map(|j| sigma * pos(sn[k][j]));
            push(
                Plane::Vf(v, -sigma * pos(sd), k),
                &[
                    (b, -sigma),
                    (b + 1, sd),
                    (b + 2, sn[k][0]),
                    (b + 3, sn[k][1]),
                    (b + 4, sn[k][2]),
                ],
                &[FIXED, FIXED, n(k, 0), n(k, 1), n(k, 2)],
            );
        }
        // EE: n = σ (e_i × G_m).
        for i in 0..3 {
            let (i1, i2) = ((i + 1) % 3, (i + 2) % 3);
            for m in 0..3 {
                let (m1, m2) = ((m + 1) % 3, (m + 2) % 3);
                let b = M_EE + 15 * i + 5 * m;
                let mut sa = [0i8; 3];
                sa[i1] = -sigma * pos(sg[m][i2]);
                sa[i2] = sigma * pos(sg[m][i1]);
                let mut sb = [0i8; 3];
                sb[m1] = -sigma * pos(sn[m2][i]);
                sb[m2] = sigma * pos(sn[m1][i]);
                push(
                    Plane::Ee(i, sa, m, sb),
                    &[
                        (b, -sigma),
                        (b + 1, sn[m1][i]),
                        (b + 2, sn[m2][i]),
                        (b + 3, sg[m][i1]),
                        (b + 4, sg[m][i2]),
                    ],
                    &[FIXED, n(m1, i), n(m2, i), g(m, i1), g(m, i2)],
                );
            }
        }
    }
    out
}

/// An integer polynomial (ascending coefficients).
type Z = Vec<BigInt>;

fn to_z(p: &Poly) -> Z {
    p.coeffs().iter().map(|c| c.numer().clone()).collect()
}

/// `out += s·p` for s ∈ {−1, 0, 1}.
fn acc(out: &mut Z, p: &Z, s: i8) {
    if s == 0 {
        return;
    }
    if out.len() < p.len() {
        out.resize(p.len(), BigInt::zero());
    }
    for (o, c) in out.iter_mut().zip(p) {
        if s > 0 {
            *o += c;
        } else {
            *o -= c;
        }
    }
}

fn zmul(a: &[BigInt], b: &[BigInt]) -> Z {
    let mut c = crate::poly::zx::mul(a, b);
    zx::trim(&mut c);
    c
}

fn zadd(a: &Z, b: &Z) -> Z {
    let mut c = a.clone();
    acc(&mut c, b, 1);
    zx::trim(&mut c);
    c
}

fn zsub(a: &Z, b: &Z) -> Z {
    let mut c = a.clone();
    acc(&mut c, b, -1);
    zx::trim(&mut c);
    c
}

fn zdot(u: &[Z; 3], v: &[Z; 3]) -> Z {
    zadd(
        &zadd(&zmul(&u[0], &v[0]), &zmul(&u[1], &v[1])),
        &zmul(&u[2], &v[2]),
    )
}

fn zcross(u: &[Z; 3], v: &[Z; 3]) -> [Z; 3] {
    [
        zsub(&zmul(&u[1], &v[2]), &zmul(&u[2], &v[1])),
        zsub(&zmul(&u[2], &v[0]), &zmul(&u[0], &v[2])),
        zsub(&zmul(&u[0], &v[1]), &zmul(&u[1], &v[0])),
    ]
}

/// Divides every polynomial of `group` by `w` as long as `w` divides all of them exactly,
/// and returns the power divided out. `w` is positive on the range, so on the range each
/// quotient has the same sign and the same roots (with multiplicity) as the original:
/// every decision of the sweep is unchanged, on polynomials of lower degree.
fn strip(group: &mut [Z], w: &Z) -> u32 {
    if w.len() < 2 || group.iter().all(Vec::is_empty) {
        return 0;
    }
    // w is primitive, so w | p forces an integer quotient q (Gauss) and p(±1) = q(±1)·w(±1):
    // a cheap necessary condition (word arithmetic) that rejects most non-divisible groups.
    let at =
        |p: &Z, x: i32| -> BigInt { p.iter().rev().fold(BigInt::zero(), |acc, c| acc * x + c) };
    let moduli: Vec<(u64, i32)> = [1, -1]
        .into_iter()
        .filter_map(|x| {
            let v = at(w, x);
            let m = u64::try_from(v.magnitude()).ok()?;
            (m > 1).then_some((m, x))
        })
        .collect();
    let mut e = 0;
    loop {
        let plausible = group
            .iter()
            .all(|p| moduli.iter().all(|&(m, x)| zx::value_mod(p, x, m) == 0));
        if !plausible {
            return e;
        }
        let q: Option<Vec<Z>> = group.iter().map(|p| zx::div_exact(p, w)).collect();
        match q {
            Some(q) => {
                for (g, x) in group.iter_mut().zip(q) {
                    *g = x;
                }
                e += 1;
            }
            None => return e,
        }
    }
}

/// Integer copies of the polynomials the constraints are signed sums of, grouped by
/// plane, each group divided by the largest power of w dividing it (`strip`).
struct Zs {
    c: [Z; 3],
    g: [[Z; 3]; 3],
    w: Z,
    /// VF plane k: N_k·C, det, w·N_k[0..3].
    vf: [[Z; 5]; 3],
    vf_e: [u32; 3],
    /// EE plane (i, m): (G_m × C)_i, `N_m+1[i]`, `N_m+2[i]`, `w·G_m[i+1]`, `w·G_m[i+2]`.
    ee: [[[Z; 5]; 3]; 3],
    ee_e: [[u32; 3]; 3],
}

impl Zs {
    /// The members in index order (see [`M_C`]).
    fn members(&self) -> Vec<&Z> {
        let mut v: Vec<&Z> = Vec::with_capacity(MEMBERS);
        v.extend(self.c.iter());
        v.push(&self.w);
        v.extend(self.g.iter().flatten());
        v.extend(self.vf.iter().flatten());
        v.extend(self.ee.iter().flatten().flatten());
        v
    }
}

/// The precomputed polynomials of Albocher et al.'s method.
pub struct Sgm {
    rel: Relative,
    /// Face normals of b (cofactors): N_k = G_k+1 × G_k+2.
    n: [PVec; 3],
    det: Poly,
    z: Zs,
    /// The breakpoints, `N_k[j]` divided by the largest power of w dividing it.
    breaks: Vec<Poly>,
    /// The bounding-sphere polynomial divided by the largest power of w dividing it.
    sphere: Poly,
    /// Coefficient enclosures of the 19 sign-pattern polynomials (G, N, det).
    sign_iv: Vec<Vec<Interval>>,
}

impl Sgm {
    /// Precompute the normals and products.
    pub fn new(rel: Relative) -> Self {
        // One positive common denominator makes every polynomial integral (C, G, w
        // scaled together describe the same box), so constraints are integer sums.
        let mut l = BigInt::one();
        for p in rel.c.iter().chain(rel.g.iter().flatten()).chain([&rel.w]) {
            for x in p.coeffs() {
                if !x.denom().is_one() {
                    l = l.lcm(x.denom());
                }
            }
        }
        let rel = if l.is_one() {
            rel
        } else {
            let k = BigRational::from_integer(l);
            Relative {
                c: rel.c.map(|p| p.scale(&k)),
                g: rel.g.map(|gk| gk.map(|p| p.scale(&k))),
                w: rel.w.scale(&k),
            }
        };
        // Everything below in integer polynomials (convolutions, no rationals).
        let z3 = |v: &PVec| [to_z(&v[0]), to_z(&v[1]), to_z(&v[2])];
        let zc = z3(&rel.c);
        let zg = [z3(&rel.g[0]), z3(&rel.g[1]), z3(&rel.g[2])];
        let wz = to_z(&rel.w);
        let zn = [
            zcross(&zg[1], &zg[2]),
            zcross(&zg[2], &zg[0]),
            zcross(&zg[0], &zg[1]),
        ];
        let zdet = zdot(&zg[0], &zn[0]);
        let nc = [0, 1, 2].map(|k| zdot(&zn[k], &zc));
        let gxc = [0, 1, 2].map(|m| zcross(&zg[m], &zc));
        let n = zn
            .each_ref()
            .map(|nk| nk.each_ref().map(|p| Poly::from_bigints(p)));
        let det = Poly::from_bigints(&zdet);
        // w with its content removed (sign kept: still positive on the range).
        let mut wp = wz.clone();
        zx::divide_content(&mut wp);
        let mul = zmul;
        let mut vf_e = [0; 3];
        let vf = [0, 1, 2].map(|k| {
            let mut grp = [
                nc[k].clone(),
                zdet.clone(),
                mul(&wz, &zn[k][0]),
                mul(&wz, &zn[k][1]),
                mul(&wz, &zn[k][2]),
            ];
            vf_e[k] = strip(&mut grp, &wp);
            grp
        });
        let mut ee_e = [[0; 3]; 3];
        let ee = [0, 1, 2].map(|i| {
            let (i1, i2) = ((i + 1) % 3, (i + 2) % 3);
            [0, 1, 2].map(|m| {
                let (m1, m2) = ((m + 1) % 3, (m + 2) % 3);
                let mut grp = [
                    gxc[m][i].clone(),
                    zn[m1][i].clone(),
                    zn[m2][i].clone(),
                    mul(&wz, &zg[m][i1]),
                    mul(&wz, &zg[m][i2]),
                ];
                ee_e[i][m] = strip(&mut grp, &wp);
                grp
            })
        });
        let breaks = rel
            .g
            .iter()
            .flatten()
            .cloned()
            .chain(zn.iter().flatten().map(|p| {
                let mut z = [p.clone()];
                strip(&mut z, &wp);
                let [z] = z;
                Poly::from_bigints(&z)
            }))
            .filter(|p| p.degree().unwrap_or(0) > 0)
            .collect();
        let sphere = {
            // |C|² − 4·(3w² + Σ|G_k|²)
            let mut rhs = zmul(&zmul(&wz, &wz), &[BigInt::from(3)]);
            for gk in &zg {
                rhs = zadd(&rhs, &zdot(gk, gk));
            }
            let s = zsub(&zdot(&zc, &zc), &zmul(&rhs, &[BigInt::from(4)]));
            let mut z = [s];
            strip(&mut z, &wp);
            let [z] = z;
            Poly::from_bigints(&z)
        };
        // Certified float enclosures of the sign-pattern polynomials' coefficients.
        let sign_iv = rel
            .g
            .iter()
            .flatten()
            .chain(n.iter().flatten())
            .chain([&det])
            .map(|p| p.coeffs().iter().map(rat_interval).collect())
            .collect();
        let z = Zs {
            c: zc,
            g: zg,
            w: wz,
            vf,
            vf_e,
            ee,
            ee_e,
        };
        Sgm {
            rel,
            n,
            det,
            z,
            breaks,
            sphere,
            sign_iv,
        }
    }

    /// Exact sign of the `i`-th sign-pattern polynomial (G's 9, N's 9, det) at `t`,
    /// from the certified float enclosure when it excludes 0.
    fn sign_at(&self, i: usize, p: &Poly, x: Interval, t: &BigRational) -> i8 {
        let mut acc = Interval::point(0.0);
        for c in self.sign_iv[i].iter().rev() {
            acc = acc.mul_ref(&x).add_ref(c);
        }
        match acc.sign() {
            Some(Sign::Negative) => -1,
            Some(Sign::Positive) => 1,
            Some(Sign::Zero) | None => sgn(p.sign_at(t)),
        }
    }

    /// The 18 polynomials whose roots bound the homogeneous intervals (the `N_k[j]`
    /// divided by the largest power of w dividing them; same roots on the range).
    pub fn breakpoints(&self) -> Vec<Poly> {
        self.breaks.clone()
    }

    /// The conservative bounding-sphere polynomial: S(t) > 0 ⇒ no contact.
    ///
    /// ```text
    /// contact ⇒ |C/w| ≤ r_a + r_b ≤ √3 + Σ|G_k|/w
    ///         ⇒ |C|² ≤ 4·(3w² + Σ|G_k|²)        (Cauchy–Schwarz on 4 terms)
    /// S = |C|² − 4·(3w² + Σ|G_k|²)
    /// ```
    ///
    /// (divided by the largest power of w dividing it: same sign on the range).
    pub fn sphere(&self) -> Poly {
        self.sphere.clone()
    }

    /// The sign pattern on the homogeneous interval containing `t`: signs of the
    /// G_k[j], of the N_k[j], and of det.
    fn pattern(&self, t: &BigRational) -> ([[i8; 3]; 3], [[i8; 3]; 3], i8) {
        let r = &self.rel;
        let x = rat_interval(t);
        let sg = [0, 1, 2].map(|k| [0, 1, 2].map(|j| self.sign_at(3 * k + j, &r.g[k][j], x, t)));
        let sn =
            [0, 1, 2].map(|k| [0, 1, 2].map(|j| self.sign_at(9 + 3 * k + j, &self.n[k][j], x, t)));
        let sd = self.sign_at(18, &self.det, x, t);
        (sg, sn, sd)
    }

    /// The 30 constraints on the homogeneous interval containing `t`.
    pub fn constraints(&self, t: &BigRational) -> Vec<(Poly, Plane)> {
        let (sg, sn, sd) = self.pattern(t);
        let members = self.z.members();
        layout(&sg, &sn, &sd)
            .iter()
            .map(|pt| {
                let mut f = Z::new();
                for &(id, s) in pt.terms() {
                    acc(&mut f, members[id], s);
                }
                (Poly::from_bigints(&f), pt.plane)
            })
            .collect()
    }

    /// For drawing only: each plane's signed gap min_b n̂·x − max_a n̂·x at `t`
    /// (unit normal, a's unit-cube frame), in floating point; NaN for a zero normal.
    pub fn gaps_f64(&self, t: &BigRational) -> Vec<f64> {
        use num_traits::ToPrimitive;
        let f = |p: &Poly| p.eval(t).to_f64().unwrap_or(f64::NAN);
        let w = f(&self.rel.w);
        let z = &self.z;
        let mut wz = z.w.clone();
        zx::divide_content(&mut wz);
        let wp = Poly::from_bigints(&wz).eval(t).to_f64().unwrap_or(f64::NAN);
        let norm = |v: [f64; 3]| (v[0] * v[0] + v[1] * v[1] + v[2] * v[2]).sqrt();
        self.constraints(t)
            .iter()
            .map(|(p, plane)| {
                let (n, e) = match *plane {
                    Plane::Fv(..) => (1.0, 0),
                    Plane::Vf(_, _, k) => (norm(self.n[k].clone().map(|c| f(&c))), z.vf_e[k]),
                    Plane::Ee(i, _, m, _) => {
                        let g = self.rel.g[m].clone().map(|c| f(&c));
                        let (i1, i2) = ((i + 1) % 3, (i + 2) % 3);
                        ((g[i1] * g[i1] + g[i2] * g[i2]).sqrt(), z.ee_e[i][m])
                    }
                };
                // Undo the division by (w/content(w))^e.
                let scale = wp.powi(e as i32);
                if n == 0.0 {
                    f64::NAN
                } else {
                    -f(p) * scale / (w * n)
                }
            })
            .collect()
    }

    /// The first contact period in `[t0, t1]` (with the bounding-sphere cull).
    pub fn first_contact(&self, t0: &BigRational, t1: &BigRational) -> Option<Period<Plane>> {
        first_contact(t0, t1, &self.breaks, Some(&self.sphere), |t| {
            self.constraints(t)
        })
    }
}

#[cfg(test)]
mod tests {
    use super::super::motion::{cross, dot};
    use super::*;
    use crate::ccd::{CcdQuery, Motion, MovingBox};
    use crate::poly::planted::splitmix64;
    use crate::{Obb, Vec3};

    fn rnd(s: &mut u64, lo: i64, hi: i64) -> i64 {
        lo + (splitmix64(s) % ((hi - lo + 1) as u64)) as i64
    }

    fn q(n: i64) -> BigRational {
        BigRational::from_integer(n.into())
    }

    /// An axis-aligned box with half-extents 1..3 under a degree-1 quaternion curve and
    /// a linear translation starting at x0.
    fn side(s: &mut u64, x0: i64) -> MovingBox {
        let e = [rnd(s, 1, 3), rnd(s, 1, 3), rnd(s, 1, 3)];
        let ax = |i: usize| {
            Vec3::new(
                q(e[0] * (i == 0) as i64),
                q(e[1] * (i == 1) as i64),
                q(e[2] * (i == 2) as i64),
            )
        };
        let shape = Obb::new(Vec3::new(q(0), q(0), q(0)), [ax(0), ax(1), ax(2)]).unwrap();
        let qs = [0; 4].map(|_| vec![q(rnd(s, -3, 3)), q(rnd(s, -3, 3))]);
        let tr = [
            vec![q(x0), q(-x0)],
            vec![q(rnd(s, -2, 2)), q(rnd(s, -2, 2))],
            vec![q(rnd(s, -2, 2))],
        ];
        let motion = Motion::quaternion(qs, tr).unwrap();
        MovingBox::new(shape, motion)
    }

    /// Random box pairs under degree-1 quaternion curves (rigid) or, with `affine`,
    /// b under a matrix motion with non-uniform scale.
    fn random_relative(s: &mut u64, affine: bool) -> Option<Relative> {
        let a = side(s, -5);
        let mut b = side(s, 5);
        if affine {
            let l = |c: &[i64]| c.iter().map(|&x| q(x)).collect::<Vec<_>>();
            b.motion = Motion::matrix(
                [
                    [l(&[2, 1]), l(&[0]), l(&[0])],
                    [l(&[0]), l(&[1]), l(&[0])],
                    [l(&[0]), l(&[1, 1]), l(&[3, -1])],
                    [l(&[5, -10]), l(&[0]), l(&[1])],
                ],
                l(&[2, 1]),
            )
            .ok()?;
        }
        let query = CcdQuery::new(a, b)
            .with_tolerance(BigRational::new(1.into(), 1_000_000_000.into()))
            .ok()?;
        crate::ccd::relative(&query).ok()
    }

    /// The constraints as the plain signed sums (no division by powers of w).
    #[allow(clippy::needless_range_loop)]
    fn reference(sgm: &Sgm, t: &BigRational) -> Vec<Poly> {
        let r = &sgm.rel;
        let s = |p: &Poly| sgn(p.sign_at(t));
        let sg = r.g.clone().map(|gk| gk.map(|p| s(&p)));
        let sn = sgm.n.clone().map(|nk| nk.map(|p| s(&p)));
        let sd = s(&sgm.det);
        let term = |p: &Poly, k: i8| p.scale(&BigRational::from_integer(k.into()));
        let mut out = Vec::new();
        for sigma in [1i8, -1] {
            for j in 0..3 {
                let mut f = &term(&r.c[j], -sigma) + &r.w;
                for k in 0..3 {
                    f = &f + &term(&r.g[k][j], sg[k][j]);
                }
                out.push(f);
            }
            for k in 0..3 {
                let mut f = &term(&dot(&sgm.n[k], &r.c), -sigma) + &term(&sgm.det, sd);
                for j in 0..3 {
                    f = &f + &term(&(&r.w * &sgm.n[k][j]), sn[k][j]);
                }
                out.push(f);
            }
            for i in 0..3 {
                let (i1, i2) = ((i + 1) % 3, (i + 2) % 3);
                for m in 0..3 {
                    let (m1, m2) = ((m + 1) % 3, (m + 2) % 3);
                    let f = &(&term(&cross(&r.g[m], &r.c)[i], -sigma)
                        + &term(&sgm.n[m1][i], sn[m1][i]))
                        + &term(&sgm.n[m2][i], sn[m2][i]);
                    let f = &(&f + &term(&(&r.w * &r.g[m][i1]), sg[m][i1]))
                        + &term(&(&r.w * &r.g[m][i2]), sg[m][i2]);
                    out.push(f);
                }
            }
        }
        out
    }

    #[test]
    fn constraints_are_the_reference_divided_by_powers_of_w() {
        let mut s = 77u64;
        let (mut checked, mut affine_checked) = (0, 0);
        for i in 0..24 {
            let affine = i % 4 == 3;
            let Some(rel) = random_relative(&mut s, affine) else {
                continue;
            };
            let sgm = Sgm::new(rel);
            let mut wp = sgm.z.w.clone();
            zx::divide_content(&mut wp);
            let wp = Poly::from_bigints(&wp);
            let rigid_w = !affine && sgm.rel.w.degree().unwrap_or(0) > 0;
            for t in [
                BigRational::new(1.into(), 3.into()),
                BigRational::new(5.into(), 7.into()),
            ] {
                let got = sgm.constraints(&t);
                let want = reference(&sgm, &t);
                assert_eq!(got.len(), want.len());
                for ((f, plane), g) in got.iter().zip(&want) {
                    let e = match *plane {
                        Plane::Fv(..) => 0,
                        Plane::Vf(_, _, k) => sgm.z.vf_e[k],
                        Plane::Ee(i, _, m, _) => sgm.z.ee_e[i][m],
                    };
                    let mut back = f.clone();
                    for _ in 0..e {
                        back = &back * &wp;
                    }
                    assert_eq!(&back, g, "{plane:?}");
                    // Rigid motion: N_k ∥ w·G_k, and the VF planes carry w².
                    if rigid_w {
                        if let Plane::Vf(..) = plane {
                            assert!(e >= 2, "VF plane divided by w^{e} only");
                        }
                    }
                }
            }
            checked += 1;
            affine_checked += usize::from(affine);
        }
        assert!(
            checked >= 12 && affine_checked >= 3,
            "{checked} {affine_checked}"
        );
    }
}
