//! `exact-collision shrink LINE`: reduce a query whose claim disagrees to a
//! smaller one on which the same claim still disagrees.
use exact_collision::protocol::{answer_value_with, Tolerances};
use exact_collision::shrink::{line_len, shrink_claim};
use num_rational::BigRational;
use serde_json::Value;
use std::io::{self, BufRead, Write};

/// Shrink one disagreeing query line.
#[derive(clap::Args)]
pub struct Args {
    /// The query line (a JSON object with a `claim`); `-` reads it from
    /// standard input.
    line: String,
    /// Absolute tolerance, as for `verify --abs`.
    #[arg(long, value_name = "TOL", value_parser = super::verify::tolerance)]
    abs: Option<BigRational>,
    /// Relative tolerance, as for `verify --rel`.
    #[arg(long, value_name = "TOL", value_parser = super::verify::tolerance)]
    rel: Option<BigRational>,
}

/// Print the shrunk line on standard output, the sizes on standard error.
/// Ok(false) when the line is not a query whose claim disagrees.
pub fn run(args: &Args) -> io::Result<bool> {
    let text = if args.line == "-" {
        let mut l = String::new();
        io::stdin().lock().read_line(&mut l)?;
        l
    } else {
        args.line.clone()
    };
    let q: Value = match serde_json::from_str(text.trim()) {
        Ok(v) => v,
        Err(e) => {
            eprintln!("shrink: malformed JSON: {e}");
            return Ok(false);
        }
    };
    let tol = Tolerances {
        abs: args.abs.clone(),
        rel: args.rel.clone(),
    };
    match shrink_claim(&q, &tol) {
        Some(small) => {
            writeln!(io::stdout().lock(), "{small}")?;
            let detail = answer_value_with(&small, &tol).0.value["detail"].clone();
            eprintln!(
                "shrink: {} → {} bytes; still disagrees: {}",
                line_len(&q),
                line_len(&small),
                detail.as_str().unwrap_or("")
            );
            Ok(true)
        }
        None => {
            let a = answer_value_with(&q, &tol).0.value;
            eprintln!("shrink: nothing to shrink: the claim does not disagree ({a})");
            Ok(false)
        }
    }
}
