//! An FMI 3.0 importer for ContactForce's exported C API, shared by the robustness tests
//! (tests/many_instances.rs, tests/bad_input.rs): one instance with its own message log, the
//! calls an importer makes, and every output read as bits for bit-for-bit comparisons.
//!
//! Like the rest of `support`, each test file compiles this module and uses only part of it
//! (hence `dead_code` is allowed).
#![allow(dead_code)]

use std::ffi::{c_char, c_int, c_void, CStr, CString};
use std::ptr::{null, null_mut};
use std::sync::Mutex;

use contact_force::fmi::fmi3::*;
use contact_force::fmi::status::Status;
use contact_force::variables::{self, Causality, ValueType};

/// (status, category, message) of every logged message.
pub type Log = Mutex<Vec<(i32, String, String)>>;

unsafe extern "C" fn record(env: *mut c_void, status: c_int, category: *const c_char, message: *const c_char) {
    // SAFETY: `env` is the `Log` of the `Fmu` that instantiated, alive as long as the instance;
    // the strings are valid NUL-terminated strings for the duration of the call.
    let (log, category, message) = unsafe { (&*env.cast::<Log>(), CStr::from_ptr(category), CStr::from_ptr(message)) };
    let entry = (status, category.to_string_lossy().into_owned(), message.to_string_lossy().into_owned());
    log.lock().unwrap().push(entry);
}

/// The value reference of a scalar, looked up by name in the variable table.
pub fn vr(name: &str) -> u32 {
    variables::scalars().iter().find(|s| s.name == name).unwrap_or_else(|| panic!("no variable {name}")).vr
}

/// The value references of `name[1]` .. `name[n]`.
pub fn vrs(name: &str, n: usize) -> Vec<u32> {
    (1..=n).map(|i| vr(&format!("{name}[{i}]"))).collect()
}

/// The names and value references of the frames' inputs, in table order (the 26 pose and twist
/// scalars; not the forces of the laws provided by input, tests/provided_laws.rs).
pub fn inputs() -> Vec<(&'static str, u32)> {
    variables::scalars().iter().filter(|s| s.causality() == Causality::Input && s.vr <= 26).map(|s| (s.name.as_str(), s.vr)).collect()
}

/// The value references of the outputs of one type.
pub fn outputs_of(kind: fn(&ValueType) -> bool) -> Vec<u32> {
    variables::scalars().iter().filter(|s| s.causality() == Causality::Output && kind(&s.variable.ty)).map(|s| s.vr).collect()
}

/// One ContactForce instance through the FMI 3.0 C API; freed on drop.
pub struct Fmu {
    pub instance: Fmi3Instance,
    pub log: Box<Log>,
}

// SAFETY: an instance is owned by one `Fmu` and used by one thread at a time (FMI allows an
// instance to move between threads as long as calls on it are not concurrent); the log is a Mutex.
unsafe impl Send for Fmu {}

impl Fmu {
    /// Instantiates with a logger that records into this `Fmu`'s log, or with a null logger.
    pub fn with_logger(logged: bool) -> Fmu {
        Fmu::with_flags(logged, false, false)
    }

    /// Instantiates (as ContactForceProvidedLaws: every variable known) with the importer's
    /// `eventModeUsed` and `earlyReturnAllowed`.
    pub fn with_flags(logged: bool, event_mode_used: bool, early_return_allowed: bool) -> Fmu {
        let log: Box<Log> = Box::default();
        let name = CString::new("robust").unwrap();
        let token = CString::new(variables::extension_token()).unwrap();
        let env = (&*log as *const Log).cast_mut().cast::<c_void>();
        let callback: Option<contact_force::fmi::logger::Fmi3LoggerCallback> = if logged { Some(record) } else { None };
        // SAFETY: valid C strings, a valid callback (or none) and an environment that outlives the
        // instance.
        let instance = unsafe {
            fmi3InstantiateCoSimulation(
                name.as_ptr(),
                token.as_ptr(),
                null(),
                false,
                logged,
                event_mode_used,
                early_return_allowed,
                null(),
                0,
                env,
                callback,
                None,
            )
        };
        assert!(!instance.is_null(), "instantiation failed: {:?}", log.lock().unwrap());
        Fmu { instance, log }
    }

    pub fn new() -> Fmu {
        Fmu::with_logger(true)
    }

    pub fn messages(&self) -> Vec<String> {
        self.log.lock().unwrap().iter().map(|(_, _, m)| m.clone()).collect()
    }

    pub fn last_message(&self) -> String {
        self.messages().last().cloned().unwrap_or_default()
    }

    pub fn logged(&self, needle: &str) -> bool {
        self.messages().iter().any(|m| m.contains(needle))
    }

    /// EnterInitializationMode at t = 0, then ExitInitializationMode: the status of the first
    /// call that is not OK.
    pub fn initialize(&self) -> Status {
        // SAFETY: a live instance.
        let status = unsafe { fmi3EnterInitializationMode(self.instance, false, 0.0, 0.0, false, 0.0) };
        if status != Status::Ok {
            return status;
        }
        // SAFETY: a live instance.
        unsafe { fmi3ExitInitializationMode(self.instance) }
    }

