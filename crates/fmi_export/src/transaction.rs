//! DoStep as a transaction: a step changes all it changes or nothing. A model says once what a
//! step may change ([`Rollback::save`]) and how to put it back ([`Rollback::roll_back`]); every
//! way it steps (held inputs, inputs along their derivatives, its own integration over the step)
//! then runs through [`transaction`], the one rollback path, so that a discarded step (the
//! importer may retry it shorter) finds the model as it was.
#![forbid(unsafe_code)]

/// What a step may change, saved before it and put back when it fails.
pub trait Rollback {
    /// Saves what the coming step may change (into buffers the model keeps, so that a step in
    /// steady use allocates nothing).
    fn save(&mut self);

    /// Puts back what [`Rollback::save`] saved, and marks whatever was computed from it stale.
    fn roll_back(&mut self);
}

/// Runs `step` on `model` as a transaction: when it fails, the model is rolled back to what it
/// was before, and the error is returned.
pub fn transaction<M: Rollback, T, E>(model: &mut M, step: impl FnOnce(&mut M) -> Result<T, E>) -> Result<T, E> {
    model.save();
    let result = step(model);
    if result.is_err() {
        model.roll_back();
    }
    result
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Debug, Default, PartialEq)]
    struct Counter {
        value: i32,
        saved: i32,
    }

    impl Rollback for Counter {
        fn save(&mut self) {
            self.saved = self.value;
        }
        fn roll_back(&mut self) {
            self.value = self.saved;
        }
    }

    #[test]
    fn a_failed_step_leaves_the_model_as_it_was_and_a_good_one_keeps_its_changes() {
        let mut c = Counter { value: 1, saved: 0 };
        let failed: Result<(), &str> = transaction(&mut c, |c| {
            c.value = 5;
            Err("too long")
        });
        assert_eq!((failed, c.value), (Err("too long"), 1));
        let done: Result<i32, &str> = transaction(&mut c, |c| {
            c.value += 2;
            Ok(c.value)
        });
        assert_eq!((done, c.value), (Ok(3), 3));
    }
}
