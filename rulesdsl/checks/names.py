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
from rulesdsl.checks.reserved import is_reserved
from rulesdsl.diagnostics import Diagnostic, error
from rulesdsl.positions import Positions


@dataclasses.dataclass(frozen=True)
class Slot:
    """A string found in a name slot, with the path that leads to it in the IR."""

    text: str
    pattern: ir.Pattern
    declares: bool
    path: str
    owners: tuple[object, ...] = ()
    """The IR nodes that hold the string, innermost first (to find its position)."""
    field: str = ""
    """The field of the innermost owner that holds the string."""

    def what(self) -> str:
        """What the slot names, in words: ``mode``, ``param of a step``."""
        owner = self.owners[0] if self.owners else None
        words = re.sub(r"(?<!^)(?=[A-Z])", " ", type(owner).__name__).lower() if owner else "name"
        return words if self.field in ("id", "name", "") else f"{self.field} of a {words}"


def check(ruleset: ir.Ruleset, where: Positions) -> list[Diagnostic]:
    """E103 for a declared name the module uses itself; the pattern's code (E106, E111) for a
    malformed name, language code or version. A bad name is reported once, where it is
    declared if it is (a mode's id, not each cell that refers to the mode)."""
    bad: dict[str, Slot] = {}
    for slot in slots(ruleset):
        if not _matches(slot.pattern, slot.text) or (
            slot.declares and is_reserved(slot.text, ruleset)
        ):
            first = bad.get(slot.text)
            if first is None or (slot.declares and not first.declares):
                bad[slot.text] = slot
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
    return error(
        "E103",
        f"'{slot.text}' cannot name a {slot.what()}",
        pos,
        "it is a Python keyword or builtin, a name the generated module uses, or "
        "starts with _; pick another",
    )


def _matches(pattern: ir.Pattern, text: str) -> bool:
    return len(text) <= pattern.max_length and _compiled(pattern.regex).fullmatch(text) is not None


@cache
def _compiled(regex: str) -> re.Pattern[str]:
    return re.compile(regex, re.ASCII)


def slots(value: object) -> Iterator[Slot]:
    """Every name, declaration and language code inside an IR value."""
    walker = _walker(cast(Any, type(value)))
    if walker is not None:
        yield from walker(value, (), (), "")


Walker = Callable[[Any, tuple[object, ...], tuple[object, ...], str], Iterator[Slot]]
"""Yields the slots in a value: (value, path so far, enclosing nodes, field name)."""


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

        def leaf(
            value: Any, path: tuple[object, ...], owners: tuple[object, ...], field: str
        ) -> Iterator[Slot]:
            if isinstance(value, str):
                yield Slot(value, pattern, declares, _path_text(path), owners, field)

        return leaf
    if origin in (Union, types.UnionType):

        def union(
            value: Any, path: tuple[object, ...], owners: tuple[object, ...], field: str
        ) -> Iterator[Slot]:
            walker = None if value is None else _walker(cast(Any, type(value)))
            if walker is not None:
                yield from walker(value, path, owners, field)

        return union
    if origin is tuple:
        item = _walker(get_args(tp)[0])
        if item is None:
            return None

        def sequence(
            value: Any, path: tuple[object, ...], owners: tuple[object, ...], field: str
        ) -> Iterator[Slot]:
            for i, x in enumerate(value):
                yield from item(x, (*path, i), owners, field)

        return sequence
    if origin is dict:
        keys, values = (_walker(a) for a in get_args(tp))
        if keys is None and values is None:
            return None

        def mapping(
            value: Any, path: tuple[object, ...], owners: tuple[object, ...], field: str
        ) -> Iterator[Slot]:
            for k, v in value.items():
                if keys is not None:
                    yield from keys(k, (*path, k), owners, field)
                if values is not None:
                    yield from values(v, (*path, k), owners, field)

        return mapping
    if isinstance(tp, type) and dataclasses.is_dataclass(tp):

        def record(
            value: Any, path: tuple[object, ...], owners: tuple[object, ...], field: str
        ) -> Iterator[Slot]:
            inner = (value, *owners)
            for name, walker in _fields(cast(Any, type(value))):
                yield from walker(getattr(value, name), (*path, name), inner, name)

        return record
    return None


@cache
def _fields(cls: type) -> tuple[tuple[str, Walker], ...]:
    """The fields of an IR class that can hold names, with their walkers (made on first use,
    so the recursive IR types, such as ``Same`` inside ``Value``, build no infinite plan)."""
    return tuple((name, w) for name, tp in _hints(cls).items() if (w := _walker(tp)) is not None)


def _path_text(path: tuple[object, ...]) -> str:
    """``steps[0].param``, ``features.soft``: where a slot is, for messages."""
    text = ""
    for part in path:
        text += f"[{part}]" if isinstance(part, int) else (f".{part}" if text else str(part))
    return text or "(root)"
