//! Rules about the source code that the compiler does not check on its own, read from the files:
//!
//! 1. No global mutable state in the FMUs (src/, crates/, rigid_body/src/): no `static mut`, no
//!    `thread_local!`, no `lazy_static!`, and every `static` is one of those listed in
//!    [`ALLOWED_STATICS`]: constant enumeration types, and the tools' write-once tables
//!    (OnceLock, read-only after), whose contents have no interior mutability. The C API never
//!    touches the latter: each instance owns its table, so that the FMU keeps no process-wide
//!    heap memory that an importer's dlclose would leak.
//! 2. No `unsafe` outside the FMI layer: the physics crate (with the files), the block, the model
//!    and the variable tables of the FMUs, and the generic parts of `fmi_export`, have none.
//! 3. Every `unsafe` block and `unsafe impl` in the workspace's Rust sources is justified by a
//!    `// SAFETY:` comment on its line or just above it (within three lines, or the comment
//!    block that ends there).
//!
//! The scan strips comments and string literals first, so that prose about `unsafe` does not
//! count and a rule's own text cannot satisfy it.

mod support;

use std::path::{Path, PathBuf};

use support::source_files::{root, rust_files};

/// The path relative to the workspace root, with '/' separators.
fn relative(path: &Path) -> String {
    path.strip_prefix(root()).unwrap().to_string_lossy().replace('\\', "/")
}

/// The code of one line: string and character literals emptied and the line comment removed.
/// Block comments and raw strings spanning lines are not used in this workspace.
fn code_of(line: &str) -> String {
    let mut code = String::with_capacity(line.len());
    let mut chars = line.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '"' => {
                // Skip to the closing quote, honouring escapes.
                while let Some(s) = chars.next() {
                    match s {
                        '\\' => {
                            chars.next();
                        }
                        '"' => break,
                        _ => {}
                    }
                }
                code.push_str("\"\"");
            }
            '\'' => {
                // A char literal ('x', '\n', '"') or a lifetime ('a): keep lifetimes as they are.
                let rest: String = chars.clone().take(3).collect();
                let literal = rest.starts_with('\\') || rest.chars().nth(1) == Some('\'');
                if literal {
                    if chars.next() == Some('\\') {
                        chars.next();
                    }
                    for s in chars.by_ref() {
                        if s == '\'' {
                            break;
                        }
                    }
                    code.push_str("' '");
                } else {
                    code.push(c);
                }
            }
            '/' if chars.peek() == Some(&'/') => break,
            _ => code.push(c),
        }
    }
    code
}

/// Whether `code` has the word `word` (not part of a longer identifier).
fn has_word(code: &str, word: &str) -> bool {
    code.match_indices(word).any(|(at, _)| {
        let before = code[..at].chars().next_back();
        let after = code[at + word.len()..].chars().next();
        let part_of_identifier = |c: Option<char>| c.is_some_and(|c| c.is_alphanumeric() || c == '_');
        !part_of_identifier(before) && !part_of_identifier(after)
    })
}

/// An `unsafe` block (`unsafe {`) or `unsafe impl` in a line of code.
fn opens_unsafe(code: &str) -> bool {
    code.match_indices("unsafe").any(|(at, _)| {
        let before = code[..at].chars().next_back();
        if before.is_some_and(|c| c.is_alphanumeric() || c == '_') {
            return false;
        }
        let after = code[at + "unsafe".len()..].trim_start();
        after.starts_with('{') || (after.starts_with("impl") && !after["impl".len()..].starts_with(|c: char| c.is_alphanumeric() || c == '_'))
    })
}

/// A `// SAFETY:` comment on line `n` or justifying it from above: within the three lines above,
/// or in the block of `//` comment lines that ends within them.
fn justified(lines: &[&str], n: usize) -> bool {
    if lines[n].contains("// SAFETY:") {
        return true;
    }
    let mut code_lines = 0;
    for line in lines[..n].iter().rev() {
        let trimmed = line.trim_start();
        let is_comment = trimmed.starts_with("//") && !trimmed.starts_with("///") && !trimmed.starts_with("//!");
        if is_comment {
            if trimmed.starts_with("// SAFETY:") {
                return true;
            }
            continue;
        }
        code_lines += 1;
        if code_lines == 3 {
            return false;
        }
    }
    false
}

