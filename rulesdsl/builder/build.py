"""Build the generated/ tree from rulesets/: incremental, parallel where it pays, one
transaction per run.

A run goes: list the ruleset files (two files for one id is an error) -> pick the rulesets
asked for (all, or the named ones and every ruleset that extends them) -> skip each ruleset
whose stamp in the manifest still holds (same source and base digests, same compiler, every
output file still as written) -> compile the rest (any error: nothing is written) -> render
their outputs, PDFs in a process pool -> write what changed, and remove the outputs the
manifest says the build wrote and no ruleset produces any more, in one transaction
(:mod:`rulesdsl.builder.transaction`). ``check=True`` stops before writing and lists what the run
would change. The outputs are the same bytes whichever path made them: skipped or compiled,
in a pool or serially (a test builds both ways and compares).

An output that needs an install extra that is not there (a PDF without WeasyPrint, see
:mod:`rulesdsl.extras`) is skipped: the file is left as it is, whether missing or out of
date, listed in :attr:`BuildResult.skipped`, and not counted as stale by ``check``; the
manifest records it as :data:`SKIPPED` so that the first build with the extra makes it.
"""

from __future__ import annotations

import os
import pickle
import re
from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from contextlib import ExitStack
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from rulesdsl.builder import manifest as mf
from rulesdsl.builder import transaction
from rulesdsl.builder.ids import check_ids, header_pos
from rulesdsl.codegen import targets
from rulesdsl.codegen.targets import Target
from rulesdsl.frontends import registry
from rulesdsl.gc_pause import gc_paused
from rulesdsl.outputs import (
    MAX_PDF_SOURCE_BYTES,
    Deferred,
    Output,
    digest_bytes,
    digest_inside,
    output_path_problem,
    read_inside,
)
from rulesdsl.outputs import (
    atomic_write as atomic_write,
)
from rulesdsl.web import web_outputs

if TYPE_CHECKING:
    from rulesdsl import ir
    from rulesdsl.compiler import Compiled, Compiler
    from rulesdsl.diagnostics import Diagnostic
    from rulesdsl.printed.sheet_model import Sheets

Backend = Callable[["ir.Ruleset"], Mapping[str, Output]]
"""A backend gives, for one ruleset, file contents by path relative to generated/."""

READ_LIMIT = 256 * 1024 * 1024
"""The largest output file read to compare it with what the build would write; a bigger
one is rewritten (the bundled rulesets' largest output, generated/python/battletech_tacops.py,
has 127 KB)."""
SKIPPED = "skipped:"
"""How the manifest records an output not made for want of an extra: ``skipped:pdf``. No file
has that digest, so the build never removes the file as its own, and the stamp holds only while
the extra is still missing."""


@dataclass(frozen=True)
class TargetOutputs:
    """A target of :data:`rulesdsl.codegen.targets.TARGETS` as a backend: its outputs, each
    in the target's own folder."""

    target: Target

    def __call__(self, ruleset: ir.Ruleset) -> dict[str, Output]:
        folder = self.target.folder
        return {f"{folder}/{rel}": out for rel, out in self.target.outputs(ruleset).items()}


def sheet_outputs(ruleset: ir.Ruleset, sheets: Sheets | None = None) -> dict[str, Output]:
    """``sheets/<id>.<lang>.{html,md,pdf}``: see :func:`rulesdsl.printed.sheets.sheet_outputs`."""
    from rulesdsl.printed.sheets import sheet_outputs as render

    return render(ruleset, sheets)


def card_outputs(ruleset: ir.Ruleset, sheets: Sheets | None = None) -> dict[str, Output]:
    """``cards/<id>.<lang>.pdf``: see :func:`rulesdsl.printed.cards.card_outputs`."""
    from rulesdsl.printed.cards import card_outputs as render

    return render(ruleset, sheets)


_WITH_SHEETS: dict[Backend, Callable[[ir.Ruleset, Sheets | None], Mapping[str, Output]]] = {
    sheet_outputs: sheet_outputs,
    card_outputs: card_outputs,
    web_outputs: web_outputs,
}
"""The backends :func:`build` gives one :class:`~rulesdsl.printed.sheet_model.Sheets` per
ruleset, so that a sheet is built once for the sheets and the decks (issue 29)."""


def _outputs(backend: Backend, ruleset: ir.Ruleset, sheets: Sheets | None) -> Mapping[str, Output]:
    with_sheets = _WITH_SHEETS.get(backend)
    return backend(ruleset) if with_sheets is None else with_sheets(ruleset, sheets)


