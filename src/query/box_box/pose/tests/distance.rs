//! The float-guided distance against the exact path on the exact boxes
//! (`Obb::from_pose` in rationals, `box_box::distance`): on quaternions
//! from random doubles, near the identity, one ulp from a quarter turn, and
//! on matrices; and on hand-worked pairs.

use super::*;
use crate::query::box_box;

/// Whatever `closest` answers is the exact path's answer, value for value;
/// returns whether it answered.
fn check(a: &PoseBox, b: &PoseBox) -> bool {
    let Some(c) = closest(a, b) else {
        return false;
    };
    let (x, y) = (a.to_obb().unwrap(), b.to_obb().unwrap());
    let e = box_box::distance(&x, &y);
    assert_eq!(c, e, "{a:?} {b:?}");
    true
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]

    #[test]
    fn random_quaternions(qa in random_q(), qb in random_q(), ea in ext(), eb in ext(),
                          ca in far_center(), cb in far_center()) {
        check(&pose(qa, ea, ca), &pose(qb, eb, cb));
    }

    #[test]
    fn near_identity_quaternions(qa in near_identity(), qb in near_identity(), ea in ext(),
                                 eb in ext(), ca in far_center(), cb in far_center()) {
        check(&pose(qa, ea, ca), &pose(qb, eb, cb));
    }

    #[test]
    fn quaternions_one_ulp_from_a_quarter_turn(qa in near_quarter_turn(), qb in near_quarter_turn(),
                                               ea in ext(), eb in ext(), ca in far_center(),
                                               cb in far_center()) {
        check(&pose(qa, ea, ca), &pose(qb, eb, cb));
    }

    #[test]
    fn matrices(m in proptest::array::uniform3([-1.0f64..1.0, -1.0f64..1.0, -1.0f64..1.0]),
                qb in random_q(), ea in ext(), eb in ext(), ca in far_center(), cb in far_center()) {
        let a = PoseBox { half_extents: ea, rotation: PoseRotation::Matrix(m), translation: ca };
        let det = m[0][0] * (m[1][1] * m[2][2] - m[1][2] * m[2][1])
            - m[0][1] * (m[1][0] * m[2][2] - m[1][2] * m[2][0])
            + m[0][2] * (m[1][0] * m[2][1] - m[1][1] * m[2][0]);
        prop_assume!(det.abs() > 1e-3);
        check(&a, &pose(qb, eb, cb));
        check(&pose(qb, eb, cb), &a);
    }
}

/// Random apart pairs are mostly answered (the rest: the exact path).
#[test]
fn most_random_apart_pairs_are_answered() {
    let mut seed = 7u64;
    let mut next = |lo: f64, hi: f64| {
        seed = seed
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        lo + (hi - lo) * ((seed >> 11) as f64 / (1u64 << 53) as f64)
    };
    let (mut apart, mut answered) = (0, 0);
    for _ in 0..40 {
        let mut b = || {
            let q = [0; 4].map(|_| next(-1.0, 1.0));
            let e = [0; 3].map(|_| next(0.1, 1.0));
            let c = [0; 3].map(|_| next(-3.0, 3.0));
            pose(q, e, c)
        };
        let (x, y) = (b(), b());
        if box_box::overlaps(&x.to_obb().unwrap(), &y.to_obb().unwrap()) {
            assert!(closest(&x, &y).is_none());
            continue;
        }
        apart += 1;
        answered += check(&x, &y) as usize;
    }
    assert!(answered * 10 >= apart * 9, "{answered} of {apart}");
}

/// Hand-worked pairs: a vertex against a vertex; parallel faces, an edge
/// over a face (ties: many closest pairs) and touching boxes are left to
/// the exact path; generic turns with small integers agree with it.
#[test]
fn hand_worked_pairs() {
    let id = [1.0, 0.0, 0.0, 0.0];
    let q = |n: i64, d: i64| BigRational::new(n.into(), d.into());
    let cube = pose(id, [1.0; 3], [0.0; 3]);
    // The cube turned by (1, 0, 0, 1) (a quarter turn about z, |q|² = 2):
    // still the cube.
    let quarter = pose([1.0, 0.0, 0.0, 1.0], [1.0; 3], [0.0; 3]);
    // Parallel faces 1 apart: many closest pairs, left to the exact path.
    let shifted = pose(id, [1.0; 3], [3.0, 0.0, 0.0]);
    assert!(closest(&cube, &shifted).is_none());
    assert!(closest(&quarter, &shifted).is_none());
    // Touching faces: left to the exact path.
    let touching = pose(id, [1.0; 3], [2.0, 0.0, 0.0]);
    assert!(closest(&cube, &touching).is_none());
    // Vertex against vertex: b at (3, 3, 3), its vertex (2, 2, 2) nearest
    // a's vertex (1, 1, 1): distance² 3.
    let diag = pose(id, [1.0; 3], [3.0, 3.0, 3.0]);
    let c = closest(&quarter, &diag).expect("a proved vertex pair");
    assert_eq!(c.distance_squared, q(3, 1));
    assert_eq!(c.a, Vec3::new(q(1, 1), q(1, 1), q(1, 1)));
    assert_eq!(c.b, Vec3::new(q(2, 1), q(2, 1), q(2, 1)));
    // An edge parallel to a's top face: q = (1, 2, 0, 0) turns about x
    // (cos = −3/5, sin = 4/5, |q|² = 5); at (0, 0, 4) the half-axes are
    // (1, 0, 0), (0, −3/5, 4/5), (0, −4/5, −3/5), the lowest points the edge
    // s1 = −1, s2 = +1 along x at z = 4 − 4/5 − 3/5 = 13/5, over the face
    // z = 1: a tie, left to the exact path.
    let turned = pose([1.0, 2.0, 0.0, 0.0], [1.0; 3], [0.0, 0.0, 4.0]);
    assert!(closest(&cube, &turned).is_none());
    // Generic turns (|q|² = 12 and 25): a unique pair, the exact path's.
    let odd = pose([3.0, 1.0, 1.0, 1.0], [0.5, 0.25, 0.75], [0.5, 0.25, 3.0]);
    assert!(check(&cube, &odd));
    assert!(check(&odd, &cube));
    let skew = pose([4.0, 2.0, 1.0, 2.0], [1.0; 3], [0.0, 3.0, 3.0]);
    assert!(check(&cube, &skew));
    assert!(check(&skew, &cube));
}
