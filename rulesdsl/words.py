"""The language's words, declared once.

Every other place that spells a word of the language (the grammar's keywords, the language
server's completions, the TextMate grammar, the docs' tables) derives from this module or is
checked against it by a test (``tests/test_words.py``). Matching a word against a kind of the IR
happens here, with ``match`` ending in ``assert_never``, so a new kind makes mypy name this module.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from typing import Literal, TypeVar, assert_never, get_args

from rulesdsl import ir

K = TypeVar("K")
V = TypeVar("V")

# ---- tables keyed by a union's members -----------------------------------------------------


class NotTotal(TypeError):
    """A table keyed by a union's members lacks a member (or has a key that is none)."""


class Total(Mapping[K, V]):
    """A table with a value for every member of a closed union, checked when it is built (at
    import): a new member makes the module that builds the table fail to import, the way
    ``assert_never`` makes mypy name a ``match``. Built by :func:`total`."""

    def __init__(self, members: tuple[K, ...], values: Mapping[K, V]) -> None:
        missing = [m for m in members if m not in values]
        stray = [k for k in values if k not in members]
        if missing or stray:
            raise NotTotal(f"table lacks {missing!r}, has stray keys {stray!r}")
        self._values = dict(values)

    def __getitem__(self, key: K) -> V:
        return self._values[key]

    def __iter__(self) -> Iterator[K]:
        return iter(self._values)

    def __len__(self) -> int:
        return len(self._values)


def total(union: object, values: Mapping[K, V]) -> Total[K, V]:
    """``values`` as a :class:`Total` table over the members of ``union`` (a ``Literal`` alias
    or a union of classes); raises :class:`NotTotal` unless its keys are exactly those."""
    return Total(get_args(union), values)


# ---- statements and keywords ---------------------------------------------------------------

ItemKind = Literal[
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
    "move",
    "roll",
    "arcs",
    "whole",
    "state",
    "drift",
]
"""What a statement declares: the keyword that starts it (the language server's word for it)."""

DECLARATIONS: tuple[ItemKind, ...] = get_args(ItemKind)
"""The statements that declare a name (``layer terrain "Terrain" { ... }``)."""

HEADERS: tuple[str, ...] = (
    "version",
    "edition",
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
    "example",
    "facing",
)
"""The other statements: header lines, exclusions, and a house rule's changes."""

STATEMENTS: tuple[str, ...] = (*DECLARATIONS, *HEADERS)
"""Every word that starts a statement."""

KEYWORDS: tuple[str, ...] = (
    "above",
    "after",
    "all",
    "allowance",
    "along",
    "and",
    "as",
    "at",
    "backward",
    "before",
    "below",
    "best",
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
    "crosses",
    "diagonals",
    "doubles",
    "down",
    "edges",
    "end",
    "ends",
    "entry",
    "exact",
    "flat",
    "for",
    "free",
    "from",
    "full",
    "half",
    "hex",
    "ignores",
    "impassable",
    "inside",
    "least",
    "less",
    "map",
    "may",
    "most",
    "move",
    "must",
    "natural",
    "not",
    "note",
    "on",
    "once",
    "one",
    "only",
    "or",
    "others",
    "otherwise",
    "outcome",
    "over",
    "per",
    "pivot",
    "place",
    "prohibited",
    "range",
    "remark",
    "reverse",
    "roll",
    "round",
    "rounded",
    "sail",
    "share",
    "shift",
    "sideslip",
    "signed",
    "speed",
    "spent",
    "square",
    "stop",
    "straight",
    "tack",
    "target",
    "then",
    "times",
    "to",
    "turn",
    "until",
    "up",
    "wear",
    "when",
    "whole",
    "with",
)
"""The grammar's other words, inside statements (``one per place``, ``at least``, ``free up
to``...)."""

FLAG_WORDS: tuple[str, ...] = ("yes", "no")
"""Words a cell reads as yes/no (the grammar reads them as names)."""


def is_yes(text: object) -> bool:
    """A YAML flag, read as text, says yes: ``true``, ``yes`` or ``on`` (YAML 1.1's spellings;
    ``false`` is a non-empty string, not yes)."""
    return str(text).lower() in ("true", "yes", "on")


# ---- worked examples -----------------------------------------------------------------------


def asked(name: str) -> ir.Ask | None:
    """The module function a worked example's question names (None: another name, a step's or
    a decision's or none)."""
    return next((ask for ask in get_args(ir.Ask) if ask == name), None)


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
    "kind of move",
    "roll rule",
    "arcs",
    "whole-move rule",
    "state",
    "drift",
]
"""What a declared name names, as messages say it (``'soft' is a feature, not a mode``)."""

DECL_KINDS: tuple[DeclKind, ...] = get_args(DeclKind)


def own_namespace(kind: DeclKind) -> bool:
    """Whether names of that kind live apart from the items' one namespace (books do: a book
    may share its name with a feature)."""
    return kind == "book"


