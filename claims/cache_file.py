"""Where caveat keeps what start-up computed once, and how such a file is read and written.

Performance machinery only (claims/pattern_cache.py: compiled patterns; claims/data_cache.py:
parsed vocabularies).  A cache file is one marshalled table with a checksum; one that is
missing, damaged or truncated reads as empty and is rewritten.  Writes go to a temporary
file renamed over the old one, so a reader never sees half a file; a folder that cannot be
written only means nothing is kept.  The folder: ``$CAVEAT_CACHE_DIR``, else
``$XDG_CACHE_HOME/caveat``, else ``~/.cache/caveat``; ``CAVEAT_CACHE_DIR=off`` turns every
cache off (all is computed as it would be without them).
"""
from __future__ import annotations

import atexit
import marshal
import os
import tempfile
import threading
import zlib


def cache_dir():
    """The cache folder, or None when caching is off."""
    env = os.environ.get("CAVEAT_CACHE_DIR")
    if env is not None:
        return None if env.strip().lower() in ("", "0", "off", "no", "false") else env
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return os.path.join(base, "caveat")


def read(file) -> dict:
    """The table in ``file``; {} for a missing, damaged or foreign file."""
    try:
        with open(file, "rb") as fh:
            checksum, payload = marshal.loads(fh.read())
        if zlib.crc32(payload) != checksum:
            return {}
        table = marshal.loads(payload)
        return table if isinstance(table, dict) else {}
    except Exception:
        return {}


def write(file, table: dict) -> None:
    """Replace ``file`` with ``table`` (no error when it cannot be written)."""
    try:
        payload = marshal.dumps(table)
        folder = os.path.dirname(file)
        os.makedirs(folder, mode=0o700, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=folder, prefix=".caveat-cache-")
        try:
            with os.fdopen(fd, "wb") as fh:
                fh.write(marshal.dumps((zlib.crc32(payload), payload)))
            os.replace(tmp, file)
        except BaseException:
            os.unlink(tmp)
            raise
    except Exception:
        pass


class Pending:
    """One cache file as a process sees it: the table read on first use, the entries this
    process adds, and the write that merges them into the file as it is then (another process
    may have written meanwhile).  ``save`` runs at exit (atexit, and the console script calls
    it before its hard exit: validator/cli.py)."""

    def __init__(self, path, merge=None, max_bytes=None):
        self._path = path               # () -> the file, or None when caching is off
        self._merge = merge             # (on_disk, new) -> the table to write; default: on_disk | new
        self._max_bytes = max_bytes     # () -> a size past which the file is written at exit, trimmed by merge
        self._lock = threading.Lock()
        self._table = None
        self.new: dict = {}             # cleared in place, never replaced
        self._registered = False
        self._oversized = False

    def get(self, key):
        """The entry for ``key`` in the file, or None (the file is read once)."""
        if self._table is None:
            with self._lock:
                if self._table is None:
                    file = self._path()
                    self._table = read(file) if file else {}
                    if file and self._max_bytes is not None and self._table:
                        try:
                            big = os.path.getsize(file) > self._max_bytes()
                        except OSError:
                            big = False
                        if big:         # rewrite it at exit, trimmed (even with nothing new)
                            self._oversized = True
                            self._register()
        return self._table.get(key)

    def _register(self) -> None:
        if not self._registered:
            atexit.register(self.save)
            self._registered = True

    def add(self, key, value) -> None:
        with self._lock:
            self.new[key] = value
            self._register()

    def save(self) -> None:
        """Write the file: what it holds now, updated with this process's entries (the
        ``merge`` given at construction decides what else is kept)."""
        file = self._path()
        with self._lock:
            if not file or not (self.new or self._oversized):
                return
            new = dict(self.new)
            self.new.clear()
            self._oversized = False
        on_disk = read(file)
        if self._merge is None:
            on_disk.update(new)
            table = on_disk
        else:
            table = self._merge(on_disk, new)
        write(file, table)

    def reset(self) -> None:
        """Forget the table read and the entries added (for tests, which move the folder)."""
        with self._lock:
            self._table = None
            self.new.clear()
            self._oversized = False
