"""Early return at contact onset (FMI 3.0) and input derivatives (FMI 2.0) through FMPy.

- the sphere drop coupled with RigidBody: the early return lands on the onset and the
  restitution error is many times smaller than without (per onset phase, see below);
- FMPy's simulate_fmu with early_return_allowed (with and without event mode) returns early at
  the onset of a prescribed approach;
- FMI 2: input derivatives, from FMU2Slave.setRealInputDerivatives and from simulate_fmu's
  set_input_derivatives, make the ElasticCone follow its closed form where held inputs lag.

The drop (scenarios/sphere_drop.toml): a 1 kg ball of radius 0.05 m released at rest with its
lowest point 0.5 m above the plane meets it at v0 = sqrt(2 g h) = 3.132 m/s after
t* = sqrt(2 h / g) = 0.3193 s. Contact: LinearSpringDamper k = 1e6 N/m, b = 200 N.s/m (a hard
contact: omega = 1000 rad/s, zeta = 0.1, about 3 ms long), no friction. Closed-form restitution of
the clipped law: e = 0.7440794 (see the scenario file).

The master (below) couples the ContactForce and RigidBody FMI 3.0 FMUs explicitly: at each
communication point it sets the ball's state into the contact, reads the force, steps the contact
and then the ball with that force held. Its step policy, the same with and without early return,
is Adams-like: a communication step of H = 1 ms while the contact carries no force, and of
H / 100 while it does. Without early return the step that jumps over the onset lets the ball sink
up to v0 H = 3 mm (as deep as the whole impact goes) before the first force is seen; with early
return the contact FMU ends that step at the predicted onset and the master steps the ball only
that far.
"""

from __future__ import annotations

import math

import fmpy
import numpy as np
import pytest
from fmpy.fmi2 import FMU2Slave
from fmpy.fmi3 import FMU3Slave

from conftest import fmu_dir, fmu_path_for

G = 9.81
RADIUS = 0.05
HEIGHT = 0.5  # lowest point above the plane at release
E_CLOSED_FORM = 0.7440793977217797
H = 1e-3
H_CONTACT = 1e-5

# Enumeration values (interface.md; physics.md).
LINEAR_SPRING_DAMPER = 1
FRICTION_NONE = 1
ELASTIC_CONE = 6


def names(base, n):
    return [f"{base}[{i + 1}]" for i in range(n)]


INPUT_NAMES = [x for frame in ("frame_a", "frame_b") for base, n in [("r_0", 3), ("q", 4), ("v_0", 3), ("w_0", 3)] for x in names(f"{frame}.{base}", n)]


class Fmu3:
    """An FMI 3.0 co-simulation instance addressed by variable name."""

    def __init__(self, path, tmp_path_factory, early_return=False, event_mode=False):
        unzipdir = fmpy.extract(str(path), unzipdir=str(tmp_path_factory.mktemp(path.stem)))
        md = fmpy.read_model_description(unzipdir)
        self.md = md
        self.vr = {v.name: v.valueReference for v in md.modelVariables}
        self.fmu = FMU3Slave(
            guid=md.guid, unzipDirectory=unzipdir, modelIdentifier=md.coSimulation.modelIdentifier, instanceName=path.stem
        )
        self.fmu.instantiate(earlyReturnAllowed=early_return, eventModeUsed=event_mode)

    def set(self, values: dict):
        for name, value in values.items():
            if isinstance(value, (list, tuple, np.ndarray)):
                self.fmu.setFloat64([self.vr[n] for n in names(name, len(value))], [float(x) for x in value])
            elif isinstance(value, int):
                self.fmu.setInt64([self.vr[name]], [value])
            else:
                self.fmu.setFloat64([self.vr[name]], [float(value)])

    def get(self, name, n=None):
        if n is None:
            return self.fmu.getFloat64([self.vr[name]])[0]
        return np.array(self.fmu.getFloat64([self.vr[x] for x in names(name, n)]))

    def initialize(self, parameters):
        self.set(parameters)
        self.fmu.enterInitializationMode(startTime=0.0)
        self.fmu.exitInitializationMode()

    def free(self):
        self.fmu.terminate()
        self.fmu.freeInstance()


