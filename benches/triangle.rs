//! Triangle–triangle benchmarks, in one run on the same inputs:
//! exact decision (f64 inputs), the exact certificate with the contact set,
//! and the certificate rounded to f64, vs a plain-float Guigue–Devillers
//! written here vs parry3d's `intersection_test`; exact squared distance and
//! closest points from f64 inputs (exact, and rounded to f64) vs parry3d's
//! `distance`; and mesh vs mesh on two generated meshes of about 1e5
//! triangles each.
//!
//! `cargo bench --bench triangle` (set `TRI_BENCH_QUICK=1` for a short run).

use criterion::{black_box, criterion_group, criterion_main, Criterion, Throughput};
use exact_collision::mesh::{intersecting_pairs, min_distance, Bvh, Mesh};
use exact_collision::predicates::{adaptive_evaluations, exact_evaluations};
use exact_collision::query::triangle_triangle::{distance, distance_exact};
use exact_collision::query::triangle_triangle::{
    intersect, intersect_with_contact_exact, intersects,
};
use exact_collision::{Triangle, Vec3};
use std::time::Instant;

type F3 = [f64; 3];

struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        exact_collision::poly::planted::splitmix64(&mut self.0)
    }
    /// Uniform in [0, 1).
    fn unit(&mut self) -> f64 {
        (self.next() >> 11) as f64 / (1u64 << 53) as f64
    }
    fn pt(&mut self) -> F3 {
        [self.unit(), self.unit(), self.unit()]
    }
}

fn pairs(n: usize) -> Vec<([F3; 3], [F3; 3])> {
    let mut r = Rng(2003);
    (0..n)
        .map(|_| ([r.pt(), r.pt(), r.pt()], [r.pt(), r.pt(), r.pt()]))
        .collect()
}

fn tri(t: &[F3; 3]) -> Triangle<f64> {
    Triangle::new(t.map(|[x, y, z]| Vec3::new(x, y, z)))
}

/// Plain-float Guigue–Devillers (no filter, no exact fallback): the structure of
/// the exact test with raw f64 determinants, for timing comparison.
mod float_gd {
    use super::F3;
    fn sub(a: F3, b: F3) -> F3 {
        [a[0] - b[0], a[1] - b[1], a[2] - b[2]]
    }
    fn orient(a: F3, b: F3, c: F3, d: F3) -> f64 {
        let (u, v, w) = (sub(b, a), sub(c, a), sub(d, a));
        (u[1] * v[2] - u[2] * v[1]) * w[0]
            + (u[2] * v[0] - u[0] * v[2]) * w[1]
            + (u[0] * v[1] - u[1] * v[0]) * w[2]
    }
    fn sgn(x: f64) -> i8 {
        (x > 0.0) as i8 - (x < 0.0) as i8
    }
    fn normalize(s: [i8; 3]) -> Option<([usize; 3], bool)> {
        for k in 0..3 {
            let idx = [k, (k + 1) % 3, (k + 2) % 3];
            for neg in [false, true] {
                let f = |x: i8| if neg { -x } else { x };
                if f(s[idx[0]]) > 0 && f(s[idx[1]]) <= 0 && f(s[idx[2]]) <= 0 {
                    return Some((idx, neg));
                }
            }
        }
        for k in 0..3 {
            let idx = [k, (k + 1) % 3, (k + 2) % 3];
            if s[idx[0]] == 0 && s[idx[1]] == s[idx[2]] && s[idx[1]] != 0 {
                return Some((idx, s[idx[1]] > 0));
            }
        }
        None
    }
    /// Coplanar pairs are answered "false" (as Nathan's strategy does): the comparison
    /// is about the common, non-coplanar path.
    pub fn intersects(a: &[F3; 3], b: &[F3; 3]) -> bool {
        let sa = [0, 1, 2].map(|i| sgn(orient(b[0], b[1], b[2], a[i])));
        if sa[0] != 0 && sa[0] == sa[1] && sa[1] == sa[2] {
            return false;
        }
        let sb = [0, 1, 2].map(|i| sgn(orient(a[0], a[1], a[2], b[i])));
        if sb[0] != 0 && sb[0] == sb[1] && sb[1] == sb[2] {
            return false;
        }
        let (Some((mut ia, na)), Some((mut ib, nb))) = (normalize(sa), normalize(sb)) else {
            return false;
        };
        if na {
            ib.swap(1, 2);
        }
        if nb {
            ia.swap(1, 2);
        }
        orient(a[ia[0]], a[ia[1]], b[ib[0]], b[ib[1]]) <= 0.0
            && orient(a[ia[0]], a[ia[2]], b[ib[2]], b[ib[0]]) <= 0.0
    }
}

