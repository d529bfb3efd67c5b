//! `cargo xtask ssp`: one SSP 1.0 archive per scenario file, `target/ssp/<name>.ssp`.
//!
//! The scenario TOML is the single source of truth: the archive is generated from it (through the
//! cosim crate's parser and name resolution, so that array shorthands, enumeration item names and
//! `sub_steps` mean exactly what they mean to the Rust master) and never edited by hand.
//!
//! What goes where in `SystemStructure.ssd`:
//!
//! - one `ssd:Component` per FMU instance, `source="resources/<FMU file>"`, the FMU in the
//!   archive's `resources/` (an FMU used by two instances is stored once);
//! - `ssd:Connectors` for the variables that connections use and for the recorded outputs (FMPy's
//!   `simulate_ssp` returns exactly the connectors' values); no units (SSP then takes the FMU
//!   variable's unit);
//! - `ssd:Connections` one per scalar, the arrays of the TOML expanded element by element;
//! - the parameters, the sub-step parameter and the constant inputs as an inline `ssv:ParameterSet`
//!   in each component's `ssd:ParameterBinding` with the FMU's variable names. A constant input is
//!   a start value, which SSP allows for inputs ("any initial values in the FMU which are legal to
//!   change"), and it gets no connector: FMPy 0.3.32 requires every input connector to be connected.
//!   Enumerations are written as `ssv:Integer` item numbers (FMI 2 enumerations are Integer-valued;
//!   FMPy converts the value with `int()`). Every component's set has the one name
//!   [`PARAMETER_SET`]: Ecos gathers the sets of all components by name and applies one name at
//!   initialisation (`EcosSimulation.init(parameter_set=...)`), so a set named after its component
//!   would reach that component alone;
//! - `ssd:DefaultExperiment` with the start and stop time; the communication step, which SSP 1.0
//!   has no element for, in OMSimulator's vendor annotation on the system:
//!   `oms:SimulationInformation name="fixed_step"` (a name and nothing else: a solver that no
//!   component uses) with the `oms:FixedStepMaster stepSize` child that the C++ SSD
//!   importer (`SystemWC::importFromSSD_SimulationInformation`) reads, making the system a weakly
//!   coupled co-simulation system there, and that `examples/python/ssp_fmpy.py` reads; and in
//!   the Open Simulation Platform's annotation of `ssd:DefaultExperiment`
//!   (`osp:FixedStepAlgorithm baseStepSize`), which libcosim's SSP loader reads. No
//!   component names a solver: OMSimulator 3's Python SSD import puts the components that share a
//!   named solver into one strongly coupled system, which imports the FMUs as Model Exchange
//!   (StepAverage then does not apply, and OMSimulator 3.0.0-114 to -146 holds the connections
//!   over each of its solver's steps: docs/src/importers-notes.md). Without one it
//!   builds a weakly coupled system of co-simulation FMUs, whose step the SSD cannot set there
//!   (its import reads no annotation for it: the user calls `setFixedStepSize`, as
//!   `examples/python/ssp_importers.py` does).
//!
//! A tabulated (time-varying) input has no SSP 1.0 form: such a scenario is skipped with a message
//! naming it when every scenario is exported, and refused when it is named on the command line.

use std::collections::BTreeMap;
use std::fs;
use std::io::Read;
use std::path::{Path, PathBuf};

use cosim::fmu::Value;
use cosim::model_description::{BaseType, Causality, ModelDescription, VarType};
use cosim::plan::{self, Signal};
use cosim::Scenario;

use crate::{fmu, root, target_dir, Result};

const SSD_NAMESPACES: &str = concat!(
    r#"xmlns:ssd="http://ssp-standard.org/SSP1/SystemStructureDescription" "#,
    r#"xmlns:ssc="http://ssp-standard.org/SSP1/SystemStructureCommon" "#,
    r#"xmlns:ssv="http://ssp-standard.org/SSP1/SystemStructureParameterValues" "#,
    r#"xmlns:oms="https://raw.githubusercontent.com/OpenModelica/OMSimulator/master/schema/oms.xsd" "#,
    r#"xmlns:osp="http://opensimulationplatform.com/SSP/OSPAnnotations""#,
);

/// The name of every component's parameter set (see the module documentation: Ecos applies one
/// set by name to all components).
pub const PARAMETER_SET: &str = "initialValues";

