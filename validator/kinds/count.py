"""Count kinds (CV5xx): declared counts against what is present; listed items that are absent.

``count.declared`` yields one fact per declared count whose target can be identified
(``validator.counting``: section headings, summary lines) and per sum of counted parts
(``3 条（1 条 X + 2 条 Y）``, found by ``validator.arith.find_sums``), with ``declared``,
``actual`` and ``differs``.  ``count.listed_item`` yields one fact per item a header or summary
lists that the rest of the document never mentions.
"""
from __future__ import annotations

from .. import arith as _ar
from .. import counting as _ct

FAMILY = "count"
ACKNOWLEDGEABLE = False  # these findings must be fixed: no warnings-section entry acknowledges them

_COUNTED = {
    "en": {"entries": "entries", "subsections": "sub-sections", "table rows": "table rows",
           "bullets": "bullets", "arXiv ids": "distinct arXiv ids", "parts": "the parts add up to"},
    "zh": {"entries": "条目", "subsections": "小节", "table rows": "表格行", "bullets": "列表项",
           "arXiv ids": "个不同的 arXiv 号", "parts": "各部分合计"},
}


class Declared:
    NAME = "count.declared"
    PARAMS = {}
    FIELDS = {"what": str, "declared": int, "actual": int, "differs": bool, "counted": str}
    WHEN = {"field": "differs", "eq": True}
    VARS = {"counted_text", "where"}

    @staticmethod
    def facts(rule, ctx):
        doc = ctx.analysis.document
        lang = "zh" if ctx.lang == "zh" else "en"
        checks = _ct.section_counts(doc) + _ct.summary_counts(doc) + _ct.header_counts(doc)
        claims = list(ctx.analysis.claims)
        for d in _ar.find_sums(doc.text, claims):
            whole = claims[d.stated]
            if whole.kind != "count" or whole.unit != "item" or whole.value is None:
                continue
            parts = [claims[i] for i in d.operands]
            if any(p.value is None for p in parts):
                continue
            checks.append(_ct.CountCheck("parts_sum", whole.line, whole.col, whole.surface,
                                         int(whole.value), int(round(sum(p.value for p in parts))),
                                         "parts", [(p.line, p.surface) for p in parts]))
        for c in checks:
            ev = [{"path": doc.path, "line": ln, "col": 1, "surface": str(s), "note": c.counted}
                  for ln, s in c.evidence[:12]]
            where = ", ".join(str(ln) for ln, _ in c.evidence[:12])
            yield {
                "path": doc.path, "line": c.line, "col": c.col, "end_line": c.line,
                "end_col": c.col + len(c.surface), "surface": c.surface,
                "key": f"count:{c.what}:{c.surface}", "what": c.what, "declared": int(c.declared),
                "actual": int(c.actual), "differs": c.declared != c.actual, "counted": c.counted,
                "_side": {"evidence": ev, "vars": {"counted_text": _COUNTED[lang].get(c.counted, c.counted),
                                                   "where": where or "-"}},
            }


_WHERE = {"zh": {"header": "开头", "summary": "摘要"}, "en": {"header": "header", "summary": "summary"}}


class ListedItem:
    NAME = "count.listed_item"
    PARAMS = {"approx_rel": float}
    DEFAULTS = {"approx_rel": 0.0}
    FIELDS = {"where": str, "reason": str}
    WHEN = {"field": "reason", "in": ["figure", "label", "text"]}
    VARS = {"item", "where_text"}

    @staticmethod
    def facts(rule, ctx):
        doc = ctx.analysis.document
        lang = "zh" if ctx.lang == "zh" else "en"
        for m in _ct.missing_items(doc, list(ctx.analysis.claims), float(rule.params["approx_rel"])):
            yield {
                "path": doc.path, "line": m.line, "col": m.col, "end_line": m.line,
                "end_col": m.col + len(m.surface), "surface": m.surface,
                "key": f"item:{m.what}:{m.surface}", "where": m.what, "reason": m.reason,
                "_side": {"vars": {"item": m.surface, "where_text": _WHERE[lang].get(m.what, m.what)}},
            }


KINDS = [Declared, ListedItem]
