/*
 * measure/evict.h - making a clear target cold, and checking that it is.
 *
 * WBINVD does not help under KVM: without non-coherent DMA the host ignores
 * it (a guest WBINVD is a no-op there; measured: 9.2-9.9 k cycles whether
 * 8 MiB was dirty or clean, and a read after it as fast as a warm read). So
 * a cold target is made by (1) a CLFLUSHOPT sweep over every 64-byte line
 * of its tail, the last 2 x LLC bytes the sequential dirtying pass wrote
 * (all of it when smaller): the rest was pushed out of every cache by the
 * later writes, and the probe below checks that it was (arch/clear.h clear_evict():
 * CLFLUSH where CLFLUSHOPT is missing;
 * SDM Vol. 2A "CLFLUSHOPT": write back and invalidate in every cache level,
 * allowed at any CPL) then MFENCE, and (2) a pass that reads every line of a
 * buffer twice the LLC
 * size, displacing whatever the flush left. All of it runs at the
 * measurement CPL like the clear itself.
 *
 * Coldness is checked, not assumed: evict_probe() times a chain of
 * dependent loads, one per line of a sample spread over the target (one
 * line every bytes / EVICT_PROBE_LINES, never two in one 4 KiB page, so no
 * prefetcher follows). Read cold right after the eviction, then again warm;
 * a cold read that is not at least 1.3 x the warm one means the target was
 * not cold (scenarios/clear/records.md `clear`, its `cache_verified`). The sample's lines are
 * flushed again before the timed clear.
 *
 * Line size: 64 bytes, as on every x86-64 CPU to date (CPUID 1 EBX[15:8] x 8
 * is the CLFLUSH line size; SDM Vol. 2A "CPUID").
 */
#ifndef HZ_MEASURE_EVICT_H
#define HZ_MEASURE_EVICT_H

#include <stdint.h>

#define EVICT_LINE 64
#define EVICT_PROBE_LINES 64
/* Cold must read at least this much slower than warm (x100). */
#define EVICT_COLD_RATIO_X100 130

enum evict_flush { EVICT_NONE, EVICT_CLFLUSH, EVICT_CLFLUSHOPT };

/* The flush instruction this CPU has (CPUID 7 EBX[23] clflushopt, else
 * CPUID 1 EDX[19] clflush), EVICT_NONE without either. Call at CPL 0. */
enum evict_flush evict_method(void);

/* "clflushopt", "clflush" or "none". */
const char *evict_method_name(enum evict_flush m);

/* Read one word of every line of [p, p + bytes). Any CPL. */
void evict_read(const void *p, uint64_t bytes);

/*
 * TSC cycles of EVICT_PROBE_LINES dependent 8-byte loads spread over
 * [p, p + bytes) (bytes >= EVICT_PROBE_LINES x 4096), fenced (MFENCE;
 * LFENCE; RDTSC at both ends). Any CPL.
 */
uint64_t evict_probe(const uint8_t *p, uint64_t bytes);

/* Flush the lines evict_probe() reads (after probing; clear_evict()). Any CPL. */
void evict_unprobe(const uint8_t *p, uint64_t bytes);

#endif /* HZ_MEASURE_EVICT_H */
