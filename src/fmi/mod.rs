//! FMI adapters.
