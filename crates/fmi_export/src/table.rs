//! The variable table of an FMU model: every variable with its attributes and an accessor into
//! the model. The C API get/set dispatch, both modelDescription.xml files, the instantiation
//! token, the FMU state serialization and the documentation page all come from it.
//!
//! Start values are read from a fresh model through the accessors, so the defaults live in one
//! place (the model's constructor). Arrays are flattened into scalars named `x[1]`, `x[2]`, ...
//! with consecutive value references, the same in FMI 2.0 and FMI 3.0; value references are
//! unique across all types.
#![forbid(unsafe_code)]

use crate::model::{FmuModel, ModelError};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Causality {
    Parameter,
    Input,
    Output,
    Independent,
    /// Model Exchange variables: continuous states, their derivatives, event indicators.
    Local,
}

impl Causality {
    pub fn as_str(self) -> &'static str {
        match self {
            Causality::Parameter => "parameter",
            Causality::Input => "input",
            Causality::Output => "output",
            Causality::Independent => "independent",
            Causality::Local => "local",
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Variability {
    Fixed,
    Discrete,
    Continuous,
}

impl Variability {
    pub fn as_str(self) -> &'static str {
        match self {
            Variability::Fixed => "fixed",
            Variability::Discrete => "discrete",
            Variability::Continuous => "continuous",
        }
    }
}

/// An enumeration type as it appears in TypeDefinitions: constant data, so that a model's
/// enumeration types can be plain statics that own no heap memory.
#[derive(Debug, PartialEq)]
pub struct EnumerationType {
    pub name: &'static str,
    pub description: &'static str,
    /// (value, name, description) of each item.
    pub items: &'static [(i64, &'static str, &'static str)],
}

/// The value type of a variable, with the attributes that belong to it.
#[derive(Clone, Copy, Debug)]
pub enum ValueType {
    /// FMI 2 Real, FMI 3 Float64.
    Float64 { unit: &'static str, min: Option<f64>, max: Option<f64> },
    /// FMI 2 Integer, FMI 3 Int32.
    Int32,
    Boolean,
    String,
    /// FMI 2 Integer-valued Enumeration, FMI 3 Int64-valued Enumeration.
    Enumeration(&'static EnumerationType),
}

/// Where a variable's value lives in the model.
pub enum Access<M> {
    Float(fn(&mut M) -> &mut [f64]),
    Int(fn(&mut M) -> &mut i64),
    Bool(fn(&mut M) -> &mut bool),
    Str(fn(&mut M) -> &mut String),
}

impl<M> Clone for Access<M> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<M> Copy for Access<M> {}

impl<M> std::fmt::Debug for Access<M> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Access::Float(_) => "Float",
            Access::Int(_) => "Int",
            Access::Bool(_) => "Bool",
            Access::Str(_) => "Str",
        })
    }
}

/// Which inputs an output depends on (for ModelStructure and fmi3GetVariableDependencies).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Dependencies {
    /// Not an output.
    None,
    /// Only the input variables and continuous states (Model Exchange's other knowns) with these
    /// base names.
    Inputs(&'static [&'static str]),
    /// Every input.
    AllInputs,
}

/// What a variable is to Model Exchange.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Role {
    /// Everything but the three below.
    Plain,
    /// A continuous state (causality local, initial exact): element i is state number
    /// `position + i` of the state vector, in table order.
    State,
    /// The derivative of the state variable whose first element has value reference `state`
    /// (element-wise): calculated by the model.
    Derivative { state: u32 },
    /// An event indicator: calculated by the model, continuous in time between events.
    EventIndicator,
}

impl Role {
    /// Derivatives and event indicators: computed by the model, never set nor stored.
    pub fn is_calculated(self) -> bool {
        matches!(self, Role::Derivative { .. } | Role::EventIndicator)
    }
}

/// One (possibly array-valued) variable of the interface: names, numbers and function pointers
/// only, so it is `Copy` and each scalar of a table carries its variable by value.
#[derive(Debug)]
pub struct Variable<M> {
    /// Base name; elements of arrays are named `name[i]`, i from 1.
    pub name: &'static str,
    /// Value reference of the first element; element i has `vr + i - 1`.
    pub vr: u32,
    /// Number of scalar elements (1 for scalars).
    pub size: usize,
    pub causality: Causality,
    pub variability: Variability,
    pub ty: ValueType,
    pub description: &'static str,
    pub access: Access<M>,
    pub dependencies: Dependencies,
    pub role: Role,
    /// A variable of the model's extension ([`crate::FmuModel::EXTENSION`]) alone: the model's
    /// own FMU leaves it out, the extension's FMU (the same binary) has it.
    pub in_extension: bool,
}

impl<M> Clone for Variable<M> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<M> Copy for Variable<M> {}

impl<M> Variable<M> {
    /// A Float64 variable; parameters are fixed, outputs continuous and dependent on every input.
    pub fn float(
        name: &'static str,
        vr: u32,
        size: usize,
        causality: Causality,
        unit: &'static str,
        description: &'static str,
        access: fn(&mut M) -> &mut [f64],
    ) -> Self {
        let (variability, dependencies) = match causality {
            Causality::Parameter => (Variability::Fixed, Dependencies::None),
            Causality::Output => (Variability::Continuous, Dependencies::AllInputs),
            _ => (Variability::Continuous, Dependencies::None),
        };
        Variable {
            name,
            vr,
            size,
            causality,
            variability,
            ty: ValueType::Float64 { unit, min: None, max: None },
            description,
            access: Access::Float(access),
            dependencies,
            role: Role::Plain,
            in_extension: false,
        }
    }

    /// A scalar Float64 parameter.
    pub fn parameter(name: &'static str, vr: u32, unit: &'static str, description: &'static str, access: fn(&mut M) -> &mut [f64]) -> Self {
        Self::float(name, vr, 1, Causality::Parameter, unit, description, access)
    }

    /// An enumeration parameter.
    pub fn enumeration(
        name: &'static str,
        vr: u32,
        ty: &'static EnumerationType,
        description: &'static str,
        access: fn(&mut M) -> &mut i64,
    ) -> Self {
        Variable {
            name,
            vr,
            size: 1,
            causality: Causality::Parameter,
            variability: Variability::Fixed,
            ty: ValueType::Enumeration(ty),
            description,
            access: Access::Int(access),
            dependencies: Dependencies::None,
            role: Role::Plain,
            in_extension: false,
        }
    }

    /// A Boolean or Int32 output, discrete, dependent on every input.
    pub fn discrete_output(name: &'static str, vr: u32, ty: ValueType, description: &'static str, access: Access<M>) -> Self {
        Variable {
            name,
            vr,
            size: 1,
            causality: Causality::Output,
            variability: Variability::Discrete,
            ty,
            description,
            access,
            dependencies: Dependencies::AllInputs,
            role: Role::Plain,
            in_extension: false,
        }
    }

    /// The independent variable `time` (value reference 0).
    pub fn time(access: fn(&mut M) -> &mut [f64]) -> Self {
        Variable {
            name: "time",
            vr: 0,
            size: 1,
            causality: Causality::Independent,
            variability: Variability::Continuous,
            ty: ValueType::Float64 { unit: "s", min: None, max: None },
            description: "Simulation time",
            access: Access::Float(access),
            dependencies: Dependencies::None,
            role: Role::Plain,
            in_extension: false,
        }
    }

    pub fn min(mut self, min: f64) -> Self {
        if let ValueType::Float64 { min: m, .. } = &mut self.ty {
            *m = Some(min);
        }
        self
    }

    pub fn max(mut self, max: f64) -> Self {
        if let ValueType::Float64 { max: m, .. } = &mut self.ty {
            *m = Some(max);
        }
        self
    }

