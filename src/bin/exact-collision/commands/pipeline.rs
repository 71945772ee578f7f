//! The line pipeline of `query` and `verify`: the input read in chunks of
//! lines, each chunk answered in tasks of [`TASK_LINES`] lines on `jobs`
//! threads, the answers printed in input order, memory bounded whatever the
//! input's length.
//!
//! There is no reader thread and no writer thread: on N threads, N workers run,
//! and each in turn takes whichever role is free and has work, in this order:
//!
//! 1. the printer: print the answers that are next in input order (one worker
//!    at a time; the others answer meanwhile);
//! 2. the reader: read the next chunk when every chunk read has started (one
//!    worker at a time), so a whole chunk of tasks is always queued while the
//!    next is read;
//! 3. an answerer: answer the next task, oldest chunk first.
//!
//! A worker waits (on a condition variable) only when none of these has work:
//! at the start, while the first chunk is read; at the end; and when
//! [`MAX_CHUNKS`] chunks are in memory and the oldest waits for a slow task.
//! So the cores never share time with a reader or a writer thread, and no
//! thread is woken per chunk: before, a reader and a writer thread beside a
//! rayon pool were woken about three times per chunk, each time taking a core
//! from a worker.
//!
//! Written by hand: rayon's pool runs tasks but neither reads ahead nor prints
//! in order, so it needed those two extra threads; no crate we know of
//! provides an ordered pipeline whose workers take turns at reading and
//! printing. The scheduling is one mutex-guarded state, taken once per task.

use std::any::Any;
use std::collections::VecDeque;
use std::io::{self, BufRead};
use std::panic::{catch_unwind, resume_unwind, AssertUnwindSafe};
use std::sync::{Arc, Condvar, Mutex, MutexGuard, PoisonError};

/// Lines read and answered as one batch (a chunk ends at this many lines or
/// bytes, whichever first).
pub const CHUNK_LINES: usize = 2048;
/// A chunk's bytes (it ends with the line that reaches this).
pub const CHUNK_BYTES: usize = 4 << 20;
/// Lines one task answers in a row (amortizes the scheduling).
pub const TASK_LINES: usize = 32;
/// Chunks in memory at once, the one being read included: the bound on
/// memory. With one chunk always queued whole, the workers answer up to four
/// chunks ahead of the printer before they wait for a slow task.
pub const MAX_CHUNKS: usize = 5;

/// How one line is answered: its bytes (`None` for a line over the length
/// limit, whose error is already written), its number (from 1), the output to
/// append the answer to; what it returns is handed to the [`Sink`] in order.
pub type AnswerFn<'a, T> = dyn Fn(Option<&[u8]>, usize, &mut Vec<u8>) -> T + Sync + 'a;

/// One task's answers: the output bytes of its lines and each line's outcome.
type TaskAnswers<T> = (Vec<u8>, Vec<T>);

/// Where the answers go, in input order.
pub trait Sink<T> {
    /// One task's answers: their bytes and each line's outcome.
    fn task(&mut self, text: &[u8], outcomes: std::vec::Drain<'_, T>) -> io::Result<()>;
    /// A chunk's answers are all printed: its lines and the input bytes they
    /// took.
    fn chunk_done(&mut self, lines: usize, consumed: u64);
}

/// A batch of input lines: their bytes, back to back, and where each ends.
pub struct Chunk {
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
    /// An empty chunk, its buffers reserved up front (growing by doubling
    /// copies the chunk several times; pages never touched cost no memory).
    fn new() -> Chunk {
        Chunk {
            buf: Vec::with_capacity(CHUNK_BYTES),
            ends: Vec::with_capacity(CHUNK_LINES),
            first: 1,
            consumed: 0,
            overlong: Vec::new(),
            max_line: 0,
        }
    }

    fn line(&self, i: usize) -> &[u8] {
        let start = if i == 0 { 0 } else { self.ends[i - 1] };
        &self.buf[start..self.ends[i]]
    }

    /// The number of the tasks the chunk is answered in.
    fn tasks(&self) -> usize {
        self.ends.len().div_ceil(TASK_LINES)
    }

