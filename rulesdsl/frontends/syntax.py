"""The syntax tree: what a source file says, with the position of every name and value.

:mod:`rulesdsl.frontends.dsl` builds these nodes from Lark's tree (and
:mod:`rulesdsl.frontends.yaml_authoring` from a YAML file); :mod:`rulesdsl.variants.resolve`
merges a variant into its base at this level, and :mod:`rulesdsl.lowering.lower` turns the
result into the IR.
Values reuse the IR's value classes, except for the two that name something still to resolve
(``as NAME`` and a bare word, which may be a ``yes``/``no`` flag).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import field
from typing import TYPE_CHECKING, Literal, TypeVar

from rulesdsl import ir
from rulesdsl.diagnostics import Pos as Pos  # positions are part of the syntax tree
from rulesdsl.frontends.notation import Notation as Notation
from rulesdsl.frontends.syntax_items import Extras as Extras
from rulesdsl.frontends.syntax_items import Item as Item
from rulesdsl.frontends.syntax_items import Label as Label
from rulesdsl.frontends.syntax_items import Name as Name
from rulesdsl.frontends.syntax_items import SightFactorNode as SightFactorNode
from rulesdsl.frontends.syntax_items import SourceRef as SourceRef

if TYPE_CHECKING:
    from dataclasses import dataclass
else:  # the same decorator, its methods' bytecode kept between runs (issue 29)
    from rulesdsl.ir.records import dataclass

OMITTED_WHEN_NONE = "omitted_when_none"
"""Field metadata: a field added later, left out of a file's digest while None (resolve)."""


@dataclass(frozen=True)
class SameAs:
    """``as NAME`` before resolution."""

    target: Name


@dataclass(frozen=True)
class Word:
    """A bare word in a cell: a symbol, ``yes``/``no``, or a flag in a dice row."""

    name: Name


SynValue = ir.Value | SameAs | Word


@dataclass(frozen=True)
class Located:
    value: SynValue
    pos: Pos


@dataclass(frozen=True)
class Entry:
    """``value`` or ``key value`` inside a cell."""

    key: Name | None
    value: Located
    key2: Name | None = None
    """``a & b value``: the second key of a combination of two context values."""
    state: PlaceStateNode | None = None
    """``may not end`` / ``must stop`` after the value (maps, issue 11)."""
    along: bool = False
    """``along V``: the value replaces the cost of the place entered along an edge feature."""


@dataclass(frozen=True)
class PlaceStateNode:
    """``may not end`` or ``must stop`` after a cost entry, where it is written."""

    state: ir.PlaceState
    pos: Pos


@dataclass(frozen=True)
class CellNode:
    entries: tuple[Entry, ...]
    pos: Pos


@dataclass(frozen=True)
class RowNode:
    """``key labels | cell ... [precedence a, b] extras``; a numeric key keeps its number, unit."""

    item: Item
    cells: tuple[CellNode, ...]
    key_number: ir.Number | None = None
    precedence: tuple[Name, ...] | None = field(default=None, metadata={OMITTED_WHEN_NONE: True})


@dataclass(frozen=True)
class WhenNode:  # ``when a, b | cell``, or (issue 40) a state's band: ``when altitude above 6``
    members: tuple[Name, ...]
    cell: CellNode
    extras: Extras
    pos: Pos
    band: tuple[Name, str, Located] | None = field(default=None, metadata={OMITTED_WHEN_NONE: 1})


# ---- statements ---------------------------------------------------------------------------


# Each member of :data:`Statement` stands alone (blocks of named rows: layers, modifiers,
# tables, dice tables, contexts, decisions) or in one of three groups, marked by a base class,
# so that a reader for whom a group is not its business takes it with ``case s.Change():``.


class Header:
    """A group of :data:`Statement`: a header line (id, version, base, units...), no rule."""

    __slots__ = ()


class Change:
    """A group of :data:`Statement`: a house rule's override, insert or removal."""

    __slots__ = ()


class Plain:
    """A group of :data:`Statement`: a declaration whose body lists no named rows, values or
    outcomes (arcs too: its arcs are no declared names; a house rule declares them again)."""

    __slots__ = ()


