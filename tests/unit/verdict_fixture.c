/*
 * tests/unit/verdict_fixture.c - the cell sets of the verdict tests
 * (tests/unit/verdict_fixture.h): Milan-like, Sapphire Rapids-like and this
 * host's noisy run=default. GB/s figures of the Milan and SPR sets follow
 * the published clear_pages() figures (Arora; docs/validation.md) and the
 * README's Intel column; the noisy set is this host's run=default (issue 20).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "lib/verdict_text.h"
#include "tests/unit/verdict_fixture.h"

struct vd_cell cells[64];
uint64_t store[64][CMP_MAX_N];
size_t ncells;

/* n samples of cell c spread evenly over +-spread_pct % around median_ns,
 * in a zigzag run order (lowest, highest, second lowest, ...: no serial
 * dependence, lib/compare.h), `bursts` of them slowed 1.3x..1.8x (a shared
 * host's bursts); c's samples and stats. */
void fill(struct vd_cell *c, uint64_t median_ns, unsigned spread_pct, size_t n, unsigned bursts)
{
    uint64_t *s = store[c - cells], tmp[CMP_MAX_N];
    for (size_t i = 0; i < n; i++) {
        size_t k = i % 2 ? n - 1 - i / 2 : i / 2; /* the rank of run-order sample i */
        s[i] = median_ns + (uint64_t)((int64_t)median_ns * (int64_t)spread_pct *
                                      (int64_t)(2 * k - (n - 1)) / (int64_t)(100 * (n - 1)));
    }
    for (unsigned j = 0; j < bursts; j++) {
        size_t k = (2 + j * n / bursts) % n; /* the rank slowed; i its place in run order */
        size_t i = 2 * k < n ? 2 * k : 2 * (n - 1 - k) + 1;
        s[i] = s[i] * (130 + 50 * j / (bursts > 1 ? bursts - 1 : 1)) / 100;
    }
    memcpy(tmp, s, n * sizeof(tmp[0]));
    stats_compute(&c->st, tmp, n);
    c->samples = s;
    c->nsamples = n;
}

/* A verified cold single-thread cell on the 1 GiB target at `gbps_x10`,
 * 11 samples spread +-2 %. */
struct vd_cell *clear_cell(const char *s, bool nt, uint64_t chunk, unsigned gbps_x10)
{
    struct vd_cell *c = &cells[ncells++];
    *c = (struct vd_cell){.kind = &clear_kind,
                          .strategy = s,
                          .nontemporal = nt,
                          .chunk = chunk,
                          .bytes = GIB,
                          .cold = true,
                          .threads = 1,
                          .verified = true};
    fill(c, GIB * 10 / gbps_x10, 2, 11, 0); /* bytes / (GB/s) = ns */
    return c;
}

void smp_cell(const struct vd_kind *k, const char *s, unsigned threads, unsigned gbps_x10)
{
    struct vd_cell *c = &cells[ncells++];
    *c = (struct vd_cell){.kind = k,
                          .strategy = s,
                          .nontemporal = k == &smp_kind,
                          .chunk = 2 * MIB,
                          .bytes = GIB,
                          .threads = threads,
                          .verified = true};
    fill(c, GIB * 10 / gbps_x10, 2, 11, 0);
}

void fault_cell(bool prezeroed, uint64_t ns)
{
    struct vd_cell *c = &cells[ncells++];
    *c = (struct vd_cell){
        .kind = &fault_kind, .bytes = GIB, .threads = 1, .prezeroed = prezeroed, .verified = true};
    fill(c, ns, 4, 11, 0);
}

void faultclear_cell(const char *model, bool prezeroed, uint64_t frame, uint64_t ns)
{
    struct vd_cell *c = &cells[ncells++];
    *c = (struct vd_cell){.kind = &faultclear_kind,
                          .strategy = "rep_stosb",
                          .model = model,
                          .bytes = frame,
                          .threads = 1,
                          .prezeroed = prezeroed,
                          .verified = true};
    fill(c, ns, 4, 11, 0);
}

