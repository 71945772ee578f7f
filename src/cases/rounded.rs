//! Hard cases for rounded shapes: balls, capsules, convex hulls and rounded
//! boxes, among themselves and against triangles and boxes.
//!
//! Every number is a double, and the touching cases touch **exactly**: the
//! offsets between cores are multiples of Pythagorean directions, (3, 4, 0)/5,
//! (2, 3, 6)/7, (1, 4, 8)/9, (2, 6, 9)/11, scaled by a dyadic s, with the sum
//! of the radii R = n·s, so the squared distance of the cores is exactly R²
//! with all numbers exact doubles. "One ulp apart" and "one ulp overlapping"
//! move one nonzero coordinate of that offset by one ulp outward or inward.
//! Where no exact construction is at hand (rotated boxes, convex hulls,
//! triangles), a shape is moved along an integer direction to the last
//! exactly touching or overlapping step of 2⁻⁴⁰ (bisection with the exact
//! test), or one step past it, as [`super::FAMILIES`]' `box_edge` does.
//!
//! Families ([`ROUNDED_FAMILIES`]):
//! - `ball_ball`: two balls exactly touching, one ulp apart or one ulp
//!   overlapping, along a Pythagorean direction; one radius is 0 (a point) in
//!   a quarter of the cases.
//! - `ball_box`: a ball against an axis-aligned box's face, edge or vertex,
//!   exactly touching, one ulp apart or overlapping.
//! - `ball_in_box`: a ball whose centre is inside a rotated box (small
//!   integer quaternion), radius 0 to 2.
//! - `capsule_parallel`: parallel capsule axes at distance exactly R (or one
//!   ulp off), overlapping along the axis or end to end.
//! - `capsule_collinear`: capsules on one line, end caps exactly touching
//!   (or one ulp off).
//! - `capsule_degenerate`: a capsule with a = b against a capsule's side, or
//!   a radius-0 capsule (a segment) against a triangle (bisection).
//! - `capsule_box`: a capsule against a rotated box (bisection).
//! - `ball_tri`, `capsule_tri`, `convex_tri`: a ball, a capsule (radius 0 to 1) or a convex
//!   hull against a triangle (bisection).
//! - `convex_convex`, `convex_box`, `convex_ball`: convex hulls of 5 to 9
//!   points (multiples of 1/8; in a quarter of the cases all in one plane,
//!   in an eighth on one line) against a hull, a rotated box, a ball
//!   (bisection).
//! - `roundbox_roundbox`: rounded boxes face to face, exactly touching or
//!   one ulp off (axis-aligned), or rotated (bisection).
//! - `roundbox_ball`, `roundbox_box`: a rounded rotated box against a ball or a
//!   rotated box (bisection).
//!
//! Rotated boxes have a small integer quaternion in half the cases and a
//! random unit quaternion in doubles (taken exactly, see [`super::PoseBox`])
//! in the other half.
//! - `rounded_large`, `rounded_tiny`: the above scaled by 2^±40 (exactly).

use super::{int_box, threshold, BoxKind, Case, Geom, PoseBox, Rng, STEP};

/// Every rounded family, in report order.
pub const ROUNDED_FAMILIES: [&str; 18] = [
    "ball_ball",
    "ball_box",
    "ball_in_box",
    "ball_tri",
    "capsule_parallel",
    "capsule_collinear",
    "capsule_degenerate",
    "capsule_box",
    "capsule_tri",
    "convex_convex",
    "convex_box",
    "convex_ball",
    "convex_tri",
    "roundbox_roundbox",
    "roundbox_ball",
    "roundbox_box",
    "rounded_large",
    "rounded_tiny",
];

/// Pythagorean directions (x, y, z, n) with x² + y² + z² = n².
const PYTH: [[i64; 4]; 5] = [
    [1, 0, 0, 1],
    [3, 4, 0, 5],
    [2, 3, 6, 7],
    [1, 4, 8, 9],
    [2, 6, 9, 11],
];

/// A Pythagorean direction with random signs and axis order, its n, and the
/// dyadic scale s: the offset is dir·s, of length n·s exactly.
fn pyth(rng: &mut Rng) -> ([f64; 3], f64, f64) {
    let [x, y, z, n] = rng.pick(&PYTH);
    let mut d = [x, y, z].map(|c| c as f64 * if rng.int(0, 1) == 0 { 1.0 } else { -1.0 });
    let k = rng.int(0, 2) as usize;
    d.rotate_left(k);
    let s = rng.int(1, 16) as f64 / 8.0;
    (d, n as f64, s)
}

