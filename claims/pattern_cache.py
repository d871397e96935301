"""Compiled regular expressions kept between processes, so start-up does not compile them again.

Performance machinery only: what a pattern matches is decided where it is written; this
module only makes the second and later processes get the same compiled pattern faster.

Why: the vocabularies of claims are compiled into a few hundred patterns, and compiling
them (``re``'s and ``regex``'s compilers are written in Python) was about half of a
one-briefing ``caveat check`` (~0.2 s of ~0.35 s).  What a compiler produces is a code
array handed to the C engine; this module keeps those arrays in a file and hands them to
the engine directly next time (~2 ms for all of them), the way Python keeps the bytecode
of a module in ``__pycache__``:

- ``regex`` patterns pickle as the arguments of their C constructor (its ``copyreg``
  reducer): those arguments are what is kept;
- ``re`` patterns pickle as their source only, so their arguments are computed with the
  steps of ``re``'s own compiler (parse, generate code); a pattern is kept only when the
  one built from them equals (``==`` compares the code) the one ``re.compile`` built.

The file is per interpreter and ``regex`` version (its name carries both, and every entry
is keyed by engine, pattern and flags); where it lives and how it is read and written:
claims/cache_file.py (``CAVEAT_CACHE_DIR=off``: every pattern is compiled, as without this
module).  Patterns compiled for the first time are added when the process exits.  Nothing
here changes a match: tests/claims/test_pattern_cache.py rebuilds every pattern the examples
compile and compares.
"""
from __future__ import annotations

import copyreg
import hashlib
import marshal
import os
import re
import sys

import regex

from . import cache_file

try:                                    # Python 3.11+
    from re import _compiler as _sre_compiler, _parser as _sre_parser
except ImportError:                     # Python 3.10
    import sre_compile as _sre_compiler
    import sre_parse as _sre_parser
import _sre

# a process that compiled this many new patterns (a user's rules, say) still writes them,
# but the file never grows past MAX_ENTRIES or MAX_BYTES: beyond them only this process's
# patterns are kept. Each change of a vocabulary makes new versions of its large alternations
# (~70 KB each) and the old ones stayed: a developer's file reached 8.6 MB (2,862 entries),
# and reading it was 80 ms of every start-up; one run's patterns take well under 1 MB.
MAX_ENTRIES = 5000
MAX_BYTES = 3_000_000
_FORMAT = 1
# patterns built in this process, by key (re.compile keeps 512; the vocabularies are ~300)
MAX_BUILT = 2048
_built: dict = {}

_used: set = set()      # keys this process asked for (kept when the file is trimmed)


def _trimmed(on_disk: dict, new: dict) -> dict:
    """The file's entries and this process's; past MAX_ENTRIES only this process's patterns."""
    on_disk.update(new)
    if len(on_disk) > MAX_ENTRIES or len(marshal.dumps(on_disk)) > MAX_BYTES:
        return {k: v for k, v in on_disk.items() if k in _used or k in new}
    return on_disk




def _once(key, build):
    """The pattern built in this process for ``key``, else ``build(key)`` (a pattern compiled
    inside a function is asked for again and again: like re.compile's own cache)."""
    got = _built.get(key)
    if got is None:
        got = _built[key] = build(key)
        if len(_built) > MAX_BUILT:
            _built.clear()
    return got


def compile_re(pattern: str, flags: int = 0) -> re.Pattern:
    """``re.compile(pattern, flags)``, from the cache when the pattern was compiled before."""
    return _once(("re", pattern, int(flags)), _compile_re)


def _compile_re(key) -> re.Pattern:
    _engine, pattern, flags = key
    args = _lookup(key)
    if args is not None:
        try:
            return _sre.compile(*args)
        except Exception:       # not this interpreter's code after all: compile it
            pass
    compiled = re.compile(pattern, flags)
    if _enabled() and isinstance(pattern, str):
        try:
            args = _re_arguments(pattern, flags)
            if _sre.compile(*args) == compiled:
                _remember(key, args)
        except Exception:       # an internal of ``re`` that differs: just do without the cache
            pass
    return compiled


