//! Hard-case generators: the configurations where float collision code goes
//! wrong, made reproducibly from a seed. Shared by `exact-collision
//! check-parry`, `exact-collision audit` and the tests.
//!
//! Every case is a pair of shapes given by doubles, as a float engine holds
//! them: triangles by their vertices, boxes by a pose ([`PoseBox`]:
//! half-extents, a rotation quaternion, a translation). The exact shape of a
//! pose is the one its doubles define: center = translation and half-axis i =
//! half_extents[i] · (column i of R(q)) / |q|², with R(q) the rotation matrix
//! of the quaternion q = (w, x, y, z) scaled by |q|² (so a quaternion that is
//! not exactly unit still means exactly one rotation, v ↦ q·v·q̄/|q|²).
//!
//! Families ([`FAMILIES`]):
//! - `tri_touching`: triangles sharing a vertex or an edge, or a vertex of one
//!   on an edge of the other (exact contact, distance 0).
//! - `tri_ulp_gap`: a vertex one ulp above or below the other triangle's
//!   (axis-aligned) plane, over its interior.
//! - `tri_parallel`: a triangle and a copy moved off its plane by 1e-15,
//!   2⁻⁵⁰, 1e-12 or −1e-15 (each vertex rounded to a double, as an engine
//!   would compute it) and slid a little within it.
//! - `tri_coplanar`: both triangles in one exact plane through small integer
//!   vectors (tilted), sharing a vertex in two thirds of the cases, the
//!   second one then small (scaled by 2⁻⁸ or 2⁻¹⁰ toward the shared
//!   vertex, exactly).
//! - `tri_large`, `tri_tiny`: the above scaled by 2^±40 or 2^±20 (exactly).
//! - `box_edge`: boxes with small integer quaternions (rotated, not aligned)
//!   moved along a direction to the last exactly touching or overlapping step
//!   of 2⁻⁴⁰ (bisection with the exact test), or one step past it.
//! - `cube_edge`: the same with equal half-extents (cubes).
//! - `prism_edge`: the same with rotations about z only (z-extruded
//!   rectangles, the cuboids of Nathan's test).
//! - `box_face_ulp`: unit boxes face to face, one ulp apart, touching, or one
//!   ulp overlapping.
//! - `box_large`, `box_tiny`: `box_edge` cases scaled by 2^±30.
//!
//! Box half-extents are multiples of |q|²/2, so the half-axes, the vertices
//! and the plan-view corners are exact doubles too: the as-published float
//! algorithms (`crate::audit`) can be given the very same boxes.

pub mod rounded;

use crate::poly::planted::splitmix64;
use crate::query;
use crate::shape::{Obb, Rounded, Shape, Triangle};
use crate::vector::Vec3;
use num_bigint::BigInt;
use num_rational::BigRational;
use num_traits::Zero;
use serde_json::{json, Map, Value};

/// Every family, in report order.
pub const FAMILIES: [&str; 12] = [
    "tri_touching",
    "tri_ulp_gap",
    "tri_parallel",
    "tri_coplanar",
    "tri_large",
    "tri_tiny",
    "box_edge",
    "cube_edge",
    "prism_edge",
    "box_face_ulp",
    "box_large",
    "box_tiny",
];

/// The rotation matrix (rows) of a unit quaternion `[w, x, y, z]`, computed in
/// doubles and so rounded: the generators' float rotations (only nearly
/// orthogonal: a box built from it is a parallelepiped, which is what the
/// exact path is given). For an exact rotation use
/// [`crate::shape::Rotation`].
///
/// ```
/// use exact_collision::cases::rotation_f64;
/// let h = std::f64::consts::FRAC_1_SQRT_2;
/// let r = rotation_f64([h, 0.0, 0.0, h]); // 90° about z
/// assert!((r[0][1] + 1.0).abs() < 1e-15 && (r[1][0] - 1.0).abs() < 1e-15);
/// assert_eq!(r[2][2], 1.0);
/// ```
pub fn rotation_f64([w, x, y, z]: [f64; 4]) -> [[f64; 3]; 3] {
    [
        [
            1. - 2. * (y * y + z * z),
            2. * (x * y - w * z),
            2. * (x * z + w * y),
        ],
        [
            2. * (x * y + w * z),
            1. - 2. * (x * x + z * z),
            2. * (y * z - w * x),
        ],
        [
            2. * (x * z - w * y),
            2. * (y * z + w * x),
            1. - 2. * (x * x + y * y),
        ],
    ]
}

