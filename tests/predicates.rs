//! The predicates' float paths against an independent exact oracle.

mod common;

use common::*;
use exact_collision::predicates::{orient2d, orient3d, sign_of, Expr};
use exact_collision::{Ring, Sign, Vec2, Vec3};
use num_rational::BigRational;
use proptest::prelude::*;

fn v3<S: Copy>(p: [S; 3]) -> Vec3<S> {
    Vec3::new(p[0], p[1], p[2])
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(cases(3000, 200_000)))]

    /// f64 orient3d = the exact sign, on near-degenerate, coplanar, huge, tiny
    /// and subnormal inputs.
    #[test]
    fn orient3d_f64_is_exact(p in four_points()) {
        prop_assume!(p.iter().flatten().all(|x| x.is_finite()));
        let s = orient3d(&v3(p[0]), &v3(p[1]), &v3(p[2]), &v3(p[3]));
        prop_assert_eq!(s.to_i32(), orient3d_oracle(&p));
        // The same points on the exact path.
        let r = p.map(|x| v3(x).map(|c| q(*c)));
        prop_assert_eq!(orient3d(&r[0], &r[1], &r[2], &r[3]).to_i32(), orient3d_oracle(&p));
    }

    /// f32 inputs: the same, on the f32 values.
    #[test]
    fn orient3d_f32_is_exact(p in four_points_scaled(scale_exp_f32())) {
        let p32 = p.map(|x| x.map(|c| c as f32));
        prop_assume!(p32.iter().flatten().all(|x| x.is_finite()));
        let s = orient3d(&v3(p32[0]), &v3(p32[1]), &v3(p32[2]), &v3(p32[3]));
        prop_assert_eq!(s.to_i32(), orient3d_oracle(&p32.map(|x| x.map(|c| c as f64))));
    }

    /// f64 orient2d = the exact sign (the z coordinate dropped).
    #[test]
    fn orient2d_f64_is_exact(p in four_points()) {
        let p2 = [[p[0][0], p[0][1]], [p[1][0], p[1][1]], [p[3][0], p[3][1]]];
        prop_assume!(p2.iter().flatten().all(|x| x.is_finite()));
        let v = |a: [f64; 2]| Vec2::new(a[0], a[1]);
        prop_assert_eq!(orient2d(&v(p2[0]), &v(p2[1]), &v(p2[2])).to_i32(), orient2d_oracle(&p2));
    }

    /// The general mechanism (interval filter + exact fallback) on a
    /// polynomial with heavy cancellation: x·y − z·w.
    #[test]
    fn general_expression_is_exact(x in coord(), y in coord(), k in -2i32..3, e in scale_exp()) {
        let (x, y) = (scale2(x, e / 2), scale2(y, e / 2));
        let z = ulps_away(x, k);
        let w = y;
        prop_assume!([x, y, z, w].iter().all(|c| c.is_finite()));
        let s = sign_of(&Cancel([x, y, z, w]));
        let exact = &(&q(x) * &q(y)) - &(&q(z) * &q(w));
        prop_assert_eq!(s.to_i32(), common::sign_of(&exact));
    }
}

/// x·y − z·w.
struct Cancel([f64; 4]);

impl Expr<f64> for Cancel {
    fn eval<R: Ring, L: Fn(&f64) -> R>(&self, l: &L) -> R {
        let [x, y, z, w] = self.0.map(|c| l(&c));
        x.mul_ref(&y).sub_ref(&z.mul_ref(&w))
    }
}

#[test]
fn robust_crate_fails_outside_its_range_and_we_do_not() {
    // Why the range guard exists: with t = 2^-300 the points (0,0,0), (t,0,0),
    // (0,t,0), (t,t,t²) are not coplanar (the determinant is t⁴ > 0, by hand),
    // but robust 1.2's orient3d underflows and answers 0.
    let t = 2f64.powi(-300);
    let p = [[0.0, 0.0, 0.0], [t, 0.0, 0.0], [0.0, t, 0.0], [t, t, t * t]];
    assert_eq!(orient3d_oracle(&p), 1);
    let c = |a: [f64; 3]| robust::Coord3D {
        x: a[0],
        y: a[1],
        z: a[2],
    };
    assert_eq!(
        robust::orient3d(c(p[0]), c(p[1]), c(p[2]), c(p[3])),
        0.0,
        "robust 1.2 measured to fail here"
    );
    let ours = orient3d(&v3(p[0]), &v3(p[1]), &v3(p[2]), &v3(p[3]));
    assert_eq!(ours, Sign::Positive);
}

#[test]
fn subnormal_orient2d() {
    // robust 1.2's orient2d returns 0 on subnormal inputs; these are not collinear.
    let t = f64::from_bits(1); // 4.9e-324
    let p = [[0.0, 0.0], [2.0 * t, t], [t, 2.0 * t]];
    assert_eq!(orient2d_oracle(&p), 1);
    let c = |a: [f64; 2]| robust::Coord { x: a[0], y: a[1] };
    assert_eq!(
        robust::orient2d(c(p[0]), c(p[1]), c(p[2])),
        0.0,
        "robust 1.2 measured to fail here"
    );
    let v = |a: [f64; 2]| Vec2::new(a[0], a[1]);
    assert_eq!(orient2d(&v(p[0]), &v(p[1]), &v(p[2])), Sign::Positive);
}

#[test]
fn exact_path_on_rationals_beyond_the_double_range() {
    // Coordinates 1e400 (exact strings can say so) and a nudge of 1e-400.
    let big: BigRational = exact_collision::protocol::number::parse_exact("1e400").unwrap();
    let tiny: BigRational = exact_collision::protocol::number::parse_exact("1e-400").unwrap();
    let z = BigRational::from_integer(0.into());
    let o = Vec3::new(z.clone(), z.clone(), z.clone());
    let x = Vec3::new(big.clone(), z.clone(), z.clone());
    let y = Vec3::new(z.clone(), big.clone(), z.clone());
    let d = Vec3::new(big.clone(), big.clone(), -tiny);
    assert_eq!(orient3d(&o, &x, &y, &d), Sign::Negative);
}
