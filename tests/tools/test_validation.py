"""tools/hzlib/validation.py: docs/validation.md's table is read whole, the
anchor follows the CPU, and hugezero's figures are the right records."""

import unittest

import hztest  # noqa: F401 (import paths)
from hzlib import validation

G = 1 << 30


def clear(chunk, median, **kw):
    r = {"t": "clear", "strategy": "rep_stosq", "cache": "cold", "threads": 1, "chunk": chunk,
         "bytes": G, "verified": True, "gbps": median * 1.3, "gbps_median": median,
         "gbps_lo": median - 0.5, "gbps_hi": median + 0.5}
    r.update(kw)
    return r


class Validation(unittest.TestCase):
    def test_table_holds_the_published_figures(self):
        pub = {(r["anchor"], r["figure"]): r["value"] for r in validation.table()}
        self.assertEqual(pub, {
            ("milan", "rep_stosq_4K"): 13.7, ("milan", "rep_stosq_2M"): 15.1,
            ("milan", "rep_stosq_1G"): 38.1, ("milan", "fault_1G_before"): 17.3,
            ("milan", "fault_1G_after"): 42.2, ("milan", "fault_1G_vol_before"): 17.1,
            ("milan", "fault_1G_vol_after"): 18.0, ("icelake", "fault_1G_before"): 8.0,
            ("icelake", "fault_1G_after"): 11.3, ("genoa", "thp_2M_hot_last"): 11.8,
            ("genoa", "thp_2M_address_order"): 23.6})

    def test_anchor_by_cpu(self):
        self.assertEqual(validation.anchor("AuthenticAMD", 0x19, 0x01), ("milan", "same CPU"))
        self.assertEqual(validation.anchor("AuthenticAMD", 0x19, 0x11),
                         ("milan", "nearest anchor, not the same CPU"))
        self.assertEqual(validation.anchor("GenuineIntel", 6, 0x8f)[0], "icelake")
        self.assertIsNone(validation.anchor("HygonGenuine", 0x18, 0)[0])

    def test_ours_takes_cold_1g_rep_stosq_medians_and_fault_median(self):
        recs = [clear(4096, 10.0), clear(2 << 20, 11.0, noisy=True),
                clear(G, 38.5, steal_high=True),
                clear(4096, 99.0, cache="warm"),             # warm: not the curve
                clear(4096, 99.0, bytes=8 << 20),            # small target
                clear(2 << 20, 99.0, strategy="rep_stosb"),  # another strategy
                {"t": "fault", "bytes": G, "service_ns": 1, "access_ns": 40_000_000},
                {"t": "fault", "bytes": G, "service_ns": 1, "access_ns": 20_000_000,
                 "emulated_ring0": True},
                {"t": "fault", "bytes": G, "service_ns": 1, "access_ns": 30_000_000},
                {"t": "fault", "bytes": 2 << 20, "service_ns": 1}] + \
               [{"t": "fault", "bytes": G, "service_ns": 1, "access_ns": 1,
                 "prezeroed": True}] * 4  # pre-zeroed faults clear nothing: left out
        got = validation.ours(recs)
        self.assertEqual(got["rep_stosq_4K"], (10.0, 9.5, 10.5, []))
        self.assertEqual(got["rep_stosq_2M"], (11.0, 10.5, 11.5, ["noisy"]))
        self.assertEqual(got["rep_stosq_1G"][3], ["steal"])
        self.assertAlmostEqual(got["fault_1G"][0], G / 30_000_000)  # access_ns, not service_ns
        self.assertEqual(got["fault_1G"][3], ["3 faults, median access_ns", "emulated-ring0"])
        old = validation.ours([{"t": "fault", "bytes": G, "service_ns": 50_000_000}])
        self.assertEqual(old["fault_1G"][3], ["1 faults, median service_ns"])
        lines = validation.report({"vendor": "AuthenticAMD", "family": 0x19, "model": 0x11}, got)
        self.assertIn("anchor milan, nearest anchor, not the same CPU", lines[0])
        self.assertIn("published milan 15.1 GB/s", lines[2])
        self.assertIn("ratio 0.73", lines[2])
        self.assertIn("noisy", lines[2])
        self.assertIn("published milan 42.2 GB/s (page at a time: 17.3)", lines[4])

    def test_missing_figures_say_so(self):
        lines = validation.report({"vendor": "GenuineIntel", "family": 6, "model": 0x6a}, {})
        self.assertIn("(no record)", lines[1])
        self.assertNotIn("published", lines[1])  # no Intel extent curve was published
        self.assertIn("published icelake 11.3 GB/s (page at a time: 8.0)", lines[4])


if __name__ == "__main__":
    unittest.main()
