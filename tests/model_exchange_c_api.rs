//! Model Exchange through the C API of both versions, called the way an integrator calls it: the
//! state machine (and its refusals), the state vector round trip, derivatives and event
//! indicators against the laws' closed forms, Event Mode (Restitution onset, Stiction break-away),
//! the refusal of stateful laws on pairs with more points than slots, and the FMU state.
//!
//! The scene is the drag of tests/python/test_stick_slip.py: a Point (geometry B) held at depth
//! d = 1e-4 in the default Plane and dragged along x at v; GroundModel + ElasticCone give
//! f_n = sqrt(d) K d = 100 N, and while the point sticks `du/dt = v_t` and the stick indicator is
//! `mu f_n - sqrt(d) |Kt u + Dt v|`.

use std::ffi::{c_char, c_int, c_void, CStr, CString};
use std::ptr::{null, null_mut};
use std::sync::Mutex;

use contact_force::fmi::status::Status;
use contact_force::variables;

/// (status, message) of every logged message.
type Log = Mutex<Vec<(c_int, String)>>;

fn vr(name: &str) -> u32 {
    variables::scalars().iter().find(|s| s.name == name).unwrap_or_else(|| panic!("no variable {name}")).vr
}

const NX: usize = 24;
const NZ: usize = 16;
const DEPTH: f64 = 1e-4;
const V: f64 = 1.2e-3;
const MU: f64 = 0.5;
const KT: f64 = 1e6;
const DT: f64 = 2.5e3;
const F_N: f64 = 100.0;

/// The drag's parameters and inputs (value reference, value).
fn drag() -> Vec<(u32, f64)> {
    vec![
        (vr("geometry_b.shape"), 1.0),
        (vr("normal.law"), 6.0),
        (vr("normal.stiffness"), 1e8),
        (vr("normal.damping"), 1e6),
        (vr("friction.law"), 6.0),
        (vr("friction.mu_static"), MU),
        (vr("friction.stiffness"), KT),
        (vr("friction.damping"), DT),
        (vr("frame_b.r_0[3]"), -DEPTH),
        (vr("frame_b.v_0[1]"), V),
    ]
}

fn stick_indicator(u: f64) -> f64 {
    MU * F_N - DEPTH.sqrt() * (KT * u + DT * V)
}

/// What both versions' instances offer the tests, so each scenario runs on both.
trait MeInstance {
    fn messages(&self) -> Vec<String>;
    fn set_parameter(&self, vr: u32, value: f64) -> Status;
    fn set_real(&self, vr: u32, value: f64) -> Status;
    fn get_real(&self, vr: u32) -> (Status, f64);
    fn enter_initialization(&self) -> Status;
    fn exit_initialization(&self) -> Status;
    fn update_discrete_states(&self) -> (Status, bool);
    fn enter_continuous_time_mode(&self) -> Status;
    fn enter_event_mode(&self) -> Status;
    fn completed_integrator_step(&self) -> (Status, bool);
    fn set_time(&self, t: f64) -> Status;
    fn set_states(&self, x: &[f64]) -> Status;
    fn get_states(&self, n: usize) -> (Status, Vec<f64>);
    fn get_derivatives(&self, n: usize) -> (Status, Vec<f64>);
    fn get_indicators(&self, n: usize) -> (Status, Vec<f64>);
    fn get_nominals(&self, n: usize) -> (Status, Vec<f64>);
    fn terminate(&self) -> Status;
    fn do_step(&self) -> Status;
    /// FMU state: get, then set back after `between` ran.
    fn round_trip_fmu_state(&self, between: &dyn Fn()) -> Status;

    fn logged(&self, needle: &str) -> bool {
        self.messages().iter().any(|m| m.contains(needle))
    }

    /// Through initialisation with `values`, in Event Mode.
    fn initialized(&self, values: &[(u32, f64)]) {
        assert_eq!(self.enter_initialization(), Status::Ok);
        for (vr, value) in values {
            assert_eq!(self.set_parameter(*vr, *value), Status::Ok, "{:?}", self.messages());
        }
        assert_eq!(self.exit_initialization(), Status::Ok, "{:?}", self.messages());
    }
}

mod fmi2 {
    use super::*;
    use contact_force::fmi::fmi2::*;
    use contact_force::fmi::logger::Fmi2LoggerCallback;

    unsafe extern "C" fn record(env: *mut c_void, _name: *const c_char, status: c_int, _category: *const c_char, message: *const c_char) {
        // SAFETY: the test passes a `Log` as environment; the message is valid for the call.
        unsafe {
            let log = &*env.cast::<Log>();
            log.lock().unwrap().push((status, CStr::from_ptr(message).to_string_lossy().replace("%%", "%")));
        }
    }

