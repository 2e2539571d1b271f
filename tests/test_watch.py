"""`rulesdsl watch`: an edit to a ruleset shows on the live preview in a real headless browser.

The browser is Debian's chromium, driven over the DevTools protocol on a pipe (fds 3 and 4),
so the test needs nothing beyond the standard library. .ci/run installs chromium.
"""

from __future__ import annotations

import ctypes
import json
import os
import shutil
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import IO, Any

import pytest

from dev import chromium_cost
from tests.conftest import RULESETS

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
TIMEOUT = 30.0
VIEWPORT = {"width": 780, "height": 493}
"""A headless window's tab's size (800 x 600 less the window's toolbars): :meth:`Browser.open`'s
tabs have it."""


class Browser:
    """Headless chromium, spoken to with the DevTools protocol over --remote-debugging-pipe."""

    def __init__(self, profile: Path) -> None:
        assert CHROMIUM is not None
        to_browser_r, self._to_browser = os.pipe()
        self._from_browser, from_browser_w = os.pipe()

        def fds() -> None:  # the browser reads commands on fd 3 and writes replies on fd 4
            # dup first: a pipe end may already be fd 3 or 4, and dup2 onto itself would
            # leave it close-on-exec.
            read_end, write_end = os.dup(to_browser_r), os.dup(from_browser_w)
            os.dup2(read_end, 3)
            os.dup2(write_end, 4)

        self.process = subprocess.Popen(
            [
                CHROMIUM,
                "--headless",
                "--no-sandbox",
                "--disable-gpu",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
                "--no-first-run",
                "--disable-dev-shm-usage",
                # No omnibox popup pages (WebUI, preloaded in a renderer of their own: about
                # 0.5 s of CPU a browser start, and some at each page load).
                "--disable-features=WebUIOmniboxPopup,WebUIOmniboxAimPopup",
                f"--user-data-dir={profile}",
                "--remote-debugging-pipe",
                "about:blank",
            ],
            preexec_fn=fds,
            pass_fds=(3, 4),
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        os.close(to_browser_r)
        os.close(from_browser_w)
        self._buffer = b""
        self._next = 0
        self.session: str | None = None
        self.target = ""

    def call(self, method: str, session: bool = True, **params: Any) -> dict[str, Any]:
        self._next += 1
        message: dict[str, Any] = {"id": self._next, "method": method, "params": params}
        if session and self.session:
            message["sessionId"] = self.session
        os.write(self._to_browser, json.dumps(message).encode() + b"\0")
        while True:
            while b"\0" not in self._buffer:
                chunk = os.read(self._from_browser, 65536)
                if not chunk:
                    raise RuntimeError("the browser closed its pipe")
                self._buffer += chunk
            raw, self._buffer = self._buffer.split(b"\0", 1)
            reply = json.loads(raw)
            if reply.get("id") == self._next:
                if "error" in reply:
                    raise RuntimeError(reply["error"])
                result: dict[str, Any] = reply["result"]
                return result

    def open(self, url: str) -> None:
        """A new tab at ``url``; calls go to it from now on (:meth:`close_tab` closes it).

        The tab is a hidden target, out of the window's tab strip: the browser then redraws
        and composites no tab strip, address bar or loading animation for each page the tests
        load, and the GPU process no frame (20 loads of bundled web pages: 1.9 s of the
        browser's CPU instead of 3.3 s, the browser process 0.36 s instead of 1.05 s). Such
        a tab has no window to size it, so it is given a headless window's tab's
        (:data:`VIEWPORT`) and the focus a window's tab has: the page sees the same visible,
        focused document of the same size, laid out and hit-tested the same."""
        self.target = self.call(
            "Target.createTarget", session=False, url="about:blank", hidden=True
        )["targetId"]
        self.session = self.call(
            "Target.attachToTarget", session=False, targetId=self.target, flatten=True
        )["sessionId"]
        self.call(
            "Emulation.setDeviceMetricsOverride", deviceScaleFactor=1, mobile=False, **VIEWPORT
        )
        self.call("Emulation.setFocusEmulationEnabled", enabled=True)
        if url != "about:blank":
            self.call("Page.navigate", url=url)

    def close_tab(self) -> None:
        self.call("Target.closeTarget", session=False, targetId=self.target)
        self.session = None

    def text(self, expression: str) -> str:
        result = self.call("Runtime.evaluate", expression=expression, returnByValue=True)
        return str(result["result"].get("value", ""))

    def wait_for(self, expression: str, wanted: str, every: float = 0.01) -> str:
        """The text of ``expression`` once it holds ``wanted``, asked every ``every``
        seconds until :data:`TIMEOUT` (10 ms: a page loads and shows an answer within tens of
        milliseconds, so most of each wait of 100 ms was idle, and the 34 sheets of
        tests/test_print_preview.py are each a wait)."""
        deadline = time.monotonic() + TIMEOUT
        seen = ""
        while time.monotonic() < deadline:
            seen = self.text(expression)
            if wanted in seen:
                return seen
            time.sleep(every)
        raise AssertionError(f"{wanted!r} never showed; last seen: {seen[:500]!r}")

    def close(self) -> None:
        """Stops the browser and reaps every process it started (:func:`reaped`), so that their
        CPU is counted in this process's children's (and a whole run's /usr/bin/time)."""
        with reaped(self.process.pid):
            self.process.terminate()
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:  # pragma: no cover
                self.process.kill()
                self.process.wait()
        os.close(self._to_browser)
        os.close(self._from_browser)


PR_SET_CHILD_SUBREAPER = 36


@contextmanager
def reaped(browser: int) -> Iterator[None]:
    """Reaps the processes under ``browser`` once it has exited in the block. Its renderers,
    GPU and utility processes are not this process's children: the browser's zygotes fork and
    reap them, and outlive the browser, so no one here reaped them and a suite run's figures
    missed their CPU (32 s in README's command). While the block runs, this process is the
    subreaper of its descendants (Linux's prctl PR_SET_CHILD_SUBREAPER): what the browser
    leaves becomes its children, each waited for here (up to :data:`TIMEOUT`). Fails unless
    this process's children's CPU then holds all the tree's, as read before the block."""
    table = chromium_cost.processes()
    started = chromium_cost.tree(browser, table)
    seen = sum(table[pid][2] for pid in started if pid in table)
    before = os.times()
    libc = ctypes.CDLL(None, use_errno=True)
    libc.prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0)
    try:
        yield
        deadline = time.monotonic() + TIMEOUT
        left = set(started[1:])
        while left and time.monotonic() < deadline:
            for pid in sorted(left):
                try:
                    if os.waitpid(pid, os.WNOHANG)[0] == pid:
                        left.discard(pid)
                except ChildProcessError:  # not this process's child: reaped, or not yet orphaned
                    if not os.path.exists(f"/proc/{pid}"):
                        left.discard(pid)
            time.sleep(0.01 if left else 0)
    finally:
        libc.prctl(PR_SET_CHILD_SUBREAPER, 0, 0, 0, 0)
    after = os.times()
    counted = after.children_user + after.children_system
    counted -= before.children_user + before.children_system
    # /proc counts each process's CPU in clock ticks: a tick's difference a process
    assert counted >= seen - 0.01 * len(started), (
        f"the browser's processes used {seen:.2f} s, {counted:.2f} s counted"
    )


