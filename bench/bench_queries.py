"""Benchmark: how fast the generated modules answer, as ratios to plain Python done in the same run.

Run: python bench/bench_queries.py [--rounds N] [--baseline REV]

Each query is timed against its reference from issue 10 (a ``dict.get`` on a tuple key for
``move_cost``, indexing a list for ``roll``) and, for the questions issue 29 names, against a
hand-written function of the same signature answering from plain dicts (``bench/hand_written.py``),
taking the minimum per call over several rounds with the query and its references interleaved,
so that a busy machine slows all alike. ``--fresh`` compiles the bundled rulesets with this
checkout's compiler instead of reading generated/ (to measure a change before generated/ is
rebuilt).
``--baseline REV`` also loads the modules generated at git revision REV (for example the commit
before a change) and prints how the same queries compare with them: that is how the cost of
argument checking on the hot path is measured.  No thresholds: goals are read, not asserted.
"""

from __future__ import annotations

import argparse
import contextlib
import importlib.util
import subprocess
import sys
import tempfile
import timeit
from pathlib import Path
from types import ModuleType, SimpleNamespace
from typing import NamedTuple

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench import hand_written as hand  # noqa: E402

GENERATED = ROOT / "generated" / "python"


class Query(NamedTuple):
    what: str
    module: str
    code: str
    reference: str
    goal: float | None = None
    """The issue-10 goal for the ratio to the reference, where it sets one."""
    hand: str | None = None
    """The same question asked of the hand-written function (``h``), where issue 29 sets a goal
    against it (HAND_GOAL unless said)."""
    hand_goal: float | None = None


HAND_GOAL = 1.5
"""Issue 29: at most 1.5x a hand-written function of the same signature."""


QUERIES = [
    Query(
        "move_cost, one feature",
        "battletech_tacops",
        'm.move_cost("mech", "light_woods")',
        'd.get(("mech", "light_woods"))',
        3,
        'h.move_cost("mech", "light_woods")',
        1.0,
    ),
    Query(
        "move_cost, three features",
        "battletech_tacops",
        'm.move_cost("mech", "light_woods", "deep_snow", "mud")',
        'd.get(("mech", "light_woods", "deep_snow", "mud"))',
        3,
    ),
    Query(
        "move_cost, distance=3",
        "heavy_gear",
        'm.move_cost("walker", "soft", distance=3)',
        'd.get(("walker", "soft"))',
    ),
    Query(
        "roll(table, total)",
        "battletech_tacops",
        'm.roll("terrain_effects", 11)',
        "rows[total]",
        4,
        'h.roll("terrain_effects", 11)',
        1.0,
    ),
    Query(
        "modifier, 2 items + context",
        "battletech_tacops",
        'm.modifier("to_hit", "light_woods", "blizzard", weapon="ballistic")',
        'd.get(("to_hit", "light_woods", "blizzard", "ballistic"))',
        None,
        'h.modifier("to_hit", "light_woods", "blizzard", weapon="ballistic")',
    ),
    Query(
        "modifier, 1 item (hex defence)",
        "hex_operational",
        'm.modifier("defence", "forest")',
        'd.get(("defence", "forest"))',
        None,
        'h.modifier("defence", "forest")',
    ),
    Query(
        "modifier, 2 items (hex defence)",
        "hex_operational",
        'm.modifier("defence", "forest", "river")',
        'd.get(("defence", "forest", "river"))',
        None,
        'h.modifier("defence", "forest", "river")',
    ),
    Query(
        "results roll, column by name",
        "hex_operational",
        'm.roll("crt", 4, column="odds_3_1")',
        'd.get(("crt", 4, "odds_3_1"))',
        None,
        'h.results_roll("crt", 4, column="odds_3_1")',
    ),
    Query(
        "results roll, column by odds",
        "hex_operational",
        'm.roll("crt", 4, column=2.5)',
        'd.get(("crt", 4, 2.5))',
        None,
        'h.results_roll("crt", 4, column=2.5)',
    ),
    Query(
        "lookup(table, column, row)",
        "d20_movement",
        'm.lookup("flight", "good", "turn")',
        'd.get(("flight", "good", "turn"))',
        None,
        'h.lookup("flight", "good", "turn")',
    ),
    Query(
        "floor: a call doing nothing", "heavy_gear", 'nothing("terrain_effects", 11)', "rows[total]"
    ),
    Query("step climb(1)", "heavy_gear", "m.climb(1)", "rows[total]"),
    Query("step light_concealment(5)", "heavy_gear", "m.light_concealment(5)", "rows[total]"),
    Query("decision lock(...)", "heavy_gear", "m.lock(False, 3, 1, 6, 2)", "rows[total]"),
    Query(
        "decision sight_in_cover(...)",
        "generic_wargame",
        'm.sight_in_cover("light", 12)',
        "rows[total]",
    ),
    Query(
        "decision flying_move(...)",
        "d20_movement",
        'm.flying_move("good", False, False, 90, 10, 0, 30, 0, 0, False, 0)',
        "rows[total]",
    ),
]


def nothing(table: object, total: object) -> object:
    """The floor of any generated function: one Python call that does no work."""
    return table


