//! Box–box benchmarks on one set of random f64 pairs (about half intersecting):
//! the crate's exact decision, a plain-float 15-axis SAT (same formula, no
//! error bound: not exact), parry3d's cuboid–cuboid `intersection_test`; exact
//! squared distance against parry3d's float `distance`.
//!
//! Run: `cargo bench --features parry --bench boxes`. The exact-fallback rate is printed.

use criterion::{black_box, criterion_group, criterion_main, Criterion};
use exact_collision::query::box_box;
use exact_collision::{Obb, Vec3};
use parry3d::math::{Mat3, Pose, Rot3, Vec3 as PVec3};
use parry3d::shape::Cuboid;

struct Case {
    a: Obb<f64>,
    b: Obb<f64>,
    pa: Pose,
    pb: Pose,
    ca: Cuboid,
    cb: Cuboid,
}

fn cases() -> Vec<Case> {
    let mut s = 0x1234_5678_9abc_def0u64;
    let mut r = move || {
        s ^= s << 13;
        s ^= s >> 7;
        s ^= s << 17;
        (s >> 11) as f64 / (1u64 << 53) as f64
    };
    (0..1024)
        .map(|_| {
            let mut mk = |spread: f64| {
                let axis = PVec3::new(r() as f32 - 0.5, r() as f32 - 0.5, r() as f32 - 0.5 + 1e-3)
                    .normalize();
                let q = Rot3::from_axis_angle(axis, (r() * 6.3) as f32);
                let m = Mat3::from_quat(q);
                let cols = [m.x_axis, m.y_axis, m.z_axis];
                let e = [0.5 + r(), 0.5 + r(), 0.5 + r()];
                let c = [r() * spread, r() * spread, r() * spread];
                let h: [Vec3<f64>; 3] = std::array::from_fn(|i| {
                    let col = cols[i];
                    Vec3::new(
                        col.x as f64 * e[i],
                        col.y as f64 * e[i],
                        col.z as f64 * e[i],
                    )
                });
                let obb = Obb::new(Vec3::new(c[0], c[1], c[2]), h).unwrap();
                let iso = Pose::from_parts(PVec3::new(c[0] as f32, c[1] as f32, c[2] as f32), q);
                (
                    obb,
                    iso,
                    Cuboid::new(PVec3::new(e[0] as f32, e[1] as f32, e[2] as f32)),
                )
            };
            let (a, pa, ca) = mk(0.0);
            let (b, pb, cb) = mk(3.0);
            Case {
                a,
                b,
                pa,
                pb,
                ca,
                cb,
            }
        })
        .collect()
}

/// The plain-float 15-axis SAT (same formula as the exact test, no filter).
fn plain_sat(a: &Obb<f64>, b: &Obb<f64>) -> bool {
    let f = |p: &Vec3<f64>| [p.x, p.y, p.z];
    let ha = a.half_axes.each_ref().map(f);
    let hb = b.half_axes.each_ref().map(f);
    let (ca, cb) = (f(&a.center), f(&b.center));
    let t = [cb[0] - ca[0], cb[1] - ca[1], cb[2] - ca[2]];
    let cross = |u: &[f64; 3], v: &[f64; 3]| {
        [
            u[1] * v[2] - u[2] * v[1],
            u[2] * v[0] - u[0] * v[2],
            u[0] * v[1] - u[1] * v[0],
        ]
    };
    let dot = |u: &[f64; 3], v: &[f64; 3]| u[0] * v[0] + u[1] * v[1] + u[2] * v[2];
    for k in 0..15 {
        let (u, v) = match k {
            0..=2 => (&ha[(k + 1) % 3], &ha[(k + 2) % 3]),
            3..=5 => (&hb[(k - 2) % 3], &hb[(k - 1) % 3]),
            _ => (&ha[(k - 6) / 3], &hb[(k - 6) % 3]),
        };
        let l = cross(u, v);
        let mut g = dot(&l, &t).abs();
        for h in ha.iter().chain(hb.iter()) {
            g -= dot(&l, h).abs();
        }
        if g > 0.0 {
            return false;
        }
    }
    true
}

fn bench(c: &mut Criterion) {
    let cs = cases();
    let hits = cs.iter().filter(|x| box_box::overlaps(&x.a, &x.b)).count();
    let f0 = box_box::filter_failures();
    let e0 = exact_collision::predicates::exact_evaluations();
    let mut g = c.benchmark_group("box_box_intersect");
    g.bench_function("exact_decision_f64", |bn| {
        bn.iter(|| {
            cs.iter()
                .filter(|x| box_box::overlaps(black_box(&x.a), black_box(&x.b)))
                .count()
        })
    });
    g.bench_function("plain_float_sat", |bn| {
        bn.iter(|| {
            cs.iter()
                .filter(|x| plain_sat(black_box(&x.a), black_box(&x.b)))
                .count()
        })
    });
    g.bench_function("parry3d_intersection_test", |bn| {
        bn.iter(|| {
            cs.iter()
                .filter(|x| {
                    parry3d::query::intersection_test(&x.pa, &x.ca, &x.pb, &x.cb)
                        .unwrap()
                        .intersecting
                })
                .count()
        })
    });
    g.finish();
    let mut g = c.benchmark_group("box_box_distance");
    g.sample_size(10);
    let few = &cs[..64];
    g.bench_function("exact_distance_squared_f64_inputs", |bn| {
        bn.iter(|| {
            few.iter()
                .map(|x| box_box::distance(black_box(&x.a), black_box(&x.b)).distance_squared)
                .sum::<f64>()
        })
    });
    g.bench_function("parry3d_distance", |bn| {
        bn.iter(|| {
            few.iter()
                .map(|x| {
                    parry3d::query::distance(&x.pa, &x.ca, &x.pb, &x.cb)
                        .unwrap()
                        .distance
                })
                .sum::<f32>()
        })
    });
    g.finish();
    println!(
        "pairs: {} ({} intersecting); per batch of {} calls: filter failures total {} , exact (big-number) evaluations {}",
        cs.len(),
        hits,
        cs.len(),
        box_box::filter_failures() - f0,
        exact_collision::predicates::exact_evaluations() - e0
    );
}

criterion_group!(benches, bench);
criterion_main!(benches);
