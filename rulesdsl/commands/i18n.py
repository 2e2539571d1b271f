"""`rulesdsl i18n extract|merge`: a ruleset's labels and notes for translators (gettext)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from rulesdsl.commands import verb_parser
from rulesdsl.commands.common import add_dir_option, format_option, language_option, output_option


def cmd_extract(args: argparse.Namespace) -> int:
    from rulesdsl.commands.common import (
        EXIT_OK,
        EXIT_RULES,
        EXIT_USAGE,
        emit_document,
        report,
        ruleset_path,
    )
    from rulesdsl.compiler import Compiler
    from rulesdsl.interchange.translation import extract

    if args.sheet_words:
        return _sheet_words(args)
    if args.ruleset is None:
        print("rulesdsl: error: name a RULESET, or give --sheet-words", file=sys.stderr)
        return EXIT_USAGE
    compiler = Compiler()
    path = ruleset_path(args.ruleset, folder=args.dir)
    source, diags = compiler.parse_file(path)
    report(diags, compiler, args.format)
    if source is None or any(d.is_error for d in diags):
        return EXIT_RULES
    content = extract(source, args.lang, _shown(path))
    if not emit_document(content, "po", args.output):
        return EXIT_USAGE
    if args.output in (None, "-"):
        return EXIT_OK
    kind = f"the {args.lang} catalog" if args.lang else "a template (.pot)"
    print(f"wrote {args.output}: {kind} of {path.name}", file=sys.stderr)
    return EXIT_OK


def cmd_merge(args: argparse.Namespace) -> int:
    from rulesdsl.commands.common import (
        EXIT_OK,
        EXIT_RULES,
        EXIT_USAGE,
        report,
        ruleset_path,
    )
    from rulesdsl.compiler import Compiler
    from rulesdsl.interchange.translation import (
        compile_merged,
        merge,
        read_catalog,
        read_catalog_file,
    )
    from rulesdsl.outputs import atomic_write

    compiler = Compiler()
    path = ruleset_path(args.ruleset, folder=args.dir)
    data, unreadable = read_catalog_file(Path(args.catalog))
    if data is None:
        report(unreadable, compiler, args.format)
        return EXIT_RULES
    compiler.sources[args.catalog] = data.decode("utf-8", "replace")
    compiled = compiler.compile_file(path)
    if not compiled.ok or compiled.ruleset is None:  # its warnings (W101...) may be what a
        report(compiled.diagnostics, compiler, args.format)  # merge fixes: only errors stop it
        print(f"rulesdsl: error: {path} has errors: fix them before merging", file=sys.stderr)
        return EXIT_RULES
    catalog, lang, diags = read_catalog(data, args.catalog, args.lang)
    if catalog is None or lang is None:
        report(diags, compiler, args.format)
        return EXIT_RULES
    source, _ = compiler.parse_file(path)
    assert source is not None  # it compiled
    merged = merge(source, catalog, lang, args.catalog, compiled.ruleset.languages)
    if merged.ok and merged.text is not None and merged.text != source.text:
        found = compile_merged(compiler, path, merged.text)
        if any(d.is_error for d in found):  # it would not compile as merged: not written
            report([*merged.diagnostics, *found], compiler, args.format)
            print(f"rulesdsl: error: {path} would not compile: not written", file=sys.stderr)
            return EXIT_RULES
    report(merged.diagnostics, compiler, args.format)
    if not merged.ok or merged.text is None:
        return EXIT_RULES
    if merged.text != source.text:
        try:
            atomic_write(path, merged.text.encode("utf-8"))
        except OSError as exc:
            print(f"rulesdsl: error: cannot write {path}: {exc.strerror or exc}", file=sys.stderr)
            return EXIT_USAGE
    skipped = len(merged.diagnostics)
    print(
        f"{_shown(path)}: {merged.added} {lang} labels added, {merged.changed} changed, "
        f"{merged.unchanged} unchanged, {skipped} entr{'y' if skipped == 1 else 'ies'} skipped",
        file=sys.stderr,
    )
    return EXIT_OK


def _sheet_words(args: argparse.Namespace) -> int:
    """``extract --sheet-words --lang L``: the sheets' own words to translate into L."""
    from rulesdsl.commands.common import EXIT_OK, EXIT_USAGE, emit_document
    from rulesdsl.i18n.template import sheet_words_po

    if args.ruleset is not None or args.lang is None:
        print("rulesdsl: error: --sheet-words takes --lang LANG and no RULESET", file=sys.stderr)
        return EXIT_USAGE
    if args.output not in (None, "-"):  # the project's i18n/ folder, made on first use
        Path(args.output).parent.mkdir(parents=True, exist_ok=True)
    if not emit_document(sheet_words_po(args.lang), "po", args.output):
        return EXIT_USAGE
    if args.output not in (None, "-"):
        print(
            f"wrote {args.output}: the sheets' own words to translate into {args.lang} "
            "(the build reads i18n/<lang>.po beside rulesets/)",
            file=sys.stderr,
        )
    return EXIT_OK


def _shown(path: Path) -> str:
    """The file as the ``#:`` lines name it: relative to this folder when it is inside."""
    try:
        return path.resolve().relative_to(Path.cwd().resolve()).as_posix()
    except ValueError:
        return path.as_posix()


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    def usage(args: argparse.Namespace) -> int:
        p.print_help(sys.stderr)
        return 2

    p = verb_parser(
        subparsers,
        "i18n",
        usage,
        description="Translate a ruleset's labels and notes in the tools translators use: "
        "`extract` writes them as a gettext catalog (.pot, or .po for one language), "
        "`merge` writes a translated .po back into the ruleset as that language's labels. "
        "The sheets' own words (headings, units, phrases) of a language are in the "
        "project's i18n/<lang>.po beside rulesets/: `extract --sheet-words --lang LANG` "
        "writes them to translate.",
    )
    verbs = p.add_subparsers(dest="i18n_verb", metavar="ACTION")
    ex = verbs.add_parser(
        "extract",
        help="write the ruleset's labels and notes as a .pot or .po",
        description="Write the labels and notes of one ruleset file as a gettext catalog: "
        "msgctxt is the item's path (feature:woods), msgid its label in the file's first "
        "language, msgstr its label in --lang (empty in a template).",
    )
    ex.add_argument(
        "ruleset", metavar="RULESET", nargs="?", help="a ruleset id or path (.terrain or .yaml)"
    )
    ex.add_argument(
        "--sheet-words",
        action="store_true",
        help="write the sheets' own words (headings, units, phrases) to translate into "
        "--lang, for the project's i18n/LANG.po, instead of a ruleset's labels",
    )
    language_option(
        ex,
        "write a .po for LANG, with the labels the file has in it (default: a .pot "
        "template with empty translations)",
    )
    output_option(ex)
    add_dir_option(ex)
    format_option(ex)
    ex.set_defaults(run=cmd_extract)
    me = verbs.add_parser(
        "merge",
        help="write a translated .po back into the ruleset as labels",
        description="Write each translated entry of FILE.po into the ruleset file as its "
        "label in the catalog's language, and add the language to the `languages` line. "
        "Only the strings added or changed are edited; comments and layout stay. Fuzzy and "
        "empty entries, and entries for items the file no longer has, are skipped and "
        "reported. The file is written only if it still compiles.",
    )
    me.add_argument("ruleset", metavar="RULESET", help="a ruleset id or .terrain path")
    me.add_argument("catalog", metavar="FILE.po", help="the translated catalog")
    language_option(me, "the catalog's language (default: its Language header)")
    add_dir_option(me)
    format_option(me)
    me.set_defaults(run=cmd_merge)
