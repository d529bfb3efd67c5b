"""Inside surfaces (`geometry_X.inside`) through the packaged FMUs, both FMI versions, in FMPy.

A ball resting inside a spherical socket and a shaft resting in a bearing carry their weight at the
closed-form depth: with the inputs set at that depth (R - r + m g / k from the socket's centre; for
the shaft, m g / (2 k) at each end of its part in the bearing) the force on the held body is m g to
1e-9 relative. A short master loop (symplectic Euler of the ball's translation, stepping the FMU)
drops the ball into the socket and lets it settle at that depth. Inside pairs the block does not
offer are refused when initialisation ends, with a message naming geometry_X.inside.
"""

from __future__ import annotations

import math

import pytest

from fmu_driver import FMICallException

SPHERE, CYLINDER, CAPSULE, BOX = 2, 4, 5, 3
FRICTION_NONE = 1
G = 9.81
K = 1e6


@pytest.fixture
def slave(fmu_path, extracted):
    """One instance of the FMU under test, freed when the test ends."""
    from fmu_driver import Slave

    unzipdir, md = extracted(fmu_path)
    instance = Slave(unzipdir, md)
    yield instance
    instance.free()


def vector(name, values):
    return {f"{name}[{i + 1}]": float(v) for i, v in enumerate(values)}


def at_rest(body, position, q=(1.0, 0.0, 0.0, 0.0)):
    return vector(f"frame_{body}.r_0", position) | vector(f"frame_{body}.q", q) | vector(f"frame_{body}.v_0", [0, 0, 0]) | vector(f"frame_{body}.w_0", [0, 0, 0])


# The socket's (A's) place: away from the origin, so that nothing is right by accident.
SOCKET = (0.3, -0.2, 1.0)
ALONG_X = (math.sqrt(0.5), 0.0, math.sqrt(0.5), 0.0)


def socket_parameters(big_r, r, damping=1e3):
    return {
        "geometry_a.shape": SPHERE,
        "geometry_a.radius": big_r,
        "geometry_a.inside": True,
        "geometry_b.shape": SPHERE,
        "geometry_b.radius": r,
        "normal.stiffness": K,
        "normal.damping": damping,
        "friction.law": FRICTION_NONE,
    }


def test_a_ball_resting_in_a_socket_carries_its_weight_at_the_closed_form_depth(slave):
    big_r, r, m = 0.1, 0.03, 2.5
    depth = m * G / K
    below = (SOCKET[0], SOCKET[1], SOCKET[2] - (big_r - r + depth))
    slave.initialize(socket_parameters(big_r, r), at_rest("a", SOCKET) | at_rest("b", below))
    out = slave.get(["frame_b.f_0[1]", "frame_b.f_0[2]", "frame_b.f_0[3]", "frame_a.f_0[3]", "contact.separation", "contact.points"])
    assert abs(out["frame_b.f_0[3]"] - m * G) <= 1e-9 * m * G, out
    assert abs(out["frame_a.f_0[3]"] + m * G) <= 1e-9 * m * G, out
    assert abs(out["frame_b.f_0[1]"]) + abs(out["frame_b.f_0[2]"]) <= 1e-12 * m * G, out
    assert abs(out["contact.separation"] + depth) <= 1e-12, out
    assert out["contact.points"] == 1


