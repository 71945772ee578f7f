//! Whole-step CCD (`ccd::step`, `exact-collision step`): against the CCD
//! simulation dataset's Mathematica ground truth (the vendored cloth-funnel step
//! always; the four shared steps with `EXACT_HEAVY=1`), against a brute force
//! over every pair on random small meshes, the exact order of times, the file
//! readers and the command.

mod common;

use common::mathematica_root;
use exact_collision::ccd::points::{exact, first_contact_f64, Kind};
use exact_collision::ccd::step::read::read_step;
use exact_collision::ccd::step::{
    broad_phase, cmp_time, earliest, pair_points, step, Collision, PairKind, StepError, StepMesh,
};
use exact_collision::ccd::{default_tolerance, ContactTime, PointCcd, PointCcdAnswer, TimeKind};
use exact_collision::poly::{sign_of_poly_at, Poly, RealRoot};
use exact_collision::Vec3;
use num_bigint::BigInt;
use num_rational::BigRational;
use proptest::prelude::*;
use std::cmp::Ordering;
use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};

/// A pair in our ids: kind, first element, second element.
type Key = (PairKind, u32, u32);

fn heavy() -> bool {
    std::env::var("EXACT_HEAVY").is_ok_and(|v| v == "1")
}

fn vendored() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/ccd-simulation/cloth-funnel")
}

/// `../shared` beside the repository (or `EXACT_SHARED`).
fn shared() -> PathBuf {
    std::env::var_os("EXACT_SHARED")
        .map(Into::into)
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared"))
}

/// A dataset pair in our ids: the dataset numbers vertices 0..V, then edges
/// (libigl order) V..V+E, then faces V+E.. (docs/step.md, "Element ids").
fn to_ours(kind: PairKind, x: u64, y: u64, v: u64, e: u64) -> Key {
    match kind {
        PairKind::VertexFace => {
            assert!(
                x < v && y >= v + e,
                "vf pair ({x}, {y}) outside the id ranges"
            );
            (kind, x as u32, (y - v - e) as u32)
        }
        PairKind::EdgeEdge => {
            assert!((v..v + e).contains(&x) && (v..v + e).contains(&y));
            let (a, b) = ((x - v) as u32, (y - v) as u32);
            (kind, a.min(b), a.max(b))
        }
    }
}

