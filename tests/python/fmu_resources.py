"""Copies of the packaged FMUs with extra files in their resources/ folder.

Why: geometry files (point clouds, height fields, meshes) ship inside the FMU, in resources/, and
`geometry_X.file` names them relative to that folder; the importer tells the FMU where the folder
is (FMI 2: a file: URI, FMI 3: a native path). Testing that path end to end needs an FMU that
really carries the files, built the way a user would: the packaged FMU with files added to its zip.
"""

from __future__ import annotations

import pathlib
import zipfile


def fmu_with_resources(fmu_path, files: dict[str, bytes], out_path) -> pathlib.Path:
    """Writes a copy of the FMU at `fmu_path` to `out_path` with `files` (name -> content) added
    under resources/; an entry of the same name is replaced. Returns `out_path`."""
    out_path = pathlib.Path(out_path)
    added = {f"resources/{name}": content for name, content in files.items()}
    with zipfile.ZipFile(fmu_path) as source, zipfile.ZipFile(out_path, "w", zipfile.ZIP_DEFLATED) as target:
        for entry in source.infolist():
            if entry.filename not in added:
                target.writestr(entry, source.read(entry.filename))
        for name, content in sorted(added.items()):
            target.writestr(name, content)
    return out_path