@dataclass(frozen=True)
class RulesetDecl(Header):
    item: Item


@dataclass(frozen=True)
class VersionDecl(Header):
    version: str
    pos: Pos


@dataclass(frozen=True)
class EditionDecl(Header):
    """``edition 2026.12``: the edition of the language the file is written for (issue 39)."""

    edition: str
    pos: Pos


@dataclass(frozen=True)
class ExtendsDecl(Header):
    base: Name
    requirement: str
    pos: Pos


@dataclass(frozen=True)
class LanguagesDecl(Header):
    languages: tuple[Name, ...]
    pos: Pos


@dataclass(frozen=True)
class BookDecl(Plain):
    item: Item


@dataclass(frozen=True)
class UnitsDecl(Header):
    bindings: tuple[tuple[Name, Name], ...]
    pos: Pos


@dataclass(frozen=True)
class StackingDecl(Header):
    policy: Name
    entry: Located | None
    pos: Pos


@dataclass(frozen=True)
class MinimumDecl(Header):
    amount: Located
    extras: Extras
    pos: Pos


@dataclass(frozen=True)
class ModeDecl(Plain):
    item: Item
    keywords: tuple[Name, ...] = ()
    """``mode NAME labels : g1, g2``: the groups (keywords) the mode belongs to."""
    allowance: Located | None = field(default=None, metadata={OMITTED_WHEN_NONE: True})
    """``mode NAME labels allowance 6 in``: the unit type's own allowance (issue 40)."""


@dataclass(frozen=True)
class GroupDecl(Plain):
    item: Item
    members: tuple[Name, ...]


@dataclass(frozen=True)
class PrecedenceDecl(Plain):
    """``precedence a, b``: when groups a and b both give a value in a cell, a's wins."""

    groups: tuple[Name, ...]
    extras: Extras
    pos: Pos


@dataclass(frozen=True)
class ClampNode:
    """``clamp A to B``: the bounds of a modifier's total."""

    low: Located
    high: Located
    pos: Pos


@dataclass(frozen=True)
class ContextDecl:
    item: Item
    values: tuple[Item, ...]


@dataclass(frozen=True)
class ModifierDecl:
    item: Item
    context: Name | None
    rows: tuple[RowNode, ...]
    whens: tuple[WhenNode, ...]
    context2: Name | None = None
    """``by a, b``: the second context."""
    combine: Name | None = None
    """``combine sum|highest|lowest|once`` (None: sum)."""
    clamp: ClampNode | None = None
    bests: tuple[BestNode, ...] = ()
    """``best NAME "label" combine lowest : a, b`` lines (issue 25)."""
    sights: tuple[SightFactorNode, ...] | None = field(
        default=None, metadata={OMITTED_WHEN_NONE: True}
    )
    """``sight NAME "label" : rule`` lines (issue 40, item 7; None: none)."""


@dataclass(frozen=True)
class BestNode:
    """``best NAME labels combine highest|lowest : member, ...``: the best member counts."""

    item: Item
    combine: Name | None
    members: tuple[Name, ...]


@dataclass(frozen=True)
class LayerDecl:
    item: Item
    scope: ir.LayerScope
    columns: tuple[Name, ...] | None
    rows: tuple[RowNode, ...]
    precedence: tuple[Name, ...] | None = field(default=None, metadata={OMITTED_WHEN_NONE: True})


@dataclass(frozen=True)
class StepTermNode:
    term: ir.StepTermKind
    amount: Located | None
    quantity: Located
    full: bool
    strict: bool
    pos: Pos
    above: Located | None = None


@dataclass(frozen=True)
class ParamNode:
    name: Name
    unit: Name
    default: Located | None = field(default=None, metadata={OMITTED_WHEN_NONE: True})
    """A decision input's default (``level_flown m = 0``); out of the digest while None."""
    signed: Literal[True] | None = field(default=None, metadata={OMITTED_WHEN_NONE: True})
    """``bearing signed deg``: an input that may be below 0; out of the digest while None."""


@dataclass(frozen=True)
class StepDecl(Plain):
    item: Item
    param: ParamNode
    result: Name | None
    terms: tuple[StepTermNode, ...]


