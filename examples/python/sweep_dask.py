#!/usr/bin/env python3
"""A parameter sweep of the sphere drop (scenario 1) on dask.distributed: contact stiffness x
friction coefficient, one FMPy `simulate_ssp` run of target/ssp/sphere_drop.ssp per grid point.

The sphere is thrown sideways (`--sideways`, 1 m/s along x by default) so that friction matters:
during the first impact friction slows the sliding contact point and spins the sphere up. Below a
critical coefficient (about (2/7) v_x / ((1 + e) v_z) for a solid sphere, 0.05 here) it leaves the
ground still skidding; above it, it leaves rolling at about 5/7 of its sideways speed whatever mu
is (a little less on a soft contact, where it rolls on a radius shortened by the penetration).
The stiffness sets the contact's duration and damping ratio b / (2 sqrt(k m)), hence the bounce.
Quantities per grid point: the first bounce's apex height of the centre, the horizontal speed of
the centre right after the first impact, and the peak contact force on the sphere (|f_0|).

Friction: `--friction-law` (Tanh by default, an item of ContactForce's friction.law; `keep` keeps
the scenario's) with friction.mu_static = friction.mu_dynamic = mu. FMPy runs at the SSD's step /
`--step-divisor` (3 by default: FMPy's force delay then equals the Rust master's at the full step;
see tests/python/test_ssp.py).

Cluster: by default a LocalCluster with one single-threaded worker process per core. To use a real
cluster, give its scheduler's address; nothing else changes:

    sweep_dask.py --scheduler tcp://scheduler-host:8786

The SSP travels to the workers as bytes (scattered once) and ssp_fmpy.py as an uploaded module, so
the workers need no shared file system, only the Python packages of tests/python/requirements.txt
(FMPy, NumPy, lxml) on Linux x86-64, like the FMUs.

Writes <out>/sweep_<name>.csv and <out>/sweep_<name>.png (heat maps).
"""

from __future__ import annotations

import argparse
import csv
import io
import math
import os
import pathlib
import sys
import time as clock
import zipfile

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
import ssp_fmpy  # noqa: E402

QUANTITIES = {
    "bounce_height": "apex of the first bounce [m]",
    "speed_after_bounce": "horizontal speed after the first impact [m/s]",
    "peak_contact_force": "peak contact force [N]",
}


def components(ssp: pathlib.Path) -> tuple[str, str, bytes]:
    """The RigidBody and ContactForce instances of the SSP, and the ContactForce FMU's bytes."""
    from fmpy.ssp.ssd import find_components, read_ssd

    found = {"RigidBody": [], "ContactForce": []}
    for component in find_components(read_ssd(str(ssp)).system):
        for model in found:
            if pathlib.PurePosixPath(component.source).name.startswith(model):
                found[model].append(component)
    for model, instances in found.items():
        if len(instances) != 1:
            raise SystemExit(f"{ssp}: the sweep needs one {model} instance, found {[c.name for c in instances]}")
    body, contact = found["RigidBody"][0], found["ContactForce"][0]
    with zipfile.ZipFile(ssp) as archive:
        return body.name, contact.name, archive.read(contact.source)


def enumeration_item(fmu: bytes, variable: str, item: str) -> int:
    """The number of enumeration `item` of `variable` in an FMU's model description."""
    from lxml import etree

    with zipfile.ZipFile(io.BytesIO(fmu)) as archive:
        root = etree.fromstring(archive.read("modelDescription.xml"))
    # FMI 2: an Integer whose declared type's items are in the VendorAnnotations of the tool
    # fmi_export (libcosim ignores FMI 2 Enumeration variables; ARCHITECTURE.md, Decisions); an
    # FMI 2 Enumeration of another FMU has them in its SimpleType.
    declared = root.find(f".//ScalarVariable[@name='{variable}']/*").get("declaredType")
    items = root.findall(f".//VendorAnnotations/Tool[@name='fmi_export']/Enumerations/EnumerationType[@name='{declared}']/Item")
    items = items or root.findall(f".//TypeDefinitions/SimpleType[@name='{declared}']/Enumeration/Item")
    names = {i.get("name"): int(i.get("value")) for i in items}
    if item not in names:
        raise SystemExit(f"{variable}: {item!r} is not an item of {declared} ({', '.join(names)})")
    return names[item]


def quantities(result, body: str) -> dict[str, float]:
    """The sweep's quantities from one run (see the module docstring); NaN where undefined."""
    import numpy as np

    force = np.sqrt(sum(result[f"{body}.f_0[{i}]"] ** 2 for i in (1, 2, 3)))
    z, vx, vy = result[f"{body}.r_0[3]"], result[f"{body}.v_0[1]"], result[f"{body}.v_0[2]"]
    touching = force > 0
    out = {name: math.nan for name in QUANTITIES}
    if not touching.any():
        return out
    start = int(np.argmax(touching))
    out["peak_contact_force"] = float(force[start:].max())
    released = np.flatnonzero(~touching[start:])
    if len(released) == 0:
        return out  # still touching at the stop time
    end = start + int(released[0])
    out["speed_after_bounce"] = float(math.hypot(vx[end], vy[end]))
    again = np.flatnonzero(touching[end:])
    flight = z[end:end + int(again[0])] if len(again) else z[end:]
    apex = int(np.argmax(flight))
    if 0 < apex < len(flight) - 1:  # the apex was reached in flight
        out["bounce_height"] = float(flight[apex])
    return out


