"""A scenario is a folder (issue 33 §1): every name in scenarios/rules.mk's
SCENARIOS has run.c (its HZ_SCENARIO row, options, records), README.md,
records.md and plan.c, which holds its profile settings (a table of its
own struct, one row per profile) and its `.plan` hook: the hook its
HZ_SCENARIO row names is defined in plan.c, never in run.c. A scenario
whose row names no hook (unpriced: the plan line names it so) needs no
plan.c, as the throw-away scenario of test_add_scenario.py.

Every record type the folder's own .c files begin (a rec_begin(..., "TYPE")
literal; the types a scenario writes through measure/ helpers are
documented with those) has its heading in its records.md, as test_schema
reads them. A cell kind's HZ_CELL_KIND row says `.run = "NAME"`, its own folder's
name (another run's name would show its cells as that run's).

Its rules.mk, read as the test reads scenarios/rules.mk, puts what the host
tests must link where they find it: every .c file of the folder holding an
HZ_VERDICT_ITEM or HZ_CELL_KIND row, whatever its name, in VERDICT_C (the
host verdict tests link every item and cell kind: one left out goes
untested, silently) and a
portable plan.c (docs/hacking.md: settings and pricing before `#ifndef
HZ_HOSTED`) in PLAN_C (tests/unit/test_plan.c's) or a host test of its own
(HOST_SRCS_<test>, as run=numa's numa_plan)."""
import pathlib
import re
import shutil
import tempfile
import textwrap
import unittest

from test_docs import ROOT, SHIPPED, is_scenario, kernel_folders
from test_schema import sections

ROW = re.compile(r"HZ_SCENARIO\((.*?)\);", re.S)
KIND = re.compile(r"HZ_CELL_KIND\((.*?)\);", re.S)
KIND_RUN = re.compile(r"\.run\s*=\s*\"([^\"]*)\"")
BEGINS = re.compile(r"\brec_begin\([^;]*?\"([a-z0-9_]+)\"\s*\)")
REGISTERS = re.compile(r"\b(?:HZ_CELL_KIND|HZ_VERDICT_ITEM)\(")
HOOK = re.compile(r"\.plan\s*=\s*(\w+)")
SETTINGS = r"^static const struct %s_settings \w+\[PLAN_PROFILES\]"


def defines(text, name):
    """Whether C text holds the definition (not a prototype) of function name."""
    return re.search(r"^(?:static\s+)?\w[\w\s*]*\b%s\s*\([^;{]*\)\s*\{" % re.escape(name),
                     text, re.M) is not None


def hooks(run_c):
    """The `.plan` hooks HZ_SCENARIO rows name in run.c's text."""
    return [h for row in ROW.findall(run_c) for h in HOOK.findall(row)]


def findings(folder):
    """What folder (a scenario's) lacks or has in the wrong file."""
    name = folder.name
    out = ["%s/%s is missing" % (name, f) for f in ("run.c", "README.md", "records.md")
           if not (folder / f).is_file()]
    run = (folder / "run.c").read_text() if (folder / "run.c").is_file() else ""
    plan = (folder / "plan.c").read_text() if (folder / "plan.c").is_file() else None
    for hook in hooks(run):
        if defines(run, hook):
            out.append("%s/run.c defines its .plan hook %s (it lives in plan.c)" % (name, hook))
        if plan is None:
            out.append("%s/plan.c is missing (its row names the .plan hook %s)" % (name, hook))
        elif not defines(plan, hook):
            out.append("%s/plan.c does not define its .plan hook %s" % (name, hook))
        if plan is not None and not re.search(SETTINGS % name, plan, re.M):
            out.append("%s/plan.c has no struct %s_settings table per profile" % (name, name))
    doc = folder / "records.md"
    docs = sections(doc.read_text()) if doc.is_file() else {}
    for c in sorted(folder.glob("*.c")):
        for t in BEGINS.findall(c.read_text()):
            if t not in docs:
                out.append("%s/%s begins record type %s, which has no ### heading in"
                           " %s/records.md" % (name, c.name, t, name))
        for row in KIND.findall(c.read_text()):
            run = KIND_RUN.findall(row)
            said = ", ".join('"%s"' % r for r in run) or "nothing"
            if run != [name]:
                out.append("%s/%s: HZ_CELL_KIND says .run = %s, not \"%s\" (its cells would"
                           " show as another run's)" % (name, c.name, said, name))
    return out


