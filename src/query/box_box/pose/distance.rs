//! `distance` of two boxes by pose in doubles, float-guided with an exact
//! proof on the exact boxes the poses define.
//!
//! **The exact boxes in integers.** A pose's rotation is R = M/d with M an
//! integer matrix and d > 0 an integer ([`int_rotation`]: a quaternion's
//! components brought to integers by one power of two, M = R(Q), d = |Q|²;
//! a matrix's entries by one power of two). The half-extents and
//! translations of both boxes are integers times one power of two 2^z.
//! Box a is then `c_a + Σ tₖ·Hᵃₖ/d_a` (|tₖ| ≤ 1) with integer Hᵃₖ =
//! ēₖ·(column k of M_a) and integer c_a, in units of 2^z; scaled by
//! D = d_a·d_b > 0 (distance and closest points commute with scaling) both
//! boxes have integer centers D·c and integer half-axes `d_b·Hᵃₖ`,
//! `d_a·Hᵇₖ`. Everything below is exact `BigInt` arithmetic on these.
//!
//! **The guess.** GJK (`polytope/filtered/gjk.rs`) on the boxes rounded to
//! doubles names the vertices spanning the closest features; a feature of a
//! box is a set of free axes and the signs of the others. The features it
//! names, then their vertices and edges, are tried in turn, each first
//! screened in doubles (a guess only) and then proved exactly.
//!
//! **The proof** (the certificate of `polytope/filtered/closest.rs`, on box
//! features). For a feature pair of kind vertex–vertex, vertex–edge,
//! vertex–face (either way round) or edge–edge (not parallel), the
//! candidate points pa, pb are the exact projections, `d̂` a positive
//! multiple of pb − pa orthogonal to both features by construction; the pair
//! is accepted when, exactly,
//!
//! 1. the projections lie in their features (parameters in [−1, 1]);
//! 2. `sₖ·(d̂·Uₖ) > 0` for every fixed axis k of a's feature (sign sₖ), and
//!    `σₖ·(d̂·Vₖ) < 0` for every fixed axis of b's.
//!
//! Then the planes through pa and pb orthogonal to d̂ bound a slab between
//! the boxes, so |pb − pa| is the distance; a's supporting face in direction
//! d̂ is exactly its feature and b's in direction −d̂ exactly its own (strict
//! signs), and for these kinds the two features meet the translate in one
//! point: the closest pair is unique, so it is the exact path's, value for
//! value. Anything else (a touching or overlapping pair, parallel features,
//! a failed proof, a degenerate box) returns `None`: the caller answers on
//! the exact path.

use super::{PoseBox, PoseRotation};
use crate::num::fixed::{gcd, ExactValue, Nat};
use crate::num::gcd::gcd_lehmer;
use crate::query::polytope::filtered::gjk::{self, Hull};
use crate::query::Closest;
use crate::stats;
use crate::vector::Vec3;
use num_bigint::BigInt;
use num_rational::BigRational;
use num_traits::{One, Signed, Zero};

mod frame;

/// The arithmetic of the certificate: exact in `BigInt`, a guess in `f64`.
trait Num: Clone {
    fn add(&self, o: &Self) -> Self;
    fn sub(&self, o: &Self) -> Self;
    fn mul(&self, o: &Self) -> Self;
    fn neg(&self) -> Self;
    /// The sign: −1, 0 or 1.
    fn sgn(&self) -> i32;
    /// |self| ≤ |o|.
    fn abs_le(&self, o: &Self) -> bool;
}

impl Num for BigInt {
    fn add(&self, o: &Self) -> Self {
        self + o
    }
    fn sub(&self, o: &Self) -> Self {
        self - o
    }
    fn mul(&self, o: &Self) -> Self {
        self * o
    }
    fn neg(&self) -> Self {
        -self
    }
    fn sgn(&self) -> i32 {
        match self.sign() {
            num_bigint::Sign::Minus => -1,
            num_bigint::Sign::NoSign => 0,
            num_bigint::Sign::Plus => 1,
        }
    }
    fn abs_le(&self, o: &Self) -> bool {
        self.magnitude() <= o.magnitude()
    }
}

impl Num for f64 {
    fn add(&self, o: &Self) -> Self {
        self + o
    }
    fn sub(&self, o: &Self) -> Self {
        self - o
    }
    fn mul(&self, o: &Self) -> Self {
        self * o
    }
    fn neg(&self) -> Self {
        -self
    }
    fn sgn(&self) -> i32 {
        if *self > 0.0 {
            1
        } else if *self < 0.0 {
            -1
        } else {
            0
        }
    }
    fn abs_le(&self, o: &Self) -> bool {
        self.abs() <= o.abs()
    }
}

type V<T> = [T; 3];

fn dot<T: Num>(u: &V<T>, v: &V<T>) -> T {
    u[0].mul(&v[0]).add(&u[1].mul(&v[1])).add(&u[2].mul(&v[2]))
}

fn cross<T: Num>(u: &V<T>, v: &V<T>) -> V<T> {
    [
        u[1].mul(&v[2]).sub(&u[2].mul(&v[1])),
        u[2].mul(&v[0]).sub(&u[0].mul(&v[2])),
        u[0].mul(&v[1]).sub(&u[1].mul(&v[0])),
    ]
}

fn vsub<T: Num>(u: &V<T>, v: &V<T>) -> V<T> {
    [u[0].sub(&v[0]), u[1].sub(&v[1]), u[2].sub(&v[2])]
}

/// s·u + k·v.
fn comb<T: Num>(s: &T, u: &V<T>, k: &T, v: &V<T>) -> V<T> {
    [0, 1, 2].map(|i| s.mul(&u[i]).add(&k.mul(&v[i])))
}