def drop(tmp_path_factory, early_return, height, stop_time=0.5):
    """Runs the drop from `height` with the master policy of the module docstring. Returns the
    restitution max(v_z) / v0, the times of the early returns and what the contact FMU saw before each one
    (time, centre height, vertical speed)."""
    contact = Fmu3(fmu_path_for("fmi3"), tmp_path_factory, early_return=early_return)
    ball = Fmu3(fmu_dir() / "RigidBody-fmi3.fmu", tmp_path_factory)
    contact.initialize(
        {
            "geometry_b.radius": RADIUS,
            "normal.law": LINEAR_SPRING_DAMPER,
            "normal.stiffness": 1e6,
            "normal.damping": 200.0,
            "friction.law": FRICTION_NONE,
        }
    )
    ball.initialize(
        {"mass": 1.0, "inertia": [1e-3, 1e-3, 1e-3, 0, 0, 0], "gravity": [0, 0, -G], "r_0_start": [0, 0, height + RADIUS]}
    )
    t = 0.0
    v_max = -math.inf
    early_returns = []
    active_vr = contact.vr["contact.active"]
    try:
        while t < stop_time:
            state = {name: ball.get(name, n) for name, n in [("r_0", 3), ("q", 4), ("v_0", 3), ("w_0", 3)]}
            contact.set({f"frame_b.{name}": value for name, value in state.items()})
            active = contact.fmu.getBoolean([active_vr])[0]
            force, torque = contact.get("frame_b.f_0", 3), contact.get("frame_b.t_0", 3)
            step = H_CONTACT if active else H
            _, _, early, last = contact.fmu.doStep(currentCommunicationPoint=t, communicationStepSize=step)
            if early:
                early_returns.append((last, t, state["r_0"][2], state["v_0"][2]))
                step = last - t
            ball.set({"f_0": force, "t_0": torque})
            ball.fmu.doStep(currentCommunicationPoint=t, communicationStepSize=step)
            t += step
            v_max = max(v_max, ball.get("v_0", 3)[2])
    finally:
        contact.free()
        ball.free()
    return v_max / math.sqrt(2 * G * height), early_returns


def check_drop(tmp_path_factory, height):
    """Both runs from `height`; checks the early return's time and returns the restitution
    errors (without, with early return)."""
    v0, t_onset = math.sqrt(2 * G * height), math.sqrt(2 * height / G)
    e_plain, early_plain = drop(tmp_path_factory, False, height)
    e_early, early_returns = drop(tmp_path_factory, True, height)
    assert early_plain == []
    # One early return, in the step that holds the onset ...
    assert len(early_returns) == 1, early_returns
    last, t, z, v_z = early_returns[0]
    assert t < t_onset < t + H
    # ... at the time the contact predicts from the ball's state at t (constant velocity) ...
    assert abs(last - (t + (z - RADIUS) / -v_z)) <= 1e-12 * last, (last, t, z, v_z)
    # ... which is the true onset but for the gravity the constant-velocity extrapolation leaves
    # out over less than one step: g tau^2 / (2 v0) < 1.6e-6 s.
    assert abs(last - t_onset) <= G * H**2 / (2 * v0), (last, t_onset)
    errors = abs(e_plain - E_CLOSED_FORM), abs(e_early - E_CLOSED_FORM)
    print(f"\nheight {height:.6f} m, onset at {(t_onset % H) / H:.3f} of its step: restitution without early return "
          f"{e_plain:.6f} (error {errors[0]:.2e}), with {e_early:.6f} (error {errors[1]:.2e}), ratio {errors[0] / errors[1]:.1f}")
    return errors


def test_early_return_lands_on_the_onset_and_cuts_the_restitution_error_of_the_drop(tmp_path_factory):
    """The scenario's drop (0.5 m): its onset falls at 0.28 of a 1 ms step."""
    error_plain, error_early = check_drop(tmp_path_factory, HEIGHT)
    assert error_early * 10 <= error_plain
    assert error_early < 0.01


