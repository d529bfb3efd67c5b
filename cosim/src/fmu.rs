//! One FMU instance: the archive extracted into its own temporary folder, its model description,
//! its binary loaded with `dlopen`, and the FMI 2 calls a master makes, each status checked.
//!
//! Every instance extracts and loads its own copy of the binary, so two instances of one FMU never
//! share global state, whatever `canBeInstantiatedOnlyOncePerProcess` says; the cost is a few
//! milliseconds of unzipping.
//!
//! The FMU's log messages reach a per-instance buffer through the logger callback. When a call
//! fails, the error names the instance, the function and the status, and carries the messages the
//! FMU logged during that call (or, if it logged none then, its last few messages).

use std::collections::VecDeque;
use std::ffi::{c_char, c_int, c_void, CStr, CString};
use std::fs;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Mutex;

use crate::fmi2::{self, Api, CallbackFunctions, Component, Status, ValueReference};
use crate::model_description::{BaseType, ModelDescription, Variable};
use crate::Error;

/// How many log messages an instance keeps.
const LOG_CAPACITY: usize = 200;
/// How many earlier messages an error quotes when the failing call logged nothing.
const LOG_CONTEXT: usize = 3;

/// One message from the FMU's logger callback.
#[derive(Clone, Debug, PartialEq)]
pub struct LogMessage {
    pub status: Status,
    pub category: String,
    /// The message with the printf escape `%%` turned back into `%`.
    pub message: String,
}

impl std::fmt::Display for LogMessage {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "[{}] {}: {}", self.status.name(), self.category, self.message)
    }
}

/// The logger's environment: the messages of one instance, numbered in arrival order.
#[derive(Default)]
struct LogSink {
    inner: Mutex<LogBuffer>,
}

#[derive(Default)]
struct LogBuffer {
    messages: VecDeque<(u64, LogMessage)>,
    /// Number of the next message.
    next: u64,
}

impl LogSink {
    fn push(&self, message: LogMessage) {
        let mut buffer = self.inner.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        let number = buffer.next;
        buffer.next += 1;
        if buffer.messages.len() == LOG_CAPACITY {
            buffer.messages.pop_front();
        }
        buffer.messages.push_back((number, message));
    }

    fn next(&self) -> u64 {
        self.inner.lock().unwrap_or_else(|poisoned| poisoned.into_inner()).next
    }

    /// Messages numbered `since` or later, else the last few.
    fn since_or_last(&self, since: u64) -> Vec<LogMessage> {
        let buffer = self.inner.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        let recent: Vec<LogMessage> = buffer.messages.iter().filter(|(n, _)| *n >= since).map(|(_, m)| m.clone()).collect();
        if !recent.is_empty() {
            return recent;
        }
        let skip = buffer.messages.len().saturating_sub(LOG_CONTEXT);
        buffer.messages.iter().skip(skip).map(|(_, m)| m.clone()).collect()
    }

    fn all(&self) -> Vec<LogMessage> {
        let buffer = self.inner.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        buffer.messages.iter().map(|(_, m)| m.clone()).collect()
    }
}

/// The logger callback, with the five fixed arguments of `fmi2CallbackLogger` only: see [`logger`].
unsafe extern "C" fn log_message(
    environment: *mut c_void,
    _instance_name: *const c_char,
    status: c_int,
    category: *const c_char,
    message: *const c_char,
) {
    let text = |pointer: *const c_char| {
        if pointer.is_null() {
            String::new()
        } else {
            // SAFETY: the FMU passes NUL-terminated strings valid for the duration of the call.
            unsafe { CStr::from_ptr(pointer) }.to_string_lossy().into_owned()
        }
    };
    if environment.is_null() {
        return;
    }
    // SAFETY: the environment is the `LogSink` this module passed at instantiation; it lives in a
    // Box owned by the instance until after fmi2FreeInstance returns.
    let sink = unsafe { &*environment.cast::<LogSink>() };
    // The message is a printf format string: an FMU that logs a literal '%' escapes it as "%%".
    sink.push(LogMessage { status: Status::from_c(status), category: text(category), message: text(message).replace("%%", "%") });
}

