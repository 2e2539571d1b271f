"""The compiler's own output matches the IR's JSON Schema.

The compiler does not validate its IR at run time (that cost most of a compile); these tests
do, for every bundled ruleset and for a generated ruleset that uses every cost kind.
"""

from __future__ import annotations

import importlib.util
import json
import sys
from dataclasses import replace
from pathlib import Path
from types import ModuleType

import pytest

from rulesdsl.compiler import Compiler
from rulesdsl.ir import schema
from rulesdsl.ir.serial import to_data
from tests.conftest import ROOT, RULESETS


def _generator() -> ModuleType:
    spec = importlib.util.spec_from_file_location("gen_ruleset", ROOT / "bench" / "gen_ruleset.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules.setdefault(spec.name, module)
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize("path", sorted(RULESETS.glob("*.terrain")), ids=lambda p: p.stem)
def test_every_bundled_rulesets_ir_matches_the_schema(compiler: Compiler, path: Path) -> None:
    compiled = compiler.compile_file(path)
    assert compiled.ok and compiled.ruleset is not None, path
    assert schema.validate_ir(compiled.ruleset) == []


def test_a_generated_ruleset_with_every_cost_kind_matches_the_schema(tmp_path: Path) -> None:
    path = tmp_path / "bench_100.terrain"  # a hundred features hold every cost kind
    path.write_text(_generator().terrain(100), "utf-8")
    compiled = Compiler().compile_file(path)
    assert compiled.ok and compiled.ruleset is not None
    data = to_data(compiled.ruleset)
    kinds = {
        exc["kind"]
        for f in data["features"]
        for cell in f["cells"].values()
        for exc in cell["exceptions"].values()
    }
    assert {"number", "rate", "param_rate", "marker"} <= kinds
    assert schema.validation_errors(data) == []


def test_the_benchmarks_yaml_and_json_hold_the_same_ruleset(tmp_path: Path) -> None:
    paths = _generator().write(100, tmp_path, formats=("yaml", "json"))
    from_dsl = Compiler().compile_file(paths["terrain"])
    from_yaml = Compiler().compile_file(paths["yaml"])
    assert from_yaml.ok, [d.message for d in from_yaml.diagnostics]
    assert from_dsl.ruleset is not None and from_yaml.ruleset is not None
    assert from_yaml.ruleset == replace(from_dsl.ruleset, digest=from_yaml.ruleset.digest)
    data = json.loads(paths["json"].read_text("utf-8"))  # the IR, defaults left out
    assert data["id"] == from_dsl.ruleset.id and "signed" not in json.dumps(data["modes"])


def test_the_schema_check_catches_an_ir_of_the_wrong_shape(compiler: Compiler) -> None:
    compiled = compiler.compile_file(RULESETS / "heavy_gear.terrain")
    assert compiled.ruleset is not None
    data = to_data(compiled.ruleset)
    data["features"][0]["cells"]["cost"]["default"]["kind"] = "no_such_kind"
    data["modes"][0]["id"] = 7
    problems = schema.validation_errors(data)
    assert any(p.startswith("features/0/cells/cost/default") for p in problems)
    assert any(p.startswith("modes/0/id") for p in problems)
