/*
 * kernel/smp_work.c - running work on a set of CPUs, the AP idle loop and
 * the sense-reversing barrier (kernel/smp.h). Idle APs park (`smp_idle=`): HLT
 * with interrupts on, woken by a fixed IPI (SDM Vol. 3A §11.6.1) that the
 * BSP sends after it filled the mailbox; or MONITOR/MWAIT on the mailbox's
 * line (SDM Vol. 2B "MWAIT"; AMD APM Vol. 3 "MWAIT"), where a store to it
 * ends the wait; or PAUSE polling at the measurement CPL. `sti; hlt` takes
 * an interrupt that was already pending only once HLT runs (STI's one-
 * instruction interrupt shadow, SDM Vol. 2B "STI"), so a wake IPI sent
 * between the mailbox check and HLT is not lost. Ordering uses the compiler's
 * __atomic builtins: release stores publish the work, acquire loads take it
 * (plain MOVs on x86, whose stores are not reordered with other stores nor
 * loads with other loads, SDM Vol. 3A §9.2.2); the barrier's count is a
 * LOCK-prefixed SUB, which is ordered with every load and store (§9.2.2,
 * §9.1.2.2).
 */
#include "arch/apic.h"
#include "arch/cpu.h"
#include "arch/idle.h"
#include "arch/trap.h"
#include "arch/tsc.h"
#include "arch/user.h"
#include "arch/x86.h"
#include "kernel/exit.h"
#include "kernel/options.h"
#include "kernel/smp.h"
#include "kernel/smp_priv.h"
#include "lib/cmdline.h"
#include "lib/kstring.h"
#include "lib/print.h"

enum idle_mode { IDLE_AUTO, IDLE_HLT, IDLE_MWAIT, IDLE_POLL };
static int opt_idle;
static const char *const idle_choices[] = {"auto", "hlt", "mwait", "poll", 0};
HZ_OPTION(opt_idle_def, .name = "smp_idle", .kind = OPT_ENUM, .dest = &opt_idle,
          .choices = idle_choices, .accepted = "auto|hlt|mwait|poll",
          .help = "how idle APs wait: hlt (woken by an IPI), mwait, poll (spin at the measurement "
                  "CPL); auto: mwait where CPUID has it, not under TCG and not where ring 0 is "
                  "emulated, else hlt");
static int idle_mode = IDLE_POLL; /* set by smp_idle_init() */
static const char *idle_why = "";

void smp_set_clear(struct smp_set *s) { memset(s, 0, sizeof(*s)); }

void smp_set_add(struct smp_set *s, unsigned i)
{
    if (i < HZ_MAX_CPUS)
        s->bits[i / 64] |= 1ull << (i % 64);
}

bool smp_set_has(const struct smp_set *s, unsigned i)
{
    return i < HZ_MAX_CPUS && (s->bits[i / 64] >> (i % 64)) & 1;
}

unsigned smp_set_count(const struct smp_set *s)
{
    unsigned n = 0;
    for (unsigned w = 0; w < HZ_MAX_CPUS / 64; w++) /* no libgcc: no __builtin_popcount */
        for (uint64_t b = s->bits[w]; b; b &= b - 1)
            n++;
    return n;
}

/* The wake IPI: its only job is to end HLT. */
static bool wake_irq(struct trap_frame *f)
{
    (void)f;
    apic_eoi();
    return true;
}

/* The method for smp_idle=auto, and why (idle_why). */
static int idle_auto(bool mwait)
{
    if (!mwait)
        idle_why = "auto: no MONITOR/MWAIT (CPUID.01H:ECX[3])";
    else if (cpu_is_tcg())
        idle_why = "auto: TCG runs MWAIT as a no-op (idle CPUs would spin)";
    else if (user_ring0_emulated())
        idle_why = "auto: ring 0 is emulated (MONITOR there stops the VM)";
    else
        return idle_why = "auto: MONITOR/MWAIT (CPUID.01H:ECX[3]), ring 0 native", IDLE_MWAIT;
    return IDLE_HLT;
}

void smp_idle_init(void)
{
    bool mwait = cpu_has(X86_FEATURE_MONITOR);
    idle_why = "smp_idle= on the command line";
    idle_mode = opt_idle != IDLE_AUTO ? opt_idle : idle_auto(mwait);
    if (idle_mode == IDLE_MWAIT && !mwait) {
        kprintf(
            "smp: smp_idle=mwait: this CPU has no MONITOR/MWAIT (CPUID.01H:ECX[3]): using hlt\n");
        idle_mode = IDLE_HLT;
        idle_why = "smp_idle=mwait without MONITOR/MWAIT (CPUID.01H:ECX[3]): hlt";
    }
    if (idle_mode == IDLE_MWAIT && user_ring0_emulated()) {
        options_config_error("smp_idle", "mwait",
                             "ring 0 is emulated by the hypervisor here, and MONITOR in emulated "
                             "ring 0 stops the VM (KVM internal error)",
                             "auto|hlt|poll");
        hz_exit(HZ_CONFIG);
    }
    trap_set_handler(TRAP_VECTOR_WAKE, wake_irq);
    kprintf("smp: idle APs wait with %s (%s)\n", idle_choices[idle_mode], idle_why);
    if (idle_mode == IDLE_MWAIT && cpu_is_tcg())
        kprintf("smp: WARNING: smp_idle=mwait under TCG: QEMU runs MWAIT as a no-op, so every "
                "idle AP SPINS, keeping a host thread busy\n");
}

