"""`rulesdsl init [DIR]`: lay out a new rulesdsl project.

It writes a starter ruleset that compiles (``rulesets/<id>.terrain``), a README, a .gitignore,
a requirements file pinning the running install, and a GitHub Actions workflow that installs
it and checks the rules, that ``generated/`` (PDFs included) is current and that no pull
request breaks the generated modules' users. It never overwrites a file: when any of
them exists, it writes nothing. The starter is compiled before anything is written.
"""

from __future__ import annotations

import argparse
import os
import re
import shlex
import sys
from pathlib import Path

from rulesdsl import editions, ir
from rulesdsl.checks.reserved import is_reserved
from rulesdsl.commands import verb_parser
from rulesdsl.commands.common import EXIT_OK, EXIT_RULES, UsageError, report
from rulesdsl.commands.requirements import REQUIREMENTS, requirements_text
from rulesdsl.frontends import registry

DEFAULT_ID = "my_rules"
"""The ruleset id when the folder's name cannot be one."""


def register(verbs: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = verb_parser(
        verbs,
        "init",
        run,
        description="Write a new rulesdsl project in DIR (made if missing): "
        "rulesets/ID.terrain, a starter ruleset that compiles, with comments; README.md; "
        ".gitignore; requirements-rules.txt, this install of rulesdsl (with the pdf extra) "
        "and the versions of what it uses; and .github/workflows/rules.yml, a CI job that "
        "installs that file and runs `rulesdsl check`, `rulesdsl build --check --require pdf` "
        "and `rulesdsl diff --fail-on breaking`. An existing file is "
        "never overwritten: if any of these exists, nothing is written.",
    )
    p.add_argument("dir", metavar="DIR", nargs="?", default=".", help="the folder (default: .)")
    p.add_argument(
        "--id",
        metavar="ID",
        help="the starter ruleset's id and file name (default: from the folder's name)",
    )


def run(args: argparse.Namespace) -> int:
    from rulesdsl.compiler import Compiler

    folder = Path(args.dir)
    try:
        rid, files, note = _planned(folder, args.id)
    except OSError as exc:  # a name over 255 bytes, a folder that cannot be read...
        raise UsageError(f"init: cannot use {folder}: {exc.strerror or exc}") from None
    compiler = Compiler()
    starter = f"rulesets/{rid}{registry.DSL.suffixes[0]}"
    compiled = compiler.compile_text(files[starter], str(folder / starter), folder / "rulesets")
    if not compiled.ok:  # pragma: no cover - a starter that does not compile is a bug here
        report(compiled.diagnostics, compiler, "text")
        return EXIT_RULES
    write_all(folder, files)
    print(f"wrote a new rulesdsl project in {folder}:", file=sys.stderr)
    listing = {
        starter: "a starter ruleset: make it your game's",
        "README.md": "how to build and use it",
        ".gitignore": "generated/ is committed, the build's working files are not",
        REQUIREMENTS: "what CI installs: this rulesdsl, the pdf extra, their versions",
        WORKFLOW: "CI: check, build --check --require pdf, diff --fail-on breaking",
    }
    width = max(map(len, listing))
    for rel, what in listing.items():
        print(f"  {rel:<{width}}  {what}", file=sys.stderr)
    if note:
        print(f"note: {note}", file=sys.stderr)
    where = "" if folder == Path() else f"cd {shlex.quote(str(folder))} && "
    print(f"next: {where}rulesdsl build", file=sys.stderr)
    return EXIT_OK


def _planned(folder: Path, given_id: str | None) -> tuple[str, dict[str, str], str | None]:
    """The starter's id and the project's files, once the folder is found fit for them: a
    folder, none of the files there yet, and no linked folder on their way that leads out
    of it (``rulesets`` linked elsewhere would put the starter outside the project)."""
    if folder.exists() and not folder.is_dir():
        raise UsageError(f"{folder} is a file; give init a folder")
    rid = given_id if given_id is not None else ruleset_id(folder.resolve().name)
    if not valid_id(rid):
        raise UsageError(
            f"'{rid}' cannot be a ruleset id: use letters, digits and _ (at most "
            f"{ir.IDENT.max_length}), not a Python or module name"
        )
    requirements, note = requirements_text()
    files = project_files(rid, requirements)
    existing = [rel for rel in files if (folder / rel).exists() or (folder / rel).is_symlink()]
    if existing:
        raise UsageError(
            f"{folder} already has {', '.join(existing)}; init never overwrites a file: "
            "move them away or give another folder"
        )
    root = folder.resolve()
    for rel in files:
        for parent in reversed(Path(rel).parents[:-1]):  # rulesets, .github, .github/workflows
            here = folder / parent
            target = Path(os.path.realpath(here))  # a loop of links stays where it is
            if here.is_symlink() and not target.is_relative_to(root):
                raise UsageError(
                    f"init: {parent.as_posix()} is a link to {target}, outside "
                    f"{folder}; init writes only inside the project: remove the link or "
                    "give another folder"
                )
    return rid, files, note


def ruleset_id(name: str) -> str:
    """A ruleset id made from a folder's name: lower case, runs of other characters as one
    ``_``; :data:`DEFAULT_ID` when that is no valid id (empty, a Python name...)."""
    rid = re.sub(r"[^a-z0-9]+", "_", name.lower()).strip("_")
    if rid[:1].isdigit():
        rid = f"rules_{rid}"
    for candidate in (rid, f"{rid}_rules"):
        if rid and valid_id(candidate):
            return candidate
    return DEFAULT_ID


def valid_id(rid: str) -> bool:
    return (
        re.fullmatch(ir.IDENT.regex, rid) is not None
        and len(rid) <= ir.IDENT.max_length
        and not is_reserved(rid)
    )


def write_all(folder: Path, files: dict[str, str]) -> None:
    """Create each file (and its folders), never replacing one; if one appears meanwhile,
    remove those this call made and report it."""
    made: list[Path] = []
    try:
        for rel, text in files.items():
            path = folder / rel
            path.parent.mkdir(parents=True, exist_ok=True)
            with path.open("x", encoding="utf-8", newline="\n") as handle:
                made.append(path)
                handle.write(text)
    except FileExistsError as exc:
        for path in made:
            path.unlink(missing_ok=True)
        raise UsageError(f"{exc.filename} appeared meanwhile; nothing was written") from None
    except OSError as exc:
        for path in made:
            path.unlink(missing_ok=True)
        raise UsageError(f"cannot write {exc.filename or folder}: {exc.strerror}") from None


WORKFLOW = ".github/workflows/rules.yml"


def project_files(rid: str, requirements: str) -> dict[str, str]:
    """The files of a new project, by path relative to its folder."""
    python = f"{sys.version_info.major}.{sys.version_info.minor}"
    return {
        f"rulesets/{rid}{registry.DSL.suffixes[0]}": STARTER.replace("RULESET_ID", rid).replace(
            "EDITION", editions.CURRENT
        ),
        "README.md": README.replace("RULESET_ID", rid),
        ".gitignore": GITIGNORE,
        REQUIREMENTS: requirements,
        WORKFLOW: WORKFLOW_TEXT.replace("PYTHON_VERSION", python).replace(
            "RULESET_FILES", " ".join(f"rulesets/*{x}" for x in registry.suffixes())
        ),
    }


STARTER = """\
# A starter ruleset, written by `rulesdsl init`: the terrain rules of a small skirmish game.
# Make it your game's, then run `rulesdsl build`: generated/python/RULESET_ID.py answers rules
# questions, and generated/sheets/ holds a quick-reference sheet to print.
#
# A `#` starts a comment. An id (`woods`, `infantry`) is a Python name that code using the
# module passes; the quoted text after it is the label players read on the sheet. Add a
# language with `languages en fr` and a label after each English one: `fr "Bois"`.

ruleset RULESET_ID "My game: terrain and movement"
version 0.1.0
edition EDITION
languages en
units distance in, cost in
book core "My game, core rules"

# Unit types. A cell gives one value for every unit type, then the exceptions by name.
mode infantry "Infantry"
mode cavalry "Cavalry"
mode vehicle "Vehicle"

# Terrain: every place on the table has exactly one. The cost is the inches of movement spent
# per inch moved; `impassable` means no unit may enter. The second column is the cover a
# target standing in the terrain gets (the `cover` modifier below).
layer terrain "Terrain" one per place [core] {
  columns cost, cover
  clear "Open ground" | 1                                | 0
  woods "Woods"       | 2, cavalry 3, vehicle impassable | +1
  marsh "Marsh"       | 3, vehicle 4                     | 0
  rubble "Rubble"     | 2                                | +2
  cliff "Cliff"       | impassable                       | 0
}

# A modifier: what adds to a target's cover besides the terrain it stands in. Only the best
# cover counts, so a target in rubble behind smoke has +2, not +3.
modifier cover "Cover (added to the target's save)" combine highest [core] {
  smoke "Shot through smoke" | +1
}

# A dice table: roll 2d6, add the modifiers that apply, read the row the total falls in. The
# compiler checks that the rows cover every total the dice and modifiers can give.
dice morale "Morale test" : 2d6 [core] {
  modifier leader "A leader is within 6 in" +1
  modifier shaken "The unit has lost half its models" -2
  4- flees "Flees: the unit leaves the table"
  5-7 falls_back "Falls back 6 in"
  8+ holds "Holds its ground"
}

# A worked example: questions and the answers your rules give, as a rulebook would show them.
# Every build asks the rules these questions again and fails if an answer changed, so a later
# edit cannot silently change what players were told. The sheet prints them for players.
example cavalry_in_woods "Cavalry ride through woods" [core] {
  move_cost(cavalry, woods, distance=2 in) = 6 in
  can_enter(vehicle, woods) = no
  roll(morale, 7) = falls_back
}
"""

README = """\
# RULESET_ID

Terrain and movement rules written in the terrain language of
[rulesdsl](https://pypi.org/project/rulesdsl/), compiled into a Python module and
quick-reference sheets.

    pip install -r requirements-rules.txt    # the rulesdsl that built generated/, with PDFs
    rulesdsl build                           # compile rulesets/ into generated/

- `rulesets/RULESET_ID.terrain`: the rules. `rulesdsl check` reports every problem with a
  hint; `rulesdsl fmt` lines up the tables.
- `generated/python/RULESET_ID.py`: a module that answers rules questions. It needs only
  Python's standard library: copy it into any project.
- `generated/sheets/`: a quick-reference sheet in HTML, Markdown and PDF; `generated/cards/`:
  a deck of cards (PDF).

```python
import RULESET_ID as rules

rules.move_cost("cavalry", "woods", distance=2)  # 6 (inches of movement)
rules.move_cost("vehicle", "woods")  # IMPASSABLE
rules.modifier("cover", "rubble", "smoke")  # 2: only the best cover counts
rules.roll("morale", 9).label["en"]  # 'Holds its ground'
```

Commit `generated/` with the rules: CI (`.github/workflows/rules.yml`) checks that it is what
the rules make, and that no pull request breaks the module's users without saying so.
"""

GITIGNORE = """\
# Python
__pycache__/
*.pyc
.venv/
venv/

# generated/ is committed (CI checks it is current); the build's working files are not.
generated/.rulesdsl-lock*
generated/.rulesdsl-journal.json
generated/.rulesdsl-staging/
*.tmp
"""

WORKFLOW_TEXT = """\
# Checks the rules on every push and pull request (written by `rulesdsl init`).
name: rules
on:
  push:
  pull_request:
jobs:
  rules:
    runs-on: ubuntu-latest
    steps:
      - uses: actions/checkout@v4
        with:
          fetch-depth: 0  # the whole history: `rulesdsl diff` reads the base branch
      - uses: actions/setup-python@v5
        with:
          python-version: "PYTHON_VERSION"  # the Python that made this project
          cache: pip
          cache-dependency-path: requirements-rules.txt
      - name: Pango, which WeasyPrint lays PDFs out with
        run: sudo apt-get install -y --no-install-recommends libpango-1.0-0 libpangoft2-1.0-0
      # The rulesdsl that built generated/ and the versions of what it uses: outputs depend
      # on them (requirements-rules.txt says how to install rulesdsl from elsewhere).
      - name: Install the rulesdsl that built generated/
        run: pip install -r requirements-rules.txt
      - name: Every ruleset compiles
        run: rulesdsl check
      # --require pdf: without the pdf extra this fails, rather than skip the PDFs.
      - name: generated/ is what the rules make, PDFs too (if not, run `rulesdsl build` and commit)
        run: rulesdsl build --check --require pdf
      # A breaking change fails here even with its major version bump: when you mean it,
      # label the pull request `breaking`.
      - name: No change breaks the generated modules' users
        if: >-
          github.event_name == 'pull_request' &&
          !contains(github.event.pull_request.labels.*.name, 'breaking')
        run: |
          base="origin/${{ github.base_ref }}"
          for file in RULESET_FILES; do
            [ -f "$file" ] || continue
            git cat-file -e "$base:$file" 2>/dev/null || continue  # a new ruleset
            rulesdsl diff "$file" --rev "$base" --fail-on breaking
          done
      # Each version obeys its own diff: a breaking change needs a major bump, a rules change a
      # minor one, an additive change a patch at least.
      - name: Versions have the bump their changes need
        if: github.event_name == 'pull_request'
        run: rulesdsl build --check --against "origin/${{ github.base_ref }}"
"""