fn quick() -> bool {
    std::env::var("TRI_BENCH_QUICK").is_ok()
}

/// The same pairs as parry3d triangles (f64 rounded to f32).
fn parry_pairs(
    ps: &[([F3; 3], [F3; 3])],
) -> Vec<(parry3d::shape::Triangle, parry3d::shape::Triangle)> {
    let p = |t: &[F3; 3]| {
        let v = |q: F3| parry3d::math::Vector::new(q[0] as f32, q[1] as f32, q[2] as f32);
        parry3d::shape::Triangle::new(v(t[0]), v(t[1]), v(t[2]))
    };
    ps.iter().map(|(a, b)| (p(a), p(b))).collect()
}

fn bench_intersect(c: &mut Criterion) {
    let n = if quick() { 10_000 } else { 100_000 };
    let ps = pairs(n);
    let ts: Vec<_> = ps.iter().map(|(a, b)| (tri(a), tri(b))).collect();
    let pt = parry_pairs(&ps);

    // Fallback rate and agreement, once, outside the timing.
    let (e0, a0) = (exact_evaluations(), adaptive_evaluations());
    let exact: Vec<bool> = ts.iter().map(|(a, b)| intersects(a, b)).collect();
    let (e1, a1) = (exact_evaluations(), adaptive_evaluations());
    let float_wrong = ps
        .iter()
        .zip(&exact)
        .filter(|((a, b), e)| float_gd::intersects(a, b) != **e)
        .count();
    let id = parry3d::math::Pose::IDENTITY;
    let parry_wrong = pt
        .iter()
        .zip(&exact)
        .filter(|((a, b), e)| {
            parry3d::query::intersection_test(&id, a, &id, b)
                .map(|r| r.intersecting)
                .unwrap_or(false)
                != **e
        })
        .count();
    eprintln!(
        "[triangle] {n} uniform pairs in [0,1]^3: {} intersect; exact big-number fallbacks {}, \
         robust adaptive stages {}; plain-float GD disagrees on {float_wrong}, parry3d (f32) on {parry_wrong}",
        exact.iter().filter(|x| **x).count(),
        e1 - e0,
        a1 - a0
    );

    let mut g = c.benchmark_group("triangle_intersect");
    g.throughput(Throughput::Elements(n as u64));
    g.sample_size(10);
    g.bench_function("exact_decision_f64", |bch| {
        bch.iter(|| {
            ts.iter()
                .filter(|(a, b)| intersects(black_box(a), black_box(b)))
                .count()
        })
    });
    // The certificate, as the protocol writes it: a separating axis, or a
    // witness and the whole contact set, exact (lowest terms).
    g.bench_function("exact_certificate_and_contact_f64", |bch| {
        bch.iter(|| {
            ts.iter()
                .filter(|(a, b)| {
                    intersect_with_contact_exact(black_box(a), black_box(b))
                        .map(|(i, _)| i.intersects())
                        .unwrap_or(false)
                })
                .count()
        })
    });
    // The certificate rounded to f64 (`intersect::<f64>`: decisions exact,
    // the axis or witness correctly rounded).
    g.bench_function("certificate_rounded_f64", |bch| {
        bch.iter(|| {
            ts.iter()
                .filter(|(a, b)| {
                    intersect(black_box(a), black_box(b))
                        .map(|i| i.intersects())
                        .unwrap_or(false)
                })
                .count()
        })
    });
    g.bench_function("float_guigue_devillers", |bch| {
        bch.iter(|| {
            ps.iter()
                .filter(|(a, b)| float_gd::intersects(black_box(a), black_box(b)))
                .count()
        })
    });
    g.bench_function("parry3d_intersection_test_f32", |bch| {
        bch.iter(|| {
            pt.iter()
                .filter(|(a, b)| {
                    parry3d::query::intersection_test(&id, black_box(a), &id, black_box(b))
                        .map(|r| r.intersecting)
                        .unwrap_or(false)
                })
                .count()
        })
    });
    g.finish();
}

