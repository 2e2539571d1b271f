"""The hostile-client run: `rulesdsl lsp` and the `rulesdsl watch` preview server, each driven
by a client that breaks the rules of its protocol, must survive, answer, leak nothing and print
no traceback.

    python dev/hostile_servers.py                          # 2,000 rounds of each, seed 0
    python dev/hostile_servers.py --rounds 300 --seed 7 --report /tmp/hostile.json

Each round sends one attack chosen at random, then a probe that a healthy server answers
correctly (a hover on `soft` in an open heavy_gear.terrain; a GET of the preview's view of
heavy_gear with a good Host). The language server's attacks: Content-Length headers that are
huge (10^12), negative, not a number or missing, header lines too long or too many, bodies
cut short or too long, bytes that are not UTF-8 or not JSON, JSON that is not JSON-RPC,
batches, wrong-typed params for every feature, requests for URIs outside the workspace
(file:///etc/passwd, a ruleset outside, one reached through a symbolic link or `..`, other
schemes), documents over the size limit and messages over the message limit, and open/close
churn. The preview server's: Host and Origin headers of other sites (DNS rebinding), path
traversal, garbage request lines, oversized headers, other methods, requests cut short, and a
ruleset whose file name is HTML and JavaScript. Once per run each side also checks the
command line (`watch --port 70000`, `--out FILE`, ...), a server that stops cleanly when its
input ends mid-message, and the memory the language server keeps after 500 documents opened
and closed (its resident size, read from /proc).

A *traceback* is one on the server's stderr; a *hang* is a probe (tried three times, 20 s
each) that gets no answer, or a server that does not stop; a *finding* is any other broken
promise (a wrong answer, a leak of the outside file's text, an exit status). Every socket is
127.0.0.1's. Exit status 0 when there was no traceback, hang or finding.
"""

from __future__ import annotations

import argparse
import fcntl
import json
import os
import queue
import random
import select
import shutil
import socket
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if __package__ in (None, ""):  # run as a script: the rulesdsl of this checkout
    sys.path.insert(0, str(ROOT))

from rulesdsl.editor.lsp import MAX_DOCUMENT_BYTES  # noqa: E402 - after the path is set
from rulesdsl.editor.lsp_stream import MAX_MESSAGE_BYTES  # noqa: E402

RULESETS = ROOT / "rulesets"
SECRET = "leaked_secret_mode"
"""A name only the files outside the workspace hold: it must never come back."""
PROBE_TIMEOUT = 20.0
PROBE_TRIES = 3


@dataclass
class Figures:
    rounds: int = 0
    attacks: Counter[str] = field(default_factory=Counter)
    answers: Counter[str] = field(default_factory=Counter)
    """Responses by status (HTTP) or error code (JSON-RPC, "result" for a result)."""
    tracebacks: list[str] = field(default_factory=list)
    hangs: list[str] = field(default_factory=list)
    findings: list[str] = field(default_factory=list)
    restarts: int = 0
    seconds: float = 0.0
    measures: dict[str, Any] = field(default_factory=dict)

    def summary(self) -> dict[str, Any]:
        return {
            "rounds": self.rounds,
            "attacks": dict(sorted(self.attacks.items())),
            "answers": dict(sorted(self.answers.items())),
            "tracebacks": len(self.tracebacks),
            "hangs": len(self.hangs),
            "findings": len(self.findings),
            "restarts": self.restarts,
            "seconds": round(self.seconds, 1),
            "measures": self.measures,
            "examples": {
                "tracebacks": self.tracebacks[:3],
                "hangs": self.hangs[:5],
                "findings": self.findings[:10],
            },
        }

    @property
    def clean(self) -> bool:
        return not (self.tracebacks or self.hangs or self.findings)


def _uri(path: Path | str) -> str:
    from pygls.uris import from_fs_path

    found = from_fs_path(str(path))
    assert found is not None
    return found


# ---- the places: a workspace, a ruleset outside it, links from one to the other --------------


def make_places(top: Path) -> tuple[Path, Path]:
    """(workspace, outside): heavy_gear and its house rules in ``workspace/rulesets``, a ruleset
    with :data:`SECRET` outside, reached from inside by a linked file and a linked folder, and a
    variant that extends the linked file."""
    workspace, outside = top / "workspace", top / "outside"
    rulesets = workspace / "rulesets"
    rulesets.mkdir(parents=True)
    outside.mkdir()
    for name in ("heavy_gear", "heavy_gear_house", "heavy_gear_house_winter"):
        shutil.copy(RULESETS / f"{name}.terrain", rulesets)
    secret = (
        f'ruleset secret "Secret"\nversion 1.0.0\nunits distance in, cost MP\n'
        f'mode {SECRET} "Leaked"\nlayer terrain "Terrain" {{\n  clear "Clear" | 1\n}}\n'
    )
    (outside / "secret.terrain").write_text(secret, "utf-8")
    (outside / "linked.terrain").write_text(secret.replace("ruleset secret", "ruleset linked"))
    (rulesets / "linked.terrain").symlink_to(outside / "linked.terrain")
    (rulesets / "elsewhere").symlink_to(outside, target_is_directory=True)
    (rulesets / "uses_link.terrain").write_text(
        'ruleset uses_link "Uses a link"\nversion 1.0.0\nextends linked@1.0.0\n', "utf-8"
    )
    return workspace, outside


# ---- the language server ------------------------------------------------------------------------


def frame(body: bytes, length: int | None = None) -> bytes:
    return b"Content-Length: %d\r\n\r\n" % (len(body) if length is None else length) + body


def message(payload: dict[str, Any] | list[Any]) -> bytes:
    return frame(json.dumps(payload).encode("utf-8"))


