//! `exact-collision verify FILE`: answer queries that carry claims and judge
//! each claim against the exact answer.
use super::query::{open, stream, RunOpts};
use std::path::PathBuf;

/// Answer a JSON Lines file whose queries carry claims.
#[derive(clap::Args)]
pub struct Args {
    /// The input file.
    file: PathBuf,
    #[command(flatten)]
    run: RunOpts,
}

/// Print the answers with verdicts, then a summary on standard error.
/// Ok(false) when any claim disagrees or any line failed.
pub fn run(args: &Args) -> std::io::Result<bool> {
    let (input, len) = open(Some(&args.file))?;
    let (mut n, mut agree, mut disagree, mut failed, mut unclaimed) = (0, 0, 0, 0, 0);
    stream(input, len, &args.run, |a| {
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
}
