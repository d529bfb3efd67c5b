//! Many instances in one process: 64 ContactForce instances with different parameters and
//! inputs, stepped interleaved in one thread and in parallel by 8 threads, give bit-identical
//! results to the same runs made one at a time; 10,000 instantiate/free cycles leave the heap and
//! the resident memory flat.
//!
//! The runs include stateful friction laws (ElasticCone, Stiction: a state per contact point)
//! and multi-point pairs (a box: up to 8 points), and an FMU state saved and restored mid-run,
//! so state that leaked between instances or threads would show.
//!
//! No global mutable state: each instance owns its variable table, the enumeration types are
//! constant data, and tests/source_rules.rs keeps it so. These tests check the consequence.

mod support;

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
use std::ffi::{c_void, CString};
use std::ptr::{null, null_mut};
use std::sync::{Barrier, Mutex, OnceLock};

use contact_force::fmi::fmi2::*;
use contact_force::fmi::fmi3::*;
use contact_force::fmi::status::Status;
use contact_force::variables;
use support::fmi3::{inputs, vrs, Fmu};

// ---------------------------------------------------------------------------------------------
// A counting allocator: the live heap bytes allocated by each thread. The memory test runs on one
// thread and only allocates and frees there, so its thread's count is exact whatever the other
// tests of this binary do.

struct Counting;

thread_local! {
    /// Bytes allocated minus bytes freed by this thread.
    static LIVE: Cell<isize> = const { Cell::new(0) };
}

fn count(delta: isize) {
    // A const-initialised Cell has no destructor, so it is never torn down; `try_with` only
    // guards against being called from another thread-local's destructor.
    let _ = LIVE.try_with(|live| live.set(live.get() + delta));
}

fn live_bytes() -> isize {
    LIVE.with(Cell::get)
}

