"""make answers (tools/hzlib/answers_data.py, answers_text.py, cli_answers.py):
the thread's three answers from a run's records, one block.

results-tcg-answers/ is a real `tools/hz answers --accel tcg` of this
branch on the 2-vCPU development host (two boots: run=faultclear -m 6G,
run=vmstart,interference -m 2G), its records trimmed to the types the block
and the report read."""

import contextlib
import copy
import io
import json
import os
import subprocess
import tempfile
import unittest

import hztest
from hzlib import answers_data, answers_text, cli_answers, results

FIXTURE = os.path.join(hztest.FIXTURES, "results-tcg-answers")

BLOCK = [
    "== answers (AMD family 0xf model 0x6b, TCG, 2 CPUs; measured unless marked model)",
    "   TCG: every figure is an emulator timing, not hardware; nothing is decided",
    "Q1 64 x 1 GiB faults, 1 thread: 64 x the median fault and its interval (rep_stosb, n=6 each)",
    "   today, 4K clear_page             132 s [98.3..147]",
    "   clear_pages(), preempt=none/vol  92.4 s [89.3..152]  1.09x [0.868..1.52] vs today (TCG)",
    "   clear_pages(), preempt=full/lazy 135 s [113..162]  0.956x [0.743..1.19] vs today (TCG)",
    "   pre-zeroed frames                0.207 s; removes 99.8 % [98.5..100.0] of a none/vol fault",
    "Q2 2 TB VM start, 16 threads        >= 158 s [156..163], model: 16 x 0.791 GB/s (T=1), linear",
    "   1 -> 2 threads: 0.988x [0.690..1.03] the rate (undecided; linear: 2.00x), measured",
    "   a 2-CPU host can't tell more: a 16-CPU host would settle B, the bandwidth ceiling",
    "Q3 background zeroer                rep_stosb 1G calls: 2074 ms CPU per GiB (in a 1 "
    "GiB fault)",
    "                                    clear_page (rep_stosb 4K calls): 2067 ms CPU per GiB",
    "   neighbour cost: not measurable here (no LLC-resident victim)",
    "   needs distinct physical cores, an unshared LLC",
    # both boots' trust items: boot 0 saw 6 cells, boot 1 4, none left out
    "   trust        TCG, TSC NOT invariant, RAM 4k, steal unknown (no timed cell), 0/10 cells out",
]


def fixture():
    rs = results.load(FIXTURE)
    return rs.records, rs.meta


def block(recs, meta=None):
    """The block, each line checked to fit 100 columns uncut."""
    out = answers_text.block(answers_data.lines(recs, meta or {}))
    long = [x for x in out if len(x) > answers_text.WIDTH or x.endswith("...")]
    assert not long, long
    return out


def replace(recs, t, policy=None, **members):
    """A copy of recs with members set on every record of type t (and policy)."""
    out = copy.deepcopy(recs)
    for r in out:
        if r.get("t") == t and (policy is None or r.get("policy") == policy):
            r.update(members)
    return out


def set_item(recs, item, **members):
    """A copy of recs with members set on the verdict record of item."""
    out = copy.deepcopy(recs)
    for r in out:
        if r.get("t") == "verdict" and r.get("item") == item:
            r.update(members)
    return out


