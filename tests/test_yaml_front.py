"""The YAML authoring format: the DSL's shapes in YAML, checked like DSL, errors at YAML
positions, and hand-written twins that compile to the same modules as the bundled rulesets."""

from __future__ import annotations

import json
import shutil
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from rulesdsl import ir
from rulesdsl.codegen.targets import render_python as render
from rulesdsl.commands.cli import main
from rulesdsl.compiler import Compiler
from rulesdsl.interchange.convert import to_yaml
from tests.conftest import ROOT, RULESETS

TWINS = ROOT / "tests" / "data" / "yaml"

SMALL = """\
ruleset: skirmish
label: Skirmish
version: 1.0.0
languages: [en]
units: {distance: in, cost: MP}
modes:
  foot: {label: Foot, en: On foot}
  wheels: Wheels
layers:
  terrain:
    label: Terrain
    scope: one per place
    rows:
      clear: 1
      mud: {label: Mud, cells: "2, wheels impassable"}
      road: 1, wheels 1 per 2 in
"""


def line_of(text: str, needle: str) -> int:
    """The 1-based line of ``text`` that holds ``needle``."""
    return next(i for i, line in enumerate(text.splitlines(), 1) if needle in line)


def compile_yaml(
    compiler: Compiler, tmp_path: Path, text: str, name: str = "skirmish.yaml"
) -> list[tuple[str, int, int, str]]:
    path = tmp_path / name
    path.write_text(text, "utf-8")
    compiled = compiler.compile_file(path)
    return [
        (d.code, d.pos.line, d.pos.column, d.message)
        for d in compiled.diagnostics
        if d.pos is not None
    ]


@pytest.mark.parametrize(
    "system", ["heavy_gear", "battletech_tacops", "d20_movement", "generic_wargame"]
)
def test_a_hand_written_yaml_twin_compiles_to_the_same_module(
    compiler: Compiler, system: str
) -> None:
    dsl = compiler.compile_file(RULESETS / f"{system}.terrain")
    twin = compiler.compile_file(TWINS / f"{system}.yaml")
    assert twin.ok, [d.message for d in twin.diagnostics]
    assert dsl.ruleset is not None and twin.ruleset is not None
    # The digest is semantic (layout-free), but a hand-written twin may spell a cell otherwise
    # (`+1` for `1`): only the digest may differ, never the rules.
    assert render(replace(twin.ruleset, digest=dsl.ruleset.digest)) == render(dsl.ruleset)


def test_a_small_hand_written_yaml_ruleset_compiles(compiler: Compiler, tmp_path: Path) -> None:
    path = tmp_path / "skirmish.yaml"
    path.write_text(SMALL, "utf-8")
    compiled = compiler.compile_file(path)
    assert compiled.ok, compiled.diagnostics
    assert compiled.ruleset is not None
    features = {f.id: f for f in compiled.ruleset.features}
    assert str(features["mud"].costs["wheels"]) == "Marker(marker='impassable', kind='marker')"
    assert features["clear"].costs["foot"].value == 1  # type: ignore[union-attr]
    assert [m.id for m in compiled.ruleset.modes] == ["foot", "wheels"]


def test_an_unknown_mode_in_a_cell_is_reported_at_its_yaml_line_and_column(
    compiler: Compiler, tmp_path: Path
) -> None:
    text = SMALL.replace('"2, wheels impassable"', '"2, wheel impassable"')
    [(code, line, column, message)] = compile_yaml(compiler, tmp_path, text)
    assert (code, line) == ("E101", line_of(text, "wheel impassable"))
    assert "wheel" in message
    assert text.splitlines()[line - 1][column - 1 : column + 4] == "wheel"


def test_a_cell_that_does_not_parse_is_reported_inside_the_yaml_scalar(
    compiler: Compiler, tmp_path: Path
) -> None:
    text = SMALL.replace("road: 1, wheels 1 per 2 in", "road: 1, wheels 1 per")
    [(code, line, column, message)] = compile_yaml(compiler, tmp_path, text)
    assert (code, line) == ("E001", line_of(text, "road:"))
    assert column == len("      road: 1, wheels 1 per") + 1
    assert "1, wheels 1 per" in message


