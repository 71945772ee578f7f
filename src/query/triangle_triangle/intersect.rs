//! Triangle–triangle `intersect`, exactly: Guigue–Devillers with exact orientations.
//!
//! # The idea
//!
//! Every decision is the sign of a 4×4 determinant, `orient3d` (filtered for
//! float inputs, exact when the filter cannot decide):
//!
//! 1. Where are the vertices of `a` relative to the plane of `b`? If all three are
//!    strictly on one side, the triangles are disjoint (the plane's normal is the
//!    separating axis). The same for `b` against the plane of `a`.
//! 2. If all of `a` lies in the plane of `b` (and neither triangle is degenerate),
//!    the triangles are **coplanar**: they are projected onto the coordinate plane
//!    that keeps them non-degenerate, and a 2-D separating-axis test on the six
//!    edge lines decides (18 `orient2d` signs). Nathan's strategy (2015) skips
//!    this case; it is answered here.
//! 3. Otherwise each triangle meets the line L = plane(a) ∩ plane(b) in a segment.
//!    After relabelling each triangle so that its first vertex is alone on its
//!    side of the other's plane, the two segments overlap iff
//!
//!    ```text
//!    orient3d(p1, q1, p2, q2) ≤ 0  and  orient3d(p1, r1, r2, p2) ≤ 0
//!    ```
//!
//!    (with this crate's sign convention, see [`orient3d`]). The derivation is in
//!    `docs/triangle.md`.
//!
//! Degenerate triangles (collinear or repeated vertices) are detected for free —
//! only they make all signs of step 1 vanish for a pair that is not coplanar —
//! and answered exactly as the segments or points they are, by a brute-force
//! exact method (vertex-in-shape, segment–segment and segment–plane tests).
//!
//! Constructions (the witness, the separating axis, the intersection set) are
//! exact, and rounded to the scalar type at the end: exact on the exact path,
//! correctly rounded coordinates on the float paths. From float inputs (and
//! rational inputs that are doubles) they are built in fixed-width integers
//! over one denominator and reduced once (`fast_intersect.rs`); the exact
//! rational path ([`intersect_reference`]) defines the answer, and the
//! integer path equals it bit for bit or hands over to it.
//!
//! References: P. Guigue, O. Devillers, "Fast and Robust Triangle-Triangle Overlap
//! Test Using Orientation Predicates", Journal of Graphics Tools 8(1), 2003.
//! T. Möller, "A Fast Triangle-Triangle Intersection Test", Journal of Graphics
//! Tools 2(2), 1997.

use super::exact::{as_doubles, closest_features, lift, segment_segment};
use super::fast_distance::{self as fast};
use super::fast_intersect::{self as cert, Skip};
use super::ints::{self, IContact, IPoint};
use crate::num::dyadic::Dyadic;
use crate::num::gcd::div_q;
use crate::num::ring::Ring;
use crate::num::scalar::Scalar;
use crate::num::sign::Sign;
use crate::predicates::{orient2d, orient3d};
use crate::query::{Closest, Intersection, QueryError};
use crate::shape::Triangle;
use crate::stats;
use crate::vector::{Vec2, Vec3};
use num_rational::BigRational;
use num_traits::Zero;

type Q = BigRational;
type P = Vec3<Q>;

/// The set `a ∩ b` of two intersecting triangles, exactly.
#[derive(Clone, Debug, PartialEq)]
pub enum Contact<S> {
    /// A single point.
    Point(Vec3<S>),
    /// A segment with distinct end points.
    Segment(Vec3<S>, Vec3<S>),
    /// A convex polygon (coplanar triangles), at least three non-collinear
    /// vertices in order around it.
    Polygon(Vec<Vec3<S>>),
}

impl<S: Scalar> Contact<S> {
    /// The points that span the set (1, 2, or the polygon's vertices).
    ///
    /// ```
    /// use exact_collision::query::triangle_triangle::Contact;
    /// use exact_collision::Vec3;
    /// let c = Contact::Segment(Vec3::new(0., 0., 0.), Vec3::new(1., 0., 0.));
    /// assert_eq!(c.points().len(), 2);
    /// ```
    pub fn points(&self) -> Vec<Vec3<S>> {
        match self {
            Contact::Point(p) => vec![p.clone()],
            Contact::Segment(p, q) => vec![p.clone(), q.clone()],
            Contact::Polygon(v) => v.clone(),
        }
    }

    fn round<T: Scalar>(&self) -> Contact<T> {
        let r = |p: &Vec3<S>| Vec3::<T>::from_rational(&p.to_rational());
        match self {
            Contact::Point(p) => Contact::Point(r(p)),
            Contact::Segment(p, q) => Contact::Segment(r(p), r(q)),
            Contact::Polygon(v) => Contact::Polygon(v.iter().map(r).collect()),
        }
    }
}

/// How the exact decision went: enough to rebuild the certificate.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Config {
    /// `a` strictly on one side of plane(b).
    SeparatedByPlaneB,
    /// `b` strictly on one side of plane(a).
    SeparatedByPlaneA,
    /// Both non-degenerate and in one plane; `meet` is the 2-D decision.
    Coplanar { meet: bool },
    /// The planes cross; `a` and `b` are the relabelled vertex indices
    /// (first vertex alone on its side, orientations made consistent).
    Crossing {
        a: [usize; 3],
        b: [usize; 3],
        meet: bool,
    },
    /// At least one triangle is degenerate (a segment or a point).
    Degenerate,
}

/// Rotate `s` (cyclically, keeping orientation) so that its first entry is alone
/// on its closed side: returns the index order and whether the signs must be
/// negated so that the first is ≥ 0 and the others ≤ 0. Needs: not all equal
/// and nonzero, not all zero. (A table of the 27 sign patterns, built at
/// compile time by [`normalize_slow`].)
#[inline]
fn normalize(s: [Sign; 3]) -> ([usize; 3], bool) {
    let code = s[0] as usize + 3 * s[1] as usize + 9 * s[2] as usize;
    debug_assert!(
        NORMALIZE[code].2,
        "normalize: sign pattern {s:?} was excluded by the caller"
    );
    let (idx, neg, _) = NORMALIZE[code];
    (idx, neg)
}

/// `(order, negate, valid)` for each sign pattern, `Sign as usize` digits.
const NORMALIZE: [([usize; 3], bool, bool); 27] = {
    let mut t = [([0, 1, 2], false, false); 27];
    let mut code = 0;
    while code < 27 {
        let s = [
            (code % 3) as i8 - 1,
            (code / 3 % 3) as i8 - 1,
            (code / 9) as i8 - 1,
        ];
        t[code] = normalize_slow(s);
        code += 1;
    }
    t
};

/// [`normalize`] on signs as −1, 0, 1, by search.
const fn normalize_slow(s: [i8; 3]) -> ([usize; 3], bool, bool) {
    let mut k = 0;
    while k < 3 {
        let idx = [k, (k + 1) % 3, (k + 2) % 3];
        let mut neg = 0;
        while neg < 2 {
            let f = if neg == 1 { -1 } else { 1 };
            let (a, b, c) = (f * s[idx[0]], f * s[idx[1]], f * s[idx[2]]);
            if a == 1 && b != 1 && c != 1 {
                return (idx, neg == 1, true);
            }
            neg += 1;
        }
        k += 1;
    }
    let mut k = 0;
    while k < 3 {
        let idx = [k, (k + 1) % 3, (k + 2) % 3];
        let (a, b, c) = (s[idx[0]], s[idx[1]], s[idx[2]]);
        if a == 0 && b == c && b != 0 {
            return (idx, b == 1, true);
        }
        k += 1;
    }
    ([0, 1, 2], false, false)
}

