"""Instance life cycle through FMPy's low-level classes, for FMI 2.0 and FMI 3.0.

Why: a co-simulation master uses the FMU in ways `simulate_fmu` never does: several instances in one
process, Reset and re-use, saving and restoring the FMU state (for step rejection and iteration),
serialising it (for checkpoints), and error handling that must refuse bad input with a useful
message instead of crashing or returning nonsense. Results must be identical bit for bit: the
contact laws are deterministic, so any difference means state leaking between instances or runs.
"""

from __future__ import annotations

import numpy as np
import pytest

import reference as ref
import scenarios
from fmu_driver import FMICallException

STEP = 1e-3
START = 0.1  # the scenarios come into contact at about t = 0.14 and leave at about 0.36
STEPS = 300

PARAMS_1 = scenarios.CASES["plane-sphere linear tanh"]
PARAMS_2 = scenarios.CASES["sphere-sphere huntcrossley q=0.7 tanh"]


def inputs_at(params, t) -> dict:
    """The scenario's 26 inputs at time t, by FMI name."""
    table = scenarios.input_table(params, [t])
    return {name: float(table[name][0]) for name in ref.INPUT_NAMES}


def outputs(slave) -> np.ndarray:
    return slave.get_vector(ref.OUTPUT_NAMES)


class Run:
    """Steps one instance through a scenario, one communication step per call, recording outputs."""

    def __init__(self, slave, params, first_step=0):
        self.slave, self.params, self.k = slave, params, first_step
        self.rows = []

    def start(self):
        self.slave.initialize(self.params.start_values(), inputs_at(self.params, START), start_time=START)
        self.rows.append(outputs(self.slave))
        return self

    def step(self):
        t = START + self.k * STEP
        self.slave.set(inputs_at(self.params, t))
        self.slave.do_step(t, STEP)
        self.k += 1
        self.rows.append(outputs(self.slave))

    def steps(self, n):
        for _ in range(n):
            self.step()
        return np.array(self.rows)


def alone(new_slave, params) -> np.ndarray:
    """The reference run: one instance, alone in the process, from start to end."""
    slave = new_slave("alone")
    rows = Run(slave, params).start().steps(STEPS)
    slave.terminate()
    slave.free()
    return rows


def assert_identical(obtained, expected, what):
    obtained, expected = np.asarray(obtained), np.asarray(expected)
    if not np.array_equal(obtained, expected):
        row, col = np.argwhere(obtained != expected)[0]
        raise AssertionError(
            f"{what}: first difference at row {row}, {ref.OUTPUT_NAMES[col]}: {obtained[row, col]!r} != {expected[row, col]!r}"
        )


def test_runs_are_in_contact(new_slave):
    """Guards the other tests: the chosen window must include contact, or they would prove little."""
    rows = alone(new_slave, PARAMS_1)
    normal_force = rows[:, ref.OUTPUT_NAMES.index("contact.normal_force")]
    assert (normal_force > 0).sum() > 100 and (normal_force == 0).sum() > 10


def test_two_instances_interleaved(new_slave):
    """Two instances with different parameters, stepped alternately, match each run alone."""
    expected_1 = alone(new_slave, PARAMS_1)
    expected_2 = alone(new_slave, PARAMS_2)
    run_1 = Run(new_slave("one"), PARAMS_1).start()
    run_2 = Run(new_slave("two"), PARAMS_2).start()
    for _ in range(STEPS):
        run_1.step()
        run_2.step()
    assert_identical(run_1.rows, expected_1, "instance one")
    assert_identical(run_2.rows, expected_2, "instance two")
    assert not np.array_equal(expected_1, expected_2)


def test_reset_and_reuse(new_slave):
    """After Reset, the same instance set up again gives the first run's results; defaults are back."""
    slave = new_slave()
    first = Run(slave, PARAMS_1).start().steps(STEPS)
    slave.reset()

    # Reset is a fresh instantiation: the parameters are back at their defaults.
    slave.enter_initialization({}, start_time=START)
    defaults = ref.Parameters()
    assert slave.get(["normal.stiffness"])["normal.stiffness"] == defaults.stiffness
    assert slave.get(["friction.tanh_gain"])["friction.tanh_gain"] == defaults.tanh_gain
    slave.reset()

    second = Run(slave, PARAMS_1).start().steps(STEPS)
    assert_identical(second, first, "second run after reset")


