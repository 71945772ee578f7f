//! CCD benchmarks: seed 001's three examples and a random workload of rotating
//! boxes (degree-1 quaternion curves, both boxes moving), exact and certified.
//!
//! cargo bench --bench ccd

use criterion::{black_box, criterion_group, criterion_main, Criterion};
use exact_collision::ccd::{ccd, ccd_f64};
use exact_collision::demo::{SEED001_DEGREE2, SEED001_DEGREE4, SEED001_LINEAR};
use exact_collision::protocol::{parse_query, CcdQuery, Op};
use serde_json::{json, Value};

fn query(v: &Value) -> CcdQuery {
    match parse_query(v).unwrap().op {
        Op::Ccd(q) => q,
        _ => unreachable!(),
    }
}

fn splitmix(s: &mut u64) -> u64 {
    *s = s.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = *s;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// Random rotating cuboid pairs: integer-ish half-extents 1..3, quaternions with
/// entries in −4..4 moving linearly, centers approaching each other.
fn random_rotating(n: usize) -> Vec<CcdQuery> {
    let mut s = 12345u64;
    let mut r = |lo: i64, hi: i64| lo + (splitmix(&mut s) % ((hi - lo + 1) as u64)) as i64;
    (0..n)
        .map(|_| {
            let mut side = |x0: i64| {
                let e = [r(1, 3), r(1, 3), r(1, 3)];
                let q: Vec<Value> = (0..4).map(|_| json!([r(-4, 4), r(-4, 4)])).collect();
                json!({"shape":{"type":"box","center":[0,0,0],
                        "half_axes":[[e[0],0,0],[0,e[1],0],[0,0,e[2]]]},
                       "motion":{"quaternion":q,
                        "translation":[[x0, -x0], [r(-2, 2), r(-2, 2)], [r(-2, 2), r(-2, 2)]]}})
            };
            let a = side(-6);
            let b = side(6);
            query(&json!({"op":"ccd","a":a,"b":b,"tolerance":"1e-12"}))
        })
        .filter(|q| ccd(q).is_ok())
        .collect()
}

fn bench(c: &mut Criterion) {
    for (name, src) in [
        ("seed001_linear_eq6", SEED001_LINEAR),
        ("seed001_degree2", SEED001_DEGREE2),
        ("seed001_degree4", SEED001_DEGREE4),
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
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(10).measurement_time(std::time::Duration::from_secs(3));
    targets = bench
}
criterion_main!(benches);
