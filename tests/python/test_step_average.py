"""coupling.mode = StepAverage through the packaged FMUs in FMPy, at the communication steps
co-simulations run (1 to 10 ms).

A master written here drives the ContactForce FMU around a point mass that integrates exactly
under the held force (as the RigidBody FMU does), in both orders a master can take:

- Gauss-Seidel: the body's state goes in, the contact's force is read, then both step;
- Jacobi (libcosim and other parallel masters): both step from the same instant with what was
  exchanged before, then the outputs are read and the inputs set;
- Jacobi with a second read (Ecos 0.7.2, its FMI calls logged): as Jacobi, but after setting the
  contact's inputs the master reads its outputs again, and passes on the first read.

The ball is scenarios/sphere_drop.toml's: m = 1 kg, radius 0.05 m, dropped from 0.5 m,
LinearSpringDamper k = 1e6 N/m, b = 200 N.s/m (omega = 1000 rad/s): the clipped closed-form
restitution is 0.7440794. Under Instantaneous coupling it is 1.66 at 1 ms (the issue's
measurement); the tests below require it within 2 % at 1 ms and 5 % at 3 ms.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

G = 9.81
RESTITUTION = 0.7440793977217797
V0 = math.sqrt(2 * G * 0.5)


class PointMass:
    def __init__(self, r, m=1.0, g=(0.0, 0.0, -G)):
        self.r = np.array(r, dtype=float)
        self.v = np.zeros(3)
        self.m = m
        self.g = np.array(g, dtype=float)

    def step(self, f, h):
        a = np.asarray(f) / self.m + self.g
        self.r += self.v * h + 0.5 * a * h * h
        self.v += a * h


FORCE = ["frame_b.f_0[1]", "frame_b.f_0[2]", "frame_b.f_0[3]"]


def body_inputs(body):
    names = ["frame_b.r_0[1]", "frame_b.r_0[2]", "frame_b.r_0[3]", "frame_b.v_0[1]", "frame_b.v_0[2]", "frame_b.v_0[3]"]
    return dict(zip(names, list(body.r) + list(body.v)))


READ = FORCE + ["contact.max_normal_force"]

ORDERS = ["gauss-seidel", "jacobi", "jacobi-reread"]

def run(slave, body, order, h, steps, sample=None):
    """`steps` communication steps of `h` in `order`; `sample(body, read)` after each, with the
    outputs the master read in that step (`read[3]`: contact.max_normal_force). The master reads
    the outputs once per step, where its order reads them: a read after the inputs of the next
    step are set would be another master's (one that holds that read)."""
    t = 0.0
    slave.set(body_inputs(body))
    read = slave.get_vector(READ)
    for _ in range(steps):
        if order == "gauss-seidel":
            slave.set(body_inputs(body))
            read = slave.get_vector(READ)
            slave.do_step(t, h)
            body.step(read[:3], h)
        else:
            slave.do_step(t, h)
            body.step(read[:3], h)
            read = slave.get_vector(READ)
            slave.set(body_inputs(body))
            if order == "jacobi-reread":
                slave.get_vector(READ)
        t += h
        if sample is not None:
            sample(body, read)


def ball_parameters(h):
    return {
        "geometry_b.radius": 0.05,
        "normal.law": 1,  # LinearSpringDamper
        "normal.stiffness": 1e6,
        "normal.damping": 200.0,
        "friction.law": 1,  # None
        "coupling.mode": 2,  # StepAverage
        "coupling.step": h,
        "body_b.mass": 1.0,
    }


def started(new_slave, parameters, body):
    slave = new_slave()
    slave.initialize(parameters, body_inputs(body))
    return slave


def restitution(new_slave, order, h):
    body = PointMass([0.0, 0.0, 0.55])
    slave = started(new_slave, ball_parameters(h), body)
    seen = {"descended": False, "rebound": 0.0}

    def sample(b, _):
        if b.v[2] < -0.5 * V0:
            seen["descended"] = True
        if seen["descended"]:
            seen["rebound"] = max(seen["rebound"], b.v[2])

    run(slave, body, order, h, int(round(0.75 / h)), sample)
    return seen["rebound"] / V0


def test_the_enumeration_numbers_used_here_are_the_model_descriptions(fmu_path):
    from enumerations import enumeration_types

    types = enumeration_types(fmu_path)
    assert types["CouplingMode"]["StepAverage"] == 2
    assert types["NormalLaw"]["LinearSpringDamper"] == 1
    assert types["FrictionLaw"]["None"] == 1
    assert types["NormalLaw"]["GroundModel"] == 6
    assert types["FrictionLaw"]["ElasticCone"] == 6
    assert types["Shape"]["Box"] == 3


@pytest.mark.parametrize("order", ORDERS)
@pytest.mark.parametrize("h, tolerance", [(1e-3, 0.02), (3e-3, 0.05)])
def test_restitution_is_the_closed_form_at_millisecond_steps(new_slave, order, h, tolerance):
    e = restitution(new_slave, order, h)
    assert abs(e / RESTITUTION - 1) < tolerance, f"{order}, h = {h}: e = {e:.5f} against {RESTITUTION:.5f}"