    pub fn set_floats(&self, vrs: &[u32], values: &[f64]) -> Status {
        // SAFETY: slices of the given lengths.
        unsafe { fmi3SetFloat64(self.instance, vrs.as_ptr(), vrs.len(), values.as_ptr(), values.len()) }
    }

    pub fn set_float(&self, name: &str, value: f64) -> Status {
        self.set_floats(&[vr(name)], &[value])
    }

    /// Sets an enumeration (FMI 3: Int64).
    pub fn set_enum(&self, name: &str, value: i64) -> Status {
        // SAFETY: one reference, one value.
        unsafe { fmi3SetInt64(self.instance, &vr(name), 1, &value, 1) }
    }

    pub fn set_string(&self, name: &str, value: &str) -> Status {
        let text = CString::new(value).unwrap();
        // SAFETY: one reference, one C string.
        unsafe { fmi3SetString(self.instance, &vr(name), 1, &text.as_ptr(), 1) }
    }

    pub fn try_get_floats(&self, vrs: &[u32]) -> (Status, Vec<f64>) {
        let mut values = vec![f64::NAN; vrs.len()];
        // SAFETY: slices of the given lengths.
        let status = unsafe { fmi3GetFloat64(self.instance, vrs.as_ptr(), vrs.len(), values.as_mut_ptr(), values.len()) };
        (status, values)
    }

    pub fn get_float(&self, name: &str) -> f64 {
        let (status, values) = self.try_get_floats(&[vr(name)]);
        assert_eq!(status, Status::Ok, "get {name}: {:?}", self.messages());
        values[0]
    }

    /// Every output: the Float64 values, then contact.points and the Booleans, as bits.
    pub fn try_outputs(&self) -> (Status, Vec<u64>) {
        let floats = outputs_of(|t| matches!(t, ValueType::Float64 { .. }));
        let ints = outputs_of(|t| matches!(t, ValueType::Int32));
        let bools = outputs_of(|t| matches!(t, ValueType::Boolean));
        let (status, values) = self.try_get_floats(&floats);
        if status != Status::Ok {
            return (status, Vec::new());
        }
        let mut int_values = vec![0i32; ints.len()];
        let mut bool_values = vec![false; bools.len()];
        // SAFETY: slices of the given lengths.
        let statuses = unsafe {
            [
                fmi3GetInt32(self.instance, ints.as_ptr(), ints.len(), int_values.as_mut_ptr(), int_values.len()),
                fmi3GetBoolean(self.instance, bools.as_ptr(), bools.len(), bool_values.as_mut_ptr(), bool_values.len()),
            ]
        };
        if let Some(bad) = statuses.iter().find(|s| **s != Status::Ok) {
            return (*bad, Vec::new());
        }
        let mut bits: Vec<u64> = values.iter().map(|x| x.to_bits()).collect();
        bits.extend(int_values.iter().map(|x| *x as u32 as u64));
        bits.extend(bool_values.iter().map(|x| u64::from(*x)));
        (Status::Ok, bits)
    }

    /// Every Float64 output, which must be readable.
    pub fn float_outputs(&self) -> Vec<f64> {
        let (status, values) = self.try_get_floats(&outputs_of(|t| matches!(t, ValueType::Float64 { .. })));
        assert_eq!(status, Status::Ok, "{:?}", self.messages());
        values
    }

    /// DoStep: the status and lastSuccessfulTime.
    pub fn do_step(&self, t: f64, h: f64) -> (Status, f64) {
        let (mut event, mut terminate, mut early, mut last) = (true, true, true, f64::NAN);
        // SAFETY: a live instance and four writable outputs.
        let status = unsafe { fmi3DoStep(self.instance, t, h, false, &mut event, &mut terminate, &mut early, &mut last) };
        (status, last)
    }

    /// DoStep: the status, (eventHandlingNeeded, terminateSimulation, earlyReturn) and
    /// lastSuccessfulTime.
    pub fn do_step_flags(&self, t: f64, h: f64) -> (Status, [bool; 3], f64) {
        let (mut event, mut terminate, mut early, mut last) = (true, true, true, f64::NAN);
        // SAFETY: a live instance and four writable outputs.
        let status = unsafe { fmi3DoStep(self.instance, t, h, false, &mut event, &mut terminate, &mut early, &mut last) };
        (status, [event, terminate, early], last)
    }

    pub fn reset(&self) -> Status {
        // SAFETY: a live instance.
        unsafe { fmi3Reset(self.instance) }
    }
}

impl Drop for Fmu {
    fn drop(&mut self) {
        // SAFETY: the instance from fmi3InstantiateCoSimulation, freed once.
        unsafe { fmi3FreeInstance(self.instance) };
        self.instance = null_mut();
    }
}
