"""docs/hacking.md's "a scenario" steps are the real ones: in a temporary
copy of the tree, a throw-away scenario `run=hello` (one option, one record,
one cell of a kind of its own, one verdict item with its own words naming
that cell) is added with ONLY its folder
(scenarios/hello/), its name in scenarios/rules.mk's SCENARIOS (the one
build line) and one boot case in tests/boot/cases.cfg; the kernel builds and
the case boots under TCG, finding the scenario's record, its verdict record
and its line in the verdict block. The host tools print that line too:
`tools/hz report --text` on the boot's results renders the item from the
words its record carries (`templates`), with no row added in tools/. The
copy is a git repository, so the test also checks (and prints) that the
diff is exactly those three places. The folder is the whole of hacking.md's
list (run.c, kind.c with its header, verdict.c, rules.mk with VERDICT_C,
README.md with its Options table, records.md), and inside the copy the tree's own tests stay
green: tests/run-all's tools tests test_docs, test_schema,
test_scenario_files and test_registry_twins, and, after `make host-tests`,
the verdict unit tests with hello's item linked in.

Slow (a kernel build, a TCG boot, the host tests): skipped without QEMU,
NASM or grub-file; the copy reuses this tree's kernel and host-test
objects when it has them."""
import os
import shutil
import subprocess
import tempfile
import textwrap
import unittest

from hztest import ROOT

RUN_C = r'''
/*
 * scenarios/hello/run.c - a throw-away scenario (tests/tools/test_add_scenario.py):
 * `run=hello` emits one `hello` record with its option's value.
 */
#include "scenarios/hello/hello.h"
#include "kernel/scenario.h"
#include "kernel/verdict.h"
#include "lib/cmdline.h"
#include "lib/print.h"
#include "lib/record.h"
#include "lib/results.h"

static uint64_t hello_n = 7;

HZ_OPTION(opt_hello_n, .name = "hello_n", .kind = OPT_U64, .dest = &hello_n, .min = 1,
          .max = 100, .accepted = "1..100", .help = "run=hello: the number it records");

static void hello_run(void)
{
    char buf[HZ_RECORD_MAX];
    struct rec r;
    rec_begin(&r, buf, sizeof(buf), "hello");
    rec_u64(&r, "n", hello_n);
    record_emit(&r);
    struct vd_cell c = {.kind = &hello_kind, .threads = (unsigned)hello_n, .verified = true};
    verdict_add(&c);
    result_pass("hello.ran");
}

HZ_SCENARIO(scenario_hello, .name = "hello", .run = hello_run, .order = 99,
            .help = "a throw-away scenario");
'''

HELLO_H = r'''
/*
 * scenarios/hello/hello.h - the throw-away scenario's cell kind.
 */
#ifndef HZ_SCENARIOS_HELLO_HELLO_H
#define HZ_SCENARIOS_HELLO_HELLO_H

/* Its cell's kind (scenarios/hello/kind.c): the cell is named by hello_n. */
extern const struct vd_kind hello_kind;

#endif /* HZ_SCENARIOS_HELLO_HELLO_H */
'''

KIND_C = r'''
/*
 * scenarios/hello/kind.c - the throw-away scenario's cell kind: "hello/n3"
 * for hello_n=3, with nothing added in lib/.
 */
#include "scenarios/hello/hello.h"
#include "lib/fmt.h"
#include "lib/verdict.h"

static void hello_id(const struct vd_cell *c, char *buf, size_t cap)
{
    hz_snprintf(buf, cap, "n%u", c->threads);
}

HZ_CELL_KIND(hello_kind, .run = "hello", .id = hello_id);
'''

