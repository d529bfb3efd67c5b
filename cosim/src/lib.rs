//! `cosim`: a small co-simulation master for FMI 2.0 co-simulation FMUs, written for ContactForce
//! and its companion RigidBody FMU.
//!
//! It imports **FMI 2.0 only** (the `-fmi2` FMUs, `binaries/linux64`): its own loader unzips the
//! archive, reads `modelDescription.xml`, `dlopen`s the binary and calls the C API directly
//! ([`fmi2`], [`fmu`]). A scenario file (TOML, described in cosim/README.md and [`scenario`])
//! names the FMU instances, their parameters, the connections, prescribed inputs, what to record
//! and what to check.
//!
//! # Coupling scheme
//!
//! Communication points `t_k = t_0 + k h` (the last one is the stop time; a shorter last step is
//! allowed when every FMU can handle variable steps). At each `t_k`:
//!
//! 1. the prescribed inputs take their values at `t_k`;
//! 2. the instances exchange values in *feedthrough order*: an instance whose outputs depend on its
//!    inputs (ContactForce: forces from poses and twists) gets its connected inputs before its
//!    outputs are read; an instance without feedthrough (RigidBody: its outputs are its states)
//!    is read as it is. So the bodies' states at `t_k` go into the contact, and the contact's
//!    forces at `t_k` are computed from exactly those states;
//! 3. the instances without feedthrough take their connected inputs (the bodies get the forces);
//! 4. the recorded variables are read (a consistent set of values at `t_k`), then every instance
//!    steps over `[t_k, t_k + h]` with its inputs held (zero-order hold), in reverse exchange
//!    order: the contact first, its stateful friction laws advancing with the held body states,
//!    then the bodies. Since nothing is exchanged between the steps, their order does not change
//!    the result.
//!
//! This is the explicit (non-iterative) scheme with the contact evaluated at the body states: the
//! force applied over a step is the force at its start, so the coupling is first order in `h`.
//! The bodies integrate within the step with their own sub-steps. An instance's internal step is
//! set through a parameter of its own (`sub_steps` and `sub_step_parameter` in the scenario:
//! `solver.max_step = h / sub_steps` for ContactForce). A cycle of feedthrough instances (an
//! algebraic loop) is refused.
//!
//! # From Rust
//!
//! ```no_run
//! use cosim::{Options, Scenario, Simulation};
//!
//! let scenario = Scenario::from_file("scenarios/sphere_drop.toml".as_ref())?;
//! let outcome = Simulation::new(&scenario, &Options::default())?.run()?;
//! let force = outcome.results().column("contact.frame_b.f_0[3]").expect("recorded");
//! println!("{} samples, final force {} N", force.len(), force[force.len() - 1]);
//! outcome.results().write_csv("results/sphere_drop.csv".as_ref())?;
//! print!("{}", cosim::summary_table(&[outcome]));
//! # Ok::<(), cosim::Error>(())
//! ```

pub mod fmi2;
pub mod fmu;
pub mod master;
pub mod model_description;
pub mod plan;
pub mod plot;
pub mod recording;
pub mod report;
pub mod scenario;

pub use master::{run_file, Options, Outcome, Simulation};
pub use recording::{CheckResult, Recording};
pub use report::summary_table;
pub use scenario::Scenario;

/// Every failure is a message for the user: what failed, where, and (for FMI calls) what the FMU
/// logged.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Error {
    message: String,
}

impl Error {
    pub fn new(message: impl Into<String>) -> Error {
        Error { message: message.into() }
    }

    /// Prefixes the message with where it happened: `context: message`.
    pub fn context(self, context: &str) -> Error {
        Error { message: format!("{context}: {}", self.message) }
    }

    pub fn message(&self) -> &str {
        &self.message
    }
}

impl std::fmt::Display for Error {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for Error {}
