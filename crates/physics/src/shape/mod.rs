//! The shapes a contact geometry can take, each in its own geometry frame.
//!
//! With a hull or a mesh, what is built once for the pairs' queries: a hull's Gauss map (`gauss_map`, with its
//! tables of least heights, `height_cells` and `height_disks`), the vertices' tree (`vertex_tree`), and
//! parry's shapes (`parry`, which builds the file shapes).

// The items' doc comments are also their descriptions in the model descriptions, which show
// `size[1]` verbatim; rustdoc would read `[1]` as a link, and escaping it would put backslashes
// into the XML.
#![allow(rustdoc::broken_intra_doc_links)]

use std::sync::Arc;

use super::enums::stable_enum;
use super::math::Vec3;
use gauss_map::GaussMap;
use vertex_tree::VertexTree;

pub(crate) mod gauss_map;
pub(crate) mod height_cells;
pub(crate) mod height_disks;
pub mod parry;
pub(crate) mod vertex_tree;

stable_enum! {
    /// Shape of a contact geometry (`geometry_X.shape`). Dimensions come from `radius`, `length`
    /// and `size`; files from `file`.
    pub enum ShapeKind {
        /// A single point at the geometry frame's origin.
        Point = 1,
        /// Sphere of the given radius centred at the origin.
        Sphere = 2,
        /// Box with full extents size[1] x size[2] x size[3], centred at the origin.
        Box = 3,
        /// Solid cylinder of the given radius and length along the local z axis, centred.
        Cylinder = 4,
        /// Capsule: segment of the given length along local z, swept by a sphere of the radius.
        Capsule = 5,
        /// Ellipsoid with semi-axes size[1], size[2], size[3].
        Ellipsoid = 6,
        /// Flat disk of the given radius in the local xy plane, normal +z.
        Disk = 7,
        /// Flat rectangle size[1] x size[2] in the local xy plane, normal +z.
        Rectangle = 8,
        /// Infinite half-space z <= 0 with outward normal +z.
        Plane = 9,
        /// Convex hull of the vertices in a file.
        ConvexHull = 10,
        /// Non-convex triangle mesh from an OBJ or STL file.
        Mesh = 11,
        /// Points read from a CSV or text file.
        PointCloud = 12,
        /// Height field z = h(x, y) on a regular grid from a file, bilinear.
        GridSurface = 13,
        /// Several shapes on one body (Adams' IGEOM/JGEOM lists): a text file with one shape per line, its kind, sizes and pose in the geometry frame; every pair of parts is evaluated and the forces summed.
        Compound = 14,
    }
}

/// A shape with its dimensions, ready for the geometry pairs. Dimensions are half extents and
/// half lengths (the interface's full `size` and `length` are halved when the shape is built).
/// Shapes read from files share their data through `Arc`, so copies of a block stay cheap.
#[derive(Clone, Debug)]
pub enum Shape {
    Point,
    Sphere { radius: f64 },
    Box { half_extents: Vec3 },
    /// Axis = local z, centred.
    Cylinder { radius: f64, half_length: f64 },
    /// Segment along local z of length 2 half_length, swept by a sphere of the radius.
    Capsule { radius: f64, half_length: f64 },
    Ellipsoid { semi_axes: Vec3 },
    /// In the local xy plane, normal +z.
    Disk { radius: f64 },
    /// In the local xy plane, normal +z.
    Rectangle { half_x: f64, half_y: f64 },
    /// The half-space z <= 0, normal +z.
    Plane,
    ConvexHull(Arc<ConvexHull>),
    Mesh(Arc<TriangleMesh>),
    PointCloud(Arc<PointCloud>),
    GridSurface(Arc<HeightField>),
    /// Several shapes, each with its pose in the geometry frame.
    Compound(Arc<Compound>),
}

/// The shapes of a [`ShapeKind::Compound`] geometry, read from its file (`files::compound`).
#[derive(Clone, Debug)]
pub struct Compound {
    /// The parts in the order of the file's lines.
    pub parts: Vec<Part>,
    /// The file the parts were read from (named in refusals).
    pub path: std::path::PathBuf,
}