    fn logger() -> Fmi2LoggerCallback {
        type Fixed = unsafe extern "C" fn(*mut c_void, *const c_char, c_int, *const c_char, *const c_char);
        // SAFETY: on x86-64 System V a variadic call passes the fixed arguments like a
        // non-variadic one, and the FMU never passes variadic arguments (as in fmi2_c_api.rs).
        unsafe { std::mem::transmute::<Fixed, Fmi2LoggerCallback>(record) }
    }

    pub struct Fmu {
        pub c: Fmi2Component,
        log: Box<Log>,
        _functions: Box<Fmi2CallbackFunctions>,
    }

    impl Fmu {
        pub fn new(fmu_type: c_int) -> Fmu {
            let log: Box<Log> = Box::default();
            let functions = Box::new(Fmi2CallbackFunctions {
                logger: Some(logger()),
                allocate_memory: None,
                free_memory: None,
                step_finished: None,
                component_environment: (&*log as *const Log).cast_mut().cast(),
            });
            let name = CString::new("me").unwrap();
            let guid = CString::new(variables::instantiation_token()).unwrap();
            // SAFETY: valid strings and callbacks that outlive the instance.
            let c = unsafe { fmi2Instantiate(name.as_ptr(), fmu_type, guid.as_ptr(), null(), &*functions, 0, 1) };
            assert!(!c.is_null());
            Fmu { c, log, _functions: functions }
        }
    }

    impl Drop for Fmu {
        fn drop(&mut self) {
            // SAFETY: freed once, here.
            unsafe { fmi2FreeInstance(self.c) };
        }
    }

