"""The long fuzz run: generated rulesets with injected faults, in the DSL and in YAML, through
every CLI verb that takes a ruleset, and every module they build asked every question.

    python dev/fuzz.py                     # 100,000 inputs, seed 0
    python dev/fuzz.py --inputs 2000 --seed 7 --report /tmp/fuzz.json

It runs in this process for speed: each input is written to a fresh folder and given, through
``rulesdsl.commands.cli.main``, to check, export (yaml, json), sheet (--format md and html),
convert, fmt --check, diff (against the fault-free ruleset it came from), export --format csv, new
(a house rule extending it, which the library's build compiles too) and build --out (the
library's build without the PDF backend; every ``--pdf-every``-th input runs the CLI's
``build`` with PDFs). A built module is imported (under its own name) and asked every
question by dev/module_driver.py. An exception out of a verb, an exit status other than 0,
1 or 2, or an undocumented exception from a module is a *traceback*; an input that takes
more than ``--time-limit`` seconds of CPU time (or ten times that on the clock) is a *hang*
(SIGPROF or SIGALRM interrupts it; CPU time, so a machine shared with other work does not
make a slow input look like a hang). Findings are
grouped by where they were raised; the report holds one input and traceback per group.
Exit status 0 when there was no finding, 1 otherwise.
"""

from __future__ import annotations

import argparse
import contextlib
import functools
import io
import json
import random
import re
import resource
import shutil
import signal
import sys
import tempfile
import time
import traceback
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from types import FrameType
from typing import Any

if __package__ in (None, ""):  # run as a script: make `dev` importable
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from dev import fuzzgen, module_driver

ROOT = Path(__file__).resolve().parent.parent
EXIT_CODES = (0, 1, 2)


class Hang(BaseException):
    """Raised by SIGPROF or SIGALRM when an input runs past its time limit."""


@dataclass
class Finding:
    kind: str  # "traceback" or "hang"
    where: str  # the verb, or "module"
    case: fuzzgen.Case
    detail: str

    @property
    def signature(self) -> str:
        """Where it was raised: the verb, the exception type and the last frame."""
        lines = [ln for ln in self.detail.strip().splitlines() if ln.strip()]
        frames = [  # a built module's frame without its input's temporary folder
            re.sub(r'File "[^"]*/', 'File "', ln.strip())
            for ln in lines
            if ln.strip().startswith("File ")
        ]
        last = lines[-1].split(":")[0] if lines else ""
        return f"{self.kind} {self.where} {last} {frames[-1] if frames else ''}"


@dataclass
class Tally:
    inputs: int = 0
    yaml: int = 0
    compiled_ok: int = 0
    modules: int = 0
    module_calls: int = 0
    pdf_builds: int = 0
    verbs: int = 0
    findings: list[Finding] = field(default_factory=list)


def _cli(argv: list[str]) -> tuple[int, str, str]:
    """``rulesdsl ARGV`` in this process: exit status, stdout, stderr. An exception out of
    ``main`` is what would have been a traceback: it propagates."""
    from rulesdsl.commands import cli

    out = io.TextIOWrapper(io.BytesIO(), encoding="utf-8", errors="replace")
    err = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = cli.main(argv)
        out.flush()
    stdout = out.buffer.getvalue().decode("utf-8", "replace")  # type: ignore[attr-defined,unused-ignore]
    return code, stdout, err.getvalue()


def verbs(path: Path, base: Path, out: Path, pdf: bool) -> Iterator[tuple[str, list[str]]]:
    """Every CLI verb that takes a ruleset, as (name, argv)."""
    p = str(path)
    yield "check", ["check", p]
    yield "check-json", ["check", "--format", "json", p]
    yield "export", ["export", p]
    yield "export-json", ["export", "--format", "json", p]
    yield "sheet-md", ["sheet", p, "--format", "md"]
    yield "sheet-html", ["sheet", p, "--format", "html"]
    yield "convert", ["convert", p]
    yield "fmt", ["fmt", "--check", p]
    yield "diff", ["diff", str(base), p]
    yield "export-csv", ["export", "--format", "csv", "--table", "terrain", p]
    if pdf:
        yield "build", ["build", "--rulesets", str(path.parent), "--out", str(out), "-j", "1"]
    # a house rule of it, beside it: the library's build (without PDFs) compiles it too
    yield "new", ["new", "--extends", path.stem, "--dir", str(path.parent), "house"]


def _no_pdf(ruleset: Any) -> dict[str, Any]:
    from rulesdsl.builder.build import sheet_outputs

    return {k: v for k, v in sheet_outputs(ruleset).items() if not k.endswith(".pdf")}


