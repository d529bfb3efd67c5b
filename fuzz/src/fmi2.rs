//! The FMI 2.0 driver: instantiation and every call of [`Call`] through [`Fmi2Api`].

use std::ffi::{c_char, c_int, c_void, CStr, CString};

use arbitrary::Arbitrary;
use fmi_export::fmi2::{Fmi2CallbackFunctions, FMI2_CO_SIMULATION, FMI2_FALSE, FMI2_LAST_SUCCESSFUL_TIME, FMI2_TRUE};
use fmi_export::status::Status;
use fmi_export::FmuModel;

use crate::api::{ContactForce, Fmi2Api, PlanarContact, RigidBody};
use crate::files::{c_string, resources, Files};
use crate::log::{self, Env};
use crate::states::{self, V2};
use crate::values::{exact, ptr, ptr_mut};
use crate::{category_index, category_strings, check_enumeration, check_f64, check_strings, check_unsupported, step_time, text_strings};
use crate::{Call, Instance, Model, Run, Ty, STATE_SLOTS};

#[derive(Arbitrary, Debug)]
pub struct Instantiate {
    pub model: Model,
    pub name: Name,
    pub fmu_type: FmuType,
    pub guid: Token,
    pub location: Location,
    pub callbacks: Callbacks,
    pub visible: bool,
    pub logging_on: bool,
}

impl Instantiate {
    /// The arguments an importer normally passes.
    pub fn valid(model: Model, logging_on: bool) -> Instantiate {
        Instantiate {
            model,
            name: Name::Plain,
            fmu_type: FmuType::CoSimulation,
            guid: Token::Right,
            location: Location::Resources,
            callbacks: Callbacks::Logger,
            visible: false,
            logging_on,
        }
    }
}

#[derive(Arbitrary, Debug, Clone)]
pub enum Name {
    Plain,
    Empty,
    Null,
    NotUtf8,
    Free(String),
}

impl Name {
    /// The C string and the name the logger must report.
    pub fn make(&self) -> (Option<CString>, Option<String>) {
        match self {
            Name::Plain => (Some(c_string(b"instance".to_vec())), Some("instance".into())),
            Name::Empty => (Some(c_string(Vec::new())), Some(String::new())),
            Name::Null => (None, None),
            Name::NotUtf8 => (Some(c_string(b"inst\xc3ance".to_vec())), None),
            Name::Free(s) => {
                let c = c_string(s.as_bytes().to_vec());
                let name = c.to_str().ok().map(str::to_string);
                (Some(c), name)
            }
        }
    }
}

#[derive(Arbitrary, Debug, Clone)]
pub enum Token {
    Right,
    /// The other model's token.
    OtherModel,
    Null,
    Empty,
    RightWithSuffix,
    Free(String),
}

impl Token {
    /// The C string, and whether it is this model's token.
    pub fn make<M: FmuModel, Other: FmuModel>(&self) -> (Option<CString>, bool) {
        let right = M::table().instantiation_token();
        match self {
            Token::Right => (Some(c_string(right.as_bytes().to_vec())), true),
            Token::OtherModel => (Some(c_string(Other::table().instantiation_token().as_bytes().to_vec())), false),
            Token::Null => (None, false),
            Token::Empty => (Some(c_string(Vec::new())), false),
            Token::RightWithSuffix => (Some(c_string(format!("{right} ").into_bytes())), false),
            Token::Free(s) => {
                let c = c_string(s.as_bytes().to_vec());
                let matches = c.to_bytes() == right.as_bytes();
                (Some(c), matches)
            }
        }
    }
}

#[derive(Arbitrary, Debug)]
pub enum FmuType {
    CoSimulation,
    ModelExchange,
    Other(i32),
}

#[derive(Arbitrary, Debug)]
pub enum Location {
    Null,
    /// file:///…/resources/ of the fuzzer's resources folder.
    Resources,
    ResourcesLocalhost,
    /// `file:/…` (one slash).
    ResourcesShort,
    ResourcesNoTrailingSlash,
    Missing,
    OtherHost,
    Http,
    BadPercent,
    PercentNotUtf8,
    Relative,
    Free(String),
}

