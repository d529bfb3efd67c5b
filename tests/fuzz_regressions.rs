//! What the `c_api` fuzz target (fuzz/README.md) found in ContactForce, each replayed through the
//! same C API sequence as the minimised input, with the invariant the harness asserts. RigidBody's
//! findings are replayed in rigid_body/tests/fuzz_regressions.rs.

use std::ffi::{c_int, CString};
use std::time::{Duration, Instant};

use contact_force::fmi::fmi2::*;
use contact_force::fmi::fmi3::*;
use contact_force::fmi::status::Status;
use contact_force::variables::{self, Causality};

fn vr(name: &str) -> u32 {
    variables::scalars().iter().find(|s| s.name == name).unwrap_or_else(|| panic!("no variable {name}")).vr
}

/// A step may take a while, never forever: the fuzzer's hang limit is 10 s with AddressSanitizer.
const PROMPT: Duration = Duration::from_secs(5);

/// An FMI 2 instance made the usual way, freed on drop.
/// The callbacks live as long as the instance (the FMU may keep a pointer to them).
struct Fmu2(Fmi2Component, #[allow(dead_code)] Box<Fmi2CallbackFunctions>);

impl Fmu2 {
    fn new() -> Fmu2 {
        let functions =
            Box::new(Fmi2CallbackFunctions { logger: None, allocate_memory: None, free_memory: None, step_finished: None, component_environment: std::ptr::null_mut() });
        let name = CString::new("instance").unwrap();
        let guid = CString::new(variables::instantiation_token()).unwrap();
        // SAFETY: valid strings; the callbacks outlive the instance.
        let c = unsafe { fmi2Instantiate(name.as_ptr(), FMI2_CO_SIMULATION, guid.as_ptr(), std::ptr::null(), &*functions, 0, 0) };
        assert!(!c.is_null());
        Fmu2(c, functions)
    }

    fn set(&self, name: &str, value: f64) {
        // SAFETY: a live instance, one value.
        assert_eq!(unsafe { fmi2SetReal(self.0, &vr(name), 1, &value) }, Status::Ok, "set {name} = {value}");
    }

    fn set_int(&self, name: &str, value: c_int) {
        // SAFETY: a live instance, one value.
        assert_eq!(unsafe { fmi2SetInteger(self.0, &vr(name), 1, &value) }, Status::Ok, "set {name} = {value}");
    }

    fn initialize(&self, start: f64) {
        // SAFETY: a live instance.
        unsafe {
            assert_eq!(fmi2SetupExperiment(self.0, 0, 0.0, start, 0, 0.0), Status::Ok);
            assert_eq!(fmi2EnterInitializationMode(self.0), Status::Ok);
            assert_eq!(fmi2ExitInitializationMode(self.0), Status::Ok);
        }
    }

    /// DoStep, checked to return promptly.
    fn step(&self, t: f64, h: f64) -> Status {
        let start = Instant::now();
        // SAFETY: a live instance.
        let status = unsafe { fmi2DoStep(self.0, t, h, 1) };
        assert!(start.elapsed() < PROMPT, "fmi2DoStep({t}, {h}) took {:?}", start.elapsed());
        status
    }

    /// GetReal; with OK the value must be finite (the harness's invariant).
    fn get(&self, name: &str) -> (Status, f64) {
        let mut value = f64::NAN;
        // SAFETY: a live instance, one value.
        let status = unsafe { fmi2GetReal(self.0, &vr(name), 1, &mut value) };
        (status, value)
    }

    fn last_successful_time(&self) -> f64 {
        let mut t = f64::NAN;
        // SAFETY: a live instance, one writable value.
        assert_eq!(unsafe { fmi2GetRealStatus(self.0, FMI2_LAST_SUCCESSFUL_TIME, &mut t) }, Status::Ok);
        t
    }
}

impl Drop for Fmu2 {
    fn drop(&mut self) {
        // SAFETY: freed once, here.
        unsafe { fmi2FreeInstance(self.0) };
    }
}

/// An FMI 3 instance made the usual way, freed on drop.
struct Fmu3(Fmi3Instance);

impl Fmu3 {
    fn new() -> Fmu3 {
        let name = CString::new("instance").unwrap();
        let token = CString::new(variables::instantiation_token()).unwrap();
        // SAFETY: valid strings; no callbacks.
        let c = unsafe {
            fmi3InstantiateCoSimulation(
                name.as_ptr(),
                token.as_ptr(),
                std::ptr::null(),
                false,
                false,
                false,
                false,
                std::ptr::null(),
                0,
                std::ptr::null_mut(),
                None,
                None,
            )
        };
        assert!(!c.is_null());
        Fmu3(c)
    }

    fn initialize(&self, start: f64) {
        // SAFETY: a live instance.
        unsafe {
            assert_eq!(fmi3EnterInitializationMode(self.0, false, 0.0, start, false, 0.0), Status::Ok);
            assert_eq!(fmi3ExitInitializationMode(self.0), Status::Ok);
        }
    }

    /// DoStep, checked to return promptly; also gives lastSuccessfulTime.
    fn step(&self, t: f64, h: f64) -> (Status, f64) {
        let (mut event, mut terminate, mut early, mut last) = (false, false, false, f64::NAN);
        let start = Instant::now();
        // SAFETY: a live instance; four writable outputs.
        let status = unsafe { fmi3DoStep(self.0, t, h, true, &mut event, &mut terminate, &mut early, &mut last) };
        assert!(start.elapsed() < PROMPT, "fmi3DoStep({t}, {h}) took {:?}", start.elapsed());
        (status, last)
    }

    fn get(&self, name: &str) -> (Status, f64) {
        let mut value = f64::NAN;
        // SAFETY: a live instance, one value.
        let status = unsafe { fmi3GetFloat64(self.0, &vr(name), 1, &mut value, 1) };
        (status, value)
    }
}

impl Drop for Fmu3 {
    fn drop(&mut self) {
        // SAFETY: freed once, here.
        unsafe { fmi3FreeInstance(self.0) };
    }
}

/// A stateful friction law (ElasticCone) with the sphere resting in the plane, so that DoStep
/// integrates the contact's tangential state in sub-steps of `solver.max_step`.
fn stateful_contact(fmu: &Fmu2) {
    fmu.set_int("friction.law", 6);
    fmu.set("frame_b.r_0[3]", 0.099);
}

#[test]
fn a_huge_step_with_a_stateful_law_is_discarded_instead_of_hanging() {
    // Found as a hang: DoStep(0, 1e300) with ElasticCone took ceil(1e300 / 1e-3) sub-steps, which
    // `as u64` saturated to 2^64 - 1: the call never returned.
    let fmu = Fmu2::new();
    stateful_contact(&fmu);
    fmu.initialize(0.0);
    assert_eq!(fmu.step(0.0, 1e300), Status::Discard);
    assert_eq!(fmu.last_successful_time(), 0.0);
    // Still usable: Reset and a normal step.
    // SAFETY: a live instance.
    assert_eq!(unsafe { fmi2Reset(fmu.0) }, Status::Ok);
    stateful_contact(&fmu);
    fmu.initialize(0.0);
    assert_eq!(fmu.step(0.0, 1e-3), Status::Ok);
}

#[test]
fn a_step_whose_end_time_overflows_is_refused_and_time_stays_finite() {
    // Found as a broken invariant: DoStep(t, h) with t + h = inf returned OK, then a get of `time`
    // returned inf with OK, and lastSuccessfulTime was inf.
    let fmu = Fmu2::new();
    fmu.initialize(f64::MAX);
    assert_eq!(fmu.step(f64::MAX, f64::MAX), Status::Error);
    let (status, time) = fmu.get("time");
    assert!(status == Status::Ok && time == f64::MAX, "time = {time} ({status:?})");
    let fmu = Fmu3::new();
    fmu.initialize(f64::MAX);
    let (status, last) = fmu.step(f64::MAX, f64::MAX);
    assert_eq!(status, Status::Error);
    assert!(last.is_finite(), "lastSuccessfulTime = {last}");
    let (status, time) = fmu.get("time");
    assert!(status != Status::Ok || time.is_finite(), "time = {time} with OK");
}

/// FNV-1a 64, the checksum that ends a serialized FMU state (over everything after the
/// state-machine byte).
fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, b| (h ^ u64::from(*b)).wrapping_mul(0x0000_0100_0000_01b3))
}

