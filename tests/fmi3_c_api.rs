//! FMI 3.0 C API sequences, calling the exported functions directly as an importer would, with a
//! logger callback that records every message through the instance environment pointer.

use std::ffi::{c_char, c_int, c_void, CStr, CString};
use std::ptr::{null, null_mut};
use std::sync::Mutex;

use contact_force::fmi::fmi3::*;
use contact_force::fmi::status::Status;
use contact_force::variables;

/// (status, category, message) of every logged message.
type Log = Mutex<Vec<(i32, String, String)>>;

unsafe extern "C" fn record(env: *mut c_void, status: c_int, category: *const c_char, message: *const c_char) {
    // SAFETY: `env` is the `Log` the test passed at instantiation, alive as long as the instance;
    // the strings are valid NUL-terminated strings for the duration of the call.
    let (log, category, message) = unsafe { (&*env.cast::<Log>(), CStr::from_ptr(category), CStr::from_ptr(message)) };
    let entry = (status, category.to_string_lossy().into_owned(), message.to_string_lossy().into_owned());
    log.lock().unwrap().push(entry);
}

/// The value reference of a scalar, looked up by name in the variable table.
fn vr(name: &str) -> u32 {
    variables::scalars().iter().find(|s| s.name == name).unwrap_or_else(|| panic!("no variable {name}")).vr
}

/// The value references of `name[1]` .. `name[n]`.
fn vrs(name: &str, n: usize) -> Vec<u32> {
    (1..=n).map(|i| vr(&format!("{name}[{i}]"))).collect()
}

/// The token of ContactForceProvidedLaws (the same binary, every variable known): these tests
/// read every output, the point slots of the laws provided by input included.
fn token() -> CString {
    CString::new(variables::extension_token()).unwrap()
}

/// Relative comparison with an absolute floor for values that should be zero.
fn assert_close(actual: f64, expected: f64, what: &str) {
    let tolerance = 1e-12 * expected.abs().max(1e-9);
    assert!((actual - expected).abs() <= tolerance, "{what}: {actual} != {expected}");
}

/// One instance with its own message log; freed on drop.
struct Fmu {
    instance: Fmi3Instance,
    log: Box<Log>,
}

impl Fmu {
    fn with(name: &str, token: &CStr, event_mode_used: bool) -> Fmu {
        let log: Box<Log> = Box::default();
        let name = CString::new(name).unwrap();
        let env = (&*log as *const Log).cast_mut().cast::<c_void>();
        // SAFETY: valid C strings, a valid callback and an environment that outlives the instance.
        let instance = unsafe {
            fmi3InstantiateCoSimulation(
                name.as_ptr(),
                token.as_ptr(),
                null(),
                false,
                false,
                event_mode_used,
                false,
                null(),
                0,
                env,
                Some(record),
                None,
            )
        };
        Fmu { instance, log }
    }

    fn new() -> Fmu {
        let fmu = Fmu::with("contact", &token(), false);
        assert!(!fmu.instance.is_null(), "instantiation failed: {:?}", fmu.messages());
        fmu
    }

    /// A fresh instance through initialisation, in Step Mode at t = 0.
    fn initialized() -> Fmu {
        let fmu = Fmu::new();
        assert_eq!(fmu.enter_initialization(0.0), Status::Ok);
        assert_eq!(fmu.exit_initialization(), Status::Ok);
        fmu
    }

    fn messages(&self) -> Vec<String> {
        self.log.lock().unwrap().iter().map(|(_, _, m)| m.clone()).collect()
    }

    fn last_message(&self) -> String {
        self.messages().last().cloned().unwrap_or_default()
    }

    fn logged(&self, needle: &str) -> bool {
        self.messages().iter().any(|m| m.contains(needle))
    }

    fn enter_initialization(&self, start: f64) -> Status {
        // SAFETY: a live instance.
        unsafe { fmi3EnterInitializationMode(self.instance, false, 0.0, start, false, 0.0) }
    }

    fn exit_initialization(&self) -> Status {
        // SAFETY: a live instance.
        unsafe { fmi3ExitInitializationMode(self.instance) }
    }

    fn set_floats(&self, vrs: &[u32], values: &[f64]) -> Status {
        // SAFETY: slices of the given lengths.
        unsafe { fmi3SetFloat64(self.instance, vrs.as_ptr(), vrs.len(), values.as_ptr(), values.len()) }
    }

    fn set_float(&self, name: &str, value: f64) -> Status {
        self.set_floats(&[vr(name)], &[value])
    }

    fn try_get_floats(&self, vrs: &[u32]) -> (Status, Vec<f64>) {
        let mut values = vec![f64::NAN; vrs.len()];
        // SAFETY: slices of the given lengths.
        let status = unsafe { fmi3GetFloat64(self.instance, vrs.as_ptr(), vrs.len(), values.as_mut_ptr(), values.len()) };
        (status, values)
    }

    fn get_floats(&self, vrs: &[u32]) -> Vec<f64> {
        let (status, values) = self.try_get_floats(vrs);
        assert_eq!(status, Status::Ok, "{:?}", self.messages());
        values
    }

    fn get_float(&self, name: &str) -> f64 {
        self.get_floats(&[vr(name)])[0]
    }

    fn get_vector(&self, name: &str) -> [f64; 3] {
        self.get_floats(&vrs(name, 3)).try_into().unwrap()
    }

