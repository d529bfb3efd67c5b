"""The defaults' first output through the packaged FMUs in FMPy, both FMI versions: with every
start value left alone, ContactForce's sphere rests on its plane and PlanarContact's circle on its
line (touching, no force), and RigidBody starts where a default ContactForce fed by it finds it
resting on the plane. A first `simulate_fmu` call shows touching bodies, not a sunken sphere.
"""

from __future__ import annotations

import numpy as np
import pytest
from fmpy import simulate_fmu

from conftest import fmu_dir

VERSIONS = ["fmi2", "fmi3"]


def first_row(path, outputs, start_values=None):
    result = simulate_fmu(str(path), start_values=start_values or {}, output=outputs, stop_time=1e-3, step_size=1e-3)
    return {name: float(result[name][0]) for name in outputs}


@pytest.mark.parametrize("version", VERSIONS)
def test_contact_force_at_its_defaults_touches_with_no_force(version):
    row = first_row(fmu_dir() / f"ContactForce-{version}.fmu", ["contact.separation", "frame_b.f_0[3]", "contact.normal_force"])
    assert abs(row["contact.separation"]) < 1e-12, row
    assert abs(row["frame_b.f_0[3]"]) < 1e-6 and abs(row["contact.normal_force"]) < 1e-6, row


@pytest.mark.parametrize("version", VERSIONS)
def test_planar_contact_at_its_defaults_touches_with_no_force(version):
    row = first_row(fmu_dir() / f"PlanarContact-{version}.fmu", ["contact.separation", "frame_b.f_0[2]", "contact.normal_force"])
    assert abs(row["contact.separation"]) < 1e-12, row
    assert abs(row["frame_b.f_0[2]"]) < 1e-6 and abs(row["contact.normal_force"]) < 1e-6, row


@pytest.mark.parametrize("version", VERSIONS)
def test_rigid_body_at_its_defaults_rests_on_a_default_contact_force(version):
    # RigidBody's first outputs (its start state) as ContactForce's frame_b inputs.
    names = ["r_0[1]", "r_0[2]", "r_0[3]", "q[1]", "q[2]", "q[3]", "q[4]"]
    body = first_row(fmu_dir() / f"RigidBody-{version}.fmu", names)
    signals = np.array([(t, *(body[n] for n in names)) for t in (0.0, 1e-3)],
                       dtype=[("time", float)] + [(f"frame_b.{n}", float) for n in names])
    result = simulate_fmu(str(fmu_dir() / f"ContactForce-{version}.fmu"), input=signals,
                          output=["contact.separation", "frame_b.f_0[3]"], stop_time=1e-3, step_size=1e-3)
    assert body["r_0[3]"] > 0.0
    assert abs(result["contact.separation"][0]) < 1e-12
    assert abs(result["frame_b.f_0[3]"][0]) < 1e-6
