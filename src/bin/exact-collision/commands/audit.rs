//! `exact-collision audit`: published float algorithms as written
//! against the exact answers on the hard-case generators.
use exact_collision::audit::run::{audit, ALGORITHMS};
use serde_json::json;
use std::io::{self, Write};
use std::path::PathBuf;

/// Audit the as-published algorithms on generated hard cases.
#[derive(clap::Args)]
pub struct Args {
    /// How many cases to generate (spread over the case families).
    #[arg(long, default_value_t = 600)]
    cases: usize,
    /// The generator's seed.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Write the shrunk counterexamples into DIR, one JSON Lines file per
    /// algorithm (each line a query with the algorithm's answer as its claim,
    /// ready for `exact-collision verify`).
    #[arg(long, value_name = "DIR")]
    out: Option<PathBuf>,
    /// Counterexamples kept (and shrunk) per algorithm, family and failure.
    #[arg(long, default_value_t = 2)]
    keep: usize,
}

/// Print the table; Ok(true) (disagreements are the audit's findings, not a
/// failure of the program).
pub fn run(args: &Args) -> io::Result<bool> {
    let keep = if args.out.is_some() { args.keep } else { 0 };
    let r = audit(args.cases, args.seed, keep);
    let mut out = io::BufWriter::new(io::stdout().lock());
    write!(out, "{}", r.table())?;
    writeln!(out)?;
    for (name, what) in ALGORITHMS {
        writeln!(out, "{name}: {what}")?;
    }
    out.flush()?;
    if let Some(dir) = &args.out {
        std::fs::create_dir_all(dir)?;
        for (name, _) in ALGORITHMS {
            let mut f =
                io::BufWriter::new(std::fs::File::create(dir.join(format!("{name}.jsonl")))?);
            for c in r.counterexamples.iter().filter(|c| c.algorithm == name) {
                let mut line = c.shrunk.clone();
                if let Some(o) = line.as_object_mut() {
                    o.insert(
                        "meta".into(),
                        json!({"algorithm": c.algorithm, "failure": c.failure.name(), "family": c.family, "as_generated": c.line}),
                    );
                }
                writeln!(f, "{line}")?;
            }
            f.flush()?;
        }
        eprintln!(
            "audit: {} shrunk counterexamples written to {}",
            r.counterexamples.len(),
            dir.display()
        );
    }
    Ok(true)
}