    /// Sets all 26 inputs in one call: the poses and twists of both frames.
    fn set_inputs(&self, r_b: [f64; 3], v_b: [f64; 3]) -> Status {
        let mut refs = Vec::new();
        let mut values = Vec::new();
        let frames: [(&str, [f64; 3], [f64; 3]); 2] = [("frame_a", [0.0; 3], [0.0; 3]), ("frame_b", r_b, v_b)];
        for (frame, r, v) in frames {
            refs.extend(vrs(&format!("{frame}.r_0"), 3));
            values.extend(r);
            refs.extend(vrs(&format!("{frame}.q"), 4));
            values.extend([1.0, 0.0, 0.0, 0.0]);
            refs.extend(vrs(&format!("{frame}.v_0"), 3));
            values.extend(v);
            refs.extend(vrs(&format!("{frame}.w_0"), 3));
            values.extend([0.0; 3]);
        }
        assert_eq!(refs.len(), 26);
        self.set_floats(&refs, &values)
    }

    /// DoStep, returning the status and the four output arguments.
    fn do_step(&self, t: f64, h: f64) -> (Status, [bool; 3], f64) {
        let (mut event, mut terminate, mut early, mut last) = (true, true, true, f64::NAN);
        // SAFETY: a live instance and four writable outputs.
        let status = unsafe { fmi3DoStep(self.instance, t, h, false, &mut event, &mut terminate, &mut early, &mut last) };
        (status, [event, terminate, early], last)
    }

    /// Every output of type Float64, for comparing two runs bit for bit.
    fn float_outputs(&self) -> Vec<f64> {
        let refs: Vec<u32> = variables::scalars()
            .iter()
            .filter(|s| s.causality() == variables::Causality::Output && matches!(s.variable.ty, variables::ValueType::Float64 { .. }))
            .map(|s| s.vr)
            .collect();
        self.get_floats(&refs)
    }
}

impl Drop for Fmu {
    fn drop(&mut self) {
        // SAFETY: the instance (or null) from fmi3InstantiateCoSimulation, freed once.
        unsafe { fmi3FreeInstance(self.instance) };
    }
}

/// The sliding-sphere case: sphere of radius 0.1 at height 0.099 above the default plane, moving
/// with (0.2, 0, -0.5) m/s.
const R_B: [f64; 3] = [0.0, 0.0, 0.099];
const V_B: [f64; 3] = [0.2, 0.0, -0.5];

#[test]
fn version_is_3_0() {
    // SAFETY: a static C string.
    assert_eq!(unsafe { CStr::from_ptr(fmi3GetVersion()) }.to_str().unwrap(), "3.0");
}

#[test]
fn full_cycle_gives_the_closed_form_force_of_a_sliding_sphere_on_the_plane() {
    let fmu = Fmu::initialized();
    assert_eq!(fmu.set_inputs(R_B, V_B), Status::Ok);
    let (status, flags, last) = fmu.do_step(0.0, 1e-3);
    assert_eq!(status, Status::Ok, "{:?}", fmu.messages());
    assert_eq!(flags, [false, false, false]);
    assert_eq!(last, 1e-3);

    // Defaults: LinearSpringDamper k = 1e6 N/m, b = 1e3 N.s/m; Tanh mu = 0.3, gain 1e3 s/m.
    let (k, b, mu, gain) = (1e6, 1e3, 0.3, 1e3);
    let depth = 0.1 - 0.099;
    let depth_rate = 0.5;
    let slip = 0.2;
    let f_n = k * depth + b * depth_rate;
    let f_t = -mu * f64::tanh(gain * slip) * f_n;

    let f_b = fmu.get_vector("frame_b.f_0");
    let f_a = fmu.get_vector("frame_a.f_0");
    assert_close(f_b[0], f_t, "frame_b.f_0[1]");
    assert_close(f_b[1], 0.0, "frame_b.f_0[2]");
    assert_close(f_b[2], f_n, "frame_b.f_0[3]");
    for i in 0..3 {
        assert_eq!(f_a[i], -f_b[i], "frame_a.f_0[{}] = -frame_b.f_0[{}]", i + 1, i + 1);
    }
    assert_close(fmu.get_float("contact.normal_force"), f_n, "contact.normal_force");
    assert_close(fmu.get_float("contact.friction_force"), f_t.abs(), "contact.friction_force");
    assert_close(fmu.get_float("contact.separation"), -depth, "contact.separation");
    assert_close(fmu.get_float("contact.slip_speed"), slip, "contact.slip_speed");
    assert_eq!(fmu.get_vector("contact.n_0"), [0.0, 0.0, 1.0]);

    // The force acts midway between the witnesses (0, 0, 0) on the plane and (0, 0, -d) on the
    // sphere; torques are about each frame's origin.
    let p = fmu.get_vector("contact.p_0");
    assert_close(p[2], -depth / 2.0, "contact.p_0[3]");
    let t_b = fmu.get_vector("frame_b.t_0");
    let t_a = fmu.get_vector("frame_a.t_0");
    assert_close(t_b[1], (p[2] - R_B[2]) * f_t, "frame_b.t_0[2]");
    assert_close(t_a[1], p[2] * -f_t, "frame_a.t_0[2]");
    for (t, name) in [(t_a, "frame_a.t_0"), (t_b, "frame_b.t_0")] {
        assert_close(t[0], 0.0, &format!("{name}[1]"));
        assert_close(t[2], 0.0, &format!("{name}[3]"));
    }

    let points = vr("contact.points");
    let mut n_points = -1;
    // SAFETY: one value reference, one value.
    assert_eq!(unsafe { fmi3GetInt32(fmu.instance, &points, 1, &mut n_points, 1) }, Status::Ok);
    assert_eq!(n_points, 1);
    let active = vr("contact.active");
    let mut is_active = false;
    // SAFETY: one value reference, one value.
    assert_eq!(unsafe { fmi3GetBoolean(fmu.instance, &active, 1, &mut is_active, 1) }, Status::Ok);
    assert!(is_active);

    // A second step continues from the end of the first; then terminate, read, free.
    let (status, _, last) = fmu.do_step(1e-3, 1e-3);
    assert_eq!(status, Status::Ok);
    assert_eq!(last, 2e-3);
    assert_eq!(fmu.get_float("time"), 2e-3);
    // SAFETY: a live instance.
    assert_eq!(unsafe { fmi3Terminate(fmu.instance) }, Status::Ok);
    assert_close(fmu.get_float("contact.normal_force"), f_n, "contact.normal_force after Terminate");
    let complaints: Vec<_> = fmu.log.lock().unwrap().iter().filter(|(status, _, _)| *status != Status::Ok as i32).cloned().collect();
    assert!(complaints.is_empty(), "{complaints:?}");
}