/// A box: the points `c + Σ tₖ·h[k]`, |tₖ| ≤ 1, with `h[k] = alpha[k]·dir[k]`
/// (alpha[k] > 0: `dir` is the smaller integer direction the constructions
/// use) and `nrm[k]` a nonzero multiple of `h[k+1] × h[k+2]` (the normal of
/// the faces across axis k).
struct GBox<T> {
    c: V<T>,
    dir: [V<T>; 3],
    alpha: [T; 3],
    nrm: [V<T>; 3],
}

/// A feature of a box: the axes in `free` vary, axis k outside it is at
/// `+1` when bit k of `signs` is set, else at `−1`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Feat {
    free: u8,
    signs: u8,
}

impl Feat {
    /// The feature spanned by the vertices in `mask` ([`crate::shape::Obb::vertex`] order).
    fn of_mask(mask: u8) -> Feat {
        let (mut and, mut or) = (7u8, 0u8);
        for i in (0..8).filter(|i| mask >> i & 1 == 1) {
            and &= i as u8;
            or |= i as u8;
        }
        Feat {
            free: and ^ or,
            signs: and,
        }
    }
    fn dim(&self) -> u32 {
        self.free.count_ones()
    }
    /// The feature itself, then its vertices, then its edges (at most
    /// nine: a face, its four vertices and four edges), and their count.
    fn parts(&self) -> ([Feat; 9], usize) {
        let mut out = [*self; 9];
        let (free, nf) = self.free_axes();
        if nf == 0 {
            return (out, 1);
        }
        let mut n = 1;
        for bits in 0..(1u8 << nf) {
            let mut signs = self.signs;
            for (j, k) in free[..nf].iter().enumerate() {
                if bits >> j & 1 == 1 {
                    signs |= 1 << k;
                }
            }
            out[n] = Feat { free: 0, signs };
            n += 1;
        }
        if nf == 2 {
            for j in 0..2 {
                let (k, other) = (free[j], free[1 - j]);
                for s in 0..2u8 {
                    out[n] = Feat {
                        free: 1 << k,
                        signs: self.signs | (s << other),
                    };
                    n += 1;
                }
            }
        }
        (out, n)
    }
    /// The free axes, in increasing order, in the first of the three
    /// places, and their count.
    fn free_axes(&self) -> ([usize; 3], usize) {
        let mut out = [0; 3];
        let mut n = 0;
        for k in (0..3).filter(|k| self.free >> k & 1 == 1) {
            out[n] = k;
            n += 1;
        }
        (out, n)
    }
}

impl<T: Num> GBox<T> {
    /// The feature's center point `c + Σ_{k fixed} ±h[k]`.
    fn base(&self, f: Feat) -> V<T> {
        let mut p = self.c.clone();
        for k in (0..3).filter(|k| f.free >> k & 1 == 0) {
            let h = [0, 1, 2].map(|i| self.alpha[k].mul(&self.dir[k][i]));
            p = if f.signs >> k & 1 == 1 {
                [0, 1, 2].map(|i| p[i].add(&h[i]))
            } else {
                vsub(&p, &h)
            };
        }
        p
    }
    /// Whether `sₖ·(d·h[k]) · side > 0` for every fixed axis k.
    fn supports(&self, f: Feat, d: &V<T>, side: i32) -> bool {
        (0..3).filter(|k| f.free >> k & 1 == 0).all(|k| {
            let s = if f.signs >> k & 1 == 1 { 1 } else { -1 };
            dot(d, &self.dir[k]).sgn() * s * side > 0
        })
    }
}

/// The proved closest pair as numerators over denominators: pa = na/da,
/// pb = nb/db, distance² = n2/d2 (all denominators positive).
struct Sol<T> {
    na: V<T>,
    da: T,
    nb: V<T>,
    db: T,
    n2: T,
    d2: T,
}

/// Vertex p0 against the edge `e0 + τ·α·v` (|τ| ≤ 1): the foot
/// `((v·v)·e0 + k·v)/(v·v)` with k = (p0 − e0)·v, when it is on the edge,
/// its denominator v·v and the squared distance times v·v.
fn vertex_edge<T: Num>(p0: &V<T>, e0: &V<T>, v: &V<T>, alpha: &T) -> Option<(V<T>, T, T)> {
    let r = vsub(p0, e0);
    let (vv, k) = (dot(v, v), dot(&r, v));
    if !k.abs_le(&alpha.mul(&vv)) {
        return None;
    }
    let foot = comb(&vv, e0, &k, v);
    let n2 = dot(&r, &r).mul(&vv).sub(&k.mul(&k));
    Some((foot, vv, n2))
}

/// Vertex p0 against the face `f0 + τ₁·v1 + τ₂·v2` with v1 = α₁·w1, v2 = α₂·w2
/// and normal n: the foot `((n·n)·p0 + k·n)/(n·n)` with k = (f0 − p0)·n,
/// when it is on the face (Cramer on w1, w2, n).
#[allow(clippy::too_many_arguments)]
fn vertex_face<T: Num>(
    p0: &V<T>,
    f0: &V<T>,
    w1: &V<T>,
    a1: &T,
    w2: &V<T>,
    a2: &T,
    n: &V<T>,
) -> Option<(V<T>, T, T)> {
    let r = vsub(p0, f0);
    let det = dot(w1, &cross(w2, n));
    if det.sgn() == 0
        || !dot(&r, &cross(w2, n)).abs_le(&a1.mul(&det))
        || !dot(w1, &cross(&r, n)).abs_le(&a2.mul(&det))
    {
        return None;
    }
    let nn = dot(n, n);
    let k = dot(&r, n).neg();
    Some((comb(&nn, p0, &k, n), nn, k))
}

