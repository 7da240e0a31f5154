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
 * Every available clock is first checked to count (an absent one is left
 * out, with the reason), then measured, and the spread between them
 * reported: more than TSC_AGREE_PPM between the chosen rate and a measured
 * clock, or between a reported (CPUID) rate and the measured ones, is
 * flagged.
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

/* Clocks further apart than this (parts per million) are flagged. */
#define TSC_AGREE_PPM 1000u

struct tsc_clock {
    const char *name; /* "cpuid15", "hv-leaf", "pmtimer", "hpet", "pit", "cpuid16" */
    uint64_t hz;      /* TSC frequency that clock implies; 0 if unavailable */
    bool measured;    /* measured against the clock (vs read from CPUID) */
};

/* A clock that was looked for but not measured, and why. */
struct tsc_left_out {
    const char *name; /* "pmtimer", "hpet", "pit" */
    const char *why;  /* e.g. "8254 channel 2 does not count (no PIT)" */
};

struct tsc_info {
    uint64_t hz;                /* chosen TSC frequency */
    const char *source;         /* name of the chosen clock */
    bool invariant;             /* CPUID 0x80000007 EDX[8] */
    bool tcg;                   /* under QEMU TCG */
    uint64_t spread_ppm;        /* max |f - hz| / hz over the measured clocks, ppm */
    const char *spread_clock;   /* the measured clock that far off, or NULL */
    uint64_t reported_ppm;      /* max |f - ref| / ref over the CPUID-reported clocks */
    const char *reported_clock; /* "cpuid15", "hv-leaf" or "cpuid16", or NULL */
    const char *reported_ref;   /* the measured clock they were held against */
    bool lfence_serializing;    /* LFENCE waits for earlier instructions */
    const char *lfence_source;  /* "intel-architectural", "cpuid 0x80000021 eax[2]",
                                   "msr c001_1029[1]", or why it is not known to */
    struct tsc_clock clock[TSC_MAX_CLOCKS];
    unsigned nclock;
    struct tsc_left_out left_out[TSC_MAX_CLOCKS];
    unsigned nleft;
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

/* Why tsc_reliable() is false, every reason joined by "; " ("TCG (emulated
 * TSC)", "non-invariant TSC (CPUID 0x80000007 EDX[8] clear)", "no second
 * clock measured", "not calibrated"); "" when it is true. */
const char *tsc_unreliable_reason(void);

/* TSC cycles to nanoseconds with the calibrated frequency (128-bit
 * intermediate; 0 before calibration). */
uint64_t tsc_to_ns(uint64_t cycles);

/* The TSC now (RDTSC, unserialised): the clock of lib/interleave.h's
 * budget, as a function to point at. */
uint64_t tsc_now(void);

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
