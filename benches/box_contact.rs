//! Box–box contact, ours against parry3d-f64 `query::contact` on the same
//! random boxes (those of `scripts/gen_box_contact.py throughput`: centers in
//! [−0.6, 0.6]³, half extents in [0.1, 1], random rotations; most pairs meet):
//! ours is [`box_box::contact::contact`], the function the protocol's
//! `contact` op uses for two boxes of doubles (whether they meet, and the full
//! exact answer: δ², every optimal normal, the translation and the contact
//! region, or the exact distance of apart pairs); parry3d-f64's is
//! `query::contact(pose1, &cuboid1, pose2, &cuboid2, 0.0)` (a float depth,
//! normal and contact points). Both sides get the same boxes: ours is
//! parry's cuboid turned by the same rotation matrix, in doubles.
//!
//! Run: `cargo bench --features parry --bench box_contact`. The share of
//! meeting pairs the float-guided path left to the exact reference is
//! printed. "ours depth and normals" is a lighter answer: whether the boxes
//! meet and, for meeting ones, δ², `depth_f64` and the exact normals
//! ([`box_box::contact::depth_and_normals`]), no translation or region.
//! "ours contact unreduced" is the full answer before the reduction to
//! lowest terms ([`box_box::contact::contact_unreduced`]).
//! `BOX_CONTACT_PASS=ours|unreduced|lighter|parry|none` runs one pass of one loop
//! over the 1024 pairs and exits, for instruction counts (valgrind).

use criterion::{black_box, criterion_group, Criterion};
use exact_collision::num::sqrt::sqrt_nearest_f64;
use exact_collision::query::{box_box, ContactAnswer};
use exact_collision::stats;
use exact_collision::{Obb, Vec3};
use parry3d_f64::math::{Mat3, Pose, Rot3, Vec3 as PVec3};
use parry3d_f64::shape::Cuboid;

struct Case {
    a: Obb<f64>,
    b: Obb<f64>,
    pa: Pose,
    pb: Pose,
    ca: Cuboid,
    cb: Cuboid,
}

struct Gen(u64);
impl Gen {
    fn f(&mut self) -> f64 {
        let s = &mut self.0;
        *s ^= *s << 13;
        *s ^= *s >> 7;
        *s ^= *s << 17;
        (*s >> 11) as f64 / (1u64 << 53) as f64
    }
    fn u(&mut self, lo: f64, hi: f64) -> f64 {
        lo + (hi - lo) * self.f()
    }
}

fn cuboid(g: &mut Gen) -> (Obb<f64>, Pose, Cuboid) {
    let axis = PVec3::new(g.f() - 0.5, g.f() - 0.5, g.f() - 0.5 + 1e-3).normalize();
    let q = Rot3::from_axis_angle(axis, g.f() * 6.3);
    let m = Mat3::from_quat(q);
    let cols = [m.x_axis, m.y_axis, m.z_axis];
    let e = [g.u(0.1, 1.0), g.u(0.1, 1.0), g.u(0.1, 1.0)];
    let c = [g.u(-0.6, 0.6), g.u(-0.6, 0.6), g.u(-0.6, 0.6)];
    let h: [Vec3<f64>; 3] =
        std::array::from_fn(|i| Vec3::new(cols[i].x * e[i], cols[i].y * e[i], cols[i].z * e[i]));
    (
        Obb::new(Vec3::new(c[0], c[1], c[2]), h).unwrap(),
        Pose::from_parts(PVec3::new(c[0], c[1], c[2]), q),
        Cuboid::new(PVec3::new(e[0], e[1], e[2])),
    )
}

fn cases() -> Vec<Case> {
    let mut g = Gen(0x005e_ed0f_b0c5_c0de);
    (0..1024)
        .map(|_| {
            let (a, pa, ca) = cuboid(&mut g);
            let (b, pb, cb) = cuboid(&mut g);
            Case {
                a,
                b,
                pa,
                pb,
                ca,
                cb,
            }
        })
        .collect()
}

fn ours(cases: &[Case]) {
    for x in cases {
        black_box(box_box::contact::contact(black_box(&x.a), black_box(&x.b)).unwrap());
    }
}

/// The full exact answer before the reduction to lowest terms
/// ([`box_box::contact::contact_unreduced`]: integers over common
/// denominators, the same values).
fn unreduced(cases: &[Case]) {
    for x in cases {
        black_box(box_box::contact::contact_unreduced(black_box(&x.a), black_box(&x.b)).unwrap());
    }
}

/// The lighter answer: whether the boxes meet, and for meeting ones δ²,
/// `depth_f64` (the double nearest δ, decided exactly) and every optimal
/// normal, exact — no translation, no region, nothing for apart pairs.
fn lighter(cases: &[Case]) {
    for x in cases {
        let (a, b) = (black_box(&x.a), black_box(&x.b));
        if box_box::overlaps(a, b) {
            let (d2, normals) = box_box::contact::depth_and_normals(a, b).unwrap();
            black_box((sqrt_nearest_f64(&d2), normals));
        }
    }
}

fn parry(cases: &[Case]) {
    for x in cases {
        black_box(
            parry3d_f64::query::contact(
                black_box(&x.pa),
                black_box(&x.ca),
                black_box(&x.pb),
                black_box(&x.cb),
                0.0,
            )
            .unwrap(),
        );
    }
}

fn bench(c: &mut Criterion) {
    let cases = cases();
    let meeting = cases
        .iter()
        .filter(|x| {
            matches!(
                box_box::contact::contact(&x.a, &x.b).unwrap(),
                ContactAnswer::Meeting(_)
            )
        })
        .count();
    let (f0, b0) = stats::BOX_CONTACT.get();
    ours(&cases);
    let (f1, b1) = stats::BOX_CONTACT.get();
    println!(
        "box-box contact: {meeting} of {} pairs meet; {} proved on the float-guided path, {} by the exact reference",
        cases.len(),
        f1 - f0,
        b1 - b0
    );
    let mut group = c.benchmark_group("box_contact");
    group.bench_function("ours contact", |b| b.iter(|| ours(&cases)));
    group.bench_function("ours contact unreduced", |b| b.iter(|| unreduced(&cases)));
    group.bench_function("ours depth and normals", |b| b.iter(|| lighter(&cases)));
    group.bench_function("parry3d_f64 contact", |b| b.iter(|| parry(&cases)));
    group.finish();
}

criterion_group!(benches, bench);

fn main() {
    if let Ok(pass) = std::env::var("BOX_CONTACT_PASS") {
        let cases = cases();
        match pass.as_str() {
            "ours" => ours(&cases),
            "unreduced" => unreduced(&cases),
            "lighter" => lighter(&cases),
            "parry" => parry(&cases),
            _ => {}
        }
        return;
    }
    benches();
    Criterion::default().configure_from_args().final_summary();
}
