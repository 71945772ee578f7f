//! The fast path's proof steps against the exhaustive path: every feature
//! pair offered to the closest-pair proof, every candidate axis and every
//! witness candidate, on random pairs of every kind, checked one by one
//! against exact rational arithmetic.

use super::closest::{self, Feat, Pair};
use super::sat::{self, Plain};
use super::side::{Ctx, Raw, View};
use super::witness::{Found, Witness};
use crate::query::polytope::{self, Polytope};
use crate::query::{distance, intersect, Closest, Intersection};
use crate::shape::{Obb, Prism, Shape, Triangle};
use crate::vector::{Vec2, Vec3};
use crate::Scalar;
use num_rational::BigRational;
use num_traits::{Signed, Zero};

type Q = BigRational;

struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        crate::poly::planted::splitmix64(&mut self.0)
    }
    fn unit(&mut self) -> f64 {
        (self.next() >> 11) as f64 / (1u64 << 53) as f64
    }
    fn range(&mut self, lo: f64, hi: f64) -> f64 {
        lo + (hi - lo) * self.unit()
    }
    fn rot(&mut self) -> [[f64; 3]; 3] {
        let q = [0; 4].map(|_| self.range(-1.0, 1.0));
        let n = q.iter().map(|x| x * x).sum::<f64>().sqrt().max(1e-3);
        crate::cases::rotation_f64(q.map(|v| v / n))
    }
    fn bx(&mut self, s: f64) -> Shape<f64> {
        let r = self.rot();
        let e = [0; 3].map(|_| self.range(0.1, 1.0));
        let c = [0; 3].map(|_| self.range(-s, s));
        let h = [0, 1, 2].map(|i| Vec3::new(r[0][i] * e[i], r[1][i] * e[i], r[2][i] * e[i]));
        Shape::Box(Obb::new(Vec3::new(c[0], c[1], c[2]), h).unwrap())
    }
    fn tri(&mut self, s: f64) -> Shape<f64> {
        let c = [0; 3].map(|_| self.range(-s, s));
        Shape::Triangle(Triangle::new([0; 3].map(|_| {
            Vec3::new(
                c[0] + self.range(-1., 1.),
                c[1] + self.range(-1., 1.),
                c[2] + self.range(-1., 1.),
            )
        })))
    }
    fn prism(&mut self, s: f64) -> Shape<f64> {
        let (cx, cy) = (self.range(-s, s), self.range(-s, s));
        let a = self.range(0., std::f64::consts::TAU);
        let (w, h) = (self.range(0.1, 1.), self.range(0.1, 1.));
        let pts = [(1., 1.), (-1., 1.), (-1., -1.), (1., -1.)].map(|(sx, sy)| {
            Vec2::new(
                cx + a.cos() * sx * w - a.sin() * sy * h,
                cy + a.sin() * sx * w + a.cos() * sy * h,
            )
        });
        let z0 = self.range(-s, s);
        Shape::Prism(Prism::new(pts, z0, z0 + self.range(0.1, 1.)).unwrap())
    }
    /// A pair of kinds `k` (0 box–box, 1 tri–box, 2 prism–box, 3 tri–prism,
    /// in either order by the low bit of the draw).
    fn pair(&mut self, k: usize, s: f64) -> (Shape<f64>, Shape<f64>) {
        let (a, b) = match k {
            0 => (self.bx(s), self.bx(s)),
            1 => (self.tri(s), self.bx(s)),
            2 => (self.prism(s), self.bx(s)),
            _ => (self.tri(s), self.prism(s)),
        };
        if self.next() & 1 == 0 {
            (a, b)
        } else {
            (b, a)
        }
    }
}

fn ctx(a: &Shape<f64>, b: &Shape<f64>) -> Ctx {
    Ctx::new(&Raw::of(a).unwrap(), &Raw::of(b).unwrap()).expect("aligned")
}

fn polys(a: &Shape<f64>, b: &Shape<f64>) -> (Polytope, Polytope) {
    (
        Polytope::new(&a.to_rational()),
        Polytope::new(&b.to_rational()),
    )
}

/// Every feature pair of two sides.
fn all_pairs(c: &Ctx) -> Vec<Pair> {
    let feats = |s: &super::side::Side<crate::num::bounded::Fx>| {
        let mut v: Vec<Feat> = (0..s.nv).map(Feat::V).collect();
        v.extend((0..s.edges().len()).map(Feat::E));
        v.extend((0..s.nfaces()).map(Feat::F));
        v
    };
    let (fa, fb) = (feats(&c.a), feats(&c.b));
    fa.iter()
        .flat_map(|&x| fb.iter().map(move |&y| Pair { fa: x, fb: y }))
        .collect()
}