def read_until(stream: IO[str], wanted: str) -> str:
    lines = []
    for line in stream:
        lines.append(line)
        if wanted in line:
            return line
    raise AssertionError("".join(lines))


@pytest.fixture
def watching(tmp_path: Path) -> Iterator[tuple[Path, str, IO[str]]]:
    folder = tmp_path / "rulesets"
    folder.mkdir()
    shutil.copy(RULESETS / "heavy_gear.terrain", folder)
    shutil.copy(RULESETS / "heavy_gear_house.terrain", folder)
    process = subprocess.Popen(
        [sys.executable, "-m", "rulesdsl", "watch", "--rulesets", str(folder), "--port", "0"],
        stderr=subprocess.PIPE,
        text=True,
    )
    assert process.stderr is not None
    try:
        line = read_until(process.stderr, "preview: ")
        url = line.split("preview: ", 1)[1].split()[0]
        yield folder, url, process.stderr
    finally:
        process.terminate()
        process.wait(10)


LIVE = pytest.mark.xdist_group("watch-live")
"""The two live-preview tests: on one worker, so that they share its :func:`chromium`."""


@pytest.fixture(scope="module")
def chromium(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Browser]:
    """One headless Chromium for the module's two live-preview tests (each in a tab of its
    own, closed after it): one start (about 1.5 s of wall, 0.5 s of CPU) instead of two."""
    if CHROMIUM is None:
        pytest.skip("chromium is not installed (.ci/run installs it)")
    browser = Browser(tmp_path_factory.mktemp("profile"))
    try:
        yield browser
    finally:
        browser.close()