/// The name of the system's `oms:SimulationInformation`.
const OMS_SOLVER: &str = "fixed_step";

/// Where the archives go (target/ssp).
pub fn output_dir() -> PathBuf {
    target_dir().join("ssp")
}

/// The scenario files of the workspace, in name order.
pub fn scenario_files() -> Result<Vec<PathBuf>> {
    let dir = root().join("scenarios");
    let entries = fs::read_dir(&dir).map_err(|e| format!("could not list {}: {e}", dir.display()))?;
    let mut files: Vec<PathBuf> = entries
        .filter_map(|entry| entry.ok().map(|e| e.path()))
        .filter(|path| path.extension().is_some_and(|ext| ext == "toml"))
        .collect();
    files.sort();
    Ok(files)
}

/// Why a scenario has no SSP: it cannot be expressed (skipped when exporting every scenario), or
/// something is wrong (always an error).
#[derive(Debug, PartialEq)]
pub enum Refusal {
    NotExpressible(String),
    Failed(String),
}

impl Refusal {
    fn message(&self) -> &str {
        match self {
            Refusal::NotExpressible(message) | Refusal::Failed(message) => message,
        }
    }
}

/// Exports `files`, or every scenario file when `files` is empty, from the FMUs in target/fmu.
/// A scenario that SSP cannot express is skipped with a message when exporting all of them and is
/// an error when named.
pub fn build(files: &[PathBuf]) -> Result {
    let named = !files.is_empty();
    let files = if named { files.to_vec() } else { scenario_files()? };
    if files.is_empty() {
        return Err(format!("no scenario files (*.toml) in {}", root().join("scenarios").display()));
    }
    let out = output_dir();
    fs::create_dir_all(&out).map_err(|e| format!("could not create {}: {e}", out.display()))?;
    let mut errors = Vec::new();
    let mut written: BTreeMap<String, &PathBuf> = BTreeMap::new();
    for file in &files {
        match export_file(file, &[fmu::output_dir()]) {
            Ok((name, bytes)) => {
                if let Some(earlier) = written.insert(name.clone(), file) {
                    errors.push(format!(
                        "{} and {} are both named {name:?}: each scenario needs its own name (it names target/ssp/<name>.ssp)",
                        earlier.display(),
                        file.display()
                    ));
                    continue;
                }
                let archive = out.join(format!("{name}.ssp"));
                write_atomically(&archive, &bytes)?;
                println!("wrote {}", archive.display());
            }
            Err(Refusal::NotExpressible(message)) if !named => println!("skipped {message}"),
            Err(refusal) => errors.push(refusal.message().to_string()),
        }
    }
    if errors.is_empty() {
        Ok(())
    } else {
        Err(errors.join("\n"))
    }
}

/// Reads one scenario file and returns its name and the bytes of its SSP archive.
fn export_file(file: &Path, fmu_dirs: &[PathBuf]) -> std::result::Result<(String, Vec<u8>), Refusal> {
    let scenario = Scenario::from_file(file).map_err(|e| Refusal::Failed(e.to_string()))?;
    let what = format!("{} (scenario {})", file.display(), scenario.name);
    let failed = |e: String| Refusal::Failed(format!("{what}: {e}"));
    let mut archives = BTreeMap::new();
    for (instance, entry) in &scenario.fmus {
        let archive = scenario.locate_fmu(&entry.path, fmu_dirs).map_err(|e| failed(format!("fmus.{instance}: {e}")))?;
        archives.insert(instance.clone(), archive);
    }
    let mut descriptions = BTreeMap::new();
    for (instance, archive) in &archives {
        let description = read_model_description(archive).map_err(|e| failed(format!("fmus.{instance}: {e}")))?;
        descriptions.insert(instance.clone(), description);
    }
    let (sources, resources) = resource_names(&archives).map_err(failed)?;
    let ssd = system_structure(&scenario, &descriptions, &sources).map_err(|refusal| match refusal {
        Refusal::NotExpressible(e) => Refusal::NotExpressible(format!("{what}: {e}")),
        Refusal::Failed(e) => failed(e),
    })?;
    let mut entries: BTreeMap<String, (Vec<u8>, u32)> = BTreeMap::new();
    entries.insert("SystemStructure.ssd".to_string(), (ssd.into_bytes(), 0o644));
    for (resource, archive) in resources {
        let bytes = fs::read(&archive).map_err(|e| failed(format!("could not read {}: {e}", archive.display())))?;
        entries.insert(resource, (bytes, 0o644));
    }
    let bytes = fmu::zip_archive(&entries).map_err(|e| failed(format!("could not write the archive: {e}")))?;
    Ok((scenario.name.clone(), bytes))
}

