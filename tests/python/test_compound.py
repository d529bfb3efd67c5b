"""Compound geometries through FMPy, both FMI versions: several shapes on one body from a resource file.

Why: `geometry_X.shape = Compound` reads its shapes from a text file in the FMU's resources folder
(one shape per line: kind, sizes, x y z, optional w x y z), which only the importer can locate. These
tests add the file to a copy of each packaged FMU and check, against closed forms written here from
physics.md (not from the Rust code):

- co-simulation: a foot of a box and a sphere (geometry B, with a geometry offset) sinking into a
  tilted plane while turning: every corner of the box and the sphere's lowest point is a point
  carrying f = max(0, k d + b dd) along the plane's normal at the midpoint of its witnesses; the
  totals are the sums, `contact.separation` the least height, `contact.point[1..8]` the box's 8
  corners (the compound's ids 0 to 7: the box is the file's first line), the sphere (id 8) has none;
- Model Exchange (FMPy's CVode): two spheres on one body moving down at constant speed, the
  lower one touching first: the make event of each sphere's slot at its closed-form time, with
  ElasticCone (a stateful law: each sphere's deflection is a continuous state of its own slot,
  which moves only once that sphere touches);
- the FMU state: a compound under ElasticCone in co-simulation, saved, run on, restored and run
  again, gives the same outputs bit for bit;
- a file with a bad line is refused at initialisation naming the file, the line and the value.
"""

from __future__ import annotations

import numpy as np
import pytest
from fmpy import simulate_fmu
import fmpy

import reference as ref
from fmu_driver import FMICallException, Slave
from fmu_resources import fmu_with_resources
from test_model_exchange import event_times

SHAPE_COMPOUND = 14
STEP = 1e-3
STOP = 0.2
RTOL = 1e-12
K, DAMPING = 1e5, 200.0

# The foot, in its geometry frame: a box 0.2 x 0.08 x 0.03 centred at (0.05, 0, 0) and turned by
# 0.1 rad about z, and a sphere of radius 0.04 under the heel (25 mm below the box when level).
BOX_SIZE = np.array([0.2, 0.08, 0.03])
BOX_CENTRE = np.array([0.05, 0.0, 0.0])
BOX_Q = ref.axis_angle_quat([0.0, 0.0, 1.0], 0.1)
SPHERE_RADIUS = 0.04
SPHERE_CENTRE = np.array([-0.06, 0.0, 0.0])
FOOT_TXT = (
    "# kind  sizes          x y z                      w x y z\n"
    + "Box  " + " ".join(repr(float(x)) for x in BOX_SIZE) + f"  {float(BOX_CENTRE[0])!r} 0 0  " + " ".join(repr(float(c)) for c in BOX_Q)
    + f"\n\nSphere {SPHERE_RADIUS!r}   {float(SPHERE_CENTRE[0])!r} 0 {float(SPHERE_CENTRE[2])!r}\n"
).encode()
FOOT_GEOMETRY = ref.Geometry(r=(0.01, 0.0, 0.005), q=tuple(ref.axis_angle_quat([0.2, -0.4, 1.0], 0.3)))
PLANE_GEOMETRY = ref.Geometry(shape=ref.SHAPE_PLANE)

# Two spheres on one body for Model Exchange: radii 0.05 and 0.03, the second's lowest point
# 0.01 above the first's.
TWO_SPHERES_TXT = b"Sphere 0.05  0.1 0 0\nSphere 0.03  -0.1 0 0.03\n"

PARAMETERS = {
    "geometry_b.shape": SHAPE_COMPOUND,
    "geometry_b.file": "foot.txt",
    **{f"geometry_b.r[{i + 1}]": FOOT_GEOMETRY.r[i] for i in range(3)},
    **{f"geometry_b.q[{i + 1}]": FOOT_GEOMETRY.q[i] for i in range(4)},
    "normal.law": ref.NORMAL_LINEAR_SPRING_DAMPER,
    "normal.stiffness": K,
    "normal.damping": DAMPING,
    "friction.law": ref.FRICTION_NONE,
}

POINT_NAMES = [
    name
    for i in range(1, 9)
    for name in [f"contact.point[{i}].active", f"contact.point[{i}].separation", f"contact.point[{i}].normal_force"]
    + ref.scalar_names(f"contact.point[{i}].p_0", 3)
]
TOTAL_NAMES = (
    ref.scalar_names("frame_a.f_0", 3)
    + ref.scalar_names("frame_a.t_0", 3)
    + ref.scalar_names("frame_b.f_0", 3)
    + ref.scalar_names("frame_b.t_0", 3)
    + ["contact.points", "contact.normal_force", "contact.separation"]
    + ref.scalar_names("contact.n_0", 3)
)


