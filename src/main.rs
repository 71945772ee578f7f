//! The `exact-collision` program: JSON Lines in, exact answers out.

use clap::{Parser, Subcommand};
use exact_collision::protocol::{answer_invalid_utf8, answer_line, Answer};
use std::io::{self, BufRead, BufWriter, Write};
use std::path::PathBuf;
use std::process::ExitCode;

const NUMBERS: &str = "\
NUMBERS: a JSON number is the nearest double to its text, and the input is that
double's exact binary value (0.1 means 0.1000000000000000055511151231257827…).
A JSON string is an exact rational: \"-12\", \"0.1\" (= 1/10), \"1.5e-3\", \"3/7\".
Exact results are written as lowest-terms strings (\"-7/3\") with an _f64
companion holding the nearest double. See the protocol in README.md.";

#[derive(Parser)]
#[command(name = "exact-collision", version, about = "Collision queries answered exactly, with certificates", after_help = NUMBERS)]
struct Cli {
    #[command(subcommand)]
    cmd: Option<Cmd>,
}

#[derive(Subcommand)]
enum Cmd {
    /// Answer a JSON Lines file (standard input by default), one answer per line,
    /// in order. Exit status 1 if any line failed.
    #[command(after_help = NUMBERS)]
    Query {
        /// The input file; `-` or nothing for standard input.
        file: Option<PathBuf>,
    },
    /// Answer a JSON Lines file whose queries carry claims; print the answers with
    /// verdicts, then a summary on standard error. Exit status 1 if any claim
    /// disagrees or any line failed.
    Verify {
        /// The input file.
        file: PathBuf,
    },
    /// Print the seed documents' worked examples, answered exactly (the default).
    Demo,
    /// Two STL meshes: every intersecting triangle pair and the exact minimum
    /// distance (`exact-collision mesh --help` for the options).
    Mesh {
        /// A.stl B.stl [--translate X,Y,Z] [--rotate W,X,Y,Z] [--all-pairs] [--no-distance]
        #[arg(trailing_var_arg = true, allow_hyphen_values = true)]
        args: Vec<String>,
    },
    /// Answer one `ccd` query (a JSON file) and optionally plot seed 001's
    /// constraint functions over t with the contact times marked.
    Ccd {
        /// The query file (one JSON object).
        file: PathBuf,
        /// Write an SVG plot here.
        #[arg(long)]
        plot: Option<PathBuf>,
    },
}

fn open(file: Option<&PathBuf>) -> io::Result<Box<dyn BufRead>> {
    Ok(match file {
        None => Box::new(io::stdin().lock()),
        Some(p) if p.as_os_str() == "-" => Box::new(io::stdin().lock()),
        Some(p) => Box::new(io::BufReader::new(std::fs::File::open(p)?)),
    })
}

/// Stream the lines of `input`, print each answer, call `seen` on each.
fn stream(input: Box<dyn BufRead>, mut seen: impl FnMut(&Answer)) -> io::Result<()> {
    let stdout = io::stdout();
    let mut out = BufWriter::new(stdout.lock());
    // Lines are split on bytes, so that a line that is not UTF-8 is answered
    // with an error of its own instead of ending the stream.
    for (i, line) in input.split(b'\n').enumerate() {
        let mut line = line?;
        if line.last() == Some(&b'\r') {
            line.pop();
        }
        let a = match std::str::from_utf8(&line) {
            Ok(text) => answer_line(text, i + 1),
            Err(_) => answer_invalid_utf8(i + 1),
        };
        writeln!(out, "{}", a.value)?;
        seen(&a);
    }
    out.flush()
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.cmd.unwrap_or(Cmd::Demo) {
        Cmd::Demo => {
            print!("{}", exact_collision::demo::render());
            Ok(true)
        }
        Cmd::Mesh { args } => exact_collision::mesh::cli::run(&args),
        Cmd::Ccd { file, plot } => exact_collision::ccd::cli::run(&file, plot.as_deref()),
        Cmd::Query { file } => open(file.as_ref()).and_then(|input| {
            let mut all_ok = true;
            stream(input, |a| all_ok &= a.ok)?;
            Ok(all_ok)
        }),
        Cmd::Verify { file } => open(Some(&file)).and_then(|input| {
            let (mut n, mut agree, mut disagree, mut failed, mut unclaimed) = (0, 0, 0, 0, 0);
            stream(input, |a| {
                n += 1;
                match (a.ok, a.agrees) {
                    (false, _) => failed += 1,
                    (true, Some(true)) => agree += 1,
                    (true, Some(false)) => disagree += 1,
                    (true, None) => unclaimed += 1,
                }
            })?;
            eprintln!("summary: {n} queries, {agree} agree, {disagree} disagree, {unclaimed} without a claim, {failed} failed");
            Ok(disagree == 0 && failed == 0)
        }),
    };
    match result {
        Ok(true) => ExitCode::SUCCESS,
        Ok(false) => ExitCode::from(1),
        Err(e) => {
            eprintln!("exact-collision: {e}");
            ExitCode::from(2)
        }
    }
}
