//! A frame over any [`Real`]: what the derivatives of every pair are written against (with dual
//! numbers, the frames' derivatives with respect to the poses).

use nalgebra::Vector3;

use crate::math::{Pose, Vec3};
use crate::real::Real;

/// A frame over any [`Real`]: origin and the columns of the rotation matrix, in W.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Frame<S: Real> {
    pub r: Vector3<S>,
    /// The frame's x, y, z axes in W.
    pub axes: [Vector3<S>; 3],
}

impl<S: Real> Frame<S> {
    /// The frame of position `r` and the rotation of the quaternion `q` = (w, x, y, z), which is
    /// normalised here (its derivative goes through the normalisation).
    pub fn from_quaternion(r: Vector3<S>, q: [S; 4]) -> Frame<S> {
        let norm = (q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]).sqrt();
        let [w, x, y, z] = q.map(|c| c / norm);
        let (one, two) = (S::c(1.0), S::c(2.0));
        let axes = [
            Vector3::new(one - two * (y * y + z * z), two * (x * y + w * z), two * (x * z - w * y)),
            Vector3::new(two * (x * y - w * z), one - two * (x * x + z * z), two * (y * z + w * x)),
            Vector3::new(two * (x * z + w * y), two * (y * z - w * x), one - two * (x * x + y * y)),
        ];
        Frame { r, axes }
    }

    /// A constant frame.
    pub fn constant(pose: &Pose) -> Frame<S> {
        let m = pose.q.to_rotation_matrix();
        Frame { r: S::vc(&pose.r), axes: [0, 1, 2].map(|i| S::vc(&m.matrix().column(i).into_owned())) }
    }

    /// A vector given in this frame, in W.
    pub fn vector(&self, v: &Vector3<S>) -> Vector3<S> {
        self.axes[0] * v.x + self.axes[1] * v.y + self.axes[2] * v.z
    }

    /// A point given in this frame, in W.
    pub fn point(&self, p: &Vector3<S>) -> Vector3<S> {
        self.r + self.vector(p)
    }

    /// A constant point of the body (a vertex), in W.
    pub fn fixed_point(&self, p: &Vec3) -> Vector3<S> {
        self.point(&S::vc(p))
    }

    /// A point in W, in this frame.
    pub fn local(&self, p_w: &Vector3<S>) -> Vector3<S> {
        let d = p_w - self.r;
        Vector3::new(self.axes[0].dot(&d), self.axes[1].dot(&d), self.axes[2].dot(&d))
    }

    /// The frame of a child given relative to this one (a geometry offset).
    pub fn compose(&self, child: &Pose) -> Frame<S> {
        let m = child.q.to_rotation_matrix();
        Frame { r: self.fixed_point(&child.r), axes: [0, 1, 2].map(|i| self.vector(&S::vc(&m.matrix().column(i).into_owned()))) }
    }
}
