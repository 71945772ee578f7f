//! The library path of `distance` between a sphere and a box, for
//! instruction counts: reads a `sphere_box_distance.jsonl` file of
//! `scripts/gen_rounded_throughput.py` (or any lines of a sphere and a box or
//! cube, in either order, the box possibly with a radius), builds the shapes
//! once and answers every line `REPS` times with `rounded::distance_f64`
//! (`fast`, the default), `rounded::distance_exact_f64` (`exact`), nothing
//! (`build`), or, built with `--features parry`, parry3d-f64's
//! `query::distance` on the same shapes, built once (`parry`, sphere first
//! and box lines only; `parry-build` only builds them). Prints the sum of the answers and the fallback counts of the
//! point–box path. `check` compares every `distance_f64` with the exact
//! path's rounding (`rounded::distance_exact`) bit for bit and counts the
//! differences.
//!
//! `cargo run --release --example sphere_box_profile -- FILE [fast|exact|build|parry|parry-build|check] [REPS]`
//!
//! Instructions per pair: `(count(mode, REPS) − count(build, REPS))/(lines·REPS)`
//! under `valgrind --tool=callgrind`.

use exact_collision::query::rounded;
use exact_collision::shape::Cube;
use exact_collision::shape::Rounded;
use exact_collision::{stats, Obb, Shape, Vec3};

fn v3(v: &serde_json::Value) -> Vec3<f64> {
    let c = |k: usize| v[k].as_f64().expect("a number");
    Vec3::new(c(0), c(1), c(2))
}

/// Parry's shapes and poses for the pairs (a sphere first, then a box).
#[cfg(feature = "parry")]
type ParryPair = (
    parry3d_f64::math::Pose,
    parry3d_f64::shape::Ball,
    parry3d_f64::math::Pose,
    parry3d_f64::shape::Cuboid,
);

#[cfg(feature = "parry")]
fn parry_pairs(pairs: &[(Rounded<f64>, Rounded<f64>)]) -> Vec<ParryPair> {
    use exact_collision::shape::Core;
    use parry3d_f64::math::{Mat3, Pose, Rot3, Vec3 as PVec3};
    use parry3d_f64::shape::{Ball, Cuboid};
    pairs
        .iter()
        .map(|(a, b)| {
            let (Core::Point(p), Core::Shape(Shape::Box(o))) = (&a.core, &b.core) else {
                panic!("a sphere and a box")
            };
            let h = &o.half_axes;
            let len = |v: &Vec3<f64>| (v.x * v.x + v.y * v.y + v.z * v.z).sqrt();
            let col = |v: &Vec3<f64>| {
                let l = len(v);
                PVec3::new(v.x / l, v.y / l, v.z / l)
            };
            let rot = Rot3::from_mat3(&Mat3::from_cols(col(&h[0]), col(&h[1]), col(&h[2])));
            (
                Pose::translation(p.x, p.y, p.z),
                Ball::new(a.radius),
                Pose::from_parts(PVec3::new(o.center.x, o.center.y, o.center.z), rot),
                Cuboid::new(PVec3::new(len(&h[0]), len(&h[1]), len(&h[2]))),
            )
        })
        .collect()
}

/// Parry's distances of the pairs `reps` times, summed.
#[cfg(feature = "parry")]
fn parry_run(pairs: &[(Rounded<f64>, Rounded<f64>)], reps: usize) -> f64 {
    let prepared = parry_pairs(pairs);
    let mut sum = 0.0;
    for _ in 0..reps {
        for (pa, a, pb, b) in &prepared {
            sum += parry3d_f64::query::distance(pa, a, pb, b)
                .expect("supported")
                .distance;
        }
    }
    sum
}

#[cfg(not(feature = "parry"))]
fn parry_run(_: &[(Rounded<f64>, Rounded<f64>)], _: usize) -> f64 {
    panic!("build with --features parry")
}

/// A sphere, a box or a cube of the protocol's form, in doubles.
fn shape(v: &serde_json::Value) -> Rounded<f64> {
    let r = v["radius"].as_f64().unwrap_or(0.0);
    match v["type"].as_str().expect("a type") {
        "sphere" => Rounded::sphere(v3(&v["center"]), r).expect("a sphere"),
        "box" => {
            let h = &v["half_axes"];
            let o = Obb::new(v3(&v["center"]), [v3(&h[0]), v3(&h[1]), v3(&h[2])]).expect("a box");
            Rounded::new(Shape::Box(o), r).expect("a box shape")
        }
        "cube" => {
            let p: Vec<Vec3<f64>> = (0..8).map(|i| v3(&v["vertices"][i])).collect();
            let c = Cube::new(p.try_into().expect("eight vertices")).expect("a cube");
            Rounded::new(Shape::Cube(c), r).expect("a cube shape")
        }
        t => panic!("not a sphere, box or cube: {t}"),
    }
}

fn main() {
    let mut args = std::env::args().skip(1);
    let file = args
        .next()
        .expect("usage: FILE [fast|exact|build|parry] [REPS]");
    let mode = args.next().unwrap_or_else(|| "fast".into());
    let reps: usize = args.next().map_or(1, |r| r.parse().expect("a count"));
    let text = std::fs::read_to_string(&file).expect("readable file");
    let pairs: Vec<(Rounded<f64>, Rounded<f64>)> = text
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| {
            let v: serde_json::Value = serde_json::from_str(l).expect("JSON");
            (shape(&v["a"]), shape(&v["b"]))
        })
        .collect();
    if mode == "check" {
        let mut differ = 0;
        for (a, b) in &pairs {
            let got = rounded::distance_f64(a, b).expect("an answer");
            let want = rounded::distance_exact(a, b)
                .expect("an answer")
                .distance_f64();
            if got.to_bits() != want.to_bits() {
                differ += 1;
                eprintln!("differs: {got:e} against {want:e}: {a:?} {b:?}");
            }
        }
        let (fast, fallback) = stats::ROUNDED_POINT_BOX.get();
        let (ziv, mid) = stats::SQRT_RATIO_ZIV.get();
        println!(
            "{} pairs: {differ} differ from the exact rounding; point-box {fast} fast, {fallback} fallback; rounding {ziv} by Ziv's test, {mid} left to the midpoint signs",
            pairs.len()
        );
        return;
    }
    if mode == "parry" || mode == "parry-build" {
        let sum = parry_run(&pairs, if mode == "parry" { reps } else { 0 });
        println!("{} pairs x {reps}: parry sum {sum:e}", pairs.len());
        return;
    }
    let mut sum = 0.0;
    for _ in 0..reps {
        for (a, b) in &pairs {
            sum += match mode.as_str() {
                "build" => 0.0,
                "exact" => rounded::distance_exact_f64(a, b)
                    .expect("an answer")
                    .distance_f64(),
                _ => rounded::distance_f64(a, b).expect("an answer"),
            };
        }
    }
    let (fast, fallback) = stats::ROUNDED_POINT_BOX.get();
    let (ziv, mid) = stats::SQRT_RATIO_ZIV.get();
    println!(
        "{} pairs x {reps}: sum {sum:e}; point-box {fast} fast, {fallback} fallback; rounding {ziv} by Ziv's test, {mid} left to the midpoint signs",
        pairs.len()
    );
}
