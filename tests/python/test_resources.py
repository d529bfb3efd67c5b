"""Geometry files inside the FMU: a point cloud and a height field in resources/, found by FMPy.

Why: `geometry_X.file = "cloud.csv"` is a name relative to the FMU's resources folder, which only
the importer knows (FMI 2 passes it as a file: URI, FMI 3 as a native path). These tests add the
files to a copy of each packaged FMU, let FMPy unpack and instantiate it as a user's FMU would be,
and check the forces against closed forms written here from physics.md (not from the Rust code):

- a point cloud against a plane: every point i at height h_i above the plane carries
  f_i = max(0, k d_i + b dd_i) along the plane's normal m when d_i = -h_i > 0, at the midpoint C_i
  of the point and its foot on the plane; the totals are the sums, torques (C_i - r_X) x F_i;
  `contact.point[i]` shows the first eight points of the file;
- a sphere on a height field whose heights are the plane z = A x + B y + C: the force is
  k (r - s) along the analytic normal normalize(-A, -B, 1), s the centre's distance to the plane,
  also beyond the grid's border (the border cells extend);
- a cube mesh from a binary STL file resting flat on a plane: its 4 bottom vertices each carry
  k d at their midpoints, with no torque about the cube's centre; tilted onto an edge, 2 vertices;
- a file that is not there is refused at initialisation with a message naming the full path.
"""

from __future__ import annotations

import pathlib
import struct

import fmpy
import numpy as np
import pytest
from fmpy import simulate_fmu

import reference as ref
from fmu_driver import FMICallException, Slave
from fmu_resources import fmu_with_resources

STEP = 1e-3
STOP = 0.2
RTOL = 1e-12
SHAPE_POINT_CLOUD = 12
SHAPE_GRID_SURFACE = 13
POINT_OUTPUTS = 8

