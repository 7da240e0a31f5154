"""References into the record docs name sections that exist: a comment,
docstring or doc that cites "docs/results.md `SECTION`" (or
"scenarios/NAME/records.md `SECTION`", "... README.md", a "quoted title"
in place of `SECTION`) points at a heading of that file, and one that
cites a record type before it ("the `T` record (docs/results.md)",
"(`T`, docs/results.md)") cites the file that documents `T`. Issue 33
moved each scenario's record types to scenarios/NAME/records.md; this
keeps the code's pointers from going stale when a section moves again.
(Kept apart from test_docs.py, which is at the size limit.)"""
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


def tracked_files():
    names = subprocess.run(["git", "ls-files"], cwd=ROOT, capture_output=True,
                           text=True, check=True).stdout.split("\n")
    # not this file: its planted stale references are the tests' input
    return [n for n in names if n.endswith(SCANNED) and "fixtures/" not in n and
            n != "tests/tools/test_doc_refs.py"]


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
