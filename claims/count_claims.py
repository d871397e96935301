"""Counts the figure reader leaves out, read as claims of kind ``count``: Chinese numerals
with a classifier (``三家``, ``两个``), English number words before a plural noun (``two open
issues``), digits with ``+`` or a noun the figure reader does not know (``4+ PRs``, ``13
PRs``), and bare numbers under a count column (``~13`` under ``Issues``)."""
from __future__ import annotations

from bisect import bisect_right
from typing import Optional

from .count_words import to_int, vocab
from .markdown import quote_marker
from .model import Claim
from .pattern_cache import compile_re  # compiled once per machine, not per process


_PROSE = ("paragraph", "bullet", "table_cell", "heading", "entry_heading")


def _qualifiers(text: str, start: int) -> tuple:
    """(approx, bound, start) from the words right before a count ('约', '~', 'at least')."""
    head = text[max(0, start - 24):start].rstrip()
    low = head.lower()
    for word, bound in vocab()["before"]:
        if low.endswith(word):
            k = len(head) - len(word)
            if word[0].isascii() and word[0].isalpha() and k > 0 and head[k - 1].isalpha():
                continue    # 'about' inside 'roundabout'
            s = start - (len(text[max(0, start - 24):start]) - k)
            if quote_marker(text, s, start):
                continue    # '> 四個實驗': a blockquote's marker at the start of its line, not a bound
            return bound is None, bound, s
    return False, None, start


def _count_claim(doc, bi: int, s: int, e: int, value: int, approx=False, bound=None) -> Claim:
    """A count of items: its place in the document, never the conditions of a performance figure."""
    b = doc.blocks[bi]
    line, col = doc.line_col(s)
    return Claim(path=None, line=line, col=col, start=s, end=e, surface=doc.text[s:e], kind="count",
                 value=float(value), unit="item", base_value=float(value), base_unit="item",
                 approx=approx, bound=bound, block=bi, role=b.role, nature="count",
                 section=doc.sections[b.section].title if b.section is not None else None,
                 entry=doc.entries[b.entry].label if b.entry is not None else None)


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


CELL_COUNT = compile_re(r"^\s*(?:\*\*)?\s*(?P<approx>[~～≈]|约|about\s)?\s*(?P<n>\d{1,5})\s*(?P<plus>\+)?\s*(?:\*\*)?\s*(?P<rest>.*)$")


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

    for t in doc.tables:
        cols = {cell.column for cell in t.header if cell.column and count_column(t, cell.column)}
        for bi in (c.block for r in t.rows for c in r.cells if cols and c.column in cols and c.block is not None):
            b = doc.blocks[bi]
            m = CELL_COUNT.match(b.text)
            if m:
                rest = m.group("rest")
                if not rest or rest.startswith(("（", "(")):
                    s = b.start + (m.start("approx") if m.group("approx") else m.start("n"))
                    e = b.start + (m.end("plus") if m.group("plus") else m.end("n"))
                    found.setdefault(bi, []).append((s, e, int(m.group("n")), bool(m.group("approx")),
                                                     "ge" if m.group("plus") else None))
    for m in v["zh"].finditer(text):
        if m.start() and (text[m.start() - 1] in v["zh_glued"] or v["zh_not_before"].match(text, m.start() - 1)):
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
        if m.group("n").lower() not in v["en_numbers"] or (m.start() and text[m.start() - 1].isalnum()):
            continue        # 'Sine', 'often': not a number word
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
        masked = sorted(list(b.masked) + [(s, e) for _, _, s, e, _ in ((names or {}).get(bi) or ())])
        last = -1
        for s, e, n, approx, bound in sorted(found[bi], key=lambda f: (f[0], -f[1])):
            if s < b.start or s < last or not _free(taken, s, e) or not _free(masked, s, e):
                continue
            if approx or bound:
                # the qualifier must lie in the same block
                q_approx, q_bound = _qual(text, s, b.start, e)
                approx, bound = (q_approx, q_bound) if (q_approx or q_bound) else (approx, bound)
            last = e
            out.append(_count_claim(doc, bi, s, e, n, approx, bound))
    return out


def merge_counts(claims: list, counts: list, comparisons: list) -> list:
    """The claims and the count claims in one list sorted by offset; the comparisons' claim
    indices follow their claims."""
    merged = sorted(range(len(claims) + len(counts)), key=lambda i: (
        (claims[i] if i < len(claims) else counts[i - len(claims)]).start,
        (claims[i] if i < len(claims) else counts[i - len(claims)]).end))
    new_index = {old: new for new, old in enumerate(merged)}
    for cmp in comparisons:
        cmp.left, cmp.right = new_index[cmp.left], new_index[cmp.right]
        if cmp.gap is not None:
            cmp.gap = new_index[cmp.gap]
    return [claims[i] if i < len(claims) else counts[i - len(claims)] for i in merged]


def _qual(text, start, floor, end=None):
    approx, bound, s = _qualifiers(text, start)
    if s < floor:
        approx, bound = False, None
    if end is not None and bound is None and vocab()["ge_after"].match(text, end):
        bound = "ge"        # '三种及以上', 'three or more'
    return approx, bound