/// The statics the FMUs may have: (file, name, type). The enumeration types are constant data
/// (no heap, no interior mutability). The tables are the tools' and tests' copies
/// (`FmuModel::table`), initialised once by `OnceLock::get_or_init` and only read afterwards;
/// the C API builds a table per instance instead (`FmuModel::build_table`).
const ALLOWED_STATICS: [(&str, &str, &str); 12] = [
    ("crates/contact_fmi/src/geometry_rows.rs", "SHAPE", "EnumerationType"),
    ("crates/contact_fmi/src/law_rows.rs", "NORMAL_LAW", "EnumerationType"),
    ("crates/contact_fmi/src/law_rows.rs", "RESTITUTION_MODEL", "EnumerationType"),
    ("crates/contact_fmi/src/law_rows.rs", "FRICTION_LAW", "EnumerationType"),
    ("src/variables.rs", "MATERIAL_PAIR", "EnumerationType"),
    ("crates/contact_fmi/src/geometry_rows.rs", "COUPLING_MODE", "EnumerationType"),
    ("src/variables.rs", "TABLE", "OnceLock<Table<Model>>"),
    ("rigid_body/src/variables.rs", "TABLE", "OnceLock<Table<Model>>"),
    ("planar_contact/src/variables.rs", "PLANAR_SHAPE", "EnumerationType"),
    ("planar_contact/src/variables.rs", "TABLE", "OnceLock<Table<Model>>"),
    ("scene_fmu/src/variables.rs", "TABLE", "OnceLock<Table<Model>>"),
    // The unit tests' model.
    ("crates/fmi_export/src/instance.rs", "TABLE", "OnceLock<Table<Doubler>>"),
];

/// The sources the FMU binaries are built from.
fn fmu_sources() -> Vec<PathBuf> {
    ["src", "crates", "rigid_body/src", "planar_contact/src", "scene_fmu/src"].iter().flat_map(|dir| rust_files(&root().join(dir))).collect()
}

/// Types whose values can change behind a shared reference.
const INTERIOR_MUTABILITY: [&str; 9] =
    ["Cell", "RefCell", "UnsafeCell", "OnceCell", "Mutex", "RwLock", "AtomicBool", "AtomicUsize", "AtomicU64"];

#[test]
fn the_fmus_have_no_global_mutable_state() {
    let mut problems = Vec::new();
    let mut found = Vec::new();
    for path in fmu_sources() {
        let file = relative(&path);
        let text = std::fs::read_to_string(&path).unwrap();
        for (n, line) in text.lines().enumerate() {
            let code = code_of(line);
            let at = format!("{file}:{}", n + 1);
            for forbidden in ["thread_local!", "lazy_static!"] {
                if code.contains(forbidden) {
                    problems.push(format!("{at}: {forbidden} is global mutable state per thread or process"));
                }
            }
            let words: Vec<&str> = code.split(|c: char| !(c.is_alphanumeric() || c == '_')).filter(|w| !w.is_empty()).collect();
            let Some(i) = words.iter().position(|w| *w == "static") else { continue };
            // `'static` is a lifetime, not an item.
            if code.contains("'static") && !code.trim_start().trim_start_matches("pub ").starts_with("static") {
                continue;
            }
            if words.get(i + 1) == Some(&"mut") {
                problems.push(format!("{at}: `static mut` is global mutable state"));
                continue;
            }
            let name = words.get(i + 1).copied().unwrap_or("");
            let ty = code.split_once(':').map(|(_, t)| t.split('=').next().unwrap().trim().to_string()).unwrap_or_default();
            match ALLOWED_STATICS.iter().find(|(f, s, _)| *f == file && *s == name) {
                Some((_, _, allowed)) if ty == *allowed => found.push((file.clone(), name.to_string())),
                Some((_, _, allowed)) => problems.push(format!("{at}: static {name} is `{ty}`, the list allows `{allowed}`")),
                None => problems.push(format!(
                    "{at}: static {name}: {ty} is not one of the write-once tables this test allows; \
                     global mutable state breaks independent instances (add it to ALLOWED_STATICS only if it is written once)"
                )),
            }
        }
    }
    // The contents of the allowed statics: the table types hold no interior mutability.
    let table = std::fs::read_to_string(root().join("crates/fmi_export/src/table.rs")).unwrap();
    for (n, line) in table.lines().enumerate() {
        let code = code_of(line);
        for ty in INTERIOR_MUTABILITY {
            if has_word(&code, ty) {
                problems.push(format!("crates/fmi_export/src/table.rs:{}: {ty} inside the shared variable table", n + 1));
            }
        }
    }
    // The C API uses each instance's own table, never the process-wide one.
    for file in ["crates/fmi_export/src/instance.rs", "crates/fmi_export/src/fmi2.rs", "crates/fmi_export/src/fmi3.rs"] {
        let text = std::fs::read_to_string(root().join(file)).unwrap();
        for (n, line) in text.lines().enumerate() {
            if code_of(line).contains("M::table()") {
                problems.push(format!("{file}:{}: the C API uses the process-wide table (use the instance's)", n + 1));
            }
        }
    }
    assert!(problems.is_empty(), "global mutable state:\n{}", problems.join("\n"));
    // The list is not stale: every allowed static still exists.
    for (file, name, _) in ALLOWED_STATICS {
        assert!(found.iter().any(|(f, s)| f == file && s == name), "ALLOWED_STATICS lists {file} {name}, which is gone");
    }
}

