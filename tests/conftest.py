"""Shared fixtures: load generated modules the way a user would, and compile snippets; the
``--layout-matrix`` option and the collector's settings for the run."""

from __future__ import annotations

import _imp
import functools
import gc
import hashlib
import importlib.machinery
import importlib.util
import marshal
import os
import re
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from types import CodeType, ModuleType
from typing import TYPE_CHECKING

import pytest
from _pytest.pathlib import _force_symlink, make_numbered_dir
from _pytest.tmpdir import tmppath_result_key
from hypothesis import HealthCheck, settings

from tests.xdist_start import GroupScheduling, rewrite_my_share

if TYPE_CHECKING:
    from rulesdsl import ir
    from rulesdsl.compiler import Compiled, Compiler

# The package is imported where it is used: the xdist controller loads this file and runs no
# test, and an import here would load the compiler there too (issue 44).

ROOT = Path(__file__).resolve().parent.parent
GENERATED = ROOT / "generated" / "python"
RULESETS = ROOT / "rulesets"


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--layout-matrix",
        action="store_true",
        help="lay out the bundled sheets and decks in every language, paper and card size: "
        "every language's written deck and A4 sheet, each other size, paper and per-mode "
        "deck in one language, taken in turn (CI runs it). Without it, a sample that covers "
        "every language, paper and size (tests/pdf_layout.py).",
    )
    parser.addoption(
        "--layout-matrix-full",
        action="store_true",
        help="--layout-matrix's long form: every bundled sheet and deck, per-mode decks "
        "included, in every language, paper and card size (dev/README.md).",
    )


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers", "layout_matrix: a layout run only with --layout-matrix (tests/pdf_layout.py)"
    )
    config.addinivalue_line(
        "markers", "layout_full: a layout run only with --layout-matrix-full (tests/pdf_layout.py)"
    )
    keep_bytecode()
    untimed_hypothesis()


def untimed_hypothesis() -> None:
    """Hypothesis's ``too_slow`` health check left out for the whole suite: it is timed (a
    property fails when drawing its first inputs takes over a second of wall time), and no
    test may fail on time alone. A draw also scans each module imported since the last one
    for constants (the generated modules the tests import: 1-2 s of CPU a scan), kept in
    ``.hypothesis/constants`` by the source's hash, so only a clone's first run scans: on a
    busy machine a first run failed test_dice's first property so ("only generated 8 valid
    inputs after 4.59 seconds") where the rerun passed (issue 44). A test's own settings
    that name the health checks to leave out still replace this list."""
    settings.register_profile("suite", suppress_health_check=[HealthCheck.too_slow])
    settings.load_profile("suite")


MYPY_CACHE = ROOT / ".mypy_cache" / "tests"
"""mypy's cache for the tests' ``mypy --strict`` runs of modules outside the package: they
share the standard library's types, checked once a run instead of once a test (issue 44)."""


def keep_bytecode() -> None:
    """Write ``.pyc`` files under ``PYTHONDONTWRITEBYTECODE`` too, in this process, the xdist
    workers it starts and every Python the tests run, as bench/bench_speed.py's children do
    (``__pycache__`` is ignored by git). Without them each worker compiled and rewrote every
    test module again (12.7 s of CPU collecting, 3.6 s with them), and each
    ``python -m rulesdsl`` of a test compiled the package again (issue 44). A
    ``PYTHONPYCACHEPREFIX`` would keep the tree clean but hide the installed libraries'
    own ``.pyc`` files: a first run compiled them all again (about 2.8 s a process)."""
    os.environ.pop("PYTHONDONTWRITEBYTECODE", None)
    sys.dont_write_bytecode = False


def pytest_collection(session: pytest.Session) -> None:
    """An xdist worker rewrites its share of the test modules first (tests/xdist_start.py)."""
    rewrite_my_share(session.config)


