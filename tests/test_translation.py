"""Translators' tools (issue 26): `rulesdsl i18n extract` writes a ruleset's labels and notes as
a gettext catalog, `rulesdsl i18n merge` writes a translated catalog back as labels; a sheet
language without a catalog of the sheet's own words is W610; German is the proof."""

from __future__ import annotations

import io
import re
from pathlib import Path

import pytest
from babel.messages.catalog import Catalog, Message
from babel.messages.pofile import read_po, write_po

from rulesdsl.commands.cli import main
from rulesdsl.compiler import Compiler
from rulesdsl.printed.sheets import render_sheet
from tests.conftest import bundled, compile_snippet

RULESETS = Path(__file__).resolve().parent.parent / "rulesets"

SOURCE = """\
# A small ruleset: its comments and layout must survive a merge.
ruleset demo "Demo rules" fr "Règles de démo"
version 1.0.0
languages en fr   # English first
units distance in, cost MP

mode walker "Walker" fr "Marcheur"
mode hover "Hover"

layer terrain "Terrain" fr "Terrain" one per place {
  clear "Clear" fr "Dégagé"         | 1
  woods "Woods" fr "Bois"           | 2, hover impassable
      note "Light woods only." fr "Bois clairs seulement."
}

decision d "Lock" fr "Verrouillage" (hidden bool) {
  hidden    -> no "No lock" fr "Aucun"
  otherwise -> yes "Lock" fr "Verrouillé"
}
"""

GERMAN = {
    "ruleset:demo": "Demo-Regeln",
    "mode:walker": "Läufer",
    "mode:hover": "Schweber",
    "layer:terrain": "Gelände",
    "feature:clear": "Offen",
    "feature:woods": "Wald",
    "feature:woods/note:1": "Nur lichter Wald.",
    "decision:d": "Aufschaltung",
    "decision:d/row:no": "Keine",
    "decision:d/row:yes": "Aufgeschaltet",
}


def _run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = main(argv)
    out, err = capsys.readouterr()
    return code, out, err


def _said(code: str, err: str, message: str = "") -> bool:
    """Whether ``err`` holds a diagnostic ``code`` whose message starts with ``message``."""
    return re.search(rf"(error|warning)\[{code}\]: {re.escape(message)}", err) is not None


def _extract(path: Path, capsys: pytest.CaptureFixture[str], *more: str) -> Catalog:
    code, out, _ = _run(["i18n", "extract", str(path), *more], capsys)
    assert code == 0
    return read_po(io.BytesIO(out.encode("utf-8")))


def _write(catalog: Catalog, path: Path) -> Path:
    with path.open("wb") as handle:
        write_po(handle, catalog)
    return path


def _filled(path: Path, capsys: pytest.CaptureFixture[str], words: dict[str, str]) -> Path:
    catalog = _extract(path, capsys, "--lang", "de")
    for message in catalog:
        if message.id:
            message.string = words.get(str(message.context), "")
    return _write(catalog, path.parent / "de.po")


def _entry(catalog: Catalog, context: str) -> Message:
    found = next((m for m in catalog if m.context == context), None)
    assert found is not None, context
    return found


@pytest.fixture
def demo(tmp_path: Path) -> Path:
    path = tmp_path / "demo.terrain"
    path.write_text(SOURCE, "utf-8")
    return path


