//! The test bed's blocks through ContactForce's FMI 2 and FMI 3 C APIs, as an importer calls
//! them: the parameters set by value reference before initialisation, inputs set and outputs
//! read by value reference, DoStep, and FMU states for rollbacks. A system test that runs with
//! [`Backend::Fmi2`] or [`Backend::Fmi3`] proves its figures through the exported functions, not
//! the Rust model alone.

use std::cell::Cell;
use std::ptr::null_mut;

use contact_force::fmi::fmi2::*;
use contact_force::fmi::fmi3::*;
use contact_force::fmi::status::Status;
use contact_force::model::Model;
use contact_force::variables::{self, Causality, ValueType};
use fmi_export::table::IntKind;
use nalgebra::UnitQuaternion;

use crate::support;
use crate::harness::{Block, V3};

/// Which way the test bed's blocks are driven.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Backend {
    /// The Rust model, called directly.
    Model,
    /// The FMI 2.0 co-simulation C API.
    Fmi2,
    /// The FMI 3.0 co-simulation C API.
    Fmi3,
}

thread_local! {
    static BACKEND: Cell<Backend> = const { Cell::new(Backend::Model) };
}

/// Runs `f` with the blocks [`boxed`] makes driven through `backend` (on this test's thread).
pub fn with_backend<T>(backend: Backend, f: impl FnOnce() -> T) -> T {
    let before = BACKEND.with(|b| b.replace(backend));
    let out = f();
    BACKEND.with(|b| b.set(before));
    out
}

/// The block of a system: `model` itself, or an FMU instance with `model`'s parameters.
pub fn boxed(model: Model) -> Box<dyn Block> {
    match BACKEND.with(Cell::get) {
        Backend::Model => Box::new(model),
        Backend::Fmi2 => Box::new(Fmi2Block::new(model)),
        Backend::Fmi3 => Box::new(Fmi3Block::new(model)),
    }
}

/// Every parameter of `model` that its table holds as a number: (value reference, value, is an
/// integer). Strings and Booleans are left at their defaults (the test bed sets none).
fn parameters(mut model: Model, kind: IntKind) -> Vec<(u32, f64, bool)> {
    let table = variables::table();
    let mut out = Vec::new();
    for s in variables::scalars().iter().filter(|s| s.causality() == Causality::Parameter) {
        match s.variable.ty {
            ValueType::Float64 { .. } => out.push((s.vr, table.get_float(&mut model, s.vr).expect("a parameter"), false)),
            ValueType::Int32 | ValueType::Enumeration(_) => out.push((s.vr, table.get_int(&mut model, s.vr, kind).expect("a parameter") as f64, true)),
            ValueType::Boolean | ValueType::String => {}
        }
    }
    out
}

fn frame_vrs(k: usize) -> [u32; 10] {
    let prefix = if k == 0 { "frame_a" } else { "frame_b" };
    let name = |n: &str, i: usize| format!("{prefix}.{n}[{i}]");
    let names = [name("r_0", 1), name("r_0", 2), name("r_0", 3), name("q", 1), name("q", 2), name("q", 3), name("q", 4), name("v_0", 1), name("v_0", 2), name("v_0", 3)];
    names.map(|n| support::fmi2::vr(&n))
}

fn frame_values(r: V3, q: UnitQuaternion<f64>, v: V3) -> [f64; 10] {
    [r[0], r[1], r[2], q.w, q.i, q.j, q.k, v[0], v[1], v[2]]
}

fn force_vrs(k: usize) -> [u32; 4] {
    let (frame, body) = if k == 0 { ("frame_a", "body_a") } else { ("frame_b", "body_b") };
    let vr = support::fmi2::vr;
    [vr(&format!("{frame}.f_0[1]")), vr(&format!("{frame}.f_0[2]")), vr(&format!("{frame}.f_0[3]")), vr(&format!("{body}.effective_mass"))]
}

