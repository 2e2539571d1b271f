"""Parse terrain DSL text into a :class:`rulesdsl.frontends.syntax.SourceFile`.

The grammar lives in ``grammars/terrain.lark`` (shipped as ``rulesdsl.grammars``); it is read and
compiled once per :class:`Parser`, which callers create once and reuse. The tree becomes syntax
nodes through :class:`_Builder`: its walk and token checks are in :mod:`.dsl_base`, steps,
decisions, tables, dice and sight in :mod:`.dsl_tables`.
"""

from __future__ import annotations

import re
from dataclasses import replace
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any, Literal

from lark import Lark, Token, Tree
from lark.exceptions import UnexpectedInput
from lark.parsers.lalr_parser import _Parser as _LalrParser
from lark.tree import Meta

from rulesdsl import ir, spelling, words
from rulesdsl.diagnostics import Diagnostic, error
from rulesdsl.frontends import syntax as s
from rulesdsl.frontends.dsl_arcs import ArcRules
from rulesdsl.frontends.dsl_base import NO_EXTRAS, parse_dice_token, place_order
from rulesdsl.frontends.dsl_driver import Fallback, Fused, fusable
from rulesdsl.frontends.dsl_errors import syntax_error
from rulesdsl.frontends.dsl_examples import ExampleRules
from rulesdsl.frontends.dsl_lexer import LazyContextualLexer
from rulesdsl.frontends.dsl_moves import MoveRules
from rulesdsl.frontends.dsl_table import QuickLALRParser
from rulesdsl.frontends.dsl_tables import TableRules
from rulesdsl.gc_pause import gc_paused
from rulesdsl.ir.records import dataclass


def load_grammar() -> str:
    """The grammar text: package data when installed, ``grammars/`` in a source checkout."""
    try:
        return resources.files("rulesdsl.grammars").joinpath("terrain.lark").read_text("utf-8")
    except ModuleNotFoundError:
        checkout = Path(__file__).resolve().parents[2] / "grammars" / "terrain.lark"
        return checkout.read_text("utf-8")


@cache
def lalr_parser(*starts: str) -> Lark:
    """The grammar's LALR parser for the given start rules (the file's by default), built
    once per process.

    A Lark LALR parser keeps no state between parses, so every :class:`Parser` and
    fragment parser of a process shares it: the language server, ``watch`` and the tests make
    many, and loading one costs ~30 ms even from the table cache. ``cache=True``: Lark keeps
    the built LALR tables in the temp folder, keyed by a hash of the grammar and options,
    which cuts the first load from ~300 ms to ~50 ms.
    """
    return Lark(
        load_grammar(),
        parser="lalr",
        propagate_positions=True,
        maybe_placeholders=False,
        cache=True,
        _plugins={"ContextualLexer": LazyContextualLexer, "LALR_Parser": QuickLALRParser},
        **({"start": list(starts)} if starts else {}),
    )


@dataclass(frozen=True, slots=False)
class _Remark:
    """A ``remark "..."`` while the extras of an item are gathered."""

    text: str


@dataclass(frozen=True, slots=False)
class _Note:
    """A ``note [for MODE, ...] "..."`` while the extras of an item are gathered."""

    labels: tuple[s.Label, ...]
    scope: tuple[s.Name, ...] = ()


