"""Host huge pages: hugetlbfs-backed guest RAM (`hz run --hugepages`,
`make bench`) and the 1 GiB page of tools/linux-bench.

Linux keeps one pool per huge page size (Documentation/admin-guide/mm/
hugetlbpage.rst) in /sys/kernel/mm/hugepages/hugepages-<kB>kB/:
nr_hugepages is the pool size (root writes it; the kernel may grant fewer
pages than asked when memory is fragmented), free_hugepages the pages not in
use, resv_hugepages the free ones already promised to a mapping, so a new
user can take free - resv. A hugetlbfs mount hands out pages of one size:
its pagesize= option, else the default size (Hugepagesize in /proc/meminfo).
QEMU puts guest RAM in a file on such a mount (memory-backend-file).

Clearing guest RAM that the host backs with 4 KiB pages measures the host's
TLB misses as much as the clear, hence Reservation: as root it grows the
pool and mounts a hugetlbfs for one run, then puts both back, also when the
run fails, raises, or gets SIGINT/SIGTERM/SIGHUP.
"""

import os
import signal
import subprocess
import tempfile
import time
from typing import Callable, Optional

SYSFS = "/sys/kernel/mm/hugepages"
SZ_2M, SZ_1G = 2 << 20, 1 << 30
ANON = "anonymous 4K"  # how meta.json and the bench name ordinary guest RAM


class HugePageError(Exception):
    """No huge pages for this run; the message says why and what to run."""


def size_name(size):
    """"2M", "1G" (binary units)."""
    return "%dG" % (size >> 30) if size >= SZ_1G else "%dM" % (size >> 20)


def backing_name(size):
    """"hugetlbfs 2M" or "hugetlbfs 1G": the guest_ram member of meta.json."""
    return "hugetlbfs " + size_name(size)


