//! Logging through the importer's callback, with the importer's environment pointer, in the
//! categories the model descriptions declare, honouring SetDebugLogging.

use std::ffi::{c_char, c_int, c_void, CString};

use super::status::Status;

/// FMI 2 `fmi2CallbackLogger`: the message is a printf format string, so '%' is escaped.
pub type Fmi2LoggerCallback =
    unsafe extern "C" fn(env: *mut c_void, instance_name: *const c_char, status: c_int, category: *const c_char, message: *const c_char, ...);

/// FMI 3 `fmi3LogMessageCallback`.
pub type Fmi3LoggerCallback = unsafe extern "C" fn(env: *mut c_void, status: c_int, category: *const c_char, message: *const c_char);

/// The log categories, declared in both model descriptions (LogCategories) in this order.
pub const LOG_CATEGORIES: [(&str, &str); 4] = [
    ("logEvents", "Lifecycle and step information"),
    ("logStatusWarning", "Warnings"),
    ("logStatusDiscard", "Discarded steps"),
    ("logStatusError", "Errors"),
];

/// The category a message of this status is logged in.
fn category_of(status: Status) -> usize {
    match status {
        Status::Ok => 0,
        Status::Warning => 1,
        Status::Discard => 2,
        Status::Error | Status::Fatal => 3,
    }
}

#[derive(Clone, Copy, Debug)]
enum Callback {
    Fmi2(Fmi2LoggerCallback),
    Fmi3(Fmi3LoggerCallback),
    None,
}

#[derive(Debug)]
pub struct Logger {
    callback: Callback,
    /// The importer's environment pointer, passed back unchanged.
    environment: *mut c_void,
    instance_name: CString,
    /// Which categories are logged, indexed like [`LOG_CATEGORIES`].
    enabled: [bool; 4],
    /// The state of `enabled` at instantiation, restored by Reset.
    initial: [bool; 4],
}

impl Logger {
    fn new(callback: Callback, environment: *mut c_void, instance_name: &str, logging_on: bool) -> Self {
        // Warnings and errors are always worth telling; events only when debug logging is on.
        let enabled = [logging_on, true, true, true];
        let instance_name = CString::new(instance_name.replace('\0', "")).unwrap_or_default();
        Logger { callback, environment, instance_name, enabled, initial: enabled }
    }

    pub fn fmi2(callback: Option<Fmi2LoggerCallback>, environment: *mut c_void, instance_name: &str, logging_on: bool) -> Self {
        Self::new(callback.map_or(Callback::None, Callback::Fmi2), environment, instance_name, logging_on)
    }

    pub fn fmi3(callback: Option<Fmi3LoggerCallback>, environment: *mut c_void, instance_name: &str, logging_on: bool) -> Self {
        Self::new(callback.map_or(Callback::None, Callback::Fmi3), environment, instance_name, logging_on)
    }

    pub fn instance_name(&self) -> &str {
        self.instance_name.to_str().unwrap_or("")
    }

    /// Restores the categories of instantiation time (Reset).
    pub fn reset(&mut self) {
        self.enabled = self.initial;
    }

    /// SetDebugLogging: all categories when `categories` is empty, else the named ones. An
    /// unknown name is an error naming it, and nothing changes.
    pub fn set_debug_logging(&mut self, logging_on: bool, categories: &[&str]) -> Result<(), String> {
        if categories.is_empty() {
            self.enabled = [logging_on; 4];
            return Ok(());
        }
        let mut enabled = self.enabled;
        for name in categories {
            let index = LOG_CATEGORIES.iter().position(|(c, _)| c == name).ok_or_else(|| {
                let known: Vec<&str> = LOG_CATEGORIES.iter().map(|(c, _)| *c).collect();
                format!("unknown log category \"{name}\"; the categories are {}", known.join(", "))
            })?;
            enabled[index] = logging_on;
        }
        self.enabled = enabled;
        Ok(())
    }

    /// Logs `message` with `status` in the category of that status, if that category is on.
    pub fn log(&self, status: Status, message: &str) {
        let index = category_of(status);
        if !self.enabled[index] {
            return;
        }
        let category = CString::new(LOG_CATEGORIES[index].0).expect("category names have no NUL");
        match self.callback {
            Callback::None => {}
            Callback::Fmi2(callback) => {
                let text = CString::new(message.replace('\0', "").replace('%', "%%")).unwrap_or_default();
                // SAFETY: the importer gave this callback for this instance; every pointer passed
                // is a valid NUL-terminated string that outlives the call, and the message has no
                // unescaped '%' so no variadic argument is read.
                unsafe { callback(self.environment, self.instance_name.as_ptr(), status as c_int, category.as_ptr(), text.as_ptr()) }
            }
            Callback::Fmi3(callback) => {
                let text = CString::new(message.replace('\0', "")).unwrap_or_default();
                // SAFETY: as above; FMI 3 messages are plain strings.
                unsafe { callback(self.environment, status as c_int, category.as_ptr(), text.as_ptr()) }
            }
        }
    }
}