@LIVE
@pytest.mark.skipif(CHROMIUM is None, reason="chromium is not installed (.ci/run installs it)")
def test_an_edit_to_a_ruleset_shows_on_the_live_preview(
    watching: tuple[Path, str, IO[str]], chromium: Browser
) -> None:
    folder, url, log = watching
    browser = chromium
    sheet = "document.getElementById('sheet').contentDocument.body.innerText"
    errors = "document.getElementById('errors').textContent"
    try:
        browser.open(f"{url}view/heavy_gear_house?lang=en")
        assert "Walker" in browser.wait_for(sheet, "Walker")
        base = folder / "heavy_gear.terrain"
        text = base.read_text("utf-8")
        # An edit to the base shows on the variant's sheet: it is rebuilt with its base.
        base.write_text(text.replace('mode walker "Walker"', 'mode walker "Strider"'), "utf-8")
        assert read_until(log, "rebuilt heavy_gear_house: ok")
        assert "Strider" in browser.wait_for(sheet, "Strider")
        # A broken save lists its errors above the last good sheet: the variant's view says
        # that its base has an error (E507) and shows where, with the base's own message.
        base.write_text(text.replace("| 2, walker 3", "| 2, walkr 3"), "utf-8")
        shown = browser.wait_for(errors, "error[E507]")
        line = next(i for i, x in enumerate(text.splitlines(), 1) if "| 2, walker 3" in x)
        assert f"heavy_gear.terrain:{line}:" in shown and "'walkr'" in shown
        # The last good sheet stays (read once the page has settled after its reload).
        assert "Strider" in browser.wait_for(sheet, "Strider")
    finally:
        browser.close_tab()


def test_a_save_rebuilds_the_file_and_the_variants_that_extend_it(tmp_path: Path) -> None:
    from io import StringIO

    from rulesdsl.editor.watch import Preview

    for name in ("heavy_gear", "heavy_gear_house", "heavy_gear_house_winter", "d20_movement"):
        shutil.copy(RULESETS / f"{name}.terrain", tmp_path)
    log = StringIO()
    builds: list[int] = []
    preview = Preview(tmp_path, log, after=lambda: builds.append(len(builds)))
    assert preview.refresh() == [
        "d20_movement",
        "heavy_gear",
        "heavy_gear_house",
        "heavy_gear_house_winter",
    ]
    assert preview.refresh([tmp_path / "heavy_gear_house_winter.terrain"]) == [
        "heavy_gear_house_winter"
    ]
    assert preview.refresh([tmp_path / "heavy_gear.terrain"]) == [
        "heavy_gear",
        "heavy_gear_house",
        "heavy_gear_house_winter",
    ]
    page = preview.page("heavy_gear")
    assert page is not None and set(page.sheets) == {"en", "fr", "de"} and page.errors == []
    assert "rebuilt heavy_gear: ok" in log.getvalue()
    assert builds == [0, 1, 2]  # `watch --out` builds after each refresh


