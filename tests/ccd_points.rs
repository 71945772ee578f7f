//! `ccd_vf` / `ccd_ee` against the ground truth of the CCD benchmark's unit tests
//! (a copy in tests/data/ccd-benchmark, MIT licence; exact rational coordinates). The
//! benchmark counts touching at t in [0, 1] as a hit, as the protocol does.
//! Every query must be answered (the always-coplanar and degenerate ones too), and
//! every reported time is checked independently: its certificate verifies, it is no
//! wider than the tolerance, and the static exact triangle test (a different
//! method: Guigue–Devillers on the positions at a rational time, with the vertex
//! or the edges given as degenerate triangles) finds no contact at rational times
//! before it and finds contact when the time is rational.

mod common;

use common::mathematica_root;
use exact_collision::ccd::points::{exact, filter, first_contact_f64, Kind};
use exact_collision::ccd::PointCcd;
use exact_collision::ccd::TimeKind;
use exact_collision::ccd::{ccd_ee, ccd_vf, PointCcdAnswer};
use exact_collision::num::dyadic::exact_f64;
use exact_collision::poly::{sign_of_poly_at, Poly, RealRoot};
use exact_collision::query::triangle_triangle::intersects;
use exact_collision::{Triangle, Vec3};
use num_bigint::BigInt;
use num_rational::BigRational;

/// The queries of a CSV file in the benchmark's format (8 rows per query,
/// x, y, z as numerator,denominator pairs), with the ground truth of the 7th
/// column or of a `mma_bool` JSON file (then the 7th column, if present, must
/// agree with it). Panics if the file is missing: a test must not pass on no data.
fn load_with(path: &str, truth: Option<&str>) -> Vec<(PointCcd, bool)> {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let rows: Vec<(Vec3<BigRational>, Option<bool>)> = text
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| {
            let c: Vec<BigInt> = l.split(',').map(|x| x.trim().parse().unwrap()).collect();
            let q = |i: usize| BigRational::new(c[i].clone(), c[i + 1].clone());
            (
                Vec3::new(q(0), q(2), q(4)),
                c.get(6).map(|t| t == &BigInt::from(1)),
            )
        })
        .collect();
    assert_eq!(rows.len() % 8, 0, "{path}: rows");
    let mma: Option<Vec<bool>> = truth.map(|t| {
        let text = std::fs::read_to_string(t).unwrap_or_else(|e| panic!("{t}: {e}"));
        serde_json::from_str(&text).unwrap()
    });
    rows.chunks(8)
        .enumerate()
        .map(|(i, ch)| {
            let p = |i: usize| ch[i].0.clone();
            let truth = match (&mma, ch[0].1) {
                (Some(m), col) => {
                    assert!(
                        col.is_none_or(|c| c == m[i]),
                        "{path}#{i}: columns disagree"
                    );
                    m[i]
                }
                (None, Some(c)) => c,
                (None, None) => panic!("{path}: no ground truth"),
            };
            (
                PointCcd {
                    t0: [p(0), p(1), p(2), p(3)],
                    t1: [p(4), p(5), p(6), p(7)],
                    tolerance: BigRational::new(1.into(), BigInt::from(10).pow(12)),
                },
                truth,
            )
        })
        .collect()
}

/// Static contact at the rational time `t`, by the triangle test: `vf` is the
/// vertex (a point-triangle) against the face; `ee` the two edges (segment
/// triangles).
fn touches(q: &PointCcd, vf: bool, t: &BigRational) -> bool {
    let p = |i: usize| {
        let (a, b) = (&q.t0[i], &q.t1[i]);
        Vec3::new(
            &a.x + t * (&b.x - &a.x),
            &a.y + t * (&b.y - &a.y),
            &a.z + t * (&b.z - &a.z),
        )
    };
    let (x, y) = if vf {
        (
            Triangle::new([p(0), p(0), p(0)]),
            Triangle::new([p(1), p(2), p(3)]),
        )
    } else {
        (
            Triangle::new([p(0), p(1), p(1)]),
            Triangle::new([p(2), p(3), p(3)]),
        )
    };
    intersects(&x, &y)
}

