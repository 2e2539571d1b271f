"""rulesdsl.frontends.dsl_table: the DSL parser's LALR table, rebuilt from Lark's cache with
less Python work (issue 44, `check` start-up), is the very table Lark rebuilds."""

from __future__ import annotations

from lark.grammar import Rule
from lark.lexer import TerminalDef
from lark.parsers.lalr_analysis import IntParseTable
from lark.utils import SerializeMemoizer

from rulesdsl.frontends.dsl import lalr_parser
from rulesdsl.frontends.dsl_table import QuickLALRParser, parse_table


def test_the_table_rebuilt_is_lark_s_own() -> None:
    data, memo_data = lalr_parser().memo_serialize([TerminalDef, Rule])
    memo = SerializeMemoizer.deserialize(memo_data, {"Rule": Rule, "TerminalDef": TerminalDef}, {})
    table = data["parser"]["parser"]
    ours, lark = parse_table(table, memo), IntParseTable.deserialize(table, memo)
    assert ours.states == lark.states and list(ours.states) == list(lark.states)
    assert all(
        ours.states[s][t][0] is action and ours.states[s][t][1] is arg  # the same rule objects
        for s, actions in lark.states.items()
        for t, (action, arg) in actions.items()
    )
    assert (ours.start_states, ours.end_states) == (lark.start_states, lark.end_states)


def test_the_dsl_parser_rebuilds_its_table_so() -> None:
    assert isinstance(lalr_parser().parser.parser, QuickLALRParser)
