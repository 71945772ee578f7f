//! Generators for the hard cases, shared by the property tests.
#![allow(dead_code)]

use exact_collision::poly::{isolate_roots, Poly, RealRoot};
use num_bigint::BigInt;
use num_rational::BigRational;
use num_traits::Signed;
use proptest::prelude::*;

/// A double a few ulps away from `x` (k steps of next_up / next_down).
pub fn ulps_away(x: f64, k: i32) -> f64 {
    let mut y = x;
    for _ in 0..k.unsigned_abs() {
        y = if k > 0 { y.next_up() } else { y.next_down() };
    }
    y
}

/// Scale by 2^e in steps (exact unless the result over- or underflows).
pub fn scale2(x: f64, e: i32) -> f64 {
    let mut y = x;
    let mut e = e;
    while e != 0 {
        let s = e.clamp(-1000, 1000);
        y *= 2f64.powi(s);
        e -= s;
    }
    y
}

/// A moderate coordinate: a small integer over a power of two, or a uniform double.
pub fn coord() -> impl Strategy<Value = f64> {
    prop_oneof![
        (-64i32..64, 0i32..8).prop_map(|(n, e)| n as f64 / (1 << e) as f64),
        -10.0f64..10.0,
    ]
}

pub fn point() -> impl Strategy<Value = [f64; 3]> {
    [coord(), coord(), coord()]
}

/// The exponent scales that stress a predicate: none, huge, tiny, subnormal.
pub fn scale_exp() -> impl Strategy<Value = i32> {
    prop_oneof![
        3 => Just(0),
        1 => 990i32..1010,
        1 => -1000i32..-990,
        1 => -1075i32..-1060,
        1 => 300i32..340,
        1 => -340i32..-300,
    ]
}

/// Four points, generated to be near-degenerate in one of several ways, then
/// scaled by a power of two (which keeps exact coplanarity unless rounding).
pub fn four_points() -> impl Strategy<Value = [[f64; 3]; 4]> {
    four_points_scaled(scale_exp())
}

/// The exponent scales that stress an f32 predicate: none, huge, tiny, subnormal.
pub fn scale_exp_f32() -> impl Strategy<Value = i32> {
    prop_oneof![3 => Just(0), 1 => 110i32..120, 1 => -130i32..-120, 1 => -152i32..-145]
}

/// [`four_points`] with the given power-of-two scales.
pub fn four_points_scaled(
    scale: impl Strategy<Value = i32>,
) -> impl Strategy<Value = [[f64; 3]; 4]> {
    let random = [point(), point(), point(), point()].boxed();
    // Exactly coplanar: d = a + i(b − a) + j(c − a) with small integer data.
    let coplanar = (point(), point(), point(), -3i32..4, -3i32..4)
        .prop_map(|(a, b, c, i, j)| {
            let d = [0, 1, 2].map(|k| a[k] + i as f64 * (b[k] - a[k]) + j as f64 * (c[k] - a[k]));
            [a, b, c, d]
        })
        .boxed();
    // Nearly coplanar: d on the plane up to rounding, then nudged a few ulps.
    let near = (
        point(),
        point(),
        point(),
        0.0f64..1.0,
        0.0f64..1.0,
        0usize..3,
        -3i32..4,
    )
        .prop_map(|(a, b, c, s, t, axis, k)| {
            let mut d = [0, 1, 2].map(|m| a[m] + s * (b[m] - a[m]) + t * (c[m] - a[m]));
            d[axis] = ulps_away(d[axis], k);
            [a, b, c, d]
        })
        .boxed();
    // Mixed scales: one point far away, the others near each other.
    let mixed = (point(), point(), point(), point(), 100i32..400)
        .prop_map(|(a, b, c, d, e)| [a, b, c, d.map(|x| scale2(x, e))])
        .boxed();
    (
        prop_oneof![1 => random, 2 => coplanar, 2 => near, 1 => mixed],
        scale,
    )
        .prop_map(|(ps, e)| ps.map(|p| p.map(|x| scale2(x, e))))
}

/// Exact rational value of a finite double.
pub fn q(x: f64) -> BigRational {
    BigRational::from_float(x).expect("finite")
}

/// The sign of ((b − a) × (c − a)) · (d − a), computed directly with
/// num-rational (independent of the crate's arithmetic).
pub fn orient3d_oracle(p: &[[f64; 3]; 4]) -> i32 {
    let v = |i: usize| p[i].map(q);
    let (a, b, c, d) = (v(0), v(1), v(2), v(3));
    let sub =
        |x: &[BigRational; 3], y: &[BigRational; 3]| [&x[0] - &y[0], &x[1] - &y[1], &x[2] - &y[2]];
    let (u, w, z) = (sub(&b, &a), sub(&c, &a), sub(&d, &a));
    let cx = &u[1] * &w[2] - &u[2] * &w[1];
    let cy = &u[2] * &w[0] - &u[0] * &w[2];
    let cz = &u[0] * &w[1] - &u[1] * &w[0];
    let det = cx * &z[0] + cy * &z[1] + cz * &z[2];
    sign_of(&det)
}

/// The sign of (b − a) × (c − a) in 2-D, with num-rational.
pub fn orient2d_oracle(p: &[[f64; 2]; 3]) -> i32 {
    let v = |i: usize| p[i].map(q);
    let (a, b, c) = (v(0), v(1), v(2));
    let det = (&b[0] - &a[0]) * (&c[1] - &a[1]) - (&b[1] - &a[1]) * (&c[0] - &a[0]);
    sign_of(&det)
}

pub fn sign_of(x: &BigRational) -> i32 {
    use num_traits::{Signed, Zero};
    if x.is_zero() {
        0
    } else if x.is_negative() {
        -1
    } else {
        1
    }
}

/// Whether an environment variable asks for the heavy property runs.
pub fn heavy() -> bool {
    std::env::var_os("EXACT_HEAVY").is_some()
}

/// proptest cases: `light` by default, `heavy` with EXACT_HEAVY=1.
pub fn cases(light: u32, heavy_cases: u32) -> u32 {
    if heavy() {
        heavy_cases
    } else {
        light
    }
}

/// Mathematica's earliest root t* (`tests/data/ccd-simulation/.../*_earliest.json`):
/// a rational, or the k-th real root of an integer polynomial.
pub fn mathematica_root(spec: &serde_json::Value) -> RealRoot {
    if let Some(r) = spec.get("rational") {
        let (n, d) = r.as_str().unwrap().split_once('/').unwrap();
        return RealRoot::Exact(BigRational::new(n.parse().unwrap(), d.parse().unwrap()));
    }
    let coeffs: Vec<BigInt> = spec["poly"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c.as_str().unwrap().parse().unwrap())
        .collect();
    let k = spec["real_root"].as_u64().unwrap() as usize;
    // Every real root lies in [−B, B], B = 1 + max |cᵢ/c_d| (Cauchy).
    let lead = BigRational::from_integer(coeffs.last().unwrap().clone());
    let bound = coeffs
        .iter()
        .map(|c| (BigRational::from_integer(c.clone()) / &lead).abs())
        .max()
        .unwrap()
        + BigRational::from_integer(1.into());
    let roots = isolate_roots(&Poly::from_bigints(&coeffs), &-bound.clone(), &bound);
    roots.isolated()[k].value.clone()
}
