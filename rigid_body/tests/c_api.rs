//! RigidBody's exported C API under bad input, as an importer calls it: non-finite inputs,
//! enormous forces (numerical trouble: Discard, with FMI 3's lastSuccessfulTime and FMI 2's
//! fmi2LastSuccessfulTime at the step's start, and never a non-finite output with OK), start values
//! whose energy overflows, a null logger, and the capability flags (FMU state, variable step size,
//! Reset) through both versions.

use std::ffi::{c_char, c_int, c_void, CStr, CString};
use std::ptr::{null, null_mut};
use std::sync::Mutex;

use fmi_export::status::Status;
use fmi_export::table::Causality;
use fmi_export::fmi2::{Fmi2CallbackFunctions, Fmi2Component, FMI2_CO_SIMULATION, FMI2_LAST_SUCCESSFUL_TIME};
use fmi_export::fmi3::{Fmi3FmuState, Fmi3Instance};
use rigid_body::fmi::fmi2::*;
use rigid_body::fmi::fmi3::*;
use rigid_body::variables;

/// (status, message) of every logged message.
type Log = Mutex<Vec<(c_int, String)>>;

unsafe extern "C" fn record3(env: *mut c_void, status: c_int, _category: *const c_char, message: *const c_char) {
    // SAFETY: `env` is the `Log` the test passed at instantiation, alive as long as the instance;
    // the message is a valid NUL-terminated string for the duration of the call.
    let (log, message) = unsafe { (&*env.cast::<Log>(), CStr::from_ptr(message)) };
    log.lock().unwrap().push((status, message.to_string_lossy().into_owned()));
}

unsafe extern "C" fn record2(env: *mut c_void, _name: *const c_char, status: c_int, _category: *const c_char, message: *const c_char) {
    // SAFETY: as record3; the FMI 2 message is a format string with '%' escaped.
    let (log, message) = unsafe { (&*env.cast::<Log>(), CStr::from_ptr(message)) };
    log.lock().unwrap().push((status, message.to_string_lossy().replace("%%", "%")));
}

/// `record2` as an `fmi2CallbackLogger`.
fn logger2() -> fmi_export::logger::Fmi2LoggerCallback {
    type Fixed = unsafe extern "C" fn(*mut c_void, *const c_char, c_int, *const c_char, *const c_char);
    // SAFETY: on the x86-64 System V ABI (this FMU's platform) a variadic call passes the fixed
    // arguments exactly like a non-variadic one, so a function taking only the fixed arguments
    // may be called through the variadic type; the FMU never passes variadic arguments.
    unsafe { std::mem::transmute::<Fixed, fmi_export::logger::Fmi2LoggerCallback>(record2) }
}

fn vr(name: &str) -> u32 {
    variables::table().scalars().iter().find(|s| s.name == name).unwrap_or_else(|| panic!("no variable {name}")).vr
}

fn outputs() -> Vec<u32> {
    variables::table().scalars().iter().filter(|s| s.causality() == Causality::Output).map(|s| s.vr).collect()
}

fn messages(log: &Log) -> Vec<String> {
    log.lock().unwrap().iter().map(|(_, m)| m.clone()).collect()
}

/// A RigidBody instance through the FMI 3.0 API (logger recording into `log`, or none).
struct Body3 {
    instance: Fmi3Instance,
    log: Box<Log>,
}

impl Body3 {
    fn new(logged: bool) -> Body3 {
        let log: Box<Log> = Box::default();
        let name = CString::new("body").unwrap();
        let token = CString::new(rigid_body::fmi::instantiation_token()).unwrap();
        let env = (&*log as *const Log).cast_mut().cast::<c_void>();
        let callback: Option<fmi_export::logger::Fmi3LoggerCallback> = if logged { Some(record3) } else { None };
        // SAFETY: valid strings, a valid callback or none, an environment that outlives the instance.
        let instance = unsafe {
            fmi3InstantiateCoSimulation(name.as_ptr(), token.as_ptr(), null(), false, logged, false, false, null(), 0, env, callback, None)
        };
        assert!(!instance.is_null());
        Body3 { instance, log }
    }

