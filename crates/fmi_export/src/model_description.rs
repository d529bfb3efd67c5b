//! The two modelDescription.xml files and the documentation page, generated from the variable table.
//!
//! `cargo xtask codegen` writes the XML into `modelDescription/`, where it is committed and checked
//! against this generator, so the files that ship are the files that were reviewed. The output is
//! deterministic (no dates, fixed order, 2-space indentation) so that a stale file shows as a diff.
//! Element order follows the XSD schemas of FMI 2.0 and FMI 3.0; FMPy validates both files.
//!
//! Both versions list the same flattened scalars (`frame_a.r_0[1]`, ...) with the same value
//! references. The naming convention is "structured" in both: the names follow the structured
//! grammar (dotted identifiers with `[i]` indices), FMPy's structured-name check accepts them for
//! FMI 3.0 too, and interface.md allows FMI 3.0 to use the flattened scalars.
#![forbid(unsafe_code)]

use std::collections::BTreeSet;

use quick_xml::events::attributes::Attribute;
use quick_xml::events::{BytesDecl, BytesEnd, BytesStart, Event};
use quick_xml::name::QName;
use quick_xml::Writer;

use super::logger::LOG_CATEGORIES;
use crate::model::FmuModel;
use crate::model_exchange::Layout;
use crate::table::{format_real, Causality, EnumerationType, Role, Scalar, ValueType};

pub const GENERATION_TOOL: &str = "fmi_export (cargo xtask codegen)";

/// The `<Tool name>` of the FMI 2.0 VendorAnnotations that keep the enumeration items by name
/// (see `fmi2_enumeration_annotation`).
pub const ENUMERATION_ANNOTATION_TOOL: &str = "fmi_export";

/// A unit with its SI base-unit exponents (kg, m, s, rad); `None` for units with fractional
/// exponents, which FMI's integer BaseUnit cannot express (they are declared by name only).
struct UnitDefinition {
    name: &'static str,
    exponents: Option<[i32; 4]>,
}

const fn unit(name: &'static str, kg: i32, m: i32, s: i32, rad: i32) -> UnitDefinition {
    UnitDefinition { name, exponents: Some([kg, m, s, rad]) }
}

const fn named_unit(name: &'static str) -> UnitDefinition {
    UnitDefinition { name, exponents: None }
}

/// Every unit the table may use, in the order UnitDefinitions lists them. A unit missing here is
/// a programming error that the tests catch (see [`used_units`]).
const UNITS: &[UnitDefinition] = &[
    unit("1", 0, 0, 0, 0),
    unit("m", 0, 1, 0, 0),
    unit("s", 0, 0, 1, 0),
    unit("m/s", 0, 1, -1, 0),
    // PlanarContact: an angle about z.
    unit("rad", 0, 0, 0, 1),
    unit("rad/s", 0, 0, -1, 1),
    // RigidBody's Model Exchange: the rate of a quaternion and the angular acceleration.
    unit("1/s", 0, 0, -1, 0),
    unit("rad/s2", 0, 0, -2, 1),
    unit("s/m", 0, -1, 1, 0),
    unit("N", 1, 1, -2, 0),
    unit("N.m", 1, 2, -2, 0),
    unit("N/m", 1, 0, -2, 0),
    unit("N.s/m", 1, 0, -1, 0),
    unit("kg", 1, 0, 0, 0),
    unit("kg.m2", 1, 2, 0, 0),
    unit("m/s2", 0, 1, -2, 0),
    unit("J", 1, 2, -2, 0),
    // ElasticCone's tangential constants act on sqrt(d) u: kg m^-0.5 s^-2 and kg m^-0.5 s^-1.
    named_unit("N/m1.5"),
    named_unit("N.s/m1.5"),
    // A normal law's stiffness and damping, whose exponents are the law's parameters n, p and q
    // (N/m for the linear laws, N/m^1.5 for Hertz): one variable cannot have one BaseUnit for all.
    named_unit("N/m^n"),
    named_unit("N.s^q/m^(p+q)"),
    // RigidBody's mobility matrix: 1/kg, 1/(kg.m) and 1/(kg.m2) in its blocks (k = 0, 1, 2).
    named_unit("1/(kg.m^k)"),
];

