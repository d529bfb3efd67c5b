//! The status every FMI function returns, shared by both versions (their numbering is the same).
#![forbid(unsafe_code)]

use std::fmt;

/// `fmi2Status` / `fmi3Status`. `Pending` (FMI 2 asynchronous steps) is never used.
#[repr(i32)]
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Status {
    Ok = 0,
    Warning = 1,
    Discard = 2,
    Error = 3,
    Fatal = 4,
}

/// A call that did not succeed: Discard, Error or Fatal, with the message for the log.
#[derive(Clone, Debug, PartialEq)]
pub struct Failure {
    pub status: Status,
    pub message: String,
}

impl Failure {
    pub fn error(message: impl Into<String>) -> Self {
        Failure { status: Status::Error, message: message.into() }
    }

    pub fn discard(message: impl Into<String>) -> Self {
        Failure { status: Status::Discard, message: message.into() }
    }
}

impl fmt::Display for Failure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

/// What a function body returns: `Ok(Status::Ok | Status::Warning)` or a [`Failure`].
pub type FmiResult = Result<Status, Failure>;