/// A small deterministic generator (SplitMix64).
#[derive(Clone, Debug)]
pub struct Rng(pub u64);

impl Rng {
    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        splitmix64(&mut self.0)
    }
    /// A uniform integer in [lo, hi].
    pub fn int(&mut self, lo: i64, hi: i64) -> i64 {
        lo + (self.next_u64() % ((hi - lo + 1) as u64)) as i64
    }
    /// A multiple of 1/8 in [−r, r].
    pub fn eighth(&mut self, r: i64) -> f64 {
        self.int(-8 * r, 8 * r) as f64 / 8.0
    }
    /// One of `xs`.
    pub fn pick<T: Copy>(&mut self, xs: &[T]) -> T {
        xs[self.int(0, xs.len() as i64 - 1) as usize]
    }
}

/// A box as an engine holds it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PoseBox {
    /// Half-extents along the box's own axes.
    pub he: [f64; 3],
    /// The rotation quaternion (w, x, y, z), any nonzero length.
    pub q: [f64; 4],
    /// The translation (the center).
    pub t: [f64; 3],
}

/// One shape of a case.
#[derive(Clone, Debug, PartialEq)]
pub enum Geom {
    /// Three vertices.
    Tri([[f64; 3]; 3]),
    /// A box by pose.
    Box(PoseBox),
    /// A ball: center and radius (parry's `Ball` at a translation).
    Ball {
        /// The center.
        c: [f64; 3],
        /// The radius (≥ 0).
        r: f64,
    },
    /// The segment [a, b] grown by `r` (parry's `Capsule`; a = b allowed).
    Capsule {
        /// One end of the axis.
        a: [f64; 3],
        /// The other end.
        b: [f64; 3],
        /// The radius (≥ 0).
        r: f64,
    },
    /// The convex hull of the points (parry's `ConvexPolyhedron::from_convex_hull`).
    Convex(Vec<[f64; 3]>),
    /// A box by pose grown by a radius (parry's `RoundCuboid`).
    RoundBox(PoseBox, f64),
}

/// A pair of shapes from one family.
#[derive(Clone, Debug, PartialEq)]
pub struct Case {
    /// The family's name.
    pub family: &'static str,
    /// Shape a.
    pub a: Geom,
    /// Shape b.
    pub b: Geom,
}

fn q(x: f64) -> BigRational {
    BigRational::from_float(x).unwrap_or_else(BigRational::zero)
}

/// R(q)·|q|² (rows, column-vector convention) and |q|², exactly.
pub(crate) fn rot_scaled(qv: &[f64; 4]) -> ([[BigRational; 3]; 3], BigRational) {
    let [w, x, y, z] = qv.map(q);
    let two = BigRational::from_integer(BigInt::from(2));
    let n2 = &w * &w + &x * &x + &y * &y + &z * &z;
    let m = [
        [
            &w * &w + &x * &x - &y * &y - &z * &z,
            &two * (&x * &y - &w * &z),
            &two * (&x * &z + &w * &y),
        ],
        [
            &two * (&x * &y + &w * &z),
            &w * &w - &x * &x + &y * &y - &z * &z,
            &two * (&y * &z - &w * &x),
        ],
        [
            &two * (&x * &z - &w * &y),
            &two * (&y * &z + &w * &x),
            &w * &w - &x * &x - &y * &y + &z * &z,
        ],
    ];
    (m, n2)
}

impl PoseBox {
    /// The exact half-axes: half_extents[i] · column i of R(q)/|q|² (`None`
    /// for q = 0).
    pub fn half_axes(&self) -> Option<[Vec3<BigRational>; 3]> {
        let (m, n2) = rot_scaled(&self.q);
        if n2.is_zero() {
            return None;
        }
        Some(std::array::from_fn(|i| {
            let k = q(self.he[i]) / &n2;
            Vec3::new(&m[0][i] * &k, &m[1][i] * &k, &m[2][i] * &k)
        }))
    }

