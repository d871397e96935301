"""Find comparisons between figures: the pairs a stated gap or ratio is derived from.

Forms recognised (``Comparison.form``):

- ``vs``: ``A：x - B：y（差距约 z%）`` (labelled figures, possibly in two packed
  bullets), ``TGI 3.2：2,400 tok/s vs vLLM：3,100 tok/s``, ``16,200 vs 12,500 tok/s,
  a 45% gap``;
- ``from_to``: ``from 140 GB to 38 GB, a 73% reduction``, ``从 140 GB 降到 38 GB``;
- ``ratio_of``: a lead over a baseline whose own figure is stated nearby:
  ``roughly 50% better than SpecInfer's 1.6×`` (left = EAGLE-3's 2.4× said before),
  ``对比 SpecInfer 的 1.3–1.6× 加速，EAGLE-3 领先约 2 倍``.

Only neighbouring figures are paired (each claim is looked at with the next
few), so the pass is linear in the number of claims.
"""
from __future__ import annotations

import re

from .entities import find_entities
from .model import Comparison

_SEP_ONLY = re.compile(r"[\s\-–—;；,，、:：/|*]*(?P<vs>vs\.?|versus|对比|相比|对)?[\s\-–—;；,，、:：/|*]*", re.IGNORECASE)
_VERSION = re.compile(r"\s*v?\d{1,3}(?:\.\d{1,3}){1,2}")
_GAP_BETWEEN = re.compile(r"^[\s,，;；(（]*(?:a|an|即|the)?\s*(?:差距|相差|gap|difference|领先|快|慢|提升|下降|减少|降低|reduction|increase|lead|speed-?up|of)?\s*(?:约|大约|近|~|～|about|roughly|around)?\s*$", re.IGNORECASE)
_GAP_WORD = re.compile(r"差距|相差|gap|difference|reduction|减少|下降|降低|提升|increase|faster|slower|higher|lower|lead|领先|cut|saving|节省", re.IGNORECASE)
_FROM = re.compile(r"(?:\bfrom|从|由)\s*(?:约|about|roughly|~)?\s*$", re.IGNORECASE)
_TO = re.compile(r"^\s*(?:to|到|至|降到|降至|降低到|降低至|减少到|减至|减少至|提升到|提升至|提高到|提高至|升至|升到|增至|增加到|增长到|下降到|下降至|缩减到|缩小到)\s*(?:约|about|roughly|~)?\s*$", re.IGNORECASE)
_ARROW = re.compile(r"\s*(?:→|->|⇒|=>|⟶)\s*")     # '6.78 → 8.95 req/s'
_LEAD_METRICS = ("throughput_lead", "speedup", "gap", "increase", "reduction")


# A character that neither a name, its version nor the separators of _SEP_ONLY can hold:
# a gap with one of them never reduces to separators, whatever names it contains
_NOT_NAME_OR_SEP = re.compile(r"[^\w\s\-–—;；,，、:：/|*.×™®]")


def _strip_entities(text: str) -> str:
    """The text between two figures with entity names (and their versions) removed."""
    spans = find_entities(text, 0, len(text), kinds=("system", "hardware", "model"))
    out, p = [], 0
    for _, _, s, e, _ in spans:
        out.append(text[p:s])
        m = _VERSION.match(text, e)
        p = m.end() if m else e
    out.append(text[p:])
    return "".join(out)


def _same_scale(a, b) -> bool:
    return a.kind == b.kind and (a.base_unit or "") == (b.base_unit or "")


def _share_unit(a, b):
    factor = (b.base_value / b.value) if b.base_value is not None else 1.0
    a.kind, a.unit, a.base_unit = b.kind, b.unit, b.base_unit
    a.base_value = a.value * factor


def _scope(c):
    return (c.path, c.entry if c.entry is not None else ("sec", c.section), c.role)


def find_comparisons(doc, claims) -> list:
    text = doc.text
    comps = []
    used = set()
    n = len(claims)

    def add(left, right, gap, form):
        cl, cr = claims[left], claims[right]
        comp = Comparison(path=cl.path, line=cl.line, left=left, right=right, gap=gap,
                          left_entity=cl.subject, right_entity=cr.subject, form=form)
        comps.append(comp)
        k = len(comps) - 1
        for i in (left, right, gap):
            if i is not None:
                claims[i].comparison = k
                used.add(i)
        if gap is not None:
            g = claims[gap]
            if cl.subject and cr.subject and cl.subject != cr.subject:
                g.subject, g.baseline = cl.subject, cr.subject
            if g.metric is None and form == "vs":
                g.metric = "gap"

    def gap_after(j):
        """A percent/ratio right after figure j that states the gap: '（差距约 35%）', ', a 73% reduction'."""
        if j + 1 >= n:
            return None
        g = claims[j + 1]
        if g.kind not in ("percent", "ratio", "percentage_point") or g.start - claims[j].end > 24:
            return None
        between = text[claims[j].end:g.start]
        if "\n" in between.strip(" \t"):
            return None
        if _GAP_BETWEEN.match(between) or (_GAP_WORD.search(between) and len(between) <= 16) \
                or _GAP_WORD.match(text, g.end, min(len(text), g.end + 16)) or _GAP_WORD.search(text[g.end:g.end + 12]):
            return j + 1
        return None

    for i in range(n - 1):
        if i in used:
            continue
        a = claims[i]
        j = i + 1
        b = claims[j]
        if b.start - a.end > 80 or _scope(a) != _scope(b):
            continue
        if a.list_id is not None and a.list_id == b.list_id:
            continue
        between = text[a.end:b.start]
        # from A to B
        if _same_scale(a, b) and ((_TO.match(between) and _FROM.search(text[max(0, a.start - 12):a.start]))
                                  or _ARROW.fullmatch(between)):
            add(i, j, gap_after(j), "from_to")
            continue
        if "\n\n" in between or _NOT_NAME_OR_SEP.search(between):
            continue
        rest = _strip_entities(between)
        m = _SEP_ONLY.fullmatch(rest)
        if not m:
            continue
        if a.kind == "number" and b.kind != "number" and m.group("vs") and a.value is not None and b.value:
            # '16,200 vs 12,500 tok/s': the unit written once applies to both sides
            _share_unit(a, b)
        if not _same_scale(a, b):
            continue
        labelled = bool(a.subject and b.subject and a.subject != b.subject)
        if m.group("vs") or (labelled and re.search(r"[：:]\s*$", between)):
            add(i, j, gap_after(j), "vs")

    # a lead over a baseline whose own figure is stated nearby
    for gi, g in enumerate(claims):
        if gi in used or g.kind not in ("percent", "ratio") or g.metric not in _LEAD_METRICS:
            continue
        if not g.baseline or not g.subject:
            continue
        right = None
        for k in range(max(0, gi - 3), min(n, gi + 4)):
            if k == gi or k in used:
                continue
            c = claims[k]
            if c.subject == g.baseline and c.block == g.block and c.kind == "ratio" and abs(c.start - g.start) < 200:
                right = k
                break
        if right is None:
            continue
        left = None
        for k in range(right - 1, max(-1, right - 30), -1):
            c = claims[k]
            if k == gi or k in used or c.subject != g.subject or not _same_scale(c, claims[right]):
                continue
            if _scope(c) != _scope(g):
                break
            left = k
            break
        if left is None:
            continue
        add(left, right, gi, "ratio_of")
    comps.sort(key=lambda x: (x.line, x.left))
    # keep claim.comparison pointing at the sorted positions
    for k, comp in enumerate(comps):
        for i in (comp.left, comp.right, comp.gap):
            if i is not None:
                claims[i].comparison = k
    return comps
