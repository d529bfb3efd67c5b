"""Laws provided by input through the packaged FMUs in FMPy, both FMI versions.

- examples/python/provided_law.py: a Python LinearSpringDamper and Tanh friction reproduce the
  built-in laws on a box's eight corner slots to 1e-12 (the script checks and says so).
- A scenario where the test's own code is the normal law: a measured force curve (a table of depth
  and force, interpolated linearly, with a damper) carries a point mass sliding on the ground, and
  the built-in AdamsCoulomb friction takes the provided normal force: the mass settles at the depth
  where the curve carries its weight, and slides with the deceleration mu_d g.
- Refusals: a point cloud of nine points (eight slots), and StepAverage, each named in the log;
  ContactForce, which has no slots, refuses a provided law and names ContactForceProvidedLaws.
"""

from __future__ import annotations

import subprocess
import sys

import numpy as np
import pytest

from conftest import REPO, fmu_path_for, provided_fmu_path_for
from enumerations import enumeration_types
from fmu_driver import FMICallException


@pytest.fixture(scope="module", params=["fmi2", "fmi3"])
def fmu_path(request):
    """The FMU under test here: ContactForceProvidedLaws, which has the point slots of the laws
    provided by input (ContactForce, the same binary, leaves them out)."""
    return provided_fmu_path_for(request.param)

EXAMPLE = REPO / "examples" / "python" / "provided_law.py"

# The measured curve: depth (m) -> force (N), stiffening; a damper adds DAMPING * depth rate.
CURVE_DEPTH = np.array([0.0, 1e-4, 2e-4, 4e-4, 8e-4])
CURVE_FORCE = np.array([0.0, 2.0, 6.0, 20.0, 80.0])
DAMPING = 200.0  # N.s/m
MASS = 1.0  # kg
GRAVITY = 9.81  # m/s^2
MU_STATIC, MU_DYNAMIC = 0.5, 0.3


def measured_law(depth: float, depth_rate: float) -> float:
    return float(np.interp(depth, CURVE_DEPTH, CURVE_FORCE)) + DAMPING * depth_rate


def test_the_python_law_of_the_example_reproduces_the_built_in_laws(fmu_path):
    fmi = "3" if "fmi3" in fmu_path.name else "2"
    done = subprocess.run(
        [sys.executable, str(EXAMPLE), "--fmu-dir", str(fmu_path.parent), "--fmi", fmi], cwd=REPO, capture_output=True, text=True, timeout=300
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert "of the largest force" in done.stdout


def items(fmu_path):
    types = enumeration_types(fmu_path)
    return types["NormalLaw"], types["FrictionLaw"]


def test_a_measured_force_curve_from_the_test_carries_a_sliding_mass_with_built_in_friction(fmu_path, new_slave):
    normal, friction = items(fmu_path)
    slave = new_slave("measured")
    parameters = {
        "geometry_b.shape": enumeration_types(fmu_path)["Shape"]["Point"],
        "normal.law": normal["ProvidedByInput"],
        "friction.law": friction["AdamsCoulomb"],
        "friction.mu_static": MU_STATIC,
        "friction.mu_dynamic": MU_DYNAMIC,
    }
    # The weight's depth on the curve (between its 3rd and 4th points), which the mass starts at.
    rest = float(np.interp(MASS * GRAVITY, CURVE_FORCE, CURVE_DEPTH))
    z, vz, x, vx = -rest, 0.0, 0.0, 1.0
    slave.initialize(parameters, {"frame_b.r_0[3]": z, "frame_b.v_0[1]": vx})
    h, t = 1e-4, 0.0
    slot = ["contact.point[1].depth", "contact.point[1].depth_rate", "contact.point[1].n_0[3]", "contact.point[1].tangent1_0[1]"]
    speeds = []
    for step in range(3000):
        slave.set({"frame_b.r_0[1]": x, "frame_b.r_0[3]": z, "frame_b.v_0[1]": vx, "frame_b.v_0[3]": vz})
        depth, rate, n_z, t1_x = slave.get_vector(slot)
        assert (n_z, t1_x) == (1.0, 1.0)
        assert depth == pytest.approx(max(0.0, -z), abs=1e-15) and rate == pytest.approx(-vz, abs=1e-15)
        slave.set({"contact.point[1].provided.normal_force": measured_law(depth, rate)})
        f_x, f_z, f_n = slave.get_vector(["frame_b.f_0[1]", "frame_b.f_0[3]", "contact.point[1].normal_force"])
        assert f_n == pytest.approx(max(0.0, measured_law(depth, rate)), rel=1e-15)
        # Semi-implicit Euler of the point mass under its weight and the contact force.
        vz += (f_z / MASS - GRAVITY) * h
        vx += f_x / MASS * h
        z += vz * h
        x += vx * h
        slave.do_step(t, h)
        t += h
        speeds.append(vx)
    # It rests at the depth where the curve carries its weight, and slid at mu_d g all along
    # (AdamsCoulomb gives mu_d beyond friction.v_transition; the speed stays far above it).
    assert -z == pytest.approx(rest, rel=1e-6)
    deceleration = (speeds[500] - speeds[2500]) / (2000 * h)
    assert deceleration == pytest.approx(MU_DYNAMIC * GRAVITY, rel=1e-4)


def test_a_cloud_of_nine_points_is_refused_with_eight_slots(fmu_path, new_slave, tmp_path):
    normal, _ = items(fmu_path)
    cloud = tmp_path / "nine.csv"
    cloud.write_text("".join(f"{0.01 * i},0,0\n" for i in range(9)))
    slave = new_slave("nine")
    slave.enter_initialization(
        {"geometry_b.shape": enumeration_types(fmu_path)["Shape"]["PointCloud"], "geometry_b.file": str(cloud), "normal.law": normal["ProvidedByInput"]}
    )
    with pytest.raises(FMICallException):
        slave.exit_initialization()
    log = slave.log_text()
    assert "normal.law, geometry_a.shape, geometry_b.shape = ProvidedByInput, Plane, PointCloud" in log, log
    assert "can have 9 contact points" in log, log


def test_step_average_is_refused_with_a_provided_law(fmu_path, new_slave):
    _, friction = items(fmu_path)
    slave = new_slave("average")
    slave.enter_initialization(
        {"friction.law": friction["ProvidedByInput"], "coupling.mode": enumeration_types(fmu_path)["CouplingMode"]["StepAverage"], "body_b.mass": 1.0}
    )
    with pytest.raises(FMICallException):
        slave.exit_initialization()
    assert "friction.law, coupling.mode = ProvidedByInput, StepAverage" in slave.log_text(), slave.log_text()


@pytest.mark.parametrize("version", ["fmi2", "fmi3"])
def test_contact_force_has_no_slots_and_refuses_a_provided_law_naming_the_other_fmu(version, extracted):
    from fmu_driver import Slave

    path = fmu_path_for(version)
    unzipdir, md = extracted(path)
    names = {v.name for v in md.modelVariables}
    assert "contact.point[1].provided.normal_force" not in names and "contact.point[1].depth" not in names
    slave = Slave(unzipdir, md, instance_name="no_slots")
    try:
        slave.enter_initialization({"normal.law": enumeration_types(path)["NormalLaw"]["ProvidedByInput"]})
        with pytest.raises(FMICallException):
            slave.exit_initialization()
        log = slave.log_text()
        assert "normal.law = 8 (ProvidedByInput)" in log and "ContactForceProvidedLaws" in log, log
    finally:
        slave.free()
