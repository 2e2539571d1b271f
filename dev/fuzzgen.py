"""Fuzz inputs: small valid rulesets built from the grammar's constructs, with semantic faults
injected, and their YAML twins (made by `rulesdsl convert`'s own code) with faults injected
into the YAML tree.

Every choice is drawn from a :class:`random.Random`, so the same seed gives the same input;
the test suite hands in Hypothesis's ``st.randoms()`` (which then drives and shrinks the
choices) and dev/fuzz.py a seeded generator.
"""

from __future__ import annotations

import random
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

import yaml

# libyaml's loader and dumper when PyYAML has them: the generator's own YAML work is then a
# small part of an input's time
_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
_DUMPER = getattr(yaml, "CSafeDumper", yaml.SafeDumper)

BUILTIN_NAMES = (
    "isinstance",
    "sorted",
    "max",
    "str",
    "float",
    "int",
    "len",
    "print",
    "InvalidPlace",
    "UnknownName",
    "move_cost",
    "roll",
    "lookup",
    "MODES",
    "Final",
    "math",
    "_str",
    "__import__",
    "self",
    "None",
    "True",
    "lambda",
    "class",
    "def",
    "import",
    "RULESET",
    "Outcome",
    "annotations",
)
"""Names a ruleset might pick that the generated module (or Python) uses itself."""

HOSTILE_NUMBERS = (
    "0",
    "-1",
    "-3",
    "0.0000001",
    "0.000000000000000000000000001",
    "1e400",
    "9" * 400,
    "1" + "0" * 4400,
    "-100000000000000",
    "100000000000",
    "999999999",
    "1000000001",
    "3.5",
    "-0",
    "00",
    "1.",
    ".5",
    "nan",
    "inf",
    "-inf",
    "2147483648",
    "18446744073709551616",
)

HOSTILE_STRINGS = (
    '"',
    '\\"',
    '"""',
    "\\",
    "\\\\",
    "{{ 7*7 }}",
    "{% raw %}",
    "{#",
    "<script>alert(1)</script>",
    "<img src=x onerror=alert(1)>",
    "[link](http://example.invalid)",
    "![img](file:///etc/passwd)",
    "\x00",
    "\x1b[31m",
    "\x07",
    "\x7f",
    "\x85",
    "\u202e",
    "\u2028",
    "\ud800",
    "\ufeff",
    "\t",
    "\r\n",
    "'''",
    "${x}",
    "%s%n",
    "&amp;",
    "x" * 5000,
    "é" * 300,
    "# not a comment",
    "| a | b |",
    "\\u0000",
    "\\ud800",
    "\\u0007",
    "@{x}",
    "`code`",
    "*em*",
    "__dunder__",
)

HOSTILE_NAMES = (
    *BUILTIN_NAMES,
    "a" * 300,
    "x" * 5000,
    "_",
    "__",
    "a-b",
    "1abc",
    "é",
    "../../x",
    "con",
    "NUL",
    "z" * 250,
    "A",
    "mode",
    "ruleset",
    "per",
    "as",
    "impassable",
    "otherwise",
)

HOSTILE_DICE = (
    "0d6",
    "1d0",
    "100d100",
    "1d6+999999999",
    "2d6-100000000000000",
    "1000000d6",
    "1d1",
    "3d6",
    "99999d99999",
)

_NUMBER = re.compile(r"(?<![A-Za-z_0-9.])\d+(?:\.\d+)?(?![A-Za-z_0-9.])")
_STRING = re.compile(r'"(?:[^"\\\n]|\\.)*"')
_NAME = re.compile(r"\b[a-z][a-z0-9_]*\b")
_UNIT = re.compile(r"(?<=\d )(in|cm|MP|points|hex|deg|m)\b|\b(in|cm|MP|points)(?=[,\n)])")
_DECLARED = re.compile(
    r"^\s*(?:mode|layer|table|step|decision|dice|trigger|modifier|param|"
    r"book|column)?\s*([a-z][a-z0-9_]*) \"",
    re.MULTILINE,
)
UNITS = ("cm", "deg", "MP", "g", "points", "parsec", "hex", "s", "m", "in")
_DICE = re.compile(r"\b\d+d\d+(?:[+-]\d+)?\b")


@dataclass(frozen=True)
class Case:
    """One fuzz input: a file's name, suffix and text, with a word on how it was made."""

    rid: str
    suffix: str
    text: str
    how: str

    @property
    def filename(self) -> str:
        return f"{self.rid}{self.suffix}"


T = TypeVar("T")


def _pick(rng: random.Random, seq: Sequence[T]) -> T:
    return seq[rng.randrange(len(seq))]


def _label(rng: random.Random, base: str) -> str:
    return base if rng.random() < 0.9 else base + " " + _pick(rng, ("(x)", "é", "« »", "—"))


