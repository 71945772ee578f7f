//! Times the exact hull of 10,000 points on a sphere and in a cube (f64), for
//! profiling: `cargo run --release --example hull_profile [sphere|cube]`
//! (both by default; one name for an instruction count under callgrind).

use exact_collision::hull::convex_hull;
use exact_collision::Vec3;
use std::time::Instant;

fn main() {
    let mut s = 0x1234_5678_9abc_def1u64;
    let mut next = || {
        s ^= s >> 12;
        s ^= s << 25;
        s ^= s >> 27;
        (s.wrapping_mul(0x2545_f491_4f6c_dd1d) >> 11) as f64 / (1u64 << 53) as f64 * 2.0 - 1.0
    };
    let mut sphere = Vec::new();
    while sphere.len() < 10_000 {
        let (x, y, z) = (next(), next(), next());
        let d = (x * x + y * y + z * z).sqrt();
        if d > 0.1 && d <= 1.0 {
            sphere.push(Vec3::new(x / d, y / d, z / d));
        }
    }
    let cube: Vec<Vec3<f64>> = (0..10_000)
        .map(|_| Vec3::new(next(), next(), next()))
        .collect();
    let only = std::env::args().nth(1);
    for (name, pts) in [("sphere", &sphere), ("cube", &cube)] {
        if only.as_deref().is_some_and(|o| o != name) {
            continue;
        }
        let t = Instant::now();
        let h = convex_hull(pts).expect("finite points");
        println!(
            "{name}: {} vertices, {} faces in {:.1} ms",
            h.vertices().len(),
            h.faces().len(),
            t.elapsed().as_secs_f64() * 1e3
        );
    }
}
