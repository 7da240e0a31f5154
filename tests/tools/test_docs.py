"""Docs that list things must match the code: docs/options.md lists every
option the kernel declares (HZ_OPTION); docs' scenario tables name
registered scenarios (HZ_SCENARIO) with their run=default membership, and
docs/prezero.md lists every pre-zeroing scenario; README's tree table lists
every source folder; includes keep to the layering docs/hacking.md
describes; the clear-strategy table, its routine files and
docs/strategies.md agree; the files and symbols docs/hacking.md's "Where to
add" steps name exist."""
import pathlib
import re
import unittest

ROOT = pathlib.Path(__file__).resolve().parents[2]
DECL = re.compile(r'HZ_OPTION\(\s*\w+\s*,\s*\.name\s*=\s*"([a-z0-9_]+)"', re.S)
INCLUDE = re.compile(r'^#include "((?:scenarios/)?[a-z_]+)/([a-z0-9_]+\.h)"', re.M)


def kernel_folders():
    """The folders whose rules.mk adds kernel sources (KERNEL_C/KERNEL_ASM),
    as the top-level Makefile includes them; scenarios/rules.mk's SCENARIOS
    give one folder each, "scenarios/NAME"."""
    text = (ROOT / "Makefile").read_text().replace("\\\n", " ")
    line = re.search(r"^include ((?:\S+/rules\.mk\s*)+)$", text, re.M).group(1)
    folders = []
    for p in line.split():
        folder = p.rsplit("/", 1)[0]
        if folder == "scenarios":
            mk = (ROOT / p).read_text().replace("\\\n", " ")
            names = re.search(r"^SCENARIOS := (.*)$", mk, re.M).group(1).split()
            folders += ["scenarios/" + n for n in names]
        elif "KERNEL_" in (ROOT / p).read_text():
            folders.append(folder)
    return folders


def is_scenario(folder):
    """A scenario's folder: scenarios/NAME."""
    return folder.startswith("scenarios/")


def includes(folder):
    """[(file, included folder, included header)] of one folder's C files."""
    out = []
    for src in sorted((ROOT / folder).glob("*.[ch]")):
        for sub, hdr in INCLUDE.findall(src.read_text()):
            out.append((src.relative_to(ROOT).as_posix(), sub, hdr))
    return out


def kernel_option_decls():
    """Every HZ_OPTION name, once per declaration."""
    names = []
    for sub in kernel_folders():
        for src in sorted((ROOT / sub).glob("*.c")):
            names += DECL.findall(src.read_text())
    return names


def kernel_options():
    return set(kernel_option_decls())


def option_docs():
    """docs/options.md and every scenario's README.md, where options are listed."""
    return [ROOT / "docs" / "options.md"] + sorted((ROOT / "scenarios").glob("*/README.md"))


def listed_options():
    """{option: [doc, ...]} of every option row in the option docs."""
    out = {}
    for doc in option_docs():
        for name in re.findall(r"^\| `([a-z0-9_]+)` \|", doc.read_text(), re.M):
            out.setdefault(name, []).append(doc.relative_to(ROOT).as_posix())
    return out


class OptionsDocumented(unittest.TestCase):
    def test_declarations_found(self):
        # The kernel always has these; finding none means the pattern broke.
        self.assertTrue({"run", "console", "on_exit", "selftest", "help"} <= kernel_options())

    def test_no_option_declared_twice(self):
        # The parser takes the first declaration of a name: a second one is
        # dead (a workload `seed` once lost its value to run=clear's).
        names = kernel_option_decls()
        self.assertEqual(sorted({n for n in names if names.count(n) > 1}), [])

    def test_every_option_in_docs(self):
        missing = sorted(kernel_options() - set(listed_options()))
        self.assertEqual(missing, [], "options missing from docs/options.md and "
                                      "scenarios/*/README.md")

    def test_no_stale_options_in_docs(self):
        stale = sorted(set(listed_options()) - kernel_options())
        self.assertEqual(stale, [], "option docs list options the kernel lacks")

    def test_each_option_listed_once(self):
        # A row in docs/options.md and another in a scenario's README would drift.
        twice = {n: d for n, d in listed_options().items() if len(d) > 1}
        self.assertEqual(twice, {})


