//! Which instant the bodies' states a co-simulation block is given before its DoStep belong to.
//!
//! A block that averages its wrench over the coming step (StepAverage) reads its outputs either
//! from the bodies at the step's start, or from where it expects them. States set between that
//! read and the DoStep are the bodies at the step's start (a Jacobi master: every FMU steps on
//! the values of the last exchange) or at its end (a Gauss-Seidel master that steps the bodies
//! first). The FMI gives no word for it: the block tells them apart by which of the two instants
//! it expects the states nearer, ContactForce and ContactScene alike.

/// Whether the states given after the first step are the bodies at the step's end, from the
/// order taken so far (`at_end`), how far the states are from where the block expects the bodies
/// at the step's start and at its end (`to_start`, `to_end`, any measure of the velocities, which
/// the held wrench changes over a step before the positions), and `votes`, the steps in a row
/// that said otherwise (kept by the caller).
///
/// At rest and in slow motion both instants fit, and a lasting contact's noise fits neither: only
/// clear evidence (one distance above 1e-6 and a hundred times the other) three steps in a row
/// turns the order over.
pub fn inputs_at_end(at_end: bool, votes: &mut u32, to_start: f64, to_end: f64) -> bool {
    let clear = to_start.max(to_end) > 1e-6;
    let other = clear && if at_end { to_start < 0.01 * to_end } else { to_end < 0.01 * to_start };
    *votes = if other { *votes + 1 } else { 0 };
    if *votes >= 3 {
        *votes = 0;
        !at_end
    } else {
        at_end
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn three_clear_steps_in_a_row_turn_the_order_over() {
        let mut votes = 0;
        // Taken for the start; the states sit at the end, clearly, twice, then ambiguous.
        assert!(!inputs_at_end(false, &mut votes, 1e-3, 1e-7));
        assert!(!inputs_at_end(false, &mut votes, 1e-3, 1e-7));
        assert!(!inputs_at_end(false, &mut votes, 1e-3, 5e-4));
        assert_eq!(votes, 0);
        // Three in a row.
        for _ in 0..2 {
            assert!(!inputs_at_end(false, &mut votes, 1e-3, 1e-7));
        }
        assert!(inputs_at_end(false, &mut votes, 1e-3, 1e-7));
        assert_eq!(votes, 0);
        // Noise below 1e-6 says nothing.
        for _ in 0..5 {
            assert!(inputs_at_end(true, &mut votes, 1e-9, 1e-7));
        }
    }
}
