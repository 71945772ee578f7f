//! The filtered `polytope::closest_pair` (and so `box_box::distance`) against
//! the full exact enumeration `closest_pair_reference`: same distance, same
//! closest points, on the hard cases.

mod box_gen;

use box_gen::*;
use exact_collision::query::polytope::Polytope;
use exact_collision::query::{box_box, polytope};
use exact_collision::{Obb, Shape, Vec3};
use proptest::prelude::*;

fn same(a: &Shape<Q>, b: &Shape<Q>) -> Result<(), TestCaseError> {
    let (pa, pb) = (Polytope::new(a), Polytope::new(b));
    prop_assert_eq!(
        polytope::closest_pair(&pa, &pb),
        polytope::closest_pair_reference(&pa, &pb)
    );
    prop_assert_eq!(
        polytope::closest_pair(&pb, &pa),
        polytope::closest_pair_reference(&pb, &pa)
    );
    Ok(())
}

/// An f64 box from small integers: rotated by an integer quaternion, scaled by 2^k.
fn f64_box(qq: [i64; 4], e: [i64; 3], c: [i64; 3], k: i32) -> Obb<f64> {
    let s = 2f64.powi(k);
    let cols = rot_cols(qq[0], qq[1], qq[2], qq[3]);
    let h = std::array::from_fn(|i| cols[i].map(|x| (x * e[i]) as f64 * s));
    Obb::new(
        Vec3::new(c[0] as f64 * s, c[1] as f64 * s, c[2] as f64 * s),
        h,
    )
    .unwrap()
}

fn exact(b: &Obb<f64>) -> Obb<Q> {
    Obb::new(rat(&b.center), b.half_axes.clone().map(|h| rat(&h))).unwrap()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(cases(64)))]

    #[test]
    fn filtered_equals_reference_on_hard_box_pairs((a, b, _kind) in box_pair()) {
        same(&Shape::Box(a), &Shape::Box(b))?;
    }

    #[test]
    fn filtered_equals_reference_on_mixed_shapes(a in any_shape(), b in any_shape()) {
        same(&a, &b)?;
    }

    #[test]
    fn filtered_equals_reference_on_f64_boxes_at_extreme_scales(
        qa in quat(), qb in quat(),
        ea in prop::array::uniform3(1i64..=4), eb in prop::array::uniform3(1i64..=4),
        ca in prop::array::uniform3(-40i64..=40), cb in prop::array::uniform3(-40i64..=40),
        k in prop_oneof![Just(-1000i32), Just(-990), Just(0), Just(960), Just(980)],
        ulps in -2i32..=2,
    ) {
        let a = f64_box(qa, ea, ca, k);
        let mut b = f64_box(qb, eb, cb, k);
        // Nudge b by a few ulps: gaps and overlaps of one ulp.
        let step = |x: f64, n: i32| (0..n.abs()).fold(x, |x, _| if n > 0 { x.next_up() } else { x.next_down() });
        b.center = Vec3::new(step(b.center.x, ulps), b.center.y, b.center.z);
        let (xa, xb) = (exact(&a), exact(&b));
        same(&Shape::Box(xa.clone()), &Shape::Box(xb.clone()))?;
        let d = box_box::distance(&xa, &xb);
        let (pa, pb) = (Polytope::new(&Shape::Box(xa.clone())), Polytope::new(&Shape::Box(xb.clone())));
        if !box_box::overlaps(&xa, &xb) {
            prop_assert_eq!(d, polytope::closest_pair_reference(&pa, &pb));
        }
    }
}

/// Face–face parallel at a one-ulp gap, edge–edge parallel, touching: the
/// filter cannot separate the tied feature pairs and must leave them to the
/// exact stage.
#[test]
fn parallel_and_touching_cases() {
    let v = |x: f64, y: f64, z: f64| Vec3::new(x, y, z);
    let axes = [v(1., 0., 0.), v(0., 1., 0.), v(0., 0., 1.)];
    let a = Obb::new(v(0., 0., 0.), axes.clone()).unwrap();
    for cx in [2.0, 2.0f64.next_up(), 2.5, 1e-300 + 2.0] {
        for (cy, cz) in [
            (0.0, 0.0),
            (0.5, 0.25),
            (2.0, 0.0),
            (2.0, 2.0),
            (2.0f64.next_up(), 0.),
        ] {
            let b = Obb::new(v(cx, cy, cz), axes.clone()).unwrap();
            same(&Shape::Box(exact(&a)), &Shape::Box(exact(&b))).unwrap();
        }
    }
    // Edge–edge parallel: b rotated 45° about z (rational rotation 3-4-5 too).
    let b = Obb::new(
        v(3.0, 0.0, 0.5),
        [v(0.6, 0.8, 0.), v(-0.8, 0.6, 0.), v(0., 0., 1.)],
    )
    .unwrap();
    same(&Shape::Box(exact(&a)), &Shape::Box(exact(&b))).unwrap();
    let b = Obb::new(
        v(3.0, 3.0, 0.),
        [v(1., 1., 0.), v(-1., 1., 0.), v(0., 0., 1.)],
    )
    .unwrap();
    same(&Shape::Box(exact(&a)), &Shape::Box(exact(&b))).unwrap();
}