fn all_same_strict(s: &[Sign; 3]) -> bool {
    s[0] != Sign::Zero && s[0] == s[1] && s[1] == s[2]
}

/// The projection (pair of coordinate indices) in which `t` stays non-degenerate.
fn projection<S: Scalar>(t: &[Vec3<S>; 3]) -> Option<(usize, usize)> {
    [(0, 1), (1, 2), (2, 0)].into_iter().find(|&(i, j)| {
        let p = |v: &Vec3<S>| Vec2::new(v.get(i).clone(), v.get(j).clone());
        orient2d(&p(&t[0]), &p(&t[1]), &p(&t[2])) != Sign::Zero
    })
}

/// Coplanar, non-degenerate triangles: 2-D separating axis test on the six edge
/// lines (exact: closed convex polygons are disjoint iff some edge line of one
/// strictly separates them).
fn coplanar_meet<S: Scalar>(a: &[Vec3<S>; 3], b: &[Vec3<S>; 3]) -> bool {
    let (i, j) = projection(a).expect("non-degenerate triangle");
    let p = |v: &Vec3<S>| Vec2::new(v.get(i).clone(), v.get(j).clone());
    let pa = [p(&a[0]), p(&a[1]), p(&a[2])];
    let pb = [p(&b[0]), p(&b[1]), p(&b[2])];
    let separates = |t: &[Vec2<S>; 3], o: &[Vec2<S>; 3]| {
        (0..3).any(|e| {
            let (u, v, w) = (&t[e], &t[(e + 1) % 3], &t[(e + 2) % 3]);
            let inside = orient2d(u, v, w);
            o.iter().all(|y| orient2d(u, v, y) == inside.flip())
        })
    };
    !(separates(&pa, &pb) || separates(&pb, &pa))
}

fn classify<S: Scalar>(a: &[Vec3<S>; 3], b: &[Vec3<S>; 3]) -> Config {
    if !S::IS_EXACT {
        // f32/f64: the exact values as doubles (exact for both types).
        // (Explicit arrays: `array::map` is not always inlined.)
        let p = |p: &Vec3<S>| [p.x.to_f64(), p.y.to_f64(), p.z.to_f64()];
        let (fa, fb) = (
            [p(&a[0]), p(&a[1]), p(&a[2])],
            [p(&b[0]), p(&b[1]), p(&b[2])],
        );
        if let Some(cfg) = classify_f64(a, b, &fa, &fb) {
            return cfg;
        }
    }
    let sa = [0, 1, 2].map(|i| orient3d(&b[0], &b[1], &b[2], &a[i]));
    if all_same_strict(&sa) {
        return Config::SeparatedByPlaneB;
    }
    let sb = [0, 1, 2].map(|i| orient3d(&a[0], &a[1], &a[2], &b[i]));
    if all_same_strict(&sb) {
        return Config::SeparatedByPlaneA;
    }
    classify_rest(a, b, sa, sb, |i, j, k, l| {
        orient3d(&a[i], &a[j], &b[k], &b[l])
    })
}

/// [`classify`] on float inputs, `None` if a bounding-box extent reaches
/// [`O3_MAX_EXTENT`] (or a coordinate is not finite): the same decisions,
/// with one semi-static filter ([`O3_SEMI_STATIC`]) in front of all eight
/// `orient3d` (the plane tests share one normal per plane; every difference of
/// two of the six vertices is bounded by the bounding box, so one bound serves
/// them all).
fn classify_f64<S: Scalar>(
    a: &[Vec3<S>; 3],
    b: &[Vec3<S>; 3],
    fa: &[F3; 3],
    fb: &[F3; 3],
) -> Option<Config> {
    // M_k = fl(max − min) of coordinate k over the six vertices: rounding is
    // monotone, so it bounds |fl(x_k − y_k)| for any two of them. The sum is
    // finite only if no coordinate is NaN or infinite.
    let extent = |k: usize| {
        let (mut lo, mut hi, mut sum) = (fa[0][k], fa[0][k], fa[0][k]);
        for x in [fa[1][k], fa[2][k], fb[0][k], fb[1][k], fb[2][k]] {
            lo = if x < lo { x } else { lo };
            hi = if x > hi { x } else { hi };
            sum += x;
        }
        (hi - lo, sum)
    };
    let ((ex, sx), (ey, sy), (ez, sz)) = (extent(0), extent(1), extent(2));
    let fits = ex < O3_MAX_EXTENT && ey < O3_MAX_EXTENT && ez < O3_MAX_EXTENT;
    if !(fits && (sx + sy + sz).is_finite()) {
        return None;
    }
    let bound = ex * ey * ez * O3_SEMI_STATIC + O3_UNDERFLOW;
    let flat = ex == 0.0 || ey == 0.0 || ez == 0.0;
    let sign = |det: f64| {
        if det > bound {
            Some(Sign::Positive)
        } else if det < -bound {
            Some(Sign::Negative)
        } else if flat {
            // Some M_k = 0 (x − y rounds to 0 only if x = y): every difference
            // has a zero k-coordinate, so every monomial, and the determinant,
            // is exactly 0.
            Some(Sign::Zero)
        } else {
            None
        }
    };
    let plane = |t: &[F3; 3], p: &[F3; 3]| {
        let n = cross(sub(t[1], t[0]), sub(t[2], t[0]));
        [
            sign(dot(n, sub(p[0], t[0]))),
            sign(dot(n, sub(p[1], t[0]))),
            sign(dot(n, sub(p[2], t[0]))),
        ]
    };
    let sa = plane(fb, fa)
        .map_index(|i, s| s.unwrap_or_else(|| orient3d_cold(&b[0], &b[1], &b[2], &a[i])));
    if all_same_strict(&sa) {
        return Some(Config::SeparatedByPlaneB);
    }
    let sb = plane(fa, fb)
        .map_index(|i, s| s.unwrap_or_else(|| orient3d_cold(&a[0], &a[1], &a[2], &b[i])));
    if all_same_strict(&sb) {
        return Some(Config::SeparatedByPlaneA);
    }
    Some(classify_rest(a, b, sa, sb, |i, j, k, l| {
        let o = fa[i];
        let det = dot(cross(sub(fa[j], o), sub(fb[k], o)), sub(fb[l], o));
        sign(det).unwrap_or_else(|| orient3d_cold(&a[i], &a[j], &b[k], &b[l]))
    }))
}

/// `orient3d` when the semi-static filter fails (kept out of the hot path).
#[cold]
#[inline(never)]
fn orient3d_cold<S: Scalar>(a: &Vec3<S>, b: &Vec3<S>, c: &Vec3<S>, d: &Vec3<S>) -> Sign {
    orient3d(a, b, c, d)
}

type F3 = [f64; 3];

#[inline(always)]
fn sub(a: F3, b: F3) -> F3 {
    [a[0] - b[0], a[1] - b[1], a[2] - b[2]]
}

