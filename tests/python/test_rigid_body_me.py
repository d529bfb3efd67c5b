"""RigidBody as a Model Exchange FMU, both FMI versions: its thirteen continuous states (r, q, v,
w) integrated by FMPy's CVode against closed forms, and the two Model Exchange FMUs (ContactForce
and RigidBody) integrated together by one integrator written here, without a communication step.

- free fall with a spin: r = r0 + v0 t + g t^2 / 2, v = v0 + g t, and the rotation about z of a
  body with equal principal moments, q = (cos(w t / 2), 0, 0, sin(w t / 2));
- torque-free tumbling of an asymmetric body (three different moments about tilted axes): the
  world angular momentum I_W w and the kinetic energy stay constant, the output quaternion is
  unit, and the motion is the co-simulation integrator's (the same conventions);
- the sphere drop of scenarios/sphere_drop.toml with both FMUs in one adaptive Runge-Kutta
  integrator: the restitution within 0.5 % of the clipped closed form 0.7440794.
"""

from __future__ import annotations

import math
import pathlib
from ctypes import POINTER, c_double

import fmpy
import numpy as np
import pytest
from fmpy import simulate_fmu

import libcosim_run
from conftest import REPO, fmu_dir
from enumerations import enumeration_variables

G = 9.81


def body_path(version: str) -> pathlib.Path:
    path = fmu_dir() / f"RigidBody-{version}.fmu"
    if not path.is_file():
        pytest.fail(f"{path} does not exist: run `cargo xtask fmu` first", pytrace=False)
    return path


def names(base: str, n: int) -> list[str]:
    return [f"{base}[{i + 1}]" for i in range(n)]


def expand(values: dict) -> dict:
    """Array start values {"r_0_start": [a, b, c]} as FMPy's scalars {"r_0_start[1]": a, ...}."""
    out = {}
    for name, value in values.items():
        if isinstance(value, list):
            out |= dict(zip(names(name, len(value)), value))
        else:
            out[name] = value
    return out


OUTPUTS = names("r_0", 3) + names("q", 4) + names("v_0", 3) + names("w_0", 3) + ["energy"]


def simulate_me(version, start_values, stop, interval, tolerance=1e-10):
    return simulate_fmu(str(body_path(version)), fmi_type="ModelExchange", solver="CVode", start_time=0.0,
                        stop_time=stop, output_interval=interval, relative_tolerance=tolerance,
                        start_values=expand(start_values), output=OUTPUTS, validate=True)


def column(result, base, n):
    return np.column_stack([result[name] for name in names(base, n)])


def rotation_matrices(q: np.ndarray) -> np.ndarray:
    """R of each row (w, x, y, z) of q, normalised."""
    q = q / np.linalg.norm(q, axis=1, keepdims=True)
    w, x, y, z = q.T
    return np.stack([
        np.stack([1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y)], axis=-1),
        np.stack([2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x)], axis=-1),
        np.stack([2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y)], axis=-1),
    ], axis=1)


@pytest.mark.parametrize("version", ["fmi2", "fmi3"])
def test_model_description_declares_model_exchange_with_thirteen_states(version, tmp_path):
    unzipdir = fmpy.extract(str(body_path(version)), unzipdir=str(tmp_path))
    md = fmpy.read_model_description(unzipdir)
    assert md.modelExchange is not None and md.coSimulation is not None
    states = [d.variable.derivative.name for d in md.derivatives]
    assert states == names("state.r_0", 3) + names("state.q", 4) + names("state.v_0", 3) + names("state.w_0", 3)
    assert fmpy.validation.validate_fmu(str(body_path(version))) == []


@pytest.mark.parametrize("version", ["fmi2", "fmi3"])
def test_free_fall_with_a_spin_under_cvode_is_the_closed_form(version):
    r0, v0, spin = np.array([0.1, -0.2, 1.0]), np.array([0.3, 0.2, 1.5]), 2.0
    result = simulate_me(version, {"r_0_start": list(r0), "v_0_start": list(v0), "w_0_start": [0.0, 0.0, spin]},
                         stop=1.0, interval=0.01)
    t = result["time"][:, None]
    g = np.array([0.0, 0.0, -G])
    assert t[-1, 0] == pytest.approx(1.0)
    np.testing.assert_allclose(column(result, "r_0", 3), r0 + v0 * t + 0.5 * g * t**2, rtol=0, atol=1e-8)
    np.testing.assert_allclose(column(result, "v_0", 3), v0 + g * t, rtol=0, atol=1e-8)
    half = spin * t[:, 0] / 2
    expected_q = np.column_stack([np.cos(half), 0 * half, 0 * half, np.sin(half)])
    np.testing.assert_allclose(column(result, "q", 4), expected_q, rtol=0, atol=1e-8)


