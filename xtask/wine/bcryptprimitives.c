/* A stand-in for Windows' bcryptprimitives.dll, for running the Windows tests under Wine 8
 * (Debian 12's), which lacks it: Rust's standard library asks it for random bytes
 * (ProcessPrng). Windows and Wine 9 have their own; this is never shipped. */
#include <windows.h>
#include <ntsecapi.h>

BOOL WINAPI ProcessPrng(PBYTE data, SIZE_T len) {
    while (len > 0) {
        ULONG n = len > 0x7fffffff ? 0x7fffffff : (ULONG)len;
        if (!RtlGenRandom(data, n)) return FALSE;
        data += n;
        len -= n;
    }
    return TRUE;
}
