//! The exact convex hull: hand-worked hulls, degenerate sets, and random sets
//! checked by an independent exact checker and a brute-force facet enumeration
//! (both in num-rational arithmetic written here, not the crate's).

mod common;

use common::{cases, q, scale2, ulps_away};
use exact_collision::hull::{convex_hull, ConvexHull, HullError};
use exact_collision::{Scalar, Vec3};
use num_bigint::BigInt;
use num_integer::Integer;
use num_rational::BigRational;
use num_traits::{One, Signed, Zero};
use proptest::prelude::*;
use std::collections::{BTreeSet, HashMap};

type Q = BigRational;
type P = [Q; 3];

fn rat<S: Scalar>(p: &Vec3<S>) -> P {
    [p.x.to_rational(), p.y.to_rational(), p.z.to_rational()]
}
fn sub(a: &P, b: &P) -> P {
    [&a[0] - &b[0], &a[1] - &b[1], &a[2] - &b[2]]
}
fn cross(u: &P, w: &P) -> P {
    [
        &u[1] * &w[2] - &u[2] * &w[1],
        &u[2] * &w[0] - &u[0] * &w[2],
        &u[0] * &w[1] - &u[1] * &w[0],
    ]
}
fn dot(u: &P, w: &P) -> Q {
    &u[0] * &w[0] + &u[1] * &w[1] + &u[2] * &w[2]
}
fn is_zero(u: &P) -> bool {
    u.iter().all(|c| c.is_zero())
}
fn int_vec(n: &Vec3<BigInt>) -> P {
    [
        Q::from_integer(n.x.clone()),
        Q::from_integer(n.y.clone()),
        Q::from_integer(n.z.clone()),
    ]
}
fn v(x: f64, y: f64, z: f64) -> Vec3<f64> {
    Vec3::new(x, y, z)
}
fn iv(n: [i64; 3]) -> Vec3<BigInt> {
    Vec3::new(n[0].into(), n[1].into(), n[2].into())
}

/// The affine dimension of the points, by exact elimination.
fn affine_dim(pts: &[P]) -> usize {
    let mut rows: Vec<P> = pts.iter().map(|p| sub(p, &pts[0])).collect();
    let mut rank = 0;
    for col in 0..3 {
        let Some(piv) = (rank..rows.len()).find(|&r| !rows[r][col].is_zero()) else {
            continue;
        };
        rows.swap(rank, piv);
        let pr = rows[rank].clone();
        for row in rows.iter_mut().skip(rank + 1) {
            let f = &row[col] / &pr[col];
            for (x, p) in row.iter_mut().zip(&pr) {
                *x = &*x - &f * p;
            }
        }
        rank += 1;
    }
    rank
}

/// Checks every property the hull promises, exactly and independently.
/// Returns the hull's vertex coordinates as a set (for comparisons).
fn check<S: Scalar>(pts: &[Vec3<S>], h: &ConvexHull<S>) -> BTreeSet<P> {
    check_sampled(pts, h, 1)
}

