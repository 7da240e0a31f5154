/*
 * kernel/verdict.c - the cells of this run, the `backing=` option, the
 * verdict block and `verdict` records (kernel/verdict.h).
 */
#include "kernel/verdict.h"
#include "arch/cpu.h"
#include "arch/steal.h"
#include "arch/tsc.h"
#include "arch/user.h"
#include "kernel/exit.h"
#include "kernel/scenario.h"
#include "kernel/smp.h"
#include "lib/cmdline.h"
#include "lib/compare_record.h"
#include "lib/fmt.h"
#include "lib/kstring.h"
#include "lib/print.h"
#include "lib/record.h"
#include "lib/verdict_text.h"

static struct vd_cell cells[VERDICT_MAX_CELLS];
static uint64_t cell_samples[VERDICT_MAX_CELLS][CMP_MAX_N]; /* verdict_add()'s copies */
static size_t ncells, dropped;
static bool armed, complete;

static bool early_exit_opt;
HZ_OPTION(opt_verdict_selftest, .name = "verdict_early_exit", .kind = OPT_FLAG,
          .dest = &early_exit_opt, .accepted = "verdict_early_exit",
          .help = "end the run with status fail as the first cell reaches the verdict, inside "
                  "its scenario: tests the verdict of a run ended early");

static uint64_t tolerance_opt = CMP_TOL_X100 / 100;
HZ_OPTION(opt_tolerance, .name = "tolerance", .kind = OPT_U64, .dest = &tolerance_opt, .min = 1,
          .max = 50, .accepted = "1..50",
          .help = "percent within which two cells count as a tie in the verdict's comparisons "
                  "(lib/compare.h; default 5)");

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
    if (ncells >= VERDICT_MAX_CELLS) {
        dropped++;
        return;
    }
    size_t n = c->samples ? c->nsamples : 0;
    n = n > CMP_MAX_N ? CMP_MAX_N : n;
    if (n)
        memcpy(cell_samples[ncells], c->samples, n * sizeof(uint64_t));
    cells[ncells] = *c;
    cells[ncells].samples = cell_samples[ncells];
    cells[ncells++].nsamples = n;
    if (early_exit_opt) {
        result_fail("verdict.early_exit", "verdict_early_exit: the run ended on purpose after "
                                          "its first cell, inside its scenario");
        hz_exit(HZ_FAIL);
    }
}

unsigned verdict_tolerance_x100(void) { return (unsigned)tolerance_opt * 100; }

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

/* Where the item came from: its scenarios and cells' short ids. */
static void emit_source(struct rec *r, const struct vd_item *it)
{
    char src[256];
    rec_bool(r, "measured", it->measured);
    rec_arr_begin(r, "measured_by");
    for (const char *p = it->measured_by; p && *p;) {
        char one[24];
        const char *e = strchr(p, ',');
        hz_snprintf(one, sizeof(one), "%.*s", e ? (int)(e - p) : (int)strlen(p), p);
        rec_str(r, 0, one);
        p = e ? e + 1 : 0;
    }
    rec_arr_end(r);
    rec_arr_begin(r, "scenarios");
    for (unsigned i = 0; i < it->ncells; i++) {
        unsigned j = 0;
        while (j < i && strcmp(it->cell_run[j], it->cell_run[i]) != 0)
            j++;
        if (j == i)
            rec_str(r, 0, it->cell_run[i]);
    }
    rec_arr_end(r);
    rec_str(r, "source", vd_item_source(it, src, sizeof(src)) ? src : 0);
}

/* The item's extra figures and template arguments. */
static void emit_figures(struct rec *r, const struct vd_item *it)
{
    char sz[16];
    rec_arr_begin(r, "figures");
    for (unsigned i = 0; i < it->nextra; i++) {
        const struct vd_extra *e = &it->extra[i];
        rec_obj_begin(r, 0);
        rec_str(r, "name", e->name);
        rec_str(r, "unit", e->unit);
        rec_fixed(r, "value", e->x1000, 3);
        rec_fixed(r, "lo", e->lo_x1000, 3);
        rec_fixed(r, "hi", e->hi_x1000, 3);
        rec_fixed(r, "cover_pct", e->cover_x100, 2);
        rec_str(r, "outcome", e->outcome >= 0 ? cmp_outcome_name((enum cmp_outcome)e->outcome) : 0);
        rec_str(r, "chunk", e->chunk ? fmt_size(sz, sizeof(sz), e->chunk) : 0);
        rec_obj_end(r);
    }
    rec_arr_end(r);
    rec_obj_begin(r, "args");
    for (unsigned i = 0; i < it->nargs; i++) {
        const struct vd_arg *a = &it->args[i];
        if (a->s || a->size)
            rec_str(r, a->key, a->s ? a->s : fmt_size(sz, sizeof(sz), a->u));
        else
            rec_u64(r, a->key, a->u);
    }
    rec_obj_end(r);
}