/// The model description inside an FMU archive (FMI 2.0 only, like the Rust master).
fn read_model_description(archive: &Path) -> Result<ModelDescription> {
    let context = |e: String| format!("{}: {e}", archive.display());
    let file = fs::File::open(archive).map_err(|e| context(e.to_string()))?;
    let mut zip = zip::ZipArchive::new(file).map_err(|e| context(format!("not a zip archive: {e}")))?;
    let mut xml = String::new();
    zip.by_name("modelDescription.xml")
        .map_err(|e| context(format!("no modelDescription.xml: {e}")))?
        .read_to_string(&mut xml)
        .map_err(|e| context(format!("modelDescription.xml: {e}")))?;
    ModelDescription::parse(&xml).map_err(|e| context(format!("modelDescription.xml: {e}")))
}

/// Each instance's `source` (`resources/<file name>`) and the archive's resources (name -> FMU
/// file). Two different FMU files with one file name cannot share `resources/`.
#[allow(clippy::type_complexity)]
fn resource_names(archives: &BTreeMap<String, PathBuf>) -> Result<(BTreeMap<String, String>, BTreeMap<String, PathBuf>)> {
    let mut sources = BTreeMap::new();
    let mut resources: BTreeMap<String, PathBuf> = BTreeMap::new();
    for (instance, archive) in archives {
        let file_name = archive.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
        let resource = format!("resources/{file_name}");
        let canonical = fs::canonicalize(archive).unwrap_or_else(|_| archive.clone());
        match resources.get(&resource) {
            Some(other) if *other != canonical => {
                return Err(format!(
                    "two different FMUs are named {file_name} ({} and {}); the SSP's resources/ holds one file per name",
                    other.display(),
                    archive.display()
                ))
            }
            _ => {
                resources.insert(resource.clone(), canonical);
            }
        }
        sources.insert(instance.clone(), resource);
    }
    Ok((sources, resources))
}

