"""Markers that qualify figures: unverified, conditional, hedged, abstract_only.

The vocabulary is claims/data/markers.yaml.  ``find_markers`` returns every
marker occurrence in a piece of text; segment.py collects them per entry and
context.py adds the ones of a figure's own sentence.
"""
from __future__ import annotations

import re
from functools import lru_cache
from typing import NamedTuple

from ._data import load
from .entities import guarded


@lru_cache(maxsize=None)
def _pattern():
    data = load("markers.yaml")
    parts = []
    names = []
    for i, (name, pats) in enumerate(data.items()):
        names.append(name)
        parts.append("(?P<m%d>%s)" % (i, "|".join("(?:%s)" % p for p in pats)))
    return guarded("|".join(parts), re.IGNORECASE), names


class Mark(NamedTuple):
    """One marker occurrence: its name ('unverified' …) and where it is written."""
    name: str
    start: int
    end: int


def find_markers(text: str, start: int = 0, end=None) -> list:
    """[Mark(name, start, end)] for every marker in text[start:end]."""
    rx, names = _pattern()
    out = []
    for m in rx.finditer(text, start, len(text) if end is None else end):
        out.append(Mark(names[int(m.lastgroup[1:])], m.start(), m.end()))
    return out


def marker_names(text: str, start: int = 0, end=None) -> list:
    """Sorted distinct marker names found in text[start:end]."""
    return sorted({n for n, _, _ in find_markers(text, start, end)})
