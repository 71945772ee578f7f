//! The audit: the as-published algorithms against the exact answers on the
//! hard-case generators ([`crate::cases`]), counted by algorithm and case
//! family, with every counterexample as a protocol line (the algorithm's
//! answer as the `claim`) and shrunk.
//!
//! Each algorithm gets the very shapes the exact side answers: boxes whose
//! half-axes are exact doubles (the generators make them so) are given to
//! Nathan's cuboid test as plan-view corners and a z range, to the cube
//! listing as eight vertices, both exact; Eberly's table needs unit axes, so
//! it gets the nearest doubles of the unit axes and the half-extents, and the
//! exact side answers the box those doubles define (extent × rounded axis,
//! exactly). An algorithm's answer becomes a claim (`intersect`, and
//! `distance_f64` for the triangle strategy, which reports a distance) judged
//! by [`crate::protocol::answer_value_with`] with the default tolerances
//! (distances: relative 1e-9), exactly as `exact-collision verify` would.

use super::{cube_listing, eberly_obb, nathan_cuboid, nathan_triangle};
use crate::cases::{generate_all, Case, Geom, PoseBox};
use crate::num::scalar::rational_to_f64;
use crate::protocol::number::float_value;
use crate::protocol::{answer_value_with, Tolerances};
use crate::shrink::{line_len, shrink_numbers, Form};
use num_rational::BigRational;
use serde_json::{json, Value};

/// The audited algorithms, in report order: (name, what it is).
pub const ALGORITHMS: [(&str, &str); 4] = [
    (
        "nathan-cuboid",
        "P. Nathan, \"Notes on Cuboid-Cuboid Collision Detection\" (2014): z-extruded rectangles, f64 with ε = 2⁻²³",
    ),
    (
        "cube-listing",
        "the \"Cube intersection algorithm\" Python listing: sphere shortcuts and 9 edge–face tests, f64",
    ),
    (
        "eberly-obb",
        "D. Eberly's simplified separating-axis table for oriented boxes (2002), f64 with ε = 1e-6",
    ),
    (
        "nathan-triangle",
        "P. Nathan, \"Triangle – Triangle Collision Detection Strategy\" (2015), f64 with ε = 1e-9",
    ),
];

/// How a claim went wrong.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Failure {
    /// Claimed intersecting, exactly disjoint.
    FalsePositive,
    /// Claimed disjoint, exactly intersecting.
    FalseNegative,
    /// The distance is off by more than the tolerance.
    WrongDistance,
}

impl Failure {
    /// The report's name.
    pub fn name(self) -> &'static str {
        match self {
            Failure::FalsePositive => "false_positive",
            Failure::FalseNegative => "false_negative",
            Failure::WrongDistance => "wrong_distance",
        }
    }
}

/// One row of the table.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Row {
    /// Cases the algorithm was run on.
    pub cases: usize,
    /// Claimed intersecting, exactly disjoint.
    pub false_positives: usize,
    /// Claimed disjoint, exactly intersecting.
    pub false_negatives: usize,
    /// Distances off (`None` for algorithms that report none).
    pub wrong_distances: Option<usize>,
}

/// A counterexample: the line as generated and shrunk.
#[derive(Clone, Debug)]
pub struct Counterexample {
    /// The algorithm.
    pub algorithm: &'static str,
    /// The case family.
    pub family: &'static str,
    /// How it is wrong.
    pub failure: Failure,
    /// The protocol line with the algorithm's claim.
    pub line: Value,
    /// The same, shrunk under the algorithm (its answer on the smaller input).
    pub shrunk: Value,
}

/// The audit's result.
#[derive(Clone, Debug, Default)]
pub struct Report {
    /// (algorithm, family) → counts, in report order.
    pub rows: Vec<((&'static str, &'static str), Row)>,
    /// The first counterexamples of each (algorithm, family, failure).
    pub counterexamples: Vec<Counterexample>,
}

fn pose_axes_unit(b: &PoseBox) -> Option<[[f64; 3]; 3]> {
    // The unit axes (columns of R(q)/|q|²), each component the nearest double.
    let unit = PoseBox { he: [1.0; 3], ..*b }.half_axes()?;
    Some(unit.map(|v| [v.x, v.y, v.z].map(|c| rational_to_f64(&c))))
}

/// `Some(())` when the double point `p` is exactly t + Σ sᵢ·hᵢ.
fn exact_sum(p: &[f64; 3], t: [f64; 3], h: &[[f64; 3]; 3], s: [i32; 3]) -> Option<()> {
    let q = |x: f64| BigRational::from_float(x);
    for k in 0..3 {
        let mut e = q(t[k])?;
        for i in 0..3 {
            e += q(h[i][k])? * BigRational::from_integer(s[i].into());
        }
        if q(p[k])? != e {
            return None;
        }
    }
    Some(())
}