/// [`check`], testing every `stride`-th point against the faces.
fn check_sampled<S: Scalar>(pts: &[Vec3<S>], h: &ConvexHull<S>, stride: usize) -> BTreeSet<P> {
    let r: Vec<P> = pts.iter().map(rat).collect();
    assert_eq!(h.dim(), affine_dim(&r), "dimension");
    let vs = h.vertices();
    for (k, &i) in vs.iter().enumerate() {
        assert!(i < pts.len());
        assert_eq!(rat(&h.vertex_points()[k]), r[i], "vertex_points");
    }
    for &i in vs {
        assert!(
            !r[..i].contains(&r[i]),
            "vertex {i} is the first copy of its point"
        );
    }
    let coords: BTreeSet<P> = vs.iter().map(|&i| r[i].clone()).collect();
    assert_eq!(coords.len(), vs.len(), "vertices are distinct points");
    match h.dim() {
        0 => {
            assert_eq!(vs.len(), 1);
            assert!(r.iter().all(|p| *p == r[vs[0]]));
        }
        1 => {
            assert_eq!(vs.len(), 2);
            let (a, b) = (&r[vs[0]], &r[vs[1]]);
            let d = sub(b, a);
            let dd = dot(&d, &d);
            assert!(!dd.is_zero());
            for p in &r {
                let w = sub(p, a);
                assert!(is_zero(&cross(&d, &w)), "collinear");
                let t = dot(&w, &d) / &dd;
                assert!(!t.is_negative() && t <= Q::one(), "within the segment");
            }
        }
        2 => {
            let plane = h.plane().expect("flat hull has a plane");
            let n = int_vec(&plane.normal);
            let first = [&plane.normal.x, &plane.normal.y, &plane.normal.z]
                .into_iter()
                .find(|c| !c.is_zero())
                .unwrap();
            assert!(first.is_positive(), "canonical normal");
            for p in &r {
                assert_eq!(dot(&n, p), plane.offset, "coplanar");
            }
            assert!(h.faces().is_empty());
            let m = vs.len();
            assert!(m >= 3);
            assert_eq!(vs[0], *vs.iter().min().unwrap());
            for k in 0..m {
                let (a, b, c) = (&r[vs[k]], &r[vs[(k + 1) % m]], &r[vs[(k + 2) % m]]);
                let turn = dot(&cross(&sub(b, a), &sub(c, b)), &n);
                assert!(turn.is_positive(), "strict counter-clockwise turn");
                for p in &r {
                    let s = dot(&cross(&sub(b, a), &sub(p, a)), &n);
                    assert!(!s.is_negative(), "point inside the polygon");
                }
            }
        }
        3 => check_polytope(&r, h, stride),
        _ => panic!("dimension"),
    }
    coords
}

fn check_polytope<S: Scalar>(r: &[P], h: &ConvexHull<S>, stride: usize) {
    let vs = h.vertices();
    assert!(vs.windows(2).all(|w| w[0] < w[1]), "ascending");
    let mut edges: HashMap<(usize, usize), usize> = HashMap::new();
    let mut on_faces: HashMap<usize, Vec<P>> = HashMap::new();
    let mut in_faces = BTreeSet::new();
    for (fi, f) in h.faces().iter().enumerate() {
        let fv = &f.vertices;
        let m = fv.len();
        assert!(m >= 3);
        assert_eq!(fv[0], *fv.iter().min().unwrap());
        let g = [&f.plane.normal.x, &f.plane.normal.y, &f.plane.normal.z]
            .into_iter()
            .fold(BigInt::zero(), |g, c| g.gcd(c));
        assert!(g.is_one(), "primitive normal");
        let n = int_vec(&f.plane.normal);
        for k in 0..m {
            let (a, b, c) = (&r[fv[k]], &r[fv[(k + 1) % m]], &r[fv[(k + 2) % m]]);
            assert_eq!(dot(&n, a), f.plane.offset, "vertex on its face plane");
            let turn = dot(&cross(&sub(b, a), &sub(c, b)), &n);
            assert!(turn.is_positive(), "convex, counter-clockwise from outside");
            assert!(
                edges.insert((fv[k], fv[(k + 1) % m]), fi).is_none(),
                "each directed edge once"
            );
            on_faces.entry(fv[k]).or_default().push(n.clone());
            in_faces.insert(fv[k]);
        }
        for p in r.iter().step_by(stride) {
            assert!(dot(&n, p) <= f.plane.offset, "every point inside or on");
        }
        // Outward: some point is strictly inside (the hull has volume).
        assert!(r.iter().any(|p| dot(&n, p) < f.plane.offset));
    }
    for (&(a, b), &fi) in &edges {
        let fj = *edges
            .get(&(b, a))
            .expect("adjacent faces share edges in opposite order");
        assert_ne!(
            h.faces()[fi].plane.normal,
            h.faces()[fj].plane.normal,
            "adjacent faces are not coplanar"
        );
    }
    assert_eq!(in_faces.into_iter().collect::<Vec<_>>(), vs, "vertices");
    let (nv, ne, nf) = (
        vs.len() as i64,
        edges.len() as i64 / 2,
        h.faces().len() as i64,
    );
    assert_eq!(nv - ne + nf, 2, "Euler");
    // Strict vertices: three faces through each with independent normals.
    for &i in vs {
        let ns = &on_faces[&i];
        let mut ok = false;
        'outer: for a in 0..ns.len() {
            for b in a + 1..ns.len() {
                for c in b + 1..ns.len() {
                    if !dot(&cross(&ns[a], &ns[b]), &ns[c]).is_zero() {
                        ok = true;
                        break 'outer;
                    }
                }
            }
        }
        assert!(ok, "vertex {i} is a strict vertex");
    }
}

