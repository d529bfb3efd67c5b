"""Independent numpy re-implementation of the contact formulas, for checking the FMUs.

Why this file exists: the closed-form tests compare every output the FMU returns with these
formulas. To catch mistakes rather than copy them, this module is written from the binding
specifications only (shared/spec/physics.md for the force laws and signs, shared/spec/interface.md
for variable names and conventions), never from the Rust sources. It covers what the FMU supports
today:

- shapes Plane (half-space z <= 0 of its geometry frame, outward normal +z), Sphere, Point (a sphere
  of radius zero), in the pairs plane-point, plane-sphere, sphere-sphere and sphere-point, in both
  orders (A and B exchanged);
- normal laws LinearSpringDamper and HuntCrossley;
- friction laws None and Tanh.

Conventions (interface.md, physics.md):

- quaternions are (w, x, y, z), scalar first, rotate body-frame vectors into W and are normalised
  before use (the FMU normalises its inputs, and FMPy's linear interpolation of inputs does not keep
  them unit);
- each geometry frame is the body pose composed with the geometry offset `geometry_X.r`,
  `geometry_X.q` given in the body frame;
- the normal n points from A toward B; separation sep > 0 when apart; depth d = max(0, -sep);
- the force acts at the contact point C, the midpoint of the two witness points;
- v_rel = v_B(C) - v_A(C) with v_X(C) = v_X + w_X x (C - r_X); dd = -v_rel . n;
  v_t = v_rel - (v_rel . n) n;
- force on B: F = f_n n + f_t, on A: -F; torques (C - r_X) x F_X about each body's frame origin.

Everything is plain float64 numpy; the formulas are kept in their textbook form (no clever
rearrangements) so that a reader can check them against physics.md line by line.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

# Stable enumeration numbers (interface.md: Enumerations with the items of physics.md, in order).
SHAPE_POINT = 1
SHAPE_SPHERE = 2
SHAPE_PLANE = 9

NORMAL_LINEAR_SPRING_DAMPER = 1
NORMAL_HUNT_CROSSLEY = 3

FRICTION_NONE = 1
FRICTION_TANH = 4

# The 26 input scalars in the order of interface.md, flattened as `x[1]`, `x[2]`, ...
INPUT_VECTORS = [
    ("frame_a.r_0", 3),
    ("frame_a.q", 4),
    ("frame_a.v_0", 3),
    ("frame_a.w_0", 3),
    ("frame_b.r_0", 3),
    ("frame_b.q", 4),
    ("frame_b.v_0", 3),
    ("frame_b.w_0", 3),
]

# Real-valued outputs, with their sizes.
REAL_OUTPUT_VECTORS = [
    ("frame_a.f_0", 3),
    ("frame_a.t_0", 3),
    ("frame_b.f_0", 3),
    ("frame_b.t_0", 3),
    ("contact.separation", 1),
    ("contact.normal_force", 1),
    ("contact.friction_force", 1),
    ("contact.p_0", 3),
    ("contact.n_0", 3),
    ("contact.slip_speed", 1),
]
BOOLEAN_OUTPUTS = ["contact.active", "contact.sticking"]
INTEGER_OUTPUTS = ["contact.points"]


def scalar_names(name: str, size: int) -> list[str]:
    """The FMI scalar names of a variable: `name` for a scalar, `name[1]`, ... for an array."""
    return [name] if size == 1 else [f"{name}[{i + 1}]" for i in range(size)]


INPUT_NAMES = [s for name, size in INPUT_VECTORS for s in scalar_names(name, size)]
REAL_OUTPUT_NAMES = [s for name, size in REAL_OUTPUT_VECTORS for s in scalar_names(name, size)]
OUTPUT_NAMES = REAL_OUTPUT_NAMES + BOOLEAN_OUTPUTS + INTEGER_OUTPUTS


# ---------------------------------------------------------------------------------------------
# Rotations.


def normalized(q) -> np.ndarray:
    """The unit quaternion of q (w, x, y, z); the FMU normalises every quaternion it is given."""
    q = np.asarray(q, dtype=float)
    norm = np.sqrt(np.sum(q * q))
    if not np.isfinite(norm) or norm == 0.0:
        raise ValueError(f"quaternion {q} is zero or not finite")
    return q / norm


def quat_multiply(a, b) -> np.ndarray:
    """Hamilton product a * b of (w, x, y, z) quaternions: rotation b first, then a."""
    aw, ax, ay, az = a
    bw, bx, by, bz = b
    return np.array(
        [
            aw * bw - ax * bx - ay * by - az * bz,
            aw * bx + ax * bw + ay * bz - az * by,
            aw * by - ax * bz + ay * bw + az * bx,
            aw * bz + ax * by - ay * bx + az * bw,
        ]
    )


def rotation_matrix(q) -> np.ndarray:
    """Rotation matrix of a quaternion (w, x, y, z), normalised first; maps body to world vectors."""
    w, x, y, z = normalized(q)
    return np.array(
        [
            [1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y)],
            [2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x)],
            [2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y)],
        ]
    )


def axis_angle_quat(axis, angle) -> np.ndarray:
    """Unit quaternion (w, x, y, z) of a rotation by `angle` [rad] about `axis` (any length)."""
    axis = np.asarray(axis, dtype=float)
    axis = axis / np.linalg.norm(axis)
    return np.concatenate([[np.cos(angle / 2)], np.sin(angle / 2) * axis])


# ---------------------------------------------------------------------------------------------
# Parameters and inputs.


@dataclass
class Geometry:
    """`geometry_X.*`: the shape and its frame in the body frame."""

    shape: int = SHAPE_SPHERE
    radius: float = 0.1
    r: tuple = (0.0, 0.0, 0.0)
    q: tuple = (1.0, 0.0, 0.0, 0.0)


@dataclass
class Parameters:
    """The parameters this reference understands, with the FMU's documented defaults."""

    geometry_a: Geometry = field(default_factory=lambda: Geometry(shape=SHAPE_PLANE))
    geometry_b: Geometry = field(default_factory=lambda: Geometry(shape=SHAPE_SPHERE, radius=0.1))
    normal_law: int = NORMAL_LINEAR_SPRING_DAMPER
    stiffness: float = 1e6
    damping: float = 1e3
    exponent: float = 1.5
    damping_exponent: float = 1.5
    velocity_exponent: float = 1.0
    friction_law: int = FRICTION_TANH
    mu_dynamic: float = 0.3
    tanh_gain: float = 1e3

    def start_values(self) -> dict:
        """The FMU start values (interface names, flattened) that select these parameters."""
        values = {
            "normal.law": self.normal_law,
            "normal.stiffness": self.stiffness,
            "normal.damping": self.damping,
            "normal.exponent": self.exponent,
            "normal.damping_exponent": self.damping_exponent,
            "normal.velocity_exponent": self.velocity_exponent,
            "friction.law": self.friction_law,
            "friction.mu_dynamic": self.mu_dynamic,
            "friction.tanh_gain": self.tanh_gain,
        }
        for prefix, g in (("geometry_a", self.geometry_a), ("geometry_b", self.geometry_b)):
            values[f"{prefix}.shape"] = g.shape
            values[f"{prefix}.radius"] = g.radius
            for i in range(3):
                values[f"{prefix}.r[{i + 1}]"] = g.r[i]
            for i in range(4):
                values[f"{prefix}.q[{i + 1}]"] = g.q[i]
        return values


