//! A closed output pipe (`exact-collision query big.jsonl | head -1`) ends the
//! program quietly, the way line tools end: killed by `SIGPIPE`, which a shell
//! reports as status 141 (128 + 13) and, without `set -o pipefail`, ignores.
//!
//! The Rust runtime ignores `SIGPIPE`, so a write to a closed pipe returns
//! `BrokenPipe` instead of killing the process. The commands pass that error
//! up like any other (their `?`s unwind normally: buffered side files such as
//! `verify --failures` are flushed by their destructors), and `main` ends here
//! instead of printing it. Every other write error (a full disk, `/dev/full`)
//! is still printed and ends with status 2.
//!
//! Dying of the signal rather than exiting 0 keeps an incomplete output from
//! reading as a success to a caller that checks (`pipefail`, a supervisor
//! reading the wait status), exactly as for `cat`, `grep` or `sort`.

use std::process::ExitCode;

/// End the process as killed by `SIGPIPE`; where that is not possible (not
/// Unix, or the signal did not end it), exit quietly with status 141.
pub fn end() -> ExitCode {
    #[cfg(unix)]
    // SAFETY: restoring the default disposition and raising the signal in the
    // calling thread; no handler runs, the process ends.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
        libc::raise(libc::SIGPIPE);
    }
    ExitCode::from(141)
}
