"""The DSL's parse in one loop: Lark's contextual lexer and LALR driver fused (issue 44).

Lark lexes through a generator per token (``ContextualLexer.lex``, ``BasicLexer.next_token``,
``Scanner.match``, ``LineCounter.feed``) and reduces through ``ParserState.feed_token``, which
looks each rule's callback up by the rule (a ``Rule``'s hash and equality are Python code)
and asserts on every action. That machinery was about half of a file's parse. :class:`Fused`
runs the same lexers' expressions over the same parse table with the same callbacks, in one
loop: each state's actions are read once into a plain row (a shift: the next state; a
reduction: its length, its callback and the rule's name for the goto), and each state's
lexer once into its expressions and token types.

It gives what Lark's driver gives, token for token (type, value, positions) and reduction for
reduction, on text that parses. On anything else (no expression matches, no action for a
token, the end of the text where the grammar does not end) it raises :class:`Fallback` and
the caller parses the text again with Lark's own driver, which raises Lark's error with all
its detail (expected tokens, the parser's state) for :mod:`.dsl_errors`.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import cache, partial
from re import _constants, _parser
from typing import Any

from lark import Lark, Token
from lark.lexer import BasicLexer, UnlessCallback
from lark.parsers.lalr_analysis import Shift

_new_str = str.__new__


class Fallback(Exception):
    """The fused loop met what only Lark's driver reports well: parse again with it."""


Row = dict[str, Any]
"""A state's actions by token or rule name: an ``int`` (shift or goto: the next state) or a
reduction's ``(length, callback, rule name)``; the callback is None for a rule whose lone
child stands for it (:func:`first_child`): its value stays on the stack as it is. A rule of
one child is given the child itself, not a list of it (:class:`OneChild`)."""


def first_child(children: list[Any]) -> Any:
    """The callback of a rule whose lone child stands for it (a ``?rule`` of one kept child):
    the child. The fused loop does not call it: it only moves the child's state (issue 44:
    one reduction in seven, a list and a call each)."""
    return children[0]


class OneChild:
    """The callback of a rule of one child, made from ``call``, which takes the child itself:
    the fused loop calls ``call`` with its stack's top (issue 44: two reductions in five, a
    list made and taken apart each); Lark's driver calls this with a list of the child."""

    __slots__ = ("call",)

    def __init__(self, call: Callable[[Any], Any]) -> None:
        self.call = call

    def __call__(self, children: list[Any]) -> Any:
        return self.call(children[0])


Scan = tuple[
    Callable[[str, int], Any], tuple[Any, ...], frozenset[str], frozenset[str], dict[str, Any]
]
"""A state's lexer: its first compiled expression's ``match`` and the others (Lark splits one
that has too many groups; the grammar's all fit one), the types it ignores, the types whose
text may hold a line break, and its token callbacks (a keyword matched by a name's expression
is retyped, Lark's ``UnlessCallback``)."""


class _Rows(dict[int, Row]):
    def __init__(self, states: dict[int, dict[str, Any]], callbacks: dict[Any, Any]) -> None:
        super().__init__()
        self._states = states
        self._callbacks = callbacks
        self._reductions: dict[int, tuple[int, Any, str]] = {}
        """Each rule's reduction, made once for the states that reduce by it (by the rule's
        id: a Rule's hash is Python code)."""

    def __missing__(self, state: int) -> Row:
        row: Row = {}
        reductions = self._reductions
        for name, (action, arg) in self._states[state].items():
            if action is Shift:
                row[name] = arg
                continue
            act = reductions.get(id(arg))
            if act is None:
                size = len(arg.expansion)
                act = (size, _fused(self._callbacks[arg], size), arg.origin.name)
                reductions[id(arg)] = act
            row[name] = act
        self[state] = row
        return row


def _fused(call: Callable[[list[Any]], Any], size: int) -> Callable[[Any], Any] | None:
    """A reduction's callback as the fused loop calls it (see :data:`Row`)."""
    if call is first_child:
        return None
    if call.__class__ is OneChild:
        return call.call
    if size == 1:
        return partial(_listed, call)
    return call


def _listed(call: Callable[[list[Any]], Any], child: Any) -> Any:
    return call([child])


class _Scans(dict[int, Scan]):
    def __init__(self, lexers: Any) -> None:
        super().__init__()
        self._lexers = lexers
        self._by_lexer: dict[int, Scan] = {}

    def __missing__(self, state: int) -> Scan:
        lexer: BasicLexer = self._lexers[state]
        scan = self._by_lexer.get(id(lexer))
        if scan is None:
            scanner = lexer.scanner  # builds the expressions and lexer.callback
            scan = self._by_lexer[id(lexer)] = (
                scanner._mres[0].match,
                tuple(scanner._mres[1:]),
                frozenset(lexer.ignore_types),
                frozenset(lexer.newline_types),
                {kind: _words(call) for kind, call in lexer.callback.items()},
            )
        self[state] = scan
        return scan


