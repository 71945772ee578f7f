//! A plain timing loop for the exact triangle distance on f64 inputs, for
//! profiling (`valgrind --tool=callgrind`) and for a timing that needs no
//! parry3d build. Same inputs as `benches/triangle.rs` (vertices uniform in
//! [0,1]³, seed 2003).
//!
//! `cargo run --release --example tri_distance_profile -- [pairs] [repeats] [all|disjoint|meeting]`

use exact_collision::query::triangle_triangle::intersects;
use exact_collision::query::triangle_triangle_distance::distance_exact;
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
    fn tri(&mut self) -> Triangle<f64> {
        Triangle::new([0; 3].map(|_| Vec3::new(self.unit(), self.unit(), self.unit())))
    }
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let n: usize = args.get(1).and_then(|s| s.parse().ok()).unwrap_or(2000);
    let reps: usize = args.get(2).and_then(|s| s.parse().ok()).unwrap_or(1);
    let which = args.get(3).map(String::as_str).unwrap_or("all");
    let mut r = Rng(2003);
    let ts: Vec<_> = (0..n)
        .map(|_| (r.tri(), r.tri()))
        .filter(|(a, b)| match which {
            "disjoint" => !intersects(a, b),
            "meeting" => intersects(a, b),
            _ => true,
        })
        .collect();
    let t0 = Instant::now();
    let mut acc = 0usize;
    for _ in 0..reps {
        for (a, b) in &ts {
            let c = distance_exact(std::hint::black_box(a), std::hint::black_box(b)).unwrap();
            acc += c.distance_squared.denom().bits() as usize;
        }
    }
    let dt = t0.elapsed().as_secs_f64();
    println!(
        "{} pairs ({which}) x {reps}: {:.3} µs per pair (checksum {acc})",
        ts.len(),
        dt * 1e6 / (ts.len() * reps) as f64
    );
}
