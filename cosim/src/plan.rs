//! Resolution of a scenario's names against the FMUs' model descriptions: array shorthands
//! expanded into scalars, causalities and types checked, every input driven at most once, and the
//! order in which the instances exchange values at a communication point.
//!
//! Every error names the scenario entry and the variable that is wrong.

use std::collections::{BTreeMap, HashMap};

use crate::fmi2::ValueReference;
use crate::fmu::Value;
use crate::model_description::{BaseType, Causality, ModelDescription, VarType, Variable};
use crate::scenario::{flatten_parameters, CheckSpec, Scenario};
use crate::Error;

/// One scalar variable of one instance.
#[derive(Clone, Debug, PartialEq)]
pub struct ScalarRef {
    /// Index into [`Plan::instances`].
    pub instance: usize,
    /// `instance.variable`, the name used in CSV headers and checks.
    pub path: String,
    pub vr: ValueReference,
    pub base: BaseType,
}

#[derive(Clone, Debug, PartialEq)]
pub struct ScalarConnection {
    pub from: ScalarRef,
    pub to: ScalarRef,
}

/// A scenario-driven signal: constant or piecewise linear in time.
#[derive(Clone, Debug, PartialEq)]
pub enum Signal {
    Constant(f64),
    /// (time, value) points, times non-decreasing.
    Table(Vec<(f64, f64)>),
}

impl Signal {
    pub fn at(&self, t: f64) -> f64 {
        match self {
            Signal::Constant(v) => *v,
            Signal::Table(points) => {
                let (first, last) = (points[0], points[points.len() - 1]);
                if t <= first.0 {
                    return first.1;
                }
                if t >= last.0 {
                    return last.1;
                }
                let i = points.partition_point(|p| p.0 <= t);
                let (a, b) = (points[i - 1], points[i]);
                if b.0 == a.0 {
                    b.1
                } else {
                    a.1 + (b.1 - a.1) * (t - a.0) / (b.0 - a.0)
                }
            }
        }
    }
}

#[derive(Clone, Debug, PartialEq)]
pub struct ScalarInput {
    pub to: ScalarRef,
    pub signal: Signal,
}

#[derive(Clone, Debug, PartialEq)]
pub struct InstancePlan {
    pub name: String,
    /// Start values in the order written (the sub-step parameter last).
    pub parameters: Vec<(String, Value)>,
    /// Some output depends on an input: inputs are set before outputs are read.
    pub feedthrough: bool,
}

/// Everything the master needs, with names resolved.
#[derive(Clone, Debug, PartialEq)]
pub struct Plan {
    /// In the scenario's (alphabetical) order; `order` gives the exchange order.
    pub instances: Vec<InstancePlan>,
    /// Instance indices: sources before the feedthrough instances they feed.
    pub order: Vec<usize>,
    pub connections: Vec<ScalarConnection>,
    pub inputs: Vec<ScalarInput>,
    /// Recorded scalars, in column order.
    pub record: Vec<ScalarRef>,
    pub checks: Vec<CheckSpec>,
}

