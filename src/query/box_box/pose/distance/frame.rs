//! The certificate and the closest pair of two quaternion poses built in
//! the boxes' own frames, in fixed-width integers, reduced once per value.
//!
//! A quaternion pose has R = M/d with the columns mₖ of the integer matrix
//! M = R(Q) mutually orthogonal and |mₖ| = d = |Q|² (Q: the components as
//! integers, one power of two taken out). With half-extents Eₖ and center C
//! as integers in units 2^z, a point p has the local coordinate
//! mₖ·(p − C)/d along axis k, and the box is |local| ≤ Eₖ.
//!
//! With G_kl = m_a,k · m_b,l (the relative rotation times d_a·d_b), a vertex
//! of box p with signs s, V = C_p + Σ sₖEₖ m_p,k/d_p, has the local
//! coordinates μ_l/(d_p·d_q) in the other box q, with
//!
//! ```text
//! μ_l = d_p·m_q,l·(C_p − C_q) + Σₖ sₖ·E_p,k·G_kl
//! ```
//!
//! (the mₖ are orthogonal: each term is one product, no division). Every
//! test of the certificate (`super` module docs: the projection lies in the
//! feature, and d̂ = pb − pa is a strict support direction of both features)
//! is a sign of such local quantities:
//!
//! * **vertex of p against a feature of q** (vertex, edge or face): the
//!   projection has q-local coordinate μ_l/(d_p·d_q) on each free axis l
//!   (inside: |μ_l| ≤ d_p·d_q·E_q,l); on each fixed axis the offset
//!   δ_l = σ_l·E_q,l·d_p·d_q − μ_l, and d̂ ∝ Σ δ_l·m_q,l. q supports −d̂
//!   strictly when σ_l·δ_l < 0, p supports d̂ when sₖ·Σ_l δ_l·G_kl > 0
//!   (the mₖ·m_q,l are the G's). distance² = Σ δ_l²/(d_p·d_q)², the
//!   projection (d_q²·P + Σ δ_l·m_q,l)/(d_p·d_q²) with P = d_p·V.
//! * **edge of a (axis i) against edge of b (axis j)**: with ν the a-local
//!   offsets of b's edge base times d_a·d_b, μ its b-local ones of a's edge
//!   base, g = G_ij and W = d_a²d_b² − g² = |m_a,i × m_b,j|² (zero: parallel,
//!   not taken), the parameters are λ = (d_a·d_b·ν_i + g·μ_j)/W along a's edge
//!   and κ = (g·ν_i + d_a·d_b·μ_j)/W along b's (the normal equations of the
//!   two unit directions, cosine g/(d_a·d_b)); m_a,i × m_b,j =
//!   (G_{i+1,j}·m_a,i+2 − G_{i+2,j}·m_a,i+1)/d_a (the columns' cross products
//!   are d times the third), so the gap along it is S/(d_a·d_b) with
//!   S = G_{i+1,j}·ε_{i+2} − G_{i+2,j}·ε_{i+1}, ε the a-local offsets of b's
//!   edge base from a's edge, and distance² = S²/((d_a·d_b)²·W).
//!
//! The numbers stay a few hundred bits (components below 2⁶², lengths below
//! 2^[`BITS`] units: every value below 2⁷⁴⁰), against the 500–800 bits of
//! the construction scaled by d_a·d_b in world coordinates; each value is
//! put in lowest terms by one gcd of its denominator's size with the
//! product of the numerators that share it (`num::fixed::Over`).

use super::{
    int_rotation_small, least_exponent, parts, reduce, reduce_fixed, Feat, PoseBox, PoseRotation,
};
use crate::num::fixed::{Int, Nat, Over};
use crate::query::Closest;
use crate::vector::Vec3;
use num_rational::BigRational;

/// The most bits a half-extent or translation may have in units of the
/// least one's 2^z (else the caller's `BigInt` construction): with
/// components below 2⁶² every value here stays below 2⁷⁴⁰ (an edge pair's
/// projection numerator, the largest, is below 2^(2·BITS + 560)).
const BITS: i64 = 88;

/// One box: d, the columns m[k] of M, the half-extents and the center.
struct Side {
    d: Int,
    m: [[Int; 3]; 3],
    e: [Int; 3],
    c: [Int; 3],
}

