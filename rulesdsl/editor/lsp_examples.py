"""Hover over a worked example's question (issue 27): the answer the rules give and the cells
that give it; for a failing example, the diagnostic's own words (stated and actual answers)."""

from __future__ import annotations

from collections.abc import Sequence

from rulesdsl import examples, ir
from rulesdsl.diagnostics import Diagnostic
from rulesdsl.examples import statements as examples_stated
from rulesdsl.frontends import syntax as s

_EXAMPLE_CODES = ("E270", "E271", "E272", "E273")


def example_hover(
    statements: Sequence[s.Statement],
    diagnostics: Sequence[Diagnostic],
    ruleset: ir.Ruleset | None,
    path: str,
    line: int,
) -> str | None:
    """What to show for the question written on ``line`` (1-based) of ``path``; None when no
    question is written there."""
    for st in statements:
        if not isinstance(st, s.ExampleDecl):
            continue
        for n, q in enumerate(st.questions):
            if q.pos.file != path or not q.pos.line <= line <= q.pos.end_line:
                continue
            for d in diagnostics:
                if d.code in _EXAMPLE_CODES and d.pos is not None and d.pos.line == q.pos.line:
                    return f"**{d.code}** {d.message}" + (f"\n\n{d.hint}" if d.hint else "")
            return _answered(ruleset, st.item.name.text, n)
    return None


def _answered(ruleset: ir.Ruleset | None, name: str, n: int) -> str | None:
    example = next((e for e in ruleset.examples if e.id == name), None) if ruleset else None
    if ruleset is None or example is None or n >= len(example.questions):
        return None
    q = example.questions[n]
    try:
        answered = examples.ask(ruleset, q)
    except examples.Unanswerable as exc:
        return f"{examples_stated.question_text(q)}: {exc.message}"
    actual = examples_stated.answer_text(answered.parts, answered.unit)
    lines = [f"**{examples_stated.question_text(q)} = {actual}** (as stated)"]
    lines += [f"- {cell}" for cell in answered.cells]
    return "\n".join(lines)
