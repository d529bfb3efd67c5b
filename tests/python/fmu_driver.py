"""A thin, version-neutral wrapper around FMPy's low-level slave classes.

Why: the instance tests (several instances, reset, FMU state, error handling) need the individual
FMI calls that `fmpy.simulate_fmu` hides, for FMI 2.0 (`fmpy.fmi2.FMU2Slave`) and FMI 3.0
(`fmpy.fmi3.FMU3Slave`) alike. This class gives both the same small API by variable *name*, and it
records every message the FMU logs (through a custom logger callback given to instantiate) so that
tests can check what the FMU said when it refused something.
"""

from __future__ import annotations

from ctypes import byref

import numpy as np
from fmpy.fmi1 import FMICallException  # noqa: F401  (re-exported for the tests)
from fmpy.fmi2 import (
    FMU2Slave,
    fmi2CallbackAllocateMemoryTYPE,
    fmi2CallbackFreeMemoryTYPE,
    fmi2CallbackFunctions,
    fmi2CallbackLoggerTYPE,
)
from fmpy.fmi3 import FMU3Slave
from fmpy import calloc, free

STATUS_LABELS = ["OK", "Warning", "Discard", "Error", "Fatal", "Pending"]


class Slave:
    """One co-simulation instance of an extracted FMU, FMI 2.0 or 3.0.

    `messages` collects (status label, category, message) for every log call of the FMU. Logging
    is switched on at instantiation: in FMI 3.0, loggingOn = false forbids the FMU to call the
    logger at all, so error messages could not be checked otherwise.
    """

    def __init__(self, unzipdir, model_description, instance_name="instance"):
        self.md = model_description
        self.fmi3 = model_description.fmiVersion.startswith("3")
        self.variables = {v.name: v for v in model_description.modelVariables}
        self.messages: list[tuple[str, str, str]] = []
        args = dict(
            guid=model_description.guid,
            unzipDirectory=unzipdir,
            modelIdentifier=model_description.coSimulation.modelIdentifier,
            instanceName=instance_name,
        )
        if self.fmi3:
            self.fmu = FMU3Slave(**args)

            def log3(env, status, category, message):
                self._log(status, category, message)

            self.fmu.instantiate(loggingOn=True, logMessage=log3)
        else:
            self.fmu = FMU2Slave(**args)

            def log2(env, instance_name, status, category, message):
                self._log(status, category, message)

            callbacks = fmi2CallbackFunctions()
            callbacks.logger = fmi2CallbackLoggerTYPE(log2)
            callbacks.allocateMemory = fmi2CallbackAllocateMemoryTYPE(calloc)
            callbacks.freeMemory = fmi2CallbackFreeMemoryTYPE(free)
            # FMI 2 loggers are printf-style; FMPy's C proxy formats the message before the
            # Python callback sees it (as fmpy.simulation.instantiate_fmu does).
            from fmpy.logging import addLoggerProxy

            addLoggerProxy(byref(callbacks))
            self._callbacks = callbacks  # keep the ctypes objects alive while the FMU may log
            self.fmu.instantiate(callbacks=callbacks, loggingOn=True)

    def _log(self, status, category, message):
        text = lambda b: b.decode("utf-8", "replace") if isinstance(b, bytes) else str(b)
        label = STATUS_LABELS[status] if 0 <= status < len(STATUS_LABELS) else str(status)
        self.messages.append((label, text(category), text(message)))

    def log_text(self) -> str:
        """Every logged message, one per line, for assertion messages."""
        return "\n".join(f"[{s}] {c}: {m}" for s, c, m in self.messages)

    # Values by name ------------------------------------------------------------------------

    def _type(self, name):
        v = self.variables[name]
        if v.type == "Enumeration":
            return "Int64" if self.fmi3 else "Integer"
        return v.type

    def set(self, values: dict):
        """Sets variables by name, each with the setter of its type."""
        for name, value in values.items():
            vr = [self.variables[name].valueReference]
            t = self._type(name)
            if t in ("Real", "Float64"):
                (self.fmu.setFloat64 if self.fmi3 else self.fmu.setReal)(vr, [float(value)])
            elif t in ("Integer", "Int32", "Int64"):
                getattr(self.fmu, "set" + t)(vr, [int(value)])
            elif t == "Boolean":
                self.fmu.setBoolean(vr, [bool(value)])
            elif t == "String":
                self.fmu.setString(vr, [str(value)])
            else:
                raise TypeError(f"{name}: type {t}")

    def get(self, names) -> dict:
        """Gets variables by name."""
        out = {}
        for name in names:
            vr = [self.variables[name].valueReference]
            t = self._type(name)
            getter = getattr(self.fmu, "get" + t)
            out[name] = getter(vr)[0]
        return out

    def get_vector(self, names) -> np.ndarray:
        """Gets variables by name as one float array (booleans and integers converted)."""
        values = self.get(names)
        return np.array([float(values[n]) for n in names])

    # Life cycle ------------------------------------------------------------------------------

    def enter_initialization(self, parameters: dict, start_time=0.0):
        """Sets parameters (allowed before initialisation) and enters initialisation mode."""
        if self.fmi3:
            self.set(parameters)
            self.fmu.enterInitializationMode(startTime=start_time)
        else:
            self.fmu.setupExperiment(startTime=start_time)
            self.set(parameters)
            self.fmu.enterInitializationMode()

    def exit_initialization(self):
        self.fmu.exitInitializationMode()

    def initialize(self, parameters: dict, inputs: dict, start_time=0.0):
        """Sets parameters and inputs, then enters and exits initialisation mode."""
        self.enter_initialization(parameters, start_time)
        self.set(inputs)
        self.exit_initialization()

    def do_step(self, t, h):
        """One communication step from t to t + h."""
        self.fmu.doStep(currentCommunicationPoint=t, communicationStepSize=h)

    def reset(self):
        self.fmu.reset()

    def get_state(self):
        return self.fmu.getFMUState()

    def set_state(self, state):
        self.fmu.setFMUState(state)

    def free_state(self, state):
        self.fmu.freeFMUState(state)

    def serialize(self, state) -> bytes:
        return self.fmu.serializeFMUState(state)

    def deserialize(self, data: bytes):
        return self.fmu.deserializeFMUState(data)

    def terminate(self):
        self.fmu.terminate()

    def free(self):
        """Frees the instance and unloads the library; a second call does nothing (no double free)."""
        if self.fmu is not None:
            fmu, self.fmu = self.fmu, None
            fmu.freeInstance()
