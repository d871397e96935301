"""What a briefing's counts count.

Two readings, both over the document model (``claims.model.Document``):

- ``count_claims(doc, claims, names)``: the counts the figure reader leaves out, as claims of
  kind ``count`` — Chinese numerals with a classifier (``三家``, ``两个``), English number
  words before a plural noun (``two open issues``), digits with ``+`` or a noun it does not
  know (``4+ PRs``, ``13 PRs``), and bare numbers under a count column (``~13`` under
  ``Issues``).  ``claims.api.analyze`` adds them to the document's claims.
- ``read(doc, claims)``: every declared count whose items can be identified, as a
  ``CountStatement`` with the ways of counting those items (``Reading``), and every item a
  header or summary lists, with the places in the body that mention it (``ListedItem``).
  The count kinds (``validator.kinds.count``) judge them: whether some reading matches the
  declared number, and whether a listed item is mentioned at all.

A count is only paired with items when the text says which items it counts: a section
heading over its entries, a summary line over the entries its word names, a header count
over the list right below it, a per-project table over the project's part of the document
(when the table says it counts the items the document cites), a count with its own
enumeration (``5 个（b10327–b10331）``, ``vLLM、SGLang、llama.cpp 三家``, ``三种策略：TP、PP
和 DP``) and a sentence that introduces a list (``The four strategies compared:``).
Where more than one reading is reasonable (linked references only, or also the bare
``#123`` ones; a range's span, or the ids listed inside it), every one is kept.
"""
from __future__ import annotations

import re
from bisect import bisect_right
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Optional

from . import numerals
from ._data import load
from .model import Claim

# ---------------------------------------------------------------- records


@dataclass
class Item:
    """One thing a count counts: an entry, a list item, a reference, a name."""
    line: int
    text: str                  # as written: '增量 2', '#12345', 'b10327', 'vLLM'
    col: int = 1
    closed: bool = False       # marked closed next to it ('CLOSED', '已关闭')


@dataclass
class Reading:
    """One reasonable way of counting the items a count counts: between ``low`` and
    ``high`` of them (equal unless some items may or may not belong)."""
    what: str                  # 'entries', 'subsections', 'table rows', 'list items', 'bullets',
    #                            'arXiv ids', 'issues', 'PRs', 'releases', 'listed', 'named'
    items: list                # list[Item], the ones counted for sure first
    low: int
    high: int


@dataclass
class CountStatement:
    """A declared count and the readings of what it counts."""
    what: str                  # 'section' | 'summary' | 'summary_part' | 'header' | 'table'
    #                            | 'enumeration' | 'list_intro' | 'closed'
    line: int
    col: int
    start: int
    end: int
    surface: str               # the count as written: '4 条', '~13', 'three regressions'
    value: int
    approx: bool = False       # '~13', '约 14', 'about five'
    bound: Optional[str] = None     # 'ge' ('N+'), 'gt' ('20 多'), 'le', 'lt'
    readings: list = field(default_factory=list)   # list[Reading]
    label: str = ""            # what the count is of, as written ('SGLang · Issues', '个 PR')


@dataclass
class ListedItem:
    """An item a header or summary lists, with the body places that mention it."""
    what: str                  # 'header' | 'summary'
    line: int
    col: int
    surface: str               # the item as written
    reason: str                # 'figure' | 'label' | 'text'
    claims: list = field(default_factory=list)     # indices of the figures the item states
    found: list = field(default_factory=list)      # lines of the body that mention it


@dataclass
class Counts:
    statements: list = field(default_factory=list)   # list[CountStatement]
    listed: list = field(default_factory=list)       # list[ListedItem]


# ---------------------------------------------------------------- vocabulary


@lru_cache(maxsize=None)
def _v():
    d = load("counts.yaml")
    w = load("figure_words.yaml")
    approx = sorted(w["approx_before"], key=len, reverse=True)
    bounds = sorted(((a, k) for k, v in d["count_bounds"].items() for a in v), key=lambda x: -len(x[0]))
    cls = "|".join(re.escape(c) for c in d["zh_classifiers"])
    time_after = "|".join(re.escape(c) for c in d["zh_time_after"])
    refn = d["ref_nouns"]
    return {
        "zh": re.compile(r"(?<![一二三四五六七八九十百千万两\d])(?P<n>%s)\s?(?P<cls>%s)(?!%s)" % (d["zh_numerals"], cls, time_after)),
        "zh_not_before": re.compile(d["zh_not_before"]),
        "en": re.compile(r"\b(?P<n>%s)\b(?P<mods>(?:[ \t-]+[A-Za-z][\w-]*){0,2}?)[ \t]+(?P<noun>[A-Za-z][\w-]*[a-z]s|[A-Z]{2,5}s)\b"
                         % "|".join(d["en_numbers"]), re.IGNORECASE),
        "en_not_nouns": set(d["en_not_nouns"]),
        "en_not_mods": set(d["en_not_modifiers"]),
        "digit_noun": re.compile(r"(?<![\w.#/=-])(?P<n>\d{1,5})(?P<plus>\+)?[ \t]?(?P<noun>%s)\b" % d["digit_nouns"]),
        # '20+ 个修复 PR', '90+ 评论', '20 多个': digits, '+' or '多', then a classifier or a CJK noun
        "digit_plus": re.compile(r"(?<![\w.#/~=-])(?P<n>\d{1,5})(?:(?P<plus>\+)|\s?多)(?![\d+])(?:\s?(?:%s))?(?=\s?[\u4e00-\u9fffA-Za-z])" % cls),
        "zh_time_after": re.compile(r"\s?(?:%s)" % time_after),
        "approx": approx,
        "bounds": bounds,
        "ref_nouns": {k: re.compile(v) for k, v in refn.items()},
        "population": re.compile(d["population_words"]),
        "cited": re.compile(d["cited_words"]),
        "partial": re.compile(d["partial_words"]),
        "closed_count": re.compile(d["closed_count"]),
        "closed": re.compile(d["closed_marker"]),
        "sep": re.compile(d["enum_separators"]),
        "earlier": re.compile(d["earlier_words"]),
        "ge_after": re.compile(d["ge_after"], re.IGNORECASE),
        "count_note": re.compile(d["count_note"]),
        "header_list": re.compile(d["header_list"]),
        "not_name_end": re.compile(d["zh_not_name_end"]),
        "prose_chars": re.compile(d["zh_prose_chars"]),
    }


def _int(s: str) -> Optional[int]:
    s = s.strip()
    try:
        if s.isdigit():
            return int(s)
        if s.lower() in numerals.EN_ONES or s.lower() in numerals.EN_TENS:
            return int(numerals.parse_english(s)[0])
        return int(numerals.parse_chinese(s)[0])
    except (ValueError, ArithmeticError, KeyError, TypeError):
        return None


# ---------------------------------------------------------------- count claims

