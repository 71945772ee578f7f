//! The broad phase: a bounding volume hierarchy over time-sampled boxes, and
//! its conservative pruning test.
//!
//! Every vertex gets a box at each sample time t_j = j/SLABS (exact points at
//! t = 0 and t = 1; between them outward-rounded enclosures of
//! p₀ + t_j·(p₁ − p₀)); an element's or a node's box at t_j is the union of its
//! vertices'. Two sets of elements are **separated** when, on every slab
//! [t_j, t_{j+1}], some axis has one set strictly below the other at both ends
//! of the slab. That proves they never meet in the slab: a point of an element
//! is a convex combination of its vertices, each moving linearly, so along the
//! axis it is at most (1 − s)·A_j + s·A_{j+1} (A = the maxima of the lower set
//! at the slab's ends, s ∈ [0, 1] the position in the slab), and a point of the
//! other set is at least (1 − s)·B_j + s·B_{j+1}; A_j < B_j and A_{j+1} < B_{j+1}
//! make the first strictly smaller. Only comparisons of exact doubles decide.
//!
//! The hierarchy (median splits of the box centres, a float guess that only
//! shapes the tree) is traversed in pairs of nodes; a pair is dropped only when
//! separated, so every pair of elements that touches at some time is reported.

use super::{Candidates, PhaseTimes, StepMesh};
use crate::num::interval::Interval;
use crate::num::ring::Ring;
use rayon::prelude::*;
use std::time::{Duration, Instant};

/// Number of time slabs of the separation test.
pub const SLABS: usize = 4;
const LEAF: usize = 4;

/// A closed axis-aligned box with exact double bounds.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Box3 {
    lo: [f64; 3],
    hi: [f64; 3],
}

impl Box3 {
    const EMPTY: Box3 = Box3 {
        lo: [f64::INFINITY; 3],
        hi: [f64::NEG_INFINITY; 3],
    };

    fn union(self, o: Box3) -> Box3 {
        Box3 {
            lo: [0, 1, 2].map(|k| self.lo[k].min(o.lo[k])),
            hi: [0, 1, 2].map(|k| self.hi[k].max(o.hi[k])),
        }
    }
}

/// Boxes at the sample times.
type Track = [Box3; SLABS + 1];

fn track_union(a: &Track, b: &Track) -> Track {
    std::array::from_fn(|j| a[j].union(b[j]))
}

/// Separated on every slab (see the module documentation).
fn separated(a: &Track, b: &Track) -> bool {
    (0..SLABS).all(|j| {
        (0..3).any(|k| {
            (a[j].hi[k] < b[j].lo[k] && a[j + 1].hi[k] < b[j + 1].lo[k])
                || (b[j].hi[k] < a[j].lo[k] && b[j + 1].hi[k] < a[j + 1].lo[k])
        })
    })
}

/// A vertex's boxes at t = j/N, j = 0..=N (`M` = N + 1): the exact points at
/// t = 0 and 1, outward-rounded enclosures of p₀ + t·(p₁ − p₀) between.
fn vertex_samples<const M: usize>(p0: &[f64; 3], p1: &[f64; 3]) -> [Box3; M] {
    let n = M - 1;
    std::array::from_fn(|j| {
        let c = |k: usize| {
            let (a, b) = (Interval::point(p0[k]), Interval::point(p1[k]));
            if j == 0 {
                a
            } else if j == n {
                b
            } else {
                // t_j is a dyadic (n is a power of two), exact.
                a.add_ref(&Interval::point(j as f64 / n as f64).mul_ref(&b.sub_ref(&a)))
            }
        };
        let iv = [c(0), c(1), c(2)];
        Box3 {
            lo: iv.map(|i| i.lo),
            hi: iv.map(|i| i.hi),
        }
    })
}

/// The boxes of the vertices `ids` at sample `j`.
fn element<const M: usize>(at: &[[Box3; M]], ids: &[u32], j: usize) -> Box3 {
    ids[1..].iter().fold(at[ids[0] as usize][j], |acc, &v| {
        acc.union(at[v as usize][j])
    })
}

#[derive(Clone, Copy)]
struct Node {
    track: Track,
    /// Leaf: `items[start..end]`; inner: the children's indices in `nodes`
    /// (`left == u32::MAX` marks a leaf).
    start: u32,
    end: u32,
    left: u32,
    right: u32,
}