def compile_regex(pattern: str, flags: int = 0) -> regex.Pattern:
    """``regex.compile(pattern, flags)``, from the cache when the pattern was compiled before."""
    return _once(("regex", pattern, int(flags)), _compile_regex)


def _compile_regex(key) -> regex.Pattern:
    _engine, pattern, flags = key
    args = _lookup(key)
    if args is not None:
        try:
            return _regex_constructor()(*args)
        except Exception:
            pass
    compiled = regex.compile(pattern, flags)
    if _enabled():
        try:
            _remember(key, _regex_arguments(compiled))
        except Exception:
            pass
    return compiled


# ---- how a pattern is taken apart and put back together -------------------------------------

def _plain(value):
    """``value`` with int subclasses (re's opcodes, flag enums) as ints, so marshal keeps it."""
    if isinstance(value, bool) or value is None or isinstance(value, (str, bytes)):
        return value
    if isinstance(value, int):
        return int(value)
    if isinstance(value, tuple):
        return tuple(_plain(v) for v in value)
    if isinstance(value, list):
        return [_plain(v) for v in value]
    if isinstance(value, dict):
        return {_plain(k): _plain(v) for k, v in value.items()}
    if isinstance(value, frozenset):
        return frozenset(_plain(v) for v in value)
    raise TypeError(type(value).__name__)


def _re_arguments(pattern: str, flags: int) -> tuple:
    """The arguments ``re``'s compiler hands ``_sre.compile`` (its ``compile``, step by step;
    the same in Python 3.10 to 3.13)."""
    parsed = _sre_parser.parse(pattern, flags)
    code = _sre_compiler._code(parsed, flags)
    groupindex = parsed.state.groupdict
    indexgroup = [None] * parsed.state.groups
    for name, i in groupindex.items():
        indexgroup[i] = name
    return _plain((pattern, flags | parsed.state.flags, code, parsed.state.groups - 1,
                   dict(groupindex), tuple(indexgroup)))


def _regex_arguments(compiled) -> tuple:
    """What ``regex`` pickles a pattern as: the arguments of its C constructor."""
    _constructor, args = copyreg.dispatch_table[type(compiled)](compiled)
    return _plain(tuple(args))


_constructor_of_regex = None


def _regex_constructor():
    global _constructor_of_regex
    if _constructor_of_regex is None:
        probe = regex.compile("", cache_pattern=False)
        _constructor_of_regex = copyreg.dispatch_table[type(probe)](probe)[0]
    return _constructor_of_regex


# ---- the file -------------------------------------------------------------------------------

def _enabled() -> bool:
    return cache_file.cache_dir() is not None


def path():
    """This interpreter's cache file (None when the cache is off)."""
    folder = cache_file.cache_dir()
    if folder is None:
        return None
    # the code arrays are the compilers' of this interpreter and this regex: both name the file
    version = "%s|%s|%s|%s" % (sys.version, getattr(_sre, "MAGIC", ""), regex.__version__, _FORMAT)
    tag = hashlib.sha1(version.encode("utf-8")).hexdigest()[:12]
    return os.path.join(folder, "patterns-%s-%s.marshal" % (sys.implementation.cache_tag, tag))


# the file's table and what this process compiled that it lacked
_store = cache_file.Pending(path, _trimmed, lambda: MAX_BYTES)
_new = _store.new


def reset() -> None:
    """Forget the table read from the file and what this process compiled (for tests, which
    point ``CAVEAT_CACHE_DIR`` elsewhere)."""
    _store.reset()
    _used.clear()
    _built.clear()


def _lookup(key):
    _used.add(key)
    return _store.get(key)


def _remember(key, args) -> None:
    _store.add(key, args)


def save() -> None:
    """Add the patterns compiled in this process to the file (merged with what another process
    may have written meanwhile)."""
    _store.save()