#[test]
fn illegal_call_sequences_are_refused_and_logged() {
    let fmu = Fmu::new();
    let (status, _, _) = fmu.do_step(0.0, 1e-3);
    assert_eq!(status, Status::Error);
    assert!(fmu.last_message().contains("fmi3DoStep: Illegal call sequence"), "{:?}", fmu.messages());
    let (status, _) = fmu.try_get_floats(&[vr("contact.normal_force")]);
    assert_eq!(status, Status::Error);
    assert!(fmu.last_message().contains("fmi3GetFloat64: Illegal call sequence"));
    assert_eq!(fmu.exit_initialization(), Status::Error);
    assert!(fmu.last_message().contains("Illegal call sequence"));
    // SAFETY: a live instance.
    assert_eq!(unsafe { fmi3Terminate(fmu.instance) }, Status::Error);
    assert!(fmu.last_message().contains("fmi3Terminate: Illegal call sequence"));
    let (status, category, _) = fmu.log.lock().unwrap().last().cloned().unwrap();
    assert_eq!((status, category.as_str()), (Status::Error as i32, "logStatusError"));

    // An illegal call does not change the state: the normal sequence still works.
    assert_eq!(fmu.enter_initialization(0.0), Status::Ok);
    assert_eq!(fmu.enter_initialization(0.0), Status::Error);
    assert!(fmu.last_message().contains("fmi3EnterInitializationMode: Illegal call sequence"));
    assert_eq!(fmu.exit_initialization(), Status::Ok);

    // A fixed parameter after initialisation: refused by the variable table, named.
    assert_eq!(fmu.set_float("normal.stiffness", 2e6), Status::Error);
    let message = fmu.last_message();
    assert!(message.contains("normal.stiffness") && message.contains("fixed parameter"), "{message}");
}

#[test]
fn null_pointers_counts_and_unknown_references_are_errors_with_messages() {
    let one = [vr("frame_b.r_0[1]")];
    let mut value = [0.0];
    // SAFETY: null instances are answered before any dereference.
    unsafe {
        assert_eq!(fmi3GetFloat64(null_mut(), one.as_ptr(), 1, value.as_mut_ptr(), 1), Status::Error);
        assert_eq!(fmi3SetFloat64(null_mut(), one.as_ptr(), 1, value.as_ptr(), 1), Status::Error);
        assert_eq!(fmi3EnterInitializationMode(null_mut(), false, 0.0, 0.0, false, 0.0), Status::Error);
        assert_eq!(fmi3Reset(null_mut()), Status::Error);
        assert_eq!(fmi3EnterEventMode(null_mut()), Status::Error);
        fmi3FreeInstance(null_mut());
    }

    // Null value array with n > 0.
    let fmu = Fmu::initialized();
    // SAFETY: the null array is detected before use.
    assert_eq!(unsafe { fmi3SetFloat64(fmu.instance, one.as_ptr(), 1, null(), 1) }, Status::Error);
    assert!(fmu.last_message().contains("values is a null pointer"), "{:?}", fmu.messages());
    // Getters still work in the Error state.
    let fmu = Fmu::initialized();
    // SAFETY: the null array is detected before use.
    assert_eq!(unsafe { fmi3GetFloat64(fmu.instance, one.as_ptr(), 1, null_mut(), 1) }, Status::Error);
    assert!(fmu.last_message().contains("values is a null pointer"));
    // SAFETY: the null array is detected before use.
    assert_eq!(unsafe { fmi3GetFloat64(fmu.instance, null(), 1, value.as_mut_ptr(), 1) }, Status::Error);
    assert!(fmu.last_message().contains("valueReferences is a null pointer"));
    // Zero value references: nothing to do, null arrays allowed.
    // SAFETY: nothing is read or written for n = 0.
    assert_eq!(unsafe { fmi3GetFloat64(fmu.instance, null(), 0, null_mut(), 0) }, Status::Ok);

    // nValues must equal nValueReferences.
    let fmu = Fmu::initialized();
    let mut two = [0.0; 2];
    // SAFETY: arrays of the lengths given (2 values for 1 reference).
    assert_eq!(unsafe { fmi3GetFloat64(fmu.instance, one.as_ptr(), 1, two.as_mut_ptr(), 2) }, Status::Error);
    let message = fmu.last_message();
    assert!(message.contains("nValues = 2") && message.contains("nValueReferences = 1"), "{message}");
    let fmu = Fmu::initialized();
    // SAFETY: arrays of the lengths given.
    assert_eq!(unsafe { fmi3SetFloat64(fmu.instance, one.as_ptr(), 1, two.as_ptr(), 2) }, Status::Error);
    assert!(fmu.last_message().contains("nValues = 2"));

    // Unknown value references and wrong types.
    let fmu = Fmu::initialized();
    let (status, _) = fmu.try_get_floats(&[99_999]);
    assert_eq!(status, Status::Error);
    assert!(fmu.last_message().contains("unknown value reference 99999"), "{:?}", fmu.messages());
    let (status, _) = fmu.try_get_floats(&[vr("contact.points")]);
    assert_eq!(status, Status::Error);
    assert!(fmu.last_message().contains("contact.points is of type Int32, not Float64"));

    // Types the FMU has no variables of.
    let fmu = Fmu::initialized();
    let mut f32_value = [0.0f32];
    // SAFETY: arrays of the lengths given.
    unsafe {
        assert_eq!(fmi3GetFloat32(fmu.instance, null(), 0, null_mut(), 0), Status::Ok);
        assert_eq!(fmi3GetFloat32(fmu.instance, vrs("frame_a.r_0", 1).as_ptr(), 1, f32_value.as_mut_ptr(), 1), Status::Error);
    }
    assert_eq!(fmu.last_message(), "fmi3GetFloat32: variable frame_a.r_0[1] (vr 1) is of type Float64, not Float32");
    let mut u64_value = [0u64];
    // SAFETY: arrays of the lengths given.
    assert_eq!(unsafe { fmi3GetUInt64(fmu.instance, [99_999].as_ptr(), 1, u64_value.as_mut_ptr(), 1) }, Status::Error);
    assert_eq!(fmu.last_message(), "fmi3GetUInt64: unknown value reference 99999");
    let mut clock = [false];
    // SAFETY: arrays of the lengths given.
    assert_eq!(unsafe { fmi3GetClock(fmu.instance, [vr("contact.active")].as_ptr(), 1, clock.as_mut_ptr()) }, Status::Error);
    assert!(fmu.last_message().contains("contact.active (vr 112) is of type Boolean, not Clock"));
}

