/*
 * tests/unit/test_interleave_run.c - lib/interleave.c ilv_run(): the
 * warm-up round, then one repeat per cell per round in the seeded order,
 * until the rule, the budget or a failed repeat stops it; the race (issue
 * 20 §3): looks at n = min, 10, 20, 30, 40, only the cells settle() still
 * needs get further repeats (in the seeded order among them), each cell's
 * reason to stop (decided, budget, cap, abort), replayed by the seed; and
 * the per-cell sample series and the clock deadline (issue 21).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "lib/interleave.h"

/* A fake benchmark for ilv_run(): logs every (cell, round) it is asked
 * for and gives each cell a sample stream (flat, or noisy for ever). */
struct fake {
    unsigned log_cell[200], log_round[200], nlog;
    uint64_t v[3][40];
    size_t n[3];
    bool noisy;         /* cell 2 alternates 800 / 1200: never stable */
    unsigned fail_at;   /* repeat number (1-based) that fails, 0: none */
    unsigned budget_at; /* budget spent once this many timed rounds ran, 0: never */
    unsigned begun[60], nbegun;
    /* racing: settle() drops cell c at the first look at or past drop_at[c]
     * (0: never); each look's round is logged */
    unsigned drop_at[3], looks[10], nlooks, round;
};

static bool fake_repeat(void *arg, size_t cell, unsigned round)
{
    struct fake *f = arg;
    f->round = round;
    f->log_cell[f->nlog] = (unsigned)cell;
    f->log_round[f->nlog++] = round;
    if (f->fail_at && f->nlog == f->fail_at)
        return false;
    if (round > 0) {
        uint64_t x = 1000;
        if (cell == 2 && f->noisy)
            x = round % 2 ? 800 : 1200;
        f->v[cell][f->n[cell]++] = x;
    }
    return true;
}

/* The fake's clock: the timed rounds cell 0 has run (the fake's budget
 * counts rounds, as a TSC deadline counts cycles). */
static const struct fake *clocked;
static uint64_t fake_clock(void) { return clocked->n[0]; }

/* Each cell's series: the fake's v[c][0..n[c]). */
static struct ilv_series fake_series[3];

/* The run's budget fields for f: spent once budget_at timed rounds ran
 * (clock read when round 1 begins: 0; spent when more than budget_at - 1
 * past it), no budget for budget_at 0. */
static void fake_budget(struct fake *f, struct ilv_run *r)
{
    clocked = f;
    for (unsigned c = 0; c < 3; c++)
        fake_series[c] = (struct ilv_series){f->v[c], &f->n[c]};
    r->series = fake_series;
    r->clock = f->budget_at ? fake_clock : 0;
    r->budget = f->budget_at ? f->budget_at - 1 : 0;
    r->budget_from = 1;
}

static void fake_begins(void *arg, unsigned round)
{
    struct fake *f = arg;
    f->begun[f->nbegun++] = round;
}

static void fake_settle(void *arg, bool *open)
{
    struct fake *f = arg;
    f->looks[f->nlooks++] = f->round;
    for (unsigned c = 0; c < 3; c++)
        open[c] = !f->drop_at[c] || f->round < f->drop_at[c];
}

static enum ilv_verdict stop[3];

/* Run the fake under rule; raced (settle() says which cells are still
 * needed) when race, and then without scratch: a race never reads it. */
static unsigned drive_fake(struct fake *f, const struct ilv_rule *rule, bool race,
                           enum ilv_verdict *why)
{
    static unsigned order[3];
    static uint64_t scratch[30];
    static bool open[3];
    struct ilv_run r = {.seed = 77,
                        .rule = rule,
                        .ncells = 3,
                        .order = order,
                        .scratch = race ? 0 : scratch,
                        .repeat = fake_repeat,
                        .round_begins = fake_begins,
                        .arg = f,
                        .stop = stop,
                        .settle = race ? fake_settle : 0,
                        .open = open};
    unsigned done = 99;
    fake_budget(f, &r);
    *why = ilv_run(&r, &done);
    return done;
}

static unsigned run_fake(struct fake *f, const struct ilv_rule *rule, enum ilv_verdict *why)
{
    return drive_fake(f, rule, false, why);
}

static unsigned race_fake(struct fake *f, const struct ilv_rule *rule, enum ilv_verdict *why)
{
    return drive_fake(f, rule, true, why);
}

