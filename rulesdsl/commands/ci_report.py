"""What CI systems read: `--format github` (workflow commands that annotate a pull request's
lines) and `--format sarif` (SARIF 2.1.0, the format code scanning uploads) for `check`,
`build --check` and `diff --fail-on`.

Every verb turns what it found into :class:`Finding` records (a diagnostic, a stale output, a
PDF not checked, a change at the level CI fails on) and prints them with :func:`render`.
"""

from __future__ import annotations

import contextlib
import json
import sys
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Literal
from urllib.parse import quote

if TYPE_CHECKING:
    from rulesdsl.diagnostics import Diagnostic, Pos

Level = Literal["error", "warning", "note"]

SARIF_SCHEMA = "https://json.schemastore.org/sarif-2.1.0.json"


@dataclass(frozen=True)
class Finding:
    """One thing to show CI: ``rule`` is a diagnostic's code or a word (``stale``)."""

    rule: str
    level: Level
    message: str
    file: str | None = None
    pos: Pos | None = None
    """Line and column, where the finding has them (a diagnostic); else the whole file."""
    summary: str = ""
    """The rule's one-line description (SARIF's rules list)."""


def of_diagnostics(diags: Iterable[Diagnostic]) -> list[Finding]:
    from rulesdsl.diagnostics import CODES

    return [
        Finding(
            d.code,
            d.severity,
            f"{d.message} (hint: {d.hint})" if d.hint else d.message,
            d.pos.file if d.pos else None,
            d.pos,
            CODES.get(d.code, ""),
        )
        for d in diags
    ]


def render(findings: Sequence[Finding], fmt: str) -> None:
    """Print ``findings`` to stdout as GitHub workflow commands or one SARIF document."""
    if fmt == "github":
        sys.stdout.writelines(github_line(f) + "\n" for f in findings)
    elif fmt == "sarif":
        sys.stdout.write(json.dumps(sarif(findings), ensure_ascii=False, indent=2) + "\n")
    else:  # pragma: no cover - the verbs print text and json themselves
        raise ValueError(fmt)


def _data(text: str) -> str:
    """A workflow command's message, escaped as the runner reads it back."""
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def _prop(text: str) -> str:
    return _data(text).replace(":", "%3A").replace(",", "%2C")


def github_line(f: Finding) -> str:
    """``::error file=F,line=L,col=C,endLine=..,endColumn=..,title=CODE::message``."""
    props = []
    if f.file is not None:
        props.append(f"file={_prop(_relative(f.file))}")
    if f.pos is not None:
        p = f.pos
        props += [f"line={p.line}", f"col={p.column}", f"endLine={p.end_line}"]
        if p.end_line == p.line:
            props.append(f"endColumn={p.end_column}")
    props.append(f"title={_prop(f.rule)}")
    return f"::{f.level} {','.join(props)}::{_data(f.message)}"


def sarif(findings: Sequence[Finding]) -> dict[str, object]:
    """One SARIF 2.1.0 log with one run of rulesdsl; its rules are the codes found."""
    from rulesdsl import version

    rules: dict[str, str] = {}
    for f in findings:
        rules.setdefault(f.rule, f.summary or f.rule)
    driver = {
        "name": "rulesdsl",
        "version": version(),
        "rules": [
            {"id": r, "shortDescription": {"text": text}} for r, text in sorted(rules.items())
        ],
    }
    return {
        "$schema": SARIF_SCHEMA,
        "version": "2.1.0",
        "runs": [
            {
                "tool": {"driver": driver},
                "columnKind": "unicodeCodePoints",
                "results": [_result(f) for f in findings],
            }
        ],
    }


def _result(f: Finding) -> dict[str, object]:
    result: dict[str, object] = {"ruleId": f.rule, "level": f.level, "message": {"text": f.message}}
    if f.file is not None:
        where: dict[str, object] = {
            "artifactLocation": {"uri": quote(_relative(f.file)), "uriBaseId": "%SRCROOT%"}
        }
        if f.pos is not None:
            where["region"] = {
                "startLine": f.pos.line,
                "startColumn": f.pos.column,
                "endLine": f.pos.end_line,
                "endColumn": f.pos.end_column,
            }
        result["locations"] = [{"physicalLocation": where}]
    return result


def _relative(file: str) -> str:
    """A path as CI shows it: relative to the folder the command ran in (the checkout), with
    forward slashes."""
    path = Path(file)
    with contextlib.suppress(ValueError, OSError):  # outside the checkout: left as given
        path = path.resolve().relative_to(Path.cwd().resolve())
    return path.as_posix()
