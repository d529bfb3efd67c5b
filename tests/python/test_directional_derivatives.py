"""Exact derivatives through FMPy, both FMI versions: FMU2Slave.getDirectionalDerivative,
FMU3Slave.getDirectionalDerivative and getAdjointDerivative against central finite differences
of getReal / getFloat64 outputs computed here (outside the FMU), and the output derivatives
(fmi2GetRealOutputDerivatives, fmi3GetOutputDerivatives, order 1) against finite differences in
time along a constant-twist motion.

States are random, placed at a random depth along the contact normal, and kept only where the
finite differences are trustworthy: the contact's discrete outputs (points carrying force,
sticking) do not change across the stencil and Richardson's two steps agree; otherwise the state
is redrawn (see tests/directional_derivatives.rs for the Rust-side test of every law and pair).
"""

from __future__ import annotations

import numpy as np
import pytest
from fmpy.fmi1 import FMICallException

INPUTS = [f"frame_{b}.{v}[{i}]" for b in "ab" for v, n in (("r_0", 3), ("q", 4), ("v_0", 3), ("w_0", 3)) for i in range(1, n + 1)]
UNKNOWNS = [f"frame_{b}.{v}[{i}]" for b in "ab" for v in ("f_0", "t_0") for i in (1, 2, 3)] + ["contact.separation", "contact.normal_force"]
SIGNATURE = ["contact.points", "contact.active", "contact.sticking"]
H = 1e-6

# Shape, normal and friction law numbers of interface.md.
PLANE, SPHERE, BOX, CYLINDER, CAPSULE, DISK, RECTANGLE, CLOUD = 9, 2, 3, 4, 5, 7, 8, 12

CASES = {
    "sphere-plane LinearSpringDamper Tanh": {"geometry_a.shape": PLANE, "geometry_b.shape": SPHERE, "geometry_b.radius": 0.05},
    "box-plane HuntCrossley Stribeck": {
        "geometry_a.shape": PLANE,
        "geometry_b.shape": BOX,
        "normal.law": 3,
        "friction.law": 5,
        "normal.stiffness": 1e7,
    },
    "plane-capsule SmoothSpringDamper AdamsCoulomb (flipped)": {
        "geometry_a.shape": CAPSULE,
        "geometry_b.shape": PLANE,
        "normal.law": 4,
        "friction.law": 3,
        "friction.torque_radius": 0.01,
    },
    "box-box (contact patch) LinearSpringDamper Stribeck": {
        "geometry_a.shape": BOX,
        "geometry_b.shape": BOX,
        "friction.law": 5,
    },
    "rectangle-box (covered fraction) LinearSpringDamper Tanh": {
        "geometry_a.shape": RECTANGLE,
        "geometry_a.size[1]": 0.08,
        "geometry_a.size[2]": 0.06,
        "geometry_b.shape": BOX,
    },
    "cylinder-plane GroundModel ElasticCone (stateful)": {
        "geometry_a.shape": PLANE,
        "geometry_b.shape": CYLINDER,
        "normal.law": 6,
        "friction.law": 6,
        "normal.stiffness": 1e8,
        "normal.damping": 1e4,
    },
}


def slave_for(new_slave, parameters):
    slave = new_slave()
    slave.enter_initialization(parameters)
    slave.exit_initialization()
    return slave


def vrs(slave, names):
    return [slave.variables[n].valueReference for n in names]


def set_inputs(slave, x):
    refs = vrs(slave, INPUTS)
    (slave.fmu.setFloat64 if slave.fmi3 else slave.fmu.setReal)(refs, list(map(float, x)))


def outputs(slave, x):
    set_inputs(slave, x)
    return slave.get_vector(UNKNOWNS)


def signature(slave, x):
    set_inputs(slave, x)
    return tuple(slave.get_vector(SIGNATURE))


def unit_quaternion(rng):
    q = rng.normal(size=4)
    return q / np.linalg.norm(q)


def draw(slave, rng, depth):
    """Random poses and twists with B `depth` deep along the contact normal."""
    x = np.zeros(26)
    x[0:3] = rng.uniform(-0.05, 0.05, 3)
    x[3:7] = unit_quaternion(rng)
    x[13:16] = x[0:3] + rng.uniform(-0.05, 0.05, 3)
    x[16:20] = unit_quaternion(rng) * 1.0002
    for o in (0, 13):
        x[o + 7 : o + 10] = rng.uniform(-0.05, 0.05, 3)
        x[o + 10 : o + 13] = rng.uniform(-1.0, 1.0, 3)
    for _ in range(6):
        set_inputs(slave, x)
        sep, n = slave.get(["contact.separation"])["contact.separation"], slave.get_vector(["contact.n_0[1]", "contact.n_0[2]", "contact.n_0[3]"])
        x[13:16] += n * (-depth - sep)
    return x