_PROSE = ("paragraph", "bullet", "table_cell", "heading", "entry_heading")


def _qualifiers(text: str, start: int) -> tuple:
    """(approx, bound, start) from the words right before a count ('约', '~', 'at least')."""
    v = _v()
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
    for kind, rx in _v()["ref_nouns"].items():
        if rx.search(name):
            return kind
    return None


_CELL_COUNT = re.compile(r"^\s*(?:\*\*)?\s*(?P<approx>[~～≈]|约|about\s)?\s*(?P<n>\d{1,5})\s*(?P<plus>\+)?\s*(?:\*\*)?\s*(?P<rest>.*)$")


def count_claims(doc, claims: list, names=None) -> list:
    """Counts the figure reader leaves out, as claims of kind ``count`` (unit ``item``);
    none overlaps a claim already read or a model or hardware name (``names``: block
    index -> [(kind, canonical, start, end, surface)]).  Each pattern scans the text once;
    a match counts when it lies inside one prose block."""
    v = _v()
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
            m = _CELL_COUNT.match(b.text)
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
        n = _int(m.group("n"))
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
        n = _int(m.group("n"))
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
    if end is not None and bound is None and _v()["ge_after"].match(text, end):
        bound = "ge"        # '三种及以上', 'three or more'
    return approx, bound


# ---------------------------------------------------------------- references as items

_REPO = re.compile(r"github\.com/([\w.-]+/[\w.-]+)/(?:issues|pull|pulls|discussions)/", re.IGNORECASE)


def _repo(url: str) -> Optional[str]:
    m = _REPO.search(url or "")
    return m.group(1).lower() if m else None


@dataclass
class _Ref:
    number: str                 # '#12345'
    kind: Optional[str]         # 'issue' | 'pr' | None (a bare '#123')
    linked: bool                # written as a link to /issues/ or /pull/
    line: int
    col: int
    closed: bool = False


def _closed_near(doc, r, v) -> bool:
    """Is the reference marked closed: in its own clause ('（#34006，CLOSED）', '#26763 closed',
    '#17620 为重复提案，已关闭'), or by the sentence that introduces it ('另有若干历史问题处于已关闭
    状态：#14716、#17235 …')?"""
    from .structure import sentence_at
    text = doc.text
    ls = doc.line_starts[r.line - 1]
    le = doc.line_starts[r.line] if r.line < len(doc.line_starts) else len(text)
    tail = text[r.end:min(le, r.end + 40)]
    cut = re.search(r"[。；;]|\)\s|）|#\d|https?://|\[", tail)
    tail = tail[:cut.start()] if cut else tail
    if v["closed"].search(tail) or v["closed"].search(text[max(ls, r.start - 12):r.start]):
        return True
    sent = sentence_at(doc, r.start)
    if sent is None:
        return False
    head = text[sent.start:r.start]
    m = None
    for m in v["closed"].finditer(head):
        pass
    return m is not None and bool(re.search(r"[：:]", head[m.end():]))


def _refs_in(doc, lo: int, hi: int) -> dict:
    """Issue and PR references on lines lo..hi, one per (repo, number): repo -> {number: _Ref}."""
    v = _v()
    by_repo = {}
    bare = []
    for r in doc.references:
        if r.kind not in ("issue", "pr") or not (lo <= r.line <= hi) or not r.ids:
            continue
        num = r.ids[0]
        repo = _repo(r.url)
        if r.url:
            kind, linked = r.kind, True
        elif r.ref[:1].isalpha():
            kind, linked = r.kind, False     # 'PR #678', 'Issue 12'
        else:
            bare.append(r)
            continue
        d = by_repo.setdefault(repo, {})
        cur = d.get(num)
        if cur is None or (linked and not cur.linked):
            d[num] = _Ref(num, kind, linked, r.line, r.col, _closed_near(doc, r, v) or (cur.closed if cur else False))
        elif _closed_near(doc, r, v):
            cur.closed = True
    main = max(by_repo, key=lambda k: (k is not None, len(by_repo[k])), default=None)
    d = by_repo.setdefault(main, {})
    for r in bare:
        num = r.ids[0]
        closed = _closed_near(doc, r, v)
        if any(num in dd for repo, dd in by_repo.items() if repo not in (main, None)) and num not in d:
            continue        # the number of another project's link
        if num in d:
            d[num].closed = d[num].closed or closed
            continue
        d[num] = _Ref(num, None, False, r.line, r.col, closed)
    if main is not None and None in by_repo:
        for num, x in by_repo.pop(None).items():
            d.setdefault(num, x)
    return by_repo


def _ref_readings(refs: dict, kind: str, known: dict) -> Optional[Reading]:
    """Issues or PRs among ``refs`` (number -> _Ref): at least the open ones linked as that kind
    (a table may count only what is still open), at most every one that may be of it (named by
    word, or bare with no kind known elsewhere, or marked closed)."""
    sure, maybe = [], []
    for num, r in refs.items():
        k = r.kind or known.get(num)
        item = Item(r.line, num, r.col, r.closed)
        if r.linked and k == kind:
            sure.append(item)
        elif k == kind or k is None:
            maybe.append(item)
    if not sure and not maybe:
        return None
    what = "issues" if kind == "issue" else "PRs"
    low = sum(1 for it in sure if not it.closed)
    return Reading(what, sure + maybe, low, len(sure) + len(maybe))


def _known_kinds(doc) -> dict:
    out = {}
    for r in doc.references:
        if r.kind in ("issue", "pr") and r.ids and (r.url or r.ref[:1].isalpha()):
            out.setdefault(r.ids[0], r.kind)
    return out


# ---------------------------------------------------------------- document parts


def _section_end(doc, k: int) -> int:
    s = doc.sections[k]
    if s.end_line:
        return s.end_line
    for t in doc.sections[k + 1:]:
        if t.level <= s.level:
            return t.line - 1
    return len(doc.line_starts)


_MARKUP = re.compile(r"[*_`~]|\[|\]\([^)]*\)|<[^>]{0,80}>")


def _plain(t: str) -> str:
    return _MARKUP.sub("", t).strip()


def _starts_with(title: str, label: str) -> bool:
    t, lab = _plain(title).lower(), label.lower()
    return bool(lab) and t.startswith(lab) and not t[len(lab):len(lab) + 1].isalnum()


def _parts(doc, labels: list) -> dict:
    """label -> [(first line, last line)]: the sections whose heading starts with the label,
    each up to the next heading of its level or the next heading naming another label."""
    heads = [(s.line, s.level, s.title) for s in doc.sections] + \
            [(e.line, 9, e.title) for e in doc.entries]
    heads.sort()
    out = {}
    for lab in labels:
        rng = []
        for k, (ln, lv, ti) in enumerate(heads):
            if lv == 9 or not _starts_with(ti, lab):
                continue
            end = len(doc.line_starts)
            for ln2, lv2, ti2 in heads[k + 1:]:
                if (lv2 <= lv) or any(_starts_with(ti2, o) for o in labels if o.lower() != lab.lower()):
                    end = ln2 - 1
                    break
            rng.append((ln, end))
        out[lab] = rng
    return out


