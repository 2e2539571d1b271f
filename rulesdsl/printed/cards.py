"""Quick-reference cards: a deck per ruleset, one topic per card, imposed for home printing.

:func:`build_deck` cuts a :class:`~rulesdsl.printed.sheet_model.Sheet` into cards of one
:data:`CARD_SIZES` size: each block of the sheet (a layer's table, a modifier, a procedure, a
dice table, a scale) becomes a card; a table too wide for the card is split between its
column groups (the modes under one cost heading, one modifier's columns) and one too long is
split between rows, into cards titled "(continued 2/3)", never cut. A footnote goes on the
card of the first row that uses it, or after the table's last row where that takes fewer
cards. Where the content would overflow is estimated from font
metrics (:mod:`rulesdsl.printed.fit`), so the HTML is known without rendering; the tests
check the rendered layout.

:func:`render_deck_html` lays the deck out either one card per page (the page is the card:
for card stock or a print shop) or imposed N-up on A4 or Letter with crop marks, each sheet
of fronts followed by its sheet of backs, mirrored so that the back of every card lands
behind its front when printed on both sides (flip on the long edge; on the short edge for
a sheet turned landscape because it holds more cards so). Each card carries its number in
the deck and the ruleset id and version in its footer, the back the extends chain and the
digest too.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from functools import cache, partial
from pathlib import Path

import jinja2
from markupsafe import Markup

from rulesdsl import ir
from rulesdsl.codegen.template_code import TemplateCode
from rulesdsl.i18n import catalog
from rulesdsl.outputs import MAX_PDF_SOURCE_BYTES, Deferred, Output
from rulesdsl.printed.card_blocks import block_cards, cards_within
from rulesdsl.printed.card_model import Card as Card
from rulesdsl.printed.card_model import Deck as Deck
from rulesdsl.printed.card_model import heads_fit, mostly_heads, set_columns, signs_only
from rulesdsl.printed.card_packing import LEAST_ROWS
from rulesdsl.printed.card_room import CARD_SIZES as CARD_SIZES
from rulesdsl.printed.card_room import DEFAULT_PAPER as DEFAULT_PAPER
from rulesdsl.printed.card_room import DEFAULT_SIZE as DEFAULT_SIZE
from rulesdsl.printed.card_room import (
    EDGE,
    _Room,
    _room,
    _title_height,
    foot_size,
    front_foot_lines,
)
from rulesdsl.printed.card_room import SAFE_ZONE as SAFE_ZONE
from rulesdsl.printed.card_room import CardSize as CardSize
from rulesdsl.printed.card_tables import row_sources_out, source_height
from rulesdsl.printed.deck_bound import least_deck_bytes
from rulesdsl.printed.imposition import (
    CROP,
    IMPOSE_PAPERS,
    MAX_BLEED,
    PRINT_MARGIN,
    Imposition,
    Slot,
    imposition,
)
from rulesdsl.printed.loss import REFITTABLE, Loss
from rulesdsl.printed.pdf import TRIM_META, Rendered, render_pdf, rendered_from
from rulesdsl.printed.sheet_model import Sheets, build_sheet
from rulesdsl.printed.sheet_view import (
    CHANGED_SIGN,
    Block,
    CellView,
    HeadCell,
    Sheet,
    TableView,
)
from rulesdsl.printed.table_slices import (
    fit_text,
    transposed,
    wide_chunks,
)

__all__ = [
    "CARD_SIZES",
    "IMPOSE_PAPERS",
    "Card",
    "CardSize",
    "Deck",
    "build_deck",
    "card_outputs",
    "imposition",
    "render_deck",
    "render_deck_html",
]

# ---- the deck -------------------------------------------------------------------------------


def build_deck(
    ruleset: ir.Ruleset,
    lang: str | None = None,
    size: str = DEFAULT_SIZE,
    mode: str | None = None,
    tight: Mapping[str, tuple[float, float]] | None = None,
    sheet: Sheet | None = None,
    catalog_words: Path | None = None,
    *,
    index: bool = False,
    examples: bool = False,
) -> Deck:
    """The deck of ``ruleset`` in ``lang`` on cards of ``size``; ``mode`` keeps only what
    concerns that unit type (see :func:`~rulesdsl.printed.sheet_model.build_sheet`).
    ``index``: the deck opens with an index card (:func:`_with_index`); ``examples``: the
    worked examples are dealt too (a deck of the rules alone by default, as the sheet's
    budget leaves them to their own pages).
    ``tight`` gives some blocks (``section/block``) less room than the estimate: the share
    of the card's width and height they may fill (see :class:`Refit`). ``sheet``, where
    given, is the sheet of the same ruleset, language and mode, already built (a refit
    reuses it); else it is built with the fixed words of the project's catalog folder
    ``catalog_words`` (see :func:`~rulesdsl.printed.sheet_model.build_sheet`).

    Each block is fitted on its own (:func:`_fitted`): upright or set across the card, at
    the type size that leaves the fewest parts of a split table short of
    :data:`LEAST_ROWS` rows, then needs the fewest cards, then is the largest
    (:meth:`CardSize.fonts`), its table rows shared evenly between the cards."""
    if size not in CARD_SIZES:
        raise ValueError(f"unknown card size {size!r}; choose one of {', '.join(CARD_SIZES)}")
    if sheet is None:
        sheet = build_sheet(ruleset, lang, mode, catalog_words)
    c = catalog(sheet.lang, sheet.catalog_words)
    front = c.text("ident_version", id=sheet.ruleset_id, version=sheet.version)
    card_size = CARD_SIZES[size]
    # the fronts' footer: the card's number, the ruleset's id and version (the back's footer
    # adds the extends chain and the digest); its lines are the room under every card's body
    card_size = replace(card_size, foot_lines=front_foot_lines(f"{FOOT_NUMBER} {front}", card_size))
    cards: list[Card] = []
    for section in sheet.sections:
        if section.id == EXAMPLES and not examples:
            continue
        fitted = []
        for block in section.blocks:
            key = f"{section.id}/{block.id}"
            share = (tight or {}).get(key, (1.0, 1.0))
            block = row_sources_out(block)
            parts = _fitted(section.id, section.title, block, card_size, share)
            for card in parts:
                card.block = key
            fitted.append((block, share, parts))
        cards += _gathered(section.title, fitted, card_size)
    if index:
        index_share = (tight or {}).get("index/index", (1.0, 1.0))
        cards = _with_index(
            cards, c.text("deck_index"), c.text("deck_index_card"), card_size, index_share
        )
    bands = {topic: n for n, topic in enumerate(dict.fromkeys(card.topic for card in cards))}
    for i, card in enumerate(cards, start=1):
        card.number = i
        card.band = bands[card.topic] % BANDS
        share = (tight or {}).get(card.block, (1.0, 1.0))
        card.full_heads = card.full_heads or heads_fit(card, card_size, share)
        set_columns(card, card_size, sheet.lang)
    words = {
        "for": c.text("deck_for", mode=sheet.mode) if sheet.mode else c.text("deck_all"),
        "count": c.plural("cards", len(cards)),
        "legend": c.text("legend"),
        "front": front,
    }
    return Deck(sheet, card_size, cards, sheet.mode, words)


def _gathered(
    section: str, fitted: list[tuple[Block, tuple[float, float], list[Card]]], size: CardSize
) -> list[Card]:
    """The cards of one topic, small blocks that each fill one card sharing a card where
    they fit together in type no smaller than :func:`_gather_floor` (a deck of worked
    examples one to a card is mostly empty card)."""
    floor = _gather_floor(size)
    fonts = [f for f in size.fonts() if f >= floor]
    out: list[Card] = []
    group: list[tuple[Block, tuple[float, float], Card]] = []
    made: _Made = {}

    def flush() -> None:
        if len(group) == 1:
            out.append(group[0][2])
        elif group:
            found = _together_font(section, group, size, fonts, made)
            assert found is not None  # each block joined the group where they fit together
            out.append(_together(group, *found))
        group.clear()

    for block, share, parts in fitted:
        card = parts[0]
        # a block the loss check found too tall for its estimate (refitted: a share under 1)
        # takes a card of its own, where the refit's tighter room applies
        if len(parts) > 1 or card.turned or card.over or share != (1.0, 1.0):
            lines = _lines_alone(block, parts) if share == (1.0, 1.0) else None
            # the lines before a table alone on a card join the small blocks before them
            # where they fit (a card a third full in skirmish_keywords, issue 41)
            if (
                lines is not None
                and group
                and _together_font(section, [*group, (lines, share, card)], size, fonts, made)
            ):
                group.append((lines, share, card))
                parts = parts[1:]
            flush()
            tail = _notes_alone(block, parts) if share == (1.0, 1.0) else None
            if tail is None:
                out += parts
                continue
            # a last card of notes alone takes the small blocks after it where they fit
            out += parts[:-1]
            block, card = tail, parts[-1]
        together = [*group, (block, share, card)]
        if group and _together_font(section, together, size, fonts, made) is None:
            flush()
        group.append((block, share, card))
    flush()
    return out


def _notes_alone(block: Block, parts: list[Card]) -> Block | None:
    """The notes on the last of a block's cards as a block of their own, titled as their
    part, where they stand alone on it."""
    last = parts[-1]
    if last.table is not None or last.svg or last.lines or last.after or not last.notes:
        return None
    return Block(block.id, last.title, notes=last.notes, source=block.source, kind=block.kind)


def _lines_alone(block: Block, parts: list[Card]) -> Block | None:
    """The lines before a block's table as a block of their own, titled as their part, where
    they stand alone on the first of its cards."""
    first = parts[0]
    if first.table is not None or first.svg or first.notes or first.after or not first.lines:
        return None
    return Block(
        block.id,
        first.title,
        lines=first.lines,
        source=block.source,
        changed=block.changed,
        kind="text",
    )


def _gather_floor(size: CardSize) -> float:
    """The least type small blocks sharing a card are set in: the size's least (7 pt on
    poker cards), the floor every card's type keeps (issue 41: a card a block, each mostly
    empty, doubled the decks)."""
    return size.font


_Made = dict[tuple[int, float, tuple[float, float]], tuple[Block, list[Card]]]
"""A block's cards by type size and share, made once for one topic's :func:`_gathered`: each
block it tries with the blocks before it is set again at every size while the group grows,
then once more for :func:`_together` (the 33 decks of a build made 1,984 such sets, now 1,161)."""


def _together_font(
    section: str,
    group: Sequence[tuple[Block, tuple[float, float], Card]],
    size: CardSize,
    fonts: Sequence[float],
    known: _Made | None = None,
) -> tuple[float, list[Card]] | None:
    """The largest of ``fonts`` at which the blocks of ``group`` fit on one card together,
    with their cards at that type; None when they do not. ``known``: the cards made already
    for the blocks (their :class:`_Made`), added to; a block of a group :func:`_together`
    has set is never asked again."""
    known = {} if known is None else known
    for font in fonts:
        cards, used = [], 0.0
        for block, share, _ in group:
            room = _room(size, font, share)
            found = known.get((id(block), font, share))
            if found is None or found[0] is not block:
                found = known[id(block), font, share] = (
                    block,
                    block_cards(section, block, room),
                )
            made = found[1]
            if len(made) > 1 or made[0].over:
                break
            cards.append(made[0])
            title = _title_height(made[0].title, room, band=not cards[1:])
            used += made[0].height + title + source_height(made[0], room)
        else:
            if used <= _room(size, font).height:
                return font, cards
    return None


def _together(
    group: Sequence[tuple[Block, tuple[float, float], Card]], font: float, cards: list[Card]
) -> Card:
    """One card of the blocks of ``group``: ``cards``, theirs set at ``font`` together
    (:func:`_together_font`), the first carrying the others."""
    for card, (_, _, alone) in zip(cards, group, strict=True):
        card.block, card.topic, card.font, card.part = alone.block, alone.topic, font, alone.part
    first, *rest = cards
    first.more = rest
    return first


FOOT_NUMBER = "999/999"
"""The widest card number the fronts' footer is measured with (before the deck is dealt)."""


