//! The numbers a StepAverage coupling carries from step to step, written to and read from a
//! serialized FMU state in one fixed order: a [`Visit`] walks them, the same walk writes
//! ([`Writer`]) and reads ([`Reader`]), so the two cannot disagree on the order.

use crate::math::{BodyState, Rotation, Vec3};
use crate::rigid_motion::Motion;

/// Reads or writes every number of a state in one fixed order (little-endian f64s).
pub trait Visit {
    fn num(&mut self, x: &mut f64);
    fn vec(&mut self, v: &mut Vec3) {
        for x in v.iter_mut() {
            self.num(x);
        }
    }
    fn flag(&mut self, b: &mut bool) {
        let mut x = f64::from(u8::from(*b));
        self.num(&mut x);
        *b = x != 0.0;
    }
    /// A count or an index (exact in an f64 below 2^53); read, anything but a whole number in
    /// `0..=limit` is an error.
    fn count(&mut self, n: &mut usize, limit: usize);
    fn rotation(&mut self, q: &mut Rotation) {
        let mut c = q.into_inner().coords;
        for x in c.iter_mut() {
            self.num(x);
        }
        *q = Rotation::new_normalize(nalgebra::Quaternion::from(c));
    }
    fn body(&mut self, b: &mut BodyState) {
        self.vec(&mut b.pose.r);
        self.rotation(&mut b.pose.q);
        self.vec(&mut b.v);
        self.vec(&mut b.w);
    }
    fn motion(&mut self, m: &mut Motion) {
        self.vec(&mut m.c);
        self.vec(&mut m.v_c);
        self.rotation(&mut m.q);
        self.vec(&mut m.w);
        self.vec(&mut m.l);
    }
    fn wrench(&mut self, w: &mut (Vec3, Vec3)) {
        self.vec(&mut w.0);
        self.vec(&mut w.1);
    }
}

/// A list: its length (at most `limit`), then each item; read, the list is resized with `fill`.
pub fn list<T: Clone>(v: &mut dyn Visit, items: &mut Vec<T>, limit: usize, fill: T, mut each: impl FnMut(&mut dyn Visit, &mut T)) {
    let mut n = items.len();
    v.count(&mut n, limit);
    items.resize(n, fill);
    for item in items.iter_mut() {
        each(v, item);
    }
}

/// An optional value: a flag, then the value (`fill` when reading one that is present).
pub fn option<T: Clone>(v: &mut dyn Visit, item: &mut Option<T>, fill: T, each: impl FnOnce(&mut dyn Visit, &mut T)) {
    let mut has = item.is_some();
    v.flag(&mut has);
    let mut value = item.clone().unwrap_or(fill);
    if has {
        each(v, &mut value);
    }
    *item = has.then_some(value);
}

/// Writes the numbers as little-endian f64s.
pub struct Writer<'a>(pub &'a mut Vec<u8>);

impl Visit for Writer<'_> {
    fn num(&mut self, x: &mut f64) {
        self.0.extend_from_slice(&x.to_le_bytes());
    }
    fn count(&mut self, n: &mut usize, _limit: usize) {
        self.num(&mut (*n as f64));
    }
}

/// Reads the numbers from `next` (each f64 in turn); the first fault is kept in `error` and
/// every later number reads as 0.
pub struct Reader<F: FnMut() -> Result<f64, String>> {
    pub next: F,
    pub error: Option<String>,
}

impl<F: FnMut() -> Result<f64, String>> Visit for Reader<F> {
    fn num(&mut self, x: &mut f64) {
        if self.error.is_some() {
            *x = 0.0;
            return;
        }
        match (self.next)() {
            Ok(v) if v.is_finite() => *x = v,
            Ok(v) => self.error = Some(format!("the serialized FMU state holds a non-finite coupling value ({v})")),
            Err(e) => self.error = Some(e),
        }
    }
    fn count(&mut self, n: &mut usize, limit: usize) {
        let mut x = 0.0;
        self.num(&mut x);
        if x >= 0.0 && x.fract() == 0.0 && x <= limit as f64 {
            *n = x as usize;
        } else {
            if self.error.is_none() {
                self.error = Some(format!("the serialized FMU state holds a count of {x}, not a whole number from 0 to {limit}"));
            }
            *n = 0;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn walk(v: &mut dyn Visit, items: &mut Vec<f64>, flag: &mut bool, maybe: &mut Option<Vec3>) {
        list(v, items, 10, 0.0, |v, x| v.num(x));
        v.flag(flag);
        option(v, maybe, Vec3::zeros(), |v, x| v.vec(x));
    }

    #[test]
    fn what_is_written_reads_back_and_damage_is_an_error() {
        let (mut items, mut flag, mut maybe) = (vec![1.5, -2.0, 3.25], true, Some(Vec3::new(1.0, 2.0, 3.0)));
        let mut bytes = Vec::new();
        walk(&mut Writer(&mut bytes), &mut items, &mut flag, &mut maybe);
        let read = |bytes: &[u8]| {
            let mut chunks = bytes.chunks(8);
            let mut r = Reader { next: || chunks.next().filter(|c| c.len() == 8).map(|c| f64::from_le_bytes(c.try_into().unwrap())).ok_or_else(|| "too short".to_string()), error: None };
            let (mut items, mut flag, mut maybe) = (Vec::new(), false, None);
            walk(&mut r, &mut items, &mut flag, &mut maybe);
            r.error.map_or(Ok((items, flag, maybe)), Err)
        };
        assert_eq!(read(&bytes), Ok((items, flag, maybe)));
        assert_eq!(read(&bytes[..bytes.len() - 8]), Err("too short".to_string()));
        // A count past the limit.
        let mut bad = 11.0_f64.to_le_bytes().to_vec();
        bad.extend_from_slice(&bytes[8..]);
        assert!(read(&bad).unwrap_err().contains("count of 11"));
    }
}
