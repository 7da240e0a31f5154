"""tools/hzlib/steal.py: one name and one figure per scope of steal time,
and "unknown" only with why."""

import unittest

import hztest  # noqa: F401  (puts tools/ on sys.path)
from hzlib import steal


class Steal(unittest.TestCase):
    def test_guest(self) -> None:
        self.assertEqual(steal.guest({"steal_pct": 0.9, "steal_method": "kvm_steal_time"}),
                         "steal 0.90% (kvm_steal_time)")
        # the trust item carries it when the summary is missing (a run cut short)
        self.assertEqual(steal.guest({}, {"steal_pct": 16.64}), "steal 16.64%")
        self.assertEqual(steal.guest({"steal_why": "no timed cell"}),
                         "steal unknown (no timed cell)")
        self.assertEqual(steal.guest(None), "steal unknown (no summary record)")
        self.assertEqual(steal.guest({}), "steal unknown (not measured in this run)")

    def test_cell_and_host(self) -> None:
        self.assertEqual(steal.cell(53.5, "rep_stosb/4K cold"),
                         "cell steal 53.50% (rep_stosb/4K cold)")
        self.assertEqual(steal.host({"steal_pct": 0.33}), "host steal 0.33%")
        self.assertEqual(steal.host(None), "host steal unknown (not sampled: hz run samples it)")


if __name__ == "__main__":
    unittest.main()
