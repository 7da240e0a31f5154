"""hz compare: which records pair up, the table and the command, the spread
rule of older records. (test_compare_stat.py: the medians' intervals, the
Hodges-Lehmann ratio and the tolerance.)"""

import subprocess
import unittest

import hztest
from hzlib import compare, compare_rows as cr, compare_stat as cs, results
from hzlib.scenarios import clear, fault, faultclear, vmstart


def rows_by_label(a, b):
    out = {}
    for label, sa, sb, hib in (clear.clear_rows(a, b) + fault.fault_rows(a, b) +
                               cr.generic_rows(a, b, "prezero")):
        out[label] = (sa, sb, cs.verdict(sa, sb, hib))
    return out


class CompareResultSets(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.a = results.load(hztest.fixture("results-a"))
        cls.b = results.load(hztest.fixture("results-b"))
        cls.rows = rows_by_label(cls.a, cls.b)

    def row(self, label):
        sa, sb, v = self.rows[label]
        return round(sb.value / sa.value, 3) if sa.value else None, v

    def test_separated_ranges_are_faster(self):
        self.assertEqual(self.row("clear rep_stosb chunk=2M bytes=1G cache=warm threads=1 GB/s"),
                         (1.223, "faster"))

    def test_overlapping_ranges_but_large_shift_is_slower(self):
        # A 17.777 GB/s (17.40..17.87), B 14.222 (13.77..19.17): ranges overlap,
        # but -20% exceeds 2 x max(cv 0.8%, 0.8%).
        self.assertEqual(self.row("clear rep_stosb chunk=1G bytes=1G cache=warm threads=1 GB/s"),
                         (0.8, "slower"))

    def test_small_shift_within_spread_is_noise(self):
        # +2.7% with cv 1.9%: below 2 x 1.9%, and the ranges overlap.
        self.assertEqual(self.row("clear avx512_nt chunk=2M bytes=1G cache=warm threads=1 GB/s"),
                         (1.027, "noise"))

    def test_unmatched_records_are_left_out(self):
        self.assertNotIn("clear avx512_nt chunk=4K bytes=1G cache=warm threads=1 GB/s", self.rows)
        self.assertEqual(sum(1 for k in self.rows if k.startswith("clear ")), 9)

    def test_fault_medians_and_tail(self):
        sa, sb, v = self.rows["fault self-test policy=idle bytes=2M median service_ns"]
        # 6 faults a side, the faults' times the samples: B's are A's doubled,
        # but one miss a side (388 us, 776 us) spreads the pairwise ratios over
        # [0.105..38.0]: twice as slow is undecided here.
        self.assertEqual((sa.value, sb.value, v), (20900, 41800, "undecided"))
        self.assertEqual(sa.times, [21500, 19800, 20400, 388000, 20900, 22100])
        j = cs.judge(sa, sb, False)
        self.assertEqual(j.ratio_text(), "2.000 [0.108..37.129]")
        self.assertEqual((j.cmp.na, j.cmp.nb), (6, 6))
        self.assertEqual((sa.lo, sa.hi, sa.ci), (19800, 388000, True))
        # Pre-zeroed faults clear nothing (clear_ns 0): no ratio of samples,
        # the spread rule, and the word says zero (not a sample count)
        sa, sb, v = self.rows["fault self-test policy=idle bytes=2M median clear_ns"]
        self.assertEqual((sa.times, v, cs.judge(sa, sb, False).verdict_text()),
                         (None, "zero in A and B", "zero in A and B (spread rule)"))
        # A handful of faults per side: a "p99" would be their maximum.
        self.assertNotIn("fault self-test policy=idle bytes=2M p99 service_ns", self.rows)
        self.assertEqual(sa.n, 6)
        sa, sb, v = self.rows["fault self-test policy=none bytes=2M median service_ns"]
        self.assertEqual((sa.value, sb.value, v), (401200, 401200, "undecided"))

    def test_prezero_generic_rows(self):
        sa, sb, v = self.rows["prezero policy=idle workload=churn hit_pct"]
        self.assertEqual((sa.value, sb.value, v), (83.33, 66.67, "n/a"))  # no cv_pct given
        sa, sb, v = self.rows["prezero policy=idle workload=churn lat_p99_ns"]
        self.assertEqual((sa.value, sb.value, v), (388000, 388000, "noise"))
        self.assertEqual(sum(1 for k in self.rows if k.startswith("prezero ")), 10)

    def test_odd_member_types_do_not_crash(self):
        recs = [{"t": "clear", "v": 1, "strategy": "x", "cache": {"a": 1}, "gbps": 1.0,
                 "cv_pct": 1, "bytes": "big", "min_ns": 0, "max_ns": None},
                {"t": "clear", "v": 1, "strategy": ["y"], "gbps": "fast"},
                {"t": "fault", "v": 1, "policy": ["p"], "service_ns": 5, "clear_ns": True},
                {"t": "prezero", "v": 1, "policy": "bg", "busy_ns": [1], "gbps": 2.0}]
        rs = results.ResultSet("odd", recs)
        lines, n = compare.compare(rs, rs)
        self.assertEqual(n, 3)  # clear x, fault median service_ns (no p99 of 1), prezero gbps
        self.assertTrue(lines[-3].endswith("1.000  1.000  B gives 1.00x the GB/s of A "
                                           "(noise, spread rule)"), lines[-3])
        # one fault a side: its time is a sample, too few for a verdict
        self.assertTrue(lines[-2].endswith("5      5  B takes 1.00x the time of A "
                                           "(too few samples)"), lines[-2])
        # no spread on either side, but no difference either
        self.assertTrue(lines[-1].endswith("B gives 1.00x the gbps of A (noise, spread rule)"),
                        lines[-1])

    def test_faultclear_rows(self):
        def side(ns, lo_hi, noisy=False):
            cells = [{"t": "faultclear", "v": 1, "model": m, "strategy": "rep_stosq",
                      "bytes": 2097152, "n": 10, "median_ns": ns * k, "cv_pct": 1.0,
                      "gbps": 2.0 / k, "gbps_lo": 2.0 / k - lo_hi, "gbps_hi": 2.0 / k + lo_hi,
                      "noisy": noisy and k == 2, "calls": 512, "verified": True}
                     for k, m in ((1, "linux_batch=32M"), (2, "linux_4k"))]
            gain = {"t": "faultclear_gain", "v": 1, "kind": "prediction", "strategy": "rep_stosq",
                    "bytes": 2097152, "gain": 2.0, "gain_lo": 2.0 - lo_hi, "gain_hi": 2.0 + lo_hi,
                    "noisy": noisy}
            return results.ResultSet("s", cells + [gain])
        a, b = side(1000, 0.01), side(1000, 0.01)
        b.records[1] = dict(b.records[1], gbps=0.8, gbps_lo=0.79, gbps_hi=0.81)
        rows = {label: (cs.verdict(sa, sb, hib), cs.flags_text(sa, sb))
                for label, sa, sb, hib in faultclear.faultclear_rows(a, b)}
        self.assertEqual(rows, {
            "faultclear bytes=2M model=linux_batch=32M strategy=rep_stosq GB/s": ("noise", ""),
            "faultclear bytes=2M model=linux_4k strategy=rep_stosq GB/s": ("slower", ""),
            "faultclear_gain bytes=2M strategy=rep_stosq predicted gain": ("noise", "")})
        # Wide intervals: the same 0.8 vs 1.0 GB/s is noise, and the flags show.
        a, b = side(1000, 0.3, noisy=True), side(1000, 0.3)
        b.records[1] = dict(b.records[1], gbps=0.8, gbps_lo=0.5, gbps_hi=1.1)
        rows = {label: (cs.verdict(sa, sb, hib), cs.flags_text(sa, sb))
                for label, sa, sb, hib in faultclear.faultclear_rows(a, b)}
        self.assertEqual(rows["faultclear bytes=2M model=linux_4k strategy=rep_stosq GB/s"],
                         ("noise", "noisy(A)"))
        self.assertEqual(rows["faultclear_gain bytes=2M strategy=rep_stosq predicted gain"],
                         ("noise", "noisy(A)"))
        # Older records without intervals keep the CV rule.
        old = results.ResultSet("o", [dict(r, gbps_lo=None, gbps_hi=None) for r in a.records
                                      if r["t"] == "faultclear"])
        rows = faultclear.faultclear_rows(old, old)
        self.assertEqual(len(rows), 2)
        self.assertFalse(rows[0][1].ci)
        lines, n = compare.compare(a, b)
        self.assertEqual(n, 3)  # the three rows above, not one per _ns member

    def test_vmstart_rows(self):
        def side(g, lo, hi, repeats=6):
            return results.ResultSet("s", [
                {"t": "vmstart", "v": 1, "policy": p, "threads": t, "bytes": 2 << 30,
                 "strategy": "rep_stosb", "repeats": repeats, "gbps": g * t, "gbps_lo": lo * t,
                 "gbps_hi": hi * t, "cv_pct": 3.0, "noisy": p == "fill"}
                for p in ("none", "fill") for t in (1, 2)])
        a, b = side(40.0, 38.0, 41.0), side(30.0, 29.0, 31.0)
        rows = {label: (sa, sb, cs.verdict(sa, sb, hib)) for label, sa, sb, hib in
                vmstart.vmstart_rows(a, b)}
        self.assertEqual(len(rows), 4)
        sa, sb, v = rows["vmstart policy=none threads=2 bytes=2G rep_stosb GB/s"]
        self.assertEqual((sa.value, sb.value, sa.lo, sa.hi, v), (80.0, 60.0, 76.0, 82.0, "slower"))
        self.assertEqual(rows["vmstart policy=fill threads=1 bytes=2G rep_stosb GB/s"][0].flags,
                         ("noisy",))
        bad = results.ResultSet("s", [dict(r, verified=False) for r in b.records])
        self.assertEqual(vmstart.vmstart_rows(a, bad)[0][2].flags, ("unverified",))
        c = side(39.5, 37.0, 42.0)  # intervals overlap: noise
        sa, sb = next((sa, sb) for label, sa, sb, _ in vmstart.vmstart_rows(a, c)
                      if label.startswith("vmstart policy=none threads=1"))
        self.assertEqual(cs.verdict(sa, sb, True), "noise")
        one = side(30.0, 30.0, 30.0, repeats=1)  # one repeat: no interval
        sa, sb = vmstart.vmstart_rows(a, one)[0][1:3]
        self.assertEqual((sb.ci, sb.lo, sb.hi), (False, None, None))
        self.assertEqual(cs.verdict(sa, sb, True), cs.TOO_FEW)
        self.assertEqual(vmstart.vmstart_rows(a, results.ResultSet("e", [])), [])

    def test_fault_rows_say_n(self):
        lines, _ = compare.compare(self.a, self.b)
        row = next(line for line in lines
                   if line.startswith("fault self-test policy=idle bytes=2M median service_ns"))
        self.assertIn("(n=6/6)", row)

    def test_fault_rows_keep_scenarios_apart(self):
        """The fault self-test's faults and a run=policies workload's of the
        same (policy, bytes) are rows of their own (they were pooled: n=22)."""
        recs = ([{"t": "fault", "v": 1, "policy": "none", "bytes": 1 << 30,
                  "service_ns": 100 + i} for i in range(6)]
                + [{"t": "fault", "v": 1, "workload": "vm_boot", "policy": "none",
                    "bytes": 1 << 30, "service_ns": 300 + i} for i in range(16)])
        rs = results.ResultSet("s", recs)
        rows = {label: (sa.n, sa.value) for label, sa, _, _ in fault.fault_rows(rs, rs)
                if "median service_ns" in label}
        self.assertEqual(rows, {
            "fault self-test policy=none bytes=1G median service_ns": (6, 102),
            "fault workload=vm_boot policy=none bytes=1G median service_ns": (16, 307)})

    def test_fault_p99_needs_100_samples(self):
        def side(n, scale):
            return results.ResultSet("s", [{"t": "fault", "v": 1, "policy": "none",
                                            "bytes": 1 << 30, "service_ns": (i + 1) * scale}
                                           for i in range(n)])
        rows = {label: (sa, sb) for label, sa, sb, _ in fault.fault_rows(side(100, 10),
                                                                         side(100, 20))}
        sa, sb = rows["fault self-test policy=none bytes=1G p99 service_ns"]
        self.assertEqual((sa.value, sb.value, sa.n, sb.n), (990, 1980, 100, 100))
        rows = [r[0] for r in fault.fault_rows(side(99, 10), side(100, 20))]
        self.assertIn("fault self-test policy=none bytes=1G median service_ns", rows)
        self.assertNotIn("fault self-test policy=none bytes=1G p99 service_ns", rows)

    def test_few_faults_get_no_verdict(self):
        def side(ns):
            return results.ResultSet("s", [{"t": "fault", "v": 1, "policy": "none",
                                            "bytes": 1 << 30, "service_ns": v} for v in ns])
        # Two faults a side, 3x apart: no interval of a median exists below 6.
        rows = {label: cs.verdict(sa, sb, hib) for label, sa, sb, hib in
                fault.fault_rows(side([100, 110]), side([300, 320]))}
        self.assertEqual(rows["fault self-test policy=none bytes=1G median service_ns"],
                         "too few samples")
        rows = {label: cs.verdict(sa, sb, hib) for label, sa, sb, hib in
                fault.fault_rows(side([100, 110, 105, 101, 108]),
                                 side([300, 320, 310, 305, 315, 301]))}
        self.assertEqual(rows["fault self-test policy=none bytes=1G median service_ns"],
                         "too few samples")
        rows = {label: cs.verdict(sa, sb, hib) for label, sa, sb, hib in
                fault.fault_rows(side([100, 110, 105, 101, 108, 102]),
                                 side([300, 320, 310, 305, 315, 301]))}
        self.assertEqual(rows["fault self-test policy=none bytes=1G median service_ns"], "slower")

    def test_p99_needs_an_interval(self):
        def side(n, scale):
            return results.ResultSet("s", [{"t": "fault", "v": 1, "policy": "none",
                                            "bytes": 1 << 30, "service_ns": (i + 1) * scale}
                                           for i in range(n)])
        for n, want in ((100, "too few samples"), (367, "too few samples"), (368, "slower")):
            rows = {label: cs.verdict(sa, sb, hib) for label, sa, sb, hib in
                    fault.fault_rows(side(n, 10), side(n, 20))}
            self.assertEqual(rows["fault self-test policy=none bytes=1G p99 service_ns"], want, n)

    def test_quantile_interval_ranks(self):
        # The median's ranks are lib/stats.h stats_median_ci95()'s (tests/unit/test_stats.c).
        self.assertIsNone(cs.quantile_ci95(5, 0.5))
        self.assertEqual(cs.quantile_ci95(6, 0.5), (0, 5))
        self.assertEqual(cs.quantile_ci95(10, 0.5), (1, 8))
        self.assertEqual(cs.quantile_ci95(100, 0.5), (39, 60))
        self.assertIsNone(cs.quantile_ci95(367, 0.99))
        lo, hi = cs.quantile_ci95(1000, 0.99)
        self.assertTrue(lo < 989 < hi <= 999, (lo, hi))

    def test_generic_rows_need_samples(self):
        def side(n, ns):
            return results.ResultSet("s", [{"t": "faultclear", "v": 1, "model": "linux_4k",
                                            "strategy": "rep_stosq", "bytes": 2097152, "n": n,
                                            "median_ns": ns, "cv_pct": 1.0}])
        rows = [cs.verdict(sa, sb, hib) for label, sa, sb, hib in
                cr.generic_rows(side(2, 1000), side(2, 1500), "faultclear")
                if label.endswith(" median_ns")]
        self.assertEqual(rows, ["too few samples"])
        rows = [cs.verdict(sa, sb, hib) for label, sa, sb, hib in
                cr.generic_rows(side(10, 1000), side(10, 1500), "faultclear")
                if label.endswith(" median_ns")]
        self.assertEqual(rows, ["slower"])

    def test_verdict_rules(self):
        S = cs.Stat
        self.assertEqual(cs.verdict(S(10.0), S(12.0), True), "n/a")
        self.assertEqual(cs.verdict(S(10.0, cv=5), S(10.9, cv=1), True), "noise")
        self.assertEqual(cs.verdict(S(10.0, cv=5), S(11.1, cv=1), True), "faster")
        self.assertEqual(cs.verdict(S(10.0, 9, 11), S(11.5, 11.2, 12), True), "faster")
        self.assertEqual(cs.verdict(S(100, 90, 110), S(120, 105, 130), False), "noise")
        self.assertEqual(cs.verdict(S(100, 90, 110), S(120, 111, 130), False), "slower")
        self.assertEqual(cs.verdict(S(100, 90, 110, samples=5), S(200, 190, 210, samples=9),
                                    False), "too few samples")
        self.assertEqual(cs.verdict(S(100, 90, 110, samples=6), S(200, 190, 210, samples=9),
                                    False), "slower")


class CompareCommand(unittest.TestCase):
    def hz(self, a, b, *opts):
        p = subprocess.run([hztest.HZ, "compare", a, b, *opts], stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE, timeout=60)
        self.stderr = p.stderr.decode()
        return p.returncode, p.stdout.decode().splitlines()

    def test_table_and_machine_headers(self):
        rc, out = self.hz(hztest.fixture("results-a"), hztest.fixture("results-b"))
        self.assertEqual(rc, 0)
        self.assertEqual(out[1],
                         "   machine: Intel(R) Xeon(R) Platinum 8480+, hypervisor KVMKVMKVM")
        self.assertEqual(out[2],
                         '   config:  cmdline "run=default", boot direct, hugezero 3f2a9c1b7d4e')
        self.assertEqual(out[4], "   machine: AMD EPYC 9654 96-Core Processor, bare metal")
        self.assertEqual(out[5],
                         '   config:  cmdline "run=default", boot iso, hugezero 3f2a9c1b7d4e')
        # a Xeon under KVM against an EPYC on bare metal: said before the rule
        self.assertEqual(out[6], "WARNING: A and B ran on different machines (CPU: GenuineIntel "
                                 "family 6 model 143 stepping 8 (Intel(R) Xeon(R) Platinum 8480+) "
                                 "vs AuthenticAMD family 6 model 143 stepping 8 (AMD EPYC 9654 "
                                 "96-Core Processor); host: Intel(R) Xeon(R) Platinum 8480+ vs AMD "
                                 "EPYC 9654 96-Core Processor): B/A compares the machines too, "
                                 "not the code alone")
        self.assertEqual(out[7], "rule: Hodges-Lehmann ratio of B's samples over A's (time per "
                                 "byte) with its Moses interval (z 2.361), two-sample (different "
                                 "runs: rounds do not pair), widened where a side is serially "
                                 "dependent, 0 ns samples left out as bad; tolerance ±5%; rows "
                                 "marked (spread rule) lack samples on a side")
        # the columns' statistics named: medians, and the ratio is Hodges-Lehmann
        self.assertTrue(out[8].startswith("columns: A and B are each side's lower median "
                                          "(clear cells: gbps_median,"), out[8])
        self.assertIn("B against A is the Hodges-Lehmann ratio of B's samples over A's with its "
                      "Moses interval, not B/A of the columns", out[8])
        self.assertEqual(out[9].split(), ["measurement", "A", "B", "B", "against", "A", "flags"])
        row = [line for line in out
               if line.startswith("clear rep_stosb chunk=2M bytes=1G cache=warm threads=1")]
        # records without samples_ns: the spread rule, labelled; every row
        # flags the machines
        self.assertEqual(" ".join(row[0].split()[-13:]),
                         "17.459 21.347 B gives 1.22x the GB/s of A (faster, spread rule) "
                         "machine(A,B)")
        self.assertEqual(out[-1], "only in A: clear avx512_nt chunk=4K bytes=1G cache=warm "
                                  "threads=1 GB/s")

    def test_strict_refuses_other_machines(self):
        rc, out = self.hz(hztest.fixture("results-a"), hztest.fixture("results-b"), "--strict")
        self.assertEqual((rc, out), (2, []))
        self.assertIn("hz: compare --strict: the results come from different machines (CPU: "
                      "GenuineIntel family 6", self.stderr)
        # the same machine: --strict changes nothing
        rc, out = self.hz(hztest.fixture("clean.log"), hztest.fixture("grub-noise.log"),
                          "--strict")
        self.assertEqual(rc, 0)
        self.assertFalse([line for line in out if "WARNING" in line or "machine(" in line])

    def test_differences(self):
        a = results.load(hztest.fixture("results-a"))
        b = results.load(hztest.fixture("results-a"))
        self.assertEqual(compare.differences(a, b), [])
        b.meta = dict(b.meta, cpu_model="host,+invtsc", host_cpu="AMD EPYC 7763")
        a.meta = dict(a.meta, cpu_model="max")
        self.assertEqual(compare.differences(a, b),
                         ["-cpu: max vs host,+invtsc",
                          "host: Intel(R) Xeon(R) Platinum 8480+ vs AMD EPYC 7763"])
        del a.meta["cpu_model"]  # one side unnamed: not a difference
        self.assertEqual(compare.differences(a, b)[0][:5], "host:")

    def test_raw_logs_compare_equal_to_themselves(self):
        rc, out = self.hz(hztest.fixture("clean.log"), hztest.fixture("grub-noise.log"))
        self.assertEqual(rc, 0)
        body = out[9:]  # after the rule and columns lines
        # clear, fault (medians: p99 needs 100), prezero rows
        self.assertEqual(len(body), 10 + 4 + 10)
        for line in body:
            if " service_ns " in line or (" clear_ns " in line and " policy=none " in line):
                # the faults' own times: one slow fault of 6 leaves it undecided
                self.assertRegex(line, r" B takes 1\.00x \[0\.[0-9]+\.\.[0-9.]+\] the time of A "
                                       r"\(undecided\)$")
                continue
            self.assertRegex(line, r"(B (gives|takes) 1\.00x the .* of A|B against A: no ratio) "
                                   r"\((noise|zero in A and B), spread rule\)$")

    def test_nothing_in_common_exits_1(self):
        rc, out = self.hz(hztest.fixture("malformed.log"), hztest.fixture("clean.log"))
        self.assertEqual(rc, 1)
        self.assertEqual(out[6:8], ["no matching clear, fault or prezero records on both sides",
                                    "only in B: clear rep_stosb chunk=4K bytes=1G cache=warm "
                                    "threads=1 GB/s"])
        self.assertIn("only in B: fault self-test policy=idle bytes=2M", out)


if __name__ == "__main__":
    unittest.main()


class Fleet(unittest.TestCase):
    def test_best_clear_is_like_for_like(self):
        """Three sets: the best clear figure is of verified 1-CPU cold cells
        with enough samples (kvm-a's 23.773 GB/s is one first_touch
        sample, too_few; the TCG set's warm 10.853 is another cache
        state), and the header says so."""
        sets = [results.load(hztest.fixture(n))
                for n in ("results-kvm-a", "results-kvm-b", "results-tcg-faultclear")]
        lines, _ = compare.fleet(sets)
        self.assertIn("best clear GB/s (1 CPU, cold, verified, not too_few)", lines[0])
        col = lines[0].index("best clear")
        self.assertEqual([ln[col:].split()[0] for ln in lines[1:]], ["16.914", "10.837", "9.157"])


class Settings(unittest.TestCase):
    def test_settings_are_not_measurements(self):
        """A run against itself: the prezero records' lead_idle_ns (the
        lead_idle= option) is a setting, not a row; measured members stay."""
        rs = results.load(hztest.fixture("results-verdict"))
        labels = [r[0] for r in compare.table(rs, rs)]
        self.assertEqual([n for n in labels if n.split()[-1] in
                          ("tol_pct", "lead_idle_ns", "claim_min_ns")], [])
        self.assertIn("prezero policy=none workload=vm_boot idle_ns", labels)

    def test_too_few_samples_have_no_interval_and_zero_says_zero(self):
        """n=2 a side: the ratio alone, no interval beside 'too few
        samples'; a zero value is 'zero', not a sample count."""
        two = cs.Stat(1.0, times=[100, 102], nbytes=4096, samples=2)
        j = cs.judge(two, cs.Stat(1.0, times=[101, 99], nbytes=4096, samples=2), False)
        self.assertEqual((j.word, j.lo, j.hi), ("too few samples", None, None))
        z = cs.judge(cs.Stat(0.0, samples=1), cs.Stat(0.0, samples=1), True)
        self.assertEqual((z.word, z.ratio), ("zero in A and B", None))
        self.assertEqual(compare.word(z), "zero in A and B, spread rule")