    fn set(&self, name: &str, value: f64) -> Status {
        // SAFETY: one reference, one value.
        unsafe { fmi3SetFloat64(self.instance, &vr(name), 1, &value, 1) }
    }

    fn initialize(&self) -> Status {
        // SAFETY: a live instance.
        unsafe {
            let status = fmi3EnterInitializationMode(self.instance, false, 0.0, 0.0, false, 0.0);
            if status != Status::Ok {
                return status;
            }
            fmi3ExitInitializationMode(self.instance)
        }
    }

    fn outputs(&self) -> (Status, Vec<f64>) {
        let refs = outputs();
        let mut values = vec![f64::NAN; refs.len()];
        // SAFETY: slices of the given lengths.
        let status = unsafe { fmi3GetFloat64(self.instance, refs.as_ptr(), refs.len(), values.as_mut_ptr(), values.len()) };
        (status, values)
    }

    fn do_step(&self, t: f64, h: f64) -> (Status, f64) {
        let (mut event, mut terminate, mut early, mut last) = (true, true, true, f64::NAN);
        // SAFETY: a live instance and four writable outputs.
        let status = unsafe { fmi3DoStep(self.instance, t, h, false, &mut event, &mut terminate, &mut early, &mut last) };
        (status, last)
    }

    fn messages(&self) -> Vec<String> {
        messages(&self.log)
    }
}

impl Drop for Body3 {
    fn drop(&mut self) {
        // SAFETY: freed once.
        unsafe { fmi3FreeInstance(self.instance) };
    }
}

/// A RigidBody instance through the FMI 2.0 API.
struct Body2 {
    c: Fmi2Component,
    log: Box<Log>,
    _functions: Box<Fmi2CallbackFunctions>,
}

impl Body2 {
    fn new(logged: bool) -> Body2 {
        let log: Box<Log> = Box::default();
        let functions = Box::new(Fmi2CallbackFunctions {
            logger: if logged { Some(logger2()) } else { None },
            allocate_memory: None,
            free_memory: None,
            step_finished: None,
            component_environment: (&*log as *const Log).cast_mut().cast(),
        });
        let name = CString::new("body").unwrap();
        let guid = CString::new(rigid_body::fmi::instantiation_token()).unwrap();
        // SAFETY: valid strings and callbacks that outlive the instance.
        let c = unsafe { fmi2Instantiate(name.as_ptr(), FMI2_CO_SIMULATION, guid.as_ptr(), null(), &*functions, 0, 0) };
        assert!(!c.is_null());
        Body2 { c, log, _functions: functions }
    }

    fn set(&self, name: &str, value: f64) -> Status {
        // SAFETY: one reference, one value.
        unsafe { fmi2SetReal(self.c, &vr(name), 1, &value) }
    }

    fn initialize(&self) -> Status {
        // SAFETY: a live instance.
        unsafe {
            for status in [fmi2SetupExperiment(self.c, 0, 0.0, 0.0, 0, 0.0), fmi2EnterInitializationMode(self.c)] {
                if status != Status::Ok {
                    return status;
                }
            }
            fmi2ExitInitializationMode(self.c)
        }
    }

    fn outputs(&self) -> (Status, Vec<f64>) {
        let refs = outputs();
        let mut values = vec![f64::NAN; refs.len()];
        // SAFETY: slices of the given lengths.
        let status = unsafe { fmi2GetReal(self.c, refs.as_ptr(), refs.len(), values.as_mut_ptr()) };
        (status, values)
    }

    fn do_step(&self, t: f64, h: f64) -> Status {
        // SAFETY: a live instance.
        unsafe { fmi2DoStep(self.c, t, h, 0) }
    }

    fn last_successful_time(&self) -> f64 {
        let mut time = f64::NAN;
        // SAFETY: a live instance, one writable value.
        assert_eq!(unsafe { fmi2GetRealStatus(self.c, FMI2_LAST_SUCCESSFUL_TIME, &mut time) }, Status::Ok);
        time
    }
}

