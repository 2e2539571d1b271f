"""Names pass: every name in the IR is an identifier of bounded length, every language code is
a code, every version a semantic version, and no declared name is one the generated module
uses itself.

The IR's annotations say which string slots hold names (:data:`rulesdsl.ir.Id`), declarations
(:data:`rulesdsl.ir.NewId`) and language codes (:data:`rulesdsl.ir.Lang`), so this pass walks
any IR value generically: a new IR class is covered as soon as its fields are annotated. The
walk of each class is a function written once from its annotations, a name's test written out
in it (issue 44: a call per name was most of the pass); a name judged good once is not given to
the judge again.
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
from rulesdsl.checks.reserved import is_reserved, reserved_for, why_reserved
from rulesdsl.diagnostics import Diagnostic, error
from rulesdsl.ir.records import dataclass, exec_kept
from rulesdsl.positions import Positions

Path = tuple[Any, ...]
"""A path in the IR as nested pairs, (the path before, the last part), so that a step down
costs a pair, not a copy of the whole path."""

Owners = tuple[Any, ...]
"""The IR nodes that hold a value as nested pairs, (the innermost node, the nodes that hold
it), ``()`` at the root: a node costs the walk a pair, not a copy of all that hold it."""


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
    reserved = reserved_for(ruleset)  # is_reserved's set, read once, not per declared name

    def judge(found: Found) -> None:  # each slot judged as the walk finds it, none kept
        text, pattern, declares = found[0], found[1], found[2]
        if not _matches(pattern, text) or (
            declares and (text in reserved or text.startswith("_"))  # is_reserved
        ):
            first = bad.get(text)
            if first is None or (declares and not first.declares):
                bad[text] = _made(found)
        else:
            good.add((text, id(pattern), declares))

    _walk(ruleset, judge, good)
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
    _walk(value, found.append, set())
    for each in found:
        yield _made(each)


Found = tuple[str, ir.Pattern, bool, Path, Owners, str]
"""A slot's fields as a plain tuple: the walk makes one per name in the ruleset, and the
check makes a :class:`Slot` only of the few that are wrong."""


def _made(found: Found) -> Slot:
    """The :class:`Slot` of a slot the walk found, its owners as a flat tuple."""
    text, pattern, declares, path, pairs, field = found
    owners: list[object] = []
    while pairs:
        node, pairs = pairs
        owners.append(node)
    return Slot(text, pattern, declares, path, tuple(owners), field)


Out = Callable[[Found], None]
"""What a walk gives each slot to as it finds it."""


def _walk(value: object, out: Out, known: Known) -> None:
    """Each slot in ``value`` given to ``out`` as it is found (a ruleset has one per name it
    uses: a list of them all would hold a path and owners tuple for each), but for the strings
    ``known`` holds already as (text, the pattern's id, declares): judged before, not given."""
    walker = _walker(cast(Any, type(value)))
    if walker is not None:
        walker(value, (), (), "", out, known)


Known = set[tuple[str, int, bool]]
"""The slots judged good, by (text, the pattern's id, declares): a name is used many times,
and the walk gives only the first of each to be judged (a call and a path less for the
rest)."""

Walker = Callable[[Any, Path, Owners, str, Out, Known], None]
"""Gives the slots in a value to a function: (value, path so far, enclosing nodes as
:data:`Owners`, field name, the function, the slots known good). Plain calls, not nested
generators: the walk visits every name of a ruleset."""


@cache
def _hints(cls: type) -> dict[str, Any]:
    return typing.get_type_hints(cls, vars(ir), include_extras=True)


def _slot(tp: Any) -> tuple[ir.Pattern, bool] | None:
    """The pattern of a name slot annotated ``tp``, and whether it declares the name."""
    if get_origin(tp) is not Annotated:
        return None
    meta = get_args(tp)[1:]
    pattern = next((m for m in meta if isinstance(m, ir.Pattern)), None)
    if pattern is None:
        return None
    return pattern, any(isinstance(m, ir.Declares) for m in meta)


@cache
def _walker(tp: Any) -> Walker | None:
    """A walker for values annotated ``tp``, built once per annotation; None when such a
    value can hold no name (a float, a plain str), so the walk never descends into it."""
    origin = get_origin(tp)
    if origin is Annotated:
        slot = _slot(tp)
        if slot is None:
            return _walker(get_args(tp)[0])
        pattern, declares = slot
        key = id(pattern)

        def leaf(
            value: Any, path: Path, owners: Owners, field: str, out: Out, known: Known
        ) -> None:
            if isinstance(value, str) and (value, key, declares) not in known:
                out((value, pattern, declares, path, owners, field))

        return leaf
    if origin in (Union, types.UnionType):
        if all(_walker(arg) is None for arg in get_args(tp)):
            return None  # `str | None`, `float | None`: no node and no name in it
        name = next((_walker(arg) for arg in get_args(tp) if _slot(arg) is not None), None)

        def union(
            value: Any, path: Path, owners: Owners, field: str, out: Out, known: Known
        ) -> None:
            if name is not None and isinstance(value, str):  # `Id | None`: the name
                name(value, path, owners, field, out, known)
                return
            walker = _RECORDS[type(value)]  # a str, a tuple, None: no walker of its own
            if walker is not None:
                walker(value, path, owners, field, out, known)

        return union
    if origin is tuple:
        if _walker(get_args(tp)[0]) is None:
            return None
        return _written("for i, item in enumerate(value):", [(get_args(tp)[0], "item", "i")])
    if origin is dict:
        keys, values = get_args(tp)
        if _walker(keys) is None and _walker(values) is None:
            return None
        return _written("for k, v in value.items():", [(keys, "k", "k"), (values, "v", "k")])
    if isinstance(tp, type) and dataclasses.is_dataclass(tp):

        def record(
            value: Any, path: Path, owners: Owners, field: str, out: Out, known: Known
        ) -> None:
            walker = _RECORDS[type(value)]
            if walker is not None:
                walker(value, path, owners, field, out, known)

        return record
    return None


def _record(cls: type) -> Walker | None:
    """The walker of a node of class ``cls``: its fields that can hold names read in order
    (:func:`_read`); None when ``cls`` is no IR class or none of its fields can hold a name.
    Written once per class, on first use."""
    if not dataclasses.is_dataclass(cls):
        return None
    namespace: dict[str, Any] = {"_RECORDS": _RECORDS}
    lines = ["def walk(node, path, outer, field, out, known):", "    owners = (node, outer)"]
    for name, tp in _hints(cls).items():
        if _walker(tp) is not None:
            lines.append(f"    value = node.{name}")
            lines += _read(tp, "value", f"(path, {name!r})", repr(name), namespace, "    ")
    if len(lines) == 2:
        return None  # no field can hold a name (a number, a marker): the walk passes it by
    return _run(lines, namespace)


def _written(loop: str, parts: list[tuple[Any, str, str]]) -> Walker:
    """The walker of a tuple or a dict: ``loop`` over its items, each part (annotation, the
    loop's variable, the variable its path steps by) read by :func:`_read`."""
    namespace: dict[str, Any] = {"_RECORDS": _RECORDS}
    lines = ["def walk(value, path, owners, field, out, known):", f"    {loop}"]
    for tp, value, step in parts:
        lines += _read(tp, value, f"(path, {step})", "field", namespace, "        ")
    return _run(lines, namespace)


def _read(
    tp: Any, value: str, path: str, field: str, namespace: dict[str, Any], indent: str
) -> list[str]:
    """The lines that give the slots in ``value`` (a variable) annotated ``tp``: a name slot's
    test written out, a node's walker found by its class, anything else by its annotation's
    walker (a call per name, and one more per node, was most of the walk's time)."""
    n = len(namespace)
    slot = _slot(tp)
    if slot is not None:
        namespace[f"pattern{n}"], declares = slot
        namespace[f"key{n}"] = id(slot[0])
        lines = [
            f"if isinstance({value}, str) and ({value}, key{n}, {declares}) not in known:",
            f"    out(({value}, pattern{n}, {declares}, {path}, owners, {field}))",
        ]
    elif _one_node(tp):
        lines = [
            f"walker = _RECORDS[type({value})]",
            "if walker is not None:",
            f"    walker({value}, {path}, owners, {field}, out, known)",
        ]
    elif (walker := _walker(tp)) is not None:
        namespace[f"walker{n}"] = walker
        lines = [f"walker{n}({value}, {path}, owners, {field}, out, known)"]
        if _plain(tp):  # an empty tuple or dict holds no name: no call
            lines = [f"if {value}:", "    " + lines[0]]
    else:
        lines = []
    return [indent + line for line in lines]


def _run(lines: list[str], namespace: dict[str, Any]) -> Walker:
    exec_kept("\n".join(lines) + "\n", namespace, namespace)
    return cast(Walker, namespace["walk"])


def _plain(tp: Any) -> bool:
    """Whether values annotated ``tp`` are tuples or dicts (their walker loops over items)."""
    if get_origin(tp) is Annotated:
        return _slot(tp) is None and _plain(get_args(tp)[0])
    return get_origin(tp) in (tuple, dict)


def _one_node(tp: Any) -> bool:
    """Whether the walker of values annotated ``tp`` is the walker of the value's class (a
    union of node classes, or one node class)."""
    if get_origin(tp) is Annotated:
        return _slot(tp) is None and _one_node(get_args(tp)[0])
    if get_origin(tp) in (Union, types.UnionType):  # of nodes, or None; not `Id | None`
        return all(_slot(arg) is None for arg in get_args(tp))
    return isinstance(tp, type) and dataclasses.is_dataclass(tp)


class _Records(dict[type, Walker | None]):
    """Each class's walker (:func:`_record`), written on first use."""

    def __missing__(self, cls: type) -> Walker | None:
        made = self[cls] = _record(cls)
        return made


_RECORDS = _Records()


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