def pages_for(nbytes, size):
    """Huge pages of `size` bytes that hold nbytes (rounded up)."""
    return -(-nbytes // size)


def _parse_pagesize(text):
    """Bytes in a hugetlbfs pagesize= option ("2M", "1024M", "1G", "2097152")."""
    t = text.strip().upper().rstrip("B")
    shift = {"K": 10, "M": 20, "G": 30}.get(t[-1:], 0)
    return int(t[:-1] if shift else t) << shift


class Host:
    """The host's pools and mounts; the paths are parameters so that tests
    can point them at a fake tree."""

    def __init__(self, sysfs=SYSFS, meminfo="/proc/meminfo", mounts="/proc/mounts"):
        self.sysfs, self.meminfo, self.mounts_file = sysfs, meminfo, mounts

    def pool_file(self, size, name):
        return os.path.join(self.sysfs, "hugepages-%dkB" % (size >> 10), name)

    def read(self, size, name):
        """One pool counter; 0 when this size has no pool."""
        try:
            with open(self.pool_file(size, name)) as f:
                return int(f.read().split()[0])
        except (OSError, ValueError, IndexError):
            return 0

    def has_pool(self, size):
        return os.path.exists(self.pool_file(size, "nr_hugepages"))

    def available(self, size):
        """Pages of this size a new mapping can take (free - resv)."""
        return max(0, self.read(size, "free_hugepages") - self.read(size, "resv_hugepages"))

    def set_nr(self, size, n):
        """Ask for a pool of n pages; returns the pool size the kernel granted."""
        with open(self.pool_file(size, "nr_hugepages"), "w") as f:
            f.write("%d\n" % n)
        return self.read(size, "nr_hugepages")

    def default_size(self):
        """Hugepagesize from /proc/meminfo in bytes, 0 if absent."""
        try:
            with open(self.meminfo) as f:
                for line in f:
                    if line.startswith("Hugepagesize:"):
                        return int(line.split()[1]) << 10
        except (OSError, ValueError, IndexError):
            pass
        return 0

    def mounts(self):
        """[(mount point, page size in bytes)] of every hugetlbfs."""
        out = []
        try:
            with open(self.mounts_file) as f:
                for line in f:
                    parts = line.split()
                    if len(parts) > 3 and parts[2] == "hugetlbfs":
                        opts = dict(o.partition("=")[::2] for o in parts[3].split(","))
                        size = (_parse_pagesize(opts["pagesize"]) if opts.get("pagesize")
                                else self.default_size())
                        out.append((parts[1], size))
        except OSError:
            pass
        return out

    def mount_for(self, size):
        return next((m for m, s in self.mounts() if s == size), None)


def find_backing(nbytes, host=None):
    """(mount point, page size) of a hugetlbfs whose pool has room for
    nbytes of guest RAM, 1 GiB pages first; HugePageError with the numbers
    when there is none."""
    host = host or Host()
    mounts = sorted(host.mounts(), key=lambda m: -m[1])
    if not mounts:
        raise HugePageError("no hugetlbfs mounted (mount -t hugetlbfs none /dev/hugepages)")
    for path, size in mounts:
        if size and host.available(size) >= pages_for(nbytes, size):
            return path, size
    have = ", ".join("%s: %d free huge pages of %d KiB = %d MiB" % (
        p, host.available(s), s >> 10, (host.available(s) * s) >> 20) for p, s in mounts)
    raise HugePageError("%s, guest needs %d MiB (echo N > /proc/sys/vm/nr_hugepages)"
                        % (have, nbytes >> 20))


class Reservation:
    """`with Reservation(nbytes) as r:` huge pages for nbytes during the
    block. r.backing names them ("hugetlbfs 2M"); r.changes lists what was
    changed (and is put back on exit). Uses pages already free on a mounted
    hugetlbfs when there are enough; otherwise, as root, grows the `size`
    pool by what is missing and, when mount=True and none is mounted, mounts
    a hugetlbfs in a new folder under /run. Not root or too few pages
    granted: HugePageError saying exactly what to run. run and is_root are
    parameters for tests (subprocess.run, euid 0)."""

    def __init__(self, nbytes, size=SZ_2M, mount=True, host=None, run=subprocess.run,
                 is_root=None, mount_base="/run"):
        self.nbytes, self.size, self.want_mount = nbytes, size, mount
        self.host, self.run = host or Host(), run
        self.is_root = os.geteuid() == 0 if is_root is None else is_root
        self.mount_base = mount_base
        self.saved_nr = self.mounted = self.made_dir = None
        self.changes, self.problems, self._handlers = [], [], {}
        self.mount = None

    @property
    def backing(self):
        return backing_name(self.size)

    def commands(self, missing):
        """Shell commands that would let this run have its pages."""
        pool = self.host.pool_file(self.size, "nr_hugepages")
        cmds = ["echo %d | sudo tee %s" % (self.host.read(self.size, "nr_hugepages") + missing,
                                           pool)] if missing > 0 else []
        if self.want_mount and not self.host.mount_for(self.size):
            cmds.append("sudo mkdir -p /dev/hugepages && sudo mount -t hugetlbfs -o "
                        "pagesize=%s,mode=1777 none /dev/hugepages" % size_name(self.size))
        return cmds

    def __enter__(self):
        if not self.host.has_pool(self.size):
            raise HugePageError("this kernel has no %s huge page pool (%s)" % (
                size_name(self.size), os.path.dirname(self.host.pool_file(self.size, "x"))))
        need = pages_for(self.nbytes, self.size)
        missing = need - self.host.available(self.size)
        self.mount = self.host.mount_for(self.size) if self.want_mount else None
        if missing <= 0 and (self.mount or not self.want_mount):
            return self
        if not self.is_root:
            raise HugePageError("not root, so no %d MiB of %s huge pages; to allow it run\n  %s"
                                % (self.nbytes >> 20, size_name(self.size),
                                   "\n  ".join(self.commands(missing))))
        self._catch_signals()
        try:
            if missing > 0:
                self.saved_nr = self.host.read(self.size, "nr_hugepages")
                got = self.host.set_nr(self.size, self.saved_nr + missing)
                self.changes.append("%s pool %d -> %d pages" % (size_name(self.size),
                                                                self.saved_nr, got))
                if got < self.saved_nr + missing:
                    raise HugePageError("asked the kernel for %d more %s huge pages, it gave %d "
                                        "(memory too fragmented or too little free)"
                                        % (missing, size_name(self.size), got - self.saved_nr))
            if self.want_mount and not self.mount:
                point = self.made_dir = tempfile.mkdtemp(prefix="hugezero-hugetlbfs-",
                                                         dir=self.mount_base)
                p = self.run(["mount", "-t", "hugetlbfs", "-o", "pagesize=" + size_name(self.size),
                              "hugezero", point], stdout=subprocess.PIPE,
                             stderr=subprocess.STDOUT)
                if p.returncode != 0:
                    said = (p.stdout or b"").decode(errors="replace").strip()
                    raise HugePageError("mount -t hugetlbfs on %s failed: %s" % (point, said))
                self.mount = self.mounted = point
                self.changes.append("mounted hugetlbfs at " + point)
        except BaseException:
            self.give_back()
            raise
        return self

    def __exit__(self, *exc):
        self.give_back()
        return False

    def _catch_signals(self):
        """SIGTERM and SIGHUP raise SystemExit (SIGINT already raises
        KeyboardInterrupt), so that give_back() runs. Main thread only."""
        def stop(signum, frame):
            raise SystemExit(128 + signum)
        for sig in (signal.SIGTERM, signal.SIGHUP):
            try:
                self._handlers[sig] = signal.signal(sig, stop)
            except ValueError:  # not the main thread: the caller's handlers stay
                pass

    def give_back(self):
        """Unmount what we mounted and put the pool back; idempotent.
        Problems go to self.problems (and stderr by the caller)."""
        if self.mounted:
            for attempt in range(20):  # a QEMU that was just killed may still hold the mount
                p = self.run(["umount", self.mounted], stdout=subprocess.PIPE,
                             stderr=subprocess.STDOUT)
                if p.returncode == 0:
                    break
                time.sleep(0.25)
            else:
                self.problems.append("umount %s failed: %s; run it by hand" % (
                    self.mounted, (p.stdout or b"").decode(errors="replace").strip()))
            self.mounted = None
        if self.made_dir:
            try:
                os.rmdir(self.made_dir)
            except OSError as e:
                self.problems.append("could not remove %s: %s" % (self.made_dir, e.strerror))
            self.made_dir = None
        if self.saved_nr is not None:
            try:
                self.host.set_nr(self.size, self.saved_nr)
            except OSError as e:
                self.problems.append("could not put the %s pool back to %d pages: %s" % (
                    size_name(self.size), self.saved_nr, e))
            self.saved_nr = None
        for sig, old in self._handlers.items():
            signal.signal(sig, old)
        self._handlers = {}


def reserve(nbytes: int, say: Callable[[str], None], why: Optional[Callable[[str], None]] = None,
            size: int = SZ_2M, mount: bool = True, host: "Optional[Host]" = None,
            is_root: Optional[bool] = None, run=subprocess.run,
            mount_base: str = "/run") -> "Optional[Reservation]":
    """A Reservation entered for nbytes, each change it made told to say(),
    or None after telling why(text) (say when not given) why there is none
    and what to run. Pages already free on a hugetlbfs of any size are used
    as they are. The caller gives it back with give_back()."""
    host = host or Host()
    if mount:
        try:  # enough already free: the Reservation below then changes nothing
            size = find_backing(nbytes, host)[1]
        except HugePageError:
            pass
    r = Reservation(nbytes, size, mount, host, run, is_root, mount_base)
    try:
        r.__enter__()
    except HugePageError as e:
        (why or say)(str(e))
        return None
    for c in r.changes:
        say(c)
    return r


def give_back(r: "Optional[Reservation]", say: Callable[[str], None],
              warn: Callable[[str], None]) -> None:
    """Put back what reserve() changed (nothing for None): say("undone:
    ...") for each change (the change as reserve() said it: "2M pool 0 ->
    2048 pages" is now back at 0), warn(problem) for what could not be
    undone."""
    if r:
        r.give_back()
        for c in r.changes:
            say("undone: " + c)
        for p in r.problems:
            warn(p)