/// One shape of a [`Compound`].
#[derive(Clone, Debug)]
pub struct Part {
    /// Never a compound itself.
    pub shape: Shape,
    /// The part's frame in the compound's geometry frame.
    pub pose: super::math::Pose,
    /// The 1-based line of the file that gave the part.
    pub line: usize,
}

/// The convex hull of a set of points, in the geometry frame: built once by [`ConvexHull::new`],
/// which keeps only the hull's own vertices and its faces (coplanar triangles merged into polygons).
#[derive(Clone)]
pub struct ConvexHull {
    /// The hull's vertices; vertex i is contact point i of the hull-plane pair.
    pub vertices: Vec<Vec3>,
    /// The faces: vertex indices counter-clockwise seen from outside, and the outward unit normal.
    pub faces: Vec<HullFace>,
    /// The same hull for parry's queries (point projection).
    pub(crate) polyhedron: parry3d_f64::shape::ConvexPolyhedron,
    /// Which vertices share an edge and which faces meet at each vertex: the support queries of
    /// large hulls climb it instead of scanning every vertex.
    pub(crate) graph: HullGraph,
    /// The vertices' bounding-volume tree (the plane pair's queries).
    pub(crate) vertex_tree: VertexTree,
    /// Face normals and offsets, the faces of each edge and an inscribed ball (the penetration
    /// search of two hulls).
    pub(crate) gauss: GaussMap,
}

/// The edge graph of a [`ConvexHull`], in compressed rows: vertex i's neighbours are
/// `neighbors[neighbor_start[i]..neighbor_start[i + 1]]`, the faces around it (in face order)
/// `faces[face_start[i]..face_start[i + 1]]`.
#[derive(Clone, Debug, Default)]
pub(crate) struct HullGraph {
    pub neighbor_start: Vec<u32>,
    pub neighbors: Vec<u32>,
    pub face_start: Vec<u32>,
    pub faces: Vec<u32>,
    /// A cube map of directions: the vertex farthest along the centre direction of each of the
    /// `6 SEED_GRID^2` cells of the unit cube's faces. The climb starts from the cell of `d`,
    /// usually a step or two from the answer.
    pub seeds: Vec<u32>,
}

/// Cells along each edge of a cube-map face.
const SEED_GRID: usize = 8;

/// The cube-map cell of a direction (any length, not zero): the face of its largest component
/// and the cell of the other two, divided by it.
#[inline(always)]
fn seed_cell(d: &Vec3) -> usize {
    let a = d.iamax();
    let face = 2 * a + usize::from(d[a] < 0.0);
    let (u, v) = (d[(a + 1) % 3] / d[a].abs(), d[(a + 2) % 3] / d[a].abs());
    let cell = |x: f64| (((x + 1.0) * 0.5 * SEED_GRID as f64) as usize).min(SEED_GRID - 1);
    (face * SEED_GRID + cell(u)) * SEED_GRID + cell(v)
}

/// Hulls with at most this many vertices scan them all (as fast as climbing, and exact on ties).
pub(crate) const SCAN_VERTICES: usize = 32;

impl HullGraph {
    /// The graph of a hull with these vertices and faces.
    pub fn new(vertices: &[Vec3], faces: &[HullFace]) -> HullGraph {
        let mut neighbors: Vec<Vec<u32>> = vec![Vec::new(); vertices.len()];
        let mut around: Vec<Vec<u32>> = vec![Vec::new(); vertices.len()];
        for (f, face) in faces.iter().enumerate() {
            for k in 0..face.vertices.len() {
                let (i, j) = (face.vertices[k], face.vertices[(k + 1) % face.vertices.len()]);
                neighbors[i as usize].push(j);
                neighbors[j as usize].push(i);
                around[i as usize].push(f as u32);
            }
        }
        let mut graph = HullGraph::default();
        graph.neighbor_start.push(0);
        graph.face_start.push(0);
        for (mut n, f) in neighbors.into_iter().zip(around) {
            n.sort_unstable();
            n.dedup();
            graph.neighbors.extend(n);
            graph.neighbor_start.push(graph.neighbors.len() as u32);
            graph.faces.extend(f);
            graph.face_start.push(graph.faces.len() as u32);
        }
        if vertices.len() > SCAN_VERTICES {
            let centre = |k: usize| -1.0 + (2.0 * k as f64 + 1.0) / SEED_GRID as f64;
            for face in 0..6 {
                let (a, sign) = (face / 2, if face % 2 == 0 { 1.0 } else { -1.0 });
                for i in 0..SEED_GRID {
                    for j in 0..SEED_GRID {
                        let mut d = Vec3::zeros();
                        d[a] = sign;
                        d[(a + 1) % 3] = centre(i);
                        d[(a + 2) % 3] = centre(j);
                        debug_assert_eq!(seed_cell(&d), graph.seeds.len());
                        graph.seeds.push(scan(vertices, &d) as u32);
                    }
                }
            }
        }
        graph
    }

