"""Run by tests/test_closed_unions.py in a copy of the package whose unions each have a throwaway
member (``throwaway_<union>``, a word; ``Throwaway<Union>``, a class): one ``mypy --strict`` run
that keeps the type of every expression, then an import of the modules that build total
mappings. It prints, as JSON lines:

- ``["named", module, line, union, function]``: mypy reports the union's throwaway there, in
  ``function`` (its qualified name in the module; ``""`` at module level);
- ``["total", module, line, union]``: importing the module raised ``words.NotTotal`` for the
  union, in a ``total(...)`` call written there;
- ``["read", module, line, union, how, function]``: the module examines a value that may be the
  throwaway, in ``function`` (see
  :func:`tests.test_closed_unions.test_every_reader_of_a_closed_union_is_named` for the rule).

Usage: ``python -m tests.union_probe COPY_ROOT CONFIG CACHE`` (COPY_ROOT holds ``rulesdsl/``).
"""

from __future__ import annotations

import importlib
import json
import os
import re
import sys
import traceback
from collections.abc import Iterator
from pathlib import Path

from mypy import build
from mypy.main import process_options
from mypy.nodes import (
    GDEF,
    CallExpr,
    ComparisonExpr,
    Expression,
    FuncDef,
    IndexExpr,
    ListExpr,
    MatchStmt,
    MemberExpr,
    NameExpr,
    Node,
    OpExpr,
    RefExpr,
    SetExpr,
    StrExpr,
    TupleExpr,
    Var,
)
from mypy.options import Options
from mypy.types import Instance, LiteralType, TupleType, Type, UnionType, get_proper_type

TOTAL = "rulesdsl.words.Total"
"""A mapping built by ``words.total``: it has every member's key, checked at import."""


def throwaways(typ: Type | None) -> Iterator[str]:
    """The unions whose throwaway member a value of this type may be (lower-case names)."""
    typ = get_proper_type(typ)
    if isinstance(typ, UnionType | TupleType):
        for item in typ.items:
            yield from throwaways(item)
    elif isinstance(typ, LiteralType) and isinstance(typ.value, str):
        if typ.value.startswith("throwaway_"):
            yield typ.value.removeprefix("throwaway_")
    elif isinstance(typ, Instance):
        if typ.type.name.startswith("Throwaway"):
            yield typ.type.name.removeprefix("Throwaway").lower()
        elif typ.last_known_value is not None:
            yield from throwaways(typ.last_known_value)


def _words(expr: Expression) -> bool:
    """A word, or a display of words: what a comparison picks members by."""
    if isinstance(expr, StrExpr):
        return True
    if isinstance(expr, TupleExpr | ListExpr | SetExpr):
        return bool(expr.items) and all(isinstance(e, StrExpr) for e in expr.items)
    return False


CHILDREN = (
    "defs", "body", "else_body", "finally_body", "handlers", "items", "func", "expr", "exprs",
    "lvalues", "lvalue", "rvalue", "msg", "from_expr", "callee", "args", "left", "right",
    "operands", "base", "index", "subject", "guards", "bodies", "cond", "if_expr", "else_expr",
    "left_expr", "sequences", "condlists", "generator", "key", "value", "target", "begin_index",
    "end_index", "stride",
)  # fmt: skip
"""The attributes of mypy's nodes that hold the statements and expressions below them (its
visitors are compiled and cannot be subclassed here)."""

_FIELDS: dict[type, tuple[str, ...]] = {}
"""Per class of node, the names of :data:`CHILDREN` it declares: a node has a handful of the 35,
and asking each node for all 35 was most of the walk's time (issue 44)."""


def _children(node: Node) -> tuple[str, ...]:
    """The names of :data:`CHILDREN` a node of this class may hold: those its class (compiled by
    mypyc: each attribute a descriptor of the class) declares; all of them for a class whose
    nodes keep attributes of their own (``__dict__``), which the class cannot tell."""
    kind = type(node)
    names = _FIELDS.get(kind)
    if names is None:
        if hasattr(node, "__dict__"):
            return CHILDREN
        declared = {name for klass in kind.__mro__ for name in vars(klass)}
        names = _FIELDS[kind] = tuple(name for name in CHILDREN if name in declared)
    return names


def _key(expr: Expression) -> str | None:
    """A name for the value a test examines (``v``, ``value.kind``); None for anything else."""
    if isinstance(expr, NameExpr):
        return expr.name
    if isinstance(expr, MemberExpr):
        base = _key(expr.expr)
        return None if base is None else f"{base}.{expr.name}"
    return None


