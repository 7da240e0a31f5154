"""The registry of the scenarios' host sides (tools/hzlib/scenarios/): each
row names a kernel scenario and owns record types no other row owns, every
module with a SCENARIO is in it, and hz report (page and --text --full),
hz compare, hz plot and make bench call what a row gives and nothing else
(a throw-away row added to ALL shows up in each; make bench boots the rows
with a bench boot in the registry's order, with their arguments)."""

import importlib
import importlib.util
import json
import os
import pkgutil
import re
import tempfile
import unittest
from unittest import mock

import hztest
from hzlib import compare, plot, report, report_text, results, scenarios, schema
from hzlib.gnuplot import terminal
from hzlib.scenarios.base import BenchBoot, Scenario

spec = importlib.util.spec_from_file_location("bench",
                                              os.path.join(hztest.ROOT, "tools", "bench.py"))
assert spec is not None and spec.loader is not None
bench = importlib.util.module_from_spec(spec)
spec.loader.exec_module(bench)


def kernel_scenarios():
    """The .name of every HZ_SCENARIO row in the kernel's C sources."""
    names = set()
    for top, dirs, files in os.walk(hztest.ROOT):
        dirs[:] = [d for d in dirs if d not in (".git", "build", "tests", "fuzz", "tools")]
        for f in files:
            if f.endswith(".c"):
                with open(os.path.join(top, f), errors="replace") as src:
                    text = src.read()
                names |= set(re.findall(r'HZ_SCENARIO\(\s*\w+,\s*\.name\s*=\s*"(\w+)"', text))
    return names


def recs(name):
    with open(os.path.join(hztest.fixture(name), "records.jsonl")) as f:
        return [json.loads(line) for line in f if line.strip()]


class Registry(unittest.TestCase):
    def test_each_row_is_a_kernel_scenario(self):
        names = [s.name for s in scenarios.ALL]
        self.assertEqual(len(names), len(set(names)))
        kernel = kernel_scenarios()
        self.assertIn("interference", kernel)  # the sources were read at all
        self.assertEqual(set(names) - kernel, set())

    def test_types_are_documented_and_owned_once(self):
        owned = [t for s in scenarios.ALL for t in s.types]
        self.assertEqual(len(owned), len(set(owned)))
        self.assertEqual([t for t in owned if t not in schema.TYPES], [])
        for s in scenarios.ALL:  # a type hz compare pairs is the row's own
            for t in s.generic + tuple(c[0] for c in s.cells):
                self.assertIn(t, s.types, s.name)

    def test_every_module_with_a_row_is_registered(self):
        rows = []
        for m in pkgutil.iter_modules(scenarios.__path__):
            mod = importlib.import_module("hzlib.scenarios." + m.name)
            if hasattr(mod, "SCENARIO"):
                rows.append(mod.SCENARIO)
        self.assertEqual(len(rows), 9)
        self.assertEqual(sorted(r.name for r in rows), sorted(s.name for s in scenarios.ALL))


def _section(rs):
    return "<p>toy section %d</p>" % len(rs.of_type("toy")) if rs.of_type("toy") else ""


def _text(rs):
    return ["Toy", "  %d toy records" % len(rs.of_type("toy"))] if rs.of_type("toy") else []


def _rows(a, b):
    return [("toy row", a.of_type("toy")[0]["n"], b.of_type("toy")[0]["n"], True)] \
        if a.of_type("toy") and b.of_type("toy") else []


PLOTTED = []


def _plot(rs, outdir, work, machine):
    PLOTTED.append(len(rs.of_type("toy")))
    return [], ["toy: nothing drawn"]


TOY = Scenario("toy", types=("toy",), sections=(_section,), text=(_text,), plots=(_plot,),
               rows=(_rows,), cells=(("toy", lambda r: (r.get("k"),), lambda k: "toy k=%s" % k),),
               fleet=(("toy records", lambda rs: str(len(rs.of_type("toy")))),),
               bench=BenchBoot(lambda s: ["run=toy", "zero=" + s], "2G", True,
                               lambda recs, ctx: ["toy: %d records, %d CPUs, %s [%s] %s" % (
                                   len(recs), ctx.cpus, ctx.strategy, ctx.note,
                                   os.path.basename(ctx.folder))]))


