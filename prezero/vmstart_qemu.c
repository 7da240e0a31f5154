/*
 * prezero/vmstart_qemu.c - run=vmstart's qemu rows and their model
 * (prezero/vmstart.h, docs/prezero.md "The VM-start model"). QEMU starts a
 * VM with preallocated RAM by touching every page from T threads
 * (touch_all_pages(), util/oslib-posix.c, at most 16:
 * MAX_MEM_PREALLOC_THREAD_COUNT); each touch faults and the kernel clears
 * the frame. So a qemu row is policy none with a Linux-faithful fault
 * clear: fault_clear=linux_4k (clear_gigantic_page(), today's kernels) and
 * linux_batch=32M (clear_pages(), January 2026). Its model is
 * lib/vmmodel.h's S / min(T x r1, B) for the claim's 2 TB (`vm_bytes=`)
 * with T = 16, B from the run's plateau, else `bw_ceiling=`, else unknown.
 */
#include "arch/user.h"
#include "kernel/options.h"
#include "kernel/verdict.h"
#include "lib/compare.h"
#include "lib/fmt.h"
#include "lib/print.h"
#include "lib/record.h"
#include "lib/vmmodel.h"
#include "measure/fault_pool.h"
#include "prezero/vmstart.h"

static const struct fault_clear q4k = {FAULT_CLEAR_LINUX_4K, 0};
static const struct fault_clear qbatch = {FAULT_CLEAR_LINUX_BATCH, FAULT_CLEAR_BATCH_DEFAULT};
static char q4k_name[24], qbatch_name[24];

static uint64_t vm_bytes = VM_CLAIM_BYTES;
static bool vm_decimal = true;
static char vm_text[24] = VM_CLAIM_TEXT;
static uint64_t bw_ceiling; /* GB/s x 1000; 0: not given */
static char bw_text[24] = "none";

static int vm_bytes_opt(const struct option *o, const char *v, char *err, size_t n)
{
    if (vm_size_parse(v, &vm_bytes, &vm_decimal, err, n) < 0)
        return -1;
    hz_snprintf(vm_text, sizeof(vm_text), "%s", v);
    return 0;
}

static int bw_opt(const struct option *o, const char *v, char *err, size_t n)
{
    if (vm_gbps_parse(v, &bw_ceiling, err, n) < 0)
        return -1;
    hz_snprintf(bw_text, sizeof(bw_text), "%s", v);
    return 0;
}

HZ_OPTION(opt_vm_bytes, .name = "vm_bytes", .kind = OPT_CUSTOM, .parse = vm_bytes_opt,
          .accepted = "N then TB, GB, TiB or GiB (2TB, 1536GiB)",
          .help = "run=vmstart: the modelled VM size S, in the unit it is written in (default "
                  "2TB, the seed thread's claim)");
HZ_OPTION(opt_bw_ceiling, .name = "bw_ceiling", .kind = OPT_CUSTOM, .parse = bw_opt,
          .accepted = "GB/s, up to 3 decimals (204.8)",
          .help = "run=vmstart: the memory-bandwidth ceiling B of the model when the run reaches "
                  "no plateau (default none: B unknown, a lower bound only)");

uint64_t vs_bw_ceiling_x1000(void) { return bw_ceiling; }

const char *vs_qemu_model(enum vs_kind k)
{
    if (!q4k_name[0]) {
        fault_clear_name(&q4k, q4k_name, sizeof(q4k_name));
        fault_clear_name(&qbatch, qbatch_name, sizeof(qbatch_name));
    }
    return k == VS_Q4K ? q4k_name : k == VS_QBATCH ? qbatch_name : 0;
}

const struct fault_clear *vs_qemu_clear(enum vs_kind k)
{
    return k == VS_Q4K ? &q4k : k == VS_QBATCH ? &qbatch : 0;
}

void vs_model_echo(const struct vs_run *v)
{
    char opt[24], s[24], tol[16];
    fault_clear_name(&v->req.path.clear, opt, sizeof(opt));
    vm_size_text(s, sizeof(s), vm_bytes, vm_decimal);
    fmt_fixed(tol, sizeof(tol), verdict_tolerance_x100(), 2);
    kprintf("vmstart: model options: vm_bytes=%s (S = %s), T = %u (QEMU's cap), bw_ceiling=%s%s, "
            "tolerance=%s%% (the plateau test); fault_clear=%s for the none row, %s and %s for "
            "the qemu rows\n",
            vm_text, s, VM_QEMU_THREADS, bw_text, bw_ceiling ? " GB/s" : "", tol, opt,
            vs_qemu_model(VS_Q4K), vs_qemu_model(VS_QBATCH));
}

static uint64_t scratch[VS_MAX_ROUNDS * VS_MAX_ROUNDS + 2 * VS_MAX_ROUNDS];

/* The plateau test: kind k's cells at T = tmax (B side) against T = tmax - 1
 * (A side), lib/compare.h at the tolerance; -1 with one thread count. */