BANDS = 12
"""Topic bands the stylesheet draws (a shade or a pattern each, ``band-0`` to ``band-11``):
the topics of a deck take them in turn, so a new topic slots in."""


EXAMPLES = "examples"
"""The sheet's section of worked examples: dealt only where asked (``examples``)."""


def _with_index(
    cards: list[Card], title: str, head: str, size: CardSize, share: tuple[float, float]
) -> list[Card]:
    """The deck with its index first: one card listing every card by number and title, or
    where they do not fit one card, every topic by the numbers of its cards. The index's
    own card is counted in the numbers it lists."""
    if len(cards) < 2:
        return cards
    listed = [
        (str(n), title)
        for n, card in enumerate(cards, 2)
        for title in (card.title, *(more.title for more in card.more))
    ]
    index = _index_cards(listed, title, head, size, share)
    if len(index) > 1:
        numbers: dict[str, list[int]] = {}
        for n, card in enumerate(cards, 2):
            numbers.setdefault(card.section, []).append(n)
        topics = [
            (f"{ns[0]}\u2013{ns[-1]}" if len(ns) > 1 else str(ns[0]), section)
            for section, ns in numbers.items()
        ]
        index = _index_cards(topics, title, head, size, share)
    return index + cards


def _index_cards(
    listed: list[tuple[str, str]],
    title: str,
    head: str,
    size: CardSize,
    share: tuple[float, float],
) -> list[Card]:
    """The cards of an index listing ``listed`` (numbers, title)."""
    rows = [[CellView(number), CellView(name)] for number, name in listed]
    table = TableView([[HeadCell("#"), HeadCell(head)]], rows, ["#", head])
    index = _fitted("index", title, Block("index", title, table=table, kind="table"), size, share)
    for card in index:
        card.block = "index/index"
        card.kind = "index"
    return index


