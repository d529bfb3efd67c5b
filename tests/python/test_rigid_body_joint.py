"""RigidBody's joint to the world through FMPy, both FMI versions, co-simulation and Model Exchange
(CVode), against closed forms:

- a pendulum's small-angle period 2 pi sqrt(I_p / (m g d)), for a point mass and a body with inertia;
- the energy of a swinging pendulum conserved to the integrator's second order (co-simulation) and
  to CVode's tolerance (Model Exchange), the mass staying on its circle;
- the rod's reaction along the rod, m g cos(angle) + m v^2 / d, and no torque for a point mass, at
  every output point;
- a prismatic slide down an inclined axis, s = g_axis t^2 / 2, with the normal force as reaction;
- a short impulse changes the twist by the `mobility` output times it, for each joint; the mass a
  pendulum shows to a push at theta off its path, 1 / (G^T Phi G), is m / cos^2(theta).
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from fmpy import simulate_fmu

from conftest import fmu_dir
from fmu_driver import Slave

import fmpy

G = 9.81
D = 0.5  # the rod's length [m]
FREE, REVOLUTE, PRISMATIC = 1, 2, 3


def names(base, n):
    return [f"{base}[{i + 1}]" for i in range(n)]


def expand(values: dict) -> dict:
    out = {}
    for name, value in values.items():
        if isinstance(value, (list, tuple, np.ndarray)):
            out |= dict(zip(names(name, len(value)), [float(x) for x in value]))
        else:
            out[name] = value
    return out


def body_path(version):
    path = fmu_dir() / f"RigidBody-{version}.fmu"
    if not path.is_file():
        pytest.fail(f"{path} does not exist: run `cargo xtask fmu` first", pytrace=False)
    return path


@pytest.fixture(scope="module", params=["fmi2", "fmi3"])
def body(request, tmp_path_factory):
    path = body_path(request.param)
    unzipdir = fmpy.extract(str(path), unzipdir=str(tmp_path_factory.mktemp("rigid-body-joint-" + request.param)))
    return request.param, unzipdir, fmpy.read_model_description(unzipdir)


def pendulum(theta, inertia=(0.0,) * 6, **more):
    """A 1 kg body on a hinge about y through the origin, its centre D below the pivot turned by theta."""
    return {"joint.kind": REVOLUTE, "joint.axis": [0.0, 1.0, 0.0], "inertia": list(inertia),
            "r_0_start": [D * math.sin(theta), 0.0, -D * math.cos(theta)], **more}


OUT = names("r_0", 3) + names("v_0", 3) + names("w_0", 3) + ["energy"] + names("joint.f_0", 3) + names("joint.t_0", 3)


def run(body, parameters, steps, h, inputs=None):
    """Co-simulation: the outputs OUT after initialisation and after each step (rows)."""
    _, unzipdir, md = body
    slave = Slave(unzipdir, md)
    try:
        slave.initialize(expand(parameters), expand(inputs or {}))
        rows = [slave.get_vector(OUT)]
        for k in range(steps):
            slave.do_step(k * h, h)
            rows.append(slave.get_vector(OUT))
    finally:
        slave.free()
    return np.array(rows)


def crossings(t, x):
    """Upward zero crossings of x(t), linearly interpolated."""
    i = np.nonzero((x[:-1] < 0) & (x[1:] >= 0))[0]
    return t[i] + (t[i + 1] - t[i]) * (-x[i]) / (x[i + 1] - x[i])


def period(t, x):
    c = crossings(t, x)
    assert len(c) >= 3, c
    return (c[-1] - c[0]) / (len(c) - 1)


@pytest.mark.parametrize("inertia, i_c", [((0.0,) * 6, 0.0), ((0.02, 0.03, 0.01, 0, 0, 0), 0.03)])
def test_small_angle_period_is_the_closed_form(body, inertia, i_c):
    h = 1e-3
    rows = run(body, pendulum(-0.01, inertia, **{"solver.max_step": 1e-4}), 6000, h)
    expected = 2 * math.pi * math.sqrt((D * D + i_c) / (G * D))
    measured = period(h * np.arange(len(rows)), rows[:, 0])
    assert measured == pytest.approx(expected, rel=2e-5)


def test_swinging_energy_is_conserved_to_second_order_on_its_circle(body):
    errors = []
    for max_step in (2e-3, 1e-3):
        rows = run(body, pendulum(1.0, **{"solver.max_step": max_step}), 1000, 0.01)
        e = rows[:, 9]
        errors.append(np.max(np.abs(e / e[0] - 1)))
        np.testing.assert_allclose(np.linalg.norm(rows[:, 0:3], axis=1), D, rtol=0, atol=1e-13)
        assert np.all(rows[:, 1] == 0.0)
    assert errors[0] < 1e-4
    assert errors[0] / errors[1] == pytest.approx(4.0, rel=0.1)


def tension_check(rows, atol):
    """The reaction of a point mass's rod: along it, m g cos(angle) + m v^2 / d, and no torque."""
    r, v, f, t = rows[:, 0:3], rows[:, 3:6], rows[:, 10:13], rows[:, 13:16]
    angle = np.arctan2(r[:, 0], -r[:, 2])
    tension = G * np.cos(angle) + np.sum(v * v, axis=1) / D
    np.testing.assert_allclose(f, -r / D * tension[:, None], rtol=0, atol=atol)
    np.testing.assert_allclose(t, 0.0, rtol=0, atol=1e-12)


