/*
 * A plain C importer for the memory-safety check under valgrind (cargo xtask test, step
 * "valgrind"): it loads one FMU binary with dlopen and drives every part of its co-simulation
 * API an importer uses, the way a C host does:
 *
 *   a refused instantiation (wrong token); SetDebugLogging (all, some, and an unknown category,
 *   then Reset); parameters (Float64, enumerations, strings); initialisation; steps with inputs
 *   set and outputs read (every Float64 output checked finite) and a variable step size; FMU
 *   state get (new and overwritten), set, serialize, deserialize (new and overwritten), with
 *   the replayed steps compared bit for bit; strings read back; lastSuccessfulTime; an error
 *   (a NaN input), reads in the Error state, Reset and a second initialisation; Terminate; an
 *   instance with a null logger through an error; instantiate/free cycles; dlclose.
 *
 * The prototypes are written here from the FMI 2.0 and FMI 3.0 standards (fmi2Functions.h,
 * fmi3Functions.h), so the driver needs no headers.
 *
 * The same source builds for Windows with mingw-w64 (LoadLibrary instead of dlopen), so that the
 * Windows binaries run through the same calls under wine, and for aarch64 Linux, run under qemu
 * (cargo xtask test, step "other platforms"); `trace=FILE` writes the outputs of the first run's
 * steps, which the xtask compares with the x86-64 Linux binary's.
 *
 * usage: driver LIBRARY VERSION TOKEN [SPEC...]
 *        driver LIBRARY probe
 *   VERSION   2 or 3
 *   probe     call crates/unwind_probe's unwind_probe() instead: it must catch its panic (1)
 *   TOKEN     the GUID (FMI 2) or instantiationToken (FMI 3) of the model description
 *   SPEC      p:VR=X      Float64 parameter, set before initialisation
 *             e:VR=N      enumeration parameter (FMI 2 Integer, FMI 3 Int64)
 *             n:VR=N      Int32 parameter (FMI 2 Integer, FMI 3 Int32)
 *             s:VR=TEXT   string parameter
 *             u:VR=X:R    input, set to X + R t before every step
 *             o:VR        Float64 output read after every step
 *             i:VR        Int32 output;  b:VR  Boolean output
 *             nan:VR      the input set to NaN for the error path
 *             steps=N     steps (default 200);  h=X  step size (default 1e-4)
 *             cycles=N    extra instantiate/free cycles (default 50)
 *             trace=FILE  write every output of each step of the first run to FILE, one step a
 *                         line (%.17g, space-separated; the step's end time last)
 *
 * Exit status: 0 when every call answered as expected, 1 otherwise (with a message).
 */

#define _GNU_SOURCE
/* mingw-w64: C99 printf formats (%zu, %.17g) instead of msvcrt's. */
#define __USE_MINGW_ANSI_STDIO 1
#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Loading a library: dlopen on POSIX, LoadLibrary on Windows. */
#ifdef _WIN32
#include <windows.h>
static void *open_library(const char *path) { return (void *)LoadLibraryA(path); }
static void *find_symbol(void *library, const char *name) { return (void *)(intptr_t)GetProcAddress((HMODULE)library, name); }
static int close_library(void *library) { return FreeLibrary((HMODULE)library) ? 0 : 1; }
static const char *library_error(void) {
    static char text[64];
    snprintf(text, sizeof text, "LoadLibrary error %lu", (unsigned long)GetLastError());
    return text;
}
#else
#include <dlfcn.h>
static void *open_library(const char *path) { return dlopen(path, RTLD_NOW | RTLD_LOCAL); }
static void *find_symbol(void *library, const char *name) { return dlsym(library, name); }
static int close_library(void *library) { return dlclose(library); }
static const char *library_error(void) { return dlerror(); }
#endif

/* ----------------------------------------------------------------------------------------- */
/* FMI 2.0 (fmi2TypesPlatform.h, fmi2FunctionTypes.h)                                        */

typedef void *fmi2Component;
typedef void *fmi2ComponentEnvironment;
typedef void *fmi2FMUstate;
typedef unsigned int fmi2ValueReference;
typedef double fmi2Real;
typedef int fmi2Integer;
typedef int fmi2Boolean;
typedef char fmi2Char;
typedef const fmi2Char *fmi2String;
typedef char fmi2Byte;
typedef enum { fmi2OK, fmi2Warning, fmi2Discard, fmi2Error, fmi2Fatal, fmi2Pending } fmi2Status;
typedef enum { fmi2ModelExchange, fmi2CoSimulation } fmi2Type;
typedef enum { fmi2DoStepStatus, fmi2PendingStatus, fmi2LastSuccessfulTime, fmi2Terminated } fmi2StatusKind;
typedef void (*fmi2CallbackLogger)(fmi2ComponentEnvironment, fmi2String, fmi2Status, fmi2String, fmi2String, ...);
typedef void *(*fmi2CallbackAllocateMemory)(size_t, size_t);
typedef void (*fmi2CallbackFreeMemory)(void *);
typedef void (*fmi2StepFinished)(fmi2ComponentEnvironment, fmi2Status);
typedef struct {
    const fmi2CallbackLogger logger;
    const fmi2CallbackAllocateMemory allocateMemory;
    const fmi2CallbackFreeMemory freeMemory;
    const fmi2StepFinished stepFinished;
    const fmi2ComponentEnvironment componentEnvironment;
} fmi2CallbackFunctions;

typedef const char *fmi2GetVersionTYPE(void);
typedef fmi2Status fmi2SetDebugLoggingTYPE(fmi2Component, fmi2Boolean, size_t, const fmi2String[]);
typedef fmi2Component fmi2InstantiateTYPE(fmi2String, fmi2Type, fmi2String, fmi2String, const fmi2CallbackFunctions *, fmi2Boolean,
                                          fmi2Boolean);
