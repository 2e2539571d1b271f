"""The corpus of pinned answers (issue 39, item 2): every bundled ruleset and every ruleset file
under tests/ asked a seeded set of questions (:mod:`rulesdsl.versions.answers`: every unit type
in every feature, then samples of every public function of its module), the answers kept in
tests/corpus/<file>.json with the edition the ruleset was read in.

A release keeps meaning: an answer may differ from the pinned one only when
tests/corpus/changes.json lists it, with the answer it gives now and the edition that makes it,
an edition newer than the one pinned and no newer than the ruleset's own (a ruleset moved to that
edition). Record the corpus again (after a change that is meant and listed, or for a new
ruleset) with ``python -m tests.pinned``.
"""

from __future__ import annotations

import json
import sys
from dataclasses import dataclass
from pathlib import Path

from rulesdsl import editions
from rulesdsl.compiler import Compiler
from rulesdsl.versions.answers import answers

ROOT = Path(__file__).resolve().parent.parent
CORPUS = ROOT / "tests" / "corpus"
CHANGES = CORPUS / "changes.json"


def ruleset_files() -> list[Path]:
    """The bundled rulesets and the ruleset files under tests/data (charts are layers, not
    rulesets: they are read in the ruleset they go into)."""
    found = [
        *(ROOT / "rulesets").glob("*.terrain"),
        *(ROOT / "rulesets").glob("*.yaml"),
        *(ROOT / "tests" / "data").rglob("*.terrain"),
        *(ROOT / "tests" / "data").rglob("*.yaml"),
    ]
    return sorted(found)


def key(path: Path) -> str:
    return path.relative_to(ROOT).as_posix()


def record_path(path: Path) -> Path:
    return CORPUS / (key(path).replace("/", "--") + ".json")


@dataclass(frozen=True)
class Pinned:
    edition: str
    answers: dict[str, str]


def ask(path: Path, compiler: Compiler) -> Pinned:
    """The answers of ``path`` as the compiler gives them now (compiled once)."""
    compiled = compiler.compile_file(path)
    if compiled.ruleset is None:  # a file kept to be refused (tests/data/traps): its errors
        codes = sorted({d.code for d in compiled.diagnostics if d.is_error})
        return Pinned("", {"refused with": " ".join(codes)})
    return Pinned(compiled.ruleset.edition, answers(compiled.ruleset))


def dumps(pinned: Pinned) -> str:
    """One answer a line, sorted: a change of answer is a one-line diff."""
    lines = [
        f"{json.dumps(k, ensure_ascii=False)}:{json.dumps(v, ensure_ascii=False)}"
        for k, v in sorted(pinned.answers.items())
    ]
    body = ",\n".join(lines)
    return f'{{"edition":{json.dumps(pinned.edition)},"answers":{{\n{body}\n}}}}\n'


def load(path: Path) -> Pinned:
    data = json.loads(record_path(path).read_text("utf-8"))
    return Pinned(data["edition"], data["answers"])


def listed_changes() -> dict[str, dict[str, dict[str, str]]]:
    """changes.json: by file, by call: ``{"edition": E, "now": answer}``."""
    data: dict[str, dict[str, dict[str, str]]] = json.loads(CHANGES.read_text("utf-8"))
    return data


def unexplained(
    file: str,
    pinned: Pinned,
    now: Pinned,
    changes: dict[str, dict[str, dict[str, str]]],
) -> list[str]:
    """Each answer of ``now`` that differs from ``pinned`` and no listed change explains."""
    listed = changes.get(file, {})
    out = []
    for call in sorted(set(pinned.answers) | set(now.answers)):
        was, answer = pinned.answers.get(call), now.answers.get(call)
        if was == answer:
            continue
        entry = listed.get(call)
        if entry is not None and entry.get("now") == answer and _in_range(entry, pinned, now):
            continue
        out.append(f"{file}: {call}: pinned {was}, now {answer}")
    return out


def _in_range(entry: dict[str, str], pinned: Pinned, now: Pinned) -> bool:
    """The edition a change is listed with is known, newer than the pinned one and no newer
    than the ruleset's own: within one edition, answers never change."""
    names = editions.NAMES
    edition = entry.get("edition", "")
    return (
        edition in names
        and pinned.edition in names
        and now.edition in names
        and names.index(pinned.edition) < names.index(edition) <= names.index(now.edition)
    )


def record() -> None:
    """Write tests/corpus/ anew from the compiler as it is."""
    compiler = Compiler()
    CORPUS.mkdir(exist_ok=True)
    for path in ruleset_files():
        record_path(path).write_text(dumps(ask(path, compiler)), "utf-8")
    if not CHANGES.exists():
        CHANGES.write_text("{}\n", "utf-8")


if __name__ == "__main__":
    record()
    sys.exit(0)