/// Resolves `scenario` against one model description per instance name.
pub fn resolve(scenario: &Scenario, descriptions: &BTreeMap<String, ModelDescription>) -> Result<Plan, Error> {
    let names: Vec<&String> = scenario.fmus.keys().collect();
    let resolver = Resolver { names: &names, descriptions };

    let mut instances = Vec::new();
    for (name, entry) in &scenario.fmus {
        let description = &descriptions[name];
        let mut parameters = Vec::new();
        for (key, value) in flatten_parameters(&entry.parameters) {
            let what = format!("parameter {name}.{key}");
            let variables = resolver.variables(description, name, &key, &what)?;
            let values = spread(&value, variables.len(), &what)?;
            for (variable, value) in variables.iter().zip(values) {
                if !matches!(variable.causality, Causality::Parameter | Causality::Input) {
                    return Err(Error::new(format!(
                        "{what}: {} is {} variable; only parameters and inputs take start values",
                        variable.name,
                        variable.causality.described()
                    )));
                }
                parameters.push((variable.name.clone(), convert(variable, value, &what)?));
            }
        }
        if let (Some(n), Some(parameter)) = (entry.sub_steps, &entry.sub_step_parameter) {
            let what = format!("fmus.{name}.sub_step_parameter");
            let variable = resolver.scalar_variable(description, name, parameter, &what)?;
            if variable.var_type != VarType::Real || variable.causality != Causality::Parameter {
                return Err(Error::new(format!("{what}: {parameter} must be a Real parameter")));
            }
            parameters.push((parameter.clone(), Value::Real(scenario.step / f64::from(n))));
        }
        instances.push(InstancePlan { name: name.clone(), parameters, feedthrough: description.has_feedthrough() });
    }

    let mut driven: HashMap<(usize, ValueReference), String> = HashMap::new();
    let mut drive = |to: &ScalarRef, by: String| -> Result<(), Error> {
        match driven.insert((to.instance, to.vr), by.clone()) {
            Some(earlier) => Err(Error::new(format!("{} is driven twice: by {earlier} and by {by}", to.path))),
            None => Ok(()),
        }
    };

    let mut connections = Vec::new();
    for (index, connection) in scenario.connections.iter().enumerate() {
        let what = format!("connection {} (from = {:?}, to = {:?})", index + 1, connection.from, connection.to);
        let from = resolver.scalars(&connection.from, &what)?;
        let to = resolver.scalars(&connection.to, &what)?;
        if from.len() != to.len() {
            return Err(Error::new(format!(
                "{what}: {} has {} elements but {} has {}",
                connection.from,
                from.len(),
                connection.to,
                to.len()
            )));
        }
        for ((from, from_var), (to, to_var)) in from.into_iter().zip(to) {
            if from_var.causality != Causality::Output {
                return Err(Error::new(format!("{what}: {} is {} variable, not an output", from.path, from_var.causality.described())));
            }
            if to_var.causality != Causality::Input {
                return Err(Error::new(format!("{what}: {} is {} variable, not an input", to.path, to_var.causality.described())));
            }
            if from.base != to.base || from.base == BaseType::String {
                return Err(Error::new(format!(
                    "{what}: {} is {} but {} is {} (connections join Real, Integer or Boolean variables of one type)",
                    from.path,
                    from.base.name(),
                    to.path,
                    to.base.name()
                )));
            }
            drive(&to, format!("the connection from {}", from.path))?;
            connections.push(ScalarConnection { from, to });
        }
    }

    let mut inputs = Vec::new();
    for input in &scenario.inputs {
        let what = format!("input to {:?}", input.to);
        let targets = resolver.scalars(&input.to, &what)?;
        let signals: Vec<Signal> = match (&input.value, &input.table) {
            (Some(value), None) => spread(value, targets.len(), &what)?
                .into_iter()
                .map(|v| number(&v, &what).map(Signal::Constant))
                .collect::<Result<_, _>>()?,
            (None, Some(table)) => {
                let columns = table[0].len() - 1;
                if columns != targets.len() && columns != 1 {
                    return Err(Error::new(format!(
                        "{what}: the table rows have {columns} values after the time; {} has {} elements",
                        input.to,
                        targets.len()
                    )));
                }
                (0..targets.len())
                    .map(|i| Signal::Table(table.iter().map(|row| (row[0], row[1 + i.min(columns - 1)])).collect()))
                    .collect()
            }
            _ => unreachable!("Scenario::validate allows exactly one of value and table"),
        };
        for ((to, variable), signal) in targets.into_iter().zip(signals) {
            if variable.causality != Causality::Input {
                return Err(Error::new(format!("{what}: {} is {} variable, not an input", to.path, variable.causality.described())));
            }
            if to.base == BaseType::String {
                return Err(Error::new(format!("{what}: {} is a String; prescribed inputs are numbers", to.path)));
            }
            drive(&to, "a prescribed input".to_string())?;
            inputs.push(ScalarInput { to, signal });
        }
    }

    let mut record: Vec<ScalarRef> = Vec::new();
    let mut add_record = |scalar: ScalarRef| {
        if !record.iter().any(|r| r.path == scalar.path) {
            record.push(scalar);
        }
    };
    if scenario.record.is_empty() {
        for (index, name) in names.iter().enumerate() {
            for variable in descriptions[*name].variables.iter().filter(|v| v.causality == Causality::Output && v.var_type.base() != BaseType::String) {
                add_record(ScalarRef { instance: index, path: format!("{name}.{}", variable.name), vr: variable.value_reference, base: variable.var_type.base() });
            }
        }
    }
    for path in &scenario.record {
        for (scalar, _) in resolver.scalars(path, &format!("record entry {path:?}"))? {
            if scalar.base == BaseType::String {
                return Err(Error::new(format!("record entry {path:?}: {} is a String, which is not recorded", scalar.path)));
            }
            add_record(scalar);
        }
    }
    for check in &scenario.checks {
        let what = format!("check {}", check.label());
        let scalars = resolver.scalars(&check.quantity, &what)?;
        if scalars.len() != 1 {
            return Err(Error::new(format!("{what}: {} is an array of {}; a check needs one scalar", check.quantity, scalars.len())));
        }
        let (scalar, _) = scalars.into_iter().next().expect("one scalar");
        if scalar.base == BaseType::String {
            return Err(Error::new(format!("{what}: {} is a String", scalar.path)));
        }
        add_record(scalar);
    }

    let order = exchange_order(&instances, &connections)?;
    Ok(Plan { instances, order, connections, inputs, record, checks: scenario.checks.clone() })
}

