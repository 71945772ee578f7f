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
//! 2^[`BITS`] units: every value below 2⁷²³), against the 500–800 bits of
//! the construction scaled by d_a·d_b in world coordinates. The inputs are
//! `i128`; the feature bases are exact 256-bit sums of their products
//! ([`sum_of_products`]), G the integer rotation matrix of conj(A)·B for
//! the integer quaternions A, B ([`relative`]). A vertex pair's values (μ,
//! δ, the support sums, the points' numerators, Σ δ_l²) and an edge pair's
//! (W, λ, κ, ε, S, the points' numerators) are [`Wide`]s of the words
//! their bounds need (stated where each is built), made [`Int`]s only for
//! [`Lowest`]. Every
//! denominator is a product of a few factors, d_p and d_q for a vertex
//! pair, d_a, d_b and W = (d_a·d_b − g)·(d_a·d_b + g) for an edge pair, and
//! the values are put in lowest terms by one gcd per factor of that
//! factor's size ([`Lowest`]), not of the whole denominator's.

use super::{int_quaternion_matrix, int_quaternion_small, parts, Feat, PoseBox, PoseRotation};
use crate::num::fixed::{
    div_exact, div_exact_two, four_word_modulus, gcd, gcd_two, gcd_u64, mul_four, mul_redc_two,
    neg_inv_word, residue_four, residue_word, two_word_modulus, ExactValue, FixedRational, Int,
    Nat, L,
};
use crate::num::wide::Wide;
use crate::query::Closest;
use crate::vector::Vec3;
use num_bigint::BigInt;
use num_rational::BigRational;
use num_traits::{One, Zero};

/// The most bits a half-extent or translation may have in units of the
/// least one's 2^z (else the caller's `BigInt` construction): with
/// components below 2⁶² every value here stays below 2⁷²³ (an edge pair's
/// projection numerator, the largest, is below 2^(BITS + 635)).
const BITS: i64 = 88;

/// One box: d, the columns m[k] of M (entries at most d < 2¹²⁶ in
/// magnitude: a column has length d), the half-extents and the center
/// (below 2^[`BITS`]), in `i128`; d also as an [`Int`].
struct Side {
    d: Int,
    d128: i128,
    m: [[i128; 3]; 3],
    e: [i128; 3],
    c: [i128; 3],
}

/// Both boxes and their relative rotation.
pub(super) struct Frame {
    x: [Side; 2],
    /// g[k][l] = m_a,k · m_b,l: at most d_a·d_b < 2²⁵² in magnitude
    /// (Cauchy–Schwarz, columns of lengths d_a, d_b).
    g: [[Wide<4>; 3]; 3],
    z: i64,
}

/// `m·2^f / 2^z` (a double's [`parts`], f ≥ z) as an integer below
/// 2^BITS, or `None`.
fn int_at((m, f): (i64, i64), z: i64) -> Option<i128> {
    if m == 0 {
        return Some(0);
    }
    let bits = 64 - m.unsigned_abs().leading_zeros() as i64 + f - z;
    (bits <= BITS).then(|| (m as i128) << (f - z))
}

fn int(x: i128) -> Int {
    Int::from_i128(x)
}

/// `a·b` exactly as a two's-complement 256-bit (high, low) pair.
fn mul_i128(a: i128, b: i128) -> (u128, u128) {
    let (x, y) = (a.unsigned_abs(), b.unsigned_abs());
    let (x0, x1, y0, y1) = (x as u64 as u128, x >> 64, y as u64 as u128, y >> 64);
    let (p00, p01, p10, p11) = (x0 * y0, x0 * y1, x1 * y0, x1 * y1);
    let mid = (p00 >> 64) + (p01 as u64 as u128) + (p10 as u64 as u128);
    let lo = (p00 as u64 as u128) | (mid << 64);
    let hi = p11 + (p01 >> 64) + (p10 >> 64) + (mid >> 64);
    if (a < 0) != (b < 0) {
        neg256(hi, lo)
    } else {
        (hi, lo)
    }
}

/// −(hi, lo) in two's complement.
fn neg256(hi: u128, lo: u128) -> (u128, u128) {
    let lo2 = (!lo).wrapping_add(1);
    ((!hi).wrapping_add(if lo2 == 0 { 1 } else { 0 }), lo2)
}

/// G = M_a^T·M_b for the integer quaternions A, B (components below 2⁶²)
/// of M_a = R(A), M_b = R(B): R(Q) is |Q|² times the rotation of Q, so
/// M_a^T·M_b = |A|²|B|²·rot(A)^T·rot(B) = |P|²·rot(P) = R(P) with
/// P = conj(A)·B (|P| = |A|·|B|, rot(A)^T = rot(conj(A)), rot(A)·rot(B) =
/// rot(A·B)): ten products of P's components instead of nine dot products
/// of the columns.
///
/// P's components are sums of four products below 2¹²⁴, below 2¹²⁶ (in
/// `i128`); their products are exact 256-bit two's-complement pairs
/// ([`mul_i128`]), the sums and differences taken modulo 2²⁵⁶, and every
/// entry is at most |P|² = d_a·d_b < 2²⁵² in magnitude (an entry of |P|²
/// times a rotation): read as two's complement, each is the value.
fn relative([a0, a1, a2, a3]: [i128; 4], [b0, b1, b2, b3]: [i128; 4]) -> [[Wide<4>; 3]; 3] {
    // P = conj(A)·B, conj(A) = (a0, −a1, −a2, −a3).
    let w = a0 * b0 + a1 * b1 + a2 * b2 + a3 * b3;
    let x = a0 * b1 - a1 * b0 - a2 * b3 + a3 * b2;
    let y = a0 * b2 + a1 * b3 - a2 * b0 - a3 * b1;
    let z = a0 * b3 - a1 * b2 + a2 * b1 - a3 * b0;
    let m = mul_i128;
    let (ww, xx, yy, zz) = (m(w, w), m(x, x), m(y, y), m(z, z));
    let (xy, xz, yz, wx, wy, wz) = (m(x, y), m(x, z), m(y, z), m(w, x), m(w, y), m(w, z));
    // Sums and differences modulo 2²⁵⁶ of (high, low) pairs.
    let add = |(ah, al): (u128, u128), (bh, bl): (u128, u128)| {
        let (lo, c) = al.overflowing_add(bl);
        (ah.wrapping_add(bh).wrapping_add(c as u128), lo)
    };
    let sub = |(ah, al): (u128, u128), (bh, bl): (u128, u128)| {
        let (lo, c) = al.overflowing_sub(bl);
        (ah.wrapping_sub(bh).wrapping_sub(c as u128), lo)
    };
    let wide =
        |(hi, lo): (u128, u128)| Wide([lo as u64, (lo >> 64) as u64, hi as u64, (hi >> 64) as u64]);
    let two = |u: (u128, u128)| wide(add(u, u));
    let (wwpxx, yypzz, wwmxx, yymzz) = (add(ww, xx), add(yy, zz), sub(ww, xx), sub(yy, zz));
    [
        [wide(sub(wwpxx, yypzz)), two(sub(xy, wz)), two(add(xz, wy))],
        [two(add(xy, wz)), wide(add(wwmxx, yymzz)), two(sub(yz, wx))],
        [two(sub(xz, wy)), two(add(yz, wx)), wide(sub(wwmxx, yymzz))],
    ]
}

/// Σ aᵢ·bᵢ exactly, for sums the caller bounds below 2²⁵⁵ in magnitude
/// (every partial sum is exact modulo 2²⁵⁶, so the last one, read as
/// two's complement, is the value).
fn sum_of_products(terms: impl Iterator<Item = (i128, i128)>) -> Wide<4> {
    let (mut hi, mut lo) = (0u128, 0u128);
    for (a, b) in terms {
        let (h, l) = mul_i128(a, b);
        let (s, c) = lo.overflowing_add(l);
        lo = s;
        hi = hi.wrapping_add(h).wrapping_add(c as u128);
    }
    Wide([lo as u64, (lo >> 64) as u64, hi as u64, (hi >> 64) as u64])
}