/// The facet planes of conv(pts) by brute force (dimension 3 only): every
/// plane through three points with all points on one side, normalised to a
/// primitive integer normal; and the strict vertices (points on three facets
/// with independent normals).
fn brute_force(r: &[P]) -> (BTreeSet<(P, Q)>, BTreeSet<P>) {
    let mut planes = BTreeSet::new();
    let n = r.len();
    for i in 0..n {
        for j in i + 1..n {
            for k in j + 1..n {
                let nn = cross(&sub(&r[j], &r[i]), &sub(&r[k], &r[i]));
                if is_zero(&nn) {
                    continue;
                }
                for nn in [nn.clone(), nn.map(|c| -c)] {
                    let d = dot(&nn, &r[i]);
                    if r.iter().all(|p| dot(&nn, p) <= d) {
                        planes.insert(primitive(&nn, &r[i]));
                    }
                }
            }
        }
    }
    let mut verts = BTreeSet::new();
    for p in r {
        let ns: Vec<&P> = planes
            .iter()
            .filter(|(nn, d)| dot(nn, p) == *d)
            .map(|(nn, _)| nn)
            .collect();
        let ok = (0..ns.len()).any(|a| {
            (a + 1..ns.len())
                .any(|b| (b + 1..ns.len()).any(|c| !dot(&cross(ns[a], ns[b]), ns[c]).is_zero()))
        });
        if ok {
            verts.insert(p.clone());
        }
    }
    (planes, verts)
}

fn primitive(nn: &P, a: &P) -> (P, Q) {
    let l = nn.iter().fold(BigInt::one(), |l, c| l.lcm(c.denom()));
    let ints: Vec<BigInt> = nn.iter().map(|c| c.numer() * (&l / c.denom())).collect();
    let g = ints.iter().fold(BigInt::zero(), |g, c| g.gcd(c));
    let p: P = [0, 1, 2].map(|k| Q::from_integer(&ints[k] / &g));
    let d = dot(&p, a);
    (p, d)
}

fn hull_planes<S: Scalar>(h: &ConvexHull<S>) -> BTreeSet<(P, Q)> {
    h.face_planes()
        .map(|p| (int_vec(&p.normal), p.offset.clone()))
        .collect()
}

/// The hull of f64 points: checked, and equal to the hull of the same points
/// as exact rationals (vertices, faces, planes).
fn hull_f64(pts: &[Vec3<f64>]) -> ConvexHull<f64> {
    let h = convex_hull(pts).unwrap();
    check(pts, &h);
    let rp: Vec<Vec3<Q>> = pts.iter().map(|p| p.map(|c| q(*c))).collect();
    let hr = convex_hull(&rp).unwrap();
    check(&rp, &hr);
    assert_eq!(h.dim(), hr.dim());
    assert_eq!(h.vertices(), hr.vertices());
    assert_eq!(h.faces(), hr.faces());
    assert_eq!(h.plane(), hr.plane());
    h
}

fn face_list<S: Scalar>(h: &ConvexHull<S>) -> Vec<(Vec<usize>, [i64; 3], i64)> {
    h.faces()
        .iter()
        .map(|f| {
            let n = [&f.plane.normal.x, &f.plane.normal.y, &f.plane.normal.z]
                .map(|c| i64::try_from(c).unwrap());
            assert!(f.plane.offset.is_integer());
            (
                f.vertices.clone(),
                n,
                i64::try_from(f.plane.offset.to_integer()).unwrap(),
            )
        })
        .collect()
}

// ---- hand-worked hulls -------------------------------------------------

/// Unit tetrahedron: faces worked by hand (normals by the right-hand rule,
/// vertices counter-clockwise from outside, starting at the smallest index).
#[test]
fn tetrahedron() {
    let pts = [v(0., 0., 0.), v(1., 0., 0.), v(0., 1., 0.), v(0., 0., 1.)];
    let h = hull_f64(&pts);
    assert_eq!(h.dim(), 3);
    assert_eq!(h.vertices(), &[0, 1, 2, 3]);
    assert_eq!(
        face_list(&h),
        vec![
            (vec![0, 1, 3], [0, -1, 0], 0),
            (vec![0, 2, 1], [0, 0, -1], 0),
            (vec![0, 3, 2], [-1, 0, 0], 0),
            (vec![1, 2, 3], [1, 1, 1], 1),
        ]
    );
}

