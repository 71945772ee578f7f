//! Property tests for box–box (separating axes): exact decisions on every path, the
//! specialised SAT against the generic polytope path, symmetry, certificates,
//! invariance.

mod box_gen;

use box_gen::*;
use exact_collision::query::{box_box, polytope};
use exact_collision::{Obb, Shape, Vec3};
use num_traits::Zero;
use proptest::prelude::*;

fn exact_answers(a: &Obb<Q>, b: &Obb<Q>) -> Result<(), TestCaseError> {
    let (sa, sb) = (Shape::Box(a.clone()), Shape::Box(b.clone()));
    let i = box_box::intersect(a, b);
    let c = box_box::distance(a, b);
    check_all(&sa, &sb, &i, &c).map_err(TestCaseError::fail)?;
    // independent generic path
    let gi = polytope::intersect(&sa, &sb);
    let gc = polytope::distance(&sa, &sb);
    prop_assert_eq!(i.intersects(), gi.intersects());
    prop_assert_eq!(&c.distance_squared, &gc.distance_squared);
    // a ↔ b
    let ri = box_box::intersect(b, a);
    let rc = box_box::distance(b, a);
    prop_assert_eq!(i.intersects(), ri.intersects());
    prop_assert_eq!(&c.distance_squared, &rc.distance_squared);
    check_all(&sb, &sa, &ri, &rc).map_err(TestCaseError::fail)?;
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(cases(48)))]

    #[test]
    fn exact_path_agrees_with_polytope_and_is_symmetric((a, b, _kind) in box_pair()) {
        exact_answers(&a, &b)?;
    }

    #[test]
    fn touching_constructions_touch((a, b, kind) in box_pair()) {
        let d = box_box::distance(&a, &b).distance_squared;
        if kind == "face-face" || kind == "vertex-on-face" || kind == "inside" {
            prop_assert!(d.is_zero(), "{kind} must intersect");
        }
    }

    #[test]
    fn invariant_under_translation_and_relabelling(
        (a, b, _k) in box_pair(), t in prop::array::uniform3(-1000i64..1000),
        perm in 0usize..6, flips in 0u8..8,
    ) {
        let base = box_box::distance(&a, &b).distance_squared;
        let tv = Vec3::new(q(t[0], 7), q(t[1], 11), q(t[2], 13));
        let (ta, tb) = (translate(&a, &tv), translate(&b, &tv));
        prop_assert_eq!(&box_box::distance(&ta, &tb).distance_squared, &base);
        let p = [[0, 1, 2], [0, 2, 1], [1, 0, 2], [1, 2, 0], [2, 0, 1], [2, 1, 0]][perm];
        let relabel = |x: &Obb<Q>| {
            let h: [Vec3<Q>; 3] = std::array::from_fn(|i| {
                let v = x.half_axes[p[i]].clone();
                if flips >> i & 1 == 1 { v.neg() } else { v }
            });
            Obb::new(x.center.clone(), h).unwrap()
        };
        let (ra, rb) = (relabel(&a), relabel(&b));
        prop_assert_eq!(box_box::overlaps(&ra, &rb), box_box::overlaps(&a, &b));
        prop_assert_eq!(&box_box::distance(&ra, &rb).distance_squared, &base);
    }
}

/// A box with f64 coordinates from small integers scaled by 2^k (exact).
fn f64_box() -> impl Strategy<Value = Obb<f64>> {
    (
        quat(),
        prop::array::uniform3(1i64..=5),
        prop::array::uniform3(-12i64..=12),
        prop::array::uniform3(prop::array::uniform3(-4i64..=4)),
        any::<bool>(),
    )
        .prop_filter_map("independent", |(qq, e, c, m, skew)| {
            let h: [Vec3<f64>; 3] = if skew {
                m.map(|r| Vec3::new(r[0] as f64, r[1] as f64, r[2] as f64))
            } else {
                let cols = rot_cols(qq[0], qq[1], qq[2], qq[3]);
                std::array::from_fn(|i| cols[i].map(|x| (x * e[i]) as f64))
            };
            Obb::new(
                Vec3::new(c[0] as f64 * 8.0, c[1] as f64 * 8.0, c[2] as f64 * 8.0),
                h,
            )
            .ok()
        })
}

fn scale_box(b: &Obb<f64>, k: f64) -> Obb<f64> {
    Obb::new(
        b.center.map(|x| x * k),
        b.half_axes.clone().map(|h| h.map(|x| x * k)),
    )
    .unwrap()
}

fn nudge(b: &Obb<f64>, axis: usize, up: bool) -> Obb<f64> {
    let mut c = b.center.clone();
    let x = match axis {
        0 => &mut c.x,
        1 => &mut c.y,
        _ => &mut c.z,
    };
    *x = if up { x.next_up() } else { x.next_down() };
    Obb::new(c, b.half_axes.clone()).unwrap()
}

