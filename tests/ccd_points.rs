//! `ccd_vf` / `ccd_ee` against the ground truth of the CCD benchmark's unit tests
//! (a copy in tests/data/ccd-benchmark, MIT licence; exact rational coordinates). The
//! benchmark counts touching at t in [0, 1] as a hit, as the protocol does.
//! Every query must be answered (the always-coplanar and degenerate ones too), and
//! every reported time is checked independently: its certificate verifies, it is no
//! wider than the tolerance, and the static exact triangle test (a different
//! method: Guigue–Devillers on the positions at a rational time, with the vertex
//! or the edges given as degenerate triangles) finds no contact at rational times
//! before it and finds contact when the time is rational.

use exact_collision::ccd::PointCcd;
use exact_collision::ccd::TimeKind;
use exact_collision::ccd::{ccd_ee, ccd_vf, PointCcdAnswer};
use exact_collision::query::triangle_triangle::intersects;
use exact_collision::{Triangle, Vec3};
use num_bigint::BigInt;
use num_rational::BigRational;

fn load(path: &str) -> Vec<(PointCcd, bool)> {
    let Ok(text) = std::fs::read_to_string(path) else {
        return Vec::new();
    };
    let rows: Vec<(Vec3<BigRational>, bool)> = text
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| {
            let c: Vec<BigInt> = l.split(',').map(|x| x.trim().parse().unwrap()).collect();
            let q = |i: usize| BigRational::new(c[i].clone(), c[i + 1].clone());
            (Vec3::new(q(0), q(2), q(4)), c[6] == BigInt::from(1))
        })
        .collect();
    rows.chunks(8)
        .map(|ch| {
            let p = |i: usize| ch[i].0.clone();
            (
                PointCcd {
                    t0: [p(0), p(1), p(2), p(3)],
                    t1: [p(4), p(5), p(6), p(7)],
                    tolerance: BigRational::new(1.into(), BigInt::from(10).pow(12)),
                },
                ch[0].1,
            )
        })
        .collect()
}

/// Static contact at the rational time `t`, by the triangle test: `vf` is the
/// vertex (a point-triangle) against the face; `ee` the two edges (segment
/// triangles).
fn touches(q: &PointCcd, vf: bool, t: &BigRational) -> bool {
    let p = |i: usize| {
        let (a, b) = (&q.t0[i], &q.t1[i]);
        Vec3::new(
            &a.x + t * (&b.x - &a.x),
            &a.y + t * (&b.y - &a.y),
            &a.z + t * (&b.z - &a.z),
        )
    };
    let (x, y) = if vf {
        (
            Triangle::new([p(0), p(0), p(0)]),
            Triangle::new([p(1), p(2), p(3)]),
        )
    } else {
        (
            Triangle::new([p(0), p(1), p(1)]),
            Triangle::new([p(2), p(3), p(3)]),
        )
    };
    intersects(&x, &y)
}

/// Checks a hit's time against [`touches`]; returns a defect, if any.
fn check_time(q: &PointCcd, vf: bool, a: &PointCcdAnswer) -> Option<String> {
    let zero = BigRational::from_integer(0.into());
    match a {
        PointCcdAnswer::Miss => {
            // No contact at a few rational times (contact sets can be isolated
            // points, so this is a sanity check, not a proof).
            (0..=4)
                .map(|k| BigRational::new(k.into(), 4.into()))
                .find(|t| touches(q, vf, t))
                .map(|t| format!("miss, but contact at t = {t}"))
        }
        PointCcdAnswer::Hit(c) => {
            if c.to_real_root().is_none() {
                return Some(format!("certificate fails: {c:?}"));
            }
            if &c.hi - &c.lo > q.tolerance {
                return Some("interval wider than the tolerance".into());
            }
            if c.kind == TimeKind::Start && (c.lo != zero || !touches(q, vf, &zero)) {
                return Some("start, but no contact at 0".into());
            }
            if c.lo == c.hi && !touches(q, vf, &c.lo) {
                return Some(format!("no contact at the rational time {}", c.lo));
            }
            let half = &c.lo / BigRational::from_integer(2.into());
            let before: Vec<BigRational> = if c.lo == c.hi {
                vec![zero.clone(), half]
            } else {
                vec![zero.clone(), half, c.lo.clone()]
            };
            before
                .into_iter()
                .filter(|t| t < &c.lo || c.lo != c.hi)
                .find(|t| touches(q, vf, t))
                .map(|t| format!("contact at t = {t}, before the reported time {}", c.lo))
        }
    }
}

fn run(
    set: &str,
    dir: &str,
    f: fn(&PointCcd) -> Result<PointCcdAnswer, exact_collision::query::QueryError>,
) {
    let base = format!(
        "{}/tests/data/ccd-benchmark/{set}",
        env!("CARGO_MANIFEST_DIR")
    );
    let mut n = 0;
    let mut agree = 0;
    let mut unanswered = 0;
    let mut disagree = Vec::new();
    for file in ["data_0_0.csv", "data_0_1.csv"] {
        for (i, (q, truth)) in load(&format!("{base}/{dir}/{file}"))
            .into_iter()
            .enumerate()
        {
            n += 1;
            match f(&q) {
                Ok(a) => {
                    if let Some(defect) = check_time(&q, dir == "vertex-face", &a) {
                        disagree.push(format!("{file}#{i}: {defect}"));
                        continue;
                    }
                    let hit = matches!(a, PointCcdAnswer::Hit(_));
                    if hit == truth {
                        agree += 1;
                    } else {
                        disagree.push(format!("{file}#{i}: ours {hit}, truth {truth}"));
                    }
                }
                Err(_) => unanswered += 1,
            }
        }
    }
    eprintln!(
        "{set}/{dir}: {n} queries, {agree} agree, {} disagree, {unanswered} not answered",
        disagree.len()
    );
    for d in &disagree {
        eprintln!("  {d}");
    }
    if n > 0 {
        assert!(disagree.is_empty(), "{dir}: disagreements {disagree:?}");
        assert_eq!(unanswered, 0, "{dir}: unanswered queries");
        assert_eq!(agree, n);
    }
}

#[test]
fn vertex_face_unit_tests_match_ground_truth() {
    run("unit-tests", "vertex-face", ccd_vf);
}

#[test]
fn edge_edge_unit_tests_match_ground_truth() {
    run("unit-tests", "edge-edge", ccd_ee);
}

#[test]
fn vertex_face_sliding_spike_match_ground_truth() {
    run("erleben-sliding-spike", "vertex-face", ccd_vf);
}

#[test]
fn edge_edge_sliding_spike_match_ground_truth() {
    run("erleben-sliding-spike", "edge-edge", ccd_ee);
}