@dataclass(frozen=True)
class CellRefNode:
    """``table[key].row over full distance`` or ``table.column[key]``: a table cell picked by
    the decision input ``key`` (the column in the first form, the row in the second)."""

    table: Name
    key: Name
    row: Name | None
    over: Name | None
    full: bool
    pos: Pos
    column: Name | None = None


@dataclass(frozen=True)
class ArithNode:
    """Arithmetic in a decision's operand (issue 25): ``op`` is ``+ - * /`` with two
    ``args``, or ``call`` with ``function`` and its ``args``; ``rounding`` (``up``/``down``)
    as written after a product or a call. Leaves are plain operands (inputs, numbers, cells)."""

    op: str
    args: tuple[OperandNode, ...]
    pos: Pos
    function: Name | None = None
    rounding: Name | None = None


@dataclass(frozen=True)
class OperandNode:
    ref: Name | None
    scale_op: ir.ScaleOp | None
    scale: Located | None
    literal: Located | None
    pos: Pos
    cell: CellRefNode | None = None
    arith: ArithNode | None = field(default=None, metadata={OMITTED_WHEN_NONE: True})
    """An operand that computes; ``ref``, ``literal`` and ``cell`` are then None. Left out
    of the digest when None, so a file's digest is what it was before operands computed."""


@dataclass(frozen=True)
class ComparisonNode:
    left: OperandNode
    op: str
    right: OperandNode
    pos: Pos


@dataclass(frozen=True)
class DecisionRowNode:
    conditions: tuple[ComparisonNode, ...]
    outcome: Item
    pos: Pos
    answer: OperandNode | None = field(default=None, metadata={OMITTED_WHEN_NONE: True})
    """``-> capped "Held" = top``: the number the decision gives on this row (issue 40). Left
    out of the digest when None, so a file's digest is what it was before decisions gave
    numbers."""


@dataclass(frozen=True)
class DecisionDecl:
    item: Item
    params: tuple[ParamNode, ...]
    result: Name | None
    rows: tuple[DecisionRowNode, ...]


@dataclass(frozen=True)
class TableDecl:
    item: Item
    columns: tuple[Item, ...]
    rows: tuple[RowNode, ...]
    arcs: Name | None = field(default=None, metadata={OMITTED_WHEN_NONE: True})
    """``: arcs NAME``: the rows are those arcs' (issue 40); left out of the digest if None."""


@dataclass(frozen=True)
class DiceModifierNode:
    item: Item
    amount: Located
    shift: Name | None = None
    """``shift left 1``: the direction word; ``amount`` then holds the number of columns."""
    on_doubles: OnDoubles | None = field(default=None, metadata={OMITTED_WHEN_NONE: True})
    """``shift left 1 on doubles``: shifted when the dice show doubles; out of the digest."""


@dataclass(frozen=True)
class OnDoubles:
    """``on doubles`` after a column shift, where it is written."""

    pos: Pos


@dataclass(frozen=True)
class DiceRowNode:
    item: Item
    low: int | None
    high: int | None
    effects: CellNode | None


@dataclass(frozen=True)
class DiceDecl:
    item: Item
    dice: Located
    modifiers: tuple[DiceModifierNode, ...]
    rows: tuple[DiceRowNode, ...]
    results: ResultsNode | None = None
    """Set for a results table (``dice crt : 1d6 by odds { column ...; outcome ... }``)."""
    naturals: tuple[NaturalNode, ...] = ()
    """A plain dice table's natural rolls (a results table's are in ``results``)."""


# ---- results tables and line of sight (issue 11, items 9 and 10) ----------------------------


@dataclass(frozen=True)
class DiceColumnNode:
    """``column NAME labels up to V`` or ``... above V`` or ``... at V`` (``V`` may carry a
    unit, or be a ratio ``2:1``: then ``ratio`` holds its terms)."""

    item: Item
    bound: ir.ColumnBound
    value: Located
    ratio: tuple[int, int] | None = None