def test_early_return_error_is_independent_of_where_the_onset_falls_in_the_step(tmp_path_factory):
    """Onsets spread over the step. Without early return the error depends on how deep the ball
    sinks before the first force: from 0.43 for an onset just after a communication point down
    to 0.01 for one just before the next (then the grid happens to meet the onset); with early
    return it stays at 0.005 (the coupling error of the 10 us contact steps). On average over
    the phases it is more than ten times smaller."""
    errors = []
    for phase in np.arange(0.05, 1.0, 0.1):
        t_onset = (0.319 + phase * H)
        errors.append(check_drop(tmp_path_factory, 0.5 * G * t_onset**2))
    plain, early = np.array(errors).T
    assert np.ptp(early) < 5e-4, early
    assert np.mean(early) * 10 <= np.mean(plain), (np.mean(plain), np.mean(early))
    # Onsets in the first three quarters of a step: ten times smaller each.
    assert np.all(early[:7] * 10 <= plain[:7]), plain / early


def test_fmpy_simulate_fmu_returns_early_at_the_onset_of_a_prescribed_approach(fmu3_path):
    """FMPy's own co-simulation loop with early return (and with event mode) on the contact FMU
    alone: the sphere (radius 0.1, the default) comes down at 1 m/s from 10.5 mm above the plane."""
    t = np.array([0.0, 0.05])
    # Every input (FMPy warns about a missing one): A at rest at the origin, B coming down.
    signals = np.zeros(2, dtype=[("time", np.double)] + [(name, np.double) for name in INPUT_NAMES])
    signals["time"] = t
    signals["frame_a.q[1]"] = signals["frame_b.q[1]"] = 1.0
    signals["frame_b.r_0[3]"] = 0.1 + 0.0105 - 1.0 * t
    signals["frame_b.v_0[3]"] = -1.0
    onset = 0.0105
    for use_event_mode in (False, True):
        result = fmpy.simulate_fmu(
            str(fmu3_path),
            stop_time=0.02,
            output_interval=1e-3,
            input=signals,
            early_return_allowed=True,
            use_event_mode=use_event_mode,
            output=["contact.separation", "contact.normal_force"],
        )
        times = result["time"]
        # A row at the onset, between the regular points 0.010 and 0.011, and none elsewhere
        # (with event mode FMPy records the onset twice: after the step and after the event).
        extra = sorted({x for x in times if abs(x / 1e-3 - round(x / 1e-3)) > 1e-6})
        assert len(extra) == 1, extra
        assert abs(extra[0] - onset) <= 1e-12 * onset, extra[0]
        if use_event_mode:
            # After the event FMPy sets the inputs of the onset time: the geometries touch.
            assert abs(result[times == extra[0]][-1]["contact.separation"]) < 1e-12
        # Outputs belong to the inputs FMPy set at the start of each step: no force up to the
        # step that starts at the onset, force from the next one on.
        assert np.all(result["contact.normal_force"][times <= 0.011 + 1e-9] < 1e-6)
        assert np.all(result["contact.normal_force"][times > 0.0115] > 0.0)
    # Without early return FMPy steps over the onset.
    plain = fmpy.simulate_fmu(str(fmu3_path), stop_time=0.02, output_interval=1e-3, input=signals, output=["contact.separation"])
    assert not any(abs(x - onset) < 1e-9 for x in plain["time"])