def test_the_rods_reaction_is_the_tension_with_no_torque(body):
    rows = run(body, pendulum(-math.pi / 3, **{"solver.max_step": 1e-4}), 1000, 1e-3)
    tension_check(rows, 1e-9)
    # At the bottom (largest speed), m g + m v^2 / d with v^2 = 2 g d (1 - cos 60 deg).
    bottom = np.argmax(np.sum(rows[:, 3:6] ** 2, axis=1))
    assert rows[bottom, 12] == pytest.approx(G + G, rel=1e-4)


def test_a_prismatic_slide_down_an_inclined_axis_is_exact(body):
    alpha = math.radians(30)
    u = np.array([math.cos(alpha), 0.0, -math.sin(alpha)])
    r0 = np.array([1.0, 2.0, 3.0])
    torque = [0.5, -1.0, 2.0]
    rows = run(body, {"joint.kind": PRISMATIC, "joint.axis": list(u), "joint.pivot": list(r0), "r_0_start": list(r0),
                      "mass": 3.0}, 100, 0.01, {"t_0": torque})
    t = 0.01 * np.arange(len(rows))[:, None]
    a = G * math.sin(alpha)
    np.testing.assert_allclose(rows[:, 0:3], r0 + u * a * t * t / 2, rtol=0, atol=1e-12)
    np.testing.assert_allclose(rows[:, 3:6], u * a * t, rtol=0, atol=1e-12)
    assert np.all(rows[:, 6:9] == 0.0)
    gravity = np.array([0, 0, -G]) * 3.0
    np.testing.assert_allclose(rows[:, 10:13], np.tile(-(gravity - u * (u @ gravity)), (len(rows), 1)), atol=1e-12)
    np.testing.assert_allclose(rows[:, 13:16], np.tile(-np.array(torque), (len(rows), 1)), atol=0)


def unpack(upper):
    phi = np.zeros((6, 6))
    phi[np.triu_indices(6)] = upper
    return phi + np.triu(phi, 1).T


@pytest.mark.parametrize("kind", [FREE, REVOLUTE, PRISMATIC])
def test_a_short_impulse_changes_the_twist_by_the_mobility_times_it(body, kind):
    _, unzipdir, md = body
    impulse, dt = np.array([3.0, -2.0, 5.0, -0.4, 0.7, 0.2]), 1e-7
    slave = Slave(unzipdir, md)
    try:
        slave.initialize(expand({"joint.kind": kind, "mass": 2.0, "inertia": [0.3, 0.4, 0.5, 0.01, -0.02, 0.03],
                                 "gravity": [0.0, 0.0, 0.0], "joint.pivot": [0.1, 0.5, -0.2], "joint.axis": [1.0, 2.0, -0.5],
                                 "r_0_start": [0.3, -0.2, 0.4], "q_start": [0.9, 0.1, -0.3, 0.2]}), {})
        twist = names("v_0", 3) + names("w_0", 3)
        phi = unpack(slave.get_vector(names("mobility", 21)))
        before = slave.get_vector(twist)
        slave.set(expand({"f_0": impulse[:3] / dt, "t_0": impulse[3:] / dt}))
        slave.do_step(0.0, dt)
        change = slave.get_vector(twist) - before
    finally:
        slave.free()
    np.testing.assert_allclose(change, phi @ impulse, rtol=0, atol=1e-5 * np.linalg.norm(phi @ impulse))
    if kind == FREE:
        np.testing.assert_allclose(phi[:3, :3], np.eye(3) / 2.0, rtol=1e-15)


