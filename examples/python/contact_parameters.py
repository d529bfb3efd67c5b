#!/usr/bin/env python3
"""Contact parameters from a material, a geometry and a coefficient of restitution.

The formulas of the guide's page "Choosing parameters" (docs/src/choosing-parameters.md), as
functions and as a command:

- hertz_stiffness(E1, nu1, R1, E2, nu2, R2): Hertz's K = 4/3 E* sqrt(R*) in N/m^1.5 for
  `normal.stiffness` with n = 1.5 (HuntCrossley, Impact, Restitution, GroundModel), a sphere on a
  sphere (R2 = inf: on a plane);
- restitution(law, mass, v0, k, b, ...): the coefficient of restitution of one impact of a mass on
  an immovable body under a normal law, the force clipped at f_n >= 0 as the FMU clips it (closed
  form for LinearSpringDamper, a fine integration otherwise);
- damping_for_restitution(e, law, mass, v0, k, ...): the `normal.damping` that gives e (the
  reverse, by bisection on the above);
- restitution_law_chi(e, v0, model): the damping factor the Restitution law computes from e;
- natural_frequency(law, mass, v0, k, ...) and step_size(...): omega of the contact and the
  communication step with omega h = 0.005 (0.5 % on the restitution under the Instantaneous
  coupling; docs/src/cosimulation.md).

The mass is the effective mass m1 m2 / (m1 + m2) of the two bodies (the body's own mass on the
ground). Every function takes SI units.

Usage:
    contact_parameters.py hertz --E1 210e9 --nu1 0.3 --R1 0.01 [--E2 ... --nu2 ... --R2 ...]
    contact_parameters.py damping --law HuntCrossley --e 0.6 --mass 0.033 --v0 0.5 --k 1.5e10
    contact_parameters.py restitution --law LinearSpringDamper --mass 1 --v0 3 --k 1e6 --b 200
    contact_parameters.py step --law HuntCrossley --mass 0.033 --v0 0.5 --k 1.5e10
"""

from __future__ import annotations

import argparse
import math
import sys

# Young's modulus (Pa) and Poisson's ratio of common materials (typical handbook values; a real
# part's grade and temperature change them by several percent).
MATERIALS = {
    "steel": (210e9, 0.30),
    "aluminium": (70e9, 0.33),
    "titanium": (110e9, 0.34),
    "copper": (120e9, 0.34),
    "glass": (70e9, 0.22),
    "acrylic": (3.2e9, 0.37),
    "nylon": (3.0e9, 0.40),
    "abs": (2.3e9, 0.35),
    "rubber": (5e6, 0.49),
}

LAWS = ("LinearSpringDamper", "HuntCrossley", "GroundModel")


def effective_modulus(E1: float, nu1: float, E2: float, nu2: float) -> float:
    """E* with 1/E* = (1 - nu1^2)/E1 + (1 - nu2^2)/E2 (Pa)."""
    for name, value in (("E1", E1), ("E2", E2)):
        if not value > 0:
            raise ValueError(f"{name} = {value}: Young's modulus must be > 0 Pa")
    for name, value in (("nu1", nu1), ("nu2", nu2)):
        if not -1.0 < value < 0.5 + 1e-12:
            raise ValueError(f"{name} = {value}: Poisson's ratio must be in (-1, 0.5]")
    return 1.0 / ((1.0 - nu1**2) / E1 + (1.0 - nu2**2) / E2)


def effective_radius(R1: float, R2: float = math.inf) -> float:
    """R* with 1/R* = 1/R1 + 1/R2 (m); R2 = inf is a plane."""
    for name, value in (("R1", R1), ("R2", R2)):
        if not value > 0:
            raise ValueError(f"{name} = {value}: a radius must be > 0 m (a plane: inf)")
    return 1.0 / (1.0 / R1 + 1.0 / R2)


def hertz_stiffness(E1: float, nu1: float, R1: float, E2: float | None = None, nu2: float | None = None, R2: float = math.inf) -> float:
    """Hertz's K = 4/3 E* sqrt(R*) (N/m^1.5): f_n = K d^1.5 for two spheres (or a sphere on a
    plane, R2 = inf). The second body is of the first's material unless E2 and nu2 are given."""
    E2 = E1 if E2 is None else E2
    nu2 = nu1 if nu2 is None else nu2
    return 4.0 / 3.0 * effective_modulus(E1, nu1, E2, nu2) * math.sqrt(effective_radius(R1, R2))


