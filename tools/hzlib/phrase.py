"""One comparison in words: the only place the host tools phrase B against A.

A comparison is printed one way everywhere (the kernel's `compare` records
as hz report shows them, hz compare's rows, the text report, the page):

    linux_4k takes 1.43x [1.35..1.52] the time of linux_batch=32M (slower)
    B gives 1.20x [1.10..1.30] the GB/s of A (faster)

The sentence starts with B, the ratio is B over A of what it names, and A
comes last, so it cannot be read backwards ("X vs Y: B/A" was: issue 29).
Times say "takes ... the time of"; a quantity where more is better (GB/s, a
gain, a hit rate) says "gives ... the <quantity> of". Figures have three
significant digits (sig3). direction() is the test's rule: the word a
ratio allows, so that a printed "faster" never stands beside a ratio that
says slower.
"""

import re
from typing import Optional

TIME = "time"
# The sentence, parsed back (tests/tools/test_phrase.py reads every printed one).
# Names are one word each (cell ids, "A", "B").
PATTERN = re.compile(r"(?P<b>[^\s<>]+) (?P<verb>takes|gives) (?P<ratio>[0-9.]+)x"
                     r"(?: \[(?P<lo>[0-9.]+)\.\.(?P<hi>[0-9.]+)\])? the (?P<what>.+?) of "
                     r"(?P<a>[^\s<>]+) \((?P<word>[^()]*)\)")


def sig3(x) -> str:
    """x with three significant digits, no exponent: 0.333, 1.43, 35.7,
    128; "-" for None."""
    if x is None:
        return "-"
    a = abs(x)
    if a >= 99.95:
        return "%.0f" % x
    if a >= 9.995:
        return "%.1f" % x
    if a >= 0.9995:
        return "%.2f" % x
    return "%#.3g" % x


def ratio_text(ratio, lo=None, hi=None) -> str:
    """'1.43x [1.35..1.52]', or '1.43x' without an interval."""
    text = "%sx" % sig3(ratio)
    if lo is not None and hi is not None:
        text += " [%s..%s]" % (sig3(lo), sig3(hi))
    return text


def comparison(b: str, a: str, ratio: Optional[float], lo: Optional[float] = None,
               hi: Optional[float] = None, word: str = "", what: str = TIME) -> str:
    """The one sentence of a comparison: B's `what` over A's (ratio, its
    interval lo..hi or None), and the outcome word in brackets ('slower',
    'tie at +-5%', 'undecided'; no brackets inside). Without a ratio (a
    side of 0): 'B against A: no ratio (noise)'."""
    if ratio is None:
        return "%s against %s: no ratio (%s)" % (b, a, word)
    verb = "takes" if what == TIME else "gives"
    return "%s %s %s the %s of %s (%s)" % (b, verb, ratio_text(ratio, lo, hi), what, a, word)


def direction(ratio: float, what: str = TIME) -> str:
    """The word a ratio points to: 'faster', 'slower' or '' at exactly 1
    (B over A of a time: below 1 is faster; of a quantity where more is
    better: above 1 is)."""
    if ratio == 1:
        return ""
    return "faster" if (ratio < 1) == (what == TIME) else "slower"


def outcome_word(outcome, tol_pct=None) -> str:
    """An outcome for comparison(): 'tie at +-5%' when a tie has its
    tolerance, else the outcome itself."""
    if outcome == "tie" and tol_pct is not None:
        return "tie at +-%g%%" % tol_pct
    return str(outcome)


def of_compare_record(c) -> str:
    """A kernel `compare` record (docs/results.md: B over A of time per
    byte) in the one sentence, with the samples a side: '... (slower),
    n=18/10' (B's, then A's)."""
    return "%s, n=%s/%s" % (comparison(str(c.get("b")), str(c.get("a")), c.get("ratio"),
                                       c.get("lo"), c.get("hi"),
                                       outcome_word(c.get("outcome"), c.get("tol_pct"))),
                            c.get("nb"), c.get("na"))
