"""Declared counts against what is present, and listed items against the body.

- a section heading that declares a count (``（4 条）``, ``(3 items)``) against the entries,
  sub-sections, table rows or top-level bullets actually under it;
- a summary line ``增量条数：5 条（2 条 X + 3 条 Y）`` / ``涉及 arXiv 号：11 件`` against the
  entries whose label starts with the counted word (or the section titled with it), the
  entries whose title names each part, and the distinct arXiv ids the document cites;
- the parts of such a line against its total;
- items a header line lists (``（EAGLE-3 3.1× + LMDeploy 35% …）``) or a summary line refers
  to (``矛盾/待核实：X（T1）``) that appear nowhere else in the document.

A count is only compared when its target can be identified; otherwise nothing is said.
Pure functions over ``claims.model.Document`` (+ claims); ``validator.kinds.count`` turns
the results into facts.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Optional

from . import arxiv as _ax


@dataclass
class CountCheck:
    what: str                # 'section' | 'summary' | 'summary_part' | 'parts_sum'
    line: int
    col: int
    surface: str             # the declaration as written: '4 条', '4 件', '1 条 NET-new paper_card'
    declared: int
    actual: int
    counted: str             # 'entries' | 'subsections' | 'table rows' | 'bullets' | 'arXiv ids' | 'parts'
    evidence: list = field(default_factory=list)   # [(line, text)]


@dataclass
class MissingItem:
    what: str                # 'header' | 'summary'
    line: int
    col: int
    surface: str             # the item as written
    reason: str              # 'figure' | 'label' | 'text'


# ------------------------------------------------------------------ document structure

def _lines(doc) -> list:
    return doc.text.split("\n")


def _section_end(doc, k: int) -> int:
    s = doc.sections[k]
    if s.end_line:
        return s.end_line
    for t in doc.sections[k + 1:]:
        if t.level <= s.level:
            return t.line - 1
    return len(_lines(doc))


def _table_rows(lines: list, a: int, b: int) -> list:
    """1-based line numbers of the data rows of Markdown tables in lines a..b (inclusive)."""
    rows = []
    i = a
    while i <= b:
        ln = lines[i - 1].strip() if i - 1 < len(lines) else ""
        if ln.startswith("|"):
            nxt = lines[i].strip() if i < len(lines) else ""
            if re.fullmatch(r"\|?(\s*:?-{2,}:?\s*\|)+\s*:?-{0,}:?\s*\|?", nxt):
                i += 2            # header + separator
                while i <= b and i - 1 < len(lines) and lines[i - 1].strip().startswith("|"):
                    rows.append(i)
                    i += 1
                continue
        i += 1
    return rows


_BULLET = re.compile(r"^ ?(?:[-*+]|\d{1,3}[.)])\s+\S")
_FENCE = re.compile(r"^\s*(```|~~~)")


def _bullets(lines: list, a: int, b: int) -> list:
    out, inside = [], False
    for i in range(a, b + 1):
        if i - 1 >= len(lines):
            break
        ln = lines[i - 1]
        if _FENCE.match(ln):
            inside = not inside
            continue
        if not inside and _BULLET.match(ln):
            out.append(i)
    return out


def present_under(doc, k: int) -> list:
    """Candidate counts of the items under section k, most specific first:
    [(count, what, [lines])] over entries, sub-sections, table rows and top-level bullets."""
    s = doc.sections[k]
    end = _section_end(doc, k)
    out = []
    ents = [e for e in doc.entries if s.line < e.line <= end]
    if ents:
        out.append((len(ents), "entries", [e.line for e in ents]))
    subs = [t for t in doc.sections[k + 1:] if s.line < t.line <= end and t.level > s.level]
    if subs:
        top = min(t.level for t in subs)
        subs = [t for t in subs if t.level == top]
        out.append((len(subs), "subsections", [t.line for t in subs]))
    lines = _lines(doc)
    rows = _table_rows(lines, s.line + 1, end)
    if rows:
        out.append((len(rows), "table rows", rows))
    bl = _bullets(lines, s.line + 1, end)
    if bl:
        out.append((len(bl), "bullets", bl))
    return out


def section_counts(doc) -> list:
    out = []
    for k, s in enumerate(doc.sections):
        if s.declared_count is None:
            continue
        cands = present_under(doc, k)
        if not cands:
            continue
        # charitable: any way of counting that gives the declared number is what was meant
        n, what, where = next((c for c in cands if c[0] == s.declared_count), cands[0])
        col = s.count_col or max(1, doc.line_text(s.line).find(s.count_surface) + 1) if s.count_surface else 1
        out.append(CountCheck("section", s.line, col or 1, s.count_surface or str(s.declared_count),
                              int(s.declared_count), n, what, [(ln, "") for ln in where]))
    return out


# ------------------------------------------------------------------ summary lines

_CLS = r"(?:条|件|个|篇|项|则|items?|entries|papers?|ids?)"
_DECL = re.compile(
    r"(?P<label>[^\s：:，,；;（()）|](?:[^：:，,；;（()）|\n]{0,22}?[^\s：:，,；;（()）|])?)\s*[:：]\s*(?P<n>\d{1,5})\s*(?P<cls>" + _CLS + r")"
    r"(?:\s*[（(](?P<parts>[^）)\n]{1,200})[）)])?", re.IGNORECASE)
_PART = re.compile(r"(?P<n>\d{1,5})\s*(?P<cls>" + _CLS + r")\s*(?P<label>[^+＋]*)", re.IGNORECASE)
_COUNT_SUFFIX = re.compile(r"(?:条数|总数|个数|数量|篇数|件数|数|号|count|number of|total)$", re.IGNORECASE)
_EMOJI = re.compile(r"[\U0001F000-\U0001FAFF\u2600-\u27BF\uFE0F]")


def _summary_lines(doc) -> list:
    """1-based lines of sections with role 'summary' (their heading excluded)."""
    out = []
    for k, s in enumerate(doc.sections):
        if s.role == "summary":
            out += list(range(s.line + 1, _section_end(doc, k) + 1))
    return out


def _clean_label(t: str) -> str:
    t = _EMOJI.sub("", t)
    return re.sub(r"\s+", " ", t).strip(" ·-—:：,，/")


def distinct_arxiv(doc, exclude_lines=()) -> dict:
    ex = set(exclude_lines)
    extra = tuple((s.line, s.col, s.ref.split(":")[-1].strip()) for s in (doc.sources or ())
                  if getattr(s, "kind", "") == "arxiv")
    ids = {}
    for r in _ax.find_ids(doc.text, tuple(e for e in extra if re.fullmatch(r"\d{4}\.\d{4,5}", e[2]))):
        if r.line not in ex:
            ids.setdefault(r.id, r.line)
    return ids


def _entries_for(doc, word: str, summary: set) -> Optional[list]:
    """Entries a counted word refers to: labels starting with it, else the section titled with it."""
    w = word.lower()
    if not w:
        return None
    ents = [e for e in doc.entries if e.label.lower().startswith(w) and e.line not in summary]
    if ents:
        return ents
    for k, s in enumerate(doc.sections):
        if w in s.title.lower() and s.role != "summary":
            end = _section_end(doc, k)
            got = [e for e in doc.entries if s.line < e.line <= end]
            if got:
                return got
    return None


def summary_counts(doc) -> list:
    out = []
    summary = set(_summary_lines(doc))
    lines = _lines(doc)
    for ln in sorted(summary):
        text = lines[ln - 1] if ln - 1 < len(lines) else ""
        for m in _DECL.finditer(text):
            label, n = m.group("label"), int(m.group("n"))
            surface = text[m.start("n"):m.end("cls")]
            col = m.start("n") + 1
            parts = []
            if m.group("parts"):
                base = m.start("parts")
                for pm in _PART.finditer(m.group("parts")):
                    parts.append((int(pm.group("n")), _clean_label(pm.group("label")),
                                  base + pm.start() + 1, pm.group().strip()))
            # (parts that do not add up to the total: sums read by claims.derive, reported by the count kind)
            if re.search(r"arxiv", label, re.IGNORECASE):
                ids = distinct_arxiv(doc, exclude_lines=summary)
                out.append(CountCheck("summary", ln, col, surface, n, len(ids), "arXiv ids",
                                      [(l_, i) for i, l_ in sorted(ids.items(), key=lambda x: x[1])]))
                continue
            word = _COUNT_SUFFIX.sub("", _clean_label(label)).strip()
            ents = _entries_for(doc, word, summary)
            if ents is None and re.search(r"[/、&]", word):
                # '矛盾/待核实：3 条' counts the section whose title names every part
                got = [_entries_for(doc, w.strip(), summary) for w in re.split(r"[/、&]", word) if w.strip()]
                if got and all(g is not None for g in got) and all(
                        [e.line for e in g] == [e.line for e in got[0]] for g in got):
                    ents = got[0]
            if ents is None:
                continue
            out.append(CountCheck("summary", ln, col, surface, n, len(ents), "entries",
                                  [(e.line, e.label) for e in ents]))
            for pn, plabel, pcol, psurf in parts:
                if len(plabel) < 2:
                    continue
                hits = [e for e in ents if plabel.lower() in e.title.lower()]
                if hits and len(hits) != pn:
                    out.append(CountCheck("summary_part", ln, pcol, psurf, pn, len(hits), "entries",
                                          [(e.line, e.label) for e in hits]))
    return out


def header_counts(doc) -> list:
    """'覆盖项目: 6 个' in the header, directly followed by a list: the list's length."""
    out = []
    lines = _lines(doc)
    for ln in _header_lines(doc):
        text = lines[ln - 1]
        for m in _DECL.finditer(text):
            nxt = ln + 1
            while nxt <= len(lines) and not lines[nxt - 1].strip():
                nxt += 1
            if nxt > len(lines) or nxt - ln > 2 or not _BULLET.match(lines[nxt - 1]):
                continue
            items = []
            while nxt <= len(lines) and (_BULLET.match(lines[nxt - 1]) or lines[nxt - 1].startswith("  ")):
                if _BULLET.match(lines[nxt - 1]):
                    items.append(nxt)
                nxt += 1
            out.append(CountCheck("header", ln, m.start("n") + 1, text[m.start("n"):m.end("cls")],
                                  int(m.group("n")), len(items), "bullets", [(i, "") for i in items]))
    return out