    /// A variable that only the model's extension has ([`crate::FmuModel::EXTENSION`]): its
    /// model descriptions list it, the model's own leave it out, and an instance made from the
    /// model's own description does not know its value references.
    pub fn in_extension(mut self) -> Self {
        self.in_extension = true;
        self
    }

    /// An output that depends only on the named input variables (and continuous states).
    pub fn depends_on(mut self, inputs: &'static [&'static str]) -> Self {
        self.dependencies = Dependencies::Inputs(inputs);
        self
    }

    /// A continuous state of Model Exchange (causality local, initial exact, settable until
    /// initialisation ends and then through SetContinuousStates).
    pub fn state(name: &'static str, vr: u32, size: usize, unit: &'static str, description: &'static str, access: fn(&mut M) -> &mut [f64]) -> Self {
        let mut v = Self::float(name, vr, size, Causality::Local, unit, description, access);
        v.role = Role::State;
        v
    }

    /// The derivative of the state variable whose first element has value reference `state`.
    pub fn derivative(
        name: &'static str,
        vr: u32,
        size: usize,
        state: u32,
        unit: &'static str,
        description: &'static str,
        access: fn(&mut M) -> &mut [f64],
    ) -> Self {
        let mut v = Self::float(name, vr, size, Causality::Local, unit, description, access);
        v.role = Role::Derivative { state };
        v
    }

    /// A scalar event indicator of Model Exchange.
    pub fn event_indicator(name: &'static str, vr: u32, unit: &'static str, description: &'static str, access: fn(&mut M) -> &mut [f64]) -> Self {
        let mut v = Self::float(name, vr, 1, Causality::Local, unit, description, access);
        v.role = Role::EventIndicator;
        v
    }

    /// A Boolean parameter.
    pub fn boolean_parameter(name: &'static str, vr: u32, description: &'static str, access: fn(&mut M) -> &mut bool) -> Self {
        Self::fixed(name, vr, ValueType::Boolean, description, Access::Bool(access))
    }

    /// A scalar fixed parameter of type `ty`.
    fn fixed(name: &'static str, vr: u32, ty: ValueType, description: &'static str, access: Access<M>) -> Self {
        Variable {
            name,
            vr,
            size: 1,
            causality: Causality::Parameter,
            variability: Variability::Fixed,
            ty,
            description,
            access,
            dependencies: Dependencies::None,
            role: Role::Plain,
            in_extension: false,
        }
    }

    /// An Int32 parameter.
    pub fn int_parameter(name: &'static str, vr: u32, description: &'static str, access: fn(&mut M) -> &mut i64) -> Self {
        Self::fixed(name, vr, ValueType::Int32, description, Access::Int(access))
    }

    /// A String parameter.
    pub fn string_parameter(name: &'static str, vr: u32, description: &'static str, access: fn(&mut M) -> &mut String) -> Self {
        Self::fixed(name, vr, ValueType::String, description, Access::Str(access))
    }
}

/// One scalar of the flattened table.
#[derive(Debug)]
pub struct Scalar<M: 'static> {
    /// The variable the scalar belongs to (a copy: the table owns everything it describes).
    pub variable: Variable<M>,
    /// 0-based element within the variable.
    pub element: usize,
    pub vr: u32,
    /// `name` or `name[element + 1]`.
    pub name: String,
}

impl<M> Scalar<M> {
    pub fn causality(&self) -> Causality {
        self.variable.causality
    }
}

/// The whole table of one model, with its lookup index and instantiation token. It owns all
/// its memory: each FMU instance holds its own table, so that nothing outlives the instances
/// when an importer unloads the library (a process-wide table would be leaked by every dlclose).
pub struct Table<M: 'static> {
    variables: Vec<Variable<M>>,
    scalars: Vec<Scalar<M>>,
    /// Position in `scalars` by value reference.
    by_vr: Vec<Option<u32>>,
    /// The Float64 scalars by value reference, flat: what a get or set of many reals needs
    /// without following the scalar to its variable (see [`Table::get_floats`]).
    floats: Vec<FloatSlot<M>>,
    /// The Boolean and Int32/Enumeration scalars by value reference, flat (see
    /// [`Table::get_bool_once`]).
    flags: Vec<FlagSlot<M>>,
    /// By value reference: the position of the output scalar among the references of
    /// [`FmuModel::with_output_refs`], `NOT_FLAT` for any other (see [`Table::get_floats`]).
    flat_outputs: Vec<u32>,
    /// By value reference: the position of the input scalar among the references of
    /// [`FmuModel::with_input_refs`], `NOT_FLAT` for any other (see [`Table::set_floats`]).
    flat_inputs: Vec<u32>,
    /// By value reference: the position of the Boolean output scalar among the references of
    /// [`FmuModel::with_flag_refs`], `NOT_FLAT` for any other (see [`Table::get_bools`]).
    flat_flags: Vec<u32>,
    enumerations: Vec<&'static EnumerationType>,
    token: String,
    /// Every variable is known (a table for tools, or an instance of the extension's FMU);
    /// false once [`Table::accept_token`] took the model's own token.
    extension: bool,
}

/// No position among a model's flat references: larger than any slice of them.
const NOT_FLAT: u32 = u32::MAX;

/// A Float64 scalar's accessor, element and causality, or `None` for any other value reference.
struct FloatSlot<M> {
    access: Option<fn(&mut M) -> &mut [f64]>,
    element: u32,
    /// Index of the variable: consecutive scalars of one variable share its accessor's slice.
    variable: u32,
    causality: Causality,
    /// A derivative or event indicator: [`FmuModel::update_locals`] before it is read.
    calculated: bool,
}

/// A Boolean or integer scalar's accessor and causality, with the integer kinds it answers to;
/// `Access::Str` (never read from here) for any other value reference.
struct FlagSlot<M> {
    access: Access<M>,
    causality: Causality,
    /// Which [`IntKind`]s may read it (bits `1 << kind as u8`); 0 for Booleans.
    int_kinds: u8,
}

impl<M> Clone for FlagSlot<M> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<M> Copy for FlagSlot<M> {}

impl<M> Clone for FloatSlot<M> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<M> Copy for FloatSlot<M> {}

/// What the caller is allowed to set at this point of the FMU's life.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SetPhase {
    /// Before initialisation ends: parameters and inputs.
    Initializing,
    /// After initialisation: inputs only (every parameter is fixed).
    Running,
}

/// Why a get or set was refused. Messages name the variable and the value.
#[derive(Clone, Debug, PartialEq)]
pub enum VariableError {
    UnknownReference(u32),
    WrongType { name: String, declared: &'static str, requested: &'static str },
    NotSettable { name: String, why: &'static str },
    NotFinite { name: String, value: f64 },
    NotAnItem { name: String, value: i64, ty: &'static EnumerationType },
    Model(ModelError),
}

impl std::fmt::Display for VariableError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            VariableError::UnknownReference(vr) => write!(f, "unknown value reference {vr}"),
            VariableError::WrongType { name, declared, requested } => {
                write!(f, "variable {name} is of type {declared}, not {requested}")
            }
            VariableError::NotSettable { name, why } => write!(f, "variable {name} cannot be set: {why}"),
            VariableError::NotFinite { name, value } => write!(f, "variable {name} = {value}: values must be finite"),
            VariableError::NotAnItem { name, value, ty } => {
                let items: Vec<String> = ty.items.iter().map(|(item, item_name, _)| format!("{item} = {item_name}")).collect();
                write!(f, "variable {name} = {value}: not an item of enumeration {} ({})", ty.name, items.join(", "))
            }
            VariableError::Model(e) => write!(f, "{e}"),
        }
    }
}

impl ValueType {
    pub fn type_name(&self) -> &'static str {
        match self {
            ValueType::Float64 { .. } => "Float64",
            ValueType::Int32 => "Int32",
            ValueType::Boolean => "Boolean",
            ValueType::String => "String",
            ValueType::Enumeration(_) => "Enumeration",
        }
    }
}