/// `SystemStructure.ssd` for `scenario`: `descriptions` and `sources` (the component's
/// `resources/...` file) by instance name.
pub fn system_structure(
    scenario: &Scenario,
    descriptions: &BTreeMap<String, ModelDescription>,
    sources: &BTreeMap<String, String>,
) -> std::result::Result<String, Refusal> {
    if let Some(input) = scenario.inputs.iter().find(|input| input.table.is_some()) {
        return Err(Refusal::NotExpressible(format!(
            "the input to {} is a table (a time-varying signal), which SSP 1.0 cannot express; \
             this scenario runs in the cosim master only",
            input.to
        )));
    }
    let plan = plan::resolve(scenario, descriptions).map_err(|e| Refusal::Failed(e.to_string()))?;
    let names: Vec<&String> = scenario.fmus.keys().collect();
    let local = |path: &str| path.split_once('.').map(|(_, variable)| variable.to_string()).expect("resolved paths are instance.variable");

    // Connectors: connection ends, and recorded outputs, in model description order.
    let mut connectors: Vec<Vec<String>> = vec![Vec::new(); names.len()];
    for connection in &plan.connections {
        connectors[connection.from.instance].push(local(&connection.from.path));
        connectors[connection.to.instance].push(local(&connection.to.path));
    }
    for recorded in &plan.record {
        let name = local(&recorded.path);
        let variable = descriptions[names[recorded.instance]].variable(&name).expect("resolved against this description");
        if variable.causality == Causality::Output {
            connectors[recorded.instance].push(name);
        }
    }

    // Start values: parameters (with the sub-step parameter), then the constant inputs.
    let mut start_values: Vec<Vec<(String, Value)>> = plan.instances.iter().map(|i| i.parameters.clone()).collect();
    for input in &plan.inputs {
        let Signal::Constant(value) = input.signal else { unreachable!("tables were refused above") };
        let value = match input.to.base {
            BaseType::Real => Value::Real(value),
            BaseType::Integer => Value::Integer(value as i32),
            BaseType::Boolean => Value::Boolean(value != 0.0),
            BaseType::String => unreachable!("the plan refuses prescribed String inputs"),
        };
        start_values[input.to.instance].push((local(&input.to.path), value));
    }

    let mut xml = String::new();
    xml.push_str("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    xml.push_str(&format!(
        "<ssd:SystemStructureDescription {SSD_NAMESPACES} version=\"1.0\" name=\"{}\"{} generationTool=\"ContactForce: cargo xtask ssp\">\n",
        escape(&scenario.name),
        description_attribute(&scenario.description),
    ));
    xml.push_str(&format!("  <ssd:System name=\"root\"{}>\n", description_attribute(&scenario.description)));
    xml.push_str("    <ssd:Elements>\n");
    for (index, name) in names.iter().enumerate() {
        let description = &descriptions[*name];
        xml.push_str(&format!(
            "      <ssd:Component name=\"{}\" type=\"application/x-fmu-sharedlibrary\" source=\"{}\" implementation=\"CoSimulation\">\n",
            escape(name),
            escape(&sources[*name])
        ));
        let wanted = &connectors[index];
        let declared: Vec<_> = description.variables.iter().filter(|v| wanted.contains(&v.name)).collect();
        if !declared.is_empty() {
            xml.push_str("        <ssd:Connectors>\n");
            for variable in declared {
                let kind = if variable.causality == Causality::Input { "input" } else { "output" };
                xml.push_str(&format!(
                    "          <ssd:Connector name=\"{}\" kind=\"{kind}\"><ssc:{}/></ssd:Connector>\n",
                    escape(&variable.name),
                    connector_type(&variable.var_type)
                ));
            }
            xml.push_str("        </ssd:Connectors>\n");
        }
        let values = last_wins(&start_values[index]);
        if !values.is_empty() {
            xml.push_str("        <ssd:ParameterBindings>\n          <ssd:ParameterBinding>\n            <ssd:ParameterValues>\n");
            xml.push_str(&format!("              <ssv:ParameterSet version=\"1.0\" name=\"{PARAMETER_SET}\">\n"));
            xml.push_str("                <ssv:Parameters>\n");
            for (variable, value) in values {
                let value = parameter_value(value).map_err(|e| Refusal::Failed(format!("{name}.{variable}: {e}")))?;
                xml.push_str(&format!("                  <ssv:Parameter name=\"{}\">{value}</ssv:Parameter>\n", escape(variable)));
            }
            xml.push_str("                </ssv:Parameters>\n              </ssv:ParameterSet>\n");
            xml.push_str("            </ssd:ParameterValues>\n          </ssd:ParameterBinding>\n        </ssd:ParameterBindings>\n");
        }
        xml.push_str("      </ssd:Component>\n");
    }
    xml.push_str("    </ssd:Elements>\n");
    if !plan.connections.is_empty() {
        xml.push_str("    <ssd:Connections>\n");
        for connection in &plan.connections {
            xml.push_str(&format!(
                "      <ssd:Connection startElement=\"{}\" startConnector=\"{}\" endElement=\"{}\" endConnector=\"{}\"/>\n",
                escape(names[connection.from.instance]),
                escape(&local(&connection.from.path)),
                escape(names[connection.to.instance]),
                escape(&local(&connection.to.path)),
            ));
        }
        xml.push_str("    </ssd:Connections>\n");
    }
    xml.push_str("    <ssd:Annotations>\n      <ssc:Annotation type=\"org.openmodelica\">\n        <oms:Annotations>\n");
    let step = real(scenario.step).map_err(Refusal::Failed)?;
    // Named, because OMSimulator 3's Python API looks every declared solver up by name once a
    // user gives a component a solver; no component uses it (see the module documentation).
    xml.push_str(&format!("          <oms:SimulationInformation name=\"{OMS_SOLVER}\">\n"));
    xml.push_str(&format!(
        "            <oms:FixedStepMaster description=\"oms-ma\" stepSize=\"{step}\" absoluteTolerance=\"1e-4\" relativeTolerance=\"1e-4\"/>\n"
    ));
    xml.push_str("          </oms:SimulationInformation>\n        </oms:Annotations>\n      </ssc:Annotation>\n    </ssd:Annotations>\n");
    xml.push_str("  </ssd:System>\n");
    xml.push_str(&format!(
        "  <ssd:DefaultExperiment startTime=\"{}\" stopTime=\"{}\">\n",
        real(scenario.start_time).map_err(Refusal::Failed)?,
        real(scenario.stop_time).map_err(Refusal::Failed)?
    ));
    // libcosim's SSP loader takes the step from the Open Simulation Platform's annotation.
    xml.push_str("    <ssd:Annotations>\n      <ssc:Annotation type=\"com.opensimulationplatform\">\n");
    xml.push_str(&format!("        <osp:Algorithm><osp:FixedStepAlgorithm baseStepSize=\"{step}\"/></osp:Algorithm>\n"));
    xml.push_str("      </ssc:Annotation>\n    </ssd:Annotations>\n  </ssd:DefaultExperiment>\n");
    xml.push_str("</ssd:SystemStructureDescription>\n");
    Ok(xml)
}

