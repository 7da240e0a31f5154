/*
 * scenarios/interference/refs.c - the residency phase of the `interference`
 * scenario: before the rounds, IF_RES_ROUNDS runs (fewer past its 15 s
 * budget, IF_RES_MIN at least) of every victim and of
 * four reference sets alone on the victim CPU, each run in a seeded order
 * (lib/interleave.h). The references are chases and reads of L2/4 (in L2)
 * and of 2 x L2 or LLC/8 (past L2, inside the LLC by CPUID's sizes); the
 * DRAM references are the 4 x LLC chase and stream victims. Each victim's
 * median time per access is classed by scenarios/interference/residency.c
 * against the references of its kind, printed, and recorded
 * (scenarios/interference/records.md `interference_residency`). When an LLC-sized victim
 * is not classed LLC the run says so: its slowdowns are the bandwidth part
 * only, and L3 pollution is not measured. Also the victims' and the
 * references' memory and chases (if_setup_victims).
 */
#include "arch/cpu.h"
#include "arch/tsc.h"
#include "arch/user.h"
#include "arch/x86.h"
#include "lib/fmt.h"
#include "lib/interleave.h"
#include "lib/print.h"
#include "lib/record.h"
#include "lib/results.h"
#include "measure/smp_job.h"
#include "scenarios/interference/priv.h"

#define IF_ALL (IF_VICTIMS + IF_REFS)
#define IF_REGIONS 5 /* chase L2/2, chase LLC/2, 4 x LLC, ref L2/4, ref LLC */

static struct smp_target vbuf;
static struct split_extent vslice[IF_REGIONS][SMP_TARGET_MAX];

/* [off, off + bytes) of the victim buffer as its own extent list-> */
static size_t slice(struct split_extent *out, uint64_t off, uint64_t bytes)
{
    struct split_iter it;
    uint64_t base, len;
    size_t n = 0;
    split_iter_init(&it, vbuf.ext, vbuf.next, off, bytes);
    while (n < SMP_TARGET_MAX && split_iter_next(&it, &base, &len))
        out[n++] = (struct split_extent){base, len, -1};
    return n;
}

static void build_chases(void *arg)
{
    struct if_state *st = arg;
    for (unsigned i = 0; i < IF_VICTIMS + IF_REFS; i++) {
        struct if_victim *v = i < IF_VICTIMS ? &st->v[i] : &st->ref[i - IF_VICTIMS];
        if (v->chase)
            v->start = interf_chase_build(v->ext, v->next, v->bytes, st->chase_seed + i);
    }
}

uint64_t if_sizes(struct if_state *st, uint64_t opt_l2, uint64_t opt_llc)
{
    bool tcg = cpu_is_tcg();
    uint64_t l2 = tcg ? 0 : cpu_cache_bytes(2), llc = tcg ? 0 : cpu_llc_bytes();
    st->cache_source = tcg ? "fallback (TCG models no cache)" : l2 && llc ? "cpuid" : "fallback";
    st->l2 = (opt_l2 ? opt_l2 : l2 ? l2 : 256u << 10) & ~4095ull;
    st->llc = (opt_llc ? opt_llc : llc ? llc : tcg ? 1u << 20 : 8u << 20) & ~4095ull;
    if (opt_l2 || opt_llc)
        st->cache_source = "option";
    return tcg ? 1u << 13 : 1u << 16; /* 40 ms per sample at 600 ns a load */
}