# ------------------------------------------------------------------ listed items

_ENTRY_REF = re.compile(r"[（(]\s*(?P<ref>[A-Z]{1,3}\d{1,3}|增量\s*\d{1,3}|邻接\s*[A-Z0-9]{1,3}|#\d{1,3})\s*[）)]")
_ITEM_KEYS = re.compile(r"矛盾|待核实|风险|警惕|warning|caveat|open question|unverified", re.IGNORECASE)


def _header_lines(doc) -> list:
    first = min((s.line for s in doc.sections), default=len(_lines(doc)) + 1)
    return list(range(1, first))


def _norm(t: str) -> str:
    return re.sub(r"\s+", "", _EMOJI.sub("", t)).lower()


def missing_items(doc, claims: list, approx_rel: float = 0.0) -> list:
    """Items listed in a header ('(A + B + C)') or referred to in a summary ('X（T1）') that
    the rest of the document never mentions."""
    from .arith import admitted, overlaps
    out = []
    lines = _lines(doc)
    header = set(_header_lines(doc))
    summary = set(_summary_lines(doc))
    outside = [c for c in claims if c.line not in header and c.line not in summary]
    body_text = "\n".join(l_ for i, l_ in enumerate(lines, 1) if i not in header and i not in summary)
    body_norm = _norm(body_text)

    def figure_present(c) -> bool:
        ia = admitted(c, approx_rel)
        for o in outside:
            if o.kind != c.kind or (o.base_unit or o.unit) != (c.base_unit or c.unit):
                continue
            ib = admitted(o, approx_rel)
            if ia and ib and overlaps(ia, ib):
                return True
        return False

    for ln in sorted(header):
        text = lines[ln - 1]
        for g in re.finditer(r"[（(]([^（()）]{3,400})[）)]", text):
            inner = g.group(1)
            if len(re.findall(r"\s[+＋]\s", inner)) < 1:
                continue
            off = doc.line_starts[ln - 1] if doc.line_starts else sum(len(x) + 1 for x in lines[:ln - 1])
            pos = g.start(1)
            for item in re.split(r"(\s[+＋]\s)", inner):
                if re.fullmatch(r"\s[+＋]\s", item):
                    pos += len(item)
                    continue
                a, b = off + pos, off + pos + len(item)
                stripped = item.strip()
                figs = [c for c in claims if a <= c.start < b]
                if figs:
                    missing = [c for c in figs if not figure_present(c)]
                    if missing:
                        out.append(MissingItem("header", ln, pos + 1 + (len(item) - len(item.lstrip())),
                                               stripped, "figure"))
                elif re.search(r"[A-Za-z]{3}", stripped) and _norm(stripped) not in body_norm:
                    # a named item ('SGLang', 'FP8 KV cache'); free Chinese prose is not checked
                    out.append(MissingItem("header", ln, pos + 1, stripped, "text"))
                pos += len(item)
    labels = {re.sub(r"\s+", "", e.label) for e in doc.entries}
    for ln in sorted(summary):
        text = lines[ln - 1]
        m = re.match(r"^\s*(?:[-*+]\s+)?(?P<key>[^：:]{1,24})[：:]\s*(?P<items>.+)$", text)
        if not m or not _ITEM_KEYS.search(m.group("key")) or re.match(r"\s*\d", m.group("items")):
            continue
        if re.fullmatch(r"\s*(无|none|n/?a|—|-)\s*[。.]?\s*", m.group("items"), re.I):
            continue
        start = m.start("items")
        for im in re.finditer(r"[^；;、，,]+", m.group("items")):
            item = im.group().strip()
            col = start + im.start() + 1 + (len(im.group()) - len(im.group().lstrip()))
            ref = _ENTRY_REF.search(item)
            if ref:
                if re.sub(r"\s+", "", ref.group("ref")) not in labels:
                    out.append(MissingItem("summary", ln, col, item, "label"))
                continue
            # an item without an entry label ('未发现新的矛盾') is prose, not a reference: not checked
    return out
