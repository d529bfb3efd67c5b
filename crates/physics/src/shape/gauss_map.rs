//! The Gauss map of a convex hull, built once with the hull: its face normals and offsets, the
//! two faces of every edge, an inscribed ball, and the tables of least heights (height_cells.rs,
//! height_disks.rs) that the penetration search of two hulls (geometry/hull_depth.rs) reads.

use super::height_cells::{vertex_caps, HeightCells};
use super::height_disks::HeightDisks;
use super::{HullFace, HullGraph};
use crate::math::Vec3;

/// The Gauss map of a hull: face normals and offsets, the two faces of every edge of the graph,
/// and the largest ball about a centre inside it.
#[derive(Clone, Debug, Default)]
pub(crate) struct GaussMap {
    /// Outward unit normal of each face (a copy of the faces', contiguous).
    pub(crate) normals: Vec<Vec3>,
    /// `normal . vertex` of each face: the support value along its normal.
    pub(crate) offsets: Vec<f64>,
    /// For each entry of the graph's neighbour rows (the edge from a vertex to that neighbour),
    /// the two faces sharing the edge and the cosine of its arc.
    pub(crate) edges: Vec<GaussEdge>,
    pub(crate) centre: Vec3,
    /// The distance from `centre` to each face's plane (`offset - normal . centre`).
    pub(crate) heights: Vec<f64>,
    /// Per vertex, the least height of the faces around it and its entries in `edges`: what a
    /// walk reads of a vertex, together.
    pub(crate) vertices: Vec<GaussVertex>,
    /// The least height of all (> 0): the ball of this radius about `centre` is inside.
    pub(crate) inradius: f64,
    /// False when the faces are not a closed polyhedron (an edge not shared by exactly two faces).
    pub(crate) usable: bool,
    /// The least vertex height per cell of directions.
    pub(crate) cells: HeightCells,
    /// The least vertex height per vertex and ring of directions about its cell.
    pub(crate) disks: HeightDisks,
}

/// A vertex on a hull's Gauss map.
#[derive(Clone, Copy, Debug)]
pub(crate) struct GaussVertex {
    /// The least height of the faces around it: along any direction whose support vertex it is,
    /// the hull reaches at least this far beyond the centre.
    pub(crate) height: f64,
    /// Its edges: `edges[start..end]`, the graph's neighbour row.
    pub(crate) start: u32,
    pub(crate) end: u32,
}

/// One entry of a hull's neighbour rows on its Gauss map: the edge from a vertex to a neighbour.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct GaussEdge {
    /// The outward unit normals of its two faces, at the ends of its arc (copies, read in place
    /// by the walk), and their cross product `n2 x n1` (the edge-pair tests' plane of the arc).
    pub(crate) n1: Vec3,
    pub(crate) n2: Vec3,
    pub(crate) n2_x_n1: Vec3,
    /// The two faces sharing the edge.
    pub(crate) faces: [u32; 2],
    /// The cosine of the edge's arc: the dot product of its two faces' normals.
    pub(crate) cos: f64,
    /// `1 - cos^2`, the square of the arc's sine, for the arc test; -1 for an arc too short for
    /// the test's formula (see `arc_in_cone` in geometry/hull_depth.rs).
    pub(crate) sine2: f64,
    /// The lower height of its two faces.
    pub(crate) height: f64,
    /// Bit `i` set when the edge is the first edge of `faces[i]` (its first two vertices): the
    /// walked edge from which a face is taken as a candidate, once (from either direction).
    pub(crate) first: u8,
    /// The neighbour: the edge's other end.
    pub(crate) to: u32,
}

/// [`GaussEdge::sine2`] of an arc whose cosine is `k`.
pub(crate) fn arc_sine2(k: f64) -> f64 {
    let sine2 = 1.0 - k * k;
    if sine2.is_nan() || sine2 <= SHORT_ARC {
        -1.0
    } else {
        sine2
    }
}

/// The square of the sine below which an arc is short (see `arc_in_cone` in geometry/hull_depth.rs).
pub(crate) const SHORT_ARC: f64 = 1e-6;

impl GaussMap {
    pub(crate) fn new(vertices: &[Vec3], faces: &[HullFace], graph: &HullGraph) -> GaussMap {
        let normals: Vec<Vec3> = faces.iter().map(|f| f.normal).collect();
        let offsets: Vec<f64> = faces.iter().map(|f| f.normal.dot(&vertices[f.vertices[0] as usize])).collect();
        let centre = vertices.iter().sum::<Vec3>() / vertices.len().max(1) as f64;
        let heights: Vec<f64> = faces.iter().zip(&offsets).map(|(f, o)| o - f.normal.dot(&centre)).collect();
        let inradius = heights.iter().copied().fold(f64::INFINITY, f64::min);
        let vertex_heights: Vec<f64> =
            (0..vertices.len()).map(|v| graph.faces_of(v).iter().map(|&f| heights[f as usize]).fold(f64::INFINITY, f64::min)).collect();
        let gauss_vertices = vertex_heights
            .iter()
            .enumerate()
            .map(|(v, &height)| GaussVertex { height, start: graph.neighbor_start[v], end: graph.neighbor_start[v + 1] })
            .collect();
        let mut usable = inradius > 0.0 && inradius.is_finite();
        // Per face, its first edge (its first two vertices, the smaller first).
        let face_edges: Vec<[u32; 2]> = faces
            .iter()
            .map(|f| match f.vertices[..] {
                [p, q, ..] => [p.min(q), p.max(q)],
                _ => [u32::MAX, u32::MAX],
            })
            .collect();
        let mut edges = Vec::with_capacity(graph.neighbors.len());
        for v in 0..vertices.len() {
            for &w in graph.neighbors(v) {
                let shared: Vec<u32> = graph.faces_of(v).iter().copied().filter(|f| graph.faces_of(w as usize).contains(f)).collect();
                if let [f1, f2] = shared[..] {
                    let key = [(v as u32).min(w), (v as u32).max(w)];
                    let first = u8::from(face_edges[f1 as usize] == key) | (u8::from(face_edges[f2 as usize] == key) << 1);
                    let (n1, n2) = (normals[f1 as usize], normals[f2 as usize]);
                    let height = heights[f1 as usize].min(heights[f2 as usize]);
                    let cos = n1.dot(&n2);
                    edges.push(GaussEdge { n1, n2, n2_x_n1: n2.cross(&n1), faces: [f1, f2], cos, sine2: arc_sine2(cos), height, first, to: w });
                } else {
                    usable = false;
                    edges.push(GaussEdge { to: w, ..GaussEdge::default() });
                }
            }
        }
        let caps = vertex_caps(&normals, vertices.len(), |v| graph.faces_of(v)).unwrap_or_default();
        let cells = HeightCells::new(&vertex_heights, &caps);
        let disks = HeightDisks::new(&vertex_heights, &caps);
        GaussMap { normals, offsets, edges, centre, heights, vertices: gauss_vertices, inradius, usable, cells, disks }
    }
}