    /// The half-axes as doubles when they are exact doubles.
    pub fn half_axes_f64(&self) -> Option<[[f64; 3]; 3]> {
        let h = self.half_axes()?;
        let f = |x: &BigRational| {
            let d = crate::num::scalar::rational_to_f64(x);
            (q(d) == *x).then_some(d)
        };
        let mut out = [[0.0; 3]; 3];
        for i in 0..3 {
            out[i] = [f(&h[i].x)?, f(&h[i].y)?, f(&h[i].z)?];
        }
        Some(out)
    }

    /// The exact box (`None` if the half-axes are dependent).
    pub fn exact(&self) -> Option<Obb<BigRational>> {
        let t = self.t.map(q);
        let [x, y, z] = t;
        Obb::new(Vec3::new(x, y, z), self.half_axes()?).ok()
    }
}

/// A number as JSON: a JSON number when it is a double, else an exact string.
fn num(x: &BigRational) -> Value {
    let d = crate::num::scalar::rational_to_f64(x);
    if q(d) == *x {
        json!(d)
    } else {
        Value::String(crate::protocol::number::exact_string(x))
    }
}

/// A double as a JSON number, integers without a fraction part.
fn dnum(x: f64) -> Value {
    if x == x.trunc() && x.abs() < 9.0e15 {
        json!(x as i64)
    } else {
        json!(x)
    }
}

impl Geom {
    /// The protocol shape (a box in the `half_axes` form, exact strings where
    /// a half-axis component is not a double; a zero quaternion gives zero
    /// half-axes, which the protocol rejects).
    pub fn to_json(&self) -> Value {
        match self {
            Geom::Tri(v) => json!({"type": "triangle", "v": v.map(|p| p.map(dnum))}),
            Geom::Box(b) => {
                let zero = || {
                    Vec3::new(
                        BigRational::zero(),
                        BigRational::zero(),
                        BigRational::zero(),
                    )
                };
                let h = b.half_axes().unwrap_or_else(|| [zero(), zero(), zero()]);
                let ha: Vec<Value> = h
                    .iter()
                    .map(|v| json!([num(&v.x), num(&v.y), num(&v.z)]))
                    .collect();
                let mut m = Map::new();
                m.insert("type".into(), json!("box"));
                m.insert("center".into(), json!(b.t.map(dnum)));
                m.insert("half_axes".into(), Value::Array(ha));
                Value::Object(m)
            }
            Geom::Ball { c, r } => {
                json!({"type": "sphere", "center": c.map(dnum), "radius": dnum(*r)})
            }
            Geom::Capsule { a, b, r } => json!({"type": "capsule", "a": a.map(dnum),
                "b": b.map(dnum), "radius": dnum(*r)}),
            Geom::Convex(p) => {
                let pts: Vec<Value> = p.iter().map(|p| json!(p.map(dnum))).collect();
                json!({"type": "convex", "points": pts})
            }
            Geom::RoundBox(b, r) => {
                let mut v = Geom::Box(*b).to_json();
                v["radius"] = dnum(*r);
                v
            }
        }
    }

    /// The dimension of the core, decided exactly: a ball's point 0, a
    /// capsule's segment 1 (0 when a = b), a triangle 2 (1 when degenerate), a
    /// box 3, a convex shape its hull's (`None` when there is no hull).
    pub fn core_dim(&self) -> Option<usize> {
        match self {
            Geom::Ball { .. } => Some(0),
            Geom::Capsule { a, b, .. } => Some(usize::from(a != b)),
            Geom::Box(_) | Geom::RoundBox(..) => Some(3),
            Geom::Tri(_) => match self.exact()? {
                Shape::Triangle(t) => Some(if t.is_degenerate() { 1 } else { 2 }),
                _ => None,
            },
            Geom::Convex(_) => match self.rounded()?.core {
                crate::shape::Core::Hull(h) => Some(h.dim()),
                _ => None,
            },
        }
    }