class Parser:
    """A reusable parser: build it once, then call :meth:`parse` for each file."""

    def __init__(self) -> None:
        self._lark = lalr_parser()

    def parse(self, text: str, path: str) -> tuple[s.SourceFile | None, list[Diagnostic]]:
        """The file's syntax tree and its syntax errors (all that can be found).

        After a syntax error the statement that holds it is blanked out (its lines kept, so
        positions stay true) and the file is parsed again, up to MAX_ERRORS times (and
        MAX_READ characters in all): one run reports the errors of every statement, and
        later stages still check the statements that did parse. The tree is None only when
        nothing could be recovered.
        """
        with gc_paused():
            return self._parse(text, path)

    def _parse(self, text: str, path: str) -> tuple[s.SourceFile | None, list[Diagnostic]]:
        try:  # a builder whose callbacks are made (issue 44); pop: one thread's alone
            builder = _SPARE.pop()
        except IndexError:
            builder = _Builder(path)
        try:
            return self._read(text, path, builder)
        finally:
            builder.reset("")
            if len(_SPARE) < _SPARES:
                _SPARE.append(builder)

    def _read(
        self, text: str, path: str, builder: _Builder
    ) -> tuple[s.SourceFile | None, list[Diagnostic]]:
        if text.startswith("\ufeff"):  # a UTF-8 byte-order mark: not part of the text
            text = text[1:]
        source = text if text.endswith("\n") else text + "\n"
        errors: list[Diagnostic] = []
        lines = source.split("\n")
        lost: set[str] = set()
        read = 0
        while True:
            builder.reset(path)  # as new per attempt: a failed one's errors are dropped
            try:
                statements = self._build("\n".join(lines), builder)
            except UnexpectedInput as exc:
                found = syntax_error(exc, path, self._lark, lines)
                errors.append(found)
                line = found.pos.line if found.pos is not None else exc.line
                at = getattr(exc, "pos_in_stream", None)  # where this reading stopped
                read += at if isinstance(at, int) and at > 0 else len(source)
                if len(errors) >= MAX_ERRORS or read > MAX_READ or not _blank(lines, line, lost):
                    return None, errors
                continue
            kept = tuple(sorted(lost))
            return s.SourceFile(path, text, tuple(statements), kept), errors + builder.errors

    def _build(self, text: str, builder: _Builder) -> list[s.Statement]:
        """Parse ``text``, building its statements with ``builder`` as the LALR parser
        reduces (:meth:`BuilderBase.callbacks`): no tree is built, then walked, which was
        a third of a large file's parse. This runs Lark's parser over the grammar's tables
        with callbacks of our own, through attributes Lark does not document; a Lark
        without them gets the tree, then the walk, with the same result."""
        frontend: Any = self._lark.parser
        table = getattr(getattr(frontend, "parser", None), "_parse_table", None)
        if table is None or not hasattr(frontend, "_make_lexer_thread"):  # pragma: no cover
            statements: list[s.Statement] = builder.transform(self._lark.parse(text))
            return statements
        callbacks: Any = builder.callbacks(self._lark)  # Lark types them by token type only
        fused = builder.fused
        if fused is None or fused[0] is not self._lark:
            fused = builder.fused = (
                self._lark,
                Fused(self._lark, callbacks) if fusable(self._lark) else None,
            )
        if fused[1] is not None:
            try:
                return fused[1].parse(text).value  # type: ignore[no-any-return]
            except Fallback:  # Lark's driver raises its error, with all it knows
                builder.reset(builder.file)
        built = _LalrParser(table, callbacks).parse(frontend._make_lexer_thread(text), "start")
        statements = built.value
        return statements


_SPARE: list[_Builder] = []
"""Builders a parse may take, each with its callbacks (and fused parser) made: making them
was 3 ms of every parse, and the tests parse ~5,000 times (issue 44). A parse takes one and
gives it back, so parses on several threads never share one."""
_SPARES = 4

MAX_ERRORS = 50
MAX_READ = 2 << 20
"""The most characters the parser reads before it stops at a syntax error, its readings
again after each earlier one together (each reading stops at the next error): a 2 MiB file
with a syntax error every 400 rows took 33 s of CPU to report its first 50. This bounds the
work by about one reading of a file at the size limit; a small file still gets its 50."""


_FIRST_NAME = re.compile(r"^\s*([A-Za-z_]\w*)")
_STATEMENT_NAME = re.compile(r"[a-z]+\s+([A-Za-z_]\w*)")
_OUTCOME = re.compile(r"->\s*([A-Za-z_]\w*)")


def _blank(lines: list[str], line: int, lost: set[str]) -> bool:
    """Blank what holds the syntax error at 1-based ``line``: inside a block, that line alone
    (with its continuation lines), so the rest of the block is kept; else the top-level
    statement around it. Adds to ``lost`` the names the blanked lines declared. False when
    nothing is left to blank. A statement starts on a line whose first character is a
    letter."""

    def starts(i: int) -> bool:
        return bool(lines[i]) and lines[i][0].isalpha()

    index = min(max(line, 1), len(lines)) - 1
    first = next((i for i in range(index, -1, -1) if starts(i)), 0)
    end = next((i for i in range(index + 1, len(lines)) if starts(i)), len(lines))
    text = lines[index].strip()
    inner = first < index < end and text and not text.startswith("}") and "{" in lines[first]
    if inner:
        start = index
        while start - 1 > first and lines[start - 1].rstrip().endswith("\\"):
            start -= 1  # the line continues an earlier one
        stop = index + 1
        while stop < end and (
            lines[stop - 1].rstrip().endswith("\\") or lines[stop].lstrip().startswith("note ")
        ):
            stop += 1  # continuation lines belong to it
        _lose(lines, range(start, stop), lost, lines[first])
        if lines[start].strip().startswith("otherwise"):
            owner = _STATEMENT_NAME.match(lines[first])
            if owner:
                lost.add(owner.group(1))  # the decision then has no `otherwise` (E206)
        for i in range(start, stop):
            lines[i] = ""
        return True
    if all(not lines[i].strip() for i in range(first, end)):
        return False
    named = _STATEMENT_NAME.match(lines[first])
    if named:
        lost.add(named.group(1))
    _lose(lines, range(first + 1, end), lost, lines[first])
    for i in range(first, end):
        lines[i] = ""
    return True


