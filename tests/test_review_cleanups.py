"""Clean-ups found in review, held: one language-code pattern, the grammar file written
atomically, one choice of front end by file type."""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest

from rulesdsl import ir

PACKAGE = Path(__file__).resolve().parent.parent / "rulesdsl"


def test_the_language_code_pattern_is_written_once_in_ir_values() -> None:
    written = [
        str(path.relative_to(PACKAGE))
        for path in sorted(PACKAGE.rglob("*.py"))
        if "[a-z]{2,3}" in path.read_text("utf-8")
    ]
    assert written == ["ir/values.py"]
    assert ir.LANG.regex == "[a-z]{2,3}"


def test_the_textmate_grammar_is_written_atomically_replacing_a_link(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from rulesdsl.editor import textmate

    victim = tmp_path / "victim.json"
    victim.write_text("precious\n", "utf-8")
    target = tmp_path / "terrain.tmLanguage.json"
    target.symlink_to(victim)
    fixed_tmp = target.with_suffix(".tmp")  # a hand-rolled write went through a link here
    fixed_tmp.symlink_to(victim)
    monkeypatch.setattr(sys, "argv", ["textmate", str(target)])
    textmate.main()
    assert victim.read_text("utf-8") == "precious\n" and not target.is_symlink()
    assert target.read_text("utf-8") == textmate.text()
    names = sorted(p.name for p in tmp_path.iterdir())
    assert names == sorted([target.name, fixed_tmp.name, victim.name])
    assert capsys.readouterr().out == f"wrote {target}\n"


def test_the_language_server_parses_an_open_yaml_file_with_the_yaml_front_end() -> None:
    from rulesdsl.editor.lsp_compile import LiveCompiler

    text = "ruleset: demo\nlabel: Demo\nversion: 1.0.0\n"

    class Editor:
        def refusal(self, path: str) -> None:
            return None

        def open_text(self, path: str) -> str | None:
            return None

    live = LiveCompiler(Editor())
    assert live.parse_open("/x/demo.yaml", text) == live.parse_text(text, "/x/demo.yaml")
    source, _ = live.parse_open("/x/demo.yaml", text)
    assert source is not None and re.search("demo", repr(source))
    _, errors = live.parse_open("/x/demo.terrain", text)  # the DSL's grammar refuses YAML
    assert errors and errors[0].code.startswith("E0")