/// `log_message` as an `fmi2CallbackLogger`.
fn logger() -> fmi2::CallbackLogger {
    type Fixed = unsafe extern "C" fn(*mut c_void, *const c_char, c_int, *const c_char, *const c_char);
    // SAFETY: C-variadic functions cannot be defined in stable Rust. On the x86-64 System V ABI
    // (the only platform this master loads binaries for) a variadic call passes the fixed
    // arguments exactly as a non-variadic call does, so a function taking the five fixed arguments
    // may be called through the variadic type; it never reads the variadic arguments (the FMUs
    // this master runs format their messages themselves and escape '%').
    unsafe { std::mem::transmute::<Fixed, fmi2::CallbackLogger>(log_message) }
}

/// A folder in the system's temporary directory, removed with everything in it when dropped.
pub struct TempDir {
    path: PathBuf,
}

impl TempDir {
    pub fn new(prefix: &str) -> Result<TempDir, Error> {
        static COUNTER: AtomicU64 = AtomicU64::new(0);
        let nanos = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map(|d| d.subsec_nanos()).unwrap_or(0);
        for _ in 0..100 {
            let n = COUNTER.fetch_add(1, Ordering::Relaxed);
            let path = std::env::temp_dir().join(format!("{prefix}-{}-{n}-{nanos}", std::process::id()));
            match fs::create_dir(&path) {
                Ok(()) => return Ok(TempDir { path }),
                Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => continue,
                Err(e) => return Err(Error::new(format!("could not create {}: {e}", path.display()))),
            }
        }
        Err(Error::new(format!("could not create a fresh temporary folder in {}", std::env::temp_dir().display())))
    }

    pub fn path(&self) -> &Path {
        &self.path
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        // Best effort: a leftover temporary folder is not worth a panic in a destructor.
        let _ = fs::remove_dir_all(&self.path);
    }
}

/// An FMU archive extracted into a temporary folder, with its model description read.
pub struct ExtractedFmu {
    pub description: ModelDescription,
    dir: TempDir,
    archive: PathBuf,
}

impl ExtractedFmu {
    /// Unzips the archive and reads its modelDescription.xml.
    pub fn open(archive: &Path) -> Result<ExtractedFmu, Error> {
        let context = |e: String| Error::new(format!("{}: {e}", archive.display()));
        let file = fs::File::open(archive).map_err(|e| context(format!("could not open: {e}")))?;
        let mut zip = zip::ZipArchive::new(file).map_err(|e| context(format!("not a valid FMU (zip) archive: {e}")))?;
        let dir = TempDir::new("cosim-fmu")?;
        zip.extract(dir.path()).map_err(|e| context(format!("could not extract into {}: {e}", dir.path().display())))?;
        let xml_path = dir.path().join("modelDescription.xml");
        let xml = fs::read_to_string(&xml_path).map_err(|e| context(format!("no readable modelDescription.xml: {e}")))?;
        let description = ModelDescription::parse(&xml).map_err(|e| context(format!("modelDescription.xml: {e}")))?;
        Ok(ExtractedFmu { description, dir, archive: archive.to_path_buf() })
    }

    /// `binaries/linux64/<modelIdentifier>.so`
    pub fn binary(&self) -> PathBuf {
        self.dir.path().join("binaries").join("linux64").join(format!("{}.so", self.description.model_identifier))
    }

    /// The `file://` URI of the extracted resources/ folder, with a trailing slash.
    pub fn resource_uri(&self) -> String {
        file_uri(&self.dir.path().join("resources"))
    }

    pub fn archive(&self) -> &Path {
        &self.archive
    }
}

