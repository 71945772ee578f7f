//! Exact continuous collision for a whole simulation step: every vertex of a
//! mesh moves linearly from its position in frame A (t = 0) to frame B (t = 1);
//! is the step collision-free, and if not, what is the earliest time of impact?
//!
//! # Method
//!
//! 1. **Broad phase** ([`broad_phase`], `step/broad.rs`): every vertex's box at
//!    the times j/4 and j/16 (exact at t = 0 and 1, outward-rounded enclosures
//!    between), elements' and hierarchy nodes' boxes as unions (min/max of
//!    doubles: exact). A bounding volume hierarchy pairs vertices with faces
//!    and edges with edges, dropping a pair only when, on every time slab, some
//!    axis has one strictly below the other at both ends of the slab. Pairs
//!    that share a vertex are skipped (they touch at the shared vertex at every
//!    time; a simulation excludes them the same way).
//! 2. **Narrow phase** ([`narrow_phase`]): every candidate pair through the
//!    exact point CCD of [`super::points`] (float filter with a proven error
//!    bound, exact integer method when the filter cannot decide), on all cores.
//! 3. **Earliest time** ([`earliest`]): the certified times are compared
//!    exactly ([`cmp_time`]): disjoint intervals decide at once, overlapping
//!    ones are compared as real algebraic numbers (refinement by exact signs,
//!    equality by a polynomial gcd). Ties (the same exact time) go to the
//!    vertex–face pair before the edge–edge pair, then to the smaller ids.
//!
//! # Why no colliding pair is lost
//!
//! On a slab [t_j, t_{j+1}] every vertex moves linearly, and a point of an
//! element is a convex combination of its vertices; so along an axis, a point
//! of element a is at most the interpolation of a's largest coordinates at the
//! slab's ends, and a point of b at least the interpolation of b's smallest. If
//! a is strictly below b at both ends, it is strictly below at every time of
//! the slab: they cannot touch there. Only comparisons of exact doubles decide
//! (the data, or outward-rounded bounds of the true positions), with a strict
//! `<`, so a pair that touches in some slab is never dropped. Every reported
//! pair is then decided exactly. See docs/step.md.
//!
//! ```
//! use exact_collision::ccd::step::{step, StepMesh};
//! // A triangle in z = 0 and a lone vertex falling through it from z = 1 to z = −1.
//! let a = vec![[0.0, 0.0, 0.0], [1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.25, 0.25, 1.0]];
//! let mut b = a.clone();
//! b[3][2] = -1.0;
//! let mesh = StepMesh::new(a, b, vec![[0, 1, 2]]).unwrap();
//! let answer = step(&mesh, &exact_collision::ccd::default_tolerance(), &|_| {}).unwrap();
//! assert_eq!(answer.candidates_vf, 1);
//! let first = answer.earliest().unwrap();
//! assert_eq!((first.a, first.b), (3, 0)); // vertex 3, face 0
//! assert_eq!(first.toi.lo, num_rational::BigRational::new(1.into(), 2.into()));
//! ```

mod broad;
mod min_sep;
pub mod read;

pub use broad::{broad_phase, broad_phase_timed, SLABS};
pub use min_sep::{broad_phase_min_distance, step_min_distance};

use super::points::{first_contact_f64, Kind};
use super::{ContactTime, PointCcdAnswer};
use crate::query::QueryError;
use num_rational::BigRational;
use rayon::prelude::*;
use std::cmp::Ordering;

/// One simulation step: the vertex positions at t = 0 and t = 1, the faces
/// (triangles, vertex indices) and the edges (derived from the faces).
#[derive(Clone, Debug, PartialEq)]
pub struct StepMesh {
    /// Positions at t = 0.
    pub t0: Vec<[f64; 3]>,
    /// Positions at t = 1.
    pub t1: Vec<[f64; 3]>,
    /// Triangles.
    pub faces: Vec<[u32; 3]>,
    /// Edges `[i, j]`, i < j, each once, sorted by (j, i): the order of libigl's
    /// `igl::edges`, which the CCD simulation dataset's element ids follow.
    pub edges: Vec<[u32; 2]>,
}