struct Resolver<'a> {
    names: &'a [&'a String],
    descriptions: &'a BTreeMap<String, ModelDescription>,
}

impl Resolver<'_> {
    /// `instance.variable` or `instance.array` to its scalars, with their variables.
    fn scalars(&self, path: &str, what: &str) -> Result<Vec<(ScalarRef, Variable)>, Error> {
        let (instance_name, variable) = path
            .split_once('.')
            .ok_or_else(|| Error::new(format!("{what}: {path:?} is not of the form instance.variable")))?;
        let instance = self.names.iter().position(|n| *n == instance_name).ok_or_else(|| {
            let known: Vec<&str> = self.names.iter().map(|n| n.as_str()).collect();
            Error::new(format!("{what}: {path:?} names the unknown instance {instance_name:?} (instances: {})", known.join(", ")))
        })?;
        let description = &self.descriptions[instance_name];
        Ok(self
            .variables(description, instance_name, variable, what)?
            .into_iter()
            .map(|v| {
                let scalar = ScalarRef { instance, path: format!("{instance_name}.{}", v.name), vr: v.value_reference, base: v.var_type.base() };
                (scalar, v.clone())
            })
            .collect())
    }

    /// A scalar by name, or the elements `name[1]`, `name[2]`, ... of an array.
    fn variables<'d>(&self, description: &'d ModelDescription, instance: &str, name: &str, what: &str) -> Result<Vec<&'d Variable>, Error> {
        if let Some(variable) = description.variable(name) {
            return Ok(vec![variable]);
        }
        let elements = description.array(name);
        if elements.is_empty() {
            return Err(Error::new(format!(
                "{what}: unknown variable {instance}.{name}: {instance} ({}) has neither a variable {name} nor an array {name}[1], {name}[2], ...",
                description.model_name
            )));
        }
        Ok(elements)
    }

    fn scalar_variable<'d>(&self, description: &'d ModelDescription, instance: &str, name: &str, what: &str) -> Result<&'d Variable, Error> {
        description.variable(name).ok_or_else(|| {
            Error::new(format!("{what}: unknown variable {instance}.{name} ({} has no scalar {name})", description.model_name))
        })
    }
}

/// A scalar value for one scalar, or an array with one value per element. A single number
/// given for an array sets every element.
fn spread(value: &toml::Value, count: usize, what: &str) -> Result<Vec<toml::Value>, Error> {
    match value {
        toml::Value::Array(items) if items.len() == count => Ok(items.clone()),
        toml::Value::Array(items) => {
            Err(Error::new(format!("{what}: {} values given for {count} element{}", items.len(), if count == 1 { "" } else { "s" })))
        }
        scalar => Ok(vec![scalar.clone(); count]),
    }
}

