"""rulesdsl: compile tabletop terrain rules into Python modules and reference sheets."""

from __future__ import annotations


def version() -> str:
    """The installed rulesdsl's version, from the package metadata; in a source tree that was
    never installed, the version pyproject.toml beside it declares; else ``unknown``."""
    from importlib.metadata import PackageNotFoundError
    from importlib.metadata import version as installed

    try:
        return installed("rulesdsl")
    except PackageNotFoundError:
        pass
    import tomllib
    from pathlib import Path

    try:
        project = tomllib.loads((Path(__file__).parent.parent / "pyproject.toml").read_text())
        found = project["project"]["version"]
    except (OSError, ValueError, KeyError, TypeError):
        return "unknown"
    return found if isinstance(found, str) else "unknown"