@pytest.fixture(scope="session")
def with_files(fmu_path, tmp_path_factory):
    """The FMU under test with the compounds' files in its resources: (path, unzip dir, model description)."""
    folder = tmp_path_factory.mktemp(fmu_path.stem + "-compound")
    files = {"foot.txt": FOOT_TXT, "shapes/two.txt": TWO_SPHERES_TXT, "bad.txt": b"Sphere 0.05 0 0 0\n# fine so far\nBox 0.1 0.2 0 0 0 0\n"}
    path = fmu_with_resources(fmu_path, files, folder / fmu_path.name)
    unzipdir = fmpy.extract(str(path), unzipdir=str(folder / "unzipped"))
    return path, unzipdir, fmpy.read_model_description(unzipdir)


def input_table(times):
    """Body A fixed and tilted; the foot's body B sinks through the plane while turning."""
    rows = []
    axis = np.array([1.0, 2.0, 0.5]) / np.linalg.norm([1.0, 2.0, 0.5])
    q_a = ref.axis_angle_quat([1.0, 0.0, 0.0], 0.1)
    for t in times:
        q_b = ref.axis_angle_quat(axis, 0.2 + 0.5 * t)
        r_b = [0.05, -0.02, 0.09 - 0.5 * t]
        rows.append((t, 0.0, 0.01, -0.005, *q_a, 0, 0, 0, 0, 0, 0, *r_b, *q_b, 0.02, -0.01, -0.5, *(0.5 * axis)))
    dtype = [("time", np.float64)] + [(name, np.float64) for name in ref.INPUT_NAMES]
    return np.array(rows, dtype=dtype)


def foot_on_plane(row):
    """Closed form of the foot against the plane for one row of inputs: the totals and the slots."""
    body_a, body_b = ref.Body.from_row(row, "frame_a"), ref.Body.from_row(row, "frame_b")
    origin, R_plane = ref.geometry_frame(body_a, PLANE_GEOMETRY)
    m = R_plane[:, 2]
    origin_b, R_b = ref.geometry_frame(body_b, FOOT_GEOMETRY)
    R_box = R_b @ ref.rotation_matrix(BOX_Q)
    half = BOX_SIZE / 2
    # The box's corners in box_plane's numbering (bit 0: +x, bit 1: +y, bit 2: +z), then the
    # sphere's lowest point.
    corners = [origin_b + R_b @ BOX_CENTRE + R_box @ (half * [1 if i & 1 else -1, 1 if i & 2 else -1, 1 if i & 4 else -1]) for i in range(8)]
    centre = origin_b + R_b @ SPHERE_CENTRE
    points = corners + [centre - SPHERE_RADIUS * m]
    out = {name: 0.0 for name in TOTAL_NAMES + POINT_NAMES}
    force, torque_a, torque_b, heights = np.zeros(3), np.zeros(3), np.zeros(3), []
    for i, p in enumerate(points):
        h = np.dot(p - origin, m)
        foot = p - h * m
        at = (p + foot) / 2
        v_rel = body_b.velocity_at(at) - body_a.velocity_at(at)
        d, dd = max(0.0, -h), -np.dot(v_rel, m)
        f_n = max(0.0, K * d + DAMPING * dd) if d > 0 else 0.0
        f = f_n * m
        force += f
        torque_b += np.cross(at - body_b.r, f)
        torque_a -= np.cross(at - body_a.r, f)
        heights.append(h)
        out["contact.points"] += f_n > 0
        out["contact.normal_force"] += f_n
        if i < 8:
            prefix = f"contact.point[{i + 1}]"
            out[f"{prefix}.active"] = f_n > 0
            out[f"{prefix}.separation"] = h
            out[f"{prefix}.normal_force"] = f_n
            for k in range(3):
                out[f"{prefix}.p_0[{k + 1}]"] = at[k]
    for k in range(3):
        out[f"frame_a.f_0[{k + 1}]"], out[f"frame_b.f_0[{k + 1}]"] = -force[k], force[k]
        out[f"frame_a.t_0[{k + 1}]"], out[f"frame_b.t_0[{k + 1}]"] = torque_a[k], torque_b[k]
        out[f"contact.n_0[{k + 1}]"] = m[k]
    out["contact.separation"] = min(heights)
    return out, heights


def test_a_foot_of_a_box_and_a_sphere_in_resources_sinking_into_a_plane_matches_the_closed_form(with_files):
    path, _, _ = with_files
    times = np.arange(int(round(STOP / STEP)) + 1) * STEP
    result = simulate_fmu(
        str(path),
        start_time=0.0,
        stop_time=STOP,
        step_size=STEP,
        output_interval=STEP,
        start_values=PARAMETERS,
        input=input_table(times),
        output=TOTAL_NAMES + POINT_NAMES + ref.INPUT_NAMES,
    )
    # Each row's outputs come from the inputs recorded with it (see test_closed_form.py).
    expected = [foot_on_plane(row) for row in result]
    counts = np.array([e["contact.points"] for e, _ in expected])
    # The run covers apart, the sphere alone or a corner or two first, and many points together.
    assert counts[0] == 0 and counts.max() >= 5 and len(set(counts)) >= 4, f"points per row: {sorted(set(counts))}"
    sphere_deepest = [h[8] < min(h[:8]) for _, h in expected]
    assert any(sphere_deepest) and not all(sphere_deepest), "the deepest point is the sphere in some rows, a corner in others"
    failures = []
    for group in (TOTAL_NAMES, POINT_NAMES):
        for name in group:
            exp = np.array([float(e[name]) for e, _ in expected])
            got = np.array([float(row[name]) for row in result])
            scale = max(1.0, np.abs(exp).max())
            bad = np.flatnonzero(np.abs(got - exp) > RTOL * scale)
            if len(bad):
                i = bad[0]
                failures.append(f"{name}: {len(bad)} rows off; first t = {result['time'][i]:.3f}: {got[i]!r} != {exp[i]!r}")
    assert not failures, "\n".join(failures)


