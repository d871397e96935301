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

import hashlib
import marshal
import os
import sys

from . import cache_file

_FORMAT = 1


def path():
    folder = cache_file.cache_dir()
    # marshal's format may change with the interpreter: one file per interpreter
    name = "vocabularies-%s-%d.marshal" % (sys.implementation.cache_tag, _FORMAT)
    return None if folder is None else os.path.join(folder, name)


def _replacing(on_disk: dict, new: dict) -> dict:
    """The file's entries and this process's, but an edited vocabulary's older versions
    dropped (names loaded with ``one_version``)."""
    replaced = {name for name, _ in new if name in _one_version}
    table = {k: v for k, v in on_disk.items() if k[0] not in replaced}
    table.update(new)
    return table


_store = cache_file.Pending(path, _replacing)   # (name, sha1 of the bytes) -> parsed data, marshalled
_new = _store.new
_one_version: set = set()   # names whose new entry replaces the file's older ones


def load(name: str, raw: bytes, parse, one_version: bool = True):
    """``parse(raw)``, or what it returned for these same bytes in an earlier process.
    The caller gets its own copy either way (marshal builds a new object per load).
    ``one_version``: ``name`` is a file, whose older contents are dropped when these are kept
    (a name that keys many entries, as claims/prefilter.py's, passes False)."""
    if path() is None:
        return parse(raw)
    key = (name, hashlib.sha1(raw).hexdigest())
    kept = _store.get(key)
    if kept is not None:
        try:
            return marshal.loads(kept)
        except Exception:
            pass
    data = parse(raw)
    try:
        kept = marshal.dumps(data)
        if marshal.loads(kept) == data:       # only what marshal gives back unchanged
            if one_version:
                _one_version.add(name)
            _store.add(key, kept)
    except Exception:
        pass
    return data


def reset() -> None:
    """Forget the table read from the file (for tests, which point ``CAVEAT_CACHE_DIR``
    elsewhere)."""
    _store.reset()


def save() -> None:
    """Add the vocabularies parsed in this process to the file; entries of an older version of
    a vocabulary are dropped."""
    _store.save()
