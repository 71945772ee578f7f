//! The library path of `distance` between `convex` shapes, for instruction
//! counts: reads a `convex_convex_distance.jsonl` file of
//! `scripts/gen_rounded_throughput.py`, builds both hulls
//! (`Rounded::convex`) and answers each line with
//! `rounded::distance_exact_f64` (`fast`, the default) or
//! `rounded::distance_exact` (`exact`); `build` only builds the hulls.
//!
//! `cargo run --release --example hull_distance_profile -- FILE [fast|exact|build]`

use exact_collision::query::rounded;
use exact_collision::shape::Rounded;
use exact_collision::{stats, Vec3};

type Cloud = Vec<Vec3<f64>>;

fn points(v: &serde_json::Value) -> Cloud {
    v["points"]
        .as_array()
        .expect("points")
        .iter()
        .map(|p| {
            let c = |k: usize| p[k].as_f64().expect("a number");
            Vec3::new(c(0), c(1), c(2))
        })
        .collect()
}

fn main() {
    let mut args = std::env::args().skip(1);
    let file = args.next().expect("usage: FILE [fast|exact|build]");
    let mode = args.next().unwrap_or_else(|| "fast".into());
    let text = std::fs::read_to_string(&file).expect("readable file");
    let lines: Vec<(Cloud, Cloud)> = text
        .lines()
        .map(|l| {
            let v: serde_json::Value = serde_json::from_str(l).expect("JSON");
            (points(&v["a"]), points(&v["b"]))
        })
        .collect();
    let mut sum = 0.0;
    for (pa, pb) in &lines {
        let a = Rounded::convex(pa, 0.0).expect("a hull");
        let b = Rounded::convex(pb, 0.0).expect("a hull");
        let c = match mode.as_str() {
            "build" => continue,
            "exact" => rounded::distance_exact(&a, &b),
            _ => rounded::distance_exact_f64(&a, &b),
        };
        sum += c.expect("an answer").distance_f64();
    }
    let (fast, fallback) = stats::HULL.get();
    println!(
        "{} lines, {mode}: sum of distances {sum}; hull path {fast} fast, {fallback} fallback",
        lines.len()
    );
}