fn number(value: &toml::Value, what: &str) -> Result<f64, Error> {
    match value {
        toml::Value::Float(x) => Ok(*x),
        toml::Value::Integer(i) => Ok(*i as f64),
        toml::Value::Boolean(b) => Ok(if *b { 1.0 } else { 0.0 }),
        other => Err(Error::new(format!("{what}: {} is not a number", show(other)))),
    }
}

/// A TOML value as a start value of `variable`; enumerations take item names or numbers.
fn convert(variable: &Variable, value: toml::Value, what: &str) -> Result<Value, Error> {
    let wrong = |value: &toml::Value| {
        Err(Error::new(format!("{what}: {} is {}, it cannot take {}", variable.name, describe(&variable.var_type), show(value))))
    };
    match (&variable.var_type, &value) {
        (VarType::Real, toml::Value::Float(x)) => Ok(Value::Real(*x)),
        (VarType::Real, toml::Value::Integer(i)) => Ok(Value::Real(*i as f64)),
        (VarType::Integer | VarType::Enumeration { .. }, toml::Value::Integer(i)) => match i32::try_from(*i) {
            Ok(i) => Ok(Value::Integer(i)),
            Err(_) => wrong(&value),
        },
        (VarType::Enumeration { declared_type, items }, toml::Value::String(item)) => match items.get(item) {
            Some(&v) => Ok(Value::Integer(v)),
            None => {
                let names: Vec<&str> = items.keys().map(String::as_str).collect();
                Err(Error::new(format!(
                    "{what}: {item:?} is not an item of {declared_type} (items: {})",
                    names.join(", ")
                )))
            }
        },
        (VarType::Boolean, toml::Value::Boolean(b)) => Ok(Value::Boolean(*b)),
        (VarType::String, toml::Value::String(s)) => Ok(Value::String(s.clone())),
        _ => wrong(&value),
    }
}

/// A TOML value as written in the scenario, for messages.
fn show(value: &toml::Value) -> String {
    match value {
        toml::Value::String(s) => format!("{s:?}"),
        toml::Value::Integer(i) => i.to_string(),
        toml::Value::Float(x) => x.to_string(),
        toml::Value::Boolean(b) => b.to_string(),
        toml::Value::Datetime(d) => d.to_string(),
        toml::Value::Array(items) => format!("[{}]", items.iter().map(show).collect::<Vec<_>>().join(", ")),
        toml::Value::Table(_) => "a table".to_string(),
    }
}

fn describe(var_type: &VarType) -> String {
    match var_type {
        VarType::Enumeration { declared_type, .. } => format!("an enumeration ({declared_type})"),
        other => format!("a {}", other.base().name()),
    }
}

/// Sources first: an instance with feedthrough comes after every instance that feeds it, so that
/// its outputs are read after all its inputs are set. A cycle among feedthrough instances is an
/// algebraic loop, which this master does not iterate: it is an error naming the instances.
fn exchange_order(instances: &[InstancePlan], connections: &[ScalarConnection]) -> Result<Vec<usize>, Error> {
    let n = instances.len();
    let mut feeds = vec![Vec::new(); n];
    let mut waiting = vec![0usize; n];
    for connection in connections {
        let (from, to) = (connection.from.instance, connection.to.instance);
        if instances[to].feedthrough && !feeds[from].contains(&to) {
            feeds[from].push(to);
            waiting[to] += 1;
        }
    }
    let mut order = Vec::with_capacity(n);
    let mut ready: Vec<usize> = (0..n).filter(|&i| waiting[i] == 0).collect();
    while let Some(next) = (!ready.is_empty()).then(|| ready.remove(0)) {
        order.push(next);
        for &to in &feeds[next] {
            waiting[to] -= 1;
            if waiting[to] == 0 {
                ready.push(to);
            }
        }
    }
    if order.len() < n {
        let stuck: Vec<&str> = (0..n).filter(|i| !order.contains(i)).map(|i| instances[i].name.as_str()).collect();
        return Err(Error::new(format!(
            "algebraic loop: the feedthrough instances {} feed one another; this master does not iterate loops",
            stuck.join(", ")
        )));
    }
    Ok(order)
}
