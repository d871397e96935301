"""Reference kinds (CV7xx): arXiv ids that cannot exist or postdate the briefing, and cited
source paths missing from the corpus.

``reference.arxiv`` yields one fact per arXiv id the document cites, with ``problem``
('' when well formed, else 'month' | 'digits' | 'prefix' | 'too_early') and
``months_after`` (how far the id's YYMM lies after the briefing's date; -9999 when the
briefing has no date).  ``reference.source_path`` yields one fact per cited path, only
when a corpus is given: without a corpus nothing can be said about a path.
"""
from __future__ import annotations

import os

from .. import arxiv as _ax

FAMILY = "reference"
ACKNOWLEDGEABLE = False  # these findings must be fixed: no warnings-section entry acknowledges them

NO_DATE = -9999
_PROBLEM_TEXT = {
    "en": {"month": "its month is not 01–12", "digits": "it has the wrong number of digits after the dot for its date",
           "prefix": "it is not of the form YYMM.NNNNN", "too_early": "new-style ids start in April 2007"},
    "zh": {"month": "月份不在 01–12", "digits": "点号后的位数与其年月不符（2015 年前 4 位，之后 5 位）",
           "prefix": "不是 YYMM.NNNNN 形式", "too_early": "新式编号始于 2007 年 4 月"},
}


def _lang(ctx):
    return "zh" if getattr(ctx, "lang", "en") == "zh" else "en"


class ArxivId:
    """One fact per cited arXiv id."""
    NAME = "reference.arxiv"
    PARAMS = {}
    FIELDS = {"problem": str, "months_after": int, "dated": bool}
    WHEN = {"field": "problem", "ne": ""}
    VARS = {"id", "reason", "date"}

    @staticmethod
    def facts(rule, ctx):
        doc = ctx.analysis.document
        extra = tuple((s.line, s.col, s.ref.split(":")[-1].strip())
                      for s in (doc.sources or ()) if getattr(s, "kind", "") == "arxiv")
        extra = tuple(e for e in extra if _ax._BARE.fullmatch(e[2]) or _ax.check(e[2])[0] == "")
        lang = _lang(ctx)
        key_seen = set()
        for ref in _ax.find_ids(doc.text, extra):
            # the segmenter's column may point at 'arXiv:' rather than the digits: one fact per id and line
            if (ref.line, ref.id) in key_seen:
                continue
            key_seen.add((ref.line, ref.id))
            ahead = NO_DATE
            if ref.yymm is not None and doc.date:
                ahead = _ax.months_after(ref.yymm, doc.date)
                if ahead is None:
                    ahead = NO_DATE
            yield {
                "path": doc.path, "line": ref.line, "col": ref.col, "end_line": ref.line,
                "end_col": ref.col + len(ref.id), "surface": ref.id, "key": f"arxiv:{ref.id}",
                "problem": ref.problem, "months_after": int(ahead), "dated": ahead != NO_DATE,
                "_side": {"vars": {"id": ref.id, "date": doc.date or "?",
                                   "reason": _PROBLEM_TEXT[lang].get(ref.problem, "")}},
            }


class SourcePath:
    """One fact per cited source path, when a corpus is given."""
    NAME = "reference.source_path"
    PARAMS = {}
    FIELDS = {"exists": bool}
    WHEN = {"field": "exists", "eq": False}
    VARS = {"ref", "roots"}

    @staticmethod
    def facts(rule, ctx):
        corpus = getattr(ctx, "corpus", None)
        if corpus is None or not getattr(corpus, "roots", True):
            return          # without a corpus nothing is known about cited paths
        doc = ctx.analysis.document
        roots = ", ".join(str(r) for r in (getattr(corpus, "roots", None) or ())) or "corpus"
        seen = set()
        for s in doc.sources or ():
            if getattr(s, "kind", "") != "path":
                continue
            ref = s.ref.strip().strip("`")
            if not ref or (s.line, ref) in seen:
                continue
            seen.add((s.line, ref))
            exists = corpus.resolve(ref, doc.path) is not None
            if not exists and "/" not in ref and "\\" not in ref:
                # a bare file name ('inference.md v322') names a corpus file wherever it lives
                exists = any(os.path.basename(f) == ref for f in corpus.files())
            yield {
                "path": doc.path, "line": s.line, "col": s.col or 1, "end_line": s.line,
                "end_col": (s.col or 1) + len(ref), "surface": ref, "key": f"source:{ref}",
                "exists": bool(exists),
                "_side": {"vars": {"ref": ref, "roots": roots}},
            }


KINDS = [ArxivId, SourcePath]
