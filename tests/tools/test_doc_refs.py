"""References into the record docs name sections that exist: a comment,
docstring or doc that cites "docs/results.md `SECTION`" (or
"scenarios/NAME/records.md `SECTION`", "... README.md", a "quoted title"
in place of `SECTION`) points at a heading of that file, and one that
cites a record type before it ("the `T` record (docs/results.md)",
"(`T`, docs/results.md)") cites the file that documents `T`. Issue 33
moved each scenario's record types to scenarios/NAME/records.md; this
keeps the code's pointers from going stale when a section moves again.
A cited source path of this tree (`measure/memop.c`, `bench/x.c`) names a
file that exists. (Kept apart from test_docs.py, which is at the size limit.)"""
import pathlib
import re
import subprocess
import unittest

ROOT = pathlib.Path(__file__).resolve().parents[2]
SCANNED = (".c", ".h", ".py", ".md", ".sh", ".mk", ".asm", ".cfg")
DOC = r"(docs/results\.md|scenarios/[a-z_]+/(?:records|README)\.md)"
NAME = r"(?:`[a-z_]+`|\"[A-Za-z][A-Za-z ]*\")"
NAMES = r"%s(?:(?:, | and |/)%s)*" % (NAME, NAME)
# "docs/results.md `a`, `b`" / "docs/results.md: `a`" / 'docs/results.md "Exit status"'
AFTER = re.compile(r"%s[,:]? (%s)" % (DOC, NAMES))
# "the `a` and `b` records (docs/results.md" / "(`a`, docs/results.md"
TYPES = r"`[a-z_]+`(?:(?:, | and )`[a-z_]+`)*"
BEFORE = re.compile(r"(?:(%s) records? \(|\((%s), )%s" % (TYPES, TYPES, DOC))
# a line break inside a comment or docstring, with the next line's leader
JOIN = re.compile(r"[ \t]*\n[ \t]*(?:\*(?!/)|//|#(?!#)|\"\"\")?[ \t]*")


# a cited source path: "dir/.../file.c" (or .h, .asm, .py, .sh, .mk)
SOURCE = re.compile(r"(?<![\w./-])((?:[A-Za-z0-9_.-]+/)+[A-Za-z0-9_-]+\.(?:c|h|asm|py|sh|mk))\b")
# folders a path of this tree starts with: the tracked ones, and the ones
# issue 33 removed (their files moved to scenarios/ and measure/)
GONE = ("bench", "prezero")
# paths of other trees whose first folder is also one of ours (Linux's)
FOREIGN = ("arch/x86/", "mm/memory.c")
# placeholders: scenarios/NAME/run.c, tests/unit/test_name.c
PLACEHOLDER = re.compile(r"NAME|_name\.")


def missing_sources(name, text, tracked):
    """[path] the file name cites as a source of this tree that is not a
    tracked file (relative to the root, or a tail of one: hzlib/lava.py)."""
    tops = {t.split("/")[0] for t in tracked if "/" in t} | set(GONE)
    out = []
    for path in SOURCE.findall(text):
        if (path.split("/")[0] not in tops or path.startswith(FOREIGN) or
                PLACEHOLDER.search(path) or path.startswith("build/")):
            continue
        if path in tracked or any(t.endswith("/" + path) for t in tracked):
            continue
        out.append("%s: %s" % (name, path))
    return out


def headings(doc):
    """The heading lines of one doc, lower case, without the leading #s."""
    text = (ROOT / doc).read_text()
    return [h.lower() for h in re.findall(r"^#+ (.*)$", text, re.M)]


def exists(doc, name, cache):
    """Whether `name` (a `type` or a "Title") heads a section of doc."""
    if doc not in cache:
        cache[doc] = headings(doc) if (ROOT / doc).is_file() else []
    word = name.strip('`"').lower()
    if name.startswith("`"):
        return any("`%s`" % word in h for h in cache[doc])
    return any(h.startswith(word) or "`%s`" % word in h for h in cache[doc])


def stale_refs(text, cache):
    """[(doc, name)] the text cites that have no section in doc."""
    flat = JOIN.sub(" ", text)
    out = []
    for m in AFTER.finditer(flat):
        out += [(m.group(1), n) for n in re.findall(NAME, m.group(2))]
    for m in BEFORE.finditer(flat):
        out += [(m.group(3), n) for n in re.findall(NAME, m.group(1) or m.group(2))]
    return [(doc, n) for doc, n in out if not exists(doc, n, cache)]


