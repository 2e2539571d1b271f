"""The structure-aware YAML fuzz run: YAML authoring files whose *structure* is mutated (keys
YAML 1.1 reads as booleans, numbers, nulls or dates, explicit tags, keys written twice,
anchors, aliases and merge keys, keys that are collections, deep nesting), through `check`
(text and JSON), `convert` and the library's `build`.

    python dev/yamlfuzz.py                          # 20,000 inputs, seed 0
    python dev/yamlfuzz.py --inputs 2000 --seed 7 --report /tmp/yamlfuzz.json

dev/fuzz.py's YAML faults go through PyYAML's load and dump, which cannot write most of
these: a loaded document has no duplicate keys, tags, anchors or merge keys left. Here the
file is composed into PyYAML's *node* graph, the nodes are changed (a key's text and tag, a
tag, a pair added twice, one node put in two places, which the serializer writes as an anchor
and an alias, a ``<<`` pair...) and the graph is serialized back, so that every mutation is
written as YAML writes it.

Findings, as in dev/fuzz.py: a *traceback* is an exception out of a verb or an exit status
other than 0, 1 or 2; a *hang* is an input past ``--time-limit`` CPU seconds (SIGPROF, and
SIGALRM at ten times that on the clock). Two more, for the diagnostics' promises: *unplaced*
is an error of `check --format json` without a position, and *raw* is a character a terminal
acts on (a control character other than a line break, a bidi control, a lone surrogate) in
what `check` printed. Exit status 0 when there was no finding, 1 otherwise.
"""

from __future__ import annotations

import argparse
import json
import random
import shutil
import signal
import sys
import tempfile
import time
import traceback
from collections.abc import Callable
from pathlib import Path
from typing import Any

import yaml
from yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode

if __package__ in (None, ""):  # run as a script: make `dev` importable
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from dev import fuzz, fuzzgen

ROOT = Path(__file__).resolve().parent.parent
TWINS = ROOT / "tests" / "data" / "yaml"
_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
_RESOLVER = yaml.resolver.Resolver()

WORDS = (
    # YAML 1.1 booleans
    "no", "No", "NO", "yes", "Yes", "on", "On", "off", "OFF", "y", "n", "true", "False",
    # numbers
    "1", "-1", "+1", "0", "1.5", "1e3", "0x1f", "0o17", "0b101", "1_000", "1:30", "190:20:30",
    ".inf", "-.Inf", ".nan", "10000000000000000000000",
    # nothing
    "null", "Null", "~",
    # dates, one that is no date
    "2020-01-01", "2001-12-14t21:59:43.10-05:00", "2020-13-45",
    # YAML 1.1's value tag, and a merge key as plain text
    "=", "<<",
    # names that mean something to the DSL or to the format
    "label", "cells", "rows", "en", "fr", "ruleset", "version",
)  # fmt: skip
"""Plain scalars YAML 1.1 reads as something other than text, and a few that collide."""

TAGS = (
    "tag:yaml.org,2002:float",
    "tag:yaml.org,2002:int",
    "tag:yaml.org,2002:bool",
    "tag:yaml.org,2002:null",
    "tag:yaml.org,2002:str",
    "tag:yaml.org,2002:binary",
    "tag:yaml.org,2002:timestamp",
    "tag:yaml.org,2002:set",
    "tag:yaml.org,2002:omap",
    "tag:yaml.org,2002:map",
    "tag:yaml.org,2002:seq",
    "tag:yaml.org,2002:python/object/apply:os.system",
    "tag:yaml.org,2002:python/name:os.system",
    "tag:yaml.org,2002:python/object:object",
    "!custom",
    "!",
    "tag:example.com,2000:thing",
)
"""Explicit tags, of the right and the wrong kind of node, safe and not."""

