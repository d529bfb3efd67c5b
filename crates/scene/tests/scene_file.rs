//! The scene file: the same scene from TOML and from JSON, and errors that name the body, the
//! key and the value.

use contact_physics::friction::FrictionLawKind;
use contact_physics::normal::NormalLawKind;
use contact_physics::shape::ShapeKind;
use contact_scene::file::{from_json, from_toml, read};
use contact_scene::Scene;

const TOML: &str = r#"
[normal]
law = "LinearSpringDamper"
stiffness = 1e5
damping = 300
[friction]
law = "None"
[coupling]
mode = "StepAverage"
max_substep = 2e-5
gravity = [0, 0, -9.81]

[[material]]
name = "steel"
[[material]]
name = "rubber"
[[pair]]
materials = ["rubber", "steel"]
normal = { stiffness = 1e4 }

[[body]]
name = "ground"
shape = "Plane"
material = "steel"
[[body]]
shape = "Sphere"
radius = 0.05
mass = 1.0
material = "rubber"
group = 2
mask = 3
[[body]]
shape = "Box"
size = [0.1, 0.2, 0.3]
mass = 2
inertia = [0.1, 0.1, 0.1, 0, 0, 0]
com = [0, 0, 0.01]
r = [0, 0, 0.5]
material = 0
"#;

const JSON: &str = r#"{
  "normal": { "law": "LinearSpringDamper", "stiffness": 1e5, "damping": 300 },
  "friction": { "law": 1 },
  "coupling": { "mode": "StepAverage", "max_substep": 2e-5, "gravity": [0, 0, -9.81] },
  "material": [{ "name": "steel" }, { "name": "rubber" }],
  "pair": [{ "materials": [1, "steel"], "normal": { "stiffness": 1e4 } }],
  "body": [
    { "name": "ground", "shape": "Plane", "material": "steel" },
    { "shape": "Sphere", "radius": 0.05, "mass": 1.0, "material": "rubber", "group": 2, "mask": 3 },
    { "shape": "Box", "size": [0.1, 0.2, 0.3], "mass": 2, "inertia": [0.1, 0.1, 0.1, 0, 0, 0], "com": [0, 0, 0.01],
      "r": [0, 0, 0.5], "material": 0 }
  ]
}"#;

#[test]
fn toml_and_json_give_the_same_scene() {
    let (t, j) = (from_toml(TOML).unwrap(), from_json(JSON).unwrap());
    // The friction law by name in TOML and by its stable number in JSON.
    assert_eq!(FrictionLawKind::None.value(), 1, "the JSON above names the law by this number");
    assert_eq!(t, j);
    assert_eq!(t.bodies.len(), 3);
    assert_eq!(t.normal.law, NormalLawKind::LinearSpringDamper.value());
    assert_eq!((t.normal.stiffness, t.normal.damping), (1e5, 300.0));
    assert!(t.coupling.step_average);
    assert_eq!(t.coupling.max_substep, 2e-5);
    assert_eq!(t.coupling.gravity, [0.0, 0.0, -9.81]);
    assert_eq!(t.materials.iter().map(|m| m.name.as_str()).collect::<Vec<_>>(), ["steel", "rubber"]);
    assert_eq!(t.pairs[0].materials, [1, 0]);
    assert_eq!(t.pairs[0].normal.stiffness, 1e4);
    // A pair keeps the scene's other values.
    assert_eq!(t.pairs[0].normal.damping, 300.0);
    let (ground, ball, block) = (&t.bodies[0], &t.bodies[1], &t.bodies[2]);
    assert_eq!((ground.name.as_str(), ground.geometry.shape, ground.body.mass), ("ground", ShapeKind::Plane.value(), 0.0));
    assert_eq!((ball.geometry.radius, ball.body.mass, ball.material, ball.filter), (0.05, 1.0, 1, [2, 3]));
    assert_eq!((block.geometry.size, block.body.com, block.geometry.r), ([0.1, 0.2, 0.3], [0.0, 0.0, 0.01], [0.0, 0.0, 0.5]));
    assert_eq!(block.body.inertia, [0.1, 0.1, 0.1, 0.0, 0.0, 0.0]);
    // The laws between rubber and steel are the pair's.
    assert_eq!(t.laws_between(0, 1).0.stiffness, 1e4);
    assert_eq!(t.laws_between(0, 0).0.stiffness, 1e5);
    Scene::new(&t, None).expect("a valid scene");
}

