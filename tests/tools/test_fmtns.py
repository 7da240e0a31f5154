"""tools/hzlib/fmtns.py: the duration rounding rule of lib/fmt.h fmt_ns.

Reads tests/vectors/format_ns.txt, the file tests/unit/test_fmt.c reads
too, and must reproduce every line (25.08 s is "25.1 s" on both sides).
"""

import os
import unittest

from hztest import ROOT
from hzlib.fmtns import fmt_ns, fmt_ns_any

VECTORS = os.path.join(ROOT, "tests", "vectors", "format_ns.txt")


class FmtNs(unittest.TestCase):
    def test_vectors(self) -> None:
        n = 0
        with open(VECTORS) as f:
            for line in f:
                if line.startswith("#"):
                    continue
                ns, want = line.rstrip("\n").split("\t")
                self.assertEqual(fmt_ns(int(ns)), want, ns)
                n += 1
        self.assertGreaterEqual(n, 20)

    def test_claim_rounding(self) -> None:
        self.assertEqual(fmt_ns(25080000000), "25.1 s")
        self.assertEqual(fmt_ns_any(True), "?")
        self.assertEqual(fmt_ns_any(None), "?")
        self.assertEqual(fmt_ns_any(-1), "?")


if __name__ == "__main__":
    unittest.main()
