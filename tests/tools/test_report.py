"""hz report: the page of one result set and of two (A vs B), on fixture
result sets: verdict first, flagged rows, embedded plots, print CSS."""

import base64
import copy
import html.parser
import os
import shlex
import subprocess
import tempfile
import unittest

import hztest
from hzlib import compare, plot, report, report_pair, report_text, results, verdict_text

VERDICT_SET = hztest.fixture("results-verdict")


class Page(html.parser.HTMLParser):
    """The parts of a page the tests look at: every table (its rows, each
    with its class and cell texts), the img sources, the ids in order, and
    the text."""

    def __init__(self, text):
        super().__init__()
        self.tables, self.imgs, self.ids, self.text = [], [], [], []
        self._row = self._cell = None
        self.feed(text)

    @property
    def rows(self):
        return [row for t in self.tables for row in t]

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if "id" in a:
            self.ids.append(a["id"])
        if tag == "table":
            self.tables.append([])
        elif tag == "tr":
            self._row = (a.get("class") or "", [])
        elif tag in ("td", "th") and self._row is not None:
            self._cell = []
        elif tag == "img":
            self.imgs.append(a.get("src", ""))

    def handle_endtag(self, tag):
        if tag in ("td", "th") and self._cell is not None:
            self._row[1].append("".join(self._cell).strip())
            self._cell = None
        elif tag == "tr" and self._row is not None:
            self.tables[-1].append(self._row)
            self._row = None

    def handle_data(self, data):
        self.text.append(data)
        if self._cell is not None:
            self._cell.append(data)

    def rows_of(self, head):
        """The body rows of every table whose head row starts with `head`."""
        return [row for t in self.tables if t and tuple(t[0][1][:len(head)]) == tuple(head)
                for row in t[1:]]


def render(rs, pngs=()):
    return Page(report.single(rs, list(pngs)))


