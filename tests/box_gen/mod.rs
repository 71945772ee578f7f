//! Generators for the hard box / prism / mixed cases, shared by the property tests.
#![allow(dead_code)]

use exact_collision::query::certificate::extent;
use exact_collision::query::polytope::{self, Polytope};
use exact_collision::query::{Closest, Intersection};
use exact_collision::{Obb, Prism, Scalar, Shape, Triangle, Vec2, Vec3};
use num_rational::BigRational;
use num_traits::{One, Signed, Zero};
use proptest::prelude::*;

pub type Q = BigRational;

/// Case count: modest by default, heavy with `EXACT_HEAVY=1`.
pub fn cases(default: u32) -> u32 {
    if std::env::var("EXACT_HEAVY").is_ok_and(|v| v == "1") {
        default * 16
    } else {
        default
    }
}

pub fn q(n: i64, d: i64) -> Q {
    BigRational::new(n.into(), d.into())
}

pub fn qv(x: i64, y: i64, z: i64) -> Vec3<Q> {
    Vec3::new(q(x, 1), q(y, 1), q(z, 1))
}

/// R(q)·|q|² for the integer quaternion (w, x, y, z): an integer matrix whose
/// columns are orthogonal with length |q|² (columns returned).
pub fn rot_cols(w: i64, x: i64, y: i64, z: i64) -> [Vec3<i64>; 3] {
    let m = [
        [
            w * w + x * x - y * y - z * z,
            2 * (x * y - w * z),
            2 * (x * z + w * y),
        ],
        [
            2 * (x * y + w * z),
            w * w - x * x + y * y - z * z,
            2 * (y * z - w * x),
        ],
        [
            2 * (x * z - w * y),
            2 * (y * z + w * x),
            w * w - x * x - y * y + z * z,
        ],
    ];
    std::array::from_fn(|j| Vec3::new(m[0][j], m[1][j], m[2][j]))
}

/// An exact rotated box: rotation R(q)/|q|², integer extents, integer center / den.
pub fn rotated_box(quat: [i64; 4], ext: [i64; 3], center: [i64; 3], den: i64) -> Obb<Q> {
    let [w, x, y, z] = quat;
    let n2 = w * w + x * x + y * y + z * z;
    let cols = rot_cols(w, x, y, z);
    let half = std::array::from_fn(|i| cols[i].map(|c| q(c * ext[i], n2)));
    Obb::new(v3(center.map(|c| q(c, den))), half).unwrap()
}

pub fn v3(a: [Q; 3]) -> Vec3<Q> {
    let [x, y, z] = a;
    Vec3::new(x, y, z)
}

pub fn quat() -> impl Strategy<Value = [i64; 4]> {
    prop::array::uniform4(-4i64..=4).prop_filter("nonzero", |q| q.iter().any(|c| *c != 0))
}

pub fn any_rotated_box() -> impl Strategy<Value = Obb<Q>> {
    (
        quat(),
        prop::array::uniform3(1i64..=5),
        prop::array::uniform3(-12i64..=12),
        1i64..=4,
    )
        .prop_map(|(qq, e, c, d)| rotated_box(qq, e, c, d))
}

/// A parallelepiped with integer half-axes (nonzero determinant).
pub fn skew_box() -> impl Strategy<Value = Obb<Q>> {
    (
        prop::array::uniform3(prop::array::uniform3(-4i64..=4)),
        prop::array::uniform3(-10i64..=10),
    )
        .prop_filter_map("independent half-axes", |(h, c)| {
            Obb::new(qv(c[0], c[1], c[2]), h.map(|r| qv(r[0], r[1], r[2]))).ok()
        })
}

pub fn any_box() -> impl Strategy<Value = Obb<Q>> {
    prop_oneof![any_rotated_box(), skew_box()]
}

pub fn translate(b: &Obb<Q>, t: &Vec3<Q>) -> Obb<Q> {
    Obb::new(b.center.add(t), b.half_axes.clone()).unwrap()
}

/// Move b along the closest direction so that it touches a exactly (distance 0,
/// not overlapping), then by `extra` times that vector more: extra > 0 overlaps
/// deeper, extra < 0 leaves a gap of |extra|·d.
pub fn touching(a: &Shape<Q>, b: &Obb<Q>, extra: &Q) -> Obb<Q> {
    let c = polytope::closest_pair(&Polytope::new(a), &Polytope::new(&Shape::Box(b.clone())));
    let d = c.a.sub(&c.b); // from b to a
    if d.norm_squared().is_zero() {
        return b.clone();
    }
    translate(b, &d.scale(&(Q::one() + extra)))
}

/// Sub-box of a: scaled by 1/3 about a point inside a.
pub fn inside(a: &Obb<Q>) -> Obb<Q> {
    let third = q(1, 3);
    Obb::new(
        a.center.add(&a.half_axes[0].scale(&third)),
        a.half_axes.clone().map(|h| h.scale(&third)),
    )
    .unwrap()
}

/// b moved so that its vertex extreme against a's +h0 face lies on that face,
/// at the point center + h0 + s·h1 + t·h2: vertex on face, touching.
pub fn vertex_on_face(a: &Obb<Q>, b: &Obb<Q>, s: &Q, t: &Q) -> Obb<Q> {
    let h = &a.half_axes;
    let mut n = h[1].cross(&h[2]);
    if n.dot(&h[0]).is_negative() {
        n = n.neg();
    }
    let v = b
        .vertices()
        .into_iter()
        .min_by(|p, r| p.dot(&n).cmp(&r.dot(&n)))
        .unwrap();
    let target = a.center.add(&h[0]).add(&h[1].scale(s)).add(&h[2].scale(t));
    translate(b, &target.sub(&v))
}

