/*
 * kernel/scenario.c - the `run=` option and the scenario registry.
 */
#include "kernel/scenario.h"
#include "kernel/console.h"
#include "lib/cmdline.h"
#include "lib/fmt.h"
#include "lib/kstring.h"

extern const struct scenario __start_hz_scenarios[], __stop_hz_scenarios[];

#define MAX_SCENARIOS 32

static bool chosen[MAX_SCENARIOS];
static bool explicit_choice;

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
    if (strcmp(v, "default") == 0) {
        explicit_choice = false;
        return 0;
    }
    if (strcmp(v, "none") == 0)
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
          .accepted = "default|none|NAME[,NAME...] (scenarios: see `help`)",
          .help = "what to run after start-up (default: every default scenario)");

void scenarios_run(void)
{
    size_t n = (size_t)(__stop_hz_scenarios - __start_hz_scenarios);
    int last = -2147483647 - 1;
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