/// Why a step cannot be built.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum StepError {
    /// The two frames have different vertex counts.
    VertexCount(usize, usize),
    /// The two frames have different face counts (from the file readers).
    FaceCount(usize, usize),
    /// The two frames have different faces (from the file readers): the first
    /// face that differs.
    Connectivity(usize),
    /// A face names a vertex that does not exist.
    Index {
        /// The face.
        face: usize,
        /// The vertex index it names.
        vertex: u64,
    },
    /// A face names one vertex twice.
    DegenerateFace(usize),
    /// A coordinate is not finite (frame 0 or 1, vertex).
    NotFinite(u8, usize),
    /// More than 2³² − 1 vertices.
    TooLarge,
    /// A file cannot be read or parsed.
    File(String),
}

impl std::fmt::Display for StepError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            StepError::VertexCount(a, b) => {
                write!(f, "the frames have different vertex counts: {a} and {b}")
            }
            StepError::FaceCount(a, b) => {
                write!(f, "the frames have different face counts: {a} and {b}")
            }
            StepError::Connectivity(i) => {
                write!(f, "the frames have different faces (first at face {i})")
            }
            StepError::Index { face, vertex } => {
                write!(f, "face {face} names vertex {vertex}, which does not exist")
            }
            StepError::DegenerateFace(i) => write!(f, "face {i} names a vertex twice"),
            StepError::NotFinite(fr, v) => {
                write!(
                    f,
                    "vertex {v} of frame {fr} has a coordinate that is not finite"
                )
            }
            StepError::TooLarge => write!(f, "more than 2^32 - 1 vertices"),
            StepError::File(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for StepError {}

impl StepMesh {
    /// A step from the two frames' positions and the faces; the edges are
    /// derived. Errors: different vertex counts, a face index out of range or
    /// repeated within a face, a coordinate that is not finite.
    ///
    /// ```
    /// use exact_collision::ccd::step::{StepError, StepMesh};
    /// let p = vec![[0.0, 0.0, 0.0], [1.0, 0.0, 0.0], [0.0, 1.0, 0.0]];
    /// let m = StepMesh::new(p.clone(), p.clone(), vec![[0, 1, 2]]).unwrap();
    /// assert_eq!(m.edges, vec![[0, 1], [0, 2], [1, 2]]);
    /// let short = StepMesh::new(p.clone(), p[..2].to_vec(), vec![]);
    /// assert_eq!(short.unwrap_err(), StepError::VertexCount(3, 2));
    /// ```
    pub fn new(
        t0: Vec<[f64; 3]>,
        t1: Vec<[f64; 3]>,
        faces: Vec<[u32; 3]>,
    ) -> Result<StepMesh, StepError> {
        if t0.len() != t1.len() {
            return Err(StepError::VertexCount(t0.len(), t1.len()));
        }
        if t0.len() > u32::MAX as usize {
            return Err(StepError::TooLarge);
        }
        // The checks on every core; `position_first` finds the first
        // offending vertex or face, as a scan in order would.
        for (fr, pts) in [(0u8, &t0), (1, &t1)] {
            if let Some(v) = pts
                .par_iter()
                .position_first(|p| !p.iter().all(|c| c.is_finite()))
            {
                return Err(StepError::NotFinite(fr, v));
            }
        }
        let n = t0.len() as u64;
        let out_of_range = |f: &[u32; 3]| f.iter().find(|&&v| v as u64 >= n).copied();
        let repeated = |f: &[u32; 3]| f[0] == f[1] || f[1] == f[2] || f[0] == f[2];
        if let Some(i) = faces
            .par_iter()
            .position_first(|f| out_of_range(f).is_some() || repeated(f))
        {
            // The index error first, as the per-face checks are ordered.
            return Err(match out_of_range(&faces[i]) {
                Some(v) => StepError::Index {
                    face: i,
                    vertex: v as u64,
                },
                None => StepError::DegenerateFace(i),
            });
        }
        let edges = edges_of(&faces);
        Ok(StepMesh {
            t0,
            t1,
            faces,
            edges,
        })
    }

    /// Number of vertices.
    pub fn vertex_count(&self) -> usize {
        self.t0.len()
    }
}

/// The edges of the faces in libigl's `igl::edges` order: each undirected edge
/// once as `[i, j]` with i < j, sorted by j, then i.
fn edges_of(faces: &[[u32; 3]]) -> Vec<[u32; 2]> {
    // Each side of each face as the key j · 2³² + i (j the larger end): the
    // keys order as the pairs (j, i) do. Built, sorted and deduplicated on
    // every core; the set and its order are those of a sequential sort.
    let mut e: Vec<u64> = (0..3 * faces.len())
        .into_par_iter()
        .map(|k| {
            let f = &faces[k / 3];
            let (a, b) = (f[k % 3], f[(k + 1) % 3]);
            (u64::from(a.max(b)) << 32) | u64::from(a.min(b))
        })
        .collect();
    e.par_sort_unstable();
    // Keep each key's first copy: position 0, and every k whose key differs
    // from the one before it (the sorted order puts copies side by side).
    let first: Vec<bool> = (0..e.len())
        .into_par_iter()
        .map(|k| k == 0 || e[k] != e[k - 1])
        .collect();
    e.par_iter()
        .zip(first)
        .filter(|(_, f)| *f)
        .map(|(&key, _)| [key as u32, (key >> 32) as u32])
        .collect()
}

/// The candidate pairs of the broad phase, sorted.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Candidates {
    /// (vertex, face) pairs, the vertex not in the face.
    pub vf: Vec<(u32, u32)>,
    /// (edge, edge) pairs, first < second, sharing no vertex (edge ids index
    /// [`StepMesh::edges`]).
    pub ee: Vec<(u32, u32)>,
}

