/*
 * kernel/exit.c - the summary record and the end of a run.
 */
#include "kernel/exit.h"
#include "arch/console.h"
#include "arch/cpu.h"
#include "arch/steal.h"
#include "arch/x86.h"
#include "kernel/lava.h"
#include "kernel/power.h"
#include "kernel/smp.h"
#include "lib/cmdline.h"
#include "lib/print.h"
#include "lib/record.h"
#include "lib/stats.h"

static volatile int exiting;
static volatile int in_verdict;   /* hz_exit is deciding the verdict */
static hz_exit_hook verdict_hook; /* hz_exit_set_hook() */

void hz_exit_set_hook(hz_exit_hook h) { verdict_hook = h; }

enum { EXIT_AUTO, EXIT_HALT, EXIT_REBOOT, EXIT_POWEROFF };
static const char *const exit_choices[] = {"auto", "halt", "reboot", "poweroff", 0};
static int on_exit_mode = EXIT_AUTO;
HZ_OPTION(
    opt_on_exit, .name = "on_exit", .kind = OPT_ENUM, .dest = &on_exit_mode,
    .choices = exit_choices, .accepted = "auto|halt|reboot|poweroff",
    .help = "what to do at the end: auto = QEMU isa-debug-exit under a hypervisor, else halt");

static _Noreturn void halt_forever(void)
{
    for (;;) {
        cli();
        hlt();
    }
}

static _Noreturn void finish(enum hz_status s, const char *verdict, const char *why);

_Noreturn void hz_exit(enum hz_status s)
{
    if (__atomic_exchange_n(&exiting, 1, __ATOMIC_ACQ_REL)) {
        /* the verdict crashed (the crash hook calls hz_exit again): the
         * summary still goes out, with status crash */
        if (s == HZ_CRASH && __atomic_exchange_n(&in_verdict, 0, __ATOMIC_ACQ_REL))
            finish(s, "none", "the verdict itself crashed");
        halt_forever();
    }
    smp_pv_teardown(); /* nothing of KVM's PV state outlives the run: `steal` records */
    const char *state = "none", *why = "no verdict hook set";
    in_verdict = 1;
    if (verdict_hook) /* after the steal records, before the summary */
        why = verdict_hook(s, &state);
    in_verdict = 0;
    finish(s, state, why);
}

/* The summary record, the status line and the way out (on_exit=). */
static _Noreturn void finish(enum hz_status s, const char *verdict, const char *why)
{
    char buf[HZ_RECORD_MAX];
    struct rec r;
    rec_begin(&r, buf, sizeof(buf), "summary");
    unsigned n_pass, n_fail, n_skip;
    result_counts(&n_pass, &n_fail, &n_skip);
    rec_u64(&r, "pass", n_pass);
    rec_u64(&r, "fail", n_fail);
    rec_u64(&r, "skip", n_skip);
    rec_u64(&r, "status", (uint64_t)s);
    rec_str(&r, "status_name", status_name(s));
    uint64_t base, lost;
    if (steal_total(&base, &lost)) { /* the measured cells' share the host took */
        rec_str(&r, "steal_method", steal_method());
        rec_fixed(&r, "steal_pct", stats_pct_x100(lost, base), 2);
    } else
        rec_str(&r, "steal_why", STEAL_UNKNOWN_WHY);
    rec_str(&r, "verdict", verdict);
    if (why)
        rec_str(&r, "verdict_why", why);
    console_rec_summary(&r); /* records, crc32, uart: the parser checks the stream */
    record_emit(&r);
    lava_print(); /* results=lava: after the last record, before the status line */
    kprintf("hugezero: exit status %d (%s)\n", (int)s, status_name(s));
    console_flush(); /* a slow reader gets the last line before the machine stops */

    switch (on_exit_mode) {
    case EXIT_AUTO:
        if (cpu_has(X86_FEATURE_HYPERVISOR))
            power_qemu_exit((unsigned)s);
        break;
    case EXIT_REBOOT:
        power_reboot();
        break;
    case EXIT_POWEROFF:
        power_off();
        break;
    default:
        break;
    }
    kprintf("hugezero: halted\n");
    halt_forever();
}
