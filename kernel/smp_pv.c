/*
 * kernel/smp_pv.c - every CPU's KVM paravirtual state at the end of a run
 * (kernel/smp.h): the ownership.steal check (the host still writes each
 * CPU's steal time into that CPU's own record and nowhere else) and the
 * teardown before the machine is handed on: each CPU writes 0 to the PV
 * MSRs it enabled (arch/kvm_pv.h) and reports it in a `steal` record.
 * RDMSR/WRMSR act on the CPU that runs them, so the work goes to each CPU
 * through smp_run().
 */
#include "arch/kvm_pv.h"
#include "arch/steal.h"
#include "kernel/smp.h"
#include "lib/print.h"
#include "lib/record.h"
#include "lib/results.h"

#define SMP_PV_TIMEOUT_US 2000000 /* for all CPUs together to verify or turn off */

struct pv_cpu {
    bool reached;   /* the CPU ran the function */
    int verify;     /* steal_verify_cpu() */
    unsigned off;   /* PV MSRs turned off */
    unsigned left;  /* PV MSRs still non-zero after writing 0 */
    uint64_t steal; /* steal_ns() before turning off */
    char why[160];
};
static struct pv_cpu pv[HZ_MAX_CPUS];

static void verify_fn(unsigned cpu, void *arg)
{
    (void)arg;
    pv[cpu].verify = steal_verify_cpu(cpu, pv[cpu].why, sizeof(pv[cpu].why));
    __atomic_store_n(&pv[cpu].reached, true, __ATOMIC_RELEASE);
}

static void off_fn(unsigned cpu, void *arg)
{
    (void)arg;
    pv[cpu].off = kvm_pv_off_cpu(cpu, &pv[cpu].left);
    __atomic_store_n(&pv[cpu].reached, true, __ATOMIC_RELEASE);
}

static bool has_steal(unsigned cpu) { return steal_enabled(cpu); }
static bool has_pv(unsigned cpu) { return kvm_pv_enabled_count(cpu) != 0; }

/* fn on every online CPU for which want(cpu): through smp_run() from the
 * BSP; off the BSP (an AP that crashed or exits) or before smp_init() only
 * on the calling CPU. */
static void on_cpus(smp_fn fn, bool (*want)(unsigned))
{
    unsigned me = smp_cpu_index();
    struct smp_set s;
    smp_set_clear(&s);
    for (unsigned i = 0; i < smp_count() && i < HZ_MAX_CPUS; i++) {
        pv[i].reached = false;
        if (smp_cpu(i)->state == SMP_CPU_ONLINE && want(i))
            smp_set_add(&s, i);
    }
    if (me != 0 || !smp_set_count(&s) || smp_run(&s, fn, 0, SMP_PV_TIMEOUT_US) == -2)
        if (want(me))
            fn(me, 0);
}

void smp_pv_check(void)
{
    if (!steal_enabled(0)) {
        result_skip("ownership.steal", "no KVM steal time: the host writes no record");
        return;
    }
    on_cpus(verify_fn, has_steal);
    unsigned n = 0, bad = 0, first = 0, missed = 0;
    for (unsigned i = 0; i < smp_count() && i < HZ_MAX_CPUS; i++) {
        if (!steal_enabled(i))
            continue;
        n++;
        if (!pv[i].reached)
            missed++;
        else if (pv[i].verify < 0 && !bad++)
            first = i;
    }
    if (bad)
        result_fail("ownership.steal", "%u of %u CPUs' steal time goes astray (CPU %u: %s)", bad, n,
                    first, pv[first].why);
    else if (missed)
        result_fail("ownership.steal", "%u of %u CPUs could not be checked (not online, or busy)",
                    missed, n);
    else
        result_pass("ownership.steal");
}

void smp_pv_teardown(void)
{
    on_cpus(off_fn, has_pv);
    unsigned cpus = 0, off = 0, left = 0, unreached = 0;
    char buf[HZ_RECORD_MAX];
    struct rec r;
    for (unsigned i = 0; i < smp_count() && i < HZ_MAX_CPUS; i++) {
        const struct smp_cpu *c = smp_cpu(i);
        bool kvm = steal_enabled(i);
        if (c->state != SMP_CPU_ONLINE && !kvm_pv_enabled_count(i) && !pv[i].reached)
            continue; /* never ran kernel code, or enabled nothing */
        rec_begin(&r, buf, sizeof(buf), "steal");
        rec_u64(&r, "cpu", i);
        rec_str(&r, "method", kvm ? "kvm_steal_time" : "tsc_poll_gaps");
        if (kvm) {
            rec_hex(&r, "record", steal_area(i));
            rec_u64(&r, "steal_ns", steal_ns(i)); /* frozen once off */
        }
        rec_bool(&r, "reached", pv[i].reached);
        rec_u64(&r, "pv_msrs_off", pv[i].off);
        rec_u64(&r, "pv_msrs_left", pv[i].reached ? pv[i].left : kvm_pv_enabled_count(i));
        uint64_t bad;
        const char *why = steal_refused(i, &bad);
        if (why) {
            rec_str(&r, "refused", why);
            rec_hex(&r, "refused_at", bad);
        }
        record_emit(&r);
        cpus++;
        off += pv[i].off;
        left += pv[i].reached ? pv[i].left : kvm_pv_enabled_count(i);
        unreached += !pv[i].reached && kvm_pv_enabled_count(i);
    }
    if (off || left)
        kprintf("pv: %u PV MSR(s) turned off on %u CPU(s)%s\n", off, cpus,
                left ? "; SOME STAY ON (see the steal records: pv_msrs_left)" : "");
    if (unreached)
        kprintf("pv: %u CPU(s) with PV MSRs on could not be reached (stuck, or the exit came "
                "from another CPU): the host may keep writing their records\n",
                unreached);
}
