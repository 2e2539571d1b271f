"""The syntax trees of the sources the tests read: the package's modules and the generated
modules, each text parsed once per process and walked once (issue 44).

Eleven tests in six files parsed and walked the whole package (276 modules: about 0.5 s to parse
and 0.3 s to walk each time), and four parsed the fifteen generated modules. Here a text is
parsed the first time a test asks and kept with the list of its nodes (``ast.walk`` order), so
every test reads the same tree. The cache is keyed by the text itself: a file edited while the
process runs, or a module rendered afresh, is parsed again if its text differs.

The trees are kept until the process ends, so they are parsed with the garbage collector paused
and then frozen (``gc.freeze``, as conftest.py does with what collection made): otherwise each
later full collection would walk their half a million nodes again (about 0.3 s a time for the
package). A frozen object is still freed when nothing refers to it; only a cycle of garbage
pending at that moment is kept, as at conftest's freeze.
"""

from __future__ import annotations

import ast
import gc
from collections.abc import Iterable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from types import MappingProxyType

import pytest

from rulesdsl.gc_pause import gc_paused

PACKAGE = Path(__file__).resolve().parent.parent / "rulesdsl"

PACKAGE_TREES = pytest.mark.xdist_group("package-trees")
"""The tests reading :func:`package`: on one worker, the package is parsed once a run."""

GENERATED_TREES = pytest.mark.xdist_group("generated-trees")
"""The tests reading the bundled rulesets' Python modules (generated/python/, or rendered
afresh: the same texts while the build is current): on one worker, each is parsed once a run."""


@dataclass(frozen=True)
class Source:
    """One text, its syntax tree, and every node of the tree (``ast.walk`` order)."""

    text: str
    tree: ast.Module
    nodes: tuple[ast.AST, ...]


_SOURCES: dict[str, Source] = {}


@contextmanager
def _kept() -> Iterator[None]:
    """Make long-lived trees without the collector tracing them as they grow, then freeze them."""
    try:
        with gc_paused():
            yield
    finally:
        gc.freeze()


def _source(text: str) -> Source:
    found = _SOURCES.get(text)
    if found is None:
        tree = ast.parse(text)
        found = _SOURCES[text] = Source(text, tree, tuple(ast.walk(tree)))
    return found


def sources(texts: Iterable[str]) -> list[Source]:
    """The parsed sources of these texts, each parsed once per process."""
    texts = list(texts)
    if all(text in _SOURCES for text in texts):
        return [_SOURCES[text] for text in texts]
    with _kept():
        return [_source(text) for text in texts]


def source(text: str) -> Source:
    """The parsed source of one text (a module's text, a rendered module)."""
    [found] = sources([text])
    return found


def of_file(path: Path) -> Source:
    """The parsed source of a file, as it reads now."""
    return source(path.read_text("utf-8"))


@cache
def package() -> Mapping[Path, Source]:
    """Every module of the package (sorted by path) and its parsed source, as the package
    reads the first time a test asks (no test edits it)."""
    paths = sorted(PACKAGE.rglob("*.py"))
    texts = sources(p.read_text("utf-8") for p in paths)
    return MappingProxyType(dict(zip(paths, texts, strict=True)))
