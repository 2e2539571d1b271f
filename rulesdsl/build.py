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
from rulesdsl.outputs import Deferred, Output

Backend = Callable[[ir.Ruleset], Mapping[str, Output]]
"""A backend gives, for one ruleset, file contents by path relative to generated/."""


def python_outputs(ruleset: ir.Ruleset) -> dict[str, Output]:
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
    try:
        from rulesdsl.backends.cards import card_outputs
    except ImportError:  # pragma: no cover - the card backend ships with the package
        pass
    else:
        backends.append(card_outputs)
    return tuple(backends)


@dataclass
class BuildResult:
    compiled: list[Compiled]
    outputs: dict[str, Output] = field(default_factory=dict)
    stale: list[str] = field(default_factory=list)
    written: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return all(c.ok for c in self.compiled)


def compile_all(compiler: Compiler, sources: Iterable[Path]) -> list[Compiled]:
    return [compiler.compile_file(path) for path in sources]


def render_all(rulesets: Iterable[ir.Ruleset],
               backends: Iterable[Backend]) -> dict[str, Output]:
    outputs: dict[str, Output] = {}
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


def is_current(path: Path, content: Output) -> bool:
    if not path.is_file():
        return False
    existing = path.read_bytes()
    if isinstance(content, Deferred):
        return content.is_current(existing)
    return existing == content


def stale_files(out_dir: Path, outputs: Mapping[str, Output]) -> list[str]:
    """Files that differ from, are missing from, or are left over beside, ``outputs``."""
    stale = [rel for rel, content in outputs.items() if not is_current(out_dir / rel, content)]
    for kind in {rel.split("/", 1)[0] for rel in outputs}:
        folder = out_dir / kind
        if folder.is_dir():
            for path in sorted(folder.iterdir()):
                rel = f"{kind}/{path.name}"
                if path.is_file() and rel not in outputs and not path.name.startswith("."):
                    stale.append(rel)
    return sorted(stale)


def write_outputs(out_dir: Path, outputs: Mapping[str, Output]) -> list[str]:
    """Write each changed file to a temporary name beside it, then rename it into place.

    Deferred outputs are all made before the first file is written, so a failure while
    making one leaves generated/ as it was.
    """
    changed = {rel: content for rel, content in outputs.items()
               if not is_current(out_dir / rel, content)}
    ready = {rel: content.render() if isinstance(content, Deferred) else content
             for rel, content in changed.items()}
    for rel, data in ready.items():
        atomic_write(out_dir / rel, data)
    return list(ready)


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
