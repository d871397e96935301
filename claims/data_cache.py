"""Parsed vocabularies kept between processes, so start-up does not parse their YAML again.

Performance machinery only: the vocabularies are claims/data/*.yaml and are read by
``claims._data.load``; this module only hands a later process the same data faster.
Parsing the ~12 vocabulary files cost every process ~15-20 ms (libyaml builds the node
graph in C, but every node becomes a Python object through PyYAML's constructor); the
parsed data, marshalled, loads in ~1 ms.  An entry is keyed by the file's name and the
SHA-1 of its bytes, so an edited vocabulary is parsed again, never served stale.  Data that
marshal cannot keep (a YAML date, say) is simply not kept.  Where the file lives and how
it is written: claims/cache_file.py (``CAVEAT_CACHE_DIR=off`` turns this off).
"""
from __future__ import annotations

import atexit
import hashlib
import marshal
import os
import sys
import threading

from . import cache_file

_FORMAT = 1
_lock = threading.Lock()
_table = None           # (name, sha1 of the bytes) -> parsed data
_new: dict = {}
_registered = False


def path():
    folder = cache_file.cache_dir()
    # marshal's format may change with the interpreter: one file per interpreter
    name = "vocabularies-%s-%d.marshal" % (sys.implementation.cache_tag, _FORMAT)
    return None if folder is None else os.path.join(folder, name)


def load(name: str, raw: bytes, parse):
    """``parse(raw)``, or what it returned for these same bytes in an earlier process.
    The caller gets its own copy either way (marshal builds a new object per load)."""
    global _table, _registered
    file = path()
    if file is None:
        return parse(raw)
    key = (name, hashlib.sha1(raw).hexdigest())
    with _lock:
        if _table is None:
            _table = cache_file.read(file)
    kept = _table.get(key)
    if kept is not None:
        try:
            return marshal.loads(kept)
        except Exception:
            pass
    data = parse(raw)
    try:
        kept = marshal.dumps(data)
        if marshal.loads(kept) == data:       # only what marshal gives back unchanged
            with _lock:
                _new[key] = kept
                if not _registered:
                    atexit.register(save)
                    _registered = True
    except Exception:
        pass
    return data


def reset() -> None:
    """Forget the table read from the file (for tests, which point ``CAVEAT_CACHE_DIR``
    elsewhere)."""
    global _table
    with _lock:
        _table = None
        _new.clear()


def save() -> None:
    """Add the vocabularies parsed in this process to the file; entries of an older version of
    a vocabulary are dropped."""
    file = path()
    with _lock:
        if not file or not _new:
            return
        new = dict(_new)
        _new.clear()
    table = {k: v for k, v in cache_file.read(file).items() if k[0] not in {n for n, _ in new}}
    table.update(new)
    cache_file.write(file, table)
