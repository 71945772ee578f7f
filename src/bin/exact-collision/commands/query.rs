//! `exact-collision query [FILE]`: answer a JSON Lines file, one answer per
//! line, in input order, on every core.
use super::limits::LimitOpts;
use exact_collision::protocol::{answer_bytes, answer_overlong, LineOutcome, LINES};
use exact_collision::stats;
use indicatif::{ProgressBar, ProgressStyle};
use std::collections::VecDeque;
use std::io::{self, BufRead, BufWriter, IsTerminal, Read, Write};
use std::num::NonZeroUsize;
use std::panic::{catch_unwind, resume_unwind, AssertUnwindSafe};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc::{channel, sync_channel};
use std::sync::{Arc, Mutex};

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

/// Lines read and answered as one batch: the bound on memory whatever the
/// file's length (a chunk ends at this many lines or bytes, whichever first).
const CHUNK_LINES: usize = 2048;
const CHUNK_BYTES: usize = 4 << 20;
/// Lines one task answers in a row (amortizes the scheduling).
const TASK_LINES: usize = 32;
/// Chunks being answered at once. The writer prints the oldest one's answers
/// as its tasks finish while the pool goes on with the next ones, so no core
/// waits for the writer or for the slowest task of a chunk. With the chunk the
/// reader fills and the one it hands over, at most `IN_FLIGHT + 2` chunks are
/// in memory whatever the input's length.
const IN_FLIGHT: usize = 3;

/// One task's answers: the output bytes of its lines and each line's outcome.
type TaskAnswers<T> = (Vec<u8>, Vec<T>);

/// A batch of input lines: their bytes, back to back, and where each ends.
struct Chunk {
    buf: Vec<u8>,
    ends: Vec<usize>,
    /// The number of the first line (from 1).
    first: usize,
    /// Input bytes consumed, line breaks included (for the progress bar).
    consumed: u64,
    /// The lines (indices) longer than `max_line`: kept empty, answered with
    /// an error.
    overlong: Vec<usize>,
    /// The line-length limit.
    max_line: u64,
}

impl Chunk {
    fn line(&self, i: usize) -> &[u8] {
        let start = if i == 0 { 0 } else { self.ends[i - 1] };
        &self.buf[start..self.ends[i]]
    }

    /// Answer lines `range` in order into one buffer, with `f` (a line, its
    /// number, the output). A line over the length limit gets its error
    /// answer here, and `f` is called with `None` for its outcome.
    fn answer<T>(&self, range: std::ops::Range<usize>, f: &AnswerFn<'_, T>) -> (Vec<u8>, Vec<T>) {
        let mut out = Vec::with_capacity(256 * range.len());
        let outcomes = range
            .map(|i| {
                if self.overlong.binary_search(&i).is_ok() {
                    let a = answer_overlong(self.first + i, self.max_line);
                    // Writing to a Vec cannot fail.
                    let _ = serde_json::to_writer(&mut out, &a.value);
                    out.push(b'\n');
                    f(None, self.first + i, &mut out)
                } else {
                    f(Some(self.line(i)), self.first + i, &mut out)
                }
            })
            .collect();
        (out, outcomes)
    }

    /// The number of tasks the chunk is answered in.
    fn tasks(&self) -> usize {
        self.ends.len().div_ceil(TASK_LINES)
    }

    /// Task `k`'s answers: lines `k * TASK_LINES..` (at most `TASK_LINES`).
    fn answer_task<T>(&self, k: usize, f: &AnswerFn<'_, T>) -> TaskAnswers<T> {
        let n = self.ends.len();
        self.answer(k * TASK_LINES..((k + 1) * TASK_LINES).min(n), f)
    }
}

/// A chunk whose tasks are on the pool. Each task leaves its answers (or the
/// panic it raised, raised again by the writer) in its slot; the task that
/// finishes last tells the writer, which then prints the whole chunk. One
/// wake-up of the writer per chunk, not per task: a wake-up per task (64 per
/// chunk) cost a context switch each, more than the writer's own work.
struct InFlight<T> {
    chunk: Arc<Chunk>,
    slots: Arc<Slots<T>>,
    /// Every task has finished.
    done: bool,
}

/// The answers of a chunk's tasks and how many are still running.
struct Slots<T> {
    answers: Vec<Mutex<Option<std::thread::Result<TaskAnswers<T>>>>>,
    running: AtomicUsize,
}

