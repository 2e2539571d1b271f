"""Benchmark: importing a generated module, against a module holding the same data as literals.

Run: python bench/bench_import.py [--rounds N] [--baseline REV]

For each module in generated/python/, a twin is written that holds the same data (modes,
features, tables, dice tables, ...) as plain literals: dicts, tuples, strings and numbers, no
classes and no imports. Both are compiled to bytecode first, then imported in fresh interpreters
(``python -I -X importtime``), alternating; the figure is the module's own time (its imports of
the standard library are listed apart by -X importtime and left out), the minimum over the
rounds. Issue 10's goal: at most 2x. ``--baseline REV`` also times the modules generated at git
revision REV, for a before/after figure. ``--fresh`` compiles the bundled rulesets with this
checkout's compiler instead of reading generated/ (to measure a change to the module template
before generated/ is rebuilt); ``--only NAME ...`` times those modules alone. ``--parts`` also
prints, for each module, where its import goes in this process: reading its bytecode
(``marshal.loads``) and running its top-level statements by kind (classes, data, functions),
each the minimum of the rounds; the literal twin's are printed beside them.
"""

from __future__ import annotations
import __future__

import argparse
import ast
import importlib.util
import marshal
import py_compile
import shutil
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Mapping
from fractions import Fraction
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parent.parent
GENERATED = ROOT / "generated" / "python"
DATA = [
    "RULESET",
    "ENTRY_COST",
    "MINIMUM_MOVE",
    "MODES",
    "GROUPS",
    "LAYERS",
    "FEATURES",
    "CONTEXTS",
    "MODIFIERS",
    "TABLES",
    "DICE_TABLES",
    "TRIGGERS",
    "EXCLUSIONS",
    "PARAMS",
    "GRID_SIZES",
    "GRID_DIAGONALS",
]
"""The data every generated module declares (the public constants of docs/module-api.md)."""


def plain(value: object) -> object:
    """The same data with no class of the module: records as tuples, mappings as dicts."""
    if type(value).__name__ == "Marker":
        return value.name  # type: ignore[attr-defined]
    if isinstance(value, Fraction):
        return (value.numerator, value.denominator)
    if isinstance(value, bool | int | str) or value is None:
        return value
    if isinstance(value, float):
        return float(value)  # a Quantity becomes its number
    if isinstance(value, Mapping):
        return {plain(k): plain(v) for k, v in value.items()}
    if isinstance(value, frozenset):
        return tuple(sorted(plain(v) for v in value))  # type: ignore[type-var]
    if isinstance(value, tuple | list):
        return tuple(plain(v) for v in value)
    raise TypeError(f"no literal for {value!r}")


def literal_twin(module: ModuleType) -> str:
    lines = ['"""The data of a generated module as plain literals (bench/bench_import.py)."""', ""]
    for name in DATA:
        lines.append(f"{name} = {plain(getattr(module, name))!r}")
    return "\n".join(lines) + "\n"


