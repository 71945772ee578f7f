//! Meshes: STL in, a bounding-volume hierarchy, mesh-vs-mesh queries, exactly.
//!
//! # The idea
//!
//! A mesh is a list of triangles (a triangle soup: no topology is needed). Each
//! mesh gets a bounding-volume hierarchy of axis-aligned boxes ([`Bvh`]). The
//! broad phase never does arithmetic on coordinates: a box is the exact minimum
//! and maximum of its triangles' coordinates (as doubles that enclose them), and
//! two boxes are compared with closed `≤` tests, so two triangles that share a
//! point always have overlapping boxes, even across a one-ulp gap. The narrow
//! phase is the exact triangle–triangle test of [`crate::query`].
//!
//! * [`intersecting_pairs`]: every pair of triangles that share a point.
//! * [`min_distance`]: the exact minimum distance and a closest pair, by a
//!   best-first traversal of box pairs whose lower bounds are rounded down
//!   (outward-rounded interval arithmetic), so no pair that could be closer is
//!   pruned.
//!
//! The meshes are answered as **surfaces**: a closed mesh nested inside another
//! does not touch it, and the distance is the gap between the surfaces (parry's
//! mesh–mesh queries answer the same way). Solids would need an inside test.
//!
//! Degenerate triangles (zero area) are kept: they are answered as the segments
//! or points they are.

mod bvh;
pub mod stl;

pub use bvh::{Aabb, Bvh};

use crate::num::interval::Interval;
use crate::num::ring::Ring;
use crate::num::scalar::Scalar;
use crate::query::triangle_triangle::distance_exact;
use crate::query::triangle_triangle::intersects;
use crate::query::{Closest, QueryError};
use crate::shape::Triangle;
use num_rational::BigRational;
use std::cmp::Reverse;
use std::collections::BinaryHeap;

/// A triangle soup with coordinates in `S`.
#[derive(Clone, Debug, PartialEq)]
pub struct Mesh<S> {
    /// The triangles, in file order.
    pub triangles: Vec<Triangle<S>>,
}

impl<S: Scalar> Mesh<S> {
    /// A mesh from its triangles.
    pub fn new(triangles: Vec<Triangle<S>>) -> Self {
        Mesh { triangles }
    }
}

/// Every pair `(i, j)` of triangles, `i` in `a` and `j` in `b`, that share a
/// point, decided exactly; sorted. `tick` is called once per triangle of `a`.
///
/// ```
/// use exact_collision::mesh::{intersecting_pairs, Bvh, Mesh};
/// use exact_collision::{Triangle, Vec3};
/// let t = |z: f64| Triangle::new([Vec3::new(0., 0., z), Vec3::new(1., 0., z), Vec3::new(0., 1., z)]);
/// let a = Mesh::new(vec![t(0.0), t(1.0)]);
/// let b = Mesh::new(vec![t(1.0), t(2.0)]);
/// let (ba, bb) = (Bvh::new(&a), Bvh::new(&b));
/// assert_eq!(intersecting_pairs(&a, &ba, &b, &bb, &mut || {}), vec![(1, 0)]);
/// ```
pub fn intersecting_pairs<S: Scalar>(
    a: &Mesh<S>,
    bva: &Bvh,
    b: &Mesh<S>,
    bvb: &Bvh,
    tick: &mut dyn FnMut(),
) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    let mut cand = Vec::new();
    for (i, t) in a.triangles.iter().enumerate() {
        cand.clear();
        bvb.overlapping(&bva.leaf_box(i), &mut cand);
        for &j in &cand {
            if intersects(t, &b.triangles[j]) {
                out.push((i, j));
            }
        }
        tick();
    }
    out.sort_unstable();
    out
}

/// A certified lower bound of the squared distance between two boxes (rounded
/// down: each gap is rounded down, the sum of squares computed in outward
/// interval arithmetic and its lower end taken).
fn box_gap_squared(p: &Aabb, q: &Aabb) -> f64 {
    let mut s = Interval::point(0.0);
    for k in 0..3 {
        let g = if q.lo[k] > p.hi[k] {
            Interval::point(q.lo[k]).sub_ref(&Interval::point(p.hi[k]))
        } else if p.lo[k] > q.hi[k] {
            Interval::point(p.lo[k]).sub_ref(&Interval::point(q.hi[k]))
        } else {
            continue;
        };
        let g = Interval {
            lo: g.lo.max(0.0),
            hi: g.hi,
        };
        s = s.add_ref(&g.square());
    }
    s.lo.max(0.0)
}

