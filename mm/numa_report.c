/*
 * mm/numa_report.c - the NUMA topology (arch/numa.h) on the console: the
 * header's `numa` member, and after the frame allocator is up the `numa`
 * record with its start-up self-check and one `numa_range` record per
 * memory range (docs/results.md).
 *
 * Free 1 GiB frames that cross a node boundary are split into the small
 * pool first: no node could give them. The self-check takes one 2 MiB frame and, when the node has
 * one, one 1 GiB frame from every node through frames_alloc_in/frames_1g_take_in, checks that the
 * whole frame lies in that node's SRAT ranges, and puts it back. It reads and writes none of the
 * frames' memory.
 */
#include "mm/numa_report.h"
#include "arch/numa.h"
#include "lib/fmt.h"
#include "lib/print.h"
#include "lib/record.h"
#include "lib/results.h"
#include "mm/mm.h"
#include "mm/paging.h"

/* What the self-check found on one node: a frame's address, or why not. */
struct numa_check {
    uint64_t frame[2]; /* 2 MiB, 1 GiB frame taken and put back */
    bool have[2];
    bool bad[2]; /* the frame is not wholly inside the node */
};

static const uint64_t check_size[2] = {PAGE_SIZE_2M, PAGE_SIZE_1G};

/* The topology's members into r (at the current level); with chk, each
 * node's self-check frames too (null: none free on the node). */
static void rec_topo(struct rec *r, const struct numa_check *chk)
{
    const struct numa_topo *t = numa_get();
    rec_u64(r, "nodes", t->n);
    rec_str(r, "source", t->from_srat ? "srat" : "none");
    rec_bool(r, "slit", t->slit);
    if (t->why)
        rec_str(r, "why", t->why);
    rec_arr_begin(r, "dist");
    for (unsigned i = 0; i < t->n; i++) {
        rec_arr_begin(r, NULL);
        for (unsigned j = 0; j < t->n; j++)
            rec_u64(r, NULL, t->dist[i][j]);
        rec_arr_end(r);
    }
    rec_arr_end(r);
    rec_arr_begin(r, "node");
    for (unsigned i = 0; i < t->n; i++) {
        const struct numa_node *n = &t->node[i];
        rec_obj_begin(r, NULL);
        rec_u64(r, "domain", n->domain);
        rec_u64(r, "cpus", n->ncpus);
        rec_u64(r, "mem_bytes", n->mem_bytes);
        rec_u64(r, "absent_bytes", n->absent_bytes);
        rec_u64(r, "ranges", n->nrange);
        rec_bool(r, "memory_only", n->memory_only);
        rec_bool(r, "cpu_only", n->cpu_only);
        for (int s = 0; chk && s < 2; s++) {
            const char *key = s ? "frame_1g" : "frame_2m";
            if (chk[i].have[s])
                rec_hex(r, key, chk[i].frame[s]);
            else
                rec_str(r, key, NULL);
        }
        rec_obj_end(r);
    }
    rec_arr_end(r);
}

/* Take a frame of check_size[s] from node k, see that it lies in the node
 * (both ends), and give it back. */
static void check_node(const struct numa_topo *t, unsigned k, int s, struct numa_check *c)
{
    struct frames *f = mm_frames();
    const struct numa_node *n = &t->node[k];
    uint64_t pa;
    size_t idx;
    int err = s ? frames_1g_take_in(f, n->range, n->nrange, &idx)
                : frames_alloc_in(f, check_size[s], n->range, n->nrange, &pa);
    if (err != FRAMES_OK) {
        if (err != FRAMES_ENODE)
            kprintf("numa: node %u: %s frame: %s\n", k, s ? "1 GiB" : "2 MiB",
                    frames_strerror(err));
        return;
    }
    if (s)
        pa = frames_1g_base(f, idx);
    c->have[s] = true;
    c->frame[s] = pa;
    c->bad[s] =
        numa_node_of_pa(t, pa) != (int)k || numa_node_of_pa(t, pa + check_size[s] - 1) != (int)k;
    if (s)
        frames_1g_put(f, idx);
    else
        frames_free(f, pa, check_size[s]);
}

void numa_rec_member(struct rec *r)
{
    rec_obj_begin(r, "numa");
    rec_topo(r, NULL);
    rec_obj_end(r);
}

