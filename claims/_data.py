"""Load the YAML vocabularies in claims/data once per process."""
from __future__ import annotations

import os
from functools import lru_cache

DATA_DIR = os.path.join(os.path.dirname(__file__), "data")


@lru_cache(maxsize=None)
def load(name: str):
    import yaml
    with open(os.path.join(DATA_DIR, name), encoding="utf-8") as fh:
        return yaml.safe_load(fh) or {}