def _sheets(
    ruleset: ir.Ruleset, backends: Iterable[Backend], words: Path | None = None
) -> Sheets | None:
    """The sheets the backends of one ruleset share, if any of them reads sheets (their
    fixed words from the project's catalog folder ``words`` where it has one)."""
    if not any(b in _WITH_SHEETS for b in backends):
        return None
    from rulesdsl.printed.sheet_model import Sheets

    return Sheets(ruleset, words)


def words_digest(words: Path) -> str:
    """A digest of the project's catalogs of sheet words (``""`` when it has none): a
    change to one makes every sheet and deck out of date."""
    from rulesdsl.sheet_languages import catalog_languages, project_catalog

    found = [(lang, project_catalog(words, lang)) for lang in catalog_languages(words)]
    data = b"".join(
        lang.encode() + b"\0" + digest_bytes(path.read_bytes()).encode()
        for lang, path in found
        if path is not None
    )
    return digest_bytes(data) if data else ""


def default_backends(target_names: Sequence[str] = ()) -> tuple[Backend, ...]:
    """The backends `rulesdsl build` runs, in order: the targets named (by default, the
    default ones), then the sheets, the card decks and the web pages."""
    chosen = (TargetOutputs(t) for t in targets.chosen(target_names))
    return (*chosen, sheet_outputs, card_outputs, web_outputs)


def backend_key(backend: Backend) -> str:
    """How the manifest names a backend: ``target:<name>`` for a target, else
    ``module:qualified_name``."""
    if isinstance(backend, TargetOutputs):
        return f"target:{backend.target.name}"
    return f"{getattr(backend, '__module__', '?')}:{getattr(backend, '__qualname__', '?')}"


def retired(key: str) -> bool:
    """Whether a manifest key names a backend of rulesdsl's own that this version no longer
    has (one renamed or moved, such as ``rulesdsl.tools.build:python_outputs``): the build
    drops its entry when it renders the ruleset again, and the files only it owned with it.
    A caller's own backend (a key outside the package) is never retired."""
    every = default_backends(tuple(t.name for t in targets.TARGETS))
    return key.startswith(("target:", "rulesdsl.")) and key not in map(backend_key, every)


class UnknownRuleset(ValueError):
    """``build NAME`` with a NAME that is no ruleset in the folder."""


@dataclass
class BuildResult:
    compiled: list[Compiled]
    outputs: dict[str, Output] = field(default_factory=dict)
    """Every output of the rulesets compiled in this run."""
    stale: list[str] = field(default_factory=list)
    """With ``check``: what a build would write or remove."""
    written: list[str] = field(default_factory=list)
    removed: list[str] = field(default_factory=list)
    up_to_date: list[str] = field(default_factory=list)
    """Ids of the rulesets skipped because their stamp held."""
    skipped: dict[str, str] = field(default_factory=dict)
    """Outputs not made (nor, with ``check``, counted as stale) because the install extra they
    need is missing: path -> the extra. The file is left as it is: missing or out of date."""
    diagnostics: list[Diagnostic] = field(default_factory=list)
    """Problems found by the build itself (duplicate ids, unusable file names)."""
    compiler: Compiler | None = None
    """What compiled the rulesets, if any were (its ``sources`` are the texts diagnostics
    quote)."""

    @property
    def ok(self) -> bool:
        return all(c.ok for c in self.compiled) and not any(d.is_error for d in self.diagnostics)


def compile_all(compiler: Compiler, sources: Iterable[Path]) -> list[Compiled]:
    return [compiler.compile_file(path) for path in sources]


def render_all(rulesets: Iterable[ir.Ruleset], backends: Iterable[Backend]) -> dict[str, Output]:
    outputs: dict[str, Output] = {}
    chosen = tuple(backends)
    for ruleset in rulesets:
        sheets = _sheets(ruleset, chosen)
        for backend in chosen:
            outputs.update(_outputs(backend, ruleset, sheets))
    return dict(sorted(outputs.items()))


def source_files(root: Path) -> list[Path]:
    """The ruleset sources in a folder, sorted by name; symbolic links are not followed."""
    known = registry.suffixes()
    return sorted(
        p for p in root.iterdir() if p.suffix in known and p.is_file() and not p.is_symlink()
    )


