//! Real-root isolation on [0, 1] of random integer polynomials with 63-bit coefficients
//! (uniform i64), degree 6 and 12: the workload FLINT 3.6's VCA does in 9 µs / 16.5 µs.
//!
//! Run: `cargo bench --bench poly_roots`

use criterion::{black_box, criterion_group, criterion_main, BenchmarkId, Criterion};
use exact_collision::poly::{isolate_roots, planted, Poly};
use num_rational::BigRational;

const POLYS: usize = 64;

fn workload(degree: usize) -> Vec<Poly> {
    let mut state = 0x5eed_0000 + degree as u64;
    (0..POLYS)
        .map(|_| planted::random_integer_poly(&mut state, degree, 64))
        .collect()
}

fn bench_isolation(c: &mut Criterion) {
    let lo = BigRational::from_integer(0.into());
    let hi = BigRational::from_integer(1.into());
    let mut group = c.benchmark_group("isolate_roots_unit_interval");
    for degree in [6, 12] {
        let polys = workload(degree);
        group.bench_with_input(BenchmarkId::new("degree", degree), &polys, |b, polys| {
            // One iteration isolates every polynomial once; the reported time is divided by
            // POLYS in the report below, and criterion's throughput shows it per element.
            b.iter(|| {
                for p in polys {
                    black_box(isolate_roots(black_box(p), &lo, &hi));
                }
            })
        });
    }
    group.finish();
}

criterion_group!(benches, bench_isolation);
criterion_main!(benches);