/// Sets the flag when dropped: the writer has stopped (an output or input
/// error, a panic), so the tasks still queued skip their lines instead of
/// answering what nobody will print.
struct StopOnDrop<'a>(&'a AtomicBool);

impl Drop for StopOnDrop<'_> {
    fn drop(&mut self) {
        self.0.store(true, Ordering::Relaxed);
    }
}

/// Append the next line to `buf` without its `\n`, keeping at most `max`
/// bytes of it: a longer line is consumed to its end but not kept (`buf` is
/// left as it was), so memory stays bounded whatever the input. Returns the
/// bytes consumed (0 at the end of the input) and whether the line was longer
/// than `max`.
pub fn read_line_bounded(
    input: &mut dyn BufRead,
    buf: &mut Vec<u8>,
    max: u64,
) -> io::Result<(u64, bool)> {
    let start = buf.len();
    let (mut consumed, mut over) = (0u64, false);
    loop {
        let avail = match input.fill_buf() {
            Ok(avail) => avail,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if avail.is_empty() {
            return Ok((consumed, over)); // The end: a last line without `\n`, or none.
        }
        // The `memchr` crate's SIMD search: the reader's time per line bounds
        // a parallel run (docs/protocol.md, "Throughput on several cores").
        let (used, end) = match memchr::memchr(b'\n', avail) {
            Some(i) => (i + 1, true),
            None => (avail.len(), false),
        };
        let part = &avail[..used - usize::from(end)];
        if !over {
            if (buf.len() - start + part.len()) as u64 > max {
                // Longer than max: drop what was kept, skip the rest unkept.
                over = true;
                buf.truncate(start);
            } else {
                buf.extend_from_slice(part);
            }
        }
        input.consume(used);
        consumed += used as u64;
        if end {
            return Ok((consumed, over));
        }
    }
}

/// Read the next chunk (`None` at the end). Lines are split on bytes, so that a
/// line that is not UTF-8 is answered with an error of its own instead of
/// ending the stream; a line longer than `max_line` is not kept.
fn read_chunk(input: &mut dyn BufRead, first: usize, max_line: u64) -> io::Result<Option<Chunk>> {
    // Reserved up front: growing by doubling copies the chunk several times
    // (pages never touched cost no memory).
    let mut c = Chunk {
        buf: Vec::with_capacity(CHUNK_BYTES),
        ends: Vec::with_capacity(CHUNK_LINES),
        first,
        consumed: 0,
        overlong: Vec::new(),
        max_line,
    };
    while c.ends.len() < CHUNK_LINES && c.buf.len() < CHUNK_BYTES {
        let (n, over) = read_line_bounded(input, &mut c.buf, max_line)?;
        if n == 0 {
            break;
        }
        c.consumed += n;
        if over {
            c.overlong.push(c.ends.len());
        }
        c.ends.push(c.buf.len());
    }
    Ok((!c.ends.is_empty()).then_some(c))
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

/// How one line is answered: its bytes (`None` for a line over the length
/// limit, whose error is already written), its number (from 1), the output to
/// append the answer to; what it returns is handed to the caller in order.
pub type AnswerFn<'a, T> = dyn Fn(Option<&[u8]>, usize, &mut Vec<u8>) -> T + Sync + 'a;

/// Stream the lines of `input`, print each answer in input order, call `seen`
/// on each. Lines are answered in chunks on `opts.jobs` threads (a reader
/// thread reads the next chunk meanwhile, up to `IN_FLIGHT` chunks are
/// answered at once), so memory stays bounded.
pub fn stream(
    input: Box<dyn BufRead + Send>,
    len: Option<u64>,
    opts: &RunOpts,
    seen: impl FnMut(LineOutcome),
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

/// [`stream`] with another line answerer `f` (`verify` judges claims with it).
pub fn stream_with<T: Send>(
    input: Box<dyn BufRead + Send>,
    len: Option<u64>,
    opts: &RunOpts,
    f: &AnswerFn<'_, T>,
    mut seen: impl FnMut(T),
) -> io::Result<()> {
    opts.limits.apply();
    let max_line = opts.limits.max_line_bytes;
    let jobs = opts
        .jobs
        .or_else(|| std::thread::available_parallelism().ok())
        .map_or(1, NonZeroUsize::get);
    let stdout = io::stdout();
    let mut out = BufWriter::with_capacity(1 << 16, stdout.lock());
    let bar = progress(len);
    let mut lines = 0usize;
    // The answers of one task, then the end of a chunk: called in input order.
    let mut write = |(text, outcomes): TaskAnswers<T>| -> io::Result<()> {
        out.write_all(&text)?;
        outcomes.into_iter().for_each(&mut seen);
        Ok(())
    };
    let mut chunk_done = |c: &Chunk| {
        lines += c.ends.len();
        if len.is_some() {
            bar.inc(c.consumed);
        }
        if !bar.is_hidden() {
            bar.set_message(format!("{lines} lines"));
        }
    };
    let run = || -> io::Result<()> {
        if jobs == 1 {
            // One thread: read, answer and write in turn.
            let mut input = input;
            let mut first = 1;
            while let Some(c) = read_chunk(&mut input, first, max_line)? {
                first += c.ends.len();
                for k in 0..c.tasks() {
                    write(c.answer_task(k, f))?;
                }
                chunk_done(&c);
            }
            return Ok(());
        }
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(jobs)
            .build()
            .map_err(io::Error::other)?;
        let stop = AtomicBool::new(false);
        std::thread::scope(|s| {
            // The reader reads a chunk ahead and hands it over.
            let (tx, rx) = sync_channel::<io::Result<Chunk>>(1);
            s.spawn(move || {
                let mut input = input;
                let mut first = 1;
                loop {
                    let c = match read_chunk(&mut input, first, max_line) {
                        Ok(Some(c)) => c,
                        Ok(None) => break,
                        Err(e) => {
                            let _ = tx.send(Err(e));
                            break;
                        }
                    };
                    first += c.ends.len();
                    if tx.send(Ok(c)).is_err() {
                        break; // The writer stopped (an output error).
                    }
                }
            });
            // This thread (not one of the pool's) queues the tasks of up to
            // IN_FLIGHT chunks, oldest first (rayon takes tasks queued from
            // outside the pool in order), and writes each task's answers in
            // input order as they come; the scope waits for every task.
            pool.in_place_scope(|scope| {
                let _stop = StopOnDrop(&stop);
                // The sequence numbers of finished chunks.
                let (done_tx, done_rx) = channel::<usize>();
                let mut ring: VecDeque<InFlight<T>> = VecDeque::with_capacity(IN_FLIGHT);
                // The sequence number of ring[0] (chunks from 0).
                let mut front_seq = 0;
                let mut reading = true;
                loop {
                    while reading && ring.len() < IN_FLIGHT {
                        let Ok(c) = rx.recv() else {
                            reading = false; // The reader is done.
                            break;
                        };
                        let chunk = Arc::new(c?);
                        let seq = front_seq + ring.len();
                        let tasks = chunk.tasks();
                        let slots = Arc::new(Slots {
                            answers: (0..tasks).map(|_| Mutex::new(None)).collect(),
                            running: AtomicUsize::new(tasks),
                        });
                        for k in 0..tasks {
                            let (chunk, slots, done, stop) = (
                                Arc::clone(&chunk),
                                Arc::clone(&slots),
                                done_tx.clone(),
                                &stop,
                            );
                            scope.spawn(move |_| {
                                if !stop.load(Ordering::Relaxed) {
                                    let a =
                                        catch_unwind(AssertUnwindSafe(|| chunk.answer_task(k, f)));
                                    *slots.answers[k].lock().unwrap_or_else(|e| e.into_inner()) =
                                        Some(a);
                                }
                                if slots.running.fetch_sub(1, Ordering::AcqRel) == 1 {
                                    // The writer is gone when this fails.
                                    let _ = done.send(seq);
                                }
                            });
                        }
                        ring.push_back(InFlight {
                            chunk,
                            slots,
                            done: false,
                        });
                    }
                    let Some(front) = ring.front_mut() else {
                        return Ok(());
                    };
                    if !front.done {
                        // Wait for the oldest chunk (others may finish first).
                        let seq = done_rx.recv().expect("this thread holds a sender");
                        ring[seq - front_seq].done = true;
                        continue;
                    }
                    for slot in &front.slots.answers {
                        let a = slot.lock().unwrap_or_else(|e| e.into_inner()).take();
                        let a = a.expect("a finished task left its answers");
                        write(a.unwrap_or_else(|p| resume_unwind(p)))?;
                    }
                    chunk_done(&front.chunk);
                    ring.pop_front();
                    front_seq += 1;
                }
            })
        })
    };
    let result = run();
    bar.finish_and_clear();
    result?;
    out.flush()?;
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
