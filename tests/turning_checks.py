"""What the turning tests (issue 40, item 4: tests/test_turn_limit.py, test_turn_cost_by_speed.py,
test_tacking.py) share: the JS differential run of the `turning` query family, a sheet's text in
one language, and a DSL -> YAML -> DSL round trip."""

from __future__ import annotations

import dataclasses
import random
from pathlib import Path
from typing import Any

from rulesdsl import ir
from rulesdsl.codegen import plan as module_plan
from rulesdsl.commands.cli import main
from rulesdsl.compiler import Compiler
from rulesdsl.frontends.dsl import Parser
from rulesdsl.interchange.convert import to_terrain, to_yaml
from tests import js_queries
from tests.conftest import import_rendered
from tests.test_js_target import write_package


def js_answers(rs: ir.Ruleset, tmp_path: Path, name: str) -> list[Any]:
    """The Python module's answers to the `turning` family's questions, after checking that
    the JS module gives the same ones and that most boards stand."""
    plan = module_plan.build(rs)
    python = import_rendered(rs, tmp_path, name)
    module = write_package(plan, tmp_path / "js")
    queries = list(js_queries.families()["turning"](random.Random(40), plan))
    assert len(queries) > 100
    expected = js_queries.ask_python_all(python, queries)
    got = js_queries.ask_node(module, queries)
    wrong = [
        (q, e, g)
        for q, e, g in zip(queries, expected, got, strict=True)
        if not js_queries.same(e, g)
    ]
    assert wrong[:3] == []
    assert sum("error" not in e for e in expected) > len(expected) * 3 // 4  # boards that stand
    return expected


def sheet_text(text: str, tmp_path: Path, lang: str) -> str:
    """The markdown sheet of the ruleset ``text`` in ``lang`` (the header gets the four
    sheet languages)."""
    ruleset = tmp_path / "rules.terrain"
    ruleset.write_text(text.replace("version 1.0.0\n", "version 1.0.0\nlanguages en fr de ru\n"))
    target = tmp_path / f"rules.{lang}.md"
    assert main(["sheet", str(ruleset), "--format", "md", "--lang", lang, "-o", str(target)]) == 0
    return target.read_text("utf-8")


def round_trip(text: str, tmp_path: Path, *shown: str) -> ir.Ruleset:
    """The ruleset ``text`` converted to YAML (which must show each of ``shown``) and back,
    compiled from both and found the same."""
    source, _ = Parser().parse(text, "rules.terrain")
    assert source is not None
    yaml_text = to_yaml(source)
    assert all(s in yaml_text for s in shown), yaml_text
    yaml_path = tmp_path / "rules.yaml"
    yaml_path.write_text(yaml_text, "utf-8")
    back = tmp_path / "rules.terrain"
    back.write_text(to_terrain(yaml_text), "utf-8")
    found = [Compiler().compile_file(p) for p in (yaml_path, back)]
    plain = [dataclasses.replace(c.ruleset, digest="") for c in found if c.ruleset is not None]
    assert len(plain) == 2 and plain[0] == plain[1], [str(d) for c in found for d in c.diagnostics]
    return plain[0]
