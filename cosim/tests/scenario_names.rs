//! Scenario names resolved against ContactForce's committed FMI 2 model description (no FMU
//! needed): array shorthands, enumeration items, dotted keys, and errors that name what is wrong.

use std::collections::BTreeMap;

use cosim::fmu::Value;
use cosim::model_description::{BaseType, ModelDescription, VarType};
use cosim::plan::{resolve, Plan, Signal};
use cosim::Scenario;

fn contact_force() -> ModelDescription {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../modelDescription/fmi2.xml");
    let xml = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{path}: {e}"));
    ModelDescription::parse(&xml).unwrap()
}

/// Two ContactForce instances, `body` standing in for a body's outputs and `contact`.
fn descriptions() -> BTreeMap<String, ModelDescription> {
    let description = contact_force();
    BTreeMap::from([("body".to_string(), description.clone()), ("contact".to_string(), description)])
}

/// Top-level keys only (dotted keys for the FMUs), so that a test's text may follow with its
/// own top-level keys and tables.
const HEADER: &str = r#"
stop_time = 1
step = 0.001
fmus.body.path = "ContactForce-fmi2.fmu"
fmus.contact.path = "ContactForce-fmi2.fmu"
"#;

fn plan(body: &str) -> Result<Plan, String> {
    let scenario = Scenario::parse(&format!("{HEADER}\n{body}")).map_err(|e| e.to_string())?;
    resolve(&scenario, &descriptions()).map_err(|e| e.to_string())
}

fn error(body: &str) -> String {
    match plan(body) {
        Ok(_) => panic!("the scenario should be refused:\n{body}"),
        Err(e) => e,
    }
}

#[test]
fn model_description_gives_references_types_and_feedthrough() {
    let description = contact_force();
    assert_eq!(description.model_identifier, "ContactForce");
    assert!(description.guid.starts_with('{'));
    let q = description.array("frame_a.q");
    assert_eq!(q.iter().map(|v| v.name.as_str()).collect::<Vec<_>>(), ["frame_a.q[1]", "frame_a.q[2]", "frame_a.q[3]", "frame_a.q[4]"]);
    // Consecutive value references, as the README promises.
    assert!(q.windows(2).all(|w| w[1].value_reference == w[0].value_reference + 1));
    assert_eq!(description.variable("contact.active").unwrap().var_type.base(), BaseType::Boolean);
    assert_eq!(description.variable("contact.points").unwrap().var_type.base(), BaseType::Integer);
    assert_eq!(description.variable("geometry_a.file").unwrap().var_type.base(), BaseType::String);
    assert_eq!(description.variable("normal.law").unwrap().var_type.base(), BaseType::Integer);
    // An Integer in FMI 2 (so that libcosim sets it), an enumeration by its annotated items here.
    let VarType::Enumeration { declared_type, items } = &description.variable("normal.law").unwrap().var_type else {
        panic!("normal.law should be read as an enumeration")
    };
    assert_eq!((declared_type.as_str(), items.get("HuntCrossley")), ("NormalLaw", Some(&3)));
    assert!(description.has_feedthrough(), "the forces depend on the poses and twists");
}

#[test]
fn array_shorthand_connects_every_element_in_order() {
    let plan = plan(
        r#"
[[connections]]
from = "body.frame_b.f_0"
to = "contact.frame_b.r_0"

[[connections]]
from = "body.contact.n_0[2]"
to = "contact.frame_a.r_0[3]"
"#,
    )
    .unwrap();
    let pairs: Vec<(&str, &str)> = plan.connections.iter().map(|c| (c.from.path.as_str(), c.to.path.as_str())).collect();
    assert_eq!(
        pairs,
        [
            ("body.frame_b.f_0[1]", "contact.frame_b.r_0[1]"),
            ("body.frame_b.f_0[2]", "contact.frame_b.r_0[2]"),
            ("body.frame_b.f_0[3]", "contact.frame_b.r_0[3]"),
            ("body.contact.n_0[2]", "contact.frame_a.r_0[3]"),
        ]
    );
    let description = contact_force();
    assert_eq!(plan.connections[2].to.vr, description.variable("frame_b.r_0[3]").unwrap().value_reference);
    assert_eq!(plan.connections[0].from.instance, 0);
    assert_eq!(plan.connections[0].to.instance, 1);
    // body feeds contact and both have feedthrough: body is exchanged first.
    assert_eq!(plan.order, [0, 1]);
}