# ---------------------------------------------------------------- sections


def _present_under(doc, k: int) -> list:
    """Readings of the items under section k: entries, sub-sections, table rows, top-level
    list items (the reading that gives the declared number is the one meant)."""
    s = doc.sections[k]
    end = _section_end(doc, k)
    out = []
    ents = [e for e in doc.entries if s.line < e.line <= end]
    if ents:
        out.append(Reading("entries", [Item(e.line, e.label) for e in ents], len(ents), len(ents)))
    subs = [t for t in doc.sections[k + 1:] if s.line < t.line <= end and t.level > s.level]
    if subs:
        top = min(t.level for t in subs)
        subs = [t for t in subs if t.level == top]
        out.append(Reading("subsections", [Item(t.line, t.title) for t in subs], len(subs), len(subs)))
    rows = [r for t in doc.tables if s.line < t.line <= end for r in t.rows]
    if rows:
        out.append(Reading("table rows", [Item(r.line, "") for r in rows], len(rows), len(rows)))
    # top-level bullets of the section's own text (not the packed points of its entries)
    bl = [doc.blocks[it.block] for it in doc.items if it.depth == 0 and doc.blocks[it.block].entry is None
          and s.line < doc.blocks[it.block].line <= end]
    bl = [b for k, b in enumerate(bl) if k == 0 or bl[k - 1].line != b.line]
    if bl:
        out.append(Reading("bullets", [Item(b.line, "") for b in bl], len(bl), len(bl)))
    return out


def _section_counts(doc) -> list:
    out = []
    for k, s in enumerate(doc.sections):
        if s.declared_count is None:
            continue
        cands = _present_under(doc, k)
        if not cands:
            continue
        surface = s.count_surface or str(s.declared_count)
        col = s.count_col or max(1, doc.line_text(s.line).find(surface) + 1)
        start = doc.line_starts[s.line - 1] + col - 1
        out.append(CountStatement("section", s.line, col, start, start + len(surface), surface,
                                  int(s.declared_count), readings=cands))
    return out


# ---------------------------------------------------------------- summary and header lines

_CLS = r"(?:条|件|个|篇|项|则|items?|entries|papers?|ids?)"
# 'label：N 条（parts）'; in English the counter word may be left out: 'Increments: 5 (2 … + 3 …)'
_DECL = re.compile(
    r"(?P<label>[^\s：:，,；;（()）|](?:[^：:，,；;（()）|\n]{0,22}?[^\s：:，,；;（()）|])?)\s*[:：]\s*(?P<n>\d{1,5})"
    r"(?:\s*(?P<cls>" + _CLS + r")|(?=\s*[（(]|\s|$))"
    r"(?:\s*[（(](?P<parts>[^）)\n]{1,200})[）)])?", re.IGNORECASE)
def _label_ok(label: str) -> bool:
    """A counted label is words ('增量条数', 'Projects covered'), not a time ('01:46')."""
    return bool(re.search(r"[A-Za-z]{2}|[\u4e00-\u9fff]", label)) and not label.rstrip()[-1:].isdigit()


_PART = re.compile(r"(?P<n>\d{1,5})\s*(?P<cls>" + _CLS + r")?\s*(?P<label>[^+＋]*)", re.IGNORECASE)
_COUNT_SUFFIX = re.compile(r"(?:条数|总数|个数|数量|篇数|件数|数|号|count|number of|total)$", re.IGNORECASE)
_EMOJI = re.compile(r"[\U0001F000-\U0001FAFF\u2600-\u27BF\uFE0F]")


def _clean_label(t: str) -> str:
    t = _EMOJI.sub("", t)
    return re.sub(r"\s+", " ", t).strip(" ·-—:：,，/")


def _summary_blocks(doc) -> list:
    return [bi for bi, b in enumerate(doc.blocks) if b.role == "summary" and b.kind in ("paragraph", "bullet")]


def _entries_for(doc, word: str, summary_lines: set) -> Optional[list]:
    """Entries a counted word refers to: labels starting with it, else the section titled with it."""
    w = word.lower()
    if not w:
        return None
    if w.endswith("s") and w.isascii():
        w = w[:-1]          # 'Increments: 5' counts the 'Increment N' entries
    ents = [e for e in doc.entries if e.label.lower().startswith(w) and e.line not in summary_lines]
    if ents:
        return ents
    for k, s in enumerate(doc.sections):
        if w in s.title.lower() and s.role != "summary":
            end = _section_end(doc, k)
            got = [e for e in doc.entries if s.line < e.line <= end]
            if got:
                return got
    return None


def _arxiv_ids(doc, exclude_lines) -> dict:
    ids = {}
    for r in doc.references:
        if r.kind == "arxiv" and r.line not in exclude_lines:
            ids.setdefault(r.ref, r.line)
    return ids


def _summary_counts(doc) -> list:
    out = []
    blocks = _summary_blocks(doc)
    summary_lines = {doc.blocks[bi].line for bi in blocks}
    for bi in blocks:
        b = doc.blocks[bi]
        for m in _DECL.finditer(b.text):
            label, n = m.group("label"), int(m.group("n"))
            if not _label_ok(label):
                continue
            s0 = b.start + m.start("n")
            e0 = b.start + (m.end("cls") if m.group("cls") else m.end("n"))
            line, col = doc.line_col(s0)
            surface = doc.text[s0:e0]
            if re.search(r"arxiv", label, re.IGNORECASE):
                ids = _arxiv_ids(doc, summary_lines)
                items = [Item(ln, i) for i, ln in sorted(ids.items(), key=lambda x: x[1])]
                out.append(CountStatement("summary", line, col, s0, e0, surface, n,
                                          readings=[Reading("arXiv ids", items, len(items), len(items))]))
                continue
            word = _COUNT_SUFFIX.sub("", _clean_label(label)).strip()
            ents = _entries_for(doc, word, summary_lines)
            if ents is None and re.search(r"[/、&]", word):
                # '矛盾/待核实：3 条' counts the section whose title names every part
                got = [_entries_for(doc, w.strip(), summary_lines) for w in re.split(r"[/、&]", word) if w.strip()]
                if got and all(g is not None for g in got) and all(
                        [e.line for e in g] == [e.line for e in got[0]] for g in got):
                    ents = got[0]
            if ents is None:
                continue
            items = [Item(e.line, e.label) for e in ents]
            out.append(CountStatement("summary", line, col, s0, e0, surface, n,
                                      readings=[Reading("entries", items, len(items), len(items))]))
            if not m.group("parts"):
                continue
            base = b.start + m.start("parts")
            for pm in _PART.finditer(m.group("parts")):
                plabel = _clean_label(pm.group("label"))
                if len(plabel) < 2:
                    continue
                hits = [e for e in ents if plabel.lower() in e.title.lower()]
                if not hits:
                    continue
                ps = base + pm.start()
                pe = base + pm.start() + len(pm.group().rstrip())
                pl, pc = doc.line_col(ps)
                hit_items = [Item(e.line, e.label) for e in hits]
                out.append(CountStatement("summary_part", pl, pc, ps, pe, doc.text[ps:pe], int(pm.group("n")),
                                          readings=[Reading("entries", hit_items, len(hits), len(hits))]))
    return out