/// The units used by the table, in [`UNITS`] order.
///
/// Panics if the table uses a unit that [`UNITS`] does not define: an undefined unit would make an
/// invalid model description.
fn used_units<M: FmuModel>(x: bool) -> Vec<&'static UnitDefinition> {
    let used: BTreeSet<&str> = M::table().variables()
        .iter()
        .filter(|v| x || !v.in_extension)
        .filter_map(|v| match v.ty {
            ValueType::Float64 { unit, .. } => Some(unit),
            _ => None,
        })
        .collect();
    for name in &used {
        assert!(UNITS.iter().any(|u| u.name == *name), "unit {name:?} is used in the variable table but has no SI definition in UNITS");
    }
    UNITS.iter().filter(|u| used.contains(u.name)).collect()
}

/// Every unit name declared in UnitDefinitions (for tests and the documentation).
pub fn declared_units<M: FmuModel>() -> Vec<&'static str> {
    used_units::<M>(true).into_iter().map(|u| u.name).collect()
}

// ---------------------------------------------------------------------------------------------
// A thin XML writer: writing into a Vec cannot fail, so the io::Result is unwrapped once here.

type Attributes<'a> = Vec<(&'a str, String)>;

struct Xml(Writer<Vec<u8>>);

impl Xml {
    fn new() -> Xml {
        let mut writer = Writer::new_with_indent(Vec::new(), b' ', 2);
        writer.write_event(Event::Decl(BytesDecl::new("1.0", Some("UTF-8"), None))).expect("writing to a Vec");
        Xml(writer)
    }

    fn start(name: &str, attributes: &[(&str, String)]) -> BytesStart<'static> {
        let mut start = BytesStart::new(name.to_string());
        for (key, value) in attributes {
            // A raw Attribute is written as given, so the value is escaped here: only the characters
            // that must be (quick-xml would also escape ', which makes "A's frame" hard to read).
            let value = escape_text(value).replace('\t', "&#9;").replace('\n', "&#10;").replace('\r', "&#13;");
            start.push_attribute(Attribute { key: QName(key), value: value.into() });
        }
        start
    }

    fn empty(&mut self, name: &str, attributes: &[(&str, String)]) {
        self.0.write_event(Event::Empty(Self::start(name, attributes))).expect("writing to a Vec");
    }

    fn open(&mut self, name: &str, attributes: &[(&str, String)]) {
        self.0.write_event(Event::Start(Self::start(name, attributes))).expect("writing to a Vec");
    }

    fn close(&mut self, name: &str) {
        self.0.write_event(Event::End(BytesEnd::new(name.to_string()))).expect("writing to a Vec");
    }

    fn finish(self) -> String {
        let mut text = String::from_utf8(self.0.into_inner()).expect("the writer only writes UTF-8");
        text.push('\n');
        text
    }
}

/// Escapes the characters that may not appear literally in XML or HTML text or in a
/// double-quoted attribute value.
fn escape_text(text: &str) -> String {
    text.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;").replace('"', "&quot;")
}

fn attributes<'a>(pairs: &[(&'a str, &str)]) -> Attributes<'a> {
    pairs.iter().map(|(k, v)| (*k, v.to_string())).collect()
}

// ---------------------------------------------------------------------------------------------
// Parts shared by both versions.

#[derive(Clone, Copy, PartialEq, Eq)]
enum Version {
    Fmi2,
    Fmi3,
}

fn unit_definitions<M: FmuModel>(xml: &mut Xml, x: bool) {
    xml.open("UnitDefinitions", &[]);
    for unit in used_units::<M>(x) {
        let Some([kg, m, s, rad]) = unit.exponents else {
            xml.empty("Unit", &[("name", unit.name.to_string())]);
            continue;
        };
        xml.open("Unit", &[("name", unit.name.to_string())]);
        let exponents: Attributes = [("kg", kg), ("m", m), ("s", s), ("rad", rad)]
            .into_iter()
            .filter(|(_, exponent)| *exponent != 0)
            .map(|(base, exponent)| (base, exponent.to_string()))
            .collect();
        xml.empty("BaseUnit", &exponents);
        xml.close("Unit");
    }
    xml.close("UnitDefinitions");
}

