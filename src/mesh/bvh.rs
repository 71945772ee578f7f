//! A bounding-volume hierarchy of axis-aligned boxes, built by median splits.

use super::Mesh;
use crate::num::scalar::Scalar;
use crate::vector::Vec3;

/// An axis-aligned box `[lo, hi]` (closed) that encloses its triangles exactly.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Aabb {
    /// Lower corner.
    pub lo: [f64; 3],
    /// Upper corner.
    pub hi: [f64; 3],
}

impl Aabb {
    const EMPTY: Aabb = Aabb {
        lo: [f64::INFINITY; 3],
        hi: [f64::NEG_INFINITY; 3],
    };

    /// The smallest box (with double corners) containing the exact point `p`:
    /// exact for float coordinates, one rounding outward for rationals.
    pub fn of_point<S: Scalar>(p: &Vec3<S>) -> Aabb {
        let mut b = Aabb::EMPTY;
        for k in 0..3 {
            let iv = p.get(k).to_interval();
            b.lo[k] = iv.lo;
            b.hi[k] = iv.hi;
        }
        b
    }

    /// The union of two boxes.
    pub fn union(&self, o: &Aabb) -> Aabb {
        let mut b = *self;
        for k in 0..3 {
            b.lo[k] = b.lo[k].min(o.lo[k]);
            b.hi[k] = b.hi[k].max(o.hi[k]);
        }
        b
    }

    /// Whether the closed boxes share a point (no arithmetic: comparisons only).
    pub fn overlaps(&self, o: &Aabb) -> bool {
        (0..3).all(|k| self.lo[k] <= o.hi[k] && o.lo[k] <= self.hi[k])
    }

    /// The largest side (rounded; used only to choose which node to split).
    pub fn extent(&self) -> f64 {
        (0..3).map(|k| self.hi[k] - self.lo[k]).fold(0.0, f64::max)
    }

    fn center(&self, k: usize) -> f64 {
        self.lo[k] * 0.5 + self.hi[k] * 0.5
    }
}

#[derive(Clone, Debug)]
struct Node {
    bbox: Aabb,
    /// Inner: the children; leaf: `None`.
    children: Option<(usize, usize)>,
    /// Leaf: the range in `items`.
    start: usize,
    end: usize,
}

/// A bounding-volume hierarchy over a mesh's triangles (leaves of at most 4).
///
/// ```
/// use exact_collision::mesh::{Aabb, Bvh, Mesh};
/// use exact_collision::{Triangle, Vec3};
/// let t = |x: f64| Triangle::new([Vec3::new(x, 0., 0.), Vec3::new(x + 1., 0., 0.), Vec3::new(x, 1., 0.)]);
/// let m = Mesh::new((0..10).map(|i| t(2.0 * i as f64)).collect());
/// let bvh = Bvh::new(&m);
/// let mut hits = Vec::new();
/// // The closed box touches triangle 1 (x ∈ [2, 3]) at x = 3 only.
/// bvh.overlapping(&Aabb { lo: [3.0, 0.0, 0.0], hi: [3.5, 1.0, 0.0] }, &mut hits);
/// assert_eq!(hits, vec![1]);
/// ```
#[derive(Clone, Debug)]
pub struct Bvh {
    nodes: Vec<Node>,
    items: Vec<usize>,
    leaf_boxes: Vec<Aabb>,
}

const LEAF: usize = 4;

impl Bvh {
    /// Build the hierarchy of `mesh` (an empty mesh gets one empty leaf).
    pub fn new<S: Scalar>(mesh: &Mesh<S>) -> Bvh {
        let leaf_boxes: Vec<Aabb> = mesh
            .triangles
            .iter()
            .map(|t| {
                t.v.iter()
                    .map(Aabb::of_point)
                    .fold(Aabb::EMPTY, |a, b| a.union(&b))
            })
            .collect();
        let mut bvh = Bvh {
            nodes: Vec::with_capacity(2 * mesh.triangles.len() / LEAF + 1),
            items: (0..mesh.triangles.len()).collect(),
            leaf_boxes,
        };
        let n = bvh.items.len();
        bvh.build(0, n);
        bvh
    }

    fn build(&mut self, start: usize, end: usize) -> usize {
        let bbox = self.items[start..end]
            .iter()
            .fold(Aabb::EMPTY, |a, &i| a.union(&self.leaf_boxes[i]));
        let id = self.nodes.len();
        self.nodes.push(Node {
            bbox,
            children: None,
            start,
            end,
        });
        if end - start > LEAF {
            let axis = (0..3)
                .max_by(|&x, &y| (bbox.hi[x] - bbox.lo[x]).total_cmp(&(bbox.hi[y] - bbox.lo[y])))
                .unwrap_or(0);
            let mid = (start + end) / 2;
            let boxes = &self.leaf_boxes;
            self.items[start..end].select_nth_unstable_by(mid - start, |&i, &j| {
                boxes[i].center(axis).total_cmp(&boxes[j].center(axis))
            });
            let l = self.build(start, mid);
            let r = self.build(mid, end);
            self.nodes[id].children = Some((l, r));
        }
        id
    }

    /// The box of node `n` (0 is the root).
    pub fn node_box(&self, n: usize) -> &Aabb {
        &self.nodes[n].bbox
    }

    /// The children of node `n`, or `None` for a leaf.
    pub fn children(&self, n: usize) -> Option<(usize, usize)> {
        self.nodes[n].children
    }

    /// The triangles of leaf `n`.
    pub fn leaf_items(&self, n: usize) -> &[usize] {
        &self.items[self.nodes[n].start..self.nodes[n].end]
    }

    /// The box of triangle `i`.
    pub fn leaf_box(&self, i: usize) -> Aabb {
        self.leaf_boxes[i]
    }

    /// Push every triangle whose box overlaps `q` (closed) onto `out`.
    pub fn overlapping(&self, q: &Aabb, out: &mut Vec<usize>) {
        if self.items.is_empty() {
            return;
        }
        let mut stack = vec![0usize];
        while let Some(n) = stack.pop() {
            let node = &self.nodes[n];
            if !node.bbox.overlaps(q) {
                continue;
            }
            match node.children {
                Some((l, r)) => {
                    stack.push(l);
                    stack.push(r);
                }
                None => out.extend(
                    self.items[node.start..node.end]
                        .iter()
                        .filter(|&&i| self.leaf_boxes[i].overlaps(q)),
                ),
            }
        }
    }
}