def _header_counts(doc) -> list:
    """'覆盖项目: 6 个' in the header, directly followed by a list: the list's length."""
    out = []
    lists = {}
    for it in doc.items:
        lists.setdefault(it.list_id, []).append(it)
    first = {its[0].block: its for its in lists.values()}
    for bi, b in enumerate(doc.blocks):
        if b.role != "header" or b.kind != "paragraph" or (":" not in b.text and "：" not in b.text):
            continue
        nxt = first.get(bi + 1)
        if nxt is None or doc.blocks[bi + 1].line - b.line > 2:
            continue        # the count must be right above its list
        for m in _DECL.finditer(b.text):
            if not _label_ok(m.group("label")):
                continue
            items = [Item(doc.blocks[it.block].line, doc.blocks[it.block].text[:40]) for it in nxt if it.depth == 0]
            s0 = b.start + m.start("n")
            e0 = b.start + (m.end("cls") if m.group("cls") else m.end("n"))
            line, col = doc.line_col(s0)
            out.append(CountStatement("header", line, col, s0, e0, doc.text[s0:e0], int(m.group("n")),
                                      readings=[Reading("bullets", items, len(items), len(items))]))
    return out


# ---------------------------------------------------------------- per-project count tables


def _table_notes(doc, k: int) -> list:
    """Blocks that annotate table k: its caption and the paragraphs right before and after it."""
    t = doc.tables[k]
    out = []
    for bi, b in enumerate(doc.blocks):
        if b.table is not None or b.kind not in ("paragraph", "bullet"):
            continue
        last = doc.line_col(max(b.start, b.end - 1))[0]
        if 0 < t.line - last <= 3 or 0 < b.line - t.end_line <= 3:
            out.append(b)
    return out


def _note_rows(doc, notes, labels) -> tuple:
    """(does a note say the counts are of the items cited, labels a note exempts): a note
    sentence naming a row and a population word but no cited word exempts that row
    ('Unsloth counts are … "10 issues and 59 PRs updated"')."""
    v = _v()
    cited, exempt, named = False, set(), set()

    def names_in(sent):
        return {lab for lab in labels if re.search(r"(?<![\w.])%s(?![\w])" % re.escape(lab), sent, re.IGNORECASE)}
    for b in notes:
        for sent in re.split(r"(?<=[。；;.!?])\s*", b.text):
            has_cited = bool(v["cited"].search(sent))
            cited = cited or has_cited
            if has_cited and v["count_note"].search(sent):
                named |= names_in(sent)
            if has_cited or not v["population"].search(sent) or not v["count_note"].search(sent):
                continue
            exempt |= names_in(sent)
    if named:
        # 'Counts for vLLM, SGLang, Ollama, and LiteLLM reflect issues/PRs cited': the other
        # rows count something the note does not say
        exempt |= set(labels) - named
    return cited, exempt


def _table_counts(doc, counts: list) -> list:
    """A per-project table of Issue / PR counts against the references of each project's part
    of the document, when the table or its note says it counts the items the document cites."""
    v = _v()
    out = []
    by_cell = {}
    for c in counts:
        b = doc.blocks[c.block] if c.block is not None else None
        if b is not None and b.kind == "table_cell" and b.table is not None:
            by_cell.setdefault((b.table, b.row, b.cell), []).append(c)
    known = None
    for k, t in enumerate(doc.tables):
        cols = {}
        for cell in t.header:
            kind = count_column(t, cell.column)
            if kind in ("issue", "pr"):
                rest = v["ref_nouns"][kind].sub("", cell.text)
                if v["population"].search(rest):
                    continue        # 'Issues 活跃度 (新品及高优)', 'Issues 动态': not the cited items
                cols[cell.column] = (kind, bool(v["cited"].search(rest)))
        if not cols or not t.rows:
            continue
        labels = [_plain(r.cells[0].text) for r in t.rows if r.cells and _plain(r.cells[0].text)]
        notes = _table_notes(doc, k)
        note_cited, exempt = _note_rows(doc, notes, labels)
        parts = _parts(doc, labels)
        if known is None:
            known = _known_kinds(doc)
        for r in t.rows:
            if not r.cells:
                continue
            lab = _plain(r.cells[0].text)
            rng = parts.get(lab) or []
            if not rng or lab in exempt:
                continue
            refs = {}
            for lo, hi in rng:
                for repo, d in _refs_in(doc, lo, hi).items():
                    refs.setdefault(repo, {}).update(d)
            main = max(refs, key=lambda x: len(refs[x]), default=None)
            mine = refs.get(main, {})
            for cell in r.cells:
                if cell.column not in cols or cell.block is None:
                    continue
                kind, head_cited = cols[cell.column]
                if not (head_cited or note_cited or v["cited"].search(cell.text)):
                    continue
                m = _CELL_COUNT.match(cell.text)
                if not m:
                    continue
                rest = m.group("rest")
                if rest and (not rest.startswith(("（", "(")) or v["population"].search(rest)
                             or not v["cited"].search(rest)):
                    continue        # '117 个更新', '52（官方 24h 更新）', '**125 repo-wide**'
                cs = by_cell.get((k, r.index, cell.column)) or []
                if not cs:
                    continue
                c = cs[0]
                reading = _ref_readings(mine, kind, known)
                if reading is None:
                    reading = Reading("issues" if kind == "issue" else "PRs", [], 0, 0)
                head = t.column_name(cell.column)
                out.append(CountStatement("table", c.line, c.col, c.start, c.end, c.surface, int(c.value),
                                          c.approx, c.bound, [reading], f"{lab} · {_plain(head)}"))
    return out


# ---------------------------------------------------------------- counts with their own items

_OPEN = {"（": "）", "(": ")"}
_NOUN_GAP = re.compile(r"^(?:\*\*)?\s{0,2}(?:个|条|项|件|家|种|款)?\s{0,2}(?:[\u4e00-\u9fff]{1,6}|[A-Za-z][\w-]{0,20}(?:\s[A-Za-z][\w-]{0,20}){0,2})?\s{0,2}(?:\*\*)?\s{0,2}$")


