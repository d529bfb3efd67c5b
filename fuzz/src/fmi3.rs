//! The FMI 3.0 driver: instantiation and every call of [`Call`] through [`Fmi3Api`].

use std::ffi::{c_char, c_int, c_void, CStr, CString};

use arbitrary::Arbitrary;
use fmi_export::fmi3::abi::{Fmi3Binary, Fmi3DependencyKind};
use fmi_export::fmi3::FMI3_DEPENDENT;
use fmi_export::status::Status;
use fmi_export::table::Causality;
use fmi_export::FmuModel;

use crate::api::{ContactForce, Fmi3Api, PlanarContact, RigidBody};
use crate::files::{c_string, resources, Files};
use crate::fmi2::{Name, Token};
use crate::log::{self, Env};
use crate::states::{self, V3};
use crate::values::{exact, ptr, ptr_mut, Count, Vr};
use crate::{category_index, category_strings, check_enumeration, check_f64, check_strings, check_unsupported, step_time, text_strings};
use crate::{Call, Instance, Model, Run, Ty, STATE_SLOTS};

#[derive(Arbitrary, Debug)]
pub struct Instantiate {
    pub model: Model,
    pub kind: Kind,
    pub name: Name,
    pub token: Token,
    pub resource_path: ResourcePath,
    pub visible: bool,
    pub logging_on: bool,
    pub event_mode_used: bool,
    pub early_return_allowed: bool,
    pub required_intermediate: Vec<Vr>,
    pub null_required: bool,
    pub logger: bool,
    pub intermediate_update: bool,
}

impl Instantiate {
    /// The arguments an importer normally passes.
    pub fn valid(model: Model, logging_on: bool) -> Instantiate {
        Instantiate {
            model,
            kind: Kind::CoSimulation,
            name: Name::Plain,
            token: Token::Right,
            resource_path: ResourcePath::Resources,
            visible: false,
            logging_on,
            event_mode_used: false,
            early_return_allowed: false,
            required_intermediate: Vec::new(),
            null_required: false,
            logger: true,
            intermediate_update: false,
        }
    }
}

#[derive(Arbitrary, Debug, PartialEq, Eq)]
pub enum Kind {
    CoSimulation,
    ModelExchange,
    ScheduledExecution,
}

#[derive(Arbitrary, Debug)]
pub enum ResourcePath {
    Null,
    /// The fuzzer's resources folder with its trailing separator.
    Resources,
    ResourcesNoTrailingSlash,
    Missing,
    Relative,
    NotUtf8,
    Empty,
    Free(String),
}

impl ResourcePath {
    fn make(&self) -> Option<CString> {
        let dir = resources().to_string_lossy().into_owned();
        let bytes = match self {
            ResourcePath::Null => return None,
            ResourcePath::Resources => format!("{dir}/").into_bytes(),
            ResourcePath::ResourcesNoTrailingSlash => dir.into_bytes(),
            ResourcePath::Missing => b"/nonexistent/contact force/resources/".to_vec(),
            ResourcePath::Relative => b"resources/".to_vec(),
            ResourcePath::NotUtf8 => b"/tmp/\xff\xfe/resources/".to_vec(),
            ResourcePath::Empty => Vec::new(),
            ResourcePath::Free(s) => s.as_bytes().to_vec(),
        };
        Some(c_string(bytes))
    }
}

/// An intermediate update callback; the FMU never asks for early return, and may not call it
/// with a wrong environment.
unsafe extern "C" fn intermediate_update(
    _env: *mut c_void,
    _time: f64,
    _set_requested: bool,
    _get_allowed: bool,
    _step_finished: bool,
    _can_return_early: bool,
    early_return_requested: *mut bool,
    _early_return_time: *mut f64,
) {
    if !early_return_requested.is_null() {
        // SAFETY: the FMU's writable output argument.
        unsafe { *early_return_requested = false };
    }
}