impl Drop for Body2 {
    fn drop(&mut self) {
        // SAFETY: freed once.
        unsafe { fmi2FreeInstance(self.c) };
    }
}

fn all_finite(values: &[f64]) -> bool {
    values.iter().all(|x| x.is_finite())
}

#[test]
fn fmi3_an_enormous_force_discards_the_step_and_reports_the_last_successful_time() {
    let body = Body3::new(true);
    assert_eq!(body.initialize(), Status::Ok);
    let h = 1e-3;
    // Three good steps with a moderate force; every output finite after every OK.
    for k in 0..3 {
        assert_eq!(body.set("f_0[1]", 10.0), Status::Ok);
        assert_eq!(body.do_step(k as f64 * h, h), (Status::Ok, (k + 1) as f64 * h));
        let (status, values) = body.outputs();
        assert_eq!(status, Status::Ok);
        assert!(all_finite(&values), "{values:?}");
    }
    let (_, before) = body.outputs();
    // Forces up to f64::MAX: the velocity reaches ~1e305 m/s and the kinetic energy overflows
    // at once; the state must not move and the importer must learn where the FMU stayed.
    for force in [1e300, -1e300, f64::MAX, 1e200] {
        assert_eq!(body.set("f_0[3]", force), Status::Ok);
        let (status, last) = body.do_step(3.0 * h, h);
        assert_eq!(status, Status::Discard, "force {force:e}: {:?}", body.messages());
        assert_eq!(last, 3.0 * h, "lastSuccessfulTime for force {force:e}");
        assert!(body.messages().last().unwrap().contains("not finite after the step"), "{:?}", body.messages());
        let (status, values) = body.outputs();
        assert_eq!(status, Status::Ok, "the outputs of the kept state are readable");
        assert_eq!(values, before, "a discarded step leaves the state as it was");
    }
    // An enormous torque: the angular velocity and the rotational energy overflow.
    assert_eq!(body.set("f_0[3]", 0.0), Status::Ok);
    assert_eq!(body.set("t_0[2]", 1e300), Status::Ok);
    assert_eq!(body.do_step(3.0 * h, h), (Status::Discard, 3.0 * h));
    // Still in Step Mode: with a sane input the step from the same time succeeds.
    assert_eq!(body.set("t_0[2]", 0.0), Status::Ok);
    assert_eq!(body.do_step(3.0 * h, h), (Status::Ok, 4.0 * h));
    let (status, values) = body.outputs();
    assert_eq!(status, Status::Ok);
    assert!(all_finite(&values));
}

#[test]
fn fmi2_an_enormous_force_discards_the_step_and_reports_the_last_successful_time() {
    let body = Body2::new(true);
    assert_eq!(body.initialize(), Status::Ok);
    let h = 1e-3;
    assert_eq!(body.do_step(0.0, h), Status::Ok);
    assert_eq!(body.do_step(h, 2.0 * h), Status::Ok, "a variable step size");
    assert_eq!(body.set("f_0[2]", -1e300), Status::Ok);
    assert_eq!(body.do_step(3.0 * h, h), Status::Discard, "{:?}", messages(&body.log));
    assert_eq!(body.last_successful_time(), 3.0 * h);
    let (status, values) = body.outputs();
    assert_eq!(status, Status::Ok);
    assert!(all_finite(&values), "{values:?}");
    assert!(messages(&body.log).iter().any(|m| m.contains("fmi2DoStep") && m.contains("discarded")));
    // FMI 2 after a discarded step: no further DoStep, but Reset brings the instance back.
    assert_eq!(body.do_step(3.0 * h, h), Status::Error);
    // SAFETY: a live instance.
    assert_eq!(unsafe { fmi2Reset(body.c) }, Status::Ok);
    assert_eq!(body.initialize(), Status::Ok);
    assert_eq!(body.do_step(0.0, h), Status::Ok);
}

