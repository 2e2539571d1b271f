"""The language server's stdio transport: JSON-RPC messages framed by headers, read with limits.

pygls 2 reads stdin in ``pygls.io_.run_async``: it trusts the ``Content-Length`` header
(``Content-Length: 1000000000000`` makes it ask for a terabyte at once), reads a header line
of any length, and for invalid JSON or wrong-typed params it logs a traceback and answers
nothing, so the client waits for ever. :func:`serve` replaces that loop and hands pygls only
well-formed messages:

- a header line is at most :data:`MAX_HEADER_LINE` bytes and a message has at most
  :data:`MAX_HEADERS` of them; ``Content-Length`` must be plain decimal digits;
- a body is at most :data:`MAX_MESSAGE_BYTES`; a longer one is never held: it is skipped a
  piece of :data:`SKIP_PIECE` bytes at a time, up to the next line that ends in a
  ``Content-Length`` header (valid JSON cannot hold one: a raw line break may not stand
  inside a string), so the server keeps serving whether the length was true or a lie;
- bad framing, a body that is not UTF-8 JSON (-32700), a message that is not a JSON-RPC 2.0
  object (-32600), wrong-typed params (-32602, with the request's id), a request before
  ``initialize`` (-32002) and a second ``initialize`` (-32600) get an error response, as
  JSON-RPC 2.0 and LSP ask, and the server reads on. A notification with wrong-typed
  params gets one line on stderr (a notification has no response);
- pygls keeps a finished future for every notification (1.3 KB a keystroke); they are
  dropped after each one.

The server stops when stdin ends (also in the middle of a body) or on ``exit``.
"""

from __future__ import annotations

import asyncio
import json
import re
import sys
from concurrent.futures import ThreadPoolExecutor
from threading import Event
from typing import Any, BinaryIO

from lsprotocol.types import ResponseErrorMessage
from pygls.protocol import (
    JsonRPCNotification,
    JsonRPCProtocol,
    JsonRPCRequestMessage,
    JsonRPCResponseMessage,
    default_converter,
)

MAX_MESSAGE_BYTES = 16 * 1024 * 1024
"""The largest message body read (16 MiB): room for a document at the server's document limit
(:data:`rulesdsl.editor.lsp.MAX_DOCUMENT_BYTES`, 2 MiB) even with every character escaped as
six bytes (``\u001b``)."""
MAX_HEADER_LINE = 1024
"""The longest header line, its line break included."""
MAX_HEADERS = 16
"""The most header lines one message may have."""
SKIP_PIECE = 64 * 1024
"""How much of a skipped body is held at a time."""

PARSE_ERROR = -32700
INVALID_REQUEST = -32600
INVALID_PARAMS = -32602
INTERNAL_ERROR = -32603
NOT_INITIALIZED = -32002

_HEADER = re.compile(rb"([A-Za-z][A-Za-z0-9-]*)[ \t]*:[ \t]*([^\r\n]*?)[ \t]*\r?\n")
_LENGTH_AT_END = re.compile(rb"Content-Length[ \t]*:[^\r\n]*\r?\n\Z", re.IGNORECASE)


class _Reader:
    """Blocking reads of stdin, each run on the server's thread pool."""

    def __init__(self, stream: BinaryIO, pool: ThreadPoolExecutor) -> None:
        self.stream = stream
        self.pool = pool

    async def line(self, limit: int) -> bytes:
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self.pool, self.stream.readline, limit)

    async def exactly(self, n: int) -> bytes:
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self.pool, self.stream.read, n)


class _Writer:
    """stdout as pygls' writer; also sends the transport's own error responses."""

    def __init__(self, stream: BinaryIO) -> None:
        self.stream = stream

    def close(self) -> None:
        self.stream.close()

    def write(self, data: bytes) -> None:
        self.stream.write(data)
        self.stream.flush()

    def error(self, msg_id: int | str | None, code: int, message: str) -> None:
        body = json.dumps(
            {"jsonrpc": "2.0", "id": msg_id, "error": {"code": code, "message": message}}
        ).encode("utf-8")
        self.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)


async def _skip(reader: _Reader) -> bytes:
    """Read on, holding at most two pieces, to the next line that ends in a Content-Length
    header; that header line, or b"" at the end of input."""
    tail = b""
    while True:
        piece = await reader.line(SKIP_PIECE)
        if not piece:
            return b""
        found = _LENGTH_AT_END.search(tail[-MAX_HEADER_LINE:] + piece)
        if found:
            return found.group(0)
        tail = piece


