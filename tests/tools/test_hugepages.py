"""tools/hzlib/hugepages.py and make bench's use of it, on a fake
/proc/meminfo, /proc/mounts and /sys/kernel/mm/hugepages tree: the
reservation is computed right and the pool and mount always go back."""

import importlib.util
import io
import os
import shutil
import signal
import subprocess
import tempfile
import time
import unittest
from contextlib import redirect_stderr, redirect_stdout

import hztest
from hzlib import cli
from hzlib import hugepages as hp

spec = importlib.util.spec_from_file_location("bench",
                                              os.path.join(hztest.ROOT, "tools", "bench.py"))
assert spec is not None and spec.loader is not None
bench = importlib.util.module_from_spec(spec)
spec.loader.exec_module(bench)

G = 1 << 30


class FakeHost(hp.Host):
    """The kernel grants at most `cap` pages per pool (fragmented memory)."""
    cap = 1 << 30

    def set_nr(self, size, n):
        return super().set_nr(size, min(n, self.cap))


class Tree(unittest.TestCase):
    def setUp(self):
        self.d = tempfile.mkdtemp(prefix="hz-test-huge-")
        self.addCleanup(shutil.rmtree, self.d)
        self.pool(2 << 20, nr=10, free=4, resv=1)
        self.pool(G, nr=0, free=0, resv=0)
        self.write("meminfo",
                   "MemTotal: 24000000 kB\nHugePages_Free: 4\nHugepagesize:    2048 kB\n")
        self.write("mounts", "proc /proc proc rw 0 0\n")
        self.host = FakeHost(os.path.join(self.d, "sys"), os.path.join(self.d, "meminfo"),
                             os.path.join(self.d, "mounts"))
        self.cmds = []
        os.mkdir(os.path.join(self.d, "run"))

    def write(self, name, text):
        path = os.path.join(self.d, name)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w") as f:
            f.write(text)

    def pool(self, size, nr, free, resv):
        for name, v in (("nr_hugepages", nr), ("free_hugepages", free), ("resv_hugepages", resv)):
            self.write("sys/hugepages-%dkB/%s" % (size >> 10, name), "%d\n" % v)

    def run_cmd(self, argv, **kw):
        self.cmds.append(argv[0] if argv[0] == "umount" else " ".join(argv[:4]))
        return subprocess.CompletedProcess(argv, getattr(self, "mount_rc", 0), b"mount: busy", None)

    def nr(self, size=2 << 20):
        return self.host.read(size, "nr_hugepages")

    def reservation(self, nbytes=6 * G, **kw):
        kw.setdefault("is_root", True)
        return hp.Reservation(nbytes, host=self.host, run=self.run_cmd,
                              mount_base=os.path.join(self.d, "run"), **kw)


class Parsing(Tree):
    def test_pools_mounts_and_backing(self):
        self.assertEqual((self.host.available(2 << 20), self.host.default_size()), (3, 2 << 20))
        self.assertEqual(hp.pages_for(6 * G, 2 << 20), 3072)
        self.assertEqual(hp.pages_for(G + 1, G), 2)
        self.write("mounts", "hugetlbfs /dev/hugepages hugetlbfs rw,relatime 0 0\n"
                             "none /mnt/h1g hugetlbfs rw,pagesize=1024M 0 0\n")
        self.assertEqual(self.host.mounts(), [("/dev/hugepages", 2 << 20), ("/mnt/h1g", G)])
        with self.assertRaisesRegex(hp.HugePageError, r"^/mnt/h1g: 0 free huge pages of 1048576 KiB"
                                    r" = 0 MiB, /dev/hugepages: 3 free huge pages of 2048 KiB = "
                                    r"6 MiB, guest needs 6144 MiB"):
            hp.find_backing(6 * G, self.host)
        self.assertEqual(hp.find_backing(6 << 20, self.host), ("/dev/hugepages", 2 << 20))
        self.pool(G, nr=8, free=8, resv=0)
        self.assertEqual(hp.find_backing(6 * G, self.host), ("/mnt/h1g", G))  # 1 GiB pages first
        self.write("mounts", "")
        self.assertRaisesRegex(hp.HugePageError, "no hugetlbfs mounted",
                               hp.find_backing, G, self.host)


