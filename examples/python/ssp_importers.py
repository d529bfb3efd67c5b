"""Run the SSP archives of `cargo xtask ssp` in OMSimulator 3, Ecos and libcosim, and check each scenario's
figures as cosim checks them (`[[checks]]` of scenarios/<name>.toml, cosim/src/recording.rs).

`cargo xtask importers` runs it with a Python that has ecospy, libcosimpy and OMSimulator 3's Python
package (built from its sources under target/tools); by hand:

    python examples/python/ssp_importers.py target/ssp/*.ssp --engine ecos --markdown table.md

Each run is a child process (`--one ENGINE SSP CSV`), so that an engine that aborts or hangs costs
that run only. How each engine is driven, the way a user would:

- OMSimulator 3 (`from OMSimulator import SSP`): `SSP(path).instantiate()`, which applies the
  SSD's parameter bindings, then `setFixedStepSize(step)` (its SSD import reads no step for a
  weakly coupled system: without it the system runs at its default 1 ms), `setResultFile`,
  `initialize`, `simulate`. The result file holds only the checks' quantities.
- Ecos (`ecospy.EcosSimulation(ssp_path=..., step_size=step)`): the step is the constructor's
  argument, the parameters the set named `initialValues` (`init(parameter_set=...)`: Ecos applies
  one set by name, gathered from every component), the results a CSV writer of the quantities.
- libcosim (`libcosimpy.CosimExecution.from_ssp_file(path)`): the step from the SSD's
  `osp:FixedStepAlgorithm`, the parameters from its bindings; the quantities read from a
  last-value observer after every step.

The step is the one the SSD states (`oms:FixedStepMaster stepSize`; libcosim reads its own
annotation of the same step), the stop time its `ssd:DefaultExperiment`.
"""

from __future__ import annotations

import argparse
import csv
import dataclasses
import json
import math
import os
import pathlib
import re
import subprocess
import sys
import tempfile
import time
import tomllib
import xml.etree.ElementTree as ET
import zipfile

import numpy as np

OMS_NAMESPACE = "https://raw.githubusercontent.com/OpenModelica/OMSimulator/master/schema/oms.xsd"
SSD_NAMESPACE = "http://ssp-standard.org/SSP1/SystemStructureDescription"
SSV_NAMESPACE = "http://ssp-standard.org/SSP1/SystemStructureParameterValues"
ENGINES = ("omsimulator", "ecos", "libcosim")
ROOT = pathlib.Path(__file__).resolve().parents[2]


@dataclasses.dataclass(frozen=True)
class Experiment:
    name: str
    start_time: float
    stop_time: float
    step: float
    parameter_set: str

    @property
    def steps(self) -> int:
        return int(round((self.stop_time - self.start_time) / self.step))


def read_experiment(ssp: pathlib.Path) -> Experiment:
    """The system's name, start and stop time, step and parameter set name, from the SSD."""
    with zipfile.ZipFile(ssp) as archive:
        root = ET.fromstring(archive.read("SystemStructure.ssd"))
    experiment = root.find(f"{{{SSD_NAMESPACE}}}DefaultExperiment")
    master = root.find(f".//{{{OMS_NAMESPACE}}}FixedStepMaster")
    if experiment is None or master is None:
        raise ValueError(f"{ssp}: no ssd:DefaultExperiment or oms:FixedStepMaster (not made by `cargo xtask ssp`?)")
    names = {s.get("name") for s in root.iter(f"{{{SSV_NAMESPACE}}}ParameterSet")}
    if len(names) > 1:
        raise ValueError(f"{ssp}: parameter sets of several names {sorted(names)}; Ecos applies one")
    return Experiment(
        name=root.get("name"),
        start_time=float(experiment.get("startTime", "0")),
        stop_time=float(experiment.get("stopTime")),
        step=float(master.get("stepSize")),
        parameter_set=names.pop() if names else "",
    )