# The cloud, in its geometry frame [m]: ten points on a 4 x 3 pattern at different heights.
CLOUD = np.array([[0.05 * (i % 4) - 0.07, 0.04 * (i // 4) - 0.04, 0.004 * (i - 4.5)] for i in range(10)])
CLOUD_CSV = ("x,y,z\n" + "".join(f"{float(x)!r},{float(y)!r},{float(z)!r}\n" for x, y, z in CLOUD)).encode()

# The height field: the plane z = A x + B y + C sampled on 5 x 3 nodes from (-0.2, -0.1), spacing 0.1.
A, B, C = 0.3, -0.2, 0.01
GRID_X = -0.2 + 0.1 * np.arange(5)
GRID_Y = -0.1 + 0.1 * np.arange(3)
GRID_TXT = (
    "# x0 y0 dx dy\n-0.2 -0.1 0.1 0.1\n"
    + "".join(", ".join(repr(float(A * x + B * y + C)) for x in GRID_X) + "\n" for y in GRID_Y)
).encode()

# A cube of edge 2 HALF centred at its origin, as a binary STL (12 outward triangles).
HALF = 0.05
CUBE_CORNERS = [np.array([(i & 1) * 2 - 1, ((i >> 1) & 1) * 2 - 1, ((i >> 2) & 1) * 2 - 1]) * HALF for i in range(8)]
CUBE_FACES = [(0, 2, 1), (1, 2, 3), (4, 5, 6), (5, 7, 6), (0, 1, 4), (1, 5, 4), (2, 6, 3), (3, 6, 7), (0, 4, 2), (2, 4, 6), (1, 3, 5), (3, 7, 5)]


def binary_stl(corners, faces) -> bytes:
    """A binary STL: 80-byte header, triangle count, then normal, 3 vertices and 2 spare bytes each."""
    data = bytearray(b"ContactForce test cube".ljust(80, b" "))
    data += struct.pack("<I", len(faces))
    for a, b, c in faces:
        normal = np.cross(corners[b] - corners[a], corners[c] - corners[a])
        normal /= np.linalg.norm(normal)
        data += struct.pack("<12fH", *normal, *corners[a], *corners[b], *corners[c], 0)
    return bytes(data)


CUBE_STL = binary_stl(CUBE_CORNERS, CUBE_FACES)
SHAPE_MESH = 11

CLOUD_GEOMETRY = ref.Geometry(r=(0.01, 0.0, 0.005), q=tuple(ref.axis_angle_quat([0.2, -0.4, 1.0], 0.3)))
PLANE_GEOMETRY = ref.Geometry(shape=ref.SHAPE_PLANE)
K, DAMPING = 1e5, 200.0

PARAMETERS = {
    "geometry_b.shape": SHAPE_POINT_CLOUD,
    "geometry_b.file": "cloud.csv",
    **{f"geometry_b.r[{i + 1}]": CLOUD_GEOMETRY.r[i] for i in range(3)},
    **{f"geometry_b.q[{i + 1}]": CLOUD_GEOMETRY.q[i] for i in range(4)},
    "normal.law": ref.NORMAL_LINEAR_SPRING_DAMPER,
    "normal.stiffness": K,
    "normal.damping": DAMPING,
    "friction.law": ref.FRICTION_NONE,
}

POINT_NAMES = [
    name
    for i in range(1, POINT_OUTPUTS + 1)
    for name in [f"contact.point[{i}].active", f"contact.point[{i}].separation", f"contact.point[{i}].normal_force"]
    + ref.scalar_names(f"contact.point[{i}].p_0", 3)
]
TOTAL_NAMES = (
    ref.scalar_names("frame_a.f_0", 3)
    + ref.scalar_names("frame_a.t_0", 3)
    + ref.scalar_names("frame_b.f_0", 3)
    + ref.scalar_names("frame_b.t_0", 3)
    + ["contact.points", "contact.normal_force", "contact.separation"]
)


@pytest.fixture(scope="session")
def with_files(fmu_path, tmp_path_factory):
    """The FMU under test with cloud.csv and grid.txt in its resources: (path, unzip dir, model description)."""
    folder = tmp_path_factory.mktemp(fmu_path.stem + "-resources")
    files = {"cloud.csv": CLOUD_CSV, "grid.txt": GRID_TXT, "cube.stl": CUBE_STL}
    path = fmu_with_resources(fmu_path, files, folder / fmu_path.name)
    unzipdir = fmpy.extract(str(path), unzipdir=str(folder / "unzipped"))
    return path, unzipdir, fmpy.read_model_description(unzipdir)


def input_table(times):
    """Body A fixed and tilted; the cloud's body B sinks through the plane while turning."""
    rows = []
    axis = np.array([1.0, 2.0, 0.5]) / np.linalg.norm([1.0, 2.0, 0.5])
    q_a = ref.axis_angle_quat([1.0, 0.0, 0.0], 0.1)
    for t in times:
        q_b = ref.axis_angle_quat(axis, 0.2 + 0.5 * t)
        r_b = [0.05, -0.02, 0.035 - 0.4 * t]
        rows.append((t, 0.0, 0.01, -0.005, *q_a, 0, 0, 0, 0, 0, 0, *r_b, *q_b, 0.02, -0.01, -0.4, *(0.5 * axis)))
    dtype = [("time", np.float64)] + [(name, np.float64) for name in ref.INPUT_NAMES]
    return np.array(rows, dtype=dtype)


def cloud_on_plane(row):
    """Closed form of the cloud against the plane for one row of inputs: the totals and the points."""
    body_a, body_b = ref.Body.from_row(row, "frame_a"), ref.Body.from_row(row, "frame_b")
    origin, R_plane = ref.geometry_frame(body_a, PLANE_GEOMETRY)
    m = R_plane[:, 2]
    origin_b, R_b = ref.geometry_frame(body_b, CLOUD_GEOMETRY)
    out = {name: 0.0 for name in TOTAL_NAMES + POINT_NAMES}
    force, torque_a, torque_b, heights = np.zeros(3), np.zeros(3), np.zeros(3), []
    for i, c in enumerate(CLOUD):
        p = origin_b + R_b @ c
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
        if i < POINT_OUTPUTS:
            prefix = f"contact.point[{i + 1}]"
            out[f"{prefix}.active"] = f_n > 0
            out[f"{prefix}.separation"] = h
            out[f"{prefix}.normal_force"] = f_n
            for k in range(3):
                out[f"{prefix}.p_0[{k + 1}]"] = at[k]
    for k in range(3):
        out[f"frame_a.f_0[{k + 1}]"], out[f"frame_b.f_0[{k + 1}]"] = -force[k], force[k]
        out[f"frame_a.t_0[{k + 1}]"], out[f"frame_b.t_0[{k + 1}]"] = torque_a[k], torque_b[k]
    out["contact.separation"] = min(heights)
    return out


def test_point_cloud_in_resources_sinking_into_a_plane_matches_the_closed_form(with_files):
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
    # Each row's outputs come from the inputs recorded with it (FMPy applies the inputs of t_k in
    # the step that ends at t_k+1; see test_closed_form.py), so the closed form uses those.
    expected = [cloud_on_plane(row) for row in result]

    # The run must cover what it claims: apart, a few points, more points than have outputs.
    counts = np.array([e["contact.points"] for e in expected])
    assert counts[0] == 0 and counts.max() == len(CLOUD) and len(set(counts)) >= 6, f"points per row: {sorted(set(counts))}"
    failures = []
    for group in (TOTAL_NAMES, POINT_NAMES):
        for name in group:
            exp = np.array([float(e[name]) for e in expected])
            got = np.array([float(row[name]) for row in result])
            scale = max(1.0, np.abs(exp).max())
            bad = np.flatnonzero(np.abs(got - exp) > RTOL * scale)
            if len(bad):
                i = bad[0]
                failures.append(f"{name}: {len(bad)} rows off; first t = {result['time'][i]:.3f}: {got[i]!r} != {exp[i]!r}")
    assert not failures, "\n".join(failures)


@pytest.mark.parametrize("x, y", [(0.05, 0.02), (-0.13, 0.07), (0.35, -0.3)], ids=["inside", "other cell", "beyond the corner"])
def test_sphere_on_height_field_in_resources_is_pushed_along_the_slope(with_files, x, y):
    _, unzipdir, md = with_files
    radius, depth = 0.1, 2e-3
    n = np.array([-A, -B, 1.0]) / np.linalg.norm([-A, -B, 1.0])
    # The centre stands at distance r - depth from the plane z = A x + B y + C, above (x, y, h).
    centre = np.array([x, y, A * x + B * y + C]) + (radius - depth) * n
    slave = Slave(unzipdir, md)
    try:
        parameters = {
            "geometry_a.shape": SHAPE_GRID_SURFACE,
            "geometry_a.file": "grid.txt",
            "geometry_b.radius": radius,
            "normal.law": ref.NORMAL_LINEAR_SPRING_DAMPER,
            "normal.stiffness": K,
            "normal.damping": 0.0,
            "friction.law": ref.FRICTION_NONE,
        }
        slave.initialize(parameters, {f"frame_b.r_0[{i + 1}]": centre[i] for i in range(3)})
        names = TOTAL_NAMES + ref.scalar_names("contact.n_0", 3)
        got = dict(zip(names, slave.get_vector(names)))
    finally:
        slave.free()
    force = K * depth * n
    # The force acts on the line through the centre along n: no torque about B's origin (the centre).
    at = centre - (radius - depth / 2) * n
    torque_a = -np.cross(at, force)
    vectors = [("frame_b.f_0", force), ("frame_a.f_0", -force), ("frame_b.t_0", np.zeros(3)), ("frame_a.t_0", torque_a), ("contact.n_0", n)]
    for name, expected in vectors:
        obtained = [got[s] for s in ref.scalar_names(name, 3)]
        np.testing.assert_allclose(obtained, expected, rtol=0, atol=1e-12 * max(1.0, K * depth), err_msg=name)
    assert got["contact.points"] == 1
    assert abs(got["contact.separation"] + depth) < 1e-15


def test_missing_geometry_file_is_refused_at_initialisation_naming_the_path(with_files):
    _, unzipdir, md = with_files
    slave = Slave(unzipdir, md)
    try:
        slave.enter_initialization({"geometry_b.shape": SHAPE_POINT_CLOUD, "geometry_b.file": "nowhere.csv"})
        with pytest.raises(FMICallException):
            slave.exit_initialization()
        log = slave.log_text()
    finally:
        slave.free()
    expected_path = pathlib.Path(unzipdir, "resources", "nowhere.csv")
    assert f'geometry_b.file = "nowhere.csv": {expected_path}: cannot be read' in log, log


@pytest.mark.parametrize("tilt", [0.0, 0.3], ids=["flat", "on an edge"])
def test_stl_mesh_in_resources_rests_on_its_bottom_vertices(with_files, tilt):
    """A mesh cube (binary STL in resources/) on the default plane: flat, its 4 bottom vertices
    each carry k d and the torque about its centre vanishes; tilted about x onto an edge, the 2
    vertices of that edge carry it. Closed form: the vertices below the plane z = 0."""
    _, unzipdir, md = with_files
    depth = 1e-3
    # Turned about x by `tilt`, the lowest vertices (y = -HALF side when tilt > 0) stand at
    # z = -(HALF cos + HALF sin): lift the centre so they are `depth` below the plane.
    c, s = np.cos(tilt), np.sin(tilt)
    R = np.array([[1, 0, 0], [0, c, -s], [0, s, c]])
    lowest = min((R @ v)[2] for v in CUBE_CORNERS)
    centre = np.array([0.2, -0.1, -lowest - depth])
    q = (np.cos(tilt / 2), np.sin(tilt / 2), 0.0, 0.0)
    slave = Slave(unzipdir, md)
    try:
        parameters = {
            "geometry_b.shape": SHAPE_MESH,
            "geometry_b.file": "cube.stl",
            "normal.law": ref.NORMAL_LINEAR_SPRING_DAMPER,
            "normal.stiffness": K,
            "normal.damping": 0.0,
            "friction.law": ref.FRICTION_NONE,
        }
        inputs = {f"frame_b.r_0[{i + 1}]": centre[i] for i in range(3)}
        inputs.update({f"frame_b.q[{i + 1}]": q[i] for i in range(4)})
        slave.initialize(parameters, inputs)
        got = slave.get(TOTAL_NAMES)
    finally:
        slave.free()
    # The STL stores single precision: the expected vertices are the float32 ones.
    corners = [np.array(v, dtype=np.float32).astype(np.float64) for v in CUBE_CORNERS]
    force, torque_b, touching = np.zeros(3), np.zeros(3), 0
    for v in corners:
        p = centre + R @ v
        if p[2] < 0:
            f = np.array([0.0, 0.0, -K * p[2]])
            at = np.array([p[0], p[1], p[2] / 2])
            force += f
            torque_b += np.cross(at - centre, f)
            touching += 1
    assert touching == (4 if tilt == 0.0 else 2)
    assert got["contact.points"] == touching
    obtained = np.array([got[f"frame_b.f_0[{i + 1}]"] for i in range(3)])
    np.testing.assert_allclose(obtained, force, rtol=0, atol=1e-9 * K * depth)
    obtained = np.array([got[f"frame_b.t_0[{i + 1}]"] for i in range(3)])
    np.testing.assert_allclose(obtained, torque_b, rtol=0, atol=1e-9 * K * depth)
    if tilt == 0.0:
        np.testing.assert_allclose(obtained, np.zeros(3), rtol=0, atol=1e-9 * K * depth)