const char *smp_idle_method(void) { return idle_choices[idle_mode]; }
const char *smp_idle_why(void) { return idle_why; }

struct idle_wait {
    volatile uint64_t *work_seq;
    uint64_t seen, got;
};

/* Poll until the mailbox changes. Memory only, so it runs at the
 * measurement CPL: where the hypervisor emulates ring 0 (arch/user.h), an
 * idle CPU spinning in ring 0 would load the host even more. */
static void wait_work(void *arg)
{
    struct idle_wait *w = arg;
    uint64_t s;
    while ((s = __atomic_load_n(w->work_seq, __ATOMIC_ACQUIRE)) == w->seen)
        cpu_relax();
    w->got = s;
}

/* Park until the mailbox changes (at CPL 0, interrupts off; arch/idle.h). */
static uint64_t park(volatile uint64_t *work_seq, uint64_t seen)
{
    uint64_t s;
    do
        s = idle_mode == IDLE_MWAIT ? idle_mwait(work_seq, seen) : idle_hlt(work_seq, seen);
    while (s == seen);
    return s;
}

_Noreturn void smp_idle(unsigned cpu)
{
    struct percpu *pc = &smp_percpu[cpu];
    struct idle_wait w = {&pc->work_seq, __atomic_load_n(&pc->work_seq, __ATOMIC_ACQUIRE), 0};
    for (;;) {
        if (idle_mode == IDLE_POLL)
            user_run(cpu, wait_work, &w);
        else
            w.got = park(w.work_seq, w.seen);
        w.seen = w.got;
        pc->woke_tsc = rdtsc();
        __atomic_store_n(&pc->woke_seq, w.got, __ATOMIC_RELEASE);
        pc->fn(cpu, pc->arg); /* at CPL 0 */
        __atomic_store_n(&pc->done_seq, w.got, __ATOMIC_RELEASE);
    }
}

static uint64_t us_to_cyc(uint64_t us)
{
    uint64_t hz = tsc_info()->hz ? tsc_info()->hz : 4000000000ull;
    return mul_div_u64(us, hz, 1000000);
}

uint64_t smp_post(unsigned cpu, smp_fn fn, void *arg)
{
    struct percpu *pc = &smp_percpu[cpu];
    uint64_t seq = pc->work_seq + 1;
    pc->fn = fn;
    pc->arg = arg;
    __atomic_store_n(&pc->work_seq, seq, __ATOMIC_RELEASE);
    return seq;
}

int smp_kick(unsigned cpu)
{
    struct percpu *pc = &smp_percpu[cpu];
    if (idle_mode == IDLE_MWAIT) /* a store to the monitored line ends MWAIT */
        __atomic_store_n(&pc->work_seq, pc->work_seq, __ATOMIC_RELEASE);
    if (idle_mode != IDLE_HLT ||
        apic_send_fixed(pc->info.apic_id, TRAP_VECTOR_WAKE, SMP_IPI_TIMEOUT_US) >= 0)
        return 0;
    kprintf("smp: the wake IPI to CPU %u (APIC ID %u) stayed pending\n", cpu, pc->info.apic_id);
    return -1;
}

/* smp_run()'s wait for the set's APs: polls their done_seq from CPU `next`
 * up, in CPU order, until each finished or the TSC reaches `until`. Memory
 * and RDTSC only, so it runs at the measurement CPL: where ring 0 is
 * emulated (arch/user.h), a boot CPU spinning there would run the
 * hypervisor's emulator while the APs it waits for are measured. */
struct done_wait {
    const struct smp_set *set;
    const uint64_t *seq; /* the mailbox sequence each AP must finish */
    uint64_t until;      /* TSC: back to ring 0 then */
    unsigned next;       /* the first CPU not seen done; smp_ncpu: all done */
};

static void wait_done(void *arg)
{
    struct done_wait *w = arg;
    for (; w->next < smp_ncpu; w->next++) {
        if (!smp_set_has(w->set, w->next))
            continue;
        const struct percpu *pc = &smp_percpu[w->next];
        while (__atomic_load_n(&pc->done_seq, __ATOMIC_ACQUIRE) != w->seq[w->next]) {
            if (rdtsc() >= w->until)
                return;
            cpu_relax();
        }
    }
}

