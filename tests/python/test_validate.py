"""The FMUs as an importer sees them: valid archives and the interface of shared/spec/interface.md.

Why: users and other tools rely on the names, causalities and units of interface.md; FMPy's own
validation (XML schema, variable names, ModelStructure, units) is what many importers run first.
"""

from __future__ import annotations

import zipfile

import fmpy
import pytest
from fmpy.validation import validate_fmu

import reference as ref
from conftest import provided_fmu_path_for
from enumerations import enumeration_variables

FLOAT_TYPES = {"Real", "Float64"}

# interface.md, Outputs table: name -> (size, value type family).
OUTPUTS = {
    "frame_a.f_0": (3, "float"),
    "frame_a.t_0": (3, "float"),
    "frame_b.f_0": (3, "float"),
    "frame_b.t_0": (3, "float"),
    "contact.active": (1, "bool"),
    "contact.points": (1, "int"),
    "contact.separation": (1, "float"),
    "contact.normal_force": (1, "float"),
    "contact.friction_force": (1, "float"),
    "contact.p_0": (3, "float"),
    "contact.n_0": (3, "float"),
    "contact.slip_speed": (1, "float"),
    "contact.sticking": (1, "bool"),
}

# interface.md, Parameters section (scalars; arrays are checked through their first element).
PARAMETERS = [
    *(f"geometry_{x}.{p}" for x in "ab" for p in ("shape", "radius", "length", "size[1]", "file", "r[1]", "q[1]", "inside")),
    "normal.law", "normal.stiffness", "normal.damping", "normal.exponent", "normal.damping_exponent",
    "normal.velocity_exponent", "normal.transition_width", "normal.full_damping_depth", "normal.restitution",
    "normal.restitution_model", "normal.max_depth",
    "friction.law", "friction.mu_static", "friction.mu_dynamic", "friction.v_stiction", "friction.v_transition",
    "friction.viscous", "friction.tanh_gain", "friction.stiffness", "friction.damping", "friction.max_deformation",
    "friction.torque_radius", "friction.rolling", "material.pair", "solver.max_step",
]  # fmt: skip

# physics.md: the enumeration items, in the order of their stable numbers.
ENUMERATIONS = {
    "normal.law": ["LinearSpringDamper", "LimitedDamper", "HuntCrossley", "SmoothSpringDamper", "Impact", "GroundModel", "Restitution", "ProvidedByInput"],
    "friction.law": ["None", "SmoothStickSlip", "AdamsCoulomb", "Tanh", "Stribeck", "ElasticCone", "Stiction", "ProvidedByInput"],
}


def variable_unit(v):
    """The unit of a variable, declared on it or on its type."""
    if v.unit:
        return v.unit
    return v.declaredType.unit if v.declaredType is not None else None


def test_validate_fmu_reports_no_problem(fmu_path):
    problems = validate_fmu(str(fmu_path))
    assert problems == [], "\n".join(problems)


# interface.md, Artifacts: every platform's binary under its FMI version's folder name (FMI 2's
# darwin64 is one universal x86-64 + arm64 file; FMI 2 names no aarch64 Linux folder).
BINARIES = {
    "fmi2": ["linux64/ContactForce.so", "win64/ContactForce.dll", "darwin64/ContactForce.dylib"],
    "fmi3": [
        "x86_64-linux/ContactForce.so",
        "aarch64-linux/ContactForce.so",
        "x86_64-windows/ContactForce.dll",
        "x86_64-darwin/ContactForce.dylib",
        "aarch64-darwin/ContactForce.dylib",
    ],
}


def test_archive_layout(fmu_path):
    """Platform folders as interface.md fixes them, and no other binary."""
    names = zipfile.ZipFile(fmu_path).namelist()
    assert "modelDescription.xml" in names
    expected = sorted("binaries/" + b for b in BINARIES["fmi2" if "fmi2" in fmu_path.name else "fmi3"])
    assert sorted(n for n in names if n.startswith("binaries/")) == expected, names