/// Both boxes and their relative rotation.
pub(super) struct Frame {
    x: [Side; 2],
    /// g[k][l] = m_a,k · m_b,l.
    g: [[Int; 3]; 3],
    z: i64,
}

fn dot(u: &[Int; 3], v: &[Int; 3]) -> Int {
    u[0].mul(&v[0]).add(&u[1].mul(&v[1])).add(&u[2].mul(&v[2]))
}

/// `x / 2^z` as an integer below 2^BITS, or `None`.
fn int_at(x: f64, z: i64) -> Option<Int> {
    let (m, f) = parts(x);
    if m == 0 {
        return Some(Int::ZERO);
    }
    let bits = 64 - m.unsigned_abs().leading_zeros() as i64 + f - z;
    (bits <= BITS).then(|| Int::from_i128(m as i128).shl((f - z) as u64))
}

/// ±x.
fn signed(x: &Int, plus: bool) -> Int {
    if plus {
        *x
    } else {
        x.neg()
    }
}

/// Whether bit k of `signs` is set (the + side).
fn plus(signs: u8, k: usize) -> bool {
    signs >> k & 1 == 1
}

fn is_free(f: Feat, k: usize) -> bool {
    f.free >> k & 1 == 1
}

impl Frame {
    /// Two quaternion poses whose components fit `int_rotation_small` and
    /// whose lengths fit [`BITS`]; `None` otherwise (a matrix pose: its
    /// columns are not orthogonal in general).
    pub(super) fn new(a: &PoseBox, b: &PoseBox) -> Option<Frame> {
        let lengths = a.half_extents.iter().chain(&a.translation);
        let z = least_exponent(lengths.chain(&b.half_extents).chain(&b.translation));
        let side = |p: &PoseBox| -> Option<Side> {
            if !matches!(p.rotation, PoseRotation::Quaternion(_)) {
                return None;
            }
            let (m, d) = int_rotation_small(&p.rotation)?;
            if d == 0 {
                return None;
            }
            let e = [
                int_at(p.half_extents[0], z)?,
                int_at(p.half_extents[1], z)?,
                int_at(p.half_extents[2], z)?,
            ];
            let c = [
                int_at(p.translation[0], z)?,
                int_at(p.translation[1], z)?,
                int_at(p.translation[2], z)?,
            ];
            Some(Side {
                d: Int::from_i128(d),
                m: [0, 1, 2].map(|k| [0, 1, 2].map(|j| Int::from_i128(m[j][k]))),
                e,
                c,
            })
        };
        let x = [side(a)?, side(b)?];
        let g = [0, 1, 2].map(|k| [0, 1, 2].map(|l| dot(&x[0].m[k], &x[1].m[l])));
        Some(Frame { x, g, z })
    }

    /// G_kl with k an axis of box p and l of the other.
    fn gpq(&self, p: usize, k: usize, l: usize) -> &Int {
        if p == 0 {
            &self.g[k][l]
        } else {
            &self.g[l][k]
        }
    }

    /// d_p·(feature base of p) = d_p·C_p + Σ_{k fixed} ±E_k·m_k.
    fn base(&self, p: usize, f: Feat) -> [Int; 3] {
        let s = &self.x[p];
        let mut v = s.c.map(|c| c.mul(&s.d));
        for k in (0..3).filter(|&k| !is_free(f, k)) {
            let e = signed(&s.e[k], plus(f.signs, k));
            for (vi, mi) in v.iter_mut().zip(&s.m[k]) {
                *vi = vi.add(&e.mul(mi));
            }
        }
        v
    }

    /// The q-local coordinates, times d_p·d_q, of p's feature base (q = the
    /// other box): μ_l = d_p·m_q,l·(C_p − C_q) + Σ_{k fixed} ±E_p,k·G_kl.
    fn local(&self, p: usize, f: Feat) -> [Int; 3] {
        let (sp, sq) = (&self.x[p], &self.x[1 - p]);
        let rel = [0, 1, 2].map(|i| sp.c[i].sub(&sq.c[i]));
        [0, 1, 2].map(|l| {
            let mut mu = sp.d.mul(&dot(&sq.m[l], &rel));
            for k in (0..3).filter(|&k| !is_free(f, k)) {
                let e = signed(&sp.e[k], plus(f.signs, k));
                mu = mu.add(&e.mul(self.gpq(p, k, l)));
            }
            mu
        })
    }