    // SAFETY (every unsafe block below): `self.c` is a live instance and every pointer passed
    // points to as many values as the length given with it.
    impl MeInstance for Fmu {
        fn messages(&self) -> Vec<String> {
            self.log.lock().unwrap().iter().map(|(_, m)| m.clone()).collect()
        }
        fn set_parameter(&self, vr: u32, value: f64) -> Status {
            if variables::table().scalar(vr).is_some_and(|s| matches!(s.variable.ty, variables::ValueType::Enumeration(_))) {
                // SAFETY: see the impl.
                return unsafe { fmi2SetInteger(self.c, &vr, 1, &(value as c_int)) };
            }
            self.set_real(vr, value)
        }
        fn set_real(&self, vr: u32, value: f64) -> Status {
            // SAFETY: see the impl.
            unsafe { fmi2SetReal(self.c, &vr, 1, &value) }
        }
        fn get_real(&self, vr: u32) -> (Status, f64) {
            let mut value = f64::NAN;
            // SAFETY: see the impl.
            let status = unsafe { fmi2GetReal(self.c, &vr, 1, &mut value) };
            (status, value)
        }
        fn enter_initialization(&self) -> Status {
            // SAFETY: see the impl.
            unsafe {
                assert_eq!(fmi2SetupExperiment(self.c, 0, 0.0, 0.0, 0, 1.0), Status::Ok);
                fmi2EnterInitializationMode(self.c)
            }
        }
        fn exit_initialization(&self) -> Status {
            // SAFETY: see the impl.
            unsafe { fmi2ExitInitializationMode(self.c) }
        }
        fn update_discrete_states(&self) -> (Status, bool) {
            let mut info = Fmi2EventInfo { new_discrete_states_needed: 7, ..Default::default() };
            // SAFETY: see the impl; `info` is an fmi2EventInfo.
            let status = unsafe { fmi2NewDiscreteStates(self.c, (&mut info as *mut Fmi2EventInfo).cast()) };
            if status == Status::Ok {
                assert_eq!((info.new_discrete_states_needed, info.terminate_simulation, info.next_event_time_defined), (0, 0, 0));
            }
            (status, info.values_of_continuous_states_changed != 0)
        }
        fn enter_continuous_time_mode(&self) -> Status {
            // SAFETY: see the impl.
            unsafe { fmi2EnterContinuousTimeMode(self.c) }
        }
        fn enter_event_mode(&self) -> Status {
            // SAFETY: see the impl.
            unsafe { fmi2EnterEventMode(self.c) }
        }
        fn completed_integrator_step(&self) -> (Status, bool) {
            let (mut event, mut terminate) = (7, 7);
            // SAFETY: see the impl.
            let status = unsafe { fmi2CompletedIntegratorStep(self.c, 1, &mut event, &mut terminate) };
            (status, event != 0)
        }
        fn set_time(&self, t: f64) -> Status {
            // SAFETY: see the impl.
            unsafe { fmi2SetTime(self.c, t) }
        }
        fn set_states(&self, x: &[f64]) -> Status {
            // SAFETY: see the impl.
            unsafe { fmi2SetContinuousStates(self.c, x.as_ptr(), x.len()) }
        }
        fn get_states(&self, n: usize) -> (Status, Vec<f64>) {
            let mut x = vec![f64::NAN; n];
            // SAFETY: see the impl.
            let status = unsafe { fmi2GetContinuousStates(self.c, x.as_mut_ptr(), n) };
            (status, x)
        }
        fn get_derivatives(&self, n: usize) -> (Status, Vec<f64>) {
            let mut x = vec![f64::NAN; n];
            // SAFETY: see the impl.
            let status = unsafe { fmi2GetDerivatives(self.c, x.as_mut_ptr(), n) };
            (status, x)
        }
        fn get_indicators(&self, n: usize) -> (Status, Vec<f64>) {
            let mut x = vec![f64::NAN; n];
            // SAFETY: see the impl.
            let status = unsafe { fmi2GetEventIndicators(self.c, x.as_mut_ptr(), n) };
            (status, x)
        }
        fn get_nominals(&self, n: usize) -> (Status, Vec<f64>) {
            let mut x = vec![f64::NAN; n];
            // SAFETY: see the impl.
            let status = unsafe { fmi2GetNominalsOfContinuousStates(self.c, x.as_mut_ptr(), n) };
            (status, x)
        }
        fn terminate(&self) -> Status {
            // SAFETY: see the impl.
            unsafe { fmi2Terminate(self.c) }
        }
        fn do_step(&self) -> Status {
            // SAFETY: see the impl.
            unsafe { fmi2DoStep(self.c, 0.0, 1e-3, 1) }
        }
        fn round_trip_fmu_state(&self, between: &dyn Fn()) -> Status {
            let mut state: Fmi2FmuState = null_mut();
            // SAFETY: see the impl; the state is made here and freed below.
            unsafe {
                assert_eq!(fmi2GetFMUstate(self.c, &mut state), Status::Ok);
                let mut size = 0;
                assert_eq!(fmi2SerializedFMUstateSize(self.c, state, &mut size), Status::Ok);
                let mut bytes = vec![0 as c_char; size];
                assert_eq!(fmi2SerializeFMUstate(self.c, state, bytes.as_mut_ptr(), size), Status::Ok);
                between();
                let mut back: Fmi2FmuState = null_mut();
                assert_eq!(fmi2DeSerializeFMUstate(self.c, bytes.as_ptr(), size, &mut back), Status::Ok);
                let status = fmi2SetFMUstate(self.c, back);
                fmi2FreeFMUstate(self.c, &mut back);
                fmi2FreeFMUstate(self.c, &mut state);
                status
            }
        }
    }
}

mod fmi3 {
    use super::*;
    use contact_force::fmi::fmi3::*;

    unsafe extern "C" fn record(env: *mut c_void, status: c_int, _category: *const c_char, message: *const c_char) {
        // SAFETY: `env` is the test's `Log`; the message is valid for the call.
        unsafe {
            let log = &*env.cast::<Log>();
            log.lock().unwrap().push((status, CStr::from_ptr(message).to_string_lossy().into_owned()));
        }
    }

    pub struct Fmu {
        pub instance: Fmi3Instance,
        log: Box<Log>,
    }

    impl Fmu {
        pub fn new() -> Fmu {
            let log: Box<Log> = Box::default();
            let name = CString::new("me").unwrap();
            let token = CString::new(variables::instantiation_token()).unwrap();
            let env = (&*log as *const Log).cast_mut().cast::<c_void>();
            // SAFETY: valid strings, callback and an environment that outlives the instance.
            let instance = unsafe { fmi3InstantiateModelExchange(name.as_ptr(), token.as_ptr(), null(), false, true, env, Some(record)) };
            assert!(!instance.is_null());
            Fmu { instance, log }
        }

        pub fn counts(&self) -> (Status, usize, usize) {
            let (mut nx, mut nz) = (0, 0);
            // SAFETY: a live instance, writable counts.
            let status = unsafe { fmi3GetNumberOfContinuousStates(self.instance, &mut nx) };
            // SAFETY: as above.
            let status_z = unsafe { fmi3GetNumberOfEventIndicators(self.instance, &mut nz) };
            assert_eq!(status, status_z);
            (status, nx, nz)
        }
    }