/// The proof accepts one feature pair at most, the one whose construction is
/// the exhaustive path's closest pair: every other pair, offered
/// deliberately, is rejected.
#[test]
fn every_wrong_feature_pair_is_rejected() {
    let mut r = Rng(41);
    let (mut one, mut total) = (0, 0);
    for round in 0..48 {
        let (a, b) = r.pair(round % 4, 2.5);
        let (pa, pb) = polys(&a, &b);
        if polytope::separating_axis(&pa, &pb).is_none() {
            continue;
        }
        total += 1;
        let c = ctx(&a, &b);
        let accepted: Vec<Pair> = all_pairs(&c)
            .into_iter()
            .filter(|&p| closest::prove(&c, p))
            .collect();
        assert!(accepted.len() <= 1, "{accepted:?} {a:?} {b:?}");
        if let Some(&p) = accepted.first() {
            one += 1;
            let want = polytope::closest_pair(&pa, &pb);
            assert_eq!(closest::construct(&c, p), want, "{p:?}");
        }
    }
    // Random pairs have a unique closest pair of the handled kinds.
    assert!(total >= 30 && one == total, "{one} of {total}");
}

/// The proof rejects a pair whose features are right but whose roles are
/// swapped or shifted to a neighbour, on pairs built to have a known
/// closest vertex–face pair.
#[test]
fn near_miss_pairs_are_rejected() {
    let v = |x: f64, y: f64, z: f64| Vec3::new(x, y, z);
    let unit =
        Shape::Box(Obb::new(v(0., 0., 0.), [v(1., 0., 0.), v(0., 1., 0.), v(0., 0., 1.)]).unwrap());
    // A triangle whose vertex 0 is above the +z face, at height 1/2.
    let tri = Shape::Triangle(Triangle::new([
        v(0.25, 0.125, 1.5),
        v(3., 1., 4.),
        v(-2., 2., 5.),
    ]));
    let c = ctx(&tri, &unit);
    let right = Pair {
        fa: Feat::V(0),
        fb: Feat::F(4),
    };
    assert!(closest::prove(&c, right));
    let want = polytope::closest_pair(
        &Polytope::new(&tri.to_rational()),
        &Polytope::new(&unit.to_rational()),
    );
    assert_eq!(closest::construct(&c, right), want);
    for wrong in [
        Pair {
            fa: Feat::V(0),
            fb: Feat::F(5),
        }, // the opposite face
        Pair {
            fa: Feat::V(1),
            fb: Feat::F(4),
        }, // another vertex
        Pair {
            fa: Feat::V(0),
            fb: Feat::V(7),
        }, // the face's nearest corner
        Pair {
            fa: Feat::V(0),
            fb: Feat::E(3),
        }, // an edge of that face
        Pair {
            fa: Feat::E(0),
            fb: Feat::F(4),
        }, // edge over face: not handled
        Pair {
            fa: Feat::F(0),
            fb: Feat::V(7),
        }, // the triangle's face
    ] {
        assert!(!closest::prove(&c, wrong), "{wrong:?}");
    }
}

/// Every candidate axis is decided as the exhaustive path decides it, and
/// the first separating one is the exhaustive path's.
#[test]
fn axes_are_decided_exactly() {
    let mut r = Rng(43);
    for round in 0..80 {
        let (a, b) = r.pair(round % 4, if round % 3 == 0 { 0.6 } else { 2.0 });
        let c = ctx(&a, &b);
        let (pa, pb) = polys(&a, &b);
        let (qa, qb) = (Plain::new(&c.a), Plain::new(&c.b));
        let (list, n) = sat::axes(&c);
        for &ax in &list[..n] {
            let (l, p) = sat::axis_exact(&c, ax);
            let l = crate::num::fixed::int_pow2_point(&l, p);
            assert_eq!(
                sat::separates(&c, &qa, &qb, ax),
                polytope::separates(&pa, &pb, &l)
            );
        }
        let fast = sat::first_separating(&c).map(|ax| {
            let (l, p) = sat::axis_exact(&c, ax);
            crate::num::fixed::int_pow2_point(&l, p)
        });
        assert_eq!(fast, polytope::separating_axis(&pa, &pb));
    }
}