#[inline(always)]
fn cross(u: F3, v: F3) -> F3 {
    [
        u[1] * v[2] - u[2] * v[1],
        u[2] * v[0] - u[0] * v[2],
        u[0] * v[1] - u[1] * v[0],
    ]
}

#[inline(always)]
fn dot(u: F3, v: F3) -> f64 {
    u[0] * v[0] + u[1] * v[1] + u[2] * v[2]
}

/// 50·u with u = 2⁻⁵³: the semi-static error bound of a 3×3 determinant of
/// rounded differences, relative to `M_x·M_y·M_z`; [`O3_UNDERFLOW`] is added
/// for underflow.
///
/// Derivation. Let ũ = fl(b − a), ṽ = fl(c − a), w̃ = fl(d − a) be the
/// computed differences and `M_k` ≥ |ũ_k|, |ṽ_k|, |w̃_k| (k = x, y, z), all
/// `M_k` < 2²⁵¹, so nothing below overflows (|products of three| < 2⁷⁵⁴).
/// Every operation is fl(x ∘ y) = (x ∘ y)(1 + δ) + η with |δ| ≤ u, |η| ≤ 2⁻¹⁰⁷⁵,
/// η = 0 for sums and differences (exact when they underflow) (Higham,
/// *Accuracy and Stability of Numerical Algorithms*, 2nd ed., 2002, §2.1–2.2;
/// γₙ = nu/(1 − nu)). Every monomial of det(u, v, w) = (u × v)·w holds one x,
/// one y and one z factor, so with P = M_x·M_y·M_z:
///
/// ```text
/// rounded differences:  |x − fl(x)| ≤ u|fl(x)|, det trilinear, 6 monomials:
///   |det(ũ,ṽ,w̃) − det(u,v,w)| ≤ 6uP(1 + (1+u) + (1+u)²)          ≤ (18u + 19u²)P
/// cross product:  c̃_x = fl(fl(ũ_y ṽ_z) − fl(ũ_z ṽ_y)),
///   |c̃_x − (ũ × ṽ)_x| ≤ γ₂·2M_yM_z + 2η(1+u),  |c̃_x| ≤ 2(1+u)²M_yM_z + 2η(1+u)
/// dot product (Higham Eq. 3.5): |fl(c̃·w̃) − c̃·w̃| ≤ γ₃ Σ|c̃_k w̃_k| + 3η(1+u)²
///   |fl(c̃·w̃) − det(ũ,ṽ,w̃)| ≤ 6P((1+u)²γ₃ + γ₂)                  ≤ (30u + 150u²)P
///                              + η(3(1+u)² + 3(1+u)⁴ Σ M_k)     < 2⁻⁸²¹
/// total                                                  ≤ (48u + 170u²)P + 2⁻⁸²¹
/// ```
///
/// The bound is evaluated as B = fl(fl(fl(fl(M_x·M_y)·M_z)·50u) + 2⁻⁸⁰⁰):
/// the three products lose at most a factor (1 − u)³ and 2⁻¹⁰⁷⁵(2²⁵¹ + 2) < 2⁻⁸⁷⁰
/// to underflow, the sum a factor (1 − u), so B ≥ (50u − 200u²)P + 2⁻⁸⁰¹, above
/// the total. A computed determinant beyond B in magnitude has the exact
/// determinant's sign.
const O3_SEMI_STATIC: f64 = 50.0 * 1.1102230246251565e-16;
/// 2⁻⁸⁰⁰: the underflow allowance of [`O3_SEMI_STATIC`]'s bound.
const O3_UNDERFLOW: f64 = 1.499696813895631e-241;
/// 2²⁵¹: [`O3_SEMI_STATIC`] needs every bounding-box extent below it.
const O3_MAX_EXTENT: f64 = 3.618502788666131e75;

trait MapIndex<T> {
    fn map_index<U>(self, f: impl FnMut(usize, T) -> U) -> [U; 3];
}

impl<T: Copy> MapIndex<T> for [T; 3] {
    #[inline(always)]
    fn map_index<U>(self, mut f: impl FnMut(usize, T) -> U) -> [U; 3] {
        [f(0, self[0]), f(1, self[1]), f(2, self[2])]
    }
}

/// The rest of [`classify`] once neither plane separates: coplanar and
/// degenerate pairs, else the two crossing tests, `o3(i, j, k, l)` being
/// `orient3d(a[i], a[j], b[k], b[l])`.
fn classify_rest<S: Scalar>(
    a: &[Vec3<S>; 3],
    b: &[Vec3<S>; 3],
    sa: [Sign; 3],
    sb: [Sign; 3],
    o3: impl Fn(usize, usize, usize, usize) -> Sign,
) -> Config {
    let zero = |s: &[Sign; 3]| s.iter().all(|x| *x == Sign::Zero);
    if zero(&sa) || zero(&sb) {
        // A degenerate b makes every sa zero, a degenerate a every sb; two
        // non-degenerate triangles give both all-zero exactly when coplanar.
        if projection(a).is_none() || projection(b).is_none() {
            return Config::Degenerate;
        }
        return Config::Coplanar {
            meet: coplanar_meet(a, b),
        };
    }
    let (mut ia, nega) = normalize(sa);
    let (mut ib, negb) = normalize(sb);
    if nega {
        ib.swap(1, 2); // reverses plane(b): negates every sa
    }
    if negb {
        ia.swap(1, 2); // reverses plane(a): negates every sb
    }
    // orient3d(p1, q1, p2, q2) ≤ 0 and orient3d(p1, r1, r2, p2) ≤ 0.
    let meet = o3(ia[0], ia[1], ib[0], ib[1]) != Sign::Positive
        && o3(ia[0], ia[2], ib[2], ib[0]) != Sign::Positive;
    Config::Crossing { a: ia, b: ib, meet }
}

/// Whether the closed triangles `a` and `b` share a point: the exact decision
/// alone, without a certificate (the fast path: a few filtered `orient3d`).
///
/// Degenerate triangles are answered exactly as the segments or points they are.
///
/// ```
/// use exact_collision::query::triangle_triangle::intersects;
/// use exact_collision::{Triangle, Vec3};
/// let t = |p: [[f64; 3]; 3]| Triangle::new(p.map(|[x, y, z]| Vec3::new(x, y, z)));
/// let a = t([[0., 0., 0.], [1., 0., 0.], [0., 1., 0.]]);
/// // Shares only the vertex (1, 0, 0) with a:
/// let b = t([[1., 0., 0.], [2., 0., 1.], [2., 1., -1.]]);
/// assert!(intersects(&a, &b));
/// // 1e-300 above a's plane:
/// let c = t([[0., 0., 1e-300], [1., 0., 1e-300], [0., 1., 1e-300]]);
/// assert!(!intersects(&a, &c));
/// ```
pub fn intersects<S: Scalar>(a: &Triangle<S>, b: &Triangle<S>) -> bool {
    match classify(&a.v, &b.v) {
        Config::SeparatedByPlaneA | Config::SeparatedByPlaneB => false,
        Config::Coplanar { meet } | Config::Crossing { meet, .. } => meet,
        Config::Degenerate => degenerate_witness(&lift(a), &lift(b)).is_some(),
    }
}

