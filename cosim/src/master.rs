//! The master: instantiates the FMUs of a scenario, initialises them, and steps them with the
//! coupling scheme documented in the crate root, recording at every communication point.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use indicatif::ProgressBar;

use crate::fmi2::{Status, ValueReference};
use crate::fmu::Instance;
use crate::model_description::{BaseType, ModelDescription};
use crate::plan::{self, Plan, ScalarRef};
use crate::recording::{evaluate, CheckResult, Recording};
use crate::scenario::Scenario;
use crate::Error;

/// Where the master looks for FMU archives named by a relative path that is not next to the
/// scenario file.
#[derive(Clone, Debug)]
pub struct Options {
    pub fmu_dirs: Vec<PathBuf>,
}

impl Default for Options {
    fn default() -> Options {
        Options { fmu_dirs: default_fmu_dirs() }
    }
}

/// `$COSIM_FMU_DIR` if set, then the workspace's target/fmu (`$CARGO_TARGET_DIR/fmu` when that
/// is set), where `cargo xtask fmu` writes the FMUs.
pub fn default_fmu_dirs() -> Vec<PathBuf> {
    let mut dirs = Vec::new();
    if let Some(dir) = std::env::var_os("COSIM_FMU_DIR") {
        dirs.push(PathBuf::from(dir));
    }
    dirs.push(workspace_target_dir().join("fmu"));
    dirs
}

/// The workspace's target directory, as the xtask computes it.
pub fn workspace_target_dir() -> PathBuf {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).parent().expect("cosim lives inside the workspace").to_path_buf();
    match std::env::var_os("CARGO_TARGET_DIR") {
        Some(dir) => root.join(dir),
        None => root.join("target"),
    }
}

/// Values of one base type moved between an instance and a buffer of f64 slots in one call.
#[derive(Debug)]
struct Batch {
    base: BaseType,
    vrs: Vec<ValueReference>,
    slots: Vec<usize>,
    /// Scratch space for the values, reused at every call.
    values: Vec<f64>,
}

/// Groups (instance, base type, value reference, slot) into one batch per instance and type.
fn batches(count: usize, items: impl IntoIterator<Item = (usize, BaseType, ValueReference, usize)>) -> Vec<Vec<Batch>> {
    let mut grouped: Vec<Vec<Batch>> = (0..count).map(|_| Vec::new()).collect();
    for (instance, base, vr, slot) in items {
        let list = &mut grouped[instance];
        let batch = match list.iter_mut().position(|b| b.base == base) {
            Some(i) => &mut list[i],
            None => {
                list.push(Batch { base, vrs: Vec::new(), slots: Vec::new(), values: Vec::new() });
                list.last_mut().expect("just pushed")
            }
        };
        batch.vrs.push(vr);
        batch.slots.push(slot);
        batch.values.push(0.0);
    }
    grouped
}

fn read(instance: &Instance, batches: &mut [Batch], buffer: &mut [f64]) -> Result<(), Error> {
    for batch in batches {
        instance.get_numeric(batch.base, &batch.vrs, &mut batch.values)?;
        for (&slot, &value) in batch.slots.iter().zip(&batch.values) {
            buffer[slot] = value;
        }
    }
    Ok(())
}

fn write(instance: &mut Instance, batches: &mut [Batch], buffer: &[f64]) -> Result<(), Error> {
    for batch in batches {
        for (value, &slot) in batch.values.iter_mut().zip(&batch.slots) {
            *value = buffer[slot];
        }
        instance.set_numeric(batch.base, &batch.vrs, &batch.values)?;
    }
    Ok(())
}

/// A scenario with its FMUs loaded and instantiated and its names resolved, ready to run.
pub struct Simulation {
    scenario: Scenario,
    plan: Plan,
    instances: Vec<Instance>,
}

/// What a run produced: the recording and the numbers for the summary table.
#[derive(Clone, Debug)]
pub struct Outcome {
    pub scenario: String,
    /// stop_time - start_time (s).
    pub simulated_time: f64,
    /// Wall-clock time of the run: parameters, initialisation, every exchange and step, recording.
    pub wall_time: Duration,
    pub steps: usize,
    pub checks: Vec<CheckResult>,
    /// Warnings and errors the FMUs logged, `instance: [status] category: message`, each once.
    pub warnings: Vec<String>,
    recording: Recording,
}

