"""make bench's fault ratio compares like with like: the median faulting
access on both sides (hugezero access_ns, Linux touch_median_ns without
mmap), never the handler time or mmap + touch."""

import importlib.util
import os
import unittest

import hztest

spec = importlib.util.spec_from_file_location("bench", os.path.join(hztest.ROOT, "tools", "bench.py"))
bench = importlib.util.module_from_spec(spec)
spec.loader.exec_module(bench)

GIB = 1 << 30


def fault(access, service, emulated=True, size=GIB, prezeroed=False):
    return {"t": "fault", "bytes": size, "service_ns": service, "access_ns": access,
            "emulated_ring0": emulated, "prezeroed": prezeroed}


LINUX = {"t": "linux_fault", "page_bytes": GIB, "pages": 1, "repeats": 5, "min_ns": 90_000_000,
         "median_ns": 130_000_000, "mmap_ns": 20_000, "touch_min_ns": 88_000_000,
         "touch_median_ns": 120_000_000}


class FaultPair(unittest.TestCase):
    def test_access_median_against_linux_touch_median(self):
        faults = [fault(40, 30), fault(10, 5), fault(30, 20), fault(20, 15),
                  fault(999, 1, size=2 << 20)]  # a 2 MiB fault is not compared
        self.assertEqual(bench.fault_pair(faults, LINUX), (20, 4, 120_000_000, True))

    def test_prezeroed_faults_are_left_out(self):
        # run=fault times pre-zeroed faults beside the zeroing ones; Linux's
        # hugetlb fault always clears, so only the zeroing faults compare
        faults = [fault(40, 30), fault(30, 20), fault(20, 15)] + \
            [fault(1, 1, prezeroed=True) for _ in range(5)]
        self.assertEqual(bench.fault_pair(faults, LINUX), (30, 3, 120_000_000, True))

    def test_not_emulated_and_faults_without_access_time(self):
        faults = [fault(7, 5, emulated=False), fault(None, 5, emulated=False)]
        self.assertEqual(bench.fault_pair(faults, LINUX), (7, 1, 120_000_000, False))

    def test_missing_statistic_gives_no_ratio(self):
        old_linux = {k: v for k, v in LINUX.items() if not k.startswith("touch_")}
        self.assertIsNone(bench.fault_pair([fault(1, 1)], old_linux))
        self.assertIsNone(bench.fault_pair([fault(1, 1)], dict(LINUX, page_bytes=2 << 20)))
        self.assertIsNone(bench.fault_pair([dict(fault(1, 1), access_ns=None)], LINUX))
        self.assertIsNone(bench.fault_pair([fault(1, 1)], None))



class Layers(unittest.TestCase):
    def test_linux_one_layer_above(self):
        self.assertIn("one virtualization layer above hugezero: under hypervisor KVMKVMKVM",
                      bench.layers_note({"hypervisor": "KVMKVMKVM"}))
        self.assertIn("bare metal", bench.layers_note({"hypervisor": ""}))


if __name__ == "__main__":
    unittest.main()