fn enumeration_items(xml: &mut Xml, ty: &EnumerationType) {
    for (value, name, description) in ty.items {
        xml.empty(
            "Item",
            &[("name", name.to_string()), ("value", value.to_string()), ("description", description.trim().to_string())],
        );
    }
}

/// The smallest and largest item value of an enumeration type: the `min` and `max` of its FMI 2.0
/// Integer form.
pub fn item_range(ty: &EnumerationType) -> (i64, i64) {
    let values = ty.items.iter().map(|(value, _, _)| *value);
    (values.clone().min().expect("an enumeration has items"), values.max().expect("an enumeration has items"))
}

/// `1 = Point, 2 = Sphere, ...`: the items of an enumeration as a description lists them.
pub fn item_list(ty: &EnumerationType) -> String {
    ty.items.iter().map(|(value, name, _)| format!("{value} = {name}")).collect::<Vec<_>>().join(", ")
}

/// The description of an enumeration variable in FMI 2.0, where it is an Integer: its own
/// description, then its type and items (`Normal force law (NormalLaw: 1 = LinearSpringDamper,
/// ...)`), so that a tool that shows only descriptions still shows what each number means.
pub fn fmi2_enumeration_description(description: &str, ty: &EnumerationType) -> String {
    format!("{description} ({}: {})", ty.name, item_list(ty))
}

/// TypeDefinitions. FMI 3.0: an EnumerationType per enumeration. FMI 2.0: a SimpleType per
/// enumeration of Integer form (min and max the item range; the variables' descriptions list the items),
/// because libcosim, and through it every OSP tool, ignores FMI 2.0 Enumeration variables and
/// could not set them (ARCHITECTURE.md, Decisions); the items by name are in the
/// VendorAnnotations (see [`fmi2_enumeration_annotation`]).
fn type_definitions<M: FmuModel>(xml: &mut Xml, version: Version) {
    // The schemas forbid an empty TypeDefinitions element.
    if M::table().enumerations().is_empty() {
        return;
    }
    xml.open("TypeDefinitions", &[]);
    for ty in M::table().enumerations() {
        match version {
            Version::Fmi2 => {
                xml.open("SimpleType", &attributes(&[("name", ty.name), ("description", ty.description)]));
                let (min, max) = item_range(ty);
                xml.empty("Integer", &[("min", min.to_string()), ("max", max.to_string())]);
                xml.close("SimpleType");
            }
            Version::Fmi3 => {
                xml.open("EnumerationType", &attributes(&[("name", ty.name), ("description", ty.description)]));
                enumeration_items(xml, ty);
                xml.close("EnumerationType");
            }
        }
    }
    xml.close("TypeDefinitions");
}

/// FMI 2.0 VendorAnnotations: the enumeration types with their items, in the form of FMI 3.0's
/// TypeDefinitions (`<EnumerationType name description><Item name value description/>...`), under
/// `<Tool name="fmi_export"><Enumerations>` (the schema allows one element in a Tool). An
/// Integer variable whose declaredType names one of them takes its items by name: the cosim
/// master reads them so that scenarios name items; any other tool ignores them (the standard's
/// rule for annotations of another tool) and sees an Integer with a range.
fn fmi2_enumeration_annotation<M: FmuModel>(xml: &mut Xml) {
    if M::table().enumerations().is_empty() {
        return;
    }
    xml.open("VendorAnnotations", &[]);
    xml.open("Tool", &[("name", ENUMERATION_ANNOTATION_TOOL.to_string())]);
    xml.open("Enumerations", &[]);
    for ty in M::table().enumerations() {
        xml.open("EnumerationType", &attributes(&[("name", ty.name), ("description", ty.description)]));
        enumeration_items(xml, ty);
        xml.close("EnumerationType");
    }
    xml.close("Enumerations");
    xml.close("Tool");
    xml.close("VendorAnnotations");
}

fn log_categories(xml: &mut Xml) {
    xml.open("LogCategories", &[]);
    for (name, description) in LOG_CATEGORIES {
        xml.empty("Category", &attributes(&[("name", name), ("description", description)]));
    }
    xml.close("LogCategories");
}

