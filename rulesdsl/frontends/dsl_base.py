"""The DSL builder's base: how a Lark tree is walked, and the checks every token passes
(string contents, number sizes). :class:`rulesdsl.frontends.dsl_tables.TableRules` and the
parser's own builder (:mod:`rulesdsl.frontends.dsl`) add one method per grammar rule.
"""

from __future__ import annotations

import json
import re
import sys
from collections.abc import Callable
from functools import partial
from typing import Any

from lark import Token, Tree
from lark.tree import Meta

from rulesdsl import ir
from rulesdsl.diagnostics import Diagnostic, error
from rulesdsl.frontends import syntax as s


def meta_pos(path: str, meta: Meta | Token) -> s.Pos:
    """Where a tree node or a token is, as a syntax position."""
    return s.Pos(
        path,
        meta.line or 1,
        meta.column or 1,
        meta.end_line or meta.line or 1,
        meta.end_column or meta.column or 1,
    )


_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]")
"""Control characters a string may not hold, raw or escaped: all but the tab (raw or ``\\t``)
and the line break (``\\n``; a raw one ends the string)."""


_SURROGATE = re.compile(r"[\ud800-\udfff]")
_NUMERIC_TOKENS = frozenset({"INT", "NUMBER", "DICE", "SEMVER", "VERSION_REQ"})
_DIGITS = re.compile(r"\d+")
_LARGEST = sys.float_info.max


def _bad_escape_offset(raw: str, bad: Callable[[int], bool]) -> int:
    """Where in a quoted string's source the first ``\\uXXXX`` escape of a code point that
    is ``bad`` starts. A surrogate pair makes a character beyond U+FFFF, never a control
    character nor a surrogate, so it is skipped whole; escapes are read in order, so
    ``\\\\ud800`` is no escape."""
    i = 1
    while i < len(raw) - 1:
        if raw[i] != "\\":
            i += 1
            continue
        if raw[i + 1] != "u":
            i += 2
            continue
        code = int(raw[i + 2 : i + 6], 16)
        if (
            0xD800 <= code < 0xDC00
            and raw[i + 6 : i + 8] == "\\u"
            and 0xDC00 <= int(raw[i + 8 : i + 12], 16) < 0xE000
        ):
            i += 12
            continue
        if bad(code):
            return i
        i += 6
    return 0  # pragma: no cover - only called when the decoded text holds such a character


NO_EXTRAS = s.Extras()


def parse_dice_token(text: str) -> ir.DiceRoll:
    """``2d6``, ``1d6+3``, ``d10``, ``d%`` (d100), ``d66`` -> a dice value (the grammar has
    already checked the shape)."""
    count, rest = text.lower().split("d", 1)
    bonus = 0
    for sign in "+-":
        if sign in rest:
            rest, tail = rest.split(sign, 1)
            bonus = int(tail) * (1 if sign == "+" else -1)
    if not count and rest == "66":
        return ir.D66Value(bonus)
    return ir.DiceValue(int(count or 1), 100 if rest == "%" else int(rest), bonus)


