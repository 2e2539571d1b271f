"""``dataclass`` for the IR and the syntax tree, with the methods' bytecode kept between runs.

``dataclasses`` writes each class's ``__init__``, ``__repr__``, ``__eq__``, ``__hash__``,
``__setattr__`` and ``__delattr__`` as Python source and compiles it with ``exec``, five or six
times per class. For the ~180 classes a ``rulesdsl check`` imports that was about 60 ms of a
300 ms start-up (issue 29), nearly all of it compiling those small texts again in every
process. This decorator is ``dataclasses.dataclass`` itself, run with ``exec`` reading the
compiled code of each text from a cache; the class it makes is exactly the one
``dataclasses`` makes (the same text is run, only not compiled again).

The cache lives beside the package's ``.pyc`` files (``__pycache__``, or under
``sys.pycache_prefix``), is written as they are (not when ``sys.dont_write_bytecode``; never
when the folder is read-only; with the mode a ``.pyc`` of this module gets), once at exit and
only if a text was missing, and is keyed by the interpreter's bytecode magic number: a cache
from another Python, a damaged file, an entry that is not code or a missing one means
compiling, as ``dataclasses`` always does. Texts of classes since edited (a checkout, an
upgrade over an old ``__pycache__``) are dropped when the file has grown past
:data:`_MAX_ENTRIES`: it is then written with only the texts the process used.
"""

from __future__ import annotations

import atexit
import dataclasses
import importlib.util
import marshal
import os
import sys
import tempfile
import threading
from pathlib import Path
from types import CodeType
from typing import TYPE_CHECKING, Any

_MAGIC = importlib.util.MAGIC_NUMBER
_LOCK = threading.Lock()
_MAX_ENTRIES = 4_000
"""A cache grown past this (old texts of classes since edited) is written afresh with the
texts one process used (~950 today, 0.9 MB, 2 ms to read: at 20,000 the read alone would
take what the cache saves)."""


class _CodeCache:
    """The compiled code of each text ``dataclasses`` executes, read once, written at exit
    (:mod:`rulesdsl.frontends.dsl_patterns` keeps what ``re`` compiles the lexers'
    expressions to in another)."""

    def __init__(self, path: Path | None, magic: bytes = _MAGIC) -> None:
        self.path = path
        self.magic = magic
        """What a file of this cache starts with: a file written by another interpreter is
        ignored."""
        self.codes: dict[Any, Any] | None = None
        self.missed = False
        self.used: set[Any] = set()

    def load(self) -> dict[Any, Any]:
        if self.codes is None:
            self.codes = {}
            if self.path is not None:
                try:
                    data = self.path.read_bytes()
                    if data[: len(self.magic)] == self.magic:
                        loaded = marshal.loads(data[len(self.magic) :])
                        if isinstance(loaded, dict):
                            self.codes = loaded
                except (OSError, ValueError, EOFError, TypeError):
                    self.codes = {}
        return self.codes

    def exec(self, text: str, globals_: dict[str, Any], locals_: dict[str, Any]) -> None:
        codes = self.load()
        code = codes.get(text)
        self.used.add(text)
        if not isinstance(code, CodeType):  # missing, or a damaged entry
            code = codes[text] = compile(text, "<string>", "exec")
            self.note_missed()
        exec(code, globals_, locals_)  # the very text dataclasses would exec itself

    def note_missed(self) -> None:
        """An entry was added: the cache is written when the process exits."""
        if not self.missed:
            self.missed = True
            atexit.register(self.save)

    def save(self) -> None:
        """Write the cache atomically; any failure leaves the old file (or none)."""
        if self.path is None or self.codes is None or sys.dont_write_bytecode:
            return
        codes = self.codes
        if len(codes) > _MAX_ENTRIES:  # old texts: keep those this process used
            codes = {text: codes[text] for text in self.used if text in codes}
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            fd, tmp = tempfile.mkstemp(dir=self.path.parent, prefix=".records-")
            try:
                os.chmod(tmp, _pyc_mode())  # mkstemp's 0600 would hide it from other users
                with os.fdopen(fd, "wb") as out:
                    out.write(self.magic + marshal.dumps(codes))
                os.replace(tmp, self.path)
            except BaseException:
                os.unlink(tmp)
                raise
        except (OSError, ValueError):
            pass


def exec_kept(text: str, globals_: dict[str, Any], locals_: dict[str, Any]) -> None:
    """``exec(text, globals_, locals_)``, the code compiled from ``text`` read from (and kept
    in) the cache: for the functions :mod:`rulesdsl.checks` writes for each IR class, as
    ``dataclasses`` writes methods (compiling them took ~35 ms in every process)."""
    _CACHE.exec(text, globals_, locals_)


def _pyc_mode() -> int:
    """The mode importlib gives a ``.pyc`` of this module: its source's, writable by its owner."""
    try:
        return (os.stat(__file__).st_mode | 0o200) & 0o666
    except OSError:  # pragma: no cover - the source is gone
        return 0o644


def _cache_path(source: str = __file__, suffix: str = ".dataclass-code") -> Path | None:
    """Where the cache of ``source`` is kept: beside its ``.pyc``, with ``suffix``."""
    try:
        pyc = importlib.util.cache_from_source(source)
    except (NotImplementedError, ValueError):  # pragma: no cover - no bytecode cache at all
        return None
    return Path(pyc).with_name(Path(pyc).stem + suffix)


_CACHE = _CodeCache(_cache_path())


def _dataclass(cls: Any = None, /, **options: Any) -> Any:
    """``dataclasses.dataclass(cls, **options)``, with each method's code from the cache; with
    ``slots=True`` unless told otherwise (a chart of 200,000 rows has millions of IR and syntax
    nodes: without a ``__dict__`` each is 40 bytes smaller)."""

    def wrap(cls: type[Any]) -> type[Any]:
        options.setdefault("slots", True)
        with _LOCK:
            had = "exec" in vars(dataclasses)
            previous = vars(dataclasses).get("exec")
            dataclasses.exec = _CACHE.exec  # type: ignore[attr-defined]
            try:
                made: type[Any] = dataclasses.dataclass(cls, **options)
            finally:
                if had:
                    dataclasses.exec = previous  # type: ignore[attr-defined]
                else:
                    del dataclasses.exec  # type: ignore[attr-defined]
        return made

    return wrap if cls is None else wrap(cls)


if TYPE_CHECKING:  # type checkers see dataclasses.dataclass itself
    from dataclasses import dataclass as dataclass
else:
    dataclass = _dataclass