@dataclass(frozen=True)
class NaturalNode:
    """``natural N outcome``: the natural roll ``N`` gives ``outcome`` whatever the column
    (on a plain dice table, the row ``outcome``); ``at_least``: that outcome or a later one;
    ``by_column``: one outcome per column (``outcome`` is the first)."""

    roll: int
    outcome: Name
    extras: Extras
    pos: Pos
    at_least: bool = False
    by_column: tuple[Name, ...] = ()


@dataclass(frozen=True)
class ResultRowNode:
    """``low-high | outcome | outcome ...``: one outcome per column."""

    low: int | None
    high: int | None
    outcomes: tuple[Name, ...]
    extras: Extras
    pos: Pos


@dataclass(frozen=True)
class ResultsNode:
    """What makes a dice table a results table: the input that picks the column (``by``),
    the columns, the outcomes, the natural-roll rows and the rows."""

    by: Name | None
    columns: tuple[DiceColumnNode, ...]
    outcomes: tuple[Item, ...]
    naturals: tuple[NaturalNode, ...]
    rows: tuple[ResultRowNode, ...]
    rounding: Name | None = None
    effects: tuple[tuple[str, CellNode], ...] = ()
    """Outcomes that carry effects (``outcome dr "..." | retreat 1 hex``), by outcome name."""
    """``round down`` / ``round up`` after ``by``: how a value between `at` columns falls."""


@dataclass(frozen=True)
class SightDecl(Plain):
    """``sight NAME labels : blocks at N, counts between|target|both, crossed UNIT``."""

    item: Item
    blocks_at: Located | None
    counts: Name | None
    crossed: Name | None = None
    inside: Pos | None = None
    """Where ``target inside`` is written (None: it is not)."""
    above: Literal[True] | None = field(default=None, metadata={OMITTED_WHEN_NONE: True})
    """``blocks above N`` (only a total greater than N blocks) rather than ``blocks at N``
    (issue 40). None when not written, left out of the digest then."""
    band: tuple[Name, str, Located] | None = field(default=None, metadata={OMITTED_WHEN_NONE: 1})


@dataclass(frozen=True)
class ArcSpanNode:
    """``A to B`` in an arc's row: clockwise from bearing A to bearing B, in the arcs' unit."""

    start: float
    end: float
    pos: Pos


@dataclass(frozen=True)
class ArcNode:
    """``NAME labels | A to B, C to D extras``: one named arc and its spans."""

    item: Item
    spans: tuple[ArcSpanNode, ...]


@dataclass(frozen=True)
class ArcsDecl(Plain):
    """``arcs NAME labels [: deg|hexsides] { rows }`` (issue 40): named arcs of bearings
    relative to a unit's facing; ``unit`` None is degrees."""

    item: Item
    unit: Name | None
    arcs: tuple[ArcNode, ...]


@dataclass(frozen=True)
class FacingTerm:
    """One clause of a ``facing`` statement (issue 24). ``word``: ``turn`` (``amount`` per
    ``per``: ``hexside`` or an angle), ``turn mode`` (``amount``: places straight),
    ``backward``, ``sideslip``, ``pivot`` (``amount``: the extra cost) or ``exact speed``;
    ``speed``: ``at speed N or less``; ``once``: ``once per move``; ``move``: ``turn mode N at
    KIND``, the row for a unit making that kind of move."""

    word: Name
    amount: Located | None = None
    per: Located | None = None
    speed: Located | None = None
    once: bool = False
    move: Name | None = None
    arcs: Name | None = field(default=None, metadata={OMITTED_WHEN_NONE: True})
    sails: tuple[tuple[Name, Located | None], ...] | None = field(
        default=None, metadata={OMITTED_WHEN_NONE: True}
    )
    """``sail by ARCS (running +0 MP, in_irons impassable)`` (issue 40): ``arcs`` names the
    arcs, each pair an arc and what a step costs more with the wind in it (None: impassable)."""


@dataclass(frozen=True)
class FacingDecl(Plain):
    """``facing MODE on GRID : clause, clause ...``: a unit type's heading and turns; with no
    grid (``facing MODE : ...``, issue 40) a heading off the grid, in free movement."""

    mode: Name
    grid: Name | None
    terms: tuple[FacingTerm, ...]
    extras: Extras
    pos: Pos


