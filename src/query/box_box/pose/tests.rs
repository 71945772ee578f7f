//! The filter's decisions against the exact path on the exact boxes
//! (`Obb::from_pose` in rationals, `box_box::separating_axis_index`,
//! `Obb::contains`), on quaternions from random doubles, near the identity
//! and one ulp from a quarter turn, and on matrices.

use super::*;
use crate::query::box_box::separating_axis_index;
use crate::query::polytope::Polytope;
use crate::shape::Shape;
use proptest::prelude::*;

fn exact(p: &PoseBox) -> Obb<BigRational> {
    p.to_obb().unwrap()
}

/// Whatever the filter decides is the exact path's decision; returns whether
/// it decided.
fn check(a: &PoseBox, b: &PoseBox) -> bool {
    let (x, y) = (exact(a), exact(b));
    let k = separating_axis_index(&x, &y);
    match decide(a, b) {
        None => false,
        Some(PoseDecision::Separated(j)) => {
            assert_eq!(Some(j), k, "{a:?} {b:?}");
            true
        }
        Some(PoseDecision::CenterOf(of_a)) => {
            assert_eq!(k, None, "{a:?} {b:?}");
            let in_b = y.contains(&x.center);
            assert_eq!(in_b, of_a, "{a:?} {b:?}");
            if !of_a {
                assert!(x.contains(&y.center), "{a:?} {b:?}");
            }
            true
        }
        Some(PoseDecision::VertexOf(of_a, i)) => {
            assert_eq!(k, None, "{a:?} {b:?}");
            assert!(
                !y.contains(&x.center) && !x.contains(&y.center),
                "{a:?} {b:?}"
            );
            let (p, q) = if of_a { (&x, &y) } else { (&y, &x) };
            assert!(q.contains(&p.vertex(i)), "{a:?} {b:?}");
            assert!((0..i).all(|j| !q.contains(&p.vertex(j))), "{a:?} {b:?}");
            if !of_a {
                assert!((0..8).all(|j| !y.contains(&x.vertex(j))), "{a:?} {b:?}");
            }
            true
        }
        Some(PoseDecision::Crossing) => {
            assert_eq!(k, None, "{a:?} {b:?}");
            assert!((0..8).all(|j| !y.contains(&x.vertex(j))), "{a:?} {b:?}");
            assert!((0..8).all(|j| !x.contains(&y.vertex(j))), "{a:?} {b:?}");
            // The crossing (when found) is the exhaustive search's witness.
            let (pa, pb) = (
                Polytope::new(&Shape::Box(x.clone())),
                Polytope::new(&Shape::Box(y.clone())),
            );
            let w = crate::query::polytope::witness(&pa, &pb);
            if let Some(c) = crossing_witness(a, b) {
                assert_eq!(Some(c), w, "{a:?} {b:?}");
            }
            true
        }
    }
}

fn pose(q: [f64; 4], e: [f64; 3], c: [f64; 3]) -> PoseBox {
    PoseBox {
        half_extents: e,
        rotation: PoseRotation::Quaternion(q),
        translation: c,
    }
}

fn ext() -> impl Strategy<Value = [f64; 3]> {
    [0.1f64..1.0, 0.1f64..1.0, 0.1f64..1.0]
}

fn center() -> impl Strategy<Value = [f64; 3]> {
    [-1.5f64..1.5, -1.5f64..1.5, -1.5f64..1.5]
}

/// Centers spread enough that most pairs are apart.
fn far_center() -> impl Strategy<Value = [f64; 3]> {
    [-3.0f64..3.0, -3.0f64..3.0, -3.0f64..3.0]
}

fn random_q() -> impl Strategy<Value = [f64; 4]> {
    [-1.0f64..1.0, -1.0f64..1.0, -1.0f64..1.0, -1.0f64..1.0]
        .prop_filter("nonzero", |q| q.iter().any(|x| x.abs() > 1e-3))
}

/// (1, δ, δ, δ) with tiny δ, some exactly zero.
fn near_identity() -> impl Strategy<Value = [f64; 4]> {
    let tiny = prop_oneof![Just(0.0), -1e-9f64..1e-9, -1e-200f64..1e-200];
    (tiny.clone(), tiny.clone(), tiny).prop_map(|(x, y, z)| [1.0, x, y, z])
}

