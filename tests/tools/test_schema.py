"""tools/hzlib/schema.py against the record docs (docs/results.md, and each
scenario's own types in scenarios/NAME/records.md): the same record types
both ways, and every member the schema names documented in its type's
section (a table row or the section's text). The shipped scenarios' types
(test_docs.SHIPPED) each have a TYPES row; a new scenario's types need none
(hz shows a type without a row as it is) until the host names their
members, but a row must have its docs section. Members only documented are
the one listed exception: schema.py's comment says why it does not copy
them."""

import pathlib
import re
import unittest
from typing import Dict, Set

import hztest  # noqa: F401 (import path)
from hzlib import schema
from test_docs import SHIPPED

RESULTS_MD = pathlib.Path(hztest.ROOT) / "docs" / "results.md"
SCENARIO_RECORDS = sorted((pathlib.Path(hztest.ROOT) / "scenarios").glob("*/records.md"))

# A section's title: "### `a`, `b` and `c` — what they are".
HEADING = re.compile(r"^### (`[a-z0-9_]+`(?:(?:, | and )`[a-z0-9_]+`)*) — ", re.M)
NAME = re.compile(r"`([a-z0-9_]+)`")


def sections(text: str) -> Dict[str, str]:
    """record type -> the text of its `### type` section (a section that
    documents several types is each one's)."""
    out: Dict[str, str] = {}
    heads = list(HEADING.finditer(text))
    for h, nxt in zip(heads, heads[1:] + [None]):
        end = nxt.start() if nxt else len(text)
        stop = text.find("\n## ", h.end(), end)
        body = text[h.end():stop if stop >= 0 else end]
        for t in NAME.findall(h.group(1)):
            out[t] = body
    return out


def documented(body: str) -> Set[str]:
    """Every backquoted name of a section, tables and text."""
    return set(NAME.findall(body))


class Schema(unittest.TestCase):
    def setUp(self):
        self.docs = sections(RESULTS_MD.read_text())
        self.shipped = set(self.docs)  # documented types that need a TYPES row
        for p in SCENARIO_RECORDS:
            got = sections(p.read_text())
            self.assertEqual(sorted(set(got) & set(self.docs)), [],
                             "%s documents a type documented elsewhere too" % p)
            self.docs.update(got)
            if p.parent.name in SHIPPED:
                self.shipped |= set(got)

    def test_the_same_record_types(self):
        self.assertGreater(len(self.docs), 30)  # the headings were read at all
        found = [p.parent.name for p in SCENARIO_RECORDS]
        self.assertEqual(sorted(set(SHIPPED) - set(found)), [])  # and the scenarios' own
        self.assertIn("faultclear_gain", self.shipped)
        self.assertEqual(sorted(self.shipped - set(schema.TYPES)), [],
                         "documented in docs/results.md or a shipped scenario's "
                         "records.md, missing from schema.TYPES")
        self.assertEqual(sorted(set(schema.TYPES) - set(self.docs)), [],
                         "in schema.TYPES, without a section in docs/results.md or "
                         "scenarios/*/records.md")

    def test_every_member_named_is_documented(self):
        for t, rt in schema.TYPES.items():
            self.assertEqual(rt.name, t)
            missing = [m for m in rt.members if m not in documented(self.docs[t])]
            self.assertEqual(missing, [], "%s: not in its docs section" % t)

    def test_clear_columns_are_clear_members(self):
        doc = documented(self.docs["clear"])
        self.assertEqual([c for c in schema.CLEAR_COLUMNS if c not in doc], [])

    def test_the_envelope_is_documented(self):
        text = RESULTS_MD.read_text()
        head = text[:text.index("\n## Exit status")]
        self.assertEqual([m for m in schema.ENVELOPE if '"%s"' % m not in head], [])

    def test_sections_are_split_at_headings(self):
        text = ("### `a`, `b` and `c` — x\n`m1`\n### `d` — y\n| `m2` | int |\n"
                "## Other\n`m3`\n")
        got = sections(text)
        self.assertEqual(sorted(got), ["a", "b", "c", "d"])
        self.assertEqual(documented(got["a"]), {"m1"})
        self.assertEqual(documented(got["d"]), {"m2"})


if __name__ == "__main__":
    unittest.main()
