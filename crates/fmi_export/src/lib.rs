//! The FMI 2.0 and FMI 3.0 co-simulation C API over any model that implements [`FmuModel`].
//!
//! A model crate describes its variables in one [`table::Table`] and implements [`FmuModel`];
//! `export_fmu!(Model, "Name")` (or `export_fmi2!(Model)` and `export_fmi3!(Model)`) then generates
//! every exported function of the standard's headers, each a thin call into [`fmi2`] / [`fmi3`], which go through one helper
//! ([`instance::dispatch`]): null check, the version's state table ("Illegal call sequence"),
//! `catch_unwind`, status mapping and logging through the importer's callback.
//! [`model_description`] writes both modelDescription.xml files and the documentation page from
//! the same table.

pub mod derivatives;
pub mod early_return;
pub mod export;
pub mod fmi2;
pub mod fmi2_me;
pub mod fmi3;
pub mod fmi3_me;
pub mod input_derivatives;
pub mod instance;
pub mod logger;
pub mod model;
pub mod model_description;
pub mod model_exchange;
pub mod resources;
pub mod status;
pub mod table;
pub mod transaction;

pub use model::{DerivativeError, Extension, FmuModel, ModelError};
