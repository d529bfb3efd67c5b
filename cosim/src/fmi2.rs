//! The FMI 2.0 C API seen from the importer's side: the C types of `fmi2TypesPlatform.h` and
//! `fmi2FunctionTypes.h` that a co-simulation master needs, and [`Api`], the functions of one
//! FMU binary resolved by name after `dlopen`.
//!
//! Only the functions this master calls are resolved; an FMU that lacks one of them is refused when
//! it is loaded, naming the function.

use std::ffi::{c_char, c_int, c_uint, c_void, CStr};
use std::path::Path;

pub type Component = *mut c_void;
pub type ComponentEnvironment = *mut c_void;
pub type ValueReference = c_uint;
pub type Real = f64;
pub type Integer = c_int;
pub type Boolean = c_int;
pub type FmiString = *const c_char;

pub const TRUE: Boolean = 1;
pub const FALSE: Boolean = 0;

/// `fmi2Type`: the master instantiates co-simulation slaves only.
pub const CO_SIMULATION: c_int = 1;

/// `fmi2Status`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Status {
    Ok,
    Warning,
    Discard,
    Error,
    Fatal,
    Pending,
    /// A number outside the enumeration: a broken FMU, reported as such.
    Unknown(c_int),
}

impl Status {
    pub fn from_c(status: c_int) -> Status {
        match status {
            0 => Status::Ok,
            1 => Status::Warning,
            2 => Status::Discard,
            3 => Status::Error,
            4 => Status::Fatal,
            5 => Status::Pending,
            other => Status::Unknown(other),
        }
    }

    /// OK and Warning let the simulation go on; everything else stops it.
    pub fn is_success(self) -> bool {
        matches!(self, Status::Ok | Status::Warning)
    }

    pub fn name(self) -> String {
        match self {
            Status::Ok => "OK".to_string(),
            Status::Warning => "Warning".to_string(),
            Status::Discard => "Discard".to_string(),
            Status::Error => "Error".to_string(),
            Status::Fatal => "Fatal".to_string(),
            Status::Pending => "Pending".to_string(),
            Status::Unknown(n) => format!("invalid status {n}"),
        }
    }
}

/// `fmi2CallbackLogger`: C-variadic (the message is a printf format string with its arguments).
pub type CallbackLogger =
    unsafe extern "C" fn(ComponentEnvironment, FmiString, c_int, FmiString, FmiString, ...);
pub type CallbackAllocateMemory = unsafe extern "C" fn(usize, usize) -> *mut c_void;
pub type CallbackFreeMemory = unsafe extern "C" fn(*mut c_void);
pub type StepFinished = unsafe extern "C" fn(ComponentEnvironment, c_int);

/// `fmi2CallbackFunctions`.
#[repr(C)]
pub struct CallbackFunctions {
    pub logger: Option<CallbackLogger>,
    pub allocate_memory: Option<CallbackAllocateMemory>,
    pub free_memory: Option<CallbackFreeMemory>,
    pub step_finished: Option<StepFinished>,
    pub component_environment: ComponentEnvironment,
}

type GetVersion = unsafe extern "C" fn() -> FmiString;
type Instantiate = unsafe extern "C" fn(
    FmiString,
    c_int,
    FmiString,
    FmiString,
    *const CallbackFunctions,
    Boolean,
    Boolean,
) -> Component;
type FreeInstance = unsafe extern "C" fn(Component);
type SetupExperiment = unsafe extern "C" fn(Component, Boolean, Real, Real, Boolean, Real) -> c_int;
type ComponentOnly = unsafe extern "C" fn(Component) -> c_int;
type GetReal = unsafe extern "C" fn(Component, *const ValueReference, usize, *mut Real) -> c_int;
type GetInteger = unsafe extern "C" fn(Component, *const ValueReference, usize, *mut Integer) -> c_int;
type GetBoolean = unsafe extern "C" fn(Component, *const ValueReference, usize, *mut Boolean) -> c_int;
type GetString = unsafe extern "C" fn(Component, *const ValueReference, usize, *mut FmiString) -> c_int;
type SetReal = unsafe extern "C" fn(Component, *const ValueReference, usize, *const Real) -> c_int;
type SetInteger = unsafe extern "C" fn(Component, *const ValueReference, usize, *const Integer) -> c_int;
type SetBoolean = unsafe extern "C" fn(Component, *const ValueReference, usize, *const Boolean) -> c_int;
type SetString = unsafe extern "C" fn(Component, *const ValueReference, usize, *const FmiString) -> c_int;
type DoStep = unsafe extern "C" fn(Component, Real, Real, Boolean) -> c_int;

