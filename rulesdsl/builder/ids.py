"""A ruleset's id is its file's name (E102): the check `build` and `check` both make, kept
apart from the builder so that `rulesdsl check` does not import the builder (its manifest,
lock, transaction and outputs: ~11 ms of a start-up of ~250 ms)."""

from __future__ import annotations

import re
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from rulesdsl.compiler import Compiled
    from rulesdsl.diagnostics import Diagnostic
    from rulesdsl.frontends.syntax import Pos


def check_ids(
    compiled: list[Compiled], files: Mapping[str, Path], sources: Mapping[str, str]
) -> list[Diagnostic]:
    """A ruleset's id is its file's name: outputs and `extends` find it by that name."""
    from rulesdsl.diagnostics import Related, error

    diags: list[Diagnostic] = []
    for c in compiled:
        if c.ruleset is None:
            continue
        path, rid = Path(c.path), c.ruleset.id
        if rid == path.stem:
            continue
        pos = header_pos(path, sources, rid)
        if rid in files:
            other = files[rid]
            diags.append(
                error(
                    "E102",
                    f"duplicate ruleset id '{rid}': {path} and {other}",
                    pos,
                    f"name the ruleset '{path.stem}' after its file, or rename one of the files",
                    [Related(header_pos(other, sources, rid), f"'{rid}' is also {other}")],
                )
            )
        else:
            diags.append(
                error(
                    "E102",
                    f"ruleset id '{rid}' is not its file's name '{path.stem}'",
                    pos,
                    f"declare `ruleset {path.stem}`, or rename the file to {rid}{path.suffix}",
                )
            )
    return diags


def header_pos(path: Path, sources: Mapping[str, str], rid: str) -> Pos:
    """Where ``path`` declares its id (``ruleset ID`` or ``id: ID``), else its first line."""
    from rulesdsl.frontends.syntax import Pos

    text = sources.get(str(path), "")
    for number, line in enumerate(text.splitlines(), 1):
        match = re.match(r"\s*(?:ruleset\s+|id:\s*['\"]?)(\S*?)['\"]?\s*(?:\s|$)", line)
        if match and match.group(1) == rid:
            return Pos(str(path), number, match.start(1) + 1, number, match.end(1) + 1)
    return Pos(str(path), 1, 1, 1, 1)
