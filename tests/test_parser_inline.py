"""The DSL parser builds syntax nodes as Lark's LALR parser reduces, with no tree in between
(rulesdsl/frontends/dsl_base.py: BuilderBase.callbacks). It must build exactly what a walk of
Lark's tree with positions built: the same statements, every position (a statement's span
includes its keyword and its end of line, which the node does not keep) and the same
diagnostics of token contents, in the same order."""

from __future__ import annotations

from pathlib import Path

import pytest
from lark import Lark
from lark.exceptions import UnexpectedInput

from rulesdsl.frontends import syntax as s
from rulesdsl.frontends.dsl import Parser, _Builder, lalr_parser, load_grammar
from rulesdsl.gc_pause import gc_paused
from tests.conftest import ROOT

BIG = "9" * 400
HEAVY_GEAR = ROOT / "rulesets" / "heavy_gear.terrain"

ODD = f"""ruleset odd "Odd\\u0001"
version 1.0.0
languages en
units distance in, cost MP
stacking sum entry 1 MP
mode m "M" : walkers
layer l "L" edges one per place [bk p.3] {{
  columns cost
  a "A\\ud800" | {BIG} | along 1/0
  b "B" | 1, m {BIG}.5
      note "n\\u0002"
  3 "Three" | as a
}}
step st "St" (h in) -> MP : +1 per full 2 in above 1 in, at least 1 from 2 in
decision d "D" (x in, h bool) {{
  h and x >= 2 in  -> yes "Yes"
  otherwise        -> no "No"
}}
dice dt "Dt" : {BIG}d6 {{
  2-{BIG} n "N"
  natural 9 x note "a\\u0002"
}}
override l.{BIG} | 1
remove l.b
"""


def walked(text: str, path: str) -> tuple[tuple[s.Statement, ...], list[str]]:
    """What the builder made of Lark's tree with positions: the reference."""
    builder = _Builder(path)
    with gc_paused():
        statements = builder.transform(lalr_parser().parse(text))
    return tuple(statements), [f"{d.code} {d.pos} {d.message}" for d in builder.errors]


def inline(text: str, path: str) -> tuple[tuple[s.Statement, ...], list[str]]:
    source, diags = Parser().parse(text, path)
    assert source is not None
    return source.statements, [f"{d.code} {d.pos} {d.message}" for d in diags]


@pytest.mark.parametrize(
    "path", sorted((ROOT / "rulesets").glob("*.terrain")), ids=lambda p: Path(p).stem
)
def test_each_bundled_ruleset_builds_the_statements_a_tree_walk_builds(path: Path) -> None:
    text = path.read_text("utf-8")
    assert inline(text, str(path)) == walked(text, str(path))


def test_token_diagnostics_come_in_the_order_and_at_the_places_a_tree_walk_gave() -> None:
    statements, errors = inline(ODD, "odd.terrain")
    assert (statements, errors) == walked(ODD, "odd.terrain")
    assert [e.split()[0] for e in errors] == [
        "E004",  # the title's control character
        "E004",  # half a surrogate pair in a label
        "E005",  # a number beyond a float in a cell ...
        "E212",  # ... then the division by zero after it on the same line
        "E005",
        "E004",  # the note's control character
        "E244",  # the layer's two scopes, once its rows are built
        "E005",  # the dice of a table, before its rows
        "E005",
        "E004",
        "E005",  # the override's path
    ]


def test_a_statement_spans_its_keyword_and_its_end_of_line() -> None:
    statements, _ = inline(ODD, "odd.terrain")
    layer = next(st for st in statements if isinstance(st, s.LayerDecl))
    assert (layer.item.pos.line, layer.item.pos.column) == (7, 1)  # from `layer`
    assert layer.item.pos.end_line == 14  # to the end of the `}` line's newline


def test_a_states_lexer_is_made_when_the_parser_first_reaches_the_state() -> None:
    """The parser loads with no state's lexer made (making the 260 of them was ~5 ms of each
    process's start-up, issue 44); a parse makes those of the states it reaches, once each."""
    lark = lalr_parser.__wrapped__()
    lexers = lark.parser.lexer.lexers
    assert len(lexers) == 0
    lark.parse(HEAVY_GEAR.read_text("utf-8"))
    made = {id(lexer) for lexer in lexers.values()}
    assert 0 < len(made) < 260


READS = {
    **{p.stem: p.read_text("utf-8") for p in sorted((ROOT / "rulesets").glob("*.terrain"))},
    "odd": ODD,
    "a stray character": HEAVY_GEAR.read_text("utf-8").replace("\nmode ", "\nmode $", 1),
    "a token out of place": 'ruleset r "R"\nversion 1.0.0\nmode m "M" "N"\n',
    "a cut-off block": 'ruleset r "R"\nversion 1.0.0\nlayer l "L" {\n  columns cost\n',
}
"""Texts the lazy lexers are compared on: every bundled ruleset and errors of each kind (a
character no terminal takes, which Lark reads again with all its terminals; a token the
state does not take; the end of the text)."""


@pytest.mark.parametrize("name", list(READS))
def test_the_lazy_lexers_read_what_larks_own_contextual_lexer_reads(name: str) -> None:
    """The same tree, or the same error at the same place, as Lark's own contextual lexer."""
    options = {"propagate_positions": True, "maybe_placeholders": False, "cache": True}
    own = Lark(load_grammar(), parser="lalr", **options)
    assert _outcome(lalr_parser(), READS[name]) == _outcome(own, READS[name])


def _outcome(lark: Lark, text: str) -> object:
    """The tree, or the error: its kind, place and message, the message's expected terminals
    (its lines of a tab and ``* NAME``) taken as the set they are. Lark lists them in the order
    of a set built from the parse table, which is the order of the process that built the
    table: on a first run, Lark's cache still empty, another process can write the cache
    between the two parsers' loads (seen in a fresh clone: the same terminals, another order)."""
    try:
        return lark.parse(text)
    except UnexpectedInput as exc:
        lines = str(exc).splitlines()
        expected = sorted(line for line in lines if line.startswith("\t* "))
        rest = [line for line in lines if not line.startswith("\t* ")]
        return type(exc).__name__, exc.line, exc.column, rest, expected
