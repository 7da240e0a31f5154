"""The record schema the host tools read (docs/results.md and each
scenario's scenarios/NAME/records.md are the contract).

TYPES holds every record type docs/results.md and the shipped scenarios'
records.md name (a `### type` section; a new scenario's types need a row
only once hz names their members) and, for each, the members hz names: `key`, the identity hz
compare pairs two runs' cells by (and hz report groups by), and `values`,
the other members parse, compare and report read by name. A record's
envelope (`t`, `v`, `seq`, `trunc`) is ENVELOPE; hz adds `run` (which boot
of a capture, results.py) and, for LAVA job logs, nothing more.

Members that no tool names are not listed: readers ignore unknown members
(docs/results.md "Record lines"), records pass through to records.jsonl
and summary.csv whole, and a second list of the ~420 documented members
that nothing reads would only drift. tests/tools/test_schema.py checks both
directions for the types, and that every member listed here is documented
in its type's section.
"""

import json
from dataclasses import dataclass
from typing import Any, Dict, Iterable, Mapping, Tuple

Record = Dict[str, Any]  # one record, as json.loads gives it
ENVELOPE = ("t", "v", "seq", "trunc")
RUN = "run"  # added by hz: which boot of a capture (0, 1, ...)


@dataclass(frozen=True)
class RecordType:
    name: str
    key: Tuple[str, ...] = ()
    values: Tuple[str, ...] = ()

    @property
    def members(self) -> Tuple[str, ...]:
        return self.key + self.values


_FLAGS = ("noisy", "steal_high", "cache_verified", "verified")  # compare_stat.record_flags
_GBPS_CI = ("gbps", "gbps_lo", "gbps_hi")

TYPES: Dict[str, RecordType] = {t.name: t for t in (
    RecordType("header", values=("cmdline", "boot", "cpu", "hypervisor", "tcg", "cache",
                                 "backing", "version", "commit")),
    RecordType("summary", values=("pass", "fail", "skip", "status", "status_name", "records",
                                  "crc32")),
    RecordType("pass", values=("name",)),
    RecordType("fail", values=("name", "reason")),
    RecordType("skip", values=("name", "reason")),
    RecordType("config", values=("option", "error")),
    RecordType("crash"),
    RecordType("registry"),
    RecordType("memmap"),
    RecordType("plan"),
    RecordType("scenario", values=("name", "wall_ms", "timed_ms", "duty_pct", "plan_ms")),
    RecordType("plan_check"),
    RecordType("verdict", values=("item", "label", "form", "decided", "answer", "figure", "unit",
                                  "lo", "hi", "ratio", "ratio_lo", "ratio_hi", "n_min", "n_max",
                                  "outcome", "reason", "args", "templates")),
    RecordType("compare", values=("item", "a", "b", "ratio", "lo", "hi", "outcome")),
    RecordType("progress", values=("phase", "pct", "eta_s")),
    RecordType("tsc", values=("reliable", "source")),
    RecordType("pmu"),
    RecordType("measure", values=("cpl", "emulated_ring0")),
    RecordType("module"),
    RecordType("maxphyaddr"),
    RecordType("vm"),
    RecordType("frame"),
    RecordType("frame_reject"),
    RecordType("prezero", values=("workload", "policy", "lat_p50_ns", "verified")),
    RecordType("faultclear", key=("bytes", "model", "strategy"),
               values=_GBPS_CI + ("cv_pct", "n", "noisy", "steal_high", "verified")),
    RecordType("faultclear_run"),
    RecordType("faultclear_gain", key=("bytes", "strategy"), values=("gain", "gain_lo", "gain_hi")),
    RecordType("vmstart", key=("policy", "threads", "bytes", "strategy"),
               values=_GBPS_CI + ("cv_pct", "repeats", "noisy", "verified")),
    RecordType("vmstart_knee"),
    RecordType("vmstart_cost", values=("policy", "prezero_ns", "prezero_cpu_ns", "map_ns",
                                       "map_ci_lo_ns", "map_ci_hi_ns", "threads")),
    RecordType("vmstart_model", values=("kind", "policy", "fault_clear", "vm_bytes_text",
                                        "per_thread_gbps", "ceiling_gbps", "ceiling_source",
                                        "plateau", "model_ns", "lower_bound", "threads")),
    RecordType("interference", key=("zeroer", "strategy", "chunk", "rate_pct", "victim"),
               values=("value", "value_lo", "value_hi", "metric", "cv_pct", "rounds",
                       "zeroer_gbps", "slowdown_pct", "slowdown_lo_pct", "slowdown_hi_pct",
                       "noisy", "outcome", "victim_class", "achieved_pct", "rate_miss",
                       "cpu_ms_per_gib")),
    RecordType("interference_peak"),
    RecordType("interference_host", values=("can_answer", "reason", "victim", "slowdown_pct",
                                            "llc_resident", "action", "elapsed_ms")),
    RecordType("interference_residency", key=("victim",),
               values=("ns_per_access", "class", "intended", "reference")),
    RecordType("interference_rank", key=("victim", "a", "b"),
               values=("ratio", "ratio_lo", "ratio_hi", "outcome")),
    RecordType("fault", key=("workload", "policy", "bytes"),
               values=("service_ns", "clear_ns", "fault_clear", "fault_path")),
    RecordType("clear", key=("strategy", "chunk", "bytes", "cache", "threads"),
               values=("gbps_median",) + _GBPS_CI + ("min_ns", "max_ns", "cv_pct", "repeats",
                                                     "samples_ns") + _FLAGS),
    RecordType("clear_run"),
    RecordType("time_lost"),
    RecordType("control"),
    RecordType("clear_samples"),
    RecordType("linux_fault"),
    RecordType("cpu"),
    RecordType("smp"),
    RecordType("park"),
    RecordType("steal"),
    RecordType("smp_scale"),
    RecordType("smp_peak"),
    RecordType("smp_fill", values=("s_per_tib", "threads", "verified")),
    RecordType("smp_rounds"),
    RecordType("numa"),
    RecordType("numa_range"),
    RecordType("numa_clear"),
    RecordType("numa_ratio"),
    RecordType("fault_numa"),
)}