// SAFETY: forwards every call to the system allocator unchanged; it only counts.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        count(layout.size() as isize);
        // SAFETY: the caller's layout contract is passed on.
        unsafe { System.alloc(layout) }
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        count(layout.size() as isize);
        // SAFETY: as above.
        unsafe { System.alloc_zeroed(layout) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        count(-(layout.size() as isize));
        // SAFETY: the pointer came from this allocator with this layout.
        unsafe { System.dealloc(ptr, layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        count(new_size as isize - layout.size() as isize);
        // SAFETY: as above.
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

/// The tests of this file run one at a time, so that the resident memory measured by one is not
/// another's.
static SERIAL: Mutex<()> = Mutex::new(());

fn serial() -> std::sync::MutexGuard<'static, ()> {
    SERIAL.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
}

// ---------------------------------------------------------------------------------------------
// The 64 runs.

const INSTANCES: usize = 64;
const THREADS: usize = 8;
const STEPS: usize = 300;
const H: f64 = 1e-4;
/// The FMU state is saved after this step and restored after `RESTORE`, so the last steps repeat
/// from the saved state with later inputs.
const SAVE: usize = 100;
const RESTORE: usize = 200;

/// Shapes of B (A is the default plane): sphere, box, capsule, cylinder, each reaching 0.1 m
/// below its frame along its local z.
const SHAPES: [(i64, &[(&str, f64)]); 4] = [
    (2, &[("geometry_b.radius", 0.1)]),
    (3, &[("geometry_b.size[1]", 0.2), ("geometry_b.size[2]", 0.15), ("geometry_b.size[3]", 0.2)]),
    (5, &[("geometry_b.radius", 0.05), ("geometry_b.length", 0.1)]),
    (4, &[("geometry_b.radius", 0.08), ("geometry_b.length", 0.2)]),
];
/// LinearSpringDamper, HuntCrossley, GroundModel, SmoothSpringDamper.
const NORMAL_LAWS: [i64; 4] = [1, 3, 6, 4];
/// Tanh, ElasticCone and Stiction (stateful), Stribeck.
const FRICTION_LAWS: [i64; 4] = [4, 6, 7, 5];

/// Instance `i`'s parameters: every shape with every law pair, and its own stiffness.
fn configure(fmu: &Fmu, i: usize) {
    let (shape, dimensions) = SHAPES[i % 4];
    assert_eq!(fmu.set_enum("geometry_b.shape", shape), Status::Ok);
    for (name, value) in dimensions {
        assert_eq!(fmu.set_float(name, *value), Status::Ok);
    }
    assert_eq!(fmu.set_enum("normal.law", NORMAL_LAWS[(i / 4) % 4]), Status::Ok);
    assert_eq!(fmu.set_enum("friction.law", FRICTION_LAWS[(i / 16) % 4]), Status::Ok);
    assert_eq!(fmu.set_float("normal.stiffness", 1e5 * (1.0 + i as f64 / 8.0)), Status::Ok);
    assert_eq!(fmu.set_float("solver.max_step", 2.5e-5), Status::Ok);
}

/// Instance `i`'s 26 inputs at step `k`: B sinks into the plane (0.5 mm above at the start, 1 mm
/// deep at the end), rocks about x and slides back and forth along x, so that the stateful laws
/// stick and slip and the box's corners come and go.
fn inputs_at(i: usize, k: usize) -> Vec<f64> {
    let t = k as f64 * H;
    let phase = i as f64;
    let (amplitude, omega) = (0.02 + 0.005 * (i % 5) as f64, 400.0 + 20.0 * (i % 3) as f64);
    let tilt = 0.01 * (omega * t + phase).sin();
    let tilt_rate = 0.01 * omega * (omega * t + phase).cos();
    let slide = amplitude / omega * ((omega * t + 2.0 * phase).sin() - (2.0 * phase).sin());
    let slide_rate = amplitude * (omega * t + 2.0 * phase).cos();
    let mut values = Vec::with_capacity(26);
    // A at rest at the origin: r, q, v, w.
    values.extend([0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0]);
    // B.
    values.extend([slide, 0.001 * phase, 0.1005 - 0.05 * t]);
    values.extend([(tilt / 2.0).cos(), (tilt / 2.0).sin(), 0.0, 0.0]);
    values.extend([slide_rate, 0.0, -0.05]);
    values.extend([tilt_rate, 0.0, 0.0]);
    values
}

/// One instance through its run: the 26 value references in table order, and the state saved
/// at SAVE for the restore at RESTORE.
struct Run {
    fmu: Fmu,
    index: usize,
    time: f64,
    saved: Fmi3FmuState,
    /// Per step: every output's bits, then lastSuccessfulTime's.
    trace: Vec<Vec<u64>>,
}

// SAFETY: the saved state belongs to the run's instance and moves with it; see `Fmu`.
unsafe impl Send for Run {}

impl Run {
    fn new(index: usize) -> Run {
        let fmu = Fmu::new();
        configure(&fmu, index);
        assert_eq!(fmu.initialize(), Status::Ok, "instance {index}: {:?}", fmu.messages());
        Run { fmu, index, time: 0.0, saved: null_mut(), trace: Vec::with_capacity(STEPS) }
    }

    fn step(&mut self, k: usize, input_refs: &[u32]) {
        let fmu = &self.fmu;
        assert_eq!(fmu.set_floats(input_refs, &inputs_at(self.index, k)), Status::Ok);
        let (status, last) = fmu.do_step(self.time, H);
        assert_eq!(status, Status::Ok, "instance {}, step {k}: {:?}", self.index, fmu.messages());
        self.time = last;
        let (status, mut bits) = fmu.try_outputs();
        assert_eq!(status, Status::Ok, "instance {}, step {k}: {:?}", self.index, fmu.messages());
        bits.push(last.to_bits());
        self.trace.push(bits);
        if k == SAVE {
            // SAFETY: a live instance; the state is freed in `finish`.
            assert_eq!(unsafe { fmi3GetFMUState(fmu.instance, &mut self.saved) }, Status::Ok);
        }
        if k == RESTORE {
            // SAFETY: the state from GetFMUState above.
            assert_eq!(unsafe { fmi3SetFMUState(fmu.instance, self.saved) }, Status::Ok);
            self.time = f64::from_bits(self.trace[SAVE].last().copied().unwrap());
        }
    }

    fn finish(mut self) -> Vec<Vec<u64>> {
        // SAFETY: the state from GetFMUState, freed once.
        assert_eq!(unsafe { fmi3FreeFMUState(self.fmu.instance, &mut self.saved) }, Status::Ok);
        assert!(self.fmu.messages().iter().all(|m| !m.contains("internal error")));
        std::mem::take(&mut self.trace)
    }
}

fn input_refs() -> Vec<u32> {
    inputs().iter().map(|(_, vr)| *vr).collect()
}

/// Every run alone: instantiate, all steps, free; one instance alive at a time. Made once and
/// shared by the tests that compare with it.
fn one_at_a_time() -> &'static [Vec<Vec<u64>>] {
    static REFERENCE: OnceLock<Vec<Vec<Vec<u64>>>> = OnceLock::new();
    REFERENCE.get_or_init(|| {
        let refs = input_refs();
        let reference: Vec<_> = (0..INSTANCES)
            .map(|i| {
                let mut run = Run::new(i);
                for k in 0..STEPS {
                    run.step(k, &refs);
                }
                run.finish()
            })
            .collect();
        check_the_runs_matter(&reference);
        reference
    })
}

/// The runs differ, and do what they are meant to: every one touches, and the stateful ones
/// stick at some steps and slip at others.
fn check_the_runs_matter(reference: &[Vec<Vec<u64>>]) {
    let names: Vec<&str> = variables::scalars()
        .iter()
        .filter(|s| s.causality() == variables::Causality::Output)
        .filter(|s| matches!(s.variable.ty, variables::ValueType::Float64 { .. }))
        .map(|s| s.name.as_str())
        .collect();
    let floats = names.len();
    // The output bits end with contact.points (Int32), then contact.active and contact.sticking
    // and the per-point actives (Booleans, table order).
    let sticking = floats
        + 1
        + variables::scalars()
            .iter()
            .filter(|s| s.causality() == variables::Causality::Output && matches!(s.variable.ty, variables::ValueType::Boolean))
            .position(|s| s.name == "contact.sticking")
            .unwrap();
    for (i, trace) in reference.iter().enumerate() {
        let most_points = trace.iter().map(|bits| bits[floats]).max().unwrap();
        assert!(most_points >= 1, "instance {i} never touches");
        if i % 4 == 1 {
            assert!(most_points >= 2, "instance {i}'s box never rests on two corners");
        }
        if matches!(FRICTION_LAWS[(i / 16) % 4], 6 | 7) {
            let sticks = trace.iter().filter(|bits| bits[sticking] == 1).count();
            assert!(sticks > 0 && sticks < STEPS, "instance {i}: sticking at {sticks} of {STEPS} steps");
        }
    }
    for i in 1..INSTANCES {
        assert_ne!(reference[i], reference[0], "instance {i} repeats instance 0");
    }
}

#[test]
fn sixty_four_instances_stepped_together_match_each_run_alone_bit_for_bit() {
    let _serial = serial();
    let reference = one_at_a_time();
    let refs = input_refs();
    // All 64 alive at once, created in one order and stepped in another each step.
    let mut runs: Vec<Run> = (0..INSTANCES).map(Run::new).collect();
    for k in 0..STEPS {
        let order: Vec<usize> = if k % 2 == 0 { (0..INSTANCES).collect() } else { (0..INSTANCES).rev().collect() };
        for i in order {
            runs[(i * 37 + k) % INSTANCES].step(k, &refs);
        }
    }
    for (i, run) in runs.into_iter().enumerate() {
        assert!(run.finish() == reference[i], "instance {i} differs from its run alone");
    }
}

#[test]
fn eight_threads_stepping_their_own_instances_in_parallel_match_sequential_runs_bit_for_bit() {
    let _serial = serial();
    let reference = one_at_a_time();
    // Instances made and initialised on this thread, then moved to the threads that step them
    // (the standard allows an instance to change threads between calls).
    let mut groups: Vec<Vec<Run>> = (0..THREADS).map(|_| Vec::new()).collect();
    for i in 0..INSTANCES {
        groups[i % THREADS].push(Run::new(i));
    }
    let barrier = Barrier::new(THREADS);
    let finished: Vec<Vec<Run>> = std::thread::scope(|scope| {
        let handles: Vec<_> = groups
            .into_iter()
            .map(|mut group| {
                let barrier = &barrier;
                scope.spawn(move || {
                    let refs = input_refs();
                    for k in 0..STEPS {
                        // Every thread calls into the FMU at the same time at every step.
                        barrier.wait();
                        for run in group.iter_mut() {
                            run.step(k, &refs);
                        }
                    }
                    group
                })
            })
            .collect();
        handles.into_iter().map(|h| h.join().expect("a stepping thread panicked")).collect()
    });
    for run in finished.into_iter().flatten() {
        let i = run.index;
        assert!(run.finish() == reference[i], "instance {i} stepped in a thread differs from its run alone");
    }
}

// ---------------------------------------------------------------------------------------------
// 10,000 instantiate/free cycles.

/// Resident set size [bytes] from /proc/self/statm (pages resident times the page size).
fn resident_bytes() -> usize {
    let statm = std::fs::read_to_string("/proc/self/statm").expect("/proc/self/statm");
    let pages: usize = statm.split_whitespace().nth(1).and_then(|f| f.parse().ok()).expect("statm's second field");
    pages * 4096
}

/// One cycle of an importer's life with an instance: instantiate, parameters (a stateful box
/// contact, or a convex hull read from a file), initialise, inputs, steps, outputs, FMU state
/// get/serialize/deserialize/free, an error and Reset, free. FMI 3 and FMI 2 by turns.
fn cycle(n: usize, hull_file: &str, refs: &[u32], values: &[f64]) {
    if n.is_multiple_of(2) {
        let fmu = Fmu::new();
        if n.is_multiple_of(4) {
            configure(&fmu, 17);
        } else {
            assert_eq!(fmu.set_enum("geometry_b.shape", 10), Status::Ok);
            assert_eq!(fmu.set_string("geometry_b.file", hull_file), Status::Ok);
        }
        assert_eq!(fmu.initialize(), Status::Ok, "{:?}", fmu.messages());
        assert_eq!(fmu.set_floats(refs, values), Status::Ok);
        for k in 0..3 {
            assert_eq!(fmu.do_step(k as f64 * H, H).0, Status::Ok);
        }
        assert_eq!(fmu.try_outputs().0, Status::Ok);
        let mut state: Fmi3FmuState = null_mut();
        let mut copy: Fmi3FmuState = null_mut();
        let mut size = 0;
        // SAFETY: a live instance; `state` is freed here, and `copy` here or, every other time,
        // by FreeInstance (the standard: FreeInstance frees all the memory the FMU allocated;
        // the live-heap check below would see a leak).
        unsafe {
            assert_eq!(fmi3GetFMUState(fmu.instance, &mut state), Status::Ok);
            assert_eq!(fmi3SerializedFMUStateSize(fmu.instance, state, &mut size), Status::Ok);
            let mut bytes = vec![0u8; size];
            assert_eq!(fmi3SerializeFMUState(fmu.instance, state, bytes.as_mut_ptr(), size), Status::Ok);
            assert_eq!(fmi3DeserializeFMUState(fmu.instance, bytes.as_ptr(), size, &mut copy), Status::Ok);
            assert_eq!(fmi3SetFMUState(fmu.instance, copy), Status::Ok);
            assert_eq!(fmi3FreeFMUState(fmu.instance, &mut state), Status::Ok);
            if n.is_multiple_of(4) {
                assert_eq!(fmi3FreeFMUState(fmu.instance, &mut copy), Status::Ok);
            }
        }
        assert_eq!(fmu.set_float("frame_b.r_0[1]", f64::NAN), Status::Error);
        assert_eq!(fmu.reset(), Status::Ok);
    } else {
        let name = CString::new("cycle").unwrap();
        let guid = CString::new(variables::instantiation_token()).unwrap();
        let functions = Fmi2CallbackFunctions {
            logger: None,
            allocate_memory: None,
            free_memory: None,
            step_finished: None,
            component_environment: null_mut::<c_void>(),
        };
        // SAFETY: valid strings and callbacks that outlive the instance; arrays of the stated
        // lengths; the state is freed here and the instance once.
        unsafe {
            let c = fmi2Instantiate(name.as_ptr(), FMI2_CO_SIMULATION, guid.as_ptr(), null(), &functions, 0, 0);
            assert!(!c.is_null());
            assert_eq!(fmi2SetupExperiment(c, 0, 0.0, 0.0, 0, 0.0), Status::Ok);
            assert_eq!(fmi2EnterInitializationMode(c), Status::Ok);
            assert_eq!(fmi2ExitInitializationMode(c), Status::Ok);
            assert_eq!(fmi2SetReal(c, refs.as_ptr(), refs.len(), values.as_ptr()), Status::Ok);
            assert_eq!(fmi2DoStep(c, 0.0, H, 0), Status::Ok);
            let mut state: Fmi2FmuState = null_mut();
            assert_eq!(fmi2GetFMUstate(c, &mut state), Status::Ok);
            assert_eq!(fmi2SetFMUstate(c, state), Status::Ok);
            assert_eq!(fmi2FreeFMUstate(c, &mut state), Status::Ok);
            let mut force = [0.0; 3];
            assert_eq!(fmi2GetReal(c, vrs("frame_b.f_0", 3).as_ptr(), 3, force.as_mut_ptr()), Status::Ok);
            fmi2FreeInstance(c);
        }
    }
}

#[test]
fn ten_thousand_instantiate_free_cycles_leave_the_heap_and_the_resident_memory_flat() {
    let _serial = serial();
    const CYCLES: usize = 10_000;
    const WARM: usize = 100;
    let hull = std::env::temp_dir().join(format!("contact_force_many_instances_{}.csv", std::process::id()));
    let corners: String = (0..8).map(|c| format!("{},{},{}\n", (c & 1) as f64 * 0.2 - 0.1, ((c >> 1) & 1) as f64 * 0.2 - 0.1, ((c >> 2) & 1) as f64 * 0.2 - 0.1)).collect();
    std::fs::write(&hull, corners).unwrap();
    let hull_file = hull.to_str().unwrap().to_string();
    let refs = input_refs();
    let values = inputs_at(3, 150);
    // Checkpoints, written into storage made before the first measurement.
    let mut heap = [0isize; CYCLES / 1000 + 1];
    let mut resident = [0usize; CYCLES / 1000 + 1];
    for n in 0..WARM {
        cycle(n, &hull_file, &refs, &values);
    }
    // The process-wide tables are built by now (by this thread or another): from here on
    // every cycle must give back all it takes.
    let heap_warm = live_bytes();
    let resident_warm = resident_bytes();
    for n in WARM..WARM + CYCLES {
        cycle(n, &hull_file, &refs, &values);
        if (n - WARM + 1).is_multiple_of(1000) {
            heap[(n - WARM + 1) / 1000] = live_bytes();
            resident[(n - WARM + 1) / 1000] = resident_bytes();
        }
    }
    std::fs::remove_file(&hull).unwrap();
    println!(
        "after {WARM} warm-up cycles: {heap_warm} live heap bytes on this thread, {} KiB resident; \
         after each further 1000 cycles: live heap bytes {:?}, resident KiB {:?}",
        resident_warm / 1024,
        &heap[1..],
        resident[1..].iter().map(|r| r / 1024).collect::<Vec<_>>()
    );
    for (i, live) in heap.iter().enumerate().skip(1) {
        assert_eq!(*live, heap_warm, "after {} more cycles the live heap grew by {} bytes", 1000 * i, live - heap_warm);
    }
    // Resident memory may move by what the allocator keeps cached, but not with the cycles:
    // 10,000 leaked instances of even 1 KiB each would be 10 MB.
    let grown = resident[CYCLES / 1000].saturating_sub(resident_warm);
    assert!(grown < 1 << 20, "resident memory grew by {} KiB over {CYCLES} cycles", grown / 1024);
}