@pytest.hookimpl(optionalhook=True)
def pytest_xdist_make_scheduler(config: pytest.Config, log: object) -> GroupScheduling | None:
    """pyproject.toml's ``--dist loadgroup``, its finished work let go (tests/xdist_start.py)."""
    return GroupScheduling(config, log) if config.getvalue("dist") == "loadgroup" else None


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Without ``--layout-matrix`` the tests marked ``layout_matrix`` are left out; without
    ``--layout-matrix-full`` those marked ``layout_full`` (the long form, dev/README.md)."""
    if config.getoption("--layout-matrix-full"):
        return
    marker = "layout_full" if config.getoption("--layout-matrix") else "layout_matrix"
    left = [item for item in items if item.get_closest_marker(marker) is not None]
    if left:
        config.hook.pytest_deselected(items=left)
        items[:] = [item for item in items if item.get_closest_marker(marker) is None]


def pytest_collection_finish(session: pytest.Session) -> None:
    """Keep what collection made (test modules, compiled bundled rulesets, parsers) out of
    the collector's sight, and collect the young generation less often: the tests make many
    short-lived objects, and each full collection would walk everything still alive again.
    With the default settings the card tests spent about a sixth of their time in the
    garbage collector."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(50_000, 20, 20)


@pytest.fixture
def tmp_path(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Path]:
    """pytest's ``tmp_path``: the same folder under the same name, removed as pytest removes
    it, numbered from a count kept for its name (:func:`_numbered`)."""
    name = re.sub(r"[\W]", "_", request.node.name)[:30]
    path = _numbered(tmp_path_factory.getbasetemp(), name)
    yield path
    policy = tmp_path_factory._retention_policy
    result = request.node.stash[tmppath_result_key]
    if policy == "failed" and result.get("call", True):
        shutil.rmtree(path, ignore_errors=True)
    del request.node.stash[tmppath_result_key]


_NEXT: dict[tuple[Path, str], int] = {}
"""The next number of each name's folder in a base folder, as :func:`_numbered` made them."""


def _numbered(root: Path, prefix: str) -> Path:
    """``root/<prefix><n>`` and ``<prefix>current`` linked to it, as pytest's
    ``make_numbered_dir`` makes them, n one more than the last such folder. pytest finds the
    last one by listing the whole base folder, which holds every test's folder (and link)
    made so far, for each test: about 2,000 entries late in a worker, 1 to 2 s of CPU a run
    in all (issue 44). Here n is counted: 0 for a name's first folder (the base folder is
    made empty for each run), then the next. A folder of that name made otherwise (a
    ``tmp_path_factory.mktemp`` of the same name) is found as ``mkdir`` fails: then pytest
    lists the folder as before."""
    number = _NEXT.get((root, prefix), 0)
    path = root / f"{prefix}{number}"
    if _new_folder(path):
        _force_symlink(root, f"{prefix}current", path)
    else:
        path = make_numbered_dir(root, prefix, 0o700)
        number = int(path.name[len(prefix) :])
    _NEXT[root, prefix] = number + 1
    return path


def _new_folder(path: Path) -> bool:
    """Whether ``path`` was made here (not there already)."""
    try:
        path.mkdir(mode=0o700)
    except FileExistsError:
        return False
    return True


