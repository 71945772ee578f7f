//! `exact-collision check-parry`: parry3d (f32 and f64) against the exact
//! answers, on a protocol file or on generated hard cases.
use exact_collision::engines::parry::{case_from_query, check, check_random, Options, Report};
use exact_collision::protocol::Tolerances;
use num_rational::BigRational;
use serde_json::Value;
use std::io::{self, BufRead, Write};
use std::path::PathBuf;

/// Check parry3d on a protocol file or generated hard cases.
#[derive(clap::Args)]
pub struct Args {
    /// A protocol file: its pairs of triangles, boxes (with or without a
    /// `radius`), spheres, capsules and convex shapes (without a `radius`)
    /// are given to parry; other lines are skipped.
    #[arg(conflicts_with = "random")]
    file: Option<PathBuf>,
    /// Generate N hard cases of triangles and boxes, N of rounded shapes
    /// (and N/4 spinning boxes) instead.
    #[arg(long, value_name = "N")]
    random: Option<usize>,
    /// The generator's seed.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Absolute tolerance (default per engine: see docs/check-parry.md).
    #[arg(long, value_name = "TOL", value_parser = super::verify::tolerance)]
    abs: Option<BigRational>,
    /// Relative tolerance (default per engine).
    #[arg(long, value_name = "TOL", value_parser = super::verify::tolerance)]
    rel: Option<BigRational>,
    /// Do not shrink the disagreements.
    #[arg(long)]
    no_shrink: bool,
    /// Shrink only the first K disagreements of each engine, check and
    /// family (the others are written as found).
    #[arg(long, value_name = "K", conflicts_with = "no_shrink")]
    shrink_per_family: Option<usize>,
    /// Write every disagreement (shrunk when shrinking) as a protocol line
    /// with parry's claim to FILE, ready for `exact-collision verify`.
    #[arg(long, value_name = "FILE")]
    out: Option<PathBuf>,
}

/// Print the table and every disagreement; Ok(false) when parry disagrees
/// anywhere.
pub fn run(args: &Args) -> io::Result<bool> {
    let o = Options {
        tol: Tolerances {
            abs: args.abs.clone(),
            rel: args.rel.clone(),
        },
        shrink: !args.no_shrink,
        shrink_per_family: args.shrink_per_family,
        keep_lines: false,
    };
    let r: Report = match (&args.file, args.random) {
        (Some(f), _) => {
            let file = io::BufReader::new(std::fs::File::open(f)?);
            let mut cases = Vec::new();
            let mut skipped = 0;
            for line in file.lines() {
                let line = line?;
                match serde_json::from_str::<Value>(&line)
                    .ok()
                    .as_ref()
                    .and_then(case_from_query)
                {
                    Some(c) => cases.push(c),
                    None => skipped += 1,
                }
            }
            if skipped > 0 {
                eprintln!(
                    "check-parry: {skipped} lines skipped (not a pair of shapes parry holds)"
                );
            }
            check(&cases, &[], &o)
        }
        (None, n) => check_random(n.unwrap_or(100), args.seed, &o),
    };
    // A locked stdout with every write error passed up (a closed pipe ends
    // the program quietly in main, see quiet_pipe.rs).
    let mut so = io::BufWriter::new(io::stdout().lock());
    write!(so, "{}", r.table())?;
    writeln!(so, "\ncontact_manifolds points (every point judged; off: outside the contact region's tolerance):")?;
    write!(so, "{}", r.points_table())?;
    for (e, c, f, why) in &r.skips {
        writeln!(so, "skipped: {e} {} [{f}]: {why}", c.name())?;
    }
    let mut out = match &args.out {
        Some(p) => Some(io::BufWriter::new(std::fs::File::create(p)?)),
        None => None,
    };
    for f in &r.findings {
        writeln!(
            so,
            "\n{} {} [{}]: {}",
            f.engine,
            f.check.name(),
            f.family,
            f.detail
        )?;
        let line = if f.shrunk.is_null() {
            &f.line
        } else {
            &f.shrunk
        };
        let label = if f.shrunk.is_null() {
            "line:"
        } else {
            "shrunk:"
        };
        writeln!(so, "  {label}")?;
        writeln!(so, "  {line}")?;
        if let Some(o) = out.as_mut() {
            writeln!(o, "{line}")?;
        }
    }
    so.flush()?;
    if let Some(mut o) = out {
        o.flush()?;
    }
    Ok(r.findings.is_empty())
}