static void test_run_plan(void **state)
{
    static struct fake f;
    struct ilv_rule rule = {.min_rounds = 10, .max_rounds = 30, .ci_x100 = 200};
    enum ilv_verdict why;
    memset(&f, 0, sizeof(f));
    /* Flat cells: stable at the minimum, after the warm-up round. */
    assert_int_equal(run_fake(&f, &rule, &why), 10);
    assert_int_equal(why, ILV_STABLE);
    assert_int_equal(f.nlog, 3 * 11);
    for (unsigned r = 0; r <= 10; r++) { /* round r is ilv_order(77, r), each cell once */
        unsigned want[3];
        ilv_order(77, r, want, 3);
        for (unsigned k = 0; k < 3; k++) {
            assert_int_equal(f.log_round[3 * r + k], r);
            assert_int_equal(f.log_cell[3 * r + k], want[k]);
        }
        assert_int_equal(f.begun[r], r);
    }
    for (unsigned c = 0; c < 3; c++) { /* the warm-up gives no sample */
        assert_int_equal(f.n[c], 10);
        assert_int_equal(stop[c], ILV_STABLE);
    }

    /* A cell that never settles: rounds are added up to the cap. */
    memset(&f, 0, sizeof(f));
    f.noisy = true;
    assert_int_equal(run_fake(&f, &rule, &why), 30);
    assert_int_equal(why, ILV_CAP);
    assert_int_equal(f.n[0], 30);
    assert_int_equal(f.n[2], 30);
    assert_int_equal(stop[0], ILV_CAP); /* stable, but the run went on for cell 2 */

    /* ... or until the budget is spent (never before the minimum). */
    memset(&f, 0, sizeof(f));
    f.noisy = true;
    f.budget_at = 4;
    assert_int_equal(run_fake(&f, &rule, &why), 10);
    assert_int_equal(why, ILV_BUDGET);
    memset(&f, 0, sizeof(f));
    f.noisy = true;
    f.budget_at = 13;
    assert_int_equal(run_fake(&f, &rule, &why), 13);
    assert_int_equal(why, ILV_BUDGET);

    /* A failed repeat stops at once, mid-round. */
    memset(&f, 0, sizeof(f));
    f.fail_at = 3 * 4 + 2; /* second repeat of timed round 4 */
    assert_int_equal(run_fake(&f, &rule, &why), 3);
    assert_int_equal(why, ILV_ABORT);
    assert_int_equal(f.nlog, 14);
    assert_int_equal(stop[1], ILV_ABORT);
    assert_string_equal(ilv_verdict_name(ILV_ABORT), "abort");
}

static void test_race(void **state)
{
    static struct fake f, g;
    struct ilv_rule rule = {.min_rounds = 10, .max_rounds = 40, .look_every = ILV_LOOK_EVERY};
    enum ilv_verdict why;
    memset(&f, 0, sizeof(f));
    f.drop_at[0] = 20; /* cell 1 settles at the first look, 0 at the second, 2 never */
    f.drop_at[1] = 10;
    assert_int_equal(race_fake(&f, &rule, &why), 40);
    assert_int_equal(why, ILV_CAP);
    assert_int_equal(f.nlooks, 4); /* looked at n = 10, 20, 30, 40 only */
    for (unsigned k = 0; k < 4; k++)
        assert_int_equal(f.looks[k], 10 * (k + 1));
    assert_int_equal(f.n[0], 20);
    assert_int_equal(f.n[1], 10);
    assert_int_equal(f.n[2], 40);
    assert_int_equal(stop[0], ILV_DECIDED);
    assert_int_equal(stop[1], ILV_DECIDED);
    assert_int_equal(stop[2], ILV_CAP);
    assert_int_equal(f.nlog, 3 * 11 + 2 * 10 + 20);
    /* Every round runs the active cells once, in ilv_order(77, r) with the
     * dropped ones left out; the warm-up runs all. */
    unsigned at = 0;
    for (unsigned r = 0; r <= 40; r++) {
        unsigned want[3];
        ilv_order(77, r, want, 3);
        for (unsigned k = 0; k < 3; k++) {
            unsigned c = want[k];
            if ((c == 1 && r > 10) || (c == 0 && r > 20))
                continue;
            assert_int_equal(f.log_cell[at], c);
            assert_int_equal(f.log_round[at++], r);
        }
    }
    assert_int_equal(at, f.nlog);

    /* The same seed replays the same run. */
    memset(&g, 0, sizeof(g));
    g.drop_at[0] = 20;
    g.drop_at[1] = 10;
    enum ilv_verdict again;
    race_fake(&g, &rule, &again);
    assert_int_equal(again, why);
    assert_int_equal(g.nlog, f.nlog);
    assert_memory_equal(g.log_cell, f.log_cell, sizeof(f.log_cell));

    /* Every cell settled at a look: the run is decided there. */
    memset(&f, 0, sizeof(f));
    f.drop_at[0] = f.drop_at[1] = f.drop_at[2] = 20;
    assert_int_equal(race_fake(&f, &rule, &why), 20);
    assert_int_equal(why, ILV_DECIDED);
    for (unsigned c = 0; c < 3; c++)
        assert_int_equal(stop[c], ILV_DECIDED);

    /* The budget ends it between looks: one last look there, so a cell
     * settled by then is "decided", the others "budget". */
    memset(&f, 0, sizeof(f));
    f.drop_at[1] = 10;
    f.drop_at[2] = 15;
    f.budget_at = 15;
    assert_int_equal(race_fake(&f, &rule, &why), 15);
    assert_int_equal(why, ILV_BUDGET);
    assert_int_equal(f.nlooks, 2);
    assert_int_equal(f.looks[1], 15);
    assert_int_equal(stop[0], ILV_BUDGET);
    assert_int_equal(stop[1], ILV_DECIDED);
    assert_int_equal(stop[2], ILV_DECIDED);
    assert_int_equal(f.n[1], 10);

    /* The cap is a look too; a minimum off the schedule is one. */
    memset(&f, 0, sizeof(f));
    f.drop_at[0] = 25;
    rule = (struct ilv_rule){.min_rounds = 6, .max_rounds = 25, .look_every = ILV_LOOK_EVERY};
    assert_int_equal(race_fake(&f, &rule, &why), 25);
    assert_int_equal(f.nlooks, 4); /* 6, 10, 20, 25 */
    assert_int_equal(f.looks[0], 6);
    assert_int_equal(f.looks[3], 25);
    assert_int_equal(stop[0], ILV_DECIDED);
    assert_int_equal(stop[1], ILV_CAP);

    /* A failed repeat: the dropped cells keep their reason. */
    memset(&f, 0, sizeof(f));
    f.drop_at[0] = 10;
    f.fail_at = 3 * 11 + 1; /* first repeat of round 11 */
    rule = (struct ilv_rule){.min_rounds = 10, .max_rounds = 40, .look_every = ILV_LOOK_EVERY};
    assert_int_equal(race_fake(&f, &rule, &why), 10);
    assert_int_equal(why, ILV_ABORT);
    assert_int_equal(stop[0], ILV_DECIDED);
    assert_int_equal(stop[1], ILV_ABORT);
    assert_int_equal(stop[2], ILV_ABORT);
}