def _fitted(
    topic: str, section: str, block: Block, size: CardSize, share: tuple[float, float]
) -> list[Card]:
    """The cards of one block (:func:`_fitted_once`); a table split between cards is also
    tried on its side (:func:`transposed`: a column per row, a row per column), and where
    some parts would still hold fewer than LEAST_ROWS rows (three rows under the header are
    taller than the card), with long words hyphenated in its cells too (narrower columns),
    then in the block's compact form (a results table's outcomes as codes with a key).

    Taken: the fewest short parts, then the fewest cards (on its side, a card in ten more),
    then a table whole across (each part holds every column), then the first tried.
    A results table on its side still has any roll at any odds on one card."""
    cards = _fitted_once(topic, section, block, size, share)
    if block.table is None or block.svg or len(cards) < 2 or topic == "index":
        return cards
    found = [(_rank(cards, block, False), 0, cards, False)]

    def consider(shown: Block, sideways: bool, narrow: bool) -> None:
        trial = _fitted_once(topic, section, shown, size, share, narrow)
        if not any(card.over for card in trial):
            found.append((_rank(trial, shown, sideways), len(found), trial, sideways))

    side = replace(block, table=transposed(block.table))
    consider(side, True, False)
    if min(found)[0][0]:  # still short: narrower columns, then the compact form
        consider(block, False, True)
        consider(side, True, True)
    compact = block.compact
    if min(found)[0][0] and compact is not None and compact.table is not None:
        turned = replace(compact, table=transposed(compact.table))
        for shown, sideways in ((compact, False), (turned, True)):
            for narrow in (False, True):
                consider(shown, sideways, narrow)
    rank, _, best, sideways = min(found, key=lambda f: (f[0], f[1]))
    if rank[0] and share != (1.0, 1.0):
        # a block the loss check found too tall for its estimate (refitted: a share under
        # 1) that no way sets in parts of LEAST_ROWS rows may leave shorter parts: text on
        # the card beats even parts
        return _fitted_once(topic, section, block, size, share, least_rows=1)
    for card in best:
        card.sideways = sideways
    return best