    impl Drop for Fmu {
        fn drop(&mut self) {
            // SAFETY: freed once, here.
            unsafe { fmi3FreeInstance(self.instance) };
        }
    }

    // SAFETY (every unsafe block below): `self.instance` is a live instance and every pointer
    // passed points to as many values as the length given with it.
    impl MeInstance for Fmu {
        fn messages(&self) -> Vec<String> {
            self.log.lock().unwrap().iter().map(|(_, m)| m.clone()).collect()
        }
        fn set_parameter(&self, vr: u32, value: f64) -> Status {
            if variables::table().scalar(vr).is_some_and(|s| matches!(s.variable.ty, variables::ValueType::Enumeration(_))) {
                // SAFETY: see the impl.
                return unsafe { fmi3SetInt64(self.instance, &vr, 1, &(value as i64), 1) };
            }
            self.set_real(vr, value)
        }
        fn set_real(&self, vr: u32, value: f64) -> Status {
            // SAFETY: see the impl.
            unsafe { fmi3SetFloat64(self.instance, &vr, 1, &value, 1) }
        }
        fn get_real(&self, vr: u32) -> (Status, f64) {
            let mut value = f64::NAN;
            // SAFETY: see the impl.
            let status = unsafe { fmi3GetFloat64(self.instance, &vr, 1, &mut value, 1) };
            (status, value)
        }
        fn enter_initialization(&self) -> Status {
            // SAFETY: see the impl.
            unsafe { fmi3EnterInitializationMode(self.instance, false, 0.0, 0.0, false, 0.0) }
        }
        fn exit_initialization(&self) -> Status {
            // SAFETY: see the impl.
            unsafe { fmi3ExitInitializationMode(self.instance) }
        }
        fn update_discrete_states(&self) -> (Status, bool) {
            let (mut need, mut terminate, mut nominals, mut values, mut defined, mut next) = (true, true, true, false, true, f64::NAN);
            // SAFETY: see the impl.
            let status = unsafe {
                fmi3UpdateDiscreteStates(self.instance, &mut need, &mut terminate, &mut nominals, &mut values, &mut defined, &mut next)
            };
            if status == Status::Ok {
                assert!(!need && !terminate && !nominals && !defined);
            }
            (status, values)
        }
        fn enter_continuous_time_mode(&self) -> Status {
            // SAFETY: see the impl.
            unsafe { fmi3EnterContinuousTimeMode(self.instance) }
        }
        fn enter_event_mode(&self) -> Status {
            // SAFETY: see the impl.
            unsafe { fmi3EnterEventMode(self.instance) }
        }
        fn completed_integrator_step(&self) -> (Status, bool) {
            let (mut event, mut terminate) = (true, true);
            // SAFETY: see the impl.
            let status = unsafe { fmi3CompletedIntegratorStep(self.instance, true, &mut event, &mut terminate) };
            assert!(status != Status::Ok || !terminate);
            (status, event)
        }
        fn set_time(&self, t: f64) -> Status {
            // SAFETY: see the impl.
            unsafe { fmi3SetTime(self.instance, t) }
        }
        fn set_states(&self, x: &[f64]) -> Status {
            // SAFETY: see the impl.
            unsafe { fmi3SetContinuousStates(self.instance, x.as_ptr(), x.len()) }
        }
        fn get_states(&self, n: usize) -> (Status, Vec<f64>) {
            let mut x = vec![f64::NAN; n];
            // SAFETY: see the impl.
            let status = unsafe { fmi3GetContinuousStates(self.instance, x.as_mut_ptr(), n) };
            (status, x)
        }
        fn get_derivatives(&self, n: usize) -> (Status, Vec<f64>) {
            let mut x = vec![f64::NAN; n];
            // SAFETY: see the impl.
            let status = unsafe { fmi3GetContinuousStateDerivatives(self.instance, x.as_mut_ptr(), n) };
            (status, x)
        }
        fn get_indicators(&self, n: usize) -> (Status, Vec<f64>) {
            let mut x = vec![f64::NAN; n];
            // SAFETY: see the impl.
            let status = unsafe { fmi3GetEventIndicators(self.instance, x.as_mut_ptr(), n) };
            (status, x)
        }
        fn get_nominals(&self, n: usize) -> (Status, Vec<f64>) {
            let mut x = vec![f64::NAN; n];
            // SAFETY: see the impl.
            let status = unsafe { fmi3GetNominalsOfContinuousStates(self.instance, x.as_mut_ptr(), n) };
            (status, x)
        }
        fn terminate(&self) -> Status {
            // SAFETY: see the impl.
            unsafe { fmi3Terminate(self.instance) }
        }
        fn do_step(&self) -> Status {
            let (mut a, mut b, mut c, mut t) = (false, false, false, 0.0);
            // SAFETY: see the impl.
            unsafe { fmi3DoStep(self.instance, 0.0, 1e-3, true, &mut a, &mut b, &mut c, &mut t) }
        }
        fn round_trip_fmu_state(&self, between: &dyn Fn()) -> Status {
            let mut state: Fmi3FmuState = null_mut();
            // SAFETY: see the impl; the states are made here and freed below.
            unsafe {
                assert_eq!(fmi3GetFMUState(self.instance, &mut state), Status::Ok);
                let mut size = 0;
                assert_eq!(fmi3SerializedFMUStateSize(self.instance, state, &mut size), Status::Ok);
                let mut bytes = vec![0u8; size];
                assert_eq!(fmi3SerializeFMUState(self.instance, state, bytes.as_mut_ptr(), size), Status::Ok);
                between();
                let mut back: Fmi3FmuState = null_mut();
                assert_eq!(fmi3DeserializeFMUState(self.instance, bytes.as_ptr(), size, &mut back), Status::Ok);
                let status = fmi3SetFMUState(self.instance, back);
                fmi3FreeFMUState(self.instance, &mut back);
                fmi3FreeFMUState(self.instance, &mut state);
                status
            }
        }
    }
}

