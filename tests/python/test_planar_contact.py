"""The PlanarContact FMU through FMPy, both FMI versions.

- FMPy validation reports nothing for either FMU;
- a disc pressed into a line equals ContactForce's sphere on a plane (its FMU of the same FMI
  version, the plane turned so that its normal is the line's) in the same motion, for every normal
  law and every friction law, to 1e-12: the laws are ContactForce's own;
- LinearSpringDamper with Tanh friction gives the closed form f_n = k d + b dd, f_t = -mu tanh(k_mu v) f_n;
- a closed Polyline read from a file (an absolute path) against a Circle: the closed-form depth;
- bad parameters and pairs not offered are refused at initialisation naming them;
- simulations with simulate_fmu, co-simulation and Model Exchange (CVode): a disc dragged over a
  line under GroundModel and ElasticCone sticks until the closed-form time t* and then slips at
  mu f_n (in Model Exchange the slot's deflection is a continuous state and the stick/slip event
  indicator stops the integrator at t*).
"""

from __future__ import annotations

import math

import fmpy
import numpy as np
import pytest
from fmpy import simulate_fmu
from fmpy.validation import validate_fmu

from conftest import fmu_dir
from fmu_driver import FMICallException, Slave

NORMAL_LAWS = range(1, 8)
FRICTION_LAWS = range(1, 8)


def planar_path(version):
    path = fmu_dir() / f"PlanarContact-{version}.fmu"
    if not path.is_file():
        pytest.fail(f"{path} does not exist: run `cargo xtask fmu` first", pytrace=False)
    return path


@pytest.fixture(scope="session", params=["fmi2", "fmi3"])
def fmus(request, tmp_path_factory):
    """(version, PlanarContact (path, unzip dir, md), ContactForce (unzip dir, md)) of one version."""
    version = request.param
    planar = planar_path(version)
    unzip = fmpy.extract(str(planar), unzipdir=str(tmp_path_factory.mktemp("planar-" + version)))
    spatial = fmu_dir() / f"ContactForce-{version}.fmu"
    spatial_unzip = fmpy.extract(str(spatial), unzipdir=str(tmp_path_factory.mktemp("spatial-" + version)))
    return version, (planar, unzip, fmpy.read_model_description(unzip)), (spatial_unzip, fmpy.read_model_description(spatial_unzip))


def planar_inputs(frames):
    out = {}
    for x, (r, phi, v, w) in zip("ab", frames):
        out |= {f"frame_{x}.r_0[1]": r[0], f"frame_{x}.r_0[2]": r[1], f"frame_{x}.phi": phi,
                f"frame_{x}.v_0[1]": v[0], f"frame_{x}.v_0[2]": v[1], f"frame_{x}.w": w}
    return out


def spatial_inputs(frames):
    out = {}
    for x, (r, phi, v, w) in zip("ab", frames):
        q = [math.cos(phi / 2), 0.0, 0.0, math.sin(phi / 2)]
        values = {"r_0": [r[0], r[1], 0.0], "q": q, "v_0": [v[0], v[1], 0.0], "w_0": [0.0, 0.0, w]}
        for name, vector in values.items():
            out |= {f"frame_{x}.{name}[{i + 1}]": value for i, value in enumerate(vector)}
    return out


PLANAR_OUTPUTS = ["frame_a.f_0[1]", "frame_a.f_0[2]", "frame_a.t", "frame_b.f_0[1]", "frame_b.f_0[2]", "frame_b.t",
                  "contact.separation", "contact.normal_force", "contact.friction_force", "contact.slip_speed"]
SPATIAL_OUTPUTS = ["frame_a.f_0[1]", "frame_a.f_0[2]", "frame_a.t_0[3]", "frame_b.f_0[1]", "frame_b.f_0[2]", "frame_b.t_0[3]",
                   "contact.separation", "contact.normal_force", "contact.friction_force", "contact.slip_speed"]


def evaluate(unzip, md, parameters, inputs, outputs):
    slave = Slave(unzip, md)
    try:
        slave.initialize(parameters, inputs)
        return slave.get_vector(outputs)
    finally:
        slave.free()