/// `intersect` for two triangles, with its certificate: a witness point in both,
/// or a separating axis (exact on the exact path, rounded on the float paths).
///
/// ```
/// use exact_collision::query::{certificate::check_intersection, triangle_triangle::intersect};
/// use exact_collision::{Shape, Triangle, Vec3};
/// use num_rational::BigRational;
/// let q = |x: i32, y: i32, z: i32| Vec3::new(x, y, z).map(|c| BigRational::from_integer((*c).into()));
/// let a = Triangle::new([q(0, 0, 0), q(4, 0, 0), q(0, 4, 0)]);
/// // Coplanar, overlapping: Nathan's strategy skips this case.
/// let b = Triangle::new([q(1, 1, 0), q(5, 1, 0), q(1, 5, 0)]);
/// let ans = intersect(&a, &b).unwrap();
/// assert!(ans.intersects());
/// check_intersection(&Shape::Triangle(a), &Shape::Triangle(b), &ans).unwrap();
/// ```
pub fn intersect<S: Scalar>(
    a: &Triangle<S>,
    b: &Triangle<S>,
) -> Result<Intersection<S>, QueryError> {
    if S::IS_EXACT {
        return Ok(round_intersection(intersect_exact(a, b)?));
    }
    // Float inputs: rounded straight from the integer form.
    let cfg = classify(&a.v, &b.v);
    if let Some((al, cert)) = fast_cert(cfg, a, b, false) {
        stats::INTERSECT.fast();
        return Ok(match cert {
            FastCert::Separated(l) => Intersection::Separated { axis: l.round() },
            FastCert::Overlap(c) => Intersection::Overlap {
                witness: c.first().round(&al.v, al.e0),
            },
        });
    }
    stats::INTERSECT.fallback();
    Ok(round_intersection(exact_certificate(cfg, a, b)?))
}

fn round_intersection<S: Scalar>(i: Intersection<Q>) -> Intersection<S> {
    match i {
        Intersection::Overlap { witness } => Intersection::Overlap {
            witness: Vec3::from_rational(&witness),
        },
        Intersection::Separated { axis } => Intersection::Separated {
            axis: Vec3::from_rational(&axis),
        },
    }
}

/// [`intersect`] with the certificate left exact, whatever the input type.
///
/// On f32/f64 inputs (and on rational inputs whose coordinates are all
/// doubles) the certificate is built in fixed-width integers from the aligned
/// coordinates and reduced once (`docs/triangle.md`, "Certificates from float
/// inputs"); pairs outside that path (coordinates of very different
/// magnitudes, coplanar meeting or degenerate triangles) take the exact
/// rational path and are counted as fallbacks in
/// [`stats::INTERSECT`](super::stats::INTERSECT). Both give the same
/// answer.
///
/// ```
/// use exact_collision::query::triangle_triangle::intersect_exact;
/// use exact_collision::query::Intersection;
/// use exact_collision::{Scalar, Triangle, Vec3};
/// let t = |z: f64| Triangle::new([Vec3::new(0., 0., z), Vec3::new(1., 0., z), Vec3::new(0., 1., z)]);
/// // A witness at z = 0.1 exactly as the double 0.1, not rounded again:
/// match intersect_exact(&t(0.1), &t(0.1)).unwrap() {
///     Intersection::Overlap { witness } => assert_eq!(witness.z, 0.1f64.to_rational()),
///     _ => unreachable!(),
/// }
/// ```
pub fn intersect_exact<S: Scalar>(
    a: &Triangle<S>,
    b: &Triangle<S>,
) -> Result<Intersection<Q>, QueryError> {
    if let Some((fa, fb)) = as_doubles(a, b) {
        return intersect_exact(&fa, &fb);
    }
    let cfg = classify(&a.v, &b.v);
    if !S::IS_EXACT {
        if let Some((al, cert)) = fast_cert(cfg, a, b, false) {
            stats::INTERSECT.fast();
            return Ok(match cert {
                FastCert::Separated(l) => Intersection::Separated { axis: l.to_q() },
                FastCert::Overlap(c) => Intersection::Overlap {
                    witness: c.first().to_q(&al.x, al.e0),
                },
            });
        }
        stats::INTERSECT.fallback();
    }
    exact_certificate(cfg, a, b)
}

/// The certificate in exact rationals (the reference the fast path equals).
fn exact_certificate<S: Scalar>(
    cfg: Config,
    a: &Triangle<S>,
    b: &Triangle<S>,
) -> Result<Intersection<Q>, QueryError> {
    let (qa, qb) = (lift(a), lift(b));
    let exact: Intersection<Q> = match cfg {
        Config::SeparatedByPlaneB => Intersection::Separated { axis: normal(&qb) },
        Config::SeparatedByPlaneA => Intersection::Separated { axis: normal(&qa) },
        Config::Coplanar { meet: false } | Config::Crossing { meet: false, .. } => {
            Intersection::Separated {
                axis: separating_axis(&qa, &qb)?,
            }
        }
        Config::Coplanar { meet: true } | Config::Crossing { meet: true, .. } => {
            let set = contact_of(cfg, &qa, &qb)?;
            Intersection::Overlap {
                witness: set.points().swap_remove(0),
            }
        }
        Config::Degenerate => match degenerate_witness(&qa, &qb) {
            Some(w) => Intersection::Overlap { witness: w },
            None => Intersection::Separated {
                axis: separating_axis(&qa, &qb)?,
            },
        },
    };
    Ok(exact)
}

/// [`intersect_exact`] and [`intersection_set_exact`] in one call (one
/// classification, and the witness is the contact set's first point): the
/// certificate, and the contact set when the triangles meet. What the
/// protocol's `intersect` answer for two triangles needs.
///
/// ```
/// use exact_collision::query::triangle_triangle::{intersect_with_contact_exact, Contact};
/// use exact_collision::{Triangle, Vec3};
/// let t = |p: [[f64; 3]; 3]| Triangle::new(p.map(|[x, y, z]| Vec3::new(x, y, z)));
/// let a = t([[0., 0., 0.], [2., 0., 0.], [0., 2., 0.]]);
/// let b = t([[0.5, 0.5, -1.], [0.5, 0.5, 1.], [3., 0.5, 0.]]); // pierces a along y = 0.5
/// let (ans, set) = intersect_with_contact_exact(&a, &b).unwrap();
/// assert!(ans.intersects());
/// assert!(matches!(set, Some(Contact::Segment(..))));
/// ```
pub fn intersect_with_contact_exact<S: Scalar>(
    a: &Triangle<S>,
    b: &Triangle<S>,
) -> Result<(Intersection<Q>, Option<Contact<Q>>), QueryError> {
    if let Some((fa, fb)) = as_doubles(a, b) {
        return intersect_with_contact_exact(&fa, &fb);
    }
    let cfg = classify(&a.v, &b.v);
    if !S::IS_EXACT {
        if let Some((al, cert)) = fast_cert(cfg, a, b, true) {
            stats::INTERSECT.fast();
            return Ok(match cert {
                FastCert::Separated(l) => (Intersection::Separated { axis: l.to_q() }, None),
                FastCert::Overlap(c) => {
                    let set = contact_to_q(&c, &al.x, al.e0);
                    let witness = match &set {
                        Contact::Point(p) | Contact::Segment(p, _) => p.clone(),
                        Contact::Polygon(v) => v[0].clone(),
                    };
                    (Intersection::Overlap { witness }, Some(set))
                }
            });
        }
        stats::INTERSECT.fallback();
    }
    let i = exact_certificate(cfg, a, b)?;
    let set = if i.intersects() {
        exact_contact(cfg, a, b)?
    } else {
        None
    };
    Ok((i, set))
}