    /// The proved closest pair of the feature pair (fa, fb), or `None` when
    /// the certificate fails. `Some(None)`: a kind this module does not
    /// build (parallel edges), left to the caller.
    pub(super) fn solve(&self, fa: Feat, fb: Feat) -> Option<Option<Closest<BigRational>>> {
        match (fa.dim(), fb.dim()) {
            (0, _) => self.vertex_feature(0, fa, fb).map(Some),
            (_, 0) => self.vertex_feature(1, fb, fa).map(Some),
            (1, 1) => self.edge_edge(fa, fb),
            _ => Some(None),
        }
    }

    /// Vertex `v` of box p against feature `f` of the other box q.
    fn vertex_feature(&self, p: usize, v: Feat, f: Feat) -> Option<Closest<BigRational>> {
        let q = 1 - p;
        let (sp, sq) = (&self.x[p], &self.x[q]);
        let dd = sp.d.mul(&sq.d);
        let mu = self.local(p, v);
        let mut delta = [Int::ZERO; 3];
        for l in 0..3 {
            let bound = dd.mul(&sq.e[l]);
            if is_free(f, l) {
                if mu[l].mag().cmp(bound.mag()) == std::cmp::Ordering::Greater {
                    return None;
                }
            } else {
                let up = plus(f.signs, l);
                delta[l] = signed(&bound, up).sub(&mu[l]);
                // q's feature supports −d̂ strictly: σ_l·δ_l < 0.
                if delta[l].signum() != if up { -1 } else { 1 } {
                    return None;
                }
            }
        }
        // p's vertex supports d̂ ∝ Σ δ_l·m_q,l strictly: sₖ·Σ δ_l·G_kl > 0.
        for k in 0..3 {
            let mut t = Int::ZERO;
            for l in (0..3).filter(|&l| !is_free(f, l)) {
                t = t.add(&delta[l].mul(self.gpq(p, k, l)));
            }
            if t.signum() != if plus(v.signs, k) { 1 } else { -1 } {
                return None;
            }
        }
        let pv = self.base(p, v);
        let at_p = point(&pv, &sp.d, self.z);
        let at_q = if f.free == 0 {
            point(&self.base(q, f), &sq.d, self.z)
        } else {
            let d2 = sq.d.mul(&sq.d);
            let mut n = pv.map(|x| x.mul(&d2));
            for l in (0..3).filter(|&l| !is_free(f, l)) {
                for (ni, mi) in n.iter_mut().zip(&sq.m[l]) {
                    *ni = ni.add(&delta[l].mul(mi));
                }
            }
            point(&n, &sp.d.mul(&d2), self.z)
        };
        let n2 = delta.iter().fold(Int::ZERO, |s, x| s.add(&x.mul(x)));
        let distance_squared = value(&n2, &dd.mul(&dd), 2 * self.z);
        let (a, b) = if p == 0 { (at_p, at_q) } else { (at_q, at_p) };
        Some(Closest {
            distance_squared,
            a,
            b,
        })
    }