/// Square pyramid: base [0,2]² at z = 0, apex (1,1,1); side planes
/// −y + z = 0, x + z = 2, y + z = 2, −x + z = 0; plus interior and repeated
/// points and a point in the middle of the base.
#[test]
fn square_pyramid() {
    let pts = [
        v(0., 0., 0.),
        v(2., 0., 0.),
        v(2., 2., 0.),
        v(0., 2., 0.),
        v(1., 1., 1.),
        v(1., 1., 0.),   // base centre
        v(1., 1., 0.5),  // interior
        v(2., 0., 0.),   // repeat of 1
        v(1., 0.5, 0.5), // on the face −y + z = 0
        v(1., 0., 0.),   // on the base edge
    ];
    let h = hull_f64(&pts);
    assert_eq!(h.vertices(), &[0, 1, 2, 3, 4]);
    assert_eq!(
        face_list(&h),
        vec![
            (vec![0, 1, 4], [0, -1, 1], 0),
            (vec![0, 3, 2, 1], [0, 0, -1], 0),
            (vec![0, 4, 3], [-1, 0, 1], 0),
            (vec![1, 2, 4], [1, 0, 1], 2),
            (vec![2, 3, 4], [0, 1, 1], 2),
        ]
    );
    // x − 0.1y: 2 at (2, 0, 0) (index 1; its repeat 7 comes later), 1.8 at (2, 2, 0).
    assert_eq!(h.support(&v(1., -0.1, 0.)), 1);
    // x + 0.1y + z: 2.2 at (2, 2, 0), 2.1 at the apex.
    assert_eq!(h.support(&v(1., 0.1, 1.)), 2);
}

/// Cube [0,2]³ with points on every face, every edge, and inside: 8 vertices,
/// 6 square faces x = 0, x = 2, … (normals ±e_i, offsets 0 or 2).
#[test]
fn cube_with_points_on_faces_and_edges() {
    let mut pts = Vec::new();
    // Grid 0..=4 over [0, 2]: corners, edge points, face points, interior.
    for i in 0..=4 {
        for j in 0..=4 {
            for k in 0..=4 {
                pts.push(v(i as f64 / 2., j as f64 / 2., k as f64 / 2.));
            }
        }
    }
    pts.reverse(); // corners do not come first
    let h = hull_f64(&pts);
    let corner_idx: BTreeSet<usize> = (0..pts.len())
        .filter(|&i| {
            [pts[i].x, pts[i].y, pts[i].z]
                .iter()
                .all(|c| *c == 0. || *c == 2.)
        })
        .collect();
    assert_eq!(corner_idx.len(), 8);
    assert_eq!(
        h.vertices().iter().copied().collect::<BTreeSet<_>>(),
        corner_idx
    );
    let mut planes: Vec<([i64; 3], i64)> = face_list(&h).into_iter().map(|f| (f.1, f.2)).collect();
    planes.sort();
    assert_eq!(
        planes,
        vec![
            ([-1, 0, 0], 0),
            ([0, -1, 0], 0),
            ([0, 0, -1], 0),
            ([0, 0, 1], 2),
            ([0, 1, 0], 2),
            ([1, 0, 0], 2)
        ]
    );
    assert!(h.faces().iter().all(|f| f.vertices.len() == 4));
    // Support: the corner (2, 2, 0) for direction (1, 1, −1).
    let s = h.support(&v(1., 1., -1.));
    assert_eq!([pts[s].x, pts[s].y, pts[s].z], [2., 2., 0.]);
    let s = h.support_rational(&Vec3::new(q(-1.), q(1e-30), q(-1e-30)));
    assert_eq!([pts[s].x, pts[s].y, pts[s].z], [0., 2., 0.]);
}

