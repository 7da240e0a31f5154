/*
 * arch/tsc.c - TSC calibration against every clock the machine has.
 *
 * A clock is measured only after a short check that it counts at all: an
 * absent 8254 (QEMU `-M q35,pit=off`) or HPET reads back constant values and
 * would otherwise "measure" nonsense (6360 Hz). Such clocks are left out with
 * the reason printed and recorded (`left_out`).
 */
#include "arch/tsc.h"
#include "arch/cpu.h"
#include "arch/msr.h"
#include "lib/fmt.h"
#include "lib/kstring.h"
#include "lib/print.h"
#include "lib/record.h"

#define PIT_HZ 1193182u
#define PM_TIMER_HZ 3579545u
#define WINDOW_MS 50u
/* Counting check: wait this many TSC cycles (0.25-1 ms at 1-4 GHz, before
 * the rate is known) and require the clock to have moved. */
#define PROBE_CYCLES (1ull << 20)

static struct tsc_info info;
static char reason[160];

static void probe_wait(void)
{
    uint64_t end = rdtsc() + PROBE_CYCLES;
    while (rdtsc() < end)
        cpu_relax();
}

/* Program PIT channel 2 in mode 0 with `count`, gate on, speaker off
 * (8254 data sheet; gate and OUT2 are bits 0 and 5 of port 0x61 on PCs). */
static void pit_start(uint16_t count)
{
    uint8_t p61 = inb(0x61);
    outb(0x61, (uint8_t)((p61 & ~0x02) | 0x01));
    outb(0x43, 0xb0); /* ch2, lo/hi, mode 0, binary */
    outb(0x42, (uint8_t)count);
    outb(0x42, (uint8_t)(count >> 8));
}

/* Channel 2's current count, by the counter-latch command (8254 data sheet). */
static uint16_t pit_read(void)
{
    outb(0x43, 0x80);
    uint8_t lo = inb(0x42);
    return (uint16_t)(lo | inb(0x42) << 8);
}

/* A counting 8254 decrements between two latched reads, and in mode 0 its
 * OUT2 stays low until the terminal count (55 ms away here). */
static bool pit_counts(void)
{
    uint8_t p61 = inb(0x61);
    pit_start(0xffff);
    uint16_t c0 = pit_read();
    probe_wait();
    uint16_t c1 = pit_read();
    bool out_low = !(inb(0x61) & 0x20);
    outb(0x61, p61);
    return c1 < c0 && out_low;
}

static uint64_t measure_pit(void)
{
    uint32_t count = PIT_HZ * WINDOW_MS / 1000;
    uint8_t p61 = inb(0x61);
    pit_start((uint16_t)count);
    uint64_t t0 = rdtsc();
    uint64_t limit = t0 + (1ull << 36); /* ~20 s even at 4 GHz: no hang */
    while (!(inb(0x61) & 0x20))
        if (rdtsc() > limit)
            return 0;
    uint64_t t1 = rdtsc();
    outb(0x61, p61);
    return (t1 - t0) * PIT_HZ / count;
}