def build_without_pdf(rulesets: Path, out: Path) -> list[str]:
    """The library's build (the CLI's `build` less PDF rendering); the files written."""
    from rulesdsl.builder.build import TargetOutputs, build
    from rulesdsl.codegen.targets import PYTHON

    result = build(rulesets, out, backends=(TargetOutputs(PYTHON), _no_pdf), incremental=False)
    return result.written


def run_case(
    case: fuzzgen.Case, work: Path, tally: Tally, pdf: bool = False, base_text: str | None = None
) -> list[Finding]:
    """All verbs and the built module for one input; what went wrong."""
    found: list[Finding] = []
    src = work / "rulesets"
    src.mkdir()
    path = src / case.filename
    path.write_text(case.text, "utf-8", errors="surrogatepass")
    base = work / f"base{case.suffix if case.suffix == '.terrain' else '.terrain'}"
    base.write_text(base_text or fuzzgen.ruleset(random.Random(0)), "utf-8")
    out = work / "out"
    for verb, argv in verbs(path, base, out, pdf):
        tally.verbs += 1
        try:
            code, _, _ = _cli(argv)
        except Hang:
            raise
        except SystemExit as exc:
            found.append(Finding("traceback", verb, case, f"SystemExit({exc.code!r})"))
            continue
        except BaseException:
            found.append(Finding("traceback", verb, case, traceback.format_exc()))
            continue
        if code not in EXIT_CODES:
            found.append(Finding("traceback", verb, case, f"exit status {code}"))
        if verb == "check" and code == 0:
            tally.compiled_ok += 1
    if not pdf:
        try:
            build_without_pdf(src, out)
        except Hang:
            raise
        except Exception as exc:
            from rulesdsl.builder.transaction import OutputFolderError

            if not isinstance(exc, OutputFolderError):
                found.append(Finding("traceback", "build", case, traceback.format_exc()))
    tally.pdf_builds += pdf
    for module in sorted((out / "python").glob("*.py")) if (out / "python").is_dir() else []:
        tally.modules += 1
        name = f"fuzzed_{tally.inputs}_{module.stem}"
        try:
            mod = module_driver.load(str(module), name)
        except Hang:
            raise
        except BaseException:
            found.append(Finding("traceback", "module-import", case, traceback.format_exc()))
            continue
        finally:
            sys.modules.pop(name, None)
        failures = module_driver.exercise(mod)
        tally.module_calls += 1
        found += [Finding("traceback", "module", case, f) for f in failures]
    return found


def share_parsers() -> None:
    """Build each verb's command-line parser once in this process, as the front ends already
    share their Lark parser (``dsl.lalr_parser``): argparse parsers keep no state either."""
    from rulesdsl.commands import cli

    cli.make_parser = functools.cache(cli.make_parser)  # type: ignore[method-assign,assignment,unused-ignore]


def share_front_ends() -> None:
    """Parse each file text once: the verbs of one input read the same file a dozen times, and
    a front end's answer is a pure function of the text and the path (frozen syntax nodes and
    diagnostics), so the later verbs are given a copy of the first answer. Every verb still
    resolves, lowers, checks and writes its own outputs."""
    from rulesdsl.frontends import dsl, yaml_authoring

    def remembered(parse: Any, method: bool) -> Any:
        seen: dict[tuple[str, str], tuple[Any, list[Any]]] = {}

        @functools.wraps(parse)
        def parse_once(*args: Any) -> tuple[Any, list[Any]]:
            key = (args[1], args[2]) if method else (args[0], args[1])  # (text, path)
            if key not in seen:
                if len(seen) > 16:  # the folder of the previous input is gone
                    seen.clear()
                seen[key] = parse(*args)
            tree, diags = seen[key]
            return tree, list(diags)

        return parse_once

    dsl.Parser.parse = remembered(dsl.Parser.parse, method=True)  # type: ignore[method-assign]
    yaml_authoring.parse_yaml = remembered(yaml_authoring.parse_yaml, method=False)  # type: ignore[assignment]


def _alarm(signum: int, frame: FrameType | None) -> None:
    raise Hang


def peak_rss_bytes() -> int:
    """This process's peak resident memory since it started its program. Linux's
    ``ru_maxrss`` also counts the process it was forked from before ``exec`` (a fuzzer started
    by a 1.4 GiB test worker reads 1.4 GiB); the ``VmHWM`` line of /proc/self/status does not."""
    try:
        for line in Path("/proc/self/status").read_text("ascii").splitlines():
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) * 1024  # kB
    except OSError:
        pass
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024  # Linux: KiB


