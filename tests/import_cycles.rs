//! No import cycles between modules, in every crate of the workspace: the layers of
//! ARCHITECTURE.md (physics <- block <- model <- variables <- fmi) hold only if no module reaches
//! back up to one that reaches it.
//!
//! The graph, read from the sources: a module is a file (`a/b.rs` or `a/b/mod.rs` is `a::b`,
//! `lib.rs` and `main.rs` the crate root). Every path a module names (in `use` items, braces
//! expanded, and `crate::` / `super::` / `self::` paths in code) that resolves to another module
//! of the same crate is an edge to that module. A module and its ancestors are one structure, not
//! two layers (a pair's file uses its parent's `ContactPoint`, the parent dispatches to the pair),
//! so an edge is lifted to the two siblings below the modules' nearest common ancestor: an edge
//! from `block::parameters` to `block::step_average` is one between those siblings, an edge from
//! `model::coupling` to `block::step_average` one from `model` to `block`. The siblings under each
//! module must form no cycle. Unit tests (`#[cfg(test)]` modules and `tests` files) may use any
//! module and are not read.
//!
//! Cycles not yet broken are listed in [`KNOWN_CYCLES`], each with where it is broken; the test
//! fails on any other cycle, and on a listed one that is gone (so that the list stays true).

mod support;

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

use support::source_files::{root, rust_files};

/// The crates' source folders, relative to the workspace root.
const CRATES: [&str; 11] = ["src", "crates/physics/src", "crates/scene/src", "crates/contact_fmi/src", "crates/fmi_export/src", "crates/unwind_probe/src", "rigid_body/src", "planar_contact/src", "scene_fmu/src", "cosim/src", "xtask/src"];

/// Cycles that exist and are to be broken: (crate folder, the modules of the cycle, sorted, joined
/// by " <-> ", why it is there). Remove an entry when its cycle is gone; never add one without a
/// plan to remove it.
const KNOWN_CYCLES: &[(&str, &str, &str)] = &[
    ("crates/fmi_export/src", "fmi2 <-> fmi2_me", "the Model Exchange half uses the co-simulation half's types and the other way round; issue 28 rewrites these files"),
    ("crates/fmi_export/src", "fmi3 <-> fmi3_me", "as fmi2 <-> fmi2_me"),
    ("crates/fmi_export/src", "instance <-> model_exchange", "the instance holds the Model Exchange layout, whose functions go through the instance's dispatch"),
    ("crates/fmi_export/src", "model <-> table", "the FmuModel trait names the table's types and the table is generic over FmuModel"),
];

/// The module path of a file, relative to its crate's source folder: `a/b.rs` and `a/b/mod.rs`
/// are `["a", "b"]`, `lib.rs` and `main.rs` `[]`; None for a file that is no module of the crate
/// tree (a `bin/` program is a crate of its own).
fn module_of(relative: &Path) -> Option<Vec<String>> {
    let mut parts: Vec<String> = relative.iter().map(|p| p.to_string_lossy().into_owned()).collect();
    let file = parts.pop()?;
    if parts.first().is_some_and(|p| p == "bin") {
        return None;
    }
    match file.as_str() {
        "lib.rs" | "main.rs" if parts.is_empty() => {}
        "mod.rs" => {}
        _ => parts.push(file.trim_end_matches(".rs").to_string()),
    }
    Some(parts)
}