@dataclass
class Body:
    """Pose and twist of one body frame, resolved in W (the inputs `frame_X.*`)."""

    r: np.ndarray
    q: np.ndarray
    v: np.ndarray
    w: np.ndarray

    @staticmethod
    def from_row(row, prefix: str) -> "Body":
        """Reads `prefix.r_0[1..3]`, `prefix.q[1..4]`, ... from a mapping or structured-array row."""

        def vec(name, n):
            return np.array([float(row[f"{prefix}.{name}[{i + 1}]"]) for i in range(n)])

        return Body(r=vec("r_0", 3), q=vec("q", 4), v=vec("v_0", 3), w=vec("w_0", 3))

    def velocity_at(self, p) -> np.ndarray:
        """Velocity of the body's material point at p: v + w x (p - r)."""
        return self.v + np.cross(self.w, p - self.r)


def geometry_frame(body: Body, g: Geometry):
    """World position and rotation matrix of a geometry frame: body pose composed with the offset."""
    R_body = rotation_matrix(body.q)
    origin = body.r + R_body @ np.asarray(g.r, dtype=float)
    R = R_body @ rotation_matrix(g.q)
    return origin, R


# ---------------------------------------------------------------------------------------------
# Geometry pairs.


@dataclass
class Witnesses:
    """Closest (or deepest) points of the two surfaces, the normal from A to B and the separation."""

    p_a: np.ndarray
    p_b: np.ndarray
    n: np.ndarray
    separation: float