impl Node {
    const UNSET: Node = Node {
        track: [Box3::EMPTY; SLABS + 1],
        start: 0,
        end: 0,
        left: u32::MAX,
        right: u32::MAX,
    };
}

/// A subtree with at least this many elements builds its two halves on two
/// tasks (`rayon::join`); smaller ones on one thread.
const PAR_BUILD: usize = 2048;
/// A node with at least this many elements scans its centres on every core.
const PAR_SCAN: usize = 32 * 1024;

/// `(L(n), L(n + 1))`, L(n) the number of leaves of a tree over n ≥ 1
/// elements (halves ⌊n/2⌋ and ⌈n/2⌉, leaves of at most [`LEAF`]): the sizes
/// at one depth take two neighbouring values, so this takes O(log n) steps.
fn leaf_counts(n: usize) -> (usize, usize) {
    if n < LEAF {
        return (1, 1);
    }
    if n == LEAF {
        return (1, 2);
    }
    let (a, b) = leaf_counts(n / 2);
    if n % 2 == 0 {
        (2 * a, a + b)
    } else {
        (a + b, 2 * b)
    }
}

/// Number of nodes of a tree over `n` elements.
fn node_count(n: usize) -> usize {
    if n == 0 {
        0
    } else {
        2 * leaf_counts(n).0 - 1
    }
}

/// An element during the build: the centre of its box over the step (a float
/// guess that only shapes the tree) and its id.
#[derive(Clone, Copy)]
struct Key {
    c: [f64; 3],
    id: u32,
}

/// A hierarchy over elements (each a track and an id), nodes in preorder.
struct Tree {
    nodes: Vec<Node>,
    items: Vec<(Track, u32)>,
}

impl Tree {
    /// The hierarchy over elements `0..tracks.len()`, built on every core;
    /// `serial` gets the time the root's split runs alone.
    fn new(tracks: &[Track], serial: &mut Duration) -> Tree {
        let n = tracks.len();
        let mut keys: Vec<Key> = tracks
            .par_iter()
            .enumerate()
            .map(|(i, t)| {
                let s = t[0].union(t[SLABS]);
                Key {
                    c: [0, 1, 2].map(|k| 0.5 * s.lo[k] + 0.5 * s.hi[k]),
                    id: i as u32,
                }
            })
            .collect();
        let mut nodes = vec![Node::UNSET; node_count(n)];
        if n > 0 {
            build(&mut nodes, 0, &mut keys, 0, tracks, Some(serial));
        }
        let items = keys
            .par_iter()
            .map(|k| (tracks[k.id as usize], k.id))
            .collect();
        Tree { nodes, items }
    }

    fn is_leaf(&self, n: usize) -> bool {
        self.nodes[n].left == u32::MAX
    }

    fn extent(&self, n: usize) -> f64 {
        let b = &self.nodes[n].track;
        let s = b[0].union(b[SLABS]);
        (0..3).map(|k| s.hi[k] - s.lo[k]).fold(0.0, f64::max)
    }
}