def scenario_file(name: str, folder: pathlib.Path) -> pathlib.Path:
    """The scenario TOML whose `name` is `name`."""
    for path in sorted(folder.glob("*.toml")):
        with open(path, "rb") as f:
            if tomllib.load(f).get("name") == name:
                return path
    raise ValueError(f"no scenario named {name!r} in {folder}")


def quantities(checks: list[dict]) -> list[str]:
    return sorted({check["quantity"] for check in checks})


# ---------------------------------------------------------------------------------------------
# One run in a child process: the quantities at every step, as CSV (time, then the quantities)

def run_omsimulator(ssp: pathlib.Path, experiment: Experiment, names: list[str], out: pathlib.Path) -> None:
    from OMSimulator import SSP

    here = os.getcwd()
    with tempfile.TemporaryDirectory(prefix="ssp_oms_") as work:
        os.chdir(work)
        model = SSP(str(ssp)).instantiate()
        model.setFixedStepSize(experiment.step)
        model.setStopTime(experiment.stop_time)
        result = pathlib.Path(work, "result.csv")
        model.setResultFile(str(result))
        model.removeSignalsFromResults(".*")
        for name in names:
            model.addSignalsToResults(".*" + re.escape("." + name) + "$")
        model.initialize()
        model.simulate()
        model.terminate()
        model.delete()
        rows = read_csv(result)
        os.chdir(here)
    columns = {"time": rows.pop("time")}
    for name in names:
        found = [key for key in rows if key == name or key.endswith("." + name)]
        if len(found) != 1:
            raise ValueError(f"OMSimulator's result has {len(found)} columns for {name}: {sorted(rows)[:20]}")
        columns[name] = rows[found[0]]
    write_columns(out, columns)


def run_ecos(ssp: pathlib.Path, experiment: Experiment, names: list[str], out: pathlib.Path) -> None:
    from ecospy import EcosLib, EcosSimulation

    EcosLib.set_log_level("warn")
    identifiers = [name.replace(".", "::", 1) for name in names]
    with tempfile.TemporaryDirectory(prefix="ssp_ecos_") as work:
        result = pathlib.Path(work, "result.csv")
        with EcosSimulation(ssp_path=str(ssp), step_size=experiment.step) as sim:
            sim.add_csv_writer(str(result), identifiers=identifiers)
            if not sim.init(experiment.start_time, experiment.parameter_set or None):
                raise RuntimeError(f"Ecos did not initialise: {EcosLib.get_last_error()}")
            sim.step(experiment.steps)
            sim.terminate()
        rows = read_csv(result)
    # Ecos's CSV names a column `instance::variable[TYPE]` (`ball::v_0[3][REAL]`).
    rows = {re.sub(r"\[(REAL|INT|INTEGER|BOOL|BOOLEAN|STRING)\]$", "", key): value for key, value in rows.items()}
    time_key = next(key for key in rows if key.lower().startswith("time"))
    columns = {"time": rows.pop(time_key)}
    for name, identifier in zip(names, identifiers):
        if identifier not in rows:
            raise ValueError(f"Ecos's result has no column {identifier}: {sorted(rows)}")
        columns[name] = rows[identifier]
    write_columns(out, columns)


