"""Hostile clients: the language server and the preview server each take every attack of
dev/hostile_servers.py once (bad Content-Length headers, cut and garbage bodies, wrong-typed
params, URIs outside the workspace, huge documents, open/close churn; bad Host and Origin
headers, path traversal, garbage requests) and still answer their probe, leak nothing and
print no traceback. dev/hostile_servers.py is the long run (see dev/README.md)."""

from __future__ import annotations

import time

from dev import hostile_servers


def test_the_language_server_survives_every_hostile_client_attack() -> None:
    figures = hostile_servers.Figures()
    attacks = len(hostile_servers.lsp_attacks(*[hostile_servers.ROOT] * 2))
    hostile_servers.lsp_run(attacks, 0, time.monotonic() + 300, figures, every=True, churn=0)
    assert figures.rounds == attacks
    assert figures.clean, figures.summary()
    assert figures.answers["-32700"] and figures.answers["-32600"] and figures.answers["-32602"]
    assert all(status == 0 for key, status in figures.measures.items() if "exit" in key)


def test_the_preview_server_survives_every_hostile_client_attack() -> None:
    figures = hostile_servers.Figures()
    attacks = len(hostile_servers.preview_attacks(0))
    hostile_servers.preview_run(
        attacks, 0, time.monotonic() + 300, figures, every=True, extras=False
    )
    assert figures.rounds == attacks
    assert figures.clean, figures.summary()
