//! Property tests for prism–prism (Nathan's cuboids): the specialised 2.5-D path
//! against the generic polytope path, symmetry, certificates, f64 = exact.

mod box_gen;

use box_gen::*;
use exact_collision::query::{polytope, prism_prism};
use exact_collision::{Prism, Shape, Vec2};
use proptest::prelude::*;

/// Pairs including the hard ones: shared edges, vertex on edge, contained,
/// flat prisms, z ranges nested or touching.
fn prism_pair() -> impl Strategy<Value = (Prism<Q>, Prism<Q>)> {
    prop_oneof![
        (any_prism(), any_prism()),
        // b = a's mirror across one of a's edges (shared edge), new z range
        (any_prism(), 0usize..4, -4i64..4, 0i64..4).prop_map(|(a, i, z, dz)| {
            let (p, r) = (&a.base[i], &a.base[(i + 1) % 4]);
            let mid = Vec2::new((&p.x + &r.x) / q(2, 1), (&p.y + &r.y) / q(2, 1));
            let refl = |x: &Vec2<Q>| Vec2::new(&mid.x * q(2, 1) - &x.x, &mid.y * q(2, 1) - &x.y);
            let b = Prism::new(a.base.clone().map(|x| refl(&x)), q(z, 1), q(z + dz, 1)).unwrap();
            (a, b)
        }),
        // b nested inside a (plan and z)
        any_prism().prop_map(|a| {
            let c = Vec2::new(
                a.base.iter().map(|p| p.x.clone()).sum::<Q>() / q(4, 1),
                a.base.iter().map(|p| p.y.clone()).sum::<Q>() / q(4, 1),
            );
            let shrink = |p: &Vec2<Q>| {
                Vec2::new(
                    &c.x + (&p.x - &c.x) / q(3, 1),
                    &c.y + (&p.y - &c.y) / q(3, 1),
                )
            };
            let zm = (&a.zmin + &a.zmax) / q(2, 1);
            let b = Prism::new(a.base.clone().map(|p| shrink(&p)), zm.clone(), zm).unwrap();
            (a, b)
        }),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(cases(64)))]

    #[test]
    fn prism_path_agrees_with_polytope((a, b) in prism_pair()) {
        let (sa, sb) = (Shape::Prism(a.clone()), Shape::Prism(b.clone()));
        let i = prism_prism::intersect(&a, &b);
        let c = prism_prism::distance(&a, &b);
        check_all(&sa, &sb, &i, &c).map_err(TestCaseError::fail)?;
        prop_assert_eq!(i.intersects(), polytope::intersect(&sa, &sb).intersects());
        prop_assert_eq!(&c.distance_squared, &polytope::distance(&sa, &sb).distance_squared);
        prop_assert_eq!(i.intersects(), prism_prism::intersect(&b, &a).intersects());
        prop_assert_eq!(&c.distance_squared, &prism_prism::distance(&b, &a).distance_squared);
        // the bounding-circle cull never rejects an intersecting pair
        if i.intersects() {
            prop_assert!(!prism_prism::circles_disjoint(&a, &b));
        }
    }

    #[test]
    fn f64_prism_decisions_are_exact((a, b) in prism_pair()) {
        let f = |p: &Prism<Q>| Shape::Prism(p.clone()).convert::<f64>().ok();
        if let (Some(Shape::Prism(fa)), Some(Shape::Prism(fb))) = (f(&a), f(&b)) {
            let ea = Shape::Prism(fa.clone()).to_rational();
            let eb = Shape::Prism(fb.clone()).to_rational();
            prop_assert_eq!(prism_prism::overlaps(&fa, &fb), polytope::intersect(&ea, &eb).intersects());
        }
    }
}

/// Nathan's cuboid note (2014) tests only whether an end of cuboid 1's z range
/// lies in cuboid 2's; the exact prism test must also find the containment
/// the other way round.
#[test]
fn prism_z_overlap_in_both_directions() {
    let sq = |x: f64, z0: f64, z1: f64| {
        Prism::new(
            [
                Vec2::new(x, 0.),
                Vec2::new(x + 1., 0.),
                Vec2::new(x + 1., 1.),
                Vec2::new(x, 1.),
            ],
            z0,
            z1,
        )
        .unwrap()
    };
    // b's z range strictly inside a's: neither of b's end points is in… a's range is in b's.
    assert!(prism_prism::overlaps(&sq(0., 2., 3.), &sq(0.5, 0., 10.)));
    assert!(prism_prism::overlaps(&sq(0.5, 0., 10.), &sq(0., 2., 3.)));
    // touching top to bottom
    assert!(prism_prism::overlaps(&sq(0., 0., 1.), &sq(0.5, 1., 2.)));
    assert!(!prism_prism::overlaps(
        &sq(0., 0., 1.),
        &sq(0.5, 1f64.next_up(), 2.)
    ));
    // flat prisms (zmin = zmax) sharing an edge
    assert!(prism_prism::overlaps(&sq(0., 1., 1.), &sq(1., 1., 1.)));
    assert!(!prism_prism::overlaps(
        &sq(0., 1., 1.),
        &sq(1f64.next_up(), 1., 1.)
    ));
    let d = prism_prism::distance(&sq(0., 0., 0.), &sq(3., 4., 4.));
    assert_eq!(d.distance_squared, 4.0 + 16.0);
}