const struct vd_facts kvm = {.run = "default",
                             .hypervisor = "KVM",
                             .tsc_source = "hv-leaf",
                             .tsc_invariant = true,
                             .backing = "hugetlbfs-2M",
                             .cpl = 3,
                             .emulated_ring0 = true,
                             .steal_known = true,
                             .steal_x100 = 1};

/* Milan: no AVX-512; REP STOSB 13.7 / 15.1 / 38.1 GB/s at 4K / 2M / 1G. */
void milan(void)
{
    ncells = 0;
    clear_cell("rep_stosb", false, 4096, 137);
    clear_cell("rep_stosb", false, 2 * MIB, 151);
    clear_cell("rep_stosb", false, GIB, 381);
    clear_cell("rep_stosq", false, 4096, 135);
    clear_cell("rep_stosq", false, 2 * MIB, 150);
    clear_cell("rep_stosq", false, GIB, 350);
    clear_cell("avx_nt", true, 4096, 200);
    clear_cell("avx_nt", true, 2 * MIB, 250);
    clear_cell("avx_nt", true, GIB, 260);
    clear_cell("clzero", true, 4096, 220);
    clear_cell("clzero", true, 2 * MIB, 280);
    clear_cell("clzero", true, GIB, 300);
}

/* Sapphire Rapids: REP STOSB about 10 GB/s at any extent, AVX-512 NT 23. */
void spr(void)
{
    ncells = 0;
    clear_cell("rep_stosb", false, 4096, 99);
    clear_cell("rep_stosb", false, 2 * MIB, 105);
    clear_cell("rep_stosb", false, GIB, 121);
    clear_cell("rep_stosq", false, 4096, 98);
    clear_cell("rep_stosq", false, 2 * MIB, 104);
    clear_cell("rep_stosq", false, GIB, 119);
    clear_cell("avx512_nt", true, 4096, 150);
    clear_cell("avx512_nt", true, 2 * MIB, 210);
    clear_cell("avx512_nt", true, GIB, 233);
}

/* This host (EPYC 0x19/0x11, nested KVM, issue 20): 10 samples per cell, 2
 * of them slowed 1.3-1.8x, +-3 % otherwise. */
void noisy(void)
{
    static const struct {
        const char *s;
        bool nt;
        uint64_t chunk;
        unsigned g;
    } v[] = {{"rep_stosb", false, 4096, 244},  {"rep_stosq", false, 4096, 234},
             {"clzero", true, 4096, 225},      {"avx512_nt", true, 4096, 225},
             {"rep_stosb", false, GIB, 722},   {"rep_stosq", false, GIB, 709},
             {"clzero", true, 2 * MIB, 739},   {"avx512_nt", true, GIB, 787},
             {"avx512_nt", true, 2 * MIB, 700}};
    ncells = 0;
    for (unsigned i = 0; i < sizeof(v) / sizeof(v[0]); i++)
        fill(clear_cell(v[i].s, v[i].nt, v[i].chunk, v[i].g), GIB * 10 / v[i].g, 3, 10, 2);
}

struct vd_item it[VD_MAX_ITEMS];
size_t nit;
struct vd_trust tr;
struct vd_log lg;

static const struct vd_facts *last; /* decide()'s facts, for rendered() */

void decide(const struct vd_facts *f)
{
    last = f;
    nit = verdict_decide(cells, ncells, f, it, &tr, &lg);
}

const char *rendered(size_t i)
{
    static char buf[VD_LINES_MAX];
    vd_item_lines(&it[i], last, &tr, buf, sizeof(buf));
    return buf;
}

/* The logged comparison of item `item` between cells ia and ib. */
size_t at(const char *key)
{
    const struct vd_item *f = vd_item_find(it, nit, key);
    if (!f)
        fail_msg("no item %s", key);
    return (size_t)(f - it);
}

const struct vd_cmp *logged(size_t item, size_t ia, size_t ib)
{
    for (size_t i = 0; i < lg.n; i++)
        if (strcmp(lg.v[i].item, it[item].item) == 0 && lg.v[i].a == ia && lg.v[i].b == ib)
            return &lg.v[i];
    fail_msg("no comparison of item %s between cells %zu and %zu", it[item].item, ia, ib);
    return 0;
}
