//! The committed model descriptions match the generator, and the generated XML is consistent:
//! unique value references, declared units, valid enumeration starts, complete ModelStructure and
//! a well-formed instantiation token. Schema and FMPy validation run in the Python tests.

use std::collections::{BTreeMap, BTreeSet};

use contact_force::fmi as model_description;
use contact_force::model::Model;
use contact_force::variables::POSE_INPUTS;
use contact_force::variables::{self, Causality, Role};
use quick_xml::events::Event;
use quick_xml::{Reader, XmlVersion};

/// One XML element: the names of its ancestors and itself, and its attributes.
struct Element {
    path: Vec<String>,
    attributes: BTreeMap<String, String>,
}

impl Element {
    fn name(&self) -> &str {
        self.path.last().expect("an element has a name")
    }

    fn parent(&self) -> &str {
        self.path.iter().rev().nth(1).map(String::as_str).unwrap_or("")
    }

    fn attribute(&self, key: &str) -> Option<&str> {
        self.attributes.get(key).map(String::as_str)
    }
}

/// Every element of `xml` in document order.
fn elements(xml: &str) -> Vec<Element> {
    let mut reader = Reader::from_str(xml);
    let mut stack: Vec<String> = Vec::new();
    let mut out = Vec::new();
    loop {
        let (start, empty) = match reader.read_event().expect("well-formed XML") {
            Event::Start(start) => (start, false),
            Event::Empty(start) => (start, true),
            Event::End(_) => {
                stack.pop();
                continue;
            }
            Event::Eof => break,
            _ => continue,
        };
        let mut path = stack.clone();
        path.push(start.name().as_ref().to_string());
        let attributes = start
            .attributes()
            .map(|a| {
                let a = a.expect("well-formed attribute");
                (a.key.as_ref().to_string(), a.normalized_value(XmlVersion::Explicit1_0).expect("valid escapes").into_owned())
            })
            .collect();
        if !empty {
            stack.push(path.last().unwrap().clone());
        }
        out.push(Element { path, attributes });
    }
    out
}

/// The model variables of either version: ScalarVariable (FMI 2) or the typed elements (FMI 3),
/// with the FMI 2 type element's attributes merged in.
fn model_variables(xml: &str) -> Vec<(String, BTreeMap<String, String>)> {
    let all = elements(xml);
    let mut variables = Vec::new();
    for (i, element) in all.iter().enumerate() {
        match (element.parent(), element.name()) {
            ("ModelVariables", "ScalarVariable") => {
                let ty = &all[i + 1];
                let mut attributes = element.attributes.clone();
                attributes.extend(ty.attributes.clone());
                variables.push((ty.name().to_string(), attributes));
            }
            ("ModelVariables", ty) => variables.push((ty.to_string(), element.attributes.clone())),
            _ => {}
        }
    }
    variables
}

fn both() -> [(&'static str, String); 2] {
    [("fmi2", model_description::fmi2_xml()), ("fmi3", model_description::fmi3_xml())]
}

/// The two FMUs of the one binary: ContactForce (false: without the point slots of the laws
/// provided by input) and ContactForceProvidedLaws (true: every variable), each with its FMI 2
/// and FMI 3 model description.
fn interfaces() -> [(bool, String, String); 2] {
    [
        (false, model_description::fmi2_xml(), model_description::fmi3_xml()),
        (true, model_description::fmi2_extension_xml(), model_description::fmi3_extension_xml()),
    ]
}

/// The scalars a model description of the interface lists, in its order.
fn scalars_of(extension: bool) -> Vec<&'static variables::Scalar<Model>> {
    variables::table().interface_scalars(extension).collect()
}

#[test]
fn contact_force_shows_the_frames_and_the_extension_adds_the_provided_laws_slots() {
    for (extension, fmi2, fmi3) in interfaces() {
        // The frames' 26 inputs, and the 24 forces of the laws provided by input (3 per slot)
        // and the bodies' 2 x 21 mobilities; 84 outputs (the contact's 82 and the bodies'
        // effective masses), and the 112 of what a provided law reads (14 per slot).
        let (inputs, outputs) = if extension { (26 + 24 + 42, 84 + 112) } else { (26, 84) };
        for xml in [&fmi2, &fmi3] {
            let variables = model_variables(xml);
            let count = |causality: &str| variables.iter().filter(|(_, a)| a.get("causality").map(String::as_str) == Some(causality)).count();
            assert_eq!((count("input"), count("output")), (inputs, outputs), "extension {extension}");
            let provided = variables.iter().any(|(_, a)| a["name"] == "contact.point[1].provided.normal_force");
            assert_eq!(provided, extension);
        }
        let identifier = if extension { "ContactForceProvidedLaws" } else { "ContactForce" };
        assert!(fmi2.contains(&format!("modelIdentifier=\"{identifier}\"")) && fmi3.contains(&format!("modelIdentifier=\"{identifier}\"")));
    }
}