def run_libcosim(ssp: pathlib.Path, experiment: Experiment, names: list[str], out: pathlib.Path) -> None:
    from libcosimpy.CosimExecution import CosimExecution
    from libcosimpy.CosimLogging import CosimLogLevel, log_output_level
    from libcosimpy.CosimObserver import CosimObserver

    log_output_level(CosimLogLevel.ERROR)
    if experiment.start_time != 0.0:
        raise ValueError("libcosim's executions start at 0 here")
    # libcosim takes the step from the SSD (osp:FixedStepAlgorithm) and the parameter bindings.
    execution = CosimExecution.from_ssp_file(str(ssp))
    observer = CosimObserver.create_last_value()
    execution.add_observer(observer=observer)
    slaves = {info.name.decode(): info.index for info in execution.slave_infos()}
    readers = {0: observer.last_real_values, 1: observer.last_integer_values, 3: observer.last_boolean_values}
    where = []
    for name in names:
        instance, variable = name.split(".", 1)
        found = [v for v in execution.slave_variables(slaves[instance]) if v.name.decode() == variable]
        if len(found) != 1 or found[0].type not in readers:
            raise ValueError(f"libcosim has no readable variable {name}")
        where.append((slaves[instance], found[0].reference, readers[found[0].type]))
    rows = []
    for k in range(1, experiment.steps + 1):
        if not execution.step(1):
            raise RuntimeError(f"libcosim failed at step {k}")
        rows.append([k * experiment.step] + [float(read(slave, [reference])[0]) for slave, reference, read in where])
    array = np.array(rows)
    write_columns(out, {"time": array[:, 0]} | {name: array[:, i + 1] for i, name in enumerate(names)})


def read_csv(path: pathlib.Path) -> dict[str, np.ndarray]:
    def number(text: str) -> float:
        text = text.strip().strip('"')
        return {"true": 1.0, "false": 0.0}.get(text.lower(), float(text) if text else math.nan)

    with open(path, newline="") as f:
        reader = csv.reader(f)
        header = [h.strip().strip('"') for h in next(reader)]
        data = [[number(x) for x in row] for row in reader if row]
    array = np.array(data, dtype=float).reshape(-1, len(header))
    return {name: array[:, i] for i, name in enumerate(header)}


def write_columns(path: pathlib.Path, columns: dict[str, np.ndarray]) -> None:
    names = list(columns)
    np.savetxt(path, np.column_stack([columns[n] for n in names]), delimiter=",", header=",".join(names), comments="", fmt="%.17g")


# ---------------------------------------------------------------------------------------------
# The checks, as cosim evaluates them (cosim/src/recording.rs, `evaluate`)

def statistic(check: dict, t: np.ndarray, values: np.ndarray) -> float:
    kind = check.get("statistic", "final")
    if kind == "at":
        return float(np.interp(check["time"], t, values))
    if "window" in check:
        keep = (t >= check["window"][0]) & (t <= check["window"][1])
        t, values = t[keep], values[keep]
    if len(values) == 0:
        return math.nan
    match kind:
        case "final":
            return float(values[-1])
        case "initial":
            return float(values[0])
        case "min":
            return float(values.min())
        case "max":
            return float(values.max())
        case "max_abs":
            return float(np.abs(values).max())
        case "mean":
            return float(values.mean())
        case "range":
            return float(values.max() - values.min())
        case "slope":
            return float(np.polyfit(t, values, 1)[0]) if len(values) >= 2 else math.nan
        case "rising_edges":
            level = check.get("threshold", 0.0)
            return float(np.count_nonzero((values[:-1] <= level) & (values[1:] > level)))
    raise ValueError(f"unknown statistic {kind}")


def evaluate(check: dict, columns: dict[str, np.ndarray]) -> dict:
    obtained = statistic(check, columns["time"], columns[check["quantity"]]) * check.get("scale", 1.0)
    if "expected" in check:
        expected = check["expected"]
        allowed = check.get("tolerance", 0.0) + check.get("relative_tolerance", 0.0) * abs(expected)
        passed = abs(obtained - expected) <= allowed
        wanted = f"{expected:.6g} ± {allowed:.3g}"
    else:
        low, high = check.get("at_least", -math.inf), check.get("at_most", math.inf)
        passed = low <= obtained <= high
        wanted = f"[{low:.6g}, {high:.6g}]"
    return {"name": check.get("name", check["quantity"]), "obtained": obtained, "wanted": wanted, "passed": bool(passed)}


# ---------------------------------------------------------------------------------------------

