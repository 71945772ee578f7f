//! Every process-wide counter of the crate, in one place: how many answers
//! each float-guided path gave and how many fell back to the exhaustive exact
//! path ([`Counter`]), and the finer counts of the filters (how many signs or
//! steps needed exact arithmetic) that tests and measurements read.
//!
//! Process-wide, relaxed atomics (a count, not a synchronisation). The program
//! prints them with `query --stats`; benchmarks and tests read them before and
//! after a run.
//!
//! Each count is sharded: each of the first [`SHARDS`] threads that count
//! owns a shard of its own, alone on its cache lines, and a read sums the
//! shards. The parallel loops (the step's narrow phase counts every
//! candidate) would otherwise make every core write the same line, which then
//! moves between the cores' caches at every count. A thread adds into the
//! shard it owns with a plain load and store (no other thread writes it, so no
//! count is lost, and it skips the locked read-modify-write, which costs about
//! as much as a float-guided point–box rounding's last steps); later threads
//! share one more shard and add into it atomically. A read after the counting
//! threads are joined is the exact total.

use std::cell::Cell;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};

/// Shards owned by one thread each: at least the threads that count at once
/// on the machines the crate runs on; later threads share one more shard
/// (correct, only slower).
pub const SHARDS: usize = 16;

/// One shard of `N` counts, alone on its cache lines: 128 bytes, since x86
/// processors fetch 64-byte lines in adjacent pairs.
#[repr(align(128))]
struct Shard<const N: usize>([AtomicU64; N]);

/// `N` counts, sharded by thread.
struct Sharded<const N: usize>([Shard<N>; SHARDS + 1]);

impl<const N: usize> Sharded<N> {
    const fn new() -> Self {
        Sharded([const { Shard([const { AtomicU64::new(0) }; N]) }; SHARDS + 1])
    }

    /// Adds one to count `k` in this thread's shard.
    #[inline]
    fn add(&self, k: usize) {
        let i = shard();
        let c = &self.0[i].0[k];
        if i < SHARDS {
            // This thread's own shard: no other thread writes it.
            c.store(c.load(Ordering::Relaxed) + 1, Ordering::Relaxed);
        } else {
            c.fetch_add(1, Ordering::Relaxed);
        }
    }

    /// Count `k`: the sum over the shards.
    fn get(&self, k: usize) -> u64 {
        self.0.iter().map(|s| s.0[k].load(Ordering::Relaxed)).sum()
    }
}

/// Shards owned so far (at most [`SHARDS`]).
static NEXT_SHARD: AtomicUsize = AtomicUsize::new(0);

/// A thread that has not counted yet.
const UNASSIGNED: usize = usize::MAX;

thread_local! {
    /// This thread's shard: one it owns (below `SHARDS`), the shared one
    /// (`SHARDS`), or `UNASSIGNED` until its first count.
    static SHARD: Cell<usize> = const { Cell::new(UNASSIGNED) };
}

/// This thread's shard index (assigned at its first count).
#[inline]
fn shard() -> usize {
    SHARD.with(|s| {
        let i = s.get();
        if i != UNASSIGNED {
            return i;
        }
        let i = NEXT_SHARD
            .fetch_update(Ordering::Relaxed, Ordering::Relaxed, |n| {
                (n < SHARDS).then_some(n + 1)
            })
            .unwrap_or(SHARDS);
        s.set(i);
        i
    })
}

/// One fast path's two counts.
pub struct Counter {
    /// The path's name, as `--stats` prints it.
    pub name: &'static str,
    /// [fast, fallback].
    counts: Sharded<2>,
}

impl std::fmt::Debug for Counter {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let (fast, fallback) = self.get();
        f.debug_struct("Counter")
            .field("name", &self.name)
            .field("fast", &fast)
            .field("fallback", &fallback)
            .finish()
    }
}

impl Counter {
    /// A counter at zero.
    pub const fn new(name: &'static str) -> Self {
        Counter {
            name,
            counts: Sharded::new(),
        }
    }

    /// Count one answer of the fast path.
    #[inline]
    pub fn fast(&self) {
        self.counts.add(0);
    }

    /// Count one answer that needed the fallback.
    #[inline]
    pub fn fallback(&self) {
        self.counts.add(1);
    }

    /// (fast, fallback) so far.
    pub fn get(&self) -> (u64, u64) {
        (self.counts.get(0), self.counts.get(1))
    }
}