def _law(law: str, k: float, b: float, n: float, p: float, q: float):
    """(force(d, dd), exponent of the spring term) of a law of the Hunt-Crossley family."""
    if law == "LinearSpringDamper":
        return (lambda d, dd: k * d + b * dd), 1.0
    if law == "HuntCrossley":
        return (lambda d, dd: k * d**n + b * math.copysign(abs(dd) ** q, dd) * d**p), n
    if law == "GroundModel":
        return (lambda d, dd: math.sqrt(d) * (k * d + b * dd)), 1.5
    raise ValueError(f"law = {law!r}: one of {', '.join(LAWS)} (Restitution: give e itself, see restitution_law_chi)")


def _check(mass: float, v0: float, k: float, b: float):
    for name, value in (("mass", mass), ("v0", v0), ("k", k)):
        if not value > 0:
            raise ValueError(f"{name} = {value}: must be > 0")
    if not b >= 0:
        raise ValueError(f"b = {b}: the damping must be >= 0")


def linear_restitution(mass: float, k: float, b: float) -> float:
    """Closed form of LinearSpringDamper's restitution with the force clipped at 0: the mass leaves
    when k d + b dd reaches 0, at w t = theta = atan2(b w, -(k - b a)), a = b / 2m,
    w = sqrt(k/m - a^2): e = -exp(-a theta / w) (cos theta - (a / w) sin theta)."""
    _check(mass, 1.0, k, b)
    a = b / (2.0 * mass)
    if a * a >= k / mass:
        return 0.0
    w = math.sqrt(k / mass - a * a)
    theta = math.atan2(b * w, -(k - b * a))
    return -math.exp(-a * theta / w) * (math.cos(theta) - a / w * math.sin(theta))


def restitution(law: str, mass: float, v0: float, k: float, b: float, n: float = 1.5, p: float | None = None, q: float = 1.0) -> float:
    """The coefficient of restitution of a mass hitting an immovable body at v0 (m/s) under `law`,
    its force clipped at f_n >= 0 as the FMU clips it, no gravity: the speed it leaves with over v0.
    LinearSpringDamper by its closed form, the others by an RK4 integration of 20,000 steps over
    the impact."""
    _check(mass, v0, k, b)
    if law == "LinearSpringDamper":
        return linear_restitution(mass, k, b)
    p = n if p is None else p
    force, exponent = _law(law, k, b, n, p, q)
    # The undamped peak depth: m v0^2 / 2 = k d^(m+1) / (m+1); the impact lasts a few d / v0.
    depth = ((exponent + 1.0) * mass * v0**2 / (2.0 * k)) ** (1.0 / (exponent + 1.0))
    h = depth / v0 / 4000.0

    def accel(d, dd):
        return -max(0.0, force(max(d, 0.0), dd)) / mass

    d, dd, t = 0.0, v0, 0.0
    while t < 1e4 * depth / v0:
        k1 = (dd, accel(d, dd))
        k2 = (dd + 0.5 * h * k1[1], accel(d + 0.5 * h * k1[0], dd + 0.5 * h * k1[1]))
        k3 = (dd + 0.5 * h * k2[1], accel(d + 0.5 * h * k2[0], dd + 0.5 * h * k2[1]))
        k4 = (dd + h * k3[1], accel(d + h * k3[0], dd + h * k3[1]))
        d_next = d + h / 6.0 * (k1[0] + 2 * k2[0] + 2 * k3[0] + k4[0])
        dd_next = dd + h / 6.0 * (k1[1] + 2 * k2[1] + 2 * k3[1] + k4[1])
        t += h
        if d_next <= 0.0:
            # Back at the surface: the exit speed, interpolated to d = 0.
            return max(0.0, -(dd + (dd_next - dd) * d / (d - d_next))) / v0
        if dd_next < 0.0 and force(d_next, dd_next) <= 0.0:
            # Clipped: no force from here on, the mass leaves with this speed.
            return -dd_next / v0
        d, dd = d_next, dd_next
    return 0.0


def damping_for_restitution(e: float, law: str, mass: float, v0: float, k: float, n: float = 1.5, p: float | None = None, q: float = 1.0) -> float:
    """The `normal.damping` b that gives the coefficient of restitution e (0 < e < 1) for this law,
    mass, impact speed and stiffness (the reverse of `restitution`, by bisection)."""
    if not 0.0 < e < 1.0:
        raise ValueError(f"e = {e}: the coefficient of restitution must be in (0, 1)")
    _check(mass, v0, k, 0.0)
    low, high = 0.0, 1.0
    while restitution(law, mass, v0, k, high, n, p, q) > e:
        low, high = high, high * 10.0
        if high > 1e30:
            raise ValueError(f"e = {e}: no damping below 1e30 gives it")
    for _ in range(50):
        middle = 0.5 * (low + high)
        if restitution(law, mass, v0, k, middle, n, p, q) > e:
            low = middle
        else:
            high = middle
    return 0.5 * (low + high)


