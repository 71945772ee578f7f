//! Runs one CCD benchmark case many times, for profiling (e.g. under
//! `valgrind --tool=callgrind`). Same inputs as `benches/ccd.rs`.
//!
//! cargo run --release --example ccd_profile -- CASE [ITERATIONS] [f64]
//! CASE: linear | degree2 | degree4 | random

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

use exact_collision::poly::planted::splitmix64 as splitmix;

/// The benchmark's random rotating pairs.
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

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let case = args.get(1).map(String::as_str).unwrap_or("linear");
    let iters: usize = args.get(2).and_then(|s| s.parse().ok()).unwrap_or(100);
    let float = args.get(3).is_some_and(|s| s == "f64");
    let qs = match case {
        "linear" => vec![query(&serde_json::from_str(SEED001_LINEAR).unwrap())],
        "degree2" => vec![query(&serde_json::from_str(SEED001_DEGREE2).unwrap())],
        "degree4" => vec![query(&serde_json::from_str(SEED001_DEGREE4).unwrap())],
        "random" => random_rotating(64),
        _ => panic!("unknown case {case}"),
    };
    let mut hits = 0;
    for _ in 0..iters {
        for q in &qs {
            if float {
                hits += usize::from(matches!(
                    ccd_f64(q).unwrap(),
                    exact_collision::ccd::float::FloatAnswer::Hit { .. }
                ));
            } else {
                hits += usize::from(matches!(
                    ccd(q).unwrap(),
                    exact_collision::ccd::CcdAnswer::Hit { .. }
                ));
            }
        }
    }
    println!("{case}: {} queries, {hits} hits", iters * qs.len());
}
