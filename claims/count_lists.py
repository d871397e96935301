"""Counts written beside the items they count: a parenthesised list of references, ids or
names (``three regressions (#101, #102)``, ``5 个（b10327–b10331）``), names enumerated before
or after the count (``vLLM、SGLang、llama.cpp 三家``, ``三种策略：TP、PP 和 DP``), a sentence
that introduces a list (``The four strategies compared:``) and a heading that starts with a
count (``四个关键问题``)."""
from __future__ import annotations

import re
from typing import Optional

from .count_records import UNBOUNDED, CountStatement, Item, Reading
from .count_targets import present_under
from .count_words import (EMOJI, NOUN_GAP, section_end, enumeration_split, paren_after, plain, refs_between, short_name,
                          strip_brackets, to_int, top_split, vocab)
from .pattern_cache import compile_re  # compiled once per machine, not per process
from .structure import CJK_CHAR


_ID_RANGE = compile_re(r"^#?(?P<a>\d{2,7})\s{0,2}[-–—~～]\s{0,2}#?(?P<z>\d{2,7})$")


_RANGE_JOIN = compile_re(r"^\s{0,2}(?:[-–—~～→]|->|=>|to|through|thru|至|到)\s{0,2}$", re.IGNORECASE)


_REF_FILLER = compile_re(r"[\s#\[\]()（）/／`*]|\]\(https?://[^)\s]+\)|https?://\S+")


TIME_AFTER = compile_re(r"\s?(?:月|小时|星期|周|天|年|分钟|秒|months?\b|weeks?\b|days?\b|years?\b|hours?\b)")


def _noun_kind(text: str) -> Optional[str]:
    for kind, rx in vocab()["ref_nouns"].items():
        if rx.search(text):
            return kind
    return None


def _kind_words(piece: str) -> bool:
    """Common English words in lower case ('enhancements', 'bug fixes'): a kind of item, not one."""
    from .names import is_english
    words = piece.split()
    return bool(words) and all(w.islower() and (is_english(w) or is_english(w.rstrip("s"))) for w in words)


