"""Time-varying input trajectories for the closed-form tests.

Why: a comparison with the reference formulas is only worth something if the inputs exercise every
term: non-trivial orientations and geometry offsets (so that rotations and the composition body pose
∘ offset matter), angular velocities (so that v_X(C) = v_X + w_X × (C - r_X) matters), approach and
recession (both signs of the penetration rate, including the receding phase where the spring-damper
force is clipped to zero), sideways slip in both directions, and phases apart as well as in contact.

Every scenario is built the same way. A reference point P is the centre of the round body (sphere
or point) of the pair, n is the contact normal from A toward B and e_t a tangent. Body A follows a
prescribed rigid motion. B is placed so that the separation follows s(t) = S0 + S1 cos(4 pi t + PHASE)
(two contact phases in one second), and B's velocity at P is A's velocity at P plus s'(t) n (approach
and recession) plus slip(t) e_t (sideways slip, reversing direction). Positions are not exactly
the integrals of the velocities (the FMU takes them as independent inputs, as a co-simulation master
would give them); the velocities are what sets the penetration rate and slip in the force laws.
"""

from __future__ import annotations

import numpy as np

import reference as ref
from reference import Body, Geometry, Parameters

# Separation s(t) = S0 + S1 cos(4 pi t + PHASE): apart at t = 0 (4 mm), 2 mm deep near t = 0.24 and
# 0.74. The phase keeps the deepest points (where the penetration rate is zero) off the 1 ms
# communication grid: with a velocity exponent q < 1 the Hunt-Crossley damping term |dd|^q has an
# infinite slope at dd = 0, so a rounding-level dd there would be amplified far beyond 1e-12.
S0, S1, PHASE = 1e-3, 3e-3, 0.1


def separation(t):
    return S0 + S1 * np.cos(4 * np.pi * t + PHASE)


def separation_rate(t):
    return -4 * np.pi * S1 * np.sin(4 * np.pi * t + PHASE)


def slip(t):
    """Sideways slip speed along e_t [m/s]; reverses sign three times a second."""
    return 0.12 * np.cos(3 * np.pi * t + 0.4)


def rotating(axis, angle0, rate, q0):
    """q(t) = rot(axis, angle0 + rate t) ∘ q0 and its (world-resolved) angular velocity rate * axis."""
    axis = np.asarray(axis, dtype=float) / np.linalg.norm(axis)

    def q(t):
        return ref.quat_multiply(ref.axis_angle_quat(axis, angle0 + rate * t), q0)

    return q, rate * axis


def conjugate(q):
    return np.array([q[0], -q[1], -q[2], -q[3]])


def unit(v):
    v = np.asarray(v, dtype=float)
    return v / np.linalg.norm(v)


def body_a_motion(t):
    """Body A: translating and rotating about a skew axis, so no vector is axis-aligned."""
    r = np.array([0.1 + 0.02 * np.sin(3 * t), -0.2, 0.05 + 0.01 * t])
    v = np.array([0.06 * np.cos(3 * t), 0.0, 0.01])
    q_of, w = rotating([1.0, 2.0, 0.5], 0.35, 0.4, ref.axis_angle_quat([0.2, -1.0, 0.3], 0.5))
    return Body(r=r, q=q_of(t), v=v, w=w)


def b_orientation(t):
    """Body B's orientation and angular velocity: a slow spin about another skew axis."""
    q_of, w = rotating([-0.4, 0.3, 1.0], 1.0, -0.5, ref.axis_angle_quat([1.0, 1.0, 0.0], -0.7))
    return q_of(t), w


def pose_b(params: Parameters, t):
    """Body A, body B and the scenario's normal and tangent at time t."""
    a = body_a_motion(t)
    ga, gb = params.geometry_a, params.geometry_b
    origin_a, R_ga = ref.geometry_frame(a, ga)
    s = separation(t)

    if ga.shape == ref.SHAPE_PLANE:
        # B round: its centre hovers s + r_B above A's plane, wandering over it.
        n = R_ga[:, 2]
        e_t = unit(R_ga @ np.array([np.cos(0.3 + t), np.sin(0.3 + t), 0.0]))
        P = origin_a + R_ga @ np.array([0.03 * np.sin(3 * np.pi * t), 0.01 * np.cos(2 * np.pi * t), ref.sphere_radius(gb) + s])
        q_b, w_b = b_orientation(t)
        R_b = ref.rotation_matrix(q_b)
        r_b = P - R_b @ np.asarray(gb.r, dtype=float)
    elif gb.shape == ref.SHAPE_PLANE:
        # A round, B a plane: B's plane turns slowly and sits so that A's centre is s + r_A above it.
        P = origin_a
        q_gb = ref.quat_multiply(ref.axis_angle_quat([0.3, 1.0, -0.2], 2.5 + 0.3 * t), ref.axis_angle_quat([1.0, 0.0, 0.4], 0.2))
        R_gb = ref.rotation_matrix(q_gb)
        n = -R_gb[:, 2]  # from A toward B: into B's plane
        e_t = unit(R_gb @ np.array([np.cos(1.0 - t), np.sin(1.0 - t), 0.0]))
        o_gb = P - R_gb @ np.array([0.02 * np.sin(2 * np.pi * t), -0.01, ref.sphere_radius(ga) + s])
        q_b = ref.quat_multiply(q_gb, conjugate(ref.normalized(gb.q)))
        _, w_b = b_orientation(t)
        R_b = ref.rotation_matrix(q_b)
        r_b = o_gb - R_b @ np.asarray(gb.r, dtype=float)
    else:
        # Both round: B's centre circles around A's at distance r_A + r_B + s.
        P_a = origin_a
        n = unit(R_ga @ np.array([np.sin(0.6 + 0.5 * np.sin(2 * np.pi * t)), 0.3, np.cos(0.6 + 0.5 * np.sin(2 * np.pi * t))]))
        e_t = unit(np.cross(n, [0.3, -0.5, 0.8]))
        P = P_a + (ref.sphere_radius(ga) + ref.sphere_radius(gb) + s) * n
        q_b, w_b = b_orientation(t)
        R_b = ref.rotation_matrix(q_b)
        r_b = P - R_b @ np.asarray(gb.r, dtype=float)

    # B's material velocity at P: A's, plus the normal rate and the slip.
    v_b_at_p = a.velocity_at(P) + separation_rate(t) * n + slip(t) * e_t
    v_b = v_b_at_p + np.cross(w_b, r_b - P)
    b = Body(r=r_b, q=q_b, v=v_b, w=w_b)
    return a, b


