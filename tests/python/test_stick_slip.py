"""Stateful laws through FMPy on both packaged FMUs: stick, slip, their FMU state, Reset, sub-steps.

Why: the stateful laws (friction.law = ElasticCone and Stiction, normal.law = Restitution) keep a
state per contact point that DoStep integrates over [t, t + h] with the inputs held (interface.md,
"Co-simulation semantics"). For a point held at a fixed depth and dragged sideways at constant speed
the inputs really are constant over each step, so the state has a closed form at every
communication point and the FMU must reproduce it to rounding:

- geometry A = Plane (default, fixed at the origin), B = Point (geometry_b.shape = 1) at
  frame_b.r_0 = (x(t), 0, -d): depth d, normal n = +z, zero penetration rate, slip velocity
  v_t = frame_b.v_0 = (v, 0, 0);
- ElasticCone with GroundModel (physics.md): f_n = sqrt(d) K d (dd = 0); while sticking u = v t
  (u(0) = 0) and f_t = -sqrt(d) (Kt u + Dt v); the point sticks while |f_t| <= mu f_n, i.e. until
  t* = (mu f_n / sqrt(d) - Dt v) / (Kt v); then |f_t| = mu f_n and the deflection relaxes towards
  its steady slip value: u(t) = (R - Dt v exp(-(Kt/Dt)(t - t*))) / Kt with R = mu f_n / sqrt(d);
  out of contact u(t) = u(t_0) exp(-(Kt/Dt)(t - t_0));
- Stiction with LinearSpringDamper: f_n = k d; while sticking s = v t and
  f_t = -(mu_s f_n / delta) s; it breaks away at t_b = delta / v; slipping, f_t = -mu_d f_n v/|v|
  (s = (mu_d / mu_s) delta v/|v|); after a reversal of v it sticks again from that deflection.

Timing convention of these tests (interface.md): inputs for time t_k are set, DoStep(t_k, h)
integrates the state with them held, and the outputs read afterwards belong to t_{k+1} (the inputs
that matter here, depth and velocity, are the same at t_{k+1}; x is irrelevant for a plane).
"""

from __future__ import annotations

import math

import numpy as np
import pytest

import reference as ref

SHAPE_POINT = 1
SHAPE_SPHERE = 2
NORMAL_LINEAR_SPRING_DAMPER = 1
NORMAL_GROUND_MODEL = 6
NORMAL_RESTITUTION = 7
FRICTION_NONE = 1
FRICTION_ELASTIC_CONE = 6
FRICTION_STICTION = 7

DEPTH = 1e-4  # m: the point is held at frame_b.r_0[3] = -DEPTH
LIFTED = 1e-3  # m: frame_b.r_0[3] when the point is lifted off the plane

# ElasticCone + GroundModel: f_n = sqrt(d) K d = 1e-2 * 1e8 * 1e-4 = 100 N, mu f_n = 50 N.
CONE = dict(
    params={
        "geometry_b.shape": SHAPE_POINT,
        "normal.law": NORMAL_GROUND_MODEL,
        "normal.stiffness": 1e8,
        "normal.damping": 1e6,
        "friction.law": FRICTION_ELASTIC_CONE,
        "friction.mu_static": 0.5,
        "friction.stiffness": 1e6,
        "friction.damping": 2.5e3,
    },
    K=1e8,
    mu=0.5,
    Kt=1e6,
    Dt=2.5e3,
    v=1.2e-3,  # m/s: Dt v = 3, Kt v = 1200: t* = (5000 - 3) / 1200 = 4.1641666... s
    h=0.02,  # s: t* / h = 208.2, far from the grid (and from the 1 ms sub-step grid)
    steps=300,
)

# Stiction + LinearSpringDamper: f_n = k d = 100 N; mu_s f_n = 60 N, mu_d f_n = 40 N.
STICTION = dict(
    params={
        "geometry_b.shape": SHAPE_POINT,
        "normal.law": NORMAL_LINEAR_SPRING_DAMPER,
        "normal.stiffness": 1e6,
        "normal.damping": 1e3,
        "friction.law": FRICTION_STICTION,
        "friction.mu_static": 0.6,
        "friction.mu_dynamic": 0.4,
        "friction.max_deformation": 1e-4,
    },
    k=1e6,
    mu_s=0.6,
    mu_d=0.4,
    delta=1e-4,
    v=1.6e-3,  # m/s: breaks away at t_b = delta / v = 62.5 ms, midway between two steps
    h=1e-3,
    forward=120,  # steps dragged along +x, then the drag reverses
    backward=200,  # steps dragged along -x: sticks for (5/3) delta / v = 104.17 ms, then slips
)