typedef void fmi2FreeInstanceTYPE(fmi2Component);
typedef fmi2Status fmi2SetupExperimentTYPE(fmi2Component, fmi2Boolean, fmi2Real, fmi2Real, fmi2Boolean, fmi2Real);
typedef fmi2Status fmi2ComponentOnlyTYPE(fmi2Component);
typedef fmi2Status fmi2GetRealTYPE(fmi2Component, const fmi2ValueReference[], size_t, fmi2Real[]);
typedef fmi2Status fmi2GetIntegerTYPE(fmi2Component, const fmi2ValueReference[], size_t, fmi2Integer[]);
typedef fmi2Status fmi2GetBooleanTYPE(fmi2Component, const fmi2ValueReference[], size_t, fmi2Boolean[]);
typedef fmi2Status fmi2GetStringTYPE(fmi2Component, const fmi2ValueReference[], size_t, fmi2String[]);
typedef fmi2Status fmi2SetRealTYPE(fmi2Component, const fmi2ValueReference[], size_t, const fmi2Real[]);
typedef fmi2Status fmi2SetIntegerTYPE(fmi2Component, const fmi2ValueReference[], size_t, const fmi2Integer[]);
typedef fmi2Status fmi2SetStringTYPE(fmi2Component, const fmi2ValueReference[], size_t, const fmi2String[]);
typedef fmi2Status fmi2GetFMUstateTYPE(fmi2Component, fmi2FMUstate *);
typedef fmi2Status fmi2SetFMUstateTYPE(fmi2Component, fmi2FMUstate);
typedef fmi2Status fmi2FreeFMUstateTYPE(fmi2Component, fmi2FMUstate *);
typedef fmi2Status fmi2SerializedFMUstateSizeTYPE(fmi2Component, fmi2FMUstate, size_t *);
typedef fmi2Status fmi2SerializeFMUstateTYPE(fmi2Component, fmi2FMUstate, fmi2Byte[], size_t);
typedef fmi2Status fmi2DeSerializeFMUstateTYPE(fmi2Component, const fmi2Byte[], size_t, fmi2FMUstate *);
typedef fmi2Status fmi2DoStepTYPE(fmi2Component, fmi2Real, fmi2Real, fmi2Boolean);
typedef fmi2Status fmi2GetRealStatusTYPE(fmi2Component, const fmi2StatusKind, fmi2Real *);

/* ----------------------------------------------------------------------------------------- */
/* FMI 3.0 (fmi3PlatformTypes.h, fmi3FunctionTypes.h)                                        */

typedef void *fmi3Instance;
typedef void *fmi3InstanceEnvironment;
typedef void *fmi3FMUState;
typedef uint32_t fmi3ValueReference;
typedef double fmi3Float64;
typedef int32_t fmi3Int32;
typedef int64_t fmi3Int64;
typedef bool fmi3Boolean;
typedef char fmi3Char;
typedef const fmi3Char *fmi3String;
typedef uint8_t fmi3Byte;
typedef enum { fmi3OK, fmi3Warning, fmi3Discard, fmi3Error, fmi3Fatal } fmi3Status;
typedef void (*fmi3LogMessageCallback)(fmi3InstanceEnvironment, fmi3Status, fmi3String, fmi3String);
typedef void (*fmi3IntermediateUpdateCallback)(fmi3InstanceEnvironment, fmi3Float64, fmi3Boolean, fmi3Boolean, fmi3Boolean,
                                               fmi3Boolean, fmi3Boolean *, fmi3Float64 *);

typedef const char *fmi3GetVersionTYPE(void);
typedef fmi3Status fmi3SetDebugLoggingTYPE(fmi3Instance, fmi3Boolean, size_t, const fmi3String[]);
typedef fmi3Instance fmi3InstantiateCoSimulationTYPE(fmi3String, fmi3String, fmi3String, fmi3Boolean, fmi3Boolean, fmi3Boolean,
                                                     fmi3Boolean, const fmi3ValueReference[], size_t, fmi3InstanceEnvironment,
                                                     fmi3LogMessageCallback, fmi3IntermediateUpdateCallback);
typedef void fmi3FreeInstanceTYPE(fmi3Instance);
typedef fmi3Status fmi3EnterInitializationModeTYPE(fmi3Instance, fmi3Boolean, fmi3Float64, fmi3Float64, fmi3Boolean, fmi3Float64);
typedef fmi3Status fmi3InstanceOnlyTYPE(fmi3Instance);
typedef fmi3Status fmi3GetFloat64TYPE(fmi3Instance, const fmi3ValueReference[], size_t, fmi3Float64[], size_t);
typedef fmi3Status fmi3GetInt32TYPE(fmi3Instance, const fmi3ValueReference[], size_t, fmi3Int32[], size_t);
typedef fmi3Status fmi3GetBooleanTYPE(fmi3Instance, const fmi3ValueReference[], size_t, fmi3Boolean[], size_t);
typedef fmi3Status fmi3GetStringTYPE(fmi3Instance, const fmi3ValueReference[], size_t, fmi3String[], size_t);
typedef fmi3Status fmi3SetFloat64TYPE(fmi3Instance, const fmi3ValueReference[], size_t, const fmi3Float64[], size_t);
typedef fmi3Status fmi3SetInt32TYPE(fmi3Instance, const fmi3ValueReference[], size_t, const fmi3Int32[], size_t);
typedef fmi3Status fmi3SetInt64TYPE(fmi3Instance, const fmi3ValueReference[], size_t, const fmi3Int64[], size_t);
typedef fmi3Status fmi3SetStringTYPE(fmi3Instance, const fmi3ValueReference[], size_t, const fmi3String[], size_t);
typedef fmi3Status fmi3GetFMUStateTYPE(fmi3Instance, fmi3FMUState *);
typedef fmi3Status fmi3SetFMUStateTYPE(fmi3Instance, fmi3FMUState);
typedef fmi3Status fmi3FreeFMUStateTYPE(fmi3Instance, fmi3FMUState *);
typedef fmi3Status fmi3SerializedFMUStateSizeTYPE(fmi3Instance, fmi3FMUState, size_t *);
typedef fmi3Status fmi3SerializeFMUStateTYPE(fmi3Instance, fmi3FMUState, fmi3Byte[], size_t);
typedef fmi3Status fmi3DeserializeFMUStateTYPE(fmi3Instance, const fmi3Byte[], size_t, fmi3FMUState *);
typedef fmi3Status fmi3DoStepTYPE(fmi3Instance, fmi3Float64, fmi3Float64, fmi3Boolean, fmi3Boolean *, fmi3Boolean *, fmi3Boolean *,
                                  fmi3Float64 *);

