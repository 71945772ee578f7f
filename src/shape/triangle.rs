use crate::num::scalar::Scalar;
use crate::num::sign::Sign;
use crate::predicates::{orient2d, orient3d};
use crate::vector::{Vec2, Vec3};

/// A triangle: the closed convex hull of three points.
///
/// Degenerate triangles (collinear or repeated vertices) are representable; the
/// queries answer them as the segment or point they are, or say they cannot.
///
/// ```
/// use exact_collision::{Triangle, Vec3};
/// let t = Triangle::new([Vec3::new(0.0, 0.0, 0.0), Vec3::new(1.0, 0.0, 0.0), Vec3::new(0.0, 1.0, 0.0)]);
/// assert!(!t.is_degenerate());
/// assert!(t.contains(&Vec3::new(0.5, 0.5, 0.0)));
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct Triangle<S> {
    /// The vertices, in the order given.
    pub v: [Vec3<S>; 3],
}

impl<S: Scalar> Triangle<S> {
    /// A triangle from its vertices (no check: see [`Triangle::is_degenerate`]).
    pub fn new(v: [Vec3<S>; 3]) -> Self {
        Triangle { v }
    }

    /// Whether the vertices are collinear (or repeated), decided exactly.
    pub fn is_degenerate(&self) -> bool {
        // Collinear iff all three coordinate-plane projections are collinear.
        let [a, b, c] = &self.v;
        let proj = |p: &Vec3<S>, i: usize, j: usize| Vec2::new(p.get(i).clone(), p.get(j).clone());
        [(0, 1), (1, 2), (2, 0)]
            .iter()
            .all(|&(i, j)| orient2d(&proj(a, i, j), &proj(b, i, j), &proj(c, i, j)) == Sign::Zero)
    }

    /// Whether `q` lies in the closed triangle, decided exactly. For a degenerate
    /// triangle, whether `q` lies on the segment (or point) it spans.
    pub fn contains(&self, q: &Vec3<S>) -> bool {
        let [a, b, c] = &self.v;
        if orient3d(a, b, c, q) != Sign::Zero {
            return false;
        }
        // Coplanar (or degenerate): test in the three coordinate projections.
        // q is in the closed triangle iff in every projection it is in the
        // projected (possibly degenerate) triangle.
        let proj = |p: &Vec3<S>, i: usize, j: usize| Vec2::new(p.get(i).clone(), p.get(j).clone());
        [(0, 1), (1, 2), (2, 0)].iter().all(|&(i, j)| {
            let (pa, pb, pc, pq) = (proj(a, i, j), proj(b, i, j), proj(c, i, j), proj(q, i, j));
            in_triangle_2d(&pa, &pb, &pc, &pq)
        })
    }
}

/// Whether `q` is in the closed 2-D triangle abc (any orientation, degenerate included).
pub(crate) fn in_triangle_2d<S: Scalar>(
    a: &Vec2<S>,
    b: &Vec2<S>,
    c: &Vec2<S>,
    q: &Vec2<S>,
) -> bool {
    let o = orient2d(a, b, c);
    if o != Sign::Zero {
        let s1 = orient2d(a, b, q);
        let s2 = orient2d(b, c, q);
        let s3 = orient2d(c, a, q);
        return [s1, s2, s3].iter().all(|s| *s == o || *s == Sign::Zero);
    }
    // Degenerate: q must be on one of the segments.
    on_segment_2d(a, b, q) || on_segment_2d(b, c, q) || on_segment_2d(c, a, q)
}

/// Whether `q` lies on the closed segment ab (2-D).
pub(crate) fn on_segment_2d<S: Scalar>(a: &Vec2<S>, b: &Vec2<S>, q: &Vec2<S>) -> bool {
    if orient2d(a, b, q) != Sign::Zero {
        return false;
    }
    let between = |x: &S, y: &S, z: &S| {
        let lo_ok = (x <= z) || (y <= z);
        let hi_ok = (z <= x) || (z <= y);
        lo_ok && hi_ok
    };
    between(&a.x, &b.x, &q.x) && between(&a.y, &b.y, &q.y)
}
