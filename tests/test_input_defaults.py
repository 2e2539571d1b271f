"""A decision input may declare a default (issue 39 item 3): `level_flown m = 0`. The caller
may leave it out; the generated function takes it as a typed keyword default and checks it as
the other arguments; every number is checked at its line and column."""

from __future__ import annotations

import inspect
from pathlib import Path

import pytest

from rulesdsl import ir
from rulesdsl.compiler import Compiler
from rulesdsl.frontends import syntax as s
from rulesdsl.frontends.dsl import Parser
from rulesdsl.interchange.convert import to_terrain, to_yaml
from rulesdsl.interchange.fmt import format_text
from rulesdsl.printed.sheets import render_sheet
from rulesdsl.variants import resolve
from rulesdsl.versions.diff import diff
from tests.conftest import compile_snippet, import_rendered

HEADER = """ruleset demo "Demo"
version 1.0.0
units distance m, cost MP
mode walker "Walker"
table gait "Gait" {
  column stride "Stride"
  slow "Slow" | 1 m
  fast "Fast" | 3 m
}
"""
HEADER_LINES = HEADER.count("\n")

JUMP = """decision jump "Jump" (height m, run m = 0, careful bool = no, pace gait = slow) {
  careful                    -> safe "Safe"
  height > gait[pace]        -> too_high "Too high"
  height > run               -> run_up "Needs a run up"
  otherwise                  -> ok "Fine"
}
"""


def compiled_ok(compiler: Compiler, text: str) -> ir.Ruleset:
    compiled = compile_snippet(compiler, HEADER + text)
    assert [d.message for d in compiled.diagnostics if d.is_error] == []
    assert compiled.ruleset is not None
    return compiled.ruleset


def errors(compiler: Compiler, text: str) -> list[tuple[str, int, int]]:
    compiled = compile_snippet(compiler, HEADER + text)
    return [
        (d.code, d.pos.line - HEADER_LINES, d.pos.column)
        for d in compiled.diagnostics
        if d.is_error and d.pos is not None
    ]


def test_an_input_with_a_default_is_held_in_the_ir(compiler: Compiler) -> None:
    rs = compiled_ok(compiler, JUMP)
    defaults = {p.name: p.default for p in rs.decisions[0].params}
    assert defaults == {
        "height": None,
        "run": ir.Number(0, "m"),
        "careful": ir.Flag(False),
        "pace": ir.Symbol("slow"),
    }


def test_the_generated_function_takes_the_defaults_as_typed_keywords(
    compiler: Compiler, tmp_path: Path
) -> None:
    module = import_rendered(compiled_ok(compiler, JUMP), tmp_path, "defaults_jump")
    signature = inspect.signature(module.jump)
    assert [(p.name, p.default) for p in signature.parameters.values()] == [
        ("height", inspect.Parameter.empty),
        ("run", 0),
        ("careful", False),
        ("pace", "slow"),
    ]
    assert module.jump(2).id == "too_high"  # a slow stride is 1 m
    assert module.jump(2, pace="fast").id == "run_up"  # no run up by default
    assert module.jump(2, run=2, pace="fast").id == "ok"
    assert module.jump(9, careful=True).id == "safe"


def test_a_left_out_input_is_checked_as_the_others_when_given(
    compiler: Compiler, tmp_path: Path
) -> None:
    module = import_rendered(compiled_ok(compiler, JUMP), tmp_path, "defaults_checked")
    with pytest.raises(ValueError, match="'run'"):
        module.jump(2, run=-1)
    with pytest.raises(TypeError, match="'careful'"):
        module.jump(2, careful=0)


def test_a_worked_example_may_leave_out_an_input_with_a_default(compiler: Compiler) -> None:
    compiled_ok(
        compiler,
        JUMP + 'example jumps "Jumps" {\n  jump(height=2 m) = too_high\n'
        "  jump(height=2 m, pace=fast) = run_up\n}\n",
    )
    compiled = compile_snippet(
        compiler, HEADER + JUMP + 'example jumps "Jumps" {\n  jump(height=2 m) = ok\n}\n'
    )
    assert any(d.is_error for d in compiled.diagnostics)


@pytest.mark.parametrize(
    ("declaration", "at", "code"),
    [
        ("(height m = -1)", "-1", "E214"),
        ("(height m = 2 MP)", "2 MP", "E203"),
        ("(height m = yes)", "yes", "E201"),
        ("(flag bool = 2)", "2", "E201"),
        ("(pace gait = walk)", "walk", "E214"),
        ("(height m = 1, run m)", "run", "E215"),
    ],
)
def test_a_default_the_input_cannot_take_is_an_error_at_its_value(
    compiler: Compiler, declaration: str, at: str, code: str
) -> None:
    text = f'decision d "D" {declaration} {{\n  otherwise -> ok "Fine"\n}}\n'
    assert errors(compiler, text) == [(code, 1, text.index(at) + 1)]


def test_a_huge_default_is_e212(compiler: Compiler) -> None:
    text = 'decision d "D" (height m = 2000000000) {\n  otherwise -> ok "Fine"\n}\n'
    assert [e[0] for e in errors(compiler, text)] == ["E212"]