    #[inline(always)]
    pub fn neighbors(&self, i: usize) -> &[u32] {
        &self.neighbors[self.neighbor_start[i] as usize..self.neighbor_start[i + 1] as usize]
    }

    /// The faces that have vertex i, in face order.
    pub fn faces_of(&self, i: usize) -> &[u32] {
        &self.faces[self.face_start[i] as usize..self.face_start[i + 1] as usize]
    }
}

/// The vertex farthest along `d` by a scan: the last of equally far ones.
pub(crate) fn scan(vertices: &[Vec3], d: &Vec3) -> usize {
    (0..vertices.len()).max_by(|&a, &b| vertices[a].dot(d).total_cmp(&vertices[b].dot(d))).unwrap_or(0)
}

impl ConvexHull {
    /// The index of the vertex farthest along `d` (any length).
    ///
    /// Small hulls scan their vertices. Large ones climb the edge graph from the seed of `d`'s
    /// cube-map cell,
    /// moving to the farthest neighbour while one is farther: a linear function over a convex
    /// polyhedron has no local maximum on its edge graph that is not the global one (the simplex
    /// method's argument), so this is the scan's vertex in a few dozen dot products instead of
    /// one per vertex. Among vertices exactly as far (a face or an edge facing `d`, which are
    /// connected through their edges), the one with the largest index is returned, as the scan
    /// does.
    #[inline(always)]
    pub fn support_index(&self, d: &Vec3) -> usize {
        let vertices = &self.vertices;
        if vertices.len() <= SCAN_VERTICES || self.graph.seeds.is_empty() {
            return scan(vertices, d);
        }
        if !(d.amax() > 0.0 && d.iter().all(|x| x.is_finite())) {
            return scan(vertices, d);
        }
        self.climb(d, self.graph.seeds[seed_cell(d)] as usize)
    }

    /// [`ConvexHull::support_index`] climbing from `seed` (a vertex index) instead of the cube-map
    /// seed: a few dot products when the seed is the answer or next to it (a vertex the caller
    /// already found near the support). The climb ends at the farthest vertex from any seed (see
    /// `support_index`); among exactly equally far vertices it returns the largest index of the
    /// ones connected to where it ends, as from the cube-map seed.
    #[inline(always)]
    pub fn support_index_from(&self, d: &Vec3, seed: usize) -> usize {
        let vertices = &self.vertices;
        if vertices.len() <= SCAN_VERTICES || self.graph.seeds.is_empty() || seed >= vertices.len() {
            return scan(vertices, d);
        }
        if !(d.amax() > 0.0 && d.iter().all(|x| x.is_finite())) {
            return scan(vertices, d);
        }
        self.climb(d, seed)
    }

