"""arXiv identifiers in a briefing: where they are written, whether they can exist, and when.

New-style ids are ``YYMM.NNNN`` (April 2007 – December 2014) and ``YYMM.NNNNN`` (from
January 2015), month 01–12, optionally ``vN``.  An id is only read where the text says it
is one — ``arXiv:…``, an ``arxiv.org/abs|pdf|html/…`` link, a cell of a table column headed
``arXiv``, or a source the segmenter classified as an arXiv id — so a decimal number such as
``1234.5678`` in prose is never taken for a paper.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Optional

# Deliberately loose digit counts so malformed ids are still seen (then judged by ``check``).
_CTX = re.compile(
    r"(?:\barxiv\s*(?:[:：#]|\s号|\sid)?\s*|arxiv\.org/(?:abs|pdf|html)/)"
    r"(?P<id>\d{3,5}\.\d{3,6})(?P<ver>v\d+)?(?!\d|\.\d)", re.IGNORECASE)
_BARE = re.compile(r"(?<![\w./-])(?P<id>\d{4}\.\d{4,5}|\d{3,5}\.\d{3,6})(?P<ver>v\d+)?(?![\w.])")
_FENCE = re.compile(r"^\s*(```|~~~)")


@dataclass
class ArxivRef:
    id: str          # as written, without version
    line: int        # 1-based
    col: int         # 1-based column of the id
    problem: str = ""    # '' | 'month' | 'digits' | 'prefix' | 'too_early'
    yymm: Optional[int] = None   # 2610 for 2610.04412, when the prefix is well formed

    @property
    def year(self) -> Optional[int]:
        return None if self.yymm is None else 2000 + self.yymm // 100

    @property
    def month(self) -> Optional[int]:
        return None if self.yymm is None else self.yymm % 100


def check(ident: str) -> tuple:
    """(problem, yymm) for an id: problem '' when it is a possible new-style arXiv id."""
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


def _code_lines(text: str) -> set:
    """Line numbers inside fenced code blocks (an id in a code sample is not a citation)."""
    inside, out = False, set()
    for i, ln in enumerate(text.split("\n"), 1):
        if _FENCE.match(ln):
            inside = not inside
            out.add(i)
        elif inside:
            out.add(i)
    return out


_INLINE_CODE = re.compile(r"`[^`\n]*`")
_ANY = re.compile(r"arxiv", re.IGNORECASE)       # what _CTX and an arXiv column header need
_RULE_CELL = re.compile(r"\s*:?-{2,}:?\s*")


def _strip_inline_code(line: str) -> str:
    if "`" not in line:         # most lines: no regex pass at all
        return line
    return _INLINE_CODE.sub(lambda m: " " * len(m.group()), line)


def find_ids(text: str, extra: tuple = ()) -> list:
    """Every arXiv id the text cites, in order; ``extra`` adds (line, col, id) found by the
    segmenter (sources of kind 'arxiv').  Each (line, col) once."""
    seen, out = set(), []
    if not _ANY.search(text):
        # no 'arxiv' anywhere: neither a cited id nor a column headed arXiv can be there,
        # so only the segmenter's ids remain (the line scan below cost ~0.2 ms per file)
        if not extra:
            return out
        lines, skip = (), _code_lines(text)
    else:
        lines, skip = text.split("\n"), _code_lines(text)

    def add(line_no, col, ident):
        if (line_no, col) in seen:
            return
        seen.add((line_no, col))
        problem, yymm = check(ident)
        out.append(ArxivRef(ident, line_no, col, problem, yymm))

    arxiv_cols = None   # table columns headed 'arXiv' in the current table
    for i, raw in enumerate(lines, 1):
        if i in skip:
            arxiv_cols = None
            continue
        line = _strip_inline_code(raw.rstrip("\r"))
        for m in _CTX.finditer(line):
            add(i, m.start("id") + 1, m.group("id"))
        stripped = line.strip()
        if stripped.startswith("|"):
            cells = stripped.strip("|").split("|")
            if arxiv_cols is None:
                arxiv_cols = {k for k, c in enumerate(cells) if _ANY.search(c)}
                continue
            if all(_RULE_CELL.fullmatch(c) for c in cells):
                continue
            # column offsets of the cells in the raw line
            off = line.index("|") + 1
            for k, cell in enumerate(cells):
                if k in arxiv_cols:
                    for m in _BARE.finditer(cell):
                        add(i, off + m.start("id") + 1, m.group("id"))
                off += len(cell) + 1
        else:
            arxiv_cols = None
    for line_no, col, ident in extra:
        if line_no not in skip:
            add(line_no, col, ident)
    out.sort(key=lambda r: (r.line, r.col))
    return out


def months_after(yymm: int, iso_date: str) -> Optional[int]:
    """How many months the id's YYMM lies after the date (negative: before); None if no date."""
    m = re.match(r"(\d{4})-(\d{2})", iso_date or "")
    if not m:
        return None
    y, mo = int(m.group(1)), int(m.group(2))
    return (2000 + yymm // 100 - y) * 12 + (yymm % 100 - mo)