/// The wall time of a phase's parts, in order, each marked whether it runs on
/// one thread (serial) or on every core.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct PhaseTimes {
    /// (name, wall time, runs on one thread).
    pub parts: Vec<(&'static str, std::time::Duration, bool)>,
}

impl PhaseTimes {
    /// The sum of the parts that run on one thread.
    pub fn serial(&self) -> std::time::Duration {
        self.parts.iter().filter(|p| p.2).map(|p| p.1).sum()
    }

    /// The sum of all parts.
    pub fn total(&self) -> std::time::Duration {
        self.parts.iter().map(|p| p.1).sum()
    }

    /// Runs `f` as the part `name`.
    pub(crate) fn time<R>(&mut self, name: &'static str, serial: bool, f: impl FnOnce() -> R) -> R {
        let start = std::time::Instant::now();
        let r = f();
        self.parts.push((name, start.elapsed(), serial));
        r
    }
}

/// Which two elements a colliding pair names.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum PairKind {
    /// `a` is a vertex, `b` a face.
    VertexFace,
    /// `a` and `b` are edges (`a < b`).
    EdgeEdge,
}

/// A colliding pair and its first time of contact.
#[derive(Clone, Debug, PartialEq)]
pub struct Collision {
    /// Vertex–face or edge–edge.
    pub kind: PairKind,
    /// The vertex (vf) or the first edge (ee).
    pub a: u32,
    /// The face (vf) or the second edge (ee).
    pub b: u32,
    /// The certified first contact of the pair.
    pub toi: ContactTime,
}

/// The eight points of a candidate in the point CCD's order ([`Kind`]): its
/// four vertices at t = 0, then at t = 1.
pub fn pair_points(m: &StepMesh, kind: PairKind, a: u32, b: u32) -> [[f64; 3]; 8] {
    let ids: [u32; 4] = match kind {
        PairKind::VertexFace => {
            let f = m.faces[b as usize];
            [a, f[0], f[1], f[2]]
        }
        PairKind::EdgeEdge => {
            let (ea, eb) = (m.edges[a as usize], m.edges[b as usize]);
            [ea[0], ea[1], eb[0], eb[1]]
        }
    };
    let mut p = [[0.0; 3]; 8];
    for (k, &v) in ids.iter().enumerate() {
        p[k] = m.t0[v as usize];
        p[k + 4] = m.t1[v as usize];
    }
    p
}