def slug(heading):
    """A heading's anchor as GitHub makes it: lower case, punctuation but
    '-' and '_' dropped, each space a '-'."""
    return re.sub(r"[^\w\- ]", "", heading.lower()).replace(" ", "-")


def broken_links(name, text, cache):
    """[link] of the Markdown file name whose relative .md target is missing
    or names an anchor that none of the target's headings makes."""
    out = []
    for link in re.findall(r"\]\(([^)#:]+\.md)(?:#([^)]*))?\)", text):
        target = ((ROOT / name).parent / link[0]).resolve()
        doc = target.relative_to(ROOT).as_posix() if target.is_relative_to(ROOT) else ""
        if doc not in cache:
            cache[doc] = headings(doc) if doc and target.is_file() else []
        if not cache[doc] or (link[1] and link[1] not in map(slug, cache[doc])):
            out.append("%s#%s" % link)
    return out


def git_files():
    return subprocess.run(["git", "ls-files"], cwd=ROOT, capture_output=True,
                          text=True, check=True).stdout.split("\n")


def tracked_files():
    names = git_files()
    # not this file: its planted stale references are the tests' input
    return [n for n in names if n.endswith(SCANNED) and "fixtures/" not in n and
            n != "tests/tools/test_doc_refs.py"]


def planting(name):
    """Whether name is a test that plants paths as its input (scenarios/a/x.c)."""
    return name.startswith("tests/tools/test_") and name.endswith(".py")


class DocReferences(unittest.TestCase):
    def test_every_cited_section_exists(self) -> None:
        cache: dict = {}
        bad = []
        for name in tracked_files():
            bad += ["%s: %s %s" % (name, doc, sec)
                    for doc, sec in stale_refs((ROOT / name).read_text(), cache)]
        self.assertEqual(bad, [])

    def test_every_link_resolves(self) -> None:
        cache: dict = {}
        bad = []
        for name in tracked_files():
            if name.endswith(".md"):
                bad += ["%s: %s" % (name, link)
                        for link in broken_links(name, (ROOT / name).read_text(), cache)]
        self.assertEqual(bad, [])
        # and it sees a moved section and a missing file
        self.assertEqual(broken_links("docs/hacking.md", "[a](results.md#clear), "
                                      "[b](results.md#exit-status), [c](gone.md)", cache),
                         ["results.md#clear", "gone.md#"])

    def test_every_cited_source_exists(self) -> None:
        tracked = set(git_files())
        bad = []
        for name in tracked_files():
            if not planting(name):
                bad += missing_sources(name, (ROOT / name).read_text(), tracked)
        self.assertEqual(bad, [])
        # and it sees a removed folder's file and a missing one of ours, in a
        # comment and in prose, but not Linux's paths or placeholders
        text = ("/* the cells (bench/bench_clear.c, prezero/vmstart.c) and\n"
                " * measure/nosuch.h; Linux's mm/memory.c, arch/x86/lib/clear_page_64.S,\n"
                " * scenarios/NAME/run.c, hzlib/lava.py, lib/cmdline.c */")
        self.assertEqual(missing_sources("x.c", text, tracked),
                         ["x.c: bench/bench_clear.c", "x.c: prezero/vmstart.c",
                          "x.c: measure/nosuch.h"])

    def test_forms_found(self) -> None:
        # the scan sees references, in both directions and across a
        # comment's line break, else the test above passes on nothing
        cache: dict = {}
        text = ("/* the `clear` record (docs/results.md\n * `clear`) and the\n"
                " * `summary` record (docs/results.md \"Exit status\",\n"
                " * docs/results.md \"Sequence numbers\"). */\n")
        self.assertEqual(stale_refs(text, cache),
                         [("docs/results.md", "`clear`"), ("docs/results.md", "`clear`")])
        self.assertEqual(stale_refs("(`vmstart_knee`, docs/results.md)", cache),
                         [("docs/results.md", "`vmstart_knee`")])
        self.assertEqual(stale_refs("scenarios/clear/records.md `clear`, `nope`", cache),
                         [("scenarios/clear/records.md", "`nope`")])
        self.assertEqual(stale_refs("# docs/results.md \"Exit status\"\n"
                                    "scenarios/vmstart/records.md `vmstart_cost`", cache), [])
        self.assertEqual(stale_refs('docs/results.md "No such title"', cache),
                         [("docs/results.md", '"No such title"')])


if __name__ == "__main__":
    unittest.main()
