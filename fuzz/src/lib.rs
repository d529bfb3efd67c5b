//! The `c_api` fuzz target's harness: the fuzz input, decoded with `arbitrary`, is a sequence of
//! operations on up to [`MAX_INSTANCES`] live instances of ContactForce, RigidBody and PlanarContact, in FMI 2.0
//! and FMI 3.0: instantiation (right and wrong tokens, null or odd names, callbacks, resource
//! locations), every lifecycle call in any order, gets and sets of every type with any value
//! references, counts and values, DoStep with any time and step, FMU state get/set/free/serialize,
//! deserialization of random and of mutated serialized bytes, Reset, Terminate, SetDebugLogging,
//! FreeInstance, calls on a null instance, and geometry files written into the resources folder.
//!
//! The harness keeps the importer's side of every contract, so that what breaks is the FMU: it
//! never uses a freed instance or state, every array it passes has exactly the count it passes
//! (or is null), and strings are NUL-terminated. It asserts the FMU's invariants: no panic, even
//! a caught one (libfuzzer-sys aborts on any panic, and a caught one is also logged as an
//! "internal error"); the logging rules of [`log`]; every Float64 a get returned with OK is
//! finite, every Boolean is 0 or 1, every enumeration value an item, every string valid UTF-8;
//! Instantiate succeeds exactly when its arguments are valid; FMI 3 DoStep reports
//! lastSuccessfulTime = t + h on OK and t on Discard; the unsupported functions answer Error.

pub mod api;
pub mod files;
pub mod fmi2;
pub mod fmi3;
pub mod log;
pub mod states;
pub mod values;

use std::ffi::c_void;

use arbitrary::Arbitrary;
use fmi_export::table::ValueType;
use fmi_export::FmuModel;

use values::{Count, Int, Real, Value, Vr};

/// How many instances may be alive at once.
pub const MAX_INSTANCES: usize = 4;
/// FMU state slots per instance.
pub const STATE_SLOTS: usize = 4;
/// Serialized states kept for later deserialization (shared by every instance and model).
pub const SAVED_BYTES: usize = 8;

#[derive(Arbitrary, Debug, Clone, Copy, PartialEq, Eq)]
pub enum Model {
    ContactForce,
    RigidBody,
    PlanarContact,
}

#[derive(Arbitrary, Debug)]
pub struct Input {
    pub ops: Vec<Op>,
}

#[derive(Arbitrary, Debug)]
pub enum Op {
    /// A valid instantiation (the importer's usual arguments, the resources folder given), so
    /// that most inputs reach the later states quickly.
    Session { model: Model, fmi3: bool, logging_on: bool },
    Instantiate2(fmi2::Instantiate),
    Instantiate3(fmi3::Instantiate),
    /// A call on the instance in this slot (modulo the live ones).
    Call(u8, Call),
    /// FreeInstance of the instance in this slot.
    Free(u8),
    /// A call with a null instance pointer.
    CallNull { model: Model, fmi3: bool, call: Call },
    WriteFile(files::WriteFile),
}

/// A call on an instance, interpreted by each version's driver.
#[derive(Arbitrary, Debug)]
pub enum Call {
    SetDebugLogging { on: bool, categories: Vec<Category>, count: Count, null_array: bool },
    /// FMI 2 SetupExperiment (FMI 3: nothing).
    SetupExperiment { tolerance: Option<Real>, start: Real, stop: Option<Real> },
    /// FMI 3 takes the start time here; FMI 2 ignores it.
    EnterInitializationMode { tolerance: Option<Real>, start: Real, stop: Option<Real> },
    ExitInitializationMode,
    /// Enter and exit initialisation at this start time (FMI 2: SetupExperiment first).
    Initialize(Real),
    Terminate,
    Reset,
    Get(Access),
    Set(Access),
    DoStep(Step),
    GetState { slot: u8, null: bool },
    SetState { slot: u8, null: bool },
    FreeState { slot: u8, null: bool },
    StateSize { slot: u8, null: bool },
    Serialize { slot: u8, size: SizeChoice, null_buffer: bool },
    Deserialize { bytes: Bytes, slot: u8, null_target: bool, null_bytes: bool },
    /// FMI 2: fmi2Get*Status; FMI 3: variable dependencies.
    Status { which: u8, kind: Int, vr: Vr, count: Count, nulls: u8 },
    /// One of the functions the FMU does not provide.
    Unsupported(u8),
    Version,
}