/// The narrow phase: every candidate through the exact point CCD, on all
/// cores; the colliding pairs sorted by (kind, a, b). `progress` is called with
/// counts of candidates (groups of 1,024, each reported when its last task is
/// done) that sum to the number of candidates.
pub fn narrow_phase(
    m: &StepMesh,
    c: &Candidates,
    tolerance: &BigRational,
    progress: &(dyn Fn(u64) + Sync),
) -> Result<Vec<Collision>, QueryError> {
    narrow_phase_by(
        m,
        c,
        progress,
        &|k, p| first_contact_f64(k, p, tolerance),
        &mut PhaseTimes::default(),
    )
}

/// What decides one candidate of the narrow phase: its kind and the eight
/// points (four at t = 0, four at t = 1) to the point CCD's answer.
pub(crate) type PairAnswer<'a> =
    dyn Fn(Kind, &[[f64; 3]; 8]) -> Result<PointCcdAnswer, QueryError> + Sync + 'a;

/// Candidates per task of the narrow phase.
const NARROW_CHUNK: usize = 16;

/// Tasks of the narrow phase per progress report.
const PROGRESS_CHUNKS: usize = 64;

/// The narrow phase with `answer` deciding each candidate (the point CCD,
/// or its minimum-separation form): on all cores, the colliding pairs
/// sorted by (kind, a, b).
pub(crate) fn narrow_phase_by(
    m: &StepMesh,
    c: &Candidates,
    progress: &(dyn Fn(u64) + Sync),
    answer: &PairAnswer<'_>,
    times: &mut PhaseTimes,
) -> Result<Vec<Collision>, QueryError> {
    // Small tasks, so that work stealing spreads the few candidates that take
    // the exact method (~5 M instructions each, against ~6 k for the filter)
    // instead of one task holding many of them at the end of the phase. Every
    // chunk is its own task (`with_max_len(1)`): left to itself, rayon splits
    // an indexed range only until each thread has a few pieces (a quarter of
    // the candidates each on 2 threads) and runs each piece on one thread, and
    // the exact candidates cluster (armadillo-rollers: 521 of its 597 in the
    // first tenth of the edge–edge list), so one piece held most of them while
    // the other thread ran out of work.
    //
    // Progress is reported once per group of PROGRESS_CHUNKS chunks, by the
    // task that decides the group's last chunk, for the whole group: every
    // candidate is reported once, and the progress bar's shared counter (an
    // atomic both cores would otherwise write every 16 candidates) is written
    // 64 times less often.
    let decide = |kind: PairKind, pairs: &[(u32, u32)], i: usize| {
        let chunk = &pairs[i * NARROW_CHUNK..((i + 1) * NARROW_CHUNK).min(pairs.len())];
        let mut out = Vec::new();
        let k = match kind {
            PairKind::VertexFace => Kind::VertexFace,
            PairKind::EdgeEdge => Kind::EdgeEdge,
        };
        for &(a, b) in chunk {
            if let PointCcdAnswer::Hit(toi) = answer(k, &pair_points(m, kind, a, b))? {
                out.push(Collision { kind, a, b, toi });
            }
        }
        let end = i * NARROW_CHUNK + chunk.len();
        if (i + 1) % PROGRESS_CHUNKS == 0 || end == pairs.len() {
            let group_start = (i / PROGRESS_CHUNKS) * PROGRESS_CHUNKS * NARROW_CHUNK;
            progress((end - group_start) as u64);
        }
        Ok(out)
    };
    let tasks = |pairs: &[(u32, u32)]| pairs.len().div_ceil(NARROW_CHUNK);
    // Collected in place (an indexed collect, every task writing its own
    // slot): collecting into `Result<Vec<_>, _>` would go through rayon's
    // unindexed path, a list of per-thread vectors appended and freed on the
    // calling thread alone (0.45 % of the rod-twist step's instructions).
    let mut hits: Vec<Result<Vec<Collision>, QueryError>> = times.time("candidates", false, || {
        (0..tasks(&c.vf))
            .into_par_iter()
            .with_max_len(1)
            .map(|i| decide(PairKind::VertexFace, &c.vf, i))
            .chain(
                (0..tasks(&c.ee))
                    .into_par_iter()
                    .with_max_len(1)
                    .map(|i| decide(PairKind::EdgeEdge, &c.ee, i)),
            )
            .collect()
    });
    // The first error in candidate order, if any.
    if let Some(Err(e)) = hits
        .par_iter()
        .position_first(Result::is_err)
        .map(|i| hits.swap_remove(i))
    {
        return Err(e);
    }
    Ok(times.time("concat", false, || {
        hits.into_par_iter()
            .flat_map_iter(|h| h.into_iter().flatten())
            .collect()
    }))
}

