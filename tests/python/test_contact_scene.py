"""The ContactScene FMU through FMPy, both FMI versions.

- FMPy validation reports nothing; the FMUs declare co-simulation only (no Model Exchange yet);
- simulate_fmu, Instantaneous: a sphere driven into a plane at a constant rate under
  LinearSpringDamper receives the closed form f = k d(t) + b d'(t) at every output point, and the
  plane the opposite;
- a master loop of the test's own around the FMU, StepAverage at 10 ms: three spheres stacked on a
  plane, integrated exactly under the held force plus gravity, end (after 1 s) at the linear law's
  static depths within 0.01 mm (the first steps drop the stack while the scene learns gravity);
- bad parameters are refused at initialisation naming the variable and the value.
"""

from __future__ import annotations

import fmpy
import numpy as np
import pytest
from fmpy import simulate_fmu
from fmpy.validation import validate_fmu

from conftest import fmu_path_for
from fmu_driver import FMICallException, Slave

G = 9.81
K, B = 1e5, 200.0
PLANE, SPHERE = 9, 2
LINEAR, NO_FRICTION = 1, 1
INSTANTANEOUS, STEP_AVERAGE = 1, 2


SCENE_FMUS = {"fmi2": "ContactScene-fmi2.fmu", "fmi3": "ContactScene-fmi3.fmu"}


@pytest.fixture(scope="session", params=["fmi2", "fmi3"])
def scene(request, tmp_path_factory):
    """(version, path, unzip dir, model description) of one ContactScene FMU."""
    path = fmu_path_for(request.param, SCENE_FMUS)
    unzip = fmpy.extract(str(path), unzipdir=str(tmp_path_factory.mktemp("scene-" + request.param)))
    return request.param, path, unzip, fmpy.read_model_description(unzip)


def stack(spheres, radius, mass, mode, damping=B):
    """Parameters: a plane (body 1) and `spheres` spheres under the linear law, no friction."""
    p = {"scene.bodies": 1 + spheres, "body[1].shape": PLANE, "normal.law": LINEAR, "normal.stiffness": K,
         "normal.damping": damping, "friction.law": NO_FRICTION, "coupling.mode": mode}
    for i in range(2, 2 + spheres):
        p |= {f"body[{i}].shape": SPHERE, f"body[{i}].radius": radius, f"body[{i}].mass": mass}
    return p


def test_validation_reports_nothing(scene):
    _, path, _, md = scene
    assert validate_fmu(str(path)) == []
    assert md.modelName == "ContactScene"
    assert md.coSimulation is not None and md.modelExchange is None
    names = {v.name for v in md.modelVariables}
    assert {"body[16].r_0[1]", "body[16].f_0[3]", "body[16].mask", "scene.active_contacts", "coupling.max_substep"} <= names


def test_a_sphere_driven_into_a_plane_receives_the_linear_law(scene):
    _, path, _, _ = scene
    radius, rate = 0.1, 0.02
    start = stack(1, radius, 1.0, INSTANTANEOUS) | {"body[2].r_0[3]": radius, "body[2].v_0[3]": -rate}
    # The sphere's height as an input, falling at `rate` from touching.
    signal = np.array([(0.0, radius), (0.1, radius - 0.1 * rate)], dtype=[("time", np.float64), ("body[2].r_0[3]", np.float64)])
    result = simulate_fmu(str(path), fmi_type="CoSimulation", start_values=start, input=signal, stop_time=0.1,
                          output_interval=1e-2, output=["body[1].f_0[3]", "body[2].f_0[3]", "scene.active_contacts"])
    # FMPy records the outputs after each step, before it sets the inputs of the next: the row
    # at t holds the outputs for the inputs of t - h (the first two rows both those of t = 0,
    # where the sphere just touches and no force acts).
    t = result["time"]
    t_in = np.concatenate([[0.0], t[:-1]])
    expected = np.where(t_in > 0, K * rate * t_in + B * rate, 0.0)
    np.testing.assert_allclose(result["body[2].f_0[3]"], expected, rtol=1e-9, atol=1e-9)
    np.testing.assert_allclose(result["body[1].f_0[3]"], -expected, rtol=1e-9, atol=1e-9)
    assert (result["scene.active_contacts"][t_in > 0] == 1).all()