def _named(expr: Expression) -> frozenset[str]:
    """What a test names: the words of a display, the classes of ``isinstance``, a constant."""
    if isinstance(expr, StrExpr):
        return frozenset({expr.value})
    if isinstance(expr, TupleExpr | ListExpr | SetExpr):
        return frozenset().union(*(_named(e) for e in expr.items))
    if isinstance(expr, OpExpr) and expr.op == "|":
        return _named(expr.left) | _named(expr.right)
    if isinstance(expr, RefExpr):
        return frozenset({expr.fullname})
    return frozenset({f"<{expr.line}:{expr.column}>"})


class Reads:
    """The places of one module that examine a value of a union: each a line, the union, how,
    and the function it is in (the tests are grouped by function and by the value tested).
    Also the span of every function, to tell which function a mypy error is in."""

    def __init__(self, types: dict[Expression, Type], module: str) -> None:
        self.types = types
        self.prefix = module + "."
        self.found: list[tuple[int, str, str, str]] = []
        self.tests: dict[tuple[str, str, str], list[tuple[int, str, frozenset[str]]]] = {}
        self.seen: set[int] = set()
        self.function = ""
        self.spans: list[tuple[int, int, str]] = []

    def function_at(self, line: int) -> str:
        """The innermost function whose lines hold ``line`` (``""``: module level)."""
        inner = [(end - start, name) for start, end, name in self.spans if start <= line <= end]
        return min(inner)[1] if inner else ""

    def walk(self, node: object) -> None:
        if isinstance(node, list | tuple):
            for item in node:
                self.walk(item)
            return
        if not isinstance(node, Node) or id(node) in self.seen:
            return
        self.seen.add(id(node))
        outer = self.function
        if isinstance(node, FuncDef):  # a nested function is named inside its own
            name = f"{outer}.{node.name}" if outer else node.fullname.removeprefix(self.prefix)
            self.function = name
            self.spans.append((node.line, node.end_line or node.line, self.function))
        self.visit(node)
        for name in _children(node):
            self.walk(getattr(node, name, None))
        self.function = outer

    def readers(self) -> list[tuple[int, str, str, str]]:
        """The matches and lookups, and the tests of one value when one function makes two or
        more that name two or more members between them (one test, ``isinstance(v, Number)``
        or ``kind in ("a", "b")``, asks a question a new member answers "no" to; two or more
        choose among members: a dispatch)."""
        out = list(self.found)
        for (function, union, key), tests in self.tests.items():
            named = set().union(*(members for _, _, members in tests))
            if len(tests) >= 2 and len(named) >= 2:
                out.extend((line, union, f"{how} {key}", function) for line, how, _ in tests)
        return out

    def _mark(self, line: int, expr: Expression, how: str) -> None:
        for union in set(throwaways(self.types.get(expr))):
            self.found.append((line, union, how, self.function))

    def _test(self, line: int, expr: Expression, how: str, members: frozenset[str]) -> None:
        key = _key(expr) or f"line {line}"  # another value: a test of its own
        for union in set(throwaways(self.types.get(expr))):
            self.tests.setdefault((self.function, union, key), []).append((line, how, members))

    def _total(self, expr: Expression) -> bool:
        typ = get_proper_type(self.types.get(expr))
        return isinstance(typ, Instance) and typ.type.fullname == TOTAL

    def _table(self, expr: Expression) -> bool:
        """A module's constant (a table or a tuple of members), not a total mapping: a local
        dict filled from the rules is data, not a table written by hand."""
        return (
            isinstance(expr, RefExpr)
            and expr.kind == GDEF
            and isinstance(expr.node, Var)
            and not self._total(expr)
        )

    def visit(self, o: Node) -> None:
        if isinstance(o, MatchStmt):
            self._mark(o.line, o.subject, "match")
        elif isinstance(o, CallExpr):
            callee = o.callee
            if isinstance(callee, NameExpr) and callee.fullname == "builtins.isinstance":
                self._test(o.line, o.args[0], "isinstance", _named(o.args[1]))
            get = isinstance(callee, MemberExpr) and callee.name == "get" and o.args
            if get and isinstance(callee, MemberExpr) and self._table(callee.expr):
                self._mark(o.line, o.args[0], "get")
        elif isinstance(o, ComparisonExpr):
            for op, left, right in zip(o.operators, o.operands, o.operands[1:], strict=False):
                if op in ("==", "!=", "is", "is not") and (_words(right) or _words(left)):
                    word = right if _words(right) else left
                    self._test(o.line, left if _words(right) else right, op, _named(word))
                elif op in ("in", "not in") and (_words(right) or self._table(right)):
                    self._test(o.line, left, op, _named(right))
        elif isinstance(o, IndexExpr) and self._table(o.base):
            self._mark(o.line, o.index, "index")