def make_lists(folder):
    """{variable: set of words} that folder's rules.mk assigns or appends."""
    mk = folder / "rules.mk"
    text = mk.read_text().replace("\\\n", " ") if mk.is_file() else ""
    out = {}
    for var, words in re.findall(r"^(\w+)\s*[:+]?=(.*)$", text, re.M):
        out.setdefault(var, set()).update(words.split())
    return out


def build_findings(folder):
    """What folder's rules.mk leaves out of the host tests."""
    name, lists = folder.name, make_lists(folder)
    src = "scenarios/%s/" % name
    host = set().union(*(w for v, w in lists.items() if v.startswith("HOST_SRCS_")))
    out = []
    for c in sorted(folder.glob("*.c")):
        if REGISTERS.search(c.read_text()) and src + c.name not in lists.get("VERDICT_C", ()):
            out.append("%s/%s registers an item or cell kind but is not in VERDICT_C:"
                       " the host verdict tests skip it" % (name, c.name))
    plan = folder / "plan.c"
    if (plan.is_file() and "#ifndef HZ_HOSTED" in plan.read_text()
            and src + "plan.c" not in lists.get("PLAN_C", set()) | host):
        out.append("%s/plan.c is portable but in no host test: add it to PLAN_C" % name)
    return out


def scenario_dirs():
    return [ROOT / f for f in kernel_folders() if is_scenario(f)]


class ScenarioFiles(unittest.TestCase):
    # Each shipped scenario is priced by its `.plan` hook; another (a new or
    # throw-away one) may have no hook, never two.
    def test_nine_scenarios_each_priced(self):
        count = {d.name: len(hooks((d / "run.c").read_text())) for d in scenario_dirs()}
        self.assertEqual({n: count.get(n) for n in SHIPPED}, {n: 1 for n in SHIPPED})
        self.assertEqual({n: c for n, c in count.items() if c > 1}, {})

    def test_every_scenario_has_its_files_and_hook_in_plan_c(self):
        for d in scenario_dirs():
            self.assertEqual(findings(d), [])
        # the record rule's reach: the literals were read at all
        begun = {t for d in scenario_dirs() for c in d.glob("*.c")
                 for t in BEGINS.findall(c.read_text())}
        self.assertGreaterEqual(len(begun), 20)
        self.assertLessEqual({"control", "numa_ratio", "vmstart_model", "smp_fill"}, begun)

    def test_host_tests_link_every_item_and_portable_plan(self):
        for d in scenario_dirs():
            self.assertEqual(build_findings(d), [])
        # the rule's reach: the shipped items, and the four plans test_plan.c prices
        lists = {d.name: make_lists(d) for d in scenario_dirs() if d.name in SHIPPED}
        self.assertEqual(sorted(n for n, x in lists.items() if x.get("VERDICT_C")),
                         ["clear", "fault", "faultclear", "interference", "numa", "smp",
                          "vmstart"])
        self.assertEqual(sorted(n for n, x in lists.items() if x.get("PLAN_C")),
                         ["clear", "fault", "policies", "smp"])


RUN_C = '''
    #include "scenarios/x/x.h"
    HZ_SCENARIO(scenario_x, .name = "x", .run = x_run, .plan = x_plan, .order = 9);
'''
HOOK_C = '''
    static const struct x_settings settings[PLAN_PROFILES] = {{0}, {0}};
    void x_plan(const struct plan_profile *p, const struct plan_machine *m,
                struct plan_part *out)
    {
        out->ms = 1;
    }
'''
PROTO = "void x_plan(const struct plan_profile *p, const struct plan_machine *m,\n" \
        "            struct plan_part *out);\n"


