//! The rounded hard-case generators (`cases::rounded`) and `shrink` on
//! rounded lines (spheres, capsules, convex shapes, a `radius`).

use exact_collision::cases::rounded::{generate_rounded, ROUNDED_FAMILIES};
use exact_collision::cases::{Geom, Rng};
use exact_collision::protocol::{answer_value_with, Tolerances};
use exact_collision::shrink::{claim_disagrees, line_len, shrink_claim};
use num_rational::BigRational;
use num_traits::Zero;
use serde_json::Value;
use std::cmp::Ordering;

fn q(x: f64) -> BigRational {
    BigRational::from_float(x).unwrap()
}

fn line(s: &str) -> Value {
    serde_json::from_str(s).unwrap()
}

/// |c_a − c_b|² − (r_a + r_b)², from the doubles (independent of the library's
/// queries): the sign says apart (+), touching (0), overlapping (−).
fn ball_gap_sign(a: &Geom, b: &Geom) -> Ordering {
    let (Geom::Ball { c: ca, r: ra }, Geom::Ball { c: cb, r: rb }) = (a, b) else {
        panic!("two balls")
    };
    let d2: BigRational = (0..3).map(|i| (q(ca[i]) - q(cb[i])).pow(2)).sum();
    let r = q(*ra) + q(*rb);
    d2.cmp(&(&r * &r))
}

#[test]
fn every_rounded_family_gives_proper_answerable_cases() {
    let mut rng = Rng(21);
    for _ in 0..2 {
        for f in ROUNDED_FAMILIES {
            let c = generate_rounded(f, &mut rng);
            assert_eq!(c.family, f);
            assert!(c.proper(), "{f}: {:?}", c);
            let meet = c.intersects().expect("an exact answer");
            // The protocol answers the very line the case writes, the same.
            let a = answer_value_with(&c.query("intersect"), &Tolerances::default())
                .0
                .value;
            assert_eq!(a["intersect"], meet, "{f}: {a}");
        }
    }
}

#[test]
fn ball_ball_cases_touch_exactly_or_are_one_ulp_off() {
    // Over many cases every outcome appears: exactly touching (q = R²),
    // one ulp apart and one ulp overlapping; and the gap is tiny when not 0.
    let mut rng = Rng(5);
    let mut seen = [false; 3];
    for _ in 0..60 {
        let c = generate_rounded("ball_ball", &mut rng);
        let s = ball_gap_sign(&c.a, &c.b);
        seen[(s as i32 + 1) as usize] = true;
        // Touching or overlapping ⇔ the exact intersection test says so.
        assert_eq!(c.intersects(), Some(s != Ordering::Greater), "{:?}", c);
        if s != Ordering::Equal {
            let a = answer_value_with(&c.query("distance"), &Tolerances::default())
                .0
                .value;
            assert!(a["distance_f64"].as_f64().unwrap() < 1e-14, "{a}");
        }
    }
    assert_eq!(seen, [true; 3], "overlapping, touching, apart");
}

#[test]
fn scaled_families_keep_the_decision() {
    // rounded_large / rounded_tiny scale a base case by 2^±40 exactly: the
    // doubles are those of the base scaled, so q and R² scale alike.
    let mut rng = Rng(9);
    for f in ["rounded_large", "rounded_tiny"] {
        for _ in 0..6 {
            let c = generate_rounded(f, &mut rng);
            let s = if f == "rounded_large" {
                2f64.powi(-40)
            } else {
                2f64.powi(40)
            };
            let back = exact_collision::cases::Case {
                family: "base",
                a: c.a.scaled(s),
                b: c.b.scaled(s),
            };
            assert_eq!(c.intersects(), back.intersects(), "{:?}", c);
        }
    }
}

#[test]
fn two_unit_balls_at_distance_2_touch() {
    let l = line(
        r#"{"op":"distance","a":{"type":"sphere","center":[0,0,0],"radius":1},"b":{"type":"sphere","center":[2,0,0],"radius":1}}"#,
    );
    let a = answer_value_with(&l, &Tolerances::default()).0.value;
    // q = 4 = R²: touching, distance √4 − 2 = 0, witness the midpoint.
    assert_eq!(a["intersect"], true, "{a}");
    assert_eq!(a["distance_f64"], 0.0);
    assert_eq!(a["core_distance_squared"], "4");
    assert_eq!(a["radius"], "2");
}