/// The functions of one loaded FMU binary. The library stays loaded as long as this value lives,
/// so the function pointers below stay valid.
pub struct Api {
    pub get_version: GetVersion,
    pub instantiate: Instantiate,
    pub free_instance: FreeInstance,
    pub setup_experiment: SetupExperiment,
    pub enter_initialization_mode: ComponentOnly,
    pub exit_initialization_mode: ComponentOnly,
    pub terminate: ComponentOnly,
    pub get_real: GetReal,
    pub get_integer: GetInteger,
    pub get_boolean: GetBoolean,
    pub get_string: GetString,
    pub set_real: SetReal,
    pub set_integer: SetInteger,
    pub set_boolean: SetBoolean,
    pub set_string: SetString,
    pub do_step: DoStep,
    // Declared last: dropped (dlclose) after nothing above can be called any more.
    _library: libloading::Library,
}

impl Api {
    /// Loads the shared library and resolves every function the master calls.
    pub fn load(path: &Path) -> Result<Api, String> {
        // SAFETY: loading a library runs its initialisers; an FMU binary is trusted code by the
        // nature of co-simulation (the master calls into it anyway).
        let library = unsafe { libloading::Library::new(path) }
            .map_err(|e| format!("could not load the FMU binary {}: {e}", path.display()))?;
        /// Resolves one function; the type must be the C signature of that FMI function.
        fn resolve<T: Copy>(library: &libloading::Library, path: &Path, name: &str) -> Result<T, String> {
            // SAFETY: each call below names a function of fmi2FunctionTypes.h together with the
            // Rust type of exactly that function's C signature.
            unsafe { library.get::<T>(name) }
                .map(|symbol| *symbol)
                .map_err(|e| format!("the FMU binary {} does not export {name}: {e}", path.display()))
        }
        let api = Api {
            get_version: resolve(&library, path, "fmi2GetVersion")?,
            instantiate: resolve(&library, path, "fmi2Instantiate")?,
            free_instance: resolve(&library, path, "fmi2FreeInstance")?,
            setup_experiment: resolve(&library, path, "fmi2SetupExperiment")?,
            enter_initialization_mode: resolve(&library, path, "fmi2EnterInitializationMode")?,
            exit_initialization_mode: resolve(&library, path, "fmi2ExitInitializationMode")?,
            terminate: resolve(&library, path, "fmi2Terminate")?,
            get_real: resolve(&library, path, "fmi2GetReal")?,
            get_integer: resolve(&library, path, "fmi2GetInteger")?,
            get_boolean: resolve(&library, path, "fmi2GetBoolean")?,
            get_string: resolve(&library, path, "fmi2GetString")?,
            set_real: resolve(&library, path, "fmi2SetReal")?,
            set_integer: resolve(&library, path, "fmi2SetInteger")?,
            set_boolean: resolve(&library, path, "fmi2SetBoolean")?,
            set_string: resolve(&library, path, "fmi2SetString")?,
            do_step: resolve(&library, path, "fmi2DoStep")?,
            _library: library,
        };
        // SAFETY: fmi2GetVersion takes no argument and returns a static C string (or null from a
        // broken binary, handled).
        let version = unsafe {
            let version = (api.get_version)();
            if version.is_null() {
                String::new()
            } else {
                CStr::from_ptr(version).to_string_lossy().into_owned()
            }
        };
        if version != "2.0" {
            return Err(format!("the FMU binary {} reports FMI version {version:?}, expected \"2.0\"", path.display()));
        }
        Ok(api)
    }
}

unsafe extern "C" {
    fn calloc(count: usize, size: usize) -> *mut c_void;
    fn free(pointer: *mut c_void);
}

/// The C allocator, for FMUs that allocate through the importer's callbacks (FMI 2 requires the
/// importer to provide them).
pub fn allocate_memory() -> CallbackAllocateMemory {
    calloc
}

pub fn free_memory() -> CallbackFreeMemory {
    free
}
