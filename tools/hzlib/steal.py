"""Steal time: one definition per scope, one name and one figure each
(issue 29). Every printer of a steal figure goes through here.

  steal       this run's guest: the share of its timed cells' time that the
              hypervisor took from the guest (the `summary` and the verdict
              trust item's `steal_pct`; KVM steal time, or the TSC gap poll
              without it: `steal_method`). "unknown" only when the run did
              not measure it, with why (`steal_why`).
  cell steal  one timed cell: the same share over that cell alone (a `clear`
              record's `steal_pct`).
  host steal  the host below the hypervisor: its CPUs' steal share in
              /proc/stat during the run (meta.json `host_load`,
              loadcheck.host_load), which the guest cannot see.
"""

from typing import Mapping, Optional

from .compare_stat import num


def _pct(v: object) -> str:
    n = num(v)
    return "?" if n is None else "%.2f%%" % n


def guest(summary: Optional[Mapping[str, object]],
          trust: Optional[Mapping[str, object]] = None) -> str:
    """'steal 0.90% (kvm_steal_time)', or 'steal unknown (why)'."""
    for r in (summary, trust):
        if r and num(r.get("steal_pct")) is not None:
            method = (summary or {}).get("steal_method")
            return "steal %s%s" % (_pct(r["steal_pct"]), " (%s)" % method if method else "")
    why = next((r.get("steal_why") for r in (summary, trust) if r and r.get("steal_why")),
               None if summary is not None else "no summary record")
    return "steal unknown (%s)" % (why or "not measured in this run")


def cell(pct: object, name: str = "") -> str:
    """'cell steal 4.20% (rep_stosb/1G cold)'."""
    return "cell steal %s%s" % (_pct(pct), " (%s)" % name if name else "")


def host(host_load: Optional[Mapping[str, object]]) -> str:
    """'host steal 0.80%', or 'host steal unknown (not sampled)'."""
    if not host_load or num(host_load.get("steal_pct")) is None:
        return "host steal unknown (not sampled: hz run samples it)"
    return "host steal %s" % _pct(host_load["steal_pct"])