HOSTILE_KEYS = (
    "\x1b]0;pwned\x07",
    "a\u202eb",
    "\ud800",
    "x" * 5000,
    "a: b",
    "- x",
    "#",
    "&a",
    "*a",
    "!x",
    "? x",
    "",
    " ",
)
"""Key texts the emitter must quote (or escape): they reach the reader only quoted."""


RAW = ("\x1b]0;pwned\x07", "\x1b[2J", "\x9b", "\x85", "\u202e", "\x00", "\x7f", "\u2028")
"""Raw characters put into the written text: a terminal acts on most of them."""


def _resolved(value: str) -> ScalarNode:
    """A plain scalar with the tag YAML 1.1 gives it (so the serializer writes it plain)."""
    tag: str = _RESOLVER.resolve(ScalarNode, value, (True, False))  # type: ignore[no-untyped-call]
    return ScalarNode(tag, value)


Slot = tuple[Node, int, int]
"""Where a node sits: its parent, its index in the parent's value list, and 0 for a key,
1 for a value (of a mapping) or -1 for an item (of a sequence)."""


def _slots(root: Node) -> list[Slot]:
    """Every place in the graph that holds a node, each parent visited once."""
    out: list[Slot] = []
    stack, seen = [root], set()
    while stack:
        node = stack.pop()
        if id(node) in seen:
            continue
        seen.add(id(node))
        if isinstance(node, MappingNode):
            for i, (k, v) in enumerate(node.value):
                out += [(node, i, 0), (node, i, 1)]
                stack += [k, v]
        elif isinstance(node, SequenceNode):
            for i, item in enumerate(node.value):
                out.append((node, i, -1))
                stack.append(item)
    return out


def _get(slot: Slot) -> Node:
    parent, i, part = slot
    item = parent.value[i]
    return item if part < 0 else item[part]  # type: ignore[no-any-return]


def _put(slot: Slot, node: Node) -> None:
    parent, i, part = slot
    if part < 0:
        parent.value[i] = node
    else:
        pair = list(parent.value[i])
        pair[part] = node
        parent.value[i] = tuple(pair)


def _mappings(root: Node) -> list[MappingNode]:
    found = [root] if isinstance(root, MappingNode) else []
    for slot in _slots(root):
        node = _get(slot)
        if isinstance(node, MappingNode):
            found.append(node)
    return found


# ---- mutations: each changes the graph in place and says what it did ------------------------


def key_word(rng: random.Random, root: Node) -> str:
    """A mapping key becomes a word YAML 1.1 reads as a boolean, number, null or date."""
    keys = [s for s in _slots(root) if s[2] == 0]
    if not keys:
        return "none"
    word = rng.choice(WORDS)
    _put(rng.choice(keys), _resolved(word))
    return f"key {word!r}"


def value_word(rng: random.Random, root: Node) -> str:
    """A scalar value or item becomes such a word."""
    values = [s for s in _slots(root) if s[2] != 0 and isinstance(_get(s), ScalarNode)]
    if not values:
        return "none"
    word = rng.choice(WORDS)
    _put(rng.choice(values), _resolved(word))
    return f"value {word!r}"


def hostile_key(rng: random.Random, root: Node) -> str:
    keys = [s for s in _slots(root) if s[2] == 0]
    if not keys:
        return "none"
    text = rng.choice(HOSTILE_KEYS)
    _put(rng.choice(keys), ScalarNode("tag:yaml.org,2002:str", text))
    return "hostile key"


def duplicate(rng: random.Random, root: Node) -> str:
    """A pair of some mapping, at any depth, written again (with its value or another)."""
    mappings = [m for m in _mappings(root) if m.value]
    if not mappings:
        return "none"
    mapping = rng.choice(mappings)
    key, value = rng.choice(mapping.value)
    if isinstance(key, ScalarNode) and rng.random() < 0.3:  # the same key, quoted the other way
        key = ScalarNode("tag:yaml.org,2002:str", key.value, style=rng.choice(("'", '"')))
    if rng.random() < 0.5:
        value = _resolved(rng.choice(WORDS))
    mapping.value.insert(rng.randrange(len(mapping.value) + 1), (key, value))
    return "duplicate key"