/// An `i128` as a two-word [`Wide`].
fn w(x: i128) -> Wide<2> {
    Wide::from_i128(x)
}

/// Whether bit k of `signs` is set (the + side).
fn plus(signs: u8, k: usize) -> bool {
    signs >> k & 1 == 1
}

fn is_free(f: Feat, k: usize) -> bool {
    f.free >> k & 1 == 1
}

impl Frame {
    /// Two quaternion poses whose components fit `int_quaternion_small` and
    /// whose lengths fit [`BITS`]; `None` otherwise (a matrix pose: its
    /// columns are not orthogonal in general).
    pub(super) fn new(a: &PoseBox, b: &PoseBox) -> Option<Frame> {
        let (PoseRotation::Quaternion(qa), PoseRotation::Quaternion(qb)) =
            (&a.rotation, &b.rotation)
        else {
            return None;
        };
        // The lengths' (m, e) once: z is their least exponent
        // (`least_exponent`), each then an integer in units 2^z.
        let lengths = |p: &PoseBox| {
            let [e0, e1, e2] = p.half_extents;
            let [c0, c1, c2] = p.translation;
            [e0, e1, e2, c0, c1, c2].map(parts)
        };
        let (la, lb) = (lengths(a), lengths(b));
        let mut z = i64::MAX;
        for (m, e) in la.iter().chain(&lb) {
            if *m != 0 {
                z = z.min(*e);
            }
        }
        if z == i64::MAX {
            z = 0;
        }
        let side = |q: &[f64; 4], l: &[(i64, i64); 6]| -> Option<(Side, [i128; 4])> {
            let iq = int_quaternion_small(q)?;
            let (m, d) = int_quaternion_matrix(iq);
            if d == 0 {
                return None;
            }
            let e = [int_at(l[0], z)?, int_at(l[1], z)?, int_at(l[2], z)?];
            let c = [int_at(l[3], z)?, int_at(l[4], z)?, int_at(l[5], z)?];
            let side = Side {
                d: int(d),
                d128: d,
                m: [0, 1, 2].map(|k| [m[0][k], m[1][k], m[2][k]]),
                e,
                c,
            };
            Some((side, iq))
        };
        let ((sa, ia), (sb, ib)) = (side(qa, &la)?, side(qb, &lb)?);
        let x = [sa, sb];
        Some(Frame {
            x,
            g: relative(ia, ib),
            z,
        })
    }

    /// G_kl with k an axis of box p and l of the other.
    fn gpq(&self, p: usize, k: usize, l: usize) -> &Wide<4> {
        if p == 0 {
            &self.g[k][l]
        } else {
            &self.g[l][k]
        }
    }

    /// d_p·(feature base of p) = d_p·C_p + Σ_{k fixed} ±E_k·m_k: four
    /// products below 2¹²⁶·2⁸⁸ = 2²¹⁴, the sum below 2²¹⁶.
    fn base(&self, p: usize, f: Feat) -> [Wide<4>; 3] {
        let s = &self.x[p];
        // ±E_k on a fixed axis, 0 on a free one (its product adds nothing).
        let e = [0, 1, 2].map(|k| match (is_free(f, k), plus(f.signs, k)) {
            (true, _) => 0,
            (false, true) => s.e[k],
            (false, false) => -s.e[k],
        });
        [0, 1, 2].map(|i| {
            let terms = [
                (s.d128, s.c[i]),
                (e[0], s.m[0][i]),
                (e[1], s.m[1][i]),
                (e[2], s.m[2][i]),
            ];
            sum_of_products(terms.into_iter())
        })
    }

    /// The q-local coordinates, times d_p·d_q, of p's feature base (q = the
    /// other box), from `base` = d_p·(the base) ([`Frame::base`]):
    /// μ_l = m_q,l·(base − d_p·C_q) = d_p·m_q,l·(C_p − C_q) +
    /// Σ_{k fixed} ±E_p,k·G_kl (G_kl = m_p,k·m_q,l).
    ///
    /// X = base − d_p·C_q = d_p·(C_p − C_q) + Σ_{k fixed} ±E_p,k·m_p,k has
    /// length below 2¹²⁶·2⁹⁰ + 2¹²⁶·2⁸⁹ < 2²¹⁷ (C_p − C_q: components below
    /// 2⁸⁹, length below 2⁹⁰; the columns orthogonal of length d_p, the
    /// E's below 2⁸⁸), components below 2²¹⁷ (four words); so μ_l is below
    /// d_q·2²¹⁷ < 2³⁴³ (Cauchy–Schwarz), each product m·X_i below
    /// 2¹²⁶·2²¹⁷ = 2³⁴³ and every partial sum below 2³⁴⁵ (six words).
    fn local(&self, p: usize, base: &[Wide<4>; 3]) -> [Wide<6>; 3] {
        let (sp, sq) = (&self.x[p], &self.x[1 - p]);
        let x = [0, 1, 2].map(|i| base[i].sub(&Wide::mul_i128(sp.d128, sq.c[i])));
        [0, 1, 2].map(|l| {
            let m = &sq.m[l];
            w(m[0])
                .mul::<4, 6>(&x[0])
                .add(&w(m[1]).mul(&x[1]))
                .add(&w(m[2]).mul(&x[2]))
        })
    }

    /// The proved closest pair of the feature pair (fa, fb), or `None` when
    /// the certificate fails. `Some(None)`: a kind this module does not
    /// build (parallel edges), left to the caller.
    pub(super) fn solve(&self, fa: Feat, fb: Feat) -> Option<Option<Closest<ExactValue>>> {
        match (fa.dim(), fb.dim()) {
            (0, _) => self.vertex_feature(0, fa, fb).map(Some),
            (_, 0) => self.vertex_feature(1, fb, fa).map(Some),
            (1, 1) => self.edge_edge(fa, fb),
            _ => Some(None),
        }
    }