/// The cube's hull is the same at 2^40 and 2^−40 scale (same indices and
/// faces; offsets scale).
#[test]
fn cube_at_extreme_scales() {
    let base: Vec<Vec3<f64>> = (0..27)
        .map(|i| v((i % 3) as f64, ((i / 3) % 3) as f64, (i / 9) as f64))
        .collect();
    let h0 = hull_f64(&base);
    for e in [40, -40, 600, -600, -1040] {
        let pts: Vec<Vec3<f64>> = base.iter().map(|p| p.map(|c| scale2(*c, e))).collect();
        let h = hull_f64(&pts);
        assert_eq!(h.vertices(), h0.vertices(), "scale 2^{e}");
        for (f, g) in h.faces().iter().zip(h0.faces()) {
            assert_eq!(f.vertices, g.vertices);
            assert_eq!(f.plane.normal, g.plane.normal);
            assert_eq!(f.plane.offset, &g.plane.offset * q(scale2(1., e)));
        }
    }
}

// ---- degenerate inputs -------------------------------------------------

#[test]
fn errors() {
    assert_eq!(convex_hull::<f64>(&[]).unwrap_err(), HullError::Empty);
    let e = convex_hull(&[v(0., 0., 0.), v(f64::NAN, 0., 0.)]).unwrap_err();
    assert_eq!(e, HullError::NonFinite { index: 1 });
    assert!(convex_hull(&[v(f64::INFINITY, 0., 0.)]).is_err());
}

#[test]
fn one_point_repeated() {
    let pts = vec![v(0.1, -3., 7.); 50];
    let h = hull_f64(&pts);
    assert_eq!((h.dim(), h.vertices()), (0, &[0usize][..]));
    assert_eq!(h.support(&v(1., 2., 3.)), 0);
    let h = hull_f64(&[v(-0., 0., 0.), v(0., -0., 0.)]);
    assert_eq!(h.dim(), 0);
}

/// Collinear points t·(1, 2, 3) + (5, 0, 0): the ends are the smallest and the
/// largest t (first occurrences), whatever the order.
#[test]
fn collinear_points() {
    let ts = [3., -2., 0.5, 7., -2., 7., 1., 0.];
    let pts: Vec<Vec3<f64>> = ts.iter().map(|t| v(5. + t, 2. * t, 3. * t)).collect();
    let h = hull_f64(&pts);
    assert_eq!((h.dim(), h.vertices()), (1, &[1usize, 3][..]));
    // Two distinct points, repeated.
    let pts = [v(1., 1., 1.), v(2., 0., 0.), v(1., 1., 1.), v(2., 0., 0.)];
    let h = hull_f64(&pts);
    assert_eq!((h.dim(), h.vertices()), (1, &[0usize, 1][..]));
}

/// The grid (i, j, i + j), 0 ≤ i, j ≤ 3, in the plane x + y − z = 0: a
/// parallelogram with corners (0,0,0), (3,0,3), (3,3,6), (0,3,3); canonical
/// normal (1, 1, −1), offset 0.
#[test]
fn coplanar_points() {
    let mut pts = Vec::new();
    for j in 0..4 {
        for i in 0..4 {
            pts.push(v(i as f64, j as f64, (i + j) as f64));
        }
    }
    pts.push(v(1., 1., 2.)); // repeat
    let h = hull_f64(&pts);
    assert_eq!(h.dim(), 2);
    let plane = h.plane().unwrap();
    assert_eq!(plane.normal, iv([1, 1, -1]));
    assert!(plane.offset.is_zero());
    // Corners at indices 0 (0,0), 3 (3,0), 15 (3,3), 12 (0,3). Seen from
    // (1, 1, −1): (3,0,3) − 0 = (3,0,3), (0,3,3) − 0 = (0,3,3), their cross
    // (−9, −9, 9) is against the normal, so 0 → 3 → 15 → 12 is clockwise
    // from that side: the hull lists 0, 12, 15, 3.
    assert_eq!(h.vertices(), &[0, 12, 15, 3]);
    assert!(h.faces().is_empty());
}