def tag(rng: random.Random, root: Node) -> str:
    """A node, key or value, given an explicit tag."""
    slots = _slots(root)
    if not slots:
        return "none"
    node = _get(rng.choice(slots))
    node.tag = rng.choice(TAGS)
    return f"tag {node.tag}"


def alias(rng: random.Random, root: Node) -> str:
    """One node put in a second place: the serializer writes an anchor and an alias. Now and
    then the node goes inside itself (a cycle), or ten aliases of ten aliases (a bomb)."""
    slots = [s for s in _slots(root) if s[2] != 0]
    if len(slots) < 2:
        return "none"
    source = _get(rng.choice(slots))
    roll = rng.random()
    if roll < 0.05 and isinstance(source, SequenceNode):
        source.value.append(source)
        return "alias cycle"
    if roll < 0.1 and isinstance(source, MappingNode):
        source.value.append((_resolved("self"), source))
        return "alias cycle"
    if roll < 0.2:
        node: Node = SequenceNode("tag:yaml.org,2002:seq", [_resolved("x")] * 10)
        for _ in range(rng.choice((3, 6, 9))):
            node = SequenceNode("tag:yaml.org,2002:seq", [node] * 10)
        _put(rng.choice(slots), node)
        return "alias bomb"
    _put(rng.choice(slots), source)
    return "alias"


def merge(rng: random.Random, root: Node) -> str:
    """A ``<<`` pair: an alias of another mapping, a list of them, or something else."""
    mappings = _mappings(root)
    if len(mappings) < 2:
        return "none"
    target, source = rng.sample(mappings, 2)
    value: Node = source
    roll = rng.random()
    if roll < 0.25:
        value = SequenceNode("tag:yaml.org,2002:seq", [source, rng.choice(mappings)])
    elif roll < 0.4:
        value = _resolved(rng.choice(WORDS))
    elif roll < 0.5:
        value = target  # merge a mapping into itself
    key = ScalarNode("tag:yaml.org,2002:merge", "<<")
    target.value.insert(rng.randrange(len(target.value) + 1), (key, value))
    return "merge key"


def collection_key(rng: random.Random, root: Node) -> str:
    keys = [s for s in _slots(root) if s[2] == 0]
    if not keys:
        return "none"
    slot = rng.choice(keys)
    old = _get(slot)
    new: Node = (
        SequenceNode("tag:yaml.org,2002:seq", [old], flow_style=True)
        if rng.random() < 0.5
        else MappingNode("tag:yaml.org,2002:map", [(old, _resolved("1"))], flow_style=True)
    )
    _put(slot, new)
    return "collection key"


def nest(rng: random.Random, root: Node) -> str:
    """A value wrapped in lists or mappings, 2 to 3,000 deep."""
    slots = [s for s in _slots(root) if s[2] != 0]
    if not slots:
        return "none"
    slot = rng.choice(slots)
    node = _get(slot)
    depth = rng.choice((2, 5, 30, 200, 3000))
    as_map = rng.random() < 0.5
    for _ in range(depth):
        if as_map:
            node = MappingNode("tag:yaml.org,2002:map", [(_resolved("a"), node)], flow_style=True)
        else:
            node = SequenceNode("tag:yaml.org,2002:seq", [node], flow_style=True)
    _put(slot, node)
    return f"nest {depth}"


def drop(rng: random.Random, root: Node) -> str:
    """A pair or item removed (so that a later mutation meets a shape the schema refuses)."""
    parents = [m for m in _mappings(root) if m.value]
    if not parents:
        return "none"
    parent = rng.choice(parents)
    del parent.value[rng.randrange(len(parent.value))]
    return "drop"


