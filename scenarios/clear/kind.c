/*
 * scenarios/clear/kind.c - the cells run=clear hands the verdict
 * (lib/verdict.h struct vd_kind): one thread; samples = ns per repeat. Ids
 * past "clear/": "avx512_nt/2M/cold/1G" (strategy/chunk/cache/target), short
 * "avx512_nt/2M cold". Sizes as lib/fmt.h fmt_size() writes them. Portable C:
 * the host verdict tests link it (VERDICT_C).
 */
#include "lib/fmt.h"
#include "lib/verdict.h"
#include "scenarios/clear/cells.h"

static void clear_id(const struct vd_cell *c, char *buf, size_t cap)
{
    char a[16], b[16];
    hz_snprintf(buf, cap, "%s/%s/%s/%s", c->strategy, fmt_size(a, sizeof(a), c->chunk),
                c->cold ? "cold" : "warm", fmt_size(b, sizeof(b), c->bytes));
}

static void clear_short(const struct vd_cell *c, char *buf, size_t cap)
{
    char a[16];
    hz_snprintf(buf, cap, "%s/%s %s", c->strategy, fmt_size(a, sizeof(a), c->chunk),
                c->cold ? "cold" : "warm");
}

HZ_CELL_KIND(clear_kind, .run = "clear", .id = clear_id, .short_id = clear_short, .clears = true);