def finite_differences(slave, x):
    """Richardson-extrapolated central differences of every unknown in every input, or None where
    the state is too close to a kink (see the module docstring)."""
    reference = signature(slave, x)
    value = outputs(slave, x)
    noise = 1e-7 * (1.0 + np.abs(value))
    jacobian = np.zeros((len(UNKNOWNS), 26))
    for k in range(26):
        d = []
        for h in (H, H / 2):
            plus, minus = x.copy(), x.copy()
            plus[k] += h
            minus[k] -= h
            if signature(slave, plus) != reference or signature(slave, minus) != reference:
                return None, None
            d.append((outputs(slave, plus) - outputs(slave, minus)) / (2 * h))
        scale = np.abs(d[1]) + noise
        if np.any(np.abs(d[1] - d[0]) > 1e-3 * scale + noise):
            return None, None
        jacobian[:, k] = (4 * d[1] - d[0]) / 3
    set_inputs(slave, x)
    return jacobian, noise


def exact_jacobian(slave, x):
    """Column by column through GetDirectionalDerivative with unit seeds."""
    set_inputs(slave, x)
    unknowns, knowns = vrs(slave, UNKNOWNS), vrs(slave, INPUTS)
    columns = [slave.fmu.getDirectionalDerivative(unknowns, [k], [1.0]) for k in knowns]
    return np.array(columns).T


def assert_close(name, exact, fd, noise):
    scale = np.maximum(np.abs(exact), np.abs(fd)).max(axis=1, keepdims=True)
    error = np.abs(exact - fd)
    bad = error > 1e-6 * scale + noise[:, None]
    if bad.any():
        i, k = np.argwhere(bad)[0]
        pytest.fail(f"{name}: d {UNKNOWNS[i]} / d {INPUTS[k]} = {exact[i, k]} exactly, {fd[i, k]} by finite differences")


@pytest.mark.parametrize("case", list(CASES))
def test_directional_derivatives_agree_with_finite_differences(new_slave, case):
    slave = slave_for(new_slave, CASES[case])
    rng = np.random.default_rng(sum(case.encode()))
    checked, tries, time = 0, 0, 0.0
    while checked < 2:
        tries += 1
        assert tries < 40, f"{case}: no smooth state in {tries} draws"
        x = draw(slave, rng, rng.uniform(3e-4, 2e-3))
        if "stateful" in case:
            # Build up deflections with the inputs held, then judge the derivatives there.
            set_inputs(slave, x)
            for _ in range(3):
                slave.do_step(time, 1e-4)
                time += 1e-4
        fd, noise = finite_differences(slave, x)
        if fd is None:
            continue
        exact = exact_jacobian(slave, x)
        assert_close(case, exact, fd, noise)
        # A whole seed vector at once is J times it.
        seed = rng.uniform(-1, 1, 26)
        d = np.array(slave.fmu.getDirectionalDerivative(vrs(slave, UNKNOWNS), vrs(slave, INPUTS), list(seed)))
        assert np.allclose(d, exact @ seed, rtol=1e-9, atol=1e-9 * np.abs(exact).max())
        if slave.fmi3:
            weights = rng.uniform(-1, 1, len(UNKNOWNS))
            adjoint = np.array(slave.fmu.getAdjointDerivative(vrs(slave, UNKNOWNS), vrs(slave, INPUTS), list(weights), nSensitivity=26))
            assert np.allclose(adjoint, weights @ exact, rtol=1e-9, atol=1e-9 * np.abs(exact).max())
        checked += 1


def quaternion_product(p, q):
    w1, v1 = p[0], np.asarray(p[1:])
    w2, v2 = q[0], np.asarray(q[1:])
    return np.concatenate([[w1 * w2 - v1 @ v2], w1 * v2 + w2 * v1 + np.cross(v1, v2)])


def pose_at(x0, t):
    """The inputs at time t of both bodies moving with their constant twists (w in W)."""
    x = x0.copy()
    for o in (0, 13):
        v, w = x0[o + 7 : o + 10], x0[o + 10 : o + 13]
        x[o : o + 3] = x0[o : o + 3] + v * t
        angle = np.linalg.norm(w) * t
        axis = w / np.linalg.norm(w)
        turn = np.concatenate([[np.cos(angle / 2)], np.sin(angle / 2) * axis])
        x[o + 3 : o + 7] = quaternion_product(turn, x0[o + 3 : o + 7])
    return x


