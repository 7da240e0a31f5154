/*
 * kernel/scenario.c - the `run=` option, the scenario registry, the run
 * profile and the planned duration printed at the start: the sum of the
 * selected scenarios' own `.plan` hooks (lib/plan.h), priced with this
 * machine's rates (kernel/calibrate.h); after each scenario its wall time
 * and duty cycle, after the last the plan against what each took.
 */
#include "kernel/scenario.h"
#include "arch/cpu.h"
#include "arch/tsc.h"
#include "arch/x86.h"
#include "kernel/calibrate.h"
#include "kernel/verdict.h"
#include "lib/cmdline.h"
#include "lib/fmt.h"
#include "lib/kstring.h"
#include "lib/print.h"
#include "lib/record.h"

extern const struct scenario __start_hz_scenarios[], __stop_hz_scenarios[];

static bool chosen[HZ_MAX_SCENARIOS];
static bool explicit_choice;
static const char *run_name = "default";
static char run_text[160]; /* the list as given: "clear,fault" */
static char ran[HZ_MAX_SCENARIOS * 16];
static enum plan_profile_id profile_id = PLAN_DEFAULT;
static struct calibration cal;
static struct plan_machine machine; /* plan_machine_dev priced with cal */
static uint64_t planned_ms[HZ_MAX_SCENARIOS], took_ms[HZ_MAX_SCENARIOS];
static bool priced[HZ_MAX_SCENARIOS];
static size_t run_order[HZ_MAX_SCENARIOS], nrun; /* the scenarios run, in order */
static uint64_t timed_cyc;                       /* of the running scenario: scenario_timed() */

void scenario_timed(uint64_t cycles) { __atomic_fetch_add(&timed_cyc, cycles, __ATOMIC_RELAXED); }

const struct plan_profile *scenario_profile(void) { return plan_profile_get(profile_id); }
const char *scenario_run_name(void) { return run_name; }
const char *scenario_run_text(void) { return run_text[0] ? run_text : run_name; }
const char *scenario_ran(void) { return ran; }

/* The rows the arrays above have room for: the first HZ_MAX_SCENARIOS
 * (linker.ld refuses more at link time; these bounds hold anyway). */
static size_t nscenarios(void)
{
    size_t n = (size_t)(__stop_hz_scenarios - __start_hz_scenarios);
    return n < HZ_MAX_SCENARIOS ? n : HZ_MAX_SCENARIOS;
}

/* The scenario called name[0..len), among the first nscenarios(); NULL: none. */
static const struct scenario *find(const char *name, size_t len)
{
    for (const struct scenario *s = __start_hz_scenarios; s < __start_hz_scenarios + nscenarios();
         s++)
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
        run_text[0] = 0;
        profile_id = v[0] == 'd' ? PLAN_DEFAULT : PLAN_FULL;
        return 0;
    }
    run_name = strcmp(v, "none") == 0 ? "none" : "list";
    hz_snprintf(run_text, sizeof(run_text), "%s", v);
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

/* "about 70 s" or "about 5.2 min" */
static void fmt_duration(char *b, size_t n, uint64_t ms)
{
    if (ms < 120000)
        hz_snprintf(b, n, "about %llu s", (unsigned long long)((ms + 500) / 1000));
    else
        hz_snprintf(b, n, "about %llu.%llu min", (unsigned long long)(ms / 60000),
                    (unsigned long long)(ms % 60000 / 6000));
}

/* The selected scenario (explicitly, or run=default's) that runs after
 * order `last` (lowest order first; no two share an order, kernel/registry.h);
 * NULL when none. */
static const struct scenario *next_after(int last, bool explicit)
{
    const struct scenario *next = 0;
    for (size_t i = 0; i < nscenarios(); i++) {
        const struct scenario *s = &__start_hz_scenarios[i];
        bool on = explicit ? chosen[i] : s->in_default;
        if (on && s->order > last && (!next || s->order < next->order))
            next = s;
    }
    return next;
}

#define FIRST_ORDER (-2147483647 - 1)

/* The plan of the scenarios selected (explicitly, or run=default's) under
 * p: their sum with the boot, milliseconds. With r, a NAME_ms (and
 * NAME_cells) member per priced scenario; with text, "clear 20 s/12 cells,
 * fault 7 s" and the names of the unpriced ones. */