ONCE = ("flat 2 MP", "share 1/2", "share all", "share all but 1 MP")
"""Costs paid once per move (issue 11)."""


def ruleset(rng: random.Random, rid: str = "fz") -> str:
    """A small ruleset that compiles: modes, a layer, a step, a decision, a table, a dice
    table, a modifier, chosen and sized by ``rng``."""
    modes = [f"m{i}" for i in range(rng.randint(1, 3))]
    feats = [f"f{i}" for i in range(rng.randint(1, 4))]
    langs = _pick(rng, ("en", "en fr", "en ru", "fr"))
    second = langs.split()[-1] if " " in langs else None
    lines = [
        f'ruleset {rid} "{_label(rng, "Fuzz")}"' + (f' {second} "Fz"' if second else ""),
        f"version {rng.randint(0, 3)}.{rng.randint(0, 9)}.0",
        f"languages {langs}",
        'book bk "Book"',
        "units distance in, cost MP, modifier points",
    ]
    policy = _pick(rng, ("", "stacking sum", "stacking sum entry 1 MP"))
    if policy:
        lines.append(policy)
    if rng.random() < 0.3:
        lines.append("minimum move 1 in")
    keywords = rng.random() < 0.3  # issue 11: modes that carry groups, and a precedence
    if keywords:
        lines += ['group g0 "G0"', 'group g1 "G1"', "precedence g1, g0"]
    for m in modes:
        lines.append(
            f'mode {m} "{_label(rng, m.upper())}"'
            + (f' {second} "{m}"' if second else "")
            + (f" : {_pick(rng, ('g0', 'g1', 'g0, g1'))}" if keywords else "")
        )
    sight = rng.random() < 0.2
    crossed = sight and rng.random() < 0.5  # values that are steps, read for a length
    if crossed:
        lines.append('sight los "LOS" : counts target, crossed in')
    elif sight:
        lines.append(f'sight los "LOS" : blocks at {rng.randint(1, 4)}, counts between')
    lines.append('layer terrain "Terrain" one per place [bk p.3] {')
    if sight:
        lines.append("  columns cost, los")
    for i, f in enumerate(feats):
        cell = _pick(rng, ("1", "2", "impassable", "prohibited", "1 per 2 in", "3.5", *ONCE))
        if i > 0 and rng.random() < 0.3:
            cell = f"as {feats[0]}"
        if rng.random() < 0.5:
            cell += f", {_pick(rng, (*modes, *(('g0', 'g1') if keywords else ())))} "
            cell += _pick(rng, ("2", "impassable", "4", "1 must stop", "2 may not end"))
        if sight:
            cell += f" | {_pick(rng, ('0', '1', '2', 'blocked', *(['step st'] * crossed)))}"
        lines.append(f'  {f} "{_label(rng, f.upper())}" | {cell}')
        if rng.random() < 0.3:
            lines.append('      note "A note."')
    lines.append("}")
    if rng.random() < 0.25:
        lines += [
            'layer sides "Sides" edges {',
            f'  river "River" | +2, {_pick(rng, modes)} impassable',
            f'  road "Road" | along {_pick(rng, ("1/2", "1", "0"))}',
            "}",
            f'grid hx "Hex" : 1 in, {_pick(rng, ("hex", "square", "square, diagonals 1, 2"))}',
        ]
    if rng.random() < 0.6:
        lines.append('layer weather "Weather" whole map {')
        lines.append(f'  rain "Rain" | +{rng.randint(0, 3)}')
        lines.append("}")
    if crossed or rng.random() < 0.7:
        per = _pick(rng, ("4", "2", "1", "0.5"))
        tail = _pick(rng, ("", ", at least 1 from 2 in", ", impassable from 9 in"))
        tail += _pick(rng, ("", "", ", free up to 2 in"))
        lines.append(f'step st "Step" (x in) -> points : +1 per full {per} in{tail}')
    has_table = rng.random() < 0.7
    if has_table:
        lines += [
            'table tb "Table" {',
            '  column c "C"',
            '  column d "D"',
            f'  r1 "R1" | {rng.randint(0, 9)} in | a',
            '  r2 "R2" | 2 in | b',
            "}",
        ]
    if rng.random() < 0.7:
        if has_table and rng.random() < 0.5:
            lines += [
                'decision dc "Decision" (k tb, dist in) {',
                '  dist > tb.c[k] -> far "Far"',
                '  otherwise -> near "Near"',
                "}",
            ]
        else:
            lines += [
                'decision dc "Decision" (a in, b in, h bool) {',
                '  h -> hid "Hidden"',
                '  a > b -> big "Big"',
                '  a > b / 2 -> mid "Mid"',
                '  otherwise -> small "Small"',
                "}",
            ]
    if rng.random() < 0.7:
        mod = rng.randint(-2, 2)
        lines += [
            'dice dd "Dice" : 2d6 {',
            f'  modifier mm "MM" {mod:+d}',
            '  7- calm "Calm"',
            '  8-11 fire "Fire" | damage 1d6+3',
            '  12+ boom "Boom" | damage 2d6',
            "}",
        ]
        if rng.random() < 0.5:
            lines.append('trigger tr "Trigger" : 2d6 >= 8 then roll dd')
    if rng.random() < 0.3:
        lines += [
            'dice crt "CRT" : 1d6 by odds {',
            '  column lo "Low" up to 1',
            '  column hi "High" above 1',
            '  modifier night "Night" -1',
            '  outcome ae "AE"',
            '  outcome de "DE"',
            "  natural 6 de",
            "  1- | ae | ae",
            "  2-3 | ae | ae",
            "  4+ | ae | de",
            "}",
        ]
    if rng.random() < 0.5:
        policy = _pick(rng, ("", " combine highest", " combine once", " clamp -1 to +1"))
        lines += [
            f'modifier cover "Cover"{policy} {{',
            '  low "Low" | +1',
            '  high "High" | blocked',
            "}",
        ]
    if len(feats) > 1 and rng.random() < 0.3:
        lines.append(f"exclude {feats[0]} with {feats[1]}")
    if rng.random() < 0.3:
        lines.append('param allowance "Allowance" : in')
    return "\n".join(lines) + "\n"


