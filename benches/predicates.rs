//! orient3d on f64 inputs: this crate (filtered, exact) against `robust`'s
//! adaptive orient3d, on the same inputs, plus the exact-fallback rates.
//!
//! `cargo bench --bench predicates`

use criterion::{black_box, criterion_group, criterion_main, Criterion};
use exact_collision::predicates::{adaptive_evaluations, exact_evaluations, orient3d};
use exact_collision::Vec3;

/// A small deterministic generator (xorshift64*), so every run sees the same inputs.
struct Rng(u64);
impl Rng {
    fn next_f64(&mut self) -> f64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        (self.0.wrapping_mul(0x2545_f491_4f6c_dd1d) >> 11) as f64 / (1u64 << 53) as f64
    }
    fn point(&mut self) -> [f64; 3] {
        [self.next_f64(), self.next_f64(), self.next_f64()]
    }
}

type Quad = [[f64; 3]; 4];

fn uniform(n: usize) -> Vec<Quad> {
    let mut r = Rng(0x9e37_79b9_7f4a_7c15);
    (0..n)
        .map(|_| [r.point(), r.point(), r.point(), r.point()])
        .collect()
}

/// d = a + s(b − a) + t(c − a) rounded: on the plane up to rounding.
fn near_degenerate(n: usize) -> Vec<Quad> {
    let mut r = Rng(0x1234_5678_9abc_def1);
    (0..n)
        .map(|_| {
            let (a, b, c) = (r.point(), r.point(), r.point());
            let (s, t) = (r.next_f64(), r.next_f64());
            let d = [0, 1, 2].map(|k| a[k] + s * (b[k] - a[k]) + t * (c[k] - a[k]));
            [a, b, c, d]
        })
        .collect()
}

/// Exactly coplanar: integer grid points, d = a + i(b − a) + j(c − a).
fn coplanar(n: usize) -> Vec<Quad> {
    let mut r = Rng(0xdead_beef_cafe_f00d);
    let mut g = || (r.next_f64() * 2048.0).floor() - 1024.0;
    (0..n)
        .map(|_| {
            let a = [g(), g(), g()];
            let b = [g(), g(), g()];
            let c = [g(), g(), g()];
            let (i, j) = ((g() / 256.0).floor(), (g() / 256.0).floor());
            let d = [0, 1, 2].map(|k| a[k] + i * (b[k] - a[k]) + j * (c[k] - a[k]));
            [a, b, c, d]
        })
        .collect()
}

fn ours(q: &Quad) -> i32 {
    let v = |p: [f64; 3]| Vec3::new(p[0], p[1], p[2]);
    orient3d(&v(q[0]), &v(q[1]), &v(q[2]), &v(q[3])).to_i32()
}

fn theirs(q: &Quad) -> f64 {
    let c = |p: [f64; 3]| robust::Coord3D {
        x: p[0],
        y: p[1],
        z: p[2],
    };
    robust::orient3d(c(q[0]), c(q[1]), c(q[2]), c(q[3]))
}

fn report_rates() {
    for (name, set) in [
        ("uniform", uniform(100_000)),
        ("near-degenerate", near_degenerate(100_000)),
        ("exactly coplanar", coplanar(100_000)),
    ] {
        let (a0, e0) = (adaptive_evaluations(), exact_evaluations());
        let mut disagree = 0;
        for q in &set {
            let s = ours(q);
            let t = theirs(q);
            if s != (-t).signum() as i32 && !(s == 0 && t == 0.0) {
                disagree += 1;
            }
        }
        let n = set.len() as f64;
        println!(
            "orient3d {name}: past stage-A filter {:.4}% , big-number fallback {:.4}%, sign differs from robust {disagree}",
            100.0 * (adaptive_evaluations() - a0) as f64 / n,
            100.0 * (exact_evaluations() - e0) as f64 / n
        );
    }
}

fn bench(c: &mut Criterion) {
    report_rates();
    for (name, set) in [
        ("uniform", uniform(1024)),
        ("near_degenerate", near_degenerate(1024)),
        ("coplanar", coplanar(1024)),
    ] {
        let mut g = c.benchmark_group(format!("orient3d_{name}"));
        g.throughput(criterion::Throughput::Elements(set.len() as u64));
        g.bench_function("exact_collision", |b| {
            b.iter(|| set.iter().map(|q| ours(black_box(q))).sum::<i32>())
        });
        g.bench_function("robust", |b| {
            b.iter(|| {
                set.iter()
                    .map(|q| theirs(black_box(q)).signum())
                    .sum::<f64>()
            })
        });
        g.finish();
    }
}

criterion_group!(benches, bench);
criterion_main!(benches);