/// Exact order of two certified times: disjoint enclosures decide at once;
/// overlapping ones are compared as real algebraic numbers (exact signs,
/// equality by a gcd; see [`crate::poly::RealRoot::compare`]). `None` when a
/// certificate that has to be used does not verify (never for the point CCD's
/// times).
///
/// ```
/// use exact_collision::ccd::step::cmp_time;
/// use exact_collision::ccd::{ContactTime, TimeKind};
/// use num_bigint::BigInt;
/// use num_rational::BigRational;
/// use std::cmp::Ordering;
/// let q = |n: i64, d: i64| BigRational::new(n.into(), d.into());
/// let root = |poly: &[i64], lo, hi| ContactTime {
///     kind: TimeKind::Root, lo, hi, poly: poly.iter().map(|&c| BigInt::from(c)).collect(), f64: 0.0,
/// };
/// // √2/2, the root of 2t² − 1, given in two different cells, is one number.
/// let a = root(&[-1, 0, 2], q(1, 2), q(1, 1));
/// let b = root(&[-1, 0, 2], q(11, 16), q(3, 4));
/// assert_eq!(cmp_time(&a, &b), Some(Ordering::Equal));
/// let c = root(&[-1, 2], q(1, 2), q(1, 2)); // exactly 1/2
/// assert_eq!(cmp_time(&c, &a), Some(Ordering::Less));
/// let wrong = root(&[-1, 0, 2], q(3, 4), q(1, 1)); // no root of 2t² − 1 there
/// assert_eq!(cmp_time(&wrong, &a), None); // overlaps a: the certificate is needed
/// ```
pub fn cmp_time(a: &ContactTime, b: &ContactTime) -> Option<Ordering> {
    // lo ≤ ρ ≤ hi for both (open cells when lo < hi).
    if a.lo == a.hi && b.lo == b.hi {
        return Some(a.lo.cmp(&b.lo));
    }
    if a.hi < b.lo || (a.hi == b.lo && (a.lo < a.hi || b.lo < b.hi)) {
        return Some(Ordering::Less);
    }
    if b.hi < a.lo || (b.hi == a.lo && (a.lo < a.hi || b.lo < b.hi)) {
        return Some(Ordering::Greater);
    }
    let (mut x, mut y) = (a.to_real_root()?, b.to_real_root()?);
    Some(x.compare(&mut y))
}

/// The earliest collision (`None` if there is none): the least time by
/// [`cmp_time`]; ties (the same exact time) to vertex–face before edge–edge,
/// then to the smaller (a, b). An error names a pair whose time certificate
/// does not verify (never for the narrow phase's answers).
///
/// A parallel reduction: the order (exact time, kind, a, b) is total, so its
/// least element does not depend on how the threads pair the collisions up.
pub fn earliest(collisions: &[Collision]) -> Result<Option<&Collision>, QueryError> {
    let pick = |b: &'_ Collision, c: &'_ Collision| -> Result<bool, QueryError> {
        let o = cmp_time(&c.toi, &b.toi).ok_or_else(|| {
            QueryError::Unsupported(format!(
                "the time certificate of {:?} ({}, {}) or of {:?} ({}, {}) does not verify",
                c.kind, c.a, c.b, b.kind, b.a, b.b
            ))
        })?;
        Ok(o.then_with(|| (c.kind, c.a, c.b).cmp(&(b.kind, b.a, b.b))) == Ordering::Less)
    };
    collisions
        .par_iter()
        .map(Ok)
        .try_reduce_with(|b, c| Ok(if pick(b, c)? { c } else { b }))
        .transpose()
}

