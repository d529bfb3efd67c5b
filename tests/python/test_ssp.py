"""Scenario 1 (the sphere drop) as an SSP in FMPy's simulate_ssp, against the Rust master (cosim).

`cargo xtask test` makes target/ssp/*.ssp (`cargo xtask ssp`) before pytest; this test runs the
same scenario file through `cosim run` (the Rust master, built by cargo if needed) and through
`fmpy.ssp.simulation.simulate_ssp` on target/ssp/sphere_drop.ssp, with the additions of
examples/python/ssp_fmpy.py (parameter bindings, experiment, initial exchange; see there).

Both masters drive the same FMU binaries with the same parameters, so they differ only in how they
couple them:

- cosim (explicit, contact evaluated at the body states): over [t_k, t_k + h] the body gets the
  force of its state at t_k. Held over the step, the force lags the state by h/2 on average.
- FMPy (Jacobi, outputs read after each step): the contact's force from the state at t_k reaches
  the body one exchange later, so over [t_k, t_k + h] the body gets the force of its state at
  t_(k-1): a lag of 3h/2 on average.

A lag tau in a spring force -k x(t - tau) ~ -k x(t) + k tau v(t) is a negative damping k tau, so
at the same step FMPy's contact is less damped than cosim's by k h and the sphere bounces higher:
that difference is the coupling, not the SSP. Run FMPy at h/3 and its lag is 3 (h/3) / 2 = h/2,
cosim's at h: the first-order coupling errors are then equal and the two runs must agree up to
what remains (the onset of contact is resolved on a three times finer grid in FMPy, which moves
each impact's energy by a fraction of a percent). Hence the tests:

1. the archive is valid SSP 1.0 (FMPy's schemas) and carries the scenario's experiment;
2. before the first contact both runs are the same free fall to rounding (1e-9 m): the SSD carries
   the parameters, the initial state and the sub-steps of the TOML;
3. FMPy at h/3 against cosim at h: the same impacts (count, start within two steps), peak normal
   force and coefficient of restitution of each within 2 %;
4. at the same step h, FMPy's first coefficient of restitution is further from cosim's than at
   h/3, and higher (the extra negative damping k h): the difference at equal steps is the delay.
"""

from __future__ import annotations

import csv
import os
import pathlib
import subprocess
import sys
import tomllib
import zipfile

import numpy as np
import pytest

from conftest import REPO, fmu_dir, ssp_path_for

sys.path.insert(0, str(REPO / "examples" / "python"))
import ssp_fmpy  # noqa: E402

SCENARIO = REPO / "scenarios" / "sphere_drop.toml"


@pytest.fixture(scope="module")
def scenario() -> dict:
    with open(SCENARIO, "rb") as file:
        return tomllib.load(file)


def instance_of(scenario: dict, model: str) -> str:
    """The one instance of the FMU model `model` (RigidBody, ContactForce) in the scenario."""
    names = [name for name, fmu in scenario["fmus"].items() if pathlib.Path(fmu["path"]).name.startswith(model)]
    assert len(names) == 1, f"{SCENARIO} should have one {model} instance, has {names}"
    return names[0]


@pytest.fixture(scope="module")
def columns(scenario) -> dict[str, str]:
    """The recorded quantities compared: the sphere's height and vertical velocity, the normal force."""
    body, contact = instance_of(scenario, "RigidBody"), instance_of(scenario, "ContactForce")
    return {"z": f"{body}.r_0[3]", "v": f"{body}.v_0[3]", "force": f"{contact}.contact.normal_force"}


def read_csv(path: pathlib.Path) -> dict[str, np.ndarray]:
    with open(path, newline="") as file:
        rows = list(csv.reader(file))
    data = np.array(rows[1:], dtype=float)
    return {name: data[:, i] for i, name in enumerate(rows[0])}


@pytest.fixture(scope="module")
def rust(tmp_path_factory, columns) -> dict[str, np.ndarray]:
    """cosim's result of the scenario file, rows at t_0 ... t_N. A failed scenario *check* is the
    scenario tests' business: the run counts if it wrote its CSV without an error."""
    out = tmp_path_factory.mktemp("cosim")
    cargo = os.environ.get("CARGO", "cargo")
    # Every communication point is compared, so the scenario's coarser CSV output interval is
    # overridden (0: a row per step).
    command = [cargo, "run", "--release", "--quiet", "--package", "cosim", "--",
               "run", str(SCENARIO), "--out", str(out), "--fmu-dir", str(fmu_dir()), "--output-interval", "0"]
    done = subprocess.run(command, cwd=REPO, capture_output=True, text=True)
    name = tomllib.loads(SCENARIO.read_text()).get("name", SCENARIO.stem)
    csv_path = out / f"{name}.csv"
    if "error:" in done.stderr or not csv_path.is_file():
        pytest.fail(f"{' '.join(command)} failed ({done.returncode}):\n{done.stdout}\n{done.stderr}", pytrace=False)
    result = read_csv(csv_path)
    missing = [c for c in columns.values() if c not in result]
    assert not missing, f"{SCENARIO} must record {missing} (its `record` list, or record nothing to get every output)"
    keep = result["time"] <= COMPARE_UNTIL + 1e-12
    return {key: result[name][keep] for key, name in columns.items()} | {"time": result["time"][keep]}


