/*
 * tests/unit/test_interleave.c - lib/interleave.c: SplitMix64 against its
 * published reference outputs, per-round orders (permutations, replayed by
 * the seed, different between rounds and seeds) and the stopping rule
 * driven by fixture sample streams (expected stop rounds worked out with
 * exact binomial sums in Python), and ilv_run()'s plan: the warm-up round,
 * then one repeat per cell per round in the seeded order, until the rule,
 * the budget or a failed repeat stops it; and the race (issue 20 §3):
 * looks at n = min, 10, 20, 30, 40, only the cells settle() still needs get
 * further repeats (in the seeded order among them), each cell's reason to
 * stop (decided, budget, cap, abort), replayed by the seed.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "lib/interleave.h"

static void test_splitmix64_reference(void **state)
{
    uint64_t st = 0; /* reference values of SplitMix64 from state 0 */
    assert_true(ilv_splitmix64(&st) == 0xe220a8397b1dcdafull);
    assert_true(ilv_splitmix64(&st) == 0x6e789e6aa1b965f4ull);
    assert_true(ilv_splitmix64(&st) == 0x06c45d188009454full);
}

static bool is_permutation(const unsigned *o, size_t n)
{
    bool seen[64] = {false};
    for (size_t i = 0; i < n; i++) {
        if (o[i] >= n || seen[o[i]])
            return false;
        seen[o[i]] = true;
    }
    return true;
}

static void test_orders(void **state)
{
    enum { N = 20, ROUNDS = 12 };
    unsigned o[ROUNDS][N], again[N], other[N];
    for (unsigned r = 0; r < ROUNDS; r++) {
        ilv_order(42, r, o[r], N);
        assert_true(is_permutation(o[r], N));
        for (unsigned q = 0; q < r; q++) /* every round a different order */
            assert_memory_not_equal(o[q], o[r], sizeof(o[r]));
    }
    ilv_order(42, 3, again, N); /* the seed replays a round */
    assert_memory_equal(again, o[3], sizeof(again));
    ilv_order(43, 3, other, N); /* another seed, another order */
    assert_memory_not_equal(other, o[3], sizeof(other));

    /* Over many rounds every cell runs first about equally often. */
    unsigned first[N] = {0};
    for (unsigned r = 0; r < 4000; r++) {
        ilv_order(7, r, again, N);
        first[again[0]]++;
    }
    for (unsigned i = 0; i < N; i++)
        assert_true(first[i] > 120 && first[i] < 290); /* mean 200, sd 13.8 */

    unsigned one = 99;
    ilv_order(1, 0, &one, 1);
    assert_int_equal(one, 0);
    ilv_order(1, 0, NULL, 0); /* nothing to order: no access */
}

static void test_next(void **state)
{
    struct ilv_rule r = {.min_rounds = 10, .max_rounds = 30, .ci_x100 = 200};
    assert_int_equal(ilv_next(&r, 9, true, true), ILV_MORE); /* the minimum always runs */
    assert_int_equal(ilv_next(&r, 10, true, true), ILV_STABLE);
    assert_int_equal(ilv_next(&r, 10, false, false), ILV_MORE);
    assert_int_equal(ilv_next(&r, 10, false, true), ILV_BUDGET);
    assert_int_equal(ilv_next(&r, 30, false, false), ILV_CAP);
    assert_int_equal(ilv_next(&r, 30, false, true), ILV_CAP);
    assert_string_equal(ilv_verdict_name(ILV_STABLE), "stable");
    assert_string_equal(ilv_verdict_name(ILV_BUDGET), "budget");
    assert_string_equal(ilv_verdict_name(ILV_DECIDED), "decided");
    assert_string_equal(ilv_verdict_name((enum ilv_verdict)9), "?");
}

static void test_look_schedule(void **state)
{
    struct ilv_rule r = {.min_rounds = 10, .max_rounds = 40, .look_every = ILV_LOOK_EVERY};
    unsigned looks[8], n = 0;
    for (unsigned d = 0; d <= 45; d++)
        if (ilv_look(&r, d))
            looks[n++] = d;
    assert_int_equal(n, 4);
    assert_int_equal(looks[0], 10);
    assert_int_equal(looks[1], 20);
    assert_int_equal(looks[2], 30);
    assert_int_equal(looks[3], 40);
    r.min_rounds = 6; /* the minimum is a look, then the schedule */
    assert_true(ilv_look(&r, 6));
    assert_false(ilv_look(&r, 5));
    assert_false(ilv_look(&r, 7));
    assert_true(ilv_look(&r, 10));
    assert_false(ilv_look(&r, 15));
    r.look_every = 0; /* every round from the minimum on */
    assert_false(ilv_look(&r, 5));
    assert_true(ilv_look(&r, 6));
    assert_true(ilv_look(&r, 7));
}

