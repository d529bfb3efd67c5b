//! The FMU-state calls of both FMI versions, driven and checked once: GetFMUState, SetFMUState,
//! FreeFMUState, SerializedFMUStateSize, SerializeFMUState and DeserializeFMUState take the same
//! arguments in FMI 2.0 and FMI 3.0 (FMI 2's byte buffers are `char`, FMI 3's `fmi3Byte`), so
//! each version's driver hands them to [`call`] through the six functions of [`StateApi`].

use std::ffi::{c_char, c_void};
use std::marker::PhantomData;

use fmi_export::status::Status;

use crate::api::{Fmi2Api, Fmi3Api};
use crate::log;
use crate::values::{ptr, ptr_mut};
use crate::{Call, Instance, Run, SizeChoice, STATE_SLOTS};

/// One FMI version's FMU-state functions of one model, with their names for the messages.
pub trait StateApi {
    /// `fmi2GetFMUstate` or `fmi3GetFMUState`, and so on.
    const NAMES: [&'static str; 6];
    /// # Safety
    /// The arguments keep the contract of the standard's function.
    unsafe fn get(c: *mut c_void, state: *mut *mut c_void) -> Status;
    /// # Safety
    /// The arguments keep the contract of the standard's function.
    unsafe fn set(c: *mut c_void, state: *mut c_void) -> Status;
    /// # Safety
    /// The arguments keep the contract of the standard's function.
    unsafe fn free(c: *mut c_void, state: *mut *mut c_void) -> Status;
    /// # Safety
    /// The arguments keep the contract of the standard's function.
    unsafe fn size(c: *mut c_void, state: *mut c_void, size: *mut usize) -> Status;
    /// # Safety
    /// The arguments keep the contract of the standard's function.
    unsafe fn serialize(c: *mut c_void, state: *mut c_void, bytes: *mut u8, size: usize) -> Status;
    /// # Safety
    /// The arguments keep the contract of the standard's function.
    unsafe fn deserialize(c: *mut c_void, bytes: *const u8, size: usize, state: *mut *mut c_void) -> Status;
}

/// The FMI 2.0 state functions of `A`.
pub struct V2<A>(PhantomData<A>);
/// The FMI 3.0 state functions of `A`.
pub struct V3<A>(PhantomData<A>);

impl<A: Fmi2Api> StateApi for V2<A> {
    const NAMES: [&'static str; 6] =
        ["fmi2GetFMUstate", "fmi2SetFMUstate", "fmi2FreeFMUstate", "fmi2SerializedFMUstateSize", "fmi2SerializeFMUstate", "fmi2DeSerializeFMUstate"];
    unsafe fn get(c: *mut c_void, state: *mut *mut c_void) -> Status {
        // SAFETY: the caller keeps the function's contract.
        unsafe { A::fmi2GetFMUstate(c, state) }
    }
    unsafe fn set(c: *mut c_void, state: *mut c_void) -> Status {
        // SAFETY: as above.
        unsafe { A::fmi2SetFMUstate(c, state) }
    }
    unsafe fn free(c: *mut c_void, state: *mut *mut c_void) -> Status {
        // SAFETY: as above.
        unsafe { A::fmi2FreeFMUstate(c, state) }
    }
    unsafe fn size(c: *mut c_void, state: *mut c_void, size: *mut usize) -> Status {
        // SAFETY: as above.
        unsafe { A::fmi2SerializedFMUstateSize(c, state, size) }
    }
    unsafe fn serialize(c: *mut c_void, state: *mut c_void, bytes: *mut u8, size: usize) -> Status {
        // SAFETY: as above.
        unsafe { A::fmi2SerializeFMUstate(c, state, bytes.cast::<c_char>(), size) }
    }
    unsafe fn deserialize(c: *mut c_void, bytes: *const u8, size: usize, state: *mut *mut c_void) -> Status {
        // SAFETY: as above.
        unsafe { A::fmi2DeSerializeFMUstate(c, bytes.cast::<c_char>(), size, state) }
    }
}

impl<A: Fmi3Api> StateApi for V3<A> {
    const NAMES: [&'static str; 6] =
        ["fmi3GetFMUState", "fmi3SetFMUState", "fmi3FreeFMUState", "fmi3SerializedFMUStateSize", "fmi3SerializeFMUState", "fmi3DeserializeFMUState"];
    unsafe fn get(c: *mut c_void, state: *mut *mut c_void) -> Status {
        // SAFETY: the caller keeps the function's contract.
        unsafe { A::fmi3GetFMUState(c, state) }
    }
    unsafe fn set(c: *mut c_void, state: *mut c_void) -> Status {
        // SAFETY: as above.
        unsafe { A::fmi3SetFMUState(c, state) }
    }
    unsafe fn free(c: *mut c_void, state: *mut *mut c_void) -> Status {
        // SAFETY: as above.
        unsafe { A::fmi3FreeFMUState(c, state) }
    }
    unsafe fn size(c: *mut c_void, state: *mut c_void, size: *mut usize) -> Status {
        // SAFETY: as above.
        unsafe { A::fmi3SerializedFMUStateSize(c, state, size) }
    }
    unsafe fn serialize(c: *mut c_void, state: *mut c_void, bytes: *mut u8, size: usize) -> Status {
        // SAFETY: as above.
        unsafe { A::fmi3SerializeFMUState(c, state, bytes, size) }
    }
    unsafe fn deserialize(c: *mut c_void, bytes: *const u8, size: usize, state: *mut *mut c_void) -> Status {
        // SAFETY: as above.
        unsafe { A::fmi3DeserializeFMUState(c, bytes, size, state) }
    }
}

/// The state in `slot` of the instance (null for a null instance or when `null`).
fn state_of(instance: Option<&Instance>, slot: u8, null: bool) -> *mut c_void {
    match instance {
        Some(instance) if !null => instance.states[usize::from(slot) % STATE_SLOTS],
        _ => std::ptr::null_mut(),
    }
}

/// Where a call that makes or frees a state writes: null when `null`, the instance's slot, or a
/// scratch pointer for a null instance (which must stay null).
fn target(instance: Option<&mut Instance>, slot: u8, null: bool, scratch: &mut *mut c_void) -> *mut *mut c_void {
    match instance {
        _ if null => std::ptr::null_mut(),
        Some(instance) => &mut instance.states[usize::from(slot) % STATE_SLOTS],
        None => scratch,
    }
}

/// Makes the FMU-state call `call` on `c` (null when `instance` is `None`) and checks what came
/// back; `None` when `call` is no FMU-state call.
pub(crate) fn call<S: StateApi>(c: *mut c_void, mut instance: Option<&mut Instance>, call: &Call, run: &mut Run) -> Option<Status> {
    let [get, _, free, size_name, serialize, deserialize] = S::NAMES;
    let status = match call {
        Call::GetState { slot, null } => {
            let mut scratch = std::ptr::null_mut();
            // SAFETY: the target is null or a slot holding null or a live state of this instance.
            let status = unsafe { S::get(c, target(instance.as_deref_mut(), *slot, *null, &mut scratch)) };
            assert!(scratch.is_null(), "{get} on a null instance made a state");
            if let (Status::Ok, false, Some(instance)) = (status, *null, instance.as_deref()) {
                assert!(!instance.states[usize::from(*slot) % STATE_SLOTS].is_null(), "{get} returned OK and no state");
            }
            status
        }
        Call::SetState { slot, null } => {
            // SAFETY: null or a live state of this instance.
            unsafe { S::set(c, state_of(instance.as_deref(), *slot, *null)) }
        }
        Call::FreeState { slot, null } => {
            let mut scratch = std::ptr::null_mut();
            // SAFETY: null, or a slot holding null or a live state of this instance.
            let status = unsafe { S::free(c, target(instance.as_deref_mut(), *slot, *null, &mut scratch)) };
            if let (Status::Ok, false, Some(instance)) = (status, *null, instance.as_deref()) {
                assert!(instance.states[usize::from(*slot) % STATE_SLOTS].is_null(), "{free} returned OK and left the pointer set");
            }
            status
        }
        Call::StateSize { slot, null } => {
            let state = state_of(instance.as_deref(), *slot, false);
            let mut size = usize::MAX;
            let size_ptr: *mut usize = if *null { std::ptr::null_mut() } else { &mut size };
            // SAFETY: null or a live state; `size_ptr` null or writable.
            let status = unsafe { S::size(c, state, size_ptr) };
            if status == Status::Ok {
                assert!(size < 1 << 20, "{size_name} = {size}");
            }
            status
        }
        Call::Serialize { slot, size, null_buffer } => {
            let state = state_of(instance.as_deref(), *slot, false);
            let mut needed = 64;
            // SAFETY: null or a live state; a writable size.
            if unsafe { S::size(c, state, &mut needed) } != Status::Ok {
                needed = 64;
            }
            log::check(size_name);
            let len = match size {
                SizeChoice::Exact => needed,
                SizeChoice::Shorter(k) => needed.saturating_sub(usize::from(*k) + 1),
                SizeChoice::Longer(k) => needed + usize::from(*k),
            };
            let mut buffer = vec![0u8; len].into_boxed_slice();
            // SAFETY: the buffer holds exactly `len` bytes (or the pointer is null).
            let status = unsafe { S::serialize(c, state, ptr_mut(&mut buffer, *null_buffer), len) };
            if status == Status::Ok {
                assert!(len >= needed, "{serialize} returned OK into {len} bytes, needing {needed}");
                run.keep_serialized(buffer[..needed].to_vec());
            }
            status
        }
        Call::Deserialize { bytes, slot, null_target, null_bytes } => {
            let bytes = bytes.make(&run.saved).into_boxed_slice();
            let mut scratch = std::ptr::null_mut();
            let target = target(instance, *slot, *null_target, &mut scratch);
            // SAFETY: exactly `len` readable bytes (or null); the target as in GetFMUState.
            let status = unsafe { S::deserialize(c, ptr(&bytes, *null_bytes), bytes.len(), target) };
            assert!(scratch.is_null(), "{deserialize} on a null instance made a state");
            status
        }
        _ => return None,
    };
    Some(status)
}

/// Frees every state the instance still holds (before FreeInstance).
pub(crate) fn free_all<S: StateApi>(instance: &mut Instance) {
    let free = S::NAMES[2];
    for slot in 0..STATE_SLOTS {
        if !instance.states[slot].is_null() {
            // SAFETY: a live instance and a state it made.
            let status = unsafe { S::free(instance.pointer, &mut instance.states[slot]) };
            log::check(free);
            if !instance.fatal {
                assert_eq!(status, Status::Ok, "{free} of a live state");
                assert!(instance.states[slot].is_null(), "{free} returned OK and left the pointer set");
            }
        }
    }
}
