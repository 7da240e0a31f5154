"""tests/boot/boottests.py: the case table loads and the checks can fail."""

import os
import re
import tempfile
import unittest

import hztest
import boottests as boot  # tests/boot/boottests.py
from hzlib import runner

HEADER = {"t": "header", "v": 1, "version": "0.1.0", "commit": "abc", "cc": "gcc",
          "cc_version": "gcc (Debian 12.2.0-14+deb12u1) 12.2.0", "cflags": "-O2", "boot": "pvh",
          "loader": "pvh", "cmdline": "run=none", "cpu": {"vendor": "GenuineIntel"},
          "hypervisor": "TCGTCGTCGTCG", "tcg": True, "features": {}, "mem": {"usable_bytes": 1},
          "page_size": "1G", "run": 0}


def summary(status, **kw):
    s = {"t": "summary", "v": 1, "pass": 0, "fail": 0, "skip": 0, "status": status,
         "status_name": runner.STATUS_NAMES[status], "run": 0}
    s.update(kw)
    return s


def outcome(records, status, accel="tcg", timed_out=False):
    return runner.Outcome(records=records, status=status, accel=accel, timed_out=timed_out,
                          diags=[])


def case(text):
    with tempfile.NamedTemporaryFile("w", suffix=".cfg", delete=False) as f:
        f.write("[DEFAULT]\nboot = direct\naccel = tcg\nmem = 2G\nsmp = 1\ncpu =\n"
                "prealloc = no\nargs = run=none\ntimeout = 60\nstatus = 0\nrecords =\n"
                "log =\ngroups = boot\n" + text)
    try:
        return boot.load_cases(f.name)[0]
    finally:
        os.unlink(f.name)


def unexplained_logs(text):
    """(line number, line) of each `log =` key with regexes in a cases.cfg
    text whose comment block right above it has no `# log:` line saying
    which product line it checks."""
    lines, bad = text.splitlines(), []
    for i, line in enumerate(lines):
        if not re.match(r"log\s*=\s*\S", line):
            continue
        j = i - 1
        while j >= 0 and lines[j].startswith("#") and not lines[j].startswith("# log:"):
            j -= 1
        if j < 0 or not lines[j].startswith("# log:"):
            bad.append((i + 1, line))
    return bad


class Table(unittest.TestCase):
    def test_the_real_table_loads(self):
        cases = boot.load_cases(os.path.join(hztest.ROOT, "tests", "boot", "cases.cfg"))
        names = [c.name for c in cases]
        for want in ("bios-iso", "uefi-iso", "pxe-bios", "pxe-uefi", "direct-pvh",
                     "bad-option", "selftest-ud", "selftest-pf"):
            self.assertIn(want, names)
        self.assertEqual({c.boot for c in cases}, set(boot.BOOT_HEADER))
        bad = [c for c in cases if c.name == "bad-option"][0]
        self.assertEqual((bad.args, bad.status), ("bogus=1", 3))
        self.assertEqual(bad.records[0], ["config", "option=bogus", "value=1", "error?"])

    def test_every_log_regex_names_its_product_line(self):
        with open(os.path.join(hztest.ROOT, "tests", "boot", "cases.cfg")) as f:
            self.assertEqual(unexplained_logs(f.read()), [],
                             "a log regex checks console prose: make it a record "
                             "condition, or say which product line it is under `# log:`")
        explained = "[a]\n# log: the exit line is the product\n#      (the last line)\nlog = ^x$\n"
        self.assertEqual(unexplained_logs(explained), [])
        self.assertEqual(unexplained_logs("[a]\nlog =\n"), [])  # no regex, nothing to say
        self.assertEqual(unexplained_logs("[a]\n# a note\nlog = ^x$\n      ^y$\n"),
                         [(3, "log = ^x$")])
        self.assertEqual(unexplained_logs("[a]\n# log: the verdict\nargs = x\nlog = ^x$\n"),
                         [(4, "log = ^x$")])  # the comment must sit right above the key

    def test_matrix_covers_each_value_twice(self):
        rows = [c for c in boot.load_cases() if "matrix" in c.groups]
        self.assertGreaterEqual(len(rows), 40)
        values = {
            "machine": {c.machine.split(",")[0] for c in rows},
            "boot": {c.boot for c in rows},
            "cpu": {c.cpu or "host" for c in rows},
            "smp": {c.smp for c in rows},
            "mem": {c.mem if "max-ram-below-4g" not in c.machine else "hole" for c in rows},
        }
        want = {"machine": {"pc", "q35"}, "boot": set(boot.BOOT_HEADER),
                "cpu": {"qemu64", "Haswell", "Icelake-Server", "EPYC-Milan", "max", "host"},
                "smp": {1, 2, 4, 16, 64}, "mem": {"512M", "3G", "8G", "20G", "hole"}}
        self.assertEqual(values, want)
        for col, vals in want.items():
            for v in vals:
                n = sum(1 for c in rows if v in (values_of(c)[col]))
                self.assertGreaterEqual(n, 2, "%s %s appears %d time(s)" % (col, v, n))
        host = [c for c in rows if not c.cpu]
        self.assertTrue(all(c.accel == "kvm" and c.boot == "direct" for c in host))
        self.assertTrue(all(c.accel == "tcg" for c in rows if c.cpu))

    def test_matrix_row_errors(self):
        self.assertRaises(ValueError, boot.matrix_row, "q35 direct qemu64 1".split())
        self.assertRaises(ValueError, boot.matrix_row, "q35 uefi host 1 3G".split())
        self.assertRaises(ValueError, boot.matrix_row, "q35 direct pentium 1 3G".split())
        name, keys = boot.matrix_row("pc iso max 4 6G/1G".split())
        self.assertEqual(name, "matrix-pc-iso-max-4-6G-1G")
        self.assertEqual((keys["machine"], keys["mem"], keys["accel"]),
                         ("pc,max-ram-below-4g=1G", "6G", "tcg"))
        self.assertIn("memmap type=usable base=0x100000000", keys["records"])

    def test_select_by_name_or_group(self):
        cases = boot.load_cases()
        self.assertEqual([c.name for c in boot.select(cases, "selftest-")],
                         ["selftest-ud", "selftest-pf"])
        self.assertTrue(all("pxe" in c.groups for c in boot.select(cases, "pxe")))