/// The certificate of the module docs for the pair (fa, fb) of boxes a, b;
/// `None` when it fails (or the kind is not one of the six).
fn solve<T: Num>(a: &GBox<T>, b: &GBox<T>, fa: Feat, fb: Feat, one: &T) -> Option<Sol<T>> {
    let (a0, b0) = (a.base(fa), b.base(fb));
    let ((ia, na), (ib, nb)) = (fa.free_axes(), fb.free_axes());
    let (ia, ib) = (&ia[..na], &ib[..nb]);
    let r = vsub(&b0, &a0);
    // d: a positive multiple of pb − pa.
    let (d, sol) = match (ia.len(), ib.len()) {
        (0, 0) => {
            let n2 = dot(&r, &r);
            let sol = Sol {
                na: a0,
                da: one.clone(),
                nb: b0,
                db: one.clone(),
                n2,
                d2: one.clone(),
            };
            (r, sol)
        }
        (0, 1) => {
            let j = ib[0];
            let (foot, vv, n2) = vertex_edge(&a0, &b0, &b.dir[j], &b.alpha[j])?;
            // d ∝ foot/vv − a0, times vv.
            let d = [0, 1, 2].map(|i| foot[i].sub(&vv.mul(&a0[i])));
            let sol = Sol {
                na: a0,
                da: one.clone(),
                nb: foot,
                db: vv.clone(),
                n2,
                d2: vv,
            };
            (d, sol)
        }
        (1, 0) => {
            let i0 = ia[0];
            let (foot, uu, n2) = vertex_edge(&b0, &a0, &a.dir[i0], &a.alpha[i0])?;
            // d ∝ b0 − foot/uu, times uu.
            let d = [0, 1, 2].map(|i| uu.mul(&b0[i]).sub(&foot[i]));
            let sol = Sol {
                na: foot,
                da: uu.clone(),
                nb: b0,
                db: one.clone(),
                n2,
                d2: uu,
            };
            (d, sol)
        }
        (0, 2) => {
            let (j1, j2) = (ib[0], ib[1]);
            let k = 3 - j1 - j2;
            let n = &b.nrm[k];
            let (foot, nn, h) = vertex_face(
                &a0,
                &b0,
                &b.dir[j1],
                &b.alpha[j1],
                &b.dir[j2],
                &b.alpha[j2],
                n,
            )?;
            let d = [0, 1, 2].map(|i| h.mul(&n[i]));
            let sol = Sol {
                na: a0,
                da: one.clone(),
                nb: foot,
                db: nn.clone(),
                n2: h.mul(&h),
                d2: nn,
            };
            (d, sol)
        }
        (2, 0) => {
            let (i1, i2) = (ia[0], ia[1]);
            let k = 3 - i1 - i2;
            let n = &a.nrm[k];
            let (foot, nn, h) = vertex_face(
                &b0,
                &a0,
                &a.dir[i1],
                &a.alpha[i1],
                &a.dir[i2],
                &a.alpha[i2],
                n,
            )?;
            // foot − b0 = h·n/nn points from b's vertex to a: d ∝ −h·n.
            let d = [0, 1, 2].map(|i| h.mul(&n[i]).neg());
            let sol = Sol {
                na: foot,
                da: nn.clone(),
                nb: b0,
                db: one.clone(),
                n2: h.mul(&h),
                d2: nn,
            };
            (d, sol)
        }
        (1, 1) => {
            let (i0, j0) = (ia[0], ib[0]);
            let (u, v) = (&a.dir[i0], &b.dir[j0]);
            let m = cross(u, v);
            let mm = dot(&m, &m);
            if mm.sgn() == 0 {
                return None;
            }
            // r = t·α·u − τ·β·v + λ·m (Cramer, det(u, v, m) = m·m):
            // t·α·mm = r·(v × m), τ·β·mm = −u·(r × m).
            let t = dot(&r, &cross(v, &m));
            let tau = dot(u, &cross(&r, &m)).neg();
            if !t.abs_le(&a.alpha[i0].mul(&mm)) || !tau.abs_le(&b.alpha[j0].mul(&mm)) {
                return None;
            }
            let rm = dot(&r, &m);
            let d = [0, 1, 2].map(|i| rm.mul(&m[i]));
            let sol = Sol {
                na: comb(&mm, &a0, &t, u),
                da: mm.clone(),
                nb: comb(&mm, &b0, &tau, v),
                db: mm.clone(),
                n2: rm.mul(&rm),
                d2: mm,
            };
            (d, sol)
        }
        _ => return None,
    };
    (a.supports(fa, &d, 1) && b.supports(fb, &d, -1)).then_some(sol)
}

/// A double as (m, e), x = m·2^e (m = 0 for zero).
fn parts(x: f64) -> (i64, i64) {
    if x == 0.0 {
        (0, 0)
    } else {
        crate::num::dyadic::f64_parts(x)
    }
}

/// The least exponent of the nonzero doubles (0 when all are zero).
fn least_exponent<'a>(xs: impl Iterator<Item = &'a f64>) -> i64 {
    xs.filter(|x| **x != 0.0)
        .map(|x| parts(*x).1)
        .min()
        .unwrap_or(0)
}

/// x / 2^e as an integer (x a multiple of 2^e).
fn int(x: f64, e: i64) -> BigInt {
    let (m, f) = parts(x);
    if m == 0 {
        BigInt::zero()
    } else {
        BigInt::from(m) << (f - e) as usize
    }
}

