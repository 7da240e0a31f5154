/*
 * arch/tsc.c - TSC calibration against every clock the machine has.
 */
#include "arch/tsc.h"
#include "arch/cpu.h"
#include "kernel/console.h"
#include "lib/kstring.h"
#include "lib/record.h"

#define PIT_HZ 1193182u
#define PM_TIMER_HZ 3579545u
#define WINDOW_MS 50u

static struct tsc_info info;

/* PIT channel 2, mode 0, gate through port 0x61 (8254 data sheet; the
 * channel-2 gate and OUT2 status are bits 0 and 5 of port 0x61 on PCs). */
static uint64_t measure_pit(void)
{
    uint32_t count = PIT_HZ * WINDOW_MS / 1000;
    uint8_t p61 = inb(0x61);
    outb(0x61, (uint8_t)((p61 & ~0x02) | 0x01)); /* gate on, speaker off */
    outb(0x43, 0xb0);                            /* ch2, lo/hi, mode 0, binary */
    outb(0x42, (uint8_t)count);
    outb(0x42, (uint8_t)(count >> 8));
    uint64_t t0 = rdtsc();
    uint64_t limit = t0 + (1ull << 36); /* ~20 s even at 4 GHz: no hang */
    while (!(inb(0x61) & 0x20))
        if (rdtsc() > limit)
            return 0;
    uint64_t t1 = rdtsc();
    outb(0x61, p61);
    return (t1 - t0) * PIT_HZ / count;
}

static uint64_t measure_pm_timer(uint16_t port, bool wide)
{
    uint32_t mask = wide ? 0xffffffffu : 0xffffffu;
    uint32_t ticks = PM_TIMER_HZ / 1000 * WINDOW_MS;
    uint32_t start = inl(port) & mask, now;
    uint64_t t0 = rdtsc(), limit = t0 + (1ull << 36);
    do {
        now = inl(port) & mask;
        if (rdtsc() > limit)
            return 0;
    } while (((now - start) & mask) < ticks);
    uint64_t t1 = rdtsc();
    return (t1 - t0) * PM_TIMER_HZ / ((now - start) & mask);
}

static uint64_t measure_hpet(uint64_t base)
{
    volatile uint64_t *cap = (volatile uint64_t *)(uintptr_t)base;
    volatile uint64_t *cfg = (volatile uint64_t *)(uintptr_t)(base + 0x10);
    volatile uint64_t *counter = (volatile uint64_t *)(uintptr_t)(base + 0xf0);
    uint64_t period_fs = *cap >> 32; /* femtoseconds per tick */
    if (period_fs == 0 || period_fs > 100000000ull)
        return 0;
    if (!(*cfg & 1))
        *cfg |= 1; /* ENABLE_CNF */
    uint64_t ticks = WINDOW_MS * 1000000000000ull / period_fs;
    uint64_t c0 = *counter, t0 = rdtsc(), limit = t0 + (1ull << 36), c1;
    do {
        c1 = *counter;
        if (rdtsc() > limit)
            return 0;
    } while (c1 - c0 < ticks);
    uint64_t t1 = rdtsc();
    return mul_div_u64(t1 - t0, 1000000000000000ull, (c1 - c0) * period_fs);
}

static void add(const char *name, uint64_t hz, bool measured)
{
    if (info.nclock < TSC_MAX_CLOCKS)
        info.clock[info.nclock++] = (struct tsc_clock){name, hz, measured};
}

/* Median of three measurements of one clock (robust to one VM exit). */
static uint64_t median3(uint64_t (*fn)(uint64_t, uint64_t), uint64_t a, uint64_t b)
{
    uint64_t x = fn(a, b), y = fn(a, b), z = fn(a, b);
    if (x > y) {
        uint64_t t = x;
        x = y;
        y = t;
    }
    if (y > z) {
        uint64_t t = y;
        y = z;
        z = t;
    }
    if (x > y) {
        uint64_t t = x;
        x = y;
        y = t;
    }
    return y;
}
static uint64_t pit_fn(uint64_t a, uint64_t b) { return measure_pit(); }
static uint64_t pm_fn(uint64_t port, uint64_t wide)
{
    return measure_pm_timer((uint16_t)port, wide);
}
static uint64_t hpet_fn(uint64_t base, uint64_t b) { return measure_hpet(base); }