def main(root: Path, config: str, cache: str) -> None:
    sources, options = process_options(
        ["--config-file", config, "--cache-dir", cache, "--hide-error-context", "rulesdsl"]
    )
    options.export_types = True
    options.incremental = True  # the standard library's types from the cache: about half the
    # time; the copy's own modules are never fresh there (each ends in a line naming its run),
    # so mypy checks each again and keeps its types
    _keep_trees(options, root)
    result = build.build(sources, options)
    named: dict[str, list[tuple[int, str]]] = {}
    for line in result.errors:
        hit = re.match(r"rulesdsl/([^:]+\.py):(\d+): error: (.*)", line)
        if hit is None:
            continue
        for name in set(re.findall(r"[Tt]hrowaway_?([A-Za-z]+)", hit[3])):
            named.setdefault(hit[1], []).append((int(hit[2]), name.lower()))
    for state in result.graph.values():
        if not state.xpath.startswith("rulesdsl/"):
            continue
        assert state.tree is not None, state.xpath
        reads = Reads(result.types, state.id)
        reads.walk(state.tree)
        module = state.xpath.removeprefix("rulesdsl/")
        for number, union in named.pop(module, []):
            print(json.dumps(["named", module, number, union, reads.function_at(number)]))
        for number, union, how, function in reads.readers():
            print(json.dumps(["read", module, number, union, how, function]))
    for module, hits in named.items():  # a module mypy checked but did not keep: none expected
        for number, union in hits:
            print(json.dumps(["named", module, number, union, ""]))
    _totals(root)


def _modules(root: Path) -> Iterator[tuple[Path, str]]:
    """Each module of the copy: its file and its name (``rulesdsl.ir.values``)."""
    for path in sorted((root / "rulesdsl").rglob("*.py")):
        parts = path.relative_to(root).with_suffix("").parts
        yield path, ".".join(parts).removesuffix(".__init__")


def _keep_trees(options: Options, root: Path) -> None:
    """Keep the copy's syntax trees (and every function body's types) for the walk, and only
    the copy's: the other modules (the standard library, the third-party packages: lsprotocol
    alone has 3 MB of cache) are read as mypy reads them by default, their function bodies
    skipped, since their errors are ignored and a body cannot change what a signature gives
    the copy. ``preserve_asts`` everywhere cost about 2 s of CPU a cold run (issue 44). A
    concrete module's section is taken as it is, so the glob ``*.*`` reaches only the others.
    The copy's modules are not written to the cache either (``cache_dir`` os.devnull, which
    mypy reads per module): no later run reads them, each copy ending in a comment of its own;
    the others' cache is written as before, for the tests' other mypy runs."""
    options.preserve_asts = True  # global: mypy frees no tree after checking its module
    options.per_module_options["*.*"] = {"preserve_asts": False}
    for _, name in _modules(root):
        options.per_module_options.setdefault(name, {}).update(
            preserve_asts=True, cache_dir=os.devnull
        )


def _totals(root: Path) -> None:
    """Import each module of the copy that builds a total mapping; report each ``total`` call
    that refuses its table. A refused table is recorded and then built anyway (the new member
    given another's value), so that one refusal (in a module many import) does not hide the
    others."""
    sys.path.insert(0, str(root))
    words = importlib.import_module("rulesdsl.words")
    build = words.Total.__init__

    def recording(self: object, members: tuple[object, ...], values: dict[object, object]) -> None:
        try:
            build(self, members, values)
        except words.NotTotal as exc:
            caller = traceback.extract_stack()[-3]  # total() -> Total() -> here
            module = Path(caller.filename).relative_to(root / "rulesdsl").as_posix()
            for union in set(re.findall(r"[Tt]hrowaway_?([A-Za-z]+)", str(exc))):
                print(json.dumps(["total", module, caller.lineno, union.lower()]))
            some = next(iter(values.values()))  # the new member's value: any other's
            build(self, members, {m: values.get(m, some) for m in members})

    words.Total.__init__ = recording
    for path, name in _modules(root):
        if "total(" in path.read_text("utf-8"):
            importlib.import_module(name)


if __name__ == "__main__":
    main(Path(sys.argv[1]), sys.argv[2], sys.argv[3])
    # Out without freeing mypy's graph, its types and every kept tree, as mypy's own command
    # leaves (``fast_exit``): that teardown was 6 s of CPU, a third of the probe's (issue 44).
    # The cache is written already (mypy commits it at the end of the build).
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(0)
