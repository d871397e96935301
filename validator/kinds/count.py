"""Count kinds (CV5xx): declared counts against what they count; listed items that are absent.

``claims.counts`` reads, once per document, every declared count whose items can be
identified (``analysis.counts.statements``: a ``CountStatement`` with the reasonable
``Reading``s of what it counts) and every item a header or summary lists
(``analysis.counts.listed``).  This module only judges them:

- ``count.declared`` yields one fact per declared count: ``differs`` when no reading admits
  the written number — exactly, or within the rule's margin for ``~N`` / ``约 N``, or as a
  bound for ``N+`` / ``至少 N`` — and one per sum of counted parts (``3 条（1 条 X + 2 条 Y）``);
- ``count.listed_item`` yields one fact per listed item, ``missing`` when the body never
  mentions it (for a figure: no figure of the body admits the same value).

Sums of counted parts are the ``Analysis.derivations`` of form ``sum`` whose whole is a
count (read by ``claims.derive``).
"""
from __future__ import annotations

import math

from .. import arith as _ar

FAMILY = "count"
ACKNOWLEDGEABLE = False  # these findings must be fixed: no warnings-section entry acknowledges them
INF = float("inf")

_COUNTED = {
    "en": {"entries": "entries", "subsections": "sub-sections", "table rows": "table rows",
           "table columns": "table columns",
           "bullets": "bullets", "list items": "list items", "arXiv ids": "distinct arXiv ids",
           "parts": "the parts add up to", "issues": "issues", "PRs": "PRs", "releases": "releases",
           "listed": "listed items", "named": "named items", "numbered range": "numbers in the range",
           "closed": "items marked closed", "summed": "as the sum of its items' own amounts"},
    "zh": {"entries": "条目", "subsections": "小节", "table rows": "表格行", "table columns": "表格列",
           "bullets": "列表项",
           "list items": "列表项", "arXiv ids": "不同的 arXiv 号", "parts": "各部分合计",
           "issues": " issue", "PRs": " PR", "releases": "版本", "listed": "列出的条目",
           "named": "列出的名称", "numbered range": "区间内的编号", "closed": "标为已关闭的条目",
           "summed": "（各项自身数量之和）"},
}

# English says '1 issue', '1 entry': the counted word when exactly one item is there
_COUNTED_ONE = {"entries": "entry", "subsections": "sub-section", "table rows": "table row",
                "table columns": "table column", "bullets": "bullet", "list items": "list item",
                "arXiv ids": "distinct arXiv id", "issues": "issue", "PRs": "PR", "releases": "release",
                "listed": "listed item", "named": "named item", "numbered range": "number in the range",
                "closed": "item marked closed"}


def _counted_text(lang: str, counted: str, actual: int) -> str:
    if lang == "en" and actual == 1 and counted in _COUNTED_ONE:
        return _COUNTED_ONE[counted]
    return _COUNTED[lang].get(counted, counted)


def declared_interval(value: int, approx: bool, bound, rel: float, abs_: int) -> tuple:
    """The numbers of items a written count admits: exactly ``value``; ``~N`` within the margin;
    ``N+`` / ``至少 N`` and ``more than N`` from there up; ``up to N`` / ``fewer than N`` below."""
    lo = hi = float(value)
    if approx:
        m = max(abs_, math.ceil(rel * value))
        lo, hi = value - m, value + m
    if bound == "ge":
        hi = INF
    elif bound == "gt":
        lo, hi = value + 1, INF
    elif bound == "le":
        lo = 0
    elif bound == "lt":
        lo, hi = 0, value - 1
    return lo, hi


def _nearest(readings, lo, hi):
    """(reading, number) of the reading closest to [lo, hi], and whether one admits it."""
    best, best_gap, best_n = None, INF, 0
    for r in readings:
        if r.low <= hi and lo <= r.high:
            return r, (r.low if r.low == r.high else None), True
        gap, n = (r.low - hi, r.low) if r.low > hi else (lo - r.high, r.high)
        if gap < best_gap:
            best, best_gap, best_n = r, gap, n
    return best, best_n, False


def _occurrence(seen: dict, key: str) -> str:
    seen[key] = seen.get(key, 0) + 1
    return key if seen[key] == 1 else f"{key}#{seen[key]}"