pub fn instantiate(args: &Instantiate, files: &Files) -> Option<Instance> {
    let _ = files;
    match args.model {
        Model::ContactForce => instantiate_with::<ContactForce, <RigidBody as Fmi3Api>::Model>(args),
        Model::RigidBody => instantiate_with::<RigidBody, <ContactForce as Fmi3Api>::Model>(args),
        Model::PlanarContact => instantiate_with::<PlanarContact, <ContactForce as Fmi3Api>::Model>(args),
    }
}

fn instantiate_with<A: Fmi3Api, Other: FmuModel>(args: &Instantiate) -> Option<Instance> {
    let (name, logged_name) = args.name.make();
    let (token, right_token) = args.token.make::<A::Model, Other>();
    let path = args.resource_path.make();
    let env = Env::new(logged_name, args.logging_on);
    let name_ptr = name.as_ref().map_or(std::ptr::null(), |s| s.as_ptr());
    let token_ptr = token.as_ref().map_or(std::ptr::null(), |s| s.as_ptr());
    let path_ptr = path.as_ref().map_or(std::ptr::null(), |s| s.as_ptr());
    let logger = args.logger.then_some(log::log3 as unsafe extern "C" fn(*mut c_void, c_int, *const c_char, *const c_char));
    // SAFETY: (every arm) strings null or NUL-terminated, living through the call; the logger's
    // environment lives until the instance is freed; the required variables are exactly as many
    // as passed (or null).
    let pointer = unsafe {
        match args.kind {
            Kind::CoSimulation => {
                let required: Vec<u32> = args.required_intermediate.iter().map(|v| v.get::<A::Model>()).collect();
                let required = required.into_boxed_slice();
                A::fmi3InstantiateCoSimulation(
                    name_ptr,
                    token_ptr,
                    path_ptr,
                    args.visible,
                    args.logging_on,
                    args.event_mode_used,
                    args.early_return_allowed,
                    ptr(&required, args.null_required),
                    required.len(),
                    env.pointer(),
                    logger,
                    args.intermediate_update.then_some(intermediate_update as _),
                )
            }
            Kind::ModelExchange => A::fmi3InstantiateModelExchange(name_ptr, token_ptr, path_ptr, args.visible, args.logging_on, env.pointer(), logger),
            Kind::ScheduledExecution => A::fmi3InstantiateScheduledExecution(
                name_ptr,
                token_ptr,
                path_ptr,
                args.visible,
                args.logging_on,
                env.pointer(),
                logger,
                None,
                None,
                None,
            ),
        }
    };
    log::check("fmi3Instantiate");
    let model_exchange = args.kind == Kind::ModelExchange && <A::Model as FmuModel>::MODEL_EXCHANGE;
    let valid = (args.kind == Kind::CoSimulation || model_exchange) && name.as_ref().is_some_and(|n| n.to_str().is_ok()) && right_token;
    assert_eq!(!pointer.is_null(), valid, "fmi3Instantiate of {} with {args:?}: instance {pointer:p}", A::NAME);
    if pointer.is_null() {
        return None;
    }
    if model_exchange {
        // Model Exchange call sequences are not fuzzed yet (tests/model_exchange_c_api.rs tests
        // them): the instance is only made and freed.
        // SAFETY: made just above, freed once.
        unsafe { A::fmi3FreeInstance(pointer) };
        log::check("fmi3FreeInstance");
        return None;
    }
    Some(Instance { model: args.model, fmi3: true, pointer, env, states: [std::ptr::null_mut(); STATE_SLOTS], fatal: false })
}

pub fn free(instance: Instance) {
    match instance.model {
        Model::ContactForce => free_with::<ContactForce>(instance),
        Model::RigidBody => free_with::<RigidBody>(instance),
        Model::PlanarContact => free_with::<PlanarContact>(instance),
    }
}

fn free_with<A: Fmi3Api>(mut instance: Instance) {
    states::free_all::<V3<A>>(&mut instance);
    // SAFETY: a live instance, freed once and never used again.
    unsafe { A::fmi3FreeInstance(instance.pointer) };
    log::check("fmi3FreeInstance");
}

