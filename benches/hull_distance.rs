//! `distance` between two convex hulls of 16 points each (300 pairs, drawn
//! as `scripts/gen_rounded_throughput.py` draws its `convex_convex_distance`
//! file: centres uniform in [−3, 3]³, points within 1 of the centre per
//! coordinate), ours next to parry3d-f64 on the same inputs, shapes prebuilt
//! on both sides:
//!
//! * `ours_distance`: `rounded::distance_exact_f64` (the float-guided hull
//!   path with exact proof; exact closest pair, exact squared distance) and
//!   the correctly rounded `distance_f64`, as a protocol line answers;
//! * `ours_distance_f64`: `rounded::distance_f64` (the same double; the
//!   closest pair and its certificate in double-word arithmetic, no big
//!   integers where the bounds decide);
//! * `parry3d_f64_distance`: `ConvexPolyhedron::from_convex_hull` shapes,
//!   `query::distance` (a float, no certificate).
//!
//! Also the hull construction of the 600 point sets on both sides.
//!
//! Run: `cargo bench --features parry --bench hull_distance`. For an
//! instruction count, `HULL_PASS=NAME` runs one pass and exits (`none`
//! builds the inputs only: the baseline to subtract; `ours_exact` is the
//! exact path, `rounded::distance_exact`):
//!
//! ```text
//! valgrind --tool=callgrind --callgrind-out-file=/dev/null \
//!     env HULL_PASS=ours_distance target/release/deps/hull_distance-HASH
//! ```

use criterion::{black_box, criterion_group, Criterion};
use exact_collision::query::rounded;
use exact_collision::shape::Rounded;
use exact_collision::{stats, Vec3};
use parry3d_f64::math::{Pose, Vector};
use parry3d_f64::shape::ConvexPolyhedron;

/// A small deterministic generator (xorshift64*), so every run sees the same inputs.
struct Rng(u64);
impl Rng {
    fn uniform(&mut self, lo: f64, hi: f64) -> f64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        let u = (self.0.wrapping_mul(0x2545_f491_4f6c_dd1d) >> 11) as f64 / (1u64 << 53) as f64;
        lo + (hi - lo) * u
    }
}

type Cloud = Vec<[f64; 3]>;

fn clouds() -> Vec<(Cloud, Cloud)> {
    let mut r = Rng(0x5eed_0000_0000_0007);
    let cloud = |r: &mut Rng| -> Cloud {
        let c = [0; 3].map(|_| r.uniform(-3.0, 3.0));
        (0..16)
            .map(|_| {
                [
                    c[0] + r.uniform(-1.0, 1.0),
                    c[1] + r.uniform(-1.0, 1.0),
                    c[2] + r.uniform(-1.0, 1.0),
                ]
            })
            .collect()
    };
    (0..300).map(|_| (cloud(&mut r), cloud(&mut r))).collect()
}

fn ours(c: &Cloud) -> Rounded<f64> {
    let p: Vec<Vec3<f64>> = c.iter().map(|q| Vec3::new(q[0], q[1], q[2])).collect();
    Rounded::convex(&p, 0.0).expect("a hull")
}

fn parry(c: &Cloud) -> ConvexPolyhedron {
    let p: Vec<Vector> = c.iter().map(|q| Vector::new(q[0], q[1], q[2])).collect();
    ConvexPolyhedron::from_convex_hull(&p).expect("a hull")
}

type Ours = Vec<(Rounded<f64>, Rounded<f64>)>;
type Parry = Vec<(ConvexPolyhedron, ConvexPolyhedron)>;

fn build_ours(cs: &[(Cloud, Cloud)]) -> Ours {
    cs.iter().map(|(a, b)| (ours(a), ours(b))).collect()
}

fn build_parry(cs: &[(Cloud, Cloud)]) -> Parry {
    cs.iter().map(|(a, b)| (parry(a), parry(b))).collect()
}

fn ours_distance(s: &Ours) -> f64 {
    s.iter()
        .map(|(a, b)| {
            rounded::distance_exact_f64(black_box(a), black_box(b))
                .unwrap()
                .distance_f64()
        })
        .sum()
}

fn ours_distance_f64(s: &Ours) -> f64 {
    s.iter()
        .map(|(a, b)| rounded::distance_f64(black_box(a), black_box(b)).unwrap())
        .sum()
}

fn ours_exact(s: &Ours) -> f64 {
    s.iter()
        .map(|(a, b)| {
            rounded::distance_exact(black_box(a), black_box(b))
                .unwrap()
                .distance_f64()
        })
        .sum()
}

fn parry_distance(s: &Parry) -> f64 {
    let id = Pose::IDENTITY;
    s.iter()
        .map(|(a, b)| {
            parry3d_f64::query::distance(&id, black_box(a), &id, black_box(b))
                .unwrap()
                .distance
        })
        .sum()
}

fn bench(c: &mut Criterion) {
    let cs = clouds();
    let (o, p) = (build_ours(&cs), build_parry(&cs));
    let before = stats::HULL.get();
    let (x, y) = (ours_distance(&o), parry_distance(&p));
    let after = stats::HULL.get();
    println!(
        "300 pairs: sum of distances ours {x}, parry3d-f64 {y}; hull path {} fast, {} fallback",
        after.0 - before.0,
        after.1 - before.1
    );
    let before = stats::HULL_F64.get();
    let z = ours_distance_f64(&o);
    let after = stats::HULL_F64.get();
    assert_eq!(x, z, "distance_f64 differs");
    println!(
        "distance_f64: sum {z}; double-word path {} fast, {} fallback",
        after.0 - before.0,
        after.1 - before.1
    );
    let mut g = c.benchmark_group("convex16_distance");
    g.bench_function("ours_distance", |bn| bn.iter(|| ours_distance(&o)));
    g.bench_function("ours_distance_f64", |bn| bn.iter(|| ours_distance_f64(&o)));
    g.bench_function("parry3d_f64_distance", |bn| bn.iter(|| parry_distance(&p)));
    g.finish();
    let mut g = c.benchmark_group("convex16_build");
    g.bench_function("ours_hull", |bn| bn.iter(|| build_ours(black_box(&cs))));
    g.bench_function("parry3d_f64_hull", |bn| {
        bn.iter(|| build_parry(black_box(&cs)))
    });
    g.finish();
}

/// One pass of one measured loop, for an instruction count.
fn one_pass(name: &str) {
    let cs = clouds();
    let r = match name {
        "none" => 0.0,
        "ours_build" => build_ours(&cs).len() as f64,
        "parry_build" => build_parry(&cs).len() as f64,
        "ours_distance" => ours_distance(&build_ours(&cs)),
        "ours_exact" => ours_exact(&build_ours(&cs)),
        "ours_distance_f64" => ours_distance_f64(&build_ours(&cs)),
        "parry_distance" => parry_distance(&build_parry(&cs)),
        _ => panic!("unknown HULL_PASS {name}"),
    };
    let (h, w) = (stats::HULL.get(), stats::HULL_F64.get());
    println!(
        "{name}: {r}; hull path {} fast / {} fallback; double-word {} / {}",
        h.0, h.1, w.0, w.1
    );
}

criterion_group!(benches, bench);

fn main() {
    if let Ok(name) = std::env::var("HULL_PASS") {
        one_pass(&name);
        return;
    }
    benches();
    Criterion::default().configure_from_args().final_summary();
}