class OneRowMore(unittest.TestCase):
    """A row added to ALL is all hz needs to show a scenario."""

    def setUp(self):
        patch = mock.patch.object(scenarios, "ALL", scenarios.ALL + (TOY,))
        patch.start()
        self.addCleanup(patch.stop)
        self.a = results.ResultSet("a", [{"t": "toy", "n": 3, "k": 1},
                                         {"t": "toy", "n": 4, "k": 2}])
        self.b = results.ResultSet("b", [{"t": "toy", "n": 5, "k": 1}])

    def test_page_and_text(self):
        page = report.single(self.a, [])
        self.assertIn("<p>toy section 2</p>", page)
        self.assertLess(page.index("toy section"), page.index('id="checks"'))
        text = report_text.text(self.a).splitlines()
        self.assertEqual(text[text.index("Toy") + 1], "  2 toy records")
        self.assertLess(text.index("Toy"), text.index("Machine"))
        self.assertNotIn("Toy", report_text.text(self.b.__class__("c", [])))

    def test_compare_rows_and_one_sided_cells(self):
        self.assertIn(("toy row", 3, 5, True), compare.all_rows(self.a, self.b))
        self.assertEqual(compare.one_sided(self.a, self.b), (["toy k=2"], []))
        head, a, b = compare.fleet([self.a, self.b])[0]
        self.assertTrue(head.endswith("fill s/TiB  toy records"), head)
        self.assertEqual((a.split()[-1], b.split()[-1]), ("2", "1"))

    @unittest.skipUnless(terminal(), "gnuplot with a png terminal not found")
    def test_plot(self):
        del PLOTTED[:]
        with tempfile.TemporaryDirectory() as d:
            files, msgs = plot.plot_all(self.a, d)
        self.assertEqual(PLOTTED, [2])
        self.assertEqual((files, msgs[-1]), ([], "toy: nothing drawn"))


class Bench(unittest.TestCase):
    """make bench's boots after the ratios come from the registry: each row
    with a bench boot, in its order, with its arguments, RAM and CPUs, its
    lines under the boot's note, then the merged verdict of every boot."""

    def boots(self, rows, by_scenario):
        calls, put = [], []

        def hz_run(outdir, args, mem, smp=1):
            calls.append((outdir.name, args, mem, smp))
            return by_scenario.get(outdir.name, []), {"guest_ram": "hugetlbfs 2M"}
        with mock.patch.object(scenarios, "ALL", rows), mock.patch.object(bench, "hz_run", hz_run):
            bench.scenarios(bench.pathlib.Path("/x"), put.append, recs("results-verdict"), [],
                            {"strategy": "movnti"}, 4)
        return calls, put

    def test_the_registrys_boots(self):
        from test_faultclear import run as faultclear_run
        from test_vmstart import RECS as VMSTART
        calls, put = self.boots(scenarios.ALL, {"faultclear": faultclear_run(),
                                                "policies": recs("results-verdict"),
                                                "vmstart": VMSTART})
        self.assertEqual(calls, [
            ("faultclear", ["run=faultclear"], "6G", 1),
            ("policies", ["run=policies", "workload=vm_boot", "zero=movnti"], "8G", 1),
            ("vmstart", ["run=vmstart", "zero=movnti"], "8G", 4),
            ("interference", ["run=interference"], "6G", 4)])
        heads = [line for line in put if not line.startswith(" ")]
        self.assertEqual(heads[:4], [
            "run=faultclear  [guest RAM hugetlbfs 2M]:",
            "vm_boot 2 x 1024 MiB, zero=movnti  [guest RAM hugetlbfs 2M]:",
            "run=vmstart, 4 CPUs, zero=movnti  [guest RAM hugetlbfs 2M]:",
            "run=interference: no records (see /x/interference)"])
        self.assertTrue(heads[4].startswith("== verdict of make bench ("), heads[4])
        self.assertIn("  targets: pre-zeroed fault <= 20 us; pre-zeroed vm_boot <= 1% of none",
                      put)

    def test_a_new_row_boots_too(self):
        calls, put = self.boots((TOY,), {"toy": [{"t": "toy"}]})
        self.assertEqual(calls, [("toy", ["run=toy", "zero=movnti"], "2G", 4)])
        self.assertEqual(put[0], "toy: 1 records, 4 CPUs, movnti [guest RAM hugetlbfs 2M] toy")


if __name__ == "__main__":
    unittest.main()