def sphere_radius(g: Geometry) -> float:
    """A point is a sphere of radius zero."""
    return 0.0 if g.shape == SHAPE_POINT else float(g.radius)


def plane_vs_sphere(plane_origin, plane_R, centre, radius):
    """Plane (half-space z <= 0 of its frame) against a sphere: witnesses with the normal out of the plane.

    The plane's outward normal m is its frame's z axis. The sphere centre is at height
    h = (c - o) . m above the plane: separation h - radius, witness on the plane the foot of the
    centre, witness on the sphere its lowest point c - radius m.
    """
    m = plane_R[:, 2]
    h = np.dot(centre - plane_origin, m)
    return Witnesses(p_a=centre - h * m, p_b=centre - radius * m, n=m, separation=h - radius)


def sphere_vs_sphere(centre_a, radius_a, centre_b, radius_b):
    """Two spheres: normal along the line of centres from A to B."""
    delta = centre_b - centre_a
    distance = np.sqrt(np.dot(delta, delta))
    n = delta / distance
    return Witnesses(
        p_a=centre_a + radius_a * n,
        p_b=centre_b - radius_b * n,
        n=n,
        separation=distance - radius_a - radius_b,
    )


def witnesses(params: Parameters, body_a: Body, body_b: Body) -> Witnesses:
    """The witness points of the supported pairs, in either order."""
    ga, gb = params.geometry_a, params.geometry_b
    origin_a, R_a = geometry_frame(body_a, ga)
    origin_b, R_b = geometry_frame(body_b, gb)
    round_shapes = (SHAPE_POINT, SHAPE_SPHERE)
    if ga.shape == SHAPE_PLANE and gb.shape in round_shapes:
        return plane_vs_sphere(origin_a, R_a, origin_b, sphere_radius(gb))
    if ga.shape in round_shapes and gb.shape == SHAPE_PLANE:
        # The same pair seen from the other side: witnesses exchanged, normal reversed.
        w = plane_vs_sphere(origin_b, R_b, origin_a, sphere_radius(ga))
        return Witnesses(p_a=w.p_b, p_b=w.p_a, n=-w.n, separation=w.separation)
    if ga.shape in round_shapes and gb.shape in round_shapes:
        if ga.shape == SHAPE_POINT and gb.shape == SHAPE_POINT:
            raise ValueError("point-point is not a supported pair")
        return sphere_vs_sphere(origin_a, sphere_radius(ga), origin_b, sphere_radius(gb))
    raise ValueError(f"pair {ga.shape}-{gb.shape} is not covered by this reference")


# ---------------------------------------------------------------------------------------------
# Force laws.


def normal_force_unclipped(params: Parameters, d: float, dd: float) -> float:
    """The normal law's value before clipping at zero (physics.md, normal laws table)."""
    k, b = params.stiffness, params.damping
    if params.normal_law == NORMAL_LINEAR_SPRING_DAMPER:
        return k * d + b * dd
    if params.normal_law == NORMAL_HUNT_CROSSLEY:
        n, p, q = params.exponent, params.damping_exponent, params.velocity_exponent
        # b dd |dd|^(q-1) d^p written as b sign(dd) |dd|^q d^p: the same value, finite at dd = 0.
        return k * d**n + b * np.sign(dd) * abs(dd) ** q * d**p
    raise ValueError(f"normal law {params.normal_law} is not covered by this reference")


