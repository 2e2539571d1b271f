"""Benchmark: the DSL parse, and compile + module, on today's parser, lark-cython's and Lark's
standalone parser (issue 44: "adopt what pays").

Run: python bench/bench_parse.py [N] [--rounds R] [--quick] [--only PART ...]

The contenders (bench/lark_variants.py), each reducing straight into the same syntax nodes
with the same builder:

  today's      rulesdsl.frontends.dsl.Parser: Lark's contextual lexer and LALR driver fused
               into one loop over Lark's table (rulesdsl.frontends.dsl_driver), in Python
  lark-cython  lark-cython's contextual lexer and driver (``pip install lark-cython``: a wheel
               for CPython 3.11 on Linux, no compiler needed) over the same parse table; its
               tokens are not ``str``, so each token the builder keeps is made a Lark token
  standalone   the module ``python -m lark.tools.standalone`` writes from the grammar (into a
               temporary folder), its lexer and driver

Parts (names for --only), CPU time over R rounds, the contenders taken in turn in each round
(a shared machine's load then weighs on all of them alike), after a warm-up; each row prints
its minimum and its ratios to a reference row, of the minimums and paired (the median of the
ratios round by round):

  same      whether each contender gives today's syntax tree and diagnostics (positions
            included) on the N-feature file, every bundled .terrain ruleset, and broken copies
            of three of them (a stray character, a stray token on every ninth line, a control
            character in a string, a number too large, the last '}' dropped)
  parse     the N-feature file (bench/gen_ruleset.py) and heavy_gear: each contender against
            today's, and today's (fused), Lark's and lark-cython's lexer and driver alone
            (reductions that build nothing): what an engine alone costs
  compile   compile + Python module (``Compiler`` with each parser) of heavy_gear, against
            today's, and of the N-feature file, against CSafeLoader loading its YAML
            authoring twin (issue 44's reference) and against today's; with today's lexer
            and driver alone timed in the same rounds, what would be left with an engine that
            cost nothing
  fresh     heavy_gear parsed in a new interpreter (imports, the parser's load, the parse),
            today's and lark-cython; and a new interpreter that only loads Lark's parser
            from its cache, or only the standalone module (its parse is Lark's Python code:
            what it would change is the load)

Contenders not installed are left out. --quick is the smoke run CI makes: 20 features, one
round and no warm-up, heavy_gear alone of the bundled rulesets in ``same``, no standalone
parser and no fresh process. Nothing is asserted.
"""

from __future__ import annotations

import argparse
import os
import re
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from gen_ruleset import DATA, write
from lark import Lark
from lark.parsers.lalr_parser import _Parser as LarkParser
from lark_variants import ROOT, CythonParser, StandaloneParser, load_standalone, write_standalone

from rulesdsl.frontends.dsl import Parser, lalr_parser
from rulesdsl.gc_pause import gc_paused

HEAVY_GEAR = ROOT / "rulesets" / "heavy_gear.terrain"
BROKEN_FROM = ("heavy_gear", "battletech_tacops", "void_patrol")
WARM_UP = True


def best(
    rows: dict[str, Callable[[], object]],
    rounds: int,
    clock: Callable[[], float] = time.process_time,
) -> dict[str, list[float]]:
    """Each row's times on ``clock`` over ``rounds``, the rows taken in turn in each round,
    each round starting one row further on (no row is always first), after one warm-up call
    of each (scanners compiled, caches filled) unless --quick."""
    for fn in rows.values() if WARM_UP else ():
        fn()
    times: dict[str, list[float]] = {name: [] for name in rows}
    order = list(rows.items())
    for k in range(rounds):
        for name, fn in order[k % len(order) :] + order[: k % len(order)]:
            start = clock()
            fn()
            times[name].append(clock() - start)
    return times


def show(times: dict[str, list[float]], *against: str) -> None:
    """Each row's minimum, and its ratio to each row of ``against``: the ratio of the
    minimums, and the median of the ratios round by round (the machine's load moves both
    rows of a round alike)."""
    for name, samples in times.items():
        ratios = []
        for ref in against:
            paired = statistics.median(a / b for a, b in zip(samples, times[ref], strict=True))
            ratios.append(
                f"{min(samples) / min(times[ref]):5.2f}x {ref.split(',')[0]} (paired {paired:.2f}x)"
            )
        print(f"  {name:<34} {min(samples) * 1000:9.1f} ms  {'  '.join(ratios)}", flush=True)


