"""What one scenario's host module gives hz: a Scenario row of the
registry (scenarios/__init__.py ALL). Every member is optional; the
callers (report.py, report_text.py, compare.py, plot.py, tools/bench.py)
walk ALL in its order and call what each row has, so no caller names a
scenario.
"""

from dataclasses import dataclass
from typing import Any, Callable, List, Optional, Sequence, Tuple

from ..schema import Record

# hz compare's rows: (label, Stat A, Stat B, higher_is_better)
Row = Tuple[str, Any, Any, bool]
# A cell type hz compare lists when one side lacks it: (record type,
# identity of a record, label of an identity)
Cell = Tuple[str, Callable[[Record], Tuple[Any, ...]], Callable[[Tuple[Any, ...]], str]]


@dataclass(frozen=True)
class BenchContext:
    """What make bench knows when it prints a scenario's boot: the boot's
    note (guest RAM backing, host load: tools/bench.py boot_note), the
    CPUs it had, the strategy the clear suite picked and the boot's
    results folder."""
    note: str
    cpus: int
    strategy: str
    folder: str


@dataclass(frozen=True)
class BenchBoot:
    """One make bench boot of the scenario (tools/bench.py, after the
    ratios): the kernel arguments given the picked strategy, the guest
    RAM (hz run -m), whether it gets every CPU bench may use (else one),
    and the summary lines of its records, heading first (a line saying
    why when they hold nothing)."""
    args: Callable[[str], List[str]]
    mem: str
    all_cpus: bool
    lines: Callable[[Sequence[Record], BenchContext], List[str]]


@dataclass(frozen=True)
class Scenario:
    """One row of the registry.

    name      the kernel's run=NAME
    types     the record types it owns (each documented in its
              scenarios/NAME/records.md and schema.TYPES, and owned by one row): its tables, plots
              and rows are where hz shows them
    sections  report.html tables: result set -> HTML ("" without records)
    text      hz report --text --full blocks: result set -> lines ([]
              without records), at most plaintext.WIDTH columns
    plots     hz plot: (result set, out folder, scratch folder, machine
              line) -> (PNG files written, messages)
    rows      hz compare: (A, B) -> [Row] of the cells on both sides
    generic   record types hz compare pairs member by member
              (compare_rows.generic_rows)
    cells     the cell types whose one-sided cells hz compare lists
    fleet     hz compare A B C...'s columns: (head, result set -> figure
              text, "-" when absent)
    bench     its make bench boot, if any
    """
    name: str
    types: Tuple[str, ...] = ()
    sections: Tuple[Callable[[Any], str], ...] = ()
    text: Tuple[Callable[[Any], List[str]], ...] = ()
    plots: Tuple[Callable[[Any, str, str, str], Tuple[List[str], List[str]]], ...] = ()
    rows: Tuple[Callable[[Any, Any], List[Row]], ...] = ()
    generic: Tuple[str, ...] = ()
    cells: Tuple[Cell, ...] = ()
    fleet: Tuple[Tuple[str, Callable[[Any], str]], ...] = ()
    bench: Optional[BenchBoot] = None