#[test]
fn a_non_finite_input_is_refused_by_name_and_the_old_value_kept() {
    let fmu = Fmu::initialized();
    assert_eq!(fmu.set_inputs(R_B, V_B), Status::Ok);
    assert_eq!(fmu.set_float("frame_b.r_0[3]", f64::NAN), Status::Error);
    let message = fmu.last_message();
    assert!(message.contains("frame_b.r_0[3]") && message.contains("finite"), "{message}");
    // The instance is in the Error state: getters work and show the old value, setters do not.
    assert_eq!(fmu.get_float("frame_b.r_0[3]"), 0.099);
    assert_eq!(fmu.set_float("frame_b.r_0[3]", 0.05), Status::Error);
    assert!(fmu.last_message().contains("Illegal call sequence"));
    assert_eq!(fmu.get_float("frame_b.r_0[3]"), 0.099);
}

#[test]
fn a_non_finite_result_discards_the_step_and_stays_in_step_mode() {
    let fmu = Fmu::initialized();
    assert_eq!(fmu.set_inputs(R_B, [0.0, 0.0, -1e308]), Status::Ok);
    let (status, flags, last) = fmu.do_step(0.0, 1e-3);
    assert_eq!(status, Status::Discard, "{:?}", fmu.messages());
    assert_eq!(flags, [false, false, false]);
    assert_eq!(last, 0.0);
    assert!(fmu.logged("not finite"));
    // Still in Step Mode: the importer can change the inputs and redo the step from t = 0.
    assert_eq!(fmu.set_inputs(R_B, V_B), Status::Ok);
    let (status, _, last) = fmu.do_step(0.0, 1e-3);
    assert_eq!(status, Status::Ok, "{:?}", fmu.messages());
    assert_eq!(last, 1e-3);
}

#[test]
fn do_step_refuses_bad_step_sizes_wrong_times_and_null_outputs() {
    let fmu = Fmu::initialized();
    assert_eq!(fmu.do_step(0.0, 0.0).0, Status::Error);
    assert!(fmu.last_message().contains("communicationStepSize = 0 must be > 0"), "{:?}", fmu.messages());
    let fmu = Fmu::initialized();
    assert_eq!(fmu.do_step(0.0, -1e-3).0, Status::Error);
    let fmu = Fmu::initialized();
    assert_eq!(fmu.do_step(0.5, 1e-3).0, Status::Error);
    assert!(fmu.last_message().contains("currentCommunicationPoint = 0.5 does not match"));
    let fmu = Fmu::initialized();
    let (mut a, mut b, mut c, mut t) = (false, false, false, 0.0);
    // SAFETY: the null output is detected before any write.
    unsafe {
        assert_eq!(fmi3DoStep(fmu.instance, 0.0, 1e-3, false, &mut a, &mut b, null_mut(), &mut t), Status::Error);
    }
    assert!(fmu.last_message().contains("earlyReturn is a null pointer"));
    let fmu = Fmu::initialized();
    // SAFETY: as above.
    unsafe {
        assert_eq!(fmi3DoStep(fmu.instance, 0.0, 1e-3, false, &mut a, &mut b, &mut c, null_mut()), Status::Error);
    }
    assert!(fmu.last_message().contains("lastSuccessfulTime is a null pointer"));
}