/// Checks a hit's time against [`touches`]; returns a defect, if any.
fn check_time(q: &PointCcd, vf: bool, a: &PointCcdAnswer) -> Option<String> {
    let zero = BigRational::from_integer(0.into());
    match a {
        PointCcdAnswer::Miss => {
            // No contact at a few rational times (contact sets can be isolated
            // points, so this is a sanity check, not a proof).
            (0..=4)
                .map(|k| BigRational::new(k.into(), 4.into()))
                .find(|t| touches(q, vf, t))
                .map(|t| format!("miss, but contact at t = {t}"))
        }
        PointCcdAnswer::Hit(c) => {
            if c.to_real_root().is_none() {
                return Some(format!("certificate fails: {c:?}"));
            }
            if &c.hi - &c.lo > q.tolerance {
                return Some("interval wider than the tolerance".into());
            }
            if c.kind == TimeKind::Start && (c.lo != zero || !touches(q, vf, &zero)) {
                return Some("start, but no contact at 0".into());
            }
            if c.lo == c.hi && !touches(q, vf, &c.lo) {
                return Some(format!("no contact at the rational time {}", c.lo));
            }
            let half = &c.lo / BigRational::from_integer(2.into());
            let before: Vec<BigRational> = if c.lo == c.hi {
                vec![zero.clone(), half]
            } else {
                vec![zero.clone(), half, c.lo.clone()]
            };
            before
                .into_iter()
                .filter(|t| t < &c.lo || c.lo != c.hi)
                .find(|t| touches(q, vf, t))
                .map(|t| format!("contact at t = {t}, before the reported time {}", c.lo))
        }
    }
}

fn run(
    set: &str,
    dir: &str,
    f: fn(&PointCcd) -> Result<PointCcdAnswer, exact_collision::query::QueryError>,
) {
    let base = format!(
        "{}/tests/data/ccd-benchmark/{set}",
        env!("CARGO_MANIFEST_DIR")
    );
    let files = ["data_0_0.csv", "data_0_1.csv"].map(|file| (format!("{base}/{dir}/{file}"), None));
    check_files(&files, dir == "vertex-face", f);
}

/// Every query of the files answered, agreeing with its ground truth, every
/// time checked by [`check_time`].
fn check_files(
    files: &[(String, Option<String>)],
    vf: bool,
    f: fn(&PointCcd) -> Result<PointCcdAnswer, exact_collision::query::QueryError>,
) {
    let mut n = 0;
    let mut agree = 0;
    let mut unanswered = 0;
    let mut disagree = Vec::new();
    for (file, truth) in files {
        for (i, (q, truth)) in load_with(file, truth.as_deref()).into_iter().enumerate() {
            n += 1;
            match f(&q) {
                Ok(a) => {
                    if let Some(defect) = check_time(&q, vf, &a) {
                        disagree.push(format!("{file}#{i}: {defect}"));
                        continue;
                    }
                    let hit = matches!(a, PointCcdAnswer::Hit(_));
                    if hit == truth {
                        agree += 1;
                    } else {
                        disagree.push(format!("{file}#{i}: ours {hit}, truth {truth}"));
                    }
                }
                Err(_) => unanswered += 1,
            }
        }
    }
    eprintln!(
        "{}: {n} queries, {agree} agree, {} disagree, {unanswered} not answered",
        files[0].0,
        disagree.len()
    );
    for d in &disagree {
        eprintln!("  {d}");
    }
    assert!(n > 0, "no queries");
    assert!(disagree.is_empty(), "disagreements {disagree:?}");
    assert_eq!(unanswered, 0, "unanswered queries");
    assert_eq!(agree, n);
}

#[test]
fn vertex_face_unit_tests_match_ground_truth() {
    run("unit-tests", "vertex-face", ccd_vf);
}

#[test]
fn edge_edge_unit_tests_match_ground_truth() {
    run("unit-tests", "edge-edge", ccd_ee);
}

#[test]
fn vertex_face_sliding_spike_match_ground_truth() {
    run("erleben-sliding-spike", "vertex-face", ccd_vf);
}