    /// Vertex `v` of box p against feature `f` of the other box q.
    fn vertex_feature(&self, p: usize, v: Feat, f: Feat) -> Option<Closest<ExactValue>> {
        let q = 1 - p;
        let (sp, sq) = (&self.x[p], &self.x[q]);
        // d_p·d_q < 2²⁵²; the bounds d_p·d_q·E_q,l below 2²⁵²·2⁸⁸ = 2³⁴⁰.
        let dd = Wide::<4>::mul_i128(sp.d128, sq.d128);
        // d_p·(p's vertex), below 2²¹⁶ ([`Frame::base`]).
        let pv = self.base(p, v);
        let mu = self.local(p, &pv);
        let mut delta = [Wide::<6>::ZERO; 3];
        for l in 0..3 {
            let bound: Wide<6> = dd.mul(&w(sq.e[l]));
            if is_free(f, l) {
                // |μ_l| > |bound|: both below 2³⁴³, the difference of the
                // magnitudes in six words.
                if bound.abs().sub(&mu[l].abs()).is_neg() {
                    return None;
                }
            } else {
                let up = plus(f.signs, l);
                // δ_l = ±bound − μ_l, below 2³⁴⁰ + 2³⁴³ < 2³⁴⁴.
                let b = if up { bound } else { bound.neg() };
                delta[l] = b.sub(&mu[l]);
                // q's feature supports −d̂ strictly: σ_l·δ_l < 0.
                if delta[l].signum() != if up { -1 } else { 1 } {
                    return None;
                }
            }
        }
        // p's vertex supports d̂ ∝ Σ δ_l·m_q,l strictly: sₖ·Σ δ_l·G_kl > 0
        // (three products below 2³⁴⁴·2²⁵² = 2⁵⁹⁶, the sum below 2⁵⁹⁸: ten
        // words).
        for k in 0..3 {
            let mut t = Wide::<10>::ZERO;
            for l in (0..3).filter(|&l| !is_free(f, l)) {
                t = t.add(&delta[l].mul(self.gpq(p, k, l)));
            }
            if t.signum() != if plus(v.signs, k) { 1 } else { -1 } {
                return None;
            }
        }
        // q's point: its vertex over d_q, or (d_q²·P + Σ δ_l·m_q,l) over
        // d_p·d_q² (factors p, q, q): d_q²·P below 2²⁵²·2²¹⁶ = 2⁴⁶⁸, each
        // δ_l·m_q,l below 2³⁴⁴·2¹²⁶ = 2⁴⁷⁰, the sum below 2⁴⁷³ (eight
        // words).
        let nq: [Wide<8>; 3] = if f.free == 0 {
            self.base(q, f).map(|x| x.widen())
        } else {
            let d2 = Wide::<4>::mul_i128(sq.d128, sq.d128);
            let mut n = pv.map(|x| x.mul(&d2));
            for l in (0..3).filter(|&l| !is_free(f, l)) {
                for (ni, mi) in n.iter_mut().zip(&sq.m[l]) {
                    *ni = ni.add(&delta[l].mul(&w(*mi)));
                }
            }
            n
        };
        // Σ δ_l²: three squares below 2⁶⁸⁸, the sum below 2⁶⁹⁰ (eleven
        // words).
        let n2 = delta
            .iter()
            .fold(Wide::<11>::ZERO, |s, x| s.add(&x.mul(x)))
            .to_int();
        // `Lowest` works on the 768-bit `Int`s.
        let (pv, nq) = (pv.map(Wide::to_int), nq.map(Wide::to_int));
        // Every denominator is a product of d_p and d_q (`Lowest`: one gcd
        // of a d's size per box, for the numerators of its values together).
        let nums: [&Nat; 6] = [
            pv[0].mag(),
            pv[1].mag(),
            pv[2].mag(),
            nq[0].mag(),
            nq[1].mag(),
            nq[2].mag(),
        ];
        let mut low = Lowest::factors(&[sp.d.mag(), sq.d.mag()], [p, q]);
        // The squared distance over (d_p·d_q)²: the odd parts that divide
        // n2 whole first, the rest with the points' h's. They often do
        // (always for two vertices: n2 = |d_q·P − d_p·Q|² and |P|² is a
        // multiple of d_p, the columns orthogonal of length d_p), and n2 in
        // the product would make h the whole of o, a gcd of o's size per
        // value.
        let (n2, kept, k2, t2) = low.strip(&n2, &[p, p, q, q]);
        // Each h from the numerators of the values over its factor: p's
        // point over d_p alone, q's over d_q (and d_p unless it is q's
        // vertex), n2 over both.
        let n2m = n2.mag();
        if f.free == 0 {
            low.set_h_of(p, &[nums[0], nums[1], nums[2], n2m]);
        } else {
            low.set_h_of(
                p,
                &[nums[0], nums[1], nums[2], nums[3], nums[4], nums[5], n2m],
            );
        }
        low.set_h_of(q, &[nums[3], nums[4], nums[5], n2m]);
        let at_p = low.point(&pv, &[p], self.z);
        let at_q = if f.free == 0 {
            low.point(&nq, &[q], self.z)
        } else {
            low.point(&nq, &[p, q, q], self.z)
        };
        let distance_squared = low.value_with(&n2, &kept[..k2], t2, 2 * self.z);
        let (a, b) = if p == 0 { (at_p, at_q) } else { (at_q, at_p) };
        Some(Closest {
            distance_squared: ExactValue::Fixed(distance_squared),
            a,
            b,
        })
    }

    /// a's edge `fa` against b's edge `fb`; `Some(None)` when parallel.
    fn edge_edge(&self, fa: Feat, fb: Feat) -> Option<Option<Closest<ExactValue>>> {
        let (sa, sb) = (&self.x[0], &self.x[1]);
        let i = fa.free.trailing_zeros() as usize;
        let j = fb.free.trailing_zeros() as usize;
        // d_a·d_b < 2²⁵², |g| ≤ d_a·d_b (Cauchy–Schwarz).
        let dd = Wide::<4>::mul_i128(sa.d128, sb.d128);
        let g = &self.g[i][j];
        // W = d_a²d_b² − g² as its factors d_a·d_b ∓ g, each in [0, 2²⁵³)
        // (four words); W = 0 (parallel edges) when one of them is.
        let (w1, w2) = (dd.sub(g), dd.add(g));
        if w1.is_zero() || w2.is_zero() {
            return Some(None);
        }
        // W below 2⁵⁰⁶ (eight words).
        let big_w: Wide<8> = w1.mul(&w2);
        // The edges' bases times d_a and d_b, below 2²¹⁶ ([`Frame::base`]);
        // b's edge base in a's frame (ν) and a's in b's (μ), times d_a·d_b,
        // below 2³⁴³ ([`Frame::local`]).
        let (base_a, base_b) = (self.base(0, fa), self.base(1, fb));
        let (nu, mu) = (self.local(1, &base_b), self.local(0, &base_a));
        // λ, κ: two products below 2²⁵²·2³⁴³ = 2⁵⁹⁵, the sum below 2⁵⁹⁶
        // (ten words).
        let lam: Wide<10> = dd.mul::<6, 10>(&nu[i]).add(&g.mul(&mu[j]));
        let kap: Wide<10> = g.mul::<6, 10>(&nu[i]).add(&dd.mul(&mu[j]));
        // |t| ≤ W·E (W > 0, E ≥ 0): W·E below 2⁵⁰⁶·2⁸⁸ = 2⁵⁹⁴ (ten words).
        let inside = |t: &Wide<10>, e: i128| !big_w.mul::<2, 10>(&w(e)).sub(&t.abs()).is_neg();
        if !inside(&lam, sa.e[i]) || !inside(&kap, sb.e[j]) {
            return None;
        }
        // ε_k: a-local offset of b's edge base from a's fixed face k,
        // ν_k ∓ d_a·d_b·E_a,k: below 2³⁴³ + 2²⁵²·2⁸⁸ < 2³⁴⁴ (six words).
        let eps = |k: usize| {
            let e = if plus(fa.signs, k) { sa.e[k] } else { -sa.e[k] };
            nu[k].sub(&dd.mul::<2, 6>(&w(e)))
        };
        let (i1, i2) = ((i + 1) % 3, (i + 2) % 3);
        // S: two products below 2²⁵²·2³⁴⁴ = 2⁵⁹⁶, the difference below 2⁵⁹⁷
        // (ten words).
        let s: Wide<10> = self.g[i1][j]
            .mul::<6, 10>(&eps(i2))
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
        // The points over W·d_p (factors W and p), the squared distance
        // S²/((d_a·d_b)²·W), reduced factor by factor (`Lowest`). A point's
        // numerator W·base + t·m_axis: W·base below 2⁵⁰⁶·2²¹⁶ = 2⁷²²
        // ([`Frame::base`]), t·m below 2⁵⁹⁶·2¹²⁶ = 2⁷²², the sum below 2⁷²³
        // (twelve words).
        let on_edge = |side: &Side, base: &[Wide<4>; 3], t: &Wide<10>, axis: usize| {
            [0, 1, 2].map(|c| {
                let n: Wide<12> = big_w
                    .mul::<4, 12>(&base[c])
                    .add(&t.mul(&w(side.m[axis][c])));
                n.to_int()
            })
        };
        let na = on_edge(sa, &base_a, &lam, i);
        let nb = on_edge(sb, &base_b, &kap, j);
        // `Lowest` works on the 768-bit `Int`s.
        let (s, w1, w2) = (s.to_int(), w1.to_int(), w2.to_int());
        let nums: [&Nat; 7] = [
            na[0].mag(),
            na[1].mag(),
            na[2].mag(),
            nb[0].mag(),
            nb[1].mag(),
            nb[2].mag(),
            s.mag(),
        ];
        // W as its factors d_a·d_b ∓ g (both positive, each of at most 253
        // bits: their residues stay in the fixed width).
        let low = Lowest::new(&[sa.d.mag(), sb.d.mag(), w1.mag(), w2.mag()], [0, 1], &nums);
        let a = low.point(&na, &[2, 3, 0], self.z);
        let b = low.point(&nb, &[2, 3, 1], self.z);
        // S²/((d_a·d_b)²·W): S ≠ 0 (else d̂ = 0 and the support tests
        // above fail), S² passes the fixed width (`Lowest::square`).
        let distance_squared = low.square(s.mag(), &[0, 1], &[2, 3], 2 * self.z);
        Some(Some(Closest {
            distance_squared: ExactValue::Big(distance_squared),
            a,
            b,
        }))
    }
}