/// Both versions' Model Exchange instances, in turn.
fn instances() -> Vec<(&'static str, Box<dyn MeInstance>)> {
    vec![("fmi2", Box::new(fmi2::Fmu::new(contact_force::fmi::fmi2::FMI2_MODEL_EXCHANGE))), ("fmi3", Box::new(fmi3::Fmu::new()))]
}

#[test]
fn the_state_machine_runs_event_and_continuous_time_mode_and_refuses_other_sequences() {
    for (version, fmu) in instances() {
        // Before initialisation: no states to read, no Continuous-Time Mode.
        assert_eq!(fmu.get_derivatives(NX).0, Status::Error, "{version}");
        assert!(fmu.logged("Illegal call sequence: not allowed in state Instantiated"), "{version}: {:?}", fmu.messages());
        let fmu = instances().into_iter().find(|(v, _)| *v == version).unwrap().1;
        assert_eq!(fmu.get_nominals(NX), (Status::Ok, vec![1e-4; NX]), "{version}: nominals before initialisation");
        fmu.initialized(&drag());
        // Event Mode after initialisation: no continuous-time calls, no co-simulation step.
        assert_eq!(fmu.do_step(), Status::Error, "{version}");
        let fmu = instances().into_iter().find(|(v, _)| *v == version).unwrap().1;
        fmu.initialized(&drag());
        assert_eq!(fmu.update_discrete_states(), (Status::Ok, false), "{version}");
        assert_eq!(fmu.enter_continuous_time_mode(), Status::Ok, "{version}");
        assert_eq!(fmu.set_time(0.5), Status::Ok);
        assert_eq!(fmu.completed_integrator_step(), (Status::Ok, false), "{version}: the drag needs no step event");
        assert_eq!(fmu.enter_event_mode(), Status::Ok);
        assert_eq!(fmu.update_discrete_states(), (Status::Ok, false));
        assert_eq!(fmu.enter_continuous_time_mode(), Status::Ok);
        // Inputs can be set in Continuous-Time Mode; parameters cannot.
        assert_eq!(fmu.set_real(vr("frame_b.v_0[1]"), V), Status::Ok);
        assert_eq!(fmu.set_real(vr("friction.stiffness"), 1.0), Status::Error);
        assert!(fmu.logged("friction.stiffness cannot be set: it is a fixed parameter"), "{version}");
        let fmu = instances().into_iter().find(|(v, _)| *v == version).unwrap().1;
        fmu.initialized(&drag());
        // SetContinuousStates belongs to Continuous-Time Mode.
        assert_eq!(fmu.set_states(&[0.0; NX]), Status::Error, "{version}");
        assert!(fmu.logged("SetContinuousStates: Illegal call sequence: not allowed in state EventMode"), "{version}: {:?}", fmu.messages());
        let fmu = instances().into_iter().find(|(v, _)| *v == version).unwrap().1;
        fmu.initialized(&drag());
        assert_eq!(fmu.enter_continuous_time_mode(), Status::Ok);
        assert_eq!(fmu.set_time(f64::NAN), Status::Error, "{version}");
        assert!(fmu.logged("time = NaN must be finite"));
        let fmu = instances().into_iter().find(|(v, _)| *v == version).unwrap().1;
        fmu.initialized(&drag());
        assert_eq!(fmu.enter_continuous_time_mode(), Status::Ok);
        assert_eq!(fmu.terminate(), Status::Ok, "{version}");
        assert_eq!(fmu.get_states(NX).0, Status::Ok, "{version}: states stay readable after Terminate");
        assert_eq!(fmu.enter_continuous_time_mode(), Status::Error);
    }
}