def sources_read(path: Path, ruleset: ir.Ruleset) -> list[str]:
    """The files (relative to the rulesets folder) a compile of ``path`` reads: the file and,
    where its front end names bases the build looks for (the DSL's), each base of its
    `extends` chain (as ``<id>`` and that front end's first suffix)."""
    front = registry.named(path.name)
    if front is None or front.extends is None:
        return [path.name]
    return [path.name, *(f"{a.id}{front.suffixes[0]}" for a in ruleset.extends)]


def default_jobs() -> int:
    """How many processes render PDFs: the cores this process may use."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # pragma: no cover - not on Linux
        return os.cpu_count() or 1


# ---- the run -------------------------------------------------------------------------------


def build(
    root: Path,
    out_dir: Path,
    *,
    check: bool = False,
    backends: Iterable[Backend] | None = None,
    compiler: Compiler | None = None,
    names: Sequence[str] = (),
    jobs: int | None = None,
    incremental: bool = True,
    missing: Collection[str] | None = None,
    strict: bool = False,
    target_names: Sequence[str] = (),
) -> BuildResult:
    """Compile the rulesets in ``root``; write (or, with ``check``, compare) ``out_dir``.

    ``names`` limits the run to those ruleset ids and every ruleset extending them (raises
    :class:`UnknownRuleset` for an unknown one); ``jobs`` is how many processes render PDFs
    (default: one per core); ``incremental=False`` ignores the stamps and compiles every
    ruleset; each PDF it renders is measured (:mod:`rulesdsl.printed.loss`) and what it loses
    is a warning, or with ``strict`` an error that writes nothing (``check`` renders no PDF:
    one that is not current is stale unmade). ``target_names`` picks the targets
    (:func:`rulesdsl.codegen.targets.chosen`; default: the default ones).
    ``missing`` names the install extras that are not installed (default: looked up);
    outputs that need one are skipped (:attr:`BuildResult.skipped`). The sheets' fixed words
    of a language come from the project's ``i18n/<lang>.po`` beside ``root`` where there is
    one. Raises :class:`rulesdsl.builder.transaction.OutputFolderError` before writing anything
    when the output folder cannot take the files, and before reading, moving or deleting
    anything when it holds a link the build would have to follow (see
    :mod:`rulesdsl.builder.transaction`).
    """
    from rulesdsl.sheet_languages import project_words

    chosen = tuple(backends) if backends is not None else default_backends(target_names)
    missing = _missing_extras() if missing is None else missing
    keys = {backend_key(b): b for b in chosen}
    result = BuildResult([])
    transaction.check_folder(out_dir)
    files, result.diagnostics = _files_by_id(source_files(root))
    if not result.ok:
        return result
    selected = _select(files, names)
    with ExitStack() as stack:
        is_locked = not check and out_dir.is_dir()
        held: tuple[int, ...] = ()  # the lock's descriptor: PDF workers must not keep it
        if is_locked:
            lock = stack.enter_context(transaction.locked(out_dir))
            held = (lock.fd,) if lock is not None else ()
            transaction.recover(out_dir)
        old = mf.load(out_dir)
        words = project_words(root)
        stamp = _Stamp(root, out_dir, old, mf.compiler_digest(), missing, words_digest(words))
        result.up_to_date = [
            rid for rid in selected if incremental and stamp.holds(rid, files[rid], keys)
        ]
        todo = [rid for rid in selected if rid not in result.up_to_date]
        still_skipped = stamp.skipped(result.up_to_date)
        if todo:  # the compiler (Lark, the schema...) is imported only when there is work
            compiler = result.compiler = compiler or _new_compiler()
            compiler.sheet_words = words
            with gc_paused():
                result.compiled = [compiler.compile_file(files[rid]) for rid in todo]
        sources = compiler.sources if compiler is not None else {}
        if not result.ok:
            return result
        result.diagnostics = check_ids(result.compiled, files, sources)
        if not result.ok:
            return result
        rendered, unprintable = _render(result.compiled, chosen, keys, words, files, sources)
        result.diagnostics = _check_paths(rendered, files, sources)
        if not result.ok:
            return result
        result.diagnostics += unprintable
        result.outputs = dict(
            sorted(
                (rel, out)
                for per_key in rendered.values()
                for outs in per_key.values()
                for rel, out in outs.items()
            )
        )
        # fail before the costly part (PDFs) if the files cannot go there
        transaction.preflight(out_dir, result.outputs)
        gone = [] if names else sorted(set(old.rulesets) - set(files))
        read = _sources_read(result.compiled)
        change, skipped = _plan(out_dir, rendered, read, gone, old, stamp, jobs, held, check)
        result.skipped = dict(sorted({**still_skipped, **skipped}.items()))
        from rulesdsl.builder.losses import loss_diagnostics, losses_of

        result.diagnostics += loss_diagnostics(losses_of(change.write), strict=strict)
        if not result.ok:
            return result
        if check:
            traces = transaction.pending(out_dir)
            result.stale = sorted({*change.write, *change.remove, *traces})
            return result
        _commit(out_dir, change, stack, is_locked)
        result.written = sorted(change.write)
        result.removed = sorted(change.remove)
    return result


def _missing_extras() -> frozenset[str]:
    """The install's extras that are not installed."""
    from rulesdsl import extras

    return frozenset(extra for extra in extras.EXTRAS if not extras.has(extra))