/* ----------------------------------------------------------------------------------------- */
/* The run's description, from the command line.                                             */

#define MAX_SPECS 256

typedef struct { uint32_t vr; double value; double rate; } RealSpec;
typedef struct { uint32_t vr; long long value; } IntSpec;
typedef struct { uint32_t vr; const char *text; } StringSpec;

static RealSpec params[MAX_SPECS], inputs[MAX_SPECS];
static IntSpec enums[MAX_SPECS];
static IntSpec ints[MAX_SPECS];
static StringSpec strings[MAX_SPECS];
static uint32_t real_outputs[MAX_SPECS], int_outputs[MAX_SPECS], bool_outputs[MAX_SPECS];
static size_t n_params, n_inputs, n_enums, n_ints, n_strings, n_real_outputs, n_int_outputs, n_bool_outputs;
static uint32_t nan_input;
static bool has_nan_input;
static int steps = 200, cycles = 50;
static double h = 1e-4;
static const char *token;
static const char *trace_file;

static void fail(const char *what) {
    fprintf(stderr, "driver: %s\n", what);
    exit(1);
}

#define CHECK(call, expected)                                                                                      \
    do {                                                                                                           \
        int status_ = (int)(call);                                                                                 \
        if (status_ != (int)(expected)) {                                                                          \
            fprintf(stderr, "driver: %s:%d: %s answered %d, expected %d\n", __FILE__, __LINE__, #call, status_,    \
                    (int)(expected));                                                                              \
            exit(1);                                                                                               \
        }                                                                                                          \
    } while (0)

static void *symbol(void *library, const char *name) {
    void *f = find_symbol(library, name);
    if (!f) {
        fprintf(stderr, "driver: the binary does not export %s\n", name);
        exit(1);
    }
    return f;
}

static void parse(int argc, char **argv) {
    for (int i = 4; i < argc; i++) {
        const char *a = argv[i];
        unsigned vr;
        double x, r;
        long long n;
        int used = 0;
        if (n_params >= MAX_SPECS || n_inputs >= MAX_SPECS || n_enums >= MAX_SPECS || n_ints >= MAX_SPECS || n_strings >= MAX_SPECS ||
            n_real_outputs >= MAX_SPECS || n_int_outputs >= MAX_SPECS || n_bool_outputs >= MAX_SPECS)
            fail("too many specs");
        if (sscanf(a, "p:%u=%lf%n", &vr, &x, &used) == 2 && a[used] == '\0') {
            params[n_params++] = (RealSpec){vr, x, 0.0};
        } else if (sscanf(a, "e:%u=%lld%n", &vr, &n, &used) == 2 && a[used] == '\0') {
            enums[n_enums++] = (IntSpec){vr, n};
        } else if (sscanf(a, "n:%u=%lld%n", &vr, &n, &used) == 2 && a[used] == '\0') {
            ints[n_ints++] = (IntSpec){vr, n};
        } else if (sscanf(a, "s:%u=%n", &vr, &used) == 1 && used > 0) {
            strings[n_strings++] = (StringSpec){vr, a + used};
        } else if (sscanf(a, "u:%u=%lf:%lf%n", &vr, &x, &r, &used) == 3 && a[used] == '\0') {
            inputs[n_inputs++] = (RealSpec){vr, x, r};
        } else if (sscanf(a, "o:%u%n", &vr, &used) == 1 && a[used] == '\0') {
            real_outputs[n_real_outputs++] = vr;
        } else if (sscanf(a, "i:%u%n", &vr, &used) == 1 && a[used] == '\0') {
            int_outputs[n_int_outputs++] = vr;
        } else if (sscanf(a, "b:%u%n", &vr, &used) == 1 && a[used] == '\0') {
            bool_outputs[n_bool_outputs++] = vr;
        } else if (sscanf(a, "nan:%u%n", &vr, &used) == 1 && a[used] == '\0') {
            nan_input = vr;
            has_nan_input = true;
        } else if (sscanf(a, "steps=%d%n", &steps, &used) == 1 && a[used] == '\0') {
        } else if (sscanf(a, "cycles=%d%n", &cycles, &used) == 1 && a[used] == '\0') {
        } else if (sscanf(a, "h=%lf%n", &h, &used) == 1 && a[used] == '\0') {
        } else if (strncmp(a, "trace=", 6) == 0 && a[6] != '\0') {
            trace_file = a + 6;
        } else {
            fprintf(stderr, "driver: cannot read the spec \"%s\"\n", a);
            exit(1);
        }
    }
    if (steps < 8) fail("steps must be at least 8");
    if (n_real_outputs == 0) fail("name at least one Float64 output (o:VR)");
    if (!has_nan_input) fail("name the input for the error path (nan:VR)");
}

/* The log: messages counted by status; printed when DRIVER_VERBOSE is set. */
static int logged[5];
static bool verbose;

static void count_message(int status, const char *category, const char *message) {
    if (status >= 0 && status < 5) logged[status]++;
    if (verbose) printf("  [%s] %s\n", category ? category : "?", message ? message : "?");
}