/// [`int_rotation`] in `i128` when it fits, else `None`: a quaternion whose
/// components, brought to integers by one power of two, are below 2⁶²
/// (products below 2¹²⁴, every entry a sum of four: below 2¹²⁷; d = 0 for
/// the zero quaternion), or a matrix whose entries, brought to integers by
/// one power of two, are below 2¹²⁵ with that power at most 2¹²⁶.
pub(crate) fn int_rotation_small(r: &PoseRotation) -> Option<([[i128; 3]; 3], i128)> {
    /// x·2^(−e) as an integer below 2^limit, or `None`.
    fn fit(x: f64, e: i64, limit: i64) -> Option<i128> {
        let (m, f) = parts(x);
        if m == 0 {
            return Some(0);
        }
        let bits = 64 - m.unsigned_abs().leading_zeros() as i64;
        (bits + f - e <= limit).then(|| (m as i128) << (f - e))
    }
    match r {
        PoseRotation::Quaternion(q) => Some(int_quaternion_matrix(int_quaternion_small(q)?)),
        PoseRotation::Matrix(m) => {
            let e = least_exponent(m.iter().flatten()).min(0);
            if -e > 126 {
                return None;
            }
            let mut out = [[0i128; 3]; 3];
            for (o, row) in out.iter_mut().zip(m) {
                for (o, x) in o.iter_mut().zip(row) {
                    *o = fit(*x, e, 125)?;
                }
            }
            Some((out, 1i128 << (-e)))
        }
    }
}

/// A quaternion's components brought to integers by one power of two (the
/// least exponent of the nonzero ones), when each is below 2⁶², else
/// `None` (zeros for the zero quaternion).
pub(crate) fn int_quaternion_small(q: &[f64; 4]) -> Option<[i128; 4]> {
    let (mut m, mut f) = ([0i64; 4], [0i64; 4]);
    let mut e = i64::MAX;
    for i in 0..4 {
        (m[i], f[i]) = parts(q[i]);
        if m[i] != 0 {
            e = e.min(f[i]);
        }
    }
    let mut out = [0i128; 4];
    for i in 0..4 {
        if m[i] != 0 {
            let bits = 64 - m[i].unsigned_abs().leading_zeros() as i64;
            if bits + f[i] - e > 62 {
                return None;
            }
            out[i] = (m[i] as i128) << (f[i] - e);
        }
    }
    Some(out)
}

/// M = R(Q) and d = |Q|² for integer components below 2⁶² (products below
/// 2¹²⁴, every entry a sum of four: below 2¹²⁷).
pub(crate) fn int_quaternion_matrix([w, x, y, z]: [i128; 4]) -> ([[i128; 3]; 3], i128) {
    let (ww, xx, yy, zz) = (w * w, x * x, y * y, z * z);
    let (xy, xz, yz, wx, wy, wz) = (x * y, x * z, y * z, w * x, w * y, w * z);
    let m = [
        [ww + xx - yy - zz, 2 * (xy - wz), 2 * (xz + wy)],
        [2 * (xy + wz), ww - xx + yy - zz, 2 * (yz - wx)],
        [2 * (xz - wy), 2 * (yz + wx), ww - xx - yy + zz],
    ];
    (m, ww + xx + yy + zz)
}

/// The rotation as (M, d), R = M/d with M integer and d > 0: a
/// quaternion's components brought to integers Q by one power of two
/// (R(q)/|q|² is homogeneous of degree 0), M = R(Q) and d = |Q|² (in `i128`
/// when the components are below 2⁶², else `BigInt`); a matrix's entries
/// by one power of two. `None` for the zero quaternion.
pub(crate) fn int_rotation(r: &PoseRotation) -> Option<([[BigInt; 3]; 3], BigInt)> {
    if let Some((m, d)) = int_rotation_small(r) {
        return (d != 0).then(|| (m.map(|r| r.map(BigInt::from)), BigInt::from(d)));
    }
    match r {
        PoseRotation::Quaternion(q) => {
            let e = least_exponent(q.iter());
            let [w, x, y, z] = q.map(|c| int(c, e));
            let (ww, xx, yy, zz) = (&w * &w, &x * &x, &y * &y, &z * &z);
            let (xy, xz, yz, wx, wy, wz) = (&x * &y, &x * &z, &y * &z, &w * &x, &w * &y, &w * &z);
            let t = |a: BigInt| a << 1usize;
            let m = [
                [&ww + &xx - &yy - &zz, t(&xy - &wz), t(&xz + &wy)],
                [t(&xy + &wz), &ww - &xx + &yy - &zz, t(&yz - &wx)],
                [t(&xz - &wy), t(&yz + &wx), &ww - &xx - &yy + &zz],
            ];
            let d = ww + xx + yy + zz;
            (!d.is_zero()).then_some((m, d))
        }
        PoseRotation::Matrix(m) => {
            let e = least_exponent(m.iter().flatten());
            if e >= 0 {
                Some((m.map(|row| row.map(|x| int(x, 0))), BigInt::from(1)))
            } else {
                Some((
                    m.map(|row| row.map(|x| int(x, e))),
                    BigInt::from(1) << (-e) as usize,
                ))
            }
        }
    }
}

/// The box rounded to doubles (the guess's): R(q)/|q|² or the matrix in
/// floats, times the half-extents.
fn rounded(p: &PoseBox) -> GBox<f64> {
    let r = match p.rotation {
        PoseRotation::Matrix(m) => m,
        PoseRotation::Quaternion([w, x, y, z]) => {
            let q = w * w + x * x + y * y + z * z;
            [
                [
                    (w * w + x * x - y * y - z * z) / q,
                    2.0 * (x * y - w * z) / q,
                    2.0 * (x * z + w * y) / q,
                ],
                [
                    2.0 * (x * y + w * z) / q,
                    (w * w - x * x + y * y - z * z) / q,
                    2.0 * (y * z - w * x) / q,
                ],
                [
                    2.0 * (x * z - w * y) / q,
                    2.0 * (y * z + w * x) / q,
                    (w * w - x * x - y * y + z * z) / q,
                ],
            ]
        }
    };
    let h = [0, 1, 2].map(|k| [0, 1, 2].map(|j| p.half_extents[k] * r[j][k]));
    GBox {
        c: p.translation,
        dir: h,
        alpha: [1.0; 3],
        nrm: [0, 1, 2].map(|k| cross(&h[(k + 1) % 3], &h[(k + 2) % 3])),
    }
}

