"""Typography per language (issue 23): French narrow no-break spaces, Russian dice notation
and the source's own words, hyphenation by the page's language."""

from __future__ import annotations

import re
from html import unescape
from pathlib import Path

import pytest

from rulesdsl.commands.cli import main
from rulesdsl.i18n.catalog import NNBSP, catalog, typeset
from rulesdsl.printed.cards import build_deck, render_deck_html
from rulesdsl.printed.sheet_model import build_sheet
from rulesdsl.printed.sheets import render_html, render_markdown
from tests import pdf_layout
from tests.print_economy import texts


def test_french_sets_a_narrow_no_break_space_before_high_punctuation_and_in_quotes() -> None:
    assert typeset("Entrées : cible", "fr") == f"Entrées{NNBSP}: cible"
    assert typeset("a ; b ! c ?", "fr") == f"a{NNBSP}; b{NNBSP}! c{NNBSP}?"
    assert typeset("Vraiment?", "fr") == f"Vraiment{NNBSP}?"
    assert typeset("« pour le déplacement »).", "fr") == f"«{NNBSP}pour le déplacement{NNBSP}»)."
    assert typeset("12:30, http://x", "fr") == "12:30, http://x"  # no space, no change
    assert typeset("Entrées : cible", "en") == "Entrées : cible"
    assert catalog("fr").text("deck_for", mode="Mech") == f"Cartes pour{NNBSP}: Mech"


def test_a_french_sheet_never_lets_a_line_start_with_high_punctuation() -> None:
    for name in ("generic_wargame", "d20_movement", "heavy_gear"):
        html = render_html(build_sheet(pdf_layout.ruleset(name), "fr"))
        text = re.sub(r"<style>.*?</style>|<[^>]+>", "", html, flags=re.S)
        assert not re.search(r"[ \n][:;!?»]", text), name  # only narrow no-break spaces
        assert not re.search(r"«[ \n]", text), name
        assert NNBSP in text


def test_russian_writes_dice_with_k_and_the_battletech_hex_as_geks() -> None:
    md = render_markdown(build_sheet(pdf_layout.ruleset("battletech_tacops"), "ru"))
    assert "Эффекты местности (2к6)" in md
    assert "урон: 1к6+3" in md
    assert "2d6" not in md and "1d6" not in md
    assert "один на гекс" in md and "Вход в гекс стоит 1 ОД" in md
    assert "клетк" not in md
    # a square grid keeps its word
    d20 = render_markdown(build_sheet(pdf_layout.ruleset("d20_movement"), "ru"))
    assert "гекс" not in d20


def test_pages_hyphenate_by_their_language() -> None:
    rs = pdf_layout.ruleset("battletech_tacops")
    sheet = render_html(build_sheet(rs, "ru"))
    deck = render_deck_html(build_deck(rs, "ru", "poker"), "a4")
    for html in (sheet, deck):
        assert '<html lang="ru">' in html
        assert "hyphens: auto" in html


def test_markdown_sheets_keep_the_french_narrow_no_break_spaces(tmp_path: Path) -> None:
    out = tmp_path / "gw.fr.md"
    assert main(["sheet", "generic_wargame", "--lang", "fr", "--format", "md", "-o", str(out)]) == 0
    md = out.read_text("utf-8")
    assert f"{NNBSP}:" in md or f"{NNBSP};" in md
    assert not re.search(r"[ \n][:;!?»]", re.sub(r"^\|.*$|\\\|", "", md, flags=re.M))


def test_french_sets_the_typographic_apostrophe_and_typesetting_twice_changes_nothing() -> None:
    assert typeset("l'eau d'une rivière", "fr") == "l\u2019eau d\u2019une rivière"
    assert typeset("l'eau", "en") == "l'eau"
    once = typeset("« l'eau » : 1; 2", "fr")
    assert typeset(once, "fr") == once


GENERATED = Path(__file__).resolve().parent.parent / "generated"
_UNSPACED = re.compile(r"(?<![\u202f\s])[;!?»]|«(?!\u202f)")
_STRAIGHT = re.compile(r"(?<=\w)'(?=\w)")


def _outputs(lang: str) -> list[Path]:
    """Every output in ``lang`` the build writes: sheets (HTML, Markdown, PDF), decks (PDF)
    and web pages."""
    found = [GENERATED.glob(f"{kind}/*.{lang}.{ext}") for kind, ext in OUTPUTS]
    return sorted(path for paths in found for path in paths)


OUTPUTS = (
    ("sheets", "html"),
    ("sheets", "md"),
    ("sheets", "pdf"),
    ("cards", "pdf"),
    ("web", "html"),
)


def _words(path: Path) -> str:
    """The text a reader sees: a PDF's as PDFium extracts it; HTML without its markup,
    styles and scripts."""
    if path.suffix == ".pdf":
        return "".join(texts(path.read_bytes()))
    text = path.read_text("utf-8")
    if path.suffix == ".html":
        text = re.sub(r"<style>.*?</style>|<script.*?</script>|<[^>]+>", "", text, flags=re.S)
    return unescape(text)


@pytest.mark.parametrize("path", _outputs("fr"), ids=lambda p: f"{p.parent.name}/{p.name}")
def test_every_french_output_sets_its_punctuation_worked_examples_included(path: Path) -> None:
    """The outputs `rulesdsl build` writes, as committed: a narrow no-break space before every
    ``; ! ? »`` and after ``«`` (worked examples' answers joined by ``;`` too), and no
    straight apostrophe between letters."""
    text = _words(path)
    unspaced = [text[max(0, m.start() - 30) : m.end()] for m in _UNSPACED.finditer(text)]
    assert unspaced == []
    assert [m.start() for m in _STRAIGHT.finditer(text)] == []


@pytest.mark.parametrize("path", _outputs("ru"), ids=lambda p: f"{p.parent.name}/{p.name}")
def test_every_russian_output_quotes_with_guillemets_and_writes_dice_with_k(path: Path) -> None:
    """Russian outputs quote with « », never ASCII quotes, and write dice with к (2к6)."""
    text = _words(path)
    assert '"' not in text and not _STRAIGHT.search(text)
    assert not re.search(r"\b\d*d\d", text)
