"""hz run warns when build/hugezero.elf is older than a kernel source (a
stale kernel refuses options the current tools pass, e.g. backing=)."""

import contextlib
import io
import os
import tempfile
import unittest
from unittest import mock

import hztest  # noqa: F401  (puts tools/ on sys.path)
from hzlib import cli


class StaleKernel(unittest.TestCase):
    def note(self, root):
        err = io.StringIO()
        with mock.patch.object(cli, "ROOT", root), \
                mock.patch.object(cli, "BUILD", os.path.join(root, "build")), \
                contextlib.redirect_stderr(err):
            cli._stale_kernel_note()
        return err.getvalue()

    def test_newer_source_is_named_and_fresh_build_is_quiet(self):
        with tempfile.TemporaryDirectory() as root:
            for d in ("boot", "arch", "mm", "lib", "kernel", "measure", "scenarios/clear", "build"):
                os.makedirs(os.path.join(root, d))
            src = os.path.join(root, "scenarios", "clear", "run.c")
            elf = os.path.join(root, "build", "hugezero.elf")
            for p in (src, elf):
                open(p, "w").close()
            os.utime(src, (1000, 1000))
            os.utime(elf, (2000, 2000))
            self.assertEqual(self.note(root), "")
            os.utime(src, (3000, 3000))
            self.assertIn("scenarios/clear/run.c is newer than build/hugezero.elf", self.note(root))
            os.remove(elf)
            self.assertEqual(self.note(root), "")  # missing: BootConfig says so


if __name__ == "__main__":
    unittest.main()