/// The integer-like types an importer may request.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum IntKind {
    /// FMI 2 Integer: Int32 and Enumeration variables.
    Fmi2Integer,
    /// FMI 3 Int32.
    Int32,
    /// FMI 3 Int64: Enumeration variables.
    Int64,
}



fn wrong_type<M>(s: &Scalar<M>, requested: &'static str) -> VariableError {
    VariableError::WrongType { name: s.name.clone(), declared: s.variable.ty.type_name(), requested }
}

/// Brings the outputs up to date before an output is read (and the Model Exchange quantities
/// before a derivative or an event indicator is); true when it did.
fn prepare_get<M: FmuModel>(model: &mut M, s: &Scalar<M>) -> Result<bool, VariableError> {
    if s.variable.role.is_calculated() {
        model.update_locals().map_err(VariableError::Model)?;
        return Ok(true);
    }
    if s.variable.causality == Causality::Output {
        model.update_outputs().map_err(VariableError::Model)?;
        return Ok(true);
    }
    Ok(false)
}

fn check_settable<M>(s: &Scalar<M>, phase: SetPhase) -> Result<(), VariableError> {
    match (s.variable.causality, phase) {
        (Causality::Input, _) | (Causality::Parameter, SetPhase::Initializing) => Ok(()),
        (Causality::Parameter, SetPhase::Running) => {
            Err(VariableError::NotSettable { name: s.name.clone(), why: "it is a fixed parameter and initialisation has ended" })
        }
        (Causality::Output, _) => Err(VariableError::NotSettable { name: s.name.clone(), why: "it is an output" }),
        (Causality::Independent, _) => {
            Err(VariableError::NotSettable { name: s.name.clone(), why: "time is advanced by the step function" })
        }
        (Causality::Local, SetPhase::Initializing) if s.variable.role == Role::State => Ok(()),
        (Causality::Local, _) if s.variable.role == Role::State => Err(VariableError::NotSettable {
            name: s.name.clone(),
            why: "it is a continuous state and initialisation has ended (Model Exchange sets it with SetContinuousStates)",
        }),
        (Causality::Local, _) => Err(VariableError::NotSettable { name: s.name.clone(), why: "it is calculated by the model" }),
    }
}

fn changed<M: FmuModel>(model: &mut M, s: &Scalar<M>) {
    match s.variable.causality {
        Causality::Parameter => model.parameters_changed(),
        _ => model.inputs_changed(),
    }
}

fn int_matches(ty: &ValueType, kind: IntKind) -> bool {
    matches!(
        (ty, kind),
        (ValueType::Int32, IntKind::Fmi2Integer | IntKind::Int32) | (ValueType::Enumeration(_), IntKind::Fmi2Integer | IntKind::Int64)
    )
}

fn int_name(kind: IntKind) -> &'static str {
    match kind {
        IntKind::Fmi2Integer => "Integer",
        IntKind::Int32 => "Int32",
        IntKind::Int64 => "Int64",
    }
}


impl<M: FmuModel> Table<M> {
    fn lookup(&self, vr: u32) -> Result<&Scalar<M>, VariableError> {
        self.scalar(vr).ok_or(VariableError::UnknownReference(vr))
    }

    pub fn get_float(&self, model: &mut M, vr: u32) -> Result<f64, VariableError> {
        let s = self.lookup(vr)?;
        let Access::Float(access) = s.variable.access else { return Err(wrong_type(s, "Float64")) };
        prepare_get(model, s)?;
        Ok(access(model)[s.element])
    }

    pub fn set_float(&self, model: &mut M, vr: u32, value: f64, phase: SetPhase) -> Result<(), VariableError> {
        let s = self.lookup(vr)?;
        let Access::Float(access) = s.variable.access else { return Err(wrong_type(s, "Float64")) };
        check_settable(s, phase)?;
        if !value.is_finite() {
            return Err(VariableError::NotFinite { name: s.name.clone(), value });
        }
        let slot = &mut access(model)[s.element];
        if *slot != value {
            *slot = value;
            changed(model, s);
        }
        Ok(())
    }

    /// Reads the Float64 scalars `vrs` into `values` (pairwise): the per-scalar work is one flat
    /// lookup and a load (outputs the model offers through [`FmuModel::with_output_refs`]) or
    /// the accessor, and the outputs are brought up to date at most once per call (nothing can
    /// change them between two scalars of one get). The first refused scalar stops the call with
    /// its error, as [`Table::get_float`] would give it.
    pub fn get_floats(&self, model: &mut M, vrs: &[u32], values: &mut [f64]) -> Result<(), VariableError> {
        let n = vrs.len().min(values.len());
        let mut fresh = false;
        let mut fresh_locals = false;
        let mut i = 0;
        while i < n {
            if self.flat_outputs.get(vrs[i] as usize).is_some_and(|k| *k != NOT_FLAT) {
                if !fresh {
                    model.update_outputs().map_err(VariableError::Model)?;
                    fresh = true;
                }
                // This scalar and every one after it that the model offers: one index and one
                // load each.
                let start = i;
                model.with_output_refs(&mut |refs| i += read_flat(&self.flat_outputs, refs, &vrs[i..n], &mut values[i..n]));
                if i > start {
                    continue;
                }
                // A model that offers fewer references than when the table was built: the
                // accessor below.
            }
            let Some(FloatSlot { access: Some(access), variable, causality, calculated, .. }) = self.floats.get(vrs[i] as usize).copied() else {
                values[i] = self.get_float(model, vrs[i])?;
                i += 1;
                continue;
            };
            if !fresh && causality == Causality::Output {
                model.update_outputs().map_err(VariableError::Model)?;
                fresh = true;
            }
            if !fresh_locals && calculated {
                model.update_locals().map_err(VariableError::Model)?;
                fresh_locals = true;
            }
            // This scalar and the ones after it of the same variable read one slice.
            let slice = access(model);
            while i < n {
                match self.floats.get(vrs[i] as usize) {
                    Some(slot) if slot.variable == variable => values[i] = slice[slot.element as usize],
                    _ => break,
                }
                i += 1;
            }
        }
        Ok(())
    }

    /// Sets the Float64 scalars `vrs` to `values` (pairwise), with the checks of
    /// [`Table::set_float`]; the model hears of changed inputs and parameters once per call,
    /// also when a refused scalar stops the call after others were set. Finite inputs the model
    /// offers through [`FmuModel::with_input_refs`] are written through their references.
    pub fn set_floats(&self, model: &mut M, vrs: &[u32], values: &[f64], phase: SetPhase) -> Result<(), VariableError> {
        let n = vrs.len().min(values.len());
        let mut inputs = false;
        let mut result = Ok(());
        let mut i = 0;
        while i < n {
            if values[i].is_finite() && self.flat_inputs.get(vrs[i] as usize).is_some_and(|k| *k != NOT_FLAT) {
                // This scalar and every finite one after it that the model offers.
                let start = i;
                model.with_input_refs(&mut |refs| {
                    let (written, changed) = write_flat(&self.flat_inputs, refs, &vrs[i..n], &values[i..n]);
                    i += written;
                    inputs |= changed;
                });
                if i > start {
                    continue;
                }
            }
            let slot = self.floats.get(vrs[i] as usize).copied();
            let (Some(FloatSlot { access: Some(access), variable, causality: Causality::Input, .. }), true) = (slot, values[i].is_finite()) else {
                // Anything but a finite input: the scalar path, with its checks and messages (it
                // tells the model of a change itself).
                if let Err(e) = self.set_float(model, vrs[i], values[i], phase) {
                    result = Err(e);
                    break;
                }
                i += 1;
                continue;
            };
            // This scalar and the finite ones after it of the same input write one slice.
            let slice = access(model);
            while i < n {
                match self.floats.get(vrs[i] as usize) {
                    Some(slot) if slot.variable == variable && values[i].is_finite() => {
                        let current = &mut slice[slot.element as usize];
                        if *current != values[i] {
                            *current = values[i];
                            inputs = true;
                        }
                    }
                    _ => break,
                }
                i += 1;
            }
        }
        if inputs {
            model.inputs_changed();
        }
        result
    }