class SingleReport(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.rs = results.load(VERDICT_SET)
        cls.page = render(cls.rs)

    def test_the_answers_open_the_page(self):
        """The verdict block as the console prints it, then the strategy x
        call size table, then the plots and the tables."""
        self.assertEqual(self.page.ids, ["verdict", "grid", "plots", "clear", "faults",
                                         "policies", "smp", "checks", "facts"])
        text = "".join(self.page.text)
        block = "\n".join(verdict_text.block_lines(self.rs.of_type("verdict")))
        self.assertIn(block, text)
        self.assertLess(text.index(block), text.index("Clear: strategy x call size"))
        grid = self.page.rows_of(("strategy", "4K", "2M", "32M", "1G"))
        self.assertEqual(grid[0][1][:2], ["avx512_nt", "24.2 [24.2..24.3]\n0.811x"])
        self.assertEqual(len(grid), 12)

    def test_grid_rows_carry_their_cells_flags(self):
        page = render(results.load(hztest.fixture("results-tcg-faultclear")))
        rows = page.rows_of(("strategy", "4K", "2M"))
        self.assertEqual([(cls, c[0], c[-1]) for cls, c in rows],
                         [("flagged", "avx_nt", "noisy steal not-cold TCG"),
                          ("flagged", "rep_stosb", "noisy steal not-cold TCG")])
        # TCG: the GB/s marked, every ratio undecided, the header says why
        self.assertEqual(rows[1][1][2], "0.0790 [0.0600..0.844]*\n0.630x [0.0735..8.55]?")
        self.assertEqual(rows[0][1][1], "8.26 [5.60..8.77]*\n23.0x [9.22..137]?")
        self.assertIn("TCG: emulator timings, no outcome", "".join(page.text))

    def test_what_the_answers_rest_on_is_collapsed(self):
        """Each verdict record's fields, its comparisons and cells sit in a
        <details>, closed."""
        text = report.single(self.rs, [])
        start = text.index('<details class="behind">')
        end = text.index("</details>", start)
        self.assertLess(start, text.index('id="grid"'))
        behind = Page(text[start:end])
        kv = [c for _, c in behind.rows if len(c) == 2]
        vm = next(c for c in kv if c[0] == "reason" and c[1].startswith("not decided: too noisy"))
        self.assertEqual(vm[1], "not decided: too noisy (smp_peak avx512_nt 2 threads: noisy, "
                                "interval 94.3..165.8 GB/s)")
        self.assertIn(["worst_cv_pct", "29.34"], kv)
        self.assertIn("cells: smp_fill/rep_stosb/2, smp_peak", "".join(behind.text))

    def test_no_verdict_records_is_said_plainly(self):
        page = render(results.load(hztest.fixture("results-a")))
        self.assertIn("No verdict: this result set has no verdict records", "".join(page.text))
        self.assertEqual(page.ids[:3], ["verdict", "grid", "plots"])

    def test_noisy_cells_are_flagged_in_every_table(self):
        clear = self.page.rows_of(("strategy", "chunk", "repeats", "GB/s"))
        noisy = [r for r in self.rs.of_type("clear") if r.get("noisy")]
        flagged = [c for cls, c in clear if cls == "flagged" and "noisy" in c[-1].split()]
        self.assertEqual(len(flagged), len(noisy))
        self.assertEqual(len(clear), len(self.rs.of_type("clear")))
        scale = self.page.rows_of(("strategy", "threads", "placement"))
        self.assertEqual(sum("noisy" in c[-1] for _, c in scale),
                         sum(1 for r in self.rs.of_type("smp_scale") if r.get("noisy")))
        self.assertIn("(noisy)", "".join(self.page.text))  # the smp_peak line

    def test_not_cold_unverified_and_tcg(self):
        rs = copy.deepcopy(self.rs)
        cells = rs.of_type("clear")
        cells[1]["cache_verified"] = False
        cells[2]["verified"] = False
        rs.of_type("prezero")[0]["verified"] = False
        page = render(rs)
        flags = [c[-1].split() for cls, c in page.rows_of(("strategy", "chunk", "repeats"))
                 if cls == "flagged"]
        self.assertIn("not-cold", sum(flags, []))
        self.assertIn("unverified", sum(flags, []))
        pol = page.rows_of(("workload", "policy"))
        self.assertEqual(pol[0][1][-1], "unverified ring0-emulated")
        rs.header()["tcg"] = True
        page = render(rs)
        timed = (page.rows_of(("strategy", "chunk", "repeats"))
                 + page.rows_of(("faults of", "policy", "page"))
                 + page.rows_of(("workload", "policy")) + page.rows_of(("strategy", "threads")))
        self.assertGreater(len(timed), 80)
        self.assertEqual([c for cls, c in timed if "TCG" not in c[-1].split() or cls != "flagged"],
                         [])
        self.assertIn("QEMU TCG: no figure on this page is a hardware timing", "".join(page.text))

    def test_fault_rows_by_scenario(self):
        rows = self.page.rows_of(("faults of", "policy", "page", "faults"))
        self.assertEqual([c[:4] for _, c in rows],
                         [["self-test", "none", "1G", "2"], ["vm_boot", "none", "1G", "2"],
                          ["vm_boot", "boot", "1G", "2"], ["vm_boot", "on_free", "1G", "2"],
                          ["vm_boot", "idle", "1G", "2"], ["vm_boot", "batch=2", "1G", "2"]])

    def test_vmstart_cells_and_model_lines(self):
        from test_vmstart import RECS  # the run=vmstart records make bench's lines are tested on
        page = render(results.ResultSet("vmstart", [dict(r, v=1, run=0) for r in RECS]))
        self.assertIn("vmstart", page.ids)
        rows = page.rows_of(("policy", "path", "strategy", "T"))
        self.assertEqual([(c[0], c[3], c[5], c[6], c[8], c[-1]) for _, c in rows],
                         [("none", "1", "25.1 s", "49.0 ms..52.5 ms", "40.000", "ring0-emulated"),
                          ("none", "2", "25.1 s", "49.0 ms..52.5 ms", "43.000",
                           "noisy ring0-emulated"),
                          ("boot", "2", "25.1 s", "49.0 ms..52.5 ms", "-", "ring0-emulated"),
                          ("qemu_4k", "2", "25.1 s", "49.0 ms..52.5 ms", "19.000",
                           "unverified ring0-emulated")])
        text = "".join(page.text)
        self.assertIn("MODEL qemu_4k (fault_clear=linux_4k): t = S / min(T x r1, B), S = 2 TB",
                      text)
        self.assertIn("batch=8: its own costs: pre-zeroing before the VM start 348 ms", text)
        self.assertIn("knee (first T vs T-1 a plateau or below linear at the tolerance, "
                      "measured): none T=2", text)

    def test_faultclear_models_and_gain(self):
        # the run=faultclear records make bench's table is tested on
        from test_faultclear import run
        page = render(results.ResultSet("fc", [dict(r, v=1, run=0) for r in run()]))
        rows = page.rows_of(("frame", "strategy", "extent"))
        self.assertEqual([c for _, c in rows], [
            ["1G", "rep_stosb", "40.00 [39.00..42.00]", "20.00 [19.00..22.00]",
             "8.00 [7.00..10.00]", "42.00 [41.00..44.00]", "2.10x [1.90..2.35] 95%", "noisy"],
            ["2M", "rep_stosb", "30.00 [29.00..32.00]", "24.00 [23.00..26.00]",
             "12.00 [11.00..14.00]", "29.00 [28.00..31.00]", "0.83x [0.70..1.00] 95%",
             "noisy steal"]])

    def test_odd_member_types_do_not_crash(self):
        # each member of one record of each type replaced by a value of another JSON type
        firsts = {}
        for r in self.rs.records:
            firsts.setdefault(r["t"], r)
        for t, first in firsts.items():
            for k in set(first) - {"t", "v", "run"}:
                for v in (None, "x", True, [1], {"a": 1}, -1, 1e300):
                    rs = results.ResultSet("odd", [dict(first, **{k: v})])
                    try:
                        report.single(rs, [])
                        report_pair.verdict_section(rs, rs)
                        report_pair.facts_section(rs, rs)
                    except Exception as e:  # noqa: B902 (name the member that broke it)
                        self.fail("%s.%s = %r: %s: %s" % (t, k, v, type(e).__name__, e))

    def test_machine_and_config_facts(self):
        html_text = report.single(self.rs, [])
        facts = html_text[html_text.index('<h2 id="facts">'):]
        self.assertTrue(facts.startswith('<h2 id="facts">Machine and configuration</h2>'
                                         "<details><summary>"))
        kv = {c[0]: c[1] for _, c in Page(facts).rows if len(c) == 2}
        self.assertEqual(kv["cpu.brand"], "AMD EPYC")
        self.assertEqual(kv["microcode"], "0x1000065")
        self.assertIn("clzero", kv["features present"].split())
        self.assertEqual(kv["guest_ram"], "anonymous 4K")
        self.assertEqual(kv["cpu_model"], "host,+invtsc,-arch-capabilities")
        self.assertNotIn("qemu_argv", kv)  # qemu_cmdline says the same on one line
        page = render(results.load(hztest.fixture("clean.log")))
        self.assertIn("No meta.json", "".join(page.text))

    def test_self_contained_with_print_css(self):
        text = report.single(self.rs, [])
        self.assertIn("@media print", text)
        self.assertIn("@page", text)
        for bad in ("<link", "<script", "http://", "https://", "url("):
            self.assertNotIn(bad, text)


@unittest.skipUnless(plot.terminal(), "gnuplot with a png terminal is not installed")
class EmbeddedPlots(unittest.TestCase):
    def test_every_plot_is_embedded_as_a_png_data_uri(self):
        with tempfile.TemporaryDirectory() as d:
            out = os.path.join(d, "r.html")
            report.write(results.load(VERDICT_SET), out)
            self.assertEqual(os.listdir(d), ["r.html"])  # plots drawn in a scratch folder
            with open(out) as f:
                page = Page(f.read())
        self.assertEqual(len(page.imgs), 5)
        for src in page.imgs:
            self.assertTrue(src.startswith("data:image/png;base64,"), src[:40])
            self.assertEqual(base64.b64decode(src.split(",", 1)[1])[:8], hztest.PNG_MAGIC)


class Command(unittest.TestCase):
    def run_hz(self, *args, cwd=None):
        return subprocess.run([hztest.HZ, "report"] + list(args), stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, timeout=60, cwd=cwd)

    def test_a_vs_b_default_path_and_compare_rows(self):
        a, b = hztest.fixture("results-a"), hztest.fixture("results-b")
        with tempfile.TemporaryDirectory() as d:
            p = self.run_hz(a, b, cwd=d)
            self.assertEqual(p.returncode, 0, p.stderr)
            self.assertEqual(p.stdout.decode().strip(), "report-results-a-vs-results-b.html")
            with open(os.path.join(d, "report-results-a-vs-results-b.html")) as f:
                page = Page(f.read())
        want = compare.table(results.load(a), results.load(b))
        got = page.rows_of(("measurement", "A", "B", "B against A"))
        self.assertEqual([c[:4] for _, c in got], [list(r[:4]) for r in want])
        self.assertEqual([c[4] for _, c in got], [r[4] for r in want])
        # no samples_ns there: the spread rule, said
        self.assertIn("B gives 1.22x the GB/s of A (faster, spread rule)", [c[3] for _, c in got])
        self.assertIn("No verdict for A", "".join(page.text))
        self.assertIn("No verdict for B", "".join(page.text))

    def test_a_vs_b_hodges_lehmann_words(self):
        # Records with samples_ns: the page's verdicts are hz compare's words.
        a, b = hztest.fixture("results-kvm-a"), hztest.fixture("results-kvm-b")
        page = Page(report_pair.compare_section(results.load(a), results.load(a)))
        got = [c for _, c in page.rows_of(("measurement", "A", "B", "B against A"))]
        self.assertEqual([c[3] for c in got], [r[3] for r in compare.table(results.load(a),
                                                                           results.load(a))])
        # first_touch: one sample
        self.assertEqual(got[0][3], "B gives 1.00x the GB/s of A (too few samples)")
        # a run against itself on a host with 45 % steal: the samples' own
        # spread leaves every cell undecided at +-5 %
        self.assertEqual([c[3].split()[-1] for c in got[1:]], ["(undecided)"] * 4)
        self.assertEqual(got[1][3], "B gives 1.00x [0.738..1.35] the GB/s of A (undecided)")
        self.assertIn("Hodges-Lehmann", "".join(page.text))
        page = Page(report_pair.compare_section(results.load(a), results.load(b)))
        self.assertEqual([c[3].split()[-1] for _, c in page.rows_of(("measurement", "A", "B",
                                                                     "B against A"))][1:],
                         ["(slower)", "(undecided)", "(undecided)", "(slower)"])

    def test_a_vs_b_verdicts_side_by_side(self):
        with tempfile.TemporaryDirectory() as d:
            out = os.path.join(d, "x.html")
            p = self.run_hz(hztest.fixture("results-a"), VERDICT_SET, "-o", out)
            self.assertEqual((p.returncode, p.stdout.decode().strip()), (0, out))
            with open(out) as f:
                page = Page(f.read())
        text = "".join(page.text)
        self.assertIn("No verdict for A", text)
        self.assertIn("\n".join(verdict_text.block_lines(
            results.load(VERDICT_SET).of_type("verdict"))), text)
        differs = {c[0] for cls, c in page.rows if cls == "flagged" and c[-1] == "differs"}
        self.assertIn("header: cpu.brand", differs)
        self.assertNotIn("header: version", differs)

    def test_a_vs_b_flags_unverified_and_tcg_rows(self):
        a = results.load(VERDICT_SET)
        b = copy.deepcopy(a)
        cell = b.of_type("clear")[1]
        cell["verified"] = False
        b.header()["tcg"] = True
        page = Page(report_pair.compare_section(a, b))
        rows = page.rows_of(("measurement", "A", "B"))
        self.assertGreater(len(rows), 50)
        self.assertEqual([c for cls, c in rows if cls != "flagged" or "TCG(B)" not in c[-1]], [])
        label = "clear %s chunk=%s" % (cell["strategy"], results.human_size(cell["chunk"]))
        mine = [c for _, c in rows if c[0].startswith(label + " ") and "cache=cold" in c[0]]
        self.assertEqual(len(mine), 1)
        self.assertIn("unverified(B)", mine[0][-1].split())

    def test_single_default_path_is_inside_the_folder(self):
        with tempfile.TemporaryDirectory() as d:
            for name in ("meta.json", "records.jsonl"):
                with open(os.path.join(VERDICT_SET, name)) as src, \
                        open(os.path.join(d, name), "w") as dst:
                    dst.write(src.read())
            p = self.run_hz(d)
            self.assertEqual(p.returncode, 0, p.stderr)
            self.assertEqual(p.stdout.decode().strip(), os.path.join(d, "report.html"))
            self.assertTrue(os.path.getsize(os.path.join(d, "report.html")) > 20000)

    def test_bad_arguments(self):
        p = self.run_hz("a", "b", "c")
        self.assertEqual(p.returncode, 2)
        self.assertIn(b"hz: report takes one or two result sets", p.stderr)
        p = self.run_hz("/nonexistent-results")
        self.assertEqual(p.returncode, 2)
        self.assertIn(b"/nonexistent-results", p.stderr)
        self.assertNotIn(b"Traceback", p.stderr)

    def test_unwritable_output_is_an_error_not_a_traceback(self):
        with tempfile.TemporaryDirectory() as d:
            for out, why in ((d, b"is a folder"),
                             (os.path.join(d, "missing", "x.html"), b"cannot write")):
                p = self.run_hz("-o", out, VERDICT_SET)
                self.assertEqual(p.returncode, 2, out)
                self.assertIn(why, p.stderr)
                self.assertNotIn(b"Traceback", p.stderr)


class TextReport(unittest.TestCase):
    """hz report --text: plain text for a mailing-list reply."""

    def text(self, name):
        return report_text.text(results.load(hztest.fixture(name)))  # --full

    def test_long_quoted_word_pastes_back(self):
        """A kernel command line longer than a line is split so that a shell
        reads it back whole: inside single quotes a backslash is literal,
        so the quote closes before the continuation (it once printed
        'aa=rep_stos\\ and the kernel refused the option)."""
        cmdline = ("backing=4k run=clear strategies=rep_stosb chunks=4K,64K aa=rep_stosb "
                   "ab_delay=rep_stosb:20 tolerance=5 clear_samples=1 it's=quoted x=y")
        lines = report_text.command_lines(["printf", "%s|", "-append", cmdline], "  ")
        self.assertGreater(len(lines), 2)
        self.assertTrue(all(len(line) <= report_text.WIDTH for line in lines))
        out = subprocess.run(["sh", "-c", "\n".join(lines)], stdout=subprocess.PIPE,
                             universal_newlines=True, check=True).stdout
        self.assertEqual(out, "-append|%s|" % cmdline)

    def test_width_tabs_ascii(self):
        for name in ("results-verdict", "results-kvm-a", "results-a", "clean.log"):
            t = self.text(name)
            self.assertNotIn("\t", t, name)
            self.assertTrue(t.isascii(), name)
            verdict = t.split("\n\n")[1].splitlines()  # its item lines whole, as the console's
            wide = [ln for ln in t.splitlines() if len(ln) > 80 and ln not in verdict]
            self.assertEqual(wide, [], name)
            self.assertEqual([ln for ln in verdict if len(ln) > verdict_text.WIDTH], [], name)
            self.assertEqual([b.split("\n")[0].split(":")[0] for b in t.split("\n\n")[1:]],
                             ["Verdict", "Key table", "Machine", "Reproduce"], name)

    def test_verdict_key_table_and_machine(self):
        lines = self.text("results-verdict").splitlines()
        # records from before issue 29: rendered from their fields, then their whole text
        self.assertIn("  clear_1g     avx512_nt/1G 86.5 GB/s [82.2..86.7] (old record)", lines)
        self.assertIn("    stored text: clear a 1 GiB page with avx512_nt in 1 GiB calls: "
                      "86.5 GB/s", lines)
        self.assertIn("    stored text: not decided: too noisy (smp_peak avx512_nt 2 threads: "
                      "noisy,", lines)
        self.assertIn("    cells: smp_fill/rep_stosb/2, smp_peak", lines)
        rows = {ln.split()[1]: ln for ln in lines if ln.startswith("  cold ")}
        # records without samples_ns: ratio of medians, marked
        self.assertEqual(rows["avx512_nt/1G"].split()[2:],
                         ["86.5", "[82.2..86.7]", "2.89x", "(medians)", "faster"])
        self.assertEqual(rows["rep_stosb/4K"].split()[2:],
                         ["29.9", "[29.4..30.1]", "1.00x", "baseline"])
        self.assertEqual(rows["avx512_nt/4K"].split()[-1], "slower")
        self.assertNotIn("avx512_nt/2M", rows)  # not its fastest size, not 4K
        self.assertIn("  not shown: 12 warm cells (no rep_stosb/4K cell to compare with)", lines)
        self.assertIn("  CPU:        AMD EPYC (AuthenticAMD family 0x19 model 0x11 stepping 1)",
                      lines)
        self.assertIn("  microcode:  0x1000065 (MSR 0x8B as the hypervisor reports it: "
                      "the QEMU/KVM", lines)
        self.assertIn("  guest RAM:  anonymous 4K (host THP backed 99% of QEMU's memory)", lines)
        self.assertIn("  TSC:        hv-leaf, invariant, 2.596 GHz", lines)
        self.assertIn("  git checkout 34a740dca693 && make -j2", lines)

    def test_tcg_key_table_has_no_outcome(self):
        """Under TCG the ratios are the emulator's: no outcome word, each
        ratio "?", each GB/s marked, and the table's header says why."""
        lines = self.text("results-tcg-faultclear").splitlines()
        self.assertIn("  TCG: emulator timings, no outcome: GB/s marked *, every ratio ?", lines)
        row = next(ln for ln in lines if ln.startswith("  cold  avx_nt/4K"))
        self.assertEqual(row.split()[2:], ["8.3", "[5.6..8.8]*", "23.00x", "[9.22..136.52]?",
                                           "none", "(TCG)"])

    def test_samples_and_reproduction(self):
        t = self.text("results-kvm-a")
        lines = t.splitlines()
        row = next(ln for ln in lines if ln.startswith("  cold  rep_stosb/1G"))
        self.assertEqual(row.split()[2:], ["16.9", "[14.2..19.0]", "3.20x", "[2.31..4.47]",
                                           "faster", "steal"])
        self.assertIn("  caches:     L1d 32K, L2 512K, L3 32M (cpuid-8000001d)", lines)
        self.assertIn("  steal:      steal 44.94% (kvm_steal_time); cell steal 46.28% "
                      "(rep_stosb/4K", lines)
        block = t.split("\nReproduce\n")[1]
        cmd, qemu_part = block.split("  QEMU ran (hz run builds it):\n")
        words = shlex.split(cmd.split("\n", 1)[1].replace("\\\n", " "))
        self.assertEqual(words, ["tools/hz", "run", "--boot", "direct", "--accel", "kvm", "--cpu",
                                 "host,+invtsc,-arch-capabilities,host-cache-info=on", "-m",
                                 "4G", "--smp", "2", "--", "run=clear",
                                 "strategies=rep_stosb,avx512_nt", "chunks=4K,1G"])  # hz run
        # adds backing=4k itself (qemu.with_backing)
        meta = results.load(hztest.fixture("results-kvm-a")).meta
        self.assertEqual(shlex.split(qemu_part.replace("\\\n", " ")), meta["qemu_argv"])
        self.assertIn("  git checkout a059a646fdaf && make -j2   # built from a tree with local "
                      "changes", lines)

    def test_command(self):
        d = hztest.fixture("results-kvm-a")
        p = subprocess.run([hztest.HZ, "report", "--text", "--full", d], stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE, timeout=60)
        self.assertEqual((p.returncode, p.stdout.decode()),
                         (0, report_text.text(results.load(d))))
        with tempfile.TemporaryDirectory() as tmp:
            out = os.path.join(tmp, "reply.txt")
            p = subprocess.run([hztest.HZ, "report", "--text", "--full", d, "-o", out],
                               stdout=subprocess.PIPE, timeout=60)
            self.assertEqual((p.returncode, p.stdout.decode().strip()), (0, out))
            with open(out) as f:
                self.assertEqual(f.read(), report_text.text(results.load(d)))
            p = subprocess.run([hztest.HZ, "report", "--text", d, "-o", tmp],
                               stderr=subprocess.PIPE, timeout=60)
            self.assertEqual(p.returncode, 2)
            self.assertIn("cannot write", p.stderr.decode())
        p = subprocess.run([hztest.HZ, "report", "--full", d], stderr=subprocess.PIPE,
                           timeout=60)
        self.assertEqual((p.returncode, p.stderr.decode()),
                         (2, "hz: report --full goes with --text\n"))


if __name__ == "__main__":
    unittest.main()


class TextCompareLine(unittest.TestCase):
    def test_names_and_counts_in_the_same_order(self):
        """Each compare line names B then A, so its counts are nb then na (it
        once printed the names as b, a and the counts as na, nb)."""
        class RS:
            def of_type(self, t):
                if t == "verdict":
                    return [{"t": "verdict", "item": "clear_1g", "decided": True, "text": "x"}]
                return [{"t": "compare", "item": "clear_1g", "a": "clear/rep_stosb/4K",
                         "b": "clear/clzero/2M", "ratio": 0.31, "lo": 0.28, "hi": 0.35,
                         "outcome": "faster", "tol_pct": 5.0, "na": 10, "nb": 18}]
        text = "\n".join(report_text.verdict_block(RS()))
        self.assertIn("clear/clzero/2M takes 0.310x [0.280..0.350] the time of "
                      "clear/rep_stosb/4K\n      (faster), n=18/10", text)