/// `base + d·s` (exact: small multiples of 1/8) with the first nonzero
/// coordinate of d moved one ulp further along d (`how` = +1: apart), back
/// (−1: overlapping), or not at all (0: exactly touching).
fn place(base: [f64; 3], d: [f64; 3], s: f64, how: i64) -> [f64; 3] {
    let mut o = [0, 1, 2].map(|i| base[i] + d[i] * s);
    if how != 0 {
        let i = (0..3).find(|&i| d[i] != 0.0).expect("a nonzero direction");
        o[i] = if (d[i] > 0.0) == (how > 0) {
            o[i].next_up()
        } else {
            o[i].next_down()
        };
    }
    o
}

fn add(a: [f64; 3], b: [f64; 3]) -> [f64; 3] {
    [a[0] + b[0], a[1] + b[1], a[2] + b[2]]
}

fn point(rng: &mut Rng, r: i64) -> [f64; 3] {
    [rng.eighth(r), rng.eighth(r), rng.eighth(r)]
}

/// R split into two dyadic radii (one 0 with probability `zero`/4).
fn split(rng: &mut Rng, big_r: f64, zero: i64) -> (f64, f64) {
    if rng.int(0, 3) < zero {
        return if rng.int(0, 1) == 0 {
            (big_r, 0.0)
        } else {
            (0.0, big_r)
        };
    }
    let ra = (big_r * rng.int(1, 7) as f64 / 8.0 * 8.0).floor() / 8.0;
    (ra, big_r - ra)
}

fn ball_ball(rng: &mut Rng) -> Case {
    let (d, n, s) = pyth(rng);
    let (ra, rb) = split(rng, n * s, 1);
    let c = point(rng, 2);
    Case {
        family: "ball_ball",
        a: Geom::Ball { c, r: ra },
        b: Geom::Ball {
            c: place(c, d, s, rng.int(-1, 1)),
            r: rb,
        },
    }
}

fn ball_box(rng: &mut Rng) -> Case {
    let he = [0; 3].map(|_| rng.int(1, 16) as f64 / 8.0);
    let t = point(rng, 1);
    // Face, edge or vertex: the first 1, 2 or 3 coordinates are at the box's
    // boundary, the others inside; the direction has as many nonzero ones.
    let kind = rng.int(0, 2) as usize;
    let [x, y, z, n] = PYTH[[0, 1, 2][kind]];
    let dir = [x, y, z].map(|c| c as f64);
    let sign = [0; 3].map(|_| if rng.int(0, 1) == 0 { 1.0 } else { -1.0 });
    let mut base = [0.0; 3];
    let mut d = [0.0; 3];
    for i in 0..3 {
        if dir[i] != 0.0 {
            base[i] = sign[i] * he[i];
            d[i] = sign[i] * dir[i];
        } else {
            base[i] = rng.int(-8, 8) as f64 / 8.0 * he[i];
        }
    }
    let s = rng.int(1, 16) as f64 / 8.0;
    let c = place(add(base, t), d, s, rng.int(-1, 1));
    Case {
        family: "ball_box",
        a: Geom::Box(PoseBox {
            he,
            q: [1.0, 0.0, 0.0, 0.0],
            t,
        }),
        b: Geom::Ball { c, r: n as f64 * s },
    }
}

fn ball_in_box(rng: &mut Rng) -> Case {
    let mut b = int_box(rng, BoxKind::Any);
    b.t = point(rng, 1);
    // A point inside: the center plus a combination of the half-axes with
    // coefficients in (−1, 1), which are exact doubles (multiples of 1/8 of
    // exact half-axes).
    let h = b.half_axes_f64().expect("int_box's half-axes are doubles");
    let k = [0; 3].map(|_| rng.int(-7, 7) as f64 / 8.0);
    let c = [0, 1, 2].map(|j| b.t[j] + k[0] * h[0][j] + k[1] * h[1][j] + k[2] * h[2][j]);
    Case {
        family: "ball_in_box",
        a: Geom::Box(b),
        b: Geom::Ball {
            c,
            r: rng.int(0, 16) as f64 / 8.0,
        },
    }
}