def _paren_after(text: str, pos: int, limit: int):
    """(open, close) offsets of a parenthesis right after ``pos`` (within a few words of noun)."""
    k = pos
    j = min(limit, pos + 40)
    while k < j and text[k] not in "（(\n":
        k += 1
    if k >= j or text[k] == "\n" or not _NOUN_GAP.match(text[pos:k]):
        return None
    depth, close = 0, _OPEN[text[k]]
    for i in range(k, min(limit, k + 400)):
        ch = text[i]
        if ch in "（(":
            depth += 1
        elif ch in "）)":
            depth -= 1
            if depth == 0:
                return k, i if ch == close or True else None
    return None


def _top_split(text: str, s: int, e: int, sep) -> list:
    """Spans of text[s:e] split at separators outside brackets and inline code."""
    out, depth, code, cur = [], 0, False, s
    i = s
    while i < e:
        ch = text[i]
        if ch == "`":
            code = not code
        elif code:
            pass
        elif ch in "（([【「“":
            depth += 1
        elif ch in "）)]】」”":
            depth = max(0, depth - 1)
        elif depth == 0:
            m = sep.match(text, i, e)
            if m and m.end() > i:
                out.append((cur, i))
                cur = i = m.end()
                continue
        i += 1
    out.append((cur, e))
    return [(a, b) for a, b in out if text[a:b].strip()]


def _refs_between(doc, s: int, e: int) -> list:
    k = bisect_right([r.start for r in doc.references], s - 1)
    out = []
    while k < len(doc.references) and doc.references[k].start < e:
        r = doc.references[k]
        if r.end <= e:
            out.append(r)
        k += 1
    return out


_ID_RANGE = re.compile(r"^#?(?P<a>\d{2,7})\s{0,2}[-–—~～]\s{0,2}#?(?P<z>\d{2,7})$")
_RANGE_JOIN = re.compile(r"^\s{0,2}(?:[-–—~～→]|->|=>|to|through|thru|至|到)\s{0,2}$", re.IGNORECASE)
_REF_FILLER = re.compile(r"[\s#\[\]()（）/／`*]|\]\(https?://[^)\s]+\)|https?://\S+")
_TIME_AFTER = re.compile(r"\s?(?:月|小时|星期|周|天|年|分钟|秒|months?\b|weeks?\b|days?\b|years?\b|hours?\b)")


def _noun_kind(text: str) -> Optional[str]:
    for kind, rx in _v()["ref_nouns"].items():
        if rx.search(text):
            return kind
    return None


def _paren_enumeration(doc, c, counts_in, known) -> Optional[CountStatement]:
    """A count followed by its own parenthesised list: '5 个（b10327–b10331）',
    '2 个（v1.97.0-rc.1 / v1.94.2）', 'three regressions (#101, #102)', '约 8 个 issue（A、B 等）'.
    A single reference in the parenthesis is the count's source, not its list."""
    v = _v()
    text = doc.text
    limit = doc.line_starts[c.line] if c.line < len(doc.line_starts) else len(text)
    p = _paren_after(text, c.end, limit)
    if p is None:
        return None
    ps, pe = p[0] + 1, p[1]
    inner = text[ps:pe]
    closed_m = None
    for closed_m in v["closed_count"].finditer(inner):
        pass                # the last one: '（#1 已关闭、#2、#3；含 1 个已关闭）'
    body_end = ps + closed_m.start() if closed_m else pe
    if any(ps <= o.start < body_end for o in counts_in if o is not c):
        return None         # a figure inside: '3 (auto-router fix, 3 PRs same day)', '3 runs (mean, 95% CI)' describe
    noun = _noun_kind(text[c.start:p[0]])
    partial = bool(v["partial"].search(text[ps:body_end]))
    refs = _refs_between(doc, ps, body_end)
    pieces = _top_split(text, ps, body_end, v["sep"])
    ref_items, names, span = [], [], None
    for a, z in pieces:
        piece = text[a:z].strip()
        if v["partial"].fullmatch(piece.strip(" +")) or re.fullmatch(r"(?i)\+?\s*others?.*", piece):
            continue
        inside = [r for r in refs if a <= r.start and r.end <= z + 1]
        rm = _ID_RANGE.match(piece)
        rel = [r for r in inside if r.kind == "release"]
        if rm or (len(inside) == 1 and inside[0].kind == "release" and len(inside[0].ids) > 1) or (
                len(rel) == 2 and len(inside) == 2 and _RANGE_JOIN.match(text[rel[0].end:rel[1].start])):
            if len(pieces) != 1 or span is not None:
                return None
            span = (piece, inside, rm)
            continue
        if inside:
            rest = _REF_FILLER.sub("", text[a:z])
            for r in inside:
                rest = rest.replace(_REF_FILLER.sub("", r.ref), "", 1)
            closed = bool(v["closed"].search(piece))
            if not rest or rest in ("-", "—"):
                seen = set()
                for r in inside:
                    key = r.ids[0] if r.ids else r.ref
                    if key in seen:
                        continue    # a link's text and its target: one reference
                    seen.add(key)
                    ln, col = doc.line_col(r.start)
                    ref_items.append((Item(ln, r.ref if not r.url else key, col, closed), r))
            else:
                # 'annotation-lock #40591': a named item with its reference
                ln, col = doc.line_col(a)
                ref_items.append((Item(ln, piece, col, closed), inside[0]))
            continue
        if not _short_name(piece):
            return None     # a description, not a list
        ln, col = doc.line_col(a)
        names.append(Item(ln, _plain(piece), col, bool(v["closed"].search(piece))))
    if span is not None:
        return _range_statement(doc, c, span)
    if ref_items and names:
        return None         # '(v1.97.0-rc.1, v1.94.2, cosign signing)': ids with a description
    if ref_items:
        if len(ref_items) < 2:
            return None     # '639 个近期修复（#17050）': the count's source
        # 'three fix PRs (#36621, #36627, #36628, #36626)' where #36621 links an issue: the
        # PRs are counted for sure, the reference of another kind may or may not be meant
        sure = [it for it, r in ref_items if noun is None or _ref_kind(r, known) in (noun, None)]
        other = [it for it, r in ref_items if noun is not None and _ref_kind(r, known) not in (noun, None)]
        if not sure:
            return None
        items = sure + other
        what = {"issue": "issues", "pr": "PRs", "release": "releases"}.get(noun, "listed")
        reading = Reading(what, items, len(sure), 10 ** 6 if partial else len(items))
    elif len(names) >= 2:
        reading = Reading("listed", names, len(names), 10 ** 6 if partial else len(names))
        items = names
    else:
        return None
    st = _enum_statement(doc, c, [reading], "enumeration")
    if closed_m:
        k = _int(closed_m.group("k"))
        if k is not None:
            closed = [it for it in items if it.closed]
            s0, e0 = ps + closed_m.start("k"), ps + closed_m.end()
            ln, col = doc.line_col(s0)
            return [st, CountStatement("closed", ln, col, s0, e0, text[s0:e0].strip(), k,
                                       readings=[Reading("closed", closed, len(closed), len(closed))],
                                       label="closed")]
    return st


