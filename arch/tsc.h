/*
 * arch/tsc.h - the time-stamp counter: calibration against a second clock,
 * conversions, and the fenced reads every timed region uses.
 *
 * Calibration sources, best first: CPUID 0x15 (TSC/crystal ratio x crystal
 * Hz, SDM Vol. 3B §18.7.3), the hypervisor timing leaf 0x40000010 EAX (TSC
 * kHz, the VMware/KVM convention QEMU follows), the ACPI PM timer
 * (3.579545 MHz, ACPI 6.5 §4.8.3.3), the HPET (period from its capabilities
 * register, IA-PC HPET spec §2.3.4), the PIT channel 2 (1.193182 MHz, Intel
 * 8254 data sheet). CPUID 0x16 EAX (base MHz) is reported for reference only.
 * Every available clock is measured and the spread between them reported.
 */
#ifndef HZ_ARCH_TSC_H
#define HZ_ARCH_TSC_H

#include <stdbool.h>
#include <stdint.h>

#include "arch/x86.h"

/* Second clocks the caller found in the ACPI tables (0 = absent). */
struct tsc_refs {
    uint16_t pm_timer_port; /* FADT PM_TMR_BLK / X_PM_TMR_BLK in I/O space */
    bool pm_timer_32bit;    /* FADT flags TMR_VAL_EXT */
    uint64_t hpet_base;     /* HPET table: physical MMIO base */
};

#define TSC_MAX_CLOCKS 6

struct tsc_clock {
    const char *name; /* "cpuid15", "hv-leaf", "pmtimer", "hpet", "pit", "cpuid16" */
    uint64_t hz;      /* TSC frequency that clock implies; 0 if unavailable */
    bool measured;    /* measured against the clock (vs read from CPUID) */
};

struct tsc_info {
    uint64_t hz;         /* chosen TSC frequency */
    const char *source;  /* name of the chosen clock */
    bool invariant;      /* CPUID 0x80000007 EDX[8] */
    bool tcg;            /* under QEMU TCG */
    uint64_t spread_ppm; /* max |f - hz| / hz over the other clocks, ppm */
    struct tsc_clock clock[TSC_MAX_CLOCKS];
    unsigned nclock;
};

/*
 * Measure every available clock (about 50 ms each, interrupts off) and pick
 * the best; print a human line and a `tsc` record. Call on the BSP after
 * cpu_init(). Never fails: with no usable clock at all, hz is a PIT-less
 * guess of 1 GHz, source "none", and results are flagged unreliable.
 */
void tsc_calibrate(const struct tsc_refs *refs);

/* The calibration result (zeros before tsc_calibrate). */
const struct tsc_info *tsc_info(void);

/* True when figures in TSC cycles mean hardware time: the TSC is invariant,
 * we are not under TCG, and a second clock was measured. */
bool tsc_reliable(void);

/* TSC cycles to nanoseconds with the calibrated frequency (128-bit
 * intermediate; 0 before calibration). */
uint64_t tsc_to_ns(uint64_t cycles);

/* Busy-wait at least `us` microseconds (calibrated; used for AP start-up). */
void tsc_delay_us(uint64_t us);

/*
 * Fenced TSC reads for timed regions (SDM Vol. 3B §18.17 and the RDTSC/RDTSCP
 * entries of Vol. 2B): MFENCE drains earlier stores (the dirtying pass, or
 * the measured stores), LFENCE keeps RDTSC from running early or late.
 */
static inline uint64_t tsc_start(void)
{
    mfence();
    lfence();
    uint64_t t = rdtsc();
    lfence();
    return t;
}

/* The same fences close a timed region: stores inside it are drained. */
static inline uint64_t tsc_stop(void) { return tsc_start(); }

#endif /* HZ_ARCH_TSC_H */