/// `file://` URI of an absolute path, percent-encoding everything but unreserved characters and '/'.
pub fn file_uri(path: &Path) -> String {
    let mut uri = String::from("file://");
    for byte in path.to_string_lossy().bytes() {
        if byte.is_ascii_alphanumeric() || b"-._~/".contains(&byte) {
            uri.push(byte as char);
        } else {
            uri.push_str(&format!("%{byte:02X}"));
        }
    }
    if !uri.ends_with('/') {
        uri.push('/');
    }
    uri
}

/// Where an instance is in the FMI 2 co-simulation life cycle, for a clean shutdown.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Phase {
    Instantiated,
    Initialization,
    Stepping,
    Terminated,
}

/// A value given by name (parameters, start values).
#[derive(Clone, Debug, PartialEq)]
pub enum Value {
    Real(f64),
    Integer(i32),
    Boolean(bool),
    String(String),
}

/// One instantiated FMU.
pub struct Instance {
    name: String,
    component: Component,
    phase: Phase,
    log: Box<LogSink>,
    _callbacks: Box<CallbackFunctions>,
    api: Api,
    // Declared last: the folder is removed after the library is unloaded.
    fmu: ExtractedFmu,
}

impl Instance {
    /// Extracts the FMU, loads its binary and calls fmi2Instantiate (co-simulation, not visible).
    pub fn new(name: &str, archive: &Path, logging_on: bool) -> Result<Instance, Error> {
        let fmu = ExtractedFmu::open(archive)?;
        let binary = fmu.binary();
        if !binary.is_file() {
            return Err(Error::new(format!(
                "{}: no binary for this platform: {} is missing from the archive",
                archive.display(),
                binary.strip_prefix(fmu.dir.path()).unwrap_or(&binary).display()
            )));
        }
        let api = Api::load(&binary).map_err(|e| Error::new(format!("{}: {e}", archive.display())))?;
        let log: Box<LogSink> = Box::default();
        let callbacks = Box::new(CallbackFunctions {
            logger: Some(logger()),
            allocate_memory: Some(fmi2::allocate_memory()),
            free_memory: Some(fmi2::free_memory()),
            step_finished: None,
            component_environment: (&*log as *const LogSink).cast_mut().cast(),
        });
        let c_name = c_string(name, "instance name")?;
        let guid = c_string(&fmu.description.guid, "GUID")?;
        let location = c_string(&fmu.resource_uri(), "resource location")?;
        // SAFETY: valid NUL-terminated strings for the call; the callbacks and their environment
        // are boxed and owned by the instance, so they outlive the component.
        let component = unsafe {
            (api.instantiate)(
                c_name.as_ptr(),
                fmi2::CO_SIMULATION,
                guid.as_ptr(),
                location.as_ptr(),
                &*callbacks,
                fmi2::FALSE,
                if logging_on { fmi2::TRUE } else { fmi2::FALSE },
            )
        };
        if component.is_null() {
            let messages = log.since_or_last(0);
            return Err(Error::new(format!("{name}: fmi2Instantiate failed (returned null){}", quote(&messages))));
        }
        Ok(Instance { name: name.to_string(), component, phase: Phase::Instantiated, log, _callbacks: callbacks, api, fmu })
    }

    pub fn name(&self) -> &str {
        &self.name
    }

    pub fn description(&self) -> &ModelDescription {
        &self.fmu.description
    }

    pub fn archive(&self) -> &Path {
        self.fmu.archive()
    }

    /// The messages the FMU logged (the last 200).
    pub fn log(&self) -> Vec<LogMessage> {
        self.log.all()
    }

    /// Looks a variable up by name; the error names the instance and the FMU.
    pub fn variable(&self, name: &str) -> Result<&Variable, Error> {
        self.description().variable(name).ok_or_else(|| {
            Error::new(format!("{}: {} has no variable {name}", self.name, self.description().model_name))
        })
    }

    /// Runs one FMI call and turns a status other than OK/Warning into an error quoting the log.
    fn call(&self, function: &str, body: impl FnOnce() -> c_int) -> Result<(), Error> {
        let since = self.log.next();
        let status = Status::from_c(body());
        if status.is_success() {
            Ok(())
        } else {
            let messages = self.log.since_or_last(since);
            Err(Error::new(format!("{}: {function} returned {}{}", self.name, status.name(), quote(&messages))))
        }
    }