def input_table(params: Parameters, times) -> np.ndarray:
    """The scenario as the structured array FMPy's simulate_fmu takes: 'time' and the 26 inputs."""
    dtype = [("time", np.float64)] + [(name, np.float64) for name in ref.INPUT_NAMES]
    table = np.zeros(len(times), dtype=dtype)
    for i, t in enumerate(times):
        a, b = pose_b(params, t)
        row = [t]
        for body in (a, b):
            row += list(body.r) + list(body.q) + list(body.v) + list(body.w)
        table[i] = tuple(row)
    return table


# ---------------------------------------------------------------------------------------------
# The cases: every supported pair in both orders, both normal laws, both friction laws.

OFFSET_A = Geometry(r=(0.05, -0.02, 0.01), q=tuple(ref.axis_angle_quat([0.0, 1.0, 1.0], 0.3)))
OFFSET_B = Geometry(r=(0.01, 0.02, -0.03), q=tuple(ref.axis_angle_quat([1.0, -0.5, 0.2], -0.4)))


def geometry(shape, radius, offset: Geometry) -> Geometry:
    return Geometry(shape=shape, radius=radius, r=offset.r, q=offset.q)


def lsd(**kw):
    return dict(normal_law=ref.NORMAL_LINEAR_SPRING_DAMPER, stiffness=1e5, damping=800.0, **kw)


def hunt_crossley(n, p, q, k, b, **kw):
    return dict(
        normal_law=ref.NORMAL_HUNT_CROSSLEY, stiffness=k, damping=b, exponent=n, damping_exponent=p, velocity_exponent=q, **kw
    )


TANH = dict(friction_law=ref.FRICTION_TANH, mu_dynamic=0.4, tanh_gain=8.0)
NONE = dict(friction_law=ref.FRICTION_NONE)

CASES = {
    "plane-sphere linear tanh": Parameters(
        geometry_a=geometry(ref.SHAPE_PLANE, 0.1, OFFSET_A), geometry_b=geometry(ref.SHAPE_SPHERE, 0.1, OFFSET_B), **lsd(), **TANH
    ),
    "plane-point linear tanh": Parameters(
        geometry_a=geometry(ref.SHAPE_PLANE, 0.1, OFFSET_A), geometry_b=geometry(ref.SHAPE_POINT, 0.1, OFFSET_B), **lsd(), **TANH
    ),
    "sphere-plane linear none": Parameters(
        geometry_a=geometry(ref.SHAPE_SPHERE, 0.12, OFFSET_A), geometry_b=geometry(ref.SHAPE_PLANE, 0.1, OFFSET_B), **lsd(), **NONE
    ),
    "point-plane huntcrossley q=1.3 none": Parameters(
        geometry_a=geometry(ref.SHAPE_POINT, 0.1, OFFSET_A),
        geometry_b=geometry(ref.SHAPE_PLANE, 0.1, OFFSET_B),
        **hunt_crossley(n=1.2, p=1.0, q=1.3, k=2e5, b=2e6),
        **NONE,
    ),
    "sphere-sphere huntcrossley q=0.7 tanh": Parameters(
        geometry_a=geometry(ref.SHAPE_SPHERE, 0.15, OFFSET_A),
        geometry_b=geometry(ref.SHAPE_SPHERE, 0.05, OFFSET_B),
        **hunt_crossley(n=1.5, p=1.2, q=0.7, k=2e6, b=1e6),
        **TANH,
    ),
    "sphere-point linear tanh": Parameters(
        geometry_a=geometry(ref.SHAPE_SPHERE, 0.2, OFFSET_A), geometry_b=geometry(ref.SHAPE_POINT, 0.1, OFFSET_B), **lsd(), **TANH
    ),
    "point-sphere huntcrossley defaults none": Parameters(
        geometry_a=geometry(ref.SHAPE_POINT, 0.1, OFFSET_A),
        geometry_b=geometry(ref.SHAPE_SPHERE, 0.08, OFFSET_B),
        **hunt_crossley(n=1.5, p=1.5, q=1.0, k=2e6, b=3e5),
        **NONE,
    ),
}