static void logger2(fmi2ComponentEnvironment env, fmi2String name, fmi2Status status, fmi2String category, fmi2String message, ...) {
    char text[2048];
    va_list args;
    va_start(args, message);
    vsnprintf(text, sizeof text, message, args);
    va_end(args);
    if (env != (void *)&logged) fail("fmi2 logger: the component environment did not come back");
    (void)name;
    count_message((int)status, category, text);
}

static void logger3(fmi3InstanceEnvironment env, fmi3Status status, fmi3String category, fmi3String message) {
    if (env != (void *)&logged) fail("fmi3 logger: the instance environment did not come back");
    count_message((int)status, category, message);
}

/* Outputs of one step: the Float64s, then the Int32s and Booleans as doubles. */
static size_t outputs_per_step(void) { return n_real_outputs + n_int_outputs + n_bool_outputs + 1; }

static void check_finite(const double *values, size_t n, int step) {
    for (size_t i = 0; i < n; i++) {
        if (!isfinite(values[i])) {
            fprintf(stderr, "driver: step %d: output %zu (vr %u) is %g with OK\n", step, i, real_outputs[i], values[i]);
            exit(1);
        }
    }
}

/* Writes the first run's outputs (trace=FILE), one step a line. */
static void write_trace(const double *trace) {
    if (!trace_file) return;
    FILE *out = fopen(trace_file, "w");
    if (!out) fail("cannot write the trace file");
    const size_t per = outputs_per_step();
    for (int k = 0; k < steps; k++)
        for (size_t i = 0; i < per; i++) fprintf(out, "%.17g%c", trace[(size_t)k * per + i], i + 1 < per ? ' ' : '\n');
    if (fclose(out) != 0) fail("cannot write the trace file");
}

/* ----------------------------------------------------------------------------------------- */
/* FMI 2.0                                                                                    */

typedef struct {
    fmi2GetVersionTYPE *GetVersion;
    fmi2SetDebugLoggingTYPE *SetDebugLogging;
    fmi2InstantiateTYPE *Instantiate;
    fmi2FreeInstanceTYPE *FreeInstance;
    fmi2SetupExperimentTYPE *SetupExperiment;
    fmi2ComponentOnlyTYPE *EnterInitializationMode, *ExitInitializationMode, *Terminate, *Reset;
    fmi2GetRealTYPE *GetReal;
    fmi2GetIntegerTYPE *GetInteger;
    fmi2GetBooleanTYPE *GetBoolean;
    fmi2GetStringTYPE *GetString;
    fmi2SetRealTYPE *SetReal;
    fmi2SetIntegerTYPE *SetInteger;
    fmi2SetStringTYPE *SetString;
    fmi2GetFMUstateTYPE *GetFMUstate;
    fmi2SetFMUstateTYPE *SetFMUstate;
    fmi2FreeFMUstateTYPE *FreeFMUstate;
    fmi2SerializedFMUstateSizeTYPE *SerializedFMUstateSize;
    fmi2SerializeFMUstateTYPE *SerializeFMUstate;
    fmi2DeSerializeFMUstateTYPE *DeSerializeFMUstate;
    fmi2DoStepTYPE *DoStep;
    fmi2GetRealStatusTYPE *GetRealStatus;
} Fmi2;

static Fmi2 load2(void *lib) {
    Fmi2 f;
    f.GetVersion = (fmi2GetVersionTYPE *)symbol(lib, "fmi2GetVersion");
    f.SetDebugLogging = (fmi2SetDebugLoggingTYPE *)symbol(lib, "fmi2SetDebugLogging");
    f.Instantiate = (fmi2InstantiateTYPE *)symbol(lib, "fmi2Instantiate");
    f.FreeInstance = (fmi2FreeInstanceTYPE *)symbol(lib, "fmi2FreeInstance");
    f.SetupExperiment = (fmi2SetupExperimentTYPE *)symbol(lib, "fmi2SetupExperiment");
    f.EnterInitializationMode = (fmi2ComponentOnlyTYPE *)symbol(lib, "fmi2EnterInitializationMode");
    f.ExitInitializationMode = (fmi2ComponentOnlyTYPE *)symbol(lib, "fmi2ExitInitializationMode");
    f.Terminate = (fmi2ComponentOnlyTYPE *)symbol(lib, "fmi2Terminate");
    f.Reset = (fmi2ComponentOnlyTYPE *)symbol(lib, "fmi2Reset");
    f.GetReal = (fmi2GetRealTYPE *)symbol(lib, "fmi2GetReal");
    f.GetInteger = (fmi2GetIntegerTYPE *)symbol(lib, "fmi2GetInteger");
    f.GetBoolean = (fmi2GetBooleanTYPE *)symbol(lib, "fmi2GetBoolean");
    f.GetString = (fmi2GetStringTYPE *)symbol(lib, "fmi2GetString");
    f.SetReal = (fmi2SetRealTYPE *)symbol(lib, "fmi2SetReal");
    f.SetInteger = (fmi2SetIntegerTYPE *)symbol(lib, "fmi2SetInteger");
    f.SetString = (fmi2SetStringTYPE *)symbol(lib, "fmi2SetString");
    f.GetFMUstate = (fmi2GetFMUstateTYPE *)symbol(lib, "fmi2GetFMUstate");
    f.SetFMUstate = (fmi2SetFMUstateTYPE *)symbol(lib, "fmi2SetFMUstate");
    f.FreeFMUstate = (fmi2FreeFMUstateTYPE *)symbol(lib, "fmi2FreeFMUstate");
    f.SerializedFMUstateSize = (fmi2SerializedFMUstateSizeTYPE *)symbol(lib, "fmi2SerializedFMUstateSize");
    f.SerializeFMUstate = (fmi2SerializeFMUstateTYPE *)symbol(lib, "fmi2SerializeFMUstate");
    f.DeSerializeFMUstate = (fmi2DeSerializeFMUstateTYPE *)symbol(lib, "fmi2DeSerializeFMUstate");
    f.DoStep = (fmi2DoStepTYPE *)symbol(lib, "fmi2DoStep");
    f.GetRealStatus = (fmi2GetRealStatusTYPE *)symbol(lib, "fmi2GetRealStatus");
    return f;
}