#[test]
fn unknown_names_are_errors_that_name_them() {
    let message = error("[[connections]]\nfrom = \"body.frame_b.f_9\"\nto = \"contact.frame_b.r_0\"");
    assert!(message.contains("connection 1") && message.contains("unknown variable body.frame_b.f_9"), "{message}");
    let message = error("[[connections]]\nfrom = \"rigid.r_0\"\nto = \"contact.frame_b.r_0\"");
    assert!(message.contains("unknown instance \"rigid\"") && message.contains("instances: body, contact"), "{message}");
    let message = error("record = [\"contact.frame_c.r_0\"]");
    assert!(message.contains("record entry") && message.contains("unknown variable contact.frame_c.r_0"), "{message}");
    let message = error("[fmus.contact.parameters]\nnormal.stifness = 1e5");
    assert!(message.contains("parameter contact.normal.stifness") && message.contains("unknown variable contact.normal.stifness"), "{message}");
    let message = error("[[inputs]]\nto = \"contact.frame_b.x\"\nvalue = 1");
    assert!(message.contains("unknown variable contact.frame_b.x"), "{message}");
}

#[test]
fn connections_check_lengths_causalities_types_and_single_drivers() {
    let message = error("[[connections]]\nfrom = \"body.frame_b.f_0\"\nto = \"contact.frame_b.q\"");
    assert!(message.contains("body.frame_b.f_0 has 3 elements but contact.frame_b.q has 4"), "{message}");
    let message = error("[[connections]]\nfrom = \"body.frame_b.r_0\"\nto = \"contact.frame_b.r_0\"");
    assert!(message.contains("body.frame_b.r_0[1] is an input variable, not an output"), "{message}");
    let message = error("[[connections]]\nfrom = \"body.frame_b.f_0\"\nto = \"contact.frame_a.f_0\"");
    assert!(message.contains("contact.frame_a.f_0[1] is an output variable, not an input"), "{message}");
    let message = error("[[connections]]\nfrom = \"body.contact.points\"\nto = \"contact.frame_b.r_0[1]\"");
    assert!(message.contains("body.contact.points is Integer but contact.frame_b.r_0[1] is Real"), "{message}");
    let message = error(
        "[[connections]]\nfrom = \"body.frame_b.f_0\"\nto = \"contact.frame_b.r_0\"\n[[inputs]]\nto = \"contact.frame_b.r_0[2]\"\nvalue = 0.5",
    );
    assert!(
        message.contains("contact.frame_b.r_0[2] is driven twice: by the connection from body.frame_b.f_0[2] and by a prescribed input"),
        "{message}"
    );
}

#[test]
fn parameters_take_dotted_keys_arrays_and_enumeration_items() {
    let plan = plan(
        r#"
[fmus.contact.parameters]
normal.law = "HuntCrossley"
"normal.stiffness" = 2e5
geometry_b.size = [0.1, 0.2, 0.3]
geometry_b.shape = 3
geometry_a.file = "ground.csv"
"#,
    )
    .unwrap();
    let parameters = &plan.instances[1].parameters;
    let value = |name: &str| parameters.iter().find(|(n, _)| n == name).map(|(_, v)| v.clone());
    assert_eq!(value("normal.law"), Some(Value::Integer(3)));
    assert_eq!(value("normal.stiffness"), Some(Value::Real(2e5)));
    assert_eq!(value("geometry_b.size[2]"), Some(Value::Real(0.2)));
    assert_eq!(value("geometry_b.shape"), Some(Value::Integer(3)));
    assert_eq!(value("geometry_a.file"), Some(Value::String("ground.csv".into())));

    let message = error("[fmus.contact.parameters]\nnormal.law = \"Hertz\"");
    assert!(message.contains("\"Hertz\" is not an item of NormalLaw") && message.contains("HuntCrossley"), "{message}");
    let message = error("[fmus.contact.parameters]\ngeometry_b.size = [1, 2]");
    assert!(message.contains("parameter contact.geometry_b.size: 2 values given for 3 elements"), "{message}");
    let message = error("[fmus.contact.parameters]\nnormal.stiffness = \"stiff\"");
    assert!(message.contains("normal.stiffness is a Real, it cannot take \"stiff\""), "{message}");
    let message = error("[fmus.contact.parameters]\n\"contact.separation\" = 1.0");
    assert!(message.contains("contact.separation is an output variable; only parameters and inputs take start values"), "{message}");
}