#[test]
fn start_values_whose_energy_overflows_are_refused_when_initialisation_ends() {
    for (name, value) in [("v_0_start[1]", 1e200), ("w_0_start[3]", -1e200), ("r_0_start[3]", 1e308), ("mass", 1e300)] {
        let body = Body3::new(true);
        assert_eq!(body.set(name, value), Status::Ok);
        if name == "mass" {
            assert_eq!(body.set("v_0_start[1]", 1e10), Status::Ok);
        }
        // SAFETY: a live instance.
        assert_eq!(unsafe { fmi3EnterInitializationMode(body.instance, false, 0.0, 0.0, false, 0.0) }, Status::Ok);
        // The outputs of such start values cannot be given: Discard, and the state is kept.
        let (status, _) = body.outputs();
        assert_eq!(status, Status::Discard, "{name}: {:?}", body.messages());
        // SAFETY: a live instance.
        assert_eq!(unsafe { fmi3ExitInitializationMode(body.instance) }, Status::Error, "{name}");
        let message = body.messages().last().cloned().unwrap();
        let variable = name.split('[').next().unwrap();
        assert!(message.contains(variable) && message.contains("must give a finite energy"), "{name}: {message}");
    }
}

#[test]
fn non_finite_inputs_are_refused_naming_the_variable() {
    for name in ["f_0[1]", "f_0[2]", "f_0[3]", "t_0[1]", "t_0[2]", "t_0[3]"] {
        for value in [f64::NAN, f64::INFINITY, f64::NEG_INFINITY] {
            let body = Body3::new(true);
            assert_eq!(body.initialize(), Status::Ok);
            assert_eq!(body.set(name, value), Status::Error, "{name} = {value}");
            let message = body.messages().last().cloned().unwrap();
            assert!(message.contains(name) && message.contains("finite"), "{message}");
        }
    }
}

#[test]
fn a_null_logger_survives_error_paths_in_both_versions() {
    let body = Body3::new(false);
    assert_eq!(body.set("f_0[1]", f64::NAN), Status::Error);
    assert_eq!(body.do_step(0.0, 1e-3).0, Status::Error);
    // SAFETY: a live instance.
    assert_eq!(unsafe { fmi3Reset(body.instance) }, Status::Ok);
    assert_eq!(body.set("mass", -1.0), Status::Ok);
    assert_eq!(body.initialize(), Status::Error);
    let body = Body2::new(false);
    assert_eq!(body.set("f_0[1]", f64::INFINITY), Status::Error);
    assert_eq!(body.do_step(0.0, 1e-3), Status::Error);
    // SAFETY: a live instance.
    assert_eq!(unsafe { fmi2Reset(body.c) }, Status::Ok);
    assert_eq!(body.initialize(), Status::Ok);
    assert_eq!(body.set("f_0[1]", 1e300), Status::Ok);
    assert_eq!(body.do_step(0.0, 1e-3), Status::Discard);
    assert!(body.log.lock().unwrap().is_empty(), "nothing reaches a log without a callback");
}

