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

struct Node {
    track: Track,
    /// Leaf: `items[start..end]`; inner: children `left`, `left + 1`... stored as indices.
    start: u32,
    end: u32,
    left: u32,
    right: u32,
}

/// A hierarchy over elements (each a track and an id).
struct Tree {
    nodes: Vec<Node>,
    items: Vec<(Track, u32)>,
}

impl Tree {
    fn new(mut items: Vec<(Track, u32)>) -> Tree {
        let mut nodes = Vec::with_capacity(2 * items.len() / LEAF + 1);
        if !items.is_empty() {
            let n = items.len();
            build(&mut nodes, &mut items, 0, n);
        }
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

fn build(nodes: &mut Vec<Node>, items: &mut [(Track, u32)], start: usize, end: usize) -> u32 {
    let slice = &mut items[start..end];
    let track = slice
        .iter()
        .fold([Box3::EMPTY; SLABS + 1], |acc, (t, _)| track_union(&acc, t));
    let me = nodes.len();
    nodes.push(Node {
        track,
        start: start as u32,
        end: end as u32,
        left: u32::MAX,
        right: u32::MAX,
    });
    if end - start <= LEAF {
        return me as u32;
    }
    // Split at the median of the centres along the widest axis of the centres.
    let centre = |t: &Track, k: usize| {
        let s = t[0].union(t[SLABS]);
        0.5 * s.lo[k] + 0.5 * s.hi[k]
    };
    let mut lo = [f64::INFINITY; 3];
    let mut hi = [f64::NEG_INFINITY; 3];
    for (t, _) in slice.iter() {
        for k in 0..3 {
            lo[k] = lo[k].min(centre(t, k));
            hi[k] = hi[k].max(centre(t, k));
        }
    }
    let axis = (0..3)
        .max_by(|&a, &b| (hi[a] - lo[a]).total_cmp(&(hi[b] - lo[b])))
        .unwrap_or(0);
    let mid = slice.len() / 2;
    slice.select_nth_unstable_by(mid, |a, b| {
        centre(&a.0, axis).total_cmp(&centre(&b.0, axis))
    });
    let l = build(nodes, items, start, start + mid);
    let r = build(nodes, items, start + mid, end);
    nodes[me].left = l;
    nodes[me].right = r;
    me as u32
}

/// Pairs of `a`'s and `b`'s elements not separated, passed through `keep`.
fn pairs<F>(a: &Tree, na: usize, b: &Tree, nb: usize, keep: &F, depth: u32) -> Vec<(u32, u32)>
where
    F: Fn(u32, u32) -> Option<(u32, u32)> + Sync,
{
    if separated(&a.nodes[na].track, &b.nodes[nb].track) {
        return Vec::new();
    }
    let (la, lb) = (a.is_leaf(na), b.is_leaf(nb));
    if la && lb {
        let mut out = Vec::new();
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
        return out;
    }
    let split_a = !la && (lb || a.extent(na) >= b.extent(nb));
    let (c1, c2) = if split_a {
        let n = &a.nodes[na];
        ((n.left as usize, nb), (n.right as usize, nb))
    } else {
        let n = &b.nodes[nb];
        ((na, n.left as usize), (na, n.right as usize))
    };
    let go = |(x, y): (usize, usize)| pairs(a, x, b, y, keep, depth + 1);
    if depth < 12 {
        let (mut p, q) = rayon::join(|| go(c1), || go(c2));
        p.extend(q);
        p
    } else {
        let mut p = go(c1);
        p.extend(go(c2));
        p
    }
}

/// Pairs of distinct elements of `t` under node `n` not separated.
fn self_pairs<F>(t: &Tree, n: usize, keep: &F, depth: u32) -> Vec<(u32, u32)>
where
    F: Fn(u32, u32) -> Option<(u32, u32)> + Sync,
{
    let node = &t.nodes[n];
    if t.is_leaf(n) {
        let items = &t.items[node.start as usize..node.end as usize];
        let mut out = Vec::new();
        for (i, (ta, ia)) in items.iter().enumerate() {
            for (tb, ib) in &items[i + 1..] {
                if !separated(ta, tb) {
                    if let Some(p) = keep(*ia, *ib) {
                        out.push(p);
                    }
                }
            }
        }
        return out;
    }
    let (l, r) = (node.left as usize, node.right as usize);
    let (mut p, (q, s)) = rayon::join(
        || self_pairs(t, l, keep, depth + 1),
        || {
            rayon::join(
                || self_pairs(t, r, keep, depth + 1),
                || pairs(t, l, t, r, keep, depth + 1),
            )
        },
    );
    p.extend(q);
    p.extend(s);
    p
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
    let (vt, fine, fitems, eitems) = times.time("samples", false, || {
        let vt: Vec<Track> =
            m.t0.par_iter()
                .zip(&m.t1)
                .map(|(a, b)| vertex_samples(a, b))
                .collect();
        let of = |ids: &[u32]| {
            ids[1..].iter().fold(vt[ids[0] as usize], |acc, &v| {
                track_union(&acc, &vt[v as usize])
            })
        };
        let fine = Fine::new(m);
        let fitems: Vec<(Track, u32)> = m
            .faces
            .par_iter()
            .enumerate()
            .map(|(i, f)| (of(f), i as u32))
            .collect();
        let eitems: Vec<(Track, u32)> = m
            .edges
            .par_iter()
            .enumerate()
            .map(|(i, e)| (of(e), i as u32))
            .collect();
        (vt, fine, fitems, eitems)
    });
    let (vtree, ftree, etree) = times.time("build", true, || {
        (
            Tree::new(vt.iter().copied().zip(0u32..).collect()),
            Tree::new(fitems),
            Tree::new(eitems),
        )
    });
    let faces = &m.faces;
    let edges = &m.edges;
    let (mut vf, mut ee) = times.time("traverse", false, || {
        let vf = if vtree.nodes.is_empty() || ftree.nodes.is_empty() {
            Vec::new()
        } else {
            pairs(
                &vtree,
                0,
                &ftree,
                0,
                &|v, f| {
                    let fv = &faces[f as usize];
                    (!fv.contains(&v) && !fine.separated(&[v], fv)).then_some((v, f))
                },
                0,
            )
        };
        let ee = if etree.nodes.is_empty() {
            Vec::new()
        } else {
            self_pairs(
                &etree,
                0,
                &|a, b| {
                    let (ea, eb) = (edges[a as usize], edges[b as usize]);
                    let keep = !ea.iter().any(|v| eb.contains(v)) && !fine.separated(&ea, &eb);
                    keep.then_some((a.min(b), a.max(b)))
                },
                0,
            )
        };
        (vf, ee)
    });
    times.time("sort", false, || {
        vf.par_sort_unstable();
        ee.par_sort_unstable();
    });
    Candidates { vf, ee }
}
