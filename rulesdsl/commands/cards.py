"""`rulesdsl cards RULESET`: a deck of quick-reference cards as PDF (or its HTML)."""

from __future__ import annotations

import argparse
import sys

from rulesdsl.commands import verb_parser
from rulesdsl.commands.common import PRINT_LANGUAGE, language_option, output_option
from rulesdsl.printed.cards import (
    CARD_SIZES,
    DEFAULT_PAPER,
    DEFAULT_SIZE,
    IMPOSE_PAPERS,
    MAX_BLEED,
    NOTHING_ON_CARDS,
    WHAT_CARDS_PRINT,
    Refit,
    build_deck,
    imposition,
    render_deck_html,
)
from rulesdsl.printed.pdf import render_pdf

PER_CARD = "none"
"""``--paper none``: one card per page, the page the size of the card."""


def cmd_cards(args: argparse.Namespace) -> int:
    from rulesdsl.commands.common import EXIT_OK, EXIT_RULES, EXIT_USAGE
    from rulesdsl.commands.printing import deliver, printable

    found = printable(args.ruleset, args.lang)
    if found is None:
        return EXIT_RULES
    ruleset, lang, words = found
    modes = [m.id for m in ruleset.modes]
    if args.per_mode is not None and args.per_mode not in modes:
        print(
            f"rulesdsl: error: {ruleset.id} has no mode '{args.per_mode}'; choose one of "
            f"{', '.join(modes) or '(none: this ruleset declares no modes)'}",
            file=sys.stderr,
        )
        return EXIT_USAGE
    paper = None if args.paper == PER_CARD else args.paper
    if not 0 <= args.bleed <= MAX_BLEED:
        print(f"rulesdsl: error: --bleed takes 0 to {MAX_BLEED:g} mm", file=sys.stderr)
        return EXIT_USAGE
    deck = build_deck(
        ruleset,
        lang,
        args.size,
        args.per_mode,
        catalog_words=words,
        index=args.index,
        examples=args.examples,
    )
    if not deck.cards:  # a blank page helps no one, and tells the player nothing
        print(
            f"rulesdsl: error: {ruleset.id} {NOTHING_ON_CARDS}: {WHAT_CARDS_PRINT}, and it "
            "has none; nothing written",
            file=sys.stderr,
        )
        return EXIT_RULES
    html = render_deck_html(deck, paper, args.bleed)
    fmt = (
        "html"
        if (
            args.format == "html"
            or (args.format is None and args.output and args.output.endswith((".html", ".htm")))
        )
        else "pdf"
    )
    refit = Refit(
        ruleset,
        lang,
        args.size,
        args.per_mode,
        paper,
        args.bleed,
        deck.sheet,
        args.index,
        args.examples,
    )

    def render() -> bytes:
        return html.encode("utf-8") if fmt == "html" else render_pdf(html, refit=refit)

    failed = deliver(render, fmt, args.output, args.strict, "deck")
    if failed is not None:
        return failed
    if args.output not in (None, "-"):
        print(
            f"wrote {args.output} ({len((refit.deck or deck).cards)} cards, {args.size}, "
            f"{lang}, {args.paper})",
            file=sys.stderr,
        )
        if paper is not None:
            layout = imposition(deck.size, paper, args.bleed)
            print(
                f"print double-sided, flipping on the {layout.flip} edge "
                f"({layout.per_sheet} cards a sheet)",
                file=sys.stderr,
            )
    return EXIT_OK


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = verb_parser(
        subparsers,
        "cards",
        cmd_cards,
        description="Cut a ruleset's quick reference into cards, one topic per card; wide or "
        "long tables continue on further cards. Cards are imposed on A4 or "
        "Letter with crop marks, each sheet of fronts followed by its backs "
        "for double-sided printing (the command says which edge to flip on).",
    )
    p.add_argument("ruleset", metavar="RULESET", help="a ruleset id or path")
    p.add_argument(
        "--size",
        choices=tuple(CARD_SIZES),
        default=DEFAULT_SIZE,
        help=f"card size (default: {DEFAULT_SIZE}, 63 x 88 mm; tarot 70 x 120 mm, "
        "index 5 x 3 in, a6)",
    )
    p.add_argument(
        "--paper",
        choices=(*IMPOSE_PAPERS, PER_CARD),
        default=DEFAULT_PAPER,
        help=f"sheet to impose the cards on (default: {DEFAULT_PAPER}); "
        f"{PER_CARD}: one card per page",
    )
    p.add_argument(
        "--per-mode",
        metavar="MODE",
        default=None,
        help="only what concerns one unit type (a mode id, e.g. mech)",
    )
    language_option(p, "card " + PRINT_LANGUAGE)
    p.add_argument(
        "--format",
        choices=("pdf", "html"),
        default=None,
        help="pdf (default) or the HTML it is printed from",
    )
    output_option(p)
    p.add_argument(
        "--bleed",
        type=float,
        metavar="MM",
        default=0.0,
        help="millimetres of design past each cut, for a print shop (default 0; shops ask "
        "for 2 to 5): imposed cards stand apart with crop marks at both cuts; with "
        "--paper none each page is the card and its bleed",
    )
    p.add_argument(
        "--index",
        action="store_true",
        help="open the deck with an index card: every card by number and title, or where "
        "they do not fit one card, every topic by its cards' numbers",
    )
    p.add_argument(
        "--examples",
        action="store_true",
        help="deal the worked examples too (by default the deck holds the rules alone)",
    )
    p.add_argument(
        "--strict",
        action="store_true",
        help="text past a card's cut or in its safe zone is an error: exit 1, write nothing",
    )
