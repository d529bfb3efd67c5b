//! Geometry files written by the input into this process's resources folder, so that the file
//! readers (point lists, grids, OBJ, STL) and the shapes built from them are fuzzed too.

use std::ffi::CString;
use std::fmt::Write as _;
use std::path::PathBuf;
use std::sync::OnceLock;

use arbitrary::Arbitrary;

use crate::values::{Real, Text};

/// Number of file slots an input can write.
pub const SLOTS: usize = 4;

/// The resources folder of every instance this process makes (empty at the start of each input).
pub fn resources() -> &'static PathBuf {
    static DIR: OnceLock<PathBuf> = OnceLock::new();
    DIR.get_or_init(|| {
        let dir = std::env::temp_dir().join(format!("contact_force_fuzz_{}", std::process::id())).join("resources");
        std::fs::create_dir_all(&dir).expect("the fuzzer's resources folder can be made");
        dir
    })
}

/// Removes the files of the previous input, so that every input runs alone.
pub fn clear() {
    if let Ok(entries) = std::fs::read_dir(resources()) {
        for entry in entries.flatten() {
            let _ = std::fs::remove_file(entry.path());
        }
    }
}

#[derive(Arbitrary, Debug, Clone, Copy)]
pub enum Extension {
    Obj,
    Stl,
    Csv,
    Txt,
    None,
}

impl Extension {
    fn suffix(self) -> &'static str {
        match self {
            Extension::Obj => ".obj",
            Extension::Stl => ".stl",
            Extension::Csv => ".csv",
            Extension::Txt => ".txt",
            Extension::None => "",
        }
    }
}

#[derive(Arbitrary, Debug, Clone, Copy)]
pub enum Separator {
    Comma,
    Space,
    Semicolon,
    Tab,
}

impl Separator {
    fn text(self) -> &'static str {
        match self {
            Separator::Comma => ",",
            Separator::Space => " ",
            Separator::Semicolon => ";",
            Separator::Tab => "\t",
        }
    }
}

/// What a file holds.
#[derive(Arbitrary, Debug, Clone)]
pub enum Content {
    Raw(Extension, Vec<u8>),
    /// A point list: one point per line.
    Points { extension: Extension, header: bool, separator: Separator, points: Vec<[Real; 3]> },
    /// A height field: `x0 y0 dx dy`, then rows of heights.
    Grid { extension: Extension, origin: [Real; 4], rows: Vec<Vec<Real>> },
    /// Wavefront OBJ: vertices and triangular faces (1-based, negative = relative).
    Obj { vertices: Vec<[Real; 3]>, faces: Vec<[i16; 3]> },
    StlAscii(Vec<[[Real; 3]; 3]>),
    /// Binary STL; `count` overrides the triangle count of the header.
    StlBinary { triangles: Vec<[[Real; 3]; 3]>, count: Option<u32> },
}

#[derive(Arbitrary, Debug, Clone)]
pub struct WriteFile {
    pub slot: u8,
    pub content: Content,
}

fn number(x: Real) -> String {
    format!("{:?}", x.get())
}

impl Content {
    fn render(&self) -> (Extension, Vec<u8>) {
        match self {
            Content::Raw(extension, bytes) => (*extension, bytes.clone()),
            Content::Points { extension, header, separator, points } => {
                let mut text = String::new();
                if *header {
                    text.push_str("# x, y, z\nx,y,z\n");
                }
                for p in points {
                    let _ = writeln!(text, "{}", p.map(number).join(separator.text()));
                }
                (*extension, text.into_bytes())
            }
            Content::Grid { extension, origin, rows } => {
                let mut text = format!("{}\n", origin.map(number).join(" "));
                for row in rows {
                    let _ = writeln!(text, "{}", row.iter().map(|x| number(*x)).collect::<Vec<_>>().join(", "));
                }
                (*extension, text.into_bytes())
            }
            Content::Obj { vertices, faces } => {
                let mut text = String::from("# fuzz\no mesh\n");
                for v in vertices {
                    let _ = writeln!(text, "v {}", v.map(number).join(" "));
                }
                for f in faces {
                    let _ = writeln!(text, "f {} {} {}", f[0], f[1], f[2]);
                }
                (Extension::Obj, text.into_bytes())
            }
            Content::StlAscii(triangles) => {
                let mut text = String::from("solid fuzz\n");
                for t in triangles {
                    text.push_str("facet normal 0 0 1\nouter loop\n");
                    for v in t {
                        let _ = writeln!(text, "vertex {}", v.map(number).join(" "));
                    }
                    text.push_str("endloop\nendfacet\n");
                }
                text.push_str("endsolid fuzz\n");
                (Extension::Stl, text.into_bytes())
            }
            Content::StlBinary { triangles, count } => {
                let mut bytes = vec![0u8; 80];
                bytes.extend_from_slice(&count.unwrap_or(triangles.len() as u32).to_le_bytes());
                for t in triangles {
                    bytes.extend_from_slice(&[0u8; 12]);
                    for v in t {
                        for x in v {
                            bytes.extend_from_slice(&(x.get() as f32).to_le_bytes());
                        }
                    }
                    bytes.extend_from_slice(&[0u8; 2]);
                }
                (Extension::Stl, bytes)
            }
        }
    }
}

/// The files written so far by the current input, by slot.
#[derive(Default)]
pub struct Files {
    written: [Option<String>; SLOTS],
}

impl Files {
    pub fn write(&mut self, write: &WriteFile) {
        let slot = usize::from(write.slot) % SLOTS;
        let (extension, bytes) = write.content.render();
        let name = format!("f{slot}{}", extension.suffix());
        if let Some(old) = &self.written[slot] {
            let _ = std::fs::remove_file(resources().join(old));
        }
        std::fs::write(resources().join(&name), bytes).expect("the fuzzer's resources folder is writable");
        self.written[slot] = Some(name);
    }

    fn name(&self, slot: u8) -> String {
        self.written[usize::from(slot) % SLOTS].clone().unwrap_or_else(|| format!("never_written_{slot}.obj"))
    }

    /// The C string a string set passes for `text` (`None`: a null pointer).
    pub fn c_string(&self, text: &Text) -> Option<CString> {
        let bytes = match text {
            Text::Empty => Vec::new(),
            Text::WrittenFile(slot) => resources().join(self.name(*slot)).to_string_lossy().into_owned().into_bytes(),
            Text::WrittenFileRelative(slot) => self.name(*slot).into_bytes(),
            Text::MissingAbsolute => b"/nonexistent/contact_force_fuzz/missing.obj".to_vec(),
            Text::MissingRelative => b"missing/geometry.stl".to_vec(),
            Text::Directory => resources().to_string_lossy().into_owned().into_bytes(),
            Text::NotUtf8 => b"geometry_\xff\xfe.obj".to_vec(),
            Text::Null => return None,
            Text::Free(s) => s.as_bytes().to_vec(),
        };
        Some(c_string(bytes))
    }
}

/// A C string of `bytes` without their NULs.
pub fn c_string(mut bytes: Vec<u8>) -> CString {
    bytes.retain(|b| *b != 0);
    CString::new(bytes).expect("NULs removed")
}
