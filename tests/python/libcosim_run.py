"""A scenario file (scenarios/*.toml, the format of cosim/README.md) run in libcosim through its
Python API (PyPI libcosimpy): the FMUs, their parameters (enumerations by item name), the
sub-steps, the constant inputs and the connections of the TOML, parsed here; the recorded
quantities come back per communication point.

libcosim's fixed-step master is Jacobi: every FMU steps from the same instant with the inputs it
holds, then the outputs are copied to the inputs. cosim evaluates the contact at the body states
before the bodies step (see cosim/README.md, "Coupling scheme"). So over [t_k, t_k + h] a body in
libcosim gets the force computed from its state at t_(k-1), in cosim from its state at t_k: the
force lags the state by 3h/2 against h/2 on average, one step more.

An FMU that refuses its parameters when initialisation ends makes libcosim 0.0.6 abort the
process (an uncaught C++ exception), not return an error: what runs here must initialise.
"""

from __future__ import annotations

import copy
import pathlib
import tomllib
from dataclasses import dataclass

import numpy as np

from conftest import fmu_dir
from enumerations import enumeration_variables

NANOSECONDS = 1_000_000_000


def load(path: pathlib.Path) -> dict:
    with open(path, "rb") as file:
        scenario = tomllib.load(file)
    scenario.setdefault("name", path.stem)
    scenario["_folder"] = path.parent
    return scenario


def flatten(table: dict, prefix: str = "") -> dict:
    """Nested tables and dotted keys joined into dotted names (cosim/README.md, Keys)."""
    out = {}
    for key, value in table.items():
        name = f"{prefix}{key}"
        if isinstance(value, dict):
            out.update(flatten(value, name + "."))
        else:
            out[name] = value
    return out


def fmu_path(scenario: dict, name: str) -> pathlib.Path:
    """The FMU of an instance: absolute, next to the scenario file, or in the FMU folder."""
    path = pathlib.Path(scenario["fmus"][name]["path"])
    for candidate in (path, scenario["_folder"] / path, fmu_dir() / path.name):
        if candidate.is_file():
            return candidate
    raise FileNotFoundError(f"{path}: run `cargo xtask fmu` first")


def with_changes(scenario: dict, stop_time: float | None = None, step: float | None = None,
                 parameters: dict | None = None) -> dict:
    """A copy of the scenario with another stop time, step, or parameters ("instance.name": value)."""
    changed = copy.deepcopy(scenario)
    if stop_time is not None:
        changed["stop_time"] = stop_time
    if step is not None:
        changed["step"] = step
    for path, value in (parameters or {}).items():
        instance, name = path.split(".", 1)
        changed["fmus"][instance].setdefault("parameters", {})[name] = value
    return changed


def to_toml(scenario: dict) -> str:
    """The scenario as TOML again (for cosim): the subset of TOML the scenario files use."""

    def value(v) -> str:
        if isinstance(v, bool):
            return "true" if v else "false"
        if isinstance(v, (int, float)):
            return repr(v)
        if isinstance(v, str):
            return '"' + v.replace("\\", "\\\\").replace('"', '\\"') + '"'
        if isinstance(v, list):
            return "[" + ", ".join(value(x) for x in v) + "]"
        raise TypeError(f"cannot write {v!r} as TOML")

    lines = [f"{k} = {value(v)}" for k, v in scenario.items()
             if not k.startswith("_") and (not isinstance(v, (dict, list)) or k == "record")]
    for name, fmu in scenario["fmus"].items():
        lines.append(f"[fmus.{name}]")
        lines.append(f"path = {value(str(fmu_path(scenario, name).resolve()))}")
        lines += [f"{k} = {value(v)}" for k, v in fmu.items() if k not in ("path", "parameters")]
        lines.append(f"[fmus.{name}.parameters]")
        lines += [f'"{k}" = {value(v)}' for k, v in flatten(fmu.get("parameters", {})).items()]
    for table in ("inputs", "connections", "checks"):
        for entry in scenario.get(table, []):
            lines.append(f"[[{table}]]")
            lines += [f"{k} = {value(v)}" for k, v in entry.items()]
    return "\n".join(lines) + "\n"


@dataclass
class Variable:
    slave: int
    reference: int
    type: int  # libcosim's CosimVariableType value: REAL 0, INTEGER 1, STRING 2, BOOLEAN 3