#[test]
fn a_file_is_read_by_its_extension() {
    let dir = std::env::temp_dir().join(format!("contact_scene_file_{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let (toml_path, json_path, other) = (dir.join("scene.toml"), dir.join("scene.json"), dir.join("scene.yaml"));
    std::fs::write(&toml_path, TOML).unwrap();
    std::fs::write(&json_path, JSON).unwrap();
    std::fs::write(&other, TOML).unwrap();
    let (t, j, o) = (read(&toml_path), read(&json_path), read(&other));
    let missing = read(&dir.join("missing.toml"));
    std::fs::remove_dir_all(&dir).unwrap();
    assert_eq!(t.unwrap(), j.unwrap());
    assert!(o.unwrap_err().to_string().ends_with("must end in .toml or .json"));
    assert!(missing.unwrap_err().to_string().contains("cannot be read"));
}

/// The TOML scene with one line replaced.
fn with(line: &str, by: &str) -> String {
    assert!(TOML.contains(line), "{line}");
    TOML.replacen(line, by, 1)
}

#[test]
fn errors_name_the_body_the_key_and_the_value() {
    let error = |text: String| from_toml(&text).and_then(|d| Scene::new(&d, None).map(|_| ())).unwrap_err().to_string();
    assert_eq!(error(with("radius = 0.05", "radius = -1")), "body[2].radius = -1: a Sphere needs radius > 0");
    assert_eq!(error(with("radius = 0.05", "radius = \"big\"")), "body[2].radius = \"big\": must be a number");
    assert_eq!(error(with("mass = 2", "mass = -2")), "body[3].mass = -2: must be >= 0 (0 = immovable)");
    assert_eq!(error(with("size = [0.1, 0.2, 0.3]", "size = [0.1, 0.2]")), "body[3].size = [0.1,0.2]: must be a list of 3 numbers");
    assert_eq!(error(with("size = [0.1, 0.2, 0.3]", "size = [0.1, 0.2, 0]")), "body[3].size[3] = 0: a Box needs size > 0");
    assert!(error(with("shape = \"Sphere\"", "shape = \"Sfere\"")).starts_with("body[2].shape = \"Sfere\": is not a shape (Point, Sphere, Box,"));
    assert!(error(with("radius = 0.05", "radus = 0.05")).starts_with("body[2].radus = 0.05: is not a key of a body (shape, name, radius,"));
    assert!(error(with("material = \"rubber\"", "material = \"glass\"")).starts_with("body[2].material = \"glass\": is not a material (steel, rubber"));
    assert_eq!(error(with("group = 2", "group = -2")), "body[2].group = -2: must be an integer from 0 to 4294967295");
    assert!(error(with("mode = \"StepAverage\"", "mode = \"Average\"")).starts_with("coupling.mode = \"Average\": is not a coupling mode"));
    assert_eq!(error(with("gravity = [0, 0, -9.81]", "gravity = [0, 0, inf]")), "coupling.gravity = [0,0,null]: must be a list of 3 numbers");
    // Given in the description itself (the FMU's parameters, a program's own).
    let mut d = from_toml(TOML).unwrap();
    d.coupling.gravity = [0.0, f64::NAN, -9.81];
    assert_eq!(Scene::new(&d, None).map(|_| ()).unwrap_err().to_string(), "coupling.gravity = [0.0, NaN, -9.81]: must be finite");
    assert!(error(with("normal = { stiffness = 1e4 }", "normal = { law = \"HuntCrossley\" }")).starts_with("pair[1].normal.law = 3: the scene has one law set"));
    assert!(error(with("[friction]", "[frction]")).starts_with("frction = {\"law\":\"None\"}: is not a key of a scene"));
    assert!(error("body = 3".to_string()).starts_with("body = 3: must be a list of tables"));
}