# An asymmetric body: principal moments about 1.6, 2.1 and 2.6 kg.m2 about axes tilted against
# the body axes (the off-diagonal elements), a generic orientation and spin, no gravity (the
# energy output is then the kinetic energy alone).
INERTIA = [2.0, 2.5, 1.8, 0.3, -0.2, 0.1]
Q0 = list(np.array([0.9, 0.1, -0.3, 0.2]) / np.linalg.norm([0.9, 0.1, -0.3, 0.2]))
TUMBLING = {"inertia": INERTIA, "gravity": [0.0, 0.0, 0.0], "q_start": Q0, "w_0_start": [1.0, 1.5, -0.8]}


def inertia_tensor() -> np.ndarray:
    ixx, iyy, izz, ixy, ixz, iyz = INERTIA
    return np.array([[ixx, ixy, ixz], [ixy, iyy, iyz], [ixz, iyz, izz]])


@pytest.mark.parametrize("version", ["fmi2", "fmi3"])
def test_torque_free_tumbling_under_cvode_conserves_momentum_and_energy(version):
    result = simulate_me(version, TUMBLING, stop=10.0, interval=0.01)
    q, w = column(result, "q", 4), column(result, "w_0", 3)
    r = rotation_matrices(q)
    momentum = np.einsum("nij,jk,nlk,nl->ni", r, inertia_tensor(), r, w)
    energy = 0.5 * np.einsum("ni,ni->n", w, momentum)
    # It tumbles: the angular velocity turns in the body frame (0.5 rad at least), far from a
    # steady spin about a principal axis.
    w_body = np.einsum("nji,nj->ni", r, w)
    turn = np.arccos(np.clip(w_body @ w_body[0] / (np.linalg.norm(w_body, axis=1) * np.linalg.norm(w_body[0])), -1, 1))
    assert turn.max() > 0.5, f"the angular velocity turned by {turn.max():.3f} rad in the body frame"
    l0 = momentum[0]
    assert np.abs(momentum - l0).max() <= 1e-7 * np.linalg.norm(l0), "world angular momentum"
    assert np.abs(energy / energy[0] - 1).max() <= 1e-7, "kinetic energy"
    np.testing.assert_allclose(result["energy"], energy, rtol=1e-12)
    np.testing.assert_allclose(np.linalg.norm(q, axis=1), 1.0, rtol=0, atol=1e-14)


@pytest.mark.parametrize("version", ["fmi2", "fmi3"])
def test_tumbling_under_cvode_is_the_co_simulation_integrators_motion(version):
    """The same body in both interfaces of the same FMU: the splitting integrator at 1e-4 s
    sub-steps and CVode at a relative tolerance of 1e-10 (measured: 9e-10 apart in q, 2e-9 rad/s
    in w over 2 s). A difference of convention (the frame of w, the order of a quaternion
    product, I against I_W) would be of the order of the motion."""
    me = simulate_me(version, TUMBLING, stop=2.0, interval=0.01)
    cs = simulate_fmu(str(body_path(version)), fmi_type="CoSimulation", start_time=0.0, stop_time=2.0,
                      output_interval=0.01, start_values=expand(TUMBLING | {"solver.max_step": 1e-4}),
                      output=OUTPUTS, validate=False)
    assert len(me["time"]) == len(cs["time"])
    np.testing.assert_allclose(me["time"], cs["time"], atol=1e-12)
    for base, n in (("q", 4), ("w_0", 3)):
        a, b = column(me, base, n), column(cs, base, n)
        assert np.abs(a - b).max() < 1e-7, f"{base}: {np.abs(a - b).max():.3g}"


# ---------------------------------------------------------------------------------------------
# Both Model Exchange FMUs in one integrator


