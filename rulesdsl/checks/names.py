"""Names pass: every name in the IR is an identifier of bounded length, every language code is
a code, every version a semantic version, and no declared name is one the generated module
uses itself.

The IR's annotations say which string slots hold names (:data:`rulesdsl.ir.Id`), declarations
(:data:`rulesdsl.ir.NewId`) and language codes (:data:`rulesdsl.ir.Lang`), so this pass walks
any IR value generically: a new IR class is covered as soon as its fields are annotated.
"""

from __future__ import annotations

import dataclasses
import re
import types
import typing
from collections.abc import Callable, Iterator
from functools import cache
from typing import Annotated, Any, Union, cast, get_args, get_origin

from rulesdsl import ir
from rulesdsl.checks import walk
from rulesdsl.checks.reserved import is_reserved, why_reserved
from rulesdsl.diagnostics import Diagnostic, error
from rulesdsl.ir.records import dataclass
from rulesdsl.positions import Positions

Path = tuple[Any, ...]
"""A path in the IR as nested pairs, (the path before, the last part), so that a step down
costs a pair, not a copy of the whole path."""


@dataclass(frozen=True, slots=False)
class Slot:
    """A string found in a name slot, with the path that leads to it in the IR."""

    text: str
    pattern: ir.Pattern
    declares: bool
    parts: Path = ()
    """The path that leads to it: (the path before, the last part); ``()`` at the root."""
    owners: tuple[object, ...] = ()
    """The IR nodes that hold the string, innermost first (to find its position)."""
    field: str = ""
    """The field of the innermost owner that holds the string."""

    @property
    def path(self) -> str:
        """``steps[0].param``, ``features.soft``: where the slot is, for messages (spelled
        only when a message needs it: a ruleset has a slot for every name it uses)."""
        return _path_text(self.parts)

    def what(self) -> str:
        """What the slot names, in words: ``mode``, ``input of decision 'fire'``."""
        owner = self.owners[0] if self.owners else None
        holder = self.owners[1] if len(self.owners) > 1 else None
        if isinstance(owner, ir.Param) and isinstance(holder, ir.Decision | ir.Step):
            kind = "decision" if isinstance(holder, ir.Decision) else "step"
            return f"input of {kind} '{holder.id}'"
        words = re.sub(r"(?<!^)(?=[A-Z])", " ", type(owner).__name__).lower() if owner else "name"
        return words if self.field in ("id", "name", "") else f"{self.field} of a {words}"


def check(
    ruleset: ir.Ruleset, where: Positions, nodes: walk.Nodes | None = None
) -> list[Diagnostic]:
    """E103 for a declared name the module uses itself; the pattern's code (E106, E111) for a
    malformed name, language code or version. A bad name is reported once, where it is
    declared if it is (a mode's id, not each cell that refers to the mode)."""
    bad: dict[str, Slot] = {}
    good: set[tuple[str, int, bool]] = set()  # a name is used many times: judged once
    # (by the pattern's id: the patterns are the IR's constants, and a dataclass's hash is
    # Python code that ran for every name of the ruleset)

    def judge(found: Found) -> None:  # each slot judged as the walk finds it, none kept
        text, pattern, declares = found[0], found[1], found[2]
        if (text, id(pattern), declares) in good:
            return
        if not _matches(pattern, text) or (declares and is_reserved(text, ruleset)):
            first = bad.get(text)
            if first is None or (declares and not first.declares):
                bad[text] = Slot(*found)
        else:
            good.add((text, id(pattern), declares))

    _walk(ruleset, judge)
    return [_diagnostic(slot, where) for slot in bad.values()]


def _diagnostic(slot: Slot, where: Positions) -> Diagnostic:
    pos = (
        where.of_field(slot.owners[0], slot.field, *slot.owners[1:])
        if slot.owners
        else where.fallback
    )
    if not _matches(slot.pattern, slot.text):
        shown = slot.text if len(slot.text) <= 40 else slot.text[:40] + "..."
        return error(
            slot.pattern.code,
            f"{shown!r} at {slot.path} is not {slot.pattern.what}",
            pos,
            f"at most {slot.pattern.max_length} characters matching {slot.pattern.regex}",
        )
    what = slot.what()
    owner = slot.owners[0] if slot.owners else None
    if isinstance(owner, ir.Param):
        better = f"{slot.text.strip('_')}_{owner.unit}" if owner.unit.isidentifier() else ""
        hint = (
            f"rename the input (e.g. '{better}') in the inputs and in every row that reads it"
            if better and not is_reserved(better)
            else "rename the input in the inputs and in every row that reads it"
        )
    else:
        hint = f"rename the {what.split(' ')[0]}, and every place that names it"
    article = "an" if what[0] in "aeiou" else "a"
    return error(
        "E103",
        f"'{slot.text}' cannot name {article} {what}: {why_reserved(slot.text)}",
        pos,
        hint,
    )