def test_validation_reports_nothing(fmus):
    _, (path, _, md), _ = fmus
    assert validate_fmu(str(path)) == []
    assert md.modelName == "PlanarContact"
    assert md.modelExchange is not None and md.coSimulation is not None


@pytest.mark.parametrize("normal", NORMAL_LAWS)
def test_a_disc_on_a_line_is_contact_forces_sphere_on_a_plane_for_every_law(fmus, normal):
    _, (_, unzip, md), (spatial_unzip, spatial_md) = fmus
    frames = [((0.1, -0.2), 0.3, (0.05, 0.1), -0.7), ((0.2, -0.1), 1.0, (0.3, 0.2), 2.0)]
    common = {"normal.law": normal, "normal.damping": 300.0, "geometry_b.radius": 0.1}
    forced = 0
    for friction in FRICTION_LAWS:
        law = common | {"friction.law": friction}
        planar = evaluate(unzip, md, law | {"geometry_a.shape": 5, "geometry_b.shape": 2}, planar_inputs(frames), PLANAR_OUTPUTS)
        plane = {"geometry_a.shape": 9, "geometry_b.shape": 2, "geometry_a.q[1]": math.sqrt(0.5), "geometry_a.q[2]": -math.sqrt(0.5)}
        spatial = evaluate(spatial_unzip, spatial_md, law | plane, spatial_inputs(frames), SPATIAL_OUTPUTS)
        scale = max(1.0, spatial[7])
        np.testing.assert_allclose(planar, spatial, rtol=0, atol=1e-12 * scale, err_msg=f"normal.law {normal}, friction.law {friction}")
        forced += spatial[7] > 0
    assert forced == len(FRICTION_LAWS) or normal in (6, 7)


def test_linear_spring_damper_and_tanh_give_the_closed_form(fmus):
    _, (_, unzip, md), _ = fmus
    k, b, mu, gain, radius = 2e5, 150.0, 0.4, 100.0, 0.05
    depth, vx, vy = 3e-4, 0.002, -0.1
    parameters = {"geometry_b.radius": radius, "normal.stiffness": k, "normal.damping": b,
                  "friction.mu_dynamic": mu, "friction.tanh_gain": gain}
    frames = [((0.0, 0.0), 0.0, (0.0, 0.0), 0.0), ((0.3, radius - depth), 0.0, (vx, vy), 0.0)]
    out = dict(zip(PLANAR_OUTPUTS, evaluate(unzip, md, parameters, planar_inputs(frames), PLANAR_OUTPUTS)))
    f_n = k * depth + b * (-vy)
    f_t = -mu * math.tanh(gain * vx) * f_n
    assert out["frame_b.f_0[2]"] == pytest.approx(f_n, rel=1e-13)
    assert out["frame_b.f_0[1]"] == pytest.approx(f_t, rel=1e-13)
    # The force acts midway between the witnesses, radius - depth / 2 below the disc's centre:
    # t = r x F about z with r = (0, -(radius - depth / 2)).
    assert out["frame_b.t"] == pytest.approx((radius - depth / 2) * f_t, rel=1e-12)
    assert out["frame_a.f_0[1]"] == -out["frame_b.f_0[1]"]


def test_a_closed_polyline_from_a_file_against_a_circle(fmus, tmp_path):
    _, (_, unzip, md), _ = fmus
    square = tmp_path / "square.txt"
    square.write_text("# a square of side 0.2\n-0.1 -0.1\n0.1 -0.1\n0.1 0.1\n-0.1 0.1\n")
    parameters = {"geometry_a.shape": 6, "geometry_a.file": str(square), "geometry_a.closed": True,
                  "geometry_b.shape": 2, "geometry_b.radius": 0.05, "normal.damping": 0.0, "friction.law": 1}
    frames = [((1.0, 2.0), 0.5, (0.0, 0.0), 0.0), ((0.0, 0.0), 0.0, (0.0, 0.0), 0.0)]
    # B's centre 0.148 from A's origin along A's turned y axis: 0.002 into the top edge.
    normal = (-math.sin(0.5), math.cos(0.5))
    frames[1] = ((1.0 + 0.148 * normal[0], 2.0 + 0.148 * normal[1]), 0.0, (0.0, 0.0), 0.0)
    out = dict(zip(PLANAR_OUTPUTS, evaluate(unzip, md, parameters, planar_inputs(frames), PLANAR_OUTPUTS)))
    assert out["contact.separation"] == pytest.approx(-0.002, abs=1e-12)
    assert out["frame_b.f_0[1]"] == pytest.approx(1e6 * 0.002 * normal[0], rel=1e-9)
    assert out["frame_b.f_0[2]"] == pytest.approx(1e6 * 0.002 * normal[1], rel=1e-9)