    /// Task `k`'s answers (lines `k * TASK_LINES..`, at most `TASK_LINES`) in
    /// order, into `into` (emptied first), with `f`. A line over the length
    /// limit gets its error answer here, and `f` is called with `None`.
    fn answer_task<T>(&self, k: usize, f: &AnswerFn<'_, T>, into: &mut TaskAnswers<T>) {
        let (out, outcomes) = into;
        out.clear();
        outcomes.clear();
        let n = self.ends.len();
        let range = k * TASK_LINES..((k + 1) * TASK_LINES).min(n);
        out.reserve(256 * range.len());
        for i in range {
            let no = self.first + i;
            let outcome = if self.overlong.binary_search(&i).is_ok() {
                let a = exact_collision::protocol::answer_overlong(no, self.max_line);
                // Writing to a Vec cannot fail.
                let _ = serde_json::to_writer(&mut *out, &a.value);
                out.push(b'\n');
                f(None, no, out)
            } else {
                f(Some(self.line(i)), no, out)
            };
            outcomes.push(outcome);
        }
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
        // The `memchr` crate's SIMD search: the reader's time per line is
        // spent on no line's answer (docs/protocol.md, "Throughput on
        // several cores").
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

/// Read the next chunk into `c` (emptied first; its buffers are reused),
/// its first line numbered `first`; false at the end of the input. Lines are
/// split on bytes, so that a line that is not UTF-8 is answered with an error
/// of its own instead of ending the stream; a line longer than `max_line` is
/// not kept.
fn read_chunk(
    input: &mut dyn BufRead,
    c: &mut Chunk,
    first: usize,
    max_line: u64,
) -> io::Result<bool> {
    c.buf.clear();
    c.ends.clear();
    c.overlong.clear();
    c.first = first;
    c.consumed = 0;
    c.max_line = max_line;
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
    Ok(!c.ends.is_empty())
}

/// Answer every line of `input` with `f` on `jobs` threads and hand the
/// answers to `sink` in input order. Returns the first error: of the input
/// (after every answer of the chunks before the one that failed is printed) or
/// of the sink (the run stops). A panic in `f` is raised again here, after
/// the answers before its task are printed.
pub fn run<T: Send, S: Sink<T> + Send>(
    input: Box<dyn BufRead + Send>,
    jobs: usize,
    max_line: u64,
    f: &AnswerFn<'_, T>,
    sink: &mut S,
) -> io::Result<()> {
    if jobs <= 1 {
        // One thread: read, answer and print in turn.
        let mut input = input;
        let (mut c, mut answers) = (Chunk::new(), (Vec::new(), Vec::new()));
        let mut first = 1;
        while read_chunk(&mut input, &mut c, first, max_line)? {
            first += c.ends.len();
            for k in 0..c.tasks() {
                c.answer_task(k, f, &mut answers);
                sink.task(&answers.0, answers.1.drain(..))?;
            }
            sink.chunk_done(c.ends.len(), c.consumed);
        }
        return Ok(());
    }
    let pipe = Pipeline {
        state: Mutex::new(State {
            chunks: VecDeque::with_capacity(MAX_CHUNKS),
            front_seq: 0,
            next: 0,
            input: Some(input),
            next_line: 1,
            end: None,
            sink: Some(sink),
            failed: None,
            sleepers: 0,
            spare_chunks: Vec::new(),
            spare_answers: Vec::new(),
            batch: Vec::new(),
        }),
        wake: Condvar::new(),
        f,
        max_line,
    };
    std::thread::scope(|s| {
        for _ in 1..jobs {
            // A thread the system refuses (a huge `--jobs`) is done without:
            // the answers are the same on any number of workers.
            if std::thread::Builder::new()
                .spawn_scoped(s, || pipe.work())
                .is_err()
            {
                break;
            }
        }
        pipe.work();
    });
    let st = pipe
        .state
        .into_inner()
        .unwrap_or_else(PoisonError::into_inner);
    match st.failed {
        Some(Failure::Io(e)) => Err(e),
        Some(Failure::Panic(p)) => resume_unwind(p),
        // A worker's own panic: raised by the scope above, not reached.
        Some(Failure::Abandoned) => Err(io::Error::other("a worker thread failed")),
        None => st.end.unwrap_or(Ok(())),
    }
}

/// What stopped the run.
enum Failure {
    /// Printing failed.
    Io(io::Error),
    /// A task (or the sink, or the reader) panicked: raised again at the end.
    Panic(Box<dyn Any + Send>),
    /// A worker panicked outside those (a bug); its panic ends the run.
    Abandoned,
}

/// A chunk being answered or printed.
struct Pending<T> {
    chunk: Arc<Chunk>,
    /// Each task's answers once it is done (or the panic it raised).
    answers: Vec<Option<std::thread::Result<TaskAnswers<T>>>>,
    /// Tasks handed out (in order).
    handed: usize,
    /// Tasks printed (in order).
    printed: usize,
}

/// The pipeline's state, behind one mutex.
struct State<'s, T, S> {
    /// The chunks read and not yet printed, oldest first; at most
    /// `MAX_CHUNKS`, the one being read counted.
    chunks: VecDeque<Pending<T>>,
    /// The sequence number of `chunks[0]` (chunks from 0).
    front_seq: usize,
    /// The first chunk (index in `chunks`) with a task not handed out.
    next: usize,
    /// The input, or `None` while a worker reads it.
    input: Option<Box<dyn BufRead + Send>>,
    /// The number of the next line to read (from 1).
    next_line: usize,
    /// Set when the input is done: `Ok` at its end, the error when reading
    /// failed (returned once the chunks before it are printed).
    end: Option<io::Result<()>>,
    /// The sink, or `None` while a worker prints.
    sink: Option<&'s mut S>,
    /// Set when the run stops early; every worker then leaves.
    failed: Option<Failure>,
    /// Workers waiting on the condition variable.
    sleepers: usize,
    /// Chunks printed, kept for their buffers (at most `MAX_CHUNKS`).
    spare_chunks: Vec<Chunk>,
    /// Task answer buffers printed, kept for reuse.
    spare_answers: Vec<TaskAnswers<T>>,
    /// The printer's list of answers to print (kept for its allocation).
    batch: Vec<std::thread::Result<TaskAnswers<T>>>,
}

impl<T, S> State<'_, T, S> {
    /// The oldest chunk's next answer to print is ready.
    fn printable(&self) -> bool {
        self.chunks
            .front()
            .is_some_and(|p| p.answers.get(p.printed).is_some_and(Option::is_some))
    }

