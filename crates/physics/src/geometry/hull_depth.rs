//! The penetration of two overlapping convex hulls, exactly, by a separating-axis search on
//! their Gauss maps restricted to a cone of directions that provably holds the answer.
//!
//! With `p(m) = h_A(m) + h_B(-m)` the overlap of the hulls along the unit direction `m` (support
//! functions in W), the penetration depth is `min_m p(m)` and its direction is the contact
//! normal. `p` is the support function of the Minkowski difference `D = A - B`, so its minimum is
//! at a face normal of `D`: a face of A (its normal, the deepest vertex of B), a face of B, or a
//! pair of edges whose arcs on the two Gauss maps cross (the normal is the edges' cross product).
//! Scanning all of them is quadratic in the edges; this search visits only those in a cone:
//!
//! - Each hull contains the ball of its `inradius` about its `centre`, so for every `m`
//!   `p(m) >= rho_A + rho_B - L u.m`, with `u` the unit vector and `L` the distance from A's
//!   centre to B's. Any direction outside the cone `u.m >= cos t`, `cos t = (rho_A + rho_B -
//!   p(u)) / L`, has `p(m) > p(u)`, so the minimum lies in the cone (for round hulls pressed
//!   together it is narrow: 0.24 rad for the two 1,000-point spheres of the benchmark).
//! - The cone narrows before the walks. A direction at the angle `a` from `u` has `p(m) >=
//!   least_A(a) + least_B(a) - L cos a`, with `least_X(a)` the least height (see below) of the
//!   support vertices of the directions within `a` of the axis. Per vertex, tables hold those
//!   leasts ring by ring (shape/height_disks.rs: rings of 0.00625 rad about the centre of the cap
//!   around the vertex's Gauss cell, out to 0.5 rad; the query shifts them by the rings between
//!   that centre and the axis), so the minimum's direction lies within the last ring where that
//!   bound is at most `p(u)`: 0.144 rad for the benchmark's spheres, whose walks then take 13
//!   and 11 vertices. Beyond the tables (hulls of more than 2,048 vertices, cones wider than
//!   they reach), the cone narrows once by the least height over cube-map cells of directions
//!   (shape/height_cells.rs; 0.17 rad for the benchmark).
//! - The hull vertices whose Gauss cells meet the cone are found by a walk over the edge graph
//!   from the support vertex of `u`, crossing an edge when its arc (between the normals of its two
//!   faces) meets the cone; the faces whose normals lie in the cone and the edges whose arcs meet
//!   it are the candidates. Every candidate is a face of `D` with its exact `p`; the least wins.
//! - Within the cone a hull reaches, along any direction, at least the least face height (plane
//!   distance from its centre) of the faces around the support vertex; so a face (its own
//!   height) or an edge (the lower of its two faces') is dropped before the exact tests when its
//!   bound with the least height the walk met on the other hull exceeds `p(u)`. A pair of edges
//!   is bounded by both edges' heights and the nearest approach of either arc to `u`, so each of
//!   A's edges tests only the pairs of B's that can still beat the least overlap found so far
//!   (B's keys in a row, in the walk's order: sorting them cost more than the pairs it skipped).
//! - A face's exact overlap is its offset plus the other hull's deepest walked vertex along its
//!   normal: a scan, in the other hull's frame, of those vertices as rows of coordinates. The
//!   other hull's support vertex along the cone's axis is one of them, so the overlap is at least
//!   the face's offset plus that vertex's depth (one dot product): a face that bound already puts
//!   above the least overlap found is not scanned.
//! - The least overlap is at most `p(u)`, so that is the bound the first candidates must beat
//!   (not infinity): a face whose lower bound is above it is not scanned, and a pair of edges is
//!   not tested. The answer is the least candidate below `p(u)` (plus the rounding margin); none
//!   below it (rounding only) leaves the caller's fallback.
//! - The hulls' support vertices along the answer are among the walked ones: the search returns
//!   those of the winning candidate, and the callers' support climbs start from them.
//!
//! The answer is the exact minimum over the faces of `D` (no tolerance, no iteration), which an
//! EPA reaches only to its tolerance. `None` (the caller falls back on GJK/EPA) when the hulls do
//! not overlap along every candidate, when the cone is wider than [`MIN_COS`] allows, when a walk
//! outgrows its fixed buffers, or for a hull whose Gauss map could not be built.

use crate::math::{Pose, Vec3};
use nalgebra::Matrix3;
use crate::shape::gauss_map::{GaussEdge, SHORT_ARC};
use crate::shape::ConvexHull;

/// The widest cone searched: beyond it (flat or elongated hulls, deep overlaps) GJK/EPA is used.
const MIN_COS: f64 = 0.7;
/// Vertices and edges one walk may collect.
const MAX_VERTICES: usize = 64;
const MAX_EDGES: usize = 96;
/// Edge pairs tested at most.
const MAX_PAIRS: usize = 16_384;
/// Rounds of narrowing the cone by the cube maps (when the rings of shape/height_disks.rs do not
/// apply): one (the benchmark's pair measured 43,559
/// instructions with one, 44,023 with two, 45,434 with three: a second round's two table queries
/// cost more than the smaller walks save).
const NARROWING: usize = 1;
/// Slack on the cone's cosine against rounding.
const SLACK: f64 = 1e-9;

/// What a walk over one hull's Gauss map collects, in the hull's frame.
struct Walk {
    vertices: [u32; MAX_VERTICES],
    vertex_count: usize,
    /// Edges whose arcs meet the cone.
    edges: [WalkEdge; MAX_EDGES],
    edge_count: usize,
    /// The least vertex height among the vertices.
    least: f64,
}

/// An edge a walk took: from a walked vertex to its neighbour (its other end, faces and height
/// are in its [`GaussEdge`]). Small, so that a new walk's zeros are one memset of under 2 KiB,
/// which glibc does with vector stores (above, with `rep stosb`).
#[derive(Clone, Copy, Debug, PartialEq)]
struct WalkEdge {
    vertex: u32,
    /// Its entry in the hull's [`GaussMap::edges`] and the graph's neighbour rows.
    gauss: u32,
    /// [`arc_nearest`] of its arc to the cone's axis.
    nearest: f64,
}

/// Edges tested together by [`Lanes::meeting`].
const LANES: usize = 4;
/// B's edges met by A's at a time in the edge pairs: a batch's lanes take 1,792 bytes.
const BATCH: usize = 28;

/// What the edge pairs test first of [`LANES`] of B's edges, a column each (so that the tests run
/// in vector registers): their keys and heights (see [`penetration_normal`]) and their arcs' end
/// normals, as coordinates.
#[derive(Clone, Copy)]
struct Lanes {
    key: [f64; LANES],
    height: [f64; LANES],
    n1: [[f64; LANES]; 3],
    n2: [[f64; LANES]; 3],
}

impl Lanes {
    /// Column `lane`: an edge with this key and this Gauss map entry.
    #[inline(always)]
    fn set(&mut self, lane: usize, key: f64, arc: &GaussEdge) {
        (self.key[lane], self.height[lane]) = (key, arc.height);
        for axis in 0..3 {
            (self.n1[axis][lane], self.n2[axis][lane]) = (arc.n1[axis], arc.n2[axis]);
        }
    }