#[test]
fn fmu_state_variable_steps_and_reset_reproduce_the_run_bit_for_bit_in_fmi3() {
    let body = Body3::new(true);
    for (name, value) in [("v_0_start[1]", 1.0), ("w_0_start[1]", 3.0), ("w_0_start[3]", 0.5), ("inertia[1]", 2e-3)] {
        assert_eq!(body.set(name, value), Status::Ok);
    }
    assert_eq!(body.initialize(), Status::Ok);
    assert_eq!(body.set("t_0[2]", 0.01), Status::Ok);
    // Variable step sizes.
    let steps = [1e-3, 2.5e-3, 1e-4, 7e-3];
    let mut t = 0.0;
    for h in &steps[..2] {
        assert_eq!(body.do_step(t, *h).0, Status::Ok);
        t += h;
    }
    let mut state: Fmi3FmuState = null_mut();
    // SAFETY: a live instance; the state is freed below.
    assert_eq!(unsafe { fmi3GetFMUState(body.instance, &mut state) }, Status::Ok);
    let run = |from: f64| {
        let mut t = from;
        for h in &steps[2..] {
            assert_eq!(body.do_step(t, *h).0, Status::Ok);
            t += h;
        }
        body.outputs().1
    };
    let first = run(t);
    // SAFETY: the state from GetFMUState.
    assert_eq!(unsafe { fmi3SetFMUState(body.instance, state) }, Status::Ok);
    assert_eq!(run(t), first, "SetFMUState");
    let mut size = 0;
    // SAFETY: the state from GetFMUState; a buffer of the size asked.
    unsafe {
        assert_eq!(fmi3SerializedFMUStateSize(body.instance, state, &mut size), Status::Ok);
        let mut bytes = vec![0u8; size];
        assert_eq!(fmi3SerializeFMUState(body.instance, state, bytes.as_mut_ptr(), size), Status::Ok);
        let mut copy: Fmi3FmuState = null_mut();
        assert_eq!(fmi3DeserializeFMUState(body.instance, bytes.as_ptr(), size, &mut copy), Status::Ok);
        assert_eq!(fmi3SetFMUState(body.instance, copy), Status::Ok);
        assert_eq!(run(t), first, "a deserialized state");
        assert_eq!(fmi3FreeFMUState(body.instance, &mut copy), Status::Ok);
        assert_eq!(fmi3FreeFMUState(body.instance, &mut state), Status::Ok);
        assert_eq!(fmi3Reset(body.instance), Status::Ok);
    }
    for (name, value) in [("v_0_start[1]", 1.0), ("w_0_start[1]", 3.0), ("w_0_start[3]", 0.5), ("inertia[1]", 2e-3)] {
        assert_eq!(body.set(name, value), Status::Ok);
    }
    assert_eq!(body.initialize(), Status::Ok);
    assert_eq!(body.set("t_0[2]", 0.01), Status::Ok);
    let mut t = 0.0;
    for h in &steps[..2] {
        assert_eq!(body.do_step(t, *h).0, Status::Ok);
        t += h;
    }
    assert_eq!(run(t), first, "after Reset");
}

/// The calls the joint's tests make, through either version's C API.
trait Instance {
    fn set_real(&self, name: &str, value: f64) -> Status;
    fn set_kind(&self, kind: i64) -> Status;
    fn get(&self, names: &[String]) -> Vec<f64>;
    fn init(&self) -> Status;
    fn step(&self, t: f64, h: f64) -> Status;
    fn log(&self) -> Vec<String>;
}

impl Instance for Body3 {
    fn set_real(&self, name: &str, value: f64) -> Status {
        self.set(name, value)
    }
    fn set_kind(&self, kind: i64) -> Status {
        // SAFETY: one reference, one value.
        unsafe { fmi3SetInt64(self.instance, &vr("joint.kind"), 1, &kind, 1) }
    }
    fn get(&self, names: &[String]) -> Vec<f64> {
        let refs: Vec<u32> = names.iter().map(|n| vr(n)).collect();
        let mut values = vec![f64::NAN; refs.len()];
        // SAFETY: slices of the given lengths.
        assert_eq!(unsafe { fmi3GetFloat64(self.instance, refs.as_ptr(), refs.len(), values.as_mut_ptr(), values.len()) }, Status::Ok);
        values
    }
    fn init(&self) -> Status {
        self.initialize()
    }
    fn step(&self, t: f64, h: f64) -> Status {
        self.do_step(t, h).0
    }
    fn log(&self) -> Vec<String> {
        self.messages()
    }
}

impl Instance for Body2 {
    fn set_real(&self, name: &str, value: f64) -> Status {
        self.set(name, value)
    }
    fn set_kind(&self, kind: i64) -> Status {
        let value = kind as c_int;
        // SAFETY: one reference, one value.
        unsafe { fmi2SetInteger(self.c, &vr("joint.kind"), 1, &value) }
    }
    fn get(&self, names: &[String]) -> Vec<f64> {
        let refs: Vec<u32> = names.iter().map(|n| vr(n)).collect();
        let mut values = vec![f64::NAN; refs.len()];
        // SAFETY: slices of the given lengths.
        assert_eq!(unsafe { fmi2GetReal(self.c, refs.as_ptr(), refs.len(), values.as_mut_ptr()) }, Status::Ok);
        values
    }
    fn init(&self) -> Status {
        self.initialize()
    }
    fn step(&self, t: f64, h: f64) -> Status {
        self.do_step(t, h)
    }
    fn log(&self) -> Vec<String> {
        messages(&self.log)
    }
}