@pytest.mark.parametrize(
    "parameters, message",
    [
        ({"geometry_a.shape": 5, "geometry_b.shape": 5}, "Line (A) - Line (B) is not offered"),
        ({"geometry_a.shape": 4, "geometry_b.shape": 1}, "Segment (A) - Point (B) is not offered"),
        ({"geometry_a.shape": 6}, "geometry_a.file = \"\""),
        ({"geometry_b.radius": 0.0}, "geometry_b.radius = 0"),
        ({"geometry_b.shape": 3, "geometry_b.angles[2]": -1.0}, "geometry_b.angles[2] = -1"),
        ({"geometry_a.shape": 6, "geometry_a.file": "/nonexistent/cam.txt"}, "/nonexistent/cam.txt"),
        ({"friction.law": 3, "friction.mu_dynamic": 0.9}, "friction.mu_dynamic = 0.9"),
        ({"geometry_a.shape": 1, "friction.rolling": 0.1}, "friction.rolling = 0.1"),
    ],
)
def test_bad_parameters_and_pairs_not_offered_are_refused_naming_them(fmus, parameters, message):
    _, (_, unzip, md), _ = fmus
    slave = Slave(unzip, md)
    try:
        slave.enter_initialization(parameters)
        with pytest.raises(FMICallException):
            slave.exit_initialization()
        assert message in slave.log_text(), slave.log_text()
    finally:
        slave.free()


# A disc dragged over a line at a fixed depth: GroundModel and ElasticCone (spatial_v2 gcontact).
K, D, MU, DEPTH, SPEED, KT, DT = 1e8, 1e6, 0.5, 1e-4, 1.2e-3, 1e8, 2.5e3
DRAG = {"normal.law": 6, "normal.stiffness": K, "normal.damping": D, "friction.law": 6, "friction.mu_static": MU,
        "friction.stiffness": KT, "friction.damping": DT, "geometry_b.radius": 0.1,
        "frame_b.r_0[2]": 0.1 - DEPTH, "frame_b.v_0[1]": SPEED}


def drag_closed_form(t):
    f_n = math.sqrt(DEPTH) * K * DEPTH
    t_star = (MU * f_n / math.sqrt(DEPTH) - DT * SPEED) / (KT * SPEED)
    stick = math.sqrt(DEPTH) * (KT * SPEED * t + DT * SPEED)
    return np.where(t < t_star, stick, MU * f_n), t_star


@pytest.mark.parametrize("interface", ["CoSimulation", "ModelExchange"])
def test_a_dragged_disc_sticks_until_the_closed_form_time_then_slips(fmus, interface):
    version, (path, _, _), _ = fmus
    options = dict(fmi_type=interface, start_values=DRAG, stop_time=0.08, output_interval=1e-4,
                   output=["contact.friction_force", "contact.normal_force", "contact.sticking"], validate=True)
    if interface == "ModelExchange":
        options |= dict(solver="CVode", relative_tolerance=1e-10)
    result = simulate_fmu(str(path), **options)
    t = result["time"]
    expected, t_star = drag_closed_form(t)
    assert 0.02 < t_star < 0.06
    np.testing.assert_allclose(result["contact.normal_force"], math.sqrt(DEPTH) * K * DEPTH, rtol=1e-12)
    # Away from the switch (one output interval either side) the friction force is the closed form.
    away = np.abs(t - t_star) > 2e-4
    np.testing.assert_allclose(result["contact.friction_force"][away], expected[away], rtol=2e-3, atol=1e-6)
    sticking = result["contact.sticking"].astype(bool)
    assert sticking[t < t_star - 2e-4].all() and not sticking[t > t_star + 2e-4].any()