#[test]
fn fmu_state_get_set_serialize_deserialize_round_trips() {
    let fmu = Fmu::initialized();
    assert_eq!(fmu.set_inputs(R_B, V_B), Status::Ok);
    assert_eq!(fmu.do_step(0.0, 1e-3).0, Status::Ok);
    let expected = fmu.float_outputs();

    let mut state: Fmi3FmuState = null_mut();
    let mut size = 0usize;
    // SAFETY: a live instance and writable outputs; the state is freed below.
    unsafe {
        assert_eq!(fmi3GetFMUState(fmu.instance, &mut state), Status::Ok);
        assert!(!state.is_null());
        assert_eq!(fmi3SerializedFMUStateSize(fmu.instance, state, &mut size), Status::Ok);
    }
    let mut bytes = vec![0u8; size];
    // SAFETY: `bytes` holds `size` bytes.
    assert_eq!(unsafe { fmi3SerializeFMUState(fmu.instance, state, bytes.as_mut_ptr(), size) }, Status::Ok);

    // Move on: other inputs, another step.
    assert_eq!(fmu.set_inputs([0.0, 0.0, 0.095], [0.0, 0.1, 0.3]), Status::Ok);
    assert_eq!(fmu.do_step(1e-3, 1e-3).0, Status::Ok);
    assert_ne!(fmu.float_outputs(), expected);

    // SAFETY: `state` made by fmi3GetFMUState on this library.
    assert_eq!(unsafe { fmi3SetFMUState(fmu.instance, state) }, Status::Ok);
    assert_eq!(fmu.float_outputs(), expected);
    assert_eq!(fmu.get_float("time"), 1e-3);
    // The restored instance continues from the saved time.
    assert_eq!(fmu.do_step(1e-3, 1e-3).0, Status::Ok);

    // Deserialised into another instance: identical outputs.
    let other = Fmu::new();
    let mut restored: Fmi3FmuState = null_mut();
    // SAFETY: `bytes` holds `size` bytes; `restored` is freed below.
    unsafe {
        assert_eq!(fmi3DeserializeFMUState(other.instance, bytes.as_ptr(), size, &mut restored), Status::Ok);
        assert_eq!(fmi3SetFMUState(other.instance, restored), Status::Ok);
    }
    assert_eq!(other.float_outputs(), expected);
    assert_eq!(other.do_step(1e-3, 1e-3).0, Status::Ok, "{:?}", other.messages());

    // Getting a state into an existing one overwrites it in place.
    let previous = state;
    // SAFETY: `state` is a live state of this library.
    assert_eq!(unsafe { fmi3GetFMUState(fmu.instance, &mut state) }, Status::Ok);
    assert_eq!(state, previous);

    // SAFETY: both states made here, each freed once; the pointer is nulled.
    unsafe {
        assert_eq!(fmi3FreeFMUState(fmu.instance, &mut state), Status::Ok);
        assert!(state.is_null());
        assert_eq!(fmi3FreeFMUState(other.instance, &mut restored), Status::Ok);
        assert_eq!(fmi3FreeFMUState(other.instance, &mut restored), Status::Ok, "freeing null is a no-op");
    }

    // Garbage and damaged bytes are refused.
    let garbage = b"certainly not a serialized FMU state";
    let mut none: Fmi3FmuState = null_mut();
    // SAFETY: `garbage` holds its length in bytes.
    assert_eq!(unsafe { fmi3DeserializeFMUState(fmu.instance, garbage.as_ptr(), garbage.len(), &mut none) }, Status::Error);
    assert!(none.is_null());
    assert!(fmu.last_message().contains("fmi3DeserializeFMUState"), "{:?}", fmu.messages());
    let other = Fmu::new();
    bytes[size / 2] ^= 0x10;
    // SAFETY: `bytes` holds `size` bytes.
    assert_eq!(unsafe { fmi3DeserializeFMUState(other.instance, bytes.as_ptr(), size, &mut none) }, Status::Error);
    assert!(none.is_null());
}

#[test]
fn variable_communication_step_sizes_are_taken_and_reported_exactly() {
    // canHandleVariableCommunicationStepSize = true: steps of any size follow each other, each
    // reports its end as lastSuccessfulTime, and the outputs (direct feedthrough of the held
    // inputs) are those of a fresh instance at the same inputs, whatever steps led there.
    let fmu = Fmu::initialized();
    assert_eq!(fmu.set_inputs(R_B, V_B), Status::Ok);
    let mut t = 0.0;
    for h in [1e-3, 2.5e-3, 1e-6, 0.1, 3.7e-4, 1.0] {
        let (status, flags, last) = fmu.do_step(t, h);
        assert_eq!((status, flags), (Status::Ok, [false; 3]), "h = {h}: {:?}", fmu.messages());
        assert_eq!(last, t + h);
        t = last;
        assert_eq!(fmu.get_float("time"), t);
    }
    let reference = Fmu::initialized();
    assert_eq!(reference.set_inputs(R_B, V_B), Status::Ok);
    assert_eq!(fmu.float_outputs(), reference.float_outputs());
    // A stateful law sub-steps each step by solver.max_step, also for steps of different sizes.
    let cone = Fmu::new();
    // SAFETY: one reference, one value.
    assert_eq!(unsafe { fmi3SetInt64(cone.instance, &vr("friction.law"), 1, &6, 1) }, Status::Ok);
    assert_eq!(cone.set_float("solver.max_step", 1e-4), Status::Ok);
    assert_eq!(cone.enter_initialization(0.0), Status::Ok);
    assert_eq!(cone.exit_initialization(), Status::Ok);
    assert_eq!(cone.set_inputs(R_B, V_B), Status::Ok);
    let mut t = 0.0;
    for h in [1e-4, 3.5e-4, 5e-5, 1e-3] {
        let (status, _, last) = cone.do_step(t, h);
        assert_eq!((status, last), (Status::Ok, t + h), "{:?}", cone.messages());
        t = last;
        assert!(cone.float_outputs().iter().all(|x| x.is_finite()));
    }
}