MUTATIONS: tuple[tuple[Callable[[random.Random, Node], str], int], ...] = (
    (key_word, 6),
    (value_word, 4),
    (duplicate, 4),
    (tag, 4),
    (alias, 3),
    (merge, 3),
    (collection_key, 1),
    (hostile_key, 1),
    (nest, 1),
    (drop, 1),
)


def _base(rng: random.Random, twins: dict[str, str]) -> tuple[str, str]:
    """A valid YAML ruleset: the convert twin of a generated one, or a bundled twin."""
    if twins and rng.random() < 0.15:
        rid = rng.choice(sorted(twins))
        return rid, twins[rid]
    twin = fuzzgen.to_yaml(fuzzgen.ruleset(rng))
    assert twin is not None  # the generator's rulesets parse
    return "fz", twin


def case(rng: random.Random, twins: dict[str, str] | None = None) -> fuzzgen.Case:
    """One input: a valid YAML ruleset with 1 to 4 structure mutations."""
    rid, text = _base(rng, twins if twins is not None else {})
    root = yaml.compose(text, Loader=_LOADER)
    assert root is not None  # a twin is never empty
    how = ["yaml-structure"]
    weights = [w for _, w in MUTATIONS]
    for _ in range(rng.choice((1, 1, 2, 2, 3, 4))):
        mutate = rng.choices([m for m, _ in MUTATIONS], weights)[0]
        how.append(f"{mutate.__name__}: {mutate(rng, root)}")
    try:
        out = yaml.serialize(root, Dumper=yaml.SafeDumper, allow_unicode=True, width=120)
    except (yaml.YAMLError, RecursionError, UnicodeError, ValueError):
        return fuzzgen.Case(rid, ".yaml", text, "; ".join([*how, "unwritable: unmutated"]))
    if rng.random() < 0.1:  # a raw character the YAML reader refuses, that E001 then quotes
        at = rng.randrange(len(out) + 1)
        char = rng.choice(RAW)
        out = out[:at] + char + out[at:]
        how.append(f"raw_character: {char!r}")
    return fuzzgen.Case(rid, ".yaml", out, "; ".join(how))


# ---- the run --------------------------------------------------------------------------------

_UNSAFE = tuple(
    [chr(c) for c in range(0x20) if c != 0x0A]
    + [chr(c) for c in range(0x7F, 0xA0)]
    + ["\u061c", "\u200e", "\u200f", "\u2028", "\u2029"]
    + [chr(c) for c in range(0x202A, 0x202F)]
    + [chr(c) for c in range(0x2066, 0x206A)]
)


def _raw(text: str) -> str | None:
    """The first character of ``text`` a terminal would act on, or None."""
    for ch in text:
        if ch in _UNSAFE or 0xD800 <= ord(ch) < 0xE000:
            return ch
    return None


