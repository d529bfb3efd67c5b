#!/usr/bin/env python3
"""Restitution against the communication step: Instantaneous and StepAverage coupling, in both
orders a co-simulation master takes.

The system is scenarios/sphere_drop.toml's: a 1 kg ball of radius 0.05 m dropped from 0.5 m on a
plane, LinearSpringDamper k = 1e6 N/m, b = 200 N.s/m (omega = 1000 rad/s, zeta = 0.1), whose
clipped closed-form restitution is 0.7440794. The master here is a loop around a point mass that
integrates exactly under the held force (as the RigidBody FMU does):

- Gauss-Seidel: the ball's state goes into the FMU, the force is read, then both step;
- Jacobi (libcosim and other parallel masters): both step from the same instant with what was
  exchanged before, then the force is read and the state set.

Instantaneous holds the force at the start of each step, which is right only for omega h << 1;
StepAverage holds the average over the step from the block's own integration of the ball.

Usage: step_sizes.py --fmu-dir target/fmu [--out results] [--fmi 2|3]
Writes <out>/step_sizes.csv, <out>/step_sizes.md (the table) and <out>/step_sizes.png.
"""

from __future__ import annotations

import argparse
import csv
import math
import pathlib

import numpy as np

G = 9.81
V0 = math.sqrt(2 * G * 0.5)
CLOSED_FORM = 0.7440793977217797
STEPS = [5e-6, 2e-5, 1e-4, 3e-4, 1e-3, 3e-3, 1e-2]
MODES = {"Instantaneous": 1, "StepAverage": 2}
ORDERS = ["Gauss-Seidel", "Jacobi"]


class Slave:
    """The ContactForce FMU through FMPy's FMI 2 or FMI 3 slave class, by variable name."""

    def __init__(self, fmu: pathlib.Path, parameters: dict):
        import fmpy
        from fmpy.fmi2 import FMU2Slave
        from fmpy.fmi3 import FMU3Slave

        unzipdir = fmpy.extract(str(fmu))
        md = fmpy.read_model_description(unzipdir)
        self.fmi3 = md.fmiVersion.startswith("3")
        self.vr = {v.name: v.valueReference for v in md.modelVariables}
        self.types = {v.name: v.type for v in md.modelVariables}
        cls = FMU3Slave if self.fmi3 else FMU2Slave
        self.fmu = cls(guid=md.guid, unzipDirectory=unzipdir, modelIdentifier=md.coSimulation.modelIdentifier, instanceName="ball")
        self.fmu.instantiate()
        if self.fmi3:
            self._set(parameters)
            self.fmu.enterInitializationMode(startTime=0.0)
        else:
            self.fmu.setupExperiment(startTime=0.0)
            self._set(parameters)
            self.fmu.enterInitializationMode()
        self.fmu.exitInitializationMode()
        self.force = [self.vr[f"frame_b.f_0[{i}]"] for i in (1, 2, 3)]
        self.state = [self.vr[n] for n in ("frame_b.r_0[3]", "frame_b.v_0[3]")]
        self.peak = self.vr["contact.max_normal_force"]

    def _set(self, values):
        for name, value in values.items():
            t = self.types[name]
            if t in ("Real", "Float64"):
                (self.fmu.setFloat64 if self.fmi3 else self.fmu.setReal)([self.vr[name]], [float(value)])
            else:
                (self.fmu.setInt64 if self.fmi3 else self.fmu.setInteger)([self.vr[name]], [int(value)])

    def set_ball(self, z, v):
        (self.fmu.setFloat64 if self.fmi3 else self.fmu.setReal)(self.state, [z, v])

    def get_force(self):
        return (self.fmu.getFloat64 if self.fmi3 else self.fmu.getReal)(self.force)[2]

    def do_step(self, t, h):
        self.fmu.doStep(currentCommunicationPoint=t, communicationStepSize=h)

    def free(self):
        self.fmu.terminate()
        self.fmu.freeInstance()