/// The guess: GJK's features on the rounded boxes, `None` when it finds the
/// boxes (nearly) touching or a coordinate is not finite.
fn guess(a: &GBox<f64>, b: &GBox<f64>) -> Option<(Feat, Feat)> {
    // The largest magnitude (NaNs skipped, as `f64::max` does).
    let mut big = 0.0f64;
    for x in [a, b] {
        for v in [&x.c, &x.dir[0], &x.dir[1], &x.dir[2]] {
            big = big.max(v[0].abs()).max(v[1].abs()).max(v[2].abs());
        }
    }
    if !big.is_finite() || big == 0.0 {
        return None;
    }
    // GJK wants coordinates below 1: scale by a power of two.
    let s = 2f64.powi(-(big.log2().floor() as i32 + 2));
    if !s.is_finite() || s == 0.0 {
        return None;
    }
    let sc = |x: &GBox<f64>| GBox {
        c: x.c.map(|v| v * s),
        dir: x.dir.map(|h| h.map(|v| v * s)),
        alpha: [1.0; 3],
        nrm: x.nrm,
    };
    let (a, b) = (sc(a), sc(b));
    let verts = |x: &GBox<f64>| -> [[f64; 3]; 8] {
        std::array::from_fn(|i| {
            x.base(Feat {
                free: 0,
                signs: i as u8,
            })
        })
    };
    let (va, vb) = (verts(&a), verts(&b));
    let ha = Hull {
        v: &va,
        h: Some(a.dir),
    };
    let hb = Hull {
        v: &vb,
        h: Some(b.dir),
    };
    match gjk::gjk(ha, hb) {
        gjk::Guess::Apart(ma, mb) => Some((Feat::of_mask(ma), Feat::of_mask(mb))),
        gjk::Guess::Near => None,
    }
}

/// The exact closest pair of two boxes by pose that are apart, proved as
/// the module docs say, or `None` (touching, overlapping, undecided, or not
/// a valid pose: the caller answers on the exact path).
pub fn closest(a: &PoseBox, b: &PoseBox) -> Option<Closest<BigRational>> {
    closest_exact(a, b).map(to_big)
}

/// The answer with every value a `BigRational`.
fn to_big(c: Closest<ExactValue>) -> Closest<BigRational> {
    let point = |p: Vec3<ExactValue>| Vec3::new(p.x.into_big(), p.y.into_big(), p.z.into_big());
    Closest {
        distance_squared: c.distance_squared.into_big(),
        a: point(c.a),
        b: point(c.b),
    }
}

/// [`closest`] with the values as the frame construction holds them (in the
/// fixed width where they fit), for writers that take them from there.
pub(crate) fn closest_exact(a: &PoseBox, b: &PoseBox) -> Option<Closest<ExactValue>> {
    if a.half_extents
        .iter()
        .chain(&b.half_extents)
        .any(|e| e.partial_cmp(&0.0) != Some(std::cmp::Ordering::Greater))
    {
        return None;
    }
    let (ga, gb) = (rounded(a), rounded(b));
    let (fa, fb) = guess(&ga, &gb)?;
    // Quaternion poses of moderate size: the certificate and the pair in
    // the boxes' frames ([`frame`]); the rest, and a kind it leaves
    // (parallel edges), on the construction scaled by d_a·d_b, built only
    // when first needed.
    let framed = frame::Frame::new(a, b);
    let mut scaled = None;
    let one = BigInt::from(1);
    // Each pair once: the parts of a feature are distinct.
    let ((xs, nx), (ys, ny)) = (fa.parts(), fb.parts());
    for &x in &xs[..nx] {
        for &y in &ys[..ny] {
            if x.dim() + y.dim() > 2 {
                continue;
            }
            if solve(&ga, &gb, x, y, &1.0).is_none() {
                continue;
            }
            if let Some(f) = &framed {
                match f.solve(x, y) {
                    Some(Some(c)) => {
                        stats::POSE_FRAME.fast();
                        return Some(c);
                    }
                    None => continue,
                    Some(None) => {}
                }
            }
            if scaled.is_none() {
                scaled = Some(exact_boxes(a, b)?);
            }
            let (xa, xb, (da, db), z) = scaled.as_ref()?;
            if let Some(s) = solve(xa, xb, x, y, &one) {
                if framed.is_some() {
                    stats::POSE_FRAME.fallback();
                }
                let c = finish(s, (da, db), *z);
                let point = |p: Vec3<BigRational>| {
                    Vec3::new(
                        ExactValue::Big(p.x),
                        ExactValue::Big(p.y),
                        ExactValue::Big(p.z),
                    )
                };
                return Some(Closest {
                    distance_squared: ExactValue::Big(c.distance_squared),
                    a: point(c.a),
                    b: point(c.b),
                });
            }
        }
    }
    None
}

