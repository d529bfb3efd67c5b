"""Run this project's SSP files (`cargo xtask ssp`, target/ssp/*.ssp) with FMPy's `simulate_ssp`.

FMPy 0.3.32's SSP master (`fmpy.ssp.simulation.simulate_ssp`) is small, and running a contact
between bodies with it needs five things it does not do by itself. `simulate` below adds them and
otherwise leaves the run to `simulate_ssp`:

1. It ignores the SSD's parameter bindings (it applies only its `parameter_set` argument, with
   names `component.variable`): `parameter_set` builds that set from the bindings.
2. It ignores `ssd:DefaultExperiment` (stop time 1 s and 100 steps by default) and SSP 1.0 has no
   element for the communication step: `read_experiment` reads the start and stop times and the
   step of OMSimulator's annotation `oms:FixedStepMaster stepSize`, which `cargo xtask ssp` writes.
3. It starts every connector at 0.0 and exchanges nothing before the first step, so the contact's
   first step would take a body at the origin with the quaternion (0, 0, 0, 0) (before the first
   step ContactForce answers it with zero force and a warning, an input not yet connected; a step
   taken with it is an error), and the body would then get that contact's force. `simulate` adds the initial exchange
   after the last FMU is initialised: outputs are read, passed along the connections and set as
   inputs, as many times as there are components, so that a feedthrough FMU's outputs (the forces)
   come from its connected inputs (the poses) at the start time.
4. Its `set_value` sets every Boolean to true (it compares the literal "false" with 0.0) and
   refuses Strings, and its `set_parameters` gives component "ball" the parameters of a component
   "ballast" too (it matches the name prefix without the dot): `simulate` lets Booleans be
   "true"/"false", sets Strings (a mesh file name) and matches `component.` exactly.
5. It labels each result row with the start of the step whose end values the row holds, and its
   float time loop may take one step too many: `simulate` returns rows at t_1 ... t_N.

The coupling itself is FMPy's: every FMU steps with the inputs of the last exchange, then all
outputs are exchanged (Jacobi). An FMU's outputs after a step are taken at its end, so a body's
state at t_k reaches the contact in the exchange after the step to t_k, and the contact's force
computed from it reaches the body one exchange later: the body integrates [t_k, t_k+1] with the
force of the state at t_(k-1). The Rust master (cosim) applies the force of the state at t_k. Both
are first order in the step; their difference is one step of delay in the contact force.

The patches are applied only while `simulate` runs, and only to FMPy 0.3.32 (checked).
"""

from __future__ import annotations

import contextlib
import dataclasses
import pathlib
import zipfile

import numpy as np

FMPY_VERSION = "0.3.32"
OMS_NAMESPACE = "https://raw.githubusercontent.com/OpenModelica/OMSimulator/master/schema/oms.xsd"
SSD_NAMESPACE = "http://ssp-standard.org/SSP1/SystemStructureDescription"


@dataclasses.dataclass(frozen=True)
class Experiment:
    start_time: float
    stop_time: float
    step: float

    @property
    def steps(self) -> int:
        return int(round((self.stop_time - self.start_time) / self.step))


def read_experiment(ssp: str | pathlib.Path) -> Experiment:
    """Start and stop time (ssd:DefaultExperiment) and communication step (oms:FixedStepMaster)."""
    from lxml import etree

    with zipfile.ZipFile(ssp) as archive:
        root = etree.fromstring(archive.read("SystemStructure.ssd"))
    experiment = root.find(f"{{{SSD_NAMESPACE}}}DefaultExperiment")
    master = root.find(f".//{{{OMS_NAMESPACE}}}FixedStepMaster")
    if experiment is None or master is None:
        raise ValueError(f"{ssp}: no ssd:DefaultExperiment or oms:FixedStepMaster (not made by `cargo xtask ssp`?)")
    return Experiment(
        start_time=float(experiment.get("startTime", "0")),
        stop_time=float(experiment.get("stopTime")),
        step=float(master.get("stepSize")),
    )


def parameter_set(ssp: str | pathlib.Path, overrides: dict[str, object] | None = None):
    """The components' parameter bindings as one FMPy ParameterSet named `component.variable`,
    with `overrides` (`component.variable` -> value) replacing or adding values."""
    from fmpy.ssp.ssd import Parameter, ParameterSet, find_components, read_ssd

    ssd = read_ssd(str(ssp))
    values: dict[str, tuple[str, object]] = {}
    for component in find_components(ssd.system):
        for binding in component.parameterBindings:
            if binding.source is not None or binding.parameterMapping:
                raise ValueError(f"{ssp}: {component.name}: only inline parameter values without mapping are supported")
            prefix = binding.prefix or ""
            for parameters in binding.parameterValues:
                for p in parameters.parameters:
                    values[f"{component.name}.{prefix}{p.name}"] = (p.type, p.value)
    for name, value in (overrides or {}).items():
        kind = values.get(name, (None, None))[0]
        values[name] = (kind, value)
    result = ParameterSet(name="bindings")
    result.parameters = [Parameter(name=name, type=kind, value=value) for name, (kind, value) in values.items()]
    return result


