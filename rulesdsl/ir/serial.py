"""IR <-> plain data (dicts, lists, strings, numbers), driven by the IR's type annotations.

``to_data`` gives what JSON and YAML can hold; ``from_data`` builds the IR back from it (after
:mod:`rulesdsl.ir.schema` has validated it), which is how a YAML-authored ruleset becomes IR.
"""

from __future__ import annotations

import dataclasses
import types
import typing
from functools import cache
from typing import Any, Literal, Union, cast, get_args, get_origin

from rulesdsl import ir

_LEAVES = frozenset({str, int, float, bool, type(None)})


def to_data(obj: object) -> Any:
    """Plain data for an IR value: dataclasses become dicts in field order, tuples lists
    (the field names asked of ``dataclasses`` once per class: a ruleset has thousands of
    nodes, and ``export`` and the schema's tests read every one)."""
    kind = type(obj)
    if kind in _LEAVES:
        return obj
    names = _field_names(cast(Any, kind))
    if names is not None:
        return {name: to_data(getattr(obj, name)) for name in names}
    if isinstance(obj, tuple | list):
        return [to_data(x) for x in obj]
    if isinstance(obj, dict):
        return {k: to_data(v) for k, v in obj.items()}
    return obj


@cache
def _field_names(cls: type) -> tuple[str, ...] | None:
    """A dataclass's field names in order; None for another class (a class object too)."""
    return tuple(f.name for f in dataclasses.fields(cls)) if dataclasses.is_dataclass(cls) else None


@cache
def hints(cls: type) -> dict[str, Any]:
    return typing.get_type_hints(cls, vars(ir))


def from_data(tp: Any, data: Any) -> Any:
    """Build a value of type ``tp`` from plain data (already schema-valid)."""
    origin = get_origin(tp)
    if origin in (Union, types.UnionType):
        options = get_args(tp)
        if data is None and type(None) in options:
            return None
        if isinstance(data, dict) and "kind" in data:
            for option in options:
                if isinstance(option, type) and dataclasses.is_dataclass(option):
                    kind = hints(option).get("kind")
                    if kind is not None and data["kind"] in get_args(kind):
                        return from_data(option, data)
        for option in options:
            if option is not type(None):
                return from_data(option, data)
    if origin is tuple:
        (item, *_rest) = get_args(tp)
        return tuple(from_data(item, x) for x in data)
    if origin is dict:
        _key, value = get_args(tp)
        return {k: from_data(value, v) for k, v in data.items()}
    if origin is Literal:
        return data
    if dataclasses.is_dataclass(tp) and isinstance(tp, type):
        fields = hints(tp)
        return tp(**{name: from_data(fields[name], data[name]) for name in fields if name in data})
    if tp is float and isinstance(data, int):
        return data
    return data
