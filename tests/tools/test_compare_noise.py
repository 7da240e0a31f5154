"""tools/hzlib/decide.py under issue 30's noise models: the Python twin of
tests/unit/test_compare_noise.c (docs/validation.md "Drift, sticky phases,
bursts and impossible samples").

The same models on a 12-cell interleaved run, fewer runs (RUNS a model,
fixed seeds) so that it stays quick: shared drift is removed by the round
factors (round_factors) where the old rule (all samples as two
independent sets) loses its ties; a burst over 60 % of a look is named;
zeros and times near 2^62 ns never give a false decision.
"""

import random
import unittest

from hzlib import decide

RUNS = 120
A_NS = 44e6
GIB = 1 << 30
LEVELS = (1.0, None, 0.5, 0.7, 0.8, 1.5, 2.0, 3.0, 0.4, 1.2, 2.5, 0.9)


def cells(rng, model, ratio, n):
    """One run: every cell's n samples (A first, B second)."""
    out = []
    start, bx = rng.randrange(5), 1.3 + 0.5 * rng.random()
    for c, lvl in enumerate(LEVELS):
        v = []
        for i in range(n):
            t = A_NS * (ratio if lvl is None else lvl) * (1 + 0.03 * (sum(
                rng.random() for _ in range(12)) - 6))
            if model in ("base", "drift") and rng.random() < 0.15:
                t *= 1.3 + 0.5 * rng.random()
            if model == "drift" and i >= n // 2:
                t *= 1.2
            if model == "burst" and c == 1 and start <= i < start + 6:
                t *= bx
            v.append(int(t))
        out.append(v)
    return out


def old_rule(a, b):
    """Issue 20's rule: all samples as two independent sets, no dependence."""
    r = sorted(decide.scale(y, decide.ONE, x) for x in a for y in b)
    k = decide.moses_k(len(a), len(b))
    return decide.outcome_of(r[k - 1], r[len(r) - k])


def race(run, new=True):
    """The kernel's race over looks at n = 10, 20, 30, 40: the outcome."""
    out = decide.UNDECIDED
    for n in (10, 20, 30, 40):
        if new:
            f = decide.round_factors([c[:n] for c in run])
            out = decide.compare(run[0][:n], GIB, run[1][:n], GIB, factors=f).outcome
        else:
            out = old_rule(run[0][:n], run[1][:n])
        if out in (decide.FASTER, decide.SLOWER, decide.TIE):
            break
    return out


class NoiseModels(unittest.TestCase):
    def rates(self, model, ratio, seed):
        rng = random.Random(seed)
        runs = [cells(rng, model, ratio, 40) for _ in range(RUNS)]
        new = [race(r) for r in runs]
        old = [race(r, new=False) for r in runs]
        return new, old

    def test_drift_is_removed(self):
        new, old = self.rates("drift", 1.0, 301)
        self.assertNotIn(decide.FASTER, new + old)
        self.assertNotIn(decide.SLOWER, new + old)
        self.assertGreaterEqual(new.count(decide.TIE), 0.9 * RUNS)
        self.assertLess(old.count(decide.TIE), 0.75 * RUNS)
        new, old = self.rates("drift", 1.12, 302)
        self.assertGreaterEqual(new.count(decide.SLOWER), 0.95 * RUNS)
        self.assertGreater(new.count(decide.SLOWER), old.count(decide.SLOWER))

    def test_burst_is_named(self):
        rng = random.Random(303)
        named = sum(decide.burst(cells(rng, "burst", 1.0, 10)[1]) is not None
                    for _ in range(RUNS))
        self.assertGreaterEqual(named, 0.95 * RUNS)

    def test_zeros_and_2e62(self):
        rng = random.Random(304)
        for i in range(40):
            ratio = 1.12 if i % 2 else 1.0
            run = cells(rng, "base", ratio, 40)
            a = [x << 36 for x in run[0]]
            a[3] = a[17] = 0
            b = [x << 36 for x in run[1]]
            c = decide.compare(a, GIB, b, GIB, cpus_a=1, cpus_b=1)
            self.assertEqual(c.bad, (2, 0))
            self.assertNotEqual(c.outcome, decide.FASTER)
            self.assertNotIn(c.outcome, (decide.SLOWER,) if ratio == 1.0 else (decide.TIE,))


if __name__ == "__main__":
    unittest.main()