/// The code of a file without comments, string and character literals, and without its
/// `#[cfg(test)]` items (from such an attribute to the end of the file: the unit tests come last).
fn code_of(text: &str) -> String {
    let mut code = String::with_capacity(text.len());
    let mut chars = text.chars().peekable();
    let mut previous = ' ';
    while let Some(c) = chars.next() {
        match c {
            '/' if chars.peek() == Some(&'/') => {
                for c in chars.by_ref() {
                    if c == '\n' {
                        code.push('\n');
                        break;
                    }
                }
            }
            '/' if chars.peek() == Some(&'*') => {
                chars.next();
                let mut last = ' ';
                for c in chars.by_ref() {
                    if last == '*' && c == '/' {
                        break;
                    }
                    last = c;
                }
            }
            '"' if previous != '\'' => {
                let mut escaped = false;
                for c in chars.by_ref() {
                    if c == '\n' {
                        code.push('\n');
                    }
                    if escaped {
                        escaped = false;
                    } else if c == '\\' {
                        escaped = true;
                    } else if c == '"' {
                        break;
                    }
                }
                code.push_str("\"\"");
            }
            _ => code.push(c),
        }
        previous = c;
    }
    match code.find("#[cfg(test)]") {
        Some(at) => code[..at].to_string(),
        None => code,
    }
}

/// Expands a use tree (the text between `use` and `;`) into its flat paths.
fn expand(tree: &str) -> Vec<Vec<String>> {
    // `x as y` keeps `x`: mark the rename, then drop the white space.
    let words: Vec<&str> = tree.split_whitespace().collect();
    let tree: String = words.join(" ").replace(" as ", "@").chars().filter(|c| !c.is_whitespace()).collect();
    let mut out = Vec::new();
    expand_into(&tree, &mut Vec::new(), &mut out);
    out
}