/* The new API's own parts: the stability look reads each cell's series
 * where the cell keeps it (a series that lies about its count changes the
 * verdict), and the deadline starts at budget_from and counts clock ticks,
 * strictly more than `budget` (a deadline measured from the warm-up, or
 * spent at equality, ends at another round). */
static uint64_t ticks;
static uint64_t tick_clock(void) { return ticks; }
static bool tick_repeat(void *arg, size_t cell, unsigned round)
{
    ticks += 10; /* every repeat takes 10 ticks, the warm-up's too */
    return fake_repeat(arg, cell, round);
}

static void test_series_and_deadline(void **state)
{
    static struct fake f;
    static unsigned order[3];
    static uint64_t scratch[40];
    struct ilv_rule rule = {.min_rounds = 10, .max_rounds = 30, .ci_x100 = 200};
    struct ilv_run r = {.seed = 77,
                        .rule = &rule,
                        .ncells = 3,
                        .order = order,
                        .scratch = scratch,
                        .series = fake_series,
                        .repeat = tick_repeat,
                        .arg = &f,
                        .clock = tick_clock,
                        .budget = 3 * 30, /* three rounds of 3 cells x 10 ticks */
                        .budget_from = 11,
                        .stop = stop};
    enum ilv_verdict why;
    unsigned done;
    /* noisy cell 2: the deadline, read from round 11's start, ends it
     * after round 14 (120 ticks > 90; 90 after round 13 is not more) */
    memset(&f, 0, sizeof(f));
    f.noisy = true;
    ticks = 0;
    for (unsigned c = 0; c < 3; c++)
        fake_series[c] = (struct ilv_series){f.v[c], &f.n[c]};
    why = ilv_run(&r, &done);
    assert_int_equal(why, ILV_BUDGET);
    assert_int_equal(done, 14);
    /* from the warm-up on (t0 = 0), the same budget is gone by the minimum */
    memset(&f, 0, sizeof(f));
    f.noisy = true;
    r.budget_from = 0;
    why = ilv_run(&r, &done);
    assert_int_equal(why, ILV_BUDGET);
    assert_int_equal(done, 10);
    /* no clock: the cap */
    memset(&f, 0, sizeof(f));
    f.noisy = true;
    r.clock = 0;
    why = ilv_run(&r, &done);
    assert_int_equal(why, ILV_CAP);
    assert_int_equal(done, 30);
    /* the look reads the series it is given: cell 2's first two samples
     * (800, 1200, ...) never settle, but a series of cell 0's flat ones
     * in its place does, at the minimum */
    memset(&f, 0, sizeof(f));
    f.noisy = true;
    fake_series[2] = (struct ilv_series){f.v[0], &f.n[0]};
    why = ilv_run(&r, &done);
    assert_int_equal(why, ILV_STABLE);
    assert_int_equal(done, 10);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_run_plan),
        cmocka_unit_test(test_race),
        cmocka_unit_test(test_series_and_deadline),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