RTOL = 1e-12


def close(obtained, expected, rtol=RTOL, scale=None):
    """|obtained - expected| <= rtol * max(|expected|, scale)."""
    scale = abs(expected) if scale is None else max(abs(expected), scale)
    return abs(obtained - expected) <= rtol * scale


class Drag:
    """One instance with a point pressed into the plane and dragged along x.

    `rows` holds every output of `ref.OUTPUT_NAMES` at each communication point, `times` the time
    the row belongs to. The velocity, depth and step size may change from step to step; x follows
    the velocity exactly (x += v h).
    """

    def __init__(self, slave, params, h, max_step=None):
        self.slave, self.h = slave, h
        self.params = dict(params)
        if max_step is not None:
            self.params["solver.max_step"] = max_step
        self.t, self.x = 0.0, 0.0
        self.rows, self.times = [], []

    def inputs(self, v, z):
        return {"frame_b.r_0[1]": self.x, "frame_b.r_0[3]": z, "frame_b.v_0[1]": v}

    def start(self, v, z=-DEPTH):
        self.slave.initialize(self.params, self.inputs(v, z), start_time=0.0)
        self.record()
        return self

    def record(self):
        self.rows.append(self.slave.get_vector(ref.OUTPUT_NAMES))
        self.times.append(self.t)
        return self.rows[-1]

    def set(self, v, z=-DEPTH):
        """Sets the inputs for the current time and returns the outputs for them (no step)."""
        self.slave.set(self.inputs(v, z))
        return self.slave.get_vector(ref.OUTPUT_NAMES)

    def step(self, v, z=-DEPTH, h=None):
        h = self.h if h is None else h
        self.slave.set(self.inputs(v, z))
        self.slave.do_step(self.t, h)
        self.t += h
        self.x += v * h
        return self.record()

    def steps(self, n, v, z=-DEPTH):
        for _ in range(n):
            self.step(v, z)
        return self

    def column(self, name, rows=None):
        rows = np.array(self.rows if rows is None else rows)
        return rows[:, ref.OUTPUT_NAMES.index(name)]


def out(row, name):
    return row[ref.OUTPUT_NAMES.index(name)]


def assert_identical(obtained, expected, what):
    obtained, expected = np.asarray(obtained), np.asarray(expected)
    assert obtained.shape == expected.shape, f"{what}: shapes {obtained.shape} != {expected.shape}"
    if not np.array_equal(obtained, expected):
        row, col = np.argwhere(obtained != expected)[0]
        raise AssertionError(
            f"{what}: first difference at row {row}, {ref.OUTPUT_NAMES[col]}: {obtained[row, col]!r} != {expected[row, col]!r}"
        )


# ---------------------------------------------------------------------------------------------
# Closed forms.


def cone_normal_force(c=CONE, d=DEPTH):
    return math.sqrt(d) * c["K"] * d


def cone_radius(c=CONE, d=DEPTH):
    """R = mu f_n / sqrt(d): the cone in terms of w = Kt u + Dt v."""
    return c["mu"] * cone_normal_force(c, d) / math.sqrt(d)


def cone_break_time(c=CONE):
    """t* = (mu f_n / sqrt(d) - Dt v) / (Kt v)."""
    return (cone_radius(c) - c["Dt"] * c["v"]) / (c["Kt"] * c["v"])


def cone_deflection(t, c=CONE):
    """u(t) of the drag from u(0) = 0 at constant v: v t while sticking, then the slip solution."""
    ts = cone_break_time(c)
    if t <= ts:
        return c["v"] * t
    rate = c["Kt"] / c["Dt"]
    return (cone_radius(c) - c["Dt"] * c["v"] * math.exp(-rate * (t - ts))) / c["Kt"]


