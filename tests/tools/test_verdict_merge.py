"""tools/hzlib/verdict_merge.py and its users: a verdict merged across boots
says what can't be trusted in ANY boot that supplied a shown item (make
bench's answers.lines, hz report's merged block and --full verdict, make
answers' block), never the last boot's facts alone; where the boots agree
the line is one boot's to the byte."""

import copy
import unittest

import hztest
from hzlib import answers, answers_data, answers_text, report, report_short, report_text, results
from hzlib import verdict_merge, verdict_text


def trust(**members):
    """A trust item record of a clean KVM boot, members changed."""
    r = {"t": "verdict", "item": "trust", "label": "trust", "form": "trust", "decided": True,
         "tcg": False, "hypervisor": "KVM", "tsc_invariant": True, "emulated_ring0": False,
         "backing": "hugetlbfs-2M", "steal_pct": 0.5, "tol_pct": 5.0, "left_out_cells": 0,
         "cells_seen": 4, "run_text": "faultclear", "measured": True}
    r.update(members)
    return r


CLEAN = trust()
# a TCG boot: emulator timings, TSC not invariant, 4 KiB-backed RAM, a cell out
TCG = trust(tcg=True, hypervisor="TCG", tsc_invariant=False, backing="4k", steal_pct=None,
            steal_why="no timed cell", left_out_cells=1, run_text="vmstart,interference")
# a KVM boot on 4 KiB pages with steal, SMIs and a TSC gap
STOLEN = trust(backing="4k", steal_pct=3.1, emulated_ring0=True, smi=2, smi_cells=1,
               gap_cells=1, gap_max_ns=12000000, gap_max_cell="clear/rep_stosb/4K/cold/1G")
PAD = " " * 15  # the continuation column: indent, label, space

TCG_THEN_CLEAN = [
    "  trust        TCG [boot 0], KVM [boot 1], TSC NOT invariant [boot 0], invariant [boot 1],",
    PAD + "ring 0 native, RAM 4k [boot 0], hugetlbfs-2M [boot 1],",
    PAD + "steal unknown (no timed cell) [boot 0], 0.50% [boot 1], 1/8 cells out"]
CLEAN_THEN_TCG = [
    "  trust        KVM [boot 0], TCG [boot 1], TSC invariant [boot 0], NOT invariant [boot 1],",
    PAD + "ring 0 native, RAM hugetlbfs-2M [boot 0], 4k [boot 1], steal 0.50% [boot 0],",
    PAD + "unknown (no timed cell) [boot 1], 1/8 cells out"]


class TrustLine(unittest.TestCase):
    def test_one_boot_or_boots_that_agree_give_its_line(self):
        one = verdict_text.item_lines(CLEAN)
        self.assertEqual(one, ["  trust        KVM, TSC invariant, ring 0 native, "
                               "RAM hugetlbfs-2M, steal 0.50%, 0/4 cells out"])
        self.assertEqual(verdict_merge.trust_lines([("0", CLEAN)]), one)
        self.assertEqual(verdict_merge.trust_lines([("0", CLEAN), ("1", dict(CLEAN))]), one)
        # two boots with the same facts: said once, their cells summed
        self.assertEqual(verdict_merge.trust_lines([("0", CLEAN), ("1", trust(cells_seen=5))]),
                         [one[0].replace("0/4", "0/9")])
        self.assertEqual(verdict_merge.trust_lines([]), [])

    def test_a_tcg_boot_beside_a_clean_one_either_order(self):
        self.assertEqual(verdict_merge.trust_lines([("0", TCG), ("1", CLEAN)]), TCG_THEN_CLEAN)
        self.assertEqual(verdict_merge.trust_lines([("0", CLEAN), ("1", TCG)]), CLEAN_THEN_TCG)

    def test_4k_ram_steal_smis_and_gaps_either_order(self):
        other = trust(smi=1, smi_cells=1, left_out_cells=1, cells_seen=4)
        got = verdict_merge.trust_lines([("0", CLEAN), ("1", STOLEN), ("2", other)])
        self.assertEqual(got, [
            "  trust        KVM, TSC invariant, ring 0 native [boot 0, 2], emulated [boot 1],",
            PAD + "RAM hugetlbfs-2M [boot 0, 2], 4k [boot 1], steal up to 3.10% [boot 1], "
            "1/12 cells out",
            PAD + "SMIs 3 in 2 cells, gaps > 10 ms in 1 cell (longest 12.0 ms,",
            PAD + "clear/rep_stosb/4K/cold/1G [boot 1])"])
        self.assertTrue(all(len(x) <= verdict_text.WIDTH for x in got))
        self.assertEqual(verdict_merge.trust_lines([("0", STOLEN), ("1", CLEAN)]), [
            "  trust        KVM, TSC invariant, ring 0 emulated [boot 0], native [boot 1], "
            "RAM 4k [boot 0],",
            PAD + "hugetlbfs-2M [boot 1], steal up to 3.10% [boot 0], 0/8 cells out",
            PAD + "SMIs 2 in 1 cell, gaps > 10 ms in 1 cell (longest 12.0 ms,",
            PAD + "clear/rep_stosb/4K/cold/1G [boot 0])"])

    def test_header_names_every_boot_and_a_tolerance_they_differ_on(self):
        self.assertEqual(verdict_merge.header([("0", TCG), ("1", CLEAN)], marked=True),
                         "== verdict (run=vmstart,interference [boot 0] + faultclear [boot 1]; "
                         "Hodges-Lehmann ratio intervals, tolerance +-5%)")
        self.assertEqual(verdict_merge.header([("a", CLEAN), ("b", trust(tol_pct=2.5))], False),
                         "== verdict (run=faultclear + faultclear; Hodges-Lehmann ratio "
                         "intervals, tolerance +-5% [boot a], 2.50% [boot b])")
        self.assertEqual(verdict_merge.header([("0", CLEAN)], True), verdict_text.header(CLEAN))


