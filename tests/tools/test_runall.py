"""tests/run-all -t: TAP version 13 lines, as kvm-unit-tests' run_tests.sh -t."""

import contextlib
import importlib.machinery
import importlib.util
import io
import os
import unittest

import hztest


def load_run_all():
    path = os.path.join(hztest.ROOT, "tests", "run-all")
    loader = importlib.machinery.SourceFileLoader("run_all", path)
    spec = importlib.util.spec_from_loader("run_all", loader)
    mod = importlib.util.module_from_spec(spec)
    loader.exec_module(mod)
    return mod


class Tap(unittest.TestCase):
    def test_tap_lines_number_every_verdict(self):
        ra = load_run_all()
        ra.TAP = True
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            ra.report("unit/a", "PASS")
            ra.report("boot/b", "FAIL", ["exit status 4 (crash), expected 0"])
            ra.report("boot/c", "SKIP", ["KVM unusable"])
        self.assertEqual(out.getvalue().splitlines(),
                         ["ok 1 - unit/a", "not ok 2 - boot/b",
                          "# exit status 4 (crash), expected 0",
                          "ok 3 - boot/c # SKIP KVM unusable"])
        self.assertEqual(ra.COUNTS, {"PASS": 1, "FAIL": 1, "SKIP": 1})

    def test_plain_lines_without_t(self):
        ra = load_run_all()
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            ra.report("unit/a", "PASS")
            ra.report("boot/c", "SKIP", ["why"])
        self.assertEqual(out.getvalue().splitlines(), ["PASS unit/a", "SKIP boot/c (why)"])


if __name__ == "__main__":
    unittest.main()
