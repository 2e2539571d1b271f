"""The layout store of tests/pdf_layout.py: what the tests read of a laid-out document is kept
on disk under ``.pytest_cache/rulesdsl-layouts/<digest>/`` (:func:`stored`), the digest being
that of the build (the compiler's code, the bundled rulesets, the layout tests' readers,
WeasyPrint's version), with the CPU seconds WeasyPrint's layouts took (:func:`counted`,
dev/layout_cost.py sums them) and the faces cut down to a document's characters
(:func:`stored_subsets`)."""

from __future__ import annotations

import fcntl
import hashlib
import os
import pickle
import shutil
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from functools import cache
from pathlib import Path
from typing import TypeVar

from rulesdsl.builder.manifest import compiler_digest
from rulesdsl.printed import font_subset

ROOT = Path(__file__).resolve().parent.parent
STORE = ROOT / ".pytest_cache" / "rulesdsl-layouts"
READERS = ("pdf_layout.py", "layout_store.py", "table_cells.py")
"""The files of tests/ whose code makes what is stored."""
T = TypeVar("T")


@cache
def _build_digest() -> str:
    """What every stored layout depends on: the compiler's code (templates and stylesheets
    included), the bundled rulesets, the layout tests' readers (:data:`READERS`) and the
    versions of WeasyPrint and pydyf."""
    import pydyf  # type: ignore[import-untyped, import-not-found, unused-ignore]
    import weasyprint  # type: ignore[import-untyped, import-not-found, unused-ignore]

    digest = hashlib.sha256(compiler_digest().encode())
    readers = [ROOT / "tests" / name for name in READERS]
    for path in [*sorted((ROOT / "rulesets").glob("*.terrain")), *readers]:
        digest.update(path.name.encode() + b"\0" + path.read_bytes())
    digest.update(f"{weasyprint.__version__} {pydyf.__version__}".encode())
    return digest.hexdigest()[:20]


def build_folder(store: Path, build: str) -> Path:
    """``store/<build>``, made if missing; the folders of other builds in ``store`` are
    removed as it is first made (a store keeps one build's files)."""
    folder = store / build
    if not folder.is_dir():
        store.mkdir(parents=True, exist_ok=True)
        for old in store.iterdir():
            if old.name != folder.name:  # another worker may be making this one
                shutil.rmtree(old, ignore_errors=True)
        folder.mkdir(exist_ok=True)
    return folder


def stored(key: str, make: Callable[[], T]) -> T:
    """``make()``, laid out once for every worker and run of this build: read from the store
    if a worker made it before, else made (the other workers wait on a lock) and kept there.
    Stores of other builds are removed as this one is first made."""
    folder = build_folder(STORE, _build_digest())
    path = folder / f"{key}.pickle"
    with open(folder / f"{key}.lock", "a") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if path.is_file():
            found: T = pickle.loads(path.read_bytes())
            return found
        made = make()
        part = path.with_suffix(f".{os.getpid()}")
        part.write_bytes(pickle.dumps(made))
        part.replace(path)
        return made


@contextmanager
def counted() -> Iterator[list[float]]:
    """The WeasyPrint layouts made in the block (``HTML.render`` calls), the CPU seconds of
    each."""
    import weasyprint  # type: ignore[import-untyped, import-not-found, unused-ignore]

    layouts: list[float] = []
    render = weasyprint.HTML.render

    def counted(self: object, *args: object, **kwargs: object) -> object:
        start = time.process_time()
        try:
            return render(self, *args, **kwargs)
        finally:
            layouts.append(time.process_time() - start)

    weasyprint.HTML.render = counted
    try:
        yield layouts
    finally:
        weasyprint.HTML.render = render


@contextmanager
def stored_subsets() -> Iterator[None]:
    """The shipped faces cut down to a document's characters (fontTools, about 0.4 s of CPU a
    document, outside ``HTML.render``) once for every document and worker of this build that
    prints the same characters, kept in the store (:func:`stored`): a ruleset's sheets and
    its decks in most card sizes print the same characters in one language. The cut faces
    are the product's own (``font_subset._subset``), keyed by the face's bytes too."""
    subset = font_subset._subset

    def kept(path: Path, chars: str) -> str:
        key = hashlib.sha256(_face_digest(path).encode() + chars.encode()).hexdigest()[:20]
        return stored(f"subset-{key}", lambda: subset(path, chars))

    font_subset._subset = kept  # type: ignore[assignment]
    try:
        yield
    finally:
        font_subset._subset = subset


@cache
def _face_digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()