/// The box the algorithm sees, as the exact side must see it, and its input.
enum Input {
    Cuboid(nathan_cuboid::Cuboid, Value),
    Cube([[f64; 3]; 8], Value),
    Obb(eberly_obb::Box3, Value),
    Tri([[f64; 3]; 3], Value),
}

fn input(alg: &str, g: &Geom) -> Option<Input> {
    match (alg, g) {
        ("nathan-triangle", Geom::Tri(v)) => Some(Input::Tri(*v, g.to_json())),
        ("eberly-obb", Geom::Box(b)) => {
            let axes = pose_axes_unit(b)?;
            let ext = b.he;
            let half: Vec<Value> = (0..3)
                .map(|i| {
                    let v: Vec<Value> = axes[i]
                        .iter()
                        .map(|&c| {
                            let x = BigRational::from_float(c)? * BigRational::from_float(ext[i])?;
                            Some(Value::String(crate::protocol::number::exact_string(&x)))
                        })
                        .collect::<Option<_>>()?;
                    Some(Value::Array(v))
                })
                .collect::<Option<_>>()?;
            let j = json!({"type": "box", "center": b.t, "half_axes": half});
            Some(Input::Obb(eberly_obb::Box3 { c: b.t, axes, ext }, j))
        }
        ("cube-listing", Geom::Box(b)) => {
            let h = b.half_axes_f64()?;
            if b.he[0] != b.he[1] || b.he[1] != b.he[2] {
                return None; // the listing is for cubes
            }
            let add = |p: [f64; 3], v: [f64; 3], k: f64| [0, 1, 2].map(|i| p[i] + k * v[i]);
            let a = add(add(add(b.t, h[0], -1.0), h[1], -1.0), h[2], -1.0);
            let bb = add(a, h[0], 2.0);
            let c = add(bb, h[1], 2.0);
            let d = add(a, h[1], 2.0);
            let up = |p| add(p, h[2], 2.0);
            let v = [a, bb, c, d, up(a), up(bb), up(c), up(d)];
            // Every sum must have been exact (else the algorithm would see
            // another solid than the box).
            let signs = [
                [-1, -1, -1],
                [1, -1, -1],
                [1, 1, -1],
                [-1, 1, -1],
                [-1, -1, 1],
                [1, -1, 1],
                [1, 1, 1],
                [-1, 1, 1],
            ];
            for (p, s) in v.iter().zip(signs) {
                exact_sum(p, b.t, &h, s)?;
            }
            let j = json!({"type": "cube", "vertices": v});
            Some(Input::Cube(v, j))
        }
        ("nathan-cuboid", Geom::Box(b)) => {
            let h = b.half_axes_f64()?;
            // Rotations about z only: h0, h1 horizontal, h2 vertical.
            if h[0][2] != 0.0 || h[1][2] != 0.0 || h[2][0] != 0.0 || h[2][1] != 0.0 {
                return None;
            }
            let c = |s0: f64, s1: f64| {
                [
                    b.t[0] + s0 * h[0][0] + s1 * h[1][0],
                    b.t[1] + s0 * h[0][1] + s1 * h[1][1],
                ]
            };
            let mut p = [c(-1.0, -1.0), c(1.0, -1.0), c(1.0, 1.0), c(-1.0, 1.0)];
            for (pi, s) in p.iter().zip([[-1, -1], [1, -1], [1, 1], [-1, 1]]) {
                exact_sum(&[pi[0], pi[1], b.t[2]], b.t, &h, [s[0], s[1], 0])?;
            }
            // Anti-clockwise: det(h0, h1) > 0 for a rotation; else reverse.
            if h[0][0] * h[1][1] - h[0][1] * h[1][0] < 0.0 {
                p.reverse();
            }
            let hz = h[2][2].abs();
            let (zmin, zmax) = (b.t[2] - hz, b.t[2] + hz);
            if zmin + hz != b.t[2] || zmax - hz != b.t[2] {
                return None;
            }
            let j = json!({"type": "prism", "base": p, "z": [zmin, zmax]});
            Some(Input::Cuboid(nathan_cuboid::Cuboid { p, zmin, zmax }, j))
        }
        _ => None,
    }
}

/// The algorithm's answer as a protocol line with a claim, or `None` when it
/// does not apply to the case.
pub fn claim_line(alg: &str, case: &Case) -> Option<Value> {
    let (ia, ib) = (input(alg, &case.a)?, input(alg, &case.b)?);
    let (op, a, b, claim) = match (ia, ib) {
        (Input::Tri(a, ja), Input::Tri(b, jb)) => {
            let p = nathan_triangle::triangle_triangle(a, b, nathan_triangle::EPS);
            (
                "distance",
                ja,
                jb,
                json!({"intersect": p.collide, "distance_f64": float_value(p.distance)}),
            )
        }
        (Input::Obb(a, ja), Input::Obb(b, jb)) => (
            "intersect",
            ja,
            jb,
            json!({"intersect": eberly_obb::intersect(&a, &b)}),
        ),
        (Input::Cube(a, ja), Input::Cube(b, jb)) => (
            "intersect",
            ja,
            jb,
            json!({"intersect": cube_listing::intersect(&a, &b)}),
        ),
        (Input::Cuboid(a, ja), Input::Cuboid(b, jb)) => (
            "intersect",
            ja,
            jb,
            json!({"intersect": nathan_cuboid::intersect(&a, &b)}),
        ),
        _ => return None,
    };
    Some(json!({"op": op, "category": case.family, "a": a, "b": b, "claim": claim}))
}