void tsc_calibrate(const struct tsc_refs *refs)
{
    info = (struct tsc_info){0};
    info.invariant = cpu_has(X86_FEATURE_INVTSC);
    info.tcg = cpu_is_tcg();

    uint32_t r[4];
    if (cpu_ident()->max_leaf >= 0x15) {
        cpuid(0x15, 0, r); /* EAX denominator, EBX numerator, ECX crystal Hz */
        if (r[0] && r[1] && r[2])
            add("cpuid15", (uint64_t)r[2] * r[1] / r[0], false);
    }
    if (cpu_has(X86_FEATURE_HYPERVISOR)) {
        cpuid(0x40000000, 0, r);
        if (r[0] >= 0x40000010) {
            cpuid(0x40000010, 0, r);
            if (r[0])
                add("hv-leaf", (uint64_t)r[0] * 1000, false);
        }
    }
    if (refs && refs->pm_timer_port)
        add("pmtimer", median3(pm_fn, refs->pm_timer_port, refs->pm_timer_32bit), true);
    if (refs && refs->hpet_base)
        add("hpet", median3(hpet_fn, refs->hpet_base, 0), true);
    add("pit", median3(pit_fn, 0, 0), true);
    if (cpu_ident()->max_leaf >= 0x16) {
        cpuid(0x16, 0, r);
        if (r[0] & 0xffff)
            add("cpuid16", (uint64_t)(r[0] & 0xffff) * 1000000, false);
    }

    /* Clocks were added best first; CPUID 0x16 is the base frequency, which
     * need not be the TSC rate, so it is a reference and never chosen. */
    for (unsigned i = 0; i < info.nclock && !info.hz; i++)
        if (info.clock[i].hz && strcmp(info.clock[i].name, "cpuid16") != 0) {
            info.hz = info.clock[i].hz;
            info.source = info.clock[i].name;
        }
    if (!info.hz) {
        info.hz = 1000000000;
        info.source = "none";
    }
    for (unsigned i = 0; i < info.nclock; i++) {
        if (!info.clock[i].measured || !info.clock[i].hz)
            continue;
        uint64_t d =
            info.clock[i].hz > info.hz ? info.clock[i].hz - info.hz : info.hz - info.clock[i].hz;
        uint64_t ppm = d * 1000000 / info.hz;
        if (ppm > info.spread_ppm)
            info.spread_ppm = ppm;
    }

    kprintf("tsc: %llu.%03llu MHz from %s, invariant %s, spread across clocks %llu ppm%s\n",
            (unsigned long long)(info.hz / 1000000), (unsigned long long)(info.hz / 1000 % 1000),
            info.source, info.invariant ? "yes" : "NO", (unsigned long long)info.spread_ppm,
            tsc_reliable() ? "" : " -- timings UNRELIABLE (TCG, non-invariant TSC or no clock)");
    char buf[HZ_RECORD_MAX];
    struct rec rc;
    rec_begin(&rc, buf, sizeof(buf), "tsc");
    rec_u64(&rc, "hz", info.hz);
    rec_str(&rc, "source", info.source);
    rec_bool(&rc, "invariant", info.invariant);
    rec_bool(&rc, "tcg", info.tcg);
    rec_bool(&rc, "reliable", tsc_reliable());
    rec_u64(&rc, "spread_ppm", info.spread_ppm);
    rec_obj_begin(&rc, "clocks");
    for (unsigned i = 0; i < info.nclock; i++)
        rec_u64(&rc, info.clock[i].name, info.clock[i].hz);
    rec_obj_end(&rc);
    record_emit(&rc);
}

const struct tsc_info *tsc_info(void) { return &info; }

bool tsc_reliable(void)
{
    bool measured = false;
    for (unsigned i = 0; i < info.nclock; i++)
        measured |= info.clock[i].measured && info.clock[i].hz;
    return info.invariant && !info.tcg && measured;
}

uint64_t tsc_to_ns(uint64_t cycles)
{
    return info.hz ? mul_div_u64(cycles, 1000000000u, info.hz) : 0;
}

void tsc_delay_us(uint64_t us)
{
    uint64_t hz = info.hz ? info.hz : 4000000000ull; /* before calibration: err long */
    uint64_t end = rdtsc() + mul_div_u64(us, hz, 1000000);
    while (rdtsc() < end)
        cpu_relax();
}