def load(path: Path) -> ModuleType:
    spec = importlib.util.spec_from_file_location(f"bench_{path.stem}", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def own_import_us(directory: Path, name: str) -> int:
    """The module's own import time, in microseconds, from ``-X importtime``."""
    result = subprocess.run(
        [
            sys.executable,
            "-I",
            "-X",
            "importtime",
            "-c",
            f"import sys; sys.path.insert(0, '.'); import {name}",
        ],
        cwd=directory,
        check=True,
        capture_output=True,
        text=True,
    )
    for line in result.stderr.splitlines():
        fields = [f.strip() for f in line.removeprefix("import time:").split("|")]
        if len(fields) == 3 and fields[2] == name:
            return int(fields[0])
    raise RuntimeError(f"no import time for {name}: {result.stderr[-500:]}")


KINDS = {"ClassDef": "classes", "FunctionDef": "functions", "AnnAssign": "data", "Assign": "data"}


def parts_us(path: Path, rounds: int) -> dict[str, float]:
    """Microseconds of one import of ``path`` in this process, by part: ``marshal.loads`` of
    its bytecode, then its top-level statements run one by one in a fresh namespace, grouped
    by kind (the minimum of ``rounds`` for each statement; the first run is a warm-up)."""
    source = path.read_text("utf-8")
    flags = __future__.annotations.compiler_flag
    data = marshal.dumps(compile(source, str(path), "exec", flags=flags, dont_inherit=True))
    statements = [
        (
            KINDS.get(type(node).__name__, "other"),
            compile(ast.Module([node], []), str(path), "exec", flags=flags, dont_inherit=True),
        )
        for node in ast.parse(source).body
    ]
    best: dict[int, int] = {}
    read = []
    for _ in range(rounds + 1):
        start = time.perf_counter_ns()
        marshal.loads(data)
        read.append(time.perf_counter_ns() - start)
        namespace: dict[str, object] = {"__name__": f"bench_parts_{path.stem}"}
        for i, (_, code) in enumerate(statements):
            start = time.perf_counter_ns()
            exec(code, namespace)
            best[i] = min(best.get(i, 1 << 62), time.perf_counter_ns() - start)
    out: Counter[str] = Counter({"bytecode": min(read[1:]) / 1000})
    for i, (kind, _) in enumerate(statements):
        out[kind] += best[i] / 1000
    return dict(out)


def modules(fresh: Path | None, only: list[str] | None) -> list[Path]:
    """The generated modules (not their example tests), from generated/ or compiled afresh
    into ``fresh`` by this checkout."""
    names = only or sorted(p.stem for p in GENERATED.glob("*.py") if not p.name.startswith("test_"))
    if fresh is None:
        return [GENERATED / f"{name}.py" for name in names]
    from rulesdsl.codegen.targets import render_python as render
    from rulesdsl.compiler import Compiler

    compiler = Compiler()
    paths = []
    for name in names:
        compiled = compiler.compile_file(ROOT / "rulesets" / f"{name}.terrain")
        assert compiled.ruleset is not None
        paths.append(fresh / f"{name}.py")
        paths[-1].write_text(render(compiled.ruleset), "utf-8")
    return paths


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--rounds", type=int, default=15)
    parser.add_argument("--baseline", metavar="REV", help="also time modules generated at REV")
    parser.add_argument(
        "--fresh", action="store_true", help="compile the modules instead of reading generated/"
    )
    parser.add_argument("--only", nargs="+", metavar="NAME", help="these modules alone")
    parser.add_argument("--parts", action="store_true", help="where each import goes, by part")
    parser.add_argument(
        "--quick", action="store_true", help="the smoke run CI makes (tests/test_bench.py)"
    )
    args = parser.parse_args()
    if args.quick:
        args.rounds, args.only, args.parts = 1, args.only or ["heavy_gear"], True
    with tempfile.TemporaryDirectory() as tmp, tempfile.TemporaryDirectory() as tmp_fresh:
        where = Path(tmp)
        names = []
        for path in modules(Path(tmp_fresh) if args.fresh else None, args.only):
            shutil.copy(path, where / path.name)
            twin = where / f"{path.stem}_literals.py"
            twin.write_text(literal_twin(load(path)), "utf-8")
            for source in (where / path.name, twin):
                py_compile.compile(
                    str(source),
                    doraise=True,
                    invalidation_mode=py_compile.PycInvalidationMode.UNCHECKED_HASH,
                )
            names.append(path.stem)
            if args.parts:
                for what, parts in (
                    ("generated", parts_us(path, args.rounds)),
                    ("literals", parts_us(twin, args.rounds)),
                ):
                    total = sum(parts.values())
                    shares = ", ".join(
                        f"{k} {v:.0f} us ({v / total:.0%})"
                        for k, v in sorted(parts.items(), key=lambda kv: -kv[1])
                    )
                    print(f"{path.stem} {what}, in process: {total:.0f} us: {shares}")
            if args.baseline:
                old = subprocess.run(
                    ["git", "show", f"{args.baseline}:generated/python/{path.name}"],
                    cwd=ROOT,
                    check=True,
                    capture_output=True,
                    text=True,
                ).stdout
                (where / f"{path.stem}_baseline.py").write_text(old, "utf-8")
                py_compile.compile(
                    str(where / f"{path.stem}_baseline.py"),
                    doraise=True,
                    invalidation_mode=py_compile.PycInvalidationMode.UNCHECKED_HASH,
                )
        kinds = ["", "_literals", *(["_baseline"] if args.baseline else [])]
        best: dict[str, int] = {}
        for _ in range(args.rounds):
            for name in names:
                for module in (f"{name}{kind}" for kind in kinds):
                    us = own_import_us(where, module)
                    best[module] = min(best.get(module, us), us)
    print(f"own import time (-X importtime), min of {args.rounds} rounds, bytecode cached")
    print(
        f"{'module':<28} {'generated':>10} {'literals':>9} {'ratio':>6}  (goal <= 2x)"
        + (f" {'baseline':>9} {'ratio':>6}" if args.baseline else "")
    )
    for name in names:
        gen, lit = best[name], best[f"{name}_literals"]
        line = f"{name:<28} {gen:>7} us {lit:>6} us {gen / lit:5.1f}x"
        if args.baseline:
            old = best[f"{name}_baseline"]
            line += f"       {old:>6} us {old / lit:5.1f}x"
        print(line)


if __name__ == "__main__":
    main()
