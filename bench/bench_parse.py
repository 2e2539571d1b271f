"""Benchmark: the DSL parse of an N-feature ruleset, and what lark-cython would change of it.

Run: python bench/bench_parse.py [N] [--rounds R] [--quick]

Issue 44 asks whether lark-cython (a Cython LALR parser and lexer for Lark, ``pip install
lark-cython``) pays. Times, in CPU seconds (the minimum of R rounds, the rows in turn in each
round, the collector held off as the parser holds it), on the generated ruleset of
bench/gen_ruleset.py (default 5,000 features):

  parse           the parse as the compiler makes it (:class:`rulesdsl.frontends.dsl.Parser`:
                  Lark's lexer and LALR driver, reducing straight into syntax nodes): the
                  reference of the rows below
  lark + ours     the same minus the text's handling around it (a byte-order mark, the lines
                  kept for recovery after a syntax error, the source file's record): Lark's
                  lexer and driver reducing into the syntax nodes
  lark alone      Lark's lexer and driver with reductions that build nothing
  cython alone    the same with lark-cython's lexer and driver
  cython + ours   lark-cython's lexer and driver reducing into the same syntax nodes; its
                  tokens are not ``str`` (the builder's token checks read them as text), so
                  each is made a Lark token as it is shifted

The lark-cython rows are printed only when it is installed. Nothing is asserted.
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable
from typing import Any

from gen_ruleset import DATA, write
from lark import Lark, Token
from lark.parsers.lalr_parser import _Parser as LarkParser

from rulesdsl.frontends.dsl import Parser, _Builder, lalr_parser, load_grammar
from rulesdsl.gc_pause import gc_paused


def best(rows: dict[str, Callable[[], object]], rounds: int) -> dict[str, float]:
    """The minimum CPU time of each row over ``rounds``, the rows taken in turn in each round
    (a shared machine's load then weighs on all of them alike), after one warm-up call of
    each (scanners compiled, caches filled)."""
    for fn in rows.values():
        fn()
    times: dict[str, float] = {}
    for _ in range(rounds):
        for name, fn in rows.items():
            with gc_paused():
                start = time.process_time()
                fn()
                spent = time.process_time() - start
            times[name] = min(times.get(name, spent), spent)
    return times


def driver_alone(lark: Lark, parser_class: Any, text: str) -> Callable[[], object]:
    """Lark's (or lark-cython's) lexer and LALR driver with reductions that build nothing."""
    callbacks = {rule: (lambda children: None) for rule in lark.rules}
    frontend: Any = lark.parser
    table = frontend.parser._parse_table
    return lambda: parser_class(table, callbacks).parse(frontend._make_lexer_thread(text), "start")


def cython_with_builder(cython: Lark, text: str) -> Callable[[], object]:
    """lark-cython reducing into our syntax nodes: the builder's callbacks, keyed by Lark's
    rules (the same grammar, so the same rules in the same order), with each token made a
    Lark token as it is shifted."""
    from lark_cython import lark_cython

    ours = lalr_parser()
    rules = dict(zip(ours.rules, cython.rules, strict=True))

    def as_lark(t: Any) -> Token:
        return Token(t.type, t.value, t.start_pos, t.line, t.column, t.end_line, t.end_column)

    def run() -> object:
        callbacks: dict[Any, Any] = {}
        for key, callback in _Builder("bench.terrain").callbacks(ours).items():
            if isinstance(key, str):  # a token's own check: given a Lark token
                callbacks[key] = lambda t, check=callback: check(as_lark(t))
            else:
                callbacks[rules[key]] = callback
        for terminal in cython.terminals:
            callbacks.setdefault(terminal.name, as_lark)
        frontend: Any = cython.parser
        parser = lark_cython._Parser(frontend.parser._parse_table, callbacks)
        return parser.parse(frontend._make_lexer_thread(text), "start")

    return run


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("n", type=int, nargs="?", default=5000, help="number of features")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--quick", action="store_true", help="the smoke run CI makes")
    args = parser.parse_args()
    if args.quick:
        args.n, args.rounds = 200, 1
    text = write(args.n, DATA, ("terrain",))["terrain"].read_text("utf-8")
    ours = Parser()
    rows = {
        "parse": lambda: ours.parse(text, "bench.terrain"),
        "lark + ours": lambda: ours._build(text, _Builder("bench.terrain")),
        "lark alone": driver_alone(lalr_parser(), LarkParser, text),
    }
    try:
        import lark_cython
    except ImportError:
        print("lark-cython is not installed: its rows are left out")
    else:
        options: dict[str, Any] = {"propagate_positions": True, "maybe_placeholders": False}
        cython = Lark(load_grammar(), parser="lalr", _plugins=lark_cython.plugins, **options)
        rows["cython alone"] = driver_alone(cython, lark_cython.lark_cython._Parser, text)
        rows["cython + ours"] = cython_with_builder(cython, text)
        built: Any = rows["cython + ours"]()
        same = built.value == ours._build(text, _Builder("bench.terrain"))
        print(f"lark-cython {lark_cython.__version__}: the same syntax nodes: {same}")
    times = best(rows, args.rounds)
    print(f"{args.n:,} features, {len(text):,} characters; CPU, min of {args.rounds} rounds")
    for name, seconds in times.items():
        print(f"{name:<16} {seconds * 1000:9.1f} ms  {seconds / times['parse']:5.2f}x the parse")


if __name__ == "__main__":
    main()