fn capsule_parallel(rng: &mut Rng) -> Case {
    // Axis along a coordinate direction, offset in the plane orthogonal to it
    // along (3, 4)/5 or (1, 0)/1.
    let ax = rng.int(0, 2) as usize;
    let (i, j) = ((ax + 1) % 3, (ax + 2) % 3);
    let (p, q, n) = rng.pick(&[(3.0, 4.0, 5.0), (1.0, 0.0, 1.0), (0.0, 1.0, 1.0)]);
    let s = rng.int(1, 16) as f64 / 8.0;
    let (ra, rb) = split(rng, n * s, 0);
    let mut d = [0.0; 3];
    d[i] = p * if rng.int(0, 1) == 0 { 1.0 } else { -1.0 };
    d[j] = q * if rng.int(0, 1) == 0 { 1.0 } else { -1.0 };
    let a0 = point(rng, 2);
    let mut a1 = a0;
    a1[ax] += rng.int(1, 24) as f64 / 8.0;
    // b's axis slid along: overlapping in projection, or beyond a's end.
    let slide = rng.int(-16, 40) as f64 / 8.0;
    let len = rng.int(1, 24) as f64 / 8.0;
    let mut start = a0;
    start[ax] += slide;
    let b0 = place(start, d, s, rng.int(-1, 1));
    let mut b1 = b0;
    b1[ax] += len;
    Case {
        family: "capsule_parallel",
        a: Geom::Capsule {
            a: a0,
            b: a1,
            r: ra,
        },
        b: Geom::Capsule {
            a: b0,
            b: b1,
            r: rb,
        },
    }
}

fn capsule_collinear(rng: &mut Rng) -> Case {
    let (d, n, s) = pyth(rng);
    let (ra, rb) = split(rng, n * s, 1);
    let a0 = point(rng, 2);
    let la = rng.int(0, 3) as f64;
    let lb = rng.int(0, 3) as f64;
    // a = [a0, a0 + la·d·s'], b starts R beyond a's end along d.
    let a1 = add(a0, d.map(|c| c * la / 4.0));
    let b0 = place(a1, d, s, rng.int(-1, 1));
    let b1 = add(b0, d.map(|c| c * lb / 4.0));
    Case {
        family: "capsule_collinear",
        a: Geom::Capsule {
            a: a0,
            b: a1,
            r: ra,
        },
        b: Geom::Capsule {
            a: b0,
            b: b1,
            r: rb,
        },
    }
}

fn capsule_degenerate(rng: &mut Rng) -> Case {
    if rng.int(0, 1) == 0 {
        // A point capsule (a = b) against a capsule's side along x.
        let (p, q, n) = rng.pick(&[(3.0, 4.0, 5.0), (0.0, 1.0, 1.0), (1.0, 0.0, 1.0)]);
        let s = rng.int(1, 16) as f64 / 8.0;
        let (ra, rb) = split(rng, n * s, 1);
        let a0 = point(rng, 2);
        let len = rng.int(1, 24) as f64 / 8.0;
        let mut a1 = a0;
        a1[0] += len;
        let x = a0[0] + rng.int(0, 8) as f64 / 8.0 * len;
        let c = place([x, a0[1], a0[2]], [0.0, p, q], s, rng.int(-1, 1));
        return Case {
            family: "capsule_degenerate",
            a: Geom::Capsule {
                a: a0,
                b: a1,
                r: ra,
            },
            b: Geom::Capsule { a: c, b: c, r: rb },
        };
    }
    let t = super::triangle(rng);
    let seg = Geom::Capsule {
        a: point(rng, 1),
        b: point(rng, 1),
        r: 0.0,
    };
    approach("capsule_degenerate", Geom::Tri(t), seg, rng)
}

/// A rotated box centered at 0: a small integer quaternion or a random unit
/// one in doubles; half-extents 1/2 to 3/2.
fn rot_box(rng: &mut Rng) -> PoseBox {
    let mut b = int_box(rng, BoxKind::Any);
    // Half-extents 1/2, 1 or 3/2 (int_box's are multiples of |q|²/2).
    let n2: f64 = b.q.iter().map(|c| c * c).sum();
    b.he = b.he.map(|h| h / n2);
    if rng.int(0, 1) == 0 {
        let u = [0; 4].map(|_| (rng.next_u64() >> 11) as f64 / (1u64 << 53) as f64 * 2.0 - 1.0);
        let n = u.iter().map(|c| c * c).sum::<f64>().sqrt();
        if n > 0.1 {
            b.q = u.map(|c| c / n);
        }
    }
    b
}