static void set_parameters2(const Fmi2 *f, fmi2Component c) {
    for (size_t i = 0; i < n_params; i++) CHECK(f->SetReal(c, &params[i].vr, 1, &params[i].value), fmi2OK);
    for (size_t i = 0; i < n_enums; i++) {
        fmi2Integer value = (fmi2Integer)enums[i].value;
        CHECK(f->SetInteger(c, &enums[i].vr, 1, &value), fmi2OK);
    }
    for (size_t i = 0; i < n_ints; i++) {
        fmi2Integer value = (fmi2Integer)ints[i].value;
        CHECK(f->SetInteger(c, &ints[i].vr, 1, &value), fmi2OK);
    }
    for (size_t i = 0; i < n_strings; i++) CHECK(f->SetString(c, &strings[i].vr, 1, &strings[i].text), fmi2OK);
}

static void initialize2(const Fmi2 *f, fmi2Component c) {
    CHECK(f->SetupExperiment(c, 0, 0.0, 0.0, 0, 0.0), fmi2OK);
    CHECK(f->EnterInitializationMode(c), fmi2OK);
    CHECK(f->ExitInitializationMode(c), fmi2OK);
}

/* Sets the inputs for time t, steps over [t, t + step], reads every output into `out`. */
static void step2(const Fmi2 *f, fmi2Component c, double t, double step, double *out, int k) {
    for (size_t i = 0; i < n_inputs; i++) {
        double value = inputs[i].value + inputs[i].rate * t;
        CHECK(f->SetReal(c, &inputs[i].vr, 1, &value), fmi2OK);
    }
    CHECK(f->DoStep(c, t, step, 0), fmi2OK);
    CHECK(f->GetReal(c, real_outputs, n_real_outputs, out), fmi2OK);
    check_finite(out, n_real_outputs, k);
    fmi2Integer ints[MAX_SPECS];
    fmi2Boolean bools[MAX_SPECS];
    if (n_int_outputs) CHECK(f->GetInteger(c, int_outputs, n_int_outputs, ints), fmi2OK);
    if (n_bool_outputs) CHECK(f->GetBoolean(c, bool_outputs, n_bool_outputs, bools), fmi2OK);
    for (size_t i = 0; i < n_int_outputs; i++) out[n_real_outputs + i] = ints[i];
    for (size_t i = 0; i < n_bool_outputs; i++) out[n_real_outputs + n_int_outputs + i] = bools[i];
    out[outputs_per_step() - 1] = t + step;
}

/* The step size of step k: mostly h, sometimes 2.5 h (a variable communication step size). */
static double step_size(int k) { return k % 7 == 3 ? 2.5 * h : h; }

