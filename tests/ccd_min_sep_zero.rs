//! `min_distance` 0 answers byte for byte as the program before it existed,
//! on every query of ../shared/ccd-benchmark and ../shared/ccd-simulation:
//! `ccd-csv --min-distance 0` and plain `ccd-csv` against the reference
//! binary's `ccd-csv` (the per-query lines, less the measured `us`), and the
//! protocol lines with `"min_distance":0` and without against the reference's
//! answers to the lines without.
//!
//! Needs the reference binary (built from the branch point) in
//! `EXACT_COLLISION_BASE_BIN` (default `base-bin/exact-collision`) and the
//! shared corpora beside the repository, so it is ignored by default:
//! `cargo test --release --test ccd_min_sep_zero -- --ignored`. It fails, not
//! skips, when either is missing.

use std::path::{Path, PathBuf};
use std::process::Command;

fn csv_files() -> Vec<PathBuf> {
    let shared = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared");
    let mut out = Vec::new();
    for root in ["ccd-benchmark", "ccd-simulation"] {
        let dir = shared.join(root);
        let scenes = std::fs::read_dir(&dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display()));
        for scene in scenes.flatten() {
            for kind in ["vertex-face", "edge-edge"] {
                if let Ok(files) = std::fs::read_dir(scene.path().join(kind)) {
                    out.extend(
                        files
                            .flatten()
                            .map(|f| f.path())
                            .filter(|p| p.extension().is_some_and(|e| e == "csv")),
                    );
                }
            }
        }
    }
    out.sort();
    out
}

fn run(bin: &Path, args: &[&str], stdin: Option<&Path>) -> Vec<u8> {
    let mut c = Command::new(bin);
    c.args(args);
    if let Some(f) = stdin {
        c.stdin(std::fs::File::open(f).unwrap());
    }
    let out = c
        .output()
        .unwrap_or_else(|e| panic!("{}: {e}", bin.display()));
    out.stdout
}

/// The per-query lines without the measured time.
fn answers(stdout: &[u8]) -> Vec<String> {
    String::from_utf8_lossy(stdout)
        .lines()
        .filter(|l| l.contains("\"id\""))
        .map(|l| {
            let mut v: serde_json::Value = serde_json::from_str(l).unwrap();
            v.as_object_mut().unwrap().remove("us");
            v.to_string()
        })
        .collect()
}

/// The file's queries as protocol lines (exact strings), with `extra`
/// fields.
fn protocol_lines(path: &Path, kind: &str, extra: &str) -> String {
    let text = std::fs::read_to_string(path).unwrap();
    let rows = exact_collision::ccd::bench_csv::read_rows(text.as_bytes()).unwrap();
    let op = if kind == "vertex-face" {
        "ccd_vf"
    } else {
        "ccd_ee"
    };
    let mut s = String::new();
    for (i, ch) in rows.chunks(8).enumerate() {
        let pts = |r: std::ops::Range<usize>| {
            let v: Vec<String> = r
                .map(|k| {
                    let c: Vec<String> = ch[k].0.iter().map(|x| format!("\"{x}\"")).collect();
                    format!("[{}]", c.join(","))
                })
                .collect();
            format!("[{}]", v.join(","))
        };
        s += &format!(
            "{{\"id\":{i},\"op\":\"{op}\",\"t0\":{},\"t1\":{}{extra}}}\n",
            pts(0..4),
            pts(4..8)
        );
    }
    s
}

#[test]
#[ignore = "needs the reference binary and ../shared (see the module docs)"]
fn zero_min_distance_is_byte_identical() {
    let base = std::env::var("EXACT_COLLISION_BASE_BIN")
        .map(PathBuf::from)
        .unwrap_or_else(|_| Path::new(env!("CARGO_MANIFEST_DIR")).join("base-bin/exact-collision"));
    assert!(base.exists(), "reference binary {} missing", base.display());
    let new = PathBuf::from(env!("CARGO_BIN_EXE_exact-collision"));
    let files = csv_files();
    assert!(files.len() >= 40, "{} files", files.len());
    let tmp = std::env::temp_dir().join(format!("min-sep-zero-{}", std::process::id()));
    std::fs::create_dir_all(&tmp).unwrap();
    let mut queries = 0;
    for f in &files {
        let p = f.to_str().unwrap();
        let want = answers(&run(&base, &["ccd-csv", p], None));
        assert!(!want.is_empty(), "{p}: no answers");
        assert_eq!(answers(&run(&new, &["ccd-csv", p], None)), want, "{p}");
        assert_eq!(
            answers(&run(&new, &["ccd-csv", "--min-distance", "0", p], None)),
            want,
            "{p} --min-distance 0"
        );
        let kind = if p.contains("vertex-face") {
            "vertex-face"
        } else {
            "edge-edge"
        };
        let (plain, zero) = (tmp.join("plain.jsonl"), tmp.join("zero.jsonl"));
        std::fs::write(&plain, protocol_lines(f, kind, "")).unwrap();
        std::fs::write(&zero, protocol_lines(f, kind, ",\"min_distance\":0")).unwrap();
        let want = run(&base, &["query", plain.to_str().unwrap()], None);
        assert_eq!(
            run(&new, &["query", plain.to_str().unwrap()], None),
            want,
            "{p}: protocol"
        );
        assert_eq!(
            run(&new, &["query", zero.to_str().unwrap()], None),
            want,
            "{p}: min_distance 0"
        );
        queries += want.iter().filter(|&&b| b == b'\n').count();
    }
    let _ = std::fs::remove_dir_all(&tmp);
    assert!(queries > 20_000, "{queries}");
}