class BuilderBase:
    """Walks a Lark tree, calling the method named after each rule with its meta and built
    children; holds the helpers every rule's method uses."""

    def __init__(self, path: str) -> None:
        self.file = path  # not `path`: that name is the grammar rule below
        self.errors: list[Diagnostic] = []
        """Problems inside tokens the grammar accepted (string contents, huge numbers)."""
        self._rules: dict[str, Callable[[Meta, list[Any]], Any]] = {}

    def transform(self, tree: Tree[Token]) -> list[s.Statement]:
        statements: list[s.Statement] = self._build(tree)
        return statements

    def _build(self, tree: Tree[Token]) -> Any:
        children = [
            self._build(c) if isinstance(c, Tree) else self.__default_token__(c)
            for c in tree.children
        ]
        rule = self._rules.get(tree.data)
        if rule is None:
            rule = self._rules[tree.data] = getattr(self, tree.data, None) or partial(
                self.__default__, tree.data
            )
        return rule(tree.meta, children)

    def _p(self, meta: Meta | Token) -> s.Pos:
        return meta_pos(self.file, meta)

    def _name(self, token: Token) -> s.Name:
        return s.Name(str(token), self._p(token))

    def _at(self, token: Token, offset: int, width: int = 1) -> s.Pos:
        """The position of characters inside a one-line token."""
        line, column = token.line or 1, (token.column or 1) + offset
        return s.Pos(self.file, line, column, line, column + width)

    def _unquote(self, token: Token) -> str:
        """A quoted string's text. A control character, raw or escaped (other than a tab or a
        line break written ``\\n``), or an escape of half a surrogate pair is an error (E004);
        U+FFFD then stands in for it, so that later stages see a plain string. A string may
        hold both (``"a\\x01\\ud800"``): each is reported and replaced, else the surrogate went
        on to the digest's encode and raised UnicodeEncodeError (issue 30, item 8)."""
        raw = str(token)
        text: str = json.loads(raw, strict=False)
        bad = _CONTROL.search(text)
        if bad is not None:
            in_raw = _CONTROL.search(raw)
            offset, width = (
                (in_raw.start(), 1)
                if in_raw is not None
                else (_bad_escape_offset(raw, lambda c: _CONTROL.match(chr(c)) is not None), 6)
            )
            self.errors.append(
                error(
                    "E004",
                    f"control character {bad.group()!r} in a string",
                    self._at(token, offset, width),
                    "remove it; write a tab as \\t and a line break as \\n",
                )
            )
            text = _CONTROL.sub("\ufffd", text)
        if _SURROGATE.search(text) is not None:
            offset = _bad_escape_offset(raw, lambda c: 0xD800 <= c < 0xE000)
            self.errors.append(
                error(
                    "E004",
                    f"'{raw[offset : offset + 6]}' is half of a surrogate pair, not a character",
                    self._at(token, offset, 6),
                    "write the character itself, or both halves of the pair (\\ud83d\\ude00)",
                )
            )
            return _SURROGATE.sub("\ufffd", text)
        return text

    def _item(self, meta: Meta, children: list[Any]) -> s.Item:
        """Build an Item from a leading NAME, optional labels and trailing extras."""
        name = self._name(children[0])
        labels = next(
            (c for c in children if isinstance(c, tuple) and c and isinstance(c[0], s.Label)), ()
        )
        extras = next((c for c in children if isinstance(c, s.Extras)), NO_EXTRAS)
        return s.Item(name, labels, extras, self._p(meta))

    def _located(self, meta: Meta, value: Any) -> s.Located:
        if isinstance(value, s.Located):
            return value
        return s.Located(value, self._p(meta))

    def __default__(self, data: str, meta: Meta, children: list[Any]) -> Any:
        raise AssertionError(f"grammar rule without a builder: {data}")  # pragma: no cover

    def __default_token__(self, token: Token) -> Token:
        if token.type in _NUMERIC_TOKENS:
            return self._checked_number(token)
        return token

    def _checked_number(self, token: Token) -> Token:
        """A number token whose numbers are all at most the largest float, or an error (E005)
        and a stand-in token of the same type with every number made 1."""
        text = str(token)
        if token.type == "NUMBER":
            too_large = float(text) > _LARGEST
        else:
            too_large = any(len(d) > 309 or int(d) > _LARGEST for d in _DIGITS.findall(text))
        if not too_large:
            return token
        digits = max(len(d) for d in _DIGITS.findall(text))
        width = len(text)
        self.errors.append(
            error(
                "E005",
                f"number too large ({digits} digits)",
                self._at(token, 0, width),
                "numbers may be at most about 1.8e308 (the largest floating-point number)",
            )
        )
        return token.update(value=_DIGITS.sub("1", text))