/// Builds the subtree over `keys` (the elements `start..start + keys.len()`
/// of the final order) into `nodes` (exactly [`node_count`] of them, the
/// first at index `base`), in preorder: a node, its left subtree, its right
/// subtree. Splits at the median of the centres along their widest axis;
/// a node's boxes are the union of its children's (min/max: exact).
fn build(
    nodes: &mut [Node],
    base: u32,
    keys: &mut [Key],
    start: u32,
    tracks: &[Track],
    serial: Option<&mut Duration>,
) {
    let n = keys.len();
    debug_assert_eq!(nodes.len(), node_count(n));
    if n <= LEAF {
        let track = keys[1..]
            .iter()
            .fold(tracks[keys[0].id as usize], |acc, k| {
                track_union(&acc, &tracks[k.id as usize])
            });
        nodes[0] = Node {
            track,
            start,
            end: start + n as u32,
            left: u32::MAX,
            right: u32::MAX,
        };
        return;
    }
    let bounds = |acc: ([f64; 3], [f64; 3]), k: &Key| {
        (
            [0, 1, 2].map(|i| acc.0[i].min(k.c[i])),
            [0, 1, 2].map(|i| acc.1[i].max(k.c[i])),
        )
    };
    let none = ([f64::INFINITY; 3], [f64::NEG_INFINITY; 3]);
    let (lo, hi) = if n >= PAR_SCAN {
        keys.par_iter().fold(|| none, bounds).reduce(
            || none,
            |a, b| {
                (
                    [0, 1, 2].map(|i| a.0[i].min(b.0[i])),
                    [0, 1, 2].map(|i| a.1[i].max(b.1[i])),
                )
            },
        )
    } else {
        keys.iter().fold(none, bounds)
    };
    let axis = (0..3)
        .max_by(|&a, &b| (hi[a] - lo[a]).total_cmp(&(hi[b] - lo[b])))
        .unwrap_or(0);
    let mid = n / 2;
    let timer = Instant::now();
    keys.select_nth_unstable_by(mid, |a, b| a.c[axis].total_cmp(&b.c[axis]));
    if let Some(s) = serial {
        *s += timer.elapsed();
    }
    let (kl, kr) = keys.split_at_mut(mid);
    let (me, rest) = nodes.split_at_mut(1);
    let (nl, nr) = rest.split_at_mut(node_count(mid));
    let (l, r) = (base + 1, base + 1 + nl.len() as u32);
    let rstart = start + mid as u32;
    if n >= PAR_BUILD {
        rayon::join(
            || build(nl, l, kl, start, tracks, None),
            || build(nr, r, kr, rstart, tracks, None),
        );
    } else {
        build(nl, l, kl, start, tracks, None);
        build(nr, r, kr, rstart, tracks, None);
    }
    me[0] = Node {
        track: track_union(&nl[0].track, &nr[0].track),
        start,
        end: start + n as u32,
        left: l,
        right: r,
    };
}

/// A unit of traversal work: a pair of nodes (of trees `a` and `b`), or all
/// pairs of distinct elements below one node (of a self-traversal).
#[derive(Clone, Copy, Debug)]
enum Task {
    Pair(u32, u32),
    Within(u32),
}

/// The two halves of a pair of nodes that are not both leaves: the larger
/// node (by extent) is split.
fn split_pair(a: &Tree, na: usize, b: &Tree, nb: usize) -> [(usize, usize); 2] {
    let (la, lb) = (a.is_leaf(na), b.is_leaf(nb));
    if !la && (lb || a.extent(na) >= b.extent(nb)) {
        let n = &a.nodes[na];
        [(n.left as usize, nb), (n.right as usize, nb)]
    } else {
        let n = &b.nodes[nb];
        [(na, n.left as usize), (na, n.right as usize)]
    }
}

/// Pairs of `a`'s and `b`'s elements below `na`, `nb` not separated, passed
/// through `keep`, appended to `out` (one thread).
fn pairs<F>(a: &Tree, na: usize, b: &Tree, nb: usize, keep: &F, out: &mut Vec<(u32, u32)>)
where
    F: Fn(u32, u32) -> Option<(u32, u32)>,
{
    if separated(&a.nodes[na].track, &b.nodes[nb].track) {
        return;
    }
    if a.is_leaf(na) && b.is_leaf(nb) {
        let (x, y) = (&a.nodes[na], &b.nodes[nb]);
        for (ta, ia) in &a.items[x.start as usize..x.end as usize] {
            for (tb, ib) in &b.items[y.start as usize..y.end as usize] {
                if !separated(ta, tb) {
                    if let Some(p) = keep(*ia, *ib) {
                        out.push(p);
                    }
                }
            }
        }
        return;
    }
    for (x, y) in split_pair(a, na, b, nb) {
        pairs(a, x, b, y, keep, out);
    }
}

/// Pairs of distinct elements of `t` below node `n` not separated, passed
/// through `keep`, appended to `out` (one thread).
fn within<F>(t: &Tree, n: usize, keep: &F, out: &mut Vec<(u32, u32)>)
where
    F: Fn(u32, u32) -> Option<(u32, u32)>,
{
    let node = &t.nodes[n];
    if t.is_leaf(n) {
        let items = &t.items[node.start as usize..node.end as usize];
        for (i, (ta, ia)) in items.iter().enumerate() {
            for (tb, ib) in &items[i + 1..] {
                if !separated(ta, tb) {
                    if let Some(p) = keep(*ia, *ib) {
                        out.push(p);
                    }
                }
            }
        }
        return;
    }
    let (l, r) = (node.left as usize, node.right as usize);
    within(t, l, keep, out);
    within(t, r, keep, out);
    pairs(t, l, t, r, keep, out);
}