/// The answer for a whole step.
#[derive(Clone, Debug, PartialEq)]
pub struct StepAnswer {
    /// Vertex–face candidates of the broad phase.
    pub candidates_vf: usize,
    /// Edge–edge candidates of the broad phase.
    pub candidates_ee: usize,
    /// Every colliding pair with its first contact, sorted by (kind, a, b).
    pub collisions: Vec<Collision>,
    /// Index of the earliest collision in `collisions` ([`earliest`]'s rule).
    pub earliest: Option<usize>,
}

impl StepAnswer {
    /// The earliest collision, `None` when the step is collision-free.
    pub fn earliest(&self) -> Option<&Collision> {
        self.earliest.map(|i| &self.collisions[i])
    }

    /// Whether no pair touches during the step.
    pub fn collision_free(&self) -> bool {
        self.collisions.is_empty()
    }
}

/// The whole step: [`broad_phase`], [`narrow_phase`], [`earliest`].
/// Errors: a tolerance that is not positive.
pub fn step(
    m: &StepMesh,
    tolerance: &BigRational,
    progress: &(dyn Fn(u64) + Sync),
) -> Result<StepAnswer, QueryError> {
    let c = broad_phase(m);
    answer(m, &c, tolerance, progress)
}

/// [`step`] after the broad phase.
pub fn answer(
    m: &StepMesh,
    c: &Candidates,
    tolerance: &BigRational,
    progress: &(dyn Fn(u64) + Sync),
) -> Result<StepAnswer, QueryError> {
    answer_timed(m, c, tolerance, progress, &mut PhaseTimes::default())
}

