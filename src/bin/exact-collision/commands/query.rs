//! `exact-collision query [FILE]`: answer a JSON Lines file, one answer per
//! line, in input order, on every core.
use super::limits::LimitOpts;
use super::pipeline::{self, AnswerFn, Sink};
use exact_collision::protocol::{answer_bytes, LineOutcome, LINES};
use exact_collision::stats;
use indicatif::{ProgressBar, ProgressStyle};
use std::io::{self, BufRead, BufWriter, IsTerminal, Read, Write};
use std::num::NonZeroUsize;
use std::path::{Path, PathBuf};

/// Answer a JSON Lines file (standard input by default).
#[derive(clap::Args)]
pub struct Args {
    /// The input file; `-` or nothing for standard input.
    file: Option<PathBuf>,
    #[command(flatten)]
    run: RunOpts,
}

/// How a file of queries is answered (`query` and `verify`).
#[derive(clap::Args)]
pub struct RunOpts {
    /// Answer on N threads (default: every core). The answers are printed in
    /// input order whatever N is.
    #[arg(long, short = 'j', value_name = "N")]
    jobs: Option<NonZeroUsize>,
    /// After the run, print on standard error how many lines the lean parser
    /// read and how many answers each fast path gave (and how many needed the
    /// exhaustive exact fallback).
    #[arg(long)]
    stats: bool,
    #[command(flatten)]
    pub limits: LimitOpts,
}

/// A file's reader whose errors name the file.
struct Named<R> {
    inner: R,
    path: PathBuf,
}

impl<R> Named<R> {
    fn err(&self, e: io::Error) -> io::Error {
        io::Error::new(e.kind(), format!("{}: {e}", self.path.display()))
    }
}

impl<R: Read> Read for Named<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        self.inner.read(buf).map_err(|e| self.err(e))
    }
}

impl<R: BufRead> BufRead for Named<R> {
    fn fill_buf(&mut self) -> io::Result<&[u8]> {
        // (Two steps: the borrow checker does not see through the match.)
        if let Err(e) = self.inner.fill_buf() {
            return Err(self.err(e));
        }
        self.inner.fill_buf()
    }
    fn consume(&mut self, n: usize) {
        self.inner.consume(n)
    }
}

/// `path: error` for an error about a file.
pub fn path_error(path: &Path, e: impl std::fmt::Display) -> io::Error {
    io::Error::other(format!("{}: {e}", path.display()))
}

/// Open `file` (standard input for `None` or `-`), with its length when known.
pub fn open(file: Option<&PathBuf>) -> io::Result<(Box<dyn BufRead + Send>, Option<u64>)> {
    Ok(match file {
        Some(p) if p.as_os_str() != "-" => {
            let f = std::fs::File::open(p).map_err(|e| path_error(p, e))?;
            let meta = f.metadata().map_err(|e| path_error(p, e))?;
            if meta.is_dir() {
                return Err(path_error(p, "is a directory, not a file of queries"));
            }
            let inner = io::BufReader::with_capacity(1 << 16, f);
            let named = Named {
                inner,
                path: p.clone(),
            };
            (Box::new(named), Some(meta.len()))
        }
        _ => (Box::new(io::BufReader::new(io::stdin())), None),
    })
}

/// A progress bar on standard error when it is a terminal (by bytes when the
/// input's length is known, else a line count); nothing when it is not.
fn progress(len: Option<u64>) -> ProgressBar {
    if !io::stderr().is_terminal() {
        return ProgressBar::hidden();
    }
    match len {
        Some(len) => {
            let pb = ProgressBar::new(len);
            pb.set_style(
                ProgressStyle::with_template(
                    "{spinner} [{bar:40}] {bytes}/{total_bytes} {msg} ({eta})",
                )
                .unwrap_or_else(|_| ProgressStyle::default_bar()),
            );
            pb
        }
        None => {
            let pb = ProgressBar::new_spinner();
            pb.set_style(
                ProgressStyle::with_template("{spinner} {msg}")
                    .unwrap_or_else(|_| ProgressStyle::default_spinner()),
            );
            pb
        }
    }
}

/// Stream the lines of `input`, print each answer in input order, call `seen`
/// on each. Lines are answered in chunks on `opts.jobs` threads (see
/// [`pipeline`](super::pipeline)), so memory stays bounded.
pub fn stream(
    input: Box<dyn BufRead + Send>,
    len: Option<u64>,
    opts: &RunOpts,
    seen: impl FnMut(LineOutcome) + Send,
) -> io::Result<()> {
    stream_with(
        input,
        len,
        opts,
        &|line, no, out| match line {
            Some(line) => answer_bytes(line, no, out),
            None => LineOutcome {
                ok: false,
                agrees: None,
                lean: false,
            },
        },
        seen,
    )
}

/// Prints the answers on standard output, hands each outcome to `seen` and
/// moves the progress bar, in input order (on whichever thread prints).
struct Printer<'b, F> {
    out: BufWriter<io::Stdout>,
    seen: F,
    bar: &'b ProgressBar,
    /// Whether the bar counts bytes (the input's length is known).
    by_bytes: bool,
    lines: usize,
}

impl<T, F: FnMut(T)> Sink<T> for Printer<'_, F> {
    fn task(&mut self, text: &[u8], outcomes: std::vec::Drain<'_, T>) -> io::Result<()> {
        self.out.write_all(text)?;
        outcomes.for_each(&mut self.seen);
        Ok(())
    }

    fn chunk_done(&mut self, lines: usize, consumed: u64) {
        self.lines += lines;
        if self.by_bytes {
            self.bar.inc(consumed);
        }
        if !self.bar.is_hidden() {
            self.bar.set_message(format!("{} lines", self.lines));
        }
    }
}

/// [`stream`] with another line answerer `f` (`verify` judges claims with it).
pub fn stream_with<T: Send>(
    input: Box<dyn BufRead + Send>,
    len: Option<u64>,
    opts: &RunOpts,
    f: &AnswerFn<'_, T>,
    seen: impl FnMut(T) + Send,
) -> io::Result<()> {
    opts.limits.apply();
    let jobs = opts
        .jobs
        .or_else(|| std::thread::available_parallelism().ok())
        .map_or(1, NonZeroUsize::get);
    let bar = progress(len);
    let mut printer = Printer {
        out: BufWriter::with_capacity(1 << 16, io::stdout()),
        seen,
        bar: &bar,
        by_bytes: len.is_some(),
        lines: 0,
    };
    let result = pipeline::run(input, jobs, opts.limits.max_line_bytes, f, &mut printer);
    bar.finish_and_clear();
    result?;
    printer.out.flush()?;
    if opts.stats {
        print_stats();
    }
    Ok(())
}

/// The counters on standard error: lines read by the lean parser and by the
/// general one, then each fast path's answers and fallbacks.
fn print_stats() {
    let (lean, general) = LINES.get();
    eprintln!("stats: lines: {lean} lean parse, {general} general parse");
    for (name, fast, fallback) in stats::snapshot() {
        let share = 100.0 * fallback as f64 / (fast + fallback) as f64;
        eprintln!("stats: {name}: {fast} fast, {fallback} fallback ({share:.1}% fallback)");
    }
}

/// Answer the file; Ok(false) when any line failed.
pub fn run(args: &Args) -> io::Result<bool> {
    let (input, len) = open(args.file.as_ref())?;
    let mut all_ok = true;
    stream(input, len, &args.run, |a| all_ok &= a.ok)?;
    Ok(all_ok)
}