def fusable(lark: Lark) -> bool:
    """Whether ``lark`` is an LALR parser with a contextual lexer of Lark's plain kind, no
    post-lexer and no lexer callbacks of the user's: what :class:`Fused` reproduces."""
    frontend: Any = lark.parser
    lexer = getattr(frontend, "lexer", None)
    table = getattr(getattr(frontend, "parser", None), "_parse_table", None)
    lexers = getattr(lexer, "lexers", None)
    return (
        table is not None
        and lexers is not None
        and getattr(frontend, "postlex", None) is None
        and not lark.options.lexer_callbacks
        and all(isinstance(lex, BasicLexer) for lex in dict.values(lexers))
    )


class Fused:
    """One parser's fused lexer and driver with one set of callbacks (a builder's), from one
    of its start rules."""

    def __init__(
        self, lark: Lark, callbacks: dict[Any, Callable[[Any], Any]], start: str = "start"
    ) -> None:
        frontend: Any = lark.parser
        table = frontend.parser._parse_table
        self._rows = _Rows(table.states, callbacks)
        self._scans = _Scans(frontend.lexer.lexers)
        self._start = table.start_states[start]
        self._end = table.end_states[start]
        self._on_token = {k: v for k, v in callbacks.items() if isinstance(k, str)}
        self._blanks = blank_run(lark)

    def parse(self, text: str, line: int = 1, column: int = 1) -> Any:
        """The start rule's value for ``text``, as Lark's driver would reduce it; ``line`` and
        ``column`` are where the text's first character stands (a fragment's place in its
        file: its first line's columns move, the later lines' do not)."""
        rows, scans, on_token, stop = self._rows, self._scans, self._on_token, self._end
        opens, blanks = self._blanks
        states = [self._start]
        values: list[Any] = []
        pos, line_start, end = 0, 1 - column, len(text)
        while True:
            if pos == end:  # the end of the text: its reductions, to the start rule's value
                terminal = "$END"
            else:
                if text[pos] in opens:  # a run of blanks, matched as any state's lexer would
                    pos = blanks(text, pos).end()  # (issue 44: a third of the matches)
                    if pos == end:
                        continue
                first, more, ignore, newlines, retype = scans[states[-1]]
                match = first(text, pos)
                for mre in more if match is None else ():
                    match = mre.match(text, pos)
                    if match is not None:
                        break
                if match is None:
                    raise Fallback
                value: str = match.group(0)
                terminal = match.lastgroup
                ignored = terminal in ignore
                if ignored and terminal not in retype:
                    if terminal in newlines and "\n" in value:
                        line += value.count("\n")
                        line_start = pos + value.rindex("\n") + 1
                    pos += len(value)
                    continue
                token = _new_str(Token, value)
                token.type = terminal
                token.value = value
                token.start_pos = pos
                token.line = line
                token.column = pos - line_start + 1
                if terminal in newlines and "\n" in value:
                    line += value.count("\n")
                    line_start = pos + value.rindex("\n") + 1
                pos += len(value)
                token.end_line = line
                token.end_column = pos - line_start + 1
                token.end_pos = pos
                if terminal in retype:  # a name that may be a keyword (a call per name saved)
                    words = retype[terminal]
                    if words.__class__ is dict:
                        token.type = words.get(value, terminal)
                    else:
                        token = _retyped(words, token)
                if ignored:
                    continue
                terminal = token.type
            # ParserState.feed_token, written here (issue 44: a call per token and one per
            # reduction saved): the reductions this token makes, then its shift
            while True:
                act = rows[states[-1]].get(terminal)
                if act is None:
                    raise Fallback
                if act.__class__ is int:
                    break
                size, callback, origin = act
                if callback is None:  # a lone child standing for its rule: its value stays
                    del states[-1]
                elif size == 1:  # given the child itself
                    del states[-1]
                    values[-1] = callback(values[-1])
                elif size:
                    children = values[-size:]
                    del states[-size:]
                    del values[-size:]
                    values.append(callback(children))
                else:
                    values.append(callback([]))
                goto = rows[states[-1]][origin]
                if goto == stop and terminal == "$END":
                    return values[-1]
                states.append(goto)
            if terminal == "$END":  # a shift of the end: not what Lark's driver does
                raise Fallback
            states.append(act)
            check = on_token.get(terminal)
            values.append(token if check is None else check(token))


