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
    char a[16], b[16];
    fmt_size(b, sizeof(b), c->bytes);
    if (c->kind == VD_FAULTCLEAR) {
        hz_snprintf(buf, cap, "faultclear/%s/%s/%s%s", c->model ? c->model : "?",
                    c->strategy ? c->strategy : "?", b, c->prezeroed ? "/prezeroed" : "");
        return;
    }
    if (c->kind == VD_FAULT) {
        hz_snprintf(buf, cap, "fault/%s/%s", c->prezeroed ? "prezeroed" : "sync", b);
        return;
    }
    if (c->kind == VD_INTERF) {
        hz_snprintf(buf, cap, "interference/%s/%u%%/%s", c->strategy, c->rate_pct, c->victim);
        return;
    }
    if (c->kind == VD_NUMA) {
        fmt_size(a, sizeof(a), c->chunk);
        hz_snprintf(buf, cap, "numa/%s/%s/%uT/n%u-n%u/%s", c->strategy, a, c->threads, c->cpu_node,
                    c->mem_node, b);
        return;
    }
    if (c->kind == VD_SMP || c->kind == VD_VM) {
        hz_snprintf(buf, cap, "%s/%s/%uT/%s", c->kind == VD_SMP ? "smp" : "vmstart", c->strategy,
                    c->threads, b);
        return;
    }
    fmt_size(a, sizeof(a), c->chunk);
    hz_snprintf(buf, cap, "clear/%s/%s/%s/%s", c->strategy, a, c->cold ? "cold" : "warm", b);
}

void vd_cell_short(const struct vd_cell *c, char *buf, size_t cap)
{
    char id[VD_ID_MAX], ch[16];
    if (c->kind == VD_CLEAR) {
        hz_snprintf(buf, cap, "%s/%s %s", c->strategy, fmt_size(ch, sizeof(ch), c->chunk),
                    c->cold ? "cold" : "warm");
        return;
    }
    vd_cell_id(c, id, sizeof(id));
    const char *rest = strchr(id, '/');
    size_t n = hz_snprintf(buf, cap, "%s", rest ? rest + 1 : id);
    if (c->kind == VD_FAULTCLEAR && c->prezeroed && n > 10 && n < cap) /* "/prezeroed" */
        buf[n - 10] = ' ';
}

void vd_name_cell(const struct vd_cell *c, char *buf, size_t cap)
{
    char ch[16];
    hz_snprintf(buf, cap, "%s/%s", c->strategy, fmt_size(ch, sizeof(ch), c->chunk));
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