#[test]
fn reset_then_reinitialise_matches_a_fresh_instance() {
    let fresh = Fmu::initialized();
    assert_eq!(fresh.set_inputs(R_B, V_B), Status::Ok);
    assert_eq!(fresh.do_step(0.0, 1e-3).0, Status::Ok);
    let expected = fresh.float_outputs();

    // A used instance: other parameters, other start time, stepped, terminated.
    let used = Fmu::new();
    assert_eq!(used.set_float("normal.stiffness", 3e6), Status::Ok);
    assert_eq!(used.set_float("friction.mu_dynamic", 0.1), Status::Ok);
    assert_eq!(used.enter_initialization(5.0), Status::Ok);
    assert_eq!(used.exit_initialization(), Status::Ok);
    assert_eq!(used.set_inputs(R_B, V_B), Status::Ok);
    assert_eq!(used.do_step(5.0, 1e-3).0, Status::Ok);
    assert_ne!(used.float_outputs(), expected);
    // SAFETY: a live instance.
    unsafe {
        assert_eq!(fmi3Terminate(used.instance), Status::Ok);
        assert_eq!(fmi3Reset(used.instance), Status::Ok);
    }
    assert_eq!(used.enter_initialization(0.0), Status::Ok);
    assert_eq!(used.get_float("normal.stiffness"), 1e6);
    assert_eq!(used.exit_initialization(), Status::Ok);
    assert_eq!(used.set_inputs(R_B, V_B), Status::Ok);
    assert_eq!(used.do_step(0.0, 1e-3).0, Status::Ok);
    assert_eq!(used.float_outputs(), expected);

    // Reset also leads out of the Error state.
    assert_eq!(used.set_float("frame_b.r_0[1]", f64::INFINITY), Status::Error);
    // SAFETY: a live instance.
    assert_eq!(unsafe { fmi3Reset(used.instance) }, Status::Ok);
    assert_eq!(used.enter_initialization(0.0), Status::Ok);
}

#[test]
fn instantiation_refuses_a_wrong_token_and_other_interfaces() {
    let wrong = CString::new("{00000000-0000-0000-0000-000000000000}").unwrap();
    let fmu = Fmu::with("wrong token", &wrong, false);
    assert!(fmu.instance.is_null());
    let message = fmu.last_message();
    assert!(message.contains("instantiationToken") && message.contains("does not match"), "{message}");

    // A null instance name.
    let log: Box<Log> = Box::default();
    let env = (&*log as *const Log).cast_mut().cast::<c_void>();
    let token = token();
    // SAFETY: valid strings or null, a valid callback and environment.
    let instance = unsafe {
        fmi3InstantiateCoSimulation(null(), token.as_ptr(), null(), false, false, false, false, null(), 0, env, Some(record), None)
    };
    assert!(instance.is_null());
    assert!(log.lock().unwrap().iter().any(|(_, _, m)| m.contains("instanceName is a null pointer")));

    // Scheduled Execution is not provided; Model Exchange checks the token as co-simulation does
    // (the rest of it: tests/model_exchange_c_api.rs).
    let name = CString::new("me").unwrap();
    let wrong = CString::new("{00000000-0000-0000-0000-000000000000}").unwrap();
    // SAFETY: valid strings, callback and environment.
    unsafe {
        assert!(fmi3InstantiateModelExchange(name.as_ptr(), wrong.as_ptr(), null(), false, false, env, Some(record)).is_null());
        assert!(fmi3InstantiateScheduledExecution(name.as_ptr(), token.as_ptr(), null(), false, false, env, Some(record), None, None, None)
            .is_null());
    }
    let messages: Vec<String> = log.lock().unwrap().iter().map(|(_, _, m)| m.clone()).collect();
    assert!(messages.iter().any(|m| m.contains("fmi3InstantiateModelExchange") && m.contains("does not match")), "{messages:?}");
    assert!(messages.iter().any(|m| m.contains("fmi3InstantiateScheduledExecution") && m.contains("co-simulation FMU")));

    // eventModeUsed: the FMU has Event Mode (hasEventMode), which initialisation ends in;
    // tests/fmi3_early_return.rs follows its state machine.
    let fmu = Fmu::with("event mode", &token, true);
    assert!(!fmu.instance.is_null());
    assert!(fmu.messages().is_empty(), "{:?}", fmu.messages());
    assert_eq!(fmu.enter_initialization(0.0), Status::Ok);
    assert_eq!(fmu.exit_initialization(), Status::Ok);
    // SAFETY: a live instance.
    assert_eq!(unsafe { fmi3EnterStepMode(fmu.instance) }, Status::Ok);
    assert_eq!(fmu.do_step(0.0, 1e-3).0, Status::Ok);
}