    /// Whether the shape is a rounded one (ball, capsule, convex hull, rounded
    /// box): answered by [`crate::query::rounded`].
    pub fn is_rounded(&self) -> bool {
        !matches!(self, Geom::Tri(_) | Geom::Box(_))
    }

    /// The exact rounded shape (a triangle or box with radius 0; `None` for a
    /// degenerate box or a negative or non-finite radius).
    pub fn rounded(&self) -> Option<Rounded<BigRational>> {
        let p3 = |p: &[f64; 3]| {
            let [x, y, z] = p.map(q);
            Vec3::new(x, y, z)
        };
        let finite = |r: f64| r.is_finite().then(|| q(r));
        match self {
            Geom::Tri(_) | Geom::Box(_) => Rounded::new(self.exact()?, BigRational::zero()).ok(),
            Geom::Ball { c, r } => Rounded::sphere(p3(c), finite(*r)?).ok(),
            Geom::Capsule { a, b, r } => Rounded::capsule(p3(a), p3(b), finite(*r)?).ok(),
            Geom::Convex(p) => {
                if p.iter().flatten().any(|x| !x.is_finite()) {
                    return None;
                }
                Rounded::convex(&p.iter().map(p3).collect::<Vec<_>>(), BigRational::zero()).ok()
            }
            Geom::RoundBox(b, r) => Rounded::new(Shape::Box(b.exact()?), finite(*r)?).ok(),
        }
    }

    /// The exact shape (`None` for a degenerate box).
    pub fn exact(&self) -> Option<Shape<BigRational>> {
        Some(match self {
            Geom::Tri(v) => Shape::Triangle(Triangle::new(v.map(|p| {
                let [x, y, z] = p.map(q);
                Vec3::new(x, y, z)
            }))),
            Geom::Box(b) => Shape::Box(b.exact()?),
            _ => return None,
        })
    }

    /// Every double of the shape, in a fixed order ([`Geom::with_params`]).
    pub fn params(&self) -> Vec<f64> {
        match self {
            Geom::Tri(v) => v.iter().flatten().copied().collect(),
            Geom::Box(b) => b.he.iter().chain(&b.q).chain(&b.t).copied().collect(),
            Geom::Ball { c, r } => c.iter().chain([r]).copied().collect(),
            Geom::Capsule { a, b, r } => a.iter().chain(b).chain([r]).copied().collect(),
            Geom::Convex(p) => p.iter().flatten().copied().collect(),
            Geom::RoundBox(b, r) => {
                let mut p = Geom::Box(*b).params();
                p.push(*r);
                p
            }
        }
    }

    /// The same kind of shape from `p` (as many doubles as [`Geom::params`]).
    pub fn with_params(&self, p: &[f64]) -> Geom {
        match self {
            Geom::Tri(_) => Geom::Tri(std::array::from_fn(|i| {
                std::array::from_fn(|j| p[3 * i + j])
            })),
            Geom::Box(_) => Geom::Box(PoseBox {
                he: [p[0], p[1], p[2]],
                q: [p[3], p[4], p[5], p[6]],
                t: [p[7], p[8], p[9]],
            }),
            Geom::Ball { .. } => Geom::Ball {
                c: [p[0], p[1], p[2]],
                r: p[3],
            },
            Geom::Capsule { .. } => Geom::Capsule {
                a: [p[0], p[1], p[2]],
                b: [p[3], p[4], p[5]],
                r: p[6],
            },
            Geom::Convex(_) => Geom::Convex(p.chunks(3).map(|c| [c[0], c[1], c[2]]).collect()),
            Geom::RoundBox(b, _) => {
                let Geom::Box(b) = Geom::Box(*b).with_params(&p[..10]) else {
                    unreachable!("a box's parameters give a box")
                };
                Geom::RoundBox(b, p[10])
            }
        }
    }

