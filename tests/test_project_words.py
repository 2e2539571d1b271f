"""Sheet words of a project (issue 42.6): a language with no catalog in the package gets its
headings from the project's ``i18n/<lang>.po`` beside ``rulesets/``, which the build, the
`sheet`/`cards`/`watch` commands and the W610 check all read; a project catalog overrides the
package's for its language, and is part of the build's stamp."""

from __future__ import annotations

import re
from io import StringIO
from pathlib import Path

import pytest

from rulesdsl.commands.cli import main
from rulesdsl.compiler import Compiler
from rulesdsl.printed.sheet_model import build_sheet
from tests.conftest import compile_snippet

HEADINGS = re.compile(r"<h2[^>]*>([^<]*)")


def _project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, lang: str = "nl") -> Path:
    """A project from `rulesdsl init` whose starter also speaks ``lang``, as the cwd."""
    folder = tmp_path / "demo"
    assert main(["init", str(folder)]) == 0
    monkeypatch.chdir(folder)
    ruleset = folder / "rulesets" / "demo.terrain"
    text = ruleset.read_text("utf-8")
    ruleset.write_text(text.replace("\nlanguages en\n", f"\nlanguages en {lang}\n"), "utf-8")
    return folder


def _translate(po: Path, words: dict[str, str]) -> None:
    """Fill the entries ``words`` (key -> translation) of a catalog `extract` wrote."""
    text = po.read_text("utf-8")
    for key, word in words.items():
        entry = f'msgid "{key}"\nmsgstr "'
        assert entry in text
        text = re.sub(rf'(msgid "{key}"\nmsgstr ")[^"\n]*"', rf'\g<1>{word}"', text)
    po.write_text(text, "utf-8")


def test_a_project_catalog_gives_a_new_language_its_sheet_headings(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = _project(tmp_path, monkeypatch)
    # The headings are read from the HTML sheets: the builds leave the PDFs out, as without
    # the pdf extra (three builds with PDFs were ~7 s of WeasyPrint's layout; issue 44).
    monkeypatch.setattr("rulesdsl.extras._found", lambda name: name != "weasyprint")
    assert main(["build"]) == 0
    _, err = capsys.readouterr()
    assert "warning[W610]" in err and "rulesdsl i18n extract --sheet-words --lang nl" in err
    assert "-o i18n/nl.po" in err and "rulesdsl/i18n" not in err  # no path inside the package
    sheet = folder / "generated" / "sheets" / "demo.nl.html"
    assert HEADINGS.findall(sheet.read_text("utf-8"))[:2] == ["Movement", "Modifiers"]
    po = folder / "i18n" / "nl.po"
    assert main(["i18n", "extract", "--sheet-words", "--lang", "nl", "-o", str(po)]) == 0
    _translate(po, {"movement": "Beweging", "modifiers": "Aanpassingen"})
    assert main(["build", "--check"]) == 1  # the catalog is part of the sheets' stamp
    capsys.readouterr()
    assert main(["build"]) == 0
    _, err = capsys.readouterr()
    assert "W610" not in err
    assert HEADINGS.findall(sheet.read_text("utf-8"))[:3] == [
        "Beweging",
        "Aanpassingen",
        "Dice tables",  # an entry left empty reads English
    ]
    assert main(["build", "--check"]) == 0
    assert main(["sheet", "demo", "--lang", "nl", "--format", "html"]) == 0
    out, err = capsys.readouterr()
    assert HEADINGS.findall(out)[:2] == ["Beweging", "Aanpassingen"] and "W610" not in err
    assert main(["cards", "demo", "--lang", "nl", "--format", "html", "-o", "deck.html"]) == 0
    assert "Beweging" in Path("deck.html").read_text("utf-8")


def test_a_project_catalog_overrides_the_package_s_for_its_language(tmp_path: Path) -> None:
    from tests.test_translation import SOURCE  # French labels; the package has fr.po

    compiler = Compiler()
    compiled = compile_snippet(compiler, SOURCE)
    assert compiled.ruleset is not None
    package = build_sheet(compiled.ruleset, "fr")
    assert package.sections[0].title == "Mouvement"
    (tmp_path / "fr.po").write_text(
        'msgid ""\nmsgstr ""\n"Language: fr\\n"\n\nmsgid "movement"\nmsgstr "Déplacement"\n',
        "utf-8",
    )
    own = build_sheet(compiled.ruleset, "fr", words=tmp_path)
    assert own.sections[0].title == "Déplacement"
    # the rest of the sheet keeps the package's French words
    assert [s.title for s in own.sections[1:]] == [s.title for s in package.sections[1:]]


def test_the_preview_reads_the_project_catalog_again_when_it_changes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from rulesdsl.editor.watch import Preview

    folder = _project(tmp_path, monkeypatch)
    preview = Preview(folder / "rulesets", StringIO())
    preview.refresh()
    assert HEADINGS.findall(preview.pages["demo"].sheets["nl"])[0] == "Movement"
    po = folder / "i18n" / "nl.po"
    assert main(["i18n", "extract", "--sheet-words", "--lang", "nl", "-o", str(po)]) == 0
    _translate(po, {"movement": "Beweging"})
    assert preview.refresh([po]) == ["demo"]
    assert HEADINGS.findall(preview.pages["demo"].sheets["nl"])[0] == "Beweging"


def test_the_sheet_words_to_translate_are_the_english_catalog_s_keys_the_same_each_run(
    capsys: pytest.CaptureFixture[str],
) -> None:
    from rulesdsl.sheet_languages import catalog_words

    assert main(["i18n", "extract", "--sheet-words", "--lang", "nl"]) == 0
    first, _ = capsys.readouterr()
    assert main(["i18n", "extract", "--sheet-words", "--lang", "nl"]) == 0
    assert capsys.readouterr()[0] == first
    assert first.count("\nmsgid ") - first.count('\nmsgid ""') == catalog_words()
    assert '"Language: nl\\n"' in first and "#. English: Movement\n" in first
    assert main(["i18n", "extract", "--sheet-words"]) == 2  # which language?
    assert main(["i18n", "extract"]) == 2  # which ruleset?


def test_the_language_server_reads_the_project_catalog_and_sees_it_change(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from rulesdsl.editor.lsp_compile import LiveCompiler

    folder = _project(tmp_path, monkeypatch)
    ruleset = folder / "rulesets" / "demo.terrain"
    text = ruleset.read_text("utf-8")

    class Editor:
        def refusal(self, path: str) -> None:
            return None

        def open_text(self, path: str) -> str | None:
            return text if path == str(ruleset.resolve()) else None

    compiler = LiveCompiler(Editor())

    def w610() -> bool:
        compiled = compiler.compile_open(str(ruleset), text)
        return any(d.code == "W610" for d in compiled.diagnostics)

    assert w610()
    po = folder / "i18n" / "nl.po"
    assert main(["i18n", "extract", "--sheet-words", "--lang", "nl", "-o", str(po)]) == 0
    assert not w610()  # the same text, compiled again: the catalog is part of its stamps
    po.unlink()
    assert w610()
