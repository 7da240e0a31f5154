"""hz lava-fetch: LAVA job logs read back. hzlib/lava.py's reader on
hand-made lines (YAML's escapes, the `!` tag LAVA's dumper puts on numbers,
lava-server's "- " form, a broken line named by number; test_lava.py checks
it against PyYAML on the logs of real lava-run jobs), and `hz lava-fetch`
against tests/tools/fixtures/lava-job-4242.yaml (a lava-run log of a short
`run=clear` job, in the server's "- {...}" form) served by a small HTTP
server on 127.0.0.1 that answers the two REST API v0.2 endpoints hz uses."""

import http.server
import json
import os
import shutil
import subprocess
import tempfile
import threading
import unittest

import hztest
from hzlib import lava, results


def hz(*args):
    return subprocess.run([hztest.HZ] + list(args), capture_output=True, text=True, timeout=120)


class ParseLog(unittest.TestCase):
    def test_escapes_tags_and_list_form(self):
        text = ('# a comment\n\n'
                '{"dt": "2026-01-01T00:00:00", "lvl": "target", '
                '"msg": "a\\e[0m\\x41\\N\\U0001F600\\" b"}\n'
                '- {"dt": "2026-01-01T00:00:01", "lvl": "results", '
                '"msg": {"case": "c", "measurement": ! "9.917", "n": ! "-3"}}\n'
                '{"no": "lvl"}\n')
        entries = lava.parse_log(text)
        self.assertEqual([e["lvl"] for e in entries], ["target", "results"])
        self.assertEqual(entries[0]["msg"], 'a\x1b[0mA\x85\U0001F600" b')
        self.assertEqual(entries[1]["msg"], {"case": "c", "measurement": 9.917, "n": -3})
        self.assertEqual(lava.test_cases(entries), [entries[1]["msg"]])
        self.assertEqual(lava.serial_text(entries), 'a\x1b[0mA\x85\U0001F600" b\n')

    def test_broken_line_is_named(self):
        text = '{"dt": "x", "lvl": "info", "msg": "ok"}\n{"dt": "x", "lvl": "info", "msg": "cut\n'
        with self.assertRaises(lava.LavaError) as c:
            lava.parse_log(text)
        self.assertRegex(str(c.exception), r"^job log line 2: not a LAVA log entry \([^\n]+\)$")


class _Api(http.server.BaseHTTPRequestHandler):
    """Job 42 finished, 43 still running; everything else 404. Needs the
    token when the server has one."""
    token = None
    log = b""

    def do_GET(self):
        if self.token and self.headers.get("Authorization") != "Token " + self.token:
            return self._send(401, b'{"detail":"Authentication credentials were not provided."}')
        jobs = {"42": "Finished", "43": "Running"}
        parts = self.path.split("/")  # ['', 'api', 'v0.2', 'jobs', ID, ('logs',) '']
        if parts[1:4] != ["api", "v0.2", "jobs"] or parts[4] not in jobs:
            return self._send(404, b'{"detail":"Not found."}')
        if parts[5:] == [""]:
            body = {"id": int(parts[4]), "state": jobs[parts[4]], "health": "Complete",
                    "actual_device": "qemu-01", "requested_device_type": "qemu",
                    "start_time": "2026-12-01T08:42:52Z"}
            return self._send(200, json.dumps(body).encode())
        if parts[5:] == ["logs", ""]:
            return self._send(200, self.log, "application/yaml")
        return self._send(404, b'{"detail":"Not found."}')

    def _send(self, code, body, ctype="application/json"):
        self.send_response(code)
        self.send_header("Content-Type", ctype)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args):
        pass