/// The reference for [`intersect_with_contact_exact`] (and so for
/// [`intersect_exact`] and [`intersection_set_exact`]): the same answer
/// computed in exact rationals throughout, from the exact predicates on the
/// rational values, without the float filters of the decision and without
/// the integer path of the certificates. Slow (big rationals with a gcd per
/// operation); the fast paths must equal it bit for bit, which the tests
/// check.
///
/// ```
/// use exact_collision::query::triangle_triangle::{intersect_reference, intersect_with_contact_exact};
/// use exact_collision::{Triangle, Vec3};
/// let t = |p: [[f64; 3]; 3]| Triangle::new(p.map(|[x, y, z]| Vec3::new(x, y, z)));
/// let a = t([[0., 0., 0.], [2., 0., 0.], [0., 2., 0.]]);
/// let b = t([[0.5, 0.1, -1.], [0.5, 0.7, 1.], [3., 0.5, 0.]]);
/// assert_eq!(intersect_reference(&a, &b).unwrap(), intersect_with_contact_exact(&a, &b).unwrap());
/// ```
pub fn intersect_reference<S: Scalar>(
    a: &Triangle<S>,
    b: &Triangle<S>,
) -> Result<(Intersection<Q>, Option<Contact<Q>>), QueryError> {
    let (qa, qb) = (Triangle::new(lift(a)), Triangle::new(lift(b)));
    let cfg = classify(&qa.v, &qb.v);
    let i = exact_certificate(cfg, &qa, &qb)?;
    let set = if i.intersects() {
        exact_contact(cfg, &qa, &qb)?
    } else {
        None
    };
    Ok((i, set))
}

/// Float inputs as integers: the 18 coordinates `X·2^e0` ([`ints::align`]),
/// and the input vertices (`0..3` of a, `3..6` of b).
pub(crate) struct Aligned<'a, S> {
    pub(crate) x: [[i64; 3]; 6],
    pub(crate) e0: i64,
    pub(crate) v: [&'a Vec3<S>; 6],
}

fn aligned<'a, S: Scalar>(a: &'a Triangle<S>, b: &'a Triangle<S>) -> Option<Aligned<'a, S>> {
    let v = [&a.v[0], &a.v[1], &a.v[2], &b.v[0], &b.v[1], &b.v[2]];
    let c = |p: &Vec3<S>| [p.x.to_f64(), p.y.to_f64(), p.z.to_f64()];
    let (x, e0) = ints::align(&[c(v[0]), c(v[1]), c(v[2]), c(v[3]), c(v[4]), c(v[5])])?;
    Some(Aligned { x, e0, v })
}

/// A certificate in integers (on the stack, as `IPoint`).
#[allow(clippy::large_enum_variant)]
enum FastCert {
    Separated(ints::IAxis),
    /// The contact set (only its first point, the witness, unless asked for).
    Overlap(IContact),
}

/// The certificate (and with `contact` the whole contact set) of float
/// inputs in integers, or `None`: the coordinates do not align, or the
/// configuration is one the integer path does not cover (degenerate
/// triangles; a separation that needs the closest-point axis).
fn fast_cert<'a, S: Scalar>(
    cfg: Config,
    a: &'a Triangle<S>,
    b: &'a Triangle<S>,
    contact: bool,
) -> Option<(Aligned<'a, S>, FastCert)> {
    let al = aligned(a, b)?;
    let (x, e0) = (&al.x, al.e0);
    let cert = match cfg {
        Config::SeparatedByPlaneB => FastCert::Separated(cert::normal_axis(&x[3..6], e0)),
        Config::SeparatedByPlaneA => FastCert::Separated(cert::normal_axis(&x[0..3], e0)),
        Config::Coplanar { meet: false } => {
            FastCert::Separated(cert::separating_axis(x, e0, Skip::Coplanar)?)
        }
        Config::Crossing { meet: false, .. } => {
            FastCert::Separated(cert::separating_axis(x, e0, Skip::Planes)?)
        }
        Config::Crossing {
            a: ia,
            b: ib,
            meet: true,
        } => {
            let s = cert::crossing(x, ia, ib, contact)?;
            FastCert::Overlap(match s.hi {
                Some(hi) => IContact::Segment(s.lo, hi),
                None => IContact::Point(s.lo),
            })
        }
        Config::Coplanar { meet: true } => {
            let c = cert::coplanar_contact(x)?;
            if contact {
                FastCert::Overlap(c)
            } else {
                FastCert::Overlap(IContact::Point(c.first().clone()))
            }
        }
        Config::Degenerate => return None,
    };
    Some((al, cert))
}

fn contact_to_q(c: &IContact, x: &[[i64; 3]; 6], e0: i64) -> Contact<Q> {
    match c {
        IContact::Point(p) => Contact::Point(p.to_q(x, e0)),
        IContact::Segment(p, q) => Contact::Segment(p.to_q(x, e0), q.to_q(x, e0)),
        IContact::Polygon(v) => Contact::Polygon(v.iter().map(|p| p.to_q(x, e0)).collect()),
    }
}

fn contact_round<S: Scalar>(c: &IContact, al: &Aligned<'_, S>) -> Contact<S> {
    let r = |p: &IPoint| p.round(&al.v, al.e0);
    match c {
        IContact::Point(p) => Contact::Point(r(p)),
        IContact::Segment(p, q) => Contact::Segment(r(p), r(q)),
        IContact::Polygon(v) => Contact::Polygon(v.iter().map(r).collect()),
    }
}

/// For the distance of float inputs: the pair in integers, a common point
/// when the triangles meet, else the closest pair; `None` when the integer
/// path does not apply (then the caller takes the general path).
pub(crate) fn distance_int<'a, S: Scalar>(
    a: &'a Triangle<S>,
    b: &'a Triangle<S>,
) -> Option<(Aligned<'a, S>, FastDistance)> {
    let cfg = classify(&a.v, &b.v);
    let al = aligned(a, b)?;
    let d = match cfg {
        Config::SeparatedByPlaneA
        | Config::SeparatedByPlaneB
        | Config::Coplanar { meet: false }
        | Config::Crossing { meet: false, .. } => FastDistance::Apart(fast::closest_int(&al.x)?),
        Config::Crossing {
            a: ia,
            b: ib,
            meet: true,
        } => FastDistance::Meet(cert::crossing(&al.x, ia, ib, false)?.lo),
        Config::Coplanar { meet: true } => {
            FastDistance::Meet(cert::coplanar_contact(&al.x)?.first().clone())
        }
        Config::Degenerate => return None,
    };
    Some((al, d))
}

/// [`distance_int`]'s answer (on the stack, as `IPoint`).
#[allow(clippy::large_enum_variant)]
pub(crate) enum FastDistance {
    /// The triangles meet: a common point.
    Meet(IPoint),
    /// Disjoint: the closest pair.
    Apart(fast::IClosest),
}