#[test]
fn edge_edge_sliding_spike_match_ground_truth() {
    run("erleben-sliding-spike", "edge-edge", ccd_ee);
}

fn cloth_funnel(kind: &str, dir: &str) -> Vec<(String, Option<String>)> {
    let base = format!(
        "{}/tests/data/ccd-simulation/cloth-funnel",
        env!("CARGO_MANIFEST_DIR")
    );
    vec![(
        format!("{base}/{dir}/227{kind}.csv"),
        Some(format!("{base}/mma_bool/227{kind}_mma_bool.json")),
    )]
}

/// A real simulation step (IPC, cloth falling into a funnel): 92 vertex–face
/// queries against the dataset's Mathematica ground truth.
#[test]
fn vertex_face_cloth_funnel_match_ground_truth() {
    check_files(&cloth_funnel("vf", "vertex-face"), true, ccd_vf);
}

/// The same step's 263 edge–edge queries.
#[test]
fn edge_edge_cloth_funnel_match_ground_truth() {
    check_files(&cloth_funnel("ee", "edge-edge"), false, ccd_ee);
}

fn heavy() -> bool {
    std::env::var("EXACT_HEAVY").is_ok_and(|v| v == "1")
}

/// The coordinates as doubles (every coordinate of these datasets is one).
fn doubles(q: &PointCcd) -> [[f64; 3]; 8] {
    let v: Vec<[f64; 3]> =
        q.t0.iter()
            .chain(&q.t1)
            .map(|p| [&p.x, &p.y, &p.z].map(|c| exact_f64(c).expect("a double")))
            .collect();
    v.try_into().unwrap()
}

/// For every query: `first_contact_f64` (filter, then the fallback) equals the
/// exact method alone, and so does the filter's answer whenever it gives one
/// (the reported time to the last field). Returns (queries, filter-decided).
fn filter_agrees(files: &[(String, Option<String>)], kind: Kind) -> (usize, usize) {
    let tol = BigRational::new(1.into(), BigInt::from(10).pow(12));
    let (mut n, mut decided) = (0, 0);
    for (file, truth) in files {
        for (i, (q, _)) in load_with(file, truth.as_deref()).into_iter().enumerate() {
            let p = doubles(&q);
            let reference = exact(kind, &q).unwrap();
            assert_eq!(
                first_contact_f64(kind, &p, &tol).unwrap(),
                reference,
                "{file}#{i}"
            );
            if let Some(a) = filter(kind, &p, &tol) {
                assert_eq!(a, reference, "{file}#{i}: the filter decided differently");
                decided += 1;
            }
            n += 1;
        }
    }
    (n, decided)
}

fn vendored(dir: &str) -> Vec<(String, Option<String>)> {
    let base = format!("{}/tests/data/ccd-benchmark", env!("CARGO_MANIFEST_DIR"));
    let mut v: Vec<(String, Option<String>)> = ["unit-tests", "erleben-sliding-spike"]
        .iter()
        .flat_map(|set| {
            ["data_0_0.csv", "data_0_1.csv"].map(|f| (format!("{base}/{set}/{dir}/{f}"), None))
        })
        .collect();
    let kind = if dir == "vertex-face" { "vf" } else { "ee" };
    v.extend(cloth_funnel(kind, dir));
    v
}

/// The filter never decides a benchmark query differently from the exact
/// method (every vendored query; every shared one with `EXACT_HEAVY=1`).
#[test]
fn filter_agrees_with_exact_on_every_benchmark_query() {
    for (dir, kind) in [
        ("vertex-face", Kind::VertexFace),
        ("edge-edge", Kind::EdgeEdge),
    ] {
        let mut files = vendored(dir);
        if heavy() {
            files = shared_files(dir);
        }
        let (n, decided) = filter_agrees(&files, kind);
        eprintln!("{dir}: {n} queries, {decided} decided by the filter");
        assert!(
            decided * 2 > n,
            "{dir}: the filter decided only {decided} of {n}"
        );
    }
}

