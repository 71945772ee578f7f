//! Random f64 shape pairs like the throughput corpus (`../shared/throughput/gen.py`:
//! rotated boxes, triangles, rotated rectangular prisms), answered through the
//! exact entry points `query::intersect_exact` / `query::distance_exact`: a
//! timing loop for callgrind, and a check against the exhaustive exact path.
//!
//! `cargo run --release --example poly_profile -- PAIR OP [pairs] [MODE] [spread]`
//! with PAIR one of box_box, tri_box, prism_box, tri_prism, prism_prism and OP
//! intersect or distance; the mode `run` (the fast path), `check` (against
//! the exhaustive path), `exhaustive` (the exhaustive path alone, which
//! rational inputs and declined float inputs take) or `gen` (only builds the pairs: the baseline for
//! callgrind). Prints the fast/fallback counts of `stats`.

use exact_collision::query::{distance, distance_exact, intersect, intersect_exact};
use exact_collision::stats;
use exact_collision::{Obb, Prism, Shape, Triangle, Vec2, Vec3};
use std::time::Instant;

struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        exact_collision::poly::planted::splitmix64(&mut self.0)
    }
    fn unit(&mut self) -> f64 {
        (self.next() >> 11) as f64 / (1u64 << 53) as f64
    }
    fn uniform(&mut self, lo: f64, hi: f64) -> f64 {
        lo + (hi - lo) * self.unit()
    }
    fn gauss(&mut self) -> f64 {
        let (u, v) = (self.unit().max(1e-300), self.unit());
        (-2.0 * u.ln()).sqrt() * (std::f64::consts::TAU * v).cos()
    }
    fn rot(&mut self) -> [[f64; 3]; 3] {
        let q = [0; 4].map(|_| self.gauss());
        let n = q.iter().map(|x| x * x).sum::<f64>().sqrt();
        exact_collision::cases::rotation_f64(q.map(|v| v / n))
    }
    fn bx(&mut self, spread: f64) -> Shape<f64> {
        let r = self.rot();
        let e = [0; 3].map(|_| self.uniform(0.1, 1.0));
        let c = [0; 3].map(|_| self.uniform(-spread, spread));
        let h = [0, 1, 2].map(|i| Vec3::new(r[0][i] * e[i], r[1][i] * e[i], r[2][i] * e[i]));
        Shape::Box(Obb::new(Vec3::new(c[0], c[1], c[2]), h).unwrap())
    }
    fn tri(&mut self, spread: f64) -> Shape<f64> {
        let c = [0; 3].map(|_| self.uniform(-spread, spread));
        let v = [0; 3].map(|_| {
            Vec3::new(
                c[0] + self.uniform(-1., 1.),
                c[1] + self.uniform(-1., 1.),
                c[2] + self.uniform(-1., 1.),
            )
        });
        Shape::Triangle(Triangle::new(v))
    }
    fn prism(&mut self, spread: f64) -> Shape<f64> {
        let (cx, cy) = (self.uniform(-spread, spread), self.uniform(-spread, spread));
        let a = self.uniform(0., std::f64::consts::TAU);
        let (w, h) = (self.uniform(0.1, 1.), self.uniform(0.1, 1.));
        let pts = [(1., 1.), (-1., 1.), (-1., -1.), (1., -1.)].map(|(sx, sy)| {
            Vec2::new(
                cx + a.cos() * sx * w - a.sin() * sy * h,
                cy + a.sin() * sx * w + a.cos() * sy * h,
            )
        });
        let z0 = self.uniform(-spread, spread);
        Shape::Prism(Prism::new(pts, z0, z0 + self.uniform(0.1, 1.)).unwrap())
    }
    fn shape(&mut self, kind: &str, spread: f64) -> Shape<f64> {
        match kind {
            "box" => self.bx(spread),
            "tri" => self.tri(spread),
            _ => self.prism(spread),
        }
    }
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let pair = args.get(1).map(String::as_str).unwrap_or("box_box");
    let op = args.get(2).map(String::as_str).unwrap_or("distance");
    let n: usize = args.get(3).and_then(|s| s.parse().ok()).unwrap_or(300);
    let mode = args.get(4).map(String::as_str).unwrap_or("run");
    let spread: f64 = args.get(5).and_then(|s| s.parse().ok()).unwrap_or(3.0);
    let (ka, kb) = pair.split_once('_').expect("PAIR is KIND_KIND");
    let mut r = Rng(7);
    let pairs: Vec<_> = (0..n)
        .map(|_| (r.shape(ka, spread), r.shape(kb, spread)))
        .collect();
    let t0 = Instant::now();
    let mut acc = 0u64;
    let mut bad = 0;
    for (a, b) in &pairs {
        if mode == "gen" {
            continue;
        }
        if mode == "exhaustive" {
            // The path every float query took before the fast path.
            let (ea, eb) = (a.to_rational(), b.to_rational());
            acc += if op == "intersect" {
                intersect(&ea, &eb).unwrap().intersects() as u64
            } else {
                distance(&ea, &eb).unwrap().distance_squared.denom().bits()
            };
            continue;
        }
        if op == "intersect" {
            let got = intersect_exact(a, b).unwrap();
            acc += got.intersects() as u64;
            if mode == "check" {
                let want = intersect(&a.to_rational(), &b.to_rational()).unwrap();
                if got != want {
                    bad += 1;
                    if bad < 4 {
                        eprintln!("MISMATCH {a:?} {b:?}\n got {got:?}\n want {want:?}");
                    }
                }
            }
        } else {
            let got = distance_exact(a, b).unwrap();
            acc += got.distance_squared.denom().bits();
            if mode == "check" {
                let want = distance(&a.to_rational(), &b.to_rational()).unwrap();
                if got != want {
                    bad += 1;
                    if bad < 4 {
                        eprintln!("MISMATCH {a:?} {b:?}\n got {got:?}\n want {want:?}");
                    }
                }
            }
        }
    }
    let dt = t0.elapsed().as_secs_f64();
    println!(
        "{pair} {op}: {n} pairs, {:.2} µs per pair (checksum {acc}); stats {:?}; mismatches {bad}",
        dt * 1e6 / n as f64,
        stats::snapshot()
    );
}