#[test]
fn states_round_trip_and_derivatives_and_indicators_follow_the_elastic_cone() {
    for (version, fmu) in instances() {
        fmu.initialized(&drag());
        fmu.update_discrete_states();
        assert_eq!(fmu.enter_continuous_time_mode(), Status::Ok);
        assert_eq!(fmu.get_states(NX), (Status::Ok, vec![0.0; NX]), "{version}");
        // Sticking from u = 0: du/dt = v_t for slot 1, 0 for the empty slots.
        let (status, dx) = fmu.get_derivatives(NX);
        assert_eq!(status, Status::Ok, "{version}: {:?}", fmu.messages());
        let mut expected = vec![0.0; NX];
        expected[0] = V;
        assert_eq!(dx, expected, "{version}");
        let (_, z) = fmu.get_indicators(NZ);
        assert_eq!(z[0], -DEPTH, "{version}: separation of slot 1");
        assert!((z[1] - stick_indicator(0.0)).abs() < 1e-9, "{version}: {} vs {}", z[1], stick_indicator(0.0));
        for slot in 1..8 {
            assert_eq!((z[2 * slot], z[2 * slot + 1]), (1.0, 1.0), "{version}: empty slot {}", slot + 1);
        }
        // The integrator moves the state: derivatives, indicators and outputs follow it.
        let mut x = vec![0.0; NX];
        x[0] = 3e-3;
        x[1] = -1e-3;
        assert_eq!(fmu.set_states(&x), Status::Ok);
        assert_eq!(fmu.get_states(NX), (Status::Ok, x.clone()), "{version}");
        assert_eq!(fmu.get_real(vr("contact.point[1].deflection[1]")), (Status::Ok, 3e-3));
        let w = (KT * 3e-3 + DT * V, -KT * 1e-3);
        let trial = DEPTH.sqrt() * (w.0 * w.0 + w.1 * w.1).sqrt();
        let (_, z) = fmu.get_indicators(NZ);
        assert!((z[1] - (MU * F_N - trial)).abs() < 1e-9, "{version}: {} vs {}", z[1], MU * F_N - trial);
        assert_eq!(fmu.get_real(vr("contact.point[1].indicator.stick")).1, z[1]);
        let (_, friction) = fmu.get_real(vr("contact.friction_force"));
        assert!((friction - trial).abs() < 1e-9, "{version}: still sticking: the trial force acts");
        // Slipping: the law's rate, -(f_t + sqrt(d) Kt u) / (sqrt(d) Dt) with |f_t| = mu f_n.
        x[0] = 6e-3;
        x[1] = 0.0;
        assert_eq!(fmu.set_states(&x), Status::Ok);
        let (_, z) = fmu.get_indicators(NZ);
        assert!(z[1] < 0.0, "{version}");
        let (_, dx) = fmu.get_derivatives(NX);
        let rate = -(-MU * F_N + DEPTH.sqrt() * KT * 6e-3) / (DEPTH.sqrt() * DT);
        assert!((dx[0] - rate).abs() < 1e-12 * rate.abs().max(1.0), "{version}: {} vs {rate}", dx[0]);
        assert_eq!(fmu.get_real(vr("der(contact.point[1].deflection[1])")).1, dx[0]);
        // Wrong lengths and non-finite states are refused with the numbers named.
        let fmu_bad = instances().into_iter().find(|(v, _)| *v == version).unwrap().1;
        fmu_bad.initialized(&drag());
        fmu_bad.enter_continuous_time_mode();
        assert_eq!(fmu_bad.get_derivatives(3).0, Status::Error);
        assert!(fmu_bad.logged("nx = 3, but the FMU has 24 continuous states"), "{version}: {:?}", fmu_bad.messages());
        let fmu_bad = instances().into_iter().find(|(v, _)| *v == version).unwrap().1;
        fmu_bad.initialized(&drag());
        fmu_bad.enter_continuous_time_mode();
        let mut nan = vec![0.0; NX];
        nan[4] = f64::NAN;
        assert_eq!(fmu_bad.set_states(&nan), Status::Error);
        assert!(fmu_bad.logged("continuous state contact.point[2].deflection[2] = NaN"), "{version}: {:?}", fmu_bad.messages());
        let fmu_bad = instances().into_iter().find(|(v, _)| *v == version).unwrap().1;
        fmu_bad.initialized(&drag());
        fmu_bad.enter_continuous_time_mode();
        assert_eq!(fmu_bad.get_indicators(NZ + 1).0, Status::Error);
        assert!(fmu_bad.logged("ni = 17, but the FMU has 16 event indicators"), "{version}: {:?}", fmu_bad.messages());
        // The state variables are not settable through SetReal after initialisation.
        assert_eq!(fmu.set_real(vr("contact.point[1].deflection[1]"), 1.0), Status::Error);
        assert!(fmu.logged("it is a continuous state and initialisation has ended"), "{version}");
    }
}