static uint64_t plan_sum(bool explicit, const struct plan_profile *p, struct rec *r, char *text,
                         size_t cap, char *unpriced, size_t ucap)
{
    size_t lt = 0, lu = 0;
    uint64_t ms = machine.boot_ms;
    char key[32], cells[24];
    for (const struct scenario *s = next_after(FIRST_ORDER, explicit); s;
         s = next_after(s->order, explicit)) {
        if (!s->plan) {
            if (unpriced && lu < ucap)
                lu += (size_t)hz_snprintf(unpriced + lu, ucap - lu, "%s%s", lu ? "," : "", s->name);
            continue;
        }
        struct plan_part part = {0, 0};
        s->plan(p, &machine, &part);
        ms += part.ms;
        if (r) { /* the run's own plan: plan_check compares it */
            planned_ms[s - __start_hz_scenarios] = part.ms;
            priced[s - __start_hz_scenarios] = true;
        }
        cells[0] = 0;
        if (part.cells)
            hz_snprintf(cells, sizeof(cells), "/%u cells", part.cells);
        if (text && lt < cap)
            lt += (size_t)hz_snprintf(text + lt, cap - lt, "%s%s %llu s%s", lt ? ", " : "", s->name,
                                      (unsigned long long)((part.ms + 500) / 1000), cells);
        if (r) {
            hz_snprintf(key, sizeof(key), "%s_ms", s->name);
            rec_u64(r, key, part.ms);
            hz_snprintf(key, sizeof(key), "%s_cells", s->name);
            if (part.cells)
                rec_u64(r, key, part.cells);
        }
    }
    return ms;
}

/* The calibration's figures in the plan record (kernel/calibrate.h). */
static void rec_calibration(struct rec *r)
{
    rec_bool(r, "calibrated", cal.ok);
    if (!cal.ok) {
        rec_str(r, "calibration_why", cal.why);
        return;
    }
    rec_u64(r, "cal_bytes", cal.bytes);
    rec_u64(r, "cal_dirty_ns", cal.dirty_ns);
    rec_u64(r, "cal_clear_ns", cal.clear_ns);
    rec_u64(r, "cal_check_ns", cal.check_ns);
    rec_u64(r, "cal_check_dirty_ns", cal.check_dirty_ns);
    rec_u64(r, "cal_fault_ns", cal.fault_ns);
    rec_u64(r, "cal_fault_clear_ns", cal.fault_clear_ns);
    rec_u64(r, "cal_ns", cal.took_ns);
    rec_u64(r, "pass_mbps", machine.pass_mbps);
    rec_u64(r, "fault_us", machine.fault_us);
}

static void print_plan(uint64_t kstart_ns)
{
    char a[24], b[24], parts[160] = "", unpriced[96] = "", buf[HZ_RECORD_MAX];
    struct rec r;
    rec_begin(&r, buf, sizeof(buf), "plan");
    rec_str(&r, "selection", run_name);
    rec_str(&r, "profile", scenario_profile()->name);
    uint64_t run = plan_sum(explicit_choice, scenario_profile(), &r, parts, sizeof(parts), unpriced,
                            sizeof(unpriced));
    uint64_t dflt = plan_sum(false, plan_profile_get(PLAN_DEFAULT), 0, 0, 0, 0, 0);
    uint64_t full = plan_sum(false, plan_profile_get(PLAN_FULL), 0, 0, 0, 0, 0);
    rec_u64(&r, "run_ms", run);
    rec_u64(&r, "default_ms", dflt);
    rec_u64(&r, "full_ms", full);
    rec_u64(&r, "kstart_ms", kstart_ns / 1000000);
    rec_calibration(&r);
    if (unpriced[0])
        rec_str(&r, "unpriced", unpriced);
    fmt_duration(a, sizeof(a), run);
    fmt_duration(b, sizeof(b), profile_id == PLAN_DEFAULT ? full : dflt);
    kprintf("plan: run=%s: %s here with boot (%s%s%s%s)", explicit_choice ? run_text : run_name, a,
            parts, parts[0] && unpriced[0] ? "; " : "", unpriced,
            unpriced[0] ? " not priced, so longer" : "");
    if (!explicit_choice)
        kprintf("; run=%s: %s", profile_id == PLAN_DEFAULT ? "full" : "default", b);
    if (cal.ok)
        kprintf("; priced with this machine's rates (a pass at %llu MB/s, a fault %llu us "
                "besides its clear)%s\n",
                (unsigned long long)machine.pass_mbps, (unsigned long long)machine.fault_us,
                cpu_is_tcg() ? ", TCG's" : "");
    else
        kprintf("; priced with the development machine's model (calibration: %s)\n", cal.why);
    record_emit(&r);
}

