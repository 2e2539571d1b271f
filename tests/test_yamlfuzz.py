"""The structure-aware YAML fuzzer (dev/yamlfuzz.py): its mutations write what they say
(keys YAML 1.1 reads as non-text, tags, keys written twice, anchors and aliases, merge keys),
and a short run through check, convert and build finds no traceback, hang, unplaced error or
raw control character. dev/README.md gives the long run and its figures."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
import yaml

from dev import fuzzgen, yamlfuzz
from rulesdsl.frontends.yaml_authoring import parse_yaml


def mutated(mutation: str, seed: int) -> str:
    rng = random.Random(seed)
    twin = fuzzgen.to_yaml(fuzzgen.ruleset(rng))
    assert twin is not None
    root = yaml.compose(twin)
    assert getattr(yamlfuzz, mutation)(rng, root) != "none"
    return str(yaml.serialize(root, Dumper=yaml.SafeDumper, allow_unicode=True))


@pytest.mark.parametrize(
    ("mutation", "codes"),
    [
        ("duplicate", {"E121"}),
        ("merge", {"E122"}),
        ("collection_key", {"E122"}),
    ],
)
def test_each_structure_mutation_reaches_the_reader_as_what_it_names(
    mutation: str, codes: set[str]
) -> None:
    for seed in range(8):
        text = mutated(mutation, seed)
        _, diags = parse_yaml(text, "fz.yaml")
        assert codes <= {d.code for d in diags}, (seed, text)


def test_a_tag_mutation_writes_a_tag_the_reader_refuses_or_one_yaml_leaves_implicit() -> None:
    refused = 0
    for seed in range(12):
        text = mutated("tag", seed)
        _, diags = parse_yaml(text, "fz.yaml")
        refused += "E122" in {d.code for d in diags}
        assert all(d.pos is not None for d in diags)
    assert refused >= 8  # `!!str` on text, `!!map` on a mapping are written without the tag


def test_an_alias_mutation_writes_an_anchor_and_an_alias() -> None:
    texts = [mutated("alias", seed) for seed in range(8)]
    assert sum("&id" in t and "*id" in t for t in texts) >= 6


def test_a_short_structure_aware_yaml_fuzz_run_finds_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from rulesdsl.commands import cli
    from rulesdsl.frontends import dsl, yaml_authoring

    # yamlfuzz.main shares these for the rest of its process: put them back after the test
    monkeypatch.setattr(cli, "make_parser", cli.make_parser)
    monkeypatch.setattr(dsl.Parser, "parse", dsl.Parser.parse)
    monkeypatch.setattr(yaml_authoring, "parse_yaml", yaml_authoring.parse_yaml)
    report = tmp_path / "report.json"
    code = yamlfuzz.main(
        ["--inputs", "40", "--seed", "30", "--progress", "0", "--report", str(report)]
    )
    summary = json.loads(report.read_text("utf-8"))
    assert summary["groups"] == [], summary["groups"][0]["detail"] if summary["groups"] else ""
    assert code == 0
    assert summary["inputs"] == 40 and summary["verb_runs"] == 160
    assert summary["tracebacks"] == summary["hangs"] == summary["unplaced"] == 0
    assert summary["raw"] == 0