pub fn call(instance: &mut Instance, call: &Call, run: &mut Run) {
    match instance.model {
        Model::ContactForce => call_with::<ContactForce>(instance.pointer, Some(instance), call, run),
        Model::RigidBody => call_with::<RigidBody>(instance.pointer, Some(instance), call, run),
        Model::PlanarContact => call_with::<PlanarContact>(instance.pointer, Some(instance), call, run),
    };
}

pub fn call_null(model: Model, call: &Call, run: &mut Run) {
    let status = match model {
        Model::ContactForce => call_with::<ContactForce>(std::ptr::null_mut(), None, call, run),
        Model::RigidBody => call_with::<RigidBody>(std::ptr::null_mut(), None, call, run),
        Model::PlanarContact => call_with::<PlanarContact>(std::ptr::null_mut(), None, call, run),
    };
    if let Some(status) = status {
        assert_eq!(status, Status::Error, "a call on a null instance must answer Error: {call:?}");
    }
}

fn call_with<A: Fmi3Api>(c: *mut c_void, mut instance: Option<&mut Instance>, call: &Call, run: &mut Run) -> Option<Status> {
    let status = match call {
        Call::SetDebugLogging { on, categories, count, null_array } => {
            let n = count.get(categories.len());
            let passed = exact(n, categories, crate::Category::Null);
            let strings = category_strings(&passed);
            let pointers: Vec<*const c_char> = strings.iter().map(|s| s.as_ref().map_or(std::ptr::null(), |s| s.as_ptr())).collect();
            // SAFETY: `pointers` holds exactly `n` strings or null pointers (or is null).
            let status = unsafe { A::fmi3SetDebugLogging(c, *on, n, ptr(&pointers, *null_array)) };
            if status == Status::Ok {
                if let Some(instance) = instance.as_deref_mut() {
                    let indices: Vec<usize> = passed.iter().filter_map(category_index).collect();
                    assert_eq!(indices.len(), passed.len(), "fmi3SetDebugLogging accepted an unknown category: {passed:?}");
                    instance.env.set_debug_logging(*on, &indices);
                }
            }
            Some(status)
        }
        Call::SetupExperiment { .. } => None,
        Call::EnterInitializationMode { tolerance, start, stop } => {
            // SAFETY: plain values.
            Some(unsafe {
                A::fmi3EnterInitializationMode(
                    c,
                    tolerance.is_some(),
                    tolerance.map_or(0.0, |t| t.get()),
                    start.get(),
                    stop.is_some(),
                    stop.map_or(0.0, |t| t.get()),
                )
            })
        }
        // SAFETY: plain calls on a live or null instance.
        Call::ExitInitializationMode => Some(unsafe { A::fmi3ExitInitializationMode(c) }),
        Call::Initialize(start) => {
            // SAFETY: plain calls on a live or null instance.
            unsafe {
                let status = A::fmi3EnterInitializationMode(c, false, 0.0, start.get(), false, 0.0);
                log::check("fmi3EnterInitializationMode");
                Some(status.max(A::fmi3ExitInitializationMode(c)))
            }
        }
        // SAFETY: as above.
        Call::Terminate => Some(unsafe { A::fmi3Terminate(c) }),
        Call::Reset => {
            // SAFETY: as above.
            let status = unsafe { A::fmi3Reset(c) };
            if status == Status::Ok {
                if let Some(instance) = instance.as_deref_mut() {
                    instance.env.reset();
                }
            }
            Some(status)
        }
        Call::Get(access) => Some(get::<A>(c, access)),
        Call::Set(access) => Some(set::<A>(c, access, run)),
        Call::DoStep(step) => {
            let now = current_time::<A>(c);
            let t = step_time(&step.at, now);
            let h = step.h.get();
            let (mut event, mut terminate, mut early, mut last) = (true, true, true, f64::NAN);
            let bit = |i: u8| step.null_outputs & (1 << i) != 0;
            // SAFETY: each output pointer is null or one writable value.
            let status = unsafe {
                A::fmi3DoStep(
                    c,
                    t,
                    h,
                    step.no_set_prior,
                    if bit(0) { std::ptr::null_mut() } else { &mut event },
                    if bit(1) { std::ptr::null_mut() } else { &mut terminate },
                    if bit(2) { std::ptr::null_mut() } else { &mut early },
                    if bit(3) { std::ptr::null_mut() } else { &mut last },
                )
            };
            if matches!(status, Status::Ok | Status::Discard) {
                assert!(!terminate, "fmi3DoStep: terminateSimulation");
                assert!(last.is_finite(), "fmi3DoStep({t}, {h}) = {status:?} with lastSuccessfulTime {last}");
                // A model that predicts events may end an OK step early (earlyReturnAllowed), at
                // a time inside the step, and ask for event handling only then.
                if early {
                    assert!(A::Model::MIGHT_RETURN_EARLY && status == Status::Ok, "fmi3DoStep: earlyReturn with {status:?}");
                    assert!(last > t && last < t + h, "early return at {last} outside ({t}, {} )", t + h);
                } else {
                    assert!(!event, "fmi3DoStep: eventHandlingNeeded without earlyReturn");
                    let expected = if status == Status::Ok { t + h } else { t };
                    assert_eq!(last, expected, "lastSuccessfulTime after fmi3DoStep({t}, {h}) = {status:?}");
                }
            }
            Some(status)
        }
        Call::GetState { .. }
        | Call::SetState { .. }
        | Call::FreeState { .. }
        | Call::StateSize { .. }
        | Call::Serialize { .. }
        | Call::Deserialize { .. } => states::call::<V3<A>>(c, instance.as_deref_mut(), call, run),
        Call::Status { which, vr, count, nulls, .. } => Some(dependencies::<A>(c, *which, *vr, *count, *nulls)),
        Call::Unsupported(which) => {
            let (status, what) = unsupported::<A>(c, *which);
            // A model with the co-simulation Event Mode (eventModeUsed) enters and leaves it.
            let event_mode = A::Model::MIGHT_RETURN_EARLY && matches!(what, "fmi3EnterEventMode" | "fmi3EnterStepMode");
            if !(event_mode && status == Status::Ok) {
                check_unsupported(status, what);
            }
            Some(status)
        }
        Call::Version => {
            // SAFETY: a static string.
            unsafe { assert_eq!(CStr::from_ptr(A::fmi3GetVersion()).to_str(), Ok("3.0")) };
            None
        }
    };
    log::check(&format!("{} FMI 3 {call:?}", A::NAME));
    if let (Some(Status::Fatal), Some(instance)) = (status, instance) {
        instance.fatal = true;
    }
    status
}

