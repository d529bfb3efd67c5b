"""examples/python/contact_parameters.py, the helper of the guide's "Choosing parameters" page:
Hertz's stiffness against Hertz's closed form for the contact radius, the restitution it computes
against LinearSpringDamper's closed form, and the damping it gives for a restitution against the
restitution measured from a drop simulated through the ContactForce FMU in FMPy.
"""

from __future__ import annotations

import importlib.util
import math
import shutil
import subprocess
import sys

import pytest

from conftest import REPO, fmu_path_for

HELPER = REPO / "examples" / "python" / "contact_parameters.py"
spec = importlib.util.spec_from_file_location("contact_parameters", HELPER)
cp = importlib.util.module_from_spec(spec)
spec.loader.exec_module(cp)


def test_hertz_stiffness_gives_hertz_contact_radius_and_approach():
    # Hertz (Johnson, Contact Mechanics, 4.2): a = (3 F R* / (4 E*))^(1/3), approach d = a^2 / R*.
    # The stiffness K must give back F at that d: F = K d^1.5.
    for (E1, nu1, R1), (E2, nu2, R2) in [((210e9, 0.3, 0.01), (210e9, 0.3, math.inf)), ((70e9, 0.33, 0.02), (3.2e9, 0.37, 0.05))]:
        E_star = 1.0 / ((1 - nu1**2) / E1 + (1 - nu2**2) / E2)
        R_star = 1.0 / (1.0 / R1 + 1.0 / R2)
        K = cp.hertz_stiffness(E1, nu1, R1, E2, nu2, R2)
        for F in (1.0, 100.0, 1e4):
            a = (3.0 * F * R_star / (4.0 * E_star)) ** (1.0 / 3.0)
            d = a * a / R_star
            assert K * d**1.5 == pytest.approx(F, rel=1e-12)
    # Steel on steel, 10 mm ball on a plane: 4/3 * 210e9 / (2 (1 - 0.09)) * 0.1 = 1.5385e10.
    assert cp.hertz_stiffness(210e9, 0.3, 0.01) == pytest.approx(1.5384615e10, rel=1e-7)


def test_the_integrated_restitution_is_the_linear_closed_form():
    # LinearSpringDamper is HuntCrossley with n = 1, p = 0, q = 1: the integration must give the
    # clipped closed form (0.7441 at zeta = 0.1, the sphere drop scenario).
    closed = cp.linear_restitution(1.0, 1e6, 200.0)
    assert closed == pytest.approx(0.7440794, abs=1e-6)
    assert cp.restitution("HuntCrossley", 1.0, 3.13, 1e6, 200.0, n=1.0, p=0.0) == pytest.approx(closed, rel=1e-7)
    # And the reverse.
    assert cp.damping_for_restitution(closed, "LinearSpringDamper", 1.0, 3.13, 1e6) == pytest.approx(200.0, rel=1e-7)


def test_bad_values_are_refused_naming_them():
    with pytest.raises(ValueError, match="nu1 = 0.7"):
        cp.hertz_stiffness(210e9, 0.7, 0.01)
    with pytest.raises(ValueError, match="e = 1.2"):
        cp.damping_for_restitution(1.2, "HuntCrossley", 1.0, 1.0, 1e9)
    with pytest.raises(ValueError, match="law = 'Impact'"):
        cp.restitution("Impact", 1.0, 1.0, 1e9, 1.0)


def test_the_command_prints_the_parameters():
    done = subprocess.run([sys.executable, str(HELPER), "hertz", "--material1", "steel", "--R1", "0.01"], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert "normal.stiffness = 1.53846e+10 N/m^1.5" in done.stdout


def drop(fmu_path, parameters, mass, radius, v0, h):
    """A ball of `mass` and `radius` meets the default plane at v0 (no gravity), the FMU giving the
    force at each step and the test integrating the ball (semi-implicit Euler); returns the speed
    it leaves with over v0."""
    import fmpy
    from fmpy.fmi2 import FMU2Slave

    unzipdir = fmpy.extract(str(fmu_path))
    try:
        md = fmpy.read_model_description(unzipdir)
        vr = {v.name: v.valueReference for v in md.modelVariables}
        fmu = FMU2Slave(guid=md.guid, unzipDirectory=unzipdir, modelIdentifier=md.coSimulation.modelIdentifier, instanceName="drop")
        fmu.instantiate()
        fmu.setupExperiment(startTime=0.0)
        reals = {k: v for k, v in parameters.items() if isinstance(v, float)}
        integers = {k: v for k, v in parameters.items() if isinstance(v, int)}
        fmu.setReal([vr[k] for k in reals], list(reals.values()))
        fmu.setInteger([vr[k] for k in integers], list(integers.values()))
        fmu.enterInitializationMode()
        fmu.exitInitializationMode()
        z, v, t = radius, -v0, 0.0
        refs = [vr["frame_b.r_0[3]"], vr["frame_b.v_0[3]"]]
        force = vr["frame_b.f_0[3]"]
        touched = False
        for _ in range(200000):
            fmu.setReal(refs, [z, v])
            fmu.doStep(currentCommunicationPoint=t, communicationStepSize=h)
            f = fmu.getReal([force])[0]
            touched |= f > 0
            v += f / mass * h
            z += v * h
            t += h
            if touched and z > radius:
                break
        fmu.terminate()
        fmu.freeInstance()
        assert touched and v > 0
        return v / v0
    finally:
        shutil.rmtree(unzipdir, ignore_errors=True)


def test_the_damping_for_a_restitution_gives_it_in_a_drop_through_the_fmu():
    """A 10 mm steel ball on a steel plane at 0.5 m/s: Hertz's K, the HuntCrossley damping for
    e = 0.6 and the step of omega h = 0.002, all from the helper; the drop through the FMU gives
    e = 0.6 within 1 %."""
    radius, v0, e = 0.01, 0.5, 0.6
    mass = 7850.0 * 4.0 / 3.0 * math.pi * radius**3
    K = cp.hertz_stiffness(*cp.MATERIALS["steel"], radius)
    b = cp.damping_for_restitution(e, "HuntCrossley", mass, v0, K)
    h = cp.step_size("HuntCrossley", mass, v0, K, omega_h=0.002)
    parameters = {"normal.law": 3, "friction.law": 1, "normal.stiffness": K, "normal.damping": b, "normal.exponent": 1.5,
                  "normal.damping_exponent": 1.5, "normal.velocity_exponent": 1.0, "geometry_b.radius": radius}
    measured = drop(fmu_path_for("fmi2"), parameters, mass, radius, v0, h)
    assert measured == pytest.approx(e, rel=0.01)
