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
from collections.abc import Iterator
from functools import cache
from typing import Annotated, Any, Union, get_args, get_origin

from rulesdsl import ir
from rulesdsl.checks.reserved import is_reserved
from rulesdsl.diagnostics import Diagnostic, error
from rulesdsl.lowering.positions import Positions


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
        if not _matches(slot.pattern, slot.text) or (slot.declares and is_reserved(slot.text)):
            first = bad.get(slot.text)
            if first is None or (slot.declares and not first.declares):
                bad[slot.text] = slot
    return [_diagnostic(slot, where) for slot in bad.values()]


def _diagnostic(slot: Slot, where: Positions) -> Diagnostic:
    pos = (where.of_field(slot.owners[0], slot.field, *slot.owners[1:]) if slot.owners
           else where.fallback)
    if not _matches(slot.pattern, slot.text):
        shown = slot.text if len(slot.text) <= 40 else slot.text[:40] + "..."
        return error(slot.pattern.code, f"{shown!r} at {slot.path} is not {slot.pattern.what}",
                     pos, f"at most {slot.pattern.max_length} characters matching "
                     f"{slot.pattern.regex}")
    return error("E103", f"'{slot.text}' cannot name a {slot.what()}", pos,
                 "it is a Python keyword or builtin, a name the generated module uses, or "
                 "starts with _; pick another")


def _matches(pattern: ir.Pattern, text: str) -> bool:
    return len(text) <= pattern.max_length and _compiled(pattern.regex).fullmatch(text) is not None


@cache
def _compiled(regex: str) -> re.Pattern[str]:
    return re.compile(regex, re.ASCII)


def slots(value: object) -> Iterator[Slot]:
    """Every name, declaration and language code inside an IR value."""
    yield from _walk(type(value), value, "", ())


@cache
def _hints(cls: type) -> dict[str, Any]:
    return typing.get_type_hints(cls, vars(ir), include_extras=True)


def _walk(
    tp: Any, value: object, path: str, owners: tuple[object, ...], field: str = ""
) -> Iterator[Slot]:
    origin = get_origin(tp)
    if origin is Annotated:
        base, *meta = get_args(tp)
        pattern = next((m for m in meta if isinstance(m, ir.Pattern)), None)
        if pattern is not None and isinstance(value, str):
            declares = any(isinstance(m, ir.Declares) for m in meta)
            yield Slot(value, pattern, declares, path or "(root)", owners, field)
            return
        yield from _walk(base, value, path, owners, field)
    elif origin in (Union, types.UnionType):
        if value is not None:
            yield from _walk(type(value), value, path, owners)
    elif origin is tuple and isinstance(value, tuple):
        item = get_args(tp)[0]
        for i, x in enumerate(value):
            yield from _walk(item, x, f"{path}[{i}]", owners, field)
    elif origin is dict and isinstance(value, dict):
        key_tp, value_tp = get_args(tp)
        for k, v in value.items():
            yield from _walk(
                key_tp, k, f"{path}.{k}" if isinstance(k, str) else path, owners, field
            )
            yield from _walk(value_tp, v, f"{path}[{k!r}]", owners, field)
    elif dataclasses.is_dataclass(value) and not isinstance(value, type):
        inner = (value, *owners)
        for name, field_tp in _hints(type(value)).items():
            field_path = f"{path}.{name}" if path else name
            yield from _walk(field_tp, getattr(value, name), field_path, inner, name)