#[test]
fn parallel_capsules_at_gap_3_with_radii_1_are_1_apart() {
    let l = line(
        r#"{"op":"distance","a":{"type":"capsule","a":[0,0,0],"b":[4,0,0],"radius":1},"b":{"type":"capsule","a":[1,3,0],"b":[6,3,0],"radius":1}}"#,
    );
    let a = answer_value_with(&l, &Tolerances::default()).0.value;
    // Axes y = 0 and y = 3 overlapping over x ∈ [1, 4]: q = 9, R = 2, √9 − 2 = 1.
    assert_eq!(a["intersect"], false, "{a}");
    assert_eq!(a["distance_f64"], 1.0);
    assert_eq!(a["core_distance_squared"], "9");
}

#[test]
fn shrink_a_sphere_line_keeps_the_disagreement() {
    // Balls of radii 0.75 and 1.25 with centers 2 apart along (3, 4, 0)/5
    // (offset (1.2, 1.6, 0): not doubles, so exact strings), claimed apart:
    // they touch exactly, q = 4 = R².
    let l = line(
        r#"{"op":"intersect","a":{"type":"sphere","center":[0.3125,-1.0625,7.5],"radius":0.75},"b":{"type":"sphere","center":["1.5125","0.5375","7.5"],"radius":1.25},"claim":{"intersect":false}}"#,
    );
    let tol = Tolerances::default();
    assert!(claim_disagrees(&l, &tol));
    let s = shrink_claim(&l, &tol).unwrap();
    assert!(claim_disagrees(&s, &tol), "{s}");
    assert!(line_len(&s) < line_len(&l), "{s}");
    // Still touching or overlapping (the claim "apart" is wrong).
    let a = answer_value_with(&s, &tol).0.value;
    assert_eq!(a["intersect"], true, "{a}");
}

#[test]
fn shrink_drops_convex_points_and_keeps_the_hull_solid() {
    // A cube's corners and interior points against a sphere well inside it,
    // claimed apart: the sphere (centre (0.5, 0.5, 0.5)) is inside the hull.
    let l = line(
        r#"{"op":"intersect","a":{"type":"convex","points":[[0,0,0],[1,0,0],[0,1,0],[1,1,0],[0,0,1],[1,0,1],[0,1,1],[1,1,1],[0.5,0.5,0.25],[0.25,0.75,0.5]]},"b":{"type":"sphere","center":[0.5,0.5,0.5],"radius":0.125},"claim":{"intersect":false}}"#,
    );
    let tol = Tolerances::default();
    let s = shrink_claim(&l, &tol).unwrap();
    assert!(claim_disagrees(&s, &tol), "{s}");
    let n = s["a"]["points"].as_array().unwrap().len();
    // Fewer points, but still a solid (a flat hull would be another shape):
    // at least 4 points.
    assert!((4..10).contains(&n), "{s}");
    let pts: Vec<_> = s["a"]["points"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| {
            let c: Vec<BigRational> = p
                .as_array()
                .unwrap()
                .iter()
                .map(|x| exact_collision::protocol::number::read_number(x).unwrap())
                .collect();
            exact_collision::Vec3::new(c[0].clone(), c[1].clone(), c[2].clone())
        })
        .collect();
    assert_eq!(exact_collision::hull::convex_hull(&pts).unwrap().dim(), 3);
}

#[test]
fn shrink_drops_a_radius_that_does_not_matter_and_keeps_capsule_segments() {
    // A box grown by 0.3 and a capsule 5 apart from it, claimed touching:
    // wrong with or without the radius, so the radius goes; the capsule's
    // segment stays a segment (a ≠ b).
    let l = line(
        r#"{"op":"intersect","a":{"type":"box","center":[0,0,0],"half_axes":[[1,0,0],[0,1,0],[0,0,1]],"radius":0.3},"b":{"type":"capsule","a":[6.1,0.7,0.3],"b":[6.9,-0.2,0.1],"radius":0.1},"claim":{"intersect":true}}"#,
    );
    let tol = Tolerances::default();
    let s = shrink_claim(&l, &tol).unwrap();
    assert!(claim_disagrees(&s, &tol), "{s}");
    assert!(s["a"].get("radius").is_none(), "{s}");
    assert_ne!(s["b"]["a"], s["b"]["b"], "{s}");
    // Every radius stays ≥ 0 (a negative one is an error, not a smaller case).
    let r = exact_collision::protocol::number::read_number(&s["b"]["radius"]).unwrap();
    assert!(r >= BigRational::zero());
}