    /// Read ahead: nobody is reading, the input is not done, there is room,
    /// and every chunk read has started (no chunk is left queued whole).
    fn should_read(&self) -> bool {
        self.input.is_some()
            && self.end.is_none()
            && self.chunks.len() < MAX_CHUNKS
            && self.chunks.back().is_none_or(|p| p.handed > 0)
    }
}

struct Pipeline<'a, 's, T, S> {
    state: Mutex<State<'s, T, S>>,
    /// Wakes the waiting workers when there may be work or an end.
    wake: Condvar,
    f: &'a AnswerFn<'a, T>,
    max_line: u64,
}

/// Stops the run when a worker unwinds from outside the guarded steps (a
/// bug), so the others do not wait for it forever.
struct Abandon<'p, 'a, 's, T, S>(&'p Pipeline<'a, 's, T, S>);

impl<T, S> Drop for Abandon<'_, '_, '_, T, S> {
    fn drop(&mut self) {
        if std::thread::panicking() {
            let mut st = self.0.lock();
            st.failed.get_or_insert(Failure::Abandoned);
            self.0.wake.notify_all();
        }
    }
}

impl<'s, T, S> Pipeline<'_, 's, T, S> {
    fn lock(&self) -> MutexGuard<'_, State<'s, T, S>> {
        // Nothing panics while holding the lock; a poisoned lock still holds
        // a consistent state.
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

impl<'s, T: Send, S: Sink<T> + Send> Pipeline<'_, 's, T, S> {
    /// Wake the waiting workers (none: no system call).
    fn notify(&self, st: &State<'s, T, S>) {
        if st.sleepers > 0 {
            self.wake.notify_all();
        }
    }

    /// One worker: print, read or answer, whichever is free and has work,
    /// until the run ends.
    fn work(&self) {
        let _abandon = Abandon(self);
        let mut st = self.lock();
        loop {
            if st.failed.is_some() {
                return;
            }
            if st.sink.is_some() && st.printable() {
                st = self.print(st);
            } else if st.should_read() {
                st = self.read(st);
            } else if st.next < st.chunks.len() {
                st = self.answer(st);
            } else if st.end.is_some() && st.chunks.is_empty() {
                return; // Every chunk printed, the input done.
            } else {
                st.sleepers += 1;
                st = self.wake.wait(st).unwrap_or_else(PoisonError::into_inner);
                st.sleepers -= 1;
            }
        }
    }

    /// Print the oldest chunk's answers that are ready, in order, outside the
    /// lock; then retire the chunk if it is done.
    fn print<'g>(
        &'g self,
        mut st: MutexGuard<'g, State<'s, T, S>>,
    ) -> MutexGuard<'g, State<'s, T, S>> {
        let sink = st.sink.take().expect("the caller checked");
        let mut batch = std::mem::take(&mut st.batch);
        let front = &mut st.chunks[0];
        while let Some(a) = front.answers.get_mut(front.printed).and_then(Option::take) {
            batch.push(a);
            front.printed += 1;
        }
        let done = (front.printed == front.answers.len())
            .then(|| (front.chunk.ends.len(), front.chunk.consumed));
        drop(st);
        let mut spare = Vec::with_capacity(batch.len());
        let printed = catch_unwind(AssertUnwindSafe(|| -> Result<(), Failure> {
            for a in batch.drain(..) {
                let (text, mut outcomes) = a.map_err(Failure::Panic)?;
                sink.task(&text, outcomes.drain(..)).map_err(Failure::Io)?;
                spare.push((text, outcomes));
            }
            if let Some((lines, consumed)) = done {
                sink.chunk_done(lines, consumed);
            }
            Ok(())
        }));
        batch.clear();
        let mut st = self.lock();
        st.sink = Some(sink);
        st.batch = batch;
        st.spare_answers.append(&mut spare);
        match printed {
            Ok(Ok(())) => {}
            Ok(Err(e)) => st.failed = Some(e),
            Err(p) => st.failed = Some(Failure::Panic(p)),
        }
        if done.is_some() {
            let p = st.chunks.pop_front().expect("the front chunk");
            st.front_seq += 1;
            st.next -= 1; // Every task of the front chunk was handed out.
                          // Its tasks are done, so no other holder of the chunk is left. A
                          // buffer grown far past a chunk (a long line under a raised
                          // limit) is not kept.
            if let Ok(c) = Arc::try_unwrap(p.chunk) {
                if c.buf.capacity() <= 2 * CHUNK_BYTES {
                    st.spare_chunks.push(c);
                }
            }
        }
        self.notify(&st);
        st
    }

    /// Read the next chunk outside the lock and queue its tasks.
    fn read<'g>(
        &'g self,
        mut st: MutexGuard<'g, State<'s, T, S>>,
    ) -> MutexGuard<'g, State<'s, T, S>> {
        let mut input = st.input.take().expect("the caller checked");
        let mut c = st.spare_chunks.pop().unwrap_or_else(Chunk::new);
        let first = st.next_line;
        drop(st);
        let read = catch_unwind(AssertUnwindSafe(|| {
            read_chunk(&mut input, &mut c, first, self.max_line)
        }));
        let mut st = self.lock();
        st.input = Some(input);
        match read {
            Ok(Ok(true)) => {
                st.next_line += c.ends.len();
                let tasks = c.tasks();
                st.chunks.push_back(Pending {
                    chunk: Arc::new(c),
                    answers: (0..tasks).map(|_| None).collect(),
                    handed: 0,
                    printed: 0,
                });
            }
            Ok(Ok(false)) => st.end = Some(Ok(())),
            Ok(Err(e)) => st.end = Some(Err(e)),
            Err(p) => st.failed = Some(Failure::Panic(p)),
        }
        self.notify(&st);
        st
    }

    /// Answer the next task outside the lock and leave its answers in its
    /// chunk.
    fn answer<'g>(
        &'g self,
        mut st: MutexGuard<'g, State<'s, T, S>>,
    ) -> MutexGuard<'g, State<'s, T, S>> {
        let i = st.next;
        let seq = st.front_seq + i;
        let p = &mut st.chunks[i];
        let k = p.handed;
        p.handed += 1;
        if p.handed == p.answers.len() {
            st.next += 1;
        }
        let chunk = Arc::clone(&st.chunks[i].chunk);
        let mut into = st.spare_answers.pop().unwrap_or_default();
        drop(st);
        let a = catch_unwind(AssertUnwindSafe(|| {
            chunk.answer_task(k, self.f, &mut into);
            into
        }));
        drop(chunk);
        let mut st = self.lock();
        // The chunk is still there: it is printed only after this task.
        let i = seq - st.front_seq;
        st.chunks[i].answers[k] = Some(a);
        st
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicUsize, Ordering::SeqCst};

    /// Collects the answers and the outcomes (line numbers) in memory.
    #[derive(Default)]
    struct Collect {
        text: Vec<u8>,
        outcomes: Vec<usize>,
        chunk_lines: Vec<usize>,
        /// Fail with this error from the given task on (0 = never).
        fail_at_task: usize,
        tasks: usize,
        /// Lines handed over so far, read by the answer functions.
        printed: Option<&'static AtomicUsize>,
    }

    impl Sink<usize> for Collect {
        fn task(&mut self, text: &[u8], outcomes: std::vec::Drain<'_, usize>) -> io::Result<()> {
            self.tasks += 1;
            if self.fail_at_task != 0 && self.tasks >= self.fail_at_task {
                return Err(io::Error::other("disk full (test)"));
            }
            self.text.extend_from_slice(text);
            let before = self.outcomes.len();
            self.outcomes.extend(outcomes);
            if let Some(p) = self.printed {
                p.fetch_add(self.outcomes.len() - before, SeqCst);
            }
            Ok(())
        }
        fn chunk_done(&mut self, lines: usize, _consumed: u64) {
            self.chunk_lines.push(lines);
        }
    }

    /// Line `i` (from 1) of the test input: its number and a payload whose
    /// length varies; every 10th line empty.
    fn line(i: usize) -> String {
        if i % 10 == 0 {
            String::new()
        } else {
            format!("{i}:{}", "x".repeat(i * 7919 % 61))
        }
    }

    fn input(lines: usize) -> Box<dyn BufRead + Send> {
        let text: String = (1..=lines).map(|i| line(i) + "\n").collect();
        Box::new(io::Cursor::new(text.into_bytes()))
    }

    /// The answer the test's line function gives: the number, the length and
    /// the bytes reversed, on a line.
    fn expected(i: usize) -> String {
        let l = line(i);
        format!("{i} {} {}\n", l.len(), l.chars().rev().collect::<String>())
    }

    fn answer_line(line: Option<&[u8]>, no: usize, out: &mut Vec<u8>) -> usize {
        let line = line.expect("no line is over the limit");
        let rev: Vec<u8> = line.iter().rev().copied().collect();
        out.extend_from_slice(format!("{no} {} ", line.len()).as_bytes());
        out.extend_from_slice(&rev);
        out.push(b'\n');
        no
    }

    /// Three chunks and a part (6,221 lines), some lines slow (the first one
    /// much slower, so later chunks finish first): at every thread count the
    /// answers come in input order, each exactly once, the outcomes in the
    /// same order, the chunks reported whole.
    #[test]
    fn answers_come_in_input_order_at_every_thread_count() {
        let n = 3 * CHUNK_LINES + 77;
        let want: String = (1..=n).map(expected).collect();
        let slow = |line: Option<&[u8]>, no: usize, out: &mut Vec<u8>| {
            if no == 1 {
                std::thread::sleep(std::time::Duration::from_millis(30));
            } else if no % 97 == 0 {
                std::thread::sleep(std::time::Duration::from_micros(200));
            }
            answer_line(line, no, out)
        };
        for jobs in [1, 2, 3, 8, 16] {
            let mut sink = Collect::default();
            run(input(n), jobs, 1 << 20, &slow, &mut sink).unwrap();
            assert!(
                sink.text == want.as_bytes(),
                "--jobs {jobs}: answers differ"
            );
            assert!(
                sink.outcomes.iter().copied().eq(1..=n),
                "--jobs {jobs}: outcomes out of order"
            );
            assert_eq!(
                sink.chunk_lines,
                [CHUNK_LINES, CHUNK_LINES, CHUNK_LINES, 77],
                "--jobs {jobs}"
            );
        }
    }

    /// While the first line is slow, the other workers answer ahead of the
    /// printer up to the bound and no further: no line is answered while
    /// `MAX_CHUNKS` chunks before its own are unprinted. The first line waits
    /// until the others have answered into the last chunk the bound allows,
    /// so a pipeline that did not answer ahead would fail (after 20 s).
    #[test]
    fn workers_answer_ahead_up_to_the_memory_bound() {
        static PRINTED: AtomicUsize = AtomicUsize::new(0);
        let furthest = AtomicUsize::new(0);
        let over = AtomicUsize::new(0);
        let n = (MAX_CHUNKS + 3) * CHUNK_LINES;
        let reach = (MAX_CHUNKS - 1) * CHUNK_LINES + 1;
        let f = |line: Option<&[u8]>, no: usize, out: &mut Vec<u8>| {
            // The chunks in memory hold the lines after those printed.
            if no > PRINTED.load(SeqCst) + MAX_CHUNKS * CHUNK_LINES {
                over.fetch_add(1, SeqCst);
            }
            furthest.fetch_max(no, SeqCst);
            if no == 1 {
                let start = std::time::Instant::now();
                while furthest.load(SeqCst) < reach {
                    assert!(
                        start.elapsed().as_secs() < 20,
                        "the workers did not answer ahead: furthest line {}",
                        furthest.load(SeqCst)
                    );
                    std::thread::sleep(std::time::Duration::from_millis(1));
                }
            }
            answer_line(line, no, out)
        };
        let mut sink = Collect {
            printed: Some(&PRINTED),
            ..Collect::default()
        };
        run(input(n), 4, 1 << 20, &f, &mut sink).unwrap();
        assert_eq!(over.load(SeqCst), 0, "lines answered past the bound");
        assert!(sink.outcomes.iter().copied().eq(1..=n));
    }

    /// A panic in one line's answer is raised again by `run`, after every
    /// answer before its task is printed, and none after.
    #[test]
    fn a_panic_is_raised_after_the_answers_before_its_task() {
        let n = 2 * CHUNK_LINES + 500;
        let bad = CHUNK_LINES + 100; // In task 67 (from 0): lines 2145..=2176.
        let first_of_task = (bad - 1) / TASK_LINES * TASK_LINES + 1;
        let f = |line: Option<&[u8]>, no: usize, out: &mut Vec<u8>| {
            assert_ne!(no, bad, "line {no} fails (test)");
            answer_line(line, no, out)
        };
        for jobs in [1, 2, 5] {
            let mut sink = Collect::default();
            let p = catch_unwind(AssertUnwindSafe(|| {
                run(input(n), jobs, 1 << 20, &f, &mut sink)
            }))
            .expect_err("the panic is raised again");
            let msg = p.downcast_ref::<String>().cloned().unwrap_or_default();
            assert!(msg.contains("fails (test)"), "--jobs {jobs}: {msg}");
            assert!(
                sink.outcomes.iter().copied().eq(1..first_of_task),
                "--jobs {jobs}: {} answers printed",
                sink.outcomes.len()
            );
        }
    }

    /// Yields `good` bytes of `inner`, then fails.
    struct FailAfter {
        inner: io::Cursor<Vec<u8>>,
        good: u64,
    }

    impl io::Read for FailAfter {
        fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
            let left = self.good.saturating_sub(self.inner.position());
            if left == 0 {
                return Err(io::Error::other("the disk went away (test)"));
            }
            let k = buf.len().min(left as usize);
            io::Read::read(&mut self.inner, &mut buf[..k])
        }
    }

    /// A read error mid-input is returned after the answers of every chunk
    /// read whole before it, at every thread count (the chunk it broke is
    /// not answered).
    #[test]
    fn a_read_error_comes_after_the_chunks_before_it() {
        let n = 3 * CHUNK_LINES;
        let text: String = (1..=n).map(|i| line(i) + "\n").collect();
        // The error strikes in the middle of the third chunk.
        let good: usize = (1..=2 * CHUNK_LINES + 900).map(|i| line(i).len() + 1).sum();
        let want: String = (1..=2 * CHUNK_LINES).map(expected).collect();
        for jobs in [1, 2, 4] {
            let reader = FailAfter {
                inner: io::Cursor::new(text.clone().into_bytes()),
                good: good as u64,
            };
            let input = Box::new(io::BufReader::with_capacity(1000, reader));
            let mut sink = Collect::default();
            let e = run(input, jobs, 1 << 20, &answer_line, &mut sink).unwrap_err();
            assert!(e.to_string().contains("went away"), "--jobs {jobs}: {e}");
            assert!(sink.text == want.as_bytes(), "--jobs {jobs}");
        }
    }

    /// An output error stops the run: returned once, the sink not called
    /// again, no worker left waiting.
    #[test]
    fn an_output_error_stops_the_run() {
        let n = 4 * CHUNK_LINES;
        for jobs in [1, 2, 6] {
            let mut sink = Collect {
                fail_at_task: 70,
                ..Collect::default()
            };
            let e = run(input(n), jobs, 1 << 20, &answer_line, &mut sink).unwrap_err();
            assert!(e.to_string().contains("disk full"), "--jobs {jobs}: {e}");
            assert_eq!(sink.tasks, 70, "--jobs {jobs}: the sink was called again");
            assert_eq!(sink.outcomes.len(), 69 * TASK_LINES, "--jobs {jobs}");
        }
    }
}