fn exact_of(b: &Obb<f64>) -> Obb<Q> {
    Obb::new(
        b.center.to_rational(),
        b.half_axes.clone().map(|h| h.to_rational()),
    )
    .unwrap()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(cases(256)))]

    /// f64 and f32 decisions equal the exact decision, at every scale (2^±1000
    /// leaves the filter's safe range and takes the exact path), and one ulp
    /// off a touching configuration.
    #[test]
    fn float_decisions_are_exact(a in f64_box(), b in f64_box(), k in prop_oneof![Just(0i32), Just(-1000), Just(1000), Just(-60), Just(40)], touch in any::<bool>(), axis in 0usize..3, up in any::<bool>()) {
        let s = 2f64.powi(k);
        let (a, mut b) = (scale_box(&a, s), scale_box(&b, s));
        if touch {
            // face-touching copy of a, then one ulp in or out
            let c = a.center.add(&a.half_axes[0].scale(&2.0));
            b = nudge(&Obb::new(c, a.half_axes.clone()).unwrap(), axis, up);
        }
        let exact = box_box::overlaps(&exact_of(&a), &exact_of(&b));
        prop_assert_eq!(box_box::overlaps(&a, &b), exact);
        prop_assert_eq!(box_box::overlaps(&b, &a), exact);
        if k == 0 {
            let f = |o: &Obb<f64>| Obb::new(o.center.map(|x| *x as f32), o.half_axes.clone().map(|h| h.map(|x| *x as f32))).unwrap();
            let (fa, fb) = (f(&a), f(&b)); // rounding to f32 can undo a one-ulp nudge
            let e32 = |o: &Obb<f32>| Obb::new(o.center.to_rational(), o.half_axes.clone().map(|h| h.to_rational())).unwrap();
            prop_assert_eq!(box_box::overlaps(&fa, &fb), box_box::overlaps(&e32(&fa), &e32(&fb)));
            // the float certificate on an exact decision: a separating axis must verify
            if let exact_collision::query::Intersection::Separated { axis } = box_box::intersect(&a, &b) {
                let ax = axis.to_rational();
                let (sa, sb) = (Shape::Box(exact_of(&a)), Shape::Box(exact_of(&b)));
                let (lo_a, hi_a) = exact_collision::query::certificate::extent(&sa, &ax);
                let (lo_b, hi_b) = exact_collision::query::certificate::extent(&sb, &ax);
                prop_assert!(hi_a < lo_b || hi_b < lo_a);
            }
        }
    }
}

#[test]
fn one_ulp_and_1e_minus_30() {
    let v = |x: f64, y: f64, z: f64| Vec3::new(x, y, z);
    let a = Obb::new(v(0., 0., 0.), [v(1., 0., 0.), v(0., 1., 0.), v(0., 0., 1.)]).unwrap();
    let rot = [v(0.6, 0.8, 0.), v(-0.8, 0.6, 0.), v(0., 0., 1.)];
    for (dx, expect) in [
        (2.0f64.next_down(), true),
        (2.0, true),
        (2.0f64.next_up(), false),
    ] {
        let b = Obb::new(v(dx, 0., 0.), a.half_axes.clone()).unwrap();
        assert_eq!(box_box::overlaps(&a, &b), expect, "dx = {dx:e}");
        assert_eq!(box_box::overlaps(&b, &a), expect);
    }
    // 0.6 and 0.8 are not 3/5 and 4/5: only an exact test knows on which side a
    // gap of 1e-30 ends up; compare with the exact rational answer.
    for gap in [1e-30, -1e-30, 0.0] {
        let b = Obb::new(v(1.0 + 1.0 + gap, 0., 0.), rot.clone()).unwrap();
        assert_eq!(
            box_box::overlaps(&a, &b),
            box_box::overlaps(&exact_of(&a), &exact_of(&b))
        );
    }
    // Parallel edges: every edge×edge axis with a_i ∥ b_j is exactly zero.
    let b = Obb::new(
        v(3., 0.5, 0.25),
        [v(1., 0., 0.), v(0., 2., 0.), v(0., 0., 1.)],
    )
    .unwrap();
    assert!(!box_box::overlaps(&a, &b));
    let b = Obb::new(
        v(2., 0.5, 0.25),
        [v(1., 0., 0.), v(0., 2., 0.), v(0., 0., 1.)],
    )
    .unwrap();
    assert!(box_box::overlaps(&a, &b));
}

#[test]
fn exact_path_1e300_coordinates() {
    let a = Obb::new(
        Vec3::new(1e300, 1e300, -1e300),
        [
            Vec3::new(1e299, 0., 0.),
            Vec3::new(0., 1e299, 0.),
            Vec3::new(0., 0., 1e299),
        ],
    )
    .unwrap();
    let b = Obb::new(Vec3::new(1e300 + 2e299, 1e300, -1e300), a.half_axes.clone()).unwrap();
    assert_eq!(
        box_box::overlaps(&a, &b),
        box_box::overlaps(&exact_of(&a), &exact_of(&b))
    );
    let b2 = Obb::new(
        Vec3::new(1e-300, 0., 0.),
        [
            Vec3::new(1e-300, 1e-301, 0.),
            Vec3::new(0., 1e-300, 0.),
            Vec3::new(0., 0., 1e-300),
        ],
    )
    .unwrap();
    let a2 = Obb::new(Vec3::new(-1e-300, 0., 0.), b2.half_axes.clone()).unwrap();
    assert_eq!(
        box_box::overlaps(&a2, &b2),
        box_box::overlaps(&exact_of(&a2), &exact_of(&b2))
    );
    assert!(box_box::overlaps(&a2, &b2)); // they share the face x = 0 region
    let _ = Zero::is_zero(&q(0, 1));
}