class Lsp:
    """`rulesdsl lsp` in a child process, its output parsed on a thread."""

    def __init__(self, workspace: Path) -> None:
        self.workspace = workspace
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "rulesdsl", "lsp"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            cwd=workspace,
        )
        assert self.proc.stdin and self.proc.stdout and self.proc.stderr
        flags = fcntl.fcntl(self.proc.stdin.fileno(), fcntl.F_GETFL)
        fcntl.fcntl(self.proc.stdin.fileno(), fcntl.F_SETFL, flags | os.O_NONBLOCK)
        self.inbox: queue.Queue[dict[str, Any]] = queue.Queue()
        self.stderr: list[str] = []
        self.bad_output: list[str] = []
        self.answers: Counter[str] = Counter()
        """Responses by error code ("result" for a result)."""
        self.next_id = 0
        threading.Thread(target=self._read_stdout, daemon=True).start()
        self._stderr_reader = threading.Thread(target=self._read_stderr, daemon=True)
        self._stderr_reader.start()

    def _read_stdout(self) -> None:
        out = self.proc.stdout
        assert out is not None
        while True:
            length = None
            while True:
                line = out.readline()
                if not line:
                    return
                if line in (b"\r\n", b"\n"):
                    break
                name, _, value = line.decode("ascii", "replace").partition(":")
                if name.strip().lower() == "content-length":
                    length = int(value)
            if length is None:
                self.bad_output.append("a message without Content-Length")
                continue
            body = out.read(length)
            try:
                msg = json.loads(body)
            except ValueError:
                self.bad_output.append(f"not JSON: {body[:80]!r}")
                continue
            if "id" in msg and "method" not in msg:
                self.answers[str(msg["error"]["code"]) if "error" in msg else "result"] += 1
            self.inbox.put(msg)

    def _read_stderr(self) -> None:
        err = self.proc.stderr
        assert err is not None
        for line in err:
            self.stderr.append(line.decode("utf-8", "replace"))

    def stderr_read(self) -> list[str]:
        """All the stderr of a server that has exited: its reader reads to the pipe's end (no
        fixed pause that a slow machine could outlast)."""
        self._stderr_reader.join(30)
        return self.stderr

    def send(self, data: bytes, timeout: float = 60.0) -> bool:
        """Write all of ``data``; False if the server stopped reading for ``timeout``."""
        stdin = self.proc.stdin
        assert stdin is not None
        view = memoryview(data)
        deadline = time.monotonic() + timeout
        while view:
            left = deadline - time.monotonic()
            if left <= 0:
                return False
            _, writable, _ = select.select([], [stdin], [], left)
            if not writable:
                continue
            try:
                sent = os.write(stdin.fileno(), view[: 1 << 16])
            except BlockingIOError:
                continue
            except (BrokenPipeError, OSError):
                return False
            view = view[sent:]
        return True

    def request(self, method: str, params: Any) -> int:
        self.next_id += 1
        self.send(
            message({"jsonrpc": "2.0", "id": self.next_id, "method": method, "params": params})
        )
        return self.next_id

    def notify(self, method: str, params: Any) -> None:
        self.send(message({"jsonrpc": "2.0", "method": method, "params": params}))

    def collect(self, wanted: Any, timeout: float) -> list[dict[str, Any]]:
        """Messages until one satisfies ``wanted`` (returned last) or ``timeout`` passes."""
        seen = []
        deadline = time.monotonic() + timeout
        while (left := deadline - time.monotonic()) > 0:
            try:
                msg = self.inbox.get(timeout=min(left, 0.5))
            except queue.Empty:
                if self.proc.poll() is not None:
                    break
                continue
            seen.append(msg)
            if wanted(msg):
                return seen
        return seen

    def answer(self, msg_id: int, timeout: float = PROBE_TIMEOUT) -> dict[str, Any] | None:
        seen = self.collect(lambda m: m.get("id") == msg_id and "method" not in m, timeout)
        return seen[-1] if seen and seen[-1].get("id") == msg_id else None

    def drain(self) -> list[dict[str, Any]]:
        found = []
        while True:
            try:
                found.append(self.inbox.get_nowait())
            except queue.Empty:
                return found

    def stop(self) -> int | None:
        """shutdown and exit; the exit status, or None if it would not stop."""
        if self.proc.poll() is None:
            self.request("shutdown", None)
            self.notify("exit", None)
        try:
            return self.proc.wait(15)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait(15)
            return None


def _start_lsp(workspace: Path) -> Lsp:
    lsp = Lsp(workspace)
    msg_id = lsp.request(
        "initialize",
        {
            "processId": None,
            "rootUri": _uri(workspace),
            "workspaceFolders": [{"uri": _uri(workspace), "name": "workspace"}],
            "capabilities": {},
        },
    )
    if lsp.answer(msg_id, 60) is None:
        raise RuntimeError("the language server did not answer initialize")
    lsp.notify("initialized", {})
    path = workspace / "rulesets" / "heavy_gear.terrain"
    lsp.notify(
        "textDocument/didOpen",
        {
            "textDocument": {
                "uri": _uri(path),
                "languageId": "terrain",
                "version": 1,
                "text": path.read_text("utf-8"),
            }
        },
    )
    return lsp


def _soft(workspace: Path) -> dict[str, Any]:
    path = workspace / "rulesets" / "heavy_gear.terrain"
    lines = path.read_text("utf-8").splitlines()
    line = next(i for i, x in enumerate(lines) if 'soft "Soft' in x)
    return {"line": line, "character": lines[line].index("soft") + 1}


def _lsp_probe(lsp: Lsp, workspace: Path) -> str | None:
    """None when the server answers a hover on `soft` rightly; else what went wrong."""
    doc = {"uri": _uri(workspace / "rulesets" / "heavy_gear.terrain")}
    for attempt in range(PROBE_TRIES):
        if lsp.proc.poll() is not None:
            return f"the server exited with status {lsp.proc.returncode}"
        msg_id = lsp.request(
            "textDocument/hover", {"textDocument": doc, "position": _soft(workspace)}
        )
        # A probe may complete an attack's cut-short body: the first is given less time.
        answer = lsp.answer(msg_id, PROBE_TIMEOUT / 10 if attempt == 0 else PROBE_TIMEOUT)
        if answer is None:
            continue
        value = ((answer.get("result") or {}).get("contents") or {}).get("value", "")
        return None if value.startswith("**soft** (feature") else f"a wrong hover: {answer}"
    return "no answer to the probe"


