"""tools/hzlib/decide.py: the comparison rule of lib/compare.h in Python.

Reads tests/vectors/compare.txt, the file tests/unit/test_compare.c reads
too, and must reproduce every expected line; checks the hand-computed
cases by value and the Bonferroni z table against statistics.NormalDist
and against lib/compare.c's own table.
"""

import math
import os
import re
import statistics
import unittest

from hztest import ROOT
from hzlib import decide

VECTORS = os.path.join(ROOT, "tests", "vectors", "compare.txt")


def read_vectors():
    cases, cur = [], {}
    with open(VECTORS) as f:
        for line in f:
            w = line.split()
            if not w or w[0].startswith("#"):
                continue
            if w[0] == "case":
                cur = {"name": w[1]}
                cases.append(cur)
            elif w[0] in ("a", "b"):
                cur[w[0]] = (int(w[1]), [int(x) for x in w[2:]])
            elif w[0] == "cell":
                cur.setdefault("cells", []).append([int(x) for x in w[1:]])
            elif w[0] == "cpus":
                cur["cpus"] = (int(w[1]), int(w[2]))
            elif w[0] == "detail":
                cur["detail"] = [int(x) for x in w[1:]]
            elif w[0] == "burst":
                cur.setdefault("burst", {})[w[1]] = tuple(int(x) for x in w[2:])
            elif w[0] == "z":
                cur["z"], cur["tol"] = int(w[1]), int(w[3])
            elif w[0] == "expect":
                cur["expect"] = ([int(x) for x in w[1:5]], w[5].replace("too_few",
                                                                        decide.TOO_FEW))
    return cases


class SharedVectors(unittest.TestCase):
    def test_every_vector(self):
        cases = read_vectors()
        self.assertGreaterEqual(len(cases), 25)
        for c in cases:
            with self.subTest(c["name"]):
                (ab, a), (bb, b) = c["a"], c["b"]
                cells = c.get("cells")
                f = decide.round_factors([a, b] + cells) if cells else None
                got = decide.compare(a, ab, b, bb, c["z"], c["tol"], factors=f,
                                     cpus_a=c.get("cpus", (0, 0))[0],
                                     cpus_b=c.get("cpus", (0, 0))[1])
                nums, out = c["expect"]
                self.assertEqual([got.ratio_x1e6, got.lo_x1e6, got.hi_x1e6, got.k], nums)
                self.assertEqual(got.outcome, out)
                self.assertEqual(c["detail"], [int(got.rule == decide.ROUNDS), *got.bad,
                                               *got.f_x1000, *got.r1_x1000])
                for side, v in (("a", a), ("b", b)):
                    self.assertEqual(decide.burst(v, c["tol"]) or (0, 0, 0), c["burst"][side])

    def test_issue_30_cases(self):
        by = {c["name"]: c for c in read_vectors()}
        # zeros are errors, never a decision
        self.assertEqual(by["all-zero-cells"]["expect"][1], decide.TOO_FEW)
        self.assertEqual(by["all-zero-cells"]["detail"][1:3], [10, 10])
        self.assertEqual(by["zero-time-a"]["expect"][1], decide.TOO_FEW)
        # 2^62 against 2^61 ns: 0.5, no saturation
        self.assertEqual(by["overflow-2e62"]["expect"][0][0], 500000)
        self.assertEqual(by["overflow-2e62"]["expect"][1], decide.FASTER)
        # drift: removing the rounds decides what two samples cannot
        self.assertEqual(by["drift-rounds-removed"]["expect"][1], decide.SLOWER)
        self.assertEqual(by["drift-rounds-removed"]["detail"][0], 1)
        self.assertEqual(by["drift-two-sample"]["expect"][1], decide.UNDECIDED)
        # per-cell sticky phases: dependent, widened, no decision
        self.assertGreater(by["dependent-sticky-aa"]["detail"][3], 1000)
        self.assertEqual(by["dependent-sticky-aa"]["expect"][1], decide.UNDECIDED)
        # a burst of 6 of 10 named, and no decision
        self.assertEqual(by["burst-6-of-10-aa"]["burst"]["b"][:2], (2, 6))
        self.assertEqual(by["impossible-1tbps"]["detail"][1], 1)

    def test_one_sample(self):
        c = decide.one_sample([1100000, 1120000, 1090000, 1110000, 1130000, 1105000, 1115000])
        self.assertEqual(c.outcome, decide.SLOWER)
        self.assertEqual(c.rule, decide.PAIRED)
        self.assertEqual(decide.one_sample([1000000] * 5).outcome, decide.TOO_FEW)

    def test_hand_checked(self):
        by = {c["name"]: c for c in read_vectors()}
        self.assertEqual(by["identical-constant"]["expect"], ([10 ** 6] * 3 + [16], decide.TIE))
        self.assertEqual(by["twice-as-fast-per-byte"]["expect"][0][:3], [500000] * 3)
        self.assertEqual(by["twice-as-fast-per-byte"]["expect"][1], decide.FASTER)
        self.assertEqual(by["too-few-a"]["expect"][1], decide.TOO_FEW)
        # b = 3 a exactly, pairwise: the median ratio is 3
        self.assertEqual(by["three-times-slower"]["expect"][0][0], 3 * 10 ** 6)
        self.assertEqual(by["three-times-slower"]["expect"][1], decide.SLOWER)