@pytest.mark.parametrize("shaft", [CYLINDER, CAPSULE])
def test_a_shaft_resting_in_a_bearing_carries_its_weight_at_the_closed_form_depth(slave, shaft):
    # The bearing (A) along W's x, 0.2 long; the shaft (B) 0.3 long, 0.02 off centre along it:
    # its part in the bearing ends at the bearing's ends, each carrying half the weight.
    big_r, r, m = 0.05, 0.045, 4.0
    depth = m * G / (2 * K)
    params = {
        "geometry_a.shape": CYLINDER,
        "geometry_a.radius": big_r,
        "geometry_a.length": 0.2,
        "geometry_a.inside": True,
        "geometry_b.shape": shaft,
        "geometry_b.radius": r,
        "geometry_b.length": 0.3,
        "normal.stiffness": K,
        "friction.law": FRICTION_NONE,
    } | vector("geometry_a.q", ALONG_X) | vector("geometry_b.q", ALONG_X)
    centre = (SOCKET[0] + 0.02, SOCKET[1], SOCKET[2] - (big_r - r + depth))
    slave.initialize(params, at_rest("a", SOCKET) | at_rest("b", centre))
    names = ["frame_b.f_0[3]", "contact.points", "contact.point[1].normal_force", "contact.point[2].normal_force", "contact.point[1].separation"]
    out = slave.get(names)
    assert abs(out["frame_b.f_0[3]"] - m * G) <= 1e-9 * m * G, out
    assert out["contact.points"] == 2, out
    for i in (1, 2):
        assert abs(out[f"contact.point[{i}].normal_force"] - m * G / 2) <= 1e-9 * m * G, out
    assert abs(out["contact.point[1].separation"] + depth) <= 1e-12, out


def test_a_ball_dropped_into_a_socket_settles_at_the_closed_form_depth(slave):
    """The master integrates the ball (B) under gravity and the contact force, symplectic Euler at
    0.1 ms (the contact's period is 2 pi sqrt(m / k) = 2 ms); damped at about half the critical
    rate, the ball bounces a few times and comes to rest where k depth = m g."""
    big_r, r, m = 0.1, 0.03, 0.1
    h = 1e-4
    z_rest = SOCKET[2] - (big_r - r + m * G / K)
    z, v = SOCKET[2] - (big_r - r) + 2e-3, 0.0
    slave.initialize(socket_parameters(big_r, r, damping=300.0), at_rest("a", SOCKET) | at_rest("b", (SOCKET[0], SOCKET[1], z)))
    t = 0.0
    lowest = z
    for _ in range(5000):
        force = slave.get(["frame_b.f_0[3]"])["frame_b.f_0[3]"]
        v += h * (force / m - G)
        z += h * v
        lowest = min(lowest, z)
        slave.do_step(t, h)
        t += h
        slave.set({"frame_b.r_0[3]": z, "frame_b.v_0[3]": v})
    out = slave.get(["frame_b.f_0[3]", "contact.separation"])
    assert lowest < z_rest, "the ball never reached the wall"
    assert abs(z - z_rest) <= 1e-9, (z, z_rest)
    assert abs(out["frame_b.f_0[3]"] - m * G) <= 1e-6 * m * G, out
    assert abs(v) <= 1e-9, v


@pytest.mark.parametrize(
    "params, switch",
    [
        ({"geometry_a.shape": BOX, "geometry_a.inside": True, "geometry_b.shape": SPHERE}, "geometry_a.inside"),
        ({"geometry_a.shape": SPHERE, "geometry_b.shape": BOX, "geometry_b.inside": False, "geometry_a.inside": True}, "geometry_a.inside"),
        ({"geometry_a.shape": SPHERE, "geometry_b.shape": CAPSULE, "geometry_b.inside": True}, "geometry_b.inside"),
        ({"geometry_a.shape": SPHERE, "geometry_a.inside": True, "geometry_b.shape": SPHERE, "geometry_b.inside": True}, "geometry_a.inside, geometry_b.inside"),
    ],
)
def test_inside_pairs_not_offered_are_refused_when_initialisation_ends(slave, params, switch):
    slave.enter_initialization(params)
    slave.set(at_rest("a", (0, 0, 0)) | at_rest("b", (0, 0, 0)))
    with pytest.raises(FMICallException):
        slave.exit_initialization()
    log = slave.log_text()
    assert switch in log, log
    assert "is not supported" in log and "inside surfaces are offered for a Sphere" in log, log
