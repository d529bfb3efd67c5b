//! The full FMI 2.0 co-simulation cycle through the C ABI of the packaged library, loaded with
//! dlopen as an importer does: set the 26 inputs, DoStep, get the outputs.
//!
//! The library is the release build that `cargo xtask fmu` packages into ContactForce-fmi2.fmu and
//! ContactForce-fmi3.fmu (target/xtask/ContactForce/ContactForce.so), or the one
//! `$CONTACTFORCE_FMI2_SO` names.
//! The inputs change at every cycle (B bobs up and down by a micrometre while sliding), so every
//! cycle evaluates the contact once: the lazy outputs cannot serve a cached answer.

mod common;

use std::ffi::{c_char, c_int, c_uint, c_void, CString};
use std::hint::black_box;
use std::path::PathBuf;

use common::Order;
use contact_force::fmi::fmi2::{Fmi2CallbackFunctions, FMI2_CO_SIMULATION};
use contact_force::variables::{self, Causality};
use criterion::Criterion;
use fmi_export::table::ValueType;
use libloading::{Library, Symbol};

type Component = *mut c_void;
type Instantiate =
    unsafe extern "C" fn(*const c_char, c_int, *const c_char, *const c_char, *const Fmi2CallbackFunctions, c_int, c_int) -> Component;
type Setup = unsafe extern "C" fn(Component, c_int, f64, f64, c_int, f64) -> c_int;
type Simple = unsafe extern "C" fn(Component) -> c_int;
type SetReal = unsafe extern "C" fn(Component, *const c_uint, usize, *const f64) -> c_int;
type GetReal = unsafe extern "C" fn(Component, *const c_uint, usize, *mut f64) -> c_int;
type GetInt = unsafe extern "C" fn(Component, *const c_uint, usize, *mut c_int) -> c_int;
type SetInt = unsafe extern "C" fn(Component, *const c_uint, usize, *const c_int) -> c_int;
type DoStep = unsafe extern "C" fn(Component, f64, f64, c_int) -> c_int;

/// The library's path.
fn library_path() -> PathBuf {
    std::env::var_os("CONTACTFORCE_FMI2_SO").map(PathBuf::from).unwrap_or_else(|| {
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("target/xtask/ContactForce/ContactForce.so")
    })
}

unsafe extern "C" fn quiet(_: *mut c_void, _: *const c_char, _: c_int, _: *const c_char, _: *const c_char) {}

/// The functions of one loaded library.
struct Api<'l> {
    instantiate: Symbol<'l, Instantiate>,
    setup: Symbol<'l, Setup>,
    enter: Symbol<'l, Simple>,
    exit: Symbol<'l, Simple>,
    set_real: Symbol<'l, SetReal>,
    set_integer: Symbol<'l, SetInt>,
    get_real: Symbol<'l, GetReal>,
    get_integer: Symbol<'l, GetInt>,
    get_boolean: Symbol<'l, GetInt>,
    do_step: Symbol<'l, DoStep>,
}

