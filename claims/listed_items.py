"""Items a header or summary lists (CV504), with the body lines that mention them: a header
list (``（A + B + C）``, ``本轮新增：A、B、C``) matched token by token and forgivingly, items of an
earlier day or a baseline left out, and a summary's pointers at entry labels (``X（T2）``)."""
from __future__ import annotations

import re

from .count_records import ListedItem
from .count_words import EMOJI, summary_blocks, top_split, vocab
from .pattern_cache import compile_re  # compiled once per machine, not per process


_ENTRY_REF = compile_re(r"[（(]\s*(?P<ref>[A-Z]{1,3}\d{1,3}|增量\s*\d{1,3}|邻接\s*[A-Z0-9]{1,3}|#\d{1,3})\s*[）)]")


_ITEM_KEYS = compile_re(r"矛盾|待核实|风险|警惕|warning|caveat|open question|unverified|to verify", re.IGNORECASE)


_TOKEN = compile_re(r"[A-Za-z][A-Za-z0-9]*|\d+(?:\.\d+)*|[\u4e00-\u9fff]")


_STOP = {"the", "a", "an", "of", "and", "or", "for", "to", "in", "on", "at", "by", "with", "new", "vs",
         "的", "与", "和", "及", "新", "在"}


def _tokens(t: str) -> list:
    return [x.lower() for x in _TOKEN.findall(EMOJI.sub("", t))]


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
    raw = [x for x in _TOKEN.findall(EMOJI.sub("", item))]
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
    # a paragraph written as a pipe row ('| [dtyq/magic](…) | 2112 | PHP | … (A + B + C) |') is a
    # table row that blank lines tore from its table, not the header's prose listing the items
    return [bi for bi, b in enumerate(doc.blocks) if b.role == "header" and b.kind in ("paragraph", "bullet", "heading")
            and not (b.kind == "paragraph" and _PIPE_ROW.match(b.text))]


_PIPE_ROW = compile_re(r"\s{0,3}\|[^\n]*\|\s*$")


def listed_items(doc, claims: list) -> list:
    v = vocab()
    text = doc.text
    header = _header_blocks(doc)
    summary = summary_blocks(doc)
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


_PLUS_SEP = compile_re(r"\s[+＋]\s")


# a multiple or a share counts no items: '一步扩散 4× 超分辨率 (SD-Turbo + LoRA)' describes a model
_COUNTED_BEFORE = compile_re(r"(?<![\w.])(?:\d{1,3}|[两二三四五六七八九十]{1,2})(?!\s?[×xX倍%％]|[.\d])\s?(?:个|条|项|篇|件)?\s?[^()（）\d\n]{0,40}$")


def _header_lists(doc, b, counts) -> list:
    """[(start, end, piece spans)] of the lists a header line announces: '（A + B + C）' with
    three items or more, or right after a count ('2 new paper_cards (A + B)'); and a labelled
    list ('本轮新增：A、B、C', 'New this round: A, B'). A list whose clause says it belongs to an
    earlier day or a baseline ('基线：…（A + B）', 'Nov 21 already covered … (A + B)') is left out."""
    v = vocab()
    text = doc.text
    out = []
    for g in re.finditer(r"[（(]([^（()）]{3,400})[）)]", b.text):
        gs, ge = b.start + g.start(1), b.start + g.end(1)
        pieces = top_split(text, gs, ge, _PLUS_SEP)
        if len(pieces) < 2 or _earlier(text, b.start, b.start + g.start()):
            continue
        # '2 new paper_cards (A + B)': a number, a few words, then the list
        counted = bool(_COUNTED_BEFORE.search(text, max(b.start, b.start + g.start() - 48), b.start + g.start()))
        if len(pieces) >= 3 or counted:
            out.append((gs, ge, pieces))
    for m in v["header_list"].finditer(b.text):
        s0 = b.start + m.end()
        e = compile_re(r"[。！？!?\n]|\.(?=\s|$)|[（(]").search(text, s0, b.end)
        e0 = e.start() if e else b.end
        if _earlier(text, b.start, b.start + m.start() + 1):
            continue
        sep = compile_re(v["sep"].pattern + r"|\s[+＋]\s")
        pieces = top_split(text, s0, e0, sep)
        if len(pieces) >= 2:
            out.append((s0, e0, pieces))
    return out


def _earlier(text: str, floor: int, pos: int) -> bool:
    """Does the clause before ``pos`` say its items belong to an earlier day or a baseline?"""
    seg = text[floor:pos]
    cut = max(seg.rfind(x) for x in ("。", ". ", "；", "; ", "）", ") ", "！", "? "))
    seg = seg[cut + 1:] if cut >= 0 else seg
    return bool(vocab()["earlier"].search(seg))