/// `x mod m` (m > 0; for a one-word odd m > 1 a unit multiple of it, which
/// keeps every gcd with m).
fn residue(x: &Nat, m: &Nat) -> Nat {
    match m.to_u64() {
        Some(1) => Nat::ZERO,
        Some(w) if w & 1 == 1 => Nat::from_u128(x.residue_odd(w) as u128),
        Some(w) => Nat::from_u128(x.divrem_small(w).1 as u128),
        None => x.rem(m),
    }
}

/// `gcd(x, h)` for an odd h > 1 and x > 0.
fn gcd_odd(x: &Nat, h: &Nat) -> Nat {
    match h.to_u64() {
        Some(w) => {
            let r = match x.to_u64() {
                Some(v) => v % w,
                None => x.residue_odd(w),
            };
            Nat::from_u128(gcd_u64(w, r) as u128)
        }
        None => gcd(h, &residue(x, h)),
    }
}

/// Lowest terms of values `x·2^p / Π f` whose denominators are products of
/// a few positive factors (d_a and d_b, and W's two factors for an edge
/// pair, with repetition) and whose numerators divide, per factor f, a
/// product `Π nums_f` (the numerators of the values over f, or more).
///
/// Per factor f = 2^t·o (o odd) one gcd of o's size, h = gcd(o, Π nums_f),
/// formed from the product reduced modulo o as it grows. For a numerator x
/// dividing `Π nums_f`, gcd(x, o) divides both `Π nums_f` and o, hence h:
/// so gcd(x, o) = gcd(x, h), a gcd with a number that is 1 or small for all
/// but special inputs. A value is reduced factor by factor (g = gcd(x, o),
/// x ← x/g, keep o/g: for every prime one side loses it, and later steps
/// only divide x further, so x ends prime to every kept part; each x stays
/// a divisor of its `Π nums_f`), the powers of two by shifts: no gcd of the
/// whole denominator's size.
struct Lowest {
    n: usize,
    /// The factors' odd parts, their powers of two, and the h's.
    odd: [Nat; 4],
    twos: [u64; 4],
    h: [Nat; 4],
    /// An odd part of two words as `num::fixed::two_word_modulus` gives it
    /// (its residues without division).
    two: [Option<(u128, u64)>; 4],
    /// The odd parts that fit a `u128` (both d's: below 2¹²⁶), and the h's
    /// in the form their gcds use.
    small: [Option<u128>; 4],
    common: [Common; 4],
}

/// A factor's h = gcd(o, Π nums) as each value's gcd with it runs: for
/// h < 2⁶⁴ (the common case besides 1: a product of small primes) a word
/// residue and [`gcd_u64`], for h of two words a two-word residue and
/// [`gcd_two`], no `Nat` temporaries; wider ones with `Nat`s.
#[derive(Clone, Copy)]
enum Common {
    /// h = 1: nothing to cancel.
    One,
    /// 1 < h < 2⁶⁴, with −h⁻¹ mod 2⁶⁴.
    Word(u64, u64),
    /// 2⁶⁴ < h < 2¹²⁷ (odd), with −h⁻¹ mod 2⁶⁴ (`two_word_modulus`).
    Two(u128, u64),
    /// Wider: `self.h[k]` ([`gcd_odd`]).
    Wide,
}

impl Common {
    fn of(h: &Nat) -> Common {
        if h.is_one() {
            Common::One
        } else if let Some(w) = h.to_u64() {
            Common::Word(w, neg_inv_word(w))
        } else if let Some((h2, minv)) = two_word_modulus(h) {
            Common::Two(h2, minv)
        } else {
            Common::Wide
        }
    }
}

/// A kept odd part o/g: a `u128` when o fits one, else a `Nat`.
enum Part {
    Two(u128),
    Wide(Nat),
}

impl Lowest {
    /// For the factors `fs` (positive; the first two d_p and d_q of the
    /// boxes `pq`, which index them) and the nonzero numerators among `nums`.
    fn new(fs: &[&Nat], pq: [usize; 2], nums: &[&Nat]) -> Lowest {
        let mut out = Lowest::factors(fs, pq);
        out.set_h(nums);
        out
    }

    /// The factors alone (no h yet: [`Lowest::set_h`]).
    fn factors(fs: &[&Nat], pq: [usize; 2]) -> Lowest {
        let mut out = Lowest {
            n: fs.len(),
            odd: [Nat::ZERO; 4],
            twos: [0; 4],
            h: [Nat::ZERO; 4],
            two: [None; 4],
            small: [None; 4],
            common: [Common::One; 4],
        };
        for (i, f) in fs.iter().enumerate() {
            // Factor index 0 is box 0's d, 1 box 1's (the callers' order).
            let k = if i < 2 { pq[i] } else { i };
            let t = f.trailing_zeros();
            let o = f.shr(t);
            out.twos[k] = t;
            out.odd[k] = o;
            out.two[k] = two_word_modulus(&o);
            out.small[k] = o.to_u128();
        }
        out
    }

    /// The h's for the numerators `nums` (zero ones skipped).
    fn set_h(&mut self, nums: &[&Nat]) {
        for k in 0..self.n {
            self.set_h_of(k, nums);
        }
    }

