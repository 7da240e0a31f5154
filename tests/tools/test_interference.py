"""The interference records in the host tools: hz compare's rows and
verdicts, interference.png, and make bench's summary lines
(tools/hzlib/compare.py, plot_interference.py, interference.py)."""

import os
import tempfile
import unittest

from hzlib import compare, compare_rows, compare_stat, interference, plot, results
from hztest import png_size

VICTIMS = (("chase_llc_half", "ns_per_load", 10.0), ("tenant_llc", "gbps", 30.0))


def rec(zeroer, rate, victim, metric, value, slow, lo, hi, gbps, noisy=False):
    return {"t": "interference", "v": 1, "zeroer": zeroer,
            "strategy": {"none": None, "temporal": "movq_unroll", "nt": "movnti"}[zeroer],
            "chunk": 0 if zeroer == "none" else 2097152, "rate_pct": rate, "victim": victim,
            "metric": metric, "value": value, "value_lo": lo, "value_hi": hi,
            "cv_pct": 2.0, "noisy": noisy, "rounds": 10, "slowdown_pct": slow,
            "slowdown_lo_pct": slow - 1, "slowdown_hi_pct": slow + 1, "zeroer_gbps": gbps,
            "verified": True, "run": 0}


def result_set(name, temporal_slow):
    """Victims alone, then temporal and nt at 100 % and 1 %; temporal hurts
    by temporal_slow % unthrottled, nt by 2 %, both by 0.5 % at 1 %."""
    recs = []
    for victim, metric, base in VICTIMS:
        recs.append(rec("none", 0, victim, metric, base, 0.0, base * 0.99, base * 1.01, 0.0))
        for zeroer, rate, slow, gbps in (("temporal", 100, temporal_slow, 9.0),
                                         ("temporal", 1, 0.5, 0.09), ("nt", 100, 2.0, 17.0),
                                         ("nt", 1, 0.5, 0.17)):
            f = 1 + slow / 100 if metric == "ns_per_load" else 1 / (1 + slow / 100)
            v = base * f
            recs.append(rec(zeroer, rate, victim, metric, v, slow, v * 0.99, v * 1.01, gbps,
                            noisy=zeroer == "nt" and rate == 1))
        recs.append(dict(rec("none", 100, victim, metric, base, 1.0, base, base, 0.0),
                         zeroer="spin", strategy=None))
    recs.append({"t": "skip", "v": 1, "name": "interference.pmu", "reason": "no PMU", "run": 0})
    return results.ResultSet(name, recs)


class Compare(unittest.TestCase):
    def test_rows_by_zeroer_rate_and_victim(self):
        a, b = result_set("a", 40.0), result_set("b", 80.0)
        rows = {label: (sa, sb, compare_stat.verdict(sa, sb, hib))
                for label, sa, sb, hib in compare_rows.interference_rows(a, b)}
        self.assertEqual(len(rows), 12)  # (alone + spin + 4 cells) x 2 victims
        sa, sb, v = rows["interference temporal 100% chase_llc_half ns_per_load"]
        self.assertEqual((round(sa.value, 3), round(sb.value, 3), v), (14.0, 18.0, "slower"))
        self.assertTrue(sa.ci)
        sa, sb, v = rows["interference temporal 100% tenant_llc gbps"]  # GB/s fell: slower
        self.assertEqual(v, "slower")
        self.assertEqual(rows["interference none chase_llc_half ns_per_load"][2], "noise")
        self.assertEqual(rows["interference nt 1% tenant_llc gbps"][0].flags, ("noisy",))

    def test_compare_report_includes_them(self):
        lines, n = compare.compare(result_set("a", 40.0), result_set("b", 40.0))
        self.assertEqual(n, 12)
        self.assertTrue(any(line.startswith("interference nt 100% chase_llc_half")
                            for line in lines))


class Summary(unittest.TestCase):
    def test_lines(self):
        lines = interference.summary(result_set("a", 40.0).records)
        self.assertEqual(len(lines), 2 + 5 + 2 + 1)
        self.assertIn("chase_llc_half", lines[1])
        row = next(line for line in lines if line.split()[:2] == ["temporal", "100%"])
        self.assertEqual(row.split()[2:], ["9.000", "40.0", "40.0"])
        self.assertIn("0.5~", next(line for line in lines if line.split()[:2] == ["nt", "1%"]))
        self.assertEqual(lines[-3], "  least mean slowdown at 100%: nt (2.0 %; worst temporal "
                                    "40.0 %)")
        self.assertEqual(lines[-1], "  skip interference.pmu: no PMU")

    def test_no_records_no_lines(self):
        self.assertEqual(interference.summary([{"t": "summary"}]), [])

    def test_one_cpu_gives_the_skip(self):
        skip = {"t": "skip", "name": "interference", "reason": "needs at least 2 online CPUs"}
        self.assertEqual(interference.summary([skip, {"t": "summary"}]),
                         ["  skip interference: needs at least 2 online CPUs"])


@unittest.skipUnless(plot.terminal(), "gnuplot with a png terminal is not installed")
class Plot(unittest.TestCase):
    def test_interference_png(self):
        with tempfile.TemporaryDirectory() as d:
            files, msgs = plot.plot_all(result_set("a", 40.0), d)
            self.assertEqual([os.path.basename(f) for f in files], ["interference.png"])
            self.assertEqual(png_size(files[0]), (1500, 900))
            self.assertGreater(os.path.getsize(files[0]), 20000)
            self.assertIn("interference: some points are noisy (CV > 10 %): see the table's '~'",
                          msgs)

    def test_alone_only_is_a_message(self):
        rs = result_set("a", 40.0)
        rs.records = [r for r in rs.records if r.get("zeroer") == "none"]
        with tempfile.TemporaryDirectory() as d:
            files, msgs = plot.plot_all(rs, d)
            self.assertEqual(files, [])
            self.assertIn("interference: no interference records with a zeroer", msgs)


if __name__ == "__main__":
    unittest.main()
