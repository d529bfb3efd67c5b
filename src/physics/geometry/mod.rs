//! Geometry pairs: where two shapes touch, how far apart they are, and along which normal.
//!
//! Each pair has one file with a canonical argument order (base shape first). The mirrored order
//! reuses it through [`ContactPoint::flipped`]. An unsupported pair is an error at construction
//! ([`UnsupportedPair`]), distinct from "no contact" (a positive separation).

mod plane_sphere;
mod sphere_sphere;

use super::math::{Pose, Vec3};
use super::shape::{Shape, ShapeKind};

/// One pair of witness points, resolved in W.
///
/// Sign conventions: `normal_ab_w` is the unit normal pointing from A toward B; `separation` is
/// the signed distance along it, positive when apart, negative when overlapping, and equal to
/// `(p_b_w - p_a_w) · normal_ab_w`. The witnesses are the points of each surface that are deepest
/// inside (or closest to) the other one.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ContactPoint {
    /// Witness point on A's surface.
    pub p_a_w: Vec3,
    /// Witness point on B's surface.
    pub p_b_w: Vec3,
    /// Unit normal from A toward B.
    pub normal_ab_w: Vec3,
    /// Signed distance, > 0 apart.
    pub separation: f64,
}

impl ContactPoint {
    /// The same contact seen with A and B exchanged.
    pub fn flipped(&self) -> ContactPoint {
        ContactPoint {
            p_a_w: self.p_b_w,
            p_b_w: self.p_a_w,
            normal_ab_w: -self.normal_ab_w,
            separation: self.separation,
        }
    }

    /// Where the contact force acts: midway between the two witnesses. Symmetric in A and B, so
    /// exchanging the bodies mirrors the wrenches exactly.
    pub fn point_w(&self) -> Vec3 {
        (self.p_a_w + self.p_b_w) * 0.5
    }

    /// Penetration depth `max(0, -separation)`.
    pub fn depth(&self) -> f64 {
        (-self.separation).max(0.0)
    }
}

/// Two shapes for which no contact computation exists.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnsupportedPair {
    pub a: ShapeKind,
    pub b: ShapeKind,
    /// Why, in one sentence.
    pub reason: &'static str,
}

impl std::fmt::Display for UnsupportedPair {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "geometry pair {} (A) - {} (B) is not supported: {}", self.a.name(), self.b.name(), self.reason)
    }
}

/// The canonical pairs, base shape first. A Point is a sphere of radius zero.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Canonical {
    PlaneSphere,
    SphereSphere,
}

/// Radius of a shape that the sphere pairs can treat as a sphere.
fn as_sphere(shape: &Shape) -> Option<f64> {
    match shape {
        Shape::Point => Some(0.0),
        Shape::Sphere { radius } => Some(*radius),
        _ => None,
    }
}

/// Two shapes, validated as a supported pair, with the order in which the canonical pair is called.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct GeometryPair {
    shape_a: Shape,
    shape_b: Shape,
    canonical: Canonical,
    /// The canonical function takes B first.
    flipped: bool,
}

impl GeometryPair {
    pub fn new(shape_a: Shape, shape_b: Shape) -> Result<Self, UnsupportedPair> {
        let unsupported = |reason| UnsupportedPair { a: shape_a.kind(), b: shape_b.kind(), reason };
        let (canonical, flipped) = match (&shape_a, &shape_b) {
            (Shape::Point, Shape::Point) => {
                return Err(unsupported("two points can never penetrate, so they never carry a force"))
            }
            (Shape::Plane, Shape::Plane) => {
                return Err(unsupported("two infinite planes have no finite separation"))
            }
            (Shape::Plane, b) if as_sphere(b).is_some() => (Canonical::PlaneSphere, false),
            (a, Shape::Plane) if as_sphere(a).is_some() => (Canonical::PlaneSphere, true),
            (a, b) if as_sphere(a).is_some() && as_sphere(b).is_some() => (Canonical::SphereSphere, false),
            _ => return Err(unsupported("not supported yet")),
        };
        Ok(GeometryPair { shape_a, shape_b, canonical, flipped })
    }

    pub fn shape_a(&self) -> &Shape {
        &self.shape_a
    }

    pub fn shape_b(&self) -> &Shape {
        &self.shape_b
    }

    /// The radius [m] a rolling resistance torque acts with: the effective radius of curvature
    /// at the contact, `r` for a sphere on a plane, `r_a r_b / (r_a + r_b)` for two spheres; 0
    /// where a point touches (it cannot roll).
    pub fn rolling_radius(&self) -> f64 {
        let radius_a = as_sphere(&self.shape_a).unwrap_or(0.0);
        let radius_b = as_sphere(&self.shape_b).unwrap_or(0.0);
        match self.canonical {
            Canonical::PlaneSphere => radius_a.max(radius_b),
            Canonical::SphereSphere if radius_a > 0.0 && radius_b > 0.0 => radius_a * radius_b / (radius_a + radius_b),
            Canonical::SphereSphere => 0.0,
        }
    }

    /// Appends the contact points of A at `pose_a` and B at `pose_b` (geometry frames in W) to
    /// `out`. Bounded pairs always give at least the closest pair of points, so the separation is
    /// known even when apart.
    pub fn contacts(&self, pose_a: &Pose, pose_b: &Pose, out: &mut Vec<ContactPoint>) {
        let (base, base_pose, follower, follower_pose) = if self.flipped {
            (&self.shape_b, pose_b, &self.shape_a, pose_a)
        } else {
            (&self.shape_a, pose_a, &self.shape_b, pose_b)
        };
        let first = out.len();
        match self.canonical {
            Canonical::PlaneSphere => {
                let radius = as_sphere(follower).unwrap_or(0.0);
                out.push(plane_sphere::contact(base_pose, &follower_pose.r, radius));
            }
            Canonical::SphereSphere => {
                let radius_base = as_sphere(base).unwrap_or(0.0);
                let radius_follower = as_sphere(follower).unwrap_or(0.0);
                out.push(sphere_sphere::contact(&base_pose.r, radius_base, &follower_pose.r, radius_follower));
            }
        }
        if self.flipped {
            for point in &mut out[first..] {
                *point = point.flipped();
            }
        }
    }
}
