//! Both FMI versions' C APIs as two traits, each implemented for ContactForce (through its exported
//! functions, `contact_force::fmi::fmi2::*` and `fmi3::*`, the symbols an importer calls) and for
//! RigidBody and PlanarContact (through the generic functions of `fmi_export` that their exports
//! wrap one to one: two crates exporting the same `#[no_mangle]` symbols cannot be linked into one
//! binary, so they are built without their export features here).
//!
//! The signatures are the standard's headers as `fmi_export` lists them for its own exports
//! (`fmi_export::fmi2_functions!` and `fmi3_functions!`).

#![allow(non_snake_case, clippy::too_many_arguments, clippy::missing_safety_doc)]

use fmi_export::fmi2::abi::*;
use fmi_export::fmi3::abi::*;
use fmi_export::FmuModel;

use contact_force::fmi::fmi2 as cf_fmi2;
use contact_force::fmi::fmi3 as cf_fmi3;

/// ContactForce, through its exported C functions.
pub struct ContactForce;
/// RigidBody, through the generic functions its exports call.
pub struct RigidBody;
/// PlanarContact, likewise.
pub struct PlanarContact;

/// One trait per FMI version over the header's functions as `fmi_export`'s list macros give them
/// (`fmi2_functions!`, `fmi3_functions!`): the safe functions and the others alike, each `unsafe`.
macro_rules! fmi_api {
    ($trait:ident, $version:ident, $cf:ident; safe_functions { $($safe:tt)* } unsafe_functions { $($unsafe:tt)* }) => {
        fmi_api!(@trait $trait, $version, $cf; $($safe)* $($unsafe)*);
    };
    (@trait $trait:ident, $version:ident, $cf:ident; $( fn $name:ident ( $($arg:ident : $ty:ty),* ) $(-> $ret:ty)? ; )*) => {
        /// Every function of this FMI version's header, for one model.
        pub trait $trait {
            /// The model behind the functions (its variable table and instantiation token).
            type Model: FmuModel;
            /// The model's name, for messages.
            const NAME: &'static str;
            $( unsafe fn $name($($arg: $ty),*) $(-> $ret)?; )*
        }

        impl $trait for ContactForce {
            type Model = contact_force::model::Model;
            const NAME: &'static str = "ContactForce";
            $(
                #[allow(unused_unsafe)]
                unsafe fn $name($($arg: $ty),*) $(-> $ret)? {
                    // SAFETY: the caller keeps the function's contract.
                    unsafe { $cf::$name($($arg),*) }
                }
            )*
        }

        fmi_api!(@generic $trait, $version, RigidBody, rigid_body::model::Model, "RigidBody"; $( fn $name($($arg: $ty),*) $(-> $ret)?; )*);
        fmi_api!(@generic $trait, $version, PlanarContact, planar_contact::model::Model, "PlanarContact"; $( fn $name($($arg: $ty),*) $(-> $ret)?; )*);
    };
    (@generic $trait:ident, $version:ident, $api:ident, $model:ty, $label:literal; $( fn $name:ident ( $($arg:ident : $ty:ty),* ) $(-> $ret:ty)? ; )*) => {
        impl $trait for $api {
            type Model = $model;
            const NAME: &'static str = $label;
            $(
                #[allow(unused_unsafe)]
                unsafe fn $name($($arg: $ty),*) $(-> $ret)? {
                    // SAFETY: the caller keeps the function's contract.
                    unsafe { fmi_export::$version::$name::<$model>($($arg),*) }
                }
            )*
        }
    };
}

fmi_export::fmi2_functions!(fmi_api; Fmi2Api, fmi2, cf_fmi2;);
fmi_export::fmi3_functions!(fmi_api; Fmi3Api, fmi3, cf_fmi3;);