impl<'l> Api<'l> {
    fn new(library: &'l Library) -> Api<'l> {
        // SAFETY: the names are fmi2Functions.h functions with exactly these signatures.
        unsafe {
            Api {
                instantiate: library.get(b"fmi2Instantiate").unwrap(),
                setup: library.get(b"fmi2SetupExperiment").unwrap(),
                enter: library.get(b"fmi2EnterInitializationMode").unwrap(),
                exit: library.get(b"fmi2ExitInitializationMode").unwrap(),
                set_real: library.get(b"fmi2SetReal").unwrap(),
                set_integer: library.get(b"fmi2SetInteger").unwrap(),
                get_real: library.get(b"fmi2GetReal").unwrap(),
                get_integer: library.get(b"fmi2GetInteger").unwrap(),
                get_boolean: library.get(b"fmi2GetBoolean").unwrap(),
                do_step: library.get(b"fmi2DoStep").unwrap(),
            }
        }
    }

    /// An initialised instance with these Integer (enumeration) and Real parameters.
    fn instance(&self, integers: &[(u32, c_int)], reals: &[(u32, f64)]) -> Component {
        type Fixed = unsafe extern "C" fn(*mut c_void, *const c_char, c_int, *const c_char, *const c_char);
        // SAFETY: on x86-64 System V a function taking the fixed arguments may be called through
        // the variadic logger type (as in tests/no_allocation.rs).
        let logger = unsafe { std::mem::transmute::<Fixed, contact_force::fmi::logger::Fmi2LoggerCallback>(quiet) };
        let callbacks = Box::leak(Box::new(Fmi2CallbackFunctions {
            logger: Some(logger),
            allocate_memory: None,
            free_memory: None,
            step_finished: None,
            component_environment: std::ptr::null_mut(),
        }));
        let name = CString::new("bench").unwrap();
        let guid = CString::new(variables::instantiation_token()).unwrap();
        // SAFETY: valid strings; callbacks leaked so they outlive the instance.
        unsafe {
            let c = (self.instantiate)(name.as_ptr(), FMI2_CO_SIMULATION, guid.as_ptr(), std::ptr::null(), callbacks, 0, 0);
            assert!(!c.is_null(), "fmi2Instantiate failed: is {} this build's ContactForce?", library_path().display());
            for (vr, value) in integers {
                assert_eq!((self.set_integer)(c, vr, 1, value), 0);
            }
            for (vr, value) in reals {
                assert_eq!((self.set_real)(c, vr, 1, value), 0);
            }
            assert_eq!((self.setup)(c, 0, 0.0, 0.0, 0, 0.0), 0);
            assert_eq!((self.enter)(c), 0);
            assert_eq!((self.exit)(c), 0);
            c
        }
    }
}

/// The value references of ContactForce's own variables that `keep` keeps (the instance is
/// ContactForce's: the point slots of ContactForceProvidedLaws are unknown to it).
fn vrs(keep: impl Fn(&fmi_export::table::Scalar<contact_force::model::Model>) -> bool) -> Vec<u32> {
    variables::scalars().iter().filter(|s| !s.variable.in_extension && keep(s)).map(|s| s.vr).collect()
}

/// One co-simulation loop of an importer: inputs, step, outputs.
struct Cycle<'a, 'l> {
    api: &'a Api<'l>,
    c: Component,
    inputs: Vec<u32>,
    values: Vec<f64>,
    reals: Vec<u32>,
    integers: Vec<u32>,
    booleans: Vec<u32>,
    real_out: Vec<f64>,
    int_out: Vec<c_int>,
    bool_out: Vec<c_int>,
    t: f64,
    k: u64,
    /// The communication step (s).
    h: f64,
    /// B stays where it is (no bobbing).
    resting: bool,
}

const STEP: f64 = 1e-5;

impl<'a, 'l> Cycle<'a, 'l> {
    /// B's frame height `z` over A's plane, sliding along x.
    fn new(api: &'a Api<'l>, c: Component, z: f64, reals: Vec<u32>, all_types: bool) -> Self {
        // The frames' inputs (the provided forces of the laws provided by input stay unset).
        let inputs = vrs(|s| s.causality() == Causality::Input && s.vr <= 26);
        assert_eq!(inputs.len(), 26);
        let mut values = vec![0.0; 26];
        values[3] = 1.0; // frame_a.q[1]
        values[16] = 1.0; // frame_b.q[1]
        values[15] = z; // frame_b.r_0[3]
        values[20] = 0.1; // frame_b.v_0[1]
        values[22] = -0.01; // frame_b.v_0[3]
        let outputs = |ty: fn(&ValueType) -> bool| vrs(|s| s.causality() == Causality::Output && ty(&s.variable.ty));
        let (integers, booleans) = if all_types {
            (outputs(|t| matches!(t, ValueType::Int32)), outputs(|t| matches!(t, ValueType::Boolean)))
        } else {
            (Vec::new(), Vec::new())
        };
        Cycle {
            api,
            c,
            inputs,
            values,
            real_out: vec![0.0; reals.len()],
            int_out: vec![0; integers.len()],
            bool_out: vec![0; booleans.len()],
            reals,
            integers,
            booleans,
            t: 0.0,
            k: 0,
            h: STEP,
            resting: false,
        }
    }