def test_fmi2_input_derivatives_move_the_elastic_cone_along_the_interpolated_speed(fmu2_path, tmp_path_factory):
    """ElasticCone sticking with a sphere 1 mm deep whose sliding speed ramps, v(t) = v0 + a t:
    its deflection is u(t) = v0 t + a t^2 / 2 and its force f_t = -sqrt(d) (Kt u + Dt v). Given the
    speed's derivative through FMU2Slave.setRealInputDerivatives, the FMU follows this closed form
    with communication steps of 10 ms; with the speed held over each step it lags by a t h / 2."""
    unzipdir = fmpy.extract(str(fmu2_path), unzipdir=str(tmp_path_factory.mktemp("fmi2")))
    md = fmpy.read_model_description(unzipdir)
    assert md.coSimulation.canInterpolateInputs
    vr = {v.name: v.valueReference for v in md.modelVariables}
    kt, dt, depth, v0, a, h = 1e5, 1.0, 1e-3, 0.1, 10.0, 1e-2

    def run(with_derivatives):
        fmu = FMU2Slave(guid=md.guid, unzipDirectory=unzipdir, modelIdentifier=md.coSimulation.modelIdentifier, instanceName="cone")
        fmu.instantiate()
        fmu.setupExperiment(startTime=0.0)
        fmu.setInteger([vr["friction.law"]], [ELASTIC_CONE])
        for name, value in [("friction.mu_static", 0.5), ("friction.mu_dynamic", 0.5), ("friction.stiffness", kt),
                            ("friction.damping", dt), ("solver.max_step", 1e-4)]:
            fmu.setReal([vr[name]], [value])
        fmu.enterInitializationMode()
        fmu.exitInitializationMode()
        forces = []
        try:
            for k in range(5):
                t = k * h
                fmu.setReal([vr["frame_b.r_0[3]"], vr["frame_b.v_0[1]"]], [0.1 - depth, v0 + a * t])
                if with_derivatives:
                    fmu.setRealInputDerivatives([vr["frame_b.v_0[1]"]], [1], [a])
                fmu.doStep(currentCommunicationPoint=t, communicationStepSize=h)
                # Read at the end-of-step speed, which the master sets as the next input.
                fmu.setReal([vr["frame_b.v_0[1]"]], [v0 + a * (t + h)])
                forces.append(fmu.getReal([vr["frame_b.f_0[1]"]])[0])
        finally:
            fmu.terminate()
            fmu.freeInstance()
        return np.array(forces)

    times = h * np.arange(1, 6)
    closed_form = -math.sqrt(depth) * (kt * (v0 * times + a * times**2 / 2) + dt * (v0 + a * times))
    interpolated, held = run(True), run(False)
    np.testing.assert_allclose(interpolated, closed_form, rtol=1e-9)
    # Held: the deflection lags by a t h / 2, a tenth or more of it here.
    lag = np.abs(held - closed_form) / np.abs(closed_form)
    assert np.all(lag > 0.05), lag


def test_fmpy_simulate_fmu_with_set_input_derivatives_follows_the_closed_form(fmu2_path):
    """The same ramp through FMPy's own loop: simulate_fmu(set_input_derivatives=True) sets the
    slope of the input table with fmi2SetRealInputDerivatives before every step. (FMPy 0.3.32
    sizes its derivative buffer for nine inputs, so exactly nine are given: B's r_0, v_0, w_0.)"""
    kt, dt, depth, v0, a, h = 1e5, 1.0, 1e-3, 0.1, 10.0, 1e-2
    # The table starts before t = 0: at its first row FMPy holds the value with a zero slope.
    t = np.array([-h, 0.06])
    inputs = names("frame_b.r_0", 3) + names("frame_b.v_0", 3) + names("frame_b.w_0", 3)
    signals = np.zeros(2, dtype=[("time", np.double)] + [(name, np.double) for name in inputs])
    signals["time"] = t
    signals["frame_b.r_0[1]"] = v0 * t  # the force on the plane does not depend on x
    signals["frame_b.r_0[3]"] = 0.1 - depth
    signals["frame_b.v_0[1]"] = v0 + a * t
    start = {"friction.law": ELASTIC_CONE, "friction.mu_static": 0.5, "friction.mu_dynamic": 0.5, "friction.stiffness": kt,
             "friction.damping": dt, "solver.max_step": 1e-4}
    runs = {
        derivatives: fmpy.simulate_fmu(str(fmu2_path), stop_time=0.05, output_interval=h, input=signals, start_values=start,
                                       set_input_derivatives=derivatives, output=["frame_b.f_0[1]", "frame_b.v_0[1]"])
        for derivatives in (True, False)
    }
    result = runs[True]
    times = result["time"][1:]
    np.testing.assert_allclose(result["frame_b.v_0[1]"][1:], v0 + a * times, rtol=1e-12)
    closed_form = -math.sqrt(depth) * (kt * (v0 * times + a * times**2 / 2) + dt * (v0 + a * times))
    np.testing.assert_allclose(result["frame_b.f_0[1]"][1:], closed_form, rtol=1e-9)
    held = runs[False]["frame_b.f_0[1]"][1:]
    assert np.all(np.abs(held - closed_form) > 0.05 * np.abs(closed_form))