    /// fmi2SetupExperiment (no tolerance) and fmi2EnterInitializationMode.
    pub fn enter_initialization(&mut self, start_time: f64, stop_time: Option<f64>) -> Result<(), Error> {
        let (stop_defined, stop) = match stop_time {
            Some(stop) => (fmi2::TRUE, stop),
            None => (fmi2::FALSE, 0.0),
        };
        // SAFETY: a live component from this library.
        self.call("fmi2SetupExperiment", || unsafe {
            (self.api.setup_experiment)(self.component, fmi2::FALSE, 0.0, start_time, stop_defined, stop)
        })?;
        // SAFETY: as above.
        self.call("fmi2EnterInitializationMode", || unsafe { (self.api.enter_initialization_mode)(self.component) })?;
        self.phase = Phase::Initialization;
        Ok(())
    }

    pub fn exit_initialization(&mut self) -> Result<(), Error> {
        // SAFETY: a live component from this library.
        self.call("fmi2ExitInitializationMode", || unsafe { (self.api.exit_initialization_mode)(self.component) })?;
        self.phase = Phase::Stepping;
        Ok(())
    }

    /// fmi2DoStep over [t, t + h]; the master never rolls back, hence noSetFMUStatePriorToCurrentPoint.
    pub fn do_step(&mut self, t: f64, h: f64) -> Result<(), Error> {
        // SAFETY: a live component from this library.
        self.call("fmi2DoStep", || unsafe { (self.api.do_step)(self.component, t, h, fmi2::TRUE) })
            .map_err(|e| Error::new(format!("{e} (step from t = {t} s over {h} s)")))
    }

    pub fn terminate(&mut self) -> Result<(), Error> {
        if self.phase != Phase::Stepping {
            return Ok(());
        }
        self.phase = Phase::Terminated;
        // SAFETY: a live component from this library.
        self.call("fmi2Terminate", || unsafe { (self.api.terminate)(self.component) })
    }

    /// Sets a value by name, converting between Real and Integer where no information is lost.
    pub fn set(&mut self, name: &str, value: &Value) -> Result<(), Error> {
        let variable = self.variable(name)?.clone();
        let vr = [variable.value_reference];
        let wrong = || Error::new(format!("{}: {name} is {}, it cannot take {value:?}", self.name, variable.var_type.base().name()));
        match (variable.var_type.base(), value) {
            (BaseType::Real, Value::Real(x)) => self.set_real(&vr, &[*x]),
            (BaseType::Real, Value::Integer(i)) => self.set_real(&vr, &[f64::from(*i)]),
            (BaseType::Integer, Value::Integer(i)) => self.set_integer(&vr, &[*i]),
            (BaseType::Boolean, Value::Boolean(b)) => self.set_boolean(&vr, &[*b]),
            (BaseType::String, Value::String(s)) => self.set_string(&vr, s),
            _ => Err(wrong()),
        }
    }

    /// Gets a value by name.
    pub fn get(&self, name: &str) -> Result<Value, Error> {
        let variable = self.variable(name)?;
        let vr = [variable.value_reference];
        Ok(match variable.var_type.base() {
            BaseType::Real => Value::Real(self.get_real(&vr)?[0]),
            BaseType::Integer => Value::Integer(self.get_integer(&vr)?[0]),
            BaseType::Boolean => Value::Boolean(self.get_boolean(&vr)?[0]),
            BaseType::String => Value::String(self.get_string(variable.value_reference)?),
        })
    }

    pub fn set_real(&mut self, vrs: &[ValueReference], values: &[f64]) -> Result<(), Error> {
        assert_eq!(vrs.len(), values.len());
        // SAFETY: a live component; both arrays hold vrs.len() elements.
        self.call("fmi2SetReal", || unsafe { (self.api.set_real)(self.component, vrs.as_ptr(), vrs.len(), values.as_ptr()) })
            .map_err(|e| self.name_values(e, vrs))
    }