def test_get_and_set_fmu_state(new_slave):
    """Save the state at step k, run on, restore it and run again: identical outputs."""
    k = 120
    slave = new_slave()
    run = Run(slave, PARAMS_1).start()
    run.steps(k)
    state = slave.get_state()
    full = run.steps(STEPS - k)

    slave.set_state(state)
    assert_identical([outputs(slave)], full[k : k + 1], "outputs right after restoring the state")
    rerun = Run(slave, PARAMS_1, first_step=k)
    rerun.rows.append(outputs(slave))
    rerun.steps(STEPS - k)
    assert_identical(rerun.rows, full[k:], "rerun from the restored state")

    # The state can be restored more than once.
    slave.set_state(state)
    again = Run(slave, PARAMS_1, first_step=k)
    again.rows.append(outputs(slave))
    assert_identical(again.steps(STEPS - k), full[k:], "second rerun from the same state")
    slave.free_state(state)


def test_serialize_and_deserialize_fmu_state(new_slave):
    """A serialised state restores the same instance, and a second instance, to identical results."""
    k = 150
    slave = new_slave()
    run = Run(slave, PARAMS_1).start()
    run.steps(k)
    state = slave.get_state()
    blob = slave.serialize(state)
    slave.free_state(state)
    assert isinstance(blob, bytes) and len(blob) > 0
    full = run.steps(STEPS - k)

    restored = slave.deserialize(blob)
    slave.set_state(restored)
    rerun = Run(slave, PARAMS_1, first_step=k)
    rerun.rows.append(outputs(slave))
    assert_identical(rerun.steps(STEPS - k), full[k:], "rerun from the deserialised state")
    slave.free_state(restored)

    # Another instance of the same FMU, initialised the same way, continues identically too.
    other = new_slave("other")
    Run(other, PARAMS_1).start()
    state_other = other.deserialize(blob)
    other.set_state(state_other)
    cont = Run(other, PARAMS_1, first_step=k)
    cont.rows.append(outputs(other))
    assert_identical(cont.steps(STEPS - k), full[k:], "second instance from the deserialised state")
    other.free_state(state_other)


@pytest.mark.parametrize("garbage", ["text", "truncated"])
def test_deserializing_garbage_fails(new_slave, garbage):
    """Bytes that are not a serialised state are refused with Error (FMPy raises), and logged."""
    slave = new_slave()
    Run(slave, PARAMS_1).start().steps(3)
    if garbage == "text":
        data = b"this is not a serialized ContactForce state" * 3
    else:
        state = slave.get_state()
        valid = slave.serialize(state)
        slave.free_state(state)
        data = valid[: len(valid) // 2]
    with pytest.raises(FMICallException):
        slave.deserialize(data)
    assert any(status in ("Error", "Fatal") for status, _, _ in slave.messages), slave.log_text()


def test_unsupported_pair_is_refused_at_initialization(new_slave):
    """Plane against Plane (geometry_b.shape = 9) has no finite separation: exitInitializationMode
    fails, naming both shapes and the reason."""
    slave = new_slave()
    params = PARAMS_1.start_values() | {"geometry_b.shape": 9}
    slave.enter_initialization(params, start_time=START)
    slave.set(inputs_at(PARAMS_1, START))
    with pytest.raises(FMICallException):
        slave.exit_initialization()
    log = slave.log_text()
    assert "geometry pair Plane (A) - Plane (B) is not supported" in log, log
    assert "no finite separation" in log, log


def test_nan_input_is_refused(new_slave):
    """A NaN input is refused with Error and a message naming the variable."""
    slave = new_slave()
    Run(slave, PARAMS_1).start().steps(2)
    with pytest.raises(FMICallException):
        slave.set({"frame_b.r_0[3]": float("nan")})
    log = slave.log_text()
    assert "frame_b.r_0[3]" in log, log
