//! The scene file: TOML or JSON (the same keys), read into a [`SceneDescription`]. Its values are
//! checked by [`Scene::new`](crate::Scene::new) as if set one by one; here every key is checked
//! for its type and every unknown key is refused, each error naming where it is:
//! `body[2].radius = "big": must be a number`.
//!
//! ```toml
//! [normal]                 # the scene's law set and the parameters of every pair of materials
//! law = "LinearSpringDamper" # (ContactForce's normal.* and friction.* names)
//! stiffness = 1e5
//! [friction]
//! law = "None"
//! [solver]
//! max_step = 1e-3
//! [coupling]
//! mode = "StepAverage"     # or "Instantaneous" (the default)
//! max_substep = 1e-5
//! gravity = [0, 0, -9.81]  # the other forces' acceleration before a step measures them
//!
//! [[material]]             # optional: one material, "default", when none is listed
//! name = "steel"
//! [[material]]
//! name = "rubber"
//! [[pair]]                 # the parameters between two materials (the laws stay the scene's)
//! materials = ["steel", "rubber"]
//! normal = { stiffness = 1e4 }
//!
//! [[body]]                 # body[1]
//! name = "ground"
//! shape = "Plane"          # ContactForce's geometry_X.* keys: radius, length, size, file, r, q,
//! material = "steel"       # inside, end_bottom, end_top; mass (0 = immovable or driven),
//! [[body]]                 # inertia, com; material (name or index); group, mask
//! shape = "Sphere"
//! radius = 0.05
//! mass = 1.0
//! ```

use std::path::Path;

use contact_physics::enums::EnumItem;
use contact_physics::friction::FrictionLawKind;
use contact_physics::normal::{NormalLawKind, RestitutionModel};
use contact_physics::parameters::{refuse, FrictionParameters, NormalParameters, ParameterError};
use contact_physics::shape::ShapeKind;
use serde_json::{Map, Value};

use crate::description::{body_name, BodyDescription, Material, MaterialPairLaws, SceneDescription};

/// Reads a scene file: `.toml` or `.json` by its extension.
pub fn read(path: &Path) -> Result<SceneDescription, ParameterError> {
    let shown = format!("\"{}\"", path.display());
    let text = std::fs::read_to_string(path).map_err(|e| refuse("scene file", &shown, format!("cannot be read: {e}")))?;
    match path.extension().and_then(|e| e.to_str()).map(str::to_ascii_lowercase).as_deref() {
        Some("toml") => from_toml(&text),
        Some("json") => from_json(&text),
        _ => Err(refuse("scene file", shown, "must end in .toml or .json")),
    }
}

/// A scene from the text of a TOML file.
pub fn from_toml(text: &str) -> Result<SceneDescription, ParameterError> {
    let value: Value = toml::from_str(text).map_err(|e| refuse("scene file", "(TOML)", format!("is not valid TOML: {e}")))?;
    from_value(&value)
}

/// A scene from the text of a JSON file.
pub fn from_json(text: &str) -> Result<SceneDescription, ParameterError> {
    let value: Value = serde_json::from_str(text).map_err(|e| refuse("scene file", "(JSON)", format!("is not valid JSON: {e}")))?;
    from_value(&value)
}

/// One table of the file being read: its name in errors and the keys read so far.
struct Table<'a> {
    path: String,
    map: &'a Map<String, Value>,
    read: Vec<&'static str>,
}

fn table<'a>(path: String, value: &'a Value) -> Result<Table<'a>, ParameterError> {
    match value {
        Value::Object(map) => Ok(Table { path, map, read: Vec::new() }),
        other => Err(refuse(&path, other, "must be a table")),
    }
}

impl<'a> Table<'a> {
    fn name(&self, key: &str) -> String {
        if self.path.is_empty() {
            key.to_string()
        } else {
            format!("{}.{key}", self.path)
        }
    }