fn mobility_vrs(k: usize) -> Vec<u32> {
    let body = if k == 0 { "body_a" } else { "body_b" };
    (1..=21).map(|i| support::fmi2::vr(&format!("{body}.mobility[{i}]"))).collect()
}

/// A ContactForce FMU instance through the FMI 2 API.
pub struct Fmi2Block {
    fmu: support::fmi2::Fmu,
    /// The effective masses as last read with the forces (a master reads outputs together).
    effective: [f64; 2],
}

impl Fmi2Block {
    pub fn new(model: Model) -> Fmi2Block {
        let fmu = support::fmi2::Fmu::new();
        for (vr, value, integer) in parameters(model, IntKind::Fmi2Integer) {
            // SAFETY: a live instance, one reference and one value.
            let status = unsafe {
                if integer {
                    fmi2SetInteger(fmu.c, &vr, 1, &(value as i32))
                } else {
                    fmi2SetReal(fmu.c, &vr, 1, &value)
                }
            };
            assert_eq!(status, Status::Ok, "set {vr} = {value}: {:?}", fmu.messages());
        }
        fmu.initialize();
        Fmi2Block { fmu, effective: [0.0; 2] }
    }

    fn set(&mut self, vrs: &[u32], values: &[f64]) {
        // SAFETY: a live instance and slices of the same length.
        let status = unsafe { fmi2SetReal(self.fmu.c, vrs.as_ptr(), vrs.len(), values.as_ptr()) };
        assert_eq!(status, Status::Ok, "{:?}", self.fmu.messages());
    }
}

impl Block for Fmi2Block {
    fn set_frame(&mut self, k: usize, r: V3, q: UnitQuaternion<f64>, v: V3) {
        self.set(&frame_vrs(k), &frame_values(r, q, v));
    }

    fn force(&mut self, k: usize) -> V3 {
        let vrs = force_vrs(k);
        let mut values = [0.0; 4];
        // SAFETY: a live instance and slices of the same length.
        let status = unsafe { fmi2GetReal(self.fmu.c, vrs.as_ptr(), vrs.len(), values.as_mut_ptr()) };
        assert_eq!(status, Status::Ok, "{:?}", self.fmu.messages());
        self.effective[k] = values[3];
        V3::new(values[0], values[1], values[2])
    }

    fn do_step(&mut self, t: f64, h: f64) {
        assert_eq!(self.fmu.do_step(t, h), Status::Ok, "{:?}", self.fmu.messages());
    }

    fn get(&mut self, name: &str) -> f64 {
        self.fmu.get(name)
    }

    fn save(&mut self) -> Box<dyn std::any::Any> {
        let mut state: Fmi2FmuState = null_mut();
        // SAFETY: a live instance; `state` receives a new state.
        assert_eq!(unsafe { fmi2GetFMUstate(self.fmu.c, &mut state) }, Status::Ok);
        Box::new(Fmi2State(state as usize, self.effective))
    }

    fn restore(&mut self, state: &dyn std::any::Any) {
        let saved = state.downcast_ref::<Fmi2State>().expect("an FMI 2 state");
        // SAFETY: a state from fmi2GetFMUstate of this instance, not yet freed.
        assert_eq!(unsafe { fmi2SetFMUstate(self.fmu.c, saved.0 as Fmi2FmuState) }, Status::Ok);
        self.effective = saved.1;
    }

    fn effective_mass(&self, k: usize) -> f64 {
        self.effective[k]
    }

    fn set_mobility(&mut self, k: usize, phi: &[f64; 21]) {
        self.set(&mobility_vrs(k), phi);
    }
}

/// An FMI 2 FMU state (freed with its instance).
struct Fmi2State(usize, [f64; 2]);

/// A ContactForce FMU instance through the FMI 3 API.
pub struct Fmi3Block {
    fmu: support::fmi3::Fmu,
    effective: [f64; 2],
}

