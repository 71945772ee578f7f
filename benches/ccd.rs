//! CCD benchmarks: Albocher et al.'s three examples and a random workload of rotating
//! boxes (degree-1 quaternion curves, both boxes moving), exact and certified.
//!
//! cargo bench --bench ccd
//! cargo bench --features parry --bench ccd   (adds parry3d's cast_shapes_nonlinear on
//!                                             a comparable rotating workload)

use criterion::{black_box, criterion_group, criterion_main, Criterion};
use exact_collision::ccd::{ccd, ccd_f64};
use exact_collision::demo::{CCD_DEGREE2_ENTRY_EXIT, CCD_DEGREE4_MISS, CCD_LINEAR_EQ6};

#[path = "common/rotating.rs"]
mod rotating;
use rotating::{query, random_rotating};
#[cfg(feature = "parry")]
use rotating::{random_pairs, Side};

/// parry3d's comparable motion for a side: the same poses at t = 0 and t = 1,
/// joined by a constant linear and angular velocity (parry cannot follow a
/// quaternion curve, so the poses in between differ; the workload is comparable,
/// not identical).
#[cfg(feature = "parry")]
fn parry_motion(s: &Side) -> parry3d::query::NonlinearRigidMotion {
    use parry3d::math::{Pose, Rot3, Vec3};
    let quat = |t: i64| {
        let c = |i: usize| (s.q[i][0] + t * s.q[i][1]) as f32;
        Rot3::from_xyzw(c(1), c(2), c(3), c(0)).normalize()
    };
    let (r0, r1) = (quat(0), quat(1));
    let (axis, angle) = (r1 * r0.inverse()).to_axis_angle();
    let p = |k: usize| Vec3::new(s.tr[0][k] as f32, s.tr[1][k] as f32, s.tr[2][k] as f32);
    let start = Pose::from_parts(p(0), r0);
    parry3d::query::NonlinearRigidMotion::new(start, Vec3::ZERO, p(1), axis * angle)
}

fn bench(c: &mut Criterion) {
    for (name, src) in [
        ("linear_eq6", CCD_LINEAR_EQ6),
        ("degree2_entry_exit", CCD_DEGREE2_ENTRY_EXIT),
        ("degree4_miss", CCD_DEGREE4_MISS),
    ] {
        let q = query(&serde_json::from_str(src).unwrap());
        c.bench_function(name, |b| b.iter(|| ccd(black_box(&q)).unwrap()));
        c.bench_function(&format!("{name}_f64"), |b| {
            b.iter(|| ccd_f64(black_box(&q)).unwrap())
        });
    }
    let qs = random_rotating(64);
    c.bench_function("random_rotating_pairs_64", |b| {
        b.iter(|| {
            for q in &qs {
                black_box(ccd(q).unwrap());
            }
        })
    });
    c.bench_function("random_rotating_pairs_64_f64", |b| {
        b.iter(|| {
            for q in &qs {
                black_box(ccd_f64(q).unwrap());
            }
        })
    });
    #[cfg(feature = "parry")]
    {
        use parry3d::shape::Cuboid;
        let pairs = random_pairs(64);
        let parry: Vec<_> = pairs
            .iter()
            .map(|((a, b), _)| {
                let cub = |s: &Side| {
                    Cuboid::new(parry3d::math::Vec3::new(
                        s.e[0] as f32,
                        s.e[1] as f32,
                        s.e[2] as f32,
                    ))
                };
                (parry_motion(a), cub(a), parry_motion(b), cub(b))
            })
            .collect();
        // Hit/miss agreement on this comparable (not identical) workload.
        let ours: Vec<bool> = pairs
            .iter()
            .map(|(_, q)| matches!(ccd(q).unwrap(), exact_collision::ccd::CcdAnswer::Hit { .. }))
            .collect();
        let theirs: Vec<bool> = parry
            .iter()
            .map(|(ma, ca, mb, cb)| {
                parry3d::query::cast_shapes_nonlinear(ma, ca, mb, cb, 0.0, 1.0, true)
                    .unwrap()
                    .is_some()
            })
            .collect();
        eprintln!(
            "random rotating pairs: {} pairs; hits: ours {}, parry3d {} (poses agree at t = 0 and 1 only)",
            pairs.len(),
            ours.iter().filter(|&&h| h).count(),
            theirs.iter().filter(|&&h| h).count()
        );
        c.bench_function("random_rotating_pairs_64_parry3d", |b| {
            b.iter(|| {
                for (ma, ca, mb, cb) in &parry {
                    black_box(
                        parry3d::query::cast_shapes_nonlinear(ma, ca, mb, cb, 0.0, 1.0, true)
                            .unwrap(),
                    );
                }
            })
        });
    }
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(10).measurement_time(std::time::Duration::from_secs(3));
    targets = bench
}
criterion_main!(benches);