class Declared:
    NAME = "count.declared"
    PARAMS = {"approx_rel": float, "approx_abs": int}
    # '~13 issues' admits 13 ± max(2, 25%): the people who write '~' round generously, and a
    # count that is 'about' right is not a finding, one a third off is
    DEFAULTS = {"approx_rel": 0.25, "approx_abs": 2}
    FIELDS = {"what": str, "declared": int, "actual": int, "differs": bool, "counted": str}
    WHEN = {"field": "differs", "eq": True}
    VARS = {"counted_text", "where", "lines", "actual_text", "of", "scope_text"}

    @staticmethod
    def facts(rule, ctx):
        an = ctx.analysis
        doc = an.document
        lang = "zh" if ctx.lang == "zh" else "en"
        rel, abs_ = float(rule.params["approx_rel"]), int(rule.params["approx_abs"])
        seen = {}
        for st in (an.counts.statements if an.counts else ()):
            lo, hi = declared_interval(st.value, st.approx, st.bound, rel, abs_)
            reading, n, holds = _nearest(st.readings, lo, hi)
            if reading is None:
                continue
            if n is None:
                n = st.value
            actual_text = str(n)      # the nearest number a reading gives (evidence lists the items)
            yield _fact(doc, lang, st.what, st.line, st.col, st.surface, st.value, int(n), not holds,
                        reading.what, [(it.line, it.surface) for it in reading.items], actual_text,
                        st.label, _occurrence(seen, f"count:{st.what}:{st.label}:{st.surface}"), st.scope)
        for d in an.derivations:
            whole = d.stated
            if d.form != "sum" or whole.kind != "count" or whole.unit != "item" or whole.value is None:
                continue
            parts = list(d.operands)
            if any(p.value is None for p in parts):
                continue
            total = int(round(sum(p.value for p in parts)))
            yield _fact(doc, lang, "parts_sum", whole.line, whole.col, whole.surface, int(whole.value), total,
                        int(whole.value) != total, "parts", [(p.line, p.surface) for p in parts], str(total), "",
                        _occurrence(seen, f"count:parts_sum:{whole.surface}"))


def _fact(doc, lang, what, line, col, surface, declared, actual, differs, counted, items, actual_text, of, key,
          scope=""):
    ev = [{"path": doc.path, "line": ln, "col": 1, "surface": str(s), "note": counted} for ln, s in items[:12]]
    lines = sorted({ln for ln, _ in items})
    where = ", ".join(str(ln) for ln in lines[:12]) + (" …" if len(lines) > 12 else "")
    return {
        "path": doc.path, "line": line, "col": col, "end_line": line, "end_col": col + len(surface),
        "surface": surface, "key": key, "what": what, "declared": int(declared), "actual": int(actual),
        "differs": bool(differs), "counted": counted,
        "_side": {"evidence": ev, "vars": {"counted_text": _counted_text(lang, counted, int(actual)),
                                           "where": where or "-", "lines": "line" if len(lines) == 1 else "lines",
                                           "actual_text": actual_text,
                                           "of": (_OF_LINE if what == "summary" else _OF)[lang](of),
                                           "scope_text": _SCOPE[lang](scope)}},
    }


_OF = {"en": lambda label: f"the '{label}' cell" if label else "this line",
       "zh": lambda label: f"表格中“{label}”一格" if label else "此处"}


# a statistics line of a report ('**Total PRs Merged:** 5')
_OF_LINE = {"en": lambda label: f"the '{label}' line" if label else "this line",
            "zh": lambda label: f"“{label}”一行" if label else "此处"}


_SCOPE = {"en": lambda scope: f"the {scope} part" if scope else "the document",
          "zh": lambda scope: f"{scope} 部分" if scope else "文中"}


_WHERE = {"zh": {"header": "开头", "summary": "摘要"}, "en": {"header": "header", "summary": "summary"}}


class ListedItem:
    NAME = "count.listed_item"
    PARAMS = {"approx_rel": float}
    DEFAULTS = {"approx_rel": 0.0}
    FIELDS = {"where": str, "reason": str, "missing": bool}
    WHEN = {"all": [{"field": "reason", "in": ["figure", "label", "text"]}, {"field": "missing", "eq": True}]}
    VARS = {"item", "where_text"}

    @staticmethod
    def facts(rule, ctx):
        an = ctx.analysis
        doc = an.document
        lang = "zh" if ctx.lang == "zh" else "en"
        approx_rel = float(rule.params["approx_rel"])
        claims = list(an.claims)
        outside = [c for c in claims if c.block is not None
                   and doc.blocks[c.block].role not in ("header", "summary")]
        seen = {}
        for m in (an.counts.listed if an.counts else ()):
            if m.reason == "figure":
                missing = any(not _figure_present(claims[i], outside, approx_rel) for i in m.claims)
            else:
                missing = not m.found
            yield {
                "path": doc.path, "line": m.line, "col": m.col, "end_line": m.line,
                "end_col": m.col + len(m.surface), "surface": m.surface,
                "key": _occurrence(seen, f"item:{m.what}:{m.surface}"), "where": m.what, "reason": m.reason,
                "missing": missing,
                "_side": {"evidence": [{"path": doc.path, "line": ln, "col": 1, "surface": m.surface,
                                        "note": "mentioned"} for ln in m.found[:5]],
                          "vars": {"item": m.surface, "where_text": _WHERE[lang].get(m.what, m.what)}},
            }


def _figure_present(c, outside, approx_rel) -> bool:
    ia = _ar.admitted(c, approx_rel)
    if not ia:
        return True
    for o in outside:
        if o.kind != c.kind or (o.base_unit or o.unit) != (c.base_unit or c.unit):
            continue
        ib = _ar.admitted(o, approx_rel)
        if ib and _ar.overlaps(ia, ib):
            return True
    return False


KINDS = [Declared, ListedItem]
