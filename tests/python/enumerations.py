"""Enumeration items by name, from an FMU's model description.

FMI 3: the EnumerationTypes of TypeDefinitions. FMI 2: the FMUs declare their enumerations as
Integer variables (libcosim ignores FMI 2 Enumeration variables; ARCHITECTURE.md, Decisions), whose
declared types' items are in the VendorAnnotations of the tool `fmi_export`, in FMI 3's form:
<Tool name="fmi_export"><Enumerations><EnumerationType name=...><Item name value/>.
"""

from __future__ import annotations

import pathlib
import zipfile
import xml.etree.ElementTree as ET


def model_description_root(fmu: pathlib.Path) -> ET.Element:
    with zipfile.ZipFile(fmu) as archive:
        return ET.fromstring(archive.read("modelDescription.xml"))


def enumeration_types(fmu: pathlib.Path) -> dict[str, dict[str, int]]:
    """Type name -> item name -> value, for either FMI version."""
    root = model_description_root(fmu)
    if root.get("fmiVersion", "").startswith("3"):
        types = root.findall("./TypeDefinitions/EnumerationType")
    else:
        types = root.findall("./VendorAnnotations/Tool[@name='fmi_export']/Enumerations/EnumerationType")
    return {t.get("name"): {i.get("name"): int(i.get("value")) for i in t.findall("Item")} for t in types}


def enumeration_variables(fmu: pathlib.Path) -> dict[str, dict[str, int]]:
    """Variable name -> item name -> value, for every variable whose declared type is an
    enumeration (an FMI 2 Integer or an FMI 3 Enumeration)."""
    root = model_description_root(fmu)
    types = enumeration_types(fmu)
    found = {}
    for variable in root.iter():
        if variable.tag in ("ScalarVariable", "Enumeration") and variable.get("name") is not None:
            typed = variable if variable.tag == "Enumeration" else next(iter(variable), None)
            declared = typed.get("declaredType") if typed is not None else None
            if declared in types:
                found[variable.get("name")] = types[declared]
    return found