/// The exact boxes in integers, scaled by D·2^(−z) (module docs), with D
/// and z; `None` for a degenerate box.
#[allow(clippy::type_complexity)]
fn exact_boxes(
    a: &PoseBox,
    b: &PoseBox,
) -> Option<(GBox<BigInt>, GBox<BigInt>, (BigInt, BigInt), i64)> {
    // The exact boxes, scaled by D·2^(−z).
    let ((ma, da), (mb, db)) = (int_rotation(&a.rotation)?, int_rotation(&b.rotation)?);
    let lengths = a.half_extents.iter().chain(&a.translation);
    let z = least_exponent(lengths.chain(&b.half_extents).chain(&b.translation));
    let dd = &da * &db;
    // Box a: center D·c_a, half-axis k = (d_b·ēₖ)·(column k of M_a); a
    // quaternion's columns are orthogonal with M₁ × M₂ = |Q|²·M₀ (cyclically),
    // so the face normal across axis k is column k itself.
    let exact = |p: &PoseBox, m: &[[BigInt; 3]; 3], other: &BigInt| {
        let dir = [0, 1, 2].map(|k| [0, 1, 2].map(|j| m[j][k].clone()));
        let nrm = match p.rotation {
            PoseRotation::Quaternion(_) => dir.clone(),
            PoseRotation::Matrix(_) => {
                [0, 1, 2].map(|k| cross(&dir[(k + 1) % 3], &dir[(k + 2) % 3]))
            }
        };
        GBox {
            c: p.translation.map(|x| int(x, z) * &dd),
            alpha: [0, 1, 2].map(|k| int(p.half_extents[k], z) * other),
            dir,
            nrm,
        }
    };
    let (xa, xb) = (exact(a, &ma, &db), exact(b, &mb, &da));
    // Nondegenerate boxes only (a singular matrix is the exact path's error;
    // a quaternion's M has det |Q|⁶ > 0).
    for (p, x) in [(a, &xa), (b, &xb)] {
        if matches!(p.rotation, PoseRotation::Matrix(_))
            && dot(&x.dir[0], &cross(&x.dir[1], &x.dir[2])).is_zero()
        {
            return None;
        }
    }
    Some((xa, xb, (da, db), z))
}

/// `n·2^z / Π factors` in lowest terms (every factor positive), reduced
/// factor by factor: with g = gcd(n, f), n/g and f/g are coprime, and a
/// later stage only divides n further, so the result is coprime to every
/// reduced factor, hence to their product. Each gcd is against one factor
/// (`n mod f` first), far smaller than the whole denominator.
fn reduce(n: BigInt, factors: &[&BigInt], z: i64) -> BigRational {
    if n.is_zero() {
        return BigRational::zero();
    }
    let (mut n, mut den) = (n, BigInt::from(1));
    if z >= 0 {
        n <<= z as usize;
    } else {
        let t = n.magnitude().trailing_zeros().unwrap_or(0).min((-z) as u64);
        n >>= t as usize;
        den <<= ((-z) as u64 - t) as usize;
    }
    // The factor before, when n was coprime to it (n is then unchanged, and
    // coprime to it again).
    let mut coprime_to: Option<&BigInt> = None;
    for f in factors {
        if f.is_one() {
            continue;
        }
        if coprime_to == Some(*f) {
            den *= *f;
            continue;
        }
        let r = n.magnitude() % f.magnitude();
        let g = if r.is_zero() {
            f.magnitude().clone()
        } else {
            gcd_lehmer(f.magnitude(), &r)
        };
        if g.is_one() {
            coprime_to = Some(*f);
            den *= *f;
        } else {
            coprime_to = None;
            let g = BigInt::from(g);
            n /= &g;
            den *= *f / &g;
        }
    }
    BigRational::new_raw(n, den)
}

/// The answer in lowest terms: a coordinate n/d of the scaled boxes is
/// n·2^z/(d·D) of the originals, a squared distance n/d is n·2^(2z)/(d·D²),
/// D = d_a·d_b.
fn finish(s: Sol<BigInt>, (da, db): (&BigInt, &BigInt), z: i64) -> Closest<BigRational> {
    debug_assert!(s.d2.is_positive() && s.da.is_positive() && s.db.is_positive());
    let (pa, pb) = ([&s.da, da, db], [&s.db, da, db]);
    let d2 = [&s.d2, da, da, db, db];
    let point = |n: &V<BigInt>, fs: &[&BigInt]| {
        let [x, y, w] = [0, 1, 2].map(|i| reduce_fixed(&n[i], fs, z));
        Vec3::new(x, y, w)
    };
    Closest {
        distance_squared: reduce_fixed(&s.n2, &d2, 2 * z),
        a: point(&s.na, &pa),
        b: point(&s.nb, &pb),
    }
}

/// The bits a value of the fixed-width integers may have here (below the
/// 768 of [`Nat`], with room for one more limb of product).
const FIXED_BITS: u64 = 700;

/// The bits a numerator may have here: all of [`Nat`]'s (it is only
/// divided, never multiplied).
const NUMERATOR_BITS: u64 = 64 * crate::num::fixed::L as u64;