    /// The climb of [`ConvexHull::support_index`] from vertex `seed` (a large hull, finite `d`).
    #[inline(always)]
    fn climb(&self, d: &Vec3, seed: usize) -> usize {
        let vertices = &self.vertices;
        let far = |i: usize| vertices[i].dot(d);
        let mut best = seed;
        let mut best_far = far(best);
        loop {
            let mut next = best;
            let mut next_far = best_far;
            // Whether a neighbour is as far as the best so far (for the last round: as `best`).
            let mut tie = false;
            for &n in self.graph.neighbors(best) {
                let x = far(n as usize);
                if x > next_far {
                    (next, next_far) = (n as usize, x);
                } else if x == next_far {
                    tie = true;
                }
            }
            if next == best {
                // No neighbour as far: the plateau is `best` alone.
                if !tie {
                    return best;
                }
                break;
            }
            (best, best_far) = (next, next_far);
        }
        // Equally far vertices: walk the plateau (bounded, as a face or an edge is small) to its
        // largest index.
        let mut plateau = [0u32; 64];
        let (mut seen, mut head) = (1, 0);
        plateau[0] = best as u32;
        while head < seen {
            let i = plateau[head] as usize;
            head += 1;
            for &n in self.graph.neighbors(i) {
                if far(n as usize) == best_far && !plateau[..seen].contains(&n) {
                    if seen == plateau.len() {
                        return scan(vertices, d);
                    }
                    plateau[seen] = n;
                    seen += 1;
                }
            }
        }
        plateau[..seen].iter().map(|&i| i as usize).max().unwrap_or(best)
    }
}

/// One planar face of a [`ConvexHull`].
#[derive(Clone, Debug)]
pub struct HullFace {
    pub vertices: Vec<u32>,
    pub normal: Vec3,
}

impl ConvexHull {
    /// The hull of `points`; an error (a sentence) when they span no volume.
    pub fn new(points: &[Vec3]) -> Result<ConvexHull, String> {
        parry::convex_hull(points)
    }
}

impl std::fmt::Debug for ConvexHull {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ConvexHull").field("vertices", &self.vertices).field("faces", &self.faces).finish()
    }
}

/// A triangle mesh (not necessarily convex, not necessarily closed), in the geometry frame: built
/// once by [`TriangleMesh::new`], which merges duplicate vertices (STL repeats them per triangle),
/// drops degenerate triangles, orients a closed mesh outward, and keeps parry's mesh with its
/// bounding-volume tree and pseudo-normals for the queries.
#[derive(Clone)]
pub struct TriangleMesh {
    /// Vertex i is contact point i of the mesh-plane pair.
    pub vertices: Vec<Vec3>,
    pub triangles: Vec<[u32; 3]>,
    /// True when every edge is shared by exactly two triangles (the mesh bounds a volume).
    pub closed: bool,
    pub(crate) trimesh: parry3d_f64::shape::TriMesh,
    /// The vertices' bounding-volume tree (the plane pair's queries).
    pub(crate) vertex_tree: VertexTree,
}

impl TriangleMesh {
    /// The mesh of `vertices` and `triangles` (indices into `vertices`); an error (a sentence)
    /// when an index is out of range or no triangle with an area is left.
    pub fn new(vertices: &[Vec3], triangles: &[[u32; 3]]) -> Result<TriangleMesh, String> {
        parry::triangle_mesh(vertices, triangles)
    }
}

impl std::fmt::Debug for TriangleMesh {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("TriangleMesh")
            .field("vertices", &self.vertices.len())
            .field("triangles", &self.triangles.len())
            .field("closed", &self.closed)
            .finish()
    }
}

/// Points, in the geometry frame; point i is contact point i.
#[derive(Clone, Debug, Default)]
pub struct PointCloud {
    pub points: Vec<Vec3>,
}

/// A height field z = h(x, y) on a regular grid, bilinear between the nodes: node (i, j) is at
/// `(x0 + i dx, y0 + j dy)` with height `heights[j * nx + i]`.
#[derive(Clone, Debug, Default)]
pub struct HeightField {
    pub x0: f64,
    pub y0: f64,
    pub dx: f64,
    pub dy: f64,
    pub nx: usize,
    pub ny: usize,
    pub heights: Vec<f64>,
}

impl Shape {
    pub fn kind(&self) -> ShapeKind {
        match self {
            Shape::Point => ShapeKind::Point,
            Shape::Sphere { .. } => ShapeKind::Sphere,
            Shape::Box { .. } => ShapeKind::Box,
            Shape::Cylinder { .. } => ShapeKind::Cylinder,
            Shape::Capsule { .. } => ShapeKind::Capsule,
            Shape::Ellipsoid { .. } => ShapeKind::Ellipsoid,
            Shape::Disk { .. } => ShapeKind::Disk,
            Shape::Rectangle { .. } => ShapeKind::Rectangle,
            Shape::Plane => ShapeKind::Plane,
            Shape::ConvexHull(_) => ShapeKind::ConvexHull,
            Shape::Mesh(_) => ShapeKind::Mesh,
            Shape::PointCloud(_) => ShapeKind::PointCloud,
            Shape::GridSurface(_) => ShapeKind::GridSurface,
            Shape::Compound(_) => ShapeKind::Compound,
        }
    }