async def read_messages(
    reader: _Reader, writer: _Writer, protocol: JsonRPCProtocol, stop: Event
) -> None:
    """Read framed messages until the input ends or ``stop`` is set; hand each to
    ``protocol``."""
    converter = default_converter()  # type: ignore[no-untyped-call]
    session = _Session()
    pending = b""  # a header line found while skipping: the start of the next message
    while not stop.is_set():
        headers: dict[bytes, bytes] = {}
        while True:
            line = pending or await reader.line(MAX_HEADER_LINE)
            pending = b""
            if not line:
                return
            if line in (b"\r\n", b"\n"):
                if headers:
                    break
                continue  # blank lines between messages are harmless
            header = _HEADER.fullmatch(line)
            resync = _LENGTH_AT_END.search(line)
            if resync is not None and resync.start() > 0:  # junk, then the next header
                shown = line[: resync.start()][:40].decode("utf-8", "replace")
                writer.error(None, PARSE_ERROR, f"not a message header: {shown!r}; skipped")
                pending = resync.group(0)
                headers = {}
                continue
            if header is None or len(headers) >= MAX_HEADERS:
                shown = line[:40].decode("utf-8", "replace")
                writer.error(
                    None,
                    PARSE_ERROR,
                    f"not a message header: {shown!r}; skipped to the next Content-Length",
                )
                pending = await _skip(reader)
                headers = {}
                continue
            headers[header.group(1).lower()] = header.group(2)
        value = headers.get(b"content-length", b"")
        if not value.isdigit():
            shown = value[:40].decode("utf-8", "replace")
            writer.error(
                None,
                PARSE_ERROR,
                f"a message needs a Content-Length of 0 to {MAX_MESSAGE_BYTES} bytes, "
                f"not {shown!r}; skipped to the next Content-Length",
            )
            pending = await _skip(reader)
            continue
        length = int(value) if len(value) <= 20 else MAX_MESSAGE_BYTES + 1
        if length > MAX_MESSAGE_BYTES:
            writer.error(
                None,
                INVALID_REQUEST,
                f"a message of {value.decode()} bytes is over the language server's limit "
                f"of {MAX_MESSAGE_BYTES} bytes; skipped to the next Content-Length",
            )
            pending = await _skip(reader)
            continue
        body = await reader.exactly(length)
        if len(body) < length:
            return  # the input ended inside the body: the client is gone
        _handle(body, writer, protocol, converter, session)


class _Session:
    initialized = False
    """Whether an initialize request has been handed to pygls (LSP allows one, first)."""


def _handle(
    body: bytes, writer: _Writer, protocol: JsonRPCProtocol, converter: Any, session: _Session
) -> None:
    """Check one body and hand it to pygls, or answer with the JSON-RPC error it deserves."""
    try:
        data = json.loads(body.decode("utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError) as exc:
        reason = "JSON nested too deeply" if isinstance(exc, RecursionError) else str(exc)
        writer.error(None, PARSE_ERROR, f"the message is not UTF-8 JSON: {reason}")
        return
    if not isinstance(data, dict) or data.get("jsonrpc") != "2.0":
        writer.error(None, INVALID_REQUEST, "not a JSON-RPC 2.0 message object")
        return
    msg_id = data.get("id")
    if "id" in data and (isinstance(msg_id, bool) or not isinstance(msg_id, int | str)):
        writer.error(None, INVALID_REQUEST, "a message id must be an integer or a string")
        return
    method = data.get("method")
    if "method" in data and not isinstance(method, str):
        writer.error(msg_id, INVALID_REQUEST, "a method must be a string")
        return
    if method == "initialize" and session.initialized:
        writer.error(msg_id, INVALID_REQUEST, "the server is initialized already")
        return
    if method not in ("initialize", "exit", None) and not session.initialized:
        if "id" in data:  # LSP: ServerNotInitialized; a notification is dropped
            writer.error(msg_id, NOT_INITIALIZED, f"{method} before initialize")
        return
    if method is None:  # a response to a request of the server's
        kind: type = ResponseErrorMessage if "error" in data else JsonRPCResponseMessage
    else:
        kind = protocol.get_message_type(method) or (
            JsonRPCRequestMessage if "id" in data else JsonRPCNotification
        )
    try:
        message = converter.structure(data, kind)
    except Exception as exc:  # cattrs says what did not fit, in many classes
        reason = _first_line(exc)
        if method is not None and "id" in data:
            writer.error(msg_id, INVALID_PARAMS, f"invalid params for {method}: {reason}")
        else:  # a notification or a response gets no response
            _say(f"ignored {method or 'a response'}: {reason}")
        return
    try:
        protocol.handle_message(message)
        session.initialized |= method == "initialize"
    except Exception as exc:  # pygls answers a request's failure; this is what escapes it
        _say(f"{method or 'a response'} failed: {type(exc).__name__}: {_first_line(exc)}")
        if method is not None and "id" in data:
            writer.error(msg_id, INTERNAL_ERROR, f"{method} failed: {type(exc).__name__}")
    finally:
        if "id" not in data:
            _drop_finished(protocol)


def _drop_finished(protocol: JsonRPCProtocol) -> None:
    """pygls 2.1 files the future of each notification that its own generator handlers run
    (didOpen, didChange, didClose...) under a fresh uuid and never removes it: 1.3 KB a
    keystroke for ever. A request's future is removed when it is answered, so a finished one
    still filed is such a leftover."""
    futures = protocol._request_futures
    for key in [k for k, future in futures.items() if future.done()]:
        del futures[key]


def _say(text: str) -> None:
    print(f"rulesdsl lsp: {text}", file=sys.stderr, flush=True)


def _first_line(exc: BaseException) -> str:
    """What a cattrs error says, to its first leaf (its messages nest)."""
    while isinstance(exc, ExceptionGroup) and exc.exceptions:
        exc = exc.exceptions[0]
    text = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
    return text[:200]


def serve(
    protocol: JsonRPCProtocol,
    pool: ThreadPoolExecutor,
    stop: Event,
    stdin: BinaryIO,
    stdout: BinaryIO,
) -> None:
    """Serve ``protocol`` on ``stdin`` and ``stdout`` until the input ends or the client says
    exit."""
    writer = _Writer(stdout)
    protocol.set_writer(writer)
    try:
        asyncio.run(read_messages(_Reader(stdin, pool), writer, protocol, stop))
    except BrokenPipeError:
        print("rulesdsl lsp: the client closed its end; stopping", file=sys.stderr)
    except (KeyboardInterrupt, SystemExit):
        pass
