"""Kill builds while their workers render PDFs, and time the build after each kill.

    python dev/kill_build.py                              # 30 kills, seed 0
    python dev/kill_build.py --kills 100 --seed 3 --report /tmp/kill_build.json

A project of two rulesets (two languages: eight PDFs, sheets and cards) is built once. Then,
for each kill, a ruleset is edited (so its four PDFs must be rendered again) and
``rulesdsl build -j 2`` starts in a session of its own; once it has forked its PDF workers
it is given a random delay (0 to 1.5 s, while they render) and then SIGKILL or SIGTERM, sent
either to the build alone (``kill PID``: its workers get no signal) or to its whole process
group (what ``timeout`` does). Then:

* every worker must be gone within 5 seconds (a *survivor* otherwise; the run kills it);
* the killed build must have ended within 30 seconds of the signal;
* the next ``rulesdsl build`` must finish, with exit status 0 and no traceback, within
  ``--time-limit`` seconds (a *hang* otherwise), and ``build --check`` after it must find
  generated/ current.

The report gives the kills by signal and target, how many landed while workers ran, the
next build's times (it renders the PDFs the killed build did not write) and the findings.
Exit status 0 when there was no finding, 1 otherwise. Linux only (it reads /proc).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

RULESET = """\
ruleset {id} "{title}" fr "{title}"
version 1.0.0
languages en fr
units distance in, cost MP
mode walker "Walker" fr "Marcheur"
mode wheeled "Wheeled" fr "Roues"
layer ground "Ground" fr "Sol" one per place {{
  soft "Soft" fr "Mou" | {cost}
  rough "Rough" fr "Accidenté" | 3
  road "Road" fr "Route" | 1
}}
"""
SIGNALS = {"KILL": signal.SIGKILL, "TERM": signal.SIGTERM}


def command(*extra: str) -> list[str]:
    return [sys.executable, "-m", "rulesdsl", "build", *extra]


def make_project(folder: Path) -> Path:
    (folder / "rulesets").mkdir(parents=True)
    for rid in ("alpha", "beta"):
        edit(folder, rid, 2)
    return folder


def edit(project: Path, rid: str, cost: int) -> None:
    text = RULESET.format(id=rid, title=rid.title(), cost=cost)
    (project / "rulesets" / f"{rid}.terrain").write_text(text, "utf-8")


def forked_children(pid: int) -> set[int]:
    """The processes ``pid`` forked that run its program (its PDF workers), from /proc;
    not the short-lived helpers a library starts while it loads."""
    found: set[int] = set()
    try:
        program = Path(f"/proc/{pid}/cmdline").read_bytes()
    except OSError:
        return found
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            fields = (entry / "stat").read_text().rpartition(")")[2].split()
            if int(fields[1]) == pid and (entry / "cmdline").read_bytes() == program:
                found.add(int(entry.name))
        except (OSError, ValueError, IndexError):
            continue
    return found


def alive(pid: int) -> bool:
    """Whether ``pid`` runs (a zombie, dead but not reaped, does not)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()
    except OSError:
        return False
    return bool(fields) and fields[0] not in ("Z", "X")


@dataclass
class Kill:
    """What one kill did."""

    signal: str
    target: str  # "build" or "group"
    delay: float
    landed: bool  # workers were running when the signal went
    workers: list[int]
    survivors: list[int]
    exited_after: float | None  # seconds from the signal to the build's end; None: it did not
    stderr: str


def kill_once(
    project: Path,
    rng: random.Random,
    signame: str | None = None,
    target: str | None = None,
    max_delay: float = 1.5,
) -> Kill:
    """Start a build of ``project`` and kill it while its workers render (see the module
    docstring). A surviving worker is left running (the next build must cope with it): the
    caller ends it with :func:`reap`."""
    signame = signame or rng.choice(sorted(SIGNALS))
    target = target or rng.choice(["build", "group"])
    delay = rng.uniform(0, max_delay)
    with tempfile.TemporaryFile() as err:
        proc = subprocess.Popen(
            command("-j", "2"),
            cwd=project,
            stderr=err,
            stdout=subprocess.DEVNULL,
            start_new_session=True,
        )
        workers: set[int] = set()
        try:
            seen: dict[int, float] = {}  # a worker is a child that stays (a helper forked to
            deadline = time.monotonic() + 120  # run a program looks like one for a moment)
            while proc.poll() is None and time.monotonic() < deadline:
                now = time.monotonic()
                for pid in forked_children(proc.pid):
                    seen.setdefault(pid, now)
                workers = set(seen)
                if any(now - since >= 0.1 and alive(pid) for pid, since in seen.items()):
                    break
                time.sleep(0.005)
            end = time.monotonic() + delay
            while time.monotonic() < end and proc.poll() is None:
                workers |= forked_children(proc.pid)
                time.sleep(0.01)
            landed = proc.poll() is None and any(alive(pid) for pid in workers)
            sent = time.monotonic()
            if proc.poll() is None:
                if target == "group":
                    os.killpg(proc.pid, SIGNALS[signame])
                else:
                    proc.send_signal(SIGNALS[signame])
            try:
                proc.wait(30)
                exited: float | None = time.monotonic() - sent
            except subprocess.TimeoutExpired:
                exited = None
            deadline = time.monotonic() + 5
            while any(alive(pid) for pid in workers) and time.monotonic() < deadline:
                time.sleep(0.02)
            survivors = sorted(pid for pid in workers if alive(pid))
        except BaseException:
            reap(workers)
            raise
        finally:
            if alive(proc.pid):
                proc.kill()
            proc.wait()
        err.seek(0)
        stderr = err.read().decode("utf-8", "replace")
    return Kill(signame, target, delay, landed, sorted(workers), survivors, exited, stderr)