SCENARIO = re.compile(r"HZ_SCENARIO\(\s*\w+\s*,(.*?)\);", re.S)
SCENARIO_TABLE = re.compile(r"^\| scenario \| does \| in `run=default` \|\n"
                            r"\|[-|]+\|\n((?:\|.*\n)+)", re.M)


def kernel_scenarios():
    """{name: (folder, in run=default)} of every HZ_SCENARIO the kernel declares."""
    out = {}
    for sub in kernel_folders():
        for src in (ROOT / sub).glob("*.c"):
            for body in SCENARIO.findall(src.read_text()):
                name = re.search(r'\.name\s*=\s*"([a-z0-9_]+)"', body).group(1)
                out[name] = (sub, re.search(r"\.in_default\s*=\s*true", body) is not None)
    return out


# The scenarios the tree ships (docs link each by name; a new one is found
# by its folder, scenarios/NAME/).
SHIPPED = ("clear", "fault", "faultclear", "policies", "prezero", "vmstart", "smp", "numa",
           "interference")

# The pre-zeroing scenarios, which docs/prezero.md lists.
PREZERO_FOLDERS = ("scenarios/prezero", "scenarios/policies", "scenarios/vmstart")


def scenario_tables():
    """{doc name: {scenario: "yes"/"no"}} of the docs' scenario tables."""
    out = {}
    for doc in sorted((ROOT / "docs").glob("*.md")):
        for rows in SCENARIO_TABLE.findall(doc.read_text()):
            for row in rows.splitlines():
                cells = [c.strip() for c in row.strip("|").split("|")]
                out.setdefault(doc.name, {})[cells[0].strip("`")] = cells[-1]
    return out


OPTION_TABLE = re.compile(r"^\| option \| accepted \| default \| meaning \|\n"
                          r"\|[-|]+\|\n((?:\|.*\n)+)", re.M)


class OptionTablesElsewhere(unittest.TestCase):
    def test_every_docs_option_table_names_kernel_options(self):
        # docs/prezero.md repeats some options beside the prose: none may be stale.
        stale, seen = [], 0
        for doc in sorted((ROOT / "docs").glob("*.md")) + option_docs()[1:]:
            for rows in OPTION_TABLE.findall(doc.read_text()):
                for name in re.findall(r"^\| `([a-z0-9_]+)` \|", rows, re.M):
                    seen += 1
                    if name not in kernel_options():
                        stale.append("%s: %s" % (doc.name, name))
        self.assertGreater(seen, 60)  # options.md's tables and the scenarios' were read
        self.assertEqual(stale, [])


class ScenariosDocumented(unittest.TestCase):
    """Scenario lists are checked against the registry, not kept by hand
    (the old "Status" list of docs/prezero.md said SMP was "not yet" long
    after it existed)."""

    def test_declarations_found(self):
        got = kernel_scenarios()
        self.assertEqual(got["clear"], ("scenarios/clear", True))
        self.assertEqual(got["faultclear"], ("scenarios/faultclear", False))
        self.assertIn("policies", got)

    def test_tables_name_registered_scenarios_and_their_default(self):
        reg, tables = kernel_scenarios(), scenario_tables()
        self.assertIn("prezero.md", tables)
        for doc, rows in tables.items():
            for name, default in rows.items():
                self.assertIn(name, reg, "%s lists scenario %s, which the kernel lacks"
                              % (doc, name))
                self.assertEqual(default, "yes" if reg[name][1] else "no",
                                 "%s: run=default membership of %s" % (doc, name))

    def test_thread_section_names_registered_scenarios(self):
        # docs/prezero.md "What the thread asked": each answer's run=NAME exists.
        doc = (ROOT / "docs" / "prezero.md").read_text()
        sec = re.search(r"^## What the thread asked.*?(?=^## )", doc, re.M | re.S).group(0)
        named = set(re.findall(r"`run=([a-z0-9_]+)`", sec))
        self.assertTrue({"faultclear", "vmstart", "interference"} <= named, named)
        self.assertEqual(sorted(named - set(kernel_scenarios()) - {"NAME"}), [])

    def test_every_prezero_scenario_in_prezero_md(self):
        listed = scenario_tables()["prezero.md"]
        missing = sorted(n for n, (sub, _) in kernel_scenarios().items()
                         if sub in PREZERO_FOLDERS and n not in listed)
        self.assertEqual(missing, [], "pre-zeroing scenarios missing from docs/prezero.md")


