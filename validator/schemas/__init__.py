"""The published JSON Schemas of caveat's JSON outputs, one file each: ``NAME.schema.json``.

``json``: ``caveat check --format json``; ``report``: the corpus report's report.json.
``caveat schema NAME`` prints any schema placed here, so a new output's schema plugs
in by adding its file.
"""
from __future__ import annotations

import os

SUFFIX = ".schema.json"
HERE = os.path.dirname(os.path.abspath(__file__))


def names() -> list:
    return sorted(f[: -len(SUFFIX)] for f in os.listdir(HERE) if f.endswith(SUFFIX))


def path(name: str) -> str:
    return os.path.join(HERE, name + SUFFIX)


def text(name: str) -> str:
    """The schema's JSON text; KeyError when there is no such schema."""
    if name not in names():
        raise KeyError(name)
    with open(path(name), encoding="utf-8") as fh:
        return fh.read()
