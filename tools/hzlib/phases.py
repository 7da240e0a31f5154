"""The phase line `hz run` prints at the end: how long each phase of the
boot took, from the records (docs/results.md `plan`, `scenario`) and the
host's clock around QEMU:

  hz: phases: QEMU start 1.20 s, kernel start 900 ms, clear 41.2 s,
      fault 8.10 s, verdict and exit 600 ms; QEMU 52.0 s in all

QEMU start is QEMU's launch to the first console byte (memory
pre-allocation, firmware, loader), kernel start the plan record's
kstart_ms (kmain to the plan, calibration included), each scenario its
`scenario` record's wall_ms, and verdict and exit what is left of QEMU's
whole time; without a `summary` record (a timeout, a crash) what is left
is called "unfinished": the scenario that was running, and what came after.
"""

from typing import Any, Dict, List, Optional

from .fmtns import fmt_ns

MS = 1000000


def phase_line(recs: List[Dict[str, Any]], elapsed_s: float,
               first_output_s: Optional[float]) -> Optional[str]:
    """The line (without "hz: "), or None when the run printed no plan
    record (run=none, a config error, a crash before it). The last boot's
    records count when a capture holds several."""
    at = [i for i, r in enumerate(recs) if r.get("t") == "plan"]
    if not at or first_output_s is None:
        return None
    plan, after = recs[at[-1]], recs[at[-1]:]
    parts = [("QEMU start", int(first_output_s * 1e9)),
             ("kernel start", int(plan.get("kstart_ms", 0)) * MS)]
    parts += [(str(r.get("name")), int(r.get("wall_ms", 0)) * MS)
              for r in after if r.get("t") == "scenario"]
    total = int(elapsed_s * 1e9)
    rest = total - sum(ns for _, ns in parts)
    ended = any(r.get("t") == "summary" for r in after)
    parts.append(("verdict and exit" if ended else "unfinished", max(rest, 0)))
    return "phases: %s; QEMU %s in all" % (
        ", ".join("%s %s" % (name, fmt_ns(ns)) for name, ns in parts), fmt_ns(total))
