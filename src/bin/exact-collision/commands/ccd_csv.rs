//! `exact-collision ccd-csv FILE…`: the CCD benchmark's query files, answered
//! on all cores, with the ground truth compared and the time of each query
//! measured.

use exact_collision::ccd::bench_csv::read_rows;
use exact_collision::ccd::points::{
    first_contact, first_contact_f64, first_contact_min_distance, first_contact_min_distance_f64,
    Kind,
};
use exact_collision::ccd::{PointCcd, PointCcdAnswer};
use exact_collision::num::dyadic::exact_f64;
use exact_collision::protocol::time_value;
use exact_collision::stats::CCD_POINTS;
use exact_collision::Vec3;
use num_rational::BigRational;
use num_traits::Signed;
use rayon::prelude::*;
use serde_json::{json, Map, Value};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::Instant;

/// Answer the CCD benchmark's CSV query files (Wang et al. 2021; the
/// "Sample Scalable CCD Data" of Belgrod et al. 2023): one JSON line per query,
/// then one summary line per file. Exit status 1 if an answer disagrees with the
/// ground truth or a query fails.
#[derive(clap::Args)]
pub struct Args {
    /// CSV files: 8 rows per query (the 4 points at t = 0, then at t = 1), each
    /// row x, y, z as numerator,denominator pairs (6 columns), optionally
    /// followed by the ground truth 0/1 (7 columns).
    #[arg(required = true)]
    files: Vec<PathBuf>,
    /// vf (vertex–face) or ee (edge–edge); by default from the path
    /// ("vertex-face" or "vf", "edge-edge" or "ee").
    #[arg(long)]
    kind: Option<String>,
    /// Ground truth: a JSON array of booleans, one per query (the dataset's
    /// `mma_bool` files). Repeat once per FILE, in the same order; it replaces
    /// a 7th column.
    #[arg(long)]
    truth: Vec<PathBuf>,
    /// The tolerance of the reported times (an exact rational).
    #[arg(long, default_value = "1/1000000000000")]
    tolerance: String,
    /// Minimum separation δ ≥ 0 (a number or exact rational): a query hits
    /// when the distance drops to δ or below (docs/ccd.md). With δ > 0 the
    /// files' ground truth (δ = 0) is reported but only its false negatives
    /// count as wrong (a hit at δ = 0 is a hit at every δ).
    #[arg(long, value_name = "DELTA", allow_hyphen_values = true)]
    min_distance: Option<String>,
    /// Print only the summary lines.
    #[arg(long)]
    summary_only: bool,
    /// The longest CSV line, in bytes (docs/limits.md).
    #[arg(long, value_name = "BYTES", default_value_t = super::limits::DEFAULT_MAX_LINE_BYTES)]
    max_line_bytes: u64,
}

/// One query as read.
enum Input {
    /// Every coordinate is a double.
    F64([[f64; 3]; 8]),
    /// Some coordinate is not.
    Exact(Box<PointCcd>),
}

struct Query {
    input: Input,
    truth: Option<bool>,
}

fn bad(path: &Path, what: impl std::fmt::Display) -> std::io::Error {
    std::io::Error::new(
        std::io::ErrorKind::InvalidData,
        format!("{}: {what}", path.display()),
    )
}

fn kind_of(path: &Path, given: Option<&str>) -> std::io::Result<Kind> {
    let name = match given {
        Some(k) => k.to_string(),
        None => path.to_string_lossy().to_string(),
    };
    let file = path
        .file_name()
        .map(|f| f.to_string_lossy().to_string())
        .unwrap_or_default();
    let vf =
        name == "vf" || name.contains("vertex-face") || (given.is_none() && file.contains("vf"));
    let ee = name == "ee" || name.contains("edge-edge") || (given.is_none() && file.contains("ee"));
    match (vf, ee) {
        (true, false) => Ok(Kind::VertexFace),
        (false, true) => Ok(Kind::EdgeEdge),
        _ => Err(bad(
            path,
            "cannot tell vertex-face from edge-edge: give --kind vf or --kind ee",
        )),
    }
}

fn read(
    path: &Path,
    truth: Option<&PathBuf>,
    tolerance: &BigRational,
    max_line: u64,
) -> std::io::Result<Vec<Query>> {
    let file = std::fs::File::open(path).map_err(|e| bad(path, e))?;
    let file = super::limits::BoundedLines::new(file, max_line);
    let rows = read_rows(std::io::BufReader::new(file)).map_err(|e| bad(path, e))?;
    if rows.len() % 8 != 0 {
        return Err(bad(
            path,
            format!("{} rows, not a multiple of 8", rows.len()),
        ));
    }
    let n = rows.len() / 8;
    let truths: Vec<Option<bool>> = match truth {
        Some(t) => {
            let text = std::fs::read_to_string(t).map_err(|e| bad(t, e))?;
            let v: Vec<bool> = serde_json::from_str(&text).map_err(|e| bad(t, e))?;
            if v.len() != n {
                return Err(bad(t, format!("{} booleans for {n} queries", v.len())));
            }
            v.into_iter().map(Some).collect()
        }
        None => (0..n).map(|i| rows[8 * i].1).collect(),
    };
    Ok(rows
        .chunks(8)
        .zip(truths)
        .map(|(ch, truth)| {
            let f: Option<Vec<f64>> = ch.iter().flat_map(|r| r.0.iter().map(exact_f64)).collect();
            let input = match f {
                Some(f) => Input::F64(std::array::from_fn(|k| {
                    [f[3 * k], f[3 * k + 1], f[3 * k + 2]]
                })),
                None => {
                    let p = |k: usize| {
                        let [x, y, z] = ch[k].0.clone();
                        Vec3::new(x, y, z)
                    };
                    Input::Exact(Box::new(PointCcd {
                        t0: [p(0), p(1), p(2), p(3)],
                        t1: [p(4), p(5), p(6), p(7)],
                        tolerance: tolerance.clone(),
                    }))
                }
            };
            Query { input, truth }
        })
        .collect())
}