    /// B at rest at its height instead of sliding and bobbing.
    fn at_rest(mut self) -> Self {
        self.values[20] = 0.0;
        self.values[22] = 0.0;
        self.resting = true;
        self
    }

    /// The same loop at communication steps of `h`.
    fn with_step(mut self, h: f64) -> Self {
        self.h = h;
        self
    }

    fn set_inputs(&mut self) {
        self.k += 1;
        // B bobs by a micrometre: every cycle's inputs differ from the last.
        if !self.resting {
            self.values[15] += if self.k.is_multiple_of(2) { 1e-6 } else { -1e-6 };
        }
        // SAFETY: a live instance and arrays of the stated lengths.
        unsafe {
            assert_eq!((self.api.set_real)(self.c, self.inputs.as_ptr(), 26, self.values.as_ptr()), 0);
        }
    }

    fn step(&mut self) {
        // SAFETY: as above.
        assert_eq!(unsafe { (self.api.do_step)(self.c, self.t, self.h, 1) }, 0);
        self.t += self.h;
    }

    fn get_outputs(&mut self) -> f64 {
        // SAFETY: as above.
        unsafe {
            assert_eq!((self.api.get_real)(self.c, self.reals.as_ptr(), self.reals.len(), self.real_out.as_mut_ptr()), 0);
            if !self.integers.is_empty() {
                assert_eq!((self.api.get_integer)(self.c, self.integers.as_ptr(), self.integers.len(), self.int_out.as_mut_ptr()), 0);
            }
            if !self.booleans.is_empty() {
                assert_eq!((self.api.get_boolean)(self.c, self.booleans.as_ptr(), self.booleans.len(), self.bool_out.as_mut_ptr()), 0);
            }
        }
        black_box(self.real_out[0])
    }