/// An exact common point of `a` and `b`, or `None` when they are disjoint (no
/// separating certificate is built: the distance path needs none).
pub(crate) fn witness_exact<S: Scalar>(
    a: &Triangle<S>,
    b: &Triangle<S>,
) -> Result<Option<P>, QueryError> {
    let cfg = classify(&a.v, &b.v);
    match cfg {
        Config::SeparatedByPlaneA
        | Config::SeparatedByPlaneB
        | Config::Coplanar { meet: false }
        | Config::Crossing { meet: false, .. } => Ok(None),
        Config::Degenerate => Ok(degenerate_witness(&lift(a), &lift(b))),
        Config::Crossing { a: ia, b: ib, .. } if !S::IS_EXACT => {
            let c = |t: &Triangle<S>, k: usize| {
                [t.v[k].x.to_f64(), t.v[k].y.to_f64(), t.v[k].z.to_f64()]
            };
            let coords = [c(a, 0), c(a, 1), c(a, 2), c(b, 0), c(b, 1), c(b, 2)];
            if let Some(w) = super::fast_intersect::crossing_witness(&coords, ia, ib) {
                return Ok(Some(w));
            }
            let d = |t: &Triangle<S>| {
                t.v.each_ref()
                    .map(|p| p.map(|c| Dyadic::from_f64(c.to_f64())))
            };
            Ok(Some(crossing_witness(&d(a), &d(b), ia, ib)))
        }
        _ => Ok(Some(
            contact_of(cfg, &lift(a), &lift(b))?.points().swap_remove(0),
        )),
    }
}

/// The first point of [`contact_of`]'s crossing contact (the low end of the
/// overlap on L), from dyadic inputs without a gcd: every point is kept as
/// `X / w` with `w > 0`, compared by cross-multiplication, and divided out
/// once at the end. Same value as `contact_of(..).points()[0]`.
fn crossing_witness(
    a: &[Vec3<Dyadic>; 3],
    b: &[Vec3<Dyadic>; 3],
    ia: [usize; 3],
    ib: [usize; 3],
) -> P {
    type D = Dyadic;
    let nrm = |t: &[Vec3<D>; 3]| t[1].sub(&t[0]).cross(&t[2].sub(&t[0]));
    let (na, nb) = (nrm(a), nrm(b));
    // t[0] + (x − t[0])·sp/(sp − sx), as (t[0]·(sp − sx) + (x − t[0])·sp) / (sp − sx).
    let cut = |t: [&Vec3<D>; 3], n: &Vec3<D>, o: &Vec3<D>| {
        let s = |x: &Vec3<D>| n.dot(&x.sub(o));
        let (sp, sq, sr) = (s(t[0]), s(t[1]), s(t[2]));
        let at = |x: &Vec3<D>, sx: &D| {
            let w = sp.sub_ref(sx);
            let x = t[0].scale(&w).add(&x.sub(t[0]).scale(&sp));
            if w.sign() == Sign::Negative {
                (x.neg(), w.neg_ref())
            } else {
                (x, w)
            }
        };
        (at(t[1], &sq), at(t[2], &sr))
    };
    let (i, j) = cut([&a[ia[0]], &a[ia[1]], &a[ia[2]]], &nb, &b[0]);
    let (k, l) = cut([&b[ib[0]], &b[ib[1]], &b[ib[2]]], &na, &a[0]);
    let d = na.cross(&nb);
    // sign(d·X/w − d·Y/v) = sign(d·X·v − d·Y·w)
    let ord = |x: &(Vec3<D>, D), y: &(Vec3<D>, D)| {
        d.dot(&x.0)
            .mul_ref(&y.1)
            .sub_ref(&d.dot(&y.0).mul_ref(&x.1))
            .sign()
    };
    let lo1 = if ord(&i, &j) != Sign::Positive { i } else { j };
    let lo2 = if ord(&k, &l) != Sign::Positive { k } else { l };
    let lo = if ord(&lo1, &lo2) != Sign::Negative {
        lo1
    } else {
        lo2
    };
    let w = lo.1.to_rational();
    lo.0.map(|c| div_q(&c.to_rational(), &w))
}

/// The set `a ∩ b`, exactly (then rounded to `S` on the float paths): `None` if
/// disjoint, else a point, a segment, or (coplanar triangles) a convex polygon.
///
/// Nathan's "collision point", generalised: every point of the set is a
/// witness.
///
/// ```
/// use exact_collision::query::triangle_triangle::{intersection_set, Contact};
/// use exact_collision::{Triangle, Vec3};
/// let t = |p: [[f64; 3]; 3]| Triangle::new(p.map(|[x, y, z]| Vec3::new(x, y, z)));
/// let a = t([[0., 0., 0.], [2., 0., 0.], [0., 2., 0.]]);
/// let b = t([[0.5, 0.5, -1.], [0.5, 0.5, 1.], [3., 0.5, 0.]]); // pierces a along y = 0.5
/// let set = intersection_set(&a, &b).unwrap().unwrap();
/// assert!(matches!(set, Contact::Segment(..)));
/// ```
pub fn intersection_set<S: Scalar>(
    a: &Triangle<S>,
    b: &Triangle<S>,
) -> Result<Option<Contact<S>>, QueryError> {
    if !S::IS_EXACT {
        let cfg = classify(&a.v, &b.v);
        if let Some((al, cert)) = fast_cert(cfg, a, b, true) {
            return Ok(match cert {
                FastCert::Separated(_) => None,
                FastCert::Overlap(c) => Some(contact_round(&c, &al)),
            });
        }
        return Ok(exact_contact(cfg, a, b)?.map(|set| set.round()));
    }
    Ok(intersection_set_exact(a, b)?.map(|set| set.round()))
}

/// [`intersection_set`] with the points left exact, whatever the input type
/// (integers reduced once for float inputs, as [`intersect_exact`]).
pub fn intersection_set_exact<S: Scalar>(
    a: &Triangle<S>,
    b: &Triangle<S>,
) -> Result<Option<Contact<Q>>, QueryError> {
    if let Some((fa, fb)) = as_doubles(a, b) {
        return intersection_set_exact(&fa, &fb);
    }
    let cfg = classify(&a.v, &b.v);
    if !S::IS_EXACT {
        if let Some((al, cert)) = fast_cert(cfg, a, b, true) {
            return Ok(match cert {
                FastCert::Separated(_) => None,
                FastCert::Overlap(c) => Some(contact_to_q(&c, &al.x, al.e0)),
            });
        }
    }
    exact_contact(cfg, a, b)
}

/// The contact set in exact rationals (the reference).
fn exact_contact<S: Scalar>(
    cfg: Config,
    a: &Triangle<S>,
    b: &Triangle<S>,
) -> Result<Option<Contact<Q>>, QueryError> {
    let (qa, qb) = (lift(a), lift(b));
    let set = match cfg {
        Config::SeparatedByPlaneA
        | Config::SeparatedByPlaneB
        | Config::Coplanar { meet: false }
        | Config::Crossing { meet: false, .. } => return Ok(None),
        Config::Degenerate => {
            if degenerate_witness(&qa, &qb).is_none() {
                return Ok(None);
            }
            degenerate_contact(&qa, &qb)
        }
        _ => contact_of(cfg, &qa, &qb)?,
    };
    Ok(Some(set))
}

fn normal(t: &[P; 3]) -> P {
    t[1].sub(&t[0]).cross(&t[2].sub(&t[0]))
}

fn internal(what: &str) -> QueryError {
    QueryError::Unsupported(format!(
        "internal error in triangle–triangle: {what} (please report this input)"
    ))
}