#[test]
fn prescribed_inputs_spread_scalars_and_interpolate_tables() {
    let plan = plan(
        r#"
[[inputs]]
to = "contact.frame_a.q"
value = [1, 0, 0, 0]

[[inputs]]
to = "contact.frame_b.v_0"
value = 0.5

[[inputs]]
to = "contact.frame_b.r_0[3]"
table = [[0.0, 1.0], [1.0, 3.0], [2.0, 3.0]]
"#,
    )
    .unwrap();
    let signals: Vec<(&str, &Signal)> = plan.inputs.iter().map(|i| (i.to.path.as_str(), &i.signal)).collect();
    assert_eq!(signals[0], ("contact.frame_a.q[1]", &Signal::Constant(1.0)));
    assert_eq!(signals[3], ("contact.frame_a.q[4]", &Signal::Constant(0.0)));
    assert_eq!(signals[6], ("contact.frame_b.v_0[3]", &Signal::Constant(0.5)));
    let table = signals[7].1;
    assert_eq!(signals[7].0, "contact.frame_b.r_0[3]");
    for (t, expected) in [(-1.0, 1.0), (0.0, 1.0), (0.25, 1.5), (1.0, 3.0), (1.5, 3.0), (9.0, 3.0)] {
        assert_eq!(table.at(t), expected, "t = {t}");
    }
    let message = error("[[inputs]]\nto = \"contact.frame_b.r_0\"\ntable = [[0, 1, 2], [1, 1, 2]]");
    assert!(message.contains("the table rows have 2 values after the time; contact.frame_b.r_0 has 3 elements"), "{message}");
}

#[test]
fn record_defaults_to_every_output_and_checks_add_their_quantity() {
    let plan = plan("").unwrap();
    let outputs = contact_force().variables.iter().filter(|v| v.causality == cosim::model_description::Causality::Output).count();
    assert_eq!(plan.record.len(), 2 * outputs);
    let plan = plan_with_check();
    let names: Vec<&str> = plan.record.iter().map(|r| r.path.as_str()).collect();
    assert_eq!(names, ["contact.frame_b.f_0[1]", "contact.frame_b.f_0[2]", "contact.frame_b.f_0[3]", "body.contact.normal_force"]);
}

fn plan_with_check() -> Plan {
    plan(
        r#"
record = ["contact.frame_b.f_0"]
[[checks]]
quantity = "body.contact.normal_force"
statistic = "max"
expected = 21.0
relative_tolerance = 0.2
"#,
    )
    .unwrap()
}

#[test]
fn scenario_files_refuse_what_cannot_run() {
    let refuse = |text: &str, expected: &str| {
        let message = Scenario::parse(text).err().unwrap_or_else(|| panic!("should be refused: {text}")).to_string();
        assert!(message.contains(expected), "{message}\nshould contain {expected:?}");
    };
    refuse("stop_time = 1\nstep = 0\n[fmus.a]\npath = \"x.fmu\"", "step = 0 must be a positive");
    refuse("stop_time = 0\nstep = 0.1\n[fmus.a]\npath = \"x.fmu\"", "must be finite and after start_time");
    refuse("stop_time = 1\nstep = 0.1\nfmus = {}", "names no FMU");
    refuse("stop_time = 1\nstep = 0.1\n[fmus.\"a.b\"]\npath = \"x.fmu\"", "instance name \"a.b\"");
    refuse("stop_time = 1\nstep = 0.1\n[fmus.a]\npath = \"x.fmu\"\nsub_steps = 4", "needs sub_step_parameter");
    refuse("stop_time = 1\nstep = 0.1\nstp = 3\n[fmus.a]\npath = \"x.fmu\"", "unknown field `stp`");
    refuse("stop_time = 1\nstep = 0.1\n[fmus.a]\npath = \"x.fmu\"\n[[inputs]]\nto = \"a.x\"", "exactly one of value or table");
    refuse("stop_time = 1\nstep = 0.1\n[fmus.a]\npath = \"x.fmu\"\n[[checks]]\nquantity = \"a.x\"\nexpected = 1", "give a tolerance");
    refuse(
        "stop_time = 1\nstep = 0.1\n[fmus.a]\npath = \"x.fmu\"\n[[checks]]\nquantity = \"a.x\"\nstatistic = \"at\"\nexpected = 1\ntolerance = 0",
        "needs a time",
    );
    let check = |body: &str| format!("stop_time = 1\nstep = 0.1\n[fmus.a]\npath = \"x.fmu\"\n[[checks]]\nquantity = \"a.x\"\n{body}");
    refuse(&check("expected = 1\nat_least = 0"), "either expected (with a tolerance) or bounds");
    refuse(&check("statistic = \"max\""), "give expected (with a tolerance) or at_least / at_most");
    refuse(&check("at_most = 1\ntolerance = 0.1"), "a tolerance goes with expected");
    refuse(&check("at_least = 2\nat_most = 1"), "at_least = 2 is above at_most = 1");
    refuse(&check("window = [1, 0.5]\nat_most = 1"), "window = [1, 0.5] must be two finite times");
    refuse(&check("statistic = \"at\"\ntime = 0.5\nwindow = [0, 1]\nat_most = 1"), "takes a time, not a window");
    refuse(&check("statistic = \"median\"\nat_most = 1"), "unknown variant `median`");
    refuse(&check("scale = 0\nat_most = 1"), "scale = 0 must be a finite, non-zero number");
}