class Layout(unittest.TestCase):
    def test_folders_found(self):
        folders = kernel_folders()
        self.assertEqual(folders[:6], ["boot", "arch", "lib", "mm", "kernel", "measure"])
        self.assertIn("scenarios/clear", folders)
        self.assertTrue(all(is_scenario(f) for f in folders[6:]), folders)

    def test_readme_tree_lists_every_folder(self):
        readme = (ROOT / "README.md").read_text()
        listed = set(re.findall(r"^\| `([a-z_]+)/` \|", readme, re.M))
        missing = sorted({f.split("/")[0] for f in kernel_folders()} - listed)
        self.assertEqual(missing, [], "folders missing from README's tree table")

    def test_lib_includes_only_lib(self):
        bad = [i for i in includes("lib") if i[1] != "lib"]
        self.assertEqual(bad, [], "lib/ must include nothing else of the project")

    def test_kernel_does_not_include_programs(self):
        bad = [i for i in includes("kernel") if i[1] == "measure" or is_scenario(i[1])]
        self.assertEqual(bad, [], "kernel/ must not include measure/ or a scenario")

    def test_measure_and_scenario_folders(self) -> None:
        bad = [i for i in includes("measure") if is_scenario(i[1])]
        for folder in filter(is_scenario, kernel_folders()):
            bad += [i for i in includes(folder) if is_scenario(i[1]) and i[1] != folder]
        self.assertEqual(bad, [], "measure/ includes no scenario, "
                                  "and no scenario includes another's folder")

    def test_lower_layers_include_nothing_above(self):
        bad = []
        for folder in ("boot", "arch", "mm"):
            bad += [i for i in includes(folder)
                    if i[1] in ("kernel", "measure") or is_scenario(i[1])]
        self.assertEqual(bad, [], "boot/, arch/, mm/ include nothing of the layers above")


# The layers of the data path, lowest first (docs/hacking.md "Map"): a file
# includes headers of its own layer, of lower ones, of lib/ and the leaf
# headers, never of a higher layer. Each scenarios/NAME/ is a scenario; no
# scenario includes another's folder.
LAYERS = ("boot", "arch", "mm", "kernel", "measure", "scenarios")
# Headers with no project include but lib/: any layer may use them.
LEAVES = ("mm/memmap.h", "mm/paging.h")
# Includes that go up a layer, each with the reason it must (none today:
# arch/ gets mm/'s services through hooks kernel/main.c sets).
UPWARD: dict = {}
ANY_INCLUDE = re.compile(r'^#include "([a-z0-9_/]+\.h)"', re.M)


def unit_of(path):
    """(layer, scenario name or None) of a path, None outside the layers."""
    parts = path.split("/")
    if parts[0] == "scenarios":
        return ("scenarios", parts[1] if len(parts) > 2 else None)
    return (parts[0], None) if parts[0] in LAYERS else None


def layer_violations(pairs):
    """[(file, header)] that break the order or join two scenarios."""
    bad = []
    for src, hdr in pairs:
        a, b = unit_of(src), unit_of(hdr)
        if a is None or b is None or hdr in LEAVES or (src, hdr) in UPWARD:
            continue
        if LAYERS.index(b[0]) > LAYERS.index(a[0]):
            bad.append((src, hdr))
        elif a[0] == b[0] == "scenarios" and a[1] != b[1]:
            bad.append((src, hdr))
    return bad


def layer_includes():
    """[(file, header)] of every C file of the layers."""
    out = []
    for folder in LAYERS:
        for src in sorted((ROOT / folder).glob("**/*.[ch]")):
            rel = src.relative_to(ROOT).as_posix()
            out += [(rel, h) for h in ANY_INCLUDE.findall(src.read_text())]
    return out