@dataclass(frozen=True)
class FacingRemove(Change):
    """``remove facing MODE``: a house rule drops a unit type's facing rule."""

    mode: Name
    extras: Extras
    pos: Pos


@dataclass(frozen=True)
class TriggerDecl(Plain):
    item: Item
    check: Located | None
    at_least: int | None
    table: Name
    modifier: Name | None
    times: int
    more_modifiers: tuple[Name, ...] = ()
    """``with a, b, c``: the modifiers after the first."""


@dataclass(frozen=True)
class MoveDecl(Plain):
    """``move NAME labels : allowance times F | allowance +N unit, not FEATURE ...``: a kind of
    move (issue 24)."""

    item: Item
    factor: Located | None
    amount: Located | None
    barred: tuple[Name, ...]
    only: tuple[Name, ...] | None = field(default=None, metadata={OMITTED_WHEN_NONE: True})
    """``only infantry or beast`` (issue 40): who may make it; None, out of the digest: all."""


@dataclass(frozen=True)
class RollDecl(Plain):
    """``roll NAME labels : DICE|TABLE on WHEN [combine P] [when STATE below N]`` (issue 24)."""

    item: Item
    dice: Located | None
    table: Name | None
    when: tuple[Name, ...]
    combine: Name | None
    state: tuple[Name, str, Located] | None = field(default=None, metadata={OMITTED_WHEN_NONE: 1})


@dataclass(frozen=True)
class WholeMoveDecl(Plain):
    """``whole move NAME : crosses F``, ``at most N F`` (most), ``on F, allowance +N`` (bonus)."""

    item: Item
    features: tuple[Name, ...]
    most: Located | None
    bonus: Located | None = None


@dataclass(frozen=True)
class StateDecl(Plain):  # ``state NAME labels : LOW to HIGH, [MODE] SOURCE +N, ...``
    item: Item
    range: tuple[Located, Located]
    changes: tuple[tuple[Name | None, Name, Located], ...]
    own: tuple[tuple[Name, Located, Located], ...] | None = field(  # ``bomber 0 to 6``
        default=None, metadata={OMITTED_WHEN_NONE: 1}
    )
    ends: tuple[Name | None, ...] | None = field(  # ``dive +1 capped``: per change, its word
        default=None, metadata={OMITTED_WHEN_NONE: 1}
    )
    caps: tuple[Located | None, ...] | None = field(  # ``dive +1 capped at 5``: per change
        default=None, metadata={OMITTED_WHEN_NONE: 1}
    )


@dataclass(frozen=True)
class DriftDecl(Plain):  # ``drift NAME labels : N [when S below B], MODE N, ...`` (issue 40)
    item: Item
    entries: tuple[tuple[Name | None, Located, tuple[Name, str, Located] | None], ...]


@dataclass(frozen=True)
class ExcludeDecl(Plain):
    subject: Name
    others: tuple[Name, ...]
    extras: Extras
    pos: Pos


@dataclass(frozen=True)
class GridDecl(Plain):
    item: Item
    size: tuple[Located, ...]
    diagonals: tuple[int, ...]
    shape: Name | None = None
    """``hex`` or ``square`` when written (maps, issue 11); None: a square grid, as before."""


@dataclass(frozen=True)
class ParamDecl(Plain):
    item: Item
    unit: Name
    value: Located | None


@dataclass(frozen=True)
class OverrideDecl(Change):
    """``override PATH | cell``; ``override PATH range R`` (``range`` set, ``cell`` empty);
    ``override DECISION.ROW: conditions -> outcome`` (``row`` set, ``cell`` empty)."""

    path: tuple[Name, ...]
    cell: CellNode
    extras: Extras
    pos: Pos
    range: tuple[int | None, int | None] | None = None
    row: DecisionRowNode | None = None


@dataclass(frozen=True)
class InsertDecl(Change):
    """``insert DECISION before|after ROW: conditions -> outcome``."""

    decision: Name
    where: Literal["before", "after"]
    anchor: Name
    row: DecisionRowNode
    pos: Pos


