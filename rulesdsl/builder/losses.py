"""The loss check's findings as diagnostics: W700-W702, or E700-E702 with ``--strict``.

Every PDF render measures its own layout (:mod:`rulesdsl.printed.loss`); this turns what it
found in one output into one diagnostic per card or page, item and kind, naming the worst
piece of text and by how much it is out, so a deck that loses a whole column says so once.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING

from rulesdsl.printed.loss import CUT, OVERLAP, SAFE, UNPLACED, UNREAD, Kind

if TYPE_CHECKING:
    from rulesdsl.diagnostics import Diagnostic
    from rulesdsl.printed.loss import Loss

__all__ = ["LOSS_CODES", "loss_diagnostics", "losses_of", "report_losses"]

LOSS_CODES = frozenset({"W700", "W701", "W702", "W703", "E700", "E701", "E702", "E703"})

_UNREADABLE = "the loss check cannot read this layout (a WeasyPrint it does not know?)"
_HINTS: dict[Kind, str] = {
    CUT: "the card or page loses this text: report it (the fitter should have made room), "
    "or shorten the label",
    SAFE: "a cut slightly off trims this text: report it, or shorten the label",
    OVERLAP: "two pieces of text print over each other: report it",
    UNPLACED: _UNREADABLE,
    UNREAD: _UNREADABLE,
}


_CODES: dict[Kind, tuple[str, str]] = {
    CUT: ("W700", "E700"),
    SAFE: ("W701", "E701"),
    UNPLACED: ("W702", "E702"),
    UNREAD: ("W702", "E702"),
    OVERLAP: ("W703", "E703"),
}
"""Each kind's codes: the warning, and the error it becomes with ``--strict``."""


def losses_of(outputs: Mapping[str, object]) -> dict[str, tuple[Loss, ...]]:
    """The findings carried by rendered outputs (:class:`rulesdsl.printed.pdf.Rendered`)."""
    found: dict[str, tuple[Loss, ...]] = {}
    for rel, data in sorted(outputs.items()):
        losses = getattr(data, "losses", ())
        if losses:
            found[rel] = tuple(losses)
    return found


def loss_diagnostics(
    losses: Mapping[str, Iterable[Loss]], *, strict: bool = False
) -> list[Diagnostic]:
    """One diagnostic per output, card or page, item and kind (the worst of its pieces)."""
    from rulesdsl.diagnostics import error, warning

    diags: list[Diagnostic] = []
    for output, found in losses.items():
        groups: dict[tuple[Kind, str, str], list[Loss]] = {}
        for loss in found:
            groups.setdefault((loss.kind, loss.where, loss.item), []).append(loss)
        for (kind, _, _), group in groups.items():
            worst = max(group, key=lambda loss: loss.by)
            more = f" (and {len(group) - 1} more pieces)" if len(group) > 1 else ""
            message = f"{output}: {worst.describe()}{more}"
            hint = _HINTS[kind]
            warn_code, error_code = _CODES[kind]
            if strict:
                diags.append(error(error_code, message, None, hint))
            else:
                diags.append(warning(warn_code, message, None, hint))
    return diags


def report_losses(output: str, data: bytes, *, strict: bool) -> bool:
    """Print the loss check's findings in one rendered document (``rulesdsl sheet`` and
    ``cards``) to standard error; whether it may be written (no error)."""
    import sys

    from rulesdsl.diagnostics import render_text

    diags = loss_diagnostics(losses_of({output: data}), strict=strict)
    for diag in diags:
        print(render_text(diag, {}), file=sys.stderr)
    return not any(d.is_error for d in diags)