def test_a_stack_of_three_spheres_rests_at_its_static_depths_at_10_ms(scene):
    _, _, unzip, md = scene
    radius, mass, h = 0.05, 1.0, 0.01
    depth = [(3 - k) * mass * G / K for k in range(3)]
    expected = np.cumsum([radius - depth[0], 2 * radius - depth[1], 2 * radius - depth[2]])
    z, v = expected.copy(), np.zeros(3)
    slave = Slave(unzip, md)
    try:
        slave.initialize(stack(3, radius, mass, STEP_AVERAGE) | {"coupling.step": h}, {})
        t = 0.0
        for _ in range(100):
            slave.set({f"body[{i + 2}].r_0[3]": z[i] for i in range(3)} | {f"body[{i + 2}].v_0[3]": v[i] for i in range(3)})
            f = slave.get_vector([f"body[{i + 2}].f_0[3]" for i in range(3)])
            slave.do_step(t, h)
            t += h
            a = f / mass - G
            z, v = z + v * h + 0.5 * a * h * h, v + a * h
        np.testing.assert_allclose(z, expected, rtol=0, atol=1e-5)
        # Every contact carries force: plane-sphere 1, 1-2, 2-3.
        assert slave.get({"scene.active_contacts"})["scene.active_contacts"] == 3
    finally:
        slave.free()


def test_a_serialized_state_read_back_into_another_instance_steps_as_the_first(scene):
    """A sphere dropped onto the plane under StepAverage at 10 ms (a master loop of this test's
    own, the scene first): the FMU state serialized in the middle of the impact and read back into
    a second instance, which then steps as the first did, bit for bit."""
    _, _, unzip, md = scene
    radius, h = 0.05, 0.01
    parameters = stack(1, radius, 1.0, STEP_AVERAGE) | {"normal.stiffness": 1e6, "coupling.step": h}
    first, second = Slave(unzip, md, "first"), Slave(unzip, md, "second")
    try:
        first.initialize(parameters, {})
        second.initialize(parameters, {})

        def step(slave, t, z, v):
            slave.set({"body[2].r_0[3]": z, "body[2].v_0[3]": v})
            f = slave.get({"body[2].f_0[3]"})["body[2].f_0[3]"]
            slave.do_step(t, h)
            a = f - G
            return z + v * h + 0.5 * a * h * h, v + a * h

        t, z, v = 0.0, radius + 0.5, 0.0
        while z > radius - 1e-4:
            z, v = step(first, t, z, v)
            t += h
        state = first.get_state()
        data = first.serialize(state)
        first.free_state(state)
        restored = second.deserialize(data)
        second.set_state(restored)
        second.free_state(restored)
        runs = []
        for slave in (first, second):
            tt, zz, vv, path = t, z, v, []
            for _ in range(30):
                zz, vv = step(slave, tt, zz, vv)
                tt += h
                path.append((zz, vv))
            runs.append(path)
        assert runs[0] == runs[1]
    finally:
        first.free()
        second.free()


@pytest.mark.parametrize(
    "parameters, message",
    [
        ({"scene.bodies": 17}, "scene.bodies = 17: must be 0 to 16"),
        ({"body[2].radius": 0.0}, "body[2].radius = 0"),
        ({"body[2].material": 3}, "body[2].material = 3"),
        ({"scene.file": "missing.toml"}, "missing.toml"),
    ],
)
def test_bad_parameters_are_refused_naming_them(scene, parameters, message):
    _, _, unzip, md = scene
    slave = Slave(unzip, md)
    try:
        slave.enter_initialization(stack(1, 0.1, 1.0, INSTANTANEOUS) | parameters)
        with pytest.raises(FMICallException):
            slave.exit_initialization()
        assert message in slave.log_text(), slave.log_text()
    finally:
        slave.free()
