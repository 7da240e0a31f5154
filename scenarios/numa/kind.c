/*
 * scenarios/numa/kind.c - the cells run=numa hands the verdict (lib/verdict.h
 * struct vd_kind): samples = wall ns to clear `bytes` of node mem_node with
 * `threads` CPUs of node cpu_node. Ids past "numa/":
 * "rep_stosb/2M/1T/n0-n1/256M" (strategy/chunk/threads/CPU node-memory
 * node/bytes). Sizes as lib/fmt.h fmt_size() writes them. Portable C: the
 * host verdict tests link it (VERDICT_C).
 */
#include "lib/fmt.h"
#include "lib/verdict.h"
#include "scenarios/numa/numa.h"

static void numa_id(const struct vd_cell *c, char *buf, size_t cap)
{
    char a[16], b[16];
    hz_snprintf(buf, cap, "%s/%s/%uT/n%u-n%u/%s", c->strategy, fmt_size(a, sizeof(a), c->chunk),
                c->threads, c->cpu_node, c->mem_node, fmt_size(b, sizeof(b), c->bytes));
}

HZ_CELL_KIND(numa_kind, .run = "numa", .id = numa_id, .clears = true);
