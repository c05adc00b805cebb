/*
 * Wine 8.0 (Debian bookworm's wine) has no bcryptprimitives.dll, from which Bun's Windows runtime
 * imports ProcessPrng (Windows 10 and later ship it). This stand-in, used only to run the
 * Windows binary under Wine in .ci/release, fills the buffer from RtlGenRandom (advapi32's
 * SystemFunction036), which Wine has. It is never shipped.
 */
#include <windows.h>

BOOLEAN WINAPI SystemFunction036(PVOID buffer, ULONG length);

BOOL WINAPI ProcessPrng(PBYTE data, SIZE_T length) {
  while (length > 0) {
    ULONG n = length > 0x40000000 ? 0x40000000 : (ULONG)length;
    if (!SystemFunction036(data, n)) return FALSE;
    data += n;
    length -= n;
  }
  return TRUE;
}