/// The exhaustive path's witness candidate for a vertex or an edge through a
/// face, and whether it is a common point, in rational arithmetic.
fn reference_candidate(pa: &Polytope, pb: &Polytope, f: Found) -> Option<Vec3<Q>> {
    let pick = |s: usize| if s == 0 { (pa, pb) } else { (pb, pa) };
    match f {
        Found::Center(_) => unreachable!(),
        Found::Vertex(p, i) => {
            let (p, q) = pick(p);
            let x = p.vertices[i].clone();
            q.shape.contains(&x).then_some(x)
        }
        Found::Crossing(p, ei, fi) => {
            let (p, q) = pick(p);
            let (i, j) = p.edges[ei];
            let (s, e) = (&p.vertices[i], &p.vertices[j]);
            let face = &q.faces[fi];
            let ds = face.normal.dot(&s.sub(&face.point));
            let de = face.normal.dot(&e.sub(&face.point));
            if ds.is_zero() && de.is_zero() {
                return None;
            }
            if ds.is_positive() == de.is_positive() && !ds.is_zero() && !de.is_zero() {
                return None;
            }
            let t = &ds / (&ds - &de);
            let x = s.add(&e.sub(s).scale(&t));
            q.shape.contains(&x).then_some(x)
        }
    }
}

/// Every witness candidate is accepted exactly when it is a common point,
/// and the point is the exhaustive path's; the search's first is the
/// exhaustive search's first.
#[test]
fn witness_candidates_are_checked_exactly() {
    let mut r = Rng(47);
    let mut found = 0;
    for round in 0..60 {
        let (a, b) = r.pair(round % 4, 0.5);
        let c = ctx(&a, &b);
        let (pa, pb) = polys(&a, &b);
        let mut w = Witness::new(&c);
        let mut cands = Vec::new();
        for p in 0..2 {
            let (sp, sq) = (c.side(p), c.side(1 - p));
            cands.extend((0..sp.nv).map(|i| Found::Vertex(p, i)));
            for e in 0..sp.edges().len() {
                cands.extend((0..sq.nfaces()).map(|f| Found::Crossing(p, e, f)));
            }
        }
        for &f in &cands {
            let want = reference_candidate(&pa, &pb, f);
            assert_eq!(w.check(f), want.is_some(), "{f:?}");
            if let Some(x) = want {
                assert_eq!(w.point(f), x);
                found += 1;
            }
        }
        let first = match w.search() {
            super::witness::Search::Found(f) => Some(w.point(f)),
            super::witness::Search::Nothing => None,
        };
        if polytope::separating_axis(&pa, &pb).is_none() {
            assert_eq!(first, polytope::witness(&pa, &pb));
        }
    }
    assert!(found > 100);
}

/// The float paths (`intersect::<f64>`, `distance::<f64>`) make the exact
/// decisions and round the constructions within a few ulps of the exact
/// values.
#[test]
fn float_paths_round_the_exact_answers() {
    let close = |x: f64, q: &Q| {
        let r = f64::from_rational(q);
        let ulp = (r.abs().max(f64::MIN_POSITIVE) * f64::EPSILON).max(5e-324);
        (x - r).abs() <= 4.0 * ulp
    };
    let pt = |x: &Vec3<f64>, q: &Vec3<Q>| close(x.x, &q.x) && close(x.y, &q.y) && close(x.z, &q.z);
    let mut r = Rng(53);
    for round in 0..80 {
        let (a, b) = r.pair(round % 4, if round % 2 == 0 { 0.6 } else { 2.0 });
        let (ea, eb) = (a.to_rational(), b.to_rational());
        let want = intersect(&ea, &eb).unwrap();
        match (intersect(&a, &b).unwrap(), &want) {
            (Intersection::Overlap { witness }, Intersection::Overlap { witness: w }) => {
                assert!(pt(&witness, w), "{witness:?} {w:?}")
            }
            (Intersection::Separated { axis }, Intersection::Separated { axis: l }) => {
                assert!(pt(&axis, l), "{axis:?} {l:?}")
            }
            (got, want) => panic!("decisions differ: {got:?} {want:?}"),
        }
        let want: Closest<Q> = distance(&ea, &eb).unwrap();
        let got = distance(&a, &b).unwrap();
        assert!(close(got.distance_squared, &want.distance_squared));
        assert_eq!(got.distance_squared == 0.0, want.distance_squared.is_zero());
        assert!(pt(&got.a, &want.a) && pt(&got.b, &want.b));
    }
}