/// Tasks per thread of the traversal: enough that work stealing evens out
/// tasks of very different sizes.
const TASKS_PER_THREAD: usize = 256;

/// Expands `root` breadth-first (dropping separated pairs of nodes) until
/// there are at least `want` tasks or only pairs of leaves are left. One
/// thread; O(tasks) work.
fn frontier(a: &Tree, b: &Tree, root: Task, want: usize) -> Vec<Task> {
    let mut cur = vec![root];
    loop {
        if cur.len() >= want {
            return cur;
        }
        let mut next = Vec::with_capacity(3 * cur.len());
        let mut grew = false;
        for task in cur {
            match task {
                Task::Pair(x, y) => {
                    let (x, y) = (x as usize, y as usize);
                    if separated(&a.nodes[x].track, &b.nodes[y].track) {
                        grew = true;
                    } else if a.is_leaf(x) && b.is_leaf(y) {
                        next.push(task);
                    } else {
                        grew = true;
                        for (p, q) in split_pair(a, x, b, y) {
                            next.push(Task::Pair(p as u32, q as u32));
                        }
                    }
                }
                Task::Within(n) => {
                    let node = &a.nodes[n as usize];
                    if node.left == u32::MAX {
                        next.push(task);
                    } else {
                        grew = true;
                        next.push(Task::Within(node.left));
                        next.push(Task::Within(node.right));
                        next.push(Task::Pair(node.left, node.right));
                    }
                }
            }
        }
        if !grew {
            return next;
        }
        cur = next;
    }
}

/// The traversal from `root` on every core: the top levels expanded into
/// tasks ([`frontier`], one thread), each task traversed on one thread, the
/// per-task candidate vectors concatenated in task order (a parallel copy).
/// `serial` gets the time of the expansion.
fn traverse<F>(a: &Tree, b: &Tree, root: Task, keep: &F, serial: &mut Duration) -> Vec<(u32, u32)>
where
    F: Fn(u32, u32) -> Option<(u32, u32)> + Sync,
{
    if a.nodes.is_empty() || b.nodes.is_empty() {
        return Vec::new();
    }
    let timer = Instant::now();
    let tasks = frontier(a, b, root, TASKS_PER_THREAD * rayon::current_num_threads());
    *serial += timer.elapsed();
    let parts: Vec<Vec<(u32, u32)>> = tasks
        .par_iter()
        .with_max_len(1)
        .map(|task| {
            let mut out = Vec::new();
            match *task {
                Task::Pair(x, y) => pairs(a, x as usize, b, y as usize, keep, &mut out),
                Task::Within(n) => within(a, n as usize, keep, &mut out),
            }
            out
        })
        .collect();
    let total = parts.iter().map(Vec::len).sum();
    let mut all = vec![(0u32, 0u32); total];
    let mut slots = Vec::with_capacity(parts.len());
    let mut rest = &mut all[..];
    for p in &parts {
        let (head, tail) = rest.split_at_mut(p.len());
        slots.push(head);
        rest = tail;
    }
    slots
        .into_par_iter()
        .zip(parts.par_iter())
        .for_each(|(d, s)| d.copy_from_slice(s));
    all
}

/// Number of time slabs of the per-pair test at the leaves.
pub const FINE_SLABS: usize = 16;

/// Every vertex's boxes at t = j/FINE_SLABS (exact points at the ends,
/// outward-rounded enclosures between).
struct Fine {
    at: Vec<[Box3; FINE_SLABS + 1]>,
}

impl Fine {
    fn new(m: &StepMesh) -> Fine {
        let at =
            m.t0.par_iter()
                .zip(&m.t1)
                .map(|(p0, p1)| vertex_samples(p0, p1))
                .collect();
        Fine { at }
    }

    /// The slab-wise separation test of two elements (vertex ids) with
    /// [`FINE_SLABS`] slabs.
    fn separated(&self, a: &[u32], b: &[u32]) -> bool {
        let (mut pa, mut pb) = (element(&self.at, a, 0), element(&self.at, b, 0));
        for j in 1..=FINE_SLABS {
            let (na, nb) = (element(&self.at, a, j), element(&self.at, b, j));
            let sep = (0..3).any(|k| {
                (pa.hi[k] < pb.lo[k] && na.hi[k] < nb.lo[k])
                    || (pb.hi[k] < pa.lo[k] && nb.hi[k] < na.lo[k])
            });
            if !sep {
                return false;
            }
            (pa, pb) = (na, nb);
        }
        true
    }
}