static void run2(void *lib) {
    Fmi2 f = load2(lib);
    if (strcmp(f.GetVersion(), "2.0") != 0) fail("fmi2GetVersion is not 2.0");
    fmi2CallbackFunctions callbacks = {logger2, calloc, free, NULL, &logged};
    fmi2CallbackFunctions quiet = {NULL, calloc, free, NULL, NULL};

    if (f.Instantiate("wrong", fmi2CoSimulation, "{00000000-0000-0000-0000-000000000000}", "file:///tmp", &callbacks, 0, 1))
        fail("fmi2Instantiate accepted a wrong GUID");
    fmi2Component c = f.Instantiate("driver", fmi2CoSimulation, token, "file:///tmp/resources", &callbacks, 0, 1);
    if (!c) fail("fmi2Instantiate failed");

    const fmi2String some[] = {"logEvents", "logStatusWarning"};
    const fmi2String unknown[] = {"logEvents", "logNothing"};
    CHECK(f.SetDebugLogging(c, 1, 0, NULL), fmi2OK);
    CHECK(f.SetDebugLogging(c, 1, 2, some), fmi2OK);
    CHECK(f.SetDebugLogging(c, 1, 2, unknown), fmi2Error);
    CHECK(f.Reset(c), fmi2OK);

    set_parameters2(&f, c);
    initialize2(&f, c);

    const size_t per = outputs_per_step();
    double *trace = calloc((size_t)steps * per, sizeof(double));
    double *replay = calloc((size_t)steps * per, sizeof(double));
    double *times = calloc((size_t)steps + 1, sizeof(double));
    if (!trace || !replay || !times) fail("out of memory");
    int save = steps / 2;
    fmi2FMUstate saved = NULL, copy = NULL;
    double t = 0.0;
    for (int k = 0; k < steps; k++) {
        if (k == steps / 3) CHECK(f.GetFMUstate(c, &saved), fmi2OK);  /* a new state */
        if (k == save) CHECK(f.GetFMUstate(c, &saved), fmi2OK);       /* overwrites it */
        times[k] = t;
        step2(&f, c, t, step_size(k), trace + (size_t)k * per, k);
        t += step_size(k);
    }
    write_trace(trace);
    double last = -1.0;
    CHECK(f.GetRealStatus(c, fmi2LastSuccessfulTime, &last), fmi2OK);
    if (last != t) fail("fmi2LastSuccessfulTime is not the end of the last step");

    size_t size = 0;
    CHECK(f.SerializedFMUstateSize(c, saved, &size), fmi2OK);
    fmi2Byte *bytes = malloc(size);
    if (!bytes) fail("out of memory");
    CHECK(f.SerializeFMUstate(c, saved, bytes, size), fmi2OK);
    CHECK(f.DeSerializeFMUstate(c, bytes, size, &copy), fmi2OK);   /* a new state */
    CHECK(f.DeSerializeFMUstate(c, bytes, size, &copy), fmi2OK);   /* overwrites it */
    fmi2FMUstate replayed[2] = {saved, copy};
    for (int r = 0; r < 2; r++) {
        CHECK(f.SetFMUstate(c, replayed[r]), fmi2OK);
        for (int k = save; k < steps; k++) step2(&f, c, times[k], step_size(k), replay + (size_t)k * per, k);
        if (memcmp(trace + (size_t)save * per, replay + (size_t)save * per, (size_t)(steps - save) * per * sizeof(double)) != 0)
            fail(r == 0 ? "fmi2SetFMUstate: the replayed steps differ" : "fmi2DeSerializeFMUstate: the replayed steps differ");
    }
    CHECK(f.FreeFMUstate(c, &saved), fmi2OK);
    CHECK(f.FreeFMUstate(c, &copy), fmi2OK);
    if (saved || copy) fail("fmi2FreeFMUstate did not null the pointer");
    free(bytes);

    for (size_t i = 0; i < n_strings; i++) {
        fmi2String text = NULL;
        CHECK(f.GetString(c, &strings[i].vr, 1, &text), fmi2OK);
        if (!text || strcmp(text, strings[i].text) != 0) fail("fmi2GetString does not give back the string set");
    }

    /* The error path: a NaN input, reads in the Error state, Reset, a second run. */
    double nan = NAN;
    CHECK(f.SetReal(c, &nan_input, 1, &nan), fmi2Error);
    CHECK(f.GetReal(c, real_outputs, n_real_outputs, replay), fmi2OK);
    CHECK(f.DoStep(c, t, h, 0), fmi2Error);
    CHECK(f.Reset(c), fmi2OK);
    set_parameters2(&f, c);
    initialize2(&f, c);
    for (int k = 0; k < 5; k++) step2(&f, c, k * h, h, replay, k);
    CHECK(f.Terminate(c), fmi2OK);
    f.FreeInstance(c);

    /* A null logger through an error. */
    c = f.Instantiate("quiet", fmi2CoSimulation, token, NULL, &quiet, 0, 1);
    if (!c) fail("fmi2Instantiate with a null logger failed");
    CHECK(f.SetDebugLogging(c, 1, 2, unknown), fmi2Error);
    CHECK(f.Reset(c), fmi2OK);
    initialize2(&f, c);
    CHECK(f.SetReal(c, &nan_input, 1, &nan), fmi2Error);
    CHECK(f.DoStep(c, 0.0, h, 0), fmi2Error);
    f.FreeInstance(c);

    for (int n = 0; n < cycles; n++) {
        c = f.Instantiate("cycle", fmi2CoSimulation, token, NULL, &callbacks, 0, 0);
        if (!c) fail("fmi2Instantiate failed in a cycle");
        set_parameters2(&f, c);
        initialize2(&f, c);
        step2(&f, c, 0.0, h, replay, 0);
        f.FreeInstance(c);
    }
    free(trace);
    free(replay);
    free(times);
}

/* ----------------------------------------------------------------------------------------- */
/* FMI 3.0                                                                                    */

typedef struct {
    fmi3GetVersionTYPE *GetVersion;
    fmi3SetDebugLoggingTYPE *SetDebugLogging;
    fmi3InstantiateCoSimulationTYPE *InstantiateCoSimulation;
    fmi3FreeInstanceTYPE *FreeInstance;
    fmi3EnterInitializationModeTYPE *EnterInitializationMode;
    fmi3InstanceOnlyTYPE *ExitInitializationMode, *Terminate, *Reset;
    fmi3GetFloat64TYPE *GetFloat64;
    fmi3GetInt32TYPE *GetInt32;
    fmi3GetBooleanTYPE *GetBoolean;
    fmi3GetStringTYPE *GetString;
    fmi3SetFloat64TYPE *SetFloat64;
    fmi3SetInt32TYPE *SetInt32;
    fmi3SetInt64TYPE *SetInt64;
    fmi3SetStringTYPE *SetString;
    fmi3GetFMUStateTYPE *GetFMUState;
    fmi3SetFMUStateTYPE *SetFMUState;
    fmi3FreeFMUStateTYPE *FreeFMUState;
    fmi3SerializedFMUStateSizeTYPE *SerializedFMUStateSize;
    fmi3SerializeFMUStateTYPE *SerializeFMUState;
    fmi3DeserializeFMUStateTYPE *DeserializeFMUState;
    fmi3DoStepTYPE *DoStep;
} Fmi3;

