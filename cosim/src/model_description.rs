//! What the master reads from an FMI 2.0 `modelDescription.xml`: the GUID, the co-simulation model
//! identifier, and every scalar variable (name, value reference, causality, type, start value,
//! enumeration items), plus which outputs depend on inputs (`<ModelStructure>`).

use std::collections::{BTreeMap, HashMap};

use crate::fmi2::ValueReference;

/// The type of a scalar variable. Enumerations keep their items so that a scenario may name them.
#[derive(Clone, Debug, PartialEq)]
pub enum VarType {
    Real,
    Integer,
    Boolean,
    String,
    /// Integer-valued in FMI 2; the items map names to values.
    Enumeration { declared_type: String, items: BTreeMap<String, i32> },
}

impl VarType {
    /// The FMI 2 base type that carries the value (enumerations travel as Integer).
    pub fn base(&self) -> BaseType {
        match self {
            VarType::Real => BaseType::Real,
            VarType::Integer | VarType::Enumeration { .. } => BaseType::Integer,
            VarType::Boolean => BaseType::Boolean,
            VarType::String => BaseType::String,
        }
    }
}

/// The four value types of the FMI 2 get/set functions.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BaseType {
    Real,
    Integer,
    Boolean,
    String,
}

impl BaseType {
    pub fn name(self) -> &'static str {
        match self {
            BaseType::Real => "Real",
            BaseType::Integer => "Integer",
            BaseType::Boolean => "Boolean",
            BaseType::String => "String",
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Causality {
    Parameter,
    CalculatedParameter,
    Input,
    Output,
    Local,
    Independent,
}

impl Causality {
    fn parse(text: &str) -> Option<Causality> {
        Some(match text {
            "parameter" => Causality::Parameter,
            "calculatedParameter" => Causality::CalculatedParameter,
            "input" => Causality::Input,
            "output" => Causality::Output,
            "local" => Causality::Local,
            "independent" => Causality::Independent,
            _ => return None,
        })
    }

    /// With its article, for messages: "an input", "a parameter".
    pub fn described(self) -> String {
        let name = self.name();
        let article = if name.starts_with(['a', 'e', 'i', 'o', 'u']) { "an" } else { "a" };
        format!("{article} {name}")
    }

    pub fn name(self) -> &'static str {
        match self {
            Causality::Parameter => "parameter",
            Causality::CalculatedParameter => "calculatedParameter",
            Causality::Input => "input",
            Causality::Output => "output",
            Causality::Local => "local",
            Causality::Independent => "independent",
        }
    }
}

#[derive(Clone, Debug, PartialEq)]
pub struct Variable {
    pub name: String,
    pub value_reference: ValueReference,
    pub causality: Causality,
    /// `variability` as written ("continuous" when absent).
    pub variability: String,
    pub var_type: VarType,
    /// The start value as written in the XML, if any.
    pub start: Option<String>,
}

#[derive(Clone, Debug)]
pub struct ModelDescription {
    pub model_name: String,
    pub guid: String,
    pub model_identifier: String,
    pub can_handle_variable_step: bool,
    pub variables: Vec<Variable>,
    /// Indices into `variables` of the outputs whose values depend on inputs (direct feedthrough).
    pub feedthrough_outputs: Vec<usize>,
    by_name: HashMap<String, usize>,
}

impl ModelDescription {
    /// Parses an FMI 2.0 model description with a `<CoSimulation>` element.
    pub fn parse(xml: &str) -> Result<ModelDescription, String> {
        let document = roxmltree::Document::parse(xml).map_err(|e| format!("invalid XML: {e}"))?;
        let root = document.root_element();
        if !root.has_tag_name("fmiModelDescription") {
            return Err(format!("the root element is <{}>, expected <fmiModelDescription>", root.tag_name().name()));
        }
        let version = root.attribute("fmiVersion").unwrap_or("");
        if version != "2.0" {
            return Err(format!(
                "fmiVersion is {version:?}: this master imports FMI 2.0 co-simulation FMUs only (use the -fmi2 FMU)"
            ));
        }
        let required = |name: &str| root.attribute(name).map(str::to_string).ok_or(format!("<fmiModelDescription> has no {name} attribute"));
        let model_name = required("modelName")?;
        let guid = required("guid")?;
        let co_simulation = child(root, "CoSimulation").ok_or("the FMU has no <CoSimulation> element (model exchange only)")?;
        let model_identifier = co_simulation
            .attribute("modelIdentifier")
            .ok_or("<CoSimulation> has no modelIdentifier attribute")?
            .to_string();
        let can_handle_variable_step = co_simulation.attribute("canHandleVariableCommunicationStepSize") == Some("true");

        let enumerations = type_definitions(root)?;
        let mut variables = Vec::new();
        if let Some(list) = child(root, "ModelVariables") {
            for node in list.children().filter(|n| n.has_tag_name("ScalarVariable")) {
                variables.push(variable(node, &enumerations)?);
            }
        }
        let mut by_name = HashMap::new();
        for (index, v) in variables.iter().enumerate() {
            if by_name.insert(v.name.clone(), index).is_some() {
                return Err(format!("two variables are named {}", v.name));
            }
        }

        // Outputs: `dependencies` absent means "depends on everything" (feedthrough); an empty list
        // means none. Only dependencies on inputs make an output feedthrough.
        let mut feedthrough_outputs = Vec::new();
        if let Some(outputs) = child(root, "ModelStructure").and_then(|s| child(s, "Outputs")) {
            for unknown in outputs.children().filter(|n| n.has_tag_name("Unknown")) {
                let index: usize = unknown
                    .attribute("index")
                    .and_then(|i| i.parse().ok())
                    .filter(|i| (1..=variables.len()).contains(i))
                    .ok_or("<ModelStructure><Outputs><Unknown> has no valid index")?;
                let depends_on_input = match unknown.attribute("dependencies") {
                    None => true,
                    Some(list) => list.split_whitespace().any(|d| {
                        d.parse::<usize>().ok().and_then(|d| variables.get(d.wrapping_sub(1))).is_some_and(|v| v.causality == Causality::Input)
                    }),
                };
                if depends_on_input {
                    feedthrough_outputs.push(index - 1);
                }
            }
        } else {
            // No structure given: assume the worst, every output depends on the inputs.
            feedthrough_outputs = variables.iter().enumerate().filter(|(_, v)| v.causality == Causality::Output).map(|(i, _)| i).collect();
        }

        Ok(ModelDescription { model_name, guid, model_identifier, can_handle_variable_step, variables, feedthrough_outputs, by_name })
    }

