"""Shared pytest fixtures: where the two FMUs are, and their extracted copies.

The FMUs are built by `cargo xtask fmu` into target/fmu/. `cargo xtask test` passes the absolute
path of that folder in the environment variable CONTACTFORCE_FMU_DIR; a plain `pytest` run from the
repository falls back to <repo>/target/fmu. A missing FMU fails the test loudly (it is never
skipped): a green run must mean the FMUs were really exercised.
"""

from __future__ import annotations

import os
import pathlib

import pytest

REPO = pathlib.Path(__file__).resolve().parents[2]
FMU_NAMES = {"fmi2": "ContactForce-fmi2.fmu", "fmi3": "ContactForce-fmi3.fmu"}
# The same binary with the point slots of the laws provided by input, which ContactForce leaves out.
PROVIDED_FMU_NAMES = {"fmi2": "ContactForceProvidedLaws-fmi2.fmu", "fmi3": "ContactForceProvidedLaws-fmi3.fmu"}


def fmu_dir() -> pathlib.Path:
    """CONTACTFORCE_FMU_DIR if set, else <repo>/target/fmu."""
    return pathlib.Path(os.environ.get("CONTACTFORCE_FMU_DIR", REPO / "target" / "fmu"))


def fmu_path_for(version: str, names: dict[str, str] = FMU_NAMES) -> pathlib.Path:
    """Path of one FMU; fails the calling test with instructions if it has not been built."""
    path = fmu_dir() / names[version]
    if not path.is_file():
        pytest.fail(
            f"{path} does not exist: run `cargo xtask fmu` first "
            f"(or point CONTACTFORCE_FMU_DIR to the folder holding {names[version]})",
            pytrace=False,
        )
    return path


def provided_fmu_path_for(version: str) -> pathlib.Path:
    """Path of one ContactForceProvidedLaws FMU (fails the test if it has not been built)."""
    return fmu_path_for(version, PROVIDED_FMU_NAMES)


@pytest.fixture(scope="session")
def fmu2_path() -> pathlib.Path:
    """The FMI 2.0 co-simulation FMU."""
    return fmu_path_for("fmi2")


@pytest.fixture(scope="session")
def fmu3_path() -> pathlib.Path:
    """The FMI 3.0 co-simulation FMU."""
    return fmu_path_for("fmi3")


@pytest.fixture(scope="session", params=["fmi2", "fmi3"])
def fmu_path(request) -> pathlib.Path:
    """Each FMU in turn: every test using this fixture runs for both FMI versions."""
    return fmu_path_for(request.param)


@pytest.fixture(scope="session", params=["fmi2", "fmi3"])
def provided_fmu_path(request) -> pathlib.Path:
    """Each ContactForceProvidedLaws FMU in turn."""
    return provided_fmu_path_for(request.param)


@pytest.fixture(scope="session")
def extracted(tmp_path_factory):
    """Extracts each FMU once per session; returns a function version -> (unzip dir, model description)."""
    import fmpy

    cache = {}

    def get(path: pathlib.Path):
        key = str(path)
        if key not in cache:
            unzipdir = fmpy.extract(str(path), unzipdir=str(tmp_path_factory.mktemp(path.stem)))
            cache[key] = (unzipdir, fmpy.read_model_description(unzipdir))
        return cache[key]

    return get


def ssp_path_for(name: str) -> pathlib.Path:
    """target/ssp/<name>.ssp (CONTACTFORCE_SSP_DIR if set); fails the calling test with
    instructions if `cargo xtask ssp` has not made it."""
    path = pathlib.Path(os.environ.get("CONTACTFORCE_SSP_DIR", REPO / "target" / "ssp")) / f"{name}.ssp"
    if not path.is_file():
        pytest.fail(
            f"{path} does not exist: run `cargo xtask ssp` first (or point CONTACTFORCE_SSP_DIR to the folder holding it)",
            pytrace=False,
        )
    return path


@pytest.fixture
def new_slave(fmu_path, extracted):
    """Creates instances of the FMU under test and frees them all when the test ends."""
    unzipdir, md = extracted(fmu_path)
    created = []

    def make(name="instance"):
        from fmu_driver import Slave

        slave = Slave(unzipdir, md, instance_name=name)
        created.append(slave)
        return slave

    yield make
    for slave in created:
        try:
            slave.free()
        except Exception:
            pass  # already freed by the test, or the instance is in an error state