    /// The shape scaled by `s` about the origin (every length times `s`;
    /// exact for a power of two without overflow or underflow).
    pub fn scaled(&self, s: f64) -> Geom {
        let box_scaled = |b: &PoseBox| PoseBox {
            he: b.he.map(|x| x * s),
            q: b.q,
            t: b.t.map(|x| x * s),
        };
        match self {
            Geom::Box(b) => Geom::Box(box_scaled(b)),
            Geom::RoundBox(b, r) => Geom::RoundBox(box_scaled(b), r * s),
            _ => self.with_params(&self.params().iter().map(|x| x * s).collect::<Vec<_>>()),
        }
    }

    /// Every double rounded to f32 (as an f32 engine holds the shape).
    pub fn to_f32(&self) -> Geom {
        self.with_params(
            &self
                .params()
                .iter()
                .map(|&x| x as f32 as f64)
                .collect::<Vec<_>>(),
        )
    }
}

impl Case {
    /// A protocol query line for `op` (`intersect` or `distance`), with the
    /// family as its `category`.
    pub fn query(&self, op: &str) -> Value {
        json!({"op": op, "category": self.family, "a": self.a.to_json(), "b": self.b.to_json()})
    }

    /// Both exact shapes (`None` if one is degenerate).
    pub fn exact(&self) -> Option<(Shape<BigRational>, Shape<BigRational>)> {
        Some((self.a.exact()?, self.b.exact()?))
    }

    /// Whether both shapes are proper: triangles not degenerate, boxes with
    /// independent half-axes (decided exactly), radii finite and ≥ 0, convex
    /// point sets of finite points. Shrinking keeps cases proper.
    pub fn proper(&self) -> bool {
        let ok = |g: &Geom| match g.exact() {
            Some(Shape::Triangle(t)) => !t.is_degenerate(),
            Some(_) => true,
            None => g.is_rounded() && g.rounded().is_some(),
        };
        ok(&self.a) && ok(&self.b)
    }

    /// Whether the shapes meet, decided exactly.
    pub fn intersects(&self) -> Option<bool> {
        if self.a.is_rounded() || self.b.is_rounded() {
            let (a, b) = (self.a.rounded()?, self.b.rounded()?);
            return query::rounded::intersects(&a, &b).ok();
        }
        let (a, b) = self.exact()?;
        query::intersect(&a, &b).ok().map(|i| i.intersects())
    }

    /// Every double of the case, a's then b's.
    pub fn params(&self) -> Vec<f64> {
        let mut p = self.a.params();
        p.extend(self.b.params());
        p
    }

    /// The same case with the doubles `p`.
    pub fn with_params(&self, p: &[f64]) -> Case {
        let n = self.a.params().len();
        Case {
            family: self.family,
            a: self.a.with_params(&p[..n]),
            b: self.b.with_params(&p[n..]),
        }
    }

    /// Every double rounded to f32.
    pub fn to_f32(&self) -> Case {
        Case {
            family: self.family,
            a: self.a.to_f32(),
            b: self.b.to_f32(),
        }
    }
}

/// A random non-degenerate triangle with vertices multiples of 1/8 in [−2, 2].
fn triangle(rng: &mut Rng) -> [[f64; 3]; 3] {
    loop {
        let t = [0; 3].map(|_| [0; 3].map(|_| rng.eighth(2)));
        let u = [0, 1, 2].map(|i| t[1][i] - t[0][i]);
        let v = [0, 1, 2].map(|i| t[2][i] - t[0][i]);
        let n = [
            u[1] * v[2] - u[2] * v[1],
            u[2] * v[0] - u[0] * v[2],
            u[0] * v[1] - u[1] * v[0],
        ];
        if n.iter().any(|&c| c != 0.0) {
            return t;
        }
    }
}

/// A triangle in the plane z = `z` (vertices multiples of 1/8 in x, y).
fn flat_triangle(rng: &mut Rng, z: f64) -> [[f64; 3]; 3] {
    loop {
        let t = [0; 3].map(|_| [rng.eighth(2), rng.eighth(2), z]);
        let area =
            (t[1][0] - t[0][0]) * (t[2][1] - t[0][1]) - (t[1][1] - t[0][1]) * (t[2][0] - t[0][0]);
        if area != 0.0 {
            return t;
        }
    }
}

fn ulp(x: f64) -> f64 {
    let x = x.abs();
    x.next_up() - x
}

