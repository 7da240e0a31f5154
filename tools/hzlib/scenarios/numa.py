"""run=numa's host side: the record types it owns (`numa_clear`,
`numa_ratio`, scenarios/numa/records.md). hz has no table or plot of them yet: they
reach records.jsonl and summary.csv whole."""

from .base import Scenario

SCENARIO = Scenario("numa", types=("numa_clear", "numa_ratio"))