class LayerOrder(unittest.TestCase):
    def test_order(self):
        self.assertEqual(layer_violations(layer_includes()), [],
                         "includes against boot -> arch -> mm -> kernel -> measure -> scenarios")

    def test_upward_list_is_current(self):
        stale = sorted(set(UPWARD) - set(layer_includes()))
        self.assertEqual(stale, [], "UPWARD names includes that are gone: drop them")

    def test_arch_gets_mm_through_hooks(self):
        main = (ROOT / "kernel/main.c").read_text()
        for hook in ("console_set_mapper(vm_map_uncached)", "steal_set_frame_source(spare_frame)"):
            self.assertIn(hook, main)

    def test_leaves_include_no_project_header(self):
        for leaf in LEAVES:
            found = [h for h in ANY_INCLUDE.findall((ROOT / leaf).read_text())
                     if not h.startswith("lib/")]
            self.assertEqual(found, [], leaf)

    def test_boot_and_mm_one_way(self):
        # boot/ names the memory map through the leaf mm/memmap.h only, and
        # mm/ takes the map and the exclusions as arguments, not the boot info
        pairs = layer_includes()
        boot = [p for p in pairs if p[0].startswith("boot/")]
        self.assertIn(("boot/bootinfo.h", "mm/memmap.h"), boot)
        self.assertEqual([p for p in boot if unit_of(p[1]) and unit_of(p[1])[0] != "boot"
                          and p[1] not in LEAVES], [])
        self.assertEqual([p for p in pairs if p[0].startswith("mm/") and
                          p[1].startswith("boot/")], [])

    def test_exit_does_not_call_the_verdict(self):
        # hz_exit reaches the verdict through its at-exit hook (kernel/exit.h)
        for f in ("kernel/exit.c", "kernel/exit.h"):
            self.assertNotIn("kernel/verdict.h", ANY_INCLUDE.findall((ROOT / f).read_text()))
        self.assertIn("hz_exit_set_hook(verdict_at_exit)", (ROOT / "kernel/main.c").read_text())

    def test_rule_catches(self):
        for pair in [("boot/bootinfo.h", "mm/frames.h"), ("mm/mm.h", "kernel/exit.h"),
                     ("kernel/exit.c", "measure/memop.h"), ("measure/x.c", "scenarios/a/y.h"),
                     ("kernel/x.c", "scenarios/clear/y.h"),
                     ("scenarios/a/run.c", "scenarios/b/plan.h"), ("arch/x.c", "mm/vm.h")]:
            self.assertEqual(layer_violations([pair]), [pair])
        for pair in [("arch/acpi.h", "boot/bootinfo.h"), ("boot/bootinfo.h", "mm/memmap.h"),
                     ("scenarios/a/run.c", "scenarios/a/plan.h"),
                     ("scenarios/a/x.c", "measure/m.h"),
                     ("scenarios/a/run.c", "lib/fmt.h"), ("mm/demand.c", "arch/trap.h")]:
            self.assertEqual(layer_violations([pair]), [])


def results_section(record):
    """The text of the section on `record` in docs/results.md or in a
    scenario's records.md."""
    for doc in [ROOT / "docs" / "results.md"] + sorted((ROOT / "scenarios").glob("*/records.md")):
        m = re.search(r"^### `%s`.*?(?=^##|\Z)" % re.escape(record), doc.read_text(), re.M | re.S)
        if m:
            return m.group(0)
    raise AssertionError("no docs section on record %s" % record)


