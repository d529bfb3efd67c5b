//! The hot path allocates nothing: after initialisation and one warm-up cycle, setting the 26
//! inputs, DoStep and getting every output through the FMI 2 C API makes no heap allocation.
//! Proved with a counting global allocator (this test binary's own).

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
use std::ffi::{c_char, c_int, c_void, CString};

use contact_force::fmi::fmi2::*;
use contact_force::fmi::status::Status;
use contact_force::variables::{self, Causality};
use fmi_export::table::ValueType;

/// Counts the allocations of the thread that is measuring. Only that thread's allocations count:
/// the test harness's own threads allocate at times of their choosing (a slow test under load
/// makes the harness print a "running for over 60 seconds" note), which is not the hot path.
struct Counting;


thread_local! {
    /// Set while this thread runs the measured calls.
    static MEASURING: Cell<bool> = const { Cell::new(false) };
    /// Allocations this thread made while measuring: per thread, so that the other test, which
    /// the harness runs at the same time on another thread, does not count here.
    static ALLOCATIONS: Cell<usize> = const { Cell::new(0) };
}

fn count() {
    // `try_with`: a thread being torn down has no thread-locals left, and is not measuring.
    if MEASURING.try_with(Cell::get).unwrap_or(false) {
        let _ = ALLOCATIONS.try_with(|n| n.set(n.get() + 1));
    }
}