#[test]
fn enumerations_integers_booleans_and_strings_have_their_own_accessors() {
    let fmu = Fmu::new();
    let shape = vr("geometry_b.shape");
    let point = 1i64;
    // SAFETY: one reference, one value.
    assert_eq!(unsafe { fmi3SetInt64(fmu.instance, &shape, 1, &point, 1) }, Status::Ok);
    let not_an_item = 99i64;
    // SAFETY: one reference, one value.
    assert_eq!(unsafe { fmi3SetInt64(fmu.instance, &shape, 1, &not_an_item, 1) }, Status::Error);
    let message = fmu.last_message();
    assert!(message.contains("geometry_b.shape = 99") && message.contains("not an item"), "{message}");
    // SAFETY: a live instance (in the Error state after the refusal).
    assert_eq!(unsafe { fmi3Reset(fmu.instance) }, Status::Ok);

    // SAFETY: one reference, one value.
    assert_eq!(unsafe { fmi3SetInt64(fmu.instance, &shape, 1, &point, 1) }, Status::Ok);
    let file = vr("geometry_a.file");
    let path = CString::new("meshes/ground plate.obj").unwrap();
    let path_ptr = path.as_ptr();
    // SAFETY: one reference, one C string.
    assert_eq!(unsafe { fmi3SetString(fmu.instance, &file, 1, &path_ptr, 1) }, Status::Ok);
    assert_eq!(fmu.enter_initialization(0.0), Status::Ok);
    let mut read = 0i64;
    // SAFETY: one reference, one value.
    assert_eq!(unsafe { fmi3GetInt64(fmu.instance, &shape, 1, &mut read, 1) }, Status::Ok);
    assert_eq!(read, point);
    let mut text: Fmi3String = null();
    // SAFETY: one reference, one value; the string is read before the next call.
    unsafe {
        assert_eq!(fmi3GetString(fmu.instance, &file, 1, &mut text, 1), Status::Ok);
        assert_eq!(CStr::from_ptr(text), path.as_c_str());
    }

    // Enumerations are Int64 in FMI 3, not Int32; Int32 is for contact.points.
    let mut wrong = 0i32;
    // SAFETY: one reference, one value.
    assert_eq!(unsafe { fmi3GetInt32(fmu.instance, &shape, 1, &mut wrong, 1) }, Status::Error);
    assert!(fmu.last_message().contains("geometry_b.shape is of type Enumeration, not Int32"), "{:?}", fmu.messages());

    // Outputs of the other types, for a point resting 1 mm deep in the plane.
    let fmu = Fmu::new();
    // SAFETY: one reference, one value.
    assert_eq!(unsafe { fmi3SetInt64(fmu.instance, &shape, 1, &point, 1) }, Status::Ok);
    assert_eq!(fmu.enter_initialization(0.0), Status::Ok);
    assert_eq!(fmu.exit_initialization(), Status::Ok);
    assert_eq!(fmu.set_inputs([0.0, 0.0, -1e-3], [0.0; 3]), Status::Ok);
    let refs = [vr("contact.active"), vr("contact.sticking")];
    let mut flags = [false, true];
    // SAFETY: two references, two values.
    assert_eq!(unsafe { fmi3GetBoolean(fmu.instance, refs.as_ptr(), 2, flags.as_mut_ptr(), 2) }, Status::Ok);
    assert_eq!(flags, [true, false]);
    let points = vr("contact.points");
    let mut n = 0i32;
    // SAFETY: one reference, one value.
    assert_eq!(unsafe { fmi3GetInt32(fmu.instance, &points, 1, &mut n, 1) }, Status::Ok);
    assert_eq!(n, 1);
    assert_close(fmu.get_float("contact.normal_force"), 1e6 * 1e-3, "contact.normal_force");
    // Booleans as the importer's bytes: any non-zero byte is true (none are settable here).
    let bytes = [2u8];
    // SAFETY: one reference and one byte read as a Boolean.
    assert_eq!(unsafe { fmi3SetBoolean(fmu.instance, &refs[0], 1, bytes.as_ptr().cast(), 1) }, Status::Error);
    assert!(fmu.last_message().contains("contact.active cannot be set: it is an output"));
}

#[test]
fn debug_logging_refuses_unknown_categories() {
    let fmu = Fmu::new();
    let known = CString::new("logEvents").unwrap();
    let unknown = CString::new("logEverything").unwrap();
    let categories = [known.as_ptr()];
    // SAFETY: one C string.
    assert_eq!(unsafe { fmi3SetDebugLogging(fmu.instance, true, 1, categories.as_ptr()) }, Status::Ok);
    // No categories: all of them. With logging off even the refusal of a bad category is silent.
    let categories = [known.as_ptr(), unknown.as_ptr()];
    // SAFETY: zero or two C strings.
    unsafe {
        assert_eq!(fmi3SetDebugLogging(fmu.instance, false, 0, null()), Status::Ok);
        assert_eq!(fmi3SetDebugLogging(fmu.instance, true, 2, categories.as_ptr()), Status::Error);
    }
    assert!(fmu.messages().is_empty(), "{:?}", fmu.messages());
    // The refusal changed nothing, and it is logged once logging is on again.
    // SAFETY: zero or two C strings.
    unsafe {
        assert_eq!(fmi3SetDebugLogging(fmu.instance, true, 0, null()), Status::Ok);
        assert_eq!(fmi3SetDebugLogging(fmu.instance, true, 2, categories.as_ptr()), Status::Error);
    }
    let message = fmu.last_message();
    assert!(message.contains("fmi3SetDebugLogging: unknown log category \"logEverything\""), "{message}");
}