/// What the fast path leaves to the exhaustive one: a flat prism, a
/// degenerate triangle, inputs whose bits span more than `side::BITS`.
#[test]
fn unsupported_inputs_fall_back() {
    let v = |x: f64, y: f64, z: f64| Vec3::new(x, y, z);
    let bx =
        Shape::Box(Obb::new(v(0., 0., 0.), [v(1., 0., 0.), v(0., 1., 0.), v(0., 0., 1.)]).unwrap());
    let sq = [
        Vec2::new(0., 0.),
        Vec2::new(1., 0.),
        Vec2::new(1., 1.),
        Vec2::new(0., 1.),
    ];
    let flat = Shape::Prism(Prism::new(sq.clone(), 0.5, 0.5).unwrap());
    let seg = Shape::Triangle(Triangle::new([v(0., 0., 3.), v(1., 1., 3.), v(2., 2., 3.)]));
    let far = Shape::Box(
        Obb::new(
            v(2f64.powi(80), 0., 0.),
            [v(2f64.powi(-40), 0., 0.), v(0., 1., 0.), v(0., 0., 1.)],
        )
        .unwrap(),
    );
    for (x, y) in [(&flat, &bx), (&seg, &bx), (&bx, &seg)] {
        assert!(super::intersect(x, y).is_none());
        assert!(super::distance(x, y).is_none());
    }
    // Boxes apart need no alignment for their axis (two exact products).
    let want = crate::query::intersect(&far.to_rational(), &bx.to_rational()).unwrap();
    assert_eq!(super::intersect(&far, &bx), Some(want));
    assert!(super::distance(&far, &bx).is_none());
    // Bits spanning less: the fast path, ties and all.
    let near = Shape::Box(
        Obb::new(
            v(2f64.powi(40), 0., 0.),
            [v(2f64.powi(-40), 0., 0.), v(0., 1., 0.), v(0., 0., 1.)],
        )
        .unwrap(),
    );
    let want = crate::query::distance(&near.to_rational(), &bx.to_rational()).unwrap();
    assert_eq!(
        super::distance(&near, &bx).map(|u| u.into_reduced()),
        Some(want)
    );
}

/// On tied configurations (parallel faces and edges), every pair the proof
/// accepts as a closest pair leads the tie-break to the same winner: the
/// exhaustive enumeration's first.
#[test]
fn tie_break_is_independent_of_the_proved_pair() {
    let v = |x: f64, y: f64, z: f64| Vec3::new(x, y, z);
    let bx = |c: [f64; 3], h: [f64; 3]| {
        Shape::Box(
            Obb::new(
                v(c[0], c[1], c[2]),
                [v(h[0], 0., 0.), v(0., h[1], 0.), v(0., 0., h[2])],
            )
            .unwrap(),
        )
    };
    let sq = |x: f64, y: f64, z0: f64| {
        let b = [
            Vec2::new(x, y),
            Vec2::new(x + 1., y),
            Vec2::new(x + 1., y + 2.),
            Vec2::new(x, y + 2.),
        ];
        Shape::Prism(Prism::new(b, z0, z0 + 1.).unwrap())
    };
    let tri = |z: f64| {
        Shape::Triangle(Triangle::new([
            v(-1., -1., z),
            v(2., -1., z),
            v(-1., 2., z),
        ]))
    };
    let cases = [
        (
            bx([0., 0., 0.], [1., 1., 1.]),
            bx([3., 0.5, 0.25], [1., 1., 1.]),
        ), // face–face
        (
            bx([0., 0., 0.], [1., 1., 1.]),
            bx([3., 2.5, 0.], [1., 1., 2.]),
        ), // edge–edge, parallel
        (bx([0., 0., 0.], [1., 1., 1.]), sq(1.5, -0.5, -0.25)), // face–face with a prism
        (sq(0., 0., 0.), bx([0.5, 1., 2.5], [0.25, 0.5, 0.5])), // box over the top face
        (tri(3.), bx([0., 0., 0.], [1., 1., 1.])),              // triangle parallel to a face
        (bx([0., 0., 0.], [1., 1., 1.]), tri(-2.5)),
    ];
    for (a, b) in cases {
        let c = ctx(&a, &b);
        let want = crate::query::distance(&a.to_rational(), &b.to_rational()).unwrap();
        let mut winners = Vec::new();
        for p in all_pairs(&c) {
            if let Some(s) = closest::support(&c, p) {
                let w = if s == closest::masks(&c, p) {
                    Some(p)
                } else {
                    closest::tie_break(&c, p, s)
                };
                winners
                    .push(w.unwrap_or_else(|| panic!("no winner from {p:?} {s:?} in {a:?} {b:?}")));
            }
        }
        assert!(winners.len() > 1, "a tie: several pairs are closest");
        for w in &winners {
            assert_eq!(closest::construct(&c, *w), want, "{w:?}");
        }
        assert_eq!(
            super::distance(&a, &b).map(|u| u.into_reduced()),
            Some(want)
        );
    }
}