def restitution_law_chi(e: float, v0: float, model: str = "HuntCrossley") -> float:
    """The damping factor chi (s/m) the Restitution law takes from e and the approach speed v0
    (`normal.restitution_model`); its force is k d^n (1 + chi dd)."""
    if not 0.0 < e <= 1.0:
        raise ValueError(f"e = {e}: the coefficient of restitution must be in (0, 1]")
    v0 = max(v0, 1e-3)
    if model == "HuntCrossley":
        return 3.0 * (1.0 - e) / (2.0 * v0)
    if model == "LankaraniNikravesh":
        return 3.0 * (1.0 - e * e) / (4.0 * v0)
    if model == "Flores":
        return 8.0 * (1.0 - e) / (5.0 * e * v0)
    raise ValueError(f"model = {model!r}: HuntCrossley, LankaraniNikravesh or Flores")


def natural_frequency(law: str, mass: float, v0: float, k: float, n: float = 1.5) -> float:
    """omega (rad/s) of the contact: sqrt(k/m) for the linear law; for a law k d^n, the slope
    n k d^(n-1) at the undamped peak depth of an impact at v0 over m."""
    _check(mass, v0, k, 0.0)
    if law == "LinearSpringDamper":
        return math.sqrt(k / mass)
    exponent = 1.5 if law == "GroundModel" else n
    depth = ((exponent + 1.0) * mass * v0**2 / (2.0 * k)) ** (1.0 / (exponent + 1.0))
    return math.sqrt(exponent * k * depth ** (exponent - 1.0) / mass)


def step_size(law: str, mass: float, v0: float, k: float, n: float = 1.5, omega_h: float = 0.005) -> float:
    """The communication step h = omega_h / omega (0.005: about 0.5 % on the restitution under the
    Instantaneous coupling; StepAverage allows 1 to 10 ms, docs/src/cosimulation.md)."""
    return omega_h / natural_frequency(law, mass, v0, k, n)


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    commands = parser.add_subparsers(dest="command", required=True)
    hertz = commands.add_parser("hertz", help="Hertz stiffness K (N/m^1.5) of two spheres or a sphere on a plane")
    hertz.add_argument("--material1", choices=sorted(MATERIALS))
    hertz.add_argument("--E1", type=float)
    hertz.add_argument("--nu1", type=float)
    hertz.add_argument("--R1", type=float, required=True)
    hertz.add_argument("--material2", choices=sorted(MATERIALS))
    hertz.add_argument("--E2", type=float)
    hertz.add_argument("--nu2", type=float)
    hertz.add_argument("--R2", type=float, default=math.inf)
    for name in ("damping", "restitution", "step"):
        sub = commands.add_parser(name)
        sub.add_argument("--law", choices=LAWS, required=True)
        sub.add_argument("--mass", type=float, required=True, help="effective mass m1 m2 / (m1 + m2), kg")
        sub.add_argument("--v0", type=float, required=True, help="impact speed, m/s")
        sub.add_argument("--k", type=float, required=True, help="normal.stiffness")
        sub.add_argument("--n", type=float, default=1.5, help="normal.exponent (HuntCrossley)")
        sub.add_argument("--p", type=float, help="normal.damping_exponent (HuntCrossley; default n)")
        sub.add_argument("--q", type=float, default=1.0, help="normal.velocity_exponent (HuntCrossley)")
        if name == "damping":
            sub.add_argument("--e", type=float, required=True, help="coefficient of restitution")
        if name == "restitution":
            sub.add_argument("--b", type=float, required=True, help="normal.damping")
    args = parser.parse_args(argv)
    try:
        if args.command == "hertz":
            E1, nu1 = MATERIALS[args.material1] if args.material1 else (args.E1, args.nu1)
            E2, nu2 = MATERIALS[args.material2] if args.material2 else (args.E2, args.nu2)
            if E1 is None or nu1 is None:
                parser.error("give --material1 or both --E1 and --nu1")
            print(f"normal.stiffness = {hertz_stiffness(E1, nu1, args.R1, E2, nu2, args.R2):.6g} N/m^1.5 with normal.exponent = 1.5")
        elif args.command == "damping":
            b = damping_for_restitution(args.e, args.law, args.mass, args.v0, args.k, args.n, args.p, args.q)
            print(f"normal.damping = {b:.6g} gives e = {args.e} at v0 = {args.v0} m/s")
        elif args.command == "restitution":
            print(f"e = {restitution(args.law, args.mass, args.v0, args.k, args.b, args.n, args.p, args.q):.6g}")
        else:
            omega = natural_frequency(args.law, args.mass, args.v0, args.k, args.n)
            print(f"omega = {omega:.6g} rad/s; communication step h = {step_size(args.law, args.mass, args.v0, args.k, args.n):.3g} s (omega h = 0.005)")
    except ValueError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