fn elements(base: &str, n: usize) -> Vec<String> {
    (1..=n).map(|i| format!("{base}[{i}]")).collect()
}

fn set_vector(body: &dyn Instance, base: &str, values: &[f64]) {
    for (name, value) in elements(base, values.len()).iter().zip(values) {
        assert_eq!(body.set_real(name, *value), Status::Ok, "{name}");
    }
}

/// The twist `(v_0, w_0)` from the outputs.
fn twist(body: &dyn Instance) -> nalgebra::Vector6<f64> {
    let names = [elements("v_0", 3), elements("w_0", 3)].concat();
    nalgebra::Vector6::from_column_slice(&body.get(&names))
}

/// Each joint through each version: a large force and torque held over one step of 1e-7 s change
/// the twist by the `mobility` output times the impulse (to first order in the step).
#[test]
fn a_short_impulse_changes_the_twist_by_the_mobility_output_times_it() {
    let impulse = nalgebra::Vector6::new(3.0, -2.0, 5.0, -0.4, 0.7, 0.2);
    let dt = 1e-7;
    for version in [2, 3] {
        for kind in [1, 2, 3] {
            let body: Box<dyn Instance> = if version == 3 { Box::new(Body3::new(true)) } else { Box::new(Body2::new(true)) };
            assert_eq!(body.set_kind(kind), Status::Ok);
            assert_eq!(body.set_real("mass", 2.0), Status::Ok);
            set_vector(&*body, "inertia", &[0.3, 0.4, 0.5, 0.01, -0.02, 0.03]);
            set_vector(&*body, "gravity", &[0.0; 3]);
            set_vector(&*body, "joint.pivot", &[0.1, 0.5, -0.2]);
            set_vector(&*body, "joint.axis", &[1.0, 2.0, -0.5]);
            set_vector(&*body, "r_0_start", &[0.3, -0.2, 0.4]);
            set_vector(&*body, "q_start", &[0.9, 0.1, -0.3, 0.2]);
            assert_eq!(body.init(), Status::Ok, "FMI {version}, kind {kind}: {:?}", body.log());
            let phi = rigid_body::joint::from_upper_triangle(&body.get(&elements("mobility", 21)).try_into().unwrap());
            let before = twist(&*body);
            set_vector(&*body, "f_0", (impulse.fixed_rows::<3>(0) / dt).as_slice());
            set_vector(&*body, "t_0", (impulse.fixed_rows::<3>(3) / dt).as_slice());
            assert_eq!(body.step(0.0, dt), Status::Ok);
            let change = twist(&*body) - before;
            let expected = phi * impulse;
            assert!((change - expected).norm() < 1e-5 * expected.norm(), "FMI {version}, kind {kind}: {change} against {expected}");
            if kind == 1 {
                // Free: the inverse spatial inertia; the joint's reaction is zero.
                assert!((phi[(0, 0)] - 0.5).abs() < 1e-15 && phi[(0, 3)] == 0.0);
                assert!(body.get(&[elements("joint.f_0", 3), elements("joint.t_0", 3)].concat()).iter().all(|x| *x == 0.0));
            }
        }
    }
}

