"""The DSL parser's LALR table, rebuilt from Lark's cache with less Python work (issue 44).

Lark keeps the grammar's built tables in its cache (``cache=True``) and rebuilds the parse
table from them in every process: each of its ~20,000 actions is made in Python, and each of
the ~13,000 reductions goes through ``Rule.deserialize``, which for a rule already rebuilt
(all of them: the cache refers to rules by number) only looks the number up. That was ~15 ms
of every `rulesdsl check`. :class:`QuickLALRParser` (put in place of Lark's through its
``_plugins`` option) rebuilds the same table, looking the numbers up itself: ~7 ms.
"""

from __future__ import annotations

from typing import Any

from lark.grammar import Rule
from lark.parsers.lalr_analysis import IntParseTable, Reduce, Shift
from lark.parsers.lalr_parser import LALR_Parser, _Parser


def parse_table(data: dict[str, Any], memo: dict[int, Any]) -> Any:
    """``IntParseTable.deserialize(data, memo)``: the same states, actions and rules."""
    tokens = data["tokens"]
    states = {
        state: {
            tokens[token]: (
                (Reduce, memo[arg["@"]] if "@" in arg else Rule.deserialize(arg, memo))
                if action == 1
                else (Shift, arg)
            )
            for token, (action, arg) in actions.items()
        }
        for state, actions in data["states"].items()
    }
    start, end = data["start_states"], data["end_states"]
    return IntParseTable(states, start, end)  # type: ignore[no-untyped-call]


class QuickLALRParser(LALR_Parser):
    """Lark's LALR parser, its table rebuilt from the cache by :func:`parse_table`."""

    @classmethod
    def deserialize(  # type: ignore[override]  # Lark's own has these arguments
        cls, data: dict[str, Any], memo: dict[int, Any], callbacks: Any, debug: bool = False
    ) -> QuickLALRParser:
        inst = cls.__new__(cls)
        inst._parse_table = parse_table(data, memo)
        inst.parser = _Parser(inst._parse_table, callbacks, debug)
        return inst