VERDICT_C = r'''
/*
 * scenarios/hello/verdict.c - the throw-away scenario's verdict item: the
 * cells handed to the verdict, with its own words.
 */
#include "lib/verdict_priv.h"

static void decide_hello(struct vd_ctx *x, struct vd_item *it)
{
    vd_arg_u64(it, "cells", x->n, false);
    for (size_t i = 0; i < x->n; i++)
        if (vd_cell_of(&x->v[i], "hello"))
            vd_use_cell(it, &x->v[i]);
    it->decided = true;
}

static const struct vd_template words[] = {
    {"hello:none", "said hello beside {a:cells} cells"},
    {0, 0},
};

HZ_VERDICT_ITEM(item_hello, .key = "hello", .label = "hello", .form = "hello", .runs = "hello",
                .tcg = true, .decide = decide_hello, .order = 80, .templates = words);
'''

RULES_MK = '''\
# scenarios/hello/ - a throw-away scenario (tests/tools/test_add_scenario.py).
KERNEL_C += scenarios/hello/run.c

# Its verdict item and its cells' kind (linked into the host verdict tests
# too).
KERNEL_C += scenarios/hello/verdict.c scenarios/hello/kind.c
VERDICT_C += scenarios/hello/verdict.c scenarios/hello/kind.c
'''

README_MD = '''\
# `run=hello` — a throw-away scenario

What it measures: nothing; it records its option's value (tests/tools/
test_add_scenario.py). Records: [records.md](records.md).

## Options

| option | accepted | default | meaning |
|---|---|---|---|
| `hello_n` | `1`..`100` | `7` | the number it records |

## Reading its table

It has none: its verdict line says how many cells it was handed.
'''

RECORDS_MD = '''\
# `run=hello` records

### `hello` — the `hello` scenario (scenarios/hello/run.c)

One record a run: `n`, the value of `hello_n`.
'''

# The project's own tests a new scenario must keep green, run in the copy
# (the tester's tree failed them while the boot passed).
TOOLS_TESTS = ("test_docs", "test_schema", "test_scenario_files", "test_registry_twins")

BOOT_CASE = '''
[hello-tcg]
args = run=hello hello_n=3
records = hello n=3
          pass name=hello.ran
          verdict item=hello decided=true measured=true
          verdict item=hello "templates~hello:none.: .said hello beside .a:cells. cells"
          verdict item=hello "source=run=hello: n3"
log = ^  hello +said hello beside \\d+ cells$
groups = hello
'''


def tools_missing():
    return [t for t in ("qemu-system-x86_64", "nasm", "grub-file", "git") if not shutil.which(t)]


def run(cmd, cwd, timeout=900):
    return subprocess.run(cmd, cwd=cwd, capture_output=True, text=True, timeout=timeout)