def _ref_kind(r, known) -> Optional[str]:
    if r.kind == "release":
        return "release"
    if r.url or r.ref[:1].isalpha():
        return r.kind
    return known.get(r.ids[0]) if r.ids else None


def _range_statement(doc, c, span) -> Optional[CountStatement]:
    """'5 个（b10327–b10331）': at least the ids of the range the document lists one by one, at
    most the range's span; '14 个 PR（#33126–33157）': at most the span; a version range
    ('v1.90.7 through v1.96.2') has no span."""
    piece, inside, rm = span
    if rm:
        lo_, hi_ = int(rm.group("a")), int(rm.group("z"))
        if hi_ <= lo_:
            return None
        ln, col = doc.line_col(c.start)
        return _enum_statement(doc, c, [Reading("numbered range", [Item(ln, piece, col)], min(2, hi_ - lo_ + 1),
                                                hi_ - lo_ + 1)], "enumeration")
    if len(inside) == 1:
        r = inside[0]
        ids = list(r.ids)
    else:
        a, z = inside
        if not (a.ref[:1] == "b" and z.ref[:1] == "b"):
            return None     # versions: no span to count
        lo_, hi_ = int(a.ref[1:]), int(z.ref[1:])
        if hi_ <= lo_ or hi_ - lo_ > 500:
            return None
        ids = [f"b{i}" for i in range(lo_, hi_ + 1)]
    listed = _listed_releases(doc, ids, inside)
    ev = [Item(ln, i) for i, ln in listed]
    low = max(len(listed), 2)
    return _enum_statement(doc, c, [Reading("releases", ev, min(low, len(ids)), len(ids))], "enumeration")


def _listed_releases(doc, ids, own) -> list:
    """[(id, first line)] of the build ids of a range that the document mentions one by one
    (the releases a section lists), the range's own ends included."""
    inside = set(ids)
    seen = {}
    for x in doc.references:
        if x.kind != "release" or any(x is o for o in own) or len(x.ids) != 1:
            continue
        if x.ids[0] in inside:
            seen.setdefault(x.ids[0], x.line)
    for o in own:
        for end in (o.ids[0], o.ids[-1]):
            seen.setdefault(end, o.line)
    return sorted(seen.items(), key=lambda kv: (kv[1], kv[0]))


def _short_name(piece: str) -> bool:
    """A name, not a clause: a few words, no sentence punctuation, no Chinese function words."""
    p = _plain(_strip_brackets(piece))
    if not p or len(p) > 32:
        return False
    return len(p.split()) <= 4 and not re.search(r"[。；;:：!?！？]", p) and not _v()["prose_chars"].search(p)


def _enum_statement(doc, c, readings, what, label="") -> CountStatement:
    return CountStatement(what, c.line, c.col, c.start, c.end, c.surface, int(c.value), c.approx,
                          c.bound, readings, label)


_CLAUSE_START = re.compile(r"[：:，,。；;！？!?\n]|——|—\s|\s-\s|\*\*")
_ZH_ENUM_CLS = set("家个种款项大类位批组套")


def _named_before(doc, c) -> Optional[CountStatement]:
    """Names enumerated right before a Chinese count: 'vLLM、SGLang、llama.cpp 三家',
    'vLLM（…）、SGLang（…）、llama.cpp（…）、Ollama（…）四家'."""
    v = _v()
    text = doc.text
    sur = c.surface.rstrip()
    if not sur or sur[-1] not in _ZH_ENUM_CLS or c.approx or c.bound:
        return None
    b = doc.blocks[c.block]
    i = c.start
    while i > b.start and text[i - 1] in " \t":
        i -= 1
    if i <= b.start or v["not_name_end"].search(text, max(b.start, i - 1), i):
        return None     # '大约有 250 个', '等 4+ 个': no name right before the count
    # walk back to the clause start, skipping brackets and inline code
    depth, code, j = 0, False, i
    while j > b.start:
        ch = text[j - 1]
        if ch == "`":
            code = not code
        elif code:
            pass
        elif ch in "）)】」":
            depth += 1
        elif ch in "（(【「":
            if depth == 0:
                break
            depth -= 1
        elif depth == 0 and (_CLAUSE_START.match(text, j - 1) or text[j - 2:j] in ("——", "**")):
            break
        j -= 1
    seg = text[j:i]
    if "、" not in _strip_brackets(seg) or v["partial"].search(_strip_brackets(seg)):
        return None
    pieces = _top_split(text, j, i, v["sep"])
    if len(pieces) < 2:
        return None
    items = []
    for a, z in pieces:
        name = _strip_brackets(text[a:z]).strip()
        if not _short_name(name) or len(name) > 24:
            return None
        ln, col = doc.line_col(a)
        items.append(Item(ln, name, col))
    return _enum_statement(doc, c, [Reading("named", items, len(items), len(items))], "enumeration")


def _strip_brackets(t: str) -> str:
    prev = None
    while prev != t:
        prev = t
        t = re.sub(r"[（(][^（()）]*[）)]", "", t)
    return t


def _named_after(doc, c, counts_in) -> Optional[CountStatement]:
    """A count, its noun, a colon and the names it counts: '三种基础并行策略：TP、PP 和 DP'."""
    v = _v()
    text = doc.text
    b = doc.blocks[c.block]
    k = c.end
    stop = min(b.end, c.end + 30)
    while k < stop and text[k] not in "：:\n。，,；;（(":
        k += 1
    if k >= stop or text[k] not in "：:":
        return None
    if not _NOUN_GAP.match(text[c.end:k]):
        return None
    s = k + 1
    m = re.compile(r"[。！？!?\n]|\.(?=\s|$)").search(text, s, b.end)
    e = m.start() if m else b.end
    body = text[s:e]
    if not body.strip() or any(s <= o.start < e for o in counts_in):
        return None
    zh = bool(re.search(r"、|[^\x00-\x7f]\s?(?:和|与|及)|(?:和|与|及)\s?[^\x00-\x7f]|\s(?:和|与|及)\s", _strip_brackets(body)))
    if not zh and not re.search(r",\s|\sand\s", body):
        return None
    pieces = _top_split(text, s, e, v["sep"])
    if len(pieces) < 2:
        return None
    items = []
    for a, z in pieces:
        name = _strip_brackets(text[a:z]).strip().rstrip("。.")
        if v["partial"].search(name):
            return None
        if not _short_name(name) or (not zh and len(name.split()) > 3):
            return None
        ln, col = doc.line_col(a)
        items.append(Item(ln, name, col))
    return _enum_statement(doc, c, [Reading("named", items, len(items), len(items))], "enumeration")


