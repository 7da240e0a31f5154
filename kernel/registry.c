/*
 * kernel/registry.c - the registries' start-up check for twins
 * (kernel/registry.h) and the scenario and verdict item registries'
 * link-time caps.
 */
#include "kernel/registry.h"
#include "kernel/scenario.h"
#include "lib/cmdline.h"
#include "lib/print.h"
#include "lib/record.h"
#include "lib/registry.h"
#include "lib/verdict.h"

#include <stdint.h>

extern const struct option __start_hz_options[], __stop_hz_options[];
extern const struct scenario __start_hz_scenarios[], __stop_hz_scenarios[];
extern const struct vd_item_def __start_hz_verdict_items[], __stop_hz_verdict_items[];
extern const struct vd_kind __start_hz_cell_kinds[], __stop_hz_cell_kinds[];

/* One field of one registry that no two rows may share. */
struct registry_field {
    const char *section;
    const void *start, *stop;
    size_t stride;
    struct reg_key key;
};

#define FIELD(sec_, type_, macro_, f_)                                                             \
    {                                                                                              \
        .section = #sec_, .start = __start_##sec_, .stop = __stop_##sec_, .stride = sizeof(type_), \
        .key = macro_(type_, f_)                                                                   \
    }

static const struct registry_field fields[] = {
    FIELD(hz_options, struct option, REG_STR_KEY, name),
    FIELD(hz_scenarios, struct scenario, REG_STR_KEY, name),
    /* next_after() runs the scenario after an order: of two with one order
     * only the first would ever run */
    FIELD(hz_scenarios, struct scenario, REG_INT_KEY, order),
    FIELD(hz_verdict_items, struct vd_item_def, REG_STR_KEY, key),
    FIELD(hz_verdict_items, struct vd_item_def, REG_INT_KEY, order),
    /* an item tells a cell's scenario by its kind's run (vd_cell_of()) */
    FIELD(hz_cell_kinds, struct vd_kind, REG_STR_KEY, run),
};

static void report(const struct registry_field *f, const struct reg_twin *t)
{
    const char *a = (const char *)f->start + t->first * f->stride;
    const char *b = (const char *)f->start + t->second * f->stride;
    char value[64], buf[HZ_RECORD_MAX];
    reg_key_text(a, &f->key, value, sizeof(value));
    kprintf("hugezero: broken build: registry %s has two rows with .%s = %s (rows %zu and %zu in "
            "link order, at 0x%llx and 0x%llx: build/hugezero.sym names them); nothing is run\n",
            f->section, f->key.field, value, t->first, t->second, (unsigned long long)(uintptr_t)a,
            (unsigned long long)(uintptr_t)b);
    struct rec r;
    rec_begin(&r, buf, sizeof(buf), "registry");
    rec_str(&r, "registry", f->section);
    rec_str(&r, "field", f->key.field);
    rec_str(&r, "value", value);
    rec_u64(&r, "row_a", t->first);
    rec_u64(&r, "row_b", t->second);
    rec_hex(&r, "addr_a", (uintptr_t)a);
    rec_hex(&r, "addr_b", (uintptr_t)b);
    record_emit(&r);
}

int registries_check(void)
{
    /* hz_scenarios_cap, hz_verdict_items_cap: the bytes HZ_MAX_SCENARIOS
     * scenarios and VD_MAX_ITEMS verdict items take, absolute symbols
     * linker.ld ASSERTs their sections against (one row more fails the
     * link). Emits no code; only asm inside a function can take the
     * operands (GCC 12). */
    __asm__(".globl hz_scenarios_cap\n\t.set hz_scenarios_cap, %c0\n\t"
            ".globl hz_verdict_items_cap\n\t.set hz_verdict_items_cap, %c1"
            :
            : "i"(HZ_MAX_SCENARIOS * sizeof(struct scenario)),
              "i"(VD_MAX_ITEMS * sizeof(struct vd_item_def)));
    int ret = 0;
    for (size_t i = 0; i < sizeof(fields) / sizeof(fields[0]); i++) {
        const struct registry_field *f = &fields[i];
        size_t n = (size_t)((const char *)f->stop - (const char *)f->start) / f->stride;
        struct reg_twin t;
        if (reg_first_twin(f->start, n, f->stride, &f->key, &t)) {
            report(f, &t);
            ret = -1;
        }
    }
    return ret;
}
