//! The models this workspace ships as FMUs: one entry each, everything else is generic.

/// One model: where it lives and how its generated files are made.
pub struct Model {
    /// modelName / modelIdentifier; the FMUs are `<name>-fmi2.fmu` and `<name>-fmi3.fmu`.
    pub name: &'static str,
    /// The cargo package whose cdylib is the binary of both FMUs (default features: both APIs);
    /// several models may share one (a model and its extension, `fmi_export::Extension`).
    pub package: &'static str,
    /// Folder (relative to the workspace root) of the committed `fmi2.xml` and `fmi3.xml`.
    pub model_descriptions: &'static str,
    pub fmi2_xml: fn() -> String,
    pub fmi3_xml: fn() -> String,
    /// The documentation page for an FMI version ("2.0", "3.0").
    pub documentation: fn(&str) -> String,
}

pub const MODELS: &[Model] = &[
    Model {
        name: "ContactForce",
        package: "contact_force",
        model_descriptions: "modelDescription",
        fmi2_xml: contact_force::fmi::fmi2_xml,
        fmi3_xml: contact_force::fmi::fmi3_xml,
        documentation: contact_force::fmi::documentation_html,
    },
    // The same binary as ContactForce under a name of its own, with the point slots of the laws
    // provided by input that ContactForce's model descriptions leave out (the token tells the
    // binary which of the two an importer instantiated).
    Model {
        name: "ContactForceProvidedLaws",
        package: "contact_force",
        model_descriptions: "modelDescription/provided_laws",
        fmi2_xml: contact_force::fmi::fmi2_extension_xml,
        fmi3_xml: contact_force::fmi::fmi3_extension_xml,
        documentation: contact_force::fmi::extension_documentation_html,
    },
    Model {
        name: "RigidBody",
        package: "rigid_body",
        model_descriptions: "rigid_body/modelDescription",
        fmi2_xml: rigid_body::fmi::fmi2_xml,
        fmi3_xml: rigid_body::fmi::fmi3_xml,
        documentation: rigid_body::fmi::documentation_html,
    },
    Model {
        name: "PlanarContact",
        package: "planar_contact",
        model_descriptions: "planar_contact/modelDescription",
        fmi2_xml: planar_contact::fmi::fmi2_xml,
        fmi3_xml: planar_contact::fmi::fmi3_xml,
        documentation: planar_contact::fmi::documentation_html,
    },
    Model {
        name: "ContactScene",
        package: "scene_fmu",
        model_descriptions: "scene_fmu/modelDescription",
        fmi2_xml: scene_fmu::fmi::fmi2_xml,
        fmi3_xml: scene_fmu::fmi::fmi3_xml,
        documentation: scene_fmu::fmi::documentation_html,
    },
];