@unittest.skipIf(tools_missing(), "missing: %s" % " ".join(tools_missing()))
class AddScenario(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.mkdtemp(prefix="hz-add-scenario-")
        self.tree = os.path.join(self.tmp, "tree")
        files = run(["git", "ls-files", "-z"], ROOT).stdout.split("\0")
        for f in filter(None, files):
            src = os.path.join(ROOT, f)
            if os.path.isfile(src):
                dst = os.path.join(self.tree, f)
                os.makedirs(os.path.dirname(dst), exist_ok=True)
                shutil.copy2(src, dst)
        build = os.path.join(ROOT, "build")  # kernel objects: only the new ones compile
        if os.path.isdir(os.path.join(build, "k")):
            shutil.copytree(os.path.join(build, "k"), os.path.join(self.tree, "build", "k"))
            shutil.copy2(os.path.join(build, "buildflags.h"), os.path.join(self.tree, "build"))
        if os.path.isdir(os.path.join(build, "host")):  # host tests: only the verdict ones relink
            shutil.copytree(os.path.join(build, "host"), os.path.join(self.tree, "build", "host"))
        for cmd in (["git", "init", "-q"], ["git", "add", "-A"],
                    ["git", "-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "base"]):
            self.assertEqual(run(cmd, self.tree).returncode, 0, cmd)

    def tearDown(self):
        shutil.rmtree(self.tmp, ignore_errors=True)

    def add_scenario(self):
        folder = os.path.join(self.tree, "scenarios", "hello")
        os.makedirs(folder)
        for name, text in (("run.c", RUN_C), ("hello.h", HELLO_H), ("kind.c", KIND_C),
                           ("verdict.c", VERDICT_C), ("rules.mk", RULES_MK),
                           ("README.md", README_MD), ("records.md", RECORDS_MD)):
            with open(os.path.join(folder, name), "w") as f:
                f.write(textwrap.dedent(text).lstrip())
        mk = os.path.join(self.tree, "scenarios", "rules.mk")
        with open(mk) as f:
            text = f.read()
        with open(mk, "w") as f:  # the one build line: its name in SCENARIOS
            f.write(text.replace("\nSCENARIOS := ", "\nSCENARIOS := hello ", 1))
        with open(os.path.join(self.tree, "tests", "boot", "cases.cfg"), "a") as f:
            f.write(BOOT_CASE)

    def test_folder_build_line_and_boot_case(self):
        self.add_scenario()
        run(["git", "add", "-A"], self.tree)
        stat = run(["git", "diff", "--cached", "--stat"], self.tree).stdout
        print("\n" + stat)
        names = run(["git", "diff", "--cached", "--name-only"], self.tree).stdout.split()
        self.assertEqual(sorted(names), ["scenarios/hello/README.md", "scenarios/hello/hello.h",
                                         "scenarios/hello/kind.c", "scenarios/hello/records.md",
                                         "scenarios/hello/rules.mk", "scenarios/hello/run.c",
                                         "scenarios/hello/verdict.c", "scenarios/rules.mk",
                                         "tests/boot/cases.cfg"])
        mk = run(["git", "diff", "--cached", "--numstat", "scenarios/rules.mk"], self.tree).stdout
        self.assertEqual(mk.split()[:2], ["1", "1"], "one build line")
        cfg = run(["git", "diff", "--cached", "--numstat", "tests/boot/cases.cfg"], self.tree)
        self.assertEqual(cfg.stdout.split()[1], "0", "the boot case only adds lines")
        build = run(["make", "-j2", "build/hugezero.elf"], self.tree)
        self.assertEqual(build.returncode, 0, build.stdout[-3000:] + build.stderr[-3000:])
        boot = run([os.path.join("tests", "run-all"), "--only", "boot", "--filter", "hello-tcg",
                    "-j", "1"], self.tree)
        self.assertEqual(boot.returncode, 0, boot.stdout[-4000:] + boot.stderr[-2000:])
        self.assertIn("PASS boot/hello-tcg", boot.stdout)
        results = os.path.join(self.tree, "build", "boot-tests", "hello-tcg")
        report = run([os.path.join("tools", "hz"), "report", "--text", results], self.tree)
        self.assertEqual(report.returncode, 0, report.stdout[-2000:] + report.stderr[-2000:])
        lines = [x for x in report.stdout.splitlines() if x.startswith("  hello ")]
        self.assertEqual(len(lines), 1, report.stdout)
        self.assertRegex(lines[0], r"^  hello +said hello beside \d+ cells$")
        self.own_tests_pass()

    def own_tests_pass(self):
        """The tree's own tests, in the copy: the docs, schema, folder and
        registry checks, and the verdict unit tests with hello's item linked."""
        runall = os.path.join("tests", "run-all")
        for name in TOOLS_TESTS:
            got = run([runall, "--only", "tools", "--filter", name], self.tree)
            self.assertEqual(got.returncode, 0, got.stdout[-4000:] + got.stderr[-2000:])
            self.assertRegex(got.stdout, r"PASS tools/%s\." % name)
            self.assertNotIn("FAIL", got.stdout)
        build = run(["make", "-j2", "host-tests"], self.tree)
        self.assertEqual(build.returncode, 0, build.stdout[-3000:] + build.stderr[-3000:])
        unit = run([runall, "--only", "unit", "--filter", "verdict"], self.tree)
        self.assertEqual(unit.returncode, 0, unit.stdout[-4000:] + unit.stderr[-2000:])
        self.assertIn("PASS unit/test_verdict_item.test_registry_order", unit.stdout)
        self.assertIn("PASS unit/test_verdict.test_tcg_says_so", unit.stdout)
        self.assertNotIn("FAIL", unit.stdout)


if __name__ == "__main__":
    unittest.main()
