"""The language server parses again only the statements an edit changed (issue 44: a base
edit with a house rule open was 1.4-1.6x one compile of the base, its whole parse included)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from rulesdsl.compiler import Compiler
from rulesdsl.editor.lsp_compile import LiveCompiler
from rulesdsl.editor.lsp_reparse import reparse
from rulesdsl.frontends.dsl import Parser
from tests.conftest import RULESETS
from tests.test_lsp import HOUSE, TINY, InProcess

BASE = TINY + 'layer cover "Cover" {\n  hedge "Hedge" | 1\n}\nmode runner "Runner"\n'


class Editor:
    """The documents open in an editor: ``opened`` by real path."""

    def __init__(self) -> None:
        self.opened: dict[str, str] = {}

    def refusal(self, path: str) -> None:
        return None

    def open_text(self, path: str) -> str | None:
        return self.opened.get(path)


def test_an_edit_of_an_open_file_parses_again_only_the_statement_it_changed(
    tmp_path: Path,
) -> None:
    path = str(tmp_path / "tiny.terrain")
    editor = Editor()
    compiler = LiveCompiler(editor)
    read: list[str] = []
    parse = compiler.parser.parse

    def spy(text: str, file: str) -> Any:
        read.append(text)
        return parse(text, file)

    compiler.parser.parse = spy  # type: ignore[method-assign]
    editor.opened[str(Path(path).resolve())] = BASE
    assert compiler.compile_open(path, BASE).ok
    edited = BASE.replace('"Rough" | 2', '"Rough" | 4')
    editor.opened[str(Path(path).resolve())] = edited
    compiled = compiler.compile_open(path, edited)
    assert (
        read[-1].lstrip("\n")
        == 'layer terrain "Terrain" {\n  clear "Clear" | 1\n  rough "Rough" | 4\n}\n'
    )
    whole = Compiler().compile_text(edited, path)
    assert compiled.ruleset == whole.ruleset and compiled.diagnostics == whole.diagnostics
    assert compiler.parsed_source(Path(path).resolve()) == Parser().parse(edited, path)[0]


def _edits(text: str) -> list[str]:
    """Edits that keep the number of lines, of every 7th line in turn: a digit changed, a
    label, the line blanked, the line made a comment."""
    lines = text.split("\n")
    out = []
    for i in range(0, len(lines), 7):
        old, new = (("1", "7"), ('"', '"x'), (lines[i], ""), (lines[i], "# note"))[i // 7 % 4]
        if old and old in lines[i]:
            out.append("\n".join([*lines[:i], lines[i].replace(old, new, 1), *lines[i + 1 :]]))
    return out


def test_a_spliced_parse_is_the_parse_of_the_whole_text() -> None:
    """Every statement, position and end of a statement (its end of line runs over the blank
    and comment lines after it) as a parse of the whole edited text gives them."""
    parser = Parser()
    spliced = 0
    for file in sorted(RULESETS.glob("*.terrain")):
        text = file.read_text("utf-8")
        old, errors = parser.parse(text, str(file))
        assert old is not None and not errors
        for edited in _edits(text):
            found = reparse(parser, str(file), old, edited)
            if found is None:
                continue
            spliced += 1
            assert (found, []) == parser.parse(edited, str(file)), file
    assert spliced > 100  # most edits are spliced: the comparison is not empty


def test_a_base_edit_that_keeps_its_lines_changes_its_open_house_rule_s_diagnostics(
    tmp_path: Path,
) -> None:
    """The base's edit is spliced into its last parse, and its open house rule is compiled
    again on that parse: its override of a renamed feature is an error, then is not."""
    base, variant = tmp_path / "tiny.terrain", tmp_path / "house.terrain"
    base.write_text(TINY, "utf-8")
    lsp = InProcess(tmp_path)
    try:
        lsp.open(base, TINY)
        lsp.open(variant, HOUSE)
        assert lsp.diagnostics(variant) == []
        lsp.change(base, TINY.replace('rough "Rough"', 'rocky "Rocky"'), 2)
        assert [d["code"] for d in lsp.diagnostics(variant)] == ["E504"]
        lsp.change(base, TINY, 3)
        assert lsp.diagnostics(variant) == []
    finally:
        lsp.close()
