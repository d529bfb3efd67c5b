//! The macOS binaries: what a Mach-O library exports and links, and the universal (fat) file that
//! joins the x86-64 and arm64 ones for FMI 2's `darwin64`.
//!
//! A macOS binary must be a dynamic library of its platform's architecture, export exactly the FMI
//! functions (Mach-O prefixes C names with `_`), and link libSystem alone: every Mac has it, and
//! nothing else (no libiconv, no framework) can be assumed in an importer's process. They cannot
//! be run here, so these checks, with the object-file reader, are their proof.
//!
//! A universal file is a big-endian `fat_header` (magic 0xcafebabe, the number of slices), one
//! `fat_arch` per slice (CPU type and subtype, offset, size, alignment as a power of two) and the
//! slices, each at an offset aligned to 2^14 as Apple's lipo aligns arm64 ones.

use std::collections::BTreeSet;

use object::macho::{self, FatArch32, FatHeader, MachHeader64};
use object::read::macho::{FatArch as _, MachHeader as _, MachOFatFile32, MachOFile64};
use object::{Architecture, Endianness, Object};

use crate::Result;

/// The one library a macOS FMU binary may link.
pub const LIBSYSTEM: &str = "/usr/lib/libSystem.B.dylib";

/// Slices of a universal file start at multiples of 2^14 bytes.
const SLICE_ALIGNMENT: u32 = 14;

/// What the checks need to know of one thin Mach-O library.
#[derive(Debug, PartialEq)]
pub struct Library {
    pub architecture: Architecture,
    /// The exported symbols, without Mach-O's leading underscore.
    pub exports: BTreeSet<String>,
    /// The dylibs it loads (LC_LOAD_DYLIB and the other kinds), in file order.
    pub dylibs: Vec<String>,
    /// MH_DYLIB: a dynamic library (not an executable or a bundle).
    pub is_dylib: bool,
}

/// Reads a thin (one architecture) 64-bit Mach-O file.
pub fn read(bytes: &[u8]) -> Result<Library> {
    let file = MachOFile64::<Endianness>::parse(bytes).map_err(|e| format!("not a 64-bit Mach-O file: {e}"))?;
    let endian = file.endian();
    let text = |bytes: &[u8]| String::from_utf8_lossy(bytes).into_owned();
    let mut exports = BTreeSet::new();
    for export in file.exports().map_err(|e| format!("Mach-O exports: {e}"))? {
        if let object::read::NameOrOrdinal::Name(name) = export.map_err(|e| format!("Mach-O exports: {e}"))?.name() {
            exports.insert(text(name.strip_prefix(b"_").unwrap_or(name)));
        }
    }
    let mut dylibs = Vec::new();
    let mut commands = file.macho_load_commands().map_err(|e| format!("Mach-O load commands: {e}"))?;
    while let Some(command) = commands.next().map_err(|e| format!("Mach-O load commands: {e}"))? {
        if let Some(dylib) = command.dylib().map_err(|e| format!("Mach-O dylib command: {e}"))? {
            dylibs.push(text(command.string(endian, dylib.dylib.name).map_err(|e| format!("Mach-O dylib name: {e}"))?));
        }
    }
    let header = file.macho_header();
    Ok(Library { architecture: file.architecture(), exports, dylibs, is_dylib: header.filetype(endian) == macho::MH_DYLIB })
}

/// The slices of a universal file, in file order.
pub fn slices(bytes: &[u8]) -> Result<Vec<&[u8]>> {
    let fat = MachOFatFile32::parse(bytes).map_err(|e| format!("not a universal Mach-O file: {e}"))?;
    fat.arches().iter().map(|arch| arch.data(bytes).map_err(|e| format!("a slice of a universal file: {e}"))).collect()
}

/// Joins thin Mach-O files into one universal file, slices in the order given.
pub fn universal(thin: &[&[u8]]) -> Result<Vec<u8>> {
    let alignment = 1usize << SLICE_ALIGNMENT;
    let header_size = std::mem::size_of::<FatHeader>() + thin.len() * std::mem::size_of::<FatArch32>();
    let mut arches = Vec::new();
    let mut offset = header_size.next_multiple_of(alignment);
    for bytes in thin {
        let file = MachOFile64::<Endianness>::parse(*bytes).map_err(|e| format!("a slice for a universal file is not a 64-bit Mach-O file: {e}"))?;
        let header: &MachHeader64<Endianness> = file.macho_header();
        let endian = file.endian();
        let field = |value: usize| u32::try_from(value).map_err(|_| "a universal file over 4 GiB".to_string());
        arches.push((header.cputype(endian).0, header.cpusubtype(endian).0, field(offset)?, field(bytes.len())?));
        offset = (offset + bytes.len()).next_multiple_of(alignment);
    }
    let mut out = Vec::with_capacity(offset);
    let be = |out: &mut Vec<u8>, value: u32| out.extend_from_slice(&value.to_be_bytes());
    be(&mut out, macho::FAT_MAGIC);
    be(&mut out, thin.len() as u32);
    for &(cputype, cpusubtype, offset, size) in &arches {
        for value in [cputype, cpusubtype, offset, size, SLICE_ALIGNMENT] {
            be(&mut out, value);
        }
    }
    for (bytes, &(_, _, offset, _)) in thin.iter().zip(&arches) {
        out.resize(offset as usize, 0);
        out.extend_from_slice(bytes);
    }
    // The header's layout is the one object reads: prove it on the result.
    debug_assert_eq!(MachOFatFile32::parse(&*out).map(|fat| fat.arches().len()).ok(), Some(thin.len()));
    Ok(out)
}