class Block(unittest.TestCase):
    def test_real_tcg_run_renders_exactly(self):
        recs, meta = fixture()
        self.assertTrue(answers_data.has_answers(recs))
        self.assertEqual(block(recs, meta), BLOCK)
        self.assertTrue(all(len(x) <= answers_text.WIDTH for x in BLOCK))

    def test_q1_is_64_times_the_median_and_the_gain_record(self):
        recs, _ = fixture()
        today = next(r for r in recs if r.get("t") == "faultclear" and r["bytes"] == 1 << 30
                     and r["model"] == "linux_4k")
        lines = {x.kind: x for x in answers_data.lines(recs)}
        t = lines["q1_today"].fields["t"]
        self.assertAlmostEqual(t.value, 64 * today["median_ns"] / 1e9)
        self.assertAlmostEqual(t.hi, 64 * today["ci_hi_ns"] / 1e9)
        gain = next(r for r in recs if r.get("t") == "faultclear_gain" and r["bytes"] == 1 << 30)
        self.assertEqual(lines["q1_batch"].fields["ratio"].value, gain["gain"])
        self.assertEqual(lines["q1_extent"].fields["ratio"].value, gain["full_gain"])
        self.assertEqual(lines["q1_batch"].fields["preempt"], "none/voluntary")
        self.assertEqual(lines["q1_extent"].fields["preempt"], "full/lazy")

    def test_preemption_labels_in_records_and_block(self):
        recs, _ = fixture()
        labels = {(r["model"], r["preempt"]) for r in recs
                  if r.get("t") == "faultclear" and r["bytes"] == 1 << 30}
        self.assertIn(("linux_batch=32M", "none/voluntary"), labels)
        self.assertIn(("extent", "full/lazy"), labels)
        text = "\n".join(block(recs))
        self.assertIn("preempt=none/vol", text)
        self.assertIn("preempt=full/lazy", text)

    def test_outcome_words_only_outside_tcg(self):
        recs, _ = fixture()
        kvm = replace(replace(recs, "header", tcg=False, hypervisor="KVMKVMKVM"),
                      "faultclear_gain", gain=1.43, gain_lo=1.35, gain_hi=1.53,
                      gain_outcome="gain", full_gain_outcome="undecided",
                      published_cpu="milan", published_gain=1.053, published_full_gain=2.439,
                      published_batch_bytes=8 << 20)
        out = block(kvm, {"accel": "kvm"})
        self.assertEqual(out[0], "== answers (AMD family 0xf model 0x6b, KVM, 2 CPUs; measured "
                                 "unless marked model)")
        self.assertNotIn("TCG:", out[1])
        self.assertIn("1.43x [1.35..1.53] vs today (faster)", out[3])
        self.assertEqual(out[4], "      published: series v8 on milan in 8M batches (merged: "
                                 "32M): 1.05x")
        self.assertIn("0.956x [0.743..1.19] vs today (undecided)", out[5])
        self.assertEqual(out[6], "      published: series v8 on milan, the same model: 2.44x")
        self.assertNotIn("(faster)", "\n".join(block(recs)))

    def test_bw_ceiling_given_is_a_model_never_decided(self):
        """bw_ceiling= below 16 x r1: the item's figure is the model with
        the user's B (reason B_GIVEN, no interval: B sets it)."""
        recs, _ = fixture()
        given = replace(recs, "vmstart_model", policy="qemu_4k", ceiling_source="option",
                        ceiling_gbps=10.0, bw_ceiling_option=10.0, lower_bound=False,
                        capped=True, model_ns=200000000000)
        given = set_item(given, "vmstart", reason="B_GIVEN", figure=200.0, lo=200.0, hi=200.0)
        out = block(given)
        i = next(k for k, x in enumerate(out) if x.startswith("Q2"))
        self.assertEqual(out[i:i + 2], [
            "Q2 2 TB VM start, 16 threads        200 s, model (B given): 2 TB / min(16 x 0.791 "
            "GB/s, B)",
            "   B 10.0 GB/s is the bw_ceiling= option, not measured: never decided"])
        self.assertNotIn("decided:", "\n".join(out))
        kvm = replace(given, "header", tcg=False, hypervisor="KVMKVMKVM")
        self.assertNotIn("decided:", "\n".join(block(kvm)))

    def test_measured_plateau_under_tcg_is_not_decided(self):
        recs, _ = fixture()
        plateau = replace(recs, "vmstart_model", policy="qemu_4k", ceiling_source="measured",
                          ceiling_gbps=0.8, lower_bound=False, model_ns=156250000000)
        plateau = set_item(plateau, "vmstart", reason="TCG", figure=156.25, lo=156.25,
                           hi=156.25)
        out = block(plateau)
        i = next(k for k, x in enumerate(out) if x.startswith("Q2"))
        self.assertEqual(out[i:i + 2], [
            "Q2 2 TB VM start, 16 threads        156 s, model: 2 TB / min(16 x 0.791 GB/s, B)",
            "   B 0.800 GB/s is the measured plateau (TCG)"])

    def test_kvm_takes_the_verdict_items_figure_and_amdahl(self):
        """Outside TCG the VM start item carries the figure with its interval
        (from r1's interval) and, after a sub-linear step, Amdahl's law fitted
        to the curve beside the linear lower bound."""
        recs, _ = fixture()
        kvm = replace(recs, "header", tcg=False, hypervisor="KVMKVMKVM")
        item = {"t": "verdict", "item": "vmstart", "label": "VM start", "form": "vmstart",
                "measured": True, "measured_by": ["vmstart"], "scenarios": ["vmstart"],
                "decided": False, "reason": "FEW_CPUS", "figure": 12.1, "lo": 11.9, "hi": 12.4,
                "unit": "s", "figures": [{"name": "amdahl", "unit": "s", "value": 19.6,
                                          "lo": 16.2, "hi": 24.0}]}
        out = block(kvm + [item])
        i = next(k for k, x in enumerate(out) if x.startswith("Q2"))
        self.assertEqual(out[i], "Q2 2 TB VM start, 16 threads        >= 12.1 s [11.9..12.4], "
                                 "model: 16 x 0.791 GB/s (T=1), linear")
        self.assertEqual(out[i + 1], "                                    19.6 s [16.2..24.0] "
                                     "with the measured scaling (Amdahl model)")
        decided = replace(kvm + [dict(item, decided=True, reason=None)], "vmstart_model",
                          policy="qemu_4k", ceiling_source="measured", ceiling_gbps=0.44,
                          lower_bound=False)
        self.assertIn("   B 0.440 GB/s is the measured plateau: decided", block(decided))

    def test_scaling_of_older_records_from_the_cells_medians(self):
        recs, _ = fixture()
        knee = next(r for r in recs if r.get("t") == "vmstart_knee" and r["policy"] == "qemu_4k")
        cells = {r["threads"]: r["gbps"] for r in recs
                 if r.get("t") == "vmstart" and r.get("policy") == "qemu_4k"}
        self.assertEqual(knee["speedup"], 0.988)
        old = [r for r in recs if r.get("t") != "vmstart_knee"]
        line = [x for x in block(old) if x.startswith("   1 -> 2 threads")][0]
        self.assertEqual(line, "   1 -> 2 threads: %s GB/s -> %s GB/s (%+.1f %%), measured: a "
                               "2-CPU host can't tell more" % (
                                   "%.3f" % cells[1], "%.3f" % cells[2],
                                   100 * (cells[2] / cells[1] - 1)))

    def test_host_contention_says_why_not(self):
        recs, _ = fixture()
        busy = replace(recs, "interference_host", reason="cpu_contention", cpu_contention=True,
                       llc_resident=True, victim="chase_4llc", slowdown_pct=163.8,
                       slowdown_lo_pct=120.1, slowdown_hi_pct=201.0)
        out = block(busy)
        self.assertIn("   neighbour cost: not measurable here (spin control alone: +163.8 % "
                      "[+120.1..+201.0] on chase_4llc)", out)

    def test_zeroer_peaks_give_the_call_size(self):
        recs, _ = fixture()
        peaks = [{"t": "interference_peak", "zeroer": "clzero", "chunk": 2 << 20,
                  "gbps_per_cpu": 19.2},
                 {"t": "interference_peak", "zeroer": "rep_stosb_4k", "chunk": 4096,
                  "gbps_per_cpu": 10.0}]
        out = block(recs + peaks)
        self.assertIn("Q3 background zeroer                clzero 2M calls: 55.9 ms CPU per GiB "
                      "at full rate", out)
        self.assertIn("                                    clear_page (rep_stosb 4K calls): "
                      "107 ms CPU per GiB", out)

    def test_header_names_bare_metal_and_the_hypervisor(self):
        recs, _ = fixture()
        bare = replace(recs, "header", tcg=False, hypervisor="")
        self.assertTrue(block(bare)[0].startswith("== answers (AMD family 0xf model 0x6b, "
                                                  "bare metal, 2 CPUs;"))
        kvm = replace(recs, "header", tcg=False, hypervisor="KVMKVMKVM")
        self.assertTrue(block(kvm)[0].startswith("== answers (AMD family 0xf model 0x6b, KVM, "))

    def test_missing_sources_are_named(self):
        recs, _ = fixture()
        bare = [r for r in recs if r.get("t") not in ("faultclear", "faultclear_gain")]
        self.assertFalse(answers_data.has_answers(bare))
        self.assertIn("Q1 64 x 1 GiB faults, 1 thread: not measured (run=faultclear did not "
                      "run)", block(bare))