/* The trust item's members. */
static void emit_trust(struct rec *r, const struct vd_trust *t, const struct vd_facts *f)
{
    rec_bool(r, "tcg", f->tcg);
    rec_str(r, "hypervisor", f->hypervisor);
    rec_str(r, "tsc_source", f->tsc_source);
    rec_bool(r, "tsc_invariant", f->tsc_invariant);
    rec_str(r, "backing", f->backing);
    rec_u64(r, "cpl", (uint64_t)f->cpl);
    rec_bool(r, "emulated_ring0", f->emulated_ring0);
    if (f->steal_known)
        rec_fixed(r, "steal_pct", f->steal_x100, 2);
    else
        rec_str(r, "steal_pct", 0);
    rec_str(r, "steal_why", f->steal_known ? 0 : f->steal_why);
    rec_str(r, "worst_steal_cell", t->worst_steal_cell[0] ? t->worst_steal_cell : 0);
    rec_fixed(r, "worst_steal_pct", t->worst_steal_x100, 2);
    rec_fixed(r, "worst_cv_pct", t->worst_cv_x100, 2);
    rec_arr_begin(r, "worst_cells");
    for (unsigned i = 0; i < t->nworst; i++)
        rec_str(r, 0, t->worst[i]);
    rec_arr_end(r);
    rec_u64(r, "noisy_cells", t->noisy_cells);
    rec_u64(r, "left_out_cells", t->left_out);
    rec_u64(r, "outlier_cells", t->outlier_cells);
    rec_u64(r, "bad_samples", t->bad_samples);
    rec_u64(r, "smi", t->smi);
    rec_u64(r, "smi_cells", t->smi_cells);
    rec_u64(r, "gap_cells", t->gap_cells);
    rec_u64(r, "gap_max_ns", t->gap_max_ns);
    rec_str(r, "gap_max_cell", t->gap_max_cell[0] ? t->gap_max_cell : 0);
    rec_u64(r, "cells_seen", t->cells);
    rec_u64(r, "cells_dropped", dropped);
}

static void emit(const struct vd_item *it, const struct vd_trust *t, const struct vd_facts *f)
{
    char buf[HZ_RECORD_MAX];
    struct rec r;
    rec_begin(&r, buf, sizeof(buf), "verdict");
    rec_str(&r, "item", it->item);
    rec_str(&r, "label", it->label);
    rec_str(&r, "form", it->form);
    rec_bool(&r, "decided", it->decided);
    rec_str(&r, "outcome", it->outcome >= 0 ? cmp_outcome_name((enum cmp_outcome)it->outcome) : 0);
    rec_str(&r, "reason", it->reason ? vd_reason_name(it->reason) : 0);
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
    if (it->baseline[0] && it->base_x1000)
        rec_fixed(&r, "baseline_figure", it->base_x1000, 3);
    else
        rec_str(&r, "baseline_figure", 0);
    static const char *const rk[] = {"ratio", "ratio_min", "ratio_max", "ratio_lo", "ratio_hi"};
    const uint64_t rv[] = {it->ratio_x1000, it->rmin_x1000, it->rmax_x1000, it->rlo_x1000,
                           it->rhi_x1000};
    for (unsigned i = 0; i < 5; i++)
        if (it->baseline[0] && it->ratio_x1000)
            rec_fixed(&r, rk[i], rv[i], 3);
        else
            rec_str(&r, rk[i], 0);
    if (it->n_max) {
        rec_u64(&r, "n_min", it->n_min);
        rec_u64(&r, "n_max", it->n_max);
    } else {
        rec_str(&r, "n_min", 0);
        rec_str(&r, "n_max", 0);
    }
    rec_fixed(&r, "tol_pct", f->tol_x100 ? f->tol_x100 : CMP_TOL_X100, 2);
    rec_str(&r, "set", it->set);
    rec_arr_begin(&r, "cells");
    for (unsigned i = 0; i < it->ncells; i++)
        rec_str(&r, 0, it->cells[i]);
    rec_arr_end(&r);
    if (it->set) {
        rec_arr_begin(&r, "leaders");
        for (unsigned i = 0; i < it->nleaders; i++)
            rec_str(&r, 0, it->cells[i]);
        rec_arr_end(&r);
    }
    emit_source(&r, it);
    emit_figures(&r, it);
    if (it->templates) /* its own words (lib/verdict.h vd_item_def: they fit) */
        vd_templates_rec(&r, it->templates);
    if (it->def && it->def->model && it->unit) /* decided or not: a model */
        rec_bool(&r, "model", it->model);
    else if (it->def && it->def->model)
        rec_str(&r, "model", 0);
    if (it->def && it->def->facts)
        emit_trust(&r, t, f);
    rec_str(&r, "run_text", f->run); /* `run` is the host's run index */
    rec_str(&r, "profile", scenario_run_name());
    record_emit(&r);
}