@pytest.mark.parametrize("theta_deg", [0, 30, 60])
def test_a_pendulum_shows_m_over_cos_squared_to_a_push_at_an_angle_to_its_path(body, theta_deg):
    _, unzipdir, md = body
    slave = Slave(unzipdir, md)
    try:
        slave.initialize(expand(pendulum(0.3)), {})
        slave.do_step(0.0, 0.05)
        r = slave.get_vector(names("r_0", 3))
        phi = unpack(slave.get_vector(names("mobility", 21)))
    finally:
        slave.free()
    path = np.cross([0.0, 1.0, 0.0], r) / D
    theta = math.radians(theta_deg)
    n = path * math.cos(theta) + r / D * math.sin(theta)
    g = np.concatenate([n, np.zeros(3)])  # the push at the mass: no moment about it
    assert 1.0 / (g @ phi @ g) == pytest.approx(1.0 / math.cos(theta) ** 2, rel=1e-12)


def simulate_me(version, start_values, stop, interval, tolerance=1e-10, inputs=None):
    values = expand(start_values) | expand(inputs or {})
    return simulate_fmu(str(body_path(version)), fmi_type="ModelExchange", solver="CVode", start_time=0.0, stop_time=stop,
                        output_interval=interval, relative_tolerance=tolerance, start_values=values, output=OUT,
                        validate=True)


def columns(result, start, n):
    return np.column_stack([result[name] for name in OUT[start:start + n]])


@pytest.mark.parametrize("version", ["fmi2", "fmi3"])
def test_model_exchange_pendulum_under_cvode(version):
    # The small-angle period, of a point mass and of a body with 0.03 kg.m2 about the axis (its
    # orientation turns with it, so the angle comes from q at the events' projection).
    result = simulate_me(version, pendulum(-0.01), stop=6.0, interval=1e-3)
    assert period(result["time"], result["r_0[1]"]) == pytest.approx(2 * math.pi * math.sqrt(D / G), rel=2e-5)
    result = simulate_me(version, pendulum(-0.01, (0.02, 0.03, 0.01, 0, 0, 0)), stop=6.0, interval=1e-3)
    expected = 2 * math.pi * math.sqrt((D * D + 0.03) / (G * D))
    assert period(result["time"], result["r_0[1]"]) == pytest.approx(expected, rel=2e-5)
    # A large swing: energy to the tolerance, on its circle, the rod's tension at every point.
    result = simulate_me(version, pendulum(-math.pi / 3), stop=5.0, interval=1e-2)
    rows = np.column_stack([result[name] for name in OUT])
    e = rows[:, 9]
    # CVode's global error at rtol 1e-10: measured 1.4e-7 of |E| = 2.45 J after 5 s, a slow drift.
    assert np.max(np.abs(e / e[0] - 1)) < 1e-6
    # The outputs are the nearest state on the joint: on the circle to round-off.
    np.testing.assert_allclose(np.linalg.norm(rows[:, 0:3], axis=1), D, rtol=0, atol=1e-15)
    tension_check(rows, 1e-5)


@pytest.mark.parametrize("version", ["fmi2", "fmi3"])
def test_model_exchange_pendulum_at_a_loose_tolerance_stays_on_its_circle(version):
    # At rtol 1e-6 over 10 s (about 7 swings) the state drifts by CVode's error alone, below the
    # projection bound (no event): the energy error is CVode's, 3.3e-4 measured.
    result = simulate_me(version, pendulum(-math.pi / 3), stop=10.0, interval=1e-2, tolerance=1e-6)
    rows = np.column_stack([result[name] for name in OUT])
    assert np.max(np.abs(rows[:, 9] / rows[0, 9] - 1)) < 1e-3
    np.testing.assert_allclose(np.linalg.norm(rows[:, 0:3], axis=1), D, rtol=0, atol=1e-15)
    tension_check(rows, 1e-3)


@pytest.mark.parametrize("version", ["fmi2", "fmi3"])
def test_model_exchange_prismatic_slide_under_cvode(version):
    alpha = math.radians(30)
    u = np.array([math.cos(alpha), 0.0, -math.sin(alpha)])
    result = simulate_me(version, {"joint.kind": PRISMATIC, "joint.axis": list(u), "mass": 3.0, "r_0_start": [0.0, 0.0, 0.0]}, stop=1.0, interval=0.01,
                         inputs={"t_0": [0.5, -1.0, 2.0]})
    t = result["time"][:, None]
    a = G * math.sin(alpha)
    np.testing.assert_allclose(columns(result, 0, 3), u * a * t * t / 2, rtol=0, atol=1e-8)
    np.testing.assert_allclose(columns(result, 6, 3), 0.0, atol=0)
