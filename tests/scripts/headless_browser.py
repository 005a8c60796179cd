"""A real browser for the tests of strata's HTML pages, without a driver
library: Debian's chromium, headless, spoken to over the DevTools protocol on
the pipe it opens with --remote-debugging-pipe (fd 3 in, fd 4 out, messages
NUL-terminated JSON). Records what a page did while loading: console messages,
uncaught exceptions, log entries and every network request.
"""
import base64
import fcntl
import json
import os
import subprocess
import tempfile
import time


class Browser:
    def __init__(self, executable, width=1280, height=900):
        self.profile = tempfile.mkdtemp(prefix="strata-chromium-")
        to_browser_read, self._write = os.pipe()
        self._read, from_browser_write = os.pipe()

        def wire():  # in the child: the two pipe ends where chromium expects them
            # Copied above 10 first: either end may itself be fd 3 or 4.
            inbound = fcntl.fcntl(to_browser_read, fcntl.F_DUPFD, 10)
            outbound = fcntl.fcntl(from_browser_write, fcntl.F_DUPFD, 10)
            os.dup2(inbound, 3)
            os.dup2(outbound, 4)

        # --no-sandbox: the tests run as root, where chromium's sandbox refuses to start.
        self.process = subprocess.Popen(
            [executable, "--headless", "--no-sandbox", "--disable-gpu", "--remote-debugging-pipe",
             "--no-first-run", "--disable-background-networking", "--disable-component-update",
             f"--window-size={width},{height}", f"--user-data-dir={self.profile}", "about:blank"],
            pass_fds=(3, 4), preexec_fn=wire,
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        os.close(to_browser_read)
        os.close(from_browser_write)
        self._buffer = b""
        self._next_id = 0
        self.events = []
        target = self.call("Target.createTarget", {"url": "about:blank"})["targetId"]
        self.session = self.call("Target.attachToTarget", {"targetId": target, "flatten": True})["sessionId"]
        for domain in ("Page", "Runtime", "Network", "Log"):
            self.call(domain + ".enable", session=True)
        self.call("Emulation.setDeviceMetricsOverride",
                  {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": False}, session=True)

    def _receive(self, deadline):
        while b"\0" not in self._buffer:
            if time.monotonic() > deadline:
                raise TimeoutError("chromium did not answer")
            chunk = os.read(self._read, 1 << 20)
            if not chunk:
                raise EOFError("chromium closed its pipe")
            self._buffer += chunk
        message, self._buffer = self._buffer.split(b"\0", 1)
        return json.loads(message)

    def call(self, method, params=None, session=False, timeout=60):
        self._next_id += 1
        message = {"id": self._next_id, "method": method, "params": params or {}}
        if session:
            message["sessionId"] = self.session
        os.write(self._write, json.dumps(message).encode() + b"\0")
        deadline = time.monotonic() + timeout
        while True:
            reply = self._receive(deadline)
            if reply.get("id") == self._next_id:
                if "error" in reply:
                    raise RuntimeError(f"{method}: {reply['error']}")
                return reply.get("result", {})
            self.events.append(reply)

    def load(self, path, timeout=60):
        """Opens a file; returns (seconds to the load event, the events while loading)."""
        self.events = []
        started = time.monotonic()
        self.call("Page.navigate", {"url": "file://" + os.path.abspath(path)}, session=True)
        deadline = started + timeout
        while not any(e.get("method") == "Page.loadEventFired" for e in self.events):
            self.events.append(self._receive(deadline))
        return time.monotonic() - started, list(self.events)

    def evaluate(self, expression):
        result = self.call("Runtime.evaluate", {"expression": expression, "returnByValue": True}, session=True)
        if "exceptionDetails" in result:
            raise RuntimeError(f"{expression[:80]}: {result['exceptionDetails']}")
        return result["result"].get("value")

    def screenshot(self, path):
        """The whole page, not only the window, as PNG."""
        data = self.call("Page.captureScreenshot", {"format": "png", "captureBeyondViewport": True},
                         session=True)["data"]
        with open(path, "wb") as f:
            f.write(base64.b64decode(data))

    def close(self):
        try:
            self.call("Browser.close", timeout=10)
        except Exception:
            pass
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
        subprocess.run(["rm", "-rf", self.profile])


def problems(events, page_url):
    """Console errors, uncaught exceptions, error log entries and any request
    other than the page itself: what a self-contained page must not have."""
    out = []
    for e in events:
        method, params = e.get("method"), e.get("params", {})
        if method == "Runtime.consoleAPICalled" and params.get("type") in ("error", "assert", "warning"):
            out.append(f"console {params['type']}: {params.get('args')}")
        elif method == "Runtime.exceptionThrown":
            out.append(f"exception: {params.get('exceptionDetails')}")
        elif method == "Log.entryAdded" and params.get("entry", {}).get("level") == "error":
            out.append(f"log error: {params['entry'].get('text')}")
        elif method == "Network.requestWillBeSent" and params.get("request", {}).get("url") != page_url:
            out.append(f"network request: {params['request'].get('url')}")
    return out