/// [`answer`], recording the wall time of its parts in `times`.
pub fn answer_timed(
    m: &StepMesh,
    c: &Candidates,
    tolerance: &BigRational,
    progress: &(dyn Fn(u64) + Sync),
    times: &mut PhaseTimes,
) -> Result<StepAnswer, QueryError> {
    let collisions = narrow_phase_by(
        m,
        c,
        progress,
        &|k, p| first_contact_f64(k, p, tolerance),
        times,
    )?;
    let earliest = times
        .time("earliest", false, || earliest(&collisions))?
        .map(|e| {
            collisions
                .iter()
                .position(|c| std::ptr::eq(c, e))
                .expect("from the same slice")
        });
    Ok(StepAnswer {
        candidates_vf: c.vf.len(),
        candidates_ee: c.ee.len(),
        collisions,
        earliest,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicU64, Ordering as AtomicOrdering};
    use std::sync::Mutex;

    /// The edges (built, sorted and deduplicated on every core) are those of
    /// a sequential reference, an ordered set of (larger end, smaller end),
    /// on random faces over few vertices (most edges shared by several
    /// faces), on 1, 2 and 4 threads.
    #[test]
    fn edges_equal_a_sorted_set() {
        let mut x = 7u64;
        let mut next = |n: u32| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            (x % u64::from(n)) as u32
        };
        for (nv, nf) in [(3, 1), (5, 40), (30, 500), (3000, 20000)] {
            let faces: Vec<[u32; 3]> = (0..nf)
                .map(|_| loop {
                    let f = [next(nv), next(nv), next(nv)];
                    if f[0] != f[1] && f[1] != f[2] && f[0] != f[2] {
                        break f;
                    }
                })
                .collect();
            let set: std::collections::BTreeSet<(u32, u32)> = faces
                .iter()
                .flat_map(|f| [(f[0], f[1]), (f[1], f[2]), (f[0], f[2])])
                .map(|(a, b)| (a.max(b), a.min(b)))
                .collect();
            let want: Vec<[u32; 2]> = set.into_iter().map(|(j, i)| [i, j]).collect();
            for threads in [1, 2, 4] {
                let pool = rayon::ThreadPoolBuilder::new()
                    .num_threads(threads)
                    .build()
                    .unwrap();
                assert_eq!(pool.install(|| edges_of(&faces)), want);
            }
        }
    }

    /// The checks of `StepMesh::new` (on every core) report the first
    /// offending vertex or face, and for a face an index out of range before
    /// a repeated vertex.
    #[test]
    fn the_first_bad_vertex_or_face_is_reported() {
        let n = 5000;
        let p: Vec<[f64; 3]> = (0..n).map(|i| [i as f64, 0.0, 1.0]).collect();
        let faces: Vec<[u32; 3]> = (0..n as u32 - 2).map(|i| [i, i + 1, i + 2]).collect();
        assert!(StepMesh::new(p.clone(), p.clone(), faces.clone()).is_ok());
        let mut q = p.clone();
        q[4000][1] = f64::NAN;
        q[3000][2] = f64::INFINITY;
        assert_eq!(
            StepMesh::new(p.clone(), q.clone(), faces.clone()),
            Err(StepError::NotFinite(1, 3000))
        );
        assert_eq!(
            StepMesh::new(q.clone(), q, faces.clone()),
            Err(StepError::NotFinite(0, 3000))
        );
        let mut f = faces.clone();
        f[4500] = [1, 2, 9999];
        f[2500] = [7, 7, 8];
        assert_eq!(
            StepMesh::new(p.clone(), p.clone(), f.clone()),
            Err(StepError::DegenerateFace(2500))
        );
        f[2500] = [7, 7, n as u32];
        assert_eq!(
            StepMesh::new(p.clone(), p.clone(), f.clone()),
            Err(StepError::Index {
                face: 2500,
                vertex: n as u64
            })
        );
        f[1200] = [3, 4, 3];
        assert_eq!(
            StepMesh::new(p.clone(), p, f),
            Err(StepError::DegenerateFace(1200))
        );
    }

    /// When candidates fail, the error is the first failing candidate's in
    /// candidate order (vertex–face, then edge–edge), on any thread count.
    #[test]
    fn the_first_error_in_candidate_order_is_reported() {
        let n = 3000u32;
        let p: Vec<[f64; 3]> = (0..n).map(|i| [f64::from(i), 0.0, 0.0]).collect();
        let m = StepMesh::new(p.clone(), p, vec![[0, 1, 2]]).unwrap();
        let c = Candidates {
            vf: (3..n).map(|v| (v, 0)).collect(),
            ee: vec![(0, 2); 100],
        };
        // Candidates of vertex 1,000 and above fail (their first point's x),
        // and every edge–edge candidate.
        let answer = |k: Kind, pts: &[[f64; 3]; 8]| match k {
            Kind::VertexFace if pts[0][0] < 1000.0 => Ok(PointCcdAnswer::Miss),
            _ => Err(QueryError::Unsupported(format!("{k:?} {}", pts[0][0]))),
        };
        for threads in [1, 2, 4] {
            let pool = rayon::ThreadPoolBuilder::new()
                .num_threads(threads)
                .build()
                .unwrap();
            let got = pool
                .install(|| narrow_phase_by(&m, &c, &|_| {}, &answer, &mut PhaseTimes::default()));
            assert_eq!(got, Err(QueryError::Unsupported("VertexFace 1000".into())));
        }
    }

    /// Every candidate is decided once and reported to `progress` once, in
    /// groups of at most 64 · 16 = 1,024: 2,500 vf candidates make groups of
    /// 1,024, 1,024 and 452, 1,100 ee candidates 1,024 and 76.
    #[test]
    fn progress_reports_every_candidate_once() {
        let p = vec![
            [0.0, 0.0, 0.0],
            [1.0, 0.0, 0.0],
            [0.0, 1.0, 0.0],
            [0.0, 0.0, 1.0],
        ];
        let m = StepMesh::new(p.clone(), p, vec![[0, 1, 2]]).unwrap();
        let c = Candidates {
            vf: vec![(3, 0); 2500],
            ee: vec![(0, 2); 1100],
        };
        let decided = AtomicU64::new(0);
        let reports = Mutex::new(Vec::new());
        let hits = narrow_phase_by(
            &m,
            &c,
            &|n| reports.lock().unwrap().push(n),
            &|_, _| {
                decided.fetch_add(1, AtomicOrdering::Relaxed);
                Ok(PointCcdAnswer::Miss)
            },
            &mut PhaseTimes::default(),
        )
        .unwrap();
        assert!(hits.is_empty());
        assert_eq!(decided.load(AtomicOrdering::Relaxed), 3600);
        let mut reports = reports.into_inner().unwrap();
        reports.sort_unstable();
        assert_eq!(reports, vec![76, 452, 1024, 1024, 1024]);
    }
}