def test_a_key_the_format_does_not_have_is_reported_at_the_key(
    compiler: Compiler, tmp_path: Path
) -> None:
    text = SMALL.replace("    scope: one per place", "    scoop: one per place")
    diags = compile_yaml(compiler, tmp_path, text)
    assert [(c, ln, col) for c, ln, col, _ in diags] == [("E120", line_of(text, "scoop"), 5)]
    assert "'scoop' is not a key here" in diags[0][3]


def test_a_misspelt_key_gets_a_did_you_mean(compiler: Compiler, tmp_path: Path) -> None:
    text = SMALL.replace("    scope: one per place", "    scoop: one per place")
    [(_, _, _, _, hint)] = compile_yaml_hints(compiler, tmp_path, text)
    assert hint.startswith("did you mean 'scope'? expected one of: columns, ")


def test_a_schema_error_does_not_hide_the_cell_errors_beside_it(
    compiler: Compiler, tmp_path: Path
) -> None:
    """Issue 42: a schema error used to stop the file there; what the schema finds sound is
    read too, so a bad cell of another row is reported with it (and the bad key's hint names
    a command a wheel install has, not a file of the repository)."""
    text = (
        SMALL.replace("languages: [en]", "languages: en")
        .replace("    scope: one per place", "    scoop: one per place")
        .replace("road: 1, wheels 1 per 2 in", "road: 1, wheels 1 per")
    )
    found = compile_yaml_hints(compiler, tmp_path, text)
    assert [(c, ln) for c, ln, _, _, _ in found] == [
        ("E120", line_of(text, "languages")),
        ("E120", line_of(text, "scoop")),
        ("E001", line_of(text, "road:")),
    ]
    assert found[0][4] == "`rulesdsl schema authoring` prints the schema a YAML ruleset follows"
    assert not [h for *_, h in found if "docs/" in h]


def test_rulesdsl_schema_authoring_prints_the_schema_yaml_rulesets_follow(
    capsys: pytest.CaptureFixture[str],
) -> None:
    import json

    assert main(["schema", "authoring"]) == 0
    printed = json.loads(capsys.readouterr().out)
    shipped = ROOT / "rulesdsl" / "schema" / "authoring.schema.json"
    assert printed == json.loads(shipped.read_text("utf-8"))
    assert main(["schema"]) == 0  # the IR's, as before
    assert json.loads(capsys.readouterr().out)["$id"].endswith("/ruleset.schema.json")


def compile_yaml_hints(
    compiler: Compiler, tmp_path: Path, text: str
) -> list[tuple[str, int, int, str, str]]:
    path = tmp_path / "skirmish.yaml"
    path.write_text(text, "utf-8")
    return [
        (d.code, d.pos.line, d.pos.column, d.message, d.hint or "")
        for d in compiler.compile_file(path).diagnostics
        if d.pos is not None
    ]


def test_a_value_of_the_wrong_shape_is_reported_at_the_value(
    compiler: Compiler, tmp_path: Path
) -> None:
    text = SMALL.replace("languages: [en]", "languages: en")
    [(code, line, column, message)] = compile_yaml(compiler, tmp_path, text)
    assert (code, line, column) == ("E120", line_of(text, "languages"), 12)
    assert message.startswith("languages:")


def test_a_duplicate_feature_names_both_places(compiler: Compiler, tmp_path: Path) -> None:
    text = SMALL + "  weather:\n    rows:\n      mud: +1\n"
    [(code, line, column, _)] = compile_yaml(compiler, tmp_path, text)
    assert (code, line, column) == ("E102", len(text.splitlines()), 7)


def test_a_yaml_variant_extends_a_terrain_base_beside_it(
    compiler: Compiler, tmp_path: Path
) -> None:
    shutil.copy(RULESETS / "heavy_gear.terrain", tmp_path)
    path = tmp_path / "winter.yaml"
    path.write_text(
        "ruleset: winter\nversion: 1.0.0\nextends: heavy_gear@^1.0\n"
        "overrides:\n  soft.ground: 3\n"
        "  example.ground_on_soft_ground: 3 MP\n"  # restates the base's worked example
        "layers:\n  terrain:\n    rows:\n"
        '      ice: {label: Ice, cells: "2, hover 1"}\n',
        "utf-8",
    )
    compiled = Compiler().compile_file(path)
    assert compiled.ok, compiled.diagnostics
    assert compiled.ruleset is not None
    features = {f.id: f for f in compiled.ruleset.features}
    assert features["soft"].costs["ground"].value == 3  # type: ignore[union-attr]
    assert features["ice"].costs["hover"].value == 1  # type: ignore[union-attr]
    assert [a.id for a in compiled.ruleset.extends] == ["heavy_gear"]
    [restated] = [e for e in compiled.ruleset.examples if e.id == "ground_on_soft_ground"]
    assert (restated.inherited, restated.questions[0].answer) == ("", (ir.Number(3, "MP"),))