#[test]
fn a_serialized_state_with_a_valid_checksum_and_a_nan_input_is_refused() {
    // The harness's mutated states (a value overwritten, the checksum recomputed): a NaN written
    // over frame_a.r_0[1] was deserialized and restored, and a get of that input then returned
    // NaN with OK. (Confirmed by replaying that operation chain by hand after the fuzz runs,
    // which had not yet combined all its steps.) Deserialization now refuses any value a set
    // would refuse: non-finite numbers and enumeration values that are no item.
    let fmu = Fmu3::new();
    fmu.initialize(0.0);
    // SAFETY: a live instance; every buffer has the size passed; the state is freed below.
    unsafe {
        let mut state = std::ptr::null_mut();
        assert_eq!(fmi3GetFMUState(fmu.0, &mut state), Status::Ok);
        let mut size = 0;
        assert_eq!(fmi3SerializedFMUStateSize(fmu.0, state, &mut size), Status::Ok);
        let mut saved = vec![0u8; size];
        assert_eq!(fmi3SerializeFMUState(fmu.0, state, saved.as_mut_ptr(), size), Status::Ok);
        // State byte, magic, token hash, then the values in table order: time, frame_a.r_0[1], ...
        let forge = |at: usize, value: [u8; 8]| {
            let mut bytes = saved.clone();
            bytes[at..at + 8].copy_from_slice(&value);
            let end = bytes.len() - 8;
            let checksum = fnv1a(&bytes[1..end]);
            bytes[end..].copy_from_slice(&checksum.to_le_bytes());
            bytes
        };
        let values_at = 1 + 8 + 8;
        assert_eq!(vr("frame_a.r_0[1]"), 1);
        let nan_input = forge(values_at + 8, f64::NAN.to_le_bytes());
        assert_eq!(fmi3DeserializeFMUState(fmu.0, nan_input.as_ptr(), nan_input.len(), &mut state), Status::Error);
        // geometry_a.shape follows time and the inputs (numbers of 8 bytes; outputs are not
        // serialized): 99 is no Shape.
        let before = variables::scalars().iter().take_while(|s| s.name != "geometry_a.shape").filter(|s| s.causality() != Causality::Output).count();
        let shape_at = values_at + 8 * before;
        assert_eq!(i64::from_le_bytes(saved[shape_at..shape_at + 8].try_into().unwrap()), 9, "geometry_a.shape = Plane");
        let no_shape = forge(shape_at, 99i64.to_le_bytes());
        assert_eq!(fmi3DeserializeFMUState(fmu.0, no_shape.as_ptr(), no_shape.len(), &mut state), Status::Error);
        // The unchanged bytes still restore (after Reset out of the Error state).
        assert_eq!(fmi3Reset(fmu.0), Status::Ok);
        assert_eq!(fmi3DeserializeFMUState(fmu.0, saved.as_ptr(), saved.len(), &mut state), Status::Ok);
        assert_eq!(fmi3SetFMUState(fmu.0, state), Status::Ok);
        let (status, x) = fmu.get("frame_a.r_0[1]");
        assert!(status == Status::Ok && x.is_finite());
        assert_eq!(fmi3FreeFMUState(fmu.0, &mut state), Status::Ok);
    }
}