#[test]
fn fmu_state_keeps_the_continuous_states() {
    for (version, fmu) in instances() {
        fmu.initialized(&drag());
        fmu.update_discrete_states();
        fmu.enter_continuous_time_mode();
        let mut x = vec![0.0; NX];
        x[0] = 2e-3;
        x[2] = 1e-5;
        assert_eq!(fmu.set_states(&x), Status::Ok);
        let status = fmu.round_trip_fmu_state(&|| {
            assert_eq!(fmu.set_states(&[0.0; NX]), Status::Ok);
        });
        assert_eq!(status, Status::Ok, "{version}: {:?}", fmu.messages());
        assert_eq!(fmu.get_states(NX), (Status::Ok, x.clone()), "{version}");
        // Still in Continuous-Time Mode.
        assert_eq!(fmu.set_states(&x), Status::Ok, "{version}");
    }
}

#[test]
fn event_mode_captures_the_restitution_onset_speed_and_stiction_break_away() {
    for (version, fmu) in instances() {
        // A sphere (radius 0.1) approaching the plane at 2 m/s, at the instant it touches.
        let restitution = [
            (vr("geometry_b.shape"), 2.0),
            (vr("geometry_b.radius"), 0.1),
            (vr("normal.law"), 7.0),
            (vr("normal.stiffness"), 1e6),
            (vr("normal.restitution"), 0.5),
            (vr("frame_b.r_0[3]"), 0.1 + 1e-6),
            (vr("frame_b.v_0[3]"), -2.0),
        ];
        fmu.initialized(&restitution);
        assert_eq!(fmu.update_discrete_states(), (Status::Ok, false));
        fmu.enter_continuous_time_mode();
        assert!((fmu.get_indicators(NZ).1[0] - 1e-6).abs() < 1e-15, "{version}");
        // The integrator reaches 1 nm past the onset: the make indicator has changed sign.
        assert_eq!(fmu.set_real(vr("frame_b.r_0[3]"), 0.1 - 1e-9), Status::Ok);
        assert!(fmu.get_indicators(NZ).1[0] < 0.0);
        // Before Event Mode the onset speed is missing: the block damps with MIN_ONSET_SPEED,
        // which a step event would correct; Event Mode freezes the approach speed 2 m/s.
        assert_eq!(fmu.enter_event_mode(), Status::Ok);
        assert_eq!(fmu.update_discrete_states(), (Status::Ok, false));
        fmu.enter_continuous_time_mode();
        // f_n = k d^n (1 + chi dd) with chi = 3 (1 - e) / (2 v0) = 0.375 s/m: with the sphere
        // moving at 1 m/s into the plane at 1 mm depth, f_n = 1e6 1e-3^1.5 (1 + 0.375).
        assert_eq!(fmu.set_real(vr("frame_b.r_0[3]"), 0.1 - 1e-3), Status::Ok);
        assert_eq!(fmu.set_real(vr("frame_b.v_0[3]"), -1.0), Status::Ok);
        let (_, f_n) = fmu.get_real(vr("contact.normal_force"));
        let expected = 1e6 * 1e-3f64.powf(1.5) * (1.0 + 0.375);
        assert!((f_n - expected).abs() < 1e-9 * expected, "{version}: {f_n} vs {expected}");
        assert_eq!(fmu.completed_integrator_step(), (Status::Ok, false));

        // Stiction: sticking deflection reaches delta = 1e-4, Event Mode breaks away.
        let fmu = instances().into_iter().find(|(v, _)| *v == version).unwrap().1;
        let stiction = [
            (vr("geometry_b.shape"), 1.0),
            (vr("normal.law"), 1.0),
            (vr("normal.stiffness"), 1e6),
            (vr("friction.law"), 7.0),
            (vr("friction.mu_static"), 0.6),
            (vr("friction.mu_dynamic"), 0.4),
            (vr("friction.max_deformation"), 1e-4),
            (vr("frame_b.r_0[3]"), -1e-4),
            (vr("frame_b.v_0[1]"), 1.6e-3),
        ];
        fmu.initialized(&stiction);
        assert_eq!(fmu.get_nominals(NX).1, vec![1e-4; NX]);
        fmu.update_discrete_states();
        fmu.enter_continuous_time_mode();
        let mut x = vec![0.0; NX];
        x[0] = 0.5e-4;
        fmu.set_states(&x);
        let (_, z) = fmu.get_indicators(NZ);
        assert!((z[1] - 0.6 * 100.0 * 0.5).abs() < 1e-9, "{version}: {}", z[1]);
        assert_eq!(fmu.get_derivatives(NX).1[0], 1.6e-3);
        x[0] = 1e-4 * (1.0 + 1e-12);
        fmu.set_states(&x);
        assert!(fmu.get_indicators(NZ).1[1] < 0.0);
        fmu.enter_event_mode();
        assert_eq!(fmu.update_discrete_states(), (Status::Ok, true), "{version}: the deflection jumps to the slipping one");
        let (_, x) = fmu.get_states(NX);
        assert!((x[0] - 0.4 / 0.6 * 1e-4).abs() < 1e-18, "{version}: {}", x[0]);
        fmu.enter_continuous_time_mode();
        assert_eq!(fmu.get_derivatives(NX).1[0], 0.0, "{version}: slipping holds the deflection");
        let (_, friction) = fmu.get_real(vr("contact.friction_force"));
        assert!((friction - 40.0).abs() < 1e-9, "{version}: mu_d f_n: {friction}");
        assert!((fmu.get_indicators(NZ).1[1] + 40.0).abs() < 1e-9);
        // The slip turns: a step event realigns the deflection.
        fmu.set_real(vr("frame_b.v_0[2]"), 1e-3);
        assert_eq!(fmu.completed_integrator_step(), (Status::Ok, true), "{version}");
    }
}