    pub fn set_integer(&mut self, vrs: &[ValueReference], values: &[i32]) -> Result<(), Error> {
        assert_eq!(vrs.len(), values.len());
        // SAFETY: a live component; both arrays hold vrs.len() elements.
        self.call("fmi2SetInteger", || unsafe { (self.api.set_integer)(self.component, vrs.as_ptr(), vrs.len(), values.as_ptr()) })
            .map_err(|e| self.name_values(e, vrs))
    }

    pub fn set_boolean(&mut self, vrs: &[ValueReference], values: &[bool]) -> Result<(), Error> {
        assert_eq!(vrs.len(), values.len());
        let values: Vec<fmi2::Boolean> = values.iter().map(|&b| if b { fmi2::TRUE } else { fmi2::FALSE }).collect();
        // SAFETY: a live component; both arrays hold vrs.len() elements.
        self.call("fmi2SetBoolean", || unsafe { (self.api.set_boolean)(self.component, vrs.as_ptr(), vrs.len(), values.as_ptr()) })
            .map_err(|e| self.name_values(e, vrs))
    }

    pub fn set_string(&mut self, vrs: &[ValueReference], value: &str) -> Result<(), Error> {
        let value = c_string(value, "string value")?;
        let pointers: Vec<fmi2::FmiString> = vrs.iter().map(|_| value.as_ptr()).collect();
        // SAFETY: a live component; the strings live until the call returns (the FMU copies them).
        self.call("fmi2SetString", || unsafe { (self.api.set_string)(self.component, vrs.as_ptr(), vrs.len(), pointers.as_ptr()) })
            .map_err(|e| self.name_values(e, vrs))
    }

    pub fn get_real(&self, vrs: &[ValueReference]) -> Result<Vec<f64>, Error> {
        let mut values = vec![0.0; vrs.len()];
        self.get_real_into(vrs, &mut values)?;
        Ok(values)
    }

    /// fmi2GetReal into a caller's buffer (no allocation in the stepping loop).
    pub fn get_real_into(&self, vrs: &[ValueReference], values: &mut [f64]) -> Result<(), Error> {
        assert_eq!(vrs.len(), values.len());
        // SAFETY: a live component; both arrays hold vrs.len() elements.
        self.call("fmi2GetReal", || unsafe { (self.api.get_real)(self.component, vrs.as_ptr(), vrs.len(), values.as_mut_ptr()) })
            .map_err(|e| self.name_values(e, vrs))
    }

    pub fn get_integer(&self, vrs: &[ValueReference]) -> Result<Vec<i32>, Error> {
        let mut values = vec![0; vrs.len()];
        // SAFETY: a live component; both arrays hold vrs.len() elements.
        self.call("fmi2GetInteger", || unsafe { (self.api.get_integer)(self.component, vrs.as_ptr(), vrs.len(), values.as_mut_ptr()) })
            .map_err(|e| self.name_values(e, vrs))?;
        Ok(values)
    }

    pub fn get_boolean(&self, vrs: &[ValueReference]) -> Result<Vec<bool>, Error> {
        let mut values = vec![fmi2::FALSE; vrs.len()];
        // SAFETY: a live component; both arrays hold vrs.len() elements.
        self.call("fmi2GetBoolean", || unsafe { (self.api.get_boolean)(self.component, vrs.as_ptr(), vrs.len(), values.as_mut_ptr()) })
            .map_err(|e| self.name_values(e, vrs))?;
        Ok(values.into_iter().map(|b| b != fmi2::FALSE).collect())
    }