/// `n·2^z / Π factors` (every factor positive) in lowest terms, equal to
/// [`reduce`]'s, in the fixed-width integers of [`crate::num::fixed`] when
/// n and the factors fit [`FIXED_BITS`] (else [`reduce`] itself): the same
/// steps, factor by factor, on the odd parts (`n mod f` by long division,
/// one gcd of f's size, no allocation), the powers of two by shifts.
fn reduce_fixed(n: &BigInt, factors: &[&BigInt], z: i64) -> BigRational {
    use crate::num::fixed::{big, div_exact};
    let fits = |x: &BigInt| x.bits() <= FIXED_BITS;
    if n.bits() > NUMERATOR_BITS || !factors.iter().all(|f| fits(f)) {
        return reduce(n.clone(), factors, z);
    }
    if n.is_zero() {
        return BigRational::zero();
    }
    let mut x = Nat::from_biguint(n.magnitude());
    // The odd parts the denominator keeps, and its power of two.
    let mut kept: Vec<Nat> = Vec::with_capacity(factors.len());
    let mut twos = 0u64;
    // The factor before, when x was coprime to its odd part (x is then
    // unchanged, and coprime to it again).
    let mut coprime_to: Option<&BigInt> = None;
    for f in factors {
        let m = Nat::from_biguint(f.magnitude());
        let t = m.trailing_zeros();
        twos += t;
        let odd = m.shr(t);
        if odd.is_one() {
            continue;
        }
        if coprime_to == Some(*f) {
            kept.push(odd);
            continue;
        }
        let r = match odd.to_u64() {
            Some(w) => Nat::from_u128(x.divrem_small(w).1 as u128),
            None => x.rem(&odd),
        };
        if r.is_zero() {
            // f's odd part divides x: it cancels whole.
            coprime_to = None;
            x = div_exact(&x, &odd);
            continue;
        }
        let g = gcd(&odd, &r);
        if g.is_one() {
            coprime_to = Some(*f);
            kept.push(odd);
        } else {
            coprime_to = None;
            x = div_exact(&x, &g);
            kept.push(div_exact(&odd, &g));
        }
    }
    // x·2^(z − twos) over the kept odd parts: the power of two cancels
    // against x's trailing zeros (x is coprime to the odd parts kept).
    let q = z - twos as i64;
    let (num, shift) = if q >= 0 {
        (big(&x, q), 0)
    } else {
        let t = x.trailing_zeros().min((-q) as u64);
        (big(&x, -(t as i64)), (-q) as u64 - t)
    };
    let mut den = num_bigint::BigUint::one();
    let mut acc = Nat::from_u128(1);
    for k in &kept {
        if acc.bits() + k.bits() > FIXED_BITS {
            den *= acc.to_biguint();
            acc = *k;
        } else {
            acc = acc.mul(k);
        }
    }
    den *= big(&acc, shift as i64);
    let sign = if n.is_negative() {
        num_bigint::Sign::Minus
    } else {
        num_bigint::Sign::Plus
    };
    BigRational::new_raw(BigInt::from_biguint(sign, num), BigInt::from(den))
}

/// The exact path's witness of two overlapping boxes by pose when it is an
/// edge–face crossing: the exhaustive search's second stage
/// (`polytope::exhaustive::witness`: for a then b, its edges in `Polytope`
/// order, the other box's faces in order, the first crossing of the edge
/// with the face's plane that lies in the other box), on the exact integer
/// boxes. The caller has proved (`decide`) that the boxes overlap and that
/// no vertex of either lies in the other; `None` when no crossing is found
/// (the exact path's later stages answer) or a box is degenerate.
pub fn crossing_witness(a: &PoseBox, b: &PoseBox) -> Option<Vec3<BigRational>> {
    let (xa, xb, (da, db), z) = exact_boxes(a, b)?;
    let vertex = |x: &GBox<BigInt>, i: usize| {
        x.base(Feat {
            free: 0,
            signs: i as u8,
        })
    };
    for (p, q) in [(&xa, &xb), (&xb, &xa)] {
        // Per axis of q: its normal's values at p's vertices (from q's
        // center), and |h_i·nrm_i| (the slab's half-width along it). By
        // linearity, vertex v = c_p + Σ ±α_k·dir_k has the value
        // (c_p − c_q)·n + Σ ±α_k·(dir_k·n): four products per normal.
        let rel_c = vsub(&p.c, &q.c);
        let at: Vec<Vec<BigInt>> = (0..3)
            .map(|i| {
                let n = &q.nrm[i];
                let base = dot(&rel_c, n);
                let along: [BigInt; 3] = [0, 1, 2].map(|k| &p.alpha[k] * dot(&p.dir[k], n));
                (0..8)
                    .map(|v| {
                        let mut x = base.clone();
                        for (k, t) in along.iter().enumerate() {
                            if v >> k & 1 == 1 {
                                x += t;
                            } else {
                                x -= t;
                            }
                        }
                        x
                    })
                    .collect()
            })
            .collect();
        let width: Vec<BigInt> = (0..3)
            .map(|i| (&q.alpha[i] * dot(&q.dir[i], &q.nrm[i])).abs())
            .collect();
        // Face f's plane: nrm·(x − c) = ±width along axis f/2; nrm_j·h_j
        // has the sign of ±, so with `width` = |nrm_j·h_j| the + face is at
        // the value sign(nrm_j·h_j)·width. Each vertex's value less the
        // face's, once per (face, vertex).
        let offset: Vec<BigInt> = (0..6)
            .map(|f| {
                let j = f / 2;
                let off = if f % 2 == 0 {
                    width[j].clone()
                } else {
                    -&width[j]
                };
                if dot(&q.dir[j], &q.nrm[j]).is_negative() {
                    -off
                } else {
                    off
                }
            })
            .collect();
        let rel: Vec<Vec<BigInt>> = (0..6)
            .map(|f| at[f / 2].iter().map(|x| x - &offset[f]).collect())
            .collect();
        for k in 0..3 {
            for i in (0..8usize).filter(|i| i >> k & 1 == 0) {
                let (s, e) = (i, i | 1 << k);
                for r in &rel {
                    let (ds, de) = (&r[s], &r[e]);
                    if ds.is_zero() && de.is_zero() {
                        continue;
                    }
                    if ds.is_positive() == de.is_positive() && !ds.is_zero() && !de.is_zero() {
                        continue;
                    }
                    // x = (ds·e − de·s)/(ds − de); in q when each axis's
                    // value |ds·E − de·S| ≤ |ds − de|·width.
                    let den = ds - de;
                    let inside = (0..3).all(|i| {
                        let v = ds * &at[i][e] - de * &at[i][s];
                        v.magnitude() <= (&den * &width[i]).magnitude()
                    });
                    if inside {
                        let num = comb(ds, &vertex(p, e), &de.neg(), &vertex(p, s));
                        // A positive denominator: the sign goes to the numerator.
                        let (num, den) = if den.is_negative() {
                            (num.map(|c| -c), -den)
                        } else {
                            (num, den)
                        };
                        let [x, y, w] = num.map(|c| reduce_fixed(&c, &[&den, &da, &db], z));
                        return Some(Vec3::new(x, y, w));
                    }
                }
            }
        }
    }
    None
}

