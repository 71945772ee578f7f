//! Bounded work per query line: the program's input-size limits
//! (docs/limits.md).
//!
//! The exact paths' cost grows with the size of the exact numbers a query
//! gives (every operation on a b-bit rational costs more than linear in b, and
//! the constructions multiply them together), so the program bounds it:
//!
//! - the total size of a line's exact-string numbers ([`max_input_bits`]:
//!   numerator bits + denominator bits of every exact string, as parsed),
//!   charged by [`crate::protocol::number::parse_exact`] while a line is read
//!   ([`with_line_budget`]);
//! - a `ccd` motion's degree and coefficient size ([`crate::ccd::Limits`],
//!   process-wide through [`set_ccd_limits`]).
//!
//! JSON numbers are not charged: a double's exact value has at most 1,075
//! significant bits and its exponent is bounded, so their cost is bounded by
//! the double range.
//!
//! The limits are process-wide: the program sets them once from its options
//! (`--max-input-bits`, `--max-motion-degree`, `--max-coefficient-bits`,
//! `--max-degree-bits`) before reading; library callers keep the defaults or
//! set them the same way.
//!
//! ```
//! use exact_collision::protocol::limits::{max_input_bits, with_line_budget, DEFAULT_MAX_INPUT_BITS};
//! use exact_collision::protocol::number::parse_exact;
//! assert_eq!(max_input_bits(), DEFAULT_MAX_INPUT_BITS);
//! // Outside a line, exact strings are not charged.
//! assert!(parse_exact("1e-9000").is_ok());
//! // Within one line, their sizes add up.
//! with_line_budget(|| {
//!     assert!(parse_exact("1e-4000").is_ok()); // 13,288 bits of denominator
//!     let e = parse_exact("1e-4000").unwrap_err();
//!     assert!(e.contains("--max-input-bits"), "{e}");
//! });
//! ```

use crate::ccd::Limits;
use std::cell::Cell;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering::Relaxed};

/// The default of [`max_input_bits`]: 16,384 bits (docs/limits.md measures
/// the slowest lines within it).
pub const DEFAULT_MAX_INPUT_BITS: u64 = 16_384;

static MAX_INPUT_BITS: AtomicU64 = AtomicU64::new(DEFAULT_MAX_INPUT_BITS);
static CCD_DEGREE: AtomicUsize = AtomicUsize::new(usize::MAX);
static CCD_BITS: AtomicU64 = AtomicU64::new(u64::MAX);
static CCD_DEGREE_BITS: AtomicU64 = AtomicU64::new(u64::MAX);

/// The largest total size, in bits, of one line's exact-string numbers.
pub fn max_input_bits() -> u64 {
    MAX_INPUT_BITS.load(Relaxed)
}

/// Set [`max_input_bits`] for the whole process.
pub fn set_max_input_bits(bits: u64) {
    MAX_INPUT_BITS.store(bits, Relaxed);
}

/// The `ccd` limits in force: [`Limits::default`] unless [`set_ccd_limits`]
/// changed them.
pub fn ccd_limits() -> Limits {
    let d = Limits::default();
    let pick = |v: u64, def: u64| if v == u64::MAX { def } else { v };
    let deg = CCD_DEGREE.load(Relaxed);
    Limits {
        max_motion_degree: if deg == usize::MAX {
            d.max_motion_degree
        } else {
            deg
        },
        max_coefficient_bits: pick(CCD_BITS.load(Relaxed), d.max_coefficient_bits),
        max_degree_bits: pick(CCD_DEGREE_BITS.load(Relaxed), d.max_degree_bits),
    }
}

/// Set the `ccd` limits for the whole process (motions built afterwards and
/// [`crate::ccd::ccd`] use them).
pub fn set_ccd_limits(l: Limits) {
    CCD_DEGREE.store(l.max_motion_degree, Relaxed);
    CCD_BITS.store(l.max_coefficient_bits, Relaxed);
    CCD_DEGREE_BITS.store(l.max_degree_bits, Relaxed);
}

thread_local! {
    /// Bits left for the line being read on this thread; `None` outside a line.
    static BUDGET: Cell<Option<u64>> = const { Cell::new(None) };
}

/// Run `f` (reading and answering one line) with a fresh budget of
/// [`max_input_bits`] for its exact strings. Nested calls start afresh and
/// restore the outer budget when they return.
pub fn with_line_budget<R>(f: impl FnOnce() -> R) -> R {
    let prev = BUDGET.with(|b| b.replace(Some(max_input_bits())));
    let r = f();
    BUDGET.with(|b| b.set(prev));
    r
}

/// Run `f` outside any line's budget: for reading back the program's own
/// exact output (rounding an answer to `f64`/`f32`), which is not input and
/// must not be refused for a long answer.
pub(crate) fn outside_line<R>(f: impl FnOnce() -> R) -> R {
    let prev = BUDGET.with(|b| b.replace(None));
    let r = f();
    BUDGET.with(|b| b.set(prev));
    r
}

/// Charge `bits` to the current line's budget; an error naming the limit and
/// the option when it is spent. Nothing happens outside a line.
pub(crate) fn charge(bits: u64) -> Result<(), String> {
    BUDGET.with(|b| match b.get() {
        None => Ok(()),
        Some(left) if bits <= left => {
            b.set(Some(left - bits));
            Ok(())
        }
        Some(_) => Err(format!(
            "the line's exact numbers exceed the limit of {} bits in total \
             (numerator and denominator bits of every exact string; \
             raise it with --max-input-bits, docs/limits.md)",
            max_input_bits()
        )),
    })
}
