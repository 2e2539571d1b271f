"""The DSL builder's base: how a Lark tree is walked, and the checks every token passes
(string contents, number sizes). :class:`rulesdsl.frontends.dsl_tables.TableRules` and the
parser's own builder (:mod:`rulesdsl.frontends.dsl`) add one method per grammar rule.
"""

from __future__ import annotations

import json
import re
import sys
from collections.abc import Callable
from functools import cache, partial
from typing import Any, cast

from lark import Lark, Token, Tree
from lark.grammar import Rule, Terminal
from lark.tree import Meta

from rulesdsl import ir
from rulesdsl.diagnostics import Diagnostic, error, new_pos
from rulesdsl.frontends import syntax as s
from rulesdsl.frontends.dsl_driver import OneChild, first_child
from rulesdsl.ir.records import dataclass

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


class Built:
    """A grammar rule's result while the parser runs: the built value and where the rule's
    text stands (``line`` None when it holds no text). It is also the ``meta`` a builder
    method is given: tokens and these share the names ``line``, ``column``, ``end_line`` and
    ``end_column``."""

    __slots__ = ("column", "end_column", "end_line", "line", "value")

    def __init__(
        self,
        value: Any,
        line: int | None,
        column: int | None,
        end_line: int | None,
        end_column: int | None,
    ) -> None:
        self.value = value
        self.line = line
        self.column = column
        self.end_line = end_line
        self.end_column = end_column


def _reduce_one(rule: Callable[[Any, list[Any]], Any], child: Any) -> Built:
    """The reduction of a rule of one child, kept (a number, a quantity, a value: two in
    five): what the general one makes, with less work. A child without text (a ``Built``
    whose ``line`` is None) has no position at all, so its span is the rule's either way.
    A child that is a ``Built`` is the rule's own: it spans the same text, and the parser
    holds it nowhere else once reduced (issue 44: one object fewer in two of these)."""
    if child.__class__ is Built:
        child.value = rule(child, [child.value])
        return child
    here = Built(None, child.line, child.column, child.end_line, child.end_column)
    here.value = rule(here, [child])
    return here


Callback = Callable[[Any], Any]
"""What the LALR parser calls on each reduction: the rule's children (tokens and
:class:`Built` values, every token the rule matched included) to the rule's result; or on
each token of a type it has a callback for, as the token is shifted."""


@dataclass(frozen=True, slots=False)
class Plan:
    """How one grammar rule (one alternative) is reduced, read from Lark's rule once per
    parser: the builder method named after it (its alias, else its name), which children it
    keeps (a keyword or punctuation token is only text) and which it splices in (a rule
    named ``_...``, or Lark's helper for ``*`` and ``+``), whether it is itself spliced into
    its parent, and whether a lone child stands for it (``?rule``)."""

    rule: Rule
    method: str
    keep: tuple[tuple[int, bool], ...]
    spliced: bool
    expand_single: bool


@cache
def plans(lark: Lark) -> tuple[Plan, ...]:
    """Every rule's :class:`Plan`, as Lark's own tree builder would shape the rule's node
    (``lark.parse_tree_builder``: ``ChildFilter``, ``ExpandSingleChild``)."""
    out = []
    for rule in lark.rules:
        options = rule.options
        keep = tuple(
            (i, not sym.is_term and sym.name.startswith("_"))
            for i, sym in enumerate(rule.expansion)
            if options.keep_all_tokens or not (isinstance(sym, Terminal) and sym.filter_out)
        )
        name = rule.alias or options.template_source or rule.origin.name
        spliced = rule.origin.name.startswith("_")
        out.append(Plan(rule, name, keep, spliced, bool(options.expand1) and not rule.alias))
    return tuple(out)