@contextlib.contextmanager
def hang_alarms() -> Iterator[None]:
    """While it lasts, SIGALRM and SIGPROF (an input's time limit) raise :class:`Hang`; after,
    the timers are stopped and the handlers put back. Every fuzzer in dev/ runs under it."""
    handlers = {sig: signal.signal(sig, _alarm) for sig in (signal.SIGALRM, signal.SIGPROF)}
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_PROF, 0)
        signal.setitimer(signal.ITIMER_REAL, 0)
        for sig, handler in handlers.items():
            signal.signal(sig, handler)


def _summary(
    tally: Tally, groups: dict[str, list[Finding]], seed: int, elapsed: float
) -> dict[str, Any]:
    return {
        "inputs": tally.inputs,
        "yaml_inputs": tally.yaml,
        "seed": seed,
        "compiled_without_errors": tally.compiled_ok,
        "verb_runs": tally.verbs,
        "cli_builds_with_pdf": tally.pdf_builds,
        "modules_exercised": tally.modules,
        "tracebacks": sum(f.kind == "traceback" for f in tally.findings),
        "hangs": sum(f.kind == "hang" for f in tally.findings),
        "seconds": round(elapsed),
        "groups": [
            {
                "signature": sig,
                "count": len(fs),
                "where": fs[0].where,
                "how": fs[0].case.how,
                "input": fs[0].case.text,
                "suffix": fs[0].case.suffix,
                "detail": fs[0].detail,
            }
            for sig, fs in sorted(groups.items(), key=lambda kv: -len(kv[1]))
        ],
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--inputs", type=int, default=100_000)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument(
        "--time-limit",
        type=float,
        default=20.0,
        help="CPU seconds one input may take before it counts as a hang (10 x on the clock)",
    )
    parser.add_argument(
        "--pdf-every",
        type=int,
        default=500,
        help="every N-th input runs the CLI's build with PDFs (0: never)",
    )
    parser.add_argument(
        "--report", default="fuzz-report.json", help="where to write the findings (JSON)"
    )
    parser.add_argument("--progress", type=int, default=1000, help="print a line every N inputs")
    args = parser.parse_args(argv)

    import warnings

    warnings.simplefilter("ignore")
    share_parsers()
    share_front_ends()
    with hang_alarms():
        return _run(args)


def _run(args: argparse.Namespace) -> int:
    seeds = {
        p.stem: p.read_text("utf-8")
        for p in sorted((ROOT / "rulesets").glob("*.terrain"))
        if "extends" not in p.read_text("utf-8")
    }
    rng = random.Random(args.seed)
    tally = Tally()
    groups: dict[str, list[Finding]] = {}
    start = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="rulesdsl-fuzz-") as tmp:
        for i in range(args.inputs):
            case = fuzzgen.case(rng, seeds)
            tally.inputs += 1
            tally.yaml += case.suffix == ".yaml"
            work = Path(tmp) / str(i)
            work.mkdir()
            pdf = bool(args.pdf_every) and i % args.pdf_every == args.pdf_every - 1
            limit = args.time_limit * (4 if pdf else 1)
            signal.setitimer(signal.ITIMER_PROF, limit)
            signal.setitimer(signal.ITIMER_REAL, 10 * limit)
            try:
                found = run_case(case, work, tally, pdf)
            except Hang:
                found = [Finding("hang", "input", case, f"over {limit} s of CPU time")]
            finally:
                signal.setitimer(signal.ITIMER_PROF, 0)
                signal.setitimer(signal.ITIMER_REAL, 0)
            shutil.rmtree(work, ignore_errors=True)
            for f in found:
                groups.setdefault(f.signature, []).append(f)
            tally.findings += found
            if args.progress and (i + 1) % args.progress == 0:
                rate = (i + 1) / (time.monotonic() - start)
                print(
                    f"{i + 1} inputs, {len(tally.findings)} findings in {len(groups)} groups,"
                    f" {rate:.1f} inputs/s",
                    flush=True,
                )
                summary = _summary(tally, groups, args.seed, time.monotonic() - start)
                Path(args.report).write_text(json.dumps(summary, indent=1), "utf-8")
    summary = _summary(tally, groups, args.seed, time.monotonic() - start)
    Path(args.report).write_text(json.dumps(summary, indent=1), "utf-8")
    print(json.dumps({k: v for k, v in summary.items() if k != "groups"}))
    for g in summary["groups"]:
        print(f"  {g['count']:6d}  {g['signature']}")
    return 0 if not tally.findings else 1


if __name__ == "__main__":
    sys.exit(main())