#[derive(Arbitrary, Debug, Clone)]
pub enum Category {
    Known(u8),
    Unknown(String),
    Null,
    NotUtf8,
}

/// The types a get or set can use (FMI 2 maps them onto Real, Integer, Boolean and String).
#[derive(Arbitrary, Debug, Clone, Copy, PartialEq, Eq)]
pub enum Ty {
    Float64,
    Float32,
    Int8,
    UInt8,
    Int16,
    UInt16,
    Int32,
    UInt32,
    Int64,
    UInt64,
    Boolean,
    String,
    Binary,
    Clock,
}

/// The arguments of a get or set.
#[derive(Arbitrary, Debug)]
pub struct Access {
    pub ty: Ty,
    pub refs: Vec<Vr>,
    pub values: Vec<Value>,
    /// nvr / nValueReferences.
    pub count: Count,
    /// FMI 3 nValues (`None`: the same as nValueReferences).
    pub value_count: Option<Count>,
    pub null_refs: bool,
    pub null_values: bool,
}

#[derive(Arbitrary, Debug)]
pub struct Step {
    pub at: When,
    pub h: Real,
    pub no_set_prior: bool,
    /// FMI 3: which of the four output pointers are null (bit mask).
    pub null_outputs: u8,
}

/// The communication point of a DoStep.
#[derive(Arbitrary, Debug)]
pub enum When {
    /// The FMU's time, as a get of `time` reports it.
    Now,
    /// The FMU's time plus an offset.
    NowPlus(Real),
    At(Real),
}

#[derive(Arbitrary, Debug, Clone, Copy)]
pub enum SizeChoice {
    Exact,
    Shorter(u8),
    Longer(u8),
}

/// Bytes for DeserializeFMUState.
#[derive(Arbitrary, Debug)]
pub enum Bytes {
    Random(Vec<u8>),
    Saved(u8),
    /// A saved serialization with edits; `fix_checksum` recomputes its FNV-1a checksum, so that
    /// the edits reach the values instead of stopping at the checksum.
    Mutated { saved: u8, edits: Vec<Edit>, fix_checksum: bool },
}

#[derive(Arbitrary, Debug)]
pub enum Edit {
    Flip { at: u16, bit: u8 },
    Byte { at: u16, value: u8 },
    /// Overwrites the `index`-th 8-byte number after the header (the values in table order).
    Number { index: u16, value: Real },
    /// Overwrites the state-machine byte.
    MachineState(u8),
    Insert { at: u16, bytes: Vec<u8> },
    Remove { at: u16, len: u8 },
    Truncate(u16),
}

/// Offset of the first value in a serialized state: the state byte, the magic, the token hash.
const VALUES_OFFSET: usize = 1 + 8 + 8;

impl Bytes {
    pub fn make(&self, saved: &[Vec<u8>]) -> Vec<u8> {
        let pick = |i: u8| saved.get(usize::from(i) % saved.len().max(1)).cloned().unwrap_or_default();
        match self {
            Bytes::Random(bytes) => bytes.clone(),
            Bytes::Saved(i) => pick(*i),
            Bytes::Mutated { saved: i, edits, fix_checksum } => {
                let mut bytes = pick(*i);
                for edit in edits {
                    edit.apply(&mut bytes);
                }
                if *fix_checksum && bytes.len() > 8 {
                    let end = bytes.len() - 8;
                    let sum = fnv1a(&bytes[1..end]);
                    bytes[end..].copy_from_slice(&sum.to_le_bytes());
                }
                bytes
            }
        }
    }
}