void verdict_facts(struct vd_facts *f)
{
    uint64_t base, lost;
    *f = (struct vd_facts){.run = scenario_run_text(),
                           .ran = scenario_ran(),
                           .tcg = cpu_is_tcg(),
                           .hypervisor = hypervisor_name(),
                           .tsc_source = tsc_info()->source,
                           .tsc_invariant = tsc_info()->invariant,
                           .cpu_vendor = cpu_ident()->vendor,
                           .cpu_family = cpu_ident()->family,
                           .cpu_model = cpu_ident()->model,
                           .backing = verdict_backing(backing_names[backing_opt]),
                           .cpl = user_cpl(),
                           .emulated_ring0 = user_ring0_emulated(),
                           .tol_x100 = verdict_tolerance_x100()};
    if (steal_total(&base, &lost)) {
        f->steal_known = true;
        f->steal_x100 = stats_pct_x100(lost, base);
    } else
        f->steal_why = STEAL_UNKNOWN_WHY;
}

/* One `compare` record per comparison the verdict made. */
static void emit_compare(const struct vd_cmp *m)
{
    char buf[HZ_RECORD_MAX], a[VD_ID_MAX], b[VD_ID_MAX];
    struct rec r;
    vd_cell_id(&cells[m->a], a, sizeof(a));
    vd_cell_id(&cells[m->b], b, sizeof(b));
    rec_begin(&r, buf, sizeof(buf), "compare");
    rec_str(&r, "item", m->item);
    rec_str(&r, "a", a);
    rec_str(&r, "b", b);
    rec_fixed(&r, "ratio", m->c.ratio_x1e6, 6);
    rec_fixed(&r, "lo", m->c.lo_x1e6, 6);
    rec_fixed(&r, "hi", m->c.hi_x1e6, 6);
    rec_cmp_members(&r, &m->c);
    record_emit(&r);
}

/* The decision, run at the measurement CPL (user_run: a pure function). */
struct decide_job {
    const struct vd_facts *f;
    struct vd_item *items;
    struct vd_trust *t;
    struct vd_log *log;
    size_t nitems; /* out: the items decided */
};

static void decide_job(void *arg)
{
    struct decide_job *j = arg;
    j->nitems = verdict_decide(cells, ncells, j->f, j->items, j->t, j->log);
}

void verdict_report(void)
{
    static struct vd_item items[VD_MAX_ITEMS];
    static struct vd_log log;
    static struct vd_trust t;
    struct vd_facts f;
    verdict_facts(&f);
    struct decide_job job = {&f, items, &t, &log, 0};
    user_run(0, decide_job, &job);
    char line[VD_LINES_MAX];
    vd_header_line(&f, line, sizeof(line));
    kprintf("\n%s\n", line);
    for (size_t i = 0; i < job.nitems; i++) {
        vd_item_lines(&items[i], &f, &t, line, sizeof(line));
        kprintf("%s", line);
    }
    if (dropped)
        kprintf("  (%zu cells past the first %u were left out)\n", dropped, VERDICT_MAX_CELLS);
    if (log.lost)
        kprintf("  (%zu comparisons past the first %u have no compare record)\n", log.lost,
                VD_MAX_CMPS);
    for (size_t i = 0; i < job.nitems; i++) /* after the block, so it reads whole */
        emit(&items[i], &t, &f);
    for (size_t i = 0; i < log.n; i++)
        emit_compare(&log.v[i]);
}

void verdict_run_complete(void) { complete = true; }

const char *verdict_at_exit(enum hz_status s, const char **state)
{
    static char why[96];
    *state = "none";
    if (!armed)
        return "no scenario ran";
    if (s != HZ_PASS && s != HZ_FAIL)
        hz_snprintf(why, sizeof(why), "the run ended with status %s%s", status_name(s),
                    s == HZ_CRASH ? ": nothing after the crash is trusted" : "");
    else if (smp_cpu_index() != 0)
        hz_snprintf(why, sizeof(why), "the run was ended on CPU %u, not the boot CPU",
                    smp_cpu_index());
    else
        why[0] = 0;
    if (why[0]) {
        kprintf("\n== verdict: none (run=%s): %s\n", scenario_run_text(), why);
        return why;
    }
    *state = complete ? "made" : "partial";
    if (!complete)
        kprintf("\nverdict: the run ended early (status %s) inside a scenario (started: %s): the "
                "verdict below uses only what was measured before\n",
                status_name(s), scenario_ran());
    verdict_report();
    return complete ? 0 : "the run ended early, inside a scenario: from the cells measured before";
}