def cone_trial_force(t, c=CONE, d=DEPTH):
    """|ft*| of the stick phase: sqrt(d) (Kt v t + Dt v)."""
    return math.sqrt(d) * (c["Kt"] * c["v"] * t + c["Dt"] * c["v"])


def start_drag(new_slave, case, name="drag", max_step=None):
    return Drag(new_slave(name), case["params"], case["h"], max_step=max_step).start(case["v"])


def run_cone(new_slave, name="cone", max_step=None, steps=None):
    return start_drag(new_slave, CONE, name, max_step).steps(CONE["steps"] if steps is None else steps, CONE["v"])


def run_stiction(new_slave, name="stiction", max_step=None):
    s = STICTION
    drag = start_drag(new_slave, s, name, max_step)
    drag.steps(s["forward"], s["v"])
    drag.steps(s["backward"], -s["v"])
    return drag


# ---------------------------------------------------------------------------------------------
# (a) ElasticCone with GroundModel: stick with a closed-form force, slip at mu f_n at t*.


def test_elastic_cone_sticks_with_the_closed_form_force_then_slips_at_the_cone(new_slave):
    c = CONE
    drag = run_cone(new_slave)
    f_n = cone_normal_force()
    limit = c["mu"] * f_n
    t_star = cone_break_time()
    rows = np.array(drag.rows)
    sticking = drag.column("contact.sticking").astype(bool)
    fx = drag.column("frame_b.f_0[1]")

    # The grid must not hit t* (a tie would make "exact" meaningless) and must cover both phases.
    assert min(abs(t - t_star) for t in drag.times) > 0.1 * c["h"]
    assert t_star < drag.times[-1] - 50 * c["h"]

    for k, (t, row) in enumerate(zip(drag.times, rows)):
        assert out(row, "contact.active") == 1.0
        assert close(out(row, "contact.normal_force"), f_n), f"k={k}: f_n = {out(row, 'contact.normal_force')} != {f_n}"
        assert close(out(row, "frame_b.f_0[3]"), f_n)
        assert out(row, "frame_a.f_0[1]") == -out(row, "frame_b.f_0[1]")
        assert close(out(row, "contact.slip_speed"), c["v"])
        assert out(row, "frame_b.f_0[2]") == 0.0
        trial = cone_trial_force(t)
        if trial <= limit:
            # Stick: f_t = -sqrt(d) (Kt v t + Dt v), exactly (u = v t for held inputs).
            assert sticking[k], f"k={k}, t={t}: trial {trial} <= mu f_n = {limit} but not sticking"
            assert close(fx[k], -trial), f"k={k}, t={t}: f_t = {fx[k]!r}, closed form {-trial!r}"
        else:
            assert not sticking[k], f"k={k}, t={t}: trial {trial} > mu f_n = {limit} but sticking"
            assert close(abs(fx[k]), limit), f"k={k}, t={t}: |f_t| = {abs(fx[k])!r} != mu f_n = {limit!r}"
            assert fx[k] < 0.0  # opposes the drag
        assert close(out(row, "contact.friction_force"), abs(fx[k]))

    # The transition is exactly the first grid point past t*, so within one step of t*.
    first_slip = int(np.argmin(sticking))
    assert sticking[:first_slip].all() and not sticking[first_slip:].any()
    assert drag.times[first_slip - 1] < t_star < drag.times[first_slip]
    assert first_slip > 200  # a long stick phase: many steps

    # The slip-phase deflection is observable after lifting the point for a short (variable) step
    # and putting it back with zero slip velocity: f_t = -sqrt(d) Kt u(t_L) exp(-(Kt/Dt) T).
    t_lift, lift = drag.t, 2.5e-3
    drag.step(0.0, LIFTED, h=lift)
    back = drag.set(0.0)
    expected = -math.sqrt(DEPTH) * c["Kt"] * cone_deflection(t_lift) * math.exp(-c["Kt"] / c["Dt"] * lift)
    assert close(out(back, "frame_b.f_0[1]"), expected), f"{out(back, 'frame_b.f_0[1]')!r} vs {expected!r}"
    assert out(back, "contact.sticking") == 1.0


# ---------------------------------------------------------------------------------------------
# (b) Stiction with LinearSpringDamper: spring up to mu_s f_n at delta, slip at mu_d f_n, stick
# again after a reversal with a continuous force.