def _doc(uri: str, text: str, version: int = 1) -> dict[str, Any]:
    return {"textDocument": {"uri": uri, "languageId": "terrain", "version": version, "text": text}}


def lsp_attacks(workspace: Path, outside: Path) -> dict[str, Any]:
    """name -> function(rng, lsp) returning a finding or None."""
    rulesets = workspace / "rulesets"
    heavy = _uri(rulesets / "heavy_gear.terrain")
    outside_uris = [
        "file:///etc/passwd",
        "file:///etc/hostname",
        _uri(outside / "secret.terrain"),
        _uri(rulesets / "linked.terrain"),
        _uri(rulesets / "elsewhere" / "secret.terrain"),
        _uri(rulesets) + "/../../outside/secret.terrain",
        "untitled:secret.terrain",
        "http://127.0.0.1/secret.terrain",
        "file://otherhost/share/secret.terrain",
        "file:secret.terrain",
    ]
    methods = [
        "textDocument/hover",
        "textDocument/definition",
        "textDocument/references",
        "textDocument/completion",
        "textDocument/documentSymbol",
        "textDocument/formatting",
        "textDocument/rename",
    ]

    def params_for(method: str, uri: str, position: dict[str, Any]) -> dict[str, Any]:
        params: dict[str, Any] = {"textDocument": {"uri": uri}, "position": position}
        if method == "textDocument/references":
            params["context"] = {"includeDeclaration": True}
        if method == "textDocument/rename":
            params["newName"] = "renamed"
        if method == "textDocument/formatting":
            params = {"textDocument": {"uri": uri}, "options": {"tabSize": 2, "insertSpaces": True}}
        if method == "textDocument/documentSymbol":
            params = {"textDocument": {"uri": uri}}
        return params

    def leaks(found: list[dict[str, Any]]) -> str | None:
        text = json.dumps(found)
        return f"the outside file's text came back: {text[:300]}" if SECRET in text else None

    def huge_length(rng: random.Random, lsp: Lsp) -> str | None:
        length = rng.choice([10**12, 2**63, 10**40, MAX_MESSAGE_BYTES + 1, 2**31])
        lsp.send(frame(b'{"jsonrpc": "2.0", "id": 0, "method": "shutdown"}', length))
        return None

    def bad_length(rng: random.Random, lsp: Lsp) -> str | None:
        value = rng.choice(
            [
                b"-1",
                b"-100",
                b"abc",
                b"1e3",
                b"+5",
                b"0x10",
                b"",
                b" ",
                b"5.0",
                b"\xff\xfe",
                b"1 2",
                b"9" * 400,
            ]
        )
        lsp.send(b"Content-Length: " + value + b"\r\n\r\n" + b'{"jsonrpc": "2.0"}')
        return None

    def no_length(rng: random.Random, lsp: Lsp) -> str | None:
        lsp.send(b"Content-Type: application/vscode-jsonrpc; charset=utf-8\r\n\r\n{}")
        return None

    def long_header(rng: random.Random, lsp: Lsp) -> str | None:
        lsp.send(b"X-" + b"a" * rng.choice([2000, 70000, 300000]) + b": 1\r\n" + message({}))
        return None

    def many_headers(rng: random.Random, lsp: Lsp) -> str | None:
        lsp.send(b"".join(b"X-%d: 1\r\n" % i for i in range(rng.randint(17, 500))) + b"\r\n")
        return None

    def truncated(rng: random.Random, lsp: Lsp) -> str | None:
        body = json.dumps({"jsonrpc": "2.0", "id": 0, "method": "textDocument/hover"}).encode()
        lsp.send(frame(body[: rng.randint(0, len(body) - 1)], len(body)))
        return None

    def too_long(rng: random.Random, lsp: Lsp) -> str | None:
        body = b'{"jsonrpc": "2.0", "method": "initialized", "params": {}}'
        lsp.send(frame(body + b"x" * rng.randint(1, 50), len(body)))
        return None

    def not_json(rng: random.Random, lsp: Lsp) -> str | None:
        body = rng.choice(
            [
                b"{",
                b"[1,2",
                b"\xff\xfe\xfd",
                b"",
                b"nul",
                b"{'a': 1}",
                b"[" * 100000,
                b'{"a": ' * 50000,
                bytes(rng.randrange(256) for _ in range(300)),
            ]
        )
        lsp.send(frame(body))
        return None

    def not_jsonrpc(rng: random.Random, lsp: Lsp) -> str | None:
        payload = rng.choice(
            [
                None,
                1,
                "s",
                [],
                [{"jsonrpc": "2.0", "id": 5, "method": "shutdown"}],
                {"jsonrpc": "1.0", "id": 1, "method": "x"},
                {"id": 1},
                {"jsonrpc": "2.0", "id": {"a": 1}, "method": "shutdown"},
                {"jsonrpc": "2.0", "id": True, "method": "shutdown"},
                {"jsonrpc": "2.0", "id": 1.5, "method": "shutdown"},
                {"jsonrpc": "2.0", "id": 7, "method": 5},
                {"jsonrpc": "2.0", "id": 7, "method": None},
                {"jsonrpc": "2.0", "id": 99999, "result": {"x": 1}},
                {"jsonrpc": "2.0", "id": 99998, "error": {"code": "x"}},
                {"jsonrpc": "2.0", "method": "$/cancelRequest", "params": {"id": []}},
                {"jsonrpc": "2.0", "id": 8, "method": "no/such/method"},
            ]
        )
        lsp.send(frame(json.dumps(payload).encode()))
        return None

    def wrong_params(rng: random.Random, lsp: Lsp) -> str | None:
        method = rng.choice(
            [
                *methods,
                "textDocument/didOpen",
                "textDocument/didChange",
                "textDocument/didClose",
                "textDocument/didSave",
                "initialize",
                "workspace/didChangeWorkspaceFolders",
            ]
        )
        bad: Any = rng.choice(
            [
                None,
                5,
                "x",
                [],
                [1, 2],
                {"textDocument": 5},
                {"textDocument": {"uri": heavy}, "position": "here"},
                {"textDocument": {"uri": heavy}, "position": {"line": -1, "character": -5}},
                {"textDocument": {"uri": heavy}, "position": {"line": 10**12, "character": 10**12}},
                {"textDocument": {"uri": heavy}, "position": {"line": 2**40, "character": 0}},
                {"textDocument": {"uri": None}, "position": {"line": 0, "character": 0}},
                {"textDocument": {"uri": heavy, "text": 5, "version": "x", "languageId": []}},
                {"textDocument": {"uri": heavy, "version": 2}, "contentChanges": [{"text": 5}]},
                {"textDocument": {"uri": heavy, "version": 2}, "contentChanges": "all"},
                {"event": {"added": [{"uri": "file:///", "name": "root"}], "removed": 7}},
            ]
        )
        if method.startswith("textDocument/did") or method.startswith("workspace/"):
            lsp.notify(method, bad)
            return None
        answer = lsp.answer(lsp.request(method, bad))
        if answer is None:
            return f"no answer to {method} with params {bad!r}"[:300]
        return None

    def outside_request(rng: random.Random, lsp: Lsp) -> str | None:
        uri = rng.choice(outside_uris)
        method = rng.choice(methods)
        position = {"line": rng.randint(0, 5), "character": rng.randint(0, 10)}
        msg_id = lsp.request(method, params_for(method, uri, position))
        found = lsp.collect(lambda m: m.get("id") == msg_id, PROBE_TIMEOUT)
        if not found or found[-1].get("id") != msg_id:
            return f"no answer to {method} on {uri}"
        return leaks(found) or (
            None
            if found[-1].get("result") in (None, [], {"isIncomplete": False, "items": []})
            or "error" in found[-1]
            else f"{method} on {uri} answered {json.dumps(found[-1])[:200]}"
        )

    def outside_open(rng: random.Random, lsp: Lsp) -> str | None:
        """A variant that extends the linked base, opened: an E003, never the base's text."""
        path = rulesets / rng.choice(["uses_link.terrain", "elsewhere/uses_link.terrain"])
        text = (rulesets / "uses_link.terrain").read_text("utf-8")
        if rng.random() < 0.5:
            text += f"override {SECRET[:6]}x.clear 2\n"
        lsp.notify("textDocument/didOpen", _doc(_uri(path), text))
        found = lsp.collect(
            lambda m: (
                m.get("method") == "textDocument/publishDiagnostics"
                and m["params"]["uri"] == _uri(path)
            ),
            PROBE_TIMEOUT,
        )
        at = rng.choice(["extends linked", "ruleset"])
        line = next(i for i, x in enumerate(text.splitlines()) if at in x)
        msg_id = lsp.request(
            "textDocument/definition",
            {"textDocument": {"uri": _uri(path)}, "position": {"line": line, "character": 9}},
        )
        found += lsp.collect(lambda m: m.get("id") == msg_id, PROBE_TIMEOUT)
        lsp.notify("textDocument/didClose", {"textDocument": {"uri": _uri(path)}})
        if str(outside) in json.dumps(found):
            return f"a location outside the workspace came back: {json.dumps(found)[:300]}"
        return leaks(found)

    def huge_document(rng: random.Random, lsp: Lsp) -> str | None:
        size = rng.choice(
            [MAX_DOCUMENT_BYTES + 1, min(2 * MAX_DOCUMENT_BYTES, MAX_MESSAGE_BYTES // 2)]
        )
        label = "x" * size
        text = f'ruleset big "Big"\nversion 1.0.0\nmode walker "{label}"\n'
        uri = _uri(rulesets / f"big{rng.randrange(1000)}.terrain")
        started = time.monotonic()
        lsp.notify("textDocument/didOpen", _doc(uri, text))
        found = lsp.collect(
            lambda m: (
                m.get("method") == "textDocument/publishDiagnostics" and m["params"]["uri"] == uri
            ),
            60,
        )
        lsp.notify("textDocument/didClose", {"textDocument": {"uri": uri}})
        if not found or found[-1].get("method") != "textDocument/publishDiagnostics":
            return f"no diagnostics for a document of {size:,} bytes"
        diags = found[-1]["params"]["diagnostics"]
        if len(diags) != 1 or "limit" not in diags[0]["message"]:  # the size limit's one error
            return f"a document of {size:,} bytes got {[d.get('code') for d in diags[:5]]}"
        if time.monotonic() - started > 30:
            return f"a document of {size:,} bytes took {time.monotonic() - started:.0f} s"
        return None

    def huge_message(rng: random.Random, lsp: Lsp) -> str | None:
        text = "y" * (MAX_MESSAGE_BYTES + 1024 * 1024)
        params = _doc(_uri(rulesets / "huge.terrain"), text)
        lsp.send(message({"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": params}))
        found = lsp.collect(lambda m: "error" in m and m.get("id") is None, 60)
        if not found or "limit" not in found[-1]["error"].get("message", ""):
            return "no error response for a message over the limit"
        return None

    def churn(rng: random.Random, lsp: Lsp) -> str | None:
        for i in range(rng.randint(1, 20)):
            name = rng.choice(["heavy_gear_house", "heavy_gear_house_winter", f"churn{i}"])
            uri = _uri(rulesets / f"{name}.terrain")
            source = rulesets / f"{name}.terrain"
            text = source.read_text("utf-8") if source.exists() else 'ruleset c "C"\n'
            lsp.notify("textDocument/didOpen", _doc(uri, text))
            if rng.random() < 0.5:
                lsp.notify(
                    "textDocument/didChange",
                    {
                        "textDocument": {"uri": uri, "version": 2},
                        "contentChanges": [{"text": text + "\nbroken {\n"}],
                    },
                )
            lsp.notify("textDocument/didClose", {"textDocument": {"uri": uri}})
        return None

    def initialize_again(rng: random.Random, lsp: Lsp) -> str | None:
        params = {"processId": None, "rootUri": "file:///", "capabilities": {}}
        answer = lsp.answer(lsp.request("initialize", params))
        if answer is None or answer.get("error", {}).get("code") != -32600:
            return f"a second initialize got {answer}"
        return None

    def odd_ranges(rng: random.Random, lsp: Lsp) -> str | None:
        uri = _uri(rulesets / "ranges.terrain")
        lsp.notify("textDocument/didOpen", _doc(uri, 'ruleset r "R"\nversion 1.0.0\n'))
        for _ in range(rng.randint(1, 5)):
            at = [rng.choice([-1, 0, 1, 2, 99, 2**31, 2**40]) for _ in range(4)]
            change = {
                "range": {
                    "start": {"line": at[0], "character": at[1]},
                    "end": {"line": at[2], "character": at[3]},
                },
                "text": rng.choice(["", "x", "\n\n", "\ud83d\ude00", "}" * 100]),
            }
            lsp.notify(
                "textDocument/didChange",
                {"textDocument": {"uri": uri, "version": 2}, "contentChanges": [change]},
            )
        lsp.notify("textDocument/didClose", {"textDocument": {"uri": uri}})
        return None

    def random_bytes(rng: random.Random, lsp: Lsp) -> str | None:
        lsp.send(bytes(rng.randrange(256) for _ in range(rng.randint(1, 3000))))
        return None

    def unopened_change(rng: random.Random, lsp: Lsp) -> str | None:
        uri = _uri(rulesets / f"never{rng.randrange(100)}.terrain")
        method = rng.choice(
            ["textDocument/didChange", "textDocument/didClose", "textDocument/didSave"]
        )
        lsp.notify(
            method,
            {"textDocument": {"uri": uri, "version": 3}, "contentChanges": [{"text": "ruleset x"}]},
        )
        return None

    return {
        "huge Content-Length": huge_length,
        "bad Content-Length": bad_length,
        "no Content-Length": no_length,
        "header line too long": long_header,
        "too many headers": many_headers,
        "truncated body": truncated,
        "body longer than its length": too_long,
        "not JSON": not_json,
        "not JSON-RPC": not_jsonrpc,
        "wrong-typed params": wrong_params,
        "URI outside the workspace": outside_request,
        "base through a link": outside_open,
        "document over the size limit": huge_document,
        "message over the limit": huge_message,
        "open/close churn": churn,
        "random bytes": random_bytes,
        "second initialize": initialize_again,
        "edits at odd ranges": odd_ranges,
        "change of a document never opened": unopened_change,
    }


WEIGHTS = {"document over the size limit": 0.3, "message over the limit": 0.15}


def _tracebacks(lines: list[str], start: int) -> list[str]:
    text = "".join(lines[start:])
    return [chunk[:2000] for chunk in text.split("Traceback (most recent call last)")[1:]]


def _rss_kb(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


def lsp_run(
    rounds: int,
    seed: int,
    deadline: float,
    figures: Figures,
    log: Any = None,
    every: bool = False,
    churn: int = 500,
) -> None:
    """``rounds`` attacks on one language server (restarted after a failed probe), chosen at
    random or, with ``every``, each in turn; then ``churn`` documents opened and closed."""
    rng = random.Random(seed)
    with tempfile.TemporaryDirectory() as tmp:
        workspace, outside = make_places(Path(tmp))
        attacks = lsp_attacks(workspace, outside)
        names = list(attacks)
        weights = [WEIGHTS.get(n, 1.0) for n in names]
        lsp = _start_lsp(workspace)
        seen_err = 0
        started = time.monotonic()
        for number in range(rounds):
            if time.monotonic() > deadline:
                break
            name = names[number % len(names)] if every else rng.choices(names, weights)[0]
            figures.attacks[name] += 1
            seen_err = len(lsp.stderr)
            finding = attacks[name](rng, lsp)
            if finding:
                figures.findings.append(f"{name}: {finding}")
            problem = _lsp_probe(lsp, workspace)
            lsp.drain()
            time.sleep(0.01)  # let stderr catch up
            figures.tracebacks += [f"{name}: {t}" for t in _tracebacks(lsp.stderr, seen_err)]
            seen_err = len(lsp.stderr)
            if lsp.bad_output:
                figures.findings += [f"{name}: server wrote {x}" for x in lsp.bad_output]
                lsp.bad_output.clear()
            figures.rounds += 1
            if problem is not None:
                (figures.hangs if "no answer" in problem else figures.findings).append(
                    f"round {number} ({name}): {problem}"
                )
                lsp.stop()
                figures.answers += lsp.answers
                lsp = _start_lsp(workspace)
                seen_err = 0
                figures.restarts += 1
            if log and (number + 1) % 100 == 0:
                print(
                    f"lsp: {number + 1} rounds, {time.monotonic() - started:.0f} s",
                    file=log,
                    flush=True,
                )
        if churn:
            figures.measures.update(lsp_churn(lsp, workspace, churn))
        code = lsp.stop()
        figures.answers += lsp.answers
        if code != 0:
            figures.findings.append(f"shutdown and exit gave status {code}")
        figures.tracebacks += [f"at the end: {t}" for t in _tracebacks(lsp.stderr_read(), seen_err)]
        figures.measures |= lsp_cut_short(workspace, figures)
        figures.measures |= lsp_before_initialize(workspace, figures)


def lsp_churn(lsp: Lsp, workspace: Path, count: int) -> dict[str, Any]:
    """``count`` documents opened and closed: the server's resident size before and after."""
    rulesets = workspace / "rulesets"
    text = (rulesets / "heavy_gear_house.terrain").read_text("utf-8")

    def cycle(count: int, offset: int) -> None:
        for i in range(count):
            uri = _uri(rulesets / f"churn_{offset + i}.terrain")
            lsp.notify("textDocument/didOpen", _doc(uri, text))
            lsp.notify("textDocument/didClose", {"textDocument": {"uri": uri}})
        lsp.answer(
            lsp.request(
                "textDocument/hover",
                {"textDocument": {"uri": "file:///x"}, "position": {"line": 0, "character": 0}},
            ),
            120,
        )
        lsp.drain()

    cycle(50, 0)  # warm: the parser, the checks' caches
    before = _rss_kb(lsp.proc.pid)
    cycle(count, 1000)
    after = _rss_kb(lsp.proc.pid)
    return {f"lsp rss before {count} open/close (KiB)": before, "lsp rss after (KiB)": after}


def lsp_before_initialize(workspace: Path, figures: Figures) -> dict[str, Any]:
    """Requests and notifications before initialize: -32002, and nothing else happens."""
    lsp = Lsp(workspace)
    uri = _uri(workspace / "rulesets" / "heavy_gear.terrain")
    lsp.notify("textDocument/didOpen", _doc(uri, "ruleset early\n"))
    position = {"line": 0, "character": 0}
    msg_id = lsp.request("textDocument/hover", {"textDocument": {"uri": uri}, "position": position})
    answer = lsp.answer(msg_id)
    code = (answer or {}).get("error", {}).get("code")
    if code != -32002:
        figures.findings.append(f"a hover before initialize got {answer}")
    lsp.stop()
    figures.tracebacks += [f"before initialize: {t}" for t in _tracebacks(lsp.stderr_read(), 0)]
    return {"lsp error for a request before initialize": code}


def lsp_cut_short(workspace: Path, figures: Figures) -> dict[str, Any]:
    """A server whose input ends in the middle of a message stops at once, status 0."""
    results = {}
    for how, tail in (
        ("header", b"Content-Len"),
        ("body", frame(b'{"jsonrpc": "2.0"', 50)),
        ("huge body", frame(b"x" * 1000, 10**12)),
    ):
        lsp = _start_lsp(workspace)
        lsp.send(tail)
        assert lsp.proc.stdin is not None
        lsp.proc.stdin.close()
        try:
            code: int | None = lsp.proc.wait(30)
        except subprocess.TimeoutExpired:
            lsp.proc.kill()
            lsp.proc.wait()
            code = None
            figures.hangs.append(f"the server did not stop when its input ended in a {how}")
        if code not in (0, None):
            figures.findings.append(f"input ending in a {how}: exit status {code}")
        found = _tracebacks(lsp.stderr_read(), 0)
        figures.tracebacks += [f"input ending in a {how}: {t}" for t in found]
        results[f"lsp exit status, input ending in a {how}"] = code
    return results


# ---- the preview server -------------------------------------------------------------------------

STATUSES: Counter[str] = Counter()
"""The preview's answers by HTTP status ("None": it closed without one)."""
HOSTILE_ID = '<img src=x onerror=alert(1)>q"+alert(2)+"'


def http(port: int, data: bytes, timeout: float = PROBE_TIMEOUT) -> tuple[int | None, bytes]:
    """Send raw bytes to 127.0.0.1:port; (status, whole response), status None if none came."""
    with socket.create_connection(("127.0.0.1", port), timeout=timeout) as sock:
        try:
            sock.sendall(data)
            sock.shutdown(socket.SHUT_WR)
        except OSError:
            pass
        chunks = []
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            try:
                chunk = sock.recv(65536)
            except TimeoutError:
                break
            except OSError:
                break
            if not chunk:
                break
            chunks.append(chunk)
    raw = b"".join(chunks)
    try:
        status = int(raw.split(b" ", 2)[1]) if raw.startswith(b"HTTP/") else None
    except (IndexError, ValueError):
        status = None
    STATUSES[str(status)] += 1
    return status, raw


def get(path: str, host: str | None, *extra: str) -> bytes:
    lines = [f"GET {path} HTTP/1.1"]
    if host is not None:
        lines.append(f"Host: {host}")
    lines += [*extra, "Connection: close", "", ""]
    return "\r\n".join(lines).encode("utf-8", "surrogateescape")


class Preview:
    def __init__(self, folder: Path, *extra: str) -> None:
        self.proc = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "rulesdsl",
                "watch",
                "--rulesets",
                str(folder),
                "--port",
                "0",
                *extra,
            ],
            stderr=subprocess.PIPE,
            stdout=subprocess.DEVNULL,
            text=True,
        )
        assert self.proc.stderr is not None
        self.stderr: list[str] = []
        found: queue.Queue[int] = queue.Queue()

        def read() -> None:
            assert self.proc.stderr is not None
            for line in self.proc.stderr:
                self.stderr.append(line)
                if line.startswith("preview: "):
                    found.put(int(line.split(":")[3].split("/")[0]))

        threading.Thread(target=read, daemon=True).start()
        self.port = found.get(timeout=120)

    def stop(self) -> None:
        self.proc.terminate()
        try:
            self.proc.wait(15)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()


def preview_attacks(port: int) -> dict[str, Any]:
    good_hosts = [f"127.0.0.1:{port}", f"localhost:{port}", f"[::1]:{port}", f"LocalHost:{port}"]
    bad_hosts = [
        f"evil.example:{port}",
        "evil.example",
        "127.0.0.1",
        "localhost",
        f"localhost:{port + 1}",
        f"127.0.0.1:{port}.evil.example",
        "",
        f"127.0.0.1.evil.example:{port}",
        f"[::1]:{port}@evil",
        f"0.0.0.0:{port}",
        f"127.0.0.2:{port}",
    ]
    bad_origins = [
        f"http://evil.example:{port}",
        "null",
        f"https://127.0.0.1:{port}",
        f"http://127.0.0.1:{port}.evil.example",
        "http://localhost",
        "",
    ]
    traversals = [
        "/../../etc/passwd",
        "/view/..%2F..%2Fetc%2Fpasswd",
        "/sheet/%2e%2e/%2e%2e/etc/passwd",
        "//etc/passwd",
        "/view/heavy_gear/../../../etc/passwd",
        "/state/..",
        "/view/%00",
        "/sheet/heavy_gear?lang=../../etc/passwd",
        "/view/%zz",
        "/view/heavy_gear?lang=%ff%fe",
        "/view/heavy_gear?lang=<script>",
        "/file/etc/passwd",
        "/view/" + "a" * 60000,
        "/state/heavy_gear/../../etc/passwd",
        "/rulesets/heavy_gear.terrain",
    ]

    def expect(status: int | None, raw: bytes, wanted: tuple[int, ...]) -> str | None:
        if status is None:
            return "no answer"
        if b"root:" in raw or SECRET.encode() in raw:
            return f"leaked: {raw[:200]!r}"
        return None if status in wanted else f"status {status}, wanted {wanted}: {raw[:160]!r}"

    def good_host(rng: random.Random) -> str | None:
        host = rng.choice(good_hosts)
        return expect(*http(port, get("/view/heavy_gear", host)), (200,))

    def bad_host(rng: random.Random) -> str | None:
        host = rng.choice(bad_hosts)
        path = rng.choice(["/", "/view/heavy_gear", "/state/heavy_gear", "/sheet/heavy_gear"])
        return expect(*http(port, get(path, host)), (403, 421))

    def two_hosts(rng: random.Random) -> str | None:
        data = get("/state/heavy_gear", f"127.0.0.1:{port}", f"Host: evil.example:{port}")
        return expect(*http(port, data), (403, 421))

    def no_host(rng: random.Random) -> str | None:
        data = b"GET /state/heavy_gear HTTP/1.0\r\n\r\n"
        return expect(*http(port, data), (403, 421, 400))

    def bad_origin(rng: random.Random) -> str | None:
        origin = rng.choice(bad_origins)
        data = get("/state/heavy_gear", f"localhost:{port}", f"Origin: {origin}")
        return expect(*http(port, data), (403,))

    def good_origin(rng: random.Random) -> str | None:
        origin = rng.choice([f"http://127.0.0.1:{port}", f"http://localhost:{port}"])
        data = get("/state/heavy_gear", f"127.0.0.1:{port}", f"Origin: {origin}")
        return expect(*http(port, data), (200,))

    def traversal(rng: random.Random) -> str | None:
        path = rng.choice(traversals)
        status, raw = http(port, get(path, f"127.0.0.1:{port}"))
        if path.startswith("/view/heavy_gear?") or path.startswith("/sheet/heavy_gear?"):
            return expect(status, raw, (200,))
        return expect(status, raw, (404, 400, 414))

    def garbage(rng: random.Random) -> str | None:
        data = rng.choice(
            [
                b"GARBAGE\r\n\r\n",
                b"GET\r\n\r\n",
                b"GET / HTTP/9.9\r\n\r\n",
                b"\r\n\r\n",
                b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n",
                bytes(rng.randrange(256) for _ in range(500)),
                b"GET / HTTP/1.1\r\n" + b"X: " + b"a" * 70000 + b"\r\n\r\n",
                b"GET / HTTP/1.1\r\n" + b"".join(b"X-%d: 1\r\n" % i for i in range(150)) + b"\r\n",
                b"GET /" + b"x" * 70000 + b" HTTP/1.1\r\n\r\n",
            ]
        )
        status, _raw = http(port, data)
        return None if status is None or status >= 400 else f"status {status} for garbage"

    def junk_header(rng: random.Random) -> str | None:
        """A good request with a junk header: served (a GET has no body) or refused."""
        junk = rng.choice(
            [
                "Content-Length: -5",
                "Content-Length: 99999999999999999999",
                "X: \x00\x01",
                "Transfer-Encoding: chunked",
                "Expect: 100-continue",
                "Connection: upgrade",
            ]
        )
        status, raw = http(port, get("/state/heavy_gear", f"127.0.0.1:{port}", junk))
        return expect(status, raw, (200, 400, 417))

    def other_method(rng: random.Random) -> str | None:
        verb = rng.choice(["POST", "PUT", "DELETE", "PATCH", "OPTIONS", "TRACE", "CONNECT", "HEAD"])
        data = (
            f"{verb} /view/heavy_gear HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n"
            f"Content-Length: 5\r\n\r\nhello"
        ).encode()
        status, _raw = http(port, data)
        return None if status is not None and status >= 400 else f"{verb} got {status}"

    def cut_short(rng: random.Random) -> str | None:
        with socket.create_connection(("127.0.0.1", port), timeout=5) as sock:
            sock.sendall(get("/view/heavy_gear", f"127.0.0.1:{port}")[: rng.randint(0, 20)])
        return None

    def hostile_id(rng: random.Random) -> str | None:
        from urllib.parse import quote

        status, raw = http(port, get("/view/" + quote(HOSTILE_ID, safe=""), f"127.0.0.1:{port}"))
        if status != 200:
            return f"the view of a hostile id: status {status}"
        listing = http(port, get("/", f"127.0.0.1:{port}"))[1]
        for body in (raw, listing):
            if b"<img src=x" in body or b'"+alert(2)+"' in body:
                return f"the id went into the page raw: {body[:300]!r}"
        return None

    return {
        "good Host": good_host,
        "bad Host": bad_host,
        "two Host headers": two_hosts,
        "no Host": no_host,
        "bad Origin": bad_origin,
        "good Origin": good_origin,
        "path traversal": traversal,
        "garbage request": garbage,
        "junk header": junk_header,
        "other method": other_method,
        "request cut short": cut_short,
        "hostile file name": hostile_id,
    }


def preview_probe(port: int) -> str | None:
    for _ in range(PROBE_TRIES):
        try:
            status, raw = http(port, get("/view/heavy_gear", f"127.0.0.1:{port}"))
        except OSError as exc:
            return f"cannot connect: {exc}"
        if status == 200 and b"heavy_gear" in raw:
            return None
        if status is not None:
            return f"the probe got {status}"
    return "no answer to the probe"


def preview_folder(top: Path) -> Path:
    folder = top / "rulesets"
    folder.mkdir()
    for name in ("heavy_gear", "heavy_gear_house"):
        shutil.copy(RULESETS / f"{name}.terrain", folder)
    (folder / f"{HOSTILE_ID}.terrain").write_text('ruleset x "X"\n', "utf-8")
    return folder


def preview_run(
    rounds: int,
    seed: int,
    deadline: float,
    figures: Figures,
    log: Any = None,
    every: bool = False,
    extras: bool = True,
) -> None:
    """``rounds`` attacks on one preview server, at random or, with ``every``, each in turn;
    then, with ``extras``, a silent connection and the command line's bad arguments."""
    rng = random.Random(seed)
    with tempfile.TemporaryDirectory() as tmp:
        folder = preview_folder(Path(tmp))
        server = Preview(folder)
        attacks = preview_attacks(server.port)
        names = list(attacks)
        started = time.monotonic()
        seen_err = 0
        for number in range(rounds):
            if time.monotonic() > deadline:
                break
            name = names[number % len(names)] if every else rng.choice(names)
            figures.attacks[name] += 1
            seen_err = len(server.stderr)
            try:
                finding = attacks[name](rng)
            except OSError as exc:
                finding = f"connection: {exc}"
            if finding:
                (figures.hangs if finding == "no answer" else figures.findings).append(
                    f"round {number} ({name}): {finding}"
                )
            problem = preview_probe(server.port)
            figures.rounds += 1
            figures.tracebacks += [f"{name}: {t}" for t in _tracebacks(server.stderr, seen_err)]
            seen_err = len(server.stderr)
            if problem is not None:
                (figures.hangs if "no answer" in problem else figures.findings).append(
                    f"round {number} ({name}): {problem}"
                )
                server.stop()
                server = Preview(folder)
                seen_err = 0
                attacks = preview_attacks(server.port)
                figures.restarts += 1
            if log and (number + 1) % 100 == 0:
                print(
                    f"preview: {number + 1} rounds, {time.monotonic() - started:.0f} s",
                    file=log,
                    flush=True,
                )
        figures.answers += STATUSES
        STATUSES.clear()
        if not extras:
            server.stop()
            figures.tracebacks += [f"at the end: {t}" for t in _tracebacks(server.stderr, seen_err)]
            return
        idle = socket.create_connection(("127.0.0.1", server.port))  # a silent client is closed
        idle_started = time.monotonic()
        idle.settimeout(60)
        try:
            closed = idle.recv(1) == b""
        except OSError:
            closed = False
        idle.close()
        figures.measures["preview: seconds until a silent connection is closed"] = round(
            time.monotonic() - idle_started, 1
        )
        if not closed:
            figures.hangs.append("a silent connection was not closed within 60 s")
        server.stop()
        time.sleep(0.1)
        figures.tracebacks += [f"at the end: {t}" for t in _tracebacks(server.stderr, seen_err)]
        figures.measures |= command_line(Path(tmp), folder, figures)


def command_line(tmp: Path, folder: Path, figures: Figures) -> dict[str, Any]:
    """Bad ports and --out naming a file: exit status 2, one line, no traceback."""
    a_file = tmp / "a_file"
    a_file.write_text("not a folder\n")
    cases = {
        "--port 70000": ["--port", "70000"],
        "--port -1": ["--port", "-1"],
        "--port abc": ["--port", "abc"],
        "--port 1e3": ["--port", "1e3"],
        "--port 99999999999999999999": ["--port", "99999999999999999999"],
        "--out FILE": ["--port", "0", "--out", str(a_file)],
        "--out FILE/sub": ["--port", "0", "--out", str(a_file / "sub")],
        "--rulesets FILE": ["--rulesets", str(a_file)],
    }
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        cases["--port in use"] = ["--port", str(taken.getsockname()[1])]
        statuses = {}
        for name, argv in cases.items():
            if "--rulesets" not in argv:
                argv = ["--rulesets", str(folder), *argv]
            try:
                done = subprocess.run(
                    [sys.executable, "-m", "rulesdsl", "watch", *argv],
                    capture_output=True,
                    text=True,
                    timeout=60,
                )
            except subprocess.TimeoutExpired:
                figures.hangs.append(f"watch {name} did not stop")
                continue
            statuses[name] = done.returncode
            if done.returncode != 2:
                figures.findings.append(
                    f"watch {name}: status {done.returncode}: {done.stderr[-300:]}"
                )
            if "Traceback" in done.stderr:
                figures.tracebacks.append(f"watch {name}: {done.stderr[-2000:]}")
    return {"watch exit statuses": statuses}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=2000, help="rounds of each server")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--minutes", type=float, default=120.0, help="stop each side after this")
    parser.add_argument("--only", choices=("lsp", "preview"), help="run one side only")
    parser.add_argument("--report", type=Path, help="write the figures here (JSON)")
    args = parser.parse_args(argv)
    results = {}
    for side, run in (("lsp", lsp_run), ("preview", preview_run)):
        if args.only and args.only != side:
            continue
        figures = Figures()
        started = time.monotonic()
        run(args.rounds, args.seed, started + args.minutes * 60, figures, sys.stderr)
        figures.seconds = time.monotonic() - started
        results[side] = figures
        print(f"{side}: {json.dumps(figures.summary(), indent=1)}", file=sys.stderr)
    report = {side: f.summary() for side, f in results.items()}
    if args.report:
        args.report.write_text(json.dumps(report, indent=1) + "\n", "utf-8")
    return 0 if all(f.clean for f in results.values()) else 1


if __name__ == "__main__":
    sys.exit(main())