static int plateau(const struct vs_run *v, struct vs_cell *cells, enum vs_kind k, struct cmp *c)
{
    if (v->tmax < 2)
        return -1;
    const struct vs_cell *a = &cells[k * v->tmax + v->tmax - 2], *b = a + 1;
    cmp_compare(a->wall, a->n, v->bytes, b->wall, b->n, v->bytes, CMP_Z_X1000,
                verdict_tolerance_x100(), scratch, c);
    return (int)c->outcome;
}

void vs_qemu_report(const struct vs_run *v, struct vs_cell *cells, enum vs_kind k,
                    const uint64_t *g)
{
    char buf[HZ_RECORD_MAX], r1s[24], bs[24], ts[24], ss[24], ps[96], tol[16];
    struct rec r;
    struct cmp pc = {0};
    unsigned peak_t = 1;
    for (unsigned t = 2; t <= v->tmax; t++)
        peak_t = g[t - 1] > g[peak_t - 1] ? t : peak_t;
    int po = plateau(v, cells, k, &pc);
    struct vm_model m = {.bytes = vm_bytes, .threads = VM_QEMU_THREADS, .r1_x1000 = g[0]};
    m.src = vm_ceiling(po, g[peak_t - 1], bw_ceiling, &m.b_x1000);
    vm_model_eval(&m);
    const struct vs_cell *c1 = &cells[k * v->tmax];
    if (po < 0)
        hz_snprintf(ps, sizeof(ps), "one thread count: no plateau test");
    else
        hz_snprintf(ps, sizeof(ps), "T=%u vs T=%u: %s %s%s%%", v->tmax, v->tmax - 1,
                    cmp_outcome_name(pc.outcome), pc.outcome == CMP_TIE ? "within +-" : "at +-",
                    (fmt_fixed(tol, sizeof(tol), verdict_tolerance_x100(), 2), tol));

    rec_begin(&r, buf, sizeof(buf), "vmstart_model");
    rec_str(&r, "kind", "model");
    rec_str(&r, "policy", vs_kind_name(v, k));
    rec_str(&r, "fault_clear", vs_qemu_model(k));
    rec_str(&r, "formula", "vm_bytes / min(threads x per_thread_gbps, ceiling_gbps)");
    rec_str(&r, "vm_bytes_text", vm_text);
    rec_u64(&r, "vm_bytes", vm_bytes);
    rec_u64(&r, "threads", VM_QEMU_THREADS);
    rec_fixed(&r, "per_thread_gbps", g[0], 3);
    rec_u64(&r, "faults_per_repeat", c1->n ? c1->faults / c1->n : 0);
    rec_u64(&r, "clear_calls_per_repeat", c1->n ? c1->calls / c1->n : 0);
    rec_str(&r, "ceiling_source", vm_bsrc_key(m.src));
    if (m.src != VM_B_UNKNOWN)
        rec_fixed(&r, "ceiling_gbps", m.b_x1000, 3);
    else
        rec_str(&r, "ceiling_gbps", 0);
    if (bw_ceiling)
        rec_fixed(&r, "bw_ceiling_option", bw_ceiling, 3);
    else
        rec_str(&r, "bw_ceiling_option", 0);
    rec_str(&r, "plateau", po < 0 ? 0 : cmp_outcome_name(pc.outcome));
    rec_u64(&r, "threads_max", v->tmax);
    rec_fixed(&r, "tol_pct", verdict_tolerance_x100(), 2);
    rec_u64_opt(&r, "model_ns", m.ns != UINT64_MAX, m.ns);
    rec_bool(&r, "lower_bound", m.lower_bound);
    rec_bool(&r, "capped", m.capped);
    rec_u64(&r, "claim_bytes", VM_CLAIM_BYTES);
    rec_u64(&r, "claim_min_ns", VM_CLAIM_NS);
    rec_bool(&r, "emulated_ring0", user_ring0_emulated());
    record_emit(&r);

    fmt_fixed(r1s, sizeof(r1s), g[0], 3);
    vm_size_text(ss, sizeof(ss), vm_bytes, vm_decimal);
    if (m.ns == UINT64_MAX)
        hz_snprintf(ts, sizeof(ts), "none (no rate at T=1)");
    else
        fmt_ns(ts, sizeof(ts), m.ns);
    if (m.src == VM_B_UNKNOWN)
        hz_snprintf(bs, sizeof(bs), "unknown");
    else
        fmt_fixed(bs, sizeof(bs), m.b_x1000, 3);
    kprintf("vmstart: MODEL %s (fault_clear=%s): t = S / min(T x r1, B), S = %s, T = %u, r1 = %s "
            "GB/s (T=1 median), B = %s%s (%s%s%s): t %s %s%s; the seed thread's claim: over 40 s "
            "for 2 TB with 16 threads\n",
            vs_kind_name(v, k), vs_qemu_model(k), ss, VM_QEMU_THREADS, r1s, bs,
            m.src == VM_B_UNKNOWN ? "" : " GB/s", m.src == VM_B_UNKNOWN ? "" : vm_bsrc_text(m.src),
            m.src == VM_B_UNKNOWN ? "" : "; ", ps, m.lower_bound ? ">=" : "=", ts,
            m.lower_bound ? " (a lower bound from per-thread scaling; no upper bound without B: "
                            "give bw_ceiling=)"
            : m.capped    ? " (B sets it)"
                          : " (T x r1 sets it)");
}
