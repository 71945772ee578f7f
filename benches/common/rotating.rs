//! The random rotating-box workload shared by `benches/ccd.rs` and
//! `examples/ccd_profile.rs` (included by both with `#[path]`).

use exact_collision::ccd::{ccd, CcdQuery, Motion, MovingBox};
use exact_collision::protocol::{parse_query, Op};
use exact_collision::{Obb, Vec3};
use num_rational::BigRational;
use serde_json::Value;

pub fn query(v: &Value) -> CcdQuery {
    match parse_query(v).unwrap().op {
        Op::Ccd(q) => q,
        _ => unreachable!(),
    }
}

use exact_collision::poly::planted::splitmix64 as splitmix;

/// One box of the random workload: half-extents, the quaternion curve
/// q(t) = q0 + t·q1 as (w, x, y, z) pairs, and the translation x0 + t·x1 per axis.
#[derive(Clone)]
pub struct Side {
    pub e: [i64; 3],
    pub q: [[i64; 2]; 4],
    pub tr: [[i64; 2]; 3],
}

/// Random rotating cuboid pairs: integer half-extents 1..3, quaternions with
/// entries in −4..4 moving linearly, centers approaching each other.
pub fn random_sides(n: usize) -> Vec<(Side, Side)> {
    let mut s = 12345u64;
    let mut r = |lo: i64, hi: i64| lo + (splitmix(&mut s) % ((hi - lo + 1) as u64)) as i64;
    (0..n)
        .map(|_| {
            let mut side = |x0: i64| Side {
                e: [r(1, 3), r(1, 3), r(1, 3)],
                q: [0; 4].map(|_| [r(-4, 4), r(-4, 4)]),
                tr: [[x0, -x0], [r(-2, 2), r(-2, 2)], [r(-2, 2), r(-2, 2)]],
            };
            (side(-6), side(6))
        })
        .collect()
}

/// The box and motion of a side, built with the library's constructors.
pub fn side_box(s: &Side) -> MovingBox {
    let q = |n: i64| BigRational::from_integer(n.into());
    let v = |x: i64, y: i64, z: i64| Vec3::new(q(x), q(y), q(z));
    let shape = Obb::new(
        v(0, 0, 0),
        [v(s.e[0], 0, 0), v(0, s.e[1], 0), v(0, 0, s.e[2])],
    )
    .expect("a box");
    let lin = |c: [i64; 2]| vec![q(c[0]), q(c[1])];
    let motion = Motion::quaternion(s.q.map(lin), s.tr.map(lin)).expect("a motion");
    MovingBox::new(shape, motion)
}

/// The pairs that our query accepts (|q|² never vanishing on [0, 1]).
pub fn random_pairs(n: usize) -> Vec<((Side, Side), CcdQuery)> {
    random_sides(n)
        .into_iter()
        .map(|(a, b)| {
            let q = CcdQuery::new(side_box(&a), side_box(&b));
            ((a, b), q)
        })
        .filter(|(_, q)| ccd(q).is_ok())
        .collect()
}

pub fn random_rotating(n: usize) -> Vec<CcdQuery> {
    random_pairs(n).into_iter().map(|(_, q)| q).collect()
}
