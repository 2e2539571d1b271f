"""How a worked example's arguments are read (issue 27), each with the check it needs: a
question's arguments one by one (:class:`Args`), a name from a pool, a number in a unit, a
place's features, and the plain parts a cost answers. The question kinds of
:mod:`rulesdsl.examples` and :mod:`rulesdsl.examples.routes` share them.
"""

from __future__ import annotations

from collections.abc import Sequence

from rulesdsl import ir, semantics, spelling
from rulesdsl.diagnostics import did_you_mean
from rulesdsl.examples.statements import Plain, Unanswerable
from rulesdsl.semantics import moves as semantics_moves


class Args:
    """A question's arguments, read one by one with the checks each needs."""

    def __init__(self, rs: ir.Ruleset, q: ir.Question) -> None:
        self.rs = rs
        self.q = q
        self.positional = [(i, a) for i, a in enumerate(q.args) if not a.keyword]
        self.keywords = {a.keyword: (i, a) for i, a in enumerate(q.args) if a.keyword}
        self.used: set[int] = set()
        self.kind: ir.MoveKind | None = None
        """The kind of move a question names (``move=run``), once read."""

    def at(self, n: int, what: str) -> tuple[int, ir.ExampleArg]:
        if n >= len(self.positional):
            raise Unanswerable(f"{self.q.ask}() needs {what} as argument {n + 1}")
        self.used.add(self.positional[n][0])
        return self.positional[n]

    def rest(self, start: int) -> list[tuple[int, ir.ExampleArg]]:
        out = self.positional[start:]
        self.used.update(i for i, _ in out)
        return out

    def keyword(self, name: str) -> tuple[int, ir.ExampleArg] | None:
        found = self.keywords.get(name)
        if found is not None:
            self.used.add(found[0])
        return found

    def done(self) -> None:
        for i, a in enumerate(self.q.args):
            if i not in self.used:
                name = f"'{a.keyword}'" if a.keyword else f"argument {i + 1}"
                raise Unanswerable(f"{self.q.ask}() takes no {name} here", i)


def name_in(arg: tuple[int, ir.ExampleArg], pool: Sequence[str], what: str) -> str:
    i, a = arg
    if a.grouped or len(a.values) != 1 or not isinstance(a.values[0], ir.Symbol):
        raise Unanswerable(f"argument {i + 1} should be the name of a {what}", i)
    name = a.values[0].name
    if name not in pool:
        raise Unanswerable(f"'{name}' is not a {what}{near(name, pool)}", i)
    return name


def near(name: str, pool: Sequence[str]) -> str:
    """`` (did you mean 'soft'?)`` after a name not in ``pool``, or nothing."""
    hint = did_you_mean(name, pool)
    return f" ({hint})" if hint else ""


def number_in(arg: tuple[int, ir.ExampleArg], unit: str | None, what: str) -> float:
    i, a = arg
    if a.grouped or len(a.values) != 1 or not isinstance(a.values[0], ir.Number):
        raise Unanswerable(f"'{what}' should be a number", i)
    n = a.values[0]
    if n.unit is not None and unit is not None and n.unit != unit:
        raise Unanswerable(f"'{what}' is in {unit}, not {n.unit}", i, wrong_unit=True)
    return n.value


def names_in(arg: tuple[int, ir.ExampleArg], pool: Sequence[str], what: str) -> tuple[str, ...]:
    i, a = arg
    out = []
    for v in a.values:
        if not isinstance(v, ir.Symbol) or v.name not in pool:
            shown = spelling.value(v)
            raise Unanswerable(f"'{shown}' in argument {i + 1} is not a {what}", i)
        out.append(v.name)
    return tuple(out)


def features(rs: ir.Ruleset) -> list[str]:
    return [f.id for f in rs.features]


def modes(rs: ir.Ruleset) -> list[str]:
    return [m.id for m in rs.modes]


def plain_answer(value: semantics.Answer) -> Plain:
    return {"marker": value.marker} if isinstance(value, ir.Marker) else {"number": value}


def cost_answer(cost: semantics.Answer | semantics.Unfilled) -> Plain:
    if isinstance(cost, semantics.Unfilled):
        raise Unanswerable(f"the cost needs the parameter '{cost.param}', which no value fills")
    return plain_answer(cost)


def moved(args: Args) -> ir.Ruleset:
    """The rules as the question's kind of move (``move=run``) sees them; kept on the
    arguments as ``kind`` for the allowance."""
    found = args.keyword("move")
    if found is None:
        return args.rs
    kind = name_in(found, [k.id for k in args.rs.moves], "kind of move")
    args.kind = semantics_moves.kind_of(args.rs, kind)
    return semantics_moves.kind_view(args.rs, kind)
