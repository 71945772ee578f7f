//! Every process-wide counter of the crate, in one place: how many answers
//! each float-guided path gave and how many fell back to the exhaustive exact
//! path ([`Counter`]), and the finer counts of the filters (how many signs or
//! steps needed exact arithmetic) that tests and measurements read.
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
/// The correct rounding of `√(A/B) − R` on the point–box path
/// (`num::double_word::nearest_sqrt_ratio_minus`): decided by Ziv's test on
/// the Newton value with its proven error bound (`fast`), or by the signs of
/// `A − B(m + R)²` at the rounding midpoints (`fallback`).
pub static SQRT_RATIO_ZIV: Counter = Counter::new("point-box rounding Ziv test");

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

/// `distance` of two quaternion poses proved in the boxes' own frames in
/// fixed-width integers (`query/box_box/pose/distance/frame.rs`, `fast`),
/// or, for a pair those leave (parallel edges), on the construction scaled
/// by d_a·d_b (`fallback`).
pub static POSE_FRAME: Counter = Counter::new("pose distance in frames");

/// Every counter, for reports.
pub fn all() -> [&'static Counter; 14] {
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
        &POSE_FRAME,
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
pub(crate) static EXACT_SIGNS: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);

// Counted in `query/box_box/mod.rs`.
pub(crate) static FILTER_FAILURES: std::sync::atomic::AtomicU64 =
    std::sync::atomic::AtomicU64::new(0);

// Counted in `predicates/mod.rs`.
pub(crate) static EXACT_EVALS: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);

// Counted in `predicates/mod.rs`.
pub(crate) static ADAPTIVE_EVALS: std::sync::atomic::AtomicU64 =
    std::sync::atomic::AtomicU64::new(0);

// Counted in `protocol/mod.rs`.
/// Lines answered on the lean line path (`fast`) and on the general path
/// (`fallback`); `query --stats` prints it.
pub static LINES: Counter = Counter::new("lines");

// Counted in `num/sqrt_offset.rs`.
/// `SqrtOffset::nearest_f64` calls whose float guess was more than six ulps
/// off, so that it bisected instead of stepping.
pub(crate) static SQRT_OFFSET_BISECTIONS: std::sync::atomic::AtomicU64 =
    std::sync::atomic::AtomicU64::new(0);