int smp_run(const struct smp_set *set, smp_fn fn, void *arg, uint64_t timeout_us)
{
    static uint64_t seq[HZ_MAX_CPUS]; /* BSP only */
    if (smp_cpu_index() != 0 || !smp_set_count(set))
        return -2;
    for (unsigned i = 0; i < HZ_MAX_CPUS; i++)
        if (smp_set_has(set, i) && (i >= smp_ncpu || smp_percpu[i].info.state != SMP_CPU_ONLINE))
            return -2;
    for (unsigned i = 1; i < smp_ncpu; i++) {
        if (!smp_set_has(set, i))
            continue;
        seq[i] = smp_post(i, fn, arg);
        smp_kick(i);
    }
    if (smp_set_has(set, 0))
        fn(0, arg);

    /* Back in ring 0 only every SMP_WAKE_RESEND_US, to re-send a wake an AP
     * has not taken (smp_kick needs CPL 0), and at the timeout. */
    uint64_t end = rdtsc() + us_to_cyc(timeout_us), resend = us_to_cyc(SMP_WAKE_RESEND_US);
    struct done_wait w = {set, seq, 0, 1};
    for (;;) {
        uint64_t now = rdtsc();
        w.until = now >= end ? now : end - now > resend ? now + resend : end;
        user_run(0, wait_done, &w);
        if (w.next >= smp_ncpu || rdtsc() >= end)
            break;
        /* the CPU waited for has not woken: its wake was lost, once more (only
         * that one: kicking every late CPU of a large set each time would be
         * an IPI storm through the emulated ring 0) */
        if (__atomic_load_n(&smp_percpu[w.next].woke_seq, __ATOMIC_ACQUIRE) != seq[w.next])
            smp_kick(w.next);
    }
    int rc = 0;
    for (unsigned i = w.next; i < smp_ncpu; i++) {
        if (!smp_set_has(set, i))
            continue;
        struct percpu *pc = &smp_percpu[i];
        if (__atomic_load_n(&pc->done_seq, __ATOMIC_ACQUIRE) != seq[i]) {
            pc->info.state = SMP_CPU_STUCK;
            kprintf("smp: CPU %u (APIC ID %u) did not %s its work within %llu ms: "
                    "marked stuck, no more work for it\n",
                    i, pc->info.apic_id,
                    __atomic_load_n(&pc->woke_seq, __ATOMIC_ACQUIRE) == seq[i] ? "finish"
                                                                               : "wake for",
                    (unsigned long long)(timeout_us / 1000));
            rc = -1;
        }
    }
    return rc;
}

void smp_barrier_init(struct smp_barrier *b, unsigned parties)
{
    memset(b, 0, sizeof(*b));
    b->parties = parties;
    b->left = parties;
}

/* The barrier; the last arrival stores its TSC + lead_cyc in b->go before
 * the release (lead_cyc 0: go is left alone). */
static bool barrier_wait(struct smp_barrier *b, unsigned cpu, uint64_t timeout_cyc,
                         uint64_t lead_cyc)
{
    uint32_t mine = b->local[cpu % HZ_MAX_CPUS] ^= 1; /* the sense that ends this round */
    if (__atomic_load_n(&b->broken, __ATOMIC_ACQUIRE))
        return false;
    if (__atomic_sub_fetch(&b->left, 1, __ATOMIC_ACQ_REL) == 0) {
        b->left = b->parties; /* before the release below: next round starts clean */
        if (lead_cyc)
            b->go = rdtsc() + lead_cyc;
        __atomic_store_n(&b->sense, mine, __ATOMIC_RELEASE);
        return true;
    }
    uint64_t start = rdtsc();
    while (__atomic_load_n(&b->sense, __ATOMIC_ACQUIRE) != mine) {
        if (__atomic_load_n(&b->broken, __ATOMIC_ACQUIRE))
            return false;
        if (rdtsc() - start > timeout_cyc) {
            __atomic_store_n(&b->broken, 1, __ATOMIC_RELEASE);
            return false;
        }
        cpu_relax();
    }
    return true;
}

bool smp_barrier_wait(struct smp_barrier *b, unsigned cpu, uint64_t timeout_cyc)
{
    return barrier_wait(b, cpu, timeout_cyc, 0);
}

bool smp_barrier_start(struct smp_barrier *b, unsigned cpu, uint64_t timeout_cyc, uint64_t lead_cyc,
                       bool *late)
{
    *late = false;
    if (!barrier_wait(b, cpu, timeout_cyc, lead_cyc))
        return false;
    if (!lead_cyc)
        return true;
    uint64_t go = b->go; /* stored before the release the barrier acquired */
    *late = rdtsc() >= go;
    while (rdtsc() < go)
        ;
    return true;
}
