/*
 * scenarios/faultclear/kind.c - the cells run=faultclear hands the verdict
 * (lib/verdict.h struct vd_kind): samples = service ns of one demand fault of
 * `bytes` under fault_clear= `model` with `strategy`; `prezeroed`: the clear
 * inside each fault taken out (service - clear ns: what the fault costs from
 * a pre-zeroed frame). Ids past "faultclear/": "linux_4k/rep_stosb/1G"
 * (model/strategy/frame, "/prezeroed" appended for the clear taken out),
 * short "linux_4k/rep_stosb/1G prezeroed". Sizes as lib/fmt.h fmt_size()
 * writes them. Portable C: the host verdict tests link it (VERDICT_C).
 */
#include "lib/fmt.h"
#include "lib/verdict.h"
#include "scenarios/faultclear/faultclear.h"

/* The id into buf; returns its length (as hz_snprintf()). */
static size_t fc_id(const struct vd_cell *c, char *buf, size_t cap)
{
    char b[16];
    return (size_t)hz_snprintf(buf, cap, "%s/%s/%s%s", c->model ? c->model : "?",
                               c->strategy ? c->strategy : "?", fmt_size(b, sizeof(b), c->bytes),
                               c->prezeroed ? "/prezeroed" : "");
}

static void faultclear_id(const struct vd_cell *c, char *buf, size_t cap) { fc_id(c, buf, cap); }

/* The id with " prezeroed" for "/prezeroed". */
static void faultclear_short(const struct vd_cell *c, char *buf, size_t cap)
{
    size_t n = fc_id(c, buf, cap);
    if (c->prezeroed && n > 10 && n < cap)
        buf[n - 10] = ' ';
}

HZ_CELL_KIND(faultclear_kind, .run = "faultclear", .id = faultclear_id,
             .short_id = faultclear_short);