def _list_run(doc, lists_by_intro: dict, bi: int) -> list:
    """The list items right after block ``bi``: its list, and the lists that continue it past an
    indented continuation line the Markdown reader took for a paragraph."""
    its = list(lists_by_intro.get(bi) or [])
    while its:
        nxt = its[-1].block + 1
        if nxt >= len(doc.blocks) or doc.blocks[nxt].kind != "paragraph":
            break
        ls = doc.line_starts[doc.blocks[nxt].line - 1]
        if not doc.text[ls:ls + 1].isspace() or nxt not in lists_by_intro:
            break
        its += lists_by_intro[nxt]
    return its


def _counts_the_list(tail: str) -> bool:
    """Is the count the head of the phrase the colon closes ('The four strategies compared:',
    'two main issues in vLLM through the benchmark above:'), not of a phrase before the listed
    noun ('two models on the following setups:', '两个模型在以下配置上：')?"""
    t = _strip_brackets(tail)
    return not re.search(r"(?i)\b(?:following|these|below)\b|以下|如下|下列|下面", t)


def _list_intros(doc, counts: list) -> list:
    """A sentence that ends with a colon and counts the list right after it: 'The four
    strategies compared:', 'results in three significant problems:'."""
    lists = {}
    for it in doc.items:
        lists.setdefault(it.intro, []).append(it)
    by_block = {}
    for c in counts:
        by_block.setdefault(c.block, []).append(c)
    tables_by_caption = {t.caption: t for t in doc.tables if t.caption is not None}
    out = []
    for bi, cs in by_block.items():
        if bi is None or (bi not in lists and bi not in tables_by_caption):
            continue
        b = doc.blocks[bi]
        if not b.text.rstrip().rstrip("*").endswith((":", "：")):
            continue
        # the count must be in the sentence that ends with the colon
        last = b.text.rstrip()
        cut = max(last.rfind(x) for x in ("。", ". ", "；", "; ", "！", "? "))
        tail_start = b.start + (cut + 1 if cut >= 0 else 0)
        mine = [c for c in cs if c.start >= tail_start]
        if len(mine) != 1 or mine[0].approx or mine[0].bound:
            continue        # '三种及以上策略：' names a kind of item, not how many follow
        c = mine[0]
        if not _counts_the_list(doc.text[c.end:b.end]):
            continue        # 'two models on the following setups:': the list is of something else
        readings = []
        if bi in lists:
            its = _list_run(doc, lists, bi)
            top = min(it.depth for it in its)
            tops = [doc.blocks[it.block] for it in its if it.depth == top]
            readings.append(Reading("list items", [Item(x.line, x.text[:40]) for x in tops], len(tops), len(tops)))
        if bi in tables_by_caption:
            rows = tables_by_caption[bi].rows
            readings.append(Reading("table rows", [Item(r.line, "") for r in rows], len(rows), len(rows)))
        out.append(_enum_statement(doc, c, readings, "list_intro"))
    return out


def _heading_counts(doc, counts: list) -> list:
    """A heading that starts with a count ('四个关键问题', 'Three Lessons') over what is under it."""
    first = {}
    for c in counts:
        b = doc.blocks[c.block] if c.block is not None else None
        if b is not None and b.kind == "heading" and b.section is not None:
            first.setdefault(b.section, c)
    out = []
    for k, c in first.items():
        s = doc.sections[k]
        if s.declared_count is not None or s.line != c.line:
            continue
        b = doc.blocks[c.block]
        lead = _plain(doc.text[b.start:c.start])
        lead = re.sub(r"^(?:\d{1,3}(?:\.\d{1,3})*[.、)]?|[一二三四五六七八九十]{1,3}[、.．])\s*", "", lead)
        if lead.strip():
            continue
        # numbered entries or the section's own list; sub-sections may be of another kind
        # ('## Two approaches' over '### A', '### B', '### Comparison')
        cands = [r for r in _present_under(doc, k) if r.what in ("entries", "bullets", "table rows")]
        if cands and not any(r.what == "subsections" for r in _present_under(doc, k)):
            out.append(_enum_statement(doc, c, cands, "section"))
    return out


# ---------------------------------------------------------------- listed items (CV504)

_ENTRY_REF = re.compile(r"[（(]\s*(?P<ref>[A-Z]{1,3}\d{1,3}|增量\s*\d{1,3}|邻接\s*[A-Z0-9]{1,3}|#\d{1,3})\s*[）)]")
_ITEM_KEYS = re.compile(r"矛盾|待核实|风险|警惕|warning|caveat|open question|unverified|to verify", re.IGNORECASE)
_TOKEN = re.compile(r"[A-Za-z][A-Za-z0-9]*|\d+(?:\.\d+)*|[\u4e00-\u9fff]")
_STOP = {"the", "a", "an", "of", "and", "or", "for", "to", "in", "on", "at", "by", "with", "new", "vs",
         "的", "与", "和", "及", "新", "在"}


def _tokens(t: str) -> list:
    return [x.lower() for x in _TOKEN.findall(_EMOJI.sub("", t))]


def _stem(w: str) -> str:
    for suf in ("ing", "ed", "es", "s"):
        if len(w) > len(suf) + 3 and w.endswith(suf):
            return w[:-len(suf)]
    return w


def _content(tokens) -> list:
    return [_stem(x) for x in tokens if x not in _STOP]