/// The exact minimum distance between the surfaces `a` and `b` and a closest
/// pair `(i, j, closest)`; `None` for an empty mesh. `tick` is called once per
/// exact triangle pair evaluated.
///
/// ```
/// use exact_collision::mesh::{min_distance, Bvh, Mesh};
/// use exact_collision::{Triangle, Vec3};
/// let t = |z: f64| Triangle::new([Vec3::new(0., 0., z), Vec3::new(1., 0., z), Vec3::new(0., 1., z)]);
/// let a = Mesh::new(vec![t(0.0), t(5.0)]);
/// let b = Mesh::new(vec![t(2.0), t(9.0)]);
/// let (i, j, c) = min_distance(&a, &Bvh::new(&a), &b, &Bvh::new(&b), &mut || {}).unwrap().unwrap();
/// assert_eq!((i, j), (0, 0)); // z = 0 and z = 2
/// assert_eq!(c.distance_squared, num_rational::BigRational::from_integer(4.into()));
/// ```
#[allow(clippy::type_complexity)]
pub fn min_distance<S: Scalar>(
    a: &Mesh<S>,
    bva: &Bvh,
    b: &Mesh<S>,
    bvb: &Bvh,
    tick: &mut dyn FnMut(),
) -> Result<Option<(usize, usize, Closest<BigRational>)>, QueryError> {
    if a.triangles.is_empty() || b.triangles.is_empty() {
        return Ok(None);
    }
    // Best-first over node pairs, keyed by the certified lower bound; among
    // equal bounds the pair pushed last first (depth first), so that tied
    // pairs (two parallel meshes: every pair at the same distance) reach a
    // leaf, and so a best pair, after a few steps instead of a whole level
    // of the trees at a time.
    let mut heap: BinaryHeap<Reverse<(OrdF64, Reverse<u64>, usize, usize)>> = BinaryHeap::new();
    let mut seq = 0u64;
    let mut push = |heap: &mut BinaryHeap<_>, g: f64, na: usize, nb: usize| {
        seq += 1;
        heap.push(Reverse((OrdF64(g), Reverse(seq), na, nb)));
    };
    push(
        &mut heap,
        box_gap_squared(bva.node_box(0), bvb.node_box(0)),
        0,
        0,
    );
    let mut best: Option<(usize, usize, Closest<BigRational>)> = None;
    while let Some(Reverse((OrdF64(lb), _, na, nb))) = heap.pop() {
        if let Some((_, _, c)) = &best {
            // Every remaining pair is at least lb away: done if lb ≥ best.
            // (An overflowed bound still says "at least f64::MAX".)
            let lbq = BigRational::from_float(if lb.is_finite() { lb } else { f64::MAX });
            if lbq.is_some_and(|l| l >= c.distance_squared) {
                break;
            }
            // lb is rounded down, so a pair tied with the best is not pruned
            // above: the boxes' exact gap decides. No pair inside boxes at
            // least `best` apart can be strictly closer, so they are skipped
            // (the heap is ordered by the rounded bounds, so later pairs may
            // still be closer: skip, not stop).
            if box_gap_squared_exact(bva.node_box(na), bvb.node_box(nb))
                .is_some_and(|g| g >= c.distance_squared)
            {
                continue;
            }
        }
        match (bva.children(na), bvb.children(nb)) {
            (None, None) => {
                for &i in bva.leaf_items(na) {
                    for &j in bvb.leaf_items(nb) {
                        let c = distance_exact(&a.triangles[i], &b.triangles[j])?;
                        tick();
                        if best
                            .as_ref()
                            .is_none_or(|(_, _, bc)| c.distance_squared < bc.distance_squared)
                        {
                            best = Some((i, j, c));
                        }
                    }
                }
            }
            (ca, cb) => {
                // Split the larger node (or the one that is not a leaf).
                let split_a = match (ca, cb) {
                    (Some(_), None) => true,
                    (None, Some(_)) => false,
                    _ => bva.node_box(na).extent() >= bvb.node_box(nb).extent(),
                };
                if split_a {
                    let (l, r) = ca.expect("inner");
                    for c in [l, r] {
                        let g = box_gap_squared(bva.node_box(c), bvb.node_box(nb));
                        push(&mut heap, g, c, nb);
                    }
                } else {
                    let (l, r) = cb.expect("inner");
                    for c in [l, r] {
                        let g = box_gap_squared(bva.node_box(na), bvb.node_box(c));
                        push(&mut heap, g, na, c);
                    }
                }
            }
        }
    }
    Ok(best)
}

/// The exact squared gap between two boxes (the squared distance between the
/// nearest points of the two closed boxes), from their exact double bounds;
/// `None` if a bound is not finite.
fn box_gap_squared_exact(p: &Aabb, q: &Aabb) -> Option<BigRational> {
    let mut s = BigRational::from_integer(0.into());
    for k in 0..3 {
        let (lo, hi) = if q.lo[k] > p.hi[k] {
            (p.hi[k], q.lo[k])
        } else if p.lo[k] > q.hi[k] {
            (q.hi[k], p.lo[k])
        } else {
            continue;
        };
        let g = BigRational::from_float(hi)? - BigRational::from_float(lo)?;
        s += &g * &g;
    }
    Some(s)
}

/// A finite, non-NaN f64 with a total order (for the heap).
#[derive(Clone, Copy, Debug, PartialEq)]
struct OrdF64(f64);
impl Eq for OrdF64 {}
impl PartialOrd for OrdF64 {
    fn partial_cmp(&self, o: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(o))
    }
}
impl Ord for OrdF64 {
    fn cmp(&self, o: &Self) -> std::cmp::Ordering {
        self.0.total_cmp(&o.0)
    }
}
