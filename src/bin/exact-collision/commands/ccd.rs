//! `exact-collision ccd QUERY.json [--plot out.svg]`: answer one `ccd` query
//! and optionally draw its constraint functions over t.

use exact_collision::ccd::{ccd, plot::plot_svg, relative, sgm::Sgm, CcdAnswer};
use exact_collision::protocol::{answer_value, parse_query, Op};
use serde_json::Value;
use std::path::PathBuf;

/// Answer one `ccd` query (a JSON file) and optionally plot seed 001's
/// constraint functions over t with the contact times marked.
#[derive(clap::Args)]
pub struct Args {
    /// The query file (one JSON object).
    file: PathBuf,
    /// Write an SVG plot here.
    #[arg(long)]
    plot: Option<PathBuf>,
}

/// Answers the query, prints the answer line, writes the plot if asked.
/// Returns whether the query was answered.
pub fn run(args: &Args) -> std::io::Result<bool> {
    let text = std::fs::read_to_string(&args.file)?;
    let v: Value = serde_json::from_str(&text)
        .map_err(|e| std::io::Error::new(std::io::ErrorKind::InvalidData, e))?;
    let a = answer_value(&v);
    println!("{}", a.value);
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
        std::fs::write(out, svg)?;
    }
    Ok(a.ok)
}
