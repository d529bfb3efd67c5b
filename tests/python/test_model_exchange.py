"""Model Exchange through FMPy's CVode on both packaged FMUs: contact events and stick/slip events.

Why: Model Exchange hands the integration to the importer; the FMU's event indicators must let the
integrator stop exactly where the contact starts and ends, and where a stateful friction point
breaks away, as spatial_v2's gcontact flags make/break and stick/slip. The motion is prescribed
(FMPy input tables, linear in time between rows, so the closed forms are exact):

- make/break: a sphere of radius R = 0.1 (geometry B) moving toward the default plane at constant
  speed, then back: it touches at t_make = (z0 - R) / v and leaves at t_break. The events FMPy
  records (a time recorded twice) must be within 1e-9 s of these closed-form times. With the
  Restitution law the onset speed frozen at the make event is the approach speed v, which the
  normal force shows: f_n = k d^n (1 + chi dd) with chi = 3 (1 - e) / (2 v) (Hunt-Crossley).
- stick/slip: the ElasticCone drag of test_stick_slip.py (a point held at depth d, dragged at v):
  it sticks until t* = (mu f_n / sqrt(d) - Dt v) / (Kt v), then slips with
  u(t) = (R - Dt v exp(-(Kt/Dt)(t - t*))) / Kt. The stick/slip event must be at t* and the
  integrated deflection must follow the closed form.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from fmpy import simulate_fmu

import test_stick_slip as drag

EVENT_TOLERANCE = 1e-9  # s

# The sphere: radius R, from z0 down at speed V until T_TURN, then back up at the same speed.
R = 0.1
Z0 = 0.3
V = 0.7
T_TURN = 0.4
STOP = 0.6
T_MAKE = (Z0 - R) / V
Z_TURN = Z0 - V * T_TURN
T_BREAK = T_TURN + (R - Z_TURN) / V

RESTITUTION = {
    "geometry_b.shape": 2,
    "geometry_b.radius": R,
    "normal.law": 7,
    "normal.stiffness": 1e6,
    "normal.exponent": 1.5,
    "normal.restitution": 0.5,
    "normal.restitution_model": 1,  # HuntCrossley
    "friction.law": 1,
}


def sphere_inputs():
    """z and its rate: down to T_TURN, a velocity jump there (a repeated time row), then up."""
    dtype = [("time", np.float64), ("frame_b.r_0[3]", np.float64), ("frame_b.v_0[3]", np.float64)]
    rows = [(0.0, Z0, -V), (T_TURN, Z_TURN, -V), (T_TURN, Z_TURN, V), (STOP, Z_TURN + V * (STOP - T_TURN), V)]
    return np.array(rows, dtype=dtype)


def event_times(result):
    """The times FMPy recorded twice: before and after each event."""
    t = result["time"]
    return [t[i] for i in range(1, len(t)) if t[i] == t[i - 1]]


def simulate(fmu_path, start_values, table, stop, output, relative_tolerance=1e-6, step=0.01):
    return simulate_fmu(
        str(fmu_path),
        fmi_type="ModelExchange",
        start_time=0.0,
        stop_time=stop,
        output_interval=step,
        relative_tolerance=relative_tolerance,
        start_values=start_values,
        input=table,
        output=output,
        validate=True,
    )


def test_the_contact_events_are_at_the_closed_form_make_and_break_times(fmu_path):
    result = simulate(
        fmu_path,
        RESTITUTION,
        sphere_inputs(),
        STOP,
        ["contact.separation", "contact.normal_force", "contact.point[1].indicator.separation", "contact.active"],
    )
    events = event_times(result)
    make = [t for t in events if abs(t - T_MAKE) < 1e-3]
    brk = [t for t in events if abs(t - T_BREAK) < 1e-3]
    assert len(make) == 1 and len(brk) == 1, f"events {events}, expected make {T_MAKE} and break {T_BREAK}"
    assert abs(make[0] - T_MAKE) <= EVENT_TOLERANCE, f"make event at {make[0]!r}, closed form {T_MAKE!r}"
    assert abs(brk[0] - T_BREAK) <= EVENT_TOLERANCE, f"break event at {brk[0]!r}, closed form {T_BREAK!r}"
    # Every other event is the input's velocity jump.
    others = [t for t in events if t not in make + brk]
    assert all(abs(t - T_TURN) < 1e-12 for t in others), f"unexpected events {others}"

    # The onset speed frozen at the make event is the approach speed V: the Hunt-Crossley
    # damping with chi = 3 (1 - e) / (2 V) on the way down, at the output points in contact.
    chi = 3 * (1 - 0.5) / (2 * V)
    down = (result["time"] > T_MAKE + 1e-6) & (result["time"] < T_TURN - 1e-6)
    assert np.count_nonzero(down) >= 5
    for t, f_n in zip(result["time"][down], result["contact.normal_force"][down]):
        depth = R - (Z0 - V * t)
        expected = 1e6 * depth**1.5 * (1 + chi * V)
        assert math.isclose(f_n, expected, rel_tol=1e-9), f"t = {t}: f_n {f_n} vs {expected}"
    # Apart, before the make and after the break, no force.
    apart = (result["time"] < T_MAKE - 1e-6) | (result["time"] > T_BREAK + 1e-6)
    assert np.all(result["contact.normal_force"][apart] == 0.0)
    assert np.all(~result["contact.active"][apart].astype(bool))


def drag_inputs(c, stop):
    dtype = [("time", np.float64), ("frame_b.r_0[1]", np.float64), ("frame_b.r_0[3]", np.float64), ("frame_b.v_0[1]", np.float64)]
    return np.array([(0.0, 0.0, -drag.DEPTH, c["v"]), (stop, c["v"] * stop, -drag.DEPTH, c["v"])], dtype=dtype)


def test_the_elastic_cone_breaks_away_at_the_closed_form_time_and_then_slips_as_the_reference(fmu_path):
    c = drag.CONE
    t_star = drag.cone_break_time(c)
    stop = 6.0
    result = simulate(
        fmu_path,
        c["params"],
        drag_inputs(c, stop),
        stop,
        ["contact.point[1].deflection[1]", "contact.point[1].indicator.stick", "contact.friction_force", "contact.sticking"],
        # u' = v is integrated exactly; the tolerance bounds the slip phase's error and the
        # event location (1.6e-12 s off with 1e-10; 8e-10 s with 1e-9).
        relative_tolerance=1e-10,
        step=0.05,
    )
    events = event_times(result)
    assert len(events) == 1, f"expected the one stick/slip event at {t_star}, got {events}"
    assert abs(events[0] - t_star) <= EVENT_TOLERANCE, f"stick/slip event at {events[0]!r}, closed form {t_star!r}"

    t = result["time"]
    u = result["contact.point[1].deflection[1]"]
    sticking = result["contact.sticking"].astype(bool)
    mu_f_n = c["mu"] * drag.cone_normal_force(c)
    for ti, ui, stick, friction in zip(t, u, sticking, result["contact.friction_force"]):
        expected = drag.cone_deflection(ti, c)
        assert math.isclose(ui, expected, rel_tol=1e-6, abs_tol=1e-12), f"t = {ti}: u {ui} vs {expected}"
        if ti < t_star - 1e-6:
            assert stick, f"t = {ti}: sticks until {t_star}"
            assert math.isclose(friction, drag.cone_trial_force(ti, c), rel_tol=1e-6)
        elif ti > t_star + 1e-6:
            assert not stick, f"t = {ti}: slips after {t_star}"
            assert math.isclose(friction, mu_f_n, rel_tol=1e-9), f"t = {ti}: |f_t| {friction} vs mu f_n {mu_f_n}"


def test_stiction_breaks_away_at_delta_over_v_sticks_again_on_reversal_and_breaks_away_backwards(fmu_path):
    """Stiction (test_stick_slip.STICTION): s = v t breaks away at t_b = delta / v (an event), slides at
    mu_d f_n; the drag reverses at T_REV (an input event: Event Mode sticks it again from the slipping
    deflection (mu_d / mu_s) delta), and it breaks away backwards when s = -delta, after
    (1 + mu_d / mu_s) delta / v more."""
    c = drag.STICTION
    v, delta = c["v"], c["delta"]
    t_rev, stop = 0.1, 0.3
    t_break = delta / v
    t_back = t_rev + (1 + c["mu_d"] / c["mu_s"]) * delta / v
    dtype = [("time", np.float64), ("frame_b.r_0[1]", np.float64), ("frame_b.r_0[3]", np.float64), ("frame_b.v_0[1]", np.float64)]
    x_rev = v * t_rev
    table = np.array(
        [(0.0, 0.0, -drag.DEPTH, v), (t_rev, x_rev, -drag.DEPTH, v), (t_rev, x_rev, -drag.DEPTH, -v), (stop, x_rev - v * (stop - t_rev), -drag.DEPTH, -v)],
        dtype=dtype,
    )
    result = simulate(fmu_path, c["params"], table, stop, ["contact.friction_force", "contact.point[1].deflection[1]"], relative_tolerance=1e-10, step=0.005)
    events = event_times(result)
    assert len(events) == 3, f"expected events at {t_break}, {t_rev}, {t_back}; got {events}"
    for obtained, expected in zip(events, [t_break, t_rev, t_back]):
        assert abs(obtained - expected) <= EVENT_TOLERANCE, f"event at {obtained!r}, closed form {expected!r}"
    f_n = c["k"] * drag.DEPTH
    slipping = c["mu_d"] / c["mu_s"] * delta
    for t, friction, s in zip(result["time"], result["contact.friction_force"], result["contact.point[1].deflection[1]"]):
        if t < t_break - 1e-9:
            expected_s = v * t
        elif t_break + 1e-9 < t < t_rev - 1e-9:
            expected_s = slipping
        elif t_rev + 1e-9 < t < t_back - 1e-9:
            expected_s = slipping - v * (t - t_rev)
        elif t > t_back + 1e-9:
            expected_s = -slipping
        else:
            continue
        assert math.isclose(s, expected_s, rel_tol=1e-7, abs_tol=1e-15), f"t = {t}: s {s} vs {expected_s}"
        assert math.isclose(friction, c["mu_s"] * f_n * abs(expected_s) / delta, rel_tol=1e-7, abs_tol=1e-9), f"t = {t}: |f_t| {friction}"


@pytest.mark.parametrize("law", [6, 7])
def test_a_stateful_law_on_a_pair_with_more_points_than_slots_is_refused_by_name(fmu_path, law):
    params = {
        "geometry_a.shape": 3,
        "geometry_a.size[1]": 1.0,
        "geometry_a.size[2]": 1.0,
        "geometry_a.size[3]": 1.0,
        "geometry_b.shape": 4,
        "geometry_b.radius": 0.1,
        "geometry_b.length": 0.2,
        "friction.law": law,
    }
    messages = []
    with pytest.raises(Exception):
        simulate_fmu(
            str(fmu_path),
            fmi_type="ModelExchange",
            stop_time=0.01,
            start_values=params,
            logger=lambda *args: messages.append(str(args[-1])),
        )
    text = " ".join(messages)
    assert "Model Exchange" in text and "geometry_b.shape = Cylinder" in text and "contact.point[8]" in text, text
