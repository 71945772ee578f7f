//! Counters of the fast paths: how many answers the float guess and its exact
//! proof gave, and how many fell back to the exhaustive exact path.
//!
//! Process-wide, relaxed atomics (a count, not a synchronisation). The program
//! prints them with `query --stats`; benchmarks and tests read them before and
//! after a run.

use std::sync::atomic::{AtomicU64, Ordering};

/// One fast path's two counts.
#[derive(Debug)]
pub struct Counter {
    /// The path's name, as `--stats` prints it.
    pub name: &'static str,
    fast: AtomicU64,
    fallback: AtomicU64,
}

impl Counter {
    /// A counter at zero.
    pub const fn new(name: &'static str) -> Self {
        Counter {
            name,
            fast: AtomicU64::new(0),
            fallback: AtomicU64::new(0),
        }
    }

    /// Count one answer of the fast path.
    #[inline]
    pub fn fast(&self) {
        self.fast.fetch_add(1, Ordering::Relaxed);
    }

    /// Count one answer that needed the fallback.
    #[inline]
    pub fn fallback(&self) {
        self.fallback.fetch_add(1, Ordering::Relaxed);
    }

    /// (fast, fallback) so far.
    pub fn get(&self) -> (u64, u64) {
        (
            self.fast.load(Ordering::Relaxed),
            self.fallback.load(Ordering::Relaxed),
        )
    }
}

/// `intersect` from float inputs.
pub static INTERSECT: Counter = Counter::new("intersect");
/// `distance` from float inputs.
pub static DISTANCE: Counter = Counter::new("distance");
/// `ccd_vf` / `ccd_ee`: decided by the float filter, or by exact arithmetic.
pub static CCD_POINTS: Counter = Counter::new("ccd_vf/ccd_ee");
/// `ccd` (boxes).
pub static CCD_BOXES: Counter = Counter::new("ccd");

/// Every counter, for reports.
pub fn all() -> [&'static Counter; 4] {
    [&INTERSECT, &DISTANCE, &CCD_POINTS, &CCD_BOXES]
}

/// `(name, fast, fallback)` for every counter with a nonzero count.
///
/// ```
/// use exact_collision::query::stats;
/// let before = stats::INTERSECT.get();
/// stats::INTERSECT.fast();
/// assert_eq!(stats::INTERSECT.get().0, before.0 + 1);
/// ```
pub fn snapshot() -> Vec<(&'static str, u64, u64)> {
    all()
        .iter()
        .map(|c| {
            let (f, b) = c.get();
            (c.name, f, b)
        })
        .filter(|&(_, f, b)| f + b > 0)
        .collect()
}