/// Checks one thin library: a dylib of `architecture`, exporting exactly `required`, linking
/// libSystem alone. Returns a one-line summary.
pub fn check(library: &Library, architecture: Architecture, required: &[&str], what: &str) -> Result<String> {
    let mut problems = Vec::new();
    if library.architecture != architecture {
        problems.push(format!("{what} is for {:?}, not {architecture:?}", library.architecture));
    }
    if !library.is_dylib {
        problems.push(format!("{what} is not a dynamic library (MH_DYLIB)"));
    }
    if let Err(e) = crate::symbols::check_exports(&library.exports, required, what) {
        problems.push(e);
    }
    let foreign: Vec<&str> = library.dylibs.iter().map(String::as_str).filter(|d| *d != LIBSYSTEM).collect();
    if !foreign.is_empty() {
        problems.push(format!("{what} links libraries other than {LIBSYSTEM}:\n  {}", foreign.join("\n  ")));
    }
    if !library.dylibs.iter().any(|d| d == LIBSYSTEM) {
        problems.push(format!("{what} does not link {LIBSYSTEM}"));
    }
    if problems.is_empty() {
        Ok(format!("{architecture:?} Mach-O dylib, exports its {} required functions and nothing else; links {LIBSYSTEM} only", required.len()))
    } else {
        Err(problems.join("\n"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use object::BigEndian;

    /// The smallest 64-bit Mach-O dylib object reads: a header and no load commands.
    fn thin(cputype: u32, cpusubtype: u32, filler: u8) -> Vec<u8> {
        let mut bytes = Vec::new();
        for value in [macho::MH_MAGIC_64, cputype, cpusubtype, macho::MH_DYLIB.0, 0, 0, 0, 0] {
            bytes.extend_from_slice(&value.to_le_bytes());
        }
        bytes.extend(std::iter::repeat_n(filler, 100));
        bytes
    }

    #[test]
    fn a_universal_file_holds_each_slice_aligned_and_unchanged() {
        let x86 = thin(macho::CPU_TYPE_X86_64.0, macho::CPU_SUBTYPE_X86_64_ALL.0, 1);
        let arm = thin(macho::CPU_TYPE_ARM64.0, macho::CPU_SUBTYPE_ARM64_ALL.0, 2);
        let fat = universal(&[&x86, &arm]).unwrap();
        assert_eq!(&fat[..4], &[0xca, 0xfe, 0xba, 0xbe]);
        let parsed = MachOFatFile32::parse(&*fat).unwrap();
        let arches: Vec<(Architecture, u32, u32)> =
            parsed.arches().iter().map(|a| (a.architecture(), a.offset.get(BigEndian), a.align.get(BigEndian))).collect();
        assert_eq!(arches, [(Architecture::X86_64, 1 << 14, 14), (Architecture::Aarch64, 2 << 14, 14)]);
        assert_eq!(slices(&fat).unwrap(), [&x86[..], &arm[..]]);
        let read_back: Vec<Architecture> = slices(&fat).unwrap().iter().map(|s| read(s).unwrap().architecture).collect();
        assert_eq!(read_back, [Architecture::X86_64, Architecture::Aarch64]);
        assert!(read(&x86).unwrap().is_dylib);
    }

    #[test]
    fn the_check_names_a_wrong_architecture_extra_exports_and_foreign_libraries() {
        let library = Library {
            architecture: Architecture::X86_64,
            exports: ["fmi2DoStep", "rust_eh_personality"].iter().map(|s| s.to_string()).collect(),
            dylibs: vec![LIBSYSTEM.to_string(), "/usr/lib/libiconv.2.dylib".to_string()],
            is_dylib: true,
        };
        let error = check(&library, Architecture::Aarch64, &["fmi2DoStep"], "x.dylib").unwrap_err();
        assert!(error.contains("x.dylib is for X86_64, not Aarch64"), "{error}");
        assert!(error.contains("not among its required functions:\n  rust_eh_personality"), "{error}");
        assert!(error.contains("links libraries other than /usr/lib/libSystem.B.dylib:\n  /usr/lib/libiconv.2.dylib"), "{error}");
        let good = Library { exports: ["fmi2DoStep".to_string()].into(), dylibs: vec![LIBSYSTEM.to_string()], ..library };
        assert!(check(&good, Architecture::X86_64, &["fmi2DoStep"], "x.dylib").is_ok());
    }
}