REFERENCE_DATA = {
    "nothing": nothing,
    "d": {
        ("mech", "light_woods"): 2,
        ("mech", "light_woods", "deep_snow", "mud"): 5,
        ("walker", "soft"): 2,
        ("to_hit", "light_woods", "blizzard", "ballistic"): 2,
        ("defence", "forest"): -1,
        ("defence", "forest", "river"): -2,
        ("crt", 4, "odds_3_1"): "dr",
        ("crt", 4, 2.5): "dr",
        ("flight", "good", "turn"): 90,
    },
    "rows": list(range(20)),
    "total": 11,
}


def load(path: Path, name: str) -> ModuleType:
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


def per_call(code: str, env: dict[str, object], number: int) -> float:
    """Seconds per call of one timing run."""
    return timeit.timeit(code, globals=env, number=number) / number


def hand_written(module: ModuleType) -> SimpleNamespace:
    """The hand-written functions answering ``module``'s questions (bench/hand_written.py)."""
    parts = {
        "move_cost": hand.move_cost,
        "roll": hand.dice_roll,
        "modifier": hand.modifier,
        "lookup": hand.lookup,
        "results_roll": hand.results_roll,
    }
    made = {}
    for name, make in parts.items():
        with contextlib.suppress(AttributeError):  # no such data (no results tables)
            made[name] = make(module)
    return SimpleNamespace(**made)


def fresh_dir(into: Path) -> Path:
    """The bundled rulesets' modules compiled by this checkout, written to ``into``."""
    from rulesdsl.codegen.targets import render_python as render
    from rulesdsl.compiler import Compiler

    compiler = Compiler()
    for name in {q.module for q in QUERIES}:
        compiled = compiler.compile_file(ROOT / "rulesets" / f"{name}.terrain")
        assert compiled.ruleset is not None
        (into / f"{name}.py").write_text(render(compiled.ruleset), "utf-8")
    return into


def baseline_dir(rev: str, into: Path) -> Path:
    """generated/python as of git revision ``rev``, written to ``into``."""
    for name in {q.module for q in QUERIES}:
        text = subprocess.run(
            ["git", "show", f"{rev}:generated/python/{name}.py"],
            cwd=ROOT,
            check=True,
            capture_output=True,
            text=True,
        ).stdout
        (into / f"{name}.py").write_text(text, "utf-8")
    return into


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--rounds", type=int, default=100)
    parser.add_argument("--number", type=int, default=2_000, help="calls per timing run")
    parser.add_argument("--baseline", metavar="REV", help="compare with modules generated at REV")
    parser.add_argument(
        "--fresh", action="store_true", help="compile the modules instead of reading generated/"
    )
    parser.add_argument(
        "--quick", action="store_true", help="the smoke run CI makes (tests/test_bench.py)"
    )
    args = parser.parse_args()
    if args.quick:
        args.rounds, args.number = 1, 20

    old: dict[str, ModuleType] = {}
    with tempfile.TemporaryDirectory() as tmp, tempfile.TemporaryDirectory() as tmp_fresh:
        source = fresh_dir(Path(tmp_fresh)) if args.fresh else GENERATED
        modules = {q.module: load(source / f"{q.module}.py", f"bench_{q.module}") for q in QUERIES}
        hands = {name: hand_written(module) for name, module in modules.items()}
        if args.baseline:
            where = baseline_dir(args.baseline, Path(tmp))
            old = {name: load(where / f"{name}.py", f"baseline_{name}") for name in modules}
        best: dict[tuple[int, str], float] = {}
        for _ in range(args.rounds):  # interleaved: each round times everything once
            for i, q in enumerate(QUERIES):
                runs = {
                    "new": (q.code, {"m": modules[q.module], "nothing": nothing}),
                    "ref": (q.reference, dict(REFERENCE_DATA)),
                }
                if q.hand:
                    runs["hand"] = (q.hand, {"h": hands[q.module]})
                if q.module in old:
                    runs["old"] = (q.code, {"m": old[q.module], "nothing": nothing})
                for kind, (code, env) in runs.items():
                    seconds = per_call(code, env, args.number)
                    best[i, kind] = min(best.get((i, kind), seconds), seconds)

    print(f"min of {args.rounds} rounds of {args.number} calls; ratio = query / reference")
    header = f"{'query':<32} {'ns':>6} {'reference':>22} {'ns':>5} {'ratio':>6} {'goal':>5}"
    header += f" {'hand ns':>7} {'ratio':>6} {'goal':>5}"
    if old:
        header += f" {'was ns':>7} {'now/was':>7}"
    print(header)
    for i, q in enumerate(QUERIES):
        new, ref = best[i, "new"] * 1e9, best[i, "ref"] * 1e9
        goal = f"{q.goal:g}x" if q.goal else ""
        short = q.reference if len(q.reference) <= 22 else "d.get(tuple key)"
        line = f"{q.what:<32} {new:6.0f} {short:>22} {ref:5.0f} {new / ref:5.1f}x {goal:>5}"
        if (i, "hand") in best:
            by_hand = best[i, "hand"] * 1e9
            line += f" {by_hand:7.0f} {new / by_hand:5.2f}x {q.hand_goal or HAND_GOAL:4g}x"
        else:
            line += " " * 21
        if (i, "old") in best:
            was = best[i, "old"] * 1e9
            line += f" {was:7.0f} {new / was:6.2f}x"
        print(line)


if __name__ == "__main__":
    main()
