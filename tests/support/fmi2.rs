//! An FMI 2.0 importer for ContactForce's exported C API: one co-simulation instance with its
//! own message log, and the calls the C API and input-derivative tests make.
#![allow(dead_code)]

use std::ffi::{c_char, c_int, c_void, CStr, CString};
use std::sync::Mutex;

use contact_force::fmi::fmi2::*;
use contact_force::fmi::logger::Fmi2LoggerCallback;
use contact_force::fmi::status::Status;
use contact_force::variables;

/// (status, category, message) of every logged message.
pub type Log = Mutex<Vec<(c_int, String, String)>>;

/// The importer's logger, taking the five fixed arguments of the variadic callback.
unsafe extern "C" fn record(env: *mut c_void, _name: *const c_char, status: c_int, category: *const c_char, message: *const c_char) {
    // SAFETY: the environment is the `Log` of the `Fmu` that instantiated; the strings are valid
    // for the duration of the call.
    unsafe {
        let log = &*env.cast::<Log>();
        let category = CStr::from_ptr(category).to_string_lossy().into_owned();
        // The FMI 2 message is a format string: undo the escaping of '%'.
        let message = CStr::from_ptr(message).to_string_lossy().replace("%%", "%");
        log.lock().unwrap().push((status, category, message));
    }
}

/// `record` as an `fmi2CallbackLogger`.
pub fn logger() -> Fmi2LoggerCallback {
    type Fixed = unsafe extern "C" fn(*mut c_void, *const c_char, c_int, *const c_char, *const c_char);
    // SAFETY: on the x86-64 System V ABI a variadic call passes the fixed arguments exactly like a
    // non-variadic one, and the FMU never passes variadic arguments.
    unsafe { std::mem::transmute::<Fixed, Fmi2LoggerCallback>(record) }
}

pub fn vr(name: &str) -> u32 {
    variables::scalars().iter().find(|s| s.name == name).unwrap_or_else(|| panic!("no variable {name}")).vr
}

/// One ContactForce co-simulation instance through the FMI 2.0 C API; freed on drop.
pub struct Fmu {
    pub c: Fmi2Component,
    pub log: Box<Log>,
    _functions: Box<Fmi2CallbackFunctions>,
}

impl Fmu {
    /// An instance of ContactForceProvidedLaws (the same binary with every variable, the point
    /// slots of the laws provided by input included), so that the tests reach every variable.
    pub fn new() -> Fmu {
        let fmu = Self::with_guid(&variables::extension_token());
        assert!(!fmu.c.is_null(), "{:?}", fmu.messages());
        fmu
    }

    /// An instance made with this GUID (null `c` when it is refused; the log says why).
    pub fn with_guid(guid: &str) -> Fmu {
        let log: Box<Log> = Box::default();
        let functions = Box::new(Fmi2CallbackFunctions {
            logger: Some(logger()),
            allocate_memory: None,
            free_memory: None,
            step_finished: None,
            component_environment: (&*log as *const Log).cast_mut().cast(),
        });
        let name = CString::new("test").unwrap();
        let guid = CString::new(guid).unwrap();
        let location = CString::new("file:///tmp/contact%20force/resources").unwrap();
        // SAFETY: valid strings and callbacks that outlive the instance.
        let c = unsafe { fmi2Instantiate(name.as_ptr(), FMI2_CO_SIMULATION, guid.as_ptr(), location.as_ptr(), &*functions, 0, 1) };
        Fmu { c, log, _functions: functions }
    }

    /// SetupExperiment, EnterInitializationMode, ExitInitializationMode.
    pub fn initialize(&self) {
        // SAFETY: a live instance.
        unsafe {
            assert_eq!(fmi2SetupExperiment(self.c, 0, 0.0, 0.0, 0, 1.0), Status::Ok);
            assert_eq!(fmi2EnterInitializationMode(self.c), Status::Ok);
            assert_eq!(fmi2ExitInitializationMode(self.c), Status::Ok, "{:?}", self.messages());
        }
    }

    pub fn set(&self, name: &str, value: f64) -> Status {
        // SAFETY: a live instance, one value.
        unsafe { fmi2SetReal(self.c, &vr(name), 1, &value) }
    }

    pub fn set_enum(&self, name: &str, value: c_int) -> Status {
        // SAFETY: a live instance, one value.
        unsafe { fmi2SetInteger(self.c, &vr(name), 1, &value) }
    }

    pub fn get(&self, name: &str) -> f64 {
        let mut value = f64::NAN;
        // SAFETY: a live instance, one value.
        let status = unsafe { fmi2GetReal(self.c, &vr(name), 1, &mut value) };
        assert_eq!(status, Status::Ok, "get {name}: {:?}", self.messages());
        value
    }

    /// fmi2SetRealInputDerivatives for the named inputs.
    pub fn set_derivatives(&self, names: &[&str], orders: &[c_int], values: &[f64]) -> Status {
        let refs: Vec<u32> = names.iter().map(|n| vr(n)).collect();
        // SAFETY: three arrays of the same length.
        unsafe { fmi2SetRealInputDerivatives(self.c, refs.as_ptr(), refs.len(), orders.as_ptr(), values.as_ptr()) }
    }

    pub fn do_step(&self, t: f64, h: f64) -> Status {
        // SAFETY: a live instance.
        unsafe { fmi2DoStep(self.c, t, h, 1) }
    }

    pub fn messages(&self) -> Vec<String> {
        self.log.lock().unwrap().iter().map(|(_, _, m)| m.clone()).collect()
    }

    pub fn logged(&self, text: &str) -> bool {
        self.messages().iter().any(|m| m.contains(text))
    }

    /// A sphere (radius 0.1) 1 mm into the default plane, approaching at 0.5 m/s, sliding at 0.2 m/s.
    pub fn press_sphere(&self) {
        for (name, value) in [("frame_b.r_0[1]", 0.3), ("frame_b.r_0[3]", 0.099), ("frame_b.v_0[1]", 0.2), ("frame_b.v_0[3]", -0.5)] {
            assert_eq!(self.set(name, value), Status::Ok);
        }
    }

    pub fn last_message(&self) -> String {
        self.messages().last().cloned().unwrap_or_default()
    }
}

impl Drop for Fmu {
    fn drop(&mut self) {
        // SAFETY: the instance is freed once, here.
        unsafe { fmi2FreeInstance(self.c) };
    }
}
