//! The radius step of rounded triangle, box and prism cores
//! (`query/rounded/radius_step.rs`: the sign of `q − R²` and the nearest
//! double to `√q − R` in double-word arithmetic with a proven bound, the
//! exact step where the bound does not decide) against the exact reference:
//! [`rounded::distance_exact`] on the same shapes read as rationals (the
//! exhaustive exact core paths, then `SqrtOffset`). Random pairs, and the
//! hard cases: touching (`q = R²` exactly), one ulp of radius apart either
//! way, radius 0, overlapping cores, and scales 2^±40. The protocol's route
//! for lines of doubles ([`rounded::distance_exact_any`]) must give the
//! reference's answer field by field.

use exact_collision::num::scalar::Scalar;
use exact_collision::query::rounded;
use exact_collision::shape::{Prism, Rounded};
use exact_collision::stats;
use exact_collision::vector::Vec2;
use exact_collision::{Obb, Shape, Triangle, Vec3};
use num_rational::BigRational;
use proptest::prelude::*;

type Q = BigRational;

fn v(x: f64, y: f64, z: f64) -> Vec3<f64> {
    Vec3::new(x, y, z)
}

/// The same rounded shape with exact rational numbers.
fn rational(r: &Rounded<f64>) -> Rounded<Q> {
    let shape = match &r.core {
        exact_collision::shape::Core::Shape(s) => s.to_rational(),
        _ => unreachable!("polytope cores only"),
    };
    Rounded::new(shape, r.radius.to_rational()).unwrap()
}

/// `distance_f64`, `intersects_f64` and the protocol's route equal the
/// exact reference's answers, in both orders.
fn same(a: &Rounded<f64>, b: &Rounded<f64>) -> Result<(), TestCaseError> {
    for (x, y) in [(a, b), (b, a)] {
        let (xq, yq) = (rational(x), rational(y));
        let exact = rounded::distance_exact(&xq, &yq).unwrap();
        let want = exact.distance().clamped_nearest_f64();
        let got = rounded::distance_f64(x, y).unwrap();
        prop_assert_eq!(got.to_bits(), want.to_bits(), "{:?} {:?}", x, y);
        prop_assert_eq!(
            rounded::intersects_f64(x, y).unwrap(),
            exact.distance().sign() != exact_collision::Sign::Positive
        );
        let any = rounded::distance_exact_any(&xq, &yq).unwrap();
        prop_assert_eq!(&any, &exact, "{:?} {:?}", x, y);
        prop_assert_eq!(
            any.distance_f64_with_radii(x.radius, y.radius).to_bits(),
            want.to_bits()
        );
        prop_assert_eq!(
            any.intersects_with_radii(x.radius, y.radius),
            exact.intersects()
        );
    }
    Ok(())
}

fn scaled(r: &Rounded<f64>, s: f64) -> Rounded<f64> {
    let p = |q: &Vec3<f64>| v(q.x * s, q.y * s, q.z * s);
    let shape = match &r.core {
        exact_collision::shape::Core::Shape(Shape::Triangle(t)) => {
            Shape::Triangle(Triangle::new(t.v.each_ref().map(p)))
        }
        exact_collision::shape::Core::Shape(Shape::Box(o)) => {
            Shape::Box(Obb::new(p(&o.center), o.half_axes.each_ref().map(p)).unwrap())
        }
        exact_collision::shape::Core::Shape(Shape::Prism(pr)) => Shape::Prism(Prism {
            base: pr.base.each_ref().map(|w| Vec2::new(w.x * s, w.y * s)),
            zmin: pr.zmin * s,
            zmax: pr.zmax * s,
        }),
        _ => unreachable!(),
    };
    Rounded::new(shape, r.radius * s).unwrap()
}

fn tri(c: [f64; 3], d: [[f64; 3]; 3], r: f64) -> Rounded<f64> {
    let p = |k: usize| v(c[0] + d[k][0], c[1] + d[k][1], c[2] + d[k][2]);
    Rounded::new(Shape::Triangle(Triangle::new([p(0), p(1), p(2)])), r).unwrap()
}

/// A box rotated about z by the angle whose cosine and sine are `(c, s)`
/// (not normalised: the half-axes need only be orthogonal).
fn boxr(c: [f64; 3], e: [f64; 3], (co, si): (f64, f64), r: f64) -> Rounded<f64> {
    let h = [
        v(co * e[0], si * e[0], 0.0),
        v(-si * e[1], co * e[1], 0.0),
        v(0.0, 0.0, e[2]),
    ];
    Rounded::new(Shape::Box(Obb::new(v(c[0], c[1], c[2]), h).unwrap()), r).unwrap()
}

fn prism(c: [f64; 2], w: f64, h: f64, z: [f64; 2], r: f64) -> Rounded<f64> {
    let p = |x: f64, y: f64| Vec2::new(c[0] + x, c[1] + y);
    let base = [p(w, -h), p(w, h), p(-w, h), p(-w, -h)];
    Rounded::new(Shape::Prism(Prism::new(base, z[0], z[1]).unwrap()), r).unwrap()
}