def _sources_read(compiled: Sequence[Compiled]) -> dict[str, list[str]]:
    """The files each built ruleset's compile read, by ruleset id (:func:`sources_read`)."""
    return {
        c.ruleset.id: sources_read(Path(c.path), c.ruleset)
        for c in compiled
        if c.ruleset is not None
    }


def _commit(out_dir: Path, change: transaction.Change, stack: ExitStack, is_locked: bool) -> None:
    """Write ``change`` into ``out_dir`` as one transaction, locking a folder that is new."""
    transaction.preflight(out_dir, [*change.write, *change.remove])
    if change:
        if not is_locked:  # the folder is new: lock it now
            stack.enter_context(transaction.locked(out_dir))
        transaction.commit(out_dir, change)


def _render(
    compiled: Sequence[Compiled],
    chosen: tuple[Backend, ...],
    keys: Mapping[str, Backend],
    words: Path,
    files: Mapping[str, Path],
    sources: Mapping[str, str],
) -> tuple[dict[str, dict[str, dict[str, Output]]], list[Diagnostic]]:
    """Every backend's outputs for each compiled ruleset, by ruleset id and backend key, and
    the warnings of PDFs that could not be printed."""
    rendered: dict[str, dict[str, dict[str, Output]]] = {}
    unprintable: list[Diagnostic] = []
    # the IR and the sheets live until the end: collections walking them again and again
    # were a quarter of the 20,000-feature build's CPU (bench/README.md, issue 29)
    with gc_paused():
        for c in compiled:
            if c.ruleset is None:
                continue
            per_key = rendered[c.ruleset.id] = {}
            sheets = _sheets(c.ruleset, chosen, words)
            for key, backend in keys.items():
                per_key[key] = dict(_outputs(backend, c.ruleset, sheets))
                # out at once: a refused PDF's HTML is freed before the next backend runs
                unprintable += _not_printed(c.ruleset.id, per_key[key], files, sources)
    return rendered, unprintable


def _new_compiler() -> Compiler:
    from rulesdsl.compiler import Compiler

    return Compiler()


def skipped_links(root: Path) -> list[Diagnostic]:
    """W003 for each symbolic link among the sources: the build does not follow it."""
    from rulesdsl.diagnostics import warning
    from rulesdsl.frontends.syntax import Pos

    return [
        warning(
            "W003",
            f"{p} is a symbolic link: not built",
            Pos(str(p), 1, 1, 1, 1),
            "rulesets are read only from regular files; copy the file into the folder",
        )
        for p in sorted(root.iterdir())
        if p.suffix in registry.suffixes() and p.is_symlink()
    ]


def _files_by_id(paths: list[Path]) -> tuple[dict[str, Path], list[Diagnostic]]:
    """Ruleset files by id (the file stem); two files with one stem are an error."""
    from rulesdsl.diagnostics import Related, error
    from rulesdsl.frontends.syntax import Pos

    files: dict[str, Path] = {}
    diags: list[Diagnostic] = []
    for path in paths:
        first = files.setdefault(path.stem, path)
        if first != path:
            diags.append(
                error(
                    "E102",
                    f"duplicate ruleset id '{path.stem}': {first} and {path}",
                    Pos(str(path), 1, 1, 1, 1),
                    "a ruleset id names one file; rename or remove one",
                    [Related(Pos(str(first), 1, 1, 1, 1), f"'{path.stem}' is also {first}")],
                )
            )
    return files, diags