fn default_experiment<M: FmuModel>(xml: &mut Xml) {
    let (start, stop, step) = M::DEFAULT_EXPERIMENT;
    let (start, stop, step) = (format_real(start), format_real(stop), format_real(step));
    xml.empty("DefaultExperiment", &attributes(&[("startTime", &start), ("stopTime", &stop), ("stepSize", &step)]));
}

/// name, valueReference, description, causality and variability of a scalar. No `initial`
/// attribute anywhere: the defaults are what this FMU means (parameters exact, inputs exact,
/// outputs calculated, none for time), and FMI 2.0 forbids `initial` on inputs and time.
fn common_attributes<M: FmuModel>(s: &Scalar<M>, version: Version) -> Attributes<'static> {
    let v = s.variable;
    let description = match (v.ty, version) {
        (ValueType::Enumeration(ty), Version::Fmi2) => fmi2_enumeration_description(v.description, ty),
        _ => v.description.to_string(),
    };
    let mut attributes = vec![
        ("name", s.name.clone()),
        ("valueReference", s.vr.to_string()),
        ("description", description),
        ("causality", v.causality.as_str().to_string()),
        ("variability", v.variability.as_str().to_string()),
    ];
    // A continuous state starts from its start value (the default for a local would be
    // "calculated", which allows no start value).
    if v.role == Role::State {
        attributes.push(("initial", "exact".to_string()));
    }
    attributes
}

/// The `derivative` attribute of a derivative variable: its state's 1-based index in
/// ModelVariables (FMI 2.0) or its state's value reference (FMI 3.0).
fn derivative_attribute<M: FmuModel>(s: &Scalar<M>, version: Version, x: bool) -> Option<(&'static str, String)> {
    let Role::Derivative { state } = s.variable.role else { return None };
    let state = M::table().scalar(state + s.element as u32).expect("a derivative's state is in the table");
    Some(("derivative", match version {
        Version::Fmi2 => fmi2_index(state, x).to_string(),
        Version::Fmi3 => state.vr.to_string(),
    }))
}

/// The Model Exchange layout of the model's table, when it provides Model Exchange.
fn model_exchange_layout<M: FmuModel>() -> Option<Layout> {
    M::MODEL_EXCHANGE.then(|| Layout::of(M::table()))
}

/// The scalars with these value references, with their 0-based positions in ModelVariables.
fn positioned<M: FmuModel>(vrs: &[u32], x: bool) -> Vec<(usize, &'static Scalar<M>)> {
    vrs.iter().map(|vr| M::table().interface_scalars(x).enumerate().find(|(_, s)| s.vr == *vr).expect("a scalar of the interface")).collect()
}

/// The initial unknowns: every output and every state derivative (both calculated), in
/// ModelVariables order.
fn initial_unknowns<M: FmuModel>(x: bool) -> Vec<(usize, &'static Scalar<M>)> {
    let mut unknowns: Vec<_> = outputs::<M>(x).collect();
    if let Some(layout) = model_exchange_layout::<M>() {
        unknowns.extend(positioned::<M>(&layout.derivatives, x));
    }
    unknowns.sort_by_key(|(position, _)| *position);
    unknowns
}

/// The type-specific attributes (declaredType, unit, min, max, start) in schema order; an FMI 2.0
/// enumeration, an Integer there, states its item range as min and max.
fn type_attributes<M: FmuModel>(s: &Scalar<M>, version: Version) -> Attributes<'static> {
    let mut out = Attributes::new();
    match s.variable.ty {
        ValueType::Float64 { unit, min, max } => {
            out.push(("unit", unit.to_string()));
            out.extend(min.map(|min| ("min", format_real(min))));
            out.extend(max.map(|max| ("max", format_real(max))));
        }
        ValueType::Enumeration(ty) => {
            out.push(("declaredType", ty.name.to_string()));
            if version == Version::Fmi2 {
                let (min, max) = item_range(ty);
                out.push(("min", min.to_string()));
                out.push(("max", max.to_string()));
            }
        }
        ValueType::Int32 | ValueType::Boolean | ValueType::String => {}
    }
    out.extend(M::table().start_value(s).map(|start| ("start", start)));
    out
}

