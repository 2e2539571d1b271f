"""A variant's changelog prints the answers of the worked examples it adds or restates in the
sheet's language, as the examples section does: Babel numbers, the ruleset's unit words,
markers and words by their labels (the German and French changelogs printed `2 MP; 3 MP`, as
written, for an example of several questions)."""

from __future__ import annotations

import shutil
from pathlib import Path

from rulesdsl import ir
from rulesdsl.compiler import Compiler
from rulesdsl.printed.sheets import render_sheet
from tests.conftest import RULESETS

HOUSE = """\
ruleset hh "House" fr "Maison" de "Haus"
version 1.0.0
extends heavy_gear@^1.0
override soft.walker | 2.5
override example walker_on_soft_ground | 2.5 MP
example mine "Mine" fr "Mine" de "Meins" {
  move_cost(walker, soft) = 2.5 MP
  move_cost(ground, very_rough) = impassable
}
"""


def _ruleset(path: Path) -> ir.Ruleset:
    compiled = Compiler().compile_file(path)
    assert compiled.ruleset is not None, compiled.diagnostics
    return compiled.ruleset


def _lines(rs: ir.Ruleset, lang: str) -> list[str]:
    return render_sheet(rs, "md", lang).decode("utf-8").replace("\u00a0", " ").splitlines()


def test_an_added_example_of_several_questions_is_printed_in_the_sheet_language(
    tmp_path: Path,
) -> None:
    shutil.copy(RULESETS / "heavy_gear.terrain", tmp_path)
    path = tmp_path / "hh.terrain"
    path.write_text(HOUSE, "utf-8")
    rs = _ruleset(path)
    de = _lines(rs, "de")
    assert "- geändert: Weich (Sand, Schnee, Schlamm) › Läufer: 3 → 2,5" in de  # noqa: RUF001
    assert "- geändert: Ein Läufer durchquert weichen Boden: 3 BP → 2,5 BP" in de
    assert "- hinzugefügt: Meins: 2,5 BP; ✕ unpassierbar" in de
    assert "- ajouté\u202f: Mine\u202f: 2,5 PM\u202f; ✕ infranchissable" in _lines(rs, "fr")
    assert "- added: Mine: 2.5 MP; ✕ impassable" in _lines(rs, "en")


def test_the_bundled_winter_variant_prints_its_added_example_in_german_and_french() -> None:
    rs = _ruleset(RULESETS / "heavy_gear_house_winter.terrain")
    # the source is printed by its book's label in the sheet's language (issue 23)
    assert "- hinzugefügt: Über einen zugefrorenen See: 2 BP; 3 BP \\[Haus\\]" in _lines(rs, "de")
    assert "- ajouté\u202f: Traverser un lac gelé\u202f: 2 PM\u202f; 3 PM \\[Maison\\]" in _lines(
        rs, "fr"
    )
