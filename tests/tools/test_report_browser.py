"""hz report in a real browser: headless Chromium (Debian package chromium,
which tools/deps.sh --test installs) opens report.html of the fixture result
set with verdict records, driven over the DevTools protocol on a pipe
(--remote-debugging-pipe: NUL-terminated JSON on fds 3 and 4, stdlib only).
Every capture waits until the page is built (document.readyState is
"complete") and document.fonts.ready has resolved. Asserts that the page
rendered: the verdict heading and sentences are strings of the layout tree
with a non-empty box (DOMSnapshot: text laid out, not only present in the
DOM), the screenshot has the window's size, the verdict sentences are in the
DOM, and the PDF has more than one page. A report whose text is not laid out
fails the same check (test_unrendered_text_is_caught)."""

import base64
import fcntl
import html
import json
import os
import re
import select
import shutil
import subprocess
import tempfile
import time
import unittest

import hztest
from hzlib import plot, report, results, verdict_text

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
WIDTH, HEIGHT = 1200, 1600
HEADING = "Verdict: how this machine should zero memory"

# Resolves once the page is built and its fonts are loaded.
READY = ("new Promise(done => { const poll = () => document.readyState === 'complete'"
         " ? document.fonts.ready.then(() => done(document.fonts.status)) : setTimeout(poll, 20);"
         " poll(); })")


def chromium_argv(profile):
    """--no-sandbox only as root, where Chromium refuses to start without it."""
    sandbox = ["--no-sandbox"] if os.geteuid() == 0 else []
    return [CHROMIUM, "--headless", "--disable-gpu", "--hide-scrollbars", "--no-first-run",
            "--disable-dev-shm-usage", "--remote-debugging-pipe",
            "--user-data-dir=" + profile] + sandbox


class DevTools:
    """One headless Chromium and one page target, over the protocol pipe."""

    def __init__(self, profile, timeout=90):
        self.deadline = time.monotonic() + timeout
        to_chrome, self.wr = os.pipe()
        self.rd, from_chrome = os.pipe()
        # Chromium reads commands on fd 3 and writes replies and events on fd 4; the
        # child's ends are first moved above 10 so that the dup2s cannot clobber them.
        hi = [fcntl.fcntl(fd, fcntl.F_DUPFD_CLOEXEC, 10) for fd in (to_chrome, from_chrome)]
        for fd in (to_chrome, from_chrome):
            os.close(fd)
        self.proc = subprocess.Popen(
            chromium_argv(profile), stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE, pass_fds=(3, 4),
            preexec_fn=lambda: (os.dup2(hi[0], 3), os.dup2(hi[1], 4)))
        for fd in hi:
            os.close(fd)
        self.buf, self.next_id, self.session = b"", 0, None
        target = self.call("Target.createTarget", url="about:blank")["targetId"]
        self.session = self.call("Target.attachToTarget", targetId=target,
                                 flatten=True)["sessionId"]

    def call(self, method, **params):
        self.next_id += 1
        msg = {"id": self.next_id, "method": method, "params": params}
        if self.session and not method.startswith("Target."):
            msg["sessionId"] = self.session
        os.write(self.wr, json.dumps(msg).encode() + b"\0")
        while True:
            while b"\0" not in self.buf:
                left = self.deadline - time.monotonic()
                if left <= 0 or not select.select([self.rd], [], [], left)[0]:
                    raise AssertionError("chromium: no answer to %s" % method)
                data = os.read(self.rd, 1 << 20)
                if not data:
                    raise AssertionError("chromium exited: %s" % self.proc.stderr.read()
                                         .decode(errors="replace")[-2000:])
                self.buf += data
            raw, self.buf = self.buf.split(b"\0", 1)
            reply = json.loads(raw)
            if reply.get("id") == self.next_id:
                if "error" in reply:
                    raise AssertionError("chromium: %s: %s" % (method, reply["error"]))
                return reply["result"]

    def evaluate(self, expr):
        r = self.call("Runtime.evaluate", expression=expr, awaitPromise=True, returnByValue=True)
        if "exceptionDetails" in r:
            raise AssertionError("chromium: %s: %s" % (expr, r["exceptionDetails"]))
        return r["result"].get("value")

    def open(self, url):
        """Load url at WIDTH x HEIGHT and wait for READY; the fonts' status."""
        self.call("Emulation.setDeviceMetricsOverride", width=WIDTH, height=HEIGHT,
                  deviceScaleFactor=1, mobile=False)
        self.call("Page.enable")
        self.call("Page.navigate", url=url)
        return self.evaluate(READY)

    def laid_out_text(self):
        """Every text string of the layout tree whose box is not empty."""
        snap = self.call("DOMSnapshot.captureSnapshot", computedStyles=[])
        strings, out = snap["strings"], set()
        for doc in snap["documents"]:
            lay = doc["layout"]
            for idx, box in zip(lay["text"], lay["bounds"]):
                if idx >= 0 and box[2] > 0 and box[3] > 0:
                    out.add(strings[idx].strip())
        return out

    def close(self):
        try:
            self.call("Browser.close")
        except AssertionError:
            pass
        try:
            self.proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        self.proc.stderr.close()
        os.close(self.wr)
        os.close(self.rd)


