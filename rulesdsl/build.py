"""Build the generated/ tree from rulesets/: every output computed first, then written atomically.

A build with any error writes nothing. Outputs are deterministic, so ``--check`` compares the
bytes that would be written with what is on disk and names every file that differs.
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path

from rulesdsl import ir
from rulesdsl.backends import python as python_backend
from rulesdsl.compiler import Compiled, Compiler, ruleset_files

Backend = Callable[[ir.Ruleset], Mapping[str, bytes]]
"""A backend gives, for one ruleset, file contents by path relative to generated/."""


def python_outputs(ruleset: ir.Ruleset) -> dict[str, bytes]:
    return {f"python/{ruleset.id}.py": python_backend.render(ruleset).encode("utf-8")}


def default_backends() -> tuple[Backend, ...]:
    """The backends `rulesdsl build` runs, in order."""
    backends: list[Backend] = [python_outputs]
    try:
        from rulesdsl.backends.sheets import sheet_outputs
    except ImportError:  # pragma: no cover - the sheet backend ships with the package
        pass
    else:
        backends.append(sheet_outputs)
    return tuple(backends)


@dataclass
class BuildResult:
    compiled: list[Compiled]
    outputs: dict[str, bytes] = field(default_factory=dict)
    stale: list[str] = field(default_factory=list)
    written: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return all(c.ok for c in self.compiled)


def compile_all(compiler: Compiler, sources: Iterable[Path]) -> list[Compiled]:
    return [compiler.compile_file(path) for path in sources]


def render_all(rulesets: Iterable[ir.Ruleset],
               backends: Iterable[Backend]) -> dict[str, bytes]:
    outputs: dict[str, bytes] = {}
    chosen = tuple(backends)
    for ruleset in rulesets:
        for backend in chosen:
            outputs.update(backend(ruleset))
    return dict(sorted(outputs.items()))


def build(root: Path, out_dir: Path, *, check: bool = False,
          backends: Iterable[Backend] | None = None,
          compiler: Compiler | None = None) -> BuildResult:
    """Compile every ruleset in ``root``; write (or, with ``check``, compare) ``out_dir``."""
    compiler = compiler or Compiler()
    result = BuildResult(compile_all(compiler, ruleset_files(root)))
    if not result.ok:
        return result
    rulesets = [c.ruleset for c in result.compiled if c.ruleset is not None]
    result.outputs = render_all(rulesets, backends or default_backends())
    if check:
        result.stale = stale_files(out_dir, result.outputs)
    else:
        result.written = write_outputs(out_dir, result.outputs)
    return result


def stale_files(out_dir: Path, outputs: Mapping[str, bytes]) -> list[str]:
    """Files that differ from, are missing from, or are left over beside, ``outputs``."""
    stale = []
    for rel, content in outputs.items():
        path = out_dir / rel
        if not path.is_file() or path.read_bytes() != content:
            stale.append(rel)
    for kind in {rel.split("/", 1)[0] for rel in outputs}:
        folder = out_dir / kind
        if folder.is_dir():
            for path in sorted(folder.iterdir()):
                rel = f"{kind}/{path.name}"
                if path.is_file() and rel not in outputs and not path.name.startswith("."):
                    stale.append(rel)
    return sorted(stale)


def write_outputs(out_dir: Path, outputs: Mapping[str, bytes]) -> list[str]:
    """Write each changed file to a temporary name beside it, then rename it into place."""
    written = []
    for rel, content in outputs.items():
        path = out_dir / rel
        if path.is_file() and path.read_bytes() == content:
            continue
        atomic_write(path, content)
        written.append(rel)
    return written


def atomic_write(path: Path, content: bytes) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(content)
        os.chmod(tmp, 0o644)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