#[test]
fn committed_model_descriptions_match_the_variable_table() {
    for (path, generated) in [
        ("modelDescription/fmi2.xml", model_description::fmi2_xml()),
        ("modelDescription/fmi3.xml", model_description::fmi3_xml()),
        ("modelDescription/provided_laws/fmi2.xml", model_description::fmi2_extension_xml()),
        ("modelDescription/provided_laws/fmi3.xml", model_description::fmi3_extension_xml()),
    ] {
        let committed = std::fs::read_to_string(std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(path)).unwrap_or_default();
        assert!(committed == generated, "{path} is stale: run `cargo xtask codegen`");
    }
}

#[test]
fn generation_is_deterministic() {
    assert_eq!(model_description::fmi2_xml(), model_description::fmi2_xml());
    assert_eq!(model_description::fmi3_xml(), model_description::fmi3_xml());
    assert_eq!(model_description::documentation_html("3.0"), model_description::documentation_html("3.0"));
}

#[test]
fn value_references_and_names_are_unique_and_the_same_in_both_versions() {
    for (extension, fmi2, fmi3) in interfaces() {
        let mut listings = Vec::new();
        for (version, xml) in [("fmi2", fmi2), ("fmi3", fmi3)] {
            let variables = model_variables(&xml);
            assert_eq!(variables.len(), scalars_of(extension).len(), "{version}");
            let vrs: BTreeSet<&str> = variables.iter().map(|(_, a)| a["valueReference"].as_str()).collect();
            let names: BTreeSet<&str> = variables.iter().map(|(_, a)| a["name"].as_str()).collect();
            assert_eq!(vrs.len(), variables.len(), "{version}: a value reference is used twice");
            assert_eq!(names.len(), variables.len(), "{version}: a name is used twice");
            listings.push(variables.iter().map(|(_, a)| (a["name"].clone(), a["valueReference"].clone())).collect::<Vec<_>>());
        }
        assert_eq!(listings[0], listings[1], "FMI 2 and FMI 3 must list the same names with the same value references");
    }
}

#[test]
fn every_float_variable_has_a_declared_unit() {
    for (version, xml) in both() {
        let units: BTreeSet<String> =
            elements(&xml).iter().filter(|e| e.name() == "Unit").map(|e| e.attribute("name").unwrap().to_string()).collect();
        // The units this interface uses, each one the table declares (the extension's mobility
        // unit is not written where no variable uses it).
        let declared: BTreeSet<String> = fmi_export::model_description::declared_units::<Model>().iter().map(|u| u.to_string()).collect();
        assert!(units.is_subset(&declared), "{version}: {units:?} not all in {declared:?}");
        for (ty, attributes) in model_variables(&xml) {
            if ty == "Real" || ty == "Float64" {
                let unit = attributes.get("unit").unwrap_or_else(|| panic!("{version}: {} has no unit", attributes["name"]));
                assert!(units.contains(unit), "{version}: unit {unit} of {} is not in UnitDefinitions", attributes["name"]);
            }
        }
    }
}

