"""`rulesdsl watch`: recompile rulesets as they are saved and serve a live preview of the sheets.

A :class:`Preview` holds, per ruleset, the last compile's diagnostics and its sheets (HTML, one
per language). On a change it recompiles the files that changed and the variants that extend
them, prints the diagnostics and bumps a generation number. The preview server
(:func:`serve`, standard library only, bound to 127.0.0.1) shows each sheet in a frame of a
small page that polls ``/state/<id>`` and reloads the frame when the generation moves, and lists
the errors above it when the last save does not compile (the frame keeps the last good sheet).
File changes come from watchfiles, which uses the operating system's notifications.
"""

from __future__ import annotations

import html
import json
import sys
import threading
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import TextIO
from urllib.parse import parse_qs, urlparse

from rulesdsl.compiler import SUFFIXES, Compiler, ruleset_files
from rulesdsl.diagnostics import render_text

POLL_MS = 300


@dataclass
class Page:
    """What the preview shows for one ruleset."""

    sheets: dict[str, str] = field(default_factory=dict)
    """The last good sheet per language (HTML)."""
    errors: list[str] = field(default_factory=list)
    """The last compile's errors, as `check` prints them; empty when it compiled."""
    ancestors: tuple[str, ...] = ()
    generation: int = 0


class Preview:
    def __init__(
        self, folder: Path, out: TextIO | None = None, after: Callable[[], None] | None = None
    ) -> None:
        self.folder = folder
        self.out = out or sys.stderr
        self.after = after
        """Run after each refresh (e.g. a full build into generated/)."""
        self.pages: dict[str, Page] = {}
        self.generation = 0
        self.lock = threading.Lock()

    def refresh(self, changed: Iterable[Path] | None = None) -> list[str]:
        """Recompile what ``changed`` touches (everything when None); the ids rebuilt."""
        from rulesdsl.backends.sheets import render_sheet

        files = {p.stem: p for p in ruleset_files(self.folder)}
        if changed is None:
            wanted = set(files)
        else:
            stems = {Path(p).stem for p in changed}
            wanted = {
                i
                for i in files
                if i in stems
                or stems & set(self.pages.get(i, Page()).ancestors)
                or i not in self.pages
            }
        with self.lock:
            for gone in set(self.pages) - set(files):
                del self.pages[gone]
        compiler = Compiler()
        rebuilt = []
        for rid in sorted(wanted):
            compiled = compiler.compile_file(files[rid])
            page = self.pages.get(rid, Page())
            errors = [render_text(d, compiler.sources) for d in compiled.diagnostics]
            for text in errors:
                print(text, file=self.out)
            sheets = page.sheets
            ancestors = page.ancestors
            if compiled.ok and compiled.ruleset is not None:
                ruleset = compiled.ruleset
                sheets = {
                    lang: render_sheet(ruleset, "html", lang).decode("utf-8")
                    for lang in ruleset.languages
                }
                ancestors = tuple(a.id for a in ruleset.extends)
                errors = [
                    e for e, d in zip(errors, compiled.diagnostics, strict=True) if d.is_error
                ]
            state = "ok" if compiled.ok else "has errors"
            print(f"rebuilt {rid}: {state}", file=self.out, flush=True)
            with self.lock:
                self.generation += 1
                self.pages[rid] = Page(sheets, errors, ancestors, self.generation)
            rebuilt.append(rid)
        if self.after is not None:
            self.after()
        return rebuilt

    def page(self, rid: str) -> Page | None:
        with self.lock:
            return self.pages.get(rid)

    def ids(self) -> list[str]:
        with self.lock:
            return sorted(self.pages)


# ---- the preview server ------------------------------------------------------------------------


