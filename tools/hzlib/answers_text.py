"""The thread's three answers in words: answers_data's lines through ONE
table of templates (issue 32), for `make answers` (answers.txt) and the top
of `hz report --text`.

TEMPLATES maps "kind:outcome" to text with {name} placeholders, each a
field of the answers_data.Line: a Fig is written as its value with the
unit ("6.70 s", "1.43x", "+3.1 %") and {name_ci} as its interval
("[6.50..6.90]", empty without one); text fields as they are. A segment
{?...?} is left out when a placeholder inside has no value; "|" separates
alternatives, the first whose every line fits WIDTH is taken, else the
last, its lines cut to WIDTH with "..."; a newline starts a
continuation line, and a tab pads its line to COL, where a question's
figures start. Figures have three significant
digits (phrase.sig3, the host tools' rule).

Every line says whether it is measured or a model (the header: "measured
unless marked model"; model lines name their inputs), and under TCG the
header's second line says the figures are emulator timings and no outcome
word is printed (the "tcg" outcomes); when only some boots of a merged
block ran under TCG, it names them ("header:tcg_some") and still no
outcome word is printed: the block cannot tell which boot each figure
came from.
"""

import re
from typing import Dict, List, Optional, Sequence

from . import verdict_merge, verdict_text
from .answers_data import Fig, Line
from .phrase import sig3

WIDTH = 100
COL = 36  # where a question's figures start

OUTCOME = {"gain": "faster", "loss": "slower", "tie": "tie", "undecided": "undecided",
           "too few samples": "too few samples", "tcg": "TCG"}

# lib/vmmodel.h vm_scaling()'s keys (vmstart_knee `scaling`) in words
SCALING = {"open": "undecided", "plateau": "a plateau", "sublinear": "sub-linear",
           "linear": "linear"}

TEMPLATES: Dict[str, str] = {
    "header:ok": "== answers ({vendor} family {family} model {model}, {accel}, {cpus} CPUs; "
                 "measured unless marked model)",
    "header:tcg": "== answers ({vendor} family {family} model {model}, {accel}, {cpus} CPUs; "
                  "measured unless marked model)\n"
                  "   TCG: every figure is an emulator timing, not hardware; nothing is decided",
    "header:tcg_some": "== answers ({vendor} family {family} model {model}, {accel}, {cpus} CPUs; "
                       "measured unless marked model)\n"
                       "   TCG in boot {tcg_boots}: its figures are emulator timings, not "
                       "hardware; nothing is decided"
                       "|== answers ({vendor} family {family} model {model}, {accel}, {cpus} CPUs)"
                       "\n   measured unless marked model; TCG in boot {tcg_boots}: its figures "
                       "are emulator timings, nothing is decided",
    "q1:ok": "Q1 64 x 1 GiB faults, 1 thread: 64 x the median fault and its interval ({strategy}, "
             "n={n} each)",
    "q1:missing": "Q1 64 x 1 GiB faults, 1 thread: not measured ({why})",
    "q1_today:ok": "   today, 4K clear_page\t{t} {t_ci}",
    "q1_batch:*": "   clear_pages(), preempt=none/vol\t{t} {t_ci}  {ratio} {ratio_ci} vs today "
                  "({outcome}){?\n      published: series v8 on {pub_cpu} in {pub_batch} batches "
                  "(merged: 32M): {pub}?}",
    "q1_batch:missing": "   clear_pages(), preempt=none/vol\tnot measured",
    "q1_extent:*": "   clear_pages(), preempt=full/lazy\t{t} {t_ci}  {ratio} {ratio_ci} vs today "
                   "({outcome}){?\n      published: series v8 on {pub_cpu}, the same model: "
                   "{pub}?}",
    "q1_extent:missing": "   clear_pages(), preempt=full/lazy\tnot measured",
    "q1_prezeroed:ok": "   pre-zeroed frames\t{t}; pre-zeroing removes {left} {left_ci} of a "
                       "none/vol fault"
                       "|   pre-zeroed frames\t{t}; removes {left} {left_ci} of a none/vol fault",
    "q2:lower": "Q2 2 TB VM start, 16 threads\t>= {t} {t_ci}, model: {r1} per thread (T=1) x "
                "{threads}, linear{?\n\t{amdahl} {amdahl_ci} with the measured scaling (Amdahl "
                "model)?}"
                "|Q2 2 TB VM start, 16 threads\t>= {t} {t_ci}, model: {threads} x {r1} (T=1), "
                "linear{?\n\t{amdahl} {amdahl_ci} with the measured scaling (Amdahl model)?}",
    "q2:given": "Q2 2 TB VM start, 16 threads\t{t} {t_ci}, model (B given): 2 TB / min({threads} "
                "x {r1}, B)\n   B {b} is the bw_ceiling= option, not measured: never decided"
                "|Q2 2 TB VM start, 16 threads\t{t}, model (B given): 2 TB / min({threads} x {r1}"
                ", B)\n   B {b} is the bw_ceiling= option, not measured: never decided",
    "q2:measured": "Q2 2 TB VM start, 16 threads\t{t} {t_ci}, model: 2 TB / min({threads} x "
                   "{r1}, B)\n   B {b} is the measured plateau; the item is open",
    "q2:measured_tcg": "Q2 2 TB VM start, 16 threads\t{t} {t_ci}, model: 2 TB / min({threads} x "
                       "{r1}, B)\n   B {b} is the measured plateau (TCG)",
    "q2:decided": "Q2 2 TB VM start, 16 threads\t{t} {t_ci}, model: 2 TB / min({threads} x {r1}, "
                  "B)\n   B {b} is the measured plateau: decided",
    "q2:missing": "Q2 2 TB VM start, 16 threads\tnot measured (no qemu_4k vmstart_model record)",
    "q2_scaling:few_cpus": "   1 -> {top} threads: {r1} -> {rtop} ({gain}), measured: a {top}-CPU "
                           "host can't tell more\n   a {want}-CPU host would settle B, the "
                           "bandwidth ceiling",
    "q2_scaling:ok": "   1 -> {top} threads: {r1} -> {rtop} ({gain}), measured",
    "q2_step:few_cpus": "   {below} -> {top} threads: {speedup} {speedup_ci} the rate ({scaling}; "
                        "linear: {linear}), measured\n   a {top}-CPU host can't tell more: a "
                        "{want}-CPU host would settle B, the bandwidth ceiling",
    "q2_step:ok": "   {below} -> {top} threads: {speedup} {speedup_ci} the rate ({scaling}; "
                  "linear: {linear}), measured",
    "q3:peak": "Q3 background zeroer\t{zeroer} {chunk} calls: {cpu} CPU per GiB at full rate"
               "{?\n\tclear_page (rep_stosb 4K calls): {page_cpu} CPU per GiB?}",
    "q3:fault": "Q3 background zeroer\t{zeroer} {chunk} calls: {cpu} CPU per GiB (in a 1 GiB "
                "fault){?\n\tclear_page (rep_stosb 4K calls): {page_cpu} CPU per GiB?}",
    "q3:missing": "Q3 background zeroer\tCPU per GiB not measured",
    "q3_host:cpu_contention": "   neighbour cost: not measurable here (spin control alone: {spin} "
                              "{spin_ci} on {victim})\n   needs {needs}",
    "q3_host:no_llc_victim": "   neighbour cost: not measurable here (no LLC-resident victim)\n"
                             "   needs {needs}",
    "q3_host:cpu_contention,no_llc_victim": "   neighbour cost: not measurable here (spin control "
                                            "alone: {spin} {spin_ci} on {victim}; no LLC-resident "
                                            "victim)\n   needs {needs}"
                                            "|   neighbour cost: not measurable here (spin control "
                                            "alone: {spin} on {victim}; no LLC-resident victim)\n"
                                            "   needs {needs}",
    "q3_cost:tie": "   neighbour cost: {strategy} at {rate} %: {victim} {cost} {cost_ci}, "
                   "harmless (tie)",
    "q3_cost:*": "   neighbour cost: {strategy} at {rate} %: {victim} {cost} {cost_ci} ({outcome})",
    "q3_cost:no_figure": "   neighbour cost: no figure{? ({why})?}",
    "q3_cost:not_run": "   neighbour cost: run=interference did not run{? ({why})?}",
}