/// A single count, sharded like [`Counter`]'s.
pub(crate) struct Tally(Sharded<1>);

impl Tally {
    /// A count at zero.
    pub(crate) const fn new() -> Self {
        Tally(Sharded::new())
    }

    /// Count one.
    #[inline]
    pub(crate) fn add(&self) {
        self.0.add(0);
    }

    /// The count so far.
    pub(crate) fn get(&self) -> u64 {
        self.0.get(0)
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
/// Rounded shapes with point or segment cores (spheres, capsules) against
/// points, segments, triangles and boxes from double inputs: the cores'
/// closest pair proved on the float-guided path (`query/rounded/segment_fast.rs`),
/// or left to the exact path.
pub static ROUNDED: Counter = Counter::new("rounded (segment cores)");
/// `rounded::distance_f64` of apart shapes after a proved closest pair: the
/// nearest double certified in double-word arithmetic (`fast`), or rounded
/// exactly from the rational `q` (`fallback`).
pub static ROUNDED_ROUNDING: Counter = Counter::new("rounded distance_f64 rounding");
/// `rounded::distance_f64` of a point core (a sphere) against a box core:
/// answered on the dedicated path (`query/rounded/point_box.rs`, `fast`), or
/// left to the generic float-guided path and the exact one (`fallback`).
pub static ROUNDED_POINT_BOX: Counter = Counter::new("rounded distance_f64 point-box");
/// The correct rounding of `√(A/B) − R` on the point–box path and the
/// polytope cores' radius step (`num::double_word::nearest_sqrt_ratio_minus`,
/// `query::rounded::radius_step`): decided by Ziv's test on
/// the Newton value with its proven error bound (`fast`), or by the signs of
/// `A − B(m + R)²` at the rounding midpoints (`fallback`).
pub static SQRT_RATIO_ZIV: Counter =
    Counter::new("rounded √(A/B) − R Ziv test (point-box, radius step)");

/// `distance` of rounded shapes with a convex hull core, from float inputs
/// (`query/rounded/hull_fast.rs`): proved on the float-guided path, or
/// handed to the exact path.
pub static HULL: Counter = Counter::new("hull distance");
/// `rounded::distance_f64` and `intersects_f64` with a convex hull core:
/// answered from the closest pair and certificate in double-word arithmetic
/// without big integers (`fast`), or handed to the exact-proof path
/// (`fallback`; a guess it does not take, an undecided sign).
pub static HULL_F64: Counter = Counter::new("hull distance_f64 (double-word)");
/// `contact` of two boxes of doubles that meet (`query/box_box/contact.rs`):
/// the optimal normals proved on the float-guided path (`fast`), or answered
/// by the exact reference `polytope::contact` (`fallback`).
pub static BOX_CONTACT: Counter = Counter::new("box-box contact");
/// The exact build of a float-guided box-box contact (`query/box_box/contact.rs`):
/// in fixed-width integers (`fast`: every input within 2^72 units of the
/// least one's), or in `BigInt` (`fallback`: inputs whose exponents lie
/// further apart).
pub static BOX_CONTACT_FIXED: Counter = Counter::new("box-box contact fixed width");
/// Coordinates of irrational closest points of rounded shapes rounded to the
/// nearest double (`num/sqrt_affine.rs`): proved by stepping from the float
/// guess (`fast`), or found by bisection on the doubles (`fallback`).
pub static ROUNDED_CLOSEST_F64: Counter = Counter::new("rounded closest_f64 coordinates");
/// The radius step from a closest pair proved in rationals (`q ≤ R²` and the
/// nearest double to `√q − R`, `query/rounded/radius_step.rs`): `fast` when
/// the double-word bound decided it, `fallback` when the exact rational step
/// answered (touching shapes, a value within about 2⁻¹⁰⁰ of a rounding
/// midpoint, values outside the normal range).
pub static ROUNDED_RADIUS_STEP: Counter = Counter::new("rounded radius step (double-word)");

/// `distance` of two quaternion poses proved in the boxes' own frames in
/// fixed-width integers (`query/box_box/pose/distance/frame.rs`, `fast`),
/// or, for a pair those leave (parallel edges), on the construction scaled
/// by d_a·d_b (`fallback`).
pub static POSE_FRAME: Counter = Counter::new("pose distance in frames");

/// `contact` of two boxes by pose not proved apart
/// (`query/box_box/pose/contact.rs`): answered on the float-guided path in
/// integers (`fast`: meeting, the optimal normals from the filter or, where
/// its bound does not decide, from the exact candidates), or handed to the
/// exact reference `polytope::contact` (`fallback`).
pub static POSE_CONTACT: Counter = Counter::new("pose box contact");

/// Every counter, for reports.
pub fn all() -> [&'static Counter; 16] {
    [
        &INTERSECT,
        &DISTANCE,
        &CCD_POINTS,
        &CCD_BOXES,
        &ROUNDED,
        &ROUNDED_ROUNDING,
        &ROUNDED_POINT_BOX,
        &SQRT_RATIO_ZIV,
        &HULL,
        &HULL_F64,
        &BOX_CONTACT,
        &BOX_CONTACT_FIXED,
        &ROUNDED_CLOSEST_F64,
        &ROUNDED_RADIUS_STEP,
        &POSE_FRAME,
        &POSE_CONTACT,
    ]
}

/// `(name, fast, fallback)` for every counter with a nonzero count.
///
/// ```
/// use exact_collision::stats;
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

// The filters' own counts, defined here and used where they count.

// Counted in `num/fixed.rs`.
/// How often `num::fixed::Nat::rem` took its add-back step (test builds).
#[cfg(test)]
pub(crate) static ADDBACK: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);

// Counted in `num/fixed.rs`.
/// How often `num::fixed::gcd` fell back to `gcd_big` for lack of progress
/// (test builds; never observed).
#[cfg(test)]
pub(crate) static GCD_FALLBACK: std::sync::atomic::AtomicUsize =
    std::sync::atomic::AtomicUsize::new(0);

// Counted in `query/triangle_triangle/fast_intersect.rs`.
/// How often the triangle intersect certificate's `separates` needed the exact integers (test builds).
#[cfg(test)]
pub(crate) static SEP_EXACT: std::sync::atomic::AtomicUsize =
    std::sync::atomic::AtomicUsize::new(0);

// Counted in `query/triangle_triangle/fast_distance.rs`.
/// Exact decisions of the cut-point order (test builds).
#[cfg(test)]
pub(crate) static ORD_EXACT: std::sync::atomic::AtomicUsize =
    std::sync::atomic::AtomicUsize::new(0);

// Counted in `num/bounded.rs`.
/// How many signs the filter could not decide and the integers did
/// (process-wide; a count for tests and measurements).
pub(crate) static EXACT_SIGNS: Tally = Tally::new();

// Counted in `query/box_box/mod.rs`.
pub(crate) static FILTER_FAILURES: Tally = Tally::new();

// Counted in `predicates/mod.rs`.
pub(crate) static EXACT_EVALS: Tally = Tally::new();

// Counted in `predicates/mod.rs`.
pub(crate) static ADAPTIVE_EVALS: Tally = Tally::new();

// Counted in `protocol/mod.rs`.
/// Lines answered on the lean line path (`fast`) and on the general path
/// (`fallback`); `query --stats` prints it.
pub static LINES: Counter = Counter::new("lines");

// Counted in `num/sqrt_offset.rs`.
/// `SqrtOffset::nearest_f64` calls whose float guess was more than six ulps
/// off, so that it bisected instead of stepping.
pub(crate) static SQRT_OFFSET_BISECTIONS: Tally = Tally::new();

#[cfg(test)]
mod tests {
    use super::*;

    /// Counts from more threads than shards (so that threads share shards)
    /// sum exactly: each thread's counts are known, so the total is their sum.
    #[test]
    fn counts_from_many_threads_sum_exactly() {
        static C: Counter = Counter::new("test");
        static T: Tally = Tally::new();
        let threads = 3 * SHARDS + 1;
        std::thread::scope(|s| {
            for i in 0..threads {
                s.spawn(move || {
                    // Thread i counts 1000 + i fast answers and i fallbacks.
                    for _ in 0..1000 + i {
                        C.fast();
                        T.add();
                    }
                    for _ in 0..i {
                        C.fallback();
                    }
                });
            }
        });
        let n = threads as u64;
        // Σ (1000 + i) and Σ i over i < n.
        let fast = 1000 * n + n * (n - 1) / 2;
        assert_eq!(C.get(), (fast, n * (n - 1) / 2));
        assert_eq!(T.get(), fast);
    }

    #[test]
    fn a_shard_is_alone_on_its_cache_lines() {
        assert_eq!(std::mem::align_of::<Shard<2>>(), 128);
        assert_eq!(std::mem::size_of::<Shard<2>>(), 128);
    }
}
