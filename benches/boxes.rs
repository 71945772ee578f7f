//! Box–box and triangle–box benchmarks on one set of random f64 pairs (about
//! a third of the box pairs intersecting), each next to parry3d on the same
//! pairs (f32): the crate's exact decision, a plain-float 15-axis SAT (same
//! formula, no error bound: not exact) and parry3d's `intersection_test`;
//! `intersect` with its exact certificate; the exact squared distance with
//! exact closest points (and the f64-rounded one) against parry3d's float
//! `distance`, for box pairs and triangle–box pairs, and the same exact
//! answers before their reduction to lowest terms
//! (`distance_exact_unreduced`).
//!
//! Run: `cargo bench --features parry --bench boxes`. The exact-fallback
//! rates (filter failures, fast-path fallbacks) are printed.
//!
//! Instruction counts on the same inputs (load-independent): the bench
//! binary with `BOXES_PASS=NAME` runs one pass of one loop over the 1024
//! pairs and exits (`none` builds the inputs only; subtract it), e.g.
//! `BOXES_PASS=box_distance_exact valgrind --tool=callgrind target/release/deps/boxes-HASH`;
//! the names are in `one_pass`.

use criterion::{black_box, criterion_group, Criterion};
use exact_collision::query::{
    box_box, distance, distance_exact, distance_exact_unreduced, intersect_exact,
};
use exact_collision::stats;
use exact_collision::{Obb, Shape, Triangle, Vec3};
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

/// A triangle near the origin (vertices within 1.5 of a center in [0, 3)³)
/// for the triangle–box pairs, as the crate's and parry3d's shapes.
struct TriCase {
    t: Shape<f64>,
    b: Shape<f64>,
    pt: parry3d::shape::Triangle,
    pb: Pose,
    cb: Cuboid,
}