// SAFETY: forwards to the system allocator unchanged; only counts.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        count();
        // SAFETY: the caller's layout contract is passed on.
        unsafe { System.alloc(layout) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: the pointer came from `alloc` above with this layout.
        unsafe { System.dealloc(ptr, layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        count();
        // SAFETY: as above.
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

unsafe extern "C" fn quiet(_: *mut c_void, _: *const c_char, _: c_int, _: *const c_char, _: *const c_char) {}

/// Instantiates and initialises ContactForce with `parameters` (vr, value) set first.
fn instance(parameters: &[(u32, f64)], integers: &[(u32, c_int)]) -> Fmi2Component {
    instance_with(parameters, integers, &[])
}

/// [`instance`] with string parameters too.
fn instance_with(parameters: &[(u32, f64)], integers: &[(u32, c_int)], strings: &[(u32, &str)]) -> Fmi2Component {
    type Fixed = unsafe extern "C" fn(*mut c_void, *const c_char, c_int, *const c_char, *const c_char);
    // SAFETY: see tests/fmi2_c_api.rs: on x86-64 System V a function taking the fixed arguments
    // may be called through the variadic logger type.
    let logger = unsafe { std::mem::transmute::<Fixed, contact_force::fmi::logger::Fmi2LoggerCallback>(quiet) };
    let functions = Box::leak(Box::new(Fmi2CallbackFunctions {
        logger: Some(logger),
        allocate_memory: None,
        free_memory: None,
        step_finished: None,
        component_environment: std::ptr::null_mut(),
    }));
    let name = CString::new("hot").unwrap();
    let guid = CString::new(variables::extension_token()).unwrap();
    // SAFETY: valid strings and callbacks that outlive the instance.
    unsafe {
        let c = fmi2Instantiate(name.as_ptr(), FMI2_CO_SIMULATION, guid.as_ptr(), std::ptr::null(), functions, 0, 0);
        assert!(!c.is_null());
        for (vr, value) in parameters {
            assert_eq!(fmi2SetReal(c, vr, 1, value), Status::Ok);
        }
        for (vr, value) in integers {
            assert_eq!(fmi2SetInteger(c, vr, 1, value), Status::Ok);
        }
        for (vr, value) in strings {
            let value = CString::new(*value).unwrap();
            assert_eq!(fmi2SetString(c, vr, 1, &value.as_ptr()), Status::Ok);
        }
        assert_eq!(fmi2SetupExperiment(c, 0, 0.0, 0.0, 0, 0.0), Status::Ok);
        assert_eq!(fmi2EnterInitializationMode(c), Status::Ok);
        assert_eq!(fmi2ExitInitializationMode(c), Status::Ok);
        c
    }
}

fn vr(name: &str) -> u32 {
    variables::scalars().iter().find(|s| s.name == name).unwrap().vr
}

/// One co-simulation cycle: set all inputs, DoStep, get every output of every type.
fn cycle(c: Fmi2Component, k: usize, inputs: &[u32], reals: &[u32], integers: &[u32], booleans: &[u32], values: &mut [f64]) {
    let t = k as f64 * 1e-3;
    for (i, v) in values.iter_mut().enumerate() {
        *v = if i == 3 || i == 16 { 1.0 } else { 0.0 };
    }
    // Body B's centre sinks slowly into the default plane and slides.
    values[15] = 0.0999 - 1e-6 * k as f64;
    values[20] = 0.1;
    let mut real_out = vec![0.0; reals.len()];
    let mut int_out = vec![0; integers.len()];
    let mut bool_out = vec![0; booleans.len()];
    let before = ALLOCATIONS.with(Cell::get);
    MEASURING.with(|m| m.set(true));
    // SAFETY: a live instance; arrays of the stated lengths.
    unsafe {
        assert_eq!(fmi2SetReal(c, inputs.as_ptr(), inputs.len(), values.as_ptr()), Status::Ok);
        assert_eq!(fmi2DoStep(c, t, 1e-3, 1), Status::Ok);
        assert_eq!(fmi2GetReal(c, reals.as_ptr(), reals.len(), real_out.as_mut_ptr()), Status::Ok);
        assert_eq!(fmi2GetInteger(c, integers.as_ptr(), integers.len(), int_out.as_mut_ptr()), Status::Ok);
        assert_eq!(fmi2GetBoolean(c, booleans.as_ptr(), booleans.len(), bool_out.as_mut_ptr()), Status::Ok);
    }
    MEASURING.with(|m| m.set(false));
    let made = ALLOCATIONS.with(Cell::get) - before;
    if k > 0 {
        assert_eq!(made, 0, "cycle {k} allocated {made} times");
    }
    assert!(real_out.iter().all(|x| x.is_finite()));
}

/// Real and integer parameters to set before initialisation.
type Configuration<'a> = (&'a [(u32, f64)], &'a [(u32, c_int)]);

fn outputs_of(kind: fn(&ValueType) -> bool) -> Vec<u32> {
    variables::scalars().iter().filter(|s| s.causality() == Causality::Output && kind(&s.variable.ty)).map(|s| s.vr).collect()
}

#[test]
fn a_warm_set_step_get_cycle_allocates_nothing_for_stateless_and_stateful_laws() {
    let inputs: Vec<u32> = variables::scalars().iter().filter(|s| s.causality() == Causality::Input && s.vr <= 26).map(|s| s.vr).collect();
    assert_eq!(inputs.len(), 26);
    let reals = outputs_of(|t| matches!(t, ValueType::Float64 { .. }));
    let integers = outputs_of(|t| matches!(t, ValueType::Int32));
    let booleans = outputs_of(|t| matches!(t, ValueType::Boolean));
    let mut values = vec![0.0; 26];
    // The cycle moves B whatever the forces: a body that heavy hardly responds to them, so the
    // inputs are those of a body that obeys them (which StepAverage's estimate of the other
    // forces assumes).
    let averaged: [(u32, f64); 2] = [(vr("body_b.mass"), 1e6), (vr("coupling.step"), 1e-3)];
    let configurations: [Configuration; 5] = [
        // The defaults: linear law, Tanh friction, sphere on a plane.
        (&[], &[]),
        // coupling.mode = StepAverage: the block's own integration over each step, stateless
        // and stateful (ElasticCone with GroundModel).
        (&averaged, &[(vr("coupling.mode"), 2)]),
        (&averaged, &[(vr("coupling.mode"), 2), (vr("normal.law"), 6), (vr("friction.law"), 6)]),
        // A stateful law (ElasticCone with GroundModel) that advances state in DoStep.
        (&[], &[(vr("normal.law"), 6), (vr("friction.law"), 6)]),
        // A multi-point pair: a box on the plane with Stiction.
        (&[(vr("geometry_b.size[3]"), 0.2)], &[(vr("geometry_b.shape"), 3), (vr("friction.law"), 7)]),
    ];
    for (parameters, integer_parameters) in configurations {
        let c = instance(parameters, integer_parameters);
        for k in 0..200 {
            cycle(c, k, &inputs, &reals, &integers, &booleans, &mut values);
        }
        // SAFETY: freed once.
        unsafe { fmi2FreeInstance(c) };
    }
}

/// A point cloud on the plane (the batched cloud-plane kernel): below the parallel threshold the
/// calling thread does all the work; above it the calling thread's share allocates nothing either
/// (rayon's worker threads are not counted here: they run the same leaves, and rayon's `join`
/// keeps its jobs on the stack).
#[test]
fn a_warm_cycle_of_a_point_cloud_on_a_plane_allocates_nothing() {
    let inputs: Vec<u32> = variables::scalars().iter().filter(|s| s.causality() == Causality::Input && s.vr <= 26).map(|s| s.vr).collect();
    let reals = outputs_of(|t| matches!(t, ValueType::Float64 { .. }));
    let integers = outputs_of(|t| matches!(t, ValueType::Int32));
    let booleans = outputs_of(|t| matches!(t, ValueType::Boolean));
    let mut values = vec![0.0; 26];
    for n in [3000, contact_force::block::PARALLEL_POINTS + 1000] {
        // Points about 0.1 m below B's origin, which the cycle lowers onto the plane: about half
        // of them touch.
        let mut text = String::new();
        for k in 0..n {
            let (x, y) = ((k % 97) as f64 * 1e-3, (k / 97) as f64 * 1e-3);
            text.push_str(&format!("{x} {y} {}\n", -0.1 + ((k * 7919) % 1000) as f64 * 2e-7 - 1e-4));
        }
        let path = std::env::temp_dir().join(format!("contactforce-no-allocation-{}-{n}.txt", std::process::id()));
        std::fs::write(&path, text).unwrap();
        let c = instance_with(&[], &[(vr("geometry_b.shape"), 12)], &[(vr("geometry_b.file"), path.to_str().unwrap())]);
        for k in 0..20 {
            cycle(c, k, &inputs, &reals, &integers, &booleans, &mut values);
        }
        // The cloud did touch.
        let mut points = 0;
        // SAFETY: a live instance; one value reference and one value.
        unsafe { assert_eq!(fmi2GetInteger(c, &vr("contact.points"), 1, &mut points), Status::Ok) };
        assert!(points > 100, "{points} points of {n} touch");
        // SAFETY: freed once.
        unsafe { fmi2FreeInstance(c) };
        let _ = std::fs::remove_file(&path);
    }
}
