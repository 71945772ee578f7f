//! The `exact-collision` program: JSON Lines in, exact answers out.
//!
//! One file per command under `commands/`; the library prints nothing and
//! parses no arguments.

mod commands;
mod quiet_pipe;

use clap::{Parser, Subcommand};
use std::process::ExitCode;

/// mimalloc instead of the system allocator: answers build many short-lived
/// big integers and vectors; measured with `../shared/throughput/measure`.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

const NUMBERS: &str = "\
NUMBERS: a JSON number is the nearest double to its text, and the input is that
double's exact binary value (0.1 means 0.1000000000000000055511151231257827…).
A JSON string is an exact rational: \"-12\", \"0.1\" (= 1/10), \"1.5e-3\", \"3/7\".
Exact results are written as lowest-terms strings (\"-7/3\") with an _f64
companion holding the nearest double. The protocol (shapes, boxes by pose, ops,
claims, errors, strict fields) is docs/protocol.md in the repository.";

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
    Query(commands::query::Args),
    /// Answer a JSON Lines file whose queries carry claims; print the answers with
    /// verdicts, then a summary on standard error. Exit status 1 if any claim
    /// disagrees or any line failed.
    Verify(commands::verify::Args),
    /// Reduce a query whose claim disagrees to a smaller one on which the same
    /// claim still disagrees (fewer bits, simple numbers, axis-aligned boxes).
    Shrink(commands::shrink::Args),
    /// Run published float algorithms as written (Nathan's cuboid and triangle
    /// tests, the cube listing, Eberly's box table) against the exact answers
    /// on generated hard cases; print the table of their errors.
    Audit(commands::audit::Args),
    /// Check parry3d (f32 and f64) against the exact answers on a protocol
    /// file or generated hard cases: intersection tests, distances, linear and
    /// nonlinear time of impact; every disagreement shrunk.
    #[cfg(feature = "parry")]
    CheckParry(commands::check_parry::Args),
    /// Print worked examples from the algorithms' source documents, answered exactly (the default).
    Demo,
    /// Two STL meshes: every intersecting triangle pair and the exact minimum
    /// distance.
    Mesh(commands::mesh::Args),
    /// Answer one `ccd` query (a JSON file) and optionally plot its constraint
    /// functions over t with the contact times marked.
    Ccd(commands::ccd::Args),
    /// Answer the CCD benchmark's CSV query files (vertex-face or edge-edge) on
    /// all cores: one JSON line per query, then a summary with the ground truth
    /// compared and the per-query time distribution.
    CcdCsv(commands::ccd_csv::Args),
    /// Exact continuous collision for a whole simulation step: two frames of a
    /// mesh (PLY, OBJ or STL), every vertex moving linearly; collision-free or
    /// the certified earliest time of impact and its pair.
    Step(commands::step::Args),
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.cmd.unwrap_or(Cmd::Demo) {
        Cmd::Demo => commands::demo::run(),
        Cmd::Query(a) => commands::query::run(&a),
        Cmd::Verify(a) => commands::verify::run(&a),
        Cmd::Shrink(a) => commands::shrink::run(&a),
        Cmd::Audit(a) => commands::audit::run(&a),
        #[cfg(feature = "parry")]
        Cmd::CheckParry(a) => commands::check_parry::run(&a),
        Cmd::Mesh(a) => commands::mesh::run(&a),
        Cmd::Ccd(a) => commands::ccd::run(&a),
        Cmd::CcdCsv(a) => commands::ccd_csv::run(&a),
        Cmd::Step(a) => commands::step::run(&a),
    };
    let code = match result {
        Ok(true) => 0,
        Ok(false) => 1,
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => return quiet_pipe::end(),
        Err(e) => {
            eprintln!("exact-collision: {e}");
            2
        }
    };
    end_now(code)
}

/// End the process once the command has returned, without the exit handlers.
///
/// A command has written, flushed and closed everything it opened by the time
/// it returns (its writers are dropped inside it). What the exit handlers
/// would add is the allocator's tidy-up: mimalloc, linked statically, frees
/// its heaps and hands every retained page back to the system page by page
/// (`madvise`), about 0.7 ms on one thread after `step`'s answer on
/// cloth-funnel (strace, write to `exit_group`: 0.9–1.0 ms, 0.2–0.3 ms
/// without), work the kernel does at once when the process goes. Standard
/// output's own buffer (a `print!` without a newline) is flushed here, as the
/// runtime would.
fn end_now(code: u8) -> ExitCode {
    use std::io::Write;
    // A flush error here is ignored, as the runtime's own flush at exit ignores it.
    let _ = std::io::stdout().flush();
    #[cfg(unix)]
    // SAFETY: `_exit` ends the process; no Rust code runs after it, and
    // nothing of this process is left half-written (above).
    unsafe {
        libc::_exit(i32::from(code))
    }
    #[allow(unreachable_code)]
    ExitCode::from(code)
}