    pub fn get_int(&self, model: &mut M, vr: u32, kind: IntKind) -> Result<i64, VariableError> {
        self.get_int_once(model, vr, kind, &mut false)
    }

    /// [`Table::get_int`], bringing the outputs up to date only while `*fresh` is false (then
    /// setting it): a get of many scalars updates them once.
    pub fn get_int_once(&self, model: &mut M, vr: u32, kind: IntKind, fresh: &mut bool) -> Result<i64, VariableError> {
        if let Some(&FlagSlot { access: Access::Int(access), causality, int_kinds }) = self.flags.get(vr as usize) {
            if int_kinds & (1 << kind as u8) != 0 {
                if !*fresh && causality == Causality::Output {
                    model.update_outputs().map_err(VariableError::Model)?;
                    *fresh = true;
                }
                return Ok(*access(model));
            }
        }
        let s = self.lookup(vr)?;
        let (Access::Int(access), true) = (s.variable.access, int_matches(&s.variable.ty, kind)) else {
            return Err(wrong_type(s, int_name(kind)));
        };
        if !*fresh {
            *fresh = prepare_get(model, s)?;
        }
        Ok(*access(model))
    }

    pub fn set_int(&self, model: &mut M, vr: u32, value: i64, kind: IntKind, phase: SetPhase) -> Result<(), VariableError> {
        let s = self.lookup(vr)?;
        let (Access::Int(access), true) = (s.variable.access, int_matches(&s.variable.ty, kind)) else {
            return Err(wrong_type(s, int_name(kind)));
        };
        check_settable(s, phase)?;
        if let ValueType::Enumeration(ty) = s.variable.ty {
            if !ty.items.iter().any(|(item, _, _)| *item == value) {
                return Err(VariableError::NotAnItem { name: s.name.clone(), value, ty });
            }
        }
        let slot = access(model);
        if *slot != value {
            *slot = value;
            changed(model, s);
        }
        Ok(())
    }

    pub fn get_bool(&self, model: &mut M, vr: u32) -> Result<bool, VariableError> {
        self.get_bool_once(model, vr, &mut false)
    }

    /// [`Table::get_bool`], bringing the outputs up to date only while `*fresh` is false (see
    /// [`Table::get_int_once`]).
    pub fn get_bool_once(&self, model: &mut M, vr: u32, fresh: &mut bool) -> Result<bool, VariableError> {
        if let Some(&FlagSlot { access: Access::Bool(access), causality, .. }) = self.flags.get(vr as usize) {
            if !*fresh && causality == Causality::Output {
                model.update_outputs().map_err(VariableError::Model)?;
                *fresh = true;
            }
            return Ok(*access(model));
        }
        let s = self.lookup(vr)?;
        let Access::Bool(access) = s.variable.access else { return Err(wrong_type(s, "Boolean")) };
        if !*fresh {
            *fresh = prepare_get(model, s)?;
        }
        Ok(*access(model))
    }

    /// Reads the Boolean scalars `vrs` into `values` (pairwise, through `convert`), bringing
    /// the outputs up to date at most once: the Boolean outputs the model offers through
    /// [`FmuModel::with_flag_refs`] with one index and one load each, the others as
    /// [`Table::get_bool_once`]. The first refused scalar stops the call with its error.
    pub fn get_bools<T>(&self, model: &mut M, vrs: &[u32], values: &mut [T], convert: impl Fn(bool) -> T) -> Result<(), VariableError> {
        let n = vrs.len().min(values.len());
        let mut fresh = false;
        let mut i = 0;
        while i < n {
            if self.flat_flags.get(vrs[i] as usize).is_some_and(|k| *k != NOT_FLAT) {
                if !fresh {
                    model.update_outputs().map_err(VariableError::Model)?;
                    fresh = true;
                }
                let start = i;
                model.with_flag_refs(&mut |refs| i += read_flat_flags(&self.flat_flags, refs, &vrs[i..n], &mut values[i..n], &convert));
                if i > start {
                    continue;
                }
            }
            values[i] = convert(self.get_bool_once(model, vrs[i], &mut fresh)?);
            i += 1;
        }
        Ok(())
    }

    pub fn set_bool(&self, model: &mut M, vr: u32, value: bool, phase: SetPhase) -> Result<(), VariableError> {
        let s = self.lookup(vr)?;
        let Access::Bool(access) = s.variable.access else { return Err(wrong_type(s, "Boolean")) };
        check_settable(s, phase)?;
        let slot = access(model);
        if *slot != value {
            *slot = value;
            changed(model, s);
        }
        Ok(())
    }

    pub fn get_string<'m>(&self, model: &'m mut M, vr: u32) -> Result<&'m str, VariableError> {
        let s = self.lookup(vr)?;
        let Access::Str(access) = s.variable.access else { return Err(wrong_type(s, "String")) };
        prepare_get(model, s)?;
        Ok(access(model).as_str())
    }

    pub fn set_string(&self, model: &mut M, vr: u32, value: &str, phase: SetPhase) -> Result<(), VariableError> {
        let s = self.lookup(vr)?;
        let Access::Str(access) = s.variable.access else { return Err(wrong_type(s, "String")) };
        check_settable(s, phase)?;
        let slot = access(model);
        if slot != value {
            value.clone_into(slot);
            changed(model, s);
        }
        Ok(())
    }
}

/// Copies the scalars `vrs` from `refs` into `values` (pairwise) while each has a position in
/// `flat` (by value reference) within `refs`; the count copied. Its own function, so that the
/// loop works on plain slices, in registers, not through the captures of a closure.
fn read_flat(flat: &[u32], refs: &[&f64], vrs: &[u32], values: &mut [f64]) -> usize {
    let mut copied = 0;
    for (vr, value) in vrs.iter().zip(values.iter_mut()) {
        let Some(r) = flat.get(*vr as usize).and_then(|k| refs.get(*k as usize)) else { break };
        *value = **r;
        copied += 1;
    }
    copied
}

/// [`read_flat`] for Boolean outputs, converted.
fn read_flat_flags<T>(flat: &[u32], refs: &[&bool], vrs: &[u32], values: &mut [T], convert: &impl Fn(bool) -> T) -> usize {
    let mut copied = 0;
    for (vr, value) in vrs.iter().zip(values.iter_mut()) {
        let Some(r) = flat.get(*vr as usize).and_then(|k| refs.get(*k as usize)) else { break };
        *value = convert(**r);
        copied += 1;
    }
    copied
}

/// Writes the finite `values` to the scalars `vrs` (pairwise) through `refs` while each has a
/// position in `flat` within `refs`: the count written and whether any value changed.
fn write_flat(flat: &[u32], refs: &mut [&mut f64], vrs: &[u32], values: &[f64]) -> (usize, bool) {
    let mut written = 0;
    let mut changed = false;
    for (vr, value) in vrs.iter().zip(values) {
        let Some(r) = flat.get(*vr as usize).and_then(|k| refs.get_mut(*k as usize)) else { break };
        if !value.is_finite() {
            break;
        }
        if **r != *value {
            **r = *value;
            changed = true;
        }
        written += 1;
    }
    (written, changed)
}

/// How many value references have a position in `flat`.
fn flat_count(flat: &[u32]) -> usize {
    flat.iter().filter(|k| **k != NOT_FLAT).count()
}

