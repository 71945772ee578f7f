//! `exact-collision ccd-csv` on the vendored cloth-funnel step: the 7-column
//! file, the dataset's own 6-column form with `--truth`, the kind from the path,
//! and a wrong ground truth reported as a disagreement (exit status 1).

use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::Command;

fn data() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/ccd-simulation/cloth-funnel")
}

/// Runs the command; returns its success, the query lines and the summary.
fn run(args: &[&std::ffi::OsStr]) -> (bool, Vec<Value>, Value) {
    let out = Command::new(env!("CARGO_BIN_EXE_exact-collision"))
        .arg("ccd-csv")
        .args(args)
        .output()
        .unwrap();
    let lines: Vec<Value> = String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let (summary, queries) = lines.split_last().unwrap();
    (out.status.success(), queries.to_vec(), summary.clone())
}

fn truth() -> Vec<bool> {
    let t = std::fs::read_to_string(data().join("mma_bool/227vf_mma_bool.json")).unwrap();
    serde_json::from_str(&t).unwrap()
}

fn check(ok: bool, queries: &[Value], summary: &Value, truth: &[bool]) {
    assert!(ok);
    assert_eq!(summary["queries"], 92);
    assert_eq!(summary["kind"], "vf");
    let hits = truth.iter().filter(|&&t| t).count();
    assert_eq!(summary["hits"], hits);
    assert_eq!(summary["truth"]["false_positives"], 0);
    assert_eq!(summary["truth"]["false_negatives"], 0);
    assert!(summary["time_us"]["median"].as_f64().unwrap() > 0.0);
    assert_eq!(queries.len(), 92);
    for (i, (q, t)) in queries.iter().zip(truth).enumerate() {
        assert_eq!(q["id"], format!("227vf#{i}"));
        assert_eq!(q["hit"], *t, "query {i}");
        assert_eq!(q["truth"], *t);
        // Hits carry a certified time: lo ≤ hi, a polynomial unless at the start.
        if *t {
            let toi = &q["toi"];
            assert!(toi["kind"] == "start" || toi["poly"].as_array().is_some_and(|p| p.len() >= 2));
        }
    }
}

#[test]
fn seven_column_file_with_kind_from_the_path() {
    let csv = data().join("vertex-face/227vf.csv");
    let (ok, q, s) = run(&[csv.as_os_str()]);
    check(ok, &q, &s, &truth());
}

#[test]
fn six_column_file_with_its_mma_bool_truth() {
    let dir = std::env::temp_dir().join(format!("ccd_csv_{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let seven = std::fs::read_to_string(data().join("vertex-face/227vf.csv")).unwrap();
    let six: String = seven
        .lines()
        .map(|l| l.rsplit_once(',').unwrap().0.to_string() + "\n")
        .collect();
    let csv = dir.join("227vf.csv");
    std::fs::write(&csv, six).unwrap();
    let mma = data().join("mma_bool/227vf_mma_bool.json");
    let (ok, q, s) = run(&[
        "--kind".as_ref(),
        "vf".as_ref(),
        "--truth".as_ref(),
        mma.as_os_str(),
        csv.as_os_str(),
    ]);
    check(ok, &q, &s, &truth());
    // A ground truth with one answer flipped: one disagreement, exit status 1.
    let mut wrong = truth();
    wrong[3] = !wrong[3];
    let bad = dir.join("wrong.json");
    std::fs::write(&bad, serde_json::to_string(&wrong).unwrap()).unwrap();
    let (ok, _, s) = run(&[
        "--kind".as_ref(),
        "vf".as_ref(),
        "--truth".as_ref(),
        bad.as_os_str(),
        csv.as_os_str(),
    ]);
    assert!(!ok);
    let disagreements = s["truth"]["false_positives"].as_u64().unwrap()
        + s["truth"]["false_negatives"].as_u64().unwrap();
    assert_eq!(disagreements, 1);
    let _ = std::fs::remove_dir_all(&dir);
}
