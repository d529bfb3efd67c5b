"""Inside surfaces (`geometry_X.inside`) through the packaged FMUs, both FMI versions, in FMPy.

A ball resting inside a spherical socket and a shaft resting in a bearing carry their weight at the
closed-form depth: with the inputs set at that depth (R - r + m g / k from the socket's centre; for
the shaft, m g / (2 k) at each end of its part in the bearing) the force on the held body is m g to
1e-9 relative. A short master loop (symplectic Euler of the ball's translation, stepping the FMU)
drops the ball into the socket and lets it settle at that depth. A box resting on the floor of a
box container carries its weight on its four bottom corners (m g / (4 k) deep each), a ball on a
bore's closed bottom (geometry_a.end_bottom) at m g / k and falls through an open one, a ball in an
egg-shaped cavity and a point cloud (read from a file) on a container's floor at their closed-form
depths. Under Model Exchange a ball dropped onto a container's floor makes and breaks contact at
the closed-form times, and FMI 3 early return stops at its onset. Inside pairs the block does not
offer are refused when initialisation ends, with a message naming geometry_X.inside (or the end
face parameter).
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from fmu_driver import FMICallException

SPHERE, BOX, CYLINDER, CAPSULE, ELLIPSOID, DISK, POINT_CLOUD = 2, 3, 4, 5, 6, 7, 12
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


def test_a_box_resting_on_a_container_floor_carries_its_weight_on_its_four_corners(slave):
    m = 3.0
    depth = m * G / (4 * K)
    params = {
        "geometry_a.shape": BOX,
        "geometry_a.inside": True,
        "geometry_b.shape": BOX,
        "normal.stiffness": K,
        "friction.law": FRICTION_NONE,
    } | vector("geometry_a.size", [1.0, 0.8, 0.6]) | vector("geometry_b.size", [0.2, 0.1, 0.04])
    # The part off centre on the floor (0.3 below the container's centre), sunk by the depth.
    part = (SOCKET[0] + 0.2, SOCKET[1] - 0.1, SOCKET[2] - 0.3 + 0.02 - depth)
    slave.initialize(params, at_rest("a", SOCKET) | at_rest("b", part))
    out = slave.get(["frame_b.f_0[1]", "frame_b.f_0[2]", "frame_b.f_0[3]", "frame_b.t_0[1]", "frame_b.t_0[2]", "contact.points", "contact.separation"])
    assert abs(out["frame_b.f_0[3]"] - m * G) <= 1e-9 * m * G, out
    assert abs(out["frame_b.f_0[1]"]) + abs(out["frame_b.f_0[2]"]) <= 1e-12 * m * G, out
    assert abs(out["frame_b.t_0[1]"]) + abs(out["frame_b.t_0[2]"]) <= 1e-9 * m * G, out
    assert out["contact.points"] == 4, out
    assert abs(out["contact.separation"] + depth) <= 1e-12, out


@pytest.mark.parametrize("closed", [True, False])
def test_a_ball_on_a_closed_bore_bottom_carries_its_weight_and_falls_through_an_open_one(slave, closed):
    m, r = 0.5, 0.02
    depth = m * G / K
    params = {
        "geometry_a.shape": CYLINDER,
        "geometry_a.radius": 0.05,
        "geometry_a.length": 0.2,
        "geometry_a.inside": True,
        "geometry_a.end_bottom": closed,
        "geometry_b.shape": SPHERE,
        "geometry_b.radius": r,
        "normal.stiffness": K,
        "friction.law": FRICTION_NONE,
    }
    ball = (SOCKET[0] + 0.01, SOCKET[1], SOCKET[2] - 0.1 + r - depth)
    slave.initialize(params, at_rest("a", SOCKET) | at_rest("b", ball))
    out = slave.get(["frame_b.f_0[3]", "contact.points", "contact.separation"])
    if closed:
        assert abs(out["frame_b.f_0[3]"] - m * G) <= 1e-9 * m * G, out
        assert abs(out["contact.separation"] + depth) <= 1e-12, out
        assert out["contact.points"] == 1, out
    else:
        assert out["frame_b.f_0[3]"] == 0.0 and out["contact.points"] == 0, out


def test_a_ball_in_an_egg_and_a_point_cloud_on_a_container_floor_carry_their_weight(slave, tmp_path):
    m, r = 1.2, 0.03
    depth = m * G / K
    # An egg (semi-axes 0.3, 0.2, 0.1): the ball on its short axis, where the pole is the wall's
    # closest point to the centre.
    params = {
        "geometry_a.shape": ELLIPSOID,
        "geometry_a.inside": True,
        "geometry_b.shape": SPHERE,
        "geometry_b.radius": r,
        "normal.stiffness": K,
        "friction.law": FRICTION_NONE,
    } | vector("geometry_a.size", [0.3, 0.2, 0.1])
    slave.initialize(params, at_rest("a", SOCKET) | at_rest("b", (SOCKET[0], SOCKET[1], SOCKET[2] - (0.1 - r + depth))))
    out = slave.get(["frame_b.f_0[3]", "contact.separation"])
    assert abs(out["frame_b.f_0[3]"] - m * G) <= 1e-9 * m * G, out
    assert abs(out["contact.separation"] + depth) <= 1e-12, out

    # Five points of a cloud, four on a square and one above its centre, in a container: the four
    # carry a quarter of the weight each, m g / (4 k) deep.
    cloud = tmp_path / "feet.csv"
    cloud.write_text("0.05,0.05,0\n-0.05,0.05,0\n-0.05,-0.05,0\n0.05,-0.05,0\n0,0,0.1\n")
    slave.reset()
    depth = m * G / (4 * K)
    params = {
        "geometry_a.shape": BOX,
        "geometry_a.inside": True,
        "geometry_b.shape": POINT_CLOUD,
        "geometry_b.file": str(cloud),
        "normal.stiffness": K,
        "friction.law": FRICTION_NONE,
    } | vector("geometry_a.size", [1.0, 1.0, 1.0])
    slave.initialize(params, at_rest("a", SOCKET) | at_rest("b", (SOCKET[0], SOCKET[1], SOCKET[2] - 0.5 - depth)))
    out = slave.get(["frame_b.f_0[3]", "contact.points", "contact.separation"])
    assert abs(out["frame_b.f_0[3]"] - m * G) <= 1e-9 * m * G, out
    assert out["contact.points"] == 4, out
    assert abs(out["contact.separation"] + depth) <= 1e-12, out


def test_under_model_exchange_a_ball_dropped_in_a_container_makes_and_breaks_contact_at_the_closed_form_times(fmu_path):
    """test_model_exchange.py's prescribed drop (down at V, a velocity jump, back up), with the
    plane replaced by the floor of a box container 2 m across whose centre is A's origin: the floor
    is at z = -1, so the ball (radius R) starts at Z0 - 1."""
    import test_model_exchange as me

    table = me.sphere_inputs()
    table["frame_b.r_0[3]"] -= 1.0
    start = me.RESTITUTION | {"geometry_a.shape": BOX, "geometry_a.inside": True} | vector("geometry_a.size", [2.0, 2.0, 2.0])
    result = me.simulate(fmu_path, start, table, me.STOP, ["contact.separation", "contact.normal_force", "contact.active"])
    events = me.event_times(result)
    make = [t for t in events if abs(t - me.T_MAKE) < 1e-3]
    brk = [t for t in events if abs(t - me.T_BREAK) < 1e-3]
    assert len(make) == 1 and len(brk) == 1, f"events {events}, expected make {me.T_MAKE} and break {me.T_BREAK}"
    assert abs(make[0] - me.T_MAKE) <= me.EVENT_TOLERANCE, (make[0], me.T_MAKE)
    assert abs(brk[0] - me.T_BREAK) <= me.EVENT_TOLERANCE, (brk[0], me.T_BREAK)
    apart = (result["time"] < me.T_MAKE - 1e-6) | (result["time"] > me.T_BREAK + 1e-6)
    assert np.all(result["contact.normal_force"][apart] == 0.0)
    assert np.all(result["contact.normal_force"][(result["time"] > me.T_MAKE + 1e-6) & (result["time"] < me.T_TURN - 1e-6)] > 0.0)


def test_fmi3_early_return_stops_at_the_onset_of_a_ball_on_a_container_floor(fmu3_path):
    """test_early_return.py's prescribed approach (down at 1 m/s from 10.5 mm above), onto the floor
    of a box container 2 m across (floor at z = -1): FMPy's loop returns early at the onset."""
    import fmpy
    from test_early_return import INPUT_NAMES

    t = np.array([0.0, 0.05])
    signals = np.zeros(2, dtype=[("time", np.double)] + [(name, np.double) for name in INPUT_NAMES])
    signals["time"] = t
    signals["frame_a.q[1]"] = signals["frame_b.q[1]"] = 1.0
    signals["frame_b.r_0[3]"] = -1.0 + 0.1 + 0.0105 - 1.0 * t
    signals["frame_b.v_0[3]"] = -1.0
    onset = 0.0105
    result = fmpy.simulate_fmu(
        str(fmu3_path),
        stop_time=0.02,
        output_interval=1e-3,
        input=signals,
        early_return_allowed=True,
        start_values={"geometry_a.shape": BOX, "geometry_a.inside": True} | vector("geometry_a.size", [2.0, 2.0, 2.0]),
        output=["contact.separation", "contact.normal_force"],
    )
    extra = sorted({x for x in result["time"] if abs(x / 1e-3 - round(x / 1e-3)) > 1e-6})
    assert len(extra) == 1 and abs(extra[0] - onset) <= 1e-12 * onset, extra


