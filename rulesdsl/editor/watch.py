"""`rulesdsl watch`: recompile rulesets as they are saved and serve a live preview of the sheets
and the web pages.

A :class:`Preview` holds, per ruleset, the last compile's diagnostics, its sheets (HTML, one
per language) and its web pages (``/web/<id>.<lang>.html``, so that a page's links to its other
languages work there as in generated/web/). On a change it recompiles the files that changed
and the variants that extend them, prints the diagnostics and bumps a generation number. The
preview server (:func:`serve`, standard library only, bound to 127.0.0.1) shows each sheet, or
web page, in a frame of a small page that polls ``/state/<id>`` and reloads the frame when the
generation moves, and lists the errors above it when the last save does not compile (the frame
keeps the last good sheet).
File changes come from watchfiles, which uses the operating system's notifications.

The server answers only requests addressed to itself: the ``Host`` header must be
``127.0.0.1``, ``localhost`` or ``[::1]`` with the server's port, so a page on another site
that points its own name at 127.0.0.1 (DNS rebinding) gets 403, and so does a request whose
``Origin`` is not the preview's own. Ruleset ids come from file names: they are escaped for
HTML, for URLs and inside the page's script.
"""

from __future__ import annotations

import html
import json
import socket
import sys
import threading
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, HTTPServer, ThreadingHTTPServer
from pathlib import Path
from typing import TextIO, cast
from urllib.parse import parse_qs, quote, unquote, urlparse

from rulesdsl.compiler import Compiler, ruleset_files
from rulesdsl.diagnostics import render_text
from rulesdsl.frontends.registry import suffixes
from rulesdsl.sheet_languages import project_words

POLL_MS = 300
LOCAL_HOSTS = ("127.0.0.1", "localhost", "[::1]")
"""The names the preview answers to (with its port), in ``Host`` and ``Origin``."""
REQUEST_TIMEOUT = 10.0
"""Seconds a connection may stay silent before the server closes it."""


@dataclass
class Page:
    """What the preview shows for one ruleset."""

    sheets: dict[str, str] = field(default_factory=dict)
    """The last good sheet per language (HTML)."""
    errors: list[str] = field(default_factory=list)
    """The last compile's errors, as `check` prints them; empty when it compiled."""
    ancestors: tuple[str, ...] = ()
    generation: int = 0
    webs: dict[str, str] = field(default_factory=dict)
    """The last good web page per language (rulesdsl/web/)."""


class Preview:
    def __init__(
        self, folder: Path, out: TextIO | None = None, after: Callable[[], None] | None = None
    ) -> None:
        self.folder = folder
        self.words = project_words(folder)
        """The project's catalogs of sheet words (``i18n/`` beside the rulesets folder)."""
        self.out = out or sys.stderr
        self.after = after
        """Run after each refresh (e.g. a full build into generated/)."""
        self.pages: dict[str, Page] = {}
        self.generation = 0
        self.lock = threading.Lock()

    def refresh(self, changed: Iterable[Path] | None = None) -> list[str]:
        """Recompile what ``changed`` touches (everything when None); the ids rebuilt."""
        from rulesdsl.printed.sheet_model import Sheets
        from rulesdsl.printed.sheets import render_html
        from rulesdsl.web import web_outputs

        files = {p.stem: p for p in ruleset_files(self.folder)}
        changed = None if changed is None else list(changed)
        if changed is None or any(p.suffix == ".po" for p in changed):
            wanted = set(files)  # a catalog of sheet words: every sheet
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
        compiler.sheet_words = self.words
        rebuilt = []
        for rid in sorted(wanted):
            compiled = compiler.compile_file(files[rid])
            page = self.pages.get(rid, Page())
            lines = compiler.source_lines()
            errors = [render_text(d, lines) for d in compiled.diagnostics]
            for text in errors:
                print(text, file=self.out)
            sheets, webs = page.sheets, page.webs
            ancestors = page.ancestors
            if compiled.ok and compiled.ruleset is not None:
                ruleset = compiled.ruleset
                built = Sheets(ruleset, self.words)
                sheets = {lang: render_html(built(lang)) for lang in ruleset.languages}
                webs = {
                    Path(path).suffixes[-2][1:]: bytes(out).decode("utf-8")
                    for path, out in web_outputs(ruleset, built).items()
                    if isinstance(out, bytes)
                }
                ancestors = tuple(a.id for a in ruleset.extends)
                errors = [
                    e for e, d in zip(errors, compiled.diagnostics, strict=True) if d.is_error
                ]
            state = "ok" if compiled.ok else "has errors"
            print(f"rebuilt {rid}: {state}", file=self.out, flush=True)
            with self.lock:
                self.generation += 1
                self.pages[rid] = Page(sheets, errors, ancestors, self.generation, webs)
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
    const state = await (await fetch({state}, {{cache: "no-store"}})).json();
    document.getElementById("errors").textContent = state.errors.join("\\n\\n");
    if (state.generation !== seen) {{
      seen = state.generation;
      document.getElementById("sheet").src = {src_js} + "&g=" + seen;
    }}
  }} catch (e) {{}}
  setTimeout(poll, {poll});
}}
setTimeout(poll, {poll});
</script></body></html>
"""


def _url(verb: str, rid: str, lang: str | None = None) -> str:
    """The path of a page of the preview, the id and language quoted for a URL."""
    return f"/{verb}/{quote(rid, safe='')}" + (f"?lang={quote(lang, safe='')}" if lang else "")


def _js(value: str) -> str:
    """A JavaScript string literal that is safe inside a <script> element."""
    text = json.dumps(value)
    return text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")


def _view(preview: Preview, rid: str, page: Page, lang: str, web: bool = False) -> str:
    """The preview of ``rid``'s sheet in ``lang``, or with ``web`` of its web page."""
    kind = "kind=web" if web else ""
    links = " · ".join(
        f'<a href="{html.escape(_url("view", other) + "?" + kind)}">{html.escape(other)}</a>'
        for other in preview.ids()
    )
    langs = " ".join(
        f'<a href="{html.escape(_url("view", rid, x) + "&" + kind)}">{html.escape(x)}</a>'
        for x in page.sheets
    )
    other = _url("view", rid, lang) + ("" if web else "&kind=web")
    switch = f'<a href="{html.escape(other)}">{"sheet" if web else "web page"}</a>'
    web_src = f"/web/{quote(rid, safe='')}.{quote(lang, safe='')}.html?"
    src = web_src if web else _url("sheet", rid, lang)
    return _VIEW.format(
        lang=html.escape(lang),
        title=html.escape(rid),
        nav=f"{links} | {langs} | {switch}",
        errors=html.escape("\n\n".join(page.errors)),
        src=html.escape(src),
        src_js=_js(src),
        state=_js(_url("state", rid)),
        generation=page.generation,
        poll=POLL_MS,
    )