    /// Factor k's h for the numerators `nums` (zero ones skipped): those of
    /// the values whose denominators have factor k suffice.
    fn set_h_of(&mut self, k: usize, nums: &[&Nat]) {
        let o = self.odd[k];
        self.h[k] = if o.is_one() {
            o
        } else if let Some((o2, minv)) = self.two[k] {
            // Π nums modulo o in two words: each residue (`residue_two`)
            // and each product of two (`mul_redc_two`) below o, times
            // units 2^(−64s) modulo odd o; a residue 0 gives
            // gcd(o, 0) = o (no numerator: the empty product 1).
            let mut rs = nums
                .iter()
                .filter(|x| !x.is_zero())
                .map(|x| x.residue_two(o2, minv));
            let first = rs.next().unwrap_or(1);
            let p = rs.fold(first, |p, r| mul_redc_two(p, r, o2, minv));
            Nat::from_u128(gcd_two(o2, p))
        } else if let Some(w) = o.to_u64() {
            // One word: the same product of residues in words (each
            // below w, their product below 2¹²⁸).
            let minv = neg_inv_word(w);
            let mut p = 1u64;
            for x in nums.iter().filter(|x| !x.is_zero()) {
                let t = p as u128 * x.residue_word(w, minv) as u128;
                p = residue_word(&[t as u64, (t >> 64) as u64], w, minv);
            }
            Nat::from_u128(gcd_u64(w, p) as u128)
        } else if let Some((o4, minv)) = four_word_modulus(&o) {
            // Four words (W's parts, below 2²⁵³): the same in four
            // words (`residue_four`), each product of two residues
            // eight words.
            let mut rs = nums
                .iter()
                .filter(|x| !x.is_zero())
                .map(|x| residue_four(x.words(), &o4, minv));
            let first = rs.next().unwrap_or([1, 0, 0, 0]);
            let p = rs.fold(first, |p, r| residue_four(&mul_four(&p, &r), &o4, minv));
            gcd(&o, &Nat::from_four(p))
        } else if o.bits() <= 64 * (L as u64 / 2) {
            // Π nums modulo o by Montgomery's reduction
            // (`Nat::shrink_mod`): each residue r ≡ x·2^(−64s) and each
            // running product stay within o's limbs (at most L/2), so
            // every product fits the fixed width. The powers 2^(−64s)
            // are units modulo odd o: the last residue has the gcd with
            // o of Π nums itself (o for a residue 0, `gcd`'s answer).
            let minv = neg_inv_word(o.low_word());
            let mut p = Nat::from_u128(1);
            for x in nums.iter().filter(|x| !x.is_zero()) {
                let r = x.shrink_mod(&o, minv).0;
                p = p.mul(&r).shrink_mod(&o, minv).0;
            }
            gcd(&o, &p)
        } else {
            // Two residues would pass the fixed width: the product
            // modulo o in `BigUint`.
            let ob = o.to_biguint();
            let mut p = num_bigint::BigUint::one();
            for x in nums.iter().filter(|x| !x.is_zero()) {
                p = p * x.to_biguint() % &ob;
            }
            if p.is_zero() {
                o
            } else {
                gcd(&o, &Nat::from_biguint(&p))
            }
        };
        self.common[k] = Common::of(&self.h[k]);
    }

    /// The odd parts among the factors `fs` that divide x whole, taken
    /// out in turn (each proved by a residue 0, the quotient exact):
    /// `x/Π_{fs} f = x′/(Π_{kept} f · 2^t)` with the kept indices and t the
    /// taken factors' powers of two. x′ divides x, so [`Lowest::value_with`]
    /// reduces it when x′ (or a multiple) is among the h's numerators. A
    /// factor that failed once is not tried again: m only loses divisors
    /// afterwards, so o ∤ m stays true.
    fn strip(&self, x: &Int, fs: &[usize]) -> (Int, [usize; 6], usize, u64) {
        let (mut m, mut kept, mut n, mut t) = (*x.mag(), [0; 6], 0, 0);
        let mut failed = 0u8;
        for &k in fs {
            let o = &self.odd[k];
            let whole = !o.is_one()
                && !m.is_zero()
                && failed >> k & 1 == 0
                && match self.two[k] {
                    Some((o2, minv)) => m.residue_two(o2, minv) == 0,
                    None => residue(&m, o).is_zero(),
                };
            if whole {
                m = match self.two[k] {
                    Some((o2, _)) => m.div_exact_by_two(o2),
                    None => div_exact(&m, o),
                };
                t += self.twos[k];
            } else {
                failed |= 1 << k;
                kept[n] = k;
                n += 1;
            }
        }
        (Int::from_nat(x.is_neg(), m), kept, n, t)
    }

    /// `x·2^p / (Π_{fs} f · 2^t)` in lowest terms, in the fixed width.
    fn value_with(&self, x: &Int, fs: &[usize], t: u64, p: i64) -> FixedRational {
        let (mag, den, twos) = self.reduced(x.mag(), fs);
        FixedRational::new(x.is_neg(), &mag, &den, twos + t, p)
    }

    /// The magnitude divided by its gcd with the odd factors, the kept odd
    /// denominator, and the denominator's power of two.
    fn reduced(&self, x: &Nat, fs: &[usize]) -> (Nat, Nat, u64) {
        let (mut x, mut den, mut twos) = (*x, Nat::from_u128(1), 0);
        for (i, &k) in fs.iter().enumerate() {
            twos += self.twos[k];
            den = match (i, self.cancel(&mut x, k)) {
                (0, Part::Two(v)) => Nat::from_u128(v),
                (0, Part::Wide(v)) => v,
                (_, Part::Two(v)) => den.mul_u128(v),
                (_, Part::Wide(v)) => den.mul(&v),
            };
        }
        (x, den, twos)
    }

    /// One step of [`Lowest::reduced`]: x ← x/g with g = gcd(x, o_k) =
    /// gcd(x, h_k) (x divides factor k's `Π nums`), and the kept part o_k/g. The
    /// residues carry a unit factor 2^(−64n) modulo the odd h, which keeps
    /// the gcd; g divides both x and o_k, so both divisions are exact.
    fn cancel(&self, x: &mut Nat, k: usize) -> Part {
        let whole = || match self.small[k] {
            Some(o) => Part::Two(o),
            None => Part::Wide(self.odd[k]),
        };
        let part = |g: u128| match self.small[k] {
            Some(o) => Part::Two(div_exact_two(o, g)),
            None => Part::Wide(div_exact(&self.odd[k], &Nat::from_u128(g))),
        };
        if x.is_zero() {
            return whole();
        }
        match self.common[k] {
            Common::One => whole(),
            Common::Word(h, minv) => {
                let g = gcd_u64(h, x.residue_word(h, minv));
                if g == 1 {
                    return whole();
                }
                // g odd (it divides h): its inverse modulo 2⁶⁴.
                *x = x.div_exact_word(g, neg_inv_word(g).wrapping_neg());
                part(g as u128)
            }
            Common::Two(h, minv) => {
                let g = gcd_two(h, x.residue_two(h, minv));
                if g == 1 {
                    return whole();
                }
                // g odd (it divides h), of one word or two.
                *x = match u64::try_from(g) {
                    Ok(w) => x.div_exact_word(w, neg_inv_word(w).wrapping_neg()),
                    Err(_) => x.div_exact_by_two(g),
                };
                part(g)
            }
            Common::Wide => {
                let g = gcd_odd(x, &self.h[k]);
                if g.is_one() {
                    return whole();
                }
                *x = div_exact(x, &g);
                Part::Wide(div_exact(&self.odd[k], &g))
            }
        }
    }

    /// The point `n·2^p / Π_{fs} f`, each coordinate in lowest terms in
    /// the fixed width.
    fn point(&self, n: &[Int; 3], fs: &[usize], p: i64) -> Vec3<ExactValue> {
        let [x, y, w] = [0, 1, 2].map(|i| {
            let (mag, den, twos) = self.reduced(n[i].mag(), fs);
            ExactValue::Fixed(FixedRational::new(n[i].is_neg(), &mag, &den, twos, p))
        });
        Vec3::new(x, y, w)
    }