/// One value per name: a later entry (a constant input after a start value of the same input)
/// replaces an earlier one in its place.
fn last_wins(values: &[(String, Value)]) -> Vec<(&String, &Value)> {
    let mut out: Vec<(&String, &Value)> = Vec::new();
    for (name, value) in values {
        match out.iter_mut().find(|(n, _)| *n == name) {
            Some(slot) => slot.1 = value,
            None => out.push((name, value)),
        }
    }
    out
}

fn connector_type(var_type: &VarType) -> &'static str {
    match var_type.base() {
        BaseType::Real => "Real",
        BaseType::Integer => "Integer",
        BaseType::Boolean => "Boolean",
        BaseType::String => "String",
    }
}

fn parameter_value(value: &Value) -> Result<String> {
    Ok(match value {
        Value::Real(x) => format!("<ssv:Real value=\"{}\"/>", real(*x)?),
        Value::Integer(i) => format!("<ssv:Integer value=\"{i}\"/>"),
        Value::Boolean(b) => format!("<ssv:Boolean value=\"{b}\"/>"),
        Value::String(s) => format!("<ssv:String value=\"{}\"/>", escape(s)),
    })
}

/// An xs:double that reads back to the same f64 (Rust's shortest round-trip form, `1e-5`,
/// `0.11`, `100000.0`); infinities and NaN are refused.
fn real(x: f64) -> Result<String> {
    if x.is_finite() {
        Ok(format!("{x:?}"))
    } else {
        Err(format!("{x} is not a finite number"))
    }
}

fn description_attribute(description: &str) -> String {
    if description.is_empty() {
        String::new()
    } else {
        format!(" description=\"{}\"", escape(description))
    }
}

/// Text for an XML attribute value.
fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            '\n' => out.push_str("&#10;"),
            '\t' => out.push_str("&#9;"),
            '\r' => out.push_str("&#13;"),
            c => out.push(c),
        }
    }
    out
}

