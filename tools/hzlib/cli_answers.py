"""`hz answers` (make answers): the thread's three answers under one
QEMU-time budget.

run=faultclear, vmstart and interference, sized to their shares of one
budget (at most and by default 600 s of QEMU time, --budget): each boot's
QEMU is stopped at its share whatever the kernel planned (hz run
--timeout). Everything lands in results/<UTC time>-answers/: one folder per
boot, records.jsonl (every boot's records, `run` = the boot's index),
meta.json (the last boot's) and answers.txt, the block (answers_text, from
answers_data) that is also printed. `hz report --text` of that folder prints
the same block at its top.

The boots (shares measured on the development host, 2 vCPUs, busy):
  KVM  one boot, -m 8G: run=faultclear,vmstart,interference.
  TCG  two boots: run=faultclear with -m 6G (4 frames of 1 GiB: 3 faults a
       cell and round, 2 rounds, n = 6, the fewest with a 95 % interval;
       188 s here), then run=vmstart,interference with -m 2G, so that
       vmstart runs on 128 MiB of 2 MiB frames (with a 1 GiB frame free it
       takes 1 GiB frames, 6 rounds of 4 cells: minutes under TCG).
In every boot: faultclear measures only Linux's clear_page strategy
(faultclear_strategies=rep_stosb) and under KVM races its rounds past the
minimum within faultclear_budget per frame size; vmstart the qemu rows, 6
rounds (the fewest with a 95 % interval); interference checks the host
first and stops within 30 s where the spin control alone slows the victims.
"""

import json
import os
import sys
from dataclasses import dataclass
from typing import Callable, List, Sequence

from . import answers_data, answers_text, probe, results, runner

BUDGET_MAX = 600.0  # s of QEMU time: issue 32's "at most 10 minutes"
COMMON = ["faultclear_strategies=rep_stosb", "vmstart_rows=qemu", "lead_idle=250ms"]
# Per accelerator: the boots, each (guest RAM, share of the budget, kernel arguments).
BOOTS = {
    "kvm": [("8G", 1.0, ["run=faultclear,vmstart,interference", "faultclear_pages=2",
                         "vmstart_size=4G", "interf_rounds=6"])],
    "tcg": [("6G", 0.8, ["run=faultclear", "faultclear_pages=3", "faultclear_rounds=2"]),
            ("2G", 0.2, ["run=vmstart,interference", "vmstart_size=128M"])],
}
FAULTCLEAR_SHARE = 0.2  # of the budget, per frame size: faultclear's rounds past the minimum
FILE = "answers.txt"


@dataclass
class Boot:
    mem: str
    timeout: float  # QEMU seconds: this boot's share of the budget
    args: List[str]


def plan(accel: str, budget: float, extra: Sequence[str] = ()) -> List[Boot]:
    """The boots make answers makes under `accel` ("kvm" or "tcg"), budget
    in QEMU seconds (capped at BUDGET_MAX); extra kernel arguments
    (bw_ceiling=...) go last in each boot and override."""
    budget = min(budget, BUDGET_MAX)
    fc = "faultclear_budget=%d" % int(budget * FAULTCLEAR_SHARE)
    return [Boot(mem, round(budget * share, 1), args + COMMON + [fc] + list(extra))
            for mem, share, args in BOOTS[accel]]


def choose_accel(accel: str) -> str:
    """"auto" as hz run chooses it: kvm when /dev/kvm is usable, else tcg."""
    return ("tcg" if probe.kvm_problem() else "kvm") if accel == "auto" else accel


def block_of(records: Sequence[dict], meta: dict) -> List[str]:
    """The block of a run's records ([] when they do not hold the three
    answers' sources: answers_data.has_answers)."""
    if not answers_data.has_answers(records):
        return []
    return answers_text.block(answers_data.lines(records, meta))


def run(accel: str, budget: float, base: str, extra: Sequence[str],
        boot: Callable[[Boot, str, int], int], say: Callable[[str], None]) -> int:
    """Make every boot of plan() with boot(Boot, its results base, CPUs),
    then merge their records and write the block; the worst status of the
    boots (1 when there is no block)."""
    accel = choose_accel(accel)
    ncpu = max(2, len(os.sched_getaffinity(0)))
    boots = plan(accel, budget, extra)
    folder = runner.new_results_dir(base, "answers")
    status = 0
    for i, b in enumerate(boots):
        say("answers: boot %d of %d: %s, %d CPUs, -m %s, QEMU stopped at %.0f s: %s"
            % (i + 1, len(boots), accel.upper(), ncpu, b.mem, b.timeout, " ".join(b.args)))
        status = max(status, boot(b, folder, ncpu))
    recs, meta = [], {}
    for i, name in enumerate(sorted(d for d in os.listdir(folder)
                                    if os.path.isdir(os.path.join(folder, d)))):
        try:
            rs = results.load(os.path.join(folder, name))
        except OSError as e:
            say("answers: %s" % e)
            continue
        recs += [dict(r, run=i) for r in rs.records]
        meta = rs.meta
    results.write_jsonl(os.path.join(folder, "records.jsonl"), recs)
    with open(os.path.join(folder, "meta.json"), "w") as f:
        json.dump(dict(meta, answers_boots=len(boots)), f, indent=1)
    lines = block_of(recs, meta)
    if not lines:
        say("answers: %s holds no faultclear, vmstart and interference records" % folder)
        return status or 1
    with open(os.path.join(folder, FILE), "w", encoding="ascii", errors="replace") as f:
        f.write("\n".join(lines) + "\n")
    print("\n" + "\n".join(lines))
    rel = os.path.relpath(os.path.join(folder, FILE))
    print(rel if not rel.startswith("..") else os.path.join(folder, FILE))
    sys.stdout.flush()
    return status