    /// `x²·2^p / (Π_{k in once} factor k)²·Π_{k in whole} factor k` in
    /// lowest terms for `x ≠ 0` among the numerators of the h's, with no
    /// gcd of x's or the denominator's size.
    ///
    /// x over the `once` factors first ([`Lowest::reduced`]): s/q in lowest
    /// terms, so (s/q)² = s²/q² is too (a prime of q is not in s). x² would
    /// pass the fixed width, so s² stays two copies c₁ = c₂ = s against the
    /// `whole` factors' odd parts o_f, each copy against each in turn
    /// (g = gcd(c, o_f), c ← c/g, o_f ← o_f/g). Per odd prime, after the
    /// step of a pair (c, o_f) one of the two lacks it, and later steps only
    /// divide: so at the end every copy is prime to every o_f, and c₁·c₂
    /// (dividing s², prime to q) to q²·Π o_f: lowest terms. Each g is a
    /// small gcd: c divides x, hence Π nums, and o_f divides the factor's
    /// odd part o_k, so gcd(c, o_f) divides gcd(s, o_k) = gcd(s, h_k) = G_k
    /// ([`Lowest`]), one gcd with s per factor; then gcd(c, o_f) =
    /// gcd(c, gcd(G_k, o_f)), and a G_k or gcd(G_k, o_f) of 1 (the common
    /// case) skips the step. The odd divisions leave c₁·c₂ with 2·tz(x)
    /// trailing zeros, which cancel against the denominator's power of two
    /// as in [`FixedRational::new`].
    fn square(&self, x: &Nat, once: &[usize; 2], whole: &[usize; 2], p: i64) -> BigRational {
        let (s, q, t_once) = self.reduced(x, once);
        let mut den = whole.map(|k| self.odd[k]);
        let big_g = whole.map(|k| {
            let h = &self.h[k];
            if h.is_one() {
                *h
            } else {
                gcd_odd(&s, h)
            }
        });
        let mut copies = [s, s];
        for c in copies.iter_mut() {
            for (o, gk) in den.iter_mut().zip(&big_g) {
                if gk.is_one() || o.is_one() {
                    continue;
                }
                let a = gcd(gk, o);
                if a.is_one() {
                    continue;
                }
                let g = gcd_odd(c, &a);
                if !g.is_one() {
                    *c = div_exact(c, &g);
                    *o = div_exact(o, &g);
                }
            }
        }
        // The odd denominator: for an edge pair q² ≤ (d_a·d_b)² below 2⁵⁰⁴ (d's below 2¹²⁶)
        // and W's two parts below 2⁵⁰⁶, each product in the fixed width
        // (L words); their product as a `BigUint`.
        let den = q.mul(&q).to_biguint() * den[0].mul(&den[1]).to_biguint();
        let twos = 2 * t_once + whole.iter().map(|&k| self.twos[k]).sum::<u64>();
        let t = 2 * x.trailing_zeros();
        let num = copies[0].to_biguint() * copies[1].to_biguint();
        let e = p - twos as i64;
        if e >= 0 {
            BigRational::new_raw(BigInt::from(num << e as usize), BigInt::from(den))
        } else {
            let c = t.min((-e) as u64);
            BigRational::new_raw(
                BigInt::from(num >> c as usize),
                BigInt::from(den << ((-e) as u64 - c) as usize),
            )
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::{exact_boxes, finish, solve, to_big, Feat, PoseBox, PoseRotation};
    use super::Frame;
    use num_bigint::BigInt;
    use num_rational::BigRational;

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
            let Some(counts) = agree_on_every_pair(&a, &b) else {
                continue;
            };
            framed += 1;
            for (n, c) in answered.iter_mut().zip(counts) {
                *n += c;
            }
        }
        // Vertex pairs, vertex–edge pairs and vertex–face or edge pairs
        // were all proved somewhere.
        assert!(answered[..3].iter().all(|&n| n > 0), "{answered:?}");
        assert!(framed >= 30, "{framed}");
    }

    /// Every feature pair of `a` and `b`: the frame construction answers
    /// what the scaled construction answers (both fail or give the same
    /// closest pair), every value in lowest terms. The counts of pairs
    /// proved by the frame, by kind
    /// (vertex pairs, vertex–edge, vertex–face or edge–edge), and of the
    /// edge pairs among the last; `None` when `Frame::new` leaves the poses.
    fn agree_on_every_pair(a: &PoseBox, b: &PoseBox) -> Option<[usize; 4]> {
        let frame = Frame::new(a, b)?;
        let (xa, xb, (da, db), z) = exact_boxes(a, b).expect("nondegenerate");
        let one = BigInt::from(1);
        let feats = features();
        let mut answered = [0usize; 4];
        for &x in &feats {
            for &y in &feats {
                if x.dim() + y.dim() > 2 {
                    continue;
                }
                let scaled = solve(&xa, &xb, x, y, &one).map(|s| finish(s, (&da, &db), z));
                match frame.solve(x, y).map(|c| c.map(to_big)) {
                    Some(Some(c)) => {
                        assert_eq!(Some(&c), scaled.as_ref(), "{a:?} {b:?} {x:?} {y:?}");
                        // Lowest terms: num-rational's `BigRational::new` of
                        // the parts leaves every value unchanged.
                        let values = [&c.a, &c.b].into_iter().flat_map(|v| [&v.x, &v.y, &v.z]);
                        for v in values.chain([&c.distance_squared]) {
                            let reduced = BigRational::new(v.numer().clone(), v.denom().clone());
                            assert_eq!(&reduced, v, "{a:?} {b:?} {x:?} {y:?}");
                        }
                        answered[(x.dim() + y.dim()) as usize] += 1;
                        if x.dim() == 1 && y.dim() == 1 {
                            answered[3] += 1;
                        }
                    }
                    Some(None) => assert!(x.dim() == 1 && y.dim() == 1),
                    None => assert_eq!(scaled, None, "{a:?} {b:?} {x:?} {y:?}"),
                }
            }
        }
        Some(answered)
    }

    /// The widths of the vertex pairs' values at the bounds' extremes:
    /// quaternions whose integers have 62 bits (three components of
    /// 2⁶² − 2⁹, one of 53 bits ending in a unit bit, so d = |Q|² is near
    /// 3·2¹²⁴), half-extents and centers of 88 bits in units of the least
    /// length (2⁸⁸ − 2³⁵, a length of 1 setting the unit), centers apart by
    /// nearly 2⁸⁹ per axis. Every answer matches the scaled `BigInt`
    /// construction (a value wrapped in a too-narrow `Wide` would not, and
    /// debug builds check each operation for overflow: run in debug too),
    /// and vertex pairs and vertex–feature pairs are proved at these sizes.
    #[test]
    fn extreme_bounds_agree_with_the_scaled_construction() {
        let big = ((1u64 << 53) - 1) as f64 * 2f64.powi(9); // 2⁶² − 2⁹
        let odd = ((1u64 << 53) - 1) as f64; // 53 bits, unit bit set
        let len = ((1u64 << 53) - 1) as f64 * 2f64.powi(35); // 2⁸⁸ − 2³⁵
        let mut seed = 0x7f4a_7c15_9e37_79b9u64;
        let mut answered = [0usize; 3];
        let mut framed = 0;
        for k in 0..16 {
            let mut quat = |slot: usize| {
                let mut q = [0f64; 4];
                for (i, x) in q.iter_mut().enumerate() {
                    let m = if i == slot { odd } else { big };
                    *x = if xorshift(&mut seed) & 1 == 1 { m } else { -m };
                }
                q
            };
            let (qa, qb) = (quat(k % 4), quat((k / 4) % 4));
            // Half-extents at the limit, or an eighth of it (boxes apart,
            // so that the certificates hold for some pairs).
            let e = if k % 2 == 0 { len } else { len / 8.0 };
            let a = PoseBox {
                half_extents: [e, e, e],
                rotation: PoseRotation::Quaternion(qa),
                translation: [len, len, len],
            };
            let b = PoseBox {
                half_extents: [e, e, 1.0],
                rotation: PoseRotation::Quaternion(qb),
                translation: [-len, -len, -len],
            };
            let counts = agree_on_every_pair(&a, &b).expect("within the bounds");
            framed += 1;
            for (s, c) in answered.iter_mut().zip(counts) {
                *s += c;
            }
        }
        assert_eq!(framed, 16);
        assert!(answered[0] > 0 && answered[1] > 0, "{answered:?}");
    }