#[test]
fn stateful_laws_on_pairs_with_more_points_than_slots_are_refused_at_initialisation() {
    for (version, fmu) in instances() {
        let boxes = [
            (vr("geometry_a.shape"), 3.0),
            (vr("geometry_a.size[1]"), 1.0),
            (vr("geometry_a.size[2]"), 1.0),
            (vr("geometry_a.size[3]"), 1.0),
            (vr("geometry_b.shape"), 4.0),
            (vr("geometry_b.radius"), 0.1),
            (vr("geometry_b.length"), 0.2),
            (vr("friction.law"), 6.0),
        ];
        assert_eq!(fmu.enter_initialization(), Status::Ok);
        for (vr, value) in boxes {
            assert_eq!(fmu.set_parameter(vr, value), Status::Ok);
        }
        assert_eq!(fmu.exit_initialization(), Status::Error, "{version}");
        assert!(
            fmu.logged("Model Exchange: normal.law = LinearSpringDamper and friction.law = ElasticCone keep a state per contact point, and geometry_a.shape = Box against geometry_b.shape = Cylinder can have"),
            "{version}: {:?}",
            fmu.messages()
        );
        // The same pair with stateless friction is fine.
        let fmu = instances().into_iter().find(|(v, _)| *v == version).unwrap().1;
        let mut stateless = boxes.to_vec();
        stateless.pop();
        fmu.initialized(&stateless);
    }
    // And co-simulation does not care.
    let cs = fmi2::Fmu::new(contact_force::fmi::fmi2::FMI2_CO_SIMULATION);
    cs.initialized(&[
        (vr("geometry_a.shape"), 3.0),
        (vr("geometry_a.size[1]"), 1.0),
        (vr("geometry_a.size[2]"), 1.0),
        (vr("geometry_a.size[3]"), 1.0),
        (vr("geometry_b.shape"), 4.0),
        (vr("geometry_b.radius"), 0.1),
        (vr("geometry_b.length"), 0.2),
        (vr("friction.law"), 6.0),
    ]);
}

#[test]
fn fmi3_counts_the_states_and_indicators() {
    let fmu = fmi3::Fmu::new();
    assert_eq!(fmu.counts(), (Status::Ok, NX, NZ));
}