    /// a's edge `fa` against b's edge `fb`; `Some(None)` when parallel.
    fn edge_edge(&self, fa: Feat, fb: Feat) -> Option<Option<Closest<BigRational>>> {
        let (sa, sb) = (&self.x[0], &self.x[1]);
        let i = fa.free.trailing_zeros() as usize;
        let j = fb.free.trailing_zeros() as usize;
        let dd = sa.d.mul(&sb.d);
        let g = &self.g[i][j];
        let w = dd.mul(&dd).sub(&g.mul(g));
        if w.signum() == 0 {
            return Some(None);
        }
        // b's edge base in a's frame (ν) and a's in b's (μ), times d_a·d_b.
        let (nu, mu) = (self.local(1, fb), self.local(0, fa));
        let lam = dd.mul(&nu[i]).add(&g.mul(&mu[j]));
        let kap = g.mul(&nu[i]).add(&dd.mul(&mu[j]));
        let inside = |t: &Int, e: &Int| t.mag().cmp(w.mul(e).mag()) != std::cmp::Ordering::Greater;
        if !inside(&lam, &sa.e[i]) || !inside(&kap, &sb.e[j]) {
            return None;
        }
        // ε_k: a-local offset of b's edge base from a's fixed face k.
        let eps = |k: usize| nu[k].sub(&signed(&dd.mul(&sa.e[k]), plus(fa.signs, k)));
        let (i1, i2) = ((i + 1) % 3, (i + 2) % 3);
        let s = self.g[i1][j]
            .mul(&eps(i2))
            .sub(&self.g[i2][j].mul(&eps(i1)));
        // d̂ = S·(m_a,i × m_b,j) up to a positive factor; its products with
        // a's fixed axes are −d_a·G_{i+2,j}, d_a·G_{i+1,j} (k = i+1, i+2),
        // with b's fixed axes d_b·G_{i,j+2}, −d_b·G_{i,j+1} (l = j+1, j+2).
        let ss = s.signum();
        let (j1, j2) = ((j + 1) % 3, (j + 2) % 3);
        let ok = |sign: i32, up: bool, want: i32| sign * if up { 1 } else { -1 } == want;
        if !(ok(-ss * self.g[i2][j].signum(), plus(fa.signs, i1), 1)
            && ok(ss * self.g[i1][j].signum(), plus(fa.signs, i2), 1)
            && ok(ss * self.g[i][j2].signum(), plus(fb.signs, j1), -1)
            && ok(-ss * self.g[i][j1].signum(), plus(fb.signs, j2), -1))
        {
            return None;
        }
        // The points' denominators W·d pass half the fixed width (one gcd
        // with a product of numerators would not fit): factor by factor.
        let wbig = w.to_bigint();
        let on_edge = |side: &Side, p: usize, f: Feat, t: &Int, axis: usize| {
            let base = self.base(p, f);
            let d = side.d.to_bigint();
            let [x, y, v] = [0, 1, 2].map(|c| {
                let n = w.mul(&base[c]).add(&t.mul(&side.m[axis][c]));
                reduce_fixed(&n.to_bigint(), &[&wbig, &d], self.z)
            });
            Vec3::new(x, y, v)
        };
        let a = on_edge(sa, 0, fa, &lam, i);
        let b = on_edge(sb, 1, fb, &kap, j);
        // S² passes the fixed width: one BigInt square, reduced factor by
        // factor against (d_a·d_b)² and W.
        let (sbig, ddbig) = (s.to_bigint(), dd.to_bigint());
        let distance_squared = reduce(&sbig * &sbig, &[&ddbig, &ddbig, &wbig], 2 * self.z);
        Some(Some(Closest {
            distance_squared,
            a,
            b,
        }))
    }
}

/// `n/den·2^z` in lowest terms (den > 0).
fn value(n: &Int, den: &Int, z: i64) -> BigRational {
    Over::new(den.mag(), &[*n.mag()]).value(n, n.mag(), z)
}

/// The point `n/den·2^z` in lowest terms (den > 0), one gcd of den's size
/// for the three coordinates.
fn point(n: &[Int; 3], den: &Int, z: i64) -> Vec3<BigRational> {
    let xs: [Nat; 3] = n.map(|x| *x.mag());
    let mut over = Over::new(den.mag(), &xs);
    let [x, y, w] = [0, 1, 2].map(|i| over.value(&n[i], n[i].mag(), z));
    Vec3::new(x, y, w)
}

#[cfg(test)]
mod tests {
    use super::super::{exact_boxes, finish, solve, Feat, PoseBox, PoseRotation};
    use super::Frame;
    use num_bigint::BigInt;

    fn xorshift(seed: &mut u64) -> u64 {
        *seed ^= *seed << 13;
        *seed ^= *seed >> 7;
        *seed ^= *seed << 17;
        *seed
    }

    fn unit(seed: &mut u64) -> f64 {
        (xorshift(seed) >> 11) as f64 / (1u64 << 53) as f64 * 2.0 - 1.0
    }

    /// Every feature of a box: 8 vertices, 12 edges, 6 faces.
    fn features() -> Vec<Feat> {
        let mut out = Vec::new();
        for free in 0..8u8 {
            if free == 7 {
                continue;
            }
            for signs in 0..8u8 {
                if signs & free == 0 {
                    out.push(Feat { free, signs });
                }
            }
        }
        out
    }