def friction_force(params: Parameters, f_n: float, v_t: np.ndarray) -> np.ndarray:
    """Tangential force on B: f_t = -mu(v) f_n v_t / v, zero at v = 0 and for the law None."""
    if params.friction_law == FRICTION_NONE:
        return np.zeros(3)
    if params.friction_law == FRICTION_TANH:
        v = np.sqrt(np.dot(v_t, v_t))
        if v == 0.0:
            return np.zeros(3)
        mu = params.mu_dynamic * np.tanh(params.tanh_gain * v)
        return -mu * f_n * v_t / v
    raise ValueError(f"friction law {params.friction_law} is not covered by this reference")


# ---------------------------------------------------------------------------------------------
# The whole block.


def evaluate(params: Parameters, body_a: Body, body_b: Body) -> dict:
    """Every output of the block for one set of inputs, keyed by FMI scalar name.

    Besides the FMU's outputs the result carries a few diagnostic values under keys starting with
    an underscore: `_f_n_unclipped` (the normal law before clipping), `_v_t` (slip velocity at C)
    and `_dd` (penetration rate); the tests use them to check that a scenario really covers the
    phases it claims to cover.
    """
    w = witnesses(params, body_a, body_b)
    n = w.n
    d = max(0.0, -w.separation)
    C = 0.5 * (w.p_a + w.p_b)  # contact point: midpoint of the witnesses

    v_rel = body_b.velocity_at(C) - body_a.velocity_at(C)
    dd = -np.dot(v_rel, n)
    v_t = v_rel - np.dot(v_rel, n) * n

    if w.separation < 0.0:
        f_raw = normal_force_unclipped(params, d, dd)
    else:
        f_raw = 0.0  # apart (or just touching): no contact, no force
    f_n = max(0.0, f_raw)
    f_t = friction_force(params, f_n, v_t) if f_n > 0.0 else np.zeros(3)

    F_b = f_n * n + f_t
    F_a = -F_b
    T_b = np.cross(C - body_b.r, F_b)
    T_a = np.cross(C - body_a.r, F_a)

    active = f_n > 0.0
    if active:
        p_0 = C  # one point: the normal-force-weighted mean is the point itself
    elif w.separation < 0.0:
        # Overlapping but the law is clipped to zero (receding fast): interface.md defines p_0 only
        # for active points and for bodies apart; the contact point itself is the natural choice.
        p_0 = C
    else:
        p_0 = w.p_a  # apart: the closest point on A
    v_rel_p0 = body_b.velocity_at(p_0) - body_a.velocity_at(p_0)
    v_t_p0 = v_rel_p0 - np.dot(v_rel_p0, n) * n

    out = {}

    def put(name, value):
        value = np.atleast_1d(np.asarray(value, dtype=float))
        for s, x in zip(scalar_names(name, value.size), value):
            out[s] = float(x)

    put("frame_a.f_0", F_a)
    put("frame_a.t_0", T_a)
    put("frame_b.f_0", F_b)
    put("frame_b.t_0", T_b)
    put("contact.separation", w.separation)
    put("contact.normal_force", f_n)
    put("contact.friction_force", np.sqrt(np.dot(f_t, f_t)))
    put("contact.p_0", p_0)
    put("contact.n_0", n)
    put("contact.slip_speed", np.sqrt(np.dot(v_t_p0, v_t_p0)))
    out["contact.active"] = bool(active)
    out["contact.sticking"] = False  # only stateful friction laws stick
    out["contact.points"] = 1 if active else 0
    out["_f_n_unclipped"] = float(f_raw)
    out["_v_t"] = v_t
    out["_dd"] = float(dd)
    return out


def evaluate_row(params: Parameters, row) -> dict:
    """`evaluate` on the inputs found in a mapping or a row of a structured array."""
    return evaluate(params, Body.from_row(row, "frame_a"), Body.from_row(row, "frame_b"))