fn tri_touching(rng: &mut Rng) -> Case {
    let a = triangle(rng);
    let mut b = triangle(rng);
    match rng.int(0, 2) {
        0 => b[0] = a[rng.int(0, 2) as usize],
        1 => (b[0], b[1]) = (a[1], a[0]),
        _ => b[0] = [0, 1, 2].map(|i| (a[0][i] + a[1][i]) / 2.0),
    }
    Case {
        family: "tri_touching",
        a: Geom::Tri(a),
        b: Geom::Tri(b),
    }
}

fn tri_ulp_gap(rng: &mut Rng) -> Case {
    let z = rng.pick(&[0.0, 0.75, 1.0, -3.5, 100.25]);
    let a = flat_triangle(rng, z);
    // b's low vertex over a's centroid-ish interior point (the midpoint of a
    // median: inside), one ulp above or below the plane.
    let m = [0, 1].map(|i| (a[0][i] + (a[1][i] + a[2][i]) / 2.0) / 2.0);
    let dz = if z == 0.0 { f64::MIN_POSITIVE } else { ulp(z) };
    let low = z + rng.pick(&[-1.0, 1.0]) * dz;
    let up = z + rng.pick(&[0.5, 1.0, 2.0]);
    let b = [
        [m[0], m[1], low],
        [m[0] + rng.eighth(2), m[1] + 1.0, up],
        [m[0] - 1.0, m[1] + rng.eighth(2), up],
    ];
    Case {
        family: "tri_ulp_gap",
        a: Geom::Tri(a),
        b: Geom::Tri(b),
    }
}

fn tri_parallel(rng: &mut Rng) -> Case {
    let a = if rng.int(0, 1) == 0 {
        let z = rng.pick(&[0.0, 0.5, 1.25]);
        flat_triangle(rng, z)
    } else {
        triangle(rng)
    };
    let dz = rng.pick(&[1e-15, 2f64.powi(-50), 1e-12, -1e-15]);
    let (dx, dy) = (rng.eighth(1) / 4.0, rng.eighth(1) / 4.0);
    let b = a.map(|p| [p[0] + dx, p[1] + dy, p[2] + dz]);
    Case {
        family: "tri_parallel",
        a: Geom::Tri(a),
        b: Geom::Tri(b),
    }
}

fn tri_coplanar(rng: &mut Rng) -> Case {
    // The plane o + s·u + t·v: small integers, s and t multiples of 1/256 (all
    // exact in doubles and in floats).
    let (o, u, v) = loop {
        let o = [0; 3].map(|_| rng.int(-2, 2) as f64);
        let u = [0; 3].map(|_| rng.int(-2, 2) as f64);
        let v = [0; 3].map(|_| rng.int(-2, 2) as f64);
        let n = [
            u[1] * v[2] - u[2] * v[1],
            u[2] * v[0] - u[0] * v[2],
            u[0] * v[1] - u[1] * v[0],
        ];
        if n.iter().any(|&c| c != 0.0) {
            break (o, u, v);
        }
    };
    let mut pt = |rng: &mut Rng| {
        let (s, t) = (
            rng.int(-512, 512) as f64 / 256.0,
            rng.int(-512, 512) as f64 / 256.0,
        );
        [0, 1, 2].map(|i| o[i] + s * u[i] + t * v[i])
    };
    let tri = |rng: &mut Rng, pt: &mut dyn FnMut(&mut Rng) -> [f64; 3]| loop {
        let t = [pt(rng), pt(rng), pt(rng)];
        if Geom::Tri(t)
            .exact()
            .is_some_and(|s| matches!(s, Shape::Triangle(t) if !t.is_degenerate()))
        {
            return t;
        }
    };
    let a = tri(rng, &mut pt);
    let mut b = tri(rng, &mut pt);
    if rng.int(0, 2) > 0 {
        // Share a vertex; b is pulled toward it by 2⁻⁸ or 2⁻¹⁰ (exactly: the
        // points stay in the plane), a small triangle in the big one's corner.
        let s = a[rng.int(0, 2) as usize];
        let f = rng.pick(&[1.0 / 256.0, 1.0 / 1024.0]);
        b[0] = s;
        for p in &mut b[1..] {
            *p = [0, 1, 2].map(|i| s[i] + (p[i] - s[i]) * f);
        }
        if !Geom::Tri(b)
            .exact()
            .is_some_and(|t| matches!(t, Shape::Triangle(t) if !t.is_degenerate()))
        {
            b = tri(rng, &mut pt);
            b[0] = s;
        }
    }
    Case {
        family: "tri_coplanar",
        a: Geom::Tri(a),
        b: Geom::Tri(b),
    }
}