PartKind = Literal[
    "context value",
    "factor",
    "feature",
    "outcome",
    "row",
    "dice row",
    "dice modifier",
    "column",
    "item",
]
"""What a declaration inside a statement is, as the language server names it."""


def part_kind(kind: ItemKind) -> PartKind:
    """What the items a statement of that kind lists are (a layer's rows are features)."""
    match kind:
        case "context":
            return "context value"
        case "modifier":
            return "factor"
        case "layer":
            return "feature"
        case "decision":
            return "outcome"
        case "table" | "arcs":
            return "row"
        case "dice":
            return "dice row"
        case (
            "ruleset"
            | "book"
            | "mode"
            | "group"
            | "step"
            | "trigger"
            | "grid"
            | "param"
            | "sight"
            | "move"
            | "roll"
            | "whole"
            | "state"
            | "drift"
        ):
            return "item"
        case _:
            assert_never(kind)


def declaration_word(kind: DeclKind) -> ItemKind | None:
    """The keyword that declares a name of that kind (``dice`` for a dice table); None for a
    name declared inside a statement (a feature, a factor, a context value, a dice modifier)."""
    match kind:
        case "dice table":
            return "dice"
        case "ruleset":
            return "ruleset"
        case "book":
            return "book"
        case "mode":
            return "mode"
        case "group":
            return "group"
        case "context":
            return "context"
        case "layer":
            return "layer"
        case "modifier":
            return "modifier"
        case "step":
            return "step"
        case "decision":
            return "decision"
        case "table":
            return "table"
        case "trigger":
            return "trigger"
        case "sight":
            return "sight"
        case "grid":
            return "grid"
        case "param":
            return "param"
        case "kind of move":
            return "move"
        case "roll rule":
            return "roll"
        case "arcs":
            return "arcs"
        case "whole-move rule":
            return "whole"
        case "state":
            return "state"
        case "drift":
            return "drift"
        case "context value" | "feature" | "factor" | "dice modifier":
            return None
        case _:
            assert_never(kind)


def is_factor(kind: ItemKind | PartKind) -> bool:
    return kind == "factor"


def is_feature(kind: ItemKind | PartKind) -> bool:
    """Whether a declaration of that kind is a feature (a row of a layer)."""
    return kind == "feature"


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


def roll_on_edges(when: ir.RollWhen) -> bool:
    """Whether a roll due ``when`` belongs to an edge layer (on crossing) rather than to a
    layer of places (issue 24)."""
    match when:
        case "crossing":
            return True
        case "entering" | "ending" | "first_entering" | "any_step" | "first_step":
            return False
        case _:
            assert_never(when)


def scope_on_edges(scope: ir.LayerScope) -> bool:
    """Whether a layer of that scope stands on the edges between places."""
    match scope:
        case "edges":
            return True
        case "many" | "one" | "map":
            return False
        case _:
            assert_never(scope)


def scope_whole_map(scope: ir.LayerScope) -> bool:
    """Whether a layer of that scope holds whole-map conditions (weather), which feed every
    roll, on crossing an edge as on entering a place (issue 40)."""
    match scope:
        case "map":
            return True
        case "many" | "one" | "edges":
            return False
        case _:
            assert_never(scope)


def scope_from_words(text: str) -> ir.LayerScope:
    """The scope a layer's written scope words give (a CSV chart's ``--scope``); anything else,
    the default, is many per place."""
    return next(
        (scope for scope in get_args(ir.LayerScope) if scope_words(scope) == text),
        "many",
    )


def scope_described(scope: ir.LayerScope) -> str:
    """How the diff describes a layer's scope (``layer terrain: one per place -> whole map``)."""
    match scope:
        case "many":
            return "several per place"
        case "one":
            return "one per place"
        case "map":
            return "whole map"
        case "edges":
            return "on the edges between places"
        case _:
            assert_never(scope)


GRID_SHAPES: tuple[ir.GridShape, ...] = get_args(ir.GridShape)
"""The shapes a grid may have (``grid NAME : 1 hex, hex``)."""


# ---- line of sight ------------------------------------------------------------------------

SIGHT_COUNTS: tuple[ir.SightCounts, ...] = get_args(ir.SightCounts)
"""Which places of a line a sight rule counts (``counts between``)."""
ROUNDINGS: tuple[ir.Rounding, ...] = get_args(ir.Rounding)
"""How a value between two `at` columns of a results table falls (issue 25)."""


def column_key(bound: ir.ColumnBound) -> str | None:
    """The YAML key of a results column's bound (``at`` is ``point``: a two-letter key would
    read as a language); a category has none."""
    match bound:
        case "up_to":
            return "upto"
        case "above":
            return "above"
        case "at":
            return "point"
        case "category":
            return None
        case _:
            assert_never(bound)


def is_category(bound: ir.ColumnBound) -> bool:
    """Whether a results column is a category the caller names (issue 40), not a bound."""
    match bound:
        case "category":
            return True
        case "up_to" | "above" | "at":
            return False
        case _:
            assert_never(bound)


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
        case ir.Number() | ir.Same() | ir.PerDistance() | ir.OnceCost() | ir.NonCost():
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