impl Outcome {
    /// The recorded variables against time, for CSV files and plots.
    pub fn results(&self) -> &Recording {
        &self.recording
    }

    /// Every check passed (true when there are none).
    pub fn passed(&self) -> bool {
        self.checks.iter().all(|c| c.passed)
    }
}

impl Simulation {
    /// Extracts and instantiates every FMU of the scenario and resolves its names.
    pub fn new(scenario: &Scenario, options: &Options) -> Result<Simulation, Error> {
        let context = |e: Error| e.context(&format!("scenario {}", scenario.name));
        let mut instances = Vec::new();
        for (name, entry) in &scenario.fmus {
            let archive = scenario.locate_fmu(&entry.path, &options.fmu_dirs).map_err(|e| context(e.context(&format!("fmus.{name}"))))?;
            instances.push(Instance::new(name, &archive, entry.logging).map_err(context)?);
        }
        let descriptions: BTreeMap<String, ModelDescription> =
            instances.iter().map(|i| (i.name().to_string(), i.description().clone())).collect();
        let plan = plan::resolve(scenario, &descriptions).map_err(context)?;
        let simulation = Simulation { scenario: scenario.clone(), plan, instances };
        let (_, last_step) = simulation.grid();
        if (last_step - scenario.step).abs() > 1e-9 * scenario.step {
            if let Some(fixed) = simulation.instances.iter().find(|i| !i.description().can_handle_variable_step) {
                return Err(context(Error::new(format!(
                    "(stop_time - start_time) is not a multiple of step, and {} cannot take the shorter last step",
                    fixed.name()
                ))));
            }
        }
        Ok(simulation)
    }

    pub fn plan(&self) -> &Plan {
        &self.plan
    }

    pub fn scenario(&self) -> &Scenario {
        &self.scenario
    }

    /// The number of communication steps the run will take.
    pub fn steps(&self) -> usize {
        self.grid().0
    }

    /// The number of communication steps and the length of the last one.
    fn grid(&self) -> (usize, f64) {
        let span = self.scenario.stop_time - self.scenario.start_time;
        let steps = ((span / self.scenario.step) - 1e-9).ceil().max(1.0) as usize;
        (steps, self.scenario.stop_time - self.time(steps - 1, steps))
    }

    /// Communication point k of n: start + k step, the last one exactly the stop time.
    fn time(&self, k: usize, steps: usize) -> f64 {
        if k >= steps {
            self.scenario.stop_time
        } else {
            self.scenario.start_time + k as f64 * self.scenario.step
        }
    }

    /// Runs without a progress bar.
    pub fn run(self) -> Result<Outcome, Error> {
        self.run_with_progress(&ProgressBar::hidden())
    }

    /// Runs the scenario; `progress` gets the number of steps as its length and advances with
    /// them. The FMUs are freed when this returns.
    pub fn run_with_progress(mut self, progress: &ProgressBar) -> Result<Outcome, Error> {
        let name = self.scenario.name.clone();
        self.run_inner(progress).map_err(|e| e.context(&format!("scenario {name}")))
    }

