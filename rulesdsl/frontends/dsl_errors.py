"""The DSL's syntax errors as diagnostics: what the parser did not expect, where, and a hint
that says where the text goes when the place tells (a note after a block's closing brace, a
row's source before its cells, arithmetic in a worked example), else what would fit there."""

from __future__ import annotations

from lark import Lark, Token
from lark.exceptions import UnexpectedCharacters, UnexpectedEOF, UnexpectedInput, UnexpectedToken

from rulesdsl.diagnostics import Diagnostic, error
from rulesdsl.frontends import syntax as s

_TOKEN_WORDS = {
    "_NL": "end of line",
    "NAME": "a name",
    "STRING": "a quoted string",
    "INT": "a whole number",
    "NUMBER": "a number",
    "VBAR": "'|'",
    "COLON": "':'",
    "COMMA": "','",
    "LBRACE": "'{'",
    "RBRACE": "'}'",
    "LPAR": "'('",
    "RPAR": "')'",
    "LSQB": "'['",
    "RSQB": "']'",
    "SEMVER": "a version such as 1.0.0",
    "VERSION_REQ": "a version requirement such as ^1.0",
    "DICE": "a dice expression such as 2d6",
    "NOTE": "'note'",
    "SIGN": "'+' or '-'",
    "COMPARE": "a comparison (<, <=, >, >=, =, !=)",
    "MORETHAN": "'>'",
    "__ANON": "a keyword",
}


def _expected_words(expected: set[str], lark: Lark) -> str:
    words = set()
    for name in expected:
        if name in _TOKEN_WORDS:
            words.add(_TOKEN_WORDS[name])
            continue
        term = next((t for t in lark.terminals if t.name == name), None)
        if term is not None and term.pattern.type == "str":
            words.add(f"'{term.pattern.value}'")
        else:
            words.add(name.lower())
    ordered = sorted(words)
    return ", ".join(ordered[:8]) + (", ..." if len(ordered) > 8 else "")


_ARITHMETIC = frozenset({"SIGN", "SCALE_OP", "SLASH", "PLUS", "MINUS", "LPAR"})
_BLOCK_NOTE = (
    "a block's source and notes go on its opening line, before '{' "
    '(`table speeds "Speeds" note "..." {`), or on a row inside it'
)
_ROW_SOURCE = (
    'a row\'s source goes at its end, after its cells and flags (`hill "Hill" | 2 [hg p.4]`)'
)
_EXAMPLE_VALUES = (
    "an example's arguments and answers are literal values (numbers, names, `(a, b)` groups): "
    "work the arithmetic out (write 5, not 2 + 3)"
)


def _hint(token: Token, lines: list[str]) -> str | None:
    """A hint that says where the unexpected token goes, when the place tells: a source or
    note after a block's closing '}', a row's source before its cells, arithmetic in a worked
    example's line (issue 40)."""
    if token.type in ("NOTE", "LSQB", "REMARK"):
        before = "\n".join(lines)[: token.start_pos or 0].rstrip()
        if before.endswith("}"):
            return _BLOCK_NOTE
        row = lines[token.line - 1] if token.line else ""
        after = row[(token.column or 1) - 1 :]
        return _ROW_SOURCE if token.type == "LSQB" and "|" in after else None
    if token.type in _ARITHMETIC:
        line = max((token.line or 1) - 1, 0)
        head = next((lines[i] for i in range(line, -1, -1) if lines[i][:1].isalpha()), "")
        if head.startswith(("example", "override example")):
            return _EXAMPLE_VALUES
    return None


def syntax_error(exc: UnexpectedInput, path: str, lark: Lark, lines: list[str]) -> Diagnostic:
    """The diagnostic of a parse error: E001 at the token the grammar did not expect, with a hint
    that says where it goes when the place tells, else what would fit; E002 at a character no
    token begins with."""
    line, column = max(exc.line, 1), max(exc.column, 1)
    if isinstance(exc, UnexpectedToken):
        token = exc.token
        if token.type == "_NL":
            found = "the end of the line"
        elif token.type == "$END":
            found = "the end of the file"
        else:
            found = f"'{token}'"
        if token.type == "NOTE":
            line, column = token.end_line or line, (token.end_column or column) - 4
        width = max(1, len(str(token).splitlines()[0]) if str(token).strip() else 1)
        pos = s.Pos(path, line, column, line, column + width)
        expected = _hint(token, lines) or "expected " + _expected_words(set(exc.expected), lark)
        return error("E001", f"unexpected {found}", pos, expected)
    if isinstance(exc, UnexpectedCharacters):
        pos = s.Pos(path, line, column, line, column + 1)
        char = str(exc.char)
        hint = (
            "strings use double quotes"
            if char in "'`"
            else ("comments start with '#'" if char in "/;" else None)
        )
        return error("E002", f"unexpected character {char!r}", pos, hint)
    assert isinstance(exc, UnexpectedEOF)
    pos = s.Pos(path, line, column, line, column + 1)
    return error("E001", "unexpected end of file", pos, "is a block missing its closing '}'?")