def test_model_exchange_finds_each_spheres_make_event_and_integrates_its_own_deflection(with_files):
    path, _, _ = with_files
    # The body moves down at V from Z0 and along x at U: the first sphere (its lowest point at
    # z - 0.05) touches at (Z0 - 0.05) / V, the second (its lowest point at z + 0.03 - 0.03) at
    # Z0 / V.
    z0, v, u, stop = 0.06, 0.5, 0.01, 0.16
    t_first, t_second = (z0 - 0.05) / v, z0 / v
    table = np.array(
        [(0.0, z0, -v, 0.0, u), (stop, z0 - v * stop, -v, u * stop, u)],
        dtype=[("time", np.float64), ("frame_b.r_0[3]", np.float64), ("frame_b.v_0[3]", np.float64), ("frame_b.r_0[1]", np.float64), ("frame_b.v_0[1]", np.float64)],
    )
    result = simulate_fmu(
        str(path),
        fmi_type="ModelExchange",
        start_time=0.0,
        stop_time=stop,
        output_interval=0.01,
        relative_tolerance=1e-10,
        start_values={
            "geometry_b.shape": SHAPE_COMPOUND,
            "geometry_b.file": "shapes/two.txt",
            "friction.law": 6,  # ElasticCone
            "friction.mu_static": 0.5,
            "friction.stiffness": 1e4,
            "friction.damping": 10.0,
        },
        input=table,
        output=["contact.points", "contact.point[1].deflection[1]", "contact.point[2].deflection[1]", "contact.point[1].indicator.separation", "contact.point[2].indicator.separation"],
        validate=True,
    )
    events = event_times(result)
    for t_make in (t_first, t_second):
        near = [t for t in events if abs(t - t_make) < 1e-3]
        assert len(near) == 1 and abs(near[0] - t_make) <= 1e-9, f"events {events}, expected a make at {t_make}"
    t = result["time"]
    # Each slot's deflection (its own continuous state) moves only once its sphere touches.
    first = result["contact.point[1].deflection[1]"]
    second = result["contact.point[2].deflection[1]"]
    assert np.all(first[t < t_first - 1e-9] == 0) and np.all(second[t < t_second - 1e-9] == 0)
    between = (t > t_first + 1e-6) & (t < t_second - 1e-6)
    assert np.count_nonzero(between) >= 3 and np.all(first[between] != 0) and np.all(second[between] == 0)
    assert np.all(second[t > t_second + 1e-2] != 0)
    assert result["contact.points"][-1] == 2


def test_the_fmu_state_of_a_stateful_compound_restores_bit_for_bit(with_files):
    _, unzipdir, md = with_files
    slave = Slave(unzipdir, md)
    try:
        slave.initialize(
            {"geometry_b.shape": SHAPE_COMPOUND, "geometry_b.file": "shapes/two.txt", "friction.law": 6, "friction.stiffness": 1e4, "friction.damping": 10.0},
            {"frame_b.r_0[3]": -0.001, "frame_b.v_0[1]": 0.01},
        )
        names = ["frame_b.f_0[1]", "frame_b.t_0[2]", "contact.points", "contact.point[2].normal_force"]
        t = 0.0
        for _ in range(10):
            slave.do_step(t, 1e-3)
            t += 1e-3
        state = slave.get_state()
        run = []
        for _ in range(10):
            slave.do_step(t, 1e-3)
            t += 1e-3
            run.append(slave.get_vector(names))
        slave.set_state(state)
        t -= 10e-3
        again = []
        for _ in range(10):
            slave.do_step(t, 1e-3)
            t += 1e-3
            again.append(slave.get_vector(names))
        assert np.array_equal(np.array(run), np.array(again))
        assert run[-1][2] == 2 and run[-1][0] != 0.0, run[-1]
        slave.free_state(state)
    finally:
        slave.free()


def test_a_bad_line_is_refused_at_initialisation_naming_the_file_and_the_line(with_files):
    _, unzipdir, md = with_files
    slave = Slave(unzipdir, md)
    try:
        slave.enter_initialization({"geometry_b.shape": SHAPE_COMPOUND, "geometry_b.file": "bad.txt"})
        with pytest.raises(FMICallException):
            slave.exit_initialization()
        log = slave.log_text()
        assert 'geometry_b.file = "bad.txt"' in log and "bad.txt line 3: a Box needs size z > 0, found 0" in log, log
    finally:
        slave.free()
