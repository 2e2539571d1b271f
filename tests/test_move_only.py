"""Kinds of move limited to some unit types (issue 40, item 5): `only infantry or hound` says
who may make a move; asking a module for a kind of move a unit type may not make is an error
(Python and JavaScript alike), the reference semantics agrees, misuse is reported at its place,
the YAML form, the sheet's words in every language, `diff` grading and the house-rule path."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from rulesdsl import ir
from rulesdsl.codegen import plan as module_plan
from rulesdsl.commands.cli import main
from rulesdsl.compiler import Compiler
from rulesdsl.frontends.dsl import Parser
from rulesdsl.interchange.convert import to_terrain, to_yaml
from rulesdsl.semantics.moves import may_make
from rulesdsl.versions import diff as semantic
from tests import js_queries
from tests.conftest import compile_snippet, import_rendered
from tests.js_queries_kinds import kind_queries
from tests.test_sight_and_results import located

HEADER = """ruleset drill "Drill"
version 1.0.0
units distance in, cost in
group infantry "Infantry"
group vehicle "Vehicle"
mode trooper "Trooper" : infantry
mode tank "Tank" : vehicle
mode hound "Hound"
"""
LINES = HEADER.count("\n")
MOVES = """move run "Run" : allowance times 2, only infantry or hound
move prone "Go prone" : allowance times 0.5, only infantry
move walk "Walk" : allowance times 1
layer terrain "Terrain" {
  clear "Clear" | 1
  woods "Woods" | 2, run 3
}
"""
MAY = {
    ("trooper", "run"): True,
    ("hound", "run"): True,
    ("tank", "run"): False,  # a tank cannot run
    ("trooper", "prone"): True,
    ("hound", "prone"): False,  # only infantry may go prone
    ("tank", "prone"): False,
    ("tank", "walk"): True,  # a move without `only`: every unit type
}


def _ruleset(compiler: Compiler, body: str = MOVES) -> ir.Ruleset:
    compiled = compile_snippet(compiler, HEADER + body)
    assert compiled.ok and compiled.ruleset is not None, [str(d) for d in compiled.diagnostics]
    return compiled.ruleset


def test_a_module_refuses_a_kind_of_move_the_unit_type_may_not_make_as_semantics_says(
    compiler: Compiler, tmp_path: Path
) -> None:
    rs = _ruleset(compiler)
    m = import_rendered(rs, tmp_path, "move_only_module")
    kinds = {k.id: k for k in rs.moves}
    for (mode, move), may in MAY.items():
        assert may_make(rs, kinds[move], mode) is may, (mode, move)
        for ask in (m.move_cost, m.can_enter, m.rolls_due):
            if may:
                ask(mode, "woods", move=move)
                continue
            with pytest.raises(m.InvalidArgument, match=f"a '{mode}' may make"):
                ask(mode, "woods", move=move)
    assert m.move_cost("trooper", "woods", move="run") == 3
    assert m.MOVES["run"].modes == frozenset({"trooper", "hound"})
    assert m.MOVES["walk"].modes is None


def test_javascript_refuses_and_answers_as_python_for_every_unit_type_and_kind(
    compiler: Compiler, tmp_path: Path
) -> None:
    from tests.test_js_target import _needed, write_package

    _needed("node")
    rs = _ruleset(compiler)
    plan = module_plan.build(rs)
    python = import_rendered(rs, tmp_path, "move_only_js")
    queries = list(kind_queries(plan))
    expected = js_queries.ask_python_all(python, queries)
    got = js_queries.ask_node(write_package(plan, tmp_path / "js"), queries)
    pairs = zip(queries, expected, got, strict=True)
    assert [(q, e, g) for q, e, g in pairs if not js_queries.same(e, g)][:5] == []
    tank = {"function": "move_cost", "args": ["tank", "clear"], "kwargs": {"move": "run"}}
    assert "InvalidArgument" in str(got[queries.index(tank)])


@pytest.mark.parametrize(
    ("body", "column", "code"),
    [
        ('move run "Run" : allowance times 2, only infantry or walker\n', 54, "E101"),
        ('move run "Run" : allowance times 2, only infantry or infantry\n', 54, "E102"),
    ],
    ids=["not a unit type", "named twice"],
)
def test_each_misuse_of_only_has_its_code_at_its_place(
    compiler: Compiler, body: str, column: int, code: str
) -> None:
    assert (code, LINES + 1, column) in located(compiler, HEADER + body)


def test_only_survives_dsl_to_yaml_to_dsl(tmp_path: Path) -> None:
    source, _ = Parser().parse(HEADER + MOVES, "drill.terrain")
    assert source is not None
    yaml_text = to_yaml(source)
    assert "only: [infantry, hound]" in yaml_text
    yaml_path = tmp_path / "drill.yaml"
    yaml_path.write_text(yaml_text, "utf-8")
    back = tmp_path / "back.terrain"
    back.write_text(to_terrain(yaml_text), "utf-8")
    found = [Compiler().compile_file(p).ruleset for p in (yaml_path, back)]
    plain = [dataclasses.replace(r, digest="") for r in found if r is not None]
    assert len(plain) == 2 and plain[0] == plain[1]
    assert plain[0].moves[0].only == ("infantry", "hound")


@pytest.mark.parametrize(
    ("lang", "words"),
    [
        ("en", "only Infantry"),
        ("fr", "seulement Infantry"),
        ("de", "nur Infantry"),
        ("ru", "только Infantry"),
    ],
)
def test_the_sheet_says_who_may_make_a_move_in_every_language(
    tmp_path: Path, lang: str, words: str
) -> None:
    ruleset = tmp_path / "drill.terrain"
    ruleset.write_text(HEADER + MOVES, "utf-8")
    target = tmp_path / f"drill.{lang}.md"
    assert main(["sheet", str(ruleset), "--format", "md", "--lang", lang, "-o", str(target)]) == 0
    row = next(line for line in target.read_text("utf-8").splitlines() if "Go prone" in line)
    assert words in row


def test_diff_grades_a_narrower_only_as_breaking_and_a_wider_one_as_additive(
    compiler: Compiler,
) -> None:
    old = _ruleset(compiler)
    new = _ruleset(
        compiler,
        MOVES.replace("only infantry or hound", "only infantry").replace(
            "times 0.5, only infantry", "times 0.5, only infantry or hound"
        ),
    )
    found = [(c.level, c.path) for c in semantic.diff(old, new).changes]
    assert found == [("breaking", "run.only"), ("additive", "prone.only")]


def _house(tmp_path: Path, override: str) -> Compiler:
    (tmp_path / "drill.terrain").write_text(HEADER + MOVES, "utf-8")
    house = tmp_path / "house.terrain"
    house.write_text('ruleset house "House"\nversion 1.0.0\nextends drill@^1.0\n' + override)
    return Compiler()


def test_a_house_rule_lets_hounds_go_prone(tmp_path: Path) -> None:
    compiled = _house(tmp_path, "override prone.only | infantry, hound\n").compile_file(
        tmp_path / "house.terrain"
    )
    assert compiled.ruleset is not None and compiled.ok, [str(d) for d in compiled.diagnostics]
    prone = next(k for k in compiled.ruleset.moves if k.id == "prone")
    assert prone.only == ("infantry", "hound")
    [change] = compiled.ruleset.changes
    assert change.path == ir.MovePath("prone", "only")


def test_a_house_rule_giving_only_a_number_is_e201(tmp_path: Path) -> None:
    compiled = _house(tmp_path, "override prone.only | 2\n").compile_file(
        tmp_path / "house.terrain"
    )
    assert [d.code for d in compiled.diagnostics if d.is_error] == ["E201"]


def test_the_language_guide_example_answers_as_it_says(compiler: Compiler, tmp_path: Path) -> None:
    doc = (Path(__file__).parent.parent / "docs" / "language.md").read_text("utf-8")
    start = doc.index('```terrain\n  ruleset drill "Drill"')
    snippet = doc[start + len("```terrain\n") : doc.index("```", start + 10)]
    text = "\n".join(line.removeprefix("  ") for line in snippet.splitlines()) + "\n"
    compiled = compile_snippet(compiler, text)
    assert compiled.ok and compiled.ruleset is not None, [str(d) for d in compiled.diagnostics]
    m = import_rendered(compiled.ruleset, tmp_path, "move_only_doc")
    with pytest.raises(m.InvalidArgument, match="must be a kind of move a 'tank' may make"):
        m.move_cost("tank", "clear", move="run")
    assert m.move_cost("hound", "clear", move="run") == 1
    assert m.MOVES["prone"].modes == frozenset({"trooper"})
    assert "`override prone.only | infantry, hound`" in doc
