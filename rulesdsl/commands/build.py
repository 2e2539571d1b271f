"""`rulesdsl build [NAME...] [--check] [--jobs N]`: compile rulesets into generated/.

The work is :func:`rulesdsl.builder.build.build`'s; this module reads the options and prints the
outcome.
"""

from __future__ import annotations

import argparse
import json
import signal
import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from types import FrameType
from typing import TYPE_CHECKING

from rulesdsl.commands import verb_parser
from rulesdsl.commands.common import format_option

if TYPE_CHECKING:
    from rulesdsl.builder.build import BuildResult
    from rulesdsl.diagnostics import Diagnostic

DESCRIPTION = (
    "Compile every ruleset under rulesets/ (or only the named ones and the rulesets that extend "
    "them) into generated/: python/ modules and sheets/. Rulesets whose sources, bases and "
    "outputs are unchanged since the last build are skipped without compiling. A build with "
    "any error writes nothing; a build that is interrupted is finished by the next one. The "
    "build removes outputs it wrote that no ruleset makes any more (it records them in "
    "generated/.rulesdsl-manifest.json), never other files. PDFs need the 'pdf' extra "
    "(WeasyPrint): without it the build writes the rest, leaves the PDFs as they are, and "
    "lists them; --check then does not count them as stale."
)