/// A point a ulp off a plane makes a tetrahedron; on the plane, a triangle.
#[test]
fn near_degenerate_doubles() {
    let (a, b, c) = (v(1., 0., 0.), v(0., 1., 0.), v(0., 0., 1.));
    let on = v(0.25, 0.25, 0.5); // exactly on x + y + z = 1, inside abc
    let h = hull_f64(&[a.clone(), b.clone(), c.clone(), on.clone()]);
    assert_eq!((h.dim(), h.vertices()), (2, &[0usize, 1, 2][..]));
    assert_eq!(h.plane().unwrap().normal, iv([1, 1, 1]));
    for k in [-1, 1] {
        let off = v(0.25, 0.25, ulps_away(0.5, k));
        let h = hull_f64(&[a.clone(), b.clone(), c.clone(), off, on.clone()]);
        assert_eq!(
            (h.dim(), h.vertices()),
            (3, &[0usize, 1, 2, 3][..]),
            "{k} ulp"
        );
        assert_eq!(h.faces().len(), 4);
    }
    // A point one ulp outside a face of a big set: it must be a vertex.
    let mut pts: Vec<Vec3<f64>> = (0..4)
        .flat_map(|i| (0..4).map(move |j| v(i as f64 * 0.1, j as f64 * 0.1, 0.)))
        .collect();
    pts.push(v(0.15, 0.15, 1.));
    pts.push(v(0.15, 0.15, -1e-300)); // far below any rounding at this scale
    let h = hull_f64(&pts);
    assert!(h.vertices().contains(&17));
    pts.pop();
    pts.push(v(0.15, 0.15, -0.0));
    let h = hull_f64(&pts);
    assert!(!h.vertices().contains(&17));
}

/// All integer points of the sphere x² + y² + z² = 50 (a strictly convex
/// surface: every one is a vertex; 50 = 7² + 1² = 5² + 5² = 5² + 4² + 3²) and
/// the integer points with x² + y² + z² ≤ 9, strictly inside their hull (the
/// hull holds the six points (±7, 0, 0)… as midpoints of (±7, ±1, 0)-type
/// pairs, so the octahedron |x| + |y| + |z| ≤ 7, whose inradius 7/√3 > 3).
#[test]
fn lattice_sphere() {
    let mut pts = Vec::new();
    let mut on = BTreeSet::new();
    for x in -7i32..=7 {
        for y in -7i32..=7 {
            for z in -7i32..=7 {
                let r2 = x * x + y * y + z * z;
                if r2 == 50 {
                    on.insert(pts.len());
                }
                if r2 == 50 || r2 <= 9 {
                    pts.push(v(x as f64, y as f64, z as f64));
                }
            }
        }
    }
    // Counted by hand: {7, 1, 0} in 6 orders with 4 signs = 24; {5, 5, 0} in
    // 3 orders with 4 signs = 12; {5, 4, 3} in 6 orders with 8 signs = 48.
    assert_eq!(on.len(), 84);
    let h = hull_f64(&pts);
    assert_eq!(h.vertices().iter().copied().collect::<BTreeSet<_>>(), on);
}

/// Exact rational coordinates (thirds and sevenths): a tetrahedron with
/// points on its faces and edges, checked against brute force.
#[test]
fn exact_rational_coordinates() {
    let r = |n: i64, d: i64| Q::new(n.into(), d.into());
    let p = |a: Q, b: Q, c: Q| Vec3::new(a, b, c);
    let pts = vec![
        p(r(1, 3), r(0, 1), r(0, 1)),
        p(r(0, 1), r(1, 3), r(0, 1)),
        p(r(0, 1), r(0, 1), r(1, 3)),
        p(r(0, 1), r(0, 1), r(0, 1)),
        p(r(1, 9), r(1, 9), r(1, 9)),    // on the face x + y + z = 1/3
        p(r(1, 6), r(1, 6), r(0, 1)),    // on an edge
        p(r(1, 21), r(1, 21), r(1, 21)), // inside
        p(r(1, 7), r(1, 7), r(1, 21)),   // on the face: 3/21 + 3/21 + 1/21 = 1/3
    ];
    let h = convex_hull(&pts).unwrap();
    check(&pts, &h);
    assert_eq!(h.vertices(), &[0, 1, 2, 3]);
    let slanted = h
        .faces()
        .iter()
        .find(|f| f.vertices == vec![0, 1, 2])
        .unwrap();
    assert_eq!(slanted.plane.normal, iv([1, 1, 1]));
    assert_eq!(slanted.plane.offset, r(1, 3));
    let rp: Vec<P> = pts.iter().map(rat).collect();
    let (planes, verts) = brute_force(&rp);
    assert_eq!(hull_planes(&h), planes);
    assert_eq!(check(&pts, &h), verts);
}

