"""tools/hzlib/phases.py: the phase line hz run prints at the end, from the
plan and scenario records and the host's clock around QEMU."""

import unittest

import hztest  # noqa: F401  (puts tools/ on the path)
from hzlib import phases


def recs(*scenarios):
    out = [{"t": "header"}, {"t": "plan", "kstart_ms": 900}]
    out += [{"t": "scenario", "name": n, "wall_ms": ms} for n, ms in scenarios]
    return out + [{"t": "summary"}]


class PhaseLine(unittest.TestCase):
    def test_every_phase_from_its_record(self):
        line = phases.phase_line(recs(("clear", 41200), ("fault", 8100)), 52.0, 1.2)
        self.assertEqual(line, "phases: QEMU start 1.20 s, kernel start 900 ms, clear 41.2 s, "
                               "fault 8.10 s, verdict and exit 600 ms; QEMU 52.0 s in all")

    def test_no_plan_no_line(self):
        self.assertIsNone(phases.phase_line([{"t": "header"}, {"t": "summary"}], 3.0, 1.0))
        self.assertIsNone(phases.phase_line(recs(("clear", 1000)), 3.0, None))

    def test_last_boot_only(self):
        """A capture of two boots: the second's scenarios, not the first's."""
        two = recs(("clear", 5000)) + recs(("fault", 2000))
        line = phases.phase_line(two, 10.0, 1.0)
        self.assertIn("fault 2.00 s", line)
        self.assertNotIn("clear", line)

    def test_unfinished(self):
        """No summary (QEMU timed out inside a scenario): the rest is not
        the verdict's time."""
        line = phases.phase_line(recs(("clear", 5000))[:-1], 60.0, 1.0)
        self.assertIn("clear 5.00 s, unfinished 53.1 s;", line)
        self.assertNotIn("verdict", line)

    def test_rest_never_negative(self):
        """Kernel clocks that add up to more than QEMU's time say 0 ns, not a
        negative verdict time."""
        line = phases.phase_line(recs(("clear", 9000)), 5.0, 1.0)
        self.assertIn("verdict and exit 0 ns", line)


if __name__ == "__main__":
    unittest.main()