def test_stiction_breaks_away_at_the_maximum_deformation_and_sticks_again_on_reversal(new_slave):
    s = STICTION
    f_n = s["k"] * DEPTH
    spring = s["mu_s"] * f_n / s["delta"]  # N/m
    v, h = s["v"], s["h"]
    drag = start_drag(new_slave, s, "stiction")
    drag.steps(s["forward"], v)
    t_b = s["delta"] / v
    assert min(abs(t - t_b) for t in drag.times) > 0.1 * h

    for k, (t, row) in enumerate(zip(drag.times, drag.rows)):
        assert close(out(row, "contact.normal_force"), f_n)
        fx = out(row, "frame_b.f_0[1]")
        if v * t < s["delta"]:
            assert out(row, "contact.sticking") == 1.0, f"k={k}: s = {v * t} < delta but not sticking"
            assert close(fx, -spring * v * t, scale=1e-9 * f_n), f"k={k}: f_t = {fx!r} vs {-spring * v * t!r}"
        else:
            assert out(row, "contact.sticking") == 0.0, f"k={k}: s = {v * t} >= delta but sticking"
            assert close(fx, -s["mu_d"] * f_n), f"k={k}: f_t = {fx!r} vs -mu_d f_n"
    sticking = drag.column("contact.sticking").astype(bool)
    first_slip = int(np.argmin(sticking))
    assert drag.times[first_slip - 1] < t_b < drag.times[first_slip]
    # Just before breaking away the spring carries almost mu_s f_n.
    assert abs(drag.rows[first_slip - 1][ref.OUTPUT_NAMES.index("frame_b.f_0[1]")]) > 0.98 * s["mu_s"] * f_n

    # Reversal: the force is continuous when the new velocity is set (still -mu_d f_n)...
    t_r = drag.t
    at_reversal = drag.set(-v)
    assert out(at_reversal, "frame_b.f_0[1]") == drag.rows[-1][ref.OUTPUT_NAMES.index("frame_b.f_0[1]")]
    # ...then the point sticks from the slip deflection s_r = (mu_d / mu_s) delta and the spring
    # unloads and reloads linearly: s(t) = s_r - v (t - t_r), until s = -delta.
    s_r = s["mu_d"] / s["mu_s"] * s["delta"]
    t_b2 = t_r + (s_r + s["delta"]) / v
    first = len(drag.rows)
    drag.steps(s["backward"], -v)
    assert min(abs(t - t_b2) for t in drag.times[first:]) > 0.1 * h
    assert drag.times[-1] > t_b2
    for k in range(first, len(drag.rows)):
        t, row = drag.times[k], drag.rows[k]
        fx = out(row, "frame_b.f_0[1]")
        if t < t_b2:
            deflection = s_r - v * (t - t_r)
            assert out(row, "contact.sticking") == 1.0, f"k={k}, t={t}: should stick again after the reversal"
            assert close(fx, -spring * deflection, scale=1e-9 * f_n), f"k={k}: f_t = {fx!r} vs {-spring * deflection!r}"
        else:
            assert out(row, "contact.sticking") == 0.0, f"k={k}, t={t}: should slip again"
            assert close(fx, s["mu_d"] * f_n), f"k={k}: f_t = {fx!r} vs +mu_d f_n"
    # The first step after the reversal changes the force by the spring over one step only.
    after = drag.rows[first][ref.OUTPUT_NAMES.index("frame_b.f_0[1]")]
    assert close(after - out(at_reversal, "frame_b.f_0[1]"), spring * v * h, rtol=1e-9)


# ---------------------------------------------------------------------------------------------
# (c) FMU state: saved during the stick phase, the rerun reproduces every output bit for bit.


