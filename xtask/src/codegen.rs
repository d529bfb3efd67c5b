//! `cargo xtask codegen [--check]`: the committed model descriptions, generated from the table,
//! and the user guide's variable reference (docs/src/reference/variables.md) from the same table.
//!
//! The XML files are committed so that reviewers see interface changes as diffs; `--check` (run by
//! `cargo xtask test` and before packaging) fails when they no longer match the variable table.

use std::fs;

use crate::models::MODELS;
use crate::{root, Result};

/// Each generated file, relative to the workspace root, with its expected contents.
fn generated_files() -> Vec<(String, String)> {
    let mut files = Vec::new();
    for model in MODELS {
        files.push((format!("{}/fmi2.xml", model.model_descriptions), (model.fmi2_xml)()));
        files.push((format!("{}/fmi3.xml", model.model_descriptions), (model.fmi3_xml)()));
    }
    files.push((crate::reference::PATH.to_string(), crate::reference::markdown()));
    files
}

pub fn write() -> Result {
    for (path, contents) in generated_files() {
        let full = root().join(&path);
        if fs::read_to_string(&full).ok().as_deref() == Some(contents.as_str()) {
            println!("{path} is up to date");
            continue;
        }
        if let Some(parent) = full.parent() {
            fs::create_dir_all(parent).map_err(|e| format!("could not create {}: {e}", parent.display()))?;
        }
        fs::write(&full, contents).map_err(|e| format!("could not write {path}: {e}"))?;
        println!("wrote {path}");
    }
    Ok(())
}

pub fn check() -> Result {
    for (path, contents) in generated_files() {
        let committed = fs::read_to_string(root().join(&path)).unwrap_or_default();
        if committed != contents {
            return Err(format!("{path} is stale: run `cargo xtask codegen`"));
        }
    }
    println!("every generated file (model descriptions, the guide's variable reference) is up to date");
    Ok(())
}