    /// Bit `l` set when edge `l` is within reach of an edge of A with this height and key (both
    /// bounds below `limit`) and its arc's ends lie strictly on either side of the plane normal
    /// to `n2_x_n1` (A's arc's): the first test of the arcs' crossing, with the products summed
    /// as `Vec3::dot` sums them, so that the answer is the same.
    #[inline(always)]
    fn meeting(&self, height_a: f64, key_a: f64, limit: f64, n2_x_n1: &Vec3) -> u32 {
        let mut bits = 0;
        for l in 0..LANES {
            let c = self.n1[0][l] * n2_x_n1.x + self.n1[1][l] * n2_x_n1.y + self.n1[2][l] * n2_x_n1.z;
            let d = self.n2[0][l] * n2_x_n1.x + self.n2[1][l] * n2_x_n1.y + self.n2[2][l] * n2_x_n1.z;
            // Both bounds below the limit and the ends' products of opposite signs: the largest of
            // the three below zero (one value whose sign is the answer, for one mask of the four;
            // a bound equal to the limit cannot beat the least overlap, as the limit is above it).
            let (over_a, over_b, sides) = (height_a + self.key[l] - limit, key_a + self.height[l] - limit, c * d);
            let over = if over_a > over_b { over_a } else { over_b };
            let worst = if sides > over { sides } else { over };
            bits |= u32::from(worst < 0.0) << l;
        }
        bits
    }
}

/// Where a vertex stands in a walk.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Mark {
    /// Not met yet.
    New,
    /// In the walk, not walked from yet.
    Queued,
    /// Walked from: its edges were tested from it.
    Done,
}

/// The vertices a walk has met (no allocation).
trait Marks {
    fn new() -> Self;
    fn mark(&self, v: u32) -> Mark;
    /// `v` (new) joins the walk.
    fn queue(&mut self, v: u32);
    /// `v` (the next in the walk's order) is walked from.
    fn done(&mut self, v: u32);
}

/// [`Marks`] as two bit sets of `WORDS` words, for hulls of at most `64 WORDS` vertices (sized to
/// the hull, so that a new walk clears no more than it needs).
struct Bits<const WORDS: usize> {
    queued: [u64; WORDS],
    done: [u64; WORDS],
}

/// The largest hull marked by bit sets (beyond, by [`Seen`]), and the small sets' limit.
const BIT_VERTICES: usize = 4096;
const FEW_BIT_VERTICES: usize = 1024;

impl<const WORDS: usize> Marks for Bits<WORDS> {
    fn new() -> Bits<WORDS> {
        Bits { queued: [0; WORDS], done: [0; WORDS] }
    }

    #[inline(always)]
    fn mark(&self, v: u32) -> Mark {
        let (word, bit) = ((v >> 6) as usize % WORDS, 1u64 << (v & 63));
        if self.done[word] & bit != 0 {
            Mark::Done
        } else if self.queued[word] & bit != 0 {
            Mark::Queued
        } else {
            Mark::New
        }
    }

    #[inline(always)]
    fn queue(&mut self, v: u32) {
        self.queued[(v >> 6) as usize % WORDS] |= 1u64 << (v & 63);
    }

    #[inline(always)]
    fn done(&mut self, v: u32) {
        self.done[(v >> 6) as usize % WORDS] |= 1u64 << (v & 63);
    }
}

/// [`Marks`] as a small open-addressing map from vertex index to its position in the walk, for
/// larger hulls: the vertices before the `walked` first were walked from.
struct Seen {
    keys: [u32; SEEN_SLOTS],
    positions: [u8; SEEN_SLOTS],
    count: usize,
    walked: usize,
}

const SEEN_SLOTS: usize = 2 * MAX_VERTICES;

impl Seen {
    /// The position of `v`, or `Err(slot)` with the free slot where it goes.
    #[inline(always)]
    fn find(&self, v: u32) -> Result<usize, usize> {
        let mut i = (v.wrapping_mul(0x9e37_79b9) >> 7) as usize & (SEEN_SLOTS - 1);
        loop {
            match self.keys[i] {
                x if x == v => return Ok(self.positions[i] as usize),
                u32::MAX => return Err(i),
                _ => i = (i + 1) & (SEEN_SLOTS - 1),
            }
        }
    }
}

impl Marks for Seen {
    fn new() -> Seen {
        Seen { keys: [u32::MAX; SEEN_SLOTS], positions: [0; SEEN_SLOTS], count: 0, walked: 0 }
    }

    #[inline(always)]
    fn mark(&self, v: u32) -> Mark {
        match self.find(v) {
            Ok(position) if position < self.walked => Mark::Done,
            Ok(_) => Mark::Queued,
            Err(_) => Mark::New,
        }
    }

    /// (A walk holds at most [`MAX_VERTICES`], half the slots: the probe always ends.)
    #[inline(always)]
    fn queue(&mut self, v: u32) {
        if let Err(slot) = self.find(v) {
            self.keys[slot] = v;
            self.positions[slot] = self.count as u8;
            self.count += 1;
        }
    }

    #[inline(always)]
    fn done(&mut self, _: u32) {
        self.walked += 1;
    }
}

/// Whether the great-circle arc from `n1` to `n2` (unit, not antipodal) comes within the cone
/// `c . m >= cos_t` (`c` unit, `cos_t > 0`): [`arc_nearest`] `>= cos_t`, without its square root
/// and division. Rounded toward yes.
#[cfg(test)]
fn arc_meets_cone(n1: &Vec3, n2: &Vec3, c: &Vec3, cos_t: f64) -> bool {
    use crate::shape::gauss_map::arc_sine2;
    let k = n1.dot(n2);
    arc_in_cone(n1, n2, k, arc_sine2(k), c, cos_t).is_some()
}

/// [`arc_nearest`] of the arc from `n1` to `n2` (`k = n1 . n2`, `sine2` its [`arc_sine2`]) when
/// it meets the cone (as [`arc_meets_cone`]), `None` otherwise: the walk's test, which keeps the
/// bound of the arcs it takes for the edge pairs. The test needs no square root or division; the
/// bound's are taken only for the arcs that meet the cone.
#[inline(always)]
fn arc_in_cone(n1: &Vec3, n2: &Vec3, k: f64, sine2: f64, c: &Vec3, cos_t: f64) -> Option<f64> {
    let (a1, a2) = (n1.dot(c), n2.dot(c));
    // (`if` rather than `f64::max`: one instruction; the operands are finite.)
    let ends = if a1 > a2 { a1 } else { a2 };
    if sine2 <= SHORT_ARC {
        // A very short arc: its nearer end plus its chord.
        let nearest = ends + (2.0 - 2.0 * k).max(0.0).sqrt() + ARC_ROUNDING;
        return (nearest >= cos_t).then_some(nearest);
    }
    let (x, y) = (a1 - k * a2, a2 - k * a1);
    if x < 0.0 || y < 0.0 {
        // The foot of the axis on the arc's circle is beyond an end: the nearer end.
        return (ends >= cos_t).then_some(ends + ARC_ROUNDING);
    }
    let foot2 = x * a1 + y * a2;
    let reach = (cos_t - ARC_ROUNDING).max(0.0);
    if ends < cos_t && foot2 < reach * reach * sine2 {
        return None;
    }
    let foot = (foot2 / sine2).max(0.0).sqrt();
    Some((if foot > ends { foot } else { ends }) + ARC_ROUNDING)
}

