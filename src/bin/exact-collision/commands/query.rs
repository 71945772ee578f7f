//! `exact-collision query [FILE]`: answer a JSON Lines file, one answer per
//! line, in input order.

use exact_collision::protocol::{answer_invalid_utf8, answer_line, Answer};
use std::io::{self, BufRead, BufWriter, Write};
use std::path::PathBuf;

/// Answer a JSON Lines file (standard input by default).
#[derive(clap::Args)]
pub struct Args {
    /// The input file; `-` or nothing for standard input.
    file: Option<PathBuf>,
}

/// Open `file` (standard input for `None` or `-`).
pub fn open(file: Option<&PathBuf>) -> io::Result<Box<dyn BufRead>> {
    Ok(match file {
        None => Box::new(io::stdin().lock()),
        Some(p) if p.as_os_str() == "-" => Box::new(io::stdin().lock()),
        Some(p) => Box::new(io::BufReader::new(std::fs::File::open(p)?)),
    })
}

/// Stream the lines of `input`, print each answer, call `seen` on each.
pub fn stream(input: Box<dyn BufRead>, mut seen: impl FnMut(&Answer)) -> io::Result<()> {
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

/// Answer the file; Ok(false) when any line failed.
pub fn run(args: &Args) -> io::Result<bool> {
    let input = open(args.file.as_ref())?;
    let mut all_ok = true;
    stream(input, |a| all_ok &= a.ok)?;
    Ok(all_ok)
}
