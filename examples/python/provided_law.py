#!/usr/bin/env python3
"""A contact law written in Python, fed to the ContactForce FMU through `ProvidedByInput`.

Why this example: a user's own law (a measured force curve, a tyre model, a wear model) goes into
the contact the way Simscape's "Provided by Input" and Adams' CNFSUB/CFFSUB take it. The FMU still
finds the contact points; per point slot i it outputs what a law needs (`contact.point[i].depth`,
`depth_rate`, `slip_velocity` along `tangent1_0` and `tangent2_0`, and the frame `n_0`,
`tangent1_0`, `tangent2_0`), and takes back `contact.point[i].provided.normal_force` and
`contact.point[i].provided.friction_force` (two components along the tangents), which it applies
at the point with Newton's third law.

Setup: a box (0.2 x 0.1 x 0.1 m, 8 corner slots) moves into the ground, tilted, sliding and turning
along a prescribed path, so that between one and four corners touch and slide at once. Two
instances of the FMU get the same motion every step: one with the built-in laws
(LinearSpringDamper, k = 1e5 N/m, b = 300 N.s/m; Tanh friction, mu = 0.4, k_mu = 200 s/m), one with
both laws ProvidedByInput, whose forces come from the functions `normal_law` and `friction_law`
below, the same formulas written in Python.

Check: the wrench on each body and the sums agree to rounding (the largest difference over the run,
relative to the largest force, is printed and must be below 1e-12), in either FMI version.

Usage: provided_law.py --fmu-dir target/fmu [--fmi 2|3]
"""

from __future__ import annotations

import argparse
import math
import pathlib
import shutil
import sys

STIFFNESS = 1e5  # N/m
DAMPING = 300.0  # N.s/m
MU = 0.4
TANH_GAIN = 200.0  # s/m
SIZE = (0.2, 0.1, 0.1)  # m
STEP = 1e-3  # s
STEPS = 600
SLOTS = 8

LINEAR_SPRING_DAMPER, TANH, PROVIDED_BY_INPUT, BOX = 1, 4, 8, 3  # normal.law, friction.law, both, geometry_b.shape


def normal_law(depth: float, depth_rate: float) -> float:
    """LinearSpringDamper: k d + b dd (the FMU clips it at 0 and applies it only in contact)."""
    return STIFFNESS * depth + DAMPING * depth_rate


def friction_law(normal_force: float, slip: tuple[float, float]) -> tuple[float, float]:
    """Tanh friction along the slip: -mu tanh(k_mu v) f_n v_t / v, with the limit mu k_mu of
    tanh(k_mu v) / v at rest (no division by zero)."""
    speed = math.hypot(*slip)
    x = TANH_GAIN * speed
    ratio = MU * TANH_GAIN * (1.0 - x * x / 3.0) if x < 1e-4 else MU * math.tanh(x) / speed
    return (-ratio * normal_force * slip[0], -ratio * normal_force * slip[1])


class Contact:
    """One ContactForce instance through FMPy's FMI 2.0 or 3.0 slave class, by variable name."""

    def __init__(self, fmu_path: pathlib.Path, name: str):
        import fmpy
        from fmpy.fmi2 import FMU2Slave
        from fmpy.fmi3 import FMU3Slave

        self.unzipdir = fmpy.extract(str(fmu_path))
        md = fmpy.read_model_description(self.unzipdir)
        self.fmi3 = md.fmiVersion.startswith("3")
        self.vr = {v.name: v.valueReference for v in md.modelVariables}
        cls = FMU3Slave if self.fmi3 else FMU2Slave
        self.fmu = cls(guid=md.guid, unzipDirectory=self.unzipdir, modelIdentifier=md.coSimulation.modelIdentifier, instanceName=name)
        self.fmu.instantiate()

    def set(self, values: dict):
        refs = [self.vr[n] for n in values]
        (self.fmu.setFloat64 if self.fmi3 else self.fmu.setReal)(refs, [float(v) for v in values.values()])

    def get(self, names: list[str]) -> list[float]:
        refs = [self.vr[n] for n in names]
        return list((self.fmu.getFloat64 if self.fmi3 else self.fmu.getReal)(refs))

    def initialize(self, parameters: dict, enumerations: dict):
        if not self.fmi3:
            self.fmu.setupExperiment(startTime=0.0)
        self.set(parameters)
        (self.fmu.setInt64 if self.fmi3 else self.fmu.setInteger)([self.vr[n] for n in enumerations], list(enumerations.values()))
        self.fmu.enterInitializationMode(**({"startTime": 0.0} if self.fmi3 else {}))
        self.fmu.exitInitializationMode()

    def do_step(self, t: float):
        self.fmu.doStep(currentCommunicationPoint=t, communicationStepSize=STEP)

    def close(self):
        self.fmu.terminate()
        self.fmu.freeInstance()
        shutil.rmtree(self.unzipdir, ignore_errors=True)


