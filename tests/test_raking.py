"""Raking fire (issue 40, item 2: "firing down a bow or stern") is said by arcs: the language
guide's example, an arcs block in hexsides keying a table, answers as the guide says."""

from __future__ import annotations

from pathlib import Path

from rulesdsl.compiler import Compiler
from tests.conftest import compile_snippet, import_rendered


def test_the_guides_raking_example_answers_as_it_says(compiler: Compiler, tmp_path: Path) -> None:
    doc = (Path(__file__).parent.parent / "docs" / "language.md").read_text("utf-8")
    start = doc.index('```terrain\narcs rake "Raking arcs"')
    snippet = doc[start + len("```terrain\n") : doc.index("```", start + 10)]
    header = 'ruleset demo "Demo"\nversion 1.0.0\nlanguages en fr\nunits distance hex, cost MP\n'
    compiled = compile_snippet(compiler, header + snippet)
    assert compiled.ok and compiled.ruleset is not None, [str(d) for d in compiled.diagnostics]
    m = import_rendered(compiled.ruleset, tmp_path, "raking_doc")
    assert m.arc_between("rake", (0, 0), 0, (-2, 0), grid="hex") == "stern"
    assert m.lookup("raking", "stern") == 3
    assert m.arc_between("rake", (0, 0), 0, (0, 1), grid="hex") == "broadside"
    assert m.lookup("raking", "broadside") == 0
    assert m.arc_between("rake", (0, 0), 0, (3, 0), grid="hex") == "bow"
    assert m.lookup("raking", "bow") == 2
    section = doc[start:]
    for shown in (
        '`arc_between("rake", (0, 0), 0, (-2, 0), grid="hex")` is `\'stern\'`',
        '`lookup("raking",\n"stern")` 3',
        "at (0, 1) is on the broadside (0)",
    ):
        assert shown in section
