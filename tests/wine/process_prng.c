/*
 * A stand-in for bcryptprimitives.dll, for running the Windows FMU binaries under wine only (cargo
 * xtask test, step "other platforms"); it never ships. Rust's standard library takes its random
 * numbers (the seeds of HashMap) from ProcessPrng, which Windows 10 and later export from
 * bcryptprimitives.dll and wine 8 does not. This DLL, beside the C importer, exports ProcessPrng
 * and fills the buffer from RtlGenRandom (advapi32's SystemFunction036), which wine has.
 */
#include <windows.h>

BOOLEAN WINAPI SystemFunction036(PVOID buffer, ULONG length);

__declspec(dllexport) BOOL WINAPI ProcessPrng(PBYTE data, SIZE_T length) {
    while (length > 0) {
        ULONG chunk = length > 0x10000000 ? 0x10000000 : (ULONG)length;
        if (!SystemFunction036(data, chunk)) return FALSE;
        data += chunk;
        length -= chunk;
    }
    return TRUE;
}