fn current_time<A: Fmi3Api>(c: *mut c_void) -> f64 {
    let mut t = 0.0;
    // SAFETY: one value reference and one value.
    let status = unsafe { A::fmi3GetFloat64(c, &0, 1, &mut t, 1) };
    log::check("fmi3GetFloat64(time)");
    if status == Status::Ok {
        t
    } else {
        0.0
    }
}

/// The counts and value references of an access: (nValueReferences, value references, nValues).
fn shape<A: Fmi3Api>(access: &crate::Access) -> (usize, Box<[u32]>, usize) {
    let n = access.count.get(access.refs.len());
    let vrs: Vec<u32> = access.refs.iter().map(|v| v.get::<A::Model>()).collect();
    let n_values = access.value_count.map_or(n, |c| c.get(access.values.len()));
    (n, exact(n, &vrs, 0), n_values)
}

fn get<A: Fmi3Api>(c: *mut c_void, access: &crate::Access) -> Status {
    let (n, vrs, nv) = shape::<A>(access);
    let vr = ptr(&vrs, access.null_refs);
    let null = access.null_values;
    let what = format!("{} fmi3Get{:?} {vrs:?}", A::NAME, access.ty);
    macro_rules! absent {
        ($f:ident, $t:ty) => {{
            let mut values = exact(nv, &[], <$t>::default());
            // SAFETY: `vrs` holds `n` elements and `values` `nv` (or they are null).
            unsafe { A::$f(c, vr, n, ptr_mut(&mut values, null), nv) }
        }};
    }
    match access.ty {
        Ty::Float64 => {
            let mut values = exact(nv, &[], 0.0f64);
            // SAFETY: as in `absent`.
            let status = unsafe { A::fmi3GetFloat64(c, vr, n, ptr_mut(&mut values, null), nv) };
            if status == Status::Ok {
                check_f64::<A::Model>(&vrs, &values, &what);
            }
            status
        }
        Ty::Int32 => {
            let mut values = exact(nv, &[], 0i32);
            // SAFETY: as in `absent`.
            unsafe { A::fmi3GetInt32(c, vr, n, ptr_mut(&mut values, null), nv) }
        }
        Ty::Int64 => {
            let mut values = exact(nv, &[], 0i64);
            // SAFETY: as in `absent`.
            let status = unsafe { A::fmi3GetInt64(c, vr, n, ptr_mut(&mut values, null), nv) };
            if status == Status::Ok {
                check_enumeration::<A::Model>(&vrs, &values, &what);
            }
            status
        }
        Ty::Boolean => {
            // Bytes, so that whatever the FMU writes can be read back.
            let mut values = exact(nv, &[], 7u8);
            // SAFETY: as in `absent`; a C bool is one byte.
            let status = unsafe { A::fmi3GetBoolean(c, vr, n, ptr_mut(&mut values, null).cast::<bool>(), nv) };
            if status == Status::Ok {
                assert!(values.iter().all(|b| *b <= 1), "{what}: Booleans {values:?}");
            }
            status
        }
        Ty::String => {
            let mut values = exact(nv, &[], std::ptr::null::<c_char>());
            // SAFETY: as in `absent`.
            let status = unsafe { A::fmi3GetString(c, vr, n, ptr_mut(&mut values, null), nv) };
            if status == Status::Ok {
                // SAFETY: the FMU's strings, valid until its next call.
                unsafe { check_strings(&values, &what) };
            }
            status
        }
        Ty::Binary => {
            let mut sizes = exact(nv, &[], 0usize);
            let mut values = exact(nv, &[], std::ptr::null::<u8>() as Fmi3Binary);
            // SAFETY: both value arrays hold `nv` elements (or are null).
            unsafe { A::fmi3GetBinary(c, vr, n, ptr_mut(&mut sizes, null), ptr_mut(&mut values, null), nv) }
        }
        Ty::Clock => {
            let mut values = exact(n, &[], false);
            // SAFETY: one clock value per value reference.
            unsafe { A::fmi3GetClock(c, vr, n, ptr_mut(&mut values, null)) }
        }
        Ty::Float32 => absent!(fmi3GetFloat32, f32),
        Ty::Int8 => absent!(fmi3GetInt8, i8),
        Ty::UInt8 => absent!(fmi3GetUInt8, u8),
        Ty::Int16 => absent!(fmi3GetInt16, i16),
        Ty::UInt16 => absent!(fmi3GetUInt16, u16),
        Ty::UInt32 => absent!(fmi3GetUInt32, u32),
        Ty::UInt64 => absent!(fmi3GetUInt64, u64),
    }
}