/// The outputs of the interface (`x`: the extension's), with their 0-based positions in its
/// ModelVariables.
fn outputs<M: FmuModel>(x: bool) -> impl Iterator<Item = (usize, &'static Scalar<M>)> {
    M::table().interface_scalars(x).enumerate().filter(|(_, s)| s.causality() == Causality::Output)
}

/// `dependencies` and `dependenciesKind` of an output, each dependency named by `key`.
fn dependency_attributes<M: FmuModel>(s: &Scalar<M>, x: bool, key: impl Fn(&Scalar<M>) -> u32) -> Attributes<'static> {
    let mut dependencies = M::table().dependencies_of(s);
    dependencies.retain(|d| x || !d.variable.in_extension);
    let list: Vec<String> = dependencies.iter().map(|d| key(d).to_string()).collect();
    vec![("dependencies", list.join(" ")), ("dependenciesKind", vec!["dependent"; list.len()].join(" "))]
}

/// 1-based position of a scalar in ModelVariables (FMI 2.0 ModelStructure indices).
fn fmi2_index<M: FmuModel>(s: &Scalar<M>, x: bool) -> u32 {
    let position = M::table().interface_scalars(x).position(|t| t.vr == s.vr).expect("scalar of the interface");
    position as u32 + 1
}

/// modelName (and modelIdentifier), description and token of the model's own interface or (`x`)
/// its extension's.
fn identity<M: FmuModel>(x: bool) -> (&'static str, &'static str, String) {
    match (x, M::EXTENSION) {
        (true, Some(e)) => (e.name, e.description, M::table().extension_token().expect("a model with an extension has its variables")),
        _ => (M::NAME, M::DESCRIPTION, M::table().instantiation_token().to_string()),
    }
}

fn header<M: FmuModel>(version: Version, x: bool) -> Attributes<'static> {
    let (name, description, token) = identity::<M>(x);
    let (fmi_version, token_name) = match version {
        Version::Fmi2 => ("2.0", "guid"),
        Version::Fmi3 => ("3.0", "instantiationToken"),
    };
    let mut head = vec![
        ("fmiVersion", fmi_version.to_string()),
        ("modelName", name.to_string()),
        (token_name, token),
        ("description", description.to_string()),
        ("generationTool", GENERATION_TOOL.to_string()),
        ("variableNamingConvention", "structured".to_string()),
    ];
    if version == Version::Fmi2 {
        let indicators = model_exchange_layout::<M>().map_or(0, |layout| layout.indicators.len());
        head.push(("numberOfEventIndicators", indicators.to_string()));
    }
    head
}

// ---------------------------------------------------------------------------------------------
// FMI 2.0.

/// The complete FMI 2.0 modelDescription.xml.
pub fn fmi2_xml<M: FmuModel>() -> String {
    fmi2_interface_xml::<M>(false)
}

/// The FMI 2.0 modelDescription.xml of the model's extension ([`FmuModel::EXTENSION`]).
pub fn fmi2_extension_xml<M: FmuModel>() -> String {
    fmi2_interface_xml::<M>(true)
}