def contenders(standalone: Path | None) -> dict[str, Parser]:
    out: dict[str, Parser] = {"today's": Parser()}
    try:
        out["lark-cython"] = CythonParser()
    except ImportError:
        print("lark-cython is not installed: its rows are left out")
    if standalone is not None:
        out["standalone"] = StandaloneParser(load_standalone(standalone))
    return out


def broken(text: str) -> list[str]:
    """Copies of ``text`` with syntax errors of each kind the parser reports."""
    lines = text.split("\n")
    every_ninth = [
        f"{line} )" if i % 9 == 4 and line.strip() else line for i, line in enumerate(lines)
    ]
    stray = list(lines)
    stray[len(lines) // 2] += " 'x'"
    last = text.rfind("}")
    quote = text.find('"', text.find("\n"))
    cell = re.search(r"\| (\d)", text)  # a number in a table's row
    digit = cell.start(1) if cell is not None else 0
    return [
        "\n".join(stray),
        "\n".join(every_ninth),
        text[: quote + 1] + "\\u0001" + text[quote + 1 :],
        text[:digit] + "9" * 400 + text[digit:],
        text[:last] + text[last + 1 :],
    ]


def same(parsers: dict[str, Parser], big: str, rulesets: list[Path]) -> None:
    texts = [("bench.terrain", big)]
    for path in rulesets:
        text = path.read_text("utf-8")
        texts.append((path.name, text))
        if path.stem in BROKEN_FROM:
            texts += [(path.name, t) for t in broken(text)]
    today = parsers["today's"]
    expected = [today.parse(text, path) for path, text in texts]
    errors = sum(len(diagnostics) for _, diagnostics in expected)
    print(f"same: {len(texts)} files, {errors} diagnostics from today's parser")
    for name, parser in parsers.items():
        got = [parser.parse(text, path) for path, text in texts]
        trees = all(a[0] == b[0] for a, b in zip(got, expected, strict=True))
        diagnostics = all(a[1] == b[1] for a, b in zip(got, expected, strict=True))
        print(f"  {name:<12} the same syntax trees: {trees}; the same diagnostics: {diagnostics}")


def engine_alone(
    lark: Lark, parser_class: Any, make_thread: Callable[[str], Any], text: str
) -> Callable[[], object]:
    """A lexer and LALR driver with reductions that build nothing."""
    callbacks = {rule: (lambda children: None) for rule in lark.rules}
    table = lark.parser.parser._parse_table
    return lambda: parser_class(table, callbacks).parse(make_thread(text), "start")


def fused_alone(lark: Lark, text: str) -> Callable[[], object]:
    """Today's lexer and driver (fused) with reductions that build nothing."""
    from rulesdsl.frontends.dsl_driver import Fused

    fused = Fused(lark, {rule: (lambda children: None) for rule in lark.rules})
    return lambda: fused.parse(text)


def gc_paused_call(fn: Callable[[], object]) -> object:
    with gc_paused():
        return fn()


def bench_parse(parsers: dict[str, Parser], texts: dict[str, str], rounds: int) -> None:
    lark: Any = parsers["today's"]._lark
    for label, text in texts.items():
        rows: dict[str, Callable[[], object]] = {
            name: (lambda p=p, t=text: p.parse(t, "bench.terrain")) for name, p in parsers.items()
        }
        rows["today's alone (lexer and driver)"] = fused_alone(lark, text)
        rows["lark alone (lexer and driver)"] = engine_alone(
            lark, LarkParser, lark.parser._make_lexer_thread, text
        )
        cython: Any = parsers.get("lark-cython")
        if cython is not None:
            rows["lark-cython alone"] = engine_alone(
                lark,
                cython._cython._Parser,
                lambda t, c=cython: c._cython.LexerThread.from_text(c._lexer, t),
                text,
            )
        with gc_paused():  # as the parser holds it
            times = best(rows, rounds)
        print(f"parse, {label} ({len(text):,} characters), CPU, min of {rounds} rounds:")
        show(times, "today's")


def compile_with(parser: Parser, path: Path) -> Callable[[], None]:
    """Compile + Python module of ``path``, the compiler parsing with ``parser``."""
    from rulesdsl.codegen.targets import render_python
    from rulesdsl.compiler import Compiler
    from rulesdsl.sources import Limits

    def call() -> None:
        compiler = Compiler(Limits(file_bytes=64 << 20))
        compiler._parser = parser
        compiler.parsed_texts = None  # parsed by this parser, every round
        compiled = compiler.compile_file(path)
        assert compiled.ok and compiled.ruleset is not None
        render_python(compiled.ruleset)

    return call


def bench_compile(parsers: dict[str, Parser], n: int, rounds: int) -> None:
    import yaml

    paths = write(n, DATA, ("yaml",))
    twin = paths["yaml"]
    small = {name: compile_with(parser, HEAVY_GEAR) for name, parser in parsers.items()}
    times = best(small, rounds)
    print(f"compile + module, heavy_gear, CPU, min of {rounds} rounds:")
    show(times, "today's")
    rows: dict[str, Callable[[], object]] = {
        "CSafeLoader, the YAML twin": lambda: yaml.load(
            twin.read_text("utf-8"), Loader=yaml.CSafeLoader
        )
    }
    rows.update({name: compile_with(parser, paths["terrain"]) for name, parser in parsers.items()})
    lark: Any = parsers["today's"]._lark
    text = paths["terrain"].read_text("utf-8")
    engine = fused_alone(lark, text)
    rows["today's alone (lexer and driver)"] = lambda: gc_paused_call(engine)
    times = best(rows, rounds)
    print(
        f"compile + module, {n:,} features, CPU, min of {rounds} rounds (goal <= 2x CSafeLoader):"
    )
    show(times, "CSafeLoader, the YAML twin", "today's")
    rest = min(times["today's"]) - min(times["today's alone (lexer and driver)"])
    ratio = rest / min(times["CSafeLoader, the YAML twin"])
    print(f"  today's less its lexer and driver: {rest * 1000:.1f} ms, {ratio:.2f}x CSafeLoader")
    print("  (what compile + module would cost with a lexer and driver that cost nothing)")


def bench_fresh(names: list[str], standalone: Path | None, rounds: int) -> None:
    def child(name: str) -> Callable[[], None]:
        argv = [sys.executable, __file__, "--child", name, "--standalone", str(standalone)]
        return lambda: subprocess.run(argv, check=True)

    def children() -> float:
        usage = resource.getrusage(resource.RUSAGE_CHILDREN)
        return usage.ru_utime + usage.ru_stime

    rows: dict[str, Callable[[], object]] = {name: child(name) for name in names}
    times = best(rows, rounds, clock=children)  # the warm-up writes .pyc files, fills caches
    print(f"fresh process: heavy_gear parsed in a new interpreter, CPU, min of {rounds} rounds:")
    show(times, "today's")


def run_child(name: str, standalone: str) -> None:
    """One row of the fresh-process part, in the new interpreter it runs in."""
    match name:
        case "today's":
            parser: Parser = Parser()
        case "lark-cython":
            parser = CythonParser()
        case "Lark's parser loaded from its cache":
            lalr_parser()
            return
        case "the standalone module loaded":
            load_standalone(Path(standalone)).Lark_StandAlone()
            return
    _, diagnostics = parser.parse(HEAVY_GEAR.read_text("utf-8"), str(HEAVY_GEAR))
    assert not diagnostics


PARTS = ("same", "parse", "compile", "fresh")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("n", type=int, nargs="?", default=5000, help="number of features")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--quick", action="store_true", help="the smoke run CI makes")
    parser.add_argument("--only", nargs="+", choices=PARTS, default=PARTS, metavar="PART")
    parser.add_argument("--child", help=argparse.SUPPRESS)
    parser.add_argument("--standalone", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        run_child(args.child, args.standalone)
        return
    if args.quick:
        global WARM_UP
        args.n, args.rounds, WARM_UP = 20, 1, False
    print(f"python {sys.version.split()[0]}, load average {os.getloadavg()}", flush=True)
    with tempfile.TemporaryDirectory() as folder:
        standalone = None if args.quick else write_standalone(Path(folder))
        parsers = contenders(standalone)
        big = write(args.n, DATA, ("terrain",))["terrain"].read_text("utf-8")
        if "same" in args.only and len(parsers) > 1:
            bundled = sorted((ROOT / "rulesets").glob("*.terrain"))
            same(parsers, big, [HEAVY_GEAR] if args.quick else bundled)
        if "parse" in args.only:
            texts = {f"{args.n:,} features": big, "heavy_gear": HEAVY_GEAR.read_text("utf-8")}
            bench_parse(parsers, texts, args.rounds)
        if "compile" in args.only:
            bench_compile(parsers, args.n, args.rounds)
        if "fresh" in args.only and not args.quick:
            loads = ["Lark's parser loaded from its cache", "the standalone module loaded"]
            rows = [name for name in parsers if name != "standalone"]
            bench_fresh([*rows, *loads], standalone, max(args.rounds, 5))
    print(f"load average {os.getloadavg()}")


if __name__ == "__main__":
    main()
