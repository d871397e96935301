"""Load the YAML vocabularies in claims/data once per process."""
from __future__ import annotations

import os
from functools import lru_cache

DATA_DIR = os.path.join(os.path.dirname(__file__), "data")


@lru_cache(maxsize=None)
def load(name: str):
    import yaml
    loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)   # the C loader is ~10× faster at start-up
    with open(os.path.join(DATA_DIR, name), encoding="utf-8") as fh:
        return yaml.load(fh, Loader=loader) or {}