_REPEATS = (_constants.MAX_REPEAT, _constants.POSSESSIVE_REPEAT, _constants.MIN_REPEAT)


@cache
def blank_run(lark: Lark) -> tuple[str, Callable[[str, int], Any]]:
    """The characters that open an ignored run of blanks, and that run's match: an ignored
    terminal of the form ``[<characters>]+`` (no line break among them) that is the only
    terminal a match can begin with one of them. Every state's lexer holds the ignored
    terminals, so at such a character any state's lexer matches that run, and the fused loop
    skips it without asking the state's lexer. ``("", ...)`` (nothing skipped) for a grammar
    without one."""
    terminals = lark.lexer_conf.terminals
    ignored = set(lark.lexer_conf.ignore)
    for run in terminals:
        chars = _run_of(run) if run.name in ignored else None
        if chars and not any(_may_open(t, chars) for t in terminals if t is not run):
            return chars, re.compile(run.pattern.to_regexp()).match
    return "", re.compile("").match  # pragma: no cover - see above


def _run_of(terminal: Any) -> str | None:
    """The characters of a terminal ``[abc]+`` (each a literal, none a line break), or None."""
    if terminal.pattern.type != "re" or terminal.pattern.flags:
        return None
    parsed = list(_parser.parse(terminal.pattern.value))
    if len(parsed) != 1 or parsed[0][0] not in _REPEATS[:2] or parsed[0][1][0] != 1:
        return None
    inner = list(parsed[0][1][2])
    if len(inner) != 1 or inner[0][0] is not _constants.IN:
        return None
    if any(op is not _constants.LITERAL for op, _ in inner[0][1]):
        return None
    chars = "".join(chr(c) for _, c in inner[0][1])
    return None if "\n" in chars or "\r" in chars else chars


def _may_open(terminal: Any, chars: str) -> bool:
    """Whether a match of ``terminal`` may begin with one of ``chars`` (True when unsure)."""
    if terminal.pattern.type == "str":
        return terminal.pattern.value[:1] in chars or not terminal.pattern.value
    return _opens(list(_parser.parse(terminal.pattern.to_regexp())), chars) is not False


def _opens(items: list[Any], chars: str) -> bool | None:
    """Whether a match of parsed regular expression items may begin with one of ``chars``:
    True (it may, or it is not known), False (never), None (the items may match nothing,
    so what follows them decides)."""
    for op, arg in items:
        if op is _constants.LITERAL:
            return chr(arg) in chars
        if op is _constants.IN:
            return any(_in_may(member, value, chars) for member, value in arg)
        if op is _constants.SUBPATTERN:
            found = _opens(list(arg[-1]), chars)
        elif op in _REPEATS:
            found = _opens(list(arg[2]), chars)
            if found is False and arg[0] == 0:
                found = None
        elif op is _constants.BRANCH:
            answers = [_opens(list(branch), chars) for branch in arg[1]]
            found = True if True in answers else None if None in answers else False
        elif op is _constants.AT:  # an anchor: matches no character
            found = None
        else:
            return True
        if found is not None:
            return found
    return None


def _in_may(member: Any, value: Any, chars: str) -> bool:
    """Whether one member of a character set ``[...]`` may match one of ``chars``."""
    if member is _constants.LITERAL:
        return chr(value) in chars
    if member is _constants.RANGE:
        return any(value[0] <= ord(c) <= value[1] for c in chars)
    if member is _constants.CATEGORY:
        return value not in (_constants.CATEGORY_DIGIT, _constants.CATEGORY_WORD)
    return True  # a negated set, or what is not known


def _words(callback: Any) -> Any:
    """A lexer's token callback as the fused loop calls it: Lark's ``UnlessCallback`` (a
    keyword's text matched by a name's expression is the keyword) of plain keywords as a
    dict of each keyword's text to its type (the same answer as its expression's
    ``fullmatch``); another callback as it is."""
    if callback.__class__ is not UnlessCallback:
        return callback  # pragma: no cover - the grammar has no other token callback
    scanner = callback.scanner
    if scanner.g_regex_flags or any(
        t.pattern.type != "str" or t.pattern.flags for t in scanner.terminals
    ):
        return callback  # pragma: no cover - the grammar's keywords are plain
    words: dict[str, str] = {}
    for t in scanner.terminals:
        words.setdefault(t.pattern.value, t.name)
    return words


def _retyped(callback: Any, token: Token) -> Token:  # pragma: no cover - see _words
    """A token retyped by a lexer callback that is not plain keywords'."""
    if callback.__class__ is UnlessCallback:
        found = callback.scanner.fullmatch(token.value)
    else:  # the grammar has no other token callback
        raise Fallback
    if found is not None:
        token.type = found
    return token
