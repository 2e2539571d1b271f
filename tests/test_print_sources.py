# ruff: noqa: RUF001
"""Sources on sheets and cards (issue 23): a source prints as its book's label (the
abbreviation the ruleset declares, per language), never the book's id; a rule number
(`[tw 4.27]`, `[tw §4.27]`) is a source as a page is, through every front end."""

from __future__ import annotations

from pathlib import Path

from rulesdsl.commands.cli import main
from rulesdsl.compiler import Compiler
from rulesdsl.ir.serial import to_data
from rulesdsl.printed.cards import build_deck
from rulesdsl.printed.sheet_model import build_sheet
from rulesdsl.printed.sheets import render_markdown
from tests import pdf_layout
from tests.conftest import compile_snippet

RULE_NUMBERS = """\
ruleset demo "Demo" ru "Демо"
version 1.0.0
languages en ru
book tw "TW" ru "ТВ"
  note "Total Warfare" ru "«Тотальная война»"
units distance hex, cost MP
stacking sum
mode mech "Mech" ru "Мех"
layer base "Base terrain" ru "Местность" one per place {
  clear "Clear" ru "Чисто" | 1 [tw 4.27]
  woods "Woods" ru "Лес" | 2 [tw §4.27.1]
  rough "Rough" ru "Пересечённая" | 2 [tw p.52]
}
"""


def test_a_rule_number_is_a_source_and_prints_after_the_book_label(
    compiler: Compiler, tmp_path: Path
) -> None:
    compiled = compile_snippet(compiler, RULE_NUMBERS, tmp_path, "demo.terrain")
    assert compiled.ok, [d.message for d in compiled.diagnostics]
    assert compiled.ruleset is not None
    md = render_markdown(build_sheet(compiled.ruleset, "en"))
    assert "TW §4.27" in md and "TW §4.27.1" in md and "TW p. 52" in md
    assert "tw " not in md  # never the book's id
    assert "TW: Total Warfare" in md  # the sources block gives the title once
    ru = render_markdown(build_sheet(compiled.ruleset, "ru"))
    assert "ТВ §4.27" in ru and "ТВ с. 52" in ru
    assert "ТВ: «Тотальная война»" in ru


def test_a_rule_number_survives_the_yaml_round_trip(compiler: Compiler, tmp_path: Path) -> None:
    source = tmp_path / "demo.terrain"
    source.write_text(RULE_NUMBERS, "utf-8")
    assert main(["convert", str(source), "-o", str(tmp_path / "demo.yaml")]) == 0
    assert "4.27" in (tmp_path / "demo.yaml").read_text("utf-8")
    back = tmp_path / "back" / "demo.terrain"
    back.parent.mkdir()
    assert main(["convert", str(tmp_path / "demo.yaml"), "-o", str(back)]) == 0
    assert "[tw §4.27.1]" in back.read_text("utf-8")
    dsl = compiler.compile_file(source)
    yml = compiler.compile_file(tmp_path / "demo.yaml")
    again = compiler.compile_file(back)
    assert dsl.ruleset is not None and yml.ruleset is not None and again.ruleset is not None
    assert to_data(yml.ruleset)["features"] == to_data(dsl.ruleset)["features"]
    assert to_data(again.ruleset)["features"] == to_data(dsl.ruleset)["features"]


def test_a_bad_source_is_a_diagnostic_at_its_line_and_column(
    compiler: Compiler, tmp_path: Path
) -> None:
    bad = RULE_NUMBERS.replace("[tw 4.27]", "[tw 4.27 q]")
    compiled = compile_snippet(compiler, bad, tmp_path, "demo.terrain")
    assert not compiled.ok
    first = compiled.diagnostics[0]
    assert (first.pos.line, first.pos.column) == (10, bad.splitlines()[9].index(" q]") + 2)


def test_bundled_sheets_and_cards_print_book_labels_not_ids() -> None:
    rs = pdf_layout.ruleset("battletech_tacops")
    for lang in ("en", "ru"):
        md = render_markdown(build_sheet(rs, lang))
        for raw in ("[to ", "[tw ", "[megamek]", " megamek |"):
            assert raw not in md, (lang, raw)
        deck = build_deck(rs, lang, "poker")
        smalls = {c.small for card in deck.cards if card.table for r in card.table.rows for c in r}
        assert not smalls & {"to", "tw", "megamek"}, lang
