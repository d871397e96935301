"""Restatement kind (CV303): one figure of a document written again in another kind of unit.

A document that says '81B MoE 跑在 8GB 卡' in its summary and '81GB Qwen3-235B 跑在 8GB 卡' in
its body, or 'the $31M-token agent loop' beside '193 identical tool calls (~31M tokens)' for
the same issue, states one figure two ways: a parameter count written as a size, a token
count written as money.  ``claims.restated`` pairs such quantities (same number, another kind
of unit, the two sentences tied by the same cited issue or another figure they share); this
kind yields one fact per pair, at the rarer spelling, with the other as evidence.
"""
from __future__ import annotations

FAMILY = "contradiction"
ACKNOWLEDGEABLE = True   # a warnings entry may disclose which reading is meant

_UNIT = {
    "en": {"params": "parameters", "bytes": "bytes of memory", "tokens": "tokens", "money": "money"},
    "zh": {"params": "参数量", "bytes": "字节（显存/内存）", "tokens": "token 数", "money": "金额"},
}


class UnitDrift:
    NAME = "contradiction.unit_drift"
    PARAMS = {}
    FIELDS = {"odd_unit": str, "other_unit": str, "anchored": bool}
    WHEN = {"field": "anchored", "eq": True}
    VARS = {"other", "other_line", "odd_unit_name", "other_unit_name", "anchor"}

    @staticmethod
    def facts(rule, ctx):
        doc = ctx.document
        lang = "zh" if ctx.lang == "zh" else "en"
        for r in ctx.analysis.restatements():
            line, col = doc.line_col(r.odd.start)
            oline, ocol = doc.line_col(r.other.start)
            yield {
                "path": doc.path, "line": line, "col": col, "end_line": line,
                "end_col": col + len(r.odd.surface), "surface": r.odd.surface,
                "key": f"restated:{r.other.surface}", "odd_unit": r.odd.unit_class,
                "other_unit": r.other.unit_class, "anchored": True,
                "_side": {"evidence": [{"path": doc.path, "line": oline, "col": ocol, "surface": r.other.surface,
                                        "note": "the same figure" if lang == "en" else "同一数字"}],
                          "vars": {"other": r.other.surface, "other_line": oline, "anchor": r.anchor,
                                   "odd_unit_name": _UNIT[lang][r.odd.unit_class],
                                   "other_unit_name": _UNIT[lang][r.other.unit_class]}},
            }


KINDS = [UnitDrift]