#[cfg(test)]
mod reduce_tests {
    use super::*;

    fn xorshift(seed: &mut u64) -> u64 {
        *seed ^= *seed << 13;
        *seed ^= *seed >> 7;
        *seed ^= *seed << 17;
        *seed
    }

    fn random_int(seed: &mut u64, bits: u64) -> BigInt {
        let mut n = BigInt::zero();
        let mut left = bits;
        while left > 0 {
            let take = left.min(64);
            n = (n << take) + BigInt::from(xorshift(seed) >> (64 - take));
            left -= take;
        }
        n
    }

    /// `reduce_fixed` is num-rational's own lowest terms of n·2^z/Π factors
    /// (an independent gcd), on random numerators of 0 to 800 bits (past
    /// the fixed width: the `BigInt` steps), factors that repeat, are even,
    /// are 1 or divide the numerator, and exponents of both signs.
    #[test]
    fn reduce_fixed_is_lowest_terms() {
        let mut seed = 0x9e37_79b9_7f4a_7c15u64;
        for k in 0..3000u64 {
            let pool: Vec<BigInt> = (0..3)
                .map(|i| {
                    let bits = 1 + xorshift(&mut seed) % (120 + 100 * i);
                    let f = random_int(&mut seed, bits);
                    if f.is_zero() {
                        BigInt::from(3)
                    } else {
                        f << (xorshift(&mut seed) % 3) as usize
                    }
                })
                .chain([BigInt::from(1), BigInt::from(15)])
                .collect();
            let picks: Vec<usize> = (0..1 + k % 5)
                .map(|_| (xorshift(&mut seed) % pool.len() as u64) as usize)
                .collect();
            let factors: Vec<&BigInt> = picks.iter().map(|&i| &pool[i]).collect();
            let mut n = random_int(&mut seed, k % 801);
            if k % 4 == 0 {
                // A numerator with factors in common.
                n *= factors[0] * factors[factors.len() - 1];
            }
            if k % 2 == 1 {
                n = -n;
            }
            let z = (xorshift(&mut seed) % 161) as i64 - 80;
            let got = reduce_fixed(&n, &factors, z);
            let den: BigInt = factors.iter().fold(BigInt::from(1), |p, f| p * *f);
            let want = if z >= 0 {
                BigRational::new(n.clone() << z as usize, den)
            } else {
                BigRational::new(n.clone(), den << (-z) as usize)
            };
            assert_eq!(got.numer(), want.numer(), "{n} {factors:?} {z}");
            assert_eq!(got.denom(), want.denom(), "{n} {factors:?} {z}");
        }
    }

    /// The `i128` rotation is R(q)/|q|² (or the matrix) exactly: M/d equals
    /// the rotation built in rationals from the doubles' exact values, on
    /// random quaternions, near the identity, one ulp from a quarter turn,
    /// and on matrices; the zero quaternion has d = 0.
    #[test]
    fn int_rotation_small_is_the_exact_rotation() {
        let mut seed = 0x2545_f491_4f6c_dd1du64;
        let unit = |seed: &mut u64| (xorshift(seed) >> 11) as f64 / (1u64 << 53) as f64 * 2.0 - 1.0;
        let s = std::f64::consts::FRAC_1_SQRT_2;
        let mut qs: Vec<[f64; 4]> = (0..200).map(|_| [0; 4].map(|_| unit(&mut seed))).collect();
        qs.extend([
            [1.0, 0.0625, 0.0, -0.375],
            [1.0, 0.0, 0.0, 0.0],
            [s, s.next_up(), 0.0, 0.0],
        ]);
        qs.extend([
            [s.next_down(), 0.0, 0.0, s],
            [1.0, 0.0, 1.0, 0.0],
            [0.5, 0.5, 0.5, 0.5],
        ]);
        // Components whose integers (one common power of two) pass 62 bits
        // do not fit (the `BigInt` steps take them); every one below does.
        assert_eq!(
            int_rotation_small(&PoseRotation::Quaternion([1.0, 0.0, 0.0, 1e-12])),
            None
        );
        for q in qs {
            let (m, d) = int_rotation_small(&PoseRotation::Quaternion(q)).expect("fits");
            // R(q)·|q|² and |q|² in rationals, the test cases' own construction.
            let (r, n) = crate::cases::rot_scaled(&q);
            for i in 0..3 {
                for j in 0..3 {
                    let got = BigRational::new(BigInt::from(m[i][j]), BigInt::from(d));
                    assert_eq!(got, &r[i][j] / &n, "{q:?}");
                }
            }
        }
        assert_eq!(
            int_rotation_small(&PoseRotation::Quaternion([0.0; 4])).map(|r| r.1),
            Some(0)
        );
        let m = [
            [0.5, -0.25, 3.0],
            [1e-3, 1.0, 0.0],
            [-7.0, 0.125, 2.0f64.powi(-60)],
        ];
        let (mi, d) = int_rotation_small(&PoseRotation::Matrix(m)).expect("fits");
        for i in 0..3 {
            for j in 0..3 {
                let got = BigRational::new(BigInt::from(mi[i][j]), BigInt::from(d));
                assert_eq!(got, BigRational::from_float(m[i][j]).unwrap());
            }
        }
    }
}