impl Fmi3Block {
    pub fn new(model: Model) -> Fmi3Block {
        let fmu = support::fmi3::Fmu::new();
        for (vr, value, integer) in parameters(model, IntKind::Int64) {
            // SAFETY: a live instance, one reference and one value.
            let status = unsafe {
                if integer {
                    fmi3SetInt64(fmu.instance, &vr, 1, &(value as i64), 1)
                } else {
                    fmi3SetFloat64(fmu.instance, &vr, 1, &value, 1)
                }
            };
            assert_eq!(status, Status::Ok, "set {vr} = {value}: {:?}", fmu.messages());
        }
        assert_eq!(fmu.initialize(), Status::Ok, "{:?}", fmu.messages());
        Fmi3Block { fmu, effective: [0.0; 2] }
    }

    fn set(&mut self, vrs: &[u32], values: &[f64]) {
        assert_eq!(self.fmu.set_floats(vrs, values), Status::Ok, "{:?}", self.fmu.messages());
    }
}

impl Block for Fmi3Block {
    fn set_frame(&mut self, k: usize, r: V3, q: UnitQuaternion<f64>, v: V3) {
        self.set(&frame_vrs(k), &frame_values(r, q, v));
    }

    fn force(&mut self, k: usize) -> V3 {
        let (status, values) = self.fmu.try_get_floats(&force_vrs(k));
        assert_eq!(status, Status::Ok, "{:?}", self.fmu.messages());
        self.effective[k] = values[3];
        V3::new(values[0], values[1], values[2])
    }

    fn do_step(&mut self, t: f64, h: f64) {
        let (status, _) = self.fmu.do_step(t, h);
        assert_eq!(status, Status::Ok, "{:?}", self.fmu.messages());
    }

    fn get(&mut self, name: &str) -> f64 {
        self.fmu.get_float(name)
    }

    /// Through the serialized bytes (the FMI 2 block keeps the FMU state in memory): a rollback
    /// redone from them proves that the bytes hold everything a step depends on.
    fn save(&mut self) -> Box<dyn std::any::Any> {
        let mut state: Fmi3FmuState = null_mut();
        let mut size = 0usize;
        // SAFETY: a live instance; `state` receives a new state, serialized into a buffer of the
        // size the FMU gives, then freed.
        let bytes = unsafe {
            assert_eq!(fmi3GetFMUState(self.fmu.instance, &mut state), Status::Ok);
            assert_eq!(fmi3SerializedFMUStateSize(self.fmu.instance, state, &mut size), Status::Ok);
            let mut bytes = vec![0u8; size];
            assert_eq!(fmi3SerializeFMUState(self.fmu.instance, state, bytes.as_mut_ptr(), size), Status::Ok);
            assert_eq!(fmi3FreeFMUState(self.fmu.instance, &mut state), Status::Ok);
            bytes
        };
        Box::new(Fmi3State(bytes, self.effective))
    }

    fn restore(&mut self, state: &dyn std::any::Any) {
        let saved = state.downcast_ref::<Fmi3State>().expect("an FMI 3 state");
        let mut restored: Fmi3FmuState = null_mut();
        // SAFETY: bytes from fmi3SerializeFMUState of this FMU; the state made from them is set,
        // then freed.
        unsafe {
            assert_eq!(fmi3DeserializeFMUState(self.fmu.instance, saved.0.as_ptr(), saved.0.len(), &mut restored), Status::Ok);
            assert_eq!(fmi3SetFMUState(self.fmu.instance, restored), Status::Ok);
            assert_eq!(fmi3FreeFMUState(self.fmu.instance, &mut restored), Status::Ok);
        }
        self.effective = saved.1;
    }

    fn effective_mass(&self, k: usize) -> f64 {
        self.effective[k]
    }

    fn set_mobility(&mut self, k: usize, phi: &[f64; 21]) {
        self.set(&mobility_vrs(k), phi);
    }
}

/// An FMI 3 FMU state, serialized.
struct Fmi3State(Vec<u8>, [f64; 2]);