_VIEW = """<!doctype html>
<html lang="{lang}"><head><meta charset="utf-8"><title>{title} - rulesdsl preview</title>
<style>
body {{ margin: 0; font-family: system-ui, sans-serif; }}
nav {{ padding: .4em .8em; background: #eee; font-size: 90%; }}
#errors {{ margin: 0; padding: .6em .8em; background: #fdd; color: #600; white-space: pre-wrap;
           font: 85% monospace; }}
#errors:empty {{ display: none; }}
iframe {{ border: 0; width: 100%; height: calc(100vh - 2.5em); }}
</style></head>
<body><nav>{nav}</nav><pre id="errors">{errors}</pre>
<iframe id="sheet" title="{title}" src="{src}"></iframe>
<script>
let seen = {generation};
async function poll() {{
  try {{
    const state = await (await fetch("/state/{rid}", {{cache: "no-store"}})).json();
    document.getElementById("errors").textContent = state.errors.join("\\n\\n");
    if (state.generation !== seen) {{
      seen = state.generation;
      document.getElementById("sheet").src = "{src}&g=" + seen;
    }}
  }} catch (e) {{}}
  setTimeout(poll, {poll});
}}
setTimeout(poll, {poll});
</script></body></html>
"""


def _view(preview: Preview, rid: str, lang: str) -> str:
    page = preview.page(rid)
    assert page is not None
    links = " · ".join(
        f'<a href="/view/{html.escape(other)}">{html.escape(other)}</a>' for other in preview.ids()
    )
    langs = " ".join(
        f'<a href="/view/{html.escape(rid)}?lang={html.escape(x)}">{html.escape(x)}</a>'
        for x in page.sheets
    )
    src = f"/sheet/{rid}?lang={lang}"
    return _VIEW.format(
        lang=html.escape(lang),
        title=html.escape(rid),
        nav=f"{links} | {langs}",
        errors=html.escape("\n\n".join(page.errors)),
        src=html.escape(src),
        rid=rid,
        generation=page.generation,
        poll=POLL_MS,
    )


def make_handler(preview: Preview) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        def log_message(self, format: str, *args: object) -> None:  # quiet: no access log
            pass

        def send(self, status: int, body: str, kind: str = "text/html") -> None:
            data = body.encode("utf-8")
            self.send_response(status)
            self.send_header("Content-Type", f"{kind}; charset=utf-8")
            self.send_header("Content-Length", str(len(data)))
            self.send_header("Cache-Control", "no-store")
            self.end_headers()
            self.wfile.write(data)

        def do_GET(self) -> None:
            url = urlparse(self.path)
            query = parse_qs(url.query)
            parts = [p for p in url.path.split("/") if p]
            ids = preview.ids()
            if not parts:
                items = "".join(
                    f'<li><a href="/view/{html.escape(i)}">{html.escape(i)}</a>' for i in ids
                )
                self.send(
                    200,
                    f"<!doctype html><meta charset='utf-8'><title>rulesdsl "
                    f"preview</title><ul>{items}</ul>",
                )
                return
            if len(parts) != 2 or parts[1] not in ids:
                self.send(404, "not found", "text/plain")
                return
            verb, rid = parts
            page = preview.page(rid)
            assert page is not None
            lang = query.get("lang", [""])[0]
            if lang not in page.sheets:
                lang = next(iter(page.sheets), "en")
            if verb == "view":
                self.send(200, _view(preview, rid, lang))
            elif verb == "sheet":
                body = page.sheets.get(lang)
                if body is None:
                    body = (
                        "<!doctype html><meta charset='utf-8'><p>No sheet yet: "
                        "the ruleset has not compiled.</p>"
                    )
                self.send(200, body)
            elif verb == "state":
                self.send(
                    200,
                    json.dumps({"generation": page.generation, "errors": page.errors}),
                    "application/json",
                )
            else:
                self.send(404, "not found", "text/plain")

    return Handler


def serve(preview: Preview, port: int) -> ThreadingHTTPServer:
    """Start the preview server on 127.0.0.1 in a daemon thread; returns it (see .server_port)."""
    httpd = ThreadingHTTPServer(("127.0.0.1", port), make_handler(preview))
    httpd.daemon_threads = True
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    return httpd


def watch(preview: Preview, stop: threading.Event | None = None) -> None:
    """Refresh the preview on every change of a ruleset file until ``stop`` is set."""
    import watchfiles

    def is_ruleset(change: watchfiles.Change, path: str) -> bool:
        return path.endswith(SUFFIXES)

    for changes in watchfiles.watch(
        preview.folder, watch_filter=is_ruleset, stop_event=stop, raise_interrupt=False
    ):
        preview.refresh(Path(p) for _, p in changes)