/// Where each output and input scalar is among the references a fresh model gives through
/// [`FmuModel::with_output_refs`], [`FmuModel::with_input_refs`] and [`FmuModel::with_flag_refs`],
/// by value reference: the reference whose address is the memory its accessor gives (Float64
/// outputs, Float64 inputs, Boolean outputs). Each list is as long as the largest value
/// reference it places, plus one.
fn flat_positions<M: FmuModel>(scalars: &[Scalar<M>]) -> (Vec<u32>, Vec<u32>, Vec<u32>) {
    let mut model = M::new(None);
    let mut outputs: Vec<usize> = Vec::new();
    model.with_output_refs(&mut |refs| outputs.extend(refs.iter().map(|r| std::ptr::from_ref::<f64>(*r) as usize)));
    let mut inputs: Vec<usize> = Vec::new();
    model.with_input_refs(&mut |refs| inputs.extend(refs.iter().map(|r| std::ptr::from_ref::<f64>(&**r) as usize)));
    let mut flags: Vec<usize> = Vec::new();
    model.with_flag_refs(&mut |refs| flags.extend(refs.iter().map(|r| std::ptr::from_ref::<bool>(*r) as usize)));
    let (mut flat_outputs, mut flat_inputs, mut flat_flags) = (Vec::new(), Vec::new(), Vec::new());
    for s in scalars {
        if s.variable.role.is_calculated() {
            continue;
        }
        let (addresses, flat, address) = match (s.variable.access, s.variable.causality) {
            (Access::Float(access), Causality::Output) => (&outputs, &mut flat_outputs, std::ptr::from_ref::<f64>(&access(&mut model)[s.element]) as usize),
            (Access::Float(access), Causality::Input) => (&inputs, &mut flat_inputs, std::ptr::from_ref::<f64>(&access(&mut model)[s.element]) as usize),
            (Access::Bool(access), Causality::Output) => (&flags, &mut flat_flags, std::ptr::from_ref::<bool>(access(&mut model)) as usize),
            _ => continue,
        };
        if let Some(position) = addresses.iter().position(|a| *a == address) {
            if flat.len() <= s.vr as usize {
                flat.resize(s.vr as usize + 1, NOT_FLAT);
            }
            flat[s.vr as usize] = position as u32;
        }
    }
    (flat_outputs, flat_inputs, flat_flags)
}

/// The start value of `s` in `model` (a fresh one), as the model description writes it.
fn start_value_in<M: FmuModel>(model: &mut M, s: &Scalar<M>) -> Option<String> {
    if matches!(s.variable.causality, Causality::Output | Causality::Independent) || s.variable.role.is_calculated() {
        return None;
    }
    Some(match s.variable.access {
        Access::Float(access) => format_real(access(model)[s.element]),
        Access::Int(access) => access(model).to_string(),
        Access::Bool(access) => access(model).to_string(),
        Access::Str(access) => access(model).clone(),
    })
}

impl<M: FmuModel> Table<M> {
    /// Builds the table of a model from its variables and enumeration types.
    ///
    /// Panics when a value reference is used twice: a table with that mistake cannot describe
    /// any FMU.
    pub fn new(variables: Vec<Variable<M>>, enumerations: Vec<&'static EnumerationType>) -> Table<M> {
        let mut scalars = Vec::new();
        for &variable in &variables {
            for element in 0..variable.size {
                let name = match (variable.size, variable.name.strip_suffix(')')) {
                    (1, _) => variable.name.to_string(),
                    // The derivative of an array is the array of derivatives: `der(x[1])`.
                    (_, Some(inner)) if inner.starts_with("der(") => format!("{inner}[{}])", element + 1),
                    _ => format!("{}[{}]", variable.name, element + 1),
                };
                scalars.push(Scalar { variable, element, vr: variable.vr + element as u32, name });
            }
        }
        let max_vr = scalars.iter().map(|s| s.vr).max().unwrap_or(0) as usize;
        let mut by_vr = vec![None; max_vr + 1];
        for (i, s) in scalars.iter().enumerate() {
            assert!(by_vr[s.vr as usize].is_none(), "value reference {} is used twice ({})", s.vr, s.name);
            by_vr[s.vr as usize] = Some(i as u32);
        }
        let none = FloatSlot { access: None, element: 0, variable: u32::MAX, causality: Causality::Independent, calculated: false };
        let mut floats = vec![none; max_vr + 1];
        for s in &scalars {
            if let Access::Float(access) = s.variable.access {
                let variable = variables.iter().position(|v| v.vr == s.variable.vr).unwrap_or(usize::MAX) as u32;
                floats[s.vr as usize] = FloatSlot {
                    access: Some(access),
                    element: s.element as u32,
                    variable,
                    causality: s.variable.causality,
                    calculated: s.variable.role.is_calculated(),
                };
            }
        }
        let no_flag = FlagSlot { access: Access::Str(|_| unreachable!("never read")), causality: Causality::Independent, int_kinds: 0 };
        let mut flags = vec![no_flag; max_vr + 1];
        for s in &scalars {
            if let Access::Bool(_) | Access::Int(_) = s.variable.access {
                let kinds = [IntKind::Fmi2Integer, IntKind::Int32, IntKind::Int64];
                let int_kinds = kinds.iter().filter(|&&k| int_matches(&s.variable.ty, k)).fold(0u8, |bits, &k| bits | 1 << k as u8);
                flags[s.vr as usize] = FlagSlot { access: s.variable.access, causality: s.variable.causality, int_kinds };
            }
        }
        let (flat_outputs, flat_inputs, flat_flags) = flat_positions(&scalars);
        let mut table =
            Table { variables, scalars, by_vr, floats, flags, flat_outputs, flat_inputs, flat_flags, enumerations, token: String::new(), extension: true };
        table.token = table.compute_token(false);
        table
    }

    /// Every variable, in declaration order.
    pub fn variables(&self) -> &[Variable<M>] {
        &self.variables
    }

    /// Every scalar of the flattened table, in declaration order.
    pub fn scalars(&self) -> &[Scalar<M>] {
        &self.scalars
    }

    /// The scalar with this value reference.
    pub fn scalar(&self, vr: u32) -> Option<&Scalar<M>> {
        let position = (*self.by_vr.get(vr as usize)?)?;
        Some(&self.scalars[position as usize])
    }

    /// The scalar with this name.
    pub fn by_name(&self, name: &str) -> Option<&Scalar<M>> {
        self.scalars.iter().find(|s| s.name == name)
    }

    /// How many output and input scalars the fast paths of [`Table::get_floats`] and
    /// [`Table::set_floats`] reach through [`FmuModel::with_output_refs`] and
    /// [`FmuModel::with_input_refs`].
    pub fn flat_scalars(&self) -> (usize, usize) {
        (flat_count(&self.flat_outputs), flat_count(&self.flat_inputs))
    }

    /// How many Boolean output scalars [`Table::get_bools`] reaches through
    /// [`FmuModel::with_flag_refs`].
    pub fn flat_flags(&self) -> usize {
        flat_count(&self.flat_flags)
    }

    /// Every enumeration type, in the order the model descriptions declare them.
    pub fn enumerations(&self) -> &[&'static EnumerationType] {
        &self.enumerations
    }

    /// The input scalars an output scalar depends on, in table order; empty for every other
    /// scalar. Both the ModelStructure of the model descriptions and fmi3GetVariableDependencies
    /// read it.
    pub fn dependencies_of(&self, s: &Scalar<M>) -> Vec<&Scalar<M>> {
        // An instance of the model's own FMU does not know its extension's inputs.
        let known = |k: &&Scalar<M>| self.extension || !k.variable.in_extension;
        match s.variable.dependencies {
            Dependencies::None => Vec::new(),
            // The continuous states are knowns too (Model Exchange): what follows from the state
            // of the contact depends on it.
            Dependencies::AllInputs => {
                self.scalars.iter().filter(|k| k.causality() == Causality::Input || k.variable.role == Role::State).filter(known).collect()
            }
            Dependencies::Inputs(names) => self
                .scalars
                .iter()
                .filter(|k| (k.causality() == Causality::Input || k.variable.role == Role::State) && names.contains(&k.variable.name))
                .filter(known)
                .collect(),
        }
    }

