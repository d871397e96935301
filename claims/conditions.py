"""Find condition facets in text: hardware, model, workload, dataset, concurrency,
precision, context length, batch size.

Hardware and models come from claims/data/entities.yaml (via entities.py); the
other facets are the patterns of claims/data/facets.yaml.  ``find_conditions``
returns (facet, value, start, end, surface) in text order; where a figure's
conditions come from (sentence, bullet, entry, section, document) is decided in
context.py.
"""
from __future__ import annotations

import re
from functools import lru_cache

from ._data import load
from .entities import find_entities


@lru_cache(maxsize=None)
def _facets():
    out = []
    for facet, spec in load("facets.yaml").items():
        pats = spec.get("patterns") or []
        canon = {str(k).lower(): str(v) for k, v in (spec.get("canon") or {}).items()}
        rxs = [re.compile(p, re.IGNORECASE) for p in pats]
        out.append((facet, rxs, canon))
    return out


def _value(m, canon):
    v = m.group("v") if "v" in m.re.groupindex and m.group("v") else m.group(0)
    v = re.sub(r"\s+", " ", v.strip())
    c = canon.get(v.lower())
    if c is None:
        c = canon.get(re.sub(r"\s+", "", v.lower()))
    if c is not None:
        return c
    if re.fullmatch(r"\d+\s*[Kk]", v):
        return v.replace(" ", "").upper()
    return v


def find_conditions(text: str, start: int = 0, end=None) -> list:
    """[(facet, value, start, end, surface)] for every condition named in text[start:end]."""
    end = len(text) if end is None else end
    found = []
    for kind, canon, s, e, surface in find_entities(text, start, end, kinds=("hardware", "model")):
        found.append((kind, canon, s, e, surface))
    named = [(s, e) for _, _, s, e, _ in found]   # facet patterns never look inside a hardware/model name
    for facet, rxs, canon in _facets():
        seen = []
        for rx in rxs:
            for m in rx.finditer(text, start, end):
                if any(s <= m.start() < e for s, e in named) or any(s < m.end() and m.start() < e for s, e in seen):
                    continue
                seen.append((m.start(), m.end()))
                found.append((facet, _value(m, canon), m.start(), m.end(), m.group(0)))
    found.sort(key=lambda t: t[2])
    return found