/// `../shared` beside the repository (or `EXACT_SHARED`).
fn shared() -> std::path::PathBuf {
    std::env::var_os("EXACT_SHARED")
        .map(Into::into)
        .unwrap_or_else(|| std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared"))
}

/// Every query file of the shared benchmark (erleben scenes, unit tests) and
/// simulation datasets for one kind, with the simulation's `mma_bool` truth.
fn shared_files(dir: &str) -> Vec<(String, Option<String>)> {
    let root = shared();
    let mut out = Vec::new();
    for set in ["ccd-benchmark", "ccd-simulation"] {
        let d = root.join(set);
        let scenes = std::fs::read_dir(&d).unwrap_or_else(|e| panic!("{}: {e}", d.display()));
        for scene in scenes.flatten().filter(|e| e.path().is_dir()) {
            let Ok(csvs) = std::fs::read_dir(scene.path().join(dir)) else {
                continue;
            };
            for f in csvs.flatten() {
                let path = f.path();
                let stem = path.file_stem().unwrap().to_string_lossy().to_string();
                let mma = scene
                    .path()
                    .join("mma_bool")
                    .join(format!("{stem}_mma_bool.json"));
                out.push((
                    path.display().to_string(),
                    mma.exists().then(|| mma.display().to_string()),
                ));
            }
        }
    }
    out.sort();
    assert!(out.len() > 10, "{}: query files not found", root.display());
    out
}

/// Every query of `../shared/ccd-benchmark` and `../shared/ccd-simulation`
/// (26,917) agrees with its ground truth, every time certified (`EXACT_HEAVY=1`).
#[test]
fn shared_datasets_match_ground_truth() {
    if !heavy() {
        return;
    }
    for (dir, vf) in [("vertex-face", true), ("edge-edge", false)] {
        let tol = BigRational::new(1.into(), BigInt::from(10).pow(12));
        let kind = if vf { Kind::VertexFace } else { Kind::EdgeEdge };
        for (file, truth) in shared_files(dir) {
            let (mut fp, mut fneg, mut n) = (0, 0, 0);
            for (i, (q, truth)) in load_with(&file, truth.as_deref()).into_iter().enumerate() {
                let a = first_contact_f64(kind, &doubles(&q), &tol).unwrap();
                if let PointCcdAnswer::Hit(c) = &a {
                    assert!(c.to_real_root().is_some(), "{file}#{i}: certificate fails");
                    assert!(&c.hi - &c.lo <= tol, "{file}#{i}: wider than the tolerance");
                }
                let hit = matches!(a, PointCcdAnswer::Hit(_));
                fp += (hit && !truth) as u32;
                fneg += (!hit && truth) as u32;
                n += 1;
            }
            eprintln!("{file}: {n} queries, {fp} false positives, {fneg} false negatives");
            assert_eq!((fp, fneg), (0, 0), "{file}");
        }
    }
}

/// Every reported time of a colliding cloth-funnel query contains Mathematica's
/// earliest valid root and is a root of the reported polynomial (the check of
/// `../shared/ccd-simulation/toi_check.py`, on its converted roots).
#[test]
fn cloth_funnel_times_contain_mathematica_earliest_roots() {
    let base = format!(
        "{}/tests/data/ccd-simulation/cloth-funnel",
        env!("CARGO_MANIFEST_DIR")
    );
    for (kind, dir, f) in [
        ("vf", "vertex-face", ccd_vf as fn(&PointCcd) -> _),
        ("ee", "edge-edge", ccd_ee),
    ] {
        let roots: serde_json::Map<String, serde_json::Value> = serde_json::from_str(
            &std::fs::read_to_string(format!("{base}/roots/227{kind}_earliest.json")).unwrap(),
        )
        .unwrap();
        let queries = load_with(
            &format!("{base}/{dir}/227{kind}.csv"),
            Some(&format!("{base}/mma_bool/227{kind}_mma_bool.json")),
        );
        let mut checked = 0;
        for (i, spec) in &roots {
            let i: usize = i.parse().unwrap();
            let PointCcdAnswer::Hit(t) = f(&queries[i].0).unwrap() else {
                panic!("{kind}#{i}: Mathematica has a root, we have no hit");
            };
            let star = mathematica_root(spec);
            if t.kind == TimeKind::Start {
                assert_eq!(star.as_exact(), Some(&BigRational::from_integer(0.into())));
            } else {
                let (lo, hi) = (RealRoot::Exact(t.lo.clone()), RealRoot::Exact(t.hi.clone()));
                assert!(
                    star.cmp_exact(&lo).is_ge() && star.cmp_exact(&hi).is_le(),
                    "{kind}#{i}"
                );
                let p = Poly::from_bigints(&t.poly);
                assert_eq!(
                    sign_of_poly_at(&p, &star),
                    std::cmp::Ordering::Equal,
                    "{kind}#{i}"
                );
            }
            checked += 1;
        }
        assert!(checked > 20, "{kind}: {checked} roots");
        eprintln!("{kind}: {checked} earliest roots inside the reported times");
    }
}

/// `../shared/ccd-simulation/toi_check.py` itself on every simulation step with
/// roots (`EXACT_HEAVY=1`; needs python3 with wolframclient and sympy).
#[test]
fn toi_check_script_on_shared_simulation() {
    if !heavy() {
        return;
    }
    let root = shared().join("ccd-simulation");
    let tmp = std::env::temp_dir().join(format!("ccd_points_toi_{}", std::process::id()));
    let mut ran = 0;
    for scene in std::fs::read_dir(&root).unwrap().flatten() {
        let Ok(tars) = std::fs::read_dir(scene.path().join("roots")) else {
            continue;
        };
        for tar in tars.flatten() {
            let name = tar.file_name().to_string_lossy().to_string();
            let tag = name.trim_end_matches("_roots.tar.gz").to_string();
            let (kind, dir) = if tag.ends_with("vf") {
                (Kind::VertexFace, "vertex-face")
            } else {
                (Kind::EdgeEdge, "edge-edge")
            };
            let csv = scene.path().join(dir).join(format!("{tag}.csv"));
            let mma = scene
                .path()
                .join("mma_bool")
                .join(format!("{tag}_mma_bool.json"));
            if !csv.exists() {
                continue;
            }
            let dir_roots = tmp.join(&tag);
            std::fs::create_dir_all(&dir_roots).unwrap();
            let st = std::process::Command::new("tar")
                .arg("xzf")
                .arg(tar.path())
                .arg("-C")
                .arg(&dir_roots)
                .status()
                .unwrap();
            assert!(st.success());
            let tol = BigRational::new(1.into(), BigInt::from(10).pow(12));
            let mut lines = String::new();
            let queries = load_with(&csv.display().to_string(), Some(&mma.display().to_string()));
            for (i, (q, _)) in queries.iter().enumerate() {
                let a = first_contact_f64(kind, &doubles(q), &tol).unwrap();
                let mut m = serde_json::Map::new();
                m.insert("id".into(), format!("{tag}#{i}").into());
                if let PointCcdAnswer::Hit(t) = &a {
                    m.insert("hit".into(), true.into());
                    m.insert("toi".into(), exact_collision::protocol::time_value(t));
                } else {
                    m.insert("hit".into(), false.into());
                }
                lines.push_str(&serde_json::Value::Object(m).to_string());
                lines.push('\n');
            }
            let answers = tmp.join(format!("{tag}.jsonl"));
            std::fs::write(&answers, lines).unwrap();
            let out = std::process::Command::new("python3")
                .arg(root.join("toi_check.py"))
                .arg(&dir_roots)
                .arg(&answers)
                .arg(&tag)
                .output()
                .expect("python3");
            let text = String::from_utf8_lossy(&out.stdout);
            eprintln!("{}{}", text, String::from_utf8_lossy(&out.stderr));
            assert!(out.status.success(), "toi_check.py {tag} failed: {text}");
            ran += 1;
        }
    }
    let _ = std::fs::remove_dir_all(&tmp);
    assert!(ran >= 4, "only {ran} steps checked");
}