@pytest.fixture(scope="module")
def ssp() -> pathlib.Path:
    return ssp_path_for("sphere_drop")


# FMPy's Python master takes about 6,000 steps/s: the comparison runs through the first impact
# and the rebound (the sphere touches at 0.32 s and leaves within 10 ms), not the whole second.
COMPARE_UNTIL = 0.45


def fmpy_run(ssp, columns, divisor: int) -> dict[str, np.ndarray]:
    """FMPy at step h / divisor until COMPARE_UNTIL, sampled at cosim's t_1 ... t_N."""
    experiment = ssp_fmpy.read_experiment(ssp)
    result = ssp_fmpy.simulate(ssp, stop_time=COMPARE_UNTIL, step=experiment.step / divisor)[divisor - 1::divisor]
    return {key: np.asarray(result[name]) for key, name in columns.items()} | {"time": np.asarray(result["time"])}


@pytest.fixture(scope="module")
def fmpy_same_step(ssp, columns):
    return fmpy_run(ssp, columns, 1)


@pytest.fixture(scope="module")
def fmpy_equal_delay(ssp, columns):
    return fmpy_run(ssp, columns, 3)


def impacts(run: dict[str, np.ndarray]) -> list[dict[str, float]]:
    """Each contact phase (normal force > 0): start time, peak force, and the coefficient of
    restitution -v_after / v_before from the vertical velocities in free flight on either side."""
    force, v, t = run["force"], run["v"], run["time"]
    touching = force > 0
    starts = np.flatnonzero(~touching[:-1] & touching[1:]) + 1
    found = []
    for start in starts:
        ends = np.flatnonzero(~touching[start:])
        if len(ends) == 0:
            break  # still in contact at the stop time
        end = start + ends[0]
        found.append({"time": t[start], "peak": force[start:end].max(), "restitution": -v[end] / v[start - 1]})
    return found


def test_the_archive_is_ssp_1_0_and_carries_the_experiment(ssp, scenario):
    from fmpy.ssp.ssd import read_ssd, validate_tree
    from lxml import etree

    ssd = read_ssd(str(ssp), validate=True)  # FMPy's SSP 1.0 SystemStructureDescription schema
    with zipfile.ZipFile(ssp) as archive:
        names = set(archive.namelist())
        root = etree.fromstring(archive.read("SystemStructure.ssd"))
    parameter_sets = root.findall(".//{http://ssp-standard.org/SSP1/SystemStructureParameterValues}ParameterSet")
    assert len(parameter_sets) == len(scenario["fmus"])
    for parameter_set in parameter_sets:  # inline, so read_ssd's validation skips them (xs:any lax)
        validate_tree(parameter_set, "SystemStructureParameterValues.xsd")
    components = {c.name: c.source for c in ssd.system.elements}
    assert set(components) == set(scenario["fmus"])
    for name, source in components.items():
        assert source == "resources/" + pathlib.Path(scenario["fmus"][name]["path"]).name
        assert source in names
    experiment = ssp_fmpy.read_experiment(ssp)
    assert (experiment.start_time, experiment.stop_time, experiment.step) == (
        scenario.get("start_time", 0.0), scenario["stop_time"], scenario["step"])


def test_free_fall_is_the_same_to_rounding_until_the_first_contact(rust, fmpy_same_step):
    first_contact = min(np.argmax(rust["force"][1:] > 0), np.argmax(fmpy_same_step["force"] > 0))
    assert first_contact > 10, "the sphere should fall freely for a while"
    dz = np.abs(fmpy_same_step["z"][:first_contact] - rust["z"][1:first_contact + 1])
    assert dz.max() <= 1e-9, f"free fall differs by {dz.max():.3g} m before the first contact"


def test_with_equal_coupling_delays_the_impacts_agree_within_two_percent(rust, fmpy_equal_delay, scenario):
    expected, obtained = impacts(rust), impacts(fmpy_equal_delay)
    assert len(expected) >= 1, "the sphere should hit the ground"
    assert len(obtained) == len(expected), f"impact times: cosim {[i['time'] for i in expected]}, FMPy {[i['time'] for i in obtained]}"
    for n, (e, o) in enumerate(zip(expected, obtained), start=1):
        assert abs(o["time"] - e["time"]) <= 2 * scenario["step"] + 1e-12, f"impact {n}: starts at {o['time']} s, cosim {e['time']} s"
        assert o["peak"] == pytest.approx(e["peak"], rel=0.02), f"impact {n}: peak normal force"
        assert o["restitution"] == pytest.approx(e["restitution"], rel=0.02), f"impact {n}: coefficient of restitution"


def test_at_the_same_step_the_difference_is_the_extra_step_of_force_delay(rust, fmpy_same_step, fmpy_equal_delay):
    reference = impacts(rust)[0]["restitution"]
    same_step = impacts(fmpy_same_step)[0]["restitution"]
    equal_delay = impacts(fmpy_equal_delay)[0]["restitution"]
    assert same_step > reference, "a longer force delay is a negative damping: FMPy at h should bounce higher"
    assert abs(same_step - reference) > 3 * abs(equal_delay - reference), (
        f"restitution: cosim {reference:.5f}, FMPy at h {same_step:.5f}, FMPy at h/3 {equal_delay:.5f}")
