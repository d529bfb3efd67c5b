//! Finite face against finite face: Rectangle-Rectangle, Disk-Disk and Rectangle-Disk (the
//! Modelica library's rectangle-rectangle and disk-rectangle, and disk-disk).
//!
//! The larger face (by area) is the base and the smaller one the follower, whatever the order of A
//! and B: the follower's candidate points (a rectangle's four corners, a disk's four rim points as
//! in `disk_plane`) meet the base's plane, moved onto its outline when beyond it, and carry the
//! covered fraction of the follower's part below the plane, measured on the follower's own face
//! (see `finite_face`). The smaller face is the follower because a follower resting fully on the
//! base carries four full points, as a box does on a plane; the other way round only the covered
//! fraction of the larger face would carry load. Faces of equal area (within 1e-9 relative) have
//! no smaller one: each serves once as the base, the two sets of points with half the weight each
//! (ids 0 to 3 with A as the base, 4 to 7 with B), so exchanging A and B mirrors the result.
//! Like a Plane, the base face is one-sided: the follower rests on its +z side. A disk follower's
//! rim pattern turns with its tilt as a cylinder's end does (see `face_cylinder`).

use nalgebra::Matrix2;

use super::finite_face::{push_points, relative, Candidate, Outline, CIRCLE_SIDES};
use super::polygon::{Polygon, P2};
use super::{disk_plane, rectangle_plane, ContactPoint};
use crate::math::{Pose, Vec3};
use crate::shape::Shape;

/// Canonical pair function: Rectangle or Disk against Rectangle or Disk.
pub(super) fn contacts(a: &Shape, pose_a: &Pose, b: &Shape, pose_b: &Pose, out: &mut Vec<ContactPoint>) {
    let (area_a, area_b) = (outline(a).area(), outline(b).area());
    if equal_areas(area_a, area_b) {
        flat_on_face(a, pose_a, b, pose_b, 0, 0.5, out);
        flipped(out, |out| flat_on_face(b, pose_b, a, pose_a, 4, 0.5, out));
    } else if area_a > area_b {
        flat_on_face(a, pose_a, b, pose_b, 0, 1.0, out);
    } else {
        flipped(out, |out| flat_on_face(b, pose_b, a, pose_a, 0, 1.0, out));
    }
}

/// Point ids used: four, or eight for faces of equal area.
pub(super) fn count(a: &Shape, b: &Shape) -> usize {
    if equal_areas(outline(a).area(), outline(b).area()) {
        8
    } else {
        4
    }
}

fn outline(shape: &Shape) -> Outline {
    Outline::of(shape).expect("face_face is registered for Rectangle and Disk only")
}

fn equal_areas(a: f64, b: f64) -> bool {
    (a - b).abs() <= 1e-9 * a.max(b)
}

/// Runs `push` and flips the points it appended (computed with B as the base).
fn flipped(out: &mut Vec<ContactPoint>, push: impl FnOnce(&mut Vec<ContactPoint>)) {
    let first = out.len();
    push(out);
    for point in &mut out[first..] {
        *point = point.flipped();
    }
}

/// The follower's four candidate points against the base face, with ids from `first_id` and the
/// covered fraction times `share` as weight.
fn flat_on_face(base: &Shape, base_pose: &Pose, follower: &Shape, pose: &Pose, first_id: u32, share: f64, out: &mut Vec<ContactPoint>) {
    let local = relative(base_pose, pose);
    // The follower's face in its own (u, v) coordinates, counter-clockwise, and its candidates.
    let mut face = Polygon::new();
    let candidates = match follower {
        Shape::Rectangle { half_x, half_y } => {
            for (u, v) in [(-1.0, -1.0), (1.0, -1.0), (1.0, 1.0), (-1.0, 1.0)] {
                face.push(P2::new(u * half_x, v * half_y));
            }
            // In id order, so corner i keeps id i.
            rectangle_plane::corners(*half_x, *half_y, &local)
        }
        Shape::Disk { radius } => {
            // Circumscribed, so that the part below the plane is never empty while a rim point is.
            let corner = radius / (std::f64::consts::PI / CIRCLE_SIDES as f64).cos();
            for k in 0..CIRCLE_SIDES {
                let angle = std::f64::consts::TAU * k as f64 / CIRCLE_SIDES as f64;
                face.push(P2::new(angle.cos(), angle.sin()) * corner);
            }
            disk_plane::candidates(*radius, &local, &Vec3::z())
        }
        _ => unreachable!("face_face is registered for Rectangle and Disk only"),
    };
    // The part of the face below the base plane: z(u, v) = o_z + (R x)_z u + (R y)_z v <= 0.
    let (e1, e2) = (local.q * Vec3::x(), local.q * Vec3::y());
    let mut below = Polygon::new();
    face.clip(&P2::new(e1.z, e2.z), -local.r.z, &mut below);
    // (u, v) -> base-plane position: o_xy + [e1_xy e2_xy] (u, v).
    let jacobian = Matrix2::new(e1.x, e2.x, e1.y, e2.y);
    let weight = share * outline(base).covered_fraction(&below, &local.r.xy(), &jacobian);
    let candidates = candidates.iter().enumerate().map(|(i, c)| Candidate { id: first_id + i as u32, centre: *c, radius: 0.0 });
    push_points(&outline(base), base_pose, candidates, weight, out);
}