class BuilderBase:
    """Builds syntax nodes while the LALR parser reduces (:meth:`callbacks`), calling the
    method named after each rule with the rule's position and built children; or walks a
    finished Lark tree the same way (:meth:`transform`, for fragments). Holds the helpers
    every rule's method uses."""

    def __init__(self, path: str) -> None:
        self.file = path  # not `path`: that name is the grammar rule below
        self.errors: list[Diagnostic] = []
        """Problems inside tokens the grammar accepted (string contents, huge numbers)."""
        self._rules: dict[str, Callable[[Meta, list[Any]], Any]] = {}
        self._callbacks: tuple[Lark, dict[Rule | str, Callback]] | None = None

    def reset(self, path: str) -> None:
        """Make the builder as new for another file (or another attempt at one): its
        callbacks, made once, are kept (issue 44: making them was 3 ms of every parse)."""
        self.file = path
        self.errors = []

    # -- building while parsing ---------------------------------------------------------------

    def callbacks(self, lark: Lark) -> dict[Rule | str, Callback]:
        """The parser's reduction callbacks, one per rule: no tree is built and none is walked.
        They are made once per builder (and parser); the dict is shared: copy it to change it.

        A rule's position is what Lark's ``propagate_positions`` gives a tree node: from the
        start of its first child that holds text to the end of its last, counting the tokens
        the node does not keep (a statement's keyword, its end of line); a spliced rule and a
        lone child standing for its ``?rule`` take the span of the text they stand for."""
        if self._callbacks is not None and self._callbacks[0] is lark:
            return self._callbacks[1]
        out: dict[Rule | str, Callback] = {plan.rule: self._callback(plan) for plan in plans(lark)}
        # a number token is checked as it is shifted: in the order of the text, as the walk
        # of a tree checked it (the reductions of the rules before it have run by then)
        out.update(dict.fromkeys(_NUMERIC_TOKENS, self._checked_number))
        self._callbacks = (lark, out)
        return out

    def _callback(self, plan: Plan) -> Callback:
        keep, spliced, expand_single = plan.keep, plan.spliced, plan.expand_single
        name = plan.method
        rule: Callable[[Any, list[Any]], Any] = getattr(self, name, None) or partial(
            self.__default__, name
        )
        one = keep == ((0, False),) and len(plan.rule.expansion) == 1 and not spliced
        if one and expand_single:
            # a lone child standing for its ``?rule`` (two reductions in seven): the child
            # itself, its text's span the rule's (issue 44)
            return first_child
        if one:
            return OneChild(partial(_reduce_one, rule))
        # every child kept, none spliced (two reductions in three): the children themselves,
        # a list the parser makes for this call alone, are the rule's (issue 44)
        whole = [i for i, splice in keep if not splice] == list(range(len(plan.rule.expansion)))
        # a rule that opens (closes) with a token: its text starts (ends) there
        opens, closes = (
            plan.rule.expansion[i].is_term if plan.rule.expansion else False for i in (0, -1)
        )

        def reduce(children: list[Any]) -> Any:
            first = last = None
            if opens:
                first = children[0]
            else:
                for child in children:
                    if child.__class__ is not Built or child.line is not None:
                        first = child
                        break
            if closes:
                last = children[-1]
            elif first is not None:
                for child in reversed(children):
                    if child.__class__ is not Built or child.line is not None:
                        last = child
                        break
            raw: list[Any] = children if whole else []
            for i, splice in () if whole else keep:
                if not splice:
                    raw.append(children[i])
                elif raw:
                    raw += children[i].value
                else:  # a repetition grows its list in place, as Lark's tree builder does:
                    raw = children[i].value  # a copy per row made long blocks quadratic
            if first is None:
                here = Built(raw, None, None, None, None)
            else:
                assert last is not None
                here = Built(raw, first.line, first.column, last.end_line, last.end_column)
            if spliced:
                return here  # its children go into its parent's
            if expand_single and len(raw) == 1:
                alone = raw[0]
                if alone.__class__ is Built and first is not None:
                    here.value = alone.value
                    return here
                return alone
            for i, child in enumerate(raw):  # the list is this reduction's alone (issue 44)
                if child.__class__ is Built:
                    raw[i] = child.value
            here.value = rule(cast(Meta, here), raw)
            return here

        return reduce

    # -- building from a tree -------------------------------------------------------------------

    def transform(self, tree: Tree[Token]) -> Any:
        return self._build(tree)

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

    def _p(self, meta: Meta | Token | Built) -> s.Pos:
        """Where a tree node, a rule's reduction or a token is, as a syntax position."""
        line = meta.line or 1
        column = meta.column or 1
        return new_pos(self.file, line, column, meta.end_line or line, meta.end_column or column)

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
        # without a backslash, the grammar's STRING is its text in quotes (issue 44)
        text: str = raw[1:-1] if "\\" not in raw else json.loads(raw, strict=False)
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

    def place_precedence(self, meta: Meta, ch: list[Any]) -> tuple[str, list[s.Name]]:
        return ("precedence", ch[0])

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
        if len(token) < 309:  # each number in it under 10**308: no float is larger (issue 44)
            return token
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


def place_order(ch: list[Any]) -> tuple[s.Name, ...] | None:
    """The names of a layer's or a row's ``precedence a, b`` (issue 40), None without one."""
    found = next((c[1] for c in ch if isinstance(c, tuple) and c and c[0] == "precedence"), None)
    return None if found is None else tuple(found)