/* The `scenario` record and line of scenario i, which took wall_cyc. */
static void scenario_done(const struct scenario *s, size_t i, uint64_t wall_cyc)
{
    char buf[HZ_RECORD_MAX], a[16], b[16], c[16];
    struct rec r;
    uint64_t wall = tsc_to_ns(wall_cyc), timed = tsc_to_ns(timed_cyc);
    uint64_t duty_x10 = wall ? timed * 1000 / wall : 0;
    took_ms[i] = wall / 1000000;
    if (nrun < HZ_MAX_SCENARIOS)
        run_order[nrun++] = i;
    rec_begin(&r, buf, sizeof(buf), "scenario");
    rec_str(&r, "name", s->name);
    rec_u64(&r, "wall_ms", took_ms[i]);
    rec_u64(&r, "timed_ms", timed / 1000000);
    rec_fixed(&r, "duty_pct", duty_x10, 1);
    if (priced[i])
        rec_u64(&r, "plan_ms", planned_ms[i]);
    record_emit(&r);
    kprintf("== scenario %s: %s, timed %s (duty %llu.%llu%%)", s->name, fmt_ns(a, sizeof(a), wall),
            fmt_ns(b, sizeof(b), timed), (unsigned long long)(duty_x10 / 10),
            (unsigned long long)(duty_x10 % 10));
    if (priced[i])
        kprintf("; plan %s", fmt_ns(c, sizeof(c), planned_ms[i] * 1000000));
    kprintf("\n");
}

/* The `plan_check` record and line: each priced scenario's plan against
 * what it took (actual / plan in percent), in run order. */
static void plan_check(void)
{
    char buf[HZ_RECORD_MAX], key[32], line[400];
    struct rec r;
    size_t len = 0;
    rec_begin(&r, buf, sizeof(buf), "plan_check");
    for (size_t k = 0; k < nrun; k++) {
        size_t i = run_order[k];
        if (!priced[i])
            continue;
        const char *name = __start_hz_scenarios[i].name;
        uint64_t pct = planned_ms[i] ? took_ms[i] * 100 / planned_ms[i] : 0;
        hz_snprintf(key, sizeof(key), "%s_plan_ms", name);
        rec_u64(&r, key, planned_ms[i]);
        hz_snprintf(key, sizeof(key), "%s_ms", name);
        rec_u64(&r, key, took_ms[i]);
        if (len < sizeof(line))
            len += (size_t)hz_snprintf(line + len, sizeof(line) - len, "%s%s %llu%%",
                                       len ? ", " : "", name, (unsigned long long)pct);
    }
    record_emit(&r);
    if (len)
        kprintf("plan check (actual / plan): %s\n", line);
}

void scenarios_run(uint64_t kmain_tsc)
{
    if (run_name[0] == 'n')
        return;
    calibrate_run(&cal);
    calibrate_machine(&cal, &plan_machine_dev, &machine);
    print_plan(tsc_to_ns(rdtsc() - kmain_tsc));
    verdict_arm();
    for (const struct scenario *next = next_after(FIRST_ORDER, explicit_choice); next;
         next = next_after(next->order, explicit_choice)) {
        kprintf("== scenario %s: %s%s\n", next->name, next->help,
                profile_id == PLAN_DEFAULT ? " [run=default: the reduced profile]" : "");
        size_t len = strlen(ran);
        hz_snprintf(ran + len, sizeof(ran) - len, "%s%s", len ? "," : "", next->name);
        timed_cyc = 0;
        uint64_t t0 = rdtsc();
        next->run();
        scenario_done(next, (size_t)(next - __start_hz_scenarios), rdtsc() - t0);
    }
    plan_check();
}

bool scenario_selected(const char *name)
{
    const struct scenario *s = find(name, strlen(name));
    if (!s || run_name[0] == 'n')
        return false;
    return explicit_choice ? chosen[s - __start_hz_scenarios] : s->in_default;
}

void scenarios_print_help(void)
{
    kprintf("scenarios (run=NAME[,NAME...]; * = in run=default):\n");
    for (const struct scenario *s = __start_hz_scenarios; s < __stop_hz_scenarios; s++)
        kprintf("  %c %-10s %s\n", s->in_default ? '*' : ' ', s->name, s->help);
}