# ---- the preview server and an untrusted browser (issue 30, item 10) ----------------------------

HOSTILE_ID = '<img src=x onerror=alert(1)>q"+alert(2)+"'


@pytest.fixture(scope="module")
def preview_port(tmp_path_factory: pytest.TempPathFactory) -> Iterator[int]:
    """A preview server (in this process) of heavy_gear and a ruleset whose file name is HTML
    and JavaScript: one for the module's tests, which only read from it (each built its own
    before: heavy_gear's sheets and pages made again, and a shutdown that waits out
    serve_forever's half-second poll)."""
    from io import StringIO

    from rulesdsl.editor.watch import Preview, serve

    folder = tmp_path_factory.mktemp("preview")
    shutil.copy(RULESETS / "heavy_gear.terrain", folder)
    (folder / f"{HOSTILE_ID}.terrain").write_text('ruleset x "X"\n', "utf-8")
    preview = Preview(folder, StringIO())
    preview.refresh()
    httpd = serve(preview, 0)
    try:
        yield httpd.server_port
    finally:
        httpd.shutdown()
        httpd.server_close()


def fetch(port: int, path: str, *headers: str) -> tuple[int, bytes]:
    """GET ``path`` from 127.0.0.1:port with exactly these headers: (status, body)."""
    import socket

    request = "\r\n".join([f"GET {path} HTTP/1.1", *headers, "Connection: close", "", ""])
    with socket.create_connection(("127.0.0.1", port), timeout=TIMEOUT) as sock:
        sock.sendall(request.encode())
        data = b""
        while chunk := sock.recv(65536):
            data += chunk
    head, _, body = data.partition(b"\r\n\r\n")
    return int(head.split()[1]), body


def test_the_preview_answers_only_to_its_own_host_and_origin(preview_port: int) -> None:
    """DNS rebinding: a page of evil.example that points its name at 127.0.0.1 reaches the
    server with `Host: evil.example:PORT`; it must not read the sheets or the diagnostics."""
    port = preview_port
    for host in (f"127.0.0.1:{port}", f"localhost:{port}", f"[::1]:{port}", f"LOCALHOST:{port}"):
        assert fetch(port, "/state/heavy_gear", f"Host: {host}")[0] == 200, host
    for host in (
        f"evil.example:{port}",
        "evil.example",
        f"localhost:{port + 1}",
        f"127.0.0.1:{port}.evil.example",
        "127.0.0.1",
        "",
    ):
        for path in ("/", "/view/heavy_gear", "/state/heavy_gear", "/sheet/heavy_gear"):
            status, body = fetch(port, path, f"Host: {host}")
            assert status == 403 and b"heavy_gear" not in body, (host, path)
    assert fetch(port, "/state/heavy_gear")[0] == 403  # no Host at all
    two = (f"Host: 127.0.0.1:{port}", f"Host: evil.example:{port}")
    assert fetch(port, "/state/heavy_gear", *two)[0] == 403
    good = f"Host: 127.0.0.1:{port}"
    assert fetch(port, "/state/heavy_gear", good, f"Origin: http://localhost:{port}")[0] == 200
    for origin in (f"http://evil.example:{port}", "null", f"https://127.0.0.1:{port}"):
        assert fetch(port, "/state/heavy_gear", good, f"Origin: {origin}")[0] == 403, origin


def test_a_path_outside_the_preview_s_pages_is_not_found(preview_port: int) -> None:
    good = f"Host: 127.0.0.1:{preview_port}"
    for path in (
        "/../../etc/passwd",
        "/view/..%2F..%2Fetc%2Fpasswd",
        "/sheet/%2e%2e/%2e%2e/etc/passwd",
        "//etc/passwd",
        "/view/heavy_gear/../../../etc/passwd",
        "/heavy_gear.terrain",
    ):
        status, body = fetch(preview_port, path, good)
        assert status == 404 and b"root:" not in body, path


