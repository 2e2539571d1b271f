"""The build under a POSIX locale without Python's UTF-8 mode (issue 30, item 4): it runs, in a
folder whose path has non-ASCII characters and spaces, and writes the very bytes a C.UTF-8
build with UTF-8 mode writes (the short run of dev/locale_matrix.py; the long run's figures
are in dev/README.md). The committed generated/ stands for the UTF-8 build when the POSIX
build wrote its very bytes; else that build runs and the two are compared."""

from __future__ import annotations

import subprocess
import sys

from tests.conftest import ROOT


def test_the_build_under_posix_without_utf8_mode_is_byte_identical_to_a_utf8_build() -> None:
    done = subprocess.run(
        [sys.executable, str(ROOT / "dev" / "locale_matrix.py"), "--quick"],
        capture_output=True,
        text=True,
        encoding="utf-8",
        timeout=600,
        check=False,
    )
    assert done.returncode == 0, done.stdout + done.stderr[-3000:]
    assert "0 failures, 0 tracebacks" in done.stdout
