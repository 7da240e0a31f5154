/*
 * measure/time_lost.c - SMIs and large TSC gaps per timed cell
 * (measure/time_lost.h): the gap rule (portable) and, in the kernel, the
 * MSR_SMI_COUNT read and the run's `time_lost` record.
 */
#include "measure/time_lost.h"
#include "lib/record.h"

uint64_t tl_repeat(struct time_lost *t, uint64_t span_ns, bool timed)
{
    uint64_t gap = 0;
    if (timed && t->fastest_ns && span_ns / 2 > t->fastest_ns &&
        span_ns - t->fastest_ns > TL_GAP_NS) {
        gap = span_ns - t->fastest_ns;
        t->gaps++;
        t->gap_total_ns += gap;
        t->gap_max_ns = gap > t->gap_max_ns ? gap : t->gap_max_ns;
    }
    if (!t->fastest_ns || span_ns < t->fastest_ns)
        t->fastest_ns = span_ns;
    return gap;
}

void tl_rec_members(struct rec *r, const struct time_lost *t)
{
    if (t->smi_known)
        rec_u64(r, "smi", t->smi);
    else
        rec_str(r, "smi", 0);
    rec_obj_begin(r, "gaps");
    rec_u64(r, "count", t->gaps);
    rec_u64(r, "total_ns", t->gap_total_ns);
    rec_u64(r, "max_ns", t->gap_max_ns);
    rec_obj_end(r);
}

#ifndef HZ_HOSTED
#include "arch/cpu.h"
#include "arch/msr.h"
#include "lib/fmt.h"
#include "lib/kstring.h"
#include "lib/print.h"

#define MSR_SMI_COUNT 0x34u

static int smi_state; /* 0 not probed, 1 readable, -1 not */

bool tl_smi_read(uint64_t *v)
{
    if (!smi_state) {
        uint64_t x;
        bool intel = strcmp(cpu_ident()->vendor, "GenuineIntel") == 0;
        bool msr = (cpu_leaf_reg(1, 0, CPUID_EDX) >> 5) & 1; /* CPUID.01H:EDX[5] MSR */
        smi_state = intel && msr && msr_read_safe(MSR_SMI_COUNT, &x) == 0 ? 1 : -1;
    }
    *v = 0;
    return smi_state > 0 && msr_read_safe(MSR_SMI_COUNT, v) == 0;
}

static struct {
    unsigned cells, smi_known, smi_cells, gap_cells, gaps;
    uint64_t smi, gap_total_ns, gap_max_ns;
    char smi_id[TL_NAMES][64], gap_id[TL_NAMES][64];
} run;

void tl_run_add(const char *id, const struct time_lost *t)
{
    run.cells++;
    run.smi_known += t->smi_known;
    run.smi += t->smi;
    if (t->smi && run.smi_cells++ < TL_NAMES)
        hz_snprintf(run.smi_id[run.smi_cells - 1], sizeof(run.smi_id[0]), "%s", id);
    if (t->gaps && run.gap_cells++ < TL_NAMES)
        hz_snprintf(run.gap_id[run.gap_cells - 1], sizeof(run.gap_id[0]), "%s", id);
    run.gaps += t->gaps;
    run.gap_total_ns += t->gap_total_ns;
    run.gap_max_ns = t->gap_max_ns > run.gap_max_ns ? t->gap_max_ns : run.gap_max_ns;
}

void tl_run_record(const char *scenario)
{
    char buf[HZ_RECORD_MAX];
    struct rec r;
    bool smi = run.cells && run.smi_known == run.cells;
    rec_begin(&r, buf, sizeof(buf), "time_lost");
    rec_str(&r, "scenario", scenario);
    rec_u64(&r, "cells", run.cells);
    rec_str(&r, "smi_source", smi ? "MSR_SMI_COUNT (0x34)" : 0);
    if (smi)
        rec_u64(&r, "smi", run.smi);
    else
        rec_str(&r, "smi", 0);
    rec_u64(&r, "smi_cells", run.smi_cells);
    rec_arr_begin(&r, "smi_cell_ids");
    for (unsigned i = 0; i < run.smi_cells && i < TL_NAMES; i++)
        rec_str(&r, 0, run.smi_id[i]);
    rec_arr_end(&r);
    rec_u64(&r, "gap_threshold_ns", TL_GAP_NS);
    rec_u64(&r, "gaps", run.gaps);
    rec_u64(&r, "gap_total_ns", run.gap_total_ns);
    rec_u64(&r, "gap_max_ns", run.gap_max_ns);
    rec_u64(&r, "gap_cells", run.gap_cells);
    rec_arr_begin(&r, "gap_cell_ids");
    for (unsigned i = 0; i < run.gap_cells && i < TL_NAMES; i++)
        rec_str(&r, 0, run.gap_id[i]);
    rec_arr_end(&r);
    record_emit(&r);
    if (run.gaps || run.smi)
        kprintf("%s: time taken away: %u gap(s) over %llu ms (longest %llu ms) in %u cell(s), "
                "%llu SMI(s) in %u cell(s)\n",
                scenario, run.gaps, (unsigned long long)(run.gap_total_ns / 1000000),
                (unsigned long long)(run.gap_max_ns / 1000000), run.gap_cells,
                (unsigned long long)run.smi, run.smi_cells);
    memset(&run, 0, sizeof(run));
}
#endif
