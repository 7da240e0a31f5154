/*
 * measure/evict.c - the LLC read pass and the coldness probe (measure/evict.h);
 * the CLFLUSHOPT/CLFLUSH sweep is arch/clear.h clear_evict().
 */
#include "measure/evict.h"
#include "arch/clear.h"
#include "arch/cpu.h"
#include "arch/tsc.h"
#include "arch/x86.h"

enum evict_flush evict_method(void)
{
    if (cpu_has(X86_FEATURE_CLFLUSHOPT))
        return EVICT_CLFLUSHOPT;
    return cpu_has(X86_FEATURE_CLFLUSH) ? EVICT_CLFLUSH : EVICT_NONE;
}

const char *evict_method_name(enum evict_flush m)
{
    return m == EVICT_CLFLUSHOPT ? "clflushopt" : m == EVICT_CLFLUSH ? "clflush" : "none";
}

void evict_read(const void *p, uint64_t bytes)
{
    const volatile uint64_t *w = p;
    uint64_t sum = 0;
    for (uint64_t i = 0; i < bytes / 8; i += EVICT_LINE / 8)
        sum += w[i];
    __asm__ volatile("" ::"r"(sum));
}

static uint64_t probe_step(uint64_t bytes)
{
    uint64_t step = bytes / EVICT_PROBE_LINES;
    return step & ~(uint64_t)(EVICT_LINE - 1);
}

uint64_t evict_probe(const uint8_t *p, uint64_t bytes)
{
    uint64_t step = probe_step(bytes), x = 0;
    uint64_t t0 = tsc_start();
    for (unsigned i = 0; i < EVICT_PROBE_LINES; i++) {
        const uint8_t *a = p + i * step + (i % 63) * EVICT_LINE % step;
        /* AND with 0 keeps the dependency (it is not a zeroing idiom): the
         * next load waits for this one, so the loads do not overlap. */
        __asm__ volatile("and $0, %0\n\tmov (%1,%0), %0" : "+r"(x) : "r"(a) : "memory");
    }
    return tsc_stop() - t0;
}

void evict_unprobe(const uint8_t *p, uint64_t bytes)
{
    uint64_t step = probe_step(bytes);
    for (unsigned i = 0; i < EVICT_PROBE_LINES; i++)
        clear_evict(p + i * step + (i % 63) * EVICT_LINE % step, 8, EVICT_LINE);
}
