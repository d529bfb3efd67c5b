//! The bit-for-bit outputs check shared by the three FMUs' `tests/outputs_unchanged.rs`: a case is
//! a set of parameters and a trajectory of inputs, run through the FMI 2 or FMI 3 co-simulation
//! C API (the generic functions of `fmi_export` that every FMU's exports forward to); every status
//! and the bits of every output after every step are hashed, and the hashes are compared with the
//! golden file `tests/outputs/<model>.txt`, one line per case.
//!
//! `RECORD_OUTPUTS=1 cargo test --workspace --test outputs_unchanged` writes the golden files
//! again and prints the cases whose outputs changed (or were added or removed); a plain run fails
//! naming them. The hash covers the f64 bits, so any change, even in the last bit, shows.
#![allow(dead_code)] // Each FMU's test uses its part.

use std::collections::BTreeMap;
use std::ffi::{c_char, c_int, c_void, CStr, CString};
use std::path::Path;
use std::ptr::{null, null_mut};

use contact_physics::enums::EnumItem;
use fmi_export::status::Status;
use fmi_export::table::{Causality, ValueType};
use fmi_export::FmuModel;

/// The FMI version a case runs through.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Version {
    Fmi2,
    Fmi3,
}

impl Version {
    pub fn name(self) -> &'static str {
        match self {
            Version::Fmi2 => "fmi2",
            Version::Fmi3 => "fmi3",
        }
    }
}

