"""The optional parts of the install: which extra a feature needs, and whether it is there.

The core install (``pip install rulesdsl``) compiles rulesets to Python modules, HTML and
Markdown sheets. The rest comes with an extra:

* ``pdf``: WeasyPrint, for PDF sheets and cards;
* ``editor``: pygls, lsprotocol and watchfiles, for `rulesdsl lsp` and `rulesdsl watch`;
* ``xlsx``: openpyxl, for spreadsheets in .xlsx.

A feature asks :func:`require` before it imports its packages, so a missing extra is one line
that names the command to install it (:class:`ExtraMissing`, which the CLI reports with exit
status 2), never an ImportError's traceback. The packages are looked up without being
imported (WeasyPrint's import alone takes most of a second).
"""

from __future__ import annotations

import importlib.util

EXTRAS: dict[str, tuple[str, ...]] = {
    "pdf": ("weasyprint",),
    "editor": ("pygls", "lsprotocol", "watchfiles"),
    "xlsx": ("openpyxl",),
}
"""Each extra of pyproject.toml and the top-level modules it installs."""


class ExtraMissing(RuntimeError):
    """A feature needs an extra that is not installed."""


def install_hint(extra: str) -> str:
    """The command that installs ``extra``."""
    return f"pip install 'rulesdsl[{extra}]'"


def missing(extra: str) -> list[str]:
    """The modules of ``extra`` that cannot be found (none when it is installed)."""
    return [name for name in EXTRAS[extra] if not _found(name)]


def has(extra: str) -> bool:
    """Whether every module of ``extra`` can be found."""
    return not missing(extra)


def require(extra: str, feature: str) -> None:
    """Raise :class:`ExtraMissing` naming ``feature``, the missing modules and the install
    command, when ``extra`` is not installed."""
    absent = missing(extra)
    if absent:
        raise ExtraMissing(
            f"{feature} needs the '{extra}' extra ({', '.join(absent)} not installed): "
            f"{install_hint(extra)}"
        )


def _found(name: str) -> bool:
    try:
        return importlib.util.find_spec(name) is not None
    except (ImportError, ValueError):  # a broken parent package, or a module with no spec
        return False