@dataclass(frozen=True)
class RemoveDecl(Change):
    path: tuple[Name, ...]
    extras: Extras
    pos: Pos


@dataclass(frozen=True)
class ArgNode:
    """An example's argument: ``mech``, ``distance=2 in``, ``(clear, mud)``, ``state=(a=1)``."""

    keyword: Name | None
    values: tuple[Located, ...]
    grouped: bool
    pos: Pos
    names: tuple[Name, ...] | None = field(default=None, metadata={OMITTED_WHEN_NONE: True})


@dataclass(frozen=True)
class QuestionNode:
    """``move_cost(mech, light_woods) = 2 MP``: a question to the module and its answer."""

    ask: Name
    args: tuple[ArgNode, ...]
    answer: tuple[Located, ...]
    extras: Extras
    pos: Pos
    attribute: Name | None = field(default=None, metadata={OMITTED_WHEN_NONE: True})
    """``.state``: the field of the module's answer the example states, by name (issue 40)."""
    answer_names: tuple[Name, ...] | None = field(default=None, metadata={OMITTED_WHEN_NONE: True})


@dataclass(frozen=True)
class ExampleDecl(Plain):
    """``example NAME labels { question = answer ... }`` (issue 27). ``inherited``: the id of
    the base that wrote it, when a variant inherits it (empty for its own, and restated)."""

    item: Item
    questions: tuple[QuestionNode, ...]
    inherited: str = ""


@dataclass(frozen=True)
class ExampleOverride(Change):
    """``override example NAME[.N] | answer``: a variant restates an inherited example's
    answer (question N, counted from 1; the only one when N is left out)."""

    path: tuple[Name, ...]
    answer: tuple[Located, ...]
    extras: Extras
    pos: Pos
    answer_names: tuple[Name, ...] | None = field(default=None, metadata={OMITTED_WHEN_NONE: True})
    """``| (speed=3, altitude=2)``: a route's state after it, by name (issue 40)."""


@dataclass(frozen=True)
class ExampleRemove(Change):
    """``remove example NAME``: a variant drops an inherited example."""

    path: tuple[Name, ...]
    extras: Extras
    pos: Pos


Statement = (
    RulesetDecl  # Header
    | VersionDecl  # Header
    | EditionDecl  # Header
    | ExtendsDecl  # Header
    | LanguagesDecl  # Header
    | BookDecl  # Plain
    | UnitsDecl  # Header
    | StackingDecl  # Header
    | MinimumDecl  # Header
    | ModeDecl  # Plain
    | GroupDecl  # Plain
    | PrecedenceDecl  # Plain
    | ContextDecl
    | ModifierDecl
    | LayerDecl
    | StepDecl  # Plain
    | DecisionDecl
    | TableDecl
    | DiceDecl
    | TriggerDecl  # Plain
    | ExcludeDecl  # Plain
    | GridDecl  # Plain
    | ParamDecl  # Plain
    | OverrideDecl  # Change
    | RemoveDecl  # Change
    | InsertDecl  # Change
    | SightDecl  # Plain
    | ExampleDecl  # Plain
    | ExampleOverride  # Change
    | ExampleRemove  # Change
    | FacingDecl  # Plain
    | FacingRemove  # Change
    | MoveDecl  # Plain
    | RollDecl  # Plain
    | ArcsDecl  # Plain
    | WholeMoveDecl  # Plain
    | StateDecl  # Plain
    | DriftDecl  # Plain
)


Picked = TypeVar("Picked")


def of_kind(statements: Iterable[Statement], kind: type[Picked]) -> list[Picked]:
    """The statements of one kind, in order (a pick; a reader of every kind is a ``match``)."""
    return [st for st in statements if isinstance(st, kind)]


@dataclass(frozen=True)
class SourceFile:
    """A parsed file: its path, its text (for diagnostics and digests) and its statements."""

    path: str
    text: str
    statements: tuple[Statement, ...] = field(default=())
    lost: tuple[str, ...] = ()
    """Names declared (or a decision's `otherwise`) on lines dropped after a syntax error:
    a later error about one of them is a consequence, not reported again (issue 25)."""
