"""The requirements file `rulesdsl init` writes: the running install, so that CI installs
exactly the rulesdsl (and the versions of what it uses) that built the project's generated/.

Where rulesdsl came from is read from its install record (PEP 610's ``direct_url.json``): an
index (``rulesdsl[pdf]==X.Y.Z``), a git URL at its commit, a wheel or a folder.
"""

from __future__ import annotations

import json
import re
from importlib.metadata import Distribution, PackageNotFoundError, distribution, distributions

REQUIREMENTS = "requirements-rules.txt"

HEADER = """\
# What CI installs to check generated/ (written by `rulesdsl init` from the install that made
# this project): generated/ depends on rulesdsl's version, and the PDFs on WeasyPrint's, so CI
# installs the same. After upgrading rulesdsl, run `rulesdsl build`, commit generated/, and
# update the versions below (`pip freeze` shows yours).
#
# The first line says where rulesdsl comes from. To install it from elsewhere, write one of:
#   rulesdsl[pdf]==VERSION                                  from PyPI, or from your index
#                                                           with `--index-url URL` above it
#   rulesdsl[pdf] @ https://example.org/rulesdsl-VERSION-py3-none-any.whl     a wheel
#   ./wheels/rulesdsl-VERSION-py3-none-any.whl[pdf]         a wheel committed in this repo
#   rulesdsl[pdf] @ git+https://example.org/you/rulesdsl.git@TAG_OR_COMMIT    a git URL
"""


def source_line(dist: Distribution | None, extras: str = "pdf") -> tuple[str, str | None]:
    """The requirement that installs ``dist`` (the running rulesdsl) again, and a note when
    CI cannot reach where it came from (a folder or a file on this machine)."""
    name = f"rulesdsl[{extras}]"
    if dist is None:
        return name, "rulesdsl is not installed (run from a source tree): its version is unknown"
    record = dist.read_text("direct_url.json")
    if record is None:  # installed from an index
        return f"{name}=={dist.version}", None
    url = json.loads(record)
    where: str = url["url"]
    if "vcs_info" in url:
        vcs = url["vcs_info"]
        return f"{name} @ {vcs['vcs']}+{where}@{vcs['commit_id']}", None
    if where.startswith("file:"):
        return f"{name} @ {where}", (
            f"{REQUIREMENTS} installs rulesdsl from {where}, on this machine only: CI cannot "
            "reach it; point it at a wheel, a git URL or an index (its comments say how)"
        )
    return f"{name} @ {where}", None


def pinned(extras: tuple[str, ...] = ("pdf",)) -> dict[str, str]:
    """Every installed distribution rulesdsl (with ``extras``) needs, directly or not, and
    its version, by name."""
    found: dict[str, str] = {}
    todo: list[tuple[str, tuple[str, ...]]] = [("rulesdsl", extras)]
    while todo:
        name, wanted = todo.pop()
        try:
            dist = distribution(name)
        except PackageNotFoundError:
            continue  # a requirement of another platform or Python
        key = re.sub(r"[-_.]+", "-", dist.metadata["Name"]).lower()
        if key in found:
            continue
        found[key] = dist.version
        for requirement in dist.requires or ():
            spec, _, marker = requirement.partition(";")
            extra = re.search(r"""extra\s*==\s*['"]([^'"]+)['"]""", marker)
            if extra and extra.group(1) not in wanted:
                continue
            head = re.match(r"\s*([A-Za-z0-9][A-Za-z0-9._-]*)\s*(?:\[([^\]]*)\])?", spec)
            if head:
                more = tuple(e.strip() for e in (head.group(2) or "").split(",") if e.strip())
                todo.append((head.group(1), more))
    found.pop("rulesdsl", None)
    return dict(sorted(found.items()))


def installed() -> Distribution | None:
    """The running rulesdsl's install record. Run in a source tree, a ``rulesdsl.egg-info``
    there is found too: the record of an install (it has ``direct_url.json`` when it came
    from a folder, a file or a URL) wins over it."""
    found = list(distributions(name="rulesdsl"))
    recorded = [d for d in found if d.read_text("direct_url.json") is not None]
    return next(iter(recorded or found), None)


def requirements_text() -> tuple[str, str | None]:
    """The file's text, and the note :func:`source_line` gives (None when CI can install it)."""
    line, note = source_line(installed())
    pins = "".join(f"{name}=={version}\n" for name, version in pinned().items())
    return f"{HEADER}{line}\n{pins}", note