class ModelExchange:
    """One Model Exchange instance through FMPy's FMU2Model / FMU3Model, for the integrator below."""

    def __init__(self, path: pathlib.Path, folder: pathlib.Path, name: str, parameters: dict):
        from fmpy.fmi2 import FMU2Model
        from fmpy.fmi3 import FMU3Model

        unzipdir = fmpy.extract(str(path), unzipdir=str(folder / name))
        md = fmpy.read_model_description(unzipdir)
        self.fmi3 = md.fmiVersion.startswith("3")
        self.vr = {v.name: v.valueReference for v in md.modelVariables}
        self.nx, self.nz = len(md.derivatives), md.numberOfEventIndicators
        kind = FMU3Model if self.fmi3 else FMU2Model
        self.fmu = kind(guid=md.guid, unzipDirectory=unzipdir, modelIdentifier=md.modelExchange.modelIdentifier,
                        instanceName=name)
        self.fmu.instantiate()
        if self.fmi3:
            self.fmu.enterInitializationMode(startTime=0.0)
        else:
            self.fmu.setupExperiment(startTime=0.0)
            self.fmu.enterInitializationMode()
        items = enumeration_variables(path)
        for key, value in expand(parameters).items():
            if key in items:
                value = items[key][value] if isinstance(value, str) else value
                (self.fmu.setInt64 if self.fmi3 else self.fmu.setInteger)([self.vr[key]], [int(value)])
            else:
                self.set([key], [value])
        self.x, self.dx, self.z = np.zeros(self.nx), np.zeros(self.nx), np.zeros(max(self.nz, 1))
        self.px, self.pdx, self.pz = (a.ctypes.data_as(POINTER(c_double)) for a in (self.x, self.dx, self.z))

    def set(self, keys, values):
        (self.fmu.setFloat64 if self.fmi3 else self.fmu.setReal)([self.vr[k] for k in keys], [float(v) for v in values])

    def get(self, keys) -> np.ndarray:
        return np.array((self.fmu.getFloat64 if self.fmi3 else self.fmu.getReal)([self.vr[k] for k in keys]))

    def exit_initialization(self):
        self.fmu.exitInitializationMode()
        self.event_iteration()

    def event_iteration(self) -> bool:
        """Event Mode until the discrete states settle, then Continuous-Time Mode; true when the
        continuous states changed (the integrator must take them)."""
        changed = False
        while True:
            if self.fmi3:
                again, _, _, values_changed, _, _ = self.fmu.updateDiscreteStates()
            else:
                again, _, _, values_changed, _, _ = self.fmu.newDiscreteStates()
            changed |= bool(values_changed)
            if not again:
                break
        self.fmu.enterContinuousTimeMode()
        return changed

    def states(self) -> np.ndarray:
        self.fmu.getContinuousStates(self.px, self.nx)
        return self.x.copy()

    def set_states(self, t, x):
        self.fmu.setTime(t)
        self.x[:] = x
        self.fmu.setContinuousStates(self.px, self.nx)

    def derivatives(self) -> np.ndarray:
        (self.fmu.getContinuousStateDerivatives if self.fmi3 else self.fmu.getDerivatives)(self.pdx, self.nx)
        return self.dx.copy()

    def indicators(self) -> np.ndarray:
        if self.nz:
            self.fmu.getEventIndicators(self.pz, self.nz)
        return self.z[: self.nz].copy()

    def free(self):
        self.fmu.terminate()
        self.fmu.freeInstance()


BODY_OUT = names("r_0", 3) + names("q", 4) + names("v_0", 3) + names("w_0", 3)
FRAME_B = names("frame_b.r_0", 3) + names("frame_b.q", 4) + names("frame_b.v_0", 3) + names("frame_b.w_0", 3)
WRENCH_B = names("frame_b.f_0", 3) + names("frame_b.t_0", 3)
BODY_IN = names("f_0", 3) + names("t_0", 3)


class Coupled:
    """The ball and the contact as one system of ODEs: the ball's outputs are its states (no
    feedthrough), so an evaluation sets the ball's states, passes its outputs to frame_b, sets
    the contact's states, passes the contact's wrench to the ball, and reads both derivatives."""

    def __init__(self, ball: ModelExchange, contact: ModelExchange):
        self.ball, self.contact = ball, contact
        self.split = ball.nx

    def rhs(self, t, x) -> np.ndarray:
        self.ball.set_states(t, x[: self.split])
        self.contact.set_states(t, x[self.split:])
        self.contact.set(FRAME_B, self.ball.get(BODY_OUT))
        self.ball.set(BODY_IN, self.contact.get(WRENCH_B))
        return np.concatenate([self.ball.derivatives(), self.contact.derivatives()])


# Dormand-Prince 5(4): the tableau of Hairer, Norsett, Wanner, Solving ODEs I, table II.5.2.
C = np.array([0, 1 / 5, 3 / 10, 4 / 5, 8 / 9, 1, 1])
A = [[], [1 / 5], [3 / 40, 9 / 40], [44 / 45, -56 / 15, 32 / 9],
     [19372 / 6561, -25360 / 2187, 64448 / 6561, -212 / 729],
     [9017 / 3168, -355 / 33, 46732 / 5247, 49 / 176, -5103 / 18656],
     [35 / 384, 0, 500 / 1113, 125 / 192, -2187 / 6784, 11 / 84]]
