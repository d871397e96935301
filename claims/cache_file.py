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

import marshal
import os
import tempfile
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