    /// Checks every Float64 parameter against its declared min and max (the interval rules of
    /// the table); the model checks the rules that are not plain intervals.
    pub fn check_ranges(&self, model: &mut M) -> Result<(), String> {
        for s in &self.scalars {
            let (Causality::Parameter, ValueType::Float64 { min, max, .. }, Access::Float(access)) =
                (s.variable.causality, s.variable.ty, s.variable.access)
            else {
                continue;
            };
            let value = access(model)[s.element];
            if let Some(min) = min.filter(|min| value < *min) {
                return Err(format!("{} = {value}: must be >= {min}", s.name));
            }
            if let Some(max) = max.filter(|max| value > *max) {
                return Err(format!("{} = {value}: must be <= {max}", s.name));
            }
        }
        Ok(())
    }

    /// A start value as text, read from a fresh model; `None` for outputs and time.
    pub fn start_value(&self, s: &Scalar<M>) -> Option<String> {
        start_value_in(&mut M::new(None), s)
    }

    /// A canonical text of the whole interface: every attribute of every scalar and every item.
    /// Each instance builds its table, so this reads the start values from one fresh model.
    fn interface_text(&self, extension: bool) -> String {
        use std::fmt::Write;
        let mut model = M::new(None);
        let name = match (extension, M::EXTENSION) {
            (true, Some(e)) => e.name,
            _ => M::NAME,
        };
        let mut text = format!("{name}\n");
        for s in self.interface_scalars(extension) {
            let v = s.variable;
            let _ = writeln!(
                text,
                "{}|{}|{}|{}|{:?}|{:?}|{}|{:?}{}",
                s.name,
                s.vr,
                v.causality.as_str(),
                v.variability.as_str(),
                v.ty,
                start_value_in(&mut model, s),
                v.description,
                v.dependencies,
                // Plain variables add nothing, so that a co-simulation model's token stays.
                if v.role == Role::Plain { String::new() } else { format!("|{:?}", v.role) }
            );
        }
        for ty in &self.enumerations {
            for (value, name, _) in ty.items {
                let _ = writeln!(text, "{}|{value}|{name}", ty.name);
            }
        }
        text
    }

    fn compute_token(&self, extension: bool) -> String {
        let text = self.interface_text(extension);
        // The two hashes in one pass: two independent chains of multiplications run side by
        // side (every instance computes its table's token, so this is on Instantiate's path).
        let (hi, lo) = text.as_bytes().iter().fold((FNV_OFFSET, 0x8422_2325_cbf2_9ce4), |(hi, lo), b| {
            ((hi ^ u64::from(*b)).wrapping_mul(FNV_PRIME), (lo ^ u64::from(*b)).wrapping_mul(FNV_PRIME))
        });
        format!("{{{:08x}-{:04x}-{:04x}-{:04x}-{:012x}}}", hi >> 32, (hi >> 16) & 0xffff, hi & 0xffff, lo >> 48, lo & 0xffff_ffff_ffff)
    }

    /// The GUID (FMI 2) and instantiationToken (FMI 3): a 128-bit hash of the interface, so that
    /// it changes whenever the interface changes. This is the model's own FMU's, without the
    /// variables of its extension ([`Table::extension_token`]).
    pub fn instantiation_token(&self) -> &str {
        &self.token
    }

    /// The table has variables that only the model's extension has ([`Variable::in_extension`]).
    pub fn has_extension(&self) -> bool {
        M::EXTENSION.is_some() && self.scalars.iter().any(|s| s.variable.in_extension)
    }

    /// The token of the extension's FMU (every variable, the extension's name), when the model
    /// has an extension.
    pub fn extension_token(&self) -> Option<String> {
        self.has_extension().then(|| self.compute_token(true))
    }

    /// False when an instance was made from the model's own model description (its extension's
    /// variables unknown), true otherwise.
    pub fn extension(&self) -> bool {
        self.extension
    }

    /// The scalars a model description lists: every one for the extension's FMU, those not
    /// [`Variable::in_extension`] for the model's own.
    pub fn interface_scalars(&self, extension: bool) -> impl Iterator<Item = &Scalar<M>> {
        self.scalars.iter().filter(move |s| extension || !s.variable.in_extension)
    }

    /// Checks the token an importer passes to Instantiate (`what`: "fmuGUID" or
    /// "instantiationToken"): the model's own token, and then the extension's variables are
    /// unknown to this table (their value references refused as any unknown one), or the
    /// extension's, and then every variable is known. Ok(true) for the extension.
    pub fn accept_token(&mut self, token: &str, what: &str) -> Result<bool, String> {
        if token == self.token {
            self.hide_extension();
            self.extension = false;
            return Ok(false);
        }
        if self.extension_token().is_some_and(|t| t == token) {
            return Ok(true);
        }
        let binary = if what == "fmuGUID" { "GUID" } else { "token" };
        let mut message = format!(
            "{what} \"{token}\" does not match this binary's {binary} \"{}\" (modelDescription.xml and binary are from different builds)",
            self.token
        );
        if let (Some(e), Some(extension)) = (M::EXTENSION, self.extension_token()) {
            message = format!("{message} nor that of {} \"{extension}\"", e.name);
        }
        Err(message)
    }

    /// Makes the extension's scalars unknown: no lookup by value reference finds them.
    fn hide_extension(&mut self) {
        let hidden: Vec<usize> = self.scalars.iter().filter(|s| s.variable.in_extension).map(|s| s.vr as usize).collect();
        for vr in hidden {
            self.by_vr[vr] = None;
            self.floats[vr].access = None;
            self.floats[vr].causality = Causality::Independent;
            self.flags[vr].causality = Causality::Independent;
            self.flags[vr].access = Access::Str(|_| unreachable!("never read"));
            self.flags[vr].int_kinds = 0;
            for flat in [&mut self.flat_outputs, &mut self.flat_inputs, &mut self.flat_flags] {
                if let Some(position) = flat.get_mut(vr) {
                    *position = NOT_FLAT;
                }
            }
        }
    }

    /// Serializes the parameters, inputs, time and internal state of `model`: magic, token hash,
    /// the values in table order (outputs are recomputed), the model's internal state, and an
    /// FNV-1a checksum of everything before it.
    pub fn serialize(&self, model: &mut M) -> Vec<u8> {
        let mut out = Vec::with_capacity(2048);
        out.extend_from_slice(STATE_MAGIC);
        out.extend_from_slice(&fnv1a(FNV_OFFSET, self.token.as_bytes()).to_le_bytes());
        for s in &self.scalars {
            if !is_stored(s) {
                continue;
            }
            match s.variable.access {
                Access::Float(access) => out.extend_from_slice(&access(model)[s.element].to_le_bytes()),
                Access::Int(access) => out.extend_from_slice(&access(model).to_le_bytes()),
                Access::Bool(access) => out.push(u8::from(*access(model))),
                Access::Str(access) => {
                    let text = access(model);
                    out.extend_from_slice(&(text.len() as u64).to_le_bytes());
                    out.extend_from_slice(text.as_bytes());
                }
            }
        }
        model.write_internal_state(&mut out);
        let checksum = fnv1a(FNV_OFFSET, &out);
        out.extend_from_slice(&checksum.to_le_bytes());
        out
    }

