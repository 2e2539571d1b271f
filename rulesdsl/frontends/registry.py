"""The front ends by the suffixes of their files: every decision on a ruleset file's suffix
(which parser reads it, how its lines break, how a hint writes a fix in it, what the editor
and the formatter do with it) is asked of :data:`FRONT_ENDS`, and no other module names a
suffix. A file of another name is read as DSL text (the first front end).

Importing this module imports no parser, nor the syntax tree: a front end loads its parser
when it first parses.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:  # the syntax imports the IR: the build's up-to-date path does without
    from rulesdsl.diagnostics import Diagnostic
    from rulesdsl.frontends.dsl import Parser
    from rulesdsl.frontends.fragments import FragmentParser
    from rulesdsl.frontends.syntax import Notation, SourceFile

    Parsed = tuple[SourceFile | None, list[Diagnostic]]


class Parsers(Protocol):
    """The parsers a compiler keeps, made once (building the LALR tables is costly)."""

    @property
    def parser(self) -> Parser: ...

    @property
    def fragments(self) -> FragmentParser: ...


class FrontEnd(Protocol):
    """One source format of rulesets."""

    @property
    def name(self) -> str: ...

    @property
    def suffixes(self) -> tuple[str, ...]:
        """Its files' suffixes, each a whole ``Path.suffix`` (a ruleset's id is its file's
        stem); the first is the one a new file or a base is named with."""

    @property
    def notation(self) -> Notation:
        """How a hint writes a fix in its text."""

    @property
    def dsl_text(self) -> bool:
        """Its text is the DSL's own: the formatter, and the language server's folding,
        semantic tokens and completion by context, read it."""

    @property
    def extends(self) -> re.Pattern[str] | None:
        """Where its text names a base (group 1), for the build to find variants without
        compiling; None: the build does not look (nor stamps the bases it reads)."""

    def parse(self, text: str, path: str, parsers: Parsers) -> Parsed:
        """The statements of ``text``, the file at ``path``, and what is wrong with it."""

    def lines(self, text: str) -> list[str]:
        """Its lines as its parser counts them (diagnostics quote them)."""


ADD_LINE = "add the line: "
"""How an E232 hint starts the exact DSL line to add, which ``rulesdsl fmt --fix`` adds
(:mod:`rulesdsl.interchange.fixes` reads it)."""

_YAML_BREAK = re.compile("\r\n|[\r\n\x85\u2028\u2029]")
"""Where YAML readers start a new line; the DSL's parser counts ``\\n`` only."""


class DslFrontEnd:
    """The terrain DSL (:mod:`rulesdsl.frontends.dsl`)."""

    name: str = "dsl"
    suffixes: tuple[str, ...] = (".terrain",)
    dsl_text: bool = True
    extends: re.Pattern[str] | None = re.compile(
        r"^[ \t]*extends[ \t]+([A-Za-z_][A-Za-z0-9_]*)", re.MULTILINE
    )

    @property
    def notation(self) -> Notation:
        from rulesdsl.frontends.syntax import Notation

        return Notation(ADD_LINE + "precedence {a}, {b}", "`precedence {a}, {b}`")

    def parse(self, text: str, path: str, parsers: Parsers) -> Parsed:
        return parsers.parser.parse(text, path)

    def lines(self, text: str) -> list[str]:
        return [line.removesuffix("\r") for line in text.split("\n")]


class YamlFrontEnd:
    """The YAML authoring format (:mod:`rulesdsl.frontends.yaml_authoring`), imported only
    when a YAML ruleset is read (it needs PyYAML)."""

    name: str = "yaml"
    suffixes: tuple[str, ...] = (".yaml", ".yml")
    dsl_text: bool = False
    extends: re.Pattern[str] | None = None

    @property
    def notation(self) -> Notation:
        from rulesdsl.frontends.syntax import Notation

        return Notation("add [{a}, {b}] to `precedence:`", "[{a}, {b}]")

    def parse(self, text: str, path: str, parsers: Parsers) -> Parsed:
        from rulesdsl.frontends.yaml_authoring import parse_yaml

        return parse_yaml(text, path, parsers.fragments)

    def lines(self, text: str) -> list[str]:
        return _YAML_BREAK.split(text)


DSL = DslFrontEnd()
YAML = YamlFrontEnd()

FRONT_ENDS: tuple[FrontEnd, ...] = (DSL, YAML)
"""Every front end; the first reads a file whose suffix none claims."""


def suffixes() -> tuple[str, ...]:
    """Every ruleset file's suffix, in the order a base is looked up beside a variant."""
    return tuple(suffix for front in FRONT_ENDS for suffix in front.suffixes)


def named(path: str) -> FrontEnd | None:
    """The front end whose suffix ``path`` has, if any."""
    return next((f for f in FRONT_ENDS if path.endswith(f.suffixes)), None)


def reading(path: str) -> FrontEnd:
    """The front end that reads ``path``: the one its suffix names, else the DSL's."""
    return named(path) or FRONT_ENDS[0]


def split_lines(path: str, text: str) -> list[str]:
    """The lines of ``text``, the file ``path``, as its front end counts them."""
    return reading(path).lines(text)