# ---- rulesdsl diff: what a caller of the old version needs ----------------------------------


def graded(compiler: Compiler, old: str, new: str) -> list[tuple[str, str]]:
    def one(inputs: str) -> ir.Ruleset:
        return compiled_ok(
            compiler, f'decision d "D" ({inputs}) {{\n  otherwise -> ok "Fine"\n}}\n'
        )

    return [(c.level, c.path) for c in diff(one(old), one(new)).changes]


def test_a_new_input_with_a_default_is_additive(compiler: Compiler) -> None:
    assert graded(compiler, "height m", "height m, run m = 0") == [("additive", "d.run")]


def test_a_new_input_without_a_default_is_breaking(compiler: Compiler) -> None:
    assert graded(compiler, "height m", "height m, run m") == [("breaking", "d.run")]


def test_a_changed_default_is_a_rules_change(compiler: Compiler) -> None:
    assert graded(compiler, "height m, run m = 0", "height m, run m = 1") == [("rules", "d.run")]


def test_a_removed_default_is_breaking(compiler: Compiler) -> None:
    assert graded(compiler, "height m, run m = 0", "height m, run m") == [("breaking", "d.run")]


def test_a_default_given_to_an_input_is_additive(compiler: Compiler) -> None:
    assert graded(compiler, "height m, run m", "height m, run m = 0") == [("additive", "d.run")]


def test_a_new_input_before_the_old_ones_is_breaking_even_with_a_default(
    compiler: Compiler,
) -> None:
    assert graded(compiler, "height m = 0", "run m = 0, height m = 0") == [("breaking", "d")]


# ---- the YAML front end, convert and fmt -----------------------------------------------------


def test_a_yaml_input_takes_a_default_as_the_dsl_does(compiler: Compiler, tmp_path: Path) -> None:
    source, diagnostics = Parser().parse(HEADER + JUMP, "demo.terrain")
    assert source is not None and diagnostics == []
    yaml_text = to_yaml(source)
    assert "run m = 0" in yaml_text
    (tmp_path / "demo.yaml").write_text(yaml_text, "utf-8")
    from_yaml = compiler.compile_file(tmp_path / "demo.yaml")
    assert from_yaml.ruleset is not None
    assert from_yaml.ruleset.decisions == compiled_ok(compiler, JUMP).decisions
    assert "(height m, run m = 0, careful bool = no, pace gait = slow)" in to_terrain(yaml_text)


def test_a_wrong_yaml_default_is_placed_inside_its_scalar(
    compiler: Compiler, tmp_path: Path
) -> None:
    source, _ = Parser().parse(HEADER + JUMP, "demo.terrain")
    assert source is not None
    yaml_text = to_yaml(source).replace("run m = 0", "run m = -2")
    (tmp_path / "demo.yaml").write_text(yaml_text, "utf-8")
    [found] = [d for d in compiler.compile_file(tmp_path / "demo.yaml").diagnostics if d.is_error]
    line = next(n for n, text in enumerate(yaml_text.splitlines(), 1) if "run m = -2" in text)
    assert found.pos is not None
    assert (found.code, found.pos.line, found.pos.column) == (
        "E214",
        line,
        yaml_text.splitlines()[line - 1].index("-2") + 1,
    )


def test_fmt_keeps_an_input_s_default_as_written() -> None:
    text = HEADER + JUMP.replace("run m = 0", "run m   =   0")
    formatted = format_text(text)
    assert "(height m, run m   =   0, careful bool = no, pace gait = slow)" in formatted
    assert format_text(formatted) == formatted


@pytest.mark.parametrize(
    ("lang", "phrases"),
    [
        ("en", ["run (m) [default 0 m]", "careful [default no]", "pace (Gait) [default Slow]"]),
        ("fr", ["run (m) [par défaut 0 m]", "careful [par défaut non]"]),
        ("ru", ["run (м) [по умолчанию 0 м]"]),
        ("de", ["run (m) [Standard 0 m]"]),
    ],
)
def test_the_sheet_shows_each_input_s_default_in_every_language(
    compiler: Compiler, lang: str, phrases: list[str]
) -> None:
    rs = compiled_ok(compiler, JUMP)
    markdown = render_sheet(rs, "md", lang).decode("utf-8").replace("\\", "")
    for phrase in phrases:
        assert phrase in markdown
    inputs = next(line for line in markdown.splitlines() if "run (" in line)
    assert "[" not in inputs.split(", ")[0]  # height has no default


def test_a_default_is_meaning_and_an_input_without_one_keeps_its_digest(
    compiler: Compiler,
) -> None:
    with_default = compiled_ok(compiler, JUMP)
    other = compiled_ok(compiler, JUMP.replace("run m = 0", "run m = 1"))
    assert with_default.digest != other.digest
    # an input without a default digests as it did before defaults existed: no bundled
    # ruleset's digest moves
    pos = s.Pos("x.terrain", 1, 1, 1, 1)
    bare = s.ParamNode(s.Name("height", pos), s.Name("m", pos))
    assert resolve._plain(bare) == ["ParamNode", ["Name", "height"], ["Name", "m"]]