class ScenarioFolders(unittest.TestCase):
    """Each scenario's docs sit in its folder (issue 33): scenarios/NAME/
    has README.md (what it measures, its options, how to read its table)
    and records.md (its record types); docs/results.md says where they are
    and links the shipped scenarios' records.md."""

    def test_every_scenario_has_readme_and_records(self):
        # a folder per registered scenario (HZ_SCENARIO), none other
        found = sorted(p.name for p in (ROOT / "scenarios").iterdir() if p.is_dir())
        self.assertEqual(found, sorted(kernel_scenarios()))
        self.assertGreaterEqual(len(found), 9)
        for name in found:
            for doc in ("README.md", "records.md"):
                path = ROOT / "scenarios" / name / doc
                self.assertTrue(path.is_file(), "scenarios/%s/%s is missing" % (name, doc))
                self.assertIn("run=%s" % name, path.read_text().split("\n")[0],
                              "scenarios/%s/%s: its title names another scenario" % (name, doc))

    def test_results_md_links_every_records_md(self):
        # The shipped scenarios' rows; a new scenario is found by the path
        # the text gives (its folder), so adding one touches no list here.
        doc = (ROOT / "docs" / "results.md").read_text()
        self.assertIn("`run=NAME`'s in scenarios/NAME/records.md", doc)
        linked = re.findall(r"\]\(\.\./scenarios/([a-z0-9_]+)/records\.md\)", doc)
        self.assertEqual(sorted(set(linked) - set(kernel_scenarios())), [], "stale rows")
        self.assertEqual(sorted(set(SHIPPED) - set(linked)), [], "shipped, not linked")

    def test_readme_is_at_most_a_page(self):
        for p in sorted((ROOT / "scenarios").glob("*/README.md")):
            prose = [line for line in p.read_text().split("\n") if not line.startswith("|")]
            self.assertLessEqual(len(prose), 60, "%s: more than a page of prose" % p)


class RecordsDocumented(unittest.TestCase):
    """The prezero record's members, as measure/prezero_report.c writes them,
    are each named in its scenarios/prezero/records.md section (a latency group by its
    prefix, `lat_hit_*`)."""

    def members(self):
        src = (ROOT / "measure" / "prezero_report.c").read_text()
        body = src[src.index("void pz_report_run"):src.index("void pz_report_table")]
        keys = set(re.findall(r'rec_\w+\(&x, "([a-z0-9_]+)"', body))
        groups = set(re.findall(r'lat_members\(&x, "([a-z_]+)"', body))
        return keys, groups

    def test_members_found(self):
        keys, groups = self.members()
        self.assertTrue({"workload", "policy", "total_ns", "idle_overhead_ns"} <= keys)
        self.assertTrue({"lat_", "lat_hit_", "off_miss_"} <= groups)

    def test_every_prezero_member_documented(self):
        doc = results_section("prezero")
        keys, groups = self.members()
        missing = sorted(k for k in keys if "`%s`" % k not in doc)
        missing += sorted(g + "*" for g in groups if "`%s*`" % g not in doc and g != "lat_")
        if "`lat_n`" not in doc or "`lat_p99_ns`" not in doc:
            missing.append("lat_n/lat_p99_ns")
        self.assertEqual(missing, [], "prezero members missing from scenarios/prezero/records.md")

    def test_every_vmstart_member_documented(self):
        src = ((ROOT / "scenarios" / "vmstart" / "report.c").read_text() +
               (ROOT / "scenarios" / "vmstart" / "qemu.c").read_text())
        for t in ("vmstart", "vmstart_knee", "vmstart_cost", "vmstart_model"):
            body = src[src.index('"%s");' % t):]
            body = body[:body.index("record_emit")]
            keys = set(re.findall(r'rec_\w+\(&r, "([a-z0-9_]+)"', body))
            self.assertTrue(keys, t)
            doc = results_section("vmstart")
            self.assertEqual(sorted(k for k in keys if "`%s`" % k not in doc), [],
                             "%s members missing from scenarios/vmstart/records.md" % t)


if __name__ == "__main__":
    unittest.main()


def strategy_rows() -> list[str]:
    """The names of CLEAR_STRATEGIES' rows (arch/clear.h), in table order."""
    src = (ROOT / "arch" / "clear.h").read_text()
    body = src[src.index("#define CLEAR_STRATEGIES(ROW)"):src.index("#define CLEAR_PROTOTYPE")]
    return re.findall(r"\bROW\(([a-z0-9_]+),", body)


def strategy_files() -> list[str]:
    """The strategy routines arch/rules.mk builds: arch/clear_<name>.asm or .c."""
    return sorted(p.stem[len("clear_"):] for p in (ROOT / "arch").glob("clear_*.*")
                  if p.suffix in (".asm", ".c"))


