"""CLI verbs that live in modules of their own; each module has `register(subparsers)`.

`rulesdsl.cli` adds the verbs that `registrars()` returns after its own (check, build, schema,
export). The modules are imported when the parser is built, not when this package is, so they
may import from `rulesdsl.cli` freely. To add a verb: write `rulesdsl/commands/<verb>.py` with a
`register` function and list it below.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable

Registrar = Callable[["argparse._SubParsersAction[argparse.ArgumentParser]"], None]


def registrars() -> tuple[Registrar, ...]:
    from rulesdsl.commands import cards, diff, fmt, new, sheet

    return (fmt.register, diff.register, new.register, sheet.register, cards.register)