class Command(unittest.TestCase):
    def test_plan_keeps_the_budget(self):
        for accel in ("kvm", "tcg"):
            boots = cli_answers.plan(accel, 900, ["bw_ceiling=204.8"])
            self.assertLessEqual(sum(b.timeout for b in boots), cli_answers.BUDGET_MAX)
            self.assertTrue(all(b.args[-1] == "bw_ceiling=204.8" for b in boots))
            self.assertTrue(all("faultclear_strategies=rep_stosb" in b.args for b in boots))
        self.assertEqual([b.mem for b in cli_answers.plan("tcg", 600)], ["6G", "2G"])
        self.assertEqual(sum(b.timeout for b in cli_answers.plan("kvm", 300)), 300)

    def test_run_writes_answers_txt_from_every_boot(self):
        """cli_answers.run with a stand-in for hz run that writes each boot's
        records (the fixture's, split by its run index) into a folder."""
        recs, meta = fixture()
        said = []
        with tempfile.TemporaryDirectory() as base:
            def boot(b, folder, ncpu):
                i = len(os.listdir(folder))
                d = os.path.join(folder, "boot%d" % i)
                os.makedirs(d)
                results.write_jsonl(os.path.join(d, "records.jsonl"),
                                    [r for r in recs if r.get("run") == i])
                with open(os.path.join(d, "meta.json"), "w") as f:
                    json.dump(meta, f)
                return 0
            with contextlib.redirect_stdout(io.StringIO()) as printed:
                rc = cli_answers.run("tcg", 600, base, [], boot, said.append)
            self.assertEqual(printed.getvalue().splitlines()[1:len(BLOCK) + 1], BLOCK)
            self.assertEqual(rc, 0)
            self.assertIn("answers: boot 2 of 2", said[1])
            folder = os.path.join(base, os.listdir(base)[0])
            with open(os.path.join(folder, cli_answers.FILE)) as f:
                self.assertEqual(f.read().splitlines(), BLOCK)
            p = subprocess.run([hztest.HZ, "report", "--text", folder], stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, timeout=60, text=True)
            self.assertEqual(p.stdout.splitlines()[:len(BLOCK)], BLOCK)

    def test_report_text_of_the_fixture_starts_with_the_block(self):
        p = subprocess.run([hztest.HZ, "report", "--text", FIXTURE], stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE, timeout=60, text=True)
        self.assertEqual(p.returncode, 0)
        lines = p.stdout.splitlines()
        self.assertEqual(lines[:len(BLOCK)], BLOCK)
        self.assertEqual(lines[len(BLOCK)], "")


if __name__ == "__main__":
    unittest.main()