bool if_setup_victims(struct if_state *st, uint64_t opt_l2, uint64_t opt_llc, uint64_t seed)
{
    uint64_t loads = if_sizes(st, opt_l2, opt_llc);
    /* the LLC reference: past L2 (2 x L2, or LLC/8 when larger), well inside the LLC */
    uint64_t lref = 2 * st->l2 > st->llc / 8 ? 2 * st->l2 : (st->llc / 8) & ~4095ull;
    lref = lref < st->llc / 2 ? lref : (st->llc / 2) & ~4095ull;
    uint64_t size[IF_REGIONS] = {st->l2 / 2, st->llc / 2, 4 * st->llc, st->l2 / 4, lref}, off = 0;
    uint64_t need = size[0] + size[1] + size[2] + size[3] + size[4];
    if (smp_target_take(&vbuf, need, false, 0, 0) < 0 || vbuf.bytes < need) {
        result_skip("interference", "%llu MiB of victim memory not free",
                    (unsigned long long)(need >> 20));
        return false;
    }
    size_t n[IF_REGIONS];
    for (unsigned i = 0; i < IF_REGIONS; off += size[i], i++)
        n[i] = slice(vslice[i], off, size[i]);
#define V(name, chase, reg, work, warm, want)                                                      \
    (struct if_victim){name,   chase, size[reg],        work, warm, 0, 0, vslice[reg],             \
                       n[reg], want,  IF_LEVEL_UNKNOWN, 0}
    st->v[0] = V("chase_l2_half", true, 0, loads, true, IF_L2);
    st->v[1] = V("chase_llc_half", true, 1, loads, true, IF_LLC);
    st->v[2] = V("chase_4llc", true, 2, loads / 4, false, IF_DRAM);
    st->v[3] = V("stream_4llc", false, 2, 1, false, IF_DRAM);
    st->v[4] = V("tenant_llc", false, 2, 2, true, IF_LLC);
    st->v[4].bytes = st->llc;
    st->ref[0] = V("ref_chase_l2", true, 3, loads, true, IF_L2);
    st->ref[1] = V("ref_chase_llc", true, 4, loads, true, IF_LLC);
    st->ref[2] = V("ref_read_l2", false, 3, 8, true, IF_L2);
    st->ref[3] = V("ref_read_llc", false, 4, 2, true, IF_LLC);
#undef V
    st->chase_seed = seed;
    user_run(st->vcpu, build_chases, st); /* bulk stores: at the measurement CPL */
    for (unsigned i = 0; i < IF_VICTIMS + IF_REFS; i++) {
        struct if_victim *v = i < IF_VICTIMS ? &st->v[i] : &st->ref[i - IF_VICTIMS];
        v->moved = v->chase ? v->work : v->bytes * v->work;
    }
    return true;
}

void if_release_victims(void) { smp_target_release(&vbuf); }

/* x1000 with 3 decimals into b. */
static const char *fx(char *b, size_t cap, uint64_t x1000)
{
    fmt_fixed(b, cap, x1000, 3);
    return b;
}

uint64_t if_unit_x1000(const struct if_victim *v, uint64_t ns)
{
    if (!v->moved)
        return 0;
    return v->chase ? ns * 1000 / v->moved : mul_div_u64(ns * 1000, INTERF_LINE, v->moved);
}

static void emit(const struct if_state *st, const struct if_victim *v, const struct stats *s,
                 bool ref)
{
    char buf[HZ_RECORD_MAX];
    struct rec r;
    const struct if_refs *refs = v->chase ? &st->chase_refs : &st->read_refs;
    rec_begin(&r, buf, sizeof(buf), "interference_residency");
    rec_str(&r, "victim", v->name);
    rec_bool(&r, "reference", ref);
    rec_str(&r, "access", v->chase ? "chase" : "read");
    rec_u64(&r, "set_bytes", v->bytes);
    rec_fixed(&r, "ns_per_access", v->unit_x1000, 3);
    rec_fixed(&r, "ns_lo", if_unit_x1000(v, s->ci_lo), 3);
    rec_fixed(&r, "ns_hi", if_unit_x1000(v, s->ci_hi), 3);
    rec_u64(&r, "n", s->n);
    rec_str(&r, "intended", if_level_name(v->want));
    rec_str(&r, "class", ref ? if_level_name(v->want) : if_level_name(v->level));
    rec_fixed(&r, "ref_l2_ns", refs->l2, 3);
    rec_fixed(&r, "ref_llc_ns", refs->llc, 3);
    rec_fixed(&r, "ref_dram_ns", refs->dram, 3);
    rec_bool(&r, "llc_separated", if_llc_separated(refs));
    rec_bool(&r, "tsc_reliable", tsc_reliable());
    record_emit(&r);
}

