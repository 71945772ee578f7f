//! The f64 fast paths against the exhaustive exact path, on two shapes decoded
//! straight from the bytes: the same intersect decision and certificate, the
//! same squared distance and closest points, and the f64-typed answers'
//! decisions the same as the exact ones.
#![no_main]
use exact_collision::query::{distance, distance_exact, intersect, intersect_exact};
use exact_collision::{Cube, Obb, Prism, Shape, Triangle, Vec2, Vec3};
use libfuzzer_sys::fuzz_target;

/// Bytes to doubles: a tag byte picks a quarter-grid value in [-4, 4) (ties
/// and touching contacts are common on the grid), such a value nudged by
/// ±2⁻ᵏ (k in 10..=52: just off a tie, where a float filter is the most
/// likely to be unable to decide), or the next 8 bytes as a double, its
/// binary exponent folded into [-16, 16]. The exhaustive exact path's cost
/// grows with the exponent range ([-64, 64] before, with the big-number
/// crates instrumented: about 30 inputs per second; docs/fuzzing.md).
struct Bytes<'a>(&'a [u8]);

impl Bytes<'_> {
    fn byte(&mut self) -> u8 {
        let (b, rest) = self.0.split_first().map_or((0, &[][..]), |(b, r)| (*b, r));
        self.0 = rest;
        b
    }
    fn f64(&mut self) -> f64 {
        let t = self.byte();
        let grid = ((t & 0x1f) as f64 - 16.0) / 4.0;
        match t >> 6 {
            0 | 1 => grid,
            2 => {
                let k = 10 + (self.byte() % 43) as i32;
                let s = if t & 0x20 == 0 { 1.0 } else { -1.0 };
                grid + s * 2f64.powi(-k)
            }
            _ => {
                let mut b = [0u8; 8];
                for x in &mut b {
                    *x = self.byte();
                }
                let bits = u64::from_le_bytes(b);
                let exp = ((bits >> 52) & 0x7ff) % 33; // 0..=32
                f64::from_bits((bits & !(0x7ff << 52)) | ((1023 + exp - 16) << 52))
            }
        }
    }
    fn v3(&mut self) -> Vec3<f64> {
        Vec3::new(self.f64(), self.f64(), self.f64())
    }
    fn shape(&mut self, kind: u8) -> Option<Shape<f64>> {
        Some(match kind % 4 {
            0 => Shape::Triangle(Triangle::new([self.v3(), self.v3(), self.v3()])),
            1 => Shape::Box(Obb::new(self.v3(), [self.v3(), self.v3(), self.v3()]).ok()?),
            2 => {
                let base = [0; 4].map(|_| Vec2::new(self.f64(), self.f64()));
                Shape::Prism(Prism::new(base, self.f64(), self.f64()).ok()?)
            }
            _ => Shape::Cube(Cube::new([0; 8].map(|_| self.v3())).ok()?),
        })
    }
}

fuzz_target!(|data: &[u8]| {
    let mut b = Bytes(data);
    let kinds = b.byte();
    let Some(a) = b.shape(kinds) else { return };
    let Some(c) = b.shape(kinds >> 2) else { return };
    let (ar, cr) = (a.to_rational(), c.to_rational());

    let fast = intersect_exact(&a, &c);
    let exact = intersect(&ar, &cr);
    match (&fast, &exact) {
        (Ok(f), Ok(e)) => {
            assert_eq!(f.intersects(), e.intersects(), "intersect decision");
            assert_eq!(f, e, "intersect certificate");
            let typed = intersect(&a, &c).expect("the f64 path answers too");
            assert_eq!(typed.intersects(), e.intersects(), "f64-typed decision");
        }
        (Err(_), Err(_)) => {}
        _ => panic!("one path failed: fast {fast:?}, exact {exact:?}"),
    }

    let fast = distance_exact(&a, &c);
    let exact = distance(&ar, &cr);
    match (&fast, &exact) {
        (Ok(f), Ok(e)) => {
            assert_eq!(f.distance_squared, e.distance_squared, "squared distance");
            assert_eq!(f, e, "closest points");
            let typed = distance(&a, &c).expect("the f64 path answers too");
            assert_eq!(
                typed.distance_squared == 0.0,
                num_traits_zero(&e.distance_squared),
                "f64-typed contact"
            );
        }
        (Err(_), Err(_)) => {}
        _ => panic!("one path failed: fast {fast:?}, exact {exact:?}"),
    }
});

fn num_traits_zero(x: &num_rational::BigRational) -> bool {
    *x.numer() == 0.into()
}