fn bench_distance(c: &mut Criterion) {
    let n = if quick() { 200 } else { 2_000 };
    let ps = pairs(n);
    let ts: Vec<_> = ps.iter().map(|(a, b)| (tri(a), tri(b))).collect();
    let pt = parry_pairs(&ps);
    let id = parry3d::math::Pose::IDENTITY;
    let mut g = c.benchmark_group("triangle_distance");
    g.throughput(Throughput::Elements(n as u64));
    g.sample_size(10);
    g.bench_function("exact_distance_from_f64", |bch| {
        bch.iter(|| {
            ts.iter()
                .map(|(a, b)| distance_exact(black_box(a), black_box(b)).is_ok() as usize)
                .sum::<usize>()
        })
    });
    g.bench_function("distance_rounded_f64", |bch| {
        bch.iter(|| {
            ts.iter()
                .map(|(a, b)| distance(black_box(a), black_box(b)).is_ok() as usize)
                .sum::<usize>()
        })
    });
    // The peer in the same run: parry3d's float distance (GJK/EPA, f32, no
    // closest points, not exact), for scale.
    g.bench_function("parry3d_distance_f32", |bch| {
        bch.iter(|| {
            pt.iter()
                .map(|(a, b)| {
                    parry3d::query::distance(&id, black_box(a), &id, black_box(b))
                        .map(|d| d.distance)
                        .unwrap_or(0.0)
                })
                .sum::<f32>()
        })
    });
    g.finish();
}

/// A UV sphere of about `n` triangles, centre `c`, radius `r`.
fn sphere(n: usize, c: F3, r: f64) -> Mesh<f64> {
    let k = ((n as f64 / 2.0).sqrt()) as usize;
    let p = |i: usize, j: usize| {
        let th = std::f64::consts::PI * i as f64 / k as f64;
        let ph = 2.0 * std::f64::consts::PI * j as f64 / k as f64;
        Vec3::new(
            c[0] + r * th.sin() * ph.cos(),
            c[1] + r * th.sin() * ph.sin(),
            c[2] + r * th.cos(),
        )
    };
    let mut t = Vec::with_capacity(2 * k * k);
    for i in 0..k {
        for j in 0..k {
            let (a, b, cc, d) = (p(i, j), p(i + 1, j), p(i + 1, j + 1), p(i, j + 1));
            t.push(Triangle::new([a.clone(), b, cc.clone()]));
            t.push(Triangle::new([a, cc, d]));
        }
    }
    Mesh::new(t)
}

fn rss_kib() -> u64 {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("VmHWM:"))
                .and_then(|l| l.split_whitespace().nth(1)?.parse().ok())
        })
        .unwrap_or(0)
}

/// Mesh vs mesh: measured once (each run takes seconds), printed.
fn mesh_vs_mesh(_: &mut Criterion) {
    let n = if quick() { 10_000 } else { 100_000 };
    for (label, shift) in [("overlapping", 0.5), ("separated", 2.01)] {
        let a = sphere(n, [0.0, 0.0, 0.0], 1.0);
        let b = sphere(n, [shift, 0.1, 0.05], 1.0);
        let t0 = Instant::now();
        let (ba, bb) = (Bvh::new(&a), Bvh::new(&b));
        let tb = t0.elapsed();
        let t1 = Instant::now();
        let pairs = intersecting_pairs(&a, &ba, &b, &bb, &mut || {});
        let ti = t1.elapsed();
        let t2 = Instant::now();
        let mut evals = 0u64;
        let d = min_distance(&a, &ba, &b, &bb, &mut || evals += 1)
            .unwrap()
            .unwrap();
        let td = t2.elapsed();
        eprintln!(
            "[mesh] {label}: {} x {} triangles; bvh {:.3} s; {} intersecting pairs in {:.3} s; \
             distance² ≈ {:.3e} in {:.3} s ({evals} exact pairs); peak RSS {} MiB",
            a.triangles.len(),
            b.triangles.len(),
            tb.as_secs_f64(),
            pairs.len(),
            ti.as_secs_f64(),
            exact_collision::Scalar::to_f64(&d.2.distance_squared),
            td.as_secs_f64(),
            rss_kib() / 1024
        );
    }
}

criterion_group!(benches, bench_intersect, bench_distance, mesh_vs_mesh);
criterion_main!(benches);