def test_model_description(fmu_path):
    md = fmpy.read_model_description(str(fmu_path))
    assert md.fmiVersion == ("2.0" if "fmi2" in fmu_path.name else "3.0")
    assert md.modelName == "ContactForce"
    assert md.coSimulation is not None, "the FMU must declare <CoSimulation>"
    assert md.coSimulation.modelIdentifier == "ContactForce"
    assert md.coSimulation.canHandleVariableCommunicationStepSize
    assert md.coSimulation.canGetAndSetFMUstate
    assert md.coSimulation.canSerializeFMUstate

    variables = {v.name: v for v in md.modelVariables}
    declared_units = {u.name for u in md.unitDefinitions}

    # Every Real / Float64 variable carries a unit that UnitDefinitions declares.
    without_unit = [v.name for v in md.modelVariables if v.type in FLOAT_TYPES and not variable_unit(v)]
    assert without_unit == [], f"Float variables without a unit: {without_unit}"
    undeclared = sorted({variable_unit(v) for v in md.modelVariables if v.type in FLOAT_TYPES} - declared_units)
    assert undeclared == [], f"units used but not in UnitDefinitions: {undeclared}"

    # The 26 inputs of the frames, continuous Floats, and nothing else with causality input (the
    # 24 forces of the laws provided by input and the bodies' 42 mobility inputs are in
    # ContactForceProvidedLaws alone). 84 outputs: 82 of the contact, the bodies' effective masses.
    inputs = [v.name for v in md.modelVariables if v.causality == "input"]
    assert sorted(inputs) == sorted(ref.INPUT_NAMES)
    assert len(inputs) == 26
    assert len([v for v in md.modelVariables if v.causality == "output"]) == 84
    for name in ref.INPUT_NAMES:
        v = variables[name]
        assert v.type in FLOAT_TYPES and v.variability == "continuous", name
    units = {"r_0": "m", "q": "1", "v_0": "m/s", "w_0": "rad/s"}
    for name in ref.INPUT_NAMES:
        assert variable_unit(variables[name]) == units[name.split(".")[1].split("[")[0]], name

    # The outputs of interface.md.
    for base, (size, family) in OUTPUTS.items():
        for name in ref.scalar_names(base, size):
            assert name in variables, f"missing output {name}"
            v = variables[name]
            assert v.causality == "output", f"{name} has causality {v.causality}"
            if family == "float":
                assert v.type in FLOAT_TYPES, f"{name} is {v.type}"
            elif family == "bool":
                assert v.type == "Boolean", f"{name} is {v.type}"
            else:
                assert v.type in {"Integer", "Int32", "Int64"}, f"{name} is {v.type}"
    force_units = {"f_0": "N", "t_0": "N.m"}
    for x in "ab":
        for q, unit in force_units.items():
            for name in ref.scalar_names(f"frame_{x}.{q}", 3):
                assert variable_unit(variables[name]) == unit, name

    # The parameters, and the enumeration items in the order of physics.md.
    for name in PARAMETERS:
        assert name in variables, f"missing parameter {name}"
        assert variables[name].causality == "parameter", f"{name} has causality {variables[name].causality}"
    for name, items in ENUMERATIONS.items():
        v = variables[name]
        expected = [(n, k + 1) for k, n in enumerate(items)]
        if md.fmiVersion == "3.0":
            assert v.type == "Enumeration"
            assert [(i.name, int(i.value)) for i in v.declaredType.items] == expected
        else:
            # FMI 2: an Integer (libcosim ignores Enumeration variables) with the items' range,
            # the items listed in its description, and by name in the fmi_export annotation.
            assert v.type == "Integer", f"{name} is {v.type}"
            assert (int(v.min), int(v.max)) == (1, len(items))
            assert ", ".join(f"{k} = {n}" for n, k in expected) in v.description
            assert list(enumeration_variables(fmu_path)[name].items()) == expected


@pytest.mark.parametrize("name", ["normal.stiffness", "geometry_b.radius", "friction.mu_dynamic"])
def test_default_parameters(fmu_path, name):
    """Start values are the documented defaults that reference.Parameters also uses."""
    md = fmpy.read_model_description(str(fmu_path))
    v = next(v for v in md.modelVariables if v.name == name)
    defaults = {"normal.stiffness": 1e6, "geometry_b.radius": 0.1, "friction.mu_dynamic": 0.3}
    assert float(v.start) == defaults[name]


@pytest.mark.parametrize("version", ["fmi2", "fmi3"])
def test_the_provided_laws_fmu_adds_the_slots_to_contact_forces_interface(version, fmu_path):
    """ContactForceProvidedLaws (the same binary): valid, and ContactForce's variables plus the point
    slots of the laws provided by input: 24 inputs (3 per slot) and 112 outputs (14 per slot), and
    the bodies' 42 mobility inputs."""
    path = provided_fmu_path_for(version)
    assert validate_fmu(str(path)) == []
    md = fmpy.read_model_description(str(path))
    assert md.coSimulation.modelIdentifier == "ContactForceProvidedLaws"
    names = [zipfile.ZipFile(path).namelist()]
    assert any(n.endswith("/ContactForceProvidedLaws.so") for n in names[0])
    provided = [f"contact.point[{i}].provided.{f}" for i in range(1, 9) for f in ("normal_force", "friction_force[1]", "friction_force[2]")]
    provided += [f"body_{x}.mobility[{i}]" for x in "ab" for i in range(1, 22)]
    inputs = [v.name for v in md.modelVariables if v.causality == "input"]
    assert sorted(inputs) == sorted(ref.INPUT_NAMES + provided)
    assert len([v for v in md.modelVariables if v.causality == "output"]) == 84 + 112
    if version in fmu_path.name:
        plain = {v.name for v in fmpy.read_model_description(str(fmu_path)).modelVariables}
        assert plain < {v.name for v in md.modelVariables}