/// Box pairs covering the hard cases: random, face-face touching, edge/vertex
/// touching of rotated boxes, vertex on face, inside, gaps/overlaps of 1e-30.
pub fn box_pair() -> impl Strategy<Value = (Obb<Q>, Obb<Q>, &'static str)> {
    let tiny = || {
        prop_oneof![
            Just(q(0, 1)),
            Just(Q::new(1.into(), num_bigint::BigInt::from(10).pow(30))),
            Just(-Q::new(1.into(), num_bigint::BigInt::from(10).pow(30)))
        ]
    };
    prop_oneof![
        (any_box(), any_box()).prop_map(|(a, b)| (a, b, "random")),
        (
            any_box(),
            prop::array::uniform3(1i64..=3),
            -2i64..=2,
            -2i64..=2
        )
            .prop_map(|(a, s, t1, t2)| {
                let h = &a.half_axes;
                let bh: [Vec3<Q>; 3] = std::array::from_fn(|i| h[i].scale(&q(s[i], 2)));
                let c = a
                    .center
                    .add(&h[0])
                    .add(&bh[0])
                    .add(&h[1].scale(&q(t1, 2)))
                    .add(&h[2].scale(&q(t2, 2)));
                let b = Obb::new(c, bh).unwrap();
                (a, b, "face-face")
            }),
        (any_rotated_box(), any_rotated_box(), tiny()).prop_map(|(a, b, e)| {
            let b = touching(&Shape::Box(a.clone()), &b, &e);
            (a, b, "touch±1e-30")
        }),
        (any_box(), any_box(), -3i64..=3, -3i64..=3).prop_map(|(a, b, s, t)| {
            let b = vertex_on_face(&a, &b, &q(s, 3), &q(t, 3));
            (a, b, "vertex-on-face")
        }),
        any_box().prop_map(|a| (inside(&a), a, "inside")),
    ]
}

/// An exact prism from integer data (rejects non-convex bases).
pub fn prism_from(base: [[i64; 2]; 4], z0: i64, dz: i64, den: i64) -> Option<Prism<Q>> {
    Prism::new(
        base.map(|p| Vec2::new(q(p[0], den), q(p[1], den))),
        q(z0, den),
        q(z0 + dz, den),
    )
    .ok()
}

pub fn any_prism() -> impl Strategy<Value = Prism<Q>> {
    (
        prop::array::uniform4(prop::array::uniform2(-8i64..=8)),
        -6i64..=6,
        0i64..=6,
        1i64..=3,
    )
        .prop_filter_map("convex base", |(b, z, dz, d)| prism_from(b, z, dz, d))
}

pub fn any_triangle() -> impl Strategy<Value = Triangle<Q>> {
    prop::array::uniform3(prop::array::uniform3(-8i64..=8))
        .prop_map(|v| Triangle::new(v.map(|p| qv(p[0], p[1], p[2]))))
}

pub fn any_shape() -> impl Strategy<Value = Shape<Q>> {
    prop_oneof![
        any_triangle().prop_map(Shape::Triangle),
        any_box().prop_map(Shape::Box),
        any_prism().prop_map(Shape::Prism),
        (any_rotated_box()).prop_map(|b| {
            // the same box as a cube's eight labelled vertices
            let v = |i: usize| b.vertex(i);
            Shape::Cube(
                exact_collision::Cube::new([v(0), v(1), v(3), v(2), v(4), v(5), v(7), v(6)])
                    .unwrap(),
            )
        }),
    ]
}

/// Exact check that a closest pair is minimal: with n = pb − pa, pa maximises
/// n·p over a and pb minimises n·q over b (then |q − p| ≥ |n| for all p ∈ a,
/// q ∈ b). For distance 0 nothing more is needed.
pub fn check_minimal(a: &Shape<Q>, b: &Shape<Q>, c: &Closest<Q>) -> Result<(), String> {
    let n = c.b.sub(&c.a);
    if n.norm_squared().is_zero() {
        return Ok(());
    }
    let (_, amax) = extent(a, &n);
    let (bmin, _) = extent(b, &n);
    if amax != c.a.dot(&n) || bmin != c.b.dot(&n) {
        return Err(format!("closest pair is not minimal: {c:?}"));
    }
    Ok(())
}

/// Every exact check of an intersect + distance pair of answers.
pub fn check_all(
    a: &Shape<Q>,
    b: &Shape<Q>,
    i: &Intersection<Q>,
    c: &Closest<Q>,
) -> Result<(), String> {
    exact_collision::query::certificate::check_intersection(a, b, i)?;
    exact_collision::query::certificate::check_closest(a, b, c)?;
    check_minimal(a, b, c)?;
    if i.intersects() != c.distance_squared.is_zero() {
        return Err("intersect and distance disagree".into());
    }
    Ok(())
}

pub fn to_f64_shape(s: &Shape<Q>) -> Option<Shape<f64>> {
    s.convert::<f64>().ok()
}

pub fn rat<S: Scalar>(v: &Vec3<S>) -> Vec3<Q> {
    v.to_rational()
}
