"""Helpers shared by the tests of the state constructs of issue 40 (capped changes, rolls on the
first step, own ranges by keyword): a docs/language.md example run against its built module,
and a JavaScript differential over one family of questions."""

from __future__ import annotations

import ast
import random
from pathlib import Path
from typing import Any

from rulesdsl import ir
from rulesdsl.codegen import plan as module_plan
from rulesdsl.compiler import Compiler
from tests import js_queries
from tests.conftest import compile_snippet, import_rendered
from tests.test_js_target import write_package

GUIDE = Path(__file__).parent.parent / "docs" / "language.md"


def guide_answers(title: str, end: str, folder: Path, name: str) -> int:
    """Build the first ``terrain`` block of the section of the guide from ``title`` to ``end``
    and check each line of its first ``python`` block followed by a ``# answer`` line; how
    many answers were checked."""
    doc = GUIDE.read_text("utf-8")
    section = doc[doc.index(title) : doc.index(end)]
    start = section.index("```terrain\n") + len("```terrain\n")
    terrain = section[start : section.index("```", start)]
    start = section.index("```python\n") + len("```python\n")
    python = section[start : section.index("```", start)].splitlines()
    compiled = compile_snippet(Compiler(), terrain)
    assert compiled.ok and compiled.ruleset is not None, [str(d) for d in compiled.diagnostics]
    module = import_rendered(compiled.ruleset, folder, name)
    names: dict[str, Any] = {"Board": module.Board, "route_cost": module.route_cost}
    asked = 0
    for i, line in enumerate(python):
        if i + 1 < len(python) and python[i + 1].startswith("# "):
            assert eval(line, names) == ast.literal_eval(python[i + 1][2:]), line
            asked += 1
        elif not line.startswith("#"):
            exec(line, names)
    return asked


def js_differential(rs: ir.Ruleset, family: str, seed: int, folder: Path) -> list[Any]:
    """Ask the Python module and the JavaScript module of ``rs`` the questions of ``family``;
    check they answer alike and return the Python answers."""
    plan = module_plan.build(rs)
    python = import_rendered(rs, folder, f"js_{family}")
    module = write_package(plan, folder / "js")
    queries = list(js_queries.families()[family](random.Random(seed), plan))
    expected = [js_queries.ask_python(python, q) for q in queries]
    got = js_queries.ask_node(module, queries)
    wrong = [
        (q, e, g)
        for q, e, g in zip(queries, expected, got, strict=True)
        if not js_queries.same(e, g)
    ]
    assert wrong[:3] == []
    return expected