/// Points of a convex shape: 5 to 9 multiples of 1/8 in [−1, 1]; in a
/// quarter of the cases all in one plane (z = const), in an eighth on one
/// line.
fn convex_points(rng: &mut Rng) -> Vec<[f64; 3]> {
    let n = rng.int(5, 9) as usize;
    let kind = rng.int(0, 7);
    (0..n)
        .map(|_| match kind {
            0 => {
                let t = rng.int(-8, 8) as f64 / 8.0;
                [t, 0.5 * t, 0.25]
            }
            1 | 2 => [rng.eighth(1), rng.eighth(1), 0.25],
            _ => point(rng, 1),
        })
        .collect()
}

/// `b` moved along a random integer direction d to the last exactly touching
/// or overlapping step k·2⁻⁴⁰·d of `a`, or one step past it.
fn approach(family: &'static str, a: Geom, b: Geom, rng: &mut Rng) -> Case {
    // First b is moved so that a point of it lies on a point of a (they
    // meet at k = 0): exact, the anchors being small multiples of 1/8.
    let (pa, pb) = (anchor(&a), anchor(&b));
    let b = b.translated([0, 1, 2].map(|i| pa[i] - pb[i]));
    for _ in 0..16 {
        let d = [
            rng.int(-4, 4) as f64,
            rng.int(-4, 4) as f64,
            rng.int(1, 4) as f64,
        ];
        let at = |k: i64| Case {
            family,
            a: a.clone(),
            b: b.translated(d.map(|x| x * k as f64 * STEP)),
        };
        let hit = |k: i64| at(k).intersects().unwrap_or(false);
        if let Some(k) = threshold(hit, 1i64 << 48) {
            return at(k + rng.int(0, 1));
        }
    }
    // b does not meet a at its start: the pair as it is.
    Case { family, a, b }
}

/// A point of the shape: a vertex, a center, an end, a first point.
fn anchor(g: &Geom) -> [f64; 3] {
    match g {
        Geom::Tri(v) => v[0],
        Geom::Box(b) | Geom::RoundBox(b, _) => b.t,
        Geom::Ball { c, .. } => *c,
        Geom::Capsule { a, .. } => *a,
        Geom::Convex(p) => p[0],
    }
}

impl Geom {
    /// The shape moved by `d` (exactly when the sums are doubles).
    pub fn translated(&self, d: [f64; 3]) -> Geom {
        match self {
            Geom::Tri(v) => Geom::Tri(v.map(|p| add(p, d))),
            Geom::Box(b) => Geom::Box(PoseBox {
                t: add(b.t, d),
                ..*b
            }),
            Geom::RoundBox(b, r) => Geom::RoundBox(
                PoseBox {
                    t: add(b.t, d),
                    ..*b
                },
                *r,
            ),
            Geom::Ball { c, r } => Geom::Ball {
                c: add(*c, d),
                r: *r,
            },
            Geom::Capsule { a, b, r } => Geom::Capsule {
                a: add(*a, d),
                b: add(*b, d),
                r: *r,
            },
            Geom::Convex(p) => Geom::Convex(p.iter().map(|&p| add(p, d)).collect()),
        }
    }
}

fn roundbox_roundbox(rng: &mut Rng) -> Case {
    let r = |rng: &mut Rng| rng.int(0, 8) as f64 / 8.0;
    if rng.int(0, 1) == 0 {
        let (ra, rb) = (r(rng), r(rng));
        let ha = [0; 3].map(|_| rng.int(1, 16) as f64 / 8.0);
        let hb = [0; 3].map(|_| rng.int(1, 16) as f64 / 8.0);
        let ax = rng.int(0, 2) as usize;
        let mut t = point(rng, 1);
        // Face to face along ax: the centers ha + hb + ra + rb apart (the
        // cores' faces at distance ra + rb), nudged.
        let gap = ha[ax] + hb[ax] + ra + rb;
        t[ax] = match rng.int(-1, 1) {
            -1 => gap.next_down(),
            0 => gap,
            _ => gap.next_up(),
        };
        let q = [1.0, 0.0, 0.0, 0.0];
        return Case {
            family: "roundbox_roundbox",
            a: Geom::RoundBox(
                PoseBox {
                    he: ha,
                    q,
                    t: [0.0; 3],
                },
                ra,
            ),
            b: Geom::RoundBox(PoseBox { he: hb, q, t }, rb),
        };
    }
    let a = Geom::RoundBox(rot_box(rng), r(rng));
    let b = Geom::RoundBox(rot_box(rng), r(rng));
    approach("roundbox_roundbox", a, b, rng)
}