class Rule(unittest.TestCase):
    def test_bonferroni_table(self):
        a0 = 2 * (1 - statistics.NormalDist().cdf(decide.Z_X1000 / 1000))
        want = [decide.Z_X1000] + [
            math.ceil(statistics.NormalDist().inv_cdf(1 - a0 / (2 * r)) * 1000)
            for r in range(2, 33)]
        self.assertEqual(list(decide.Z_BONFERRONI), want)
        with open(os.path.join(ROOT, "lib", "compare.c")) as f:
            body = re.search(r"z_bonferroni\[32\] = \{([^}]*)\}", f.read()).group(1)
        self.assertEqual([int(x) for x in body.replace(",", " ").split()], want)

    def test_moses_rank_matches_exact_table(self):
        # Hollander & Wolfe: m = n = 10 at 95 % two-sided, C = 24
        self.assertEqual(decide.moses_k(10, 10, 1960), 24)
        # n = 10, 95 %: 27.5 - 1.96 x 9.81 = 8.27 (the exact table value is 9)
        self.assertEqual(decide.signed_rank_k(10, 1960), 8)

    def test_round_factors_match_c_test(self):
        # tests/unit/test_interleave.c test_round_factors, the same numbers
        f = decide.round_factors([[1000, 1100, 1000, 1500], [2000, 2300, 2000, 3000],
                                  [500, 600], [100, 125, 0], [300, 390, 300], [400, 540, 400]])
        self.assertEqual(f, [1000000, 1225000, 1000000, 1000000])

    def test_ratio_does_not_saturate(self):
        self.assertEqual(decide.ratio_x1e6(1 << 62, 4096, 1 << 61, 4096), 500000)
        self.assertEqual(decide.ratio_x1e6(1, 1, 1 << 63, 1), decide.U64)

    def test_outcome_bounds(self):
        self.assertEqual(decide.outcome_of(952381, 1050000), decide.TIE)
        self.assertEqual(decide.outcome_of(952380, 1000000), decide.UNDECIDED)
        self.assertEqual(decide.outcome_of(1050001, 2000000), decide.SLOWER)
        self.assertEqual(decide.outcome_of(10, 952380), decide.FASTER)

    def test_tukey_matches_c_test(self):
        t = decide.tukey([100, 101, 100, 104, 103, 102, 150, 111, 99, 104])
        self.assertEqual(t, {"lo_mild": 0, "lo_severe": 0, "hi_mild": 1, "hi_severe": 1})


if __name__ == "__main__":
    unittest.main()
