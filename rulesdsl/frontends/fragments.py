"""Pieces of DSL syntax outside a .terrain file: a cell, a value, a step term, a condition.

The YAML authoring format and CSV charts write cells and values in the DSL's own syntax; this
module parses such a fragment with the DSL grammar (one Lark parser with a start symbol per
kind of fragment) and builds the same syntax nodes as :mod:`rulesdsl.frontends.dsl`, with positions
moved to where the fragment stands in its file.
"""

from __future__ import annotations

from typing import Any

from lark import Token, Tree
from lark.exceptions import UnexpectedCharacters, UnexpectedInput, UnexpectedToken

from rulesdsl.diagnostics import Diagnostic, error
from rulesdsl.frontends import syntax as s
from rulesdsl.frontends.dsl import _Builder, lalr_parser
from rulesdsl.frontends.dsl_base import Built
from rulesdsl.frontends.dsl_driver import Fallback, Fused, fusable

STARTS: dict[str, str] = {
    "cell": "a cell",
    "value": "a value",
    "quantity": "a quantity such as 2 in",
    "signed": "a number such as +1",
    "step_term": "a step term such as +1 per full 2 in",
    "condition": "a condition such as distance <= size, or otherwise",
    "operand": "a number, an input or arithmetic of them such as speed + dived",
    "param": "an input such as distance in",
    "decision_param": "an input such as distance in, or with a default: run m = 0",
    "source": "a source such as book p.12",
    "dice_range": "a range of totals such as 2-4, 12+ or 2-",
    "column_value": "a column bound such as 2, 6 in or 2:1",
    "example_question": "a question and its answer such as move_cost(walker, soft) = 3 MP",
    "example_answer": "an answer such as 3 MP",
    "example_state": "a route's state by name such as (speed=3, altitude=2)",
    "facing_term": "a facing rule such as turn 1 MP per hexside, or turn mode 1",
    "arc_spans": "bearings such as -60 to 60, or 60 to 120, 240 to 300",
    "free_facing_term": "a facing rule such as turn 1 in per 45 deg, or pivot 2 in",
    "state_change": "a change such as debris -2, bomber climb -3, dive +1 capped or +1 capped at 5",
    "roll_band": "a state's band such as altitude below 4",
    "drift_entry": "a drift such as 1, balloon 2, or 1 when altitude below 3",
    "state_own_range": "a unit type's own range such as bomber 0 to 6",
}
"""Grammar rules a fragment may be parsed as, each with what its E001 says it expected:
one table, so that a start rule cannot be parsed without the words of its error."""


class FragmentError(Exception):
    """A fragment that does not parse; carries the diagnostic, already placed in the file."""

    def __init__(self, diagnostic: Diagnostic) -> None:
        super().__init__(diagnostic.message)
        self.diagnostic = diagnostic


class FragmentParser:
    """Build once, reuse: parses fragments of DSL syntax into syntax nodes."""

    def __init__(self) -> None:
        self._lark = lalr_parser(*STARTS)
        self._fusable = fusable(self._lark)

    def parse(self, text: str, start: str, path: str, line: int, column: int) -> Any:
        """The node for ``text`` parsed as ``start``; ``line``/``column`` (from 1) are where
        its first character stands in ``path``. Raises :class:`FragmentError`.

        A short fragment is parsed by the fused lexer and driver, built as it is reduced
        (:func:`_fused`); anything that takes more (a syntax error, an expression nested too
        deeply) and a long one by Lark's parser, its tree shifted, then walked: the same
        node or error either way."""
        if self._fusable and len(text) <= FUSED_LONGEST:
            built = _fused(self._lark, text, start, path, line, column)
            if built is not _AGAIN:
                return built
        try:
            tree = self._lark.parse(text, start=start)
        except UnexpectedInput as exc:
            raise FragmentError(_error(exc, text, start, path, line, column)) from None
        _shift(tree, line, column)
        builder = _Builder(path)
        try:
            built = builder.transform(tree)
        except RecursionError:  # only arithmetic nests; far deeper than E228 allows
            built = None
        deep = next((d for d in builder.errors if d.code == "E228"), None)
        if built is None or deep is not None:
            width = len(text.splitlines()[0]) if text.strip() else 1
            at = s.Pos(path, line, column, line, column + width)
            raise FragmentError(
                deep
                or error(
                    "E228",
                    "this expression nests too deeply",
                    at,
                    "split the rule into simpler rows",
                )
            )
        return built


FUSED_LONGEST = 200
"""The longest fragment parsed by the fused lexer and driver. Walking Lark's tree recurses, one
level of a fragment's tree a character at most (a parenthesis, an operator), and a tree too
deep for Python's stack is E228 (:meth:`FragmentParser.parse`): a fragment this short is far
from that, so the fused parse, which does not recurse, gives the same answer."""

_AGAIN = object()
"""What :func:`_fused` answers when Lark's parser must answer instead."""

_SPARE: list[tuple[_Builder, dict[str, Fused]]] = []
"""Builders a fragment's parse may take, each with its callbacks and its fused parser per
start rule made (making the callbacks is ~3 ms): the YAML front end and the chart readers
parse a fragment per cell, ~60 us each by Lark's parser and tree (issue 44). A parse takes
one and gives it back, so parses on several threads never share one."""


def _fused(lark: Any, text: str, start: str, path: str, line: int, column: int) -> Any:
    """``text``'s node, built as the fused lexer and driver reduce it at ``line``/``column``,
    or :data:`_AGAIN` when Lark's parser is to answer (a syntax error, for Lark's error; an
    expression nested too deeply, E228, for the walk's; a start rule standing for a lone
    token, which the walk does not take)."""
    try:
        builder, fused = _SPARE.pop()
    except IndexError:
        builder, fused = _Builder(path), {}
    try:
        builder.reset(path)
        engine = fused.get(start)
        if engine is None:
            engine = fused[start] = Fused(lark, builder.callbacks(lark), start)
        try:
            top = engine.parse(text, line, column)
        except Fallback:
            return _AGAIN
        if top.__class__ is not Built or any(d.code == "E228" for d in builder.errors):
            return _AGAIN
        return top.value
    finally:
        builder.reset("")
        if len(_SPARE) < 4:
            _SPARE.append((builder, fused))


def _shift(tree: Tree[Token], line: int, column: int) -> None:
    def move(ln: int | None, col: int | None) -> tuple[int, int]:
        ln, col = ln or 1, col or 1
        return ln + line - 1, col + column - 1 if ln == 1 else col

    for sub in tree.iter_subtrees():
        meta = sub.meta
        if not meta.empty:
            meta.line, meta.column = move(meta.line, meta.column)
            meta.end_line, meta.end_column = move(meta.end_line, meta.end_column)
        for child in sub.children:
            if isinstance(child, Token):
                child.line, child.column = move(child.line, child.column)
                child.end_line, child.end_column = move(child.end_line, child.end_column)


def _error(
    exc: UnexpectedInput, text: str, start: str, path: str, line: int, column: int
) -> Diagnostic:
    col = max(getattr(exc, "column", 1) or 1, 1)
    if isinstance(exc, UnexpectedToken) and exc.token.type == "$END":
        col = len(text) + 1
    found = "end"
    if isinstance(exc, UnexpectedToken) and exc.token.type != "$END":
        found = f"'{exc.token}'"
    elif isinstance(exc, UnexpectedCharacters):
        found = f"character {exc.char!r}"
    pos = s.Pos(path, line, column + col - 1, line, column + col)
    return error("E001", f"unexpected {found} in {text!r}", pos, f"expected {STARTS[start]}")