#[test]
fn variable_dependencies_come_from_the_table() {
    let fmu = Fmu::new();
    let count = |name: &str| {
        let mut n = usize::MAX;
        // SAFETY: a live instance and a writable count.
        let status = unsafe { fmi3GetNumberOfVariableDependencies(fmu.instance, vr(name), &mut n) };
        assert_eq!(status, Status::Ok, "{name}: {:?}", fmu.messages());
        n
    };
    // Every input (the frames' 26, the 24 forces of the laws provided by input and the bodies'
    // 2 x 21 mobilities) and the 24 continuous states of Model Exchange (the point slots'
    // deflections).
    assert_eq!(count("frame_b.f_0[1]"), 26 + 24 + 42 + 24);
    assert_eq!(count("contact.active"), 26 + 24 + 42 + 24);
    // What a provided law reads depends on the frames only.
    assert_eq!(count("contact.point[3].depth_rate"), 26);
    assert_eq!(count("contact.point[3].depth"), 14);
    assert_eq!(count("contact.separation"), 14);
    assert_eq!(count("contact.n_0[3]"), 14);
    assert_eq!(count("normal.stiffness"), 0);
    assert_eq!(count("frame_a.r_0[1]"), 0);
    assert_eq!(count("contact.point[2].normal_force"), 26 + 1);

    // An instance of ContactForce (its own token) knows no provided force: the forces depend on
    // the frames' 26 inputs and the states, a point's normal force on the frames alone.
    let plain = Fmu::with("plain", &CString::new(variables::instantiation_token()).unwrap(), false);
    let plain_count = |name: &str| {
        let mut n = usize::MAX;
        // SAFETY: a live instance and a writable count.
        let status = unsafe { fmi3GetNumberOfVariableDependencies(plain.instance, vr(name), &mut n) };
        assert_eq!(status, Status::Ok, "{name}: {:?}", plain.messages());
        n
    };
    assert_eq!(plain_count("frame_b.f_0[1]"), 26 + 24);
    assert_eq!(plain_count("contact.point[2].normal_force"), 26);

    // The 14 dependencies of the separation: the positions and orientations of both frames.
    let separation = vr("contact.separation");
    let mut dependent_elements = [usize::MAX; 14];
    let mut independents = [0u32; 14];
    let mut independent_elements = [usize::MAX; 14];
    let mut kinds = [0; 14];
    // SAFETY: four arrays of 14 elements.
    let status = unsafe {
        fmi3GetVariableDependencies(
            fmu.instance,
            separation,
            dependent_elements.as_mut_ptr(),
            independents.as_mut_ptr(),
            independent_elements.as_mut_ptr(),
            kinds.as_mut_ptr(),
            14,
        )
    };
    assert_eq!(status, Status::Ok, "{:?}", fmu.messages());
    let mut expected = vrs("frame_a.r_0", 3);
    expected.extend(vrs("frame_a.q", 4));
    expected.extend(vrs("frame_b.r_0", 3));
    expected.extend(vrs("frame_b.q", 4));
    assert_eq!(independents.to_vec(), expected);
    assert_eq!(dependent_elements, [0; 14]);
    assert_eq!(independent_elements, [0; 14]);
    assert_eq!(kinds, [FMI3_DEPENDENT; 14]);

    // A wrong count and an unknown value reference are errors.
    // SAFETY: arrays of at least the length given.
    let status = unsafe {
        fmi3GetVariableDependencies(
            fmu.instance,
            separation,
            dependent_elements.as_mut_ptr(),
            independents.as_mut_ptr(),
            independent_elements.as_mut_ptr(),
            kinds.as_mut_ptr(),
            13,
        )
    };
    assert_eq!(status, Status::Error);
    assert!(fmu.last_message().contains("nDependencies = 13, but contact.separation"), "{:?}", fmu.messages());
    let mut n = 0;
    // SAFETY: a writable count.
    assert_eq!(unsafe { fmi3GetNumberOfVariableDependencies(fmu.instance, 99_999, &mut n) }, Status::Error);
    assert!(fmu.last_message().contains("unknown value reference 99999"));
}

#[test]
fn functions_the_fmu_does_not_provide_log_why_and_keep_the_state() {
    let fmu = Fmu::initialized();
    let mut n = 0usize;
    // SAFETY: a live instance; the unsupported functions read none of their other arguments.
    unsafe {
        assert_eq!(fmi3EnterEventMode(fmu.instance), Status::Error);
        assert!(fmu.last_message().contains("eventModeUsed = false"), "{}", fmu.last_message());
        assert_eq!(fmi3EnterStepMode(fmu.instance), Status::Error);
        assert_eq!(fmi3EnterConfigurationMode(fmu.instance), Status::Error);
        assert!(fmu.last_message().contains("no structural parameters"));
        assert_eq!(fmi3GetIntervalDecimal(fmu.instance, null(), 0, null_mut(), null_mut()), Status::Error);
        assert!(fmu.last_message().contains("no clocks"));
        assert_eq!(fmi3ActivateModelPartition(fmu.instance, 0, 0.0), Status::Error);
        assert_eq!(fmi3GetNumberOfContinuousStates(fmu.instance, &mut n), Status::Error);
        assert_eq!(
            fmu.last_message(),
            "fmi3GetNumberOfContinuousStates: not supported: the instance was instantiated for co-simulation; the Model Exchange \
             functions need an instance instantiated for Model Exchange"
        );
        assert_eq!(fmi3SetTime(fmu.instance, 0.0), Status::Error);
    }
    // None of these moved the instance out of Step Mode.
    assert_eq!(fmu.set_inputs(R_B, V_B), Status::Ok);
    assert_eq!(fmu.do_step(0.0, 1e-3).0, Status::Ok, "{:?}", fmu.messages());
}