def run_point(ssp_bytes: bytes, overrides: dict, body: str, stop_time, step: float) -> dict[str, float]:
    """One grid point, on a worker: the SSP into a temporary file, FMPy, the quantities."""
    import tempfile

    import ssp_fmpy as worker_ssp_fmpy  # the module uploaded to the workers

    started = clock.perf_counter()
    with tempfile.TemporaryDirectory() as folder:
        path = pathlib.Path(folder) / "system.ssp"
        path.write_bytes(ssp_bytes)
        result = worker_ssp_fmpy.simulate(path, parameters=overrides, stop_time=stop_time, step=step)
    return quantities(result, body) | {"wall_time": clock.perf_counter() - started}


def heat_maps(rows: list[dict], stiffnesses, mus, title: str, path: pathlib.Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    import numpy as np

    shown = ["bounce_height", "speed_after_bounce"]
    fig, axes = plt.subplots(1, len(shown), figsize=(5.2 * len(shown), 4.2))
    for ax, quantity in zip(axes, shown):
        grid = np.array([[next(r[quantity] for r in rows if r["stiffness"] == k and r["mu"] == mu) for mu in mus] for k in stiffnesses])
        image = ax.imshow(grid, origin="lower", aspect="auto", cmap="viridis")
        ax.set_xticks(range(len(mus)), [f"{mu:g}" for mu in mus])
        ax.set_yticks(range(len(stiffnesses)), [f"{k:g}" for k in stiffnesses])
        ax.set_xlabel("friction coefficient mu")
        ax.set_ylabel("normal.stiffness [N/m]")
        ax.set_title(QUANTITIES[quantity], fontsize=9)
        for (i, j), value in np.ndenumerate(grid):
            ax.text(j, i, f"{value:.3g}", ha="center", va="center", color="white", fontsize=8)
        fig.colorbar(image, ax=ax)
    fig.suptitle(title, fontsize=10)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


def main(argv: list[str] | None = None) -> int:
    repo = pathlib.Path(__file__).resolve().parents[2]
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--ssp", type=pathlib.Path, default=repo / "target" / "ssp" / "sphere_drop.ssp")
    parser.add_argument("--stiffness", type=float, nargs="+", default=[3e4, 1e5, 3e5], help="normal.stiffness values [N/m]")
    parser.add_argument("--mu", type=float, nargs="+", default=[0.02, 0.05, 0.2], help="friction coefficients")
    parser.add_argument("--sideways", type=float, default=1.0, help="initial sideways speed v_0_start[1] [m/s] (default 1)")
    parser.add_argument("--friction-law", default="Tanh", help="friction.law item, or `keep` (default Tanh)")
    parser.add_argument("--step-divisor", type=int, default=3, help="FMPy step = SSD step / N (default 3)")
    parser.add_argument("--stop-time", type=float, help="instead of the SSD's stop time")
    parser.add_argument("--scheduler", help="a running dask scheduler, e.g. tcp://host:8786 (default: a LocalCluster)")
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1, help="LocalCluster worker processes (default: cores)")
    parser.add_argument("--out", type=pathlib.Path, default=pathlib.Path("results"))
    args = parser.parse_args(argv)

    if not args.ssp.is_file():
        raise SystemExit(f"{args.ssp} does not exist: run `cargo xtask ssp` first")
    body, contact, contact_fmu = components(args.ssp)
    common = {f"{body}.v_0_start[1]": args.sideways}
    if args.friction_law != "keep":
        common[f"{contact}.friction.law"] = enumeration_item(contact_fmu, "friction.law", args.friction_law)
    step = ssp_fmpy.read_experiment(args.ssp).step / args.step_divisor
    grid = [(k, mu) for k in args.stiffness for mu in args.mu]

    from dask.distributed import Client, LocalCluster, as_completed

    started = clock.perf_counter()
    if args.scheduler:
        client, cluster = Client(args.scheduler), None
    else:
        cluster = LocalCluster(n_workers=args.workers, threads_per_worker=1, processes=True, dashboard_address=None)
        client = Client(cluster)
    try:
        client.upload_file(ssp_fmpy.__file__)
        ssp_bytes = client.scatter(args.ssp.read_bytes(), broadcast=True)
        futures = {}
        for k, mu in grid:
            overrides = common | {
                f"{contact}.normal.stiffness": k,
                f"{contact}.friction.mu_static": mu,
                f"{contact}.friction.mu_dynamic": mu,
            }
            futures[client.submit(run_point, ssp_bytes, overrides, body, args.stop_time, step, pure=False)] = (k, mu)
        rows = []
        for future in as_completed(futures):
            k, mu = futures[future]
            row = {"stiffness": k, "mu": mu} | future.result()
            rows.append(row)
            print(f"k = {k:g} N/m, mu = {mu:g}: bounce {row['bounce_height']:.4f} m, "
                  f"speed after {row['speed_after_bounce']:.4f} m/s, peak {row['peak_contact_force']:.1f} N "
                  f"({row['wall_time']:.1f} s)", flush=True)
    finally:
        client.close()
        if cluster is not None:
            cluster.close()
    rows.sort(key=lambda r: (r["stiffness"], r["mu"]))
    wall = clock.perf_counter() - started

    name = args.ssp.stem
    args.out.mkdir(parents=True, exist_ok=True)
    csv_path, png_path = args.out / f"sweep_{name}.csv", args.out / f"sweep_{name}.png"
    with open(csv_path, "w", newline="") as file:
        writer = csv.DictWriter(file, fieldnames=list(rows[0]))
        writer.writeheader()
        writer.writerows(rows)
    where = args.scheduler or f"a LocalCluster of {args.workers} worker(s)"
    heat_maps(rows, args.stiffness, args.mu, f"{name}: thrown at {args.sideways:g} m/s, FMPy step {step:g} s", png_path)
    print(f"{len(rows)} runs on {where} in {wall:.1f} s; wrote {csv_path} and {png_path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