/// The contact set of a meeting, non-degenerate pair.
fn contact_of(cfg: Config, a: &[P; 3], b: &[P; 3]) -> Result<Contact<Q>, QueryError> {
    match cfg {
        Config::Crossing { a: ia, b: ib, .. } => {
            let ta = [&a[ia[0]], &a[ia[1]], &a[ia[2]]];
            let tb = [&b[ib[0]], &b[ib[1]], &b[ib[2]]];
            let (na, nb) = (normal(a), normal(b));
            // Each triangle's segment on L: its first vertex is alone on its side.
            let cut = |t: [&P; 3], n: &P, o: &P| -> (P, P) {
                let s = |x: &P| n.dot(&x.sub(o));
                let (sp, sq, sr) = (s(t[0]), s(t[1]), s(t[2]));
                let at = |x: &P, sx: &Q| {
                    let k = sp.clone() / (sp.sub_ref(sx));
                    t[0].add(&x.sub(t[0]).scale(&k))
                };
                (at(t[1], &sq), at(t[2], &sr))
            };
            let (i, j) = cut(ta, &nb, &b[0]);
            let (k, l) = cut(tb, &na, &a[0]);
            let d = na.cross(&nb);
            let ord = |x: &P, y: &P| d.dot(x).cmp(&d.dot(y));
            let (lo1, hi1) = if ord(&i, &j).is_le() { (i, j) } else { (j, i) };
            let (lo2, hi2) = if ord(&k, &l).is_le() { (k, l) } else { (l, k) };
            let lo = if ord(&lo1, &lo2).is_ge() { lo1 } else { lo2 };
            let hi = if ord(&hi1, &hi2).is_le() { hi1 } else { hi2 };
            match ord(&lo, &hi) {
                std::cmp::Ordering::Greater => Err(internal("crossing segments do not overlap")),
                std::cmp::Ordering::Equal => Ok(Contact::Point(lo)),
                std::cmp::Ordering::Less => Ok(Contact::Segment(lo, hi)),
            }
        }
        Config::Coplanar { .. } => {
            let poly = clip(a.to_vec(), b);
            shape_of(poly).ok_or_else(|| internal("coplanar clip is empty"))
        }
        _ => Err(internal("contact of a non-meeting pair")),
    }
}

/// Sutherland–Hodgman: the part of the (planar, convex) polygon `poly` in the
/// closed triangle `t` of the same plane, exactly.
fn clip(mut poly: Vec<P>, t: &[P; 3]) -> Vec<P> {
    let n = normal(t);
    for e in 0..3 {
        let (u, v) = (&t[e], &t[(e + 1) % 3]);
        let dir = v.sub(u).cross(&n); // points out of t (n is t's own normal)
        let h = |x: &P| dir.dot(&x.sub(u)); // ≤ 0 inside
        let mut out = Vec::with_capacity(poly.len() + 1);
        for idx in 0..poly.len() {
            let (p, q) = (&poly[idx], &poly[(idx + 1) % poly.len()]);
            let (hp, hq) = (h(p), h(q));
            if hp <= <Q as Zero>::zero() {
                out.push(p.clone());
            }
            let neg = |x: &Q| *x < <Q as Zero>::zero();
            let pos = |x: &Q| *x > <Q as Zero>::zero();
            if (neg(&hp) && pos(&hq)) || (pos(&hp) && neg(&hq)) {
                let k = hp.clone() / hp.sub_ref(&hq);
                out.push(p.add(&q.sub(p).scale(&k)));
            }
        }
        poly = out;
        if poly.is_empty() {
            break;
        }
    }
    poly
}

/// A point set (convex position, in order) as a [`Contact`]: duplicates
/// removed, collinear sets reduced to their extreme points.
fn shape_of(mut pts: Vec<P>) -> Option<Contact<Q>> {
    let mut uniq: Vec<P> = Vec::with_capacity(pts.len());
    for p in pts.drain(..) {
        if !uniq.contains(&p) {
            uniq.push(p);
        }
    }
    match uniq.len() {
        0 => None,
        1 => Some(Contact::Point(uniq.swap_remove(0))),
        _ => {
            let o = uniq[0].clone();
            let far = (1..uniq.len())
                .max_by(|&i, &j| {
                    uniq[i]
                        .sub(&o)
                        .norm_squared()
                        .cmp(&uniq[j].sub(&o).norm_squared())
                })
                .expect("two points");
            let d = uniq[far].sub(&o);
            let collinear = uniq.iter().all(|p| d.cross(&p.sub(&o)) == Vec3::zero());
            if collinear {
                let key = |p: &P| d.dot(&p.sub(&o));
                let lo = uniq.iter().min_by(|x, y| key(x).cmp(&key(y))).cloned();
                let hi = uniq.iter().max_by(|x, y| key(x).cmp(&key(y))).cloned();
                Some(Contact::Segment(lo?, hi?))
            } else {
                Some(Contact::Polygon(uniq))
            }
        }
    }
}

/// Whether `t` (exact) spans a plane.
fn nondegenerate(t: &[P; 3]) -> bool {
    normal(t) != Vec3::zero()
}

/// Brute-force exact witness for pairs with a degenerate triangle (also correct
/// for any pair): a vertex of one in the other, a meeting pair of edges, or an
/// edge crossing the other's plane inside it.
fn degenerate_witness(a: &[P; 3], b: &[P; 3]) -> Option<P> {
    let (ta, tb) = (Triangle::new(a.clone()), Triangle::new(b.clone()));
    for v in a {
        if tb.contains(v) {
            return Some(v.clone());
        }
    }
    for v in b {
        if ta.contains(v) {
            return Some(v.clone());
        }
    }
    for e in 0..3 {
        for f in 0..3 {
            let (d2, x, _) = segment_segment(&a[e], &a[(e + 1) % 3], &b[f], &b[(f + 1) % 3]);
            if d2.is_zero() {
                return Some(x);
            }
        }
    }
    let pierce = |s: &[P; 3], t: &[P; 3], tt: &Triangle<Q>| -> Option<P> {
        if !nondegenerate(t) {
            return None;
        }
        let n = normal(t);
        for e in 0..3 {
            let (u, v) = (&s[e], &s[(e + 1) % 3]);
            let (su, sv) = (n.dot(&u.sub(&t[0])), n.dot(&v.sub(&t[0])));
            if (su < <Q as Zero>::zero() && sv > <Q as Zero>::zero())
                || (su > <Q as Zero>::zero() && sv < <Q as Zero>::zero())
            {
                let k = su.clone() / su.sub_ref(&sv);
                let x = u.add(&v.sub(u).scale(&k));
                if tt.contains(&x) {
                    return Some(x);
                }
            }
        }
        None
    };
    pierce(a, b, &tb).or_else(|| pierce(b, a, &ta))
}

