//! The exported C functions, generated: [`forward_fmi_functions`](crate::forward_fmi_functions)
//! turns one signature a line into a `#[no_mangle]` forwarder to the generic function of the same
//! name (`fmi2_functions!` and `fmi3_functions!` hold the lists of the headers' functions), and
//! [`export_fmu`](crate::export_fmu) is the one macro a model crate calls: both versions' exports,
//! each under its cargo feature, and the model descriptions, documentation page and token for the
//! xtask and the tests.

/// One `#[no_mangle] extern "C"` function per signature, each calling
/// `$crate::<module>::<name>::<Model>` with its arguments in order. `safe_functions { ... }` lists
/// the functions without pointer arguments (`fmiXGetVersion`...), `unsafe_functions { ... }` the
/// others.
/// Not meant to be called but through `export_fmi2!` / `export_fmi3!`.
#[doc(hidden)]
#[macro_export]
macro_rules! forward_fmi_functions {
    (
        $module:ident, $version:literal, $model:ty;
        safe_functions { $(fn $name:ident($($arg:ident: $ty:ty),* $(,)?) $(-> $ret:ty)?;)* }
        unsafe_functions { $(fn $uname:ident($($uarg:ident: $uty:ty),* $(,)?) $(-> $uret:ty)?;)* }
    ) => {
        $(
            #[doc = concat!("`", stringify!($name), "` of the FMI ", $version, " standard.")]
            #[no_mangle]
            #[allow(non_snake_case, clippy::too_many_arguments)]
            pub extern "C" fn $name($($arg: $ty),*) $(-> $ret)? {
                $crate::$module::$name::<$model>($($arg),*)
            }
        )*
        $(
            #[doc = concat!("`", stringify!($uname), "` of the FMI ", $version, " standard.")]
            /// # Safety
            /// Arguments as the FMI standard's header declares them.
            #[no_mangle]
            #[allow(non_snake_case, clippy::too_many_arguments)]
            pub unsafe extern "C" fn $uname($($uarg: $uty),*) $(-> $uret)? {
                // SAFETY: the importer passes the arguments the standard declares (this function's contract);
                // the generic function checks the pointers it dereferences.
                unsafe { $crate::$module::$uname::<$model>($($uarg),*) }
            }
        )*
    };
}

/// Makes the calling crate an FMU of `$model` named `$name`: `pub mod fmi2` with every function
/// of fmi2Functions.h under the crate's cargo feature `fmi2`, `pub mod fmi3` likewise under
/// `fmi3`, and `fmi2_xml()`, `fmi3_xml()`, `documentation_html(fmi_version)` and
/// `instantiation_token()` for the xtask and the tests. Invoke it once, in the crate's `fmi`
/// module.
#[macro_export]
macro_rules! export_fmu {
    ($model:ty, $name:literal) => {
        #[cfg(feature = "fmi2")]
        pub mod fmi2 {
            //! Every function of fmi2Functions.h (see `fmi_export::fmi2`).
            pub use $crate::fmi2::{
                Fmi2Boolean, Fmi2CallbackFunctions, Fmi2Component, Fmi2EventInfo, Fmi2FmuState, Fmi2String, Fmi2ValueReference,
                FMI2_CO_SIMULATION, FMI2_DO_STEP_STATUS, FMI2_FALSE, FMI2_LAST_SUCCESSFUL_TIME, FMI2_MODEL_EXCHANGE,
                FMI2_PENDING_STATUS, FMI2_TERMINATED, FMI2_TRUE,
            };
            $crate::export_fmi2!($model);
        }

        #[cfg(feature = "fmi3")]
        pub mod fmi3 {
            //! Every function of fmi3Functions.h (see `fmi_export::fmi3`).
            pub use $crate::fmi3::abi::*;
            pub use $crate::fmi3::FMI3_DEPENDENT;
            $crate::export_fmi3!($model);
        }

        #[doc = concat!($name, "'s FMI 2.0 modelDescription.xml.")]
        pub fn fmi2_xml() -> String {
            $crate::model_description::fmi2_xml::<$model>()
        }

        #[doc = concat!($name, "'s FMI 3.0 modelDescription.xml.")]
        pub fn fmi3_xml() -> String {
            $crate::model_description::fmi3_xml::<$model>()
        }

        #[doc = concat!($name, "'s documentation page for `fmi_version` (\"2.0\" or \"3.0\").")]
        pub fn documentation_html(fmi_version: &str) -> String {
            $crate::model_description::documentation_html::<$model>(fmi_version)
        }

        /// The GUID / instantiationToken of this build's interface.
        pub fn instantiation_token() -> &'static str {
            <$model as $crate::FmuModel>::table().instantiation_token()
        }
    };
}

/// The items of `impl FmuModel for Model` that a model whose `Model` has the fields
/// `time: f64`, `resources: Option<PathBuf>` and `warnings: Vec<String>` and a `Default` writes
/// alike: `NAME`, `DESCRIPTION`, `build_table` and `table` from its variables module
/// (`MODEL_NAME`, `MODEL_DESCRIPTION`, `build()`, `table()`), `new`, `resources`,
/// `set_resources`, `time`, `set_time`, `take_warnings` and `has_warnings`. Invoke it inside the
/// impl: `fmi_export::model_fields!(crate::variables);`.
#[macro_export]
macro_rules! model_fields {
    ($($variables:ident)::+) => {
        const NAME: &'static str = $($variables)::+::MODEL_NAME;
        const DESCRIPTION: &'static str = $($variables)::+::MODEL_DESCRIPTION;

        fn build_table() -> $crate::table::Table<Self> {
            $($variables)::+::build()
        }

        fn table() -> &'static $crate::table::Table<Self> {
            $($variables)::+::table()
        }

        fn new(resources: Option<std::path::PathBuf>) -> Self {
            Self { resources, ..Self::default() }
        }

        fn resources(&self) -> Option<&std::path::Path> {
            self.resources.as_deref()
        }

        fn set_resources(&mut self, resources: Option<std::path::PathBuf>) {
            self.resources = resources;
        }

        fn time(&self) -> f64 {
            self.time
        }

        fn set_time(&mut self, time: f64) {
            self.time = time;
        }

        fn take_warnings(&mut self) -> Vec<String> {
            std::mem::take(&mut self.warnings)
        }

        fn has_warnings(&self) -> bool {
            !self.warnings.is_empty()
        }
    };
}