# ---- faults --------------------------------------------------------------------------------


def _sub_nth(pattern: re.Pattern[str], text: str, rng: random.Random, new: str) -> str:
    found = list(pattern.finditer(text))
    if not found:
        return text
    m = found[rng.randrange(len(found))]
    return text[: m.start()] + new + text[m.end() :]


def dsl_fault(rng: random.Random, text: str) -> tuple[str, str]:
    """``text`` with one fault injected, and its kind."""
    kind = _pick(
        rng,
        (
            "number",
            "name",
            "string",
            "dice",
            "delete",
            "duplicate",
            "swap",
            "truncate",
            "byte",
            "builtin_name",
            "negative",
            "keyword",
            "unit",
            "crossref",
        ),
    )
    lines = text.split("\n")
    if kind == "unit":  # a unit of another dimension, or none known
        return _sub_nth(_UNIT, text, rng, _pick(rng, UNITS)), kind
    if kind == "crossref":  # a declared name where another kind of name goes
        declared = sorted(set(_DECLARED.findall(text)))
        if declared:
            return _sub_nth(_NAME, text, rng, _pick(rng, declared)), kind
    if kind == "number":
        return _sub_nth(_NUMBER, text, rng, _pick(rng, HOSTILE_NUMBERS)), kind
    if kind == "negative":
        return _sub_nth(_NUMBER, text, rng, "-" + _pick(rng, ("1", "3", "0.5"))), kind
    if kind in ("name", "builtin_name"):
        names = HOSTILE_NAMES if kind == "name" else BUILTIN_NAMES
        return _sub_nth(_NAME, text, rng, _pick(rng, names)), kind
    if kind == "string":
        body = _pick(rng, HOSTILE_STRINGS).replace("\\", "\\\\").replace('"', '\\"')
        if rng.random() < 0.5:  # raw, unescaped
            body = _pick(rng, HOSTILE_STRINGS)
        return _sub_nth(_STRING, text, rng, f'"{body}"'), kind
    if kind == "dice":
        return _sub_nth(_DICE, text, rng, _pick(rng, HOSTILE_DICE)), kind
    if kind == "delete" and len(lines) > 1:
        del lines[rng.randrange(len(lines))]
    elif kind == "duplicate":
        i = rng.randrange(len(lines))
        lines.insert(i, lines[i])
    elif kind == "swap":
        i, j = rng.randrange(len(lines)), rng.randrange(len(lines))
        lines[i], lines[j] = lines[j], lines[i]
    elif kind == "truncate":
        return text[: rng.randrange(len(text) + 1)], kind
    elif kind == "byte":
        i = rng.randrange(len(text) + 1)
        return text[:i] + _pick(
            rng,
            (
                "\x00",
                "{",
                "}",
                "|",
                '"',
                "\\",
                "\t",
                "#",
                "\ufeff",
                "\u2028",
                "->",
                ":",
                ",",
                "@",
                "[",
                "\ud800",
            ),
        ) + text[i:], kind
    elif kind == "keyword":
        i = rng.randrange(len(lines))
        lines.insert(
            i,
            _pick(
                rng,
                (
                    "extends fz@1.0.0",
                    "extends nowhere@1.0.0",
                    "languages",
                    "languages en en",
                    "version x",
                    "units distance parsec",
                    "stacking nope",
                    "remove f0",
                    'override mode m0 "X"',
                    'group g "G": m0, nobody',
                    'grid g "G" : 0 m',
                    "exclude f0 with f0",
                    'ruleset other "O"',
                ),
            ),
        )
    return "\n".join(lines), kind