/// A point mass of 1 kg on a 0.5 m rod (Revolute about y through the origin), released from
/// 60°, through each version: at the bottom the output reaction is the tension `m g + m v²/d`
/// along the rod with no torque, `v² = 2 g d (1 - cos 60°)`, and the energy output holds.
#[test]
fn a_pendulum_through_the_c_api_pulls_its_rod_with_gravity_plus_centripetal_at_the_bottom() {
    let (g, d) = (9.81, 0.5);
    for version in [2, 3] {
        let body: Box<dyn Instance> = if version == 3 { Box::new(Body3::new(true)) } else { Box::new(Body2::new(true)) };
        assert_eq!(body.set_kind(2), Status::Ok);
        set_vector(&*body, "inertia", &[0.0; 6]);
        set_vector(&*body, "joint.axis", &[0.0, 1.0, 0.0]);
        let angle = -std::f64::consts::FRAC_PI_3;
        set_vector(&*body, "r_0_start", &[d * angle.sin(), 0.0, -d * angle.cos()]);
        assert_eq!(body.set_real("solver.max_step", 1e-5), Status::Ok);
        assert_eq!(body.init(), Status::Ok, "{:?}", body.log());
        let e0 = body.get(&["energy".to_string()])[0];
        let (mut t, h) = (0.0, 1e-4);
        let mut r = body.get(&elements("r_0", 3));
        while r[0] < 0.0 {
            assert_eq!(body.step(t, h), Status::Ok);
            t += h;
            r = body.get(&elements("r_0", 3));
        }
        let v = body.get(&elements("v_0", 3));
        let v2: f64 = v.iter().map(|x| x * x).sum();
        let at = r[0].atan2(-r[2]);
        let tension = g * at.cos() + v2 / d;
        let f = body.get(&elements("joint.f_0", 3));
        for i in 0..3 {
            assert!((f[i] + r[i] / d * tension).abs() < 1e-9 * tension, "FMI {version}: {f:?} against tension {tension} along {r:?}");
        }
        assert!(body.get(&elements("joint.t_0", 3)).iter().all(|x| x.abs() < 1e-12));
        assert!((v2 / (g * d) - 1.0).abs() < 1e-3, "v² {v2} at the bottom");
        assert!((body.get(&["energy".to_string()])[0] / e0 - 1.0).abs() < 1e-8);
    }
}

/// A zero axis is refused when initialisation ends, naming `joint.axis` and its value; start
/// velocities that are no motion of the joint are projected onto it with a warning.
#[test]
fn a_bad_joint_is_refused_and_inconsistent_start_velocities_are_projected_with_a_warning() {
    for version in [2, 3] {
        let body: Box<dyn Instance> = if version == 3 { Box::new(Body3::new(true)) } else { Box::new(Body2::new(true)) };
        assert_eq!(body.set_kind(3), Status::Ok);
        set_vector(&*body, "joint.axis", &[0.0; 3]);
        assert_eq!(body.init(), Status::Error);
        assert!(body.log().iter().any(|m| m.contains("joint.axis = [0, 0, 0]: must be a finite, nonzero direction")), "{:?}", body.log());

        let body: Box<dyn Instance> = if version == 3 { Box::new(Body3::new(true)) } else { Box::new(Body2::new(true)) };
        assert_eq!(body.set_kind(3), Status::Ok);
        set_vector(&*body, "joint.axis", &[1.0, 0.0, 0.0]);
        set_vector(&*body, "v_0_start", &[2.0, 1.0, 0.0]);
        set_vector(&*body, "w_0_start", &[0.0, 0.0, 3.0]);
        assert!(matches!(body.init(), Status::Ok | Status::Warning), "FMI {version}: {:?}", body.log());
        assert!(body.log().iter().any(|m| m.contains("projected onto it")), "{:?}", body.log());
        assert_eq!(body.get(&[elements("v_0", 3), elements("w_0", 3)].concat()), [2.0, 0.0, 0.0, 0.0, 0.0, 0.0]);
    }
    // A point mass on its own axis cannot turn.
    let body = Body3::new(true);
    assert_eq!(body.set_kind(2), Status::Ok);
    set_vector(&body, "inertia", &[0.0; 6]);
    assert_eq!(body.init(), Status::Error);
    assert!(body.messages().iter().any(|m| m.contains("joint.pivot = [0, 0, 0]: the moment of inertia about the joint axis")), "{:?}", body.messages());
}