def _matches(pattern: ir.Pattern, text: str) -> bool:
    return len(text) <= pattern.max_length and _compiled(pattern.regex).fullmatch(text) is not None


@cache
def _compiled(regex: str) -> re.Pattern[str]:
    return re.compile(regex, re.ASCII)


def slots(value: object) -> Iterator[Slot]:
    """Every name, declaration and language code inside an IR value."""
    found: list[Found] = []
    _walk(value, found.append)
    for each in found:
        yield Slot(*each)


Found = tuple[str, ir.Pattern, bool, "Path", tuple[object, ...], str]
"""A slot's fields as a plain tuple: the walk makes one per name in the ruleset, and the
check makes a :class:`Slot` only of the few that are wrong."""

Out = Callable[[Found], None]
"""What a walk gives each slot to as it finds it."""


def _walk(value: object, out: Out) -> None:
    """Each slot in ``value`` given to ``out`` as it is found (a ruleset has one per name it
    uses: a list of them all would hold a path and owners tuple for each)."""
    walker = _walker(cast(Any, type(value)))
    if walker is not None:
        walker(value, (), (), "", out)


Walker = Callable[[Any, Path, tuple[object, ...], str, Out], None]
"""Gives the slots in a value to a function: (value, path so far, enclosing nodes, field
name, the function). Plain calls, not nested generators: the walk visits every name of a
ruleset."""


@cache
def _hints(cls: type) -> dict[str, Any]:
    return typing.get_type_hints(cls, vars(ir), include_extras=True)


@cache
def _walker(tp: Any) -> Walker | None:
    """A walker for values annotated ``tp``, built once per annotation; None when such a
    value can hold no name (a float, a plain str), so the walk never descends into it."""
    origin = get_origin(tp)
    if origin is Annotated:
        base, *meta = get_args(tp)
        pattern = next((m for m in meta if isinstance(m, ir.Pattern)), None)
        if pattern is None:
            return _walker(base)
        declares = any(isinstance(m, ir.Declares) for m in meta)

        def leaf(value: Any, path: Path, owners: tuple[object, ...], field: str, out: Out) -> None:
            if isinstance(value, str):
                out((value, pattern, declares, path, owners, field))

        return leaf
    if origin in (Union, types.UnionType):

        def union(value: Any, path: Path, owners: tuple[object, ...], field: str, out: Out) -> None:
            walker = None if value is None else _walker(cast(Any, type(value)))
            if walker is not None:
                walker(value, path, owners, field, out)

        return union
    if origin is tuple:
        item = _walker(get_args(tp)[0])
        if item is None:
            return None

        def sequence(
            value: Any, path: Path, owners: tuple[object, ...], field: str, out: Out
        ) -> None:
            for i, x in enumerate(value):
                item(x, (path, i), owners, field, out)

        return sequence
    if origin is dict:
        keys, values = (_walker(a) for a in get_args(tp))
        if keys is None and values is None:
            return None

        def mapping(
            value: Any, path: Path, owners: tuple[object, ...], field: str, out: Out
        ) -> None:
            for k, v in value.items():
                if keys is not None:
                    keys(k, (path, k), owners, field, out)
                if values is not None:
                    values(v, (path, k), owners, field, out)

        return mapping
    if isinstance(tp, type) and dataclasses.is_dataclass(tp):

        def record(
            value: Any, path: Path, owners: tuple[object, ...], field: str, out: Out
        ) -> None:
            inner = (value, *owners)
            for name, walker in _fields(cast(Any, type(value))):
                walker(getattr(value, name), (path, name), inner, name, out)

        return record
    return None


@cache
def _fields(cls: type) -> tuple[tuple[str, Walker], ...]:
    """The fields of an IR class that can hold names, with their walkers (made on first use,
    so the recursive IR types, such as ``Same`` inside ``Value``, build no infinite plan)."""
    return tuple((name, w) for name, tp in _hints(cls).items() if (w := _walker(tp)) is not None)


def _path_text(path: Path) -> str:
    """``steps[0].param``, ``features.soft``: a path of nested pairs, for messages."""
    parts: list[object] = []
    while path:
        path, part = path
        parts.append(part)
    text = ""
    for part in reversed(parts):
        text += f"[{part}]" if isinstance(part, int) else (f".{part}" if text else str(part))
    return text or "(root)"