class Reserve(Tree):
    def test_grows_by_what_is_missing_mounts_and_gives_back(self):
        with self.reservation() as r:
            # 6 GiB = 3072 pages of 2 MiB; 3 are available (free 4 - resv 1): 3069 more.
            self.assertEqual(self.nr(), 10 + 3069)
            self.assertEqual(r.backing, "hugetlbfs 2M")
            self.assertTrue(os.path.isdir(r.mount) and r.mount.startswith(self.d))
            self.assertEqual(self.cmds, ["mount -t hugetlbfs -o"])
            self.assertEqual(r.changes,
                             ["2M pool 10 -> 3079 pages", "mounted hugetlbfs at " + r.mount])
            point = r.mount
        self.assertEqual(self.nr(), 10)
        self.assertEqual(self.cmds, ["mount -t hugetlbfs -o", "umount"])
        self.assertFalse(os.path.exists(point))
        self.assertEqual(r.problems, [])

    def test_given_back_on_exception_and_sigterm(self):
        old = signal.getsignal(signal.SIGTERM)
        with self.assertRaises(ZeroDivisionError):
            with self.reservation():
                1 / 0
        self.assertEqual((self.nr(), self.cmds), (10, ["mount -t hugetlbfs -o", "umount"]))
        with self.assertRaises(SystemExit) as e:
            with self.reservation():
                os.kill(os.getpid(), signal.SIGTERM)
                time.sleep(5)  # the handler raises SystemExit at once
        self.assertEqual(e.exception.code, 128 + signal.SIGTERM)
        self.assertEqual(self.nr(), 10)
        self.assertEqual(self.cmds[-1], "umount")
        self.assertIs(signal.getsignal(signal.SIGTERM), old)
        self.assertEqual(os.listdir(os.path.join(self.d, "run")), [])

    def test_too_few_granted_puts_the_pool_back(self):
        self.host.cap = 100
        with self.assertRaisesRegex(hp.HugePageError,
                                    "asked the kernel for 3069 more 2M huge pages, it gave 90"):
            self.reservation().__enter__()
        self.assertEqual((self.nr(), self.cmds), (10, []))

    def test_failed_mount_puts_the_pool_back(self):
        self.mount_rc = 32
        with self.assertRaisesRegex(hp.HugePageError,
                                    "mount -t hugetlbfs on .* failed: mount: busy"):
            self.reservation().__enter__()
        self.assertEqual((self.nr(), self.cmds), (10, ["mount -t hugetlbfs -o"]))
        self.assertEqual(os.listdir(os.path.join(self.d, "run")), [])

    def test_enough_already_changes_nothing(self):
        self.write("mounts", "hugetlbfs /dev/hugepages hugetlbfs rw 0 0\n")
        with self.reservation(4 << 20, is_root=False) as r:
            self.assertEqual((r.mount, r.changes), ("/dev/hugepages", []))
        self.assertEqual((self.nr(), self.cmds), (10, []))

    def test_not_root_says_what_to_run(self):
        with self.assertRaises(hp.HugePageError) as e:
            self.reservation(is_root=False).__enter__()
        pool = os.path.join(self.d, "sys", "hugepages-2048kB", "nr_hugepages")
        self.assertEqual(str(e.exception).splitlines(), [
            "not root, so no 6144 MiB of 2M huge pages; to allow it run",
            "  echo 3079 | sudo tee " + pool,
            "  sudo mkdir -p /dev/hugepages && sudo mount -t hugetlbfs -o pagesize=2M,mode=1777 "
            "none /dev/hugepages"])
        self.assertEqual((self.nr(), self.cmds), (10, []))


