#!/usr/bin/env python3
"""Run one of the scenarios' SSP systems (`cargo xtask ssp` -> target/ssp/<name>.ssp) with FMPy's
`simulate_ssp` and plot chosen variables against time.

The run goes through ssp_fmpy.simulate (next to this file), which adds what FMPy 0.3.32's SSP
master lacks for these systems (the SSD's parameter bindings, its experiment and step, an initial
exchange); see its docstring. FMPy couples the FMUs with a Jacobi scheme that delays the contact
force one step more than the Rust master (cosim); `--step-divisor 3` runs FMPy at a third of the
scenario's step, where its force delay equals cosim's at the full step (tests/python/test_ssp.py).

Usage:
    run_ssp.py target/ssp/sphere_drop.ssp [--plot ball.r_0[3] contact.contact.normal_force ...]
               [--out results] [--stop-time T] [--step-divisor N] [--set NAME=VALUE ...]

`--plot` takes connector names (`instance.variable`) or array names (`ball.r_0` for r_0[1..3]);
without it, every output connector is plotted, one panel per array. Writes <out>/<name>_fmpy.csv
(every connector) and <out>/<name>_fmpy.png.
"""

from __future__ import annotations

import argparse
import csv
import pathlib
import re
import sys
import time as clock

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
import ssp_fmpy  # noqa: E402


def parse_value(text: str):
    """A --set value: a number if it reads as one, else the text (true/false, a file name)."""
    try:
        return float(text)
    except ValueError:
        return text


def output_groups(ssp: pathlib.Path) -> dict[str, list[str]]:
    """Every output connector, grouped by array: `ball.r_0` -> [ball.r_0[1], ...]."""
    from fmpy.ssp.ssd import find_components, read_ssd

    groups: dict[str, list[str]] = {}
    for component in find_components(read_ssd(str(ssp)).system):
        for connector in component.connectors:
            if connector.kind == "output":
                name = f"{component.name}.{connector.name}"
                groups.setdefault(re.sub(r"\[\d+\]$", "", name), []).append(name)
    return groups


def select(names: list[str], columns: tuple[str, ...]) -> dict[str, list[str]]:
    """--plot names to panels: a column itself, or the elements name[1], name[2], ..."""
    panels = {}
    for name in names:
        if name in columns:
            panels[name] = [name]
        else:
            elements = [c for c in columns if re.fullmatch(re.escape(name) + r"\[\d+\]", c)]
            if not elements:
                raise SystemExit(f"--plot {name}: no such connector or array; the result has {', '.join(columns[1:])}")
            panels[name] = elements
    return panels


def plot(result, panels: dict[str, list[str]], title: str, path: pathlib.Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(len(panels), 1, figsize=(8, 2.2 * len(panels) + 0.6), sharex=True, squeeze=False)
    for ax, (panel, names) in zip(axes[:, 0], panels.items()):
        for name in names:
            ax.plot(result["time"], result[name], label=name[len(panel):] or name, linewidth=1)
        ax.set_ylabel(panel, fontsize=8)
        ax.grid(True, linewidth=0.3)
        if len(names) > 1:
            ax.legend(fontsize=7, loc="upper right")
    axes[-1, 0].set_xlabel("time [s]")
    fig.suptitle(title, fontsize=10)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("ssp", type=pathlib.Path, help="an SSP made by `cargo xtask ssp` (target/ssp/<name>.ssp)")
    parser.add_argument("--plot", nargs="+", metavar="NAME", help="connectors or arrays to plot (default: every output)")
    parser.add_argument("--out", type=pathlib.Path, default=pathlib.Path("results"), help="output folder (default results)")
    parser.add_argument("--stop-time", type=float, help="instead of the SSD's stop time")
    parser.add_argument("--step-divisor", type=int, default=1, help="run at the SSD's step / N (default 1)")
    parser.add_argument("--set", action="append", default=[], metavar="NAME=VALUE",
                        help="override a parameter binding, e.g. contact.normal.stiffness=2e5 (repeatable)")
    args = parser.parse_args(argv)

    if not args.ssp.is_file():
        raise SystemExit(f"{args.ssp} does not exist: run `cargo xtask ssp` first")
    overrides = {}
    for item in args.set:
        name, sep, value = item.partition("=")
        if not sep:
            raise SystemExit(f"--set {item}: expected NAME=VALUE")
        overrides[name.strip()] = parse_value(value.strip())

    experiment = ssp_fmpy.read_experiment(args.ssp)
    step = experiment.step / args.step_divisor
    started = clock.perf_counter()
    result = ssp_fmpy.simulate(args.ssp, parameters=overrides, stop_time=args.stop_time, step=step)
    wall = clock.perf_counter() - started
    name = args.ssp.stem
    print(f"{name}: {len(result)} steps of {step:g} s to t = {result['time'][-1]:g} s in {wall:.2f} s (FMPy simulate_ssp)")

    args.out.mkdir(parents=True, exist_ok=True)
    csv_path = args.out / f"{name}_fmpy.csv"
    with open(csv_path, "w", newline="") as file:
        writer = csv.writer(file)
        writer.writerow(result.dtype.names)
        for row in result:
            writer.writerow([repr(float(v)) for v in row])
    panels = select(args.plot, result.dtype.names) if args.plot else output_groups(args.ssp)
    png_path = args.out / f"{name}_fmpy.png"
    plot(result, panels, f"{name} (FMPy simulate_ssp, step {step:g} s)", png_path)
    print(f"wrote {csv_path} and {png_path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
