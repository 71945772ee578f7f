use super::ShapeError;
use crate::num::scalar::Scalar;
use crate::num::sign::Sign;
use crate::predicates::orient2d;
use crate::vector::{Vec2, Vec3};

/// The z-rotated cuboid of P. Nathan, "Notes on Cuboid-Cuboid Collision
/// Detection" (2014), generalised: a convex quadrilateral in the x-y
/// plane (the plan view) extruded from `zmin` to `zmax`.
///
/// The constructor accepts the four vertices in any order and re-winds them
/// anti-clockwise (the note's vertex re-ordering), deciding with exact
/// orientation tests. `zmin = zmax` is accepted (a flat quadrilateral).
///
/// ```
/// use exact_collision::{Prism, Vec2};
/// let p = Prism::new([Vec2::new(0.0, 0.0), Vec2::new(1.0, 1.0), Vec2::new(1.0, 0.0), Vec2::new(0.0, 1.0)], 0.0, 2.0).unwrap();
/// assert_eq!(p.base, [Vec2::new(0.0, 0.0), Vec2::new(1.0, 0.0), Vec2::new(1.0, 1.0), Vec2::new(0.0, 1.0)]);
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct Prism<S> {
    /// The plan-view vertices, anti-clockwise, starting from the first one given.
    pub base: [Vec2<S>; 4],
    /// Bottom.
    pub zmin: S,
    /// Top.
    pub zmax: S,
}

impl<S: Scalar> Prism<S> {
    /// A prism from four plan-view vertices in any order and a z range.
    pub fn new(base: [Vec2<S>; 4], zmin: S, zmax: S) -> Result<Self, ShapeError> {
        if zmin > zmax {
            return Err(ShapeError::new("z", "zmin > zmax"));
        }
        let [p0, p1, p2, p3] = &base;
        let orders: [[&Vec2<S>; 4]; 3] = [[p0, p1, p2, p3], [p0, p1, p3, p2], [p0, p2, p1, p3]];
        for order in orders {
            let turns: Vec<Sign> = (0..4)
                .map(|i| orient2d(order[i], order[(i + 1) % 4], order[(i + 2) % 4]))
                .collect();
            if turns.contains(&Sign::Zero) {
                return Err(ShapeError::new(
                    "base",
                    "not a convex quadrilateral: three vertices are collinear (or two coincide)",
                ));
            }
            if turns.iter().all(|t| *t == turns[0]) {
                let mut q: [Vec2<S>; 4] = order.map(|p| p.clone());
                if turns[0] == Sign::Negative {
                    q.swap(1, 3);
                }
                return Ok(Prism {
                    base: q,
                    zmin,
                    zmax,
                });
            }
        }
        Err(ShapeError::new(
            "base",
            "not a convex quadrilateral: one vertex lies inside the triangle of the other three",
        ))
    }

    /// The eight vertices: the base at `zmin`, then at `zmax`.
    pub fn vertices(&self) -> [Vec3<S>; 8] {
        std::array::from_fn(|i| {
            let b = &self.base[i % 4];
            let z = if i < 4 { &self.zmin } else { &self.zmax };
            Vec3::new(b.x.clone(), b.y.clone(), z.clone())
        })
    }

    /// Whether `q` lies in the closed prism, decided exactly.
    pub fn contains(&self, q: &Vec3<S>) -> bool {
        if q.z < self.zmin || q.z > self.zmax {
            return false;
        }
        let p = Vec2::new(q.x.clone(), q.y.clone());
        (0..4).all(|i| orient2d(&self.base[i], &self.base[(i + 1) % 4], &p) != Sign::Negative)
    }
}
