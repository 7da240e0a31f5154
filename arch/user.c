/*
 * arch/user.c - measurement CPL: per-CPU user stacks and the ring choice.
 */
#include "arch/user.h"
#include "arch/clear.h"
#include "arch/cpu.h"
#include "arch/gdt.h"
#include "arch/trap.h"
#include "arch/tsc.h"
#include "lib/cmdline.h"
#include "lib/kstring.h"
#include "lib/print.h"
#include "lib/record.h"

#define PROBE_BYTES 65536u

static int cpl_opt;
static const char *const cpl_choices[] = {"auto", "0", "3", 0};
HZ_OPTION(opt_cpl, .name = "cpl", .kind = OPT_ENUM, .dest = &cpl_opt, .choices = cpl_choices,
          .accepted = "auto|0|3",
          .help = "privilege level of measured memory work (auto: 3 when ring 0 is emulated)");

static int cpl;
static uint64_t stacks[HZ_MAX_CPUS]; /* base of each CPU's two stacks, 0: none */
static uint8_t bsp_stacks[USER_CPU_STACK_BYTES] __attribute__((aligned(4096)));
static bool ring0_emulated; /* user_ring0_emulated() */
static uint8_t probe[PROBE_BYTES] __attribute__((aligned(4096)));

int user_cpl(void) { return cpl; }

void user_set_stacks(unsigned cpu, uint64_t base)
{
    if (cpu > 0 && cpu < HZ_MAX_CPUS)
        stacks[cpu] = base;
}

static uint64_t stack_top(unsigned cpu, unsigned which)
{
    return stacks[cpu] + (which + 1) * USER_STACK_BYTES;
}

static void enter(unsigned cpu, unsigned which, user_fn fn, void *arg)
{
    void *rsp0 = gdt_tss_rsp0(cpu);
    uint64_t saved;
    memcpy(&saved, rsp0, sizeof(saved));
    user_enter(fn, arg, stack_top(cpu, which), rsp0);
    memcpy(rsp0, &saved, sizeof(saved));
}

void user_run(unsigned cpu, user_fn fn, void *arg)
{
    if (cpl == 3 && cpu < HZ_MAX_CPUS && stacks[cpu])
        enter(cpu, 0, fn, arg);
    else
        fn(arg);
}

void user_run_fault(unsigned cpu, user_fn fn, void *arg)
{
    if (cpl == 3 && cpu < HZ_MAX_CPUS && stacks[cpu])
        enter(cpu, 1, fn, arg);
    else
        fn(arg);
}

/* #UD at user_return from CPL 3: the end of a user_enter call. The CPU
 * pushed its frame at TSS.RSP0, so RSP0 is just above the trap frame. */
static bool user_ud(struct trap_frame *f)
{
    if ((f->cs & 3) != 3 || f->rip != (uint64_t)(uintptr_t)user_return)
        return false;
    user_unwind((uint64_t)(uintptr_t)(f + 1));
}

static void probe_fn(void *arg)
{
    uint64_t *cyc = arg, best = UINT64_MAX;
    for (int i = 0; i < 3; i++) {
        uint64_t t0 = tsc_start();
        clear_movq_unroll(probe, PROBE_BYTES);
        uint64_t t = tsc_stop() - t0;
        if (t < best)
            best = t;
    }
    *cyc = best;
}

bool user_ring0_emulated(void) { return ring0_emulated; }

int user_init(void)
{
    trap_set_handler(6, user_ud);
    stacks[0] = (uint64_t)(uintptr_t)bsp_stacks;
    uint64_t r0 = 0, r3 = 0;
    probe_fn(&r0);
    cpl = 3;
    user_run(0, probe_fn, &r3);
    ring0_emulated = r0 > RING0_EMULATED_RATIO * r3;
    cpl = cpl_opt == 1 ? 0 : cpl_opt == 2 ? 3 : (ring0_emulated ? 3 : 0);
    kprintf("user: 64 KiB of stores: %llu cycles at CPL 0, %llu at CPL 3: measuring at CPL %d%s\n",
            (unsigned long long)r0, (unsigned long long)r3, cpl,
            ring0_emulated ? " (ring 0 is emulated by the hypervisor)" : "");
    char buf[HZ_RECORD_MAX];
    struct rec r;
    rec_begin(&r, buf, sizeof(buf), "measure");
    rec_u64(&r, "cpl", (uint64_t)cpl);
    rec_str(&r, "choice", cpl_choices[cpl_opt]);
    rec_u64(&r, "probe_bytes", PROBE_BYTES);
    rec_u64(&r, "cpl0_cyc", r0);
    rec_u64(&r, "cpl3_cyc", r3);
    rec_bool(&r, "emulated_ring0", ring0_emulated);
    record_emit(&r);
    return cpl;
}
