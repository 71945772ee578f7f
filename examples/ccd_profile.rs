//! Runs one CCD benchmark case many times, for profiling (e.g. under
//! `valgrind --tool=callgrind`). Same inputs as `benches/ccd.rs`.
//!
//! cargo run --release --example ccd_profile -- CASE [ITERATIONS] [f64]
//! CASE: linear | degree2 | degree4 | random

use exact_collision::ccd::{ccd, ccd_f64};
use exact_collision::demo::{CCD_DEGREE2_ENTRY_EXIT, CCD_DEGREE4_MISS, CCD_LINEAR_EQ6};

#[path = "../benches/common/rotating.rs"]
mod rotating;
use rotating::{query, random_rotating};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let case = args.get(1).map(String::as_str).unwrap_or("linear");
    let iters: usize = args.get(2).and_then(|s| s.parse().ok()).unwrap_or(100);
    let float = args.get(3).is_some_and(|s| s == "f64");
    let qs = match case {
        "linear" => vec![query(&serde_json::from_str(CCD_LINEAR_EQ6).unwrap())],
        "degree2" => vec![query(
            &serde_json::from_str(CCD_DEGREE2_ENTRY_EXIT).unwrap(),
        )],
        "degree4" => vec![query(&serde_json::from_str(CCD_DEGREE4_MISS).unwrap())],
        "random" => random_rotating(64),
        _ => panic!("unknown case {case}"),
    };
    let mut hits = 0;
    for _ in 0..iters {
        for q in &qs {
            if float {
                hits += usize::from(matches!(
                    ccd_f64(q).unwrap(),
                    exact_collision::ccd::boxes::float::FloatAnswer::Hit { .. }
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
