//! The Windows binaries: what a PE DLL exports and which DLLs it imports.
//!
//! A Windows FMU binary must export exactly the FMI functions and import only DLLs that every
//! Windows (10 and later) has: the system's own and the C runtime msvcrt. No libgcc_s_seh-1.dll or
//! libwinpthread-1.dll, which a user's machine lacks: the mingw-w64 runtime is linked statically.
//! The runs under wine (crate::emulated) prove that the DLL loads and computes; this proves what
//! it asks of the machine it loads on.

use std::collections::BTreeSet;

use object::read::pe::PeFile64;
use object::{Architecture, Object};

use crate::Result;

/// The DLLs a Windows FMU binary may import (compared without case): Windows' own and msvcrt.
/// `api-ms-win-*` API sets are Windows' too.
pub const ALLOWED_IMPORTS: [&str; 11] = [
    "kernel32.dll",
    "ntdll.dll",
    "msvcrt.dll",
    "ucrtbase.dll",
    "bcrypt.dll",
    "bcryptprimitives.dll",
    "advapi32.dll",
    "userenv.dll",
    "ws2_32.dll",
    "synchronization.dll",
    "shell32.dll",
];

/// What the checks need to know of one DLL.
#[derive(Debug, PartialEq)]
pub struct Library {
    pub architecture: Architecture,
    pub exports: BTreeSet<String>,
    /// The imported DLLs, each once, in the order first imported.
    pub imports: Vec<String>,
    pub is_dll: bool,
}

pub fn read(bytes: &[u8]) -> Result<Library> {
    let file = PeFile64::parse(bytes).map_err(|e| format!("not a 64-bit PE file: {e}"))?;
    let text = |bytes: &[u8]| String::from_utf8_lossy(bytes).into_owned();
    let mut exports = BTreeSet::new();
    for export in file.exports().map_err(|e| format!("PE exports: {e}"))? {
        if let object::read::NameOrOrdinal::Name(name) = export.map_err(|e| format!("PE exports: {e}"))?.name() {
            exports.insert(text(name));
        }
    }
    let mut imports: Vec<String> = Vec::new();
    for import in file.imports().map_err(|e| format!("PE imports: {e}"))? {
        let library = text(import.map_err(|e| format!("PE imports: {e}"))?.library());
        if !imports.contains(&library) {
            imports.push(library);
        }
    }
    let is_dll = file.nt_headers().file_header.characteristics.get(object::LittleEndian).0 & object::pe::IMAGE_FILE_DLL.0 != 0;
    Ok(Library { architecture: file.architecture(), exports, imports, is_dll })
}

fn allowed(dll: &str) -> bool {
    let dll = dll.to_ascii_lowercase();
    ALLOWED_IMPORTS.contains(&dll.as_str()) || dll.starts_with("api-ms-win-")
}

/// Checks one DLL: x86-64 (or `architecture`), exporting exactly `required`, importing only
/// [`ALLOWED_IMPORTS`]. Returns a one-line summary.
pub fn check(library: &Library, architecture: Architecture, required: &[&str], what: &str) -> Result<String> {
    let mut problems = Vec::new();
    if library.architecture != architecture {
        problems.push(format!("{what} is for {:?}, not {architecture:?}", library.architecture));
    }
    if !library.is_dll {
        problems.push(format!("{what} is not a DLL"));
    }
    if let Err(e) = crate::symbols::check_exports(&library.exports, required, what) {
        problems.push(e);
    }
    let foreign: Vec<&str> = library.imports.iter().map(String::as_str).filter(|dll| !allowed(dll)).collect();
    if !foreign.is_empty() {
        problems.push(format!("{what} imports DLLs that are not part of Windows (link them statically):\n  {}", foreign.join("\n  ")));
    }
    if problems.is_empty() {
        Ok(format!("{architecture:?} DLL, exports its {} required functions and nothing else; imports {}", required.len(), library.imports.join(" ")))
    } else {
        Err(problems.join("\n"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn system_dlls_pass_and_mingw_runtime_dlls_are_named() {
        let library = Library {
            architecture: Architecture::X86_64,
            exports: ["fmi3DoStep".to_string()].into(),
            imports: ["KERNEL32.dll", "msvcrt.dll", "api-ms-win-core-synch-l1-2-0.dll", "libgcc_s_seh-1.dll", "libwinpthread-1.dll"]
                .map(String::from)
                .to_vec(),
            is_dll: true,
        };
        let error = check(&library, Architecture::X86_64, &["fmi3DoStep"], "x.dll").unwrap_err();
        assert!(error.ends_with("(link them statically):\n  libgcc_s_seh-1.dll\n  libwinpthread-1.dll"), "{error}");
        let good = Library { imports: library.imports[..3].to_vec(), ..library };
        let summary = check(&good, Architecture::X86_64, &["fmi3DoStep"], "x.dll").unwrap();
        assert!(summary.ends_with("imports KERNEL32.dll msvcrt.dll api-ms-win-core-synch-l1-2-0.dll"), "{summary}");
        let error = check(&Library { is_dll: false, ..good }, Architecture::Aarch64, &["fmi3DoStep", "fmi3Reset"], "x.dll").unwrap_err();
        assert!(error.contains("x.dll is for X86_64, not Aarch64") && error.contains("x.dll is not a DLL"), "{error}");
        assert!(error.contains("does not export 1 required function(s):\n  fmi3Reset"), "{error}");
    }
}