    /// Radius of curvature \[m\] of the surface where it rolls: the radius of round shapes,
    /// infinite for flat ones, 0 for points (which cannot roll) and for a compound (its parts
    /// have several).
    pub fn rolling_radius(&self) -> f64 {
        match self {
            Shape::Sphere { radius } | Shape::Cylinder { radius, .. } | Shape::Capsule { radius, .. } => *radius,
            Shape::Ellipsoid { semi_axes } => semi_axes.min(),
            Shape::Point | Shape::PointCloud(_) | Shape::Compound(_) => 0.0,
            _ => f64::INFINITY,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// xorshift64*, uniform in [-1, 1).
    fn draws(seed: u64) -> impl FnMut() -> f64 {
        let mut state = seed;
        move || {
            state ^= state >> 12;
            state ^= state << 25;
            state ^= state >> 27;
            (state.wrapping_mul(0x2545_f491_4f6c_dd1d) >> 11) as f64 / (1u64 << 52) as f64 - 1.0
        }
    }

    fn assert_climb_matches_scan(hull: &ConvexHull, directions: &[Vec3]) {
        assert!(hull.vertices.len() > SCAN_VERTICES, "the hull must be large enough to climb");
        for (k, d) in directions.iter().enumerate() {
            assert_eq!(hull.support_index(d), scan(&hull.vertices, d), "direction {d}");
            // From any seed (here spread over the hull, and out of range) the climb ends there too.
            let seed = (k * 7919) % (hull.vertices.len() + 3);
            assert_eq!(hull.support_index_from(d, seed), scan(&hull.vertices, d), "direction {d} from {seed}");
        }
    }

    #[test]
    fn climbing_a_large_hull_finds_the_vertex_a_scan_finds() {
        let mut next = draws(0x0c0f_fee5);
        let sphere: Vec<Vec3> = (0..1000).map(|_| Vec3::new(next(), next(), next()).normalize()).collect();
        let blob: Vec<Vec3> = (0..3000).map(|_| Vec3::new(next(), 0.3 * next(), 2.0 * next())).collect();
        let mut directions: Vec<Vec3> = (0..400).map(|_| Vec3::new(next(), next(), next())).collect();
        // Cube-map cell borders and axes.
        directions.extend([Vec3::x(), -Vec3::y(), Vec3::new(1.0, 1.0, 0.0), Vec3::new(-1.0, 1.0, 1.0), Vec3::new(1e-9, 0.0, -1.0)]);
        for points in [sphere, blob] {
            assert_climb_matches_scan(&ConvexHull::new(&points).unwrap(), &directions);
        }
    }

    #[test]
    fn ties_on_a_face_resolve_to_the_scans_vertex() {
        // A cube sampled on a grid on its faces: every axis direction faces a plateau of 36
        // equally far vertices (after the hull keeps its own vertices: the corners and whatever
        // the hull keeps on the faces), and the scan answers the last of them.
        let mut points = Vec::new();
        let grid = [-1.0, -0.6, -0.2, 0.2, 0.6, 1.0];
        for &a in &grid {
            for &b in &grid {
                for &c in &grid {
                    points.push(Vec3::new(a, b, c));
                }
            }
        }
        let mut next = draws(0xface);
        // Enough near-sphere points that the hull is climbed, not scanned.
        points.extend((0..200).map(|_| Vec3::new(next(), next(), next()).normalize() * 1.7 + Vec3::new(0.0, 0.0, 5.0)));
        let hull = ConvexHull::new(&points).unwrap();
        let directions = [Vec3::x(), -Vec3::x(), Vec3::y(), -Vec3::y(), -Vec3::z(), Vec3::new(1.0, 1.0, 0.0), Vec3::new(0.0, -1.0, -1.0)];
        assert_climb_matches_scan(&hull, &directions);
    }
}
