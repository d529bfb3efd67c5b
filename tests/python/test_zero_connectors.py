"""A master that starts every connector at zero (interface.md, "Co-simulation semantics").

Why: many masters (FMPy's `simulate_ssp`, masters that evaluate outputs in initialisation mode from
connector values that start at 0) read ContactForce's outputs before they have passed the bodies'
outputs along the connections. The contact then sees `frame_b.q = (0, 0, 0, 0)`. Before the first
DoStep that is an input not yet connected: zero force and one warning naming it, so that the system
initialises; once connected, the run is the ordinary one. This test's own master does exactly that
with the sphere drop of scenarios/sphere_drop_1ms.toml (RigidBody and ContactForce, 1 ms steps,
StepAverage) and checks the scenario's own figures: the restitution within its tolerance of the
clipped closed form, and two impacts.
"""

from __future__ import annotations

import pathlib
import tomllib

import numpy as np
import pytest

from conftest import REPO, fmu_dir
from enumerations import enumeration_variables
from fmu_driver import Slave

SCENARIO = REPO / "scenarios" / "sphere_drop_1ms.toml"


def flatten(parameters: dict, prefix: str = "") -> dict:
    """TOML tables and arrays to FMU variable names: `a.b = [x, y]` -> `a.b[1]`, `a.b[2]`."""
    out = {}
    for key, value in parameters.items():
        name = f"{prefix}{key}"
        if isinstance(value, dict):
            out.update(flatten(value, name + "."))
        elif isinstance(value, list):
            out.update({f"{name}[{i}]": v for i, v in enumerate(value, start=1)})
        else:
            out[name] = value
    return out


def start_values(fmu: pathlib.Path, parameters: dict) -> dict:
    """The scenario's parameters with enumeration items by number."""
    items = enumeration_variables(fmu)
    return {name: items[name][value] if isinstance(value, str) else value for name, value in flatten(parameters).items()}


def expand(variable: str, names: dict) -> list[str]:
    """`ball.r_0` -> the scalar names `r_0[1]`... of that instance (or the scalar itself)."""
    return [n for n in names if n == variable or (n.startswith(variable + "[") and n.endswith("]"))]


@pytest.fixture(params=["fmi2", "fmi3"])
def system(request, extracted):
    with open(SCENARIO, "rb") as f:
        scenario = tomllib.load(f)
    slaves = {}
    for instance, entry in scenario["fmus"].items():
        path = fmu_dir() / entry["path"].replace("fmi2", request.param)
        if not path.is_file():
            pytest.fail(f"{path} does not exist: run `cargo xtask fmu` first", pytrace=False)
        unzipdir, md = extracted(path)
        slaves[instance] = (Slave(unzipdir, md, instance_name=instance), start_values(path, entry.get("parameters", {})))
    yield scenario, slaves
    for slave, _ in slaves.values():
        slave.free()


def scalar_connections(scenario: dict, slaves: dict) -> list[tuple[str, str, str, str]]:
    """(from instance, from variable, to instance, to variable), element by element."""
    pairs = []
    for connection in scenario["connections"]:
        (a, va), (b, vb) = (connection["from"].split(".", 1), connection["to"].split(".", 1))
        sources, sinks = expand(va, slaves[a][0].variables), expand(vb, slaves[b][0].variables)
        assert len(sources) == len(sinks) > 0, connection
        pairs += [(a, s, b, t) for s, t in zip(sources, sinks)]
    return pairs


def test_a_master_that_reads_outputs_from_zero_connectors_initialises_and_then_runs_right(system):
    scenario, slaves = system
    connections = scalar_connections(scenario, slaves)
    contact, ball = slaves["contact"][0], slaves["ball"][0]
    for slave, parameters in slaves.values():
        slave.enter_initialization(parameters)

    # Initialisation mode: every connector is 0 (the quaternion too), and the master reads the
    # outputs along the connections from them, once per component; it passes nothing along yet
    # (it connects after initialisation).
    for _, _, sink, variable in connections:
        slaves[sink][0].set({variable: 0.0})
    for _ in slaves:
        values = {(source, variable): slaves[source][0].get([variable])[variable] for source, variable, _, _ in connections}
        forces = [values[("contact", v)] for s, v, _, _ in connections if s == "contact"]
        assert forces == [0.0] * 6, f"zero force from the connectors at zero: {forces}"
    assert contact.get(["contact.normal_force"])["contact.normal_force"] == 0.0
    warnings = [m for status, _, m in contact.messages if status == "Warning" and "not yet connected" in m]
    assert len(warnings) == 1 and "frame_b.q = [0, 0, 0, 0]" in warnings[0], contact.log_text()
    assert not [m for m in contact.messages if m[0] in ("Error", "Fatal")], contact.log_text()
    for slave, _ in slaves.values():
        slave.exit_initialization()

    # Connected from here on: the bodies' outputs to the contact, its forces to the bodies, then
    # every FMU steps (the contact's StepAverage force is the average over the coming step).
    def exchange():
        for source, variable, sink, target in connections:
            slaves[sink][0].set({target: slaves[source][0].get([variable])[variable]})

    h, stop = scenario["step"], scenario["stop_time"]
    t, v_z, active = 0.0, [], []
    exchange()
    for k in range(int(round(stop / h))):
        for slave, _ in slaves.values():
            slave.do_step(t, h)
        t = (k + 1) * h
        exchange()
        v_z.append(ball.get(["v_0[3]"])["v_0[3]"])
        active.append(contact.get(["contact.active"])["contact.active"])
    assert not [m for m in contact.messages if m[0] in ("Error", "Fatal")], contact.log_text()
    assert len([m for m in contact.messages if "not yet connected" in m[2]]) == 1

    checks = {check["quantity"]: check for check in scenario["checks"]}
    restitution = checks["ball.v_0[3]"]
    e = max(v_z) * restitution["scale"]
    assert abs(e - restitution["expected"]) <= restitution["relative_tolerance"] * restitution["expected"], f"e = {e}"
    active = np.array(active, dtype=float)
    impacts = int(np.count_nonzero((active[:-1] <= 0.5) & (active[1:] > 0.5)))
    assert impacts == checks["contact.contact.active"]["expected"]