    fn get(&mut self, key: &'static str) -> Option<&'a Value> {
        self.read.push(key);
        self.map.get(key)
    }

    fn number(&mut self, key: &'static str, into: &mut f64) -> Result<(), ParameterError> {
        match self.get(key) {
            None => Ok(()),
            Some(v) => {
                *into = v.as_f64().ok_or_else(|| refuse(&self.name(key), v, "must be a number"))?;
                Ok(())
            }
        }
    }

    fn numbers<const N: usize>(&mut self, key: &'static str, into: &mut [f64; N]) -> Result<(), ParameterError> {
        let Some(v) = self.get(key) else { return Ok(()) };
        let list = v.as_array().filter(|a| a.len() == N).ok_or_else(|| refuse(&self.name(key), v, format!("must be a list of {N} numbers")))?;
        for (x, item) in into.iter_mut().zip(list) {
            *x = item.as_f64().ok_or_else(|| refuse(&self.name(key), v, format!("must be a list of {N} numbers")))?;
        }
        Ok(())
    }

    fn flag(&mut self, key: &'static str, into: &mut bool) -> Result<(), ParameterError> {
        if let Some(v) = self.get(key) {
            *into = v.as_bool().ok_or_else(|| refuse(&self.name(key), v, "must be true or false"))?;
        }
        Ok(())
    }

    fn text(&mut self, key: &'static str, into: &mut String) -> Result<(), ParameterError> {
        if let Some(v) = self.get(key) {
            *into = v.as_str().ok_or_else(|| refuse(&self.name(key), v, "must be a string"))?.to_string();
        }
        Ok(())
    }

    fn bits(&mut self, key: &'static str, into: &mut u32) -> Result<(), ParameterError> {
        if let Some(v) = self.get(key) {
            *into = v.as_u64().and_then(|x| u32::try_from(x).ok()).ok_or_else(|| refuse(&self.name(key), v, "must be an integer from 0 to 4294967295"))?;
        }
        Ok(())
    }

    /// An enumeration, by item name or stable number.
    fn item(&mut self, key: &'static str, what: &str, items: &[EnumItem], into: &mut i64) -> Result<(), ParameterError> {
        let Some(v) = self.get(key) else { return Ok(()) };
        let found = match v {
            Value::String(s) => items.iter().find(|i| i.name == s),
            Value::Number(n) => items.iter().find(|i| Some(i.value) == n.as_i64()),
            _ => None,
        };
        let names: Vec<&str> = items.iter().map(|i| i.name).collect();
        *into = found.ok_or_else(|| refuse(&self.name(key), v, format!("is not a {what} ({})", names.join(", "))))?.value;
        Ok(())
    }

    /// Every key was read: one that was not is refused with the keys there are.
    fn finish(self, what: &str) -> Result<(), ParameterError> {
        match self.map.iter().find(|(k, _)| !self.read.contains(&k.as_str())) {
            None => Ok(()),
            Some((k, v)) => Err(refuse(&self.name(k), v, format!("is not a key of {what} ({})", self.read.join(", ")))),
        }
    }
}

/// The items of a list of tables (`[[body]]`), each named `name[i]` (1-based).
fn list<'a>(top: &mut Table<'a>, key: &'static str) -> Result<Vec<Table<'a>>, ParameterError> {
    let Some(v) = top.get(key) else { return Ok(Vec::new()) };
    let items = v.as_array().ok_or_else(|| refuse(key, v, "must be a list of tables"))?;
    items.iter().enumerate().map(|(i, item)| table(format!("{key}[{}]", i + 1), item)).collect()
}

/// The numbers named `keys` of `t`, each into its field of `fields`.
fn numbers<const N: usize>(t: &mut Table, keys: [&'static str; N], fields: [&mut f64; N]) -> Result<(), ParameterError> {
    keys.into_iter().zip(fields).try_for_each(|(key, x)| t.number(key, x))
}

fn normal(t: &mut Table, p: &mut NormalParameters) -> Result<(), ParameterError> {
    t.item("law", "normal law", NormalLawKind::ITEMS, &mut p.law)?;
    t.item("restitution_model", "restitution model", RestitutionModel::ITEMS, &mut p.restitution_model)?;
    let keys = ["stiffness", "damping", "exponent", "damping_exponent", "velocity_exponent", "transition_width", "full_damping_depth", "restitution", "max_depth"];
    numbers(t, keys, [&mut p.stiffness, &mut p.damping, &mut p.exponent, &mut p.damping_exponent, &mut p.velocity_exponent, &mut p.transition_width, &mut p.full_damping_depth, &mut p.restitution, &mut p.max_depth])
}

fn friction(t: &mut Table, p: &mut FrictionParameters) -> Result<(), ParameterError> {
    t.item("law", "friction law", FrictionLawKind::ITEMS, &mut p.law)?;
    let keys = ["mu_static", "mu_dynamic", "v_stiction", "v_transition", "viscous", "tanh_gain", "stiffness", "damping", "max_deformation", "torque_radius", "rolling"];
    let fields = [&mut p.mu_static, &mut p.mu_dynamic, &mut p.v_stiction, &mut p.v_transition, &mut p.viscous, &mut p.tanh_gain, &mut p.stiffness];
    let [mu_s, mu_d, v_s, v_t, viscous, gain, stiffness] = fields;
    numbers(t, keys, [mu_s, mu_d, v_s, v_t, viscous, gain, stiffness, &mut p.damping, &mut p.max_deformation, &mut p.torque_radius, &mut p.rolling])
}

/// The law tables `normal` and `friction` of `t`, read over `n` and `f`.
fn law_tables(t: &mut Table, n: &mut NormalParameters, f: &mut FrictionParameters) -> Result<(), ParameterError> {
    if let Some(v) = t.get("normal") {
        let mut sub = table(t.name("normal"), v)?;
        normal(&mut sub, n)?;
        sub.finish("the normal law's table")?;
    }
    if let Some(v) = t.get("friction") {
        let mut sub = table(t.name("friction"), v)?;
        friction(&mut sub, f)?;
        sub.finish("the friction law's table")?;
    }
    Ok(())
}

/// A material by name or 0-based index.
fn material(t: &mut Table, key: &'static str, value: &Value, materials: &[Material]) -> Result<usize, ParameterError> {
    let found = match value {
        Value::String(s) => materials.iter().position(|m| m.name == *s),
        Value::Number(n) => n.as_u64().map(|i| i as usize).filter(|i| *i < materials.len()),
        _ => None,
    };
    let names: Vec<&str> = materials.iter().map(|m| m.name.as_str()).collect();
    found.ok_or_else(|| refuse(&t.name(key), value, format!("is not a material ({}, or their index from 0)", names.join(", "))))
}

fn body(t: &mut Table, materials: &[Material]) -> Result<BodyDescription, ParameterError> {
    let mut shape = ShapeKind::Sphere.value();
    t.item("shape", "shape", ShapeKind::ITEMS, &mut shape)?;
    let kind = ShapeKind::from_value(shape).expect("an item");
    let mut b = BodyDescription::new(kind);
    t.text("name", &mut b.name)?;
    let g = &mut b.geometry;
    t.number("radius", &mut g.radius)?;
    t.number("length", &mut g.length)?;
    t.numbers("size", &mut g.size)?;
    t.text("file", &mut g.file)?;
    t.numbers("r", &mut g.r)?;
    t.numbers("q", &mut g.q)?;
    t.flag("inside", &mut g.inside)?;
    t.flag("end_bottom", &mut g.end_bottom)?;
    t.flag("end_top", &mut g.end_top)?;
    t.number("mass", &mut b.body.mass)?;
    t.numbers("inertia", &mut b.body.inertia)?;
    t.numbers("com", &mut b.body.com)?;
    if let Some(v) = t.get("material") {
        b.material = material(t, "material", v, materials)?;
    }
    t.bits("group", &mut b.filter[0])?;
    t.bits("mask", &mut b.filter[1])?;
    Ok(b)
}

/// A scene from a file's tree of values (TOML or JSON).
pub fn from_value(value: &Value) -> Result<SceneDescription, ParameterError> {
    let mut d = SceneDescription::default();
    let mut top = table(String::new(), value)?;
    law_tables(&mut top, &mut d.normal, &mut d.friction)?;
    if let Some(v) = top.get("solver") {
        let mut t = table("solver".to_string(), v)?;
        t.number("max_step", &mut d.solver_max_step)?;
        t.finish("solver")?;
    }
    if let Some(v) = top.get("coupling") {
        let mut t = table("coupling".to_string(), v)?;
        if let Some(mode) = t.get("mode") {
            d.coupling.step_average = match mode.as_str() {
                Some("StepAverage") => true,
                Some("Instantaneous") => false,
                _ => return Err(refuse("coupling.mode", mode, "is not a coupling mode (Instantaneous, StepAverage)")),
            };
        }
        t.number("max_substep", &mut d.coupling.max_substep)?;
        t.numbers("gravity", &mut d.coupling.gravity)?;
        t.finish("coupling")?;
    }
    let materials = list(&mut top, "material")?;
    if !materials.is_empty() {
        d.materials.clear();
    }
    for mut t in materials {
        let mut name = String::new();
        t.text("name", &mut name)?;
        if name.is_empty() || d.materials.iter().any(|m| m.name == name) {
            return Err(refuse(&t.name("name"), format!("\"{name}\""), "a material needs a name of its own"));
        }
        d.materials.push(Material { name });
        t.finish("a material")?;
    }
    for mut t in list(&mut top, "pair")? {
        let v = t.get("materials").ok_or_else(|| refuse(&t.name("materials"), "(none)", "a pair names its two materials"))?;
        let two = v.as_array().filter(|a| a.len() == 2).ok_or_else(|| refuse(&t.name("materials"), v, "must be a list of two materials"))?;
        let materials = [material(&mut t, "materials", &two[0], &d.materials)?, material(&mut t, "materials", &two[1], &d.materials)?];
        let (mut n, mut f) = (d.normal.clone(), d.friction.clone());
        law_tables(&mut t, &mut n, &mut f)?;
        d.pairs.push(MaterialPairLaws { materials, normal: n, friction: f });
        t.finish("a pair")?;
    }
    for (i, mut t) in list(&mut top, "body")?.into_iter().enumerate() {
        debug_assert_eq!(t.path, body_name(i));
        d.bodies.push(body(&mut t, &d.materials)?);
        t.finish("a body")?;
    }
    top.finish("a scene")?;
    Ok(d)
}