impl Location {
    fn make(&self) -> Option<CString> {
        let dir = resources().to_string_lossy().into_owned();
        let text = match self {
            Location::Null => return None,
            Location::Resources => format!("file://{dir}/"),
            Location::ResourcesLocalhost => format!("file://localhost{dir}/"),
            Location::ResourcesShort => format!("file:{dir}/"),
            Location::ResourcesNoTrailingSlash => format!("file://{dir}"),
            Location::Missing => "file:///nonexistent/contact%20force/resources/".into(),
            Location::OtherHost => "file://otherhost/resources/".into(),
            Location::Http => "http://localhost/resources/".into(),
            Location::BadPercent => "file:///tmp/%zz/%".into(),
            Location::PercentNotUtf8 => "file:///tmp/%ff%fe/".into(),
            Location::Relative => "file:resources/".into(),
            Location::Free(s) => s.clone(),
        };
        Some(c_string(text.into_bytes()))
    }
}

#[derive(Arbitrary, Debug)]
pub enum Callbacks {
    Null,
    NoLogger,
    Logger,
}

/// The callbacks struct outlives the instance: the FMU may keep a pointer into it.
struct Functions(Box<Fmi2CallbackFunctions>);

pub fn instantiate(args: &Instantiate, files: &Files) -> Option<Instance> {
    let _ = files;
    match args.model {
        Model::ContactForce => instantiate_with::<ContactForce, <RigidBody as Fmi2Api>::Model>(args),
        Model::RigidBody => instantiate_with::<RigidBody, <ContactForce as Fmi2Api>::Model>(args),
        Model::PlanarContact => instantiate_with::<PlanarContact, <ContactForce as Fmi2Api>::Model>(args),
    }
}

thread_local! {
    /// Callback structs of live instances (kept until the instance is freed).
    static FUNCTIONS: std::cell::RefCell<Vec<(usize, Functions)>> = const { std::cell::RefCell::new(Vec::new()) };
}

fn instantiate_with<A: Fmi2Api, Other: FmuModel>(args: &Instantiate) -> Option<Instance> {
    let (name, logged_name) = args.name.make();
    let (guid, right_guid) = args.guid.make::<A::Model, Other>();
    let location = args.location.make();
    let env = Env::new(logged_name, args.logging_on);
    let functions = Functions(Box::new(Fmi2CallbackFunctions {
        logger: matches!(args.callbacks, Callbacks::Logger).then(log::fmi2_logger),
        allocate_memory: None,
        free_memory: None,
        step_finished: None,
        component_environment: env.pointer(),
    }));
    let fmu_type = match args.fmu_type {
        FmuType::CoSimulation => FMI2_CO_SIMULATION,
        FmuType::ModelExchange => 0,
        FmuType::Other(t) => t,
    };
    let functions_ptr: *const Fmi2CallbackFunctions = if matches!(args.callbacks, Callbacks::Null) { std::ptr::null() } else { &*functions.0 };
    // SAFETY: every string is null or NUL-terminated and lives through the call; the callbacks
    // and their environment live until the instance is freed.
    let pointer = unsafe {
        A::fmi2Instantiate(
            name.as_ref().map_or(std::ptr::null(), |s| s.as_ptr()),
            fmu_type,
            guid.as_ref().map_or(std::ptr::null(), |s| s.as_ptr()),
            location.as_ref().map_or(std::ptr::null(), |s| s.as_ptr()),
            functions_ptr,
            c_int::from(args.visible),
            c_int::from(args.logging_on),
        )
    };
    log::check("fmi2Instantiate");
    let model_exchange = fmu_type == 0 && <A::Model as FmuModel>::MODEL_EXCHANGE;
    let valid = !functions_ptr.is_null()
        && name.as_ref().is_some_and(|n| n.to_str().is_ok())
        && (fmu_type == FMI2_CO_SIMULATION || model_exchange)
        && right_guid;
    assert_eq!(!pointer.is_null(), valid, "fmi2Instantiate of {} with {args:?}: instance {pointer:p}", A::NAME);
    if pointer.is_null() {
        return None;
    }
    if model_exchange {
        // Model Exchange call sequences are not fuzzed yet (tests/model_exchange_c_api.rs tests
        // them): the instance is only made and freed.
        // SAFETY: made just above, freed once.
        unsafe { A::fmi2FreeInstance(pointer) };
        log::check("fmi2FreeInstance");
        return None;
    }
    FUNCTIONS.with(|f| f.borrow_mut().push((pointer as usize, functions)));
    Some(Instance { model: args.model, fmi3: false, pointer, env, states: [std::ptr::null_mut(); STATE_SLOTS], fatal: false })
}

pub fn free(instance: Instance) {
    match instance.model {
        Model::ContactForce => free_with::<ContactForce>(instance),
        Model::RigidBody => free_with::<RigidBody>(instance),
        Model::PlanarContact => free_with::<PlanarContact>(instance),
    }
}