fn set<A: Fmi3Api>(c: *mut c_void, access: &crate::Access, run: &Run) -> Status {
    let (n, vrs, nv) = shape::<A>(access);
    let vr = ptr(&vrs, access.null_refs);
    let null = access.null_values;
    macro_rules! typed {
        ($f:ident, $t:ty, $convert:expr) => {{
            let converted: Vec<$t> = access.values.iter().map($convert).collect();
            let values = exact(nv, &converted, <$t>::default());
            // SAFETY: `vrs` holds `n` elements and `values` `nv` (or they are null).
            unsafe { A::$f(c, vr, n, ptr(&values, null), nv) }
        }};
    }
    match access.ty {
        Ty::Float64 => typed!(fmi3SetFloat64, f64, |v| v.as_f64()),
        Ty::Float32 => typed!(fmi3SetFloat32, f32, |v| v.as_f64() as f32),
        Ty::Int8 => typed!(fmi3SetInt8, i8, |v| v.as_i64() as i8),
        Ty::UInt8 => typed!(fmi3SetUInt8, u8, |v| v.as_i64() as u8),
        Ty::Int16 => typed!(fmi3SetInt16, i16, |v| v.as_i64() as i16),
        Ty::UInt16 => typed!(fmi3SetUInt16, u16, |v| v.as_i64() as u16),
        Ty::Int32 => typed!(fmi3SetInt32, i32, |v| v.as_i64() as i32),
        Ty::UInt32 => typed!(fmi3SetUInt32, u32, |v| v.as_i64() as u32),
        Ty::Int64 => typed!(fmi3SetInt64, i64, |v| v.as_i64()),
        Ty::UInt64 => typed!(fmi3SetUInt64, u64, |v| v.as_i64() as u64),
        Ty::Boolean => {
            let bytes: Vec<u8> = access.values.iter().map(|v| v.as_byte()).collect();
            let values = exact(nv, &bytes, 0u8);
            // SAFETY: `nv` bytes: the FMU reads C bools as bytes, so any byte is allowed.
            unsafe { A::fmi3SetBoolean(c, vr, n, ptr(&values, null).cast::<bool>(), nv) }
        }
        Ty::String => {
            let strings = text_strings(run, &access.values);
            let pointers: Vec<*const c_char> = strings.iter().map(|s| s.as_ref().map_or(std::ptr::null(), |s| s.as_ptr())).collect();
            let pointers = exact(nv, &pointers, std::ptr::null());
            // SAFETY: `nv` strings or null pointers.
            unsafe { A::fmi3SetString(c, vr, n, ptr(&pointers, null), nv) }
        }
        Ty::Binary => {
            let sizes = exact(nv, &[], 0usize);
            let values = exact(nv, &[], std::ptr::null::<u8>() as Fmi3Binary);
            // SAFETY: both arrays hold `nv` elements (or are null); every binary is empty.
            unsafe { A::fmi3SetBinary(c, vr, n, ptr(&sizes, null), ptr(&values, null), nv) }
        }
        Ty::Clock => {
            let values = exact(n, &[], false);
            // SAFETY: one clock value per value reference.
            unsafe { A::fmi3SetClock(c, vr, n, ptr(&values, null)) }
        }
    }
}