def item(key, **members):
    """A measured, decided verdict item of a run."""
    r = {"t": "verdict", "item": key, "label": key, "form": "numa", "outcome": "none",
         "decided": True, "measured": True, "figures": [], "measured_by": [key], "scenarios": []}
    r.update(members)
    return r


class Users(unittest.TestCase):
    def test_make_bench_block_speaks_for_every_boot(self):
        """answers.lines: the trust line of the boots that supplied an item;
        the last boot's alone (the old trust[-1]) would say KVM, clean."""
        for first, second, want in ((TCG, CLEAN, TCG_THEN_CLEAN), (CLEAN, TCG, CLEAN_THEN_TCG)):
            boots = [("0", [item("numa"), first]), ("1", [item("fault"), second])]
            out = answers.lines(boots)
            self.assertEqual(out[-4:-1], want)
            self.assertEqual(out[0], "== verdict of make bench (run=%s + %s; Hodges-Lehmann "
                             "ratio intervals, tolerance +-5%%)"
                             % (first["run_text"], second["run_text"]))
        # a boot that supplied no shown item does not speak: its facts are not the block's
        boots = [("0", [item("numa"), CLEAN]), ("1", [TCG])]
        self.assertEqual(answers.lines(boots)[-2], verdict_text.item_lines(CLEAN)[0])

    def records(self, first, second):
        """Two runs' records as hz report reads them (`run` per boot), each
        with every item: run 0 measured the numa item, run 1 the fault item."""
        rs = results.load(hztest.FIXTURES + "/results-tcg-answers")
        rs.records = []
        for run, t, measured in ((0, first, "numa"), (1, second, "fault")):
            for key in ("numa", "fault"):
                extra = {} if key == measured else {"reason": "NOT_IN_RUN", "measured": False}
                rs.records.append(dict(item(key, **extra), run_text=t["run_text"], tol_pct=5.0,
                                       run=run))
            rs.records.append(dict(t, run=run))
        return rs

    def test_hz_report_blocks_either_order(self):
        for first, second, want in ((TCG, CLEAN, TCG_THEN_CLEAN), (CLEAN, TCG, CLEAN_THEN_TCG)):
            rs = self.records(first, second)
            block = report.merged_block(rs)
            self.assertEqual(block, [
                "== verdict (run=%s [boot 0] + %s [boot 1]; Hodges-Lehmann ratio intervals, "
                "tolerance +-5%%)" % (first["run_text"], second["run_text"]),
                "  numa         one node: where pre-zeroing runs cannot matter [boot 0]",
                "  fault        one node: where pre-zeroing runs cannot matter"] + want)
            # --full: the same words, wrapped to 80 columns
            full = report_text.verdict_block(rs)
            at = next(i for i, x in enumerate(full) if x.startswith("  trust "))
            self.assertEqual(" ".join(x.strip() for x in full[at:]),
                             " ".join(x.strip() for x in want))
        # the trust item of a run that supplied no shown item does not speak
        rs = self.records(TCG, CLEAN)
        rs.records = [r for r in rs.records if r["run"] == 1 or verdict_text.run_facts(r)]
        self.assertEqual(report.merged_block(rs)[-1], verdict_text.item_lines(CLEAN)[0])

    def test_answers_block_header_and_trust_over_mixed_boots(self):
        """A TCG boot beside a KVM one: the header names both and says the
        TCG boot's figures decide nothing, and no outcome word is printed."""
        rs = results.load(hztest.FIXTURES + "/results-tcg-answers")
        recs = copy.deepcopy(rs.records)
        for r in recs:
            if r.get("run") == 1 and r.get("t") == "header":
                r.update(tcg=False, hypervisor="KVMKVMKVM")
            if r.get("run") == 1 and verdict_text.run_facts(r):
                r.update(CLEAN)
        out = answers_text.block(answers_data.lines(recs, rs.meta))
        self.assertEqual(out[:2], [
            "== answers (AMD family 0xf model 0x6b, TCG [boot 0], KVM [boot 1], 2 CPUs)",
            "   measured unless marked model; TCG in boot 0: its figures are emulator timings, "
            "nothing is decided"])
        self.assertIn("vs today (TCG)", "\n".join(out))
        self.assertNotIn("(faster)", "\n".join(out))
        self.assertEqual(out[-3:], [
            "   trust        TCG [boot 0], KVM [boot 1], TSC NOT invariant [boot 0], invariant "
            "[boot 1],",
            " " + PAD + "ring 0 native, RAM 4k [boot 0], hugetlbfs-2M [boot 1],",
            " " + PAD + "steal unknown (no timed cell) [boot 0], 0.50% [boot 1], 0/10 cells out"])

    def test_machine_facts_of_mixed_boots(self):
        """hz report's facts of a TCG boot 0 and a KVM boot 1 (meta.json,
        the last boot's, says kvm): TCG is said, with its boot, in every
        place, and each boot's steal."""
        rs = results.load(hztest.FIXTURES + "/results-tcg-answers")
        for r in rs.records:
            if r.get("run") == 1 and r.get("t") == "header":
                r.update(tcg=False, hypervisor="KVMKVMKVM")
            if r.get("run") == 1 and r.get("t") == "summary":
                r.update(steal_pct=0.5)
        rs.meta = dict(rs.meta, accel="kvm")
        self.assertTrue(results.tcg(rs))
        self.assertEqual(results.machine(rs), "QEMU TCG CPU version 2.5+, hypervisor "
                         "TCGTCGTCGTCG, QEMU TCG (not hardware timings) [boot 0], hypervisor "
                         "KVMKVMKVM [boot 1]")
        # 80 columns: the commit gives way, where it ran does not
        self.assertEqual(report_short.facts_line(rs), "QEMU TCG CPU version 2.5+ (family 0xf "
                         "model 0x6b), TCG [boot 0], KVM [boot 1]")
        text = " ".join(x.strip() for x in report_text.machine_block(rs))
        self.assertIn("hypervisor: TCGTCGTCGTCG, QEMU TCG: not hardware timings [boot 0], "
                      "KVMKVMKVM, kvm, -cpu None, None [boot 1]", text)
        self.assertIn("steal:      steal unknown (no timed cell) [boot 0]; steal 0.50% [boot 1];",
                      text)
        for r in rs.of_type("header"):
            r["tcg"] = False
        self.assertFalse(results.tcg(rs))

    def test_tsc_of_every_boot(self):
        """Boot 1's TSC not invariant, boot 0's invariant: both reports say so."""
        rs = results.load(hztest.FIXTURES + "/results-tcg-answers")
        for r in rs.of_type("header"):
            r.update(tcg=False, hypervisor="KVMKVMKVM", cpu={"brand": "EPYC"})
        rs.meta = dict(rs.meta, accel="kvm")
        rs.records += [{"t": "tsc", "run": 0, "source": "cpuid-15", "invariant": True,
                        "hz": 2.1e9},
                       {"t": "tsc", "run": 1, "source": "pmtimer", "invariant": False,
                        "hz": 2.0e9}]
        self.assertEqual(report_short.facts_line(rs),
                         "EPYC, KVM, 2 CPUs, 2G 4k, TSC 2.10 GHz not invariant, 55a535d3b3e7")
        self.assertIn("  TSC:        cpuid-15, invariant, 2.100 GHz [boot 0], pmtimer, NOT "
                      "invariant,", report_text.machine_block(rs))


if __name__ == "__main__":
    unittest.main()
