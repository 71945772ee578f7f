//! Rounded shapes, ours against parry3d-f64 `query::distance` on the same
//! prebuilt shapes and the same random inputs (those of
//! `scripts/gen_rounded_throughput.py`: centers in [−3, 3]³, box extents in
//! [0.1, 1] with a random rotation, capsule end points within 1 of a center,
//! radii in [0.1, 1] and [0.1, 0.5]): capsule–capsule, sphere–box and
//! capsule–triangle distance, ours [`rounded::distance_f64`] (the correctly
//! rounded distance, decided exactly) and the exact answer
//! [`rounded::distance_exact_f64`] (the cores' exact closest pair).
//!
//! Run: `cargo bench --features parry --bench rounded`. The share of answers
//! the float-guided path left to the exact path is printed.

use criterion::{black_box, criterion_group, Criterion};
use exact_collision::query::rounded;
use exact_collision::shape::Rounded;
use exact_collision::stats;
use exact_collision::{Obb, Shape, Triangle, Vec3};
use parry3d_f64::math::{Mat3, Pose, Rot3, Vec3 as PVec3};
use parry3d_f64::shape::{Ball, Capsule, Cuboid, Shape as PShape, Triangle as PTriangle};

/// One shape on both sides.
struct Both {
    ours: Rounded<f64>,
    pose: Pose,
    theirs: Box<dyn PShape>,
}

struct Gen(u64);
impl Gen {
    fn f(&mut self) -> f64 {
        let s = &mut self.0;
        *s ^= *s << 13;
        *s ^= *s >> 7;
        *s ^= *s << 17;
        (*s >> 11) as f64 / (1u64 << 53) as f64
    }
    fn u(&mut self, lo: f64, hi: f64) -> f64 {
        lo + (hi - lo) * self.f()
    }
    fn p(&mut self, s: f64) -> [f64; 3] {
        [self.u(-s, s), self.u(-s, s), self.u(-s, s)]
    }
}

fn v(p: [f64; 3]) -> Vec3<f64> {
    Vec3::new(p[0], p[1], p[2])
}
fn pv(p: [f64; 3]) -> PVec3 {
    PVec3::new(p[0], p[1], p[2])
}
fn id() -> Pose {
    Pose::translation(0.0, 0.0, 0.0)
}

fn sphere(g: &mut Gen) -> Both {
    let c = g.p(3.0);
    let r = g.u(0.1, 1.0);
    Both {
        ours: Rounded::sphere(v(c), r).unwrap(),
        pose: Pose::translation(c[0], c[1], c[2]),
        theirs: Box::new(Ball::new(r)),
    }
}
fn capsule(g: &mut Gen) -> Both {
    let c = g.p(3.0);
    let a = c.map(|x| x + g.u(-1.0, 1.0));
    let b = c.map(|x| x + g.u(-1.0, 1.0));
    let r = g.u(0.1, 0.5);
    Both {
        ours: Rounded::capsule(v(a), v(b), r).unwrap(),
        pose: id(),
        theirs: Box::new(Capsule::new(pv(a), pv(b), r)),
    }
}
fn triangle(g: &mut Gen) -> Both {
    let c = g.p(3.0);
    let t: [[f64; 3]; 3] = std::array::from_fn(|_| c.map(|x| x + g.u(-1.0, 1.0)));
    Both {
        ours: Rounded::new(Shape::Triangle(Triangle::new(t.map(v))), 0.0).unwrap(),
        pose: id(),
        theirs: Box::new(PTriangle::new(pv(t[0]), pv(t[1]), pv(t[2]))),
    }
}
fn cuboid(g: &mut Gen) -> Both {
    let axis = PVec3::new(g.f() - 0.5, g.f() - 0.5, g.f() - 0.5 + 1e-3).normalize();
    let q = Rot3::from_axis_angle(axis, g.f() * 6.3);
    let m = Mat3::from_quat(q);
    let cols = [m.x_axis, m.y_axis, m.z_axis];
    let e = [g.u(0.1, 1.0), g.u(0.1, 1.0), g.u(0.1, 1.0)];
    let c = g.p(3.0);
    let h: [Vec3<f64>; 3] =
        std::array::from_fn(|i| Vec3::new(cols[i].x * e[i], cols[i].y * e[i], cols[i].z * e[i]));
    Both {
        ours: Rounded::new(Shape::Box(Obb::new(v(c), h).unwrap()), 0.0).unwrap(),
        pose: Pose::from_parts(pv(c), q),
        theirs: Box::new(Cuboid::new(pv(e))),
    }
}

type Maker = fn(&mut Gen) -> Both;

fn pairs(fa: Maker, fb: Maker, seed: u64) -> Vec<(Both, Both)> {
    let mut g = Gen(seed);
    (0..1024).map(|_| (fa(&mut g), fb(&mut g))).collect()
}

fn bench_pair(c: &mut Criterion, name: &str, cases: &[(Both, Both)]) {
    // The fallback share, on one pass.
    let (f0, b0) = stats::ROUNDED.get();
    let (g0, h0) = stats::ROUNDED_ROUNDING.get();
    let (p0, q0) = stats::ROUNDED_POINT_BOX.get();
    let (z0, m0) = stats::SQRT_RATIO_ZIV.get();
    for (a, b) in cases {
        black_box(rounded::distance_f64(&a.ours, &b.ours).unwrap());
    }
    let (f1, b1) = stats::ROUNDED.get();
    let (g1, h1) = stats::ROUNDED_ROUNDING.get();
    let (p1, q1) = stats::ROUNDED_POINT_BOX.get();
    let (z1, m1) = stats::SQRT_RATIO_ZIV.get();
    println!(
        "{name}: point-box path {} answered, {} passed on (its roundings {} by Ziv's test, {} left to the midpoint signs); cores {} fast, {} exact fallback of {}; apart roundings {} certified in double-word, {} exact",
        p1 - p0,
        q1 - q0,
        z1 - z0,
        m1 - m0,
        f1 - f0,
        b1 - b0,
        cases.len(),
        g1 - g0,
        h1 - h0
    );
    let mut group = c.benchmark_group(name);
    group.bench_function("ours distance_f64", |bch| {
        bch.iter(|| {
            for (a, b) in cases {
                black_box(rounded::distance_f64(black_box(&a.ours), black_box(&b.ours)).unwrap());
            }
        })
    });
    group.bench_function("ours distance_exact_f64", |bch| {
        bch.iter(|| {
            for (a, b) in cases {
                black_box(
                    rounded::distance_exact_f64(black_box(&a.ours), black_box(&b.ours)).unwrap(),
                );
            }
        })
    });
    group.bench_function("parry3d-f64 distance", |bch| {
        bch.iter(|| {
            for (a, b) in cases {
                black_box(
                    parry3d_f64::query::distance(
                        black_box(&a.pose),
                        &*a.theirs,
                        black_box(&b.pose),
                        &*b.theirs,
                    )
                    .unwrap()
                    .distance,
                );
            }
        })
    });
    group.finish();
}

fn benches(c: &mut Criterion) {
    bench_pair(
        c,
        "capsule_capsule",
        &pairs(capsule, capsule, 0x1234_5678_9abc_def1),
    );
    bench_pair(
        c,
        "sphere_box",
        &pairs(sphere, cuboid, 0x0fed_cba9_8765_4321),
    );
    bench_pair(
        c,
        "capsule_triangle",
        &pairs(capsule, triangle, 0x5555_aaaa_3333_cccc),
    );
}

criterion_group!(group, benches);

fn main() {
    group();
    Criterion::default().configure_from_args().final_summary();
}
