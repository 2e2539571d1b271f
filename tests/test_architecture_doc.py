"""docs/architecture.md is true to the code (issue 22, item 5).

The page writes what it says about the code in two forms, both in backticks: a path from the
repository's root (`rulesdsl/lowering/tables.py`, a folder ends in `/`), and a path with a name
that file defines (`rulesdsl/lowering/tables.py: TableLowering._step`; for a file that is not
Python, a word of its text). Every such path must exist and every such name be defined there,
so a moved file or a renamed function makes this test name the stale line. Its folder list is
every package folder, and its numbered list of checks is ``checks.PASSES`` in order. (That the
"add a construct" walkthrough names the modules mypy names for a new step term is held by
tests/test_closed_unions.py, which runs mypy.)
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

from rulesdsl import checks

ROOT = Path(__file__).resolve().parent.parent
DOC = ROOT / "docs" / "architecture.md"
TEXT = DOC.read_text("utf-8")

PATH = re.compile(r"[\w.-]+(?:/[\w.-]+)*(?:\.(?:py|lark|j2|json|md|po|css|toml)|/)")
"""A file (by its suffix) or a folder (ending in ``/``), written from the repository's root."""

MENTION = re.compile(rf"(?P<path>{PATH.pattern})(?:: (?P<name>[A-Za-z_][\w.]*))?")


def mentions() -> list[tuple[str, str | None]]:
    """Every ``path`` and ``path: Name`` in backticks, in the order written."""
    found = []
    for span in re.findall(r"`([^`\n]+)`", TEXT):
        match = MENTION.fullmatch(span)
        if match is not None and "/" in match["path"]:
            found.append((match["path"], match["name"]))
    return found


def defines(path: Path, name: str) -> bool:
    """Whether ``path`` defines ``name`` (``Class.method`` inside a class); for a file that is
    not Python, whether its text holds the word."""
    if path.suffix != ".py":
        return re.search(rf"\b{re.escape(name)}\b", path.read_text("utf-8")) is not None
    body: list[ast.stmt] = ast.parse(path.read_text("utf-8")).body
    for part in name.split("."):
        node = next((n for n in body if part in _names(n)), None)
        if node is None:
            return False
        body = node.body if isinstance(node, ast.ClassDef) else []
    return True


def _names(node: ast.stmt) -> set[str]:
    if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
        return {node.name}
    if isinstance(node, ast.Assign):
        return {t.id for t in node.targets if isinstance(t, ast.Name)}
    if isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
        return {node.target.id}
    return set()


def test_the_page_names_files_by_path_and_names_in_the_form_the_test_reads() -> None:
    assert len(mentions()) > 50
    assert any(name for _, name in mentions())


def test_every_path_the_page_names_exists() -> None:
    missing = [path for path, _ in mentions() if not (ROOT / path).exists()]
    assert missing == []


def test_every_name_the_page_gives_a_file_is_defined_there() -> None:
    wrong = [
        f"{path}: {name}"
        for path, name in mentions()
        if name is not None and (ROOT / path).is_file() and not defines(ROOT / path, name)
    ]
    assert wrong == []


def test_the_folder_list_is_every_package_folder() -> None:
    layout = TEXT.split("\n## ", 1)[0]
    listed = set(re.findall(r"^    (\w+)/ ", layout, flags=re.M))
    package = ROOT / "rulesdsl"
    folders = {p.parent.name for p in package.glob("*/__init__.py")}
    assert listed == folders


def test_the_checks_are_listed_as_checks_passes_runs_them() -> None:
    section = TEXT.split("**Checks**", 1)[1].split("\n\n**", 1)[0]
    listed = re.findall(r"^\d+\. `(\w+)`", section, flags=re.M)
    passes = [p.__module__.rsplit(".", 1)[1] for p in checks.PASSES]
    assert listed == [*passes, "sheet_words"]  # last: it also reads the project's folder
