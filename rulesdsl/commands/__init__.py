"""CLI verbs that live in modules of their own; each module has `register(subparsers)`.

`rulesdsl.cli` adds the verbs listed in REGISTRARS after its own (check, build, schema, export).
"""

from __future__ import annotations

import argparse
from collections.abc import Callable

Registrar = Callable[["argparse._SubParsersAction[argparse.ArgumentParser]"], None]

REGISTRARS: tuple[Registrar, ...] = ()