fn expand_into(tree: &str, prefix: &mut Vec<String>, out: &mut Vec<Vec<String>>) {
    // Split the top level at commas.
    let mut depth = 0;
    let mut start = 0;
    let mut items = Vec::new();
    for (i, c) in tree.char_indices() {
        match c {
            '{' => depth += 1,
            '}' => depth -= 1,
            ',' if depth == 0 => {
                items.push(&tree[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    items.push(&tree[start..]);
    for item in items.into_iter().filter(|i| !i.is_empty()) {
        match item.find('{') {
            Some(open) => {
                let head: Vec<String> = item[..open].split("::").filter(|s| !s.is_empty()).map(String::from).collect();
                let n = prefix.len();
                prefix.extend(head);
                expand_into(&item[open + 1..item.len() - 1], prefix, out);
                prefix.truncate(n);
            }
            None => {
                let item = item.split('@').next().unwrap();
                let mut path = prefix.clone();
                path.extend(item.split("::").filter(|s| !s.is_empty()).map(String::from));
                out.push(path);
            }
        }
    }
}

/// The paths a module's code names: its use trees, and the `crate::`, `super::` and `self::`
/// paths elsewhere.
fn paths_in(code: &str) -> Vec<Vec<String>> {
    let mut paths = Vec::new();
    let mut rest = code;
    // Use items (possibly over several lines).
    while let Some(at) = find_word(rest, "use") {
        let after = &rest[at + 3..];
        let end = after.find(';').unwrap_or(after.len());
        paths.extend(expand(&after[..end]));
        rest = &after[end..];
    }
    // Paths in expressions and types.
    let bytes = code.as_bytes();
    for start in ["crate::", "super::", "self::"] {
        let mut from = 0;
        while let Some(i) = code[from..].find(start) {
            let at = from + i;
            from = at + start.len();
            if at > 0 && (bytes[at - 1].is_ascii_alphanumeric() || bytes[at - 1] == b'_' || bytes[at - 1] == b'$' || bytes[at - 1] == b':') {
                continue;
            }
            let end = code[at..].find(|c: char| !(c.is_alphanumeric() || c == '_' || c == ':')).map_or(code.len(), |e| at + e);
            paths.push(code[at..end].split("::").filter(|s| !s.is_empty()).map(String::from).collect());
        }
    }
    paths
}

/// The byte index of `word` standing alone (not part of an identifier) and followed by a space.
fn find_word(text: &str, word: &str) -> Option<usize> {
    let bytes = text.as_bytes();
    let mut from = 0;
    while let Some(i) = text[from..].find(word) {
        let at = from + i;
        let before = at == 0 || !(bytes[at - 1].is_ascii_alphanumeric() || bytes[at - 1] == b'_');
        let after = bytes.get(at + word.len()).is_some_and(|b| b.is_ascii_whitespace());
        if before && after {
            return Some(at);
        }
        from = at + word.len();
    }
    None
}

/// The module a path names (the longest prefix that is a module), seen from `module`.
fn resolve(path: &[String], module: &[String], modules: &BTreeSet<Vec<String>>) -> Option<Vec<String>> {
    let mut base: Vec<String>;
    let mut rest = path;
    match path.first().map(String::as_str) {
        Some("crate") => {
            base = Vec::new();
            rest = &path[1..];
        }
        Some("self") => {
            base = module.to_vec();
            rest = &path[1..];
        }
        Some("super") => {
            base = module.to_vec();
            while rest.first().is_some_and(|s| s == "super") {
                base.pop()?;
                rest = &rest[1..];
            }
        }
        // A child module named without `self::` (uniform paths).
        Some(first) if modules.contains(&[module, &[first.to_string()]].concat()) => base = module.to_vec(),
        _ => return None,
    }
    let mut best = base.clone();
    for segment in rest {
        base.push(segment.clone());
        if modules.contains(&base) {
            best = base.clone();
        } else {
            break;
        }
    }
    Some(best)
}

/// One crate's sibling edges, each with a witness (`file: the path`), by parent module.
type Edges = BTreeMap<Vec<String>, BTreeMap<(String, String), String>>;

fn sibling_edges(folder: &str) -> Edges {
    let dir = root().join(folder);
    let mut files = BTreeMap::new();
    for path in rust_files(&dir) {
        let relative = path.strip_prefix(&dir).unwrap().to_path_buf();
        let Some(module) = module_of(&relative) else { continue };
        if module.last().is_some_and(|m| m == "tests") {
            continue;
        }
        files.insert(module, path);
    }
    let modules: BTreeSet<Vec<String>> = files.keys().cloned().collect();
    let mut edges = Edges::new();
    for (module, path) in &files {
        let code = code_of(&std::fs::read_to_string(path).unwrap());
        for named in paths_in(&code) {
            let Some(target) = resolve(&named, module, &modules) else { continue };
            let common = module.iter().zip(&target).take_while(|(a, b)| a == b).count();
            if common == module.len() || common == target.len() {
                continue; // The same module, or an ancestor and its descendant.
            }
            let parent = module[..common].to_vec();
            let witness = format!("{}/{}: {}", folder, path.strip_prefix(&dir).unwrap().display(), named.join("::"));
            edges.entry(parent).or_default().entry((module[common].clone(), target[common].clone())).or_insert(witness);
        }
    }
    edges
}

/// The strongly connected components with more than one module (Tarjan).
fn cycles(edges: &BTreeMap<(String, String), String>) -> Vec<Vec<String>> {
    let nodes: BTreeSet<&String> = edges.keys().flat_map(|(a, b)| [a, b]).collect();
    let nodes: Vec<&String> = nodes.into_iter().collect();
    let index_of = |n: &String| nodes.iter().position(|m| *m == n).unwrap();
    let mut next: Vec<Vec<usize>> = vec![Vec::new(); nodes.len()];
    for (a, b) in edges.keys() {
        next[index_of(a)].push(index_of(b));
    }
    struct State {
        index: Vec<Option<usize>>,
        low: Vec<usize>,
        on_stack: Vec<bool>,
        stack: Vec<usize>,
        counter: usize,
        components: Vec<Vec<usize>>,
    }
    fn visit(v: usize, next: &[Vec<usize>], s: &mut State) {
        s.index[v] = Some(s.counter);
        s.low[v] = s.counter;
        s.counter += 1;
        s.stack.push(v);
        s.on_stack[v] = true;
        for &w in &next[v] {
            match s.index[w] {
                None => {
                    visit(w, next, s);
                    s.low[v] = s.low[v].min(s.low[w]);
                }
                Some(i) if s.on_stack[w] => s.low[v] = s.low[v].min(i),
                Some(_) => {}
            }
        }
        if Some(s.low[v]) == s.index[v] {
            let mut component = Vec::new();
            while let Some(w) = s.stack.pop() {
                s.on_stack[w] = false;
                component.push(w);
                if w == v {
                    break;
                }
            }
            s.components.push(component);
        }
    }
    let n = nodes.len();
    let mut s = State { index: vec![None; n], low: vec![0; n], on_stack: vec![false; n], stack: Vec::new(), counter: 0, components: Vec::new() };
    for v in 0..n {
        if s.index[v].is_none() {
            visit(v, &next, &mut s);
        }
    }
    let mut out: Vec<Vec<String>> =
        s.components.into_iter().filter(|c| c.len() > 1).map(|c| c.into_iter().map(|i| nodes[i].clone()).collect::<BTreeSet<_>>().into_iter().collect()).collect();
    out.sort();
    out
}

#[test]
fn no_module_imports_a_module_that_imports_it() {
    let mut found = Vec::new();
    let mut report = Vec::new();
    for folder in CRATES {
        for (parent, edges) in sibling_edges(folder) {
            for cycle in cycles(&edges) {
                let names: Vec<String> = cycle.iter().map(|m| [parent.clone(), vec![m.clone()]].concat().join("::")).collect();
                let key = names.join(" <-> ");
                let witnesses: Vec<&String> = edges.iter().filter(|((a, b), _)| cycle.contains(a) && cycle.contains(b)).map(|(_, w)| w).collect();
                if !KNOWN_CYCLES.iter().any(|(f, c, _)| *f == folder && *c == key) {
                    report.push(format!("{folder}: {key}, through:\n    {}", witnesses.iter().map(|w| w.as_str()).collect::<Vec<_>>().join("\n    ")));
                }
                found.push((folder, key));
            }
        }
    }
    for (folder, cycle, _) in KNOWN_CYCLES {
        if !found.iter().any(|(f, c)| f == folder && c == cycle) {
            report.push(format!("{folder}: {cycle} is listed in KNOWN_CYCLES but gone: remove it from the list"));
        }
    }
    assert!(report.is_empty(), "import cycles between modules (tests/import_cycles.rs):\n{}", report.join("\n"));
}

#[test]
fn the_reader_expands_use_trees_and_lifts_edges_to_siblings() {
    let paths = expand("crate::{block::{Block, parameters::Parameters}, physics as p, model::Model}");
    let joined: Vec<String> = paths.iter().map(|p| p.join("::")).collect();
    assert_eq!(joined, ["crate::block::Block", "crate::block::parameters::Parameters", "crate::physics", "crate::model::Model"]);
    let modules: BTreeSet<Vec<String>> = [vec![], vec!["a".to_string()], vec!["a".to_string(), "b".to_string()], vec!["c".to_string()]].into_iter().collect();
    let here = vec!["a".to_string(), "b".to_string()];
    let path = |s: &str| s.split("::").map(String::from).collect::<Vec<_>>();
    assert_eq!(resolve(&path("super::super::c::Thing"), &here, &modules), Some(vec!["c".to_string()]));
    assert_eq!(resolve(&path("crate::a::b::f"), &here, &modules), Some(here.clone()));
    assert_eq!(resolve(&path("nalgebra::Vector3"), &here, &modules), None);
    let code = code_of("use crate::a; // use crate::c;\nlet s = \"crate::c\";\n#[cfg(test)]\nmod tests { use crate::c; }\n");
    assert_eq!(paths_in(&code).iter().map(|p| p.join("::")).collect::<Vec<_>>(), ["crate::a", "crate::a"]);
    // A cycle of three siblings is found; a chain is not.
    let edge = |a: &str, b: &str| ((a.to_string(), b.to_string()), String::new());
    assert_eq!(cycles(&[edge("x", "y"), edge("y", "z"), edge("z", "x")].into_iter().collect()), [vec!["x", "y", "z"]]);
    assert!(cycles(&[edge("x", "y"), edge("y", "z")].into_iter().collect()).is_empty());
}