fn fmi2_interface_xml<M: FmuModel>(x: bool) -> String {
    let name = identity::<M>(x).0;
    let mut xml = Xml::new();
    xml.open("fmiModelDescription", &header::<M>(Version::Fmi2, x));
    if M::MODEL_EXCHANGE {
        // completedIntegratorStepNotNeeded is false: the model may ask for a step event.
        xml.empty(
            "ModelExchange",
            &attributes(&[
                ("modelIdentifier", name),
                ("completedIntegratorStepNotNeeded", "false"),
                ("canBeInstantiatedOnlyOncePerProcess", "false"),
                ("canNotUseMemoryManagementFunctions", "true"),
                ("canGetAndSetFMUstate", "true"),
                ("canSerializeFMUstate", "true"),
                ("providesDirectionalDerivative", "false"),
            ]),
        );
    }
    xml.empty(
        "CoSimulation",
        &attributes(&[
            ("modelIdentifier", name),
            ("canHandleVariableCommunicationStepSize", "true"),
            ("canInterpolateInputs", flag(M::CAN_INTERPOLATE_INPUTS)),
            ("canBeInstantiatedOnlyOncePerProcess", "false"),
            ("canNotUseMemoryManagementFunctions", "true"),
            ("canGetAndSetFMUstate", "true"),
            ("canSerializeFMUstate", "true"),
            ("providesDirectionalDerivative", flag(M::PROVIDES_DIRECTIONAL_DERIVATIVES)),
            ("maxOutputDerivativeOrder", &M::MAX_OUTPUT_DERIVATIVE_ORDER.to_string()),
        ]),
    );
    unit_definitions::<M>(&mut xml, x);
    type_definitions::<M>(&mut xml, Version::Fmi2);
    log_categories(&mut xml);
    default_experiment::<M>(&mut xml);
    fmi2_enumeration_annotation::<M>(&mut xml);

    xml.open("ModelVariables", &[]);
    for s in M::table().interface_scalars(x) {
        xml.open("ScalarVariable", &common_attributes::<M>(s, Version::Fmi2));
        let element = match s.variable.ty {
            ValueType::Float64 { .. } => "Real",
            // Enumerations too: see type_definitions.
            ValueType::Int32 | ValueType::Enumeration(_) => "Integer",
            ValueType::Boolean => "Boolean",
            ValueType::String => "String",
        };
        let mut typed = type_attributes::<M>(s, Version::Fmi2);
        typed.extend(derivative_attribute::<M>(s, Version::Fmi2, x));
        xml.empty(element, &typed);
        xml.close("ScalarVariable");
    }
    xml.close("ModelVariables");

    xml.open("ModelStructure", &[]);
    xml.open("Outputs", &[]);
    for (position, s) in outputs::<M>(x) {
        let mut unknown = vec![("index", (position + 1).to_string())];
        unknown.extend(dependency_attributes::<M>(s, x, |d| fmi2_index(d, x)));
        xml.empty("Unknown", &unknown);
    }
    xml.close("Outputs");
    // Without a `dependencies` attribute an unknown depends on all knowns (inputs and states).
    if let Some(layout) = model_exchange_layout::<M>() {
        xml.open("Derivatives", &[]);
        for (position, _) in positioned::<M>(&layout.derivatives, x) {
            xml.empty("Unknown", &[("index", (position + 1).to_string())]);
        }
        xml.close("Derivatives");
    }
    // FMPy (and the standard) expect exactly the outputs with initial="calculated" and the state
    // derivatives here. Without a `dependencies` attribute an initial unknown depends on all
    // knowns, which is true: they follow from the parameters, the inputs and the start states.
    xml.open("InitialUnknowns", &[]);
    for (position, _) in initial_unknowns::<M>(x) {
        xml.empty("Unknown", &[("index", (position + 1).to_string())]);
    }
    xml.close("InitialUnknowns");
    xml.close("ModelStructure");

    xml.close("fmiModelDescription");
    xml.finish()
}

// ---------------------------------------------------------------------------------------------
// FMI 3.0.

/// The complete FMI 3.0 modelDescription.xml.
pub fn fmi3_xml<M: FmuModel>() -> String {
    fmi3_interface_xml::<M>(false)
}

/// The FMI 3.0 modelDescription.xml of the model's extension ([`FmuModel::EXTENSION`]).
pub fn fmi3_extension_xml<M: FmuModel>() -> String {
    fmi3_interface_xml::<M>(true)
}

