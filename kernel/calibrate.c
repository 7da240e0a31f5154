/*
 * kernel/calibrate.c - this machine's rates at boot (kernel/calibrate.h).
 */
#include "kernel/calibrate.h"
#include "arch/clear.h"
#include "arch/cpu.h"
#include "arch/tsc.h"
#include "arch/user.h"
#include "lib/spinlock.h"
#include "mm/demand.h"
#include "mm/mm.h"
#include "mm/paging.h"
#include "mm/pool.h"

#define TCG_BYTES (16ull << 20)

/* One pass at the measurement CPL: 0 dirty (the fast string stores of
 * the scenarios' untimed dirtying), 1 clear, 2 check, 3 check and dirty
 * in one pass (run=clear's, arch/clear.h clear_verify_dirty()). */
struct pass {
    int op;
    void *p;
    uint64_t bytes, cyc;
    const struct clear_strategy *s;
    bool zero;
};

static void pass_fn(void *arg)
{
    struct pass *w = arg;
    uint64_t t0 = tsc_start();
    if (w->op == 0)
        clear_dirty_fast(w->p, w->bytes, 1);
    else if (w->op == 1)
        w->s->fn(w->p, w->bytes);
    else if (w->op == 2)
        w->zero = clear_verify_zero(w->p, w->bytes, 0);
    else
        clear_verify_dirty(w->p, w->bytes, 2, 0);
    w->cyc = tsc_stop() - t0;
}

static uint64_t pass(struct pass *w, int op)
{
    w->op = op;
    user_run(0, pass_fn, w);
    return tsc_to_ns(w->cyc);
}

/* The fault's frame is cleared as run=fault's default (zero=rep_stosb,
 * one call) clears it. */
static void fault_zero(void *ctx, void *dst, size_t bytes, uint64_t hint)
{
    struct pass w = {.p = dst, .bytes = bytes, .s = ctx, .op = 1};
    user_run_fault(0, pass_fn, &w);
}

static const char *one_fault(struct calibration *c, const struct clear_strategy *s)
{
    static struct pool_frame storage[1];
    static struct pool pool;
    static struct spinlock lock;
    uint64_t phys, acc = 0;
    struct frames *f = mm_frames();
    if (frames_alloc(f, PAGE_SIZE_2M, FRAMES_NO_LIMIT, &phys) != FRAMES_OK)
        return "no free 2 MiB frame for the fault";
    pool_init(&pool, storage, 1, PAGE_SIZE_2M, fault_zero, (void *)s);
    pool_add(&pool, phys, 0);
    const char *why = 0;
    if (demand_init(&pool, &lock, 1) < 0 || demand_touch(0, 0, 0, &acc) < 0) {
        why = "the demand fault failed";
    } else {
        c->fault_ns = tsc_to_ns(acc);
        c->fault_clear_ns = demand_nsamples() ? tsc_to_ns(demand_sample(0)->clear_cyc) : 0;
        demand_release(0, false, 0);
    }
    demand_reset_samples();
    frames_free(f, phys, PAGE_SIZE_2M);
    return why;
}

void calibrate_run(struct calibration *c)
{
    uint64_t t0 = rdtsc();
    struct frames *f = mm_frames();
    const struct clear_strategy *s = clear_find("rep_stosb");
    const char *missing;
    size_t idx = 0;
    uint64_t base, size;
    *c = (struct calibration){0};
    if (!s || !clear_supported(s, &missing)) {
        c->why = "rep_stosb is not supported";
        return;
    }
    bool g = frames_1g_take(f, &idx) == FRAMES_OK;
    if (g) {
        base = frames_1g_base(f, idx);
        size = PAGE_SIZE_1G;
    } else if (frames_alloc(f, PAGE_SIZE_2M, FRAMES_NO_LIMIT, &base) == FRAMES_OK) {
        size = PAGE_SIZE_2M;
    } else {
        c->why = "no free frame to measure on";
        return;
    }
    struct pass w = {.p = (void *)(uintptr_t)base, .bytes = size, .s = s};
    if (cpu_is_tcg() && w.bytes > TCG_BYTES)
        w.bytes = TCG_BYTES;
    c->bytes = w.bytes;
    pass(&w, 0); /* untimed: a first touch costs the host's faults, which no scenario pays */
    c->dirty_ns = pass(&w, 0);
    c->clear_ns = pass(&w, 1);
    c->check_ns = pass(&w, 2);
    c->check_dirty_ns = pass(&w, 3);
    if (g)
        frames_1g_put(f, idx);
    else
        frames_free(f, base, PAGE_SIZE_2M);
    c->why = !w.zero ? "the clear left non-zero bytes" : one_fault(c, s);
    c->ok = !c->why;
    c->took_ns = tsc_to_ns(rdtsc() - t0);
}

/* 10^6 bytes/s of `bytes` in `ns` (at least 1). */
static uint64_t mbps(uint64_t bytes, uint64_t ns)
{
    uint64_t r = ns ? bytes * 1000 / ns : 0;
    return r ? r : 1;
}

void calibrate_machine(const struct calibration *c, const struct plan_machine *base,
                       struct plan_machine *m)
{
    *m = *base;
    if (!c->ok)
        return;
    m->dirty_mbps = mbps(c->bytes, c->dirty_ns);
    m->clear_mbps = mbps(c->bytes, c->clear_ns);
    m->check_mbps = mbps(c->bytes, c->check_ns);
    m->check_dirty_mbps = mbps(c->bytes, c->check_dirty_ns);
    m->pass_mbps = mbps(c->bytes * 3, c->dirty_ns + c->clear_ns + c->check_ns);
    m->smp_pass_mbps = mbps(m->pass_mbps * base->smp_pass_mbps, base->pass_mbps * 1000);
    uint64_t fixed = c->fault_ns > c->fault_clear_ns ? c->fault_ns - c->fault_clear_ns : 0;
    m->fault_us = fixed / 1000;
}
