//! Forward-mode automatic differentiation: a value with `N` directional derivatives (tangents).
//!
//! `Dual<1>` carries one seed direction (a directional derivative); `Dual<26>` carries the 26
//! unit directions of the block's inputs at once (a whole Jacobian in one pass). Every operation
//! computes its value exactly as `f64` does, so a dual evaluation's value is the `f64` result
//! bit for bit; the tangents follow the chain rule of the operation.

use std::ops::{Add, AddAssign, Div, DivAssign, Mul, MulAssign, Neg, Sub, SubAssign};

use nalgebra::Vector3;

use super::real::Real;

/// `v + sum_i d[i] e_i` with `e_i^2 = e_i e_j = 0`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Dual<const N: usize> {
    pub v: f64,
    pub d: [f64; N],
}

impl<const N: usize> Dual<N> {
    /// A value with the given tangents.
    pub fn new(v: f64, d: [f64; N]) -> Self {
        Dual { v, d }
    }

    /// `f(v)` with slope `df` at `v`: the chain rule.
    #[inline(always)]
    fn chain(mut self, value: f64, slope: f64) -> Self {
        self.v = value;
        for i in 0..N {
            self.d[i] *= slope;
        }
        self
    }
}

impl<const N: usize> num_traits::Zero for Dual<N> {
    fn zero() -> Self {
        Dual { v: 0.0, d: [0.0; N] }
    }
    fn is_zero(&self) -> bool {
        self.v == 0.0 && self.d.iter().all(|d| *d == 0.0)
    }
}

impl<const N: usize> num_traits::One for Dual<N> {
    fn one() -> Self {
        Dual { v: 1.0, d: [0.0; N] }
    }
}

impl<const N: usize> Add for Dual<N> {
    type Output = Self;
    #[inline(always)]
    fn add(mut self, o: Self) -> Self {
        // In place over the tangents (here and below): a large Dual is not built anew and
        // copied; each tangent is the same expression, so the same number.
        self.v += o.v;
        for i in 0..N {
            self.d[i] += o.d[i];
        }
        self
    }
}

impl<const N: usize> Sub for Dual<N> {
    type Output = Self;
    #[inline(always)]
    fn sub(mut self, o: Self) -> Self {
        self.v -= o.v;
        for i in 0..N {
            self.d[i] -= o.d[i];
        }
        self
    }
}

// The product and quotient rules mix the operations on purpose.
#[allow(clippy::suspicious_arithmetic_impl)]
impl<const N: usize> Mul for Dual<N> {
    type Output = Self;
    #[inline(always)]
    fn mul(mut self, o: Self) -> Self {
        let v = self.v;
        for i in 0..N {
            self.d[i] = self.d[i] * o.v + v * o.d[i];
        }
        self.v = v * o.v;
        self
    }
}

#[allow(clippy::suspicious_arithmetic_impl)]
impl<const N: usize> Div for Dual<N> {
    type Output = Self;
    #[inline(always)]
    fn div(mut self, o: Self) -> Self {
        let v = self.v / o.v;
        for i in 0..N {
            self.d[i] = (self.d[i] - v * o.d[i]) / o.v;
        }
        self.v = v;
        self
    }
}

impl<const N: usize> Neg for Dual<N> {
    type Output = Self;
    #[inline(always)]
    fn neg(mut self) -> Self {
        self.v = -self.v;
        for i in 0..N {
            self.d[i] = -self.d[i];
        }
        self
    }
}

impl<const N: usize> Add<f64> for Dual<N> {
    type Output = Self;
    #[inline(always)]
    fn add(self, o: f64) -> Self {
        Dual { v: self.v + o, d: self.d }
    }
}

impl<const N: usize> Sub<f64> for Dual<N> {
    type Output = Self;
    #[inline(always)]
    fn sub(self, o: f64) -> Self {
        Dual { v: self.v - o, d: self.d }
    }
}

impl<const N: usize> Mul<f64> for Dual<N> {
    type Output = Self;
    #[inline(always)]
    fn mul(mut self, o: f64) -> Self {
        self.v *= o;
        for i in 0..N {
            self.d[i] *= o;
        }
        self
    }
}

impl<const N: usize> Div<f64> for Dual<N> {
    type Output = Self;
    #[inline(always)]
    fn div(mut self, o: f64) -> Self {
        self.v /= o;
        for i in 0..N {
            self.d[i] /= o;
        }
        self
    }
}

macro_rules! assign {
    ($trait:ident, $method:ident, $op:tt) => {
        impl<const N: usize> $trait for Dual<N> {
            #[inline(always)]
            fn $method(&mut self, o: Self) {
                *self = *self $op o;
            }
        }
    };
}
assign!(AddAssign, add_assign, +);
assign!(SubAssign, sub_assign, -);
assign!(MulAssign, mul_assign, *);
assign!(DivAssign, div_assign, /);

