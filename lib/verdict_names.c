/*
 * lib/verdict_names.c - the names the verdict's items and records use
 * (lib/verdict_text.h): cell ids, short ids, strategy/call size, rates and
 * an item's source. tools/hzlib/verdict_text.py reads the ids the records
 * carry; it never builds them.
 */
#include "lib/fmt.h"
#include "lib/kstring.h"
#include "lib/verdict_text.h"

void vd_cell_id(const struct vd_cell *c, char *buf, size_t cap)
{
    size_t n = (size_t)hz_snprintf(buf, cap, "%s/", c->kind->run);
    if (n < cap)
        c->kind->id(c, buf + n, cap - n);
}

void vd_cell_short(const struct vd_cell *c, char *buf, size_t cap)
{
    if (c->kind->short_id)
        c->kind->short_id(c, buf, cap);
    else
        c->kind->id(c, buf, cap);
}

void vd_name_cell(const struct vd_cell *c, char *buf, size_t cap)
{
    char ch[16];
    hz_snprintf(buf, cap, "%s/%s", c->strategy, fmt_size(ch, sizeof(ch), c->chunk));
}

void vd_name_threads(const struct vd_cell *c, char *buf, size_t cap)
{
    char b[16];
    hz_snprintf(buf, cap, "%s/%uT/%s", c->strategy, c->threads, fmt_size(b, sizeof(b), c->bytes));
}

void vd_name_rate(const char *strategy, unsigned rate_pct, char *buf, size_t cap)
{
    hz_snprintf(buf, cap, "%s<=%u%%", strategy, rate_pct);
}

void vd_name_num(const char *prefix, unsigned n, char *buf, size_t cap)
{
    hz_snprintf(buf, cap, "%s%u", prefix, n);
}

size_t vd_item_source(const struct vd_item *it, char *buf, size_t cap)
{
    size_t len = 0;
    bool done[VD_ITEM_CELLS] = {false};
    buf[0] = 0;
    for (unsigned i = 0; i < it->ncells && len + 1 < cap; i++) {
        if (done[i])
            continue;
        len += (size_t)hz_snprintf(buf + len, cap - len, "%srun=%s: %s", len ? "; " : "",
                                   it->cell_run[i], it->cell_short[i]);
        for (unsigned j = i + 1; j < it->ncells && len + 1 < cap; j++)
            if (!done[j] && strcmp(it->cell_run[j], it->cell_run[i]) == 0) {
                done[j] = true;
                len += (size_t)hz_snprintf(buf + len, cap - len, ", %s", it->cell_short[j]);
            }
    }
    return len < cap ? len : cap - 1;
}
