"""The build's record of what it wrote: ``generated/.rulesdsl-manifest.json``.

For every ruleset and backend the manifest holds the digests of the inputs the outputs were
made from (the ruleset's source and its bases' sources, and the compiler's own files) and the
digests of the files written. It serves two purposes:

* ownership: the build removes an output that no ruleset produces any more only when the
  manifest lists it and the file on disk still has the recorded digest; any other file in the
  output folder is the user's and is never touched;
* a stamp: when every input digest and every output digest still match, the build skips the
  ruleset without compiling it.

The file is sorted JSON with no time stamps, so the same build writes the same bytes. A
manifest that cannot be read (a symbolic link, a pipe, more than :data:`LIMIT` bytes, not
JSON), or an entry that is malformed or names a path outside the output folder, is ignored:
the build then simply does more work and owns less. The manifest of a cloned repository is
input like any other: no file it names is read through a symbolic link.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

from rulesdsl.codegen import targets
from rulesdsl.outputs import digest_inside, output_path_problem, read_inside

MANIFEST = ".rulesdsl-manifest.json"
FORMAT = 1
LIMIT = 16 * 1024 * 1024
"""The largest manifest read, in bytes (a build of 10 rulesets writes 31 KB)."""

_PACKAGE_SUFFIXES = (".py", ".j2", ".css", ".json", ".lark", ".po", ".ttf")
"""The files of the package whose bytes can change an output (the .po catalogs hold the
sheets' words, the .ttf fonts their glyphs), besides those each target names
(:func:`package_suffixes`)."""


def package_suffixes() -> tuple[str, ...]:
    """The suffixes of every package file whose bytes can change an output: the compiler's
    and the printed outputs', and each target's own (``Target.package_files``)."""
    named = (suffix for target in targets.TARGETS for suffix in target.package_files)
    return tuple(sorted({*_PACKAGE_SUFFIXES, *named}))


@dataclass(frozen=True)
class Entry:
    """What one backend made of one ruleset."""

    compiler: str
    sources: dict[str, str]
    """Digest of each source file read, by path relative to the rulesets folder."""
    outputs: dict[str, str]
    """Digest of each file written, by path relative to the output folder."""

    def to_data(self) -> dict[str, Any]:
        return {
            "compiler": self.compiler,
            "outputs": dict(sorted(self.outputs.items())),
            "sources": dict(sorted(self.sources.items())),
        }


@dataclass
class Manifest:
    rulesets: dict[str, dict[str, Entry]] = field(default_factory=dict)
    """Entries by ruleset id, then by backend key."""

    def owned(self) -> dict[str, str]:
        """Every output the build wrote, with its recorded digest."""
        return {
            rel: sha
            for entries in self.rulesets.values()
            for entry in entries.values()
            for rel, sha in entry.outputs.items()
        }

    def dumps(self) -> bytes:
        data = {
            "format": FORMAT,
            "rulesets": {
                rid: {key: entry.to_data() for key, entry in sorted(entries.items())}
                for rid, entries in sorted(self.rulesets.items())
                if entries
            },
        }
        return (json.dumps(data, indent=1, sort_keys=True, ensure_ascii=False) + "\n").encode()


def load(out_dir: Path) -> Manifest:
    """The manifest in ``out_dir``; an empty one if it is missing or unreadable."""
    raw = read_inside(out_dir, MANIFEST, LIMIT)
    if raw is None:
        return Manifest()
    try:
        data = json.loads(raw)
    except (ValueError, RecursionError):  # RecursionError: arrays nested thousands deep
        return Manifest()
    return parse(data)


def parse(data: object) -> Manifest:
    manifest = Manifest()
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        return manifest
    rulesets = data.get("rulesets")
    if not isinstance(rulesets, dict):
        return manifest
    for rid, entries in rulesets.items():
        if not isinstance(entries, dict):
            continue
        for key, raw in entries.items():
            entry = _entry(raw)
            if entry is not None:
                manifest.rulesets.setdefault(str(rid), {})[str(key)] = entry
    return manifest


def _entry(raw: object) -> Entry | None:
    if not isinstance(raw, dict) or not isinstance(raw.get("compiler"), str):
        return None
    sources, outputs = raw.get("sources"), raw.get("outputs")
    if not (_str_map(sources) and _str_map(outputs)):
        return None
    assert isinstance(sources, dict) and isinstance(outputs, dict)
    if any(output_path_problem(rel) for rel in (*sources, *outputs)):
        return None  # a path that could leave its folder: not ours
    return Entry(raw["compiler"], dict(sources), dict(outputs))


def _str_map(value: object) -> bool:
    return isinstance(value, dict) and all(
        isinstance(k, str) and isinstance(v, str) for k, v in value.items()
    )


def file_digest(path: Path) -> str | None:
    """The digest of a regular file's bytes; None if it is missing, a link or not a file."""
    return digest_inside(path.parent, path.name)


def digests(folder: Path, names: Iterable[str]) -> dict[str, str | None]:
    """The digest of each file ``folder/name`` (None where a link is on its way, see
    :func:`rulesdsl.outputs.digest_inside`)."""
    return {name: digest_inside(folder, name) for name in names}


def compiler_digest() -> str:
    """A digest of the compiler itself: every Python, template, schema and grammar file of
    the installed rulesdsl package, and every file a target names (byte-compiled caches left
    out). A change to any of them invalidates every stamp."""
    return _digest(package_suffixes())


@cache
def _digest(suffixes: tuple[str, ...]) -> str:
    package = Path(__file__).resolve().parents[1]  # rulesdsl/, this file being in builder/
    digest = hashlib.sha256()
    roots = {"rulesdsl": package, "grammars": _grammars_folder(package)}
    for label, root in sorted(roots.items()):
        files = sorted(
            p
            for p in root.rglob("*")
            if p.suffix in suffixes
            and not {"__pycache__", "grammars"} & set(p.relative_to(root).parts)
            and p.is_file()
        )
        for path in files:
            digest.update(f"{label}/{path.relative_to(root).as_posix()}\0".encode())
            digest.update(hashlib.sha256(path.read_bytes()).digest())
    return digest.hexdigest()


def _grammars_folder(package: Path) -> Path:
    """Where the grammar is: the ``rulesdsl.grammars`` package data when installed, else
    ``grammars/`` beside the package in a source checkout (as :mod:`rulesdsl.frontends.dsl`
    finds it)."""
    installed = package / "grammars"
    return installed if installed.is_dir() else package.parent / "grammars"


def unchanged(recorded: Mapping[str, str], current: Mapping[str, str | None]) -> bool:
    return all(current.get(name) == sha for name, sha in recorded.items())
