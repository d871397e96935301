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
from .entities import Covered, SpanIndex, find_entities, guarded, matches_in_spans
from .model import Mention
from .pattern_cache import compile_re  # compiled once per machine, not per process
from .prefilter import patterns_for  # a facet the text cannot name is not scanned for

# precompiled: _value runs for every facet mention
_SPACES = compile_re(r"\s+")
_KILO = compile_re(r"\d+\s*[Kk]")
# facets entities.yaml names; facets.yaml may add labelled forms of them ('Model: …')
_ENTITY_FACETS = frozenset(("model", "hardware"))


@lru_cache(maxsize=None)
def _facets():
    """One alternation over every facet pattern (one pass per text); group f<i>_<j> is
    pattern j of facet i, and v<i>_<j> its value group when it has one."""
    # one alternation per facet: facets may overlap ('长上下文（128K）' is a workload and a
    # context length), patterns of one facet may not
    out, meta = [], {}
    for i, (facet, spec) in enumerate(load("facets.yaml").items()):
        canon = {str(k).lower(): str(v) for k, v in (spec.get("canon") or {}).items()}
        parts = []
        for j, p in enumerate(spec.get("patterns") or []):
            name = f"f{i}_{j}"
            body = p.replace("(?P<v>", f"(?P<v{i}_{j}>")
            parts.append(f"(?P<{name}>{body})")
            meta[name] = (facet, canon, f"v{i}_{j}" if "(?P<v>" in p else None)
        out.append(guarded("|".join(parts), re.IGNORECASE))
    return out, meta


def _value(m, canon, vgroup):
    """The facet's value: its value group when the pattern has one, else the whole match."""
    return _canonical(m.group(vgroup) if vgroup and m.group(vgroup) else m.group(m.lastgroup), canon)


def find_conditions(text: str, start: int = 0, end=None, entities=None) -> list:
    """[(facet, value, start, end, surface)] for every condition named in text[start:end].
    ``entities``: the hardware and model names of that same range when already found."""
    end = len(text) if end is None else end
    if entities is None:
        entities = find_entities(text, start, end, kinds=("hardware", "model"))
    rxs = patterns_for(text, _facets()[0])
    return _conditions(entities, (m for rx in rxs for m in rx.finditer(text, start, end)))


def find_conditions_in_spans(text: str, spans, entities) -> list:
    """``[find_conditions(text, s, e, ents) for (s, e), ents in zip(spans, entities)]`` for
    sorted, disjoint spans, each facet pattern scanned once over the text (see
    ``entities.matches_in_spans``; a span it cannot answer for is read alone)."""
    rxs = patterns_for(text, _facets()[0])
    index = SpanIndex(text, spans)
    per: dict = {}
    alone = set()
    for rx in rxs:              # facet by facet, as find_conditions meets them
        got, a = matches_in_spans(rx, text, index)
        alone |= a
        for i, ms in got.items():
            have = per.get(i)
            if have is None:
                per[i] = ms
            else:
                have.extend(ms)
    return [find_conditions(text, s, e, ents) if i in alone
            else _conditions(ents, per.get(i, ())) if (ents or i in per) else []
            for i, ((s, e), ents) in enumerate(zip(spans, entities))]


def _conditions(entities, matches) -> list:
    found = list(entities)
    # facet patterns never look inside a hardware/model name
    named = Covered((s, e) for _, _, s, e, _ in found) if found else ()
    _, meta = _facets()
    for m in matches:
        # the facet group f<i>_<j> encloses everything else of its branch, so it is the last
        # group to close: lastgroup names it without building a dict of every group per match
        name = m.lastgroup
        facet, canon, vgroup = meta[name]
        s, e = m.span(name)
        if named and s in named:
            continue
        if facet in _ENTITY_FACETS and any(k == facet and a < e and b > s for k, _, a, b, _ in entities):
            continue        # 'Model: Llama 3.1 8B': the name is read as the entity it is
        value = _value(m, canon, vgroup) if vgroup else _canonical(m.group(name), canon)
        if facet in TOKEN_COUNT_FACETS:
            value = k_tokens(value)
        found.append(Mention(facet, value, s, e, m.group(name)))
    found.sort(key=lambda t: t[2])
    return found


# facets whose value is a token count: '2000-token inputs' and '2K prompts' are one length
TOKEN_COUNT_FACETS = frozenset(("context_length", "output_length"))


def k_tokens(v: str) -> str:
    """A token count as one spelling: '2K' for '2k', '2 K', 2000 and 2048 ('4K' for 4096)."""
    v = _SPACES.sub("", v).upper()
    if v.endswith("K"):
        return v
    try:
        n = float(v.replace(",", ""))
    except ValueError:
        return v
    for unit in (1000, 1024):
        if n >= unit and n % unit == 0:
            return "%dK" % (n // unit)
    return v


def _canonical(v, canon):
    """'8 K' -> '8K'; a spelling listed under the facet's `canon:` -> its canonical name."""
    v = _SPACES.sub(" ", v.strip())
    c = canon.get(v.lower())
    if c is None:
        c = canon.get(_SPACES.sub("", v.lower()))
    if c is not None:
        return c
    if _KILO.fullmatch(v):
        return v.replace(" ", "").upper()
    return v
