"""Editor packaging: the TextMate grammar scopes every token of every bundled ruleset, and the
VS Code extension starts `rulesdsl lsp` and validates YAML rulesets with the shipped schema."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import ROOT, RULESETS

VSCODE = ROOT / "editors" / "vscode"
GRAMMAR = json.loads((VSCODE / "syntaxes" / "terrain.tmLanguage.json").read_text("utf-8"))


def _rules(grammar: dict[str, Any]) -> list[tuple[re.Pattern[str], dict[str, Any]]]:
    """The top-level patterns with includes expanded, compiled with Python's re (the grammar
    sticks to the syntax Oniguruma and re share)."""
    out = []
    for pattern in grammar["patterns"]:
        rule = grammar["repository"][pattern["include"].lstrip("#")]
        out.append((re.compile(rule["match"]), rule))
    return out


RULES = _rules(GRAMMAR)


def tokenize(line: str) -> list[tuple[str, str]]:
    """(text, scope) for each piece of ``line``, as a TextMate engine reads a single-line
    grammar: at each point the rule whose match starts first wins, ties to the earlier rule;
    unmatched text has scope ""."""
    out: list[tuple[str, str]] = []
    pos = 0
    while pos < len(line):
        best: tuple[re.Match[str], dict[str, Any]] | None = None
        for regex, rule in RULES:
            m = regex.search(line, pos)
            if m and (best is None or m.start() < best[0].start()):
                best = (m, rule)
        if best is None:
            out.append((line[pos:], ""))
            break
        m, rule = best
        out.append((line[pos : m.start()], ""))
        scopes = [rule.get("name", "")] * (m.end() - m.start())
        for group, capture in rule.get("captures", {}).items():
            if m.group(int(group)) is not None:
                for i in range(m.start(int(group)), m.end(int(group))):
                    scopes[i - m.start()] = capture["name"]
        text = line[m.start() : m.end()]
        i = 0
        while i < len(text):
            j = i
            while j < len(text) and scopes[j] == scopes[i]:
                j += 1
            out.append((text[i:j], scopes[i]))
            i = j
        pos = max(m.end(), pos + 1)
    return [(text, scope) for text, scope in out if text]


@pytest.mark.parametrize("path", sorted(RULESETS.glob("*.terrain")), ids=lambda p: p.stem)
def test_the_grammar_scopes_every_token_of_the_bundled_rulesets(path: Path) -> None:
    unscoped = [
        (n, text)
        for n, line in enumerate(path.read_text("utf-8").splitlines(), 1)
        for text, scope in tokenize(line)
        if not scope and text.strip()
    ]
    assert unscoped == []


def scopes_of(line: str) -> dict[str, str]:
    return {text: scope for text, scope in tokenize(line) if text.strip()}


def test_the_grammar_tells_declarations_keywords_values_and_sources_apart() -> None:
    row = scopes_of('  soft "Soft" fr "Meuble" | 2, walker 3, hover as clear [hg p.12]  # c')
    assert row['"Soft"'] == "string.quoted.double.terrain"
    assert row["as"] == "constant.language.terrain"
    assert row["2"] == "constant.numeric.terrain"
    assert row["walker"] == "variable.other.terrain"
    assert row["hg"] == "entity.name.tag.book.terrain"
    assert row["p.12"] == "constant.other.page.terrain"
    assert row["# c"] == "comment.line.number-sign.terrain"
    decl = scopes_of('layer terrain "Terrain" one per place {')
    assert decl["layer"] == "storage.type.terrain"
    assert decl["terrain"] == "entity.name.type.terrain"
    assert decl["per"] == "keyword.control.terrain"
    step = scopes_of("step climb (rise in) -> MP : +1 per full 4 in, impassable from 2 in")
    assert step["->"] == "keyword.operator.terrain"
    assert step["+1"] == "constant.numeric.terrain"
    assert step["impassable"] == "constant.language.terrain"
    assert scopes_of("extends heavy_gear@^1.0")["^1.0"] == "constant.other.version.terrain"
    assert scopes_of("dice effects : 2d6 {")["2d6"] == "constant.numeric.dice.terrain"


def test_the_extension_starts_the_language_server_and_knows_the_yaml_schema() -> None:
    manifest = json.loads((VSCODE / "package.json").read_text("utf-8"))
    contributes = manifest["contributes"]
    assert contributes["languages"][0]["extensions"] == [".terrain"]
    grammar = contributes["grammars"][0]
    assert grammar["scopeName"] == GRAMMAR["scopeName"]
    assert (VSCODE / grammar["path"]).is_file()
    schema = contributes["yamlValidation"][0]["url"]
    shipped = ROOT / "rulesdsl" / "schema" / "authoring.schema.json"
    assert (VSCODE / schema).read_text("utf-8") == shipped.read_text("utf-8")  # kept in step
    assert manifest["main"] == "./dist/extension.js"  # bundled from extension.js
    main = (VSCODE / "extension.js").read_text("utf-8")
    assert '"lsp"' in main and "rulesdsl" in main
    config = contributes["configuration"]["properties"]
    assert config["rulesdsl.command"]["default"] == ["rulesdsl"]


def test_the_extension_packages_without_vsce_warnings_and_activates_only_on_rulesets() -> None:
    """What `vsce package` warns about (issue 42): no LICENSE file, no .vscodeignore, 300
    unbundled files; and `onLanguage:yaml` started the extension on every YAML file."""
    manifest = json.loads((VSCODE / "package.json").read_text("utf-8"))
    assert manifest["license"] == "MIT" and manifest["publisher"] and manifest["engines"]["vscode"]
    assert (VSCODE / "LICENSE").read_text("utf-8") == (ROOT / "LICENSE").read_text("utf-8")
    ignored = (VSCODE / ".vscodeignore").read_text("utf-8").split()
    assert {"node_modules/**", "extension.js"} <= set(ignored)  # shipped bundled in dist/
    bundle = manifest["scripts"]["vscode:prepublish"]
    assert bundle.startswith("esbuild extension.js --bundle --outfile=dist/extension.js")
    assert "esbuild" in manifest["devDependencies"]
    events = manifest["activationEvents"]
    assert not [e for e in events if e.startswith("onLanguage:") and e != "onLanguage:terrain"]
    patterns = ["**/rulesets/*.{yaml,yml}", "**/*.ruleset.{yaml,yml}"]
    assert events == ["onLanguage:terrain", *(f"workspaceContains:{p}" for p in patterns)]
    main = (VSCODE / "extension.js").read_text("utf-8")
    assert [f'pattern: "{p}"' in main for p in patterns] == [True, True]  # the same files