@pytest.mark.parametrize(
    "params, switch, says",
    [
        ({"geometry_a.shape": DISK, "geometry_a.inside": True, "geometry_b.shape": SPHERE}, "geometry_a.inside", "inside surfaces are offered for a Sphere"),
        ({"geometry_a.shape": SPHERE, "geometry_b.shape": ELLIPSOID, "geometry_a.inside": True}, "geometry_a.inside", "inside surfaces are offered for a Sphere"),
        ({"geometry_a.shape": CAPSULE, "geometry_a.inside": True, "geometry_b.shape": CYLINDER}, "geometry_a.inside", "inside surfaces are offered for a Sphere"),
        ({"geometry_a.shape": SPHERE, "geometry_b.shape": DISK, "geometry_b.inside": True}, "geometry_b.inside", "inside surfaces are offered for a Sphere"),
        ({"geometry_a.shape": SPHERE, "geometry_a.inside": True, "geometry_b.shape": SPHERE, "geometry_b.inside": True}, "geometry_a.inside, geometry_b.inside", "inside surfaces are offered for a Sphere"),
        ({"geometry_a.shape": CYLINDER, "geometry_a.end_top": True, "geometry_b.shape": SPHERE}, "geometry_a.end_top", "an end face is a wall of an inside Cylinder"),
        ({"geometry_a.shape": SPHERE, "geometry_a.inside": True, "geometry_a.end_bottom": True}, "geometry_a.end_bottom", "an end face is a wall of an inside Cylinder"),
    ],
)
def test_inside_pairs_not_offered_are_refused_when_initialisation_ends(slave, params, switch, says):
    slave.enter_initialization(params)
    slave.set(at_rest("a", (0, 0, 0)) | at_rest("b", (0, 0, 0)))
    with pytest.raises(FMICallException):
        slave.exit_initialization()
    log = slave.log_text()
    assert switch in log, log
    assert says in log, log