    /// Rebuilds a model from [`Table::serialize`]d bytes; any damage is an error and nothing is
    /// made.
    pub fn deserialize(&self, bytes: &[u8]) -> Result<M, String> {
        if bytes.len() < STATE_MAGIC.len() + 16 || &bytes[..STATE_MAGIC.len()] != STATE_MAGIC {
            return Err(format!("these bytes are not a serialized {} FMU state", M::NAME));
        }
        let (body, checksum) = bytes.split_at(bytes.len() - 8);
        if fnv1a(FNV_OFFSET, body).to_le_bytes() != checksum {
            return Err("the serialized FMU state is damaged (checksum mismatch)".to_string());
        }
        let mut reader = Reader { bytes: &body[STATE_MAGIC.len()..] };
        if reader.u64()? != fnv1a(FNV_OFFSET, self.token.as_bytes()) {
            return Err("the serialized FMU state belongs to a different version of this FMU".to_string());
        }
        let mut model = M::new(None);
        model.set_extension(self.extension);
        for s in &self.scalars {
            if !is_stored(s) {
                continue;
            }
            // The checksum stops damage, not bytes written with a valid checksum: every value
            // must also be one a set would have accepted (finite, an enumeration item).
            match s.variable.access {
                Access::Float(access) => {
                    let value = f64::from_bits(reader.u64()?);
                    if !value.is_finite() {
                        return Err(format!("the serialized FMU state holds {} = {value}, which is not finite", s.name));
                    }
                    access(&mut model)[s.element] = value;
                }
                Access::Int(access) => {
                    let value = reader.u64()? as i64;
                    if let ValueType::Enumeration(ty) = s.variable.ty {
                        if !ty.items.iter().any(|(item, _, _)| *item == value) {
                            return Err(format!("the serialized FMU state holds {} = {value}, not an item of {}", s.name, ty.name));
                        }
                    }
                    *access(&mut model) = value;
                }
                Access::Bool(access) => *access(&mut model) = reader.take(1)?[0] != 0,
                Access::Str(access) => {
                    let len = usize::try_from(reader.u64()?).map_err(|_| "string length out of range".to_string())?;
                    let text = std::str::from_utf8(reader.take(len)?).map_err(|_| format!("{} is not UTF-8", s.name))?;
                    *access(&mut model) = text.to_string();
                }
            }
        }
        model.read_internal_state(&mut reader)?;
        if !reader.bytes.is_empty() {
            return Err("the serialized FMU state has trailing bytes".to_string());
        }
        model.parameters_changed();
        Ok(model)
    }
}

/// Whether a serialized FMU state holds the scalar: everything but what the model computes
/// (outputs, derivatives, event indicators).
fn is_stored<M>(s: &Scalar<M>) -> bool {
    s.variable.causality != Causality::Output && !s.variable.role.is_calculated()
}

/// Shortest text that reads back to the same f64.
pub fn format_real(x: f64) -> String {
    let text = format!("{x:?}");
    text.strip_suffix(".0").map(str::to_string).unwrap_or(text)
}

const FNV_OFFSET: u64 = 0xcbf2_9ce4_8422_2325;
const FNV_PRIME: u64 = 0x0000_0100_0000_01b3;

/// FNV-1a 64-bit over `bytes`, starting from `seed`.
fn fnv1a(seed: u64, bytes: &[u8]) -> u64 {
    bytes.iter().fold(seed, |h, b| (h ^ u64::from(*b)).wrapping_mul(FNV_PRIME))
}

const STATE_MAGIC: &[u8; 8] = b"FMUSTAT1";

/// Reads a serialized FMU state; a model reads its internal state from it too.
pub struct Reader<'a> {
    bytes: &'a [u8],
}

impl<'a> Reader<'a> {
    /// A reader of `bytes` from their start.
    pub fn new(bytes: &'a [u8]) -> Reader<'a> {
        Reader { bytes }
    }

    pub fn take(&mut self, n: usize) -> Result<&'a [u8], String> {
        if self.bytes.len() < n {
            return Err("the serialized FMU state is truncated".to_string());
        }
        let (head, tail) = self.bytes.split_at(n);
        self.bytes = tail;
        Ok(head)
    }

    pub fn u64(&mut self) -> Result<u64, String> {
        Ok(u64::from_le_bytes(self.take(8)?.try_into().expect("8 bytes")))
    }

    pub fn f64(&mut self) -> Result<f64, String> {
        Ok(f64::from_bits(self.u64()?))
    }

    /// Bytes not read yet.
    pub fn remaining(&self) -> usize {
        self.bytes.len()
    }
}

#[cfg(test)]
mod tests {
    use std::path::{Path, PathBuf};

    use super::*;

    /// Arrays next to scalars: input u[4] (value references 1-4), outputs y[3] = 2 u[1..3]
    /// (10-12) and z = u[4] (13), a Boolean output (20) and a parameter (30). With `FLAT` it
    /// offers some outputs (y[1], y[3], z) and inputs (u[3], u[1], u[2]) through references,
    /// next to references that are no output or input scalar and must go unused.
    #[derive(Clone, Debug, Default)]
    struct Generic<const FLAT: bool> {
        time: f64,
        u: [f64; 4],
        y: [f64; 3],
        z: f64,
        flag: bool,
        gain: f64,
        updates: u32,
        changes: u32,
    }

    type Arrays = Generic<false>;
    type FlatArrays = Generic<true>;

    impl<const FLAT: bool> FmuModel for Generic<FLAT> {
        const NAME: &'static str = "Arrays";
        const DESCRIPTION: &'static str = "arrays";
        const DEFAULT_EXPERIMENT: (f64, f64, f64) = (0.0, 1.0, 0.1);

