/*
 * measure/verdict_clear.c - the run=clear cells several verdict items read
 * (measure/verdict_clear.h).
 */
#include "measure/verdict_clear.h"
#include "lib/kstring.h"

const struct vd_cell *vd_clear_base(const struct vd_ctx *x, uint64_t target)
{
    for (size_t i = 0; i < x->n; i++) {
        const struct vd_cell *c = &x->v[i];
        if (vd_cell_of(c, "clear") && c->cold && c->bytes == target && c->chunk == 4096 &&
            strcmp(c->strategy, "rep_stosb") == 0 && vd_cell_usable(c))
            return c;
    }
    return 0;
}

uint64_t vd_clear_target(const struct vd_cell *v, size_t n)
{
    uint64_t t = 0;
    for (size_t i = 0; i < n; i++)
        if (vd_cell_of(&v[i], "clear") && v[i].cold && v[i].bytes > t)
            t = v[i].bytes;
    return t;
}