/// A box's edge through a triangle's plane exactly on one of the
/// triangle's edges (its ends on either side of that edge's line), with
/// inputs whose bits span 113: the crossing test against the triangle's edge
/// is zero, so decided exactly, at degree 7 (past the 768 bits of `Int`:
/// evaluated in `BigInt`), and the answer is the exhaustive path's.
#[test]
fn crossing_on_a_triangle_edge_at_wide_inputs() {
    let v = |x: f64, y: f64, z: f64| Vec3::new(x, y, z);
    let d = 2f64.powi(-110);
    // The box's edges along h2 cross the plane z = d at (±1, ±1, d).
    let bx =
        Shape::Box(Obb::new(v(0., 0., d), [v(1., 0., 0.), v(0., 1., 0.), v(0., 0.5, 1.)]).unwrap());
    // Edge PQ on the line y = 1; the triangle lies on y ≥ 1.
    let tri = Shape::Triangle(Triangle::new([v(-3., 1., d), v(5., 1., d), v(1., 5., d)]));
    let before = crate::num::bounded::exact_signs();
    for (a, b) in [(&bx, &tri), (&tri, &bx)] {
        let want = crate::query::intersect(&a.to_rational(), &b.to_rational()).unwrap();
        assert!(want.intersects());
        assert_eq!(super::intersect(a, b), Some(want));
        let want = crate::query::distance(&a.to_rational(), &b.to_rational()).unwrap();
        assert_eq!(super::distance(a, b).map(|u| u.into_reduced()), Some(want));
    }
    assert!(crate::num::bounded::exact_signs() > before);
}

/// The box sides' optimality test from three signs equals the vertex loop's
/// (the same vertex sets, the same refusals) for every feature pair: random
/// box, triangle–box and prism–box pairs, and axis-aligned boxes on a small
/// grid, where faces are parallel, vertices sit over face and edge midpoints
/// and many tests are exactly zero.
#[test]
fn box_support_signs_equal_the_vertex_loop() {
    let mut r = Rng(7);
    let mut shapes: Vec<(Shape<f64>, Shape<f64>)> =
        (0..36).map(|round| r.pair(round % 3, 2.0)).collect();
    let v = |x: f64, y: f64, z: f64| Vec3::new(x, y, z);
    let aligned = |c: Vec3<f64>, e: [f64; 3]| {
        Shape::Box(Obb::new(c, [v(e[0], 0., 0.), v(0., e[1], 0.), v(0., 0., e[2])]).unwrap())
    };
    for (k, c) in [
        v(3., 0., 0.),
        v(2., 0., 0.),
        v(2., 2., 0.),
        v(2., 2., 2.),
        v(3., 1., 0.5),
        v(0., 0., 2.5),
        v(2.5, 2.5, 0.),
    ]
    .into_iter()
    .enumerate()
    {
        let e = [[1., 1., 1.], [0.5, 1., 1.5], [1., 0.5, 0.5]][k % 3];
        shapes.push((aligned(v(0., 0., 0.), [1., 1., 1.]), aligned(c, e)));
    }
    let (mut compared, mut accepted) = (0, 0);
    for (a, b) in &shapes {
        let c = ctx(a, b);
        for p in all_pairs(&c) {
            let fast = closest::support_by(&c, p, true);
            assert_eq!(fast, closest::support_by(&c, p, false), "{p:?} {a:?} {b:?}");
            compared += 1;
            accepted += fast.is_some() as usize;
        }
    }
    assert!(compared > 10_000 && accepted >= 30, "{compared} {accepted}");
}