/// Which boxes a box family makes.
#[derive(Clone, Copy, PartialEq)]
enum BoxKind {
    Any,
    Cube,
    ZOnly,
}

/// A box with a small integer quaternion and half-extents multiples of |q|²/2.
fn int_box(rng: &mut Rng, kind: BoxKind) -> PoseBox {
    let qv = loop {
        let mut qv = [
            rng.int(0, 3),
            rng.int(-2, 2),
            rng.int(-2, 2),
            rng.int(-2, 2),
        ];
        if kind == BoxKind::ZOnly {
            (qv[1], qv[2]) = (0, 0);
        }
        if qv.iter().any(|&c| c != 0) {
            break qv;
        }
    };
    let n2 = qv.iter().map(|c| c * c).sum::<i64>() as f64;
    let s = rng.int(1, 3) as f64;
    PoseBox {
        he: [0; 3].map(|_| {
            let s = if kind == BoxKind::Cube {
                s
            } else {
                rng.int(1, 3) as f64
            };
            s * n2 / 2.0
        }),
        q: qv.map(|c| c as f64),
        t: [0.0; 3],
    }
}

/// Step of the touching search: 2⁻⁴⁰.
const STEP: f64 = 1.0 / (1u64 << 40) as f64;

/// Largest k in [0, hi) with `hit(k)`, given hit(0) and not hit(hi).
fn threshold(hit: impl Fn(i64) -> bool, hi: i64) -> Option<i64> {
    let (mut lo, mut hi) = (0i64, hi);
    if !hit(lo) || hit(hi) {
        return None;
    }
    while hi - lo > 1 {
        let m = lo + (hi - lo) / 2;
        if hit(m) {
            lo = m
        } else {
            hi = m
        }
    }
    Some(lo)
}

fn box_edge(rng: &mut Rng, family: &'static str, kind: BoxKind) -> Case {
    loop {
        let a = int_box(rng, kind);
        let b0 = int_box(rng, kind);
        let d = [
            rng.int(-4, 4) as f64,
            rng.int(-4, 4) as f64,
            rng.int(1, 4) as f64,
        ];
        let at = |k: i64| {
            let mut b = b0;
            b.t = d.map(|x| x * k as f64 * STEP);
            Case {
                family,
                a: Geom::Box(a),
                b: Geom::Box(b),
            }
        };
        let hit = |k: i64| at(k).intersects().unwrap_or(false);
        if let Some(k) = threshold(hit, 1i64 << 48) {
            return at(k + rng.int(0, 1));
        }
    }
}

fn box_face_ulp(rng: &mut Rng) -> Case {
    let a = PoseBox {
        he: [1.0; 3],
        q: [1.0, 0.0, 0.0, 0.0],
        t: [0.0; 3],
    };
    let axis = rng.int(0, 2) as usize;
    let x = 2.0 + rng.pick(&[-1.0, 0.0, 1.0]) * ulp(2.0);
    let mut t = [rng.eighth(1), rng.eighth(1), rng.eighth(1)];
    t[axis] = x;
    Case {
        family: "box_face_ulp",
        a: Geom::Box(a),
        b: Geom::Box(PoseBox { t, ..a }),
    }
}

