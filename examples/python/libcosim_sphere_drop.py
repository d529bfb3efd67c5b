#!/usr/bin/env python3
"""The sphere drop of scenarios/sphere_drop.toml in libcosim (the Open Simulation Platform's
co-simulation library), through its Python wrapper libcosimpy.

Why this example: it shows ContactForce and RigidBody coupled by a third-party master, set up by
hand from the FMUs' variable names (libcosim's own API, no SSP), and measures what that master's
coupling does to the coefficient of restitution, which has a closed form here.

Setup (as the scenario): a 1 kg sphere of radius 0.05 m released at rest 0.5 m above a plane,
LinearSpringDamper k = 1e6 N/m, b = 200 N.s/m (zeta = 0.1), no friction. The clipped closed-form
restitution is 0.7441 (tests/laws_closed_forms.rs); the rebound speed is the largest upward
velocity after the first impact.

libcosim's fixed-step algorithm steps every FMU over [t, t + h] and then transfers the outputs
(Jacobi), so the body integrates with the force of its state one step earlier, as FMPy's SSP
master does (docs/src/cosimulation.md): at the same step the sphere rebounds higher than with
cosim, and at a third of the step the two agree.

Usage: libcosim_sphere_drop.py --fmu-dir target/fmu [--step 5e-6] [--stop 0.45]
Needs `pip install libcosimpy` (not part of the pinned test requirements).
"""

from __future__ import annotations

import argparse
import math
import pathlib

from libcosimpy.CosimEnums import CosimVariableType
from libcosimpy.CosimExecution import CosimExecution
from libcosimpy.CosimLogging import CosimLogLevel, log_output_level
from libcosimpy.CosimObserver import CosimObserver
from libcosimpy.CosimSlave import CosimLocalSlave

MASS, RADIUS, DROP, GRAVITY = 1.0, 0.05, 0.5, 9.81
STIFFNESS, DAMPING = 1e6, 200.0
CLOSED_FORM = 0.7440793977217797
NANOS = 1e9


def variables(execution: CosimExecution, slave: int) -> dict[str, tuple[int, int]]:
    """Name -> (value reference, type) of a slave's variables."""
    return {v.name.decode(): (v.reference, v.type) for v in execution.slave_variables(slave)}


def set_start(execution: CosimExecution, slave: int, names: dict, name: str, value) -> None:
    reference, kind = names[name]
    if kind == CosimVariableType.REAL.value:
        ok = execution.real_initial_value(slave, reference, float(value))
    else:
        ok = execution.integer_initial_value(slave, reference, int(value))
    if not ok:
        raise SystemExit(f"libcosim refused the start value {name} = {value}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--fmu-dir", type=pathlib.Path, default=pathlib.Path("target/fmu"))
    parser.add_argument("--step", type=float, default=5e-6, help="communication step [s]")
    parser.add_argument("--stop", type=float, default=0.45, help="stop time [s] (the first rebound is over by 0.33 s)")
    args = parser.parse_args()
    log_output_level(CosimLogLevel.ERROR)

    execution = CosimExecution.from_step_size(step_size=round(args.step * NANOS))
    ball = execution.add_local_slave(CosimLocalSlave(str(args.fmu_dir / "RigidBody-fmi2.fmu"), "ball"))
    contact = execution.add_local_slave(CosimLocalSlave(str(args.fmu_dir / "ContactForce-fmi2.fmu"), "contact"))
    ball_vars, contact_vars = variables(execution, ball), variables(execution, contact)

    for name, value in {"mass": MASS, "inertia[1]": 1e-3, "inertia[2]": 1e-3, "inertia[3]": 1e-3,
                        "gravity[3]": -GRAVITY, "r_0_start[3]": DROP + RADIUS}.items():
        set_start(execution, ball, ball_vars, name, value)
    # libcosim ignores FMI 2.0 Enumeration variables (it logs "FMI 2.0 Enumeration variable type
    # not supported"), so the shapes and laws cannot be set: this example relies on the defaults,
    # a Plane for A, a Sphere for B, LinearSpringDamper, and Tanh friction, which carries no force
    # here because the sphere falls straight down (no slip).
    for name, value in {"geometry_b.radius": RADIUS, "normal.stiffness": STIFFNESS, "normal.damping": DAMPING}.items():
        set_start(execution, contact, contact_vars, name, value)

    # The body's state into the contact's frame B; the force and torque on B back into the body.
    links = [(f"r_0[{i}]", f"frame_b.r_0[{i}]") for i in (1, 2, 3)] + [(f"q[{i}]", f"frame_b.q[{i}]") for i in (1, 2, 3, 4)]
    links += [(f"v_0[{i}]", f"frame_b.v_0[{i}]") for i in (1, 2, 3)] + [(f"w_0[{i}]", f"frame_b.w_0[{i}]") for i in (1, 2, 3)]
    for body_output, contact_input in links:
        execution.connect_real_variables(ball, ball_vars[body_output][0], contact, contact_vars[contact_input][0])
    for i in (1, 2, 3):
        execution.connect_real_variables(contact, contact_vars[f"frame_b.f_0[{i}]"][0], ball, ball_vars[f"f_0[{i}]"][0])
        execution.connect_real_variables(contact, contact_vars[f"frame_b.t_0[{i}]"][0], ball, ball_vars[f"t_0[{i}]"][0])

    observer = CosimObserver.create_last_value()
    execution.add_observer(observer)
    v_z = ball_vars["v_0[3]"][0]
    steps = round(args.stop / args.step)
    rebound = -math.inf
    for _ in range(steps):
        if not execution.step():
            raise SystemExit(f"libcosim failed a step: {execution.status()}")
        rebound = max(rebound, observer.last_real_values(ball, [v_z])[0])
    impact_speed = math.sqrt(2 * GRAVITY * DROP)
    e = rebound / impact_speed
    print(f"libcosim, step {args.step:g} s: restitution {e:.4f} "
          f"(closed form {CLOSED_FORM:.4f}, {100 * (e / CLOSED_FORM - 1):+.2f} %)")


if __name__ == "__main__":
    main()
