//! The float filter of `ccd_vf` / `ccd_ee` never decides differently from the
//! exact method: on generated near-degenerate motions (contacts exactly on an
//! edge or at a vertex, at t = 0, ¼, ½ or 1, always-coplanar motions, parallel
//! edges, then a few ulps off), whenever `points::filter` answers, its answer —
//! hit or miss, and the reported time to the last field — equals
//! `points::exact`'s, and `first_contact_f64` (filter, then the fallback) always
//! equals `points::exact`.
//!
//! `EXACT_HEAVY=1` runs 20× more cases.

mod common;

use exact_collision::ccd::points::{exact, filter, first_contact_f64, Kind};
use exact_collision::ccd::PointCcd;
use exact_collision::Vec3;
use num_rational::BigRational;
use proptest::prelude::*;

fn tol() -> BigRational {
    BigRational::new(1.into(), num_bigint::BigInt::from(10).pow(12))
}

fn to_query(p: &[[f64; 3]; 8]) -> PointCcd {
    let v = |k: usize| {
        let [x, y, z] = p[k].map(|c| BigRational::from_float(c).unwrap());
        Vec3::new(x, y, z)
    };
    PointCcd {
        t0: [v(0), v(1), v(2), v(3)],
        t1: [v(4), v(5), v(6), v(7)],
        tolerance: tol(),
    }
}

fn grid() -> impl Strategy<Value = f64> {
    (-16i32..=16).prop_map(|n| n as f64 / 8.0)
}

fn gpoint() -> impl Strategy<Value = [f64; 3]> {
    [grid(), grid(), grid()]
}

/// Eight grid points (positions at 0, then displacements), then a
/// construction: 0 free; 1 point 0 brought at time τ onto the point at
/// parameter s of the segment from point i to point j (vf: the vertex onto an
/// edge or a vertex of the face; ee: a0 onto b0b1 or a vertex); 2 the same plus
/// an offset into the face; 3 always coplanar (z = 0); 4 points 2, 3 moving
/// parallel to points 0, 1 (ee: parallel edges). Then one coordinate moved a
/// few ulps and everything scaled by a power of two (2¹¹⁰ is beyond the
/// filter's range: the exact method answers).
fn motion() -> impl Strategy<Value = [[f64; 3]; 8]> {
    (
        (
            [gpoint(), gpoint(), gpoint(), gpoint()],
            [gpoint(), gpoint(), gpoint(), gpoint()],
        ),
        0u8..5,
        prop_oneof![Just(0.0), Just(0.25), Just(0.5), Just(1.0), Just(0.375)],
        prop_oneof![Just(0.0), Just(0.5), Just(1.0), Just(0.25)],
        (1usize..4, 1usize..4),
        (0usize..24, prop_oneof![2 => Just(0i32), 1 => -3i32..=3]),
        prop_oneof![3 => Just(0), 1 => -40i32..40, 1 => Just(110)],
    )
        .prop_map(
            |((mut p0, mut d), kind, tau, s, (i, j), (which, ulps), scale)| {
                let at = |k: usize, p0: &[[f64; 3]; 4]| -> [f64; 3] {
                    [0, 1, 2].map(|c| p0[k][c] + tau * d[k][c])
                };
                match kind {
                    1 | 2 => {
                        let (a, b) = (at(i, &p0), at(j, &p0));
                        let mut x = [0, 1, 2].map(|c| a[c] + s * (b[c] - a[c]));
                        if kind == 2 {
                            let o = at(if i != j { 6 - i - j } else { i % 3 + 1 }, &p0);
                            x = [0, 1, 2].map(|c| x[c] + 0.25 * (o[c] - a[c]));
                        }
                        p0[0] = [0, 1, 2].map(|c| x[c] - tau * d[0][c]);
                    }
                    3 => {
                        for k in 0..4 {
                            p0[k][2] = 0.0;
                            d[k][2] = 0.0;
                        }
                    }
                    4 => {
                        p0[2] = [0, 1, 2].map(|c| p0[0][c] + 0.5);
                        p0[3] = [0, 1, 2].map(|c| p0[1][c] + 0.5);
                        d[2] = d[0];
                        d[3] = d[1];
                    }
                    _ => {}
                }
                let mut pts = [[0.0; 3]; 8];
                for k in 0..4 {
                    pts[k] = p0[k];
                    pts[4 + k] = [0, 1, 2].map(|c| p0[k][c] + d[k][c]);
                }
                let c = &mut pts[which / 3][which % 3];
                *c = common::ulps_away(*c, ulps);
                pts.map(|p| p.map(|c| common::scale2(c, scale)))
            },
        )
}

fn check(kind: Kind, pts: &[[f64; 3]; 8]) -> Result<(), TestCaseError> {
    let q = to_query(pts);
    let reference = exact(kind, &q).unwrap();
    let answered = first_contact_f64(kind, pts, &tol()).unwrap();
    prop_assert_eq!(
        &answered,
        &reference,
        "first_contact_f64 vs exact, {:?} {:?}",
        kind,
        pts
    );
    if let Some(f) = filter(kind, pts, &tol()) {
        prop_assert_eq!(&f, &reference, "filter vs exact, {:?} {:?}", kind, pts);
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(if common::heavy() { 20000 } else { 1000 }))]

    #[test]
    fn filter_never_disagrees_with_exact(pts in motion()) {
        check(Kind::VertexFace, &pts)?;
        check(Kind::EdgeEdge, &pts)?;
    }
}

/// The generator reaches the cases it is meant for: the filter decides many,
/// and leaves many (exact contacts on edges, coplanar hits) to the exact method.
#[test]
fn generator_reaches_both_paths() {
    use proptest::strategy::ValueTree;
    let mut runner = proptest::test_runner::TestRunner::deterministic();
    let (mut decided, mut left, mut hits) = (0, 0, 0);
    for _ in 0..300 {
        let pts = motion().new_tree(&mut runner).unwrap().current();
        for kind in [Kind::VertexFace, Kind::EdgeEdge] {
            match filter(kind, &pts, &tol()) {
                Some(a) => {
                    decided += 1;
                    hits += matches!(a, exact_collision::ccd::PointCcdAnswer::Hit(_)) as u32;
                }
                None => left += 1,
            }
        }
    }
    eprintln!("filter decided {decided} of 600 ({hits} hits), {left} left to the exact method");
    assert!(decided > 150, "filter decided {decided} of 600");
    assert!(left > 30, "only {left} of 600 left to the exact method");
    assert!(hits > 20, "only {hits} hits decided by the filter");
}