/// The contact set when a triangle is degenerate: the collected witnesses of
/// every feature pair, reduced to a point or a segment (a degenerate triangle
/// meets anything in a point or a segment).
fn degenerate_contact(a: &[P; 3], b: &[P; 3]) -> Contact<Q> {
    let (ta, tb) = (Triangle::new(a.clone()), Triangle::new(b.clone()));
    let mut pts: Vec<P> = Vec::new();
    pts.extend(a.iter().filter(|v| tb.contains(v)).cloned());
    pts.extend(b.iter().filter(|v| ta.contains(v)).cloned());
    for e in 0..3 {
        for f in 0..3 {
            // Crossing edges meet in one point; overlapping collinear edges
            // in a segment whose ends are vertices, collected above.
            let (d2, x, _) = segment_segment(&a[e], &a[(e + 1) % 3], &b[f], &b[(f + 1) % 3]);
            if d2.is_zero() {
                pts.push(x);
            }
        }
    }
    if let Some(w) = degenerate_witness(a, b) {
        pts.push(w);
    }
    // The points are collinear (a ∩ b lies in a segment): keep the extremes.
    shape_of(pts).unwrap_or_else(|| Contact::Point(Vec3::zero()))
}

/// A separating axis for a disjoint pair, verified exactly: the face normals,
/// in-plane edge normals and edge–edge crosses (24 candidates, complete for
/// non-degenerate triangles), then the closest-point difference (complete for
/// any disjoint pair of convex sets).
pub(crate) fn separating_axis(a: &[P; 3], b: &[P; 3]) -> Result<P, QueryError> {
    let (na, nb) = (normal(a), normal(b));
    let edges = |t: &[P; 3]| [t[1].sub(&t[0]), t[2].sub(&t[1]), t[0].sub(&t[2])];
    let (ea, eb) = (edges(a), edges(b));
    let mut cands: Vec<P> = vec![na.clone(), nb.clone()];
    for x in &ea {
        for y in &eb {
            cands.push(x.cross(y));
        }
    }
    for x in &ea {
        cands.push(na.cross(x));
        cands.push(x.cross(&nb));
    }
    for y in &eb {
        cands.push(nb.cross(y));
        cands.push(na.cross(y));
    }
    cands.push(na.cross(&nb));
    for l in cands {
        if l != Vec3::zero() && separates(&l, a, b) {
            return Ok(l);
        }
    }
    let c = closest_exact(a, b);
    let l = c.a.sub(&c.b);
    if l != Vec3::zero() && separates(&l, a, b) {
        return Ok(l);
    }
    Err(internal("no separating axis for a pair decided disjoint"))
}

fn separates(l: &P, a: &[P; 3], b: &[P; 3]) -> bool {
    let ext = |t: &[P; 3]| {
        let v = [l.dot(&t[0]), l.dot(&t[1]), l.dot(&t[2])];
        let lo = v.iter().min().cloned().expect("3");
        let hi = v.iter().max().cloned().expect("3");
        (lo, hi)
    };
    let ((alo, ahi), (blo, bhi)) = (ext(a), ext(b));
    ahi < blo || bhi < alo
}

/// Exact distance between two triangles given exactly, assuming nothing: 0 with
/// a common point when they meet. Used by [`distance`](super::distance).
pub(crate) fn closest_exact(a: &[P; 3], b: &[P; 3]) -> Closest<Q> {
    closest_features(a, b)
}

#[cfg(test)]
mod tests {
    use super::*;
    use num_rational::BigRational;

    #[test]
    fn filter_constants_are_the_documented_powers_of_two() {
        assert_eq!(O3_UNDERFLOW, 2f64.powi(-800));
        assert_eq!(O3_MAX_EXTENT, 2f64.powi(251));
        assert_eq!(O3_SEMI_STATIC, 50.0 * 2f64.powi(-53));
    }

    /// The filtered f64 classification equals the exact-rational one on hard
    /// cases: shared vertices and edges, coplanar pairs, one-ulp moves, and
    /// scales from 1e-300 to 1e300 (where the filter must hand over).
    #[test]
    fn filtered_classify_equals_exact() {
        let mut state = 99u64;
        let mut next = || {
            state = state
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            ((state >> 33) % 5) as f64 - 2.0
        };
        let q = |t: &[Vec3<f64>; 3]| t.each_ref().map(|p| p.to_rational());
        let mut n = 0;
        for round in 0..4000 {
            let scale = [1.0, 1e300, 1e-300, 0.1, 3e-160, 1e75][round % 6];
            let mut p = || Vec3::new(next() * scale, next() * scale, next() * scale);
            let a = [p(), p(), p()];
            let mut b = [p(), p(), p()];
            match round / 6 % 5 {
                0 => b[0] = a[1].clone(),                         // shared vertex
                1 => (b[0], b[1]) = (a[0].clone(), a[2].clone()), // shared edge
                2 => b.iter_mut().for_each(|v| v.z = a[0].z),     // often coplanar
                3 => b[2].z = b[2].z.next_up(),                   // one ulp off the grid
                _ => {}
            }
            let (fast, exact) = (classify(&a, &b), classify::<BigRational>(&q(&a), &q(&b)));
            assert_eq!(fast, exact, "{a:?} {b:?}");
            n += matches!(exact, Config::Crossing { .. } | Config::Coplanar { .. }) as usize;
        }
        assert!(n > 500, "{n}");
    }

    /// The gcd-free crossing witness equals the first point of the exact
    /// contact set.
    #[test]
    fn crossing_witness_equals_contact() {
        let mut fixed = 0;
        let mut state = 7u64;
        let mut next = || {
            state = state
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (state >> 11) as f64 / (1u64 << 53) as f64 - 0.5
        };
        let mut n = 0;
        for round in 0..4000 {
            // The last family is a small grid: cut points that coincide
            // (shared vertices, edges in the other plane), so the order of the
            // cut points is decided exactly, past the f64 comparison.
            let scale = [1.0, 1e300, 1e-300, 3.0, 0.0][round % 5];
            let mut c = || {
                if scale == 0.0 {
                    (next() * 6.0).round()
                } else {
                    next() * scale
                }
            };
            let mut p = || Vec3::new(c(), c(), c());
            let (ta, tb) = (
                Triangle::new([p(), p(), p()]),
                Triangle::new([p(), p(), p()]),
            );
            let cfg = classify(&ta.v, &tb.v);
            if let Config::Crossing {
                a: ia,
                b: ib,
                meet: true,
            } = cfg
            {
                let d = |t: &Triangle<f64>| t.v.each_ref().map(|p| p.map(|c| Dyadic::from_f64(*c)));
                let fast = crossing_witness(&d(&ta), &d(&tb), ia, ib);
                let slow = contact_of(cfg, &lift(&ta), &lift(&tb))
                    .unwrap()
                    .points()
                    .swap_remove(0);
                assert_eq!(fast, slow);
                let c = |t: &Triangle<f64>, k: usize| [t.v[k].x, t.v[k].y, t.v[k].z];
                let coords = [
                    c(&ta, 0),
                    c(&ta, 1),
                    c(&ta, 2),
                    c(&tb, 0),
                    c(&tb, 1),
                    c(&tb, 2),
                ];
                if let Some(w) = super::super::fast_intersect::crossing_witness(&coords, ia, ib) {
                    assert_eq!(w, slow, "fixed-width witness");
                    fixed += 1;
                }
                assert_eq!(witness_exact(&ta, &tb).unwrap(), Some(slow));
                n += 1;
            }
        }
        assert!(n > 200, "{n}");
        assert!(fixed * 10 > n * 9, "{fixed} of {n}");
        // Some orders were decided exactly (counted in test builds).
        let exact = crate::stats::ORD_EXACT.load(std::sync::atomic::Ordering::Relaxed);
        assert!(exact > 0, "{exact}");
    }
}
