"""The meaning digest of a ruleset's statements (RULESET's digest in every module, the
`extends` chain's ancestors) is the SHA-256 of ``_plain`` of the statements as sorted JSON;
the encoder now asks for each node as it meets it, and must give the very same bytes."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from rulesdsl.compiler import Compiler
from rulesdsl.variants.resolve import _plain, digest, statements_digest
from tests.conftest import ROOT

FILES = sorted((ROOT / "rulesets").glob("*.terrain")) + sorted((ROOT / "rulesets").glob("*.yaml"))


@pytest.mark.parametrize("path", FILES, ids=lambda p: Path(p).name)
def test_the_digest_is_the_digest_of_the_statements_as_plain_sorted_json(path: Path) -> None:
    source, _ = Compiler().parse_file(path)
    assert source is not None
    plain = json.dumps(
        _plain(list(source.statements)), ensure_ascii=False, sort_keys=True, separators=(",", ":")
    )
    assert statements_digest(source.statements) == digest(plain)