class LavaFetch(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        _Api.log = hztest.read_bytes("lava-job-4242.yaml")
        _Api.token = "s3cret"
        cls.srv = http.server.ThreadingHTTPServer(("127.0.0.1", 0), _Api)
        cls.url = "http://127.0.0.1:%d" % cls.srv.server_address[1]
        threading.Thread(target=cls.srv.serve_forever, daemon=True).start()

    @classmethod
    def tearDownClass(cls):
        cls.srv.shutdown()
        cls.srv.server_close()

    def test_fetch_writes_a_results_folder(self):
        with tempfile.TemporaryDirectory() as d:
            out = os.path.join(d, "node")
            p = hz("lava-fetch", "42", "--server", self.url, "--token", "s3cret", "-o", out)
            self.assertEqual(p.returncode, 0, p.stderr)
            self.assertEqual(p.stdout.strip(), out)
            rs = results.load(out)
            self.assertEqual(rs.diags, [])
            summary = rs.of_type("summary")
            self.assertEqual([(s["pass"], s["fail"], s["skip"]) for s in summary], [(6, 0, 1)])
            self.assertEqual([(r["strategy"], r["cache"]) for r in rs.of_type("clear")],
                             [("rep_stosb", "cold"), ("rep_stosb", "warm"), ("rep_stosb", "cold")])
            with open(os.path.join(out, "meta.json")) as f:
                meta = json.load(f)
            self.assertEqual((meta["lava_job_id"], meta["lava_device"], meta["status_name"]),
                             (42, "qemu-01", "pass"))
            with open(os.path.join(out, "lava-cases.jsonl")) as f:
                cases = {c["case"]: c for c in map(json.loads, f)}
            self.assertEqual(cases["clear_avx512_store"]["result"], "skip")
            self.assertEqual(cases["clear_best_gbps_4k_warm"]["units"], "GB/s")
            self.assertEqual(cases["job"]["result"], "pass")
            # The folder works with the other tools: compare against itself.
            c = hz("compare", out, out)
            self.assertEqual(c.returncode, 0, c.stderr)
            self.assertIn("clear rep_stosb chunk=4K bytes=256K cache=warm threads=1 GB/s", c.stdout)
            if shutil.which("gnuplot"):  # optional (tools/deps.sh)
                pl = hz("plot", out)
                self.assertEqual(pl.returncode, 0, pl.stderr)
                png = os.path.join(out, "clear_gbps-warm-256K.png")
                self.assertGreater(os.path.getsize(png), 0)

    def test_errors(self):
        for args, why in ((["43"], "not finished (state Running)"),
                          (["44"], "HTTP 404"),
                          (["42", "--token", "wrong"], "HTTP 401"),
                          (["x1"], "a number")):
            with self.subTest(args=args):
                argv = ["lava-fetch", args[0], "--server", self.url]
                argv += args[1:] if len(args) > 1 else ["--token", "s3cret"]
                p = hz(*argv)
                self.assertEqual(p.returncode, 2)
                self.assertIn(why, p.stderr)
        p = hz("lava-fetch", "42")
        self.assertEqual(p.returncode, 2)
        self.assertIn("--server", p.stderr)


class Fleet(unittest.TestCase):
    def test_one_row_per_machine(self):
        with tempfile.TemporaryDirectory() as d:
            outs = []
            for n in ("node7", "node8", "node9"):
                outs.append(os.path.join(d, n))
                lava.write_results(outs[-1], hztest.read_bytes("lava-job-4242.yaml").decode())
            p = hz("compare", *outs)
            self.assertEqual(p.returncode, 0, p.stderr)
            lines = p.stdout.splitlines()
            self.assertEqual(len(lines), 4)
            self.assertIn("best clear GB/s", lines[0])
            best = max(r.get("gbps_median", r["gbps"])
                       for r in results.load(outs[0]).of_type("clear"))
            for line, n in zip(lines[1:], ("node7", "node8", "node9")):
                self.assertTrue(line.startswith(os.path.join(d, n)))
                self.assertIn("pass    6/0/1", line)
                self.assertIn("%.3f" % best, line)


if __name__ == "__main__":
    unittest.main()
