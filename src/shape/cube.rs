use super::{Det3, Obb, ParallelogramDefect, ShapeError};
use crate::num::scalar::Scalar;
use crate::num::sign::Sign;
use crate::predicates::sign_of;
use crate::vector::Vec3;

/// A cube as the "Cube intersection algorithm" article gives it: eight labelled
/// vertices a..h (a, b, c, d one face in order around it; e, f, g, h above
/// a, b, c, d). Any parallelepiped is accepted: with u = b − a, v = d − a,
/// w = e − a the constructor checks, exactly, c = a+u+v, f = a+u+w,
/// g = a+u+v+w, h = a+v+w, and that u, v, w span a volume.
///
/// ```
/// use exact_collision::{Cube, Vec3};
/// let v = |x: f64, y: f64, z: f64| Vec3::new(x, y, z);
/// let c = Cube::new([v(0.,0.,0.), v(1.,0.,0.), v(1.,1.,0.), v(0.,1.,0.), v(0.,0.,1.), v(1.,0.,1.), v(1.,1.,1.), v(0.,1.,1.)]).unwrap();
/// assert_eq!(c.obb().center, v(0.5, 0.5, 0.5));
/// let mut bad = c.vertices.clone();
/// bad[6] = v(1., 1., 1.5);
/// assert_eq!(Cube::new(bad).unwrap_err().field, "vertices[6]");
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct Cube<S> {
    /// a, b, c, d, e, f, g, h.
    pub vertices: [Vec3<S>; 8],
    obb: Obb<S>,
}

impl<S: Scalar> Cube<S> {
    /// Validate the eight labelled vertices and build the equivalent box.
    pub fn new(vertices: [Vec3<S>; 8]) -> Result<Self, ShapeError> {
        let [a, b, c, d, e, f, g, h] = &vertices;
        // (vertex, its two neighbours p and q, the label index): vertex = p + q − a,
        // in the protocol's order c, f, h, g, so that the first vertex named
        // is the first off in that list (g = c + e − a is g = a + u + v + w
        // once c has passed).
        let checks = [
            (c, b, d, 2, "c = b + d − a"),
            (f, b, e, 5, "f = b + e − a"),
            (h, d, e, 7, "h = d + e − a"),
            (g, c, e, 6, "g = c + e − a"),
        ];
        for (x, p, q, idx, rule) in checks {
            if (0..3).any(|i| sign_of(&ParallelogramDefect([x, p, q, a], i)) != Sign::Zero) {
                return Err(ShapeError::new(
                    format!("vertices[{idx}]"),
                    format!(
                        "not a parallelepiped: vertex {} is off ({rule} must hold exactly)",
                        "abcdefgh".as_bytes()[idx] as char
                    ),
                ));
            }
        }
        let (u, v, w) = (b.sub(a), d.sub(a), e.sub(a));
        let exact = |x: &Vec3<S>, p: &Vec3<S>, q: &Vec3<S>| {
            x.to_rational() == p.to_rational().sub(&q.to_rational())
        };
        if !(exact(&u, b, a) && exact(&v, d, a) && exact(&w, e, a)) {
            return Err(ShapeError::new(
                "vertices",
                format!(
                    "edge vectors b − a, d − a, e − a are not exactly representable in {}; use the exact path",
                    S::NAME
                ),
            ));
        }
        if sign_of(&Det3(&u, &v, &w)) == Sign::Zero {
            return Err(ShapeError::new(
                "vertices",
                "the eight vertices span no volume (b − a, d − a, e − a are linearly dependent)",
            ));
        }
        let two = S::from_i32(2);
        let center = a.add(g).div(&two);
        let half = [u.div(&two), v.div(&two), w.div(&two)];
        let r2 = S::from_i32(2).to_rational();
        let ok = center.to_rational().scale(&r2) == a.to_rational().add(&g.to_rational())
            && half
                .iter()
                .zip([&u, &v, &w])
                .all(|(hh, full)| hh.to_rational().scale(&r2) == full.to_rational());
        if !ok {
            return Err(ShapeError::new(
                "vertices",
                format!(
                    "the cube's center or half-axes are not exactly representable in {}; use the exact path",
                    S::NAME
                ),
            ));
        }
        let obb = Obb::new(center, half)?;
        Ok(Cube { vertices, obb })
    }

    /// The same set as a box: center (a + g)/2, half-axes (b − a)/2, (d − a)/2, (e − a)/2.
    pub fn obb(&self) -> &Obb<S> {
        &self.obb
    }
}