static Fmi3 load3(void *lib) {
    Fmi3 f;
    f.GetVersion = (fmi3GetVersionTYPE *)symbol(lib, "fmi3GetVersion");
    f.SetDebugLogging = (fmi3SetDebugLoggingTYPE *)symbol(lib, "fmi3SetDebugLogging");
    f.InstantiateCoSimulation = (fmi3InstantiateCoSimulationTYPE *)symbol(lib, "fmi3InstantiateCoSimulation");
    f.FreeInstance = (fmi3FreeInstanceTYPE *)symbol(lib, "fmi3FreeInstance");
    f.EnterInitializationMode = (fmi3EnterInitializationModeTYPE *)symbol(lib, "fmi3EnterInitializationMode");
    f.ExitInitializationMode = (fmi3InstanceOnlyTYPE *)symbol(lib, "fmi3ExitInitializationMode");
    f.Terminate = (fmi3InstanceOnlyTYPE *)symbol(lib, "fmi3Terminate");
    f.Reset = (fmi3InstanceOnlyTYPE *)symbol(lib, "fmi3Reset");
    f.GetFloat64 = (fmi3GetFloat64TYPE *)symbol(lib, "fmi3GetFloat64");
    f.GetInt32 = (fmi3GetInt32TYPE *)symbol(lib, "fmi3GetInt32");
    f.GetBoolean = (fmi3GetBooleanTYPE *)symbol(lib, "fmi3GetBoolean");
    f.GetString = (fmi3GetStringTYPE *)symbol(lib, "fmi3GetString");
    f.SetFloat64 = (fmi3SetFloat64TYPE *)symbol(lib, "fmi3SetFloat64");
    f.SetInt32 = (fmi3SetInt32TYPE *)symbol(lib, "fmi3SetInt32");
    f.SetInt64 = (fmi3SetInt64TYPE *)symbol(lib, "fmi3SetInt64");
    f.SetString = (fmi3SetStringTYPE *)symbol(lib, "fmi3SetString");
    f.GetFMUState = (fmi3GetFMUStateTYPE *)symbol(lib, "fmi3GetFMUState");
    f.SetFMUState = (fmi3SetFMUStateTYPE *)symbol(lib, "fmi3SetFMUState");
    f.FreeFMUState = (fmi3FreeFMUStateTYPE *)symbol(lib, "fmi3FreeFMUState");
    f.SerializedFMUStateSize = (fmi3SerializedFMUStateSizeTYPE *)symbol(lib, "fmi3SerializedFMUStateSize");
    f.SerializeFMUState = (fmi3SerializeFMUStateTYPE *)symbol(lib, "fmi3SerializeFMUState");
    f.DeserializeFMUState = (fmi3DeserializeFMUStateTYPE *)symbol(lib, "fmi3DeserializeFMUState");
    f.DoStep = (fmi3DoStepTYPE *)symbol(lib, "fmi3DoStep");
    return f;
}

static fmi3Instance instantiate3(const Fmi3 *f, const char *name, const char *with_token, fmi3LogMessageCallback logger) {
    return f->InstantiateCoSimulation(name, with_token, "/tmp/resources/", false, true, false, false, NULL, 0, &logged, logger, NULL);
}

static void set_parameters3(const Fmi3 *f, fmi3Instance c) {
    for (size_t i = 0; i < n_params; i++) CHECK(f->SetFloat64(c, &params[i].vr, 1, &params[i].value, 1), fmi3OK);
    for (size_t i = 0; i < n_enums; i++) {
        fmi3Int64 value = enums[i].value;
        CHECK(f->SetInt64(c, &enums[i].vr, 1, &value, 1), fmi3OK);
    }
    for (size_t i = 0; i < n_ints; i++) {
        fmi3Int32 value = (fmi3Int32)ints[i].value;
        CHECK(f->SetInt32(c, &ints[i].vr, 1, &value, 1), fmi3OK);
    }
    for (size_t i = 0; i < n_strings; i++) CHECK(f->SetString(c, &strings[i].vr, 1, &strings[i].text, 1), fmi3OK);
}

static void initialize3(const Fmi3 *f, fmi3Instance c) {
    CHECK(f->EnterInitializationMode(c, false, 0.0, 0.0, false, 0.0), fmi3OK);
    CHECK(f->ExitInitializationMode(c), fmi3OK);
}

static void step3(const Fmi3 *f, fmi3Instance c, double t, double step, double *out, int k) {
    for (size_t i = 0; i < n_inputs; i++) {
        double value = inputs[i].value + inputs[i].rate * t;
        CHECK(f->SetFloat64(c, &inputs[i].vr, 1, &value, 1), fmi3OK);
    }
    fmi3Boolean event = true, terminate = true, early = true;
    double last = -1.0;
    CHECK(f->DoStep(c, t, step, false, &event, &terminate, &early, &last), fmi3OK);
    if (event || terminate || early) fail("fmi3DoStep: an event, termination or early return was signalled");
    if (last != t + step) fail("fmi3DoStep: lastSuccessfulTime is not the end of the step");
    CHECK(f->GetFloat64(c, real_outputs, n_real_outputs, out, n_real_outputs), fmi3OK);
    check_finite(out, n_real_outputs, k);
    fmi3Int32 ints[MAX_SPECS];
    fmi3Boolean bools[MAX_SPECS];
    if (n_int_outputs) CHECK(f->GetInt32(c, int_outputs, n_int_outputs, ints, n_int_outputs), fmi3OK);
    if (n_bool_outputs) CHECK(f->GetBoolean(c, bool_outputs, n_bool_outputs, bools, n_bool_outputs), fmi3OK);
    for (size_t i = 0; i < n_int_outputs; i++) out[n_real_outputs + i] = ints[i];
    for (size_t i = 0; i < n_bool_outputs; i++) out[n_real_outputs + n_int_outputs + i] = bools[i];
    out[outputs_per_step() - 1] = last;
}

