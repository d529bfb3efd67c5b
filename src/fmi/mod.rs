//! The thin FMI adapters over the model: one C API file per version, the instance and state
//! table helper they share, logging, resource locations and the model descriptions.
//!
//! Each version's exports are compiled only with its cargo feature, so that the binary of each FMU
//! exports exactly its own standard's functions; tests build both.

#[cfg(feature = "fmi2")]
pub mod fmi2;
#[cfg(feature = "fmi3")]
pub mod fmi3;
pub mod instance;
pub mod logger;
pub mod model_description;
pub mod resources;
pub mod status;