/// Rationals far outside the double range (10^±400): the float estimates are
/// useless (infinite or zero), the exact decisions are not; the hull is the
/// same as at scale 1.
#[test]
fn rationals_beyond_the_double_range() {
    let base: Vec<Vec3<Q>> = (0..27)
        .map(|i| [i % 3, (i / 3) % 3, i / 9].map(|c| Q::from_integer(c.into())))
        .map(|[x, y, z]| Vec3::new(x, y, z))
        .chain([Vec3::new(
            Q::new(1.into(), 3.into()),
            Q::new(5.into(), 2.into()),
            Q::one(),
        )])
        .collect();
    let h0 = convex_hull(&base).unwrap();
    check(&base, &h0);
    // The 8 corners and (1/3, 5/2, 1), a pyramid over the face y = 2.
    assert_eq!(h0.vertices().len(), 9);
    let big = Q::from_integer(BigInt::from(10).pow(400));
    for k in [big.clone(), Q::one() / big] {
        let pts: Vec<Vec3<Q>> = base.iter().map(|p| p.map(|c| c * &k)).collect();
        let h = convex_hull(&pts).unwrap();
        check(&pts, &h);
        assert_eq!(h.vertices(), h0.vertices());
        for (f, g) in h.faces().iter().zip(h0.faces()) {
            assert_eq!(f.vertices, g.vertices);
            assert_eq!(f.plane.normal, g.plane.normal);
            assert_eq!(f.plane.offset, &g.plane.offset * &k);
        }
    }
}

/// f32 inputs: the tetrahedron of the f64 test, same faces.
#[test]
fn f32_tetrahedron() {
    let p = |x: f32, y: f32, z: f32| Vec3::new(x, y, z);
    let pts = [
        p(0., 0., 0.),
        p(1., 0., 0.),
        p(0., 1., 0.),
        p(0., 0., 1.),
        p(0.2, 0.2, 0.2),
    ];
    let h = convex_hull(&pts).unwrap();
    check(&pts, &h);
    assert_eq!(h.vertices(), &[0, 1, 2, 3]);
    let fv: Vec<Vec<usize>> = h.faces().iter().map(|f| f.vertices.clone()).collect();
    assert_eq!(
        fv,
        vec![vec![0, 1, 3], vec![0, 2, 1], vec![0, 3, 2], vec![1, 2, 3]]
    );
}

/// Points inserted so that an early vertex ends up in the middle of an edge
/// and of a face (it must be dropped).
#[test]
fn early_points_that_become_non_vertices() {
    // The first four make a tetrahedron with (1, 0, 0) as a vertex; later
    // points extend the edge and the face beyond it.
    let pts = [
        v(0., 0., 0.),
        v(1., 0., 0.),
        v(0., 1., 0.),
        v(0., 0., 1.),
        v(2., 0., 0.),
        v(0., 2., 0.),
        v(0., 0., 2.),
        v(1., 1., 0.),
    ];
    let h = hull_f64(&pts);
    assert_eq!(h.vertices(), &[0, 4, 5, 6]);
}

// ---- random sets -------------------------------------------------------

fn small_int_points(max: usize) -> impl Strategy<Value = Vec<Vec3<f64>>> {
    prop::collection::vec((-3i32..4, -3i32..4, -3i32..4), 1..max).prop_map(|v| {
        v.into_iter()
            .map(|(a, b, c)| Vec3::new(a as f64, b as f64, c as f64))
            .collect()
    })
}