/// The names of an enumeration's items in number order, but ProvidedByInput (which has cases of
/// its own): every law and shape the FMU has, so that a new one is recorded without editing a test.
pub fn names(items: &'static [EnumItem]) -> Vec<&'static str> {
    items.iter().filter(|i| i.name != "ProvidedByInput").map(|i| i.name).collect()
}

/// The stable number of an enumeration's item.
pub fn item(items: &[EnumItem], name: &str) -> i64 {
    items.iter().find(|i| i.name == name).unwrap_or_else(|| panic!("no item {name}")).value
}

/// One input at a time: (name, value), an element of what [`Case::inputs`] gives.
pub fn v(name: &str, x: f64) -> (String, f64) {
    (name.to_string(), x)
}

/// A parameter's value, set before initialization.
#[derive(Clone, Debug)]
pub enum Value {
    Real(f64),
    /// An Integer or an Enumeration (its item's number).
    Int(i64),
    Bool(bool),
    Str(String),
}

/// The inputs at a time: (name, value).
pub type InputsAt = Box<dyn Fn(f64) -> Vec<(String, f64)>>;

/// The input derivatives at a time: (name, order, value).
pub type DerivativesAt = Box<dyn Fn(f64) -> Vec<(String, i32, f64)>>;

/// One recorded run: parameters, then `steps` steps of size `h` whose inputs (and, under FMI 2,
/// input derivatives) are given for each step's start time.
pub struct Case {
    pub name: String,
    pub version: Version,
    /// Instantiate the extension's FMU (ContactForceProvidedLaws) instead of the model's own.
    pub extension: bool,
    pub parameters: Vec<(String, Value)>,
    pub steps: usize,
    pub h: f64,
    /// The inputs at the start of a step, by name.
    pub inputs: InputsAt,
    /// FMI 2 only: (name, order, value) set with fmi2SetRealInputDerivatives before each step.
    pub derivatives: DerivativesAt,
    /// FMI 3 only: after the last step, the directional derivatives of these outputs (first) along
    /// each of these inputs (second), one fmi3GetDirectionalDerivative each.
    pub directional: (Vec<String>, Vec<String>),
}

impl Case {
    /// A case with no inputs and no derivatives yet.
    pub fn new(name: impl Into<String>, version: Version) -> Case {
        Case {
            name: format!("{}.{}", version.name(), name.into()),
            version,
            extension: false,
            parameters: Vec::new(),
            steps: 20,
            h: 1e-3,
            inputs: Box::new(|_| Vec::new()),
            derivatives: Box::new(|_| Vec::new()),
            directional: (Vec::new(), Vec::new()),
        }
    }

    pub fn real(mut self, name: &str, value: f64) -> Case {
        self.parameters.push((name.to_string(), Value::Real(value)));
        self
    }

    pub fn int(mut self, name: &str, value: i64) -> Case {
        self.parameters.push((name.to_string(), Value::Int(value)));
        self
    }

    pub fn boolean(mut self, name: &str, value: bool) -> Case {
        self.parameters.push((name.to_string(), Value::Bool(value)));
        self
    }

    pub fn string(mut self, name: &str, value: &str) -> Case {
        self.parameters
            .push((name.to_string(), Value::Str(value.to_string())));
        self
    }

    pub fn inputs(mut self, inputs: impl Fn(f64) -> Vec<(String, f64)> + 'static) -> Case {
        self.inputs = Box::new(inputs);
        self
    }

    pub fn derivatives(
        mut self,
        derivatives: impl Fn(f64) -> Vec<(String, i32, f64)> + 'static,
    ) -> Case {
        self.derivatives = Box::new(derivatives);
        self
    }

    pub fn directional(mut self, unknowns: &[&str], knowns: &[&str]) -> Case {
        let names = |list: &[&str]| list.iter().map(|k| k.to_string()).collect();
        self.directional = (names(unknowns), names(knowns));
        self
    }

    pub fn steps(mut self, steps: usize, h: f64) -> Case {
        self.steps = steps;
        self.h = h;
        self
    }
}

/// FNV-1a over 64-bit words: small, fixed, and the same on every platform.
struct Hash(u64);

impl Hash {
    fn new() -> Hash {
        Hash(0xcbf2_9ce4_8422_2325)
    }

    fn word(&mut self, w: u64) {
        for byte in w.to_le_bytes() {
            self.0 ^= u64::from(byte);
            self.0 = self.0.wrapping_mul(0x0100_0000_01b3);
        }
    }
}

/// The value references of the model's outputs of each kind, in table order.
struct Outputs {
    reals: Vec<u32>,
    ints: Vec<u32>,
    bools: Vec<u32>,
}

fn outputs<M: FmuModel>(extension: bool) -> Outputs {
    let mut o = Outputs {
        reals: Vec::new(),
        ints: Vec::new(),
        bools: Vec::new(),
    };
    for s in M::table()
        .scalars()
        .iter()
        .filter(|s| s.causality() == Causality::Output && (extension || !s.variable.in_extension))
    {
        match s.variable.ty {
            ValueType::Float64 { .. } => o.reals.push(s.vr),
            ValueType::Int32 | ValueType::Enumeration(_) => o.ints.push(s.vr),
            ValueType::Boolean => o.bools.push(s.vr),
            ValueType::String => {}
        }
    }
    o
}

fn vr<M: FmuModel>(name: &str) -> u32 {
    M::table()
        .scalars()
        .iter()
        .find(|s| s.name == name)
        .unwrap_or_else(|| panic!("no variable {name}"))
        .vr
}

/// True when recording: the loggers then print the FMU's messages, so that a case refused at
/// initialization says why. The statuses, not the messages, are what the hash records.
fn recording() -> bool {
    std::env::var("RECORD_OUTPUTS").is_ok_and(|v| v == "1")
}

/// The FMI 2 logger, with the five fixed arguments of the variadic callback.
unsafe extern "C" fn quiet2(
    _env: *mut c_void,
    _name: *const c_char,
    status: c_int,
    _category: *const c_char,
    message: *const c_char,
) {
    if recording() && status > 1 {
        // SAFETY: the message is a valid NUL-terminated string for the duration of the call.
        eprintln!(
            "    FMI 2 status {status}: {}",
            unsafe { CStr::from_ptr(message) }.to_string_lossy()
        );
    }
}

/// The FMI 3 logger.
unsafe extern "C" fn quiet3(
    _env: *mut c_void,
    status: c_int,
    _category: *const c_char,
    message: *const c_char,
) {
    if status > 1 {
        // SAFETY: the message is a valid NUL-terminated string for the duration of the call.
        eprintln!(
            "    FMI 3 status {status}: {}",
            unsafe { CStr::from_ptr(message) }.to_string_lossy()
        );
    }
}

fn logger2() -> fmi_export::logger::Fmi2LoggerCallback {
    type Fixed =
        unsafe extern "C" fn(*mut c_void, *const c_char, c_int, *const c_char, *const c_char);
    // SAFETY: on the x86-64 System V ABI a variadic call passes the fixed arguments exactly like a
    // non-variadic one, and the FMU never passes variadic arguments.
    unsafe { std::mem::transmute::<Fixed, fmi_export::logger::Fmi2LoggerCallback>(quiet2) }
}

/// Runs one case: the hash of everything it produced, and the number of steps that completed
/// (0 when initialization refused the parameters).
pub fn run<M: FmuModel>(case: &Case) -> (u64, usize) {
    let mut done = 0;
    let mut hash = Hash::new();
    let status = |hash: &mut Hash, s: Status| hash.word(s as u64);
    let o = outputs::<M>(case.extension);
    let token = match case.extension {
        true => M::table()
            .extension_token()
            .expect("the model has an extension"),
        false => M::table().instantiation_token().to_string(),
    };
    let token = CString::new(token).unwrap();
    let name = CString::new("outputs").unwrap();
    match case.version {
        Version::Fmi2 => {
            use fmi_export::fmi2::*;
            let functions = Fmi2CallbackFunctions {
                logger: Some(logger2()),
                allocate_memory: None,
                free_memory: None,
                step_finished: None,
                component_environment: null_mut(),
            };
            let location = CString::new("file:///tmp").unwrap();
            // SAFETY: valid strings and callbacks that outlive the instance; every call below
            // passes a live instance and arrays of the lengths given.
            unsafe {
                let c = fmi2Instantiate::<M>(
                    name.as_ptr(),
                    FMI2_CO_SIMULATION,
                    token.as_ptr(),
                    location.as_ptr(),
                    &functions,
                    0,
                    1,
                );
                assert!(!c.is_null(), "{}: instantiation refused", case.name);
                for (p, value) in &case.parameters {
                    let r = vr::<M>(p);
                    let s = match value {
                        Value::Real(x) => fmi2SetReal::<M>(c, &r, 1, x),
                        Value::Int(x) => fmi2SetInteger::<M>(c, &r, 1, &(*x as c_int)),
                        Value::Bool(x) => fmi2SetBoolean::<M>(c, &r, 1, &c_int::from(*x)),
                        Value::Str(x) => {
                            let text = CString::new(x.as_str()).unwrap();
                            fmi2SetString::<M>(c, &r, 1, &text.as_ptr())
                        }
                    };
                    assert_eq!(s, Status::Ok, "{}: set {p}", case.name);
                }
                let set_inputs = |t: f64| {
                    for (input, x) in (case.inputs)(t) {
                        assert_eq!(
                            fmi2SetReal::<M>(c, &vr::<M>(&input), 1, &x),
                            Status::Ok,
                            "{}: set {input}",
                            case.name
                        );
                    }
                };
                set_inputs(0.0);
                status(&mut hash, fmi2SetupExperiment::<M>(c, 0, 0.0, 0.0, 0, 1.0));
                status(&mut hash, fmi2EnterInitializationMode::<M>(c));
                let s = fmi2ExitInitializationMode::<M>(c);
                status(&mut hash, s);
                if s == Status::Ok {
                    for k in 0..case.steps {
                        let t = k as f64 * case.h;
                        set_inputs(t);
                        for (input, order, x) in (case.derivatives)(t) {
                            status(
                                &mut hash,
                                fmi2SetRealInputDerivatives::<M>(
                                    c,
                                    &vr::<M>(&input),
                                    1,
                                    &order,
                                    &x,
                                ),
                            );
                        }
                        let s = fmi2DoStep::<M>(c, t, case.h, 1);
                        status(&mut hash, s);
                        if s != Status::Ok && s != Status::Warning {
                            break;
                        }
                        done += 1;
                        let mut reals = vec![0.0; o.reals.len()];
                        status(
                            &mut hash,
                            fmi2GetReal::<M>(
                                c,
                                o.reals.as_ptr(),
                                o.reals.len(),
                                reals.as_mut_ptr(),
                            ),
                        );
                        let mut ints = vec![0; o.ints.len()];
                        status(
                            &mut hash,
                            fmi2GetInteger::<M>(
                                c,
                                o.ints.as_ptr(),
                                o.ints.len(),
                                ints.as_mut_ptr(),
                            ),
                        );
                        let mut bools = vec![0; o.bools.len()];
                        status(
                            &mut hash,
                            fmi2GetBoolean::<M>(
                                c,
                                o.bools.as_ptr(),
                                o.bools.len(),
                                bools.as_mut_ptr(),
                            ),
                        );
                        reals.iter().for_each(|x| hash.word(x.to_bits()));
                        ints.iter().chain(&bools).for_each(|x| hash.word(*x as u64));
                    }
                }
                fmi2FreeInstance::<M>(c);
            }
        }
        Version::Fmi3 => {
            use fmi_export::fmi3::*;
            // SAFETY: valid strings, no callbacks; every call below passes a live instance and
            // arrays of the lengths given.
            unsafe {
                let i = fmi3InstantiateCoSimulation::<M>(
                    name.as_ptr(),
                    token.as_ptr(),
                    null(),
                    false,
                    recording(),
                    false,
                    false,
                    null(),
                    0,
                    null_mut(),
                    recording().then_some(quiet3),
                    None,
                );
                assert!(!i.is_null(), "{}: instantiation refused", case.name);
                for (p, value) in &case.parameters {
                    let r = vr::<M>(p);
                    let s = match value {
                        Value::Real(x) => fmi3SetFloat64::<M>(i, &r, 1, x, 1),
                        Value::Int(x) => fmi3SetInt64::<M>(i, &r, 1, x, 1),
                        Value::Bool(x) => fmi3SetBoolean::<M>(i, &r, 1, x, 1),
                        Value::Str(x) => {
                            let text = CString::new(x.as_str()).unwrap();
                            fmi3SetString::<M>(i, &r, 1, &text.as_ptr(), 1)
                        }
                    };
                    assert_eq!(s, Status::Ok, "{}: set {p}", case.name);
                }
                let set_inputs = |t: f64| {
                    for (input, x) in (case.inputs)(t) {
                        assert_eq!(
                            fmi3SetFloat64::<M>(i, &vr::<M>(&input), 1, &x, 1),
                            Status::Ok,
                            "{}: set {input}",
                            case.name
                        );
                    }
                };
                set_inputs(0.0);
                status(
                    &mut hash,
                    fmi3EnterInitializationMode::<M>(i, false, 0.0, 0.0, false, 0.0),
                );
                let s = fmi3ExitInitializationMode::<M>(i);
                status(&mut hash, s);
                if s == Status::Ok {
                    for k in 0..case.steps {
                        let t = k as f64 * case.h;
                        set_inputs(t);
                        let (mut event, mut terminate, mut early, mut last) =
                            (false, false, false, 0.0);
                        let s = fmi3DoStep::<M>(
                            i,
                            t,
                            case.h,
                            false,
                            &mut event,
                            &mut terminate,
                            &mut early,
                            &mut last,
                        );
                        status(&mut hash, s);
                        if s != Status::Ok && s != Status::Warning {
                            break;
                        }
                        done += 1;
                        [event, terminate, early]
                            .iter()
                            .for_each(|b| hash.word(u64::from(*b)));
                        hash.word(last.to_bits());
                        let mut reals = vec![0.0; o.reals.len()];
                        status(
                            &mut hash,
                            fmi3GetFloat64::<M>(
                                i,
                                o.reals.as_ptr(),
                                o.reals.len(),
                                reals.as_mut_ptr(),
                                reals.len(),
                            ),
                        );
                        let mut ints = vec![0i32; o.ints.len()];
                        status(
                            &mut hash,
                            fmi3GetInt32::<M>(
                                i,
                                o.ints.as_ptr(),
                                o.ints.len(),
                                ints.as_mut_ptr(),
                                ints.len(),
                            ),
                        );
                        let mut bools = vec![false; o.bools.len()];
                        status(
                            &mut hash,
                            fmi3GetBoolean::<M>(
                                i,
                                o.bools.as_ptr(),
                                o.bools.len(),
                                bools.as_mut_ptr(),
                                bools.len(),
                            ),
                        );
                        reals.iter().for_each(|x| hash.word(x.to_bits()));
                        ints.iter().for_each(|x| hash.word(*x as u64));
                        bools.iter().for_each(|x| hash.word(u64::from(*x)));
                    }
                    if done == case.steps {
                        let unknowns: Vec<u32> = case.directional.0.iter().map(|u| vr::<M>(u)).collect();
                        for known in &case.directional.1 {
                            let mut sensitivity = vec![0.0; unknowns.len()];
                            let s = fmi3GetDirectionalDerivative::<M>(i, unknowns.as_ptr(), unknowns.len(), &vr::<M>(known), 1, &1.0, 1, sensitivity.as_mut_ptr(), sensitivity.len());
                            status(&mut hash, s);
                            if s != Status::Ok && s != Status::Warning {
                                break;
                            }
                            sensitivity.iter().for_each(|x| hash.word(x.to_bits()));
                        }
                    }
                }
                fmi3FreeInstance::<M>(i);
            }
        }
    }
    (hash.0, done)
}

/// [`check`] over the cases that `cases` builds on the files that `files` writes: both are given
/// a fresh folder of this process, removed after.
pub fn check_on_files<M: FmuModel>(golden: &Path, files: impl FnOnce(&Path), cases: impl FnOnce(&Path) -> Vec<Case>) {
    let dir = std::env::temp_dir().join(format!("{}_outputs_{}", M::NAME, std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    files(&dir);
    check::<M>(golden, &cases(&dir));
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Runs every case and compares with (or, under `RECORD_OUTPUTS=1`, records) the golden file
/// `golden` (a path relative to the crate's manifest folder, given by the caller).
pub fn check<M: FmuModel>(golden: &Path, cases: &[Case]) {
    let mut names = std::collections::HashSet::new();
    for case in cases {
        assert!(
            names.insert(case.name.as_str()),
            "two cases named {}",
            case.name
        );
    }
    let got: BTreeMap<String, String> = cases
        .iter()
        .map(|c| {
            (c.name.clone(), {
                if recording() {
                    eprintln!("{}", c.name);
                }
                let (hash, done) = run::<M>(c);
                format!("{hash:016x} {done}")
            })
        })
        .collect();
    let text = std::fs::read_to_string(golden).unwrap_or_default();
    let want: BTreeMap<String, String> = text
        .lines()
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .filter_map(|l| l.split_once(' '))
        .map(|(n, h)| (n.to_string(), h.to_string()))
        .collect();
    let mut differences = Vec::new();
    for (name, hash) in &got {
        match want.get(name) {
            None => differences.push(format!("added: {name}")),
            Some(h) if h != hash => differences.push(format!("changed: {name}")),
            Some(_) => {}
        }
    }
    differences.extend(
        want.keys()
            .filter(|n| !got.contains_key(*n))
            .map(|n| format!("removed: {n}")),
    );
    if recording() {
        let mut out = String::from(
            "# Per case: the hash of every status and every output's bits, and the steps completed (tests/outputs/driver.rs).\n\
             # Recorded by RECORD_OUTPUTS=1 cargo test --workspace --test outputs_unchanged\n",
        );
        for (name, hash) in &got {
            out.push_str(&format!("{name} {hash}\n"));
        }
        std::fs::write(golden, out).unwrap();
        println!(
            "{}: {} cases recorded, {} differences from the previous file:",
            golden.display(),
            got.len(),
            differences.len()
        );
        for d in &differences {
            println!("  {d}");
        }
        return;
    }
    assert!(
        differences.is_empty(),
        "{} of {} cases differ from {} (re-record with RECORD_OUTPUTS=1 cargo test --workspace --test outputs_unchanged if intended):\n{}",
        differences.len(),
        got.len(),
        golden.display(),
        differences.join("\n")
    );
}
