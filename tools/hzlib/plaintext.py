"""The plain text of hz report --text: ASCII only, at most WIDTH (80)
columns, no tabs (report_text.py, report_short.py and the scenarios'
text blocks, tools/hzlib/scenarios/)."""

import textwrap
from typing import List

WIDTH = 80


def ascii_text(text) -> str:
    return (str(text).replace("\u00b1", "+-").replace("\u2013", "-").replace("\u00d7", "x")
            .replace("\t", " ").encode("ascii", "replace").decode())


def wrap(text, indent="", first=None, width=WIDTH) -> List[str]:
    """text wrapped to width columns (long words broken), first line
    prefixed by first (default indent), the others by indent."""
    return textwrap.wrap(ascii_text(text), width, initial_indent=indent if first is None else first,
                         subsequent_indent=indent, break_on_hyphens=False) or [first or indent]
