//! Every mixed pair of shape kinds through the dispatch: certificates and the
//! exact minimality certificate verify, a ↔ b symmetry, f64 decisions = exact.

mod box_gen;

use box_gen::*;
use exact_collision::query;
use exact_collision::Shape;
use proptest::prelude::*;

fn both_triangles(a: &Shape<Q>, b: &Shape<Q>) -> bool {
    matches!((a, b), (Shape::Triangle(_), Shape::Triangle(_)))
}

/// b moved to touch a exactly (when b is a box), to reach the boundary cases.
fn maybe_touching(a: Shape<Q>, b: Shape<Q>, touch: bool) -> (Shape<Q>, Shape<Q>) {
    match (&b, touch) {
        (Shape::Box(bb), true) => {
            let t = touching(&a, bb, &q(0, 1));
            (a, Shape::Box(t))
        }
        _ => (a, b),
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(cases(64)))]

    #[test]
    fn mixed_pairs_answer_with_verified_certificates(a in any_shape(), b in any_shape(), touch in any::<bool>()) {
        prop_assume!(!both_triangles(&a, &b));
        let (a, b) = maybe_touching(a, b, touch);
        let i = query::intersect(&a, &b).unwrap();
        let c = query::distance(&a, &b).unwrap();
        check_all(&a, &b, &i, &c).map_err(TestCaseError::fail)?;
        if touch && matches!(b, Shape::Box(_)) {
            prop_assert!(i.intersects(), "moved to touch");
        }
        let ri = query::intersect(&b, &a).unwrap();
        let rc = query::distance(&b, &a).unwrap();
        prop_assert_eq!(ri.intersects(), i.intersects());
        prop_assert_eq!(&rc.distance_squared, &c.distance_squared);
        check_all(&b, &a, &ri, &rc).map_err(TestCaseError::fail)?;
        if let (Some(fa), Some(fb)) = (to_f64_shape(&a), to_f64_shape(&b)) {
            let (ea, eb) = (fa.to_rational(), fb.to_rational());
            let exact = query::intersect(&ea, &eb).unwrap().intersects();
            prop_assert_eq!(query::intersect(&fa, &fb).unwrap().intersects(), exact);
            let fc = query::distance(&fa, &fb).unwrap();
            prop_assert_eq!(fc.distance_squared == 0.0, exact);
        }
    }
}
