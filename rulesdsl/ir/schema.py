"""The IR's JSON Schema: derived from the IR's annotations, shipped as a file in the package.

``rulesdsl schema`` prints it so editors can validate YAML rulesets; YAML input is validated
against it, and tests/test_ir_schema.py validates the compiler's own output. A test keeps the
shipped file equal to :func:`build`.
"""

from __future__ import annotations

import dataclasses
import json
import types
import typing
from functools import cache
from importlib import resources
from typing import Annotated, Any, Literal, Union, get_args, get_origin

import jsonschema

from rulesdsl import ir
from rulesdsl.ir.serial import to_data

SCHEMA_FILE = "ruleset.schema.json"
SCHEMA_ID = "https://rulesdsl.invalid/schema/ruleset.schema.json"


def build() -> dict[str, Any]:
    """The schema of :class:`rulesdsl.ir.Ruleset`, with one definition per IR class."""
    defs: dict[str, Any] = {}

    def of(tp: Any) -> dict[str, Any]:
        origin = get_origin(tp)
        if origin is Annotated:
            base, *meta = get_args(tp)
            pattern = next(m for m in meta if isinstance(m, ir.Pattern))
            return {**of(base), "pattern": f"^{pattern.regex}$", "maxLength": pattern.max_length}
        if origin in (Union, types.UnionType):
            options = [of(o) for o in get_args(tp)]
            return {"anyOf": options}
        if origin is tuple and get_args(tp)[1:] in ((), (...,)):
            return {"type": "array", "items": of(get_args(tp)[0])}
        if origin is tuple:  # a fixed tuple, each place its own type
            places = [of(t) for t in get_args(tp)]
            return {"type": "array", "prefixItems": places, "items": False, "minItems": len(places)}
        if origin is dict:
            key, value = get_args(tp)
            mapping = {"type": "object", "additionalProperties": of(value)}
            if get_origin(key) is Annotated:
                mapping["propertyNames"] = of(key)
            return mapping
        if origin is Literal:
            return {"enum": list(get_args(tp))}
        if tp is type(None):
            return {"type": "null"}
        if tp is str:
            return {"type": "string"}
        if tp is bool:
            return {"type": "boolean"}
        if tp is int:
            return {"type": "integer"}
        if tp is float:
            return {"type": "number"}
        if dataclasses.is_dataclass(tp) and isinstance(tp, type):
            name = tp.__name__
            if name not in defs:
                defs[name] = {}  # placeholder against recursion
                fields = typing.get_type_hints(tp, vars(ir), include_extras=True)
                required = [
                    f.name
                    for f in dataclasses.fields(tp)
                    if f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING
                ]
                body: dict[str, Any] = {
                    "type": "object",
                    "properties": {n: of(t) for n, t in fields.items()},
                    "additionalProperties": False,
                }
                if required:
                    body["required"] = required
                if tp.__doc__ and not tp.__doc__.startswith(name + "("):
                    body["description"] = " ".join(tp.__doc__.split())
                defs[name] = body
            return {"$ref": f"#/$defs/{name}"}
        raise TypeError(f"no schema for {tp!r}")  # pragma: no cover

    root = of(ir.Ruleset)
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": SCHEMA_ID,
        "title": "rulesdsl ruleset (IR)",
        **root,
        "$defs": dict(sorted(defs.items())),
    }


def dumps(schema: dict[str, Any]) -> str:
    return json.dumps(schema, indent=2, ensure_ascii=False) + "\n"


@cache
def shipped() -> dict[str, Any]:
    text = resources.files("rulesdsl").joinpath("schema", SCHEMA_FILE).read_text("utf-8")
    data: dict[str, Any] = json.loads(text)
    return data


def validation_errors(data: Any) -> list[str]:
    """Schema violations of plain data, as ``path: message`` lines (empty when valid)."""
    validator = jsonschema.Draft202012Validator(shipped())
    out = []
    for err in sorted(validator.iter_errors(data), key=lambda e: list(map(str, e.path))):
        where = "/".join(str(p) for p in err.absolute_path) or "(root)"
        out.append(f"{where}: {err.message}")
    return out


def validate_ir(ruleset: ir.Ruleset) -> list[str]:
    return validation_errors(to_data(ruleset))
