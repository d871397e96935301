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
from typing import Optional


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


def check(ident: str) -> tuple:
    """(problem, yymm) for an arXiv id: problem '' when it is a possible new-style id.

    New-style ids are ``YYMM.NNNN`` (April 2007 – December 2014) and ``YYMM.NNNNN`` (from
    January 2015), month 01–12."""
    pre, _, num = ident.partition(".")
    if len(pre) != 4 or not pre.isdigit():
        return "prefix", None
    yy, mm = int(pre[:2]), int(pre[2:])
    if not 1 <= mm <= 12:
        return "month", None
    yymm = yy * 100 + mm
    if yymm < 704:
        return "too_early", yymm        # new-style ids start in April 2007
    want = 4 if yymm < 1501 else 5
    if len(num) != want or not num.isdigit():
        return "digits", yymm
    return "", yymm


def months_after(yymm: int, iso_date) -> Optional[int]:
    """How many months the id's YYMM lies after an ISO date (negative: before); None without one."""
    d = iso_date or ""
    if len(d) < 7 or not (d[:4].isdigit() and d[4] == "-" and d[5:7].isdigit()):
        return None
    y, mo = int(d[:4]), int(d[5:7])
    return (2000 + yymm // 100 - y) * 12 + (yymm % 100 - mo)


class ArxivId:
    """One fact per cited arXiv id (``doc.references`` of kind arxiv: only where the text says
    it is one — 'arXiv:…', an arxiv.org link, a column headed arXiv, a cited source)."""
    NAME = "reference.arxiv"
    PARAMS = {}
    FIELDS = {"problem": str, "months_after": int, "dated": bool}
    WHEN = {"field": "problem", "ne": ""}
    VARS = {"id", "reason", "date"}

    @staticmethod
    def facts(rule, ctx):
        doc = ctx.analysis.document
        lang = _lang(ctx)
        seen = set()
        for ref in doc.references:
            if ref.kind != "arxiv" or (ref.line, ref.ref) in seen:
                continue
            seen.add((ref.line, ref.ref))
            problem, yymm = check(ref.ref)
            ahead = NO_DATE
            if yymm is not None and doc.date:
                ahead = months_after(yymm, doc.date)
                if ahead is None:
                    ahead = NO_DATE
            yield {
                "path": doc.path, "line": ref.line, "col": ref.col, "end_line": ref.line,
                "end_col": ref.col + len(ref.ref), "surface": ref.ref, "key": f"arxiv:{ref.ref}",
                "problem": problem, "months_after": int(ahead), "dated": ahead != NO_DATE,
                "_side": {"vars": {"id": ref.ref, "date": doc.date or "?",
                                   "reason": _PROBLEM_TEXT[lang].get(problem, "")}},
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