fn tri_cases(boxes: &[Case]) -> Vec<TriCase> {
    let mut s = 0x0fed_cba9_8765_4321u64;
    let mut r = move || {
        s ^= s << 13;
        s ^= s >> 7;
        s ^= s << 17;
        (s >> 11) as f64 / (1u64 << 53) as f64
    };
    boxes
        .iter()
        .map(|x| {
            let c = [r() * 3.0, r() * 3.0, r() * 3.0];
            // f32 values, so that both libraries see the same triangle.
            let p: [[f64; 3]; 3] =
                std::array::from_fn(|_| [0, 1, 2].map(|k| (c[k] + 3.0 * r() - 1.5) as f32 as f64));
            let v = |q: [f64; 3]| PVec3::new(q[0] as f32, q[1] as f32, q[2] as f32);
            TriCase {
                t: Shape::Triangle(Triangle::new(p.map(|q| Vec3::new(q[0], q[1], q[2])))),
                b: Shape::Box(x.b.clone()),
                pt: parry3d::shape::Triangle::new(v(p[0]), v(p[1]), v(p[2])),
                pb: x.pb,
                cb: x.cb,
            }
        })
        .collect()
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

/// The measured loops, each one pass over the 1024 pairs, shared by the
/// criterion groups and the one-pass mode.
fn exact_decision(cs: &[Case]) -> usize {
    cs.iter()
        .filter(|x| box_box::overlaps(black_box(&x.a), black_box(&x.b)))
        .count()
}

fn plain_decision(cs: &[Case]) -> usize {
    cs.iter()
        .filter(|x| plain_sat(black_box(&x.a), black_box(&x.b)))
        .count()
}

fn parry_intersection(cs: &[Case]) -> usize {
    cs.iter()
        .filter(|x| {
            parry3d::query::intersection_test(&x.pa, &x.ca, &x.pb, &x.cb)
                .unwrap()
                .intersecting
        })
        .count()
}

type Pairs = [(Shape<f64>, Shape<f64>)];

fn exact_intersect(shapes: &Pairs) -> usize {
    shapes
        .iter()
        .filter(|(a, b)| {
            intersect_exact(black_box(a), black_box(b))
                .unwrap()
                .intersects()
        })
        .count()
}

fn exact_distance(shapes: &Pairs) -> u64 {
    shapes
        .iter()
        .map(|(a, b)| {
            distance_exact(black_box(a), black_box(b))
                .unwrap()
                .distance_squared
                .denom()
                .bits()
        })
        .sum::<u64>()
}

/// The exact answers before their reduction to lowest terms: every value is
/// built (`black_box` keeps the whole answer), none reduced.
fn unreduced_distance(shapes: &Pairs) -> usize {
    shapes
        .iter()
        .filter(|(a, b)| {
            black_box(distance_exact_unreduced(black_box(a), black_box(b)).unwrap()).is_zero()
        })
        .count()
}

fn rounded_distance(shapes: &Pairs) -> f64 {
    shapes
        .iter()
        .map(|(a, b)| {
            distance(black_box(a), black_box(b))
                .unwrap()
                .distance_squared
        })
        .sum::<f64>()
}

fn parry_box_distance(cs: &[Case]) -> f32 {
    cs.iter()
        .map(|x| {
            parry3d::query::distance(&x.pa, &x.ca, &x.pb, &x.cb)
                .unwrap()
                .distance
        })
        .sum::<f32>()
}

fn parry_tri_distance(ts: &[TriCase]) -> f32 {
    let id = Pose::IDENTITY;
    ts.iter()
        .map(|x| {
            parry3d::query::distance(&id, &x.pt, &x.pb, &x.cb)
                .unwrap()
                .distance
        })
        .sum::<f32>()
}

/// The inputs: box pairs, the same pairs as shapes, triangle–box pairs
/// (for parry3d and as shapes).
struct Inputs {
    cs: Vec<Case>,
    shapes: Vec<(Shape<f64>, Shape<f64>)>,
    ts: Vec<TriCase>,
    tri: Vec<(Shape<f64>, Shape<f64>)>,
}

fn inputs() -> Inputs {
    let cs = cases();
    let shapes = cs
        .iter()
        .map(|x| (Shape::Box(x.a.clone()), Shape::Box(x.b.clone())))
        .collect();
    let ts = tri_cases(&cs);
    let tri = ts.iter().map(|x| (x.t.clone(), x.b.clone())).collect();
    Inputs {
        cs,
        shapes,
        ts,
        tri,
    }
}

fn bench(c: &mut Criterion) {
    let Inputs {
        cs,
        shapes,
        ts,
        tri,
    } = inputs();
    let hits = exact_decision(&cs);
    let f0 = box_box::filter_failures();
    let e0 = exact_collision::predicates::exact_evaluations();
    let mut g = c.benchmark_group("box_box_intersect");
    g.bench_function("exact_decision_f64", |bn| bn.iter(|| exact_decision(&cs)));
    g.bench_function("plain_float_sat", |bn| bn.iter(|| plain_decision(&cs)));
    g.bench_function("parry3d_intersection_test", |bn| {
        bn.iter(|| parry_intersection(&cs))
    });
    g.finish();
    let (i0, d0) = (stats::INTERSECT.get(), stats::DISTANCE.get());
    let mut g = c.benchmark_group("box_box_intersect_certificate");
    g.bench_function("exact_intersect_with_certificate_f64_inputs", |bn| {
        bn.iter(|| exact_intersect(&shapes))
    });
    g.bench_function("parry3d_intersection_test", |bn| {
        bn.iter(|| parry_intersection(&cs))
    });
    g.finish();
    let mut g = c.benchmark_group("box_box_distance");
    g.bench_function("exact_distance_f64_inputs", |bn| {
        bn.iter(|| exact_distance(&shapes))
    });
    g.bench_function("exact_unreduced_f64_inputs", |bn| {
        bn.iter(|| unreduced_distance(&shapes))
    });
    g.bench_function("rounded_distance_f64", |bn| {
        bn.iter(|| rounded_distance(&shapes))
    });
    g.bench_function("parry3d_distance", |bn| bn.iter(|| parry_box_distance(&cs)));
    g.finish();
    let mut g = c.benchmark_group("tri_box_distance");
    g.bench_function("exact_distance_f64_inputs", |bn| {
        bn.iter(|| exact_distance(&tri))
    });
    g.bench_function("exact_unreduced_f64_inputs", |bn| {
        bn.iter(|| unreduced_distance(&tri))
    });
    g.bench_function("parry3d_distance", |bn| bn.iter(|| parry_tri_distance(&ts)));
    g.finish();
    let (i1, d1) = (stats::INTERSECT.get(), stats::DISTANCE.get());
    println!(
        "fast path over the whole run: intersect {} fast / {} fallback, distance {} fast / {} fallback",
        i1.0 - i0.0,
        i1.1 - i0.1,
        d1.0 - d0.0,
        d1.1 - d0.1
    );
    println!(
        "pairs: {} ({} intersecting); per batch of {} calls: filter failures total {} , exact (big-number) evaluations {}",
        cs.len(),
        hits,
        cs.len(),
        box_box::filter_failures() - f0,
        exact_collision::predicates::exact_evaluations() - e0
    );
}

/// One pass of one measured loop over the same inputs, for an instruction
/// count that the machine's load does not move: `BOXES_PASS=NAME` runs the
/// pass and exits (`none` builds the inputs only: the baseline to subtract).
///
/// ```text
/// valgrind --tool=callgrind --callgrind-out-file=/dev/null \
///     env BOXES_PASS=box_distance_exact target/release/deps/boxes-HASH
/// ```
fn one_pass(name: &str) {
    let Inputs {
        cs,
        shapes,
        ts,
        tri,
    } = inputs();
    let r: f64 = match name {
        "none" => 0.0,
        "box_decision" => exact_decision(&cs) as f64,
        "box_intersect_cert" => exact_intersect(&shapes) as f64,
        "parry_intersection_test" => parry_intersection(&cs) as f64,
        "box_distance_exact" => exact_distance(&shapes) as f64,
        "box_distance_unreduced" => unreduced_distance(&shapes) as f64,
        "box_distance_f64" => rounded_distance(&shapes),
        "parry_box_distance" => parry_box_distance(&cs) as f64,
        "tri_distance_exact" => exact_distance(&tri) as f64,
        "tri_distance_unreduced" => unreduced_distance(&tri) as f64,
        "parry_tri_distance" => parry_tri_distance(&ts) as f64,
        _ => panic!("unknown BOXES_PASS {name}"),
    };
    let (i, d) = (stats::INTERSECT.get(), stats::DISTANCE.get());
    println!(
        "{name}: {r}; intersect {} fast / {} fallback, distance {} fast / {} fallback",
        i.0, i.1, d.0, d.1
    );
}

criterion_group!(benches, bench);

fn main() {
    if let Ok(name) = std::env::var("BOXES_PASS") {
        one_pass(&name);
        return;
    }
    benches();
    Criterion::default().configure_from_args().final_summary();
}
