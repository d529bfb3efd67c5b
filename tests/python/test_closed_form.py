"""Every output of both FMUs, simulated by FMPy with time-varying inputs, against reference.py.

How FMPy drives a co-simulation FMU (fmpy/simulation.py, simulateCS, FMPy 0.3.32), and why the
comparison below is row-consistent:

- The communication grid is t_k = start_time + k * output_interval. For co-simulation FMPy does not
  use `step_size` (that is the Euler step of model exchange); the communication step is
  `output_interval`, so both are passed with the same value.
- At initialisation FMPy sets the inputs interpolated at t_0, exits initialisation mode and records
  the first row (time t_0).
- Each step k then: sets the inputs interpolated (linearly) at t_k, calls doStep(t_k, h), and
  records a row stamped t_{k+1} by calling the getters. So the row stamped t_{k+1} holds outputs
  computed from the inputs of t_k: the inputs lag one row behind the time stamp. The inputs of the
  last table row are never applied.
- Comparing the outputs with the reference evaluated at the *time stamp* would therefore be wrong
  by one step. Instead the input variables are recorded too (FMI allows getting inputs): each row
  then carries the inputs the FMU actually held when its outputs were read, and the reference is
  evaluated on exactly those. The test also checks the lag itself (recorded inputs of row k + 1 =
  table row k, bit for bit; the input table is given on the communication grid, where FMPy's
  interpolation returns the table values exactly), so that a change in FMPy's behaviour shows up
  as a clear failure rather than as a puzzling force mismatch.

Tolerances: both sides compute in float64 but in different operation orders, so they differ by
rounding propagated through the formulas. The separation of two surfaces positioned about 0.5 m
from the origin is only known to about 1e-16 m, which a 1e5 N/m spring turns into 1e-11 N whatever
the force. The error of each quantity is therefore measured relative to its largest magnitude in
the run (at least 1 in SI units): |obtained - expected| <= 1e-12 * max(1, max_run |expected|).
That is still ten orders of magnitude below any physical discrepancy. Discrete outputs (active,
points, sticking) and the choice of p_0 must match exactly, except on rows where the reference
itself is within rounding of a switching point (counted and required to be rare).
"""

from __future__ import annotations

import numpy as np
import pytest
from fmpy import simulate_fmu

import reference as ref
import scenarios

RTOL = 1e-12
STEP = 1e-3
STOP = 1.0

# Quantities compared together, each with its own scale: (scalar names, unit floor of the scale).
GROUPS = {
    "forces": (ref.scalar_names("frame_a.f_0", 3) + ref.scalar_names("frame_b.f_0", 3), 1.0),
    "torques": (ref.scalar_names("frame_a.t_0", 3) + ref.scalar_names("frame_b.t_0", 3), 1.0),
    "normal force": (["contact.normal_force"], 1.0),
    "friction force": (["contact.friction_force"], 1.0),
    "separation": (["contact.separation"], 1.0),
    "p_0": (ref.scalar_names("contact.p_0", 3), 1.0),
    "n_0": (ref.scalar_names("contact.n_0", 3), 1.0),
    "slip speed": (["contact.slip_speed"], 1.0),
}


def simulate(fmu_path, params, table):
    """Runs FMPy's simulate_fmu and records every output and every input."""
    return simulate_fmu(
        str(fmu_path),
        start_time=0.0,
        stop_time=STOP,
        step_size=STEP,
        output_interval=STEP,
        start_values=params.start_values(),
        input=table,
        output=ref.OUTPUT_NAMES + ref.INPUT_NAMES,
    )


@pytest.mark.parametrize("case", list(scenarios.CASES))
def test_outputs_match_reference(fmu_path, case):
    params = scenarios.CASES[case]
    times = np.arange(int(round(STOP / STEP)) + 1) * STEP
    table = scenarios.input_table(params, times)
    result = simulate(fmu_path, params, table)

    # FMPy's input lag (see the module docstring): row k + 1 holds the inputs of table row k.
    assert len(result) == len(times)
    np.testing.assert_array_equal(result["time"], times)
    for name in ref.INPUT_NAMES:
        np.testing.assert_array_equal(result[name][0], table[name][0], err_msg=name)
        np.testing.assert_array_equal(result[name][1:], table[name][:-1], err_msg=name)

    expected = [ref.evaluate_row(params, row) for row in result]

    # The scenario must really cover what it claims, or a broken FMU could pass.
    active = np.array([e["contact.active"] for e in expected])
    apart = np.array([e["contact.separation"] > 0 for e in expected])
    dd = np.array([e["_dd"] for e in expected])
    assert active.sum() > 100 and apart.sum() > 100, "needs contact and separation phases"
    assert (dd[active] > 0).sum() > 20 and (dd[active] < 0).sum() > 20, "needs approach and recession"
    v_t = np.array([e["_v_t"] for e in expected])[active]
    directions = v_t / np.linalg.norm(v_t, axis=1)[:, None]
    assert (directions @ directions.T).min() < -0.5, "needs slip in opposite directions"
    if params.normal_law == ref.NORMAL_LINEAR_SPRING_DAMPER:
        # Receding fast at small depth, k d + b dd < 0: overlapping but the force is clipped to zero.
        clipped = [e["contact.separation"] < 0 and not e["contact.active"] for e in expected]
        assert sum(clipped) > 5, "needs overlapping rows where the clipped force is zero"
    if params.normal_law == ref.NORMAL_HUNT_CROSSLEY and params.velocity_exponent < 1:
        # |dd|^q with q < 1 is infinitely steep at dd = 0: no row may sit within rounding of it.
        assert np.abs(dd[active]).min() > 1e-9, "a row sits at dd = 0, where q < 1 is ill-conditioned"

    # Continuous outputs, group by group.
    failures = []
    for group, (names, floor) in GROUPS.items():
        exp = np.array([[e[n] for n in names] for e in expected])
        got = np.array([[float(row[n]) for n in names] for row in result])
        scale = max(floor, np.abs(exp).max())
        err = np.abs(got - exp)
        bad = np.argwhere(err > RTOL * scale)
        if group == "p_0":
            # p_0 jumps between C and A's witness when the force switches on; skip rows at the switch.
            bad = np.array([b for b in bad if not near_switch(expected[b[0]])]).reshape(-1, 2)
        if len(bad):
            i, j = bad[0]
            failures.append(
                f"{group}: {len(bad)} values off by more than {RTOL:g} x {scale:.3g}; first at t = {result['time'][i]:.3f}, "
                f"{names[j]} = {got[i, j]!r}, expected {exp[i, j]!r} (error {err[i, j]:.3g}); inputs: "
                + ", ".join(f"{n}={float(result[n][i])!r}" for n in ref.INPUT_NAMES)
            )

    # Discrete outputs: exact, except within rounding of the force switching on or off.
    switching = 0
    for row, e in zip(result, expected):
        if near_switch(e):
            switching += 1
            continue
        for name in ref.BOOLEAN_OUTPUTS + ref.INTEGER_OUTPUTS:
            if row[name] != e[name]:
                failures.append(f"{name} at t = {row['time']:.3f} is {row[name]!r}, expected {e[name]!r}")
                break
    assert switching <= 3, f"{switching} rows are within rounding of a force switch; move the time grid"
    assert not failures, "\n".join(failures[:10])


def near_switch(e) -> bool:
    """True when rounding could decide whether the force is on: the unclipped law or the separation ~ 0."""
    overlapping = e["contact.separation"] < 0
    return abs(e["contact.separation"]) <= 1e-14 or (overlapping and abs(e["_f_n_unclipped"]) <= RTOL * 1e3)
