"""The language's words, declared once.

Every other place that spells a word of the language (the grammar's keywords, the language
server's completions, the TextMate grammar, the docs' tables) derives from this module or is
checked against it by a test (``tests/test_words.py``). Matching a word against a kind of the IR
happens here, with ``match`` ending in ``assert_never``, so a new kind makes mypy name this module.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Literal, assert_never, get_args

from rulesdsl import ir

# ---- statements and keywords ---------------------------------------------------------------

DECLARATIONS: tuple[str, ...] = (
    "ruleset",
    "book",
    "mode",
    "group",
    "context",
    "layer",
    "modifier",
    "step",
    "decision",
    "table",
    "dice",
    "trigger",
    "sight",
    "grid",
    "param",
)
"""The statements that declare a name (``layer terrain "Terrain" { ... }``)."""

HEADERS: tuple[str, ...] = (
    "version",
    "extends",
    "languages",
    "units",
    "stacking",
    "minimum",
    "precedence",
    "exclude",
    "override",
    "insert",
    "remove",
)
"""The other statements: header lines, exclusions, and a house rule's changes."""

STATEMENTS: tuple[str, ...] = DECLARATIONS + HEADERS
"""Every word that starts a statement."""

KEYWORDS: tuple[str, ...] = (
    "above",
    "after",
    "all",
    "along",
    "and",
    "as",
    "at",
    "before",
    "blocked",
    "blocks",
    "but",
    "by",
    "clamp",
    "column",
    "columns",
    "combine",
    "counts",
    "crossed",
    "diagonals",
    "edges",
    "end",
    "entry",
    "flat",
    "for",
    "free",
    "from",
    "full",
    "hex",
    "ignores",
    "impassable",
    "least",
    "map",
    "may",
    "move",
    "must",
    "natural",
    "not",
    "note",
    "one",
    "others",
    "otherwise",
    "outcome",
    "over",
    "per",
    "place",
    "prohibited",
    "range",
    "roll",
    "share",
    "square",
    "stop",
    "then",
    "times",
    "to",
    "up",
    "when",
    "whole",
    "with",
)
"""The grammar's other words, inside statements (``one per place``, ``at least``, ``free up
to``...)."""

FLAG_WORDS: tuple[str, ...] = ("yes", "no")
"""Words a cell reads as yes/no (the grammar reads them as names)."""


# ---- a variant's changes -------------------------------------------------------------------


def touches_base(action: ir.ChangeAction) -> bool:
    """Whether a variant's change is about something its base has (not an addition)."""
    match action:
        case "override" | "remove":
            return True
        case "add":
            return False
        case _:
            assert_never(action)


def removes(action: ir.ChangeAction) -> bool:
    """Whether a variant's change removes an item of its base."""
    match action:
        case "remove":
            return True
        case "override" | "add":
            return False
        case _:
            assert_never(action)


# ---- declarations ---------------------------------------------------------------------------

DeclKind = Literal[
    "ruleset",
    "book",
    "mode",
    "group",
    "context",
    "context value",
    "layer",
    "feature",
    "modifier",
    "factor",
    "step",
    "decision",
    "table",
    "dice table",
    "dice modifier",
    "trigger",
    "sight",
    "grid",
    "param",
]
"""What a declared name names, as messages say it (``'soft' is a feature, not a mode``)."""

DECL_KINDS: tuple[DeclKind, ...] = get_args(DeclKind)


def own_namespace(kind: DeclKind) -> bool:
    """Whether names of that kind live apart from the items' one namespace (books do: a book
    may share its name with a feature)."""
    return kind == "book"


# ---- decisions ----------------------------------------------------------------------------

COMPARE_OPS: tuple[ir.CompareOp, ...] = get_args(ir.CompareOp)
"""The comparisons a decision row may write."""


# ---- maps -----------------------------------------------------------------------------------


def scope_words(scope: ir.LayerScope) -> str | None:
    """How a layer's scope is written after its labels (None: the default, many per place)."""
    match scope:
        case "one":
            return "one per place"
        case "map":
            return "whole map"
        case "edges":
            return "edges"
        case "many":
            return None
        case _:
            assert_never(scope)


GRID_SHAPES: tuple[ir.GridShape, ...] = get_args(ir.GridShape)
"""The shapes a grid may have (``grid NAME : 1 hex, hex``)."""


# ---- line of sight ------------------------------------------------------------------------