/// One case of `family` (one of [`FAMILIES`]).
///
/// ```
/// use exact_collision::cases::{generate, Rng, FAMILIES};
/// let mut rng = Rng(7);
/// for f in FAMILIES {
///     let c = generate(f, &mut rng);
///     assert_eq!(c.family, f);
///     assert!(c.intersects().is_some(), "an exact answer for every case");
/// }
/// ```
pub fn generate(family: &str, rng: &mut Rng) -> Case {
    let scaled = |mut c: Case, name: &'static str, s: f64| {
        c.a = c.a.scaled(s);
        c.b = c.b.scaled(s);
        c.family = name;
        c
    };
    let tri = |rng: &mut Rng| match rng.int(0, 3) {
        0 => tri_touching(rng),
        1 => tri_ulp_gap(rng),
        2 => tri_parallel(rng),
        _ => tri_coplanar(rng),
    };
    match family {
        "tri_touching" => tri_touching(rng),
        "tri_ulp_gap" => tri_ulp_gap(rng),
        "tri_parallel" => tri_parallel(rng),
        "tri_coplanar" => tri_coplanar(rng),
        "tri_large" => {
            let s = rng.pick(&[2f64.powi(20), 2f64.powi(40)]);
            scaled(tri(rng), "tri_large", s)
        }
        "tri_tiny" => {
            let s = rng.pick(&[2f64.powi(-20), 2f64.powi(-40)]);
            scaled(tri(rng), "tri_tiny", s)
        }
        "box_face_ulp" => box_face_ulp(rng),
        "cube_edge" => box_edge(rng, "cube_edge", BoxKind::Cube),
        "prism_edge" => box_edge(rng, "prism_edge", BoxKind::ZOnly),
        "box_large" => scaled(
            box_edge(rng, "box_edge", BoxKind::Any),
            "box_large",
            2f64.powi(30),
        ),
        "box_tiny" => scaled(
            box_edge(rng, "box_edge", BoxKind::Any),
            "box_tiny",
            2f64.powi(-30),
        ),
        _ => box_edge(rng, "box_edge", BoxKind::Any),
    }
}

/// `n` cases from `seed`, cycling through [`FAMILIES`].
pub fn generate_all(n: usize, seed: u64) -> Vec<Case> {
    let mut rng = Rng(seed);
    (0..n)
        .map(|i| generate(FAMILIES[i % FAMILIES.len()], &mut rng))
        .collect()
}

/// A box spinning past another: the hard case for time of impact under
/// rotation (conservative advancement takes steps bounded by the angular
/// speed; a thin box turning fast can pass through a contact window).
#[derive(Clone, Debug, PartialEq)]
pub struct Spin {
    /// The family's name (`box_spinning`).
    pub family: &'static str,
    /// The box that stays.
    pub a: PoseBox,
    /// The moving box at t = 0.
    pub b: PoseBox,
    /// b's linear velocity (of its center).
    pub linvel: [f64; 3],
    /// b's angular velocity (axis × radians per unit time, about its center).
    pub angvel: [f64; 3],
}

/// A thin box above a unit cube, turning about a horizontal axis through its
/// center fast enough that its ends dip into the cube for short windows.
pub fn spinning(rng: &mut Rng) -> Spin {
    let len = rng.pick(&[1.5, 2.0, 3.0]);
    let w = rng.pick(&[0.05, 0.1, 0.2]);
    // The center's height: the ends reach below z = 1 when the box is steep.
    let zc = 1.0 + len * rng.pick(&[0.3, 0.5, 0.7, 0.9]);
    let omega = rng.pick(&[3.0, 10.0, 30.0, 100.0]);
    let axis = rng.pick(&[[0.0, 1.0, 0.0], [1.0, 0.0, 0.0], [0.6, 0.8, 0.0]]);
    let drift = rng.pick(&[0.0, 0.25, -0.25]);
    Spin {
        family: "box_spinning",
        a: PoseBox {
            he: [1.0; 3],
            q: [1.0, 0.0, 0.0, 0.0],
            t: [0.0; 3],
        },
        b: PoseBox {
            he: if axis[0] == 1.0 {
                [w, len, w]
            } else {
                [len, w, w]
            },
            q: [1.0, 0.0, 0.0, 0.0],
            t: [rng.eighth(1) / 4.0, rng.eighth(1) / 4.0, zc],
        },
        linvel: [drift, 0.0, 0.0],
        angvel: axis.map(|c| c * omega),
    }
}
