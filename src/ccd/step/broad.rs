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
    /// Leaf: `ids[start..end]`; inner: the children's indices in `nodes`
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
const PAR_BUILD: usize = if cfg!(test) { 16 } else { 2048 };
/// A node with at least this many elements scans its centres on every core.
const PAR_SCAN: usize = if cfg!(test) { 64 } else { 32 * 1024 };

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

/// A hierarchy over elements, nodes in preorder; a leaf holds
/// `ids[start..end]`, whose boxes are `tracks[id]` (held once, by the caller).
struct Tree<'a> {
    nodes: Vec<Node>,
    ids: Vec<u32>,
    tracks: &'a [Track],
}

impl<'a> Tree<'a> {
    /// The hierarchy over elements `0..tracks.len()`, built on every core;
    /// `serial` gets the time the root's split runs alone.
    fn new(tracks: &'a [Track], serial: &mut Duration) -> Tree<'a> {
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
        let ids = keys.par_iter().map(|k| k.id).collect();
        Tree { nodes, ids, tracks }
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
        for ia in &a.ids[x.start as usize..x.end as usize] {
            let ta = &a.tracks[*ia as usize];
            for ib in &b.ids[y.start as usize..y.end as usize] {
                if !separated(ta, &b.tracks[*ib as usize]) {
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
        let ids = &t.ids[node.start as usize..node.end as usize];
        for (i, ia) in ids.iter().enumerate() {
            let ta = &t.tracks[*ia as usize];
            for ib in &ids[i + 1..] {
                if !separated(ta, &t.tracks[*ib as usize]) {
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

/// The boxes of the broad phase: every vertex's 16-slab samples, and the
/// 4-slab tracks of the vertices, the faces and the edges (unions of their
/// vertices').
fn samples(m: &StepMesh) -> (Fine, Vec<Track>, Vec<Track>, Vec<Track>) {
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
}

/// The leaf test of a vertex–face pair whose 4-slab tracks are not
/// separated: kept unless the vertex is one of the face's or the 16-slab
/// test separates them.
fn keep_vf<'a>(
    m: &'a StepMesh,
    fine: &'a Fine,
) -> impl Fn(u32, u32) -> Option<(u32, u32)> + Sync + 'a {
    move |v, f| {
        let fv = &m.faces[f as usize];
        (!fv.contains(&v) && !fine.separated(&[v], fv)).then_some((v, f))
    }
}

/// The leaf test of an edge–edge pair whose 4-slab tracks are not
/// separated: kept (as (smaller id, larger id)) unless they share an end
/// point or the 16-slab test separates them.
fn keep_ee<'a>(
    m: &'a StepMesh,
    fine: &'a Fine,
) -> impl Fn(u32, u32) -> Option<(u32, u32)> + Sync + 'a {
    move |a, b| {
        let (ea, eb) = (m.edges[a as usize], m.edges[b as usize]);
        let keep = !ea.iter().any(|v| eb.contains(v)) && !fine.separated(&ea, &eb);
        keep.then_some((a.min(b), a.max(b)))
    }
}

/// [`broad_phase`], recording the wall time of its parts in `times`.
pub fn broad_phase_timed(m: &StepMesh, times: &mut PhaseTimes) -> Candidates {
    let (fine, vt, ft, et) = times.time("samples", false, || samples(m));
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
    let mut expand = Duration::ZERO;
    let timer = Instant::now();
    let mut vf = traverse(
        &vtree,
        &ftree,
        Task::Pair(0, 0),
        &keep_vf(m, &fine),
        &mut expand,
    );
    let mut ee = traverse(
        &etree,
        &etree,
        Task::Within(0),
        &keep_ee(m, &fine),
        &mut expand,
    );
    times.parts.push(("traverse", timer.elapsed(), false));
    times.parts.push(("traverse_expand", expand, true));
    // Both sorts at once: the first partition of a parallel quicksort runs on
    // one thread (O(n) before its first split), and side by side the two
    // first partitions overlap with each other's parallel work.
    times.time("sort", false, || {
        rayon::join(|| vf.par_sort_unstable(), || ee.par_sort_unstable());
    });
    Candidates { vf, ee }
}

#[cfg(test)]
pub(super) mod tests {
    use super::*;

    /// The sequential broad phase: one thread, the plain recursion from the
    /// roots (no task list).
    fn sequential(m: &StepMesh) -> Candidates {
        pool(1).install(|| {
            let (fine, vt, ft, et) = samples(m);
            let mut d = Duration::ZERO;
            let (vtree, ftree, etree) = (
                Tree::new(&vt, &mut d),
                Tree::new(&ft, &mut d),
                Tree::new(&et, &mut d),
            );
            let (mut vf, mut ee) = (Vec::new(), Vec::new());
            if !vtree.nodes.is_empty() && !ftree.nodes.is_empty() {
                pairs(&vtree, 0, &ftree, 0, &keep_vf(m, &fine), &mut vf);
            }
            if !etree.nodes.is_empty() {
                within(&etree, 0, &keep_ee(m, &fine), &mut ee);
            }
            vf.sort_unstable();
            ee.sort_unstable();
            Candidates { vf, ee }
        })
    }

    /// Every pair through the leaf tests, no hierarchy: what the trees must
    /// reproduce (a node's boxes contain its elements', so a separated pair
    /// of nodes holds only separated pairs of elements).
    fn brute_force(m: &StepMesh) -> Candidates {
        let (fine, vt, ft, et) = samples(m);
        let (kvf, kee) = (keep_vf(m, &fine), keep_ee(m, &fine));
        let mut vf = Vec::new();
        for (v, a) in vt.iter().enumerate() {
            for (f, b) in ft.iter().enumerate() {
                if !separated(a, b) {
                    vf.extend(kvf(v as u32, f as u32));
                }
            }
        }
        let mut ee = Vec::new();
        for (i, a) in et.iter().enumerate() {
            for (j, b) in et.iter().enumerate().skip(i + 1) {
                if !separated(a, b) {
                    ee.extend(kee(i as u32, j as u32));
                }
            }
        }
        Candidates { vf, ee }
    }

    fn pool(threads: usize) -> rayon::ThreadPool {
        rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .expect("a thread pool")
    }

    /// splitmix64: a small deterministic generator for the test meshes
    /// (and `read`'s test files).
    pub(in crate::ccd::step) struct Rng(pub(in crate::ccd::step) u64);

    impl Rng {
        pub(in crate::ccd::step) fn next(&mut self) -> u64 {
            self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
            let mut z = self.0;
            z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
            z ^ (z >> 31)
        }
        pub(in crate::ccd::step) fn below(&mut self, n: u64) -> u64 {
            self.next() % n
        }
        pub(in crate::ccd::step) fn chance(&mut self, percent: u64) -> bool {
            self.below(100) < percent
        }
    }

    /// A random step: `nv` vertices on a coarse grid (so that boxes touch
    /// exactly and coordinates repeat), moving by a few grid steps, and `nf`
    /// random triangles.
    fn random_soup(seed: u64, nv: usize, nf: usize, span: u64) -> StepMesh {
        let mut r = Rng(seed);
        let g = |r: &mut Rng| r.below(span) as f64 * 0.25;
        let t0: Vec<[f64; 3]> = (0..nv).map(|_| [g(&mut r), g(&mut r), g(&mut r)]).collect();
        let t1: Vec<[f64; 3]> = t0
            .iter()
            .map(|p| p.map(|c| c + (r.below(9) as f64 - 4.0) * 0.25))
            .collect();
        let faces = (0..nf)
            .map(|_| loop {
                let f = [0; 3].map(|_| r.below(nv as u64) as u32);
                if f[0] != f[1] && f[1] != f[2] && f[0] != f[2] {
                    break f;
                }
            })
            .collect();
        StepMesh::new(t0, t1, faces).expect("a valid mesh")
    }

    /// A random cloth: an n × n grid of vertices, two triangles per cell,
    /// every vertex moved by a random (irrational-looking) step.
    fn random_cloth(seed: u64, n: u32) -> StepMesh {
        let mut r = Rng(seed);
        let u = |r: &mut Rng| (r.next() >> 11) as f64 / (1u64 << 53) as f64;
        let mut t0 = Vec::new();
        let mut t1 = Vec::new();
        for i in 0..n {
            for j in 0..n {
                let p = [i as f64 / n as f64, j as f64 / n as f64, 0.05 * u(&mut r)];
                t1.push([p[0] + 0.02 * u(&mut r), p[1], p[2] - 0.1 * u(&mut r)]);
                t0.push(p);
            }
        }
        let mut faces = Vec::new();
        for i in 0..n - 1 {
            for j in 0..n - 1 {
                let v = i * n + j;
                faces.push([v, v + 1, v + n]);
                faces.push([v + 1, v + n + 1, v + n]);
            }
        }
        StepMesh::new(t0, t1, faces).expect("a valid mesh")
    }

    /// The broad phase on `threads` threads.
    fn parallel(m: &StepMesh, threads: usize) -> Candidates {
        pool(threads).install(|| broad_phase(m))
    }

    #[test]
    fn node_counts_match_the_build() {
        // Worked by hand: 4 elements are one leaf; 5 split 2 + 3 (3 nodes);
        // 9 split 4 + 5 → 1 + 1 + 3 = 5; 17 split 8 + 9 → 1 + 3 + 5 = 9.
        assert_eq!(
            [0, 1, 4, 5, 8, 9, 17].map(node_count),
            [0, 1, 1, 3, 3, 5, 9]
        );
        for n in 1..2000 {
            let brute = |n: usize| {
                fn go(n: usize) -> usize {
                    if n <= LEAF {
                        1
                    } else {
                        1 + go(n / 2) + go(n - n / 2)
                    }
                }
                go(n)
            };
            assert_eq!(node_count(n), brute(n), "n = {n}");
        }
    }

    #[test]
    fn parallel_candidates_equal_sequential_and_brute_force_on_random_meshes() {
        for seed in 0..12 {
            let (nv, nf, span) = [(8, 6, 8), (40, 60, 16), (120, 200, 24)][seed as usize % 3];
            let m = random_soup(seed, nv, nf, span);
            let mut brute = brute_force(&m);
            brute.vf.sort_unstable();
            brute.ee.sort_unstable();
            assert_eq!(sequential(&m), brute, "seed {seed}");
            assert!(!brute.vf.is_empty() && !brute.ee.is_empty(), "seed {seed}");
            for threads in [1, 2, 3, 16] {
                assert_eq!(
                    parallel(&m, threads),
                    brute,
                    "seed {seed}, {threads} threads"
                );
            }
        }
    }

    #[test]
    fn parallel_candidates_equal_sequential_on_a_random_cloth() {
        // 1,600 vertices, 3,042 faces, 4,641 edges: above the (test) thresholds of
        // the parallel build and scan at the top levels.
        let m = random_cloth(7, 40);
        let seq = sequential(&m);
        assert!(seq.vf.len() > 1000 && seq.ee.len() > 1000);
        for threads in [2, 16] {
            assert_eq!(parallel(&m, threads), seq, "{threads} threads");
        }
    }

    #[test]
    fn parallel_candidates_equal_sequential_on_the_shared_steps() {
        let dir = std::env::var_os("EXACT_SHARED")
            .map(std::path::PathBuf::from)
            .unwrap_or_else(|| std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared"))
            .join("ccd-simulation");
        let steps = [
            ("cloth-funnel", "227", "228"),
            ("rod-twist", "3036", "3037"),
            ("armadillo-rollers", "326", "327"),
            ("n-body-simulation", "balls16_18", "balls16_19"),
        ];
        for (scene, a, b) in steps {
            let frames = dir.join(scene).join("frames");
            let (a, b) = (
                frames.join(format!("{a}.ply")),
                frames.join(format!("{b}.ply")),
            );
            if !a.exists() || !b.exists() {
                eprintln!(
                    "skipped {scene}: {} is absent (../shared is not in CI)",
                    a.display()
                );
                continue;
            }
            let m = super::super::read::read_step(&a, &b).expect("the shared step reads");
            let seq = sequential(&m);
            for threads in [2, 16] {
                let par = parallel(&m, threads);
                assert_eq!(par.vf.len(), seq.vf.len(), "{scene}, {threads} threads");
                assert!(par == seq, "{scene}, {threads} threads: the sets differ");
            }
        }
    }
}