@pytest.mark.parametrize("case", ["cone", "stiction"])
def test_fmu_state_round_trip_reproduces_the_stick_phase_exactly(new_slave, case):
    if case == "cone":
        c, save_at = CONE, 100  # t = 2 s, sticking; t* = 4.16 s
        schedule = [c["v"]] * (c["steps"] - save_at)
    else:
        c, save_at = STICTION, 40  # t = 40 ms, sticking; t_b = 76.9 ms
        schedule = [c["v"]] * (c["forward"] - save_at) + [-c["v"]] * c["backward"]
    drag = start_drag(new_slave, c, case)
    drag.steps(save_at, c["v"])
    assert drag.rows[-1][ref.OUTPUT_NAMES.index("contact.sticking")] == 1.0
    assert drag.rows[-1][ref.OUTPUT_NAMES.index("frame_b.f_0[1]")] != drag.rows[0][ref.OUTPUT_NAMES.index("frame_b.f_0[1]")]
    saved_t, saved_x = drag.t, drag.x
    state = drag.slave.get_state()
    blob = drag.slave.serialize(state)
    for v in schedule:
        drag.step(v)
    full = np.array(drag.rows[save_at:])
    # The continuation leaves the stick phase: the comparison covers the transition too.
    sticking = full[:, ref.OUTPUT_NAMES.index("contact.sticking")]
    assert sticking[0] == 1.0 and (sticking == 0.0).any()

    def rerun(slave, what):
        again = Drag(slave, c["params"], c["h"])
        again.t, again.x = saved_t, saved_x
        again.record()
        for v in schedule:
            again.step(v)
        assert_identical(again.rows, full, what)

    drag.slave.set_state(state)
    rerun(drag.slave, "rerun after SetFMUState")
    drag.slave.set_state(state)
    rerun(drag.slave, "second rerun from the same saved state")
    drag.slave.free_state(state)

    restored = drag.slave.deserialize(blob)
    drag.slave.set_state(restored)
    rerun(drag.slave, "rerun after DeSerializeFMUState")
    drag.slave.free_state(restored)

    # A second instance, initialised with the same parameters, continues identically too.
    other = Drag(new_slave(case + "-other"), c["params"], c["h"]).start(c["v"])
    copied = other.slave.deserialize(blob)
    other.slave.set_state(copied)
    rerun(other.slave, "second instance from the deserialised state")
    other.slave.free_state(copied)


# ---------------------------------------------------------------------------------------------
# (d) Reset: the stick phase starts again from zero deflection.


@pytest.mark.parametrize("case", ["cone", "stiction"])
def test_reset_restarts_the_stick_phase_from_zero_deflection(new_slave, case):
    run = run_cone if case == "cone" else run_stiction
    fresh = run(new_slave, case + "-fresh")
    slave = fresh.slave
    slave.reset()
    # Drive the same instance again: parameters and inputs set anew after Reset.
    c = CONE if case == "cone" else STICTION
    again = Drag(slave, c["params"], c["h"]).start(c["v"])
    first = again.rows[0]
    if case == "cone":
        # u = 0: only the damping term acts, f_t = -sqrt(d) Dt v.
        assert close(out(first, "frame_b.f_0[1]"), -math.sqrt(DEPTH) * c["Dt"] * c["v"])
    else:
        assert out(first, "frame_b.f_0[1]") == 0.0
    assert out(first, "contact.sticking") == 1.0
    if case == "cone":
        again.steps(c["steps"], c["v"])
    else:
        again.steps(c["forward"], c["v"])
        again.steps(c["backward"], -c["v"])
    assert_identical(again.rows, fresh.rows, "run after Reset")
    # And a separate fresh instance agrees.
    other = run(new_slave, case + "-other")
    assert_identical(other.rows, fresh.rows, "fresh second instance")


# ---------------------------------------------------------------------------------------------
# (e) Sub-steps: the 1-D stick/slip is exact for held inputs, so solver.max_step does not matter.