@pytest.mark.parametrize("order, h", [(o, h) for o in ORDERS for h in (1e-3, 3e-3, 1e-2)])
def test_bouncing_gains_no_energy_and_ends_at_rest(new_slave, order, h):
    body = PointMass([0.0, 0.0, 0.55])
    slave = started(new_slave, ball_parameters(h), body)
    energy = lambda b: 0.5 * b.m * b.v[2] ** 2 + b.m * G * (b.r[2] - 0.05)
    start = energy(body)
    seen = {"touched": False, "highest": -math.inf, "peak": 0.0}

    def sample(b, s):
        seen["touched"] |= b.r[2] < 0.05
        seen["peak"] = max(seen["peak"], s[3])
        if seen["touched"] and b.r[2] > 0.05:
            seen["highest"] = max(seen["highest"], energy(b))

    run(slave, body, order, h, int(round(3.0 / h)), sample)
    # Apart from the plane, after the first contact, the energy stays below what the first
    # rebound leaves (e^2 of the start, 5 % margin for the step's own error).
    assert seen["highest"] < start * RESTITUTION**2 * 1.05, f"{seen['highest']} J after contact, {start} J at the start"
    assert abs(body.v[2]) < 1e-3, f"still moving at {body.v[2]} m/s"
    # The peak of the first impact, which the averaged force hides: about m v0 omega' (2,900 N
    # for this ball) and far above the largest averaged force at 10 ms.
    assert 2000 < seen["peak"] < 4000, seen["peak"]


def box_parameters(h):
    return {
        "geometry_b.shape": 3,  # Box
        "geometry_b.size[1]": 0.1,
        "geometry_b.size[2]": 0.1,
        "geometry_b.size[3]": 0.05,
        "normal.law": 6,  # GroundModel
        "normal.stiffness": 1e7,
        "normal.damping": 1e5,
        "friction.law": 6,  # ElasticCone
        "friction.mu_static": 0.5,
        "friction.stiffness": 1e8,
        "friction.damping": 6e4,
        "coupling.mode": 2,
        "coupling.step": h,
        "body_b.mass": 1.0,
    }


def box_on_incline(new_slave, degrees, h):
    """The box of scenarios/incline_*.toml as a point mass on the plane z = 0, gravity tilted by
    `degrees` about y (the slope descends toward +x), at rest at its four corners' even-load
    depth."""
    a = math.radians(degrees)
    depth = (G * math.cos(a) / (4 * 1e7)) ** (2 / 3)
    body = PointMass([0.0, 0.0, 0.025 - depth], g=(G * math.sin(a), 0.0, -G * math.cos(a)))
    return started(new_slave, box_parameters(h), body), body


@pytest.mark.parametrize("order", ORDERS)
def test_box_slides_down_35_degrees_at_the_closed_form(new_slave, order):
    h = 1e-3
    slave, body = box_on_incline(new_slave, 35, h)
    vs = []
    run(slave, body, order, h, 1000, lambda b, _: vs.append(b.v[0]))
    a = math.radians(35)
    expected = G * (math.sin(a) - 0.5 * math.cos(a))
    measured = (vs[999] - vs[199]) / 0.8
    assert abs(measured / expected - 1) < 0.02, f"{order}: {measured} m/s2 against {expected}"


@pytest.mark.parametrize("order", ORDERS)
def test_box_rests_on_20_degrees_without_creep(new_slave, order):
    h = 1e-3
    slave, body = box_on_incline(new_slave, 20, h)
    xs = []
    run(slave, body, order, h, 700, lambda b, _: xs.append(b.r[0]))
    creep = max(xs[199:]) - min(xs[199:])
    assert creep < 1e-6, f"{order}: {creep} m of creep over 0.5 s"


def test_both_masses_zero_is_refused_with_a_message(new_slave):
    slave = new_slave()
    slave.enter_initialization({"coupling.mode": 2})
    with pytest.raises(Exception):
        slave.exit_initialization()
    assert "body_a.mass, body_b.mass" in slave.log_text(), slave.log_text()


def test_fmu_state_round_trip_continues_bit_for_bit(new_slave):
    """Rollback: a serialized state restored into a fresh instance continues exactly as the
    original (the drift, the other forces' estimate and the prediction travel with it)."""
    h = 1e-3
    body = PointMass([0.0, 0.0, 0.06])
    slave = started(new_slave, ball_parameters(h), body)
    run(slave, body, "jacobi", h, 20)
    data = slave.serialize(slave.get_state())
    copy_body = PointMass(body.r.copy())
    copy_body.v = body.v.copy()
    other = started(new_slave, ball_parameters(h), PointMass([0.0, 0.0, 0.55]))
    other.set_state(other.deserialize(data))
    # Both continue from t = 20 ms with the same held force.
    forces = []
    for s, b in ((slave, body), (other, copy_body)):
        trace = []
        t = 20 * h
        held = s.get_vector(FORCE)
        for _ in range(30):
            s.do_step(t, h)
            b.step(held, h)
            held = s.get_vector(FORCE)
            s.set(body_inputs(b))
            t += h
            trace.append(held.copy())
        forces.append(np.array(trace))
    assert np.array_equal(forces[0], forces[1])