SIGHT_COUNTS: tuple[ir.SightCounts, ...] = get_args(ir.SightCounts)
"""Which places of a line a sight rule counts (``counts between``)."""


# ---- step terms ---------------------------------------------------------------------------

STEP_TERMS: tuple[ir.StepTermKind, ...] = get_args(ir.StepTermKind)
"""The terms of a step function, in the order a step's parameters are listed."""


def step_fields(kind: ir.StepTermKind) -> tuple[ir.StepField, ...]:
    """The parameters of a term that a variant can override: ``climb.<term>.<field>``."""
    match kind:
        case "rate":
            return ("amount", "per")
        case "floor":
            return ("amount", "at")
        case "impassable" | "free":
            return ("at",)
        case _:
            assert_never(kind)


def term_kind(term: ir.StepTerm) -> ir.StepTermKind:
    """The word a variant's path uses for ``term``."""
    match term:
        case ir.RateTerm():
            return "rate"
        case ir.FloorTerm():
            return "floor"
        case ir.ImpassableTerm():
            return "impassable"
        case ir.FreeTerm():
            return "free"
        case _:
            assert_never(term)


def find_term(terms: Iterable[ir.StepTerm], kind: ir.StepTermKind) -> ir.StepTerm | None:
    """The first term of that kind."""
    return next((t for t in terms if term_kind(t) == kind), None)


def term_number(term: ir.StepTerm, field: ir.StepField) -> float | None:
    """The number a step path ``<term>.<field>`` names (None: the term has no such field)."""
    match term:
        case ir.RateTerm():
            return _pick(field, amount=term.amount, per=term.every)
        case ir.FloorTerm():
            return _pick(field, amount=term.amount, at=term.at)
        case ir.ImpassableTerm() | ir.FreeTerm():
            return _pick(field, at=term.at)
        case _:
            assert_never(term)


def _pick(
    field: ir.StepField,
    amount: float | None = None,
    per: float | None = None,
    at: float | None = None,
) -> float | None:
    match field:
        case "amount":
            return amount
        case "per":
            return per
        case "at":
            return at
        case _:
            assert_never(field)


# ---- kinds of value -----------------------------------------------------------------------

ValueKind = Literal[
    "number",
    "rate",
    "param_rate",
    "trade",
    "span",
    "impassable",
    "prohibited",
    "blocked",
    "symbol",
    "flag",
    "dice",
    "d66",
    "given",
    "text",
    "same",
    "flat",
    "share",
    "step_cost",
]
"""What a cell may hold, as lowering lists what a slot admits (each marker is a kind of its
own: a cost admits ``impassable`` but not ``blocked``)."""

ONCE_KINDS: tuple[ValueKind, ...] = ("flat", "share", "step_cost")
"""Cost values paid once per move rather than per distance (issue 11)."""


def value_kind(value: ir.Value) -> ValueKind:
    """The kind of ``value`` (a marker's own word for a marker)."""
    match value:
        case ir.Marker(marker=marker):
            return marker
        case (
            ir.Number()
            | ir.Rate()
            | ir.ParamRate()
            | ir.Trade()
            | ir.Span()
            | ir.Symbol()
            | ir.Flag()
            | ir.DiceValue()
            | ir.D66Value()
            | ir.Given()
            | ir.Text()
            | ir.Same()
            | ir.Flat()
            | ir.Share()
            | ir.StepCost()
        ):
            return value.kind
        case _:
            assert_never(value)


def kind_words(kind: ValueKind) -> str:
    """How diagnostics name a kind of value."""
    match kind:
        case "number":
            return "a number"
        case "rate":
            return "a rate (`1 per 2 in`)"
        case "param_rate":
            return "a rate per parameter"
        case "impassable" | "prohibited" | "blocked":
            return f"`{kind}`"
        case "same":
            return "`as <feature>`"
        case "symbol":
            return "a word"
        case "flag":
            return "yes/no"
        case "dice":
            return "dice (`1d6+3`)"
        case "d66":
            return "dice (`d66`)"
        case "given":
            return "`given` (a value supplied when asked)"
        case "text":
            return "a quoted text"
        case "span":
            return "a range (`2-3 in`)"
        case "trade":
            return "a trade (`+90 deg for -1.5 m`)"
        case "flat":
            return "a flat cost (`flat 2 in`)"
        case "share":
            return "a share of the allowance (`share 1/2`)"
        case "step_cost":
            return "a step's answer (`step climb`)"
        case _:
            assert_never(kind)