/// Median, mean, 99th percentile and maximum of the times, in µs.
fn distribution(us: &mut [f64]) -> Value {
    if us.is_empty() {
        return Value::Null;
    }
    us.sort_by(|a, b| a.total_cmp(b));
    let n = us.len();
    let pick = |p: f64| us[((p * n as f64) as usize).min(n - 1)];
    let r = |x: f64| (x * 1000.0).round() / 1000.0;
    json!({
        "median": r(pick(0.5)),
        "mean": r(us.iter().sum::<f64>() / n as f64),
        "p99": r(pick(0.99)),
        "max": r(us[n - 1]),
    })
}

/// Answers the files; returns whether every answer agrees with its ground truth.
pub fn run(args: &Args) -> std::io::Result<bool> {
    let tolerance: BigRational = exact_collision::protocol::number::parse_exact(&args.tolerance)
        .map_err(|e| {
            std::io::Error::new(
                std::io::ErrorKind::InvalidInput,
                format!("--tolerance: {e}"),
            )
        })?;
    let delta = match &args.min_distance {
        None => None,
        Some(d) => Some(parse_min_distance(d).map_err(|e| {
            std::io::Error::new(
                std::io::ErrorKind::InvalidInput,
                format!("--min-distance: {e}"),
            )
        })?),
    };
    if !args.truth.is_empty() && args.truth.len() != args.files.len() {
        return Err(std::io::Error::new(
            std::io::ErrorKind::InvalidInput,
            "--truth: give one per FILE, in the same order",
        ));
    }
    let out = std::io::stdout();
    let mut out = std::io::BufWriter::new(out.lock());
    let mut all_ok = true;
    for (fi, path) in args.files.iter().enumerate() {
        let kind = kind_of(path, args.kind.as_deref())?;
        let queries = read(path, args.truth.get(fi), &tolerance, args.max_line_bytes)?;
        let tag = path
            .file_stem()
            .map(|s| s.to_string_lossy().to_string())
            .unwrap_or_default();
        let before = CCD_POINTS.get();
        let answers: Vec<(Result<PointCcdAnswer, String>, f64)> = queries
            .par_iter()
            .map(|q| {
                let start = Instant::now();
                let a = match (&q.input, &delta) {
                    (Input::F64(p), None) => first_contact_f64(kind, p, &tolerance),
                    (Input::Exact(p), None) => first_contact(kind, p),
                    (Input::F64(p), Some(d)) => {
                        first_contact_min_distance_f64(kind, p, &tolerance, d)
                    }
                    (Input::Exact(p), Some(d)) => first_contact_min_distance(kind, p, d),
                };
                let us = start.elapsed().as_secs_f64() * 1e6;
                (a.map_err(|e| e.to_string()), us)
            })
            .collect();
        let after = CCD_POINTS.get();
        let (mut hits, mut errors, mut fp, mut fneg, mut with_truth) = (0, 0, 0, 0, 0);
        let mut times = Vec::with_capacity(answers.len());
        for (i, ((a, us), q)) in answers.iter().zip(&queries).enumerate() {
            times.push(*us);
            let mut m = Map::new();
            m.insert("id".into(), json!(format!("{tag}#{i}")));
            match a {
                Ok(PointCcdAnswer::Hit(t)) => {
                    hits += 1;
                    m.insert("hit".into(), json!(true));
                    m.insert("toi".into(), time_value(t));
                }
                Ok(PointCcdAnswer::Miss) => {
                    m.insert("hit".into(), json!(false));
                }
                Err(e) => {
                    errors += 1;
                    m.insert("error".into(), json!(e));
                }
            }
            if let (Some(t), Ok(a)) = (q.truth, a) {
                with_truth += 1;
                let hit = matches!(a, PointCcdAnswer::Hit(_));
                m.insert("truth".into(), json!(t));
                fp += (hit && !t) as u32;
                fneg += (!hit && t) as u32;
            }
            m.insert("us".into(), json!((us * 1000.0).round() / 1000.0));
            if !args.summary_only {
                writeln!(out, "{}", Value::Object(m))?;
            }
        }
        let separated = delta.as_ref().is_some_and(|d| d.is_positive());
        all_ok &= errors == 0 && (fp == 0 || separated) && fneg == 0;
        let summary = json!({
            "file": path.display().to_string(),
            "kind": if kind == Kind::VertexFace { "vf" } else { "ee" },
            "queries": queries.len(),
            "hits": hits,
            "errors": errors,
            "truth": if with_truth > 0 {
                json!({"queries": with_truth, "false_positives": fp, "false_negatives": fneg})
            } else {
                Value::Null
            },
            "filter_decided": after.0 - before.0,
            "exact": after.1 - before.1,
            "time_us": distribution(&mut times),
        });
        writeln!(out, "{summary}")?;
    }
    out.flush()?;
    Ok(all_ok)
}

/// A `--min-distance` value: an exact rational or a decimal number, at least 0.
pub fn parse_min_distance(text: &str) -> Result<BigRational, String> {
    let d = exact_collision::protocol::number::parse_exact(text)?;
    if d.is_negative() {
        return Err("must be at least 0".into());
    }
    Ok(d)
}