static bool pm_timer_counts(uint16_t port)
{
    uint32_t a = inl(port);
    probe_wait();
    return inl(port) != a;
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

/* HPET registers (IA-PC HPET spec §2.3): capabilities (period in fs in bits
 * 63:32, at most 100 ns = 0x05F5E100 fs), configuration (ENABLE_CNF bit 0),
 * main counter at 0xF0. */
static volatile uint64_t *hpet_reg(uint64_t base, unsigned off)
{
    return (volatile uint64_t *)(uintptr_t)(base + off);
}

/* NULL when the HPET counts, else why not. */
static const char *hpet_check(uint64_t base)
{
    uint64_t period_fs = *hpet_reg(base, 0) >> 32;
    if (period_fs == 0 || period_fs > 100000000ull)
        return "HPET period register invalid (no HPET at the ACPI address)";
    if (!(*hpet_reg(base, 0x10) & 1))
        *hpet_reg(base, 0x10) |= 1; /* ENABLE_CNF */
    uint64_t c0 = *hpet_reg(base, 0xf0);
    probe_wait();
    return *hpet_reg(base, 0xf0) != c0 ? NULL : "HPET main counter does not count";
}

static uint64_t measure_hpet(uint64_t base)
{
    uint64_t period_fs = *hpet_reg(base, 0) >> 32;
    uint64_t ticks = WINDOW_MS * 1000000000000ull / period_fs;
    uint64_t c0 = *hpet_reg(base, 0xf0), t0 = rdtsc(), limit = t0 + (1ull << 36), c1;
    do {
        c1 = *hpet_reg(base, 0xf0);
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

static void leave_out(const char *name, const char *why)
{
    if (info.nleft < TSC_MAX_CLOCKS)
        info.left_out[info.nleft++] = (struct tsc_left_out){name, why};
    kprintf("tsc: %s left out: %s\n", name, why);
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

static void measure_clocks(const struct tsc_refs *refs)
{
    if (!refs || !refs->pm_timer_port)
        leave_out("pmtimer", "no PM timer in the ACPI FADT");
    else if (!pm_timer_counts(refs->pm_timer_port))
        leave_out("pmtimer", "ACPI PM timer does not count");
    else
        add("pmtimer", median3(pm_fn, refs->pm_timer_port, refs->pm_timer_32bit), true);
    const char *why = refs && refs->hpet_base ? hpet_check(refs->hpet_base) : "no ACPI HPET table";
    if (why)
        leave_out("hpet", why);
    else
        add("hpet", median3(hpet_fn, refs->hpet_base, 0), true);
    if (!pit_counts())
        leave_out("pit", "8254 channel 2 does not count (no PIT)");
    else
        add("pit", median3(pit_fn, 0, 0), true);
}

static uint64_t ppm_apart(uint64_t a, uint64_t b)
{
    return a && b ? (a > b ? a - b : b - a) * 1000000 / b : 0;
}

/* Spread of the measured clocks around the chosen rate, and the reported
 * (CPUID) rates against the first measured clock. */
static void compare_clocks(void)
{
    const struct tsc_clock *ref = NULL;
    for (unsigned i = 0; i < info.nclock; i++) {
        const struct tsc_clock *c = &info.clock[i];
        if (!c->measured || !c->hz)
            continue;
        if (!ref)
            ref = c;
        uint64_t ppm = ppm_apart(c->hz, info.hz);
        if (ppm > info.spread_ppm) {
            info.spread_ppm = ppm;
            info.spread_clock = c->name;
        }
    }
    for (unsigned i = 0; ref && i < info.nclock; i++) {
        const struct tsc_clock *c = &info.clock[i];
        uint64_t ppm = c->measured ? 0 : ppm_apart(c->hz, ref->hz);
        if (ppm > info.reported_ppm) {
            info.reported_ppm = ppm;
            info.reported_clock = c->name;
            info.reported_ref = ref->name;
        }
    }
    if (info.spread_ppm > TSC_AGREE_PPM)
        kprintf("tsc: WARNING: %s is %llu ppm from the chosen %s (more than %u ppm)\n",
                info.spread_clock, (unsigned long long)info.spread_ppm, info.source, TSC_AGREE_PPM);
    if (info.reported_ppm > TSC_AGREE_PPM)
        kprintf("tsc: WARNING: the frequency reported by %s is %llu ppm from the measured %s "
                "(more than %u ppm)\n",
                info.reported_clock, (unsigned long long)info.reported_ppm, info.reported_ref,
                TSC_AGREE_PPM);
}

/* LFENCE serializes instruction dispatch on Intel by architecture (SDM Vol.
 * 2A "LFENCE"). On AMD it does when CPUID 0x80000021 EAX[2] says so (APM
 * Vol. 3, CPUID Fn8000_0021_EAX LfenceAlwaysSerializing), or when the OS set
 * DE_CFG (MSR C001_1029) bit 1, as Linux does (AMD, "Software techniques for
 * managing speculation on AMD processors"). The MSR is only read here. */
#define MSR_AMD64_DE_CFG 0xc0011029u
#define DE_CFG_LFENCE_SERIALIZE (1ull << 1)

static void lfence_check(void)
{
    uint64_t de_cfg;
    if (strcmp(cpu_ident()->vendor, "GenuineIntel") == 0) {
        info.lfence_serializing = true;
        info.lfence_source = "intel-architectural";
    } else if (cpu_has(X86_FEATURE_LFENCE_RDTSC)) {
        info.lfence_serializing = true;
        info.lfence_source = "cpuid 0x80000021 eax[2]";
    } else if (msr_read_safe(MSR_AMD64_DE_CFG, &de_cfg) < 0) {
        info.lfence_serializing = false;
        info.lfence_source = "not in cpuid 0x80000021 eax[2]; msr c001_1029 unreadable";
    } else {
        info.lfence_serializing = de_cfg & DE_CFG_LFENCE_SERIALIZE;
        info.lfence_source = info.lfence_serializing
                                 ? "msr c001_1029[1]"
                                 : "not in cpuid 0x80000021 eax[2] nor msr c001_1029[1]";
    }
}

static void explain(void)
{
    reason[0] = 0;
    size_t n = 0;
    bool measured = false;
    for (unsigned i = 0; i < info.nclock; i++)
        measured |= info.clock[i].measured && info.clock[i].hz;
    if (info.tcg)
        n += hz_snprintf(reason + n, sizeof(reason) - n, "%sTCG (emulated TSC)", n ? "; " : "");
    if (!info.invariant)
        n += hz_snprintf(reason + n, sizeof(reason) - n,
                         "%snon-invariant TSC (CPUID 0x80000007 EDX[8] clear)", n ? "; " : "");
    if (!measured)
        hz_snprintf(reason + n, sizeof(reason) - n, "%sno second clock measured", n ? "; " : "");
}

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
    measure_clocks(refs);
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
    compare_clocks();
    lfence_check();
    explain();

    kprintf("tsc: %llu.%03llu MHz from %s, invariant %s, spread across clocks %llu ppm, "
            "LFENCE %sserializing (%s)%s%s\n",
            (unsigned long long)(info.hz / 1000000), (unsigned long long)(info.hz / 1000 % 1000),
            info.source, info.invariant ? "yes" : "NO", (unsigned long long)info.spread_ppm,
            info.lfence_serializing ? "" : "not always ", info.lfence_source,
            reason[0] ? " -- timings UNRELIABLE: " : "", reason);
    char buf[HZ_RECORD_MAX];
    struct rec rc;
    rec_begin(&rc, buf, sizeof(buf), "tsc");
    rec_u64(&rc, "hz", info.hz);
    rec_str(&rc, "source", info.source);
    rec_bool(&rc, "invariant", info.invariant);
    rec_bool(&rc, "tcg", info.tcg);
    rec_bool(&rc, "reliable", tsc_reliable());
    if (reason[0])
        rec_str(&rc, "unreliable_reason", reason);
    rec_u64(&rc, "spread_ppm", info.spread_ppm);
    if (info.spread_clock)
        rec_str(&rc, "spread_clock", info.spread_clock);
    rec_bool(&rc, "spread_flag", info.spread_ppm > TSC_AGREE_PPM);
    rec_u64(&rc, "reported_ppm", info.reported_ppm);
    if (info.reported_clock)
        rec_str(&rc, "reported_clock", info.reported_clock);
    rec_bool(&rc, "reported_flag", info.reported_ppm > TSC_AGREE_PPM);
    rec_bool(&rc, "lfence_serializing", info.lfence_serializing);
    rec_str(&rc, "lfence_source", info.lfence_source);
    rec_obj_begin(&rc, "clocks");
    for (unsigned i = 0; i < info.nclock; i++)
        rec_u64(&rc, info.clock[i].name, info.clock[i].hz);
    rec_obj_end(&rc);
    rec_obj_begin(&rc, "left_out");
    for (unsigned i = 0; i < info.nleft; i++)
        rec_str(&rc, info.left_out[i].name, info.left_out[i].why);
    rec_obj_end(&rc);
    record_emit(&rc);
}

const struct tsc_info *tsc_info(void) { return &info; }

bool tsc_reliable(void) { return info.source && !reason[0]; }

const char *tsc_unreliable_reason(void) { return info.source ? reason : "not calibrated"; }

uint64_t tsc_to_ns(uint64_t cycles)
{
    return info.hz ? mul_div_u64(cycles, 1000000000u, info.hz) : 0;
}

uint64_t tsc_now(void) { return rdtsc(); }

void tsc_delay_us(uint64_t us)
{
    uint64_t hz = info.hz ? info.hz : 4000000000ull; /* before calibration: err long */
    uint64_t end = rdtsc() + mul_div_u64(us, hz, 1000000);
    while (rdtsc() < end)
        cpu_relax();
}
