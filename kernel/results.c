/*
 * kernel/results.c - check results, the summary record and the end of a run.
 */
#include "kernel/results.h"
#include "arch/console.h"
#include "arch/cpu.h"
#include "arch/steal.h"
#include "arch/x86.h"
#include "kernel/lava.h"
#include "kernel/power.h"
#include "kernel/smp.h"
#include "kernel/verdict.h"
#include "lib/cmdline.h"
#include "lib/fmt.h"
#include "lib/print.h"
#include "lib/stats.h"

static unsigned n_pass, n_fail, n_skip;
static volatile int exiting;

enum { EXIT_AUTO, EXIT_HALT, EXIT_REBOOT, EXIT_POWEROFF };
static const char *const exit_choices[] = {"auto", "halt", "reboot", "poweroff", 0};
static int on_exit_mode = EXIT_AUTO;
HZ_OPTION(
    opt_on_exit, .name = "on_exit", .kind = OPT_ENUM, .dest = &on_exit_mode,
    .choices = exit_choices, .accepted = "auto|halt|reboot|poweroff",
    .help = "what to do at the end: auto = QEMU isa-debug-exit under a hypervisor, else halt");

/* Print one check record; reason may be NULL (pass). */
static void emit(const char *type, const char *name, const char *reason)
{
    char buf[HZ_RECORD_MAX];
    struct rec r;
    rec_begin(&r, buf, sizeof(buf), type);
    rec_str(&r, "name", name);
    if (reason) {
        rec_str(&r, "reason", reason);
        kprintf("%s: %s: %s\n", type, name, reason);
    }
    record_emit(&r);
}

void result_pass(const char *name)
{
    __atomic_fetch_add(&n_pass, 1, __ATOMIC_RELAXED);
    emit("pass", name, 0);
}

#define EMIT_FORMATTED(type, counter)                                                              \
    do {                                                                                           \
        char reason[256];                                                                          \
        va_list ap;                                                                                \
        __atomic_fetch_add(&counter, 1, __ATOMIC_RELAXED);                                         \
        va_start(ap, fmt);                                                                         \
        hz_vsnprintf(reason, sizeof(reason), fmt, ap);                                             \
        va_end(ap);                                                                                \
        emit(type, name, reason);                                                                  \
    } while (0)

void result_fail(const char *name, const char *fmt, ...) { EMIT_FORMATTED("fail", n_fail); }
void result_skip(const char *name, const char *fmt, ...) { EMIT_FORMATTED("skip", n_skip); }

enum hz_status result_status(void)
{
    if (n_fail)
        return HZ_FAIL;
    if (n_skip && !n_pass)
        return HZ_SKIPPED;
    return HZ_PASS;
}

const char *status_name(enum hz_status s)
{
    static const char *const names[] = {"pass", "fail", "skipped", "config", "crash"};
    return (unsigned)s < 5 ? names[s] : "unknown";
}

static _Noreturn void halt_forever(void)
{
    for (;;) {
        cli();
        hlt();
    }
}

_Noreturn void hz_exit(enum hz_status s)
{
    if (__atomic_exchange_n(&exiting, 1, __ATOMIC_ACQ_REL))
        halt_forever();
    smp_pv_teardown(); /* nothing of KVM's PV state outlives the run: `steal` records */
    if (verdict_armed() && (s == HZ_PASS || s == HZ_FAIL)) /* scenarios ran, no crash */
        verdict_report(); /* before the summary, which stays the last record */
    char buf[HZ_RECORD_MAX];
    struct rec r;
    rec_begin(&r, buf, sizeof(buf), "summary");
    rec_u64(&r, "pass", n_pass);
    rec_u64(&r, "fail", n_fail);
    rec_u64(&r, "skip", n_skip);
    rec_u64(&r, "status", (uint64_t)s);
    rec_str(&r, "status_name", status_name(s));
    uint64_t base, lost;
    if (steal_total(&base, &lost)) { /* the measured cells' share the host took */
        rec_str(&r, "steal_method", steal_method());
        rec_fixed(&r, "steal_pct", stats_pct_x100(lost, base), 2);
    }
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