def load_generated(name: str) -> ModuleType:
    """Import generated/python/<name>.py with `rulesdsl` made unimportable while it runs."""
    path = GENERATED / f"{name}.py"
    spec = importlib.util.spec_from_file_location(f"generated_{name}", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    saved = {k: v for k, v in sys.modules.items() if k == "rulesdsl" or k.startswith("rulesdsl.")}
    for key in saved:
        del sys.modules[key]
    sys.modules["rulesdsl"] = None  # type: ignore[assignment]  # any import of it fails
    try:
        sys.modules[spec.name] = module
        spec.loader.exec_module(module)
    finally:
        del sys.modules["rulesdsl"]
        sys.modules.update(saved)
    return module


CODE_STORE = ROOT / ".pytest_cache" / "rulesdsl-code"
"""The byte code of the modules the tests write and import (:class:`StoredCodeLoader`)."""


class StoredCodeLoader(importlib.machinery.SourceFileLoader):
    """Python's loader of a source file, its compile of the source kept for every worker and
    run of this compiler by the source's bytes: one module text rendered by several tests
    (heavy_gear's by a dozen) was compiled by each, about 25 ms a module, 600 compiles in
    README's command (issue 44). The module is still read from its file and run as a user's
    import does; the code is what ``compile`` makes of the same bytes, its file name set to
    this file, as Python does with a ``.pyc`` (``_imp._fix_co_filename``)."""

    def source_to_code(  # type: ignore[override]
        self, data: bytes, path: str, *, _optimize: int = -1
    ) -> CodeType:
        key = hashlib.sha256(importlib.util.MAGIC_NUMBER + data).hexdigest()
        stored = _code_folder() / f"{key}.code"
        try:
            code = marshal.loads(stored.read_bytes())
        except (OSError, EOFError, ValueError, TypeError):  # not stored yet (or cut short)
            code = super().source_to_code(data, path, _optimize=_optimize)
            written = stored.with_name(f"{key}.{os.getpid()}")
            written.write_bytes(marshal.dumps(code))
            written.replace(stored)  # whole or absent for the other workers
            return code
        _imp._fix_co_filename(code, str(path))  # type: ignore[attr-defined]
        return code  # type: ignore[no-any-return]


@functools.cache
def _code_folder() -> Path:
    """This compiler's folder of :data:`CODE_STORE`; the folders of other compilers are
    removed as it is first made (as tests/layout_store.py's layouts)."""
    from rulesdsl.builder.manifest import compiler_digest
    from tests.layout_store import build_folder

    return build_folder(CODE_STORE, compiler_digest()[:20])


def render(ruleset: ir.Ruleset) -> str:
    """``ruleset``'s generated Python module (the Python target's ``render_python``)."""
    from rulesdsl.codegen.targets import render_python

    return render_python(ruleset)


def import_rendered(ruleset: ir.Ruleset, folder: Path, name: str) -> ModuleType:
    """``ruleset``'s generated module, imported as :func:`import_source` does."""
    return import_source(render(ruleset), folder, name)


def import_source(source: str, folder: Path, name: str) -> ModuleType:
    """``source`` written to ``folder/<name>.py`` and imported as ``name`` the way a user
    imports it (kept in sys.modules: dataclasses look it up as classes are made), its
    compiled code shared by the tests that write the same text (:class:`StoredCodeLoader`)."""
    path = folder / f"{name}.py"
    path.write_text(source, "utf-8")
    spec = importlib.util.spec_from_file_location(
        name, path, loader=StoredCodeLoader(name, str(path))
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


def replay(folder: Path) -> subprocess.CompletedProcess[str]:
    """pytest in a process of its own on a folder of generated modules and their replays of the
    worked examples, as a user runs them, without the plugins this suite installs (hypothesis,
    xdist, pytest-lsp...: loading them is 0.7 of such a run's 1 s of CPU, and a replay uses
    none of them)."""
    options = ["-q", "-p", "no:cacheprovider", "--rootdir", str(folder)]
    return subprocess.run(
        [sys.executable, "-m", "pytest", *options, str(folder)],
        capture_output=True,
        text=True,
        cwd=folder,
        timeout=300,
        check=False,
        env={**os.environ, "PYTEST_DISABLE_PLUGIN_AUTOLOAD": "1"},
    )


@functools.cache
def shared_compiler() -> Compiler:
    """The process's compiler of the bundled rulesets, the session's ``compiler`` fixture: it
    keeps each file compiled once. tests/pdf_layout.py compiles every bundled ruleset with it
    at collection (its cases are named by the rulesets' languages), in every xdist worker, so
    a test that reads a bundled ruleset's compile (:func:`bundled`) finds it done instead of
    compiling it again with a compiler of its own (issue 44)."""
    from rulesdsl.compiler import Compiler

    return Compiler()


def bundled(name: str) -> Compiled:
    """``rulesets/<name>.terrain`` compiled by :func:`shared_compiler`: once a process."""
    return shared_compiler().compile_file(RULESETS / f"{name}.terrain")


@pytest.fixture(scope="session")
def compiler() -> Iterator[Compiler]:
    yield shared_compiler()


def compile_snippet(
    compiler: Compiler, text: str, tmp_path: Path | None = None, name: str = "snippet.terrain"
) -> Compiled:
    base_dir = tmp_path if tmp_path is not None else RULESETS
    return compiler.compile_text(text, str(base_dir / name), base_dir)


def git(repo: Path, *args: str) -> None:
    subprocess.run(
        ["git", "-c", "user.email=test@example.org", "-c", "user.name=test", *args],
        cwd=repo,
        check=True,
        capture_output=True,
    )


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    """A git repository holding heavy_gear and heavy_gear_house in one commit."""
    if shutil.which("git") is None:  # pragma: no cover
        pytest.skip("git is not installed")
    rulesets = tmp_path / "rulesets"
    rulesets.mkdir()
    for name in ("heavy_gear", "heavy_gear_house"):
        shutil.copy(RULESETS / f"{name}.terrain", rulesets)
    git(tmp_path, "init", "-q")
    git(tmp_path, "add", ".")
    git(tmp_path, "commit", "-q", "-m", "first")
    return tmp_path