/* Cell B settles after a noisy start: its median interval (ranks 3..10 of
 * 12) first lies within +-2 % at 12 samples; cell A is flat throughout. */
static const uint64_t stream_b[20] = {900,  1100, 950,  1080, 1000, 1000, 1000, 1000, 1000, 1000,
                                      1000, 1000, 1000, 1000, 1000, 1000, 1000, 1000, 1000, 1000};

/* Drive rounds as bench/bench_clear.c does; return the rounds run. */
static unsigned drive(const struct ilv_rule *r, enum ilv_verdict *why)
{
    uint64_t a[30], b[30], scratch[30];
    unsigned done = 0, order[2];
    for (;;) {
        ilv_order(5, done, order, 2);
        for (unsigned k = 0; k < 2; k++) {
            if (order[k] == 0)
                a[done] = 1000;
            else
                b[done] = stream_b[done % 20];
        }
        done++;
        bool stable = ilv_cell_stable(a, done, r->ci_x100, scratch) &&
                      ilv_cell_stable(b, done, r->ci_x100, scratch);
        *why = ilv_next(r, done, stable, false);
        if (*why != ILV_MORE)
            return done;
    }
}

static void test_stop_rule_on_fixtures(void **state)
{
    enum ilv_verdict why;
    struct ilv_rule r = {.min_rounds = 10, .max_rounds = 30, .ci_x100 = 200};
    assert_int_equal(drive(&r, &why), 12);
    assert_int_equal(why, ILV_STABLE);

    r.max_rounds = 11; /* the cap comes first */
    assert_int_equal(drive(&r, &why), 11);
    assert_int_equal(why, ILV_CAP);

    r = (struct ilv_rule){.min_rounds = 10, .max_rounds = 30, .ci_x100 = 1000};
    assert_int_equal(drive(&r, &why), 10); /* +-10 %: 950..1080 is inside at once */
    assert_int_equal(why, ILV_STABLE);

    uint64_t v[12], scratch[12];
    memcpy(v, stream_b, sizeof(v));
    assert_true(ilv_cell_stable(v, 12, 200, scratch));
    assert_false(ilv_cell_stable(v, 11, 200, scratch)); /* ranks 2..10: 950 */
    assert_memory_equal(v, stream_b, sizeof(v));        /* input untouched */
}

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

static const uint64_t *fake_samples(void *arg, size_t cell, size_t *n)
{
    struct fake *f = arg;
    *n = f->n[cell];
    return f->v[cell];
}

static bool fake_budget(void *arg)
{
    struct fake *f = arg;
    return f->budget_at && f->n[0] >= f->budget_at;
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

static unsigned run_fake(struct fake *f, const struct ilv_rule *rule, enum ilv_verdict *why)
{
    static unsigned order[3];
    static uint64_t scratch[30];
    struct ilv_run r = {.seed = 77,
                        .rule = rule,
                        .ncells = 3,
                        .order = order,
                        .scratch = scratch,
                        .repeat = fake_repeat,
                        .samples = fake_samples,
                        .budget_spent = fake_budget,
                        .round_begins = fake_begins,
                        .arg = f,
                        .stop = stop};
    unsigned done = 99;
    *why = ilv_run(&r, &done);
    return done;
}

/* The same fake, raced: settle() says which cells are still needed. */
static unsigned race_fake(struct fake *f, const struct ilv_rule *rule, enum ilv_verdict *why)
{
    static unsigned order[3];
    static bool open[3];
    struct ilv_run r = {.seed = 77,
                        .rule = rule,
                        .ncells = 3,
                        .order = order,
                        .repeat = fake_repeat,
                        .samples = fake_samples,
                        .budget_spent = fake_budget,
                        .round_begins = fake_begins,
                        .arg = f,
                        .stop = stop,
                        .settle = fake_settle,
                        .open = open};
    unsigned done = 99;
    *why = ilv_run(&r, &done);
    return done;
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

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_splitmix64_reference),
        cmocka_unit_test(test_orders),
        cmocka_unit_test(test_next),
        cmocka_unit_test(test_look_schedule),
        cmocka_unit_test(test_stop_rule_on_fixtures),
        cmocka_unit_test(test_run_plan),
        cmocka_unit_test(test_race),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