/// One case of a rounded `family` (one of [`ROUNDED_FAMILIES`]).
///
/// ```
/// use exact_collision::cases::{rounded::{generate_rounded, ROUNDED_FAMILIES}, Rng};
/// let mut rng = Rng(7);
/// for f in ROUNDED_FAMILIES {
///     let c = generate_rounded(f, &mut rng);
///     assert_eq!(c.family, f);
///     assert!(c.proper() && c.intersects().is_some(), "an exact answer for every case");
/// }
/// ```
pub fn generate_rounded(family: &str, rng: &mut Rng) -> Case {
    let ball = |rng: &mut Rng| Geom::Ball {
        c: point(rng, 1),
        r: rng.int(0, 12) as f64 / 8.0,
    };
    match family {
        "ball_ball" => ball_ball(rng),
        "ball_box" => ball_box(rng),
        "ball_in_box" => ball_in_box(rng),
        "capsule_parallel" => capsule_parallel(rng),
        "capsule_collinear" => capsule_collinear(rng),
        "capsule_degenerate" => capsule_degenerate(rng),
        "capsule_box" => {
            let a = Geom::Box(rot_box(rng));
            let b = Geom::Capsule {
                a: point(rng, 1),
                b: point(rng, 1),
                r: rng.int(0, 8) as f64 / 8.0,
            };
            approach(family_name(family), a, b, rng)
        }
        "convex_convex" => {
            let a = Geom::Convex(convex_points(rng));
            let b = Geom::Convex(convex_points(rng));
            approach("convex_convex", a, b, rng)
        }
        "convex_box" => {
            let a = Geom::Box(rot_box(rng));
            let b = Geom::Convex(convex_points(rng));
            approach("convex_box", a, b, rng)
        }
        "convex_ball" => {
            let a = Geom::Convex(convex_points(rng));
            let b = ball(rng);
            approach("convex_ball", a, b, rng)
        }
        "roundbox_roundbox" => roundbox_roundbox(rng),
        "roundbox_box" => {
            let a = Geom::Box(rot_box(rng));
            let b = Geom::RoundBox(rot_box(rng), rng.int(0, 8) as f64 / 8.0);
            approach("roundbox_box", a, b, rng)
        }
        "ball_tri" | "capsule_tri" | "convex_tri" => {
            let a = Geom::Tri(super::triangle(rng));
            let b = match family {
                "ball_tri" => ball(rng),
                "capsule_tri" => Geom::Capsule {
                    a: point(rng, 1),
                    b: point(rng, 1),
                    r: rng.int(0, 8) as f64 / 8.0,
                },
                _ => Geom::Convex(convex_points(rng)),
            };
            approach(family_name(family), a, b, rng)
        }
        "roundbox_ball" => {
            let a = Geom::RoundBox(rot_box(rng), rng.int(0, 8) as f64 / 8.0);
            let b = ball(rng);
            approach("roundbox_ball", a, b, rng)
        }
        "rounded_large" | "rounded_tiny" => {
            let s = if family == "rounded_large" {
                2f64.powi(40)
            } else {
                2f64.powi(-40)
            };
            let base = ROUNDED_FAMILIES[rng.int(0, ROUNDED_FAMILIES.len() as i64 - 3) as usize];
            let c = generate_rounded(base, rng);
            Case {
                family: family_name(family),
                a: c.a.scaled(s),
                b: c.b.scaled(s),
            }
        }
        _ => ball_ball(rng),
    }
}

fn family_name(f: &str) -> &'static str {
    ROUNDED_FAMILIES
        .iter()
        .find(|&&g| g == f)
        .copied()
        .unwrap_or("ball_ball")
}

/// `n` rounded cases from `seed`, cycling through [`ROUNDED_FAMILIES`].
pub fn generate_rounded_all(n: usize, seed: u64) -> Vec<Case> {
    let mut rng = Rng(seed);
    (0..n)
        .map(|i| generate_rounded(ROUNDED_FAMILIES[i % ROUNDED_FAMILIES.len()], &mut rng))
        .collect()
}
