"""Smoke tests of the SSP examples: examples/python/run_ssp.py and sweep_dask.py on the sphere drop.

Each runs as a user would run it (a subprocess with the venv's Python) into a temporary folder, and
its outputs are read back: the CSV has the expected rows and columns and the PNG is a PNG. The
sweep runs a 1 x 2 grid on a LocalCluster of one worker at the SSD's own step, and checks the one
physical statement its grid makes: more friction leaves the sphere slower after the first impact.
"""

from __future__ import annotations

import csv
import pathlib
import subprocess
import sys
import tomllib

import pytest

from conftest import REPO, ssp_path_for

EXAMPLES = REPO / "examples" / "python"
PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


def run(script: str, *args: str) -> str:
    done = subprocess.run([sys.executable, str(EXAMPLES / script), *args], cwd=REPO, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, f"{script} failed:\n{done.stdout}\n{done.stderr}"
    return done.stdout


def read_rows(path: pathlib.Path) -> list[dict[str, str]]:
    with open(path, newline="") as file:
        return list(csv.DictReader(file))


def instance(model: str) -> str:
    """The sphere drop's instance of RigidBody or ContactForce."""
    fmus = tomllib.loads((REPO / "scenarios" / "sphere_drop.toml").read_text())["fmus"]
    return next(name for name, fmu in fmus.items() if pathlib.Path(fmu["path"]).name.startswith(model))


def test_run_ssp_writes_a_csv_and_a_plot(tmp_path):
    ssp = ssp_path_for("sphere_drop")
    body, contact = instance("RigidBody"), instance("ContactForce")
    run("run_ssp.py", str(ssp), "--out", str(tmp_path), "--stop-time", "0.1", "--plot", f"{body}.r_0", f"{contact}.frame_b.f_0")
    rows = read_rows(tmp_path / "sphere_drop_fmpy.csv")
    step = float(rows[1]["time"]) - float(rows[0]["time"])
    assert len(rows) == round(0.1 / step)
    assert float(rows[-1]["time"]) == pytest.approx(0.1, rel=1e-12)
    assert f"{body}.r_0[3]" in rows[0] and f"{contact}.frame_b.f_0[3]" in rows[0]
    assert (tmp_path / "sphere_drop_fmpy.png").read_bytes().startswith(PNG_SIGNATURE)


def test_sweep_dask_runs_a_tiny_grid_on_a_local_cluster(tmp_path):
    ssp = ssp_path_for("sphere_drop")
    output = run("sweep_dask.py", "--ssp", str(ssp), "--out", str(tmp_path), "--stiffness", "1e5",
                 "--mu", "0.01", "0.3", "--workers", "1", "--step-divisor", "1")
    assert "2 runs on a LocalCluster of 1 worker(s)" in output
    rows = read_rows(tmp_path / "sweep_sphere_drop.csv")
    assert [(float(r["stiffness"]), float(r["mu"])) for r in rows] == [(1e5, 0.01), (1e5, 0.3)]
    for row in rows:
        for quantity in ("bounce_height", "speed_after_bounce", "peak_contact_force"):
            assert float(row[quantity]) > 0, f"{quantity} at mu = {row['mu']}: {row[quantity]}"
    slippery, grippy = (float(r["speed_after_bounce"]) for r in rows)
    assert grippy < slippery < 1.0, "friction slows the sphere thrown at 1 m/s, more friction more"
    assert (tmp_path / "sweep_sphere_drop.png").read_bytes().startswith(PNG_SIGNATURE)
