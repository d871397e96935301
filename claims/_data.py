"""Load the YAML vocabularies in claims/data once per process (parsed once per edit of a
file, not per process: claims/data_cache.py)."""
from __future__ import annotations

import os
from functools import lru_cache

DATA_DIR = os.path.join(os.path.dirname(__file__), "data")


@lru_cache(maxsize=None)
def load(name: str):
    from .data_cache import load as cached
    with open(os.path.join(DATA_DIR, name), "rb") as fh:
        raw = fh.read()
    return cached(name, raw, _parse)


def _parse(raw: bytes):
    import yaml
    loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)   # the C loader is ~10× faster at start-up
    return yaml.load(raw.decode("utf-8"), Loader=loader) or {}