    fn cycle(&mut self) -> f64 {
        self.set_inputs();
        self.step();
        self.get_outputs()
    }
}

/// Runs `body` under criterion as `group/id`, or N times in profile mode.
fn bench(g: &mut criterion::BenchmarkGroup<'_, criterion::measurement::WallTime>, id: &str, mut body: impl FnMut() -> f64) {
    match common::profile_iterations(&format!("fmi2/{id}")) {
        Some(iterations) => {
            for _ in 0..iterations {
                black_box(body());
            }
        }
        None => {
            g.bench_function(id, |b| b.iter(&mut body));
        }
    }
}

fn main() {
    let path = library_path();
    if !path.exists() {
        eprintln!("{} does not exist: run `cargo xtask fmu` first (or set CONTACTFORCE_FMI2_SO)", path.display());
        std::process::exit(1);
    }
    // SAFETY: loading ContactForce's own FMU binary, whose initialisers are Rust statics.
    let library = unsafe { Library::new(&path) }.expect("dlopen the ContactForce FMI 2 library");
    let api = Api::new(&library);
    let mut c = Criterion::default()
        .warm_up_time(std::time::Duration::from_millis(500))
        .measurement_time(std::time::Duration::from_secs(2))
        .sample_size(30)
        .configure_from_args();
    let mut order = Order::new("fmi_cycle");

    let all_reals = vrs(|s| s.causality() == Causality::Output && matches!(s.variable.ty, ValueType::Float64 { .. }));
    let wrenches: Vec<u32> = (100..112).collect();
    let sphere = || api.instance(&[], &[]);
    let shape_b = variables::scalars().iter().find(|s| s.name == "geometry_b.shape").unwrap().vr;
    let size_b = variables::scalars().iter().find(|s| s.name == "geometry_b.size[1]").unwrap().vr;
    let box_on_plane =
        || api.instance(&[(shape_b, contact_force::physics::shape::ShapeKind::Box.value() as c_int)], &[(size_b, 0.1), (size_b + 1, 0.1), (size_b + 2, 0.1)]);

    let mut g = c.benchmark_group("fmi2");
    let outputs = all_reals.len() + 1 + 10;
    let mut cycle = Cycle::new(&api, sphere(), 0.0999, all_reals.clone(), true);
    let id = format!("sphere-plane: set 26, DoStep, get all {outputs} outputs");
    order.add("fmi2", &id, 1);
    bench(&mut g, &id, || cycle.cycle());

    let mut cycle = Cycle::new(&api, sphere(), 0.0999, wrenches, false);
    let id = "sphere-plane: set 26, DoStep, get the 12 forces and torques";
    order.add("fmi2", id, 1);
    bench(&mut g, id, || cycle.cycle());

    let mut cycle = Cycle::new(&api, box_on_plane(), 0.0499, all_reals.clone(), true);
    let id = format!("box-plane: set 26, DoStep, get all {outputs} outputs");
    order.add("fmi2", &id, 4);
    bench(&mut g, &id, || cycle.cycle());

    // StepAverage (coupling.mode = 2) against Instantaneous at the 1 ms step it is made for: the
    // block integrates the 1 kg sphere over each step in 100 sub-steps of 10 us.
    let vr = |name: &str| variables::scalars().iter().find(|s| s.name == name).unwrap().vr;
    let averaged = || api.instance(&[(vr("coupling.mode"), 2)], &[(vr("body_b.mass"), 1.0), (vr("coupling.step"), 1e-3)]);
    let wrenches: Vec<u32> = (100..112).collect();
    let mut cycle = Cycle::new(&api, sphere(), 0.0999, wrenches.clone(), false).with_step(1e-3);
    let id = "sphere-plane, Instantaneous, 1 ms: set 26, DoStep, get the 12 forces and torques";
    order.add("fmi2", id, 1);
    bench(&mut g, id, || cycle.cycle());
    // StepAverage answers the inputs of a body that obeys the forces (here a 1 kg sphere at
    // rest at its equilibrium depth): its estimate of the other forces assumes it. Its outputs
    // are a new average after every step, so the held inputs still cost one averaged step per
    // cycle, like the bobbing inputs of the Instantaneous cycle cost one evaluation.
    let mut cycle = Cycle::new(&api, averaged(), 0.1 - 9.81 / 1e6, wrenches.clone(), false).with_step(1e-3).at_rest();
    let id = "sphere-plane, StepAverage, 1 ms: set 26, DoStep, get the 12 forces and torques";
    order.add("fmi2", id, 1);
    bench(&mut g, id, || cycle.cycle());

    // Out of contact (the sphere 0.2 m above the plane, moving at 0.1 m/s): StepAverage sees that
    // no contact can start within the step and integrates the bodies in one step, not 100.
    let mut cycle = Cycle::new(&api, sphere(), 0.3, wrenches.clone(), false).with_step(1e-3);
    let id = "sphere above the plane, Instantaneous, 1 ms: set 26, DoStep, get the 12 forces and torques";
    order.add("fmi2", id, 1);
    bench(&mut g, id, || cycle.cycle());
    let mut cycle = Cycle::new(&api, averaged(), 0.3, wrenches.clone(), false).with_step(1e-3);
    let id = "sphere above the plane, StepAverage, 1 ms: set 26, DoStep, get the 12 forces and torques";
    order.add("fmi2", id, 1);
    bench(&mut g, id, || cycle.cycle());

    // The parts of the sphere-plane cycle on their own.
    let mut cycle = Cycle::new(&api, sphere(), 0.0999, all_reals, true);
    let id = "part: set 26 inputs";
    order.add("fmi2", id, 1);
    bench(&mut g, id, || {
        cycle.set_inputs();
        0.0
    });
    let id = "part: set 26 + DoStep (one evaluation)";
    order.add("fmi2", id, 1);
    bench(&mut g, id, || {
        cycle.set_inputs();
        cycle.step();
        0.0
    });
    let id = format!("part: get all {outputs} outputs (up to date)");
    order.add("fmi2", &id, 1);
    bench(&mut g, &id, || cycle.get_outputs());
    g.finish();
    drop(order);
    c.final_summary();
}