impl Walk {
    #[inline(always)]
    fn new() -> Walk {
        // (A constant, all zero bits: cleared by a memset, not built and copied.)
        const EMPTY: WalkEdge = WalkEdge { vertex: 0, gauss: 0, nearest: 0.0 };
        Walk { vertices: [0; MAX_VERTICES], vertex_count: 0, edges: [EMPTY; MAX_EDGES], edge_count: 0, least: f64::INFINITY }
    }

    /// The edges taken, in the walk's order.
    #[inline(always)]
    fn edges(&self) -> &[WalkEdge] {
        &self.edges[..self.edge_count]
    }
}

/// An upper bound on `c . m` over the great-circle arc from `n1` to `n2` (unit, not antipodal;
/// `c` unit): the nearer end, or the foot of `c` on the arc's circle when it lies between them,
/// rounded up. The foot is `alpha n1 + beta n2` with `alpha = (c.n1 - k c.n2) / (1 - k^2)`,
/// `beta = (c.n2 - k c.n1) / (1 - k^2)`, `k = n1.n2`: on the arc when both are at least 0, and
/// `c` is at the cosine `sqrt(alpha c.n1 + beta c.n2)` from it. A very short arc (`1 - k^2`
/// tiny) is bounded by its nearer end plus its chord instead.
#[cfg(test)]
fn arc_nearest(n1: &Vec3, n2: &Vec3, c: &Vec3) -> f64 {
    nearest_of(n1.dot(c), n2.dot(c), n1.dot(n2))
}

/// [`arc_nearest`] from `a1 = n1 . c`, `a2 = n2 . c` and `k = n1 . n2`.
#[cfg(test)]
fn nearest_of(a1: f64, a2: f64, k: f64) -> f64 {
    // (`if` rather than `f64::max`: one instruction; the operands are finite.)
    let ends = if a1 > a2 { a1 } else { a2 };
    let sine2 = 1.0 - k * k;
    if sine2.is_nan() || sine2 <= SHORT_ARC {
        return ends + (2.0 - 2.0 * k).max(0.0).sqrt() + ARC_ROUNDING;
    }
    let (x, y) = (a1 - k * a2, a2 - k * a1);
    if x < 0.0 || y < 0.0 {
        return ends + ARC_ROUNDING;
    }
    let foot = ((x * a1 + y * a2) / sine2).max(0.0).sqrt();
    (if foot > ends { foot } else { ends }) + ARC_ROUNDING
}

/// Rounding allowance of [`arc_nearest`] (cosines; a foot near an end of the arc may be taken
/// for one just beyond it, which moves the answer by far less).
const ARC_ROUNDING: f64 = 1e-9;

/// The vertices of `hull` whose Gauss cells meet the cone about `c` (hull frame), from `start`
/// (the support vertex of `c`), and the edges whose arcs meet it, into `out` (a new [`Walk`]).
/// `None` when a buffer fills.
#[inline(always)]
fn walk<M: Marks>(hull: &ConvexHull, start: usize, c: &Vec3, cos_t: f64, out: &mut Walk) -> Option<()> {
    let gauss = &hull.gauss;
    let mut marks = M::new();
    out.vertices[0] = start as u32;
    marks.queue(start as u32);
    // The counts and the least height in locals: the stores into `out` do not make the compiler
    // reload them.
    let (mut vertex_count, mut edge_count, mut least) = (1, 0, f64::INFINITY);
    let mut head = 0;
    while head < vertex_count {
        let v = out.vertices[head] as usize;
        head += 1;
        marks.done(v as u32);
        let vertex = &gauss.vertices[v];
        if vertex.height < least {
            least = vertex.height;
        }
        let (from, to) = (vertex.start as usize, vertex.end as usize);
        for (index, edge) in (from..to).zip(&gauss.edges[from..to]) {
            let w = edge.to;
            let mark = marks.mark(w);
            // An edge to a vertex already walked from was tested from there.
            if mark == Mark::Done {
                continue;
            }
            let Some(nearest) = arc_in_cone(&edge.n1, &edge.n2, edge.cos, edge.sine2, c, cos_t) else {
                continue;
            };
            if mark == Mark::New {
                if vertex_count == MAX_VERTICES {
                    return None;
                }
                marks.queue(w);
                out.vertices[vertex_count] = w;
                vertex_count += 1;
            }
            if edge_count == MAX_EDGES {
                return None;
            }
            out.edges[edge_count] = WalkEdge { vertex: v as u32, gauss: index as u32, nearest };
            edge_count += 1;
        }
    }
    (out.vertex_count, out.edge_count, out.least) = (vertex_count, edge_count, least);
    Some(())
}

/// [`walk`] with the marks that suit the hull's size.
#[inline(always)]
fn walk_any(hull: &ConvexHull, start: usize, c: &Vec3, cos_t: f64, out: &mut Walk) -> Option<()> {
    if hull.vertices.len() <= FEW_BIT_VERTICES {
        walk::<Bits<{ FEW_BIT_VERTICES / 64 }>>(hull, start, c, cos_t, out)
    } else if hull.vertices.len() <= BIT_VERTICES {
        walk::<Bits<{ BIT_VERTICES / 64 }>>(hull, start, c, cos_t, out)
    } else {
        walk::<Seen>(hull, start, c, cos_t, out)
    }
}

/// A walk's vertices as rows of coordinates (the hull's frame): the other hull's faces scan them
/// for the deepest, two at a time.
struct Rows {
    x: [f64; MAX_VERTICES],
    y: [f64; MAX_VERTICES],
    z: [f64; MAX_VERTICES],
    len: usize,
}

impl Rows {
    #[inline(always)]
    fn of(hull: &ConvexHull, walk: &Walk) -> Rows {
        let mut rows = Rows { x: [0.0; MAX_VERTICES], y: [0.0; MAX_VERTICES], z: [0.0; MAX_VERTICES], len: walk.vertex_count };
        for (k, &v) in walk.vertices[..walk.vertex_count].iter().enumerate() {
            let p = hull.vertices[v as usize];
            (rows.x[k], rows.y[k], rows.z[k]) = (p.x, p.y, p.z);
        }
        rows
    }

    /// `p . m` of the `k`-th vertex.
    #[inline(always)]
    fn along(&self, k: usize, m: &Vec3) -> f64 {
        self.x[k] * m.x + self.y[k] * m.y + self.z[k] * m.z
    }

