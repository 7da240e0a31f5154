"""hz report --text: the short form, a mailing-list reply (tools/hzlib/
report_short.py): at most 40 lines of at most 80 columns (the verdict's
lines whole, at most 100, as the console prints them), ASCII, the facts
line, the verdict block, strategy x call size, the command that reproduces
the run; and two result sets in the same shape, B against A."""

import shlex
import subprocess
import unittest

import hztest
from hzlib import report, report_text, report_short, results, verdict_text

SETS = ("results-a", "results-b", "results-kvm-a", "results-kvm-b", "results-verdict",
        "results-tcg-faultclear", "clean.log", "reboot-loop.log")


def load(name):
    return results.load(hztest.fixture(name))


class Short(unittest.TestCase):
    def test_forty_lines_of_eighty_columns(self):
        for name in SETS:
            t = report_short.text(load(name))
            lines = t.splitlines()
            self.assertLessEqual(len(lines), report_short.LINES, name)
            block = report_short.verdict_lines(load(name))
            # the verdict's lines whole, as the console prints them (each an
            # answer to paste); everything else within 80 columns
            self.assertEqual([ln for ln in lines if len(ln) > 80 and ln not in block], [], name)
            self.assertEqual([ln for ln in block if len(ln) > verdict_text.WIDTH], [], name)
            self.assertTrue(t.isascii() and "\t" not in t, name)

    def test_blocks_in_order(self):
        rs = load("results-verdict")
        blocks = report_short.text(rs).split("\n\n")
        self.assertEqual(blocks[0], "AMD EPYC (family 0x19 model 0x11), KVM, 2 CPUs, "
                                    "4G anonymous 4K, 34a740dca693")
        block = verdict_text.block_lines(rs.of_type("verdict"))
        self.assertEqual(blocks[1].splitlines()[0], block[0])
        grid = blocks[2].splitlines()
        self.assertEqual(grid[2].split(), ["strategy", "4K", "2M", "32M", "1G"])
        # twelve strategies: the slowest give way, rep_stosb (clear_page) stays
        self.assertEqual([ln.split()[0] for ln in grid[3:-1:2]],
                         ["avx512_nt", "avx_nt", "clzero", "rep_stosb", "rep_stosq", "sse2_nt",
                          "movnti", "avx512_store", "avx_store", "sse2_store"])
        self.assertEqual(grid[-1], "2 slower strategies left out: hz report --text --full")
        self.assertEqual(len(report_short.text(rs).splitlines()), 40)  # two lines a row
        # four call sizes do not fit 80 columns with intervals: said
        self.assertTrue(grid[1].endswith("(intervals: --full)"))
        self.assertEqual(grid[9].split(), ["rep_stosb", "29.9", "30.6", "67.2", "75.6"])
        self.assertEqual(grid[10].split(), ["clear_page", "1.02x?", "2.25x", "2.53x"])

    def test_every_boot_of_make_answers(self):
        """make answers boots twice (run=faultclear, then the rest): the
        fault item boot 0 decided is not lost to boot 1's "not measured"."""
        rs = load("results-tcg-answers")
        lines = report_short.text(rs).splitlines()
        self.assertLessEqual(len(lines), report_short.LINES)
        i = lines.index("== verdict (run=faultclear [boot 0] + vmstart,interference [boot 1]; "
                        "Hodges-Lehmann ratio intervals,")
        self.assertEqual(lines[i + 5], "  fault        not decided: TCG, emulator timings [boot 0]")
        self.assertEqual(lines[i + 6], "  idle zeroer  not decided: TCG, emulator timings")
        self.assertNotIn("not measured (run=fault or run=faultclear)", "\n".join(lines))
        # an answer stays one line to paste, past 80 columns (at most 100)
        self.assertIn("  VM start     2 TB, 16 threads >= 158 s [156..163] linear model (TCG); "
                      "clear_pages() 0.99x", lines)
        full = report_text.verdict_block(rs)
        j = full.index("  fault        not decided: TCG, emulator timings")
        self.assertEqual(full[j + 1], "    from boot 0 (run=faultclear)")

    def test_boot_mark_stays_on_a_long_line(self):
        """An earlier boot's item line of 81..100 columns keeps its boot mark
        on the same line: the verdict's lines are whole up to 100 columns."""
        rs = load("results-tcg-answers")
        fault = next(r for r in rs.of_type("verdict") if r.get("item") == "fault")
        fault.update(reason="NO_CELL", args={"need": "faultclear cell at 1 GiB with rep_stosb"})
        want = ("  fault        not decided: no usable faultclear cell at 1 GiB with rep_stosb"
                " [boot 0]")
        self.assertGreater(len(want), 80)
        self.assertIn(want, report_short.text(rs).splitlines())

    def test_grid_interval_label_from_the_repeats(self):
        rs = load("results-tcg-faultclear")
        self.assertIn("clear, 1 CPU, 2M target, cold cache: GB/s [95% interval], below it",
                      report_short.text(rs).splitlines())
        for r in rs.of_type("clear"):
            r["repeats"] = 2
        self.assertIn("clear, 1 CPU, 2M target, cold cache: GB/s [min..max, 50%], below it",
                      report_short.text(rs).splitlines())

    def test_a_reboot_loop_gives_its_last_run(self):
        def v(run, item, reason):
            return {"t": "verdict", "run": run, "item": item, "run_text": "clear",
                    "reason": reason, "label": item}
        rs = load("results-verdict")
        rs.records = [v(0, "fault", "TCG"), v(0, "trust", None),
                      v(1, "fault", "NOT_IN_RUN"), v(1, "trust", None),
                      v(2, "fault", "TCG"), v(2, "trust", None)]
        self.assertEqual([(run, r["item"]) for run, r in report.merged_verdict(rs)],
                         [(2, "fault"), (2, "trust")])
        rs.records = rs.records[:4]  # the last run did not measure it: the one before
        self.assertEqual([(run, r["item"]) for run, r in report.merged_verdict(rs)],
                         [(0, "fault"), (1, "trust")])

    def test_intervals_and_the_command_of_a_real_run(self):
        """A TCG run made by hz run --hugepages auto (meta.json says so):
        GB/s and x clear_page with their intervals, and the command with
        --hugepages auto and without the backing= hz run adds itself."""
        t = report_short.text(load("results-tcg-faultclear"))
        lines = t.splitlines()
        self.assertIn("avx_nt     8.26 [5.60..8.77]*      8.11 [0.128..8.91]*", lines)
        self.assertIn("           23.0x [9.22..137]?      13.1x [0.211..134]?", lines)
        self.assertIn("           clear_page              0.630x [0.0735..8.55]?", lines)
        # TCG: emulator timings, said in the table's header; no ratio stands
        # as a result (each is "?") and each GB/s is marked
        self.assertIn("TCG: emulator timings, no outcome: GB/s marked *, every ratio ?", lines)
        grid = t.split("\n\n")[2].splitlines()
        cells = [c for ln in grid[4:] for c in ln.split("  ") if c.strip()]
        self.assertEqual([c for c in cells if "x [" in c and not c.endswith("?")], [])
        self.assertEqual([c for c in cells if "]" in c and "x [" not in c
                          and not c.endswith("]*")], [])
        # the kernel's verdict block, rendered from the records' fields
        self.assertIn("  fault        not decided: TCG, emulator timings", lines)
        cmd = t.split("reproduce: ")[1]
        first, rest = cmd.split("\n", 1)
        self.assertEqual(first, "git checkout b79f71720cf2 && make -j2 && \\")
        words = shlex.split(rest.replace("\\\n", " "))
        self.assertEqual(words[:13], ["tools/hz", "run", "--boot", "direct", "--accel", "tcg",
                                      "--cpu", "max", "-m", "1G", "--smp", "2", "--hugepages"])
        self.assertEqual(words[13:16], ["auto", "--", "run=faultclear,clear"])
        self.assertNotIn("backing=4k", words)

    def test_facts_without_meta_and_a_dirty_tree(self):
        self.assertEqual(report_short.facts_line(load("reboot-loop.log")),
                         "Intel(R) Xeon(R) Platinum 8480+ (family 0x6 model 0x8f), KVM, "
                         "3f2a9c1b7d4e")
        lines = report_short.text(load("results-kvm-a")).splitlines()
        self.assertIn("reproduce (built with local changes): git checkout a059a646fdaf && "
                      "make -j2 && \\", lines)

    def test_a_against_b(self):
        a, b = load("results-kvm-a"), load("results-kvm-b")
        lines = report_short.pair_text(a, b).splitlines()
        self.assertEqual(lines[0], "A: AMD EPYC (family 0x19 model 0x1), KVM, 2 CPUs, "
                                   "a059a646fdaf-dirty")
        self.assertIn("  rep_stosb/4K B gives 0.649x [0.523..0.769] the GB/s of A (slower)",
                      lines)
        self.assertIn("  rep_stosb/1G B gives 0.633x [0.465..0.830] the GB/s of A (slower)",
                      lines)
        text = report_short.pair_text(load("results-verdict"), load("results-verdict"))
        lines = text.splitlines()
        self.assertIn("  clear_1g     B gives 1.00x the GB/s of A (noise, spread rule)", lines)
        self.assertIn("  avx512_nt/2M     B gives 1.00x the GB/s of A (noise, spread rule)", lines)
        self.assertEqual(len(lines), report_short.LINES)
        self.assertEqual(lines[-1], "21 more cells: hz compare A B, or hz report --text --full A B")
        self.assertEqual([ln for ln in lines if len(ln) > 80], [])

    def test_command(self):
        d = hztest.fixture("results-verdict")
        p = subprocess.run([hztest.HZ, "report", "--text", d, d], stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE, timeout=60)
        self.assertEqual((p.returncode, p.stdout.decode()),
                         (0, report_short.pair_text(load("results-verdict"),
                                                    load("results-verdict"))))
        p = subprocess.run([hztest.HZ, "report", "--text", "--full", d, d],
                           stdout=subprocess.PIPE, timeout=60)
        self.assertIn("rule: Hodges-Lehmann ratio of B's samples over A's", p.stdout.decode())


if __name__ == "__main__":
    unittest.main()