def _scalars(node: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Paths to every value in a YAML tree (mappings and sequences included)."""
    out = [path]
    if isinstance(node, dict):
        for k, v in node.items():
            out += _scalars(v, (*path, k))
    elif isinstance(node, list):
        for i, v in enumerate(node):
            out += _scalars(v, (*path, i))
    return out


def yaml_fault(rng: random.Random, text: str) -> tuple[str, str]:
    """The YAML text with one node replaced, removed or emptied (or the text cut)."""
    if "\ndeep: " in text or "&b0 " in text:  # a structure fault stays the last one: loaded,
        return text, "none"  # the aliases would expand to 10^9 paths here
    try:
        data = yaml.load(text, Loader=_LOADER)  # a safe loader
    except (yaml.YAMLError, RecursionError):  # a fault before made it so (`deep`, a cut)
        return text, "none"
    if rng.random() < 0.05 or not isinstance(data, dict):
        return text[: rng.randrange(len(text) + 1)], "truncate"
    if rng.random() < 0.03:  # YAML's own structure: nesting, and aliases of aliases
        depth = rng.choice((50, 400, 5000))
        if rng.random() < 0.5:
            return text + f"deep: {'[' * depth}{']' * depth}\n", "deep"
        fan = rng.choice((2, 10))
        bomb = [f"b0: &b0 [{', '.join(['x'] * fan)}]"]
        bomb += [f"b{i}: &b{i} [" + ", ".join([f"*b{i - 1}"] * fan) + "]" for i in range(1, 9)]
        return text + "\n".join(bomb) + "\n", "aliases"
    paths = [p for p in _scalars(data) if p]
    path = paths[rng.randrange(len(paths))]
    parent = data
    for key in path[:-1]:
        parent = parent[key]
    last = path[-1]
    kind = _pick(rng, ("delete", "empty", "number", "string", "name", "type", "rename"))
    if kind == "delete":
        del parent[last]
    elif kind == "empty":
        parent[last] = _pick(rng, ([], {}, "", None))
    elif kind == "number":
        parent[last] = _pick(
            rng, (float("nan"), float("inf"), -1, 0, 10**400, 1e300, -100000000000000, 0.5, True)
        )
    elif kind == "string":
        parent[last] = _pick(rng, HOSTILE_STRINGS)
    elif kind == "name":
        parent[last] = _pick(rng, HOSTILE_NAMES)
    elif kind == "type":
        parent[last] = _pick(rng, ([1, 2], {"a": 1}, 3, "x"))
    elif kind == "rename" and isinstance(parent, dict):
        parent[_pick(rng, HOSTILE_NAMES)] = parent.pop(last)
    try:
        dumped = yaml.dump(data, Dumper=_DUMPER, allow_unicode=True, sort_keys=False)
    except (yaml.YAMLError, ValueError, RecursionError):
        return text, "none"
    return dumped, kind


def to_yaml(text: str, path: str = "fz.terrain") -> str | None:
    """The YAML twin of a .terrain text (None when it does not parse)."""
    from rulesdsl.frontends.dsl import Parser
    from rulesdsl.interchange.convert import to_yaml as convert

    source, _ = _parser(Parser).parse(text, path)
    return None if source is None else convert(source)


_PARSERS: dict[type, Any] = {}


def _parser(cls: type) -> Any:
    if cls not in _PARSERS:
        _PARSERS[cls] = cls()
    return _PARSERS[cls]


def case(rng: random.Random, seeds: dict[str, str] | None = None, front: str | None = None) -> Case:
    """One input: a generated ruleset (or a bundled one from ``seeds``), as .terrain or YAML
    (``front`` "terrain" or "yaml", else either), with 0 to 3 faults."""
    rid = "fz"
    if seeds and rng.random() < 0.1:
        rid = _pick(rng, sorted(seeds))
        text = seeds[rid]
        how = [f"seed {rid}"]
    else:
        text = ruleset(rng, rid)
        how = ["generated"]
    as_yaml = rng.random() < 0.35 if front is None else front == "yaml"
    if as_yaml:
        twin = to_yaml(text, f"{rid}.terrain")
        if twin is not None:
            text = twin
            how.append("yaml")
        else:
            as_yaml = False
    faults = rng.choice((0, 1, 1, 1, 2, 3))
    for _ in range(faults):
        text, kind = yaml_fault(rng, text) if as_yaml else dsl_fault(rng, text)
        how.append(kind)
    return Case(rid, ".yaml" if as_yaml else ".terrain", text, " ".join(how))