/// Writes next to the target and renames, so an interrupted run never leaves a truncated archive.
fn write_atomically(path: &Path, bytes: &[u8]) -> Result {
    let partial = path.with_extension("ssp.partial");
    fs::write(&partial, bytes).map_err(|e| format!("could not write {}: {e}", partial.display()))?;
    fs::rename(&partial, path).map_err(|e| format!("could not write {}: {e}", path.display()))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The committed model descriptions stand in for the packaged FMUs.
    fn descriptions() -> BTreeMap<String, ModelDescription> {
        let read = |path: &str| ModelDescription::parse(&fs::read_to_string(root().join(path)).unwrap()).unwrap();
        BTreeMap::from([
            ("ball".to_string(), read("rigid_body/modelDescription/fmi2.xml")),
            ("contact".to_string(), read("modelDescription/fmi2.xml")),
        ])
    }

    fn sources() -> BTreeMap<String, String> {
        BTreeMap::from([
            ("ball".to_string(), "resources/RigidBody-fmi2.fmu".to_string()),
            ("contact".to_string(), "resources/ContactForce-fmi2.fmu".to_string()),
        ])
    }

    const DROP: &str = r#"
name = "drop"
description = "A <small> & quick drop"
stop_time = 0.5
step = 1e-4
record = ["ball.r_0[3]", "contact.contact.normal_force", "ball.f_0[3]"]

[fmus.ball]
path = "RigidBody-fmi2.fmu"
sub_steps = 10
sub_step_parameter = "solver.max_step"
[fmus.ball.parameters]
mass = 0.11
r_0_start = [0, 0, 0.5]

[fmus.contact]
path = "ContactForce-fmi2.fmu"
[fmus.contact.parameters]
geometry_b.shape = "Sphere"
normal.law = "HuntCrossley"
frame_a.q = [0.5, 0.5, 0.5, 0.5]

[[inputs]]
to = "contact.frame_a.q"
value = [1, 0, 0, 0]

[[connections]]
from = "ball.r_0"
to = "contact.frame_b.r_0"
[[connections]]
from = "contact.frame_b.f_0"
to = "ball.f_0"
"#;

    fn drop_ssd() -> String {
        let scenario = Scenario::parse(DROP).unwrap();
        system_structure(&scenario, &descriptions(), &sources()).unwrap()
    }

    #[test]
    fn components_reference_their_fmus_in_resources() {
        let ssd = drop_ssd();
        assert!(ssd.contains(
            r#"<ssd:Component name="ball" type="application/x-fmu-sharedlibrary" source="resources/RigidBody-fmi2.fmu" implementation="CoSimulation">"#
        ));
        assert!(ssd.contains(r#"<ssd:Component name="contact" type="application/x-fmu-sharedlibrary" source="resources/ContactForce-fmi2.fmu""#));
        assert!(ssd.contains(r#"version="1.0" name="drop" description="A &lt;small&gt; &amp; quick drop""#));
    }

    #[test]
    fn array_connections_expand_to_one_connection_per_element() {
        let ssd = drop_ssd();
        for i in 1..=3 {
            assert!(ssd.contains(&format!(
                r#"<ssd:Connection startElement="ball" startConnector="r_0[{i}]" endElement="contact" endConnector="frame_b.r_0[{i}]"/>"#
            )));
            assert!(ssd.contains(&format!(
                r#"<ssd:Connection startElement="contact" startConnector="frame_b.f_0[{i}]" endElement="ball" endConnector="f_0[{i}]"/>"#
            )));
        }
        assert_eq!(ssd.matches("<ssd:Connection ").count(), 6);
    }

    #[test]
    fn connectors_are_the_connected_and_recorded_outputs_and_the_connected_inputs() {
        let ssd = drop_ssd();
        assert!(ssd.contains(r#"<ssd:Connector name="r_0[3]" kind="output"><ssc:Real/></ssd:Connector>"#));
        assert!(ssd.contains(r#"<ssd:Connector name="frame_b.r_0[1]" kind="input"><ssc:Real/></ssd:Connector>"#));
        assert!(ssd.contains(r#"<ssd:Connector name="contact.normal_force" kind="output"><ssc:Real/></ssd:Connector>"#));
        // Recorded and connected: declared once. The constant input has no connector.
        assert_eq!(ssd.matches(r#"<ssd:Connector name="f_0[3]" kind="input">"#).count(), 1);
        assert!(!ssd.contains(r#"<ssd:Connector name="frame_a.q"#));
        assert!(!ssd.contains(r#"<ssd:Connector name="mass""#));
    }

    #[test]
    fn parameters_sub_steps_and_constant_inputs_are_start_values() {
        let ssd = drop_ssd();
        assert!(ssd.contains(r#"<ssv:Parameter name="mass"><ssv:Real value="0.11"/></ssv:Parameter>"#));
        assert!(ssd.contains(r#"<ssv:Parameter name="r_0_start[3]"><ssv:Real value="0.5"/></ssv:Parameter>"#));
        assert!(ssd.contains(r#"<ssv:Parameter name="solver.max_step"><ssv:Real value="1e-5"/></ssv:Parameter>"#));
        // Enumerations by item number: HuntCrossley.
        let descriptions = descriptions();
        let VarType::Enumeration { items, .. } = &descriptions["contact"].variable("normal.law").unwrap().var_type else {
            panic!("normal.law is an enumeration")
        };
        let hunt_crossley = items["HuntCrossley"];
        assert!(ssd.contains(&format!(r#"<ssv:Parameter name="normal.law"><ssv:Integer value="{hunt_crossley}"/></ssv:Parameter>"#)));
        // The constant input replaces the start value given in [fmus.contact.parameters], once.
        assert_eq!(ssd.matches(r#"<ssv:Parameter name="frame_a.q[1]">"#).count(), 1);
        assert!(ssd.contains(r#"<ssv:Parameter name="frame_a.q[1]"><ssv:Real value="1.0"/></ssv:Parameter>"#));
        assert!(ssd.contains(r#"<ssv:Parameter name="frame_a.q[2]"><ssv:Real value="0.0"/></ssv:Parameter>"#));
    }

    #[test]
    fn every_component_s_parameter_set_has_the_one_name_ecos_applies() {
        let ssd = drop_ssd();
        assert_eq!(ssd.matches("<ssv:ParameterSet ").count(), 2);
        assert_eq!(ssd.matches(&format!(r#"<ssv:ParameterSet version="1.0" name="{PARAMETER_SET}">"#)).count(), 2);
    }

    #[test]
    fn the_experiment_and_the_step_are_written() {
        let ssd = drop_ssd();
        assert!(ssd.contains(r#"<ssd:DefaultExperiment startTime="0.0" stopTime="0.5">"#));
        assert!(ssd.contains(r#"<osp:FixedStepAlgorithm baseStepSize="0.0001"/>"#));
        assert!(ssd.contains(r#"<oms:FixedStepMaster description="oms-ma" stepSize="0.0001""#));
        // The system declares a solver by name alone, and no component uses one (OMSimulator 3
        // would make one strongly coupled Model Exchange system of the components that do): the
        // only annotations are the system's and the default experiment's.
        assert_eq!(ssd.matches("<oms:SimulationInformation").count(), 1);
        assert!(ssd.contains("          <oms:SimulationInformation name=\"fixed_step\">\n"));
        assert!(!ssd.contains("method="));
        assert_eq!(ssd.matches("<ssd:Annotations>").count(), 2);
    }

    #[test]
    fn a_tabulated_input_is_not_expressible() {
        let text = DROP.replace("value = [1, 0, 0, 0]", "table = [[0, 1, 0, 0, 0], [1, 0, 1, 0, 0]]");
        let scenario = Scenario::parse(&text).unwrap();
        match system_structure(&scenario, &descriptions(), &sources()) {
            Err(Refusal::NotExpressible(message)) => {
                assert!(message.contains("the input to contact.frame_a.q is a table"), "{message}")
            }
            other => panic!("expected NotExpressible, got {other:?}"),
        }
    }

    #[test]
    fn an_unknown_variable_fails_naming_it() {
        let text = DROP.replace("mass = 0.11", "mas = 0.11");
        let scenario = Scenario::parse(&text).unwrap();
        match system_structure(&scenario, &descriptions(), &sources()) {
            Err(Refusal::Failed(message)) => assert!(message.contains("ball.mas"), "{message}"),
            other => panic!("expected Failed, got {other:?}"),
        }
    }

    #[test]
    fn reals_read_back_exactly_and_non_finite_ones_are_refused() {
        for x in [0.11, 1e-5, 1e5, -9.81, 1.0 / 3.0, 6.02214076e23] {
            assert_eq!(real(x).unwrap().parse::<f64>().unwrap(), x);
        }
        assert!(real(f64::NAN).is_err());
        assert!(real(f64::INFINITY).is_err());
    }

    #[test]
    fn same_file_name_from_two_folders_is_refused() {
        let dir = std::env::temp_dir().join(format!("xtask-ssp-test-{}", std::process::id()));
        for sub in ["a", "b"] {
            fs::create_dir_all(dir.join(sub)).unwrap();
            fs::write(dir.join(sub).join("X.fmu"), sub).unwrap();
        }
        let archives = BTreeMap::from([("one".to_string(), dir.join("a/X.fmu")), ("two".to_string(), dir.join("b/X.fmu"))]);
        let error = resource_names(&archives).unwrap_err();
        assert!(error.contains("two different FMUs are named X.fmu"), "{error}");
        let shared = BTreeMap::from([("one".to_string(), dir.join("a/X.fmu")), ("two".to_string(), dir.join("a/X.fmu"))]);
        let (sources, resources) = resource_names(&shared).unwrap();
        assert_eq!(resources.len(), 1);
        assert_eq!(sources["two"], "resources/X.fmu");
        fs::remove_dir_all(&dir).unwrap();
    }
}
