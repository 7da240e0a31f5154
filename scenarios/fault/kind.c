/*
 * scenarios/fault/kind.c - the cells run=fault hands the verdict
 * (lib/verdict.h struct vd_kind): samples = access ns of one demand fault of
 * a page of `bytes`. Ids past "fault/": "sync/1G", "prezeroed/1G" (the frame
 * zeroed before the fault or not, the page). Sizes as lib/fmt.h fmt_size()
 * writes them. Portable C: the host verdict tests link it (VERDICT_C).
 */
#include "lib/fmt.h"
#include "lib/verdict.h"
#include "scenarios/fault/fault.h"

static void fault_id(const struct vd_cell *c, char *buf, size_t cap)
{
    char b[16];
    hz_snprintf(buf, cap, "%s/%s", c->prezeroed ? "prezeroed" : "sync",
                fmt_size(b, sizeof(b), c->bytes));
}

HZ_CELL_KIND(fault_kind, .run = "fault", .id = fault_id);
