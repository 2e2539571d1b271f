"""A variant's changes to its base: one path class per kind of addressable item, and the
changelog line that holds one.

Part of :mod:`rulesdsl.ir`, which re-exports every name; read them from there.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Literal

from rulesdsl.ir.values import Cell, Id, Info, Labels, StepField, StepTermKind

if TYPE_CHECKING:
    from dataclasses import dataclass
else:  # the same decorator, its methods' bytecode kept between runs (issue 29)
    from rulesdsl.ir.records import dataclass

# ---- a variant's changes: one path class per kind of addressable item ----------------------


@dataclass(frozen=True)
class NamePath:
    """A declared name added or removed whole (mode, feature, factor, table ...): ``ice``."""

    name: str
    kind: Literal["name"] = "name"


PolicyPart = Literal["combine", "clamp", "best", "sight", "bands"]
"""The part of a modifier policy a path names."""


@dataclass(frozen=True)
class PolicyPath:
    """A modifier's ``combine`` policy or ``clamp``: ``cover.combine``, ``shooting.clamp``; its
    best groups or its values in bands of a state (``to_hit.bands``, issue 40)."""

    modifier: Id
    part: PolicyPart
    kind: Literal["policy"] = "policy"


HeaderLine = Literal["languages", "units", "stacking", "minimum_move"]
"""A header line that a variant can replace."""


@dataclass(frozen=True)
class HeaderPath:
    """A header line of the variant replacing the base's: ``units``."""

    line: HeaderLine
    kind: Literal["header"] = "header"


@dataclass(frozen=True)
class CostPath:
    """A feature's movement cost cell (``mode`` None: the whole cell): ``soft.walker``."""

    feature: str
    mode: str | None = None
    kind: Literal["cost"] = "cost"


@dataclass(frozen=True)
class ColumnPath:
    """A modifier column of a feature, whole or one context value: ``woods.to_hit.energy``."""

    feature: str
    column: str
    value: str | None = None
    kind: Literal["column"] = "column"


@dataclass(frozen=True)
class FactorPath:
    """A modifier factor's cell, whole or one context value: ``full.energy``."""

    factor: str
    value: str | None = None
    kind: Literal["factor"] = "factor"


@dataclass(frozen=True)
class CombinationPath:
    """A ``when`` combination of a modifier: ``to_hit.when.woods+fog``."""

    modifier: str
    members: tuple[str, ...]
    kind: Literal["combination"] = "combination"


@dataclass(frozen=True)
class TableCellPath:
    """A cell of a plain table (``column`` None when the table names no columns)."""

    table: str
    column: str | None
    row: str
    kind: Literal["table_cell"] = "table_cell"


@dataclass(frozen=True)
class TableRowPath:
    """A row of a plain table, by name or number: ``armor_speed.6``."""

    table: str
    row: str
    kind: Literal["table_row"] = "table_row"


@dataclass(frozen=True)
class TableColumnPath:
    table: str
    column: str
    kind: Literal["table_column"] = "table_column"


@dataclass(frozen=True)
class DiceRowPath:
    """A dice row (added, removed) or its effects (overridden): ``effects.fire``."""

    table: str
    row: str
    kind: Literal["dice_row"] = "dice_row"


@dataclass(frozen=True)
class DiceRangePath:
    """The range of totals of a dice row: ``effects.fire.range``."""

    table: str
    row: str
    kind: Literal["dice_range"] = "dice_range"


@dataclass(frozen=True)
class DiceModifierPath:
    """The amount of a dice table's modifier (``override effects.landing | +3``)."""

    table: str
    modifier: str
    kind: Literal["dice_modifier"] = "dice_modifier"


@dataclass(frozen=True)
class StepPath:
    """One parameter of a step's term: ``climb.rate.per``."""

    step: str
    term: StepTermKind
    field: StepField
    kind: Literal["step"] = "step"


@dataclass(frozen=True)
class DecisionRowPath:
    """A decision row, named by its outcome: ``lock.auto``."""

    decision: str
    row: str
    kind: Literal["decision_row"] = "decision_row"


TriggerField = Literal["table", "modifier", "times", "at_least"]
"""A part of a trigger that a variant can override."""


@dataclass(frozen=True)
class TriggerPath:
    """What a trigger rolls on, with which dice modifier, how many times: ``bog.modifier``."""

    trigger: str
    field: TriggerField
    kind: Literal["trigger"] = "trigger"


MoveField = Literal["factor", "amount", "only"]
"""The parts of a kind of move a variant may override (issue 24; ``only``: issue 40)."""


@dataclass(frozen=True)
class MovePath:
    """A kind of move's allowance: ``run.factor``, ``charge.amount``."""

    move: str
    field: MoveField
    kind: Literal["move"] = "move"


SightField = Literal["blocks_at", "blocks_above", "band"]
"""How a house rule restates a sight rule's threshold: ``los.blocks_at``, ``los.blocks_above``
(issue 40); either replaces the threshold and how it is compared."""


@dataclass(frozen=True)
class SightPath:
    """A sight rule's threshold: ``los.blocks_at | 3``, ``los.blocks_above | 2``; its band of
    a state, ``clouds.altitude | below 6`` (field ``band``, issue 40)."""

    sight: str
    field: SightField
    kind: Literal["sight"] = "sight"


@dataclass(frozen=True)
class AllowancePath:
    """A unit type's own allowance: ``tank.allowance | 5 in`` (issue 40)."""

    mode: str
    kind: Literal["allowance"] = "allowance"


@dataclass(frozen=True)
class ParamPath:
    param: str
    kind: Literal["param"] = "param"


@dataclass(frozen=True)
class LabelPath:
    """An item's label in one language: ``soft.label.fr`` (``item`` is the item's path)."""

    item: str
    lang: str
    kind: Literal["label"] = "label"


@dataclass(frozen=True)
class NotePath:
    """An item's note (``index`` from 1) in one language: ``soft.note.fr``."""

    item: str
    lang: str
    index: int = 1
    kind: Literal["note"] = "note"


@dataclass(frozen=True)
class ExamplePath:
    """A worked example restated, added or removed: ``soft_walk`` (``question`` 0: the whole
    example), ``soft_walk.2`` (its second question's answer)."""

    example: Id
    question: int = 0
    kind: Literal["example"] = "example"


ChangePath = (
    NamePath
    | HeaderPath
    | CostPath
    | ColumnPath
    | FactorPath
    | CombinationPath
    | TableCellPath
    | TableRowPath
    | TableColumnPath
    | DiceRowPath
    | DiceRangePath
    | DiceModifierPath
    | StepPath
    | DecisionRowPath
    | TriggerPath
    | MovePath
    | SightPath
    | AllowancePath
    | ParamPath
    | LabelPath
    | NotePath
    | PolicyPath
    | ExamplePath
)


ChangeAction = Literal["override", "add", "remove"]
"""What a variant does to an item of its base."""


@dataclass(frozen=True)
class Change:
    """A changelog line of a variant: what it overrides, adds or removes from its base.

    ``subject``: the labels of what the path names, outermost first (a feature, then a mode),
    kept here because a removed item is no longer in the ruleset; ``was`` and ``now``: the
    value before and after (None where there is none: an added or removed item).
    """

    action: ChangeAction
    path: ChangePath
    info: Info
    subject: tuple[Labels, ...] = ()
    was: Cell | None = None
    now: Cell | None = None
