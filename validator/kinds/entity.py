"""Entity kinds (CV6xx): one name spelled two ways, one arXiv id given two titles.

``entity.spelling`` yields one fact per suspect spelling found by
``validator.spelling.find_misspellings`` (the guards against distinct names live there;
the thresholds are rule params).  ``entity.arxiv_title`` yields one fact per arXiv id
that the document titles in two incompatible ways.
"""
from __future__ import annotations

from .. import arxiv as _ax
from .. import spelling as _sp

FAMILY = "entity"
ACKNOWLEDGEABLE = False  # these findings must be fixed: no warnings-section entry acknowledges them

_KNOWN = None


def _known():
    global _KNOWN
    if _KNOWN is None:
        _KNOWN = _sp.load_entities()
    return _KNOWN


def line_col(doc, offset: int) -> tuple:
    """1-based (line, col) of an offset, whether or not the segmenter filled line_starts."""
    if doc.line_starts:
        return doc.line_col(offset)
    line = doc.text.count("\n", 0, offset) + 1
    return line, offset - (doc.text.rfind("\n", 0, offset) + 1) + 1


class Spelling:
    NAME = "entity.spelling"
    PARAMS = {"min_len": int, "max_edits": int, "long_len": int, "max_rare": int,
              "min_similarity": float, "also_known": list}
    DEFAULTS = {"min_len": 5, "max_edits": 1, "long_len": 12, "max_rare": 2, "min_similarity": 0.8,
                "also_known": []}
    FIELDS = {"distance": int, "known": bool, "rare_count": int, "common_count": int}
    WHEN = {"field": "distance", "ge": 1}
    VARS = {"rare", "common", "common_line"}

    @staticmethod
    def facts(rule, ctx):
        doc = ctx.analysis.document
        p = rule.params
        known = _known()
        if p["also_known"]:
            # names the rule declares correct: a pair of two known names is never a misspelling
            known = {**known, **{str(w).lower(): str(w) for w in p["also_known"]}}
        found = _sp.find_misspellings(doc.text, known, min_len=p["min_len"], max_edits=p["max_edits"],
                                      long_len=p["long_len"], max_rare=p["max_rare"],
                                      min_similarity=float(p["min_similarity"]))
        for m in found:
            line, col = line_col(doc, m.at.start)
            ev = []
            for o in m.others:
                ol, oc = line_col(doc, o.start)
                ev.append({"path": doc.path, "line": ol, "col": oc, "surface": o.form,
                           "note": "other spelling"})
            yield {
                "path": doc.path, "line": line, "col": col, "end_line": line,
                "end_col": col + len(m.rare), "surface": m.rare,
                "key": f"entity:{m.common.lower()}", "distance": int(m.distance),
                "known": bool(m.known), "rare_count": 1, "common_count": len(m.others),
                "_side": {"evidence": ev, "vars": {"rare": m.rare, "common": m.common,
                                                   "common_line": ev[0]["line"] if ev else "?"}},
            }


class ArxivTitle:
    NAME = "entity.arxiv_title"
    PARAMS = {"min_ratio": float}
    DEFAULTS = {"min_ratio": 80.0}
    FIELDS = {"conflict": bool}
    WHEN = {"field": "conflict", "eq": True}
    VARS = {"id", "title", "other_title", "other_line"}

    @staticmethod
    def facts(rule, ctx):
        doc = ctx.analysis.document
        refs = _ax.find_ids(doc.text)
        titles = _sp.titles_for_ids(doc.text, refs)
        for ident, (t, l, c), (ot, ol, oc) in _sp.conflicting_titles(titles, float(rule.params["min_ratio"])):
            yield {
                "path": doc.path, "line": l, "col": c, "end_line": l, "end_col": c + len(t),
                "surface": t, "key": f"arxiv:{ident}", "conflict": True,
                "_side": {"evidence": [{"path": doc.path, "line": ol, "col": oc, "surface": ot,
                                        "note": "other title"}],
                          "vars": {"id": ident, "title": t, "other_title": ot, "other_line": ol}},
            }


KINDS = [Spelling, ArxivTitle]