@pytest.mark.parametrize("case", ["cone", "stiction"])
def test_sub_steps_give_the_same_stick_slip_as_one_step(new_slave, case):
    """solver.max_step = h / 100 against solver.max_step = 10 h (one sub-step per step).

    Both integrate exactly; they differ only by rounding. While sticking the deflection grows by
    v * sub-step per sub-step, so N additions carry a rounding error of up to N eps / 2 relative
    to the deflection: with N = 100 sub-steps x 300 steps that is far below 1e-12 in practice
    (measured about 2e-13 for the cone). The differences are measured against the force scale of
    the contact (mu f_n for the tangential force, f_n for the normal force), since the stiction
    force passes through zero after the reversal, where a difference relative to the value itself
    is meaningless. (With max_step = h / 2000, 600 000 additions, the rounding reaches 7e-12.)
    """
    c = CONE if case == "cone" else STICTION
    fine_step = c["h"] / 100  # 2e-4 s and 1e-5 s
    if case == "cone":
        f_n = cone_normal_force()
        limit = c["mu"] * f_n
    else:
        f_n = c["k"] * DEPTH
        limit = c["mu_s"] * f_n
    runs = {}
    for label, max_step in [("coarse", 10 * c["h"]), ("fine", fine_step)]:
        if case == "cone":
            drag = run_cone(new_slave, f"{case}-{label}", max_step=max_step)
            # End with a lift of one short step and a re-contact at rest: this exposes the
            # slip-phase deflection and its relaxation, which the force of a slipping point hides.
            drag.step(0.0, LIFTED, h=2.5e-3)
            drag.rows.append(drag.set(0.0))
        else:
            drag = run_stiction(new_slave, f"{case}-{label}", max_step=max_step)
        runs[label] = np.array(drag.rows)
    coarse, fine = runs["coarse"], runs["fine"]
    assert coarse.shape == fine.shape
    for name in ref.BOOLEAN_OUTPUTS + ref.INTEGER_OUTPUTS:
        j = ref.OUTPUT_NAMES.index(name)
        assert np.array_equal(coarse[:, j], fine[:, j]), f"{name} differs between max_step {10 * c['h']} and {fine_step}"
    sticking = coarse[:, ref.OUTPUT_NAMES.index("contact.sticking")]
    assert (sticking == 1.0).sum() > 50 and (sticking == 0.0).sum() > 20
    for name, scale in [
        ("frame_b.f_0[1]", limit),
        ("contact.friction_force", limit),
        ("frame_b.f_0[3]", f_n),
        ("contact.normal_force", f_n),
    ]:
        j = ref.OUTPUT_NAMES.index(name)
        worst = np.max(np.abs(fine[:, j] - coarse[:, j])) / scale
        assert worst <= RTOL, f"{name}: largest difference {worst:.3e} (relative to {scale} N) between max_step {10 * c['h']} and {fine_step}"


# ---------------------------------------------------------------------------------------------
# (f) ElasticCone relaxation out of contact: u(t_L + T) = u(t_L) exp(-(Kt/Dt) T), read through the
# friction force when the point comes back at rest: f_t = -sqrt(d) Kt u.


@pytest.mark.parametrize("lift_steps", [1, 10, 40])
def test_elastic_cone_deflection_relaxes_exponentially_out_of_contact(new_slave, lift_steps):
    c = dict(CONE)
    c["params"] = dict(CONE["params"], **{"friction.damping": 2e5})
    c["Dt"] = 2e5  # Kt / Dt = 5 /s: visible relaxation over a few tenths of a second
    rate = c["Kt"] / c["Dt"]
    drag = start_drag(new_slave, c, "relax")
    drag.steps(100, c["v"])  # t_L = 2 s, sticking (t* = (5000 - 240) / 1200 = 3.97 s)
    assert drag.rows[-1][ref.OUTPUT_NAMES.index("contact.sticking")] == 1.0
    t_lift = drag.t
    u_lift = c["v"] * t_lift
    for _ in range(lift_steps):
        row = drag.step(0.0, LIFTED)
        # Out of contact: no active point, no force.
        assert out(row, "contact.active") == 0.0
        assert out(row, "frame_b.f_0[1]") == 0.0 and out(row, "contact.normal_force") == 0.0
    elapsed = drag.t - t_lift
    back = drag.set(0.0)
    expected = -math.sqrt(DEPTH) * c["Kt"] * u_lift * math.exp(-rate * elapsed)
    assert out(back, "contact.sticking") == 1.0
    assert close(out(back, "frame_b.f_0[1]"), expected), f"{out(back, 'frame_b.f_0[1]')!r} vs {expected!r}"
    # Not what no relaxation (or the wrong rate) would give.
    assert abs(out(back, "frame_b.f_0[1]") - (-math.sqrt(DEPTH) * c["Kt"] * u_lift)) > 0.05 * abs(expected)


# ---------------------------------------------------------------------------------------------
# Restitution: the onset speed v0 is frozen at the first step in contact and forgotten on leaving.