def motion(t: float) -> dict:
    """The box's prescribed pose and twist: sinking and rising, sliding, turning about z and
    rocking about x (a quaternion about z then x, with the twist it implies in W)."""
    depth = 2e-3 * math.sin(2 * math.pi * 2.0 * t)
    z, vz = SIZE[2] / 2 - depth + 5e-4, -2e-3 * 2 * math.pi * 2.0 * math.cos(2 * math.pi * 2.0 * t)
    yaw, yaw_rate = 0.8 * t, 0.8
    roll = 0.02 * math.sin(2 * math.pi * 1.5 * t)
    roll_rate = 0.02 * 2 * math.pi * 1.5 * math.cos(2 * math.pi * 1.5 * t)
    # q = q_z(yaw) q_x(roll): w = yaw_rate z + roll_rate (R_z x).
    cz, sz, cx, sx = math.cos(yaw / 2), math.sin(yaw / 2), math.cos(roll / 2), math.sin(roll / 2)
    q = (cz * cx, cz * sx, sz * sx, sz * cx)
    w = (roll_rate * math.cos(yaw), roll_rate * math.sin(yaw), yaw_rate)
    values = {"frame_b.r_0[1]": 0.3 * t, "frame_b.r_0[3]": z, "frame_b.v_0[1]": 0.3, "frame_b.v_0[3]": vz}
    values.update({f"frame_b.q[{k + 1}]": q[k] for k in range(4)})
    values.update({f"frame_b.w_0[{k + 1}]": w[k] for k in range(3)})
    return values


WRENCH = [f"frame_{x}.{f}_0[{k}]" for x in "ab" for f in "ft" for k in (1, 2, 3)] + ["contact.normal_force", "contact.friction_force"]


def slot_names(i: int) -> list[str]:
    p = f"contact.point[{i}]"
    return [f"{p}.depth", f"{p}.depth_rate", f"{p}.slip_velocity[1]", f"{p}.slip_velocity[2]"]


def run(fmu_path: pathlib.Path) -> tuple[float, float, int]:
    """Runs both instances; returns the largest wrench difference, the largest force and the most
    corners that carried force at once."""
    builtin, provided = Contact(fmu_path, "builtin"), Contact(fmu_path, "provided")
    parameters = {"normal.stiffness": STIFFNESS, "normal.damping": DAMPING, "friction.mu_dynamic": MU, "friction.tanh_gain": TANH_GAIN}
    parameters.update({f"geometry_b.size[{k + 1}]": SIZE[k] for k in range(3)})
    builtin.initialize(parameters, {"geometry_b.shape": BOX, "normal.law": LINEAR_SPRING_DAMPER, "friction.law": TANH})
    provided.initialize(parameters, {"geometry_b.shape": BOX, "normal.law": PROVIDED_BY_INPUT, "friction.law": PROVIDED_BY_INPUT})
    largest_difference, largest_force, most_points = 0.0, 0.0, 0
    try:
        for step in range(STEPS):
            t = step * STEP
            builtin.set(motion(t))
            provided.set(motion(t))
            # The user's law: read each slot's kinematics, give its forces.
            forces = {}
            for i in range(1, SLOTS + 1):
                depth, rate, s1, s2 = provided.get(slot_names(i))
                normal = normal_law(depth, rate)
                carried = max(normal, 0.0) if depth > 0.0 else 0.0
                f1, f2 = friction_law(carried, (s1, s2))
                forces[f"contact.point[{i}].provided.normal_force"] = normal
                forces[f"contact.point[{i}].provided.friction_force[1]"] = f1
                forces[f"contact.point[{i}].provided.friction_force[2]"] = f2
            provided.set(forces)
            want, got = builtin.get(WRENCH), provided.get(WRENCH)
            largest_force = max(largest_force, *(abs(x) for x in want[:3]))
            largest_difference = max(largest_difference, *(abs(a - b) for a, b in zip(want, got)))
            points = sum(1 for i in range(1, SLOTS + 1) if provided.get([f"contact.point[{i}].normal_force"])[0] > 0.0)
            most_points = max(most_points, points)
            builtin.do_step(t)
            provided.do_step(t)
    finally:
        builtin.close()
        provided.close()
    return largest_difference, largest_force, most_points


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--fmu-dir", type=pathlib.Path, default=pathlib.Path("target/fmu"))
    parser.add_argument("--fmi", choices=["2", "3"], default="2")
    args = parser.parse_args()
    # The point slots of the laws provided by input are in ContactForceProvidedLaws (the same binary).
    fmu = args.fmu_dir / f"ContactForceProvidedLaws-fmi{args.fmi}.fmu"
    difference, force, points = run(fmu)
    relative = difference / force
    print(f"FMI {args.fmi}: {STEPS} steps, up to {points} corners in contact, largest force {force:.3f} N")
    print(f"largest difference between the Python law and the built-in laws: {difference:.3e} N ({relative:.2e} of the largest force)")
    if relative > 1e-12 or points < 2:
        print("FAILED: the Python law does not reproduce the built-in laws to 1e-12", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
