//! Small seeded generators for the unit tests of this crate and of ContactForce's block: the same
//! numbers on every machine, no dependency.
//! (The integration tests have their own in tests/support.)

use crate::math::{Rotation, Vec3};

/// xorshift64 (shifts 13, 7, 17), uniform in [0, 1).
pub struct XorShift64(pub u64);

// `next` draws a number, as the generators of tests/support do; they are no iterators.
#[allow(clippy::should_implement_trait)]
impl XorShift64 {
    pub fn next(&mut self) -> f64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 >> 11) as f64 / (1u64 << 53) as f64
    }

    pub fn range(&mut self, lo: f64, hi: f64) -> f64 {
        lo + (hi - lo) * self.next()
    }

    /// Each component uniform in [-scale, scale).
    pub fn vec(&mut self, scale: f64) -> [f64; 3] {
        [self.range(-scale, scale), self.range(-scale, scale), self.range(-scale, scale)]
    }

    /// A rotation as (w, x, y, z), with a norm off 1 by up to `off`.
    pub fn quaternion(&mut self, off: f64) -> [f64; 4] {
        let q = [self.range(-1.0, 1.0), self.range(-1.0, 1.0), self.range(-1.0, 1.0), self.range(-1.0, 1.0)];
        let scale = (1.0 + self.range(-off, off)) / q.iter().map(|x| x * x).sum::<f64>().sqrt();
        q.map(|x| x * scale)
    }
}

/// xorshift64*, uniform in [0, 1).
pub struct XorShift64Star(pub u64);

#[allow(clippy::should_implement_trait)]
impl XorShift64Star {
    pub fn next(&mut self) -> f64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        (self.0.wrapping_mul(0x2545_f491_4f6c_dd1d) >> 11) as f64 / (1u64 << 53) as f64
    }

    /// Each component uniform in [-scale, scale).
    pub fn vec(&mut self, scale: f64) -> Vec3 {
        Vec3::new(self.next() - 0.5, self.next() - 0.5, self.next() - 0.5) * (2.0 * scale)
    }

    /// A unit vector, uniform over the sphere (by rejection from the cube).
    pub fn unit(&mut self) -> Vec3 {
        loop {
            let v = Vec3::new(self.next() * 2.0 - 1.0, self.next() * 2.0 - 1.0, self.next() * 2.0 - 1.0);
            if v.norm_squared() > 1e-4 && v.norm_squared() <= 1.0 {
                return v.normalize();
            }
        }
    }

    /// A rotation about a random axis by up to 3.1 rad.
    pub fn rotation(&mut self) -> Rotation {
        Rotation::from_scaled_axis(self.unit() * self.next() * 3.1)
    }
}
