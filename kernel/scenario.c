/*
 * kernel/scenario.c - the `run=` option, the scenario registry, the run
 * profile and the planned duration printed at the start (lib/plan.h).
 */
#include "kernel/scenario.h"
#include "arch/clear.h"
#include "arch/cpu.h"
#include "kernel/smp.h"
#include "kernel/verdict.h"
#include "lib/cmdline.h"
#include "lib/fmt.h"
#include "lib/kstring.h"
#include "lib/print.h"
#include "lib/record.h"
#include "mm/mm.h"

extern const struct scenario __start_hz_scenarios[], __stop_hz_scenarios[];

#define MAX_SCENARIOS 32

static bool chosen[MAX_SCENARIOS];
static bool explicit_choice;
static const char *run_name = "default";
static char ran[MAX_SCENARIOS * 16];
static enum plan_profile_id profile_id = PLAN_DEFAULT;

const struct plan_profile *scenario_profile(void) { return plan_profile_get(profile_id); }
const char *scenario_run_name(void) { return run_name; }
const char *scenario_ran(void) { return ran; }

static const struct scenario *find(const char *name, size_t len)
{
    for (const struct scenario *s = __start_hz_scenarios; s < __stop_hz_scenarios; s++)
        if (strlen(s->name) == len && strncmp(s->name, name, len) == 0)
            return s;
    return 0;
}

static int run_opt(const struct option *o, const char *v, char *err, size_t errlen)
{
    explicit_choice = true;
    profile_id = PLAN_FULL;
    if (strcmp(v, "default") == 0 || strcmp(v, "full") == 0) {
        explicit_choice = false;
        run_name = v[0] == 'd' ? "default" : "full";
        profile_id = v[0] == 'd' ? PLAN_DEFAULT : PLAN_FULL;
        return 0;
    }
    run_name = strcmp(v, "none") == 0 ? "none" : "list";
    if (run_name[0] == 'n')
        return 0;
    for (const char *p = v;;) {
        size_t n = 0;
        while (p[n] && p[n] != ',')
            n++;
        const struct scenario *s = find(p, n);
        if (!s)
            return hz_snprintf(err, errlen, "no scenario '%.*s'", (int)n, p), -1;
        chosen[s - __start_hz_scenarios] = true;
        if (!p[n])
            return 0;
        p += n + 1;
    }
}

HZ_OPTION(opt_run, .name = "run", .kind = OPT_CUSTOM, .parse = run_opt,
          .accepted = "default|full|none|NAME[,NAME...] (scenarios: see `help`)",
          .help = "what to run after start-up (default: the default scenarios, reduced; full: "
                  "the same, exhaustive)");

/* The start-up facts the plan needs (lib/plan.h); sizes as the scenarios
 * will choose them (bench/bench_clear.c, bench/fault_bench.c,
 * bench/bench_smp.c). */
static void plan_facts_read(struct plan_facts *f)
{
    struct frames *fr = mm_frames();
    const char *missing;
    bool tcg = cpu_is_tcg();
    size_t g1 = frames_1g_free_count(fr);
    uint64_t llc = cpu_llc_bytes();
    *f = (struct plan_facts){.cpus = smp_online()};
    for (size_t i = 0; i < clear_strategy_count; i++)
        if (clear_supported(&clear_strategies[i], &missing)) {
            f->strategies++;
            f->quick_strategies += clear_quick_set(&clear_strategies[i]);
        }
    f->big_bytes = tcg ? 64ull << 20 : g1 ? 1ull << 30 : 2ull << 20;
    f->small_bytes = (llc ? llc / 2 : 1 << 20) & ~4095ull;
    if (f->small_bytes > f->big_bytes / 4)
        f->small_bytes = (f->big_bytes / 4) & ~4095ull;
    f->frame_bytes = g1 ? 1ull << 30 : 2ull << 20;
    f->frames =
        g1 ? (unsigned)g1 : (unsigned)(frames_count_2m(fr) < 512 ? frames_count_2m(fr) : 512);
    f->smp_bytes = tcg ? 64ull << 20 : 1ull << 30;
}

/* "about 70 s" or "about 5.2 min" */
static void fmt_duration(char *b, size_t n, uint64_t ms)
{
    if (ms < 120000)
        hz_snprintf(b, n, "about %llu s", (unsigned long long)((ms + 500) / 1000));
    else
        hz_snprintf(b, n, "about %llu.%llu min", (unsigned long long)(ms / 60000),
                    (unsigned long long)(ms % 60000 / 6000));
}

static void print_plan(void)
{
    struct plan_facts f;
    struct plan_estimate d, full;
    char a[24], b[24], buf[HZ_RECORD_MAX];
    struct rec r;
    plan_facts_read(&f);
    plan_estimate(plan_profile_get(PLAN_DEFAULT), &f, &plan_machine_dev, &d);
    plan_estimate(plan_profile_get(PLAN_FULL), &f, &plan_machine_dev, &full);
    fmt_duration(a, sizeof(a), d.total_ms);
    fmt_duration(b, sizeof(b), full.total_ms);
    kprintf("plan: run=%s; default run: %s here (%u clear cells); run=full: %s (%u clear "
            "cells); priced with the development machine's model (docs/options.md)%s\n",
            run_name, a, plan_clear_cells(plan_profile_get(PLAN_DEFAULT), &f), b,
            plan_clear_cells(plan_profile_get(PLAN_FULL), &f),
            cpu_is_tcg() ? ", not TCG's speed" : "");
    rec_begin(&r, buf, sizeof(buf), "plan");
    rec_str(&r, "selection", run_name);
    rec_str(&r, "profile", scenario_profile()->name);
    rec_u64(&r, "default_ms", d.total_ms);
    rec_u64(&r, "full_ms", full.total_ms);
    const struct plan_estimate *e = profile_id == PLAN_DEFAULT ? &d : &full;
    rec_u64(&r, "clear_ms", e->clear_ms);
    rec_u64(&r, "fault_ms", e->fault_ms);
    rec_u64(&r, "policies_ms", e->policies_ms);
    rec_u64(&r, "smp_ms", e->smp_ms);
    rec_u64(&r, "clear_cells", plan_clear_cells(scenario_profile(), &f));
    record_emit(&r);
}

void scenarios_run(void)
{
    size_t n = (size_t)(__stop_hz_scenarios - __start_hz_scenarios);
    int last = -2147483647 - 1;
    if (run_name[0] != 'n') {
        print_plan();
        verdict_arm();
    }
    /* Registry order is link order: run by `order`, ties in link order. */
    for (;;) {
        const struct scenario *next = 0;
        for (size_t i = 0; i < n && i < MAX_SCENARIOS; i++) {
            const struct scenario *s = &__start_hz_scenarios[i];
            bool on = explicit_choice ? chosen[i] : s->in_default;
            if (on && s->order > last && (!next || s->order < next->order))
                next = s;
        }
        if (!next)
            return;
        kprintf("== scenario %s: %s\n", next->name, next->help);
        size_t len = strlen(ran);
        hz_snprintf(ran + len, sizeof(ran) - len, "%s%s", len ? "," : "", next->name);
        next->run();
        last = next->order;
    }
}

void scenarios_print_help(void)
{
    kprintf("scenarios (run=NAME[,NAME...]; * = in run=default):\n");
    for (const struct scenario *s = __start_hz_scenarios; s < __stop_hz_scenarios; s++)
        kprintf("  %c %-10s %s\n", s->in_default ? '*' : ' ', s->name, s->help);
}
