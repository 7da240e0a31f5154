"""The interference records in the host tools: hz compare's rows and
verdicts, interference.png, make bench's summary lines, the Interference
block of hz report --text and report.html's interference tables
(tools/hzlib/compare.py, plot_interference.py, interference.py,
report_text.py, report.py; tools/hzlib/scenarios/interference.py)."""

import os
import tempfile
import unittest

from hzlib import compare, compare_stat, plot, report, report_text, results
from hzlib.scenarios import interference
from hztest import png_size

VICTIMS = (("chase_llc_half", "ns_per_load", 10.0), ("tenant_llc", "gbps", 30.0))


def rec(zeroer, rate, victim, metric, value, slow, lo, hi, gbps, noisy=False):
    return {"t": "interference", "v": 1, "zeroer": zeroer,
            "strategy": {"none": None, "temporal": "movq_unroll", "nt": "movnti"}[zeroer],
            "chunk": 0 if zeroer == "none" else 2097152, "rate_pct": rate, "victim": victim,
            "metric": metric, "value": value, "value_lo": lo, "value_hi": hi,
            "cv_pct": 2.0, "noisy": noisy, "rounds": 10, "slowdown_pct": slow,
            "slowdown_lo_pct": slow - 1, "slowdown_hi_pct": slow + 1, "zeroer_gbps": gbps,
            "outcome": "tie" if abs(slow) < 4 else "slower", "victim_class": "DRAM",
            "call_bytes": 2097152 if rate == 100 else 65536,
            "zeroer_target_gbps": gbps * 1.25 if rate < 100 else None,
            "achieved_pct": 80.0 if rate < 100 else None, "rate_miss": rate < 100,
            "cpu_ms_per_gib": 0.0 if zeroer == "none" else 95.5, "verified": True, "run": 0}


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
    for victim, cls in (("chase_llc_half", "DRAM"), ("tenant_llc", "LLC")):
        recs.append({"t": "interference_residency", "v": 1, "victim": victim,
                     "reference": False, "access": "chase", "set_bytes": 16 << 20,
                     "ns_per_access": 149.0, "ns_lo": 140.0, "ns_hi": 150.0, "n": 7,
                     "intended": "LLC", "class": cls, "ref_l2_ns": 4.0, "ref_llc_ns": 14.0,
                     "ref_dram_ns": 160.0, "llc_separated": True, "run": 0})
    recs.append({"t": "interference_rank", "v": 1, "victim": "chase_llc_half", "a": "nt",
                 "b": "temporal", "ratio": 1.3, "ratio_lo": 1.2, "ratio_hi": 1.4,
                 "outcome": "slower" if temporal_slow > 10 else "undecided", "run": 0})
    return results.ResultSet(name, recs)


class Compare(unittest.TestCase):
    def test_rows_by_zeroer_rate_and_victim(self):
        a, b = result_set("a", 40.0), result_set("b", 80.0)
        rows = {label: (sa, sb, compare_stat.verdict(sa, sb, hib))
                for label, sa, sb, hib in interference.interference_rows(a, b)}
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
        self.assertEqual(len(lines), 2 + 5 + 1 + 1)
        self.assertIn("chase_llc_half", lines[1])
        row = next(line for line in lines if line.split()[:2] == ["temporal", "100%"])
        self.assertEqual(row.split()[2:], ["9.000", "40.0>", "40.0>"])
        self.assertIn("0.5=~", next(line for line in lines if line.split()[:2] == ["nt", "1%"]))
        # the ranking is the kernel's comparisons, never a mean
        self.assertEqual(lines[-2], "  ranking at 100% on chase_llc_half: nt < temporal")
        self.assertEqual(lines[-1], "  skip interference.pmu: no PMU")
        lines = interference.summary(result_set("a", 5.0).records)
        self.assertIn("  ranking at 100% on chase_llc_half: nt ? temporal", lines)

    def test_no_records_no_lines(self):
        self.assertEqual(interference.summary([{"t": "summary"}]), [])

    def test_one_cpu_gives_the_skip(self):
        skip = {"t": "skip", "name": "interference", "reason": "needs at least 2 online CPUs"}
        self.assertEqual(interference.summary([skip, {"t": "summary"}]),
                         ["  skip interference: needs at least 2 online CPUs"])