/// The failures of a claim line (empty when it agrees; `None` when the line
/// cannot be answered).
pub fn failures(line: &Value) -> Option<Vec<Failure>> {
    let (a, verdict) = answer_value_with(line, &Tolerances::default());
    if !a.ok {
        return None;
    }
    let mut out = Vec::new();
    for f in verdict?.fields.iter().filter(|f| !f.agrees) {
        match f.field.as_str() {
            "intersect" => {
                let claimed = line["claim"]["intersect"].as_bool();
                out.push(if claimed == Some(true) {
                    Failure::FalsePositive
                } else {
                    Failure::FalseNegative
                });
            }
            _ => out.push(Failure::WrongDistance),
        }
    }
    Some(out)
}

/// Shrink `case` while `alg` keeps failing with `failure` on it.
pub fn shrink_case(alg: &str, case: &Case, failure: Failure) -> Value {
    let p = case.params();
    let xs: Vec<BigRational> = p
        .iter()
        .filter_map(|&x| BigRational::from_float(x))
        .collect();
    let forms = vec![Form::Double; xs.len()];
    let rebuild = |xs: &[BigRational]| {
        let p: Vec<f64> = xs.iter().map(rational_to_f64).collect();
        case.with_params(&p)
    };
    let keeps = |c: &Case| {
        c.proper()
            && claim_line(alg, c)
                .and_then(|l| failures(&l))
                .is_some_and(|f| f.contains(&failure))
    };
    let small = shrink_numbers(&xs, &forms, &mut |xs| keeps(&rebuild(xs)));
    // Never larger than the line as generated (derived exact strings can be).
    let original = claim_line(alg, case).unwrap_or(Value::Null);
    match claim_line(alg, &rebuild(&small)) {
        Some(l) if line_len(&l) <= line_len(&original) => l,
        _ => original,
    }
}

/// Run every algorithm on `n` generated cases from `seed`; keep and shrink up
/// to `keep` counterexamples per (algorithm, family, failure).
///
/// ```
/// use exact_collision::audit::run::audit;
/// let r = audit(24, 1, 0);
/// let total: usize = r.rows.iter().map(|(_, row)| row.cases).sum();
/// assert!(total >= 24, "every case goes to at least one algorithm");
/// ```
pub fn audit(n: usize, seed: u64, keep: usize) -> Report {
    let cases = generate_all(n, seed);
    let mut report = Report::default();
    for (alg, _) in ALGORITHMS {
        for family in crate::cases::FAMILIES {
            let mut row = Row::default();
            if alg == "nathan-triangle" {
                row.wrong_distances = Some(0);
            }
            let mut kept: Vec<Failure> = Vec::new();
            for c in cases.iter().filter(|c| c.family == family) {
                let Some(line) = claim_line(alg, c) else {
                    continue;
                };
                let Some(fs) = failures(&line) else { continue };
                row.cases += 1;
                for f in fs {
                    match f {
                        Failure::FalsePositive => row.false_positives += 1,
                        Failure::FalseNegative => row.false_negatives += 1,
                        Failure::WrongDistance => {
                            *row.wrong_distances.get_or_insert(0) += 1;
                        }
                    }
                    if kept.iter().filter(|&&k| k == f).count() < keep {
                        kept.push(f);
                        report.counterexamples.push(Counterexample {
                            algorithm: alg,
                            family,
                            failure: f,
                            shrunk: shrink_case(alg, c, f),
                            line: line.clone(),
                        });
                    }
                }
            }
            if row.cases > 0 {
                report.rows.push(((alg, family), row));
            }
        }
    }
    report
}

impl Report {
    /// The table as text: algorithm, family, cases, false positives, false
    /// negatives, wrong distances ("-" where the algorithm reports none).
    pub fn table(&self) -> String {
        let mut t: Vec<Vec<String>> = vec![[
            "algorithm",
            "family",
            "cases",
            "false_pos",
            "false_neg",
            "wrong_dist",
        ]
        .map(String::from)
        .to_vec()];
        for ((alg, fam), r) in &self.rows {
            t.push(vec![
                alg.to_string(),
                fam.to_string(),
                r.cases.to_string(),
                r.false_positives.to_string(),
                r.false_negatives.to_string(),
                r.wrong_distances.map_or("-".into(), |w| w.to_string()),
            ]);
        }
        crate::report::text_table(&t, 2)
    }
}