def _select(files: Mapping[str, Path], names: Sequence[str]) -> list[str]:
    """The ids a run builds: all of them, or the named ones and what extends them."""
    if not names:
        return sorted(files)
    wanted: set[str] = set()
    for name in names:
        rid = Path(name).stem if Path(name).suffix in registry.suffixes() else name
        if rid not in files:
            known = ", ".join(sorted(files)) or "none"
            raise UnknownRuleset(f"no ruleset '{name}' (there are: {known})")
        wanted.add(rid)
    bases = {
        rid: set(pattern.findall(_text(path)))
        for rid, path in files.items()
        if (pattern := _extends(path)) is not None
    }
    grew = True
    while grew:  # add every ruleset whose base is wanted, until nothing changes
        more = {rid for rid, base in bases.items() if base & wanted} - wanted
        wanted |= more
        grew = bool(more)
    return sorted(wanted)


def _extends(path: Path) -> re.Pattern[str] | None:
    """Where a file's text names its base, for its front end (None: not looked for)."""
    front = registry.named(path.name)
    return None if front is None else front.extends


def _text(path: Path) -> str:
    try:
        return path.read_text("utf-8", errors="replace")
    except OSError:
        return ""


def _not_printed(
    rid: str, outs: dict[str, Output], files: Mapping[str, Path], sources: Mapping[str, str]
) -> list[Diagnostic]:
    """The PDFs among ``outs`` that are not worth a render, taken out of them before any is
    handed to a worker, each with its warning: W010 for a deck with no card (the ruleset has
    nothing to put on cards yet), W009 for a sheet or deck whose HTML is over the limit (too
    long to print usefully, and the render would hold gigabytes). The ruleset's HTML and
    Markdown sheets are still made."""
    from rulesdsl.diagnostics import warning

    out: list[Diagnostic] = []
    for rel, content in list(outs.items()):
        if not isinstance(content, Deferred):
            continue
        if content.blank:
            from rulesdsl.printed.cards import NOTHING_ON_CARDS, WHAT_CARDS_PRINT

            del outs[rel]
            out.append(
                warning(
                    "W010",
                    f"{rel} is not made: the ruleset {NOTHING_ON_CARDS}",
                    header_pos(files[rid], sources, rid),
                    f"{WHAT_CARDS_PRINT}; the deck is made once the ruleset has one",
                )
            )
        elif content.source_bytes > MAX_PDF_SOURCE_BYTES:
            del outs[rel]
            out.append(
                warning(
                    "W009",
                    f"{rel} is not made: {'at least ' if content.source_at_least else ''}"
                    f"{content.source_bytes / 1024:,.0f} KiB of HTML, over "
                    f"the {MAX_PDF_SOURCE_BYTES // 1024:,} KiB a PDF is made from (about 40 "
                    "pages)",
                    header_pos(files[rid], sources, rid),
                    "the HTML and Markdown sheets hold it all; to print it, split the ruleset "
                    "into smaller ones",
                )
            )
    return out


def _check_paths(
    rendered: Mapping[str, Mapping[str, Mapping[str, Output]]],
    files: Mapping[str, Path],
    sources: Mapping[str, str],
) -> list[Diagnostic]:
    """Every output path stays inside the output folder and fits a file system."""
    from rulesdsl.diagnostics import error

    diags: list[Diagnostic] = []
    owner: dict[str, str] = {}
    for rid, per_key in sorted(rendered.items()):
        pos = header_pos(files[rid], sources, rid)
        for rel in sorted(rel for outs in per_key.values() for rel in outs):
            problem = output_path_problem(rel)
            if problem is not None:
                diags.append(
                    error(
                        "E102",
                        f"ruleset '{rid[:60]}' cannot name its output file {rel[:80]!r}: {problem}",
                        pos,
                        "use a shorter ruleset id (letters, digits, underscores)",
                    )
                )
                break  # one diagnostic per ruleset: the rest have the same cause
            if owner.setdefault(rel, rid) != rid:
                diags.append(
                    error(
                        "E102",
                        f"rulesets '{owner[rel]}' and '{rid}' both make {rel}",
                        pos,
                        "rename one of the rulesets",
                    )
                )
    return diags


# ---- stamps and the plan of a run ----------------------------------------------------------