fn c3() -> impl Strategy<Value = [f64; 3]> {
    [-3.0..3.0f64, -3.0..3.0f64, -3.0..3.0f64]
}
fn d3() -> impl Strategy<Value = [[f64; 3]; 3]> {
    [
        [-1.0..1.0f64, -1.0..1.0f64, -1.0..1.0f64],
        [-1.0..1.0f64, -1.0..1.0f64, -1.0..1.0f64],
        [-1.0..1.0f64, -1.0..1.0f64, -1.0..1.0f64],
    ]
}
fn radius() -> impl Strategy<Value = f64> {
    prop_oneof![Just(0.0), 0.0..0.8f64]
}
fn shape() -> impl Strategy<Value = Rounded<f64>> {
    prop_oneof![
        (c3(), d3(), radius()).prop_map(|(c, d, r)| tri(c, d, r)),
        (
            c3(),
            [0.1..1.0f64, 0.1..1.0f64, 0.1..1.0f64],
            (-1.0..1.0f64, -1.0..1.0f64),
            radius()
        )
            .prop_filter("a nonzero rotation", |(_, _, (co, si), _)| {
                co * co + si * si > 0.01
            })
            .prop_map(|(c, e, cs, r)| boxr(c, e, cs, r)),
        (
            [-3.0..3.0f64, -3.0..3.0f64],
            0.1..1.0f64,
            0.1..1.0f64,
            -3.0..3.0f64,
            0.1..1.0f64,
            radius()
        )
            .prop_map(|(c, w, h, z, t, r)| prism(c, w, h, [z, z + t], r)),
    ]
}
fn scale() -> impl Strategy<Value = f64> {
    prop_oneof![Just(1.0), Just(2f64.powi(40)), Just(2f64.powi(-40))]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]
    #[test]
    fn random_pairs_agree(a in shape(), b in shape(), s in scale()) {
        same(&scaled(&a, s), &scaled(&b, s))?;
    }
}

/// Axis-aligned cores exactly 1 apart along x (a's face x = 0, b's x = 1):
/// q = 1, so radii summing to 1 touch (q = R², distance 0, meeting), and
/// one ulp less apart (distance the ulp's size, about 1.1e-16 or 5.6e-17).
fn pair(kind: usize, ra: f64, rb: f64) -> (Rounded<f64>, Rounded<f64>) {
    let b = boxr([1.5, 0.0, 0.0], [0.5, 1.0, 1.0], (1.0, 0.0), rb);
    let a = match kind {
        0 => tri(
            [0.0; 3],
            [[0.0, -1.0, -1.0], [0.0, 2.0, -1.0], [0.0, -1.0, 2.0]],
            ra,
        ),
        1 => boxr([-0.5, 0.0, 0.0], [0.5, 1.0, 1.0], (1.0, 0.0), ra),
        _ => prism([-0.5, 0.0], 0.5, 1.0, [-1.0, 1.0], ra),
    };
    (a, b)
}

#[test]
fn touching_and_one_ulp_apart() {
    for kind in 0..3 {
        for s in [1.0, 2f64.powi(40), 2f64.powi(-40)] {
            for (ra, rb) in [(0.5, 0.5), (0.25, 0.75), (0.0, 1.0), (1.0, 0.0)] {
                // Touching: q = R² = s².
                let (a, b) = pair(kind, ra, rb);
                let (a, b) = (scaled(&a, s), scaled(&b, s));
                same(&a, &b).unwrap();
                assert_eq!(rounded::distance_f64(&a, &b).unwrap(), 0.0);
                assert!(rounded::intersects_f64(&a, &b).unwrap());
                // One ulp of b's radius less: √q − R = ulp below rb's value.
                let rb2 = if rb > 0.0 { rb.next_down() } else { rb };
                let ra2 = if rb > 0.0 { ra } else { ra.next_down() };
                let (a, b) = pair(kind, ra2, rb2);
                let (a, b) = (scaled(&a, s), scaled(&b, s));
                same(&a, &b).unwrap();
                let gap = ((ra - ra2) + (rb - rb2)) * s;
                assert_eq!(rounded::distance_f64(&a, &b).unwrap(), gap);
                assert!(!rounded::intersects_f64(&a, &b).unwrap());
                // One ulp more: overlapping by that much.
                let (a, b) = pair(kind, ra, rb.next_up());
                let (a, b) = (scaled(&a, s), scaled(&b, s));
                same(&a, &b).unwrap();
                assert!(rounded::intersects_f64(&a, &b).unwrap());
            }
        }
    }
}

/// Radius 0 on both sides is the cores' own distance, √q: the triangle in
/// x = 0 against the box whose face is x = 1 gives exactly 1.
#[test]
fn radius_zero_is_the_core_distance() {
    for kind in 0..3 {
        let (a, b) = pair(kind, 0.0, 0.0);
        same(&a, &b).unwrap();
        assert_eq!(rounded::distance_f64(&a, &b).unwrap(), 1.0);
    }
}

/// A generic apart pair is decided by the double-word step, not the exact
/// one: the counter's `fast` count grows (counters only grow, so other
/// tests running at once cannot make this fail). Cores 3 apart along x
/// with radii 0.1 + 0.2 (the doubles): the distance `3 − R`.
#[test]
fn apart_pairs_take_the_filtered_step() {
    let a = boxr([-0.5, 0.0, 0.0], [0.5, 1.0, 1.0], (1.0, 0.0), 0.1);
    let b = boxr([3.5, 0.0, 0.0], [0.5, 1.0, 1.0], (1.0, 0.0), 0.2);
    let before = stats::ROUNDED_RADIUS_STEP.get().0;
    let d = rounded::distance_f64(&a, &b).unwrap();
    assert!(stats::ROUNDED_RADIUS_STEP.get().0 > before);
    // R = 0.1000000000000000055511… + 0.2000000000000000111022… =
    // 0.3000000000000000166533…, 3 − R = 2.6999999999999999833466…
    // (Python's fractions): between the doubles 2.69999999999999973355…
    // and 2.70000000000000017763… (the double written 2.7), nearer the
    // second (the midpoint is 2.69999999999999995559…).
    assert_eq!(d, 2.7);
    same(&a, &b).unwrap();
}
