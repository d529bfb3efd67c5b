//! The scalar the laws, the per-point force and the contact kinematics are written over: `f64`
//! for the outputs, [`Dual`](super::dual::Dual) for their exact derivatives.
//!
//! Every function generic over [`Real`] decides its branches on [`Real::v`], the value, so the
//! dual's value is the `f64` result bit for bit and its tangent is the derivative of the branch
//! that value selects. The `f64` implementation forwards every method to `f64`'s own, so the
//! monomorphised `f64` code is the code that was written for `f64` before.

use std::fmt::Debug;
use std::ops::{Add, AddAssign, Div, DivAssign, Mul, MulAssign, Neg, Sub, SubAssign};

use nalgebra::Vector3;

/// A real number with as much of `f64`'s interface as the physics uses.
pub trait Real:
    nalgebra::Scalar
    + Copy
    + Debug
    + num_traits::Zero
    + num_traits::One
    + Add<Output = Self>
    + Sub<Output = Self>
    + Mul<Output = Self>
    + Div<Output = Self>
    + Neg<Output = Self>
    + AddAssign
    + SubAssign
    + MulAssign
    + DivAssign
    + Add<f64, Output = Self>
    + Sub<f64, Output = Self>
    + Mul<f64, Output = Self>
    + Div<f64, Output = Self>
    + Send
    + Sync
{
    /// A constant (zero tangent).
    fn c(x: f64) -> Self;
    /// The value.
    fn v(self) -> f64;
    /// The same tangents with the value `v`.
    fn with_v(self, v: f64) -> Self;
    fn sqrt(self) -> Self;
    fn exp(self) -> Self;
    fn tanh(self) -> Self;
    /// `self^e` for a constant exponent.
    fn powf(self, e: f64) -> Self;
    fn abs(self) -> Self;
    /// The larger by value (`f64::max` for `f64`).
    fn max(self, other: Self) -> Self;
    /// The smaller by value (`f64::min` for `f64`).
    fn min(self, other: Self) -> Self;
    /// `|v|` (`Vector3::norm` for `f64`).
    fn norm(v: &Vector3<Self>) -> Self;
    /// A constant vector.
    fn vc(v: &Vector3<f64>) -> Vector3<Self> {
        Vector3::new(Self::c(v.x), Self::c(v.y), Self::c(v.z))
    }
    /// The values of a vector.
    fn vv(v: &Vector3<Self>) -> Vector3<f64> {
        Vector3::new(v.x.v(), v.y.v(), v.z.v())
    }
}

impl Real for f64 {
    #[inline(always)]
    fn c(x: f64) -> f64 {
        x
    }
    #[inline(always)]
    fn v(self) -> f64 {
        self
    }
    #[inline(always)]
    fn with_v(self, v: f64) -> f64 {
        v
    }
    #[inline(always)]
    fn sqrt(self) -> f64 {
        f64::sqrt(self)
    }
    #[inline(always)]
    fn exp(self) -> f64 {
        f64::exp(self)
    }
    #[inline(always)]
    fn tanh(self) -> f64 {
        super::hyperbolic::tanh(self)
    }
    #[inline(always)]
    fn powf(self, e: f64) -> f64 {
        f64::powf(self, e)
    }
    #[inline(always)]
    fn abs(self) -> f64 {
        f64::abs(self)
    }
    #[inline(always)]
    fn max(self, other: f64) -> f64 {
        f64::max(self, other)
    }
    #[inline(always)]
    fn min(self, other: f64) -> f64 {
        f64::min(self, other)
    }
    #[inline(always)]
    fn norm(v: &Vector3<f64>) -> f64 {
        v.norm()
    }
    #[inline(always)]
    fn vc(v: &Vector3<f64>) -> Vector3<f64> {
        *v
    }
    #[inline(always)]
    fn vv(v: &Vector3<f64>) -> Vector3<f64> {
        *v
    }
}