fn free_with<A: Fmi2Api>(mut instance: Instance) {
    states::free_all::<V2<A>>(&mut instance);
    // SAFETY: a live instance, freed once and never used again.
    unsafe { A::fmi2FreeInstance(instance.pointer) };
    log::check("fmi2FreeInstance");
    FUNCTIONS.with(|f| f.borrow_mut().retain(|(p, _)| *p != instance.pointer as usize));
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

/// Makes one call on `c` (null when `instance` is `None`) and checks what came back; returns the
/// status of the call when it returns one.
fn call_with<A: Fmi2Api>(c: *mut c_void, mut instance: Option<&mut Instance>, call: &Call, run: &mut Run) -> Option<Status> {
    let status = match call {
        Call::SetDebugLogging { on, categories, count, null_array } => {
            let n = count.get(categories.len());
            let passed = exact(n, categories, crate::Category::Null);
            let strings = category_strings(&passed);
            let pointers: Vec<*const c_char> = strings.iter().map(|s| s.as_ref().map_or(std::ptr::null(), |s| s.as_ptr())).collect();
            let on_flag = if *on { FMI2_TRUE } else { FMI2_FALSE };
            // SAFETY: `pointers` holds exactly `n` strings or null pointers (or is null).
            let status = unsafe { A::fmi2SetDebugLogging(c, on_flag, n, ptr(&pointers, *null_array)) };
            if status == Status::Ok {
                if let Some(instance) = instance.as_deref_mut() {
                    let indices: Vec<usize> = passed.iter().filter_map(category_index).collect();
                    assert_eq!(indices.len(), passed.len(), "fmi2SetDebugLogging accepted an unknown category: {passed:?}");
                    instance.env.set_debug_logging(*on, &indices);
                }
            }
            Some(status)
        }
        Call::SetupExperiment { tolerance, start, stop } => {
            // SAFETY: plain values.
            Some(unsafe {
                A::fmi2SetupExperiment(
                    c,
                    c_int::from(tolerance.is_some()),
                    tolerance.map_or(0.0, |t| t.get()),
                    start.get(),
                    c_int::from(stop.is_some()),
                    stop.map_or(0.0, |t| t.get()),
                )
            })
        }
        // SAFETY: plain calls on a live or null instance.
        Call::EnterInitializationMode { .. } => Some(unsafe { A::fmi2EnterInitializationMode(c) }),
        // SAFETY: as above.
        Call::ExitInitializationMode => Some(unsafe { A::fmi2ExitInitializationMode(c) }),
        Call::Initialize(start) => {
            // SAFETY: plain calls on a live or null instance.
            unsafe {
                let status = A::fmi2SetupExperiment(c, 0, 0.0, start.get(), 0, 0.0);
                log::check("fmi2SetupExperiment");
                let status = status.max(A::fmi2EnterInitializationMode(c));
                log::check("fmi2EnterInitializationMode");
                Some(status.max(A::fmi2ExitInitializationMode(c)))
            }
        }
        // SAFETY: as above.
        Call::Terminate => Some(unsafe { A::fmi2Terminate(c) }),
        Call::Reset => {
            // SAFETY: as above.
            let status = unsafe { A::fmi2Reset(c) };
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
            // SAFETY: plain values.
            let status = unsafe { A::fmi2DoStep(c, t, step.h.get(), c_int::from(step.no_set_prior)) };
            log::check("fmi2DoStep");
            if matches!(status, Status::Ok | Status::Discard) {
                let mut last = f64::NAN;
                // SAFETY: one writable value.
                let s = unsafe { A::fmi2GetRealStatus(c, FMI2_LAST_SUCCESSFUL_TIME, &mut last) };
                if s == Status::Ok {
                    assert!(last.is_finite(), "fmi2DoStep({t}, {}) gave {status:?} and lastSuccessfulTime {last}", step.h.get());
                    let expected = if status == Status::Ok { t + step.h.get() } else { t };
                    assert_eq!(last, expected, "lastSuccessfulTime after fmi2DoStep({t}, {}) = {status:?}", step.h.get());
                }
            }
            Some(status)
        }
        Call::GetState { .. }
        | Call::SetState { .. }
        | Call::FreeState { .. }
        | Call::StateSize { .. }
        | Call::Serialize { .. }
        | Call::Deserialize { .. } => states::call::<V2<A>>(c, instance.as_deref_mut(), call, run),
        Call::Status { which, kind, nulls, .. } => {
            let kind = kind.get() as c_int;
            let null = *nulls & 1 == 1;
            Some(status_call::<A>(c, *which, kind, null))
        }
        Call::Unsupported(which) => {
            let (status, what) = unsupported::<A>(c, *which);
            // A model that interpolates inputs takes an empty list of input derivatives.
            let takes_derivatives = A::Model::CAN_INTERPOLATE_INPUTS && what == "fmi2SetRealInputDerivatives";
            if !(takes_derivatives && status == Status::Ok) {
                check_unsupported(status, what);
            }
            Some(status)
        }
        Call::Version => {
            // SAFETY: static strings.
            unsafe {
                assert_eq!(CStr::from_ptr(A::fmi2GetVersion()).to_str(), Ok("2.0"));
                assert_eq!(CStr::from_ptr(A::fmi2GetTypesPlatform()).to_str(), Ok("default"));
            }
            None
        }
    };
    log::check(&format!("{} FMI 2 {call:?}", A::NAME));
    if let (Some(Status::Fatal), Some(instance)) = (status, instance) {
        instance.fatal = true;
    }
    status
}

/// The FMU's time from a get of `time` (0 when it cannot be read).
fn current_time<A: Fmi2Api>(c: *mut c_void) -> f64 {
    let mut t = 0.0;
    // SAFETY: one value reference and one value.
    let status = unsafe { A::fmi2GetReal(c, &0, 1, &mut t) };
    log::check("fmi2GetReal(time)");
    if status == Status::Ok {
        t
    } else {
        0.0
    }
}

/// The value references of an access, exactly `n` of them.
fn refs<A: Fmi2Api>(access: &crate::Access, n: usize) -> Box<[u32]> {
    let vrs: Vec<u32> = access.refs.iter().map(|v| v.get::<A::Model>()).collect();
    exact(n, &vrs, 0)
}

fn get<A: Fmi2Api>(c: *mut c_void, access: &crate::Access) -> Status {
    let n = access.count.get(access.refs.len());
    let vrs = refs::<A>(access, n);
    let vr_ptr = ptr(&vrs, access.null_refs);
    let what = format!("{} fmi2Get {:?} {vrs:?}", A::NAME, access.ty);
    match access.ty {
        Ty::Float64 | Ty::Float32 | Ty::Clock => {
            let mut values = exact(n, &[], 0.0f64);
            // SAFETY: `vrs` and `values` hold exactly `n` elements (or are null).
            let status = unsafe { A::fmi2GetReal(c, vr_ptr, n, ptr_mut(&mut values, access.null_values)) };
            if status == Status::Ok {
                check_f64::<A::Model>(&vrs, &values, &what);
            }
            status
        }
        Ty::Boolean => {
            let mut values = exact(n, &[], 7 as c_int);
            // SAFETY: as above.
            let status = unsafe { A::fmi2GetBoolean(c, vr_ptr, n, ptr_mut(&mut values, access.null_values)) };
            if status == Status::Ok {
                assert!(values.iter().all(|b| *b == FMI2_TRUE || *b == FMI2_FALSE), "{what}: Booleans {values:?}");
            }
            status
        }
        Ty::String | Ty::Binary => {
            let mut values = exact(n, &[], std::ptr::null::<c_char>());
            // SAFETY: as above.
            let status = unsafe { A::fmi2GetString(c, vr_ptr, n, ptr_mut(&mut values, access.null_values)) };
            if status == Status::Ok {
                // SAFETY: the FMU's strings, valid until its next call.
                unsafe { check_strings(&values, &what) };
            }
            status
        }
        _ => {
            let mut values = exact(n, &[], 0 as c_int);
            // SAFETY: as above.
            let status = unsafe { A::fmi2GetInteger(c, vr_ptr, n, ptr_mut(&mut values, access.null_values)) };
            if status == Status::Ok {
                let wide: Vec<i64> = values.iter().map(|x| i64::from(*x)).collect();
                check_enumeration::<A::Model>(&vrs, &wide, &what);
            }
            status
        }
    }
}

fn set<A: Fmi2Api>(c: *mut c_void, access: &crate::Access, run: &Run) -> Status {
    let n = access.count.get(access.refs.len());
    let vrs = refs::<A>(access, n);
    let vr_ptr = ptr(&vrs, access.null_refs);
    let null = access.null_values;
    // SAFETY (every arm): `vrs` and the values hold exactly `n` elements (or are null).
    match access.ty {
        Ty::Float64 | Ty::Float32 | Ty::Clock => {
            let values: Vec<f64> = access.values.iter().map(|v| v.as_f64()).collect();
            let values = exact(n, &values, 0.0);
            // SAFETY: the arrays hold exactly `n` elements, or are null.
            unsafe { A::fmi2SetReal(c, vr_ptr, n, ptr(&values, null)) }
        }
        Ty::Boolean => {
            let values: Vec<c_int> = access.values.iter().map(|v| c_int::from(v.as_byte())).collect();
            let values = exact(n, &values, 0);
            // SAFETY: the arrays hold exactly `n` elements, or are null.
            unsafe { A::fmi2SetBoolean(c, vr_ptr, n, ptr(&values, null)) }
        }
        Ty::String | Ty::Binary => {
            let strings = text_strings(run, &access.values);
            let pointers: Vec<*const c_char> = strings.iter().map(|s| s.as_ref().map_or(std::ptr::null(), |s| s.as_ptr())).collect();
            let pointers = exact(n, &pointers, std::ptr::null());
            // SAFETY: the arrays hold exactly `n` elements, or are null.
            unsafe { A::fmi2SetString(c, vr_ptr, n, ptr(&pointers, null)) }
        }
        _ => {
            let values: Vec<c_int> = access.values.iter().map(|v| v.as_i64() as c_int).collect();
            let values = exact(n, &values, 0);
            // SAFETY: the arrays hold exactly `n` elements, or are null.
            unsafe { A::fmi2SetInteger(c, vr_ptr, n, ptr(&values, null)) }
        }
    }
}

fn status_call<A: Fmi2Api>(c: *mut c_void, which: u8, kind: c_int, null: bool) -> Status {
    // SAFETY: (every arm) the value pointer is null or one writable value.
    unsafe {
        match which % 5 {
            0 => {
                let mut v: c_int = 0;
                A::fmi2GetStatus(c, kind, if null { std::ptr::null_mut() } else { &mut v })
            }
            1 => {
                let mut v = f64::NAN;
                let status = A::fmi2GetRealStatus(c, kind, if null { std::ptr::null_mut() } else { &mut v });
                if status == Status::Ok {
                    assert!(v.is_finite(), "fmi2GetRealStatus({kind}) = {v} with OK");
                }
                status
            }
            2 => {
                let mut v: c_int = 0;
                A::fmi2GetIntegerStatus(c, kind, if null { std::ptr::null_mut() } else { &mut v })
            }
            3 => {
                let mut v: c_int = 7;
                let status = A::fmi2GetBooleanStatus(c, kind, if null { std::ptr::null_mut() } else { &mut v });
                if status == Status::Ok {
                    assert!(v == FMI2_TRUE || v == FMI2_FALSE, "fmi2GetBooleanStatus = {v}");
                }
                status
            }
            _ => {
                let mut v: *const c_char = std::ptr::null();
                let status = A::fmi2GetStringStatus(c, kind, if null { std::ptr::null_mut() } else { &mut v });
                if status == Status::Ok {
                    check_strings(&[v], "fmi2GetStringStatus");
                }
                status
            }
        }
    }
}

/// Calls one of the functions the FMU does not provide, with null arrays and zero counts.
fn unsupported<A: Fmi2Api>(c: *mut c_void, which: u8) -> (Status, &'static str) {
    macro_rules! null {
        () => {
            std::ptr::null_mut()
        };
    }
    // SAFETY: these functions only log and answer Error; every array is null with count 0.
    unsafe {
        match which % 13 {
            0 => (A::fmi2CancelStep(c), "fmi2CancelStep"),
            1 => (A::fmi2GetDirectionalDerivative(c, null!(), 0, null!(), 0, null!(), null!()), "fmi2GetDirectionalDerivative"),
            2 => (A::fmi2SetRealInputDerivatives(c, null!(), 0, null!(), null!()), "fmi2SetRealInputDerivatives"),
            3 => (A::fmi2GetRealOutputDerivatives(c, null!(), 0, null!(), null!()), "fmi2GetRealOutputDerivatives"),
            4 => (A::fmi2EnterEventMode(c), "fmi2EnterEventMode"),
            5 => (A::fmi2NewDiscreteStates(c, null!()), "fmi2NewDiscreteStates"),
            6 => (A::fmi2EnterContinuousTimeMode(c), "fmi2EnterContinuousTimeMode"),
            7 => (A::fmi2CompletedIntegratorStep(c, 1, null!(), null!()), "fmi2CompletedIntegratorStep"),
            8 => (A::fmi2SetTime(c, 0.0), "fmi2SetTime"),
            9 => (A::fmi2SetContinuousStates(c, null!(), 0), "fmi2SetContinuousStates"),
            10 => (A::fmi2GetDerivatives(c, null!(), 0), "fmi2GetDerivatives"),
            11 => (A::fmi2GetEventIndicators(c, null!(), 0), "fmi2GetEventIndicators"),
            _ => (A::fmi2GetContinuousStates(c, null!(), 0), "fmi2GetContinuousStates"),
        }
    }
}