B5 = np.array([35 / 384, 0, 500 / 1113, 125 / 192, -2187 / 6784, 11 / 84, 0])
B4 = np.array([5179 / 57600, 0, 7571 / 16695, 393 / 640, -92097 / 339200, 187 / 2100, 1 / 40])


def integrate(system: Coupled, x0, stop, rtol, atol, h=1e-4, h_max=1e-2, on_step=None):
    """Adaptive Dormand-Prince from 0 to `stop`. After each accepted step both FMUs hear of it
    (CompletedIntegratorStep) and Event Mode is entered where one asks for it or an event
    indicator changed sign (the contact's make/break: its law here is stateless, so the event
    changes nothing and is not located; the step control resolves the force's kink). `on_step`
    sees every accepted (t, x)."""
    t, x = 0.0, np.array(x0, dtype=float)
    members = (system.ball, system.contact)
    z = [m.indicators() for m in members]
    k1 = system.rhs(t, x)
    rejected = 0
    while t < stop:
        h = min(h, stop - t)
        k = [k1]
        for i in range(1, 7):
            k.append(system.rhs(t + C[i] * h, x + h * sum(a * kj for a, kj in zip(A[i], k))))
        x5 = x + h * sum(b * kj for b, kj in zip(B5, k))
        error = h * sum((b5 - b4) * kj for b5, b4, kj in zip(B5, B4, k))
        scale = atol + rtol * np.maximum(np.abs(x), np.abs(x5))
        norm = np.sqrt(np.mean((error / scale) ** 2))
        if norm > 1.0:
            rejected += 1
            h *= max(0.2, 0.9 * norm ** -0.2)
            continue
        t, x = t + h, x5
        system.rhs(t, x)  # the FMUs at the accepted point (the last stage was at t + h already)
        k1 = k[6]
        events = [m.fmu.completedIntegratorStep()[0] for m in members]
        z_new = [m.indicators() for m in members]
        crossed = [bool(np.any(np.sign(a) != np.sign(b))) for a, b in zip(z, z_new)]
        if any(events) or any(crossed):
            changed = False
            for m in members:
                m.fmu.enterEventMode()
                changed |= m.event_iteration()
            if changed:
                x = np.concatenate([system.ball.states(), system.contact.states()])
                k1 = system.rhs(t, x)
            z_new = [m.indicators() for m in members]
        z = z_new
        if on_step:
            on_step(t, x)
        h = min(h_max, h * min(5.0, 0.9 * max(norm, 1e-10) ** -0.2))
    return t, x, rejected


def clipped_linear_restitution(k, b, m):
    """cosim/tests/scenarios.rs, clipped_linear_restitution: the ball leaves when k d + b d'
    reaches 0."""
    a = b / (2 * m)
    w = math.sqrt(k / m - a * a)
    theta = math.atan2(b * w, -(k - b * a))
    return -math.exp(-a * theta / w) * (math.cos(theta) - a / w * math.sin(theta))