/// The broad phase (see the module documentation): every vertex–face pair and
/// every edge–edge pair that is not proven separated and shares no vertex,
/// sorted.
///
/// ```
/// use exact_collision::ccd::step::{broad_phase, StepMesh};
/// // Two triangles, one above the other, the upper one moving down through the lower.
/// let lower = [[0.0, 0.0, 0.0], [1.0, 0.0, 0.0], [0.0, 1.0, 0.0]];
/// let a: Vec<[f64; 3]> = lower.iter().copied().chain(lower.iter().map(|p| [p[0], p[1], 1.0])).collect();
/// let b: Vec<[f64; 3]> = lower.iter().copied().chain(lower.iter().map(|p| [p[0], p[1], -1.0])).collect();
/// let m = StepMesh::new(a, b, vec![[0, 1, 2], [3, 4, 5]]).unwrap();
/// let c = broad_phase(&m);
/// assert_eq!(c.vf.len(), 6); // each vertex against the other triangle
/// assert_eq!(c.ee.len(), 9); // each edge against the other triangle's three
/// ```
pub fn broad_phase(m: &StepMesh) -> Candidates {
    broad_phase_timed(m, &mut PhaseTimes::default())
}

/// [`broad_phase`], recording the wall time of its parts in `times`.
pub fn broad_phase_timed(m: &StepMesh, times: &mut PhaseTimes) -> Candidates {
    let (fine, vt, ft, et) = times.time("samples", false, || {
        let fine = Fine::new(m);
        // The 4-slab boxes are every fourth of the 16-slab ones: t = j/4 is
        // (4j)/16, the same exact dyadic, so the same enclosure.
        let vt: Vec<Track> = fine
            .at
            .par_iter()
            .map(|a| std::array::from_fn(|j| a[j * (FINE_SLABS / SLABS)]))
            .collect();
        let of = |ids: &[u32]| {
            ids[1..].iter().fold(vt[ids[0] as usize], |acc, &v| {
                track_union(&acc, &vt[v as usize])
            })
        };
        let ft: Vec<Track> = m.faces.par_iter().map(|f| of(f)).collect();
        let et: Vec<Track> = m.edges.par_iter().map(|e| of(e)).collect();
        (fine, vt, ft, et)
    });
    // The three trees are built side by side; the split of the largest
    // tree's root is the longest stretch of one thread's work that nothing
    // else can overlap (an upper bound of the build's serial time).
    let mut roots = [Duration::ZERO; 3];
    let [rv, rf, re] = &mut roots;
    let timer = Instant::now();
    let (vtree, (ftree, etree)) = rayon::join(
        || Tree::new(&vt, rv),
        || rayon::join(|| Tree::new(&ft, rf), || Tree::new(&et, re)),
    );
    times.parts.push(("build", timer.elapsed(), false));
    let root = roots.into_iter().max().unwrap_or_default();
    times.parts.push(("build_root", root, true));
    let faces = &m.faces;
    let edges = &m.edges;
    let mut expand = Duration::ZERO;
    let timer = Instant::now();
    let mut vf = traverse(
        &vtree,
        &ftree,
        Task::Pair(0, 0),
        &|v, f| {
            let fv = &faces[f as usize];
            (!fv.contains(&v) && !fine.separated(&[v], fv)).then_some((v, f))
        },
        &mut expand,
    );
    let mut ee = traverse(
        &etree,
        &etree,
        Task::Within(0),
        &|a, b| {
            let (ea, eb) = (edges[a as usize], edges[b as usize]);
            let keep = !ea.iter().any(|v| eb.contains(v)) && !fine.separated(&ea, &eb);
            keep.then_some((a.min(b), a.max(b)))
        },
        &mut expand,
    );
    times.parts.push(("traverse", timer.elapsed(), false));
    times.parts.push(("traverse_expand", expand, true));
    times.time("sort", false, || {
        vf.par_sort_unstable();
        ee.par_sort_unstable();
    });
    Candidates { vf, ee }
}