def run_one(engine: str, ssp: pathlib.Path, scenarios: pathlib.Path, timeout: float) -> dict:
    experiment = read_experiment(ssp)
    with open(scenario_file(experiment.name, scenarios), "rb") as f:
        checks = tomllib.load(f).get("checks", [])
    row = {"engine": engine, "scenario": experiment.name, "step": experiment.step, "checks": [], "error": ""}
    with tempfile.TemporaryDirectory(prefix="ssp_run_") as work:
        out = pathlib.Path(work, "columns.csv")
        started = time.monotonic()
        # OMSimulator and Ecos make temporary folders they do not all remove: the child's go here.
        env = dict(os.environ, TMPDIR=work)
        try:
            child = subprocess.run(
                [sys.executable, __file__, "--one", engine, str(ssp), str(out), "--scenarios", str(scenarios)],
                capture_output=True, text=True, timeout=timeout, env=env,
            )
        except subprocess.TimeoutExpired:
            row["error"] = f"no result within {timeout:.0f} s"
            return row
        row["seconds"] = round(time.monotonic() - started, 1)
        if child.returncode != 0 or not out.exists():
            tail = (child.stderr or child.stdout).strip().splitlines()[-1:]
            row["error"] = f"exit {child.returncode}: " + " ".join(tail)
            return row
        columns = read_csv(out)
    row["samples"] = len(columns["time"])
    row["checks"] = [evaluate(check, columns) for check in checks]
    return row


def markdown(rows: list[dict]) -> str:
    def cell(text: str) -> str:
        return str(text).replace("|", "\\|")

    lines = ["| engine | scenario | step [s] | check | obtained | wanted | holds |", "| --- | --- | --- | --- | --- | --- | --- |"]
    for row in rows:
        if row["error"]:
            lines.append(f"| {row['engine']} | {row['scenario']} | {row['step']:g} | (no run) | {cell(row['error'])} | | no |")
        for check in row["checks"]:
            lines.append(
                f"| {row['engine']} | {row['scenario']} | {row['step']:g} | {cell(check['name'])} | {check['obtained']:.6g} | {check['wanted']} | {'yes' if check['passed'] else '**no**'} |"
            )
    return "\n".join(lines) + "\n"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("ssp", nargs="*", type=pathlib.Path)
    parser.add_argument("--engine", action="append", choices=ENGINES, help="default: every engine")
    parser.add_argument("--scenarios", type=pathlib.Path, default=ROOT / "scenarios")
    parser.add_argument("--timeout", type=float, default=600.0, help="seconds per run")
    parser.add_argument("--json", type=pathlib.Path, help="write the rows as JSON")
    parser.add_argument("--markdown", type=pathlib.Path, help="write the table as Markdown")
    parser.add_argument("--one", nargs=3, metavar=("ENGINE", "SSP", "CSV"), help=argparse.SUPPRESS)
    args = parser.parse_args()

    if args.one:
        engine, ssp, out = args.one
        ssp = pathlib.Path(ssp).resolve()
        experiment = read_experiment(ssp)
        with open(scenario_file(experiment.name, args.scenarios), "rb") as f:
            names = quantities(tomllib.load(f).get("checks", []))
        {"omsimulator": run_omsimulator, "ecos": run_ecos, "libcosim": run_libcosim}[engine](ssp, experiment, names, pathlib.Path(out).resolve())
        return 0

    rows = []
    for ssp in args.ssp:
        for engine in args.engine or ENGINES:
            row = run_one(engine, ssp.resolve(), args.scenarios.resolve(), args.timeout)
            rows.append(row)
            verdict = row["error"] or ", ".join(f"{c['name']}: {c['obtained']:.6g} {'ok' if c['passed'] else 'FAILS'}" for c in row["checks"])
            print(f"{engine:12} {row['scenario']:28} h = {row['step']:g}: {verdict}", flush=True)
    table = markdown(rows)
    print(table)
    if args.json:
        args.json.write_text(json.dumps(rows, indent=1))
    if args.markdown:
        args.markdown.write_text(table)
    failed = [r for r in rows if r["error"] or not r["checks"] or not all(c["passed"] for c in r["checks"])]
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
