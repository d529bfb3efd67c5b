//! The bound on sub-steps: a step too long for its sub-step is refused rather than run for ever.

/// The most sub-steps one step of a model takes (of `solver.max_step` for the stateful laws, of
/// `coupling.max_substep` for StepAverage's bodies). A longer step
/// (a communication step of 1e300 s, or `solver.max_step = 1e-300`) is discarded instead of
/// keeping the importer waiting for ever; the importer can retry with a shorter step.
pub const MAX_SUBSTEPS: f64 = 1e6;

/// A step of `step` in sub-steps of at most `max_substep` (the parameter `name`) that would take
/// more than [`MAX_SUBSTEPS`] of them is refused with this message naming the parameter (the
/// models discard such a step).
pub fn check_substeps(step: f64, max_substep: f64, name: &str) -> Result<(), String> {
    let substeps = (step / max_substep).ceil();
    if substeps > MAX_SUBSTEPS {
        return Err(format!(
            "a step of {step} s takes {substeps:e} sub-steps of {name} = {max_substep} s, more than the {MAX_SUBSTEPS:e} \
             allowed; take shorter communication steps or a larger {name}"
        ));
    }
    Ok(())
}