impl<const N: usize> Real for Dual<N> {
    #[inline(always)]
    fn c(x: f64) -> Self {
        Dual { v: x, d: [0.0; N] }
    }
    #[inline(always)]
    fn v(self) -> f64 {
        self.v
    }
    #[inline(always)]
    fn with_v(self, v: f64) -> Self {
        Dual { v, d: self.d }
    }
    fn sqrt(self) -> Self {
        let r = self.v.sqrt();
        self.chain(r, 0.5 / r)
    }
    fn exp(self) -> Self {
        let e = self.v.exp();
        self.chain(e, e)
    }
    fn tanh(self) -> Self {
        let t = super::hyperbolic::tanh(self.v);
        self.chain(t, 1.0 - t * t)
    }
    fn powf(self, e: f64) -> Self {
        let p = self.v.powf(e);
        // d x^e = e x^(e - 1) dx; written from x^e so that x^e itself is f64's.
        let slope = if e == 0.0 { 0.0 } else { e * self.v.powf(e - 1.0) };
        self.chain(p, slope)
    }
    fn abs(self) -> Self {
        if self.v < 0.0 {
            -self
        } else {
            self
        }
    }
    fn max(self, other: Self) -> Self {
        if other.v > self.v || self.v.is_nan() {
            other
        } else {
            self
        }
    }
    fn min(self, other: Self) -> Self {
        if other.v < self.v || self.v.is_nan() {
            other
        } else {
            self
        }
    }
    fn norm(v: &Vector3<Self>) -> Self {
        // The value as nalgebra's norm computes it: the square root of the sum of squares.
        let value = (v.x.v * v.x.v + v.y.v * v.y.v + v.z.v * v.z.v).sqrt();
        let inv = if value > 0.0 { 1.0 / value } else { 0.0 };
        Dual { v: value, d: std::array::from_fn(|i| (v.x.v * v.x.d[i] + v.y.v * v.y.d[i] + v.z.v * v.z.d[i]) * inv) }
    }
}

/// The values and the tangents of a dual vector.
pub fn split<const N: usize>(v: &Vector3<Dual<N>>) -> (Vector3<f64>, [Vector3<f64>; N]) {
    (Vector3::new(v.x.v, v.y.v, v.z.v), std::array::from_fn(|i| Vector3::new(v.x.d[i], v.y.d[i], v.z.d[i])))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn seed(v: f64) -> Dual<1> {
        Dual::new(v, [1.0])
    }

    #[test]
    fn elementary_functions_have_their_closed_form_derivatives() {
        let x = 0.7;
        assert_eq!(seed(x).sqrt().d[0], 0.5 / x.sqrt());
        assert_eq!(seed(x).exp().d[0], x.exp());
        assert!((seed(x).tanh().d[0] - 1.0 / x.cosh().powi(2)).abs() < 1e-15);
        assert!((seed(x).powf(1.5).d[0] - 1.5 * x.sqrt()).abs() < 1e-15);
        let q = seed(x) / (seed(x) * 2.0 + 1.0);
        assert!((q.d[0] - 1.0 / (2.0 * x + 1.0).powi(2)).abs() < 1e-15);
        assert_eq!((-seed(-x)).abs().d[0], -1.0);
    }

    /// The arithmetic of two duals with three tangents each: every tangent by the sum, product
    /// and quotient rules, the values f64's bit for bit, the assigning forms the same.
    #[test]
    fn arithmetic_follows_the_rules_on_every_tangent() {
        let (x, dx) = (0.7, [1.0, -2.0, 0.5]);
        let (y, dy) = (-1.3, [0.25, 3.0, -1.5]);
        let (a, b) = (Dual::new(x, dx), Dual::new(y, dy));
        let close = |got: Dual<3>, value: f64, tangent: &dyn Fn(usize) -> f64| {
            assert_eq!(got.v, value);
            for i in 0..3 {
                assert!((got.d[i] - tangent(i)).abs() <= 1e-15 * tangent(i).abs().max(1.0), "{got:?}: tangent {i} is not {}", tangent(i));
            }
        };
        close(a + b, x + y, &|i| dx[i] + dy[i]);
        close(a - b, x - y, &|i| dx[i] - dy[i]);
        close(a * b, x * y, &|i| dx[i] * y + x * dy[i]);
        close(a / b, x / y, &|i| (dx[i] * y - x * dy[i]) / (y * y));
        close(-a, -x, &|i| -dx[i]);
        close(a * 2.5, x * 2.5, &|i| dx[i] * 2.5);
        close(a / 2.5, x / 2.5, &|i| dx[i] / 2.5);
        close(a + 2.5, x + 2.5, &|i| dx[i]);
        close(a.sqrt(), x.sqrt(), &|i| dx[i] * 0.5 / x.sqrt());
        let mut c = a;
        c *= b;
        assert_eq!(c, a * b);
        c /= b;
        assert_eq!(c, a * b / b);
        c += b;
        c -= a;
        assert_eq!(c, a * b / b + b - a);
    }

    #[test]
    fn values_are_f64_bit_for_bit() {
        let x = 0.123456789;
        assert_eq!(seed(x).powf(1.37).v, x.powf(1.37));
        assert_eq!((seed(x) * seed(x) / 3.0 + 1.0).v, x * x / 3.0 + 1.0);
        let v = Vector3::new(seed(0.3), Dual::c(-0.4), Dual::c(1.2));
        assert_eq!(Dual::norm(&v).v, Vector3::new(0.3, -0.4, 1.2).norm());
        assert!((Dual::norm(&v).d[0] - 0.3 / 1.3).abs() < 1e-15);
    }
}