def _mentions(item: str, body_index: dict, body_lines: dict) -> list:
    """Lines of the body that mention ``item``, matched by tokens, forgivingly: most of its name
    tokens (words written with a capital or a digit: 'OpenRubric', 'HELM', '1.4') and three
    fifths of all its content tokens, in one line or the line after — so an inserted article or
    word, reordered words, punctuation, a sub-title or a shortened name still match."""
    raw = [x for x in _TOKEN.findall(_EMOJI.sub("", item))]
    toks = _content([x.lower() for x in raw])
    if not toks:
        return []
    names = {_stem(x.lower()) for x in raw if (x[:1].isupper() or x[:1].isdigit() or any(ch.isupper() for ch in x[1:]))
             and x.lower() not in _STOP}
    need = max(1, (len(toks) * 3 + 4) // 5)       # three fifths, rounded up
    need_names = (len(names) + 1) // 2            # half of the names, rounded up
    cands = set()
    for t in toks:
        cands |= body_index.get(t, set())
    out = []
    for ln in sorted(cands):
        have = body_lines.get(ln, set()) | body_lines.get(ln + 1, set())
        if sum(1 for t in toks if t in have) >= need and sum(1 for t in names if t in have) >= need_names:
            out.append(ln)
    return out


def _header_blocks(doc) -> list:
    return [bi for bi, b in enumerate(doc.blocks) if b.role == "header" and b.kind in ("paragraph", "bullet", "heading")]


def _listed_items(doc, claims: list) -> list:
    v = _v()
    text = doc.text
    header = _header_blocks(doc)
    summary = _summary_blocks(doc)
    skip_lines = {doc.blocks[bi].line for bi in header + summary}
    index, per_line = {}, {}

    def body_index():
        # the body's tokens by line, built only when a header lists a named item
        if not per_line:
            for b in doc.blocks:
                if b.line in skip_lines:
                    continue
                toks = set(_content(_tokens(b.text)))
                per_line.setdefault(b.line, set()).update(toks)
                for t in toks:
                    index.setdefault(t, set()).add(b.line)
        return index, per_line
    out = []
    counts = [c for c in claims if c.kind == "count"]
    for bi in header:
        b = doc.blocks[bi]
        for a, z, pieces in _header_lists(doc, b, counts):
            for ps, pe in pieces:
                stripped = text[ps:pe].strip()
                lead = len(text[ps:pe]) - len(text[ps:pe].lstrip())
                figs = [i for i, c in enumerate(claims) if ps <= c.start < pe and c.kind != "count"]
                if not stripped or v["earlier"].search(stripped):
                    continue    # an earlier day's item
                if re.match(r"\d", stripped) and not any(claims[i].start == ps + lead for i in figs):
                    continue    # '2 NET-new paper_card': a part of a count, not an item
                ln, col = doc.line_col(ps + lead)
                if figs:
                    out.append(ListedItem("header", ln, col, stripped, "figure", claims=figs))
                elif re.search(r"[A-Za-z]{3}", stripped):
                    # a named item ('SGLang', 'FP8 KV cache'); free Chinese prose is not checked
                    out.append(ListedItem("header", ln, col, stripped, "text",
                                          found=_mentions(stripped, *body_index())))
    labels = {re.sub(r"\s+", "", e.label) for e in doc.entries}
    for bi in summary:
        b = doc.blocks[bi]
        m = re.match(r"^\s*(?:[-*+]\s+)?(?P<key>[^：:]{1,24})[：:]\s*(?P<items>.+)$", b.text)
        if not m or not _ITEM_KEYS.search(m.group("key")) or re.match(r"\s*\d", m.group("items")):
            continue
        if re.fullmatch(r"\s*(无|none|n/?a|—|-)\s*[。.]?\s*", m.group("items"), re.I):
            continue
        start = m.start("items")
        for im in re.finditer(r"[^；;、，,+＋]+", m.group("items")):
            item = im.group().strip()
            ref = _ENTRY_REF.search(item)
            if not ref:
                continue    # an item without an entry label ('未发现新的矛盾') is prose, not a reference
            s0 = b.start + start + im.start() + (len(im.group()) - len(im.group().lstrip()))
            ln, col = doc.line_col(s0)
            found = [e.line for e in doc.entries if re.sub(r"\s+", "", e.label) == re.sub(r"\s+", "", ref.group("ref"))]
            out.append(ListedItem("summary", ln, col, item, "label", found=found))
    return out


_PLUS_SEP = re.compile(r"\s[+＋]\s")
_COUNTED_BEFORE = re.compile(r"(?<![\w.])(?:\d{1,3}|[两二三四五六七八九十]{1,2})\s?(?:个|条|项|篇|件)?\s?[^()（）\d\n]{0,40}$")


def _header_lists(doc, b, counts) -> list:
    """[(start, end, piece spans)] of the lists a header line announces: '（A + B + C）' with
    three items or more, or right after a count ('2 new paper_cards (A + B)'); and a labelled
    list ('本轮新增：A、B、C', 'New this round: A, B'). A list whose clause says it belongs to an
    earlier day or a baseline ('基线：…（A + B）', 'Nov 21 already covered … (A + B)') is left out."""
    v = _v()
    text = doc.text
    out = []
    for g in re.finditer(r"[（(]([^（()）]{3,400})[）)]", b.text):
        gs, ge = b.start + g.start(1), b.start + g.end(1)
        pieces = _top_split(text, gs, ge, _PLUS_SEP)
        if len(pieces) < 2 or _earlier(text, b.start, b.start + g.start()):
            continue
        # '2 new paper_cards (A + B)': a number, a few words, then the list
        counted = bool(_COUNTED_BEFORE.search(text, max(b.start, b.start + g.start() - 48), b.start + g.start()))
        if len(pieces) >= 3 or counted:
            out.append((gs, ge, pieces))
    for m in v["header_list"].finditer(b.text):
        s0 = b.start + m.end()
        e = re.compile(r"[。！？!?\n]|\.(?=\s|$)|[（(]").search(text, s0, b.end)
        e0 = e.start() if e else b.end
        if _earlier(text, b.start, b.start + m.start() + 1):
            continue
        sep = re.compile(v["sep"].pattern + r"|\s[+＋]\s")
        pieces = _top_split(text, s0, e0, sep)
        if len(pieces) >= 2:
            out.append((s0, e0, pieces))
    return out


def _earlier(text: str, floor: int, pos: int) -> bool:
    """Does the clause before ``pos`` say its items belong to an earlier day or a baseline?"""
    seg = text[floor:pos]
    cut = max(seg.rfind(x) for x in ("。", ". ", "；", "; ", "）", ") ", "！", "? "))
    seg = seg[cut + 1:] if cut >= 0 else seg
    return bool(_v()["earlier"].search(seg))


# ---------------------------------------------------------------- all counts


def read(doc, claims: list) -> Counts:
    """Every declared count whose items can be identified, and every listed item."""
    counts = [c for c in claims if c.kind == "count" and c.block is not None and c.value is not None
              and float(c.value).is_integer() and c.unit == "item"]
    st = _section_counts(doc) + _summary_counts(doc) + _header_counts(doc)
    st += _table_counts(doc, counts)
    st += _heading_counts(doc, counts)
    taken = {(s.start, s.end) for s in st}
    known = _known_kinds(doc)
    figures_by_block = {}
    for c in claims:
        figures_by_block.setdefault(c.block, []).append(c)
    by_block = {}
    for c in counts:
        by_block.setdefault(c.block, []).append(c)
    for c in counts:
        if (c.start, c.end) in taken:
            continue
        b = doc.blocks[c.block]
        if b.role in ("references",):
            continue
        if _TIME_AFTER.match(doc.text, c.end):
            continue        # '4 个月未修复': a duration
        got = _paren_enumeration(doc, c, figures_by_block.get(c.block, ()), known)
        if got is None:
            got = _named_before(doc, c)
        if got is None:
            got = _named_after(doc, c, by_block[c.block])
        if got is None:
            continue
        for x in (got if isinstance(got, list) else [got]):
            st.append(x)
            taken.add((x.start, x.end))
    st += [x for x in _list_intros(doc, counts) if (x.start, x.end) not in taken]
    st.sort(key=lambda x: (x.start, x.end))
    return Counts(statements=st, listed=_listed_items(doc, claims))