class Bench(Tree):
    def test_reserve_and_give_back(self):
        out = io.StringIO()
        with redirect_stdout(out):
            r = bench.reserve(6 * G, host=self.host, is_root=True, run=self.run_cmd,
                              mount_base=os.path.join(self.d, "run"))
            self.assertEqual(self.nr(), 3079)
            bench.give_back(r)
        self.assertEqual(self.nr(), 10)
        self.assertIn("bench: 2M pool 10 -> 3079 pages\n", out.getvalue())
        self.assertIn("bench: undone: 2M pool 10 -> 3079 pages\n", out.getvalue())

    def test_not_root_is_said_once_and_figures_are_marked(self):
        out = io.StringIO()
        bench.SAID.clear()
        with redirect_stdout(out):
            self.assertIsNone(bench.reserve(6 * G, host=self.host, is_root=False))
            self.assertIsNone(bench.reserve(6 * G, host=self.host, is_root=False))
        self.assertEqual(out.getvalue().count("sudo tee"), 1)
        self.assertEqual(bench.ram_note({"guest_ram": "anonymous 4K"}), "4 KiB-backed")
        self.assertEqual(bench.ram_note({"guest_ram": "anonymous 4K", "qemu_rss_bytes": 4 * G,
                                         "qemu_thp_bytes": 3 * G}),
                         "4 KiB-backed: anonymous RAM, not hugetlbfs; host THP had 75% of QEMU's "
                         "memory in 2 MiB pages")
        self.assertEqual(bench.ram_note({"guest_ram": "hugetlbfs 2M"}), "guest RAM hugetlbfs 2M")
        hl = {"loadavg_1m_start": 3.2, "loadavg_1m_end": 14.25, "busy_pct": 98.5, "steal_pct": 0.8}
        self.assertEqual(bench.boot_note({"guest_ram": "hugetlbfs 2M", "host_load": hl}),
                         "guest RAM hugetlbfs 2M; host load average 14.2, CPUs 98.5% busy, "
                         "host steal 0.80%")
        self.assertEqual(bench.boot_note({"guest_ram": "hugetlbfs 2M", "host_load": None}),
                         "guest RAM hugetlbfs 2M")


if __name__ == "__main__":
    unittest.main()


class RunAuto(Tree):
    """`hz run --hugepages auto` (make run): a pool for the run's guest RAM
    where it can have one, else the reason and 4 KiB pages."""

    def args(self, *extra, accel="kvm", mem="6G"):
        return cli.parser().parse_args(["run", "--accel", accel, "-m", mem, "--hugepages",
                                        "auto", *extra, "--", "run=none"])

    def auto(self, a, is_root=True, kvm_problem=lambda: None):
        err = io.StringIO()
        with redirect_stderr(err):
            r = cli._auto_hugepages(a, host=self.host, is_root=is_root, run=self.run_cmd,
                                    mount_base=os.path.join(self.d, "run"),
                                    kvm_problem=kvm_problem)
        return r, err.getvalue()

    def test_parsed_values(self):
        self.assertEqual(self.args().hugepages, "auto")
        plain = cli.parser().parse_args(["run", "--hugepages", "--", "run=none"])
        self.assertEqual(plain.hugepages, "yes")
        self.assertIsNone(cli.parser().parse_args(["run", "--", "run=none"]).hugepages)

    def test_root_under_kvm_grows_the_pool_and_puts_it_back(self):
        r, said = self.auto(self.args())
        self.assertIsNotNone(r)
        self.assertEqual(self.nr(), 10 + 3069)  # 6 GiB: 3072 pages, 3 available
        self.assertIn("hz: 2M pool 10 -> 3079 pages", said)
        err = io.StringIO()
        with redirect_stderr(err):
            hp.give_back(r, cli._say, cli._say)
        self.assertEqual(self.nr(), 10)
        self.assertIn("hz: undone: 2M pool 10 -> 3079 pages", err.getvalue())

    def test_not_root_says_why_and_stays_on_4k(self):
        r, said = self.auto(self.args(), is_root=False)
        self.assertIsNone(r)
        self.assertEqual(self.nr(), 10)
        self.assertTrue(said.startswith("hz: guest RAM on 4 KiB pages: not root, so no 6144 MiB"),
                        said)

    def test_tcg_and_own_backends_change_nothing(self):
        for a, kvm in ((self.args(accel="tcg"), None), (self.args(accel="auto"), "no /dev/kvm")):
            r, said = self.auto(a, kvm_problem=lambda: kvm)
            self.assertEqual((r, self.nr()), (None, 10))
            self.assertTrue(said.startswith("hz: guest RAM on 4 KiB pages: TCG"), said)
        r, said = self.auto(self.args("--qemu-arg=-object", "--qemu-arg",
                                      "memory-backend-ram,id=m0,size=3G"))
        self.assertEqual((r, self.nr()), (None, 10))
        self.assertIn("memory backends", said)