/// A quarter turn about an axis, each component moved by at most one ulp.
fn near_quarter_turn() -> impl Strategy<Value = [f64; 4]> {
    let s = std::f64::consts::FRAC_1_SQRT_2;
    let nudge = |x: f64, n: u8| match n % 3 {
        0 => x,
        1 => x.next_up(),
        _ => x.next_down(),
    };
    (0usize..3, any::<[u8; 4]>(), any::<bool>()).prop_map(move |(axis, n, unit)| {
        let (w, v) = if unit { (s, s) } else { (1.0, 1.0) };
        let mut q = [w, 0.0, 0.0, 0.0];
        q[1 + axis] = v;
        [0, 1, 2, 3].map(|i| nudge(q[i], n[i]))
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    #[test]
    fn random_quaternions(qa in random_q(), qb in random_q(), ea in ext(), eb in ext(),
                          ca in center(), cb in center()) {
        check(&pose(qa, ea, ca), &pose(qb, eb, cb));
    }

    #[test]
    fn near_identity_quaternions(qa in near_identity(), qb in near_identity(), ea in ext(),
                                 eb in ext(), ca in center(), cb in center()) {
        check(&pose(qa, ea, ca), &pose(qb, eb, cb));
    }

    #[test]
    fn quaternions_one_ulp_from_a_quarter_turn(qa in near_quarter_turn(), qb in near_quarter_turn(),
                                               ea in ext(), eb in ext(), ca in center(),
                                               cb in center()) {
        check(&pose(qa, ea, ca), &pose(qb, eb, cb));
    }

    #[test]
    fn matrices(m in proptest::array::uniform3([-1.0f64..1.0, -1.0f64..1.0, -1.0f64..1.0]),
                qb in random_q(), ea in ext(), eb in ext(), ca in center(), cb in center()) {
        let a = PoseBox { half_extents: ea, rotation: PoseRotation::Matrix(m), translation: ca };
        let det = m[0][0] * (m[1][1] * m[2][2] - m[1][2] * m[2][1])
            - m[0][1] * (m[1][0] * m[2][2] - m[1][2] * m[2][0])
            + m[0][2] * (m[1][0] * m[2][1] - m[1][1] * m[2][0]);
        prop_assume!(det.abs() > 1e-3);
        check(&a, &pose(qb, eb, cb));
    }
}

/// Random pairs are mostly decided (apart, or a center or vertex inside the
/// other box; the rest need an edge–face witness or touch).
#[test]
fn most_random_pairs_are_decided() {
    let mut seed = 99u64;
    let mut next = |lo: f64, hi: f64| {
        seed = seed
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        lo + (hi - lo) * ((seed >> 11) as f64 / (1u64 << 53) as f64)
    };
    let mut decided = 0;
    for _ in 0..200 {
        let mut b = || {
            let q = [0; 4].map(|_| next(-1.0, 1.0));
            let e = [0; 3].map(|_| next(0.1, 1.0));
            let c = [0; 3].map(|_| next(-1.0, 1.0));
            pose(q, e, c)
        };
        let (x, y) = (b(), b());
        decided += check(&x, &y) as usize;
    }
    assert!(decided >= 180, "{decided} of 200");
}

/// Boxes that touch (a face on a face) or whose centers lie on the other's
/// face are left to the exact path unless every quantity is exact;
/// identical axis-aligned boxes are decided (parallel axes exactly zero).
#[test]
fn touching_pairs_are_left_to_the_exact_path() {
    let id = [1.0, 0.0, 0.0, 0.0];
    let a = pose(id, [1.0, 1.0, 1.0], [0.0; 3]);
    let touching = pose([2.0, 0.0, 0.0, 0.0], [1.0, 1.0, 1.0], [2.0, 0.0, 0.0]);
    // Every quantity here is computed exactly (zero bounds), so even the
    // touching pair is decided: the gap along x is exactly 0, and a's
    // vertex 1 = (1, −1, −1) lies on b's face.
    assert_eq!(decide(&a, &touching), Some(PoseDecision::VertexOf(true, 1)));
    assert!(check(&a, &touching));
    // Touching with an inexact rotation (q = (1, 1e-3, 0, 0), |q|² not a
    // power of two) is left to the exact path.
    let tilted = pose([1.0, 1e-3, 0.0, 0.0], [1.0, 1.0, 1.0], [2.0, 0.0, 0.0]);
    assert_eq!(decide(&a, &tilted), None);
    let apart = pose(id, [1.0, 1.0, 1.0], [2.5, 0.0, 0.0]);
    assert_eq!(decide(&a, &apart), Some(PoseDecision::Separated(0)));
    assert_eq!(decide(&a, &a), Some(PoseDecision::CenterOf(true)));
    // A small box whose center lies inside a, a's center outside it.
    let small = pose(id, [0.5, 0.5, 0.5], [0.75, 0.0, 0.0]);
    assert_eq!(decide(&small, &a), Some(PoseDecision::CenterOf(true)));
    assert_eq!(decide(&a, &small), Some(PoseDecision::CenterOf(false)));
    // Its center on a's face: inside (closed boxes), decided exactly.
    let on_face = pose(id, [0.5, 0.5, 0.5], [1.0, 0.0, 0.0]);
    assert_eq!(decide(&a, &on_face), Some(PoseDecision::CenterOf(false)));
    assert!(check(&a, &on_face));
    // Neither center inside the other box, a's vertex 7 (+h0 +h1 +h2) in b.
    let corner = pose(id, [1.0, 1.0, 1.0], [1.5, 1.5, 1.5]);
    assert_eq!(decide(&a, &corner), Some(PoseDecision::VertexOf(true, 7)));
    assert_eq!(decide(&corner, &a), Some(PoseDecision::VertexOf(true, 0)));
    // A quarter turn about z by (1, 0, 0, 1), |q|² = 2: the box [−1, 1]×[−2, 2]
    // becomes [−2, 2]×[−1, 1]; at x = 4.5 a box of half-width 2 is 0.5 away.
    let turned = pose([1.0, 0.0, 0.0, 1.0], [1.0, 2.0, 1.0], [0.0; 3]);
    let other = pose(id, [2.0, 1.0, 1.0], [4.5, 0.0, 0.0]);
    assert_eq!(decide(&turned, &other), Some(PoseDecision::Separated(1)));
    // A box around x = 1.5 meets it, its center inside the turned box.
    let closer = pose(id, [1.0, 0.5, 0.5], [1.5, 0.0, 0.0]);
    assert_eq!(
        decide(&turned, &closer),
        Some(PoseDecision::CenterOf(false))
    );
    // Zero or negative half-extents, a zero quaternion, a singular matrix: not decided.
    assert_eq!(decide(&pose(id, [0.0, 1.0, 1.0], [0.0; 3]), &a), None);
    assert_eq!(decide(&pose([0.0; 4], [1.0; 3], [0.0; 3]), &a), None);
    let flat = PoseBox {
        half_extents: [1.0; 3],
        rotation: PoseRotation::Matrix([[1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 0.0]]),
        translation: [0.0; 3],
    };
    assert_eq!(decide(&flat, &a), None);
}

/// Overlapping boxes with neither center nor any vertex inside the other (b
/// turned by about 45° about z, half-extents (1, 1, 2), at x = 1.9: its
/// vertical edge nearest a crosses a's faces z = ±1): the witness is the
/// exhaustive search's first edge–face crossing.
#[test]
fn crossing_witness_is_the_exhaustive_ones() {
    let (c, s) = (
        (std::f64::consts::PI / 8.0).cos(),
        (std::f64::consts::PI / 8.0).sin(),
    );
    let a = pose([1.0, 0.0, 0.0, 0.0], [1.0; 3], [0.0; 3]);
    let b = pose([c, 0.0, 0.0, s], [1.0, 1.0, 2.0], [1.9, 0.0, 0.0]);
    for (x, y) in [(&a, &b), (&b, &a)] {
        assert_eq!(decide(x, y), Some(PoseDecision::Crossing));
        assert!(crossing_witness(x, y).is_some());
        assert!(check(x, y));
    }
}

/// The filter's pretest never calls an exact product of doubles inexact:
/// whenever the FMA residual of a·b is zero (a normal, finite product),
/// the odd parts of the significands have at most 54 bits together; on
/// doubles with random significands cut to random lengths.
#[test]
fn odd_bits_never_hides_an_exact_product() {
    let mut seed = 0x853c_49e6_748f_ea9bu64;
    let mut next = || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    };
    let mut exact = 0;
    for _ in 0..200_000 {
        let mut x = || {
            let keep = next() % 54;
            let m = (next() >> 11) | (1 << 52);
            let m = m >> (52 - keep.min(52)) << (52 - keep.min(52));
            let e = (next() % 200) as i32 - 100;
            let v = m as f64 * 2f64.powi(e - 52);
            if next() % 2 == 0 {
                -v
            } else {
                v
            }
        };
        let (a, b) = (x(), x());
        let p = a * b;
        if p.is_finite() && p.abs() >= TINY && a.mul_add(b, -p) == 0.0 {
            exact += 1;
            assert!(odd_bits(a) + odd_bits(b) <= 54, "{a:e} {b:e}");
        }
    }
    assert!(exact > 10_000, "{exact}");
}

/// The a-priori bound of [`quaternion_matrix_inexact`] holds: every entry
/// and |q|² lie within it of their exact values (in rationals, the test
/// cases' own construction), on random quaternions at unit scale, with
/// products that underflow (components near 1e-160, whose squares are
/// subnormal) or mixed scales; the shortcut is refused when a component
/// has fewer than 28 odd bits (zero, a short significand, a quarter-turn
/// pose's exact entries), taken at exactly 28; an overflow decides no sign.
#[test]
fn inexact_quaternion_matrix_bound_holds() {
    use num_traits::Signed;
    let mut seed = 0x9e37_79b9_7f4a_7c15u64;
    let mut next = || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    };
    let q = |x: f64| x.to_rational();
    let within = |z: &Z, exact: &BigRational| {
        assert!(z.0.e > 0.0 && z.0.e.is_finite());
        (q(z.0.v) - exact).abs() <= q(z.0.e)
    };
    let mut checked = 0;
    for round in 0..3000 {
        let scale = [1.0, 1e-160, 1e150][round % 3];
        let c = [0; 4].map(|_| {
            let u = (next() >> 11) as f64 / (1u64 << 53) as f64 * 2.0 - 1.0;
            // Mixed scales on some rounds: one component much smaller.
            u * scale
        });
        let c = if round % 7 == 0 {
            [c[0], c[1] * 1e-9, c[2], c[3]]
        } else {
            c
        };
        let Some((qq, m)) = quaternion_matrix_inexact(c) else {
            assert!(c.iter().any(|x| odd_bits(*x) < 28), "{c:?}");
            continue;
        };
        let (exact_m, n2) = crate::cases::rot_scaled(&c);
        assert!(within(&qq, &n2), "{c:?}");
        for i in 0..3 {
            for j in 0..3 {
                assert!(within(&m[i][j], &exact_m[i][j]), "{c:?} {i} {j}");
            }
        }
        checked += 1;
    }
    assert!(checked > 2900, "{checked}");
    // Components with short odd parts keep the running, exact-aware path.
    let s = std::f64::consts::FRAC_1_SQRT_2;
    for c in [
        [1.0, 0.0, 0.0, 0.0],
        [s, s.next_up(), 0.0, 0.0],
        [0.5, 0.5, 0.5, 0.5],
        [0.3, 0.1, 0.7, 1.0 + 1.0 / (1u64 << 20) as f64],
    ] {
        assert_eq!(quaternion_matrix_inexact(c).map(|_| ()), None, "{c:?}");
    }
    // 27 odd bits refuse, 28 take the shortcut.
    let bits = |b: u32| ((1u64 << (b - 1)) | 1) as f64 / (1u64 << 40) as f64;
    assert_eq!(odd_bits(bits(27)), 27);
    let base = [0.3, 0.1, 0.7];
    let with = |x: f64| [x, base[0], base[1], base[2]];
    assert!(quaternion_matrix_inexact(with(bits(27))).is_none());
    let (qq, m) = quaternion_matrix_inexact(with(bits(28))).expect("28 odd bits");
    let (exact_m, n2) = crate::cases::rot_scaled(&with(bits(28)));
    assert!(within(&qq, &n2));
    assert!(within(&m[2][1], &exact_m[2][1]));
    // Squares past the doubles' range: no sign is decided.
    let (qq, m) =
        quaternion_matrix_inexact([0.3 * 2f64.powi(700), 0.3, 0.1, 0.7]).expect("long odd parts");
    assert_eq!(qq.sign(), None);
    assert!(m.iter().flatten().all(|z| z.sign().is_none()));
}

mod distance;
