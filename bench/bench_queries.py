"""Benchmark: how fast the generated modules answer, as ratios to plain Python done in the same run.

Run: python bench/bench_queries.py [--rounds N] [--baseline REV]

Each query is timed against its reference from issue 10 (a ``dict.get`` on a tuple key for
``move_cost``, indexing a list for ``roll``), taking the minimum per call over several rounds
with the query and its reference interleaved, so that a busy machine slows both alike.
``--baseline REV`` also loads the modules generated at git revision REV (for example the commit
before a change) and prints how the same queries compare with them: that is how the cost of
argument checking on the hot path is measured.  No thresholds: goals are read, not asserted.
"""

from __future__ import annotations

import argparse
import importlib.util
import subprocess
import sys
import tempfile
import timeit
from pathlib import Path
from types import ModuleType
from typing import NamedTuple

ROOT = Path(__file__).resolve().parent.parent
GENERATED = ROOT / "generated" / "python"


class Query(NamedTuple):
    what: str
    module: str
    code: str
    reference: str
    goal: float | None = None
    """The issue-10 goal for the ratio to the reference, where it sets one."""


QUERIES = [
    Query(
        "move_cost, one feature",
        "battletech_tacops",
        'm.move_cost("mech", "light_woods")',
        'd.get(("mech", "light_woods"))',
        3,
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
        "roll(table, total)", "battletech_tacops", 'm.roll("terrain_effects", 11)', "rows[total]", 4
    ),
    Query(
        "modifier with context",
        "battletech_tacops",
        'm.modifier("to_hit", "light_woods", "blizzard", weapon="ballistic")',
        'd.get(("to_hit", "light_woods", "blizzard", "ballistic"))',
    ),
    Query(
        "lookup(table, column, row)",
        "d20_movement",
        'm.lookup("flight", "good", "turn")',
        'd.get(("flight", "good", "turn"))',
    ),
    Query(
        "floor: a call doing nothing", "heavy_gear", 'nothing("terrain_effects", 11)', "rows[total]"
    ),
    Query("step climb(1)", "heavy_gear", "m.climb(1)", "rows[total]"),
    Query("step light_concealment(5)", "heavy_gear", "m.light_concealment(5)", "rows[total]"),
    Query("decision lock(...)", "heavy_gear", "m.lock(False, 3, 1, 6, 2)", "rows[total]"),
    Query(
        "decision line_of_sight(...)",
        "generic_wargame",
        'm.line_of_sight("light", 12)',
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
    args = parser.parse_args()

    modules = {q.module: load(GENERATED / f"{q.module}.py", f"bench_{q.module}") for q in QUERIES}
    old: dict[str, ModuleType] = {}
    with tempfile.TemporaryDirectory() as tmp:
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
                if q.module in old:
                    runs["old"] = (q.code, {"m": old[q.module], "nothing": nothing})
                for kind, (code, env) in runs.items():
                    seconds = per_call(code, env, args.number)
                    best[i, kind] = min(best.get((i, kind), seconds), seconds)

    print(f"min of {args.rounds} rounds of {args.number} calls; ratio = query / reference")
    header = f"{'query':<30} {'ns':>7} {'reference':>44} {'ns':>6} {'ratio':>6} {'goal':>5}"
    if old:
        header += f" {'was ns':>7} {'now/was':>7}"
    print(header)
    for i, q in enumerate(QUERIES):
        new, ref = best[i, "new"] * 1e9, best[i, "ref"] * 1e9
        goal = f"{q.goal:g}x" if q.goal else ""
        line = f"{q.what:<30} {new:7.0f} {q.reference:>44} {ref:6.0f} {new / ref:5.1f}x {goal:>5}"
        if (i, "old") in best:
            was = best[i, "old"] * 1e9
            line += f" {was:7.0f} {new / was:6.2f}x"
        print(line)


if __name__ == "__main__":
    main()
