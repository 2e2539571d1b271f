"""A ruleset with nothing to put on cards yet (a header and a version, modes only) gets no deck:
`rulesdsl build` leaves the deck out with a warning (W010) at the ruleset's id and makes its
other outputs; `rulesdsl cards` says so and writes nothing. Before, both wrote a blank page,
and the loss check then warned that it "cannot read this layout (a WeasyPrint it does not
know?)" (W702), which sent the author looking in the wrong place."""

from __future__ import annotations

from pathlib import Path

import pytest

from rulesdsl.builder.build import (
    BuildResult,
    TargetOutputs,
    build,
    card_outputs,
    sheet_outputs,
)
from rulesdsl.codegen.targets import PYTHON
from rulesdsl.commands.cli import main
from rulesdsl.compiler import Compiler

python_outputs = TargetOutputs(PYTHON)

NOTHING_YET = """\
ruleset start "A start" fr "Un début"
version 0.1.0
languages en fr
mode walker "Walker" fr "Marcheur"
"""

SOMETHING = (
    NOTHING_YET
    + """\
units distance in, cost MP
layer ground "Ground" fr "Sol" one per place {
  soft "Soft" fr "Mou" | 2
}
"""
)


def _build(tmp_path: Path, text: str) -> tuple[Path, BuildResult]:
    rulesets = tmp_path / "rulesets"
    rulesets.mkdir(exist_ok=True)
    (rulesets / "start.terrain").write_text(text, "utf-8")
    result = build(
        rulesets,
        tmp_path / "generated",
        compiler=Compiler(),
        backends=(python_outputs, sheet_outputs, card_outputs),
        missing=frozenset({"pdf"}),  # no render: what is planned is what is asked
    )
    return rulesets / "start.terrain", result


def test_a_build_makes_no_deck_of_a_ruleset_with_nothing_on_cards_and_says_why(
    tmp_path: Path,
) -> None:
    path, result = _build(tmp_path, NOTHING_YET)
    assert result.ok
    warned = [d for d in result.diagnostics if d.code == "W010"]
    assert [d.message for d in warned] == [
        "cards/start.en.pdf is not made: the ruleset has nothing to put on cards yet",
        "cards/start.fr.pdf is not made: the ruleset has nothing to put on cards yet",
    ]
    first = warned[0]
    assert not first.is_error and first.pos is not None
    assert (first.pos.file, first.pos.line, first.pos.column) == (str(path), 1, 9)
    assert "once the ruleset has one" in (first.hint or "")
    assert not [d for d in result.diagnostics if d.code.startswith("W70")]
    # the module and the sheets are made all the same; a deck is not even planned
    assert "python/start.py" in result.written
    assert "sheets/start.en.md" in result.written
    assert not [rel for rel in result.outputs if rel.startswith("cards/")]


def test_a_ruleset_with_a_layer_has_its_deck_and_no_w010(tmp_path: Path) -> None:
    _, result = _build(tmp_path, SOMETHING)
    assert result.ok
    assert not [d for d in result.diagnostics if d.code == "W010"]
    assert "cards/start.en.pdf" in result.outputs


def test_the_cards_command_writes_no_blank_deck(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "start.terrain"
    path.write_text(NOTHING_YET, "utf-8")
    out = tmp_path / "start.pdf"
    for fmt in ("pdf", "html"):
        code = main(["cards", str(path), "--format", fmt, "-o", str(out)])
        err = capsys.readouterr().err
        assert code == 1 and not out.exists()
        assert "error: start has nothing to put on cards yet" in err
        assert "nothing written" in err
