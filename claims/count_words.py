"""The vocabulary of counts (claims/data/counts.yaml) and the small text readers the count
modules share: numbers written as words, markup stripped, a parenthesis after a count, an
enumeration split at its separators."""
from __future__ import annotations

import re
from bisect import bisect_right
from functools import lru_cache
from typing import Optional

from . import numerals
from ._data import load
from .pattern_cache import compile_re  # compiled once per machine, not per process


@lru_cache(maxsize=None)
def vocab():
    d = load("counts.yaml")
    w = load("figure_words.yaml")
    approx = sorted(w["approx_before"], key=len, reverse=True)
    bounds = sorted(((a, k) for k, v in d["count_bounds"].items() for a in v), key=lambda x: -len(x[0]))
    cls = "|".join(re.escape(c) for c in d["zh_classifiers"])
    time_after = "|".join(re.escape(c) for c in d["zh_time_after"])
    refn = d["ref_nouns"]
    return {
        # the patterns start with a character class, so a scan skips ahead to it; the tests
        # on the character before a match are made on the match (a leading look-behind
        # would be tried at every position)
        "zh": compile_re(r"(?P<n>%s)\s?(?P<cls>%s)(?!%s)" % (d["zh_numerals"], cls, time_after)),
        "zh_glued": "一二三四五六七八九十百千万两0123456789",
        "zh_not_before": compile_re(d["zh_not_before"]),
        "en": compile_re(r"(?P<n>[%s](?:%s))\b(?P<mods>(?:[ \t-]+[A-Za-z][\w-]*){0,2}?)[ \t]+(?P<noun>[A-Za-z][\w-]*[a-z]s|[A-Z]{2,5}s)\b"
                         % ("".join(sorted({w[0] + w[0].upper() for w in d["en_numbers"]})),
                            "|".join(sorted({w[1:] for w in d["en_numbers"]}, key=lambda w: (-len(w), w))))),
        "en_numbers": set(d["en_numbers"]),
        "en_not_nouns": set(d["en_not_nouns"]),
        "en_not_mods": set(d["en_not_modifiers"]),
        "digit_noun": compile_re(r"(?<![\w.#/=-])(?P<n>\d{1,5})(?P<plus>\+)?[ \t]?(?:%s[ \t])?(?P<noun>%s)\b"
                                 % (d.get("digit_noun_adjectives") or "(?!)", d["digit_nouns"])),
        # '20+ 个修复 PR', '90+ 评论', '20 多个': digits, '+' or '多', then a classifier or a CJK noun
        "digit_plus": compile_re(r"(?<![\w.#/~=-])(?P<n>\d{1,5})(?:(?P<plus>\+)|\s?多)(?![\d+])(?:\s?(?:%s))?(?=\s?[\u4e00-\u9fffA-Za-z])" % cls),
        "zh_time_after": compile_re(r"\s?(?:%s)" % time_after),
        # words right before a count ('约 ', 'at least '): word -> bound (None: an approximation),
        # looked up by the end of the text before the count, longest first
        "before": sorted({**{a.lower(): None for a in approx}, **{a.lower(): k for a, k in bounds}}.items(),
                         key=lambda kv: -len(kv[0])),
        "ref_nouns": {k: compile_re(v) for k, v in refn.items()},
        "population": compile_re(d["population_words"]),
        "cited": compile_re(d["cited_words"]),
        "partial": compile_re(d["partial_words"]),
        "reading_guide": compile_re(d["reading_guide"]),
        "closed_count": compile_re(d["closed_count"]),
        "closed": compile_re(d["closed_marker"]),
        "measure_noun": compile_re(d["measure_nouns"]),
        "prose_point_noun": compile_re(d["prose_point_nouns"]),
        "sep": compile_re(d["enum_separators"]),
        "sep_semicolon": compile_re(d["enum_rank_semicolon"]),
        "sep_comma": compile_re(d["enum_rank_comma"]),
        "sep_conj": compile_re(d["enum_conjunction"]),
        "lead_conj": compile_re(d["enum_leading_conjunction"], re.IGNORECASE),
        "earlier": compile_re(d["earlier_words"]),
        "ge_after": compile_re(d["ge_after"], re.IGNORECASE),
        "count_note": compile_re(d["count_note"]),
        "header_list": compile_re(d["header_list"]),
        "not_name_end": compile_re(d["zh_not_name_end"]),
        "not_declared_before": compile_re(d["not_declared_before"]),
        "prose_chars": compile_re(d["zh_prose_chars"]),
        "counting_classifiers": {k: tuple(v) for k, v in d["zh_counting_classifiers"].items()},
        "back_to_list": compile_re(d["back_to_list_before"], re.IGNORECASE),
        "narrowed": compile_re(d["back_to_list_narrowed"]),
        "partial_heading": compile_re(d["partial_heading"]),
        "summed_noun": compile_re(r"^%s$" % d["summed_nouns"]),
        "amount": compile_re(r"(?<![\w.])(?P<n>\d{1,6})\s?(?P<noun>%s)(?![A-Za-z])" % d["summed_nouns"]),
        # a table cell or list item that is only a count and what it counts: '10+ Cookbook
        # Recipes', '4 New Examples', '12 项新特性'
        "count_cell": compile_re(r"^(?P<n>\d{1,4})(?P<plus>\+)?\s{0,2}(?:%s)?\s{0,2}"
                                 r"(?P<phrase>[A-Za-z\u4e00-\u9fff][A-Za-z\u4e00-\u9fff &/-]{1,60})$" % cls),
        "new_prefix": compile_re(r"^%s\s{0,2}" % d["heading_new_prefix"], re.IGNORECASE),
    }