/// Files of the FMUs that must not contain `unsafe` at all: everything but the C boundary
/// (src/fmi/, rigid_body/src/fmi.rs, planar_contact/src/fmi.rs, scene_fmu/src/fmi.rs, and fmi_export's export.rs (the
/// generated forwarders), fmi2.rs, fmi3.rs, their Model Exchange
/// halves fmi2_me.rs and fmi3_me.rs, model_exchange.rs, instance.rs, logger.rs).
fn safe_only(file: &str) -> bool {
    const FMI_LAYER: [&str; 12] = [
        "src/fmi/",
        "rigid_body/src/fmi.rs",
        "planar_contact/src/fmi.rs",
        "scene_fmu/src/fmi.rs",
        "crates/fmi_export/src/export.rs",
        "crates/fmi_export/src/fmi2.rs",
        "crates/fmi_export/src/fmi3.rs",
        "crates/fmi_export/src/fmi2_me.rs",
        "crates/fmi_export/src/fmi3_me.rs",
        "crates/fmi_export/src/model_exchange.rs",
        "crates/fmi_export/src/instance.rs",
        "crates/fmi_export/src/logger.rs",
    ];
    let in_fmu = file.starts_with("src/")
        || file.starts_with("crates/physics/src/")
        || file.starts_with("crates/scene/src/")
        || file.starts_with("rigid_body/src/")
        || file.starts_with("planar_contact/src/")
        || file.starts_with("scene_fmu/src/")
        || file.starts_with("crates/fmi_export/src/");
    in_fmu && !FMI_LAYER.iter().any(|layer| file.starts_with(layer))
}

#[test]
fn there_is_no_unsafe_outside_the_fmi_layer() {
    let mut problems = Vec::new();
    let mut checked = 0;
    for path in fmu_sources() {
        let file = relative(&path);
        if !safe_only(&file) {
            continue;
        }
        checked += 1;
        let text = std::fs::read_to_string(&path).unwrap();
        for (n, line) in text.lines().enumerate() {
            if has_word(&code_of(line), "unsafe") {
                problems.push(format!("{file}:{}: {}", n + 1, line.trim()));
            }
        }
    }
    // The physics, block, files, model and variables of both FMUs, and fmi_export's generic parts.
    assert!(checked >= 40, "only {checked} files checked: has the layout changed?");
    for required in ["crates/physics/src/contact.rs", "src/block/mod.rs", "src/model.rs", "src/variables.rs", "rigid_body/src/integrator.rs", "rigid_body/src/model.rs", "crates/fmi_export/src/table.rs"] {
        assert!(safe_only(required), "{required} must be checked");
    }
    assert!(problems.is_empty(), "unsafe outside the FMI layer:\n{}", problems.join("\n"));
}

#[test]
fn every_unsafe_block_is_justified_by_a_safety_comment() {
    let mut problems = Vec::new();
    let mut blocks = 0;
    for path in rust_files(&root()) {
        let file = relative(&path);
        let text = std::fs::read_to_string(&path).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        for (n, line) in lines.iter().enumerate() {
            if !opens_unsafe(&code_of(line)) {
                continue;
            }
            blocks += 1;
            if !justified(&lines, n) {
                problems.push(format!("{file}:{}: {}", n + 1, line.trim()));
            }
        }
    }
    assert!(blocks > 100, "only {blocks} unsafe blocks found: is the scan working?");
    assert!(problems.is_empty(), "{} unsafe blocks without a `// SAFETY:` comment:\n{}", problems.len(), problems.join("\n"));
}

#[test]
fn the_scanner_sees_through_comments_and_strings() {
    let block = ["unsafe", "{ x }"].join(" ");
    assert!(opens_unsafe(&code_of(&format!("    let y = {block};"))));
    assert!(opens_unsafe(&code_of(&format!("    self.call(\"f\", || {block});"))));
    assert!(opens_unsafe(&code_of(&["unsafe", "impl Send for X {}"].join(" "))));
    assert!(!opens_unsafe(&code_of(&format!("    // {block}"))));
    assert!(!opens_unsafe(&code_of(&format!("    let s = \"{block}\";"))));
    assert!(!opens_unsafe(&code_of(&["pub", "unsafe", "fn f() {"].join(" "))));
    assert!(!opens_unsafe(&code_of(&["pub", "unsafe", "extern \"C\" fn f() {"].join(" "))));
    assert!(!opens_unsafe(&code_of("let not_unsafe = { 1 };")));
    assert!(!has_word(&code_of("//! pure Rust, no unsafe"), "unsafe"));
    assert!(has_word(&code_of("    let c: Cell<u8> = x; // a '\"' here"), "Cell"));
    assert!(!has_word(&code_of("    let c = \"Cell\";"), "Cell"));
    assert!(!has_word(&code_of("let cells = 3;"), "Cell"));
    let safety = ["    // ", "SAFETY", ": because."].concat();
    let lines = [safety.as_str(), "    // more words", &block];
    assert!(justified(&lines, 2));
    let far = ["    // ", "SAFETY", ": far."].concat();
    let lines = [far.as_str(), "a", "b", "c", &block];
    assert!(!justified(&lines, 4));
    let doc = ["    /// # ", "Safety"].concat();
    let lines = [doc.as_str(), &block];
    assert!(!justified(&lines, 1));
}
