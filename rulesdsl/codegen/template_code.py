"""The package's Jinja templates (the Python module's, the sheets', the decks' and the web
page's), compiled once and kept between runs (issue 44).

Jinja compiles a template to Python source (its lexer, parser and code generator are Python)
and that source to code, the first time a process asks for the template: the Python module's
five templates took about 200 ms of CPU, in every process that writes a module (each
``rulesdsl build``, each worker of a parallel build, each test process), against 2 ms for
the render itself. :class:`TemplateCode` is Jinja's hook for keeping that code
(``jinja2.BytecodeCache``): the code of each template is kept in a cache file beside this
module's ``.pyc``, as :mod:`rulesdsl.ir.records` keeps the dataclasses' code, and the next
process runs it as Jinja would have run the code it compiled (``Template.from_code``).

An entry is found only for the same template file (name and path), the same text of it
(Jinja's checksum of the source), the same Jinja and the same options of the environment that
shape the code; the file is keyed by the interpreter's bytecode magic number and Jinja's
version: another interpreter's file, a damaged one or a bad entry means compiling, as
before. The cache is written as ``records``' is: at exit, only when an entry was added, never
when ``sys.dont_write_bytecode`` is set or the folder is read-only.
"""

from __future__ import annotations

from types import CodeType
from typing import Any

import jinja2
from jinja2.bccache import Bucket

from rulesdsl.ir.records import _MAGIC, _cache_path, _CodeCache

_CACHE = _CodeCache(
    _cache_path(__file__, ".jinja-code"), _MAGIC + b"jinja2 " + jinja2.__version__.encode()
)


class TemplateCode(jinja2.BytecodeCache):
    """The compiled code of an environment's templates, from the process's cache file."""

    def load_bytecode(self, bucket: Bucket) -> None:
        key = _key(bucket)
        kept = _CACHE.load()
        _CACHE.used.add(key)
        code = kept.get(key)
        if isinstance(code, CodeType):  # missing, or a damaged entry: Jinja compiles it
            bucket.code = code

    def dump_bytecode(self, bucket: Bucket) -> None:
        if bucket.code is not None:
            _CACHE.load()[_key(bucket)] = bucket.code
            _CACHE.note_missed()


def _key(bucket: Bucket) -> tuple[Any, ...]:
    """A template's entry: its file (Jinja's key of name and path), its text (Jinja's
    checksum) and the environment's options that change the code Jinja writes for it."""
    env = bucket.environment
    shape = (
        env.block_start_string,
        env.block_end_string,
        env.variable_start_string,
        env.variable_end_string,
        env.comment_start_string,
        env.comment_end_string,
        env.line_statement_prefix,
        env.line_comment_prefix,
        env.trim_blocks,
        env.lstrip_blocks,
        env.newline_sequence,
        env.keep_trailing_newline,
        env.optimized,
        env.is_async,
        repr(env.autoescape),
        tuple(sorted(env.extensions)),
    )
    return ("jinja2", bucket.key, bucket.checksum, repr(shape))