    pub fn get_string(&self, vr: ValueReference) -> Result<String, Error> {
        let mut value: fmi2::FmiString = std::ptr::null();
        // SAFETY: a live component; one value reference and one output slot.
        self.call("fmi2GetString", || unsafe { (self.api.get_string)(self.component, &vr, 1, &mut value) })
            .map_err(|e| self.name_values(e, &[vr]))?;
        if value.is_null() {
            return Ok(String::new());
        }
        // SAFETY: the FMU returns a NUL-terminated string valid until its next call.
        Ok(unsafe { CStr::from_ptr(value) }.to_string_lossy().into_owned())
    }

    /// Gets values of one base type as f64 (Boolean as 0 or 1): the master's exchange format.
    pub fn get_numeric(&self, base: BaseType, vrs: &[ValueReference], out: &mut [f64]) -> Result<(), Error> {
        match base {
            BaseType::Real => self.get_real_into(vrs, out),
            BaseType::Integer => {
                for (o, v) in out.iter_mut().zip(self.get_integer(vrs)?) {
                    *o = f64::from(v);
                }
                Ok(())
            }
            BaseType::Boolean => {
                for (o, v) in out.iter_mut().zip(self.get_boolean(vrs)?) {
                    *o = if v { 1.0 } else { 0.0 };
                }
                Ok(())
            }
            BaseType::String => Err(Error::new(format!("{}: String variables cannot be exchanged or recorded", self.name))),
        }
    }

    /// Sets values of one base type from f64 (Integer rounded, Boolean true when non-zero).
    pub fn set_numeric(&mut self, base: BaseType, vrs: &[ValueReference], values: &[f64]) -> Result<(), Error> {
        match base {
            BaseType::Real => self.set_real(vrs, values),
            BaseType::Integer => {
                let values: Vec<i32> = values.iter().map(|v| v.round() as i32).collect();
                self.set_integer(vrs, &values)
            }
            BaseType::Boolean => {
                let values: Vec<bool> = values.iter().map(|&v| v != 0.0).collect();
                self.set_boolean(vrs, &values)
            }
            BaseType::String => Err(Error::new(format!("{}: String variables cannot be exchanged or recorded", self.name))),
        }
    }

    /// Adds the names of the variables involved to a failed get/set.
    fn name_values(&self, error: Error, vrs: &[ValueReference]) -> Error {
        let names: Vec<&str> = vrs
            .iter()
            .filter_map(|vr| self.description().variables.iter().find(|v| v.value_reference == *vr).map(|v| v.name.as_str()))
            .collect();
        Error::new(format!("{error} (variables: {})", names.join(", ")))
    }
}

impl Drop for Instance {
    fn drop(&mut self) {
        // fmi2Terminate is optional before fmi2FreeInstance; its failure changes nothing here.
        let _ = self.terminate();
        // SAFETY: the component is live and freed exactly once; the callbacks outlive the call.
        unsafe { (self.api.free_instance)(self.component) };
    }
}

fn c_string(text: &str, what: &str) -> Result<CString, Error> {
    CString::new(text).map_err(|_| Error::new(format!("the {what} {text:?} contains a NUL character")))
}

/// ": FMU log: ..." with the messages, or nothing when there are none.
fn quote(messages: &[LogMessage]) -> String {
    if messages.is_empty() {
        String::from(" (the FMU logged nothing)")
    } else {
        let lines: Vec<String> = messages.iter().map(|m| format!("\n    {m}")).collect();
        format!("; FMU log:{}", lines.concat())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn resource_uris_are_percent_encoded_with_a_trailing_slash() {
        assert_eq!(file_uri(Path::new("/tmp/my fmu/résources")), "file:///tmp/my%20fmu/r%C3%A9sources/");
        assert_eq!(file_uri(Path::new("/tmp/a_b-c.d~e/")), "file:///tmp/a_b-c.d~e/");
    }

    #[test]
    fn the_temporary_folder_goes_away_with_its_contents() {
        let dir = TempDir::new("cosim-unit").unwrap();
        let path = dir.path().to_path_buf();
        fs::write(path.join("file"), "x").unwrap();
        drop(dir);
        assert!(!path.exists());
    }
}