def reap(pids: set[int] | list[int]) -> None:
    """SIGKILL the processes of ``pids`` that still run (workers this run started)."""
    for pid in pids:
        if alive(pid):
            os.kill(pid, signal.SIGKILL)


@dataclass
class Report:
    seed: int
    kills: int = 0
    by: dict[str, int] = field(default_factory=dict)
    landed: int = 0
    survivors: int = 0
    killed_build_hangs: int = 0
    hangs: int = 0
    tracebacks: int = 0
    not_current: int = 0
    taken_over: int = 0
    next_build_seconds: list[float] = field(default_factory=list)
    examples: list[dict[str, Any]] = field(default_factory=list)
    seconds: float = 0.0

    @property
    def findings(self) -> int:
        return (
            self.survivors
            + self.killed_build_hangs
            + self.hangs
            + self.tracebacks
            + self.not_current
        )

    def to_data(self) -> dict[str, Any]:
        times = self.next_build_seconds or [0.0]
        return {
            "seed": self.seed,
            "kills": self.kills,
            "by signal and target": dict(sorted(self.by.items())),
            "landed while workers ran": self.landed,
            "surviving workers": self.survivors,
            "killed builds that did not end": self.killed_build_hangs,
            "next builds that hung": self.hangs,
            "tracebacks": self.tracebacks,
            "not current after the next build": self.not_current,
            "next builds that took a dead build's lock over": self.taken_over,
            "next build seconds": {
                "median": round(statistics.median(times), 2),
                "max": round(max(times), 2),
            },
            "findings": self.findings,
            "seconds": round(self.seconds, 1),
            "examples": self.examples[:10],
        }


def run(
    kills: int,
    seed: int,
    *,
    limit: float = 120.0,
    progress: Callable[[Report], None] | None = None,
) -> Report:
    rng = random.Random(seed)
    report = Report(seed)
    started = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="rulesdsl-kill-") as tmp:
        project = make_project(Path(tmp) / "project")
        subprocess.run(command(), cwd=project, check=True, capture_output=True)
        for number in range(kills):
            edit(project, rng.choice(["alpha", "beta"]), number + 3)
            kill = kill_once(project, rng)
            report.kills += 1
            key = f"SIG{kill.signal} to the {kill.target}"
            report.by[key] = report.by.get(key, 0) + 1
            report.landed += kill.landed
            report.survivors += len(kill.survivors)
            report.killed_build_hangs += kill.exited_after is None
            problems = []
            if kill.survivors or kill.exited_after is None or "Traceback" in kill.stderr:
                problems.append(f"killed build: {kill}")
            report.tracebacks += "Traceback" in kill.stderr
            try:
                timed = time.perf_counter()
                done = subprocess.run(
                    command(), cwd=project, capture_output=True, text=True, timeout=limit
                )
                report.next_build_seconds.append(time.perf_counter() - timed)
                report.taken_over += "taken over" in done.stderr
                if done.returncode != 0 or "Traceback" in done.stderr:
                    report.tracebacks += 1
                    problems.append(f"next build: exit {done.returncode}: {done.stderr}")
                check = subprocess.run(
                    command("--check"), cwd=project, capture_output=True, text=True, timeout=limit
                )
                if check.returncode != 0:
                    report.not_current += 1
                    problems.append(f"build --check: {check.stderr}")
            except subprocess.TimeoutExpired:
                report.hangs += 1
                problems.append(f"next build: still running after {limit} s")
            reap(kill.survivors)  # only now: a survivor's lock must not hang the next build
            if problems:
                report.examples.append({"kill": number, "problems": problems})
            report.seconds = time.perf_counter() - started
            if progress is not None:
                progress(report)
    return report


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--kills", type=int, default=30)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--time-limit", type=float, default=120.0, help="for the next build")
    parser.add_argument("--report", type=Path, default=None, help="write the JSON report here")
    args = parser.parse_args(argv)

    def show(report: Report) -> None:
        data = report.to_data()
        print(
            f"{report.kills} kills ({report.landed} while workers ran), "
            f"{report.findings} findings, next build {data['next build seconds']}, "
            f"{report.seconds:.0f} s",
            file=sys.stderr,
            flush=True,
        )
        if args.report is not None:
            args.report.write_text(json.dumps(data, indent=1) + "\n", "utf-8")

    report = run(args.kills, args.seed, limit=args.time_limit, progress=show)
    if report.findings:
        print(json.dumps(report.examples, indent=1), file=sys.stderr)
    return 1 if report.findings else 0


if __name__ == "__main__":
    sys.exit(main())