class _Stamp:
    """Reads the manifest's stamps against the files on disk (each file hashed once)."""

    def __init__(
        self,
        root: Path,
        out_dir: Path,
        manifest: mf.Manifest,
        compiler: str,
        missing: Collection[str] = (),
        words: str = "",
    ):
        self.root, self.out_dir, self.manifest, self.compiler = root, out_dir, manifest, compiler
        self.missing = frozenset(missing)
        self.words = words
        """The digest of the project's catalogs of sheet words (:func:`words_digest`)."""
        self._sources: dict[str, str | None] = {}
        self._outputs: dict[str, str | None] = {}

    def source(self, name: str) -> str | None:
        if name not in self._sources:
            self._sources[name] = digest_inside(self.root, name)
        return self._sources[name]

    def output(self, rel: str) -> str | None:
        if rel not in self._outputs:
            self._outputs[rel] = digest_inside(self.out_dir, rel)
        return self._outputs[rel]

    def compiler_of(self, key: str) -> str:
        """What the manifest records as the compiler of a backend's outputs: the sheets' and
        decks' also name the project's catalogs, so editing one rebuilds them."""
        sheets = key in {backend_key(b) for b in _WITH_SHEETS}
        return f"{self.compiler}+words:{self.words}" if sheets and self.words else self.compiler

    def holds(self, rid: str, path: Path, keys: Iterable[str]) -> bool:
        """Whether every backend's outputs of ``rid`` are what a compile would write."""
        entries = self.manifest.rulesets.get(rid, {})
        for key in keys:
            entry = entries.get(key)
            if (
                entry is None
                or entry.compiler != self.compiler_of(key)
                or path.name not in entry.sources
                or any(self.source(n) != sha for n, sha in entry.sources.items())
                or not all(self.output_holds(r, sha) for r, sha in entry.outputs.items())
            ):
                return False
        return True

    def skipped(self, rids: Iterable[str]) -> dict[str, str]:
        """The outputs of these rulesets that the manifest records as skipped (path ->
        the extra they need)."""
        return {
            rel: sha.removeprefix(SKIPPED)
            for rid in rids
            for entry in self.manifest.rulesets.get(rid, {}).values()
            for rel, sha in entry.outputs.items()
            if sha.startswith(SKIPPED)
        }

    def output_holds(self, rel: str, sha: str) -> bool:
        """Whether the output ``rel`` is as recorded: the same digest, or skipped for want of
        an extra that is still missing."""
        if sha.startswith(SKIPPED):
            return sha.removeprefix(SKIPPED) in self.missing
        return self.output(rel) == sha


def _plan(
    out_dir: Path,
    rendered: Mapping[str, Mapping[str, Mapping[str, Output]]],
    read: Mapping[str, list[str]],
    gone: list[str],
    old: mf.Manifest,
    stamp: _Stamp,
    jobs: int | None,
    held: Sequence[int] = (),
    check: bool = False,
) -> tuple[transaction.Change, dict[str, str]]:
    """What to write and remove, and the manifest after the run; and the outputs skipped for
    want of an extra (path -> extra). ``read`` names the source files each rendered ruleset
    was compiled from; ``held`` are the descriptors PDF workers close (the lock). With
    ``check`` a deferred output that is not current is listed unmade (empty bytes, never
    written): a build would write it whatever its render, so it is stale (``Deferred``)."""
    change = transaction.Change()
    skipped: dict[str, str] = {}
    new = mf.Manifest({rid: dict(entries) for rid, entries in old.rulesets.items()})
    deferred: dict[str, Deferred] = {}
    for per_key in rendered.values():
        for outs in per_key.values():
            for rel, content in outs.items():
                if is_current(out_dir, rel, content):
                    continue
                if isinstance(content, Deferred) and content.needs in stamp.missing:
                    skipped[rel] = content.needs
                elif isinstance(content, Deferred):
                    deferred[rel] = content
                else:
                    change.write[rel] = content
    if check:  # stale without a render: nothing is written after a check
        change.write.update(dict.fromkeys(deferred, b""))
    else:
        change.write.update(render_deferred(deferred, jobs, held=held))
    for rid, per_key in rendered.items():
        path_names = read[rid]
        for key in [k for k in new.rulesets.get(rid, {}) if retired(k)]:
            _drop(new.rulesets[rid].pop(key).outputs, set(), stamp, change)
        for key, outs in per_key.items():
            digests = {rel: _recorded(rel, change, skipped, stamp) for rel in outs}
            before = old.rulesets.get(rid, {}).get(key)
            if before is not None:
                _drop(before.outputs, set(outs), stamp, change)
            sources = {name: stamp.source(name) or "" for name in path_names}
            entry = mf.Entry(stamp.compiler_of(key), sources, digests)
            new.rulesets.setdefault(rid, {})[key] = entry
    for rid in gone:
        for entry in new.rulesets.pop(rid, {}).values():
            _drop(entry.outputs, set(), stamp, change)
    kept = new.owned()  # an output another entry still owns (a crafted manifest) stays
    change.remove = {rel: sha for rel, sha in change.remove.items() if rel not in kept}
    data = new.dumps()
    if data != _current_manifest(out_dir):
        change.manifest = data
    return change, dict(sorted(skipped.items()))


