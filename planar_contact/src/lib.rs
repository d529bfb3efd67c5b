//! PlanarContact: contact between two bodies held in one plane, as an FMI 2.0 / FMI 3.0 FMU.
//!
//! The bodies move in the x-y plane of W: a position `r_0` (2), an angle `phi` about z, a
//! velocity `v_0` (2) and an angular velocity `w`. Their shapes are planar ([`shape`]): Point,
//! Circle, Arc, Segment, Line, Polyline and Curve (points from a file, straight or spline).
//! [`geometry`] finds the contact points of a pair (one file per pair family), and [`block`]
//! evaluates ContactForce's own normal and friction laws at each point: a planar contact point is
//! a 3-D contact point with z = 0, a planar motion a 3-D motion in the x-y plane, so the laws,
//! their states and their event indicators are ContactForce's code (`contact_physics`), not
//! a copy. `model`, `variables` and `fmi` make it an FMU through the `fmi_export` crate.
//!
//! Signs as in ContactForce: the normal points from A toward B, the separation is positive
//! apart, the force on B at a point is `f_n n + f_t` and A receives the opposite.

pub mod block;
pub mod curve;
pub mod fmi;
pub mod geometry;
pub mod model;
pub mod shape;
pub mod variables;

/// A vector in the plane (x, y of W or of a local frame).
pub type Vec2 = nalgebra::Vector2<f64>;

/// A frame in the plane: its origin and its angle about z \[rad\].
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Pose2 {
    pub r: Vec2,
    pub phi: f64,
}

impl Pose2 {
    pub const IDENTITY: Pose2 = Pose2 { r: Vec2::new(0.0, 0.0), phi: 0.0 };

    /// `v` (resolved in this frame) resolved in the parent frame.
    pub fn rotate(&self, v: &Vec2) -> Vec2 {
        let (s, c) = self.phi.sin_cos();
        Vec2::new(c * v.x - s * v.y, s * v.x + c * v.y)
    }

    /// `v` (resolved in the parent frame) resolved in this frame.
    pub fn unrotate(&self, v: &Vec2) -> Vec2 {
        let (s, c) = self.phi.sin_cos();
        Vec2::new(c * v.x + s * v.y, -s * v.x + c * v.y)
    }

    /// The point `p` of this frame in the parent frame.
    pub fn apply(&self, p: &Vec2) -> Vec2 {
        self.r + self.rotate(p)
    }

    /// The point `p` of the parent frame in this frame.
    pub fn inverse_apply(&self, p: &Vec2) -> Vec2 {
        self.unrotate(&(p - self.r))
    }

    /// This frame's child `child` in the parent frame.
    pub fn compose(&self, child: &Pose2) -> Pose2 {
        Pose2 { r: self.apply(&child.r), phi: self.phi + child.phi }
    }
}
