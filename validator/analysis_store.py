"""Analyses kept in the claim ledger, so that a warm run does not read an unchanged file again.

Performance machinery only. Reading a file into its document model costs ~50 ms; loading the
analysis it gave last time costs ~1.5 ms. The ledger (validator/ledger.py) keeps, beside each
corpus file's claim rows, the file's whole analysis as made by this extractor (its fingerprint
decides, as for the rows), keyed by the sha256 of the bytes it was read from: a checked file
whose bytes hash the same is given its stored analysis instead of being read — the way ruff
keeps a cache of each file's results.

An analysis is stored as a pickle, and a pickle from someone else can run code when loaded;
a ledger lives in the corpus folder, which may come from a clone. So every stored analysis
is signed (HMAC-SHA256) with a key that never leaves this user's cache folder
(claims/cache_file.py: ``~/.cache/caveat/analysis.key``, created 0600 on first use): an
analysis signed by another key, or damaged, is not loaded — its file is read as if nothing
were stored. With caching off (``CAVEAT_CACHE_DIR=off``) or no writable cache folder,
nothing is stored or loaded.
"""
from __future__ import annotations

import hashlib
import hmac
import os
import pickle
import zlib
from functools import lru_cache
from typing import Optional

from claims.cache_file import cache_dir

KEY_FILE = "analysis.key"
_TAG = 32                   # bytes of an HMAC-SHA256 tag, stored before the payload


@lru_cache(maxsize=1)
def _key() -> Optional[bytes]:
    """This user's signing key (made on first use), or None when there is no cache folder."""
    folder = cache_dir()
    if folder is None:
        return None
    path = os.path.join(folder, KEY_FILE)
    try:
        os.makedirs(folder, mode=0o700, exist_ok=True)
        try:
            fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        except FileExistsError:
            pass
        else:
            with os.fdopen(fd, "wb") as fh:
                fh.write(os.urandom(32))
        with open(path, "rb") as fh:
            key = fh.read()
        return key if len(key) == 32 else None
    except OSError:
        return None


def enabled() -> bool:
    return _key() is not None


def pack(analysis) -> Optional[bytes]:
    """The signed, compressed pickle of ``analysis`` (None when caching is off)."""
    key = _key()
    if key is None:
        return None
    payload = zlib.compress(pickle.dumps(analysis, protocol=pickle.HIGHEST_PROTOCOL), 1)
    return hmac.new(key, payload, hashlib.sha256).digest() + payload


def unpack(data: bytes):
    """The analysis ``pack`` made, or None when its signature is not this user's or it is
    damaged (the caller reads the file instead)."""
    key = _key()
    if key is None or not data or len(data) <= _TAG:
        return None
    tag, payload = bytes(data[:_TAG]), bytes(data[_TAG:])
    if not hmac.compare_digest(tag, hmac.new(key, payload, hashlib.sha256).digest()):
        return None
    try:
        return pickle.loads(zlib.decompress(payload))
    except Exception:  # noqa: BLE001 - a damaged entry is only a miss
        return None


def digest(path) -> Optional[str]:
    """The sha256 of the file's bytes (the ledger's hash), or None when it cannot be read."""
    try:
        with open(path, "rb") as fh:
            return hashlib.sha256(fh.read()).hexdigest()
    except OSError:
        return None