    /// The largest [`Rows::along`] (minus infinity for no vertex).
    #[inline(always)]
    fn deepest(&self, m: &Vec3) -> f64 {
        let n = self.len.min(MAX_VERTICES);
        let (mut even, mut odd) = (f64::NEG_INFINITY, f64::NEG_INFINITY);
        let mut k = 0;
        while k + 1 < n {
            let (p, q) = (self.along(k, m), self.along(k + 1, m));
            if p > even {
                even = p;
            }
            if q > odd {
                odd = q;
            }
            k += 2;
        }
        if k < n {
            let p = self.along(k, m);
            if p > even {
                even = p;
            }
        }
        if odd > even {
            odd
        } else {
            even
        }
    }

    /// The first vertex whose [`Rows::along`] is `deepest` (the same products again).
    #[inline(always)]
    fn position(&self, m: &Vec3, deepest: f64) -> usize {
        (0..self.len).find(|&k| self.along(k, m) == deepest).unwrap_or(0)
    }
}

/// The search's cone and what it was found from: the hulls' rotations, the unit vector `u` from
/// A's centre to B's and their distance, the cone's axis in each hull's frame and its support
/// vertex there (in W too), the overlap `p(u)` along it, and the cone's cosine (see the module
/// documentation).
struct SearchCone {
    ra: Matrix3<f64>,
    rb: Matrix3<f64>,
    u: Vec3,
    distance: f64,
    ua: Vec3,
    ub: Vec3,
    ia: usize,
    ib: usize,
    seed_a: Vec3,
    seed_b: Vec3,
    along_u: f64,
    cos_t: f64,
}

/// The cone of [`penetration_normal`], `None` when the search does not apply (inlined into both
/// copies of hull_dispatch.rs, as that is).
#[inline(always)]
fn search_cone(a: &ConvexHull, pose_a: &Pose, b: &ConvexHull, pose_b: &Pose) -> Option<SearchCone> {
    let (ga, gb) = (&a.gauss, &b.gauss);
    if !(ga.usable && gb.usable) {
        return None;
    }
    let (ra, rb) = (pose_a.q.to_rotation_matrix().into_inner(), pose_b.q.to_rotation_matrix().into_inner());
    let (ca, cb) = (ra * ga.centre + pose_a.r, rb * gb.centre + pose_b.r);
    let offset = cb - ca;
    let distance = offset.norm();
    if !(distance > 0.0 && distance.is_finite()) {
        return None;
    }
    let u = offset / distance;
    // The cone's axis in each hull's frame: A looks along u, B along -u.
    let (ua, ub) = (ra.transpose() * u, rb.transpose() * -u);
    let (ia, ib) = (a.support_index(&ua), b.support_index(&ub));
    // The two support vertices in W.
    let (seed_a, seed_b) = (ra * a.vertices[ia] + pose_a.r, rb * b.vertices[ib] + pose_b.r);
    let along_u = (seed_a - seed_b).dot(&u);
    if along_u.is_nan() || along_u <= 0.0 {
        return None;
    }
    let mut cos_t = (ga.inradius + gb.inradius - along_u) / distance - SLACK;
    if cos_t.is_nan() || cos_t < MIN_COS {
        return None;
    }
    // Narrower, ring by ring about u (see shape/height_disks.rs), when the tables reach that far.
    if let Some(narrower) = ga.disks.narrowed((ia, &ua), &gb.disks, (ib, &ub), cos_t, distance, along_u + SLACK * distance) {
        cos_t = cos_t.max(narrower - SLACK);
    } else {
        // Otherwise by the cube maps: the minimum's direction m has p(m) <= p(u) and p(m) >=
        // least_A + least_B - L u.m with the least heights over the cells of directions meeting
        // the cone, so it lies in the cone of those; repeated while it narrows, at most
        // NARROWING times.
        for _ in 0..NARROWING {
            // The cone's angle and reach, once for both tables.
            let Some(cone) = ga.cells.cone(cos_t) else { break };
            let (Some(least_a), Some(least_b)) = (ga.cells.least_in(&ua, &cone), gb.cells.least_in(&ub, &cone)) else {
                break;
            };
            let narrower = (least_a + least_b - along_u) / distance - SLACK;
            if narrower.is_nan() || narrower <= cos_t + 1e-6 {
                break;
            }
            cos_t = narrower.min(1.0);
        }
    }
    Some(SearchCone { ra, rb, u, distance, ua, ub, ia, ib, seed_a, seed_b, along_u, cos_t })
}