def _recorded(
    rel: str, change: transaction.Change, skipped: Mapping[str, str], stamp: _Stamp
) -> str:
    """The digest the manifest records for an output after the run."""
    if rel in change.write:
        return digest_bytes(change.write[rel])
    if rel in skipped:
        return SKIPPED + skipped[rel]
    return stamp.output(rel) or ""


def _drop(
    recorded: Mapping[str, str], kept: set[str], stamp: _Stamp, change: transaction.Change
) -> None:
    """Remove the recorded outputs not in ``kept`` that are still as the build wrote them."""
    for rel, sha in recorded.items():
        if rel not in kept and rel not in change.write and stamp.output(rel) == sha:
            change.remove[rel] = sha


def _current_manifest(out_dir: Path) -> bytes | None:
    return read_inside(out_dir, mf.MANIFEST, mf.LIMIT)


# ---- rendering in a process pool ----------------------------------------------------------


def render_deferred(
    pending: Mapping[str, Deferred], jobs: int | None = None, *, held: Sequence[int] = ()
) -> dict[str, bytes]:
    """Make every deferred output; with more than one to make and more than one job, in a
    pool of processes that die with this one (:mod:`rulesdsl.builder.workers`) and close the
    descriptors in ``held``. The result is sorted by path and does not depend on which
    process finished first."""
    names = sorted(pending)
    jobs = default_jobs() if jobs is None else max(1, jobs)
    poolable = [n for n in names if _picklable(pending[n].render)] if jobs > 1 else []
    if len(poolable) < 2:
        return {name: pending[name].render() for name in names}
    from rulesdsl.builder.workers import pool as worker_pool

    with worker_pool(min(jobs, len(poolable)), held) as pool:
        futures = {name: pool.submit(pending[name].render) for name in poolable}
        made = {name: pending[name].render() for name in names if name not in futures}
        made.update({name: future.result() for name, future in futures.items()})
    return {name: made[name] for name in names}


def _picklable(function: Callable[[], bytes]) -> bool:
    try:
        pickle.dumps(function)
    except (pickle.PicklingError, TypeError, AttributeError):
        return False
    return True


# ---- comparing and writing single outputs -------------------------------------------------


def is_current(out_dir: Path, rel: str, content: Output) -> bool:
    """Whether ``out_dir/rel`` is a regular file, reached without a symbolic link, that is
    ``content`` (or, for a Deferred output, that it can stay)."""
    if isinstance(content, bytes):
        existing = read_inside(out_dir, rel, len(content))
        return existing == content
    existing = read_inside(out_dir, rel, READ_LIMIT)
    return existing is not None and content.is_current(existing)


def stale_files(out_dir: Path, outputs: Mapping[str, Output]) -> list[str]:
    """The outputs that differ from, or are missing in, ``out_dir``."""
    return sorted(rel for rel, content in outputs.items() if not is_current(out_dir, rel, content))


def write_outputs(out_dir: Path, outputs: Mapping[str, Output]) -> list[str]:
    """Write each changed output in one transaction; Deferred outputs are all made before
    the first file is written, so a failure while making one leaves ``out_dir`` as it was."""
    changed = {
        rel: content for rel, content in outputs.items() if not is_current(out_dir, rel, content)
    }
    ready = {rel: content for rel, content in changed.items() if isinstance(content, bytes)}
    ready.update(
        render_deferred({rel: c for rel, c in changed.items() if isinstance(c, Deferred)}, jobs=1)
    )
    if ready:
        transaction.preflight(out_dir, ready)
        with transaction.locked(out_dir):
            transaction.recover(out_dir)
            transaction.commit(out_dir, transaction.Change(write=ready))
    return sorted(ready)
