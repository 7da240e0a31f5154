"""Linker-section registries have no twins: two HZ_VERDICT_ITEM rows with
the same `.key` (a throw-away `.key = "fault"` once replaced the real fault
answer in hz answers and report.html) or the same `.order`, or two
HZ_SCENARIO rows with the same `.name` or `.order`, or two HZ_OPTION rows
with the same `.name`, or two HZ_CELL_KIND rows with the same `.run`,
build; the kernel refuses such an image at start-up
(kernel/registry.c, status crash), and this test over the kernel's sources
(every folder the Makefile builds) fails on them before anything boots."""
import re
import unittest

from test_docs import ROOT, kernel_folders

ROWS = {"HZ_VERDICT_ITEM": ("key", "order"), "HZ_SCENARIO": ("name", "order"),
        "HZ_OPTION": ("name",), "HZ_CELL_KIND": ("run",)}


def rows(text, macro):
    """[{field: value}] of every `macro(var, .field = value, ...)` row in C text."""
    out = []
    for body in re.findall(r"^%s\(\s*\w+\s*,(.*?)\);" % macro, text, re.S | re.M):
        fields = re.findall(r'\.(\w+)\s*=\s*(?:"([^"]*)"|(\w+))', body)
        out.append({f: quoted or word for f, quoted, word in fields})
    return out


def twins(sources):
    """["MACRO .field=value: a, b"] for every value two rows share; sources:
    {path: C text}."""
    out = []
    for macro, fields in ROWS.items():
        for field in fields:
            seen = {}
            for path, text in sorted(sources.items()):
                for row in rows(text, macro):
                    seen.setdefault(row.get(field), []).append(path)
            out += ["%s .%s=%s: %s" % (macro, field, v, ", ".join(p))
                    for v, p in sorted(seen.items()) if len(p) > 1]
    return out


def kernel_sources():
    return {src.relative_to(ROOT).as_posix(): src.read_text()
            for sub in kernel_folders() for src in sorted((ROOT / sub).glob("*.c"))}


class RegistryTwins(unittest.TestCase):
    def test_rows_found(self):
        src = kernel_sources()
        keys = [r["key"] for t in src.values() for r in rows(t, "HZ_VERDICT_ITEM")]
        names = [r["name"] for t in src.values() for r in rows(t, "HZ_SCENARIO")]
        options = [r["name"] for t in src.values() for r in rows(t, "HZ_OPTION")]
        kinds = [r["run"] for t in src.values() for r in rows(t, "HZ_CELL_KIND")]
        self.assertTrue({"clear_1g", "fault", "vmstart", "numa", "idle", "trust"} <= set(keys))
        self.assertGreaterEqual(len(names), 9)
        self.assertTrue({"run", "smp", "on_exit", "console", "fault_pages"} <= set(options))
        self.assertTrue({"clear", "smp", "faultclear", "interference"} <= set(kinds))

    def test_no_twins(self):
        self.assertEqual(twins(kernel_sources()), [])

    def test_planted_twins_found(self):
        # two real rows and a planted file (another scenario's rows stay out)
        src = {p: t for p, t in kernel_sources().items()
               if p in ("scenarios/fault/verdict.c", "scenarios/clear/run.c")}
        src["scenarios/hello/verdict.c"] = (
            'HZ_VERDICT_ITEM(item_hello, .key = "fault", .label = "hello", .runs = "hello",\n'
            '                .tcg = true, .decide = decide_hello, .order = 80);\n'
            'HZ_SCENARIO(scenario_hello, .name = "clear", .run = hello_run, .order = 99);\n'
            'HZ_OPTION(opt_hello, .name = "run", .kind = OPT_FLAG, .dest = &hello);\n')
        src["kernel/scenario.c"] = kernel_sources()["kernel/scenario.c"]
        self.assertEqual(twins(src), [
            "HZ_VERDICT_ITEM .key=fault: scenarios/fault/verdict.c, scenarios/hello/verdict.c",
            "HZ_SCENARIO .name=clear: scenarios/clear/run.c, scenarios/hello/verdict.c",
            "HZ_OPTION .name=run: kernel/scenario.c, scenarios/hello/verdict.c"])
        src["scenarios/hello/verdict.c"] = src["scenarios/hello/verdict.c"].replace(
            '"fault"', '"hello"').replace('"clear"', '"hello"').replace('"run"', '"hello"').replace(
            "order = 99", "order = 10")
        self.assertEqual(twins(src), ["HZ_SCENARIO .order=10: scenarios/clear/run.c, "
                                      "scenarios/hello/verdict.c"])


if __name__ == "__main__":
    unittest.main()
