//! The exact convex hull of 10,000 points (uniform in a cube, on a sphere,
//! on a coarse integer grid with many coplanar points, and as exact
//! rationals), and the correctly rounded √q − R.
//!
//! `cargo bench --bench hull`

use criterion::{black_box, criterion_group, criterion_main, Criterion};
use exact_collision::hull::convex_hull;
use exact_collision::num::sqrt_offset::SqrtOffset;
use exact_collision::predicates::{adaptive_evaluations, exact_evaluations};
use exact_collision::{Scalar, Vec3};
use num_rational::BigRational;

/// A small deterministic generator (xorshift64*), so every run sees the same inputs.
struct Rng(u64);
impl Rng {
    fn next_f64(&mut self) -> f64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        (self.0.wrapping_mul(0x2545_f491_4f6c_dd1d) >> 11) as f64 / (1u64 << 53) as f64
    }
    fn signed(&mut self) -> f64 {
        2.0 * self.next_f64() - 1.0
    }
}

fn cube(n: usize) -> Vec<Vec3<f64>> {
    let mut r = Rng(0x9e37_79b9_7f4a_7c15);
    (0..n)
        .map(|_| Vec3::new(r.signed(), r.signed(), r.signed()))
        .collect()
}

fn sphere(n: usize) -> Vec<Vec3<f64>> {
    let mut r = Rng(0x1234_5678_9abc_def1);
    (0..n)
        .map(|_| loop {
            let (x, y, z) = (r.signed(), r.signed(), r.signed());
            let d = (x * x + y * y + z * z).sqrt();
            if d > 0.1 && d <= 1.0 {
                break Vec3::new(x / d, y / d, z / d);
            }
        })
        .collect()
}

/// Integer points in [−5, 5]³: many coplanar and repeated points.
fn grid(n: usize) -> Vec<Vec3<f64>> {
    let mut r = Rng(0x0bad_cafe_f00d_d00d);
    let c = |r: &mut Rng| (r.signed() * 5.5).round();
    (0..n)
        .map(|_| Vec3::new(c(&mut r), c(&mut r), c(&mut r)))
        .collect()
}

fn bench(c: &mut Criterion) {
    let sets = [
        ("cube_10k", cube(10_000)),
        ("sphere_10k", sphere(10_000)),
        ("grid_10k", grid(10_000)),
    ];
    for (name, pts) in &sets {
        let (e0, a0) = (exact_evaluations(), adaptive_evaluations());
        let h = convex_hull(pts).unwrap();
        println!(
            "{name}: {} vertices, {} faces; exact fallbacks {}, adaptive {}",
            h.vertices().len(),
            h.faces().len(),
            exact_evaluations() - e0,
            adaptive_evaluations() - a0
        );
        c.bench_function(&format!("hull_{name}"), |b| {
            b.iter(|| convex_hull(black_box(pts)).unwrap())
        });
    }
    let rational: Vec<Vec3<BigRational>> = cube(10_000)
        .iter()
        .map(|p| p.map(|x| x.to_rational()))
        .collect();
    c.bench_function("hull_cube_10k_rational", |b| {
        b.iter(|| convex_hull(black_box(&rational)).unwrap())
    });

    // √q − R with q a squared distance of doubles and R a sum of two radii.
    let mut r = Rng(42);
    let offsets: Vec<SqrtOffset> = (0..1000)
        .map(|_| {
            let d = [r.signed(), r.signed(), r.signed()].map(|x| x.to_rational());
            let q = &d[0] * &d[0] + &d[1] * &d[1] + &d[2] * &d[2];
            let rr = (r.next_f64() * 0.5).to_rational() + (r.next_f64() * 0.5).to_rational();
            SqrtOffset::new(q, rr).unwrap()
        })
        .collect();
    let b0 = exact_collision::num::sqrt_offset::bisection_fallbacks();
    let sum: f64 = offsets.iter().map(|x| x.nearest_f64()).sum();
    println!(
        "sqrt_offset: {} of 1000 calls bisected (sum {sum})",
        exact_collision::num::sqrt_offset::bisection_fallbacks() - b0
    );
    c.bench_function("sqrt_offset_nearest_f64_x1000", |b| {
        b.iter(|| {
            offsets
                .iter()
                .map(|x| black_box(x).nearest_f64())
                .sum::<f64>()
        })
    });
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(10);
    targets = bench
}
criterion_main!(benches);
