"""examples/python/fmu_add_resources.py on a packaged FMU: the copy it writes carries the mesh in
resources/, FMPy unpacks and runs it, and the FMU loads the mesh: a cube from an OBJ file resting
flat on the default plane 1 mm deep has its 4 bottom vertices in contact, each carrying k d.
"""

from __future__ import annotations

import subprocess
import sys
import zipfile

import pytest
from fmpy import simulate_fmu

from conftest import REPO, fmu_path_for

COMMAND = REPO / "examples" / "python" / "fmu_add_resources.py"
HALF = 0.05
K = 1e5
SHAPE_MESH = 11

# A cube of edge 2 HALF centred at its origin: 8 vertices, 12 outward triangles (OBJ, 1-based).
CUBE_OBJ = "".join(f"v {x * HALF} {y * HALF} {z * HALF}\n" for z in (-1, 1) for y in (-1, 1) for x in (-1, 1)) + "".join(
    f"f {a} {b} {c}\n"
    for a, b, c in [(1, 3, 2), (2, 3, 4), (5, 6, 7), (6, 8, 7), (1, 2, 5), (2, 6, 5), (3, 7, 4), (4, 7, 8), (1, 5, 3), (3, 5, 7), (2, 4, 6), (4, 8, 6)]
)


@pytest.mark.parametrize("version", ["fmi2", "fmi3"])
def test_a_mesh_added_by_the_command_is_loaded_by_the_fmu_in_fmpy(version, tmp_path):
    mesh = tmp_path / "cube.obj"
    mesh.write_text(CUBE_OBJ)
    out = tmp_path / f"ContactForce-cube-{version}.fmu"
    done = subprocess.run([sys.executable, str(COMMAND), str(fmu_path_for(version)), str(mesh), "--name", "parts/cube.obj", "-o", str(out)],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    with zipfile.ZipFile(out) as fmu, zipfile.ZipFile(fmu_path_for(version)) as original:
        assert fmu.read("resources/parts/cube.obj").decode() == CUBE_OBJ
        assert sorted(set(fmu.namelist()) - {"resources/parts/cube.obj"}) == sorted(original.namelist())
    depth = 1e-3
    result = simulate_fmu(
        str(out),
        start_values={"geometry_b.shape": SHAPE_MESH, "geometry_b.file": "parts/cube.obj", "normal.law": 1, "normal.stiffness": K,
                      "normal.damping": 0.0, "friction.law": 1, "frame_b.r_0[3]": HALF - depth},
        output=["contact.points", "frame_b.f_0[3]"],
        stop_time=1e-3,
        step_size=1e-3,
    )
    assert result["contact.points"][0] == 4
    assert result["frame_b.f_0[3]"][0] == pytest.approx(4 * K * depth, rel=1e-9)


def test_refuses_what_is_not_an_fmu_and_names_outside_resources(tmp_path):
    mesh = tmp_path / "cube.obj"
    mesh.write_text(CUBE_OBJ)
    done = subprocess.run([sys.executable, str(COMMAND), str(mesh), str(mesh)], capture_output=True, text=True, timeout=60)
    assert done.returncode == 2 and "not an FMU" in done.stderr
    copy = tmp_path / "copy.fmu"
    copy.write_bytes(fmu_path_for("fmi2").read_bytes())
    done = subprocess.run([sys.executable, str(COMMAND), str(copy), str(mesh), "--name", "../cube.obj"], capture_output=True, text=True, timeout=60)
    assert done.returncode == 2 and "relative path without .." in done.stderr
    # In place: the FMU itself gains the file.
    done = subprocess.run([sys.executable, str(COMMAND), str(copy), str(mesh)], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert "resources/cube.obj" in zipfile.ZipFile(copy).namelist()