/// The dataset's candidates with Mathematica's answer, in our ids.
fn dataset(dir: &Path, step_id: &str, m: &StepMesh) -> (HashMap<Key, bool>, Vec<Key>) {
    let (v, e) = (m.vertex_count() as u64, m.edges.len() as u64);
    let mut truth = HashMap::new();
    let mut order = Vec::new();
    for (kind, tag) in [(PairKind::VertexFace, "vf"), (PairKind::EdgeEdge, "ee")] {
        let read = |p: PathBuf| {
            std::fs::read_to_string(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
        };
        let boxes: Vec<[u64; 2]> =
            serde_json::from_str(&read(dir.join(format!("boxes/{step_id}{tag}.json")))).unwrap();
        let mma: Vec<bool> = serde_json::from_str(&read(
            dir.join(format!("mma_bool/{step_id}{tag}_mma_bool.json")),
        ))
        .unwrap();
        assert_eq!(boxes.len(), mma.len());
        for ([x, y], t) in boxes.into_iter().zip(mma) {
            let key = to_ours(kind, x, y, v, e);
            *truth.entry(key).or_insert(false) |= t;
            order.push(key);
        }
    }
    (truth, order)
}

/// The checks of docs/step.md against the dataset; returns the colliding pairs.
fn check_against_dataset(dir: &Path, step_id: &str, a: &str, b: &str) -> Vec<Collision> {
    let m = read_step(&dir.join("frames").join(a), &dir.join("frames").join(b)).unwrap();
    let (truth, _) = dataset(dir, step_id, &m);
    let cands = broad_phase(&m);
    let ans = step(&m, &default_tolerance(), &|_| {}).unwrap();
    let cset: HashSet<Key> = cands
        .vf
        .iter()
        .map(|&(x, y)| (PairKind::VertexFace, x, y))
        .chain(cands.ee.iter().map(|&(x, y)| (PairKind::EdgeEdge, x, y)))
        .collect();
    let ours: HashSet<Key> = ans.collisions.iter().map(|c| (c.kind, c.a, c.b)).collect();
    let mut mma_true = 0;
    for (key, &t) in &truth {
        if t {
            mma_true += 1;
            assert!(
                cset.contains(key),
                "{step_id}: {key:?} collides (Mathematica), not a candidate"
            );
            assert!(
                ours.contains(key),
                "{step_id}: {key:?} collides (Mathematica), answered free"
            );
        } else {
            assert!(
                !ours.contains(key),
                "{step_id}: {key:?} free (Mathematica), answered colliding"
            );
        }
    }
    // Pairs we call colliding that the dataset never listed: Mathematica did not
    // see them, so they are confirmed by the exact method alone (no filter).
    let outside: Vec<&Collision> = ans
        .collisions
        .iter()
        .filter(|c| !truth.contains_key(&(c.kind, c.a, c.b)))
        .collect();
    for c in &outside {
        let kind = match c.kind {
            PairKind::VertexFace => Kind::VertexFace,
            PairKind::EdgeEdge => Kind::EdgeEdge,
        };
        let q = point_query(&m, c.kind, c.a, c.b);
        assert!(
            matches!(exact(kind, &q).unwrap(), PointCcdAnswer::Hit(t) if t == c.toi),
            "{step_id}: {c:?} outside the dataset, not confirmed by the exact method"
        );
    }
    eprintln!(
        "{step_id}: {} + {} candidates, {mma_true} colliding by Mathematica, {} by us ({} outside the dataset's list)",
        ans.candidates_vf,
        ans.candidates_ee,
        ans.collisions.len(),
        outside.len()
    );
    assert!(mma_true > 0);
    ans.collisions
}

fn point_query(m: &StepMesh, kind: PairKind, a: u32, b: u32) -> PointCcd {
    let p = pair_points(m, kind, a, b);
    let v = |k: usize| Vec3::new(p[k][0], p[k][1], p[k][2]).to_rational();
    PointCcd {
        t0: [0, 1, 2, 3].map(v),
        t1: [4, 5, 6, 7].map(v),
        tolerance: default_tolerance(),
    }
}

/// The element ids of `boxes/` are those of docs/step.md: the dataset's queries
/// CSV (the same step's coordinates, in the same order) is reproduced from the
/// frames through them.
#[test]
fn dataset_ids_reproduce_the_queries_csv() {
    let dir = vendored();
    let m = read_step(&dir.join("frames/227.ply"), &dir.join("frames/228.ply")).unwrap();
    let (_, order) = dataset(&dir, "227", &m);
    let mut checked = 0;
    for (kind, sub, tag) in [
        (PairKind::VertexFace, "vertex-face", "vf"),
        (PairKind::EdgeEdge, "edge-edge", "ee"),
    ] {
        let text = std::fs::read_to_string(dir.join(format!("{sub}/227{tag}.csv"))).unwrap();
        let rows: Vec<[BigRational; 3]> = text
            .lines()
            .filter(|l| !l.is_empty())
            .map(|l| {
                let c: Vec<BigInt> = l.split(',').map(|x| x.trim().parse().unwrap()).collect();
                [0, 1, 2].map(|k| BigRational::new(c[2 * k].clone(), c[2 * k + 1].clone()))
            })
            .collect();
        let pairs: Vec<_> = order.iter().filter(|p| p.0 == kind).collect();
        assert_eq!(rows.len(), 8 * pairs.len());
        for (i, &&(k, a, b)) in pairs.iter().enumerate() {
            let q = point_query(&m, k, a, b);
            for (j, p) in q.t0.iter().chain(&q.t1).enumerate() {
                let want = &rows[8 * i + j];
                assert_eq!(
                    [p.x.clone(), p.y.clone(), p.z.clone()],
                    *want,
                    "{tag}#{i} row {j}"
                );
            }
            checked += 1;
        }
    }
    assert_eq!(checked, 92 + 263);
}

/// The vendored cloth-funnel step (227): every pair Mathematica says collides is
/// a candidate and collides; none it says is free collides.
#[test]
fn cloth_funnel_step_matches_mathematica() {
    let c = check_against_dataset(&vendored(), "227", "227.ply", "228.ply");
    assert_eq!(
        (
            c.iter().filter(|c| c.kind == PairKind::VertexFace).count(),
            c.iter().filter(|c| c.kind == PairKind::EdgeEdge).count()
        ),
        (27, 107),
        "the counts of true in the dataset's mma_bool files"
    );
}

/// The step's earliest time contains the least of Mathematica's earliest roots
/// over every colliding query of the step, is a root of its polynomial, and
/// its pair is one of the queries whose root that is.
#[test]
fn cloth_funnel_earliest_time_is_mathematicas() {
    let dir = vendored();
    let m = read_step(&dir.join("frames/227.ply"), &dir.join("frames/228.ply")).unwrap();
    let (_, order) = dataset(&dir, "227", &m);
    let mut best: Option<(RealRoot, Vec<Key>)> = None;
    for (kind, tag) in [(PairKind::VertexFace, "vf"), (PairKind::EdgeEdge, "ee")] {
        let roots: serde_json::Map<String, serde_json::Value> = serde_json::from_str(
            &std::fs::read_to_string(dir.join(format!("roots/227{tag}_earliest.json"))).unwrap(),
        )
        .unwrap();
        let pairs: Vec<_> = order.iter().filter(|p| p.0 == kind).collect();
        for (i, spec) in &roots {
            let key = *pairs[i.parse::<usize>().unwrap()];
            let r = mathematica_root(spec);
            best = match best {
                None => Some((r, vec![key])),
                Some((b, mut ks)) => match r.cmp_exact(&b) {
                    Ordering::Less => Some((r, vec![key])),
                    Ordering::Equal => {
                        ks.push(key);
                        Some((b, ks))
                    }
                    Ordering::Greater => Some((b, ks)),
                },
            };
        }
    }
    let (star, keys) = best.unwrap();
    let ans = step(&m, &default_tolerance(), &|_| {}).unwrap();
    let e = ans.earliest().unwrap();
    assert!(
        keys.contains(&(e.kind, e.a, e.b)),
        "{:?} not among {keys:?}",
        (e.kind, e.a, e.b)
    );
    let t = &e.toi;
    assert_eq!(t.kind, TimeKind::Root);
    assert!(star.cmp_exact(&RealRoot::Exact(t.lo.clone())).is_ge());
    assert!(star.cmp_exact(&RealRoot::Exact(t.hi.clone())).is_le());
    assert_eq!(
        sign_of_poly_at(&Poly::from_bigints(&t.poly), &star),
        Ordering::Equal
    );
}

/// The four shared simulation steps (`EXACT_HEAVY=1`, needs ../shared).
#[test]
fn shared_steps_match_mathematica() {
    if !heavy() {
        return;
    }
    let root = shared().join("ccd-simulation");
    for (scene, id, a, b) in [
        ("cloth-funnel", "227", "227.ply", "228.ply"),
        ("rod-twist", "3036", "3036.ply", "3037.ply"),
        ("armadillo-rollers", "326", "326.ply", "327.ply"),
        (
            "n-body-simulation",
            "18",
            "balls16_18.ply",
            "balls16_19.ply",
        ),
    ] {
        check_against_dataset(&root.join(scene), id, a, b);
    }
}

fn q(n: i64, d: i64) -> BigRational {
    BigRational::new(n.into(), d.into())
}

fn root_time(poly: &[i64], lo: BigRational, hi: BigRational) -> ContactTime {
    ContactTime {
        kind: TimeKind::Root,
        lo,
        hi,
        poly: poly.iter().map(|&c| BigInt::from(c)).collect(),
        f64: 0.0,
    }
}

/// Overlapping enclosures are ordered exactly: √(1/2) < √(51/100) share the
/// cell (1/2, 1); √(1/2) in two different cells is one number; a rational
/// inside a cell is placed by its sign.
#[test]
fn times_are_ordered_exactly() {
    let a = root_time(&[-1, 0, 2], q(1, 2), q(1, 1)); // 2t² − 1
    let b = root_time(&[-51, 0, 100], q(1, 2), q(1, 1)); // 100t² − 51
    assert_eq!(cmp_time(&a, &b), Some(Ordering::Less));
    assert_eq!(cmp_time(&b, &a), Some(Ordering::Greater));
    let a2 = root_time(&[-1, 0, 2], q(45, 64), q(46, 64));
    assert_eq!(cmp_time(&a, &a2), Some(Ordering::Equal));
    // 0.7071 < √(1/2) = 0.70710678… < 0.7072.
    let below = root_time(&[-7071, 10000], q(7071, 10000), q(7071, 10000));
    let above = root_time(&[-7072, 10000], q(7072, 10000), q(7072, 10000));
    assert_eq!(cmp_time(&below, &a), Some(Ordering::Less));
    assert_eq!(cmp_time(&a, &above), Some(Ordering::Less));
    // Touching enclosures: (1/2, 1) and exactly 1/2.
    let half = root_time(&[-1, 2], q(1, 2), q(1, 2));
    assert_eq!(cmp_time(&half, &a), Some(Ordering::Less));
    let start = ContactTime {
        kind: TimeKind::Start,
        lo: q(0, 1),
        hi: q(0, 1),
        poly: vec![],
        f64: 0.0,
    };
    assert_eq!(cmp_time(&start, &half), Some(Ordering::Less));
}

/// Two vertices fall through one triangle and hit it at the same time 1/2:
/// the tie goes to the smaller vertex id.
#[test]
fn ties_go_to_the_smaller_ids() {
    let tri = [[0.0, 0.0, 0.0], [4.0, 0.0, 0.0], [0.0, 4.0, 0.0]];
    let mut a: Vec<[f64; 3]> = tri.to_vec();
    a.extend([[1.0, 1.0, 1.0], [0.5, 0.5, 1.0]]);
    let mut b = a.clone();
    b[3][2] = -1.0;
    b[4][2] = -1.0;
    let m = StepMesh::new(a, b, vec![[0, 1, 2]]).unwrap();
    let ans = step(&m, &default_tolerance(), &|_| {}).unwrap();
    assert_eq!(ans.collisions.len(), 2);
    let e = ans.earliest().unwrap();
    assert_eq!(
        (e.kind, e.a, e.b, e.toi.lo.clone()),
        (PairKind::VertexFace, 3, 0, q(1, 2))
    );
    // Order of the slice does not matter.
    let rev: Vec<Collision> = ans.collisions.iter().rev().cloned().collect();
    assert_eq!(earliest(&rev).unwrap().unwrap().a, 3);
}

/// Coordinates on a coarse grid (multiples of 1/4 in [−1, 1]) so that exact
/// touching, coplanar motion and shared planes are common.
fn grid() -> impl Strategy<Value = f64> {
    (-4i32..=4).prop_map(|k| k as f64 / 4.0)
}

fn mesh_strategy() -> impl Strategy<Value = StepMesh> {
    (3usize..9).prop_flat_map(|n| {
        let pts = || proptest::collection::vec([grid(), grid(), grid()], n);
        let faces = proptest::collection::vec(
            proptest::sample::subsequence((0..n as u32).collect::<Vec<_>>(), 3),
            1..5,
        );
        (pts(), pts(), faces).prop_map(|(a, b, f)| {
            let faces = f.into_iter().map(|s| [s[0], s[1], s[2]]).collect();
            StepMesh::new(a, b, faces).unwrap()
        })
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(if heavy() { 2000 } else { 200 }))]

    /// The broad phase drops no colliding pair: the whole step equals a brute
    /// force over every vertex–face and edge–edge pair sharing no vertex.
    #[test]
    fn step_equals_brute_force(m in mesh_strategy()) {
        let tol = default_tolerance();
        let ans = step(&m, &tol, &|_| {}).unwrap();
        let mut brute = Vec::new();
        let n = m.vertex_count() as u32;
        for v in 0..n {
            for (f, fv) in m.faces.iter().enumerate() {
                if fv.contains(&v) {
                    continue;
                }
                let pts = pair_points(&m, PairKind::VertexFace, v, f as u32);
                if let PointCcdAnswer::Hit(t) = first_contact_f64(Kind::VertexFace, &pts, &tol).unwrap() {
                    brute.push((PairKind::VertexFace, v, f as u32, t));
                }
            }
        }
        for (i, ea) in m.edges.iter().enumerate() {
            for (j, eb) in m.edges.iter().enumerate().skip(i + 1) {
                if ea.iter().any(|v| eb.contains(v)) {
                    continue;
                }
                let pts = pair_points(&m, PairKind::EdgeEdge, i as u32, j as u32);
                if let PointCcdAnswer::Hit(t) = first_contact_f64(Kind::EdgeEdge, &pts, &tol).unwrap() {
                    brute.push((PairKind::EdgeEdge, i as u32, j as u32, t));
                }
            }
        }
        let got: Vec<_> = ans.collisions.iter().map(|c| (c.kind, c.a, c.b, c.toi.clone())).collect();
        prop_assert_eq!(got, brute);
        // The earliest is not later than any collision.
        if let Some(e) = ans.earliest() {
            for c in &ans.collisions {
                prop_assert!(cmp_time(&e.toi, &c.toi).unwrap().is_le());
            }
        }
    }
}

/// A scratch directory of the test's own, removed when it is dropped.
fn scratch() -> tempfile::TempDir {
    tempfile::Builder::new()
        .prefix("exact-step-")
        .tempdir()
        .unwrap()
}

/// The readers: mismatched frames are errors; an STL soup is welded by
/// position in both frames; OBJ and PLY give the same step.
#[test]
fn readers_and_their_errors() {
    let dir = scratch();
    let temp = |name: &str| dir.path().join(name);
    let (a, b) = (temp("a.obj"), temp("b.obj"));
    std::fs::write(&a, "v 0 0 0\nv 1 0 0\nv 0 1 0\nv 0.25 0.25 1\nf 1 2 3\n").unwrap();
    std::fs::write(&b, "v 0 0 0\nv 1 0 0\nv 0 1 0\nv 0.25 0.25 -1\nf 1 2 3\n").unwrap();
    // Vertex 3 is used by no face and still a vertex: it falls through the face.
    let m = read_step(&a, &b).unwrap();
    assert_eq!((m.vertex_count(), m.faces.len()), (4, 1));
    let ans = step(&m, &default_tolerance(), &|_| {}).unwrap();
    assert_eq!(ans.earliest().unwrap().toi.lo, q(1, 2));
    let c = temp("c.obj");
    std::fs::write(&c, "v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n").unwrap();
    assert!(matches!(
        read_step(&a, &c),
        Err(StepError::VertexCount(4, 3))
    ));
    let d = temp("d.obj");
    std::fs::write(&d, "v 0 0 0\nv 1 0 0\nv 0 1 0\nv 0 0 1\nf 1 3 2\n").unwrap();
    assert_eq!(read_step(&a, &d).unwrap_err(), StepError::Connectivity(0));
    // STL: two triangles sharing an edge, the same in both frames but for one
    // corner that moves: 4 vertices after welding.
    let tri = |v: [[f32; 3]; 3]| stl_io::Triangle {
        normal: stl_io::Normal::new([0.0, 0.0, 1.0]),
        vertices: v.map(stl_io::Vertex::new),
    };
    let write = |p: &Path, z: f32| {
        let mut f = std::fs::File::create(p).unwrap();
        stl_io::write_stl(
            &mut f,
            [
                tri([[0., 0., 0.], [1., 0., 0.], [0., 1., 0.]]),
                tri([[1., 0., 0.], [1., 1., z], [0., 1., 0.]]),
            ]
            .iter(),
        )
        .unwrap();
    };
    let (s0, s1) = (temp("a.stl"), temp("b.stl"));
    write(&s0, 0.0);
    write(&s1, 0.5);
    let m = read_step(&s0, &s1).unwrap();
    assert_eq!((m.vertex_count(), m.faces.len(), m.edges.len()), (4, 2, 5));
    assert_eq!(m.faces, vec![[0, 1, 2], [1, 3, 2]]);
    assert!(read_step(&s0, &a).is_err());
    // A quad is two triangles; a negative index counts back.
    let (qa, qb) = (temp("qa.obj"), temp("qb.obj"));
    std::fs::write(&qa, "v 0 0 0\nv 1 0 0\nv 1 1 0\nv 0 1 0\nf 1 2 3 -1\n").unwrap();
    std::fs::write(
        &qb,
        "v 0 0 0\nv 1 0 0\nv 1 1 0\nv 0 1 0\nf 1/1 2/2 3/3 4/4\n",
    )
    .unwrap();
    assert_eq!(
        read_step(&qa, &qb).unwrap().faces,
        vec![[0, 1, 2], [0, 2, 3]]
    );
    assert!(read_step(&temp("x.txt"), &a)
        .unwrap_err()
        .to_string()
        .contains(".ply"));
}

/// `exact-collision step --json --all` on the vendored step: the fields of the
/// issue, the counts of the library, exit status 0; mismatched meshes exit 2.
#[test]
fn command_prints_one_json_object() {
    let dir = vendored();
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_exact-collision"))
        .args(["step", "--json", "--all"])
        .arg(dir.join("frames/227.ply"))
        .arg(dir.join("frames/228.ply"))
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["collision_free"], false);
    assert_eq!(
        (v["colliding_vf"].as_u64(), v["colliding_ee"].as_u64()),
        (Some(27), Some(107))
    );
    assert_eq!(v["pairs"].as_array().unwrap().len(), 134);
    assert_eq!(v["toi"]["kind"], "root");
    assert!(v["pair"]["kind"] == "vf" || v["pair"]["kind"] == "ee");
    let m = read_step(&dir.join("frames/227.ply"), &dir.join("frames/228.ply")).unwrap();
    let c = broad_phase(&m);
    assert_eq!(v["candidates_vf"].as_u64(), Some(c.vf.len() as u64));
    assert_eq!(v["candidates_ee"].as_u64(), Some(c.ee.len() as u64));
    let ans = step(&m, &default_tolerance(), &|_| {}).unwrap();
    let e = ans.earliest().unwrap();
    assert_eq!(v["toi"]["lo"], e.toi.lo.to_string());
    // Collision-free: the same frame twice (nothing moves, nothing touches).
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_exact-collision"))
        .args(["step", "--json"])
        .arg(dir.join("frames/227.ply"))
        .arg(dir.join("frames/227.ply"))
        .output()
        .unwrap();
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["collision_free"], true);
    assert!(v.get("toi").is_none() && v.get("pair").is_none());
    // Different vertex counts.
    let scratch = scratch();
    let (a, b) = (scratch.path().join("ca.obj"), scratch.path().join("cb.obj"));
    std::fs::write(&a, "v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n").unwrap();
    std::fs::write(&b, "v 0 0 0\nv 1 0 0\nv 0 1 0\nv 1 1 0\nf 1 2 3\nf 2 4 3\n").unwrap();
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_exact-collision"))
        .arg("step")
        .arg(&a)
        .arg(&b)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("vertex counts"));
}