class Mutation(unittest.TestCase):
    """The check on made-up folders, and on real ones with a rules.mk line
    dropped: each fault found, a sound one passes."""

    def copy(self, name):
        """A copy of scenarios/name in a temporary folder."""
        tmp = tempfile.TemporaryDirectory()
        self.addCleanup(tmp.cleanup)
        d = pathlib.Path(tmp.name) / name
        shutil.copytree(ROOT / "scenarios" / name, d)
        return d

    def dropped(self, name, line):
        """A copy of scenarios/name whose rules.mk lacks line."""
        d = self.copy(name)
        mk = (d / "rules.mk").read_text()
        self.assertIn(line + "\n", mk)
        (d / "rules.mk").write_text(mk.replace(line + "\n", ""))
        return d

    def test_rules_mk_line_dropped(self):
        d = self.dropped("clear", "VERDICT_C += scenarios/clear/verdict.c")
        self.assertEqual(build_findings(d), [
            "clear/verdict.c registers an item or cell kind but is not in VERDICT_C:"
            " the host verdict tests skip it"])
        d = self.dropped("smp", "VERDICT_C += scenarios/smp/kind.c")
        self.assertEqual(build_findings(d), [
            "smp/kind.c registers an item or cell kind but is not in VERDICT_C:"
            " the host verdict tests skip it"])
        # renamed, and kept in the kernel's list only: found by its content
        d = self.dropped("smp", "VERDICT_C += scenarios/smp/kind.c")
        (d / "kind.c").rename(d / "smp_kind.c")
        self.assertEqual(build_findings(d), [
            "smp/smp_kind.c registers an item or cell kind but is not in VERDICT_C:"
            " the host verdict tests skip it"])
        d = self.dropped("smp", "PLAN_C += scenarios/smp/plan.c")
        self.assertEqual(build_findings(d), [
            "smp/plan.c is portable but in no host test: add it to PLAN_C"])
        d = self.dropped("numa", "HOST_SRCS_numa_plan := scenarios/numa/plan.c lib/plan.c")
        self.assertEqual(build_findings(d), [
            "numa/plan.c is portable but in no host test: add it to PLAN_C"])

    def test_record_heading_renamed(self):
        d = self.copy("numa")
        self.assertEqual(findings(d), [])
        doc = (d / "records.md").read_text()
        self.assertIn("### `numa_clear`, `numa_ratio` — ", doc)
        (d / "records.md").write_text(doc.replace("`numa_ratio` — ", "`numa_ratios` — "))
        self.assertEqual(findings(d), ["numa/table.c begins record type numa_ratio, which has"
                                       " no ### heading in numa/records.md"])

    def test_kind_names_another_run(self):
        d = self.copy("smp")
        kind = (d / "kind.c").read_text()
        self.assertEqual(findings(d), [])
        (d / "kind.c").write_text(kind.replace('.run = "smp"', '.run = "prezero"'))
        self.assertEqual(findings(d), [
            'smp/kind.c: HZ_CELL_KIND says .run = "prezero", not "smp" (its cells would show'
            " as another run's)"])
        (d / "kind.c").write_text(kind.replace('.run = "smp", ', ""))
        self.assertEqual(findings(d), [
            'smp/kind.c: HZ_CELL_KIND says .run = nothing, not "smp" (its cells would show'
            " as another run's)"])

    def folder(self, files):
        tmp = tempfile.TemporaryDirectory()
        self.addCleanup(tmp.cleanup)
        d = pathlib.Path(tmp.name) / "x"
        d.mkdir()
        for name, text in dict({"README.md": "# run=x\n", "records.md": "# run=x\n"},
                               **files).items():
            (d / name).write_text(textwrap.dedent(text))
        return d

    def test_sound_folder(self):
        self.assertEqual(findings(self.folder({"run.c": RUN_C, "plan.c": HOOK_C,
                                               "x.h": PROTO})), [])

    def test_hook_left_in_run_c(self):
        d = self.folder({"run.c": textwrap.dedent(HOOK_C) + textwrap.dedent(RUN_C)})
        self.assertEqual(findings(d), ["x/run.c defines its .plan hook x_plan (it lives in plan.c)",
                                       "x/plan.c is missing (its row names the .plan hook x_plan)"])
        static = textwrap.dedent(HOOK_C).replace("void x_plan", "static void x_plan")
        d = self.folder({"run.c": static + textwrap.dedent(RUN_C), "plan.c": PROTO})
        self.assertIn("x/run.c defines its .plan hook x_plan (it lives in plan.c)", findings(d))
        self.assertIn("x/plan.c does not define its .plan hook x_plan", findings(d))

    def test_settings_not_a_table_of_its_own(self):
        other = HOOK_C.replace("struct x_settings", "struct plan_rounds")
        self.assertEqual(findings(self.folder({"run.c": RUN_C, "plan.c": other})),
                         ["x/plan.c has no struct x_settings table per profile"])

    def test_missing_files(self):
        d = self.folder({"plan.c": HOOK_C})
        (d / "records.md").unlink()
        self.assertEqual(findings(d), ["x/run.c is missing", "x/records.md is missing"])

    def test_unpriced_scenario_needs_no_plan_c(self):
        run = RUN_C.replace(" .plan = x_plan,", "")
        self.assertEqual(findings(self.folder({"run.c": run})), [])


if __name__ == "__main__":
    unittest.main()