        fn build_table() -> Table<Self> {
            Table::new(
                vec![
                    Variable::time(|m: &mut Self| std::slice::from_mut(&mut m.time)),
                    Variable::float("u", 1, 4, Causality::Input, "1", "input", |m| &mut m.u),
                    Variable::float("y", 10, 3, Causality::Output, "1", "output", |m| &mut m.y),
                    Variable::float("z", 13, 1, Causality::Output, "1", "output", |m| std::slice::from_mut(&mut m.z)),
                    Variable::discrete_output("flag", 20, ValueType::Boolean, "flag", Access::Bool(|m| &mut m.flag)),
                    Variable::parameter("gain", 30, "1", "gain", |m| std::slice::from_mut(&mut m.gain)),
                ],
                vec![],
            )
        }
        fn table() -> &'static Table<Self> {
            unreachable!("the tests build their own table")
        }
        fn new(_: Option<PathBuf>) -> Self {
            Generic { gain: 2.0, ..Default::default() }
        }
        fn resources(&self) -> Option<&Path> {
            None
        }
        fn set_resources(&mut self, _: Option<PathBuf>) {}
        fn time(&self) -> f64 {
            self.time
        }
        fn set_time(&mut self, time: f64) {
            self.time = time;
        }
        fn inputs_changed(&mut self) {
            self.changes += 1;
        }
        fn parameters_changed(&mut self) {}
        fn initialize(&mut self) -> Result<(), String> {
            Ok(())
        }
        fn update_outputs(&mut self) -> Result<(), ModelError> {
            self.updates += 1;
            for (y, u) in self.y.iter_mut().zip(self.u) {
                *y = self.gain * u;
            }
            self.z = self.u[3];
            self.flag = self.z > 0.0;
            Ok(())
        }
        fn do_step(&mut self, step: f64) -> Result<(), ModelError> {
            self.time += step;
            Ok(())
        }
        fn take_warnings(&mut self) -> Vec<String> {
            Vec::new()
        }
        fn with_output_refs(&self, f: &mut dyn FnMut(&[&f64])) {
            if FLAT {
                // The parameter and an input offered as outputs: neither may be read as one.
                f(&[&self.gain, &self.z, &self.y[2], &self.u[0], &self.y[0]]);
            } else {
                f(&[]);
            }
        }
        fn with_flag_refs(&self, f: &mut dyn FnMut(&[&bool])) {
            if FLAT {
                f(&[&self.flag]);
            } else {
                f(&[]);
            }
        }
        fn with_input_refs(&mut self, f: &mut dyn FnMut(&mut [&mut f64])) {
            if FLAT {
                // The parameter and an output offered as inputs: neither may be set as one.
                let [u0, u1, u2, _] = &mut self.u;
                f(&mut [&mut self.gain, u2, &mut self.y[0], u0, u1]);
            } else {
                f(&mut []);
            }
        }
    }

    /// Value reference lists with runs, gaps, reversals, repeats, other types and unknown ones.
    const LISTS: [&[u32]; 9] = [
        &[10, 11, 12, 13],
        &[12, 11, 10],
        &[10, 12, 13, 11, 11],
        &[0, 1, 2, 3, 4, 10, 11, 12, 13, 30],
        &[11, 12, 13, 10],
        &[4, 3, 2, 1],
        &[1, 2, 3, 4, 10, 11],
        &[10, 11, 20, 12],
        &[12, 13, 99, 10],
    ];

    #[test]
    fn get_floats_reads_what_scalar_gets_read_and_updates_once() {
        gets_match_scalar_gets::<false>();
        gets_match_scalar_gets::<true>();
    }

    /// [`Table::get_floats`] of `Generic<FLAT>` against scalar gets of the model without
    /// references.
    fn gets_match_scalar_gets<const FLAT: bool>() {
        let table = Generic::<FLAT>::build_table();
        let scalar_table = Arrays::build_table();
        for vrs in LISTS {
            let mut model = Generic::<FLAT>::new(None);
            model.u = [1.0, -2.0, 3.0, 4.5];
            let mut batched = vec![f64::NAN; vrs.len()];
            let result = table.get_floats(&mut model, vrs, &mut batched);
            assert!(model.updates <= 1, "{vrs:?}: {} updates", model.updates);
            let mut reference = Arrays::new(None);
            reference.u = model.u;
            let mut expected = vec![f64::NAN; vrs.len()];
            let mut first_error = None;
            for (i, &vr) in vrs.iter().enumerate() {
                match scalar_table.get_float(&mut reference, vr) {
                    Ok(v) => expected[i] = v,
                    Err(e) => {
                        first_error = Some(e);
                        break;
                    }
                }
            }
            assert_eq!(result.err(), first_error, "{vrs:?}");
            let compared = batched.iter().zip(&expected).take_while(|(_, e)| !e.is_nan());
            for (b, e) in compared {
                assert_eq!(b.to_bits(), e.to_bits(), "{vrs:?}");
            }
        }
    }

    #[test]
    fn set_floats_writes_what_scalar_sets_write_and_stops_at_the_first_refusal() {
        sets_match_scalar_sets::<false>();
        sets_match_scalar_sets::<true>();
    }

    /// [`Table::set_floats`] of `Generic<FLAT>` against scalar sets of the model without
    /// references: runs, gaps, repeats, a parameter, an output, an unknown reference, and a
    /// non-finite value at each position.
    fn sets_match_scalar_sets<const FLAT: bool>() {
        let table = Generic::<FLAT>::build_table();
        let scalar_table = Arrays::build_table();
        let inputs: [&[u32]; 9] =
            [&[1, 2, 3, 4], &[4, 3, 2, 1], &[1, 2, 4, 3], &[2, 3, 10, 4], &[1, 2, 30, 3], &[3, 99, 1], &[1, 1, 4, 4, 2], &[3, 1, 2], &[1, 2, 3, 10]];
        for vrs in inputs {
            for bad in [None, Some(0), Some(1), Some(2), Some(3)] {
                let values: Vec<f64> = (0..vrs.len()).map(|i| if Some(i) == bad { f64::NAN } else { 0.5 + i as f64 }).collect();
                let mut batched = Generic::<FLAT>::new(None);
                let result = table.set_floats(&mut batched, vrs, &values, SetPhase::Running);
                let mut reference = Arrays::new(None);
                let mut first_error = None;
                for (&vr, &value) in vrs.iter().zip(&values) {
                    if let Err(e) = scalar_table.set_float(&mut reference, vr, value, SetPhase::Running) {
                        first_error = Some(e);
                        break;
                    }
                }
                // Compared as messages: a NaN in an error is not equal to itself.
                assert_eq!(result.err().map(|e| e.to_string()), first_error.map(|e| e.to_string()), "{vrs:?} {bad:?}");
                assert_eq!(batched.u, reference.u, "{vrs:?} {bad:?}");
                assert_eq!((batched.gain, batched.y), (reference.gain, reference.y), "{vrs:?} {bad:?}");
                // The model heard of the change once, if anything changed before the refusal.
                assert_eq!(batched.changes, u32::from(reference.changes > 0), "{vrs:?} {bad:?}");
            }
        }
    }

    #[test]
    fn references_are_matched_to_scalars_of_their_causality_by_address() {
        assert_eq!(Arrays::build_table().flat_scalars(), (0, 0));
        // y[1], y[3], z; u[3], u[1], u[2]: not the parameter, nor an input as an output or an
        // output as an input.
        assert_eq!(FlatArrays::build_table().flat_scalars(), (3, 3));
    }

    #[test]
    fn get_bools_reads_what_scalar_gets_read_and_updates_once() {
        let table = FlatArrays::build_table();
        assert_eq!(table.flat_flags(), 1);
        let scalar_table = Arrays::build_table();
        let lists: [&[u32]; 5] = [&[20], &[20, 20, 20], &[20, 13, 20], &[20, 99], &[30, 20]];
        for vrs in lists {
            for u4 in [-1.0, 1.0] {
                let mut model = FlatArrays::new(None);
                model.u[3] = u4;
                let mut values = vec![None; vrs.len()];
                let result = table.get_bools(&mut model, vrs, &mut values, Some);
                assert!(model.updates <= 1, "{vrs:?}");
                let mut reference = Arrays::new(None);
                reference.u[3] = u4;
                let mut expected = vec![None; vrs.len()];
                let mut first_error = None;
                for (i, &vr) in vrs.iter().enumerate() {
                    match scalar_table.get_bool(&mut reference, vr) {
                        Ok(v) => expected[i] = Some(v),
                        Err(e) => {
                            first_error = Some(e);
                            break;
                        }
                    }
                }
                assert_eq!((values, result.err()), (expected, first_error), "{vrs:?} {u4}");
            }
        }
    }

    #[test]
    fn a_set_of_unchanged_flat_inputs_does_not_tell_the_model() {
        let table = FlatArrays::build_table();
        let mut model = FlatArrays::new(None);
        table.set_floats(&mut model, &[1, 2, 3], &[0.0, 0.0, 0.0], SetPhase::Running).unwrap();
        assert_eq!(model.changes, 0);
        table.set_floats(&mut model, &[3, 1, 2], &[1.0, 0.0, 0.0], SetPhase::Running).unwrap();
        assert_eq!((model.changes, model.u), (1, [0.0, 0.0, 1.0, 0.0]));
    }

    #[test]
    fn flat_boolean_and_integer_gets_keep_their_type_checks() {
        let table = Arrays::build_table();
        let mut model = Arrays::new(None);
        model.u[3] = 1.0;
        let mut fresh = false;
        assert_eq!(table.get_bool_once(&mut model, 20, &mut fresh), Ok(true));
        assert!(fresh);
        assert_eq!(model.updates, 1);
        assert_eq!(table.get_bool_once(&mut model, 20, &mut fresh), Ok(true));
        assert_eq!(model.updates, 1);
        assert!(matches!(table.get_bool_once(&mut model, 13, &mut fresh), Err(VariableError::WrongType { .. })));
        assert!(matches!(table.get_int_once(&mut model, 20, IntKind::Fmi2Integer, &mut fresh), Err(VariableError::WrongType { .. })));
        assert_eq!(table.get_bool_once(&mut model, 99, &mut fresh), Err(VariableError::UnknownReference(99)));
    }
}
