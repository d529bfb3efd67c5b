//! Vector types and rigid-body kinematics shared by the geometry and the laws.

use nalgebra::{Quaternion, UnitQuaternion, Vector3};

pub type Vec3 = Vector3<f64>;
pub type Rotation = UnitQuaternion<f64>;

/// Quaternion norms further than this from 1 are normalised with a warning.
pub const QUATERNION_NORM_TOLERANCE: f64 = 1e-3;

/// A rigid transform: position `r` of a frame's origin and its orientation `q`, both resolved in
/// the parent frame (W for body poses, the body frame for geometry offsets).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Pose {
    pub r: Vec3,
    pub q: Rotation,
}

impl Pose {
    pub fn identity() -> Self {
        Pose { r: Vec3::zeros(), q: Rotation::identity() }
    }

    /// Maps a point given in this frame into the parent frame.
    #[inline(always)]
    pub fn transform_point(&self, p: &Vec3) -> Vec3 {
        self.r + self.q * p
    }

    /// The pose of a child frame given relative to this one: `self * child`.
    pub fn compose(&self, child: &Pose) -> Pose {
        Pose { r: self.r + self.q * child.r, q: self.q * child.q }
    }
}

/// A rigid body's motion: pose of its frame and twist (velocity `v` of the frame origin, angular
/// velocity `w`), everything resolved in W.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct BodyState {
    pub pose: Pose,
    pub v: Vec3,
    pub w: Vec3,
}

impl BodyState {
    /// A body at rest with its frame on W's: what a coupling holds before the first state arrives.
    pub fn at_rest() -> BodyState {
        BodyState { pose: Pose::identity(), v: Vec3::zeros(), w: Vec3::zeros() }
    }

    /// Velocity of the body's material point at `p` (in W): `v + w × (p - r)`.
    pub fn velocity_at(&self, p: &Vec3) -> Vec3 {
        self.v + self.w.cross(&(p - self.pose.r))
    }
}

/// Why [`rotation_from_wxyz`] makes no rotation of `q`, in words for an error message.
pub fn quaternion_problem(q: &[f64; 4]) -> &'static str {
    if q.iter().any(|x| !x.is_finite()) {
        "has a component that is not finite"
    } else if q.iter().map(|x| x.abs()).fold(0.0, f64::max) > 1e100 {
        "is too large to normalise (its norm overflows); give a unit quaternion"
    } else {
        "is zero (its norm is below 1e-12), so it is no rotation"
    }
}

/// Builds a unit quaternion from scalar-first components `(w, x, y, z)`.
///
/// Returns the normalised rotation and the norm of the given components, or `None` when the
/// components are zero, so large that their norm overflows, or not finite (no rotation can be
/// made of them; [`quaternion_problem`] says which).
pub fn rotation_from_wxyz(q: &[f64; 4]) -> Option<(Rotation, f64)> {
    let (raw, norm) = quaternion_from_wxyz(q)?;
    Some((normalised(&raw, norm), norm))
}

/// The components `(w, x, y, z)` as a quaternion with its norm, checked as
/// [`rotation_from_wxyz`] checks them, but not yet normalised: for a caller that needs only the
/// norm of some quaternions (a sphere's orientation does not matter).
#[inline]
pub fn quaternion_from_wxyz(q: &[f64; 4]) -> Option<(Quaternion<f64>, f64)> {
    let raw = Quaternion::new(q[0], q[1], q[2], q[3]);
    let norm = raw.norm();
    if !norm.is_finite() || norm < 1e-12 {
        return None;
    }
    Some((raw, norm))
}

/// The rotation of a checked quaternion `raw` of norm `norm` ([`quaternion_from_wxyz`]):
/// exactly the one [`rotation_from_wxyz`] gives.
#[inline]
pub fn normalised(raw: &Quaternion<f64>, norm: f64) -> Rotation {
    UnitQuaternion::new_unchecked(raw / norm)
}