def test_check_prints_yaml_diagnostics_with_the_yaml_line_and_a_caret(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "skirmish.yaml"
    path.write_text(SMALL.replace("wheels impassable", "wheels impasable"), "utf-8")
    assert main(["check", str(path)]) == 1
    err = capsys.readouterr().err
    assert f"{path}:{line_of(SMALL, 'mud:')}:" in err
    assert '      mud: {label: Mud, cells: "2, wheels impasable"}' in err
    assert "^" in err


@pytest.mark.parametrize(
    ("key", "code"), [("'1'", "E120"), ("1", "E120"), ("'a; import os'", "E120")]
)
def test_a_key_that_is_not_a_name_is_refused(
    compiler: Compiler, tmp_path: Path, key: str, code: str
) -> None:
    # Names become identifiers in the generated module: only the DSL's names get through.
    # A key is its text: `1` and `'1'` are the same key, refused by the schema alike.
    text = SMALL.replace("  wheels: Wheels", f"  wheels: Wheels\n  {key}: Tracks")
    diags = compile_yaml(compiler, tmp_path, text)
    assert [(c, ln, col) for c, ln, col, _ in diags] == [
        (code, line_of(text, f"  {key}: Tracks"), 3)
    ]


def test_a_python_tag_is_refused_with_a_position(compiler: Compiler, tmp_path: Path) -> None:
    text = SMALL.replace("modes:\n", "modes: !!python/name:os.system\n")
    [(code, line, column, message)] = compile_yaml(compiler, tmp_path, text)
    assert (code, line, column) == ("E122", line_of(text, "!!python"), 8)
    assert message.startswith("explicit YAML tag '!!python/name:os.system'")


@pytest.mark.parametrize("style", ["|", ">"])
def test_a_cell_in_a_block_scalar_is_placed_on_its_own_line(
    compiler: Compiler, tmp_path: Path, style: str
) -> None:
    text = SMALL.replace(
        "      road: 1, wheels 1 per 2 in", f"      road: {style}\n        1, wheel 1 per 2 in"
    )
    [(code, line, column, _)] = compile_yaml(compiler, tmp_path, text)
    assert (code, line, column) == ("E101", line_of(text, "1, wheel 1"), 12)


def test_the_authoring_schema_is_a_json_schema_and_the_twins_follow_it() -> None:
    import jsonschema
    import yaml

    from rulesdsl.frontends.yaml_authoring import authoring_schema

    schema = authoring_schema()
    jsonschema.Draft202012Validator.check_schema(schema)
    validator = jsonschema.Draft202012Validator(schema)
    for twin in sorted(TWINS.glob("*.yaml")):
        text = twin.read_text("utf-8")
        assert text.startswith("# yaml-language-server: $schema=../../../rulesdsl/schema/")
        assert list(validator.iter_errors(yaml.safe_load(text))) == [], twin.name


@pytest.mark.parametrize(
    ("stacking", "code", "word", "hint"),
    [
        ("1 MP", "E001", "1 MP", "for example: sum entry 1 MP"),
        ("most entry 1 MP", "E101", "most", "expected one of: sum"),
        ("sum entry 1 XP", "E104", "1 XP", None),
    ],
)
def test_a_stacking_line_is_reported_at_its_words_in_the_yaml_scalar(
    compiler: Compiler, tmp_path: Path, stacking: str, code: str, word: str, hint: str | None
) -> None:
    """A scalar of the wrong shape is an E001 with an example; the policy's name and the entry
    cost are placed at their own words inside the scalar."""
    text = SMALL.replace("version: 1.0.0\n", f"version: 1.0.0\nstacking: {stacking}\n")
    [(found, line, column, _, said)] = compile_yaml_hints(compiler, tmp_path, text)
    assert (found, line) == (code, line_of(text, "stacking:"))
    assert text.splitlines()[line - 1][column - 1 :].startswith(word)
    assert hint is None or said == hint


@pytest.mark.parametrize(
    ("system", "rule", "broken"),
    [
        ("canvas_wings", "- turn 1 MP per hexside", "- turn one MP per hexside"),
        ("armour_inches", "- pivot 2 in", "- pivot two in"),
    ],
)
def test_a_facing_rule_that_does_not_parse_is_e001_at_its_line(
    compiler: Compiler, tmp_path: Path, system: str, rule: str, broken: str
) -> None:
    """A facing rule of a YAML ruleset, on a grid (canvas_wings) or off it (armour_inches),
    that does not parse is an E001 saying what a facing rule looks like (it was a KeyError:
    the fragment parser had no words for these two start rules)."""
    source, _ = compiler.parse_file(RULESETS / f"{system}.terrain")
    assert source is not None
    text = to_yaml(source).replace(rule, broken, 1)
    assert broken in text
    found = [d for d in compile_yaml_hints(compiler, tmp_path, text) if d[0] == "E001"]
    assert [(c, ln) for c, ln, *_ in found] == [("E001", line_of(text, broken))]
    assert found[0][4].startswith("expected a facing rule such as ")


def _misshapen(root: Any) -> Iterator[Any]:
    """The document's node tree once per mapping value, that value replaced in turn by a number, a
    list and a mapping of an unknown key (what the schema refuses, at every depth)."""
    from yaml.nodes import MappingNode, ScalarNode, SequenceNode

    stack, places = [root], []
    while stack:
        node = stack.pop()
        if isinstance(node, MappingNode):
            places += [(node, i) for i in range(len(node.value))]
            stack += [value for _, value in node.value]
        elif isinstance(node, SequenceNode):
            stack += node.value
    int_tag, str_tag = "tag:yaml.org,2002:int", "tag:yaml.org,2002:str"
    for node, i in places:
        key, value = node.value[i]
        at = (value.start_mark, value.end_mark)
        for wrong in (
            ScalarNode(int_tag, "7", *at),
            SequenceNode("tag:yaml.org,2002:seq", [ScalarNode(int_tag, "7", *at)], *at),
            MappingNode("tag:yaml.org,2002:map", [(ScalarNode(str_tag, "zz", *at), value)], *at),
        ):
            node.value[i] = (key, wrong)
            yield root
        node.value[i] = (key, value)


REACHED = """\
languages: [en, fr]
books:
  rb: {label: RB, fr: RB, note: {label: Rule book, fr: Livre}, source: rb p.2, remark: [kept]}
note: [Plain, {label: Noted, fr: Note, for: [foot]}]
source: rb
remark: a remark
"""
ROW = """\
label: Bog
fr: Marais
cells: 3, wheels impassable
source: rb p.4
note: {label: Deep, fr: Profond}
remark: [one, two]
ignores_others: true
"""


def test_the_schema_check_s_inlined_references_give_the_errors_of_the_schema_as_written(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The schema check reads the authoring schema with each reference to a definition
    replaced by the definition (issue 44: jsonschema's lookups were a sixth of the check):
    every E120 it gives, message, place and hint, is the schema as written's, on a small
    ruleset with each of its values misshapen in turn (books, notes, sources, remarks, rows:
    what the references reach)."""
    from rulesdsl.frontends import yaml_authoring as ya

    text = (
        SMALL.replace("languages: [en]\n", REACHED)
        + "      bog:\n"
        + "".join(f"        {line}\n" for line in ROW.splitlines())
    )
    root = ya._compose(text)
    assert root is not None and not ya._key_problems(root, "t.yaml")
    assert ya._schema_problems(root, "t.yaml") == ([], [])
    inlined, as_written = [], []
    for doc in _misshapen(root):
        inlined.append(ya._schema_problems(doc, "t.yaml"))
        with monkeypatch.context() as patch:
            patch.setattr(ya, "_checking_schema", ya.authoring_schema)
            as_written.append(ya._schema_problems(doc, "t.yaml"))
    assert "$ref" not in json.dumps(ya._checking_schema()["properties"])
    assert sum(bool(found) for found, _ in inlined) > 100, len(inlined)
    assert inlined == as_written