class Run:
    """The scenario set up in a libcosim execution, ready to simulate."""

    def __init__(self, scenario: dict):
        from libcosimpy.CosimExecution import CosimExecution
        from libcosimpy.CosimLogging import CosimLogLevel, log_output_level
        from libcosimpy.CosimObserver import CosimObserver
        from libcosimpy.CosimSlave import CosimLocalSlave

        log_output_level(CosimLogLevel.WARNING)
        self.scenario = scenario
        self.step = scenario["step"]
        self.step_ns = round(self.step * NANOSECONDS)
        assert abs(self.step_ns / NANOSECONDS - self.step) <= 1e-12 * self.step, "libcosim steps in whole nanoseconds"
        assert scenario.get("start_time", 0.0) == 0.0, "libcosim's executions start at 0 here"
        self.steps = round(scenario["stop_time"] / self.step)
        self.execution = CosimExecution.from_step_size(self.step_ns)
        self.variables: dict[str, Variable] = {}
        self.enumerations: dict[str, dict[str, int]] = {}
        self._slaves = []  # libcosim's local slaves, kept alive with the execution
        for name in scenario["fmus"]:
            path = fmu_path(scenario, name)
            slave = CosimLocalSlave(fmu_path=str(path), instance_name=name)
            self._slaves.append(slave)
            index = self.execution.add_local_slave(local_slave=slave)
            assert index >= 0, f"libcosim refused {path}"
            for v in self.execution.slave_variables(index):
                self.variables[f"{name}.{v.name.decode()}"] = Variable(index, v.reference, v.type)
            self.enumerations |= {f"{name}.{k}": items for k, items in enumeration_variables(path).items()}
        for name, fmu in scenario["fmus"].items():
            parameters = flatten(fmu.get("parameters", {}))
            if "sub_steps" in fmu:
                parameters[fmu.get("sub_step_parameter", "solver.max_step")] = self.step / fmu["sub_steps"]
            for key, value in parameters.items():
                self.set_initial(f"{name}.{key}", value)
        for entry in scenario.get("inputs", []):
            if "table" in entry:
                raise NotImplementedError(f"{entry['to']}: tabulated inputs are not run in libcosim here")
            names = self.scalars(entry["to"])
            values = entry["value"] if isinstance(entry["value"], list) else [entry["value"]] * len(names)
            for scalar, v in zip(names, values, strict=True):
                self.set_initial(scalar, v)
        for connection in scenario.get("connections", []):
            for source, target in zip(self.scalars(connection["from"]), self.scalars(connection["to"]), strict=True):
                a, b = self.variables[source], self.variables[target]
                assert a.type == b.type, f"{source} -> {target}: types differ"
                connect = [self.execution.connect_real_variables, self.execution.connect_integer_variables,
                           self.execution.connect_string_variables, self.execution.connect_boolean_variables][a.type]
                assert connect(a.slave, a.reference, b.slave, b.reference) == 0, f"libcosim refused {source} -> {target}"
        self.observer = CosimObserver.create_time_series(buffer_size=self.steps + 2)
        self.execution.add_observer(observer=self.observer)
        self.last = CosimObserver.create_last_value()
        self.execution.add_observer(observer=self.last)

    def scalars(self, name: str) -> list[str]:
        """A scalar's name, or an array's elements name[1], name[2], ... (array shorthand)."""
        if name in self.variables:
            return [name]
        elements = []
        while f"{name}[{len(elements) + 1}]" in self.variables:
            elements.append(f"{name}[{len(elements) + 1}]")
        if not elements:
            raise KeyError(f"{name}: no such variable in libcosim's view of the FMUs")
        return elements

    def set_initial(self, name: str, value) -> None:
        """A start value: numbers, Booleans, strings, enumeration items by name, arrays."""
        scalars = self.scalars(name)
        values = value if isinstance(value, list) else [value]
        assert len(values) == len(scalars), f"{name}: {len(values)} values for {len(scalars)} elements"
        for scalar, v in zip(scalars, values):
            variable = self.variables[scalar]
            if isinstance(v, str) and scalar in self.enumerations:
                items = self.enumerations[scalar]
                assert v in items, f"{scalar}: {v!r} is not one of {list(items)}"
                v = items[v]
            setter = [self.execution.real_initial_value, self.execution.integer_initial_value,
                      self.execution.string_initial_value, self.execution.boolean_initial_value][variable.type]
            convert = [float, int, str, bool][variable.type]
            assert setter(variable.slave, variable.reference, convert(v)), f"libcosim refused {scalar} = {v!r}"

    def run(self, record: list[str]) -> dict[str, np.ndarray]:
        """Simulates to the stop time; returns "time" and every recorded scalar at the
        communication points libcosim samples (t_0 after initialisation, then after each step).
        Booleans (0/1) come from a last-value observer read after each step, since libcosim's
        time series hold reals and integers only: they are NaN at t_0."""
        from libcosimpy.CosimEnums import CosimVariableType

        scalars = [s for name in record for s in self.scalars(name)]
        series = [s for s in scalars if self.variables[s].type in (0, 1)]
        booleans = [s for s in scalars if self.variables[s].type == 3]
        assert len(series) + len(booleans) == len(scalars), "strings are not recorded"
        for s in series:
            v = self.variables[s]
            assert self.observer.start_time_series(v.slave, v.reference, CosimVariableType(v.type)), s
        flags = {s: np.full(self.steps + 1, np.nan) for s in booleans}
        if booleans:
            for k in range(1, self.steps + 1):
                assert self.execution.step(1), f"libcosim failed at step {k}"
                for s in booleans:
                    v = self.variables[s]
                    flags[s][k] = float(self.last.last_boolean_values(v.slave, [v.reference])[0])
        else:
            assert self.execution.simulate_until(self.steps * self.step_ns), "libcosim's simulation failed"
        out = {}
        for s in series:
            v = self.variables[s]
            get = self.observer.time_series_real_samples if v.type == 0 else self.observer.time_series_integer_samples
            # libcosimpy 0.0.6 drops as many samples from the end as there are step numbers 0 in
            # what it read (the sample of t_0 and unused slots): t_0 is read alone (two asked,
            # one kept), then t_1 ... t_N exactly.
            first = get(v.slave, v.reference, from_step=0, sample_count=2)
            rest = get(v.slave, v.reference, from_step=1, sample_count=self.steps)
            assert list(first[1]) == [0] and list(rest[1]) == list(range(1, self.steps + 1)), f"{s}: libcosim's samples"
            out["time"] = np.asarray(list(first[0]) + list(rest[0]), dtype=float) / NANOSECONDS
            out[s] = np.asarray(list(first[2]) + list(rest[2]), dtype=float)
        return out | flags