static void run3(void *lib) {
    Fmi3 f = load3(lib);
    if (strcmp(f.GetVersion(), "3.0") != 0) fail("fmi3GetVersion is not 3.0");

    if (instantiate3(&f, "wrong", "{00000000-0000-0000-0000-000000000000}", logger3))
        fail("fmi3InstantiateCoSimulation accepted a wrong token");
    fmi3Instance c = instantiate3(&f, "driver", token, logger3);
    if (!c) fail("fmi3InstantiateCoSimulation failed");

    const fmi3String some[] = {"logEvents", "logStatusWarning"};
    const fmi3String unknown[] = {"logEvents", "logNothing"};
    CHECK(f.SetDebugLogging(c, true, 0, NULL), fmi3OK);
    CHECK(f.SetDebugLogging(c, true, 2, some), fmi3OK);
    CHECK(f.SetDebugLogging(c, true, 2, unknown), fmi3Error);
    CHECK(f.Reset(c), fmi3OK);

    set_parameters3(&f, c);
    initialize3(&f, c);

    const size_t per = outputs_per_step();
    double *trace = calloc((size_t)steps * per, sizeof(double));
    double *replay = calloc((size_t)steps * per, sizeof(double));
    double *times = calloc((size_t)steps + 1, sizeof(double));
    if (!trace || !replay || !times) fail("out of memory");
    int save = steps / 2;
    fmi3FMUState saved = NULL, copy = NULL;
    double t = 0.0;
    for (int k = 0; k < steps; k++) {
        if (k == steps / 3) CHECK(f.GetFMUState(c, &saved), fmi3OK);
        if (k == save) CHECK(f.GetFMUState(c, &saved), fmi3OK);
        times[k] = t;
        step3(&f, c, t, step_size(k), trace + (size_t)k * per, k);
        t += step_size(k);
    }
    write_trace(trace);

    size_t size = 0;
    CHECK(f.SerializedFMUStateSize(c, saved, &size), fmi3OK);
    fmi3Byte *bytes = malloc(size);
    if (!bytes) fail("out of memory");
    CHECK(f.SerializeFMUState(c, saved, bytes, size), fmi3OK);
    CHECK(f.DeserializeFMUState(c, bytes, size, &copy), fmi3OK);
    CHECK(f.DeserializeFMUState(c, bytes, size, &copy), fmi3OK);
    /* A damaged copy is refused and makes nothing. */
    fmi3FMUState damaged = NULL;
    bytes[size / 2] ^= 0x5a;
    CHECK(f.DeserializeFMUState(c, bytes, size, &damaged), fmi3Error);
    if (damaged) fail("fmi3DeserializeFMUState made a state of damaged bytes");
    CHECK(f.Reset(c), fmi3OK);
    set_parameters3(&f, c);
    initialize3(&f, c);
    fmi3FMUState replayed[2] = {saved, copy};
    for (int r = 0; r < 2; r++) {
        CHECK(f.SetFMUState(c, replayed[r]), fmi3OK);
        for (int k = save; k < steps; k++) step3(&f, c, times[k], step_size(k), replay + (size_t)k * per, k);
        if (memcmp(trace + (size_t)save * per, replay + (size_t)save * per, (size_t)(steps - save) * per * sizeof(double)) != 0)
            fail(r == 0 ? "fmi3SetFMUState: the replayed steps differ" : "fmi3DeserializeFMUState: the replayed steps differ");
    }
    CHECK(f.FreeFMUState(c, &saved), fmi3OK);
    CHECK(f.FreeFMUState(c, &copy), fmi3OK);
    if (saved || copy) fail("fmi3FreeFMUState did not null the pointer");
    free(bytes);

    for (size_t i = 0; i < n_strings; i++) {
        fmi3String text = NULL;
        CHECK(f.GetString(c, &strings[i].vr, 1, &text, 1), fmi3OK);
        if (!text || strcmp(text, strings[i].text) != 0) fail("fmi3GetString does not give back the string set");
    }

    double nan = NAN;
    CHECK(f.SetFloat64(c, &nan_input, 1, &nan, 1), fmi3Error);
    CHECK(f.GetFloat64(c, real_outputs, n_real_outputs, replay, n_real_outputs), fmi3OK);
    CHECK(f.Reset(c), fmi3OK);
    set_parameters3(&f, c);
    initialize3(&f, c);
    for (int k = 0; k < 5; k++) step3(&f, c, k * h, h, replay, k);
    CHECK(f.Terminate(c), fmi3OK);
    f.FreeInstance(c);

    c = instantiate3(&f, "quiet", token, NULL);
    if (!c) fail("fmi3InstantiateCoSimulation with a null logger failed");
    CHECK(f.SetDebugLogging(c, true, 2, unknown), fmi3Error);
    CHECK(f.Reset(c), fmi3OK);
    initialize3(&f, c);
    CHECK(f.SetFloat64(c, &nan_input, 1, &nan, 1), fmi3Error);
    f.FreeInstance(c);

    for (int n = 0; n < cycles; n++) {
        c = instantiate3(&f, "cycle", token, logger3);
        if (!c) fail("fmi3InstantiateCoSimulation failed in a cycle");
        set_parameters3(&f, c);
        initialize3(&f, c);
        step3(&f, c, 0.0, h, replay, 0);
        f.FreeInstance(c);
    }
    free(trace);
    free(replay);
    free(times);
}

/* The unwinding probe (crates/unwind_probe): 1 when its panic was caught after every destructor. */
static int probe(const char *path) {
    void *lib = open_library(path);
    if (!lib) {
        fprintf(stderr, "driver: loading %s: %s\n", path, library_error());
        return 1;
    }
    int (*unwind_probe)(void) = (int (*)(void))symbol(lib, "unwind_probe");
    if (unwind_probe() != 1) fail("unwind_probe: the panic was caught, but not every destructor ran");
    if (close_library(lib) != 0) fail("closing the library failed");
    printf("driver: %s: the panic was caught at the C boundary\n", path);
    return 0;
}

int main(int argc, char **argv) {
    if (argc == 3 && strcmp(argv[2], "probe") == 0) return probe(argv[1]);
    if (argc < 4) fail("usage: driver LIBRARY VERSION TOKEN [SPEC...] or driver LIBRARY probe");
    verbose = getenv("DRIVER_VERBOSE") != NULL;
    token = argv[3];
    parse(argc, argv);
    void *lib = open_library(argv[1]);
    if (!lib) {
        fprintf(stderr, "driver: loading %s: %s\n", argv[1], library_error());
        return 1;
    }
    if (strcmp(argv[2], "2") == 0)
        run2(lib);
    else if (strcmp(argv[2], "3") == 0)
        run3(lib);
    else
        fail("VERSION must be 2 or 3");
    if (close_library(lib) != 0) fail("closing the library failed");
    printf("driver: %s FMI %s: %d steps, FMU state replayed bit for bit, %d cycles; logged %d OK, %d warnings, %d discards, "
           "%d errors\n",
           argv[1], argv[2], steps, cycles, logged[0], logged[1], logged[2], logged[3]);
    return 0;
}