fn fmi3_interface_xml<M: FmuModel>(x: bool) -> String {
    let name = identity::<M>(x).0;
    let mut xml = Xml::new();
    xml.open("fmiModelDescription", &header::<M>(Version::Fmi3, x));
    // FMI 3.0 has no canNotUseMemoryManagementFunctions (the importer no longer passes allocators).
    if M::MODEL_EXCHANGE {
        // needsCompletedIntegratorStep: the model may ask for a step event.
        xml.empty(
            "ModelExchange",
            &attributes(&[
                ("modelIdentifier", name),
                ("canBeInstantiatedOnlyOncePerProcess", "false"),
                ("canGetAndSetFMUState", "true"),
                ("canSerializeFMUState", "true"),
                ("providesDirectionalDerivatives", "false"),
                ("needsCompletedIntegratorStep", "true"),
            ]),
        );
    }
    xml.empty(
        "CoSimulation",
        &attributes(&[
            ("modelIdentifier", name),
            ("canBeInstantiatedOnlyOncePerProcess", "false"),
            ("canGetAndSetFMUState", "true"),
            ("canSerializeFMUState", "true"),
            ("providesDirectionalDerivatives", flag(M::PROVIDES_DIRECTIONAL_DERIVATIVES)),
            ("providesAdjointDerivatives", flag(M::PROVIDES_DIRECTIONAL_DERIVATIVES)),
            ("maxOutputDerivativeOrder", &M::MAX_OUTPUT_DERIVATIVE_ORDER.to_string()),
            ("canHandleVariableCommunicationStepSize", "true"),
            ("providesIntermediateUpdate", "false"),
            ("mightReturnEarlyFromDoStep", flag(M::MIGHT_RETURN_EARLY)),
            ("canReturnEarlyAfterIntermediateUpdate", "false"),
            ("hasEventMode", flag(M::MIGHT_RETURN_EARLY)),
        ]),
    );
    unit_definitions::<M>(&mut xml, x);
    type_definitions::<M>(&mut xml, Version::Fmi3);
    log_categories(&mut xml);
    default_experiment::<M>(&mut xml);

    xml.open("ModelVariables", &[]);
    for s in M::table().interface_scalars(x) {
        let mut attributes = common_attributes::<M>(s, Version::Fmi3);
        match s.variable.ty {
            ValueType::String => {
                // FMI 3.0 gives String start values as child elements.
                xml.open("String", &attributes);
                if let Some(start) = M::table().start_value(s) {
                    xml.empty("Start", &[("value", start)]);
                }
                xml.close("String");
            }
            ty => {
                attributes.extend(type_attributes::<M>(s, Version::Fmi3));
                attributes.extend(derivative_attribute::<M>(s, Version::Fmi3, x));
                let element = match ty {
                    ValueType::Float64 { .. } => "Float64",
                    ValueType::Int32 => "Int32",
                    ValueType::Boolean => "Boolean",
                    _ => "Enumeration",
                };
                xml.empty(element, &attributes);
            }
        }
    }
    xml.close("ModelVariables");

    xml.open("ModelStructure", &[]);
    for (_, s) in outputs::<M>(x) {
        let mut output = vec![("valueReference", s.vr.to_string())];
        output.extend(dependency_attributes::<M>(s, x, |d| d.vr));
        xml.empty("Output", &output);
    }
    let layout = model_exchange_layout::<M>();
    for vr in layout.iter().flat_map(|layout| &layout.derivatives) {
        xml.empty("ContinuousStateDerivative", &[("valueReference", vr.to_string())]);
    }
    // As in FMI 2.0: every output (initial="calculated") and every state derivative, depending
    // on all knowns.
    for (_, s) in initial_unknowns::<M>(x) {
        xml.empty("InitialUnknown", &[("valueReference", s.vr.to_string())]);
    }
    for vr in layout.iter().flat_map(|layout| &layout.indicators) {
        xml.empty("EventIndicator", &[("valueReference", vr.to_string())]);
    }
    xml.close("ModelStructure");

    xml.close("fmiModelDescription");
    xml.finish()
}

// ---------------------------------------------------------------------------------------------
// Documentation page.

fn html(text: &str) -> String {
    escape_text(text)
}

fn type_name(ty: &ValueType, fmi_version: &str) -> &'static str {
    let fmi2 = fmi_version.starts_with('2');
    match ty {
        ValueType::Float64 { .. } if fmi2 => "Real",
        ValueType::Int32 | ValueType::Enumeration(_) if fmi2 => "Integer",
        _ => ty.type_name(),
    }
}