impl Edit {
    fn apply(&self, bytes: &mut Vec<u8>) {
        let at = |i: u16, len: usize| usize::from(i) % len.max(1);
        match self {
            Edit::Flip { at: i, bit } if !bytes.is_empty() => {
                let i = at(*i, bytes.len());
                bytes[i] ^= 1 << (bit % 8);
            }
            Edit::Byte { at: i, value } if !bytes.is_empty() => {
                let i = at(*i, bytes.len());
                bytes[i] = *value;
            }
            Edit::Number { index, value } => {
                let start = VALUES_OFFSET + 8 * usize::from(*index);
                if start + 8 <= bytes.len() {
                    bytes[start..start + 8].copy_from_slice(&value.get().to_le_bytes());
                }
            }
            Edit::MachineState(s) if !bytes.is_empty() => bytes[0] = *s,
            Edit::Insert { at: i, bytes: new } => {
                let i = usize::from(*i) % (bytes.len() + 1);
                bytes.splice(i..i, new.iter().copied());
            }
            Edit::Remove { at: i, len } if !bytes.is_empty() => {
                let i = at(*i, bytes.len());
                let end = (i + usize::from(*len)).min(bytes.len());
                bytes.drain(i..end);
            }
            Edit::Truncate(n) => bytes.truncate(usize::from(*n)),
            _ => {}
        }
    }
}

/// FNV-1a 64, as the FMU's serialization checksums itself.
fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, b| (h ^ u64::from(*b)).wrapping_mul(0x0000_0100_0000_01b3))
}

/// One live instance, as the harness tracks it.
pub struct Instance {
    pub model: Model,
    pub fmi3: bool,
    pub pointer: *mut c_void,
    pub env: Box<log::Env>,
    /// FMU states this instance made (null: empty slot).
    pub states: [*mut c_void; STATE_SLOTS],
    /// A call returned Fatal: only FreeInstance is left.
    pub fatal: bool,
}

/// Everything one input's run owns.
#[derive(Default)]
pub struct Run {
    pub instances: Vec<Instance>,
    pub saved: Vec<Vec<u8>>,
    pub files: files::Files,
}

impl Run {
    pub fn keep_serialized(&mut self, bytes: Vec<u8>) {
        if self.saved.len() == SAVED_BYTES {
            self.saved.remove(0);
        }
        self.saved.push(bytes);
    }
}

/// Runs one fuzz input.
pub fn run(input: &Input) {
    files::clear();
    let mut run = Run::default();
    for op in &input.ops {
        match op {
            Op::Session { model, fmi3: true, logging_on } => {
                if run.instances.len() < MAX_INSTANCES {
                    run.instances.extend(fmi3::instantiate(&fmi3::Instantiate::valid(*model, *logging_on), &run.files));
                }
            }
            Op::Session { model, fmi3: false, logging_on } => {
                if run.instances.len() < MAX_INSTANCES {
                    run.instances.extend(fmi2::instantiate(&fmi2::Instantiate::valid(*model, *logging_on), &run.files));
                }
            }
            Op::Instantiate2(args) => {
                if run.instances.len() < MAX_INSTANCES {
                    if let Some(instance) = fmi2::instantiate(args, &run.files) {
                        run.instances.push(instance);
                    }
                }
            }
            Op::Instantiate3(args) => {
                if run.instances.len() < MAX_INSTANCES {
                    if let Some(instance) = fmi3::instantiate(args, &run.files) {
                        run.instances.push(instance);
                    }
                }
            }
            Op::Call(slot, call) => {
                if run.instances.is_empty() {
                    continue;
                }
                let i = usize::from(*slot) % run.instances.len();
                let mut instance = run.instances.swap_remove(i);
                if instance.fmi3 {
                    fmi3::call(&mut instance, call, &mut run);
                } else {
                    fmi2::call(&mut instance, call, &mut run);
                }
                run.instances.push(instance);
            }
            Op::Free(slot) => {
                if !run.instances.is_empty() {
                    let i = usize::from(*slot) % run.instances.len();
                    free(run.instances.swap_remove(i));
                }
            }
            Op::CallNull { model, fmi3, call } => {
                if *fmi3 {
                    fmi3::call_null(*model, call, &mut run);
                } else {
                    fmi2::call_null(*model, call, &mut run);
                }
            }
            Op::WriteFile(write) => run.files.write(write),
        }
    }
    for instance in run.instances.drain(..) {
        free(instance);
    }
}

