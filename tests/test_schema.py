"""The IR's JSON Schema: shipped, current, enforced; YAML rulesets compile like DSL ones."""

from __future__ import annotations

import json
import subprocess
import sys
from dataclasses import replace
from pathlib import Path

from rulesdsl import ir
from rulesdsl.codegen.targets import render_python as render
from rulesdsl.compiler import Compiler
from rulesdsl.interchange.convert import to_yaml
from rulesdsl.ir import schema
from rulesdsl.ir.serial import from_data, to_data
from tests.conftest import ROOT, RULESETS


def test_shipped_schema_matches_the_ir_classes() -> None:
    assert schema.shipped() == schema.build()


def test_every_bundled_ruleset_round_trips(compiler: Compiler) -> None:
    # that each one's data matches the schema is test_ir_schema's (the same data, validated
    # once per ruleset: jsonschema takes a fifth of a second for each)
    for path in sorted(RULESETS.glob("*.terrain")):
        compiled = compiler.compile_file(path)
        assert compiled.ruleset is not None, path
        data = to_data(compiled.ruleset)
        assert from_data(ir.Ruleset, json.loads(json.dumps(data))) == compiled.ruleset


def test_a_yaml_ruleset_compiles_exactly_like_its_dsl_source(
    compiler: Compiler, tmp_path: Path
) -> None:
    dsl = compiler.compile_file(RULESETS / "heavy_gear.terrain")
    assert dsl.ruleset is not None
    source, _ = compiler.parse_file(RULESETS / "heavy_gear.terrain")
    assert source is not None
    path = tmp_path / "heavy_gear.yaml"
    path.write_text(to_yaml(source), "utf-8")  # the authoring format, not the IR's shape
    from_yaml = compiler.compile_file(path)
    assert from_yaml.ok, [d.message for d in from_yaml.diagnostics]
    assert from_yaml.ruleset is not None
    # The digest is of the source text, which differs; everything else is the same module.
    assert render(replace(from_yaml.ruleset, digest=dsl.ruleset.digest)) == render(dsl.ruleset)


def test_a_yaml_ruleset_that_breaks_the_schema_is_reported(
    compiler: Compiler, tmp_path: Path
) -> None:
    path = tmp_path / "bad.yaml"
    path.write_text("ruleset: bad\nversion: 1.0.0\nmodes: nope\n", "utf-8")
    compiled = compiler.compile_file(path)
    assert not compiled.ok
    assert {d.code for d in compiled.diagnostics} == {"E120"}
    [diag] = [d for d in compiled.diagnostics if "modes" in d.message]
    assert diag.pos is not None and (diag.pos.line, diag.pos.column) == (3, 8)


def test_invalid_yaml_syntax_has_a_position(compiler: Compiler, tmp_path: Path) -> None:
    path = tmp_path / "broken.yaml"
    path.write_text("ruleset: [unclosed\n", "utf-8")
    compiled = compiler.compile_file(path)
    [diag] = compiled.diagnostics
    assert diag.code == "E001" and diag.pos is not None and diag.pos.line == 2


def test_schema_command_prints_the_shipped_schema() -> None:
    result = subprocess.run(
        [sys.executable, "-m", "rulesdsl", "schema"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    )
    assert json.loads(result.stdout) == schema.shipped()