def strategy_docs() -> list[str]:
    """The names in docs/strategies.md's "The table", in its order."""
    doc = (ROOT / "docs" / "strategies.md").read_text()
    table = doc[doc.index("## The table"):]
    table = table[:table.index("\n\n", table.index("|"))]
    return re.findall(r"^\| `([a-z0-9_]+)` \|", table, re.M)


class StrategiesDocumented(unittest.TestCase):
    """Adding a strategy is one routine file and one table row
    (docs/hacking.md): every row has its arch/clear_<name> file and no file
    is without a row, and docs/strategies.md's table lists the rows in
    their order. tests/unit/test_clear.c runs its zeroes/contract tests on
    every row, so its test count follows the table."""

    def test_rows_found(self) -> None:
        rows = strategy_rows()
        self.assertGreaterEqual(len(rows), 13)
        self.assertIn("rep_stosb", rows)
        self.assertEqual(len(rows), len(set(rows)), "a strategy row appears twice")

    def test_every_row_has_its_file(self) -> None:
        self.assertEqual(sorted(strategy_rows()), strategy_files(),
                         "arch/clear_<name>.asm|.c files and CLEAR_STRATEGIES rows differ")

    def test_docs_table_matches_rows(self) -> None:
        self.assertEqual(strategy_docs(), strategy_rows(),
                         "docs/strategies.md's table and CLEAR_STRATEGIES (arch/clear.h) differ")


SRC_FOLDERS = r"arch|boot|kernel|lib|measure|mm|scenarios/[a-z]+"
DOC_PATH = re.compile(r"\b((?:%s|docs|tests|tools)/[A-Za-z0-9_./<>*-]*[A-Za-z0-9_>*])"
                      % SRC_FOLDERS)
# `sym()` (file) or `struct sym` (file), also `a()`/`b()` (file): sym is in file.
SYM_THEN_FILE = re.compile(r"`(?:struct )?(\w+)(?:\([^`]*\))?`(?:/`[^`]*`)?\s*\(((?:%s)/\w+\.[ch])"
                           % SRC_FOLDERS)
# file's `sym`
FILE_THEN_SYM = re.compile(r"((?:%s)/\w+\.[ch])'s `(\w+)" % SRC_FOLDERS)
CALL = re.compile(r"`(\w+)(?:\(|\[\])")


def where_to_add() -> str:
    """docs/hacking.md's "Where to add" list, folded to single spaces."""
    doc = (ROOT / "docs" / "hacking.md").read_text()
    return " ".join(doc[doc.index("Where to add"):doc.index("## Tree and build")].split())


def defines(path: pathlib.Path, sym: str) -> bool:
    """sym appears in path's code (comments left out)."""
    code = re.sub(r"/\*.*?\*/|//[^\n]*", " ", path.read_text(), flags=re.S)
    return re.search(r"\b%s\b" % re.escape(sym), code) is not None


class WhereToAdd(unittest.TestCase):
    """Every file, folder and symbol docs/hacking.md's "Where to add" steps
    name exists: a path (a <name> template must match some file), a symbol
    said to be in a file is in it, and every other `function()` it names is
    in some kernel source."""

    def test_paths_exist(self) -> None:
        paths = DOC_PATH.findall(where_to_add())
        self.assertGreater(len(paths), 10)
        for p in paths:
            p = p.rstrip(".")
            if "<" in p or "*" in p:
                pattern = re.sub(r"<[^>]*>", "*", p)
                self.assertTrue(list(ROOT.glob(pattern)), "%s matches no file" % p)
            else:
                self.assertTrue((ROOT / p).exists(), "%s does not exist" % p)

    def test_symbols_in_their_files(self) -> None:
        text = where_to_add()
        pairs = SYM_THEN_FILE.findall(text) + [(s, f) for f, s in FILE_THEN_SYM.findall(text)]
        self.assertGreater(len(pairs), 8)
        for sym, path in pairs:
            self.assertTrue(defines(ROOT / path, sym), "%s is not in %s" % (sym, path))

    def test_every_named_function_exists(self) -> None:
        sources = [p for sub in kernel_folders() for p in (ROOT / sub).glob("*.[ch]")]
        for sym in set(CALL.findall(where_to_add())):
            self.assertTrue(any(defines(p, sym) for p in sources), "no source has %s" % sym)