/// fmi3GetNumberOfVariableDependencies or fmi3GetVariableDependencies; the dependencies returned
/// with OK must be inputs, element 0, kind fmi3Dependent.
fn dependencies<A: Fmi3Api>(c: *mut c_void, which: u8, vr: Vr, count: Count, nulls: u8) -> Status {
    let vr = vr.get::<A::Model>();
    let mut n = usize::MAX;
    // SAFETY: a writable count, or null.
    let status = unsafe { A::fmi3GetNumberOfVariableDependencies(c, vr, if nulls & 1 != 0 { std::ptr::null_mut() } else { &mut n }) };
    if which.is_multiple_of(2) {
        return status;
    }
    log::check("fmi3GetNumberOfVariableDependencies");
    let n = if status == Status::Ok && matches!(count, Count::All) { n } else { count.get(0) };
    let mut element_of_dependent = exact(n, &[], 9usize);
    let mut independents = exact(n, &[], u32::MAX);
    let mut element_of_independents = exact(n, &[], 9usize);
    let mut kinds = exact(n, &[], -1 as Fmi3DependencyKind);
    let bit = |i: u8| nulls & (2 << i) != 0;
    // SAFETY: each array holds exactly `n` elements (or is null).
    let status = unsafe {
        A::fmi3GetVariableDependencies(
            c,
            vr,
            ptr_mut(&mut element_of_dependent, bit(0)),
            ptr_mut(&mut independents, bit(1)),
            ptr_mut(&mut element_of_independents, bit(2)),
            ptr_mut(&mut kinds, bit(3)),
            n,
        )
    };
    if status == Status::Ok {
        for k in 0..n {
            let input = <A::Model as FmuModel>::table().scalar(independents[k]).map(|s| s.causality());
            assert_eq!(input, Some(Causality::Input), "dependency {k} of vr {vr} is vr {}", independents[k]);
            assert_eq!((element_of_dependent[k], element_of_independents[k], kinds[k]), (0, 0, FMI3_DEPENDENT));
        }
    }
    status
}

