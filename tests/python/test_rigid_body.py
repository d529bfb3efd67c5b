"""The RigidBody companion FMU through FMPy, both FMI versions, against closed forms.

- FMPy validation reports nothing for either FMU;
- free fall with a held force is exact: r = r0 + v0 t + (g + f/m) t^2 / 2, v = v0 + (g + f/m) t;
- torque-free tumbling of an asymmetric body keeps the energy output and the world angular
  momentum (I_w w, from the outputs) constant, and the quaternion unit;
- a torque on a body with equal principal moments gives w = w0 + t / I t exactly;
- FMU state save/restore and reset reproduce runs bit for bit; bad parameters are refused at
  initialisation naming the variable.
"""

from __future__ import annotations

import fmpy
import numpy as np
import pytest
from fmpy.validation import validate_fmu

from conftest import fmu_dir
from fmu_driver import FMICallException, Slave


@pytest.fixture(scope="session", params=["fmi2", "fmi3"])
def body(request, tmp_path_factory):
    """(unzip dir, model description) of each RigidBody FMU."""
    path = fmu_dir() / f"RigidBody-{request.param}.fmu"
    if not path.is_file():
        pytest.fail(f"{path} does not exist: run `cargo xtask fmu` first", pytrace=False)
    unzipdir = fmpy.extract(str(path), unzipdir=str(tmp_path_factory.mktemp("rigid-body-" + request.param)))
    return path, unzipdir, fmpy.read_model_description(unzipdir)


def names(base, n):
    return [f"{base}[{i + 1}]" for i in range(n)]


STATE = names("r_0", 3) + names("q", 4) + names("v_0", 3) + names("w_0", 3) + ["energy"]


def run(body, parameters, inputs, steps, h):
    """Initialises an instance and steps it; returns the outputs after every step (rows)."""
    _, unzipdir, md = body
    slave = Slave(unzipdir, md)
    try:
        slave.initialize(parameters, inputs)
        rows = [slave.get_vector(STATE)]
        for k in range(steps):
            slave.do_step(k * h, h)
            rows.append(slave.get_vector(STATE))
    finally:
        slave.free()
    return np.array(rows)


def test_validation_reports_nothing(body):
    path, _, md = body
    assert validate_fmu(str(path)) == []
    assert md.modelName == "RigidBody"


def test_free_fall_with_a_held_force_is_exact(body):
    m, h, steps = 2.0, 0.01, 50
    f = np.array([1.0, -0.5, 3.0])
    r0, v0 = np.array([0.1, 0.2, 1.5]), np.array([0.3, 0.0, 2.0])
    parameters = {"mass": m, **dict(zip(names("r_0_start", 3), r0)), **dict(zip(names("v_0_start", 3), v0))}
    rows = run(body, parameters, dict(zip(names("f_0", 3), f)), steps, h)
    g = np.array([0.0, 0.0, -9.81])
    a = g + f / m
    for k, row in enumerate(rows):
        t = k * h
        np.testing.assert_allclose(row[0:3], r0 + v0 * t + a * t * t / 2, rtol=0, atol=1e-12)
        np.testing.assert_allclose(row[7:10], v0 + a * t, rtol=0, atol=1e-12)


def test_torque_free_tumbling_conserves_energy_and_angular_momentum(body):
    inertia = np.array([[1.5, -0.1, 0.05], [-0.1, 2.0, 0.0], [0.05, 0.0, 3.0]])
    parameters = {
        "gravity[3]": 0.0,
        **dict(zip(names("inertia", 6), [1.5, 2.0, 3.0, -0.1, 0.05, 0.0])),
        **dict(zip(names("w_0_start", 3), [0.3, 2.0, 0.4])),
        "solver.max_step": 1e-3,
    }
    rows = run(body, parameters, {}, 200, 0.05)

    def momentum(row):
        w_, x, y, z = row[3:7]
        R = np.array([
            [1 - 2 * (y * y + z * z), 2 * (x * y - w_ * z), 2 * (x * z + w_ * y)],
            [2 * (x * y + w_ * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w_ * x)],
            [2 * (x * z - w_ * y), 2 * (y * z + w_ * x), 1 - 2 * (x * x + y * y)],
        ])
        return R @ inertia @ R.T @ row[10:13]

    L0, E0 = momentum(rows[0]), rows[0][13]
    for row in rows:
        np.testing.assert_allclose(momentum(row), L0, rtol=0, atol=1e-10 * np.linalg.norm(L0))
        assert abs(row[13] - E0) <= 1e-5 * E0
        assert abs(np.linalg.norm(row[3:7]) - 1.0) < 1e-14
    # The body really tumbles: the angular velocity moves.
    assert np.linalg.norm(rows[-1][10:13] - rows[0][10:13]) > 0.1


def test_a_torque_on_equal_principal_moments_spins_up_linearly(body):
    torque, moment, h = np.array([0.02, -0.01, 0.005]), 4e-3, 0.01
    parameters = {"gravity[3]": 0.0}
    rows = run(body, parameters, dict(zip(names("t_0", 3), torque)), 30, h)
    for k, row in enumerate(rows):
        np.testing.assert_allclose(row[10:13], torque / moment * k * h, rtol=0, atol=1e-12)


def test_state_round_trip_and_reset_reproduce_the_run(body):
    _, unzipdir, md = body
    parameters = {**dict(zip(names("w_0_start", 3), [0.3, 2.0, 0.4])), **dict(zip(names("inertia", 3), [1.0, 2.0, 3.0]))}
    slave = Slave(unzipdir, md)
    try:
        slave.initialize(parameters, {"f_0[1]": 0.5})
        for k in range(5):
            slave.do_step(k * 0.01, 0.01)
        state = slave.get_state()
        after = []
        for k in range(5, 10):
            slave.do_step(k * 0.01, 0.01)
            after.append(slave.get_vector(STATE))
        slave.set_state(state)
        again = []
        for k in range(5, 10):
            slave.do_step(k * 0.01, 0.01)
            again.append(slave.get_vector(STATE))
        assert np.array_equal(np.array(after), np.array(again))
        data = slave.serialize(state)
        restored = slave.deserialize(data)
        slave.set_state(restored)
        slave.do_step(0.05, 0.01)
        assert np.array_equal(slave.get_vector(STATE), after[0])
        slave.reset()
        slave.initialize(parameters, {"f_0[1]": 0.5})
        for k in range(6):
            slave.do_step(k * 0.01, 0.01)
        assert np.array_equal(slave.get_vector(STATE), after[0])
    finally:
        slave.free()


@pytest.mark.parametrize(
    "parameters, message",
    [
        ({"mass": -1.0}, "mass = -1"),
        ({"inertia[3]": -3.0}, "inertia"),
        ({"q_start[1]": 0.0}, "q_start"),
        ({"solver.max_step": 0.0}, "solver.max_step = 0"),
    ],
)
def test_bad_parameters_are_refused_naming_them(body, parameters, message):
    _, unzipdir, md = body
    slave = Slave(unzipdir, md)
    try:
        slave.enter_initialization(parameters)
        with pytest.raises(FMICallException):
            slave.exit_initialization()
        assert message in slave.log_text(), slave.log_text()
    finally:
        slave.free()