class Report(unittest.TestCase):
    def test_text_block(self):
        rs = result_set("a", 40.0)
        text = report_text.text(rs)
        self.assertNotIn("\t", text)
        self.assertTrue(all(len(line) <= report_text.WIDTH for line in text.splitlines()))
        lines = interference.interference_block(rs)
        self.assertEqual(lines[0].split()[0], "Interference")
        # residency: the LLC victim at DRAM latency says what is not measured
        self.assertTrue(any(line.split()[:5] == ["chase_llc_half", "chase", "149.0", "ns", "DRAM"]
                            for line in lines))
        self.assertIn("L3 pollution not measured", " ".join(lines))
        # pacing: target beside achieved, the miss flagged, the CPU per GiB
        self.assertIn(["temporal", "1%", "65536", "0.112", "0.090", "80.0!", "95.5"],
                      [line.split() for line in lines])
        # slowdowns with their intervals and outcomes, per victim
        i = lines.index("  tenant_llc (DRAM):")
        self.assertIn("temporal      100%  +40.0 [+39.0..+41.0] >", lines[i + 4])
        self.assertIn("    chase_llc_half  nt < temporal", lines)
        self.assertIn("  Slowdown % vs alone [95% Moses interval], '>' slower, '=' within the",
                      lines)

    def test_moses_label_below_six_rounds(self):
        # TCG's 2-round run: its intervals are not 95 % ones, and say so
        rs = result_set("a", 40.0)
        for r in rs.records:
            if r.get("t") == "interference":
                r["rounds"] = 2
        text = " ".join(line.strip() for line in interference.interference_block(rs))
        self.assertIn("Slowdown % vs alone [Moses interval, 95% only from 6 rounds], '>' "
                      "slower, '=' within the tolerance, '<' faster, '?' undecided, '-' too "
                      "few rounds:", text)
        page = report.single(rs, [])
        self.assertIn("Victim slowdown % against alone: Hodges-Lehmann, [Moses interval, 95% "
                      "only from 6 rounds]", page)

    def test_text_block_without_records(self):
        rs = result_set("a", 40.0)
        rs.records = [r for r in rs.records if r.get("t") != "interference"]
        self.assertEqual(interference.interference_block(rs), [])

    def test_host_check_stopped(self):
        """The host check stopped the run: residency, then why and what host
        can answer, from the interference_host record's fields."""
        rs = result_set("a", 40.0)
        rs.records = [r for r in rs.records if r.get("t") != "interference"] + [
            {"t": "interference_host", "v": 1, "can_answer": False,
             "reason": "cpu_contention,no_llc_victim", "cpu_contention": True,
             "llc_resident": False, "forced": False, "rounds": 6, "victim": "stream_4llc",
             "slowdown_pct": 156.49, "slowdown_lo_pct": 93.77, "slowdown_hi_pct": 722.17,
             "needs": "distinct physical cores, an unshared LLC", "action": "stop",
             "elapsed_ms": 1363, "run": 0}]
        lines = interference.interference_block(rs)
        self.assertEqual(lines[0], "Interference (run=interference)")
        self.assertEqual(" ".join(line.strip() for line in lines[-3:]),
                         "Host check: cannot answer (cpu_contention, no_llc_victim) after 1363 "
                         "ms; spin control alone slows stream_4llc +156.5% [+93.8..+722.2]; "
                         "needs distinct physical cores, an unshared LLC; stopped")
        # report.html says it too, where the slowdown tables would be
        page = report.single(rs, [])
        i = page.index('<h2 id="interference">')
        self.assertIn("<p>Host check: cannot answer (cpu_contention, no_llc_victim) after 1363 "
                      "ms; spin control alone slows stream_4llc +156.5% [+93.8..+722.2]; needs "
                      "distinct physical cores, an unshared LLC; stopped</p>", page[i:])
        self.assertNotIn("Victim slowdown", page)
        host = rs.records[-1]
        host.update(can_answer=True, reason="ok", cpu_contention=False, action="measure")
        self.assertEqual(interference.host_line(host), "  Host check: can answer (6 rounds, "
                                                       "1363 ms)")

    def test_html_tables(self):
        page = report.single(result_set("a", 5.0), [])
        self.assertIn('<h2 id="interference">', page)
        self.assertIn("<td>+40.0 [+39.0..+41.0] &gt;</td>", page.replace("+5.0", "+40.0")
                      .replace("+4.0", "+39.0").replace("+6.0", "+41.0"))
        self.assertIn("<td>nt ? temporal</td>", page)
        self.assertIn("rate-miss", page)
        self.assertIn("not-LLC", page)
        self.assertIn("LLC-resident working set not achievable here", page)


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
