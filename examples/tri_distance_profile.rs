//! A plain timing loop for the exact triangle queries on f64 inputs, for
//! profiling (`valgrind --tool=callgrind`) and for a timing that needs no
//! parry3d build.
//!
//! `cargo run --release --example tri_distance_profile -- [pairs] [repeats] [all|disjoint|meeting] [distance|intersect|program|f64|f64dist] [unit|spread|file:PATH]`
//!
//! * `distance`: `distance_exact` (exact squared distance and closest points).
//! * `intersect`: `intersect_exact` and `intersection_set_exact` in one call
//!   ([`intersect_with_contact_exact`]): what an `intersect` line of the program
//!   needs (the certificate and the contact set).
//! * `program`: `intersect_exact`, then `intersection_set_exact` for meeting
//!   pairs, as two calls.
//! * `f64`: `intersect::<f64>` and `intersection_set::<f64>` (rounded answers).
//! * `f64dist`: `distance::<f64>` (rounded answer).
//!
//! Inputs: `unit` has vertices uniform in [0,1]³ (the inputs of
//! `benches/triangle.rs`, seed 2003); `spread` the generator of
//! `../shared/throughput/gen.py` (a centre uniform in [−2, 2]³, each vertex the
//! centre plus a uniform offset in [−1, 1]³); `file:PATH` the triangle pairs
//! of a query file (JSON numbers).
//!
//! [`intersect_with_contact_exact`]: exact_collision::query::triangle_triangle::intersect_with_contact_exact

use exact_collision::query::triangle_triangle::{distance, distance_exact};
use exact_collision::query::triangle_triangle::{
    intersect, intersect_exact, intersect_with_contact_exact, intersection_set,
    intersection_set_exact, intersects,
};
use exact_collision::query::Intersection;
use exact_collision::stats;
use exact_collision::{Triangle, Vec3};
use std::time::Instant;

struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        exact_collision::poly::planted::splitmix64(&mut self.0)
    }
    fn unit(&mut self) -> f64 {
        (self.next() >> 11) as f64 / (1u64 << 53) as f64
    }
    fn tri(&mut self, spread: bool) -> Triangle<f64> {
        if spread {
            let c = [0; 3].map(|_| (self.unit() * 2.0 - 1.0) * 2.0);
            Triangle::new([0; 3].map(|_| {
                let [x, y, z] = c.map(|c| c + self.unit() * 2.0 - 1.0);
                Vec3::new(x, y, z)
            }))
        } else {
            Triangle::new([0; 3].map(|_| Vec3::new(self.unit(), self.unit(), self.unit())))
        }
    }
}

/// The triangle pairs of a JSON Lines query file (`a`, `b` of type triangle,
/// numbers only), e.g. `../shared/throughput/tri_tri_intersect.jsonl`.
fn read_pairs(path: &str) -> Vec<(Triangle<f64>, Triangle<f64>)> {
    let text = std::fs::read_to_string(path).expect("readable file");
    let tri = |v: &serde_json::Value| -> Option<Triangle<f64>> {
        let p = |i: usize| -> Option<Vec3<f64>> {
            let c = |k: usize| v["v"][i][k].as_f64();
            Some(Vec3::new(c(0)?, c(1)?, c(2)?))
        };
        Some(Triangle::new([p(0)?, p(1)?, p(2)?]))
    };
    text.lines()
        .filter_map(|l| {
            let q: serde_json::Value = serde_json::from_str(l).ok()?;
            Some((tri(&q["a"])?, tri(&q["b"])?))
        })
        .collect()
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let n: usize = args.get(1).and_then(|s| s.parse().ok()).unwrap_or(2000);
    let reps: usize = args.get(2).and_then(|s| s.parse().ok()).unwrap_or(1);
    let which = args.get(3).map(String::as_str).unwrap_or("all");
    let op = args.get(4).map(String::as_str).unwrap_or("distance");
    let spread = args.get(5).map(String::as_str) == Some("spread");
    let mut r = Rng(2003);
    let file = args.get(5).and_then(|g| g.strip_prefix("file:"));
    let pairs: Vec<_> = match file {
        Some(path) => read_pairs(path).into_iter().take(n).collect(),
        None => (0..n).map(|_| (r.tri(spread), r.tri(spread))).collect(),
    };
    let ts: Vec<_> = pairs
        .into_iter()
        .filter(|(a, b)| match which {
            "disjoint" => !intersects(a, b),
            "meeting" => intersects(a, b),
            _ => true,
        })
        .collect();
    let bb = std::hint::black_box;
    let t0 = Instant::now();
    let mut acc = 0usize;
    for _ in 0..reps {
        for (a, b) in &ts {
            acc += match op {
                "intersect" => {
                    let (i, c) = intersect_with_contact_exact(bb(a), bb(b)).unwrap();
                    let w = match i {
                        Intersection::Overlap { witness } => witness,
                        Intersection::Separated { axis } => axis,
                    };
                    w.x.denom().bits() as usize + c.map_or(0, |c| c.points().len())
                }
                "program" => {
                    let w = match intersect_exact(bb(a), bb(b)).unwrap() {
                        Intersection::Overlap { witness } => {
                            let c = intersection_set_exact(bb(a), bb(b)).unwrap();
                            acc += c.map_or(0, |c| c.points().len());
                            witness
                        }
                        Intersection::Separated { axis } => axis,
                    };
                    w.x.denom().bits() as usize
                }
                "f64" => {
                    let w = match intersect(bb(a), bb(b)).unwrap() {
                        Intersection::Overlap { witness } => {
                            let c = intersection_set(bb(a), bb(b)).unwrap();
                            acc += c.map_or(0, |c| c.points().len());
                            witness
                        }
                        Intersection::Separated { axis } => axis,
                    };
                    (w.x.abs() > 0.5) as usize
                }
                "f64dist" => {
                    let c = distance(bb(a), bb(b)).unwrap();
                    (c.distance_squared > 0.5) as usize
                }
                _ => {
                    let c = distance_exact(bb(a), bb(b)).unwrap();
                    c.distance_squared.denom().bits() as usize
                }
            };
        }
    }
    let dt = t0.elapsed().as_secs_f64();
    println!(
        "{} pairs ({which}, {op}) x {reps}: {:.3} µs per pair (checksum {acc}); fast/fallback {:?}",
        ts.len(),
        dt * 1e6 / (ts.len() * reps) as f64,
        stats::snapshot()
    );
}