/// Frees an instance's states, then the instance; it is never used again.
fn free(instance: Instance) {
    if instance.fmi3 {
        fmi3::free(instance);
    } else {
        fmi2::free(instance);
    }
}

/// The checks on values a get returned with OK.
pub fn check_f64<M: FmuModel>(vrs: &[u32], values: &[f64], what: &str) {
    for (vr, x) in vrs.iter().zip(values) {
        assert!(x.is_finite(), "{what}: {}'s value reference {vr} = {x} returned with OK", M::NAME);
    }
}

pub fn check_enumeration<M: FmuModel>(vrs: &[u32], values: &[i64], what: &str) {
    for (vr, x) in vrs.iter().zip(values) {
        if let Some(ValueType::Enumeration(ty)) = M::table().scalar(*vr).map(|s| s.variable.ty) {
            assert!(ty.items.iter().any(|(item, _, _)| item == x), "{what}: enumeration {} of {} has no item {x} (vr {vr})", ty.name, M::NAME);
        }
    }
}

/// # Safety
/// Every pointer is null or points to a NUL-terminated string.
pub unsafe fn check_strings(values: &[*const std::ffi::c_char], what: &str) {
    for p in values {
        assert!(!p.is_null(), "{what}: a string returned with OK is a null pointer");
        // SAFETY: non-null; the FMU promises a NUL-terminated string valid until its next call.
        let text = unsafe { std::ffi::CStr::from_ptr(*p) };
        assert!(text.to_str().is_ok(), "{what}: a string returned with OK is not UTF-8");
    }
}

/// Expected status of the functions the FMU does not provide.
pub fn check_unsupported(status: fmi_export::status::Status, what: &str) {
    assert_eq!(status, fmi_export::status::Status::Error, "{what} is not provided and must answer Error");
}

/// The category index of a known category, if the input names one.
pub fn category_index(c: &Category) -> Option<usize> {
    match c {
        Category::Known(i) => Some(usize::from(*i) % fmi_export::logger::LOG_CATEGORIES.len()),
        _ => None,
    }
}

/// C strings for SetDebugLogging's categories (`None`: null pointer).
pub fn category_strings(categories: &[Category]) -> Vec<Option<std::ffi::CString>> {
    categories
        .iter()
        .map(|c| match c {
            Category::Known(_) => Some(files::c_string(fmi_export::logger::LOG_CATEGORIES[category_index(c).unwrap()].0.as_bytes().to_vec())),
            Category::Unknown(s) => Some(files::c_string(s.as_bytes().to_vec())),
            Category::Null => None,
            Category::NotUtf8 => Some(files::c_string(b"log\xffEvents".to_vec())),
        })
        .collect()
}

/// The value text of a Text, for set string.
pub fn text_strings(run: &Run, values: &[Value]) -> Vec<Option<std::ffi::CString>> {
    values.iter().map(|v| run.files.c_string(&v.as_text())).collect()
}

/// The time for a DoStep: `now` is the FMU's time as a get of `time` reported it.
pub fn step_time(at: &When, now: f64) -> f64 {
    match at {
        When::Now => now,
        When::NowPlus(d) => now + d.get(),
        When::At(t) => t.get(),
    }
}