#[test]
fn every_enumeration_start_value_is_an_item_of_its_type() {
    let enumeration_names: BTreeSet<String> = variables::scalars()
        .iter()
        .filter(|s| matches!(s.variable.ty, variables::ValueType::Enumeration(_)))
        .map(|s| s.name.clone())
        .collect();
    assert!(!enumeration_names.is_empty());
    for (version, xml) in both() {
        let all = elements(&xml);
        let mut items: BTreeMap<String, BTreeMap<i64, String>> = BTreeMap::new();
        // Items follow their EnumerationType in document order: in FMI 3 the TypeDefinitions, in
        // FMI 2 the VendorAnnotations (its TypeDefinitions declare Integer types).
        let mut current = String::new();
        for element in &all {
            match element.name() {
                "EnumerationType" => current = element.attribute("name").unwrap().to_string(),
                "Item" => {
                    let value = element.attribute("value").unwrap().parse().unwrap();
                    items.entry(current.clone()).or_default().insert(value, element.attribute("name").unwrap().to_string());
                }
                _ => {}
            }
        }
        assert_eq!(items.len(), variables::table().enumerations().len(), "{version}");
        // FMI 2: Integer with a declared type (libcosim ignores Enumeration variables); FMI 3:
        // Enumeration.
        let element = if version == "fmi2" { "Integer" } else { "Enumeration" };
        let enumerations: Vec<_> =
            model_variables(&xml).into_iter().filter(|(ty, a)| ty == element && a.contains_key("declaredType")).collect();
        let names: BTreeSet<String> = enumerations.iter().map(|(_, a)| a["name"].clone()).collect();
        assert_eq!(names, enumeration_names, "{version}");
        assert!(model_variables(&xml).iter().all(|(ty, _)| version == "fmi3" || ty != "Enumeration"), "{version}");
        for (_, attributes) in enumerations {
            let declared = &items[&attributes["declaredType"]];
            let start: i64 = attributes["start"].parse().unwrap();
            assert!(
                declared.contains_key(&start),
                "{version}: start {start} of {} is not an item of {}",
                attributes["name"],
                attributes["declaredType"]
            );
            if version == "fmi2" {
                // The range and the items as the FMI 2 Integer states them.
                let range = (declared.keys().min().unwrap().to_string(), declared.keys().max().unwrap().to_string());
                assert_eq!((attributes["min"].clone(), attributes["max"].clone()), range, "{}", attributes["name"]);
                let listed: Vec<String> = declared.iter().map(|(value, name)| format!("{value} = {name}")).collect();
                let description = &attributes["description"];
                assert!(description.contains(&listed.join(", ")), "{}: {description}", attributes["name"]);
                let simple = all.iter().position(|e| e.name() == "SimpleType" && e.attribute("name") == Some(attributes["declaredType"].as_str()));
                let simple = simple.unwrap_or_else(|| panic!("no SimpleType {}", attributes["declaredType"]));
                assert_eq!(all[simple + 1].name(), "Integer");
                assert_eq!((all[simple + 1].attribute("min"), all[simple + 1].attribute("max")), (Some(range.0.as_str()), Some(range.1.as_str())));
            }
        }
    }
}

#[test]
fn outputs_are_listed_once_with_input_dependencies_and_as_initial_unknowns() {
    for (extension, fmi2, fmi3) in interfaces() {
        outputs_listed(extension, &fmi2, &fmi3);
    }
}

fn outputs_listed(extension: bool, fmi2: &str, fmi3: &str) {
    let scalars = scalars_of(extension);
    let outputs: Vec<_> = scalars.iter().filter(|s| s.causality() == Causality::Output).collect();
    let input_vrs: BTreeSet<String> =
        scalars.iter().filter(|s| s.causality() == Causality::Input).map(|s| s.vr.to_string()).collect();
    // The frames' 26, and the 24 forces of the laws provided by input (3 per point slot) and the
    // bodies' 2 x 21 mobilities.
    let provided_inputs = if extension { 24 + 42 } else { 0 };
    assert_eq!(input_vrs.len(), 26 + provided_inputs);
    // The continuous states of Model Exchange are knowns too.
    let state_vrs: BTreeSet<String> = scalars.iter().filter(|s| s.variable.role == Role::State).map(|s| s.vr.to_string()).collect();
    assert_eq!(state_vrs.len(), 24);
    let derivatives: Vec<String> =
        scalars.iter().filter(|s| matches!(s.variable.role, Role::Derivative { .. })).map(|s| s.vr.to_string()).collect();
    assert_eq!(derivatives.len(), 24);

    let fmi3 = elements(fmi3);
    let listed: Vec<&Element> = fmi3.iter().filter(|e| e.name() == "Output").collect();
    let initial: Vec<&str> = fmi3.iter().filter(|e| e.name() == "InitialUnknown").map(|e| e.attribute("valueReference").unwrap()).collect();
    assert_eq!(listed.len(), outputs.len());
    // The outputs and the state derivatives (declared after them), in table order.
    let mut expected_initial: Vec<String> = outputs.iter().map(|s| s.vr.to_string()).collect();
    expected_initial.extend(derivatives.iter().cloned());
    assert_eq!(initial, expected_initial);
    let listed_derivatives: Vec<&str> =
        fmi3.iter().filter(|e| e.name() == "ContinuousStateDerivative").map(|e| e.attribute("valueReference").unwrap()).collect();
    assert_eq!(listed_derivatives, derivatives);
    assert_eq!(fmi3.iter().filter(|e| e.name() == "EventIndicator").count(), 16);
    for (element, scalar) in listed.iter().zip(&outputs) {
        assert_eq!(element.attribute("valueReference").unwrap(), scalar.vr.to_string());
        let dependencies: Vec<&str> = element.attribute("dependencies").unwrap().split(' ').collect();
        let kinds: Vec<&str> = element.attribute("dependenciesKind").unwrap().split(' ').collect();
        assert_eq!(dependencies.len(), kinds.len());
        assert!(kinds.iter().all(|k| *k == "dependent"));
        assert!(dependencies.iter().all(|d| input_vrs.contains(*d) || state_vrs.contains(*d)), "{} depends on a non-input", scalar.name);
        let expected = match scalar.variable.dependencies {
            // The poses' 14 scalars; the frames' 26 (a provided law's outputs); the frames and
            // one slot's provided normal force (a point's normal force; ContactForce has no
            // provided force).
            variables::Dependencies::Inputs(names) if names == POSE_INPUTS => 14,
            variables::Dependencies::Inputs(names) if names == variables::FRAME_INPUTS => 26,
            variables::Dependencies::Inputs(_) => 26 + usize::from(extension),
            // Every input and the 24 deflection states.
            _ => 26 + provided_inputs + 24,
        };
        assert_eq!(dependencies.len(), expected, "{}", scalar.name);
    }

    // FMI 2 names the same scalars by 1-based index.
    let fmi2 = elements(fmi2);
    let indices: Vec<usize> = fmi2
        .iter()
        .filter(|e| e.name() == "Unknown" && e.parent() == "Outputs")
        .map(|e| e.attribute("index").unwrap().parse().unwrap())
        .collect();
    let expected: Vec<usize> = scalars.iter().enumerate().filter(|(_, s)| s.causality() == Causality::Output).map(|(i, _)| i + 1).collect();
    assert_eq!(indices, expected);
    // Every index names the output of the same value reference.
    let listed_vrs: Vec<String> = fmi2.iter().filter(|e| e.name() == "ScalarVariable").map(|e| e.attribute("valueReference").unwrap().to_string()).collect();
    for (index, scalar) in indices.iter().zip(&outputs) {
        assert_eq!(listed_vrs[index - 1], scalar.vr.to_string());
    }
}