def run_case(case: fuzzgen.Case, work: Path, tally: fuzz.Tally) -> list[fuzz.Finding]:
    found: list[fuzz.Finding] = []
    src = work / "rulesets"
    src.mkdir()
    path = src / case.filename
    path.write_text(case.text, "utf-8", errors="surrogatepass")
    out = work / "out"
    for verb, argv in (
        ("check", ["check", str(path)]),
        ("check-json", ["check", "--format", "json", str(path)]),
        ("convert", ["convert", str(path)]),
    ):
        tally.verbs += 1
        try:
            code, stdout, stderr = fuzz._cli(argv)
        except fuzz.Hang:
            raise
        except BaseException:
            found.append(fuzz.Finding("traceback", verb, case, traceback.format_exc()))
            continue
        if code not in fuzz.EXIT_CODES:
            found.append(fuzz.Finding("traceback", verb, case, f"exit status {code}"))
        if verb == "check" and code == 0:
            tally.compiled_ok += 1
        if verb.startswith("check"):
            bad = _raw(stderr) or _raw(stdout)
            if bad is not None:
                found.append(fuzz.Finding("raw", verb, case, f"printed {bad!r}"))
        if verb == "check-json" and stdout.strip():
            for diag in json.loads(stdout):
                if diag["severity"] == "error" and diag["position"] is None:
                    found.append(fuzz.Finding("unplaced", verb, case, json.dumps(diag)))
    tally.verbs += 1
    try:
        written = fuzz.build_without_pdf(src, out)
    except fuzz.Hang:
        raise
    except Exception as exc:
        from rulesdsl.builder.transaction import OutputFolderError

        if not isinstance(exc, OutputFolderError):
            found.append(fuzz.Finding("traceback", "build", case, traceback.format_exc()))
    else:
        tally.modules += sum(p.endswith(".py") for p in map(str, written))
    return found


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--inputs", type=int, default=20_000)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument(
        "--time-limit",
        type=float,
        default=20.0,
        help="CPU seconds one input may take before it counts as a hang (10 x on the clock)",
    )
    parser.add_argument(
        "--report", default="yamlfuzz-report.json", help="where to write the findings (JSON)"
    )
    parser.add_argument("--progress", type=int, default=500, help="print a line every N inputs")
    args = parser.parse_args(argv)

    import warnings

    warnings.simplefilter("ignore")
    fuzz.share_parsers()
    fuzz.share_front_ends()
    handlers = {sig: signal.signal(sig, fuzz._alarm) for sig in (signal.SIGALRM, signal.SIGPROF)}
    try:
        return _run(args)
    finally:
        for sig, handler in handlers.items():
            signal.signal(sig, handler)


def _run(args: argparse.Namespace) -> int:
    twins = {p.stem: p.read_text("utf-8") for p in sorted(TWINS.glob("*.yaml"))}
    rng = random.Random(args.seed)
    tally = fuzz.Tally()
    groups: dict[str, list[fuzz.Finding]] = {}
    kinds: dict[str, int] = {}
    start = time.monotonic()

    def report() -> dict[str, Any]:
        summary = fuzz._summary(tally, groups, args.seed, time.monotonic() - start)
        summary["unplaced"] = sum(f.kind == "unplaced" for f in tally.findings)
        summary["raw"] = sum(f.kind == "raw" for f in tally.findings)
        summary["mutations"] = dict(sorted(kinds.items()))
        Path(args.report).write_text(json.dumps(summary, indent=1), "utf-8")
        return summary

    with tempfile.TemporaryDirectory(prefix="rulesdsl-yamlfuzz-") as tmp:
        for i in range(args.inputs):
            one = case(rng, twins)
            for part in one.how.split("; ")[1:]:
                name = part.split(":")[0]
                kinds[name] = kinds.get(name, 0) + 1
            tally.inputs += 1
            tally.yaml += 1
            work = Path(tmp) / str(i)
            work.mkdir()
            signal.setitimer(signal.ITIMER_PROF, args.time_limit)
            signal.setitimer(signal.ITIMER_REAL, 10 * args.time_limit)
            try:
                found = run_case(one, work, tally)
            except fuzz.Hang:
                found = [fuzz.Finding("hang", "input", one, f"over {args.time_limit} s of CPU")]
            finally:
                signal.setitimer(signal.ITIMER_PROF, 0)
                signal.setitimer(signal.ITIMER_REAL, 0)
            shutil.rmtree(work, ignore_errors=True)
            for f in found:
                groups.setdefault(f.signature, []).append(f)
            tally.findings += found
            if args.progress and (i + 1) % args.progress == 0:
                rate = (i + 1) / (time.monotonic() - start)
                print(
                    f"{i + 1} inputs, {len(tally.findings)} findings in {len(groups)} groups,"
                    f" {rate:.1f} inputs/s",
                    flush=True,
                )
                report()
    summary = report()
    print(json.dumps({k: v for k, v in summary.items() if k not in ("groups", "mutations")}))
    for g in summary["groups"]:
        print(f"  {g['count']:6d}  {g['signature']}")
    return 0 if not tally.findings else 1


if __name__ == "__main__":
    sys.exit(main())