    /// For every feature pair of quaternion poses (random, near the
    /// identity, one ulp from a quarter turn, and exact turns with parallel
    /// features), the frame construction answers exactly what the
    /// construction scaled by d_a·d_b in world coordinates answers (`solve`
    /// and `finish`, an independent build of the same certificate): both
    /// fail, or both give the same closest pair, value for value; `Some(None)`
    /// only for an edge pair.
    #[test]
    fn frames_agree_with_the_scaled_construction() {
        let mut seed = 0x853c_49e6_748f_ea9bu64;
        let s = std::f64::consts::FRAC_1_SQRT_2;
        let feats = features();
        let mut answered = [0usize; 3];
        let mut framed = 0;
        for k in 0..36 {
            let quat = |seed: &mut u64| -> [f64; 4] {
                match k % 4 {
                    0 => [0; 4].map(|_| unit(seed)),
                    // Near the identity (components fit the i128 rotation).
                    1 => [1.0, 0.01 * unit(seed), 0.0, 0.01 * unit(seed)],
                    // One ulp from a quarter turn about x or z.
                    2 => {
                        let up = xorshift(seed) & 1 == 1;
                        let t = if up { s.next_up() } else { s.next_down() };
                        if xorshift(seed) & 1 == 1 {
                            [s, t, 0.0, 0.0]
                        } else {
                            [t, 0.0, 0.0, s]
                        }
                    }
                    // Exact turns: parallel edges and faces.
                    _ => [
                        [1.0, 0.0, 0.0, 0.0],
                        [1.0, 0.0, 0.0, 1.0],
                        [3.0, 1.0, 1.0, 1.0],
                    ][(xorshift(seed) % 3) as usize],
                }
            };
            let pose = |seed: &mut u64| PoseBox {
                half_extents: [0; 3].map(|_| 0.55 + 0.45 * unit(seed)),
                rotation: PoseRotation::Quaternion(quat(seed)),
                translation: [0; 3].map(|_| 3.0 * unit(seed)),
            };
            let (a, b) = (pose(&mut seed), pose(&mut seed));
            // A component or length whose bits span too far (a random
            // double near zero) is left to the scaled construction.
            let Some(frame) = Frame::new(&a, &b) else {
                continue;
            };
            framed += 1;
            let (xa, xb, (da, db), z) = exact_boxes(&a, &b).expect("nondegenerate");
            let one = BigInt::from(1);
            for &x in &feats {
                for &y in &feats {
                    if x.dim() + y.dim() > 2 {
                        continue;
                    }
                    let scaled = solve(&xa, &xb, x, y, &one).map(|s| finish(s, (&da, &db), z));
                    match frame.solve(x, y) {
                        Some(Some(c)) => {
                            assert_eq!(Some(&c), scaled.as_ref(), "{a:?} {b:?} {x:?} {y:?}");
                            answered[(x.dim() + y.dim()) as usize] += 1;
                        }
                        Some(None) => assert!(x.dim() == 1 && y.dim() == 1),
                        None => assert_eq!(scaled, None, "{a:?} {b:?} {x:?} {y:?}"),
                    }
                }
            }
        }
        // Vertex pairs, vertex–edge pairs and vertex–face or edge pairs
        // were all proved somewhere.
        assert!(answered.iter().all(|&n| n > 0), "{answered:?}");
        assert!(framed >= 30, "{framed}");
    }

    /// Lengths past [`super::BITS`] units of the least one, and matrix
    /// poses, are left to the scaled construction.
    #[test]
    fn wide_lengths_and_matrices_are_left() {
        let p = |e: f64, rotation| PoseBox {
            half_extents: [e, 1.0, 1.0],
            rotation,
            translation: [0.0; 3],
        };
        let q = PoseRotation::Quaternion([1.0, 0.0, 0.0, 0.0]);
        let m = PoseRotation::Matrix([[1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]]);
        assert!(Frame::new(&p(1.0, q), &p(1.0, q)).is_some());
        // 1 is 2^89 units of 2^-89: past 88 bits.
        assert!(Frame::new(&p(2f64.powi(-89), q), &p(1.0, q)).is_none());
        assert!(Frame::new(&p(2f64.powi(-87), q), &p(1.0, q)).is_some());
        assert!(Frame::new(&p(1.0, m), &p(1.0, q)).is_none());
    }
}