    pub fn variable(&self, name: &str) -> Option<&Variable> {
        self.by_name.get(name).map(|&i| &self.variables[i])
    }

    /// True when some output depends on some input: its outputs must be read after its inputs
    /// are set.
    pub fn has_feedthrough(&self) -> bool {
        !self.feedthrough_outputs.is_empty()
    }

    /// The variables `name[1]`, `name[2]`, ... of a flattened array, in order; empty when there
    /// is no `name[1]`.
    pub fn array(&self, name: &str) -> Vec<&Variable> {
        (1..).map_while(|i| self.variable(&format!("{name}[{i}]"))).collect()
    }
}

fn child<'a, 'input>(node: roxmltree::Node<'a, 'input>, name: &str) -> Option<roxmltree::Node<'a, 'input>> {
    node.children().find(|n| n.has_tag_name(name))
}

/// The `<Tool name>` under which fmi_export's FMI 2.0 model descriptions annotate their Integer
/// enumerations with the items by name.
const ENUMERATION_ANNOTATION_TOOL: &str = "fmi_export";

/// Enumeration types: type name -> item name -> value. FMI 2.0 Enumeration SimpleTypes, and the
/// enumeration types that an fmi_export FMU (ContactForce, RigidBody) declares in its
/// VendorAnnotations (`<Tool name="fmi_export"><Enumerations><EnumerationType>`) for variables
/// that it declares as Integer, so that libcosim can set them (ARCHITECTURE.md, Decisions).
fn type_definitions(root: roxmltree::Node) -> Result<HashMap<String, BTreeMap<String, i32>>, String> {
    let mut enumerations = HashMap::new();
    if let Some(definitions) = child(root, "TypeDefinitions") {
        for simple in definitions.children().filter(|n| n.has_tag_name("SimpleType")) {
            let Some(enumeration) = child(simple, "Enumeration") else { continue };
            let name = simple.attribute("name").ok_or("a <SimpleType> has no name")?;
            enumerations.insert(name.to_string(), items(name, enumeration)?);
        }
    }
    let annotated = child(root, "VendorAnnotations")
        .into_iter()
        .flat_map(|a| a.children().filter(|n| n.has_tag_name("Tool") && n.attribute("name") == Some(ENUMERATION_ANNOTATION_TOOL)))
        .filter_map(|tool| child(tool, "Enumerations"));
    for list in annotated {
        for ty in list.children().filter(|n| n.has_tag_name("EnumerationType")) {
            let name = ty.attribute("name").ok_or("an annotated <EnumerationType> has no name")?;
            enumerations.insert(name.to_string(), items(name, ty)?);
        }
    }
    Ok(enumerations)
}

/// The `<Item name value>` children of an enumeration type: item name -> value.
fn items(name: &str, node: roxmltree::Node) -> Result<BTreeMap<String, i32>, String> {
    let mut items = BTreeMap::new();
    for item in node.children().filter(|n| n.has_tag_name("Item")) {
        let item_name = item.attribute("name").ok_or(format!("an item of {name} has no name"))?;
        let value = item
            .attribute("value")
            .and_then(|v| v.parse().ok())
            .ok_or(format!("item {item_name} of {name} has no integer value"))?;
        items.insert(item_name.to_string(), value);
    }
    Ok(items)
}

fn variable(node: roxmltree::Node, enumerations: &HashMap<String, BTreeMap<String, i32>>) -> Result<Variable, String> {
    let name = node.attribute("name").ok_or("a <ScalarVariable> has no name")?.to_string();
    let value_reference = node
        .attribute("valueReference")
        .and_then(|v| v.parse().ok())
        .ok_or(format!("variable {name} has no valid valueReference"))?;
    let causality_text = node.attribute("causality").unwrap_or("local");
    let causality = Causality::parse(causality_text).ok_or(format!("variable {name} has an unknown causality {causality_text:?}"))?;
    let variability = node.attribute("variability").unwrap_or("continuous").to_string();
    let type_node = node
        .children()
        .find(|n| n.is_element())
        .ok_or(format!("variable {name} has no type element"))?;
    let var_type = match type_node.tag_name().name() {
        "Real" => VarType::Real,
        // An Integer whose declared type is an annotated enumeration takes its items by name.
        "Integer" => match type_node.attribute("declaredType").and_then(|t| enumerations.get(t).map(|items| (t, items))) {
            Some((declared_type, items)) => VarType::Enumeration { declared_type: declared_type.to_string(), items: items.clone() },
            None => VarType::Integer,
        },
        "Boolean" => VarType::Boolean,
        "String" => VarType::String,
        "Enumeration" => {
            let declared_type = type_node.attribute("declaredType").ok_or(format!("enumeration {name} has no declaredType"))?;
            let items = enumerations
                .get(declared_type)
                .ok_or(format!("variable {name} has the undefined enumeration type {declared_type}"))?
                .clone();
            VarType::Enumeration { declared_type: declared_type.to_string(), items }
        }
        other => return Err(format!("variable {name} has the unknown type <{other}>")),
    };
    let start = type_node.attribute("start").map(str::to_string);
    Ok(Variable { name, value_reference, causality, variability, var_type, start })
}
