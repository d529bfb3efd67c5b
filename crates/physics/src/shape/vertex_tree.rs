//! A bounding-volume hierarchy over the vertices of a hull or a mesh, for the plane pair: the
//! vertices below a plane, and the lowest vertex, without visiting every vertex.
//!
//! Each node holds the axis-aligned box of its vertices (in the shape's frame); a leaf holds at
//! most [`LEAF`] vertex indices. Over a node's box the height above a plane with unit normal `m`
//! (in the shape's frame) is at least `min_box(v · m) - offset`, where the minimum over a box is
//! taken corner-wise per axis. The queries skip a node only when that bound exceeds the answer
//! by more than a rounding margin, and compute every visited vertex's height exactly as the scan
//! does, so they return the scan's points: the same heights, the same first lowest vertex.

use crate::math::Vec3;

/// Most vertices in a leaf.
const LEAF: usize = 8;

#[derive(Clone, Copy, Debug)]
struct Node {
    min: Vec3,
    max: Vec3,
    /// Leaf: its vertices are `order[start..start + count]`. Internal (`count == 0`): the left
    /// child is the next node, the right one is node `start`.
    start: u32,
    count: u32,
}

/// The hierarchy of one vertex set (built once with the shape).
#[derive(Clone, Debug, Default)]
pub struct VertexTree {
    nodes: Vec<Node>,
    /// Vertex indices, grouped by leaf.
    order: Vec<u32>,
}

impl VertexTree {
    pub fn new(vertices: &[Vec3]) -> VertexTree {
        let mut tree = VertexTree { nodes: Vec::new(), order: (0..vertices.len() as u32).collect() };
        if !vertices.is_empty() {
            tree.build(vertices, 0, vertices.len());
        }
        tree
    }

    /// Builds the node of `order[start..end]` and its subtree; returns its index.
    fn build(&mut self, vertices: &[Vec3], start: usize, end: usize) -> usize {
        let (mut min, mut max) = (Vec3::repeat(f64::INFINITY), Vec3::repeat(f64::NEG_INFINITY));
        for &i in &self.order[start..end] {
            min = min.inf(&vertices[i as usize]);
            max = max.sup(&vertices[i as usize]);
        }
        let index = self.nodes.len();
        self.nodes.push(Node { min, max, start: start as u32, count: (end - start) as u32 });
        if end - start > LEAF {
            let axis = (max - min).imax();
            let middle = (start + end) / 2;
            self.order[start..end].select_nth_unstable_by(middle - start, |&a, &b| {
                vertices[a as usize][axis].total_cmp(&vertices[b as usize][axis]).then(a.cmp(&b))
            });
            self.build(vertices, start, middle);
            let right = self.build(vertices, middle, end);
            self.nodes[index].start = right as u32;
            self.nodes[index].count = 0;
        }
        index
    }

    /// The largest distance of a vertex from the frame's origin, bounded by the root box.
    pub fn radius(&self) -> f64 {
        self.nodes.first().map_or(0.0, |root| root.min.abs().sup(&root.max.abs()).norm())
    }

    /// The least `v · m` over a node's box.
    fn lowest(node: &Node, m: &Vec3) -> f64 {
        (0..3).map(|k| (node.min[k] * m[k]).min(node.max[k] * m[k])).sum()
    }

    /// Calls `visit(i)` for every vertex i in a node whose box reaches `v · m <= limit`
    /// (vertices well above it are skipped a node at a time), without allocating: the tree is
    /// walked with a fixed stack (its depth is below 64 for any vertex count that fits in memory).
    pub fn below(&self, m: &Vec3, limit: f64, mut visit: impl FnMut(usize)) {
        if self.nodes.is_empty() {
            return;
        }
        let mut stack = [0u32; 64];
        let mut top = 1;
        while top > 0 {
            top -= 1;
            let index = stack[top] as usize;
            let node = &self.nodes[index];
            if Self::lowest(node, m) > limit {
                continue;
            }
            if node.count > 0 {
                for &i in &self.order[node.start as usize..(node.start + node.count) as usize] {
                    visit(i as usize);
                }
            } else {
                stack[top] = node.start;
                stack[top + 1] = index as u32 + 1;
                top += 2;
            }
        }
    }

    /// The vertex with the least `height(i)` (the first of equally low ones), where
    /// `height(i) >= v_i · m - offset - margin` for every vertex: branch and bound, nearer
    /// subtrees first.
    pub fn lowest_vertex(&self, m: &Vec3, offset: f64, margin: f64, height: impl Fn(usize) -> f64) -> Option<(usize, f64)> {
        let mut best: Option<(usize, f64)> = None;
        if self.nodes.is_empty() {
            return best;
        }
        let better = |i: usize, h: f64, best: &Option<(usize, f64)>| best.is_none_or(|(j, b)| h < b || (h == b && i < j));
        let mut stack = [0u32; 64];
        let mut top = 1;
        while top > 0 {
            top -= 1;
            let index = stack[top] as usize;
            let node = &self.nodes[index];
            if best.is_some_and(|(_, b)| Self::lowest(node, m) - offset - margin > b) {
                continue;
            }
            if node.count > 0 {
                for &i in &self.order[node.start as usize..(node.start + node.count) as usize] {
                    let h = height(i as usize);
                    if better(i as usize, h, &best) {
                        best = Some((i as usize, h));
                    }
                }
            } else {
                // The lower child is searched first (pushed last).
                let (left, right) = (index + 1, node.start as usize);
                let (near, far) =
                    if Self::lowest(&self.nodes[left], m) <= Self::lowest(&self.nodes[right], m) { (left, right) } else { (right, left) };
                stack[top] = far as u32;
                stack[top + 1] = near as u32;
                top += 2;
            }
        }
        best
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_tree_finds_what_a_scan_finds() {
        let mut state = 0x1234_5678_u64;
        let mut next = || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            (state >> 11) as f64 / (1u64 << 53) as f64 - 0.5
        };
        let vertices: Vec<Vec3> = (0..3000).map(|_| Vec3::new(next(), next(), next())).collect();
        let tree = VertexTree::new(&vertices);
        for _ in 0..50 {
            let m = Vec3::new(next(), next(), next()).normalize();
            let limit = next() * 0.5;
            let mut found = Vec::new();
            tree.below(&m, limit, |i| found.push(i));
            let hits: Vec<usize> = found.iter().copied().filter(|&i| vertices[i].dot(&m) <= limit).collect();
            let mut hits_sorted = hits.clone();
            hits_sorted.sort_unstable();
            let expected: Vec<usize> = (0..vertices.len()).filter(|&i| vertices[i].dot(&m) <= limit).collect();
            assert_eq!(hits_sorted, expected);
            assert!(found.len() < vertices.len(), "the tree skips some vertices");
            let lowest = tree.lowest_vertex(&m, 0.0, 0.0, |i| vertices[i].dot(&m)).unwrap();
            let scan = (0..vertices.len()).min_by(|&a, &b| vertices[a].dot(&m).total_cmp(&vertices[b].dot(&m))).unwrap();
            assert_eq!(lowest.0, scan);
        }
    }
}
