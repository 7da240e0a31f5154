"""The one rounding rule for durations, shared with the kernel.

fmt_ns(ns) is lib/fmt.h fmt_ns(): three significant digits rounded half up
in integer arithmetic, in the largest of ns, us, ms, s that keeps the
rounded value >= 1; whole seconds from 1000 s up. tests/vectors/format_ns.txt
holds the vectors both test suites read, so the console and the report
print the same figure (25.08 s is "25.1 s" in both).
"""

from typing import Any

_UNITS = ("ns", "us", "ms", "s")


def _div_round(ns: int, q: int) -> int:
    """ns / q rounded half up (q > 0)."""
    return ns // q + (1 if q > 1 and ns % q >= q // 2 else 0)


def fmt_ns(ns: int) -> str:
    """A duration in ns (an int >= 0) for people, as the kernel prints it."""
    u, scale = 0, 1
    while u < 3 and _div_round(ns, scale) >= 1000:
        scale *= 1000
        u += 1
    if u == 0:
        return "%d ns" % ns
    d = 2
    while d and _div_round(ns, scale // (100 if d == 2 else 10)) >= 1000:
        d -= 1
    v = _div_round(ns, scale // (10 ** d))
    num = "%d.%0*d" % (v // 10 ** d, d, v % 10 ** d) if d else "%d" % v
    return "%s %s" % (num, _UNITS[u])


def fmt_ns_any(ns: Any) -> str:
    """fmt_ns() of an int (not a bool) >= 0, else "?"."""
    if isinstance(ns, bool) or not isinstance(ns, int) or ns < 0:
        return "?"
    return fmt_ns(ns)