def test_extract_gives_each_label_group_its_path_its_line_and_its_other_languages(
    demo: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    catalog = _extract(demo, capsys, "--lang", "fr")
    entries = {str(m.context): m for m in catalog if m.id}
    assert list(entries) == list(GERMAN)  # every label and note, in file order
    woods = entries["feature:woods"]
    assert (woods.id, woods.string) == ("Woods", "Bois")
    assert [line for _, line in woods.locations] == [12]
    assert entries["feature:woods/note:1"].string == "Bois clairs seulement."
    assert entries["mode:hover"].string == ""  # no French label yet
    assert str(catalog.locale) == "fr"


def test_extract_without_lang_is_a_template_the_same_bytes_every_time(
    demo: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    first = _run(["i18n", "extract", str(demo)], capsys)[1]
    second = _run(["i18n", "extract", str(demo)], capsys)[1]
    assert first == second
    assert "POT-Creation-Date" not in first and "Generated-By" not in first
    catalog = read_po(io.StringIO(first))
    assert catalog.locale is None
    assert all(not m.string for m in catalog if m.id)
    entry = next(m for m in catalog if m.context == "mode:walker")
    assert entry.auto_comments == ["fr: Marcheur"]


def test_merge_writes_the_translations_as_labels_and_leaves_other_lines_alone(
    demo: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    po = _filled(demo, capsys, GERMAN)
    code, _, err = _run(["i18n", "merge", str(demo), str(po)], capsys)
    assert code == 0, err
    assert "10 de labels added, 0 changed, 0 unchanged, 0 entries skipped" in err
    old, new = SOURCE.splitlines(), demo.read_text("utf-8").splitlines()
    assert len(old) == len(new)
    changed = [i for i, (a, b) in enumerate(zip(old, new, strict=True)) if a != b]
    assert new[3] == "languages en fr de   # English first"
    assert new[10] == '  clear "Clear" fr "Dégagé" de "Offen" | 1'  # too long to keep the column
    assert new[11] == '  woods "Woods" fr "Bois" de "Wald" | 2, hover impassable'
    assert new[11].index("|") == old[11].index("|")  # short enough: the | keeps its column
    assert new[16] == '  hidden    -> no "No lock" fr "Aucun" de "Keine"'
    untouched = [i for i, line in enumerate(old) if '"' not in line and "languages" not in line]
    assert not set(changed) & set(untouched)  # comments, blank lines, braces: as they were
    compiled = Compiler().compile_file(demo)
    assert compiled.ok and compiled.ruleset is not None
    assert compiled.ruleset.languages == ("en", "fr", "de")
    sheet = render_sheet(compiled.ruleset, "md", "de").decode("utf-8")
    for word in ("Demo-Regeln", "Läufer", "Schweber", "Wald", "Nur lichter Wald.", "Keine"):
        assert word in sheet
    assert "Bewegung" in sheet  # the sheet's own words come from de.po


def test_a_language_many_items_miss_is_one_w101_naming_i18n_extract(
    demo: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Issue 42: adding a language printed one 4-line W101 per label on every command, none
    saying how to translate them; an item or two missing a language still get their own."""
    demo.write_text(SOURCE.replace("languages en fr ", "languages en fr de "), "utf-8")
    code, _, err = _run(["check", str(demo)], capsys)
    assert code == 0, err
    assert err.count("[W101]") == 2
    assert _said("W101", err, "9 labelled items have no de label ('demo', 'walker', 'hover', ...)")
    assert "4:17: warning[W101]" in err  # at `de` on the languages line
    assert "`rulesdsl i18n extract demo --lang de -o demo.de.po` writes them" in err
    assert _said("W101", err, "'hover' has no fr label")  # one item: its own warning
    po = _filled(demo, capsys, GERMAN)
    assert _run(["i18n", "merge", str(demo), str(po)], capsys)[0] == 0
    code, _, err = _run(["check", str(demo)], capsys)
    assert err.count("[W101]") == 1 and _said("W101", err, "'hover' has no fr label")


def test_merge_keeps_a_file_laid_out_by_fmt_laid_out(
    demo: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from rulesdsl.interchange.fmt import format_text

    demo.write_text(format_text(SOURCE), "utf-8")
    assert _run(["fmt", "--check", str(demo)], capsys)[0] == 0
    po = _filled(demo, capsys, GERMAN)
    assert _run(["i18n", "merge", str(demo), str(po)], capsys)[0] == 0
    assert 'de "Wald"' in demo.read_text("utf-8")
    code, _, err = _run(["fmt", "--check", str(demo)], capsys)
    assert code == 0, err


def test_extract_after_merge_gives_back_the_same_translations(
    demo: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    po = _filled(demo, capsys, GERMAN)
    assert main(["i18n", "merge", str(demo), str(po)]) == 0
    again = _extract(demo, capsys, "--lang", "de")
    assert {str(m.context): m.string for m in again if m.id} == GERMAN
    before = demo.read_text("utf-8")
    assert main(["i18n", "merge", str(demo), str(po)]) == 0  # a second merge changes nothing
    assert demo.read_text("utf-8") == before
    assert "0 de labels added, 0 changed, 10 unchanged" in capsys.readouterr().err


def test_merge_changes_an_existing_label_in_place(
    demo: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    catalog = _extract(demo, capsys, "--lang", "fr")
    for message in catalog:
        if message.context == "feature:woods":
            message.string = 'Forêt "dense"'
    po = _write(catalog, demo.parent / "fr.po")
    assert main(["i18n", "merge", str(demo), str(po)]) == 0
    lines = demo.read_text("utf-8").splitlines()
    assert lines[11] == '  woods "Woods" fr "Forêt \\"dense\\"" | 2, hover impassable'
    assert lines[3] == "languages en fr   # English first"  # fr was there already
    assert "0 fr labels added, 1 changed" in capsys.readouterr().err


def test_fuzzy_empty_gone_and_changed_entries_are_skipped_and_reported(
    demo: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    catalog = _extract(demo, capsys, "--lang", "de")
    for message in catalog:
        if message.id:
            message.string = GERMAN[str(message.context)]
    _entry(catalog, "mode:walker").flags.add("fuzzy")
    _entry(catalog, "mode:hover").string = ""
    catalog.add("Swamp", "Sumpf", context="feature:swamp")
    catalog.add("Marsh", "Moor")  # no msgctxt: not an entry extract writes
    catalog.delete("Clear", context="feature:clear")
    catalog.add("Open", "Offen", context="feature:clear")  # the English label was "Clear"
    po = _write(catalog, demo.parent / "de.po")
    code, _, err = _run(["i18n", "merge", str(demo), str(po)], capsys)
    assert code == 0
    assert _said("W611", err, "the translation of 'mode:walker' is marked fuzzy")
    assert _said("W612", err, "'mode:hover' is not translated")
    assert _said("W613", err, "'feature:swamp' is not in the ruleset any more")
    assert _said("W613", err, "'Marsh' has no msgctxt naming an item")
    assert _said("W614", err, "the label of 'feature:clear' changed")
    assert f"{po}:" in err  # each at its line in the catalog
    assert "7 de labels added, 0 changed, 0 unchanged, 5 entries skipped" in err
    text = demo.read_text("utf-8")
    assert "Läufer" not in text and "Sumpf" not in text and "Offen" not in text
    assert "Moor" not in text
    assert 'de "Wald"' in text


def test_a_merge_that_would_not_compile_writes_nothing(
    demo: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    po = _filled(demo, capsys, {**GERMAN, "mode:walker": "Läufer\x07"})
    code, _, err = _run(["i18n", "merge", str(demo), str(po)], capsys)
    assert code == 1
    assert "error[E004]" in err and "would not compile: not written" in err
    assert demo.read_text("utf-8") == SOURCE


def test_merge_refuses_unreadable_catalogs_and_the_source_language(
    demo: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bad = tmp_path / "bad.po"
    bad.write_text('msgid "a"\nmsgstr "b"\nmsgid\n', "utf-8")
    code, _, err = _run(["i18n", "merge", str(demo), str(bad)], capsys)
    assert (code, _said("E610", err)) == (1, True)
    nameless = tmp_path / "nameless.po"
    nameless.write_text('msgctxt "mode:walker"\nmsgid "Walker"\nmsgstr "Läufer"\n', "utf-8")
    code, _, err = _run(["i18n", "merge", str(demo), str(nameless)], capsys)
    assert (code, _said("E610", err), "--lang" in err) == (1, True, True)
    code, _, err = _run(["i18n", "merge", str(demo), str(nameless), "--lang", "en"], capsys)
    assert (code, _said("E612", err)) == (1, True)
    assert demo.read_text("utf-8") == SOURCE


def test_merge_writes_into_a_yaml_ruleset_in_the_style_of_each_mapping(
    demo: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "demo.yaml"
    assert main(["convert", str(demo), "-o", str(path)]) == 0
    before = path.read_text("utf-8")
    assert "  hover: Hover\n" in before  # an item written as its bare label
    po = _filled(path, capsys, GERMAN)
    code, _, err = _run(["i18n", "merge", str(path), str(po)], capsys)
    assert code == 0, err
    assert "10 de labels added" in err
    text = path.read_text("utf-8")
    assert "languages: [en, fr, de]\n" in text
    assert '  walker: {label: Walker, fr: Marcheur, de: "Läufer"}\n' in text  # flow style
    assert '  hover: {label: "Hover", de: "Schweber"}\n' in text  # the bare label, mapped
    assert '        fr: Bois\n        de: "Wald"\n' in text  # block style, same indent
    assert 'fr: Bois clairs seulement., de: "Nur lichter Wald."}' in text  # a note
    compiled = Compiler().compile_file(path)
    assert compiled.ok and compiled.ruleset is not None
    assert "Schweber" in render_sheet(compiled.ruleset, "md", "de").decode("utf-8")
    again = _extract(path, capsys, "--lang", "de")
    assert {str(m.context): m.string for m in again if m.id} == GERMAN
    catalog = _extract(path, capsys, "--lang", "de")
    _entry(catalog, "feature:woods").string = "Forst"
    assert main(["i18n", "merge", str(path), str(_write(catalog, tmp_path / "de2.po"))]) == 0
    assert '        de: "Forst"\n' in path.read_text("utf-8")  # changed in place
    assert "0 de labels added, 1 changed, 9 unchanged" in capsys.readouterr().err


def test_a_yaml_label_not_where_the_syntax_tree_says_is_e611(
    demo: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    import dataclasses

    from rulesdsl.interchange.translation import merge

    path = tmp_path / "demo.yaml"
    assert main(["convert", str(demo), "-o", str(path)]) == 0
    source, _ = Compiler().parse_file(path)
    assert source is not None
    moved = dataclasses.replace(source, text=source.text.replace("label: Woods", "label:  Woods"))
    catalog = _extract(path, capsys, "--lang", "de")
    _entry(catalog, "feature:woods").string = "Wald"
    merged = merge(moved, catalog, "de", "de.po", ("en", "fr"))
    assert [d.code for d in merged.diagnostics if d.is_error] == ["E611"]
    assert merged.text is None


def test_merge_adds_a_languages_line_when_the_file_has_none(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "plain.terrain"
    path.write_text('ruleset plain "Plain"\nversion 1.0.0\nmode walker "Walker"\n', "utf-8")
    po = _filled(path, capsys, {"ruleset:plain": "Schlicht", "mode:walker": "Läufer"})
    assert main(["i18n", "merge", str(path), str(po)]) == 0
    assert path.read_text("utf-8").splitlines()[:3] == [
        'ruleset plain "Plain" de "Schlicht"',
        "version 1.0.0",
        "languages en de",
    ]


def test_a_language_without_a_sheet_catalog_is_w610_at_its_code(compiler: Compiler) -> None:
    text = SOURCE.replace("languages en fr", "languages en it").replace(' fr "', ' it "')
    compiled = compile_snippet(compiler, text)
    assert compiled.ok and compiled.ruleset is not None
    [w610] = [d for d in compiled.diagnostics if d.code == "W610"]
    assert w610.pos is not None and (w610.pos.line, w610.pos.column) == (4, 14)
    assert "catalog i18n/it.po" in w610.message
    en_po = Path(__file__).parents[1] / "rulesdsl" / "i18n" / "en.po"
    entries = len(read_po(en_po.open("rb")))  # the sheets' own words, counted here
    assert w610.hint is not None
    assert f"--sheet-words --lang it -o i18n/it.po` writes its {entries} entries" in w610.hint
    # the sheet is made, with the Italian labels and English headings
    sheet = render_sheet(compiled.ruleset, "md", "it").decode("utf-8")
    assert "Marcheur" in sheet and "Movement" in sheet


def test_sheet_lang_takes_any_language_with_labels_or_a_catalog(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, _ = _run(["sheet", "heavy_gear", "--lang", "de", "--format", "md"], capsys)
    assert code == 0 and "Bewegung" in out
    code, _, err = _run(["sheet", "heavy_gear", "--lang", "it", "--format", "md"], capsys)
    assert code == 2 and "no catalog i18n/it.po" in err
    code, _, err = _run(["cards", "heavy_gear", "--lang", "it", "--format", "html"], capsys)
    assert code == 2 and "no 'it' labels" in err
    code, _, err = _run(["sheet", "heavy_gear", "--lang", "Deutsch"], capsys)
    assert code == 2 and "not a language code" in err
    italian = tmp_path / "it.terrain"
    italian.write_text(SOURCE.replace("languages en fr", "languages en it"), "utf-8")
    italian.write_text(italian.read_text("utf-8").replace(' fr "', ' it "'), "utf-8")
    code, out, err = _run(["sheet", str(italian), "--lang", "it", "--format", "md"], capsys)
    assert code == 0 and _said("W610", err) and "Marcheur" in out


def test_a_label_not_where_the_syntax_tree_says_is_e613_and_nothing_is_merged(
    demo: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    import dataclasses

    from rulesdsl.interchange.translation import merge

    source, _ = Compiler().parse_file(demo)
    assert source is not None
    moved = dataclasses.replace(source, text=source.text.replace('"Walker"', '"Walk"'))
    catalog = _extract(demo, capsys, "--lang", "de")
    for message in catalog:
        if message.id:
            message.string = GERMAN[str(message.context)]
    merged = merge(moved, catalog, "de", "de.po", ("en", "fr"))
    assert [d.code for d in merged.diagnostics] == ["E613"]
    assert merged.text is None and not merged.ok


@pytest.mark.parametrize("name", ["heavy_gear", "heavy_gear_house", "heavy_gear_house_winter"])
def test_heavy_gear_and_its_variants_are_translated_into_german_throughout(
    name: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """The proof of issue 26: every label and note of the Heavy Gear files has a German
    translation, made with `i18n extract` and `i18n merge`, and the German sheet is built."""
    catalog = _extract(RULESETS / f"{name}.terrain", capsys, "--lang", "de")
    entries = [m for m in catalog if m.id]
    assert entries and [m.context for m in entries if not m.string] == []
    compiled = Compiler().compile_file(RULESETS / f"{name}.terrain")
    assert compiled.ok and compiled.ruleset is not None
    assert "de" in compiled.ruleset.languages  # the build makes its German sheets and cards
    assert [d.code for d in compiled.diagnostics] == []  # no W101: nothing falls back
    sheet = render_sheet(compiled.ruleset, "md", "de").decode("utf-8")
    for word in ("Bewegung", "Läufer", "Schweber", "Gelände", "Aufschaltung", "BP je Zoll"):
        assert word in sheet, word


def test_german_sheets_write_numbers_plurals_and_dice_the_german_way() -> None:
    from fractions import Fraction

    from rulesdsl.i18n import catalog

    de = catalog("de")
    assert de.number(1.5) == "1,5"
    assert de.percent(Fraction(21, 36)) == "58,3\u00a0%"
    assert [de.plural("cards", n) for n in (1, 2)] == ["1 Karte", "2 Karten"]
    assert de.text("dice_notation", count="2", sides="6") == "2W6"
    assert de.unit("in") == "Zoll" and de.unit("MP") == "BP"
    ruleset = bundled("heavy_gear").ruleset
    assert ruleset is not None
    text = render_sheet(ruleset, "md", "de").decode("utf-8")
    assert "1 je 2 Zoll" in text and "1\u20131,5 Zoll" in text


def test_a_catalog_that_is_not_a_regular_file_or_too_large_is_e610(tmp_path: Path) -> None:
    import os

    from rulesdsl.interchange.translation import read_catalog_file

    fifo = tmp_path / "fifo.po"
    os.mkfifo(fifo)
    data, diags = read_catalog_file(fifo)  # a FIFO would wait for a writer forever
    assert data is None and [d.code for d in diags] == ["E610"]
    big = tmp_path / "big.po"
    big.write_bytes(b"#" * 11)
    data, diags = read_catalog_file(big, limit=10)
    assert data is None and "size limit" in diags[0].message
    assert read_catalog_file(big, limit=11) == (b"#" * 11, [])
    link = tmp_path / "link.po"
    link.symlink_to(big)  # refused as a linked ruleset is (rulesdsl.sources.read_bytes)
    data, diags = read_catalog_file(link)
    assert data is None and diags[0].message.endswith("it is a symbolic link")
