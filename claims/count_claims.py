"""Counts the figure reader leaves out, read as claims of kind ``count``: Chinese numerals
with a classifier (``三家``, ``两个``), English number words before a plural noun (``two open
issues``), digits with ``+`` or a noun the figure reader does not know (``4+ PRs``, ``13
PRs``), and bare numbers under a count column (``~13`` under ``Issues``)."""
from __future__ import annotations

import re
from bisect import bisect_right
from typing import Optional

from .count_words import to_int, vocab
from .model import Claim


_PROSE = ("paragraph", "bullet", "table_cell", "heading", "entry_heading")


def _qualifiers(text: str, start: int) -> tuple:
    """(approx, bound, start) from the words right before a count ('约', '~', 'at least')."""
    v = vocab()
    head = text[max(0, start - 24):start]
    stripped = head.rstrip()
    for a in v["approx"]:
        if stripped.lower().endswith(a.lower()) and (not a[-1].isalpha() or not a.isascii()
                                                     or len(stripped) == len(a) or not stripped[-len(a) - 1].isalnum()):
            return True, None, start - (len(head) - len(stripped)) - len(a)
    for a, k in v["bounds"]:
        if stripped.lower().endswith(a.lower()) and (not a[-1].isalpha() or not a.isascii()
                                                     or len(stripped) == len(a) or not stripped[-len(a) - 1].isalnum()):
            return False, k, start - (len(head) - len(stripped)) - len(a)
    return False, None, start


def _count_claim(doc, bi: int, s: int, e: int, value: int, approx=False, bound=None) -> Claim:
    return Claim(path=None, line=0, col=0, start=s, end=e, surface=doc.text[s:e], kind="count",
                 value=float(value), unit="item", base_value=float(value), base_unit="item",
                 approx=approx, bound=bound, block=bi)


def _free(spans, s, e) -> bool:
    k = bisect_right(spans, (s, float("inf"))) - 1
    if k >= 0 and spans[k][1] > s:
        return False
    return not (k + 1 < len(spans) and spans[k + 1][0] < e)


def count_column(table, column: int) -> Optional[str]:
    """'issue' / 'pr' / 'release' when the column header names counted references, else None."""
    name = table.column_name(column)
    if not name:
        return None
    for kind, rx in vocab()["ref_nouns"].items():
        if rx.search(name):
            return kind
    return None


CELL_COUNT = re.compile(r"^\s*(?:\*\*)?\s*(?P<approx>[~～≈]|约|about\s)?\s*(?P<n>\d{1,5})\s*(?P<plus>\+)?\s*(?:\*\*)?\s*(?P<rest>.*)$")


def count_claims(doc, claims: list, names=None) -> list:
    """Counts the figure reader leaves out, as claims of kind ``count`` (unit ``item``);
    none overlaps a claim already read or a model or hardware name (``names``: block
    index -> [(kind, canonical, start, end, surface)]).  Each pattern scans the text once;
    a match counts when it lies inside one prose block."""
    v = vocab()
    text = doc.text
    prose = [bi for bi, b in enumerate(doc.blocks) if b.kind in _PROSE and b.end > b.start]
    starts = [doc.blocks[bi].start for bi in prose]
    found = {}          # block index -> [(start, end, value, approx, bound)]

    def block_of(s, e):
        k = bisect_right(starts, s) - 1
        if k < 0:
            return None
        b = doc.blocks[prose[k]]
        return prose[k] if s < b.end and e <= b.end else None

    def add(s, e, *rest):
        bi = block_of(s, e)
        if bi is not None:
            found.setdefault(bi, []).append((s, e) + rest)

    for bi in prose:
        b = doc.blocks[bi]
        if b.kind == "table_cell" and b.table is not None and b.cell and b.row not in (None, 0):
            m = CELL_COUNT.match(b.text)
            if m and count_column(doc.tables[b.table], b.cell):
                rest = m.group("rest")
                if not rest or rest.startswith(("（", "(")):
                    s = b.start + (m.start("approx") if m.group("approx") else m.start("n"))
                    e = b.start + (m.end("plus") if m.group("plus") else m.end("n"))
                    found.setdefault(bi, []).append((s, e, int(m.group("n")), bool(m.group("approx")),
                                                     "ge" if m.group("plus") else None))
    for m in v["zh"].finditer(text):
        if m.start() and v["zh_not_before"].match(text, m.start() - 1):
            continue
        n = to_int(m.group("n"))
        if n is not None and n >= 2:
            add(m.start(), m.end(), n, *_qual(text, m.start(), 0, m.end()))
    for m in v["digit_plus"].finditer(text):
        if not v["zh_time_after"].match(text, m.end()):
            add(m.start(), m.end(), int(m.group("n")), False, "ge" if m.group("plus") else "gt")
    for m in v["digit_noun"].finditer(text):
        if m.group("plus"):
            add(m.start(), m.end(), int(m.group("n")), False, "ge")
        else:
            add(m.start(), m.end(), int(m.group("n")), *_qual(text, m.start(), 0))
    for m in v["en"].finditer(text):
        mods = m.group("mods")
        if m.group("noun").lower() in v["en_not_nouns"] or mods.startswith("-") or \
                any(x.lower() in v["en_not_mods"] for x in mods.replace("-", " ").split()):
            continue        # 'two weeks', 'two-stage pipelines', 'two of the …'
        n = to_int(m.group("n"))
        if n is not None:
            add(m.start(), m.end(), n, *_qual(text, m.start(), 0, m.end()))
    taken = sorted((c.start, c.end) for c in claims)
    out = []
    for bi in sorted(found):
        b = doc.blocks[bi]
        masked = list(b.masked) + [(s, e) for _, _, s, e, _ in ((names or {}).get(bi) or ())]
        mine = []
        for s, e, n, approx, bound in sorted(found[bi], key=lambda f: (f[0], -f[1])):
            if s < b.start or not _free(taken, s, e) or any(ms < e and s < me for ms, me in masked) \
                    or any(s < e2 and s2 < e for s2, e2 in mine):
                continue
            if approx or bound:
                # the qualifier must lie in the same block
                q_approx, q_bound = _qual(text, s, b.start, e)
                approx, bound = (q_approx, q_bound) if (q_approx or q_bound) else (approx, bound)
            mine.append((s, e))
            out.append(_count_claim(doc, bi, s, e, n, approx, bound))
    return out


def _qual(text, start, floor, end=None):
    approx, bound, s = _qualifiers(text, start)
    if s < floor:
        approx, bound = False, None
    if end is not None and bound is None and vocab()["ge_after"].match(text, end):
        bound = "ge"        # '三种及以上', 'three or more'
    return approx, bound