@pytest.mark.parametrize("case", ["sphere-plane LinearSpringDamper Tanh", "box-plane HuntCrossley Stribeck"])
def test_output_derivatives_agree_with_finite_differences_in_time(new_slave, case):
    slave = slave_for(new_slave, CASES[case])
    rng = np.random.default_rng(7)
    for _ in range(40):
        x0 = draw(slave, rng, rng.uniform(3e-4, 2e-3))
        x0[3:7] /= np.linalg.norm(x0[3:7])
        x0[16:20] /= np.linalg.norm(x0[16:20])
        h = 1e-6
        if len({signature(slave, pose_at(x0, t)) for t in (-h, -h / 2, 0.0, h / 2, h)}) == 1:
            break
    else:
        pytest.fail("no smooth state")
    d = [(outputs(slave, pose_at(x0, s)) - outputs(slave, pose_at(x0, -s))) / (2 * s) for s in (h, h / 2)]
    fd = (4 * d[1] - d[0]) / 3
    set_inputs(slave, x0)
    refs = vrs(slave, UNKNOWNS)
    get = slave.fmu.getOutputDerivatives if slave.fmi3 else slave.fmu.getRealOutputDerivatives
    rates = np.array(get(refs, [1] * len(refs)))
    noise = 1e-7 * (1 + np.abs(outputs(slave, x0)))
    scale = np.abs(fd).max()
    assert np.all(np.abs(rates - fd) <= 1e-6 * scale + noise), f"{case}: {rates} != {fd}"
    with pytest.raises(FMICallException):
        get(refs[:1], [2])
    assert "order 2" in slave.messages[-1][2] and "frame_a.f_0[1]" in slave.messages[-1][2], slave.log_text()


def test_variables_without_derivatives_are_refused_by_name(new_slave):
    slave = slave_for(new_slave, CASES["sphere-plane LinearSpringDamper Tanh"])
    x = draw(slave, np.random.default_rng(3), 1e-3)
    set_inputs(slave, x)
    with pytest.raises(FMICallException):
        slave.fmu.getDirectionalDerivative(vrs(slave, ["contact.friction_force"]), vrs(slave, ["frame_b.r_0[3]"]), [1.0])
    assert "contact.friction_force" in slave.messages[-1][2], slave.log_text()


def test_pairs_without_exact_derivatives_are_refused_by_name(new_slave):
    # Box-cylinder (GJK/EPA and a patch with a cylinder's curved features) stays refused.
    slave = slave_for(new_slave, {"geometry_a.shape": BOX, "geometry_b.shape": CYLINDER})
    x = np.zeros(26)
    x[3] = x[16] = 1.0
    x[15] = 0.09
    set_inputs(slave, x)
    assert slave.get(["contact.normal_force"])["contact.normal_force"] > 0
    with pytest.raises(FMICallException):
        slave.fmu.getDirectionalDerivative(vrs(slave, ["frame_b.f_0[3]"]), vrs(slave, ["frame_b.r_0[3]"]), [1.0])
    assert "Box (A) - Cylinder (B)" in slave.messages[-1][2], slave.log_text()


def test_given_input_derivatives_enter_the_output_derivatives(new_slave):
    """FMI 2: an acceleration given with fmi2SetRealInputDerivatives moves the rate of the force.

    A sphere (LinearSpringDamper, no friction) pressed into the plane at depth d and sinking at
    speed s has f_z = k d + b s on B; with B's acceleration a_z given, d(f_z)/dt = k s - b a_z
    (s = -v_z). Without it the twist is taken as constant and the rate is k s.
    """
    slave = new_slave()
    if slave.fmi3:
        pytest.skip("FMI 3 has no input derivatives")
    k, b, depth, v_z, a_z = 1e6, 1e3, 1e-3, -0.2, -4.0
    slave.enter_initialization({"geometry_b.radius": 0.05, "friction.law": 1, "normal.stiffness": k, "normal.damping": b})
    slave.exit_initialization()
    x = np.zeros(26)
    x[3] = x[16] = 1.0
    x[15] = 0.05 - depth
    x[22] = v_z
    set_inputs(slave, x)
    f_z = vrs(slave, ["frame_b.f_0[3]"])
    assert slave.fmu.getReal(f_z)[0] == pytest.approx(k * depth - b * v_z, rel=1e-12)
    rate = slave.fmu.getRealOutputDerivatives(f_z, [1])[0]
    assert rate == pytest.approx(-k * v_z, rel=1e-12)
    slave.fmu.setRealInputDerivatives(vrs(slave, ["frame_b.v_0[3]"]), [1], [a_z])
    rate = slave.fmu.getRealOutputDerivatives(f_z, [1])[0]
    assert rate == pytest.approx(-k * v_z - b * a_z, rel=1e-12)
