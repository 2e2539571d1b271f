"""Lower worked examples (``example NAME "Title" { question = answer }``, issue 27) into
:class:`rulesdsl.ir.Example`: words become names or yes/no, numbers keep their units. Whether
each question can be asked and what it answers is judged on the IR by
:mod:`rulesdsl.checks.examples`."""

from __future__ import annotations

from collections.abc import Sequence
from typing import get_args

from rulesdsl import ir, words
from rulesdsl.diagnostics import Related, error
from rulesdsl.frontends import syntax as s
from rulesdsl.lowering.context import Context

_ANY: tuple[words.ValueKind, ...] = tuple(
    k for k in get_args(words.ValueKind) if k not in ("same", "given")
)


def examples(ctx: Context, decls: Sequence[s.ExampleDecl]) -> list[ir.Example]:
    """Every example, in file order; a name given twice is E275 (the first one stays)."""
    out: list[ir.Example] = []
    seen: dict[str, s.Pos] = {}
    for d in decls:
        name = d.item.name
        if name.text in seen:
            ctx.diags.append(
                error(
                    "E275",
                    f"the example '{name.text}' is declared twice",
                    name.pos,
                    "give each example a name of its own",
                    [Related(seen[name.text], "the first declaration")],
                )
            )
            continue
        seen[name.text] = name.pos
        questions = tuple(_question(ctx, q) for q in d.questions)
        out.append(
            ctx.at(ir.Example(name.text, ctx.info(d.item), questions, d.inherited), name.pos)
        )
    return out


def _question(ctx: Context, q: s.QuestionNode) -> ir.Question:
    args = tuple(
        ctx.at(
            ir.ExampleArg(
                a.keyword.text if a.keyword is not None else "",
                tuple(_value(ctx, v) for v in a.values),
                a.grouped,
                tuple(n.text for n in a.names or ()),
            ),
            a.pos,
        )
        for a in q.args
    )
    answer = tuple(_value(ctx, v) for v in q.answer)
    info = ctx.info_of({}, q.extras)
    attribute = q.attribute.text if q.attribute is not None else ""  # `.state` (issue 40)
    names = tuple(n.text for n in q.answer_names or ())
    return ctx.at(ir.Question(q.ask.text, args, answer, info, attribute, names), q.pos)


def _value(ctx: Context, loc: s.Located) -> ir.Value:
    value = ctx.value(loc, _ANY, "an example")
    return value if value is not None else ir.Text("?")