def to_int(s: str) -> Optional[int]:
    s = s.strip()
    try:
        if s.isdigit():
            return int(s)
        if s.lower() in numerals.EN_ONES or s.lower() in numerals.EN_TENS:
            return int(numerals.parse_english(s)[0])
        return int(numerals.parse_chinese(s)[0])
    except (ValueError, ArithmeticError, KeyError, TypeError):
        return None


def section_end(doc, k: int) -> int:
    """Last line of section k (the line before the next heading of its level or above)."""
    s = doc.sections[k]
    if s.end_line:
        return s.end_line
    for t in doc.sections[k + 1:]:
        if t.level <= s.level:
            return t.line - 1
    return len(doc.line_starts)


_MARKUP = compile_re(r"[*_`~]|\[|\]\([^)]*\)|<[^>]{0,80}>")


def plain(t: str) -> str:
    """Text without Markdown emphasis, code marks, link targets and HTML tags."""
    return _MARKUP.sub("", t).strip()


EMOJI = compile_re(r"[\U0001F000-\U0001FAFF\u2600-\u27BF\uFE0F]")


def summary_blocks(doc) -> list:
    """Indices of the prose blocks of the summary sections."""
    return [bi for bi, b in enumerate(doc.blocks) if b.role == "summary" and b.kind in ("paragraph", "bullet")]


# what may stand between a count and the parenthesis that lists its items: a classifier and
# a short noun ('5 个版本（…）', '2 releases (…)', '6 个 PR（…）')
NOUN_GAP = compile_re(r"^(?:\*\*)?\s{0,2}(?:个|条|项|件|家|种|款)?\s{0,2}(?:[\u4e00-\u9fff]{1,6}|[A-Za-z][\w-]{0,20}(?:\s[A-Za-z][\w-]{0,20}){0,2})?\s{0,2}(?:\*\*)?\s{0,2}$")


def paren_after(text: str, pos: int, limit: int):
    """(open, close) offsets of the parenthesis right after ``pos`` (after at most a classifier
    and a short noun), before ``limit``; None when there is none."""
    k = pos
    j = min(limit, pos + 40)
    while k < j and text[k] not in "（(\n":
        k += 1
    if k >= j or text[k] == "\n" or not NOUN_GAP.match(text[pos:k]):
        return None
    depth = 0
    for i in range(k, min(limit, k + 400)):
        ch = text[i]
        if ch in "（(":
            depth += 1
        elif ch in "）)":
            depth -= 1
            if depth == 0:
                return k, i
    return None


def top_split(text: str, s: int, e: int, sep) -> list:
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


def enumeration_split(text: str, s: int, e: int) -> list:
    """The items of the enumeration text[s:e] (outside brackets and inline code): cut at the
    highest rank of separator it uses ('；' over '，'/'、'/', ' over a conjunction), a conjunction
    cutting only the last item ('TP、PP 和 DP'; 'kernels and compilation' in a list of commas
    is one item, 'A, B, and C' has the conjunction after its last comma)."""
    v = vocab()
    for rank in (v["sep_semicolon"], v["sep_comma"]):
        pieces = top_split(text, s, e, rank)
        if len(pieces) >= 2:
            break
    else:
        return top_split(text, s, e, v["sep_conj"])
    out = []
    for k, (a, z) in enumerate(pieces):
        m = v["lead_conj"].match(text[a:z])
        if m:
            out.append((a + m.end(), z))        # ', and parallelism': the Oxford comma's item
        elif k == len(pieces) - 1 and rank is v["sep_comma"]:
            out.extend(top_split(text, a, z, v["sep_conj"]))
        else:
            out.append((a, z))
    return [(a, z) for a, z in out if text[a:z].strip()]


def refs_between(doc, s: int, e: int) -> list:
    """The references wholly inside text[s:e]."""
    cached = doc.starts.get("count_refs")
    if cached is None or cached[0] is not doc.references:
        cached = doc.starts["count_refs"] = (doc.references, [r.start for r in doc.references])
    k = bisect_right(cached[1], s - 1)
    out = []
    while k < len(doc.references) and doc.references[k].start < e:
        r = doc.references[k]
        if r.end <= e:
            out.append(r)
        k += 1
    return out


def short_name(piece: str) -> bool:
    """A name, not a clause: a few words, no sentence punctuation, no Chinese function words."""
    p = plain(strip_brackets(piece))
    if not p or len(p) > 32:
        return False
    return len(p.split()) <= 4 and not re.search(r"[。；;:：!?！？]", p) and not vocab()["prose_chars"].search(p)


def strip_brackets(t: str) -> str:
    """Text without its parenthesised parts ('vLLM（SM8x 缺失）' -> 'vLLM')."""
    prev = None
    while prev != t:
        prev = t
        t = re.sub(r"[（(][^（()）]*[）)]", "", t)
    return t
