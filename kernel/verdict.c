/*
 * kernel/verdict.c - the cells of this run, the `backing=` option, the
 * verdict block and `verdict` records (kernel/verdict.h).
 */
#include "kernel/verdict.h"
#include "arch/cpu.h"
#include "arch/steal.h"
#include "arch/tsc.h"
#include "arch/user.h"
#include "kernel/console.h"
#include "kernel/scenario.h"
#include "lib/cmdline.h"
#include "lib/fmt.h"
#include "lib/kstring.h"
#include "lib/record.h"

static struct vd_cell cells[VERDICT_MAX_CELLS];
static size_t ncells, dropped;
static bool armed;

static const char *const backing_names[] = {"unknown",      "4k",           "thp",
                                            "hugetlbfs-2M", "hugetlbfs-1G", 0};
static int backing_opt;
HZ_OPTION(
    opt_backing, .name = "backing", .kind = OPT_ENUM, .dest = &backing_opt,
    .choices = backing_names, .accepted = "unknown|4k|thp|hugetlbfs-2M|hugetlbfs-1G",
    .help = "how the host backs guest RAM (informational; hz run passes it; default unknown)");

void verdict_arm(void) { armed = true; }
bool verdict_armed(void) { return armed; }

void verdict_add(const struct vd_cell *c)
{
    if (ncells < VERDICT_MAX_CELLS)
        cells[ncells++] = *c;
    else
        dropped++;
}

const char *verdict_backing(const char *given)
{
    if (given && given[0] && strcmp(given, "unknown") != 0)
        return given;
    return cpu_has(X86_FEATURE_HYPERVISOR) ? "unknown" : "bare metal";
}

/* CPUID 0x40000000 signatures as names ("" stays "": bare metal). */
static const char *hypervisor_name(void)
{
    static const char *const sig[][2] = {{"KVMKVMKVM", "KVM"},        {"TCGTCGTCGTCG", "TCG"},
                                         {"Microsoft Hv", "Hyper-V"}, {"VMwareVMware", "VMware"},
                                         {"XenVMMXenVMM", "Xen"},     {"ACRNACRNACRN", "ACRN"}};
    const char *h = cpu_ident()->hypervisor;
    for (unsigned i = 0; i < sizeof(sig) / sizeof(sig[0]); i++)
        if (strncmp(h, sig[i][0], strlen(sig[i][0])) == 0)
            return sig[i][1];
    return h;
}

static void emit(const struct vd_item *it, const struct vd_trust *t, const struct vd_facts *f)
{
    char buf[HZ_RECORD_MAX];
    struct rec r;
    rec_begin(&r, buf, sizeof(buf), "verdict");
    rec_str(&r, "item", it->item);
    rec_bool(&r, "decided", it->decided);
    rec_str(&r, "text", it->decided ? it->text : it->reason);
    rec_str(&r, "answer", it->answer[0] ? it->answer : 0);
    if (it->unit) {
        rec_fixed(&r, "figure", it->fig_x1000, 3);
        rec_str(&r, "unit", it->unit);
        rec_fixed(&r, "lo", it->lo_x1000, 3);
        rec_fixed(&r, "hi", it->hi_x1000, 3);
    } else {
        rec_str(&r, "figure", 0);
        rec_str(&r, "unit", 0);
        rec_str(&r, "lo", 0);
        rec_str(&r, "hi", 0);
    }
    rec_str(&r, "baseline", it->baseline[0] ? it->baseline : 0);
    if (it->baseline[0] && it->base_x1000) {
        rec_fixed(&r, "baseline_figure", it->base_x1000, 3);
        rec_fixed(&r, "ratio", it->ratio_x100, 2);
    } else {
        rec_str(&r, "baseline_figure", 0);
        rec_str(&r, "ratio", 0);
    }
    rec_arr_begin(&r, "cells");
    for (unsigned i = 0; i < it->ncells; i++)
        rec_str(&r, 0, it->cells[i]);
    rec_arr_end(&r);
    rec_str(&r, "reason", it->decided ? 0 : it->reason);
    if (it->item[0] == 'v' && it->decided) /* vmstart */
        rec_bool(&r, "model", it->model);
    else if (it->item[0] == 'v')
        rec_str(&r, "model", 0);
    if (it->item[0] == 't') { /* trust */
        rec_bool(&r, "tcg", f->tcg);
        rec_str(&r, "hypervisor", f->hypervisor);
        rec_str(&r, "tsc_source", f->tsc_source);
        rec_bool(&r, "tsc_invariant", f->tsc_invariant);
        rec_str(&r, "backing", f->backing);
        rec_u64(&r, "cpl", (uint64_t)f->cpl);
        rec_bool(&r, "emulated_ring0", f->emulated_ring0);
        if (f->steal_known)
            rec_fixed(&r, "steal_pct", f->steal_x100, 2);
        else
            rec_str(&r, "steal_pct", 0);
        rec_fixed(&r, "worst_cv_pct", t->worst_cv_x100, 2);
        rec_arr_begin(&r, "worst_cells");
        for (unsigned i = 0; i < t->nworst; i++)
            rec_str(&r, 0, t->worst[i]);
        rec_arr_end(&r);
        rec_u64(&r, "noisy_cells", t->noisy_cells);
        rec_u64(&r, "cells_seen", t->cells);
        rec_u64(&r, "cells_dropped", dropped);
    }
    rec_str(&r, "profile", f->run);
    record_emit(&r);
}

void verdict_report(void)
{
    static struct vd_item items[VD_NITEMS];
    struct vd_trust t;
    uint64_t base, lost;
    struct vd_facts f = {.run = scenario_run_name(),
                         .tcg = cpu_is_tcg(),
                         .hypervisor = hypervisor_name(),
                         .tsc_source = tsc_info()->source,
                         .tsc_invariant = tsc_info()->invariant,
                         .backing = verdict_backing(backing_names[backing_opt]),
                         .cpl = user_cpl(),
                         .emulated_ring0 = user_ring0_emulated()};
    if (steal_total(&base, &lost)) {
        f.steal_known = true;
        f.steal_x100 = stats_pct_x100(lost, base);
    }
    verdict_decide(cells, ncells, &f, items, &t);
    kprintf("\n== verdict: how this machine should zero memory (run=%s; no item from a noisy or "
            "unverified cell)\n",
            f.run);
    for (unsigned i = 0; i < VD_NITEMS; i++)
        kprintf("  %-12s: %s\n", items[i].label,
                items[i].decided ? items[i].text : items[i].reason);
    if (dropped)
        kprintf("  (%zu cells past the first %u were left out)\n", dropped, VERDICT_MAX_CELLS);
    for (unsigned i = 0; i < VD_NITEMS; i++) /* after the block, so it reads whole */
        emit(&items[i], &t, &f);
}