    /// Edge pairs at the bounds' extremes: quaternions of three 62-bit
    /// components and one of 53 bits ending in a unit bit (d between
    /// 3·2¹²² and 2¹²⁶), half-extents up to 2⁸⁷ and centers up to 2⁸⁸ in units of
    /// the least length, placed (in doubles) so that edge i of a and edge j
    /// of b pass each other at a small gap along their common normal n,
    /// with the signs of the other axes those of n (a) and of −n (b): that
    /// edge pair is the closest pair, W near 2⁵⁰⁴ (edges far from
    /// parallel), λ, κ and S near their ten-word bounds, the points'
    /// numerators near 2⁷²³. Every feature pair agrees with the scaled
    /// construction (debug builds check every `Wide` operation for
    /// overflow: run in debug too), and every configuration proves its
    /// edge pair.
    #[test]
    fn extreme_edge_pairs_agree_with_the_scaled_construction() {
        use super::super::rounded;
        let odd = ((1u64 << 53) - 1) as f64; // 53 bits, unit bit set
        let len = ((1u64 << 53) - 1) as f64 * 2f64.powi(35); // 2⁸⁸ − 2³⁵
        let mut seed = 0x2545_f491_4f6c_dd1du64;
        let mut answered = [0usize; 4];
        let configs = 24;
        for k in 0..configs {
            // Three components of 62 bits (random in [2⁶¹, 2⁶²), doubles
            // rounded down), one of 53 bits ending in a unit bit: generic
            // rotations, d between 3·2¹²² and 2¹²⁶.
            let mut quat = |slot: usize| {
                let mut q = [0f64; 4];
                for (i, x) in q.iter_mut().enumerate() {
                    let r = xorshift(&mut seed);
                    let m = if i == slot {
                        odd
                    } else {
                        ((r >> 2 | 1 << 61) & !((1 << 9) - 1)) as f64
                    };
                    *x = if r & 1 == 1 { m } else { -m };
                }
                q
            };
            let (qa, qb) = (quat(k % 4), quat((k / 4 + 1) % 4));
            let mut a = PoseBox {
                half_extents: [len / 2.0, len / 4.0, len / 2.0],
                rotation: PoseRotation::Quaternion(qa),
                translation: [0.0; 3],
            };
            // b's third half-extent of one unit sets the unit.
            let mut b = PoseBox {
                half_extents: [len / 2.0, len / 2.0, 1.0],
                rotation: PoseRotation::Quaternion(qb),
                translation: [0.0; 3],
            };
            let (ha, hb) = (rounded(&a).dir, rounded(&b).dir);
            let (i, j) = (k % 3, (k / 3) % 2);
            let n = super::super::cross(&ha[i], &hb[j]);
            let nn = super::super::dot(&n, &n).sqrt();
            // The edges' midpoints: a's other axes at the signs of n, b's
            // at those of −n; b's edge a gap of len/64 along n from a's.
            let mid = |h: &[[f64; 3]; 3], free: usize, toward: f64| {
                let mut m = [0.0; 3];
                for (_, hk) in h.iter().enumerate().filter(|(k, _)| *k != free) {
                    let s = toward * super::super::dot(&n, hk).signum();
                    for (mc, hc) in m.iter_mut().zip(hk) {
                        *mc += s * hc;
                    }
                }
                m
            };
            let (ma, mb) = (mid(&ha, i, 1.0), mid(&hb, j, -1.0));
            let v = [0, 1, 2].map(|c| ma[c] + n[c] / nn * (len / 64.0) - mb[c]);
            // Centers −v/2 and v/2, multiples of 2²⁰ (below 2⁸⁸).
            let round = |x: f64| (x / 2f64.powi(20)).round() * 2f64.powi(20);
            a.translation = v.map(|x| round(-x / 2.0));
            b.translation = v.map(|x| round(x / 2.0));
            let counts = agree_on_every_pair(&a, &b).expect("within the bounds");
            for (s, c) in answered.iter_mut().zip(counts) {
                *s += c;
            }
        }
        assert!(answered[3] >= configs, "{answered:?}");
    }

    /// `relative` is M_a^T·M_b, the `BigInt` dot products of the columns of
    /// the integer rotation matrices, on random quaternion integers of up
    /// to 62 bits, the extremes ±(2⁶² − 1), zeros and small integers.
    #[test]
    fn relative_is_the_product_of_the_matrices() {
        use super::super::int_quaternion_matrix;
        let mut seed = 0x0bad_5eed_2718_2818u64;
        let top = (1i128 << 62) - 1;
        for k in 0..3000u64 {
            let quat = |seed: &mut u64| {
                [0; 4].map(|_| {
                    let r = xorshift(seed);
                    let x = (r >> 2) as i128 >> (k % 61);
                    let x = match r % 9 {
                        0 => top,
                        1 => 0,
                        2 => (r % 7) as i128,
                        _ => x,
                    };
                    if r >> 63 == 1 {
                        -x
                    } else {
                        x
                    }
                })
            };
            let (qa, qb) = (quat(&mut seed), quat(&mut seed));
            let (ma, _) = int_quaternion_matrix(qa);
            let (mb, _) = int_quaternion_matrix(qb);
            let g = super::relative(qa, qb);
            for (kk, row) in g.iter().enumerate() {
                for (l, got) in row.iter().enumerate() {
                    let want: BigInt = (0..3)
                        .map(|i| BigInt::from(ma[i][kk]) * BigInt::from(mb[i][l]))
                        .sum();
                    assert_eq!(got.to_bigint(), want, "{qa:?} {qb:?} {kk} {l}");
                }
            }
        }
    }

    /// `sum_of_products` is the `BigInt` sum of the products, on random
    /// `i128` of up to 126 bits (three terms) and the extremes ±(2¹²⁶ − 1).
    #[test]
    fn sum_of_products_is_exact() {
        let mut seed = 0x1234_5678_9abc_def1u64;
        let big = (1i128 << 126) - 1;
        for k in 0..4000 {
            let mut r = || {
                let x = ((xorshift(&mut seed) as i128) << 64 | xorshift(&mut seed) as i128)
                    >> (2 + k % 120);
                match k % 7 {
                    0 => big,
                    1 => -big,
                    _ => x,
                }
            };
            let terms: Vec<(i128, i128)> = (0..3).map(|_| (r(), r())).collect();
            let want: BigInt = terms
                .iter()
                .map(|(a, b)| BigInt::from(*a) * BigInt::from(*b))
                .sum();
            let got = super::sum_of_products(terms.iter().copied()).to_bigint();
            assert_eq!(got, want, "{terms:?}");
        }
    }

