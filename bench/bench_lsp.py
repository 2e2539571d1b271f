"""Benchmark: the language server's time from an edit to its diagnostics, on a big file.

Run: python bench/bench_lsp.py [N] [--ruleset NAME] [--repeat R] [--server 'CMD ARGS'] [--quick]
Writes the N-feature ruleset of bench/gen_ruleset.py (default 5,000 features, 0.9 MB), or
takes the bundled ruleset NAME (``--ruleset heavy_gear``), then:

1. the reference: one compile of the file (parse, resolve, lower, checks) with a fresh
   Compiler in this process, as `rulesdsl check` does it;
2. `rulesdsl lsp` in a subprocess, driven over stdio: open the file, then one edit, wait for
   its diagnostics (the time from the edit to them), then a burst of three edits sent 30 ms
   apart (the time from the last edit to the diagnostics of the last version).

Each edit appends a group naming a mode that does not exist (`nosuch2`, `nosuch3`...), so the
diagnostics of each version can be told apart. Prints each time and its ratio to the
reference, in wall time and in CPU time (the server's, read from /proc on Linux, from the
first edit of the burst to the last version's diagnostics: a machine shared with other work
stretches the wall times, not the CPU times). No thresholds (speed goals are read, not
asserted).
"""

from __future__ import annotations

import argparse
import json
import os
import shlex
import statistics
import subprocess
import sys
import threading
import time
from pathlib import Path
from queue import Empty, Queue
from typing import Any, BinaryIO

sys.path.insert(0, str(Path(__file__).resolve().parent))

from gen_ruleset import DATA, write

from rulesdsl.compiler import Compiler

ROOT = Path(__file__).resolve().parent.parent


def cpu_of(pid: int) -> float:
    """A process's CPU time so far (user + system), in seconds; 0 where /proc is missing."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


class Client:
    """JSON-RPC over the server's stdio; a thread reads its messages into a queue."""

    def __init__(self, command: list[str]) -> None:
        self.server = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE)
        assert self.server.stdin is not None and self.server.stdout is not None
        self.stdin: BinaryIO = self.server.stdin
        self.inbox: Queue[tuple[float, dict[str, Any]]] = Queue()
        threading.Thread(target=self._read, args=(self.server.stdout,), daemon=True).start()
        self.next_id = 0

    def _read(self, stream: BinaryIO) -> None:
        while True:
            length = 0
            while line := stream.readline():
                if not line.strip():
                    break
                name, _, value = line.decode().partition(":")
                if name.lower() == "content-length":
                    length = int(value)
            else:
                return
            body = json.loads(stream.read(length))
            self.inbox.put((time.perf_counter(), body))

    def send(self, message: dict[str, Any]) -> float:
        body = json.dumps({"jsonrpc": "2.0", **message}).encode()
        self.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
        self.stdin.flush()
        return time.perf_counter()

    def request(self, method: str, params: Any) -> dict[str, Any]:
        self.next_id += 1
        self.send({"id": self.next_id, "method": method, "params": params})
        return self.until(lambda m: m.get("id") == self.next_id)[1]

    def until(self, wanted: Any, timeout: float = 600) -> tuple[float, dict[str, Any]]:
        deadline = time.perf_counter() + timeout
        while True:
            try:
                at, message = self.inbox.get(timeout=max(0.0, deadline - time.perf_counter()))
            except Empty:
                raise SystemExit("the server did not answer in time") from None
            if wanted(message):
                return at, message


def diagnostics_of(uri: str, version: int) -> Any:
    """Matches the diagnostics of ``uri`` at ``version``: by the name that version added (a
    server that does not send the version is timed too); the first, for version 1."""

    def wanted(m: dict[str, Any]) -> bool:
        params = m.get("params") or {}
        if m.get("method") != "textDocument/publishDiagnostics" or params.get("uri") != uri:
            return False
        return version == 1 or f"nosuch{version}" in json.dumps(params["diagnostics"])

    return wanted


def edited(text: str, version: int) -> str:
    return text + f'group g{version} "G" : m0, nosuch{version}\n'


HOUSE = (
    'ruleset house_{id} "House rules" fr "Règles maison"\nversion 1.0.0\n'
    "extends {id}@^1.0\noverride ground_1.m0 | 3\n"
)


def house_rounds(
    client: Client, path: Path, text: str, repeat: int, reference: float, reference_cpu: float
) -> None:
    """Issue 44's row: a house rule of the file open with it; each round edits a label of the
    base and times the base's diagnostics and the house rule's (the next ones published)."""
    house = path.with_name(f"house_{path.stem}.terrain")
    house.write_text(HOUSE.format(id=path.stem), "utf-8")
    base_uri, house_uri = path.resolve().as_uri(), house.resolve().as_uri()
    client.send(
        {
            "method": "textDocument/didOpen",
            "params": {
                "textDocument": {
                    "uri": house_uri,
                    "languageId": "terrain",
                    "version": 1,
                    "text": house.read_text("utf-8"),
                }
            },
        }
    )
    client.until(lambda m: (m.get("params") or {}).get("uri") == house_uri)
    pid = client.server.pid

    def published(uri: str, version: int | None) -> Any:
        def wanted(m: dict[str, Any]) -> bool:
            params = m.get("params") or {}
            if m.get("method") != "textDocument/publishDiagnostics" or params.get("uri") != uri:
                return False
            return version is None or params.get("version") == version

        return wanted

    bases: list[float] = []
    houses: list[float] = []
    cpus: list[float] = []
    for version in range(2, repeat + 2):
        edited_text = text.replace('"Feature ground_0"', f'"Feature ground_0 v{version}"', 1)
        cpu = cpu_of(pid)
        sent = client.send(
            {
                "method": "textDocument/didChange",
                "params": {
                    "textDocument": {"uri": base_uri, "version": version},
                    "contentChanges": [{"text": edited_text}],
                },
            }
        )
        at_base, _ = client.until(published(base_uri, version))
        at_house, _ = client.until(published(house_uri, None))
        bases.append(at_base - sent)
        houses.append(max(at_house, at_base) - sent)
        cpus.append(cpu_of(pid) - cpu)
    for what, wall in (
        ("base edit -> the base's diagnostics:      ", bases),
        ("base edit -> the house rule's diagnostics:", houses),
    ):
        w = statistics.median(wall)
        print(f"{what} {w * 1e3:8.1f} ms  ({w / reference:.2f}x)")
    c = statistics.median(cpus)
    print(
        f"the server's CPU for the edit, both files: {c * 1e3:8.1f} ms  ({c / reference_cpu:.2f}x)"
    )