/// Random doubles, near-degenerate in several ways.
fn hard_points() -> impl Strategy<Value = Vec<Vec3<f64>>> {
    let base = prop::collection::vec((-1.0f64..1.0, -1.0f64..1.0, -1.0f64..1.0), 4..40);
    (
        base,
        0usize..4,
        -3i32..4,
        prop_oneof![Just(0), Just(40), Just(-40), Just(300), Just(-300)],
    )
        .prop_map(|(b, mode, k, e)| {
            let pts: Vec<[f64; 3]> = match mode {
                // uniform
                0 => b.iter().map(|p| [p.0, p.1, p.2]).collect(),
                // on the plane z = 0.3x − 0.7y (up to rounding), nudged k ulps
                1 => b
                    .iter()
                    .enumerate()
                    .map(|(i, p)| {
                        let z = 0.3 * p.0 - 0.7 * p.1;
                        [p.0, p.1, if i % 5 == 0 { ulps_away(z, k) } else { z }]
                    })
                    .collect(),
                // on a line, up to rounding
                2 => b
                    .iter()
                    .map(|p| [p.0, 2. * p.0, ulps_away(-p.0 / 3., k * (p.1 > 0.) as i32)])
                    .collect(),
                // on the unit sphere, up to rounding
                _ => b
                    .iter()
                    .map(|p| {
                        let n = (p.0 * p.0 + p.1 * p.1 + p.2 * p.2).sqrt().max(1e-3);
                        [p.0 / n, p.1 / n, p.2 / n]
                    })
                    .collect(),
            };
            pts.into_iter()
                .map(|p| Vec3::new(scale2(p[0], e), scale2(p[1], e), scale2(p[2], e)))
                .collect()
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(cases(64, 5000)))]

    /// Small integer points (many coplanar, collinear and repeated ones):
    /// the checker, and the brute-force facets and vertices.
    #[test]
    fn small_integer_sets(pts in small_int_points(25)) {
        let h = hull_f64(&pts);
        if h.dim() == 3 {
            let rp: Vec<P> = pts.iter().map(rat).collect();
            let (planes, verts) = brute_force(&rp);
            prop_assert_eq!(hull_planes(&h), planes);
            prop_assert_eq!(check(&pts, &h), verts);
        }
    }

    /// Near-degenerate doubles at several scales: the checker, brute force.
    #[test]
    fn hard_double_sets(pts in hard_points()) {
        let h = hull_f64(&pts);
        if h.dim() == 3 && pts.len() <= 20 {
            let rp: Vec<P> = pts.iter().map(rat).collect();
            let (planes, verts) = brute_force(&rp);
            prop_assert_eq!(hull_planes(&h), planes);
            prop_assert_eq!(check(&pts, &h), verts);
        }
    }

    /// Support = the exact maximum of d·p over all input points.
    #[test]
    fn support_is_the_maximum(pts in small_int_points(30), d in (-3i32..4, -3i32..4, -3i32..4)) {
        let h = convex_hull(&pts).unwrap();
        let d = v(d.0 as f64, d.1 as f64, d.2 as f64);
        let val = |p: &Vec3<f64>| dot(&rat(&d), &rat(p));
        let best = pts.iter().map(val).max().unwrap();
        let s = h.support(&d);
        prop_assert_eq!(val(&pts[s]), best.clone());
        prop_assert!(h.vertices().contains(&s));
        prop_assert_eq!(val(&pts[h.support_rational(&d.map(|c| q(*c)))]), best);
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(cases(16, 400)))]

    /// Larger sets: the checker (every point inside, Euler, orientation).
    #[test]
    fn larger_sets(pts in prop::collection::vec((-1.0f64..1.0, -1.0f64..1.0, -1.0f64..1.0), 50..200)) {
        let pts: Vec<Vec3<f64>> = pts.into_iter().map(|p| v(p.0, p.1, p.2)).collect();
        let h = convex_hull(&pts).unwrap();
        check(&pts, &h);
    }

}

/// 10,000 points on a sphere (all near-extreme) and in a cube: checked.
#[test]
fn ten_thousand_points() {
    let mut s = 12345u64;
    let mut next = || {
        s = s
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        ((s >> 11) as f64) / (1u64 << 53) as f64 * 2. - 1.
    };
    let cube: Vec<Vec3<f64>> = (0..10_000).map(|_| v(next(), next(), next())).collect();
    let h = convex_hull(&cube).unwrap();
    check_sampled(&cube, &h, 101);
    let sphere: Vec<Vec3<f64>> = (0..10_000)
        .map(|_| {
            let (x, y, z) = (next(), next(), next());
            let n = (x * x + y * y + z * z).sqrt().max(1e-3);
            v(x / n, y / n, z / n)
        })
        .collect();
    let h = convex_hull(&sphere).unwrap();
    assert!(h.vertices().len() > 9000);
    check_sampled(&sphere, &h, 997);
}