#[test]
fn pose_dependencies_name_existing_inputs() {
    for name in POSE_INPUTS {
        let variable = variables::table().variables().iter().find(|v| v.name == name).unwrap_or_else(|| panic!("{name} is not in the table"));
        assert_eq!(variable.causality, Causality::Input, "{name}");
    }
}

#[test]
fn instantiation_token_is_a_guid_embedded_in_both_files() {
    let token = variables::instantiation_token();
    let inner = token.strip_prefix('{').and_then(|t| t.strip_suffix('}')).expect("token in braces");
    let groups: Vec<&str> = inner.split('-').collect();
    assert_eq!(groups.iter().map(|g| g.len()).collect::<Vec<_>>(), [8, 4, 4, 4, 12], "{token}");
    assert!(groups.iter().all(|g| g.chars().all(|c| c.is_ascii_hexdigit() && !c.is_ascii_uppercase())), "{token}");
    assert!(model_description::fmi2_xml().contains(&format!("guid=\"{token}\"")));
    assert!(model_description::fmi3_xml().contains(&format!("instantiationToken=\"{token}\"")));
    let extension = variables::extension_token();
    assert_ne!(extension, token);
    assert!(model_description::fmi2_extension_xml().contains(&format!("guid=\"{extension}\"")));
    assert!(model_description::fmi3_extension_xml().contains(&format!("instantiationToken=\"{extension}\"")));
}

#[test]
fn documentation_is_self_contained_and_lists_every_variable_and_item() {
    for version in ["2.0", "3.0"] {
        for extension in [false, true] {
            let page = if extension { model_description::extension_documentation_html(version) } else { model_description::documentation_html(version) };
            assert!(page.starts_with("<!DOCTYPE html>"));
            for forbidden in ["http://", "https://", "<link", "<script", "src="] {
                assert!(!page.contains(forbidden), "the page refers to an external asset ({forbidden})");
            }
            for s in variables::scalars() {
                let listed = page.contains(&format!("<code>{}</code>", s.name));
                assert_eq!(listed, extension || !s.variable.in_extension, "{} on the page of extension {extension}", s.name);
            }
            for ty in variables::table().enumerations() {
                for item in ty.items {
                    assert!(page.contains(&format!("<code>{}</code>", item.1)), "{}.{} is missing", ty.name, item.1);
                }
            }
            assert!(page.contains(&format!("FMI {version}")));
        }
    }
}