def ruleset(name: str) -> Path:
    """A copy of a bundled ruleset (and the rulesets beside it, its bases) in the bench's data
    folder, so that the server's workspace holds nothing else."""
    folder = DATA / "lsp"
    folder.mkdir(parents=True, exist_ok=True)
    for source in (ROOT / "rulesets").glob("*.terrain"):
        (folder / source.name).write_bytes(source.read_bytes())
    return folder / f"{name}.terrain"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("n", type=int, nargs="?", default=5000, help="number of features")
    parser.add_argument(
        "--ruleset", help="a bundled ruleset (rulesets/NAME.terrain) instead of the generated one"
    )
    parser.add_argument(
        "--house",
        action="store_true",
        help="open a house rule of the file too, and time an edit of the base (issue 44)",
    )
    parser.add_argument("--repeat", type=int, default=1, help="rounds (medians are printed)")
    parser.add_argument(
        "--server",
        default=f"{shlex.quote(sys.executable)} -m rulesdsl lsp",
        help="the command that starts the server, as one string (shell words)",
    )
    parser.add_argument("--quick", action="store_true", help="the smoke run CI makes: 20 features")
    args = parser.parse_args()
    if args.quick:
        args.n, args.repeat = 20, 1
    path = ruleset(args.ruleset) if args.ruleset else write(args.n, DATA, ("terrain",))["terrain"]
    text = path.read_text("utf-8")

    references: list[float] = []
    cpus: list[float] = []
    for _ in range(args.repeat):
        start, cpu = time.perf_counter(), time.process_time()
        compiler = Compiler()
        compiler.parsed_texts = None  # a real parse each round (the process keeps small ones)
        compiler.compile_file(path)
        references.append(time.perf_counter() - start)
        cpus.append(time.process_time() - cpu)
    reference, reference_cpu = statistics.median(references), statistics.median(cpus)
    what = args.ruleset or f"{args.n:,} features"
    print(f"{what}, {len(text.encode()):,} bytes; median of {args.repeat}")
    print(
        f"reference, one compile of the file:       {reference * 1e3:8.1f} ms, "
        f"CPU {reference_cpu * 1e3:8.1f} ms"
    )

    client = Client(shlex.split(args.server))
    uri = path.resolve().as_uri()
    client.request(
        "initialize", {"processId": None, "rootUri": path.parent.as_uri(), "capabilities": {}}
    )
    client.send({"method": "initialized", "params": {}})
    opened = client.send(
        {
            "method": "textDocument/didOpen",
            "params": {
                "textDocument": {"uri": uri, "languageId": "terrain", "version": 1, "text": text}
            },
        }
    )
    at, _ = client.until(diagnostics_of(uri, 1))
    print(f"open -> diagnostics:                      {(at - opened) * 1e3:8.1f} ms")

    if args.house:
        house_rounds(client, path, text, args.repeat, reference, reference_cpu)
        return

    def change(version: int) -> float:
        return client.send(
            {
                "method": "textDocument/didChange",
                "params": {
                    "textDocument": {"uri": uri, "version": version},
                    "contentChanges": [{"text": edited(text, version)}],
                },
            }
        )

    pid = client.server.pid
    singles: list[float] = []
    single_cpus: list[float] = []
    bursts: list[float] = []
    burst_cpus: list[float] = []
    version = 1
    for _ in range(args.repeat):
        version += 1
        cpu = cpu_of(pid)
        sent = change(version)
        at, _ = client.until(diagnostics_of(uri, version))
        singles.append(at - sent)
        single_cpus.append(cpu_of(pid) - cpu)
        cpu = cpu_of(pid)
        for _ in range(2):
            version += 1
            change(version)
            time.sleep(0.03)
        version += 1
        sent = change(version)
        at, _ = client.until(diagnostics_of(uri, version))
        bursts.append(at - sent)
        burst_cpus.append(cpu_of(pid) - cpu)
    for what, wall, cpu in (
        ("one edit -> diagnostics:               ", singles, single_cpus),
        ("three edits 30 ms apart -> diagnostics:", bursts, burst_cpus),
    ):
        w, c = statistics.median(wall), statistics.median(cpu)
        print(
            f"{what}   {w * 1e3:8.1f} ms, CPU {c * 1e3:8.1f} ms"
            f"  ({w / reference:.2f}x, CPU {c / reference_cpu:.2f}x)"
        )
    print("  (wall: from the last edit to the last version's diagnostics; CPU: the server's,")
    print("   from the first edit of the burst to them)")
    client.request("shutdown", None)
    client.send({"method": "exit"})
    try:
        client.server.wait(600)  # a server may finish compiling stale versions first
    except subprocess.TimeoutExpired:
        client.server.kill()


if __name__ == "__main__":
    main()