def restitution(fmu: pathlib.Path, mode: str, order: str, h: float) -> float:
    """The first rebound's speed over the impact speed."""
    slave = Slave(
        fmu,
        {
            "geometry_b.radius": 0.05,
            "normal.law": 1,
            "normal.stiffness": 1e6,
            "normal.damping": 200.0,
            "friction.law": 1,
            "coupling.mode": MODES[mode],
            "coupling.step": h,
            "body_b.mass": 1.0,
        },
    )
    z, v, t = 0.55, 0.0, 0.0
    descended, rebound = False, 0.0

    def body_step(f):
        nonlocal z, v
        a = f - G
        z += v * h + 0.5 * a * h * h
        v += a * h

    slave.set_ball(z, v)
    held = slave.get_force()
    for _ in range(int(round(0.75 / h))):
        if order == "Gauss-Seidel":
            slave.set_ball(z, v)
            held = slave.get_force()
            slave.do_step(t, h)
            body_step(held)
        else:
            slave.do_step(t, h)
            body_step(held)
            held = slave.get_force()
            slave.set_ball(z, v)
        t += h
        descended |= v < -0.5 * V0
        if descended:
            rebound = max(rebound, v)
    slave.free()
    return rebound / V0


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--fmu-dir", type=pathlib.Path, default=pathlib.Path("target/fmu"))
    parser.add_argument("--out", type=pathlib.Path, default=pathlib.Path("results"))
    parser.add_argument("--fmi", choices=["2", "3"], default="2")
    args = parser.parse_args()
    fmu = args.fmu_dir / f"ContactForce-fmi{args.fmi}.fmu"
    args.out.mkdir(parents=True, exist_ok=True)

    rows = []
    for h in STEPS:
        row = {"step [s]": h, "omega h": 1000 * h}
        for mode in MODES:
            for order in ORDERS:
                row[f"{mode}, {order}"] = restitution(fmu, mode, order, h)
        rows.append(row)
        print(", ".join(f"{k} = {v:.4g}" for k, v in row.items()), flush=True)

    columns = list(rows[0].keys())
    with open(args.out / "step_sizes.csv", "w", newline="") as f:
        writer = csv.DictWriter(f, fieldnames=columns)
        writer.writeheader()
        writer.writerows(rows)
    lines = ["| " + " | ".join(columns) + " |", "| " + " | ".join("---" for _ in columns) + " |"]
    for row in rows:
        lines.append("| " + " | ".join(f"{row[c]:g}" if c in ("step [s]", "omega h") else f"{row[c]:.4f}" for c in columns) + " |")
    table = "\n".join(lines) + f"\n\nClosed form (clipped linear spring-damper, zeta = 0.1): {CLOSED_FORM:.4f}.\n"
    (args.out / "step_sizes.md").write_text(table)
    print(table)

    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(7, 4.2))
    steps = np.array(STEPS)
    styles = {"Instantaneous": "--", "StepAverage": "-"}
    markers = {"Gauss-Seidel": "o", "Jacobi": "s"}
    for mode in MODES:
        for order in ORDERS:
            ax.plot(steps, [r[f"{mode}, {order}"] for r in rows], styles[mode], marker=markers[order], label=f"{mode}, {order}")
    ax.axhline(CLOSED_FORM, color="k", lw=0.8, label="closed form")
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel("communication step h [s]  (omega = 1000 rad/s)")
    ax.set_ylabel("restitution e")
    ax.set_title("Sphere drop: restitution against the communication step")
    ax.legend(fontsize=8)
    ax.grid(True, which="both", alpha=0.3)
    fig.tight_layout()
    fig.savefig(args.out / "step_sizes.png", dpi=110)
    print(f"wrote {args.out / 'step_sizes.csv'}, step_sizes.md and step_sizes.png")


if __name__ == "__main__":
    main()