def register(verbs: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = verb_parser(verbs, "build", run, description=DESCRIPTION)
    add_arguments(p)
    format_option(p, ci=True)


def add_arguments(p: argparse.ArgumentParser) -> None:
    from rulesdsl.codegen.targets import TARGETS

    p.add_argument(
        "names",
        nargs="*",
        metavar="NAME",
        help="build only these ruleset ids and the rulesets that extend them",
    )
    p.add_argument(
        "--check",
        action="store_true",
        help="write nothing; exit 1 if the build would change generated/",
    )
    p.add_argument(
        "--against",
        metavar="REV",
        help="with --check: also exit 1 when a ruleset changed since this git revision without "
        "the version bump its diff needs (W601)",
    )
    p.add_argument("--rulesets", metavar="DIR", help="source folder (default: ./rulesets)")
    p.add_argument("--out", metavar="DIR", help="output folder (default: ./generated)")
    p.add_argument(
        "-j",
        "--jobs",
        type=int,
        metavar="N",
        default=None,
        help="processes rendering PDF sheets (default: one per core)",
    )
    p.add_argument(
        "--strict",
        action="store_true",
        help="text a PDF loses past a cut or in the safe zone is an error, not a warning "
        "(nothing is written); for CI",
    )
    p.add_argument(
        "--require",
        action="append",
        default=[],
        choices=("pdf", "xlsx"),
        metavar="EXTRA",
        help="fail (exit 2) when this extra is not installed, rather than leave what needs it "
        "unmade or, with --check, unchecked; for CI: --require pdf",
    )
    p.add_argument(
        "--target",
        action="append",
        default=[],
        choices=tuple(t.name for t in TARGETS),
        metavar="TARGET",
        help="write this target's modules (repeatable): python (the default) or js, the "
        "JavaScript package in generated/js/ (docs/module-api-js.md); sheets and decks always",
    )
    p.add_argument(
        "--force",
        action="store_true",
        help="compile every ruleset even where its stamp says it is up to date",
    )


def run(args: argparse.Namespace) -> int:
    from rulesdsl.builder.build import UnknownRuleset, build, skipped_links
    from rulesdsl.builder.transaction import OutputFolderError
    from rulesdsl.commands.common import EXIT_OK, EXIT_RULES, UsageError, find_project, report

    project = None if args.rulesets and args.out else find_project()
    rulesets = Path(args.rulesets) if args.rulesets else project / "rulesets"  # type: ignore[operator]
    out = Path(args.out) if args.out else project / "generated"  # type: ignore[operator]
    if not rulesets.is_dir():
        raise UsageError(f"no such folder: {rulesets}")
    if getattr(args, "against", None) and not args.check:
        raise UsageError("--against goes with --check: `rulesdsl build --check --against REV`")
    if args.jobs is not None and args.jobs < 1:
        raise UsageError("--jobs must be 1 or more")
    _require(args.require)
    try:
        with _sigterm_unwinds():
            result = build(
                rulesets,
                out,
                check=args.check,
                names=args.names,
                jobs=args.jobs,
                incremental=not args.force,
                strict=getattr(args, "strict", False),
                target_names=getattr(args, "target", []),
            )
    except UnknownRuleset as exc:
        raise UsageError(str(exc)) from None
    except OutputFolderError as exc:
        raise UsageError(f"{exc} (nothing was written)") from None
    diags = [
        *skipped_links(rulesets),
        *result.diagnostics,
        *(d for c in result.compiled for d in c.diagnostics),
    ]
    if args.format != "text":
        _machine_report(args.format, result, out, diags)
    elif diags:
        from rulesdsl.compiler import Compiler

        report(diags, result.compiler or Compiler(), args.format)
    if not result.ok:
        print("build failed: nothing was written", file=sys.stderr)
        return EXIT_RULES
    done = len(result.compiled) + len(result.up_to_date)
    against: str | None = getattr(args, "against", None)
    unbumped = against is not None and _unbumped(rulesets, against, args.format)
    if args.check:
        if result.stale:
            print(
                f"{out} is stale ({len(result.stale)} files); run `rulesdsl build`:",
                file=sys.stderr,
            )
            for rel in result.stale:
                print(f"  {out / rel}", file=sys.stderr)
        else:
            print(f"{out} is current ({_count(done, 'ruleset')})", file=sys.stderr)
        _report_skipped(result.skipped, out, check=True)
        return EXIT_RULES if result.stale or unbumped else EXIT_OK
    removed = f", {len(result.removed)} removed" if result.removed else ""
    if not result.written and not result.removed:  # a fresh clone: generated/ is committed
        print(
            f"{out} is already current ({_count(done, 'ruleset')}, {len(result.compiled)} "
            "compiled): nothing to write",
            file=sys.stderr,
        )
    else:
        print(
            f"built {_count(done, 'ruleset')} ({len(result.compiled)} compiled, "
            f"{len(result.up_to_date)} up to date): {_count(len(result.written), 'file')} "
            f"written{removed} in {out}",
            file=sys.stderr,
        )
    _report_skipped(result.skipped, out, check=False)
    return EXIT_OK


def _require(extras: list[str]) -> None:
    """``--require``: a missing extra is a usage error before anything is compiled."""
    from rulesdsl.commands.common import UsageError
    from rulesdsl.extras import install_hint, missing

    for extra in extras:
        if missing(extra):
            raise UsageError(
                f"--require {extra}: the '{extra}' extra ({', '.join(missing(extra))}) is not "
                f"installed; {install_hint(extra)}"
            )


def _machine_report(fmt: str, result: BuildResult, out: Path, diags: list[Diagnostic]) -> None:
    """``--format json|github|sarif`` on stdout: the diagnostics, then, with --check, each
    stale output (an error) and each output not checked for want of an extra (a warning)."""
    from rulesdsl.commands.ci_report import Finding, of_diagnostics, render

    if fmt == "json":
        from rulesdsl.diagnostics import to_data

        data = {
            "ok": result.ok and not result.stale,
            "diagnostics": to_data(diags),
            "stale": result.stale,
            "skipped": [{"path": rel, "extra": extra} for rel, extra in result.skipped.items()],
        }
        print(json.dumps(data, ensure_ascii=False, indent=2))
        return
    stale = [
        Finding("stale", "error", "out of date: run `rulesdsl build` and commit it", str(out / r))
        for r in result.stale
    ]
    skipped = [
        Finding(
            "not-checked", "warning", f"not checked: the '{e}' extra is not installed", str(out / r)
        )
        for r, e in result.skipped.items()
    ]
    render([*of_diagnostics(diags), *stale, *skipped], fmt)


def _unbumped(rulesets: Path, rev: str, form: str) -> bool:
    """`--check --against REV`: report (W601) each ruleset whose version does not obey its diff
    since ``rev``; whether there is one."""
    from rulesdsl.commands.common import UsageError, report
    from rulesdsl.compiler import Compiler, ruleset_files
    from rulesdsl.versions.versioning import unbumped_in

    if rev.startswith("-"):
        raise UsageError(f"--against: '{rev}' is not a git revision (it starts with '-')")
    compiler = Compiler()
    found = unbumped_in(ruleset_files(rulesets), rev, compiler)
    report(found, compiler, "text" if form == "sarif" else form)  # one SARIF log on stdout
    if found:
        print(
            f"{_count(len(found), 'ruleset')} changed since {rev} without the version bump "
            "its diff needs",
            file=sys.stderr,
        )
    return bool(found)


def _report_skipped(skipped: dict[str, str], out: Path, check: bool) -> None:
    """One notice per missing extra: the outputs not made (or not checked) for want of it,
    whether each is missing or out of date, and the command that installs it."""
    from rulesdsl.extras import EXTRAS, install_hint

    for extra in sorted(set(skipped.values())):
        rels = [rel for rel, needs in skipped.items() if needs == extra]
        noun = "PDF" if extra == "pdf" else "file"
        packages = ", ".join(EXTRAS.get(extra, ()))
        done, do = ("checked", "check") if check else ("made", "make")
        print(
            f"{_count(len(rels), noun)} not {done}: the '{extra}' extra ({packages}) is not "
            f"installed; {install_hint(extra)} to {do} them:",
            file=sys.stderr,
        )
        for rel in rels:
            state = "out of date, left as it is" if (out / rel).exists() else "missing"
            print(f"  {out / rel} ({state})", file=sys.stderr)


@contextmanager
def _sigterm_unwinds() -> Iterator[None]:
    """Turn SIGTERM (what `timeout` and `kill` send) into an exit that unwinds the build:
    its PDF workers are killed and its lock given back. Where the build ends mid-commit,
    the next build finishes the run, as after any kill."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def stop(signum: int, frame: FrameType | None) -> None:
        print("rulesdsl: build stopped by SIGTERM", file=sys.stderr)
        raise SystemExit(128 + signum)

    previous = signal.signal(signal.SIGTERM, stop)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)


def _count(n: int, noun: str) -> str:
    """``1 ruleset``, ``2 rulesets``: the CLI speaks English only."""
    return f"{n} {noun}" if n == 1 else f"{n} {noun}s"
