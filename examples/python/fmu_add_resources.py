#!/usr/bin/env python3
"""Puts geometry files into an FMU's resources/ folder, without rebuilding the FMU.

The shapes that read a file name it in `geometry_X.file`, relative to the FMU's resources/ folder
(the importer tells the FMU where that folder is once it has unpacked the FMU): ConvexHull
(vertices), Mesh (OBJ or STL), PointCloud, GridSurface (a height field) and Compound (a list of
parts) of ContactForce, and Curve of PlanarContact. This writes a copy of a packaged FMU with the
files added under resources/ (a file already there under the same name is replaced); the
binaries, the model description and everything else are copied unchanged.

Usage:
    fmu_add_resources.py target/fmu/ContactForce-fmi2.fmu part.stl [more files...] -o part-contact.fmu
    fmu_add_resources.py FMU FILE --name meshes/part.stl -o OUT   # a file under another name
then set geometry_b.shape = Mesh (11) and geometry_b.file = "part.stl" in the new FMU.
Without -o the FMU is rewritten in place.
"""

from __future__ import annotations

import argparse
import os
import pathlib
import sys
import tempfile
import zipfile


def add_resources(fmu: os.PathLike, files: dict[str, bytes], out: os.PathLike | None = None) -> pathlib.Path:
    """Writes the FMU `fmu` with `files` (name in resources/ -> contents) added, to `out` (default:
    `fmu` itself, replaced once the new archive is complete). Returns the path written."""
    fmu = pathlib.Path(fmu)
    out = pathlib.Path(out) if out is not None else fmu
    if not zipfile.is_zipfile(fmu):
        raise ValueError(f"{fmu}: not an FMU (a zip archive)")
    added = {}
    for name, contents in files.items():
        clean = pathlib.PurePosixPath(name.replace("\\", "/"))
        if clean.is_absolute() or ".." in clean.parts or not clean.parts:
            raise ValueError(f"{name}: the name in resources/ must be a relative path without ..")
        added[f"resources/{clean}"] = contents
    with zipfile.ZipFile(fmu) as source:
        if "modelDescription.xml" not in source.namelist():
            raise ValueError(f"{fmu}: not an FMU (no modelDescription.xml)")
        handle, partial = tempfile.mkstemp(suffix=".fmu", dir=out.parent)
        os.close(handle)
        try:
            with zipfile.ZipFile(partial, "w", zipfile.ZIP_DEFLATED) as target:
                for entry in source.infolist():
                    if entry.filename not in added:
                        target.writestr(entry, source.read(entry.filename))
                for name, contents in sorted(added.items()):
                    target.writestr(name, contents)
            os.replace(partial, out)
        finally:
            if os.path.exists(partial):
                os.remove(partial)
    return out


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("fmu", type=pathlib.Path, help="the packaged FMU")
    parser.add_argument("files", type=pathlib.Path, nargs="+", help="files to put into resources/")
    parser.add_argument("--name", action="append", default=[], help="the name in resources/ of each file (default: its file name)")
    parser.add_argument("-o", "--out", type=pathlib.Path, help="the FMU to write (default: the FMU itself)")
    args = parser.parse_args(argv)
    if args.name and len(args.name) != len(args.files):
        parser.error(f"--name given {len(args.name)} times for {len(args.files)} files")
    names = args.name or [f.name for f in args.files]
    try:
        files = {name: path.read_bytes() for name, path in zip(names, args.files)}
        out = add_resources(args.fmu, files, args.out)
    except (OSError, ValueError) as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    for name in names:
        print(f"{out}: resources/{name}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