    fn run_inner(&mut self, progress: &ProgressBar) -> Result<Outcome, Error> {
        let wall = Instant::now();
        let (steps, _) = self.grid();
        let (start, stop) = (self.scenario.start_time, self.scenario.stop_time);
        let n = self.instances.len();
        progress.set_length(steps as u64);
        progress.set_position(0);

        // Slots: one per distinct connection source.
        let mut sources: Vec<&ScalarRef> = Vec::new();
        let mut source_slot = Vec::new();
        for connection in &self.plan.connections {
            let slot = match sources.iter().position(|s| s.instance == connection.from.instance && s.vr == connection.from.vr) {
                Some(slot) => slot,
                None => {
                    sources.push(&connection.from);
                    sources.len() - 1
                }
            };
            source_slot.push(slot);
        }
        let mut buffer = vec![0.0; sources.len()];
        let mut reads = batches(n, sources.iter().enumerate().map(|(slot, s)| (s.instance, s.base, s.vr, slot)));
        let mut writes = batches(n, self.plan.connections.iter().zip(&source_slot).map(|(c, &slot)| (c.to.instance, c.to.base, c.to.vr, slot)));
        let mut signal_values = vec![0.0; self.plan.inputs.len()];
        let mut prescribed = batches(n, self.plan.inputs.iter().enumerate().map(|(slot, input)| (input.to.instance, input.to.base, input.to.vr, slot)));
        let mut row = vec![0.0; self.plan.record.len()];
        let mut recorded = batches(n, self.plan.record.iter().enumerate().map(|(column, r)| (r.instance, r.base, r.vr, column)));
        let mut recording = Recording::new(self.plan.record.iter().map(|r| r.path.clone()).collect());
        recording.reserve(steps + 1);

        // Initialisation: start values in the Instantiated state, then initialisation mode, in
        // which the prescribed inputs take their values at the start time.
        for (instance, plan) in self.instances.iter_mut().zip(&self.plan.instances) {
            for (variable, value) in &plan.parameters {
                instance.set(variable, value).map_err(|e| e.context(&format!("setting {}.{variable}", plan.name)))?;
            }
            instance.enter_initialization(start, Some(stop))?;
        }
        for (i, input) in self.plan.inputs.iter().enumerate() {
            signal_values[i] = input.signal.at(start);
        }
        for (instance, batches) in self.instances.iter_mut().zip(&mut prescribed) {
            write(instance, batches, &signal_values)?;
        }
        for instance in &mut self.instances {
            instance.exit_initialization()?;
        }

        let order = self.plan.order.clone();
        let feedthrough: Vec<bool> = self.plan.instances.iter().map(|p| p.feedthrough).collect();
        let report_every = (steps / 200).max(1);
        for k in 0..=steps {
            let t = self.time(k, steps);
            let at = |e: Error| e.context(&format!("at t = {t} s"));
            // (1) Prescribed inputs at t.
            for (i, input) in self.plan.inputs.iter().enumerate() {
                signal_values[i] = input.signal.at(t);
            }
            for (instance, batches) in self.instances.iter_mut().zip(&mut prescribed) {
                write(instance, batches, &signal_values).map_err(at)?;
            }
            // (2) Exchange in feedthrough order: a feedthrough instance gets its inputs before its
            // outputs are read; the others' outputs (states) are read as they are.
            for &i in &order {
                if feedthrough[i] {
                    write(&mut self.instances[i], &mut writes[i], &buffer).map_err(at)?;
                }
                read(&self.instances[i], &mut reads[i], &mut buffer).map_err(at)?;
            }
            // (3) The instances without feedthrough take their inputs (the bodies their forces).
            for &i in &order {
                if !feedthrough[i] {
                    write(&mut self.instances[i], &mut writes[i], &buffer).map_err(at)?;
                }
            }
            // Record the consistent values at t.
            for (instance, batches) in self.instances.iter().zip(&mut recorded) {
                read(instance, batches, &mut row).map_err(at)?;
            }
            recording.push(t, &row);
            if k == steps {
                break;
            }
            // (4) Every instance steps over [t, t + h] with its inputs held, in reverse exchange
            // order (the contact first, then the bodies; the order does not change the result).
            let h = self.time(k + 1, steps) - t;
            for &i in order.iter().rev() {
                self.instances[i].do_step(t, h)?;
            }
            if (k + 1) % report_every == 0 {
                progress.set_position((k + 1) as u64);
            }
        }
        for instance in &mut self.instances {
            instance.terminate()?;
        }
        progress.set_position(steps as u64);
        let wall_time = wall.elapsed();

        let checks = self.plan.checks.iter().map(|check| evaluate(check, &recording)).collect();
        let mut warnings: Vec<String> = Vec::new();
        for instance in &self.instances {
            for message in instance.log().into_iter().filter(|m| m.status != Status::Ok) {
                let line = format!("{}: {message}", instance.name());
                if !warnings.contains(&line) {
                    warnings.push(line);
                }
            }
        }
        Ok(Outcome { scenario: self.scenario.name.clone(), simulated_time: stop - start, wall_time, steps, checks, warnings, recording })
    }
}

/// Reads, loads and runs one scenario file without a progress bar.
pub fn run_file(path: &Path, options: &Options) -> Result<Outcome, Error> {
    let scenario = Scenario::from_file(path)?;
    Simulation::new(&scenario, options)?.run()
}
