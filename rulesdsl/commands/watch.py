"""`rulesdsl watch`: rebuild on save and serve a live preview of the sheets (see
rulesdsl.editor.watch)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from rulesdsl.commands import verb_parser


def port(text: str) -> int:
    """A TCP port for --port: 0 (any free one) to 65535."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a port number: {text!r}") from None
    if not 0 <= value <= 65535:
        raise argparse.ArgumentTypeError(f"{value} is not a port: use 0 to 65535 (0: any free one)")
    return value


def register(verbs: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = verb_parser(
        verbs,
        "watch",
        run,
        description="Watch the rulesets folder: on every save recompile what changed (and the "
        "variants that extend it), print the diagnostics, and refresh the preview "
        "at http://127.0.0.1:PORT/, which reloads itself. With --out, also run "
        "`rulesdsl build` into that folder after each change. Stop with Ctrl-C.",
    )
    p.add_argument("--rulesets", metavar="DIR", help="folder to watch (default: ./rulesets)")
    p.add_argument(
        "--port",
        type=port,
        default=8765,
        help="preview port on 127.0.0.1 (default 8765; 0 picks a free one)",
    )
    p.add_argument(
        "--out",
        metavar="DIR",
        help="also build into this folder after each change (like `build --out`)",
    )
    p.add_argument(
        "--strict",
        action="store_true",
        help="with --out: text a PDF loses past a cut or in the safe zone is an error, "
        "and that build writes nothing",
    )


def run(args: argparse.Namespace) -> int:
    from rulesdsl.commands.common import EXIT_OK, UsageError, find_project
    from rulesdsl.extras import require

    require("editor", "`rulesdsl watch`")  # watchfiles: before the preview starts
    from rulesdsl.editor.watch import Preview, serve, watch

    folder = Path(args.rulesets) if args.rulesets else find_project() / "rulesets"
    if not folder.is_dir():
        raise UsageError(f"no such folder: {folder}")
    after = None
    if args.out:
        from rulesdsl.builder.build import build
        from rulesdsl.compiler import Compiler

        out = Path(args.out)
        existing = next(p for p in (out, *out.absolute().parents) if p.exists())
        if not existing.is_dir():
            raise UsageError(f"--out {out} is not a folder: {existing} is a file")

        def after() -> None:
            compiler = Compiler()
            try:
                result = build(folder, out, compiler=compiler, strict=args.strict)
            except OSError as exc:  # the folder went away, a full disk...: watch on
                reason = exc.strerror or str(exc)
                print(f"build failed: {exc.filename or out}: {reason}", file=sys.stderr, flush=True)
                return
            from rulesdsl.builder.losses import LOSS_CODES
            from rulesdsl.commands.common import report

            found = [d for d in result.diagnostics if d.code in LOSS_CODES]
            if found:  # the loss check's findings (the preview shows the compiler's)
                report(found, compiler, "text")
            if result.ok:
                print(
                    f"built: {len(result.written)} of {len(result.outputs)} files changed in {out}",
                    file=sys.stderr,
                    flush=True,
                )
            else:  # the preview has printed the diagnostics
                print("build failed: nothing was written", file=sys.stderr, flush=True)

    preview = Preview(folder, sys.stderr, after)
    preview.refresh()
    try:
        httpd = serve(preview, args.port)
    except OSError as exc:
        raise UsageError(f"cannot serve on port {args.port}: {exc.strerror}") from None
    print(
        f"preview: http://127.0.0.1:{httpd.server_port}/ (Ctrl-C stops)",
        file=sys.stderr,
        flush=True,
    )
    try:
        watch(preview)
    finally:
        httpd.shutdown()
    return EXIT_OK
