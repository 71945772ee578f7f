//! `exact-collision ccd QUERY.json [--plot out.svg]`: answer one `ccd` query
//! and optionally draw its constraint functions over t.

use super::limits::LimitOpts;
use super::query::path_error;
use exact_collision::ccd::boxes::{plot::plot_svg, sgm::Sgm};
use exact_collision::ccd::{ccd, relative, CcdAnswer};
use exact_collision::protocol::{answer_value, parse_query, Op};
use serde_json::Value;
use std::io::{Read, Write};
use std::path::PathBuf;

/// Answer one `ccd` query (a JSON file) and optionally plot its
/// Minkowski-sum constraint functions over t with the contact times marked.
#[derive(clap::Args)]
pub struct Args {
    /// The query file (one JSON object whose `op` is `ccd`).
    file: PathBuf,
    /// Write an SVG plot here.
    #[arg(long)]
    plot: Option<PathBuf>,
    #[command(flatten)]
    limits: LimitOpts,
}

/// Answers the query, prints the answer line, writes the plot if asked.
/// Returns whether the query was answered. Errors name the file: one that
/// cannot be read, is longer than `--max-line-bytes`, is not JSON, or holds
/// another query than a `ccd` one.
pub fn run(args: &Args) -> std::io::Result<bool> {
    args.limits.apply();
    let max = args.limits.max_line_bytes;
    let f = std::fs::File::open(&args.file).map_err(|e| path_error(&args.file, e))?;
    let mut text = String::new();
    f.take(max.saturating_add(1))
        .read_to_string(&mut text)
        .map_err(|e| path_error(&args.file, e))?;
    if text.len() as u64 > max {
        return Err(path_error(
            &args.file,
            format!("longer than the limit of {max} bytes, not read (raise it with --max-line-bytes; docs/limits.md)"),
        ));
    }
    let v: Value = serde_json::from_str(&text)
        .map_err(|e| path_error(&args.file, format!("malformed JSON: {e}")))?;
    match v.get("op") {
        Some(Value::String(op)) if op == "ccd" => {}
        op => {
            let what = match op {
                Some(Value::String(op)) => format!("holds an {op:?} query"),
                Some(_) => "has an \"op\" that is not a string".into(),
                None => "holds no \"op\"".into(),
            };
            return Err(path_error(
                &args.file,
                format!("{what}; `ccd` answers one \"ccd\" query (use `exact-collision query` for the others)"),
            ));
        }
    }
    let a = answer_value(&v);
    writeln!(std::io::stdout().lock(), "{}", a.value)?;
    if let Some(out) = &args.plot {
        let q = match parse_query(&v).map(|q| q.op) {
            Ok(Op::Ccd(q)) => q,
            _ => {
                eprintln!("--plot needs a valid ccd query");
                return Ok(false);
            }
        };
        let Ok(rel) = relative(&q) else {
            return Ok(false);
        };
        let times: Vec<f64> = match ccd(&q) {
            Ok(CcdAnswer::Hit {
                t_enter, t_exit, ..
            }) => vec![t_enter.f64, t_exit.f64],
            _ => Vec::new(),
        };
        let svg = plot_svg(&Sgm::new(rel), &q.t_range.0, &q.t_range.1, &times);
        std::fs::write(out, svg).map_err(|e| path_error(out, format!("--plot: {e}")))?;
    }
    Ok(a.ok)
}
