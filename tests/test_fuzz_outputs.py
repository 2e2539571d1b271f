"""Fuzz: a crafted generated/ (journal, manifest, staging folder, lock files, links at every
level) never makes the build create, change, move, delete or read anything outside the output
folder, and never raises a traceback or hangs. The run here is short (a few seconds);
dev/fuzz_outputs.py is the long run, and dev/README.md has its figures."""

from __future__ import annotations

import os

import pytest

from dev import fuzz_outputs

pytestmark = pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs named pipes")


def test_crafted_output_folders_never_touch_anything_outside_it() -> None:
    report = fuzz_outputs.run(12, seed=30, limit=20)
    assert report.cases == 12 and report.changes >= 12
    assert report.findings == 0, report.examples
    assert report.outcomes.get("refused", 0) >= 2  # some cases did reach the refusals


def test_one_crafted_case_replays_alone() -> None:
    first = fuzz_outputs.run(2, seed=30)
    again = fuzz_outputs.run(0, seed=30, only=1)
    assert again.cases == 1 and again.last["changes"] == first.last["changes"]