/// The contact normal (unit, from A toward B) of two overlapping hulls: the direction of least
/// overlap, exactly (see the module documentation), and a vertex of each hull next to (often at)
/// its support along it (A's along the normal, B's against it), where the support climbs start;
/// `None` when this search does not apply. (Inlined into both copies of hull_dispatch.rs.)
#[inline(always)]
pub(super) fn penetration_normal(a: &ConvexHull, pose_a: &Pose, b: &ConvexHull, pose_b: &Pose) -> Option<(Vec3, [usize; 2])> {
    let (ga, gb) = (&a.gauss, &b.gauss);
    let SearchCone { ra, rb, u, distance, ua, ub, ia, ib, seed_a, seed_b, along_u, cos_t } = search_cone(a, pose_a, b, pose_b)?;
    // (One loop over both hulls: the walk's code once, not twice, in the instruction cache.)
    let mut walks = [Walk::new(), Walk::new()];
    for (walk, (hull, start, axis)) in walks.iter_mut().zip([(a, ia, &ua), (b, ib, &ub)]) {
        walk_any(hull, start, axis, cos_t, walk)?;
    }
    let (walk_a, walk_b) = (&walks[0], &walks[1]);
    if walk_a.edge_count * walk_b.edge_count > MAX_PAIRS {
        return None;
    }
    let margin = SLACK * distance;
    // Within the cone each hull reaches at least its walked vertices' least height beyond its
    // centre, so a candidate whose own bound, `height + least of the other - L u.m`, exceeds
    // p(u) cannot be the least: per face its height, per edge the lower of its two faces'.
    // `nearest` (a cosine to u) below `(height + other - p(u)) / L - SLACK`, without a division.
    let out_of_reach = |nearest: f64, height: f64, other: f64| distance * nearest < height + other - along_u - margin;
    // The least overlap is at most p(u): candidates are scanned only while they can beat it (a
    // candidate as low as p(u) wins within the margin; none found leaves the caller's fallback).
    let unbeaten = along_u + margin;
    let mut best = (unbeaten, u, [ia, ib]);
    // Faces of A against the deepest walked vertex of B, and the other way round, each in its
    // hull's frame: along a face's outward normal n (own frame), the overlap is its offset, plus
    // `R^T (r_own - r_other) . n`, plus the other's deepest walked vertex along -n in the other's
    // frame. The other's seed vertex (its support along the cone's axis) is one of those, so
    // `offset + R^T (r_own - seed in W) . n` bounds the overlap from below: a face it already
    // puts above the least found is not scanned.
    let r_ab = rb.transpose() * ra;
    let t_ab = pose_a.r - pose_b.r;
    let rows_a = Rows::of(a, walk_a);
    let rows_b = Rows::of(b, walk_b);
    for (hull, walk, other_walk, rows, rotation, to_other, sign, shift, seed_shift, axis, other_least) in [
        (a, walk_a, walk_b, &rows_b, &ra, r_ab, 1.0, ra.transpose() * t_ab, ra.transpose() * (pose_a.r - seed_b), ua, walk_b.least),
        (b, walk_b, walk_a, &rows_a, &rb, r_ab.transpose(), -1.0, rb.transpose() * -t_ab, rb.transpose() * (pose_b.r - seed_a), ub, walk_a.least),
    ] {
        // normal.axis >= (height + other_least - p(u)) / L - SLACK, without a division per face.
        let face_bound = other_least - along_u - margin;
        // A face whose normal is in the cone has every edge's arc meeting it and all its vertices
        // walked, so each of its edges is a walked edge (once): it is taken from its first. (One
        // whose normal is outside the cone, which the bound below may let through at the cone's
        // edge, has an overlap above p(u) by the cone's slack.)
        for edge in walk.edges() {
            let arc = &hull.gauss.edges[edge.gauss as usize];
            // The faces whose first edge this is: a bit each.
            let mut firsts = arc.first;
            while firsts != 0 {
                let f = arc.faces[(firsts.trailing_zeros() & 1) as usize] as usize;
                firsts &= firsts - 1;
                let normal = &hull.gauss.normals[f];
                let offset = hull.gauss.offsets[f];
                if distance * normal.dot(&axis) - hull.gauss.heights[f] < face_bound || offset + seed_shift.dot(normal) > best.0 + margin {
                    continue;
                }
                // -n in the other's frame, and the deepest walked vertex along it.
                let m = -(to_other * normal);
                let deepest = rows.deepest(&m);
                let overlap = offset + shift.dot(normal) + deepest;
                if overlap < best.0 {
                    let other_vertex = other_walk.vertices[rows.position(&m, deepest)];
                    let (own_vertex, other_vertex) = (edge.vertex as usize, other_vertex as usize);
                    let seeds = if sign > 0.0 { [own_vertex, other_vertex] } else { [other_vertex, own_vertex] };
                    best = (overlap, rotation * normal * sign, seeds);
                }
            }
        }
    }
    // Pairs of edges whose arcs cross (B's Gauss map negated, as D = A - B). Where two arcs cross,
    // at m, each hull reaches at least its edge's height (the lower of its two faces') beyond its
    // centre, so p(m) >= height_a + height_b - L u.m, and u.m is at most either arc's `nearest`:
    // with key = height - L nearest, p(m) >= key_a + height_b and p(m) >= height_a + key_b. An
    // edge is kept when its bound with the other hull's least can reach p(u) (its arc meets its
    // own cone); each of A's meets only those of B's whose bound can still beat the least overlap
    // found, and none when it cannot with the lowest of B's.
    // B's kept edges, in batches of at most BATCH in the walk's order: their keys, heights and
    // normals in lanes of four, and their entries in the Gauss map and first vertices. (Arrays of
    // plain numbers, each cleared by a memset of under 2 KiB: see [`Walk`].)
    const EMPTY: Lanes = Lanes { key: [0.0; LANES], height: [0.0; LANES], n1: [[0.0; LANES]; 3], n2: [[0.0; LANES]; 3] };
    // The pairs are tested in B's frame: B's edges as they are, A's turned by `R_b^T R_a` and
    // moved by `R_b^T (r_a - r_b)`; the winning normal is turned back into W.
    let t_ab = rb.transpose() * t_ab;
    let mut rest_b = walk_b.edges();
    while !rest_b.is_empty() {
        let mut lanes_b = [EMPTY; BATCH / LANES];
        let (mut arcs_b, mut vertices_b) = ([0u32; BATCH], [0u32; BATCH]);
        let (mut kept_b, mut lowest_b) = (0, f64::INFINITY);
        while let [edge, rest @ ..] = rest_b {
            if kept_b == BATCH {
                break;
            }
            rest_b = rest;
            let arc = &gb.edges[edge.gauss as usize];
            if out_of_reach(edge.nearest, arc.height, walk_a.least) {
                continue;
            }
            lanes_b[kept_b / LANES].set(kept_b % LANES, arc.height - distance * edge.nearest, arc);
            (arcs_b[kept_b], vertices_b[kept_b]) = (edge.gauss, edge.vertex);
            kept_b += 1;
            if arc.height < lowest_b {
                lowest_b = arc.height;
            }
        }
        if kept_b == 0 {
            continue;
        }
        // The last chunk's unused lanes out of every pair's reach.
        for i in kept_b..kept_b.next_multiple_of(LANES) {
            (lanes_b[i / LANES].key[i % LANES], lanes_b[i / LANES].height[i % LANES]) = (f64::INFINITY, f64::INFINITY);
        }
        let lanes_b = &lanes_b[..kept_b.div_ceil(LANES)];
        for edge_a in walk_a.edges() {
            let arc_a = &ga.edges[edge_a.gauss as usize];
            let (height_a, nearest_a) = (arc_a.height, edge_a.nearest);
            let key_a = height_a - distance * nearest_a;
            if out_of_reach(nearest_a, height_a, walk_b.least) || key_a + lowest_b > best.0 + margin {
                continue;
            }
            let (n1, n2) = (r_ab * arc_a.n1, r_ab * arc_a.n2);
            let n2_x_n1 = n2.cross(&n1);
            let mut line_a = None;
            // Four of B's edges at a time: those within reach whose arc has its ends on either
            // side of A's arc's great circle; then each of them in turn, as far as it is still in
            // reach (the least overlap may have dropped since its four were tested).
            for (chunk, lanes) in lanes_b.iter().enumerate() {
                let mut meeting = lanes.meeting(height_a, key_a, best.0 + margin, &n2_x_n1);
                while meeting != 0 {
                    let lane = meeting.trailing_zeros() as usize;
                    meeting &= meeting - 1;
                    let limit = best.0 + margin;
                    if height_a + lanes.key[lane] > limit || key_a + lanes.height[lane] > limit {
                        continue;
                    }
                    let (arc, vertex_b) = (arcs_b[chunk * LANES + lane], vertices_b[chunk * LANES + lane]);
                    let arc_b = &gb.edges[arc as usize];
                    // B's arc negated: its normals' signs are folded into the tests (the cross
                    // product of the two negated normals is the same).
                    let c_ba = arc_b.n1.dot(&n2_x_n1);
                    let (a_dc, b_dc) = (n1.dot(&arc_b.n2_x_n1), n2.dot(&arc_b.n2_x_n1));
                    if a_dc * b_dc >= 0.0 || c_ba * b_dc >= 0.0 {
                        continue;
                    }
                    // A's line, once per edge of A (a `match`, not `get_or_insert_with`, whose
                    // closure would not be inlined into the copies of hull_dispatch.rs).
                    let (point_a, direction_a) = match line_a {
                        Some(line) => line,
                        None => {
                            let (p, q) = (a.vertices[edge_a.vertex as usize], a.vertices[arc_a.to as usize]);
                            let line = (r_ab * p + t_ab, r_ab * (q - p));
                            line_a = Some(line);
                            line
                        }
                    };
                    let (point_b, other_b) = (b.vertices[vertex_b as usize], b.vertices[arc_b.to as usize]);
                    let Some(mut m) = direction_a.cross(&(other_b - point_b)).try_normalize(0.0) else {
                        continue;
                    };
                    if m.dot(&(n1 + n2)) < 0.0 {
                        m = -m;
                    }
                    let overlap = (point_a - point_b).dot(&m);
                    if overlap < best.0 {
                        best = (overlap, rb * m, [edge_a.vertex as usize, vertex_b as usize]);
                    }
                }
            }
        }
    }
    let (overlap, normal, seeds) = best;
    (overlap < unbeaten && overlap > 0.0).then_some((normal, seeds))
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::shape::height_disks::HeightDisks;
    use crate::math::Rotation;
    use nalgebra::Matrix3;

    use crate::test_rng::XorShift64Star as Rng;

    /// An edge of a hull in W for the brute force: its two vertices, the two face normals at its ends
    /// of the arc, and their cross product.
    #[derive(Clone, Copy)]
    struct WorldEdge {
        vertex: u32,
        other: u32,
        n1: Vec3,
        n2: Vec3,
        n2_x_n1: Vec3,
    }

    impl WorldEdge {
        /// Edge `[v, w, f1, f2]` of `hull` in W, its face normals multiplied by `sign`.
        #[inline]
        fn new(hull: &ConvexHull, edge: &[u32; 4], rotation: &Matrix3<f64>, sign: f64) -> WorldEdge {
            let n1 = rotation * hull.gauss.normals[edge[2] as usize] * sign;
            let n2 = rotation * hull.gauss.normals[edge[3] as usize] * sign;
            WorldEdge { vertex: edge[0], other: edge[1], n1, n2, n2_x_n1: n2.cross(&n1) }
        }

        /// The edge's line moved by `rotation` and `translation`: its first vertex and its direction
        /// (toward the other).
        #[inline]
        fn line(&self, hull: &ConvexHull, rotation: &Matrix3<f64>, translation: &Vec3) -> (Vec3, Vec3) {
            let (a, b) = (hull.vertices[self.vertex as usize], hull.vertices[self.other as usize]);
            (rotation * a + translation, rotation * (b - a))
        }
    }

    /// `n` points on an ellipsoid with these semi-axes: every point is a hull vertex.
    pub(crate) fn hull(rng: &mut Rng, n: usize, axes: Vec3) -> ConvexHull {
        let points: Vec<Vec3> = (0..n).map(|_| rng.unit().component_mul(&axes)).collect();
        ConvexHull::new(&points).unwrap()
    }

    fn support(hull: &ConvexHull, pose: &Pose, m: &Vec3) -> f64 {
        hull.vertices.iter().map(|v| pose.transform_point(v).dot(m)).fold(f64::NEG_INFINITY, f64::max)
    }

    /// Overlap along m by scanning every vertex.
    pub(crate) fn overlap(a: &ConvexHull, pose_a: &Pose, b: &ConvexHull, pose_b: &Pose, m: &Vec3) -> f64 {
        support(a, pose_a, m) + support(b, pose_b, &-m)
    }

    /// Random poses of `a` and `b`: A anywhere near the origin in any orientation, B in any
    /// orientation along a random direction from A, at the offset `along(touch, rng)`, where
    /// `touch` is the offset at which that direction separates them.
    pub(crate) fn random_poses(rng: &mut Rng, a: &ConvexHull, b: &ConvexHull, along: impl FnOnce(f64, &mut Rng) -> f64) -> (Pose, Pose) {
        let pose_a = Pose { r: Vec3::new(rng.next(), rng.next(), rng.next()) * 0.1, q: rng.rotation() };
        let q_b = rng.rotation();
        let direction = rng.unit();
        let touch = overlap(a, &pose_a, b, &Pose { r: pose_a.r, q: q_b }, &direction);
        let offset = along(touch, rng);
        (pose_a, Pose { r: pose_a.r + direction * offset, q: q_b })
    }

    /// The least overlap over every face normal of both hulls and every crossing pair of edges
    /// (all of them, by brute force), and its direction.
    fn brute_force(a: &ConvexHull, pose_a: &Pose, b: &ConvexHull, pose_b: &Pose) -> (f64, Vec3) {
        let mut best = (f64::INFINITY, Vec3::zeros());
        let mut consider = |m: Vec3| {
            let p = overlap(a, pose_a, b, pose_b, &m);
            if p < best.0 {
                best = (p, m);
            }
        };
        for f in &a.faces {
            consider(pose_a.q * f.normal);
        }
        for f in &b.faces {
            consider(-(pose_b.q * f.normal));
        }
        let edges = |hull: &ConvexHull, pose: &Pose, sign: f64| {
            let mut out = Vec::new();
            for v in 0..hull.vertices.len() {
                for (k, &w) in hull.graph.neighbors(v).iter().enumerate() {
                    if (v as u32) < w {
                        let [f1, f2] = hull.gauss.edges[hull.graph.neighbor_start[v] as usize + k].faces;
                        let edge = [v as u32, w, f1, f2];
                        let rotation = pose.q.to_rotation_matrix().into_inner();
                        let world = WorldEdge::new(hull, &edge, &rotation, sign);
                        out.push((world, world.line(hull, &rotation, &pose.r).1));
                    }
                }
            }
            out
        };
        let (edges_a, edges_b) = (edges(a, pose_a, 1.0), edges(b, pose_b, -1.0));
        for (ea, direction_a) in &edges_a {
            for (eb, direction_b) in &edges_b {
                let (c_ba, d_ba) = (eb.n1.dot(&ea.n2_x_n1), eb.n2.dot(&ea.n2_x_n1));
                let (a_dc, b_dc) = (ea.n1.dot(&eb.n2_x_n1), ea.n2.dot(&eb.n2_x_n1));
                if c_ba * d_ba < 0.0 && a_dc * b_dc < 0.0 && c_ba * b_dc > 0.0 {
                    if let Some(mut m) = direction_a.cross(direction_b).try_normalize(0.0) {
                        if m.dot(&(ea.n1 + ea.n2)) < 0.0 {
                            m = -m;
                        }
                        consider(m);
                    }
                }
            }
        }
        best
    }

    #[test]
    fn gauss_map_of_a_hull_has_two_faces_per_edge_and_an_inscribed_ball() {
        let mut rng = Rng(5);
        let h = hull(&mut rng, 300, Vec3::new(0.1, 0.1, 0.1));
        assert!(h.gauss.usable);
        assert!(h.gauss.inradius > 0.09 && h.gauss.inradius < 0.1);
        for v in 0..h.vertices.len() {
            for (k, &w) in h.graph.neighbors(v).iter().enumerate() {
                let [f1, f2] = h.gauss.edges[h.graph.neighbor_start[v] as usize + k].faces;
                for f in [f1, f2] {
                    let face = &h.faces[f as usize].vertices;
                    assert!(face.contains(&(v as u32)) && face.contains(&w));
                }
                assert_ne!(f1, f2);
            }
        }
    }

    #[test]
    fn the_least_height_of_a_cone_bounds_every_support_vertex_in_it() {
        let mut rng = Rng(23);
        let h = hull(&mut rng, 500, Vec3::new(0.1, 0.12, 0.08));
        let mut answered = 0;
        for _ in 0..200 {
            let axis = rng.unit();
            let cos_t = 0.9 + 0.095 * rng.next();
            let Some(least) = h.gauss.cells.least_in_cone(&axis, cos_t) else { continue };
            answered += 1;
            for _ in 0..50 {
                // A direction in the cone: the axis turned toward a random direction.
                let side = (rng.unit() - axis * axis.dot(&rng.unit())).try_normalize(1e-9).unwrap_or_else(Vec3::x);
                let side = (side - axis * axis.dot(&side)).normalize();
                let angle = cos_t.acos() * rng.next();
                let m = axis * angle.cos() + side * angle.sin();
                let v = h.support_index(&m);
                assert!(h.gauss.vertices[v].height >= least, "{} < {least}", h.gauss.vertices[v].height);
            }
        }
        assert!(answered > 150, "{answered} of 200 cones answered");
    }

    #[test]
    fn round_hulls_pressed_together_give_the_least_overlap_of_every_face_and_edge_pair() {
        let mut rng = Rng(17);
        let mut found = 0;
        for round in 0..40 {
            let n = if round % 2 == 0 { 150 } else { 400 };
            let a = hull(&mut rng, n, Vec3::new(0.1, 0.1, 0.1));
            let b = hull(&mut rng, n, Vec3::new(0.1, 0.12, 0.09));
            let pose_a = Pose { r: Vec3::new(rng.next(), rng.next(), rng.next()) * 0.1, q: rng.rotation() };
            let direction = rng.unit();
            let gap = 0.19 + 0.008 * rng.next();
            let pose_b = Pose { r: pose_a.r + direction * gap, q: rng.rotation() };
            let (least, normal) = brute_force(&a, &pose_a, &b, &pose_b);
            match penetration_normal(&a, &pose_a, &b, &pose_b) {
                Some((m, _)) => {
                    found += 1;
                    assert!(least > 0.0);
                    let p = overlap(&a, &pose_a, &b, &pose_b, &m);
                    assert!((p - least).abs() < 1e-14, "round {round}: {p} vs {least}");
                    assert!((m - normal).norm() < 1e-9, "round {round}: {m:?} vs {normal:?}");
                }
                // Apart (GJK's case), or deep enough that the cone outgrows the buffers.
                None => assert!(least <= 0.0 || least > 2e-3, "round {round}: no answer for an overlap of {least}"),
            }
        }
        assert!(found >= 25, "{found} of 40 answered");
    }

    /// Hulls without the ring tables (more than 2,048 vertices) narrow the cone by the cube maps
    /// instead: the same answer, from a cone that is mostly wider.
    #[test]
    fn without_the_ring_tables_the_cube_maps_narrow_to_the_same_answer() {
        let mut rng = Rng(29);
        let (mut answered, mut narrower) = (0, 0);
        for round in 0..8 {
            let a = hull(&mut rng, 1000, Vec3::new(0.1, 0.1, 0.1));
            let b = hull(&mut rng, 1000, Vec3::new(0.1, 0.1, 0.1));
            let pose_a = Pose { r: Vec3::zeros(), q: rng.rotation() };
            let pose_b = Pose { r: rng.unit() * (0.1985 + 0.001 * rng.next()), q: rng.rotation() };
            let (mut bare_a, mut bare_b) = (a.clone(), b.clone());
            (bare_a.gauss.disks, bare_b.gauss.disks) = (HeightDisks::default(), HeightDisks::default());
            let Some((m, _)) = penetration_normal(&a, &pose_a, &b, &pose_b) else { continue };
            let Some((bare_m, _)) = penetration_normal(&bare_a, &pose_a, &bare_b, &pose_b) else { continue };
            // The cones' cosines and the vertices their walks take.
            let walked = |a: &ConvexHull, b: &ConvexHull| {
                let cone = search_cone(a, &pose_a, b, &pose_b).unwrap();
                let (mut walk_a, mut walk_b) = (Walk::new(), Walk::new());
                walk_any(a, cone.ia, &cone.ua, cone.cos_t, &mut walk_a).unwrap();
                walk_any(b, cone.ib, &cone.ub, cone.cos_t, &mut walk_b).unwrap();
                (cone.cos_t, walk_a.vertex_count + walk_b.vertex_count)
            };
            let (rings, cube_maps) = (walked(&a, &b), walked(&bare_a, &bare_b));
            answered += 1;
            // (The rings' answer is checked against the brute force by the tests around; over
            // 1,000-vertex hulls the brute force is slow in a debug build.)
            assert_eq!(m, bare_m, "round {round}");
            narrower += usize::from(rings.0 > cube_maps.0 && rings.1 < cube_maps.1);
        }
        assert!(answered >= 6 && narrower * 4 >= answered * 3, "{answered} answered, {narrower} narrower by the rings");
    }

    /// A property over random pairs: random ellipsoid hulls (round, flat, long; few or many
    /// vertices) at random relative poses from grazing to deep. Whenever the search answers, its
    /// overlap is the brute-force least and its seeds climb to the scan's support vertices.
    #[test]
    fn random_hull_pairs_at_random_poses_give_the_brute_force_least_overlap() {
        let mut rng = Rng(91);
        let (mut answered, mut shallow, mut deep) = (0, 0, 0);
        for round in 0..60 {
            let axes = |rng: &mut Rng| match round % 3 {
                0 => Vec3::new(0.1, 0.1, 0.1) * (0.8 + 0.4 * rng.next()),
                1 => Vec3::new(0.1, 0.05 + 0.1 * rng.next(), 0.02 + 0.1 * rng.next()),
                _ => Vec3::new(0.03 + 0.2 * rng.next(), 0.03 + 0.2 * rng.next(), 0.03 + 0.2 * rng.next()),
            };
            let n = [40, 120, 300][round % 4 % 3];
            let (axes_a, axes_b) = (axes(&mut rng), axes(&mut rng));
            let a = hull(&mut rng, n, axes_a);
            let b = hull(&mut rng, n + 7, axes_b);
            // From grazing to deep: a fraction of the offset at which the direction separates
            // them (they touch at most that far apart).
            let (pose_a, pose_b) = random_poses(&mut rng, &a, &b, |touch, rng| {
                let fraction = if round % 2 == 0 { 0.9 + 0.1 * rng.next() } else { 0.4 + 0.5 * rng.next() };
                touch * fraction
            });
            let Some((m, [seed_a, seed_b])) = penetration_normal(&a, &pose_a, &b, &pose_b) else {
                continue;
            };
            let (least, normal) = brute_force(&a, &pose_a, &b, &pose_b);
            answered += 1;
            if least < 0.01 {
                shallow += 1;
            } else {
                deep += 1;
            }
            let p = overlap(&a, &pose_a, &b, &pose_b, &m);
            assert!(least > 0.0 && (p - least).abs() < 1e-14, "round {round}: {p} vs {least}");
            assert!((m - normal).norm() < 1e-9, "round {round}: {m:?} vs {normal:?}");
            let (da, db) = (pose_a.q.inverse() * m, pose_b.q.inverse() * -m);
            assert_eq!(a.support_index_from(&da, seed_a), crate::shape::scan(&a.vertices, &da), "round {round}");
            assert_eq!(b.support_index_from(&db, seed_b), crate::shape::scan(&b.vertices, &db), "round {round}");
        }
        assert!(answered >= 15 && shallow >= 5 && deep >= 3, "{answered} answered: {shallow} shallow, {deep} deep");
    }

    /// The kinds of marks (bit sets of two sizes for hulls of up to 1024 and 4096 vertices, the
    /// small map beyond) walk the same vertices and edges in the same order, with the same bounds.
    #[test]
    fn both_kinds_of_marks_walk_alike() {
        let mut rng = Rng(71);
        let mut compared = 0;
        for round in 0..40 {
            let axes = Vec3::new(0.1, 0.1 + 0.05 * rng.next(), 0.1);
            let h = hull(&mut rng, [60, 300, 1000][round % 3], axes);
            let axis = rng.unit();
            let cos_t = 0.9 + 0.099 * rng.next();
            let start = h.support_index(&axis);
            let (mut bits, mut seen) = (Walk::new(), Walk::new());
            let by_bits = walk::<Bits<{ BIT_VERTICES / 64 }>>(&h, start, &axis, cos_t, &mut bits);
            if h.vertices.len() <= FEW_BIT_VERTICES {
                let mut few = Walk::new();
                let by_few = walk::<Bits<{ FEW_BIT_VERTICES / 64 }>>(&h, start, &axis, cos_t, &mut few);
                assert_eq!(by_bits, by_few, "round {round}");
                assert_eq!(bits.vertices[..bits.vertex_count], few.vertices[..few.vertex_count], "round {round}");
                assert_eq!(bits.edges(), few.edges(), "round {round}");
            }
            let by_seen = walk::<Seen>(&h, start, &axis, cos_t, &mut seen);
            assert_eq!(by_bits, by_seen, "round {round}");
            if by_bits.is_none() {
                continue;
            }
            if bits.vertex_count > 3 {
                compared += 1;
            }
            assert_eq!(bits.vertices[..bits.vertex_count], seen.vertices[..seen.vertex_count], "round {round}");
            assert_eq!(bits.edges(), seen.edges(), "round {round}");
            // No edge twice (in either direction), and every walked vertex once.
            let mut keys: Vec<[u32; 2]> = bits.edges().iter().map(|e| (e.vertex, h.graph.neighbors[e.gauss as usize])).map(|(v, w)| [v.min(w), v.max(w)]).collect();
            keys.sort_unstable();
            keys.dedup();
            assert_eq!(keys.len(), bits.edge_count, "round {round}");
            let mut vertices = bits.vertices[..bits.vertex_count].to_vec();
            vertices.sort_unstable();
            vertices.dedup();
            assert_eq!(vertices.len(), bits.vertex_count, "round {round}");
        }
        assert!(compared >= 20, "{compared} of 40 walked beyond 3 vertices");
    }

    /// The nearest approach of an arc to an axis bounds every sampled direction of the arc, is
    /// attained by one up to the sampling, and the cone test agrees with it.
    #[test]
    fn the_nearest_approach_of_an_arc_bounds_its_directions() {
        let mut rng = Rng(57);
        for round in 0..2000 {
            let n1 = rng.unit();
            // Arcs from 1e-5 rad to about 1.5 rad long.
            let length = [1e-5, 0.01, 0.2, 1.5][round % 4] * (0.5 + rng.next());
            let side = (rng.unit() - n1 * n1.dot(&rng.unit())).normalize();
            let side = (side - n1 * n1.dot(&side)).normalize();
            let n2 = n1 * length.cos() + side * length.sin();
            let c = (n1 + rng.unit() * (0.05 + rng.next())).normalize();
            let nearest = arc_nearest(&n1, &n2, &c);
            let mut most = f64::NEG_INFINITY;
            for k in 0..=200 {
                let angle = length * k as f64 / 200.0;
                let m = n1 * angle.cos() + side * angle.sin();
                most = most.max(c.dot(&m));
            }
            assert!(nearest >= most, "round {round}: {nearest} < {most}");
            // Short arcs are bounded by their chord, longer ones by the foot on the circle.
            let tolerance = if length < 2e-3 { 2.0 * length + 1e-8 } else { 1e-4 * length * length + 1e-8 };
            assert!(nearest - most < tolerance, "round {round}: {nearest} vs {most}");
            for cos_t in [most - 1e-6, most + 1e-6, nearest + 1e-6] {
                if cos_t > 0.0 && cos_t <= most {
                    assert!(arc_meets_cone(&n1, &n2, &c, cos_t), "round {round}: {cos_t} <= {most}");
                }
                if cos_t > nearest {
                    assert!(!arc_meets_cone(&n1, &n2, &c, cos_t), "round {round}: {cos_t} > {nearest}");
                }
            }
        }
    }

    /// The least overlap is at most the overlap along the line of centres, p(u), so candidates
    /// are scanned only while they can beat it. When u is itself the answer (a face of one cube
    /// resting squarely on the other's, far from the origin too), the face along it still wins.
    #[test]
    fn a_face_normal_along_the_line_of_centres_is_the_answer() {
        let corners: Vec<Vec3> = (0..8).map(|k| Vec3::new(f64::from(k & 1), f64::from(k >> 1 & 1), f64::from(k >> 2)) * 0.2 - Vec3::repeat(0.1)).collect();
        let cube = ConvexHull::new(&corners).unwrap();
        for origin in [Vec3::zeros(), Vec3::new(1e3, -2e3, 5e2)] {
            let (pose_a, pose_b) = (Pose { r: origin, q: Rotation::identity() }, Pose { r: origin + Vec3::new(0.0, 0.0, 0.199), q: Rotation::identity() });
            let (m, _) = penetration_normal(&cube, &pose_a, &cube, &pose_b).expect("the search answers");
            assert!((m - Vec3::z()).norm() < 1e-12, "{m:?} at {origin:?}");
            let least = brute_force(&cube, &pose_a, &cube, &pose_b).0;
            assert!((overlap(&cube, &pose_a, &cube, &pose_b, &m) - least).abs() < 1e-12 && (least - 1e-3).abs() < 1e-9);
        }
    }

    #[test]
    fn apart_or_too_wide_a_cone_gives_no_answer() {
        let mut rng = Rng(3);
        let a = hull(&mut rng, 200, Vec3::new(0.1, 0.1, 0.1));
        let apart = Pose { r: Vec3::new(0.0, 0.0, 0.21), q: Rotation::identity() };
        assert!(penetration_normal(&a, &Pose::identity(), &a, &apart).is_none());
        // A flat slab under a ball: its inscribed ball is thin, the cone too wide.
        let slab = hull(&mut rng, 200, Vec3::new(1.0, 1.0, 0.02));
        let ball = Pose { r: Vec3::new(0.0, 0.0, 0.115), q: Rotation::identity() };
        assert!(penetration_normal(&slab, &Pose::identity(), &a, &ball).is_none());
    }
}