def _size(b: object) -> str:
    return verdict_text.size(b) if isinstance(b, int) and b > 0 else str(b)


def _value(f: Fig) -> str:
    if f.unit == "x":
        return sig3(f.value) + "x"
    if f.unit in ("%", "+%"):
        return ("%+.1f %%" if f.unit == "+%" else "%.1f %%") % f.value
    return "%s %s" % (sig3(f.value), f.unit)


def _ci(f: Fig) -> Optional[str]:
    """The interval; None without one, or when it is a point (lo == hi:
    a bound B sets, not a spread)."""
    if f.lo is None or f.hi is None or f.lo == f.hi:
        return None
    if f.unit in ("%", "+%"):
        return ("[%+.1f..%+.1f]" if f.unit == "+%" else "[%.1f..%.1f]") % (f.lo, f.hi)
    return "[%s..%s]" % (sig3(f.lo), sig3(f.hi))


def _get(line: Line, name: str) -> Optional[str]:
    """A placeholder's text; None when the line has no value for it."""
    if name == "outcome":
        return OUTCOME.get(line.outcome, line.outcome)
    if name == "scaling" and line.fields.get("scaling") is not None:
        return SCALING.get(str(line.fields["scaling"]), str(line.fields["scaling"]))
    base, ci = (name[:-3], True) if name.endswith("_ci") else (name, False)
    v = line.fields.get(base)
    if v is None:
        return "" if ci else None  # a figure without an interval: its value alone
    if isinstance(v, Fig):
        return (_ci(v) or "") if ci else _value(v)
    return _size(v) if base in ("chunk", "pub_batch") else str(v)


def _tab(x: str) -> str:
    """A tab pads its line to COL columns (at least one space)."""
    head, tab, tail = x.partition("\t")
    return head + " " * max(1, COL - len(head)) + tail if tab else x


def template_key(line: Line) -> str:
    """The row of TEMPLATES: "kind:outcome", else "kind:*"."""
    key = "%s:%s" % (line.kind, line.outcome)
    return key if key in TEMPLATES else "%s:*" % line.kind


def render(line: Line) -> List[str]:
    """One data line in words (1-3 lines of at most WIDTH columns)."""
    if line.kind == "trust":
        boots = line.fields["boots"]
        assert isinstance(boots, list)
        return [" " + t for t in verdict_merge.trust_lines(boots, WIDTH - 1)]
    text = None
    for alt in TEMPLATES.get(template_key(line), "(no template for %s)" % template_key(line)) \
            .split("|"):
        text = verdict_text.expand(alt, lambda name: _get(line, name))
        if text is not None and all(len(_tab(x)) <= WIDTH for x in text.split("\n")):
            break
    if text is None:
        text = "(%s: a field is missing)" % template_key(line)
    out = [_tab(re.sub(r" +(?=[;,)])", "", x)).rstrip() for x in text.split("\n")]
    return [x if len(x) <= WIDTH else x[:WIDTH - 3] + "..." for x in out]  # no template fit


def block(lines: Sequence[Line]) -> List[str]:
    """The whole block."""
    return [x for line in lines for x in render(line)]