RADIUS = 0.1
REST_K, REST_N = 1e7, 1.5


def restitution_chi(model, e, v0):
    """physics.md: Hunt-Crossley 3(1-e)/(2 v0), Lankarani-Nikravesh 3(1-e^2)/(4 v0), Flores 8(1-e)/(5 e v0)."""
    return {1: 3 * (1 - e) / (2 * v0), 2: 3 * (1 - e * e) / (4 * v0), 3: 8 * (1 - e) / (5 * e * v0)}[model]


@pytest.mark.parametrize("model", [1, 2, 3], ids=["HuntCrossley", "LankaraniNikravesh", "Flores"])
def test_restitution_freezes_the_onset_speed_until_the_point_leaves(new_slave, model):
    e = 0.6
    h = 1e-4
    params = {
        "geometry_b.shape": SHAPE_SPHERE,
        "geometry_b.radius": RADIUS,
        "normal.law": NORMAL_RESTITUTION,
        "normal.stiffness": REST_K,
        "normal.exponent": REST_N,
        "normal.restitution": e,
        "normal.restitution_model": model,
        "friction.law": FRICTION_NONE,
    }
    slave = new_slave("restitution")
    # Approach speed (dd > 0 approaching) for each communication step; the depth follows it.
    schedule = [0.5] * 6 + [0.2] * 3 + [0.8] * 2 + [-0.35] * 10 + [0.3] * 2 + [0.1] * 3 + [0.4] * 3
    depth = -2.2e-4  # starts apart; first contact after 4.4 steps at 0.5 m/s
    t = 0.0
    onset = None  # the v0 the closed form expects: frozen after the first step in contact
    saved = None
    seen = {"first": 0, "frozen_changed": 0, "left": 0, "second": 0}

    def inputs(depth, rate):
        return {"frame_b.r_0[3]": RADIUS - depth, "frame_b.v_0[3]": -rate}

    for k, rate in enumerate(schedule):
        depth = RADIUS - (RADIUS - depth)  # the depth as the FMU sees it from frame_b.r_0[3]
        assert abs(depth) > 1e-6  # no grazing point: apart and in contact are unambiguous
        if k == 0:
            slave.initialize(params, inputs(depth, rate))
        else:
            slave.set(inputs(depth, rate))
        got = slave.get(["contact.normal_force", "frame_b.f_0[3]", "contact.active"])
        if depth <= 0.0:
            assert got["contact.normal_force"] == 0.0 and not got["contact.active"], f"k={k}: apart but {got}"
            if onset is not None:
                seen["left"] += 1
            onset = None
        else:
            v0 = rate if onset is None else onset  # the current approach speed stands in at first touch
            expected = max(0.0, REST_K * depth**REST_N * (1 + restitution_chi(model, e, v0) * rate))
            assert close(got["contact.normal_force"], expected), f"k={k}: f_n = {got['contact.normal_force']!r} vs {expected!r} (v0 = {v0})"
            assert close(got["frame_b.f_0[3]"], expected)
            if onset is None:
                seen["second" if seen["left"] else "first"] += 1
                onset = rate  # frozen by this DoStep
            elif rate != onset:
                # The frozen v0 matters: the current speed would give a different force.
                current = max(0.0, REST_K * depth**REST_N * (1 + restitution_chi(model, e, rate) * rate))
                assert abs(current - expected) > 1e-6 * expected
                seen["frozen_changed"] += 1
            if onset == 0.5 and rate == 0.8 and saved is None:
                saved = (slave.get_state(), depth, rate)
        slave.do_step(t, h)
        t += h
        depth += rate * h
    assert seen["first"] == 1 and seen["second"] == 1 and seen["left"] >= 1 and seen["frozen_changed"] >= 6

    # The onset speed is part of the FMU state: restored, the force uses v0 = 0.5 again.
    state, depth, rate = saved
    slave.set_state(state)
    got = slave.get(["contact.normal_force"])["contact.normal_force"]
    expected = REST_K * depth**REST_N * (1 + restitution_chi(model, e, 0.5) * rate)
    assert close(got, expected), f"after SetFMUState: {got!r} vs {expected!r}"
    slave.free_state(state)