fn variable_rows<M: FmuModel>(page: &mut String, fmi_version: &str, x: bool) {
    for s in M::table().interface_scalars(x) {
        let v = s.variable;
        let (unit, range) = match v.ty {
            ValueType::Float64 { unit, min, max } => {
                let bound = |b: Option<f64>| b.map(format_real).unwrap_or_default();
                let range = if min.is_some() || max.is_some() { format!("[{}, {}]", bound(min), bound(max)) } else { String::new() };
                (unit.to_string(), range)
            }
            _ => (String::new(), String::new()),
        };
        let mut ty = type_name(&v.ty, fmi_version).to_string();
        let mut start = M::table().start_value(s).unwrap_or_default();
        if let ValueType::Enumeration(enumeration) = v.ty {
            ty = format!("{ty} ({})", enumeration.name);
            if let Some((_, name, _)) = enumeration.items.iter().find(|(value, _, _)| value.to_string() == start) {
                start = format!("{name} ({start})");
            }
        }
        if v.ty.type_name() == "String" {
            start = format!("\"{start}\"");
        }
        page.push_str(&format!(
            "<tr><td><code>{}</code></td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>\n",
            html(&s.name),
            s.vr,
            v.causality.as_str(),
            html(&ty),
            html(&unit),
            html(&start),
            html(&range),
            html(v.description)
        ));
    }
}

fn enumeration_sections<M: FmuModel>(page: &mut String) {
    for ty in M::table().enumerations() {
        let users: Vec<String> = M::table().variables()
            .iter()
            .filter(|v| matches!(v.ty, ValueType::Enumeration(t) if t.name == ty.name))
            .map(|v| format!("<code>{}</code>", html(v.name)))
            .collect();
        page.push_str(&format!("<h3>{} <small>({})</small></h3>\n", html(ty.name), users.join(", ")));
        page.push_str(&format!("<p>{}.</p>\n<table>\n<tr><th>value</th><th>item</th><th>description</th></tr>\n", html(ty.description)));
        for (value, name, description) in ty.items {
            page.push_str(&format!(
                "<tr><td>{}</td><td><code>{}</code></td><td>{}</td></tr>\n",
                value,
                html(name),
                html(description.trim())
            ));
        }
        page.push_str("</table>\n");
    }
}

/// A self-contained HTML page (no external assets) describing the FMU for `fmi_version`
/// ("2.0" or "3.0"): the model's own sections (conventions, laws), every variable and the
/// enumerations.
pub fn documentation_html<M: FmuModel>(fmi_version: &str) -> String {
    interface_documentation_html::<M>(fmi_version, false)
}

/// The documentation page of the model's extension ([`FmuModel::EXTENSION`]).
pub fn extension_documentation_html<M: FmuModel>(fmi_version: &str) -> String {
    interface_documentation_html::<M>(fmi_version, true)
}

fn interface_documentation_html<M: FmuModel>(fmi_version: &str, x: bool) -> String {
    let (name, description, token) = identity::<M>(x);
    let name = html(name);
    let mut page = format!(
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>{name} (FMI {version})</title>\n<style>\n\
         body {{ font-family: sans-serif; max-width: 70em; margin: 2em auto; line-height: 1.4; }}\n\
         table {{ border-collapse: collapse; margin: 1em 0; }}\n\
         th, td {{ border: 1px solid #ccc; padding: 0.2em 0.5em; text-align: left; vertical-align: top; }}\n\
         th {{ background: #eee; }}\n\
         code {{ white-space: nowrap; }}\n\
         </style>\n</head>\n<body>\n\
         <h1>{name}</h1>\n\
         <p>{description}. FMI {version} {interfaces} FMU; instantiation token <code>{token}</code>.</p>\n",
        version = html(fmi_version),
        description = html(description),
        token = html(&token),
        interfaces = if M::MODEL_EXCHANGE { "Model Exchange and co-simulation" } else { "co-simulation" },
    );

    page.push_str(&M::documentation_html());

    page.push_str(
        "<h2>Variables</h2>\n<p>Arrays are flattened into scalars <code>x[1]</code>, <code>x[2]</code>, ... with \
         consecutive value references.</p>\n<table>\n\
         <tr><th>name</th><th>vr</th><th>causality</th><th>type</th><th>unit</th><th>start</th><th>[min, max]</th><th>description</th></tr>\n",
    );
    variable_rows::<M>(&mut page, fmi_version, x);
    page.push_str("</table>\n<h2>Enumerations</h2>\n");
    enumeration_sections::<M>(&mut page);
    page.push_str("</body>\n</html>\n");
    page
}

/// An XML boolean.
fn flag(value: bool) -> &'static str {
    if value {
        "true"
    } else {
        "false"
    }
}