/// The unreduced answer's integers, divided out by `num-rational`'s own
/// reduction (not [`crate::num::fixed::Over`]), are the exhaustive path's values,
/// and `reduce` (through `Over`) gives the same numerators and denominators
/// (lowest terms, bit for bit): on random apart and
/// overlapping pairs of every kind, with inputs scaled by powers of two from
/// 2⁻¹⁰⁰⁰ (low bits among the subnormals) to 2⁷⁰⁰.
#[test]
fn unreduced_integers_are_the_exact_values() {
    use crate::query::unreduced::{IntPoint, Ints, D2};
    let naive = |i: &Ints| -> Closest<Q> {
        let big = |x: crate::num::fixed::Int| Q::from_integer(x.to_bigint());
        let pow = |p: i64| {
            let two = Q::from_integer(2.into());
            if p >= 0 {
                num_traits::pow(two, p as usize)
            } else {
                num_traits::pow(two, (-p) as usize).recip()
            }
        };
        let den = big(i.den.to_int());
        let point = |p: &IntPoint| {
            let c = |k: usize| {
                let v = big(p.n[k].to_int()) * pow(i.e0);
                if p.over {
                    v / &den
                } else {
                    v
                }
            };
            Vec3::new(c(0), c(1), c(2))
        };
        let d2 = match &i.d2 {
            D2::Over(n) => big(n.to_int()),
            D2::Square(s) => big(s.to_int()) * big(s.to_int()),
        } / &den
            * pow(2 * i.e0);
        Closest {
            distance_squared: d2,
            a: point(&i.a),
            b: point(&i.b),
        }
    };
    let mut r = Rng(71);
    let (mut apart, mut overlap) = (0, 0);
    for round in 0..160 {
        let (a, b) = r.pair(round % 4, if round % 3 == 0 { 0.7 } else { 2.5 });
        let k = [1.0, 2f64.powi(-600), 2f64.powi(700), 2f64.powi(-1000)][round % 4];
        let (a, b) = (scale(&a, k), scale(&b, k));
        let Some(i) = super::distance_ints(&a, &b) else {
            continue;
        };
        let want: Closest<Q> = distance(&a.to_rational(), &b.to_rational()).unwrap();
        assert_eq!(naive(&i), want, "{a:?} {b:?}");
        // Equal as values and spelt the same (`==` on `BigRational` compares
        // values only; the Debug text shows numerator and denominator).
        assert_eq!(
            format!("{:?}", i.reduce()),
            format!("{want:?}"),
            "{a:?} {b:?}"
        );
        assert_eq!(
            format!("{:?}", i.distance_squared()),
            format!("{:?}", want.distance_squared)
        );
        // Rounded from the integers: within 4 ulps of the exact values
        // (infinite where the nearest double is: d² at the 2^700 scale).
        let f = crate::query::UnreducedClosest::ints(i.clone()).to_f64();
        let close = |x: f64, q: &Q| {
            let r = f64::from_rational(q);
            x == r || (x - r).abs() <= 4.0 * (r.abs() * f64::EPSILON).max(5e-324)
        };
        assert!(
            close(f.distance_squared, &want.distance_squared),
            "{} {}",
            f.distance_squared,
            f64::from_rational(&want.distance_squared)
        );
        for (p, q) in [(&f.a, &want.a), (&f.b, &want.b)] {
            assert!(close(p.x, &q.x) && close(p.y, &q.y) && close(p.z, &q.z));
        }
        if want.distance_squared.is_zero() {
            overlap += 1;
        } else {
            apart += 1;
        }
    }
    assert!(
        apart >= 60 && overlap >= 20,
        "{apart} apart, {overlap} overlapping"
    );
}

/// A shape with every coordinate times the power of two `k`.
fn scale(s: &Shape<f64>, k: f64) -> Shape<f64> {
    let v = |p: &Vec3<f64>| Vec3::new(p.x * k, p.y * k, p.z * k);
    match s {
        Shape::Box(b) => Shape::Box(Obb::new(v(&b.center), b.half_axes.each_ref().map(v)).unwrap()),
        Shape::Triangle(t) => Shape::Triangle(Triangle::new(t.v.each_ref().map(v))),
        Shape::Prism(p) => Shape::Prism(
            Prism::new(
                p.base.each_ref().map(|q| Vec2::new(q.x * k, q.y * k)),
                p.zmin * k,
                p.zmax * k,
            )
            .unwrap(),
        ),
        Shape::Cube(_) => unreachable!(),
    }
}