def paren_enumeration(doc, c, counts_in, known) -> Optional[CountStatement]:
    """A count followed by its own parenthesised list: '5 个（b10327–b10331）',
    '2 个（v1.97.0-rc.1 / v1.94.2）', 'three regressions (#101, #102)', '约 8 个 issue（A、B 等）'.
    A single reference in the parenthesis is the count's source, not its list."""
    v = vocab()
    text = doc.text
    limit = doc.line_starts[c.line] if c.line < len(doc.line_starts) else len(text)
    p = paren_after(text, c.end, limit)
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
    if v["reading_guide"].search(text, ps, body_end):
        return None         # '10项测试结果（QPS，越高越好）': how to read the chart, not its items
    partial = bool(v["partial"].search(text[ps:body_end]))
    refs = refs_between(doc, ps, body_end)
    pieces = top_split(text, ps, body_end, v["sep"])
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
        if not short_name(piece):
            return None     # a description, not a list
        ln, col = doc.line_col(a)
        names.append(Item(ln, plain(piece), col, bool(v["closed"].search(piece))))
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
        reading = Reading(what, items, len(sure), UNBOUNDED if partial else len(items))
    elif len(names) >= 2 and all(_kind_words(it.surface) for it in names):
        return None         # '15 issues (enhancements and bug fixes)': the kinds counted, not the items
    elif len(names) >= 2:
        reading = Reading("listed", names, len(names), UNBOUNDED if partial else len(names))
        items = names
    else:
        return None
    st = enum_statement(doc, c, [reading], "enumeration")
    if closed_m:
        k = to_int(closed_m.group("k"))
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
        return enum_statement(doc, c, [Reading("numbered range", [Item(ln, piece, col)], min(2, hi_ - lo_ + 1),
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
    return enum_statement(doc, c, [Reading("releases", ev, min(low, len(ids)), len(ids))], "enumeration")


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


def enum_statement(doc, c, readings, what, label="") -> CountStatement:
    return CountStatement(what, c.line, c.col, c.start, c.end, c.surface, int(c.value), c.approx,
                          c.bound, readings, label)


_CLAUSE_START = compile_re(r"[：:，,。；;！？!?\n]|——|—\s|\s-\s|\*\*")


_ZH_ENUM_CLS = set("家个种款项大类位批组套")


def counts_a_measure(doc, c) -> bool:
    """The count's noun is an amount of work ('1000 个 token', '50 个 token', '1000 个并发用户'):
    what a list or names beside it enumerate is something else."""
    rx = vocab()["measure_noun"]
    # the noun after the count, or the one it was read with ('five measured requests')
    first = c.surface.split(maxsplit=1)
    return bool(rx.match(doc.text, c.end, min(len(doc.text), c.end + 16))
                or (len(first) == 2 and rx.fullmatch(" " + first[1])))


def named_before(doc, c) -> Optional[CountStatement]:
    """Names enumerated right before a Chinese count: 'vLLM、SGLang、llama.cpp 三家',
    'vLLM（…）、SGLang（…）、llama.cpp（…）、Ollama（…）四家'."""
    v = vocab()
    text = doc.text
    sur = c.surface.rstrip()
    if not sur or sur[-1] not in _ZH_ENUM_CLS or c.approx or c.bound or counts_a_measure(doc, c):
        return None
    b = doc.blocks[c.block]
    i = c.start
    while i > b.start and text[i - 1] in " \t":
        i -= 1
    if i <= b.start or v["not_name_end"].search(text, max(b.start, i - 1), i):
        return None     # '大约有 250 个', '等 4+ 个': no name right before the count
    # walk back to the clause start, skipping brackets and inline code (an enumeration of
    # names is short: the walk stops within a few hundred characters)
    depth, code, j = 0, False, i
    floor = max(b.start, i - 300)
    if "、" not in text[floor:i]:
        return None
    while j > floor:
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
    if j == floor and floor > b.start:
        return None
    seg = text[j:i]
    if "、" not in strip_brackets(seg) or v["partial"].search(strip_brackets(seg)):
        return None
    pieces = enumeration_split(text, j, i)
    # '使用UDML蒸馏策略、监督attention、ctc两个分支': a later piece that opens with Chinese words before
    # its name ('监督attention') starts the enumeration the count closes; what comes before it is
    # another part of the sentence
    for k in range(len(pieces) - 1, 0, -1):
        a, z = pieces[k]
        m = _WORDS_BEFORE_NAME.match(text, a, z)
        if m:
            pieces = [(m.end(), z)] + pieces[k + 1:]
            break
    if len(pieces) < 2:
        return None
    items = []
    for a, z in pieces:
        name = strip_brackets(text[a:z]).strip()
        if not short_name(name) or len(name) > 24:
            return None
        ln, col = doc.line_col(a)
        items.append(Item(ln, name, col))
    return enum_statement(doc, c, [Reading("named", items, len(items), len(items))], "enumeration")


_TAIL_WORD = compile_re(r"[A-Za-z]{2,}|[\u4e00-\u9fff]{2,}")
_WORDS_BEFORE_NAME = compile_re(r"\s{0,2}[\u4e00-\u9fff]{1,4}(?=[A-Za-z])")


# where the names after a count's colon end: a sentence end, or a line break unless the line
# ends with a separator and the list goes on ('`acc`（…）、`frag`（…）、⏎`a_rf`/`b_rf`')
_LIST_END = compile_re(r"[。！？!?]|(?<![、，,；;])\n|\.(?=\s|$)")


def named_after(doc, c, counts_in) -> Optional[CountStatement]:
    """A count, its noun, a colon and the names it counts: '三种基础并行策略：TP、PP 和 DP'."""
    v = vocab()
    text = doc.text
    if counts_a_measure(doc, c):
        return None
    b = doc.blocks[c.block]
    k = c.end
    stop = min(b.end, c.end + 30)
    while k < stop and text[k] not in "：:\n。，,；;（(":
        k += 1
    if k >= stop or text[k] not in "：:":
        return None
    if not NOUN_GAP.match(text[c.end:k]):
        return None
    s = k + 1
    m = _LIST_END.search(text, s, b.end)
    e = m.start() if m else b.end
    if m is None and text[s:b.end].rstrip().endswith(("、", "，", ",")) and c.block + 1 < len(doc.blocks):
        nb = doc.blocks[c.block + 1]
        if nb.kind == "paragraph" and nb.line == doc.line_col(max(b.start, b.end - 1))[0] + 1:
            # the list goes on on the next line, which the reader made a block of its own
            m = _LIST_END.search(text, nb.start, nb.end)
            e = m.start() if m else nb.end
    body = text[s:e]
    if not body.strip() or any(s <= o.start < e for o in counts_in):
        return None
    zh = bool(re.search(r"、|[^\x00-\x7f]\s?(?:和|与|及)|(?:和|与|及)\s?[^\x00-\x7f]|\s(?:和|与|及)\s", strip_brackets(body)))
    if not zh and not re.search(r",\s|\sand\s", body):
        return None
    pieces = enumeration_split(text, s, e)
    if len(pieces) < 2:
        return None
    items = []
    for a, z in pieces:
        name = strip_brackets(text[a:z]).strip().rstrip("。.")
        if v["partial"].search(name):
            return None
        if not short_name(name) or (not zh and len(name.split()) > 3):
            return None
        ln, col = doc.line_col(a)
        items.append(Item(ln, name, col))
    return enum_statement(doc, c, [Reading("named", items, len(items), len(items))], "enumeration")


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


# a count inside a phrase of place: '在两个平台上…', 'on two platforms, we …'
_WHERE_BEFORE = compile_re(r"(?:在|于|(?<![A-Za-z])(?:on|across))\s{0,2}$")
_WHERE_AFTER = compile_re(r"[^，,:：。]{0,6}?(?:上|中|里|下|(?<![A-Za-z])(?:platforms?|machines?|nodes?|devices?)(?![A-Za-z]))")


def _counts_the_list(tail: str) -> bool:
    """Is the count the head of the phrase the colon closes ('The four strategies compared:',
    'two main issues in vLLM through the benchmark above:'), not of a phrase before the listed
    noun ('two models on the following setups:', '两个模型在以下配置上：')?"""
    t = strip_brackets(tail)
    # '以 1000 个 … prompt 为例：' takes them as an example; what follows is about them
    return not re.search(r"(?i)\b(?:following|these|below|for example)\b|以下|如下|下列|下面|为例", t)


# a count that points back ('这两种技术共同…：', 'These two techniques together give:'): it counts
# what came before the colon's sentence, not the list after it
_BACK_REFERENCE = compile_re(r"(?:这|这些|那些|上述|以上|前述|前面的?|(?<![A-Za-z])(?:these|those|the\s{1,2}above|both\s{1,2}of\s{1,2}these))\s{0,2}$",
                             re.IGNORECASE)


# an inline-code name in a list item ('`abs()`')
_CODE_NAME = compile_re(r"`[^`\n]{1,60}`")


_WORDISH = compile_re(r"[A-Za-z\u4e00-\u9fff]")


def _aside(text: str, lo: int, c, hi: int) -> bool:
    """A count in a parenthesis that the sentence goes on after ('The OpenClaw-derived cluster
    (13 repos) continues to mature with a clear pattern:'): it sizes the noun before it, and
    the colon introduces what the sentence goes on to say.  'Key problems (3):' counts the list."""
    op = max(text.rfind("(", lo, c.start), text.rfind("（", lo, c.start))
    if op < 0 or max(text.rfind(")", op, c.start), text.rfind("）", op, c.start)) >= 0:
        return False
    cl = [k for k in (text.find(")", c.end, hi), text.find("）", c.end, hi)) if k >= 0]
    if not cl:
        return False
    return bool(_WORDISH.search(text, min(cl) + 1, hi))


def list_intros(doc, counts: list) -> list:
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
        if counts_a_measure(doc, c):
            continue        # '生成 1000 个 token：' sizes the run the list reports on
        if _BACK_REFERENCE.search(doc.text, max(tail_start, c.start - 16), c.start):
            continue        # '这两种技术共同…：' counts the two things just described
        if not _counts_the_list(doc.text[c.end:b.end]):
            continue        # 'two models on the following setups:': the list is of something else
        if _aside(doc.text, tail_start, c, b.end):
            continue        # 'The cluster (13 repos) continues to mature with a clear pattern:' sizes the cluster
        if _WHERE_BEFORE.search(doc.text[max(b.start, c.start - 8):c.start]) and \
                _WHERE_AFTER.search(doc.text, c.start, min(b.end, c.end + 8)):
            continue        # '在两个平台上用 nsys 抓了…：' counts where it was done, not what follows
        readings = []
        if bi in lists:
            its = _list_run(doc, lists, bi)
            top = min(it.depth for it in its)
            tops = [doc.blocks[it.block] for it in its if it.depth == top]
            readings.append(Reading("list items", [Item(x.line, x.text[:40]) for x in tops], len(tops), len(tops)))
            # '共10个方面的改进：' over '* 检测模块：' and '* 识别模块：', each over its own items: the
            # top items are the groups' labels, and what is counted is in them
            subs = [doc.blocks[it.block] for it in its if it.depth == top + 1]
            if subs and all(x.text.rstrip().rstrip("*").endswith((":", "：")) for x in tops):
                readings.append(Reading("list items", [Item(x.line, x.text[:40]) for x in subs], len(subs), len(subs)))
            # '数学函数 (15个)：' over bullets that each name several functions ('- `abs()`, `sqrt()`, …'):
            # the items are the names, not the bullets
            names = [(x.line, m.group(0)) for x in tops for m in _CODE_NAME.finditer(x.text)]
            if tops and all(len(_CODE_NAME.findall(x.text)) >= 2 for x in tops):
                readings.append(Reading("named", [Item(ln, n[:40]) for ln, n in names], len(names), len(names)))
        if bi in tables_by_caption:
            t = tables_by_caption[bi]
            rows = t.rows
            readings.append(Reading("table rows", [Item(r.line, next((x.text[:40] for x in r.cells if x.text), ""))
                                                  for r in rows], len(rows), len(rows)))
            # '三轮实际输出吞吐分别为：' over '| 模式 | 第 1 轮 | 第 2 轮 | 第 3 轮 |': the items may
            # stand side by side, as the table's columns
            cols = [x for x in t.header if x.column >= 1 and x.text.strip()]
            if len(cols) >= 2:
                readings.append(Reading("table columns", [Item(t.line, x.text[:40]) for x in cols],
                                        len(cols), len(cols)))
            # '比较前 3 个输出 token 的 logprob：' over '| 配置 | chunked_prefill_size | token 1 | token 2 |
            # token 3 |': the columns its noun heads
            nouns = [w.lower() for w in _TAIL_WORD.findall(doc.text, c.end, min(b.end, c.end + 24))][:2]
            named = [x for x in cols if any(n in x.text.lower() for n in nouns)]
            if len(named) >= 2:
                readings.append(Reading("table columns", [Item(t.line, x.text[:40]) for x in named],
                                        len(named), len(named)))
        out.append(enum_statement(doc, c, readings, "list_intro"))
    return out


def heading_counts(doc, counts: list) -> list:
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
        lead = plain(doc.text[b.start:c.start])
        lead = re.sub(r"^(?:\d{1,3}(?:\.\d{1,3})*[.、)]?|[一二三四五六七八九十]{1,3}[、.．])\s*", "", lead)
        if lead.strip():
            continue
        # numbered entries or the section's own list; sub-sections may be of another kind
        # ('## Two approaches' over '### A', '### B', '### Comparison')
        kinds = ("entries", "bullets", "table rows", "table columns")
        if vocab()["prose_point_noun"].search(doc.text, c.start, min(b.end, c.end + 16)):
            kinds = ("entries", "bullets")      # 'two core ideas' are not a spec table's rows
        cands = [r for r in present_under(doc, k) if r.what in kinds]
        if cands and not any(r.what == "subsections" for r in present_under(doc, k)):
            out.append(enum_statement(doc, c, cands, "section"))
    return out


_INTRO_TAIL = compile_re(r"[\s:：*_#]+$")
_CJK_RUN = compile_re(r"\s{0,2}([\u4e00-\u9fff]{2,6})")
_ASCII_NOUN = compile_re(r"\s{0,2}([A-Za-z][A-Za-z-]{1,20})(?![A-Za-z])")


def _count_nouns(doc, c) -> list:
    """[(noun, where it ends)] a count may be of: the plural noun it was read with ('six
    tested queries'), or the Chinese words after its classifier, whose end is not written
    ('4 个场景均在…': '场景', '场景均', …) or the English word after it ('5 个 PR')."""
    words = c.surface.split()
    if len(words) >= 2 and words[-1].isalpha() and words[-1].isascii():
        return [(words[-1].lower(), c.end)]
    if c.surface[-1:].isascii():
        return []
    own = vocab()["counting_classifiers"].get(c.surface[-1:])
    if own is not None:
        return [(noun, c.end) for noun in own]        # '两步计算': steps, whatever they compute
    m = _ASCII_NOUN.match(doc.text, c.end)
    if m:
        return [(m.group(1).lower(), m.end())]       # '5 个 PR', '3 个 Issue'
    m = _CJK_RUN.match(doc.text, c.end)
    if m is None:
        return []
    run = m.group(1)
    return [(run[:k], m.start(1) + k) for k in range(2, len(run) + 1)]


def _intro_names(text: str, noun: str) -> bool:
    """Does a list's introducing line name the noun ('**Test queries**:' for 'queries',
    '测试场景：' for '场景')?"""
    head = _INTRO_TAIL.sub("", plain(text))
    if noun.isascii():
        last = head.split()[-1].lower() if head.split() else ""
        return last == noun
    return head.endswith(noun)


def back_references(doc, counts: list, taken: set) -> list:
    """A count that points back at the one list the document introduces with its noun:
    'These six tested queries' or 'over all 6 different queries' after '**Test queries**:' and
    its five bullets, '上述 4 个场景' after '测试场景：'.  A count narrowed to a part ('the two
    queries that regressed', '其中 2 个') or a noun two lists are introduced with counts no list."""
    if not doc.items:
        return []
    v = vocab()
    lists = {}
    for it in doc.items:
        if it.intro is not None:
            lists.setdefault(it.intro, []).append(it)
    out = []
    for c in counts:
        if (c.start, c.end) in taken or c.approx or c.bound:
            continue
        b = doc.blocks[c.block]
        if not v["back_to_list"].search(doc.text, max(b.start, c.start - 24), c.start):
            continue
        earlier = [bi for bi in lists if bi != c.block and doc.blocks[bi].start < c.start]
        named, after = [], None
        for noun, end in _count_nouns(doc, c):
            named = [bi for bi in earlier if _intro_names(doc.blocks[bi].text, noun)]
            if named:
                after = end
                break
        if len(named) != 1:
            continue        # no list, or two lists of that noun: which one is meant is not said
        if v["narrowed"].match(doc.text, after, min(b.end, after + 24)):
            continue
        its = _list_run(doc, lists, named[0])
        top = min(it.depth for it in its)
        tops = [doc.blocks[it.block] for it in its if it.depth == top]
        if len(tops) < 2:
            continue
        out.append(enum_statement(doc, c, [Reading("list items", [Item(x.line, x.text[:40]) for x in tops],
                                                   len(tops), len(tops))], "list_named"))
    return out


def _heading_names(title: str, noun: str) -> int:
    """Does a sub-section heading name the noun ('Issues Closed' for 'issues', '修复 PR' for 'PR')?
    2: as its head; 1: only as a modifier of another noun ('### 数据模型选择' is about data models,
    not the '5 条数据' before it: a further CJK noun follows, not 'list'); 0: not at all."""
    t = plain(title)
    if noun.isascii():
        return 2 if noun in t.lower().split() else 0
    got = 0
    for m in re.finditer(re.escape(noun), t):
        rest = t[m.end():]
        if not rest or not CJK_CHAR.match(rest) or _LIST_WORD.match(rest) or _JOINER.match(rest):
            return 2
        got = 1
    return got


_LIST_WORD = compile_re(r"(?:列表|清单|一览|汇总|明细|概览)")
# ... or a conjunction or particle: '模型架构与相关概念' names the architecture and the concepts
_JOINER = compile_re(r"[与和及、的之]")


def own_subsections(doc, counts: list, taken: set) -> list:
    """A count in a section's opening text against the one sub-section of that section whose
    heading names its noun: 'We closed a total of 39 issues … through 12 pull requests' over
    '## Issues Closed' and '## Pull Requests' and their lists.  A sub-section headed as a
    selection ('## Notable issues', '## 部分 PR') lists only some of them."""
    if not doc.sections:
        return []
    v = vocab()
    out = []
    for c in counts:
        if (c.start, c.end) in taken or c.approx or c.bound:
            continue
        # the innermost section whose opening text (before its first sub-section) holds the count
        k = next((i for i in range(len(doc.sections) - 1, -1, -1)
                  if doc.sections[i].line < c.line <= section_end(doc, i)), None)
        if k is None:       # before the first section: the document's own opening text
            subs = list(enumerate(doc.sections))
        else:
            s, end = doc.sections[k], section_end(doc, k)
            subs = [(i, t) for i, t in enumerate(doc.sections) if s.line < t.line <= end and t.level > s.level]
        if not subs or subs[0][1].line < c.line:
            continue
        top = min(t.level for _, t in subs)
        subs = [(i, t) for i, t in subs if t.level == top]
        named = []
        for noun, _ in _count_nouns(doc, c):
            said = [(i, t, _heading_names(t.title, noun)) for i, t in subs]
            named = [(i, t) for i, t, k in said if k == 2]
            if named or any(k for _, _, k in said):
                break       # (a heading that names it only as a modifier ends the search too)
        if len(named) != 1 or v["partial_heading"].search(plain(named[0][1].title)):
            continue
        i, t = named[0]
        last = section_end(doc, i)
        tops = _first_list(doc, t.line, last)
        if not tops:
            continue
        out.append(enum_statement(doc, c, [Reading("list items", [Item(x.line, x.text[:40]) for x in tops],
                                                   len(tops), len(tops))], "list_named"))
    return out


def _title_key(t: str) -> str:
    t = EMOJI.sub("", plain(t)).strip(" :：-—").lower()
    return vocab()["new_prefix"].sub("", t).strip()


def _first_list(doc, first_line: int, last_line: int) -> list:
    """The blocks of the first list between two lines, at its own depth: the list right under a
    heading ('The following individuals contributed…' and its names after it are another list)."""
    under = [it for it in doc.items if first_line < doc.blocks[it.block].line <= last_line]
    if not under:
        return []
    return [doc.blocks[it.block] for it in under if it.list_id == under[0].list_id and it.depth == under[0].depth]


def headed_counts(doc, taken: set) -> list:
    """A summary cell or bullet that is a count of what one section is headed by: '| 10+
    Cookbook Recipes | …' over '## 📖 New Cookbook Recipes' and its nine bullets, '- 12 项新特性'
    over '## 新特性'.  The section's first list (or, without one, its first table's rows) is
    what it counts; a phrase no heading or two headings name counts nothing here."""
    if not doc.sections:
        return []
    v = vocab()
    places = [(c.start, c.end, c.line, c.col, c.text) for t in doc.tables for r in t.rows for c in r.cells[:1]]
    for it in doc.items:
        b = doc.blocks[it.block]
        places.append((b.start, b.end, b.line, 1 + b.start - doc.line_starts[b.line - 1], b.text))
    heads = {}
    for k, s in enumerate(doc.sections):
        heads.setdefault(_title_key(s.title), []).append(k)
    out = []
    for start, end, line, col, text in places:
        if not text.lstrip("*_ `")[:1].isdigit():
            continue        # only a place that starts with its count can be one
        t = plain(text)
        m = v["count_cell"].match(t)
        if m is None:
            continue
        ks = heads.get(_title_key(m.group("phrase")))
        if not ks or len(ks) != 1 or doc.sections[ks[0]].line <= line <= section_end(doc, ks[0]):
            continue
        k = ks[0]
        s, last = doc.sections[k], section_end(doc, k)
        blocks = _first_list(doc, s.line, last)
        if blocks:
            got = [(x.line, x.text) for x in blocks]
            what = "list items"
        else:
            tables = [tb for tb in doc.tables if s.line < tb.line <= last]
            if not tables:
                continue
            got = [(r.line, next((x.text for x in r.cells if x.text), "")) for r in tables[0].rows]
            what = "table rows"
        if not got:
            continue
        at = text.find(m.group("n"))
        surface = t[:m.end("phrase")]
        s0 = start + max(at, 0)
        if any(a == s0 for a, _ in taken):
            continue        # read already as a count of its own ('5 项' over '## 新特性')
        n = int(m.group("n"))
        out.append(CountStatement("list_named", line, col + max(at, 0), s0, s0 + len(surface), surface, n,
                                  bound="ge" if m.group("plus") else None,
                                  readings=[Reading(what, [Item(ln, x[:40]) for ln, x in got], len(got), len(got))]))
    return out