def _lose(lines: list[str], indexes: range, lost: set[str], head: str) -> None:
    """The names the lines of a block declare: in a decision, a row's outcome (its first word
    is an input); in an example, nothing (its first word is a question); elsewhere the row's
    or item's name."""
    if head.startswith("example"):
        return
    pattern = _OUTCOME if head.startswith("decision") else _FIRST_NAME
    for i in indexes:
        found = pattern.search(lines[i])
        if found and found.group(1) not in ("note", "otherwise", "columns", "column", "when"):
            lost.add(found.group(1))


class _Builder(TableRules, MoveRules, ArcRules, ExampleRules):
    """Lark tree -> syntax nodes. Each method, named after a grammar rule (or an alias), gets
    the node's meta and its built children; tokens pass through :meth:`__default_token__`.

    It walks the tree itself rather than through ``lark.Transformer`` with ``v_args``, which
    wraps every method anew on each call: that cost a quarter of a large file's parse."""

    fused: tuple[Lark, Fused | None] | None = None
    """The parser's lexer and driver fused over this builder's callbacks (made on its first
    parse; None inside: Lark's driver parses)."""

    # -- start and header -------------------------------------------------------------------

    def start(self, meta: Meta, children: list[Any]) -> list[s.Statement]:
        return [c for c in children if not isinstance(c, Token)]

    def ruleset_decl(self, meta: Meta, ch: list[Any]) -> s.RulesetDecl:
        return s.RulesetDecl(self._item(meta, ch))

    def version_decl(self, meta: Meta, ch: list[Any]) -> s.VersionDecl:
        return s.VersionDecl(str(ch[0]), self._p(ch[0]))

    def edition_decl(self, meta: Meta, ch: list[Any]) -> s.EditionDecl:
        return s.EditionDecl(str(ch[0]), self._p(ch[0]))

    def extends_decl(self, meta: Meta, ch: list[Any]) -> s.ExtendsDecl:
        return s.ExtendsDecl(self._name(ch[0]), str(ch[1]), self._p(meta))

    def languages_decl(self, meta: Meta, ch: list[Any]) -> s.LanguagesDecl:
        return s.LanguagesDecl(tuple(self._name(t) for t in ch), self._p(meta))

    def book_decl(self, meta: Meta, ch: list[Any]) -> s.BookDecl:
        return s.BookDecl(self._item(meta, ch))

    def units_decl(self, meta: Meta, ch: list[Any]) -> s.UnitsDecl:
        return s.UnitsDecl(tuple(ch), self._p(meta))

    def unit_binding(self, meta: Meta, ch: list[Token]) -> tuple[s.Name, s.Name]:
        return self._name(ch[0]), self._name(ch[1])

    def stacking_decl(self, meta: Meta, ch: list[Any]) -> s.StackingDecl:
        return s.StackingDecl(self._name(ch[0]), ch[1] if len(ch) > 1 else None, self._p(meta))

    def minimum_decl(self, meta: Meta, ch: list[Any]) -> s.MinimumDecl:
        return s.MinimumDecl(ch[0], ch[1], self._p(meta))

    # -- modes, groups, contexts ------------------------------------------------------------

    def mode_decl(self, meta: Meta, ch: list[Any]) -> s.ModeDecl:
        keywords: list[s.Name] = next(
            (c[1] for c in ch if isinstance(c, tuple) and c and c[0] == "kw"), []
        )
        allowance = next((c for c in ch if isinstance(c, s.Located)), None)  # `allowance 6 in`
        return s.ModeDecl(self._item(meta, ch), tuple(keywords), allowance)

    def mode_keywords(self, meta: Meta, ch: list[Any]) -> tuple[str, list[s.Name]]:
        return ("kw", ch[0])

    def group_decl(self, meta: Meta, ch: list[Any]) -> s.GroupDecl:
        members = next((c for c in ch if isinstance(c, list)), [])
        return s.GroupDecl(self._item(meta, ch), tuple(members))

    def precedence_decl(self, meta: Meta, ch: list[Any]) -> s.PrecedenceDecl:
        return s.PrecedenceDecl(tuple(ch[0]), ch[1], self._p(meta))

    def name_list(self, meta: Meta, ch: list[Token]) -> list[s.Name]:
        return [self._name(t) for t in ch]

    def item_line(self, meta: Meta, ch: list[Any]) -> s.Item:
        return self._item(meta, ch)

    def context_decl(self, meta: Meta, ch: list[Any]) -> s.ContextDecl:
        values = tuple(c for c in ch[1:] if isinstance(c, s.Item))
        return s.ContextDecl(self._item(meta, ch), values)

    # -- layers and modifiers ---------------------------------------------------------------

    def scope_one(self, meta: Meta, ch: list[Any]) -> tuple[str, Literal["one"]]:
        return ("scope", "one")

    def scope_map(self, meta: Meta, ch: list[Any]) -> tuple[str, Literal["map"]]:
        return ("scope", "map")

    def scope_edges(self, meta: Meta, ch: list[Any]) -> tuple[str, Literal["edges"], s.Pos]:
        return ("scope", "edges", self._p(meta))

    def columns_line(self, meta: Meta, ch: list[Any]) -> tuple[str, list[s.Name]]:
        return ("columns", ch[0])

    def layer_decl(self, meta: Meta, ch: list[Any]) -> s.LayerDecl:
        scope: ir.LayerScope = next(
            (c[1] for c in ch if isinstance(c, tuple) and c and c[0] == "scope"), "many"
        )
        columns = next((c[1] for c in ch if isinstance(c, tuple) and c and c[0] == "columns"), None)
        rows = tuple(c for c in ch if isinstance(c, s.RowNode))
        scopes = [c for c in ch if isinstance(c, tuple) and c and c[0] == "scope"]
        if len(scopes) > 1:  # maps (issue 11): `edges` with `one per place`, and the like
            edges = next((c for c in scopes if c[1] == "edges"), scopes[1])
            self.errors.append(
                error(
                    "E244",
                    "a layer has one scope: "
                    + " and ".join(f"`{words.scope_words(c[1])}`" for c in scopes)
                    + " cannot go together",
                    edges[2] if len(edges) > 2 else self._name(ch[0]).pos,
                    "an edge layer is `edges` alone: there is one of each feature per edge "
                    "that the map lists",
                )
            )
        named = tuple(columns) if columns else None
        return s.LayerDecl(self._item(meta, ch), scope, named, rows, place_order(ch))

    def modifier_decl(self, meta: Meta, ch: list[Any]) -> s.ModifierDecl:
        def part(tag: str) -> Any:
            return next((c[1] for c in ch if isinstance(c, tuple) and c and c[0] == tag), None)

        by: list[s.Name] = part("by") or []
        block = next((c for c in ch if isinstance(c, list)), [])
        rows = tuple(c for c in block if isinstance(c, s.RowNode))
        whens = tuple(c for c in block if isinstance(c, s.WhenNode))
        bests = tuple(c for c in block if isinstance(c, s.BestNode))
        return s.ModifierDecl(
            self._item(meta, ch),
            by[0] if by else None,
            rows,
            whens,
            context2=by[1] if len(by) > 1 else None,
            combine=part("combine"),
            clamp=part("clamp"),
            bests=bests,
            sights=tuple(c for c in block if isinstance(c, s.SightFactorNode)) or None,
        )

    def modifier_by(self, meta: Meta, ch: list[Token]) -> tuple[str, list[s.Name]]:
        return ("by", [self._name(t) for t in ch])

    def modifier_combine(self, meta: Meta, ch: list[Token]) -> tuple[str, s.Name]:
        return ("combine", self._name(ch[0]))

    def modifier_clamp(self, meta: Meta, ch: list[Any]) -> tuple[str, s.ClampNode]:
        pos = self._p(meta)
        return ("clamp", s.ClampNode(s.Located(ch[0], pos), s.Located(ch[1], pos), pos))

    def modifier_block(self, meta: Meta, ch: list[Any]) -> list[Any]:
        return list(ch)

    def best_line(self, meta: Meta, ch: list[Any]) -> s.BestNode:
        combine = next((c[1] for c in ch if isinstance(c, tuple) and c and c[0] == "combine"), None)
        members = next(c for c in ch if isinstance(c, list))
        return s.BestNode(self._item(meta, ch), combine, tuple(members))

    def when_line(self, meta: Meta, ch: list[Any]) -> s.WhenNode:
        return s.WhenNode(tuple(ch[0]), ch[1], ch[2], self._p(meta))

    def row(self, meta: Meta, ch: list[Any]) -> s.RowNode:
        key = ch[0]
        cells = tuple(c for c in ch if isinstance(c, s.CellNode))
        if isinstance(key, s.Located):
            assert isinstance(key.value, ir.Number)
            number = key.value
            text = spelling.number(number.value)
            name_token = Token(
                "NAME",
                text,
                0,
                key.pos.line,
                key.pos.column,
                key.pos.end_line,
                key.pos.end_column,
                0,
            )
            item = self._item(meta, [name_token, *ch[1:]])
            return s.RowNode(item, cells, number, place_order(ch))
        return s.RowNode(self._item(meta, ch), cells, precedence=place_order(ch))

    def cell(self, meta: Meta, ch: list[s.Entry]) -> s.CellNode:
        if not ch:
            return s.CellNode((), s.Pos(self.file, 0, 0, 0, 0))
        return s.CellNode(tuple(ch), self._p(meta))

    def plain_entry(self, meta: Meta, ch: list[Any]) -> s.Entry:
        return s.Entry(None, self._located(meta, ch[0]))

    def keyed_entry(self, meta: Meta, ch: list[Any]) -> s.Entry:
        return s.Entry(self._name(ch[0]), self._located(meta, ch[1]))

    # -- maps (issue 11): place states and `along` entries -------------------------------------

    def plain_state_entry(self, meta: Meta, ch: list[Any]) -> s.Entry:
        return s.Entry(None, self._located(meta, ch[0]), state=ch[1])

    def keyed_state_entry(self, meta: Meta, ch: list[Any]) -> s.Entry:
        return s.Entry(self._name(ch[0]), self._located(meta, ch[1]), state=ch[2])

    def may_not_end(self, meta: Meta, ch: list[Any]) -> s.PlaceStateNode:
        return s.PlaceStateNode("may_not_end", self._p(meta))

    def must_stop(self, meta: Meta, ch: list[Any]) -> s.PlaceStateNode:
        return s.PlaceStateNode("must_stop", self._p(meta))

    def along_amount(self, meta: Meta, ch: list[Any]) -> s.Located:
        number: ir.Number = ch[0]
        if len(ch) > 1 and int(ch[1]) == 0:
            self.errors.append(
                error(
                    "E212",
                    f"'along {number.value:g}/{ch[1]}' divides by zero",
                    self._p(meta),
                    "a part of the cost is a fraction such as 1/2",
                )
            )
        elif len(ch) > 1:
            number = ir.Number(number.value / int(ch[1]), None, number.signed)
        return s.Located(number, self._p(meta))

    def along_entry(self, meta: Meta, ch: list[Any]) -> s.Entry:
        return s.Entry(None, ch[0], along=True)

    def keyed_along_entry(self, meta: Meta, ch: list[Any]) -> s.Entry:
        return s.Entry(self._name(ch[0]), ch[1], along=True)

    def shaped_grid_decl(self, meta: Meta, ch: list[Any]) -> s.GridDecl:
        shape = next(c for c in ch if isinstance(c, s.Name))
        diagonals = next((c for c in ch if isinstance(c, tuple) and c[:1] == ("diagonals",)), ())
        size = tuple(c for c in ch if isinstance(c, s.Located))
        return s.GridDecl(self._item(meta, ch), size, tuple(diagonals[1:]), shape)

    def grid_shape(self, meta: Meta, ch: list[Token]) -> s.Name:
        return self._name(ch[0])

    def grid_diagonals(self, meta: Meta, ch: list[Token]) -> tuple[Any, ...]:
        return ("diagonals", *(int(c) for c in ch if c.type == "INT"))

    def pair_entry(self, meta: Meta, ch: list[Any]) -> s.Entry:
        return s.Entry(self._name(ch[0]), self._located(meta, ch[2]), key2=self._name(ch[1]))

    # -- values -----------------------------------------------------------------------------

    def number(self, meta: Meta, ch: list[Token]) -> float:
        return int(ch[0]) if ch[0].type == "INT" else float(ch[0])

    def signed(self, meta: Meta, ch: list[Any]) -> ir.Number:
        if len(ch) == 2:
            sign = -1 if str(ch[0]) == "-" else 1
            return ir.Number(sign * ch[1], None, True)
        return ir.Number(ch[0])

    def quantity(self, meta: Meta, ch: list[Any]) -> s.Located:
        number: ir.Number = ch[0]
        if len(ch) > 1:
            number = ir.Number(number.value, str(ch[1]), number.signed)
        return s.Located(number, self._p(meta))

    def rate(self, meta: Meta, ch: list[Any]) -> s.Located:
        return s.Located(ir.Rate(ch[0], ch[1].value), self._p(meta))

    def unit_rate(self, meta: Meta, ch: list[Any]) -> s.Located:
        amount = ir.Number(ch[0].value, str(ch[1]), ch[0].signed)
        return s.Located(ir.Rate(amount, ch[2].value), self._p(meta))

    def param_rate(self, meta: Meta, ch: list[Any]) -> s.Located:
        return s.Located(ir.ParamRate(ch[0], str(ch[1])), self._p(meta))

    def trade(self, meta: Meta, ch: list[Any]) -> s.Located:
        return s.Located(ir.Trade(ch[0].value, ch[1].value), self._p(meta))

    def span(self, meta: Meta, ch: list[Any]) -> s.Located:
        unit = str(ch[2]) if len(ch) > 2 else None
        return s.Located(ir.Span(ch[0], ch[1], unit), self._p(meta))

    def impassable(self, meta: Meta, ch: list[Any]) -> s.Located:
        return s.Located(ir.Marker("impassable"), self._p(meta))

    def prohibited(self, meta: Meta, ch: list[Any]) -> s.Located:
        return s.Located(ir.Marker("prohibited"), self._p(meta))

    def blocked(self, meta: Meta, ch: list[Any]) -> s.Located:
        return s.Located(ir.Marker("blocked"), self._p(meta))

    def same_as(self, meta: Meta, ch: list[Token]) -> s.Located:
        return s.Located(s.SameAs(self._name(ch[0])), self._p(meta))

    def flat_cost(self, meta: Meta, ch: list[Any]) -> s.Located:
        return s.Located(ir.Flat(ch[0].value), self._p(meta))

    def share_cost(self, meta: Meta, ch: list[Any]) -> s.Located:
        share: ir.Share = ch[0]
        return s.Located(share, self._p(meta))

    def share_fraction(self, meta: Meta, ch: list[Token]) -> ir.Share:
        return ir.Share(int(ch[0]), int(ch[1]))

    def share_all(self, meta: Meta, ch: list[Any]) -> ir.Share:
        return ir.Share(1, 1, ch[0].value if ch else None)

    def step_cost(self, meta: Meta, ch: list[Token]) -> s.Located:
        return s.Located(ir.StepCost(str(ch[0])), self._p(ch[0]))

    def symbol(self, meta: Meta, ch: list[Token]) -> s.Located:
        return s.Located(s.Word(self._name(ch[0])), self._p(meta))

    def dice(self, meta: Meta, ch: list[Token]) -> s.Located:
        return s.Located(parse_dice_token(str(ch[0])), self._p(meta))

    def text(self, meta: Meta, ch: list[Token]) -> s.Located:
        return s.Located(ir.Text(self._unquote(ch[0])), self._p(meta))

    # -- labels and extras ------------------------------------------------------------------

    def labels(self, meta: Meta, ch: list[Token]) -> tuple[s.Label, ...]:
        out = [s.Label("", self._unquote(ch[0]), self._p(ch[0]))]
        for lang, text in zip(ch[1::2], ch[2::2], strict=True):
            out.append(s.Label(str(lang), self._unquote(text), self._p(lang)))
        return tuple(out)

    def extras(self, meta: Meta, ch: list[Any]) -> s.Extras:
        source = next((c for c in ch if isinstance(c, s.SourceRef)), None)
        found = [c for c in ch if isinstance(c, _Note)]
        notes = tuple(n.labels for n in found)
        scopes = tuple(n.scope for n in found) if any(n.scope for n in found) else ()
        remarks = tuple(c.text for c in ch if isinstance(c, _Remark))
        ignores = any(c == "ignores_others" for c in ch)
        return s.Extras(source, notes, ignores, remarks, scopes)

    def source(self, meta: Meta, ch: list[Token]) -> s.SourceRef:
        page = next((str(t) for t in ch[1:] if t.type == "PAGE"), None)
        detail = next((self._unquote(t) for t in ch[1:] if t.type == "STRING"), None)
        return s.SourceRef(self._name(ch[0]), page, detail)

    def note(self, meta: Meta, ch: list[Any]) -> _Note:
        if isinstance(ch[1], tuple):  # note for MODE, ... "..."
            return _Note(self.labels(meta, ch[2:]), ch[1])
        return _Note(self.labels(meta, ch[1:]))

    def note_for(self, meta: Meta, ch: list[Token]) -> tuple[s.Name, ...]:
        return tuple(self._name(t) for t in ch)

    def remark(self, meta: Meta, ch: list[Token]) -> _Remark:
        return _Remark(self._unquote(ch[1]))

    def ignores_others(self, meta: Meta, ch: list[Any]) -> str:
        return "ignores_others"

    # -- steps and decisions ----------------------------------------------------------------

    # -- tables, dice, triggers -------------------------------------------------------------

    # -- results tables and line of sight (issue 11, items 9 and 10) -------------------------

    def trigger_decl(self, meta: Meta, ch: list[Any]) -> s.TriggerDecl:
        check = next(
            (c for c in ch if isinstance(c, tuple) and len(c) == 2 and isinstance(c[0], s.Located)),
            None,
        )
        names = [c for c in ch[1:] if isinstance(c, Token) and c.type == "NAME"]
        ints = [c for c in ch if isinstance(c, Token) and c.type == "INT"]
        modifier = self._name(names[1]) if len(names) > 1 else None
        return s.TriggerDecl(
            self._item(meta, ch),
            check[0] if check else None,
            check[1] if check else None,
            self._name(names[0]),
            modifier,
            int(ints[0]) if ints else 1,
            tuple(self._name(n) for n in names[2:]),
        )

    def trigger_check(self, meta: Meta, ch: list[Token]) -> tuple[s.Located, int]:
        return s.Located(parse_dice_token(str(ch[0])), self._p(ch[0])), int(ch[1])

    def exclude_decl(self, meta: Meta, ch: list[Any]) -> s.ExcludeDecl:
        return s.ExcludeDecl(self._name(ch[0]), tuple(ch[1]), ch[2], self._p(meta))

    # -- grids, params, variants ------------------------------------------------------------

    def grid_decl(self, meta: Meta, ch: list[Any]) -> s.GridDecl:
        size = tuple(c for c in ch if isinstance(c, s.Located))
        diagonals = tuple(int(c) for c in ch if isinstance(c, Token) and c.type == "INT")
        return s.GridDecl(self._item(meta, ch), size, diagonals)

    def param_decl(self, meta: Meta, ch: list[Any]) -> s.ParamDecl:
        unit_token = next(c for c in ch[1:] if isinstance(c, Token) and c.type == "NAME")
        value = next((c for c in ch if isinstance(c, s.Located)), None)
        return s.ParamDecl(self._item(meta, ch), self._name(unit_token), value)

    def path(self, meta: Meta, ch: list[Token]) -> tuple[s.Name, ...]:
        # a numeric part names a numeric row key, spelled as the row's name is
        return tuple(
            self._name(t) if t.type == "NAME" else s.Name(spelling.number(float(t)), self._p(t))
            for t in ch
        )

    def override_decl(self, meta: Meta, ch: list[Any]) -> s.OverrideDecl:
        return s.OverrideDecl(ch[0], ch[1], ch[2], self._p(meta))

    def override_range(self, meta: Meta, ch: list[Any]) -> s.OverrideDecl:
        return s.OverrideDecl(
            ch[0], s.CellNode((), self._p(meta)), ch[2], self._p(meta), range=ch[1]
        )

    def override_row(self, meta: Meta, ch: list[Any]) -> s.OverrideDecl:
        row: s.DecisionRowNode = ch[1]
        return s.OverrideDecl(
            ch[0], s.CellNode((), self._p(meta)), row.outcome.extras, self._p(meta), row=row
        )

    def insert_decl(self, meta: Meta, ch: list[Any]) -> s.InsertDecl:
        return s.InsertDecl(self._name(ch[0]), ch[1], self._name(ch[2]), ch[3], self._p(meta))

    def insert_where(self, meta: Meta, ch: list[Token]) -> str:
        return str(ch[0])

    def remove_decl(self, meta: Meta, ch: list[Any]) -> s.RemoveDecl:
        return s.RemoveDecl(ch[0], ch[1], self._p(meta))

    # -- worked examples (issue 27) ---------------------------------------------------------

    def example_decl(self, meta: Meta, ch: list[Any]) -> s.ExampleDecl:
        questions = tuple(c for c in ch if isinstance(c, s.QuestionNode))
        return s.ExampleDecl(self._item(meta, ch), questions)

    def example_line(self, meta: Meta, ch: list[Any]) -> s.QuestionNode:
        question: s.QuestionNode = ch[0]
        return replace(question, extras=ch[1])

    def example_question(self, meta: Meta, ch: list[Any]) -> s.QuestionNode:
        """A question and its answer; its position spans them (not the notes after)."""
        args = tuple(c for c in ch if isinstance(c, s.ArgNode))
        answer = next(c for c in ch if isinstance(c, tuple) and not isinstance(c, s.ArgNode))
        return s.QuestionNode(self._name(ch[0]), args, answer, NO_EXTRAS, self._p(meta))

    def positional_arg(self, meta: Meta, ch: list[Any]) -> s.ArgNode:
        values, grouped, *names = ch[0] if isinstance(ch[0], tuple) else ((ch[0],), False)
        return s.ArgNode(None, values, grouped, self._p(meta), *names)

    def keyword_arg(self, meta: Meta, ch: list[Any]) -> s.ArgNode:
        values, grouped, *names = ch[1] if isinstance(ch[1], tuple) else ((ch[1],), False)
        return s.ArgNode(self._name(ch[0]), values, grouped, self._p(meta), *names)

    def grouped_value(self, meta: Meta, ch: list[Any]) -> tuple[tuple[s.Located, ...], bool]:
        return tuple(self._located(meta, c) for c in ch), True

    def named_group(self, meta: Meta, ch: list[Any]) -> tuple[Any, ...]:  # state=(speed=5)
        return self.grouped_value(meta, ch[1::2])[0], True, tuple(map(self._name, ch[::2]))

    def example_answer(self, meta: Meta, ch: list[Any]) -> tuple[s.Located, ...]:
        return tuple(self._located(meta, c) for c in ch)

    def override_example(self, meta: Meta, ch: list[Any]) -> s.ExampleOverride:
        return s.ExampleOverride(ch[0], ch[1], ch[2], self._p(meta))

    def remove_example(self, meta: Meta, ch: list[Any]) -> s.ExampleRemove:
        return s.ExampleRemove(ch[0], ch[1], self._p(meta))

    # -- facing (issue 24) ------------------------------------------------------------------

    def facing_decl(self, meta: Meta, ch: list[Any]) -> s.FacingDecl:
        terms = tuple(c for c in ch if isinstance(c, s.FacingTerm))
        return s.FacingDecl(self._name(ch[0]), self._name(ch[1]), terms, ch[-1], self._p(meta))

    def facing_per(self, meta: Meta, ch: list[Any]) -> s.Located:
        if isinstance(ch[0], Token):
            return s.Located(s.Word(self._name(ch[0])), self._p(ch[0]))
        located: s.Located = ch[0]
        return located

    def facing_turn_mode(self, meta: Meta, ch: list[Any]) -> s.FacingTerm:
        places = s.Located(ir.Number(int(ch[0])), self._p(ch[0]))
        speed = ch[1][1] if len(ch) > 1 and ch[1][0] == "speed" else None
        kind = ch[1][1] if len(ch) > 1 and ch[1][0] == "kind" else None
        return s.FacingTerm(s.Name("turn mode", self._p(meta)), places, speed=speed, move=kind)

    def facing_move(self, meta: Meta, ch: list[Any]) -> s.FacingTerm:
        amount = next((c for c in ch[1:] if isinstance(c, s.Located)), None)
        speed = next((c[1] for c in ch[1:] if isinstance(c, tuple) and c[0] == "speed"), None)
        once = any(c == ("once",) for c in ch[1:])
        return s.FacingTerm(self._name(ch[0]), amount, speed=speed, once=once)

    def facing_speed(self, meta: Meta, ch: list[Any]) -> tuple[str, s.Located]:
        return "speed", s.Located(ch[0], self._p(meta))

    def facing_kind(self, meta: Meta, ch: list[Any]) -> tuple[str, s.Name]:
        return "kind", self._name(ch[0])

    def facing_once(self, meta: Meta, ch: list[Any]) -> tuple[str]:
        return ("once",)

    def facing_exact(self, meta: Meta, ch: list[Any]) -> s.FacingTerm:
        return s.FacingTerm(s.Name("exact speed", self._p(meta)))

    def facing_exact_until(self, meta: Meta, ch: list[Any]) -> s.FacingTerm:
        return s.FacingTerm(s.Name("exact speed or until spent", self._p(meta)))

    def remove_facing(self, meta: Meta, ch: list[Any]) -> s.FacingRemove:
        return s.FacingRemove(self._name(ch[0]), ch[1], self._p(meta))


__all__ = ["Parser", "Tree", "load_grammar", "parse_dice_token"]