def _allowed(value: str | None, port: int, scheme: str = "") -> bool:
    """Whether a Host (or, with ``scheme``, an Origin) header names this preview server."""
    if value is None:
        return False
    wanted = {f"{scheme}{host}:{port}" for host in LOCAL_HOSTS}
    if port == 80:  # the default port goes unsaid
        wanted |= {f"{scheme}{host}" for host in LOCAL_HOSTS}
    return value.strip().lower() in wanted


def make_handler(preview: Preview) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        timeout = REQUEST_TIMEOUT

        def log_message(self, format: str, *args: object) -> None:  # quiet: no access log
            pass

        def addressed_here(self) -> bool:
            """Whether the request names this server (Host) and comes from its own pages or
            from no page (Origin); answers 403 when not."""
            port = cast(HTTPServer, self.server).server_port
            hosts = self.headers.get_all("Host") or []
            origins = self.headers.get_all("Origin") or []
            if (
                len(hosts) == 1
                and _allowed(hosts[0], port)
                and (not origins or (len(origins) == 1 and _allowed(origins[0], port, "http://")))
            ):
                return True
            self.send(
                403,
                f"forbidden: the preview answers only at http://127.0.0.1:{port}/ "
                f"(or localhost, [::1]), to its own pages",
                "text/plain",
            )
            return False

        def send(self, status: int, body: str, kind: str = "text/html") -> None:
            data = body.encode("utf-8")
            self.send_response(status)
            self.send_header("Content-Type", f"{kind}; charset=utf-8")
            self.send_header("Content-Length", str(len(data)))
            self.send_header("Cache-Control", "no-store")
            self.end_headers()
            self.wfile.write(data)

        def do_GET(self) -> None:
            if not self.addressed_here():
                return
            url = urlparse(self.path)
            query = parse_qs(url.query)
            parts = [unquote(p) for p in url.path.split("/") if p]
            ids = preview.ids()
            web = len(parts) == 2 and parts[0] == "web" and parts[1].endswith(".html")
            if web:  # /web/<id>.<lang>.html, as in generated/web/
                parts[1], _, lang_html = parts[1].removesuffix(".html").rpartition(".")
                query["lang"] = [lang_html]
            if not parts:
                items = "".join(
                    f'<li><a href="{html.escape(_url("view", i))}">{html.escape(i)}</a>'
                    for i in ids
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
            if page is None:  # removed since the ids were read
                self.send(404, "not found", "text/plain")
                return
            lang = query.get("lang", [""])[0]
            if lang not in page.sheets:
                lang = next(iter(page.sheets), "en")
            if verb == "view":
                self.send(200, _view(preview, rid, page, lang, query.get("kind") == ["web"]))
            elif verb == "web" and web and lang in page.webs:
                self.send(200, page.webs[lang])
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


class _Server(ThreadingHTTPServer):
    daemon_threads = True

    def handle_error(
        self, request: socket.socket | tuple[bytes, socket.socket], address: object
    ) -> None:
        """A client that hangs up or stalls is no error of the server's; the rest are."""
        if isinstance(sys.exc_info()[1], ConnectionError | TimeoutError):
            return
        super().handle_error(request, address)


def serve(preview: Preview, port: int) -> ThreadingHTTPServer:
    """Start the preview server on 127.0.0.1 in a daemon thread; returns it (see .server_port)."""
    httpd = _Server(("127.0.0.1", port), make_handler(preview))
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    return httpd


def watch(preview: Preview, stop: threading.Event | None = None) -> None:
    """Refresh the preview on every change of a ruleset file, or of a project catalog of
    sheet words (every sheet then), until ``stop`` is set."""
    import watchfiles

    def is_ruleset(change: watchfiles.Change, path: str) -> bool:
        return path.endswith((*suffixes(), ".po"))

    folders = [preview.folder, *([preview.words] if preview.words.is_dir() else [])]
    for changes in watchfiles.watch(
        *folders, watch_filter=is_ruleset, stop_event=stop, raise_interrupt=False
    ):
        preview.refresh(Path(p) for _, p in changes)