def _rank(cards: list[Card], block: Block, sideways: bool) -> tuple[int, int, bool]:
    """Short parts, cards, and whether the table is split between its columns."""
    shown = [card.table for card in cards if card.table is not None]
    if sideways:
        across = any(len(t.rows) < card.of_rows for card in cards if (t := card.table))
    else:
        across = len({tuple(t.flat_head) for t in shown}) > 1
    # a table is read as the sheet sets it: on its side only for a card in ten or more
    turn = max(1, len(cards) // SIDEWAYS_GAIN) if sideways else 0
    return _short(cards, block), len(cards) + turn, across


SIDEWAYS_GAIN = 10
"""A table is set on its side where that ends short parts, or saves a card in this many
(or keeps the table whole across at no more cards)."""


def _fitted_once(
    topic: str,
    section: str,
    block: Block,
    size: CardSize,
    share: tuple[float, float],
    narrow: bool = False,
    least_rows: int = LEAST_ROWS,
) -> list[Card]:
    """The cards of one block at one shape of its table: set across the card where that
    needs fewer cards, leaves fewer parts short of ``least_rows`` rows or keeps a wide table
    whole; then at a larger type where that leaves fewer short parts; then at the largest
    type that needs no more cards and leaves no more short parts. ``narrow``: long words
    hyphenated in the cells (narrower columns)."""
    fonts = size.fonts()
    whole = topic in WHOLE_ROWS
    upright = _room(size, fonts[-1], share, narrow)
    least = block_cards(section, block, upright, whole, least_rows)
    turned = False
    if block.table is not None and (len(least) > 1 or whole):
        # a table that needs several cards may need fewer set across the card; a results
        # table is never split between its columns: set across where it is wide
        across = replace(size, width=size.height, height=size.width)
        other = block_cards(
            section, block, _room(across, fonts[-1], share, narrow), whole, least_rows
        )
        # set across, too, where the upright card cannot hold LEAST_ROWS rows a part
        fewer = _short(other, block) < _short(least, block)
        # and where that keeps the table whole across (one table, not its columns apart)
        whole_across = _too_wide(block, upright) and not _too_wide(
            block, _room(across, fonts[-1], share, narrow)
        )
        if (
            (len(other) < len(least) and _short(other, block) <= _short(least, block))
            or (whole and _too_wide(block, upright))
            or fewer
            or (
                whole_across
                and len(other) <= len(least)
                and _short(other, block) <= _short(least, block)
            )
        ):
            least, size, turned = other, across, True
    chosen, font = least, fonts[-1]
    made: dict[float, list[Card]] = {}

    def at(candidate: float) -> list[Card]:
        """The block's cards at type ``candidate`` (both loops below ask: made once)."""
        if candidate not in made:
            room = _room(size, candidate, share, narrow)
            made[candidate] = block_cards(section, block, room, whole, least_rows)
        return made[candidate]

    if _short(least, block):
        # larger type may split the table between its columns, each part with a shorter
        # header and room for three rows: fewer short parts beat fewer cards
        for candidate in fonts[:-1]:
            cards = at(candidate)
            if _short(cards, block) < _short(chosen, block) and not any(c.over for c in cards):
                chosen, font = cards, candidate
        least = chosen
    for candidate in fonts[: fonts.index(font)]:
        # a type whose content is taller than len(least) cards hold cannot win: not packed
        if candidate not in made:
            room = _room(size, candidate, share, narrow)
            trial = cards_within(section, block, room, len(least), whole, least_rows)
            if trial is None:
                continue
            made[candidate] = trial
        cards = made[candidate]
        if (
            len(cards) <= len(least)
            and not any(card.over for card in cards)
            and _short(cards, block) <= _short(least, block)
        ):
            chosen, font = cards, candidate
            break
    full = False
    if block.table is not None and any(mostly_heads(card) for card in chosen):
        # headers set smaller would be most of a card's text: at the body's size, the body
        # as large as that leaves it, at the cards that takes (issue 41, goal 3)
        for candidate in fonts[fonts.index(font) :]:
            room = _room(size, candidate, share, narrow, 1.0)
            cards = block_cards(section, block, room, whole, least_rows)
            if not any(card.over for card in cards) and _short(cards, block) <= _short(
                chosen, block
            ):
                chosen, font, full = cards, candidate, True
                break
    for card in chosen:
        card.topic = topic
        card.font = font
        card.turned = turned
        card.full_heads = full
    return chosen


def _short(cards: list[Card], block: Block) -> int:
    """How many parts of a split table hold fewer than LEAST_ROWS rows (a table of fewer
    rows is whole on one card, or split only by its columns)."""
    if block.table is None or len(block.table.rows) < LEAST_ROWS:
        return 0
    return sum(
        1 for card in cards if card.table is not None and 0 < len(card.table.rows) < LEAST_ROWS
    )


WHOLE_ROWS = frozenset({"results"})
"""Topics whose tables are never split between their columns (a results table is read
along a row: the roll, then the column of the situation)."""


def _too_wide(block: Block, room: _Room) -> bool:
    """Whether the block's table needs more than the card's width (it would split)."""
    assert block.table is not None
    return len(wide_chunks(signs_only(block.table), room.width, room.box)) > 1


# ---- rendering ------------------------------------------------------------------------------


@cache
def _environment() -> jinja2.Environment:
    env = jinja2.Environment(
        loader=jinja2.PackageLoader("rulesdsl", "templates"),
        autoescape=True,
        undefined=jinja2.StrictUndefined,
        keep_trailing_newline=True,
        bytecode_cache=TemplateCode(),  # the templates' code kept between runs (issue 44)
    )
    env.filters["mm"] = lambda v: f"{v:.2f}mm"
    env.filters["num"] = lambda v: f"{v:.2f}"
    return env


def render_deck_html(deck: Deck, paper: str | None = DEFAULT_PAPER, bleed: float = 0.0) -> str:
    """The deck as one HTML document: cards imposed on ``paper``, or one per page (None),
    with ``bleed`` millimetres of the backs' frame past each cut."""
    layout = imposition(deck.size, paper, bleed)
    env = _environment()
    assert env.loader is not None
    css, _, _ = env.loader.get_source(env, "cards.css")
    n = layout.per_sheet
    sheets = [deck.cards[i : i + n] for i in range(0, len(deck.cards), n)]
    return env.get_template("cards.html.j2").render(
        deck=deck,
        sheets=sheets,
        layout=layout,
        css=Markup(css),
        imposed=paper is not None,
        changed_sign=CHANGED_SIGN,
        total=len(deck.cards),
        safe=SAFE_ZONE,
        foot_size=foot_size(deck.size),
        edge=EDGE,
        trim_meta=TRIM_META,
    )


def render_deck(
    ruleset: ir.Ruleset,
    lang: str | None = None,
    size: str = DEFAULT_SIZE,
    mode: str | None = None,
    paper: str | None = DEFAULT_PAPER,
    bleed: float = 0.0,
    words: Path | None = None,
    *,
    index: bool = False,
    examples: bool = False,
) -> Rendered:
    """The deck as PDF bytes (see :func:`build_deck` and :func:`render_deck_html`), refitted
    where the first layout lost text (:class:`Refit`); what is still lost is in its
    ``losses``. ``words``: the project's catalog folder (see :func:`build_sheet`)."""
    deck = build_deck(
        ruleset, lang, size, mode, catalog_words=words, index=index, examples=examples
    )
    html = render_deck_html(deck, paper, bleed)
    refit = Refit(ruleset, lang, size, mode, paper, bleed, deck.sheet, index, examples)
    return render_pdf(html, refit=refit)


NOTHING_ON_CARDS = "has nothing to put on cards yet"
WHAT_CARDS_PRINT = "cards print the layers, tables and rules of the sheet"
"""Why a ruleset gets no deck (W010 from the build, an error from `rulesdsl cards`)."""


def card_outputs(ruleset: ir.Ruleset, sheets: Sheets | None = None) -> dict[str, Output]:
    """The build backend: ``cards/<id>.<lang>.pdf``, a poker deck imposed on A4 per language.

    The PDF is deferred like the sheets' (rendered only when its HTML changed, and only with
    the ``pdf`` extra). ``sheets``: the ruleset's sheets, shared with the sheet backend (built
    here if not given)."""
    sheets = Sheets(ruleset) if sheets is None else sheets
    outputs: dict[str, Output] = {}
    for lang in ruleset.languages:
        sheet = sheets(lang)
        least = least_deck_bytes(sheet)
        if least > MAX_PDF_SOURCE_BYTES:  # sure to be refused (W009): not cut into cards
            outputs[f"cards/{ruleset.id}.{lang}.pdf"] = Deferred(
                partial(_deck_pdf, ruleset, lang, sheet),
                partial(_deck_current, ruleset, lang, sheet),
                needs="pdf",
                source_bytes=least,
                source_at_least=True,
            )
            continue
        deck = build_deck(ruleset, lang, DEFAULT_SIZE, sheet=sheet)
        html = render_deck_html(deck, DEFAULT_PAPER)
        refit = Refit(ruleset, lang, DEFAULT_SIZE, None, DEFAULT_PAPER, sheet=deck.sheet)
        outputs[f"cards/{ruleset.id}.{lang}.pdf"] = Deferred(
            partial(render_pdf, html, refit=refit),
            partial(rendered_from, html=html),
            needs="pdf",
            source_bytes=len(html.encode()),
            blank=not deck.cards,
        )
    return outputs


def _deck_html(ruleset: ir.Ruleset, lang: str, sheet: Sheet) -> str:
    return render_deck_html(build_deck(ruleset, lang, DEFAULT_SIZE, sheet=sheet), DEFAULT_PAPER)


def _deck_pdf(ruleset: ir.Ruleset, lang: str, sheet: Sheet) -> Rendered:
    """The PDF of a deck whose HTML was not made (see :func:`card_outputs`)."""
    refit = Refit(ruleset, lang, DEFAULT_SIZE, None, DEFAULT_PAPER, sheet=sheet)
    return render_pdf(_deck_html(ruleset, lang, sheet), refit=refit)


def _deck_current(ruleset: ir.Ruleset, lang: str, sheet: Sheet, existing: bytes) -> bool:
    return rendered_from(existing, html=_deck_html(ruleset, lang, sheet))


REFIT_SHRINK = 0.95
"""Each refit gives a block that lost text this share of the room it had."""


class Refit:
    """What :func:`~rulesdsl.printed.pdf.render_pdf` calls when the loss check finds text
    lost on some cards: the deck again, with less room for the blocks of those cards (the
    estimate was short for them), or None when no card lost anything it can help.

    The result is deterministic (the same deck, the same findings, the same refit), and the
    PDF keeps the first HTML's identifier, so the build still knows it is current."""

    def __init__(
        self,
        ruleset: ir.Ruleset,
        lang: str | None,
        size: str,
        mode: str | None,
        paper: str | None,
        bleed: float = 0.0,
        sheet: Sheet | None = None,
        index: bool = False,
        examples: bool = False,
    ) -> None:
        self.args = (ruleset, lang, size, mode)
        self.index = index
        self.examples = examples
        self.paper = paper
        self.bleed = bleed
        self.sheet = sheet
        """The sheet the decks are cut from: built once (given, or at the first refit),
        then only cut again."""
        self.tight: dict[str, tuple[float, float]] = {}
        self.deck: Deck | None = None
        """The last deck made (None until a refit)."""

    def __call__(self, losses: Sequence[Loss]) -> str | None:
        """The deck again with less room for the blocks that lost text; it replaces the one
        before (it only ever gets more room)."""
        found = [loss for loss in losses if loss.key and loss.kind in REFITTABLE]
        if not found:
            return None
        for key in sorted({loss.key for loss in found}):
            sides = {loss.side for loss in found if loss.key == key}
            across, down = self.tight.get(key, (1.0, 1.0))
            if sides & {"left", "right"}:
                across *= REFIT_SHRINK
            if sides - {"left", "right"}:  # the bottom, or text over text
                down *= REFIT_SHRINK
            self.tight[key] = (across, down)
        ruleset, lang, size, mode = self.args
        self.deck = build_deck(
            ruleset,
            lang,
            size,
            mode,
            self.tight,
            self.sheet,
            index=self.index,
            examples=self.examples,
        )
        self.sheet = self.deck.sheet
        return render_deck_html(self.deck, self.paper, self.bleed)


__all__ += ["CROP", "MAX_BLEED", "PRINT_MARGIN", "Imposition", "Refit", "Slot", "fit_text"]