# hz compare's cells: the types it pairs by identity (TYPES[t].key).
CLEAR_KEY = TYPES["clear"].key
FAULT_KEY = TYPES["fault"].key
VMSTART_KEY = TYPES["vmstart"].key
INTERFERENCE_KEY = TYPES["interference"].key
# Types compared member by member (a scenario's `generic` types,
# tools/hzlib/scenarios/): a record's identity is its string members and the
# sizes below; its figures every member with one of the suffixes.
GENERIC_VALUE_SUFFIXES = ("_ns", "_cyc", "gbps", "gbps_median", "cpb", "_pct")
# Members of generic records that are settings or constants, not measured:
# hz compare gives them no row (the option or model constant, equal by design).
GENERIC_SETTINGS = ("tol_pct", "lead_idle_ns", "claim_min_ns")
GENERIC_KEY_INTS = ("chunk", "bytes", "threads", "cpu", "node", "order", "pages",
                    "frame_bytes", "chunk_bytes")
# Members that count a record's samples (compare_stat.sample_count).
SAMPLE_COUNTS = ("repeats", "n", "lat_n", "faults")
# The `clear` record members (scenarios/clear/records.md), in CSV column order.
CLEAR_COLUMNS = ["strategy", "chunk", "bytes", "cache", "threads", "repeats",
                 "min_ns", "median_ns", "max_ns", "gbps", "gbps_median", "cpb",
                 "cv_pct", "verified", "source", "ci_lo_ns", "ci_hi_ns", "ci_pct",
                 "gbps_lo", "gbps_hi", "noisy", "steal_pct", "steal_high", "cache_verified"]
# Not rows of summary.csv (results.write_records): one-off or live-only.
CSV_SKIP_TYPES = ("header", "progress")


def key(r: Mapping[str, Any], names: Iterable[str]) -> Tuple[Any, ...]:
    """The members `names` of r as a hashable tuple (objects as JSON text)."""
    return tuple(v if v is None or isinstance(v, (str, int, float)) else
                 json.dumps(v, sort_keys=True) for v in (r.get(k) for k in names))
