//! The importer's logger: every message the FMU sends is checked against the logging rules, and
//! what breaks one is recorded as a violation that the harness turns into a crash after the call.
//!
//! Rules: the environment pointer is one the harness gave (and still owns); the status is 0..=4;
//! the category is one of the four declared in the model descriptions, the one of the message's
//! status, and switched on (instantiation: events only with loggingOn, the others always;
//! SetDebugLogging; Reset); strings are non-null UTF-8; an FMI 2 message (a printf format
//! string) has no conversion other than "%%"; the FMI 2 instance name is the one instantiated
//! with; no message reports a caught panic ("internal error").

use std::cell::RefCell;
use std::collections::HashSet;
use std::ffi::{c_char, c_int, c_void, CStr};

use fmi_export::logger::{Fmi2LoggerCallback, LOG_CATEGORIES};

/// What the harness knows about one instance's logging.
pub struct Env {
    /// The instance name as instantiated (`None`: null or not UTF-8).
    pub name: Option<String>,
    /// Which categories are on, indexed like [`LOG_CATEGORIES`].
    pub enabled: [bool; 4],
    /// `enabled` at instantiation (Reset returns to it).
    pub initial: [bool; 4],
    /// Messages received (for the regression reports).
    pub messages: RefCell<Vec<String>>,
}

impl Env {
    pub fn new(name: Option<String>, logging_on: bool) -> Box<Env> {
        let enabled = [logging_on, true, true, true];
        let env = Box::new(Env { name, enabled, initial: enabled, messages: RefCell::new(Vec::new()) });
        LIVE.with(|live| live.borrow_mut().insert(env_address(&env)));
        env
    }

    /// The pointer handed to the FMU.
    pub fn pointer(&self) -> *mut c_void {
        (self as *const Env).cast_mut().cast()
    }

    /// SetDebugLogging returned OK: the FMU's documented rule (no names: every category).
    pub fn set_debug_logging(&mut self, on: bool, categories: &[usize]) {
        if categories.is_empty() {
            self.enabled = [on; 4];
        }
        for c in categories {
            self.enabled[*c] = on;
        }
    }

    pub fn reset(&mut self) {
        self.enabled = self.initial;
    }
}

impl Drop for Env {
    fn drop(&mut self) {
        LIVE.with(|live| live.borrow_mut().remove(&env_address(self)));
    }
}

fn env_address(env: &Env) -> usize {
    env as *const Env as usize
}

thread_local! {
    /// Environments the harness owns right now.
    static LIVE: RefCell<HashSet<usize>> = RefCell::new(HashSet::new());
    /// Broken rules since the last check.
    static VIOLATIONS: RefCell<Vec<String>> = const { RefCell::new(Vec::new()) };
}

fn violation(text: String) {
    VIOLATIONS.with(|v| v.borrow_mut().push(text));
}

/// Panics (a finding) if a message broke a rule since the last call.
pub fn check(after: &str) {
    let found = VIOLATIONS.with(|v| std::mem::take(&mut *v.borrow_mut()));
    assert!(found.is_empty(), "logging rules broken during {after}: {found:#?}");
}

/// # Safety
/// Each pointer is null or a NUL-terminated string.
unsafe fn text(what: &str, p: *const c_char) -> Option<String> {
    if p.is_null() {
        violation(format!("{what} is a null pointer"));
        return None;
    }
    // SAFETY: non-null and NUL-terminated by the FMU's contract (the fuzzer checks that it keeps it).
    match unsafe { CStr::from_ptr(p) }.to_str() {
        Ok(s) => Some(s.to_string()),
        Err(_) => {
            violation(format!("{what} is not UTF-8"));
            None
        }
    }
}

/// The checks common to both versions; returns the environment when it is one of ours.
///
/// # Safety
/// The pointers are the FMU's arguments to the logger.
unsafe fn common(env: *mut c_void, status: c_int, category: *const c_char, message: *const c_char) -> Option<(&'static Env, String)> {
    let known = LIVE.with(|live| live.borrow().contains(&(env as usize)));
    if !known {
        violation(format!("the logger got environment {env:p}, which the harness did not give or has freed"));
        return None;
    }
    // SAFETY: the address is a live `Env` the harness owns (checked above); it is only read here.
    let env = unsafe { &*env.cast::<Env>() };
    if !(0..=4).contains(&status) {
        violation(format!("log status {status} is not an fmi status"));
    }
    // SAFETY: the FMU's arguments.
    let category = unsafe { text("category", category) };
    // SAFETY: the FMU's arguments.
    let message = unsafe { text("message", message) }.unwrap_or_default();
    env.messages.borrow_mut().push(message.clone());
    if let Some(category) = category {
        match LOG_CATEGORIES.iter().position(|(name, _)| *name == category) {
            None => violation(format!("undeclared log category {category:?} ({message})")),
            Some(index) => {
                let expected = match status {
                    0 => 0,
                    1 => 1,
                    2 => 2,
                    _ => 3,
                };
                if index != expected {
                    violation(format!("status {status} logged in category {category} ({message})"));
                }
                if !env.enabled[index] {
                    violation(format!("category {category} is switched off, yet logged: {message}"));
                }
            }
        }
    }
    if message.contains("internal error") {
        violation(format!("a panic was caught inside the FMU: {message}"));
    }
    Some((env, message))
}

/// `fmi2CallbackLogger` with its fixed arguments (see [`fmi2_logger`]).
unsafe extern "C" fn log2(env: *mut c_void, instance_name: *const c_char, status: c_int, category: *const c_char, message: *const c_char) {
    // SAFETY: the FMU's arguments.
    let Some((env, text)) = (unsafe { common(env, status, category, message) }) else { return };
    let mut chars = text.chars();
    while let Some(c) = chars.next() {
        if c == '%' && chars.next() != Some('%') {
            violation(format!("an FMI 2 message is a format string, and this one has a conversion: {text:?}"));
            break;
        }
    }
    // SAFETY: the FMU's argument.
    let name = unsafe { self::text("instanceName", instance_name) };
    if let (Some(expected), Some(name)) = (&env.name, name) {
        if *expected != name {
            violation(format!("instance name {name:?} in the log, instantiated as {expected:?}"));
        }
    }
}

/// `log2` as an `fmi2CallbackLogger`.
pub fn fmi2_logger() -> Fmi2LoggerCallback {
    type Fixed = unsafe extern "C" fn(*mut c_void, *const c_char, c_int, *const c_char, *const c_char);
    // SAFETY: on x86-64 System V a variadic call passes the fixed arguments exactly like a
    // non-variadic one, and the FMU passes no variadic argument (its messages escape '%'), so a
    // function taking only the fixed arguments may be called through the variadic type (the
    // project's C API tests do the same).
    unsafe { std::mem::transmute::<Fixed, Fmi2LoggerCallback>(log2) }
}

/// `fmi3LogMessageCallback`.
///
/// # Safety
/// Called by the FMU with its arguments: strings null or NUL-terminated.
pub unsafe extern "C" fn log3(env: *mut c_void, status: c_int, category: *const c_char, message: *const c_char) {
    // SAFETY: the FMU's arguments.
    unsafe { common(env, status, category, message) };
}