bool if_residency(struct if_state *st, uint64_t t0)
{
    uint64_t deadline = t0 + IF_RES_BUDGET_S * tsc_info()->hz;
    unsigned runs;
    static uint64_t ns[IF_ALL][IF_RES_ROUNDS], got[IF_ALL];
    static struct stats s[IF_ALL];
    struct if_victim *all[IF_ALL], *list[IF_ALL];
    unsigned order[IF_ALL];
    char a[24], b[24], c[24];
    for (unsigned i = 0; i < IF_ALL; i++)
        all[i] = i < IF_VICTIMS ? &st->v[i] : &st->ref[i - IF_VICTIMS];
    for (runs = 0; runs < IF_RES_ROUNDS && (runs < IF_RES_MIN || rdtsc() < deadline); runs++) {
        ilv_order(2024, runs, order, IF_ALL);
        for (unsigned i = 0; i < IF_ALL; i++)
            list[i] = all[order[i]];
        if (!if_run_alone(list, IF_ALL, got))
            return false;
        for (unsigned i = 0; i < IF_ALL; i++)
            ns[order[i]][runs] = got[i];
    }
    for (unsigned i = 0; i < IF_ALL; i++) {
        stats_compute(&s[i], ns[i], runs);
        all[i]->unit_x1000 = if_unit_x1000(all[i], s[i].median);
    }
    /* victims 2 and 3 (4 x LLC) are the DRAM references */
    st->chase_refs =
        (struct if_refs){st->ref[0].unit_x1000, st->ref[1].unit_x1000, st->v[2].unit_x1000};
    st->read_refs =
        (struct if_refs){st->ref[2].unit_x1000, st->ref[3].unit_x1000, st->v[3].unit_x1000};
    st->llc_resident = true;
    kprintf("interference: residency alone, median of %u interleaved runs, ns per load (chase) "
            "or per 64-byte line (read); class by the geometric midpoints of the references:\n",
            runs);
    for (unsigned i = 0; i < IF_ALL; i++) {
        struct if_victim *v = all[i];
        bool ref = i >= IF_VICTIMS || i == 2 || i == 3;
        v->level =
            ref ? v->want : if_classify(v->chase ? &st->chase_refs : &st->read_refs, v->unit_x1000);
        if (!ref && v->want == IF_LLC && v->level != IF_LLC)
            st->llc_resident = false;
        kprintf("interference:   %-15s %8llu KiB %-5s %10s ns [%s..%s] %s%s\n", v->name,
                (unsigned long long)(v->bytes >> 10), v->chase ? "chase" : "read",
                fx(a, sizeof(a), v->unit_x1000), fx(b, sizeof(b), if_unit_x1000(v, s[i].ci_lo)),
                fx(c, sizeof(c), if_unit_x1000(v, s[i].ci_hi)), if_level_name(v->level),
                ref                   ? " (reference)"
                : v->level == v->want ? ""
                                      : " (NOT where its size aims)");
        emit(st, v, &s[i], ref);
    }
    if (!if_llc_separated(&st->chase_refs))
        kprintf("interference: the LLC chase reference takes more than %u%% of the DRAM "
                "one's time here: no LLC level to tell apart for the chases\n",
                10000 / (100 + IF_SEP_PCT));
    if (!if_llc_separated(&st->read_refs))
        kprintf("interference: the LLC read reference takes more than %u%% of the DRAM "
                "one's time here: no LLC level to tell apart for the reads\n",
                10000 / (100 + IF_SEP_PCT));
    if (!st->llc_resident)
        kprintf("interference: LLC-resident working set not achievable here (other tenants "
                "share the LLC); L3 pollution not measured: the LLC-sized victims' slowdowns "
                "are the bandwidth part only\n");
    return true;
}