def _set_value(component, name, value):
    """fmpy.ssp.simulation.set_value, with Boolean literals and Strings."""
    variable = component.variables[name]
    vr = [variable.valueReference]
    if variable.type == "Real":
        component.fmu.setReal(vr, [float(value)])
    elif variable.type in ("Integer", "Enumeration"):
        component.fmu.setInteger(vr, [int(value)])
    elif variable.type == "Boolean":
        if isinstance(value, str):
            if value not in ("true", "false", "1", "0"):
                raise ValueError(f"{component.name}.{name}: {value!r} is not a Boolean")
            value = value in ("true", "1")
        component.fmu.setBoolean(vr, [bool(value)])
    elif variable.type == "String":
        component.fmu.setString(vr, [str(value)])
    else:
        raise ValueError(f"{component.name}.{name}: unsupported type {variable.type}")


def _initial_exchange(system):
    """Outputs to inputs along the connections at the start time, once per component, so that the
    outputs of feedthrough FMUs come from their connected inputs."""
    from fmpy.ssp import simulation
    from fmpy.ssp.ssd import find_components, get_connections

    components = find_components(system)
    connections = get_connections(system)
    for _ in components:
        for component in components:
            for connector in component.connectors:
                if connector.kind == "output":
                    connector.value = simulation.get_value(component, connector.name)
        for start, end in connections:
            end.value = start.value
        for component in components:
            for connector in component.connectors:
                if connector.kind == "input":
                    _set_value(component, connector.name, connector.value)


def _set_parameters(component, parameters):
    """fmpy.ssp.simulation.set_parameters, matching `component.` rather than `component`."""
    path = component.name
    parent = component.parent
    while parent.parent is not None:
        path = f"{parent.name}.{path}"
        parent = parent.parent
    for parameter in parameters.parameters:
        if parameter.name.startswith(path + "."):
            _set_value(component, parameter.name[len(path) + 1:], parameter.value)


@contextlib.contextmanager
def _patched_fmpy():
    import fmpy
    from fmpy.ssp import simulation
    from fmpy.ssp.ssd import find_components

    if fmpy.__version__ != FMPY_VERSION:
        raise RuntimeError(f"ssp_fmpy.py adapts FMPy {FMPY_VERSION}'s simulate_ssp; FMPy {fmpy.__version__} is installed")
    originals = (simulation.instantiate_fmu, simulation.set_value, simulation.set_parameters)
    original_instantiate = originals[0]

    def instantiate_fmu(component, *args, **kwargs):
        original_instantiate(component, *args, **kwargs)
        root = component.parent
        while root.parent is not None:
            root = root.parent
        if all(hasattr(c, "fmu") for c in find_components(root)):
            _initial_exchange(root)

    simulation.instantiate_fmu, simulation.set_value, simulation.set_parameters = instantiate_fmu, _set_value, _set_parameters
    try:
        yield simulation
    finally:
        simulation.instantiate_fmu, simulation.set_value, simulation.set_parameters = originals


def simulate(ssp: str | pathlib.Path, parameters: dict[str, object] | None = None,
             stop_time: float | None = None, step: float | None = None) -> np.ndarray:
    """Runs an SSP with `fmpy.ssp.simulation.simulate_ssp` and returns its structured array, one
    column per connector (`component.variable`), rows at t_1 ... t_N.

    `parameters` (`component.variable` -> value) override the SSD's parameter bindings;
    `stop_time` and `step` the SSD's experiment."""
    experiment = read_experiment(ssp)
    experiment = dataclasses.replace(
        experiment,
        stop_time=experiment.stop_time if stop_time is None else stop_time,
        step=experiment.step if step is None else step,
    )
    with _patched_fmpy() as simulation:
        result = simulation.simulate_ssp(
            str(ssp),
            start_time=experiment.start_time,
            stop_time=experiment.stop_time,
            step_size=experiment.step,
            parameter_set=parameter_set(ssp, parameters),
        )
    result = result[: experiment.steps].copy()
    result["time"] = experiment.start_time + experiment.step * np.arange(1, len(result) + 1)
    return result