def test_model_exchange_refuses_a_stateful_law_on_more_points_than_slots(fmus, tmp_path):
    version, (path, _, _), _ = fmus
    decagon = tmp_path / "decagon.txt"
    decagon.write_text("".join(f"{0.1 * math.cos(i * math.pi / 5)} {0.1 * math.sin(i * math.pi / 5)}\n" for i in range(10)))
    start = {"geometry_b.shape": 6, "geometry_b.file": str(decagon), "geometry_b.closed": True, "friction.law": 6,
             "friction.mu_static": 0.5, "frame_b.r_0[2]": 0.094}
    messages = []

    def logger(*args):
        messages.append(" ".join(str(a) for a in args))

    with pytest.raises(Exception):
        simulate_fmu(str(path), fmi_type="ModelExchange", start_values=start, stop_time=0.01, logger=logger, debug_logging=True)
    assert any("Model Exchange has states and event indicators for 8" in m for m in messages), messages
    # Co-simulation takes the ten points.
    result = simulate_fmu(str(path), fmi_type="CoSimulation", start_values=start, stop_time=0.01, output_interval=1e-3,
                          output=["contact.points"])
    assert (result["contact.points"] == 2).all()


@pytest.mark.parametrize(
    "shape_b, frame_b, points, depth",
    [
        # A rocker: the lower half of a circle of radius 1 about B's origin, 1 mm into the line.
        ({"geometry_b.shape": 3, "geometry_b.radius": 1.0, "geometry_b.angles[1]": math.pi, "geometry_b.angles[2]": 2 * math.pi},
         ((0.2, 0.999), 0.3), 1, 1e-3),
        # A segment of 0.2 m tilted by 0.6 rad, its lower end below the line.
        ({"geometry_b.shape": 4, "geometry_b.length": 0.2}, ((0.0, 0.05), 0.6), 1, 0.1 * math.sin(0.6) - 0.05),
    ],
)
def test_an_arc_and_a_segment_on_a_line(fmus, shape_b, frame_b, points, depth):
    _, (_, unzip, md), _ = fmus
    parameters = {"normal.damping": 0.0, "friction.law": 1} | shape_b
    frames = [((0.0, 0.0), 0.0, (0.0, 0.0), 0.0), (frame_b[0], frame_b[1], (0.0, 0.0), 0.0)]
    slave = Slave(unzip, md)
    try:
        slave.initialize(parameters, planar_inputs(frames))
        out = slave.get(["contact.points", "contact.separation", "frame_b.f_0[1]", "frame_b.f_0[2]"])
    finally:
        slave.free()
    assert out["contact.points"] == points
    assert out["contact.separation"] == pytest.approx(-depth, abs=1e-15)
    assert out["frame_b.f_0[2]"] == pytest.approx(1e6 * depth, rel=1e-12)
    assert out["frame_b.f_0[1]"] == 0.0


def test_fmu_state_and_serialization_reproduce_a_stateful_run(fmus):
    """ElasticCone's deflection is the internal state: a run restored from a saved (and from a
    serialized) FMU state repeats itself bit for bit."""
    _, (_, unzip, md), _ = fmus
    parameters = {k: v for k, v in DRAG.items() if not k.startswith("frame_")}
    inputs = {k: v for k, v in DRAG.items() if k.startswith("frame_")}
    slave = Slave(unzip, md)
    try:
        slave.initialize(parameters, inputs)
        h = 1e-3
        for k in range(20):
            slave.do_step(k * h, h)
        state = slave.get_state()
        data = slave.serialize(state)

        def rest():
            rows = []
            for k in range(20, 60):
                slave.do_step(k * h, h)
                rows.append(slave.get_vector(["contact.friction_force", "frame_b.f_0[1]", "contact.sticking"]))
            return np.array(rows)

        first = rest()
        assert first[0, 2] == 1.0 and first[-1, 2] == 0.0, "the run must stick and then slip"
        slave.set_state(state)
        np.testing.assert_array_equal(rest(), first)
        slave.set_state(slave.deserialize(data))
        np.testing.assert_array_equal(rest(), first)
        slave.free_state(state)
    finally:
        slave.free()
