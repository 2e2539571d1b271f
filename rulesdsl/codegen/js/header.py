"""What the JavaScript module reads of the plan's header section: ``plan.header.<field>``.

TRANSITIONAL (for the coordinator to delete once ``HeaderPlan`` is typed records, issue 36):
:func:`header_of` reads the header section's ``ruleset`` field while that section still
carries the IR; when ``HeaderPlan`` has ``id``, ``version``, ``digest``, ``languages`` and
``title`` itself, ``header_of`` returns ``plan`` unchanged and this adapter goes.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Protocol

from rulesdsl.codegen.plan.header import HeaderPlan


class Header(Protocol):
    """The fields of the header section the JavaScript module prints."""

    @property
    def id(self) -> str: ...
    @property
    def version(self) -> str: ...
    @property
    def digest(self) -> str: ...
    @property
    def languages(self) -> tuple[str, ...]: ...
    @property
    def title(self) -> str: ...


@dataclass(frozen=True, slots=True)
class _Adapted:
    id: str
    version: str
    digest: str
    languages: tuple[str, ...]
    title: str


def header_of(plan: HeaderPlan) -> Header:
    """The header's fields (transitional adapter: delete when HeaderPlan is typed)."""
    rs = getattr(plan, "ruleset", None)
    if rs is None:
        return plan  # type: ignore[return-value]  # HeaderPlan has the fields itself
    labels: Mapping[str, str] = rs.info.labels
    lang = rs.languages[0]
    title = labels.get(lang) or next(iter(labels.values()), rs.id)
    return _Adapted(rs.id, rs.version, rs.digest, tuple(rs.languages), title)