/// Calls one of the functions the FMU does not provide, with null arrays and zero counts.
fn unsupported<A: Fmi3Api>(c: *mut c_void, which: u8) -> (Status, &'static str) {
    macro_rules! null {
        () => {
            std::ptr::null_mut()
        };
    }
    // SAFETY: these functions only log and answer Error; every array is null with count 0.
    unsafe {
        match which % 28 {
            0 => (A::fmi3EnterEventMode(c), "fmi3EnterEventMode"),
            1 => (A::fmi3GetDirectionalDerivative(c, null!(), 0, null!(), 0, null!(), 0, null!(), 0), "fmi3GetDirectionalDerivative"),
            2 => (A::fmi3GetAdjointDerivative(c, null!(), 0, null!(), 0, null!(), 0, null!(), 0), "fmi3GetAdjointDerivative"),
            3 => (A::fmi3EnterConfigurationMode(c), "fmi3EnterConfigurationMode"),
            4 => (A::fmi3ExitConfigurationMode(c), "fmi3ExitConfigurationMode"),
            5 => (A::fmi3GetIntervalDecimal(c, null!(), 0, null!(), null!()), "fmi3GetIntervalDecimal"),
            6 => (A::fmi3GetIntervalFraction(c, null!(), 0, null!(), null!(), null!()), "fmi3GetIntervalFraction"),
            7 => (A::fmi3GetShiftDecimal(c, null!(), 0, null!()), "fmi3GetShiftDecimal"),
            8 => (A::fmi3GetShiftFraction(c, null!(), 0, null!(), null!()), "fmi3GetShiftFraction"),
            9 => (A::fmi3SetIntervalDecimal(c, null!(), 0, null!()), "fmi3SetIntervalDecimal"),
            10 => (A::fmi3SetIntervalFraction(c, null!(), 0, null!(), null!()), "fmi3SetIntervalFraction"),
            11 => (A::fmi3SetShiftDecimal(c, null!(), 0, null!()), "fmi3SetShiftDecimal"),
            12 => (A::fmi3SetShiftFraction(c, null!(), 0, null!(), null!()), "fmi3SetShiftFraction"),
            13 => (A::fmi3EvaluateDiscreteStates(c), "fmi3EvaluateDiscreteStates"),
            14 => (A::fmi3UpdateDiscreteStates(c, null!(), null!(), null!(), null!(), null!(), null!()), "fmi3UpdateDiscreteStates"),
            15 => (A::fmi3EnterContinuousTimeMode(c), "fmi3EnterContinuousTimeMode"),
            16 => (A::fmi3CompletedIntegratorStep(c, true, null!(), null!()), "fmi3CompletedIntegratorStep"),
            17 => (A::fmi3SetTime(c, 0.0), "fmi3SetTime"),
            18 => (A::fmi3SetContinuousStates(c, null!(), 0), "fmi3SetContinuousStates"),
            19 => (A::fmi3GetContinuousStateDerivatives(c, null!(), 0), "fmi3GetContinuousStateDerivatives"),
            20 => (A::fmi3GetEventIndicators(c, null!(), 0), "fmi3GetEventIndicators"),
            21 => (A::fmi3GetContinuousStates(c, null!(), 0), "fmi3GetContinuousStates"),
            22 => (A::fmi3GetNominalsOfContinuousStates(c, null!(), 0), "fmi3GetNominalsOfContinuousStates"),
            23 => (A::fmi3GetNumberOfEventIndicators(c, null!()), "fmi3GetNumberOfEventIndicators"),
            24 => (A::fmi3GetNumberOfContinuousStates(c, null!()), "fmi3GetNumberOfContinuousStates"),
            25 => (A::fmi3EnterStepMode(c), "fmi3EnterStepMode"),
            26 => (A::fmi3GetOutputDerivatives(c, null!(), 0, null!(), null!(), 0), "fmi3GetOutputDerivatives"),
            _ => (A::fmi3ActivateModelPartition(c, 0, 0.0), "fmi3ActivateModelPartition"),
        }
    }
}