    /// `Lowest` is num-rational's lowest terms of x·2^p/Π factors (an
    /// independent gcd), on four factors of one to six words (among them
    /// odd parts of two words, the `residue_two` path), even or odd,
    /// numerators that share factors of them (and zero), the denominators
    /// of the edge pairs' points (three factors) and of the vertex pairs'
    /// (repeated factors), exponents of both signs; and a numerator that
    /// the odd factors divide whole, taken out by `strip` first (its
    /// quotient among the h's numerators), as the vertex pairs' squared
    /// distance.
    /// `Lowest::square` against `BigRational::new` (a `BigInt` gcd of the
    /// whole) on factors and an x that share odd primes, often to
    /// several powers (x with up to two copies of a factor, the factors with
    /// a common 3⁴, 5² or 7).
    #[test]
    fn square_is_lowest_terms() {
        use crate::num::fixed::Nat;
        let mut seed = 0x5eed_0f5a_0a2e_d15cu64;
        let mut word = || xorshift(&mut seed);
        let rand_big = |words: u64, w: &mut dyn FnMut() -> u64| -> BigInt {
            (0..words).fold(BigInt::from(1), |n, _| (n << 64) + BigInt::from(w()))
        };
        let small = [1u32, 3, 81, 25, 7, 2, 12, 105];
        let mut reduced = 0;
        for k in 0..800u64 {
            // d's below 2¹²⁶, W's parts below 2²⁵³, as for an edge pair
            // (r random bits, the leading one kept, times at most 105).
            let bits = [118u64, 118, 245, 245];
            let fs: Vec<BigInt> = bits
                .iter()
                .enumerate()
                .map(|(i, &b)| {
                    let r = 1 + word() % b;
                    let f = rand_big(4, &mut word) >> (257 - r) as usize;
                    f * BigInt::from(small[((k + i as u64) % 8) as usize])
                })
                .collect();
            // x below 2¹⁹³·2¹²⁵·2²⁵²·2¹⁴ < 2⁵⁹⁷ (S's bound).
            let mut x = rand_big(1 + word() % 2, &mut word);
            if word() % 3 != 0 {
                x *= &fs[(k % 2) as usize];
            }
            if k % 5 == 0 {
                x *= &fs[0];
            } else if word() % 3 != 0 {
                x *= &fs[2 + (k / 2 % 2) as usize];
            }
            x *= BigInt::from(small[(k % 8) as usize]) * BigInt::from(small[(k / 8 % 8) as usize]);
            let nf: Vec<Nat> = fs
                .iter()
                .map(|f| Nat::from_biguint(f.magnitude()))
                .collect();
            let nx = Nat::from_biguint(x.magnitude());
            let other = Nat::from_biguint(rand_big(2, &mut word).magnitude());
            let low = super::Lowest::new(&[&nf[0], &nf[1], &nf[2], &nf[3]], [0, 1], &[&other, &nx]);
            let p = (word() % 200) as i64 - 100;
            let got = low.square(&nx, &[0, 1], &[2, 3], p);
            let den = &fs[0] * &fs[1] * &fs[0] * &fs[1] * &fs[2] * &fs[3];
            let num = &x * &x;
            let want = if p >= 0 {
                BigRational::new(num << p as usize, den)
            } else {
                BigRational::new(num, den << (-p) as usize)
            };
            assert_eq!(got.numer(), want.numer(), "case {k}");
            assert_eq!(got.denom(), want.denom(), "case {k}");
            let odd = |f: &BigInt| f >> f.trailing_zeros().unwrap_or(0) as usize;
            if odd(want.denom()) != odd(&(&fs[0] * &fs[1] * &fs[0] * &fs[1] * &fs[2] * &fs[3])) {
                reduced += 1;
            }
        }
        // Most cases cancel an odd prime.
        assert!(reduced > 400, "{reduced}");
    }

    #[test]
    fn lowest_is_lowest_terms() {
        use crate::num::fixed::{Int, Nat};
        let mut seed = 0x0ddc_0ffe_e15e_a5e5u64;
        let mut word = || xorshift(&mut seed);
        let rand_big = |words: u64, w: &mut dyn FnMut() -> u64| -> BigInt {
            (0..words).fold(BigInt::from(0), |n, _| (n << 64) + BigInt::from(w()))
        };
        let mut two_word = 0;
        for k in 0..600u64 {
            let sizes = [1 + k % 2, 1 + k % 3, 1 + k % 6, 2];
            let fs: Vec<BigInt> = sizes
                .iter()
                .map(|&n| {
                    let f = rand_big(n, &mut word) >> (word() % 60) as usize;
                    let f = if f == BigInt::from(0) {
                        BigInt::from(9)
                    } else {
                        f
                    };
                    // Small primes in common with the numerators, often.
                    f * BigInt::from([1, 3, 9, 15, 2, 12][(k % 6) as usize])
                })
                .collect();
            let nf: Vec<Nat> = fs
                .iter()
                .map(|f| Nat::from_biguint(f.magnitude()))
                .collect();
            let mut nums: Vec<BigInt> = (0..7)
                .map(|i| {
                    let mut x = rand_big(1 + word() % 3, &mut word);
                    if i % 3 == 0 {
                        x *= &fs[(i as usize) % 4];
                    }
                    if k % 5 == 0 && i == 6 {
                        x = BigInt::from(0);
                    }
                    if word() & 1 == 1 {
                        -x
                    } else {
                        x
                    }
                })
                .collect();
            // A squared-distance numerator: divisible by the odd parts of
            // factors 0 and 1 (once or twice), times a random cofactor.
            let odd = |f: &BigInt| f >> f.trailing_zeros().unwrap_or(0) as usize;
            let mut n2 = rand_big(1 + word() % 2, &mut word) * odd(&fs[0]) * odd(&fs[1]);
            if k % 3 == 0 {
                n2 *= odd(&fs[0]);
            }
            let n2i = Int::from_nat(false, Nat::from_biguint(n2.magnitude()));
            let mut low = super::Lowest::factors(&[&nf[1], &nf[0], &nf[2], &nf[3]], [1, 0]);
            two_word += low.two.iter().filter(|t| t.is_some()).count();
            let (n2r, kept, nk, t2) = low.strip(&n2i, &[0, 0, 1, 1]);
            let nn: Vec<Nat> = nums
                .iter()
                .map(|x| Nat::from_biguint(x.magnitude()))
                .chain([*n2r.mag()])
                .collect();
            low.set_h(&nn.iter().collect::<Vec<_>>());
            nums.push(n2.clone());
            let which_all: [&[usize]; 5] = [&[0], &[2, 0], &[2, 3, 1], &[0, 1, 1], &[3, 3, 1]];
            for (i, x) in nums.iter().enumerate() {
                let p = (word() % 121) as i64 - 60;
                let (got, which) = if i == 7 {
                    (
                        low.value_with(&n2r, &kept[..nk], t2, p).to_big(),
                        &[0, 0, 1, 1][..],
                    )
                } else {
                    let which = which_all[i % 5];
                    let xi = Int::from_nat(x.sign() == num_bigint::Sign::Minus, nn[i]);
                    (low.value_with(&xi, which, 0, p).to_big(), which)
                };
                let den: BigInt = which.iter().map(|&j| fs[j].clone()).product();
                let want = if p >= 0 {
                    BigRational::new(x << p as usize, den)
                } else {
                    BigRational::new(x.clone(), den << (-p) as usize)
                };
                assert_eq!(got.numer(), want.numer(), "{x} {fs:?} {which:?} {p}");
                assert_eq!(got.denom(), want.denom(), "{x} {fs:?} {which:?} {p}");
            }
        }
        assert!(two_word > 300, "{two_word}");
    }

    /// Quaternions of small integers, whose |Q|² (3, 7, 9, 15, 25, 87, …)
    /// shares small odd factors with the numerators, in every pose pair
    /// and feature pair: the frame construction answers what the scaled
    /// construction answers, and every value it gives is in lowest terms
    /// (num-rational's `BigRational::new` of its parts leaves it unchanged).
    #[test]
    fn small_odd_norms_agree_and_are_lowest() {
        let qs: [[f64; 4]; 10] = [
            [1.0, 1.0, 1.0, 0.0],
            [2.0, 1.0, 1.0, 1.0],
            [1.0, 2.0, 2.0, 0.0],
            [1.0, 2.0, 3.0, 4.0],
            [3.0, 4.0, 0.0, 0.0],
            [2.0, 3.0, 5.0, 7.0],
            [5.0, 6.0, 7.0, 8.0],
            [4.0, -3.0, 2.0, 1.0],
            [7.0, 1.0, -4.0, 5.0],
            [11.0, -2.0, 3.0, 6.0],
        ];
        let mut seed = 0x5eed_f0dd_1234_abcd_u64;
        let mut answered = 0;
        for (i, qa) in qs.iter().chain(&qs).enumerate() {
            let qb = qs[(i * 3 + 1 + i / qs.len()) % qs.len()];
            let pose = |q: [f64; 4], seed: &mut u64| PoseBox {
                half_extents: [0; 3].map(|_| 0.55 + 0.45 * unit(seed)),
                rotation: PoseRotation::Quaternion(q),
                translation: [0; 3].map(|_| 3.0 * unit(seed)),
            };
            let (a, b) = (pose(*qa, &mut seed), pose(qb, &mut seed));
            if let Some(counts) = agree_on_every_pair(&a, &b) {
                answered += counts[0] + counts[1] + counts[2];
            }
        }
        assert!(answered >= 10, "{answered}");
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
