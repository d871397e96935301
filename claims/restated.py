"""One figure restated in another unit: '81B MoE 跑在 8GB 卡' and '81GB Qwen3-235B 跑在 8GB 卡',
'the $31M-token agent loop' and '193 identical tool calls (~31M tokens)'.

``find(analysis)`` pairs quantities of two sentences of one document that have the same
number but a different kind of unit (parameters, bytes, money, tokens …), when the two
sentences are tied to one another by an anchor: the same cited issue or PR, or another
quantity both state identically (the '8GB' card of both sentences).  Without an anchor two
equal numbers are a coincidence, not one figure written twice.

Quantities are the document's claims plus the parameter counts written as a size ('81B',
'2.8T'), which the figure reader leaves to the conditions.
"""
from __future__ import annotations

import bisect
from typing import NamedTuple, Optional

from .structure import sentence_index
from .pattern_cache import compile_re  # compiled once per machine, not per process

# a parameter count written as a size: '81B', '2.8T', '235B' (not 'B200', not '8B tokens', not
# the size inside a model's name: 'ChatGLM2-6B', 'ChatGLM**2**-6B' name a model, whatever its memory)
_PARAMS = compile_re(r"(?<![\w.])(?<![A-Za-z0-9][-_])(?<![A-Za-z0-9]\*\*-)(\d{1,4}(?:\.\d{1,2})?)\s?([BT])(?![\w])(?!\s?(?:tokens?|toks?|bytes?|/s))")
_SCALE = {"B": 1e9, "T": 1e12}


class Quantity(NamedTuple):
    value: float               # the number with its scale word ('81B' and '81GB' are both 8.1e10)
    unit_class: str            # 'params' | 'bytes' | 'money' | 'tokens' | 'rate' | 'time' | 'percent' | 'ratio'
    start: int
    end: int
    surface: str
    sentence: int              # index into Document.sentences


class Restatement(NamedTuple):
    """Two quantities that write one figure in two kinds of unit."""
    odd: Quantity              # the one to check (the rarer unit, or the first)
    other: Quantity
    anchor: str                # what ties the sentences: '#17617', '8GB'
    others: int                # how many other places write it in the other's unit


def _unit_class(c) -> Optional[str]:
    if c.kind == "memory":
        return "bytes"
    if c.kind == "currency":
        return "money"
    if c.kind == "count" and c.unit in ("token", "kilotoken", "megatoken"):
        return "tokens"
    if c.kind == "count" and "parameter" in (c.unit or ""):
        return "params"
    return {"throughput": "rate", "latency": "time", "duration": "time", "percent": "percent",
            "ratio": "ratio"}.get(c.kind)


def _value(c) -> Optional[float]:
    if c.value is None:
        return None
    # the number as written with its scale ('$31M' -> 3.1e7; '81GB' -> 8.1e10 bytes, 81 GB)
    if c.kind == "memory" and c.base_value is not None:
        return abs(c.base_value)
    return abs(c.value)


def _quantities(analysis) -> list:
    doc = analysis.document
    out = []
    for c in analysis.claims:
        cls = _unit_class(c)
        v = _value(c)
        if cls is None or v is None or v == 0 or c.kind == "count" and cls != "tokens":
            continue
        k = sentence_index(doc, c.start)
        if k is not None:
            out.append(Quantity(v, cls, c.start, c.end, c.surface, k))
    covered = [(c.start, c.end) for c in analysis.claims]
    cstarts = [a for a, _ in covered]
    for b in doc.blocks:
        if b.kind not in ("paragraph", "bullet", "table_cell"):
            continue
        for m in _PARAMS.finditer(doc.text, b.start, b.end):
            if any(a <= m.start() < z for a, z in b.masked):
                continue
            k = bisect.bisect_right(cstarts, m.start()) - 1
            if k >= 0 and covered[k][0] <= m.start() < covered[k][1]:
                continue
            k = sentence_index(doc, m.start())
            if k is not None:
                v = float(m.group(1)) * _SCALE[m.group(2)]
                out.append(Quantity(v, "params", m.start(), m.end(), m.group(0), k))
    return out


# the kinds of unit one figure is mistaken between: a parameter count written as a size, a
# token count written as money ('81B' / '81GB', '31M tokens' / '$31M'); '45%' and '45 ms' are
# two figures, not one
_CONFUSABLE = frozenset(("params", "bytes", "tokens", "money"))


def _same(a: float, b: float) -> bool:
    return abs(a - b) <= 0.005 * max(a, b)


def _could_pair(analysis) -> bool:
    """Two confusable kinds of unit are written at all (a claim's, or a size like '81B'):
    most documents have at most one, and then no quantity needs placing in its sentence."""
    classes = set()
    for c in analysis.claims:
        cls = _unit_class(c)
        if cls in _CONFUSABLE and (c.kind != "count" or cls == "tokens"):
            classes.add(cls)
            if len(classes) > 1:
                return True
    if "params" in classes:
        return False
    return bool(classes) and _PARAMS.search(analysis.document.text) is not None


def find(analysis) -> list:
    """The document's figures written once in one kind of unit and again in another."""
    doc = analysis.document
    if not _could_pair(analysis):
        return []
    qs = _quantities(analysis)
    if len(qs) < 2:
        return []
    by_sentence = {}
    for q in qs:
        by_sentence.setdefault(q.sentence, []).append(q)
    refs = {}
    for r in doc.references:
        if r.kind in ("issue", "pr"):
            k = sentence_index(doc, r.start)
            if k is not None:
                refs.setdefault(k, set()).update(r.ids)
    # quantities of one value, to pair across sentences (a document has few equal values)
    by_value = {}
    for q in qs:
        by_value.setdefault(round(q.value, -int(max(0, len(str(int(q.value))) - 3))), []).append(q)
    out, seen = [], set()
    for group in by_value.values():
        classes = {q.unit_class for q in group}
        if len(classes) < 2:
            continue
        for i, a in enumerate(group):
            for b in group[i + 1:]:
                if a.unit_class == b.unit_class or a.sentence == b.sentence or not _same(a.value, b.value):
                    continue
                if a.unit_class not in _CONFUSABLE or b.unit_class not in _CONFUSABLE:
                    continue
                anchor = _anchor(a, b, by_sentence, refs)
                if anchor is None:
                    continue
                n_a = sum(1 for q in group if q.unit_class == a.unit_class and _same(q.value, a.value))
                n_b = sum(1 for q in group if q.unit_class == b.unit_class and _same(q.value, b.value))
                odd, other = (a, b) if n_a <= n_b else (b, a)
                key = (odd.start, other.unit_class)
                if key in seen:
                    continue
                seen.add(key)
                out.append(Restatement(odd, other, anchor, max(n_a, n_b) if odd is a else n_a))
    out.sort(key=lambda r: r.odd.start)
    return out


def _anchor(a, b, by_sentence, refs) -> Optional[str]:
    """What ties the sentences of a and b: an issue or PR both cite, or a quantity both state."""
    shared = refs.get(a.sentence, set()) & refs.get(b.sentence, set())
    if shared:
        return sorted(shared)[0]
    for x in by_sentence.get(a.sentence, ()):
        if x is a:
            continue
        for y in by_sentence.get(b.sentence, ()):
            if y is not b and x.unit_class == y.unit_class and _same(x.value, y.value):
                return x.surface
    return None