/* A listed free 1 GiB frame that crosses a node boundary (or lies in no
 * node) cannot be given from any node: hand it to the small pool, where
 * frames_alloc_in finds its 2 MiB frames per node. Returns the count. */
static unsigned split_straddling(const struct numa_topo *t)
{
    struct frames *f = mm_frames();
    unsigned n = 0;
    for (size_t i = 0; t->from_srat && i < frames_1g_count(f); i++) {
        uint64_t base = frames_1g_base(f, i);
        int k = numa_node_of_pa(t, base);
        if (frames_1g_state(f, i) != FRAME1G_FREE ||
            (k >= 0 && frames_in_ranges(t->node[k].range, t->node[k].nrange, base, PAGE_SIZE_1G)))
            continue;
        if (frames_1g_split(f, i) == FRAMES_OK) {
            kprintf("numa: 1 GiB frame 0x%llx crosses a node boundary: split into 2 MiB frames\n",
                    (unsigned long long)base);
            n++;
        }
    }
    return n;
}

static void emit_ranges(const struct numa_topo *t)
{
    char buf[HZ_RECORD_MAX];
    struct rec r;
    for (unsigned i = 0; i < t->n; i++)
        for (size_t k = 0; k < t->node[i].nrange; k++) {
            const struct numa_range *x = &t->node[i].range[k];
            rec_begin(&r, buf, sizeof(buf), "numa_range");
            rec_u64(&r, "node", i);
            rec_u64(&r, "domain", t->node[i].domain);
            rec_hex(&r, "base", x->base);
            rec_hex(&r, "length", x->length);
            rec_bool(&r, "hotpluggable", x->hotpluggable);
            rec_u64(&r, "present_bytes", x->present);
            rec_bool(&r, "nonvolatile", x->nonvolatile);
            record_emit(&r);
        }
}

void numa_report(void)
{
    const struct numa_topo *t = numa_get();
    const struct acpi_diag *d = numa_diag();
    static struct numa_check chk[NUMA_MAX_NODES];
    for (size_t i = 0; i < d->n; i++)
        kprintf("%s\n", d->msg[i]);
    if (!t->from_srat)
        kprintf("numa: %s: one node, %u CPUs\n", t->why, t->node[0].ncpus);
    unsigned split = split_straddling(t), bad = 0;
    for (unsigned i = 0; i < t->n; i++) {
        const struct numa_node *n = &t->node[i];
        for (int s = 0; s < 2; s++) {
            check_node(t, i, s, &chk[i]);
            bad += chk[i].bad[s];
        }
        char absent[64] = "";
        if (n->absent_bytes)
            hz_snprintf(absent, sizeof(absent), ", %llu MiB hot-pluggable and absent",
                        (unsigned long long)(n->absent_bytes >> 20));
        if (t->from_srat)
            kprintf("numa: node %u (domain %u): %u CPUs, %llu MiB in %zu ranges%s%s%s; "
                    "frames 2M %s, 1G %s\n",
                    i, n->domain, n->ncpus, (unsigned long long)(n->mem_bytes >> 20), n->nrange,
                    absent, n->memory_only ? ", memory only" : "", n->cpu_only ? ", CPUs only" : "",
                    chk[i].have[0] ? (chk[i].bad[0] ? "OUTSIDE" : "inside") : "none",
                    chk[i].have[1] ? (chk[i].bad[1] ? "OUTSIDE" : "inside") : "none");
    }
    char buf[HZ_RECORD_MAX];
    if (t->from_srat) {
        size_t at = 0;
        for (unsigned i = 0; i < t->n; i++)
            for (unsigned j = 0; j < t->n && at < sizeof(buf); j++)
                at += (size_t)hz_snprintf(buf + at, sizeof(buf) - at, "%s%u",
                                          j   ? " "
                                          : i ? " | "
                                              : "",
                                          t->dist[i][j]);
        kprintf("numa: distances (%s): %s\n", t->slit ? "SLIT" : "no SLIT: 10 local, 20 remote",
                buf);
    }
    struct rec r;
    rec_begin(&r, buf, sizeof(buf), "numa");
    rec_topo(&r, chk);
    rec_u64(&r, "split_1g", split);
    rec_str(&r, "check", bad ? "fail" : "pass");
    record_emit(&r);
    emit_ranges(t);
    if (bad)
        result_fail("numa.frames", "%u frame(s) taken from a node lie outside its SRAT ranges",
                    bad);
    else
        result_pass("numa.frames");
}