@unittest.skipUnless(CHROMIUM, "chromium not installed (Debian package chromium; "
                               "tools/deps.sh --test installs it)")
class Browser(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.mkdtemp(prefix="hz-test-browser-")
        cls.rs = results.load(hztest.fixture("results-verdict"))
        cls.page = os.path.join(cls.tmp, "report.html")
        report.write(cls.rs, cls.page)
        cls.cdp = DevTools(os.path.join(cls.tmp, "profile"))
        cls.fonts = cls.cdp.open("file://" + cls.page)
        cls.text = cls.cdp.laid_out_text()
        cls.dom = cls.cdp.evaluate("document.documentElement.outerHTML")
        cls.shot = os.path.join(cls.tmp, "shot.png")
        with open(cls.shot, "wb") as f:
            f.write(base64.b64decode(cls.cdp.call("Page.captureScreenshot", format="png")["data"]))
        cls.pdf = base64.b64decode(cls.cdp.call("Page.printToPDF", displayHeaderFooter=False)
                                   ["data"])

    @classmethod
    def tearDownClass(cls):
        cls.cdp.close()
        shutil.rmtree(cls.tmp)

    def test_waited_for_the_fonts(self):
        self.assertEqual(self.fonts, "loaded")

    def test_verdict_text_is_laid_out(self):
        self.assertIn(HEADING, self.text)
        for r in self.rs.of_type("verdict"):
            shown = verdict_text.item_text(r)
            self.assertTrue(any(shown in t for t in self.text), r["item"])

    def test_unrendered_text_is_caught(self):
        # The same report with its text not laid out (as when a stylesheet or a font fails):
        # the DOM still holds the heading, the layout tree does not.
        with open(self.page) as f:
            broken = f.read().replace("</head>", "<style>h2 { display: none }</style></head>", 1)
        path = os.path.join(self.tmp, "broken.html")
        with open(path, "w") as f:
            f.write(broken)
        self.cdp.open("file://" + path)
        self.assertNotIn(HEADING, self.cdp.laid_out_text())
        self.assertIn(HEADING, self.cdp.evaluate("document.body.textContent"))

    def test_screenshot_has_the_window_size(self):
        self.assertEqual(hztest.png_size(self.shot), (WIDTH, HEIGHT))

    def test_verdict_text_in_the_dom(self):
        self.assertIn('<h2 id="verdict">%s</h2>' % HEADING, self.dom)
        for r in self.rs.of_type("verdict"):
            shown = verdict_text.item_text(r)
            self.assertIn(html.escape(shown, quote=False), self.dom, r["item"])
        self.assertLess(self.dom.index("Verdict: how"), self.dom.index("Clear cells"))

    @unittest.skipUnless(plot.terminal(), "gnuplot with a png terminal is not installed")
    def test_plots_are_in_the_dom_as_data_uris(self):
        self.assertEqual(len(re.findall(r'<img src="data:image/png;base64,', self.dom)), 5)

    def test_prints_to_a_several_page_pdf(self):
        self.assertTrue(self.pdf.startswith(b"%PDF-"))
        self.assertGreater(len(re.findall(rb"/Type\s*/Page(?!s)", self.pdf)), 2)

    def test_sandbox_off_only_as_root(self):
        argv = chromium_argv("/p")
        self.assertEqual("--no-sandbox" in argv, os.geteuid() == 0)


if __name__ == "__main__":
    unittest.main()