def values_of(c):
    return {"machine": {c.machine.split(",")[0]}, "boot": {c.boot}, "cpu": {c.cpu or "host"},
            "smp": {c.smp}, "mem": {"hole" if "max-ram-below-4g" in c.machine else c.mem}}


class Checks(unittest.TestCase):
    def test_record_conditions(self):
        r = {"t": "crash", "name": "#PF", "cr2": "0x7f0000000000", "regs": {"rax": "0x1"},
             "ok": True, "n": 14}
        self.assertTrue(boot.record_matches(r, ["name=#PF", "cr2~^0x[0-9a-f]+$", "regs.rax?",
                                                "ok=true", "n=14"]))
        self.assertFalse(boot.record_matches(r, ["name=#UD"]))
        self.assertFalse(boot.record_matches(r, ["regs.rbx?"]))
        self.assertFalse(boot.record_matches(r, ["cr2~^0x0$"]))
        self.assertRaises(ValueError, boot.record_matches, r, ["name"])
        self.assertTrue(boot.record_matches(r, ["regs.rbx!", "left_out.pit!"]))
        self.assertFalse(boot.record_matches(r, ["regs.rax!"]))
        self.assertRaises(ValueError, boot.record_matches, r, ["regs.rax!x"])

    def test_a_good_run_passes(self):
        c = case("[ok]\n")
        self.assertEqual(boot.check_case(c, outcome([HEADER, summary(0)], 0), ""), [])

    def test_exit_status_and_summary_must_agree(self):
        c = case("[ok]\n")
        errs = boot.check_case(c, outcome([HEADER, summary(0)], 1), "")
        self.assertEqual(errs, ["exit status 1 (fail), expected 0",
                                "summary.status 0 disagrees with exit status 1"])

    def test_missing_summary_hang_and_counts(self):
        c = case("[ok]\n")
        errs = boot.check_case(c, outcome([HEADER], 124, timed_out=True), "")
        self.assertEqual(errs[:3], ["timed out after 60 s (hang)",
                                    "exit status 124 (timeout), expected 0",
                                    "want exactly one summary record, last (got 0)"])
        errs = boot.check_case(c, outcome([HEADER, summary(0, **{"pass": 2})], 0), "")
        self.assertEqual(errs, ["summary.pass = 2 but 0 pass records"])

    def test_header_shape_boot_path_and_cmdline(self):
        c = case("[iso]\nboot = iso\nargs = run=none x=1\n")
        h = dict(HEADER, tcg=False)
        del h["features"]
        del h["cflags"]
        errs = boot.check_case(c, outcome([h, summary(0)], 0), "")
        self.assertEqual(errs, ["header.cflags missing or not str",
                                "header.features missing or not dict",
                                "header.boot 'pvh', expected 'multiboot2-bios'",
                                "header.cmdline 'run=none', expected 'run=none x=1'",
                                "header.tcg False under accel tcg"])

    def test_escaped_args_and_dropped_cmdline(self):
        c = case("[esc]\nargs = bogus=\\x01x\n  more\n")
        self.assertEqual(c.args, "bogus=\x01x more")
        self.assertEqual(c.cmdline, c.args)
        h = dict(HEADER, cmdline="bogus=\x01x more")
        self.assertEqual(boot.check_case(c, outcome([h, summary(0)], 0), ""), [])
        c = case("[dropped]\nargs = run=none\ncmdline =\n")
        self.assertEqual(c.cmdline, "")
        self.assertEqual(boot.check_case(c, outcome([HEADER, summary(0)], 0), ""),
                         ["header.cmdline 'run=none', expected ''"])

    def test_case_records_and_log_patterns(self):
        c = case("[cfg]\nstatus = 3\nrecords = config option=bogus\nlog = exit status 3\n")
        recs = [HEADER, {"t": "config", "option": "other"}, summary(3)]
        errs = boot.check_case(c, outcome(recs, 3), "hugezero: exit status 4 (crash)")
        self.assertEqual(errs, ["no record matching: config option=bogus",
                                "serial log does not match /exit status 3/"])

    def test_record_counts(self):
        # `=N TYPE COND...`: exactly N records match; =0: none does.
        c = case("[n]\nrecords = =2 pass name~^a\n          =0 interference_peak\n"
                 "          =1 pass name=b\n")
        self.assertEqual(c.records[0], ["=2", "pass", "name~^a"])
        recs = [HEADER, {"t": "pass", "name": "a1"}, {"t": "pass", "name": "a2"},
                summary(0, **{"pass": 2})]
        self.assertEqual(boot.check_case(c, outcome(recs, 0), ""),
                         ["0 records match, want =1 pass name=b"])
        recs[2:2] = [{"t": "interference_peak"}, {"t": "pass", "name": "a3"}]
        recs[-1] = summary(0, **{"pass": 3})
        self.assertEqual(boot.check_case(c, outcome(recs, 0), ""),
                         ["3 records match, want =2 pass name~^a",
                          "1 records match, want =0 interference_peak",
                          "0 records match, want =1 pass name=b"])
        self.assertRaises(ValueError, case, "[bad]\nrecords = =2\n")
        self.assertRaises(ValueError, case, "[bad]\nrecords = pass name\n")

    def test_record_order(self):
        # `A B < C`: every A and B record comes before every C record.
        c = case("[o]\norder = steal pass < verdict\n")
        ok = [HEADER, {"t": "steal"}, {"t": "verdict"}, summary(0)]
        self.assertEqual(boot.check_case(c, outcome(ok, 0), ""), [])
        late = [HEADER, {"t": "verdict"}, {"t": "pass"}, summary(0, **{"pass": 1})]
        self.assertEqual(boot.check_case(c, outcome(late, 0), ""),
                         ["order steal pass < verdict: a pass record after a verdict record"])
        self.assertRaises(ValueError, case, "[bad]\norder = steal verdict\n")
        self.assertRaises(ValueError, case, "[bad]\norder = < verdict\n")

    def test_smp_invariants(self):
        def scale(threads, wall_min, cpu_ns, repeats=10):
            skew = 0 if threads == 1 else 2
            return {"t": "smp_scale", "strategy": "movnti", "threads": threads,
                    "wall_min_ns": wall_min, "cpu_ns": cpu_ns, "repeats": repeats,
                    "start_skew_ns": skew, "end_skew_ns": skew, "start_skew_pct": skew,
                    "end_skew_pct": skew, "late_starts": 0}
        rounds = {"t": "smp_rounds", "part": "scale", "cells": 2, "rounds": 10, "stop": "stable"}
        good = [rounds, scale(1, 100, [100]), scale(2, 60, [55, 60])]
        self.assertEqual(boot.check_smp(good), [])
        # a 2-thread wall time below CPU 1's own (CPU 0's interval used as the wall)
        self.assertEqual(boot.check_smp([rounds, scale(1, 100, [100]), scale(2, 55, [55, 60])]),
                         ["smp_scale movnti threads=2: wall_min_ns 55 below a CPU's own 60"])
        # a cell that missed a round: not interleaved one repeat per round
        self.assertEqual(boot.check_smp([rounds, scale(1, 100, [100]),
                                         scale(2, 60, [55, 60], repeats=9)]),
                         ["smp_scale threads=2: repeats 9, the part ran 10 rounds"])
        self.assertEqual(boot.check_smp([rounds, scale(1, 100, [100])]),
                         ["smp_rounds part=scale cells=2 but 1 smp_scale records"])
        aborted = dict(rounds, stop="abort")
        self.assertEqual(boot.check_smp([aborted]), [])

    def test_kvm_case_skips_only_without_kvm(self):
        from unittest import mock
        with tempfile.TemporaryDirectory() as d, \
                mock.patch.object(boot.probe, "kvm_problem", return_value="/dev/kvm: busy"):
            verdict, details, _ = boot.run_case(case("[k]\naccel = kvm\n"), outbase=d)
            self.assertEqual(os.listdir(d), [])  # nothing ran, no results folder
        self.assertEqual((verdict, details),
                         ("SKIP", ["--accel kvm: KVM unusable: /dev/kvm: busy"]))


if __name__ == "__main__":
    unittest.main()
