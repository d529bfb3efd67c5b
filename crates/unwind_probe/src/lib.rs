//! The unwinding probe of `cargo xtask fmu`.
//!
//! The FMU binaries turn a panic into an Error status with `catch_unwind` at the C boundary, which
//! needs a working unwinder. cargo-zigbuild links zig's LLVM libunwind statically in place of the
//! system's libgcc_s, so the xtask builds this library exactly like the FMU binaries, loads it into
//! a foreign process (Python's ctypes) and calls [`unwind_probe`]: 1 proves that a panic unwound
//! through several frames, ran their destructors and was caught; a broken unwinder aborts instead.

use std::cell::Cell;
use std::panic::{self, AssertUnwindSafe};

/// Frames between the panic and the `catch_unwind`.
const DEPTH: u32 = 8;

/// Counts its drops, so that the probe sees the destructors of unwound frames run.
struct Guard<'a>(&'a Cell<u32>);

impl Drop for Guard<'_> {
    fn drop(&mut self) {
        self.0.set(self.0.get() + 1);
    }
}

#[inline(never)]
fn descend(depth: u32, drops: &Cell<u32>) -> u32 {
    let _guard = Guard(drops);
    if depth == 0 {
        panic!("unwind probe: the expected panic");
    }
    // The addition keeps the recursion from becoming a tail call.
    descend(depth - 1, drops) + 1
}

/// 1 when a panic `DEPTH` frames down was caught after every frame's destructor ran, else 0.
#[no_mangle]
pub extern "C" fn unwind_probe() -> i32 {
    let drops = Cell::new(0);
    let caught = panic::catch_unwind(AssertUnwindSafe(|| descend(DEPTH, &drops))).is_err();
    i32::from(caught && drops.get() == DEPTH + 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_probe_catches_its_panic_after_every_destructor() {
        assert_eq!(unwind_probe(), 1);
    }
}
