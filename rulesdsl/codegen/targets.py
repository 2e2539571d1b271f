"""The targets: what each writes for a ruleset, in a folder of its own under ``generated/``.

The build, ``build --check``, the manifest and the compiler's digest read :data:`TARGETS`
and nothing else about a target; a second target (JavaScript, say) is one more entry.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol

from rulesdsl.gc_pause import gc_paused
from rulesdsl.outputs import Output

if TYPE_CHECKING:  # the build imports this before it knows whether there is work
    from rulesdsl import ir


class Target(Protocol):
    """One target language."""

    @property
    def name(self) -> str:
        """How the manifest names the target's outputs (``target:<name>``)."""

    @property
    def folder(self) -> str:
        """The folder of ``generated/`` that holds every output of the target."""

    @property
    def package_files(self) -> tuple[str, ...]:
        """The suffixes of the package files its outputs are made from (templates, a
        runtime): a change to one of them invalidates every stamp."""

    @property
    def default(self) -> bool:
        """Whether `rulesdsl build` runs it when no ``--target`` is given."""

    def outputs(self, ruleset: ir.Ruleset) -> Mapping[str, Output]:
        """The files it writes for ``ruleset``, by path relative to :attr:`folder`."""


@dataclass(frozen=True)
class PythonTarget:
    """``<id>.py``: the ruleset's standalone module; with worked examples, also
    ``<id>.examples.json`` (the test vectors) and ``test_<id>_examples.py`` (a pytest file
    that replays them against the module)."""

    name: str = "python"
    folder: str = "python"
    package_files: tuple[str, ...] = (".py", ".j2")
    default: bool = True

    def outputs(self, ruleset: ir.Ruleset) -> dict[str, Output]:
        from rulesdsl.codegen.plan import examples as plan_examples
        from rulesdsl.codegen.python import examples as python_examples

        out: dict[str, Output] = {f"{ruleset.id}.py": render_python(ruleset).encode()}
        if ruleset.examples:
            vectors = plan_examples.build(ruleset)
            out[f"{ruleset.id}.examples.json"] = python_examples.vectors_json(vectors).encode()
            out[f"test_{ruleset.id}_examples.py"] = python_examples.render_test(vectors).encode()
        return out


@dataclass(frozen=True)
class JsTarget:
    """``<id>.js`` (an ES module, no dependencies), ``<id>.d.ts`` and ``package.json``: the
    ruleset's JavaScript package, written from the module plan (issue 37): it answers
    everything the Python module answers (docs/module-api-js.md)."""

    name: str = "js"
    folder: str = "js"
    package_files: tuple[str, ...] = (".py", ".js", ".ts")
    default: bool = True

    def outputs(self, ruleset: ir.Ruleset) -> dict[str, Output]:
        from rulesdsl.codegen import js, plan

        files = js.emit(plan.build(ruleset))
        return {f"{ruleset.id}/{name}": text.encode() for name, text in files.items()}


PYTHON = PythonTarget()
JS = JsTarget()

TARGETS: tuple[Target, ...] = (PYTHON, JS)
"""Every target `rulesdsl build` can run, in order; those ``default`` run unless
``--target`` names others."""


def chosen(names: Sequence[str] = ()) -> tuple[Target, ...]:
    """The targets named (in :data:`TARGETS`' order), or the default ones when none is."""
    return tuple(t for t in TARGETS if (t.name in names if names else t.default))


@gc_paused()  # no collection while the module's many small strings are made (issue 29)
def render_python(ruleset: ir.Ruleset) -> str:
    """The Python module's source for ``ruleset``: its plan, emitted."""
    from rulesdsl.codegen import plan
    from rulesdsl.codegen import python as python_backend

    return python_backend.emit(plan.build(ruleset))