def test_a_ruleset_file_name_cannot_break_out_of_the_page(preview_port: int) -> None:
    """The id comes from a file name: it is escaped in the HTML, in URLs and in the script."""
    from urllib.parse import quote

    good = f"Host: 127.0.0.1:{preview_port}"
    status, page = fetch(preview_port, "/view/" + quote(HOSTILE_ID, safe=""), good)
    assert status == 200
    _, listing = fetch(preview_port, "/", good)
    for body in (page, listing):
        assert b"<img src=x" not in body and b'"+alert(2)+"' not in body
    script = page.split(b"<script>")[1]
    assert (
        b'fetch("/state/%3Cimg%20src%3Dx%20onerror%3Dalert%281%29%3Eq%22%2Balert%282%29%2B%22"'
        in script
    )


@pytest.mark.parametrize(
    "argv",
    [
        ["--port", "70000"],
        ["--port", "-1"],
        ["--port", "http"],
        ["--port", "0", "--out", "{file}"],
        ["--port", "0", "--out", "{file}/sub"],
    ],
)
def test_watch_refuses_a_bad_port_or_an_out_that_is_a_file(
    argv: list[str], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The command line's checks, run in this process (a Python started for each case: the
    five took 0.4 s more CPU and 1.3 s more wall): `watch` on a thread given a minute, so that
    one which served instead of refusing fails rather than hangs."""
    import threading

    from rulesdsl.commands.cli import main

    folder = tmp_path / "rulesets"
    folder.mkdir()
    shutil.copy(RULESETS / "heavy_gear.terrain", folder)
    a_file = tmp_path / "a_file"
    a_file.write_text("not a folder\n")
    argv = [a.replace("{file}", str(a_file)) for a in argv]
    status: list[int] = []  # stays empty if main raised (the thread prints its traceback)
    thread = threading.Thread(
        target=lambda: status.append(main(["watch", "--rulesets", str(folder), *argv])),
        daemon=True,
    )
    thread.start()
    thread.join(60)
    stderr = capsys.readouterr().err
    assert status == [2], stderr
    assert "Traceback" not in stderr
    assert stderr.strip().splitlines()[-1].startswith(("rulesdsl", "usage"))
    assert a_file.read_text() == "not a folder\n"


@LIVE
@pytest.mark.skipif(CHROMIUM is None, reason="chromium is not installed (.ci/run installs it)")
def test_the_preview_shows_the_web_page_live(tmp_path: Path, chromium: Browser) -> None:
    """`watch` serves each web page at /web/<id>.<lang>.html (its language links work there)
    and its view reloads the page when the ruleset changes: a label edited in the base shows
    in the variant's place calculator."""
    from io import StringIO

    from rulesdsl.editor.watch import Preview, serve

    for name in ("heavy_gear", "heavy_gear_house"):
        shutil.copy(RULESETS / f"{name}.terrain", tmp_path)
    preview = Preview(tmp_path, StringIO())
    preview.refresh()
    httpd = serve(preview, 0)
    url = f"http://127.0.0.1:{httpd.server_port}/"
    status, body = fetch(
        httpd.server_port, "/web/heavy_gear_house.fr.html", f"Host: 127.0.0.1:{httpd.server_port}"
    )
    assert status == 200 and b'href="heavy_gear_house.de.html"' in body
    browser = chromium
    place = (
        "document.getElementById('sheet').contentDocument.getElementById('place')?.innerText ?? ''"
    )
    try:
        browser.open(f"{url}view/heavy_gear_house?lang=en&kind=web")
        browser.wait_for(place, "Walker")
        base = tmp_path / "heavy_gear.terrain"
        base.write_text(
            base.read_text("utf-8").replace('mode walker "Walker"', 'mode walker "Strider"'),
            "utf-8",
        )
        preview.refresh([base])
        assert "Strider" in browser.wait_for(place, "Strider")
    finally:
        browser.close_tab()
        httpd.shutdown()
        httpd.server_close()