@pytest.mark.parametrize("version", ["fmi2", "fmi3"])
def test_sphere_drop_with_both_model_exchange_fmus_in_one_integrator(version, tmp_path):
    """scenarios/sphere_drop.toml's ball and contact (1 kg, radius 0.05 m, from 0.5 m, k = 1e6,
    b = 200, no friction) as Model Exchange FMUs in one adaptive integrator at rtol 1e-9: no
    communication step, so no force lag; the rebound speed over the impact speed is the clipped
    closed form within 0.5 % (gravity during the 3 ms contact lowers it by about 0.15 %)."""
    scenario = libcosim_run.load(REPO / "scenarios" / "sphere_drop.toml")
    ball_parameters = scenario["fmus"]["ball"]["parameters"]
    contact_parameters = libcosim_run.flatten(scenario["fmus"]["contact"]["parameters"])
    contact_path = fmu_dir() / f"ContactForce-{version}.fmu"
    ball = ModelExchange(body_path(version), tmp_path, "ball", ball_parameters)
    contact = ModelExchange(contact_path, tmp_path, "contact", contact_parameters)
    try:
        contact.set(FRAME_B, ball.get(BODY_OUT))
        ball.set(BODY_IN, contact.get(WRENCH_B))
        ball.exit_initialization()
        contact.exit_initialization()
        system = Coupled(ball, contact)
        x0 = np.concatenate([ball.states(), contact.states()])
        assert ball.nx == 13 and len(x0) == 13 + contact.nx
        radius = contact_parameters["geometry_b.radius"]
        fall = ball_parameters["r_0_start"][2] - radius
        v0 = math.sqrt(2 * G * fall)
        t_impact = v0 / G
        seen = {"t": [], "vz": [], "touching": []}

        def record(t, x):
            seen["t"].append(t)
            seen["vz"].append(x[9])
            seen["touching"].append(contact.get(["contact.normal_force"])[0] > 0)

        _, x, _ = integrate(system, x0, stop=t_impact + 0.01, rtol=1e-9, atol=1e-12, on_step=record)
    finally:
        ball.free()
        contact.free()
    touching = np.array(seen["touching"])
    assert touching.sum() >= 20, f"the contact was resolved by {touching.sum()} steps only"
    start = np.flatnonzero(touching)[0]
    assert seen["t"][start] == pytest.approx(t_impact, abs=1e-4)
    assert not touching[-1], "the ball has left the plane"
    k, b, m = contact_parameters["normal.stiffness"], contact_parameters["normal.damping"], ball_parameters["mass"]
    expected = clipped_linear_restitution(k, b, m)
    assert expected == pytest.approx(0.7440794, abs=5e-8)
    e = max(seen["vz"][start:]) / v0
    assert abs(e / expected - 1) < 0.005, f"e = {e:.6f} against the clipped closed form {expected:.7f}"


@pytest.mark.parametrize("version", ["fmi2", "fmi3"])
def test_a_drifted_quaternion_is_renormalised_in_event_mode_through_the_c_api(version, tmp_path):
    """What an importer's integrator meets when its errors have moved |q| off 1 (1e-2 here, ten
    times the bound of 1e-3): CompletedIntegratorStep asks for Event Mode, the event iteration
    reports that the continuous states changed, and q comes back unit along the same direction."""
    body = ModelExchange(body_path(version), tmp_path, "body", TUMBLING)
    try:
        body.exit_initialization()
        x = body.states()
        assert np.linalg.norm(x[3:7]) == pytest.approx(1.0, abs=4e-16)
        assert not bool(body.fmu.completedIntegratorStep()[0]), "a unit quaternion asks for no event"
        drifted = x.copy()
        drifted[3:7] *= 1 + 1e-2
        body.set_states(0.0, drifted)
        assert bool(body.fmu.completedIntegratorStep()[0]), "a drifted quaternion asks for Event Mode"
        body.fmu.enterEventMode()
        assert body.event_iteration(), "valuesOfContinuousStatesChanged"
        after = body.states()
        assert np.linalg.norm(after[3:7]) == pytest.approx(1.0, abs=4e-16)
        np.testing.assert_allclose(after[3:7], x[3:7], rtol=0, atol=1e-15)
        np.testing.assert_array_equal(np.delete(after, range(3, 7)), np.delete(drifted, range(3, 7)))
        assert not bool(body.fmu.completedIntegratorStep()[0])
    finally:
        body.free()


@pytest.mark.parametrize("version", ["fmi2", "fmi3"])
def test_tumbling_at_an_ordinary_tolerance_runs_without_renormalising_events(version):
    """At CVode's relative tolerance 1e-6 the state's |q| drifts by a few 1e-6 over 10 s, inside
    the bound of 1e-3, so no event restarts the integrator (each restart is a first-order step):
    measured, the world angular momentum then holds to 1.2e-5, where a bound of 1e-6 made an event
    at every output point and a drift of 1e-3."""
    result = simulate_fmu(str(body_path(version)), fmi_type="ModelExchange", solver="CVode", start_time=0.0,
                          stop_time=10.0, output_interval=0.01, relative_tolerance=1e-6,
                          start_values=expand(TUMBLING), output=OUTPUTS + names("state.q", 4), record_events=True)
    t = result["time"]
    assert np.count_nonzero(t[1:] == t[:-1]) == 0, "events (a time recorded twice)"
    drift = np.abs(np.linalg.norm(column(result, "state.q", 4), axis=1) - 1).max()
    assert 0 < drift < 1e-3, f"|q| drifted by {drift:.3g}"
    q, w = column(result, "q", 4), column(result, "w_0", 3)
    r = rotation_matrices(q)
    momentum = np.einsum("nij,jk,nlk,nl->ni", r, inertia_tensor(), r, w)
    assert np.abs(momentum - momentum[0]).max() <= 1e-4 * np.linalg.norm(momentum[0])
